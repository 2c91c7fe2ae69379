"""The sides of a shared-memory round trip, within one CTA of a cluster.

A round trip (:mod:`linlayout.plan`: the ``shared_memory`` and ``cross_cta`` kinds) stores the
source layout's registers to a swizzled buffer and loads the destination's back.  What the
swizzle search (:mod:`linlayout.plan_smem`) and the price (:mod:`linlayout.plan_price`) see of
each layout is one *side*: the layout without the registers that only repeat others
(:func:`_independent_registers`) and, in a ``shared_memory`` round trip of a CTA cluster, what
one CTA holds (:func:`_one_cta`: the tensor bits the source's block bases move are taken out, so
each CTA's buffer holds its own part, as Triton's ``getNumScratchElemsSwizzledCvt`` sizes it).
:func:`_whole_tensor` maps a buffer built on one CTA's part back onto the whole tensor (the plan's
``shared_layout``).  Also here: the small per-layout helpers both this module and the price read
(:func:`_out_list`, :func:`_without`, :func:`_cta_local`) and whether a warp holds a copy of
another's data (:func:`_warp_broadcast`, which decides a round trip's barrier).  Every fact here
is of one layout (or one layout and the source's block bases) and remembered per layout;
:func:`clear_side_caches` forgets them (part of :func:`linlayout.plan.clear_caches`).

Layers: below :mod:`linlayout.plan` and :mod:`linlayout.plan_price`, above
:mod:`linlayout.linear` and :mod:`linlayout.gf2`; the banks (:mod:`linlayout.banks`) and the
cost model (:mod:`linlayout.cost`) are not needed here.

Two CTAs each holding half of a 256-element tensor: each CTA's side is its 128 elements, and the
round trip's buffer is sized for one CTA.

    >>> from linlayout import LinearLayout
    >>> a = LinearLayout({"register": [[1], [2]], "lane": [[4], [8], [16], [32], [64]], "block": [[128]]}, {"dim0": 256})
    >>> b = LinearLayout({"register": [[32], [64]], "lane": [[1], [2], [4], [8], [16]], "block": [[128]]}, {"dim0": 256})
    >>> sa, sb = _shared_sides("shared_memory", a, b)
    >>> sa.out_dims, sa.in_dim_names, sb.flat_bases("register")
    ({'dim0': 128}, ('register', 'lane'), (32, 64))
"""

from __future__ import annotations

import functools

from . import gf2
from .linear import LinearLayout
from .plan_smem import (LD_ST_MATRIX, LD_ST_MATRIX_TRANS, LD_ST_SHARED, SwizzleSearch, _default_tiles, cluster_choice_elems,
                        cluster_ldst_scratch_elems_39)


def _out_list(L: LinearLayout) -> list[tuple[str, int]]:
    """``L``'s out-dims as (name, size) pairs (the form :meth:`LinearLayout.from_flat` reads fastest)."""
    return list(L.out_dims.items())


def _without(L: LinearLayout, dim: str) -> LinearLayout:
    """``L`` without the in-dim ``dim`` (the same flat bases for the others)."""
    return LinearLayout.from_flat({n: L.flat_bases(n) for n in L.in_dim_names if n != dim}, _out_list(L))


@functools.lru_cache(maxsize=4096)
def _cta_local(L: LinearLayout) -> LinearLayout:
    """``L`` without its ``block`` dim (what one CTA's shared memory sees); remembered per layout."""
    return _without(L, "block") if L.has_in_dim("block") else L


def _independent_registers(L: LinearLayout) -> LinearLayout:
    """``L`` without the registers that only repeat others: zero bases (broadcast) and bases in the
    span of earlier registers (Triton removes both before a round trip: free register bits)."""
    basis = gf2.SpanBasis()
    keep = tuple(v for v in L.flat_bases("register") if basis.insert(v))
    if len(keep) == L.in_dim_size_log2("register"):
        return L
    return LinearLayout.from_flat({n: keep if n == "register" else L.flat_bases(n) for n in L.in_dim_names}, _out_list(L))


