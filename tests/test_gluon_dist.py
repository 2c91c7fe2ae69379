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


# ---------------------------------------- non-unit register bases: where Triton 3.9 refuses them

#: Register bases that are not unit vectors, and what Triton 3.9 does with each (recorded with
#: triton 3.9.0 on a CPU; ``test_triton_refuses_non_unit_registers_only_below_the_python_class``
#: checks it live).  Its Gluon ``DistributedLinearLayout`` (python, ``_layouts.py``) checks only
#: that every basis has the tensor's rank, so both are built.  The refusals come in C++, later:
#: turning the layout into IR (``_to_ir``) builds a ``#ttg.generic_linear`` attribute, whose
#: verifier refuses a register basis moving in two dims; a basis XOR-combining bits of one dim
#: passes it, and Triton aborts when it first lays the tensor out ("orderPerDim", Dialect.cpp).
#: "requires a permutation matrix layout" is ``#ttg.linear``'s verifier, reached by
#: ``GluonOpBuilder.to_linear_layout`` (and by ``#ttg.linear`` in TTGIR), not by the class.
NON_UNIT_REGISTERS = [
    # (reg_bases, lane_bases, shape, Triton's diagnostic once the layout goes to C++)
    ([[0, 1], [0, 3]], [[0, 4], [0, 8], [0, 16], [0, 32], [1, 0]], [2, 64],
     "orderPerDim cannot determine dimension order for swizzled bases"),
    ([[0, 1], [1, 1]], [[0, 4], [0, 8], [0, 16], [0, 32], [0, 2]], [2, 64],
     "register, lane, and block bases must move in at most one dimension"),
]


@pytest.mark.parametrize("reg, lane, shape, _", NON_UNIT_REGISTERS)
def test_distributed_linear_accepts_non_unit_register_bases(reg, lane, shape, _):
    """Our ``DistributedLinearLayout`` accepts them where Triton's Python class does (at
    construction): the layout keeps the bases as given."""
    d = gluon.DistributedLinearLayout(reg, lane, [], shape=shape)
    assert [list(b) for b in d.reg_bases] == reg
    assert dict(d.to_linear(shape).to_dict()["bases"])["register"] == reg


_TRITON_SIDE = r"""
import json, sys
from triton._C.libtriton import ir, gluon_ir
from triton.experimental.gluon import language as gl
reg, lane, shape = json.loads(sys.argv[1])
layout = gl.DistributedLinearLayout(reg, lane, [], [], shape)
print("constructed", flush=True)
ctx = ir.context()
ir.load_dialects(ctx)
builder = gluon_ir.GluonOpBuilder(ctx)
attr = layout._to_ir(builder)
print("to_ir", flush=True)
builder.to_linear_layout(attr, shape)
print("laid out", flush=True)
"""


@pytest.mark.reference
@pytest.mark.parametrize("reg, lane, shape, diagnostic", NON_UNIT_REGISTERS)
def test_triton_refuses_non_unit_registers_only_below_the_python_class(reg, lane, shape, diagnostic):
    """Live Triton (its own process: it aborts): its Python class builds the layout, as ours
    does, and the refusal is the C++ diagnostic recorded in ``NON_UNIT_REGISTERS``."""
    pytest.importorskip("triton")
    import json
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-c", _TRITON_SIDE, json.dumps([reg, lane, shape])], capture_output=True, text=True,
                       timeout=300)
    assert p.stdout.startswith("constructed"), p.stdout + p.stderr
    assert "laid out" not in p.stdout and p.returncode != 0, p.stdout
    assert diagnostic in p.stderr, p.stderr[-2000:]
    assert "requires a permutation matrix layout" not in p.stderr
    gluon.DistributedLinearLayout(reg, lane, [], shape=shape)  # ours builds it too
