"""The reverse direction (converters.gluon.spellings / canonical) on every valid oracle row.

For every row Triton accepted (gluon_ll.jsonl, gluon_amd.jsonl and the generated gluon_wmma.jsonl,
every family):

* every listed spelling converts back to exactly the row's linear layout;
* the canonical form of the row's own spelling is listed, and converts to the same layout;
* the row's spelling is listed literally exactly when it is already canonical.  It is not when
  the tensor is smaller than the layout's tile and Triton cuts bases: then the fields that chose
  them stop mattering and ``spellings`` lists the one canonical choice (see the spell module).

Hypothesis checks the same laws on random blocked layouts and shapes, and that ``canonical`` is
idempotent.
"""

from __future__ import annotations

import collections

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from conftest import load_oracle
from converters import gluon
from converters.gluon.spell import canonical
from strategies import blocked_on_shape

ROWS = [
    r
    for f in ("triton-3.9/gluon_ll.jsonl", "triton-3.9/gluon_amd.jsonl", "triton-3.9-generated/gluon_wmma.jsonl")
    for r in load_oracle(f)
    if "error" not in r
]
KINDS = sorted({r["layout"]["kind"] for r in ROWS})

#: rows whose own spelling is canonical (listed literally), per family, as measured; the others
#: are listed in canonical form (the generated WMMA corpus cuts bases on purpose).  Families
#: without broadcast freedom are all literal.
LITERAL = {"BlockedLayout": 450, "SliceLayout": 58, "AMDWMMALayout": 124}


@pytest.mark.parametrize("kind", KINDS)
def test_every_valid_row_round_trips_through_its_spellings(kind):
    rows = [r for r in ROWS if r["layout"]["kind"] == kind]
    tally = collections.Counter()
    for row in rows:
        shape = row["shape"]
        original = gluon.from_dict(row["layout"])
        L = original.to_linear(shape)
        found = gluon.spellings(L, shape)
        assert found, f"no spelling for {original} on {shape}"
        for s in found:
            assert s.to_linear(shape) == L, f"{s} does not produce the layout of {original} on {shape}"
        canon = canonical(original, shape)
        assert canon.to_linear(shape) == L, f"canonical({original}) = {canon} changes the layout on {shape}"
        assert canon in found, f"canonical {canon} of {original} on {shape} not among {[str(s) for s in found[:6]]}"
        assert (original in found) == (canon == original), f"{original} on {shape}"
        tally["literal"] += original in found
    assert tally["literal"] == LITERAL.get(kind, len(rows)), f"{kind}: {tally['literal']} of {len(rows)} rows listed literally"


def test_simplest_first_and_the_fallback_last():
    L = gluon.parse("NVMMADistributedLayout([2, 0], [2, 2], [16, 8])").to_linear([32, 32])
    found = gluon.spellings(L)
    assert found[0].family == "NVMMADistributedLayout"
    assert found[-1].family == "DistributedLinearLayout"
    b = gluon.parse("BlockedLayout([1], [32], [4], [0])").to_linear([128])
    assert str(gluon.simplest_spelling(b)) == "BlockedLayout([1], [32], [4], [0])"


def test_a_broadcast_blocked_layout_is_listed_canonically():
    original = gluon.parse("BlockedLayout([8], [32], [4], [0])")
    canon = canonical(original, [2])
    assert str(canon) == "BlockedLayout([2], [32], [4], [0])"
    assert canon in gluon.spellings(original.to_linear([2]))
    assert original not in gluon.spellings(original.to_linear([2]))


def test_tensor_memory_spellings():
    t = gluon.parse("TensorMemoryLayout([128, 256], 1)")
    L = t.to_linear([128, 64])
    found = gluon.spellings(L)
    assert canonical(t, [128, 64]) == gluon.parse("TensorMemoryLayout([128, 64], 1)") in found


@given(blocked_on_shape())
def test_canonical_is_listed_exact_and_idempotent(case):
    b, shape = case
    L = b.to_linear(shape)
    canon = canonical(b, shape)
    assert canon.to_linear(shape) == L
    assert canonical(canon, shape) == canon
    assert canon in gluon.spellings(L, shape)


@given(blocked_on_shape(), st.integers(0, 2))
def test_canonical_of_a_slice(case, dim):
    b, shape = case
    assume(b.rank >= 2)
    s = gluon.SliceLayout(dim % b.rank, b)
    sshape = shape[: s.dim] + shape[s.dim + 1:]
    L = s.to_linear(sshape)
    canon = canonical(s, sshape)
    assert canon.to_linear(sshape) == L
    assert canon in gluon.spellings(L, sshape)
