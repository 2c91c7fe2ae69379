"""Gluon's distributed (register) layouts, with ``to_linear(shape)`` bit-exact with Triton 3.9.

In-dims ``register``, ``lane``, ``warp``, ``block``; out-dims ``dim0..``.  A tensor smaller than the
layout's tile broadcasts (zero lane/warp/block bases; register bases that would be zero are
dropped), a larger one repeats in registers.

    >>> b = BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])
    >>> L = b.to_linear([64, 16])
    >>> L.bases["register"], L.bases["lane"]
    (((0, 1), (0, 2), (1, 0)), ((0, 4), (2, 0), (4, 0), (8, 0), (16, 0)))
    >>> L.bases["warp"]
    ((0, 8), (32, 0))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from linlayout.contract import Kind
from linlayout.errors import BasisError, DimensionError, LayoutError, SizeError
from linlayout.linear import LinearLayout

from ._build import Builder, check_shape, is_pow2
from .base import GluonLayout, cached_to_linear

__all__ = [
    "DistributedLayout",
    "BlockedLayout",
    "SliceLayout",
    "DistributedLinearLayout",
    "WARP_SIZES",
]

#: The warp sizes of real hardware: 32 (NVIDIA) or 64 (AMD wavefronts).  Triton's layout
#: conversions (and these) compute any power-of-two thread count; its own tests use 4.
WARP_SIZES = (32, 64)


# ============================================================================ validation helpers
def as_int(v: Any, who: str, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise LayoutError(f"{who}: {what} must be an int, got {v!r}")
    return v


def int_tuple(v: Any, who: str, what: str, *, pow2: bool = False, length: int | None = None) -> tuple[int, ...]:
    if isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
        raise LayoutError(f"{who}: {what} must be a list of ints, got {v!r}")
    out = tuple(as_int(x, who, f"{what} entry") for x in v)
    if length is not None and len(out) != length:
        raise DimensionError(f"{who}: {what} has {len(out)} entries, expected {length} (the rank)")
    if pow2:
        for i, x in enumerate(out):
            if not is_pow2(x):
                raise SizeError(f"{who}: {what}[{i}] = {x} is not a power of two")
    return out


def bases_tuple(v: Any, who: str, what: str, rank: int | None) -> tuple[tuple[int, ...], ...]:
    if v is None:
        return ()
    if isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
        raise BasisError(f"{who}: {what} must be a list of basis vectors, got {v!r}")
    out = []
    for i, b in enumerate(v):
        t = int_tuple(b, who, f"{what}[{i}]")
        if rank is not None and len(t) != rank:
            raise BasisError(f"{who}: {what}[{i}] = {list(t)} has {len(t)} entries, expected {rank} (the rank)")
        for x in t:
            if x < 0:
                raise BasisError(f"{who}: {what}[{i}] = {list(t)} has a negative entry")
        out.append(t)
    return tuple(out)


def check_order(order: tuple[int, ...], rank: int, who: str) -> None:
    if sorted(order) != list(range(rank)):
        raise DimensionError(f"{who}: order {list(order)} is not a permutation of 0..{rank - 1}")


def check_cga(cga: tuple[tuple[int, ...], ...], who: str) -> None:
    """Each CGA basis is a power of two on one dim (or zero: a broadcast block)."""
    for i, b in enumerate(cga):
        nz = [x for x in b if x]
        if len(nz) > 1 or (nz and not is_pow2(nz[0])):
            raise BasisError(f"{who}: cga_layout[{i}] = {list(b)} must be zero or a power of two on one dim")


def _set(obj: Any, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)


class DistributedLayout(GluonLayout):
    """Base of the register layouts: in-dims ``register``, ``lane``, ``warp``, ``block``."""

    kind: ClassVar[Kind] = Kind.DISTRIBUTED
    @property
    def rank(self) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    @property
    def warp_size(self) -> int:
        """Threads per warp (32 for NVIDIA layouts)."""
        return 32

    def _builder(self, shape: Sequence[int]) -> Builder:
        """The layout over ``shape`` in Triton's builder steps, before packing; the families built
        that way define it, and :meth:`to_linear` packs it."""
        raise NotImplementedError(f"{type(self).__name__}.to_linear")

    @cached_to_linear
    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """Triton's linear layout of this layout over ``shape``."""
        return self._builder(shape).build()


