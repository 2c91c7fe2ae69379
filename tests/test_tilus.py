"""Tilus register layouts: the documentation's tables, operations, bridges, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from converters.tile import TileLayout
from converters.tilus import (
    RegisterLayout,
    column_local,
    column_spatial,
    compose,
    concat,
    divide,
    flatten,
    local,
    permute,
    reduce,
    register_layout,
    replicated,
    reshape,
    spatial,
    squeeze,
    unsqueeze,
    visualize_layout,
)
from linlayout.errors import LayoutError, NotLinearError, UnsupportedError


def cells(layout):
    """The grid's cell texts, row by row (for 2-D layouts)."""
    return [[c.strip() for c in line.strip("│").split("│")] for line in visualize_layout(layout).splitlines() if line.startswith("│")]


def test_doc_local_3_4_exact_text():
    assert visualize_layout(local(3, 4)) == "\n".join(
        [
            "RegisterLayout(shape=[3, 4], mode_shape=[3, 4], spatial_modes=[], local_modes=[0, 1])",
            "┌──────┬──────┬───────┬───────┐",
            "│ 0: 0 │ 0: 1 │ 0: 2  │ 0: 3  │",
            "├──────┼──────┼───────┼───────┤",
            "│ 0: 4 │ 0: 5 │ 0: 6  │ 0: 7  │",
            "├──────┼──────┼───────┼───────┤",
            "│ 0: 8 │ 0: 9 │ 0: 10 │ 0: 11 │",
            "└──────┴──────┴───────┴───────┘",
        ]
    )


def test_doc_spatial_3_2():
    assert str(spatial(3, 2)) == "RegisterLayout(shape=[3, 2], mode_shape=[3, 2], spatial_modes=[0, 1], local_modes=[])"
    assert cells(spatial(3, 2)) == [["0: 0", "1: 0"], ["2: 0", "3: 0"], ["4: 0", "5: 0"]]


@pytest.mark.parametrize(
    "build, text, doc",
    [
        (
            lambda: local(3, 4).spatial(2, 3),
            "RegisterLayout(shape=[6, 12], mode_shape=[3, 2, 4, 3], spatial_modes=[1, 3], local_modes=[0, 2])",
            [
                "0: 0 1: 0 2: 0 0: 1 1: 1 2: 1 0: 2 1: 2 2: 2 0: 3 1: 3 2: 3",
                "3: 0 4: 0 5: 0 3: 1 4: 1 5: 1 3: 2 4: 2 5: 2 3: 3 4: 3 5: 3",
                "0: 4 1: 4 2: 4 0: 5 1: 5 2: 5 0: 6 1: 6 2: 6 0: 7 1: 7 2: 7",
                "3: 4 4: 4 5: 4 3: 5 4: 5 5: 5 3: 6 4: 6 5: 6 3: 7 4: 7 5: 7",
                "0: 8 1: 8 2: 8 0: 9 1: 9 2: 9 0: 10 1: 10 2: 10 0: 11 1: 11 2: 11",
                "3: 8 4: 8 5: 8 3: 9 4: 9 5: 9 3: 10 4: 10 5: 10 3: 11 4: 11 5: 11",
            ],
        ),
        (
            lambda: spatial(2, 3).local(3, 4),
            "RegisterLayout(shape=[6, 12], mode_shape=[2, 3, 3, 4], spatial_modes=[0, 2], local_modes=[1, 3])",
            [
                "0: 0 0: 1 0: 2 0: 3 1: 0 1: 1 1: 2 1: 3 2: 0 2: 1 2: 2 2: 3",
                "0: 4 0: 5 0: 6 0: 7 1: 4 1: 5 1: 6 1: 7 2: 4 2: 5 2: 6 2: 7",
                "0: 8 0: 9 0: 10 0: 11 1: 8 1: 9 1: 10 1: 11 2: 8 2: 9 2: 10 2: 11",
                "3: 0 3: 1 3: 2 3: 3 4: 0 4: 1 4: 2 4: 3 5: 0 5: 1 5: 2 5: 3",
                "3: 4 3: 5 3: 6 3: 7 4: 4 4: 5 4: 6 4: 7 5: 4 5: 5 5: 6 5: 7",
                "3: 8 3: 9 3: 10 3: 11 4: 8 4: 9 4: 10 4: 11 5: 8 5: 9 5: 10 5: 11",
            ],
        ),
    ],
    ids=["local_spatial", "spatial_local"],
)
def test_doc_composed(build, text, doc):
    L = build()
    assert str(L) == text
    assert [" ".join(r) for r in cells(L)] == doc


