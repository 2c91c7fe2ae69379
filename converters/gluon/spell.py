"""The reverse direction: Gluon spellings of a given linear layout.

:func:`spellings` lists Gluon layouts whose ``to_linear(shape)`` is exactly the given layout,
simplest first: ``BlockedLayout``, ``SliceLayout`` of a blocked parent, ``NVMMADistributedLayout``,
``DotOperandLayout``, ``AMDMFMALayout``, ``AMDWMMALayout``, slices of MMA parents, ending with
``DistributedLinearLayout``, which always works (in-dims ``register/lane/warp/block``);
``NVMMASharedLayout``, ``SwizzledSharedLayout`` and finally ``SharedLinearLayout`` (in-dims
``offset/block``); ``TensorMemoryLayout`` and ``TensorMemoryScalesLayout`` (in-dims ``row/col``, and ``block`` over
several CTAs).

Spellings are listed in canonical form (:func:`canonical`).  When the tensor is smaller than a
layout's tile, Triton cuts lane/warp bases, registers and CGA bases, and the fields that chose
them stop mattering: for one blocked layout on a ``[2, 1, 2]`` tensor an exhaustive search
(``size_per_thread`` up to 8) found 342,181 spellings of the same layout.  The canonical form fixes those choices (``size_per_thread`` at most the CTA's
extent, cut lanes/warps counted on the earliest cut dim of ``order``, cut CGA bases written as
zero, a tensor-memory block no wider than the tensor), so every spelling is listed once per
choice that does matter, and ``canonical(s, shape)`` is among ``spellings(s.to_linear(shape))``
for any spelling ``s``.

    >>> from converters.gluon import BlockedLayout, SliceLayout
    >>> L = BlockedLayout([1], [32], [4], [0]).to_linear([128])
    >>> for s in spellings(L)[:3]:
    ...     print(s)
    BlockedLayout([1], [32], [4], [0])
    SliceLayout(0, BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0]))
    SliceLayout(0, BlockedLayout([1, 1], [1, 32], [1, 4], [0, 1]))
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from linlayout.errors import DimensionError, LayoutError, UnsupportedError
from linlayout.linear import LinearLayout

from linlayout.checks import as_int, log2

from ._build import check_shape
from .base import GluonLayout
from .distributed import (
    DistributedLayout,
    BlockedLayout,
    DistributedLinearLayout,
    DotOperandLayout,
    NVMMADistributedLayout,
    SliceLayout,
)

if TYPE_CHECKING:  # pragma: no cover
    from .amd import AMDWMMALayout

__all__ = ["spellings", "simplest_spelling", "canonical"]

_G = TypeVar("_G", bound=GluonLayout)

_DIST = {"register", "lane", "warp", "block"}


def _dim_of(v: Sequence[int]) -> int | None:
    nz = [i for i, x in enumerate(v) if x]
    return nz[0] if len(nz) == 1 else (None if not nz else -1)


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


def _runs_ok(dims: Sequence[int], pos: dict[int, int]) -> bool:
    """The dims of a run of bases visit the out-dims in ``order`` (positions non-decreasing)."""
    return all(pos[a] <= pos[b] for a, b in zip(dims, dims[1:]))


def _cta_shape(shape: Sequence[int], cga: Sequence[Sequence[int]]) -> list[int]:
    ext = [1] * len(shape)
    for v in cga:
        for d, x in enumerate(v):
            ext[d] = max(ext[d], 2 * x)
    return [max(1, s // e) for s, e in zip(shape, ext)]


def _assign(dims: Sequence[int | None], order: Sequence[int], cut: Sequence[bool]) -> list[int] | None:
    """log2 of threads (or warps) per dim for a lane (warp) list read as runs in ``order``.

    Non-zero bases must follow ``order``; a zero basis is a basis Triton cut because the tensor is
    too small along its dim, so it belongs to a dim that is ``cut``.  Any cut dim between the
    neighbouring non-zero runs gives the same layout; the earliest in ``order`` is taken (the
    canonical choice).  None when no assignment exists.
    """
    pos = {d: i for i, d in enumerate(order)}
    counts = [0] * len(order)
    closed: set[int] = set()  # runs that already ended with a cut basis
    cur = 0
    for i, d in enumerate(dims):
        if d is not None:
            if pos[d] < cur or d in closed:
                return None
            cur = pos[d]
            counts[d] += 1
            continue
        nxt = next((pos[e] for e in dims[i + 1:] if e is not None), len(order))
        e = next((order[k] for k in range(cur, nxt) if cut[order[k]]), None)
        if e is None:
            return None
        cur = pos[e]
        counts[e] += 1
        closed.add(e)
    return counts


class _BlockedSearch:
    """The canonical ``BlockedLayout`` spellings of ``layout`` on ``shape``.

    Triton lays a blocked layout out as: registers = the ``size_per_thread`` runs (in ``order``)
    then the repetitions (in ``order``); lanes and warps = identity runs in ``order``; a dim too
    small for the tile has its largest warp, then lane bases zeroed and its largest registers
    dropped.  So a spelling is fixed by an order and the split of the register list into the
    per-thread part and the repetitions, up to choices the tensor makes irrelevant: which cut dim
    a zero lane/warp basis is counted on, a ``size_per_thread`` beyond the CTA's extent, CGA bases
    the tensor cuts.  The canonical spelling makes those choices fixed (earliest cut dim in order,
    ``size_per_thread`` at most the CTA's extent, cut CGA bases written as zero); every candidate
    is confirmed by converting it back.
    """

    def __init__(self, layout: LinearLayout, shape: Sequence[int]):
        self.layout, self.shape = layout, list(shape)
        cga = _cga(layout, shape)
        b = layout.bases
        regs, lanes, warps = b.get("register", ()), b.get("lane", ()), b.get("warp", ())
        reg_dims = [_dim_of(v) for v in regs]
        self.lane_dims = [_dim_of(v) for v in lanes]
        self.warp_dims = [_dim_of(v) for v in warps]
        rank = len(shape)
        # every register moves one dim (none zero or diagonal): their dims as ints
        self.reg_dims = [d for d in reg_dims if d is not None and d != -1]
        self.cga: list[list[int]] = cga if cga is not None else []
        self.ok = (
            cga is not None
            and len(self.reg_dims) == len(reg_dims)
            and -1 not in self.lane_dims
            and -1 not in self.warp_dims
        )
        if not self.ok:
            return
        self.cta = _cta_shape(shape, self.cga)
        # the smallest non-zero lane/warp value along a dim is size_per_thread there
        self.moved = [min((v[d] for v in (*lanes, *warps) if v[d]), default=0) for d in range(rank)]
        self.n_lane = [self.lane_dims.count(d) for d in range(rank)]
        self.n_warp = [self.warp_dims.count(d) for d in range(rank)]

    def derive(self, order: Sequence[int], t: int) -> BlockedLayout | None:
        """The canonical spelling with this ``order`` and ``t`` per-thread registers, if any."""
        rank = len(self.shape)
        spt = [1 << self.reg_dims[:t].count(d) for d in range(rank)]
        if any(m and m != s for m, s in zip(self.moved, spt)):
            return None
        tpw = _assign(self.lane_dims, order, [self.cta[d] <= spt[d] << self.n_lane[d] for d in range(rank)])
        if tpw is None:
            return None
        wpc = _assign(self.warp_dims, order, [self.cta[d] <= spt[d] << (tpw[d] + self.n_warp[d]) for d in range(rank)])
        if wpc is None:
            return None
        try:
            cand = BlockedLayout(spt, [1 << x for x in tpw], [1 << x for x in wpc], list(order), self.cga)
            return cand if cand.to_linear(self.shape) == self.layout else None
        except LayoutError:
            return None

    def all(self) -> list[BlockedLayout]:
        if not self.ok:
            return []
        out = []
        for order in itertools.permutations(range(len(self.shape))):
            pos = {d: i for i, d in enumerate(order)}
            for t in range(len(self.reg_dims) + 1):
                if _runs_ok(self.reg_dims[:t], pos) and _runs_ok(self.reg_dims[t:], pos):
                    cand = self.derive(order, t)
                    if cand is not None:
                        out.append(cand)
        return out


def _blocked(layout: LinearLayout, shape: Sequence[int]) -> list[BlockedLayout]:
    """Every canonical ``BlockedLayout`` spelling of ``layout`` on ``shape`` (see ``_BlockedSearch``)."""
    return _BlockedSearch(layout, shape).all()


def canonical(spelling: _G, shape: Sequence[int]) -> _G:
    """The canonical form of ``spelling`` on ``shape``: the same layout, with the choices the tensor
    makes irrelevant fixed as :func:`spellings` fixes them.  A ``BlockedLayout`` (also as a
    ``SliceLayout`` parent) gets ``size_per_thread`` cut to the CTA's extent and cut lane/warp
    counts moved to the earliest cut dim; CGA bases the tensor cuts are written as zero.

        >>> from converters.gluon import BlockedLayout
        >>> b = BlockedLayout([8], [32], [4], [0])
        >>> print(canonical(b, [2]))          # a 2-element tensor: one thread holds all of it
        BlockedLayout([2], [32], [4], [0])
        >>> canonical(b, [2]).to_linear([2]) == b.to_linear([2])
        True
        >>> canonical(b, [4096]) == b         # nothing is cut: already canonical
        True
    """
    if not isinstance(spelling, GluonLayout):
        raise LayoutError(f"canonical: expected a Gluon layout, got {type(spelling).__name__}")
    shp = check_shape(shape, None, "canonical")
    found = _canonical(spelling, shp)
    if not isinstance(found, type(spelling)):  # every branch of _canonical keeps the class
        raise LayoutError(f"canonical: {spelling} became a {type(found).__name__} (please report this)")
    return found


def _canonical(spelling: GluonLayout, shp: list[int]) -> GluonLayout:
    """:func:`canonical` of a checked shape."""
    from .shared import NVMMASharedLayout, SwizzledSharedLayout
    from .amd import AMDWMMALayout
    from .tmem import TensorMemoryLayout, TensorMemoryScalesLayout

    layout = spelling.to_linear(shp)
    if isinstance(spelling, SliceLayout):
        pshape = shp[: spelling.dim] + [1] + shp[spelling.dim:]
        return SliceLayout(spelling.dim, canonical(spelling.parent, pshape))
    if isinstance(spelling, BlockedLayout):
        search = _BlockedSearch(layout, shp)
        if search.ok:
            t = sum(log2(min(s, c)) for s, c in zip(spelling.size_per_thread, search.cta))
            derived = search.derive(spelling.order, t)
            if derived is not None:
                return derived
        raise LayoutError(f"canonical: no canonical form found for {spelling} on {shp} (please report this)")
    if isinstance(spelling, AMDWMMALayout):
        same = (spelling.version, spelling.transposed, tuple(spelling.instr_shape), len(spelling.reg_bases))
        for wmma in _wmma(layout, shp):
            if (wmma.version, wmma.transposed, tuple(wmma.instr_shape), len(wmma.reg_bases)) == same:
                return wmma
        return spelling
    if isinstance(spelling, TensorMemoryLayout):
        width = spelling.cta_split(shp)[0][1]  # the columns of one CTA's tile
        if spelling.block[1] > width:
            spelling = dataclasses.replace(spelling, block=[spelling.block[0], width])
    cga = getattr(spelling, "cga_layout", None)
    if cga and isinstance(spelling, (NVMMADistributedLayout, NVMMASharedLayout, SwizzledSharedLayout,
                                     TensorMemoryLayout, TensorMemoryScalesLayout)):
        new = _cga(layout, shp)
        if new is not None and [list(v) for v in new] != [list(v) for v in cga]:
            replaced = _replace_cga(spelling, new)
            if replaced is not None and replaced.to_linear(shp) == layout:
                return replaced
    return spelling


def _replace_cga(s: GluonLayout, cga: Sequence[Sequence[int]]) -> GluonLayout | None:
    try:
        if dataclasses.is_dataclass(s):
            return dataclasses.replace(s, cga_layout=cga)
        return type(s).from_dict({**s.to_dict(), "cga_layout": [list(v) for v in cga]})
    except LayoutError:
        return None


def _exact(cands: Sequence[GluonLayout], layout: LinearLayout, shape: Sequence[int]) -> list[GluonLayout]:
    """The candidates whose layout on ``shape`` is exactly ``layout`` (those that refuse it skipped)."""
    out = []
    for c in cands:
        try:
            if c.to_linear(shape) == layout:
                out.append(c)
        except LayoutError:
            pass
    return out


def _warp_splits(n_log2: int, rank: int) -> Iterator[list[int]]:
    for c in itertools.product(range(n_log2 + 1), repeat=rank):
        if sum(c) == n_log2:
            yield [1 << x for x in c]


def _mma(layout: LinearLayout, shape: Sequence[int]) -> list[DistributedLayout]:
    rank = len(shape)
    out: list[DistributedLayout] = []
    cga = _cga(layout, shape)
    lanes, warps = layout.bases.get("lane", ()), layout.bases.get("warp", ())
    if cga is None or rank < 2 or len(lanes) != 5:
        return out
    warp_dims = [_dim_of(v) for v in warps]
    if -1 in warp_dims or -1 in map(_dim_of, lanes):
        return out
    nw = len(warps)
    parents: list[NVMMADistributedLayout] = []
    for wpc in _warp_splits(nw, rank):
        # a non-zero warp basis along a dim needs a warp there (zero ones may be cut anywhere)
        if any(warp_dims.count(d) > log2(wpc[d]) for d in range(rank)):
            continue
        specs = [([2, 0], [1] * (rank - 2) + [16, 8])]
        if rank == 2 and nw >= 2:
            specs += [([3, 0], [16, n, 16]) for n in (8, 16, 32, 64, 128, 256)]
        for version, instr in specs:
            try:
                parents.append(NVMMADistributedLayout(version, wpc, instr, cga))
            except LayoutError:
                pass
    # The lane bases depend on the instruction, operand and k_width, not on the warp split (a
    # base the tensor cuts becomes zero whatever the warps are): one mismatch rules out the key.
    wrong_lanes: set[tuple] = set()

    def attempt(cand: DistributedLayout, key: tuple) -> None:
        if key in wrong_lanes:
            return
        try:
            got = cand.to_linear(shape)
        except LayoutError:
            return
        if got == layout:
            out.append(cand)
        elif got.bases.get("lane", ()) != lanes:
            wrong_lanes.add(key)

    for p in parents:
        attempt(p, (p.version[0], tuple(p.instr_shape)))
    for p in parents:
        if p.is_hopper and p.instr_shape[1] != 64:
            continue
        for op in (0, 1):
            for kw in (1, 2, 4, 8, 16):
                try:
                    d = DotOperandLayout(op, p, kw)
                except LayoutError:
                    continue
                attempt(d, (p.version[0], tuple(p.instr_shape), op, kw))
    return out


def _amd(layout: LinearLayout, shape: Sequence[int]) -> list[GluonLayout]:
    """``AMDMFMALayout`` spellings (64-lane wavefronts): versions, MFMA shapes, transposition and
    warp splits searched; the K of the instruction does not change the accumulator layout, so
    only the usual K per output tile (and its double) is listed."""
    from .amd import AMDMFMALayout

    rank = len(shape)
    cga = _cga(layout, shape)
    if cga is None or rank not in (2, 3) or len(layout.bases.get("lane", ())) != 6:
        return []
    nw = len(layout.bases.get("warp", ()))
    out: list[GluonLayout] = []
    for wpc in _warp_splits(nw, rank):
        for version in (1, 2, 3, 4):
            for instr in ([32, 32, 8], [32, 32, 16], [16, 16, 16], [16, 16, 32]):
                for tr in (False, True):
                    try:
                        cand = AMDMFMALayout(version, instr, tr, wpc, cga_layout=cga)
                        if cand.to_linear(shape) == layout:
                            out.append(cand)
                    except LayoutError:
                        pass
    return out


def _wmma(layout: LinearLayout, shape: Sequence[int]) -> list[AMDWMMALayout]:
    """``AMDWMMALayout`` spellings (32-lane wavefronts): for each version, transposition and
    instruction shape, the warp bases and the register bases past one tile are read off the
    layout in tile units; the register bases may end where the tensor's repetitions begin, so
    every such split is tried.  Bases the tensor cuts are written as zero (the canonical form)."""
    from .amd import WMMA_INSTR_SHAPES, AMDWMMALayout

    rank = len(shape)
    cga = _cga(layout, shape)
    b = layout.bases
    if cga is None or rank not in (2, 3) or len(b.get("lane", ())) != 5:
        return []
    regs, warps = b.get("register", ()), b.get("warp", ())
    out: list[AMDWMMALayout] = []
    for version, shapes in sorted(WMMA_INSTR_SHAPES.items()):
        for instr in shapes:
            for tr in (False, True):
                try:
                    reg, _, ext = AMDWMMALayout(version, tr, [], instr_shape=instr, rank=rank).tile()
                except LayoutError:
                    continue

                def tiles(vecs: Sequence[Sequence[int]]) -> list[list[int]] | None:
                    out_v = []
                    for v in vecs:
                        if any(x % e for x, e in zip(v, ext)):
                            return None
                        out_v.append([x // e for x, e in zip(v, ext)])
                    return out_v

                w = tiles(warps)
                extra = regs[len(reg):]
                if w is None or len(regs) < len(reg):
                    continue
                for k in range(len(extra) + 1):
                    r = tiles(extra[:k])
                    if r is None:
                        break
                    try:
                        cand = AMDWMMALayout(version, tr, w, r, instr, cga, rank)
                        got = cand.to_linear(shape)
                    except LayoutError:
                        continue
                    if got == layout:
                        out.append(cand)
                    elif got.bases["lane"] != b["lane"]:
                        break  # the lanes depend on the instruction alone: no split can help
    return out


def _tmem(layout: LinearLayout, shape: Sequence[int]) -> list[GluonLayout]:
    """``TensorMemoryLayout`` (block, col_stride, cga_layout, two_ctas, fp4_padded) and
    ``TensorMemoryScalesLayout`` spellings; a block wider than the tensor is cut to it (the
    canonical spelling).  The CGA is read off the ``block`` bases."""
    from .tmem import TensorMemoryLayout, TensorMemoryScalesLayout

    cga = _cga(layout, shape)
    if len(shape) != 2 or cga is None:
        return []
    pairs = [False, True] if cga and cga[0] == [1, 0] else [False]
    width = shape[1] >> sum(1 for b in cga if b[1])  # the columns of one CTA's tile
    cands: list[GluonLayout] = []
    for bm in (64, 128):
        for k in range(log2(min(width, 512)) + 1):
            for cs, fp4 in ((1, False), (2, False), (4, False), (1, True)):
                for two in pairs:
                    cands.append(TensorMemoryLayout([bm, 1 << k], cs, cga, two_ctas=two, fp4_padded=fp4))
    cands.append(TensorMemoryScalesLayout(cga))
    return _exact(cands, layout, shape)


def _check(layout: LinearLayout, shape: Sequence[int] | None) -> list[int]:
    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"spellings: expected a LinearLayout, got {type(layout).__name__}")
    names = list(layout.out_dim_names)
    if names != [f"dim{i}" for i in range(len(names))] or not names:
        raise DimensionError(f"spellings: out-dims must be dim0, dim1, ...; got {names}")
    shp = list(layout.out_dims.values()) if shape is None else check_shape(shape, None, "spellings")
    if shp != list(layout.out_dims.values()):
        raise DimensionError(f"spellings: shape {shp} differs from the layout's out-dim sizes {list(layout.out_dims.values())}")
    return shp


def spellings(layout: LinearLayout, shape: Sequence[int] | None = None, *, limit: int | None = None) -> list[GluonLayout]:
    """Gluon layouts whose ``to_linear(shape)`` equals ``layout``, simplest first.

    ``shape`` defaults to the layout's out-dim sizes (they must agree).  The last entry is always
    the explicit ``DistributedLinearLayout`` / ``SharedLinearLayout``.

        >>> from converters.gluon import NVMMADistributedLayout
        >>> L = NVMMADistributedLayout([2, 0], [2, 2], [16, 8]).to_linear([32, 32])
        >>> [s.family for s in spellings(L)][:1], spellings(L)[-1].family
        (['NVMMADistributedLayout'], 'DistributedLinearLayout')
    """
    shp = _check(layout, shape)
    if limit is not None:
        limit = as_int(limit, "spellings: limit", LayoutError)
        if limit < 0:
            raise LayoutError(f"spellings: limit must be None or >= 0, got {limit}")
    ins = set(layout.in_dim_names)
    out: list[GluonLayout] = []
    if ins <= _DIST:
        blocked: list[BlockedLayout] = sorted(_blocked(layout, shp), key=_blocked_key)
        out += blocked
        slices: list[SliceLayout] = []
        for dim in range(len(shp) + 1):
            lifted = {k: [list(v[:dim]) + [0] + list(v[dim:]) for v in vecs] for k, vecs in layout.bases.items()}
            pshape = shp[:dim] + [1] + shp[dim:]
            try:
                pl = LinearLayout(lifted, [(f"dim{i}", s) for i, s in enumerate(pshape)], require_surjective=False)
            except LayoutError:
                continue
            parents: list[DistributedLayout] = [*sorted(_blocked(pl, pshape), key=_blocked_key), *_mma(pl, pshape)]
            for p in parents:
                sliced = SliceLayout(dim, p)
                if sliced.to_linear(shp) == layout:
                    slices.append(sliced)
        # slices of blocked parents, the MMA families, then slices of MMA parents
        out += [s for s in slices if isinstance(s.parent, BlockedLayout)]
        out += _mma(layout, shp)
        out += _amd(layout, shp)
        out += _wmma(layout, shp)
        out += [s for s in slices if not isinstance(s.parent, BlockedLayout)]
        out.append(DistributedLinearLayout.from_linear(layout))
    elif ins <= {"offset", "block"}:
        out += _shared(layout, shp)
    elif ins <= {"row", "col", "block"}:
        out += _tmem(layout, shp)
    else:
        raise DimensionError(
            f"spellings: in-dims {sorted(ins)} are neither distributed (register/lane/warp/block), "
            "shared (offset/block) nor tensor memory (row/col)"
        )
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
    """NVMMA and swizzled shared spellings (searched over their small parameter spaces), then
    the explicit ``SharedLinearLayout``."""
    from .shared import NVMMASharedLayout, SharedLinearLayout, SwizzledSharedLayout

    rank = len(shape)
    out: list[GluonLayout] = []
    cga = _cga(layout, shape)
    if cga is not None:
        cands: list[GluonLayout] = []
        if rank >= 2:
            for sw in (0, 32, 64, 128):
                for bw in (8, 16, 32, 64):
                    for tr in (False, True):
                        for fp4 in (False, True):
                            try:
                                cands.append(NVMMASharedLayout(sw, bw, rank, tr, fp4, cga))
                            except LayoutError:
                                pass
        pw = [1, 2, 4, 8, 16]
        for order in itertools.permutations(range(rank)):
            # the unswizzled spelling first; max_phase 1 makes vec and per_phase irrelevant
            params = [(1, 1, 1)] + [(v, p, m) for m in pw for v in pw for p in pw[:4] if (v, p, m) != (1, 1, 1)]
            for vec, per, mx in params:
                try:
                    cands.append(SwizzledSharedLayout(vec, per, mx, list(order), cga))
                except LayoutError:
                    pass
        out += _exact(cands, layout, shape)
    out.append(SharedLinearLayout.from_linear(layout))
    return out


def simplest_spelling(layout: LinearLayout, shape: Sequence[int] | None = None) -> GluonLayout:
    """The first of :func:`spellings`.

        >>> from converters.gluon import BlockedLayout
        >>> print(simplest_spelling(BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0]).to_linear([64, 16])))
        BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])
    """
    found = spellings(layout, shape)
    if not found:
        raise UnsupportedError(f"no Gluon class spells this layout (in-dims {list(layout.in_dim_names)}, "
                               f"out-dims {layout.out_dims})")
    return found[0]
