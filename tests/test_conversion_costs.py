"""``plan.conversion_costs`` (the cost matrices' path: no plans built) gives every pair the cost
and kind of ``plan_conversion(s, d)``: a few dozen layouts of each family, every ordered pair."""

from __future__ import annotations

import random

import pytest

from linlayout import LinearLayout
from linlayout.errors import LayoutError
from linlayout.plan import conversion_costs, plan_conversion


def _by_plans(layouts, bits):
    out = []
    for s in layouts:
        row = []
        for d in layouts:
            try:
                p = plan_conversion(s, d, bitwidth=bits)
                row.append((p.cost, p.kind))
            except LayoutError as e:
                row.append((type(e), str(e)))
        out.append(row)
    return out


def _fast(layouts, bits):
    return [[(type(c), str(c)) if isinstance(c, LayoutError) else c for c in row]
            for row in conversion_costs(layouts, layouts, bitwidth=bits)]


def _random_linear(rng, shape, warps, blocks=1):
    """A random surjective distributed layout: units of the tensor's bits, some XOR-mixed, some
    registers broadcast, hardware bits shuffled among registers, lanes, warps and CTAs."""
    dim = sum(s.bit_length() - 1 for s in shape)
    n_lane, n_warp, n_block = 5, warps.bit_length() - 1, blocks.bit_length() - 1
    vecs = [1 << i for i in range(dim)]
    rng.shuffle(vecs)
    for _ in range(rng.randrange(3)):
        i, j = rng.sample(range(dim), 2)
        vecs[i] ^= vecs[j]
    hw = n_lane + n_warp + n_block
    vecs += [0] * max(hw - dim, 0) + [0] * rng.randrange(2)
    n_reg = len(vecs) - hw
    regs, rest = vecs[:n_reg], vecs[n_reg:]
    if rng.random() < 0.5:
        both = regs + rest
        rng.shuffle(both)
        regs, rest = both[:n_reg], both[n_reg:]
    outs = [(f"dim{k}", s) for k, s in enumerate(shape)]
    return LinearLayout.from_flat({"register": regs, "lane": rest[:n_lane], "warp": rest[n_lane:n_lane + n_warp],
                                   "block": rest[n_lane + n_warp:]}, outs)


@pytest.mark.parametrize("bits", [16, 32])
def test_blocked_space(bits):
    from linlayout.app import space

    s = space.classify(space.blocked_space([64, 64], 4), [64, 64], executor="serial")
    layouts = [c.layout for c in s.classes[:: max(1, len(s.classes) // 30)]]
    layouts.append(layouts[3])  # an equal layout shares its answers
    assert _fast(layouts, bits) == _by_plans(layouts, bits)


def test_mma_dot_and_blocked():
    from converters.gluon import from_dict

    shape = [128, 128]
    specs = []
    for w in ([4, 1], [2, 2], [1, 4]):
        mma2 = {"kind": "NVMMADistributedLayout", "version": [2, 0], "warps_per_cta": w, "instr_shape": [16, 8]}
        specs.append(mma2)
        for idx in (0, 1):
            for kw in (1, 2, 4):
                specs.append({"kind": "DotOperandLayout", "operand_index": idx, "parent": mma2, "k_width": kw})
    for n in (16, 64, 128):
        specs.append({"kind": "NVMMADistributedLayout", "version": [3, 0], "warps_per_cta": [4, 1], "instr_shape": [16, n, 16]})
    for spt, tpw, wpc, order in (([1, 4], [1, 32], [4, 1], [1, 0]), ([4, 1], [32, 1], [1, 4], [0, 1]),
                                 ([2, 2], [4, 8], [2, 2], [1, 0]), ([1, 8], [8, 4], [4, 1], [1, 0])):
        specs.append({"kind": "BlockedLayout", "size_per_thread": spt, "threads_per_warp": tpw, "warps_per_cta": wpc,
                      "order": order, "cga_layout": []})
    layouts = [from_dict(x).to_linear(shape) for x in specs]
    for bits in (8, 16):
        assert _fast(layouts, bits) == _by_plans(layouts, bits)


def test_tensor_memory_registers():
    from converters.gluon import TensorMemoryLayout
    from converters.gluon.tmem import tmem_reg_layout

    layouts = []
    for shape in ([128, 64], [128, 128]):
        for col in (1, 2):
            for bw in (16, 32):
                try:
                    layouts.append(tmem_reg_layout(TensorMemoryLayout(shape, col), shape, element_bitwidth=bw).to_linear(shape))
                except LayoutError:
                    continue
    shape = [128, 128]
    rng = random.Random(5)
    layouts += [_random_linear(rng, shape, 4) for _ in range(12)]
    assert len(layouts) > 14
    assert _fast(layouts, 16) == _by_plans(layouts, 16)


@pytest.mark.parametrize("seed", range(3))
def test_random_linear_with_broadcast_and_ctas(seed):
    """Random layouts (XOR-mixed, broadcast, some over 2 CTAs: cross-CTA round trips), mixed with
    layouts of other shapes and hardware (the planner's errors, kept per pair)."""
    rng = random.Random(seed)
    layouts = [_random_linear(rng, [64, 64], rng.choice([1, 2, 4])) for _ in range(14)]
    layouts += [_random_linear(rng, [64, 64], 2, 2) for _ in range(10)]
    layouts += [_random_linear(rng, [32, 128], 4), LinearLayout({"register": [[1, 0]], "lane": []}, {"dim1": 2, "dim0": 1})]
    rng.shuffle(layouts)
    got = _fast(layouts, 16)
    assert got == _by_plans(layouts, 16)
    kinds = {k for row in got for _, k in row if isinstance(k, str)}
    assert {"noop", "shared_memory", "cross_cta"} <= kinds
    assert any(isinstance(c[0], type) for row in got for c in row)  # some pairs refused


def test_out_dims_in_another_order():
    """A destination spelled with its tensor dims in the other order is transposed as the planner does."""
    rng = random.Random(11)
    a = _random_linear(rng, [64, 32], 4)
    b = _random_linear(rng, [64, 32], 4)
    flipped = LinearLayout({k: [[v[1], v[0]] for v in vs] for k, vs in b.bases.items()}, {"dim1": 32, "dim0": 64})
    layouts = [a, b, flipped]
    assert _fast(layouts, 16) == _by_plans(layouts, 16)


@pytest.mark.parametrize("strategy", ["best", "triton"])
def test_minimal_dims_are_the_minimal_maps(strategy):
    """The dims the cost path reads (no map built) are the in-dims of the planner's minimal map,
    including pairs where a broadcast source lets whole dims go (the map is re-solved)."""
    from linlayout.plan import _minimal, _minimal_dims, _pair
    from linlayout.plan_smem import conversion_map

    rng = random.Random(3)
    seen = set()
    for _ in range(150):
        shape = rng.choice([[32, 32], [64, 16], [16, 128]])
        warps, blocks = rng.choice([1, 2, 4]), rng.choice([1, 1, 2])
        a, b = _pair(_random_linear(rng, shape, warps, blocks), _random_linear(rng, shape, warps, blocks), None)
        if rng.random() < 0.3:  # the same data in another order of registers, or broadcast the same way
            b = LinearLayout.from_flat({n: (a.flat_bases(n)[::-1] if n == "register" else a.flat_bases(n)) for n in a.in_dim_names},
                                       list(a.out_dims.items()))
        comp = conversion_map(a, b)
        want = _minimal(a, b, comp, strategy).in_dim_names
        assert _minimal_dims(a, b, comp, strategy) == want
        seen.add(want)
    assert len(seen) >= 4
