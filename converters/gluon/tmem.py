"""Blackwell tensor-memory layouts: ``TensorMemoryLayout`` and ``TensorMemoryScalesLayout``.

Tensor memory is 128 rows (lanes) by 512 32-bit columns per CTA.  ``to_linear(shape)`` maps the
in-dims ``row`` and ``col`` to the tensor's ``dim0, dim1``, as Triton 3.9 does.

    >>> L = TensorMemoryLayout([128, 64], col_stride=1).to_linear([128, 128])
    >>> L.bases["row"][-1], L.bases["col"][-1]      # rows are dim0; the 2nd N-block follows in col
    ((64, 0), (0, 64))
    >>> TensorMemoryLayout([64, 64], 1).to_linear([64, 64]).bases["row"]  # M=64: lanes 16-31 unused
    ((1, 0), (2, 0), (4, 0), (8, 0), (0, 0), (16, 0), (32, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from linlayout.contract import Kind
from linlayout.errors import LayoutError, SizeError
from linlayout.linear import LinearLayout

from ._build import cga_split, check_cga, check_shape, is_pow2, log2
from .base import GluonLayout, cached_to_linear
from .distributed import DistributedLinearLayout, _set, as_int, int_tuple

__all__ = ["TensorMemoryLayout", "TensorMemoryScalesLayout"]


def _as_bool(v: object, who: str, what: str) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    raise LayoutError(f"{who}: {what} must be a bool, got {v!r}")


def check_alloc(shape: Sequence[int], alloc_shape: Sequence[int], who: str) -> list[int]:
    """The last two dims of ``alloc_shape`` (a leading multi-buffering dim is ignored), checked to
    hold the 2-D view ``shape``."""
    alloc = [as_int(x, who, "alloc_shape") for x in alloc_shape]
    if len(alloc) < 2 or any(s > a for s, a in zip(shape, alloc[-2:])):
        raise SizeError(f"{who}: shape {list(shape)} must fit in the last two dims of alloc_shape {alloc}")
    return alloc[-2:]


class _TensorMemory:
    """What both tensor-memory layouts share: the CGA split (each CTA holds its own tile of the
    tensor in its own tensor memory; ``cga_layout`` bases are in CTA-tile units, as Gluon's) and
    ``reg_layout``, the register layout of a ``tcgen05`` load or store."""

    cga_layout: Sequence[Sequence[int]]
    kind: ClassVar[Kind] = Kind.TENSOR_MEMORY

    def cta_split(
        self, shape: Sequence[int], alloc_shape: Sequence[int] | None = None
    ) -> tuple[list[int], list[int], list[tuple[int, ...]]]:
        """How the CTAs share a ``shape`` view of an ``alloc_shape`` allocation (default: the
        view itself): each CTA's part of the view, each CTA's part of the allocation, and the
        ``block`` bases (where each CTA's part starts; zero where the view ends before it).

            >>> TensorMemoryLayout([128, 64], 1, cga_layout=[[0, 1]]).cta_split([128, 128])
            ([128, 64], [128, 64], [(0, 64)])
            >>> TensorMemoryLayout([128, 64], 1, cga_layout=[[1, 0]]).cta_split([128, 64], [256, 64])
            ([128, 64], [128, 64], [(0, 0)])
        """
        shp = check_shape(shape, 2, type(self).__name__)
        base = shp if alloc_shape is None else check_alloc(shp, alloc_shape, type(self).__name__)
        if not self.cga_layout:
            return shp, base, []
        cut, tiles = cga_split(self.cga_layout, base)
        per_alloc = [max(1, a // t) for a, t in zip(base, tiles)]
        blocks = [tuple(v * p if v * p < s else 0 for v, p, s in zip(b, per_alloc, shp)) for b in cut]
        return [min(s, p) for s, p in zip(shp, per_alloc)], per_alloc, blocks

    @cached_to_linear
    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """Triton's ``row``/``col`` (and ``block`` with a ``cga_layout``) -> ``dim0``/``dim1``
        layout over ``shape`` (2-D)."""
        shp = check_shape(shape, 2, type(self).__name__)
        per, _, blocks = self.cta_split(shp)
        cta = self.cta_linear(per)
        if not self.cga_layout:
            return cta
        bases = {**cta.bases, "block": blocks}
        return LinearLayout(bases, [("dim0", shp[0]), ("dim1", shp[1])], require_surjective=False)

    def cta_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The ``row``/``col`` layout of one CTA's ``shape`` tile."""
        raise NotImplementedError


class _RegisterAccess(_TensorMemory):
    """``reg_layout``: the register layout of a ``tcgen05`` load or store of this tensor memory."""

    def reg_layout(
        self,
        shape: Sequence[int],
        *,
        element_bitwidth: int,
        num_warps: int = 4,
        instr_variant: str = "32x32b",
        alloc_shape: Sequence[int] | None = None,
    ) -> DistributedLinearLayout:
        """Gluon's ``tensor_memory_descriptor.get_reg_layout``: see
        :func:`converters.gluon.tmem_reg.tmem_reg_layout`.

            >>> TensorMemoryLayout([128, 32], 1).reg_layout([128, 32], element_bitwidth=32).reg_bases[-1]
            (0, 16)
        """
        from .tmem_reg import tmem_reg_layout  # tmem_reg builds on this module

        return tmem_reg_layout(self, shape, element_bitwidth=element_bitwidth, num_warps=num_warps,  # type: ignore[arg-type]
                               instr_variant=instr_variant, alloc_shape=alloc_shape)


@dataclass(frozen=True, repr=False)
class TensorMemoryLayout(_RegisterAccess, GluonLayout):
    """Gluon's ``TensorMemoryLayout(block, col_stride, cga_layout, two_ctas, fp4_padded)``.

    The tensor is cut into ``block = [blockM, blockN]`` blocks (M first, then N).  A block of 128
    rows fills the 128 lanes; a block of 64 rows uses lanes 0-15 of each 32-lane quarter and puts
    the next block in lanes 16-31.  ``col_stride`` 32-bit columns separate adjacent elements
    (unpacked sub-32-bit types), so the lowest ``log2(col_stride)`` column bits are unused.

        >>> TensorMemoryLayout([128, 32], 2).to_linear([128, 32]).bases["col"]
        ((0, 0), (0, 1), (0, 2), (0, 4), (0, 8), (0, 16))
        >>> TensorMemoryLayout([128, 64], 1).to_linear([64, 64])
        Traceback (most recent call last):
        ...
        linlayout.errors.SizeError: TensorMemoryLayout: 64 rows per CTA, fewer than block [128, 64] (Triton aborts: repsM >= 1)
    """

    family = "TensorMemoryLayout"
    block: Sequence[int]
    col_stride: int
    cga_layout: Sequence[Sequence[int]] = field(default_factory=tuple)
    two_ctas: bool = False
    fp4_padded: bool = False

    def __post_init__(self) -> None:
        who = "TensorMemoryLayout"
        block = int_tuple(self.block, who, "block", length=2)
        if block[0] not in (64, 128):
            raise SizeError(f"{who}: block[0] (blockM) = {block[0]}; tensor memory blocks have 64 or 128 rows")
        if not is_pow2(block[1]) or block[1] > 512:
            raise SizeError(f"{who}: block[1] (blockN) = {block[1]} must be a power of two up to 512")
        cs = as_int(self.col_stride, who, "col_stride")
        if cs not in (1, 2, 4):
            raise SizeError(f"{who}: col_stride {cs} must be 1, 2 or 4 (1 packed; 32 / bitwidth for unpacked 16- or 8-bit)")
        cga = check_cga(self.cga_layout, 2, who)
        _set(self, "block", block)
        _set(self, "col_stride", cs)
        _set(self, "cga_layout", cga)
        _set(self, "two_ctas", _as_bool(self.two_ctas, who, "two_ctas"))
        if self.two_ctas and (not cga or cga[0] != (1, 0)):
            raise LayoutError(f"{who}: two_ctas needs a cga_layout whose first block basis is [1, 0] (the CTA pair "
                              f"splits M), got {[list(b) for b in cga]}")
        _set(self, "fp4_padded", _as_bool(self.fp4_padded, who, "fp4_padded"))
        if self.fp4_padded and cs != 1:
            raise LayoutError(f"{who}: fp4_padded needs col_stride 1 (the padding is the unused half byte), got {cs}")

    @property
    def _stride(self) -> int:
        """Element slots per 32-bit column step: ``col_stride``, or 2 for padded fp4 (each packed
        byte of two fp4 values followed by a byte of padding)."""
        return 2 if self.fp4_padded else self.col_stride

    @property
    def rank(self) -> int:
        return 2

    def cta_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The ``row``/``col`` layout of one CTA's tile (the blocks of ``block`` in M, then N)."""
        who = "TensorMemoryLayout"
        m, n = check_shape(shape, 2, who)
        bm, bn = self.block
        if m < bm:
            raise SizeError(f"{who}: {m} rows per CTA, fewer than block {[bm, bn]} (Triton aborts: repsM >= 1)")
        bn = min(bn, n)
        blocks = [(bm << i, 0) for i in range(log2(m // bm))] + [(0, bn << i) for i in range(log2(n // bn))]
        # the block's column slots: col_stride - 1 unused ones after each element
        col = [(0, 0)] * log2(self._stride) + [(0, 1 << i) for i in range(log2(bn))]
        if bm == 64 and self.two_ctas:
            # a CTA pair runs one 128-row MMA: each CTA's 64 rows fill all 128 lanes, lanes
            # 64-127 holding the upper half of the block's column slots
            if not col:
                raise SizeError(f"{who}: two_ctas with a [64, 1] block of packed elements has no column slots "
                                "to split over the two lane halves (Triton aborts)")
            row = [(1 << i, 0) for i in range(6)] + [col[-1]]
            return LinearLayout({"row": row, "col": col[:-1] + blocks}, [("dim0", m), ("dim1", n)],
                                require_surjective=False)
        if bm == 128:
            row = [(1 << i, 0) for i in range(7)]
        else:
            extra = blocks.pop(0) if blocks else (0, 0)
            row = [(1 << i, 0) for i in range(4)] + [extra, (16, 0), (32, 0)]
        col += blocks
        return LinearLayout({"row": row, "col": col}, [("dim0", m), ("dim1", n)], require_surjective=False)


@dataclass(frozen=True, repr=False)
class TensorMemoryScalesLayout(_RegisterAccess, GluonLayout):
    """Gluon's ``TensorMemoryScalesLayout(cga_layout)``: the scale factors of a block-scaled MMA.

    Lanes 0-31 hold 32 rows (each 32-lane quarter a copy); a 32-bit column holds 4 scales of a row;
    further columns step through rows 32, 64, ... and then through groups of 4 scales.

        >>> L = TensorMemoryScalesLayout().to_linear([128, 8])
        >>> L.bases["col"]
        ((0, 1), (0, 2), (32, 0), (64, 0), (0, 4))
    """

    family = "TensorMemoryScalesLayout"
    cga_layout: Sequence[Sequence[int]] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        _set(self, "cga_layout", check_cga(self.cga_layout, 2, "TensorMemoryScalesLayout"))

    @property
    def rank(self) -> int:
        return 2

    def cta_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The ``row``/``col`` layout of one CTA's tile of scales."""
        m, n = check_shape(shape, 2, "TensorMemoryScalesLayout")

        def cut(v: tuple[int, int]) -> tuple[int, int]:
            return (v[0] if v[0] < m else 0, v[1] if v[1] < n else 0)

        row = [cut((1 << i, 0)) for i in range(5)] + [(0, 0), (0, 0)]
        col = [cut((0, 1)), cut((0, 2))]
        col += [cut((32 << i, 0)) for i in range(max(1, log2(m) - 5))]
        col += [(0, 4 << i) for i in range(max(0, log2(n) - 2))]
        return LinearLayout({"row": row, "col": col}, [("dim0", m), ("dim1", n)], require_surjective=False)
