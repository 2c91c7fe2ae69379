"""The optimal shared-memory layout (swizzle) for a register-to-register round trip.

A layout conversion that moves data between warps goes through shared memory: every thread stores
its values, the block synchronises, every thread loads the values it needs.  The intermediate
*shared layout* decides how wide the stores and loads can be and how many bank conflicts they
have.  This module chooses it the way Triton's generic swizzling does (``lib/Tools/
GenericSwizzling.cpp``), written from the description of the method:

* work on the flattened tensor: an element is an ``int`` whose bits are the tensor coordinates'
  bits (first out-dim in the lowest bits); a layout's ``register`` / ``lane`` bases are such ints;
* **vector** bases: the register bases common to both sides (at most 128-bit accesses), topped up
  from one side's registers so that a bank word is full, plus registers of that side that are
  lanes on the other side (more vectorisation without conflicts);
* **segment** bases (which 32-bank segment a word lands in): unit vectors used by neither side's
  access *tile* (the lanes served by one wavefront) first, then XOR pairs ``a ^ b`` of a store-tile
  and a load-tile vector (conflict-free on both sides), and only when there is no room left the
  raw vectors (conflicts);
* **bank** bases: the unit vectors that complete a basis;
* **reps**: segment bases that are registers on both sides are split off as repetitions (the
  round trip is done in several rounds through a smaller buffer).

A side's bank conflicts (excess wavefronts per access) are ``2**dim(segment ∩ tile) - 1``.  With
``ldmatrix`` / ``stmatrix`` (sm_90: ``stmatrix`` for stores, ``ldmatrix`` for loads, their ``.trans``
forms for 16-bit data) the candidate instruction pairs are compared by total conflicts, ties
broken by more repetitions (a smaller buffer), as Triton does.

    >>> from linlayout import LinearLayout
    >>> src = LinearLayout({"register": [[0, 1]], "lane": [[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]],
    ...                     "warp": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 64})
    >>> dst = LinearLayout({"register": [[1, 0]], "lane": [[2, 0], [0, 1], [0, 2], [0, 4], [0, 8]],
    ...                     "warp": [[0, 16], [0, 32]]}, {"dim0": 4, "dim1": 64})
    >>> choice = optimal_swizzle(src, dst, 32)
    >>> choice.store_conflicts, choice.load_conflicts
    (0, 0)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import DimensionError, LayoutError, SizeError
from .gf2 import SpanBasis, intersection_basis, meet_dim, unit_complement
from .linear import LinearLayout

__all__ = [
    "MemOpTile",
    "LD_ST_SHARED",
    "LD_ST_MATRIX",
    "LD_ST_MATRIX_TRANS",
    "SwizzleChoice",
    "SwizzleSearch",
    "clear_swizzle_caches",
    "remove_broadcast_registers",
    "optimal_swizzle",
    "optimal_swizzle_ldst",
    "side_bank_conflicts",
]


# --------------------------------------------------------------------------- layouts <-> ints


def remove_broadcast_registers(layout: LinearLayout) -> LinearLayout:
    """Drop the zero ``register`` bases (registers that hold copies of other registers).

        >>> L = LinearLayout({"register": [[1], [0]], "lane": [[2]]}, {"dim0": 4})
        >>> remove_broadcast_registers(L).bases["register"]
        ((1,),)
    """
    if not layout.has_in_dim("register") or all(layout.flat_bases("register")):
        return layout
    return layout.remove_zero_bases("register")


@dataclass(frozen=True)
class MemOpTile:
    """A shared-memory instruction's access tile: ``lane_contig`` lanes hold one contiguous 16-byte
    row together, ``lane_addr`` lanes give the row addresses (Triton's ``LocalMemOpTile``)."""

    lane_contig: tuple[int, ...]
    lane_addr: tuple[int, ...]
    store_name: str
    load_name: str

    def __post_init__(self) -> None:
        # the searches key their dicts by tiles: hashed once (the lanes only: ints hash alike in
        # every process, and equal tiles have equal lanes)
        object.__setattr__(self, "_hash", hash((self.lane_contig, self.lane_addr)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]


LD_ST_SHARED = MemOpTile((), (0, 1, 2), "st.shared", "ld.shared")
LD_ST_MATRIX = MemOpTile((0, 1), (2, 3, 4), "stmatrix", "ldmatrix")
LD_ST_MATRIX_TRANS = MemOpTile((2, 3, 4), (0, 1), "stmatrix.trans", "ldmatrix.trans")


@dataclass(frozen=True)
class SwizzleChoice:
    """The chosen shared layout of a round trip and what it costs.

    ``layout`` maps in-dims ``vector``, ``bank``, ``segment``, ``reps`` to the tensor's dims; the
    shared offset of an element is the flat index of (vector, bank, segment) (``vector`` in the low
    bits), and ``reps`` counts rounds through the buffer.  ``store_tile`` / ``load_tile`` are the
    flattened tensor vectors served by one wavefront of a store / load.
    """

    layout: LinearLayout
    store_instr: str
    load_instr: str
    store_conflicts: int
    load_conflicts: int
    store_tile: tuple[int, ...]
    load_tile: tuple[int, ...]
    bitwidth: int

    @property
    def reps(self) -> int:
        """Rounds through the buffer."""
        return self.layout.in_dim_size("reps")

    @property
    def elements(self) -> int:
        """Elements in the buffer (one round)."""
        return self.layout.total_out_size // self.reps

    @property
    def bytes(self) -> int:
        """Bytes of shared memory for one round."""
        return self.elements * max(self.bitwidth, 8) // 8

    @property
    def vector(self) -> tuple[int, ...]:
        """The flattened tensor vectors of the vector bases (lowest shared-offset bits)."""
        return tuple(list(self.layout.flat_bases("vector")))

    def offset_bases(self) -> list[int]:
        """Flattened tensor images of the shared offset bits 0, 1, ... (vector, bank, segment)."""
        return list(self.layout.flat_bases("vector")) + list(self.layout.flat_bases("bank")) + list(self.layout.flat_bases("segment"))


def side_bank_conflicts(segment: Sequence[int], tile: Sequence[int]) -> int:
    """Excess wavefronts of an access whose wavefront tile is ``tile``: 2**dim(segment ∩ tile) − 1.

        >>> side_bank_conflicts([4, 8], [1, 2, 4])
        1
    """
    return (1 << meet_dim([s for s in segment if s], [t for t in tile if t])) - 1


def _compute_segment(bank_src: Sequence[int], bank_dst: Sequence[int], dim: int, length: int) -> list[int]:
    set_src = set(bank_src) - {0}
    set_dst = set(bank_dst) - {0}
    segment = [1 << b for b in range(dim) if (1 << b) not in set_src and (1 << b) not in set_dst]
    if len(segment) >= length:
        return segment[:length]
    a = [v for v in set_src if v not in set_dst]
    b = [v for v in set_dst if v not in set_src]
    if len(a) > len(b):
        a, b = b, a
    a.sort()
    b.sort()
    log_conflicts = min(max(0, length - len(a) - len(segment)), len(a))
    for i in range(log_conflicts, len(a)):
        segment.append(a[i] ^ b[i])
    segment.extend(a[:log_conflicts])
    segment.extend(b[:log_conflicts])
    return segment[:length]


def _build(
    src: LinearLayout,
    dst: LinearLayout,
    bitwidth: int,
    vbasis: Sequence[int],
    tile_src: Sequence[int],
    tile_dst: Sequence[int],
    leave_reps: int = 0,
) -> LinearLayout:
    dim = src.total_out_size_log2
    groups = _groups(set(src.flat_bases("register")), set(dst.flat_bases("register")), dim, bitwidth, vbasis, tile_src,
                     tile_dst, leave_reps)
    return _layout_of(groups, dim, list(src.out_dims.items()))


def _groups(
    regs_src: set[int] | frozenset[int],
    regs_dst: set[int] | frozenset[int],
    dim: int,
    bitwidth: int,
    vbasis: Sequence[int],
    tile_src: Sequence[int],
    tile_dst: Sequence[int],
    leave_reps: int = 0,
) -> tuple[list[int], list[int], list[int], list[int]]:
    """The offset bits of :func:`_build` but the bank bits: ``(vector, segment and reps as
    chosen, segment, reps)`` (the bank bits complete them; see :func:`_layout_of`)."""
    bank_src = list(vbasis) + list(tile_src)
    bank_dst = list(vbasis) + list(tile_dst)
    word = (1 << len(vbasis)) * bitwidth
    len_b = min(max((1024 // word).bit_length() - 1, 0) if word <= 1024 else 0, dim - len(vbasis))
    len_s = dim - len_b - len(vbasis)
    sbasis = _compute_segment(bank_src, bank_dst, dim, len_s)
    segment, reps = [], []
    for s in sbasis:
        if s in regs_src and s in regs_dst:
            if leave_reps > 0:
                leave_reps -= 1
                segment.append(s)
            else:
                reps.append(s)
        else:
            segment.append(s)
    return list(vbasis), sbasis, segment, reps


def _layout_of(groups: tuple[list[int], list[int], list[int], list[int]], dim: int,
               outs: list[tuple[str, int]]) -> LinearLayout:
    """The shared layout of :func:`_groups`' offset bits, the bank bits the unit vectors that
    complete them."""
    vbasis, sbasis, segment, reps = groups
    bbasis = unit_complement(vbasis + sbasis, dim)
    return LinearLayout.from_flat({"vector": vbasis, "bank": bbasis, "segment": segment, "reps": reps}, outs)


def _vbasis(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> list[int]:
    reg_src = list(src.flat_bases("register"))
    reg_dst = list(dst.flat_bases("register"))
    dim = src.total_out_size_log2
    vbasis = intersection_basis(reg_src, reg_dst, dim)
    max_vec = (128 // bitwidth).bit_length() - 1 if bitwidth <= 128 else 0
    vbasis = vbasis[:max_vec]
    per_bank = 0 if bitwidth > 32 else (32 // bitwidth).bit_length() - 1
    lane_src = set(list(src.flat_bases("lane")))
    lane_dst = set(list(dst.flat_bases("lane")))
    extra_max = (128 // max(bitwidth, 32)).bit_length() - 1

    def after_bank0(regs: Sequence[int], vb: Sequence[int], other_lane: set[int]) -> list[int]:
        vec: list[int] = []
        for r in regs:
            if r in vb:
                continue
            if r in other_lane:
                vec.append(r)
            if len(vec) >= extra_max:
                break
        return vec

    def is_prefix(prefix: Sequence[int], regs: Sequence[int]) -> bool:
        return len(prefix) <= len(regs) and list(regs[: len(prefix)]) == list(prefix)

    def fill(regs: Sequence[int], vb: Sequence[int]) -> list[int]:
        out = list(vb)
        for i in range(len(vb), min(per_bank, len(regs))):
            out.append(regs[i])
        return out

    vec_src = True
    if (1 << len(vbasis)) * bitwidth < 32:
        src_prefix = is_prefix(vbasis, reg_src)
        dst_prefix = is_prefix(vbasis, reg_dst)
        if vbasis and not src_prefix and not dst_prefix:
            reg_src = list(vbasis) + [r for r in reg_src if r not in vbasis]
            reg_dst = list(vbasis) + [r for r in reg_dst if r not in vbasis]
            src_prefix = dst_prefix = True
        if src_prefix and dst_prefix:
            vs = after_bank0(reg_src, fill(reg_src, vbasis), lane_dst)
            vd = after_bank0(reg_dst, fill(reg_dst, vbasis), lane_src)
            src_prefix = len(vs) >= len(vd)
            dst_prefix = len(vd) > len(vs)
        vec_src = src_prefix
        vbasis = fill(reg_src if vec_src else reg_dst, vbasis)
    vbasis = vbasis + (after_bank0(reg_src, vbasis, lane_dst) if vec_src else after_bank0(reg_dst, vbasis, lane_src))
    return vbasis


def _ldst_tiles(src: LinearLayout, dst: LinearLayout, bitwidth: int, vbasis: Sequence[int]) -> tuple[list[int], list[int]]:
    def prefix_len(regs: Sequence[int]) -> int:
        n = 0
        for i, v in enumerate(vbasis):
            if i < len(regs) and regs[i] == v:
                n += 1
            else:
                break
        return n

    tiles = []
    for lay in (src, dst):
        tile = list(lay.flat_bases("lane"))
        vs = prefix_len(list(lay.flat_bases("register")))
        bits = (1 << vs) * bitwidth
        if bits > 32:
            drop = (bits // 32).bit_length() - 1
            tile = tile[: len(tile) - drop] if drop else tile
        tiles.append([t for t in tile if t not in vbasis])
    return tiles[0], tiles[1]


def _prepare(src: LinearLayout, dst: LinearLayout) -> tuple[LinearLayout, LinearLayout]:
    if set(src.out_dim_names) != set(dst.out_dim_names):
        raise DimensionError(f"optimal_swizzle: the layouts have different out-dims ({', '.join(src.out_dim_names)}) and ({', '.join(dst.out_dim_names)})")
    if src.out_dim_names != dst.out_dim_names:
        dst = dst.transpose_outs(src.out_dim_names)
    for n in src.out_dim_names:
        if src.out_dim_size(n) != dst.out_dim_size(n):
            raise SizeError(f"optimal_swizzle: out-dim {n!r} has size {src.out_dim_size(n)} in src but {dst.out_dim_size(n)} in dst")
    return remove_broadcast_registers(src), remove_broadcast_registers(dst)


def optimal_swizzle_ldst(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> SwizzleChoice:
    """The shared layout for plain ``st.shared`` / ``ld.shared`` (no matrix instructions).

        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
        >>> optimal_swizzle_ldst(s, s, 32).store_conflicts
        0
    """
    src, dst = _prepare(src, dst)
    return _ldst_choice(src, dst, bitwidth)


def _ldst_choice(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> SwizzleChoice:
    vbasis = _vbasis(src, dst, bitwidth)
    tile_src, tile_dst = _ldst_tiles(src, dst, bitwidth, vbasis)
    lay = _build(src, dst, bitwidth, vbasis, tile_src, tile_dst)
    seg = list(lay.flat_bases("segment"))
    return SwizzleChoice(
        lay, "st.shared", "ld.shared", side_bank_conflicts(seg, tile_src), side_bank_conflicts(seg, tile_dst),
        tuple(tile_src), tuple(tile_dst), bitwidth,
    )


class _Side:
    """The facts of one side a swizzle search reads again and again (flat bases, computed once)."""

    __slots__ = ("layout", "regs", "reg_set", "lanes", "n_lanes", "_usable")

    def __init__(self, layout: LinearLayout):
        self.layout = layout
        self.regs = list(layout.flat_bases("register"))
        self.reg_set = frozenset(self.regs)
        self.lanes = list(layout.flat_bases("lane"))
        self.n_lanes = len(self.lanes)
        self._usable: dict[MemOpTile, bool] = {}

    def usable(self, tile: MemOpTile) -> bool:
        """Whether this side's lanes can serve ``tile``'s contiguous lanes (they exist and none is
        broadcast): where not, :func:`_tile_vbasis` refuses every pair with the tile on this side."""
        got = self._usable.get(tile)
        if got is None:
            got = self._usable[tile] = all(i < self.n_lanes and self.lanes[i] != 0 for i in tile.lane_contig)
        return got


@functools.lru_cache(maxsize=4096)
def _side_of(L: LinearLayout) -> _Side:
    """:class:`_Side` of ``L``, remembered per layout (only read by the searches)."""
    return _Side(L)


@functools.lru_cache(maxsize=4096)
def _bijection_solver(L: LinearLayout) -> tuple[SpanBasis, tuple[int, int], tuple[int, int]] | None:
    """For a bijective layout with ``register`` and ``lane`` dims: a span of its columns (in-dims
    in order) and where the register and lane bits sit in a combination; None otherwise.  A fact
    of one layout, remembered (cost matrices search each layout against many others)."""
    if not (L.has_in_dim("register") and L.has_in_dim("lane") and L.is_invertible()):
        return None
    basis = SpanBasis()
    at: dict[str, tuple[int, int]] = {}
    k = 0
    for d in L.in_dim_names:
        f = L.flat_bases(d)
        at[d] = (k, (1 << len(f)) - 1)
        k += len(f)
        for v in f:
            basis.insert(v)
    return basis, at["register"], at["lane"]


@functools.lru_cache(maxsize=4096)
def _column_span(L: LinearLayout) -> SpanBasis:
    """The span of ``L``'s columns inserted in in-dim order (dependent ones too, so that a
    combination's bit ``k`` is flat column ``k``); only read, never extended.  Remembered per layout."""
    basis = SpanBasis()
    for d in L.in_dim_names:
        for v in L.flat_bases(d):
            basis.insert(v)
    return basis


class _MapSide:
    """What :func:`conversion_map` reads of one layout, on either side of a map: its flat bases,
    the bits each in-dim touches and those the other in-dims touch, the map's out-dims and
    identity images where it is the source, and (built on its first use as a source) the
    combination of its columns that gives each output bit."""

    __slots__ = ("outs", "items", "flat", "support", "others", "map_outs", "identity", "units")

    def __init__(self, L: LinearLayout) -> None:
        self.outs = tuple(L.out_dims.items())
        self.items = tuple((n, L.flat_bases(n)) for n in L.in_dim_names)
        self.flat = dict(self.items)
        self.support = support = {n: _or(f) for n, f in self.items}
        # bits the other in-dims touch (OR over the others, not total minus own: bits may be shared)
        self.others = {n: _or(t for m, t in support.items() if m != n) for n in support}
        self.map_outs = tuple((n, 1 << len(f)) for n, f in self.items)
        self.identity = {}
        k = 0
        for n, f in self.items:
            self.identity[n] = tuple(1 << (k + i) for i in range(len(f)))
            k += len(f)
        #: output bit (as its value 2**k; and 0) -> combination of the columns; {} before it is
        #: built, None where some output bit is not reached
        self.units: dict[int, int] | None = {}


def _or(values: Iterable[int]) -> int:
    out = 0
    for v in values:
        out |= v
    return out


@functools.lru_cache(maxsize=4096)
def _map_side(L: LinearLayout) -> _MapSide:
    """:class:`_MapSide` of ``L``, remembered per layout (cleared by ``linlayout.plan.clear_caches``)."""
    return _MapSide(L)


def _source_units(side: _MapSide, a: LinearLayout) -> dict[int, int] | None:
    """``side.units`` of the source ``a``, built on first use from ``a``'s column span (a
    combination is linear in the vector, so a vector's is the XOR of its bits')."""
    units = side.units
    if units is not None and not units:
        basis = _column_span(a)
        if basis.rank == a.total_out_size_log2:
            units = {0: 0}
            for k in range(a.total_out_size_log2):
                units[1 << k] = basis.reduce(1 << k)[1]
        else:
            units = None
        side.units = units
    return units


def conversion_map(a: LinearLayout, b: LinearLayout) -> LinearLayout:
    """``b.invert_and_compose(a)`` for layouts with the same out-dims (in order), solved against
    facts of each layout remembered per layout; anything unusual, and the error where no map
    exists, is left to the general method.

    Triton's broadcasting heuristic keeps an in-dim whose bases are equal in both layouts, and
    whose bits no other in-dim of either layout touches, as the identity; the other in-dims are
    its least-squares solve over the columns of ``a`` without the kept dims.  Solving them over
    all of ``a``'s columns gives the same answer: the kept dims' columns span only their own
    bits, which the vectors solved for do not touch, so they are neither used nor change which
    of the other columns are pivots.

        >>> a = LinearLayout({"register": [[1], [0]], "lane": [[2]]}, {"dim0": 4})
        >>> b = LinearLayout({"register": [[2]], "lane": [[1]]}, {"dim0": 4})
        >>> conversion_map(a, b) == b.invert_and_compose(a)
        True
        >>> conversion_map(a, a).bases    # the identity heuristic: each dim maps to itself
        {'register': ((1, 0), (2, 0)), 'lane': ((0, 1),)}
    """
    sa = _map_side(a)
    sb = _map_side(b)
    if sa.outs != sb.outs:
        return b.invert_and_compose(a)
    kept: Sequence[str] = ()
    b_flat = sb.flat
    same = [n for n, f in sa.items if b_flat.get(n) == f]
    if same:  # Triton's broadcasting heuristic
        b_others = sb.others
        kept = [n for n in same if sa.support[n] & (sa.others[n] | b_others[n]) == 0]
    units = _source_units(sa, a)
    images = []
    for d, f in sb.items:
        if d in kept:
            images.append((d, sa.identity[d]))
            continue
        if units is not None:
            col = []
            for v in f:
                c = units.get(v)
                if c is None:
                    c = 0
                    while v:
                        low = v & -v
                        c ^= units[low]
                        v ^= low
                col.append(c)
        else:
            basis = _column_span(a)
            col = []
            for v in f:
                rem, c = basis.reduce(v)
                if rem:  # no map exists: the general method says why
                    return b.invert_and_compose(a)
                col.append(c)
        images.append((d, tuple(col)))
    # every image is a combination of a's columns: below 2**(a's in bits), so no check is needed
    return LinearLayout._make_raw(tuple(images), sa.map_outs)


def clear_swizzle_caches() -> None:
    """Forget the per-layout facts the swizzle search remembers (for benchmarks)."""
    _bijection_solver.cache_clear()
    _column_span.cache_clear()
    _side_of.cache_clear()


class _Search:
    """What the candidate instruction pairs of one search share: both sides' facts, and per
    direction the intersection of the register spans and the conversion map (each computed at
    most once, on first use)."""

    __slots__ = ("sides", "dim", "_vb", "_cvt", "_img")

    def __init__(self, src: LinearLayout, dst: LinearLayout):
        self.sides = (_side_of(src), _side_of(dst))
        self.dim = src.total_out_size_log2
        self._vb: dict[int, list[int]] = {}
        self._cvt: dict[int, LinearLayout | None] = {}
        self._img: dict[tuple[int, int], tuple[int, int]] = {}

    def common_registers(self, first: int) -> list[int]:
        """A basis of span(regs of side ``first``) ∩ span(regs of the other), in ``first``'s order."""
        vb = self._vb.get(first)
        if vb is None:
            a, b = self.sides[first], self.sides[1 - first]
            vb = self._vb[first] = intersection_basis(a.regs, b.regs, self.dim)
        return vb

    def convertible(self, first: int) -> bool:
        """Whether :meth:`conversion` exists (always, when side ``first`` is bijective)."""
        if first not in self._cvt and _bijection_solver(self.sides[first].layout) is not None:
            return True
        return self.conversion(first) is not None

    def lane_image(self, first: int, i: int) -> tuple[int, int]:
        """The register and lane parts of :meth:`conversion` ``(first)`` at the other side's lane
        ``2**i`` (which must exist).  A bijective side ``first`` has one solution: it is read
        from that layout's remembered span instead of solving the whole map.  Each is computed
        once per search (the candidates read the same lanes)."""
        got = self._img.get((first, i))
        if got is None:
            got = self._img[(first, i)] = self._lane_image(first, i)
        return got

    def _lane_image(self, first: int, i: int) -> tuple[int, int]:
        cvt = self._cvt.get(first)
        if cvt is None:
            solver = _bijection_solver(self.sides[first].layout)
            if solver is not None:
                basis, (reg_at, reg_mask), (lane_at, lane_mask) = solver
                y = basis.reduce(self.sides[1 - first].lanes[i])[1]  # in the span: a bijection reaches everything
                return (y >> reg_at) & reg_mask, (y >> lane_at) & lane_mask
            cvt = self.conversion(first)
            assert cvt is not None  # the caller checked convertible()
        if cvt.has_out_dim("register") and cvt.has_out_dim("lane"):
            return _register_lane_parts(cvt, cvt.flat_bases("lane")[i])
        return cvt.get_basis("lane", i, "register"), cvt.get_basis("lane", i, "lane")

    def conversion(self, first: int) -> LinearLayout | None:
        """The map from the other side's hardware index to side ``first``'s (b(x) == a(cvt(x))),
        or None when there is none."""
        if first not in self._cvt:
            a, b = self.sides[first].layout, self.sides[1 - first].layout
            try:
                self._cvt[first] = conversion_map(a, b)
            except LayoutError:
                self._cvt[first] = None
        return self._cvt[first]


def _register_lane_parts(cvt: LinearLayout, v: int) -> tuple[int, int]:
    """The ``register`` and ``lane`` components of the flat image ``v`` of a conversion map
    (``cvt.get_basis(.., "register")``, ``(.., "lane")`` read from flat form)."""
    parts = {}
    at = 0
    for n, size in cvt.out_dims.items():
        k = size.bit_length() - 1
        parts[n] = (v >> at) & ((1 << k) - 1)
        at += k
    return parts["register"], parts["lane"]


def _tile_vbasis(search: _Search, n_reg_s: int, n_reg_d: int, lanes_s: Sequence[int], lanes_d: Sequence[int]) -> list[int] | None:
    """The vector bases of an instruction pair whose tiles take ``n_reg_*`` registers and the lanes
    ``lanes_*`` of the store (src) and load (dst) sides, or None when the pair does not fit."""
    if n_reg_s < n_reg_d:
        first = 1
        n_reg_a, n_reg_b, lanes_a, lanes_b = n_reg_d, n_reg_s, lanes_d, lanes_s
    else:
        first = 0
        n_reg_a, n_reg_b, lanes_a, lanes_b = n_reg_s, n_reg_d, lanes_s, lanes_d
    a, b = search.sides[first], search.sides[1 - first]
    n_lanes = min(a.n_lanes, b.n_lanes)
    if (lanes_a and max(lanes_a) >= n_lanes) or (lanes_b and max(lanes_b) >= n_lanes):
        return None
    # the tests of one side's lanes first (a broadcast lane fails most pairs), then the pair's
    b_lanes, a_lanes = b.lanes, a.lanes
    tile_b = [b_lanes[i] for i in lanes_b]
    if 0 in tile_b:
        return None
    for i in lanes_a:
        if a_lanes[i] == 0:
            return None
    vb = search.common_registers(first)
    if len(vb) < n_reg_b:
        return None
    # the conversion maps b's hardware index to a's (b(x) == a(cvt(x))); read its lane columns
    if not search.convertible(first):
        return None
    for i in range(n_reg_a - n_reg_b):
        if search.lane_image(first, lanes_b[i])[0] == 0:
            return None
    tail = list(lanes_b)[len(lanes_b) - len(lanes_a):] if lanes_a else []
    for ia, ib in zip(lanes_a, tail):
        if search.lane_image(first, ib)[1] != (1 << ia):
            return None
    return list(vb[:n_reg_b]) + tile_b


def _instr_tile(instr: MemOpTile, regs: Sequence[int], lanes: Sequence[int], vbasis: Sequence[int]) -> list[int] | None:
    need = 3 - len(instr.lane_addr)
    tile = []
    for r in regs:
        if need == 0:
            break
        if r not in vbasis:
            tile.append(r)
            need -= 1
    if need > 0:
        return None
    if max(instr.lane_addr, default=-1) >= len(lanes):
        return None
    return tile + [lanes[i] for i in instr.lane_addr]


def _default_tiles(bitwidth: int, matrix: bool) -> tuple[list[MemOpTile], list[MemOpTile]]:
    src = [LD_ST_SHARED]
    dst = [LD_ST_SHARED]
    if matrix and bitwidth <= 32:
        src.append(LD_ST_MATRIX)
        dst.append(LD_ST_MATRIX)
        if bitwidth == 16:
            src.append(LD_ST_MATRIX_TRANS)
            dst.append(LD_ST_MATRIX_TRANS)
    return src, dst


#: A candidate before its layout is built: offset groups (see :func:`_groups`), the store and load
#: tiles and their bank conflicts.
_Candidate = tuple[tuple[list[int], list[int], list[int], list[int]], list[int], list[int], int, int]


class SwizzleSearch:
    """The swizzle search of one round trip, remembered: every (store tile, load tile) candidate
    is built at most once, so that a planner asking for the best pair with and without matrix
    instructions, and for plain ``ld/st.shared``, pays for each candidate once.

    ``conversion`` may give the map from ``dst``'s hardware index to ``src``'s
    (``dst.invert_and_compose(src)``) when the caller has it already.

        >>> src = LinearLayout({"register": [[0, 1]], "lane": [[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]],
        ...                     "warp": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 64})
        >>> search = SwizzleSearch(src, src, 16)
        >>> search.best([LD_ST_SHARED, LD_ST_MATRIX], [LD_ST_SHARED]) == search.best([LD_ST_SHARED], [LD_ST_SHARED])
        True
    """

    __slots__ = ("src", "dst", "bitwidth", "_search", "_cands", "_recs", "_ldst")

    def __init__(self, src: LinearLayout, dst: LinearLayout, bitwidth: int, *, conversion: LinearLayout | None = None):
        if bitwidth < 1 or bitwidth > 128 or bitwidth & (bitwidth - 1):
            raise SizeError(f"optimal_swizzle: bitwidth must be a power of two in [1, 128], got {bitwidth}")
        self.bitwidth = max(bitwidth, 8)
        self.src, self.dst = _prepare(src, dst)
        self._search = _Search(self.src, self.dst)
        if conversion is not None:
            self._search._cvt[0] = conversion
        self._cands: dict[tuple[MemOpTile, MemOpTile], SwizzleChoice | None] = {}
        self._recs: dict[tuple[MemOpTile, MemOpTile], _Candidate | None] = {}
        self._ldst: SwizzleChoice | None = None

    def candidate(self, ts: MemOpTile, td: MemOpTile) -> SwizzleChoice | None:
        """The swizzle for storing with ``ts`` and loading with ``td``, or None when the pair's
        access tiles do not fit the layouts."""
        key = (ts, td)
        if key in self._cands:
            return self._cands[key]
        rec = self._record(ts, td)
        self._cands[key] = choice = None if rec is None else self._choice(ts, td, rec)
        return choice

    def _record(self, ts: MemOpTile, td: MemOpTile) -> _Candidate | None:
        """What a candidate's rank needs (its conflicts and rounds), its layout not yet built."""
        key = (ts, td)
        if key in self._recs:
            return self._recs[key]
        self._recs[key] = rec = self._candidate(ts, td)
        return rec

    def _choice(self, ts: MemOpTile, td: MemOpTile, rec: _Candidate) -> SwizzleChoice:
        groups, tile_s, tile_d, w, r = rec
        lay = _layout_of(groups, self._search.dim, list(self.src.out_dims.items()))
        return SwizzleChoice(lay, ts.store_name, td.load_name, w, r, tuple(tile_s), tuple(tile_d), self.bitwidth)

    def _candidate(self, ts: MemOpTile, td: MemOpTile) -> _Candidate | None:
        bitwidth = self.bitwidth
        total = (128 // bitwidth).bit_length() - 1
        n_s = total - len(ts.lane_contig)
        n_d = total - len(td.lane_contig)
        if n_s < 0 or n_d < 0:
            return None
        search = self._search
        s_side, d_side = search.sides
        vb = _tile_vbasis(search, n_s, n_d, ts.lane_contig, td.lane_contig)
        if vb is None:
            return None
        tile_s = _instr_tile(ts, s_side.regs, s_side.lanes, vb)
        tile_d = _instr_tile(td, d_side.regs, d_side.lanes, vb)
        if tile_s is None or tile_d is None:
            return None
        leave = min(len(ts.lane_contig) + len(ts.lane_addr) - 3, len(td.lane_contig) + len(td.lane_addr) - 3)
        groups = _groups(s_side.reg_set, d_side.reg_set, search.dim, bitwidth, vb, tile_s, tile_d, leave)
        seg = groups[2]
        return groups, tile_s, tile_d, side_bank_conflicts(seg, tile_s), side_bank_conflicts(seg, tile_d)

    def ldst(self) -> SwizzleChoice:
        """:func:`optimal_swizzle_ldst` of the two sides."""
        if self._ldst is None:
            self._ldst = _ldst_choice(self.src, self.dst, self.bitwidth)
        return self._ldst

    def best(self, src_tiles: Sequence[MemOpTile], dst_tiles: Sequence[MemOpTile]) -> SwizzleChoice:
        """:func:`optimal_swizzle` over these candidate tiles."""
        best: tuple[int, int, MemOpTile, MemOpTile] | None = None
        s_side, d_side = self._search.sides
        for ts in src_tiles:
            if not s_side.usable(ts):
                continue
            for td in dst_tiles:
                if not d_side.usable(td):
                    continue
                rec = self._record(ts, td)
                if rec is None:
                    continue
                # fewest conflicts, then most rounds (the layout is built for the winner only)
                key = (rec[3] + rec[4], -(1 << len(rec[0][3])))
                if best is None or key < best[:2]:
                    best = (key[0], key[1], ts, td)
        if best is None:
            return self.ldst()
        choice = self.candidate(best[2], best[3])
        assert choice is not None
        return choice


def optimal_swizzle(
    src: LinearLayout,
    dst: LinearLayout,
    bitwidth: int,
    *,
    matrix_instructions: bool = True,
    src_tiles: Sequence[MemOpTile] | None = None,
    dst_tiles: Sequence[MemOpTile] | None = None,
) -> SwizzleChoice:
    """The best shared layout for storing ``src`` and loading ``dst`` (sm_90 instruction set).

    Candidate instruction pairs (``st.shared``/``stmatrix`` x ``ld.shared``/``ldmatrix``) whose
    128-bit access tiles fit both layouts are each given a swizzle; the one with the fewest
    total bank conflicts wins (ties: more rounds, i.e. a smaller buffer).  When no pair fits,
    plain ``st.shared``/``ld.shared`` with the widest vectors both sides allow are used.

        >>> row = LinearLayout({"register": [[0, 1], [0, 2], [0, 4], [0, 8]], "lane": [[0, 16], [0, 32], [0, 64], [1, 0], [2, 0]],
        ...                     "warp": [[4, 0]]}, {"dim0": 8, "dim1": 128})
        >>> c = optimal_swizzle(row, row, 16)
        >>> c.store_instr, c.load_instr, c.store_conflicts + c.load_conflicts
        ('st.shared', 'ld.shared', 0)
    """
    search = SwizzleSearch(src, dst, bitwidth)
    dsrc, ddst = _default_tiles(search.bitwidth, matrix_instructions)
    return search.best(list(src_tiles) if src_tiles is not None else dsrc, list(dst_tiles) if dst_tiles is not None else ddst)