# ============================================================================ BlockedLayout
@dataclass(frozen=True, repr=False)
class BlockedLayout(DistributedLayout):
    """Gluon's ``BlockedLayout(size_per_thread, threads_per_warp, warps_per_cta, order, cga_layout)``.

    Each thread holds ``size_per_thread`` contiguous elements, a warp is a grid of
    ``threads_per_warp`` threads and a CTA a grid of ``warps_per_cta`` warps, all walked with
    ``order[0]`` fastest; ``cga_layout`` bases place the CTAs of a cluster (in CTA-tile units).

        >>> b = BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])
        >>> L = b.to_linear([128, 128])
        >>> L.in_dim_size("register")          # 8 per block, repeated 16 times
        128
        >>> b.to_linear([32, 8]).bases["warp"]  # broadcast: every warp holds a full copy
        ((0, 0), (0, 0))
        >>> BlockedLayout([1, 1], [2, 2], [1, 1], [1, 0]).to_linear([4, 4]).bases["lane"]  # any power-of-two warp, as Triton
        ((0, 1), (1, 0))
        >>> BlockedLayout([1, 1], [3, 1], [4, 1], [1, 0])
        Traceback (most recent call last):
        ...
        linlayout.errors.SizeError: BlockedLayout: threads_per_warp[0] = 3 is not a power of two
    """

    family = "BlockedLayout"
    size_per_thread: Sequence[int]
    threads_per_warp: Sequence[int]
    warps_per_cta: Sequence[int]
    order: Sequence[int]
    cga_layout: Sequence[Sequence[int]] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        who = "BlockedLayout"
        spt = int_tuple(self.size_per_thread, who, "size_per_thread", pow2=True)
        rank = len(spt)
        if rank == 0:
            raise DimensionError(f"{who}: size_per_thread is empty; the rank must be at least 1")
        tpw = int_tuple(self.threads_per_warp, who, "threads_per_warp", pow2=True, length=rank)
        wpc = int_tuple(self.warps_per_cta, who, "warps_per_cta", pow2=True, length=rank)
        order = int_tuple(self.order, who, "order", length=rank)
        check_order(order, rank, who)
        cga = bases_tuple(self.cga_layout, who, "cga_layout", rank)
        check_cga(cga, who)
        _set(self, "size_per_thread", spt)
        _set(self, "threads_per_warp", tpw)
        _set(self, "warps_per_cta", wpc)
        _set(self, "order", order)
        _set(self, "cga_layout", cga)

    @property
    def rank(self) -> int:
        """Number of tensor dims.

            >>> BlockedLayout([1], [32], [4], [0]).rank
            1
        """
        return len(self.order)

    @property
    def warp_size(self) -> int:
        """Threads per warp: the product of ``threads_per_warp``."""
        return math.prod(self.threads_per_warp)

    @property
    def num_warps(self) -> int:
        """Warps per CTA.

            >>> BlockedLayout([1, 1], [8, 4], [2, 2], [1, 0]).num_warps
            4
        """
        return math.prod(self.warps_per_cta)

    def _cta(self) -> Builder:
        b = Builder(self.rank)
        b.identity_nd("register", self.size_per_thread, self.order)
        b.identity_nd("lane", self.threads_per_warp, self.order)
        b.identity_nd("warp", self.warps_per_cta, self.order)
        return b

    def _builder(self, shape: Sequence[int]) -> Builder:
        shp = check_shape(shape, self.rank, "BlockedLayout")
        b = self._cta()
        b.combine_cga(self.cga_layout, shp, broadcast_registers=False)  # Triton 3.9 drops cut registers here
        return b


