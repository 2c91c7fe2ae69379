"""AMD layouts: ``AMDMFMALayout`` (CDNA matrix cores, 64-lane wavefronts) and ``AMDWMMALayout``
(RDNA3 / RDNA4 / gfx1250 matrix cores, 32-lane wavefronts).

    >>> m = AMDMFMALayout(3, [32, 32, 8], False, [2, 1])
    >>> L = m.to_linear([128, 32])
    >>> L.bases["lane"]
    ((0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (4, 0))
    >>> L.bases["register"], L.bases["warp"]
    (((1, 0), (2, 0), (8, 0), (16, 0), (64, 0)), ((32, 0),))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from linlayout import gf2
from linlayout.checks import is_pow2, span_sizes
from linlayout.errors import BasisError, DimensionError, LayoutError, SizeError, UnsupportedError
from linlayout.linear import LinearLayout

from ._build import Builder, check_shape, pack
from .base import cached_to_linear, format_value
from .distributed import DistributedLayout, dot_operand_order, matrix_order
from .fields import as_bool, as_int, bases_tuple, check_cga, int_tuple, set_field, uint32_tuple

__all__ = ["AMDMFMALayout", "AMDWMMALayout", "WMMA_INSTR_SHAPES"]


@dataclass(frozen=True, repr=False)
class AMDMFMALayout(DistributedLayout):
    """Gluon's ``AMDMFMALayout(version, instr_shape, transposed, warps_per_cta, element_bitwidth,
    tiles_per_warp, cga_layout)``: the accumulator of an MFMA instruction (32x32 or 16x16 output
    tiles per wavefront of 64 lanes).  ``transposed`` swaps the roles of M and N inside a tile.

        >>> AMDMFMALayout(3, [16, 16, 16], True, [1, 1]).to_linear([16, 16]).bases["lane"]
        ((1, 0), (2, 0), (4, 0), (8, 0), (0, 4), (0, 8))
        >>> AMDMFMALayout(5, [16, 16, 16], True, [1, 1])
        Traceback (most recent call last):
        ...
        linlayout.errors.LayoutError: AMDMFMALayout: version must be in 1..4, got 5
    """

    family = "AMDMFMALayout"
    version: int
    instr_shape: Sequence[int]
    transposed: bool
    warps_per_cta: Sequence[int]
    element_bitwidth: int | None = None
    tiles_per_warp: Sequence[int] | None = None
    cga_layout: Sequence[Sequence[int]] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        who = "AMDMFMALayout"
        v = as_int(self.version, who, "version")
        if not 1 <= v <= 4:
            raise LayoutError(f"{who}: version must be in 1..4, got {v}")
        instr = int_tuple(self.instr_shape, who, "instr_shape")
        if len(instr) != 3:
            raise DimensionError(f"{who}: instr_shape {list(instr)} must be [M, N, K]")
        if instr[:2] not in ((32, 32), (16, 16), (64, 4), (4, 64)):
            raise LayoutError(f"{who}: invalid intrinsic shape {list(instr)}; M x N must be 32x32, 16x16, 64x4 or 4x64")
        wpc = int_tuple(self.warps_per_cta, who, "warps_per_cta", pow2=True)
        rank = len(wpc)
        if rank not in (2, 3):
            raise DimensionError(f"{who}: warps_per_cta {list(wpc)} must have rank 2 or 3")
        eb = 32 if self.element_bitwidth is None else as_int(self.element_bitwidth, who, "element_bitwidth")
        if eb not in (32, 64):
            raise LayoutError(f"{who}: element_bitwidth must be 32 or 64, got {eb}")
        # any length (which entries are read is for the use to say: tiles_along); an empty list is
        # Triton's default, as None
        tpw = None if self.tiles_per_warp is None else uint32_tuple(self.tiles_per_warp, who, "tiles_per_warp") or None
        cga = bases_tuple(self.cga_layout, who, "cga_layout", rank)
        check_cga(cga, len(cga[0]) if cga else None, who)
        set_field(self, "version", v)
        set_field(self, "instr_shape", instr)
        set_field(self, "transposed", as_bool(self.transposed, who, "transposed"))
        set_field(self, "warps_per_cta", wpc)
        set_field(self, "tiles_per_warp", tpw)
        set_field(self, "cga_layout", cga)

    @property
    def rank(self) -> int:
        return len(self.warps_per_cta)

    @property
    def warp_size(self) -> int:
        return 64

    def tiles_along(self, dim: int, who: str) -> int:
        """The number of tiles per warp along tensor dim ``dim``, read as Triton 3.9 reads
        ``tiles_per_warp``: entry ``dim`` of the list whatever its length (a list without that
        entry is refused, as Triton aborts on it; an empty list or None means one tile), 0 counting
        as one tile (Triton's identity of size 0 adds nothing).  The accumulator reads the entries
        of M and N (``rank - 2`` and ``rank - 1``), a dot operand only its non-K dim's.

            >>> m = AMDMFMALayout(3, [32, 32, 8], True, [4, 1], tiles_per_warp=[2, 1, 1])
            >>> m.tiles_along(0, "example"), m.tiles_along(1, "example")
            (2, 1)
            >>> AMDMFMALayout(3, [32, 32, 8], True, [4, 1], tiles_per_warp=[2]).tiles_along(1, "example")
            Traceback (most recent call last):
            ...
            linlayout.errors.DimensionError: example: tiles_per_warp [2] has no entry 1 (for dim 1 of the rank-2 layout); Triton reads entry rank-2 for M and rank-1 for N, and aborts on a shorter list
        """
        tpw = self.tiles_per_warp
        if not tpw:
            return 1
        if dim >= len(tpw):
            raise DimensionError(
                f"{who}: tiles_per_warp {list(tpw)} has no entry {dim} (for dim {dim} of the rank-{self.rank} "
                f"layout); Triton reads entry rank-2 for M and rank-1 for N, and aborts on a shorter list")
        t = tpw[dim]
        if t == 0:
            return 1
        if not is_pow2(t):
            raise SizeError(f"{who}: tiles_per_warp[{dim}] = {t} is not a power of two (Triton aborts on it)")
        return t

    def check_dot_operand(self, operand_index: int, k_width: int, who: str) -> None:
        operand_index, k_width = self.operand_and_k_width(operand_index, k_width, who)
        if not is_pow2(k_width):
            raise SizeError(f"{who}: k_width {k_width} must be a power of two for an MFMA parent")

    def dot_operand_builder(self, operand_index: int, k_width: int, shape: list[int],
                            cga: Sequence[Sequence[int]]) -> Builder:
        """An MFMA operand (Triton 3.9's ``mfmaDotToLinearLayout``): ``k_width`` registers along K,
        lanes along the non-K dim (the instruction's M or N) then K, repeated along K over the
        whole tensor and along the non-K dim for ``tiles_per_warp``; warps as the parent's."""
        operand_index, k_width, shape, cga = self.dot_builder_args(operand_index, k_width, shape, cga, type(self).__name__)
        p = self
        rank = self.rank
        op = operand_index
        shp = shape
        k_dim = rank - 1 if op == 0 else rank - 2
        nonk_dim = rank - 2 if op == 0 else rank - 1
        m, n = p.instr_shape[0], p.instr_shape[1]
        nonk = m if op == 0 else n
        kw = k_width
        b = Builder(rank)
        for d in dot_operand_order(op, rank):  # K first: the order the tensor is covered in
            b.touch("register", d)
        b.touch("lane")
        b.identity("register", kw, k_dim)
        b.identity("lane", nonk, nonk_dim)
        b.identity("lane", 64 // nonk, k_dim)
        k_tile = 64 // nonk * kw
        if (m, n, op) in ((64, 4, 0), (4, 64, 1)):  # the 64x64 operand of a 64x4 / 4x64 MFMA
            b.identity("register", 16, k_dim)
            k_tile *= 16
        if shp[k_dim] > k_tile:
            b.identity("register", shp[k_dim] // k_tile, k_dim)
        b.identity("register", self.tiles_along(nonk_dim, f"DotOperandLayout({op}, AMDMFMALayout)"), nonk_dim)
        b.identity_nd("warp", p.warps_per_cta, matrix_order(rank, True))
        b.combine_cga(p.cga_layout, shp)
        return b

    def _builder(self, shape: Sequence[int]) -> Builder:
        """As Triton 3.9: the output tile of one instruction (``height`` = 4 registers of 32-bit
        results, 1 of 64-bit, along M, lanes along N then M, repeated along M to fill the tile;
        transposed swaps M and N), then registers for ``tiles_per_warp`` and warps along N,
        registers over the *whole tensor's* N (so a CGA split of N leaves broadcast registers),
        then M's tiles per warp and warps, and finally the CGA."""
        shp = check_shape(shape, self.rank, "AMDMFMALayout")
        rank = self.rank
        order = matrix_order(rank, True)
        n_dim, m_dim = order[0], order[1]
        m, n = self.instr_shape[0], self.instr_shape[1]
        height = 1 if self.element_bitwidth == 64 else 4
        tiles = m * n // (64 * height)
        b = Builder(rank)
        for d in order:
            b.touch("register", d)
        b.touch("lane")
        along, across = (n_dim, m_dim) if self.transposed else (m_dim, n_dim)  # registers along, lanes first across
        lanes_across = m if self.transposed else n
        b.identity("register", height, along)
        b.identity("lane", lanes_across, across)
        b.identity("lane", 64 // lanes_across, along)
        if tiles > 1:
            b.identity("register", tiles, along)
        who = "AMDMFMALayout"
        tiles_n, tiles_m = self.tiles_along(n_dim, who), self.tiles_along(m_dim, who)
        wpc = self.warps_per_cta
        # Triton divides the tensor's N by this 32-bit product (0 tiles, or a product that
        # wraps to 0, kill the process with a division by zero)
        per_cta_n = n * wpc[n_dim] * (self.tiles_per_warp[n_dim] if self.tiles_per_warp else 1)
        if per_cta_n % (1 << 32) == 0:
            raise SizeError(
                f"{who}: tiles_per_warp {list(self.tiles_per_warp or ())} gives {per_cta_n} columns of N per "
                f"CTA tile (instruction N {n} x warps {wpc[n_dim]} x tiles); Triton divides by it as a "
                f"32-bit number and needs it non-zero: use a power of two from 1 for the N entry (index {n_dim})")
        b.touch("warp")
        b.identity("register", tiles_n, n_dim)
        b.identity("warp", wpc[n_dim], n_dim)
        reps_n = shp[n_dim] // per_cta_n
        if reps_n > 1:
            b.identity("register", reps_n, n_dim)
        b.identity("register", tiles_m, m_dim)
        b.identity("warp", wpc[m_dim], m_dim)
        if rank == 3:
            b.identity("warp", wpc[0], 0)
        b.combine_cga(self.cga_layout, shp)
        return b


# ============================================================================ AMDWMMALayout
#: The instruction shapes ``[M, N, K]`` Triton 3.9 accepts for each WMMA version.
WMMA_INSTR_SHAPES: dict[int, tuple[tuple[int, int, int], ...]] = {
    1: ((16, 16, 16),),
    2: ((16, 16, 16), (16, 16, 32)),
    3: ((16, 16, 4), (16, 16, 32), (16, 16, 64), (16, 16, 128), (32, 16, 64), (32, 16, 128)),
}

# One instruction's accumulator tile, as (M, N) pairs: register bases, lane bases, (M, N) extent.
# RDNA3 (v1) interleaves the two half-waves along M (lane 16 is row 1, registers step by 2 rows);
# RDNA4 / gfx1250 (v2, v3) give each lane 8 consecutive rows, the upper half-wave rows 8..15.
# gfx1250's 32x16 tile adds one register bit for rows 16..31.
_WMMA_LANES = ((0, 1), (0, 2), (0, 4), (0, 8), (8, 0))
_WMMA_TILES = {
    "v1": (((2, 0), (4, 0), (8, 0)), ((0, 1), (0, 2), (0, 4), (0, 8), (1, 0)), (16, 16)),
    "16x16": (((1, 0), (2, 0), (4, 0)), _WMMA_LANES, (16, 16)),
    "32x16": (((1, 0), (2, 0), (4, 0), (16, 0)), _WMMA_LANES, (32, 16)),
}


def _reaches_all(vecs: Sequence[Sequence[int]], sizes: Sequence[int]) -> bool:
    """Whether the GF(2) span of ``vecs`` is every point of ``sizes`` (a surjective layout)."""
    shifts, acc = [], 0
    for s in sizes:
        shifts.append(acc)
        acc += s.bit_length() - 1
    flat = [sum(x << sh for x, sh in zip(v, shifts)) for v in vecs]
    return gf2.rank(flat) == acc


def _single_bit(v: Sequence[int]) -> bool:
    nz = [x for x in v if x]
    return len(nz) == 1 and is_pow2(nz[0])


def _require_permutation(
    bases: dict[str, list[list[int]]], shape: list[int], who: str, rule: str, origin: Callable[[str, int], str]
) -> None:
    """A :class:`BasisError` unless the non-zero ``bases`` are distinct powers of two on one dim
    each, covering every address bit of ``shape`` (what Triton's linear encoding requires);
    ``origin(in_dim, i)`` says where a basis came from, ``rule`` what Triton asks."""
    seen: dict[tuple[int, ...], str] = {}
    for in_dim, vecs in bases.items():
        for i, v in enumerate(vecs):
            if not any(v):
                continue
            name = f"{in_dim} basis {i}"
            if not _single_bit(v):
                raise BasisError(f"{who}: on shape {shape}, {name} = {v}{origin(in_dim, i)} is not a power of two on one dim; {rule}")
            t = tuple(v)
            if t in seen:
                raise BasisError(f"{who}: on shape {shape}, {name} = {v}{origin(in_dim, i)} repeats {seen[t]}; {rule}")
            seen[t] = name
    total = sum(s.bit_length() - 1 for s in shape)
    if len(seen) != total:
        raise BasisError(
            f"{who}: on shape {shape}, the bases left after the cut reach {len(seen)} of the {total} "
            f"address bits; {rule} and to cover the tensor"
        )


@dataclass(frozen=True, repr=False)
class AMDWMMALayout(DistributedLayout):
    """Gluon's ``AMDWMMALayout(version, transposed, warp_bases, reg_bases, instr_shape, cga_layout,
    rank)``: the accumulator of a WMMA instruction (wavefronts of 32 lanes).

    One instruction covers a 16x16 tile of ``(M, N) = (dim[-2], dim[-1])`` (32x16 for gfx1250's
    ``[32, 16, K]`` shapes); ``transposed`` swaps the roles of M and N inside the tile.  Version 1
    (RDNA3) splits M between the two half-waves row by row; versions 2 (RDNA4) and 3 (gfx1250) give
    each lane 8 consecutive rows.  ``reg_bases`` and ``warp_bases`` place further tiles in
    registers and warps, in units of the tile (a zero vector repeats the same tile); a rank-3
    layout has a leading batch dim of tile extent 1.  ``cga_layout`` places the CTAs of a cluster.
    A tensor larger than the layout repeats in registers (dim[-1] first); a smaller one zeroes the
    bases that fall outside it.  Defaults are Gluon's: no ``reg_bases``, ``instr_shape`` ``[16, 16,
    16]``, rank 2.

    Four warps stacked along N on RDNA4, over a 32x64 tensor (two tiles of M in registers):

        >>> w = AMDWMMALayout(2, False, [[0, 1], [0, 2]])
        >>> L = w.to_linear([32, 64])
        >>> L.bases["register"]
        ((1, 0), (2, 0), (4, 0), (16, 0))
        >>> L.bases["lane"]
        ((0, 1), (0, 2), (0, 4), (0, 8), (8, 0))
        >>> L.bases["warp"]
        ((0, 16), (0, 32))
        >>> AMDWMMALayout(1, True, []).to_linear([16, 16]).bases["lane"]
        ((1, 0), (2, 0), (4, 0), (8, 0), (0, 1))
        >>> AMDWMMALayout(3, False, [[0, 1]])
        Traceback (most recent call last):
        ...
        linlayout.errors.UnsupportedError: AMDWMMALayout: instr_shape [16, 16, 16] is not a WMMA v3 instruction; version 3 accepts [16, 16, 4], [16, 16, 32], [16, 16, 64], [16, 16, 128], [32, 16, 64], [32, 16, 128]
    """

    family = "AMDWMMALayout"
    version: int
    transposed: bool
    warp_bases: Sequence[Sequence[int]]
    reg_bases: Sequence[Sequence[int]] = ()
    instr_shape: Sequence[int] = (16, 16, 16)
    cga_layout: Sequence[Sequence[int]] = ()
    rank: int = 2  # Gluon's field (the base class has it as a property)

    def __post_init__(self) -> None:
        who = "AMDWMMALayout"
        v = as_int(self.version, who, "version")
        if not 1 <= v <= 3:
            raise LayoutError(f"{who}: version must be in 1..3 (1: RDNA3, 2: RDNA4, 3: gfx1250), got {v}")
        transposed = as_bool(self.transposed, who, "transposed")
        # Gluon's None for an optional field means its default
        given: Any = self.rank
        rank = 2 if given is None else as_int(given, who, "rank")
        if rank not in (2, 3):
            raise DimensionError(f"{who}: rank must be 2 or 3, got {rank} (Triton aborts on other ranks)")
        for name in ("warp_bases", "reg_bases", "cga_layout"):
            vecs = getattr(self, name)
            if vecs is None and name != "warp_bases":
                vecs = ()
            if isinstance(vecs, Sequence) and not isinstance(vecs, (str, bytes)):
                for i, b in enumerate(vecs):
                    if isinstance(b, Sequence) and not isinstance(b, (str, bytes)) and len(b) != rank:
                        hint = f"; pass rank={len(b)}" if rank == 2 and len(b) == 3 else ""
                        raise BasisError(
                            f"{who}: {name}[{i}] = {list(b)} has {len(b)} entries, expected {rank} (the rank){hint}"
                        )
            set_field(self, name, bases_tuple(vecs, who, name, rank))
        given = self.instr_shape
        instr = (16, 16, 16) if given is None else int_tuple(given, who, "instr_shape")
        if len(instr) != 3:
            raise DimensionError(f"{who}: instr_shape {list(instr)} must be [M, N, K]")
        if instr not in WMMA_INSTR_SHAPES[v]:
            ok = ", ".join(str(list(s)) for s in WMMA_INSTR_SHAPES[v])
            raise UnsupportedError(f"{who}: instr_shape {list(instr)} is not a WMMA v{v} instruction; version {v} accepts {ok}")
        # reg_bases and warp_bases together form a layout over tiles that must reach every tile it spans
        tiles = [*self.reg_bases, *self.warp_bases]
        if not _reaches_all(tiles, span_sizes(tiles, rank)):
            raise BasisError(
                f"{who}: reg_bases {[list(b) for b in self.reg_bases]} and warp_bases "
                f"{[list(b) for b in self.warp_bases]} (in tiles) do not reach every tile of the extent "
                f"{span_sizes(tiles, rank)} they span; use distinct powers of two on one dim each"
            )
        self._check_cga(who)
        set_field(self, "version", v)
        set_field(self, "transposed", transposed)
        set_field(self, "instr_shape", instr)
        set_field(self, "rank", rank)

    def _check_cga(self, who: str) -> None:
        cga = self.cga_layout
        check_cga(cga, len(cga[0]) if cga else None, who)

    @property
    def warp_size(self) -> int:
        """Threads per wavefront: 32 for WMMA.

            >>> AMDWMMALayout(2, False, []).warp_size
            32
        """
        return 32

    @property
    def num_warps(self) -> int:
        """Warps per CTA: two to the number of ``warp_bases``.

            >>> AMDWMMALayout(2, False, [[0, 1], [1, 0]]).num_warps
            4
        """
        return 1 << len(self.warp_bases)

    def tile(self) -> tuple[list[list[int]], list[list[int]], list[int]]:
        """One instruction's accumulator over the standard dims: (register bases, lane bases, extent).

            >>> AMDWMMALayout(3, True, [], instr_shape=[32, 16, 64]).tile()[2]
            [16, 32]
        """
        rank = self.rank
        key = "v1" if self.version == 1 else ("32x16" if self.instr_shape[0] == 32 else "16x16")
        reg, lane, ext = _WMMA_TILES[key]
        m, n = rank - 2, rank - 1
        if self.transposed:
            m, n = n, m

        def put(pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
            out = []
            for x, y in pairs:
                vec = [0] * rank
                vec[m], vec[n] = x, y
                out.append(vec)
            return out

        size = [1] * rank
        size[m], size[n] = ext
        return put(reg), put(lane), size

    def dot_k_widths(self) -> str:
        """The ``k_width`` values Triton 3.9 accepts for a dot operand of this layout, in words
        (v1: 8 or 16; v2: 4, 8 or 16; v3: any power of two)."""
        return {1: "8 or 16", 2: "4, 8 or 16"}.get(self.version, "a power of two")

    def check_dot_operand(self, operand_index: int, k_width: int, who: str) -> None:
        operand_index, k_width = self.operand_and_k_width(operand_index, k_width, who)
        if not self.accepts_dot_k_width(k_width):
            raise SizeError(f"{who}: k_width {k_width} is not accepted for a WMMA v{self.version} parent; "
                            f"Triton 3.9 takes {self.dot_k_widths()}")

    def accepts_dot_k_width(self, k_width: int) -> bool:
        """Whether a dot operand of this layout may have ``k_width`` (Triton's verifier).

            >>> AMDWMMALayout(1, False, []).accepts_dot_k_width(4), AMDWMMALayout(3, False, [], instr_shape=[16, 16, 32]).accepts_dot_k_width(1)
            (False, True)
        """
        if self.version == 1:
            return k_width in (8, 16)
        if self.version == 2:
            return k_width in (4, 8, 16)
        return is_pow2(k_width)

    def dot_operand_builder(self, operand_index: int, k_width: int, shape: list[int], cga: Sequence[Sequence[int]]) -> Builder:
        """The register layout of WMMA operand ``operand_index`` (0 = A, 1 = B) over ``shape``, as
        Triton 3.9 computes it (``DotOperandLayout`` on this parent calls it; ``cga`` is the CGA
        layout with the K dim zeroed).

        One instruction's operand: ``k_width`` registers along K, 16 lanes along the non-K dim
        (M for A, N for B), the other 16 lanes one step further along K (version 2/3) or a copy
        of the first 16 (version 1: the lanes repeat), registers along K up to the instruction's
        K, and a second 16 rows in registers for gfx1250's 32-row A.  The parent's ``reg_bases``
        and ``warp_bases`` (tiles) keep their non-K part: a register tile along K goes away, a
        warp along K holds the same operand (a zero basis).  A larger tensor repeats in
        registers, K first; a smaller one zeroes what falls outside it.  ``transposed`` plays no
        part.

            >>> w = AMDWMMALayout(2, False, [[0, 1], [1, 0]])
            >>> b = w.dot_operand_builder(0, 8, [64, 64], [])
            >>> L = b.build()
            >>> L.bases["lane"], L.bases["warp"]
            (((1, 0), (2, 0), (4, 0), (8, 0), (0, 8)), ((0, 0), (16, 0)))
        """
        operand_index, k_width, shape, cga = self.dot_builder_args(operand_index, k_width, shape, cga, type(self).__name__)
        rank = self.rank
        op = operand_index
        k_dim = rank - 1 if op == 0 else rank - 2
        nonk_dim = rank - 2 if op == 0 else rank - 1
        nonk = self.tile()[2][nonk_dim]  # the accumulator tile's extent there (transposed swaps M and N)
        k_instr = self.instr_shape[2]
        b = Builder(rank)
        for d in (k_dim, nonk_dim, *range(rank - 2)):  # the repetition order: K, non-K, batch
            b.touch("register", d)
        b.touch("lane")
        b.identity("register", k_width, k_dim)
        b.identity("lane", 16, nonk_dim)
        (b.zeros if self.version == 1 else b.identity)("lane", 2, k_dim)
        if k_instr >= 2 * k_width:  # else the instruction's K is covered already (Triton: identity1D(0), empty)
            b.identity("register", k_instr // (2 * k_width), k_dim)
        b.identity("register", nonk // 16, nonk_dim)
        # the parent's tiles, in units of the parent's tile along non-K (1 along the batch dim)
        unit = [1] * rank
        unit[nonk_dim] = nonk

        def project(vecs: Sequence[Sequence[int]]) -> list[list[int]]:
            return [[0 if d == k_dim else x * unit[d] for d, x in enumerate(v)] for v in vecs]

        regs = [v for v in project(self.reg_bases) if any(v)]
        warps = project(self.warp_bases)
        b.bases["register"].extend(regs)
        b.touch("warp")
        b.bases["warp"].extend(warps)
        # each tile basis doubles the extent of the dims it moves along (as a product of Triton's
        # one-basis layouts would; it differs from the span only for repeated or mixed bases)
        for d in range(rank):
            b.sizes[d] <<= sum(1 for v in regs + warps if v[d])
        b.combine_cga(cga, shape, by_value=True)
        _require_permutation(b.bases, shape, f"DotOperandLayout({operand_index}, AMDWMMALayout)",
                             "Triton requires the operand's bases left after the cut (the parent's tiles without their "
                             "K part) to be distinct powers of two on one dim each", lambda in_dim, i: "")
        return b

    def __str__(self) -> str:
        """Constructor text, leaving out values equal to Gluon's defaults.

            >>> print(AMDWMMALayout(3, True, [[0, 1]], instr_shape=[16, 16, 32], rank=2))
            AMDWMMALayout(3, True, [[0, 1]], instr_shape=[16, 16, 32])
        """
        parts = [str(self.version), str(self.transposed), format_value(self.warp_bases)]
        if self.reg_bases:
            parts.append(f"reg_bases={format_value(self.reg_bases)}")
        if tuple(self.instr_shape) != (16, 16, 16):
            parts.append(f"instr_shape={format_value(self.instr_shape)}")
        if self.cga_layout:
            parts.append(f"cga_layout={format_value(self.cga_layout)}")
        if self.rank != 2:
            parts.append(f"rank={self.rank}")
        return f"{self.family}({', '.join(parts)})"

    @cached_to_linear
    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """Triton's linear layout of this layout over ``shape`` (see the class docstring).

        A layout whose bases, once cut to ``shape``, are not distinct powers of two on one dim each
        (repeated or mixed ``reg_bases``/``warp_bases`` the shape does not cut away) is refused with
        a :class:`BasisError`, as Triton refuses it.

            >>> AMDWMMALayout(2, False, [[1, 0], [1, 0]]).to_linear([16, 16]).bases["warp"]
            ((0, 0), (0, 0))
            >>> AMDWMMALayout(2, False, [[1, 0], [1, 0]]).to_linear([32, 16])
            Traceback (most recent call last):
            ...
            linlayout.errors.BasisError: AMDWMMALayout: on shape [32, 16], warp basis 1 = [16, 0] (from warp_bases[1]) repeats warp basis 0; Triton requires the bases that the shape does not cut away to be distinct powers of two on one dim each
        """
        who = "AMDWMMALayout"
        rank = self.rank
        shp = check_shape(shape, rank, who)
        reg, lane, ext = self.tile()
        n_tile_regs = len(reg)

        def scaled(vecs: Sequence[Sequence[int]]) -> list[list[int]]:
            return [[x * e for x, e in zip(v, ext)] for v in vecs]

        bases = {"register": reg + scaled(self.reg_bases), "lane": lane, "warp": scaled(self.warp_bases)}
        tiles = span_sizes([*self.reg_bases, *self.warp_bases], rank)
        sizes = [e * t for e, t in zip(ext, tiles)]
        # the CGA layout, cut to the shape
        blocks = [list(b) for b in self.cga_layout]
        cga_sizes = span_sizes(blocks, rank)
        for d in range(rank):
            if cga_sizes[d] > shp[d]:
                for b in blocks:
                    if b[d] >= shp[d]:
                        b[d] = 0
                cga_sizes[d] = shp[d]
        cta = [max(1, shp[d] // cga_sizes[d]) for d in range(rank)]
        # repeat in registers, minor dim (dim[-1]) first
        regs = bases["register"]
        for d in reversed(range(rank)):
            k = sizes[d]
            while k < cta[d]:
                vec = [0] * rank
                vec[d] = k
                regs.append(vec)
                k <<= 1
            sizes[d] = max(sizes[d], cta[d])
        # broadcast: every basis component that falls outside the CTA's share becomes zero
        for d in range(rank):
            if sizes[d] > cta[d]:
                for vecs in bases.values():
                    for v in vecs:
                        if v[d] >= cta[d]:
                            v[d] = 0
                sizes[d] = cta[d]
        bases["block"] = [[x * s for x, s in zip(b, sizes)] for b in blocks]
        sizes = [s * c for s, c in zip(sizes, cga_sizes)]
        self._check_permutation(bases, shp, n_tile_regs)
        return pack(bases, [(f"dim{d}", s) for d, s in enumerate(sizes)])

    def _check_permutation(self, bases: dict[str, list[list[int]]], shape: list[int], n_tile_regs: int) -> None:
        """Triton turns the result into a linear encoding, which must be a permutation matrix once
        the zero (broadcast) bases are removed; it aborts otherwise."""

        def origin(in_dim: str, i: int) -> str:
            if in_dim == "register":
                j = i - n_tile_regs
                if 0 <= j < len(self.reg_bases):
                    return f" (from reg_bases[{j}])"
                return ""
            if in_dim == "warp":
                return f" (from warp_bases[{i}])"
            if in_dim == "block":
                return f" (from cga_layout[{i}])"
            return ""

        _require_permutation(bases, shape, "AMDWMMALayout",
                             "Triton requires the bases that the shape does not cut away to be distinct powers of two on one dim each",
                             origin)
