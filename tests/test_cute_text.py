"""converters.cute text: layouts, swizzles, composed layouts, the basis descriptor grammar, fuzzing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converters.cute import (
    ComposedLayout,
    Layout,
    Swizzle,
    format_descriptor,
    format_layout,
    normalize_descriptor,
    parse,
    parse_descriptor,
    parse_layout,
    parse_swizzle,
)
from linlayout.errors import BasisError, LayoutError, ParseError

FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_layout_forms():
    assert parse_layout("(4,8):(8,1)") == Layout((4, 8), (8, 1))
    assert parse_layout("((2,2),3):((24,2),8)") == Layout(((2, 2), 3), ((24, 2), 8))
    assert parse_layout("(_4,_8):(_8,_1)") == Layout((4, 8), (8, 1))
    assert parse_layout(" ( 4 , 8 ) : ( 8 , 1 ) ") == Layout((4, 8), (8, 1))
    assert parse_layout("8:-2") == Layout(8, -2)
    assert parse_layout("(4)") == Layout((4,), (1,))
    assert format_layout(Layout((4, 8), (8, 1)), cpp=True) == "(_4,_8):(_8,_1)"


def test_layout_basics():
    L = Layout(((2, 2), 3), ((24, 2), 8))
    assert (L.size(), L.cosize(), L.rank(), L.depth()) == (12, 43, 2, 2)
    assert L.crd2idx(((1, 1), 2)) == 42 == L(11)
    assert L.idx2crd(11) == ((1, 1), 2)
    assert L.table().tolist() == [L(i) for i in range(12)]
    assert Layout(4).depth() == 0 and Layout((4,)).depth() == 1
    with pytest.raises(LayoutError, match="congruent"):
        Layout((4, 8), (1,))
    with pytest.raises(LayoutError):
        L.crd2idx((1, 2, 3))


def test_swizzle_forms_and_semantics():
    s = Swizzle(3, 4, 3)
    assert parse_swizzle("S<3,4,3>") == parse_swizzle("Sw<3,4,3>") == parse_swizzle("SW_3_4_3") == s
    assert all(s(s(x)) == x for x in range(1 << 11))
    # y = x ^ ((x & yyy) >> S) with yyy = bits [M+S, M+S+B)
    assert s(0b111_0000000) == 0b111_0000000 ^ 0b111_0000
    neg = Swizzle(2, 0, -2)
    assert neg(0b0011) == 0b1111 and all(neg(neg(x)) == x for x in range(64))
    with pytest.raises(LayoutError, match=r"\|S\| >= B"):
        Swizzle(3, 4, 2)
    with pytest.raises(ParseError):
        parse_swizzle("S<3,4,2>")


def test_composed_forms():
    c = parse("S<3,4,3> o 0 o (8,64):(64,1)")
    assert isinstance(c, ComposedLayout) and c.offset == 0
    assert parse(str(c)) == c
    assert parse(c.to_cpp()) == c
    assert parse("Sw<3,4,3> o (8,64):(64,1)") == c
    assert np.array_equal(c.table(), [c.outer(c.inner(i)) for i in range(c.size())])
    d = parse("S<1,0,1> o 3 o 8:1")
    assert d(2) == Swizzle(1, 0, 1)(5)


def test_parse_errors_have_positions():
    for text, pos in [("(4,8):(8,1", 10), ("(4,8):(8,1))", 11), ("(4,8:(8,1)", 4), ("S<3,4>", 5), ("", 0)]:
        with pytest.raises(ParseError) as e:
            parse(text)
        assert e.value.position == pos, (text, e.value)
        assert "expected" in str(e.value)


def test_parser_bounds():
    deep = "(" * 100000 + "1" + ")" * 100000
    with pytest.raises(ParseError, match="nesting deeper"):
        parse(deep)
    with pytest.raises(ParseError, match="out of range"):
        parse("(" + "9" * 5000 + "):(1)")
    with pytest.raises(ParseError, match="out of range"):
        parse("99999999999999999999:1")
    with pytest.raises(ParseError, match="nesting deeper"):
        parse_descriptor("(" * 5000 + "1@0" + ")" * 5000)


LAYOUT_TEXT = st.recursive(
    st.integers(1, 9).map(str),
    lambda inner: st.lists(inner, min_size=1, max_size=3).map(lambda xs: "(" + ",".join(xs) + ")"),
    max_leaves=8,
)


@FAST
@given(LAYOUT_TEXT, st.data())
def test_text_roundtrip(shape_text, data):
    shape = parse_layout(shape_text).shape
    strides = [data.draw(st.integers(-50, 50)) for _ in parse_layout(shape_text).flat_shape()]
    from converters.cute.layout import unflatten

    L = Layout(shape, unflatten(strides, shape))
    assert parse_layout(str(L)) == L
    assert parse_layout(L.to_cpp()) == L
    assert str(parse_layout(str(L))) == str(L)


ALPHABET = "()_,:-/@oSWw<> 0123456789"


@FAST
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_fuzz_parse_never_crashes(text):
    for f in (parse, parse_descriptor):
        try:
            f(text)
        except ParseError as e:
            assert e.position is not None and 0 <= e.position <= len(text)
        except LayoutError:
            pass


@FAST
@given(st.text(max_size=30))
def test_fuzz_parse_arbitrary_unicode(text):
    for f in (parse, parse_descriptor):
        try:
            f(text)
        except ParseError as e:
            assert e.position is not None


# ----------------------------------------------------------------------------- descriptors
def test_descriptor_examples():
    assert normalize_descriptor((4, 8), parse_descriptor("(1@0, 1@1)")) == Layout((4, 8), (1, 4))
    assert normalize_descriptor(((2, 2), 3), "((1@0, 8@1), 1@2)", codomain=(2, 16, 3)) == Layout(
        ((2, 2), 3), ((1, 16), 32)
    )
    assert normalize_descriptor((2, 8), "(1/2@1, 4@0)", codomain=(2, 16)) == Layout((2, 8), (1, 4))
    assert normalize_descriptor((2,), "(1@0@1)", codomain=((4, 2),)) == Layout((2,), (4,))
    assert normalize_descriptor((), "()") == Layout((), ())
    assert parse_descriptor("()").tree == ()


def test_descriptor_rejects_impossible():
    with pytest.raises(BasisError, match="zero denominator"):
        normalize_descriptor((2,), "(1/0@0)", codomain=(4,))
    with pytest.raises(BasisError, match="non-integral"):
        normalize_descriptor((2, 8), "(1/2@0, 4@1)", codomain=(2, 16))
    with pytest.raises(BasisError, match="does not exist"):
        normalize_descriptor((2,), "(1@3)", codomain=(4, 4))
    with pytest.raises(BasisError, match="congruent"):
        normalize_descriptor((2, 2), "(1@0)", codomain=(4,))
    with pytest.raises(ParseError) as e:
        parse_descriptor("(1@0, 1@)")
    assert e.value.position == 8 and "codomain index" in str(e.value)


LEAF = st.builds(
    lambda n, d, idx: f"{n}" + (f"/{d}" if d != 1 else "") + "".join(f"@{i}" for i in idx),
    st.integers(-9, 9),
    st.integers(1, 4),
    st.lists(st.integers(0, 3), max_size=2),
)
DESC = st.recursive(LEAF, lambda inner: st.lists(inner, max_size=3).map(lambda xs: "(" + ", ".join(xs) + ")"), max_leaves=8)


@FAST
@given(DESC)
def test_descriptor_print_parse_roundtrip(text):
    d = parse_descriptor(text)
    assert parse_descriptor(format_descriptor(d)) == d
    assert format_descriptor(parse_descriptor(format_descriptor(d))) == format_descriptor(d)


# ----------------------------------------------------------------------------- every form round-trips
from converters.cute.layout import E, unflatten  # noqa: E402

SHAPES = st.recursive(st.integers(1, 9), lambda inner: st.lists(inner, min_size=1, max_size=3).map(tuple), max_leaves=8)


@st.composite
def any_layout(draw, basis=None):
    shape = draw(SHAPES)
    n = len(Layout(shape).flat_shape())
    if basis is None:
        basis = draw(st.booleans())
    if basis:
        leaf = st.one_of(st.just(0), st.builds(E, st.integers(-20, 20), st.integers(0, 3)))
    else:
        leaf = st.integers(-50, 50)
    return Layout(shape, unflatten([draw(leaf) for _ in range(n)], shape))


SWZ = st.builds(lambda b, m, extra, neg: Swizzle(b, m, -(b + extra) if neg else b + extra),
                st.integers(0, 3), st.integers(0, 4), st.integers(0, 3), st.booleans())


@st.composite
def any_form(draw):
    kind = draw(st.sampled_from(["layout", "basis", "swizzle", "composed", "composed_layout"]))
    if kind == "layout":
        return draw(any_layout(basis=False))
    if kind == "basis":
        return draw(any_layout(basis=True))
    if kind == "swizzle":
        return draw(SWZ)
    outer = draw(SWZ) if kind == "composed" else draw(any_layout(basis=False))
    return ComposedLayout(outer, draw(st.integers(-40, 40)), draw(any_layout(basis=False)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_form())
def test_parse_str_roundtrip_every_form(x):
    """parse(str(x)) == x, and CuTe C++'s print form (``(_4,_8):(_1@0,_8@1)``, ``Sw<3,4,3> o _0 o
    ...``) reads back to the same value."""
    assert parse(str(x)) == x
    assert parse(format_layout(x, cpp=True)) == x
    assert str(parse(str(x))) == str(x)


def test_basis_descriptor_layouts():
    I = parse("(4,8):(1@0,1@1)")
    assert I.is_basis() and I == Layout((4, 8), (E(1, 0), E(1, 1)))
    assert I(5) == (1, 1) and I((3, 7)) == (3, 7)
    assert parse("(_4,_8):(_1@0,_8@1)") == parse("( 4 , 8 ) : ( 1@0 , 8@1 )")
    assert parse("(2,4):(0,2@1)")(7) == (0, 6)
    assert parse("(4,8):(1@1,1@0)").coord_table()[:5].tolist() == [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]]
    with pytest.raises(ParseError, match="has no shape"):
        parse("(1@0, 8@1)")
    with pytest.raises(ParseError, match="mixes integer and basis"):
        parse("(4,8):(1@0,8)")
    # nested basis strides (C++ E<1,0> prints _1@0@1): the codomain coordinate (0, (1,))
    N = parse("(4,8):(1@0@1,8@0)")
    assert N == Layout((4, 8), (E(1, (1, 0)), E(8, 0))) and N((3, 2)) == (16, (3,)) and str(parse(str(N))) == str(N)
    with pytest.raises(LayoutError, match="both as an integer and as a tuple"):
        parse("(4,8):(1@0@1,8@1)")  # coordinate 1 both a tuple (1@0@1) and an integer (8@1)
    with pytest.raises(LayoutError, match="basis"):
        I.cosize()
    with pytest.raises(LayoutError, match="basis"):
        ComposedLayout(Swizzle(1, 0, 1), 0, I)


def test_descriptor_becomes_a_basis_layout():
    from converters.cute import basis_layout

    L = basis_layout(((2, 2), 3), "((1@0, 8@1), 1@2)")
    assert L == parse("((2,2),3):((1@0,8@1),1@2)") and L.is_basis()
    assert L(((1, 1), 2)) == (1, 8, 2)
    with pytest.raises(BasisError, match="integer v"):
        basis_layout((2, 8), "(1/2@0, 4@1)")
    with pytest.raises(BasisError, match="mixes"):
        basis_layout((2, 8), "(1@0, 4)")
