"""Blackwell tensor memory: ``TensorMemoryLayout``, ``TensorMemoryScalesLayout``, and the register
layouts of the ``tcgen05`` loads and stores that read and write it (:func:`tmem_reg_layout`).

Tensor memory is 128 rows (lanes) by 512 32-bit columns per CTA.  ``to_linear(shape)`` maps the
in-dims ``row`` and ``col`` to the tensor's ``dim0, dim1``, as Triton 3.9 does.

    >>> L = TensorMemoryLayout([128, 64], col_stride=1).to_linear([128, 128])
    >>> L.bases["row"][-1], L.bases["col"][-1]      # rows are dim0; the 2nd N-block follows in col
    ((64, 0), (0, 64))
    >>> TensorMemoryLayout([64, 64], 1).to_linear([64, 64]).bases["row"]  # M=64: lanes 16-31 unused
    ((1, 0), (2, 0), (4, 0), (8, 0), (0, 0), (16, 0), (32, 0))

**Register layouts of tcgen05 loads and stores.**
A warp reading tensor memory with one of the ``tcgen05`` shapes gets a fixed pattern of
(row, column) per (register, lane); four warps cover the 128 rows (warp ``w`` may only touch rows
``32 (w % 4)`` up to ``32 (w % 4) + 31``).  The register layout of a whole load is that access tile,
widened by registers (and extra warps) along the columns, composed with the tensor-memory layout
``row, col -> dim0, dim1``.  This is what Triton 3.9's ``compute_tmem_reg_layout`` (Gluon's
``tensor_memory_descriptor.get_reg_layout``) returns; the generated corpus
``tests/oracles/triton-3.9-generated/tmem_reg.jsonl`` holds its answers.

The 32-bit access tiles (register and lane bases as ``(row, col)``; warps add rows 32 and 64):

==========  ====================================  ==================================
atom        register bases                        lane bases
==========  ====================================  ==================================
``32x32b``  (none)                                rows 1, 2, 4, 8, 16
``16x64b``  (none)                                row 8, col 1, rows 1, 2, 4
``16x128b`` row 8                                 cols 1, 2, rows 1, 2, 4
``16x256b`` col 1, row 8                          cols 2, 4, rows 1, 2, 4
==========  ====================================  ==================================

A 16-row atom on a layout that uses 32 rows per warp covers rows 16-31 with one more warp
(more than 4 warps) or one more register.  Narrower elements first pack adjacent columns into a
32-bit register (``col_stride`` 1), or are unpacked (16-bit, ``col_stride`` 2) or software-padded
(``col_stride`` = 32 / bitwidth).  With a ``cga_layout`` each CTA loads its own part from its own
tensor memory, and the CGA gives the ``block`` bases.

    >>> from converters.gluon import TensorMemoryLayout
    >>> r = tmem_reg_layout(TensorMemoryLayout([128, 64], 1), [128, 64], element_bitwidth=32)
    >>> r.lane_bases, r.warp_bases, len(r.reg_bases)      # one row per lane, 64 columns in registers
    (((1, 0), (2, 0), (4, 0), (8, 0), (16, 0)), ((32, 0), (64, 0)), 6)
    >>> r = tmem_reg_layout(TensorMemoryLayout([128, 64], 1), [128, 64], element_bitwidth=16,
    ...                     instr_variant="16x256b")
    >>> r.reg_bases[:3], r.lane_bases[:2]                  # two fp16 per 32-bit column
    (((0, 1), (0, 2), (8, 0)), ((0, 4), (0, 8)))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from typing import Any, ClassVar

from linlayout.contract import Kind
from linlayout.dtypes import element_bitwidth
from linlayout.errors import LayoutError, SizeError, UnsupportedError
from linlayout.linear import LinearLayout

from linlayout.checks import expect, is_pow2, log2

from ._build import cga_split, check_shape
from .base import GluonLayout, cached_to_linear
from .distributed import DistributedLinearLayout
from .fields import as_bool, as_int, check_cga, int_tuple, set_field

__all__ = ["TensorMemoryLayout", "TensorMemoryScalesLayout", "TMEM_INSTR_VARIANTS", "tmem_reg_layout", "tmem_view_layout"]


Vec = tuple[int, int]


def check_alloc(shape: Sequence[int], alloc_shape: Sequence[int], who: str) -> list[int]:
    """The last two dims of ``alloc_shape`` (a leading multi-buffering dim is ignored), checked to
    hold the 2-D view ``shape``."""
    alloc = list(int_tuple(alloc_shape, who, "alloc_shape"))
    if len(alloc) < 2 or any(s > a for s, a in zip(shape, alloc[-2:])):
        raise SizeError(f"{who}: shape {list(shape)} must fit in the last two dims of alloc_shape {alloc}")
    return alloc[-2:]


def _rowcol(row: list[int], col: list[int], m: int, n: int, block: list[int] | None = None) -> LinearLayout:
    """The ``row``/``col`` (and ``block``) -> ``dim0``/``dim1`` layout of a 2-D ``[m, n]``
    tensor from flat bases (``r | c << log2(m)``): one construction.

        >>> _rowcol([1], [2, 0], 2, 2).bases
        {'row': ((1, 0),), 'col': ((0, 1), (0, 0))}
        >>> _rowcol([1], [4], 4, 2, block=[2]).bases["block"]
        ((2, 0),)
    """
    flat = {"row": row, "col": col} if block is None else {"row": row, "col": col, "block": block}
    return LinearLayout.from_flat(flat, [("dim0", m), ("dim1", n)])


def _doublings(out: list[int], start: int, stop: int, shift: int) -> list[int]:
    """Append ``start, 2 start, 4 start, ...`` below ``stop``, shifted left by ``shift`` (the
    bases that grow a dim from ``start`` to ``stop``, in flat form), to ``out``; return ``out``.

        >>> _doublings([0], 2, 16, 4)
        [0, 32, 64, 128]
    """
    while start < stop:
        out.append(start << shift)
        start <<= 1
    return out


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
        return self._split(shp, base)

    def _split(self, shp: list[int], base: list[int]) -> tuple[list[int], list[int], list[tuple[int, ...]]]:
        """:meth:`cta_split` of a checked shape."""
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
        m, n = check_shape(shape, 2, type(self).__name__)
        sh = log2(m)
        if not self.cga_layout:
            return _rowcol(*self._cta_flat(m, n, sh), m, n)
        # Each CTA holds an [m / tm, n / tn] part (tm, tn: the CTAs the CGA puts along each dim,
        # bases cut to the tensor).  A CTA's bases lie below its part, so packed with the whole
        # tensor's shift they are the tensor's bases as they stand; the block bases say where
        # each CTA's part starts.
        tm = tn = 1
        for r, c in self.cga_layout:  # powers of two, each at most once per dim (checked)
            if r < m and r >= tm:
                tm = 2 * r
            if c < n and c >= tn:
                tn = 2 * c
        pm, pn = m // tm, n // tn
        row, col = self._cta_flat(pm, pn, sh)
        block = [(r * pm if r < m else 0) | (c * pn if c < n else 0) << sh for r, c in self.cga_layout]
        return _rowcol(row, col, m, n, block)

    def cta_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The ``row``/``col`` layout of one CTA's ``shape`` tile."""
        m, n = check_shape(shape, 2, type(self).__name__)
        return _rowcol(*self._cta_flat(m, n, log2(m)), m, n)

    def _cta_flat(self, m: int, n: int, sh: int) -> tuple[list[int], list[int]]:
        """The ``row`` and ``col`` bases of one CTA's checked ``[m, n]`` tile, in flat form with
        ``dim1`` starting at bit ``sh`` (``log2`` of the tensor's ``dim0``, at least ``m``)."""
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
        :func:`tmem_reg_layout`.

            >>> TensorMemoryLayout([128, 32], 1).reg_layout([128, 32], element_bitwidth=32).reg_bases[-1]
            (0, 16)
        """
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
        set_field(self, "block", block)
        set_field(self, "col_stride", cs)
        set_field(self, "cga_layout", cga)
        set_field(self, "two_ctas", as_bool(self.two_ctas, who, "two_ctas"))
        if self.two_ctas and (not cga or cga[0] != (1, 0)):
            raise LayoutError(f"{who}: two_ctas needs a cga_layout whose first block basis is [1, 0] (the CTA pair "
                              f"splits M), got {[list(b) for b in cga]}")
        set_field(self, "fp4_padded", as_bool(self.fp4_padded, who, "fp4_padded"))
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

    def _cta_flat(self, m: int, n: int, sh: int) -> tuple[list[int], list[int]]:
        """The ``row``/``col`` bases of one CTA's tile (the blocks of ``block`` in M, then N)."""
        who = "TensorMemoryLayout"
        bm, bn = self.block
        if m < bm:
            raise SizeError(f"{who}: {m} rows per CTA, fewer than block {[bm, bn]} (Triton aborts: repsM >= 1)")
        bn = min(bn, n)
        blocks = _doublings([], bm, m, 0)  # further blocks along M, then along N
        _doublings(blocks, bn, n, sh)
        # the block's column slots: col_stride - 1 unused ones after each element
        col = _doublings([0] * log2(self._stride), 1, bn, sh)
        if bm == 64 and self.two_ctas:
            # a CTA pair runs one 128-row MMA: each CTA's 64 rows fill all 128 lanes, lanes
            # 64-127 holding the upper half of the block's column slots
            if not col:
                raise SizeError(f"{who}: two_ctas with a [64, 1] block of packed elements has no column slots "
                                "to split over the two lane halves (Triton aborts)")
            return [1, 2, 4, 8, 16, 32, col[-1]], col[:-1] + blocks
        if bm == 128:
            row = [1, 2, 4, 8, 16, 32, 64]
        else:
            extra = blocks.pop(0) if blocks else 0
            row = [1, 2, 4, 8, extra, 16, 32]
        col += blocks
        return row, col


