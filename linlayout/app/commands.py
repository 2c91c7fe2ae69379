"""The ``linlayout`` subcommands: each ``cmd_<name>(args)`` prints its result and returns the
exit status.  Layout arguments are read through :mod:`converters.registry`, and every value goes
to the core through :func:`linlayout.contract.as_linear` (or ``as_layout``).
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from typing import Any

from converters import registry
from linlayout.contract import as_layout, as_linear
from linlayout.equiv import equivalent
from linlayout.errors import DimensionError, LayoutError, ParseError, SizeError, UnsupportedError
from linlayout.limits import MAX_GRID_CELLS
from linlayout.mixed_radix import MixedRadixLayout
from linlayout.linear import LinearLayout
from linlayout.plan import plan_conversion

__all__ = [
    "parse_shape", "load_arg", "linear_of", "convert_text", "equivalence_answer", "plan_answer", "bases_text",
    "swizzle_from_spec", "row_major_tile", "cmd_show", "cmd_convert", "cmd_equiv", "cmd_plan", "cmd_swizzle", "cmd_banks", "cmd_atom",
    "cmd_space", "json_default", "grid_payload", "did_you_mean_constructor", "JSON_KEYS", "GRID_KEYS", "ERROR_KEYS"]


#: the documented keys of each command's ``--json`` output on success (an error is always
#: ``{"error": {"type", "message", "exit_status", "command"}}``); tests/test_cli_json.py checks them
JSON_KEYS: dict[str, tuple[str, ...]] = {
    "show": ("form", "text", "linear"),
    "convert": ("from", "to", "result"),
    "equiv": ("equivalent", "relation", "reason", "counterexample", "forms"),
    "plan": ("kind", "is_zero_cost", "bitwidth", "cost", "description", "steps", "shared_bytes", "store_conflicts", "load_conflicts"),
    "banks": ("bitwidth", "access", "ways", "banks", "lines", "grid"),
    "swizzle": ("swizzle", "description", "shape", "bitwidth", "linear", "column", "banks_plain", "banks_swizzled",
                "ways_plain", "ways_swizzled", "grid"),
    "atom": ("shape", "dtype", "bitwidth", "major", "swizzle_bytes", "atom_shape", "swizzle", "access", "ways", "banks",
             "ways_unswizzled", "linear"),
    "space": ("shape", "warps", "spellings", "valid", "classes", "histogram", "largest"),
    "audit": ("target", "num_warps", "threads_per_warp", "num_ctas", "conversions", "totals"),
    "tour": (),
}
#: keys of a picture in ``--json`` (``grid``)
GRID_KEYS = ("title", "legend", "rows", "cols", "cells", "highlighted")
ERROR_KEYS = ("type", "message", "exit_status", "command")


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
    """``(form, value)`` of a layout argument (text, ``@file`` or ``-`` for standard input); a
    misspelled constructor gets a "did you mean" hint."""
    try:
        return registry.load(arg, form)
    except ParseError as e:
        hint = did_you_mean_constructor(arg)
        if not hint:
            raise
        raise ParseError(f"{str(e).splitlines()[0]} (did you mean {hint}?)") from None


def constructor_names() -> list[str]:
    """Every constructor a layout text may start with (Gluon classes, Tilus chain functions)."""
    from converters import gluon, tilus

    names = [n for n in gluon.registry() if not n.startswith("_")]
    names += [n for n in getattr(tilus, "__all__", ()) if n[:1].islower()]
    return names


def did_you_mean_constructor(text: str) -> str | None:
    """The constructor closest to the one ``text`` starts with, when that one is unknown.

        >>> did_you_mean_constructor("BlockLayout([1], [32], [4], [0])")
        'BlockedLayout'
        >>> did_you_mean_constructor("(4,8):(8,1)") is None
        True
    """
    m = re.match(r"\s*([A-Za-z_][A-Za-z_0-9]*)\s*\(", text if isinstance(text, str) else "")
    if not m:
        return None
    names = constructor_names()
    if m.group(1) in names:
        return None
    close = difflib.get_close_matches(m.group(1), names, n=1, cutoff=0.6)
    if not close:
        close = [n for n in names if n.lower().startswith(m.group(1).lower())][:1]
    return close[0] if close else None


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

    if not 0 <= args.max_cells <= MAX_GRID_CELLS:
        raise SizeError(f"--max-cells must be in [0, {MAX_GRID_CELLS}] (linlayout.limits.MAX_GRID_CELLS), "
                        f"got {args.max_cells}; write --svg/--png for a bigger layout")
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
    lines.append("linear layout (basis i of an in-dim = the output at input 2**i; other inputs XOR the bases of their bits):")
    lines.append(bases_text(L))
    for path in (args.svg, args.png):
        if path:
            draw.save(L, path, style=args.style)
            lines.append(f"wrote {path}")
    cells = L.total_out_size if args.style != "hardware" else L.total_in_size
    if cells <= args.max_cells:
        pic = draw.layout_picture(L, style=args.style)
        payload["grid"] = grid_payload(pic)
        lines += ["", pic.to_text()]
    else:
        lines.append(f"(grid of {cells} cells not shown; raise --max-cells or write --svg/--png)")
    emit(args, payload, "\n".join(lines))
    return 0


def grid_payload(pic: Any) -> dict[str, Any]:
    """The JSON of a picture: ``rows``/``cols`` headers, ``cells`` (a list of rows of labels),
    ``highlighted`` ([row, col] pairs), ``legend``, ``title``."""
    rl, cl = pic._headers()
    return {"title": pic.title, "legend": pic.legend, "rows": rl, "cols": cl, "cells": pic.labels(),
            "highlighted": [[r, c] for r, row in enumerate(pic.cells) for c, cell in enumerate(row) if cell.bold]}


def general_lines(obj: Any, shape: list[int] | None, payload: dict[str, Any]) -> list[str]:
    try:
        g = as_layout(obj, shape)
    except LayoutError:
        return []
    if not isinstance(g, MixedRadixLayout):
        return []
    lines = [f"general (mixed-radix) form: {g!r}", "  (per input dim, its digits fastest first, each extent:stride@axis: a digit d adds d * stride on axis)"]
    payload["general"] = repr(g)
    try:
        pieces = g.split_pow2()
    except LayoutError:
        pieces = []
    if pieces:
        lines.append(f"power-of-two pieces ({len(pieces)}), each GF(2)-linear: the inputs from 'from' over 'size' map as the piece's"
                     " own layout, shifted by 'offset':")
        payload["pieces"] = []
        for p in pieces:
            lines.append(f"  from {_dims(p.in_start)}  size {_dims(p.layout.in_dims)}  offset {_dims(p.offset)}")
            payload["pieces"].append({"in_start": p.in_start, "in_dims": p.layout.in_dims, "offset": p.offset})
    return lines


def _dims(d: Any) -> str:
    return "(" + ", ".join(f"{k}={v}" for k, v in dict(d).items()) + ")"


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


CEX_REASONS = {
    "base": "the two layouts send this input to different places",
    "outside the other layout's inputs": "the second layout has no such input (None)",
    "replicas": "the two layouts hold different sets of copies here",
}


def equivalence_answer(a: Any, b: Any, shape: list[int] | None) -> tuple[bool, str, Any, str]:
    """(equal?, relation, counterexample as a dict or None, reason) of two layout values (linlayout.equiv).

    The counterexample is ``{"input": {in-dim: value}, "first": {out-dim: value} | None,
    "second": ..., "kind": ..., "meaning": ...}``: an input where the two maps differ.
    """
    r = equivalent(a, b, shape=shape)
    cex = r.counterexample
    d = None
    if cex is not None:
        d = {"input": dict(cex.point), "first": cex.left, "second": cex.right, "kind": cex.reason,
             "meaning": CEX_REASONS.get(cex.reason, cex.reason)}
    return bool(r), str(r.relation), d, r.reason


def cmd_equiv(args: argparse.Namespace) -> int:
    shape = parse_shape(args.shape)
    fa, a = load_arg(args.a, args.form)
    fb, b = load_arg(args.b, args.form_b or args.form)
    same, relation, cex, reason = equivalence_answer(a, b, shape)
    text = f"{'EQUIVALENT' if same else 'DIFFERENT'}: {relation}" + (f" ({reason})" if reason else "")
    if relation != "identical" and relation != "different":
        text += "\n  (same elements in the same threads, only the register order differs: converting is free)"
    if cex is not None and not same:
        text += (f"\n  counterexample: at input {_dims(cex['input'])} the first layout gives "
                 f"{_dims(cex['first']) if cex['first'] is not None else 'nothing'}, the second "
                 f"{_dims(cex['second']) if cex['second'] is not None else 'nothing'} ({cex['meaning']})")
    emit(args, {"equivalent": same, "relation": relation, "reason": reason, "counterexample": cex, "forms": [fa, fb]}, text)
    return 0 if same else 1


def plan_answer(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> tuple[dict[str, Any], str]:
    p = plan_conversion(src, dst, bitwidth=bitwidth)
    return p.to_dict(), str(p)


def cmd_plan(args: argparse.Namespace) -> int:
    shape = parse_shape(args.shape)
    _, a = load_arg(args.src, args.form)
    _, b = load_arg(args.dst, args.form)
    payload, text = plan_answer(linear_of(a, shape), linear_of(b, shape), args.bitwidth)
    emit(args, payload, f"({args.bitwidth}-bit elements; --bitwidth changes it) {text}")
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
    if not 0 <= args.column < cols:
        raise DimensionError(f"--column {args.column} is outside the tile's {cols} columns")
    plain = row_major_tile(rows, cols)
    L = swizzled_shared(plain, sw)
    col = [(i, args.column) for i in range(min(rows, 8))]
    p0 = draw.bank_picture(plain, args.bitwidth, access=col)
    p1 = draw.bank_picture(L, args.bitwidth, access=col)
    payload = {
        "swizzle": [sw.bits, sw.base, sw.shift],
        "description": desc,
        "shape": shape,
        "bitwidth": args.bitwidth,
        "linear": L.to_dict(),
        "column": args.column,
        "banks_plain": p0.info["banks"],
        "banks_swizzled": p1.info["banks"],
        "ways_plain": p0.info["ways"],
        "ways_swizzled": p1.info["ways"],
        "grid": grid_payload(p1),
    }
    text = "\n".join(
        [
            desc,
            f"tile {rows}x{cols} of {args.bitwidth}-bit elements, row-major, read column {args.column} down {len(col)} rows:",
            f"  without swizzle: {_banks(p0.info['banks'])}  -> {_ways(p0.info['ways'])}",
            f"  with swizzle:    {_banks(p1.info['banks'])}  -> {_ways(p1.info['ways'])}",
            "  (an N-way conflict: one bank serves N different 4-byte words, so the read takes N passes)",
            "",
            p1.to_text(),
        ]
    )
    emit(args, payload, text)
    return 0


def _banks(banks: list[int]) -> str:
    return "all 32 banks" if banks == list(range(32)) else f"banks {banks}"


def _ways(ways: int | None) -> str:
    if ways is None:
        return "no access"
    return "conflict-free" if ways <= 1 else f"{ways}-way conflict"


def cmd_banks(args: argparse.Namespace) -> int:
    from linlayout import draw

    shape = parse_shape(args.shape)
    _, sh = load_arg(args.shared, args.form)
    S = linear_of(sh, shape)
    sizes = shape_of(S)
    access = None
    what = None
    if (args.column is not None or args.row is not None) and len(sizes) != 2:
        raise DimensionError(f"--column/--row need a 2-D tensor, this one has shape {sizes}")
    if args.column is not None:
        if not 0 <= args.column < sizes[1]:
            raise DimensionError(f"--column {args.column} is outside the tensor's {sizes[1]} columns")
        access = [(i, args.column) for i in range(min(sizes[0], 32))]
        what = f"a warp reading column {args.column} down rows 0..{len(access) - 1}"
    elif args.row is not None:
        if not 0 <= args.row < sizes[0]:
            raise DimensionError(f"--row {args.row} is outside the tensor's {sizes[0]} rows")
        access = [(args.row, j) for j in range(sizes[1])]
        what = f"reading row {args.row}"
    pic = draw.bank_picture(S, args.bitwidth, access=access)
    payload: dict[str, Any] = {"bitwidth": args.bitwidth, "access": what, "ways": pic.info["ways"], "banks": pic.info["banks"],
                               "lines": pic.info["lines"], "grid": grid_payload(pic)}
    text = pic.to_text()
    if what:
        text += f"\naccess: {what} (marked *): {_banks(pic.info['banks'])}, {_ways(pic.info['ways'])}"
    if args.register:
        _, rg = load_arg(args.register, None)
        R = linear_of(rg, sizes)
        from linlayout.banks import bank_conflicts

        n = bank_conflicts(R, S, args.bitwidth)
        payload["conflicts"] = n
        text += f"\nbank conflicts storing/loading the register layout: {n} excess wavefronts per access (0 = conflict-free)"
    emit(args, payload, text)
    return 0


def cmd_atom(args: argparse.Namespace) -> int:
    """The MMA shared-memory atom ``select_atom`` picks for an ``(MN, K)`` operand tile, the tile
    built from it, and the banks a warp's 8 rows of one 16-byte column hit (ldmatrix's access)."""
    from linlayout import draw
    from linlayout.dtypes import element_bitwidth
    from linlayout.smem_atoms import select_atom, tile_by_atoms

    shape = parse_shape(args.shape)
    if shape is None or len(shape) != 2:
        raise DimensionError(f"--shape must be the operand tile (MN, K), got {args.shape!r}")
    dtype = int(args.dtype) if args.dtype.strip().isdigit() else args.dtype.strip()
    bits = element_bitwidth(dtype)
    atom = select_atom(shape, dtype, major=args.major)
    sw = atom.swizzle()
    tile = tile_by_atoms(atom, shape, order="col" if args.major == "K" else "row")
    a_rows, a_cols = atom.shape
    # one 16-byte chunk of each of 8 consecutive strided rows: the access of ldmatrix / a TMA row
    vec = max(1, 128 // bits)
    if args.major == "K":
        access = lambda c: c[0] < 8 and c[1] < vec  # noqa: E731
        what = f"rows 0..7, the first 16 bytes (columns 0..{vec - 1}) of each"
    else:
        access = lambda c: c[1] < 8 and c[0] < vec  # noqa: E731
        what = f"columns 0..7, the first 16 bytes (rows 0..{vec - 1}) of each"
    pic = draw.bank_picture(tile, bits, access=access, max_lines=max(256, tile.in_dim_size("offset") * bits // 1024 + 1))
    plain = row_major_tile(*shape) if args.major == "K" else row_major_tile(*shape).transpose_outs(["dim0", "dim1"])
    p0 = draw.bank_picture(plain, bits, access=access, max_lines=max(256, plain.in_dim_size("offset") * bits // 1024 + 1))
    payload = {
        "shape": shape, "dtype": args.dtype, "bitwidth": bits, "major": args.major,
        "swizzle_bytes": atom.swizzle_bytes, "atom_shape": list(atom.shape), "swizzle": [sw.bits, sw.base, sw.shift],
        "access": what, "ways": pic.info["ways"], "banks": pic.info["banks"], "ways_unswizzled": p0.info["ways"],
        "linear": tile.to_dict(),
    }
    mode = f"{atom.swizzle_bytes}B swizzle" if atom.swizzle_bytes else "no swizzle (interleaved)"
    text = "\n".join([
        f"operand tile {shape[0]}x{shape[1]} (MN x K), {args.dtype} ({bits}-bit), {args.major}-major:",
        f"  atom: {mode}, {a_rows}x{a_cols} elements = Swizzle<{sw.bits},{sw.base},{sw.shift}> on element offsets;"
        f" the tile is {shape[0] // a_rows}x{shape[1] // a_cols} atoms",
        f"  reading {what}: {_banks(pic.info['banks'])} -> {_ways(pic.info['ways'])}"
        f" (unswizzled row-major: {_ways(p0.info['ways'])})",
        "",
        pic.to_text() if pic.info["lines"] <= 16 else "\n".join(pic.to_text().splitlines()[:18] + [f"... ({pic.info['lines']} lines)", pic.legend]),
    ])
    emit(args, payload, text)
    return 0


def cmd_space(args: argparse.Namespace) -> int:
    from . import space

    shape = parse_shape(args.shape)
    if shape is None:
        raise DimensionError("space needs --shape, e.g. --shape 128,128")
    spellings: Any = space.blocked_space(shape, args.warps, max_size_per_thread=args.max_size_per_thread)
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
