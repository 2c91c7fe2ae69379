"""The price of a shared-memory round trip through one swizzle.

A round trip (:mod:`linlayout.plan`: ``shared_memory`` and ``cross_cta``) stores one side's
registers to a swizzled buffer (a :class:`~linlayout.plan_smem.SwizzleChoice`, found by the search
of :mod:`linlayout.plan_smem`), waits at a barrier and loads the other side's back.  This module
prices one such trip: the vector width and instruction count of each side (:func:`_trip_counts`;
:func:`_side_vector`, or Triton 3.9's stricter :func:`_aligned_vector` with
``strategy="triton"``; ``"best"`` narrows a conflicting side's vector where that costs less),
the bank conflicts each side executes on the chosen buffer (the hardware's count,
:func:`linlayout.banks.hardware_conflicts` of its :func:`_side_rows`, read through the buffer's
inverse :func:`_buffer_inverse`: what :func:`linlayout.simulate.simulate` counts, for ld/st and
matrix sides alike; not Triton's model, which Triton chooses with), and the cost
(:class:`_Price`, under :func:`linlayout.cost._round_trip_price`; a store phase whose lanes all
hold copies is predicated off, :func:`linlayout.cost._store_phases`).  A :class:`_Price`
counts conflicts lazily: ``bound`` is a lower bound of the cost until both sides are counted,
which lets the planner's race (:mod:`linlayout.plan`) drop a swizzle without counting it.  The
per-layout facts a price reads (:func:`_side_facts`) are remembered; :func:`clear_price_caches`
forgets them (part of :func:`linlayout.plan.clear_caches`).  What it reads of a pair's buffer
(:func:`_buffer_inverse`, :func:`_coordinates`) is kept on the call's choice, read once.

Layers: below :mod:`linlayout.plan` (which races the prices and builds the plan of the winner),
above :mod:`linlayout.plan_sides` (what a side is), :mod:`linlayout.plan_smem` (the swizzle),
:mod:`linlayout.banks` (the conflict counts) and :mod:`linlayout.cost` (the weights).

A round trip of 4 warps, 32-bit elements: each thread stores its 2 registers as one 64-bit vector
(2 wavefronts) and loads them back as two 32-bit ones (1 each); the swizzle leaves neither side
with a bank conflict, so the price is 4 wavefronts and one ``bar.sync`` (weight 2).  The bound
before any conflict is counted is already the cost: no conflict is found.

    >>> from linlayout import LinearLayout
    >>> from linlayout.plan_smem import optimal_swizzle
    >>> src = LinearLayout({"register": [[0, 1]], "lane": [[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]],
    ...                     "warp": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 64})
    >>> dst = LinearLayout({"register": [[1, 0]], "lane": [[2, 0], [0, 1], [0, 2], [0, 4], [0, 8]],
    ...                     "warp": [[0, 16], [0, 32]]}, {"dim0": 4, "dim1": 64})
    >>> choice = optimal_swizzle(src, dst, 32)
    >>> price = _Price(_TripKind(src, dst, _side_facts(src), _side_facts(dst), 32, "bar.sync", "barrier"), choice)
    >>> price.exact, price.bound
    (False, 6.0)
    >>> price.conflicts(), price.exact
    ((0, 0), True)
    >>> (price.sv, price.lv, price.stores, price.loads, price.bars), price.cost()
    ((2, 1, 1, 2, 1), 6.0)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from . import gf2
from .banks import _unit_images_of
from .banks import _hardware_conflicts
from .cost import _free_lanes, _round_trip_price, _store_phases, _wavefronts
from .linear import LinearLayout
from .plan_sides import _cta_local
from .plan_smem import SwizzleChoice, _choice_unit_images


def _n_regs(L: LinearLayout) -> int:
    return 1 << L.in_dim_size_log2("register")


class _SideFacts(NamedTuple):
    """What pricing a round trip reads of one side ``L`` (remembered per layout: a cost matrix
    prices each layout against many others)."""

    #: registers per thread
    n_regs: int
    #: the nonzero register bases (flat)
    reg_set: frozenset[int]
    #: the out-dims (name, size), in order (the flat bases pack them so)
    outs: tuple[tuple[str, int], ...]
    #: the flat nonzero register, lane and other (warp) bases within one CTA, in that order (the
    #: rows :func:`_side_rows` reads are among them), and how many registers and lanes
    bank: tuple[int, ...]
    bank_regs: int
    bank_lanes: int
    #: the lane bits that hold only copies (free variables of ``L``, those of the plan's source
    #: layout): a store predicates those lanes off (:func:`linlayout.cost._store_phases`)
    free_lanes: int


@functools.lru_cache(maxsize=4096)
def _side_facts(L: LinearLayout) -> _SideFacts:
    """:class:`_SideFacts` of ``L``."""
    C = _cta_local(L)
    regs = tuple(v for v in C.flat_bases("register") if v)
    lanes = C.flat_bases("lane")
    others = tuple(v for d in C.in_dim_names if d not in ("register", "lane") for v in C.flat_bases(d))
    return _SideFacts(_n_regs(L), frozenset(v for v in L.flat_bases("register") if v), tuple(L.out_dims.items()),
                      regs + lanes + others, len(regs), len(lanes), _free_lanes(L))


def _side_vector(choice: SwizzleChoice, side: _SideFacts, instr: str, bitwidth: int, reps: int,
                 offsets: Sequence[int] | None = None) -> int:
    """The vector width (elements) of one side's accesses with ``instr`` in a round trip through
    ``choice`` (``reps``: its rounds; ``offsets``: ``choice.offset_bases()``, when the caller
    has read them)."""
    max_elems = max(128 // bitwidth, 1)
    if "matrix" in instr:
        # one .x4 (or .x2/.x1) covers registers of one round only: the repetitions are registers
        return min(max_elems, max(side.n_regs // reps, 1))
    regs = side.reg_set
    k = 0
    for v in choice.offset_bases() if offsets is None else offsets:
        if v in regs and (2 << k) <= max_elems:
            k += 1
        else:
            break
    return 1 << k


def _aligned_vector(choice: SwizzleChoice, L: LinearLayout, bitwidth: int) -> int:
    """The elements of one ``ld/st.shared`` of the side ``L`` through ``choice`` as Triton 3.9
    lowers it (``largestVectorisation``: the register-to-offset map divided on the left by an
    identity tile): the most, up to 128 bits, such that registers sit at the offsets 1, 2, 4, ...
    of the vector and no other basis of ``L`` (register, lane, warp) moves those offset bits.
    Stricter than :func:`_side_vector`, which also counts a vector whose elements a lane's XOR
    swizzle permutes within it (a thread renames its registers).

        >>> lay = LinearLayout({"vector": [], "bank": [[1], [2]], "segment": [[12], [4]], "reps": []}, {"dim0": 16})
        >>> c = SwizzleChoice(lay, "st.shared", "ld.shared", 0, 0, (), (), 32)
        >>> L = LinearLayout({"register": [[1], [2]], "lane": [[4], [8]]}, {"dim0": 16})
        >>> _aligned_vector(c, L, 32), _side_vector(c, _side_facts(L), "st.shared", 32, 1)
        (4, 4)
        >>> M = LinearLayout({"register": [[1], [2]], "lane": [[5], [8]]}, {"dim0": 16})   # lane 1 moves offset bit 0
        >>> _aligned_vector(c, M, 32), _side_vector(c, _side_facts(M), "st.shared", 32, 1)
        (1, 4)
    """
    solve = _coordinates(choice)
    regs = [solve(v) for v in L.flat_bases("register") if v]
    others = [solve(v) for d in L.in_dim_names if d != "register" for v in L.flat_bases(d) if v]
    max_k = max(128 // bitwidth, 1).bit_length() - 1
    k = 0
    while k < max_k and (1 << k) in regs:
        low = (1 << (k + 1)) - 1
        if any(c is None or c & low for c in others) or any(c is None or (c & low and (c & (c - 1) or c > low)) for c in regs):
            break
        k += 1
    return 1 << k


class _TripKind(NamedTuple):
    """What every :class:`_Price` of one trip and kind reads: the two sides and their facts, the
    element bits (at least 8), the barrier instruction and its cost-model key."""

    sa: LinearLayout
    sb: LinearLayout
    fa: _SideFacts
    fb: _SideFacts
    bw: int
    bar: str
    key: str
    #: Triton 3.9's ``ld/st.shared`` vectors (:func:`_aligned_vector`: ``strategy="triton"``)
    aligned: bool = False
    #: a conflicting plain side may take a narrower vector (``strategy="best"``; Triton's
    #: vectors are its lowering's, whatever their conflicts)
    narrow: bool = False


class _Price:
    """What pricing a round trip through one swizzle found (one per trip, kind and swizzle: the
    race, :attr:`~linlayout.plan.Plan.rejected` and the plan read it): the vector widths (elements) and
    instruction counts per thread of its two sides, its barriers, the bank conflicts of its sides
    counted so far (``w`` / ``r``; None while not counted, a matrix side keeps the search's
    estimate) and ``bound``: the cost those give with the uncounted sides conflict-free, a lower
    bound of the plan's cost (counting conflicts only adds wavefronts), its cost once both are
    counted (:attr:`exact`)."""

    __slots__ = ("choice", "sides", "facts", "sv", "lv", "stores", "loads", "reps", "bars", "bar", "_waves", "_key", "_inv",
                 "w", "r", "bound", "plan", "_bw", "_narrow")

    def __init__(self, tk: _TripKind, choice: SwizzleChoice):
        self.choice, self.sides, self.facts = choice, (tk.sa, tk.sb), (tk.fa, tk.fb)
        bw = tk.bw
        self.reps = reps = choice.reps
        self.sv, self.lv, self.stores, self.loads = sv, lv, stores, loads = _trip_counts(choice, tk.fa, tk.fb, bw, reps,
                                                                                           (tk.sa, tk.sb) if tk.aligned else None)
        self._bw, self._narrow = bw, tk.narrow and not tk.aligned
        self.bars = 2 * reps - 1
        self.bar, self._key = tk.bar, tk.key
        # the conflict-free wavefronts of each side (conflicts multiply them)
        st_waves = _wavefronts(choice.store_instr, sv * bw, 0)
        if tk.fa.free_lanes and "matrix" not in choice.store_instr:  # lanes of copies store nothing
            st_waves = _store_phases(st_waves, tk.fa.free_lanes)
        self._waves = (stores * st_waves, loads * _wavefronts(choice.load_instr, lv * bw, 0))
        self.w: int | None = None
        self.r: int | None = None
        #: the buffer's :func:`_buffer_inverse`, once read (False: not yet)
        self._inv: tuple[dict[int, int], tuple[tuple[str, int], ...], int] | None | bool = False
        self.bound = self._floor()
        #: the :class:`~linlayout.plan.Plan` built from it (:meth:`linlayout.plan._Trip.round_trip`;
        #: typed loosely, as this module sits below :mod:`linlayout.plan`)
        self.plan: Any = None

    @property
    def exact(self) -> bool:
        """Whether both sides are counted: ``bound`` is the cost of the plan."""
        return self.w is not None and self.r is not None

    def _floor(self) -> float:
        st, ld = self._waves
        return _round_trip_price(st * (1 + (self.w or 0)) + ld * (1 + (self.r or 0)), self.bars, self._key)

    def refine(self) -> None:
        """Count one more side's bank conflicts (the stores first) and raise ``bound`` to what
        they give."""
        if self.w is None:
            self.w = self._count(0)
        else:
            self.r = self._count(1)
        self.bound = self._floor()

    def _count(self, i: int) -> int:
        """The bank conflicts the hardware executes on side ``i`` (0: the stores), each lane moving
        the side's executed vector: what :func:`linlayout.simulate.simulate` counts, wavefront by
        wavefront (:func:`linlayout.banks.hardware_conflicts` of :func:`_side_rows`; a side whose
        rows cannot be read keeps the search's estimate), the buffer's inverse read once for both
        sides.  Not Triton's model (:func:`linlayout.banks.bank_conflicts`), which Triton chooses
        with: that splits the offset by elements and misses sub-word conflicts, and it counts
        Triton's widest vector, not the one the side executes.  A plain ``ld/st.shared`` side of ``strategy="best"`` (not Triton's
        lowering, whose vectors are its own) that has conflicts takes the narrower vector that
        costs the fewest wavefronts, if one does (a narrower vector is served in other phases:
        e.g. a 128-bit access whose lanes 8 apart share a bank conflicts, a 64-bit one need not);
        its vector, instruction count and conflict-free wavefronts change with it."""
        if self._inv is False:
            self._inv = _buffer_inverse(self.choice)
        choice, side = self.choice, self.facts[i]
        instr = choice.store_instr if i == 0 else choice.load_instr
        rows = _side_rows(choice, instr, side, self._inv, self.reps)
        if rows is None:
            return choice.store_conflicts if i == 0 else choice.load_conflicts
        images, n_off = rows
        bw = self._bw
        v = self.sv if i == 0 else self.lv
        matrix = "matrix" in instr
        c = _hardware_conflicts(images, v, bw, n_off, matrix=matrix)
        if not c or not self._narrow or matrix:
            return c
        n = side.n_regs
        waves = self._waves[i]
        cost, best = waves * (1 + c), (v, c, waves)
        u = v >> 1
        while u:
            # its conflict-free wavefronts (no fewer as u narrows: its phases are picked by fewer lane bits)
            floor = max(1, n // u) * max(u * bw // 32, 1)
            if i == 0 and side.free_lanes:
                floor = max(1, n // u) * _store_phases(max(u * bw // 32, 1), side.free_lanes)
            if floor >= cost:
                break
            cu = _hardware_conflicts(images, u, bw, n_off)
            if floor * (1 + cu) < cost:
                cost, best = floor * (1 + cu), (u, cu, floor)
            u >>= 1
        if best[0] != v:
            v, c, waves = best
            if i == 0:
                self.sv, self.stores, self._waves = v, max(1, n // v), (waves, self._waves[1])
            else:
                self.lv, self.loads, self._waves = v, max(1, n // v), (self._waves[0], waves)
        return c

    def conflicts(self) -> tuple[int, int]:
        """The bank conflicts of the store and the load side, both counted."""
        while self.w is None or self.r is None:
            self.refine()
        return self.w, self.r

    def cost(self) -> float:
        """The cost of the plan (both sides counted)."""
        self.conflicts()
        return self.bound


def _trip_counts(choice: SwizzleChoice, fa: _SideFacts, fb: _SideFacts, bw: int, reps: int,
                 aligned: tuple[LinearLayout, LinearLayout] | None = None) -> tuple[int, int, int, int]:
    """Store and load vector widths (elements) and instruction counts per thread of a round trip
    through ``choice`` (``reps``: its rounds) between the sides ``fa`` and ``fb``; ``aligned``:
    the two sides' layouts, whose ``ld/st.shared`` vectors are then Triton 3.9's
    (:func:`_aligned_vector`, ``strategy="triton"``)."""
    st, ld = choice.store_instr, choice.load_instr
    # the offset bits, read once for both sides (only a plain ld/st.shared side reads them)
    offs = None if "matrix" in st and "matrix" in ld else choice._offset_tuple()
    if aligned is not None and "matrix" not in st:
        sv = _aligned_vector(choice, aligned[0], bw)
    else:
        sv = _side_vector(choice, fa, st, bw, reps, offs)
    if aligned is not None and "matrix" not in ld:
        lv = _aligned_vector(choice, aligned[1], bw)
    else:
        lv = _side_vector(choice, fb, ld, bw, reps, offs)
    return sv, lv, max(1, fa.n_regs // sv), max(1, fb.n_regs // lv)


def _buffer_inverse(choice: SwizzleChoice) -> tuple[dict[int, int], tuple[tuple[str, int], ...], int] | None:
    """What :func:`_side_rows` reads of the buffer of ``choice``: the offset of each unit vector
    (read off the search's shape where it has one, :func:`~linlayout.plan_smem._choice_unit_images`,
    else :func:`linlayout.banks._unit_images_of` its offset bases), its out-dims and its log2
    size; None unless it is a bijection (the fast count takes no other).  Read once per choice
    (the store and the load side, the vectors and the plan ask for it) and kept on the choice:
    a fact of the pair's buffer, gone with the call's choice."""
    memo = choice.__dict__
    got: tuple[dict[int, int], tuple[tuple[str, int], ...], int] | None = memo.get("_inverse", _MISSING)
    if got is _MISSING:
        lay = choice.layout
        known = _choice_unit_images(choice)
        if known is not None:  # the search's shape: a bijection (its unit images are keyed by every unit and 0)
            got = (known, lay._outs, len(known) - 1)
        else:
            offsets = _buffer_bases(lay)
            inv = _unit_images_of(offsets) if len(offsets) == lay.total_out_size_log2 else None
            got = None if inv is None else (inv, tuple(lay.out_dims.items()), len(offsets))
        memo["_inverse"] = got
    return got


_MISSING = object()


def _side_rows(choice: SwizzleChoice, instr: str, side: _SideFacts, fast: Any = False,
               reps: int = 0) -> tuple[list[int], int] | None:
    """What :func:`linlayout.banks.hardware_conflicts` reads of one side (``side``, accessed with
    ``instr``) of a round trip through ``choice``: the buffer indices of its lanes (of a matrix
    side, of the three vectors that pick a matrix's 8 rows: lanes 2-4, or for ``.trans`` the
    register of a word's second half and lanes 0-1; see :mod:`linlayout.simulate`) and the
    buffer's offset bits (log2 of one round's elements); None where a vector lies outside the
    buffer's span.  The indices are read through the buffer's inverse ``fast``
    (:func:`_buffer_inverse`, when the caller has read it) where that is a bijection, else solved
    in its basis; ``reps``: ``choice.reps``, when the caller has read it."""
    n_regs, n_lanes = side.bank_regs, side.bank_lanes
    trans = False
    reps = reps or choice.reps
    if "matrix" not in instr:
        vecs = side.bank[n_regs:n_regs + n_lanes]
    elif n_lanes < 5:
        return None
    elif not instr.endswith(".trans"):
        vecs = side.bank[n_regs + 2:n_regs + 5]
    elif reps == 1 and n_regs:  # one round: the word's second half is register 0
        vecs = side.bank[:1] + side.bank[n_regs:n_regs + 2]
    else:
        trans = True
        vecs = side.bank[:n_regs + 2]
    lay = choice.layout
    if fast is False:
        fast = _buffer_inverse(choice)
    images: list[Any] | None = None
    if fast is not None and side.outs == fast[1]:
        units = fast[0]
        images = list(map(units.get, vecs))
        if None in images:
            try:
                images = list(gf2.images_over_units(units, vecs))
            except KeyError:
                images = None
    if images is None:
        images = list(map(_coordinates(choice), vecs))
        if None in images:  # a vector outside the buffer's span: not this buffer's side
            return None
    n_off = (lay.total_in_size_log2 if fast is None else fast[2]) - (reps.bit_length() - 1)
    if trans:  # row r: lane r // 2, the element r % 2 of its 32-bit word (a register of round 0)
        step = _round0_register(images[:n_regs], n_off)
        if step is None:
            return None
        images = [step] + images[n_regs:]
    return images, n_off


def _round0_register(images: Sequence[int], n_off: int) -> int | None:
    """The buffer index of the first register (in register order) whose element lies in round 0,
    the registers that move the round taken first and each later one reduced by them (the
    register :func:`linlayout.simulate.lower` puts in the second half of a ``.trans`` word);
    ``images``: the registers' buffer indices (the round above ``n_off`` bits)."""
    piv: dict[int, tuple[int, int]] = {}
    kernel: list[tuple[int, int]] = []
    for i in sorted(range(len(images)), key=lambda i: (images[i] >> n_off) == 0):
        img = images[i]
        r = img >> n_off
        while r:
            got = piv.get(r.bit_length())
            if got is None:
                break
            r ^= got[0]
            img ^= got[1]
        if r:
            piv[r.bit_length()] = (r, img)
        else:
            kernel.append((i, img))
    return min(kernel)[1] if kernel else None


