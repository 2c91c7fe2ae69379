"""Where a conversion's data must travel: which hardware units (registers of a thread, lanes of a
warp, warps of a CTA, CTAs) a conversion between two distributed layouts stays within.

A conversion from ``src`` to ``dst`` stays within units along the ``local`` dims when every
element a unit holds in ``dst`` it already holds in ``src``.  That one test answers "is it free?"
(:func:`is_register_only`), "which mechanism at least?" (:func:`conversion_mechanism`), and, for
equivalence, "the same layout up to register order?" (:func:`register_order_key`).

    >>> a = LinearLayout({"register": [[1]], "lane": [[2], [4]], "warp": [[8]]}, {"dim0": 16})
    >>> c = LinearLayout({"register": [[1]], "lane": [[2], [8]], "warp": [[4]]}, {"dim0": 16})
    >>> conversion_mechanism(a, c)
    'shared_memory'
"""

from __future__ import annotations

import functools

from collections.abc import Sequence

from . import gf2
from .checks import expect
from .linear import LinearLayout

__all__ = ["THREAD_DIMS", "stays_within", "is_register_only", "conversion_mechanism", "register_order_key"]

#: The distributed in-dims above ``register``, fastest first.
THREAD_DIMS = ("lane", "warp", "block")
_DIMS = ("register",) + THREAD_DIMS


def register_order_key(L: LinearLayout) -> tuple:
    """A key equal for two distributed layouts exactly when every thread holds the same *set* of
    elements in both (they differ only in register order or register broadcast): the span of the
    register bases in reduced echelon form, and each lane/warp/block basis reduced modulo that span.

        >>> a = LinearLayout({"register": [[1], [2]], "lane": [[4], [8]]}, {"dim0": 16})
        >>> b = LinearLayout({"register": [[2], [1]], "lane": [[4], [8]]}, {"dim0": 16})
        >>> a == b, register_order_key(a) == register_order_key(b)
        (False, True)
    """
    expect(L, LinearLayout, "register_order_key: L")
    span = gf2.reduced_basis(L.flat_bases("register"))
    threads = tuple((d, L.in_dim_size(d) if L.has_in_dim(d) else 1, tuple(gf2.reduce_mod(v, span) for v in L.flat_bases(d))) for d in THREAD_DIMS)
    return (tuple(L.out_dims.items()), tuple(span), threads)


@functools.lru_cache(maxsize=4096)
def _local_echelon(src: LinearLayout, local: tuple[str, ...]) -> dict[int, int]:
    """An echelon basis of the span of ``src``'s ``local`` bases (leading bit -> vector; only
    read: membership by reduction), remembered per layout (a planner asks the same of one source
    against many destinations)."""
    lead: dict[int, int] = {}
    for d in local:
        for v in src.flat_bases(d):
            while v:
                w = lead.get(v.bit_length())
                if w is None:
                    lead[v.bit_length()] = v
                    break
                v ^= w
    return lead


def stays_within(src: LinearLayout, dst: LinearLayout, local: Sequence[str]) -> bool:
    """Whether every element a unit (fixed values of the non-``local`` in-dims) holds in ``dst``
    it already holds in ``src``: the span of ``dst``'s local bases lies in ``src``'s, and each other
    basis differs between the two by an element of that span (a broadcast of ``src`` along a
    non-local dim lets any copy be used).

    Layouts of different tensors (other out-dim names or sizes) hold different elements: False.
    The order of the out-dims does not matter (``dst`` is read in ``src``'s order): it changes
    how an element's coordinates are packed, not which element a unit holds.

        >>> a = LinearLayout({"register": [[1]], "lane": [[2], [4]]}, {"dim0": 8})
        >>> b = LinearLayout({"register": [[1]], "lane": [[4], [2]]}, {"dim0": 8})
        >>> stays_within(a, b, ("register",)), stays_within(a, b, ("register", "lane"))
        (False, True)
    """
    expect(src, LinearLayout, "stays_within: src")
    expect(dst, LinearLayout, "stays_within: dst")
    names = src.out_dim_names
    if dst.out_dim_names != names:
        if sorted(dst.out_dim_names) != sorted(names):
            return False
        dst = dst.transpose_outs(names)  # the same packing of coordinates as src's
    if src.out_dims != dst.out_dims:
        return False
    return _stays_within(src, dst, tuple(local))


def _stays_within(src: LinearLayout, dst: LinearLayout, local: tuple[str, ...]) -> bool:
    """:func:`stays_within` of layouts with the same out-dims in the same order (not checked:
    the planner's pairs are)."""
    lead = _local_echelon(src, local)

    def outside(v: int) -> bool:
        while v:
            w = lead.get(v.bit_length())
            if w is None:
                return True
            v ^= w
        return False

    for d in _DIMS:
        a = src.flat_bases(d)
        b = dst.flat_bases(d)
        if d in local:
            for v in b:
                if outside(v):
                    return False
        else:
            if len(a) != len(b):
                return False
            for x, y in zip(a, b):
                if x != y and outside(x ^ y):
                    return False
    return True


def is_register_only(src: LinearLayout, dst: LinearLayout) -> bool:
    """Whether converting from ``src`` to ``dst`` moves no data between threads: every element a
    thread holds in ``dst`` it already holds in ``src`` (a zero-cost register permutation/copy).

        >>> a = LinearLayout({"register": [[1], [2]], "lane": [[4], [8]]}, {"dim0": 16})
        >>> b = LinearLayout({"register": [[1]], "lane": [[4], [8]]}, {"dim0": 16}, require_surjective=False)
        >>> is_register_only(a, b), is_register_only(b, a)
        (True, False)
    """
    expect(src, LinearLayout, "is_register_only: src")
    expect(dst, LinearLayout, "is_register_only: dst")
    return stays_within(src, dst, ("register",))


def conversion_mechanism(src: LinearLayout, dst: LinearLayout) -> str:
    """The cheapest mechanism that can convert ``src`` to ``dst`` by where data must travel:
    ``noop`` (equal), ``register`` (within each thread), ``warp_shuffle`` (within each warp),
    ``shared_memory`` (within the CTA) or ``cross_cta``.  A quick estimate that needs no planner;
    :func:`linlayout.plan.plan_conversion` gives the full plan.

        >>> a = LinearLayout({"register": [[1]], "lane": [[2], [4]], "warp": [[8]]}, {"dim0": 16})
        >>> b = LinearLayout({"register": [[1]], "lane": [[4], [2]], "warp": [[8]]}, {"dim0": 16})
        >>> c = LinearLayout({"register": [[1]], "lane": [[2], [8]], "warp": [[4]]}, {"dim0": 16})
        >>> conversion_mechanism(a, a), conversion_mechanism(a, b), conversion_mechanism(a, c)
        ('noop', 'warp_shuffle', 'shared_memory')
    """
    expect(src, LinearLayout, "conversion_mechanism: src")
    expect(dst, LinearLayout, "conversion_mechanism: dst")
    if src.out_dim_names != dst.out_dim_names and set(src.out_dim_names) == set(dst.out_dim_names):
        dst = dst.transpose_outs(src.out_dim_names)  # the same tensor dims listed in another order
    if src == dst:
        return "noop"
    if stays_within(src, dst, ("register",)):
        return "register"
    if stays_within(src, dst, ("register", "lane")):
        return "warp_shuffle"
    if stays_within(src, dst, ("register", "lane", "warp")):
        return "shared_memory"
    return "cross_cta"
