"""Are two spellings the same layout?  A yes/no with a counterexample, over every form.

:func:`equivalent` accepts a :class:`~linlayout.LinearLayout`, a
:class:`~linlayout.MixedRadixLayout`, or any object with ``to_linear(shape)`` (Gluon, CuTe,
TileLayout, Tilus) or ``to_general(shape)`` (non-power-of-two layouts).  When both sides are linear
the answer comes from their bases (the canonical form of a linear map), never from enumerating
points; otherwise both sides are compared as mixed-radix maps.

    >>> from linlayout import LinearLayout
    >>> a = LinearLayout({"register": [[1], [2]], "lane": [[4], [8]]}, {"dim0": 16})
    >>> b = LinearLayout({"register": [[2], [1]], "lane": [[4], [8]]}, {"dim0": 16})
    >>> e = equivalent(a, b)
    >>> bool(e), e.relation
    (False, 'same up to register order')
    >>> print(e.counterexample)
    at {'register': 1}: {'dim0': 1} != {'dim0': 2} (base)
    >>> bool(equivalent(a, a)), equivalent(a, a).relation
    (True, 'identical')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .contract import as_layout
from .errors import LayoutError
from .mixed_radix import Counterexample, MixedRadixLayout
from .linear import LinearLayout
from .locality import is_register_only

__all__ = ["Equivalence", "equivalent", "RELATIONS"]

RELATIONS = ("identical", "same up to register order", "different")
_HW = ("register", "lane", "warp", "block")


@dataclass(frozen=True)
class Equivalence:
    """The answer of :func:`equivalent`.

    Truthy exactly when ``relation == "identical"`` (the same map).  ``"same up to register
    order"`` means the layouts differ only in which register of a thread holds an element: a
    zero-cost conversion (``zero_cost`` is True).  ``counterexample`` is an input where the two
    maps differ, with both outputs (None when identical, or when the layouts do not even cover
    the same tensor; ``reason`` then says why).  ``method`` says how the answer was found:
    ``"linear"`` (from the bases), ``"general"`` (mixed-radix maps) or ``"memory map"`` (two memory
    layouts without a hardware -> coordinates form, such as padded shared layouts, compared by
    their coordinates -> offset maps).
    """

    relation: str
    counterexample: Counterexample | None = None
    reason: str = ""
    method: str = "linear"

    def __bool__(self) -> bool:
        return self.relation == "identical"

    @property
    def zero_cost(self) -> bool:
        """Whether converting one into the other moves no data between threads."""
        return self.relation != "different"

    def __str__(self) -> str:
        s = self.relation
        if self.reason:
            s += f": {self.reason}"
        if self.counterexample is not None:
            s += f"; counterexample {self.counterexample}"
        return s


def _squeeze(L: LinearLayout) -> LinearLayout:
    keep = [n for n in L.in_dim_names if L.in_dim_size(n) > 1]
    if len(keep) == len(L.in_dim_names):
        return L
    return L.sublayout(keep, L.out_dim_names)


def _squeeze_general(g: MixedRadixLayout) -> MixedRadixLayout:
    """``g`` without its in-dims of size 1 (they map only 0, so they change no image; a size-1
    in-dim on one side only must not make two equal maps "different")."""
    keep = {n: dl for n, dl in g.digits.items() if g.in_dims[n] > 1}
    if len(keep) == len(g.in_dim_names):
        return g
    return MixedRadixLayout(keep, g.replicas, g.offset, g.out_dims)


def _linear(a: LinearLayout, b: LinearLayout) -> Equivalence:
    a, b = _squeeze(a), _squeeze(b)
    oa = {n: a.out_dim_size(n) for n in a.out_dim_names if a.out_dim_size(n) > 1}
    ob = {n: b.out_dim_size(n) for n in b.out_dim_names if b.out_dim_size(n) > 1}
    if oa != ob:
        return Equivalence("different", None, f"they cover different tensors: {oa} vs {ob}")
    outs = list(oa)
    a = a.sublayout(a.in_dim_names, outs) if list(a.out_dim_names) != outs else a
    b = b.sublayout(b.in_dim_names, outs) if len(b.out_dim_names) != len(outs) else b
    if list(b.out_dim_names) != outs:
        b = b.transpose_outs(outs)
    ba, bb = a.bases, b.bases
    names = list(a.in_dim_names) + [n for n in b.in_dim_names if n not in ba]
    first: Counterexample | None = None
    for n in names:
        xa, xb = ba.get(n, ()), bb.get(n, ())
        for i in range(max(len(xa), len(xb))):
            va = xa[i] if i < len(xa) else None
            vb = xb[i] if i < len(xb) else None
            if va != vb:
                point = {n: 1 << i}
                left = dict(zip(outs, va)) if va is not None else None
                right = dict(zip(outs, vb)) if vb is not None else None
                why = "base" if va is not None and vb is not None else "outside the other layout's inputs"
                first = Counterexample(point, left, right, why)
                break
        if first is not None:
            break
    if first is None:
        return Equivalence("identical")
    if set(names) <= set(_HW):
        nb = b.transpose_outs(a.out_dim_names) if set(b.out_dim_names) == set(a.out_dim_names) else b
        if is_register_only(a, nb) and is_register_only(nb, a):
            return Equivalence("same up to register order", first, "a register permutation converts one into the other")
    return Equivalence("different", first)


def equivalent(a: Any, b: Any, *, shape: Sequence[int] | None = None) -> Equivalence:
    """Compare two layouts of any form; see :class:`Equivalence`.

    ``shape`` is the tensor shape for forms that need one (``to_linear(shape)``).  In-dims of
    size 1 and out-dims of size 1 are ignored; the order of dims does not matter.

        >>> from linlayout import LinearLayout, MixedRadixLayout
        >>> L = LinearLayout.identity_1d(8, "x", "m")
        >>> equivalent(L, MixedRadixLayout({"x": [(8, 1, "m")]})).relation
        'identical'
        >>> e = equivalent(L, LinearLayout({"x": [[2], [1], [4]]}, {"m": 8}))
        >>> e.relation, e.counterexample.point
        ('different', {'x': 1})

    Raises:
        LayoutError: a side cannot be read as a layout, or comparing them passes a limit of
            :mod:`linlayout.limits` (a refusal, never the answer "different").
    """
    try:
        fa, fb = as_layout(a, shape), as_layout(b, shape)
    except LayoutError as e:
        try:
            maps = _memory_maps(a, b, shape)
        except LayoutError:
            maps = None
        if maps is None:
            raise e from None
        return _general(*maps, "memory map")
    if isinstance(fa, LinearLayout) and isinstance(fb, LinearLayout):
        return _linear(fa, fb)
    ga = fa if isinstance(fa, MixedRadixLayout) else MixedRadixLayout.from_linear(fa)
    gb = fb if isinstance(fb, MixedRadixLayout) else MixedRadixLayout.from_linear(fb)
    return _general(ga, gb, "general")


def _memory_maps(a: Any, b: Any, shape: Sequence[int] | None) -> tuple[MixedRadixLayout, MixedRadixLayout] | None:
    """Both sides' memory maps (coordinates -> offset, ``offset_general(shape)``), when both are
    memory layouts with one and at least one of them has no hardware -> coordinates form (a padded
    shared layout, a CuTe layout that is not a bijection).  Equal memory maps are the same layout,
    so comparing them answers the question in the other direction.  ``None`` otherwise."""
    ma, mb = getattr(a, "offset_general", None), getattr(b, "offset_general", None)
    if not (callable(ma) and callable(mb)):
        return None
    return ma(shape), mb(shape)


def _general(ga: MixedRadixLayout, gb: MixedRadixLayout, method: str) -> Equivalence:
    ga, gb = _squeeze_general(ga), _squeeze_general(gb)
    ia, ib = ga.in_dims, gb.in_dims
    if ia != ib:
        return Equivalence("different", None, f"their inputs differ: {ia} vs {ib}", method)
    # the in-dims agree now, so any LayoutError (a size limit, an unsupported form) is a
    # refusal and propagates: a limit must never be answered as "different"
    c = ga.counterexample(gb)
    if c is None:
        return Equivalence("identical", None, "", method)
    return Equivalence("different", c, "", method)
