"""Lists whose length Gluon's Python leaves to Triton's C++ (triton-3.9-generated/gluon_lenient.jsonl).

AMD MFMA's ``tiles_per_warp`` of any length (Triton's own IR reader hands out ``[1, 1, 1]`` for a
rank-2 layout), NVIDIA MMA's ``version`` and ``instr_shape``, CGA bases of the wrong length, WMMA's
``reg_bases``, shared layouts' ``order``: every spelling Triton 3.9 turns into a linear layout
must give the same one here, and every one it refuses (an exception, or an abort of the process)
must be refused with a ``LayoutError``.  With triton installed, fresh random MFMA accumulators,
operands and slices are compared with the live builder.
"""

from __future__ import annotations

import collections

import pytest

from conftest import assert_gluon_round_trips, assert_rows_match, compare_with_live_triton, load_oracle
from converters import gluon
from converters.gluon import AMDMFMALayout, DotOperandLayout, NVMMADistributedLayout, SliceLayout
from linlayout.errors import DimensionError, LayoutError, SizeError

GENERATOR = "triton-3.9-generated/make_gluon_lenient.py"
ROWS = load_oracle("triton-3.9-generated/gluon_lenient.jsonl")

def _bases(layout: dict, shape: list[int]) -> dict:
    L = gluon.from_dict(layout).to_linear(shape)
    return {k: [list(v) for v in vs] for k, vs in L.bases.items()}


def _tpw(layout: dict) -> list[int] | None:
    return layout.get("tiles_per_warp", layout.get("parent", {}).get("tiles_per_warp"))


def test_the_corpus_covers_every_length():
    assert len(ROWS) == 514
    seen = collections.Counter()
    for r in ROWS:
        lay = r["layout"]
        tpw = _tpw(lay)
        if tpw is not None:
            rank = len(r["shape"]) + (lay["kind"] == "SliceLayout")
            accepted = "linear" in r
            seen[("tpw length - rank", len(tpw) - rank, accepted)] += 1
            seen[("tpw has a 0", 0 in tpw, accepted)] += 1
        seen[lay["kind"]] += 1
    # rank + 1 (the IR reader's) and longer accepted; shorter accepted for the operand that reads
    # only its non-K entry and refused for the accumulator; empty as the default
    for key in [("tpw length - rank", 1, True), ("tpw length - rank", 2, True), ("tpw length - rank", -1, True),
                ("tpw length - rank", -1, False), ("tpw length - rank", -2, True), ("tpw has a 0", True, True),
                ("tpw has a 0", True, False)]:
        assert seen[key] >= 3, (key, seen)
    assert seen["NVMMADistributedLayout"] >= 30 and seen["DotOperandLayout"] >= 50 and seen["SliceLayout"] >= 50


def test_every_row_matches_triton():
    assert_rows_match(ROWS, _bases)


def test_dict_and_text_round_trip_keep_the_list_as_given():
    assert assert_gluon_round_trips(ROWS) > 400


