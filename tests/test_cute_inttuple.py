"""Laws of the int-tuple functions, slicing, nullspace, domain_distribute, max_alignment and
MixedBits (converters.cute.inttuple / slicing / queries / mixedbits), and their refusals of bad
input.  C++'s own answers for seeded cases are checked in test_cute_cpp_extras.py; these are the
properties that hold for every input."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from converters.cute import (
    ComposedLayout,
    E,
    Layout,
    MixedBits,
    Swizzle,
    _,
    colex_less,
    composition,
    congruent,
    dice,
    dice_tuple,
    domain_distribute,
    elem_less,
    evenly_divides,
    filter as cute_filter,
    format_coord,
    idx2crd,
    lex_less,
    logical_divide,
    make_mixed_bits,
    make_ordered_layout,
    max_alignment,
    nullspace,
    parse_coord,
    shape_div,
    slice,
    slice_and_offset,
    slice_tuple,
    weakly_congruent,
)
from converters.cute.inttuple import DivisibilityError, IntTupleError, RankError
from converters.cute.layout import flatten, product, unflatten
from converters.cute.mixedbits import MixedBitsError
from linlayout.errors import LayoutError, ParseError, SizeError, UnsupportedError


# ------------------------------------------------------------------ strategies
def shapes(extents=st.sampled_from([1, 2, 3, 4, 6, 8]), depth: int = 2):
    leaf = extents
    return st.recursive(leaf, lambda kids: st.lists(kids, min_size=1, max_size=3).map(tuple), max_leaves=6)


@st.composite
def layouts(draw, strides=st.integers(-8, 16)):
    shape = draw(shapes())
    flat = flatten(shape)
    stride = [draw(strides) for _ in flat]
    return Layout(shape, unflatten(stride, shape) if isinstance(shape, tuple) else stride[0])


@st.composite
def coord_of(draw, shape):
    """A natural coordinate of ``shape`` and a slicing coordinate made from it: each sub-tree
    kept, replaced by ``_``, or by its flat index (what C++'s crd2idx accepts for a sub-tree)."""

    def full(s):
        return tuple(full(x) for x in s) if isinstance(s, tuple) else draw(st.integers(0, s - 1))

    def flat_index(c, s):
        return Layout(s)(c) if isinstance(s, tuple) else c

    def slicer(c, s, top):
        r = draw(st.integers(0, 2))
        if isinstance(s, tuple) and (top or r == 0):
            return tuple(slicer(x, y, False) for x, y in zip(c, s))
        if r == 1 or top:
            return _
        return flat_index(c, s)  # an int for the whole sub-tree

    f = full(shape)
    return f, slicer(f, shape, True)


def _compact(shape, order):
    return make_ordered_layout(shape, unflatten(order, shape)) if isinstance(shape, tuple) else Layout(shape)


# ------------------------------------------------------------------ slicing laws
@given(layouts(), st.data())
def test_slice_and_offset_reconstructs_the_layout(layout, data):
    """``layout(c) == offset + slice(c)(free part of c)`` for every coordinate ``c`` matching the
    slicing coordinate on its fixed modes, and the dice carries the fixed part:
    ``layout(c) == slice(c)(free) + dice(c)(fixed)``."""
    full, c = data.draw(coord_of(layout.shape))
    sliced, off = slice_and_offset(c, layout)
    assert sliced == slice(c, layout)
    free, fixed = slice_tuple(c, full), dice_tuple(c, full)
    assert layout(full) == off + sliced(free)
    assert layout(full) == sliced(free) + dice(c, layout)(fixed)
    assert sliced.size() * dice(c, layout).size() == layout.size()
    if isinstance(c, tuple) and _ in c:
        assert layout(*c) == sliced  # L(i, _) is the slice


SWIZZLED = [
    ComposedLayout(Swizzle(3, 0, 3), 0, Layout((8, 8), (8, 1))),
    ComposedLayout(Swizzle(3, 0, -3), 0, Layout((8, 8), (8, 1))),
    ComposedLayout(Swizzle(2, 1, 3), 0, Layout(((2, 2, 2), (2, 2, 2)), ((32, 2, 8), (4, 1, 16)))),
    ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1))),
    ComposedLayout(Swizzle(2, 4, 3), 0, Layout(((4, 2), (8, 4)), ((32, 512), (1, 8)))),
    ComposedLayout(Swizzle(1, 2, 2), 0, Layout((4, 8), (1, 4))),
    ComposedLayout(Swizzle(3, 3, 3), 0, Layout((64, 8), (1, 64))),
]


