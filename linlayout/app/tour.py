"""``linlayout tour``: a short guided run over built-in examples from every area (forms, the
linear core, equivalence, planning, swizzles, CuTe, TIRx, tensor memory).

    >>> [title for title, _ in tour_sections()][:2]
    ['1. a Gluon blocked layout', '2. equivalence of two spellings']
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from linlayout.errors import LayoutError

from .commands import (
    bases_text,
    convert_text,
    equivalence_answer,
    json_default,
    linear_of,
    load_arg,
    plan_answer,
    row_major_tile,
    swizzle_from_spec,
)

__all__ = ["tour_sections", "run_tour", "cmd_tour"]

TOUR_BLOCKED = "BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])"
TOUR_EQUIV = ("BlockedLayout([1], [32], [4], [0])", "SliceLayout(1, BlockedLayout([1, 1], [32, 1], [4, 1], [1, 0]))")
TOUR_PLAN = ("BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0])", "BlockedLayout([1, 1], [32, 1], [4, 1], [0, 1])")
TOUR_CUTE = "(4,8):(8,1)"
TOUR_TILE = "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"


def tour_sections() -> list[tuple[str, Any]]:
    def blocked() -> tuple[str, Any]:
        from linlayout import draw

        _, obj = load_arg(TOUR_BLOCKED, None)
        L = linear_of(obj, [64, 16])
        grid = draw.text_grid(L).splitlines()
        text = "\n".join(
            [f"{TOUR_BLOCKED} on a [64, 16] tensor, as linear bases:", bases_text(L),
             "which thread (T) and register (:r) holds each element (first 6 rows of 64):", *grid[:7]]
        )
        return text, {"layout": TOUR_BLOCKED, "linear": L.to_dict(), "grid_head": grid[:7]}

    def equiv() -> tuple[str, Any]:
        _, a = load_arg(TOUR_EQUIV[0], None)
        _, b = load_arg(TOUR_EQUIV[1], None)
        same, rel, _, _ = equivalence_answer(a, b, [128])
        text = f"{TOUR_EQUIV[0]}\n  vs {TOUR_EQUIV[1]}\n  on [128]: {'equivalent' if same else 'different'} ({rel})"
        return text, {"equivalent": same, "relation": rel}

    def plan() -> tuple[str, Any]:
        _, a = load_arg(TOUR_PLAN[0], None)
        _, b = load_arg(TOUR_PLAN[1], None)
        payload, ptext = plan_answer(linear_of(a, [128, 128]), linear_of(b, [128, 128]), 16)
        text = f"convert {TOUR_PLAN[0]}\n     to {TOUR_PLAN[1]} on [128, 128] (fp16):\n  {ptext}"
        return text, payload

    def swizzle() -> tuple[str, Any]:
        from linlayout import draw

        from linlayout.banks import swizzled_shared

        sw, desc = swizzle_from_spec("128B", 16)
        plain = row_major_tile(8, 64)
        swz = swizzled_shared(plain, sw)
        col = [(i, 0) for i in range(8)]
        t0 = draw.bank_picture(plain, 16, access=col).title.split(": ", 1)[-1]
        t1 = draw.bank_picture(swz, 16, access=col).title.split(": ", 1)[-1]
        text = f"an (8, 64) float16 tile, reading column 0 down the 8 rows:\n  row-major: {t0}\n  {desc}: {t1}"
        try:
            from linlayout.banks import bank_conflicts

            _, reg = load_arg("BlockedLayout([1, 8], [8, 4], [1, 1], [0, 1])", None)
            R = linear_of(reg, [8, 64])
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
        _, tile_text = convert_text(A, "tile", None)
        grid = draw.text_grid(A.offset_map())
        text = "\n".join(
            [f"CuTe {TOUR_CUTE}: coordinate (i, j) -> offset", grid,
             f"composition({TOUR_CUTE}, (2,4):(1,4)) = {C}", f"as a TIRx TileLayout: {tile_text}"]
        )
        return text, {"layout": TOUR_CUTE, "composition": str(C), "tile": tile_text}

    def tile() -> tuple[str, Any]:
        from linlayout.mixed_radix import MixedRadixLayout

        _, t = load_arg(TOUR_TILE, None)
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
        same, rel, _, _ = equivalence_answer(r32, blocked, shape)
        payload, ptext = plan_answer(linear_of(r256, shape), linear_of(r32, shape), 32)
        text = "\n".join([
            f"an fp32 accumulator in tensor memory, {acc}, loaded by 4 warps:",
            "  tcgen05.ld 32x32b register layout:", "  " + bases_text(linear_of(r32, shape)).replace("\n", "\n  "),
            f"  the same layout as {blocked}: {'yes' if same else 'no'} ({rel})",
            f"  converting the 16x256b load's registers to the 32x32b layout: {ptext}",
        ])
        return text, {"equivalent_to_blocked": same, "plan": payload}

    def forms() -> tuple[str, Any]:
        from converters import registry

        _, b = registry.load(TOUR_BLOCKED)
        shape = [64, 16]
        lines = [f"{TOUR_BLOCKED} is a {b.kind.value} layout; the same layout in every form:"]
        payload: dict[str, Any] = {"layout": TOUR_BLOCKED, "kind": b.kind.value, "forms": {}}
        for to in registry.FORMS:
            try:
                text = registry.to_text(registry.convert(b, to, shape))
            except LayoutError as e:
                text = f"(refused: {str(e).splitlines()[0]})"
            payload["forms"][to] = text
            first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
            more = len(text.strip()) > len(first) or len(first) > 110
            lines.append(f"  {to:7s} {first[:110]}{' ...' if more else ''}")
        _, c = registry.load(TOUR_CUTE)
        try:
            registry.convert(c, "tilus")
        except LayoutError as e:
            lines.append(f"a CuTe layout is a memory map: --to tilus is refused ({e})")
        return "\n".join(lines), payload

    return [
        ("1. a Gluon blocked layout", blocked),
        ("2. equivalence of two spellings", equiv),
        ("3. a conversion plan", plan),
        ("4. a swizzle and bank conflicts", swizzle),
        ("5. a CuTe layout", cute),
        ("6. a 224-column TileLayout (general shapes)", tile),
        ("7. reading tensor memory", tmem),
        ("8. one layout, every form (the kind is kept, or the conversion is refused)", forms),
    ]


def run_tour(json_output: bool = False) -> int:
    """Print the guided tour (every section runs on built-in examples; a section whose backend is
    missing says so and the tour goes on).  Returns 0."""
    results = {}
    for title, fn in tour_sections():
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
        print(json.dumps(results, default=json_default))
    return 0


def cmd_tour(args: argparse.Namespace) -> int:
    """``linlayout tour``."""
    return run_tour(json_output=args.json)
