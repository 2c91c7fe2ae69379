"""The ``linlayout`` command: look at a layout, convert it, compare two, plan a conversion.

    $ linlayout tour
    $ linlayout show "BlockedLayout([2,4],[16,2],[2,2],[1,0])" --shape 64,16
    $ linlayout convert "(4,8):(8,1)" --to tile
    $ linlayout equiv "BlockedLayout([1],[32],[4],[0])" \\
          "SliceLayout(1, BlockedLayout([1,1],[32,1],[4,1],[1,0]))" --shape 128
    $ linlayout plan "BlockedLayout([1,1],[1,32],[1,4],[1,0])" "BlockedLayout([1,1],[32,1],[4,1],[0,1])" --shape 128,128
    $ linlayout swizzle 128B --bitwidth 16
    $ linlayout banks "(8,64):(64,1)" --bitwidth 16 --column 0
    $ linlayout space --shape 128,128 --warps 4

A layout argument is any text form (detected; ``--form`` forces one) or ``@file``. ``--json``
prints machine-readable output.  Exit status: 0 success (``equiv``: equivalent), 1 ``equiv``:
different, 2 bad input (one line on stderr).

The entry point is :func:`main`:

    >>> main(["convert", "(4,8):(8,1)", "--to", "json"])  # doctest: +ELLIPSIS
    {"bases": [["offset", [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]]]], "out_dims": [["dim0", 4], ["dim1", 8]]}
    0
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from converters import registry
from linlayout.contract import as_layout, as_linear
from linlayout.equiv import equivalent
from linlayout.plan import plan_conversion
from linlayout.errors import DimensionError, LayoutError, UnsupportedError
from linlayout.general import MixedRadixLayout
from linlayout.linear import LinearLayout

__all__ = ["main", "build_parser", "parse_shape"]

PROG = "linlayout"
FORMS = ("linear", "gluon", "cute", "tile", "tilus", "json")

EXAMPLES = """\
examples:
  linlayout tour
  linlayout show "BlockedLayout([2,4],[16,2],[2,2],[1,0])" --shape 64,16
  linlayout show "local(2,1).spatial(8,4).local(1,2)" --style tilus
  linlayout convert "(4,8):(8,1)" --to tile
  linlayout equiv "BlockedLayout([1],[32],[4],[0])" "SliceLayout(1, BlockedLayout([1,1],[32,1],[4,1],[1,0]))" --shape 128
  linlayout plan "BlockedLayout([1,1],[1,32],[1,4],[1,0])" "BlockedLayout([1,1],[32,1],[4,1],[0,1])" --shape 128,128
  linlayout swizzle 128B --bitwidth 16
  linlayout banks "(8,64):(64,1)" --bitwidth 16 --column 0
  linlayout space --shape 128,128 --warps 4

