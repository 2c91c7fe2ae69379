"""CuTe ``Swizzle<B, M, S>`` and ``ComposedLayout`` (swizzle o offset o layout).

``Swizzle(B, M, S)`` is the core's :class:`linlayout.swizzle.Swizzle` (one class for every
spelling): it XORs the ``B`` bits found ``S`` positions above bit ``M`` into the ``B`` bits at
``M``.  CuTe requires ``|S| >= B``; the swizzle is then an involution and linear over GF(2).

    >>> sw = Swizzle(3, 4, 3)
    >>> sw(0b1010000000), sw(sw(1234)) == 1234
    (720, True)
    >>> C = ComposedLayout(Swizzle(1, 0, 1), 0, Layout((2, 2), (1, 2)))
    >>> [C(i) for i in range(4)]
    [0, 1, 3, 2]
"""

from __future__ import annotations

from typing import Any, Union

import numpy as np

from linlayout.checks import expect
from linlayout.errors import LayoutError

from linlayout.swizzle import Swizzle

from . import memory_map
from .layout import MAX_INT, Layout, has_underscore, is_int

__all__ = ["Swizzle", "ComposedLayout"]

Outer = Union[Swizzle, Layout]

#: C++'s ``slice(coord, composed)``, set by :mod:`converters.cute.slicing` when it is imported (it
#: needs the algebra, a layer above this module, so this module cannot import it).
SLICER: list = []


class ComposedLayout(memory_map.MemoryMap):
    """``outer o offset o inner``: ``c -> outer(offset + inner(c))`` (CuTe ``ComposedLayout``).

    ``outer`` is usually a :class:`Swizzle`; a :class:`Layout` is accepted too (evaluated at the
    flat index), and either part may itself be a ``ComposedLayout`` (C++ nests them: composing two
    swizzled layouts gives ``Sw o 0 o (Sw' o 0 o L)``).  The domain is the inner layout's.  The
    text is the chain C++ prints, ``outer o offset o inner``, with a composed outer in parentheses
    (a chain reads right-nested: the same function either way).

    >>> C = ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
    >>> str(C), C.size(), C((2, 0))
    ('S<3,4,3> o 0 o (8,64):(64,1)', 512, 144)
    >>> N = ComposedLayout(Swizzle(1, 0, 1), 0, C)
    >>> str(N), N((2, 0)) == Swizzle(1, 0, 1)(C((2, 0)))
    ('S<1,0,1> o 0 o S<3,4,3> o 0 o (8,64):(64,1)', True)
    """

    __slots__ = ("outer", "offset", "inner")

    def __init__(self, outer: Outer, offset: int, inner: Any):
        if not isinstance(outer, (Swizzle, Layout, ComposedLayout)):
            raise LayoutError(f"ComposedLayout outer must be a Swizzle, a Layout or a ComposedLayout, got {outer!r}")
        if not isinstance(inner, (Layout, ComposedLayout)):
            raise LayoutError(f"ComposedLayout inner must be a Layout or a ComposedLayout, got {inner!r}")
        for part in (outer, inner):
            if isinstance(part, Layout) and part.is_basis():
                raise LayoutError(f"ComposedLayout needs offsets, but {part} has basis (v@i) strides")
        if not is_int(offset) or abs(offset) > MAX_INT:
            raise LayoutError(f"ComposedLayout offset must be an int of magnitude <= {MAX_INT}, got {offset!r}")
        self.outer = outer
        self.offset = offset
        self.inner = inner

    @property
    def shape(self):
        return self.inner.shape

    def size(self) -> int:
        """Size of the domain (the inner layout's)."""
        return self.inner.size()

    def rank(self) -> int:
        return self.inner.rank()

    def depth(self) -> int:
        return self.inner.depth()

    def cosize(self) -> int:
        """One more than the largest offset reached over the domain (0 for an empty domain, as
        :meth:`Layout.cosize` of a zero extent)."""
        t = self.table()
        return int(t.max()) + 1 if t.size else 0

    def __call__(self, *args: Any) -> Any:
        """Evaluate at a flat index or a natural coordinate; a coordinate holding ``_`` slices
        (:func:`converters.cute.slice`, C++'s ``layout(i, _)``)."""
        c = args[0] if len(args) == 1 else tuple(args)
        if type(c) is not int and has_underscore(c):
            if not SLICER:
                raise LayoutError("slicing a composed layout needs converters.cute.slicing (import converters.cute)")
            return SLICER[0](c, self)
        return self.outer(self.offset + self.inner(*args))

    def table(self) -> np.ndarray:
        """Offsets of every flat index, vectorized (int64)."""
        t = self.inner.table().astype(np.int64) + self.offset  # the inner table's dtype is the smallest that fits
        if isinstance(self.outer, Swizzle):
            return self.outer(t)
        return evaluate_at(self.outer, t)

    def chain(self) -> list:
        """The parts and offsets as C++ prints them, nesting flattened: ``[part, offset, part,
        offset, ..., layout]`` (two composed layouts with equal chains compute the same function).

            >>> ComposedLayout(ComposedLayout(Swizzle(1, 0, 1), 0, Layout(8)), 2, Layout(4)).chain()
            [Swizzle(1, 0, 1), 0, Layout(8:1), 2, Layout(4:1)]
        """
        out: list = []
        for part in (self.outer, self.offset, self.inner):
            out += part.chain() if isinstance(part, ComposedLayout) else [part]
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ComposedLayout):
            return NotImplemented
        return (self.outer, self.offset, self.inner) == (other.outer, other.offset, other.inner)

    def __hash__(self) -> int:
        return hash(("ComposedLayout", self.outer, self.offset, self.inner))

    def __str__(self) -> str:
        o = self.outer
        outer = f"S<{o.bits},{o.base},{o.shift}>" if isinstance(o, Swizzle) else f"({o})" if isinstance(o, ComposedLayout) else str(o)
        return f"{outer} o {self.offset} o {self.inner}"

    def __repr__(self) -> str:
        return f"ComposedLayout({self})"

    def to_cpp(self) -> str:
        """C++ print form, e.g. ``Sw<3,4,3> o _0 o (_8,_64):(_64,_1)``."""
        outer = self.outer
        o = f"Sw<{outer.bits},{outer.base},{outer.shift}>" if isinstance(outer, Swizzle) else outer.to_cpp()
        return f"{o} o _{self.offset} o {self.inner.to_cpp()}"

    def same_function(self, other: Any) -> bool:
        """True when both have the same size and agree on every flat index."""
        other = expect(other, memory_map.MemoryMap, "same_function: other")
        return self.size() == other.size() and bool(np.array_equal(self.table(), other.table()))



def evaluate_at(L: Any, idx: np.ndarray) -> np.ndarray:
    """``L`` (a Layout, or a composed layout) at every flat index of the integer array ``idx``
    (vectorised)."""
    if isinstance(L, ComposedLayout):
        t = evaluate_at(L.inner, idx) + L.offset
        return L.outer(t) if isinstance(L.outer, Swizzle) else evaluate_at(L.outer, t)
    out = np.zeros_like(idx)
    c = idx.copy()
    fs, fd = L._fs, L._fd
    last = len(fs) - 1
    for k, (s, d) in enumerate(zip(fs, fd)):
        if k == last:
            out += c * d
        else:
            m = np.fmod(c, s)  # C++'s divmod truncates toward zero (a negative index: digits <= 0)
            out += m * d
            c = (c - m) // s
    return out