def _buffer_bases(lay: LinearLayout) -> tuple[int, ...]:
    """The flat vector, bank, segment and reps bases of the shared layout ``lay``, in that order."""
    return lay.flat_bases("vector") + lay.flat_bases("bank") + lay.flat_bases("segment") + lay.flat_bases("reps")


def _coordinates(choice: SwizzleChoice) -> Callable[[int], int | None]:
    """The coordinates of a flat tensor vector in the basis of the shared layout of ``choice``
    (its vector, bank, segment, reps bits, in that order: bit ``i`` of the answer is basis
    ``i``), or None outside its span.  A bijective buffer (every repaired choice) reads them from
    the images of the unit vectors (:func:`_buffer_inverse`, which the bank count reads too): one
    look-up per unit vector.  Built once per choice and kept on it (a fact of the pair's buffer,
    gone with the call's choice).

        >>> lay = LinearLayout({"vector": [[1]], "bank": [[6]], "segment": [], "reps": [[4]]}, {"dim0": 8})
        >>> solve = _coordinates(SwizzleChoice(lay, "st.shared", "ld.shared", 0, 0, (), (), 32))
        >>> solve(1), solve(4), solve(2), solve(7)     # 2 = 6 ^ 4: bank and reps; 7 = 1 ^ 6 ^ 4... = 1 ^ 2 ^ 4
        (1, 4, 6, 3)
    """
    memo = choice.__dict__
    got: Callable[[int], int | None] | None = memo.get("_solve")
    if got is None:
        got = memo["_solve"] = _solver(choice)
    return got


def _solver(choice: SwizzleChoice) -> Callable[[int], int | None]:
    """:func:`_coordinates` of ``choice``, built."""
    inv = _buffer_inverse(choice)
    if inv is None:  # not a basis: solve in the span
        basis = gf2.SpanBasis()
        for u in _buffer_bases(choice.layout):
            basis.insert(u)
        return basis.express
    units = inv[0]

    def solve(v: int) -> int | None:
        got = units.get(v)
        if got is not None:
            return got
        try:
            return gf2.images_over_units(units, (v,))[0]
        except KeyError:  # outside the tensor
            return None

    return solve


def clear_price_caches() -> None:
    """Forget the per-layout facts pricing remembers (for benchmarks; part of
    :func:`linlayout.plan.clear_caches`)."""
    _side_facts.cache_clear()