def test_tiles_per_warp_entries_triton_reads():
    # the IR reader's rank + 1 list: the extra entry is never read
    m = AMDMFMALayout(3, [32, 32, 8], True, [4, 1], tiles_per_warp=[2, 1, 7])
    assert m.to_linear([256, 128]) == AMDMFMALayout(3, [32, 32, 8], True, [4, 1], tiles_per_warp=[2, 1]).to_linear([256, 128])
    # rank 3: entries 1 (M) and 2 (N); the batch entry is not read
    m3 = AMDMFMALayout(3, [16, 16, 16], False, [1, 2, 2], tiles_per_warp=[3, 2, 1])
    assert m3.to_linear([2, 128, 128]) == AMDMFMALayout(3, [16, 16, 16], False, [1, 2, 2], tiles_per_warp=[1, 2, 1]).to_linear([2, 128, 128])
    # 0 tiles along M count as one; along N Triton divides by it
    assert AMDMFMALayout(3, [16, 16, 16], False, [2, 2], tiles_per_warp=[0, 1]).to_linear([64, 64]) == \
        AMDMFMALayout(3, [16, 16, 16], False, [2, 2]).to_linear([64, 64])
    with pytest.raises(SizeError, match="divides by it"):
        AMDMFMALayout(3, [16, 16, 16], False, [2, 2], tiles_per_warp=[1, 0]).to_linear([64, 64])
    # a one-entry list: operand A reads entry 0 only, the accumulator and operand B need entry 1
    short = AMDMFMALayout(3, [16, 16, 16], False, [2, 2], tiles_per_warp=[2])
    assert DotOperandLayout(0, short, 4).to_linear([128, 128]) == \
        DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 2], tiles_per_warp=[2, 1]), 4).to_linear([128, 128])
    for use in (short, DotOperandLayout(1, short, 4), SliceLayout(0, short)):
        with pytest.raises(DimensionError, match=r"tiles_per_warp \[2\] has no entry 1"):
            use.to_linear([128, 128] if use.rank == 2 else [128])
    # non-powers of two are refused where read, as Triton aborts there
    with pytest.raises(SizeError, match=r"tiles_per_warp\[0\] = 3"):
        AMDMFMALayout(3, [16, 16, 16], False, [2, 2], tiles_per_warp=[3, 1]).to_linear([64, 64])
    # numbers Triton's binding refuses are refused when the layout is made
    for bad in ([1, -1], [1, 1, 1 << 32]):
        with pytest.raises(SizeError, match="32-bit unsigned"):
            AMDMFMALayout(3, [16, 16, 16], False, [2, 2], tiles_per_warp=bad)


def test_nvidia_mma_reads_version_zero_and_the_tile():
    base = NVMMADistributedLayout([2, 0], [2, 2], [16, 8]).to_linear([64, 64])
    for version in ([2], [2, 0, 0], [2, 1]):
        assert NVMMADistributedLayout(version, [2, 2], [16, 8]).to_linear([64, 64]) == base
    assert NVMMADistributedLayout([3, 0], [4, 1], [16, 64]).to_linear([64, 64]) == \
        NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16]).to_linear([64, 64])
    # an eighth of 0 adds nothing (Triton's identity of size 0)
    assert NVMMADistributedLayout([2, 0], [2, 2], [0, 8]).to_linear([64, 64]) == \
        NVMMADistributedLayout([2, 0], [2, 2], [8, 8]).to_linear([64, 64])
    with pytest.raises(SizeError, match="N = 4 is not a multiple of 8"):
        NVMMADistributedLayout([2, 0], [2, 2], [16, 4]).to_linear([64, 64])
    with pytest.raises(DimensionError, match="one entry per dim"):
        NVMMADistributedLayout([2, 0], [2, 2], [16, 8, 16]).to_linear([64, 64])
    # the operand does not read instr_shape
    op = DotOperandLayout(0, NVMMADistributedLayout([2, 0], [2, 2], [16, 8, 16]), 2)
    assert op.to_linear([64, 64]) == DotOperandLayout(0, NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), 2).to_linear([64, 64])
    with pytest.raises(LayoutError, match="not supported"):
        NVMMADistributedLayout([], [2, 2], [16, 8])
    # wgmma operand A: instr_shape[rank - 2] rows per tile (the instruction's M at rank 2, N at rank 3)
    a32 = DotOperandLayout(0, NVMMADistributedLayout([3, 0], [4, 1], [32, 64, 16]), 2).to_linear([128, 64])
    assert a32.bases["warp"] == ((32, 0), (64, 0))
    a3 = DotOperandLayout(0, NVMMADistributedLayout([3, 0], [1, 4, 1], [16, 64, 16]), 2).to_linear([2, 64, 64])
    assert a3.bases["warp"] == ((0, 0, 0), (0, 0, 0))  # 64 rows a tile: the four warps along M hold copies


@pytest.mark.reference
def test_live_triton_on_fresh_random_configs():
    pytest.importorskip("triton")
    compare_with_live_triton(GENERATOR, lambda case: _bases(*case), lambda case: case, count=150)
