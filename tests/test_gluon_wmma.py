"""AMDWMMALayout against Triton 3.9 (the generated corpus triton-3.9-generated/gluon_wmma.jsonl and,
where triton is installed, the live builder on fresh random configurations).

Every row Triton accepted must be bit-exact; every row Triton refused (its Python checks, or an
abort of the process) must be refused by us with a LayoutError that says why.
"""

from __future__ import annotations

import collections

import pytest

from conftest import compare_with_live_triton, load_oracle, oracle_generator
from converters import gluon
from converters.gluon.amd import WMMA_INSTR_SHAPES, AMDWMMALayout
from converters.gluon.base import GluonLayout
from converters.gluon.distributed import DistributedLayout
from linlayout import LayoutError, LinearLayout
from linlayout.errors import BasisError, DimensionError, SizeError, UnsupportedError

ROWS = load_oracle("triton-3.9-generated/gluon_wmma.jsonl")
IN_DIMS = ("register", "lane", "warp", "block")


def _linear(row: dict) -> LinearLayout:
    return GluonLayout.from_dict(row["layout"]).to_linear(row["shape"])


def _bases(L: LinearLayout) -> dict[str, list[list[int]]]:
    return {k: [list(v) for v in L.bases[k]] for k in IN_DIMS}


def test_every_row_agrees_with_triton():
    tally = collections.Counter()
    for i, row in enumerate(ROWS):
        lay = row["layout"]
        if "error" in row:
            with pytest.raises(LayoutError) as info:
                _linear(row)
            assert "AMDWMMALayout" in str(info.value), f"row {i}: the refusal must name the layout: {info.value}"
            tally["refused"] += 1
            continue
        L = _linear(row)
        assert _bases(L) == row["linear"], f"row {i}: {lay} on {row['shape']}"
        assert list(L.in_dim_names) == list(IN_DIMS), f"row {i}"
        assert L.out_dims == {f"dim{d}": s for d, s in enumerate(row["shape"])}, f"row {i}"
        tally["exact"] += 1
        tally[f"v{lay['version']}", tuple(lay.get("instr_shape") or (16, 16, 16)), lay["transposed"]] += 1
        tally[f"rank{len(row['shape'])}"] += 1
        tally["cga"] += bool(lay.get("cga_layout"))
    assert tally["exact"] + tally["refused"] == len(ROWS) == 459
    assert tally["exact"] == 378 and tally["refused"] == 81
    # every accepted instruction shape, transposed or not, and both ranks are in the corpus
    for v, shapes in WMMA_INSTR_SHAPES.items():
        for s in shapes:
            for t in (False, True):
                assert tally[f"v{v}", s, t], (v, s, t)
    assert tally["rank2"] and tally["rank3"] and tally["cga"]


def test_dict_and_text_forms_round_trip():
    n = 0
    for row in ROWS:
        try:
            lay = GluonLayout.from_dict(row["layout"])
        except LayoutError:
            assert "error" in row
            continue
        assert isinstance(lay, AMDWMMALayout) and isinstance(lay, DistributedLayout)
        assert GluonLayout.from_dict(lay.to_dict()) == lay
        again = gluon.parse(str(lay))
        assert again == lay and hash(again) == hash(lay)
        n += 1
    assert n > 350


def test_parse_and_defaults_follow_gluon():
    a = gluon.parse("AMDWMMALayout(2, True, [[0, 1], [1, 0]])")
    assert isinstance(a, AMDWMMALayout)
    assert (a.reg_bases, a.instr_shape, a.cga_layout, a.rank) == ((), (16, 16, 16), (), 2)
    assert str(a) == "AMDWMMALayout(2, True, [[0, 1], [1, 0]])"
    assert gluon.from_dict(a.to_dict()) == a
    b = gluon.parse(
        "gl.amd.AMDWMMALayout(version=2, transposed=True, warp_bases=[[0, 1], [1, 0]], reg_bases=None, "
        "instr_shape=[16, 16, 16], cga_layout=[], rank=None)"
    )
    assert b == a
    assert a.warp_size == 32 and a.num_warps == 4
    c = AMDWMMALayout(3, False, [[0, 0, 1]], reg_bases=[[1, 0, 0]], instr_shape=[32, 16, 64], cga_layout=[[0, 1, 0]], rank=3)
    assert gluon.parse(str(c)) == c and gluon.from_dict(c.to_dict()) == c
    assert c.to_dict()["rank"] == 3


