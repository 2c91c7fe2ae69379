"""converters.cute algebra: the worked examples of the CuTe notes and hypothesis laws."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from converters.cute import (
    CompositionError,
    Layout,
    blocked_product,
    coalesce,
    complement,
    composition,
    filter,
    filter_zeros,
    flat_divide,
    left_inverse,
    logical_divide,
    logical_product,
    parse_layout,
    raked_product,
    right_inverse,
    tile_to_shape,
    tiled_divide,
    zipped_divide,
)
from linlayout.errors import LayoutError, NotInjectiveError

P = parse_layout
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------------------------------- worked examples
def test_composition_examples():
    # CuTe's argument order: composition(A, B)(i) = A(B(i))
    assert composition(P("8:2"), P("4:1")) == P("4:2")
    assert composition(P("(4,2):(1,4)"), P("(2,2):(1,2)")) == P("(2,2):(1,2)")
    assert composition(P("(4,2):(1,4)"), 4) == P("4:1")
    # tiler: mode by mode
    assert composition(P("(8,8):(1,8)"), (P("2:2"), None)) == P("(2,8):(2,8)")


def test_logical_divide_example():
    r = logical_divide(P("128:1"), P("32:1"))
    assert r.shape == (32, 4) and r.stride == (1, 32)
    assert str(r) == "(32,4):(1,32)"


def test_coalesce_examples():
    assert coalesce(P("(4,2):(1,4)")) == P("8:1")
    assert coalesce(P("(2,4):(4,1)")) == P("(2,4):(4,1)")
    assert coalesce(P("(2,4):(8,1)")) == P("(2,4):(8,1)")


def test_complement_example():
    assert complement(P("4:32"), 256) == P("(32,2):(1,128)")


def test_filter_zeros_examples():
    assert coalesce(filter_zeros(P("(4,3):(1,0)"))) == P("4:1")
    assert filter(P("(4,3):(1,0)")) == P("4:1")


def test_strict_rule_refuses_with_both_numbers():
    assert composition(P("4:1"), P("8:2")) == P("8:2")  # CuTe extends past the size
    with pytest.raises(CompositionError) as e:
        composition(P("4:1"), P("8:2"), strict=True)
    assert "15" in str(e.value) and "4" in str(e.value) and "strict" in str(e.value)
    assert composition(P("8:1"), P("4:2"), strict=True) == P("4:2")


def test_divisibility_conditions_named():
    with pytest.raises(CompositionError, match="stride divisibility condition"):
        composition(P("(6,2):(1,7)"), P("2:4"))
    with pytest.raises(CompositionError, match="shape divisibility condition"):
        composition(P("(3,12):(12,1)"), P("5:1"))
    # C++ at run time (and pycute) waive the shape condition and truncate
    assert composition(P("(3,12):(12,1)"), P("5:1"), check=False) == P("3:12")


def test_complement_refuses_interleaving_modes():
    with pytest.raises(NotInjectiveError, match="Non-injective"):
        complement(P("(5,5):(8,12)"), 162)


def test_divides_and_products():
    A = P("(8,8):(8,1)")
    assert zipped_divide(A, (2, 4)) == P("((2,4),(4,2)):((8,1),(16,4))")
    assert tiled_divide(A, (2, 4)) == P("((2,4),4,2):((8,1),16,4)")
    assert flat_divide(A, (2, 4)) == P("(2,4,4,2):(8,1,16,4)")
    assert logical_product(P("(2,2):(4,1)"), P("6:1")) == P("((2,2),(2,3)):((4,1),(2,8))")
    assert logical_product(P("4:1"), 3) == P("(4,3):(1,4)")  # pycute divides here (its bug)
    assert blocked_product(P("(2,2):(1,2)"), P("(2,3):(1,2)")) == P("((2,2),(2,3)):((1,4),(2,8))")
    assert raked_product(P("(2,2):(1,2)"), P("(2,3):(1,2)")) == P("((2,2),(3,2)):((4,1),(8,2))")
    assert tile_to_shape(P("(2,2):(1,2)"), (4, 6)) == P("((2,2),(2,3)):((1,4),(2,8))")
    with pytest.raises(LayoutError, match="does not divide"):
        tile_to_shape(P("(2,2):(1,2)"), (4, 5))


def test_a_profile_longer_than_the_layout_is_named():
    for fn in (coalesce, filter):
        with pytest.raises(LayoutError, match=f"{fn.__name__}: profile \\(1,1,1\\) has more modes than the rank-2 layout"):
            fn(P("(2,4):(1,2)"), (1, 1, 1))
    assert coalesce(P("((2,2),(2,2)):((1,2),(8,16))"), (1,)) == P("(4,(2,2)):(1,(8,16))")


def test_inverses():
    L = P("(4,8):(8,1)")
    R = right_inverse(L)
    assert [L(R(i)) for i in range(R.size())] == list(range(32))
    Li = left_inverse(P("(4,2):(1,8)"))
    assert [Li(P("(4,2):(1,8)")(i)) for i in range(8)] == list(range(8))
    assert right_inverse(P("(2,4):(-1,2)")).size() >= 1


# ----------------------------------------------------------------------------- strategies
POW2 = st.sampled_from([1, 2, 4, 8])
EXT = st.integers(1, 8)


@st.composite
def compact_layouts(draw, ext=EXT, max_rank=3):
    """A permutation of a compact layout (injective, complementable, divisible)."""
    shape = draw(st.lists(ext, min_size=1, max_size=max_rank))
    order = draw(st.permutations(range(len(shape))))
    stride = [0] * len(shape)
    p = 1
    for i in order:
        stride[i] = p
        p *= shape[i]
    if len(shape) == 1:
        return Layout(shape[0], stride[0])
    return Layout(tuple(shape), tuple(stride))


@st.composite
def any_layouts(draw, max_rank=3):
    shape = draw(st.lists(EXT, min_size=1, max_size=max_rank))
    stride = draw(st.lists(st.integers(0, 40), min_size=len(shape), max_size=len(shape)))
    return Layout(tuple(shape), tuple(stride))


@FAST
@given(any_layouts())
def test_coalesce_preserves_function(L):
    C = coalesce(L)
    assert np.array_equal(C.table(), L.table())
    assert coalesce(C) == C


@FAST
@given(any_layouts())
def test_coalesce_filter_zeros_idempotent(L):
    once = coalesce(filter_zeros(L))
    assert coalesce(filter_zeros(once)) == once


@FAST
@given(compact_layouts(ext=POW2), st.sampled_from([1, 2, 4]))
def test_complement_disjoint_and_covering(L, k):
    M = L.cosize() * k
    C = complement(L, M)
    offs = (L.table()[:, None] + C.table()[None, :]).ravel()
    # disjoint: every (a, b) pair gives a different offset; covering: all of [0, size*size)
    assert len(set(offs.tolist())) == offs.size
    assert sorted(offs.tolist()) == list(range(offs.size))
    assert offs.size >= M


@FAST
@given(compact_layouts())
def test_right_inverse_law(L):
    R = right_inverse(L)
    assert [L(R(i)) for i in range(R.size())] == list(range(R.size()))
    assert R.size() == L.size()  # a bijection onto [0, size): full inverse


@FAST
@given(compact_layouts(ext=POW2), compact_layouts(ext=POW2), compact_layouts(ext=POW2))
def test_composition_associative(A, B, C):
    assume(B.cosize() <= A.size() and C.cosize() <= B.size())
    try:
        left = composition(composition(A, B), C)
        right = composition(A, composition(B, C))
    except CompositionError:
        assume(False)
    assert np.array_equal(left.table(), right.table())
    ref = np.array([A(B(int(c))) for c in C.table()])
    assert np.array_equal(left.table(), ref)


@FAST
@given(compact_layouts(ext=POW2), st.sampled_from([1, 2, 4, 8]))
def test_logical_divide_is_a_permutation(A, t):
    assume(A.size() % t == 0)
    D = logical_divide(A, Layout(t, 1))
    assert D.size() == A.size()
    assert sorted(D.table().tolist()) == sorted(A.table().tolist())
