"""Hypothesis strategies that build random linear layouts (shared by the test modules)."""

from __future__ import annotations

from hypothesis import strategies as st

from linlayout import LinearLayout

IN_NAMES = ("register", "lane", "warp", "block")
OUT_NAMES = ("dim0", "dim1", "dim2")


@st.composite
def out_dims(draw, max_dims: int = 3, max_log2: int = 4):
    n = draw(st.integers(1, max_dims))
    return {OUT_NAMES[i]: 1 << draw(st.integers(0, max_log2)) for i in range(n)}


@st.composite
def linear_layouts(draw, outs=None, in_names=IN_NAMES[:3], max_bits: int = 4, surjective: bool | None = None):
    """A random LinearLayout; ``surjective=True`` retries until it is surjective."""
    if outs is None:
        outs = draw(out_dims())
    bases = {}
    for name in in_names:
        k = draw(st.integers(0, max_bits))
        bases[name] = [[draw(st.integers(0, s - 1)) for s in outs.values()] for _ in range(k)]
    layout = LinearLayout(bases, outs, require_surjective=False)
    if surjective is not None:
        from hypothesis import assume

        assume(layout.is_surjective() == surjective)
    return layout


@st.composite
def invertible_layouts(draw, outs=None, in_names=IN_NAMES[:3]):
    """A random bijective layout: a random invertible matrix split over the in-dims."""
    if outs is None:
        outs = draw(out_dims())
    total = sum(s.bit_length() - 1 for s in outs.values())
    # Random invertible matrix: a permutation of unit columns times random elementary XORs.
    cols = [1 << i for i in draw(st.permutations(range(total)))]
    for _ in range(draw(st.integers(0, 3 * total))):
        if total < 2:
            break
        i = draw(st.integers(0, total - 1))
        j = draw(st.integers(0, total - 1))
        if i != j:
            cols[i] ^= cols[j]
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=len(in_names) - 1, max_size=len(in_names) - 1)))
    bounds = [0, *cuts, total]
    ins = [(name, cols[bounds[k]:bounds[k + 1]]) for k, name in enumerate(in_names)]
    return LinearLayout._make(ins, list(outs.items()))


@st.composite
def blocked_on_shape(draw, rank: int | None = None, sizes=(1, 2, 4, 8, 16, 64, 256)):
    """A Gluon ``BlockedLayout`` of ``rank`` dims (drawn from 1-3 when None): 1-8 elements per
    thread along each dim, a 32-lane warp and 1-8 warps split among the dims, any order; and a
    shape for it, each dim one of ``sizes``."""
    from converters import gluon

    if rank is None:
        rank = draw(st.integers(1, 3))
    spt = [draw(st.sampled_from([1, 2, 4, 8])) for _ in range(rank)]
    split = [0] * rank  # log2 threads per dim, summing to 5 (a 32-lane warp)
    for _ in range(5):
        split[draw(st.integers(0, rank - 1))] += 1
    warps = [0] * rank
    for _ in range(draw(st.integers(0, 3))):
        warps[draw(st.integers(0, rank - 1))] += 1
    order = draw(st.permutations(list(range(rank))))
    shape = [draw(st.sampled_from(sizes)) for _ in range(rank)]
    return gluon.BlockedLayout(spt, [1 << x for x in split], [1 << x for x in warps], order), shape


@st.composite
def with_swapped_bases(draw, L: LinearLayout, names=None, most: int = 4) -> LinearLayout:
    """``L`` with 1 to ``most`` pairs of its bases (over the in-dims ``names``, all by default)
    trading places: across registers, lanes and warps, so that the result shares many of ``L``'s
    bases (transposes and the like: what a conversion planner sees most)."""
    names = tuple(L.in_dim_names if names is None else names)
    vecs = [v for n in names for v in L.flat_bases(n)]
    if vecs:
        for _ in range(draw(st.integers(1, most))):
            i, j = draw(st.integers(0, len(vecs) - 1)), draw(st.integers(0, len(vecs) - 1))
            vecs[i], vecs[j] = vecs[j], vecs[i]
    flat, at = {}, 0
    for n in names:
        k = len(L.flat_bases(n))
        flat[n], at = vecs[at : at + k], at + k
    return LinearLayout.from_flat(flat, list(L.out_dims.items()))