@functools.lru_cache(maxsize=4096)
def _one_cta(L: LinearLayout, blocks: tuple[int, ...]) -> tuple[LinearLayout, tuple[int, ...], tuple[int, ...]]:
    """``L`` within one CTA, on that CTA's part of the tensor: without ``block``, and with the
    tensor bits the ``blocks`` (flat vectors: the source's block bases, for both sides of a
    round trip) move taken out of the out-dims (each vector reduced modulo their span and the
    leading bit of each reduced basis vector deleted: for the usual block bases, the top bits of
    some dims, those dims shrink to the shape per CTA).  Also the deleted bits (ascending) and the
    independent nonzero ``blocks``, from which :func:`_whole_tensor` maps a buffer layout back.
    Where ``blocks`` has no nonzero vector (the CTAs hold copies) or a CTA's own vectors meet
    their span (so that the cut would merge two of its elements), nothing is deleted (``()``):
    one CTA then sees the whole tensor.

        >>> L = LinearLayout.from_flat({"register": [1], "lane": [2], "block": [4]}, [("dim0", 8)])
        >>> one, cut, kept = _one_cta(L, (4,))
        >>> one.out_dims, one.flat_bases("lane"), cut, kept
        ({'dim0': 4}, (2,), (2,), (4,))
    """
    local = _without(L, "block")
    basis = gf2.SpanBasis()
    kept = tuple(v for v in blocks if basis.insert(v))
    own = [v for d in local.in_dim_names for v in local.flat_bases(d)]
    if not kept or gf2.rank(own + list(kept)) != gf2.rank(own) + len(kept):
        return local, (), kept
    reduced = gf2.reduced_basis(kept)
    cut = tuple(sorted(v.bit_length() - 1 for v in reduced))

    def squeeze(v: int) -> int:
        v = gf2.reduce_mod(v, reduced)
        for k in reversed(cut):  # the deleted bits are 0 now: close the gaps, highest first
            v = (v & ((1 << k) - 1)) | ((v >> (k + 1)) << k)
        return v

    outs, at = [], 0
    for name, size in L.out_dims.items():
        k = size.bit_length() - 1
        outs.append((name, size >> sum(at <= c < at + k for c in cut)))
        at += k
    return LinearLayout.from_flat({d: tuple(squeeze(v) for v in local.flat_bases(d)) for d in local.in_dim_names}, outs), cut, kept


@functools.lru_cache(maxsize=4096)
def _shared_side(kind: str, L: LinearLayout, blocks: tuple[int, ...] = ()) -> LinearLayout:
    """One side of a round trip: ``L`` without the registers that repeat others and, in a
    ``shared_memory`` round trip of a CTA cluster, what one CTA holds (:func:`_one_cta` along the
    source's block bases ``blocks``: each CTA's buffer holds its own part, as Triton's
    ``getNumScratchElemsSwizzledCvt`` sizes it).  A fact of one layout, remembered (cost
    matrices plan each layout against many others).  An empty ``block`` dim stays: the side is
    then the layout itself, and the swizzle search reuses the plan's conversion map.  Where the
    part cannot be cut (the two layouts' CTAs split the tensor differently: each CTA still reads
    back only what it holds, through a buffer over the whole tensor), the ``block`` bases stay
    too: they move the elements a thread holds like a lane or a warp does, so the checks of the
    rounds and of the matrix rows (:func:`linlayout.plan._rounds_fit`,
    :func:`linlayout.plan._matrix_rows_fit`) see them."""
    if kind == "shared_memory" and L.flat_bases("block"):
        one, cut, _ = _one_cta(L, blocks)
        if cut:
            L = one
    return _independent_registers(L)


def _shared_sides(kind: str, a: LinearLayout, b: LinearLayout) -> tuple[LinearLayout, LinearLayout]:
    """Both sides of a ``kind`` round trip from ``a`` to ``b`` (:func:`_shared_side`), cut to one
    CTA's part along ``a``'s block bases when both can be and ``b``'s block bases span the same
    vectors (else neither is: a ``b`` block vector outside that span would move a bit of the cut
    tensor, which the search would not see as a thread's)."""
    blocks = a.flat_bases("block")
    if kind == "shared_memory" and blocks and not (
            _one_cta(a, blocks)[1] and _one_cta(b, blocks)[1] and gf2.reduced_basis(blocks) == gf2.reduced_basis(b.flat_bases("block"))):
        blocks = ()
    return _shared_side(kind, a, blocks), _shared_side(kind, b, blocks)


