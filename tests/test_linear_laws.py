"""Algebraic laws of LinearLayout, as hypothesis properties."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from strategies import invertible_layouts, linear_layouts, out_dims
from linlayout import LayoutError, LinearLayout
from linlayout import LinearLayout as _LL
parse_linear = _LL.from_text


def identity_on(dims):
    out = LinearLayout.empty()
    for name, size in dims.items():
        out = out * LinearLayout.identity_1d(size, name, name)
    return out


def as_outs(layout, names):
    """``layout`` with its out-dims renamed to ``names`` (positionally): to chain layouts."""
    out = layout
    for old, new in zip(layout.out_dim_names, names):
        out = out.rename_out_dim(old, new)
    return out


@st.composite
def chains(draw):
    """Three layouts a, b, c where a.compose(b).compose(c) is defined."""
    a = draw(linear_layouts())
    mid = {f"m{i}": s for i, s in enumerate(a.out_dims.values())}
    a = as_outs(a, list(mid))
    b = draw(linear_layouts(in_names=tuple(mid), outs=draw(out_dims())))
    b = LinearLayout(b.bases, b.out_dims, require_surjective=False)
    # b's in-dims must be at least as large as a's out-dims
    b = LinearLayout({n: list(b.bases[n]) + [[0] * b.num_out_dims] * max(0, mid[n].bit_length() - 1 - b.in_dim_size_log2(n)) for n in mid}, b.out_dims, require_surjective=False)
    mid2 = {f"n{i}": s for i, s in enumerate(b.out_dims.values())}
    b = as_outs(b, list(mid2))
    c = draw(linear_layouts(in_names=tuple(mid2), outs=draw(out_dims())))
    c = LinearLayout({n: list(c.bases[n]) + [[0] * c.num_out_dims] * max(0, mid2[n].bit_length() - 1 - c.in_dim_size_log2(n)) for n in mid2}, c.out_dims, require_surjective=False)
    return a, b, c


@given(chains())
def test_compose_is_associative(abc):
    a, b, c = abc
    assert a.compose(b).compose(c) == a.compose(b.compose(c))


@given(linear_layouts())
def test_compose_with_identity_is_neutral(layout):
    mid = {f"m{i}": s for i, s in enumerate(layout.out_dims.values())}
    a = as_outs(layout, list(mid))
    b = identity_on(mid)
    assert a.compose(b) == a


@given(invertible_layouts())
def test_invert_is_a_two_sided_inverse(layout):
    inv = layout.invert()
    assert inv.compose(layout) == identity_on(layout.out_dims)
    assert layout.compose(inv) == identity_on(layout.in_dims).transpose_outs(inv.out_dim_names)


@given(linear_layouts(surjective=True))
def test_pseudo_invert_is_a_right_inverse(layout):
    assert layout.pseudo_invert().compose(layout) == identity_on(layout.out_dims)


@given(linear_layouts(), st.data())
def test_invert_and_compose_satisfies_its_equation(src, data):
    dst = data.draw(linear_layouts(outs=src.out_dims, surjective=True))
    c = src.invert_and_compose(dst)
    assert c.compose(dst).transpose_outs(src.out_dim_names) == src
    # and on every input, through the vectorized table
    assert np.array_equal(c.compose(dst).table(), src.table())


@given(linear_layouts(), linear_layouts(in_names=("register", "lane", "warp")))
def test_direct_product_divides_back(a, b):
    b = as_outs(b, list(a.out_dim_names)[: b.num_out_dims])
    try:
        p = a * b
    except LayoutError:
        assume(False)
    assert p.divide_left(a) is not None
    assert (a * p.divide_left(a)).transpose_ins(p.in_dim_names).transpose_outs(p.out_dim_names) == p
    right = p.divide_right(b)
    assert right is not None
    assert (right * b).transpose_ins(p.in_dim_names).transpose_outs(p.out_dim_names) == p


@given(linear_layouts())
def test_table_matches_apply_on_every_input(layout):
    table = layout.table()
    names = layout.in_dim_names
    sizes = [layout.in_dim_size_log2(n) for n in names]
    for flat in range(layout.total_in_size):
        inputs = {}
        shift = 0
        for n, k in zip(names, sizes):
            inputs[n] = (flat >> shift) & ((1 << k) - 1)
            shift += k
        assert list(layout.apply(inputs).values()) == table[flat].tolist()


@given(linear_layouts())
def test_round_trips_through_text_and_json(layout):
    assert parse_linear(str(layout)) == layout
    assert parse_linear(repr(layout)) == layout
    assert LinearLayout.from_dict(layout.to_dict()) == layout


@given(linear_layouts())
def test_matrix_round_trip(layout):
    m = layout.matrix()
    assert LinearLayout.from_matrix(np.asarray(m), layout.in_dims, layout.out_dims) == layout


@given(linear_layouts())
def test_matrix_rows_are_the_matrix(layout):
    """Row r of matrix_rows() has bit c exactly where matrix() has a 1 at (r, c), and XORing the
    rows' parities over an input's bits gives its flat output (row r = output bit r)."""
    m = np.asarray(layout.matrix())
    rows = layout.matrix_rows()
    assert len(rows) == m.shape[0] == layout.total_out_size_log2
    for r, row in enumerate(rows):
        assert [(row >> c) & 1 for c in range(m.shape[1])] == m[r].tolist() and row >> m.shape[1] == 0
    flat_out = layout.flat_table().reshape(-1).tolist()
    for x in range(min(1 << layout.total_in_size_log2, 64)):
        assert sum((bin(row & x).count("1") & 1) << r for r, row in enumerate(rows)) == flat_out[x]


@given(linear_layouts())
def test_reshape_and_flatten_round_trip(layout):
    flat = layout.flatten_ins().flatten_outs()
    assert flat.reshape_ins(list(layout.in_dims.items())).reshape_outs(list(layout.out_dims.items())) == layout
    assert np.array_equal(flat.flat_table(), layout.flat_table())


@given(linear_layouts())
def test_transpose_outs_round_trip(layout):
    names = list(reversed(layout.out_dim_names))
    assert layout.transpose_outs(names).transpose_outs(layout.out_dim_names) == layout


@given(linear_layouts())
def test_free_variables_are_the_dependent_columns(layout):
    from linlayout import gf2

    masks = layout.free_variable_masks()
    cols = [b for f in layout.flatten_outs().bases.values() for (b,) in f]
    c = 0
    for name in layout.in_dim_names:
        for i in range(layout.in_dim_size_log2(name)):
            dependent = gf2.rank(cols[: c + 1]) == gf2.rank(cols[:c])
            assert bool(masks[name] >> i & 1) == dependent
            c += 1
    free = sum(bin(m).count("1") for m in masks.values())
    assert layout.rank() == layout.total_in_size_log2 - free


@given(linear_layouts())
def test_injective_surjective_invertible_are_consistent(layout):
    distinct = len(set(map(int, layout.flat_table())))
    assert layout.is_injective() == (distinct == layout.total_in_size)
    assert layout.is_surjective() == (distinct == layout.total_out_size)
    assert layout.is_invertible() == (layout.is_injective() and layout.is_surjective())


@given(linear_layouts())
def test_quotient_of_an_appended_identity_gives_back_the_layout(layout):
    ident = LinearLayout.identity_1d(4, "q", "q")
    assert (layout * ident).is_trivial_over(["q"])
    assert (layout * ident).quotient(["q"]) == layout
