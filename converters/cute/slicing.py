"""Slicing layouts with underscores (C++ ``layout.hpp``, ``layout_composed.hpp``,
``swizzle_layout.hpp``: ``slice``, ``dice``, ``slice_and_offset``).

A slicing coordinate holds :data:`~converters.cute.inttuple._` where a mode stays free and an
integer where it is fixed.  ``slice(c, L)`` is the layout of the free modes, ``dice(c, L)`` that of
the fixed ones, and ``slice_and_offset(c, L)`` the pair ``(slice(c, L), offset)`` with
``L(c') == offset + slice(c, L)(free part of c')`` for every ``c'`` matching ``c`` on the fixed
modes — how C++ slices a tensor (``tensor(i, _)``: the data pointer moves by the offset).
``L(i, _)`` (a coordinate with ``_``) is ``slice``.

A swizzled layout ``Sw o off o L`` is sliced as C++ does: where the free modes touch the swizzle's
``Y`` and ``Z`` bits both, the result stays swizzled (the fixed modes' swizzle bits move into the
composed offset); otherwise it *decays* to a plain layout (with the swizzle's effect folded into
its strides) and an offset.

    >>> from converters.cute import Layout, ComposedLayout, Swizzle, _, slice_and_offset
    >>> L = Layout((4, 8), (8, 1))
    >>> slice_and_offset((2, _), L)
    (Layout((8):(1)), 16)
    >>> S = ComposedLayout(Swizzle(3, 0, 3), 0, Layout((8, 8), (8, 1)))
    >>> sl, off = slice_and_offset((_, 5), S)      # decays: a plain layout and an offset
    >>> sl, off
    (Layout(((2,2,2)):((7,18,28))), 5)
    >>> all(S(i, 5) == off + sl(i) for i in range(8))
    True
    >>> T = ComposedLayout(Swizzle(2, 1, 3), 0, Layout(((2, 2, 2), (2, 2, 2)), ((32, 2, 8), (4, 1, 16))))
    >>> slice_and_offset((_, (1, 0, _)), T)        # stays swizzled: the fixed bits move into its offset
    (ComposedLayout(S<2,1,3> o 4 o ((2,2,2),2):((32,2,8),16)), 0)
"""

from __future__ import annotations

from typing import Any, Union

from linlayout.errors import SwizzleError, UnsupportedError

from . import swizzle as _swizzle_module
from .inttuple import _, _check, _filter, _text, has_underscore
from .layout import IntTupleError, Layout, is_int
from .swizzle import ComposedLayout, Swizzle

__all__ = ["slice", "dice", "slice_and_offset"]

Sliceable = Union[Layout, ComposedLayout]


def _zero(c: Any) -> Any:
    """The coordinate with ``_`` read as 0 (C++'s ``Underscore`` is an ``Int<0>``)."""
    if isinstance(c, tuple):
        return tuple(_zero(x) for x in c)
    return 0 if c is _ else c


def _coord(c: Any, who: str) -> Any:
    return _check(c, f"{who}: coordinate", under=True, negative=True)


def _layout_slice(c: Any, L: Layout) -> Layout:
    return Layout(_filter(c, L.shape, True, True), _filter(c, L.stride, True, True))


def _layout_dice(c: Any, L: Layout) -> Layout:
    return Layout(_filter(c, L.shape, False, True), _filter(c, L.stride, False, True))


def slice(coord: Any, layout: Sliceable) -> Sliceable:  # noqa: A001 - CuTe's name
    """The layout of the modes ``coord`` leaves free (:data:`_`), C++ ``slice(coord, layout)``:
    ``_`` keeps the whole layout, an integer keeps nothing (``():()``), a tuple keeps the free
    modes of each mode (flattened one level per nesting, as C++'s ``filter_tuple``).  A swizzled
    layout is sliced as :func:`slice_and_offset` does (its offset dropped: C++ ``get<0>``).

    >>> slice((2, _), Layout((4, 8), (8, 1)))
    Layout((8):(1))
    >>> slice(((_, 1), _), Layout(((2, 3), 4), ((1, 2), 6)))
    Layout((2,4):(1,6))
    """
    return slice_and_offset(coord, layout)[0]


def dice(coord: Any, layout: Layout) -> Layout:
    """The layout of the modes ``coord`` fixes (integers), C++ ``dice(coord, layout)``: the
    complement of :func:`slice` (an integer ``coord`` keeps the whole layout, ``_`` nothing).

    >>> dice((2, _), Layout((4, 8), (8, 1)))
    Layout((4):(8))
    >>> dice(((_, 1), _), Layout(((2, 3), 4), ((1, 2), 6)))
    Layout((3):(2))
    """
    c = _coord(coord, "dice")
    if not isinstance(layout, Layout):
        raise IntTupleError(f"dice expects a Layout, got {type(layout).__name__} {layout!r}")
    return _layout_dice(c, layout)


