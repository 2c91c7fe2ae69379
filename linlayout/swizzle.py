"""Shared-memory swizzles: every spelling in one place, each a permutation of offset bits.

A swizzle permutes the addresses of a shared-memory buffer so that the rows of a tile land in
different banks.  All the spellings in use describe the same family of maps, an XOR of one bit
field of the address into another:

* CuTe ``Swizzle<B, M, S>`` (:class:`Swizzle`): the ``B`` bits at ``[M + S, M + S + B)`` are XORed
  into the ``B`` bits at ``[M, M + B)`` (a negative ``S`` XORs the low field into the high one).
  CuTe requires ``|S| >= B``; the map is then its own inverse.
* TIRx ``ComposeLayout(per_element, swizzle_len, atom_len, ...)``: ``Swizzle<swizzle_len,
  per_element, atom_len>`` (:meth:`Swizzle.from_tirx`, :meth:`Swizzle.to_tirx`).
* Triton/Gluon ``SwizzledSharedLayout(vec, per_phase, max_phase)`` over rows of ``row_elems``
  elements: column ``c`` of row ``r`` moves to ``c ^ (vec * ((r // per_phase) % max_phase))``
  (:meth:`Swizzle.from_triton`, :meth:`Swizzle.to_triton`).
* Gluon ``NVMMASharedLayout(swizzle_byte_width)`` and the MMA swizzle modes none/32B/64B/128B:
  ``Swizzle<log2(width / 16), 4, 3>`` on byte offsets (:func:`swizzle_for`).

A swizzle counts in some unit: bytes or elements of a given size.  :class:`Swizzle` itself is
unit-free (it maps integers); :meth:`Swizzle.to_bytes` and :meth:`Swizzle.to_elements` convert
between units, and :func:`swizzle_for` says which unit it returns.

CuTe's worked example, the 128-byte swizzle on byte offsets:

    >>> sw = Swizzle(3, 4, 3)
    >>> hex(sw(0x80)), hex(sw(0x3F0)), hex(sw(0x18))
    ('0x90', '0x380', '0x18')
    >>> sw(sw(0x3F0)) == 0x3F0
    True
    >>> swizzle_for("float16", "128B")           # the same swizzle in fp16 elements
    Swizzle(3, 3, 3)
    >>> swizzle_for("float16", "128B").to_bytes(2)
    Swizzle(3, 4, 3)
"""

from __future__ import annotations

from typing import Any


from .checks import as_int, expect, log2_exact
from .dtypes import element_bitwidth
from .errors import DimensionError, LayoutError, SizeError, SwizzleError, UnsupportedError
from .limits import as_list
from .linear import LinearLayout

__all__ = [
    "Swizzle",
    "SWIZZLE_MODES",
    "element_bitwidth",
    "swizzle_mode_bytes",
    "swizzle_for",
    "nvmma_swizzle_params",
    "triton_swizzle_layout",
]

#: Swizzle modes of the MMA shared-memory atoms / TMA / Gluon NVMMA layouts, in bytes.
SWIZZLE_MODES = (0, 32, 64, 128)

#: Bound on the bit positions a swizzle may touch (offsets stay inside int64).
MAX_SWIZZLE_BITS = 62

def swizzle_mode_bytes(mode: Any) -> int:
    """A swizzle mode as its width in bytes: 0/None/"none"/"interleave" -> 0, 32/"32B" -> 32, ...

        >>> swizzle_mode_bytes("128B"), swizzle_mode_bytes("none"), swizzle_mode_bytes(64)
        (128, 0, 64)
    """
    if mode is None:
        return 0
    if isinstance(mode, str):
        key = mode.strip().lower().replace("_", "").replace("swizzle", "").replace("sw", "")
        if key in ("", "none", "0", "0b", "interleave", "interleaved", "no"):
            return 0
        if key.endswith("b"):
            key = key[:-1]
        try:
            width = int(key)
        except ValueError:
            raise SwizzleError(f"unknown swizzle mode {mode!r}; expected none, 32B, 64B or 128B") from None
    else:
        width = as_int(mode, "swizzle mode", SwizzleError)
    if width not in SWIZZLE_MODES:
        raise SwizzleError(f"swizzle width must be 0, 32, 64 or 128 bytes, got {width}")
    return width


