"""Nested composed layouts (a ComposedLayout whose outer or inner part is itself composed), as CuTe
C++ builds and transforms them (``layout_composed.hpp``, ``swizzle_layout.hpp``).  The rows of
tests/oracles/cute-cpp/algebra.jsonl (checked in test_cute_cpp_oracle.py) are C++'s answers; here
the laws every answer must satisfy, evaluated point by point, and the linear forms."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import linlayout
from converters.cute import (
    ComposedLayout,
    Layout,
    Swizzle,
    composition,
    from_linear,
    left_inverse,
    logical_divide,
    offset_map,
    parse,
    right_inverse,
    to_linear,
    zipped_divide,
)
from converters.cute import algebra as A
from linlayout.errors import LayoutError, NotLinearError, UnsupportedError


def _f(x, i):
    return x(i)


def _values(x) -> list[int]:
    return [int(v) for v in x.table()]


def test_evaluation_and_text():
    N = parse("S<1,0,1> o 0 o S<3,4,3> o 0 o (8,64):(64,1)")
    inner = parse("S<3,4,3> o 0 o (8,64):(64,1)")
    assert isinstance(N.inner, ComposedLayout)
    assert [N(i) for i in range(512)] == [Swizzle(1, 0, 1)(inner(i)) for i in range(512)] == _values(N)
    O = parse("(S<1,0,1> o 0 o (8,8):(1,8)) o 4 o 16:2")
    assert isinstance(O.outer, ComposedLayout) and str(O) == "(S<1,0,1> o 0 o (8,8):(1,8)) o 4 o 16:2"
    assert [O(i) for i in range(16)] == [O.outer(4 + 2 * i) for i in range(16)] == _values(O)
    # a chain reads right-nested; the two nestings are one function with one chain
    R = parse("S<1,0,1> o 0 o (8,8):(1,8) o 4 o 16:2")
    assert R != O and R.chain() == O.chain() and _values(R) == _values(O)
    assert parse(str(O)) == O and parse(str(N)) == N and parse(N.to_cpp()) == N
    with pytest.raises(LayoutError, match="innermost part"):
        parse("(8,64):(64,1) o 0 o S<1,0,1>")


def test_the_algebra_recurses_as_cpp():
    N = parse("S<1,0,1> o 0 o S<2,4,3> o 0 o (8,64):(64,1)")
    t = parse("(2,4):(1,2)")
    for op in (A.logical_divide, A.zipped_divide, A.tiled_divide, A.flat_divide, A.logical_product,
               A.blocked_product, A.raked_product, A.zipped_product, A.tiled_product, A.coalesce):
        r = op(N, t) if op is not A.coalesce else op(N)
        # the swizzles stay outside; the inner layout is the plain layout's answer
        assert r.outer == N.outer and r.inner.outer == N.inner.outer
        assert r.inner.inner == (op(N.inner.inner, t) if op is not A.coalesce else op(N.inner.inner))
    assert A.complement(N) == A.complement(N.inner.inner)
    # composing two swizzled layouts nests them, as C++ does
    C = composition(parse("S<1,0,1> o 0 o (8,64):(64,1)"), parse("S<2,4,3> o 0 o 512:1"))
    assert str(C) == "S<1,0,1> o 0 o S<2,1,3> o 0 o (8,64):(64,1)"


@pytest.mark.parametrize("text", ["S<1,0,1> o 0 o S<2,4,3> o 0 o (8,64):(64,1)",
                                  "(64,8):(8,1) o 0 o S<2,0,3> o 0 o (8,64):(64,1)",
                                  "(S<1,0,1> o 0 o (8,8):(1,8)) o 0 o (8,8):(8,1)",
                                  "(16,32):(32,1) o 4 o (8,8):(1,8)"])
def test_inverses_are_inverses(text):
    N = parse(text)
    R = right_inverse(N)
    assert all(N(R(i)) == i for i in range(R.size()))
    vals = _values(N)
    if len(set(vals)) == len(vals):
        Li = left_inverse(N)
        assert all(Li(v) == i for i, v in enumerate(vals))


def test_linear_forms():
    for text in ("S<1,0,1> o 0 o S<3,4,3> o 0 o (8,64):(64,1)", "(S<1,0,1> o 0 o (8,8):(1,8)) o 0 o (8,8):(8,1)",
                 "(64,8):(8,1) o 0 o (8,64):(64,1)"):
        N = parse(text)
        M = offset_map(N)
        vals = _values(N)
        rows, cols = N.shape
        assert [M.apply({"dim0": i % rows, "dim1": i // rows})["offset"] for i in range(N.size())] == vals
        L = to_linear(N)
        assert all(L.apply({"offset": v}) == {"dim0": i % rows, "dim1": i // rows} for i, v in enumerate(vals))
        if text.startswith("S<1,0,1> o 0 o S<3,4,3>"):
            # two swizzles make no single Swizzle<B,M,S>: from_linear has no spelling (it searches one)
            with pytest.raises(UnsupportedError, match="no CuTe layout or swizzle o layout"):
                from_linear(L)
            continue
        back = from_linear(L)
        assert linlayout.equivalent(back, N)
    with pytest.raises(NotLinearError, match="affine"):
        offset_map(parse("(16,32):(32,1) o 4 o (8,8):(1,8)"))
    with pytest.raises(NotLinearError):
        offset_map(parse("(3,32):(32,1) o 0 o (8,8):(1,8)"))
    with pytest.raises(UnsupportedError, match="mixed-radix"):
        N.to_general()


def test_refusals():
    N = parse("S<1,0,1> o 0 o S<2,4,3> o 0 o (8,64):(64,1)")
    with pytest.raises(LayoutError, match="Require offset == 0"):
        composition(parse("(8,64):(64,1)"), parse("S<1,0,1> o 4 o (8,64):(64,1)"))
    with pytest.raises(UnsupportedError, match="bare swizzle"):
        right_inverse(parse("S<1,0,1> o 4 o S<2,4,3> o 0 o (8,64):(64,1)"))
    with pytest.raises(LayoutError, match="ComposedLayout outer"):
        ComposedLayout(3, 0, N)


SWIZZLES = st.sampled_from([Swizzle(1, 0, 1), Swizzle(2, 4, 3), Swizzle(3, 3, 3), Swizzle(1, 2, 2), Swizzle(2, 0, 2)])
COMPACT = st.sampled_from([parse(t) for t in ("(8,64):(64,1)", "(16,32):(1,16)", "((2,4),64):((1,128),2)", "512:1", "(32,16):(16,1)")])
TILERS = st.sampled_from([parse(t) for t in ("(2,4):(1,2)", "4:1", "(2,2):(2,1)", "8:2", "(4,2):(2,1)")])


@st.composite
def nested(draw):
    L = draw(COMPACT)
    inner = ComposedLayout(draw(SWIZZLES), 0, L)
    if draw(st.booleans()):
        return ComposedLayout(draw(SWIZZLES), 0, inner)
    return ComposedLayout(ComposedLayout(draw(SWIZZLES), 0, parse("512:1")), 0, inner)


@settings(max_examples=60, deadline=None)
@given(nested(), TILERS, TILERS)
def test_laws(N, t, u):
    vals = _values(N)
    # composition is c -> N(t(c)), and associative
    C = composition(N, t)
    assert _values(C) == [vals[t(i)] for i in range(t.size())]
    assume(u.cosize() <= t.size())  # within t's domain (past it, a layout extends along its last mode)
    try:
        left = composition(composition(N, t), u)
        right = composition(N, composition(t, u))
    except LayoutError:
        assume(False)
    assert _values(left) == _values(right)
    # a divide is a re-indexing of the same offsets
    for op in (logical_divide, zipped_divide):
        D = op(N, t)
        assert sorted(_values(D)) == sorted(vals)
    # the offset map is GF(2)-linear and agrees with the table wherever it is defined
    try:
        M = offset_map(N)
    except NotLinearError:
        return
    rows = np.prod(N.shape[0]) if isinstance(N.shape, tuple) else N.size()
    got = [M.apply({"dim0": i % rows, "dim1": i // rows} if isinstance(N.shape, tuple) and len(N.shape) == 2
                   else {"dim0": i})["offset"] for i in range(N.size())]
    assert got == vals
