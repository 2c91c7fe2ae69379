"""TIRx's layout algebra on :class:`~converters.tile.TileLayout`: canonical form, grouping by a
shape, tiling, packing, permuting, and the scope and shape queries.

Each function follows ``apache-tvm-tirx`` 0.1.0a4 (the C++ ``TileLayoutNode`` methods and the
Python ``Layout`` methods of ``tvm_tirx/tirx/layout.py``), checked against it by the corpus
``tests/oracles/tirx/ops.jsonl``.  Where TIRx refuses, these raise a
:class:`~linlayout.errors.LayoutError` subclass saying what, where and what was expected.
The :class:`~converters.tile.TileLayout` methods of the same names call them.

    >>> from converters.tile import TileLayout
    >>> inner = TileLayout.parse("S[(4,8):(8,1)]")
    >>> print(inner.tile(TileLayout.parse("S[(2,3):(3,1)]"), [2, 3], [4, 8]))
    S[(2,4,3,8):(96,8,32,1)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from linlayout.checks import as_int
from linlayout.errors import DimensionError, LayoutError, SizeError
from linlayout.limits import MAX_RANK, as_list

from .axes import AXIS_SCOPES, SCOPE_RANK, Iter, ScopeError, is_memory_axis, is_thread_axis



class _Tile(Protocol):
    """What these functions need of a :class:`~converters.tile.TileLayout` (which calls them; a
    protocol, so that this module does not import the one that imports it)."""

    shard: tuple[Iter, ...]
    replica: tuple[Iter, ...]
    offset: dict[str, int]

    def __init__(self, shard: Sequence[Any], replica: Sequence[Any] = (), offset: Mapping[str, int] | None = None) -> None: ...

    def size(self, axis: str | None = None) -> int: ...

    def span(self, axis: str | None = None) -> int: ...


TileT = TypeVar("TileT", bound=_Tile)  #: a TileLayout

__all__ = [
    "canonicalize", "group", "tile", "tile_to", "pack", "unpack", "permute_dims", "permute_by_groups",
    "is_contiguous", "is_trivial", "get_scope", "check_well_formed", "fuse_shard",
]


def _ints(xs: Any, what: str) -> list[int]:
    """A list of ints (at most MAX_RANK of them), each read by :func:`~linlayout.checks.as_int`."""
    return [as_int(x, f"{what}: entry {k}", LayoutError) for k, x in enumerate(as_list(xs, what, MAX_RANK))]


def _positive(xs: Any, what: str) -> list[int]:
    out = _ints(xs, what)
    for k, x in enumerate(out):
        if x < 1:
            raise SizeError(f"{what} {out} has entry {k} = {x}; expected positive ints")
    return out


# ------------------------------------------------------------------ scopes


def get_scope(L: TileT) -> tuple[str, str] | None:
    """TIRx's ``get_scope``: the (finest, coarsest) execution scope the layout's thread axes span,
    as TIRx names them (``"cuda.thread"``, ``"cuda.warp"``, ``"cuda.warpgroup"``, ``"cuda.cta"``,
    ``"cuda.cluster"``, ``"cuda.kernel"``); ``None`` when no shard iter is on a thread axis.

    Each thread axis counts one scope within another (``laneid``: threads within a warp;
    ``warpid``: warps within a CTA); the axes must chain from the finest scope up without a gap.

        >>> from converters.tile import TileLayout
        >>> get_scope(TileLayout.parse("S[(4,32):(1@warpid,1@laneid)]"))
        ('cuda.thread', 'cuda.cta')
        >>> get_scope(TileLayout.parse("S[(2,4):(1@wgid,1@warpid)]"))
        Traceback (most recent call last):
        ...
        converters.tile.axes.ScopeError: get_scope: the thread axes' scopes do not chain: from warp they reach cta, but the layout also counts warpgroup within cta; expected one chain of scopes from the finest (warp) up (TIRx: disconnected scope chain)

    Raises:
        ScopeError: two axes count one scope within different scopes, the scopes do not chain, or
            an axis is neither a thread nor a memory axis (as TIRx).
    """
    where = "get_scope"
    # TIRx asks the shard iters in order whether they are on a thread axis, and stops at the first
    if not any(is_thread_axis(i.axis, f"{where}: shard iter {k}") for k, i in enumerate(L.shard)):
        return None
    within: dict[str, str] = {}
    finest: str | None = None
    named = [(f"shard iter {k}", i.axis) for k, i in enumerate(L.shard)]
    named += [(f"replica iter {k}", i.axis) for k, i in enumerate(L.replica)]
    named += [(f"the offset on {a!r}", a) for a in L.offset]
    for what, axis in named:
        if not is_thread_axis(axis, f"{where}: {what}"):
            continue
        sub, scope = AXIS_SCOPES[axis]
        if finest is None or SCOPE_RANK[sub] > SCOPE_RANK[finest]:
            finest = sub
        if within.setdefault(sub, scope) != scope:
            raise ScopeError(
                f"{where}: {what} is on {axis!r}, which counts {sub} within {scope}, but another axis of the "
                f"layout counts {sub} within {within[sub]}; expected one scope per level (TIRx: conflicting scopes)"
            )
    assert finest is not None
    top, seen = finest, 0
    while top in within:
        top = within[top]
        seen += 1
    if seen != len(within):
        stray = [f"{s} within {within[s]}" for s in within if not _on_chain(s, finest, within)]
        raise ScopeError(
            f"{where}: the thread axes' scopes do not chain: from {finest} they reach {top}, but the layout also counts "
            f"{', '.join(stray)}; expected one chain of scopes from the finest ({finest}) up (TIRx: disconnected scope chain)"
        )
    return f"cuda.{finest}", f"cuda.{top}"


def _on_chain(s: str, start: str, within: dict[str, str]) -> bool:
    cur: str | None = start
    while cur is not None:
        if cur == s:
            return True
        cur = within.get(cur)
    return False


def check_well_formed(L: TileT) -> None:
    """TIRx's ``check_well_formed``: the thread axes chain into one scope (:func:`get_scope`).

        >>> from converters.tile import TileLayout
        >>> check_well_formed(TileLayout.parse("S[(4,32):(1@wid_in_wg,1@laneid)] + 1@wgid"))

    Raises:
        ScopeError: as :func:`get_scope`.
    """
    get_scope(L)


# ------------------------------------------------------------------ canonical form and groups


def fuse_shard(iters: Sequence[Iter]) -> list[Iter]:
    """Fuse neighbours (outermost first) on one axis where ``outer.stride == inner.extent *
    inner.stride`` (TIRx's ``FuseContiguousShardIters``; a run of stride-0 iters fuses too).

        >>> fuse_shard([Iter(4, 8, "m"), Iter(8, 1, "m"), Iter(2, 0, "m"), Iter(3, 0, "m")])
        [Digit(extent=32, stride=1, axis='m'), Digit(extent=6, stride=0, axis='m')]
    """
    out: list[Iter] = []
    for it in iters:
        prev = out[-1] if out else None  # a fused iter keeps the stride of its innermost part
        if prev is not None and prev.axis == it.axis and it.extent * it.stride == prev.stride:
            out[-1] = Iter(prev.extent * it.extent, it.stride, it.axis)
        else:
            out.append(it)
    return out


def canonicalize(L: TileT) -> TileT:
    """TIRx's ``canonicalize``: drop extent-1 shard iters (an all-unit shard keeps ``1:1`` on its
    first iter's axis), drop zero offsets, check the scopes, fuse shard neighbours
    (:func:`fuse_shard`).  Replica iters are kept as they are (TIRx also sorts them by a structural
    hash; their order does not change the layout, and ours keeps the given order).

        >>> from converters.tile import TileLayout
        >>> print(canonicalize(TileLayout.parse("S[(1,16,2):(8@warpid,2,1)] + R[(2,2):(2,1)] + 0@laneid")))
        S[(32,):(1,)] + R[(2,2):(2,1)]

    Raises:
        ScopeError: as :func:`get_scope` (TIRx checks the scopes while canonicalizing).
    """
    shard = [i for i in L.shard if i.extent != 1]
    if not shard and L.shard:
        shard = [Iter(1, 1, L.shard[0].axis)]
    out = type(L)(shard, L.replica, {a: v for a, v in L.offset.items() if v != 0})
    get_scope(out)
    return type(L)(fuse_shard(out.shard), out.replica, out.offset)


def group(L: TileT, shape: Sequence[int]) -> tuple[TileT, list[int]]:
    """TIRx's ``group``: split the shard iters so that consecutive runs multiply to each entry of
    ``shape``; returns the regrouped layout and the separators (``seps[0] == 0``, dim ``k`` is
    shard iters ``seps[k]:seps[k+1]``).  Extent-1 iters that fall between dims are dropped.

        >>> from converters.tile import TileLayout
        >>> L, seps = group(TileLayout.parse("S[(4,4):(3@laneid,12@laneid)]"), [2, 8])
        >>> print(L), seps
        S[(2,2,4):(6@laneid,3@laneid,12@laneid)]
        (None, [0, 1, 3])

    Raises:
        SizeError: ``shape`` has a non-positive entry, or the shard iters cannot be cut at its
            boundaries (an iter would have to be split by a factor that does not divide it).
    """
    shp = _positive(shape, "group: shape")
    out: list[Iter] = []
    seps = [0]
    k = 0
    prod = 1
    for n, it in enumerate(L.shard):
        ext = it.extent
        prod *= ext
        while k < len(shp) and prod % shp[k] == 0:
            c = prod // shp[k]
            if ext % c:
                raise SizeError(
                    f"group: {L} cannot be grouped by shape {shp}: dim {k} (size {shp[k]}) ends inside shard iter {n} "
                    f"({it}), which would have to be split by {c}, not a divisor of its extent {ext}"
                )
            out.append(Iter(ext // c, it.stride * c, it.axis))
            ext = prod = c
            k += 1
            seps.append(len(out))
        if ext != 1:
            if k >= len(shp):
                raise SizeError(f"group: {L} cannot be grouped by shape {shp}: shard iter {n} ({it}) is left over after the last dim")
            out.append(Iter(ext, it.stride, it.axis))
    if k != len(shp):
        raise SizeError(
            f"group: {L} cannot be grouped by shape {shp}: the shard iters end inside dim {k} (size {shp[k]}); "
            f"expected the dims to multiply to the layout's size {L.size()}"
        )
    return type(L)(out, L.replica, L.offset), seps


# ------------------------------------------------------------------ tiling


def tile(inner: TileT, outer: TileT, outer_shape: Sequence[int], inner_shape: Sequence[int]) -> TileT:
    """TIRx's ``tile``: ``inner`` (read over ``inner_shape``) repeated as ``outer`` says (read over
    ``outer_shape``); the result is read over the shape ``outer_shape[k] * inner_shape[k]``.

    Both layouts are canonicalized and grouped by their shapes; each outer iter's stride is scaled
    by the inner layout's span on its axis (an axis the inner layout's shard does not use keeps its
    stride); dim ``k`` of the result is outer's dim-``k`` iters then inner's.  Replicas are inner's
    then outer's; offsets add.  The result is canonicalized.

        >>> from converters.tile import TileLayout
        >>> warp = TileLayout.parse("S[(8,4):(4@laneid,1@laneid)]")
        >>> print(warp.tile(TileLayout.parse("S[(2,2):(2@warpid,1@warpid)]"), [2, 2], [8, 4]))
        S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]

    So element ``(i, j)`` of the 16x8 result sits at ``inner(i % 8, j % 4)`` plus ``outer(i // 8, j // 4)``
    scaled by inner's span (here 32 on ``laneid``; ``warpid`` keeps its stride).

    Raises:
        DimensionError: the two shapes have different lengths.
        SizeError: a layout cannot be grouped by its shape (:func:`group`).
        ScopeError: as :func:`canonicalize`.
    """
    if not isinstance(outer, type(inner)):
        raise LayoutError(f"tile: outer must be a TileLayout, got {type(outer).__name__}")
    osh, ish = _positive(outer_shape, "tile: outer_shape"), _positive(inner_shape, "tile: inner_shape")
    o, i = canonicalize(outer), canonicalize(inner)
    if len(osh) != len(ish):
        raise DimensionError(f"tile: outer_shape {osh} has {len(osh)} dims but inner_shape {ish} has {len(ish)}; expected the same number")
    o, oseps = group(o, osh)
    i, iseps = group(i, ish)
    span: dict[str, int] = {}
    for it in i.shard:
        span.setdefault(it.axis, i.span(it.axis))
    scaled = [Iter(it.extent, it.stride * span[it.axis], it.axis) if it.axis in span else it for it in o.shard]
    shard: list[Iter] = []
    for k in range(len(osh)):
        shard += scaled[oseps[k]: oseps[k + 1]] + list(i.shard[iseps[k]: iseps[k + 1]])
    off = dict(i.offset)
    for a, v in o.offset.items():
        off[a] = off.get(a, 0) + v
    return canonicalize(type(inner)(shard, i.replica + o.replica, off))


def tile_to(L: TileT, to_shape: Sequence[int], current_shape: Sequence[int]) -> TileT:
    """TIRx's ``tile_to``: :func:`tile` by a row-major memory layout of ``to_shape[k] //
    current_shape[k]`` tiles per dim (TIRx divides with the floor, so a ``to_shape`` that is not a
    multiple gets the whole tiles that fit).

        >>> from converters.tile import TileLayout
        >>> print(TileLayout.parse("S[(4,8):(8,1)]").tile_to([8, 24], [4, 8]))
        S[(2,4,3,8):(96,8,32,1)]

    Raises:
        DimensionError: the shapes have different lengths.
        SizeError: ``to_shape`` is smaller than ``current_shape`` in some dim (no whole tile), or as :func:`tile`.
    """
    to, cur = _positive(to_shape, "tile_to: to_shape"), _positive(current_shape, "tile_to: current_shape")
    if len(to) != len(cur):
        raise DimensionError(f"tile_to: to_shape {to} has {len(to)} dims but current_shape {cur} has {len(cur)}; expected the same number")
    tiles = [t // c for t, c in zip(to, cur)]
    for k, n in enumerate(tiles):
        if n == 0:
            raise SizeError(f"tile_to: dim {k} of to_shape {to} is smaller than current_shape's ({cur[k]}); expected at least one whole tile")
    strides, acc = [], 1
    for n in reversed(tiles):
        strides.append(acc)
        acc *= n
    outer = type(L)([Iter(n, s, "m") for n, s in zip(tiles, reversed(strides))])
    return tile(L, outer, tiles, cur)


# ------------------------------------------------------------------ element size


def _num(num: Any, what: str) -> int:
    n = as_int(num, f"{what}: num", LayoutError)
    if n < 1:
        raise SizeError(f"{what}: num = {n}; expected a positive number of elements")
    return n


def _axis(axis: Any, what: str) -> str:
    if not isinstance(axis, str):
        raise LayoutError(f"{what}: axis must be an axis name, got {type(axis).__name__}")
    return "tx" if axis == "tid" else axis


def unpack(L: TileT, num: int, axis: str = "m") -> TileT:
    """TIRx's ``unpack``: each element becomes ``num`` contiguous elements on ``axis`` (a dtype
    ``num`` times narrower): strides and the offset on ``axis`` scale by ``num`` and an innermost
    iter ``num:1@axis`` is added.  Other axes (thread ownership) are kept.

        >>> from converters.tile import TileLayout
        >>> print(TileLayout.parse("S[(8,4):(4@laneid,1)] + 2").unpack(2))
        S[(8,4,2):(4@laneid,2,1)] + 4

    Raises:
        SizeError: ``num`` is not positive.
    """
    n, a = _num(num, "unpack"), _axis(axis, "unpack")

    def scale(it: Iter) -> Iter:
        return Iter(it.extent, it.stride * n, it.axis) if it.axis == a else it

    off = {k: v * n if k == a else v for k, v in L.offset.items()}
    return type(L)([scale(i) for i in L.shard] + [Iter(n, 1, a)], [scale(i) for i in L.replica], off)


def pack(L: TileT, num: int, axis: str = "m") -> TileT:
    """TIRx's ``pack``, the inverse of :func:`unpack`: ``num`` contiguous elements on ``axis``
    become one.  The innermost shard iter must be ``e:1@axis`` with ``num`` dividing ``e``; every
    other stride and the offset on ``axis`` must be multiples of ``num`` (they are divided by it).

        >>> from converters.tile import TileLayout
        >>> print(TileLayout.parse("S[(8,4,2):(4@laneid,2,1)] + 4").pack(2))
        S[(8,4,1):(4@laneid,1,1)] + 2
        >>> TileLayout.parse("S[(4,6):(6,1)]").pack(4)
        Traceback (most recent call last):
        ...
        linlayout.errors.SizeError: pack: the innermost shard iter 6:1 of S[(4,6):(6,1)] is not packable into 4 elements; expected stride 1 on 'm' and an extent that 4 divides

    Raises:
        SizeError: the innermost iter is not ``e:1@axis`` with ``num | e``, or a stride or offset on
            ``axis`` is not a multiple of ``num`` (TIRx refuses the same).
    """
    n, a = _num(num, "pack"), _axis(axis, "pack")
    if not L.shard:
        raise SizeError(f"pack: {L} has no shard iter; expected an innermost iter to pack")
    last = L.shard[-1]
    if not (last.stride == 1 and last.extent % n == 0 and last.axis == a):
        raise SizeError(
            f"pack: the innermost shard iter {_fmt(last)} of {L} is not packable into {n} elements; "
            f"expected stride 1 on {a!r} and an extent that {n} divides"
        )
    for k, v in L.offset.items():
        if k == a and v % n:
            raise SizeError(f"pack: the offset {v} on {a!r} of {L} is not a multiple of {n}")

    def scale(it: Iter, what: str) -> Iter:
        if it.axis != a:
            return it
        if it.stride % n:
            raise SizeError(f"pack: {what} ({_fmt(it)}) of {L} has a stride on {a!r} that is not a multiple of {n}")
        return Iter(it.extent, it.stride // n, it.axis)

    shard = [scale(it, f"shard iter {k}") for k, it in enumerate(L.shard[:-1])] + [Iter(last.extent // n, 1, last.axis)]
    rep = [scale(it, f"replica iter {k}") for k, it in enumerate(L.replica)]
    return type(L)(shard, rep, {k: v // n if k == a else v for k, v in L.offset.items()})


def _fmt(it: Iter) -> str:
    return f"{it.extent}:{it.stride}" + ("" if it.axis == "m" else f"@{it.axis}")


# ------------------------------------------------------------------ permutations


def permute_dims(L: TileT, perm: Sequence[int]) -> TileT:
    """TIRx's ``permute_dims``: shard iter ``k`` of the result is shard iter ``perm[k]`` (one entry
    per shard iter; as TIRx, a negative entry counts from the end and entries may repeat).

        >>> from converters.tile import TileLayout
        >>> print(TileLayout.parse("S[(4,8):(8,1)] + R[2:1@laneid]").permute_dims([1, 0]))
        S[(8,4):(1,8)] + R[2:1@laneid]

    Raises:
        DimensionError: ``perm`` has another length than the shard, or an entry out of range.
    """
    p = _ints(perm, "permute_dims: perm")
    n = len(L.shard)
    if len(p) != n:
        raise DimensionError(f"permute_dims: perm {p} has {len(p)} entries but {L} has {n} shard iters; expected one entry per iter")
    for k, i in enumerate(p):
        if not -n <= i < n:
            raise DimensionError(f"permute_dims: perm {p} entry {k} = {i} is out of range for {n} shard iters")
    return type(L)([L.shard[i] for i in p], L.replica, L.offset)


def permute_by_groups(L: TileT, seps: Sequence[int], perm: Sequence[int]) -> TileT:
    """TIRx's ``permute_by_groups``: permute runs of shard iters; run ``g`` is iters
    ``seps[g]:seps[g+1]`` (the separators :func:`group` returns) and the result has runs
    ``perm[0], perm[1], ...``.

        >>> from converters.tile import TileLayout
        >>> L, seps = TileLayout.parse("S[(4,8):(8,1)]").group([2, 16])
        >>> print(L.permute_by_groups(seps, [1, 0]))
        S[(2,8,2):(8,1,16)]

    Raises:
        DimensionError: ``perm`` is not a permutation of the runs, or the runs do not cover the
            shard once (as :func:`permute_dims`).
    """
    s = _ints(seps, "permute_by_groups: seps")
    p = _ints(perm, "permute_by_groups: perm")
    if sorted(p) != list(range(len(s) - 1)):
        raise DimensionError(f"permute_by_groups: perm {p} is not a permutation of the {max(len(s) - 1, 0)} groups that seps {s} make")
    return permute_dims(L, [k for g in p for k in range(s[g], s[g + 1])])


# ------------------------------------------------------------------ queries


def is_contiguous(L: TileT) -> bool:
    """TIRx's ``is_contiguous``: the layout is memory-only on ``m`` (every shard iter, no replica,
    an offset only on ``m``) and its strides are row-major compact (each non-unit iter's stride is
    the product of the extents inside it); the offset does not matter.

        >>> from converters.tile import TileLayout
        >>> [TileLayout.parse(t).is_contiguous() for t in ("S[(4,8):(8,1)] + 5", "S[(8,4):(1,8)]", "S[(4,8):(8,1@TCol)]")]
        [True, False, False]
    """
    if L.replica or any(a != "m" for a in L.offset) or any(i.axis != "m" for i in L.shard):
        return False
    acc = 1
    for it in reversed(L.shard):
        if it.extent == 1:
            continue
        if it.stride != acc:
            return False
        acc *= it.extent
    return True


def is_trivial(L: TileT) -> bool:
    """TIRx's ``is_trivial``: the canonical form is one stride-1 iter on a memory axis (or no
    iter), with no replica and no offset.

        >>> from converters.tile import TileLayout
        >>> TileLayout.parse("S[(4,8):(8,1)] + 0@laneid").is_trivial(), TileLayout.parse("S[8:1@laneid]").is_trivial()
        (True, False)

    Raises:
        ScopeError: as :func:`canonicalize`.
    """
    c = canonicalize(L)
    if len(c.shard) > 1:
        return False
    if c.shard and (not is_memory_axis(c.shard[0].axis, "is_trivial: shard iter 0") or c.shard[0].stride != 1):
        return False
    return not c.replica and not c.offset