class Swizzle:
    """CuTe's ``Swizzle<B, M, S>``: XOR the ``B`` bits at ``M + S`` into the ``B`` bits at ``M``.

    ``y = x ^ ((x & (((1 << B) - 1) << (M + S))) >> S)`` for ``S >= 0``; for ``S < 0`` the field at
    ``M`` is XORed into the field at ``M - S``.  CuTe requires ``|S| >= B`` (the two fields do not
    overlap), and then the swizzle is an involution and linear over GF(2).

    Note the source field starts at ``M + S``, not at ``S``: ``Swizzle<3, 4, 3>`` reads bits 7..9.

        >>> sw = Swizzle(3, 4, 3)
        >>> sw(0b1_0000000), sw.yyy_mask, sw.zzz_mask
        (144, 896, 112)
        >>> import numpy as np
        >>> sw(np.arange(4) * 128).tolist()
        [0, 144, 288, 432]
        >>> Swizzle(2, 0, -2)(0b0011)
        15
        >>> Swizzle(3, 4, 2)
        Traceback (most recent call last):
        ...
        linlayout.errors.SwizzleError: Swizzle<3,4,2>: CuTe requires |S| >= B (non-overlapping fields), got |S| = 2 < B = 3
    """

    __slots__ = ("bits", "base", "shift", "yyy_mask", "zzz_mask")

    def __init__(self, bits: int, base: int, shift: int):
        B, M, S = as_int(bits, "Swizzle B", SwizzleError), as_int(base, "Swizzle M", SwizzleError), as_int(shift, "Swizzle S", SwizzleError)
        if B < 0 or M < 0:
            raise SwizzleError(f"Swizzle<{B},{M},{S}>: B and M must be >= 0")
        if abs(S) < B:
            raise SwizzleError(
                f"Swizzle<{B},{M},{S}>: CuTe requires |S| >= B (non-overlapping fields), got |S| = {abs(S)} < B = {B}"
            )
        if B + M + abs(S) > MAX_SWIZZLE_BITS:
            raise SizeError(f"Swizzle<{B},{M},{S}> reaches past bit {MAX_SWIZZLE_BITS}")
        self.bits, self.base, self.shift = B, M, S
        msk = (1 << B) - 1
        #: the source field (read)
        self.yyy_mask = msk << (M + max(0, S))
        #: the target field (XORed into)
        self.zzz_mask = msk << (M - min(0, S))

    # ------------------------------------------------------------------ evaluation
    def __call__(self, x: Any) -> Any:
        """Swizzle an offset (an int or a numpy integer array)."""
        y = x & self.yyy_mask
        if self.shift >= 0:
            return x ^ (y >> self.shift)
        return x ^ (y << -self.shift)

    def invert(self) -> Swizzle:
        """The inverse map: the swizzle itself (it is an involution).

            >>> Swizzle(2, 4, 3).invert() == Swizzle(2, 4, 3)
            True
        """
        return self

    def is_identity(self) -> bool:
        """True when the swizzle moves nothing (``B == 0``).

            >>> Swizzle(0, 4, 3).is_identity(), Swizzle(1, 4, 3).is_identity()
            (True, False)
        """
        return self.bits == 0

    @property
    def span_bits(self) -> int:
        """Number of low address bits the swizzle reads or writes (``M + |S| + B``).

            >>> Swizzle(3, 4, 3).span_bits
            10
        """
        return 0 if self.bits == 0 else self.base + abs(self.shift) + self.bits

    # ------------------------------------------------------------------ linear form
    def to_linear(self, size: int | None = None, in_dim: str = "offset", out_dim: str = "offset") -> LinearLayout:
        """The swizzle as a bijective ``LinearLayout`` from ``in_dim`` to ``out_dim`` (both of ``size``).

        ``size`` defaults to ``2 ** span_bits`` (at least 1); it must be a power of two that holds
        the target field.

            >>> L = Swizzle(1, 0, 1).to_linear()
            >>> L.bases["offset"], L.is_invertible()
            (((1,), (3,)), True)
            >>> Swizzle(3, 4, 3).to_linear(1024).apply_flat(0x80)
            144
        """
        if not (isinstance(in_dim, str) and isinstance(out_dim, str)):
            bad = out_dim if isinstance(in_dim, str) else in_dim
            raise DimensionError(f"Swizzle.to_linear: in_dim and out_dim must be dim names (str), got {type(bad).__name__}")
        n = self.span_bits if size is None else log2_exact(as_int(size, "size", SwizzleError), "swizzle size")
        if self.bits and self.shift < 0 and n < self.base - self.shift + self.bits:
            raise SizeError(
                f"{self!s} writes bits up to {self.base - self.shift + self.bits - 1}; a size of 2**{n} is too small"
            )
        bases = [[int(self(1 << i)) & ((1 << n) - 1)] for i in range(n)]
        return LinearLayout({in_dim: bases}, {out_dim: 1 << n})

    @classmethod
    def from_linear(cls, layout: LinearLayout) -> Swizzle:
        """Recognize a one-in-dim, one-out-dim ``LinearLayout`` that is an XOR swizzle.

        Raises :class:`~linlayout.errors.UnsupportedError` when it is some other permutation.

            >>> Swizzle.from_linear(Swizzle(2, 3, 4).to_linear())
            Swizzle(2, 3, 4)
            >>> Swizzle.from_linear(LinearLayout.identity_1d(16, "offset", "offset"))
            Swizzle(0, 0, 0)
        """
        layout = expect(layout, LinearLayout, "Swizzle.from_linear: layout")
        if layout.num_in_dims != 1 or layout.num_out_dims != 1:
            raise UnsupportedError("Swizzle.from_linear needs a layout with one input and one output dim")
        (ind,) = layout.in_dim_names
        (outd,) = layout.out_dim_names
        cols = [layout.get_basis(ind, i, outd) for i in range(layout.in_dim_size_log2(ind))]
        moved = [i for i, c in enumerate(cols) if c != (1 << i)]
        if not moved:
            return cls(0, 0, 0)
        # every moved bit i maps to (1 << i) | (1 << t) with a common shift t - i
        diffs = set()
        for i in moved:
            extra = cols[i] ^ (1 << i)
            if extra & (extra - 1) or not extra:
                raise UnsupportedError(f"basis {i} of {ind!r} is not an XOR of two bits; not a swizzle")
            diffs.add(extra.bit_length() - 1 - i)
        if len(diffs) != 1:
            raise UnsupportedError("the moved bits do not share one shift; not a single XOR swizzle")
        d = diffs.pop()  # target = source + d; CuTe S = -d
        lo, hi = min(moved), max(moved)
        if hi - lo + 1 != len(moved):
            raise UnsupportedError("the moved bits are not one contiguous field; not a single XOR swizzle")
        B = len(moved)
        M = lo + min(d, 0)  # CuTe's M is the lower of the two fields
        try:
            sw = cls(B, M, -d)
        except LayoutError as e:
            raise UnsupportedError(f"recognized an XOR of overlapping fields, not a CuTe swizzle: {e}") from None
        if sw.to_linear(layout.in_dim_size(ind), ind, outd) != layout:
            raise UnsupportedError("the layout is not a single XOR swizzle")
        return sw

    # ------------------------------------------------------------------ units
    def to_bytes(self, element_bytes: int) -> Swizzle:
        """This swizzle, counted in elements of ``element_bytes`` bytes, counted in bytes instead.

            >>> Swizzle(3, 3, 3).to_bytes(2), Swizzle(3, 2, 3).to_bytes(4)
            (Swizzle(3, 4, 3), Swizzle(3, 4, 3))
        """
        k = log2_exact(as_int(element_bytes, "element_bytes", SwizzleError), "element size in bytes")
        return Swizzle(self.bits, self.base + k, self.shift) if self.bits else Swizzle(0, 0, 0)

    def to_elements(self, element_bytes: int) -> Swizzle:
        """This swizzle, counted in bytes, counted in elements of ``element_bytes`` bytes.

        Refused (:class:`~linlayout.errors.UnsupportedError`) when the swizzle moves bytes inside an
        element (``M < log2(element_bytes)``).

            >>> Swizzle(3, 4, 3).to_elements(2), Swizzle(3, 4, 3).to_elements(1)
            (Swizzle(3, 3, 3), Swizzle(3, 4, 3))
        """
        k = log2_exact(as_int(element_bytes, "element_bytes", SwizzleError), "element size in bytes")
        if not self.bits:
            return Swizzle(0, 0, 0)
        low = min(self.base, self.base + self.shift)
        if low < k:
            raise UnsupportedError(
                f"{self!s} on bytes moves bit {low}, inside a {element_bytes}-byte element; "
                "it has no element-unit spelling"
            )
        return Swizzle(self.bits, self.base - k, self.shift)

    # ------------------------------------------------------------------ other spellings
    @classmethod
    def from_tirx(cls, per_element: int, swizzle_len: int, atom_len: int) -> Swizzle:
        """TIRx ``ComposeLayout(per_element, swizzle_len, atom_len, ...)`` = ``Swizzle<swizzle_len, per_element, atom_len>``.

            >>> Swizzle.from_tirx(3, 3, 3)
            Swizzle(3, 3, 3)
        """
        return cls(swizzle_len, per_element, atom_len)

    def to_tirx(self) -> tuple[int, int, int]:
        """``(per_element, swizzle_len, atom_len)`` of TIRx's ``ComposeLayout`` (needs ``S >= 0``).

            >>> Swizzle(2, 4, 3).to_tirx()
            (4, 2, 3)
        """
        if self.shift < 0:
            raise UnsupportedError(f"{self!s}: TIRx's ComposeLayout has no negative shift")
        return (self.base, self.bits, self.shift)

    @classmethod
    def from_triton(cls, vec: int, per_phase: int, max_phase: int, row_elems: int) -> Swizzle:
        """Triton's ``(vec, per_phase, max_phase)`` swizzle of rows of ``row_elems`` elements, on element offsets.

        Row ``r``, column ``c`` (offset ``r * row_elems + c``) is stored at column
        ``c ^ ((vec * ((r // per_phase) % max_phase)) % row_elems)``: ``Swizzle<log2 max_phase,
        log2 vec, log2(row_elems * per_phase / vec)>`` with the XOR field cut to the row.

            >>> Swizzle.from_triton(8, 1, 8, 64)         # fp16, 128B rows: NVMMA 128B
            Swizzle(3, 3, 3)
            >>> Swizzle.from_triton(4, 2, 4, 16)
            Swizzle(2, 2, 3)
        """
        vec, per_phase, max_phase, row_elems = (as_int(v, n, SwizzleError) for v, n in (
            (vec, "vec"), (per_phase, "per_phase"), (max_phase, "max_phase"), (row_elems, "row_elems")))
        lv = log2_exact(vec, "vec")
        lp = log2_exact(per_phase, "per_phase")
        lm = log2_exact(max_phase, "max_phase")
        lc = log2_exact(row_elems, "row_elems")
        B = max(0, min(lm, lc - lv))
        if B == 0:
            return cls(0, 0, 0)
        return cls(B, lv, lc + lp - lv)

    def to_triton(self, row_elems: int) -> tuple[int, int, int]:
        """``(vec, per_phase, max_phase)`` for rows of ``row_elems`` elements (the inverse of :meth:`from_triton`).

        Needs the source field in the row bits and the target field in the column bits.

            >>> Swizzle(3, 3, 3).to_triton(64)
            (8, 1, 8)
            >>> Swizzle(2, 2, 3).to_triton(16)
            (4, 2, 4)
        """
        lc = log2_exact(as_int(row_elems, "row_elems", SwizzleError), "row_elems")
        if not self.bits:
            return (1, 1, 1)
        if self.shift < 0:
            raise UnsupportedError(f"{self!s}: Triton's swizzle XORs row bits into column bits (S >= 0)")
        if self.base + self.bits > lc:
            raise UnsupportedError(f"{self!s}: the XOR target reaches past a row of {row_elems} elements")
        if self.base + self.shift < lc:
            raise UnsupportedError(f"{self!s}: the XOR source lies inside a row of {row_elems} elements")
        return (1 << self.base, 1 << (self.base + self.shift - lc), 1 << self.bits)

    def to_nvmma_width(self, element_bits: int) -> int:
        """The Gluon ``NVMMASharedLayout.swizzle_byte_width`` this element-unit swizzle is, if any.

            >>> Swizzle(3, 3, 3).to_nvmma_width(16), Swizzle(1, 2, 3).to_nvmma_width(32)
            (128, 32)
        """
        for w in SWIZZLE_MODES:
            if swizzle_for(element_bits, w) == self:
                return w
        raise UnsupportedError(f"{self!s} on {element_bits}-bit elements is not an NVMMA swizzle mode")

    # ------------------------------------------------------------------ dunder
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Swizzle):
            return NotImplemented
        if self.bits == 0 and other.bits == 0:
            return True
        return (self.bits, self.base, self.shift) == (other.bits, other.base, other.shift)

    def __hash__(self) -> int:
        if self.bits == 0:
            return hash(("Swizzle", 0))
        return hash(("Swizzle", self.bits, self.base, self.shift))

    def __repr__(self) -> str:
        return f"Swizzle({self.bits}, {self.base}, {self.shift})"

    def __str__(self) -> str:
        return f"Swizzle<{self.bits},{self.base},{self.shift}>"


