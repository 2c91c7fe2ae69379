"""The GMMA / UMMA shared-memory layout atoms by their CuTe names, in elements of a given width.

CUTLASS defines them in bits (``mma_traits_sm90_gmma.hpp`` lines 75-84, ``mma_traits_sm100.hpp``
line 73), e.g. ``Layout_K_SW128_Atom_Bits = ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag,
Layout<Shape<_8,_1024>,Stride<_1024,_1>>>``, and ``Layout_K_SW128_Atom<T>`` is its
``upcast<sizeof_bits<T>>``: the layout's strides are divided by the width while the swizzle stays
an XOR of *byte* addresses (``smem_ptr_flag``; the swizzle pointer XORs the raw address).  On
element offsets that swizzle reads ``Swizzle<B, M + 3 - log2(bits), S>`` (CuTe's ``upcast`` of a
swizzle: a negative base becomes ``Swizzle<max(B + M', 0), 0, S>``).  The ``UMMA::`` names of the
eight common atoms are CuTe's aliases of the ``GMMA::`` ones; ``UMMA::Layout_MN_SW128_32B_Atom``
is Blackwell's own.  These are the atoms :class:`linlayout.smem_atoms.MmaAtom` describes as
``offset -> (MN, K)`` maps (the tests check that they agree).

    >>> print(smem_layout_atom("GMMA::Layout_K_SW128_Atom", 16))
    S<3,3,3> o 0 o (8,64):(64,1)
    >>> print(smem_layout_atom("UMMA::Layout_MN_SW128_32B_Atom", 32))
    S<2,3,2> o 0 o (32,4):(1,32)
"""

from __future__ import annotations

from .atoms_copy import recast_bits
from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["smem_atom_names", "smem_layout_atom"]

# (swizzle B, M, S), shape, stride in bits: mma_traits_sm90_gmma.hpp:75-84, mma_traits_sm100.hpp:73
_BITS = {
    "Layout_MN_INTER_Atom": ((0, 4, 3), (128, 8), (1, 128)),
    "Layout_MN_SW32_Atom": ((1, 4, 3), (256, 8), (1, 256)),
    "Layout_MN_SW64_Atom": ((2, 4, 3), (512, 8), (1, 512)),
    "Layout_MN_SW128_Atom": ((3, 4, 3), (1024, 8), (1, 1024)),
    "Layout_K_INTER_Atom": ((0, 4, 3), (8, 128), (128, 1)),
    "Layout_K_SW32_Atom": ((1, 4, 3), (8, 256), (256, 1)),
    "Layout_K_SW64_Atom": ((2, 4, 3), (8, 512), (512, 1)),
    "Layout_K_SW128_Atom": ((3, 4, 3), (8, 1024), (1024, 1)),
}
_UMMA_ONLY = {"Layout_MN_SW128_32B_Atom": ((2, 5, 2), (1024, 4), (1, 1024))}


def smem_atom_names() -> list[str]:
    """The shared-memory layout atom names: ``GMMA::...`` then ``UMMA::...``.

        >>> len(smem_atom_names()), smem_atom_names()[-1]
        (17, 'UMMA::Layout_MN_SW128_32B_Atom')
    """
    return [f"GMMA::{n}" for n in _BITS] + [f"UMMA::{n}" for n in _BITS] + [f"UMMA::{n}" for n in _UMMA_ONLY]


def _upcast_swizzle(B: int, M: int, S: int, bits: int) -> Swizzle:
    """CuTe's ``upcast<N>(Swizzle<B,M,S>)`` for a byte-address swizzle read on ``bits``-bit
    elements (``N = bits / 8`` bytes; a sub-byte element moves the base up)."""
    new_m = M + 3 - (bits.bit_length() - 1)
    if new_m >= 0:
        return Swizzle(B, new_m, S)
    return Swizzle(max(B + new_m, 0), 0, S)


def smem_layout_atom(name: str, bits: int) -> ComposedLayout:
    """``Swizzle o 0 o layout`` of the atom ``name`` (e.g. ``"GMMA::Layout_K_SW64_Atom"``) for
    ``bits``-bit elements: a :class:`KeyError` for an unknown name (the caller words it)."""
    arch, _, base = name.partition("::")
    table = dict(_BITS, **_UMMA_ONLY) if arch == "UMMA" else _BITS if arch == "GMMA" else {}
    (B, M, S), shape, stride = table[base]
    inner = recast_bits(Layout(shape, stride), bits)
    return ComposedLayout(_upcast_swizzle(B, M, S, bits), 0, inner)
