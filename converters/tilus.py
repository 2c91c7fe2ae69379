"""Tilus register layouts (``RegisterLayout(shape, mode_shape, spatial_modes, local_modes)``).

Semantics (Tilus 0.2.0, written from its documentation and sources; ``tilus`` itself is not
imported):

* each dim of ``shape`` splits **row-major** into consecutive modes (``mode_shape``), so the whole
  mode list is a row-major split of the row-major flat index;
* the thread id is the row-major serialization of the modes listed in ``spatial_modes``; a negative
  entry ``-k`` is a *replication* of size ``k`` (the element is held by ``k`` threads);
* the local index is the row-major serialization of the modes in ``local_modes``.

    >>> print(local(2, 1).spatial(8, 4).local(1, 2))
    RegisterLayout(shape=[16, 8], mode_shape=[2, 8, 4, 2], spatial_modes=[1, 2], local_modes=[0, 3])
    >>> L = register_layout([4, 6], [2, 2, 3, 2], [0, 2], [3, 1])
    >>> L.get_spatial([3, 5]), L.get_local([3, 5])
    ([5], 3)

Bridges: :meth:`RegisterLayout.to_tile` (thread id on the TIRx axis ``tx``, local index on ``m``),
:meth:`RegisterLayout.from_tile`, :meth:`RegisterLayout.to_linear` /
:meth:`RegisterLayout.from_linear` (Triton's view: ``register``, ``lane``, ``warp`` -> ``dim0``...,
32 lanes per warp).
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import math
import re
from collections.abc import Sequence
from typing import Any

from linlayout.checks import as_int, expect
from linlayout.contract import Kind
from linlayout.draw import MAX_CELLS
from linlayout.errors import DimensionError, LayoutError, ParseError, SizeError, UnsupportedError
from linlayout.limits import MAX_CALLS, MAX_INT_DIGITS, MAX_RANK, MAX_TOTAL_LOG2, as_list, check_depth, check_int, check_text

from .tile import Iter, TileLayout

__all__ = [
    "parse",
    "RegisterLayout",
    "register_layout",
    "canonicalize_layout",
    "spatial",
    "local",
    "column_spatial",
    "column_local",
    "replicated",
    "compose",
    "permute",
    "reduce",
    "reduce_to",
    "squeeze",
    "unsqueeze",
    "reshape",
    "flatten",
    "concat",
    "divide",
    "visualize_layout",
]


def _ints(xs: Any, what: str) -> tuple[int, ...]:
    out = tuple(as_list(xs, what, MAX_RANK))
    for x in out:
        if isinstance(x, bool) or not isinstance(x, int):
            raise LayoutError(f"{what} must be a sequence of ints, got {out!r}")
        check_int(x, what)
    return out


def _serialize(idx: Sequence[int], shape: Sequence[int]) -> int:
    v = 0
    for i, s in zip(idx, shape):
        v = v * s + i
    return v


def _deserialize(v: int, shape: Sequence[int]) -> list[int]:
    out = []
    for s in reversed(shape):
        out.append(v % s)
        v //= s
    return out[::-1]


def _validate(shape, mode_shape, spatial_modes, local_modes) -> None:
    if any(s < 1 for s in shape):
        raise SizeError(f"shape {list(shape)} must have positive entries")
    if any(m < 1 for m in mode_shape):
        raise SizeError(f"mode_shape {list(mode_shape)} must have positive entries")
    total = math.prod(shape) * math.prod(-m for m in spatial_modes if m < 0)
    if total > 1 << MAX_TOTAL_LOG2:
        raise SizeError(f"the layout has {total.bit_length() - 1}+ bits of elements and replicas; "
                        f"at most {MAX_TOTAL_LOG2} are supported")
    remaining = list(shape)
    for mode in reversed(mode_shape):
        if mode == 1:
            continue
        while remaining and remaining[-1] == 1:
            remaining.pop()
        if not remaining or remaining[-1] % mode:
            raise SizeError(f"mode {mode} of mode_shape {list(mode_shape)} does not divide the rest {remaining} of shape {list(shape)}")
        remaining[-1] //= mode
    while remaining and remaining[-1] == 1:
        remaining.pop()
    if remaining:
        raise SizeError(f"mode_shape {list(mode_shape)} does not split shape {list(shape)} (left over: {remaining})")
    used = []
    for m in spatial_modes:
        if m < 0:
            continue
        if m >= len(mode_shape):
            raise DimensionError(f"spatial mode {m} is out of range for the {len(mode_shape)} modes {list(mode_shape)}")
        used.append(m)
    for m in local_modes:
        if not 0 <= m < len(mode_shape):
            raise DimensionError(f"local mode {m} is out of range for the {len(mode_shape)} modes {list(mode_shape)}")
        used.append(m)
    if len(used) != len(set(used)):
        raise DimensionError(f"spatial modes {list(spatial_modes)} and local modes {list(local_modes)} must not repeat a mode")
    if set(used) != {i for i, m in enumerate(mode_shape) if m > 1} | {m for m in used}:
        missing = [i for i, m in enumerate(mode_shape) if m > 1 and i not in used]
        raise DimensionError(f"modes {missing} of mode_shape {list(mode_shape)} are neither spatial nor local")


def _mode_groups(shape: Sequence[int], mode_shape: Sequence[int]) -> list[list[int]]:
    groups: list[list[int]] = []
    k = 0
    for d in shape:
        g: list[int] = []
        rem = d
        while rem > 1:
            while k < len(mode_shape) and mode_shape[k] == 1:
                g.append(k)
                k += 1
            g.append(k)
            rem //= mode_shape[k]
            k += 1
        groups.append(g)
    if groups:
        while k < len(mode_shape):  # trailing singleton modes
            groups[-1].append(k)
            k += 1
    return groups


@dataclasses.dataclass(frozen=True)
class RegisterLayout:
    """A Tilus register layout (validated; use :func:`register_layout` for the canonical form).

    Args:
        shape: the tensor shape.
        mode_shape: each dim split row-major into consecutive modes.
        spatial_modes: modes serialized (row-major) into the thread id; ``-k`` = replication of ``k``.
        local_modes: modes serialized (row-major) into the local index.

    Raises:
        SizeError / DimensionError: modes that do not split the shape, repeated or missing modes.

        >>> RegisterLayout((4, 6), (2, 2, 3, 2), (0, 2), (3, 1)).spatial_size
        6
    """

    shape: tuple[int, ...]
    mode_shape: tuple[int, ...]
    spatial_modes: tuple[int, ...]
    local_modes: tuple[int, ...]

    def __post_init__(self):
        for f, what in (("shape", "shape"), ("mode_shape", "mode_shape"), ("spatial_modes", "spatial_modes"), ("local_modes", "local_modes")):
            object.__setattr__(self, f, _ints(getattr(self, f), what))
        _validate(self.shape, self.mode_shape, self.spatial_modes, self.local_modes)

    def __str__(self) -> str:
        return (
            f"RegisterLayout(shape={list(self.shape)}, mode_shape={list(self.mode_shape)}, "
            f"spatial_modes={list(self.spatial_modes)}, local_modes={list(self.local_modes)})"
        )

    # ------------------------------------------------------------------ derived

    @property
    def grouped_modes(self) -> list[list[int]]:
        """The modes of each dim."""
        return _mode_groups(self.shape, self.mode_shape)

    @property
    def spatial_shape(self) -> list[int]:
        return [self.mode_shape[m] if m >= 0 else -m for m in self.spatial_modes]

    @property
    def local_shape(self) -> list[int]:
        return [self.mode_shape[m] for m in self.local_modes]

    @property
    def spatial_size(self) -> int:
        """Number of threads."""
        return math.prod(self.spatial_shape)

    @property
    def local_size(self) -> int:
        """Elements per thread."""
        return math.prod(self.local_shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def with_shape(self, shape: Sequence[int]) -> RegisterLayout:
        return RegisterLayout(_ints(shape, "with_shape: shape"), self.mode_shape, self.spatial_modes, self.local_modes)

    # ------------------------------------------------------------------ evaluation

    def _mode_indices(self, idx: Sequence[int]) -> list[int]:
        idx = _ints(idx, "global indices")
        if len(idx) != len(self.shape):
            raise DimensionError(f"global indices {list(idx)} do not match the {len(self.shape)}-dim shape {list(self.shape)}")
        out: list[int] = []
        for k, (i, s, g) in enumerate(zip(idx, self.shape, self.grouped_modes)):
            if not 0 <= i < s:
                raise DimensionError(f"index {i} of dim {k} is out of range [0, {s})")
            out.extend(_deserialize(i, [self.mode_shape[m] for m in g]))
        return out

    def get_spatial(self, global_indices: Sequence[int]) -> list[int]:
        """Every thread holding the element (replicas in row-major order of the replica modes).

            >>> reduce(spatial(3, 4), dims=[0]).get_spatial([1])
            [1, 5, 9]
        """
        mi = self._mode_indices(global_indices)
        reps = [i for i, m in enumerate(self.spatial_modes) if m < 0]
        out = []
        for vals in itertools.product(*[range(-self.spatial_modes[i]) for i in reps]):
            sidx = [mi[m] if m >= 0 else 0 for m in self.spatial_modes]
            for i, v in zip(reps, vals):
                sidx[i] = v
            out.append(_serialize(sidx, self.spatial_shape))
        return out

    def get_local(self, global_indices: Sequence[int]) -> int:
        """The local index of the element.

            >>> local(3, 4).get_local([2, 1])
            9
        """
        mi = self._mode_indices(global_indices)
        return _serialize([mi[m] for m in self.local_modes], self.local_shape)

    def get_global(self, *, spatial_index: int, local_index: int) -> list[int]:
        """The element that thread ``spatial_index`` holds at ``local_index``.

            >>> spatial(2, 3).get_global(spatial_index=4, local_index=0)
            [1, 1]
        """
        spatial_index = as_int(spatial_index, "get_global: spatial_index", LayoutError)
        local_index = as_int(local_index, "get_global: local_index", LayoutError)
        if not 0 <= spatial_index < self.spatial_size or not 0 <= local_index < self.local_size:
            raise DimensionError(f"spatial_index {spatial_index} / local_index {local_index} out of range [0, {self.spatial_size}) / [0, {self.local_size})")
        si = _deserialize(spatial_index, self.spatial_shape)
        li = _deserialize(local_index, self.local_shape)
        mi = [0] * len(self.mode_shape)
        for v, m in zip(si, self.spatial_modes):
            if m >= 0:
                mi[m] = v
        for v, m in zip(li, self.local_modes):
            mi[m] = v
        return [_serialize([mi[m] for m in g], [self.mode_shape[m] for m in g]) for g in self.grouped_modes]

    # ------------------------------------------------------------------ chaining

    def local(self, *shape: int) -> RegisterLayout:
        """``compose(self, local(*shape))``."""
        return compose(self, local(*shape))

    def spatial(self, *shape: int) -> RegisterLayout:
        """``compose(self, spatial(*shape))``."""
        return compose(self, spatial(*shape))

    def column_local(self, *shape: int) -> RegisterLayout:
        return compose(self, column_local(*shape))

    def column_spatial(self, *shape: int) -> RegisterLayout:
        return compose(self, column_spatial(*shape))

    def replicated(self, num: int) -> RegisterLayout:
        """``compose(self, replicated(num))``: every element also held by ``num`` neighbouring threads."""
        return compose(self, replicated(num))

    def __mul__(self, other: RegisterLayout) -> RegisterLayout:
        if not isinstance(other, RegisterLayout):
            return NotImplemented
        return compose(self, other)

    def __truediv__(self, other: RegisterLayout) -> RegisterLayout:
        if not isinstance(other, RegisterLayout):
            return NotImplemented
        return divide(self, other)

    def reduce_to(self, shape: Sequence[int]) -> RegisterLayout:
        return reduce_to(self, shape)

    def visualize(self) -> str:
        return visualize_layout(self)

    # ------------------------------------------------------------------ bridges

    def to_tile(self, thread_axis: str = "tx") -> TileLayout:
        """The TIRx TileLayout (over the row-major flat index): thread id on ``thread_axis``, the
        local index on ``m``, replications as replica iters.

            >>> print(local(2, 1).spatial(8, 4).local(1, 2).to_tile())
            S[(2,8,4,2):(2,4@tx,1@tx,1)]
        """
        sp_stride = {}
        rep_iters = []
        sshape = self.spatial_shape
        for p, m in enumerate(self.spatial_modes):
            stride = math.prod(sshape[p + 1:])
            if m >= 0:
                sp_stride[m] = stride
            else:
                rep_iters.append(Iter(-m, stride, thread_axis))
        lshape = self.local_shape
        lo_stride = {m: math.prod(lshape[q + 1:]) for q, m in enumerate(self.local_modes)}
        shard = []
        for k, e in enumerate(self.mode_shape):
            if k in sp_stride:
                shard.append(Iter(e, sp_stride[k], thread_axis))
            elif k in lo_stride:
                shard.append(Iter(e, lo_stride[k], "m"))
            else:
                shard.append(Iter(e, 0, "m"))
        return TileLayout(shard or [Iter(1, 1, "m")], rep_iters)

    @classmethod
    def from_tile(cls, tile: TileLayout, shape: Sequence[int]) -> RegisterLayout:
        """Read a TileLayout as a register layout of ``shape``: the thread axes (``tx``/``tid``,
        or ``laneid`` + 32 * ``warpid``) must serialize a mixed radix, as must ``m``.

            >>> t = TileLayout.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]")
            >>> print(RegisterLayout.from_tile(t, (16, 8)))
            RegisterLayout(shape=[16, 8], mode_shape=[2, 8, 4, 2], spatial_modes=[1, 2], local_modes=[0, 3])

        Raises:
            UnsupportedError: an offset, a zero stride, another axis, or strides that do not form
                a row-major serialization.
        """
        expect(tile, TileLayout, "RegisterLayout.from_tile: tile")
        if any(tile.offset.values()):
            raise UnsupportedError(f"from_tile: a register layout has no offset; {tile} has {tile.offset}")
        grouped, _ = tile.group(tuple(as_list(shape, "RegisterLayout.from_tile: shape", MAX_RANK)))
        scale = {"tx": 1, "tid": 1, "laneid": 1, "warpid": 32}

        def kind(it: Iter, where: str) -> str:
            if it.axis in scale:
                return "t"
            if it.axis == "m":
                return "m"
            raise UnsupportedError(f"from_tile: {where} {it} is on axis {it.axis!r}; a register layout has threads and m only")

        modes = [it for it in grouped.shard if it.extent > 1]
        thread: list[tuple[int, int, int]] = []  # (stride, extent, mode or -1)
        localm: list[tuple[int, int, int]] = []
        for k, it in enumerate(modes):
            if it.stride == 0:
                raise UnsupportedError(f"from_tile: shard iter {it} has stride 0 (a broadcast inside a thread)")
            if kind(it, "shard iter") == "t":
                thread.append((it.stride * scale[it.axis], it.extent, k))
            else:
                localm.append((it.stride, it.extent, k))
        for it in tile.replica:
            if it.extent > 1:
                if kind(it, "replica iter") != "t" or it.stride == 0:
                    raise UnsupportedError(f"from_tile: replica iter {it} must be on a thread axis with a nonzero stride")
                thread.append((it.stride * scale[it.axis], it.extent, -1))

        def order(items, what):
            items = sorted(items, key=lambda x: -x[0])
            expect = 1
            for s, e, _ in reversed(items):
                if s != expect:
                    raise UnsupportedError(f"from_tile: the {what} strides {[x[0] for x in items]} do not serialize the extents {[x[1] for x in items]} row-major")
                expect *= e
            return items

        sp = [m if m >= 0 else -e for _, e, m in order(thread, "thread")]
        lo = [m for _, _, m in order(localm, "local")]
        return register_layout(tuple(shape), [it.extent for it in modes], sp, lo)

    kind = Kind.DISTRIBUTED

    def to_linear(self, shape: Sequence[int] | None = None) -> Any:
        """Triton's view: ``register``, ``lane``, ``warp`` -> ``dim0``, ... (32 lanes per warp).
        ``shape``, if given, must be the layout's own.

            >>> ll = local(2, 1).spatial(8, 4).local(1, 2).to_linear()
            >>> ll.in_dims
            {'register': 4, 'lane': 32}
            >>> ll.apply({"register": 3, "lane": 5})
            {'dim0': 9, 'dim1': 3}

        Raises:
            NotLinearError: a mode or thread count that is not a power of two.
        """
        self._check_shape(shape)
        return self.to_tile().to_linear(self.shape)

    def _check_shape(self, shape: Sequence[int] | None) -> None:
        """A SizeError unless ``shape`` is ``None`` or the layout's own shape (the contract: a
        shape that disagrees with the layout is an error, never ignored)."""
        if shape is None:
            return
        if isinstance(shape, (str, bytes)) or not isinstance(shape, Sequence):
            raise SizeError(f"{self}: a shape is a list of integers, got {shape!r:.80}")
        got = [as_int(s, f"{self}: shape entry {k}") for k, s in enumerate(as_list(shape, f"{self}: shape", MAX_RANK))]
        if got != list(self.shape):
            raise SizeError(f"{self} covers the shape {list(self.shape)}, not the requested shape {got}")

    @classmethod
    def from_linear(cls, L: Any) -> RegisterLayout:
        """From a hardware-first LinearLayout (``register``, ``lane``, ``warp`` -> ``dim*``).

            >>> m = local(2, 1).spatial(8, 4).local(1, 2)
            >>> RegisterLayout.from_linear(m.to_linear()) == m
            True
        """
        tile = TileLayout.from_linear(L)
        shape = tile.shape if tile.shape is not None else (tile.size(),)
        return cls.from_tile(TileLayout(tile.shard, tile.replica, tile.offset), shape)

    def to_general(self, shape: Any = None) -> Any:
        """The mixed-radix form of :meth:`to_linear` (the contract's direction: ``register``,
        ``lane``, ``warp`` -> ``dim0, dim1, ...``), for extents that are not powers of two; the
        element -> (thread ``tx``, local ``m``) direction is ``to_tile().place_general(shape)``.

            >>> local(3, 4).spatial(2, 3).to_general().apply(register=11, lane=5)
            {'dim0': 5, 'dim1': 11}
            >>> local(3, 4).spatial(2, 3).to_general([5, 12])
            Traceback (most recent call last):
            ...
            linlayout.errors.SizeError: RegisterLayout(shape=[6, 12], mode_shape=[3, 2, 4, 3], spatial_modes=[1, 3], local_modes=[0, 2]) covers the shape [6, 12], not the requested shape [5, 12]
        """
        self._check_shape(shape)
        return self.to_tile().to_general(self.shape)


def canonicalize_layout(layout: RegisterLayout) -> RegisterLayout:
    """Drop singleton modes and merge modes contiguous in the shape, the spatial and the local modes.

        >>> print(canonicalize_layout(RegisterLayout((6,), (2, 3), (), (0, 1))))
        RegisterLayout(shape=[6], mode_shape=[6], spatial_modes=[], local_modes=[0])
    """
    expect(layout, RegisterLayout, "tilus.canonicalize_layout: layout")
    # 1. singletons
    keep = [i for i, s in enumerate(layout.mode_shape) if s > 1]
    remap = {m: i for i, m in enumerate(keep)}
    mode_shape = [layout.mode_shape[m] for m in keep]
    sp = [remap[m] if m >= 0 else m for m in layout.spatial_modes if m < 0 or m in remap]
    lo = [remap[m] for m in layout.local_modes if m in remap]
    groups = _mode_groups(layout.shape, mode_shape)
    # 2. contiguous modes
    where: dict[int, tuple[str, int]] = {}
    for i, m in enumerate(sp):
        if m >= 0:
            where[m] = ("s", i)
    for i, m in enumerate(lo):
        where[m] = ("l", i)
    merged: list[list[int]] = []
    for g in groups:
        i = 0
        while i < len(g):
            j = i
            while j + 1 < len(g) and where[g[j]][0] == where[g[j + 1]][0] and where[g[j]][1] + 1 == where[g[j + 1]][1]:
                j += 1
            merged.append(g[i: j + 1])
            i = j + 1
    new_index: dict[int, int] = {}
    for k, run in enumerate(merged):
        for t, m in enumerate(run):
            new_index[m] = k if t == 0 else -1
    ms = [math.prod(mode_shape[m] for m in run) for run in merged]
    sp2 = [new_index[m] if m >= 0 else m for m in sp if m < 0 or new_index[m] != -1]
    lo2 = [new_index[m] for m in lo if new_index[m] != -1]
    return RegisterLayout(layout.shape, tuple(ms), tuple(sp2), tuple(lo2))


def register_layout(shape: Sequence[int], mode_shape: Sequence[int], spatial_modes: Sequence[int], local_modes: Sequence[int]) -> RegisterLayout:
    """Validate and canonicalize (Tilus's ``register_layout``).

        >>> print(register_layout([4, 6], [2, 2, 3, 2], [0, 2], [3, 1]))
        RegisterLayout(shape=[4, 6], mode_shape=[2, 2, 3, 2], spatial_modes=[0, 2], local_modes=[3, 1])
    """
    return canonicalize_layout(RegisterLayout(_ints(shape, "shape"), _ints(mode_shape, "mode_shape"),
                                              _ints(spatial_modes, "spatial_modes"), _ints(local_modes, "local_modes")))


def _ranked(shape: Sequence[int], ranks: Sequence[int] | None, what: str) -> list[int]:
    shape = _ints(shape, "shape")
    if ranks is None:
        return list(range(len(shape)))
    ranks = list(_ints(ranks, "ranks"))
    if len(ranks) != len(shape) or sorted(ranks) != list(range(len(shape))):
        raise DimensionError(f"{what}: ranks {ranks} must be a permutation of range({len(shape)})")
    return [ranks.index(i) for i in range(len(shape))]


def spatial(*shape: int, ranks: Sequence[int] | None = None) -> RegisterLayout:
    """Every element on its own thread, threads row-major (or in the order ``ranks`` gives).

        >>> spatial(3, 2).get_spatial([2, 1])
        [5]
    """
    return register_layout(shape, shape, _ranked(shape, ranks, "spatial"), [])


def local(*shape: int, ranks: Sequence[int] | None = None) -> RegisterLayout:
    """Every element on thread 0, local index row-major (or in the order ``ranks`` gives).

        >>> local(3, 4).get_local([1, 0])
        4
    """
    return register_layout(shape, shape, [], _ranked(shape, ranks, "local"))


def column_spatial(*shape: int) -> RegisterLayout:
    """:func:`spatial` with threads in column-major order.

        >>> column_spatial(2, 3).get_spatial([1, 0])
        [1]
    """
    return spatial(*shape, ranks=list(reversed(range(len(shape)))))


def column_local(*shape: int) -> RegisterLayout:
    """:func:`local` with the local index in column-major order.

        >>> column_local(2, 3).get_local([1, 0])
        1
    """
    return local(*shape, ranks=list(reversed(range(len(shape)))))


def replicated(num: int) -> RegisterLayout:
    """A rank-0 layout held by ``num`` threads (spatial modes ``[-num]``); composing with it
    replicates every element of the outer layout on ``num`` consecutive threads.  (Our name for
    what Tilus writes as a negative spatial mode.)

        >>> print(spatial(4).replicated(2))
        RegisterLayout(shape=[4], mode_shape=[4], spatial_modes=[0, -2], local_modes=[])
    """
    if isinstance(num, bool) or not isinstance(num, int) or num < 1:
        raise SizeError(f"replicated: num must be a positive int, got {num!r}")
    return RegisterLayout((), (), (-num,) if num > 1 else (), ())


def squeeze(layout: RegisterLayout, dims: Sequence[int]) -> RegisterLayout:
    """Remove size-1 dims.

        >>> squeeze(local(1, 4), [0]).shape
        (4,)
    """
    expect(layout, RegisterLayout, "tilus.squeeze: layout")
    dims = list(_ints(dims, "dims"))
    if any(not 0 <= d < len(layout.shape) for d in dims) or len(set(dims)) != len(dims):
        raise DimensionError(f"squeeze: dims {dims} must be distinct and in [0, {len(layout.shape)})")
    if any(layout.shape[d] != 1 for d in dims):
        raise SizeError(f"squeeze: dims {dims} must have size 1 in shape {list(layout.shape)}")
    return layout.with_shape([s for i, s in enumerate(layout.shape) if i not in dims])


def unsqueeze(layout: RegisterLayout, dims: Sequence[int]) -> RegisterLayout:
    """Insert size-1 dims at the positions ``dims`` of the result.

        >>> unsqueeze(local(4), [0, 2]).shape
        (1, 4, 1)
    """
    expect(layout, RegisterLayout, "tilus.unsqueeze: layout")
    dims = list(_ints(dims, "dims"))
    n = len(layout.shape) + len(dims)
    if any(not 0 <= d < n for d in dims) or len(set(dims)) != len(dims):
        raise DimensionError(f"unsqueeze: dims {dims} must be distinct and in [0, {n})")
    it = iter(layout.shape)
    return layout.with_shape([1 if i in dims else next(it) for i in range(n)])


def compose(outer: RegisterLayout, inner: RegisterLayout) -> RegisterLayout:
    """Replace every element of ``outer`` by a tile laid out as ``inner`` (shapes multiply);
    the outer modes come first (slower) in the thread id and in the local index.

        >>> print(compose(local(3, 4), spatial(2, 3)))
        RegisterLayout(shape=[6, 12], mode_shape=[3, 2, 4, 3], spatial_modes=[1, 3], local_modes=[0, 2])
    """
    expect(outer, RegisterLayout, "tilus.compose: outer")
    expect(inner, RegisterLayout, "tilus.compose: inner")
    n = max(len(outer.shape), len(inner.shape))
    outer = unsqueeze(outer, list(range(n - len(outer.shape))))
    inner = unsqueeze(inner, list(range(n - len(inner.shape))))
    omap: dict[int, int] = {}
    imap: dict[int, int] = {}
    mode_shape: list[int] = []
    for og, ig in zip(outer.grouped_modes, inner.grouped_modes):
        for m in og:
            omap[m] = len(mode_shape)
            mode_shape.append(outer.mode_shape[m])
        for m in ig:
            imap[m] = len(mode_shape)
            mode_shape.append(inner.mode_shape[m])
    sp = [omap[m] if m >= 0 else m for m in outer.spatial_modes] + [imap[m] if m >= 0 else m for m in inner.spatial_modes]
    lo = [omap[m] for m in outer.local_modes] + [imap[m] for m in inner.local_modes]
    return register_layout([a * b for a, b in zip(outer.shape, inner.shape)], mode_shape, sp, lo)


def permute(layout: RegisterLayout, dims: Sequence[int]) -> RegisterLayout:
    """Reorder the dims (the new dim ``k`` is the old ``dims[k]``).

        >>> print(permute(local(2, 3), [1, 0]))
        RegisterLayout(shape=[3, 2], mode_shape=[3, 2], spatial_modes=[], local_modes=[1, 0])
    """
    expect(layout, RegisterLayout, "tilus.permute: layout")
    dims = list(_ints(dims, "dims"))
    if sorted(dims) != list(range(len(layout.shape))):
        raise DimensionError(f"permute: dims {dims} must be a permutation of range({len(layout.shape)})")
    groups = [layout.grouped_modes[d] for d in dims]
    order = [m for g in groups for m in g]
    new = {old: i for i, old in enumerate(order)}
    return register_layout(
        [layout.shape[d] for d in dims],
        [layout.mode_shape[m] for m in order],
        [new[m] if m >= 0 else m for m in layout.spatial_modes],
        [new[m] for m in layout.local_modes],
    )


def reduce(layout: RegisterLayout, dims: Sequence[int], *, keepdims: bool = False) -> RegisterLayout:
    """Reduce over ``dims``: their spatial modes become replications, their local modes vanish.

        >>> print(reduce(spatial(3, 4), dims=[0]))
        RegisterLayout(shape=[4], mode_shape=[4], spatial_modes=[-3, 0], local_modes=[])
    """
    expect(layout, RegisterLayout, "tilus.reduce: layout")
    dims = list(_ints(dims, "dims"))
    if any(not 0 <= d < len(layout.shape) for d in dims) or len(set(dims)) != len(dims):
        raise DimensionError(f"reduce: dims {dims} must be distinct and in [0, {len(layout.shape)})")
    if not dims:
        return layout
    gone = {m for i, g in enumerate(layout.grouped_modes) if i in dims for m in g}
    new: dict[int, int] = {}
    for m in range(len(layout.mode_shape)):
        if m not in gone:
            new[m] = len(new)
    sp = []
    for m in layout.spatial_modes:
        if m < 0:
            sp.append(m)
        elif m in gone:
            if layout.mode_shape[m] > 1:
                sp.append(-layout.mode_shape[m])
        else:
            sp.append(new[m])
    lo = [new[m] for m in layout.local_modes if m not in gone]
    shape = [1 if d in dims else s for d, s in enumerate(layout.shape)] if keepdims else [s for d, s in enumerate(layout.shape) if d not in dims]
    return register_layout(shape, [layout.mode_shape[m] for m in new], sp, lo)


def reduce_to(layout: RegisterLayout, shape: Sequence[int]) -> RegisterLayout:
    """Reduce (broadcast-style) to ``shape``: leading extra dims are removed, dims of size 1 kept.

        >>> reduce_to(spatial(3, 4), [1, 4]).spatial_modes
        (-3, 0)
    """
    expect(layout, RegisterLayout, "tilus.reduce_to: layout")
    shape = list(_ints(shape, "shape"))
    diff = len(layout.shape) - len(shape)
    if diff < 0:
        raise DimensionError(f"reduce_to: cannot reduce shape {list(layout.shape)} to the longer {shape}")
    keep, drop = [], []
    for i, s in enumerate(layout.shape):
        if i < diff:
            drop.append(i)
        elif s == shape[i - diff]:
            continue
        elif shape[i - diff] == 1:
            keep.append(i)
        else:
            raise SizeError(f"reduce_to: dim {i} of size {s} cannot become {shape[i - diff]}")
    if keep:
        layout = reduce(layout, keep, keepdims=True)
    if drop:
        layout = reduce(layout, drop)
    return layout


def reshape(layout: RegisterLayout, shape: Sequence[int]) -> RegisterLayout:
    """View the same modes under another shape (modes may split, never straddle two new dims).

        >>> print(reshape(local(2, 3).spatial(4), [24]))
        RegisterLayout(shape=[24], mode_shape=[6, 4], spatial_modes=[1], local_modes=[0])
    """
    expect(layout, RegisterLayout, "tilus.reshape: layout")
    shape = list(_ints(shape, "shape"))
    if math.prod(shape) != layout.size:
        raise SizeError(f"reshape: shape {list(layout.shape)} (size {layout.size}) cannot become {shape} (size {math.prod(shape)})")
    layout = canonicalize_layout(layout)
    rest = [s for s in shape]
    pieces: list[list[int]] = []
    for p in layout.mode_shape:
        pieces.append([])
        while rest:
            q = rest[0]
            if q % p == 0:
                pieces[-1].append(p)
                rest[0] = q // p
                break
            if p % q == 0:
                if q > 1:
                    pieces[-1].append(q)
                p //= q
                rest.pop(0)
            else:
                raise SizeError(f"reshape: mode {p} of {layout} straddles the new dims {shape}")
    idx: dict[int, list[int]] = {}
    k = 0
    for m, ps in enumerate(pieces):
        idx[m] = list(range(k, k + len(ps)))
        k += len(ps)
    sp = []
    for m in layout.spatial_modes:
        sp.extend([m] if m < 0 else idx[m])
    lo = [x for m in layout.local_modes for x in idx[m]]
    return register_layout(shape, [x for ps in pieces for x in ps], sp, lo)


def flatten(layout: RegisterLayout, start_dim: int = 0, end_dim: int = -1) -> RegisterLayout:
    """Merge dims ``start_dim..end_dim`` (inclusive) into one.

        >>> flatten(local(2, 3, 4), 1).shape
        (2, 12)
    """
    expect(layout, RegisterLayout, "tilus.flatten: layout")
    start_dim, end_dim = as_int(start_dim, "flatten: start_dim", DimensionError), as_int(end_dim, "flatten: end_dim", DimensionError)
    n = len(layout.shape)
    if end_dim < 0:
        end_dim += n
    if not 0 <= start_dim <= end_dim < n:
        raise DimensionError(f"flatten: dims {start_dim}..{end_dim} out of range for {n} dims")
    s = layout.shape
    return reshape(layout, list(s[:start_dim]) + [math.prod(s[start_dim: end_dim + 1])] + list(s[end_dim + 1:]))


def concat(lhs: RegisterLayout, rhs: RegisterLayout) -> RegisterLayout:
    """Put the dims of ``rhs`` after those of ``lhs`` (rhs modes faster in thread id and local index).

        >>> print(concat(spatial(2), local(3)))
        RegisterLayout(shape=[2, 3], mode_shape=[2, 3], spatial_modes=[0], local_modes=[1])
    """
    expect(lhs, RegisterLayout, "tilus.concat: lhs")
    expect(rhs, RegisterLayout, "tilus.concat: rhs")
    n = len(lhs.mode_shape)
    return register_layout(
        lhs.shape + rhs.shape,
        lhs.mode_shape + rhs.mode_shape,
        lhs.spatial_modes + tuple(m + n if m >= 0 else m for m in rhs.spatial_modes),
        lhs.local_modes + tuple(m + n for m in rhs.local_modes),
    )


def divide(lhs: RegisterLayout, rhs: RegisterLayout) -> RegisterLayout:
    """The layout ``q`` with ``compose(q, rhs) == lhs`` (as Tilus's ``divide``).

        >>> print(divide(local(3, 4).spatial(2, 3), spatial(2, 3)))
        RegisterLayout(shape=[3, 4], mode_shape=[3, 4], spatial_modes=[], local_modes=[0, 1])

    Raises:
        UnsupportedError: ``rhs`` is not a suffix of ``lhs`` (in every dim, in the thread id and in
            the local index).
    """
    expect(lhs, RegisterLayout, "tilus.divide: lhs")
    expect(rhs, RegisterLayout, "tilus.divide: rhs")
    def fail(why: str):
        raise UnsupportedError(f"divide: cannot divide {lhs} by {rhs}: {why}")

    if len(lhs.shape) < len(rhs.shape):
        fail("the divisor has more dims")
    rhs = unsqueeze(rhs, list(range(len(lhs.shape) - len(rhs.shape))))
    a = canonicalize_layout(lhs)
    b = canonicalize_layout(rhs)
    if any(x % y for x, y in zip(a.shape, b.shape)):
        fail("the shapes do not divide")
    # refine a's modes so that b's modes of each dim are a suffix of a's
    refined: list[int] = []
    split_of: dict[int, list[int]] = {}
    for ag, bg in zip(a.grouped_modes, b.grouped_modes):
        asz = [a.mode_shape[m] for m in ag]
        bsz = [b.mode_shape[m] for m in bg]
        if len(asz) < len(bsz):
            fail("a dim has fewer modes than the divisor's")
        head = len(asz) - len(bsz)
        for k, m in enumerate(ag):
            p = asz[k]
            if k >= head and p != bsz[k - head]:
                if k == head and p % bsz[0] == 0:
                    split_of[m] = [len(refined), len(refined) + 1]
                    refined += [p // bsz[0], bsz[0]]
                    continue
                fail(f"mode {p} does not match the divisor's mode {bsz[k - head]}")
            split_of[m] = [len(refined)]
            refined.append(p)
    sp = [x for m in a.spatial_modes for x in ([m] if m < 0 else split_of[m])]
    lo = [x for m in a.local_modes for x in split_of[m]]
    a = RegisterLayout(a.shape, tuple(refined), tuple(sp), tuple(lo))
    # rhs mode -> a mode
    mode_map: dict[int, int] = {}
    i = 0
    for ag, bg in zip(a.grouped_modes, b.grouped_modes):
        for t in range(len(bg)):
            mode_map[i] = ag[len(ag) - len(bg) + t]
            i += 1
    ns, nl = len(b.spatial_modes), len(b.local_modes)
    if len(a.spatial_modes) < ns or len(a.local_modes) < nl:
        fail("the divisor has more spatial or local modes")
    for x, y in zip(a.spatial_modes[len(a.spatial_modes) - ns:], b.spatial_modes):
        if x < 0 and x == y:
            continue
        if x < 0 or y < 0 or mode_map[y] != x:
            fail("the divisor's spatial modes are not the last spatial modes")
    for x, y in zip(a.local_modes[len(a.local_modes) - nl:], b.local_modes):
        if mode_map[y] != x:
            fail("the divisor's local modes are not the last local modes")
    removed = set(mode_map.values())
    new: dict[int, int] = {}
    for m in range(len(a.mode_shape)):
        if m not in removed:
            new[m] = len(new)
    sp2 = [new[m] if m >= 0 else m for m in a.spatial_modes[: len(a.spatial_modes) - ns]]
    lo2 = [new[m] for m in a.local_modes[: len(a.local_modes) - nl]]
    return register_layout([x // y for x, y in zip(a.shape, b.shape)], [a.mode_shape[m] for m in new], sp2, lo2)


def _grid(rows: list[list[str]]) -> str:
    """A box-drawn table in the style of tabulate's ``simple_grid`` (cells left-aligned)."""
    if not rows or not rows[0]:
        return ""
    w = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    line = lambda l, m, r: l + m.join("─" * (x + 2) for x in w) + r  # noqa: E731
    out = [line("┌", "┬", "┐")]
    for k, r in enumerate(rows):
        out.append("│" + "│".join(f" {c.ljust(x)} " for c, x in zip(r, w)) + "│")
        out.append(line("├", "┼", "┤") if k + 1 < len(rows) else line("└", "┴", "┘"))
    return "\n".join(out)


def visualize_layout(layout: RegisterLayout) -> str:
    """The grid Tilus prints: each cell ``thread: local`` (``[t0, t1, ...]: local`` when replicated).

        >>> print(visualize_layout(spatial(3, 2)))
        RegisterLayout(shape=[3, 2], mode_shape=[3, 2], spatial_modes=[0, 1], local_modes=[])
        ┌──────┬──────┐
        │ 0: 0 │ 1: 0 │
        ├──────┼──────┤
        │ 2: 0 │ 3: 0 │
        ├──────┼──────┤
        │ 4: 0 │ 5: 0 │
        └──────┴──────┘
    """
    expect(layout, RegisterLayout, "tilus.visualize_layout: layout")
    if layout.size > MAX_CELLS:
        raise SizeError(f"visualize: the layout has {layout.size} elements; at most {MAX_CELLS} are drawn")
    shape = list(layout.shape)
    if len(shape) > 3:
        shape = [s for s in shape if s > 1]
        while len(shape) > 3:
            shape = [shape[0] * shape[1]] + shape[2:]
    while len(shape) < 3:
        shape.insert(0, 1)
    view = layout.with_shape(shape)
    tables = []
    for b in range(shape[0]):
        rows = []
        for i in range(shape[1]):
            row = []
            for j in range(shape[2]):
                t = sorted(view.get_spatial([b, i, j]))
                li = view.get_local([b, i, j])
                row.append(f"{t[0]}: {li}" if len(t) == 1 else f"{t}: {li}")
            rows.append(row)
        tables.append(_grid(rows))
    return str(layout) + "\n" + "\n".join(tables)


# ------------------------------------------------------------------------------------ text

_FUNCS = ("local", "spatial", "column_local", "column_spatial", "replicated", "register_layout")
_METHODS = ("local", "spatial", "column_local", "column_spatial", "replicated")


_DIGIT_RUN = re.compile(r"[0-9_]{%d,}" % (MAX_INT_DIGITS + 1))


def _check_literals(t: str) -> None:
    """Refuse, before Python's parser sees them (one linear scan each): integer literals too long
    to be in range, brackets nested deeper than the limit, argument lists longer than a rank can
    be, and more than :data:`~linlayout.limits.MAX_CALLS` calls."""
    m = _DIGIT_RUN.search(t)
    if m:
        raise ParseError(f"an integer of {len(m.group())} digits is out of range (at most 2**62 - 1 in magnitude)",
                         t, m.start())
    check_depth(t, "the Tilus expression", "([{", ")]}", MAX_RANK + 2)
    calls = t.count("(")
    if calls > MAX_CALLS:
        raise ParseError(f"the Tilus expression has {calls} calls; at most {MAX_CALLS} are read", t, 0)


def parse(text: str) -> RegisterLayout:
    """Read a Tilus layout expression: a chain ``local(2, 1).spatial(8, 4)`` (``tilus.`` prefix
    allowed) or ``RegisterLayout(shape=[...], mode_shape=[...], spatial_modes=[...],
    local_modes=[...])`` as ``str()`` prints it.  Only literals and these calls are evaluated.
    Tilus layouts are Python, so integers follow Python's literal grammar (``0x10`` and ``1_024``
    read as Python reads them; a leading zero such as ``01`` is refused, as Python refuses it),
    within the limits of :mod:`linlayout.limits` (19 digits, 2**62 in magnitude, nesting 64).

        >>> parse("local(2, 1).spatial(8, 4)") == local(2, 1).spatial(8, 4)
        True
        >>> parse(str(local(2, 1).spatial(8, 4))) == local(2, 1).spatial(8, 4)
        True
        >>> parse("local(2).shuffle(1)")
        Traceback (most recent call last):
        ...
        linlayout.errors.ParseError: unknown Tilus method 'shuffle'; expected one of local, spatial, column_local, column_spatial, replicated (at position 0)
          local(2).shuffle(1)
          ^
    """
    check_text(text, "a Tilus layout")
    t = text.strip()
    _check_literals(t)
    try:
        tree = ast.parse(t, mode="eval")
    except SyntaxError as e:
        raise ParseError(f"not a Tilus layout expression: {e.msg}", t, max(0, (e.offset or 1) - 1)) from None
    except (ValueError, RecursionError, MemoryError):
        raise ParseError("not a Tilus layout expression", t, 0) from None

    def ev(node: ast.AST) -> Any:
        if isinstance(node, ast.Call):
            args = [ev(a) for a in node.args]
            kwargs = {kw.arg: ev(kw.value) for kw in node.keywords if kw.arg}
            fn = node.func
            if isinstance(fn, ast.Name) or (isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and fn.value.id == "tilus"):
                name = fn.id if isinstance(fn, ast.Name) else fn.attr
                if name == "RegisterLayout":
                    name = "register_layout"
                if name not in _FUNCS:
                    raise ParseError(f"unknown Tilus function {name!r}; expected one of {', '.join(_FUNCS)}", t, node.col_offset)
                return globals()[name](*args, **kwargs)
            if isinstance(fn, ast.Attribute):
                base = ev(fn.value)
                if fn.attr not in _METHODS or not isinstance(base, RegisterLayout):
                    raise ParseError(f"unknown Tilus method {fn.attr!r}; expected one of {', '.join(_METHODS)}", t, node.col_offset)
                return getattr(base, fn.attr)(*args, **kwargs)
            raise ParseError("expected a Tilus call", t, node.col_offset)
        try:
            return ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            raise ParseError("expected a literal or a Tilus call", t, getattr(node, "col_offset", 0)) from None

    try:
        out = ev(tree.body)
    except TypeError as e:
        raise ParseError(f"bad Tilus arguments: {e}", t, 0) from None
    except RecursionError:
        raise ParseError("the Tilus expression is nested too deeply", t, 0) from None
    if not isinstance(out, RegisterLayout):
        raise ParseError(f"a Tilus layout expression must build a layout, not a {type(out).__name__}", t, 0)
    return out


# Jupyter shows a Tilus register layout as a picture (linlayout.draw.layout_html).
from linlayout.draw import attach_displays as _attach_displays  # noqa: E402

_attach_displays(RegisterLayout)
