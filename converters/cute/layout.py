"""CuTe ``Layout``: congruent nested shape and stride trees, evaluated colexicographically.

An *int-tuple* is an ``int`` or a (possibly nested) tuple of int-tuples.  A layout pairs a shape
and a stride of the same nesting (congruent trees); a natural coordinate ``c`` (congruent with the
shape) maps to ``sum(c_i * d_i)`` over the leaves.  A flat index is split into a coordinate
colexicographically (the first mode is the fastest), as CuTe does; the last mode is not reduced
modulo its extent, so a layout extends past its size along its last mode.  A negative index is
split as C++'s ``divmod`` splits it, truncating toward zero (its digits are those of ``-i``
negated, so ``L(-i) == -L(i)``).

    >>> L = Layout((4, 8), (8, 1))
    >>> L
    Layout((4,8):(8,1))
    >>> L(5), L((1, 1)), L.size(), L.cosize()
    (9, 9, 32, 32)
    >>> Layout(((2, 2), 3), ((24, 2), 8)).idx2crd(5)
    ((1, 0), 1)

A 1-tuple shape ``(4,)`` is kept apart from the integer ``4`` (CuTe prints them ``(4)`` and
``4``): both have rank 1, but the first has depth 1 and the second depth 0.
"""

from __future__ import annotations

import reprlib

import operator
from collections.abc import Sequence
from typing import Any, Iterator, Optional, Union, cast

import numpy as np

from linlayout.checks import as_bool, expect
from linlayout.errors import LayoutError, SizeError, UnsupportedError
from linlayout.tabulate import tabulate

from . import memory_map

__all__ = [
    "IntTuple",
    "E",
    "Layout",
    "make_layout",
    "flatten",
    "product",
    "is_int",
    "is_tuple",
    "compact_col_major",
    "MAX_INT",
    "MAX_DEPTH",
]

IntTuple = Union[int, tuple]

#: Largest absolute value of an extent or stride (keeps every offset inside int64).
MAX_INT = (1 << 62) - 1
#: Deepest nesting of shape/stride trees accepted anywhere (parser included).
MAX_DEPTH = 64
#: Largest size that vectorized evaluation will materialize.
MAX_TABLE_SIZE = 1 << 26


class Underscore:
    """CuTe's ``_`` (C++ ``Underscore``): in a coordinate, "every value of this mode".  A layout
    evaluated at a coordinate holding ``_`` is *sliced* (:func:`converters.cute.slice`): the modes
    at ``_`` are kept, the others fixed.  Elsewhere (an offset) it counts as 0, as C++'s
    ``Underscore`` is an ``Int<0>``.  There is one instance, :data:`_`; it prints as ``_``.

    >>> from converters.cute import Layout, _
    >>> Layout((4, 8), (8, 1))(2, _)
    Layout((8):(1))
    """

    __slots__ = ()
    _instance: "Underscore | None" = None

    def __new__(cls) -> "Underscore":
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "_"

    __str__ = __repr__

    def __reduce__(self) -> str:
        return "_"


#: The underscore of a slicing coordinate (C++ ``cute::_``).
_ = Underscore()


def has_underscore(c: Any) -> bool:
    """True when the coordinate ``c`` holds :data:`_` anywhere (C++ ``has_underscore``).

    >>> has_underscore((1, (_, 2))), has_underscore((1, 2))
    (True, False)
    """
    return _has_underscore(c, 0)


def _has_underscore(c: Any, depth: int) -> bool:
    if c is _:
        return True
    if isinstance(c, tuple):
        if depth >= MAX_DEPTH:
            raise IntTupleError(f"a coordinate nested deeper than {MAX_DEPTH} levels")
        return any(_has_underscore(x, depth + 1) for x in c)
    return False


