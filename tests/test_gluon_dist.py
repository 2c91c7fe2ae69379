"""Register layouts drawn at random (triton-3.9-generated/gluon_dist.jsonl) against Triton 3.9.

Every accepted row must be bit-exact and every refused row refused with a ``LayoutError``; the
dict and text forms must round-trip.  With triton installed, fresh random configurations are
compared with the live builder on every run (the way the MFMA-over-a-CGA rule was found).
"""

from __future__ import annotations

import collections
import math

import pytest

from conftest import assert_gluon_round_trips, assert_rows_match, compare_with_live_triton, load_oracle
from converters import gluon

GENERATOR = "triton-3.9-generated/make_gluon_dist.py"
ROWS = load_oracle("triton-3.9-generated/gluon_dist.jsonl")
KINDS = sorted({r["layout"]["kind"] for r in ROWS})


def _bases(layout: dict, shape: list[int]) -> dict:
    L = gluon.from_dict(layout).to_linear(shape)
    return {k: [list(v) for v in L.bases.get(k, ())] for k in ("register", "lane", "warp", "block")}


def test_the_corpus_covers_what_the_shared_corpora_rarely_do():
    assert len(ROWS) == 1065
    seen = collections.Counter()
    for r in ROWS:
        lay = r["layout"]
        seen[lay["kind"]] += 1
        blocked = lay if lay["kind"] == "BlockedLayout" else lay.get("parent", {})
        if blocked.get("kind") == "BlockedLayout" and "linear" in r:
            seen["odd warp size"] += math.prod(blocked["threads_per_warp"]) not in (32, 64)
        seen["several CTAs"] += len(lay.get("cga_layout", lay.get("parent", {}).get("cga_layout", []))) > 1
        seen["tiles per warp"] += any(x > 1 for x in lay.get("tiles_per_warp") or [])
        seen["64-bit"] += lay.get("element_bitwidth") == 64
        seen["MFMA operand"] += lay.get("parent", {}).get("kind") == "AMDMFMALayout"
        if lay["kind"] == "DotOperandLayout" and lay["parent"]["kind"] == "AMDWMMALayout" and "linear" in r:
            seen[f"WMMA v{lay['parent']['version']} operand {lay['operand_index']}"] += 1
    wmma = [f"WMMA v{v} operand {op}" for v in (1, 2, 3) for op in (0, 1)]
    for what in KINDS + ["several CTAs", "tiles per warp", "64-bit", "MFMA operand", "odd warp size", *wmma]:
        assert seen[what] >= 20, (what, seen)


@pytest.mark.parametrize("kind", KINDS)
def test_every_row_matches_triton(kind):
    assert_rows_match([r for r in ROWS if r["layout"]["kind"] == kind], _bases)


def test_dict_and_text_round_trip():
    assert assert_gluon_round_trips(ROWS) > 500


@pytest.mark.reference
def test_live_triton_on_fresh_random_configs():
    pytest.importorskip("triton")
    compare_with_live_triton(GENERATOR, lambda case: _bases(*case), lambda case: case, count=150)


@pytest.mark.reference
def test_live_triton_on_fresh_wmma_dot_operands():
    # DotOperandLayout on AMDWMMALayout parents (v1/v2/v3, operands 0 and 1), drawn afresh each run
    pytest.importorskip("triton")
    compare_with_live_triton(GENERATOR, lambda case: _bases(*case), lambda case: case, count=150,
                             draw="random_wmma_dot_case")
