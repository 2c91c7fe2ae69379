"""Every row of Triton 3.9's ll_ops corpus: our LinearLayout agrees with Triton's C++ LinearLayout.

Rows Triton refused (it aborts) must be refused by us with a LayoutError.  Where the answer is not
unique (pseudoinvert, invert_and_compose), we match Triton's choice exactly, and the defining
equation is checked on top.
"""

from __future__ import annotations

import pytest

from conftest import load_oracle
from linlayout import LayoutError, LinearLayout

ROWS = load_oracle("triton-3.9/ll_ops.jsonl")


def _run(row):
    a = LinearLayout.from_dict(row["a"])
    b = LinearLayout.from_dict(row["b"]) if "b" in row else None
    op = row["op"]
    if op == "apply":
        return a.apply(row["input"])
    if op == "compose":
        return a.compose(b)
    if op == "invert":
        return a.invert()
    if op == "pseudoinvert":
        return a.pseudo_invert()
    if op == "invert_and_compose":
        return a.invert_and_compose(b)
    return getattr(a, op)()


def identity_on(dims):
    out = LinearLayout.empty()
    for name, size in dims.items():
        out = out * LinearLayout.identity_1d(size, name, name)
    return out


def _id(row):
    return row["op"]


@pytest.mark.parametrize("row", ROWS, ids=_id)
def test_ll_ops_row(row):
    if "error" in row:
        with pytest.raises(LayoutError) as info:
            _run(row)
        assert str(info.value), "the refusal must say why"
        return
    got = _run(row)
    want = row["result"]
    if isinstance(got, LinearLayout):
        assert got == LinearLayout.from_dict(want)
        a = LinearLayout.from_dict(row["a"])
        if row["op"] == "pseudoinvert":
            # defining equation: a(P(y)) == y for every y
            assert got.compose(a) == identity_on(a.out_dims)
        if row["op"] == "invert_and_compose":
            b = LinearLayout.from_dict(row["b"])
            assert got.compose(b).transpose_outs(a.out_dim_names) == a
    else:
        assert got == want


def test_corpus_is_complete():
    assert len(ROWS) == 1500
    ops = {r["op"] for r in ROWS}
    assert ops == {"apply", "compose", "invert", "pseudoinvert", "invert_and_compose", "is_injective", "is_surjective", "is_invertible"}
