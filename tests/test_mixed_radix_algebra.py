"""MixedRadixLayout algebra on the digits (compose, inverse, equivalence) against brute-force
evaluation of every point, on small random layouts (hypothesis)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from linlayout.errors import DimensionError, NotInvertibleError, UnsupportedError
from linlayout.mixed_radix import MAX_ENUMERATION, MixedRadixLayout

AXES = ["m", "w"]
OUTER_AXES = ["p", "q"]


# ------------------------------------------------------------------ brute force


def points(L):
    names = list(L.in_dims)
    for combo in itertools.product(*(range(s) for s in L.in_dims.values())):
        yield dict(zip(names, combo))


def replica_offsets(L):
    """Every replica offset by brute force: one dict per replica index."""
    out = []
    for combo in itertools.product(*(range(d.extent) for d in L.replicas)):
        r = {}
        for t, d in zip(combo, L.replicas):
            r[d.axis] = r.get(d.axis, 0) + t * d.stride
        out.append(r)
    return out


def vec(d, axes):
    return tuple(d.get(a, 0) for a in axes)


def places(L, p, axes):
    """Sorted multiset of every place of input ``p`` (base plus each replica)."""
    base = L.apply(p)
    return sorted(vec({a: base.get(a, 0) + r.get(a, 0) for a in set(base) | set(r)}, axes) for r in replica_offsets(L))


def shifted(L):
    """``L`` with its offset raised so that every image is >= 0 (and its sizes inferred again)."""
    off = dict(L.offset)
    for a in L.axes:
        lo = L._axis_range(a)[0]
        if lo < 0:
            off[a] = off.get(a, 0) - lo
    return MixedRadixLayout(L.digits, L.replicas, off)


# ------------------------------------------------------------------ strategies

_digit = st.tuples(st.integers(1, 4), st.integers(-6, 12), st.sampled_from(AXES))


@st.composite
def layouts(draw, replicas=True, max_in=2):
    n = draw(st.integers(1, max_in))
    digits = {f"d{k}": draw(st.lists(_digit, max_size=3)) for k in range(n)}
    reps = draw(st.lists(_digit, max_size=2)) if replicas else []
    off = draw(st.dictionaries(st.sampled_from(AXES), st.integers(0, 9), max_size=2))
    return MixedRadixLayout(digits, reps, off)


def factorizations(n):
    """Every ordered factorization of n into factors >= 2."""
    if n == 1:
        return [[]]
    out = []
    for f in range(2, n + 1):
        if n % f == 0:
            out += [[f] + rest for rest in factorizations(n // f)]
    return out


@st.composite
def outer_for(draw, A, extra=True):
    """A random outer layout whose in-dims are A's axes, each at least as large as A's images."""
    dims = {}
    for a in A.axes:
        n = A._axis_range(a)[1] + 1 + (draw(st.integers(0, 2)) if extra else 0)
        extents = draw(st.sampled_from(factorizations(n)))
        dims[a] = [(e, draw(st.integers(-5, 20)), draw(st.sampled_from(OUTER_AXES))) for e in extents]
    reps = draw(st.lists(st.tuples(st.integers(1, 3), st.integers(0, 9), st.sampled_from(OUTER_AXES)), max_size=1))
    off = draw(st.dictionaries(st.sampled_from(OUTER_AXES), st.integers(0, 5), max_size=1))
    return MixedRadixLayout(dims, reps, off)


@st.composite
def admissible_pairs(draw):
    """(inner, outer) that CuTe's composition accepts: the inner digits sit on disjoint, aligned
    sub-digits of the outer radix (so the digit algebra must decide them)."""
    outer_dims, inner_digits, inner_reps = {}, {"x": [], "y": []}, []
    for a in ["i", "j"][: draw(st.integers(1, 2))]:
        extents = draw(st.lists(st.integers(2, 6), min_size=1, max_size=3))
        outer_dims[a] = [(e, draw(st.integers(-4, 30)), draw(st.sampled_from(OUTER_AXES))) for e in extents]
        place = 1
        for e in extents:
            for f in draw(st.sampled_from(factorizations(e))):
                if draw(st.booleans()):
                    sign = draw(st.sampled_from([1, -1]))
                    target = draw(st.sampled_from(["x", "y", "rep"]))
                    d = (f, sign * place, a)
                    (inner_reps if target == "rep" else inner_digits[target]).append(d)
                place *= f
    for dl in inner_digits.values():
        order = draw(st.permutations(list(range(len(dl)))))
        dl[:] = [dl[k] for k in order]
    inner = shifted(MixedRadixLayout(inner_digits, inner_reps))
    assume(all(a in outer_dims for a in inner.axes))
    return inner, MixedRadixLayout(outer_dims)


def check_composite(C, A, B):
    axes = list(B.axes) + [a for a in C.axes if a not in B.axes]
    for p in points(A):
        assert vec(C.apply(p), axes) == vec(B.apply(A.apply(p)), axes)
        want = []
        for r in replica_offsets(A):
            base = A.apply(p)
            inner = {a: base[a] + r.get(a, 0) for a in base}
            want += places(B, {a: inner[a] for a in B.in_dims if a in inner}, axes)
        assert places(C, p, axes) == sorted(want)


# ------------------------------------------------------------------ compose


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_compose_agrees_with_evaluating_both(data):
    A = shifted(data.draw(layouts()))
    assume(A.axes and A.size * A.num_replicas <= 64)
    B = data.draw(outer_for(A))
    try:
        C = A.compose(B)
    except UnsupportedError:
        # refused only when the composite really is not mixed-radix: enumeration refuses too
        with pytest.raises(UnsupportedError):
            A._compose_enumerated(B)
        return
    check_composite(C, A, B)
    fast = A._compose_digits(B)
    if fast is not None and B.axes:  # (the refit needs an output axis)
        assert fast.is_equivalent(A._compose_enumerated(B))


@settings(max_examples=150, deadline=None)
@given(admissible_pairs())
def test_compose_decides_admissible_pairs_on_the_digits(pair):
    A, B = pair
    C = A._compose_digits(B)
    assert C is not None
    check_composite(C, A, B)


def test_compose_refuses_out_of_range_and_caps_enumeration():
    A = MixedRadixLayout({"x": [(4, 3, "i")]})
    with pytest.raises(DimensionError, match=r"sends input \{'x': 3\}.* i=9, outside the outer in-dim 'i' of size 8"):
        A.compose(MixedRadixLayout({"i": [(8, 1, "m")]}))
    with pytest.raises(DimensionError, match="i=-3"):
        MixedRadixLayout({"x": [(2, -3, "i")]}).compose(MixedRadixLayout({"i": [(8, 1, "m")]}))
    # stride 3 through extents (2, 4): the digits cannot decide; the enumeration is capped
    big = MixedRadixLayout({"x": [(3, 3, "i")], "y": [(1 << 19, 0, "i")]})
    outer = MixedRadixLayout({"i": [(2, 1, "m"), (5, 7, "m")]})
    assert big._compose_digits(outer) is None
    assert big.size > MAX_ENUMERATION
    with pytest.raises(UnsupportedError, match="cap"):
        big.compose(outer)


def test_compose_large_layouts_stays_on_the_digits():
    # 224 x 4096 (the case) composes without a table
    A = MixedRadixLayout({"c": [(224, 1, "i")], "r": [(4096, 224, "i")]})
    B = MixedRadixLayout({"i": [(7, 1, "a"), (32, 7, "b"), (4096, 1, "c")]})
    C = A.compose(B)
    assert C.digits == {"c": ((7, 1, "a"), (32, 7, "b")), "r": ((4096, 1, "c"),)}
    assert C.apply(c=200, r=4000) == B.apply(i=200 + 224 * 4000)


# ------------------------------------------------------------------ inverse


@st.composite
def bijections(draw):
    """Layouts (digits, replicas, negative strides) that cover their box exactly once."""
    digits, reps = {"x": [], "y": []}, []
    for a in AXES[: draw(st.integers(1, 2))]:
        place = 1
        for e in draw(st.lists(st.integers(2, 4), max_size=3)):
            d = (e, draw(st.sampled_from([1, -1])) * place, a)
            target = draw(st.sampled_from(["x", "y", "rep"]))
            (reps if target == "rep" else digits[target]).append(d)
            place *= e
    for dl in digits.values():
        order = draw(st.permutations(list(range(len(dl)))))
        dl[:] = [dl[k] for k in order]
    return shifted(MixedRadixLayout(digits, reps))


@settings(max_examples=150, deadline=None)
@given(bijections())
def test_inverse_round_trips(L):
    Li = L.invert(["u", "v"])
    assert Li.in_dims == L.out_dims and Li.out_dims == {"u": L.in_dims["x"], "v": L.in_dims["y"]}
    for p in points(L):
        want = {"u": p["x"], "v": p["y"]}
        base = L.apply(p)
        for r in replica_offsets(L):
            place = {a: base[a] + r.get(a, 0) for a in L.axes}
            assert Li.apply(place) == want
    # and the other way round: L(Li(place)) is the place, up to the replica that stores it
    for q in points(Li):
        back = Li.apply(q)
        assert vec(q, L.axes) in places(L, {"x": back["u"], "y": back["v"]}, L.axes)


@settings(max_examples=200, deadline=None)
@given(layouts())
def test_inverse_exists_exactly_for_bijections_onto_the_box(L):
    axes = list(L.axes)
    hits = {}
    inside = True
    for p in points(L):
        for place in places(L, p, axes):
            inside &= all(0 <= v < L.out_dims[a] for v, a in zip(place, axes))
            hits[place] = hits.get(place, 0) + 1
    box = 1
    for a in axes:
        box *= L.out_dims[a]
    bijective = inside and len(hits) == box and set(hits.values()) == {1}
    try:
        L.invert()
    except NotInvertibleError:
        assert not bijective
    else:
        assert bijective


# ------------------------------------------------------------------ complement


@settings(max_examples=200, deadline=None)
@given(layouts(), st.integers(0, 12))
def test_complement_tiles_every_axis_with_the_layout(L, extra):
    sizes = {a: s + extra for a, s in L.out_dims.items()}
    try:
        C = L.complement(sizes)
    except UnsupportedError:
        return
    for a in L.axes:
        mine = [d for dl in L.digits.values() for d in dl] + list(L.replicas)
        ds = [d for d in mine + list(C.digits["rest"]) if d.axis == a and d.stride != 0]
        values = sorted(sum(t * d.stride for t, d in zip(ts, ds)) for ts in itertools.product(*(range(d.extent) for d in ds)))
        assert values == list(range(len(values))) and len(values) >= sizes[a]  # once each, the box included


# ------------------------------------------------------------------ equivalence


@st.composite
def respelled(draw, L):
    """The same function spelled with other digits: split digits, extent-1 digits, stride-0 axes,
    replica order and splits, another axis order."""

    def split(dl, keep_order):
        out = []
        for e, s, a in dl:
            if s == 0:
                a = draw(st.sampled_from(AXES))
            fs = draw(st.sampled_from(factorizations(e))) if e > 1 else [1]
            place = 1
            for f in fs:
                out.append((f, s * place, a))
                place *= f
            if draw(st.booleans()):
                out.append((1, draw(st.integers(-3, 3)), draw(st.sampled_from(AXES))))
        if not keep_order:
            order = draw(st.permutations(list(range(len(out)))))
            out = [out[k] for k in order]
        return out

    digits = {n: split(dl, True) for n, dl in L.digits.items()}
    reps = split(L.replicas, False)
    # a replica of stride -s and extent e is the replica of stride s shifted by -(e-1)*s
    off = dict(L.offset)
    flipped = []
    for e, s, a in reps:
        if s and draw(st.booleans()):
            off[a] = off.get(a, 0) + (e - 1) * s
            flipped.append((e, -s, a))
        else:
            flipped.append((e, s, a))
    # flipping changes the base image: only keep it when the replica set stays the same
    base_shift = {a: off.get(a, 0) - L.offset.get(a, 0) for a in set(off) | set(L.offset)}
    if any(base_shift.values()):
        flipped, off = reps, dict(L.offset)
    return MixedRadixLayout(list(reversed(list(digits.items()))), flipped, off)


def brute_equivalent(A, B):
    axes = list(A.axes) + [a for a in B.axes if a not in A.axes]
    for p in points(A):
        if vec(A.apply(p), axes) != vec(B.apply(p), axes):
            return False
    zero = {n: 0 for n in A.in_dims}
    return places(A, zero, axes) == places(B, zero, axes)


def check_equivalence(A, B):
    ce = A.counterexample(B)
    assert (ce is None) == brute_equivalent(A, B)
    if ce is not None:  # the counterexample is real
        axes = list(A.axes) + [a for a in B.axes if a not in A.axes]
        if ce.reason == "base":
            assert ce.left == dict(zip(axes, vec(A.apply(ce.point), axes)))
            assert ce.right == dict(zip(axes, vec(B.apply(ce.point), axes)))
            assert ce.left != ce.right
        else:
            assert places(A, ce.point, axes) != places(B, ce.point, axes)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_equivalence_of_respellings(data):
    A = data.draw(layouts())
    B = data.draw(respelled(A))
    assert A.is_equivalent(B) and B.is_equivalent(A)
    check_equivalence(A, B)


@settings(max_examples=300, deadline=None)
@given(layouts(max_in=1), layouts(max_in=1))
def test_equivalence_agrees_with_comparing_every_point(A, B):
    B = MixedRadixLayout({"d0": list(B.digits["d0"]) + [(A.in_dims["d0"], 0, "m")]}, B.replicas, B.offset)
    A = MixedRadixLayout({"d0": list(A.digits["d0"]) + [(B.in_dims["d0"] // A.in_dims["d0"], 0, "m")]}, A.replicas, A.offset)
    assert A.in_dims == B.in_dims
    check_equivalence(A, B)


def test_equivalence_of_large_non_pow2_layouts_on_the_digits():
    a = MixedRadixLayout({"c": [(7, 1, "m"), (32, 7, "m")], "r": [(4683, 224, "m")]})
    b = MixedRadixLayout({"c": [(224, 1, "m")], "r": [(21, 224, "m"), (223, 224 * 21, "m")]})
    assert a.size > 1 << 20 and a.is_equivalent(b)
    c = MixedRadixLayout({"c": [(224, 1, "m")], "r": [(21, 224, "m"), (223, 224 * 21 + 1, "m")]})
    ce = a.counterexample(c)
    assert ce.point == {"c": 0, "r": 21} and ce.left == {"m": 224 * 21} and ce.right == {"m": 224 * 21 + 1}
