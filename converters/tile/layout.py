"""The TIRx ``TileLayout`` value: evaluation as TIRx does it, and the bridges to the
mixed-radix and linear forms (see the package docstring)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from linlayout.checks import as_bool, as_int, expect
from linlayout.contract import Kind, kind_of_linear
from linlayout.errors import DimensionError, LayoutError, NotLinearError, SizeError
from linlayout.linear import LinearLayout
from linlayout.mixed_radix import MixedRadixLayout
from linlayout.limits import MAX_RANK, as_list

from . import algebra as _algebra
from .axes import THREAD_AXES, Iter, as_iter, is_memory_axis
from .hardware import from_hardware, invert_to_hardware, logical_first, places_first, to_hardware
from .text import format_iters, format_stride, read_tile_text

__all__ = ["TileLayout", "parse_tile"]


def parse_tile(text: str) -> TileLayout:
    """Parse TileLayout text (the grammar is in :mod:`converters.tile.text`).

        >>> parse_tile("S[(2,7):(1@TLane,32@TLane)]").shard
        (Digit(extent=2, stride=1, axis='TLane'), Digit(extent=7, stride=32, axis='TLane'))
        >>> print(parse_tile("S[(8,4):(4@laneid,1@laneid)] shape=(8, 4)"))
        S[(8,4):(4@laneid,1@laneid)] shape=(8,4)
    """
    p = read_tile_text(text)
    return TileLayout(p.shard, p.replica, p.offset, shape=p.shape)


class TileLayout:
    """A TIRx TileLayout: shard iters (row-major, first outermost), replica iters and an offset.

    Args:
        shard: ``(extent, stride, axis)`` iters, **outermost first** (as TIRx prints them).
        replica: replica iters.
        offset: axis -> constant.

    Example (the Blackwell 224-column tensor-memory placement):

        >>> L = TileLayout.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]")
        >>> [L.apply(a, l, c, shape=(2, 128, 112)) for a, l, c in [(0, 5, 3), (1, 0, 0), (1, 127, 111)]]
        [{'TCol': 3, 'TLane': 5}, {'TCol': 112, 'TLane': 0}, {'TCol': 223, 'TLane': 127}]
        >>> L.size(), L.span("TCol"), L.span("TLane")
        (28672, 224, 128)
    """

    __slots__ = ("shard", "replica", "offset", "shape")

    def __init__(
        self,
        shard: Sequence[Any],
        replica: Sequence[Any] = (),
        offset: Mapping[str, int] | None = None,
        *,
        shape: Sequence[int] | None = None,
    ):
        self.shard: tuple[Iter, ...] = tuple(as_iter(x, f"shard iter {k}") for k, x in enumerate(as_list(shard, "shard", MAX_RANK)))
        self.replica: tuple[Iter, ...] = tuple(as_iter(x, f"replica iter {k}") for k, x in enumerate(as_list(replica, "replica", MAX_RANK)))
        if offset is not None and not isinstance(offset, Mapping):
            raise LayoutError(f"offset must map axis names to ints, got {type(offset).__name__}")
        off: dict[str, int] = {}
        for a, v in (offset or {}).items():
            a = "tx" if a == "tid" else a
            if not isinstance(a, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", a):
                raise DimensionError(f"offset axis {a!r} is not an identifier")
            off[a] = off.get(a, 0) + as_int(v, f"offset on {a!r}", LayoutError)
        self.offset: dict[str, int] = off
        #: The tensor shape the layout is read over (``None``: the flat index, TIRx's own view).
        self.shape: tuple[int, ...] | None = None if shape is None else self._check_shape(shape)

    parse = staticmethod(parse_tile)

    @property
    def kind(self) -> Kind:
        """What the layout says (:class:`~linlayout.contract.Kind`): tensor memory when it names
        ``TLane``/``TCol``, distributed when it names a thread axis, else a memory map.

            >>> TileLayout.parse("S[(8,4):(4@laneid,1)]").kind, TileLayout.parse("S[(8,4):(4,1)]").kind
            (<Kind.DISTRIBUTED: 'distributed'>, <Kind.MEMORY: 'memory'>)
        """
        axes = set(self.axes) | set(self.offset)
        if axes & {"TLane", "TCol"}:
            return Kind.TENSOR_MEMORY
        if axes & set(THREAD_AXES):
            return Kind.DISTRIBUTED
        return Kind.MEMORY

    def _shape_for(self, shape: Sequence[int] | None) -> tuple[int, ...] | None:
        """The shape to read the layout over: ``shape``, which must agree with the layout's own."""
        if shape is None:
            return self.shape
        shp = self._check_shape(shape)
        if self.shape is not None and shp != self.shape:
            raise SizeError(f"{self} is read over the shape {list(self.shape)}, not the requested shape {list(shp)}")
        return shp

    # ------------------------------------------------------------------ text

    def __str__(self) -> str:
        s = f"S[{format_iters(self.shard, True)}]"
        if self.replica:
            s += f" + R[{format_iters(self.replica, False)}]"
        for a, v in self.offset.items():
            s += f" + {format_stride(v, a)}"
        if self.shape is not None:
            s += " shape=(" + ",".join(str(d) for d in self.shape) + ")"
        return s

    def __repr__(self) -> str:
        return f"TileLayout({str(self)!r})"

    def to_tirx_source(self) -> str:
        """The ``T.TileLayout.from_iters(...)`` form that TIRx prints (offsets by axis name, as
        TIRx sorts them).

            >>> print(TileLayout([(16, 112, "m")], offset={"m": 3, "TCol": 64}).to_tirx_source())
            T.TileLayout.from_iters(shard=[T.Iter(16, 112, "m")], replica=[], offset={"TCol": 64, "m": 3})
        """
        f = lambda its: ", ".join(f'T.Iter({i.extent}, {i.stride}, "{i.axis}")' for i in its)  # noqa: E731
        s = f"T.TileLayout.from_iters(shard=[{f(self.shard)}], replica=[{f(self.replica)}]"
        if self.offset:
            s += ", offset={" + ", ".join(f'"{a}": {v}' for a, v in sorted(self.offset.items())) + "}"
        return s + ")"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TileLayout):
            return NotImplemented
        return (
            self.shard == other.shard and self.replica == other.replica and self.offset == other.offset
            and self.shape == other.shape
        )

    def __hash__(self) -> int:
        return hash((self.shard, self.replica, tuple(self.offset.items()), self.shape))

    # ------------------------------------------------------------------ sizes

    @property
    def axes(self) -> tuple[str, ...]:
        """Every axis named by the shard, the replicas or the offset (first appearance order)."""
        return self._axes_of(self.shard + self.replica)

    def size(self, axis: str | None = None) -> int:
        """Number of logical elements (product of the shard extents), or of the shard extents on ``axis``.

            >>> TileLayout.parse("S[(2,7):(5@laneid,32)]").size(), TileLayout.parse("S[(2,7):(5@laneid,32)]").size("laneid")
            (14, 2)
        """
        if axis is not None:
            expect(axis, str, "size: axis")
        return math.prod(i.extent for i in self.shard if axis is None or i.axis == axis)

    def span(self, axis: str | None = None) -> int:
        """Extent covered on ``axis`` (``offset + sum((e-1)*s) + 1`` over shard and replica iters);
        without ``axis``, ``1 + sum(span(a) - 1)`` over the memory axes (as TIRx, which then
        refuses a user-defined axis: :class:`~converters.tile.axes.ScopeError`).

            >>> L = TileLayout.parse("S[(4,8):(1@TLane,1@TCol)]")
            >>> L.span("TLane"), L.span("TCol"), L.span()
            (4, 8, 11)
        """
        if axis is None:  # TIRx asks every axis whether it is a memory axis, and refuses user axes
            mem = [a for a in self.axes if is_memory_axis(a, "span")]
            return 1 + sum(self.span(a) - 1 for a in mem)
        expect(axis, str, "span: axis")
        axis = "tx" if axis == "tid" else axis
        return 1 + self.offset.get(axis, 0) + sum((i.extent - 1) * i.stride for i in self.shard + self.replica if i.axis == axis)

    # ------------------------------------------------------------------ TIRx algebra

    def canonicalize(self) -> TileLayout:
        """TIRx's canonical form (:func:`~converters.tile.algebra.canonicalize`): extent-1 shard
        iters and zero offsets dropped, shard neighbours (outer, inner) on one axis with
        ``outer.stride == inner.extent * inner.stride`` fused; an all-unit shard becomes ``1:1`` on
        the first iter's axis; replicas are kept.

            >>> print(TileLayout.parse("S[(1,16,2):(8@warpid,2,1)]").canonicalize())
            S[(32,):(1,)]

        Raises:
            ScopeError: the thread axes do not chain into one scope, or an axis is neither a thread
                nor a memory axis (TIRx checks the scopes while canonicalizing).
        """
        return _algebra.canonicalize(self)

    def group(self, shape: Sequence[int]) -> tuple[TileLayout, list[int]]:
        """Split the shard iters so that consecutive runs multiply to each entry of ``shape``
        (TIRx's ``group``, :func:`~converters.tile.algebra.group`): returns the regrouped layout
        and the separators (``seps[0] == 0``; dim ``k`` is iters ``seps[k]:seps[k+1]``).

            >>> L, seps = TileLayout.parse("S[(4,4):(3@laneid,12@laneid)]").group([2, 8])
            >>> print(L), seps
            S[(2,2,4):(6@laneid,3@laneid,12@laneid)]
            (None, [0, 1, 3])

        Raises:
            SizeError: the shape's size differs from the layout's, or an iter cannot be split.
        """
        self._check_shape(shape)
        return _algebra.group(self, shape)

    def tile(self, outer: TileLayout, outer_shape: Sequence[int], inner_shape: Sequence[int]) -> TileLayout:
        """TIRx's ``tile``: this layout (read over ``inner_shape``) repeated as ``outer`` (read over
        ``outer_shape``) says; see :func:`~converters.tile.algebra.tile`.

            >>> print(TileLayout.parse("S[(4,8):(8,1)]").tile(TileLayout.parse("S[(2,3):(3,1)]"), [2, 3], [4, 8]))
            S[(2,4,3,8):(96,8,32,1)]
        """
        return _algebra.tile(self, outer, outer_shape, inner_shape)

    def tile_to(self, to_shape: Sequence[int], current_shape: Sequence[int]) -> TileLayout:
        """TIRx's ``tile_to``: repeat this layout (read over ``current_shape``) row-major in memory
        up to ``to_shape`` (:func:`~converters.tile.algebra.tile_to`).

            >>> print(TileLayout.parse("S[(4,8):(8,1)]").tile_to([8, 24], [4, 8]))
            S[(2,4,3,8):(96,8,32,1)]
        """
        return _algebra.tile_to(self, to_shape, current_shape)

    def pack(self, num: int, axis: str = "m") -> TileLayout:
        """TIRx's ``pack``: ``num`` contiguous elements on ``axis`` become one
        (:func:`~converters.tile.algebra.pack`).

            >>> print(TileLayout.parse("S[(8,4):(4@laneid,1)]").pack(2))
            S[(8,2):(4@laneid,1)]
        """
        return _algebra.pack(self, num, axis)

    def unpack(self, num: int, axis: str = "m") -> TileLayout:
        """TIRx's ``unpack``: each element becomes ``num`` contiguous elements on ``axis``
        (:func:`~converters.tile.algebra.unpack`).

            >>> print(TileLayout.parse("S[(8,2):(4@laneid,1)]").unpack(2))
            S[(8,2,2):(4@laneid,2,1)]
        """
        return _algebra.unpack(self, num, axis)

    def permute_dims(self, perm: Sequence[int]) -> TileLayout:
        """TIRx's ``permute_dims``: shard iter ``k`` of the result is iter ``perm[k]``
        (:func:`~converters.tile.algebra.permute_dims`).

            >>> print(TileLayout.parse("S[(4,8):(8,1)]").permute_dims([1, 0]))
            S[(8,4):(1,8)]
        """
        return _algebra.permute_dims(self, perm)

    def permute_by_groups(self, seps: Sequence[int], perm: Sequence[int]) -> TileLayout:
        """TIRx's ``permute_by_groups``: permute the runs of shard iters that ``seps`` cuts
        (:func:`~converters.tile.algebra.permute_by_groups`).

            >>> print(TileLayout.parse("S[(2,4,8):(32,8,1)]").permute_by_groups([0, 1, 3], [1, 0]))
            S[(4,8,2):(8,1,32)]
        """
        return _algebra.permute_by_groups(self, seps, perm)

    def is_contiguous(self) -> bool:
        """TIRx's ``is_contiguous``: memory-only on ``m`` with row-major compact strides, whatever
        the offset (:func:`~converters.tile.algebra.is_contiguous`).

            >>> TileLayout.parse("S[(4,8):(8,1)] + 3").is_contiguous()
            True
        """
        return _algebra.is_contiguous(self)

    def is_trivial(self) -> bool:
        """TIRx's ``is_trivial``: canonically one stride-1 memory iter, no replica, no offset
        (:func:`~converters.tile.algebra.is_trivial`).

            >>> TileLayout.parse("S[(4,8):(8,1)]").is_trivial()
            True
        """
        return _algebra.is_trivial(self)

    def get_scope(self) -> tuple[str, str] | None:
        """TIRx's ``get_scope``: the (finest, coarsest) scope of the thread axes, or None
        (:func:`~converters.tile.algebra.get_scope`).

            >>> TileLayout.parse("S[(4,32):(1@warpid,1@laneid)]").get_scope()
            ('cuda.thread', 'cuda.cta')
        """
        return _algebra.get_scope(self)

    def check_well_formed(self) -> None:
        """TIRx's ``check_well_formed``: raises :class:`~converters.tile.axes.ScopeError` unless
        the thread axes chain into one scope.

            >>> TileLayout.parse("S[(2,4):(1@bx,1@laneid)]").check_well_formed()
            Traceback (most recent call last):
            ...
            converters.tile.axes.ScopeError: get_scope: the thread axes' scopes do not chain: from thread they reach warp, but the layout also counts cta within kernel; expected one chain of scopes from the finest (thread) up (TIRx: disconnected scope chain)
        """
        _algebra.check_well_formed(self)

    def same_as(self, other: object) -> bool:
        """TIRx's ``same_as``: the very same object (TVM compares handles); ``==`` compares values.

            >>> L = TileLayout.parse("S[8:1]")
            >>> L.same_as(L), L.same_as(TileLayout.parse("S[8:1]")), L == TileLayout.parse("S[8:1]")
            (True, False, True)
        """
        return self is other

    # ------------------------------------------------------------------ evaluation

    def _check_shape(self, shape: Sequence[int]) -> tuple[int, ...]:
        if isinstance(shape, np.ndarray) and shape.ndim == 1:
            shape = shape.tolist()
        if isinstance(shape, (str, bytes)) or not isinstance(shape, Sequence):
            raise LayoutError(f"shape must be a sequence of ints, got {shape!r}")
        shape = tuple(as_int(s, f"shape {list(shape)!r}: entry {k}", LayoutError)
                      for k, s in enumerate(as_list(shape, "shape", MAX_RANK)))
        if any(s < 1 for s in shape):
            raise SizeError(f"shape {list(shape)} has a non-positive entry")
        if math.prod(shape) != self.size():
            raise SizeError(
                f"shape {list(shape)} has size {math.prod(shape)}, but the shard extents {[i.extent for i in self.shard]} "
                f"multiply to {self.size()}"
            )
        return shape

    def _flat(self, coord: Sequence[int], shape: Sequence[int] | None) -> tuple[int, tuple[int, ...]]:
        if len(coord) == 1 and isinstance(coord[0], (list, tuple)):
            coord = tuple(coord[0])
        if shape is None:
            shape = (self.size(),) if len(coord) == 1 else tuple(i.extent for i in self.shard)
        shape = self._check_shape(shape)
        if len(coord) != len(shape):
            raise DimensionError(f"apply: {len(coord)} coordinates for the {len(shape)}-dim shape {list(shape)}")
        f = 0
        for k, (c, s) in enumerate(zip(coord, shape)):
            c = as_int(c, f"apply: coordinate {k}", LayoutError)
            if not 0 <= c < s:
                raise DimensionError(f"apply: coordinate {k} = {c} is out of range [0, {s}) of shape {list(shape)}")
            f = f * s + c
        return f, shape

    def result_axes(self, shape: Sequence[int] | None = None) -> tuple[str, ...]:
        """The axes TIRx's ``apply(..., shape=shape)`` reports (see the module docstring)."""
        shape = self._check_shape(shape) if shape is not None else (self.size(),)
        try:
            grouped, _ = self.group(shape)
            its = grouped.shard
        except SizeError:
            its = self.shard
        return self._axes_of(its)

    def _axes_of(self, iters: Sequence[Iter]) -> tuple[str, ...]:
        """The axes of ``iters``, then those of the offset, each once (first appearance order)."""
        return tuple(dict.fromkeys([i.axis for i in iters] + list(self.offset)))

    def apply(self, *coord: int, shape: Sequence[int] | None = None) -> dict[str, int]:
        """TIRx's ``apply``: the coordinate is flattened row-major over ``shape`` (default: a flat
        index if one coordinate is given, else the shard extents), split row-major over the shard
        extents; strides and offset are added; replicas are left out.  The result names the axes
        TIRx's does: without a shape (given or the layout's own), every shard iter's axis and the
        offset's; with one, those of the iters grouped by it (:meth:`result_axes`).

            >>> TileLayout.parse("S[(4,1):(1,1@laneid)]").apply(2), TileLayout.parse("S[(4,1):(1,1@laneid)]").apply(2, shape=[4])
            ({'m': 2, 'laneid': 0}, {'m': 2})

            >>> L = TileLayout.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
            >>> [L.apply(f) for f in (0, 1, 2, 16, 127)]
            [{'laneid': 0, 'warpid': 5, 'm': 0}, {'laneid': 0, 'warpid': 5, 'm': 1}, {'laneid': 1, 'warpid': 5, 'm': 0}, {'laneid': 4, 'warpid': 5, 'm': 0}, {'laneid': 31, 'warpid': 6, 'm': 1}]

        Raises:
            SizeError: ``shape`` does not have the layout's size (both numbers are named).
            DimensionError: a coordinate is out of range.
        """
        ungrouped = shape is None and self.shape is None
        f, shape = self._flat(coord, shape)
        # without a shape TIRx splits the coordinate over the shard iters themselves and reports
        # every iter's axis; with one, it reports the axes of the iters grouped by that shape
        keep = self._axes_of(self.shard) if ungrouped else self.result_axes(shape)
        res = dict.fromkeys(keep, 0)
        for it in reversed(self.shard):
            d = f % it.extent
            f //= it.extent
            res[it.axis] = res.get(it.axis, 0) + d * it.stride
        for a, v in self.offset.items():
            res[a] = res.get(a, 0) + v
        return {a: res[a] for a in keep}

    def places(self, *coord: int, shape: Sequence[int] | None = None) -> list[dict[str, int]]:
        """The set L(x): the base place of :meth:`apply` plus every replica (replica index
        row-major), each with every axis of the layout.

            >>> TileLayout.parse("S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]").places(1, 2, shape=(32, 4))
            [{'TLane': 1, 'TCol': 2}, {'TLane': 33, 'TCol': 2}, {'TLane': 65, 'TCol': 2}, {'TLane': 97, 'TCol': 2}]
        """
        base = self.apply(*coord, shape=shape)
        base = {a: base.get(a, 0) for a in self.axes}
        out = []
        n = math.prod(i.extent for i in self.replica)
        for r in range(n):
            p = dict(base)
            for it in reversed(self.replica):
                p[it.axis] += (r % it.extent) * it.stride
                r //= it.extent
            out.append(p)
        return out

    # ------------------------------------------------------------------ bridges

    def to_general(self, shape: Sequence[int] | None = None) -> MixedRadixLayout:
        """The layout as a :class:`~linlayout.mixed_radix.MixedRadixLayout` in the contract's
        direction, hardware places -> tensor coordinates: the mixed-radix form of :meth:`to_linear`
        (the same in-dims ``register``/``offset``/``row``/``col``, ``lane``, ``warp``; out-dims
        ``dim0, dim1, ...`` over ``shape``, default the layout's own shape or its flat size), for
        the extents GF(2) cannot express.  Places a replica adds hold the same coordinates.  TIRx's
        own direction (coordinates -> places) is :meth:`place_general`.

            >>> L = TileLayout.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]")
            >>> g = L.to_general((256, 112))
            >>> g.in_dims, g.out_dims
            ({'row': 128, 'col': 224}, {'dim0': 256, 'dim1': 112})
            >>> g.apply(row=127, col=223), L.apply(255, 111, shape=(256, 112))
            ({'dim0': 255, 'dim1': 111}, {'TCol': 223, 'TLane': 127})

        Raises:
            SizeError: ``shape`` has another size, or differs from the layout's own shape.
            NotInvertibleError: some place of the hardware box ``[0, span)`` holds no element or
                two (an offset, a gap between strides, overlapping iters): hardware -> coordinates
                is then no function, and only :meth:`place_general` describes the layout.
            UnsupportedError: as :meth:`place_general`.
        """
        shp = self._shape_for(shape)
        g = to_hardware(self.place_general(shp if shp is not None else (self.size(),)))
        return g.invert()

    @classmethod
    def from_general(cls, g: MixedRadixLayout) -> TileLayout:
        """The TileLayout (with its shape) of a hardware-first mixed-radix layout, the inverse of
        :meth:`to_general`; stride-0 digits of a hardware in-dim become replicas.

            >>> L = TileLayout.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)] + R[2:128@TLane] shape=(256,112)")
            >>> print(TileLayout.from_general(L.to_general()))
            S[(2,128,112):(112@TCol,1@TLane,1@TCol)] + R[2:128@TLane] shape=(256,112)

        Raises:
            NotInvertibleError: some coordinate is held by no place, or by two places that are not
                replicas of each other.
        """
        g = expect(g, MixedRadixLayout, "TileLayout.from_general: g")
        fwd, reps = places_first(g)
        return cls._with_kind(from_hardware(fwd, reps), kind_of_linear(g), "warp" in g.in_dims, "register" in g.in_dims)

    def place_general(self, shape: Sequence[int] | None = None) -> MixedRadixLayout:
        """TIRx's own direction, tensor coordinates -> places, as a
        :class:`~linlayout.mixed_radix.MixedRadixLayout` (out axes are the TIRx axes; replicas
        are its replicas).  It exists for every layout, including those :meth:`to_general` refuses.

        Without ``shape`` (and no shape of its own): one in-dim ``x`` (the flat index).  With
        ``shape``: in-dims ``dim0``, ``dim1``, ... (``dim0`` the slowest, row-major), digits
        fastest first.

            >>> g = TileLayout.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]").place_general((256, 112))
            >>> g.digits["dim0"]
            (Digit(extent=128, stride=1, axis='TLane'), Digit(extent=2, stride=112, axis='TCol'))
            >>> g.apply(dim0=255, dim1=111)
            {'TCol': 223, 'TLane': 127}

        Raises:
            SizeError: ``shape`` has another size, or differs from the layout's own shape.
            UnsupportedError: an iter straddles two dims of ``shape`` in a way no digit split expresses.
        """
        axes = list(self.axes)
        reps = list(reversed(self.replica))
        shape = self._shape_for(shape)
        if shape is None:
            return MixedRadixLayout({"x": list(reversed(self.shard))}, reps, self.offset, axes)
        names = [f"dim{k}" for k in range(len(shape))]
        try:
            grouped, seps = self.group(shape)
            digits = {names[k]: list(reversed(grouped.shard[seps[k]: seps[k + 1]])) for k in range(len(shape))}
            return MixedRadixLayout(digits, reps, self.offset, axes)
        except SizeError:
            pass
        flat = MixedRadixLayout({"x": list(reversed(self.shard))}, (), self.offset, axes).table()
        # rows of the colex table (dim0 fastest) -> row-major flat index
        grids = np.meshgrid(*[np.arange(s) for s in shape], indexing="ij")
        rm = np.zeros(grids[0].shape, dtype=np.int64)
        for g, s in zip(grids, shape):
            rm = rm * s + g
        idx = np.transpose(rm).reshape(-1)
        return MixedRadixLayout.from_table(dict(zip(names, shape)), flat[idx], axes, replicas=reps)

    @classmethod
    def from_place_general(cls, g: MixedRadixLayout) -> tuple[TileLayout, tuple[int, ...]]:
        """The TileLayout of a coordinates -> places mixed-radix layout (:meth:`place_general`'s
        direction) and the row-major shape of its in-dims (in order).

            >>> g = MixedRadixLayout({"dim0": [(4, 1, "laneid")], "dim1": [(2, 1, "m")]})
            >>> L, shape = TileLayout.from_place_general(g)
            >>> print(L), shape
            S[(4,2):(1@laneid,1)]
            (None, (4, 2))
        """
        expect(g, MixedRadixLayout, "TileLayout.from_general: g")
        shard: list[Iter] = []
        for _, dl in g.digits.items():
            shard.extend(reversed(dl))
        if not shard:
            shard = [Iter(1, 1, "m")]
        return cls(shard, list(reversed(g.replicas)), {a: v for a, v in g.offset.items()}), tuple(g.in_dims.values())

    @classmethod
    def _with_kind(cls, g: MixedRadixLayout, kind: Kind, has_warp: bool, has_register: bool = False) -> TileLayout:
        """The TileLayout, with its shape, of a coordinates -> TIRx places layout read back from a
        hardware-first form of ``kind``: a distributed form whose thread bits all had size 1 keeps
        its kind with an extent-1 iter on the thread axis (it adds nothing to any place); so does
        a form with a ``register`` in-dim (``has_register``: the unnamed axis is ``register``, not
        ``offset``, only beside a thread axis; a tensor-memory layout with a replica on it, say)."""
        t, shape = cls.from_place_general(g)
        out = cls(t.shard, t.replica, t.offset, shape=shape)
        threads = (set(out.axes) | set(out.offset)) & set(THREAD_AXES)
        if (kind is Kind.DISTRIBUTED and out.kind is not Kind.DISTRIBUTED) or (has_register and not threads):
            out = cls(out.shard + (Iter(1, 1, "warpid" if has_warp else "laneid"),), out.replica, out.offset, shape=shape)
        return out

    def to_linear(self, shape: Sequence[int] | None = None, *, hardware_first: bool = True) -> Any:
        """The layout as a :class:`~linlayout.LinearLayout` (axes renamed as the module docstring says).

        ``hardware_first=True`` (Triton's view): in-dims ``register``/``offset``/``row``/``col``,
        ``lane``, ``warp`` (what exists) -> out-dims ``dim0, dim1, ...``; replicas are the places
        that map to the same element.  It needs every place of the hardware box to hold exactly one
        (element, replica).  ``hardware_first=False``: logical ``dim*`` (and ``replica``) -> hardware.

            >>> L = TileLayout.parse("S[(4,8,2):(1@warpid,1@laneid,1)] + R[4:8@laneid]")
            >>> ll = L.to_linear((4, 16))
            >>> ll.in_dim_names, ll.out_dims
            (('register', 'lane', 'warp'), {'dim0': 4, 'dim1': 16})
            >>> ll.apply({"register": 1, "lane": 9, "warp": 2})
            {'dim0': 2, 'dim1': 3}

        Raises:
            NotLinearError: an extent is not a power of two, there is an offset, or digits overlap.
            NotInvertibleError: (hardware_first) some place holds no element or two.
        """
        hardware_first = as_bool(hardware_first, "TileLayout.to_linear", "hardware_first")
        shp = self._shape_for(shape)
        g = self.place_general(shp if shp is not None else (self.size(),))
        hw = to_hardware(g)
        try:
            fwd = hw.to_linear()
        except NotLinearError as e:
            if not hardware_first:
                raise
            # the contract's map runs hardware -> coordinates; say which map the digit belongs to
            why = str(e).removeprefix("to_linear: ")
            raise NotLinearError(
                f"to_linear: the map hardware -> coordinates ({', '.join(hw.out_dims)} -> {', '.join(g.in_dims)}) is "
                f"not linear, since the coordinates -> hardware map it inverts is not: there, {why}; to_general() gives it in mixed radix where every hardware place holds one element"
            ) from None
        if not hardware_first:
            return fwd
        return invert_to_hardware(fwd, [n for n in g.in_dims])

    @classmethod
    def from_linear(cls, L: Any) -> TileLayout:
        """From a hardware-first LinearLayout (in-dims register/offset/row/col/lane/warp, out-dims
        ``dim0, dim1, ...``): the TileLayout read over the out-dims' shape.  Zero bases become
        replicas.

            >>> L = TileLayout.parse("S[(4,8,2):(1@warpid,1@laneid,1)] + R[4:8@laneid]")
            >>> print(TileLayout.from_linear(L.to_linear((4, 16))))
            S[(4,8,2):(1@warpid,1@laneid,1)] + R[4:8@laneid] shape=(4,16)

        Raises:
            UnsupportedError: a replication that is not a zero basis, or a non-invertible remainder.
        """
        expect(L, LinearLayout, "TileLayout.from_linear: L")
        fwd, reps = logical_first(L)
        return cls._with_kind(from_hardware(MixedRadixLayout.from_linear(fwd), reps), kind_of_linear(L), L.has_in_dim("warp"),
                              L.has_in_dim("register"))

    def table(self, shape: Sequence[int] | None = None) -> np.ndarray:
        """Base places of every element, by row-major flat index (the same for any ``shape`` of
        the layout's size): int64 array ``(size, len(axes))``, columns in :attr:`axes` order."""
        if shape is not None:
            self._check_shape(shape)
        return self.place_general().table()
