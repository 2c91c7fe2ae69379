"""The reverse direction: Gluon spellings of a given linear layout.

:func:`spellings` lists Gluon layouts whose ``to_linear(shape)`` is exactly the given layout,
simplest first: ``BlockedLayout``, ``SliceLayout`` of a blocked parent, ``NVMMADistributedLayout``,
``DotOperandLayout`` for distributed layouts (in-dims ``register/lane/warp/block``), ending with
``DistributedLinearLayout``, which always works; ``NVMMASharedLayout``, ``SwizzledSharedLayout``
and finally ``SharedLinearLayout`` for shared layouts (in-dims ``offset/block``).

    >>> from converters.gluon import BlockedLayout, SliceLayout
    >>> L = BlockedLayout([1], [32], [4], [0]).to_linear([128])
    >>> for s in spellings(L)[:3]:
    ...     print(s)
    BlockedLayout([1], [32], [4], [0])
    SliceLayout(0, BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0]))
    SliceLayout(0, BlockedLayout([1, 1], [1, 32], [1, 4], [0, 1]))
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from linlayout.errors import DimensionError, LayoutError
from linlayout.linear import LinearLayout

from ._build import log2
from .base import GluonLayout
from .distributed import (
    BlockedLayout,
    DistributedLinearLayout,
    DotOperandLayout,
    NVMMADistributedLayout,
    SliceLayout,
)

__all__ = ["spellings", "simplest_spelling"]

_DIST = {"register", "lane", "warp", "block"}


def _dim_of(v: Sequence[int]) -> int | None:
    nz = [i for i, x in enumerate(v) if x]
    return nz[0] if len(nz) == 1 else (None if not nz else -1)


def _segmentations(vecs: Sequence[Sequence[int]], order: Sequence[int]) -> Iterator[list[int]]:
    """Counts per dim (log2) for bases laid out in ``order`` runs; zero bases may join any run."""
    rank = len(order)
    pos = {d: i for i, d in enumerate(order)}
    dims = [_dim_of(v) for v in vecs]
    if any(d == -1 for d in dims):
        return
    # each basis gets a run index (position in order), non-decreasing along the list
    def rec(i: int, cur: int, acc: list[int]) -> Iterator[list[int]]:
        if i == len(dims):
            counts = [0] * rank
            for r in acc:
                counts[order[r]] += 1
            yield counts
            return
        d = dims[i]
        if d is not None:
            if pos[d] >= cur:
                yield from rec(i + 1, pos[d], acc + [pos[d]])
            return
        for r in range(cur, rank):
            yield from rec(i + 1, r, acc + [r])

    seen = set()
    for c in rec(0, 0, []):
        t = tuple(c)
        if t not in seen:
            seen.add(t)
            yield c


def _cga(layout: LinearLayout, shape: Sequence[int]) -> list[list[int]] | None:
    block = layout.bases.get("block", ())
    rank = len(shape)
    n = [0] * rank
    for v in block:
        d = _dim_of(v)
        if d == -1:
            return None
        if d is not None:
            n[d] += 1
    out = []
    for v in block:
        w = []
        for d in range(rank):
            cta = shape[d] >> n[d]
            if v[d] % max(cta, 1):
                return None
            w.append(v[d] // max(cta, 1))
        out.append(w)
    return out


def _blocked(layout: LinearLayout, shape: Sequence[int], extra: int = 2) -> list[BlockedLayout]:
    rank = len(shape)
    out: list[BlockedLayout] = []
    cga = _cga(layout, shape)
    if cga is None:
        return out
    regs = layout.bases.get("register", ())
    nreg = [0] * rank
    for v in regs:
        d = _dim_of(v)
        if d is None or d == -1:
            return out
        nreg[d] += 1
    lanes, warps = layout.bases.get("lane", ()), layout.bases.get("warp", ())
    for order in itertools.permutations(range(rank)):
        for tpw in _segmentations(lanes, order):
            for wpc in _segmentations(warps, order):
                ranges = [range(0, nreg[d] + 1 + (extra if shape[d] <= (1 << (tpw[d] + wpc[d])) else 0)) for d in range(rank)]
                for ks in itertools.product(*ranges):
                    try:
                        cand = BlockedLayout([1 << k for k in ks], [1 << t for t in tpw], [1 << w for w in wpc], list(order), cga)
                        if cand.to_linear(shape) == layout:
                            out.append(cand)
                    except LayoutError:
                        continue
    return out


def _warp_splits(n_log2: int, rank: int) -> Iterator[list[int]]:
    for c in itertools.product(range(n_log2 + 1), repeat=rank):
        if sum(c) == n_log2:
            yield [1 << x for x in c]


def _mma(layout: LinearLayout, shape: Sequence[int]) -> list[GluonLayout]:
    rank = len(shape)
    out: list[GluonLayout] = []
    cga = _cga(layout, shape)
    if cga is None or rank < 2:
        return out
    nw = len(layout.bases.get("warp", ()))
    parents: list[NVMMADistributedLayout] = []
    for wpc in _warp_splits(nw, rank):
        specs = [([2, 0], [1] * (rank - 2) + [16, 8])]
        if rank == 2 and nw >= 2:
            specs += [([3, 0], [16, n, 16]) for n in (8, 16, 32, 64, 128, 256)]
        for version, instr in specs:
            try:
                parents.append(NVMMADistributedLayout(version, wpc, instr, cga))
            except LayoutError:
                pass
    for p in parents:
        try:
            if p.to_linear(shape) == layout:
                out.append(p)
        except LayoutError:
            pass
    for p in parents:
        if p.is_hopper and p.instr_shape[1] != 64:
            continue
        for op in (0, 1):
            for kw in (1, 2, 4, 8, 16):
                try:
                    d = DotOperandLayout(op, p, kw)
                    if d.to_linear(shape) == layout:
                        out.append(d)
                except LayoutError:
                    pass
    return out


def _check(layout: LinearLayout, shape: Sequence[int] | None) -> list[int]:
    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"spellings: expected a LinearLayout, got {type(layout).__name__}")
    names = list(layout.out_dim_names)
    if names != [f"dim{i}" for i in range(len(names))] or not names:
        raise DimensionError(f"spellings: out-dims must be dim0, dim1, ...; got {names}")
    shp = list(layout.out_dims.values()) if shape is None else [int(s) for s in shape]
    if shp != list(layout.out_dims.values()):
        raise DimensionError(f"spellings: shape {shp} differs from the layout's out-dim sizes {list(layout.out_dims.values())}")
    return shp


def spellings(layout: LinearLayout, shape: Sequence[int] | None = None, *, limit: int | None = None) -> list[GluonLayout]:
    """Gluon layouts whose ``to_linear(shape)`` equals ``layout``, simplest first.

    ``shape`` defaults to the layout's out-dim sizes (they must agree).  The last entry is always
    the explicit ``DistributedLinearLayout`` / ``SharedLinearLayout``.

        >>> from converters.gluon import NVMMADistributedLayout
        >>> L = NVMMADistributedLayout([2, 0], [2, 2], [16, 8]).to_linear([32, 32])
        >>> [s.kind for s in spellings(L)][:1], spellings(L)[-1].kind
        (['NVMMADistributedLayout'], 'DistributedLinearLayout')
    """
    shp = _check(layout, shape)
    ins = set(layout.in_dim_names)
    out: list[GluonLayout] = []
    if ins <= _DIST:
        out += sorted(_blocked(layout, shp), key=_blocked_key)
        rank = len(shp)
        slices: list[GluonLayout] = []
        for dim in range(rank + 1):
            lifted = {k: [list(v[:dim]) + [0] + list(v[dim:]) for v in vecs] for k, vecs in layout.bases.items()}
            pshape = shp[:dim] + [1] + shp[dim:]
            try:
                pl = LinearLayout(lifted, [(f"dim{i}", s) for i, s in enumerate(pshape)], require_surjective=False)
            except LayoutError:
                continue
            for p in sorted(_blocked(pl, pshape, extra=0), key=_blocked_key):
                s = SliceLayout(dim, p)
                if s.to_linear(shp) == layout:
                    slices.append(s)
        out += slices
        out += _mma(layout, shp)
        out.append(DistributedLinearLayout.from_linear(layout))
    elif ins <= {"offset", "block"}:
        out += _shared(layout, shp)
    else:
        raise DimensionError(f"spellings: in-dims {sorted(ins)} are neither distributed (register/lane/warp/block) nor shared (offset/block)")
    seen: set = set()
    uniq = []
    for s in out:
        key = str(s)
        if key not in seen:
            seen.add(key)
            uniq.append(s)
    return uniq[:limit] if limit else uniq


def _blocked_key(b: BlockedLayout) -> tuple:
    return (sum(log2(x) for x in b.size_per_thread), tuple(b.order) != tuple(reversed(range(b.rank))), str(b))


def _shared(layout: LinearLayout, shape: Sequence[int]) -> list[GluonLayout]:
    try:
        from .shared import NVMMASharedLayout, SharedLinearLayout, SwizzledSharedLayout
    except ImportError:  # pragma: no cover - shared.py lands separately
        raise LayoutError("spellings: shared layouts need converters/gluon/shared.py") from None
    rank = len(shape)
    out: list[GluonLayout] = []
    if not layout.bases.get("block"):
        cands: list[GluonLayout] = []
        if rank >= 2:
            for sw in (0, 32, 64, 128):
                for bw in (8, 16, 32, 64):
                    for tr in (False, True):
                        try:
                            cands.append(NVMMASharedLayout(sw, bw, rank, tr))
                        except LayoutError:
                            pass
        pw = [1, 2, 4, 8, 16]
        for order in itertools.permutations(range(rank)):
            for vec in pw:
                for per in pw[:4]:
                    for mx in pw:
                        if (mx == 1) != (per == 1 and vec == 1) and mx == 1:
                            continue
                        try:
                            cands.append(SwizzledSharedLayout(vec, per, mx, list(order)))
                        except LayoutError:
                            pass
        for c in cands:
            try:
                if c.to_linear(shape) == layout:
                    out.append(c)
            except LayoutError:
                pass
    out.append(SharedLinearLayout.from_linear(layout))
    return out


def simplest_spelling(layout: LinearLayout, shape: Sequence[int] | None = None) -> GluonLayout:
    """The first of :func:`spellings`.

        >>> from converters.gluon import BlockedLayout
        >>> print(simplest_spelling(BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0]).to_linear([64, 16])))
        BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])
    """
    return spellings(layout, shape)[0]
