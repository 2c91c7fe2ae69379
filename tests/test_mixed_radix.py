"""MixedRadixLayout: evaluation, algebra laws (hypothesis), GF(2) promotion, pow2 pieces, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from linlayout import LinearLayout
from linlayout.errors import (
    DimensionError,
    LayoutError,
    NotInvertibleError,
    NotLinearError,
    SizeError,
    UnsupportedError,
)
from linlayout.mixed_radix import MixedRadixLayout

AXES = ["m", "laneid", "warpid"]


def test_apply_table_and_replicas():
    L = MixedRadixLayout({"x": [(3, 1, "m"), (4, 8, "laneid")], "y": [(2, 100, "m")]}, replicas=[(2, 4, "warpid")], offset={"warpid": 5})
    assert L.in_dims == {"x": 12, "y": 2} and L.size == 24 and L.num_replicas == 2
    t = L.table()
    for k in range(24):
        x, y = k % 12, k // 12
        exp = {"m": x % 3 + 100 * y, "laneid": 8 * (x // 3), "warpid": 5}
        assert L.apply(x=x, y=y) == exp
        assert dict(zip(L.axes, t[k].tolist())) == exp
        assert L.apply_all(x=x, y=y) == [exp, {**exp, "warpid": 9}]
    assert L.full_table().shape == (24, 2, 3)


def test_blackwell_224_pieces():
    L = MixedRadixLayout({"c": [(112, 1, "TCol"), (2, 112, "TCol")], "l": [(128, 1, "TLane")]})
    assert L.out_dims == {"TCol": 224, "TLane": 128}
    with pytest.raises(NotLinearError, match="digit 0 of in-dim 'c'.*extent 112"):
        L.to_linear()
    pieces = L.split_pow2()
    assert [(p.in_start["c"], p.layout.in_dims["c"]) for p in pieces] == [(0, 128), (128, 64), (192, 32)]
    for p in pieces:
        ll = p.layout.to_linear()  # each piece is GF(2)-linear
        assert ll.in_dims["c"] == p.layout.in_dims["c"]
        for c in (0, p.layout.in_dims["c"] - 1):
            v = p.layout.apply(c=c, l=3)
            assert {a: v[a] + p.offset[a] for a in v} == L.apply(c=p.in_start["c"] + c, l=3)


def test_promotion_rules():
    ok = MixedRadixLayout({"x": [(4, 1, "m"), (2, 8, "m")], "r": [(2, 1, "laneid")]})
    ll = ok.to_linear()
    assert ll.bases == {"x": ((1, 0), (2, 0), (8, 0)), "r": ((0, 1),)}
    assert MixedRadixLayout.from_linear(ll) == ok.with_out_dims({"m": 16, "laneid": 2})
    with pytest.raises(NotLinearError, match="overlaps"):
        MixedRadixLayout({"x": [(4, 3, "m")]}).to_linear()
    with pytest.raises(NotLinearError, match="digit 1 of in-dim 'x'"):
        MixedRadixLayout({"x": [(2, 1, "m"), (2, 1, "m")]}).to_linear()
    with pytest.raises(NotLinearError, match="offset"):
        MixedRadixLayout({"x": [(2, 1, "m")]}, offset={"m": 1}).to_linear()
    assert MixedRadixLayout({"x": [(4, 5, "m")]}).is_linear()  # 5 and 10 are disjoint: 5*3 == 5^10
    with pytest.raises(NotLinearError):
        MixedRadixLayout.from_linear(LinearLayout({"x": [[1], [3]]}, {"m": 4}, require_surjective=False))
    with pytest.raises(NotLinearError):
        MixedRadixLayout.from_linear(LinearLayout({"x": [[1, 1]]}, {"a": 2, "b": 2}, require_surjective=False))


def test_replicas_become_an_in_dim():
    L = MixedRadixLayout({"x": [(4, 1, "laneid")]}, replicas=[(2, 4, "laneid")])
    ll = L.to_linear()
    assert ll.in_dims == {"x": 4, "replica": 2} and ll.is_invertible()
    assert MixedRadixLayout.from_linear(ll, replica_dim="replica").is_equivalent(L)


def test_inverse_complement_compose_examples():
    L = MixedRadixLayout({"x": [(2, 3, "m"), (3, 1, "m")]})
    Li = L.invert()
    assert [Li(m=L(x=k)["m"])["x"] for k in range(6)] == list(range(6))
    with pytest.raises(NotInvertibleError):
        MixedRadixLayout({"x": [(2, 2, "m")]}).invert()
    C = MixedRadixLayout({"x": [(4, 2, "m")]}).complement({"m": 24})
    both = sorted(a + b for a in range(0, 8, 2) for b in C.table()[:, 0].tolist())
    assert both == list(range(24))
    with pytest.raises(UnsupportedError):
        MixedRadixLayout({"x": [(2, 3, "m"), (2, 2, "m")]}).complement()
    with pytest.raises(DimensionError):
        MixedRadixLayout({"x": [(4, 1, "q")]}).compose(MixedRadixLayout({"m": [(4, 1, "z")]}))


def test_equivalence_counterexample():
    a = MixedRadixLayout({"x": [(4, 1, "m")]})
    b = MixedRadixLayout({"x": [(2, 1, "m"), (2, 3, "m")]})
    ce = a.counterexample(b)
    assert ce.point == {"x": 2} and ce.left == {"m": 2} and ce.right == {"m": 3}
    r1 = MixedRadixLayout({"x": [(4, 1, "m")]}, replicas=[(2, 4, "w")])
    assert a.counterexample(r1).reason == "replicas"
    with pytest.raises(DimensionError):
        a.counterexample(MixedRadixLayout({"y": [(4, 1, "m")]}))


def test_bad_input():
    with pytest.raises(SizeError):
        MixedRadixLayout({"x": [(0, 1, "m")]})
    with pytest.raises(LayoutError):
        MixedRadixLayout({"x": [(2, 1)]})
    with pytest.raises(DimensionError):
        MixedRadixLayout([("x", []), ("x", [])])
    with pytest.raises(LayoutError):
        MixedRadixLayout({"x": [(2, 1.5, "m")]})
    L = MixedRadixLayout({"x": [(4, 1, "m")]})
    with pytest.raises(DimensionError):
        L.apply(x=4)
    with pytest.raises(DimensionError):
        L.apply(y=0)
    with pytest.raises(SizeError):
        MixedRadixLayout({"x": [(1 << 13, 1, "m")], "y": [(1 << 13, 1, "m")]}).table()
    with pytest.raises(UnsupportedError):
        MixedRadixLayout.from_table({"x": 4}, np.array([[0], [1], [3], [2]]), ["m"])


# ------------------------------------------------------------------ properties

_digit = st.tuples(st.integers(1, 5), st.integers(0, 12), st.sampled_from(AXES))


@st.composite
def layouts(draw, max_in=2, replicas=True):
    n = draw(st.integers(1, max_in))
    digits = {f"d{k}": draw(st.lists(_digit, max_size=3)) for k in range(n)}
    reps = draw(st.lists(_digit, max_size=2)) if replicas else []
    off = draw(st.dictionaries(st.sampled_from(AXES), st.integers(0, 9), max_size=2))
    return MixedRadixLayout(digits, reps, off)


@st.composite
def pow2_layouts(draw):
    """Faithful GF(2) layouts: disjoint power-of-two bit images per axis."""
    bits = {a: draw(st.permutations(list(range(6)))) for a in AXES}
    used = {a: 0 for a in AXES}
    digits = {}
    for k in range(draw(st.integers(1, 2))):
        dl = []
        for _ in range(draw(st.integers(0, 3))):
            a = draw(st.sampled_from(AXES))
            if used[a] >= 6:
                continue
            b = bits[a][used[a]]
            used[a] += 1
            dl.append((2, 1 << b, a))
        digits[f"d{k}"] = dl
    return MixedRadixLayout(digits).coalesce()


@settings(max_examples=60, deadline=None)
@given(layouts())
def test_coalesce_and_canonical_preserve_the_function(L):
    assert L.coalesce().is_equivalent(L)
    assert L.canonical().is_equivalent(L)
    assert L.canonical().canonical() == L.canonical()


@settings(max_examples=60, deadline=None)
@given(layouts(replicas=False))
def test_from_table_recovers_the_function(L):
    g = MixedRadixLayout.from_table(L.in_dims, L.table(), L.axes)
    assert g.is_equivalent(L)
    assert g.canonical() == L.canonical().with_out_dims(g.out_dims) or g.counterexample(L) is None


@settings(max_examples=40, deadline=None)
@given(layouts(max_in=1, replicas=False), st.integers(1, 4), st.integers(1, 4))
def test_compose_associative(A, e, s):
    # B reads A's axes; C reads B's single axis
    assume(A.axes)
    B = MixedRadixLayout({a: [(A.out_dims[a], s + k, "z")] for k, a in enumerate(A.axes)})
    C = MixedRadixLayout({"z": [(B.out_dims["z"], e, "w")]})
    try:
        left = A.compose(B).compose(C)
    except UnsupportedError:
        assume(False)
    right = A.compose(B.compose(C))
    assert left.is_equivalent(right)
    for k in range(min(A.size, 20)):
        p = A._unflatten(k)
        assert left.apply(p) == C.apply(B.apply(A.apply(p)))


@settings(max_examples=40, deadline=None)
@given(pow2_layouts())
def test_promote_demote_round_trip(L):
    ll = L.to_linear()
    back = MixedRadixLayout.from_linear(ll)
    assert back.is_equivalent(L)
    assert np.array_equal(_pad(ll.table(), list(ll.out_dims), list(L.axes)), L.table())


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.randoms(use_true_random=False))
def test_inverse_of_a_permutation(extents, rnd):
    n = int(np.prod(extents))
    order = list(range(len(extents)))
    rnd.shuffle(order)
    strides, acc = {}, 1
    for k in order:
        strides[k] = acc
        acc *= extents[k]
    L = MixedRadixLayout({"x": [(e, strides[k], "m") for k, e in enumerate(extents)]})
    Li = L.invert()
    assert [Li(m=L(x=k)["m"])["x"] for k in range(n)] == list(range(n))
    assert L.compose(Li.rename_axes({"x": "y"})).is_equivalent(MixedRadixLayout({"x": [(n, 1, "y")]}))


def _pad(t, have, want):
    out = np.zeros((t.shape[0], len(want)), dtype=np.int64)
    for i, a in enumerate(have):
        if a in want:
            out[:, want.index(a)] = t[:, i]
    return out
