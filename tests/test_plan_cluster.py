"""Shared-memory round trips in a CTA cluster: the conversion is trivial over ``block`` (each CTA
exchanges within itself), so each CTA's buffer holds one CTA's part of the tensor, as Triton 3.9
sizes its scratch (``getNumScratchElemsSwizzledCvt``: the swizzled buffer's elements over
``reps`` x the CTAs the tensor is split over)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linlayout import LinearLayout
from linlayout.plan import plan_conversion
from linlayout.simulate import simulate
from strategies import with_swapped_bases

STRATEGIES = ("triton", "best")


def _insert_bit(v: int, k: int) -> int:
    """``v`` with a 0 put in at bit ``k`` (the bits from ``k`` up move one higher)."""
    return (v & ((1 << k) - 1)) | ((v >> k) << (k + 1))


@st.composite
def _cta_pair(draw):
    """Two distributed layouts of one CTA (same lanes and warps): random invertible maps of a
    2-D tensor, XOR-mixed, split into registers, 8 lanes, 1-4 warps."""
    shape = [1 << draw(st.integers(1, 4)), 1 << draw(st.integers(1, 4))]
    total = sum(s.bit_length() - 1 for s in shape)
    n_lane, n_warp = min(3, total), draw(st.integers(0, 2))
    n_warp = min(n_warp, total - n_lane)
    pair = []
    for _ in range(2):
        cols = [1 << i for i in draw(st.permutations(range(total)))]
        for _ in range(draw(st.integers(0, total))):
            i, j = draw(st.integers(0, total - 1)), draw(st.integers(0, total - 1))
            if i != j:
                cols[i] ^= cols[j]
        n_reg = total - n_lane - n_warp
        pair.append({"register": cols[:n_reg], "lane": cols[n_reg:n_reg + n_lane], "warp": cols[n_reg + n_lane:]})
    return shape, pair


def _outs(shape, cut):
    """The cluster tensor's dims: each bit of ``cut`` (positions in the cluster tensor's flat
    index, ascending) lengthens the dim it falls in."""
    bits = [s.bit_length() - 1 for s in shape]
    for c in cut:
        at = 0
        for i, k in enumerate(bits):
            if c <= at + k:
                bits[i] += 1
                break
            at += k
    return [(f"dim{i}", 1 << k) for i, k in enumerate(bits)]


@settings(max_examples=60, deadline=None)
@given(_cta_pair(), st.data())
def test_cluster_round_trip_is_one_ctas(pair, data):
    """A cluster pair plans as its one-CTA pair does (same mechanism, counts, conflicts and bytes:
    the buffer is one CTA's), wherever the block bits sit in the tensor, and the plan runs."""
    shape, (fa, fb) = pair
    total = sum(s.bit_length() - 1 for s in shape)
    n_cut = data.draw(st.integers(1, 2))
    cut = sorted(data.draw(st.lists(st.integers(0, total), min_size=n_cut, max_size=n_cut)))
    cut = [c + i for i, c in enumerate(cut)]  # positions in the cluster tensor, distinct, ascending
    one = [LinearLayout.from_flat(f, [("dim0", shape[0]), ("dim1", shape[1])]) for f in (fa, fb)]
    outs = _outs(shape, cut)
    whole = []
    for f in (fa, fb):
        spread = {d: [_spread(v, cut) for v in vs] for d, vs in f.items()}
        whole.append(LinearLayout.from_flat({**spread, "block": [1 << c for c in cut]}, outs))
    for strategy in STRATEGIES:
        p1 = plan_conversion(*one, bitwidth=16, strategy=strategy)
        p = plan_conversion(*whole, bitwidth=16, strategy=strategy)
        assert p.kind == p1.kind
        if p.kind != "shared_memory":
            continue
        assert (p.shared_bytes, p.stores, p.loads, p.store_vector, p.load_vector, p.store_instr, p.load_instr, p.reps,
                p.store_conflicts, p.load_conflicts, p.barriers) == (
            p1.shared_bytes, p1.stores, p1.loads, p1.store_vector, p1.load_vector, p1.store_instr, p1.load_instr, p1.reps,
            p1.store_conflicts, p1.load_conflicts, p1.barriers)
        lay = p.shared_layout
        assert lay.in_dim_names == ("vector", "bank", "segment", "block", "reps")
        assert sorted(lay.flat_bases("block")) == [1 << c for c in cut]
        assert p.shared_bytes == lay.total_out_size // (lay.in_dim_size("block") * lay.in_dim_size("reps")) * 2
        rep = simulate(p)
        assert rep.ok, rep


def _spread(v: int, cut) -> int:
    for k in cut:
        v = _insert_bit(v, k)
    return v


def test_triton_ir_cluster_reproducer():
    """The cluster conversion of matmul_128x256x64_fp16_ctas2 (sm_100): Triton 3.9 allocates
    32768 bytes (one CTA's 128 x 128 f16), not the whole 128 x 256 tensor's 65536."""
    from converters.mlir import parse_type

    a = parse_type("tensor<128x256xf16, #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], "
                   "lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = [[0, 128]]}>>").to_linear()
    b = parse_type("tensor<128x256xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], "
                   "order = [1, 0], CGALayout = [[0, 1]]}>>").to_linear()
    for strategy in STRATEGIES:
        p = plan_conversion(a, b, bitwidth=16, strategy=strategy, ldmatrix=True)
        assert p.kind == "shared_memory" and p.shared_bytes == 32768
        assert p.shared_layout.flat_bases("block") == a.flat_bases("block")
        assert simulate(p).ok


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_cross_cta_keeps_the_whole_tensor(strategy):
    """Data that crosses CTAs (distributed shared memory) still goes through one buffer of the
    whole tensor: only the within-CTA round trip is cut to one CTA's part."""
    a = LinearLayout.from_flat({"register": [1], "lane": [2, 4, 8, 16, 32], "block": [64]}, [("dim0", 128)])
    b = LinearLayout.from_flat({"register": [64], "lane": [2, 4, 8, 16, 32], "block": [1]}, [("dim0", 128)])
    p = plan_conversion(a, b, bitwidth=32, strategy=strategy)
    assert p.kind == "cross_cta" and p.shared_bytes * p.reps == 128 * 4
    assert "block" not in p.shared_layout.in_dim_names


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_ctas_splitting_the_tensor_differently_still_plan_runnable_round_trips(data):
    """The destination's block bases are the source's XOR some of the source's own vectors
    (registers, lanes, warps): every CTA still holds what it reads back, so the data stays in the
    CTA, but the two layouts cut the tensor differently and the buffer cannot be one CTA's part.
    The block vectors then move a thread's elements as a lane or warp does; rounds and matrix rows
    must not depend on them (before: 'thread 64 holds elements of another round in the registers
    thread 0 stores now' or an ldmatrix row starting inside a row, in some CTAs).  The destination
    inside a CTA is the source with a few bases swapped (shared registers: rounds, matrix tiles).
    Every plan of both strategies, with and without matrix instructions, runs."""
    n_block = data.draw(st.integers(1, 2))
    n_warp = data.draw(st.integers(0, 2))
    n_reg = data.draw(st.integers(2, 6))
    total = n_reg + 5 + n_warp + n_block
    k0 = data.draw(st.integers(1, total - 1))
    outs = [("dim0", 1 << k0), ("dim1", 1 << (total - k0))]
    cols = [1 << i for i in data.draw(st.permutations(range(total)))]
    sizes = {"register": n_reg, "lane": 5, "warp": n_warp, "block": n_block}
    flat, at = {}, 0
    for d, k in sizes.items():
        flat[d], at = cols[at:at + k], at + k
    a = LinearLayout.from_flat(flat, outs)
    own = flat["register"] + flat["lane"] + flat["warp"]
    local = data.draw(with_swapped_bases(LinearLayout.from_flat({d: flat[d] for d in ("register", "lane", "warp")}, outs)))
    blocks_b = [v ^ data.draw(st.sampled_from(own)) if data.draw(st.booleans()) else v for v in flat["block"]]
    b = LinearLayout.from_flat({**{d: local.flat_bases(d) for d in ("register", "lane", "warp")}, "block": blocks_b}, outs)
    bits = data.draw(st.sampled_from([8, 16, 32]))
    for strategy in STRATEGIES:
        for matrix in (True, False):
            p = plan_conversion(a, b, bitwidth=bits, strategy=strategy, matrix_instructions=matrix)
            if p.kind in ("shared_memory", "cross_cta"):
                rep = simulate(p)
                assert rep.ok, (strategy, matrix, rep)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_check_plans_cluster_pairs_that_failed_simulation(strategy):
    """Two of the generated pairs (check_plans gen:197, seed 7 gen:5327) whose CTAs split the
    tensor differently: the rounds split along a register a block vector moves (CTA-dependent
    register selection), and ldmatrix rows that start inside a row in CTA 1."""
    a = LinearLayout({"register": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0]],
                      "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], "warp": [], "block": [[0, 32], [0, 64]]},
                     {"dim0": 128, "dim1": 128})
    b = LinearLayout({"register": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0]],
                      "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], "warp": [], "block": [[0, 32], [4, 64]]},
                     {"dim0": 128, "dim1": 128})
    c = LinearLayout({"register": [[1, 0], [2, 0]], "lane": [[4, 0], [8, 0], [16, 0], [0, 1], [0, 2]],
                      "warp": [[0, 4], [0, 8]], "block": [[0, 24]]}, {"dim0": 32, "dim1": 32})
    d = LinearLayout({"register": [[1, 0], [2, 0]], "lane": [[4, 0], [8, 0], [16, 0], [0, 1], [0, 2]],
                      "warp": [[0, 4], [0, 8]], "block": [[8, 16]]}, {"dim0": 32, "dim1": 32})
    for src, dst, bits in ((a, b, 16), (c, d, 16)):
        for matrix in (True, False):
            p = plan_conversion(src, dst, bitwidth=bits, strategy=strategy, matrix_instructions=matrix)
            assert p.kind in (("shared_memory",) if strategy == "triton" else ("shared_memory", "register")), p.kind
            assert simulate(p).ok, (matrix, simulate(p))