# ============================================================================ SliceLayout
@dataclass(frozen=True, repr=False)
class SliceLayout(DistributedLayout):
    """Gluon's ``SliceLayout(dim, parent)``: the parent layout with tensor dim ``dim`` removed.

    The parent is laid over the shape with a 1 inserted at ``dim``; that out-dim is projected away
    and the register bases that become zero are dropped.

        >>> p = BlockedLayout([1, 1], [32, 1], [4, 1], [1, 0])
        >>> SliceLayout(1, p).to_linear([128]) == BlockedLayout([1], [32], [4], [0]).to_linear([128])
        True
    """

    family = "SliceLayout"
    dim: int
    parent: DistributedLayout

    def __post_init__(self) -> None:
        who = "SliceLayout"
        dim = as_int(self.dim, who, "dim")
        if not isinstance(self.parent, DistributedLayout):
            raise LayoutError(f"{who}: parent must be a distributed layout, got {self.parent!r}")
        r = self.parent.rank
        if not 0 <= dim < r:
            raise DimensionError(f"{who}: dim {dim} is out of range for a parent of rank {r}")
        if r < 2:
            raise DimensionError(f"{who}: cannot slice a rank-1 parent (dim {dim})")

    @property
    def rank(self) -> int:
        """The parent's rank minus one."""
        return self.parent.rank - 1

    @property
    def warp_size(self) -> int:
        return self.parent.warp_size

    @cached_to_linear
    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """Triton's linear layout of this layout over ``shape``."""
        shp = check_shape(shape, self.rank, "SliceLayout")
        pshape = shp[: self.dim] + [1] + shp[self.dim :]
        k = self.dim
        try:
            b = self.parent._builder(pshape)
        except NotImplementedError:  # a parent built otherwise: project its linear layout
            parent = self.parent.to_linear(pshape)
            # The sliced out-dim has size 1 (no bits), so the parent's flat bases are already the
            # projection; only the register bases that became zero go.
            flat = {n: parent.flat_bases(n) for n in parent.in_dim_names}
            if "register" in flat:
                flat["register"] = [f for f in flat["register"] if f]
            return LinearLayout.from_flat(flat, [(f"dim{j}", s) for j, s in enumerate(shp)])
        # the sliced dim has size 1: its entries are zero; drop them, and the registers left zero
        bases = {n: [v[:k] + v[k + 1:] for v in vecs] for n, vecs in b.bases.items()}
        if "register" in bases:
            bases["register"] = [v for v in bases["register"] if any(v)]
        b.bases, b.sizes = bases, b.sizes[:k] + b.sizes[k + 1:]
        return b.build()


