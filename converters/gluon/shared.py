"""Gluon shared-memory layouts and their linear layouts, bit-exact with Triton 3.9.

Four classes with Gluon's own class and field names:

* :class:`NVMMASharedLayout` (``swizzle_byte_width``, ``element_bitwidth``, ``rank``, ``transposed``,
  ``fp4_padded``, ``cga_layout``): the MMA/TMA layouts (8-row core matrices of 16-byte chunks,
  XOR-swizzled across rows of ``swizzle_byte_width`` bytes).
* :class:`SwizzledSharedLayout` (``vec``, ``per_phase``, ``max_phase``, ``order``, ``cga_layout``).
* :class:`SharedLinearLayout` (``offset_bases``, ``block_bases``, ``alignment``): an explicit layout.
* :class:`PaddedSharedLayout` (``interval_padding_pairs``, ``offset_bases``, ``cga_layout``,
  ``shape``): padding is an addition, not an XOR, so it has no linear layout.

``to_linear(shape)`` maps ``offset`` (elements within one CTA's buffer) and ``block`` (CTAs of the
cluster) to ``dim0``, ``dim1``, ... -- what ``gluon.language.to_linear_layout(layout, shape)`` returns.

    >>> L = NVMMASharedLayout(128, 16).to_linear([8, 64])
    >>> L.bases["offset"][6:]                    # row r starts at column 8 * r (16 bytes) XOR-ed
    ((1, 8), (2, 16), (4, 32))
    >>> SwizzledSharedLayout(1, 1, 1, [1, 0]).to_linear([2, 4]).bases["offset"]
    ((0, 1), (0, 2), (1, 0))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from linlayout.errors import (
    DimensionError,
    LayoutError,
    NotLinearError,
    NotSurjectiveError,
    SizeError,
    SwizzleError,
    UnsupportedError,
)
from linlayout.checks import as_int as checked_int, expect, is_pow2, log2
from linlayout.limits import MAX_RANK, as_list
from linlayout.contract import Kind
from linlayout.linear import LinearLayout

if TYPE_CHECKING:
    from linlayout.mixed_radix import MixedRadixLayout

from ._build import SharedBuilder, check_shape, colex_shifts, dim_names, finish_shared, pack_bases, pack_shared_flat, powers, shape_per_cta
from .fields import as_bool, check_cga, check_order, int_tuple, set_field
from .base import GluonLayout as _GluonBase, cached_to_linear, lookup


__all__ = [
    "NVMMASharedLayout",
    "SwizzledSharedLayout",
    "SharedLinearLayout",
    "PaddedSharedLayout",
    "shared_from_dict",
]

#: Largest TMA box extent per dimension (Triton's ``getTMABlockShape``).
_TMA_DIM_MAX = 256


# ============================================================================ base class
class _SharedLayout(_GluonBase):
    """Base of the Gluon shared layouts (frozen dataclasses, like the distributed ones): in-dims
    ``offset`` and ``block``."""

    kind: ClassVar[Kind] = Kind.SHARED

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:  # pragma: no cover - abstract
        raise NotImplementedError


# ============================================================================ NVMMA
@dataclass(frozen=True, repr=False)
class NVMMASharedLayout(_SharedLayout):
    """Gluon's ``NVMMASharedLayout``: shared memory in the layout MMA (wgmma/tcgen05) and TMA use.

    Rows of ``swizzle_byte_width`` bytes; 16-byte chunks of row ``r`` are XORed with ``r % 8``'s
    phase (widths 32/64/128 = ``(per_phase, max_phase)`` (4, 2), (2, 4), (1, 8)); ``transposed``
    makes dim 0 the contiguous one; ``swizzle_byte_width=0`` is the unswizzled ("interleaved") form.

        >>> lay = NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16)
        >>> lay.vec, lay.per_phase, lay.max_phase
        (8, 2, 4)
        >>> lay.swizzle()
        Swizzle(2, 3, 3)
        >>> NVMMASharedLayout(128, 16).to_linear([8, 32])
        Traceback (most recent call last):
        ...
        linlayout.errors.NotSurjectiveError: NVMMASharedLayout(128B, 16-bit): the contiguous dim has 32 elements but one swizzle row needs 64; Triton aborts ("Block shape is too small for the swizzle byte size")
    """

    family = "NVMMASharedLayout"
    swizzle_byte_width: int
    element_bitwidth: int
    rank: int = 2
    transposed: bool = False
    fp4_padded: bool = False
    cga_layout: Sequence[Sequence[int]] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        swizzle_byte_width, element_bitwidth, rank = self.swizzle_byte_width, self.element_bitwidth, self.rank
        swizzle_byte_width = checked_int(swizzle_byte_width, "NVMMASharedLayout: swizzle_byte_width", SwizzleError)
        element_bitwidth = checked_int(element_bitwidth, "NVMMASharedLayout: element_bitwidth", SizeError)
        if swizzle_byte_width not in (0, 32, 64, 128):
            raise SwizzleError(f"NVMMASharedLayout: swizzle_byte_width must be 0, 32, 64 or 128, got {swizzle_byte_width!r:.80}")
        if element_bitwidth not in (8, 16, 32, 64):
            raise SizeError(f"NVMMASharedLayout: element_bitwidth must be 8, 16, 32 or 64, got {element_bitwidth!r:.80}")
        if not isinstance(rank, int) or isinstance(rank, bool) or rank < 1:
            raise DimensionError(f"NVMMASharedLayout: rank must be a positive int, got {rank!r}")
        set_field(self, "swizzle_byte_width", int(swizzle_byte_width))
        set_field(self, "element_bitwidth", int(element_bitwidth))
        set_field(self, "transposed", as_bool(self.transposed, "NVMMASharedLayout", "transposed"))
        set_field(self, "fp4_padded", as_bool(self.fp4_padded, "NVMMASharedLayout", "fp4_padded"))
        set_field(self, "cga_layout", check_cga(self.cga_layout, rank, "NVMMASharedLayout"))
        if self.fp4_padded and (self.swizzle_byte_width != 128 or self.element_bitwidth != 8):
            raise UnsupportedError("NVMMASharedLayout: fp4_padded needs swizzle_byte_width=128 and element_bitwidth=8")

    # Triton's getVec / getPerPhase / getMaxPhase of the encoding
    @property
    def vec(self) -> int:
        """Elements per 16-byte chunk (the XOR unit)."""
        return 128 // self.element_bitwidth

    @property
    def per_phase(self) -> int:
        """Rows sharing one XOR phase."""
        return {0: 1, 32: 4, 64: 2, 128: 1}[self.swizzle_byte_width]

    @property
    def max_phase(self) -> int:
        """Number of distinct XOR phases."""
        return {0: 1, 32: 2, 64: 4, 128: 8}[self.swizzle_byte_width]

    def swizzle(self, unit: str = "element") -> Any:
        """The swizzle as a :class:`linlayout.swizzle.Swizzle` (element units by default)."""
        from linlayout.swizzle import swizzle_for

        if not isinstance(unit, str):
            raise LayoutError(f"{self._who()}.swizzle: unit must be 'element' or 'byte', got {type(unit).__name__} {unit!r:.80}")
        return swizzle_for(self.element_bitwidth, self.swizzle_byte_width, unit=unit)

    def _who(self) -> str:
        return f"NVMMASharedLayout({self.swizzle_byte_width}B, {self.element_bitwidth}-bit)"

    def _tma_shape(self, per_cta: list[int]) -> list[int]:
        """Triton's getTMABlockShape(..., packedSize=True)."""
        blk = list(per_cta)
        contig = 0 if self.transposed else len(blk) - 1
        if self.fp4_padded:
            blk[contig] *= 2
        blk = [min(s, _TMA_DIM_MAX) for s in blk]
        if self.swizzle_byte_width:
            need = 8 * self.swizzle_byte_width // self.element_bitwidth
            if blk[contig] < need:
                have = blk[contig] // (2 if self.fp4_padded else 1)
                raise NotSurjectiveError(
                    f"{self._who()}: the contiguous dim has {have} elements but one swizzle row needs "
                    f"{need // (2 if self.fp4_padded else 1)}; Triton aborts (\"Block shape is too small for the swizzle byte size\")"
                )
            blk[contig] = need
        if self.fp4_padded:
            blk[contig] //= 2
        return blk

    @cached_to_linear
    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """``offset``/``block`` -> ``dim0..`` exactly as Triton 3.9's ``nvmmaSharedToLinearLayout``.

            >>> NVMMASharedLayout(0, 16).to_linear([4, 8]).bases["offset"]
            ((0, 1), (0, 2), (0, 4), (1, 0), (2, 0))
        """
        shp = check_shape(shape, self.rank, self._who())
        rank = len(shp)
        per_cta = shape_per_cta(shp, self.cga_layout, self._who())
        tma = self._tma_shape(per_cta)
        if self.swizzle_byte_width == 0:
            return self._unswizzled(shp, per_cta, tma)
        if rank < 2:
            raise DimensionError(f"{self._who()}: a swizzled NVMMA layout needs rank >= 2 (Triton asserts)")
        collapsed = [math.prod(tma[:-1]), tma[-1]]
        if self.transposed:
            collapsed.reverse()
        rows, cols = collapsed
        # the core matrix: 8 rows x (swizzle width) bytes, 16-byte chunks XOR-ed by the row phase
        tile_rows, tile_cols = 8, 8 * max(16, self.swizzle_byte_width) // self.element_bitwidth
        pack = 2 if self.fp4_padded else 1
        if cols * pack < tile_cols or rows < tile_rows:
            raise NotSurjectiveError(
                f"{self._who()}: the tensor collapses to {rows} x {cols} but one core "
                f"matrix is {tile_rows} x {tile_cols // pack}; Triton aborts (\"Illegal shared layout\")"
            )

        def packed(c: int) -> int:  # fp4 pairs: 8 bytes of data, then 8 of padding
            return c // 16 * 8 + c % 8 if self.fp4_padded else c

        vec, per_phase, max_phase = self.vec, self.per_phase, self.max_phase
        tile = [(0, packed(1 << k)) for k in range(tile_cols.bit_length() - 1)]
        tile += [(r, packed(vec * ((r // per_phase) % max_phase))) for r in (1, 2, 4)]
        # repeat the core matrix over the collapsed 2-D shape (rows first), then read the 2-D
        # offsets row-major as the TMA box (rotated when transposed)
        tile += [(r, 0) for r in powers(tile_rows, rows)] + [(0, c) for c in powers(tile_cols // pack, cols)]
        box = tma[1:] + tma[:1] if self.transposed else list(tma)
        fields = []  # (shift, mask) of each box component in the row-major 2-D offset
        acc = 0
        for size in reversed(box):
            fields.append((acc, size - 1))
            acc += size.bit_length() - 1
        fields.reverse()
        sizes = box
        if self.transposed:  # dim i is the box's component (i - 1) mod rank
            fields = fields[-1:] + fields[:-1]
            sizes = sizes[-1:] + sizes[:-1]
        # each basis straight to flat form, cutting what lies beyond a CTA's shape
        spec = list(zip(fields, per_cta, colex_shifts(shp)))
        col_bits = cols.bit_length() - 1
        flat = []
        for r, c in tile:
            offset = (r << col_bits) | c
            f = 0
            for (sh, m), p, k in spec:
                v = (offset >> sh) & m
                if v < p:
                    f |= v << k
            flat.append(f)
        # then cover each CTA's shape (dims in order)
        for (_, p, k), size in zip(spec, sizes):
            flat += [v << k for v in powers(size, p)]
        return pack_shared_flat(flat, per_cta, self.cga_layout, shp)

    def _unswizzled(self, shp: list[int], per_cta: list[int], tma: list[int]) -> LinearLayout:
        # Triton 3.9, swizzle_byte_width == 0: identity over the TMA box, last dim fastest; for
        # transposed layouts the box sizes are taken in the rotated order (dims 1.., 0) while the
        # dim names rotate the other way -- reproduced as is (it only differs from a plain
        # transpose at rank >= 3).
        rank = len(shp)
        names = dim_names(rank)
        b = SharedBuilder(names)
        if self.transposed:
            sizes = tma[1:] + tma[:1]
            target = [names[(i - 1) % rank] for i in range(rank)]
        else:
            sizes = list(tma)
            target = list(names)
        for i in range(rank - 1, -1, -1):
            j = names.index(target[i])
            cur = b.sizes[target[i]]
            for k in range(log2(sizes[i])):
                v = [0] * rank
                v[j] = cur << k
                b.bases.append(v)
            b.sizes[target[i]] = cur * sizes[i]
        b.order = list(reversed(names))
        b.ensure_not_smaller(dict(zip(names, per_cta)))
        return finish_shared(b, self.cga_layout, shp)

    @staticmethod
    def get_default_for(
        block_shape: Sequence[int],
        dtype: Any,
        transposed: bool = False,
        fp4_padded: bool = False,
        cga_layout: Sequence[Sequence[int]] | None = None,
    ) -> NVMMASharedLayout:
        """Gluon's default: the largest swizzle (128/64/32/0 bytes) the shape allows.

        The contiguous dim's bytes must be a multiple of (and at least) the width, and the other
        dims together must hold at least 8 rows.

            >>> NVMMASharedLayout.get_default_for([128, 64], "float16").swizzle_byte_width
            128
            >>> NVMMASharedLayout.get_default_for([128, 32], "float16").swizzle_byte_width
            64
            >>> NVMMASharedLayout.get_default_for([4, 64], "float16").swizzle_byte_width
            0
        """
        from linlayout.smem_atoms import select_swizzle_width
        from linlayout.swizzle import element_bitwidth

        bits = element_bitwidth(dtype)
        block_shape = as_list(block_shape, "NVMMASharedLayout.get_default_for: block_shape", MAX_RANK)
        cga = check_cga(cga_layout, len(block_shape), "NVMMASharedLayout.get_default_for")
        width = select_swizzle_width(block_shape, bits, transposed=transposed, fp4_padded=fp4_padded, cga_layout=cga)
        return NVMMASharedLayout(width, bits, len(block_shape), transposed, fp4_padded, cga)


# ============================================================================ swizzled
@dataclass(frozen=True, repr=False)
class SwizzledSharedLayout(_SharedLayout):
    """Gluon's ``SwizzledSharedLayout(vec, per_phase, max_phase, order)``.

    ``order[0]`` is the contiguous dim, ``order[1]`` the row dim: row ``r`` stores column ``c`` at
    ``c ^ ((vec * ((r // per_phase) % max_phase)) % columns)``; further dims follow ``order``.

        >>> L = SwizzledSharedLayout(2, 1, 4, [1, 0]).to_linear([4, 8])
        >>> [L(offset=8 + c)["dim1"] for c in range(8)]
        [2, 3, 0, 1, 6, 7, 4, 5]
    """

    family = "SwizzledSharedLayout"
    vec: int
    per_phase: int
    max_phase: int
    order: Sequence[int]
    cga_layout: Sequence[Sequence[int]] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        order = self.order
        for v, n in ((self.vec, "vec"), (self.per_phase, "per_phase"), (self.max_phase, "max_phase")):
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise SwizzleError(f"SwizzledSharedLayout: {n} must be a positive int, got {v!r}")
        try:
            order = tuple(int(o) for o in as_list(order, "SwizzledSharedLayout: order", MAX_RANK))
        except (TypeError, ValueError):
            raise DimensionError(f"SwizzledSharedLayout: order must be a permutation of 0..rank-1, got {order!r:.80}") from None
        if sorted(order) != list(range(len(order))) or not order:
            raise DimensionError(f"SwizzledSharedLayout: order must be a permutation of 0..rank-1, got {list(order)}")
        set_field(self, "order", order)
        set_field(self, "cga_layout", check_cga(self.cga_layout, len(order), "SwizzledSharedLayout"))

    @property
    def rank(self) -> int:
        return len(self.order)

    def swizzle(self, row_elems: int) -> Any:
        """The swizzle on element offsets of rows of ``row_elems`` elements (a :class:`~linlayout.swizzle.Swizzle`)."""
        from linlayout.swizzle import Swizzle

        return Swizzle.from_triton(self.vec, self.per_phase, self.max_phase, row_elems)

    @cached_to_linear
    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """``offset``/``block`` -> ``dim0..`` exactly as Triton 3.9's ``swizzledSharedToLinearLayout``."""
        who = f"SwizzledSharedLayout({self.vec}, {self.per_phase}, {self.max_phase}, {list(self.order)})"
        shp = check_shape(shape, self.rank, who)
        rank = len(shp)
        names = dim_names(rank)
        per_cta = shape_per_cta(shp, self.cga_layout, who)
        b = SharedBuilder(names)
        if rank == 1:
            b.mul_identity(per_cta[0], "dim0")
            return finish_shared(b, self.cga_layout, shp)
        col, row = self.order[0], self.order[1]
        ncols, nrows = per_cta[col], per_cta[row]
        c = 1
        while c < ncols:
            v = [0] * rank
            v[col] = c
            b.bases.append(v)
            c *= 2
        r = 1
        while r < nrows:
            v = [0] * rank
            v[row] = r
            v[col] = (self.vec * ((r // self.per_phase) % self.max_phase)) % ncols
            b.bases.append(v)
            r *= 2
        b.sizes[names[col]], b.sizes[names[row]] = ncols, nrows
        b.order = [names[row], names[col]]
        for i in range(2, rank):
            b.mul_identity(per_cta[self.order[i]], names[self.order[i]])
        return finish_shared(b, self.cga_layout, shp)


# ============================================================================ explicit linear
@dataclass(frozen=True, repr=False)
class SharedLinearLayout(_SharedLayout):
    """Gluon's ``SharedLinearLayout(offset_bases, block_bases, alignment)``: the layout given outright.

        >>> lay = SharedLinearLayout([[0, 1], [1, 0], [0, 2]])
        >>> lay.shape, lay.to_linear([2, 4]).bases["offset"]
        ([2, 4], ((0, 1), (1, 0), (0, 2)))
    """

    family = "SharedLinearLayout"
    offset_bases: Sequence[Sequence[int]]
    block_bases: Sequence[Sequence[int]] = ()
    alignment: int = 16

    def __post_init__(self) -> None:
        alignment = self.alignment
        try:
            ob = tuple(tuple(int(v) for v in b) for b in self.offset_bases)
            bb = tuple(tuple(int(v) for v in b) for b in self.block_bases)
        except (TypeError, ValueError):
            raise LayoutError("SharedLinearLayout: bases must be lists of ints") from None
        if not ob or not ob[0]:
            raise DimensionError("SharedLinearLayout: offset_bases must not be empty")
        rank = len(ob[0])
        for b in ob + bb:
            if len(b) != rank:
                raise DimensionError(f"SharedLinearLayout: basis {list(b)} does not have {rank} entries")
            if any(v < 0 for v in b):
                raise LayoutError(f"SharedLinearLayout: basis {list(b)} has a negative entry")
        if not is_pow2(alignment):
            raise SizeError(f"SharedLinearLayout: alignment must be a positive power of two, got {alignment!r}")
        set_field(self, "offset_bases", ob)
        set_field(self, "block_bases", bb)

    @property
    def rank(self) -> int:
        return len(self.offset_bases[0])

    @property
    def shape(self) -> list[int]:
        """The tensor shape the bases span (per dim: the next power of two above the largest entry)."""
        return [1 << max((b[i] for b in (*self.offset_bases, *self.block_bases)), default=0).bit_length()
                for i in range(self.rank)]

    @classmethod
    def from_linear(cls, layout: LinearLayout, alignment: int = 16) -> SharedLinearLayout:
        """Wrap a ``LinearLayout`` with in-dims ``offset`` (and optionally ``block``)."""
        expect(layout, LinearLayout, "SharedLinearLayout.from_linear: layout")
        extra = set(layout.in_dim_names) - {"offset", "block"}
        if extra or not layout.has_in_dim("offset"):
            raise DimensionError(f"SharedLinearLayout needs in-dims offset (+ block), got {list(layout.in_dim_names)}")
        names = dim_names(layout.num_out_dims)
        L = layout.transpose_outs(names) if list(layout.out_dim_names) != names else layout
        bb = L.bases.get("block", ())
        return cls([list(b) for b in L.bases["offset"]], [list(b) for b in bb], alignment)

    @cached_to_linear
    def to_linear(self, shape: Sequence[int] | None = None) -> LinearLayout:
        """The layout; ``shape`` (if given) must be the shape its bases span."""
        own = self.shape
        if shape is not None:
            shp = check_shape(shape, self.rank, "SharedLinearLayout")
            if shp != own:
                raise NotSurjectiveError(
                    f"SharedLinearLayout spans shape {own} but the tensor is {shp}: it does not cover the tensor"
                    if any(a < b for a, b in zip(own, shp)) else
                    f"SharedLinearLayout spans shape {own}, larger than the tensor {shp}"
                )
        names = dim_names(self.rank)
        return pack_bases({"offset": self.offset_bases, "block": self.block_bases}, list(zip(names, own)))


# ============================================================================ padded
@dataclass(frozen=True, repr=False)
class PaddedSharedLayout(_SharedLayout):
    """Gluon's ``PaddedSharedLayout``: a linear remap of offsets plus padding after every interval.

    Element offset ``o`` is stored at ``o + sum(pad * (o // interval))``: an addition, so the map to
    memory is not GF(2)-linear and :meth:`to_linear` refuses; :meth:`offset_general` gives the memory
    map (coordinates -> padded address, CuTe's direction) as a general-shape (mixed-radix) layout and
    :meth:`physical_offset` evaluates it.  The contract's direction, padded address -> coordinates,
    is not a function (padding slots hold no element), so :meth:`to_general` refuses;
    :meth:`offset_layout` is the GF(2) map offset -> coordinates before padding.

        >>> lay = PaddedSharedLayout([[2, 1], [4, 2]], [[1], [2], [4]], [], [8])
        >>> [lay.physical_offset(o) for o in range(8)]
        [0, 1, 3, 4, 8, 9, 11, 12]
        >>> lay.to_linear([8])
        Traceback (most recent call last):
        ...
        linlayout.errors.NotLinearError: PaddedSharedLayout: padding adds offset // interval * padding to the address, which is not linear over GF(2); Triton refuses too. Use offset_general() or physical_offset()/table() for the memory map, or offset_layout() for the GF(2) remap before padding
    """

    family = "PaddedSharedLayout"
    interval_padding_pairs: Sequence[Sequence[int]]
    offset_bases: Sequence[Sequence[int]]
    cga_layout: Sequence[Sequence[int]]
    shape: Sequence[int]

    def __post_init__(self) -> None:
        try:
            pairs = tuple((int(a), int(b)) for a, b in self.interval_padding_pairs)
        except (TypeError, ValueError):
            raise LayoutError("PaddedSharedLayout: interval_padding_pairs must be [interval, padding] pairs") from None
        if not pairs:
            raise LayoutError("PaddedSharedLayout: needs at least one [interval, padding] pair")
        if len({a for a, _ in pairs}) != len(pairs):
            raise LayoutError("PaddedSharedLayout: intervals must be distinct")
        for interval, pad in pairs:
            if not (is_pow2(interval) and is_pow2(pad)):
                raise SizeError(f"PaddedSharedLayout: interval and padding must be powers of two, got [{interval}, {pad}]")
        shp = check_shape(self.shape, None, "PaddedSharedLayout")
        ob = tuple(tuple(int(v) for v in b) for b in self.offset_bases)
        for b in ob:
            if len(b) != len(shp):
                raise DimensionError(f"PaddedSharedLayout: offset basis {list(b)} does not have {len(shp)} entries")
        set_field(self, "interval_padding_pairs", pairs)
        set_field(self, "offset_bases", ob)
        set_field(self, "cga_layout", check_cga(self.cga_layout, len(shp), "PaddedSharedLayout"))
        set_field(self, "shape", tuple(shp))

    @classmethod
    def with_identity_for(cls, interval_padding_pairs: Sequence[Sequence[int]], shape: Sequence[int], order: Sequence[int],
                          cga_layout: Sequence[Sequence[int]] = ()) -> PaddedSharedLayout:
        """Gluon's ``PaddedSharedLayout.with_identity_for``: the padded layout whose linear part is
        the identity over each CTA's part of ``shape``, dims taken fastest first in ``order``.

            >>> lay = PaddedSharedLayout.with_identity_for([[64, 8]], [16, 128], [1, 0], [[0, 1]])
            >>> lay.offset_bases[:2], len(lay.offset_bases), lay.offset_layout().is_injective()
            (((0, 1), (0, 2)), 10, True)
        """
        shp = check_shape(shape, None, "PaddedSharedLayout.with_identity_for")
        ordr = int_tuple(order, "PaddedSharedLayout.with_identity_for", "order")
        check_order(ordr, len(shp), "PaddedSharedLayout.with_identity_for")
        cga = check_cga(cga_layout, len(shp), "PaddedSharedLayout.with_identity_for")
        per_cta = shape_per_cta(shp, cga, "PaddedSharedLayout.with_identity_for")
        bases = [[1 << k if i == d else 0 for i in range(len(shp))] for d in ordr for k in range(log2(per_cta[d]))]
        return cls(interval_padding_pairs, bases, cga, shp)

    def physical_offset(self, offset: int) -> int:
        """The padded address (in elements) of logical offset ``offset``."""
        return offset + sum(p * (offset // i) for i, p in self.interval_padding_pairs)

    def offset_layout(self) -> LinearLayout:
        """The GF(2) remap offset -> tensor coordinates, before padding."""
        names = dim_names(len(self.shape))
        return pack_bases({"offset": self.offset_bases}, list(zip(names, self.shape)))

    def to_linear(self, shape: Sequence[int] | None = None) -> LinearLayout:
        """Refused: padding is not linear over GF(2) (:class:`~linlayout.errors.NotLinearError`)."""
        raise NotLinearError(
            "PaddedSharedLayout: padding adds offset // interval * padding to the address, which is not "
            "linear over GF(2); Triton refuses too. Use offset_general() or physical_offset()/table() for the "
            "memory map, or offset_layout() for the GF(2) remap before padding"
        )

    def to_general(self, shape: Sequence[int] | None = None) -> MixedRadixLayout:
        """Refused (:class:`~linlayout.errors.UnsupportedError`): the contract's direction, padded
        address -> tensor coordinates, is not a function, since the padding slots hold no element.
        :meth:`offset_general` is the memory map in CuTe's direction; :meth:`offset_layout` the GF(2)
        map offset -> coordinates before padding.

            >>> PaddedSharedLayout([[4, 1]], [[0, 1], [0, 2], [1, 0], [2, 0]], [], [4, 4]).to_general()
            Traceback (most recent call last):
            ...
            linlayout.errors.UnsupportedError: PaddedSharedLayout.to_general: padded address -> coordinates is not a function (the padding slots hold no element); offset_general() gives the memory map coordinates -> padded address, offset_layout() the GF(2) map offset -> coordinates before padding
        """
        self._memory_map_digits(shape, "PaddedSharedLayout.to_general")  # checked as for the memory map, nothing built
        raise UnsupportedError(
            "PaddedSharedLayout.to_general: padded address -> coordinates is not a function (the padding "
            "slots hold no element); offset_general() gives the memory map coordinates -> padded address, "
            "offset_layout() the GF(2) map offset -> coordinates before padding"
        )

    def offset_general(self, shape: Sequence[int] | None = None) -> MixedRadixLayout:
        """The memory map, tensor coordinate -> padded address (CuTe's direction, as
        :func:`converters.cute.offset_general`), as a general-shape layout.

        With power-of-two intervals the padding is an integer-linear function of the offset bits:
        offset bit ``j`` moves the address by ``2**j + sum(pad * 2**j // interval)`` over the
        intervals ``<= 2**j``.  When every offset basis is one bit of one dim (a permutation of the
        coordinate bits; a zero basis stores the element twice, a replica), that is a
        :class:`~linlayout.mixed_radix.MixedRadixLayout` from ``dim0, dim1, ...`` to the axis ``offset``.

            >>> lay = PaddedSharedLayout([[4, 1]], [[0, 1], [0, 2], [1, 0], [2, 0]], [], [4, 4])
            >>> g = lay.offset_general()
            >>> g.apply(dim0=1, dim1=0), g.apply(dim0=3, dim1=3)    # rows of 4 with one pad element
            ({'offset': 5}, {'offset': 18})
            >>> sorted((c, a) for c, a in lay.table())[-1]
            ((3, 3), 18)

        Raises:
            NotSurjectiveError: ``shape`` is not the shape the bases span.
            UnsupportedError: an offset basis mixes bits (XOR-swizzled offsets are not mixed-radix)
                or there is a ``cga_layout``.
        """
        from linlayout.mixed_radix import MixedRadixLayout

        digits, replicas = self._memory_map_digits(shape, "PaddedSharedLayout.offset_general")
        per_dim = {f"dim{d}": [(2, digits[(d, k)], "offset") for k in range(size.bit_length() - 1)]
                   for d, size in enumerate(self.shape)}
        return MixedRadixLayout(per_dim, replicas, out_dims=["offset"]).coalesce()

    def _memory_map_digits(
        self, shape: Sequence[int] | None, who: str
    ) -> tuple[dict[tuple[int, int], int], list[tuple[int, int, str]]]:
        """The memory map's digits, checked: ``(dim, bit) -> padded address step`` for each
        coordinate bit and the replica modes (zero offset bases), or the error that
        :meth:`offset_general` raises (a shape other than the bases', a CGA layout, an offset
        basis that is not one bit of its own, bases that miss an element)."""
        if shape is not None and tuple(check_shape(shape, len(self.shape), who)) != self.shape:
            raise NotSurjectiveError(f"{who}: the offset bases span shape {list(self.shape)}, not {list(shape)}")
        if self.cga_layout:
            raise UnsupportedError(f"{who}: a cga_layout (several CTAs) is not supported")
        digits: dict[tuple[int, int], int] = {}
        replicas = []
        for j, b in enumerate(self.offset_bases):
            w = (1 << j) + sum(p * (1 << j) // i for i, p in self.interval_padding_pairs if i <= 1 << j)
            nz = [(d, v) for d, v in enumerate(b) if v]
            if not nz:
                replicas.append((2, w, "offset"))
            elif len(nz) > 1 or not is_pow2(nz[0][1]) or (nz[0][0], nz[0][1].bit_length() - 1) in digits:
                raise UnsupportedError(f"{who}: offset basis {j} = {list(b)} is not a bit of its own of one dim; "
                                       "the padded map of an XOR-remapped offset is not mixed-radix")
            else:
                digits[(nz[0][0], nz[0][1].bit_length() - 1)] = w
        if len(digits) != sum(s.bit_length() - 1 for s in self.shape) or \
                any(k >= self.shape[d].bit_length() - 1 for d, k in digits):
            raise NotSurjectiveError(f"{who}: the offset bases {[list(b) for b in self.offset_bases]} do not "
                                     f"reach every element of shape {list(self.shape)}")
        return digits, replicas

    def table(self) -> list[tuple[tuple[int, ...], int]]:
        """Every (tensor coordinate, padded address) pair, in offset order."""
        L = self.offset_layout()
        names = L.out_dim_names
        out = []
        for o in range(L.in_dim_size("offset")):
            c = L(offset=o)
            out.append((tuple(c[n] for n in names), self.physical_offset(o)))
        return out


def shared_from_dict(d: Mapping[str, Any]) -> _SharedLayout:
    """A shared layout from its dict form (``{"kind": "NVMMASharedLayout", ...}``), through the one
    registry of Gluon classes; a dict of another family is refused.

        >>> shared_from_dict({"kind": "SwizzledSharedLayout", "vec": 1, "per_phase": 1, "max_phase": 1, "order": [1, 0]})
        SwizzledSharedLayout(1, 1, 1, [1, 0])
    """
    kind: Any = d.get("kind") if isinstance(d, Mapping) else None  # unchecked input: lookup checks it
    cls = lookup(kind) if isinstance(d, Mapping) else None
    if cls is None or not issubclass(cls, _SharedLayout):
        got = kind if isinstance(d, Mapping) else type(d).__name__
        raise LayoutError(f"{got} is not a shared layout; expected one of NVMMASharedLayout, SwizzledSharedLayout, SharedLinearLayout, PaddedSharedLayout")
    layout = cls.from_dict(d)
    if not isinstance(layout, _SharedLayout):  # from_dict builds the class its kind names: never taken
        raise LayoutError(f"{kind}: from_dict built a {type(layout).__name__}, not a shared layout")
    return layout