def test_tile_is_one_instruction_per_wavefront():
    # a single tile, one warp: 32 lanes x 8 registers cover the 16x16 tile exactly once
    for v in (1, 2):
        for t in (False, True):
            L = AMDWMMALayout(v, t, []).to_linear([16, 16])
            assert L.in_dims == {"register": 8, "lane": 32, "warp": 1, "block": 1}
            assert L.is_invertible()
    L = AMDWMMALayout(3, False, [], instr_shape=[32, 16, 128]).to_linear([32, 16])
    assert L.in_dims["register"] == 16 and L.is_invertible()
    # transposed is the transpose of the tile
    n = AMDWMMALayout(3, False, [], instr_shape=[32, 16, 64]).to_linear([32, 16])
    t = AMDWMMALayout(3, True, [], instr_shape=[32, 16, 64]).to_linear([16, 32])
    assert [v[::-1] for v in n.bases["register"]] == list(t.bases["register"])
    assert [v[::-1] for v in n.bases["lane"]] == list(t.bases["lane"])


@pytest.mark.parametrize(
    "kwargs, shape, error, match",
    [
        (dict(version=4, transposed=False, warp_bases=[]), [16, 16], LayoutError, "version"),
        (dict(version="2", transposed=False, warp_bases=[]), [16, 16], LayoutError, "version must be an int"),
        (dict(version=2, transposed="yes", warp_bases=[]), [16, 16], LayoutError, "transposed must be a bool"),
        (dict(version=3, transposed=False, warp_bases=[]), [16, 16], UnsupportedError, r"instr_shape \[16, 16, 16\] is not a WMMA v3"),
        (dict(version=2, transposed=False, warp_bases=[], instr_shape=[32, 16, 64]), [16, 16], UnsupportedError, "instr_shape"),
        (dict(version=2, transposed=False, warp_bases=[], instr_shape=[16, 16]), [16, 16], DimensionError, r"instr_shape \[16, 16\] must be \[M, N, K\]"),
        (dict(version=2, transposed=False, warp_bases=[[1, 0, 0]]), [16, 16, 16], BasisError, r"warp_bases\[0\].*pass rank=3"),
        (dict(version=2, transposed=False, warp_bases=[], reg_bases=[[1, 0, 0]]), [16, 16], BasisError, r"reg_bases\[0\]"),
        (dict(version=2, transposed=False, warp_bases=[], cga_layout=[[1]]), [16, 16], BasisError, r"cga_layout\[0\]"),
        (dict(version=2, transposed=False, warp_bases=[[-1, 0]]), [16, 16], BasisError, "negative"),
        (dict(version=2, transposed=False, warp_bases=[[1]], rank=1), [16], DimensionError, "rank must be 2 or 3"),
        (dict(version=2, transposed=False, warp_bases=[[2, 0]]), [64, 64], BasisError, "do not reach every tile"),
        (dict(version=2, transposed=False, warp_bases=[[1, 1]]), [64, 64], BasisError, "warp_bases"),
        (dict(version=2, transposed=False, warp_bases=[], cga_layout=[[1, 0], [1, 0]]), [64, 64], BasisError, r"cga_layout bases on dim 0 are \[1, 1\].*permutation"),
        (dict(version=2, transposed=False, warp_bases=[], cga_layout=[[2, 0]]), [64, 64], BasisError, "cga_layout"),
        (dict(version=2, transposed=False, warp_bases=[], cga_layout=[[3, 0]]), [64, 64], BasisError, "cga_layout"),
        (dict(version=2, transposed=False, warp_bases=[[1, 0]]), [48, 64], SizeError, "not a power of two"),
        (dict(version=2, transposed=False, warp_bases=[[1, 0]]), [64, 64, 64], DimensionError, "rank 2"),
        (dict(version=2, transposed=False, warp_bases=[[1, 0]]), "64x64", SizeError, "shape"),
        (dict(version=2, transposed=False, warp_bases=[[1, 0], [1, 0]]), [64, 64], BasisError, r"from warp_bases\[1\].*repeats"),
        (dict(version=2, transposed=False, warp_bases=[[1, 0]], reg_bases=[[1, 0]]), [64, 64], BasisError, r"from warp_bases\[0\].*repeats.*reg"),
        (dict(version=2, transposed=False, warp_bases=[[1, 1], [1, 0]]), [32, 32], BasisError, r"from warp_bases\[0\].*not a power of two on one dim"),
        (dict(version=2, transposed=False, warp_bases=[[3, 0], [2, 0]]), [32, 16], BasisError, "reach 8 of the 9 address bits"),
    ],
)
def test_bad_input_names_the_field(kwargs, shape, error, match):
    with pytest.raises(error, match=match):
        AMDWMMALayout(**kwargs).to_linear(shape)


