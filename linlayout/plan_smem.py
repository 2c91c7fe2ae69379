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
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from .checks import as_int
from .errors import DimensionError, LayoutError, SizeError
from .gf2 import SpanBasis, echelon_insert, images_over_units, intersection_basis, masked_meet_dim, meet_dim, rank, unit_complement
from .limits import MAX_ITEMS, as_list
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


#: a small int per distinct tile lanes (see MemOpTile._key), for the first 4096 distinct ones
_TILE_KEYS: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}


@dataclass(frozen=True)
class MemOpTile:
    """A shared-memory instruction's access tile: ``lane_contig`` lanes hold one contiguous 16-byte
    row together, ``lane_addr`` lanes give the row addresses (Triton's ``LocalMemOpTile``)."""

    lane_contig: tuple[int, ...]
    lane_addr: tuple[int, ...]
    store_name: str
    load_name: str

    def __post_init__(self) -> None:
        # lane indices are the bits of a lane id: non-negative ints (normalised to a tuple of ints)
        for name in ("lane_contig", "lane_addr"):
            got = getattr(self, name)
            if type(got) is not tuple or not all(type(i) is int and i >= 0 for i in got):
                items = as_list(got, f"MemOpTile {name}", MAX_ITEMS)
                lanes = tuple(as_int(i, f"MemOpTile {name} entry", DimensionError) for i in items)
                if any(i < 0 for i in lanes):
                    raise DimensionError(f"MemOpTile {name}: lane indices are the bits of a lane id, non-negative; got {lanes}")
                object.__setattr__(self, name, lanes)
        # the searches key their dicts by tiles: hashed once (the lanes only: ints hash alike in
        # every process, and equal tiles have equal lanes)
        lanes_ = (self.lane_contig, self.lane_addr)
        object.__setattr__(self, "_hash", hash(lanes_))
        # what a search's candidates are remembered by: they depend on the lanes only, which are
        # named by a small int (the first 4096 distinct tiles) or by themselves (any after those)
        key: object = _TILE_KEYS.get(lanes_)
        if key is None:
            key = lanes_ if len(_TILE_KEYS) >= 4096 else _TILE_KEYS.setdefault(lanes_, len(_TILE_KEYS))
        object.__setattr__(self, "_key", key)

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

    def __getstate__(self) -> dict[str, object]:
        # the fields only: what is remembered (the hash of strings) belongs to this process
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def __hash__(self) -> int:
        # the planner keys its per-pair dicts by choices: hashed once (the fields' tuple, as the
        # generated hash would; the layout caches its own)
        try:
            return self._hash  # type: ignore[attr-defined]
        except AttributeError:
            h = hash((self.layout, self.store_instr, self.load_instr, self.store_conflicts, self.load_conflicts,
                      self.store_tile, self.load_tile, self.bitwidth))
            object.__setattr__(self, "_hash", h)
            return h

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
        return list(self._offset_tuple())

    def _offset_tuple(self) -> tuple[int, ...]:
        """:meth:`offset_bases` as the tuple read once (the planner asks for both sides of every
        choice)."""
        got: tuple[int, ...] | None = self.__dict__.get("_offsets")
        if got is None:
            lay = self.layout
            got = self.__dict__["_offsets"] = lay.flat_bases("vector") + lay.flat_bases("bank") + lay.flat_bases("segment")
        return got


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


#: A candidate's offset bits but the bank bits: (vector, segment and reps as chosen, segment, reps)
_Groups = tuple[list[int], list[int], list[int], list[int]]

#: the unit vectors of GF(2)^dim, lowest first, per dim
_UNITS = [tuple(1 << b for b in range(dim)) for dim in range(65)]