def cluster_scratch_elems_39(kind: str, a: LinearLayout, b: LinearLayout, bitwidth: int, stmatrix: bool) -> int:
    """The elements of one CTA's buffer Triton 3.9 allocates for a ``kind`` round trip
    (``cross_cta``, or ``shared_memory`` inside CTAs whose CGA layouts split the tensor
    differently) from ``a`` to ``b`` in a CTA cluster: its sides keep their ``block`` in-dim
    (:func:`_shared_sides`); Triton's loads there are plain ``ld.shared`` and its stores
    ``stmatrix`` (then ``stmatrix.trans``) where ``stmatrix`` is allowed and that pair fits, else
    it falls back to its plain ``ld/st.shared`` swizzle
    (:func:`~linlayout.plan_smem.cluster_ldst_scratch_elems_39`); the buffer of the pair's swizzle
    as Triton builds it in a cluster (:func:`~linlayout.plan_smem.cluster_choice_elems`).
    tests/oracles/triton-3.9-ir/cvt_cluster.jsonl: 312/312.

        >>> s = LinearLayout.from_flat({"register": [1], "lane": [2, 4, 8, 16, 32], "block": [64]}, [("dim0", 128)])
        >>> d = LinearLayout.from_flat({"register": [64], "lane": [1, 2, 4, 8, 16], "block": [32]}, [("dim0", 128)])
        >>> cluster_scratch_elems_39("cross_cta", s, d, 32, stmatrix=True)
        64
    """
    bw = max(bitwidth, 8)
    if stmatrix:
        search = SwizzleSearch(*_shared_sides(kind, a, b), bw)
        for tile in _default_tiles(bw, True)[0]:
            if tile in (LD_ST_MATRIX, LD_ST_MATRIX_TRANS):
                choice = search.candidate(tile, LD_ST_SHARED)
                if choice is not None:
                    return cluster_choice_elems(search, choice)
    return cluster_ldst_scratch_elems_39(a, b, bw)


def _whole_tensor(lay: LinearLayout, L: LinearLayout) -> LinearLayout:
    """A buffer layout ``lay`` built on :func:`_one_cta` of ``L`` (in-dims ``vector``, ``bank``,
    ``segment``, ``reps``), mapped back to the whole tensor: each vector with zeros put back at the
    deleted bits, and an in-dim ``block`` (before ``reps``) of ``L``'s independent block bases, so
    that it is a bijection onto the tensor (Triton's swizzled buffer of a cluster has the same
    ``block`` in-dim).  An element's offset is that of its part outside the block span; each CTA
    stores and loads its own buffer of ``lay``'s size."""
    _, cut, blocks = _one_cta(L, L.flat_bases("block"))
    if not cut:
        return lay

    def spread(v: int) -> int:
        for k in cut:  # lowest first: each deleted bit pushes the higher ones up
            v = (v & ((1 << k) - 1)) | ((v >> k) << (k + 1))
        return v

    dims = {d: tuple(spread(v) for v in lay.flat_bases(d)) for d in ("vector", "bank", "segment")}
    return LinearLayout.from_flat({**dims, "block": blocks, "reps": tuple(spread(v) for v in lay.flat_bases("reps"))}, _out_list(L))


@functools.lru_cache(maxsize=4096)
def _warp_broadcast(L: LinearLayout) -> bool:
    """Whether some warp holds a copy of another's data (a free ``warp`` bit); remembered per layout."""
    return L.free_variable_masks().get("warp", 0) != 0


def clear_side_caches() -> None:
    """Forget the per-layout facts of round-trip sides this module remembers (for benchmarks;
    part of :func:`linlayout.plan.clear_caches`)."""
    for f in (_shared_side, _one_cta, _warp_broadcast, _cta_local):
        f.cache_clear()
