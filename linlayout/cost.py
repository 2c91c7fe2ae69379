"""The one cost model of conversion plans: what a plan costs, with its sources.

Every consumer prices plans here: :attr:`linlayout.plan.Plan.cost` (and so
``plan_conversion(strategy="best")``, which compares every feasible mechanism under it),
:func:`linlayout.plan_graph.cheapest_path`, the cost matrices of :mod:`linlayout.app.space` and
the audit.

**Unit**: one warp-wide issue on the memory-input/output (MIO) pipe of an SM sub-partition,
i.e. one *wavefront*.  Per thread (= per warp, as every thread of a warp issues the same
instructions):

==================  ==========  ===========================================================
item                weight      source
==================  ==========  ===========================================================
``shfl.sync``       1           CUDA C++ Programming Guide, "Arithmetic Instructions"
                                throughput table: warp shuffle 32 results/clock/SM, i.e. one
                                warp-wide shuffle per clock, the rate of one shared-memory
                                wavefront (32 banks x 4 bytes per clock).
select / prmt       0.5         same table: 32-bit compare/select and byte permute run at
                                64 results/clock/SM (sm_80/sm_90), half a shuffle's cost.
                                The counts are Triton 3.9's (``transferWithinWarp`` in
                                ConvertLayoutOpToLLVM.cpp: selects around the shuffles).
shared wavefront    1           one 128-byte shared-memory transaction.  A ``v``-bit
                                ``st/ld.shared`` of 32 lanes moves ``4v`` bytes: ``max(1,
                                v/32)`` wavefronts when conflict-free (2 / 4 phases for 64 /
                                128 bits; a store's phase whose lanes all hold copies is
                                predicated off and takes none); ``stmatrix``/``ldmatrix``
                                one per 8x16-byte matrix (``.x4`` = 4).  Bank conflicts
                                multiply: ``(1 + extra)`` wavefronts per phase (the
                                hardware's count, :func:`linlayout.banks.bank_conflicts`
                                with ``hardware=True``; the simulator counts the same,
                                :mod:`linlayout.simulate`).
``bar.sync``        2           a model value, not a measurement: a CTA barrier drains the
                                warp's outstanding shared accesses; its real cost depends on
                                the other warps (occupancy), which a layout cannot know.
``bar.warp.sync``   0.5         a model value: a warp-level barrier (Triton 3.9 uses one when
                                every warp reads back only what it wrote, ``isCvtWarpSync``).
``barrier.cluster`` 8           a model value: a cluster barrier round trip through the
                                cluster's interconnect, plus remote (DSMEM) accesses.
``tcgen05.ld/st``   1           a model value: one issue per instruction (any shape and
                                repetition moves the same bytes, so the bytes cancel when
                                shapes are compared; :mod:`linlayout.plan_tmem`).
register move       0           renamed away by the register allocator (ptxas).
==================  ==========  ===========================================================

**Where it is a model, not a measurement**: the weights are throughput ratios from the CUDA
guide (issue rates, not latencies); latency hiding, the other warps, dual issue, ptxas
scheduling and register pressure are ignored; barrier weights are guesses.  Counts are exact
where they can be checked: the shuffles, stores, loads and barriers a plan claims are those
:func:`linlayout.simulate` executes, and ``strategy="triton"`` counts are compared with Triton
3.9's PTX in the test suite (tests/test_cost.py prints the agreement per corpus).

**Worked example** (tests/test_cost.py): Dot operand B (``k_width`` 2) -> MMA v2 accumulator,
128 x 128 fp16, 4 warps along M.  Every warp holds all of B (512 fp16 per thread) but needs a
quarter of it.  Triton 3.9 stores the replicated operand through shared memory: 64
``stmatrix.x4`` (256 wavefronts) + 16 ``ldmatrix.trans.x4`` (64) + 31 barriers over 16 rounds =
382; without matrix instructions 350.  Triton's own shuffle formula would take 256 shuffles +
512 selects = 512.  The exchange the simulator executes moves only the 64 words each thread
needs: 64 ``shfl`` + 128 selects = 128, so ``strategy="best"`` chooses the shuffles and lists the
round trips as rejected.  The shuffles win because the round trip moves 4x the data (the
replicas) and pays a barrier per round, not because shuffles are cheaper per byte (they are
not: one shuffle moves 128 bytes per warp, one 128-bit shared wavefront also 128 bytes).

    >>> shared_wavefronts("st.shared", 128, 0), shared_wavefronts("st.shared", 16, 0)
    (4, 1)
    >>> shared_wavefronts("ldmatrix.trans", 128, 1)   # .x4 with one extra wavefront per matrix
    8
    >>> price(shuffles=64, selects=32)
    80.0
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .checks import as_int
from .errors import LayoutError, SizeError
from .limits import MAX_INT

__all__ = ["WEIGHTS", "shared_wavefronts", "price", "plan_cost", "explain"]

#: Weights of the model (see the module docstring for their sources).
WEIGHTS: dict[str, float] = {
    "shfl": 1.0,
    "select": 0.5,
    "wavefront": 1.0,
    "barrier": 2.0,
    "warp_barrier": 0.5,
    "cluster_barrier": 8.0,
    "tcgen05": 1.0,
}


def shared_wavefronts(instr: str, bits: int, conflicts: int) -> int:
    """Wavefronts one warp-wide shared-memory instruction takes: ``bits`` per thread (the
    access width), ``conflicts`` extra wavefronts per phase (0 = conflict-free)."""
    # st/ld.shared: 32 lanes x bits / 8 bytes at 128 bytes per wavefront; st/ldmatrix: one
    # 8x16-byte matrix per 32-bit word each thread holds (.x4: 4 words, 4 matrices)
    if not isinstance(instr, str):
        raise LayoutError(f"shared_wavefronts: expected an instruction name, got {type(instr).__name__} {instr!r:.40}")
    return _wavefronts(instr, as_int(bits, "shared_wavefronts: bits", LayoutError),
                       as_int(conflicts, "shared_wavefronts: conflicts", LayoutError))


def _wavefronts(instr: str, bits: int, conflicts: int) -> int:
    """:func:`shared_wavefronts` of counts the planner made (no checks)."""
    return max(bits // 32, 1) * (1 + max(conflicts, 0))


def price(*, shuffles: int = 0, selects: int = 0, wavefronts: int = 0, barriers: int = 0, cluster_barriers: int = 0,
          warp_barriers: int = 0) -> float:
    """The model's cost of these per-thread counts."""
    counts = {"shuffles": shuffles, "selects": selects, "wavefronts": wavefronts, "barriers": barriers,
              "cluster_barriers": cluster_barriers, "warp_barriers": warp_barriers}
    for name, c in counts.items():
        if isinstance(c, bool) or not isinstance(c, (int, float)):
            raise LayoutError(f"price: {name} must be a number, got {type(c).__name__} {c!r:.40}")
        if not 0 <= c <= MAX_INT:  # NaN fails too
            raise SizeError(f"price: {name} must be a count in [0, 2**62), got {c if abs(c) < 2**200 else 'a huge number'}")
    return _weighted(**counts)


