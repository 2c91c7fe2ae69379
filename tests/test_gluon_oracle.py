"""converters.gluon against Triton 3.9 (gluon_ll.jsonl, gluon_amd.jsonl) and the seed examples of
Gluon's documentation.

Every valid row must be bit-exact; every row Triton refused must be refused by us with a
LayoutError that says why.
"""

from __future__ import annotations

import collections

import pytest

from conftest import load_oracle
from converters import gluon
from linlayout import LayoutError, LinearLayout
from linlayout.errors import DimensionError, ParseError, SizeError

ROWS = load_oracle("triton-3.9/gluon_ll.jsonl") + load_oracle("triton-3.9/gluon_amd.jsonl")


def _linear(row):
    return gluon.from_dict(row["layout"]).to_linear(row["shape"])


def _want(row):
    lin = row["linear"]
    return {k: [list(v) for v in vs] for k, vs in lin.items()}


def test_every_row_agrees_with_triton():
    tally = collections.Counter()
    for i, row in enumerate(ROWS):
        kind = row["layout"]["kind"]
        if "error" in row:
            with pytest.raises(LayoutError) as info:
                _linear(row)
            assert str(info.value), f"row {i}: the refusal must say why"
            tally[kind, "refused"] += 1
            continue
        got = _linear(row)
        want = _want(row)
        assert {k: [list(v) for v in got.bases[k]] for k in want} == want, f"row {i}: {row['layout']} on {row['shape']}"
        assert set(got.in_dim_names) == set(want), f"row {i}: in-dims {got.in_dim_names}"
        assert got.out_dims == {f"dim{d}": s for d, s in enumerate(row["shape"])}, f"row {i}"
        tally[kind, "exact"] += 1
    assert sum(tally.values()) == len(ROWS) == 2150
    # every family of the corpus is exercised
    assert {k for k, _ in tally} >= {
        "BlockedLayout", "SliceLayout", "NVMMADistributedLayout", "DotOperandLayout", "NVMMASharedLayout",
        "SwizzledSharedLayout", "TensorMemoryLayout", "TensorMemoryScalesLayout", "AMDMFMALayout",
    }


def test_dict_and_text_forms_round_trip_on_every_row():
    for row in ROWS:
        lay = gluon.from_dict(row["layout"])
        assert gluon.from_dict(lay.to_dict()) == lay
        assert gluon.parse(str(lay)) == lay


BLOCKED = "BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])"


def test_seed_blocked_64x16():
    L = gluon.parse(BLOCKED).to_linear([64, 16])
    assert L.in_dims == {"register": 8, "lane": 32, "warp": 4, "block": 1}
    # register 0..7 of thread 0: a 2x4 block at the origin, dim1 fastest (order [1, 0])
    assert [tuple(L(register=r).values()) for r in range(8)] == [(i, j) for i in range(2) for j in range(4)]
    assert L.is_invertible()


def test_seed_blocked_128x128_repeats_in_registers():
    L = gluon.parse(BLOCKED).to_linear([128, 128])
    # one layout tile is 64x16 (8 registers per thread); 128x128 needs 16 tiles: 128 registers
    assert L.in_dim_size("register") == 128
    assert L.is_invertible()


def test_seed_blocked_32x8_broadcasts_over_warps():
    L = gluon.parse(BLOCKED).to_linear([32, 8])
    # the tensor is smaller than the tile: each warp holds a full copy
    assert all(not any(v) for v in L.bases["warp"])
    assert L.is_surjective() and not L.is_injective()
    free = L.free_variable_masks()
    assert free["warp"] == 0b11


def test_seed_slice_of_blocked():
    parent = gluon.parse(BLOCKED)
    s = gluon.SliceLayout(1, parent)
    L = s.to_linear([64])
    P = parent.to_linear([64, 16])
    # dropping dim1 from the parent (and its zero register bases) gives the slice
    assert L.bases["lane"] == tuple((v[0],) for v in P.bases["lane"])
    assert L.bases["warp"] == tuple((v[0],) for v in P.bases["warp"])
    assert all(v != (0,) for v in L.bases["register"])


def test_seed_three_spellings_of_one_layout():
    a = gluon.parse("BlockedLayout([1], [32], [4], [0])").to_linear([128])
    b = gluon.parse("SliceLayout(1, BlockedLayout([1, 1], [32, 1], [4, 1], [1, 0]))").to_linear([128])
    c = gluon.DistributedLinearLayout(reg_bases=[], lane_bases=[[1], [2], [4], [8], [16]], warp_bases=[[32], [64]]).to_linear([128])
    assert a == b == c


@pytest.mark.parametrize(
    "text, shape, error, match",
    [
        ("BlockedLayout([2, 4], [8, 3], [2, 2], [1, 0])", [64, 16], SizeError, "threads_per_warp"),  # 16 threads are fine (as Triton)
        ("BlockedLayout([2, 4], [16, 2], [2, 2], [1, 1])", [64, 16], DimensionError, "order"),
        ("BlockedLayout([2, 3], [16, 2], [2, 2], [1, 0])", [64, 16], SizeError, "size_per_thread"),
        ("BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])", [48, 16], SizeError, "not a power of two"),
    ],
)
def test_bad_fields_are_named(text, shape, error, match):
    with pytest.raises(error, match=match):
        gluon.parse(text).to_linear(shape)


@pytest.mark.parametrize(
    "text",
    ["BlockedLayout([2,4],[16,2],[2,2],[1,0]", "BlockedLayout([2,4], [16,2])", "NoSuchLayout([1])", "BlockedLayout([2,x],[16,2],[2,2],[1,0])"],
)
def test_malformed_text_is_a_parse_error(text):
    with pytest.raises(ParseError) as info:
        gluon.parse(text)
    assert info.value.position is not None


def test_linear_round_trip_of_a_row():
    row = next(r for r in ROWS if r["layout"]["kind"] == "DotOperandLayout" and "error" not in r)
    L = _linear(row)
    assert LinearLayout.from_dict(L.to_dict()) == L