layout arguments: Gluon BlockedLayout(...)/SliceLayout(...)/..., CuTe (4,8):(8,1) or S<3,4,3> o 0 o ...,
TIRx S[(...):(...)] + R[...], Tilus local(..).spatial(..), Triton's printed linear layout, JSON, or @file.
exit status: 0 ok (equiv: equivalent), 1 equiv: different, 2 bad input.
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        sys.stderr.write(f"{PROG}: error: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)


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


def _load(arg: str, form: str | None) -> tuple[str, Any]:
    return registry.load(arg, form)


def _linear(obj: Any, shape: list[int] | None) -> LinearLayout:
    return as_linear(obj, shape)


def _out(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    if args.json:
        print(json.dumps(payload, default=_json_default))
    else:
        print(text)


def _json_default(x: Any) -> Any:
    if isinstance(x, LinearLayout):
        return x.to_dict()
    if hasattr(x, "tolist"):
        return x.tolist()
    if isinstance(x, (set, frozenset, tuple)):
        return list(x)
    return str(x)


def _shape_of(L: LinearLayout) -> list[int]:
    return [L.out_dim_size(n) for n in L.out_dim_names]


def _bases_text(L: LinearLayout) -> str:
    lines = []
    for name, vecs in L.bases.items():
        vals = " ".join("(" + ",".join(str(x) for x in v) + ")" for v in vecs) or "-"
        lines.append(f"  {name:<9} [{L.in_dim_size(name)}]: {vals}")
    lines.append("  out dims: " + ", ".join(f"{n}={s}" for n, s in L.out_dims.items()))
    return "\n".join(lines)


# --------------------------------------------------------------------------------- commands


def _cmd_show(args: argparse.Namespace) -> int:
    from linlayout import draw

    shape = parse_shape(args.shape)
    form, obj = _load(args.layout, args.form)
    payload: dict[str, Any] = {"form": form, "text": str(obj)}
    lines = [f"form: {form}", f"layout: {obj}"]
    try:
        L = _linear(obj, shape)
    except LayoutError as e:
        if not isinstance(e, (UnsupportedError,)) and type(e).__name__ not in ("NotLinearError", "NotInvertibleError"):
            raise
        payload["linear"] = None
        payload["not_linear"] = str(e).splitlines()[0]
        lines.append(f"not GF(2)-linear: {str(e).splitlines()[0]}")
        lines += _general_lines(obj, shape, payload)
        _out(args, payload, "\n".join(lines))
        return 0
    payload["linear"] = L.to_dict()
    lines.append("linear layout (basis i of an in-dim = image of 2**i):")
    lines.append(_bases_text(L))
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
    _out(args, payload, "\n".join(lines))
    return 0


def _general_lines(obj: Any, shape: list[int] | None, payload: dict[str, Any]) -> list[str]:
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


def _convert(obj: Any, to: str, shape: list[int] | None) -> tuple[Any, str]:
    """(json payload, text) of ``obj`` spelled in form ``to`` (same kind and meaning, or refused)."""
    if to == "json":
        L = _linear(obj, shape)
        return L.to_dict(), json.dumps(L.to_dict())
    out = registry.convert(obj, to, shape)
    text = registry.to_text(out)
    if to == "linear":
        return out.to_dict(), text
    return text, text


def _cmd_convert(args: argparse.Namespace) -> int:
    shape = parse_shape(args.shape)
    form, obj = _load(args.layout, args.form)
    payload, text = _convert(obj, args.to, shape)
    if args.json:
        print(json.dumps({"from": form, "to": args.to, "result": payload}, default=_json_default))
    else:
        print(text)
    return 0


def _equivalent(a: Any, b: Any, shape: list[int] | None) -> tuple[bool, str, Any]:
    """(equal?, relation, counterexample) of two layout values (linlayout.equiv)."""
    r = equivalent(a, b, shape=shape)
    cex = r.counterexample
    return bool(r), str(r.relation), (str(cex) if cex is not None else None)


def _cmd_equiv(args: argparse.Namespace) -> int:
    shape = parse_shape(args.shape)
    fa, a = _load(args.a, args.form)
    fb, b = _load(args.b, args.form_b or args.form)
    same, relation, cex = _equivalent(a, b, shape)
    text = f"{'EQUIVALENT' if same else 'DIFFERENT'}: {relation}"
    if cex is not None and not same:
        text += f"\n  counterexample: {cex}"
    _out(args, {"equivalent": same, "relation": relation, "counterexample": cex, "forms": [fa, fb]}, text)
    return 0 if same else 1


def _plan(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> tuple[dict[str, Any], str]:
    p = plan_conversion(src, dst, bitwidth=bitwidth)
    return p.to_dict(), str(p)


def _cmd_plan(args: argparse.Namespace) -> int:
    shape = parse_shape(args.shape)
    _, a = _load(args.src, args.form)
    _, b = _load(args.dst, args.form)
    payload, text = _plan(_linear(a, shape), _linear(b, shape), args.bitwidth)
    _out(args, payload, text)
    return 0


def _swizzle_from_spec(spec: str, bitwidth: int):
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


def _row_major_tile(rows: int, cols: int) -> LinearLayout:
    """The shared layout offset -> (row, col) of a row-major (rows, cols) tile."""
    if rows < 1 or cols < 1 or rows & (rows - 1) or cols & (cols - 1):
        raise DimensionError(f"the tile {rows}x{cols} must have power-of-two sides")
    flat = LinearLayout.identity_1d(rows * cols, "offset", "dim1")
    return flat.reshape_outs([("dim1", cols), ("dim0", rows)]).transpose_outs(["dim0", "dim1"])


def _cmd_swizzle(args: argparse.Namespace) -> int:
    from linlayout import draw

    from linlayout.banks import swizzled_shared

    sw, desc = _swizzle_from_spec(args.spec, args.bitwidth)
    shape = parse_shape(args.shape) or [8, 1024 // args.bitwidth]
    if len(shape) != 2:
        raise DimensionError(f"--shape must be 2-D (rows, cols), got {shape}")
    rows, cols = shape
    plain = _row_major_tile(rows, cols)
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
    _out(args, payload, text)
    return 0


def _cmd_banks(args: argparse.Namespace) -> int:
    from linlayout import draw

    shape = parse_shape(args.shape)
    _, sh = _load(args.shared, args.form)
    S = _linear(sh, shape)
    sizes = _shape_of(S)
    access = None
    if args.column is not None:
        access = [(i, args.column) for i in range(min(sizes[0], 32))] if len(sizes) == 2 else None
    elif args.row is not None and len(sizes) == 2:
        access = [(args.row, j) for j in range(sizes[1])]
    pic = draw.bank_picture(S, args.bitwidth, access=access)
    payload: dict[str, Any] = {"title": pic.title, "grid": pic.labels()}
    text = pic.to_text()
    if args.register:
        _, rg = _load(args.register, None)
        R = _linear(rg, sizes)
        try:
            from linlayout.banks import bank_conflicts
        except ImportError:
            raise UnsupportedError("counting conflicts for a register layout needs linlayout.banks, which is not available") from None
        n = bank_conflicts(R, S, args.bitwidth)
        n = getattr(n, "conflicts", n)
        payload["conflicts"] = n
        text += f"\nbank conflicts (excess wavefronts per access) storing/loading the register layout: {n}"
    _out(args, payload, text)
    return 0


def _cmd_space(args: argparse.Namespace) -> int:
    from . import space

    shape = parse_shape(args.shape)
    if shape is None:
        raise DimensionError("space needs --shape, e.g. --shape 128,128")
    spellings = space.blocked_spellings(shape, args.warps, max_size_per_thread=args.max_size_per_thread)
    if args.kind in ("slice", "all"):
        spellings = (spellings if args.kind == "all" else []) + space.slice_spellings(shape, args.warps, max_size_per_thread=args.max_size_per_thread)
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
    _out(args, payload, s.summary())
    return 0


TOUR_BLOCKED = "BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])"
TOUR_EQUIV = ("BlockedLayout([1], [32], [4], [0])", "SliceLayout(1, BlockedLayout([1, 1], [32, 1], [4, 1], [1, 0]))")
TOUR_PLAN = ("BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0])", "BlockedLayout([1, 1], [32, 1], [4, 1], [0, 1])")
TOUR_CUTE = "(4,8):(8,1)"
TOUR_TILE = "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"


def _tour_sections() -> list[tuple[str, Any]]:
    def blocked() -> tuple[str, Any]:
        from linlayout import draw

        _, obj = _load(TOUR_BLOCKED, None)
        L = _linear(obj, [64, 16])
        grid = draw.text_grid(L).splitlines()
        text = "\n".join(
            [f"{TOUR_BLOCKED} on a [64, 16] tensor, as linear bases:", _bases_text(L),
             "which thread (T) and register (:r) holds each element (first 6 rows of 64):", *grid[:7]]
        )
        return text, {"layout": TOUR_BLOCKED, "linear": L.to_dict(), "grid_head": grid[:7]}

    def equiv() -> tuple[str, Any]:
        _, a = _load(TOUR_EQUIV[0], None)
        _, b = _load(TOUR_EQUIV[1], None)
        same, rel, _ = _equivalent(a, b, [128])
        text = f"{TOUR_EQUIV[0]}\n  vs {TOUR_EQUIV[1]}\n  on [128]: {'equivalent' if same else 'different'} ({rel})"
        return text, {"equivalent": same, "relation": rel}

    def plan() -> tuple[str, Any]:
        _, a = _load(TOUR_PLAN[0], None)
        _, b = _load(TOUR_PLAN[1], None)
        payload, ptext = _plan(_linear(a, [128, 128]), _linear(b, [128, 128]), 16)
        text = f"convert {TOUR_PLAN[0]}\n     to {TOUR_PLAN[1]} on [128, 128] (fp16):\n  {ptext}"
        return text, payload

    def swizzle() -> tuple[str, Any]:
        from linlayout import draw

        from linlayout.banks import swizzled_shared

        sw, desc = _swizzle_from_spec("128B", 16)
        plain = _row_major_tile(8, 64)
        swz = swizzled_shared(plain, sw)
        col = [(i, 0) for i in range(8)]
        t0 = draw.bank_picture(plain, 16, access=col).title.split(": ", 1)[-1]
        t1 = draw.bank_picture(swz, 16, access=col).title.split(": ", 1)[-1]
        text = f"an (8, 64) float16 tile, reading column 0 down the 8 rows:\n  row-major: {t0}\n  {desc}: {t1}"
        try:
            from linlayout.banks import bank_conflicts

            _, reg = _load("BlockedLayout([1, 8], [8, 4], [1, 1], [0, 1])", None)
            R = _linear(reg, [8, 64])
            n0 = bank_conflicts(R, plain, 16)
            n1 = bank_conflicts(R, swz, 16)
            n0, n1 = getattr(n0, "conflicts", n0), getattr(n1, "conflicts", n1)
            text += (
                "\n  storing BlockedLayout([1,8],[8,4],[1,1],[0,1]) (lanes 0-7 each write 16 bytes of rows 0-7):"
                f"\n  excess wavefronts per access (Triton's bank_conflicts): row-major {n0}, swizzled {n1}"
            )
        except (ImportError, LayoutError) as e:
            text += f"\n  (register-layout conflict counts unavailable: {str(e).splitlines()[0] if str(e) else type(e).__name__})"
        return text, {"plain": t0, "swizzled": t1}

    def cute() -> tuple[str, Any]:
        from converters.cute import composition, parse

        from linlayout import draw

        A = parse(TOUR_CUTE)
        C = composition(A, parse("(2,4):(1,4)"))
        _, tile_text = _convert(A, "tile", None)
        grid = draw.text_grid(A.offset_map())
        text = "\n".join(
            [f"CuTe {TOUR_CUTE}: coordinate (i, j) -> offset", grid,
             f"composition({TOUR_CUTE}, (2,4):(1,4)) = {C}", f"as a TIRx TileLayout: {tile_text}"]
        )
        return text, {"layout": TOUR_CUTE, "composition": str(C), "tile": tile_text}

    def tile() -> tuple[str, Any]:
        from linlayout.general import MixedRadixLayout

        _, t = _load(TOUR_TILE, None)
        shape = (2, 128, 112)
        vals = [((a, l, c), t.apply(a, l, c, shape=shape)) for a, l, c in [(0, 0, 0), (0, 5, 3), (1, 0, 0), (1, 127, 111)]]
        lines = [f"TIRx {TOUR_TILE}: two 112-column halves side by side, a 128-lane x 224-column",
                 "tensor-memory accumulator; (half, lane, col) -> (TLane, TCol):"]
        lines += [f"  {crd} -> TLane {v.get('TLane')}, TCol {v.get('TCol')}" for crd, v in vals]
        try:
            t.to_linear(shape)
            lines.append("  GF(2)-linear")
        except LayoutError as e:
            lines.append(f"  not GF(2)-linear: {str(e).splitlines()[0]}")
        acc = MixedRadixLayout({"TLane": [(128, 1, "dim0")], "TCol": [(224, 1, "dim1")]})
        pieces = acc.split_pow2()
        lines.append("  the general-shape backend splits the 224 columns into power-of-two pieces, each a LinearLayout:")
        for pc in pieces:
            lines.append(f"    columns {pc.in_start['TCol']}..{pc.in_start['TCol'] + pc.layout.in_dims['TCol'] - 1}: "
                         f"{pc.layout.in_dims['TCol']} columns, linear: {pc.layout.is_linear()}")
        return "\n".join(lines), {"points": [[list(c), v] for c, v in vals], "pieces": [pc.layout.in_dims["TCol"] for pc in pieces]}

    def tmem() -> tuple[str, Any]:
        from converters.gluon import BlockedLayout, TensorMemoryLayout

        acc = TensorMemoryLayout([128, 128], col_stride=1)
        shape = [128, 128]
        r32 = acc.reg_layout(shape, element_bitwidth=32)
        r256 = acc.reg_layout(shape, element_bitwidth=32, instr_variant="16x256b")
        blocked = BlockedLayout([1, 128], [32, 1], [4, 1], [0, 1])
        same, rel, _ = _equivalent(r32, blocked, shape)
        payload, ptext = _plan(_linear(r256, shape), _linear(r32, shape), 32)
        text = "\n".join([
            f"an fp32 accumulator in tensor memory, {acc}, loaded by 4 warps:",
            "  tcgen05.ld 32x32b register layout:", "  " + _bases_text(_linear(r32, shape)).replace("\n", "\n  "),
            f"  the same layout as {blocked}: {'yes' if same else 'no'} ({rel})",
            f"  converting the 16x256b load's registers to the 32x32b layout: {ptext}",
        ])
        return text, {"equivalent_to_blocked": same, "plan": payload}

    return [
        ("1. a Gluon blocked layout", blocked),
        ("2. equivalence of two spellings", equiv),
        ("3. a conversion plan", plan),
        ("4. a swizzle and bank conflicts", swizzle),
        ("5. a CuTe layout", cute),
        ("6. a 224-column TileLayout (general shapes)", tile),
        ("7. reading tensor memory", tmem),
    ]


def run_tour(json_output: bool = False) -> int:
    """Print the guided tour (every section runs on built-in examples; a section whose backend is
    missing says so and the tour goes on).  Returns 0."""
    results = {}
    for title, fn in _tour_sections():
        try:
            text, payload = fn()
        except (ImportError, LayoutError, AttributeError) as e:
            text, payload = f"(skipped: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})", {"skipped": str(e)}
        results[title] = payload
        if not json_output:
            print(f"== {title} ==")
            print(text)
            print()
    if json_output:
        print(json.dumps(results, default=_json_default))
    return 0


def _cmd_tour(args: argparse.Namespace) -> int:
    return run_tour(json_output=args.json)


# ------------------------------------------------------------------------------------ parser


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``linlayout`` command."""
    p = _Parser(prog=PROG, description="GPU tensor layouts as linear algebra over GF(2).", epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    from linlayout import __version__

    p.add_argument("--version", action="version", version=f"linlayout {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def common(sp: argparse.ArgumentParser, shape: bool = True) -> None:
        sp.add_argument("--json", action="store_true", help="machine-readable JSON output")
        sp.add_argument("--form", choices=FORMS, help="force the form of the layout text instead of detecting it")
        if shape:
            sp.add_argument("--shape", help="tensor shape, e.g. 128,128 (needed by Gluon layouts)")

    def add(name: str, help_: str, examples: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help_, description=help_, epilog="examples:\n" + examples, formatter_class=argparse.RawDescriptionHelpFormatter)

    s = add("show", "show a layout: its form, linear bases and element grid",
            '  linlayout show "BlockedLayout([2,4],[16,2],[2,2],[1,0])" --shape 64,16\n'
            '  linlayout show "local(2,1).spatial(8,4).local(1,2)" --style tilus --svg mma.svg\n'
            '  linlayout show "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]" --shape 128,224\n')
    s.add_argument("layout", help="layout text or @file")
    common(s)
    s.add_argument("--style", choices=("gluon", "tilus", "hardware"), default="gluon", help="cell format: T0:0, 0: 0, or one row per thread")
    s.add_argument("--svg", help="also write an SVG picture here")
    s.add_argument("--png", help="also write a PNG picture here (matplotlib)")
    s.add_argument("--max-cells", type=int, default=4096, help="largest grid printed (default 4096)")
    s.set_defaults(fn=_cmd_show)

    c = add("convert", "convert a layout to another form",
            '  linlayout convert "(4,8):(8,1)" --to tile\n'
            '  linlayout convert "BlockedLayout([1],[32],[4],[0])" --shape 128 --to linear\n'
            '  linlayout convert "local(2,1).spatial(8,4).local(1,2)" --to gluon\n')
    c.add_argument("layout", help="layout text or @file")
    c.add_argument("--to", required=True, choices=FORMS, help="target form")
    common(c)
    c.set_defaults(fn=_cmd_convert)

    e = add("equiv", "are two spellings the same layout? (exit 0 yes, 1 no)",
            '  linlayout equiv "BlockedLayout([1],[32],[4],[0])" "SliceLayout(1, BlockedLayout([1,1],[32,1],[4,1],[1,0]))" --shape 128\n')
    e.add_argument("a", help="first layout (text or @file)")
    e.add_argument("b", help="second layout (text or @file)")
    common(e)
    e.add_argument("--form-b", choices=FORMS, help="force the form of the second layout")
    e.set_defaults(fn=_cmd_equiv)

    pl = add("plan", "plan the cheapest conversion from SRC to DST",
             '  linlayout plan "BlockedLayout([1,1],[1,32],[1,4],[1,0])" "BlockedLayout([1,1],[32,1],[4,1],[0,1])" --shape 128,128\n')
    pl.add_argument("src", help="source layout")
    pl.add_argument("dst", help="destination layout")
    common(pl)
    pl.add_argument("--bitwidth", type=int, default=16, help="element bits (default 16)")
    pl.set_defaults(fn=_cmd_plan)

    b = add("banks", "the shared-memory line x bank view of a shared layout (and conflicts of a register layout)",
            '  linlayout banks "(8,64):(64,1)" --bitwidth 16 --column 0\n'
            '  linlayout banks "S<3,3,3> o 0 o (8,64):(64,1)" --bitwidth 16 --column 0\n')
    b.add_argument("shared", help="shared-memory layout (offset -> coordinates, or a CuTe coordinates -> offset layout)")
    common(b)
    b.add_argument("--bitwidth", type=int, default=16, help="element bits (default 16)")
    b.add_argument("--column", type=int, help="highlight reading this column down the rows")
    b.add_argument("--row", type=int, help="highlight reading this row")
    b.add_argument("--register", help="a register layout: count its store/load bank conflicts (needs linlayout.banks)")
    b.set_defaults(fn=_cmd_banks)

    w = add("swizzle", "a swizzle on a row-major tile: its layout and the banks a column read hits",
            "  linlayout swizzle 128B --bitwidth 16\n  linlayout swizzle 'S<3,4,3>' --bitwidth 8 --shape 8,128\n")
    w.add_argument("spec", help="S<B,M,S> (element units) or a mode: none, 32B, 64B, 128B")
    w.add_argument("--bitwidth", type=int, default=16, help="element bits (default 16)")
    w.add_argument("--shape", help="tile rows,cols (default 8 rows of 128 bytes)")
    w.add_argument("--column", type=int, default=0, help="column read by the access (default 0)")
    w.add_argument("--json", action="store_true", help="machine-readable JSON output")
    w.set_defaults(fn=_cmd_swizzle)

    sp = add("space", "enumerate Gluon blocked (and slice) layouts of a shape and count distinct layouts",
             "  linlayout space --shape 128,128 --warps 4\n  linlayout space --shape 64 --warps 2 --kind all --up-to register_order\n")
    sp.add_argument("--shape", help="tensor shape, e.g. 128,128")
    sp.add_argument("--warps", type=int, default=4, help="warps per CTA (default 4)")
    sp.add_argument("--kind", choices=("blocked", "slice", "all"), default="blocked")
    sp.add_argument("--up-to", choices=("identical", "register_order"), default="identical")
    sp.add_argument("--max-size-per-thread", type=int, default=None)
    sp.add_argument("--serial", action="store_true", help="run in this process (no process pool)")
    sp.add_argument("--progress", action="store_true", help="show a progress bar even when stderr is not a terminal")
    sp.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    sp.add_argument("--json", action="store_true", help="machine-readable JSON output")
    sp.set_defaults(fn=_cmd_space)

    t = add("tour", "a short guided run on built-in examples from every area", "  linlayout tour\n")
    t.add_argument("--json", action="store_true", help="machine-readable JSON output")
    t.set_defaults(fn=_cmd_tour)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``linlayout`` command with ``argv`` (default ``sys.argv[1:]``); returns the exit
    status (0 ok, 1 ``equiv``: different, 2 bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as e:
        return int(e.code or 0)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return int(args.fn(args))
    except LayoutError as e:
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        sys.stderr.write(f"{PROG}: error: {msg}\n")
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. `linlayout show ... | head`
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