@dataclass(frozen=True, repr=False)
class TensorMemoryScalesLayout(_RegisterAccess, GluonLayout):
    """Gluon's ``TensorMemoryScalesLayout(cga_layout)``: the scale factors of a block-scaled MMA.

    Lanes 0-31 hold 32 rows (each 32-lane quarter a copy); a 32-bit column holds 4 scales of a row;
    further columns step through rows 32 and 64 (one repeated block of 128 rows), then through the
    further blocks: ``block_rep_order`` (Gluon's Rubin field, Triton's ``blockRepOrder``) says
    whether they step along rows first (``"mnThenK"``, the default and Blackwell's only order) or
    along the groups of 4 scales first (``"kThenMn"``).

        >>> L = TensorMemoryScalesLayout().to_linear([256, 8])
        >>> L.bases["col"]
        ((0, 1), (0, 2), (32, 0), (64, 0), (128, 0), (0, 4))
        >>> TensorMemoryScalesLayout(block_rep_order="kThenMn").to_linear([256, 8]).bases["col"]
        ((0, 1), (0, 2), (32, 0), (64, 0), (0, 4), (128, 0))
    """

    family = "TensorMemoryScalesLayout"
    cga_layout: Sequence[Sequence[int]] = field(default_factory=tuple)
    block_rep_order: str = "mnThenK"

    def __post_init__(self) -> None:
        set_field(self, "cga_layout", check_cga(self.cga_layout, 2, "TensorMemoryScalesLayout"))
        if self.block_rep_order not in ("mnThenK", "kThenMn"):
            raise UnsupportedError(
                f"TensorMemoryScalesLayout: block_rep_order must be 'mnThenK' or 'kThenMn', got {self.block_rep_order!r:.40}")

    @property
    def rank(self) -> int:
        return 2

    def _cta_flat(self, m: int, n: int, sh: int) -> tuple[list[int], list[int]]:
        """The ``row``/``col`` bases of one CTA's tile of scales."""
        row = [r if r < m else 0 for r in (1, 2, 4, 8, 16)] + [0, 0]
        col = [1 << sh if n > 1 else 0, 2 << sh if n > 2 else 0]
        mn = [r if r < m else 0 for r in (32 << i for i in range(max(1, log2(m) - 5)))]
        k = [4 << i << sh for i in range(max(0, log2(n) - 2))]
        # rows 32 and 64 make one 128-row block; the order only moves the further blocks
        if self.block_rep_order == "kThenMn":
            return row, col + mn[:2] + k + mn[2:]
        return row, col + mn + k