def slice_modes(c: Any, t: Any, keep_under: bool, top: bool = True) -> Any:
    """The modes of ``t`` that the coordinate ``c`` pairs with ``_`` (``keep_under``: C++
    ``slice``) or with an integer (C++ ``dice``), each mode's kept modes concatenated (C++'s
    ``filter_tuple``); at the top ``slice(_, t)`` and ``dice(i, t)`` are ``t`` itself.

    >>> slice_modes((1, _), (4, 8), True), slice_modes(((_, 1), _), ((2, 3), 4), True)
    ((8,), (2, 4))
    """
    if isinstance(c, tuple):
        who = "slice" if keep_under else "dice"
        if not isinstance(t, tuple):
            raise RankError(f"{who}: the coordinate {format_coord(c)} is a tuple but {format_int_tuple(t)} is not")
        if len(c) != len(t):
            raise RankError(f"{who}: mismatched ranks: the coordinate {format_coord(c)} has {len(c)} modes, {format_int_tuple(t)} has {len(t)}")
        out: list = []
        for x, y in zip(c, t):
            out.extend(slice_modes(x, y, keep_under, False))
        return tuple(out)
    if not is_int(c) and c is not _:
        raise IntTupleError(f"a slicing coordinate holds ints and _, got {type(c).__name__} {c!r}")
    keep = (c is _) == keep_under
    if top:
        return t if keep else ()
    return (t,) if keep else ()


def format_coord(c: Any, cpp: bool = False) -> str:
    """The text of a coordinate, ``_`` included (C++'s print form with ``cpp``: ``(_1,_)``).

    >>> format_coord((1, _)), format_coord((1, _), cpp=True)
    ('(1,_)', '(_1,_)')
    """
    return _format_coord(c, as_bool(cpp, "format_coord", "cpp"), 0)


def _format_coord(c: Any, cpp: bool, depth: int) -> str:
    if isinstance(c, tuple):
        if depth >= MAX_DEPTH:  # (only a hostile argument, in an error message)
            return "(...)"
        return "(" + ",".join(_format_coord(x, cpp, depth + 1) for x in c) + ")"
    if c is _:
        return "_"
    return format_int_tuple(c, cpp)


class IntTupleError(LayoutError):
    """An argument of a CuTe function is not what it takes: not an int-tuple, not a coordinate
    (ints and ``_``), not a layout, or nested too deep."""


class RankError(LayoutError):
    """Two int-tuples (or a coordinate and a shape) are paired mode by mode but their ranks or
    nesting differ (C++'s ``static_assert`` "Mismatched Ranks")."""


class E:
    """CuTe's scaled basis stride ``v@i`` (C++ ``ScaledBasis<int, i>``, ``E<i>{} * v``): moving
    one step along a mode with this stride adds ``v`` to coordinate ``i`` of a multi-dimensional
    codomain (CuTe prints it ``_v@i``).  A layout with basis strides maps to coordinates, not
    offsets, e.g. the identity layout ``(4,8):(1@0,1@1)``.

    ``index`` may be a path into a nested codomain (C++ ``E<i, j, ...>``): ``E(1, (1, 1))`` is
    C++'s ``E<1,1>``, the coordinate ``(0, (0, 1))``; its text is C++'s, the indices innermost
    first (``1@1@1``; ``E(1, (0, 2))`` is ``1@2@0``).  ``path`` is the index as a tuple (``(i,)``
    for a flat one).  A layout with nested basis strides is evaluated and composed as in C++, but
    has no table or linear form (those take one flat codomain).

    >>> E(1, 0) * 3, 2 * E(4, 1), E(1, 0) * 3 == E(3, 0)
    (E(3@0), E(8@1), True)
    >>> E(2, (1, 0)), E(2, (1, 0)).path, E(1, (3,)) == E(1, 3)
    (E(2@0@1), (1, 0), True)
    """

    __slots__ = ("value", "index", "path")

    def __init__(self, value: int, index: Any):
        path = tuple(index) if isinstance(index, (tuple, list)) else (index,)
        if (not is_int(value) or abs(value) > MAX_INT or not path or len(path) > MAX_DEPTH
                or not all(is_int(i) and 0 <= i <= MAX_DEPTH for i in path)):
            raise LayoutError(f"a basis stride is v@i with an int v (|v| <= {MAX_INT}) and 0 <= i <= {MAX_DEPTH} "
                              f"(or a path of such i), got {value!r}@{index!r}")
        self.value = value
        self.path = path
        self.index = path[0] if len(path) == 1 else path

    def __mul__(self, k: Any) -> "E":
        if is_int(k):
            return E(self.value * k, self.path)
        return NotImplemented

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, E) and self.value == other.value and self.path == other.path

    def _no_offset(self, *_: Any) -> Any:
        raise LayoutError(
            f"the basis stride {self} is not an offset: a layout with basis (v@i) strides maps to coordinates "
            f"(use Layout.coord_table() or compose it), so this operation, which needs integer strides, does not apply"
        )

    __lt__ = __le__ = __gt__ = __ge__ = __abs__ = __add__ = __radd__ = __sub__ = __rsub__ = __neg__ = _no_offset
    __floordiv__ = __mod__ = __lshift__ = _no_offset

    def __hash__(self) -> int:
        return hash(("E", self.value, self.path))

    def __str__(self) -> str:
        return f"{self.value}" + "".join(f"@{i}" for i in reversed(self.path))

    def __repr__(self) -> str:
        return f"E({self})"


