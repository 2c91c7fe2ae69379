"""The MMA atoms' thread-value layouts, as CUTLASS's ``MMA_Traits`` state them.

Each atom is ``(shape_mnk, a, b, c)`` with CuTe layouts as text: ``a`` maps ``(thread, value)`` to
the colexicographic index of the ``(M, K)`` tile, ``b`` of the ``(N, K)`` tile, ``c`` of the
``(M, N)`` tile.  Sources (CUTLASS ``include/cute/atom/``):

* ``mma_traits_sm80.hpp`` — ``mma.sync``: ``SM80_16x8x8_*``, ``SM80_16x8x16_*`` (f16/bf16),
  ``SM80_16x8x4/8_F32TF32TF32F32_TN``, ``SM80_8x8x4_F64F64F64F64_TN``, the 8-bit
  ``SM80_{8x8x16,16x8x16,16x8x32}_S32{S8,U8}{S8,U8}S32_TN[_SATURATE]`` and the 4-bit
  ``SM80_{8x8x32,16x8x32,16x8x64}_S32{S4,U4}{S4,U4}S32_TN[_SATURATE]``;
* ``mma_traits_sm90_gmma.hpp`` / ``_ext.hpp`` — ``wgmma``: ``SM90_64xNxK_<types>_{SS,RS}[_TN]``
  for f16/bf16 (K 16), tf32 (K 8), fp8 (K 32, ``E4M3``/``E5M2``) with N = 8..256 in steps of 8,
  and 8-bit integers (K 32, ``[_SATURATE]``) with N = 8, 16, 24 and multiples of 16; C is
  ``CLayout_64xN``, a register-sourced A is ``ALayout_64x{8,16,32}`` (32-, 16-, 8-bit), a
  shared-memory operand is ``ABLayout<MN, K>`` (every thread sees the whole tile, stride 0);
* ``mma_traits_sm100.hpp`` — ``tcgen05.mma``: ``SM100_MMA_{F16BF16,TF32,S8,F8F6F4}_{SS,TS}`` with
  one CTA (``cta_group::1``), named here ``..._{SS,TS}_<M>x<N>x<K>``: one issuing "thread" holds
  the whole tile, ``(1, (M, K)):(0, (1, M))`` and likewise for B and C; and the CTA pair
  (``cta_group::2``) ``SM100_MMA_{F16BF16,TF32,S8,F8F6F4}_2x1SM_{SS,TS}_<M>x<N>x<K>``: two
  "threads", the peer CTAs, each holding half the rows, ``(2, (M/2, K)):(M/2, (1, M))`` for A,
  ``(2, (N/2, K)):(N/2, (1, N))`` for B, ``(2, (M/2, N)):(M/2, (1, M))`` for C.  The accumulator's
  place in tensor memory is :meth:`~converters.cute.atoms.MMAAtom.tmem_c` (``tmem_frg_1sm`` /
  ``tmem_frg_2sm``).

    >>> shape, a, b, c = mma_atom_layouts("SM80_16x8x16_F32F16F16F32_TN")
    >>> shape, c
    ((16, 8, 16), '((4,8),(2,2)):((32,1),(16,8))')
    >>> mma_atom_layouts("SM90_64x24x16_F32BF16BF16_RS")[3]
    '((4,8,4),(2,2,3)):((128,1,16),(64,8,512))'
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["mma_atom_layouts", "mma_atom_names"]

# mma_traits_sm80.hpp, the anonymous-namespace aliases
_SM80_8x4 = "((4,8),1):((8,1),0)"
_SM80_8x8_ROW = "((4,8),2):((16,1),8)"
_SM80_8x16_ROW = "((4,8),4):((32,1),8)"
_SM80_16x8_ROW = "((4,8),(2,2)):((32,1),(16,8))"

_INT8 = [f"{a}{b}" for a in ("S8", "U8") for b in ("S8", "U8")]
_INT4 = [f"{a}{b}" for a in ("S4", "U4") for b in ("S4", "U4")]


def _sm80() -> Iterator[tuple[str, tuple[tuple[int, int, int], str, str, str]]]:
    for t in ("F16F16F16F16", "F32F16F16F32", "F32BF16BF16F32"):
        yield f"SM80_16x8x8_{t}_TN", ((16, 8, 8), _SM80_16x8_ROW, _SM80_8x8_ROW, _SM80_16x8_ROW)
        yield f"SM80_16x8x16_{t}_TN", ((16, 8, 16), "((4,8),(2,2,2)):((32,1),(16,8,128))",
                                       "((4,8),(2,2)):((16,1),(8,64))", _SM80_16x8_ROW)
    yield "SM80_16x8x4_F32TF32TF32F32_TN", ((16, 8, 4), "((4,8),2):((16,1),8)", _SM80_8x4, _SM80_16x8_ROW)
    yield "SM80_16x8x8_F32TF32TF32F32_TN", ((16, 8, 8), "((4,8),(2,2)):((16,1),(8,64))",
                                            "((4,8),2):((8,1),32)", _SM80_16x8_ROW)
    yield "SM80_8x8x4_F64F64F64F64_TN", ((8, 8, 4), _SM80_8x4, _SM80_8x4, _SM80_8x8_ROW)
    for sat in ("", "_SATURATE"):
        for ab in _INT8:
            yield f"SM80_8x8x16_S32{ab}S32_TN{sat}", ((8, 8, 16), _SM80_8x16_ROW, _SM80_8x16_ROW, _SM80_8x8_ROW)
            yield f"SM80_16x8x16_S32{ab}S32_TN{sat}", ((16, 8, 16), "((4,8),(4,2)):((64,1),(16,8))",
                                                        _SM80_8x16_ROW, _SM80_16x8_ROW)
            yield f"SM80_16x8x32_S32{ab}S32_TN{sat}", ((16, 8, 32), "((4,8),(4,2,2)):((64,1),(16,8,256))",
                                                        "((4,8),(4,2)):((32,1),(8,128))", _SM80_16x8_ROW)
        for ab in _INT4:
            yield f"SM80_8x8x32_S32{ab}S32_TN{sat}", ((8, 8, 32), "((4,8),(8)):((64,1),(8))",
                                                       "((4,8),(8)):((64,1),(8))", _SM80_8x8_ROW)
            yield f"SM80_16x8x32_S32{ab}S32_TN{sat}", ((16, 8, 32), "((4,8),(8,2)):((128,1),(16,8))",
                                                        "((4,8),(8)):((64,1),(8))", _SM80_16x8_ROW)
            yield f"SM80_16x8x64_S32{ab}S32_TN{sat}", ((16, 8, 64), "((4,8),(8,2,2)):((128,1),(16,8,512))",
                                                        "((4,8),(8,2)):((64,1),(8,256))", _SM80_16x8_ROW)


# mma_traits_sm90_gmma.hpp: the register-sourced A layouts by element width (K = 256 bits / width)
_GMMA_A = {
    8: "((4,8,4),(2,2)):((64,1,16),(8,256))",  # ALayout_64x8, 32-bit values
    16: "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))",  # ALayout_64x16, 16-bit values
    32: "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))",  # ALayout_64x32, 8-bit values
}


def _gmma_c(n: int) -> str:
    """``CLayout_64xN``: the 64 x N accumulator over a warpgroup (128 threads)."""
    return f"((4,8,4),(2,2,{n // 8})):((128,1,16),(64,8,512))"


def _ab(mn: int, k: int) -> str:
    """``ABLayout<MN, K>``: a shared-memory operand, the whole tile seen by each of 128 threads."""
    return f"(128,({mn},{k})):(0,(1,{mn}))"


def _sm90() -> Iterator[tuple[str, tuple[tuple[int, int, int], str, str, str]]]:
    fp8 = [f"{acc}{a}{b}" for acc in ("F16", "F32") for a in ("E4M3", "E5M2") for b in ("E4M3", "E5M2")]
    families = [(16, t, "", [""]) for t in ("F16F16F16", "F32F16F16", "F32BF16BF16")]
    families.append((8, "F32TF32TF32", "_TN", [""]))
    families += [(32, t, "_TN", [""]) for t in fp8]
    families += [(32, f"S32{ab}", "_TN", ["", "_SATURATE"]) for ab in _INT8]
    for k, types, tn, sats in families:
        ns = range(8, 257, 8) if not types.startswith("S32") else [8, 16, 24, *range(32, 257, 16)]
        for n in ns:
            for sat in sats:
                base = f"SM90_64x{n}x{k}_{types}"
                c = _gmma_c(n)
                yield f"{base}_SS{tn}{sat}", ((64, n, k), _ab(64, k), _ab(n, k), c)
                yield f"{base}_RS{tn}{sat}", ((64, n, k), _GMMA_A[k], _ab(n, k), c)


def _sm100() -> Iterator[tuple[str, tuple[tuple[int, int, int], str, str, str]]]:
    # mma_sm100_umma.hpp's static_asserts: M = 64 or 128; N a multiple of 8 up to 256, of 16 for a
    # tensor-memory A with M = 128; 8-bit integers take N = 8 or a multiple of 16
    for fam, k in (("F16BF16", 16), ("TF32", 8), ("S8", 32), ("F8F6F4", 32)):
        for m in (64, 128):
            for src in ("SS", "TS"):
                if fam == "S8":
                    ns = [8, *range(16, 257, 16)]
                elif src == "TS" and m == 128:
                    ns = list(range(16, 257, 16))
                else:
                    ns = list(range(8, 257, 8))
                for n in ns:
                    yield (f"SM100_MMA_{fam}_{src}_{m}x{n}x{k}",
                           ((m, n, k), f"(1,({m},{k})):(0,(1,{m}))", f"(1,({n},{k})):(0,(1,{n}))",
                            f"(1,({m},{n})):(0,(1,{m}))"))


def _sm100_2sm() -> Iterator[tuple[str, tuple[tuple[int, int, int], str, str, str]]]:
    # the CTA pair (cta_group::2, ``..._2x1SM_...``): ThrID = Layout<_2>, each "thread" one CTA
    # (peer) holding M/2 rows of A and C and N/2 rows of B; M = 128 or 256; N a multiple of 16
    # (f16/bf16/tf32/fp8 from shared memory, B K-major) or of 32 (a tensor-memory A, 8-bit integers)
    for fam, k in (("F16BF16", 16), ("TF32", 8), ("S8", 32), ("F8F6F4", 32)):
        for m in (128, 256):
            for src in ("SS", "TS"):
                step = 32 if (src == "TS" or fam == "S8") else 16
                for n in range(step, 257, step):
                    yield (f"SM100_MMA_{fam}_2x1SM_{src}_{m}x{n}x{k}",
                           ((m, n, k), f"(2,({m // 2},{k})):({m // 2},(1,{m}))", f"(2,({n // 2},{k})):({n // 2},(1,{n}))",
                            f"(2,({m // 2},{n})):({m // 2},(1,{m}))"))


_TABLE: dict[str, tuple[tuple[int, int, int], str, str, str]] | None = None


def _table() -> dict[str, tuple[tuple[int, int, int], str, str, str]]:
    global _TABLE
    if _TABLE is None:
        t: dict = {}
        for gen in (_sm80, _sm90, _sm100, _sm100_2sm):
            for name, entry in gen():
                t[name] = entry
        _TABLE = t
    return _TABLE


def mma_atom_names() -> list[str]:
    """Every MMA atom name (SM80, then SM90, then SM100).

        >>> names = mma_atom_names()
        >>> "SM90_64x256x16_F32F16F16_RS" in names, "SM100_MMA_F16BF16_2x1SM_SS_256x256x16" in names
        (True, True)
    """
    return list(_table())


def mma_atom_layouts(name: str) -> tuple[tuple[int, int, int], str, str, str]:
    """``(shape_mnk, a, b, c)`` of an MMA atom; a :class:`KeyError` for an unknown name."""
    return _table()[name]
