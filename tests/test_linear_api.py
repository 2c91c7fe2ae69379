"""The LinearLayout API: construction, validation errors, printing, and the dim operations."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import linear_layouts

from linlayout import (
    BasisError,
    DimensionError,
    LayoutError,
    LinearLayout,
    NotInvertibleError,
    NotSurjectiveError,
    ParseError,
    SizeError,
)
from linlayout import LinearLayout as _LL
parse_linear = _LL.from_text


def blocked_128():
    """BlockedLayout([1],[32],[4],[0]) on [128]: lanes then warps."""
    return LinearLayout({"register": [], "lane": [[1], [2], [4], [8], [16]], "warp": [[32], [64]]}, ["dim0"])


def test_out_dim_sizes_are_inferred_from_names():
    L = blocked_128()
    assert L.out_dims == {"dim0": 128}
    assert L.in_dims == {"register": 1, "lane": 32, "warp": 4}
    assert L.total_in_size == 128 and L.total_out_size_log2 == 7
    # Triton's rule: the smallest power of two strictly above every value
    assert LinearLayout({"a": [[3]]}, ["x"], require_surjective=False).out_dims == {"x": 4}
    assert LinearLayout({"a": [[0]]}, ["x"], require_surjective=False).out_dims == {"x": 1}


def test_constructors():
    assert LinearLayout.identity_1d(8, "lane", "dim0").bases == {"lane": ((1,), (2,), (4,))}
    assert LinearLayout.strided_1d(4, 4, "register", "dim0").out_dims == {"dim0": 16}
    assert LinearLayout.zeros_1d(4, "warp", "dim0", out_dim_size=8).bases == {"warp": ((0,), (0,))}
    assert LinearLayout.zeros_1d(4, "warp", "dim0", out_dim_size=8).out_dims == {"dim0": 8}
    assert LinearLayout.empty().in_dims == {} and LinearLayout.empty().out_dims == {}
    assert LinearLayout.identity_1d(1, "lane", "dim0").in_dims == {"lane": 1}


def test_apply_and_call():
    L = LinearLayout({"register": [[0, 1]], "lane": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 2})
    assert L.apply({"register": 1, "lane": 3}) == {"dim0": 3, "dim1": 1}
    assert L(register=1, lane=3) == {"dim0": 3, "dim1": 1}
    assert L(lane=2) == {"dim0": 2, "dim1": 0}
    with pytest.raises(DimensionError, match="out of range"):
        L(lane=4)
    with pytest.raises(DimensionError, match="not an in-dim"):
        L(thread=0)
    with pytest.raises(BasisError, match="integer"):
        L(lane="1")


def test_apply_on_a_wide_in_dim_uses_the_bit_loop():
    L = LinearLayout.identity_1d(1 << 14, "offset", "dim0")
    assert L(offset=12345) == {"dim0": 12345}


@pytest.mark.parametrize(
    "bases, outs, error, text",
    [
        ({"lane": [[1, 0]]}, {"dim0": 2}, BasisError, "has 2 entries, expected one per out-dim"),
        ({"lane": [[-1]]}, {"dim0": 2}, BasisError, "negative"),
        ({"lane": [[4]]}, {"dim0": 4}, BasisError, "must be smaller than its out-dim size"),
        ({"lane": [[1]]}, {"dim0": 3}, SizeError, "powers of two"),
        ({"lane": [[1]]}, {"dim0": 4}, NotSurjectiveError, "dim0 bit 1 is never reached"),
        ({"lane": [[1.5]]}, {"dim0": 4}, BasisError, "must be an integer"),
        ({"lane": [1]}, {"dim0": 4}, BasisError, "must be a vector"),
        ({"": [[1]]}, {"dim0": 2}, DimensionError, "non-empty strings"),
        ([("lane", [[1]]), ("lane", [[1]])], {"dim0": 2}, DimensionError, "appears twice"),
        ({"lane": [[1]]}, [("dim0", 2), ("dim0", 2)], DimensionError, "appears twice"),
        ({"lane": [[1]]}, 5, LayoutError, "out_dims must be"),
    ],
)
def test_bad_construction_is_refused_with_a_specific_error(bases, outs, error, text):
    with pytest.raises(error, match=text):
        LinearLayout(bases, outs)


def test_too_many_bits_is_refused_not_allocated():
    with pytest.raises(SizeError, match="at most"):
        LinearLayout({"a": [[1 << i] for i in range(63)]}, {"x": 1 << 63})
    big = LinearLayout({"a": [[1 << i] for i in range(40)]}, {"x": 1 << 40})
    with pytest.raises(SizeError, match="can be tabulated"):
        big.table()


def test_invert_explains_why_not():
    with pytest.raises(NotInvertibleError, match="not surjective; dim1 bit 3 is never reached"):
        LinearLayout({"lane": [[1, 0], [0, 1], [0, 2], [0, 4]]}, {"dim0": 2, "dim1": 16}, require_surjective=False).invert()
    with pytest.raises(NotInvertibleError, match=r"not injective; the input \(register=3\) maps to zero"):
        LinearLayout({"register": [[1], [1]], "lane": [[2]]}, {"dim0": 4}).invert()
    with pytest.raises(NotSurjectiveError, match="pseudo-invert"):
        LinearLayout({"lane": [[1]]}, {"dim0": 4}, require_surjective=False).pseudo_invert()


def test_invert_and_compose_refuses_unreachable_outputs():
    src = LinearLayout({"lane": [[2]]}, {"dim0": 4}, require_surjective=False)
    dst = LinearLayout({"lane": [[1]]}, {"dim0": 4}, require_surjective=False)
    with pytest.raises(NotSurjectiveError, match="lane=1 of this layout maps to \\(dim0=2\\)"):
        src.invert_and_compose(dst)
    with pytest.raises(DimensionError, match="same out-dims"):
        src.invert_and_compose(LinearLayout.identity_1d(4, "lane", "dim1"))
    # an outer layout with smaller out-dims cannot hold this layout's outputs (Triton asserts)
    with pytest.raises(SizeError, match="size 4 in this layout but only 2 in the outer one"):
        src.invert_and_compose(LinearLayout.identity_1d(2, "lane", "dim0"))


def test_invert_and_compose_maps_identical_broadcast_dims_to_themselves():
    # both layouts broadcast over warps: the conversion keeps each warp where it is
    a = LinearLayout({"register": [[1]], "lane": [[2]], "warp": [[0], [0]]}, {"dim0": 4})
    b = LinearLayout({"register": [[2]], "lane": [[1]], "warp": [[0], [0]]}, {"dim0": 4})
    c = a.invert_and_compose(b)
    assert c.sublayout(["warp"], ["warp"]) == LinearLayout.identity_1d(4, "warp", "warp")
    assert c.quotient(["warp"]) is not None


def test_str_is_tritons_format_and_parses_back():
    L = LinearLayout({"register": [[0, 1]], "lane": [[1, 0]], "warp": []}, {"dim0": 2, "dim1": 2})
    # Triton 3.9's LinearLayout::toString, character for character (leading newline, " - " bullets)
    assert str(L) == (
        "\n - register=1 -> (0, 1)\n"
        " - lane=1 -> (1, 0)\n"
        " - warp is a size 1 dimension\n"
        "where out dims are: [dim0 (size 2), dim1 (size 2)]"
    )
    assert repr(L).startswith("LinearLayout(\n   - register=1 -> (0, 1)")
    assert parse_linear(str(L)) == L
    assert LinearLayout.from_text(repr(L)) == L
    assert str(LinearLayout.empty()) == "\n(empty layout)"
    # the format this library printed before 3.9 parity still reads
    old_format = "- register=1 -> (0, 1)\n- lane=1 -> (1, 0)\n- warp is a size 1 dimension\nwhere out dims are: [dim0 (size 2), dim1 (size 2)]"
    assert parse_linear(old_format) == L
    assert parse_linear("(empty layout)") == LinearLayout.empty()
    assert parse_linear(str(LinearLayout.empty())) == LinearLayout.empty()
    # Triton's own dump, leading newline and all
    triton_dump = "\n - lane=1 -> (1)\n   lane=2 -> (2)\nwhere out dims are: [dim0 (size 4)]"
    assert parse_linear(triton_dump) == LinearLayout.identity_1d(4, "lane", "dim0")


@pytest.mark.parametrize(
    "text, where",
    [
        ("- lane=1 -> (1)\n- lane=4 -> (2)\nwhere out dims are: [dim0 (size 4)]", "expected lane=2 next"),
        ("- lane=1 -> (1)\n", "missing the line"),
        ("- lane=1 -> (x)\nwhere out dims are: [dim0 (size 4)]", "basis vector of integers"),
        ("lane: 1\nwhere out dims are: [dim0 (size 4)]", "expected a line"),
        ("- lane=1 -> (1)\nwhere out dims are: [dim0 size 4]", "expected an out-dim as 'name"),
        ("{\"bases\": [", "invalid JSON"),
    ],
)
def test_malformed_text_gives_a_position(text, where):
    with pytest.raises(ParseError, match=where) as info:
        parse_linear(text)
    assert info.value.position is not None
    assert "^" in str(info.value)


def test_dict_form_matches_the_oracle_files():
    d = {"bases": [["offset", [[1], [2]]]], "out_dims": [["dim0", 4]]}
    L = LinearLayout.from_dict(d)
    assert L.to_dict() == d
    with pytest.raises(LayoutError, match="'bases' and 'out_dims'"):
        LinearLayout.from_dict({"bases": []})


def test_table_is_vectorized_and_ordered():
    L = blocked_128()
    t = L.table()
    assert t.shape == (128, 1)
    assert t[:, 0].tolist() == list(range(128))
    # the smallest unsigned dtype that holds the outputs (issue 19)
    assert L.flat_table().dtype == np.uint8 and t.dtype == np.uint8


def test_matrix_view():
    L = LinearLayout({"lane": [[1], [3]]}, {"dim0": 4})
    m = L.matrix()
    assert type(m).__name__ == "FieldArray_2_1" or "GF" in type(m).__name__ or m.dtype is not None
    assert np.asarray(m).tolist() == [[1, 1], [0, 1]]
    with pytest.raises(SizeError, match="expected"):
        LinearLayout.from_matrix(np.zeros((3, 2), dtype=int), {"lane": 4}, {"dim0": 4})
    with pytest.raises(BasisError, match="only 0 and 1"):
        LinearLayout.from_matrix(np.array([[2, 0], [0, 1]]), {"lane": 4}, {"dim0": 4})


def test_direct_product_joins_common_dims_inner_first():
    a = LinearLayout({"register": [[1, 0]]}, {"dim0": 2, "dim1": 1})
    b = LinearLayout({"register": [[0, 1]], "lane": [[1, 0]]}, {"dim0": 2, "dim1": 2})
    p = a * b
    assert p.bases == {"register": ((1, 0), (0, 1)), "lane": ((2, 0),)}
    assert p.out_dims == {"dim0": 4, "dim1": 2}
    with pytest.raises(DimensionError, match="same relative order"):
        (LinearLayout.identity_1d(2, "a", "x") * LinearLayout.identity_1d(2, "b", "x")) * (
            LinearLayout.identity_1d(2, "b", "x") * LinearLayout.identity_1d(2, "a", "x")
        )


def test_divide_returns_none_when_not_divisible():
    a = LinearLayout.identity_1d(4, "lane", "dim0")
    swapped = LinearLayout({"lane": [[2], [1]]}, {"dim0": 4})
    assert swapped.divide_left(LinearLayout.identity_1d(2, "lane", "dim0")) is None
    assert a.divide_left(LinearLayout.identity_1d(8, "lane", "dim0")) is None


def test_sublayout_quotient_and_triviality():
    L = LinearLayout.identity_1d(4, "register", "register") * LinearLayout.identity_1d(2, "lane", "lane")
    assert L.is_trivial_over(["lane"]) and L.is_trivial_over(["register", "lane"])
    assert L.quotient(["register", "lane"]) == LinearLayout._make([], [])
    mixed = LinearLayout({"register": [[1, 0], [0, 1]], "lane": [[0, 1]]}, {"register": 4, "lane": 2}, require_surjective=False)
    assert not mixed.is_trivial_over(["lane"])
    assert mixed.quotient(["lane"]) is None
    assert not L.is_trivial_over(["warp"])
    with pytest.raises(DimensionError, match="not in this layout"):
        L.sublayout(["warp"], [])


def test_concat_rename_resize_squeeze():
    a = LinearLayout.identity_1d(4, "lane", "dim0")
    b = LinearLayout({"warp": [[0]]}, {"dim0": 4}, require_surjective=False)
    c = a.concat_ins(b)
    assert c.in_dim_names == ("lane", "warp")
    with pytest.raises(DimensionError, match="appear in both"):
        a.concat_ins(a)
    d = a.concat_outs(LinearLayout({"lane": [[0], [1]]}, {"dim1": 2}))
    assert d.bases == {"lane": ((1, 0), (2, 1))}
    assert a.rename_in_dim("lane", "thread").in_dim_names == ("thread",)
    assert a.rename_out_dim("dim0", "m").out_dim_names == ("m",)
    with pytest.raises(DimensionError, match="already"):
        c.rename_in_dim("lane", "warp")
    r = a.resize_in_dim("lane", 16)
    assert r.bases["lane"] == ((1,), (2,), (0,), (0,))
    with pytest.raises(SizeError, match="power of two"):
        a.resize_in_dim("lane", 3)
    assert r.remove_zero_bases("lane") == a
    e = LinearLayout({"register": [], "lane": [[1, 0]]}, {"dim0": 2, "dim1": 1})
    assert e.squeeze_ins().in_dim_names == ("lane",)
    assert e.squeeze_outs().out_dim_names == ("dim0",)


def test_num_consecutive_in_out():
    assert LinearLayout({"register": [[1], [2], [8]], "lane": [[4]]}, {"dim0": 16}).num_consecutive_in_out() == 4
    assert LinearLayout({"register": [[1], [2]], "lane": [[1]]}, {"dim0": 4}, require_surjective=False).num_consecutive_in_out() == 1
    assert LinearLayout({"register": [[2]], "lane": [[1]]}, {"dim0": 4}).num_consecutive_in_out() == 1


def test_free_variable_masks_detect_broadcast():
    L = LinearLayout({"register": [[1]], "lane": [[2], [0]], "warp": [[1], [4]]}, {"dim0": 8})
    assert L.free_variable_masks() == {"register": 0, "lane": 2, "warp": 1}


def test_immutable_and_hashable():
    a = LinearLayout.identity_1d(4, "lane", "dim0")
    b = LinearLayout({"lane": [[1], [2]]}, {"dim0": 4})
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    bases = a.bases
    bases["lane"] = ()
    assert a.bases == {"lane": ((1,), (2,))}
    import pickle

    assert pickle.loads(pickle.dumps(a)) == a
    assert a != LinearLayout.identity_1d(4, "lane", "dim1")
    assert (a == 3) is False


# ------------------------------------------------------------------ apply and == fast paths (issue 19)


@settings(max_examples=80, deadline=None)
@given(linear_layouts(max_bits=5), st.data())
def test_apply_before_and_after_its_tables_agree_with_table(L, data):
    from linlayout.linear import _APPLY_TABLE_CALLS

    t = L.table()
    names = list(L.in_dims)
    flat = data.draw(st.lists(st.integers(0, L.total_in_size - 1), min_size=2 * _APPLY_TABLE_CALLS, max_size=2 * _APPLY_TABLE_CALLS))
    fresh = LinearLayout._make_raw(L._ins, L._outs)
    for k in flat:  # the first calls XOR bases, later ones read the lookup tables
        point, rest = {}, k
        for n in names:
            point[n] = rest % L.in_dim_size(n)
            rest //= L.in_dim_size(n)
        assert list(fresh.apply(point).values()) == t[k].tolist()
    assert isinstance(fresh._tables, dict)


@pytest.mark.parametrize("calls", [0, 40])
def test_apply_errors_are_the_same_on_both_paths(calls):
    L = LinearLayout({"lane": [[1], [2]], "warp": [[4]]}, {"dim0": 8})
    for _ in range(calls):
        L.apply(lane=1)
    with pytest.raises(DimensionError, match="'block' is not an in-dim"):
        L.apply(block=0)
    with pytest.raises(DimensionError, match=r"lane=4 is out of range \[0, 4\)"):
        L.apply(lane=4)
    with pytest.raises(DimensionError, match=r"lane=-1 is out of range"):
        L.apply(lane=-1)
    assert L.apply(lane=np.int64(3), warp=1) == {"dim0": 7}


@settings(max_examples=80, deadline=None)
@given(linear_layouts(), linear_layouts())
def test_equality_shares_equal_tuples_without_changing_answers(A, B):
    a2 = LinearLayout(A.bases, A.out_dims, require_surjective=False)
    assert a2 == A and A == a2 and hash(a2) == hash(A)
    assert a2._stored is A._stored  # the second comparison is an identity check
    same = list(A.bases.items()) == list(B.bases.items()) and list(A.out_dims.items()) == list(B.out_dims.items())
    assert (A == B) == same and (B == A) == same and (A != B) == (not same)
    assert A.bases == a2.bases and str(A) == str(a2)
    assert (A == "not a layout") is False


def test_from_flat_checks_sizes_after_the_same_out_dims_were_seen():
    """from_flat remembers out-dim lists it has checked; a float or bool size equal to a
    remembered int (2.0 == 2, True == 1) must still be refused, as on the first call."""
    assert LinearLayout.from_flat({"lane": [1]}, [("dim0", 2)]).out_dims == {"dim0": 2}
    assert LinearLayout.from_flat({"lane": [0]}, [("dim0", 1)]).out_dims == {"dim0": 1}
    with pytest.raises(BasisError, match="must be an integer, got float 2.0"):
        LinearLayout.from_flat({"lane": [1]}, [("dim0", 2.0)])
    with pytest.raises(BasisError, match="got the boolean True"):
        LinearLayout.from_flat({"lane": [0]}, [("dim0", True)])
    # a list pair is read as before
    assert LinearLayout.from_flat({"lane": [1]}, [["dim0", 2]]).out_dims == {"dim0": 2}


def test_names_and_sizes_read_from_the_stored_form():
    """The cached name tuples and total bits agree with the dims, on every constructor."""
    L = LinearLayout({"register": [[1, 0]], "lane": [[0, 1], [2, 0]]}, {"dim0": 4, "dim1": 2})
    for M in (L, L.transpose_outs(["dim1", "dim0"]), L.sublayout(["lane"], ["dim1"]), LinearLayout.empty(),
              L.compose(LinearLayout.identity_1d(4, "dim0", "x") * LinearLayout.identity_1d(2, "dim1", "y"))):
        assert M.in_dim_names == tuple(M.in_dims) and M.out_dim_names == tuple(M.out_dims)
        assert M.total_out_size_log2 == sum(s.bit_length() - 1 for s in M.out_dims.values())
        assert all(M.has_in_dim(n) for n in M.in_dim_names) and not M.has_in_dim("nope")
        assert all(M.has_out_dim(n) for n in M.out_dim_names) and not M.has_out_dim("nope")
