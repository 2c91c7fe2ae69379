"""tcgen05 shape choice (linlayout.plan_tmem, linlayout.app.tmem_access): instruction counts, the
total cost with the follow-on conversion, CGA / two-CTA / scale-factor layouts, refusals."""

from __future__ import annotations

import pytest

from linlayout import LinearLayout
from linlayout.cost import WEIGHTS
from linlayout.errors import LayoutError, UnsupportedError
from linlayout.plan_tmem import TCGEN05_SHAPES, plan_tmem, tcgen05_counts
from linlayout.simulate import simulate

from converters.gluon import TensorMemoryLayout, TensorMemoryScalesLayout, from_dict
from converters.gluon.tmem import tmem_reg_layout
from linlayout.app.tmem_access import plan_tmem_access, tmem_candidates


def blocked(spt, tpw, wpc, cga=()):
    return from_dict({"kind": "BlockedLayout", "size_per_thread": spt, "threads_per_warp": tpw, "warps_per_cta": wpc,
                      "order": [1, 0], "cga_layout": [list(c) for c in cga]})


CASES = [
    (TensorMemoryLayout([128, 128], 1), [128, 128], 16, blocked([1, 8], [4, 8], [4, 1])),
    (TensorMemoryLayout([128, 128], 1), [128, 128], 32, blocked([1, 4], [4, 8], [4, 1])),
    (TensorMemoryLayout([128, 64], 1), [128, 256], 16, blocked([1, 8], [1, 32], [4, 1])),
    (TensorMemoryLayout([64, 128], 1), [64, 128], 16, blocked([1, 8], [4, 8], [4, 1])),
    (TensorMemoryLayout([128, 128], 2), [128, 128], 16, blocked([1, 8], [4, 8], [4, 1])),
    (TensorMemoryLayout([128, 128], 1, cga_layout=[[1, 0]]), [256, 128], 16, blocked([1, 8], [4, 8], [4, 1], [[1, 0]])),
    (TensorMemoryLayout([128, 128], 1, cga_layout=[[1, 0]], two_ctas=True), [256, 128], 16,
     blocked([1, 8], [4, 8], [4, 1], [[1, 0]])),
    (TensorMemoryScalesLayout(), [128, 4], 8, blocked([1, 4], [32, 1], [4, 1])),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_choice_minimises_total_cost(case):
    tmem, shape, bits, dst = CASES[case]
    p = plan_tmem_access(tmem, shape, dst, element_bitwidth=bits)
    c = p.chosen
    assert c.cost == c.instructions * WEIGHTS["tcgen05"] + c.conversion.cost
    assert all(o.cost >= c.cost for o in p.others)
    assert simulate(c.conversion).ok
    base, max_rep, _ = TCGEN05_SHAPES[c.shape]
    assert 1 <= c.repetition <= max_rep and c.instructions * c.repetition * base >= c.registers
    # every shape Triton builds is either priced or refused with its reason
    assert {o.shape for o in p.others} | {c.shape} | {s for s, _ in p.infeasible} == set(tmem_candidates(
        tmem, shape, element_bitwidth=bits))
    print(f"\n{tmem} {shape} {bits}-bit: {p.describe()}")


@pytest.mark.parametrize("variant", list(TCGEN05_SHAPES))
def test_wanting_a_shapes_own_layout_costs_only_its_instructions(variant):
    t, shape = TensorMemoryLayout([128, 128], 1), [128, 128]
    own = tmem_reg_layout(t, shape, element_bitwidth=16, instr_variant=variant)
    p = plan_tmem_access(t, shape, own, element_bitwidth=16)
    assert p.chosen.conversion.is_zero_cost and p.cost == p.chosen.instructions * WEIGHTS["tcgen05"]
    assert p.chosen.layout == own.to_linear(shape) or p.chosen.instructions <= min(o.instructions for o in p.others)


def test_counts_32x32b_fp32():
    """128 x 128 fp32, one row per thread: 128 registers, one tcgen05.ld.32x32b.x128."""
    t = TensorMemoryLayout([128, 128], 1)
    T = t.to_linear([128, 128])
    R = tmem_reg_layout(t, [128, 128], element_bitwidth=32).to_linear([128, 128])
    assert tcgen05_counts("32x32b", T, R, 32) == (128, 1, 128)
    R16 = tmem_reg_layout(t, [128, 128], element_bitwidth=32, instr_variant="16x256b").to_linear([128, 128])
    rep, n, regs = tcgen05_counts("16x256b", T, R16, 32)
    assert regs == 128 and rep == 16 and n == 2  # rows 16-31 of each warp: a second instruction


def test_store_direction_and_refusals():
    t, shape = TensorMemoryLayout([128, 128], 1), [128, 128]
    src = blocked([1, 8], [4, 8], [4, 1])
    p = plan_tmem_access(t, shape, src, element_bitwidth=16, direction="store")
    assert p.direction == "store" and p.chosen.conversion.src == src.to_linear(shape)
    assert "tcgen05.st" in p.describe()
    T = t.to_linear(shape)
    with pytest.raises(LayoutError, match="direction"):
        plan_tmem(T, {}, src.to_linear(shape), direction="sideways")
    with pytest.raises(UnsupportedError, match="no tcgen05 shape can serve: 16x64b: not here"):
        plan_tmem(T, {"16x64b": "not here"}, src.to_linear(shape))
    with pytest.raises(LayoutError, match="tensor-memory layout"):
        plan_tmem(src.to_linear(shape), {}, src.to_linear(shape))
    # a register layout whose warp 1 reads rows 0-31 breaks the quadrant rule
    bad = LinearLayout({"register": [[0, 1 << i] for i in range(7)], "lane": [[1 << i, 0] for i in range(5)],
                        "warp": [[64, 0], [32, 0]]}, {"dim0": 128, "dim1": 128})
    with pytest.raises(LayoutError, match="quadrant"):
        tcgen05_counts("32x32b", T, bad, 16)