@given(st.sampled_from(SWIZZLED), st.data())
def test_swizzled_slice_and_offset_reconstructs_the_layout(layout, data):
    """The same law through C++'s swizzle decay: whether the slice stays swizzled or becomes a
    plain layout with the swizzle folded into its strides, ``offset + slice(free)`` is the
    swizzled layout's value, for every completion of the coordinate."""
    full, c = data.draw(coord_of(layout.shape))
    assume(c != _ and any(x is _ for x in flatten(c)))
    sliced, off = slice_and_offset(c, layout)
    free = slice_tuple(c, full)
    assert layout(full) == off + sliced(free)
    for k in range(min(sliced.size(), 64)):
        # every element of the slice is one of the layout's values (the free modes enumerate them)
        assert off + sliced(k) in set(layout.table().tolist())


def test_swizzled_slice_with_a_carrying_offset_is_cpp_s():
    """C++ folds a composed layout's own offset into the swizzle by XOR (``offset ^
    to_mixed_bits(...)``) and decides the decay from the free modes' bits alone, so when that
    offset *carries* into the fixed or free modes' bits the slice is not the layout's function:
    C++ slices ``Sw<3,4,3> o _32 o (_8,_64):(_64,_1)`` at ``(_,32)`` to ``((_2,_4)):((_64,_144))``
    with offset ``_0``, whose element 0 is 0 where the layout gives 64.  We answer as C++ does
    (extras.jsonl rows); without a carry (offset 0, or bits apart) the law above holds."""
    layout = ComposedLayout(Swizzle(3, 4, 3), 32, Layout((8, 64), (64, 1)))
    sliced, off = slice_and_offset((_, 32), layout)
    assert (str(sliced), off) == ("((2,4)):((64,144))", 0)
    assert layout(0, 32) == 64 != off + sliced(0)
    sliced, off = slice_and_offset((_, 16), layout)  # 32 + 16: no carry, the law holds
    assert all(layout(i, 16) == off + sliced(i) for i in range(8))


def test_slicing_refusals():
    L = Layout((4, 8), (8, 1))
    with pytest.raises(RankError):
        slice((1, _, 2), L)
    with pytest.raises(RankError):
        slice((_, (1, 2)), L)
    with pytest.raises(IntTupleError):
        slice((1.5, _), L)
    with pytest.raises(IntTupleError):
        slice_and_offset((1, _), "(4,8):(8,1)")
    with pytest.raises(IntTupleError):
        dice((1, _), SWIZZLED[0])
    with pytest.raises(UnsupportedError):  # C++ does not compile a swizzled slice at a point
        slice_and_offset((1, 2), SWIZZLED[0])
    with pytest.raises(UnsupportedError):  # nor a swizzle over a composed layout sliced at a point
        slice_and_offset((1, _), ComposedLayout(Swizzle(1, 0, 1), 0, SWIZZLED[0]))


@given(st.recursive(st.one_of(st.integers(-9, 9), st.just(_)), lambda k: st.lists(k, max_size=3).map(tuple), max_leaves=6))
def test_coordinate_text_round_trips(c):
    assert parse_coord(format_coord(c)) == c
    assert parse_coord(format_coord(c, cpp=True)) == c


# ------------------------------------------------------------------ int-tuple laws
@given(shapes(), st.sampled_from([1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64]))
def test_shape_div_by_an_integer(a, b):
    """Where C++ divides (no DivisibilityError) and ``b`` divides ``size(a)``, the quotient is
    congruent with ``a`` and its size is ``size(a) / b``; dividing by ``a`` itself gives ones."""
    try:
        q = shape_div(a, b)
    except DivisibilityError:
        return
    assert congruent(q, a)
    if product(a) % b == 0:
        assert product(q) * b == product(a)
    assert set(flatten(shape_div(a, a))) == {1}


@given(shapes(), shapes(), shapes())
def test_weakly_congruent_is_a_partial_order(a, b, c):
    assert weakly_congruent(a, a)
    assert weakly_congruent(1, a)
    if weakly_congruent(a, b) and weakly_congruent(b, c):
        assert weakly_congruent(a, c)
    assert (weakly_congruent(a, b) and weakly_congruent(b, a)) == congruent(a, b)


