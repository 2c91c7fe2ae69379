"""The planner's fast GF(2) helpers (gf2.unit_complement, gf2.unit_images) against the reference
functions and the definitions (property-based)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from linlayout import gf2


@st.composite
def vectors(draw, max_dim=12):
    dim = draw(st.integers(0, max_dim))
    vs = draw(st.lists(st.integers(0, (1 << dim) - 1), max_size=dim + 3))
    return vs, dim


@settings(max_examples=400, deadline=None)
@given(vectors())
def test_unit_complement_is_complement_units(args):
    vs, dim = args
    got = gf2.unit_complement(vs, dim)
    assert got == gf2.complement_units(vs, dim)
    # a complement: together with vs the units span everything, and no fewer would
    assert gf2.rank(list(vs) + got) == dim
    assert len(got) == dim - gf2.rank(vs)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_unit_images_inverts_a_basis(data):
    dim = data.draw(st.integers(0, 12))
    vs = data.draw(st.lists(st.integers(0, (1 << dim) - 1), min_size=dim, max_size=dim))
    inv = gf2.unit_images(vs)
    if gf2.rank(vs) < dim:
        assert inv is None
        return
    assert inv is not None and len(inv) == dim
    for i, mask in enumerate(inv):
        x = 0
        for k, v in enumerate(vs):
            if mask >> k & 1:
                x ^= v
        assert x == 1 << i
        assert mask == gf2.solve(vs, 1 << i)  # a basis: the combination is unique


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_unit_images_of_mostly_unit_bases(data):
    """Bases as shared layouts have them (a permutation of unit vectors, a few XOR-mixed), and
    their near misses (a repeated unit, a mixed vector dependent on the units), against gf2.solve."""
    dim = data.draw(st.integers(1, 12))
    vs = [1 << i for i in data.draw(st.permutations(range(dim)))]
    for _ in range(data.draw(st.integers(0, 4))):
        i, j = data.draw(st.integers(0, dim - 1)), data.draw(st.integers(0, dim - 1))
        vs[i] ^= vs[j] if i != j else 0
    if data.draw(st.booleans()):
        vs[data.draw(st.integers(0, dim - 1))] = data.draw(st.sampled_from(vs + [0]))
    inv = gf2.unit_images(vs)
    if gf2.rank(vs) < dim:
        assert inv is None
        return
    assert inv == [gf2.solve(vs, 1 << i) for i in range(dim)]


def test_unit_images_refuses_vectors_outside_the_space():
    assert gf2.unit_images([0b1, 0b100]) is None


@settings(max_examples=400, deadline=None)
@given(vectors(), vectors())
def test_meet_dim_is_intersection_dim(a, b):
    (v1, _), (v2, _) = a, b
    assert gf2.meet_dim(v1, v2) == gf2.intersection_dim(v1, v2)
    assert gf2.meet_dim(v1, v2) == gf2.meet_dim(v2, v1)


@settings(max_examples=400, deadline=None)
@given(vectors(), st.data())
def test_masked_meet_dim_is_its_definition(args, data):
    """rank(T) - (rank(S + T & mask) - rank(S)), and, with ``mask`` clearing some unit vectors U
    and S reduced the same way, dim(span(T) ∩ span(U + S)) (the bank-conflict use)."""
    vs, dim = args
    units = data.draw(st.lists(st.integers(0, max(dim - 1, 0)), max_size=dim)) if dim else []
    mask = ~sum(1 << u for u in set(units))
    rest = data.draw(st.lists(st.integers(0, (1 << dim) - 1), max_size=3)) if dim else []
    lead: dict[int, int] = {}
    for v in rest:
        gf2.echelon_insert(lead, v & mask)
    before = dict(lead)
    got = gf2.masked_meet_dim(vs, mask, lead)
    S = list(lead.values())
    assert got == gf2.rank(vs) - (gf2.rank(S + [v & mask for v in vs]) - gf2.rank(S))
    assert lead == before  # not modified
    span_u_s = [1 << u for u in set(units)] + rest
    assert got == gf2.intersection_dim(vs, span_u_s)
