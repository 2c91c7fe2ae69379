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

from linlayout.checks import expect, is_pow2
from linlayout.contract import Kind
from linlayout.errors import BasisError, DimensionError, LayoutError, SizeError, UnsupportedError
from linlayout.linear import LinearLayout


from ._build import Builder, check_shape, colex_shifts, powers
from .base import GluonLayout, cached_to_linear, to_linear_memo
from .fields import as_int, bases_tuple, check_cga, check_order, int_tuple, set_field, uint32_tuple

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

    # A family that has dot operands (MMA, MFMA, WMMA, Blocked) overrides these two: the operand
    # layout of each family lives beside the family.
    def check_dot_operand(self, operand_index: int, k_width: int, who: str) -> None:
        """Refuse a ``k_width`` (or operand) this parent's dot operands cannot have."""
        raise UnsupportedError(f"{who}: parent must be an NVMMADistributedLayout, AMDMFMALayout, AMDWMMALayout "
                               f"or BlockedLayout here, got {type(self).__name__}")

    @staticmethod
    def operand_and_k_width(operand_index: Any, k_width: Any, who: str) -> tuple[int, int]:
        """``operand_index`` (0 = A or 1 = B) and ``k_width`` (an int), checked: what every
        :meth:`check_dot_operand` reads first (the hooks are public).

            >>> DistributedLayout.operand_and_k_width(1, 8, "example")
            (1, 8)
        """
        if type(operand_index) is not int or operand_index not in (0, 1):
            raise LayoutError(f"{who}: operand_index must be 0 (A) or 1 (B), got {operand_index!r:.40}")
        return operand_index, as_int(k_width, who, "k_width")

    def dot_builder_args(self, operand_index: int, k_width: int, shape: Sequence[int], cga: Sequence[Sequence[int]],
                         who: str) -> tuple[int, int, list[int], tuple[tuple[int, ...], ...]]:
        """The arguments of :meth:`dot_operand_builder` checked (the hook is public): an operand
        index 0 or 1, an int ``k_width`` this parent accepts, a shape of this layout's rank and
        CGA bases of that rank; a :class:`~linlayout.errors.LayoutError` otherwise."""
        operand_index, k_width = self.operand_and_k_width(operand_index, k_width, who)
        self.check_dot_operand(operand_index, k_width, who)
        shp = check_shape(shape, self.rank, who)
        return operand_index, k_width, shp, check_cga(cga, self.rank, who)

    def dot_operand_builder(self, operand_index: int, k_width: int, shape: list[int],
                            cga: Sequence[Sequence[int]]) -> Builder:
        """The register layout of dot operand ``operand_index`` (0 = A, 1 = B) of this parent over
        ``shape``, before packing (``cga``: the parent's CGA with the K dim zeroed)."""
        raise UnsupportedError(f"{type(self).__name__} has no dot operands of its own (the parent of a DotOperandLayout "
                               "is an NVMMADistributedLayout, AMDMFMALayout, AMDWMMALayout or BlockedLayout)")

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
        check_cga(cga, rank, who)
        set_field(self, "size_per_thread", spt)
        set_field(self, "threads_per_warp", tpw)
        set_field(self, "warps_per_cta", wpc)
        set_field(self, "order", order)
        set_field(self, "cga_layout", cga)

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

    def check_dot_operand(self, operand_index: int, k_width: int, who: str) -> None:
        operand_index, k_width = self.operand_and_k_width(operand_index, k_width, who)
        if k_width < 0:
            raise SizeError(f"{who}: k_width {k_width} must not be negative")

    def dot_operand_builder(self, operand_index: int, k_width: int, shape: list[int],
                            cga: Sequence[Sequence[int]]) -> Builder:
        """A dot operand of a blocked parent (FMA dots): each thread holds the whole K dim of its
        elements; lanes and warps as the parent's, broadcast along K."""
        operand_index, k_width, shape, cga = self.dot_builder_args(operand_index, k_width, shape, cga, type(self).__name__)
        rank = self.rank
        k_dim = rank - 1 if operand_index == 0 else rank - 2
        b = Builder(rank)
        for d in self.order:
            b.touch("register", d)
        size = list(self.size_per_thread)
        size[k_dim] = shape[k_dim]
        b.identity_nd("register", size, self.order)
        for in_dim, sizes in (("lane", self.threads_per_warp), ("warp", self.warps_per_cta)):
            b.touch(in_dim)
            for d in self.order:
                (b.zeros if d == k_dim else b.identity)(in_dim, sizes[d], d)
        b.combine_cga(cga, shape)
        return b

    def _builder(self, shape: Sequence[int]) -> Builder:
        shp = check_shape(shape, self.rank, "BlockedLayout")
        b = self._cta()
        b.combine_cga(self.cga_layout, shp, broadcast_registers=False)  # Triton 3.9 drops cut registers here
        return b

    @cached_to_linear
    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """Triton's linear layout of this layout over ``shape`` (one CTA: :func:`blocked_linear`)."""
        shp = check_shape(shape, self.rank, "BlockedLayout")
        if self.cga_layout:
            return self._builder(shp).build()
        return blocked_linear(self.size_per_thread, self.threads_per_warp, self.warps_per_cta, self.order, shp)