def is_int(x: Any) -> bool:
    """True for a plain integer (``bool`` excluded).

    >>> is_int(3), is_int((3,)), is_int(True)
    (True, False, False)
    """
    return type(x) is int or (isinstance(x, int) and not isinstance(x, bool))


def is_tuple(x: Any) -> bool:
    """True for a tuple (an int-tuple with modes).

    >>> is_tuple((1, 2)), is_tuple(1)
    (True, False)
    """
    return isinstance(x, tuple)


def flatten(t: IntTuple) -> tuple:
    """The leaves of an int-tuple, left to right.

    >>> flatten(((2, 2), 3))
    (2, 2, 3)
    >>> flatten(5)
    (5,)
    """
    if type(t) is not tuple:
        return (t,)
    for x in t:
        if type(x) is not int:
            break
    else:
        return t
    out: list = []
    _flatten_into(t, out)
    return tuple(out)


def _flatten_into(t: IntTuple, out: list) -> None:
    if isinstance(t, tuple):
        for x in t:
            _flatten_into(x, out)
    else:
        out.append(t)


def product(t: IntTuple) -> int:
    """Product of the leaves of an int-tuple (1 for an empty tuple).

    >>> product(((2, 2), 3))
    12
    """
    if type(t) is int:
        return t
    p = 1
    for x in flatten(t):
        p *= x
    return p


