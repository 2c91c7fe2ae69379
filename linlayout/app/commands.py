"""The ``linlayout`` subcommands: each ``cmd_<name>(args)`` prints its result and returns the
exit status.  Layout arguments are read through :mod:`converters.registry`, and every value goes
to the core through :func:`linlayout.contract.as_linear` (or ``as_layout``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from converters import registry
from linlayout.contract import as_layout, as_linear
from linlayout.equiv import equivalent
from linlayout.errors import DimensionError, LayoutError, UnsupportedError
from linlayout.general import MixedRadixLayout
from linlayout.linear import LinearLayout
from linlayout.plan import plan_conversion

__all__ = [
    "parse_shape", "load_arg", "linear_of", "convert_text", "equivalence_answer", "plan_answer", "bases_text",
    "swizzle_from_spec", "row_major_tile", "cmd_show", "cmd_convert", "cmd_equiv", "cmd_plan", "cmd_swizzle", "cmd_banks", "cmd_space", "json_default"]


def parse_shape(text: str | None) -> list[int] | None:
    """``"128,128"``, ``"128x128"``, ``"[128, 128]"`` -> ``[128, 128]``.

        >>> parse_shape("128x64"), parse_shape("[8, 64]"), parse_shape(None)
        ([128, 64], [8, 64], None)
    """
    if text is None:
        return None
    parts = [p for p in re.split(r"[\s,x*()\[\]]+", text.strip()) if p]
    try:
        shape = [int(p) for p in parts]
    except ValueError:
        raise DimensionError(f"--shape {text!r}: expected positive integers like 128,128") from None
    if not shape or any(s <= 0 for s in shape):
        raise DimensionError(f"--shape {text!r}: expected positive integers like 128,128")
    return shape


# ---------------------------------------------------------------------------------- helpers


def load_arg(arg: str, form: str | None) -> tuple[str, Any]:
    return registry.load(arg, form)


def linear_of(obj: Any, shape: list[int] | None) -> LinearLayout:
    return as_linear(obj, shape)


def emit(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    if args.json:
        print(json.dumps(payload, default=json_default))
    else:
        print(text)


def json_default(x: Any) -> Any:
    if isinstance(x, LinearLayout):
        return x.to_dict()
    if hasattr(x, "tolist"):
        return x.tolist()
    if isinstance(x, (set, frozenset, tuple)):
        return list(x)
    return str(x)


def shape_of(L: LinearLayout) -> list[int]:
    return [L.out_dim_size(n) for n in L.out_dim_names]


def bases_text(L: LinearLayout) -> str:
    lines = []
    for name, vecs in L.bases.items():
        vals = " ".join("(" + ",".join(str(x) for x in v) + ")" for v in vecs) or "-"
        lines.append(f"  {name:<9} [{L.in_dim_size(name)}]: {vals}")
    lines.append("  out dims: " + ", ".join(f"{n}={s}" for n, s in L.out_dims.items()))
    return "\n".join(lines)


# --------------------------------------------------------------------------------- commands


def cmd_show(args: argparse.Namespace) -> int:
    from linlayout import draw

    shape = parse_shape(args.shape)
    form, obj = load_arg(args.layout, args.form)
    payload: dict[str, Any] = {"form": form, "text": str(obj)}
    lines = [f"form: {form}", f"layout: {obj}"]
    try:
        L = linear_of(obj, shape)
    except LayoutError as e:
        if not isinstance(e, (UnsupportedError,)) and type(e).__name__ not in ("NotLinearError", "NotInvertibleError"):
            raise
        payload["linear"] = None
        payload["not_linear"] = str(e).splitlines()[0]
        lines.append(f"not GF(2)-linear: {str(e).splitlines()[0]}")
        lines += general_lines(obj, shape, payload)
        emit(args, payload, "\n".join(lines))
        return 0
    payload["linear"] = L.to_dict()
    lines.append("linear layout (basis i of an in-dim = image of 2**i):")
    lines.append(bases_text(L))
    cells = L.total_out_size
    if args.svg:
        draw.save(L, args.svg, style=args.style if args.style != "hardware" else "gluon")
        lines.append(f"wrote {args.svg}")
    if args.png:
        draw.save(L, args.png, style=args.style if args.style != "hardware" else "gluon")
        lines.append(f"wrote {args.png}")
    if args.style == "hardware":
        grid = draw.hardware_view(L)
    elif cells <= args.max_cells:
        grid = draw.text_grid(L, style=args.style)
    else:
        grid = None
        lines.append(f"(grid of {cells} cells not shown; raise --max-cells or write --svg/--png)")
    if grid is not None:
        payload["grid"] = grid.splitlines()
        lines.append("")
        lines.append(grid)
    emit(args, payload, "\n".join(lines))
    return 0


def general_lines(obj: Any, shape: list[int] | None, payload: dict[str, Any]) -> list[str]:
    try:
        g = as_layout(obj, shape)
    except LayoutError:
        return []
    if not isinstance(g, MixedRadixLayout):
        return []
    lines = [f"general (mixed-radix) form: {g!r}"]
    payload["general"] = repr(g)
    try:
        pieces = g.split_pow2()
    except LayoutError:
        pieces = []
    if pieces:
        lines.append(f"power-of-two pieces ({len(pieces)}), each GF(2)-linear:")
        payload["pieces"] = []
        for p in pieces:
            lines.append(f"  inputs from {p.in_start}, size {p.layout.in_dims}, offset {p.offset}")
            payload["pieces"].append({"in_start": p.in_start, "in_dims": p.layout.in_dims, "offset": p.offset})
    return lines


def convert_text(obj: Any, to: str, shape: list[int] | None) -> tuple[Any, str]:
    """(json payload, text) of ``obj`` spelled in form ``to`` (same kind and meaning, or refused)."""
    if to == "json":
        L = linear_of(obj, shape)
        return L.to_dict(), json.dumps(L.to_dict())
    out = registry.convert(obj, to, shape)
    text = registry.to_text(out)
    if to == "linear":
        return out.to_dict(), text
    return text, text


def cmd_convert(args: argparse.Namespace) -> int:
    shape = parse_shape(args.shape)
    form, obj = load_arg(args.layout, args.form)
    payload, text = convert_text(obj, args.to, shape)
    if args.json:
        print(json.dumps({"from": form, "to": args.to, "result": payload}, default=json_default))
    else:
        print(text)
    return 0


def equivalence_answer(a: Any, b: Any, shape: list[int] | None) -> tuple[bool, str, Any]:
    """(equal?, relation, counterexample) of two layout values (linlayout.equiv)."""
    r = equivalent(a, b, shape=shape)
    cex = r.counterexample
    return bool(r), str(r.relation), (str(cex) if cex is not None else None)


def cmd_equiv(args: argparse.Namespace) -> int:
    shape = parse_shape(args.shape)
    fa, a = load_arg(args.a, args.form)
    fb, b = load_arg(args.b, args.form_b or args.form)
    same, relation, cex = equivalence_answer(a, b, shape)
    text = f"{'EQUIVALENT' if same else 'DIFFERENT'}: {relation}"
    if cex is not None and not same:
        text += f"\n  counterexample: {cex}"
    emit(args, {"equivalent": same, "relation": relation, "counterexample": cex, "forms": [fa, fb]}, text)
    return 0 if same else 1


def plan_answer(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> tuple[dict[str, Any], str]:
    p = plan_conversion(src, dst, bitwidth=bitwidth)
    return p.to_dict(), str(p)


def cmd_plan(args: argparse.Namespace) -> int:
    shape = parse_shape(args.shape)
    _, a = load_arg(args.src, args.form)
    _, b = load_arg(args.dst, args.form)
    payload, text = plan_answer(linear_of(a, shape), linear_of(b, shape), args.bitwidth)
    emit(args, payload, text)
    return 0


def swizzle_from_spec(spec: str, bitwidth: int):
    """The swizzle (element units) named by ``spec`` (CuTe text or a mode), and a description."""
    from linlayout.swizzle import swizzle_for, swizzle_mode_bytes

    s = spec.strip()
    if "<" in s or s.upper().startswith("SW_"):
        from converters.cute import parse_swizzle

        sw = parse_swizzle(s)
        return sw, f"Swizzle<{sw.bits},{sw.base},{sw.shift}> (element units)"
    width = swizzle_mode_bytes(s)
    sw = swizzle_for(bitwidth, width)
    return sw, f"{width}-byte swizzle mode for {bitwidth}-bit elements = Swizzle<{sw.bits},{sw.base},{sw.shift}> in elements"


def row_major_tile(rows: int, cols: int) -> LinearLayout:
    """The shared layout offset -> (row, col) of a row-major (rows, cols) tile."""
    if rows < 1 or cols < 1 or rows & (rows - 1) or cols & (cols - 1):
        raise DimensionError(f"the tile {rows}x{cols} must have power-of-two sides")
    flat = LinearLayout.identity_1d(rows * cols, "offset", "dim1")
    return flat.reshape_outs([("dim1", cols), ("dim0", rows)]).transpose_outs(["dim0", "dim1"])


def cmd_swizzle(args: argparse.Namespace) -> int:
    from linlayout import draw

    from linlayout.banks import swizzled_shared

    sw, desc = swizzle_from_spec(args.spec, args.bitwidth)
    shape = parse_shape(args.shape) or [8, 1024 // args.bitwidth]
    if len(shape) != 2:
        raise DimensionError(f"--shape must be 2-D (rows, cols), got {shape}")
    rows, cols = shape
    plain = row_major_tile(rows, cols)
    L = swizzled_shared(plain, sw)
    col = [(i, args.column) for i in range(min(rows, 8))]
    p0 = draw.bank_picture(plain, args.bitwidth, access=col)
    p1 = draw.bank_picture(L, args.bitwidth, access=col)
    banks = lambda p: sorted({c for r in range(p.shape[0]) for c in range(p.shape[1]) if p.cells[r][c].color == draw.HIGHLIGHT})  # noqa: E731
    payload = {
        "swizzle": [sw.bits, sw.base, sw.shift],
        "description": desc,
        "shape": shape,
        "linear": L.to_dict(),
        "column": args.column,
        "banks_plain": banks(p0),
        "banks_swizzled": banks(p1),
        "title_plain": p0.title,
        "title_swizzled": p1.title,
    }
    text = "\n".join(
        [
            desc,
            f"tile {rows}x{cols} of {args.bitwidth}-bit elements, row-major, read column {args.column} down {len(col)} rows:",
            f"  without swizzle: banks {banks(p0)}  -> {p0.title.split(': ', 1)[-1]}",
            f"  with swizzle:    banks {banks(p1)}  -> {p1.title.split(': ', 1)[-1]}",
            "",
            p1.to_text(),
        ]
    )
    emit(args, payload, text)
    return 0


def cmd_banks(args: argparse.Namespace) -> int:
    from linlayout import draw

    shape = parse_shape(args.shape)
    _, sh = load_arg(args.shared, args.form)
    S = linear_of(sh, shape)
    sizes = shape_of(S)
    access = None
    if args.column is not None:
        access = [(i, args.column) for i in range(min(sizes[0], 32))] if len(sizes) == 2 else None
    elif args.row is not None and len(sizes) == 2:
        access = [(args.row, j) for j in range(sizes[1])]
    pic = draw.bank_picture(S, args.bitwidth, access=access)
    payload: dict[str, Any] = {"title": pic.title, "grid": pic.labels()}
    text = pic.to_text()
    if args.register:
        _, rg = load_arg(args.register, None)
        R = linear_of(rg, sizes)
        try:
            from linlayout.banks import bank_conflicts
        except ImportError:
            raise UnsupportedError("counting conflicts for a register layout needs linlayout.banks, which is not available") from None
        n = bank_conflicts(R, S, args.bitwidth)
        n = getattr(n, "conflicts", n)
        payload["conflicts"] = n
        text += f"\nbank conflicts (excess wavefronts per access) storing/loading the register layout: {n}"
    emit(args, payload, text)
    return 0


def cmd_space(args: argparse.Namespace) -> int:
    from . import space

    shape = parse_shape(args.shape)
    if shape is None:
        raise DimensionError("space needs --shape, e.g. --shape 128,128")
    spellings = space.blocked_space(shape, args.warps, max_size_per_thread=args.max_size_per_thread)
    if args.kind in ("slice", "all"):
        sliced = space.slice_space(shape, args.warps, max_size_per_thread=args.max_size_per_thread)
        spellings = spellings + sliced if args.kind == "all" else sliced
    executor = "serial" if args.serial else None
    progress = not args.no_progress and sys.stderr.isatty() or args.progress
    s = space.classify(spellings, shape, executor=executor, up_to=args.up_to, progress=progress)
    payload = {
        "shape": shape,
        "warps": args.warps,
        "spellings": s.num_spellings,
        "valid": s.num_valid,
        "classes": s.num_classes,
        "histogram": s.histogram(),
        "largest": [space.format_spelling(s.spellings[m]) for m in s.classes[0].members[:5]] if s.classes else [],
    }
    emit(args, payload, s.summary())
    return 0
