"""The in-warp exchange of a conversion: the bit permutation Triton lowers, and the shuffle schedule
the simulator executes.

A conversion whose data stays inside each warp (its minimal map has in-dims ``register`` and
``lane`` only, see :func:`linlayout.plan.minimal_conversion`) moves data with ``shfl.sync`` and
register selects instead of shared memory.  This module holds the two descriptions of that
exchange; :mod:`linlayout.plan` builds plans from them:

* the permutation of (register, lane) index bits factored as ``P_mixed ∘ P_lane ∘ P_reg``
  (Triton's ``getWarpLayoutConvertDecomposition``; :class:`WarpDecomposition`, from
  :func:`linlayout.plan.warp_decomposition`), which fixes Triton 3.9's shuffle and select counts
  (:func:`triton_shuffle_counts`);
* the *schedule* (:func:`linlayout.plan.shuffle_schedule`): per round, which register each thread
  fills from which lane's register, chosen so that a sending lane is asked for one register per
  round and whole rounds stay inside the thread where copies allow; :func:`schedule_counts` counts
  its shuffles and selects.

The work is done on flat bases (a basis is an ``int``, first out-dim in the lowest bits, as
:meth:`LinearLayout.flat_bases` gives it); the facts of one layout (its register/lane span, the
copies it holds) are remembered in bounded caches that :func:`clear_shuffle_caches` forgets
(:func:`linlayout.plan.clear_caches` calls it).  Functions with a leading underscore take layouts
the planner has normalized (in-dims ``register``, ``lane``, ``warp``, ``block`` in that order) of
one tensor (the same out-dims, in the same order).

    >>> from linlayout import LinearLayout
    >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
    >>> d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
    >>> from linlayout.plan import shuffle_schedule, warp_decomposition
    >>> warp_decomposition(s, d).mixed_transpositions   # register bit 0 <-> lane bit 4
    ((0, 4),)
    >>> schedule_counts(shuffle_schedule(s, d))        # 1 shfl and 4 selects per thread
    (1, 4)
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from . import gf2
from .checks import check_pow2, expect
from .errors import DimensionError, LayoutError, SizeError
from .linear import LinearLayout

__all__ = ["WarpDecomposition", "schedule_counts", "triton_shuffle_counts", "clear_shuffle_caches"]

#: ``(mixed transpositions, register permutation, lane permutation)`` of an in-warp conversion
Permutation = tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class WarpDecomposition:
    """The permutation of (register, lane) index bits of a within-warp conversion, factored as
    ``P = P_mixed ∘ P_lane ∘ P_reg`` (Triton's ``getWarpLayoutConvertDecomposition``).

    ``mixed_transpositions`` are the (register bit, lane bit) swaps; ``reg_perm`` / ``lane_perm``
    give, per bit, the bit it moves to; ``n_pack`` is log2 of elements packed in a 32-bit word.

        >>> dec = WarpDecomposition(((0, 4),), (0,), (0, 1, 2, 3, 4), 0)
        >>> dec.lane_perm_trivial
        True
    """

    mixed_transpositions: tuple[tuple[int, int], ...]
    reg_perm: tuple[int, ...]
    lane_perm: tuple[int, ...]
    n_pack: int

    @property
    def lane_perm_trivial(self) -> bool:
        """Whether no lane bit moves to another lane bit."""
        return all(p == i for i, p in enumerate(self.lane_perm))


def _with_packing(perm: Permutation, bitwidth: int) -> WarpDecomposition:
    """The decomposition of ``perm`` with ``n_pack`` for elements of ``bitwidth`` bits."""
    mixed, reg_perm, lane_perm = perm
    return WarpDecomposition(mixed, reg_perm, lane_perm, _n_pack(len(reg_perm) - len(mixed), bitwidth))


def _n_pack(free: int, bitwidth: int) -> int:
    """log2 of the elements of ``bitwidth`` bits packed in a 32-bit word (at most 4), at most
    ``free`` (the register bits no mixed transposition takes)."""
    n_pack_pre = (min(max(32 // max(bitwidth, 1), 1), 4)).bit_length() - 1
    return max(0, min(n_pack_pre, free))


def triton_shuffle_counts(perm: Permutation, bitwidth: int) -> tuple[int, int, int] | None:
    """``(mixed transpositions, shuffles, selects)`` per thread of Triton 3.9's in-warp lowering
    of a conversion whose bit permutation is ``perm`` (as :class:`WarpDecomposition` holds it),
    or None where Triton goes through shared memory (two or more register<->lane transpositions).

        >>> triton_shuffle_counts((((0, 4),), (0,), (0, 1, 2, 3, 4)), 32)   # one swap, 2 registers
        (1, 1, 3)
    """
    mixed, reg_perm, lane_perm = perm
    m = len(mixed)
    if m >= 2:
        return None
    n_pack = _n_pack(len(reg_perm) - m, bitwidth)
    words = (1 << len(reg_perm)) >> n_pack
    if bitwidth > 32:
        words *= bitwidth // 32
    words = max(words, 1)
    trivial = all(p == i for i, p in enumerate(lane_perm))
    if m == 1 and trivial:
        shfl = max(words // 2, 1)
        sel = (3 * words) // 2
    else:
        shfl = words - (words >> m) if trivial else words
        sel = 2 * m * words
    return m, shfl, sel


# ------------------------------------------------------------------ facts of one layout (remembered)


class _Solver:
    """Solves against fixed columns in one pass over the bits of the right-hand side.

    ``tab[k]`` is the unit vector ``1 << k`` written over the columns (the low ``width`` bits:
    pivot columns only, the solution :func:`linlayout.gf2.solve` gives) and, above them, over unit
    vectors completing the columns' span to the whole space (nonzero: ``1 << k`` is not in the
    span).  A vector is the XOR of its bits, so its solution is the XOR of their entries; it lies
    in the span exactly when nothing is left above ``width``.

        >>> s = _Solver([0b011, 0b110], 3)
        >>> s.express(0b101), s.express(0b001)      # 0b101 = col0 ^ col1; 0b001 is not reached
        (3, None)
    """

    __slots__ = ("tab", "width", "units")

    def __init__(self, columns: Sequence[int], n_bits: int):
        basis = _solver(columns)
        for k in range(n_bits):
            basis.insert(1 << k)
        self.tab = [cast(int, basis.express(1 << k)) for k in range(n_bits)]
        self.width = len(columns)
        #: ``tab`` by vector (``0`` and the unit vectors: most bases of real layouts)
        self.units = {1 << k: x for k, x in enumerate(self.tab)}
        self.units[0] = 0

    def over(self, vs: Sequence[int]) -> list[int]:
        """Each of ``vs`` written over the columns and the completing units (the columns' part
        is the low ``width`` bits; a vector is in their span exactly when nothing is above)."""
        return gf2.images_over_units(self.units, vs)

    def express(self, v: int) -> int | None:
        """The combination of the columns that XORs to ``v`` (a vector of the ``n_bits``-bit
        space), or None outside their span."""
        tab = self.tab
        x = 0
        while v:
            low = v & -v
            x ^= tab[low.bit_length() - 1]
            v ^= low
        return None if x >> self.width else x


class _Side:
    """The flat facts of one normalized layout that the in-warp exchange reads.

    ``span`` solves against the register then lane bases (in that order) and ``kernel`` holds,
    per dependent index ``j``, the combination of earlier indices holding the same element, XOR
    ``1 << j`` (an index that adds nothing: a copy).  ``regs_held`` are the nonzero register bases
    (a zero one repeats another register's element); ``independent`` the indices of the register
    bases independent of the earlier ones; ``copy_solver`` solves against the kernel's lane parts
    (which lane moves reach another copy of the same element)."""

    __slots__ = ("regs", "lanes", "regs_lanes", "warps", "blocks", "bits", "span", "kernel", "regs_held",
                 "independent", "kernel_lanes", "copy_solver", "padded")

    def __init__(self, L: LinearLayout):
        self.regs, self.lanes = L.flat_bases("register"), L.flat_bases("lane")
        self.warps, self.blocks = L.flat_bases("warp"), L.flat_bases("block")
        self.bits = L.total_out_size_log2
        basis = gf2.SpanBasis()
        kernel = []
        self.regs_lanes = self.regs + self.lanes
        for j, v in enumerate(self.regs_lanes):
            if not basis.insert(v):
                kernel.append(basis.reduce(v)[1] ^ (1 << j))  # v is in the span: another index holding the same element
        self.span, self.kernel = _Solver(self.regs_lanes, self.bits), tuple(kernel)
        self.regs_held = tuple(v for v in self.regs if v)
        indep = gf2.SpanBasis()
        self.independent = tuple(i for i, v in enumerate(self.regs) if indep.insert(v))  # the rest copy these
        nrs = len(self.regs)
        self.kernel_lanes = tuple(k >> nrs for k in self.kernel)
        self.copy_solver = _Solver(self.kernel_lanes, len(self.lanes))
        #: :class:`_Padded` per (register bits, lane bits): a few sizes per layout
        self.padded: dict[tuple[int, int], _Padded] = {}


@functools.lru_cache(maxsize=4096)
def _side(L: LinearLayout) -> _Side:
    """:class:`_Side` of ``L``, remembered per layout."""
    return _Side(L)


class _Padded:
    """A layout's held registers then lanes, each padded with zero bases to ``n_reg`` / ``n_lane``,
    as one flat tuple (index ``i``: register ``i``; ``n_reg + j``: lane ``j``), and (built on first
    use) a solver against them."""

    __slots__ = ("flat", "bits", "_solver")

    def __init__(self, s: _Side, n_reg: int, n_lane: int):
        self.flat = _padded(s.regs_held, n_reg) + _padded(s.lanes, n_lane)
        self.bits = s.bits
        self._solver: _Solver | None = None

    @property
    def solver(self) -> _Solver:
        if self._solver is None:
            self._solver = _Solver(self.flat, self.bits)
        return self._solver


def _padded_side(s: _Side, n_reg: int, n_lane: int) -> _Padded:
    """:class:`_Padded` of the layout of ``s``, remembered with ``s``."""
    got = s.padded.get((n_reg, n_lane))
    if got is None:
        got = s.padded[(n_reg, n_lane)] = _Padded(s, n_reg, n_lane)
    return got


def _padded(vs: tuple[int, ...], n: int) -> tuple[int, ...]:
    return vs + (0,) * (n - len(vs))


def clear_shuffle_caches() -> None:
    """Forget the per-layout facts this module remembers (for benchmarks)."""
    _side.cache_clear()


# ------------------------------------------------------------------------- the bit permutation


def _solver(columns: Sequence[int]) -> gf2.SpanBasis:
    """The span of ``columns`` inserted in order: its ``express(t)`` is ``gf2.solve(columns, t)``
    (one elimination for many right-hand sides)."""
    basis = gf2.SpanBasis()
    for v in columns:
        basis.insert(v)
    return basis


def _solve_all(columns: Sequence[int], targets: Sequence[int]) -> list[int | None]:
    """``gf2.solve(columns, t)`` for every ``t`` in ``targets`` (one elimination, inlined: the same
    pivot-column solutions as :class:`linlayout.gf2.SpanBasis`)."""
    lead: dict[int, tuple[int, int]] = {}  # leading bit length -> (reduced vector, combination)
    for i, v in enumerate(columns):
        c = 1 << i
        while v:
            n = v.bit_length()
            e = lead.get(n)
            if e is None:
                lead[n] = (v, c)
                break
            v ^= e[0]
            c ^= e[1]
    out: list[int | None] = []
    for v in targets:
        c = 0
        while v:
            e = lead.get(v.bit_length())
            if e is None:
                break
            v ^= e[0]
            c ^= e[1]
        out.append(None if v else c)
    return out


def _with_identity(outer: Sequence[tuple[int, ...]], inner: Sequence[tuple[int, ...]], full: list[int]) -> list[int]:
    """The flat columns of ``inner.invert_and_compose(outer)`` for two layouts given by the flat
    bases of the same in-dims (in the same order, of equal lengths) over the same out-dims, given
    ``full``: every column of ``inner`` written over all of ``outer``'s columns (bit ``k``:
    ``outer``'s flat column ``k``, the in-dims one after another; the pivot-column solution).

    That is the answer unless Triton's broadcasting heuristic applies: an in-dim whose bases are
    equal in both and whose output bits no other in-dim of either touches maps to itself, and the
    others are solved over the remaining columns.  Every column of ``inner`` must lie in
    ``outer``'s span (then those of the other dims lie in the span of the remaining columns: the
    identity dims' bits are theirs alone)."""
    identity = []
    for i, (f, g) in enumerate(zip(outer, inner)):
        if f and f == g:
            own = others = 0
            for v in f:
                own |= v
            for lay in (outer, inner):
                for j, h in enumerate(lay):
                    if j != i:
                        for v in h:
                            others |= v
            if own & others == 0:
                identity.append(i)
    if not identity:
        return full
    shifts, at = [], 0
    for f in outer:
        shifts.append(at)
        at += len(f)
    rest = [i for i in range(len(outer)) if i not in identity]
    basis = _solver([v for i in rest for v in outer[i]])
    out: list[int] = []
    for i, g in enumerate(inner):
        if i in identity:
            out.extend(1 << (shifts[i] + k) for k in range(len(g)))
            continue
        for v in g:
            x = cast(int, basis.express(v))
            y = at = 0
            for r in rest:
                n = len(outer[r])
                y |= ((x >> at) & ((1 << n) - 1)) << shifts[r]
                at += n
            out.append(y)
    return out


def _warp_permutation(a: LinearLayout, b: LinearLayout) -> Permutation:
    """The bit permutation of :func:`linlayout.plan.warp_decomposition` (which adds the packing)
    for normalized layouts of one tensor: mixed transpositions, register and lane permutations.

    Registers holding copies (zero bases) are left out of both sides, both are padded with zero
    bases to the same numbers of register and lane bits, and the source's bases are written over
    the destination's (``S.invert_and_compose(T)`` of the padded layouts ``S``, ``T``); bits where
    a side has a zero basis are free and are paired up, and the cycles of the permutation are
    walked to split it into register, lane and mixed parts."""
    sa, sb = _side(a), _side(b)
    n_reg = max(len(sa.regs_held), len(sb.regs_held))
    n_lane = max(len(sa.lanes), len(sb.lanes))
    n = n_reg + n_lane
    S = _padded_side(sa, n_reg, n_lane).flat
    pt = _padded_side(sb, n_reg, n_lane)
    T = pt.flat
    # the source's bases over the destination's columns (flat: register i is bit i, lane j bit
    # n_reg + j); T spans what the destination's warp holds (the padding and the copies add nothing)
    p = pt.solver.over(S)
    width = pt.solver.width
    unreached = None
    for i, x in enumerate(p):
        if x >> width:
            # the source holds extra copies (broadcast along a slower dim): those bits select
            # data this warp does not need, so they act as free (zero) bases here
            unreached = unreached or list(S)
            unreached[i] = p[i] = 0
    if unreached is not None:
        S = tuple(unreached)
    if (n_reg and S[:n_reg] == T[:n_reg]) or (n_lane and S[n_reg:] == T[n_reg:]):
        p = _with_identity([T[:n_reg], T[n_reg:]], [S[:n_reg], S[n_reg:]], p)
    src_free, dst_free = [], []
    for i in range(n):
        sv, tv = S[i], T[i]
        if sv == 0:
            if tv == 0:
                p[i] = 1 << i
            else:
                src_free.append(i)
        elif tv == 0:
            dst_free.append(i)
    for i, j in zip(src_free, dst_free):
        p[i] = 1 << j

    # walk the cycles: each index bit moves to the highest bit of its image
    nxt_of = [v.bit_length() - 1 if v else i for i, v in enumerate(p)]
    reg_perm = list(range(n_reg))
    lane_perm = list(range(n_lane))
    mixed: list[tuple[int, int]] = []
    visited = [False] * n
    for entry in range(n):
        if visited[entry]:
            continue
        cur = entry
        r_start = l_start = -1  # where the walk left the registers for the lanes
        steps = 0
        while True:
            visited[cur] = True
            nxt = nxt_of[cur]
            if cur < n_reg:
                if nxt < n_reg:
                    reg_perm[cur] = nxt
                else:
                    r_start, l_start = cur, nxt - n_reg
            elif nxt >= n_reg:
                lane_perm[cur - n_reg] = nxt - n_reg
            else:  # back in the registers: one mixed transposition
                reg_perm[r_start] = nxt
                lane_perm[cur - n_reg] = l_start
                mixed.append((nxt, l_start))
                r_start = l_start = -1
            cur = nxt
            steps += 1
            if cur == entry or steps > n:
                break
    return tuple(mixed), tuple(reg_perm), tuple(lane_perm)


def _warp_decomposition(a: LinearLayout, b: LinearLayout, bitwidth: int) -> WarpDecomposition:
    """:func:`linlayout.plan.warp_decomposition` of normalized layouts of one tensor."""
    return _with_packing(_warp_permutation(a, b), bitwidth)


# ------------------------------------------------------------------------------ the schedule




class _Schedule:
    """A shuffle schedule as flat bases (what :func:`linlayout.plan.shuffle_schedule` returns as a
    LinearLayout, built by :meth:`layout` on first request): in-dims ``pack``, ``round``,
    ``extra``, ``lane``, ``warp``, ``block``; out-dims ``register`` (``nrd`` bits, lowest),
    ``src_lane`` (``nl``), ``src_register`` (``nrs``), ``discard`` (one bit per extra pass)."""

    __slots__ = ("bases", "nrd", "nl", "nrs", "_layout")

    def __init__(self, bases: dict[str, list[int]], nrd: int, nl: int, nrs: int):
        self.bases, self.nrd, self.nl, self.nrs = bases, nrd, nl, nrs
        self._layout: LinearLayout | None = None

    @property
    def rounds(self) -> int:
        """The rounds each thread runs: ``round`` times ``extra`` passes."""
        return 1 << (len(self.bases["round"]) + len(self.bases["extra"]))

    def layout(self) -> LinearLayout:
        """The schedule as a LinearLayout (built once)."""
        if self._layout is None:
            outs = [("register", 1 << self.nrd), ("src_lane", 1 << self.nl), ("src_register", 1 << self.nrs),
                    ("discard", 1 << len(self.bases["extra"]))]
            self._layout = LinearLayout.from_flat(self.bases, outs)
        return self._layout

    def counts(self, bitwidth: int) -> tuple[int, int]:
        """:func:`schedule_counts` of :meth:`layout`, read from the flat bases."""
        bs = self.bases
        nrd, nl = self.nrd, self.nl
        return _counts(bs["lane"], bs["warp"] + bs["block"], bs["round"] + bs["extra"], len(bs["extra"]),
                       (0, (1 << nrd) - 1), (nrd, (1 << nl) - 1), (nrd + nl, (1 << self.nrs) - 1), bitwidth)


def _schedule(a: LinearLayout, b: LinearLayout, bitwidth: int) -> _Schedule:
    """:func:`linlayout.plan.shuffle_schedule` of normalized layouts of one tensor, as flat bases."""
    sa, sb = _side(a), _side(b)
    nrs, nl = len(sa.regs), len(sa.lanes)
    K = sa.kernel
    span = sa.span
    width = span.width

    # per basis of every dst in-dim, the (register, lane) index of the source in the same warp
    # and CTA holding the element (source register in the low bits, lane above): a destination
    # thread at (warp w, block c) reads source index T(x), x its (register, lane, warp, block) index
    nrd = len(sb.regs)
    got = span.over(sb.regs_lanes)
    if sb.warps or sb.blocks:
        own = sa.warps + sa.blocks
        got += span.over([v ^ own[i] if i < len(own) else v for i, v in enumerate(sb.warps + sb.blocks)])
    if got and max(got) >> width:
        i = next(i for i, x in enumerate(got) if x >> width)
        dims = [("register", nrd), ("lane", len(sb.lanes)), ("warp", len(sb.warps)), ("block", len(sb.blocks))]
        for d, n in dims:
            if i < n:
                break
            i -= n
        raise LayoutError(f"the element of dst {d}={1 << i} is not held inside the same warp of src; no in-warp exchange exists")
    at = nrd + len(sb.lanes)
    regs, Tl, Tw, Tb = got[:nrd], got[nrd:at], got[at:at + len(sb.warps)], got[at + len(sb.warps):]
    rbits = sb.independent
    Tr = [regs[i] for i in rbits]
    if K:
        # prefer copies in the receiving lane: register, warp and block bases that move no lane
        Tr, Tw, Tb = ([_with_copy(x, sa, nrs) for x in xs] for xs in (Tr, Tw, Tb))
    lane_of = [c >> nrs for c in Tr]
    if K:
        # a copy of lane j's element in a register of the receiving lane itself, when there is one
        found = _solve_all(lane_of + list(sa.kernel_lanes), [(1 << j) ^ (t >> nrs) for j, t in enumerate(Tl)])
        for j, m in enumerate(found):
            if m is not None:
                Tl[j] ^= gf2.combine(K, m >> len(lane_of))

    exact = _solve_all(lane_of, [(1 << j) ^ (t >> nrs) for j, t in enumerate(Tl)])
    extra: list[tuple[int, int]] = []
    if None in exact:
        G = _lane_choices(Tl, Tr, K, exact, nrs, extra)
    else:
        G = cast(list[int], exact)  # every lane reads from itself in the rounds that move no lane bit
    n_pack_max = 0 if bitwidth >= 32 else (32 // max(bitwidth, 8)).bit_length() - 1
    pack = [i for i, x in enumerate(lane_of) if x == 0][:n_pack_max] if n_pack_max else []

    # flat out-vectors (register | src_lane | src_register | discard, register in the low bits):
    # a source index x (register | lane << nrs) becomes x_lane << sh_lane | x_register << sh_sreg
    sh_lane, sh_sreg = nrd, nrd + nl
    sh_disc = sh_sreg + nrs
    m_sreg = (1 << nrs) - 1
    reg_vecs = [1 << i | (x >> nrs) << sh_lane | (x & m_sreg) << sh_sreg for i, x in zip(rbits, Tr)]
    lanes = []
    for j, g in enumerate(G):
        y = Tl[j]
        y = (y >> nrs) << sh_lane | (y & m_sreg) << sh_sreg
        lanes.append(y ^ gf2.combine(reg_vecs, g))
    for x, (j, col) in enumerate(extra):
        lanes[j] |= 1 << (sh_disc + x)  # the receivers keep the pass whose index is their lane bit j
    bases = {
        "pack": [reg_vecs[i] for i in pack],
        "round": [v for i, v in enumerate(reg_vecs) if i not in pack] if pack else reg_vecs,
        "extra": [(col >> nrs) << sh_lane | (col & m_sreg) << sh_sreg | 1 << (sh_disc + x)
                  for x, (_, col) in enumerate(extra)] if extra else [],
        "lane": lanes,
        "warp": [(x >> nrs) << sh_lane | (x & m_sreg) << sh_sreg for x in Tw] if Tw else [],
        "block": [(x >> nrs) << sh_lane | (x & m_sreg) << sh_sreg for x in Tb] if Tb else [],
    }
    return _Schedule(bases, nrd, nl, nrs)


def _with_copy(x: int, s: _Side, nrs: int) -> int:
    """Source index ``x`` moved to another copy of its element (held by ``s``) whose lane part
    differs by ``x``'s own lane part, where there is one: a copy in the receiving lane."""
    solver = s.copy_solver
    m = solver.units.get(x >> nrs)  # most lane parts are unit vectors (or 0)
    if m is None:
        m = solver.over([x >> nrs])[0]
    if m >> solver.width:  # no copy's lane part is this one
        return x
    for i, k in enumerate(s.kernel):
        if m >> i & 1:
            x ^= k
    return x


def _lane_choices(Tl: list[int], Tr: list[int], K: Sequence[int], exact: list[int | None], nrs: int,
                  extra: list[tuple[int, int]]) -> list[int]:
    """Per destination lane bit ``j``, the rounds ``G[j]`` (a mask over ``Tr``) whose register the
    receiving lane fills in round 0, where some lane bit cannot read from the receiving lane
    itself.  ``Tl`` (the lane bases' source indices) is updated in place; lane bits no single pass
    serves are appended to ``extra`` as ``(j, source index)``.

    Each column may add another round's register (G) or a copy of the element (kernel): lane bit
    ``j`` takes ``c = Tl[j] ^ (the XOR of the generators in a mask m)`` for the first ``m`` in the
    order ``exact[j]`` (when given), then ``0, 1, ..`` below ``2**8`` (a bounded search; an extra
    pass covers what it misses) such that ``c`` is in the span of the chosen columns exactly when
    its lane part is in the span of theirs (a sending lane is never asked for two registers at
    once).  The test is linear in ``m``: with ``R`` the projection along the chosen span (onto
    the vectors with no pivot bit, its kernel the span), ``c`` is in the span iff the XOR of the
    generators' images over ``m`` is ``R(Tl[j])``, a set of ``m`` cut out by one parity condition
    per bit (:func:`_solutions`); likewise for the lane parts, and the first ``m`` is the lowest
    bit of the set where both tests agree."""
    G: list[int] = []
    gens = Tr + list(K)
    # echelon dicts (leading bit length -> vector) of the chosen columns and of their lane parts,
    # for the vectors a pick adds
    chosen: dict[int, int] = {}
    chosen_lanes: dict[int, int] = {}
    # the projections R as (pivot bit, its fully reduced vector), applied in order
    proj: list[tuple[int, int]] = []
    proj_lanes: list[tuple[int, int]] = []
    lim = min(len(gens), 8)
    full = (1 << (1 << lim)) - 1
    red = gens[:lim]  # R of the searched generators
    red_lanes = [g >> nrs for g in red]
    # columns picked since the projections were last brought up to date (only the parity search
    # reads them)
    pending: list[int] = []
    pending_lanes: list[int] = []
    for j in range(len(Tl)):
        e = exact[j]
        t = Tl[j]
        m = -1
        # ``exact[j]``, then the first few m, tried one by one (most lane bits take one of them):
        # the same first m the parity sets give, without building them
        for probe in itertools.chain(() if e is None else (e,), range(min(_PROBES, 1 << lim))):
            c = t ^ gf2.combine(gens, probe)
            if (_reduced(chosen, c) == 0) == (_reduced(chosen_lanes, c >> nrs) == 0):
                m = probe
                break
        if m < 0:
            for v in pending:  # the projections caught up with the columns picked so far
                _extend(proj, red, v)
            for u in pending_lanes:
                _extend(proj_lanes, red_lanes, u)
            pending.clear()
            pending_lanes.clear()
            a, b = t, t >> nrs
            for p, w in proj:
                if a >> p & 1:
                    a ^= w
            for p, w in proj_lanes:
                if b >> p & 1:
                    b ^= w
            ok = ~(_solutions(red, a, full) ^ _solutions(red_lanes, b, full)) & full
            if not ok:
                # no single pass serves lanes l and l ^ 2**j together: an extra pass each, the
                # receivers keeping the pass whose index equals their lane bit j (a select)
                extra.append((j, Tl[j]))
                Tl[j] = 0
                G.append(0)
                continue
            m = (ok & -ok).bit_length() - 1
            c = t ^ gf2.combine(gens, m)
        g = m & ((1 << len(Tr)) - 1)
        G.append(g)
        Tl[j] = c ^ gf2.combine(Tr, g)
        # the picked column joins the chosen ones (it keeps the spans apart: its vector and its
        # lane part are both new, or both already in their spans)
        v = _reduced(chosen, c)
        if v:
            chosen[v.bit_length()] = v
            pending.append(v)
        u = _reduced(chosen_lanes, c >> nrs)
        if u:
            chosen_lanes[u.bit_length()] = u
            pending_lanes.append(u)
    return G


#: How many of the first masks :func:`_lane_choices` tries one by one before solving for the first.
_PROBES = 8


def _reduced(lead: dict[int, int], v: int) -> int:
    """``v`` reduced by an echelon dict (leading bit length -> vector) until its leading bit is
    no pivot: zero exactly when ``v`` is in the span."""
    while v:
        w = lead.get(v.bit_length())
        if w is None:
            break
        v ^= w
    return v


def _extend(proj: list[tuple[int, int]], images: list[int], v: int) -> None:
    """Add ``v`` (not in the span) to the projection ``proj`` along a span, and update
    ``images`` (vectors projected along the old span) to the new one: ``v`` projected along the
    old span keeps its leading bit (a new pivot), and clearing that bit is the step to add."""
    for p, w in proj:
        if v >> p & 1:
            v ^= w
    p = v.bit_length() - 1
    proj.append((p, v))
    for i, x in enumerate(images):
        if x >> p & 1:
            images[i] = x ^ v


def _parity_masks(lim: int) -> list[int]:
    """Per mask ``f < 2**lim``: the set of ``m < 2**lim`` (bit ``m``) with ``f & m`` of odd
    parity (linear in ``f``: one XOR per entry from the unit masks)."""
    size = 1 << lim
    units = []
    for i in range(lim):
        block = ((1 << (1 << i)) - 1) << (1 << i)  # m with bit i set, in one period of 2**(i+1)
        period = 1 << (i + 1)
        pattern = 0
        for at in range(0, size, period):
            pattern |= block << at
        units.append(pattern)
    out = [0]
    for k in range(1, size):
        low = k & -k
        out.append(out[k ^ low] ^ units[low.bit_length() - 1])
    return out


#: :func:`_parity_masks` of 8 bits (the bound of :func:`_lane_choices`' search); a smaller
#: ``lim`` reads the low ``2**lim`` bits of the first ``2**lim`` entries
_PARITY = _parity_masks(8)


def _solutions(cols: Sequence[int], target: int, full: int) -> int:
    """The set (bit ``m``, as a mask within ``full``) of ``m < 2**len(cols)`` with
    ``gf2.combine(cols, m) == target``: one parity condition per bit the columns or the target
    touch."""
    rows: dict[int, int] = {}  # bit -> the columns having it
    for i, c in enumerate(cols):
        while c:
            low = c & -c
            rows[low] = rows.get(low, 0) | 1 << i
            c ^= low
    out = full
    for low, f in rows.items():
        out &= _PARITY[f] if target & low else ~_PARITY[f]
        target &= ~low
    return 0 if target else out & full


# ------------------------------------------------------------------------------ its counts


def _rank_of(vs: Sequence[int], sh: int, mask: int) -> int:
    """The rank of the parts ``(v >> sh) & mask`` of ``vs``."""
    return gf2.rank([(v >> sh) & mask for v in vs])


def _counts(lanes: Sequence[int], others: Sequence[int], rounds: Sequence[int], n_extra_bits: int,
            reg: tuple[int, int], src_lane: tuple[int, int], src_reg: tuple[int, int], bitwidth: int) -> tuple[int, int]:
    """:func:`schedule_counts` of a schedule given by its flat bases: ``lanes`` (the lane dim's),
    ``others`` (the warp and block dims'), ``rounds`` (the round and extra dims'), how many of
    those are extra passes, and per out-dim ``register``, ``src_lane``, ``src_register`` its
    (shift, mask) in the flat vectors."""
    words = max(bitwidth // 32, 1)
    sh, mask = src_lane
    n_rounds = 1 << len(rounds)
    # src_lane XOR own lane, over the threads: zero for all threads iff this space is {0}
    moved = False
    for i, v in enumerate(lanes):
        if (v >> sh) & mask != 1 << i:
            moved = True
            break
    else:
        for v in others:
            if (v >> sh) & mask:
                moved = True
                break
    moving = n_rounds if moved else n_rounds - (1 << (len(rounds) - _rank_of(rounds, sh, mask)))
    # a choice that depends only on the warp or CTA is uniform across the warp: a branch, no selects
    per_round = ((1 << _rank_of(lanes, *src_reg)) - 1) + ((1 << _rank_of(lanes, *reg)) - 1)
    selects = n_rounds * words * per_round + (moving * words if n_extra_bits else 0)
    return moving * words, selects


def _component(L: LinearLayout, out: str) -> tuple[int, int]:
    """(shift, mask) of the out-dim ``out`` in ``L``'s flat vectors."""
    shift = 0
    for n, size in L.out_dims.items():
        k = size.bit_length() - 1
        if n == out:
            return shift, (1 << k) - 1
        shift += k
    raise KeyError(out)


def schedule_counts(schedule: LinearLayout, bitwidth: int = 32) -> tuple[int, int]:
    """``(shuffles, selects)`` per thread of executing a :func:`linlayout.plan.shuffle_schedule`.

    A round moves data (a ``shfl.sync.idx`` per 32-bit word) unless every thread reads its own
    lane in it; the simulator executes exactly these shuffles.  Selects are the model's (see
    :mod:`linlayout.cost`): where the register a sender offers, or the register a receiver
    fills, depends on the thread's lane, each round picks among ``2**g`` registers with
    ``2**g - 1`` selects on that side; a pass the receiver may discard costs one more.

        >>> from linlayout.plan import shuffle_schedule
        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
        >>> d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
        >>> schedule_counts(shuffle_schedule(s, d))
        (1, 4)
    """
    expect(schedule, LinearLayout, "schedule_counts: schedule")
    if type(bitwidth) is not int or not 0 < bitwidth <= 1024 or bitwidth & (bitwidth - 1):
        bitwidth = check_pow2(bitwidth, "schedule_counts: bitwidth")
        if bitwidth > 1024:
            raise SizeError(f"schedule_counts: bitwidth must be a power of two up to 1024, got {bitwidth}")
    missing = [n for n in ("register", "src_lane", "src_register") if not schedule.has_out_dim(n)]
    if missing:
        raise DimensionError(f"schedule_counts: not a shuffle schedule (no out-dim {', '.join(map(repr, missing))}; out-dims "
                             f"{list(schedule.out_dim_names)}): pass what shuffle_schedule returns")

    def flat(*dims: str) -> list[int]:
        return [v for d in dims if schedule.has_in_dim(d) for v in schedule.flat_bases(d)]

    n_extra_bits = schedule.in_dim_size_log2("extra") if schedule.has_in_dim("extra") else 0
    return _counts(flat("lane"), flat("warp", "block"), flat("round", "extra"), n_extra_bits,
                   _component(schedule, "register"), _component(schedule, "src_lane"),
                   _component(schedule, "src_register"), bitwidth)