def _weighted(shuffles: int = 0, selects: int = 0, wavefronts: int = 0, barriers: int = 0, cluster_barriers: int = 0,
              warp_barriers: int = 0) -> float:
    """:func:`price` of counts the planner made (no checks: the planner's hot path prices
    thousands of candidates per cost matrix)."""
    w = WEIGHTS
    return float(shuffles * w["shfl"] + selects * w["select"] + wavefronts * w["wavefront"]
                 + barriers * w["barrier"] + cluster_barriers * w["cluster_barrier"] + warp_barriers * w["warp_barrier"])


def _round_trip_price(wavefronts: int, barriers: int, key: str) -> float:
    """:func:`_weighted` of a round trip's counts, ``barriers`` weighed as ``key`` (a value of
    :data:`BARRIER_KEYS`): the same float (the other terms are zero), without the call's
    keywords (the planner prices every variant of a round trip this way)."""
    w = WEIGHTS
    return float(wavefronts * w["wavefront"] + barriers * w[key])


_PLAN_FIELDS = ("kind", "shuffles", "selects", "barriers", "stores", "loads")


def _check_plan(plan: Any, who: str) -> None:
    """A :class:`~linlayout.errors.LayoutError` unless ``plan`` has a plan's count fields."""
    missing = [f for f in _PLAN_FIELDS if not hasattr(plan, f)]
    if missing:
        raise LayoutError(f"{who}: expected a Plan (or an object with its count fields), got "
                          f"{type(plan).__name__} without {', '.join(missing)}")


#: The cost-model key of each barrier instruction a plan may use.
BARRIER_KEYS = {"bar.sync": "barrier", "bar.warp.sync": "warp_barrier", "barrier.cluster": "cluster_barrier"}


