"""converters.cute bridges: CuTe's coordinate -> offset map <-> LinearLayout (exactly when
GF(2)-linear) and -> general, and the contract's direction (offset -> coordinates)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converters.cute import ComposedLayout, Layout, Swizzle, from_linear, from_offset_map, is_linear, offset_general, offset_map, parse, to_general, to_linear
import linlayout
from linlayout import LinearLayout
from linlayout.errors import NotLinearError, UnsupportedError

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _ll_values(LL: LinearLayout) -> np.ndarray:
    """Offsets of every flat input (first in-dim lowest), from the LinearLayout."""
    return LL.table()[:, 0]


def _cute_values(x) -> np.ndarray:
    """Offsets in the same order: flat colexicographic order over top modes = CuTe flat index."""
    return x.table()


def test_to_linear_examples():
    LL = offset_map(parse("(4,8):(8,1)"))
    assert LL.in_dim_names == ("dim0", "dim1") and LL.out_dim_names == ("offset",)
    assert LL.bases["dim0"] == ((8,), (16,)) and LL.bases["dim1"] == ((1,), (2,), (4,))
    assert np.array_equal(_ll_values(LL), _cute_values(parse("(4,8):(8,1)")))
    flat = offset_map(parse("((2,2),8):((1,16),2)"), flat=True)
    assert flat.in_dim_names == ("index",)
    assert np.array_equal(_ll_values(flat), parse("((2,2),8):((1,16),2)").table())


def test_to_linear_refusals_name_the_mode():
    with pytest.raises(NotLinearError, match=r"mode \[0\] = 4:3"):
        offset_map(parse("4:3"))
    with pytest.raises(NotLinearError, match=r"mode \[1\] = 3:8 .*not a power of two"):
        offset_map(parse("(4,3):(1,8)"))
    with pytest.raises(NotLinearError, match=r"mode \[1\] = 2:2 .*overlaps.*mode \[0\]"):
        offset_map(parse("(4,2):(1,2)"))
    with pytest.raises(NotLinearError, match="negative"):
        offset_map(parse("4:-1"))
    with pytest.raises(NotLinearError, match="affine"):
        offset_map(parse("S<1,0,1> o 4 o 8:1"))
    assert not is_linear(parse("(3,8):(8,1)"))


def test_swizzled_to_linear():
    c = parse("S<3,4,3> o 0 o (8,64):(64,1)")
    LL = offset_map(c)
    assert np.array_equal(_ll_values(LL), c.table())
    back = from_offset_map(LL)
    # S<3,4,3>'s top bit (9) lies past the 512-element domain: the smallest swizzle that acts the
    # same on it is S<2,4,3>
    assert isinstance(back, ComposedLayout) and back.inner == c.inner
    assert np.array_equal(back.table(), c.table())
    assert from_offset_map(offset_map(parse("S<3,4,3> o 0 o (8,128):(128,1)"))) == parse("S<3,4,3> o 0 o (8,128):(128,1)")


def test_broadcast_zero_strides():
    L = parse("(4,2):(0,1)")
    LL = offset_map(L)
    assert LL.bases["dim0"] == ((0,), (0,))
    assert np.array_equal(_ll_values(LL), L.table())
    assert np.array_equal(from_offset_map(LL).table(), L.table())


def test_from_linear_refuses_non_cute():
    LL = LinearLayout({"x": [[3], [1]]}, {"offset": 4}, require_surjective=False)
    # bases 3 and 1: a swizzle S<1,0,1> maps 3 -> 1 and 1 -> 1: no; but S<1,0,1> on 3 gives 3^1=2
    r = from_offset_map(LL)
    assert np.array_equal(r.table(), _ll_values(LL))
    LL2 = LinearLayout({"x": [[3], [5], [6]]}, {"offset": 8}, require_surjective=False)
    with pytest.raises(UnsupportedError, match="no CuTe layout"):
        from_offset_map(LL2)


def test_from_linear_multi_out_dims():
    LL = LinearLayout({"lane": [[1, 0], [0, 1], [2, 0]]}, {"dim0": 4, "dim1": 2})
    C = from_offset_map(LL)
    assert C.table().tolist() == (LL.table()[:, 0] + 4 * LL.table()[:, 1]).tolist()


@st.composite
def linear_layouts(draw):
    """Random GF(2)-linear CuTe layouts: distinct bits distributed over leaves."""
    nbits = draw(st.integers(1, 8))
    bits = draw(st.permutations(range(nbits)))
    zeros = draw(st.integers(0, 2))
    imgs = [1 << b for b in bits] + [0] * zeros
    imgs = draw(st.permutations(imgs))
    # group into runs of leaves of pow2 extents: a leaf s:d needs imgs d, 2d, ...; use extent 2 leaves
    # and let some consecutive ones merge
    modes = draw(st.integers(1, 3))
    cuts = sorted(draw(st.lists(st.integers(0, len(imgs)), min_size=modes - 1, max_size=modes - 1)))
    parts = [imgs[i:j] for i, j in zip([0] + cuts, cuts + [len(imgs)])]
    shape = tuple(tuple(2 for _ in p) if len(p) != 1 else 2 for p in parts)
    stride = tuple(tuple(p) if len(p) != 1 else p[0] for p in parts)
    shape = tuple(s if s != () else 1 for s in shape)
    stride = tuple(d if d != () else 0 for d in stride)
    return Layout(shape, stride)


@FAST
@given(linear_layouts(), st.booleans())
def test_cute_linear_cute_roundtrip(L, swz):
    x = ComposedLayout(Swizzle(2, 0, 3), 0, L) if swz and L.cosize() >= 32 else L
    LL = offset_map(x)
    assert np.array_equal(_ll_values(LL), x.table())
    back = from_offset_map(LL)
    assert np.array_equal(back.table(), x.table())
    assert back.rank() == L.rank()
    assert np.array_equal(_ll_values(offset_map(back)), _ll_values(LL))


@FAST
@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.data())
def test_linear_exactly_when_additive(shape, data):
    stride = [data.draw(st.integers(0, 20)) for _ in shape]
    L = Layout(tuple(shape), tuple(stride))
    try:
        LL = offset_map(L)
    except NotLinearError:
        # refused: then truly no XOR-linear map agrees (some pair of digit bits carries)
        pow2 = all(s & (s - 1) == 0 for s in shape)
        if pow2:
            imgs = [d << k for s, d in zip(shape, stride) for k in range(s.bit_length() - 1) if d]
            assert any(a & b for i, a in enumerate(imgs) for b in imgs[i + 1 :])
        return
    assert np.array_equal(_ll_values(LL), L.table())


def test_to_general():
    L = parse("(3,(2,7)):(14,(1,2))")
    G = offset_general(L)
    assert G.in_dim_names == ("dim0", "dim1")
    for i in range(L.size()):
        c = L.idx2crd(i)
        c1 = c[1][0] + 2 * c[1][1]
        assert G.apply(dim0=c[0], dim1=c1)["offset"] == L(i)
    Gf = offset_general(L, flat=True)
    assert Gf.apply(index=17)["offset"] == L(17)
    assert offset_general(parse("S<0,0,0> o 5 o 4:1")).apply(dim0=2)["offset"] == 7
    with pytest.raises(UnsupportedError, match="swizzle"):
        offset_general(parse("S<1,0,1> o 0 o 4:1"))


# ------------------------------------------------------------------ the contract's direction


def test_linear_form_is_the_inverse_of_the_offset_map():
    x = parse("S<3,4,3> o 0 o (8,64):(64,1)")
    L = to_linear(x)
    assert L.in_dim_names == ("offset",) and L.out_dims == {"dim0": 8, "dim1": 64}
    assert L == offset_map(x).invert()
    assert x.kind == "memory" and x.to_linear() == L
    for off in (0, 1, 77, 300, 511):
        c = L.apply(offset=off)
        assert x((c["dim0"], c["dim1"])) == off


def test_linear_form_refuses_what_is_not_a_bijection():
    for text in ("(4,8):(0,1)", "(4,8):(16,1)", "(2,4):(1,4)"):
        with pytest.raises(UnsupportedError, match="not a bijection"):
            to_linear(parse(text))
    with pytest.raises(NotLinearError):  # padded rows: not even GF(2)-linear
        to_linear(parse("(4,8):(9,1)"))


def test_linear_form_checks_the_shape():
    from linlayout.errors import SizeError

    assert to_linear(parse("(4,8):(8,1)"), [4, 8]).out_dims == {"dim0": 4, "dim1": 8}
    with pytest.raises(SizeError, match=r"sizes \[4, 8\], not the requested shape \[8, 4\]"):
        to_linear(parse("(4,8):(8,1)"), [8, 4])


def test_general_form_is_the_inverse_of_the_offset_map():
    x = parse("(3,5):(5,1)")
    G = to_general(x)
    for off in range(15):
        c = G.apply(offset=off)
        assert x((c["dim0"], c["dim1"])) == off


@given(st.integers(0, 4), st.integers(0, 4), st.booleans())
@FAST
def test_from_linear_round_trips_memory_layouts(a, b, row_major):
    m, n = 1 << a, 1 << b
    x = Layout((m, n), (n, 1) if row_major else (1, m))
    back = from_linear(to_linear(x))
    assert to_linear(back) == to_linear(x)


def test_from_linear_keeps_the_kind():
    L = LinearLayout({"register": [[1]], "lane": [[2]]}, {"dim0": 4})
    tv = from_linear(L)  # a distributed layout's CuTe spelling is a thread-value layout
    assert tv.kind == "distributed" and linlayout.equivalent(tv, L)
    # a tensor-memory layout's CuTe spelling is its UMMA fragment (TMEM::DP / column addresses)
    tm = LinearLayout({"row": [[1, 0], [2, 0]] + [[0, 0]] * 5, "col": [[0, 1]]}, {"dim0": 4, "dim1": 2})
    frag = from_linear(tm)
    assert frag.kind == "tensor_memory" and frag.to_linear() == tm and str(frag) == "tmem<32> (4,2):(65536,1)"
    with pytest.raises(UnsupportedError, match="tensor-memory layout maps row, col"):
        from_linear(LinearLayout({"row": [[1]], "col": [[2]]}, {"dim0": 4}))