# ============================================================================ DistributedLinearLayout
@dataclass(frozen=True, repr=False)
class DistributedLinearLayout(DistributedLayout):
    """Gluon's ``DistributedLinearLayout(reg_bases, lane_bases, warp_bases, block_bases, shape)``.

    The layout is given by its bases; ``block_bases`` defaults to none and ``shape`` to the extent
    the bases span.  ``to_linear(shape)`` fits it to ``shape`` as Triton does (repeat in registers,
    broadcast by zeroing the largest bases).

        >>> d = DistributedLinearLayout(reg_bases=[], lane_bases=[[1], [2], [4], [8], [16]],
        ...                             warp_bases=[[32], [64]])
        >>> d.shape
        (128,)
        >>> d.to_linear([128]) == BlockedLayout([1], [32], [4], [0]).to_linear([128])
        True
    """

    family = "DistributedLinearLayout"
    reg_bases: Sequence[Sequence[int]]
    lane_bases: Sequence[Sequence[int]]
    warp_bases: Sequence[Sequence[int]]
    block_bases: Sequence[Sequence[int]] = field(default_factory=tuple)
    shape: Sequence[int] | None = None

    def __post_init__(self) -> None:
        who = "DistributedLinearLayout"
        rank = None
        if self.shape is not None:
            shp = int_tuple(self.shape, who, "shape", pow2=True)
            rank = len(shp)
        for name in ("reg_bases", "lane_bases", "warp_bases", "block_bases"):
            vecs = bases_tuple(getattr(self, name), who, name, rank)
            if vecs and rank is None:
                rank = len(vecs[0])
                vecs = bases_tuple(vecs, who, name, rank)
            _set(self, name, vecs)
        if rank is None:
            raise DimensionError(f"{who}: no bases and no shape; give shape= to fix the rank")
        if rank == 0:
            raise DimensionError(f"{who}: bases have no entries; the rank must be at least 1")
        span = [1] * rank
        for name in ("reg_bases", "lane_bases", "warp_bases", "block_bases"):
            for b in getattr(self, name):
                for i, x in enumerate(b):
                    if x >= span[i]:
                        span[i] = 1 << x.bit_length()
        if self.shape is None:
            shp = tuple(span)
        else:
            for i, (x, s) in enumerate(zip(span, shp)):
                if x > s:
                    raise BasisError(f"{who}: a basis reaches {x - 1} in dim {i}, beyond shape {list(shp)}")
        _set(self, "shape", shp)
        lay = self.linear_layout()
        if not lay.is_surjective():
            raise BasisError(f"{who}: the bases do not reach every element of shape {list(shp)}")

    @property
    def rank(self) -> int:
        """Number of tensor dims."""
        return len(self.shape)  # type: ignore[arg-type]

    @property
    def warp_size(self) -> int:
        return 1 << len(self.lane_bases)

    def linear_layout(self) -> LinearLayout:
        """The layout's own bases over its ``shape``.

            >>> DistributedLinearLayout([[1]], [[2], [4], [8], [16], [32]], []).linear_layout().out_dims
            {'dim0': 64}
        """
        return LinearLayout(
            {"register": self.reg_bases, "lane": self.lane_bases, "warp": self.warp_bases, "block": self.block_bases},
            [(f"dim{i}", s) for i, s in enumerate(self.shape)],  # type: ignore[arg-type]
            require_surjective=False,
        )

    @classmethod
    def from_linear(cls, layout: LinearLayout) -> DistributedLinearLayout:
        """The spelling of a distributed ``LinearLayout`` (in-dims register/lane/warp/block).

            >>> L = BlockedLayout([1], [32], [4], [0]).to_linear([128])
            >>> print(DistributedLinearLayout.from_linear(L))
            DistributedLinearLayout([], [[1], [2], [4], [8], [16]], [[32], [64]], shape=[128])
        """
        extra = set(layout.in_dim_names) - {"register", "lane", "warp", "block"}
        if extra:
            raise DimensionError(f"DistributedLinearLayout.from_linear: unexpected in-dims {sorted(extra)}")
        names = [f"dim{i}" for i in range(len(layout.out_dim_names))]
        if list(layout.out_dim_names) != names:
            raise DimensionError(f"DistributedLinearLayout.from_linear: out-dims must be {names}, got {list(layout.out_dim_names)}")
        b = layout.bases
        return cls(
            [list(x) for x in b.get("register", ())], [list(x) for x in b.get("lane", ())],
            [list(x) for x in b.get("warp", ())], [list(x) for x in b.get("block", ())],
            list(layout.out_dims.values()),
        )

    @cached_to_linear
    def to_linear(self, shape: Sequence[int] | None = None) -> LinearLayout:
        """Triton's linear layout over ``shape`` (default: the layout's own shape)."""
        who = "DistributedLinearLayout"
        shp = check_shape(self.shape if shape is None else shape, self.rank, who)  # type: ignore[arg-type]
        if list(shp) == list(self.shape):  # type: ignore[arg-type]
            return self.linear_layout()
        b = Builder(self.rank)
        for k, vecs in (("register", self.reg_bases), ("lane", self.lane_bases), ("warp", self.warp_bases),
                        ("block", self.block_bases)):
            b.bases[k] = [list(v) for v in vecs]
        b.sizes = list(self.shape)  # type: ignore[arg-type]
        b.order = _dim_order(self.reg_bases, self.lane_bases, self.rank)
        b.not_smaller(shp)
        b.not_larger(shp)
        return b.build()