def slice_and_offset(coord: Any, layout: Sliceable) -> tuple[Sliceable, Any]:
    """``(slice(coord, layout), offset)``: the free modes' layout and the offset of the fixed ones,
    so that ``layout(c) == offset + sliced(free part of c)`` (C++ ``slice_and_offset``; the offset
    is ``layout(coord)`` with ``_`` read as 0).

    A :class:`ComposedLayout` keeps its outer part and takes the offset into its own
    (``(outer o (off + o) o slice, 0)``), except a swizzled one (``Sw o off o L``), which follows
    C++'s ``swizzle_layout.hpp``: all-underscore coordinates reshape; if the free modes reach a
    ``Y`` bit and its paired ``Z`` bit the result stays swizzled (``Sw o off' o slice``, with the
    fixed modes' swizzle bits XORed into ``off'`` and their other bits the returned offset); else
    it decays to a plain layout whose strides carry the swizzle, and an offset.  As in C++, the
    composed layout's own offset is combined with the fixed modes' bits by XOR, so the law above
    holds when that offset does not carry into the modes' bits (an offset of 0, or bits apart:
    what slicing produces); otherwise the answer is still C++'s (tests/test_cute_inttuple.py).

    >>> slice_and_offset((1, _), Layout((4, 8), (8, 1)))
    (Layout((8):(1)), 8)
    >>> slice_and_offset((_, 3), ComposedLayout(Swizzle(3, 0, 3), 0, Layout((8, 8), (8, 1))))
    (Layout(((4,2)):((7,36))), 3)
    """
    c = _coord(coord, "slice_and_offset")
    if isinstance(layout, Layout):
        return _layout_slice(c, layout), layout.crd2idx(_zero(c))
    if isinstance(layout, ComposedLayout):
        if isinstance(layout.outer, Swizzle):
            return _swizzle_slice(c, layout)
        sl, off = slice_and_offset(c, layout.inner)
        return ComposedLayout(layout.outer, _offset(layout.offset + off), sl), 0
    raise IntTupleError(f"slice_and_offset expects a Layout or a ComposedLayout, got {type(layout).__name__} {layout!r}")


def _offset(o: Any) -> int:
    if not is_int(o):
        raise UnsupportedError(f"slicing a composed layout: its inner layout's offset {o!r} is not an integer (basis strides?)")
    return o


def _all_underscore(c: Any) -> bool:
    if isinstance(c, tuple):
        return all(_all_underscore(x) for x in c)
    return c is _


def _mixed_bits(shape: Any, stride: Any, crd: Any) -> int:
    """C++ ``to_mixed_bits(shape, stride, coord)`` with static values: the XOR of each leaf's
    ``coord * stride`` (each leaf's span must be a power of two)."""
    if isinstance(shape, tuple):
        r = 0
        for s, d, x in zip(shape, stride, crd):
            r ^= _mixed_bits(s, d, x)
        return r
    span = shape * stride
    if span != 0 and (span < 0 or span & (span - 1)):
        raise SwizzleError(f"slicing a swizzled layout: the fixed mode {shape}:{stride} does not span a power of two "
                          f"(C++: 'Requires pow2 shape*stride.')")
    return (crd * stride) & ((shape - 1) * stride)


def _swizzle_slice(c: Any, layout: ComposedLayout) -> tuple[Sliceable, int]:
    from .algebra import composition

    sw = layout.outer
    assert isinstance(sw, Swizzle)
    inner = layout.inner
    if _all_underscore(c):  # C++: just reshape
        return ComposedLayout(sw, layout.offset, slice(c, inner)), 0
    if not isinstance(inner, Layout):  # C++ dices the inner layout, which a composed one cannot be
        raise UnsupportedError(f"slice_and_offset: slicing {layout} at {_text(c)}: a swizzle over a composed layout is sliced "
                               f"only along every mode (all underscores), as in C++")
    if not has_underscore(c):  # C++ composes the swizzle's projection with an empty layout: no make_layout()
        raise UnsupportedError(f"slice_and_offset: the coordinate {_text(c)} of the swizzled layout {layout} has no '_' "
                               f"(C++ does not compile this slice: evaluate the layout at the coordinate instead)")
    B, M, S = sw.bits, sw.base, abs(sw.shift)
    shape = (1 << M, 1 << B, 1 << (S - B), 1 << B, 1)
    anti_zy = Layout(shape, (1, 0, 1 << (M + B), 0, 1 << (M + B + S)))
    only_zy = Layout(shape, (0, 1 << M, 0, 1 << (M + S), 0))
    sliced = _layout_slice(c, inner)
    diced = _layout_dice(c, inner)
    diced_coord = _filter(c, c, False, True)
    diced_only_zy = composition(only_zy, diced)
    diced_anti_zy = composition(anti_zy, diced)
    natural = diced_only_zy.idx2crd(diced_coord)
    offset_only_zy = layout.offset ^ _mixed_bits(diced_only_zy.shape, diced_only_zy.stride, natural)
    offset_anti_zy = diced_anti_zy(diced_coord)
    sliced_only_zy = composition(only_zy, sliced)
    active = sliced_only_zy(sliced_only_zy.size() - 1)
    if active & ~sw(active):  # the free modes reach a Y bit and its Z bit: not reducible
        return ComposedLayout(sw, offset_only_zy, sliced), offset_anti_zy
    Z = sw.zzz_mask & -sw.zzz_mask
    Y = sw.yyy_mask & -sw.yyy_mask

    def strides(z_region: bool) -> tuple:
        out = []
        for i in range(B):
            if z_region:
                out.append(Z << i if (offset_only_zy & (Y << i)) == 0 else -(Z << i))
            else:
                out.append((Y + Z) << i if (offset_only_zy & (Z << i)) == 0 else (Y - Z) << i)
        return tuple(out)

    twos = (2,) * B
    decayed = Layout(
        (1 << M, twos, 1 << (S - B), twos, 1),
        (1, strides(Z < Y), 1 << (M + B), strides(Z > Y), 1 << (M + B + S)),
    )
    return composition(decayed, sliced), sw(offset_only_zy) + offset_anti_zy


_swizzle_module.SLICER[:] = [slice]