def _barrier_key(plan: Any) -> str:
    if plan.kind == "cross_cta":
        return "cluster_barrier"
    return "warp_barrier" if getattr(plan, "barrier_instr", "") == "bar.warp.sync" else "barrier"


def _plan_wavefronts(plan: Any, per_access: Callable[[str, int, int], int] = shared_wavefronts) -> int:
    bits = max(int(getattr(plan, "bitwidth", 32)), 8)
    st = per_access(plan.store_instr, plan.store_vector * bits, plan.store_conflicts)
    words = plan.store_vector * bits // 32
    if words > 1 and "matrix" not in plan.store_instr:
        # lanes holding only copies of other lanes' data are predicated off: the phases they
        # alone select take no wavefront (a plan's source layout says which)
        free = _free_lanes(getattr(plan, "src", None))
        if free:
            st = st // words * _store_phases(words, free)
    ld = plan.loads * per_access(plan.load_instr, plan.load_vector * bits, plan.load_conflicts)
    return plan.stores * st + ld


def _store_phases(words: int, free_lanes: int) -> int:
    """The wavefronts one conflict-free ``st.shared`` of ``words`` 32-bit words per lane takes:
    one per phase (the last ``log2(words)`` of 5 lane bits pick it) in which some lane stores; a
    lane bit among those that only selects copies (``free_lanes``: such threads are predicated
    off, as Triton's redundant-thread predicate does) halves them, as
    :func:`linlayout.simulate.simulate` executes it.

        >>> _store_phases(4, 0), _store_phases(4, 0b10000), _store_phases(2, 0b01000), _store_phases(1, 0b11111)
        (4, 2, 2, 1)
    """
    if words < 2 or not free_lanes:
        return words
    k = words.bit_length() - 1
    return words >> ((free_lanes >> (5 - k)) & (words - 1)).bit_count()


@functools.lru_cache(maxsize=4096)
def _free_lanes(layout: Any) -> int:
    """The lane bits of a distributed layout that hold only copies of lower lanes' or its
    registers' data (free variables); 0 for anything else.  Remembered per layout (cleared by
    :func:`linlayout.plan.clear_caches`)."""
    masks = getattr(layout, "free_variable_masks", None)
    return masks().get("lane", 0) if masks is not None else 0


def plan_cost(plan: Any) -> float:
    """The model's cost of a :class:`~linlayout.plan.Plan` (or anything with its count fields);
    0 for plans that keep every element in its thread.

        >>> from linlayout import LinearLayout, plan_conversion
        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
        >>> d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
        >>> plan_cost(plan_conversion(s, d)) == plan_conversion(s, d).cost
        True
    """
    _check_plan(plan, "plan_cost")
    if plan.kind in ("noop", "register"):
        return 0.0
    return price(**_plan_counts(plan, shared_wavefronts))


def _plan_counts(plan: Any, per_access: Callable[[str, int, int], int]) -> dict[str, int]:
    """The counts :func:`price` weighs of a plan that moves data (its barriers under their key)."""
    return {"shuffles": plan.shuffles, "selects": plan.selects, "wavefronts": _plan_wavefronts(plan, per_access),
            _barrier_key(plan) + "s": plan.barriers}


def _plan_price(plan: Any) -> float:
    """:func:`plan_cost` of a plan the planner built (its fields are its own counts: no checks)."""
    if plan.kind in ("noop", "register"):
        return 0.0
    return _weighted(**_plan_counts(plan, _wavefronts))


def explain(plan: Any) -> str:
    """The cost as a sum a person can check, e.g. ``64 shfl x 1 + 32 select x 0.5 = 80``."""
    _check_plan(plan, "explain")
    if plan.kind in ("noop", "register"):
        return "0 (no data leaves its thread)"
    w = WEIGHTS
    parts = []
    if plan.shuffles:
        parts.append(f"{plan.shuffles} shfl x {w['shfl']:g}")
    if plan.selects:
        parts.append(f"{plan.selects} select x {w['select']:g}")
    wf = _plan_wavefronts(plan)
    if wf:
        parts.append(f"{wf} shared wavefronts x {w['wavefront']:g}")
    if plan.barriers:
        key = _barrier_key(plan)
        parts.append(f"{plan.barriers} {key.replace('_', ' ')} x {w[key]:g}")
    return " + ".join(parts or ["0"]) + f" = {plan_cost(plan):g}"