def _dim_order(reg: Sequence[Sequence[int]], lane: Sequence[Sequence[int]], rank: int) -> list[int]:
    """Dims in the order registers then lanes first move them (Triton's LinearEncoding order)."""
    order: list[int] = []
    for v in list(reg) + list(lane):
        for i, x in enumerate(v):
            if x and i not in order:
                order.append(i)
    for i in reversed(range(rank)):
        if i not in order:
            order.append(i)
    return order


# ============================================================================ NVIDIA MMA
def matrix_order(rank: int, row_major: bool) -> list[int]:
    """Triton's ``getMatrixOrder``: the last two dims (row- or column-major), then the batch dims."""
    order = list(reversed(range(rank)))
    if not row_major:
        order[0], order[1] = order[1], order[0]
    return order


def _mma_tile(b: Builder, tile: Sequence[int], k_width: int, order: Sequence[int], rep_order: Sequence[int]) -> None:
    """Triton's ``nvidiaMmaTile``: kWidth registers and 4 lanes on the inner dim, 8 lanes on the
    outer, then register repeats over the outer and the inner dim."""
    b.touch("register")
    for d in rep_order:
        b.touch("register", d)
    inner, outer = order[0], order[1]
    m, n = tile[outer], tile[inner]
    b.identity("register", k_width, inner)
    b.identity("lane", 4, inner)
    b.identity("lane", 8, outer)
    b.identity("register", m // 8, outer)
    b.identity("register", n // (k_width * 4), inner)


@dataclass(frozen=True, repr=False)
class NVMMADistributedLayout(DistributedLayout):
    """Gluon's ``NVMMADistributedLayout(version, warps_per_cta, instr_shape, cga_layout)``: the
    accumulator layout of ``mma.sync`` (version [2, 0], instr_shape [16, 8]) and of ``wgmma``
    (version [3, 0], instr_shape [16, N, K]).

        >>> m = NVMMADistributedLayout([2, 0], [2, 2], [16, 8])
        >>> L = m.to_linear([32, 16])
        >>> L.bases["register"], L.bases["lane"]
        (((0, 1), (8, 0)), ((0, 2), (0, 4), (1, 0), (2, 0), (4, 0)))
        >>> L.bases["warp"]
        ((0, 8), (16, 0))
    """

    family = "NVMMADistributedLayout"
    version: Sequence[int]
    warps_per_cta: Sequence[int]
    instr_shape: Sequence[int]
    cga_layout: Sequence[Sequence[int]] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        who = "NVMMADistributedLayout"
        version = int_tuple(self.version, who, "version")
        if len(version) != 2 or version[0] not in (2, 3):
            raise LayoutError(f"{who}: version {list(version)} is not supported; expected [2, 0] (mma.sync) or [3, 0] (wgmma)")
        wpc = int_tuple(self.warps_per_cta, who, "warps_per_cta", pow2=True)
        rank = len(wpc)
        if rank < 2:
            raise DimensionError(f"{who}: warps_per_cta {list(wpc)} must have rank >= 2")
        instr = int_tuple(self.instr_shape, who, "instr_shape", pow2=True)
        if version[0] == 2:
            if len(instr) != rank or instr[-2:] != (16, 8) or any(x != 1 for x in instr[:-2]):
                raise LayoutError(f"{who}: instr_shape {list(instr)} for version 2 must be [16, 8] (batch dims 1)")
        else:
            if len(instr) != 3 or instr[0] != 16 or not 8 <= instr[1] <= 256:
                raise LayoutError(f"{who}: instr_shape {list(instr)} for version 3 must be [16, N, K] with N in 8..256")
            if rank != 2:
                raise DimensionError(f"{who}: version 3 (wgmma) is rank 2, warps_per_cta {list(wpc)} has rank {rank}")
            if math.prod(wpc) % 4:
                raise SizeError(f"{who}: version 3 needs whole warpgroups: warps_per_cta {list(wpc)} is not a multiple of 4 warps")
        cga = bases_tuple(self.cga_layout, who, "cga_layout", rank)
        check_cga(cga, who)
        _set(self, "version", version)
        _set(self, "warps_per_cta", wpc)
        _set(self, "instr_shape", instr)
        _set(self, "cga_layout", cga)

    @property
    def rank(self) -> int:
        return len(self.warps_per_cta)

    @property
    def is_hopper(self) -> bool:
        """Version 3 (wgmma)."""
        return self.version[0] == 3

    def _tile(self) -> list[int]:
        if self.is_hopper:
            return [self.instr_shape[0], self.instr_shape[1]]
        return list(self.instr_shape)

    def _builder(self, shape: Sequence[int]) -> Builder:
        shp = check_shape(shape, self.rank, "NVMMADistributedLayout")
        rank = self.rank
        b = Builder(rank)
        order = matrix_order(rank, True)
        _mma_tile(b, self._tile(), 2, order, order)
        b.identity_nd("warp", self.warps_per_cta, matrix_order(rank, not self.is_hopper))
        b.combine_cga(self.cga_layout, shp)
        return b


# ============================================================================ DotOperandLayout
def dot_operand_order(op: int, rank: int) -> list[int]:
    """Triton's ``getOrderForDotOperand(op, rank, kContig=True)``: K fastest."""
    order = matrix_order(rank, True)  # [rank-1, rank-2, ...]
    if op == 1:
        order[0], order[1] = order[1], order[0]
    return order


@dataclass(frozen=True, repr=False)
class DotOperandLayout(DistributedLayout):
    """Gluon's ``DotOperandLayout(operand_index, parent, k_width)``: the register layout of an MMA
    operand (``operand_index`` 0 = A, 1 = B) for an ``NVMMADistributedLayout``, ``AMDMFMALayout``
    or ``AMDWMMALayout`` parent (WMMA: see ``AMDWMMALayout.dot_operand_builder``), or of an FMA
    dot for a ``BlockedLayout`` parent (each thread holds the whole K extent).

        >>> mma = NVMMADistributedLayout([2, 0], [1, 1], [16, 8])
        >>> L = DotOperandLayout(0, mma, 2).to_linear([16, 16])
        >>> L.bases["register"]
        ((0, 1), (8, 0), (0, 8))
        >>> DotOperandLayout(1, NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16]), 2)
        Traceback (most recent call last):
        ...
        linlayout.errors.UnsupportedError: DotOperandLayout: operand B of a wgmma (version 3) parent lives in shared memory; only operand A has a register layout
    """

    family = "DotOperandLayout"
    operand_index: int
    parent: DistributedLayout
    k_width: int

    def __post_init__(self) -> None:
        from linlayout.errors import UnsupportedError

        who = "DotOperandLayout"
        op = as_int(self.operand_index, who, "operand_index")
        if op not in (0, 1):
            raise LayoutError(f"{who}: operand_index must be 0 (A) or 1 (B), got {op}")
        kw = as_int(self.k_width, who, "k_width")
        p = self.parent
        if isinstance(p, NVMMADistributedLayout):
            if not is_pow2(kw):
                raise SizeError(f"{who}: k_width {kw} must be a power of two for an MMA parent")
            if p.is_hopper and op == 1:
                raise UnsupportedError(
                    f"{who}: operand B of a wgmma (version 3) parent lives in shared memory; only operand A has a register layout")
        elif isinstance(p, BlockedLayout):
            if kw < 0:
                raise SizeError(f"{who}: k_width {kw} must not be negative")
        elif getattr(p, "family", None) == "AMDMFMALayout":
            if not is_pow2(kw):
                raise SizeError(f"{who}: k_width {kw} must be a power of two for an MFMA parent")
        elif getattr(p, "family", None) == "AMDWMMALayout":
            if not p.accepts_dot_k_width(kw):  # type: ignore[attr-defined]
                raise SizeError(f"{who}: k_width {kw} is not accepted for a WMMA v{p.version} parent; "  # type: ignore[attr-defined]
                                f"Triton 3.9 takes {p.dot_k_widths()}")  # type: ignore[attr-defined]
        else:
            raise UnsupportedError(f"{who}: parent must be an NVMMADistributedLayout, AMDMFMALayout, AMDWMMALayout "
                                   f"or BlockedLayout here, got {type(p).__name__}")

    @property
    def rank(self) -> int:
        return self.parent.rank

    @property
    def cga_layout(self) -> tuple[tuple[int, ...], ...]:
        """The parent's CGA bases with the K dim zeroed (every CTA along K holds the operand)."""
        k = self.rank - 1 if self.operand_index == 0 else self.rank - 2
        return tuple(tuple(0 if i == k else x for i, x in enumerate(v)) for v in self.parent.cga_layout)  # type: ignore[attr-defined]

    def _builder(self, shape: Sequence[int]) -> Builder:
        shp = check_shape(shape, self.rank, "DotOperandLayout")
        rank = self.rank
        k_dim = rank - 1 if self.operand_index == 0 else rank - 2
        p = self.parent
        if p.family == "AMDMFMALayout":
            return self._mfma_builder(shp)
        if p.family == "AMDWMMALayout":
            return p.dot_operand_builder(self.operand_index, self.k_width, shp, self.cga_layout)  # type: ignore[attr-defined]
        b = Builder(rank)
        if isinstance(p, BlockedLayout):
            rep = list(p.order)
            for d in rep:
                b.touch("register", d)
            size = list(p.size_per_thread)
            size[k_dim] = shp[k_dim]
            b.identity_nd("register", size, p.order)
            for in_dim, sizes in (("lane", p.threads_per_warp), ("warp", p.warps_per_cta)):
                b.touch(in_dim)
                for d in p.order:
                    (b.zeros if d == k_dim else b.identity)(in_dim, sizes[d], d)
        else:
            assert isinstance(p, NVMMADistributedLayout)
            kw = self.k_width
            tile = [1] * rank
            if self.operand_index == 0:
                tile[rank - 2], tile[rank - 1] = 16, kw * 8
            else:
                tile[rank - 2], tile[rank - 1] = kw * 8, 8
            order = dot_operand_order(self.operand_index, rank)
            _mma_tile(b, tile, kw, order, order)
            b.touch("warp")
            wpc = p.warps_per_cta
            for d in matrix_order(rank, not p.is_hopper):
                (b.zeros if d == k_dim else b.identity)("warp", wpc[d], d)
        b.combine_cga(self.cga_layout, shp)
        return b

    def _mfma_builder(self, shp: list[int]) -> Builder:
        """An MFMA operand (Triton 3.9's ``mfmaDotToLinearLayout``): ``k_width`` registers along K,
        lanes along the non-K dim (the instruction's M or N) then K, repeated along K over the
        whole tensor and along the non-K dim for ``tiles_per_warp``; warps as the parent's."""
        p = self.parent
        rank = self.rank
        op = self.operand_index
        k_dim = rank - 1 if op == 0 else rank - 2
        nonk_dim = rank - 2 if op == 0 else rank - 1
        m, n = p.instr_shape[0], p.instr_shape[1]  # type: ignore[attr-defined]
        nonk = m if op == 0 else n
        kw = self.k_width
        b = Builder(rank)
        for d in dot_operand_order(op, rank):  # K first: the order the tensor is covered in
            b.touch("register", d)
        b.touch("lane")
        b.identity("register", kw, k_dim)
        b.identity("lane", nonk, nonk_dim)
        b.identity("lane", 64 // nonk, k_dim)
        k_tile = 64 // nonk * kw
        if (m, n, op) in ((64, 4, 0), (4, 64, 1)):  # the 64x64 operand of a 64x4 / 4x64 MFMA
            b.identity("register", 16, k_dim)
            k_tile *= 16
        if shp[k_dim] > k_tile:
            b.identity("register", shp[k_dim] // k_tile, k_dim)
        tpw = p.tiles_per_warp or (1,) * rank  # type: ignore[attr-defined]
        b.identity("register", tpw[nonk_dim], nonk_dim)
        b.identity_nd("warp", p.warps_per_cta, matrix_order(rank, True))  # type: ignore[attr-defined]
        b.combine_cga(p.cga_layout, shp)  # type: ignore[attr-defined]
        return b
