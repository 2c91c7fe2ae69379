"""CuTe's MMA and copy atoms by their CUTLASS names, each with its thread-value layouts.

:func:`mma_atom` gives an :class:`MMAAtom` with ``.a`` (over the ``(M, K)`` tile), ``.b`` (over
``(N, K)``) and ``.c`` (over ``(M, N)``) :class:`~converters.cute.tv.TVLayout` s; :func:`copy_atom`
gives a :class:`CopyAtom` with ``.src`` and ``.dst``, in elements of the width the operation's
name says (``U32`` / ``U16``; a 32-bit column for ``tcgen05``) or of ``bits``; :func:`smem_atom`
gives a GMMA / UMMA shared-memory layout atom.  :func:`atoms` lists every name.  The layouts are CUTLASS's ``MMA_Traits`` / ``Copy_Traits``
(:mod:`.atoms_mma`, :mod:`.atoms_copy` say where each comes from).

    >>> from linlayout.equiv import equivalent
    >>> from converters.gluon import NVMMADistributedLayout
    >>> mma = mma_atom("SM90_64x64x16_F32F16F16_SS")
    >>> mma.shape_mnk, str(mma.c)
    ((64, 64, 16), '((4,8,4),(2,2,8)):((128,1,16),(64,8,512)) -> (64,64)')
    >>> bool(equivalent(mma.c, NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16]), shape=[64, 64]))
    True
    >>> ld = copy_atom("SM75_U32x4_LDSM_N", bits=16)
    >>> str(ld.dst), ld.dst(1, 0)
    ('(32,(2,4)):(2,(1,64)) -> (256)', (2,))
    >>> mma_atom("SM80_16x8x16_F16F16F16_TN")
    Traceback (most recent call last):
    ...
    linlayout.errors.LayoutError: unknown MMA atom 'SM80_16x8x16_F16F16F16_TN'; did you mean SM80_16x8x16_F16F16F16F16_TN or SM80_16x8x8_F16F16F16F16_TN or SM80_16x8x16_F32F16F16F32_TN? (atoms('mma') lists them)
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

from linlayout.checks import as_int
from linlayout.errors import LayoutError, SizeError, UnsupportedError
from linlayout.linear import LinearLayout

from .atoms_copy import copy_atom_bits, copy_atom_names, recast_bits
from .atoms_mma import mma_atom_layouts, mma_atom_names
from .atoms_smem import smem_atom_names, smem_layout_atom as _smem_layout_atom
from .swizzle import ComposedLayout
from .text import parse_layout
from .tmem import TmemLayout
from .tv import TVLayout

__all__ = ["MMAAtom", "CopyAtom", "mma_atom", "copy_atom", "smem_atom", "atoms"]


def _unknown(what: str, name: object, names: list[str], kind: str) -> LayoutError:
    close = difflib.get_close_matches(str(name), names, n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    return LayoutError(f"unknown {what} {name!r}{hint} (atoms({kind!r}) lists them)")


@dataclass(frozen=True)
class MMAAtom:
    """An MMA atom: its CUTLASS name, ``shape_mnk`` and the TV layouts of its operands.

    ``a`` maps (thread, value) to the ``(M, K)`` tile, ``b`` to ``(N, K)``, ``c`` (the
    accumulator, also D) to ``(M, N)``.
    """

    name: str
    shape_mnk: tuple[int, int, int]
    a: TVLayout
    b: TVLayout
    c: TVLayout

    @property
    def num_threads(self) -> int:
        """Threads that execute the atom (CUTLASS's ``size(ThrID)``; for a ``2x1SM`` UMMA the two
        peer CTAs)."""
        return self.c.num_threads

    def tmem_c(self, value_bits: int = 32, storage_bits: int = 32) -> TmemLayout:
        """Where a ``tcgen05`` (SM100 UMMA) atom keeps its accumulator in tensor memory: CuTe's
        ``tmem_frg_1sm`` / ``tmem_frg_2sm`` of the ``(M, N)`` tile (two CTAs for a ``2x1SM`` atom,
        each holding ``M / 2`` rows), as a :class:`~converters.cute.tmem.TmemLayout` of
        ``value_bits``-bit values in ``storage_bits``-bit slots.

            >>> print(mma_atom("SM100_MMA_F16BF16_2x1SM_SS_128x64x16").tmem_c())
            tmem<32,2cta> (64,(32,2)):(65536,(1,4194304))
        """
        if not self.name.startswith("SM100_MMA_"):
            raise UnsupportedError(f"tmem_c: {self.name} is not a tcgen05 (SM100 UMMA) atom; its accumulator lives in registers")
        M, N, _ = self.shape_mnk
        return TmemLayout.accumulator(M, N, value_bits=value_bits, storage_bits=storage_bits, ctas=self.num_threads)

    def tmem_a(self) -> TmemLayout:
        """Where a one-CTA ``tcgen05`` atom with a tensor-memory A (``..._TS_...``) reads A: CuTe's
        ``tmem_frg_1sm<a_type, a_type, NonInterleaved>`` of the ``(M, K)`` tile, packed values of
        the A type's width (16-bit f16/bf16, 32-bit tf32, 8-bit integers and fp8).  A two-CTA atom
        duplicates its A over the lane quarters (``TmemAllocMode::Duplicated``), which a
        :class:`~converters.cute.tmem.TmemLayout` does not model (:func:`~converters.cute.tmem.tmem_frg` builds it).

            >>> print(mma_atom("SM100_MMA_F16BF16_TS_128x64x16").tmem_a())
            tmem<16> (128,16):(131072,1)
        """
        if not self.name.startswith("SM100_MMA_") or "_TS_" not in self.name:
            raise UnsupportedError(f"tmem_a: {self.name} does not read A from tensor memory (a tcgen05 ..._TS_... atom does)")
        if "2x1SM" in self.name:
            raise UnsupportedError(f"tmem_a: {self.name} duplicates A over the lane quarters (TmemAllocMode::Duplicated); "
                                   "tmem_frg(bits, ((M/2, K), 1, 1), ctas=2, mode='duplicated') gives CuTe's layout")
        bits = 32 if "_TF32_" in self.name else 16 if "_F16BF16_" in self.name else 8
        M, _, K = self.shape_mnk
        return TmemLayout.accumulator(M, K, value_bits=bits, storage_bits=bits, mode="noninterleaved")

    def __str__(self) -> str:
        return f"{self.name} {self.shape_mnk}: A {self.a}, B {self.b}, C {self.c}"


@dataclass(frozen=True)
class CopyAtom:
    """A copy atom: its CUTLASS name, the element width ``bits``, and the TV layouts of its
    source and destination (over the same 1-D or 2-D tile, colexicographic).  ``ref`` names the
    side that is CUTLASS's ``RefLayout``.  For ``tcgen05`` accesses the tile is ``(columns, data
    paths)`` of one warp's lane quarter; :meth:`over_warps` gives the register side over a
    warpgroup's ``(data paths, columns)`` tile, as Gluon's register layouts for tensor memory
    read it.
    """

    name: str
    bits: int
    src: TVLayout
    dst: TVLayout
    ref: str

    @property
    def registers(self) -> TVLayout:
        """The register side: ``dst`` of a load (``ldmatrix``, ``tcgen05.ld``), ``src`` of a store."""
        return self.src if ("STSM" in self.name or "_STORE_" in self.name) else self.dst

    def over_warps(self, num_warps: int = 4) -> TVLayout:
        """The register side of a ``tcgen05.ld/st`` atom executed by ``num_warps`` (1, 2 or 4)
        warps, warp ``w`` in lane quarter ``w`` (data paths ``32w ..``), over the tile
        ``(32 * num_warps, columns)``: thread mode ``(32 lanes, warps)``.  A 16-data-path access
        is issued twice to fill its quarter: the last value bit moves to data path + 16, as
        Triton lays out its ``16x*`` tensor-memory accesses.

            >>> print(copy_atom("SM100_TMEM_LOAD_32dp32b4x").over_warps(4))
            (128,4):(1,128) -> (128,4)
        """
        if "TMEM" not in self.name:
            raise UnsupportedError(f"over_warps: {self.name} is not a tcgen05 (tensor memory) access")
        nw = as_int(num_warps, "over_warps: num_warps")
        if nw not in (1, 2, 4):
            raise SizeError(f"over_warps: a warpgroup's warps each own one lane quarter: num_warps is 1, 2 or 4, got {nw}")
        L = self.registers.to_linear()
        cols, dps = L.out_dim_size("dim0"), L.out_dim_size("dim1")
        cbits = cols.bit_length() - 1
        rows = 32 * nw
        rbits = rows.bit_length() - 1

        def swap(f: int) -> int:  # (col, dp) flat -> (dp, col) flat
            return (f >> cbits) | ((f & (cols - 1)) << rbits)

        reg = [swap(f) for f in L.flat_bases("register")]
        if dps == 16:
            reg.append(16)
        warp = [32 << i for i in range(rbits - 5)]
        flat = {"register": reg, "lane": [swap(f) for f in L.flat_bases("lane")], "warp": warp}
        return TVLayout.from_linear(LinearLayout.from_flat(flat, [("dim0", rows), ("dim1", cols)]))

    def __str__(self) -> str:
        return f"{self.name} ({self.bits}-bit): src {self.src}, dst {self.dst}"


@lru_cache(maxsize=512)
def _mma(name: str) -> MMAAtom:
    shape, a, b, c = mma_atom_layouts(name)
    M, N, K = shape
    return MMAAtom(name, shape, TVLayout(parse_layout(a), (M, K)), TVLayout(parse_layout(b), (N, K)),
                   TVLayout(parse_layout(c), (M, N)))


def mma_atom(name: str) -> MMAAtom:
    """The MMA atom named ``name`` as CUTLASS names it (see :func:`atoms`); a
    :class:`~linlayout.errors.LayoutError` with the closest names for an unknown one.

        >>> a = mma_atom("SM80_16x8x16_F32BF16BF16F32_TN")
        >>> a.a(0, 0), a.a(0, 7), a.b(5, 1)
        ((0, 0), (8, 9), (1, 3))
    """
    if not isinstance(name, str):
        raise LayoutError(f"mma_atom: a name is a string, got {type(name).__name__}")
    try:
        return _mma(name)
    except KeyError:
        raise _unknown("MMA atom", name, mma_atom_names(), "mma") from None


@lru_cache(maxsize=512)
def _copy(name: str, bits: Optional[int]) -> CopyAtom:
    ref, native, tile, src, dst = copy_atom_bits(name)
    b = native if bits is None else bits
    if tile[0] % b:
        raise SizeError(f"copy_atom: {name} moves {tile[0]} bits per row of its tile, not a multiple of {b}-bit elements")
    etile = (tile[0] // b,) + tuple(tile[1:])
    return CopyAtom(name, b, TVLayout(recast_bits(src, b), etile), TVLayout(recast_bits(dst, b), etile), ref)


def copy_atom(name: str, bits: Optional[int] = None) -> CopyAtom:
    """The copy atom named ``name`` (CUTLASS's name), its layouts in ``bits``-bit elements
    (default: the width its name says; CUTLASS's ``Copy_Atom<Op, T>`` with ``sizeof_bits<T> ==
    bits``).

        >>> c = copy_atom("SM100_TMEM_LOAD_16dp256b1x")
        >>> str(c.dst)
        '((4,8),(2,2)):((2,8),(1,64)) -> (8,16)'
        >>> copy_atom("SM75_U32x4_LDSM_N", bits=3)
        Traceback (most recent call last):
        ...
        linlayout.errors.SizeError: copy_atom: bits must be a power of two between 1 and 128, got 3
    """
    if not isinstance(name, str):
        raise LayoutError(f"copy_atom: a name is a string, got {type(name).__name__}")
    if bits is not None:
        bits = as_int(bits, "copy_atom: bits")
        if bits < 1 or bits > 128 or bits & (bits - 1):
            raise SizeError(f"copy_atom: bits must be a power of two between 1 and 128, got {bits}")
    try:
        return _copy(name, bits)
    except KeyError:
        raise _unknown("copy atom", name, copy_atom_names(), "copy") from None


def smem_atom(name: str, bits: int) -> ComposedLayout:
    """The GMMA / UMMA shared-memory layout atom ``name`` (CuTe's name, e.g.
    ``"GMMA::Layout_K_SW128_Atom"``) for ``bits``-bit elements, as ``Swizzle o 0 o layout`` on
    element offsets (see :mod:`.atoms_smem`).

        >>> print(smem_atom("GMMA::Layout_MN_SW64_Atom", 8))
        S<2,4,3> o 0 o (64,8):(1,64)
        >>> smem_atom("GMMA::Layout_K_SW256_Atom", 16)
        Traceback (most recent call last):
        ...
        linlayout.errors.LayoutError: unknown shared-memory atom 'GMMA::Layout_K_SW256_Atom'; did you mean GMMA::Layout_K_SW64_Atom or GMMA::Layout_K_SW32_Atom or GMMA::Layout_K_SW128_Atom? (atoms('smem') lists them)
    """
    if not isinstance(name, str):
        raise LayoutError(f"smem_atom: a name is a string, got {type(name).__name__}")
    b = as_int(bits, "smem_atom: bits")
    if b not in (4, 8, 16, 32, 64):
        raise SizeError(f"smem_atom: the MMA shared-memory atoms hold 4-, 8-, 16-, 32- or 64-bit elements, got {b}")
    try:
        return _smem_layout_atom(name, b)
    except KeyError:
        raise _unknown("shared-memory atom", name, smem_atom_names(), "smem") from None


def atoms(kind: Optional[str] = None) -> list[str]:
    """Every atom name: ``kind`` ``"mma"``, ``"copy"``, ``"smem"`` or ``None`` (all, in that order).

        >>> len(atoms("mma")), len(atoms("copy")), len(atoms("smem")), "SM90_U16x8_STSM_T" in atoms()
        (1693, 86, 17, True)
    """
    if kind is not None and not isinstance(kind, str):
        raise LayoutError(f"atoms: kind is 'mma', 'copy', 'smem' or None, got {type(kind).__name__} {kind!r:.80}")
    if kind is None:
        return mma_atom_names() + copy_atom_names() + smem_atom_names()
    if kind == "mma":
        return mma_atom_names()
    if kind == "copy":
        return copy_atom_names()
    if kind == "smem":
        return smem_atom_names()
    raise LayoutError(f"atoms: kind is 'mma', 'copy', 'smem' or None, got {kind!r}")
