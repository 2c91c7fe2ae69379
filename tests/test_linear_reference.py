"""Random layouts checked against Triton's own C++ LinearLayout (when triton is installed).

Only inputs Triton accepts are generated (it aborts the process on others): surjective outer
layouts for invert_and_compose and pseudoinvert, bijective ones for invert.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import invertible_layouts, linear_layouts

tl = pytest.importorskip("triton._C.libtriton.linear_layout", reason="triton is not installed")

pytestmark = pytest.mark.reference


def to_triton(layout):
    return tl.LinearLayout.from_bases(
        [(n, [list(v) for v in vs]) for n, vs in layout.bases.items()],
        list(layout.out_dims),
        list(layout.out_dims.values()),
        False,
    )


def from_triton(t):
    return {n: [list(v) for v in vs] for n, vs in t.bases}


def ours(layout):
    return {n: [list(v) for v in vs] for n, vs in layout.bases.items()}


@settings(max_examples=150)
@given(linear_layouts(), st.data())
def test_invert_and_compose_matches_triton(src, data):
    dst = data.draw(linear_layouts(outs=src.out_dims, surjective=True))
    assert ours(src.invert_and_compose(dst)) == from_triton(to_triton(src).invert_and_compose(to_triton(dst)))


@settings(max_examples=100)
@given(linear_layouts(surjective=True))
def test_pseudoinvert_matches_triton(layout):
    assert ours(layout.pseudo_invert()) == from_triton(to_triton(layout).pseudoinvert())


@settings(max_examples=100)
@given(invertible_layouts())
def test_invert_matches_triton(layout):
    assert ours(layout.invert()) == from_triton(to_triton(layout).invert())


@settings(max_examples=100)
@given(linear_layouts(), st.data())
def test_apply_and_predicates_match_triton(layout, data):
    t = to_triton(layout)
    inputs = {n: data.draw(st.integers(0, s - 1)) for n, s in layout.in_dims.items()}
    assert layout.apply(inputs) == dict(t.apply(inputs))
    assert layout.is_injective() == t.is_injective()
    assert layout.is_surjective() == t.is_surjective()
    assert layout.is_invertible() == t.is_invertible()
