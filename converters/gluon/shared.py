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
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from linlayout.errors import (
    BasisError,
    DimensionError,
    LayoutError,
    NotLinearError,
    NotSurjectiveError,
    SizeError,
    SwizzleError,
    UnsupportedError,
)
from linlayout.checks import is_pow2, log2
from linlayout.contract import Kind
from linlayout.linear import LinearLayout

if TYPE_CHECKING:
    from linlayout.general import MixedRadixLayout

from ._build import cga_split, check_shape, colex_shifts, pack
from .fields import as_bool, check_cga
from .base import GluonLayout as _GluonBase, cached_to_linear


__all__ = [
    "NVMMASharedLayout",
    "SwizzledSharedLayout",
    "SharedLinearLayout",
    "PaddedSharedLayout",
    "SHARED_LAYOUT_KINDS",
    "shared_from_dict",
]

#: Largest TMA box extent per dimension (Triton's ``getTMABlockShape``).
_TMA_DIM_MAX = 256


# ============================================================================ small helpers
def _dims(rank: int) -> list[str]:
    return [f"dim{i}" for i in range(rank)]


def _layout(bases: Mapping[str, Sequence[Sequence[int]]], outs: Sequence[tuple[str, int]]) -> LinearLayout:
    return pack({k: [list(b) for b in v] for k, v in bases.items()}, list(outs))


