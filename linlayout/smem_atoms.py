"""The MMA shared-memory atoms (K-major / MN-major, swizzle none/32B/64B/128B) and the selector.

A Hopper/Blackwell MMA operand in shared memory is tiled by *atoms*: 8 rows (the strided dim) of
one swizzle row (``W`` bytes of the contiguous dim, 16 bytes for the unswizzled "interleaved"
atom), with the 16-byte chunks of row ``r`` XORed by ``r``'s phase -- CuTe's
``Swizzle<log2(W/16), 4, 3>`` on byte offsets.  K-major atoms are contiguous along K (dim 1 of an
``(MN, K)`` tile); MN-major atoms are their transposes (contiguous along dim 0).

    >>> a = MmaAtom("float16", "128B")             # fp16 K-major 128B: 8 x 64 elements
    >>> a.shape, a.swizzle()
    ((8, 64), Swizzle(3, 3, 3))
    >>> MmaAtom(8, 32, major="MN").shape
    (32, 8)
    >>> select_atom((128, 64), "float16")         # K = 64 fp16 = 128 bytes -> the 128B atom
    MmaAtom(element_bits=16, swizzle_bytes=128, major='K')
    >>> select_atom((128, 32), "float16").swizzle_bytes
    64
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import DimensionError, LayoutError, SizeError
from .linear import LinearLayout
from .checks import as_bool, as_int, expect, log2_exact
from .limits import MAX_RANK, as_list
from .swizzle import Swizzle, element_bitwidth, swizzle_for, swizzle_mode_bytes

__all__ = ["MmaAtom", "mma_atoms", "select_swizzle_width", "select_atom", "tile_by_atoms"]


class MmaAtom:
    """One MMA shared-memory swizzle atom: ``element_bits``, ``swizzle_bytes`` (0/32/64/128), ``major``.

    ``shape`` is ``(8, W)`` for K-major and ``(W, 8)`` for MN-major, ``W = 8 * max(16,
    swizzle_bytes) / element_bits`` elements; :meth:`to_linear` maps the atom's ``offset`` (element
    address) to ``(dim0, dim1)``.

        >>> MmaAtom(32, 0).shape, MmaAtom(8, 128).shape, MmaAtom(16, 64, "MN").shape
        ((8, 4), (8, 128), (32, 8))
        >>> L = MmaAtom(16, 128).to_linear()
        >>> L(offset=64), L(offset=64 + 8)             # row 1 starts at chunk 1: columns 8.. first
        ({'dim0': 1, 'dim1': 8}, {'dim0': 1, 'dim1': 0})
    """

    __slots__ = ("element_bits", "swizzle_bytes", "major")

    def __init__(self, element_bits: Any, swizzle_bytes: Any = 128, major: str = "K"):
        bits = element_bitwidth(element_bits)
        if bits not in (4, 8, 16, 32, 64):
            raise SizeError(f"MMA atoms exist for 4/8/16/32/64-bit elements, got {bits}")
        if not isinstance(major, str) or major not in ("K", "MN"):
            raise LayoutError(f"MmaAtom: major must be 'K' or 'MN', got {major!r:.60}")
        self.element_bits = bits
        self.swizzle_bytes = swizzle_mode_bytes(swizzle_bytes)
        self.major = major

    @property
    def row_elems(self) -> int:
        """Elements along the contiguous dim (one swizzle row; 16 bytes for the interleaved atom)."""
        return 8 * max(16, self.swizzle_bytes) // self.element_bits

    @property
    def shape(self) -> tuple[int, int]:
        """``(dim0, dim1)`` extent of the atom."""
        return (8, self.row_elems) if self.major == "K" else (self.row_elems, 8)

    @property
    def contiguous_dim(self) -> int:
        """1 for K-major atoms, 0 for MN-major ones."""
        return 1 if self.major == "K" else 0

    def swizzle(self, unit: str = "element") -> Swizzle:
        """The atom's swizzle (element units by default, or ``unit="byte"``)."""
        return swizzle_for(self.element_bits, self.swizzle_bytes, unit=unit)

    def to_linear(self) -> LinearLayout:
        """``offset`` (element address inside the atom) -> ``(dim0, dim1)``.

        Logical ``(strided s, contiguous c)`` lives at ``swizzle(s * row_elems + c)``; the
        swizzle is its own inverse, so offset ``o`` holds the element at ``swizzle(o)``.
        """
        sw = self.swizzle()
        n = self.row_elems
        bases = []
        for i in range(log2_exact(8 * n, "atom size")):
            v = sw(1 << i)
            s, c = v // n, v % n
            bases.append([s, c] if self.major == "K" else [c, s])
        d0, d1 = self.shape
        return LinearLayout({"offset": bases}, {"dim0": d0, "dim1": d1})

    def transpose(self) -> MmaAtom:
        """The same atom with the other major-ness."""
        return MmaAtom(self.element_bits, self.swizzle_bytes, "MN" if self.major == "K" else "K")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MmaAtom):
            return NotImplemented
        return (self.element_bits, self.swizzle_bytes, self.major) == (other.element_bits, other.swizzle_bytes, other.major)

    def __hash__(self) -> int:
        return hash(("MmaAtom", self.element_bits, self.swizzle_bytes, self.major))

    def __repr__(self) -> str:
        return f"MmaAtom(element_bits={self.element_bits}, swizzle_bytes={self.swizzle_bytes}, major={self.major!r})"