def ceil_div_tuple(a: IntTuple, b: int) -> IntTuple:
    """C++ ``ceil_div(tuple, int)``: each mode divided by what is left of ``b``, rounding up,
    left to right (``shape_div``'s fold with ceilings).

    >>> ceil_div_tuple((4, 7, 6), 16)     # size 12, not ceil(168 / 16) = 11
    (1, 2, 6)
    """
    if isinstance(a, tuple):
        out = []
        rest = b
        for ai in a:
            out.append(ceil_div_tuple(ai, rest))
            rest = -(-rest // product(ai))
        return tuple(out)
    return -(-a // b)


def compact_col_major(shape: IntTuple, start: int = 1, *, static: bool = False) -> IntTuple:
    """Column-major (first mode fastest) compact strides congruent with ``shape``: the exclusive
    prefix product (pycute's ``prefix_product``, C++'s ``compact_col_major`` on run-time integers).

    ``static=True`` gives C++'s answer for static integers (``Int<N>``, what this package models):
    an extent-1 mode gets the stride 0 (``stride.hpp``: ``if constexpr (is_constant<1, Shape>)
    return Int<0>``), so ``make_layout(Shape<_2,_1,_6>{})`` is ``(_2,_1,_6):(_1,_0,_2)``.  It is
    the default stride of :class:`Layout`.

    >>> compact_col_major(((2, 2), 3))
    ((1, 2), 4)
    >>> compact_col_major((2, 1, 6)), compact_col_major((2, 1, 6), static=True)
    ((1, 2, 2), (1, 0, 2))
    """
    cur = [start]

    def go(s: IntTuple) -> IntTuple:
        if isinstance(s, tuple):
            return tuple(go(x) for x in s)
        d = cur[0]
        cur[0] = d * s
        return 0 if static and s == 1 else d

    return go(shape)


def unflatten(flat: tuple | list, profile: IntTuple) -> IntTuple:
    """Rebuild a tree with the nesting of ``profile`` from its leaves.

    >>> unflatten([1, 2, 3], ((0, 0), 0))
    ((1, 2), 3)
    """
    it = iter(flat)

    def go(p: IntTuple) -> IntTuple:
        if isinstance(p, tuple):
            return tuple(go(x) for x in p)
        return next(it)

    return go(profile)


def depth_of(t: IntTuple) -> int:
    """Nesting depth: 0 for an int, 1 + max depth of the modes for a tuple.

    >>> depth_of(3), depth_of((3,)), depth_of(((2, 2), 3))
    (0, 1, 2)
    """
    if isinstance(t, tuple):
        return 1 + max((depth_of(x) for x in t), default=0)
    return 0


def _check_tree(shape: Any, stride: Any, where: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise LayoutError(f"layout nesting deeper than {MAX_DEPTH} levels at {where}")
    if isinstance(shape, tuple):
        if not isinstance(stride, tuple) or len(stride) != len(shape):
            raise LayoutError(
                f"shape and stride are not congruent at {where}: shape {format_int_tuple(shape)} vs stride {format_int_tuple(stride)}"
            )
        for i, (s, d) in enumerate(zip(shape, stride)):
            _check_tree(s, d, f"{where}[{i}]", depth + 1)
        return
    if not is_int(shape):
        raise LayoutError(f"shape at {where} must be an int or a tuple, got {type(shape).__name__} {shape!r}")
    if not is_int(stride) and not isinstance(stride, E):
        if isinstance(stride, tuple):
            raise LayoutError(
                f"shape and stride are not congruent at {where}: shape {format_int_tuple(shape)} vs stride {format_int_tuple(stride)}"
            )
        raise LayoutError(f"stride at {where} must be an int, got {type(stride).__name__} {stride!r}")
    if shape < 0:
        raise SizeError(f"extent at {where} must be >= 0, got {shape}")
    if shape > MAX_INT or (is_int(stride) and abs(stride) > MAX_INT):
        raise SizeError(f"extent or stride at {where} exceeds the bound {MAX_INT}: {shape}:{stride}")


def _normalize(t: Any, depth: int = 0) -> Any:
    # lists -> tuples, numpy ints -> ints
    if isinstance(t, (list, tuple)):
        if depth >= MAX_DEPTH:  # before Python's recursion limit (RecursionError at ~330 levels)
            raise LayoutError(f"layout nesting deeper than {MAX_DEPTH} levels")
        return tuple(_normalize(x, depth + 1) for x in t)
    if isinstance(t, (bool, np.bool_)):
        return t  # rejected by _check_tree
    try:
        return operator.index(t)
    except TypeError:
        return t


def format_int_tuple(t: Any, cpp: bool = False, _depth: int = 0) -> str:
    """CuTe's text of an int tuple (``(4,8)``; with ``cpp`` the static form ``(_4,_8)``).  A tuple
    nested deeper than :data:`MAX_DEPTH` (only a hostile argument, in an error message) is cut
    short as ``(...)`` instead of exhausting Python's recursion limit.

        >>> format_int_tuple(((2, 2), 3)), format_int_tuple((4, 8), cpp=True)
        ('((2,2),3)', '(_4,_8)')
    """
    if isinstance(t, tuple):
        if _depth >= MAX_DEPTH:
            return "(...)"
        return "(" + ",".join(format_int_tuple(x, cpp, _depth + 1) for x in t) + ")"
    return f"_{t}" if cpp else str(t)


class Layout(memory_map.MemoryMap):
    """A CuTe layout: a shape tree and a congruent stride tree.

    ``stride`` defaults to the compact column-major strides of ``shape`` as C++'s
    ``make_layout(shape)`` gives them for static extents (an extent-1 mode gets the stride 0,
    ``Layout((2, 1, 6))`` is ``(2,1,6):(1,0,2)``; pycute says ``(1,2,2)``).  Lists are accepted and
    stored as tuples.  Extents are non-negative (an extent 0 makes an empty layout, as CuTe's dynamic shapes allow);
    strides may be any integer (negative included).

    >>> Layout((4, 2))
    Layout((4,2):(1,4))
    >>> Layout(8, 2)(3)
    6
    >>> Layout(((2, 2), 3), ((24, 2), 8)).shape
    ((2, 2), 3)
    """

    __slots__ = ("shape", "stride", "_fs", "_fd", "_hash", "_basis")

    shape: IntTuple
    stride: IntTuple

    def __init__(self, shape: Any, stride: Any = None):
        shape = _normalize(shape)
        if stride is None:
            _check_tree(shape, compact_like(shape), "mode", 0)
            stride = compact_col_major(shape, static=True)
        else:
            stride = _normalize(stride)
        _check_tree(shape, stride, "mode", 0)
        self.shape = shape
        self.stride = stride
        self._fs = flatten(shape)
        self._fd = flatten(stride)
        self._hash: Optional[int] = None
        self._basis = _basis_of(self._fd, self)

    @classmethod
    def _new(cls, shape: IntTuple, stride: IntTuple, fs: tuple | None = None, fd: tuple | None = None) -> "Layout":
        """Unchecked constructor for trusted internal results."""
        self = object.__new__(cls)
        self.shape = shape
        self.stride = stride
        self._fs = flatten(shape) if fs is None else fs
        self._fd = flatten(stride) if fd is None else fd
        self._hash = None
        self._basis = None
        for d in self._fd:
            if type(d) is E:
                self._basis = _basis_of(self._fd, self)
                break
        return self

    # ----------------------------------------------------------------- structure
    def __len__(self) -> int:
        return len(self.shape) if isinstance(self.shape, tuple) else 1

    def rank(self) -> int:
        """Number of top-level modes (1 for an integral shape).

        >>> Layout(((2, 2), 3)).rank(), Layout(8).rank()
        (2, 1)
        """
        return len(self)

    def depth(self) -> int:
        """Nesting depth of the shape (0 for an integral shape).

        >>> Layout(((2, 2), 3)).depth(), Layout(8).depth()
        (2, 0)
        """
        return depth_of(self.shape)

    def __getitem__(self, i: int) -> "Layout":
        """Top-level mode ``i`` as a layout.

        >>> Layout((4, 8), (8, 1))[1]
        Layout(8:1)
        """
        if isinstance(self.shape, tuple):
            try:
                return Layout._new(self.shape[i], cast(tuple, self.stride)[i])
            except IndexError:
                raise LayoutError(f"mode {i} out of range for a rank-{len(self.shape)} layout {self}") from None
        if i not in (0, -1):
            raise LayoutError(f"mode {i} out of range for the rank-1 layout {self}")
        return self

    def modes(self) -> Iterator["Layout"]:
        """The top-level modes as layouts."""
        for i in range(len(self)):
            yield self[i]

    def flat_shape(self) -> tuple:
        """Leaves of the shape. ``>>> Layout(((2,2),3)).flat_shape()`` gives ``(2, 2, 3)``."""
        return self._fs

    def flat_stride(self) -> tuple:
        """Leaves of the stride."""
        return self._fd

    def size(self) -> int:
        """Size of the domain (product of the extents).

        >>> Layout((4, 8), (8, 1)).size()
        32
        """
        p = 1
        for s in self._fs:
            p *= s
        return p

    def cosize(self) -> int:
        """Size of the codomain as CuTe defines it: ``sum((s - 1) * |d|) + 1``.

        >>> Layout((4, 8), (8, 1)).cosize(), Layout(4, 0).cosize()
        (32, 1)
        """
        self._need_offsets("cosize")
        if 0 in self._fs:
            return 0
        return sum((s - 1) * abs(d) for s, d in zip(self._fs, self._fd)) + 1

    def is_basis(self) -> bool:
        """True when the strides are scaled bases ``v@i`` (the layout maps to coordinates).

        >>> Layout((4, 8), (E(1, 0), E(1, 1))).is_basis(), Layout(4).is_basis()
        (True, False)
        """
        return self._basis is not None

    def _nested_basis(self) -> bool:
        """True when a basis stride indexes a nested codomain (C++ ``E<i, j>``)."""
        return self._basis is not None and any(type(d) is E and len(d.path) > 1 for d in self._fd)

    def _need_flat_basis(self, what: str) -> None:
        if self._nested_basis():
            raise UnsupportedError(f"{what}: {self} has nested basis strides (a coordinate of a nested codomain, C++ E<i,j>); "
                                   f"only flat ones (v@i) have this form")

    def _need_offsets(self, what: str) -> None:
        if self._basis is not None:
            raise LayoutError(f"{what}: {self} has basis strides (it maps to coordinates, not offsets)")

    # ----------------------------------------------------------------- evaluation
    def __call__(self, *args: Any) -> Any:
        """Evaluate at a flat index (an int) or a natural coordinate (a tuple); a coordinate
        holding the underscore ``_`` (:data:`converters.cute._`) *slices* instead, as C++'s
        ``layout(i, _)``: the layout of the free modes (:func:`converters.cute.slice`).

        ``L(i, j)`` is the same as ``L((i, j))``.

        >>> L = Layout((4, 8), (8, 1))
        >>> L(5), L(1, 1), L(40)
        (9, 9, 10)
        >>> from converters.cute import _
        >>> L(1, _)
        Layout((8):(1))
        """
        c = args[0] if len(args) == 1 else tuple(args)
        try:
            return self.crd2idx(c)
        except LayoutError:  # (the evaluation refuses '_': only then look for one)
            if has_underscore(c):
                return Layout(slice_modes(c, self.shape, True), slice_modes(c, self.stride, True))
            raise

    def crd2idx(self, coord: IntTuple) -> int:
        """Offset of a coordinate: a flat index (int) or a (weakly) congruent coordinate.

        An integer given for a sub-tree indexes that sub-tree colexicographically.

        >>> L = Layout(((2, 2), 3), ((24, 2), 8))
        >>> L.crd2idx(((1, 1), 2)), L.crd2idx((3, 2)), L.crd2idx(11)
        (42, 42, 42)
        """
        if self._basis is not None:
            leaves = flatten(_idx2crd_tree(coord, self.shape, "coordinate"))
            if self._nested_basis():
                values: dict = {}
                for c, d in zip(leaves, self._fd):
                    if type(d) is E:
                        values[d.path] = values.get(d.path, 0) + c * d.value
                root = _codomain_profile([d.path for d in self._fd if type(d) is E], self)
                return cast(int, _nested_coordinate(root, values))
            out = [0] * self._basis
            for c, d in zip(leaves, self._fd):
                if type(d) is E:
                    out[d.path[0]] += c * d.value
            return cast(int, tuple(out))  # a coordinate, where a basis layout's codomain has several modes
        return _crd2idx(coord, self.shape, self.stride, "coordinate")

    def idx2crd(self, idx: IntTuple) -> IntTuple:
        """Natural coordinate (congruent with the shape) of a flat index or of a coordinate.

        As C++ ``idx2crd(idx, shape)``: an int is split colexicographically over the shape it
        meets (the last mode unreduced); a tuple goes mode by mode, so a partly flat coordinate
        such as ``(3, 2)`` for the shape ``((2, 2), 3)`` becomes ``((1, 1), 2)``.

        >>> Layout(((2, 2), 3)).idx2crd(7)
        ((1, 1), 1)
        >>> Layout(((2, 2), 3)).idx2crd((3, 2))
        ((1, 1), 2)
        """
        return _idx2crd_tree(idx, self.shape, "index")

    def table(self) -> np.ndarray:
        """Offsets of every flat index ``0 .. size-1``, vectorized: an outer sum of the modes
        written in place (:func:`linlayout.tabulate.tabulate`), in the smallest integer dtype that
        holds every offset (signed when a stride is negative; Python ints beyond 64 bits).

        >>> Layout((2, 3), (3, 1)).table().tolist()
        [0, 3, 1, 4, 2, 5]
        >>> Layout((2, 3), (3, 1)).table().dtype
        dtype('uint8')
        """
        n = self.size()
        if n > MAX_TABLE_SIZE:
            raise SizeError(f"layout of size {n} is too large to tabulate (limit {MAX_TABLE_SIZE})")
        if self._basis is not None:
            return self.coord_table()
        return _table(self._fs, self._fd, n)

    def coord_table(self) -> np.ndarray:
        """For basis strides: the coordinates of every flat index, an ``(size, k)`` array (``k`` =
        one more than the largest basis index) of the smallest integer dtype that holds them, all
        columns in one tabulation; integer strides give ``(size, 1)``.

        >>> Layout((2, 2), (E(1, 1), E(1, 0))).coord_table().tolist()
        [[0, 0], [0, 1], [1, 0], [1, 1]]
        """
        self._need_flat_basis("coord_table")
        n = self.size()
        if n > MAX_TABLE_SIZE:
            raise SizeError(f"layout of size {n} is too large to tabulate (limit {MAX_TABLE_SIZE})")
        k = self._basis if self._basis is not None else 1
        steps = []
        for sh, d in zip(self._fs, self._fd):
            v = [0] * k
            if type(d) is E:
                v[d.path[0]] = d.value
            else:
                v[0] = d
            steps.append((sh, v))
        return tabulate(steps, [0] * k)

    # ----------------------------------------------------------------- comparison, text
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self.shape == other.shape and self.stride == other.stride

    def __hash__(self) -> int:
        h: Optional[int] = self._hash
        if h is None:
            h = self._hash = hash((self.shape, self.stride))
        return h

    def __str__(self) -> str:
        return f"{format_int_tuple(self.shape)}:{format_int_tuple(self.stride)}"

    def __repr__(self) -> str:
        return f"Layout({self})"

    def to_cpp(self) -> str:
        """CuTe C++ print form with static integers.

        >>> Layout((4, 8), (8, 1)).to_cpp()
        '(_4,_8):(_8,_1)'
        """
        return f"{format_int_tuple(self.shape, True)}:{format_int_tuple(self.stride, True)}"

    def same_function(self, other: "Layout") -> bool:
        """True when both layouts have the same size and agree on every flat index.

        >>> Layout((4, 2), (1, 4)).same_function(Layout(8, 1))
        True
        """
        other = expect(other, memory_map.MemoryMap, "same_function: other")
        return self.size() == other.size() and bool(np.array_equal(self.table(), other.table()))

    # ----------------------------------------------------------------- bridges


def _basis_of(fd: tuple, layout: Any) -> Optional[int]:
    """``None`` for integer strides; for basis strides the codomain rank (largest index + 1).
    Non-zero integer strides cannot mix with basis strides (C++ cannot add them either)."""
    k = -1
    mixed = False
    nested = False
    for d in fd:
        if type(d) is E:
            if d.path[0] > k:
                k = d.path[0]
            nested = nested or len(d.path) > 1
        elif d != 0:
            mixed = True
    if k < 0:
        return None
    if mixed:
        raise LayoutError(f"layout {format_int_tuple(layout.shape)}:{format_int_tuple(layout.stride)} mixes integer and basis (v@i) strides")
    if nested:
        _codomain_profile([d.path for d in fd if type(d) is E], layout)
    return k + 1


def _codomain_profile(paths: list, layout: Any) -> Any:
    """The nesting of the codomain the basis paths reach (C++'s ArithmeticTuple of their sum): a
    node is an int (a leaf) or a dict of its children; a path that ends where another goes on (an
    integer added to a tuple) is refused."""
    root: dict = {}
    for p in paths:
        node = root
        for depth, i in enumerate(p):
            last = depth == len(p) - 1
            child = node.get(i)
            if (last and isinstance(child, dict)) or (not last and child == 0):
                raise LayoutError(f"layout {layout}: the basis strides reach the codomain coordinate "
                                  f"{'/'.join(map(str, p[:depth + 1]))} both as an integer and as a tuple")
            if last:
                node[i] = 0
            else:
                node = node.setdefault(i, {})
    return root


def _nested_coordinate(root: dict, values: dict) -> tuple:
    """The coordinate tuple of the codomain ``root`` with ``values`` (path -> int) filled in."""

    def build(node: dict, prefix: tuple) -> tuple:
        n = max(node) + 1
        return tuple(build(node[i], prefix + (i,)) if isinstance(node.get(i), dict) else values.get(prefix + (i,), 0)
                     for i in range(n))

    return build(root, ())


def compact_like(shape: Any) -> Any:
    """Placeholder strides (all 0) congruent with ``shape`` for validation before strides exist."""
    if isinstance(shape, tuple):
        return tuple(compact_like(x) for x in shape)
    return 0


def _table(fs: tuple, fd: tuple, n: int) -> np.ndarray:
    # within the domain the last mode stays below its extent, so every mode is a plain digit
    return tabulate([(sh, (d,)) for sh, d in zip(fs, fd)], (0,)).reshape(n)


def _crd2idx(coord: Any, shape: IntTuple, stride: IntTuple, where: str) -> int:
    if isinstance(coord, tuple):
        if not isinstance(shape, tuple) or len(coord) != len(shape):
            raise LayoutError(f"{where} {format_int_tuple(coord)} is not congruent with the shape {format_int_tuple(shape)}")
        return sum(_crd2idx(c, s, d, f"{where}[{i}]") for i, (c, s, d) in enumerate(zip(coord, shape, cast(tuple, stride))))
    if not is_int(coord):
        raise LayoutError(f"{where} must be an int or a tuple, got {coord!r}")
    if isinstance(shape, tuple):
        # integral coordinate into a tuple shape: colexicographic split, last mode unreduced
        fs = flatten(shape)
        fd = flatten(stride)
        _zero_extent(fs, str(coord))
        r = 0
        c = coord
        last = len(fs) - 1
        for k in range(len(fs)):
            s = fs[k]
            if k == last:
                r += c * fd[k]
            else:
                c, m = _divmod(c, s)
                r += m * fd[k]
        return r
    return coord * stride


def _idx2crd_tree(idx: Any, shape: IntTuple, where: str) -> IntTuple:
    if isinstance(idx, tuple):
        if not isinstance(shape, tuple) or len(idx) != len(shape):
            raise LayoutError(f"{where} {reprlib.repr(idx)} is not congruent with the shape {format_int_tuple(shape)}")
        return tuple(_idx2crd_tree(i, s, f"{where}[{k}]") for k, (i, s) in enumerate(zip(idx, shape)))
    if not is_int(idx):
        raise LayoutError(f"{where} must be an int or a tuple, got {idx!r}")
    return _idx2crd(idx, shape)


def _divmod(c: int, s: int) -> tuple[int, int]:
    """C++'s ``divmod`` (math.hpp: ``a / b, a % b``), which truncates toward zero: a negative
    index splits into non-positive digits (``_divmod(-1, 2) == (0, -1)``; Python's ``divmod``
    floors, ``(-1, 1)``).  CuTe evaluates a layout at a negative index this way, e.g. the inner
    layout of ``composition(A, 2:-1)`` feeds ``A`` the index -1."""
    if c >= 0:
        return c // s, c % s
    q = -(-c // s)
    return q, c - q * s


def _zero_extent(fs: tuple, what: str) -> None:
    if 0 in fs[:-1]:
        raise SizeError(f"cannot split the index {what} over the shape {format_int_tuple(fs)}: it has an extent-0 mode before the last")


def _idx2crd(idx: int, shape: IntTuple) -> IntTuple:
    fs = flatten(shape)
    _zero_extent(fs, str(idx))
    out = []
    c = idx
    last = len(fs) - 1
    for k, s in enumerate(fs):
        if k == last:
            out.append(c)
        else:
            c, m = _divmod(c, s)
            out.append(m)
    if not isinstance(shape, tuple):
        return out[0]
    return unflatten(out, shape)


def make_layout(*layouts: Layout) -> Layout:
    """Concatenate layouts as the modes of a new layout (CuTe ``make_layout(a, b, ...)``).

    >>> make_layout(Layout(4, 1), Layout((2, 3), (4, 8)))
    Layout((4,(2,3)):(1,(4,8)))
    """
    fs: list = []
    fd: list = []
    for x in layouts:
        if not isinstance(x, Layout):
            raise LayoutError(f"make_layout expects layouts, got {type(x).__name__} {x!r}")
        fs += x._fs
        fd += x._fd
    return Layout._new(tuple([x.shape for x in layouts]), tuple([x.stride for x in layouts]), tuple(fs), tuple(fd))


def _pow2_or_zero(b: int) -> bool:
    return b & (b - 1) == 0


def _layout_from_bases(names: Sequence[str], per_dim: Sequence[Sequence[int]]) -> Optional[Layout]:
    """Layout with one top mode per in-dim when every basis is 0 or a distinct power of two."""
    seen = 0
    modes_s: list[Any] = []
    modes_d: list[Any] = []
    for bases in per_dim:
        rs: list = []
        rd: list = []
        for b in bases:
            if not _pow2_or_zero(b) or (b and seen & b):
                return None
            seen |= b
            if rs and rs[-1] * rd[-1] == b:
                rs[-1] *= 2
            else:
                rs.append(2)
                rd.append(b)
        if not rs:
            modes_s.append(1)
            modes_d.append(0)
        elif len(rs) == 1:
            modes_s.append(rs[0])
            modes_d.append(rd[0])
        else:
            modes_s.append(tuple(rs))
            modes_d.append(tuple(rd))
    if len(modes_s) == 1:
        # rank(result) == number of in-dims: a nested single mode stays one mode
        if isinstance(modes_s[0], tuple):
            return Layout((modes_s[0],), (modes_d[0],))
        return Layout(modes_s[0], modes_d[0])
    return Layout(tuple(modes_s), tuple(modes_d))