class _Builder:
    """A single-in-dim layout under construction: bases as lists over a fixed tuple of out dims.

    Mirrors the handful of Triton helpers the shared conversions use: ``operator*`` by identity1D
    (append bases on one out dim), ``ensureLayoutNotSmallerThan``, ``ensureLayoutNotLargerThan``,
    ``reshapeLayout`` and ``transposeLinearLayout``.  ``sizes`` are the out-dim sizes, ``order`` is
    the out-dim order of the Triton layout (it decides where ensure-not-smaller appends).
    """

    def __init__(self, names: Sequence[str]):
        self.names = list(names)
        self.sizes = {n: 1 for n in names}
        self.order: list[str] = []  # out-dim order as Triton's layout would list it
        self.bases: list[list[int]] = []

    def _touch(self, name: str) -> None:
        if name not in self.order:
            self.order.append(name)

    def mul_identity(self, size: int, out: str) -> None:
        j = self.names.index(out)
        self._touch(out)
        cur = self.sizes[out]
        for k in range(log2(size)):
            b = [0] * len(self.names)
            b[j] = cur << k
            self.bases.append(b)
        self.sizes[out] = cur * size

    def ensure_not_smaller(self, shape: Mapping[str, int], order: Sequence[str] | None = None) -> None:
        for n in order if order is not None else self.order:
            want = shape[n]
            if self.sizes[n] < want:
                self.mul_identity(want // self.sizes[n], n)

    def ensure_not_larger(self, shape: Mapping[str, int]) -> None:
        for n in self.names:
            want = shape[n]
            if self.sizes[n] > want:
                j = self.names.index(n)
                for b in self.bases:
                    if b[j] >= want:
                        b[j] = 0
                self.sizes[n] = want

    def total(self) -> int:
        return math.prod(self.sizes[n] for n in self.names)

    def reshape(self, new_sizes: Sequence[int]) -> None:
        """Row-major reshape of the out space (last dim fastest) to ``new_sizes`` on dim0..dimN-1."""
        def shifts(sizes: Sequence[int]) -> list[int]:  # log2 of the row-major strides (all powers of two)
            out, acc = [], 0
            for n in reversed(sizes):
                out.append(acc)
                acc += log2(n)
            return out[::-1]

        old_shifts = shifts([self.sizes[n] for n in self.names])
        split = list(zip(shifts(new_sizes), [n - 1 for n in new_sizes]))
        names = _dims(len(new_sizes))
        nb = []
        for b in self.bases:
            flat = sum(v << sh for v, sh in zip(b, old_shifts))  # entries below their sizes: no carries
            nb.append([(flat >> sh) & m for sh, m in split])
        self.names = names
        self.bases = nb
        self.sizes = dict(zip(names, new_sizes))
        self.order = list(names)

    def transpose(self, order: Sequence[int]) -> None:
        """Triton's ``transposeLinearLayout``: component i of a basis becomes old component order[i]."""
        self.bases = [[b[i] for i in order] for b in self.bases]
        old_sizes = [self.sizes[n] for n in self.names]
        self.sizes = {n: old_sizes[i] for n, i in zip(self.names, order)}

    def linear(self, out_order: Sequence[str]) -> list[list[int]]:
        idx = [self.names.index(n) for n in out_order]
        return [[b[i] for i in idx] for b in self.bases]


def _shape_per_cta(shape: Sequence[int], cga: Sequence[Sequence[int]], who: str) -> list[int]:
    if not cga:
        return list(shape)
    _, tiles = cga_split(cga, shape)
    return [max(1, s // t) for s, t in zip(shape, tiles)]


def _powers(start: int, stop: int) -> list[int]:
    """``start, 2 start, 4 start, ...`` below ``stop``: the bases identity1D appends to grow a dim."""
    out = []
    while start < stop:
        out.append(start)
        start *= 2
    return out


def _finish(offset: _Builder, cga: Sequence[Sequence[int]], shape: Sequence[int]) -> LinearLayout:
    """Triton's combineCtaCgaWithShape for a shared layout: cover the per-CTA shape, then add blocks."""
    names = _dims(len(shape))
    per_cta = _shape_per_cta(shape, cga, "shared layout")
    want = dict(zip(names, per_cta))
    offset.ensure_not_smaller(want)
    offset.ensure_not_larger(want)
    return _pack(offset.linear(names), per_cta, cga, shape)


def _pack(offsets: Sequence[Sequence[int]], per_cta: Sequence[int], cga: Sequence[Sequence[int]],
          shape: Sequence[int]) -> LinearLayout:
    """The ``offset``/``block`` layout from offset bases (one entry per dim, each below the dim's
    per-CTA size, so the dims' bit fields cannot overlap) and the CGA."""
    shifts = colex_shifts(shape)
    return _pack_flat([sum(v << k for v, k in zip(b, shifts)) for b in offsets], per_cta, cga, shape)


def _pack_flat(flat_offset: list[int], per_cta: Sequence[int], cga: Sequence[Sequence[int]],
               shape: Sequence[int]) -> LinearLayout:
    """:func:`_pack` for offset bases already in flat form: adds the CGA's block bases."""
    shifts = colex_shifts(shape)
    flat_block = []
    if cga:
        cut, _ = cga_split(cga, shape)
        for b in cut:
            vals = [v * c for v, c in zip(b, per_cta)]
            if any(v >= s for v, s in zip(vals, shape)):
                raise BasisError(f"shared layout: CGA basis {list(b)} reaches {vals}, beyond the tensor {list(shape)}")
            flat_block.append(sum(v << k for v, k in zip(vals, shifts)))
    return LinearLayout.from_flat({"offset": flat_offset, "block": flat_block}, list(zip(_dims(len(shape)), shape)))


# ============================================================================ base class
class _SharedLayout(_GluonBase):
    """Common behaviour of the Gluon shared layouts: equality by fields, dict form, repr."""

    kind: ClassVar[Kind] = Kind.SHARED
    family: str = ""
    _fields: tuple[str, ...] = ()

    def __setattr__(self, name: str, value: Any) -> None:
        # a value, like the dataclass layouts: each field is set once, in __init__
        if name in self.__dict__:
            raise AttributeError(f"{type(self).__name__} is immutable: cannot change {name!r}")
        object.__setattr__(self, name, value)

    def _key(self) -> tuple:
        key = self.__dict__.get("_key_cache")
        if key is None:
            key = (type(self).__name__, tuple(_freeze(getattr(self, f)) for f in self._fields))
            self._key_cache = key
        return key

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        args = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({args})"

    def to_dict(self) -> dict[str, Any]:
        """The oracle/Gluon dict form: ``{"kind": <class name>, <field>: <value>, ...}``."""
        d: dict[str, Any] = {"kind": type(self).__name__}
        for f in self._fields:
            v = getattr(self, f)
            d[f] = [list(x) for x in v] if isinstance(v, tuple) and v and isinstance(v[0], tuple) else (
                list(v) if isinstance(v, tuple) else v)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> _SharedLayout:
        """Build from the dict form (``kind`` optional; unknown fields refused)."""
        d = dict(d)
        kind = d.pop("kind", cls.__name__)
        if kind != cls.__name__:
            raise LayoutError(f"{cls.__name__}.from_dict: got a dict of kind {kind!r}")
        unknown = set(d) - set(cls._fields)
        if unknown:
            raise LayoutError(f"{cls.__name__}: unknown field(s) {sorted(unknown)}; expected {list(cls._fields)}")
        return cls(**d)

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:  # pragma: no cover - abstract
        raise NotImplementedError


def _freeze(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(x) for x in v)
    return v


# ============================================================================ NVMMA
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
    _fields = ("swizzle_byte_width", "element_bitwidth", "rank", "transposed", "fp4_padded", "cga_layout")

    def __init__(
        self,
        swizzle_byte_width: int,
        element_bitwidth: int,
        rank: int = 2,
        transposed: bool = False,
        fp4_padded: bool = False,
        cga_layout: Sequence[Sequence[int]] | None = None,
    ):
        if swizzle_byte_width not in (0, 32, 64, 128) or isinstance(swizzle_byte_width, bool):
            raise SwizzleError(f"NVMMASharedLayout: swizzle_byte_width must be 0, 32, 64 or 128, got {swizzle_byte_width!r}")
        if element_bitwidth not in (8, 16, 32, 64) or isinstance(element_bitwidth, bool):
            raise SizeError(f"NVMMASharedLayout: element_bitwidth must be 8, 16, 32 or 64, got {element_bitwidth!r}")
        if not isinstance(rank, int) or isinstance(rank, bool) or rank < 1:
            raise DimensionError(f"NVMMASharedLayout: rank must be a positive int, got {rank!r}")
        self.swizzle_byte_width = int(swizzle_byte_width)
        self.element_bitwidth = int(element_bitwidth)
        self.rank = rank
        self.transposed = as_bool(transposed, "NVMMASharedLayout", "transposed")
        self.fp4_padded = as_bool(fp4_padded, "NVMMASharedLayout", "fp4_padded")
        self.cga_layout = check_cga(cga_layout, rank, "NVMMASharedLayout")
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
        per_cta = _shape_per_cta(shp, self.cga_layout, self._who())
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
        tile += [(r, 0) for r in _powers(tile_rows, rows)] + [(0, c) for c in _powers(tile_cols // pack, cols)]
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
            flat += [v << k for v in _powers(size, p)]
        return _pack_flat(flat, per_cta, self.cga_layout, shp)

    def _unswizzled(self, shp: list[int], per_cta: list[int], tma: list[int]) -> LinearLayout:
        # Triton 3.9, swizzle_byte_width == 0: identity over the TMA box, last dim fastest; for
        # transposed layouts the box sizes are taken in the rotated order (dims 1.., 0) while the
        # dim names rotate the other way -- reproduced as is (it only differs from a plain
        # transpose at rank >= 3).
        rank = len(shp)
        names = _dims(rank)
        b = _Builder(names)
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
        return _finish(b, self.cga_layout, shp)

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
        cga = check_cga(cga_layout, len(block_shape), "NVMMASharedLayout.get_default_for")
        width = select_swizzle_width(block_shape, bits, transposed=transposed, fp4_padded=fp4_padded, cga_layout=cga)
        return NVMMASharedLayout(width, bits, len(block_shape), transposed, fp4_padded, cga or None)


# ============================================================================ swizzled
class SwizzledSharedLayout(_SharedLayout):
    """Gluon's ``SwizzledSharedLayout(vec, per_phase, max_phase, order)``.

    ``order[0]`` is the contiguous dim, ``order[1]`` the row dim: row ``r`` stores column ``c`` at
    ``c ^ ((vec * ((r // per_phase) % max_phase)) % columns)``; further dims follow ``order``.

        >>> L = SwizzledSharedLayout(2, 1, 4, [1, 0]).to_linear([4, 8])
        >>> [L(offset=8 + c)["dim1"] for c in range(8)]
        [2, 3, 0, 1, 6, 7, 4, 5]
    """

    family = "SwizzledSharedLayout"
    _fields = ("vec", "per_phase", "max_phase", "order", "cga_layout")

    def __init__(self, vec: int, per_phase: int, max_phase: int, order: Sequence[int], cga_layout: Sequence[Sequence[int]] | None = None):
        for v, n in ((vec, "vec"), (per_phase, "per_phase"), (max_phase, "max_phase")):
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise SwizzleError(f"SwizzledSharedLayout: {n} must be a positive int, got {v!r}")
        try:
            order = tuple(int(o) for o in order)
        except (TypeError, ValueError):
            raise DimensionError(f"SwizzledSharedLayout: order must be a permutation of 0..rank-1, got {order!r}") from None
        if sorted(order) != list(range(len(order))) or not order:
            raise DimensionError(f"SwizzledSharedLayout: order must be a permutation of 0..rank-1, got {list(order)}")
        self.vec, self.per_phase, self.max_phase = vec, per_phase, max_phase
        self.order = order
        self.cga_layout = check_cga(cga_layout, len(order), "SwizzledSharedLayout")

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
        names = _dims(rank)
        per_cta = _shape_per_cta(shp, self.cga_layout, who)
        b = _Builder(names)
        if rank == 1:
            b.mul_identity(per_cta[0], "dim0")
            return _finish(b, self.cga_layout, shp)
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
        return _finish(b, self.cga_layout, shp)


# ============================================================================ explicit linear
class SharedLinearLayout(_SharedLayout):
    """Gluon's ``SharedLinearLayout(offset_bases, block_bases, alignment)``: the layout given outright.

        >>> lay = SharedLinearLayout([[0, 1], [1, 0], [0, 2]])
        >>> lay.shape, lay.to_linear([2, 4]).bases["offset"]
        ([2, 4], ((0, 1), (1, 0), (0, 2)))
    """

    family = "SharedLinearLayout"
    _fields = ("offset_bases", "block_bases", "alignment")

    def __init__(self, offset_bases: Sequence[Sequence[int]], block_bases: Sequence[Sequence[int]] = (), alignment: int = 16):
        try:
            ob = tuple(tuple(int(v) for v in b) for b in offset_bases)
            bb = tuple(tuple(int(v) for v in b) for b in block_bases)
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
        self.offset_bases, self.block_bases, self.alignment = ob, bb, alignment

    @property
    def rank(self) -> int:
        return len(self.offset_bases[0])

    @property
    def shape(self) -> list[int]:
        """The tensor shape the bases span (per dim: the next power of two above the largest entry)."""
        return [1 << max((b[i] for b in self.offset_bases + self.block_bases), default=0).bit_length()
                for i in range(self.rank)]

    @classmethod
    def from_linear(cls, layout: LinearLayout, alignment: int = 16) -> SharedLinearLayout:
        """Wrap a ``LinearLayout`` with in-dims ``offset`` (and optionally ``block``)."""
        extra = set(layout.in_dim_names) - {"offset", "block"}
        if extra or not layout.has_in_dim("offset"):
            raise DimensionError(f"SharedLinearLayout needs in-dims offset (+ block), got {list(layout.in_dim_names)}")
        names = _dims(layout.num_out_dims)
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
        names = _dims(self.rank)
        return _layout({"offset": self.offset_bases, "block": self.block_bases}, list(zip(names, own)))


# ============================================================================ padded
class PaddedSharedLayout(_SharedLayout):
    """Gluon's ``PaddedSharedLayout``: a linear remap of offsets plus padding after every interval.

    Element offset ``o`` is stored at ``o + sum(pad * (o // interval))``: an addition, so the map to
    memory is not GF(2)-linear and :meth:`to_linear` refuses; :meth:`to_general` gives it as a
    general-shape (mixed-radix) layout and :meth:`physical_offset` evaluates it.

        >>> lay = PaddedSharedLayout([[2, 1], [4, 2]], [[1], [2], [4]], [], [8])
        >>> [lay.physical_offset(o) for o in range(8)]
        [0, 1, 3, 4, 8, 9, 11, 12]
        >>> lay.to_linear([8])
        Traceback (most recent call last):
        ...
        linlayout.errors.NotLinearError: PaddedSharedLayout: padding adds offset // interval * padding to the address, which is not linear over GF(2); Triton refuses too. Use to_general() or physical_offset()/table() for the memory map, or offset_layout() for the GF(2) remap before padding
    """

    family = "PaddedSharedLayout"
    _fields = ("interval_padding_pairs", "offset_bases", "cga_layout", "shape")

    def __init__(self, interval_padding_pairs: Sequence[Sequence[int]], offset_bases: Sequence[Sequence[int]],
                 cga_layout: Sequence[Sequence[int]], shape: Sequence[int]):
        try:
            pairs = tuple((int(a), int(b)) for a, b in interval_padding_pairs)
        except (TypeError, ValueError):
            raise LayoutError("PaddedSharedLayout: interval_padding_pairs must be [interval, padding] pairs") from None
        if not pairs:
            raise LayoutError("PaddedSharedLayout: needs at least one [interval, padding] pair")
        if len({a for a, _ in pairs}) != len(pairs):
            raise LayoutError("PaddedSharedLayout: intervals must be distinct")
        for a, b in pairs:
            if not (is_pow2(a) and is_pow2(b)):
                raise SizeError(f"PaddedSharedLayout: interval and padding must be powers of two, got [{a}, {b}]")
        shp = check_shape(shape, None, "PaddedSharedLayout")
        ob = tuple(tuple(int(v) for v in b) for b in offset_bases)
        for b in ob:
            if len(b) != len(shp):
                raise DimensionError(f"PaddedSharedLayout: offset basis {list(b)} does not have {len(shp)} entries")
        self.interval_padding_pairs = pairs
        self.offset_bases = ob
        self.cga_layout = check_cga(cga_layout, len(shp), "PaddedSharedLayout")
        self.shape = tuple(shp)

    def physical_offset(self, offset: int) -> int:
        """The padded address (in elements) of logical offset ``offset``."""
        return offset + sum(p * (offset // i) for i, p in self.interval_padding_pairs)

    def offset_layout(self) -> LinearLayout:
        """The GF(2) remap offset -> tensor coordinates, before padding."""
        names = _dims(len(self.shape))
        return _layout({"offset": self.offset_bases}, list(zip(names, self.shape)))

    def to_linear(self, shape: Sequence[int] | None = None) -> LinearLayout:
        """Refused: padding is not linear over GF(2) (:class:`~linlayout.errors.NotLinearError`)."""
        raise NotLinearError(
            "PaddedSharedLayout: padding adds offset // interval * padding to the address, which is not "
            "linear over GF(2); Triton refuses too. Use to_general() or physical_offset()/table() for the "
            "memory map, or offset_layout() for the GF(2) remap before padding"
        )

    def to_general(self, shape: Sequence[int] | None = None) -> MixedRadixLayout:
        """The memory map, tensor coordinate -> padded address, as a general-shape layout.

        With power-of-two intervals the padding is an integer-linear function of the offset bits:
        offset bit ``j`` moves the address by ``2**j + sum(pad * 2**j // interval)`` over the
        intervals ``<= 2**j``.  When every offset basis is one bit of one dim (a permutation of the
        coordinate bits; a zero basis stores the element twice, a replica), that is a
        :class:`~linlayout.general.MixedRadixLayout` from ``dim0, dim1, ...`` to the axis ``offset``.

            >>> lay = PaddedSharedLayout([[4, 1]], [[0, 1], [0, 2], [1, 0], [2, 0]], [], [4, 4])
            >>> g = lay.to_general()
            >>> g.apply(dim0=1, dim1=0), g.apply(dim0=3, dim1=3)    # rows of 4 with one pad element
            ({'offset': 5}, {'offset': 18})
            >>> sorted((c, a) for c, a in lay.table())[-1]
            ((3, 3), 18)

        Raises:
            NotSurjectiveError: ``shape`` is not the shape the bases span.
            UnsupportedError: an offset basis mixes bits (XOR-swizzled offsets are not mixed-radix)
                or there is a ``cga_layout``.
        """
        from linlayout.general import MixedRadixLayout

        who = "PaddedSharedLayout.to_general"
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
        per_dim = {f"dim{d}": [(2, digits[(d, k)], "offset") for k in range(size.bit_length() - 1)]
                   for d, size in enumerate(self.shape)}
        return MixedRadixLayout(per_dim, replicas, out_dims=["offset"]).coalesce()

    def table(self) -> list[tuple[tuple[int, ...], int]]:
        """Every (tensor coordinate, padded address) pair, in offset order."""
        L = self.offset_layout()
        names = L.out_dim_names
        out = []
        for o in range(L.in_dim_size("offset")):
            c = L(offset=o)
            out.append((tuple(c[n] for n in names), self.physical_offset(o)))
        return out


#: The shared layout classes by Gluon class name.
SHARED_LAYOUT_KINDS: dict[str, type[_SharedLayout]] = {
    c.__name__: c for c in (NVMMASharedLayout, SwizzledSharedLayout, SharedLinearLayout, PaddedSharedLayout)
}


def shared_from_dict(d: Mapping[str, Any]) -> _SharedLayout:
    """A shared layout from its dict form (``{"kind": "NVMMASharedLayout", ...}``).

        >>> shared_from_dict({"kind": "SwizzledSharedLayout", "vec": 1, "per_phase": 1, "max_phase": 1, "order": [1, 0]})
        SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=(1, 0), cga_layout=())
    """
    kind = d.get("kind")
    if kind not in SHARED_LAYOUT_KINDS:
        raise LayoutError(f"unknown shared layout kind {kind!r}; expected one of {sorted(SHARED_LAYOUT_KINDS)}")
    return SHARED_LAYOUT_KINDS[kind].from_dict(d)