def mma_atoms(element_bits: Any | None = None) -> list[MmaAtom]:
    """Every atom (K- and MN-major, all four swizzle modes) for 8/16/32-bit elements (or one width).

        >>> len(mma_atoms()), [a.shape for a in mma_atoms(16) if a.major == "K"]
        (24, [(8, 8), (8, 16), (8, 32), (8, 64)])
    """
    widths = (8, 16, 32) if element_bits is None else (element_bitwidth(element_bits),)
    return [MmaAtom(b, w, m) for b in widths for m in ("K", "MN") for w in (0, 32, 64, 128)]


def select_swizzle_width(
    block_shape: Sequence[int],
    dtype: Any,
    transposed: bool = False,
    fp4_padded: bool = False,
    cga_layout: Sequence[Sequence[int]] | None = None,
) -> int:
    """The swizzle width Gluon's ``NVMMASharedLayout.get_default_for`` picks for a block.

    The contiguous dim (the last; the first when ``transposed``) in bytes must be a multiple of the
    width and at least the width; the other dims together need at least 8 rows; rank-1 blocks get
    no swizzle.  With a ``cga_layout`` the per-CTA block decides.

        >>> select_swizzle_width([64, 64], "fp16"), select_swizzle_width([64, 48], "fp16")
        (128, 32)
        >>> select_swizzle_width([4, 64], 16), select_swizzle_width([64, 4], 16, transposed=True)
        (0, 0)
    """
    shape = [as_int(s, "select_swizzle_width: block_shape entry") for s in as_list(block_shape, "block_shape", MAX_RANK)]
    if not shape or any(s <= 0 for s in shape):
        raise SizeError(f"block_shape must be non-empty and positive, got {shape}")
    bits = element_bitwidth(dtype)
    transposed = as_bool(transposed, "select_swizzle_width", "transposed")
    fp4_padded = as_bool(fp4_padded, "select_swizzle_width", "fp4_padded")
    cga = [] if cga_layout is None else [[as_int(x, "cga_layout entry") for x in as_list(b, "cga_layout basis", MAX_RANK)]
                                         for b in as_list(cga_layout, "cga_layout", MAX_RANK)]
    if cga:
        rank = len(shape)
        tiles = []
        if any(len(b) != rank or min(b) < 0 for b in cga):
            raise DimensionError(f"cga_layout's bases must be {rank} non-negative ints each, got {cga}")
        for i in range(rank):
            m = max((b[i] for b in cga), default=0)
            tiles.append(1 if m == 0 else 1 << m.bit_length())
        for i, (s, t) in enumerate(zip(shape, tiles)):
            if s % t:
                raise SizeError(f"shape {shape} dim {i} is not divisible by the CGA layout's {t} CTAs")
        shape = [s // t for s, t in zip(shape, tiles)]
    if transposed:
        shape = shape[1:] + shape[:1]
    contig_bytes = shape[-1] * (2 if fp4_padded else 1) * bits // 8
    width = 0
    for w in (128, 64, 32):
        if contig_bytes >= w and contig_bytes % w == 0:
            width = w
            break
    outer = 1
    for s in shape[:-1]:
        outer *= s
    if len(shape) < 2 or outer < 8:
        width = 0
    return width


def select_atom(shape: Sequence[int], dtype: Any, major: str = "K") -> MmaAtom:
    """The largest swizzle atom that fits an ``(MN, K)`` tile (``get_default_for``'s choice).

    A K extent of 64 bytes picks the 64B atom, 128 bytes or a multiple the 128B atom, 32 bytes the
    32B atom, anything else (or fewer than 8 strided rows) the interleaved one.

        >>> select_atom((64, 128), "fp8"), select_atom((64, 16), "float32").swizzle_bytes
        (MmaAtom(element_bits=8, swizzle_bytes=128, major='K'), 64)
        >>> select_atom((64, 64), "fp16", major="MN")
        MmaAtom(element_bits=16, swizzle_bytes=128, major='MN')
    """
    if not isinstance(major, str) or major not in ("K", "MN"):
        raise LayoutError(f"select_atom: major must be 'K' or 'MN', got {major!r:.60}")
    width = select_swizzle_width(shape, dtype, transposed=(major == "MN"))
    return MmaAtom(dtype, width, major)


def tile_by_atoms(atom: MmaAtom, shape: Sequence[int], order: str = "col") -> LinearLayout:
    """A 2-D tile of ``shape`` stored as a grid of ``atom`` copies, one after another in memory.

    ``order="col"``: atoms run down dim 0 first (column-major over the atom grid); ``"row"``:
    along dim 1 first.  Gluon's K-major NVMMA layouts are ``"col"``, MN-major ones ``"row"``.

        >>> L = tile_by_atoms(MmaAtom(16, 128), (16, 128))
        >>> L(offset=512), L(offset=1024)              # atom 1 is below atom 0, atom 2 to its right
        ({'dim0': 8, 'dim1': 0}, {'dim0': 0, 'dim1': 64})
        >>> tile_by_atoms(MmaAtom(16, 128), (16, 32))
        Traceback (most recent call last):
        ...
        linlayout.errors.SizeError: a (16, 32) tile is not a whole number of (8, 64) atoms
    """
    if not isinstance(order, str) or order not in ("row", "col"):
        raise LayoutError(f"tile_by_atoms: order must be 'row' or 'col', got {order!r:.60}")
    atom = expect(atom, MmaAtom, "tile_by_atoms: atom")
    shape = as_list(shape, "tile_by_atoms: shape", MAX_RANK)
    if len(shape) != 2:
        raise DimensionError(f"tile_by_atoms needs a 2-D shape, got {tuple(shape)}")
    s0, s1 = (as_int(s, "tile_by_atoms: shape entry") for s in shape)
    a0, a1 = atom.shape
    log2_exact(s0, "tile dim 0")
    log2_exact(s1, "tile dim 1")
    if s0 % a0 or s1 % a1:
        raise SizeError(f"a ({s0}, {s1}) tile is not a whole number of {atom.shape} atoms")
    base = atom.to_linear()
    bases = [list(b) for b in base.bases["offset"]]
    grid0 = [[a0 << k, 0] for k in range((s0 // a0).bit_length() - 1)]
    grid1 = [[0, a1 << k] for k in range((s1 // a1).bit_length() - 1)]
    bases += grid0 + grid1 if order == "col" else grid1 + grid0
    return LinearLayout({"offset": bases}, {"dim0": s0, "dim1": s1})