def test_doc_mma_m16n8_c_operand():
    L = local(2, 1).spatial(8, 4).local(1, 2)
    assert str(L) == "RegisterLayout(shape=[16, 8], mode_shape=[2, 8, 4, 2], spatial_modes=[1, 2], local_modes=[0, 3])"
    grid = cells(L)
    for r in range(16):
        for c in range(8):
            assert grid[r][c] == f"{4 * (r % 8) + c // 2}: {2 * (r // 8) + c % 2}"
    assert visualize_layout(L).splitlines()[1] == "┌" + "┬".join(["───────"] * 8) + "┐"


def test_doc_reduce():
    assert str(spatial(3, 4)) == "RegisterLayout(shape=[3, 4], mode_shape=[3, 4], spatial_modes=[0, 1], local_modes=[])"
    R = reduce(spatial(3, 4), dims=[0])
    assert visualize_layout(R) == "\n".join(
        [
            "RegisterLayout(shape=[4], mode_shape=[4], spatial_modes=[-3, 0], local_modes=[])",
            "┌──────────────┬──────────────┬───────────────┬───────────────┐",
            "│ [0, 4, 8]: 0 │ [1, 5, 9]: 0 │ [2, 6, 10]: 0 │ [3, 7, 11]: 0 │",
            "└──────────────┴──────────────┴───────────────┴───────────────┘",
        ]
    )


def test_doc_row_and_column_orders():
    assert cells(local(2, 3)) == [["0: 0", "0: 1", "0: 2"], ["0: 3", "0: 4", "0: 5"]]
    assert str(column_local(2, 3)) == "RegisterLayout(shape=[2, 3], mode_shape=[2, 3], spatial_modes=[], local_modes=[1, 0])"
    assert cells(column_local(2, 3)) == [["0: 0", "0: 2", "0: 4"], ["0: 1", "0: 3", "0: 5"]]
    assert cells(spatial(2, 3)) == [["0: 0", "1: 0", "2: 0"], ["3: 0", "4: 0", "5: 0"]]
    assert str(column_spatial(2, 3)) == "RegisterLayout(shape=[2, 3], mode_shape=[2, 3], spatial_modes=[1, 0], local_modes=[])"
    assert cells(column_spatial(2, 3)) == [["0: 0", "2: 0", "4: 0"], ["1: 0", "3: 0", "5: 0"]]


