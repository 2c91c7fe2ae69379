"""Layout queries of CuTe C++ (``layout.hpp``, ``layout_composed.hpp``, ``swizzle_layout.hpp``,
``swizzle.hpp``): :func:`nullspace`, :func:`domain_distribute`, :func:`max_alignment`.

    >>> from converters.cute import Layout, Swizzle
    >>> nullspace(Layout((2, 2, 2), (1, 0, 2)))
    Layout(2:2)
    >>> domain_distribute(((64, 3), (8, 8)), 128)
    Layout((64,2):(1,192))
    >>> max_alignment(Swizzle(3, 4, 3)), max_alignment(Layout((4, 8), (1, 4)))
    (16, 32)
"""

from __future__ import annotations

from typing import Any

from linlayout.errors import SizeError, UnsupportedError

from .inttuple import _check
from .layout import IntTupleError, IntTuple, Layout, compact_col_major, flatten, is_int, product
from .mixedbits import MixedBits
from .swizzle import ComposedLayout, Swizzle

__all__ = ["nullspace", "domain_distribute", "max_alignment"]


def _trunc(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _cmod(a: int, b: int) -> int:
    return a - _trunc(a, b) * b


def cpp_gcd(t: int, u: int) -> int:
    """``cute::gcd(t, u)``: Euclid's algorithm with C++'s truncating ``%`` (so a negative
    argument can give a negative answer, as in C++).

    >>> cpp_gcd(12, 18), cpp_gcd(0, 5), cpp_gcd(8, 0)
    (6, 5, 8)
    """
    while True:
        if t == 0:
            return u
        u = _cmod(u, t)
        if u == 0:
            return t
        t = _cmod(t, u)


def nullspace(layout: Any) -> Layout:
    """The layout of the coordinates a layout sends to 0 through its stride-0 modes (C++
    ``nullspace``): one mode per stride-0 leaf, its extent, with the leaf's stride in the compact
    column-major layout of the flat shape, so ``layout(nullspace(layout)(i)) == 0`` for every
    ``i`` and its size is ``size(layout) / size(filter(layout))``.  No stride-0 leaf gives ``1:0``;
    a :class:`ComposedLayout` gives ``1:0`` too (C++ does not attempt it).

    >>> nullspace(Layout((7, 5, 16), (3, 1, 0)))
    Layout(16:35)
    >>> nullspace(Layout((2, 2, 2), (0, 0, 0))), nullspace(Layout((4, 8), (8, 1)))
    (Layout((2,2,2):(1,2,4)), Layout(1:0))
    """
    if isinstance(layout, ComposedLayout):
        return Layout(1, 0)
    if not isinstance(layout, Layout):
        raise IntTupleError(f"nullspace expects a Layout, got {type(layout).__name__} {layout!r}")
    fs, fd = layout.flat_shape(), layout.flat_stride()
    zeros = [i for i, d in enumerate(fd) if is_int(d) and d == 0]
    if not zeros:
        return Layout(1, 0)
    rstride = flatten(compact_col_major(fs, static=True))
    shape = tuple(fs[i] for i in zeros)
    stride = tuple(rstride[i] for i in zeros)
    if len(zeros) == 1:  # C++ unwrap: a single mode is integral
        return Layout(shape[0], stride[0])
    return Layout(shape, stride)


def domain_distribute(a: IntTuple, b: int) -> Layout:
    """Distribute ``b`` (a static integer) over the flat modes of the shape ``a``, left to right,
    each taking ``gcd`` of its extent and what is left (C++ ``domain_distribute``): the result,
    coalesced, has strides of the compact column-major layout of ``a``'s flat shape, so its values
    are increasing offsets of that layout; ``b`` is divided by its size and ``a`` by it.

    >>> domain_distribute((192, (8, 8)), 128)
    Layout((64,2):(1,192))
    >>> domain_distribute(((64, 3), (8, 8)), 1024)
    Layout((64,16):(1,192))
    """
    from .algebra import coalesce

    if isinstance(a, Layout):
        a = a.shape
    _check(a, "domain_distribute: a")
    if isinstance(b, Layout):
        b = b.size()
    if not is_int(b):
        raise IntTupleError(f"domain_distribute: b is an integer (C++: is_integral<ShapeB>), got {b!r}")
    fs = flatten(a)
    rest = b
    shape = []
    for s in fs:
        g = cpp_gcd(s, rest)
        if g == 0:
            raise SizeError(f"domain_distribute: gcd({s}, {rest}) is 0 (an extent 0 and nothing left of {b})")
        shape.append(g)
        rest = _trunc(rest, g)
    stride = flatten(compact_col_major(fs, static=True))
    L = Layout(tuple(shape), stride) if len(fs) != 1 or isinstance(a, tuple) else Layout(shape[0], stride[0])
    return coalesce(L)


def max_alignment(x: Any) -> int:
    """The largest power-of-two-like alignment C++'s ``max_alignment`` promises: for a swizzle
    ``Sw<B,M,S>`` ``2^M`` (the swizzle never moves the low ``M`` bits); for an integer itself; for a
    :class:`~converters.cute.mixedbits.MixedBits` the lowest bit it may hold; for a layout the
    ``gcd`` of the size and the next stride of ``logical_divide(L, right_inverse(L))`` (how many
    consecutive offsets it holds); for ``Sw o off o L`` the ``gcd`` of the three; any other
    composed layout 1 (C++ does not attempt it).

    >>> max_alignment(Layout((8, 4), (4, 1))), max_alignment(Layout(8, 2)), max_alignment(Layout((4, 3), (1, 8)))
    (32, 1, 4)
    >>> from converters.cute import ComposedLayout
    >>> max_alignment(ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1))))
    16
    """
    if isinstance(x, Swizzle):
        return 1 << x.base
    if isinstance(x, MixedBits):
        return x.max_alignment()
    if is_int(x):
        return x
    if isinstance(x, ComposedLayout):
        if isinstance(x.outer, Swizzle):
            return cpp_gcd(cpp_gcd(max_alignment(x.outer), max_alignment(x.offset)), max_alignment(x.inner))
        return 1
    if isinstance(x, Layout):
        return _layout_alignment(x)
    raise IntTupleError(f"max_alignment expects a Layout, a ComposedLayout, a Swizzle, a MixedBits or an int, got {type(x).__name__} {x!r}")


def _layout_alignment(layout: Layout) -> int:
    from .algebra import coalesce, logical_divide, right_inverse

    layout._need_offsets("max_alignment")
    flat = coalesce(layout)
    permuted = logical_divide(flat, right_inverse(flat))
    d1 = permuted[1].stride
    if not is_int(d1):
        raise UnsupportedError(f"max_alignment: the rest mode {permuted[1]} of logical_divide({flat}, right_inverse) has several strides "
                               f"(C++'s gcd takes integers)")
    return cpp_gcd(product(permuted[0].shape), d1)