def nvmma_swizzle_params(element_bits: int, mode: Any) -> tuple[int, int, int]:
    """Triton's ``(vec, per_phase, max_phase)`` of an NVMMA swizzle mode for ``element_bits`` elements.

    The 32/64/128-byte modes are ``(per_phase, max_phase)`` = (4, 2), (2, 4), (1, 8) with ``vec`` =
    16 bytes of elements; mode none is (vec, 1, 1).

        >>> nvmma_swizzle_params(16, 128), nvmma_swizzle_params(8, "32B"), nvmma_swizzle_params(32, 0)
        ((8, 1, 8), (16, 4, 2), (4, 1, 1))
    """
    width = swizzle_mode_bytes(mode)
    bits = element_bitwidth(element_bits)
    vec = max(1, 128 // bits)
    return {0: (vec, 1, 1), 32: (vec, 4, 2), 64: (vec, 2, 4), 128: (vec, 1, 8)}[width]


def swizzle_for(dtype: Any, mode: Any, unit: str = "element") -> Swizzle:
    """The MMA/TMA swizzle of a mode (none/32B/64B/128B) for an element type.

    On byte offsets every mode is ``Swizzle<log2(width / 16), 4, 3>`` (16-byte chunks stay whole,
    rows of ``width`` bytes, 8 rows per pattern).  ``unit="element"`` (default) counts in elements of
    ``dtype``: ``M = log2(128 / bits)``; ``unit="byte"`` gives the byte form.

        >>> swizzle_for("float16", "128B"), swizzle_for("fp32", 128), swizzle_for("int8", 128)
        (Swizzle(3, 3, 3), Swizzle(3, 2, 3), Swizzle(3, 4, 3))
        >>> swizzle_for(16, "64B", unit="byte")
        Swizzle(2, 4, 3)
        >>> swizzle_for(16, 48)
        Traceback (most recent call last):
        ...
        linlayout.errors.SwizzleError: swizzle width must be 0, 32, 64 or 128 bytes, got 48
    """
    width = swizzle_mode_bytes(mode)
    bits = element_bitwidth(dtype)
    if width == 0:
        return Swizzle(0, 0, 0)
    B = (width // 16).bit_length() - 1
    byte_form = Swizzle(B, 4, 3)
    if not isinstance(unit, str):
        raise LayoutError(f"swizzle_for: unit must be 'element' or 'byte', got {type(unit).__name__}")
    if unit in ("byte", "bytes"):
        return byte_form
    if unit not in ("element", "elements"):
        raise LayoutError(f"unit must be 'element' or 'byte', got {unit!r}")
    if bits >= 8:
        return byte_form.to_elements(bits // 8)
    # sub-byte elements: 128 / bits elements per 16-byte chunk
    return Swizzle(B, 4 + (8 // bits).bit_length() - 1, 3)


def triton_swizzle_layout(
    vec: int, per_phase: int, max_phase: int, shape: tuple[int, int], order: tuple[int, int] = (1, 0)
) -> LinearLayout:
    """Triton's 2-D swizzled shared layout: ``offset`` -> (``dim0``, ``dim1``), as Triton builds it.

    ``order[0]`` is the contiguous dim; row ``r`` of the other dim XORs its columns with
    ``(vec * ((r // per_phase) % max_phase)) % columns``.

        >>> L = triton_swizzle_layout(2, 1, 4, (4, 8))
        >>> [L(offset=8 + c)["dim1"] for c in range(8)]     # row 1: columns XOR 2
        [2, 3, 0, 1, 6, 7, 4, 5]
    """
    vec, per_phase, max_phase = (as_int(v, n, SwizzleError) for v, n in ((vec, "vec"), (per_phase, "per_phase"), (max_phase, "max_phase")))
    for v, n in ((vec, "vec"), (per_phase, "per_phase"), (max_phase, "max_phase")):
        if v < 1:
            raise SizeError(f"{n} must be >= 1, got {v}")
    shp, ordr = as_list(shape, "triton_swizzle_layout: shape", 2), as_list(order, "triton_swizzle_layout: order", 2)
    if len(shp) != 2 or sorted(ordr) != [0, 1]:
        raise LayoutError(f"triton_swizzle_layout needs a 2-D shape and order (1, 0) or (0, 1), got {shp}, {ordr}")
    col_dim, row_dim = ordr
    ncols, nrows = as_int(shp[col_dim], "columns", SwizzleError), as_int(shp[row_dim], "rows", SwizzleError)
    log2_exact(ncols, "column count")
    log2_exact(nrows, "row count")
    names = ("dim0", "dim1")
    bases = []
    c = 1
    while c < ncols:
        b = [0, 0]
        b[col_dim] = c
        bases.append(b)
        c *= 2
    r = 1
    while r < nrows:
        b = [0, 0]
        b[row_dim] = r
        b[col_dim] = (vec * ((r // per_phase) % max_phase)) % ncols
        bases.append(b)
        r *= 2
    return LinearLayout({"offset": bases}, [(names[0], shp[0]), (names[1], shp[1])])
