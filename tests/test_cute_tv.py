"""converters.cute.tv: CuTe thread-value layouts, their text, and the bridge to distributed layouts."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from converters import gluon
from converters.cute import Layout
from converters.cute.tv import TVLayout, make_layout_tv, parse_tv, to_tv
from linlayout import LinearLayout
from linlayout.contract import Kind, as_linear
from linlayout.equiv import equivalent
from linlayout.errors import DimensionError, LayoutError, NotLinearError, ParseError, SizeError, UnsupportedError
from linlayout.mixed_radix import MixedRadixLayout
from strategies import blocked_on_shape, linear_layouts

SM80_C = "((4,8),(2,2)):((32,1),(16,8)) -> (16,8)"


def _disjoint(L: LinearLayout) -> bool:
    seen = 0
    for n in L.in_dim_names:
        for b in L.flat_bases(n):
            if b & seen:
                return False
            seen |= b
    return True


def _by_points(tv: TVLayout, L: LinearLayout) -> None:
    """Evaluate tv(t, v) and L(register=v, lane, warp) at every point and compare."""
    lanes = L.in_dim_size("lane")
    for t in range(tv.num_threads):
        for v in range(tv.num_values):
            got = L.apply({"register": v, "lane": t % lanes, "warp": t // lanes})
            assert tuple(got[f"dim{i}"] for i in range(len(tv.tile))) == tv(t, v)


# ---------------------------------------------------------------------------------------- basics
def test_sm80_accumulator_points_and_linear_form():
    tv = parse_tv(SM80_C)
    assert tv.kind is Kind.DISTRIBUTED and (tv.num_threads, tv.num_values) == (32, 4)
    # PTX mma.m16n8 C fragment: row = lane/4 (+8 for c2,c3), col = 2*(lane%4) (+1 for c1,c3)
    for lane in range(32):
        for v in range(4):
            assert tv(lane, v) == (lane // 4 + 8 * (v // 2), 2 * (lane % 4) + v % 2)
    L = tv.to_linear()
    assert L.in_dim_names == ("register", "lane", "warp") and L.out_dims == {"dim0": 16, "dim1": 8}
    _by_points(tv, L)
    assert tv.to_linear([16, 8]) == L
    with pytest.raises(SizeError, match=r"tile of shape \[16, 8\], not the requested shape \[8, 16\]"):
        tv.to_linear([8, 16])


def test_equivalent_to_gluon_nvmma_v2():
    tv = parse_tv(SM80_C)
    g = gluon.NVMMADistributedLayout([2, 0], [1, 1], [16, 8])
    assert equivalent(tv, g, shape=[16, 8]).relation == "identical"
    assert as_linear(tv, [16, 8]) == tv.to_linear()
    # a different spelling (values swapped) is the same up to register order only
    swapped = parse_tv("((4,8),(2,2)):((32,1),(8,16)) -> (16,8)")
    assert equivalent(swapped, g, shape=[16, 8]).relation == "same up to register order"


def test_text_round_trip_and_warp_size():
    tv = parse_tv(SM80_C)
    assert str(tv) == SM80_C and parse_tv(str(tv)) == tv and hash(parse_tv(SM80_C)) == hash(tv)
    assert parse_tv("((_4,_8),(_2,_2)):((_32,_1),(_16,_8)) -> (_16,_8)") == tv
    w = TVLayout(Layout((64, 2), (2, 1)), (128,), warp_size=64)
    assert str(w) == "(64,2):(2,1) -> (128) ; warp_size=64" and parse_tv(str(w)) == w
    assert w.to_linear().in_dims == {"register": 2, "lane": 64, "warp": 1}


@pytest.mark.parametrize(
    "text, pos, what",
    [
        ("((4,8),(2,2)):((32,1),(16,8)) (16,8)", 36, "'->'"),
        ("((4,8),(2,2)):((32,1),(16,8) -> (16,8)", 29, "expected"),
        ("(32,4):(4,1) -> (16,x)", 20, "tile"),
        ("(32,4):(4,1) -> ((4,4),8)", 16, "flat"),
        ("(32,4):(4,1) -> (16,8) ; warps=4", 25, "warp_size"),
        ("(32,4):(4,1) -> (16,8) ; warp_size=x", 35, "integer"),
    ],
)
def test_parse_errors_have_positions(text, pos, what):
    with pytest.raises(ParseError, match=what) as e:
        parse_tv(text)
    assert e.value.position == pos


def test_construction_errors():
    with pytest.raises(LayoutError, match="exactly two top-level modes"):
        TVLayout(Layout((4, 8, 2)), (64,))
    with pytest.raises(LayoutError, match="exactly two top-level modes"):
        parse_tv("8:1 -> 8")
    with pytest.raises(SizeError, match="reaches index 63 but the tile"):
        TVLayout(Layout((32, 2)), (16, 2))
    with pytest.raises(SizeError, match="negative index"):
        TVLayout(Layout((4, 2), (-1, 4)), (8,))
    with pytest.raises(SizeError, match="warp_size"):
        TVLayout(Layout((4, 2)), (8,), warp_size=48)
    with pytest.raises(LayoutError, match=r"thread must be an int in \[0, 32\)"):
        parse_tv(SM80_C)(32, 0)
    with pytest.raises(AttributeError):
        parse_tv(SM80_C).tile = (8, 16)


def test_not_linear_names_the_mode():
    with pytest.raises(NotLinearError, match=r"thread mode: mode \[0\]\[1\] = 8:3"):
        parse_tv("((4,8),2):((1,3),64) -> (128)").to_linear()
    with pytest.raises(NotLinearError, match=r"value mode: mode \[1\] = 2:6 .* overlaps .* mode \[0\]"):
        parse_tv("(32,2):(4,6) -> (256)").to_linear()
    with pytest.raises(SizeError, match="not a power of two; its general form is to_general"):
        parse_tv("(32,3):(1,32) -> (32,3)").to_linear()
    with pytest.raises(UnsupportedError, match="48 threads"):
        parse_tv("(48,1):(1,0) -> (48)").to_general()


# ------------------------------------------------------------------------------ make_layout_tv
def test_make_layout_tv_matches_the_cute_dsl_example():
    # CUTLASS python/CuTeDSL/cutlass/cute/core.py, make_layout_tv's docstring: thr (2,3):(3,1),
    # val (2,2):(2,1) -> tiler (4,6), TV ((3,2),(2,2)):((8,2),(4,1))
    tv = make_layout_tv(Layout((2, 3), (3, 1)), Layout((2, 2), (2, 1)))
    assert str(tv) == "((3,2),(2,2)):((8,2),(4,1)) -> (4,6)"
    # the docstring's table: row 0 is T0V0 T0V1 T1V0 T1V1 T2V0 T2V1, row 1 the V2/V3 of the same
    assert [tv(t, v) for t, v in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]] == [(0, j) for j in range(6)]
    assert [tv(t, v) for t, v in [(0, 2), (0, 3), (1, 2), (1, 3), (2, 2), (2, 3)]] == [(1, j) for j in range(6)]
    assert tv(3, 0) == (2, 0)
    g = tv.to_general()
    assert isinstance(g, MixedRadixLayout) and g.out_dims == {"dim0": 4, "dim1": 6}
    for t in range(6):
        for v in range(4):
            assert tuple(g.apply(register=v, lane=t, warp=0).values()) == tv(t, v)


# make_tiled_copy's layout_tv and tiler as CuTe C++ prints them (CUTLASS 7107b05, host build of
# include/cute/atom/copy_atom.hpp:501-506 with g++, print(layout_tv), print(tiler)): the answers
# are C++'s output, copied here as data
CPP_TV = [
    ("(2,3):(3,1)", "(2,2):(2,1)", "((3,2),(2,2)):((8,2),(4,1))", (4, 6)),
    ("(4,8):(1,4)", "(1,4):(0,1)", "((4,8),4):((1,16),4)", (4, 32)),
    ("(8,4):(4,1)", "(2,2):(1,2)", "((4,8),(2,2)):((32,2),(1,16))", (16, 8)),
    ("(32,4):(4,1)", "(4,1):(1,0)", "((4,32),4):((128,4),1)", (128, 4)),
    ("(16,8):(8,1)", "(1,8):(0,1)", "((8,16),8):((128,1),16)", (16, 64)),
    ("(4,32):(1,4)", "(2,4):(4,1)", "((4,32),(4,2)):((2,32),(8,1))", (8, 128)),
    ("(3,5):(5,1)", "(2,3):(1,2)", "((5,3),(2,3)):((18,2),(1,6))", (6, 15)),
    ("(8,16):(16,1)", "(1,8):(0,1)", "((16,8),8):((64,1),8)", (8, 128)),
    ("(2,4,4):(1,2,8)", "(2,1,2):(1,0,2)", "((8,4),(2,2)):((2,32),(1,16))", (4, 4, 8)),
]


@pytest.mark.parametrize("thr, val, want, tile", CPP_TV)
def test_make_layout_tv_matches_cute_cpp(thr, val, want, tile):
    from converters.cute import parse_layout

    tv = make_layout_tv(parse_layout(thr), parse_layout(val))
    assert tv.layout == parse_layout(want) and tv.tile == tile
    # every element of the tile is held by exactly one (thread, value)
    held = sorted(tv.index(t, v) for t in range(tv.num_threads) for v in range(tv.num_values))
    assert held == list(range(len(held)))


def test_make_layout_tv_of_a_copy_tiling_is_linear():
    # 32 threads 4x8 (m-major), each 1x4 values along n: a 4x32 tile
    tv = make_layout_tv(Layout((4, 8), (1, 4)), Layout((1, 4), (1, 1)))
    assert tv.tile == (4, 32)
    L = tv.to_linear()
    _by_points(tv, L)
    # every element is held exactly once
    assert L.is_invertible()
    with pytest.raises(LayoutError, match="must be a CuTe Layout"):
        make_layout_tv("(4,8)")


# ---------------------------------------------------------------------------- from_linear laws
@st.composite
def permutation_like(draw):
    """A distributed layout whose bases are distinct tile bits or zero (what CuTe can spell)."""
    outs = {f"dim{i}": 1 << draw(st.integers(0, 4)) for i in range(draw(st.integers(1, 3)))}
    nbits = sum(s.bit_length() - 1 for s in outs.values())
    bits = draw(st.permutations(list(range(nbits))))
    bits = bits[: draw(st.integers(0, nbits))]
    pool = [1 << b for b in bits] + [0] * draw(st.integers(0, 3))
    pool = draw(st.permutations(pool))
    cuts = sorted(draw(st.lists(st.integers(0, len(pool)), min_size=2, max_size=2)))
    flat = {"register": pool[: cuts[0]], "lane": pool[cuts[0]: cuts[1]], "warp": pool[cuts[1]:]}
    return LinearLayout.from_flat(flat, list(outs.items()))


@given(permutation_like())
def test_from_linear_round_trips(L):
    tv = TVLayout.from_linear(L)
    assert tv.to_linear() == L
    assert parse_tv(str(tv)) == tv
    assert TVLayout.from_linear(tv.to_linear()) == tv
    _by_points(tv, L)


@given(linear_layouts(max_bits=3))
def test_from_linear_spells_exactly_the_additive_layouts(L):
    if _disjoint(L):
        tv = TVLayout.from_linear(L)
        assert tv.to_linear() == L
        assert parse_tv(str(tv)) == tv
    else:
        with pytest.raises(UnsupportedError, match="share bits"):
            TVLayout.from_linear(L)


@given(permutation_like())
def test_general_form_agrees_with_linear_form(L):
    tv = TVLayout.from_linear(L)
    assume(tv.num_threads <= 32 or tv.num_threads % tv.warp_size == 0)
    g = tv.to_general()
    assert equivalent(g, tv.to_linear()).relation == "identical"


def test_from_general_inverts_to_general():
    tv = make_layout_tv(Layout((3, 5), (5, 1)), Layout((2, 3), (1, 2)))
    assert TVLayout.from_general(tv.to_general()) == tv
    g = MixedRadixLayout({"register": [(3, 1, "dim1")], "lane": [(32, 1, "dim0")]}, offset={"dim0": 1})
    with pytest.raises(UnsupportedError, match="no replicas and no offset"):
        TVLayout.from_general(g)
    with pytest.raises(DimensionError, match="'row'"):
        TVLayout.from_general(MixedRadixLayout({"row": [(3, 1, "dim0")]}))


def test_from_linear_refusals():
    with pytest.raises(UnsupportedError, match="one CTA"):
        TVLayout.from_linear(LinearLayout({"register": [[1]], "block": [[2]]}, {"dim0": 4}))
    with pytest.raises(DimensionError, match="offset"):
        TVLayout.from_linear(LinearLayout({"offset": [[1]]}, {"dim0": 2}))
    with pytest.raises(LayoutError, match="expected a LinearLayout"):
        TVLayout.from_linear("(4,8):(8,1)")
    # a block in-dim of size 1 is dropped
    L = LinearLayout({"register": [[1]], "lane": [[2]], "warp": [], "block": []}, {"dim0": 4})
    assert str(TVLayout.from_linear(L)) == "(2,2):(2,1) -> (4)"


# ---------------------------------------------------------------------------- Gluon layouts
@st.composite
def gluon_on_shape(draw):
    """A Gluon distributed layout (Blocked, Slice of Blocked, or an MMA layout) and a shape."""
    kind = draw(st.sampled_from(["blocked", "slice", "fixed"]))
    if kind == "fixed":
        return draw(st.sampled_from([
            (gluon.NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), [64, 32]),
            (gluon.NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16]), [64, 64]),
            (gluon.NVMMADistributedLayout([3, 0], [4, 2], [16, 128, 16]), [128, 256]),
            (gluon.DotOperandLayout(0, gluon.NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), 2), [64, 32]),
            (gluon.AMDMFMALayout(3, [32, 32, 8], False, [2, 1]), [64, 64]),
            (gluon.AMDMFMALayout(4, [16, 16, 32], True, [2, 2]), [64, 64]),
        ]))
    rank = draw(st.integers(1, 3)) if kind == "blocked" else draw(st.integers(2, 3))
    b, shape = draw(blocked_on_shape(rank, sizes=(1, 2, 4, 8, 16, 64)))
    if kind == "blocked":
        return b, shape
    dim = draw(st.integers(0, rank - 1))
    return gluon.SliceLayout(dim, b), shape[:dim] + shape[dim + 1:]


@given(gluon_on_shape())
def test_gluon_layouts_have_a_tv_spelling(case):
    g, shape = case
    tv = to_tv(g, shape)
    assert tv.tile == tuple(shape)
    assert equivalent(tv, g, shape=shape).relation == "identical"
    back = parse_tv(str(tv))
    assert back == tv and TVLayout.from_linear(back.to_linear()) == tv
    assert equivalent(back.to_linear(), g.to_linear(shape)).relation == "identical"


def test_amd_wave64_keeps_its_lanes():
    g = gluon.AMDMFMALayout(3, [32, 32, 8], False, [2, 1])
    tv = to_tv(g, [64, 64])
    assert tv.warp_size == 64 and tv.num_threads == 128
    assert tv.to_linear().in_dims["lane"] == 64
    assert equivalent(tv, g, shape=[64, 64])


@given(permutation_like(), st.data())
def test_with_tile_keeps_the_index(L, data):
    tv = TVLayout.from_linear(L)
    n = 1
    for t in tv.tile:
        n *= t
    k = n.bit_length() - 1
    cut = data.draw(st.integers(0, k))
    other = tv.with_tile((1 << cut, 1 << (k - cut)))
    for t in range(tv.num_threads):
        for v in range(tv.num_values):
            assert other.index(t, v) == tv.index(t, v)
            m, q = other(t, v)
            assert m + (1 << cut) * q == tv.index(t, v)


@st.composite
def compact_2d(draw, max_extent=8):
    shape = (draw(st.integers(1, max_extent)), draw(st.integers(1, max_extent)))
    row_major = draw(st.booleans())
    stride = (shape[1], 1) if row_major else (1, shape[0])
    return Layout(shape, stride)


@given(compact_2d(), compact_2d(4))
def test_make_layout_tv_inverts_the_raked_product(thr, val):
    from converters.cute import raked_product

    tv = make_layout_tv(thr, val)
    T, V = thr.size(), val.size()
    assert tv.tile == (thr.shape[0] * val.shape[0], thr.shape[1] * val.shape[1])
    assert (tv.num_threads, tv.num_values) == (T, V)
    mn = raked_product(thr, val)  # tile coordinate -> (thread, value) flat index t + T * v
    held = set()
    for t in range(T):
        for v in range(V):
            idx = tv.index(t, v)
            assert mn(idx) == t + T * v
            held.add(idx)
    assert held == set(range(T * V))