def test_unknown_field_in_dict_is_refused():
    with pytest.raises(LayoutError, match="unknown field"):
        GluonLayout.from_dict({"kind": "AMDWMMALayout", "version": 2, "transposed": False, "warp_bases": [], "warps_per_cta": [1, 1]})


@pytest.mark.reference
def test_live_triton_on_fresh_random_configs():
    pytest.importorskip("triton")
    compare_with_live_triton(
        "triton-3.9-generated/make_gluon_wmma.py",
        lambda case: _bases(AMDWMMALayout(**case[0]).to_linear(case[1])),
        oracle_generator("triton-3.9-generated/make_gluon_wmma.py").request,
        count=80,
        max_refusals=4,
    )


# ---------------------------------------------------------------------------- dot operands
# Triton 3.9's answers (GluonOpBuilder.to_linear_layout of gl.DotOperandLayout(op, parent, k_width));
# the generated corpus gluon_dist.jsonl holds 300 more (tests/test_gluon_dist.py).
@pytest.mark.parametrize(
    "version, instr, op, kw, register, lane, warp",
    [
        (1, [16, 16, 16], 0, 8, [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [32, 0]],
         [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0]], [[0, 0], [16, 0]]),  # v1: the second half-wave repeats
        (2, [16, 16, 16], 1, 4, [[1, 0], [2, 0], [8, 0], [16, 0], [32, 0], [0, 32]],
         [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0]], [[0, 16], [0, 0]]),
        (3, [32, 16, 64], 0, 8, [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [16, 0]],
         [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], [[0, 0], [32, 0]]),  # 32 rows of A: 16 in lanes, 2 in registers
    ],
)
def test_wmma_dot_operands_match_triton(version, instr, op, kw, register, lane, warp):
    parent = AMDWMMALayout(version, False, [[0, 1], [1, 0]], instr_shape=instr)
    L = gluon.DotOperandLayout(op, parent, kw).to_linear([64, 64])
    assert _bases(L) == {"register": register, "lane": lane, "warp": warp, "block": []}


def test_wmma_dot_operand_k_width_is_checked_per_version():
    # Triton 3.9: "kWidth parameter must be 8/16 for WMMA v1", "4/8/16 for WMMA v2", "mandatory for WMMA v3"
    with pytest.raises(SizeError, match="8 or 16"):
        gluon.DotOperandLayout(0, AMDWMMALayout(1, False, []), 4)
    with pytest.raises(SizeError, match="4, 8 or 16"):
        gluon.DotOperandLayout(1, AMDWMMALayout(2, False, []), 32)
    with pytest.raises(SizeError, match="power of two"):
        gluon.DotOperandLayout(0, AMDWMMALayout(3, False, [], instr_shape=[16, 16, 32]), 0)
    assert gluon.DotOperandLayout(0, AMDWMMALayout(3, False, [], instr_shape=[16, 16, 32]), 1).to_linear([16, 32])


def test_wmma_dot_operand_refuses_repeated_parent_tiles_the_shape_keeps():
    # Triton 3.9 aborts: "LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases"
    parent = AMDWMMALayout(2, False, [[0, 1], [1, 1]])
    with pytest.raises(BasisError, match="repeats"):
        gluon.DotOperandLayout(1, parent, 8).to_linear([64, 64])