# ============================================================================ tcgen05 register layouts

#: the ``instr_variant`` names Gluon accepts (``16x32bx2`` is chosen by Triton, never requested)
TMEM_INSTR_VARIANTS = ("32x32b", "16x64b", "16x128b", "16x256b", "32x32b_splitn")

_ROWS = 128

# (register bases, lane bases, columns) of each 32-bit access atom, as (row, col)
_ATOMS: dict[str, tuple[list[Vec], list[Vec], int]] = {
    "32x32b": ([], [(1, 0), (2, 0), (4, 0), (8, 0), (16, 0)], 1),
    "16x64b": ([], [(8, 0), (0, 1), (1, 0), (2, 0), (4, 0)], 2),
    "16x128b": ([(8, 0)], [(0, 1), (0, 2), (1, 0), (2, 0), (4, 0)], 4),
    "16x256b": ([(0, 1), (8, 0)], [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)], 8),
}


def tmem_reg_layout(
    tmem: TensorMemoryLayout | TensorMemoryScalesLayout,
    shape: Sequence[int],
    *,
    element_bitwidth: int,
    num_warps: int = 4,
    instr_variant: str = "32x32b",
    alloc_shape: Sequence[int] | None = None,
) -> DistributedLinearLayout:
    """The register layout with which ``num_warps`` warps load or store a ``shape`` tensor of
    ``element_bitwidth``-bit elements held in tensor memory with layout ``tmem``, using the
    ``tcgen05`` access ``instr_variant`` (see :data:`TMEM_INSTR_VARIANTS`).  ``alloc_shape`` is
    the shape of the allocation the tensor is a view of (default ``shape``; a leading
    multi-buffering dim is ignored): tensor memory is laid out for the allocation, and the columns
    and rows beyond the view are unused (see :func:`tmem_view_layout`).

    Raises :class:`~linlayout.errors.LayoutError` (naming the argument) where Triton refuses: an
    unknown variant, fewer than 4 or a non-power-of-two number of warps, ``bitwidth * col_stride``
    above 32, a tensor narrower than the access tile, a column layout the access cannot pack.

        >>> t = TensorMemoryLayout([128, 64], 1)
        >>> tmem_reg_layout(t, [128, 64], element_bitwidth=32, num_warps=8).warp_bases[-1]
        (0, 32)
        >>> tmem_reg_layout(t, [128, 64], element_bitwidth=32, num_warps=3)
        Traceback (most recent call last):
        ...
        linlayout.errors.SizeError: tmem_reg_layout: num_warps must be a power of two and >= 4, got 3
    """
    who = "tmem_reg_layout"
    if not isinstance(instr_variant, str) or instr_variant not in TMEM_INSTR_VARIANTS:
        hint = " (Triton infers 16x32bx2 itself; it cannot be requested)" if isinstance(instr_variant, str) and instr_variant == "16x32bx2" else ""
        raise LayoutError(f"{who}: unknown instr_variant {instr_variant!r:.80}{hint}; expected one of {', '.join(TMEM_INSTR_VARIANTS)}")
    nw = as_int(num_warps, who, "num_warps")
    if nw < 4 or not is_pow2(nw):
        raise SizeError(f"{who}: num_warps must be a power of two and >= 4, got {nw}")
    bits = as_int(element_bitwidth, who, "element_bitwidth")
    if bits not in (8, 16, 32):
        raise UnsupportedError(f"{who}: element_bitwidth {bits}; tensor memory holds 8-, 16- or 32-bit elements")
    if not isinstance(tmem, (TensorMemoryLayout, TensorMemoryScalesLayout)):
        raise LayoutError(f"{who}: expected a TensorMemoryLayout or TensorMemoryScalesLayout, got {type(tmem).__name__}")
    if isinstance(tmem, TensorMemoryScalesLayout) and bits != 8:
        raise SizeError(f"{who}: scale factors are 8-bit, got element_bitwidth {bits}")
    if isinstance(tmem, TensorMemoryLayout) and bits * tmem.col_stride > 32:
        raise SizeError(f"{who}: element_bitwidth * col_stride = {bits} * {tmem.col_stride} exceeds one 32-bit column")
    shp = check_shape(shape, 2, who)
    # each CTA loads its own part from its own tensor memory; the CTAs are the block bases
    per, per_alloc, blocks = tmem.cta_split(shp, alloc_shape)
    if isinstance(tmem, TensorMemoryLayout):
        # each CTA the CGA puts along a dim needs a whole block there (Triton's descriptor check)
        bm, bn = tmem.block
        ctas = [1 << sum(1 for b in tmem.cga_layout if b[d]) for d in range(2)]
        need = [bm * ctas[0], min(bn, shp[1]) * ctas[1]]
        if shp[0] < need[0] or shp[1] < need[1]:
            raise SizeError(f"{who}: shape {shp} over {ctas[0]} x {ctas[1]} CTAs leaves a CTA less than the block "
                            f"{[bm, bn]} (Triton: the tensor shape must be at least {need[0]}x{need[1]})")
    ll = tmem_view_layout(tmem, per, None if alloc_shape is None else per_alloc, element_ty=bits)
    atom = "32x32b" if instr_variant == "32x32b_splitn" else instr_variant
    reg = _for_bitwidth(ll, atom, nw, bits)
    if reg is None:
        raise LayoutError(f"{who}: the {atom} access cannot load {list(ll.out_dims.values())} of {bits}-bit elements "
                          f"from {tmem} with {nw} warps (Triton: unsupported)")
    reg = reg.transpose_outs(["dim0", "dim1"])
    bases = {k: [list(v) for v in reg.bases.get(k, ())] for k in ("register", "lane", "warp")}
    if instr_variant == "32x32b_splitn":
        _split_n(bases, int(shape[1]), bits)
    return DistributedLinearLayout(bases["register"], bases["lane"], bases["warp"], [list(b) for b in blocks], shp)


