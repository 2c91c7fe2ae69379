"""Random layouts checked against Triton's own C++ LinearLayout (when triton is installed).

Only inputs Triton accepts are generated (it aborts the process on others): surjective outer
layouts for invert_and_compose and pseudoinvert, bijective ones for invert.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import invertible_layouts, linear_layouts

from linlayout import LinearLayout

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


NAME_POOL = ("register", "lane", "warp", "block", "offset", "in1", "in2")


@st.composite
def ordered_subset(draw, order):
    """Some of the names of ``order``, in that order (dims common to two such lists then have the
    same relative order, as Triton's ``*`` requires)."""
    return [n for n in order if draw(st.booleans())]


@st.composite
def product_operands(draw):
    ins_order = draw(st.permutations(NAME_POOL))
    outs_order = draw(st.permutations(("dim0", "dim1", "dim2", "dim3")))
    layouts = []
    for _ in range(2):
        ins = draw(ordered_subset(ins_order))
        outs = {n: 1 << draw(st.integers(0, 3)) for n in draw(ordered_subset(outs_order))}
        bases = {n: [[draw(st.integers(0, s - 1)) for s in outs.values()] for _ in range(draw(st.integers(0, 3)))] for n in ins}
        layouts.append(LinearLayout(bases, outs, require_surjective=False))
    return layouts


def from_triton_full(t):
    return from_triton(t), [tuple(x) for x in t.out_dims]


def ours_full(layout):
    return ours(layout), list(layout.out_dims.items())


@settings(max_examples=200)
@given(product_operands())
def test_direct_product_matches_triton_dim_order_and_bases(operands):
    a, b = operands
    got = a * b
    want = to_triton(a) * to_triton(b)
    assert list(got.in_dim_names) == list(want.get_in_dim_names())
    assert ours_full(got) == from_triton_full(want)


@settings(max_examples=150)
@given(linear_layouts(), st.data())
def test_invert_and_compose_with_larger_outer_out_dims_matches_triton(src, data):
    # the outer layout's out-dims are each at least as large as src's (Triton 3.9 accepts that)
    bigger = {n: s << data.draw(st.integers(0, 2)) for n, s in src.out_dims.items()}
    dst = data.draw(linear_layouts(outs=bigger, surjective=True))
    want = to_triton(src).invert_and_compose(to_triton(dst))
    assert ours_full(src.invert_and_compose(dst)) == from_triton_full(want)
