"""UMMA tensor-memory fragments as CuTe values, and their tensor-memory linear form.

CuTe places a ``tcgen05.mma`` accumulator (and a tensor-memory A operand) in Blackwell tensor
memory with ``UMMA::tmem_frg<ValueType, StorageType, N_SM, TmemAllocMode>::make(shape)``
(CUTLASS ``cute/atom/mma_traits_sm100_frag.hpp``): a layout from the partitioned coordinate
``((M_MMA, N_MMA), MMA_M, MMA_N)`` to a *tensor-memory address* in units of the value type,
``dp * TMEM::DP<T> + column``, where ``TMEM::DP<T> = 2**16 * (32 / bits(T))`` (a data path, i.e. a
lane, is ``2**16`` 32-bit columns apart; ``cute/arch/tmem_allocator_sm100.hpp``) and adjacent
values are ``bits(StorageType) / bits(ValueType)`` units apart.  :func:`tmem_frg` builds that
layout as C++ does (a ``tiled_product`` of the atom, then composed with the address restride);
``tests/oracles/cute-cpp/tmem.jsonl`` holds C++'s own answers.

:class:`TmemLayout` is such a fragment over its 2-D tile ``(M, N)`` (``N_SM`` CTAs, each holding
``M / N_SM`` rows in its own tensor memory): kind ``tensor_memory``, and its linear form is
Triton's ``row, col (, block) -> dim0, dim1`` (rows are data paths, columns are value units, the
CTA of a pair is ``block``), so it is :func:`~linlayout.equiv.equivalent` to Gluon's
``TensorMemoryLayout`` with the same ``blockM``/``blockN`` (``two_ctas`` for a CTA pair).

    >>> from converters.gluon import TensorMemoryLayout
    >>> from linlayout.equiv import equivalent
    >>> t = TmemLayout.accumulator(128, 64)
    >>> print(t)
    tmem<32> (128,64):(65536,1)
    >>> bool(equivalent(t, TensorMemoryLayout([128, 64], 1), shape=[128, 64]))
    True
    >>> t2 = TmemLayout.accumulator(128, 64, ctas=2)         # SM100_MMA_*_2x1SM_*: 64 rows per CTA
    >>> print(t2)
    tmem<32,2cta> (64,(32,2)):(65536,(1,4194304))
    >>> bool(equivalent(t2, TensorMemoryLayout([64, 64], 1, cga_layout=[[1, 0]], two_ctas=True), shape=[128, 64]))
    True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Optional

from linlayout.checks import as_int, is_pow2, log2
from linlayout.contract import Kind
from linlayout.errors import LayoutError, NotLinearError, ParseError, SizeError, UnsupportedError
from linlayout.limits import MAX_RANK, as_list
from linlayout.linear import LinearLayout

from .layout import IntTuple, Layout, _layout_from_bases, compact_col_major, flatten, product, unflatten
from .memory_map import offset_map

__all__ = ["TmemLayout", "tmem_frg", "tmem_dp", "ALLOC_MODES"]

#: CUTLASS's ``UMMA::TmemAllocMode`` names (lower case) that :func:`tmem_frg` takes.
ALLOC_MODES = ("interleaved", "noninterleaved", "duplicated")
#: Tensor memory: 128 data paths (lanes) of 512 32-bit columns.
DPS = 128
COLUMNS = 512


def tmem_dp(value_bits: int) -> int:
    """``TMEM::DP<T>``: the address distance of two data paths in ``value_bits``-bit units.

        >>> tmem_dp(32), tmem_dp(16), tmem_dp(8)
        (65536, 131072, 262144)
    """
    b = as_int(value_bits, "tmem: value_bits")
    if b not in (4, 8, 16, 32):
        raise SizeError(f"tmem: a tensor-memory value is 4, 8, 16 or 32 bits wide, got {b}")
    return (1 << 16) * (32 // b)


def _atom(m: int, n: int, ctas: int, mode: str) -> tuple[Layout, int]:
    """The ``(M, N) -> virtual address`` atom (data path stride 1, column stride 128) of
    ``tmem_frg::make`` and the data-path stride of its M tiles."""
    if ctas == 1:
        if mode == "duplicated":
            raise LayoutError("tmem_frg: a one-CTA fragment is interleaved or noninterleaved (UMMA_1SM), not duplicated")
        if m == 64:
            return Layout(((16, 4), n), ((1, 32), 128)), (1 if mode == "interleaved" else 2)
        if m == 128:
            return Layout((128, n), (1, 128)), 1
        raise SizeError(f"tmem_frg: a one-CTA UMMA fragment has M = 64 or 128 rows, got {m}")
    if mode == "noninterleaved":
        raise LayoutError("tmem_frg: a two-CTA fragment is interleaved or duplicated (UMMA_2SM), not noninterleaved")
    if m == 32:
        if mode != "interleaved":
            raise LayoutError("tmem_frg: a two-CTA fragment of M = 32 rows is interleaved only")
        if n % 4:
            raise SizeError(f"tmem_frg: the two-CTA M = 32 atom splits N over 4 lane quarters; N = {n} is not a multiple of 4")
        return Layout((32, (n // 4, 4)), (1, (128, 32))), 1
    if m == 64 and mode == "interleaved":
        if n % 2:
            raise SizeError(f"tmem_frg: the two-CTA M = 64 atom splits N over 2 lane halves; N = {n} is odd")
        return Layout((64, (n // 2, 2)), (1, (128, 64))), 1
    if m in (64, 128):  # duplicated 64 rows, or all 128 data paths
        return Layout((128, n), (1, 128)), 1
    raise SizeError(f"tmem_frg: a two-CTA UMMA fragment has M = 32, 64 or 128 rows per CTA, got {m}")


def tmem_frg(value_bits: int, shape: IntTuple, *, ctas: int = 1, mode: str = "interleaved",
             storage_bits: int = 32) -> Layout:
    """CuTe's ``UMMA::tmem_frg<T, S, ctas, mode>::make(shape).layout()``: the tensor-memory layout
    of a partitioned UMMA fragment of shape ``((M_MMA, N_MMA), MMA_M, MMA_N, ...)``, in units of
    the ``value_bits``-bit value type (see the module docstring).  ``mode`` is the
    ``TmemAllocMode``; ``storage_bits`` the width of ``StorageType`` (32: one value per 32-bit
    column; the value width itself: packed).

        >>> print(tmem_frg(32, ((64, 64), 2, 1)))
        (((16,4),64),2,1):(((65536,2097152),1),1048576,0)
        >>> print(tmem_frg(16, ((128, 64), 1, 1), storage_bits=16))
        ((128,64),1,1):((131072,1),0,0)
    """
    from .algebra import composition, tiled_product  # the algebra imports this package's leaves

    dp = tmem_dp(value_bits)
    sb = as_int(storage_bits, "tmem_frg: storage_bits")
    if sb not in (4, 8, 16, 32) or sb < value_bits:
        raise SizeError(f"tmem_frg: storage_bits must be 4, 8, 16 or 32 and hold the {value_bits}-bit value, got {sb}")
    c = as_int(ctas, "tmem_frg: ctas")
    if c not in (1, 2):
        raise SizeError(f"tmem_frg: UMMA runs on 1 or 2 CTAs (N_SM), got {c}")
    if not isinstance(mode, str) or mode not in ALLOC_MODES:  # (an array's `in` would ask numpy for a truth value)
        raise LayoutError(f"tmem_frg: mode is one of {', '.join(ALLOC_MODES)} (UMMA::TmemAllocMode), got {mode!r:.60}")
    if not isinstance(shape, tuple) or len(shape) < 1 or not isinstance(shape[0], tuple) or len(shape[0]) != 2:
        raise LayoutError(f"tmem_frg: the shape is the partitioned ((M_MMA, N_MMA), MMA_M, MMA_N, ...), got {shape!r}")
    m, n = (product(x) for x in shape[0])
    atom, tile_stride = _atom(m, n, c, mode)
    rest = shape[1:]
    if not rest:
        raise LayoutError(f"tmem_frg: the shape {shape!r} has no MMA_M, MMA_N modes after ((M_MMA, N_MMA))")
    # C++'s compact_col_major gives a static extent-1 mode the stride 0
    strides = tuple(0 if x == 1 else d for x, d in zip(flatten(rest), flatten(compact_col_major(rest, tile_stride))))
    logical = tiled_product(atom, Layout(rest, unflatten(strides, rest)))
    restride = Layout((DPS, 16384), (dp, sb // value_bits))
    return composition(restride, logical)


class TmemLayout:
    """A UMMA tensor-memory fragment over its 2-D tile: ``layout`` maps ``(m, n)`` of one CTA's
    ``(M / ctas, N)`` tile to a tensor-memory address in ``value_bits``-bit units (see the module
    docstring); ``ctas`` is 2 for the CTA pair of an ``SM100_MMA_*_2x1SM_*`` atom (CTA ``k``
    holds rows ``k * M / 2 ..``).  Kind ``tensor_memory``.

        >>> TmemLayout.accumulator(64, 32).to_linear().bases["row"][4]    # lanes 16-31 unused
        (0, 0)
    """

    __slots__ = ("layout", "value_bits", "ctas")
    kind = Kind.TENSOR_MEMORY

    def __init__(self, layout: Layout, value_bits: int = 32, ctas: int = 1):
        if not isinstance(layout, Layout) or layout.is_basis():
            raise LayoutError(f"TmemLayout: the layout maps (m, n) to an integer address, got {layout!r}")
        if layout.rank() != 2:
            raise LayoutError(f"TmemLayout: the layout has two modes (m, n), got rank {layout.rank()} in {layout}")
        tmem_dp(value_bits)
        c = as_int(ctas, "TmemLayout: ctas")
        if c not in (1, 2):
            raise SizeError(f"TmemLayout: a fragment spans 1 or 2 CTAs, got {c}")
        self.layout = layout
        self.value_bits = int(value_bits)
        self.ctas = c

    @classmethod
    def accumulator(cls, m: int, n: int, *, value_bits: int = 32, ctas: int = 1, storage_bits: int = 32,
                    mode: str = "interleaved") -> "TmemLayout":
        """The accumulator of one ``m x n`` UMMA (``m`` rows over all ``ctas`` CTAs), as CuTe's
        ``tmem_frg`` places it: ``tmem_frg(value_bits, ((m / ctas, n), 1, 1))`` seen over its tile.

            >>> print(TmemLayout.accumulator(64, 16))
            tmem<32> ((16,4),16):((65536,2097152),1)
        """
        mm, nn = as_int(m, "TmemLayout: m"), as_int(n, "TmemLayout: n")
        ctas = as_int(ctas, "TmemLayout: ctas")
        if ctas < 1:
            raise SizeError(f"TmemLayout: ctas must be >= 1, got {ctas}")
        if mode == "duplicated":
            raise UnsupportedError("TmemLayout.accumulator: a duplicated fragment (a two-CTA tensor-memory A) holds each row "
                                   "in two lane quarters; an accumulator is interleaved or noninterleaved (tmem_frg builds the A)")
        if mm % ctas:
            raise SizeError(f"TmemLayout: {mm} rows do not split over {ctas} CTAs")
        return cls.from_frg(tmem_frg(value_bits, ((mm // ctas, nn), 1, 1), ctas=ctas, mode=mode, storage_bits=storage_bits),
                            value_bits, ctas)

    @classmethod
    def from_frg(cls, frg: Layout, value_bits: int = 32, ctas: int = 1) -> "TmemLayout":
        """The 2-D view of a :func:`tmem_frg` layout ``((M_MMA, N_MMA), MMA_M, MMA_N)``: the M
        tiles follow the atom's rows and the N tiles its columns, as a tiled MMA partitions its
        accumulator (``m = m0 + M_MMA * i``, ``n = n0 + N_MMA * j``).

            >>> print(TmemLayout.from_frg(tmem_frg(32, ((128, 32), 1, 2))))
            tmem<32> (128,(32,2)):(65536,(1,32))
        """
        if not isinstance(frg, Layout) or frg.rank() not in (2, 3) or frg[0].rank() != 2:
            raise LayoutError(f"TmemLayout.from_frg: expected ((M_MMA, N_MMA), MMA_M[, MMA_N]), got {frg!r}")
        atom = frg[0]
        modes = [(atom[0], frg[1]), (atom[1], frg[2] if frg.rank() == 3 else Layout(1, 0))]
        shape, stride = [], []
        for a, t in modes:
            if t.size() == 1:
                shape.append(a.shape)
                stride.append(a.stride)
            else:
                shape.append((a.shape, t.shape) if not isinstance(a.shape, tuple) else (*a.shape, t.shape))
                stride.append((a.stride, t.stride) if not isinstance(a.stride, tuple) else (*a.stride, t.stride))
        return cls(Layout(tuple(shape), tuple(stride)), value_bits, ctas)

    # ------------------------------------------------------------------ the contract
    @property
    def tile(self) -> tuple[int, int]:
        """``(M, N)``: the whole fragment's tile, every CTA's rows included."""
        return (self.ctas * self.layout[0].size(), self.layout[1].size())

    def to_linear(self, shape: Optional[Sequence[int]] = None) -> LinearLayout:
        """Triton's tensor-memory form ``row, col (, block) -> dim0, dim1``: ``row`` the data path
        (7 bits), ``col`` the column in value units, ``block`` the CTA of a pair; an address bit
        no element uses maps to 0.  Refused (:class:`~linlayout.errors.NotLinearError`) unless
        every extent is a power of two and each coordinate bit lands on one address bit.

            >>> TmemLayout.accumulator(128, 8, value_bits=16).to_linear().bases["col"]
            ((0, 0), (0, 1), (0, 2), (0, 4))
        """
        m, n = self.tile
        if shape is not None:
            want = [as_int(s, "TmemLayout.to_linear: shape") for s in as_list(shape, "TmemLayout.to_linear: shape", MAX_RANK)]
            if want != [m, n]:
                raise SizeError(f"TmemLayout: the fragment covers the tile {[m, n]}, not the requested shape {want}")
        if not (is_pow2(m) and is_pow2(n)):
            raise NotLinearError(f"TmemLayout: the tile {[m, n]} has an extent that is not a power of two (no GF(2) form)")
        M = offset_map(self.layout)  # dim0, dim1 -> address; NotLinearError when not GF(2)-linear
        dp_bits = log2(tmem_dp(self.value_bits))
        found: dict[int, tuple[int, int]] = {}
        for d, name in enumerate(("dim0", "dim1")):
            for k, (img,) in enumerate(M.bases[name]):
                if img == 0 or img & (img - 1) or img.bit_length() - 1 in found:
                    raise UnsupportedError(
                        f"TmemLayout {self}: bit {k} of {name} moves the address by {img}, not to an address bit of its own, "
                        "so the fragment is not a row/col placement")
                found[img.bit_length() - 1] = (1 << k, 0) if d == 0 else (0, 1 << k)
        col_bits = max((b + 1 for b in found if b < dp_bits), default=0)
        if any(b >= dp_bits + log2(DPS) for b in found):
            raise SizeError(f"TmemLayout {self}: an address lies beyond the {DPS} data paths")
        bases: dict[str, list[tuple[int, int]]] = {
            "row": [found.get(dp_bits + i, (0, 0)) for i in range(log2(DPS))],
            "col": [found.get(i, (0, 0)) for i in range(col_bits)],
        }
        if self.ctas == 2:
            bases["block"] = [(m // 2, 0)]
        return LinearLayout({k: [list(v) for v in vs] for k, vs in bases.items()}, {"dim0": m, "dim1": n})

    @classmethod
    def from_linear(cls, L: LinearLayout, value_bits: int = 32) -> "TmemLayout":
        """A CuTe spelling of a tensor-memory linear layout ``row, col (, block) -> dim0, dim1``
        (each coordinate bit reached by exactly one row or column bit; the ``block`` basis, if
        any, the upper half of dim0), addresses in ``value_bits``-bit units.

            >>> from converters.gluon import TensorMemoryLayout
            >>> print(TmemLayout.from_linear(TensorMemoryLayout([64, 32], 2).to_linear([128, 32]), 16))
            tmem<16> ((16,4,2),32):((131072,4194304,2097152),2)
        """
        if not isinstance(L, LinearLayout):
            raise LayoutError(f"TmemLayout.from_linear expects a LinearLayout, got {type(L).__name__}")
        if set(L.in_dims) - {"row", "col", "block"} or "row" not in L.in_dims or list(L.out_dims) != ["dim0", "dim1"]:
            raise UnsupportedError(f"TmemLayout.from_linear: a tensor-memory layout maps row, col (and block) to dim0, dim1; "
                                   f"got in-dims {list(L.in_dims)} and out-dims {list(L.out_dims)}")
        m, n = L.out_dim_size("dim0"), L.out_dim_size("dim1")
        ctas = 1
        if L.in_dim_size("block") if "block" in L.in_dims else 0:
            blk = L.bases["block"]
            if len(blk) != 1 or tuple(blk[0]) != (m // 2, 0):
                raise UnsupportedError(f"TmemLayout.from_linear: a CTA pair splits dim0 in halves (block basis {(m // 2, 0)}), got {blk}")
            ctas, m = 2, m // 2
        dp = tmem_dp(value_bits)
        owner: dict[tuple[int, int], int] = {}
        for name, unit in (("row", dp), ("col", 1)):
            for i, vec in enumerate(L.bases.get(name, ())):
                v = (int(vec[0]), int(vec[1]))
                if v == (0, 0):
                    continue
                if v in owner or (v[0] and v[1]) or (v[0] | v[1]) & ((v[0] | v[1]) - 1):
                    raise UnsupportedError(f"TmemLayout.from_linear: {name} bit {i} maps to {v}; CuTe's fragment needs each "
                                           "coordinate bit at one address bit")
                owner[v] = unit << i
        per_dim = []
        for d, size in ((0, m), (1, n)):
            imgs = []
            for k in range(log2(size)):
                v = (1 << k, 0) if d == 0 else (0, 1 << k)
                if v not in owner:
                    raise UnsupportedError(f"TmemLayout.from_linear: no row or column holds dim{d} bit {k}")
                imgs.append(owner[v])
            per_dim.append(imgs)
        lay = _layout_from_bases(["dim0", "dim1"], per_dim)
        if lay is None:  # cannot happen: the images are distinct powers of two
            raise UnsupportedError("TmemLayout.from_linear: the addresses do not form a CuTe layout")
        return cls(lay, value_bits, ctas)

    # ------------------------------------------------------------------ text, comparison
    def __str__(self) -> str:
        tag = f"{self.value_bits}" + (",2cta" if self.ctas == 2 else "")
        return f"tmem<{tag}> {self.layout}"

    def __repr__(self) -> str:
        return f"TmemLayout({self})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TmemLayout):
            return NotImplemented
        return (self.layout, self.value_bits, self.ctas) == (other.layout, other.value_bits, other.ctas)

    def __hash__(self) -> int:
        return hash(("TmemLayout", self.layout, self.value_bits, self.ctas))


_TEXT = re.compile(r"\s*tmem\s*<\s*(\d+)\s*(?:,\s*(\d)\s*cta\s*)?>\s*(.*)$", re.S)


def parse_tmem(text: str) -> TmemLayout:
    """Read ``tmem<bits[,2cta]> layout`` (what ``str`` of a :class:`TmemLayout` prints).

        >>> parse_tmem("tmem<16,2cta> (64,(16,2)):(131072,(2,8388608))").tile
        (128, 32)
    """
    from .text import parse_layout

    mt = _TEXT.match(text) if isinstance(text, str) else None
    if mt is None:
        raise ParseError("a tensor-memory fragment is written tmem<bits> layout or tmem<bits,2cta> layout", str(text), 0)
    return TmemLayout(parse_layout(mt.group(3)), int(mt.group(1)), int(mt.group(2) or 1))