@to_linear_memo(4096)
def _blocked_dim(spt: int, tpw: int, wpc: int, size: int, shift: int) -> tuple[tuple[int, ...], ...]:
    """One tensor dim of a one-CTA blocked layout over a dim of ``size`` whose bits start at
    ``shift`` in the flat form: the flat bases it contributes as (registers of a thread, lanes,
    warps, registers that repeat the CTA tile).  Triton's ensureLayoutNotLargerThan removes the
    bases of value ``size`` and up (lanes and warps zeroed, registers dropped); a dim larger than
    the tile repeats it in registers."""
    tile = spt * tpw * wpc
    return (
        tuple(v << shift for v in powers(1, min(spt, size))),
        tuple(v << shift if v < size else 0 for v in powers(spt, spt * tpw)),
        tuple(v << shift if v < size else 0 for v in powers(spt * tpw, tile)),
        tuple(v << shift for v in powers(tile, size)),
    )


@to_linear_memo(256)
def _out_dims(shape: tuple[int, ...]) -> tuple[list[tuple[str, int]], tuple[int, ...]]:
    """The out-dims ``dim0..`` of ``shape`` and where each dim's bits start in the flat form."""
    return [(f"dim{i}", s) for i, s in enumerate(shape)], tuple(colex_shifts(shape))


