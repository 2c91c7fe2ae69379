"""From a :class:`~linlayout.LinearLayout` back to CuTe.

:func:`from_linear` takes the contract's linear form (hardware -> coordinates) and gives a CuTe
spelling of the same kind: a shared-memory (or memory) layout ``offset -> dim0, dim1, ...``
becomes the CuTe memory layout whose coordinate -> offset map is its inverse (with a swizzle when
one is needed); a distributed layout becomes its thread-value layout
(:class:`~converters.cute.tv.TVLayout`); a tensor-memory layout ``row, col -> dim0, dim1`` its
UMMA fragment (:class:`~converters.cute.tmem.TmemLayout`, addresses of 32-bit values).

:func:`from_offset_map` takes CuTe's own direction (coordinates -> offset, as
:func:`~converters.cute.memory_map.offset_map` gives) and finds a layout with one top-level mode
per in-dim (every basis a distinct power of two or zero), or ``Swizzle o 0 o layout`` when a
swizzle makes it one.

    >>> from converters.cute import parse, to_linear
    >>> from_linear(to_linear(parse("S<3,3,3> o 0 o (8,64):(64,1)")))
    ComposedLayout(S<3,3,3> o 0 o (8,64):(64,1))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional, Union

from linlayout.contract import Kind, kind_of_linear
from linlayout.errors import LayoutError, UnsupportedError
from linlayout.linear import LinearLayout

from .layout import E, Layout, _layout_from_bases, _pow2_or_zero
from .memory_map import offset_map  # noqa: F401 (the doctests of from_offset_map use it)
from .swizzle import ComposedLayout, Swizzle
from .tmem import TmemLayout
from .tv import TVLayout

__all__ = ["from_linear", "from_offset_map", "basis_from_linear"]

CuteLayout = Union[Layout, ComposedLayout]


def from_linear(L: Any, *, basis: bool = False) -> Any:
    """A CuTe spelling of a linear layout of the contract's direction, of the same kind (see the
    module docstring); :class:`~linlayout.errors.UnsupportedError` when CuTe has none.

    A memory layout ``offset -> dim0, dim1, ...`` is spelled as the layout whose coordinate ->
    offset map is its inverse; with ``basis=True``, or when it has no inverse (a broadcast, or
    offsets that leave coordinates out), as the basis-stride layout that *is* the map
    (:func:`basis_from_linear`, CuTe's ``E<i>`` strides).

        >>> from linlayout import LinearLayout
        >>> from_linear(LinearLayout({"offset": [[0, 1], [1, 0]]}, {"dim0": 2, "dim1": 2}))
        Layout((2,2):(2,1))
        >>> from_linear(LinearLayout({"offset": [[0, 1], [1, 0]]}, {"dim0": 2, "dim1": 2}), basis=True)
        Layout((2,2):(1@1,1@0))
    """
    if not isinstance(L, LinearLayout):
        raise LayoutError(f"from_linear expects a LinearLayout, got {type(L).__name__}")
    kind = kind_of_linear(L)
    if kind is Kind.SHARED:
        if L.in_dim_size("block") > 1 if "block" in L.in_dims else False:
            raise UnsupportedError("CuTe has no spelling of a shared layout over several CTAs (in-dim block)")
        if basis or (not L.is_invertible() and list(L.in_dims) == ["offset"]):
            return basis_from_linear(L)
        if not L.is_invertible():
            raise UnsupportedError(
                "this shared layout is not a bijection between offsets and coordinates, so no CuTe "
                "layout (coordinates -> offset) spells it"
            )
        inv = L.sublayout(["offset"], L.out_dim_names).invert()
        return from_offset_map(inv)
    if kind is Kind.DISTRIBUTED:
        return TVLayout.from_linear(L)
    if kind is Kind.TENSOR_MEMORY:
        return TmemLayout.from_linear(L)
    names = ", ".join(L.in_dim_names)
    raise UnsupportedError(f"CuTe has no spelling of a{'n' if kind.value[0] in 'aeiou' else ''} {kind.value} layout (in-dims {names})")


def basis_from_linear(L: LinearLayout) -> Layout:
    """The basis-stride layout (CuTe's ``E<i>`` scaled bases) computing ``L``, a linear layout
    ``offset -> dim0, dim1, ...``: each offset bit becomes an extent-2 mode whose stride is its
    image, ``v@i`` on the one coordinate it moves (0 when it moves none); adjacent bits that
    continue one another merge.  Its :meth:`~converters.cute.Layout.to_linear` gives ``L`` back.

        >>> from converters.cute import parse
        >>> basis_from_linear(parse("(4,8):(1@1,1@0)").to_linear())
        Layout((4,8):(1@1,1@0))
        >>> basis_from_linear(parse("(2,2):(4@0,0)").to_linear())
        Layout((2,2):(4@0,0))
    """
    if not isinstance(L, LinearLayout):
        raise LayoutError(f"basis_from_linear expects a LinearLayout, got {type(L).__name__}")
    if list(L.in_dims) != ["offset"]:
        raise UnsupportedError(f"a basis-stride layout spells a map from one in-dim 'offset'; this one has in-dims {', '.join(L.in_dims) or 'none'}")
    outs = L.out_dim_names
    shape: list[int] = []
    stride: list[Any] = []
    for vec in L.bases["offset"]:
        hit = [(i, v) for i, v in enumerate(vec) if v]
        if len(hit) > 1:
            raise UnsupportedError(f"the offset basis {tuple(vec)} moves {len(hit)} coordinates at once ({', '.join(outs[i] for i, _ in hit)}); "
                                   "a basis stride v@i moves one")
        d: Any = E(hit[0][1], hit[0][0]) if hit else 0
        if shape and stride[-1] != 0 and d != 0 and stride[-1] * shape[-1] == d:
            shape[-1] *= 2
            continue
        shape.append(2)
        stride.append(d)
    if not shape:
        return Layout(1, E(0, 0) if outs else 0)
    if len(shape) == 1:
        return Layout(shape[0], stride[0])
    return Layout(tuple(shape), tuple(stride))


def from_offset_map(LL: Any, *, swizzle: bool = True) -> CuteLayout:
    """A CuTe layout computing the same coordinate -> offset map as a
    :class:`~linlayout.LinearLayout` (CuTe's direction; the inverse of :func:`from_linear`'s input).

    One top-level mode per in-dim (in order); several out-dims are flattened into one offset
    (the first out-dim in the lowest bits, column-major).  When some basis is not a power of two
    (or two bases share a bit) and ``swizzle`` is true, a ``Swizzle`` is searched whose
    application turns every basis into a distinct power of two (or zero): the result is then
    ``Swizzle o 0 o layout``.  Raises :class:`~linlayout.errors.UnsupportedError` when none exists.

    >>> from converters.cute import parse
    >>> from_offset_map(offset_map(parse("((2,2),8):((1,16),2)")))
    Layout(((2,2),8):((1,16),2))
    >>> from_offset_map(offset_map(parse("S<2,2,3> o 0 o (8,32):(32,1)")))
    ComposedLayout(S<2,2,3> o 0 o (8,32):(32,1))
    """
    if not isinstance(LL, LinearLayout):
        raise LayoutError(f"from_offset_map expects a LinearLayout, got {type(LL).__name__}")
    if LL.num_out_dims > 1:
        LL = LL.flatten_outs()
    names = LL.in_dim_names
    out = LL.out_dim_names[0] if LL.out_dim_names else None
    per_dim = [[b[0] for b in LL.bases[n]] if out is not None else [0] * len(LL.bases[n]) for n in names]
    if not names:
        return Layout(1, 0)
    lay = _layout_from_bases(names, per_dim)
    if lay is not None:
        return lay
    if swizzle:
        nbits = max((b.bit_length() for m in per_dim for b in m), default=0)
        for sw in _swizzle_candidates(nbits):
            lay = _layout_from_bases(names, [[sw(b) for b in m] for m in per_dim])
            if lay is not None:
                return ComposedLayout(sw, 0, lay)
    bad = [(n, i, b) for n, m in zip(names, per_dim) for i, b in enumerate(m) if not _pow2_or_zero(b)]
    what = f"basis {bad[0][1]} of in-dim {bad[0][0]!r} is {bad[0][2]}, not a power of two" if bad else "two bases share a bit"
    raise UnsupportedError(
        f"no CuTe layout{' or swizzle o layout' if swizzle else ''} computes this LinearLayout: {what}"
    )


def _swizzle_candidates(nbits: int):
    # all Swizzle<B,M,S> (B >= 1) acting inside the low nbits bits, the common ones first
    out = []
    for B in range(1, nbits + 1):
        for S in list(range(B, nbits + 1)) + list(range(-nbits, -B + 1)):
            for M in range(0, nbits + 1):
                hi = M + max(0, S) + B
                lo = M - min(0, S) + B
                if hi <= nbits and lo <= nbits:
                    out.append(Swizzle(B, M, S))
    out.sort(key=lambda s: (s.shift < 0, -s.bits, s.base, s.shift))
    return out
