"""Conversion planning: the cheapest way to move a tensor from one distributed layout to another.

For distributed layouts ``src`` and ``dst`` of one tensor (in-dims ``register``, ``lane``,
``warp``, ``block``), the conversion map ``C`` says, for every hardware index of the destination,
which hardware index of the source holds the same element (``C = src^-1 ∘ dst``, Triton's
``dst.invertAndCompose(src)``; its inverse is ``dst^-1 ∘ src``).  The dims over which ``C`` is the
identity are removed slowest first (block, warp, lane, register), as Triton's
``minimalCvtLayout`` does, and what is left decides the mechanism:

==============  ================================================================================
kind            when
==============  ================================================================================
noop            nothing left: both layouts put every element in the same place
register        only ``register`` left: each thread permutes its own registers (free)
warp_shuffle    ``register`` + ``lane``, both layouts are permutation matrices, and the
                permutation of index bits factors into at most one register<->lane
                transposition (Triton 3.9's rule), or only lane bits move (the exchange:
                :mod:`linlayout.plan_shuffle`)
shared_memory   ``warp`` left (or a lane conversion Triton does not shuffle): store, barrier,
                load through a swizzled shared buffer (see :mod:`linlayout.plan_smem`)
cross_cta       ``block`` left: data moves between CTAs (distributed shared memory)
==============  ================================================================================

That table is Triton 3.9's choice (``strategy="triton"``).  The default ``strategy="best"``
prices every feasible mechanism with the one cost model (:mod:`linlayout.cost`) and keeps the
cheapest; ``Plan.rejected`` lists the others with their costs and why they lost.  Planning a
tensor whose sizes are not powers of two: :mod:`linlayout.plan_pieces`; tensor-memory loads and
stores: :mod:`linlayout.plan_tmem`.
The swizzle of a shared-memory round trip: :mod:`linlayout.plan_smem`; the sides it sees (one
CTA's part in a cluster): :mod:`linlayout.plan_sides`; the price of the trip through one swizzle:
:mod:`linlayout.plan_price`.

    >>> from linlayout import LinearLayout
    >>> src = LinearLayout({"register": [[1], [2]], "lane": [[4], [8], [16], [32], [64]]}, {"dim0": 128})
    >>> dst = LinearLayout({"register": [[2], [1]], "lane": [[4], [8], [16], [32], [64]]}, {"dim0": 128})
    >>> p = plan_conversion(src, dst)
    >>> p.kind, p.is_zero_cost
    ('register', True)
    >>> print(p)
    register permutation: each thread reorders its 4 registers; no data leaves the thread (zero cost).
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, NamedTuple, NoReturn, cast

from . import gf2
from .banks import _unit_images as _bank_unit_images
from .contract import as_linear
from .cost import BARRIER_KEYS, WEIGHTS, _free_lanes, _plan_price, _round_trip_price, explain, price
from .checks import as_bool, expect
from .dtypes import element_bitwidth
from .limits import MAX_ITEMS, as_list
from .errors import DimensionError, LayoutError, SizeError, UnsupportedError
from .plan_smem import (
    LD_ST_MATRIX,
    LD_ST_MATRIX_TRANS,
    LD_ST_SHARED,
    MemOpTile,
    SwizzleChoice,
    SwizzleSearch,
    _map_side,
    _or,
    _side_of,
    clear_swizzle_caches,
    conversion_map,
    side_bank_conflicts,
)
from .linear import LinearLayout
from .plan_price import (
    _buffer_bases,
    _coordinates,
    _Price,
    _side_facts,
    _TripKind,
    clear_price_caches,
)
from .plan_sides import _out_list, _shared_sides, _warp_broadcast, _whole_tensor, clear_side_caches
from .plan_shuffle import (
    WarpDecomposition,
    _schedule,
    _warp_decomposition,
    _warp_permutation,
    clear_shuffle_caches,
    schedule_counts,
    triton_shuffle_counts,
)
from .locality import _local_echelon, _stays_within, stays_within

__all__ = [
    "KINDS",
    "HARDWARE_DIMS",
    "COST_WEIGHTS",
    "MAX_REGISTERS_PER_THREAD",
    "MAX_ELEMENTS",
    "Step",
    "Alternative",
    "Plan",
    "WarpDecomposition",
    "minimal_conversion",
    "shuffle_schedule",
    "schedule_counts",
    "warp_decomposition",
    "plan_conversion",
    "conversion_costs",
]

KINDS = ("noop", "register", "warp_shuffle", "shared_memory", "cross_cta")
HARDWARE_DIMS = ("register", "lane", "warp", "block")

#: The largest layouts :func:`plan_conversion` accepts, checked before any work: registers per
#: thread (a thread of a real kernel holds at most 255 32-bit registers; the planner and the
#: simulator do work per register) and elements of the whole tensor.
MAX_REGISTERS_PER_THREAD = 1 << 16
MAX_ELEMENTS = 1 << 28

#: The weights of the cost model (:data:`linlayout.cost.WEIGHTS`; kept here under its old name).
COST_WEIGHTS: dict[str, float] = WEIGHTS


def _normalize(L: LinearLayout, which: str) -> LinearLayout:
    """``L`` with every hardware dim in Triton's order, or a :class:`DimensionError` naming
    ``which`` (src or dst) when it is not a distributed layout."""
    facts = _distributed(L) or _not_distributed(L, which)
    return L if L.in_dim_names == HARDWARE_DIMS else facts[0]


def _not_distributed(L: LinearLayout, which: str) -> NoReturn:
    extra = [n for n in L.in_dim_names if n not in HARDWARE_DIMS]
    raise DimensionError(
        f"{which} is not a distributed layout: in-dim(s) {', '.join(map(repr, extra))}; expected only "
        f"{', '.join(HARDWARE_DIMS)} (a shared-memory layout has 'offset')"
    )


@functools.lru_cache(maxsize=4096)
def _with_hardware_dims(L: LinearLayout) -> LinearLayout:
    """``L`` with every hardware dim, in Triton's order (absent ones of size 1); remembered, so
    that facts of the result (its rank) are computed once per layout."""
    return LinearLayout.from_flat({n: L.flat_bases(n) if L.has_in_dim(n) else () for n in HARDWARE_DIMS}, _out_list(L))


@functools.lru_cache(maxsize=4096)
def _distributed(L: LinearLayout) -> tuple[LinearLayout, tuple, bool] | None:
    """What :func:`_pair` checks of one layout, remembered per layout: its normalized form
    (:func:`_normalize`), the facts two layouts of one conversion must share (out-dims in order,
    lanes, warps and CTAs), and whether it passes the checks of one layout (within
    :data:`MAX_REGISTERS_PER_THREAD` and :data:`MAX_ELEMENTS`, surjective); None when it is not a
    distributed layout."""
    names = L.in_dim_names
    if any(n not in HARDWARE_DIMS for n in names):
        return None
    N = L if names == HARDWARE_DIMS else _with_hardware_dims(L)
    key = (tuple(N.out_dims.items()), N.in_dim_size("lane"), N.in_dim_size("warp"), N.in_dim_size("block"))
    ok = (N.in_dim_size("register") <= MAX_REGISTERS_PER_THREAD and N.total_out_size <= MAX_ELEMENTS
          and N.is_surjective())
    return N, key, ok


def _pair(src: Any, dst: Any, shape: Sequence[int] | None) -> tuple[LinearLayout, LinearLayout]:
    """``src`` and ``dst`` as layouts of one conversion (normalized, ``dst``'s out-dims in
    ``src``'s order), or the error that says why they are not."""
    sa = as_linear(src, shape)
    a = _normalize(sa, "src")
    sb = as_linear(dst, shape)
    b = _normalize(sb, "dst")
    fa, fb = _distributed(sa), _distributed(sb)  # remembered: _normalize read them
    assert fa is not None and fb is not None
    if fa[2] and fb[2] and fa[1] == fb[1]:
        return a, b  # every check of _checked_pair passes: the same hardware and tensor, out-dims in one order
    return _checked_pair(a, b)


def _checked_pair(a: LinearLayout, b: LinearLayout) -> tuple[LinearLayout, LinearLayout]:
    """The checks of :func:`_pair` on normalized layouts one by one, in order (the first failing
    one raises), ``b`` put in ``a``'s order of out-dims."""
    _check_hardware(a, b)
    if set(a.out_dim_names) != set(b.out_dim_names):
        raise DimensionError(
            f"src and dst must be layouts of the same tensor: src has dims ({', '.join(a.out_dim_names)}), "
            f"dst has ({', '.join(b.out_dim_names)})"
        )
    if b.out_dim_names != a.out_dim_names:
        b = b.transpose_outs(a.out_dim_names)
    for n in a.out_dim_names:
        if a.out_dim_size(n) != b.out_dim_size(n):
            raise SizeError(
                f"src and dst must be layouts of the same tensor: dim {n!r} has size {a.out_dim_size(n)} in src "
                f"but {b.out_dim_size(n)} in dst"
            )
    for lay, which in ((a, "src"), (b, "dst")):
        if not lay.is_surjective():
            raise LayoutError(f"{which} does not cover every element of the tensor; a distributed layout must be surjective")
    return a, b


_HW_WORDS = {"lane": "lanes per warp", "warp": "warps per CTA", "block": "CTAs"}


def _check_hardware(a: LinearLayout, b: LinearLayout) -> None:
    """Refuse, before any work, pairs that do not run on the same hardware or are too large."""
    for d, words in _HW_WORDS.items():
        if a.in_dim_size(d) != b.in_dim_size(d):
            raise SizeError(
                f"src and dst must run on the same hardware: src has {a.in_dim_size(d)} {words} ('{d}'), "
                f"dst has {b.in_dim_size(d)}; a conversion keeps the {words}"
            )
    for lay, which in ((a, "src"), (b, "dst")):
        n = lay.in_dim_size("register")
        if n > MAX_REGISTERS_PER_THREAD:
            raise SizeError(
                f"{which} holds {n} = 2**{n.bit_length() - 1} registers per thread; plan_conversion accepts at most "
                f"{MAX_REGISTERS_PER_THREAD} (linlayout.plan.MAX_REGISTERS_PER_THREAD)"
            )
        if lay.total_out_size > MAX_ELEMENTS:
            raise SizeError(
                f"{which} is a tensor of 2**{lay.total_out_size_log2} elements; plan_conversion accepts at most "
                f"2**{MAX_ELEMENTS.bit_length() - 1} (linlayout.plan.MAX_ELEMENTS)"
            )


def _triton_needs_shared_memory(a: LinearLayout, b: LinearLayout, comp: LinearLayout) -> bool:
    """Whether Triton 3.9 lowers a conversion whose data stays inside each warp (or each warp
    holds a copy of what it needs) through shared memory instead of warp shuffles, before it
    counts register<->lane transpositions.

    Its ``cvtNeedsWarpShuffle(ConvertLayoutOp)`` (lib/Analysis/Utility.cpp; the shuffle path of
    ``ConvertLayoutOpConversion::matchAndRewrite`` in
    lib/Conversion/TritonGPUToLLVM/ConvertLayoutOpToLLVM.cpp asks it; read from the calls of the
    3.9 ``libtriton.so``, whose source is not in the stored snapshots) shuffles only when

    * both layouts are permutation matrices (:func:`_permutation_matrix`: Triton's
      ``isPermutationMatrixLayout`` of each layout with its zero register bases removed).
      A layout with an XOR-combined basis (in any in-dim, warps included), two equal bases (two
      lanes holding the same elements, a lane holding what a register holds) is not one, and
      Triton goes through shared memory however the bits move (cvt_general.jsonl);
    * the source registers do not depend on the warp or CTA (its header: "Source registers must
      not depend on warp/CTA coordinates"; in the 3.9 binary the permutation test is followed by
      ``invertAndComposeLocal``, ``isIdentityOnOutDim`` and ``sublayoutIsZero``; our rule for it
      is empirical): Triton's conversion map picks the source copy in warp (CTA) 0,
      and where that maps a destination warp or CTA bit into a source *register*, Triton stores
      and loads within each CTA (the local replica: no cluster barrier, no remote load), as its
      ``convert_layout_loads_local_replica`` lowering test and rows 140, 200, 241, 308 and 340 of
      the cvt_ptx corpus show; where it maps them into lanes only, Triton shuffles (rows 10, 32,
      251, 318, 373).

    ``a`` / ``b`` are the normalized layouts, ``comp`` the conversion map
    ``b.invert_and_compose(a)``.  (The third condition, at most one register<->lane
    transposition, is :func:`_triton_shuffle_counts`'.)
    """
    if not (_permutation_matrix(a) and _permutation_matrix(b)):
        return True
    if not comp.has_out_dim("register"):
        return False
    for d in ("warp", "block"):
        if comp.has_in_dim(d) and any(comp.get_basis(d, i, "register") for i in range(comp.in_dim_size_log2(d))):
            return True
    return False


def _permutation_matrix(L: LinearLayout) -> bool:
    """Triton 3.9's ``isPermutationMatrixLayout`` (lib/Dialect/TritonGPU/IR/Dialect.cpp) of a
    surjective layout: with the in-dims and out-dims flattened and the zero (broadcast) bases
    removed, every basis is a distinct power of two.  Its ``#ttg.linear`` encoding requires it;
    ``#ttg.generic_linear`` (and Gluon's ``DistributedLinearLayout``) does not, and Triton sends
    in-warp conversions of such layouts through shared memory (:func:`_triton_needs_shared_memory`).

        >>> _permutation_matrix(LinearLayout({"register": [[1], [0]], "lane": [[2], [4]]}, {"dim0": 8}))
        True
        >>> _permutation_matrix(LinearLayout({"register": [[1]], "lane": [[2], [5]]}, {"dim0": 8}))   # 5 = 4 ^ 1
        False
        >>> _permutation_matrix(LinearLayout({"register": [[1], [4]], "lane": [[2], [4]]}, {"dim0": 8}))  # a lane repeats a register
        False
    """
    seen = 0
    for n in L.in_dim_names:
        for v in L.flat_bases(n):
            if v and (v & (v - 1) or v & seen):
                return False
            seen |= v
    return True


def minimal_conversion(src: LinearLayout, dst: LinearLayout, *, strategy: str = "best") -> LinearLayout:
    """The conversion map restricted to the dims data must move across (Triton's ``minimalCvtLayout``).

    Triton computes ``dst.invert_and_compose(src)`` and removes the dims over which it is trivial,
    slowest first (block, warp, lane, register).  When the source is broadcast along a slow dim
    (several warps hold the same data), each destination warp can read its own copy even where
    that first choice crosses warps; the dims are then removed too (as Triton 3.9's lowering does)
    and the map is re-solved on the remaining dims.  The result maps a destination hardware index
    to the source hardware index holding the same element; its in-dims are the dims data moves
    across.

        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]], "warp": [[64]]}, {"dim0": 128})
        >>> d = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [64]], "warp": [[32]]}, {"dim0": 128})
        >>> minimal_conversion(s, d).in_dim_names
        ('register', 'lane', 'warp')
    """
    expect(src, LinearLayout, "minimal_conversion: src")
    expect(dst, LinearLayout, "minimal_conversion: dst")
    a = _normalize(src, "src")
    b = _normalize(dst, "dst")
    return _minimal(a, b, b.invert_and_compose(a), strategy)


def _trivial_over(comp: LinearLayout, d: str) -> bool:
    """``comp.is_trivial_over([d])`` read from the flat bases: ``d`` is an in- and an out-dim of
    one size, its bases are the unit vectors of its out bits in order, and no other in-dim's
    bases touch those bits (:func:`_trivial_prefix` of ``d`` alone)."""
    return bool(_trivial_prefix(comp, (d,)))


_SLOWEST_FIRST = ("block", "warp", "lane", "register")


def _trivial_prefix(comp: LinearLayout, dims: Sequence[str]) -> list[str]:
    """The first dims of ``dims`` over each of which ``comp`` is trivial (:func:`_trivial_over`),
    up to the first that is not; the layout read once, and the bits the other in-dims touch
    only for a dim whose own bases are its unit vectors (a dim of size 1 touches no bits)."""
    ins = comp._ins  # (name, flat bases) per in-dim, in order
    outs = comp._outs  # (name, size) per out-dim, in order
    support: list[int] | None = None  # the bits each in-dim touches, computed when first needed
    out: list[str] = []
    for d in dims:
        i = 0
        for n, own in ins:
            if n == d:
                break
            i += 1
        else:
            break
        shift = 0
        for n, size in outs:
            if n == d:
                break
            shift += size.bit_length() - 1
        else:
            break
        k = size.bit_length() - 1
        if own != _units(shift, k):
            break
        if k:
            if support is None:
                support = [functools.reduce(operator.or_, f, 0) for _, f in ins]
            others = 0
            for j, t in enumerate(support):
                if j != i:
                    others |= t
            if others >> shift & ((1 << k) - 1):
                break
        out.append(d)
    return out


@functools.lru_cache(maxsize=4096)
def _units(shift: int, k: int) -> tuple[int, ...]:
    """The unit vectors of bits ``shift .. shift + k - 1``, in order."""
    return tuple(1 << (shift + j) for j in range(k))


def _minimal(a: LinearLayout, b: LinearLayout, comp: LinearLayout, strategy: str) -> LinearLayout:
    """:func:`minimal_conversion` of normalized layouts whose conversion map ``comp``
    (``b.invert_and_compose(a)``) is known."""
    removed, fixed = _fixed_dims(a, b, comp, strategy)
    if len(fixed) == len(removed):
        return _without_trivial(comp, removed) if removed else comp
    rest = tuple(d for d in HARDWARE_DIMS if d not in fixed)
    if not rest:
        return LinearLayout({}, {})
    return conversion_map(_restricted(a, rest), _restricted(b, rest))


@functools.lru_cache(maxsize=4096)
def _restricted(L: LinearLayout, dims: tuple[str, ...]) -> LinearLayout:
    """``L`` restricted to the in-dims ``dims`` (every out-dim kept); remembered per layout."""
    return L.sublayout(dims, L.out_dim_names)


def _without_trivial(comp: LinearLayout, removed: Sequence[str]) -> LinearLayout:
    """``comp.sublayout`` without the dims ``removed`` (over which ``comp`` is trivial).  Where
    they are its last out-dims (the usual order: register, lane, warp, block), the other bases
    do not touch their bits, so the flat bases are kept as they are."""
    outs = comp._outs
    k = len(outs) - len(removed)
    if k >= 0 and {n for n, _ in outs[k:]} == set(removed):
        # the kept bases are comp's own, below 2**(bits of the kept out-dims): nothing to check
        return LinearLayout._make_raw(tuple([p for p in comp._ins if p[0] not in removed]), outs[:k])
    return comp.sublayout([n for n in comp.in_dim_names if n not in removed], [n for n in comp.out_dim_names if n not in removed])


def _minimal_dims(a: LinearLayout, b: LinearLayout, comp: LinearLayout, strategy: str) -> tuple[str, ...]:
    """``_minimal(a, b, comp, strategy).in_dim_names`` without building the map (what the cost of
    a pair needs: which dims data moves across)."""
    removed, fixed = _fixed_dims(a, b, comp, strategy)
    if len(fixed) == len(removed):
        return tuple(n for n in comp.in_dim_names if n not in removed)
    return tuple(d for d in HARDWARE_DIMS if d not in fixed)


def _clear_front_caches() -> None:
    """Forget the per-layout facts the planner's front end remembers (:func:`_pair`, the
    conversion map, :func:`_minimal`); part of :func:`clear_caches`."""
    for f in (_distributed, _restricted, _map_side):
        f.cache_clear()


def _fixed_dims(a: LinearLayout, b: LinearLayout, comp: LinearLayout, strategy: str) -> tuple[list[str], list[str]]:
    """The dims :func:`_minimal` removes: those over which ``comp`` is trivial (slowest first),
    and those plus the dims each thread group already holds a copy within."""
    # trivial over d after removing the dims before it iff trivial over d in the whole map:
    # the removed dims neither touch nor are touched by the others
    removed = _trivial_prefix(comp, _SLOWEST_FIRST)
    fixed = list(removed)
    rest = _SLOWEST_FIRST[len(removed):]
    if strategy == "triton":
        rest = tuple(d for d in rest if d not in ("lane", "register"))
    if not rest:
        return removed, fixed
    # layouts of one tensor, out-dims in one order (as _pair leaves them): the unchecked test
    within = _stays_within if _map_side(a).outs == _map_side(b).outs else stays_within
    for d in rest:
        if not within(a, b, tuple(h for h in HARDWARE_DIMS if h not in fixed and h != d)):
            break
        fixed.append(d)
    return removed, fixed


def warp_decomposition(src: LinearLayout, dst: LinearLayout, bitwidth: int | str = 32) -> WarpDecomposition:
    """Factor a register/lane conversion into register, lane and mixed transpositions.

    The work is :mod:`linlayout.plan_shuffle`'s; ``bitwidth`` is the element size in bits or a dtype name.

        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
        >>> d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
        >>> warp_decomposition(s, d).mixed_transpositions
        ((0, 4),)
    """
    a, b = _warp_pair(src, dst, "warp_decomposition")
    return _warp_decomposition(a, b, element_bitwidth(bitwidth))


def shuffle_schedule(src: LinearLayout, dst: LinearLayout, bitwidth: int | str = 32) -> LinearLayout:
    """The lane exchange of an in-warp conversion, as a linear map (what each thread does per round).

    In-dims ``pack`` and ``round`` (together: the rounds, one per non-broadcast destination
    register; ``pack`` rounds share one 32-bit ``shfl`` because their source lanes are equal),
    ``extra`` (passes repeating every round, needed when two lanes must read one lane's two
    registers at once), ``lane``, ``warp``, ``block`` (the receiving thread).  Out-dims:
    ``register`` (the destination register filled), ``src_lane`` (the lane read:
    ``shfl.sync.idx`` source), ``src_register`` (the register that lane offers) and ``discard``
    (nonzero: the receiver drops this pass's value).  A destination thread in round ``k`` fills register
    ``k ^ G(lane)``; ``G`` is chosen so that each sending lane is asked for one register per round
    and, where possible, so that whole rounds stay inside the thread (no shuffle: register moves).
    Noop and register plans have schedules whose every round is local.

        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
        >>> d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
        >>> sch = shuffle_schedule(s, d)
        >>> sch.in_dims["round"], sch(round=1, lane=0)   # round 1: lane 0 fills register 1 from lane 16's register 0
        (2, {'register': 1, 'src_lane': 16, 'src_register': 0, 'discard': 0})
    """
    a, b = _warp_pair(src, dst, "shuffle_schedule")
    return _schedule(a, b, element_bitwidth(bitwidth)).layout()


def _warp_pair(src: Any, dst: Any, who: str) -> tuple[LinearLayout, LinearLayout]:
    """``src`` and ``dst`` checked and normalized for the in-warp algorithms of
    :mod:`linlayout.plan_shuffle` (flat bases of one tensor: ``dst``'s out-dims put in ``src``'s
    order)."""
    expect(src, LinearLayout, f"{who}: src")
    expect(dst, LinearLayout, f"{who}: dst")
    a, b = _normalize(src, "src"), _normalize(dst, "dst")
    if a.out_dims != b.out_dims:
        raise DimensionError(f"{who}: src and dst must be layouts of one tensor: src has out-dims {a.out_dims}, dst has {b.out_dims}")
    if a.out_dim_names != b.out_dim_names:
        b = b.transpose_outs(a.out_dim_names)
    return a, b


@dataclass(frozen=True)
class Step:
    """One step of a plan: ``op`` (e.g. ``"shfl"``, ``"st.shared"``, ``"bar.sync"``), how many per
    thread, the access width in bits (0 where it does not apply) and a note."""

    op: str
    count: int
    bits: int = 0
    note: str = ""

    def __str__(self) -> str:
        w = f" x{self.bits}b" if self.bits else ""
        n = f" ({self.note})" if self.note else ""
        return f"{self.count} {self.op}{w}{n}"


def _step(op: str, count: int, bits: int = 0, note: str = "") -> Step:
    """``Step(op, count, bits, note)`` of the planner's own counts, without the frozen
    dataclass's per-field ``object.__setattr__`` (the same value: tests/test_plan_fast.py)."""
    s = object.__new__(Step)
    s.__dict__.update(op=op, count=count, bits=bits, note=note)
    return s


@dataclass(frozen=True)
class Alternative:
    """A mechanism ``strategy="best"`` considered and did not choose: its kind, what it would
    use (instructions, bytes), its cost under the model (``None``: not feasible) and why."""

    kind: str
    detail: str
    cost: float | None
    reason: str

    def __str__(self) -> str:
        c = "infeasible" if self.cost is None else f"cost {self.cost:g}"
        return f"{self.kind.replace('_', ' ')} ({self.detail}; {c}): {self.reason}"


class _Later:
    """A value of a plan computed on first read (see :class:`_OnFirstRead`): ``fn()``, or
    ``fn(plan)`` with ``of_plan`` (a value about the plan that holds it, which then need not
    hold the plan: no reference cycle, so a plan is freed without the cyclic GC, and a copy of a
    plan reads its own)."""

    __slots__ = ("fn", "of_plan")

    def __init__(self, fn: Callable[..., Any], of_plan: bool = False):
        self.fn, self.of_plan = fn, of_plan

    def value(self, plan: Any) -> Any:
        return self.fn(plan) if self.of_plan else self.fn()


def _later(fn: Callable[[], Any]) -> Any:
    """``fn()`` as a :class:`Plan` field value computed on first read."""
    return _Later(fn)


class _OnFirstRead:
    """A field of :class:`Plan` that may be given as :func:`_later`: the schedule of a zero-cost
    plan and the alternatives ``strategy="best"`` did not need to price to choose are computed
    when first read (the plan is the same; only when the work is done differs)."""

    NAMES = ("shuffle_schedule", "rejected")

    def __init__(self, name: str, default: Any):
        self.key = "_" + name
        self.default = default

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return self.default
        v = obj.__dict__.get(self.key, self.default)
        if isinstance(v, _Later):
            v = obj.__dict__[self.key] = v.value(obj)
        return v

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__[self.key] = self.default if value is self else value


@dataclass(frozen=True)
class Plan:
    """A conversion plan (a frozen value).  Counts are per thread.

    ``conversion`` is the minimal conversion map (destination hardware index -> source hardware
    index, in-dims = the dims data moves across); ``shared_layout`` the chosen swizzle of a
    shared-memory round trip (in-dims ``vector``, ``bank``, ``segment``, ``reps``; in a CTA
    cluster also ``block`` before ``reps``: each CTA's buffer holds its own part).
    ``store_conflicts`` / ``load_conflicts`` are the excess wavefronts per wavefront each side
    executes (the hardware's count: :func:`linlayout.banks.bank_conflicts` with
    ``hardware=True`` at the side's vector; :func:`linlayout.simulate.simulate` takes
    ``claimed * ideal`` excess wavefronts on every access), not Triton's ``gl.bank_conflicts``
    model, with which ``strategy="triton"`` still chooses as Triton 3.9 does.
    """

    kind: str
    src: LinearLayout = field(repr=False)
    dst: LinearLayout = field(repr=False)
    conversion: LinearLayout = field(repr=False)
    bitwidth: int
    steps: tuple[Step, ...] = ()
    shuffles: int = 0
    shuffle_rounds: int = 0
    mixed_transpositions: int = 0
    selects: int = 0
    stores: int = 0
    loads: int = 0
    store_vector: int = 0
    load_vector: int = 0
    store_instr: str = ""
    load_instr: str = ""
    barriers: int = 0
    shared_bytes: int = 0
    store_conflicts: int = 0
    load_conflicts: int = 0
    reps: int = 0
    shared_layout: LinearLayout | None = field(default=None, repr=False)
    register_moves: int = 0
    shuffle_schedule: LinearLayout | None = field(default=cast(Any, _OnFirstRead("shuffle_schedule", None)), repr=False, compare=False)
    barrier_instr: str = ""
    rejected: tuple[Alternative, ...] = field(default=cast(Any, _OnFirstRead("rejected", ())), compare=False)

    @classmethod
    def _new(cls, kind: str, src: LinearLayout, dst: LinearLayout, conversion: LinearLayout, bitwidth: int,
             steps: tuple[Step, ...] = (), **counts: Any) -> Plan:
        """``Plan(...)`` of the planner's own fields, without the frozen dataclass's per-field
        ``object.__setattr__`` (the same value: tests/test_plan_fast.py); the fields given as
        :func:`_later` stay lazy as in ``Plan(...)``."""
        p = object.__new__(cls)
        d = p.__dict__
        d.update(_PLAN_DEFAULTS)
        d.update(kind=kind, src=src, dst=dst, conversion=conversion, bitwidth=bitwidth, steps=steps)
        for name in _OnFirstRead.NAMES:
            if name in counts:
                d["_" + name] = counts.pop(name)
        d.update(counts)
        return p

    def __getstate__(self) -> dict[str, Any]:
        # a pickled plan carries its schedule and alternatives, not how to compute them
        for name in _OnFirstRead.NAMES:
            getattr(self, name)
        return dict(self.__dict__)

    @property
    def is_zero_cost(self) -> bool:
        """No data leaves its thread (``noop`` or ``register``)."""
        return self.kind in ("noop", "register")

    @property
    def bank_conflicts(self) -> int:
        """Excess shared-memory wavefronts per store plus per load (0 = conflict-free)."""
        return self.store_conflicts + self.load_conflicts

    @property
    def uses_ldmatrix(self) -> bool:
        return self.load_instr.startswith("ldmatrix")

    @property
    def uses_stmatrix(self) -> bool:
        return self.store_instr.startswith("stmatrix")

    @property
    def cost(self) -> float:
        """The cost model's price of the plan (:func:`linlayout.cost.plan_cost`); 0 for zero-cost plans."""
        got = self.__dict__.get("_cost")
        if got is None:  # a function of the frozen fields: computed once (the planner compares often)
            got = self.__dict__["_cost"] = _plan_price(self)
        return got

    def explain_cost(self) -> str:
        """The cost as a sum of counts times weights (:func:`linlayout.cost.explain`)."""
        return explain(self)

    def why(self) -> str:
        """Which mechanisms ``strategy="best"`` compared and rejected, and why ("" when none)."""
        if not self.rejected:
            return ""
        return "Rejected: " + "; ".join(str(r) for r in self.rejected) + "."

    def describe(self) -> str:
        """A sentence a person can read."""
        if self.kind == "noop":
            return "no-op: both layouts place every element in the same register of the same thread."
        if self.kind == "register":
            n = self.src.in_dim_size("register")
            return f"register permutation: each thread reorders its {n} registers; no data leaves the thread (zero cost)."
        if self.kind == "warp_shuffle":
            how = (f"{self.mixed_transpositions} register<->lane bit swap" + ("s" if self.mixed_transpositions != 1 else "")) if self.mixed_transpositions else "a lane permutation"
            return (
                f"warp shuffle: {self.shuffles} shfl per thread in {self.shuffle_rounds} round"
                f"{'s' if self.shuffle_rounds != 1 else ''} plus {self.selects} selects ({how}); no shared memory."
            )
        conf = (
            "conflict-free"
            if self.bank_conflicts == 0
            else f"{self.store_conflicts} extra wavefront(s) per store and {self.load_conflicts} per load from bank conflicts"
        )
        where = "shared-memory round trip" if self.kind == "shared_memory" else "cross-CTA exchange through distributed shared memory"
        return (
            f"{where}: each thread stores {self.stores} x {self.store_vector * self.bitwidth}-bit ({self.store_instr}) and loads "
            f"{self.loads} x {self.load_vector * self.bitwidth}-bit ({self.load_instr}) through a {self.shared_bytes}-byte swizzled "
            f"buffer in {self.reps} round{'s' if self.reps != 1 else ''} with {self.barriers} barrier{'s' if self.barriers != 1 else ''}; {conf}."
        )

    def __str__(self) -> str:
        why = self.why()
        return self.describe() + (" " + why if why else "")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (layouts in the oracle dict form)."""
        return {
            "kind": self.kind,
            "is_zero_cost": self.is_zero_cost,
            "bitwidth": self.bitwidth,
            "cost": self.cost,
            "description": self.describe(),
            "steps": [{"op": s.op, "count": s.count, "bits": s.bits, "note": s.note} for s in self.steps],
            "shuffles": self.shuffles,
            "shuffle_rounds": self.shuffle_rounds,
            "mixed_transpositions": self.mixed_transpositions,
            "selects": self.selects,
            "stores": self.stores,
            "loads": self.loads,
            "store_vector": self.store_vector,
            "load_vector": self.load_vector,
            "store_instr": self.store_instr,
            "load_instr": self.load_instr,
            "barriers": self.barriers,
            "barrier_instr": self.barrier_instr,
            "shared_bytes": self.shared_bytes,
            "store_conflicts": self.store_conflicts,
            "load_conflicts": self.load_conflicts,
            "reps": self.reps,
            "register_moves": self.register_moves,
            "cost_explained": self.explain_cost(),
            "rejected": [{"kind": r.kind, "detail": r.detail, "cost": r.cost, "reason": r.reason} for r in self.rejected],
            "conversion": self.conversion.to_dict(),
            "shared_layout": self.shared_layout.to_dict() if self.shared_layout is not None else None,
            "shuffle_schedule": self.shuffle_schedule.to_dict() if self.shuffle_schedule is not None else None,
            "src": self.src.to_dict(),
            "dst": self.dst.to_dict(),
        }


#: The defaults of :class:`Plan`'s fields as its ``__dict__`` holds them (the lazy ones under
#: their ``_`` keys), for :meth:`Plan._new`.
_PLAN_DEFAULTS: dict[str, Any] = {
    **{f.name: f.default for f in fields(Plan) if f.default is not MISSING and f.name not in _OnFirstRead.NAMES},
    **{"_" + n: getattr(Plan, n) for n in _OnFirstRead.NAMES},
}


class _Trip:
    """What the plans of one pair share, each computed at most once: the conversion map
    ``comp`` (``b.invert_and_compose(a)``), the warp permutation of an in-warp exchange, and per
    round-trip kind its two sides, its swizzle search and the price of every swizzle it priced
    (with its plan, once built)."""

    __slots__ = ("a", "b", "conv", "comp", "bits", "_perm", "_sync", "_sides", "_searches", "_prices", "_kinds", "choices", "falls_back",
                 "triton")

    def __init__(self, a: LinearLayout, b: LinearLayout, conv: LinearLayout, comp: LinearLayout, bits: int, triton: bool = False):
        self.a, self.b, self.conv, self.comp, self.bits = a, b, conv, comp, bits
        #: planned with ``strategy="triton"``: a shared-memory round trip is Triton 3.9's
        #: (:func:`_triton_ldst`, :func:`linlayout.plan_price._aligned_vector`)
        self.triton = triton
        self._perm: tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]] | None = None
        self._sync: bool | None = None
        self._sides: dict[str, tuple[LinearLayout, LinearLayout]] = {}
        self._searches: dict[str, tuple[SwizzleSearch, LinearLayout, LinearLayout]] = {}
        #: per kind, the :class:`_Price` of each swizzle priced (keyed by the swizzle object: the
        #: price holds it, so no other swizzle of the trip has its id; a fresh swizzle is not
        #: hashed), and what every price reads
        self._prices: dict[str, dict[int, _Price]] = {}
        self._kinds: dict[str, _TripKind] = {}
        #: the unbudgeted swizzle of each (kind, matrix) variant (or why there is none)
        self.choices: dict[tuple[str, _Variant], SwizzleChoice | str] = {}
        #: per kind, whether its swizzle search falls back (:func:`_search_falls_back`)
        self.falls_back: dict[str, bool] = {}

    def warp_permutation(self) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]:
        """:func:`_warp_permutation` of the pair (the same for every element width)."""
        if self._perm is None:
            self._perm = _warp_permutation(self.a, self.b)
        return self._perm

    def warp_sync(self) -> bool:
        """Whether a round trip needs only a warp-level barrier (Triton 3.9's ``isCvtWarpSync``):
        every warp reads back only what it wrote (the conversion is trivial over warps) and no warp
        holds a copy of another's data (no warp broadcast on either side)."""
        if self._sync is None:
            a, b = self.a, self.b
            self._sync = a.in_dim_size("warp") == 1 or (
                _trivial_over(self.comp, "warp") and not _warp_broadcast(a) and not _warp_broadcast(b))
        return self._sync

    def sides(self, kind: str) -> tuple[LinearLayout, LinearLayout]:
        """The two sides of a ``kind`` round trip (:func:`~linlayout.plan_sides._shared_sides`)."""
        got = self._sides.get(kind)
        if got is None:
            got = self._sides[kind] = _shared_sides(kind, self.a, self.b)
        return got

    def search(self, kind: str) -> tuple[SwizzleSearch, LinearLayout, LinearLayout]:
        """The swizzle search of a ``kind`` round trip and its two sides."""
        got = self._searches.get(kind)
        if got is None:
            sa, sb = self.sides(kind)
            # the sides are the layouts themselves unless registers repeat or a block dim goes:
            # then the search's map is the pair's
            known = self.comp if sa is self.a and sb is self.b else None
            got = self._searches[kind] = (SwizzleSearch(sa, sb, max(self.bits, 8), conversion=known), sa, sb)
        return got

    def price(self, kind: str, choice: SwizzleChoice) -> _Price:
        """The :class:`_Price` of a ``kind`` round trip through ``choice`` (one per choice)."""
        prices = self._prices.get(kind)
        if prices is None:
            prices = self._prices[kind] = {}
        got = prices.get(id(choice))
        if got is None:
            got = prices[id(choice)] = _Price(self.kind_facts(kind), choice)
        return got

    def kind_facts(self, kind: str) -> _TripKind:
        """What every price of a ``kind`` round trip reads (its sides and their facts, the
        barrier), read once."""
        tk = self._kinds.get(kind)
        if tk is None:
            sa, sb = self.sides(kind)
            bar = _barrier_instr(kind, self)
            tk = self._kinds[kind] = _TripKind(sa, sb, _side_facts(sa), _side_facts(sb), max(self.bits, 8), bar, BARRIER_KEYS[bar],
                                               self.triton and kind == "shared_memory", not self.triton)
        return tk

    def round_trip(self, kind: str, choice: SwizzleChoice) -> Plan:
        """The plan of a ``kind`` round trip through ``choice`` (each choice planned once)."""
        pr = self.price(kind, choice)
        if pr.plan is None:
            _, sa, sb = self.search(kind)
            pr.plan = _plan_from_choice(kind, self, choice, sa, sb)
        return pr.plan


def _plan_from_choice(kind: str, trip: _Trip, choice: SwizzleChoice, sa: LinearLayout, sb: LinearLayout) -> Plan:
    a, b, conv, bitwidth = trip.a, trip.b, trip.conv, trip.bits
    bw = max(bitwidth, 8)
    pr = trip.price(kind, choice)
    w, r = pr.conflicts()
    reps, barriers, bar = pr.reps, pr.bars, pr.bar
    steps = (
        _step(choice.store_instr, pr.stores, pr.sv * bw, f"{w} extra wavefronts each" if w else "conflict-free"),
        _step(bar, barriers, 0, f"{reps} round(s)"),
        _step(choice.load_instr, pr.loads, pr.lv * bw, f"{r} extra wavefronts each" if r else "conflict-free"),
    )
    return Plan._new(
        kind, a, b, conv, bitwidth, steps,
        stores=pr.stores, loads=pr.loads, store_vector=pr.sv, load_vector=pr.lv,
        store_instr=choice.store_instr, load_instr=choice.load_instr, barriers=barriers,
        # choice.bytes, its rounds already read
        shared_bytes=choice.layout.total_out_size // reps * max(choice.bitwidth, 8) // 8, store_conflicts=w, load_conflicts=r,
        reps=reps, shared_layout=_whole_tensor(choice.layout, a) if sa._outs != a._outs else choice.layout, barrier_instr=bar,
    )


def _barrier_instr(kind: str, trip: _Trip) -> str:
    return "barrier.cluster" if kind == "cross_cta" else ("bar.warp.sync" if trip.warp_sync() else "bar.sync")


def _fewer_bytes(choice: SwizzleChoice, sa: LinearLayout, sb: LinearLayout) -> SwizzleChoice | None:
    """The same swizzle with one more offset bit turned into a round (half the buffer), or None.

    Only a bit that is a register on both sides can become a round (each thread stores and loads
    its registers of one round at a time): a segment bit first, then a bank bit, then (narrower
    vectors; never for matrix instructions, whose 32-bit words are fixed) a vector bit.  The
    offset bits are then split again into vector | bank (one 128-byte line) | segment and the bank
    conflicts of both sides recounted on the same access tiles.
    """
    lay = choice.layout
    # a bit a thread's index moves cannot be a round (see _rounds_fit)
    both = (set(sa.flat_bases("register")) & set(sb.flat_bases("register"))) - _thread_bits(choice, sa, sb)
    groups = {d: list(lay.flat_bases(d)) for d in ("vector", "bank", "segment", "reps")}
    matrix = "matrix" in choice.store_instr or "matrix" in choice.load_instr
    for d in ("segment", "bank") + (() if matrix else ("vector",)):
        for v in reversed(groups[d]):
            if v in both:
                groups[d].remove(v)
                groups["reps"].append(v)
                break
        else:
            continue
        break
    else:
        return None
    offset = groups["vector"] + groups["bank"] + groups["segment"]
    word = (1 << len(groups["vector"])) * choice.bitwidth
    line = max((1024 // word).bit_length() - 1, 0) if word <= 1024 else 0
    bank = offset[len(groups["vector"]):len(groups["vector"]) + line]
    seg = offset[len(groups["vector"]) + line:]
    outs = list(lay.out_dims.items())
    new = LinearLayout({"vector": [_unflatten(v, outs) for v in groups["vector"]], "bank": [_unflatten(v, outs) for v in bank],
                        "segment": [_unflatten(v, outs) for v in seg], "reps": [_unflatten(v, outs) for v in groups["reps"]]}, outs)
    return SwizzleChoice(new, choice.store_instr, choice.load_instr, side_bank_conflicts(seg, choice.store_tile),
                         side_bank_conflicts(seg, choice.load_tile), choice.store_tile, choice.load_tile, choice.bitwidth)


def _repaired(choice: SwizzleChoice) -> SwizzleChoice:
    """``choice`` with a bijective shared layout.

    The generic swizzle can pick an XOR pair of lane vectors as a segment bit that is already in
    the span of the vector bits (e.g. a destination lane vector (0, 3) next to vectors 1 and 2), so
    the buffer would hold one element twice and miss another.  Dependent bits are dropped (reps
    first, as the rounds they would add repeat an offset bit) and the offset is completed with unit
    vectors as segment bits; the bank conflicts are recounted on the same access tiles.
    """
    if "_unit_coords" in choice.__dict__:  # a bijection (see plan_smem._layout_and_coords)
        return choice
    lay = choice.layout
    dim = lay.total_out_size_log2
    if lay.total_in_size_log2 == dim and lay.is_surjective():
        return choice
    basis = gf2.SpanBasis()
    groups: dict[str, list[int]] = {}
    for d in ("vector", "bank", "segment", "reps"):
        groups[d] = [v for v in lay.flat_bases(d) if basis.insert(v)]
    groups["segment"] += [u for u in (1 << i for i in range(dim)) if basis.insert(u)]
    outs = list(lay.out_dims.items())
    new = LinearLayout({d: [_unflatten(v, outs) for v in groups[d]] for d in groups}, outs)
    seg = groups["segment"]
    return SwizzleChoice(new, choice.store_instr, choice.load_instr, side_bank_conflicts(seg, choice.store_tile),
                         side_bank_conflicts(seg, choice.load_tile), choice.store_tile, choice.load_tile, choice.bitwidth)


@functools.lru_cache(maxsize=4096)
def _thread_vectors(L: LinearLayout) -> tuple[int, ...]:
    """``L``'s nonzero lane, warp and block bases (flat): what a thread's index moves;
    remembered per layout."""
    return tuple(v for d in L.in_dim_names if d != "register" for v in L.flat_bases(d) if v)


def _thread_mask(choice: SwizzleChoice, sa: LinearLayout, sb: LinearLayout) -> int:
    """The bits (a mask over vector, bank, segment, reps bases of the shared layout of
    ``choice``, in that order) that a lane, warp or block vector of either side has a component
    along."""
    solve = _coordinates(choice)
    used = 0
    for v in _thread_vectors(sa) + _thread_vectors(sb):
        used |= solve(v) or 0
    return used


def _thread_bits(choice: SwizzleChoice, sa: LinearLayout, sb: LinearLayout) -> set[int]:
    """The offset and reps bits of the shared layout of ``choice`` (flat vectors) that a lane,
    warp or block vector of either side has a component along (written in the basis vector,
    bank, segment, reps): the bits a thread's index moves."""
    used = _thread_mask(choice, sa, sb)
    return {v for i, v in enumerate(_buffer_bases(choice.layout)) if used >> i & 1}


def _rounds_fit(choice: SwizzleChoice, sa: LinearLayout, sb: LinearLayout) -> SwizzleChoice:
    """``choice`` with every round a set of registers the same in every thread.

    A reps bit ``r`` splits the buffer into rounds: thread ``t`` stores and loads in round ``k``
    its registers whose elements have reps coordinate ``k``.  The element of (thread ``t``,
    register ``i``) is ``X(t) ^ X(i)``, so that set is the same in every thread exactly when no
    lane, warp or block vector of either side has a component along a reps bit (in the basis
    vector, bank, segment, reps).  Otherwise (a general layout whose lane is an XOR of registers
    and other lanes) the rounds would need lane-dependent register selection: those reps bits
    become segment bits again (the same basis, so no other coordinate moves; a larger buffer), and
    the bank conflicts are recounted on the same access tiles.  (:func:`_fewer_bytes` never makes
    such a bit a round: with a ``.trans`` tile, whose XOR segment bits pair a lane with a
    register, even Triton's layouts would meet it under a budget.)

        >>> s = LinearLayout({"register": [[1], [2]], "lane": [[4], [8], [16], [32], [66]]}, {"dim0": 128})
        >>> d = LinearLayout({"register": [[1], [2]], "lane": [[8], [4], [16], [32], [64]]}, {"dim0": 128})
        >>> lay = LinearLayout({"vector": [[1]], "bank": [[4], [8], [16], [32], [64]], "segment": [], "reps": [[2]]},
        ...                    {"dim0": 128})
        >>> c = SwizzleChoice(lay, "st.shared", "ld.shared", 0, 0, (), (), 32)
        >>> c.reps, _rounds_fit(c, s, d).reps    # src lane 16 is 64 ^ 2: lanes 16-31 would store round 1 first
        (2, 1)
    """
    lay = choice.layout
    reps = list(lay.flat_bases("reps"))
    if not reps:
        return choice
    coords = choice.__dict__.get("_unit_coords")
    moved = -1  # over the reps bits
    if coords is not None:
        s_side, d_side = _side_of(sa), _side_of(sb)
        if s_side.outs == coords[2] == d_side.outs:
            # a vector's coordinates along the reps bits are its bits among them (see
            # plan_smem._layout_and_coords): a reps bit is moved where a thread vector has its bit
            hit = (s_side.thread_or | d_side.thread_or) & coords[1]
            if not hit:
                return choice
            moved = sum(1 << i for i, v in enumerate(reps) if v & hit)
    if moved < 0:
        moved = _thread_mask(choice, sa, sb) >> (lay.total_in_size_log2 - len(reps))
    if not moved:
        return choice
    groups = {d: list(lay.flat_bases(d)) for d in ("vector", "bank", "segment")}
    groups["segment"] += [v for i, v in enumerate(reps) if moved >> i & 1]
    groups["reps"] = [v for i, v in enumerate(reps) if not moved >> i & 1]
    outs = list(lay.out_dims.items())
    new = LinearLayout({d: [_unflatten(v, outs) for v in groups[d]] for d in groups}, outs)
    seg = groups["segment"]
    return SwizzleChoice(new, choice.store_instr, choice.load_instr, side_bank_conflicts(seg, choice.store_tile),
                         side_bank_conflicts(seg, choice.load_tile), choice.store_tile, choice.load_tile, choice.bitwidth)


def _unflatten(v: int, outs: Sequence[tuple[str, int]]) -> list[int]:
    out, at = [], 0
    for _, size in outs:
        k = size.bit_length() - 1
        out.append((v >> at) & ((1 << k) - 1))
        at += k
    return out


def _matrix_rows_fit(choice: SwizzleChoice, sa: LinearLayout, sb: LinearLayout) -> bool:
    """Whether the lanes, registers and warps (and blocks, in a side that keeps them) of each side
    land where its ``stmatrix``/``ldmatrix`` fragment needs them.

    Write each hardware vector ``v`` of a matrix side in the shared layout's basis (vector, bank,
    segment, reps bits); ``o`` is its offset part (the reps part is a round), ``row`` the elements
    of 16 bytes, ``epw`` of a 32-bit word.  Without ``.trans``: lanes 0 and 1 step one 32-bit word
    (``o == epw << j``), lanes 2-4, warps and blocks pick rows that start on 16-byte boundaries
    (``o % row == 0``), and registers pick the word's elements or matrices, never a word inside a
    row (``o % row < epw``).  With ``.trans`` (16-bit): lanes 2-4 step one element
    (``o == 1 << (j - 2)``), lanes 0 and 1, warps, blocks and registers pick rows (``o % row == 0``).  A
    vector that mixes the two (lane 16 -> lane 1 ^ lane 4 of a layout holding copies; register
    1 -> lane 0 ^ lane 1 ^ lane 4 of one holding another thread's elements) leaves a row start
    inside a row: no matrix instruction can serve it.  Triton's layouts (distinct unit vectors)
    always fit: their lanes are the vector bits, the rest unit bits above them.

        >>> s = LinearLayout({"register": [[1], [28]], "lane": [[16], [2], [32], [8], [4]]}, {"dim0": 64})
        >>> d = LinearLayout({"register": [[2], [13]], "lane": [[1], [4], [16], [32], [8]]}, {"dim0": 64})
        >>> c = SwizzleSearch(s, d, 32).candidate(LD_ST_SHARED, LD_ST_MATRIX)   # register 13 = 8 ^ (1 ^ 4)
        >>> _matrix_rows_fit(c, s, d)
        False
    """
    if "matrix" not in choice.store_instr and "matrix" not in choice.load_instr:
        return True  # no fragment to place
    coords = choice.__dict__.get("_unit_coords")
    if coords is not None:
        got = _matrix_rows_fit_on_masks(choice, coords, sa, sb)
        if got is not None:
            return got
    offset = choice.offset_bases()
    express = _coordinates(choice)
    n_off = len(offset)
    eb = max(choice.bitwidth, 8) // 8
    row = 16 // eb
    epw = max(4 // eb, 1)
    for L, instr in ((sa, choice.store_instr), (sb, choice.load_instr)):
        if "matrix" not in instr:
            continue
        trans = instr.endswith(".trans")
        for d in ("register", "warp", "block"):  # a block stays only in a side that is not cut (_shared_side)
            for v in L.flat_bases(d) if L.has_in_dim(d) else ():
                m = express(v) if v else 0
                if m is None:
                    return False
                o = (m & ((1 << n_off) - 1)) % row
                if o >= (epw if d == "register" and not trans else 1):
                    return False
        for j, v in enumerate(L.flat_bases("lane")[:5]):
            if v == 0:  # a broadcast lane: no row of its own
                continue
            m = express(v)
            if m is None or m >> n_off:
                return False
            o = m & ((1 << n_off) - 1)
            if (j >= 2) == trans:  # a step inside the 16-byte row
                if o != ((1 << (j - 2)) if trans else epw << j):
                    return False
            elif o % row:  # the start of another row
                return False
    return True


def _matrix_rows_fit_on_masks(choice: SwizzleChoice, coords: tuple[int, int, tuple[tuple[str, int], ...]],
                              sa: LinearLayout, sb: LinearLayout) -> bool | None:
    """:func:`_matrix_rows_fit` of a choice whose coordinates are read off masks (``coords``: its
    vector bits, reps bits and out-dims; see ``plan_smem._layout_and_coords``), or None where a
    side's out-dims differ.  A vector's coordinates along the vector bits (the offset within a
    16-byte row: the vector bits are ``row`` elements) are its bits among them, along the reps
    bits likewise; its offset is exactly the offset bit ``k`` when it is that basis vector."""
    vmask, rmask, outs = coords
    sides = (_side_of(sa), _side_of(sb))
    if sides[0].outs != outs or sides[1].outs != outs:
        return None
    offset = choice.offset_bases()
    n_off = len(offset)
    eb = max(choice.bitwidth, 8) // 8
    epw = max(4 // eb, 1)
    vector = offset[:(16 // eb).bit_length() - 1]
    if vmask.bit_count() != len(vector):  # the vector bits are not one row
        return None
    for side, instr in zip(sides, (choice.store_instr, choice.load_instr)):
        if "matrix" not in instr:
            continue
        trans = instr.endswith(".trans")
        # registers pick the word's elements (non-.trans: the vector bits below a word) or rows,
        # warps (and the blocks a side that is not cut keeps: _shared_side) pick rows
        word = 0 if trans else sum(vector[:epw.bit_length() - 1])
        if side.reg_or & vmask & ~word or (side.warp_or | _or(side.layout.flat_bases("block"))) & vmask:
            return False
        for j, v in enumerate(side.lanes[:5]):
            if v == 0:  # a broadcast lane: no row of its own
                continue
            if v & rmask:
                return False
            if (j >= 2) == trans:  # a step inside the 16-byte row: exactly that offset bit
                k = (j - 2) if trans else (epw << j).bit_length() - 1
                if k >= n_off or offset[k] != v:
                    return False
            elif v & vmask:  # the start of another row
                return False
    return True


def _matrix_tiles(bitwidth: int, allowed: bool) -> tuple[MemOpTile, ...]:
    """The access tiles of one side: ``st/ld.shared``, plus the matrix instructions when allowed."""
    if not allowed or bitwidth > 32:
        return _PLAIN_TILES
    return _MATRIX_TILES_16 if bitwidth == 16 else _MATRIX_TILES


_PLAIN_TILES = (LD_ST_SHARED,)
_MATRIX_TILES = (LD_ST_SHARED, LD_ST_MATRIX)
_MATRIX_TILES_16 = (LD_ST_SHARED, LD_ST_MATRIX, LD_ST_MATRIX_TRANS)


#: a round-trip variant: (``stmatrix`` allowed, ``ldmatrix`` allowed), or :data:`_TRITON_LDST`
_Variant = tuple[bool, ...]
#: the variant of ``strategy="best"`` through Triton 3.9's plain ``ld/st.shared`` swizzle (where
#: the search falls back, Triton's own: :func:`~linlayout.plan_smem.ldst_choice_39`), priced as
#: every other: where its vectors and bank bits cost less under the hardware's count than the
#: search's plain swizzle, it wins, so that "best" is never dearer than the round trip
#: ``strategy="triton"`` chooses.  Elsewhere it is the search's plain swizzle, an earlier
#: variant's: the race skips it (:func:`_same_as_before`)
_TRITON_LDST: _Variant = (False, False, True)


class _Priced(NamedTuple):
    """A round trip priced without building its plan: its cost and its swizzle (the plan is
    ``trip.round_trip(kind, choice)``, with that cost)."""

    cost: float
    choice: SwizzleChoice


def _priced_trip(trip: _Trip, kind: str, choice: SwizzleChoice, max_bytes: int | None = None) -> _Priced:
    """The cheapest ``kind`` round trip from the unbudgeted swizzle ``choice``, priced.  Over the
    budget ``max_bytes``: more rounds through a smaller buffer, from ``choice`` and from plain
    ld/st.shared, cheapest first; :class:`UnsupportedError` when none fits."""
    if max_bytes is None or choice.bytes <= max_bytes:
        return _Priced(_choice_cost(trip, kind, choice), choice)
    search, sa, sb = trip.search(kind)
    tried: list[SwizzleChoice] = []
    starts = [choice]
    if "matrix" in choice.store_instr or "matrix" in choice.load_instr:
        starts.append(_rounds_fit(_repaired(search.ldst()), sa, sb))
    fits: list[_Priced] = []
    for c in starts:
        cur: SwizzleChoice | None = c
        while cur is not None:
            tried.append(cur)
            if cur.bytes <= max_bytes:
                fits.append(_Priced(_choice_cost(trip, kind, cur), cur))
                break
            cur = _fewer_bytes(cur, sa, sb)
    if fits:
        return min(fits, key=lambda f: f.cost)
    options = "; ".join(
        f"{c.store_instr}/{c.load_instr} in {c.reps} round{'s' if c.reps != 1 else ''}: {c.bytes} bytes" for c in tried
    )
    if kind == "cross_cta" or "warp" in trip.conv.in_dim_names:
        why = f"the data crosses {'CTAs' if kind == 'cross_cta' else 'warps'}, so it must go through shared memory"
    else:  # an in-warp exchange that strategy="triton" sends through shared memory, as Triton 3.9 does
        why = "Triton 3.9 sends this in-warp exchange through shared memory (not two permutation layouts, or two or more register<->lane transpositions)"
    raise UnsupportedError(
        f"no {kind.replace('_', ' ')} plan fits max_shared_bytes={max_bytes}: {why}, and the smallest buffer is "
        f"{min(c.bytes for c in tried)} bytes (a round can only be split along registers both layouts hold); alternatives: {options}"
    )


def _variant(trip: _Trip, kind: str, matrix: _Variant, max_bytes: int | None) -> _Priced | str:
    """One variant of a round trip (``matrix`` = (``stmatrix`` allowed, ``ldmatrix`` allowed)),
    priced as :func:`_priced_trip` (the reason as a string when none fits)."""
    choice = _variant_choice(trip, kind, matrix)
    if isinstance(choice, str):
        return choice
    try:
        return _priced_trip(trip, kind, choice, max_bytes)
    except UnsupportedError as e:
        return str(e)


def _unbudgeted_choice(trip: _Trip, kind: str, matrix: _Variant) -> SwizzleChoice:
    """The swizzle of a ``kind`` round trip with no shared-memory budget.

    Where both sides are permutations of the bits (every basis a distinct unit vector: Triton's
    layouts without copies) and the search built its choice on masks, the choice is kept as it
    is: its layout is a bijection (nothing to repair); its rounds are registers of both sides,
    which no lane, warp or block vector of either is (nothing for :func:`_rounds_fit` to move);
    and its matrix sides fit their rows (:func:`_matrix_rows_fit`).  A pair of the standard
    tiles fits only where the side ``a`` with more vector registers holds the leading
    contiguous lanes of the other side ``b`` as registers and the rest of them as its own
    contiguous lanes, in order; the vector bits are ``b``'s common registers, then ``b``'s
    contiguous lanes, which are ``a``'s registers, then ``a``'s contiguous lanes.  On each side
    its contiguous lanes start at vector bit ``total - len(contiguous lanes)``, the bit a 32-bit
    word's step (``.trans``: an element's) asks for, its registers among the vector bits lie
    below it, and no other lane or warp of it is a vector or reps bit (tests/test_plan_smem.py
    checks it on every pair of permutations it draws).
    """
    bw = max(trip.bits, 8)
    search, sa, sb = trip.search(kind)
    if matrix == _TRITON_LDST:
        # Triton's plain swizzle is the search's (the variant without matrix instructions), but
        # where the search falls back (no pair of access tiles vectorises 128 bits): there it is
        # Triton's own fallback (often built as the search's is: the race then skips it)
        if not _search_falls_back(trip, kind):
            plain = _variant_choice(trip, kind, (False, False))
            if isinstance(plain, str):
                raise UnsupportedError(plain)
            return plain
        return _rounds_fit(_repaired(search.ldst_39()), sa, sb)
    st_m, ld_m = matrix if kind == "shared_memory" else (False, False)
    choice = _triton_ldst(trip, kind, search.best(_matrix_tiles(bw, st_m), _matrix_tiles(bw, ld_m)))
    s_side, d_side = search.sides
    if "_unit_coords" in choice.__dict__ and s_side.perm and d_side.perm and s_side.layout is sa and d_side.layout is sb:
        return choice
    choice = _repaired(choice)
    if not _matrix_rows_fit(choice, sa, sb):
        choice = _repaired(_triton_ldst(trip, kind, search.best(_PLAIN_TILES, _PLAIN_TILES)))
    return _rounds_fit(choice, sa, sb)


def _triton_ldst(trip: _Trip, kind: str, choice: SwizzleChoice) -> SwizzleChoice:
    """``choice``, the swizzle search's answer, or in a ``strategy="triton"`` shared-memory round
    trip where the search fell back to plain ``ld/st.shared`` (no pair of access tiles vectorises
    128 bits) Triton 3.9's own fallback (:func:`~linlayout.plan_smem.ldst_choice_39`: vectors only
    of the registers both sides share, or the word filled with warps).  ``"best"`` keeps the
    search's (its vectors may hold registers of one side only, past the word)."""
    if not trip.triton or kind != "shared_memory" or "matrix" in choice.store_instr or "matrix" in choice.load_instr:
        return choice
    search, sa, sb = trip.search(kind)
    return search.ldst_39() if choice is search.ldst() else choice


def _variant_choice(trip: _Trip, kind: str, matrix: _Variant) -> SwizzleChoice | str:
    """:func:`_unbudgeted_choice` of a variant (the reason as a string when there is none),
    remembered in ``trip``."""
    key = (kind, matrix)
    got = trip.choices.get(key)
    if got is None:
        try:
            got = _unbudgeted_choice(trip, kind, matrix)
        except UnsupportedError as e:
            got = str(e)
        trip.choices[key] = got
    return got


def _plain(choice: SwizzleChoice) -> bool:
    """Whether a swizzle uses plain ld/st.shared on both sides (the variant without matrix
    instructions then chooses the same swizzle)."""
    return "matrix" not in choice.store_instr and "matrix" not in choice.load_instr


def _choice_cost(trip: _Trip, kind: str, choice: SwizzleChoice) -> float:
    """``trip.round_trip(kind, choice).cost`` without building the plan."""
    return trip.price(kind, choice).cost()


def _round_trip(trip: _Trip, kind: str, matrix: _Variant, max_bytes: int | None) -> Plan:
    """The plan of a ``kind`` round trip (``matrix`` = (``stmatrix`` allowed, ``ldmatrix``
    allowed)) within ``max_bytes``, or :class:`UnsupportedError`."""
    return trip.round_trip(kind, _priced_trip(trip, kind, _unbudgeted_choice(trip, kind, matrix), max_bytes).choice)


def _triton_shuffle_plan(trip: _Trip, schedule: LinearLayout | Plan | None = None) -> Plan | None:
    """Triton 3.9's in-warp lowering (its counts), or None where it goes through shared memory
    (two or more register<->lane transpositions).  ``schedule``: the plan's shuffle schedule, or a
    plan of the pair whose schedule it shares (read when first needed); by default
    :func:`shuffle_schedule` of the pair, computed when first read."""
    counts = _triton_shuffle_counts(trip)
    return None if counts is None else _triton_plan_of(trip, counts, schedule)


def _cheaper_triton_shuffle(trip: _Trip, scheduled: Plan) -> Plan | None:
    """:func:`_triton_shuffle_plan` sharing the schedule of ``scheduled`` (the pair's
    :func:`_scheduled_shuffle_plan`) where Triton's lowering costs less than it, else None (the
    plan is then not built: only its counts are priced, as :attr:`Plan.cost` would)."""
    counts = _triton_shuffle_counts(trip)
    if counts is None or price(shuffles=counts[1], selects=counts[2]) >= scheduled.cost:
        return None
    return _triton_plan_of(trip, counts, scheduled)


def _triton_plan_of(trip: _Trip, counts: tuple[int, int, int], schedule: LinearLayout | Plan | None) -> Plan:
    a, b, conv, bits = trip.a, trip.b, trip.conv, trip.bits
    m, shfl, sel = counts
    steps = []
    if sel:
        steps.append(_step("select", sel // 2, 32, "before the shuffles"))
    steps.append(_step("shfl.sync", shfl, 32, "one round of xor/idx shuffles"))
    if sel:
        steps.append(_step("select", sel - sel // 2, 32, "after the shuffles"))
    return Plan._new(
        "warp_shuffle", a, b, conv, bits, tuple(steps), shuffles=shfl, shuffle_rounds=1,
        mixed_transpositions=m, selects=sel,
        shuffle_schedule=_later(lambda: _schedule(a, b, bits).layout()) if schedule is None else (
            _later(lambda: schedule.shuffle_schedule) if isinstance(schedule, Plan) else schedule),
    )


def _triton_shuffle_counts(trip: _Trip) -> tuple[int, int, int] | None:
    """``(mixed transpositions, shuffles, selects)`` of Triton 3.9's in-warp lowering, or None
    where it goes through shared memory."""
    return triton_shuffle_counts(trip.warp_permutation(), trip.bits)


def _scheduled_shuffle_plan(trip: _Trip) -> Plan:
    """The in-warp exchange as the simulator executes it (:func:`shuffle_schedule`), counted by
    :func:`schedule_counts`; works for any conversion that stays inside the warp.  The schedule's
    LinearLayout is built when the plan's ``shuffle_schedule`` is first read."""
    a, b, conv, bits = trip.a, trip.b, trip.conv, trip.bits
    sch = _schedule(a, b, bits)
    shfl, sel = sch.counts(bits)
    m = len(trip.warp_permutation()[0])
    steps: tuple[Step, ...] = (_step("select", sel, 32, "choose the registers sent / filled"),) if sel else ()
    steps += (_step("shfl.sync", shfl, 32, f"idx shuffles in {sch.rounds} round(s), the rest register moves"),)
    return Plan._new("warp_shuffle", a, b, conv, bits, steps, shuffles=shfl, shuffle_rounds=1 if shfl else 0,
                mixed_transpositions=m, selects=sel, shuffle_schedule=_later(sch.layout))


def _scheduled_shuffle_counts(trip: _Trip) -> tuple[int, int]:
    """``(shuffles, selects)`` of :func:`_scheduled_shuffle_plan` without building the plan or
    the schedule's LinearLayout."""
    return _schedule(trip.a, trip.b, trip.bits).counts(trip.bits)


def _detail(p: Plan) -> str:
    if p.kind == "warp_shuffle":
        return f"{p.shuffles} shfl + {p.selects} selects"
    if p.kind in ("shared_memory", "cross_cta"):
        return f"{p.stores} {p.store_instr} + {p.loads} {p.load_instr}, {p.shared_bytes} bytes, {p.barriers} barriers"
    return p.kind


def _round_trip_floor(trip: _Trip, kind: str) -> float:
    """A lower bound of the cost of any ``kind`` round trip of the pair: every word of each side's
    registers stored (loaded) once at full width without conflicts (the stores in no phase that
    only lanes holding copies pick: at most lane bits 3 and 4 pick one), and one barrier."""
    tk = trip.kind_facts(kind)
    bw = tk.bw
    free = tk.fa.free_lanes & 0b11000
    waves = max(tk.fa.n_regs * bw // 32 >> free.bit_count(), 1) + max(tk.fb.n_regs * bw // 32, 1)
    return _round_trip_price(waves, 1, tk.key)


def _race(trip: _Trip, kind: str, variants: Sequence[_Variant], shuffle: float | None,
          budget: int | None) -> list[_Priced | str | None]:
    """The round-trip variants of a pair priced best first, each only as far as it can still win.

    Every variant is bounded below by its conflict-free floor (:class:`_Price`; before its
    swizzle is chosen, by the pair's :func:`_round_trip_floor`); the race works on the lowest
    bound (the first variant of equal ones: it wins ties), choosing its swizzle or counting one
    more side's bank conflicts, until that variant is priced exactly (it wins: nothing else can
    cost less) or its bound reaches the shuffle exchange's cost ``shuffle`` (the shuffle wins
    ties).  One entry per variant whose swizzle was chosen, in order: its price (a
    :class:`_Priced`, as :func:`_variant` gives it), the reason none fits (a string), or None
    when it was not priced (then priced only when :attr:`Plan.rejected` is read).  After a
    variant whose swizzle uses plain ld/st.shared the variant without matrix instructions is
    skipped (None): it would choose the same swizzle."""
    floor = _round_trip_floor(trip, kind)
    out: list[_Priced | str | None] = []
    if shuffle is not None and shuffle <= floor:
        return out
    bounds: list[float] = []  # per entry: a lower bound of its cost (its cost once priced; inf when none fits)
    bids: list[_Price | None] = []  # per entry: its price while its conflicts are being counted
    plain = False  # whether a variant's swizzle (not Triton's plain one) used plain ld/st.shared
    while True:
        low = min(bounds) if bounds else math.inf
        pick = bounds.index(low) if bounds else -1  # the first of equal bounds
        if len(out) < len(variants) and floor < low:
            if plain and variants[len(out)] == (False, False):  # the same swizzle again
                out.append(None)
                bids.append(None)
                bounds.append(math.inf)
                continue
            pick, low = len(out), floor
        if low == math.inf or (shuffle is not None and low >= shuffle):  # nothing left can win
            return out
        if pick == len(out):  # choose the next variant's swizzle
            bid: _Price | None = None
            entry: _Priced | str | None = None
            if variants[pick] == _TRITON_LDST and not _search_falls_back(trip, kind):  # the search's plain swizzle again
                out.append(None)
                bids.append(None)
                bounds.append(math.inf)
                continue
            choice = _variant_choice(trip, kind, variants[pick])
            if isinstance(choice, str):
                entry = choice
            elif pick and _same_as_before(trip, kind, variants, pick, choice):  # its price is an earlier one's: it cannot win
                out.append(None)
                bids.append(None)
                bounds.append(math.inf)
                continue
            elif budget is not None and choice.bytes > budget:  # more rounds: priced whole
                plain = plain or (_plain(choice) and variants[pick] != _TRITON_LDST)
                try:
                    entry = _priced_trip(trip, kind, choice, budget)
                except UnsupportedError as e:
                    entry = str(e)
            else:
                plain = plain or (_plain(choice) and variants[pick] != _TRITON_LDST)
                bid = trip.price(kind, choice)
                if bid.exact:
                    entry, bid = _Priced(bid.bound, choice), None
            out.append(entry)
            bids.append(bid)
            bounds.append(bid.bound if bid is not None else entry.cost if isinstance(entry, _Priced) else math.inf)
            continue
        bid = bids[pick]
        if bid is None:  # priced, and nothing left can cost less (ties: it comes first)
            return out
        bid.refine()
        bounds[pick] = bid.bound
        if bid.exact:
            out[pick] = _Priced(bid.bound, bid.choice)
            bids[pick] = None


def _search_falls_back(trip: _Trip, kind: str) -> bool:
    """Whether the swizzle search of a ``kind`` round trip falls back to its plain
    ``ld/st.shared`` swizzle (no pair of plain access tiles vectorises 128 bits): only there is
    Triton's plain swizzle (:data:`_TRITON_LDST`) its own."""
    got = trip.falls_back.get(kind)
    if got is None:
        got = trip.falls_back[kind] = not trip.search(kind)[0].vectorises(LD_ST_SHARED, LD_ST_SHARED)
    return got


def _same_as_before(trip: _Trip, kind: str, variants: Sequence[_Variant], i: int, choice: SwizzleChoice) -> bool:
    """Whether the swizzle ``choice`` of variant ``i`` is an earlier variant's plain one (the same
    shared layout, plain ld/st.shared on both sides: e.g. Triton's plain swizzle where the search
    builds its fallback as Triton does)."""
    lay = choice.layout
    for v in variants[:i]:
        other = trip.choices.get((kind, v))
        if other is choice or (isinstance(other, SwizzleChoice) and _plain(other) and other.layout._ins == lay._ins
                               and other.layout._outs == lay._outs):
            return True
    return False


def _round_trip_kind(trip: _Trip, names: Sequence[str], matrix: tuple[bool, bool]) -> tuple[str, list[_Variant]]:
    """The round-trip kind of a pair moving data across ``names`` and its variants: ``matrix``,
    then (shared memory) through Triton 3.9's plain swizzle (:data:`_TRITON_LDST`: it wins ties
    with the search's plain swizzle) and (where matrix instructions are allowed) without them."""
    kind = "cross_cta" if "block" in names else "shared_memory"
    if kind == "cross_cta":
        return kind, [matrix]
    return kind, [matrix, _TRITON_LDST] + ([(False, False)] if any(matrix) else [])


def _winner(shuffle: float | None, trips: Sequence[_Priced | str | None]) -> _Priced | None:
    """The cheapest priced round trip (the first of equal ones), or None when the shuffle
    exchange costs no more (ties: the simpler mechanism) or no round trip was priced."""
    best = None
    for e in trips:
        if isinstance(e, _Priced) and (best is None or e.cost < best.cost):
            best = e
    return None if best is None or (shuffle is not None and shuffle <= best.cost) else best


def _best(trip: _Trip, matrix: tuple[bool, bool], budget: int | None) -> Plan:
    """Every feasible mechanism priced by :mod:`linlayout.cost`; the cheapest wins (ties: the
    simpler mechanism), the others are recorded in ``Plan.rejected``.

    Round trips are priced without building their plans (:func:`_race`), and those that cannot
    win are priced only when ``Plan.rejected`` is read; the choice is the same as pricing
    everything first, and only the winner's plan is built."""
    names = trip.conv.in_dim_names
    shuffles: list[Plan] = []
    no_shuffle = ""  # why the in-warp exchange is not feasible (its Alternative is built when rejected() is read)
    if "block" not in names and "warp" not in names:
        shuffles.append(_scheduled_shuffle_plan(trip))
        tri = _cheaper_triton_shuffle(trip, shuffles[0])  # built only where it costs less
        if tri is not None:
            shuffles.insert(0, tri)
    else:
        no_shuffle = "the data crosses CTAs" if "block" in names else "the data crosses warps"
    kind, variants = _round_trip_kind(trip, names, matrix)
    shuffle = min(p.cost for p in shuffles) if shuffles else None
    trips = _race(trip, kind, variants, shuffle, budget)
    won = _winner(shuffle, trips)
    if won is not None:
        # built outside the trip's prices: the trip (read by rejected() below) must not hold it
        best = _plan_from_choice(kind, trip, won.choice, *trip.sides(kind))
    elif shuffles:
        best = min(shuffles, key=lambda p: p.cost)
    else:
        raise UnsupportedError(next(e for e in trips if isinstance(e, str)))
    # rejected() is given the plan it compares with when read (it does not hold it), so that a
    # plan and what it remembers are freed without the cyclic GC
    others: list[Plan | None] = [None if p is best else p for p in shuffles]

    def rejected(best: Plan) -> tuple[Alternative, ...]:
        for i in range(len(variants)):
            if i == len(trips):
                trips.append(_variant(trip, kind, variants[i], budget))
            elif trips[i] is None:
                trips[i] = _variant(trip, kind, variants[i], budget)
        every = [best if p is None else p for p in others]
        for e in trips:
            if isinstance(e, _Priced):
                p = best if won is not None and e.choice is won.choice else trip.round_trip(kind, e.choice)
                if all(p != q for q in every):
                    every.append(p)
        out = [Alternative(p.kind, _detail(p), p.cost, f"costs {p.cost - best.cost:g} more under the cost model"
                           if p.cost > best.cost else "as cheap, but a simpler mechanism was chosen")
               for p in every if p is not best]
        if no_shuffle:
            out.append(Alternative("warp_shuffle", "in-warp exchange", None, no_shuffle))
        if any(isinstance(e, str) for e in trips) and not any(c.kind in ("shared_memory", "cross_cta") for c in every):
            out.append(Alternative(kind, f"max_shared_bytes={budget}", None, "no round trip fits the shared-memory budget"))
        return tuple(out)

    # the winner was built by this call alone (nothing of a pair is remembered across calls): its
    # alternatives are attached in place instead of copying the frozen plan
    object.__setattr__(best, "rejected", _Later(rejected, of_plan=True))
    return best


def _best_cost(trip: _Trip, names: Sequence[str]) -> tuple[float, str]:
    """``(plan.cost, plan.kind)`` of :func:`_best` (no budget) without building plans: the same
    race (:func:`_race`), the shuffle exchange counted from its schedule."""
    shuffle = None
    if "block" not in names and "warp" not in names:
        shfl, sel = _scheduled_shuffle_counts(trip)
        shuffle = price(shuffles=shfl, selects=sel)
        tri = _triton_shuffle_counts(trip)
        if tri is not None:
            shuffle = min(shuffle, price(shuffles=tri[1], selects=tri[2]))
    kind, variants = _round_trip_kind(trip, names, (True, True))
    trips = _race(trip, kind, variants, shuffle, None)
    won = _winner(shuffle, trips)
    if won is not None:
        return won.cost, kind
    if shuffle is None:
        raise UnsupportedError(next(e for e in trips if isinstance(e, str)))
    return shuffle, "warp_shuffle"


def _fast_cost(a: LinearLayout, b: LinearLayout, bits: int) -> tuple[float, str]:
    """``(plan.cost, plan.kind)`` of ``plan_conversion(a, b, bitwidth=bits)`` for layouts
    :func:`_pair` has normalized."""
    comp = conversion_map(a, b)
    names = _minimal_dims(a, b, comp, "best")
    if not names:
        return 0.0, "noop"
    if names == ("register",):
        return 0.0, "register"
    # the minimal map itself is not needed (only its dims): no plan reads it here
    return _best_cost(_Trip(a, b, cast(LinearLayout, None), comp, bits), names)


def conversion_costs(srcs: Sequence[Any], dsts: Sequence[Any], *, bitwidth: int | str = 32,
                     shape: Sequence[int] | None = None) -> list[list[tuple[float, str] | LayoutError]]:
    """The cost and kind of ``plan_conversion(s, d, bitwidth=bitwidth)`` for every ``s`` in
    ``srcs`` (rows) and ``d`` in ``dsts``, without building the plans (the cost matrices of
    :mod:`linlayout.app.space`).  A pair the planner refuses holds its error instead.

    Each layout is read and normalized once; equal layouts share their answers (each distinct
    pair is priced once); a pair kept within its threads is answered from its conversion map's
    dims alone; in-warp exchanges are counted from their schedules and round trips from their
    chosen swizzles only (the plans, their alternatives and their sentences are not built).
    The answers are those of :attr:`Plan.cost` and :attr:`Plan.kind` (``strategy="best"``, no
    budget).

        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
        >>> d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
        >>> conversion_costs([s, d], [s, d])
        [[(0.0, 'noop'), (2.5, 'warp_shuffle')], [(2.5, 'warp_shuffle'), (0.0, 'noop')]]
        >>> conversion_costs([s], [d])[0][0] == (plan_conversion(s, d).cost, plan_conversion(s, d).kind)
        True
    """
    bits = element_bitwidth(bitwidth)
    srcs = as_list(srcs, "conversion_costs: srcs", MAX_ITEMS)
    dsts = as_list(dsts, "conversion_costs: dsts", MAX_ITEMS)

    def normalized(x: Any) -> LinearLayout | LayoutError:
        try:
            return _pair(x, x, shape)[0]
        except LayoutError as e:
            return e

    memo: dict[int, LinearLayout | LayoutError] = {}
    ns = [memo[id(x)] if id(x) in memo else memo.setdefault(id(x), normalized(x)) for x in srcs]
    nd = [memo[id(x)] if id(x) in memo else memo.setdefault(id(x), normalized(x)) for x in dsts]
    done: dict[tuple[LinearLayout, LinearLayout], tuple[float, str] | LayoutError] = {}
    out: list[list[tuple[float, str] | LayoutError]] = []
    # what a pair must share for the planner's checks to pass without reading it again: the
    # tensor (out-dims in order) and the hardware (lanes, warps, CTAs), :func:`_distributed`'s key
    sigs = {id(x): cast(tuple, _distributed(x))[1] for x in ns + nd if isinstance(x, LinearLayout)}
    for i, a in enumerate(ns):
        row: list[tuple[float, str] | LayoutError] = []
        for j, b in enumerate(nd):
            key = (a, b) if isinstance(a, LinearLayout) and isinstance(b, LinearLayout) else None
            got = done.get(key) if key is not None else None
            if got is None:
                try:
                    if key is None or sigs[id(key[0])] != sigs[id(key[1])]:
                        got = _fast_cost(*_pair(srcs[i], dsts[j], shape), bits)  # the planner's checks, and its error
                    else:
                        got = _fast_cost(key[0], key[1], bits)
                except LayoutError as e:
                    got = e
                if key is not None:
                    done[key] = got
            row.append(got)
        out.append(row)
    return out


def clear_caches() -> None:
    """Forget the per-layout facts the planner remembers (for benchmarks that time a plan from
    scratch; the answers never depend on them).  Nothing of a pair is remembered across calls."""
    for f in (_with_hardware_dims, _thread_vectors):
        f.cache_clear()
    clear_side_caches()
    clear_price_caches()
    clear_shuffle_caches()
    clear_swizzle_caches()
    _bank_unit_images.cache_clear()
    _free_lanes.cache_clear()
    _local_echelon.cache_clear()
    _clear_front_caches()


def _moved_registers(conv: LinearLayout) -> int:
    """How many registers ``i`` a register-only conversion map ``P`` sends to a register other
    than ``i``: all but the fixed points, which are the kernel of ``P + I`` over GF(2)
    (``2**(n - rank(P + I))`` of the ``2**n`` registers).

        >>> swap = LinearLayout({"register": [[2], [1]]}, {"register": 4})   # swaps bits 0 and 1
        >>> _moved_registers(swap)   # registers 1 and 2 trade places; 0 and 3 stay
        2
    """
    cols = conv.sublayout(["register"], ["register"]).flat_bases("register")
    n = len(cols)
    return (1 << n) - (1 << (n - gf2.rank([c ^ (1 << j) for j, c in enumerate(cols)])))


def plan_conversion(
    src: Any,
    dst: Any,
    *,
    bitwidth: int | str = 32,
    shape: Sequence[int] | None = None,
    matrix_instructions: bool = True,
    strategy: str = "best",
    max_shared_bytes: int | None = None,
    ldmatrix: bool | None = None,
    stmatrix: bool | None = None,
) -> Plan:
    """Plan the conversion of a tensor from distributed layout ``src`` to ``dst``.

    ``src`` / ``dst`` are LinearLayouts (in-dims among register, lane, warp, block) or objects with
    ``to_linear(shape)`` (then give ``shape``).  ``bitwidth`` is the element size in bits or a
    dtype name.  ``ldmatrix`` (sm_75 on) and ``stmatrix`` (sm_90 on) allow the matrix
    instructions on the load / store side; each defaults to ``matrix_instructions`` (the old
    switch for both).

    ``strategy="triton"`` chooses the mechanism and counts as Triton 3.9 does: a lane conversion
    uses warp shuffles when both layouts are permutation matrices (every non-zero basis a
    distinct power of two: no XOR-combined bases, no two bases holding the same elements) and
    its permutation of index bits has at most one register<->lane transposition, else shared
    memory, including the shared-memory round trip where each CTA or warp already holds a copy
    of what it needs (the local replica); a round trip whose access tiles do not vectorise 128
    bits takes Triton's own plain ``ld/st.shared`` swizzle, and every ``ld/st.shared`` vector is
    the one Triton's lowering finds (its PTX's store and load counts).  In a CTA cluster each
    CTA's buffer holds its own part (both strategies).  ``"best"`` (default) prices
    every feasible mechanism with the one cost model (:mod:`linlayout.cost`): the register
    permutation, the in-warp shuffle exchange as the simulator executes it (which also notices
    copies held in the same lane or warp), Triton's shuffle lowering, and shared-memory round
    trips with and without matrix instructions, each with its swizzle; the cheapest wins and
    ``Plan.rejected`` (and the plan's sentence) says what it beat and why.  Multi-step plans
    through intermediate layouts are compared by :func:`linlayout.plan_graph.cheapest_path`.
    ``max_shared_bytes`` caps the buffer of a round trip: the plan then takes more rounds
    through a smaller buffer (narrower vectors if need be), uses shuffles where they work, or
    raises :class:`~linlayout.errors.UnsupportedError` listing the alternatives and their bytes.

        >>> def blocked(spt, tpw, wpc, shape):   # a 2-D BlockedLayout with order [1, 0], built by hand
        ...     from linlayout import LinearLayout as LL
        ...     def ident(n, hw, d):
        ...         return LL.identity_1d(n, hw, d)
        ...     L = ident(spt[1], "register", "dim1") * ident(spt[0], "register", "dim0")
        ...     L = L * ident(tpw[1], "lane", "dim1") * ident(tpw[0], "lane", "dim0")
        ...     L = L * ident(wpc[1], "warp", "dim1") * ident(wpc[0], "warp", "dim0")
        ...     return L.transpose_outs(["dim0", "dim1"])
        >>> rows = blocked([1, 1], [1, 32], [1, 4], None)       # 1 x 128 tile
        >>> p = plan_conversion(rows, rows)
        >>> p.kind
        'noop'

    Raises:
        DimensionError: the layouts are of different tensors or are not distributed layouts.
        SizeError: the tensors' sizes differ, the layouts run on different numbers of lanes,
            warps or CTAs, or are larger than :data:`MAX_REGISTERS_PER_THREAD` /
            :data:`MAX_ELEMENTS` (checked before any work).
        UnsupportedError: no round trip fits ``max_shared_bytes`` (and no shuffle exchange exists).
    """
    bits = element_bitwidth(bitwidth)
    if not isinstance(strategy, str) or strategy not in ("triton", "best"):
        raise LayoutError(f"strategy must be 'triton' or 'best', got {strategy!r:.60}")
    budget = None
    if max_shared_bytes is not None:
        if isinstance(max_shared_bytes, bool) or not isinstance(max_shared_bytes, int) or max_shared_bytes < 0:
            raise LayoutError(f"max_shared_bytes must be a non-negative int (bytes of shared memory), got {max_shared_bytes!r}")
        budget = max_shared_bytes
    m_all = as_bool(matrix_instructions, "plan_conversion", "matrix_instructions")
    matrix = (m_all if stmatrix is None else as_bool(stmatrix, "plan_conversion", "stmatrix"),
              m_all if ldmatrix is None else as_bool(ldmatrix, "plan_conversion", "ldmatrix"))
    a, b = _pair(src, dst, shape)
    comp = conversion_map(a, b)  # the one conversion map every mechanism reads
    conv = _minimal(a, b, comp, strategy)
    names = conv.in_dim_names
    if "register" in names and len(names) == 1:
        moves = _moved_registers(conv)
        return Plan._new("register", a, b, conv, bits, (_step("mov", 0, 0, f"{moves} registers renamed (free)"),), register_moves=moves,
                    shuffle_schedule=_later(lambda: shuffle_schedule(a, b, bits)))
    if not names:
        return Plan._new("noop", a, b, conv, bits, (), shuffle_schedule=_later(lambda: shuffle_schedule(a, b, bits)))
    trip = _Trip(a, b, conv, comp, bits, strategy == "triton")
    if strategy == "best":
        return _best(trip, matrix, budget)
    if "block" in names:
        return _round_trip(trip, "cross_cta", matrix, budget)
    if "warp" in names or _triton_needs_shared_memory(a, b, comp):
        return _round_trip(trip, "shared_memory", matrix, budget)
    tri = _triton_shuffle_plan(trip)
    return tri if tri is not None else _round_trip(trip, "shared_memory", matrix, budget)