def _segment_len(dim: int, bitwidth: int, n_vector: int) -> int:
    """How many segment (and reps) bits a swizzle with ``n_vector`` vector bits has: the bank bits
    fill a 1024-bit line of words."""
    word = (1 << n_vector) * bitwidth
    len_b = min(max((1024 // word).bit_length() - 1, 0) if word <= 1024 else 0, dim - n_vector)
    return dim - len_b - n_vector


def _groups(
    common: frozenset[int],
    dim: int,
    len_s: int,
    vbasis: list[int],
    tile_src: Sequence[int],
    tile_dst: Sequence[int],
    leave_reps: int = 0,
    masks: tuple[int, int, int] | None = None,
) -> _Groups:
    """The offset bits of a swizzle but the bank bits: ``(vector, segment and reps as chosen,
    segment, reps)`` (the bank bits complete them; see :func:`_layout_of`), with ``len_s``
    segment and reps bits (:func:`_segment_len`).  ``common``: the register vectors of both sides
    (segment bits among them are reps, but ``leave_reps`` of them).  The segment bits are
    :func:`_compute_segment`'s for the bank bits ``vbasis + tile_*``.  ``masks``: the vector bits
    and the two tiles as masks, when every vector is a unit vector (or zero): the unused units
    and those of one tile only are read from them."""
    if masks is None:
        units = _UNITS[dim] if dim < 65 else [1 << b for b in range(dim)]
        used = {*vbasis, *tile_src, *tile_dst}
        sbasis = [u for u in units if u not in used]
    else:  # the lowest ``len_s`` unused bits (all of them when there are fewer)
        vbm, st, ld = masks
        free = ((1 << dim) - 1) & ~(vbm | st | ld)
        sbasis = []
        n = len_s
        while free and n:
            low = free & -free
            sbasis.append(low)
            free ^= low
            n -= 1
    if len(sbasis) > len_s:
        del sbasis[len_s:]
    elif len(sbasis) < len_s:  # too few unused unit vectors: XOR pairs of one side's and the other's
        if masks is None:
            vs, ss, sd = set(vbasis), set(tile_src), set(tile_dst)
            only_s, only_d = ss - vs - sd, sd - vs - ss
            only_s.discard(0)
            only_d.discard(0)
            a, b = sorted(only_s), sorted(only_d)
        else:
            a, b = _bits(st & ~(vbm | ld)), _bits(ld & ~(vbm | st))
        if len(a) > len(b):
            a, b = b, a
        log_conflicts = min(max(0, len_s - len(a) - len(sbasis)), len(a))
        sbasis += [a[i] ^ b[i] for i in range(log_conflicts, len(a))]
        sbasis += a[:log_conflicts]
        sbasis += b[:log_conflicts]
        del sbasis[len_s:]
    if common.isdisjoint(sbasis):
        return vbasis, sbasis, list(sbasis), []
    segment, reps = [], []
    for s in sbasis:
        if s in common:
            if leave_reps > 0:
                leave_reps -= 1
                segment.append(s)
            else:
                reps.append(s)
        else:
            segment.append(s)
    return vbasis, sbasis, segment, reps


def _unit_vectors(vs: Sequence[int]) -> bool:
    """Whether every vector of ``vs`` is a unit vector or zero.

        >>> _unit_vectors([1, 8, 0]), _unit_vectors([1, 6])
        (True, False)
    """
    for v in vs:
        if v & (v - 1):
            return False
    return True


def _bits(m: int) -> list[int]:
    """The set bits of ``m`` as values, lowest first.

        >>> _bits(0b1010)
        [2, 8]
    """
    out = []
    while m:
        low = m & -m
        out.append(low)
        m ^= low
    return out


def _conflicts(segment: Sequence[int], tile_src: Sequence[int], tile_dst: Sequence[int], units: bool = False) -> tuple[int, int]:
    """``side_bank_conflicts(segment, tile)`` of both tiles of a swizzle from :func:`_groups`:
    2**dim(span(segment) ∩ span(tile)) - 1.

    ``units``: every vector of the vector bits and the tiles is a unit vector (or zero).  Then
    the segment bits are unused unit vectors (no tile has them), raw tile vectors of one side
    only, and XOR pairs of one such vector of each side (:func:`_compute_segment`); a
    combination with a pair has the other side's vector of the pair, which nothing else in the
    segment has, so a tile's meet with the segment is spanned by the raw vectors of that tile.
    Otherwise the segment's span is reduced once for both tiles: the dimension is rank(tile)
    less what the tile adds to the segment's span, the segment's unit vectors taken out by
    masking their bits off (the quotient by their span), the rest by elimination."""
    if units:
        return (1 << len(set(tile_src).intersection(segment))) - 1, (1 << len(set(tile_dst).intersection(segment))) - 1
    mask = 0
    rest = []
    for s in segment:
        if s & (s - 1):
            rest.append(s)
        else:
            mask |= s
    keep = ~mask
    lead: dict[int, int] = {}  # leading bit length -> vector, of the rest with the unit bits off
    for v in rest:
        echelon_insert(lead, v & keep)
    out = [(1 << masked_meet_dim(tile, keep, lead)) - 1 for tile in (tile_src, tile_dst)]
    return out[0], out[1]


def _layout_of(groups: _Groups, dim: int, outs: tuple[tuple[str, int], ...]) -> LinearLayout:
    """The shared layout of :func:`_groups`' offset bits, the bank bits the unit vectors that
    complete them (flat ints below ``2**dim``; ``outs`` the out-dims as ``out_dims.items()``)."""
    return _layout_and_coords(groups, dim, outs)[0]


#: what :func:`_layout_and_coords` says of a shared layout whose coordinates are read off masks:
#: (its vector bits, its reps bits, its out-dims as ``out_dims.items()``)
_UnitCoords = tuple[int, int, tuple[tuple[str, int], ...]]


def _layout_and_coords(groups: _Groups, dim: int, outs: tuple[tuple[str, int], ...],
                       order_banks: Callable[[list[int]], list[int] | None] | None = None) -> tuple[LinearLayout, _UnitCoords | None]:
    """:func:`_layout_of`, and when its basis is made of unit vectors and XOR pairs only, in the
    shape the swizzle of unit vectors gives (:func:`_groups`), the masks its coordinates are read
    from; else None.

    The shape: the vector and reps bits are unit vectors, every other offset bit is a unit
    vector or a pair ``lo ^ hi`` of two, the lowest bits of all of them distinct and no ``hi``
    among them.  Then the bank bits are the units that are no lowest bit (every ``hi`` among
    them), the layout is a bijection, and a unit vector's coordinates are its own basis bit,
    or (a pair's ``lo``) the pair's bit and its ``hi``'s bank bit: a vector's coordinates along
    the vector bits are its bits among the vector bits, along the reps bits its bits among those
    (see ``linlayout.plan._matrix_rows_fit``).  ``order_banks``: where given, the order of the
    bank bits it says (a list of their indices; None: as they are): the same basis, so the same
    coordinates along the vector and reps bits."""
    vbasis, sbasis, segment, reps = groups
    shape = _unit_shape(vbasis, sbasis, reps)
    if shape is not None:
        # the shape (what the swizzle of unit vectors gives): read off masks
        lows, vmask, rmask = shape
        bbasis = _bits(((1 << dim) - 1) & ~lows)
        coords: _UnitCoords | None = (vmask, rmask, outs)
    else:
        bbasis, coords = _banks_and_coords(vbasis, sbasis, reps, dim, outs)
    if order_banks is not None:
        order = order_banks(bbasis)
        if order is not None:
            bbasis = [bbasis[i] for i in order]
    lay = LinearLayout._make_raw(
        (("vector", tuple(vbasis)), ("bank", tuple(bbasis)), ("segment", tuple(segment)), ("reps", tuple(reps))), outs)
    # the bank bits complete the span of the others to the whole tensor: the rank is known
    lay._rank = dim
    return lay, coords


def _unit_shape(vbasis: Sequence[int], sbasis: Sequence[int], reps: Sequence[int]) -> tuple[int, int, int] | None:
    """Whether offset bits are in the shape :func:`_layout_and_coords` reads coordinates off
    masks, checked on masks: the vector and reps bits distinct unit vectors (their sum has no
    carries), every other bit a unit vector or a pair ``lo ^ hi`` of two, the lowest bits of
    the vector and segment bits distinct and none zero, no ``hi`` among them.  Then ``(the
    lowest bits, the vector bits, the reps bits)`` as masks, else None (and
    :func:`_banks_and_coords` decides: tests/test_plan_fast.py checks both agree).

        >>> _unit_shape([1], [6, 8], []), _unit_shape([1], [3], [])     # 6 = 2 ^ 4; 3 = 1 ^ 2 has lowest bit 1 twice
        ((11, 1, 0), None)
    """
    vmask = _or(vbasis)
    if vmask.bit_count() != len(vbasis) or sum(vbasis) != vmask:
        return None
    lows = vmask
    his = 0
    for v in sbasis:
        lo = v & -v
        hi = v ^ lo
        if hi & (hi - 1):
            return None
        lows |= lo
        his |= hi
    if lows.bit_count() != len(vbasis) + len(sbasis) or his & lows:
        return None
    rmask = _or(reps)
    if rmask.bit_count() != len(reps) or sum(reps) != rmask:
        return None
    return lows, vmask, rmask


def _banks_and_coords(vbasis: list[int], sbasis: list[int], reps: list[int], dim: int,
                      outs: tuple[tuple[str, int], ...]) -> tuple[list[int], _UnitCoords | None]:
    """The bank bits of :func:`_layout_and_coords` (the units completing the vector and segment
    bits) and its coordinate masks (None unless in its shape), for any offset bits."""
    vecs = vbasis + sbasis
    lows = functools.reduce(operator.or_, vecs, 0)
    if lows.bit_count() == len(vecs) and sum(vecs) == lows and 0 not in vecs:
        # distinct unit vectors: disjoint (the sum has no carries), none zero, as many bits as vectors
        odd = 0
    else:
        lows = odd = 0  # odd: the bits of the vectors but their lowest
        for v in vecs:
            lows |= v & -v
            odd |= v & (v - 1)
    coords: _UnitCoords | None = None
    if lows.bit_count() == len(vecs):
        # distinct lowest bits (none zero): already an echelon form on them, the pivots
        # unit_complement finds (the other units, lowest first)
        bbasis = _bits(((1 << dim) - 1) & ~lows)
        if not odd:  # unit vectors only
            coords = (_or(vbasis), _or(reps), outs)
        else:
            vmask = rmask = odd = 0  # odd: the bits of vector and reps bits that are no unit vector
            for v in vbasis:
                vmask |= v
                odd |= v & (v - 1)
            for v in reps:
                rmask |= v
                odd |= v & (v - 1)
            if not odd:
                for v in sbasis:
                    hi = v & (v - 1)
                    if hi and (hi & (hi - 1) or hi & lows):
                        break
                else:
                    coords = (vmask, rmask, outs)
    else:
        bbasis = unit_complement(vecs, dim)
    return bbasis, coords


def _choice_of(groups: _Groups, dim: int, outs: tuple[tuple[str, int], ...], store: str, load: str, w: int, r: int,
               tile_s: Sequence[int], tile_d: Sequence[int], bitwidth: int,
               order_banks: Callable[[list[int]], list[int] | None] | None = None) -> SwizzleChoice:
    """The :class:`SwizzleChoice` of :func:`_groups`' offset bits (its layout :func:`_layout_of`),
    remembering the masks its coordinates are read from where there are such
    (:func:`_layout_and_coords`; read by the planner as ``choice._unit_coords``)."""
    lay, coords = _layout_and_coords(groups, dim, outs, order_banks)
    # the frozen dataclass's fields written in place (what its __init__ does, one attribute
    # at a time through object.__setattr__): the search's own values, already of their types
    choice = object.__new__(SwizzleChoice)
    d = choice.__dict__
    d["layout"] = lay
    d["store_instr"] = store
    d["load_instr"] = load
    d["store_conflicts"] = w
    d["load_conflicts"] = r
    d["store_tile"] = tuple(tile_s)
    d["load_tile"] = tuple(tile_d)
    d["bitwidth"] = bitwidth
    if coords is not None:
        d["_unit_coords"] = coords
    # the offset bits (vector, bank, segment), as :meth:`SwizzleChoice._offset_tuple` reads them
    ins = lay._ins
    d["_offsets"] = ins[0][1] + ins[1][1] + ins[2][1]
    return choice


def _choice_unit_images(choice: SwizzleChoice) -> dict[int, int] | None:
    """The coordinates of each unit vector (and 0) in the basis of ``choice.layout`` (its vector,
    bank, segment, reps bits in that order: bit ``i`` is basis ``i``), read off the shape of a
    basis of unit vectors and XOR pairs (:func:`_layout_and_coords`: a unit is its own basis bit,
    or a pair's lowest bit, whose coordinates are the pair's bit and its other bit's) without
    solving; None for a choice without that shape.  What ``linlayout.banks`` solves for a buffer.

        >>> c = _choice_of(([1], [6], [6], []), 3, (("dim0", 8),), "st.shared", "ld.shared", 0, 0, [], [], 32)
        >>> c.layout.flat_bases("bank"), _choice_unit_images(c)   # 2 = 6 ^ 4
        ((4,), {1: 1, 4: 2, 2: 6, 0: 0})
    """
    if "_unit_coords" not in choice.__dict__:
        return None
    # the layout's stored in-dims are (vector, bank, segment, reps), in that order (_layout_and_coords)
    (_, v0), (_, v1), (_, v2), (_, v3) = choice.layout._ins
    every = v0 + v1 + v2 + v3
    if len(every) > len(_POWERS):
        return None
    out = dict(zip(every, _POWERS))
    for v in v2:  # pairs lo ^ hi (hi: a bank bit) are segment bits only
        if v & (v - 1):
            lo = v & -v
            out[lo] = out.pop(v) ^ out[v ^ lo]
    out[0] = 0
    return out


#: 1, 2, 4, .. (basis i's coordinates)
_POWERS = tuple(1 << i for i in range(65))


def _after_bank0(regs: Sequence[int], vb: Sequence[int], other_lane: frozenset[int], extra_max: int) -> list[int]:
    """Registers beyond ``vb`` that are lanes on the other side (at most ``extra_max``)."""
    vec: list[int] = []
    for r in regs:
        if r in vb:
            continue
        if r in other_lane:
            vec.append(r)
        if len(vec) >= extra_max:
            break
    return vec


def _fill(regs: Sequence[int], vb: Sequence[int], per_bank: int) -> list[int]:
    """``vb`` topped up with ``regs`` to ``per_bank`` vector bits (a bank word)."""
    return list(vb) + list(regs[len(vb):min(per_bank, len(regs))])


def _vbasis(reg_src: Sequence[int], reg_dst: Sequence[int], lane_src: frozenset[int], lane_dst: frozenset[int],
            common: Sequence[int], bitwidth: int) -> list[int]:
    """The vector bases of plain ``ld/st.shared``: ``common`` (a basis of the registers both sides
    hold, in ``reg_src``'s order) cut to 128 bits, topped up to a bank word and with registers that
    are lanes on the other side."""
    max_vec = (128 // bitwidth).bit_length() - 1 if bitwidth <= 128 else 0
    vbasis = list(common[:max_vec])
    per_bank = 0 if bitwidth > 32 else (32 // bitwidth).bit_length() - 1
    extra_max = (128 // max(bitwidth, 32)).bit_length() - 1
    vec_src = True
    if (1 << len(vbasis)) * bitwidth < 32:
        n = len(vbasis)
        src_prefix = n <= len(reg_src) and list(reg_src[:n]) == vbasis
        dst_prefix = n <= len(reg_dst) and list(reg_dst[:n]) == vbasis
        if vbasis and not src_prefix and not dst_prefix:
            reg_src = vbasis + [r for r in reg_src if r not in vbasis]
            reg_dst = vbasis + [r for r in reg_dst if r not in vbasis]
            src_prefix = dst_prefix = True
        if src_prefix and dst_prefix:
            vs = _after_bank0(reg_src, _fill(reg_src, vbasis, per_bank), lane_dst, extra_max)
            vd = _after_bank0(reg_dst, _fill(reg_dst, vbasis, per_bank), lane_src, extra_max)
            src_prefix = len(vs) >= len(vd)
        vec_src = src_prefix
        vbasis = _fill(reg_src if vec_src else reg_dst, vbasis, per_bank)
    if vec_src:
        return vbasis + _after_bank0(reg_src, vbasis, lane_dst, extra_max)
    return vbasis + _after_bank0(reg_dst, vbasis, lane_src, extra_max)


def _ldst_tiles(src: _Side, dst: _Side, bitwidth: int, vbasis: Sequence[int]) -> tuple[list[int], list[int]]:
    """The wavefront tiles of plain ``ld/st.shared``: each side's lanes but the vector bits, less
    the last lanes where a side's vector (its registers that begin ``vbasis``) is wider than a
    bank word."""
    vset = set(vbasis)
    tiles = []
    for side in (src, dst):
        vs = 0  # the length of the common prefix of the side's registers and ``vbasis``
        for r, v in zip(side.regs, vbasis):
            if r != v:
                break
            vs += 1
        lanes = side.lanes
        bits = (1 << vs) * bitwidth
        if bits > 32:
            drop = (bits // 32).bit_length() - 1
            if drop:
                lanes = lanes[: len(lanes) - drop]
        tiles.append([t for t in lanes if t not in vset])
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


def _sides(src: LinearLayout, dst: LinearLayout) -> tuple[_Side, _Side]:
    """The facts of both sides of a round trip (:func:`_prepare`: ``dst``'s out-dims in ``src``'s
    order, no broadcast registers)."""
    s, d = _side_of(src), _side_of(dst)
    if s.outs != d.outs:
        src, dst = _prepare(src, dst)
        s, d = _side_of(src), _side_of(dst)
    return s, d


def _common_registers(a: _Side, b: _Side) -> list[int]:
    """``intersection_basis`` of the two sides' registers (in ``a``'s order)."""
    if a.unit_regs and b.unit_regs:  # intersection_basis's answer for unit vectors, without its test
        common = b.reg_set
        return [v for v in a.regs if v in common]
    return intersection_basis(a.regs, b.regs, a.dim)


def optimal_swizzle_ldst(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> SwizzleChoice:
    """The shared layout for plain ``st.shared`` / ``ld.shared`` (no matrix instructions).

        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
        >>> optimal_swizzle_ldst(s, s, 32).store_conflicts
        0
    """
    s, d = _sides(src, dst)
    return _ldst_choice(s, d, bitwidth, _common_registers(s, d))


def _ldst_choice(src: _Side, dst: _Side, bitwidth: int, common: Sequence[int],
                 common_set: frozenset[int] | None = None) -> SwizzleChoice:
    """:func:`optimal_swizzle_ldst` of two sides; ``common``: their common register basis,
    ``common_set``: the register vectors both hold (when the caller has them)."""
    vbasis = _vbasis(src.regs, dst.regs, src.lane_set, dst.lane_set, common, bitwidth)
    tile_src, tile_dst = _ldst_tiles(src, dst, bitwidth, vbasis)
    units = src.units and dst.units
    # every vector a unit vector: the groups read the unused units off masks (distinct units: sums)
    masks = (sum(set(vbasis)), sum(set(tile_src)), sum(set(tile_dst))) if units else None
    groups = _groups(src.reg_set & dst.reg_set if common_set is None else common_set, src.dim,
                     _segment_len(src.dim, bitwidth, len(vbasis)), vbasis, tile_src, tile_dst, 0, masks)
    w, r = _conflicts(groups[2], tile_src, tile_dst, units)
    return _choice_of(groups, src.dim, src.outs, "st.shared", "ld.shared", w, r, tile_src, tile_dst, bitwidth)


def _vbasis_39(src: _Side, dst: _Side, bitwidth: int, common: Sequence[int],
               block_src: frozenset[int] = frozenset()) -> tuple[list[int], bool | None]:
    """Triton 3.9's vector bases of plain ``ld/st.shared`` (``getVecBasisLdSt``) and which side
    filled the 32-bit word (True: ``src``, False: ``dst``, None: neither had to).  ``common`` (the
    registers both hold) cut to 128 bits; narrower than a word, it is topped up with the registers
    of one side that are warps of the other (the side with more, on a tie the one with the lower
    vector), then with the warps both share, then with each side's warps in turn (a ``dst`` warp
    that is one of ``block_src``, the source's block vectors in a CTA cluster, left out), and cut
    to a word.  Unlike :func:`_vbasis`, no register that is only one side's past the word.

        >>> s = _Side(LinearLayout.from_flat({"register": [1, 2], "lane": [4, 8], "warp": [16]}, [("dim0", 32)]))
        >>> d = _Side(LinearLayout.from_flat({"register": [1, 16], "lane": [4, 8], "warp": [2]}, [("dim0", 32)]))
        >>> _vbasis_39(s, d, 8, [1])      # i8: (1) is 8 bits; register 2 of src is a warp of dst
        ([1, 2], True)
    """
    vbasis = list(common[:(128 // bitwidth).bit_length() - 1])
    if (1 << len(vbasis)) * bitwidth >= 32:
        return vbasis, None
    per_bank = (32 // bitwidth).bit_length() - 1
    warp_src = [v for v in src.layout.flat_bases("warp") if v]
    warp_dst = [v for v in dst.layout.flat_bases("warp") if v]
    reg_warp_src = intersection_basis([r for r in src.regs if r not in vbasis], warp_dst, src.dim)
    reg_warp_dst = intersection_basis([r for r in dst.regs if r not in vbasis], warp_src, src.dim)
    if len(reg_warp_src) == len(reg_warp_dst) and reg_warp_src:
        src_fills = min(reg_warp_src) < min(reg_warp_dst)
    else:
        src_fills = len(reg_warp_src) > len(reg_warp_dst)
    vbasis += reg_warp_src if src_fills else reg_warp_dst
    if len(vbasis) < per_bank:
        vbasis += intersection_basis(warp_src, warp_dst, src.dim)
    i = 0
    while len(vbasis) < per_bank and (i < len(warp_src) or i < len(warp_dst)):
        if i < len(warp_src) and warp_src[i] not in vbasis:
            vbasis.append(warp_src[i])
        if len(vbasis) < per_bank and i < len(warp_dst) and warp_dst[i] not in vbasis and warp_dst[i] not in block_src:
            vbasis.append(warp_dst[i])
        i += 1
    return vbasis[:per_bank], src_fills


def ldst_choice_39(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> SwizzleChoice:
    """Triton 3.9's shared layout for plain ``st.shared`` / ``ld.shared`` where no pair of access
    tiles vectorises 128 bits (``optimalSwizzlingLdSt``): the vector of :func:`_vbasis_39`, each
    side's lanes but the last ``log2`` (vector words) as its wavefront tile, the segment and bank
    bits as in :func:`optimal_swizzle_ldst`; and, where the vector is narrower than 64 bits, the
    bank bits that are registers of the side that filled the word (else of the side with more of
    them) moved first, so that side's accesses may vectorise over them.

        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
        >>> d = LinearLayout({"register": [[32]], "lane": [[1], [2], [4], [8], [16]]}, {"dim0": 64})
        >>> c = ldst_choice_39(s, d, 32)
        >>> c.vector, c.layout.flat_bases("bank")[:1]     # no common register: no vector; a tie, dst's register first
        ((), (32,))
    """
    s, d = _sides(src, dst)
    return _ldst_choice_39(s, d, max(bitwidth, 8), _common_registers(s, d), s.reg_set & d.reg_set)


def cluster_ldst_scratch_elems_39(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> int:
    """The elements of one CTA's buffer of Triton 3.9's plain ``ld/st.shared`` swizzle of a round
    trip in a CTA cluster (``getNumScratchElemsSwizzledCvt`` over ``optimalSwizzlingLdSt`` of the
    whole-tensor layouts ``src`` and ``dst``, ``block`` in-dims kept): the vector of
    :func:`_vbasis_39`, each side's lanes but the last ``log2`` (vector words) as its tile, then
    :func:`cluster_choice_elems`.

        >>> s = LinearLayout.from_flat({"register": [1], "lane": [2, 4, 8, 16, 32], "block": [64]}, [("dim0", 128)])
        >>> d = LinearLayout.from_flat({"register": [64], "lane": [1, 2, 4, 8, 16], "block": [32]}, [("dim0", 128)])
        >>> cluster_ldst_scratch_elems_39(s, d, 32)   # 128 elements, each of the 2 CTAs holds 64
        64
    """
    s, d = _sides(src, dst)
    bw = max(bitwidth, 8)
    vbasis, _, tile_src, tile_dst, _ = _parts_39(s, d, bw, _common_registers(s, d), frozenset(_block_vectors(s)))
    return _cluster_elems(s, d, bw, vbasis, tile_src, tile_dst)


def cluster_choice_elems(search: SwizzleSearch, choice: SwizzleChoice) -> int:
    """The elements of one CTA's buffer that Triton 3.9 allocates for the swizzle ``choice`` of
    ``search`` (a round trip in a CTA cluster whose sides keep their ``block`` in-dim), as
    ``optimalSwizzling`` builds it there: the same vector and access tiles, but the source's
    nonzero block vectors are neither bank nor segment bits (the buffer's own ``block`` in-dim:
    ``computeSegment`` counts them among both sides' bank bits), so the segment -- and the
    registers of both sides among it, the reps -- are chosen from the rest; the buffer over the
    whole tensor, less its reps, is shared by the source's CTA parts (2^rank of its block
    vectors).  With no block vector: the one-CTA buffer less its reps.

        >>> s = LinearLayout.from_flat({"register": [1], "lane": [2, 4, 8, 16, 32], "block": [64]}, [("dim0", 128)])
        >>> search = SwizzleSearch(s, s, 32)
        >>> cluster_choice_elems(search, search.ldst())   # each CTA's 64 elements
        64
    """
    s, d = search.sides
    return _cluster_elems(s, d, search.bitwidth, list(choice.layout.flat_bases("vector")), list(choice.store_tile),
                          list(choice.load_tile))


def _block_vectors(s: _Side) -> list[int]:
    return [v for v in s.layout.flat_bases("block") if v] if "block" in s.layout.in_dim_names else []


def _cluster_elems(s: _Side, d: _Side, bw: int, vbasis: list[int], tile_src: list[int], tile_dst: list[int]) -> int:
    block = _block_vectors(s)
    len_s = _segment_len(s.dim - len(block), bw, len(vbasis))
    segment = _compute_segment(vbasis + tile_src + block, vbasis + tile_dst + block, s.dim, len_s)
    reps = sum(1 for v in segment if v in s.reg_set and v in d.reg_set)
    return (1 << s.dim) >> (reps + rank(block))


def _ldst_choice_39(s: _Side, d: _Side, bw: int, common: Sequence[int], common_set: frozenset[int]) -> SwizzleChoice:
    """:func:`ldst_choice_39` of two sides (``bw``: at least 8); ``common``: their common
    register basis (:func:`_common_registers`), ``common_set``: the register vectors both hold
    (what a swizzle search has already: :meth:`SwizzleSearch.ldst_39`)."""
    vbasis, src_fills, tile_src, tile_dst, words = _parts_39(s, d, bw, common)
    # every vector a unit vector: the groups read the unused units off masks (as _ldst_choice)
    units = s.units and d.units and _unit_vectors(vbasis)
    masks = (sum(set(vbasis)), sum(set(tile_src)), sum(set(tile_dst))) if units else None
    groups = _groups(common_set, s.dim, _segment_len(s.dim, bw, len(vbasis)), vbasis, tile_src, tile_dst, 0, masks)
    w, r = _conflicts(groups[2], tile_src, tile_dst, units)
    # narrower than 64 bits: the bank bits in :func:`_bank_order_39`'s order (the same basis,
    # so still a bijection, its coordinates along the vector and reps bits unchanged)
    order = (lambda banks: _bank_order_39(banks, s, d, src_fills)) if words < 2 else None
    return _choice_of(groups, s.dim, s.outs, "st.shared", "ld.shared", w, r, tile_src, tile_dst, bw, order)


def _parts_39(s: _Side, d: _Side, bw: int, common: Sequence[int],
              block_src: frozenset[int] = frozenset()) -> tuple[list[int], bool | None, list[int], list[int], int]:
    """What :func:`ldst_choice_39` builds its swizzle from: the vector bases and which side
    filled the word (:func:`_vbasis_39`; ``common``: the sides' common register basis;
    ``block_src``: the source's block vectors in a CTA cluster), each side's wavefront tile and
    log2 of the vector's 32-bit words."""
    vbasis, src_fills = _vbasis_39(s, d, bw, common, block_src)
    words = (max(1, (1 << len(vbasis)) * bw // 32)).bit_length() - 1
    return vbasis, src_fills, list(s.lanes[:s.n_lanes - words]), list(d.lanes[:d.n_lanes - words]), words


def _bank_order_39(banks: Sequence[int], s: _Side, d: _Side, src_fills: bool | None) -> list[int] | None:
    """:func:`ldst_choice_39`'s order of the bank bits ``banks`` (where its vector is narrower
    than 64 bits): those that are registers of the side that filled the word (else of the side
    with more of them) first; None when that is their order already."""
    if src_fills is None:
        in_src = [i for i, b in enumerate(banks) if b in s.reg_set]
        in_dst = [i for i, b in enumerate(banks) if b in d.reg_set]
        first = in_src if len(in_src) > len(in_dst) else in_dst
    else:  # only the side that filled the word is read
        regs = s.reg_set if src_fills else d.reg_set
        first = [i for i, b in enumerate(banks) if b in regs]
    if first == list(range(len(first))):
        return None
    return first + [i for i in range(len(banks)) if i not in first]


class _Side:
    """The facts of one side a swizzle search reads again and again (flat bases, computed once):
    of ``layout`` without its broadcast registers."""

    __slots__ = ("layout", "regs", "reg_set", "unit_regs", "units", "lanes", "lane_set", "n_lanes", "zero_lanes", "dim", "outs",
                 "reg_or", "warp_or", "thread_or", "perm", "_usable", "_addr")

    def __init__(self, layout: LinearLayout):
        self.layout = layout = remove_broadcast_registers(layout)
        self.regs = layout.flat_bases("register")
        self.reg_set = frozenset(self.regs)
        self.unit_regs = all(v > 0 and v & (v - 1) == 0 for v in self.regs)
        self.lanes = layout.flat_bases("lane")
        self.lane_set = frozenset(self.lanes)
        self.n_lanes = len(self.lanes)
        #: bit i: lane 2**i is broadcast (a zero basis)
        self.zero_lanes = sum(1 << i for i, v in enumerate(self.lanes) if not v)
        #: every register and lane basis is a unit vector (or a zero lane)
        self.units = self.unit_regs and all(v & (v - 1) == 0 for v in self.lanes)
        self.dim = layout.total_out_size_log2
        self.outs = tuple(layout.out_dims.items())
        #: the OR of the register bases, of the warp bases, and of every basis but the registers'
        #: (what a thread's index moves)
        self.reg_or = _or(self.regs)
        self.warp_or = _or(layout.flat_bases("warp"))
        self.thread_or = _or(v for d in layout.in_dim_names if d != "register" for v in layout.flat_bases(d))
        #: every basis (all in-dims) is a distinct unit vector, each unit once: a permutation of
        #: the bits, so that the map from another layout's index to this one's sends each of its
        #: bases to the basis of this layout equal to it
        every = [v for d in layout.in_dim_names for v in layout.flat_bases(d)]
        self.perm = (len(every) == self.dim and _or(every) == (1 << self.dim) - 1
                     and all(v & (v - 1) == 0 for v in every))
        self._usable: dict[object, bool] = {}
        self._addr: dict[object, tuple[tuple[int, ...], int] | None] = {}

    def usable(self, tile: MemOpTile) -> bool:
        """Whether this side's lanes can serve ``tile``'s contiguous lanes (they exist and none is
        broadcast): where not, :meth:`SwizzleSearch._candidate` refuses every pair with the tile
        on this side."""
        key = tile._key  # type: ignore[attr-defined]
        got = self._usable.get(key)
        if got is None:
            got = self._usable[key] = all(i < self.n_lanes and self.lanes[i] != 0 for i in tile.lane_contig)
        return got

    def addr(self, tile: MemOpTile) -> tuple[tuple[int, ...], int] | None:
        """This side's lanes that give ``tile``'s row addresses and their OR, or None when it has
        too few lanes (remembered per tile)."""
        key = tile._key  # type: ignore[attr-defined]
        got = self._addr.get(key, _MISSING)
        if got is _MISSING:
            if any(i >= self.n_lanes for i in tile.lane_addr):
                got = None
            else:
                vs = tuple(self.lanes[i] for i in tile.lane_addr)
                got = (vs, _or(vs))
            self._addr[key] = got
        return got  # type: ignore[return-value]


@functools.lru_cache(maxsize=4096)
def _side_of(L: LinearLayout) -> _Side:
    """:class:`_Side` of ``L``, remembered per layout (only read by the searches)."""
    return _Side(L)


@functools.lru_cache(maxsize=4096)
def _bijection_solver(L: LinearLayout) -> tuple[dict[int, int], tuple[int, int], tuple[int, int]] | None:
    """For a bijective layout with ``register`` and ``lane`` dims: the combination of its columns
    (in-dims in order, bit ``k`` flat column ``k``) that gives each unit vector (and 0), and where
    the register and lane bits sit in a combination; None otherwise.  A fact of one layout,
    remembered (cost matrices search each layout against many others)."""
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
    units = {0: 0}
    for b in range(L.total_out_size_log2):
        units[1 << b] = basis.reduce(1 << b)[1]
    return units, at["register"], at["lane"]




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
            col = images_over_units(units, f)
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
    """Forget the per-layout facts the swizzle search remembers (for benchmarks), and the fit
    tests of pairs of instruction tiles."""
    _bijection_solver.cache_clear()
    _column_span.cache_clear()
    _side_of.cache_clear()
    _PAIR_PLANS.clear()


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
_Candidate = tuple[_Groups, list[int], list[int], int, int]

_MISSING = object()


def _low_bits(m: int, k: int) -> int:
    """The ``k`` lowest set bits of ``m`` (all of them when it has fewer).

        >>> _low_bits(0b101101, 2), _low_bits(0b100, 3)
        (5, 4)
    """
    out = 0
    for _ in range(k):
        low = m & -m
        if not low:
            break
        out |= low
        m ^= low
    return out


def _rank_of_masks(vbm: int, st: int, ld: int, full: int, len_s: int, common: int, leave: int) -> tuple[int, int, int]:
    """``(store conflicts, load conflicts, rounds' bits)`` of the swizzle :func:`_groups` and
    :func:`_conflicts` give when every vector is a unit vector (or zero), counted on masks: the
    vector bits ``vbm``, the store and load tiles ``st`` and ``ld``, every bit ``full``,
    ``len_s`` segment bits, the registers of both sides ``common``.

    The segment bits are the lowest ``len_s`` unused units when there are that many; else every
    unused unit, then XOR pairs of a unit of one tile only (``a``: the side with fewer) and one
    of the other, then, when there is room, the ``lc`` lowest raw units of each.  XOR pairs are
    never registers; units of ``common`` are rounds, but the first ``leave`` of them in segment
    order.  A side's conflicts are its raw units left in the segment (see :func:`_conflicts`).

        >>> _rank_of_masks(1, 2 | 4, 8 | 4, 15, 3, 0, 0)   # raw units 2 and 8: one conflict each
        (1, 1, 0)
    """
    leave = max(leave, 0)
    free = full & ~(vbm | st | ld)
    n_free = free.bit_count()
    if n_free >= len_s:  # unused units only: no conflicts
        k = (_low_bits(free, len_s) & common).bit_count()
        return 0, 0, k - min(k, leave)
    a_bits, b_bits = st & ~(vbm | ld), ld & ~(vbm | st)
    na, nb = a_bits.bit_count(), b_bits.bit_count()
    swapped = na > nb
    if swapped:
        a_bits, b_bits, na, nb = b_bits, a_bits, nb, na
    lc = min(max(0, len_s - n_free - na), na)
    k = (free & common).bit_count()
    if not lc:  # every unused unit and XOR pairs: no conflicts
        return 0, 0, k - min(k, leave)
    a_raw, b_raw = _low_bits(a_bits, lc), _low_bits(b_bits, lc)
    ka, kb = (a_raw & common).bit_count(), (b_raw & common).bit_count()
    left = max(leave - k, 0)  # the raw units of ``common`` left as segment bits: a's first
    keep_a = min(left, ka)
    keep_b = min(left - keep_a, kb)
    dims_a, dims_b = lc - ka + keep_a, lc - kb + keep_b
    if swapped:
        dims_a, dims_b = dims_b, dims_a
    total = k + ka + kb
    return (1 << dims_a) - 1, (1 << dims_b) - 1, total - min(total, leave)


_PairPlan = tuple[int, int, int, int, int, tuple[int, ...], tuple[tuple[int, int], ...], tuple[int, ...], int]
#: per (store tile, load tile, log2 of the elements of a 128-bit access): :func:`_pair_plan`
_PAIR_PLANS: dict[int, dict[tuple[object, object], _PairPlan | None]] = {}


def _pair_plan(ts: MemOpTile, td: MemOpTile, total: int) -> _PairPlan | None:
    """What decides whether storing with ``ts`` and loading with ``td`` fits a pair of layouts
    (facts of the tiles only), or None when it never does (a tile takes more than ``2**total``
    elements).  The side with more vector registers is ``a`` (side ``first``: 0 the store side),
    the other ``b``; the pair fits when

    * both sides have ``max_lane`` + 1 lanes, and none of the lanes ``mask_a`` of ``a`` and
      ``mask_b`` of ``b`` (the tiles' contiguous lanes) is broadcast;
    * the two sides have ``n_reg_b`` common registers and the map from ``b``'s hardware index to
      ``a``'s exists;
    * it sends ``b``'s lanes ``reg_need`` (indices) to something with a register part, and each
      ``(i, lane)`` of ``lane_need`` sends ``b``'s lane ``2**i`` to exactly that lane of ``a``.

    The vector bases are then the first ``n_reg_b`` common registers and ``b``'s lanes ``lanes_b``;
    ``leave`` segment bits that could be rounds stay segment bits.
    """
    n_s = total - len(ts.lane_contig)
    n_d = total - len(td.lane_contig)
    if n_s < 0 or n_d < 0:
        return None
    if n_s < n_d:
        first, n_reg_a, n_reg_b, lanes_a, lanes_b = 1, n_d, n_s, td.lane_contig, ts.lane_contig
    else:
        first, n_reg_a, n_reg_b, lanes_a, lanes_b = 0, n_s, n_d, ts.lane_contig, td.lane_contig
    max_lane = max(lanes_a + lanes_b, default=-1)
    mask_a = sum(1 << i for i in set(lanes_a))
    mask_b = sum(1 << i for i in set(lanes_b))
    reg_need = lanes_b[:n_reg_a - n_reg_b]
    tail = lanes_b[len(lanes_b) - len(lanes_a):] if lanes_a else ()
    lane_need = tuple((ib, 1 << ia) for ia, ib in zip(lanes_a, tail))
    leave = min(len(ts.lane_contig) + len(ts.lane_addr) - 3, len(td.lane_contig) + len(td.lane_addr) - 3)
    return first, n_reg_b, max_lane, mask_a, mask_b, reg_need, lane_need, lanes_b, leave


class SwizzleSearch:
    """The swizzle search of one round trip, remembered: every (store tile, load tile) candidate
    is built at most once, so that a planner asking for the best pair with and without matrix
    instructions, and for plain ``ld/st.shared``, pays for each candidate once.  A candidate is
    ranked on flat ints; only the winner's layout is built.

    ``conversion`` may give the map from ``dst``'s hardware index to ``src``'s
    (``dst.invert_and_compose(src)``) when the caller has it already.

        >>> src = LinearLayout({"register": [[0, 1]], "lane": [[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]],
        ...                     "warp": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 64})
        >>> search = SwizzleSearch(src, src, 16)
        >>> search.best([LD_ST_SHARED, LD_ST_MATRIX], [LD_ST_SHARED]) == search.best([LD_ST_SHARED], [LD_ST_SHARED])
        True
    """

    __slots__ = ("src", "dst", "bitwidth", "sides", "dim", "_total", "_len_s", "_common", "_units", "_max_reps", "_vb", "_cvt", "_ok", "_cols",
                 "_full_mask", "_common_mask", "_cands", "_recs", "_fulls", "_tiles", "_ldst")

    def __init__(self, src: LinearLayout, dst: LinearLayout, bitwidth: int, *, conversion: LinearLayout | None = None):
        if bitwidth < 1 or bitwidth > 128 or bitwidth & (bitwidth - 1):
            raise SizeError(f"optimal_swizzle: bitwidth must be a power of two in [1, 128], got {bitwidth}")
        self.bitwidth = bw = max(bitwidth, 8)
        s, d = self.sides = _sides(src, dst)
        self.src, self.dst = s.layout, d.layout
        self.dim = s.dim
        self._total = (128 // bw).bit_length() - 1  # log2 of the elements of a 128-bit access
        # the segment bits of a candidate (all have ``_total`` vector bits)
        self._len_s = _segment_len(self.dim, bw, self._total)
        #: the register vectors both sides hold (segment bits among them can be rounds)
        self._common = common = s.reg_set & d.reg_set
        #: the most rounds a candidate can have, plus its vector registers and the reps it leaves
        #: as segment bits: its reps are distinct vectors of ``common`` but those when every
        #: basis is a unit vector (the segment bits are then distinct, its common vector
        #: registers among ``common``), else at most its segment bits (fewer than ``dim`` less
        #: the 128-bit access's vector bits, no fewer than its vector registers)
        self._units = s.units and d.units
        self._max_reps = len(common) if self._units else self.dim
        # per direction ``first`` (0: the map from dst's hardware index to src's, 1: the reverse)
        self._vb: list[list[int] | None] = [None, None]
        self._cvt: dict[int, LinearLayout | None] = {} if conversion is None else {0: conversion}
        self._ok: list[bool | None] = [None, None]
        self._cols: list[tuple[tuple[int, ...], int, int, int, int] | None] = [None, None]
        self._cands: dict[tuple[object, object, str, str], SwizzleChoice | None] = {}
        self._recs: dict[tuple[object, object], tuple[int, int, int] | None] = {}
        self._fulls: dict[tuple[object, object], _Candidate | None] = {}
        #: per ranked pair of unit vectors: the reps it leaves and its vector bits and access tiles (see :meth:`_ranked`)
        self._tiles: dict[tuple[object, object], tuple[int, tuple[list[int], int, list[int], list[int], int, int]]] = {}
        # for the ranks on masks: every bit, the common registers
        self._full_mask = (1 << self.dim) - 1
        self._common_mask = sum(common)
        self._ldst: SwizzleChoice | None = None

    # ------------------------------------------------------------------ facts of the pair, on first use

    def common_registers(self, first: int) -> list[int]:
        """A basis of span(regs of side ``first``) ∩ span(regs of the other), in ``first``'s order."""
        vb = self._vb[first]
        if vb is None:
            vb = self._vb[first] = _common_registers(self.sides[first], self.sides[1 - first])
        return vb

    def convertible(self, first: int) -> bool:
        """Whether :meth:`conversion` exists (always, when side ``first`` is bijective)."""
        ok = self._ok[first]
        if ok is None:
            ok = self._ok[first] = (first not in self._cvt and (_bijection_solver(self.sides[first].layout) is not None
                                                                 or self._read_lane_cols(first) is not None)) \
                or self.conversion(first) is not None
        return ok

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

    def lane_image(self, first: int, i: int) -> tuple[int, int]:
        """The register and lane parts of :meth:`conversion` ``(first)`` at the other side's lane
        ``2**i`` (which must exist; so must the map, see :meth:`convertible`)."""
        cols, reg_field, lane_field, reg_at, lane_at = self._lane_cols(first)
        return (cols[i] & reg_field) >> reg_at, (cols[i] & lane_field) >> lane_at

    def _lane_cols(self, first: int) -> tuple[tuple[int, ...], int, int, int, int]:
        """:meth:`conversion` ``(first)`` at every lane ``2**i`` of the other side, as flat ints over
        side ``first``'s in-dims, and where their register and lane parts sit: ``(columns,
        register field, lane field, register shift, lane shift)``.  A bijective side ``first``
        has one solution: it is read from that layout's remembered span instead of solving the
        whole map.  Computed once per search (the candidates read the same lanes)."""
        got = self._cols[first]
        if got is not None:
            return got
        cvt = self._cvt.get(first)
        if cvt is None:
            solver = _bijection_solver(self.sides[first].layout)
            if solver is not None:
                units, (reg_at, reg_mask), (lane_at, lane_mask) = solver
                out = self._cols[first] = (tuple(images_over_units(units, self.sides[1 - first].lanes)),
                                           reg_mask << reg_at, lane_mask << lane_at, reg_at, lane_at)
                return out
            read = self._read_lane_cols(first)
            if read is not None:
                return read
            cvt = self.conversion(first)
            assert cvt is not None  # the caller checked convertible()
        at = 0
        where = {}
        for n, size in cvt.out_dims.items():
            k = size.bit_length() - 1
            where[n] = (at, (1 << k) - 1)
            at += k
        if "register" not in where or "lane" not in where:  # not reached by the planner's layouts
            cvt.get_basis("lane", 0, "register")  # raises: the out-dim is missing
            cvt.get_basis("lane", 0, "lane")
        (reg_at, reg_mask), (lane_at, lane_mask) = where["register"], where["lane"]
        out = self._cols[first] = (cvt.flat_bases("lane"), reg_mask << reg_at, lane_mask << lane_at, reg_at, lane_at)
        return out

    def _read_lane_cols(self, first: int) -> tuple[tuple[int, ...], int, int, int, int] | None:
        """:meth:`_lane_cols` read off remembered facts of side ``first`` where it reaches every
        element (then the map exists, and its lane columns are the other side's lanes written
        over side ``first``'s columns, or the identity where Triton's broadcasting heuristic keeps
        the lane dim: see :func:`conversion_map`), without building the map; None otherwise."""
        got = self._cols[first]
        if got is not None:
            return got
        a, b = self.sides[first].layout, self.sides[1 - first].layout
        sa, sb = _map_side(a), _map_side(b)
        if sa.outs != sb.outs or "lane" not in sa.flat or "lane" not in sb.flat or "register" not in sa.flat:
            return None
        units = _source_units(sa, a)
        if units is None:
            return None
        fa, fb = sa.flat["lane"], sb.flat["lane"]
        if fa == fb and sa.support["lane"] & (sa.others["lane"] | sb.others["lane"]) == 0:
            cols = sa.identity["lane"]
        else:
            cols = tuple(images_over_units(units, fb))
        at = 0
        where = {}
        for n, f in sa.items:
            where[n] = at
            at += len(f)
        reg_at, lane_at = where["register"], where["lane"]
        got = self._cols[first] = (cols, ((1 << len(sa.flat["register"])) - 1) << reg_at, ((1 << len(fa)) - 1) << lane_at,
                                   reg_at, lane_at)
        return got

    # ------------------------------------------------------------------ candidates

    def _plan(self, ts: MemOpTile, td: MemOpTile) -> _PairPlan | None:
        """:func:`_pair_plan` of the two tiles at this element width (remembered for all searches)."""
        plans = _PAIR_PLANS.get(self._total)
        if plans is None:
            plans = _PAIR_PLANS[self._total] = {}
        key = (ts._key, td._key)  # type: ignore[attr-defined]
        if key in plans:
            return plans[key]
        if len(plans) >= 4096:
            plans.clear()
        plan = plans[key] = _pair_plan(ts, td, self._total)
        return plan

    def _fit(self, ts: MemOpTile, td: MemOpTile) -> _PairPlan | None:
        """The pair's :func:`_pair_plan` when its tiles' lanes fit both layouts and the conversion
        between them (all but the instruction tiles' registers and address lanes), else None."""
        return self._fits(self._plan(ts, td))

    def _fits(self, plan: _PairPlan | None) -> _PairPlan | None:
        """:meth:`_fit` of a pair whose :meth:`_plan` is ``plan``."""
        if plan is None:
            return None
        first, n_reg_b, max_lane, mask_a, mask_b, reg_need, lane_need, _, _ = plan
        sides = self.sides
        a, b = sides[first], sides[1 - first]
        # the tests of the sides' lanes first (a broadcast lane fails most pairs), then the pair's
        if max_lane >= a.n_lanes or max_lane >= b.n_lanes or mask_a & a.zero_lanes or mask_b & b.zero_lanes:
            return None
        vb = self._vb[first]
        if vb is None:
            vb = self.common_registers(first)
        if len(vb) < n_reg_b or not self.convertible(first):
            return None
        if (reg_need or lane_need) and not self._columns_fit(first, reg_need, lane_need):
            return None
        return plan

    def _columns_fit(self, first: int, reg_need: Sequence[int], lane_need: Sequence[tuple[int, int]]) -> bool:
        """Whether the conversion (it maps b's hardware index to a's: b(x) == a(cvt(x))) sends
        each of b's bases ``reg_need`` into a's registers and each ``(ib, want)`` of ``lane_need``
        onto a's lane ``want``: read off its lane columns (:meth:`_lane_cols`)."""
        got = self._cols[first]
        cols, reg_field, lane_field, _, lane_at = got if got is not None else self._lane_cols(first)
        for i in reg_need:
            if not cols[i] & reg_field:
                return False
        for ib, want in lane_need:
            if cols[ib] & lane_field != want << lane_at:
                return False
        return True

    def _candidate(self, ts: MemOpTile, td: MemOpTile) -> _Candidate | None:
        """The offset groups of a pair's swizzle, its access tiles and their bank conflicts (its
        layout not yet built); None when the pair's access tiles do not fit the layouts."""
        key = (ts._key, td._key)  # type: ignore[attr-defined]
        got = self._fulls.get(key, _MISSING)
        if got is not _MISSING:
            return got  # type: ignore[return-value]
        full: _Candidate | None = None
        if self._units and self._len_s >= 0:
            # the tiles and counts of the pair's rank (every vector a unit vector)
            rec = self._recs.get(key, _MISSING)
            ranked = self._ranked(ts, td, key, self._plan(ts, td)) if rec is _MISSING else cast("tuple[int, int, int] | None", rec)
            if ranked is not None:
                leave, (vb, vbm, tile_s, tile_d, st, ld) = self._tiles[key]
                groups = _groups(self._common, self.dim, self._len_s, vb, tile_s, tile_d, leave, (vbm, st, ld))
                full = groups, tile_s, tile_d, ranked[0], ranked[1]
            self._fulls[key] = full
            return full
        plan = self._fit(ts, td)
        if plan is not None:
            first, n_reg_b, lanes_b, leave = plan[0], plan[1], plan[7], plan[8]
            b_lanes = self.sides[1 - first].lanes
            vb = self.common_registers(first)[:n_reg_b] + [b_lanes[i] for i in lanes_b]
            s_side, d_side = self.sides
            t_s = _instr_tile(ts, s_side.regs, s_side.lanes, vb)
            t_d = None if t_s is None else _instr_tile(td, d_side.regs, d_side.lanes, vb)
            if t_s is not None and t_d is not None:
                groups = _groups(self._common, self.dim, self._len_s, vb, t_s, t_d, leave)
                w, r = _conflicts(groups[2], t_s, t_d, self._units)
                full = groups, t_s, t_d, w, r
        self._fulls[key] = full
        return full

    def _rank(self, ts: MemOpTile, td: MemOpTile) -> tuple[int, int, int] | None:
        """What ranks a pair: its store and load bank conflicts and its rounds' bits (None when
        it does not fit), remembered (by the tiles' lanes: nothing else enters it).  With unit
        vectors only, counted on bit masks (:func:`_rank_of_masks`) without building the pair's
        offset groups."""
        key = (ts._key, td._key)  # type: ignore[attr-defined]
        rec = self._recs.get(key, _MISSING)
        if rec is not _MISSING:
            return rec  # type: ignore[return-value]
        return self._ranked(ts, td, key, self._plan(ts, td))

    def _ranked(self, ts: MemOpTile, td: MemOpTile, key: tuple[object, object], plan: _PairPlan | None) -> tuple[int, int, int] | None:
        """:meth:`_rank` of a pair not ranked yet (``key``: its tiles' keys; ``plan``: its
        :meth:`_plan`).  With unit vectors only: :meth:`_fits` (the sides' lanes first), the
        vector bits and the two access tiles (:func:`_instr_tile`), each also as a mask, kept
        for the offset groups, and :func:`_rank_of_masks`, in one pass over flat ints."""
        out: tuple[int, int, int] | None = None
        if not (self._units and self._len_s >= 0):
            full = self._candidate(ts, td)
            out = None if full is None else (full[3], full[4], len(full[0][3]))
            self._recs[key] = out
            return out
        self._recs[key] = None  # unless it fits
        if plan is None:
            return None
        first, n_reg_b, max_lane, mask_a, mask_b, reg_need, lane_need, lanes_b, leave = plan
        sides = self.sides
        s_side, d_side = sides
        a, b = (s_side, d_side) if first == 0 else (d_side, s_side)
        if max_lane >= a.n_lanes or max_lane >= b.n_lanes or mask_a & a.zero_lanes or mask_b & b.zero_lanes:
            return None
        common = self._vb[first]
        if common is None:
            common = self.common_registers(first)
        if len(common) < n_reg_b:
            return None
        if a.perm:  # the map sends b's lane 2**i to the basis of a equal to it (a bijection: it exists)
            b_lanes = b.lanes
            for i in reg_need:
                if b_lanes[i] not in a.reg_set:
                    return None
            for ib, want in lane_need:
                if b_lanes[ib] != a.lanes[want.bit_length() - 1]:
                    return None
        elif not (self._ok[first] or self.convertible(first)):
            return None
        elif (reg_need or lane_need) and not self._columns_fit(first, reg_need, lane_need):
            return None
        # the vector bits: the first common registers and b's lanes ``lanes_b``
        vb = common[:n_reg_b]
        vbm = 0
        for v in vb:
            vbm |= v
        b_lanes = b.lanes
        for i in lanes_b:
            v = b_lanes[i]
            vb.append(v)
            vbm |= v
        # each side's access tile: registers outside the vector bits where its instruction has
        # fewer than 3 address lanes, then those lanes (their OR remembered per side and tile)
        tiles: list[list[int]] = []
        bits: list[int] = []
        for tile, side in ((ts, s_side), (td, d_side)):
            addr = side.addr(tile)
            if addr is None:
                return None
            need = 3 - len(tile.lane_addr)
            if need:
                t: list[int] = []
                m = 0
                for r in side.regs:
                    if not r & vbm:
                        t.append(r)
                        m |= r
                        if len(t) == need:
                            break
                else:
                    return None
                t += addr[0]
                tiles.append(t)
                bits.append(m | addr[1])
            else:
                tiles.append(list(addr[0]))
                bits.append(addr[1])
        st, ld = bits
        self._tiles[key] = (leave, (vb, vbm, tiles[0], tiles[1], st, ld))
        out = self._recs[key] = _rank_of_masks(vbm, st, ld, self._full_mask, self._len_s, self._common_mask, leave)
        return out

    def candidate(self, ts: MemOpTile, td: MemOpTile) -> SwizzleChoice | None:
        """The swizzle for storing with ``ts`` and loading with ``td``, or None when the pair's
        access tiles do not fit the layouts."""
        # equal tiles: equal lanes (their key) and names
        key = (ts._key, td._key, ts.store_name, td.load_name)  # type: ignore[attr-defined]
        got = self._cands.get(key, _MISSING)
        if got is not _MISSING:
            return got  # type: ignore[return-value]
        rec = self._candidate(ts, td)
        if rec is None:
            choice = None
        else:
            groups, tile_s, tile_d, w, r = rec
            choice = _choice_of(groups, self.dim, self.sides[0].outs, ts.store_name, td.load_name, w, r, tile_s, tile_d, self.bitwidth)
        self._cands[key] = choice
        return choice

    def ldst(self) -> SwizzleChoice:
        """:func:`optimal_swizzle_ldst` of the two sides."""
        if self._ldst is None:
            s, d = self.sides
            self._ldst = _ldst_choice(s, d, self.bitwidth, self.common_registers(0), self._common)
        return self._ldst

    def ldst_39(self) -> SwizzleChoice:
        """:func:`ldst_choice_39` of the two sides (a new choice each call), from the facts the
        search has read."""
        s, d = self.sides
        return _ldst_choice_39(s, d, self.bitwidth, self.common_registers(0), self._common)

    def best(self, src_tiles: Sequence[MemOpTile], dst_tiles: Sequence[MemOpTile]) -> SwizzleChoice:
        """:func:`optimal_swizzle` over these candidate tiles."""
        pair = self.best_pair(src_tiles, dst_tiles)
        if pair is None:
            return self.ldst()
        choice = self.candidate(*pair)
        assert choice is not None
        return choice

    def vectorises(self, ts: MemOpTile, td: MemOpTile) -> bool:
        """Whether the pair of access tiles ``ts`` / ``td`` fits both sides and vectorises 128
        bits (:meth:`best` over this one pair builds its swizzle; else it falls back to
        :meth:`ldst`), ranked once (remembered with the others)."""
        s_side, d_side = self.sides
        if not s_side.usable(ts) or not d_side.usable(td):
            return False
        key = (ts._key, td._key)  # type: ignore[attr-defined]
        rec = self._recs.get(key, _MISSING)
        if rec is _MISSING:
            plans = _PAIR_PLANS.get(self._total, {})
            rec = self._ranked(ts, td, key, plans[key] if key in plans else self._plan(ts, td))
        return rec is not None

    def best_pair(self, src_tiles: Sequence[MemOpTile], dst_tiles: Sequence[MemOpTile]) -> tuple[MemOpTile, MemOpTile] | None:
        """The (store tile, load tile) pair :meth:`best` builds its swizzle for, or None where it
        falls back to plain ``ld/st.shared`` (:meth:`ldst`: no pair of these tiles vectorises
        128 bits); ranked without building a layout."""
        best_ts = best_td = None
        best_w = best_r = 0
        s_side, d_side = self.sides
        d_ok = [td for td in dst_tiles if d_side.usable(td)]
        top = self._max_reps
        recs = self._recs
        plans = _PAIR_PLANS.get(self._total, {})
        for ts in src_tiles:
            if not d_ok or not s_side.usable(ts):
                continue
            ks = ts._key  # type: ignore[attr-defined]
            for td in d_ok:
                key = (ks, td._key)  # type: ignore[attr-defined]
                rec = recs.get(key, _MISSING)
                if rec is _MISSING:
                    plan = plans[key] if key in plans else self._plan(ts, td)
                    # a conflict-free pair so far: only more rounds beat it, and this pair's
                    # rounds are distinct common registers but its vector registers and those it
                    # leaves as segment bits (the first of equals wins)
                    if best_w == 0 and best_ts is not None and (plan is None or top - plan[1] - plan[8] <= best_r):
                        continue
                    rec = self._ranked(ts, td, key, plan)
                if rec is None:
                    continue
                # fewest conflicts, then most rounds (the layout is built for the winner only)
                w, r = rec[0] + rec[1], rec[2]  # type: ignore[index]
                if best_ts is None or w < best_w or (w == best_w and r > best_r):
                    best_ts, best_td, best_w, best_r = ts, td, w, r
        if best_ts is None or best_td is None:
            return None
        return best_ts, best_td


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