def tmem_view_layout(
    tmem: TensorMemoryLayout | TensorMemoryScalesLayout,
    shape: Sequence[int],
    alloc_shape: Sequence[int] | None = None,
    *,
    element_ty: Any,
) -> LinearLayout:
    """The ``row, col -> dim0, dim1`` layout of one CTA's ``shape`` view of its ``alloc_shape``
    allocation of ``element_ty`` elements (a type name such as ``"f16"``, a bit width, or a
    dtype): the allocation's layout with the bases that leave the view zeroed, and the column
    bases past the last one the view uses dropped, as Triton 3.9 lays out a tensor-memory
    descriptor.  A view still spans at least one 32-bit column, so (as Triton) it has at least
    ``log2(32 / bitwidth)`` column bases, zero ones if the view leaves them unused: a
    one-column 16-bit view of an unpacked allocation has the column bases ``[[0, 0]]``, and an
    8-bit view of an allocation with fewer element slots than a 32-bit column holds (one padded
    fp4 column, ``col_stride`` 2, a one-column block) gets zero bases up to the column's four.
    Without ``alloc_shape`` the view is the whole allocation (Gluon's default).

        >>> t = TensorMemoryLayout([128, 128], 1)
        >>> tmem_view_layout(t, [256, 64], [256, 128], element_ty="f32").bases["col"][-2:]  # block N 128 > 64: a hole
        ((0, 0), (128, 0))
        >>> tmem_view_layout(t, [128, 64], [128, 128], element_ty="f32") == t.cta_linear([128, 64])  # trailing: dropped
        True
        >>> tmem_view_layout(TensorMemoryLayout([128, 64], 2), [128, 1], [128, 64], element_ty="f16").bases["col"]
        ((0, 0),)
        >>> tmem_view_layout(TensorMemoryLayout([128, 1], 2), [128, 1], element_ty="i8").bases["col"]  # 2 slots of 4
        ((0, 0), (0, 0))
    """
    who = "tmem_view_layout"
    tmem = expect(tmem, (TensorMemoryLayout, TensorMemoryScalesLayout), f"{who}: tmem")
    bits = element_bitwidth(element_ty)
    if bits > 32:
        raise UnsupportedError(f"{who}: element type {element_ty!r} is {bits}-bit; tensor memory holds elements of at most 32 bits")
    shp = check_shape(shape, 2, who)
    full = tmem.cta_linear(shp if alloc_shape is None else check_alloc(shp, alloc_shape, who))
    bases = {k: [tuple(x if x < s else 0 for x, s in zip(v, shp)) for v in vecs] for k, vecs in full.bases.items()}
    keep = log2(32 // bits)  # the element slots of one 32-bit column
    col = bases["col"]
    while len(col) > keep and col[-1] == (0, 0):
        col.pop()
    col += [(0, 0)] * (keep - len(col))  # fewer slots than a 32-bit column: the rest of it is unused
    return LinearLayout(bases, [("dim0", shp[0]), ("dim1", shp[1])], require_surjective=False)


def _for_bitwidth(ll: LinearLayout, atom: str, nw: int, bits: int) -> LinearLayout | None:
    """Narrow elements: pack adjacent columns (``col_stride`` 1), unpack 16-bit pairs, or skip the
    padding columns, then lay out the 32-bit access."""
    if bits == 32:
        return _for_32bit(ll, atom, nw)
    best, quot = 1, ll
    contig = 2
    while bits * contig <= 32:
        q = ll.divide_left(LinearLayout.identity_1d(contig, "col", "dim1"))
        if q is None:
            break
        best, quot = contig, q
        contig *= 2
    if best > 1:
        inner = _for_bitwidth(quot, atom, nw, bits * best)
        return None if inner is None else LinearLayout.identity_1d(best, "register", "dim1") * inner
    pad = LinearLayout.zeros_1d(32 // bits, "col", "dim1")
    if bits == 16:
        q = ll.divide_left(pad * LinearLayout.identity_1d(2, "col", "dim1"))
        if q is not None:  # unpacked: each 32-bit column holds one element, two per register
            inner = _for_32bit(q, atom, nw)
            return None if inner is None else LinearLayout.identity_1d(2, "register", "dim1") * inner
    q = ll.divide_left(pad)
    if q is not None:  # software padding: the unused sub-columns are skipped
        return _for_32bit(q, atom, nw)
    return _for_32bit(ll, atom, nw) if ll.in_dim_size("col") == 1 else None  # a single padded column


def _for_32bit(ll: LinearLayout, atom: str, nw: int) -> LinearLayout | None:
    regs, lanes, n_tile = _ATOMS[atom]
    regs, lanes = list(regs), list(lanes)
    warps: list[Vec] = [(32, 0), (64, 0)]
    n_cols = ll.in_dim_size("col")
    missing = n_cols // n_tile
    if missing == 0:
        return None
    instr32 = atom == "32x32b"
    rows16 = tuple(ll.get_basis("row", 4)) == (0, 0)  # the layout leaves lanes 16-31 of a warp unused
    # the access must read distinct elements (the lowering inverts the layout): lane 16 of 32x32b
    # is exempt, Triton then issues 16x32bx2
    atom_lanes = lanes[:-1] if instr32 else lanes
    access = LinearLayout({"register": regs, "lane": atom_lanes}, [("row", _ROWS), ("col", n_tile)], require_surjective=False)
    if not access.compose(ll).is_injective():
        return None
    # a 16-row atom on 32 rows per warp: rows 16-31 by one more warp if there are more than 4
    row16 = None if instr32 or rows16 else ("warp" if nw > 4 else "register")
    tiling = nw // (8 if row16 == "warp" else 4)  # warps left to spread along the columns
    broadcast = tiling // min(missing, tiling)
    tiling //= broadcast
    n_total = n_cols
    missing //= tiling
    n_cols //= tiling
    if missing > 1:
        if instr32 and rows16:  # lane 16 would repeat rows: it takes the second half of the columns
            regs += [(0, n_tile << i) for i in range(log2(missing // 2))]
            lanes[-1] = (0, n_cols // 2)
        else:
            regs += [(0, n_tile << i) for i in range(log2(missing))]
    if row16 == "warp":
        warps.append((16, 0))
    elif row16 == "register":
        regs.append((16, 0))
    warps += [(0, n_cols << i) for i in range(log2(n_total // n_cols))]
    warps += [(0, 0)] * log2(broadcast)
    tile = LinearLayout({"register": regs, "lane": lanes, "warp": warps}, [("row", _ROWS), ("col", n_total)],
                        require_surjective=False)
    # (Triton also refuses a result with a basis along both dims or, broadcast aside, not
    # invertible; neither can happen here: every tile basis is one row or column bit, and the
    # tile reaches every row and column the tensor-memory layout uses.)
    return tile.compose(ll)


def _split_n(bases: dict[str, list[list[int]]], n: int, bits: int) -> None:
    """``32x32b_splitn``: the highest register basis becomes the column half ``[0, N/2]`` (so a
    ``tl.split`` of the loaded tile stays in registers), swapped in from a lane or a warp above
    the first four."""
    who = "tmem_reg_layout(32x32b_splitn)"
    half = [0, n // 2]
    regs = bases["register"]
    if not regs:
        if bases["lane"][-1] != half:
            raise LayoutError(f"{who}: with one register the last lane basis must be {half}, got {bases['lane'][-1]}")
        regs.append(half)
        bases["lane"][-1] = [0, 0]
        return
    if regs[-1] == half:
        return
    if 1 << len(regs) <= 32 // bits:
        raise LayoutError(f"{who}: a split needs more than {32 // bits} {bits}-bit registers (two 32x32b.x1 loads); "
                          "load with 32x32b and convert the layout instead")
    for name, skip in (("lane", 0), ("warp", 2)):  # the first four warps own their rows
        for i in range(skip, len(bases[name])):
            if bases[name][i] == half:
                regs[-1], bases[name][i] = bases[name][i], regs[-1]
                return
    raise LayoutError(f"{who}: no lane or warp (beyond the first four) holds the column half {half}")