@given(shapes(), st.data())
def test_evenly_divides_means_logical_divide_keeps_the_size(a, data):
    """C++'s post-condition: ``evenly_divides(a, b)`` true -> ``size(logical_divide(make_layout(a),
    b)) == size(a)``."""
    if isinstance(a, tuple):
        b = tuple(data.draw(st.sampled_from([1, 2, 3, 4, 8])) for _m in a[: data.draw(st.integers(1, len(a)))])
    else:
        b = data.draw(st.sampled_from([1, 2, 3, 4, 8]))
    if evenly_divides(a, b):
        assert logical_divide(Layout(a), b if isinstance(b, tuple) else Layout(b)).size() == product(a)


@given(shapes(extents=st.sampled_from([1, 2, 3, 5])), st.randoms(use_true_random=False))
def test_idx2crd_through_strides_inverts_compact_layouts(shape, rnd):
    """For a compact layout in any mode order, ``idx2crd(i, shape, stride)`` is the coordinate of
    offset ``i``: inside the shape, and the layout sends it back to ``i``."""
    order = list(range(len(flatten(shape))))
    rnd.shuffle(order)
    L = _compact(shape, order)
    for i in range(L.size()):
        c = idx2crd(i, L.shape, L.stride)
        assert elem_less(c, L.shape) and L(c) == i


@given(shapes(extents=st.sampled_from([2, 3])), st.data())
def test_lex_and_colex_are_the_row_and_column_major_orders(shape, data):
    """On the coordinates of one shape, ``colex_less`` is the order of the column-major offsets and
    ``lex_less`` that of the row-major ones (a strict total order each)."""
    n = len(flatten(shape))
    col = _compact(shape, list(range(n)))
    row = _compact(shape, list(range(n - 1, -1, -1)))
    a = col.idx2crd(data.draw(st.integers(0, col.size() - 1)))
    b = col.idx2crd(data.draw(st.integers(0, col.size() - 1)))
    assert colex_less(a, b) == (col(a) < col(b))
    assert lex_less(a, b) == (row(a) < row(b))
    assert not lex_less(a, a) and not colex_less(a, a)


def test_int_tuple_refusals():
    with pytest.raises(DivisibilityError):
        shape_div(6, 4)
    with pytest.raises(RankError):
        shape_div((2, 3), (2, 3, 1))
    with pytest.raises(SizeError):
        shape_div(-2, 1)
    with pytest.raises(IntTupleError):
        weakly_congruent("4", 4)
    with pytest.raises(IntTupleError):
        evenly_divides((4, 4), "2")
    with pytest.raises(RankError):
        lex_less((1, 2), 3)
    with pytest.raises(RankError):
        colex_less((1, (2, 3)), (1, 2))
    with pytest.raises(RankError):
        idx2crd((1, 2), 6, 1)
    with pytest.raises(RankError):
        idx2crd(3, (2, 3), (1, 2, 6))
    with pytest.raises(SizeError):
        idx2crd(3, (2, 3), (0, 2))  # a stride-0 mode: the offset does not give its coordinate
    with pytest.raises(IntTupleError):
        idx2crd(None, 4)
    deep: object = 1
    for _k in range(200):
        deep = (deep,)
    with pytest.raises(LayoutError):
        weakly_congruent(deep, deep)


# ------------------------------------------------------------------ nullspace, domain_distribute, max_alignment
@given(layouts(strides=st.sampled_from([0, 0, 1, 2, 3, 8])))
def test_nullspace_is_the_kernel(layout):
    """``layout(nullspace(layout)(i)) == 0`` for every ``i``, the kernel's size is
    ``size(layout) / size(filter(layout))`` and it is injective (C++'s post-conditions)."""
    ker = nullspace(layout)
    idx = [ker(i) for i in range(ker.size())]
    assert all(layout(i) == 0 for i in idx)
    assert len(set(idx)) == len(idx)
    assert ker.size() == layout.size() // cute_filter(layout).size()
    assert composition(layout, ker).table().tolist() == [0] * ker.size()


@given(shapes(extents=st.sampled_from([1, 2, 3, 4, 8, 16, 64])), st.sampled_from([1, 2, 4, 8, 16, 32, 128, 1024, 6, 12]))
def test_domain_distribute_is_ordered_and_divides(a, b):
    """C++'s post-conditions: ``evenly_divides(b, size(R))``, ``evenly_divides(a, R)``, and
    ``R``'s values strictly increase."""
    R = domain_distribute(a, b)
    assert evenly_divides(b, R.size())
    assert evenly_divides(a, R)
    values = R.table().tolist()
    assert values == sorted(set(values))