def test_doc_mapping_process():
    L = register_layout([4, 6], [2, 2, 3, 2], [0, 2], [3, 1])
    for i in range(4):
        for j in range(6):
            assert L.get_spatial([i, j]) == [(i // 2) * 3 + (j // 2)]
            assert L.get_local([i, j]) == (j % 2) * 2 + (i % 2)
            assert L.get_global(spatial_index=(i // 2) * 3 + j // 2, local_index=(j % 2) * 2 + i % 2) == [i, j]


# ------------------------------------------------------------------ operations


def _table(L):
    out = {}
    import itertools

    for idx in itertools.product(*[range(s) for s in L.shape]):
        out[idx] = (tuple(sorted(L.get_spatial(list(idx)))), L.get_local(list(idx)))
    return out


def test_permute_squeeze_unsqueeze_flatten_reshape():
    L = local(2, 3).spatial(4, 2)
    P = permute(L, [1, 0])
    assert all(_table(P)[(j, i)] == v for (i, j), v in _table(L).items())
    U = unsqueeze(L, [0])
    assert U.shape == (1, 8, 6) and squeeze(U, [0]) == L
    F = flatten(L)
    assert F.shape == (48,)
    assert all(_table(F)[(i * 6 + j,)] == v for (i, j), v in _table(L).items())
    R = reshape(F, [8, 6])
    assert _table(R) == _table(L)
    with pytest.raises(LayoutError):
        reshape(spatial(3, 2), [2, 3])  # the mode 3 would straddle the new dims


def test_concat_and_compose_associative():
    a, b, c = local(2, 1), spatial(2, 4), local(1, 3)
    assert compose(compose(a, b), c) == compose(a, compose(b, c))
    C = concat(spatial(2), local(3))
    assert C.get_spatial([1, 2]) == [1] and C.get_local([1, 2]) == 2


def test_divide():
    L = local(3, 4).spatial(2, 3)
    assert divide(L, spatial(2, 3)) == local(3, 4)
    assert L / spatial(2, 3) == local(3, 4)
    assert compose(divide(L, spatial(2, 3)), spatial(2, 3)) == L
    with pytest.raises(UnsupportedError):
        divide(L, local(2, 3))


def test_replicated():
    L = spatial(4).replicated(2)
    assert L.get_spatial([3]) == [6, 7]
    assert replicated(1).spatial_modes == ()


def test_bad_input():
    with pytest.raises(LayoutError):
        RegisterLayout((4, 6), (2, 2, 3, 2), (0, 2), (3,))  # mode 1 unused
    with pytest.raises(LayoutError):
        RegisterLayout((4, 6), (4, 4), (0,), (1,))
    with pytest.raises(LayoutError):
        RegisterLayout((4,), (4,), (0,), (0,))
    with pytest.raises(LayoutError):
        spatial(3, 2).get_spatial([3, 0])
    with pytest.raises(LayoutError):
        squeeze(spatial(3, 2), [0])


# ------------------------------------------------------------------ bridges

EXAMPLES = [
    local(2, 1).spatial(8, 4).local(1, 2),
    local(2, 2).spatial(4, 8),
    spatial(2, 16).local(4, 1),
    reduce(spatial(4, 8), dims=[0]),
    column_spatial(8, 4).local(2, 2),
    spatial(4, 8).local(2, 1).spatial(2, 2),
]


@pytest.mark.parametrize("L", EXAMPLES, ids=str)
def test_tilus_tile_linear_round_trip(L):
    T = L.to_tile()
    ll = T.to_linear(L.shape)
    assert ll == L.to_linear()
    # the same map on every element: every (thread, local) place holds the element
    for idx, (threads, li) in _table(L).items():
        for p in T.places(*idx, shape=L.shape):
            assert (p["tx"], p.get("m", 0)) in {(t, li) for t in threads}
        for t in threads:
            hw = {"register": li, "lane": t % 32, "warp": t // 32}
            got = ll.apply({k: v for k, v in hw.items() if k in ll.in_dims})
            assert got == {f"dim{k}": v for k, v in enumerate(idx)}
    back = TileLayout.from_linear(ll)
    shape = back.shape
    assert shape == L.shape
    assert RegisterLayout.from_tile(back, shape) == L
    assert RegisterLayout.from_linear(ll) == L
    assert RegisterLayout.from_tile(T, L.shape) == L


def test_non_pow2_has_no_linear_form():
    # the message names the contract's map (hardware -> coordinates, as to_general) and says that
    # the digit it quotes belongs to the inverse map, whose in-dims are the coordinates
    with pytest.raises(NotLinearError, match=r"hardware -> coordinates \(register, lane -> dim0, dim1\) is not linear, "
                                             r"since the coordinates -> hardware map it inverts is not: there, .*extent 3"):
        local(3, 4).spatial(2, 3).to_linear()
    T = local(3, 4).spatial(2, 3).to_tile()
    assert RegisterLayout.from_tile(T, (6, 12)) == local(3, 4).spatial(2, 3)
    g = local(3, 4).spatial(2, 3).to_general()  # hardware -> coordinates, as to_linear would be
    assert g.in_dims == {"register": 12, "lane": 6} and g.apply(register=11, lane=5) == {"dim0": 5, "dim1": 11}
    assert T.place_general((6, 12)).apply(dim0=5, dim1=11) == {"m": 11, "tx": 5}  # TIRx's direction


@st.composite
def layouts(draw):
    L = None
    for _ in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 4))
        a, b = draw(st.integers(1, n)), draw(st.integers(1, 4))
        part = spatial(a, b) if draw(st.booleans()) else local(a, b)
        L = part if L is None else compose(L, part)
    return L


@settings(max_examples=40, deadline=None)
@given(layouts())
def test_tile_round_trip_property(L):
    assert RegisterLayout.from_tile(L.to_tile(), L.shape) == L
    T = L.to_tile()
    for idx, (threads, li) in list(_table(L).items())[:20]:
        assert T.apply(*idx, shape=L.shape).get("m", 0) == li
        assert sorted(p.get("tx", 0) for p in T.places(*idx, shape=L.shape)) == list(threads)