def blocked_linear(
    size_per_thread: Sequence[int],
    threads_per_warp: Sequence[int],
    warps_per_cta: Sequence[int],
    order: Sequence[int],
    shape: Sequence[int],
    sliced: int | None = None,
) -> LinearLayout:
    """The linear layout of ``BlockedLayout(size_per_thread, threads_per_warp, warps_per_cta,
    order)`` (one CTA) over ``shape``, or with ``sliced=k`` of ``SliceLayout(k, that layout)``
    (then ``shape`` has one dim fewer than the fields), built straight from the fields: each
    dim's bases are computed once per (fields of the dim, extent) and remembered, then laid out
    in ``order``.  The fields are trusted (powers of two, one entry per dim, ``order`` a
    permutation, ``shape`` powers of two), so this is not part of the package's API:
    :class:`BlockedLayout` checks what a user writes and calls it; a sweep over spellings it
    enumerated itself (:mod:`linlayout.app.spellings`) calls it directly.

        >>> L = blocked_linear((2, 4), (16, 2), (2, 2), (1, 0), [64, 16])
        >>> L == BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0]).to_linear([64, 16])
        True
        >>> blocked_linear((1, 1), (1, 32), (1, 4), (1, 0), [128], sliced=0).bases["lane"][:2]
        ((1,), (2,))
    """
    outs, shifts = _out_dims(tuple(shape))
    if sliced is not None:  # the sliced dim has extent 1: its lanes and warps are zero, no registers
        shifts = shifts[:sliced] + (0,) + shifts[sliced:]
        shape = [*shape[:sliced], 1, *shape[sliced:]]
    regs: list[int] = []
    lanes: list[int] = []
    warps: list[int] = []
    repeats: list[int] = []
    for d in order:
        r, ln, w, rep = _blocked_dim(size_per_thread[d], threads_per_warp[d], warps_per_cta[d], shape[d], shifts[d])
        regs += r
        lanes += ln
        warps += w
        repeats += rep
    return LinearLayout.from_flat({"register": regs + repeats, "lane": lanes, "warp": warps, "block": []}, outs)


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
        p = self.parent
        if type(p) is BlockedLayout and not p.cga_layout:
            return blocked_linear(p.size_per_thread, p.threads_per_warp, p.warps_per_cta, p.order, shp, sliced=k)
        try:
            b = self.parent._builder(pshape)
        except NotImplementedError:  # a parent built otherwise: project its linear layout
            parent = self.parent.to_linear(pshape)
            # The sliced out-dim has size 1 (no bits), so the parent's flat bases are already the
            # projection; only the register bases that became zero go.
            flat = {n: list(parent.flat_bases(n)) for n in parent.in_dim_names}
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
            set_field(self, name, vecs)
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
        set_field(self, "shape", shp)
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
        expect(layout, LinearLayout, "DistributedLinearLayout.from_linear: layout")
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
        # Triton's binding takes version and instr_shape as lists of 32-bit unsigned ints of any
        # length; its C++ reads version[0] (and version[1], the minor, which plays no part in the
        # layout) and, for the accumulator only, the instruction tile (:meth:`_tile`)
        version = uint32_tuple(self.version, who, "version")
        if not version or version[0] not in (2, 3):
            raise LayoutError(f"{who}: version {list(version)} is not supported; expected [2, 0] (mma.sync) or [3, 0] (wgmma)")
        wpc = int_tuple(self.warps_per_cta, who, "warps_per_cta", pow2=True)
        rank = len(wpc)
        if rank < 2:
            raise DimensionError(f"{who}: warps_per_cta {list(wpc)} must have rank >= 2")
        instr = uint32_tuple(self.instr_shape, who, "instr_shape")
        cga = bases_tuple(self.cga_layout, who, "cga_layout", rank)
        check_cga(cga, rank, who)
        set_field(self, "version", version)
        set_field(self, "warps_per_cta", wpc)
        set_field(self, "instr_shape", instr)
        set_field(self, "cga_layout", cga)

    @property
    def rank(self) -> int:
        return len(self.warps_per_cta)

    @property
    def is_hopper(self) -> bool:
        """Version 3 (wgmma)."""
        return self.version[0] == 3

    def _operand_a_rows(self) -> int:
        """The rows of a wgmma operand A's tile, as Triton 3.9 reads them: ``instr_shape[rank - 2]``
        (the instruction's M for a rank-2 layout; for rank 3 that entry is the instruction's N),
        a multiple of 8 with a power-of-two eighth (0 adds nothing: one row of 8 lanes).

            >>> NVMMADistributedLayout([3, 0], [4, 1], [32, 64, 16])._operand_a_rows()
            32
        """
        who = "DotOperandLayout(0, NVMMADistributedLayout)"
        instr, r = list(self.instr_shape), self.rank - 2
        if r >= len(instr):
            raise DimensionError(f"{who}: instr_shape {instr} has no entry {r}, which Triton reads as the rows of a "
                                 f"rank-{self.rank} operand A (it aborts)")
        m = instr[r]
        if m % 8 or not (m == 0 or is_pow2(m // 8)):
            raise SizeError(f"{who}: instr_shape[{r}] = {m} rows of operand A are not a multiple of 8 with a "
                            f"power-of-two quotient (Triton aborts on it)")
        return max(m, 8)

    def _tile(self) -> list[int]:
        """The accumulator's instruction tile as Triton 3.9's ``nvidiaMmaTile`` takes it:
        ``instr_shape`` (version 2) or its first two entries (version 3), one entry per dim; M and
        N (the last two) multiples of 8 whose eighths are powers of two (an eighth of 0 adds
        nothing, as Triton's identity of size 0); the batch entries are not read.

            >>> NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16])._tile()
            [16, 64]
            >>> NVMMADistributedLayout([2, 0], [2, 2], [16, 4])._tile()
            Traceback (most recent call last):
            ...
            linlayout.errors.SizeError: NVMMADistributedLayout: instruction tile [16, 4]: N = 4 is not a multiple of 8 with a power-of-two quotient (Triton aborts on it)
        """
        who = "NVMMADistributedLayout"
        instr = list(self.instr_shape)
        tile = instr[:2] if self.is_hopper else instr
        if len(tile) != self.rank:
            what = "its first two entries (version 3)" if self.is_hopper else "version 2"
            raise DimensionError(
                f"{who}: instr_shape {instr} gives a tile of {len(tile)} dims ({what}) for a rank-{self.rank} "
                f"layout; Triton's accumulator needs one entry per dim and aborts otherwise")
        for name, x in (("M", tile[-2]), ("N", tile[-1])):
            if x % 8 or not (x == 0 or is_pow2(x // 8)):
                raise SizeError(f"{who}: instruction tile {tile}: {name} = {x} is not a multiple of 8 with a "
                                f"power-of-two quotient (Triton aborts on it)")
        return tile[:-2] + [max(x, 8) for x in tile[-2:]]

    def check_dot_operand(self, operand_index: int, k_width: int, who: str) -> None:
        operand_index, k_width = self.operand_and_k_width(operand_index, k_width, who)
        if not is_pow2(k_width):
            raise SizeError(f"{who}: k_width {k_width} must be a power of two for an MMA parent")
        if self.is_hopper and operand_index == 1:
            raise UnsupportedError(
                f"{who}: operand B of a wgmma (version 3) parent lives in shared memory; only operand A has a register layout")
        if self.is_hopper:
            self._operand_a_rows()

    def dot_operand_builder(self, operand_index: int, k_width: int, shape: list[int],
                            cga: Sequence[Sequence[int]]) -> Builder:
        """An MMA operand (Triton 3.9's ``nvidiaDotToLinearLayout``): the ``mma.sync`` operand tile
        with ``k_width`` registers along K, repeated over the tensor; warps as the parent's,
        broadcast along K."""
        operand_index, k_width, shape, cga = self.dot_builder_args(operand_index, k_width, shape, cga, type(self).__name__)
        rank = self.rank
        k_dim = rank - 1 if operand_index == 0 else rank - 2
        b = Builder(rank)
        tile = [1] * rank
        instr_m = self._operand_a_rows() if self.is_hopper else int(self.instr_shape[rank - 2])
        k_tile = k_width * (4 if instr_m == 8 else 8)  # fp64's m8n8k4: a K of 4 per k_width
        if operand_index == 0:
            tile[rank - 2], tile[rank - 1] = instr_m, k_tile
        else:
            tile[rank - 2], tile[rank - 1] = k_tile, 8
        order = dot_operand_order(operand_index, rank)
        _mma_tile(b, tile, k_width, order, order)
        b.touch("warp")
        for d in matrix_order(rank, not self.is_hopper):
            (b.zeros if d == k_dim else b.identity)("warp", self.warps_per_cta[d], d)
        b.combine_cga(cga, shape)
        return b

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
        who = "DotOperandLayout"
        op = as_int(self.operand_index, who, "operand_index")
        if op not in (0, 1):
            raise LayoutError(f"{who}: operand_index must be 0 (A) or 1 (B), got {op}")
        kw = as_int(self.k_width, who, "k_width")
        if not isinstance(self.parent, DistributedLayout):
            raise UnsupportedError(f"{who}: parent must be a distributed layout, got {type(self.parent).__name__}")
        self.parent.check_dot_operand(op, kw, who)

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
        return self.parent.dot_operand_builder(self.operand_index, self.k_width, shp, self.cga_layout)