@given(layouts(strides=st.sampled_from([0, 1, 2, 3, 4, 8, 16])))
def test_max_alignment_offsets_are_all_reached(layout):
    """``max_alignment(L) = m``: the offsets ``0 .. m-1`` are all values of ``L`` (its first
    ``size(right_inverse(L))`` offsets are, and ``m`` divides that count)."""
    try:
        m = max_alignment(layout)
    except UnsupportedError:
        return
    image = set(layout.table().tolist())
    assert m >= 1 and set(range(m)) <= image


def test_query_refusals():
    with pytest.raises(IntTupleError):
        nullspace("4:0")
    with pytest.raises(IntTupleError):
        domain_distribute((4, 4), (2, 2))
    with pytest.raises(IntTupleError):
        max_alignment("S<3,4,3>")
    with pytest.raises(LayoutError):
        max_alignment(Layout((4, 8), (E(1, 0), E(1, 1))))
    assert nullspace(SWIZZLED[0]) == Layout(1, 0) and max_alignment(ComposedLayout(Layout(4, 2), 0, Layout(4))) == 1


# ------------------------------------------------------------------ MixedBits
u32 = st.integers(0, 0xFFFFFFFF)


@given(u32, u32, u32, u32, u32, u32, st.integers(0, 31))
def test_mixed_bits_operations_are_the_bitwise_ones(s0, d0, f0, s1, d1, f1, k):
    m0, m1 = make_mixed_bits(s0, d0, f0), make_mixed_bits(s1, d1, f1)
    v0, v1 = int(m0), int(m1)
    assert v0 == s0 | (d0 & f0)
    cases = [(m0 & m1, v0 & v1), (m0 | m1, v0 | v1), (m0 ^ m1, v0 ^ v1), (m0 & s1, v0 & s1), (s1 ^ m0, v0 ^ s1)]
    if isinstance(m0, MixedBits):  # (a MixedBits with no dynamic bit is a plain int, shifted as one)
        cases += [(m0 << k, (v0 << k) & 0xFFFFFFFF), (m0 >> k, v0 >> k)]
    for r, v in cases:
        assert int(r) == v
        if isinstance(r, MixedBits):
            assert r.static_int & r.flags == 0 and r.flags and r == v
            assert MixedBits.parse(str(r)) == r


def test_mixed_bits_refusals():
    with pytest.raises(MixedBitsError):
        MixedBits(1, 0, 0)
    with pytest.raises(MixedBitsError):
        MixedBits(1, 1, 0)
    with pytest.raises(SizeError):
        make_mixed_bits(1 << 32, 0, 1)
    with pytest.raises(MixedBitsError):
        make_mixed_bits(0, 1, 1) & 1.5
    with pytest.raises(ParseError):
        MixedBits.parse("M_4|(3&3)=6")  # the value disagrees
    with pytest.raises(ParseError):
        MixedBits.parse("M_4|(3&3)")
    with pytest.raises(MixedBitsError):
        MixedBits.parse("M_4|(4&4)=4")  # static and dynamic bits overlap


# ------------------------------------------------------------------ nested basis strides
def _leaf_paths(shape, prefix=()):
    if isinstance(shape, tuple):
        return [p for i, s in enumerate(shape) for p in _leaf_paths(s, prefix + (i,))]
    return [(prefix, shape)]


@given(layouts(strides=st.integers(1, 16)).filter(lambda L: isinstance(L.shape, tuple)), st.randoms(use_true_random=False))
def test_nested_basis_composition_is_function_composition(A, rnd):
    """``B`` with one mode per leaf of ``A``, each stepping that leaf through its nested basis
    ``E(1, path)`` (C++ ``E<i, j, ...>``), in a shuffled order: ``B(c)`` is a coordinate of ``A``
    and ``composition(A, B)(c) == A(B(c))`` for every ``c``; the text round-trips."""
    leaves = _leaf_paths(A.shape)
    rnd.shuffle(leaves)
    B = Layout(tuple(s for _p, s in leaves), tuple(E(1, p) for p, _s in leaves))
    R = composition(A, B)
    for c in range(B.size()):
        assert R(c) == A(B(c))
    from converters.cute import parse

    assert parse(str(B)) == B and parse(B.to_cpp()) == B
