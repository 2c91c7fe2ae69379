"""Every round trip claims the bank conflicts it executes, and ``strategy="best"`` is never dearer
than Triton's round trip under that count.

A plan's ``store_conflicts`` / ``load_conflicts`` are excess wavefronts per wavefront; the
simulator (:func:`linlayout.simulate.simulate`, the oracle here) executes the plan and counts
the wavefronts of every instruction, the most over the warps.  The claim is honest when every
access takes ``excess == claimed * ideal``.  On f7a3a3b 102 of 3508 round trips of
benchmarks/check_plans.py (seed 7, 1500 random pairs) were not: sub-word accesses whose lanes
share a bank in two words (Triton's model splits the offset by elements), a priced vector other
than the executed one (Triton's widest against a ``best`` top-up or Triton 3.9's stricter
lowering: other phases, other segment bits), cross-CTA sides, and matrix sides that kept the
swizzle search's access-tile estimate.
"""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from linlayout.cost import BARRIER_KEYS, _round_trip_price
from linlayout.errors import UnsupportedError
from linlayout.plan import plan_conversion
from linlayout.simulate import simulate
from test_plan_race import _pairs
from test_simulate import assert_claims_executed

ROUND_TRIPS = ("shared_memory", "cross_cta")


def executed_cost(p, rep) -> float:
    """The cost model's price of what the simulator executed: every access's wavefronts (the
    most over the warps) and the plan's barriers."""
    return _round_trip_price(sum(a.wavefronts for a in rep.accesses), p.barriers, BARRIER_KEYS[p.barrier_instr])


def _plan(a, b, bits, matrix, budget, strategy):
    try:
        return plan_conversion(a, b, bitwidth=bits, strategy=strategy, stmatrix=matrix[0], ldmatrix=matrix[1],
                               max_shared_bytes=budget)
    except UnsupportedError:
        return None


@settings(max_examples=200, deadline=None)
@given(_pairs(), st.sampled_from(["best", "triton"]))
def test_every_round_trip_claims_the_conflicts_it_executes(pair, strategy):
    """Random distributed pairs (XOR-mixed, broadcast, CTA clusters, traded bases), both
    strategies, with and without matrix instructions and a budget: every shared-memory and
    cross-CTA plan runs correctly and each of its accesses takes the wavefronts it claims."""
    a, b, bits, matrix, budget = pair
    p = _plan(a, b, bits, matrix, budget, strategy)
    assume(p is not None and p.kind in ROUND_TRIPS)
    rep = simulate(p)
    assert rep.ok, rep
    assert_claims_executed(p, rep)
    assert (rep.stores, rep.loads, rep.barriers) == (p.stores, p.loads, p.barriers)
    assert p.cost == executed_cost(p, rep)  # stores of lanes holding copies included: predicated off


@settings(max_examples=200, deadline=None)
@given(_pairs())
def test_best_is_never_dearer_than_tritons_round_trip(pair):
    """Where both strategies go through shared memory, ``best`` (its own search, priced with the
    hardware's count) costs no more than Triton's round trip: it also races Triton's plain
    swizzle, and a conflicting plain side takes the narrower vector that costs less."""
    a, b, bits, matrix, budget = pair
    p = _plan(a, b, bits, matrix, budget, "best")
    t = _plan(a, b, bits, matrix, budget, "triton")
    assume(p is not None and t is not None and t.kind in ROUND_TRIPS)
    assert p.cost <= t.cost, (p, t)


def test_cvt_ptx_costs_are_executed_and_best_is_never_dearer(oracle):
    """On every row of Triton's cvt_ptx corpus, both strategies: a round trip's cost is what the
    simulator executes (its conflicts, and no wavefront for a store phase whose lanes all hold
    copies: on f7a3a3b 104 "best" and 84 "triton" round trips were priced otherwise), and where
    both go through shared memory "best" executes no more than Triton's plan (on f7a3a3b 17 rows
    did: rows 12, 27, 49, ...; e.g. row 67, where Triton's 128-bit stores predicate half their
    phases off)."""
    from converters.gluon import from_dict

    both = 0
    for i, r in enumerate(oracle("triton-3.9/cvt_ptx.jsonl")):
        src, dst = (from_dict(r[k]).to_linear(list(r["shape"])) for k in ("src", "dst"))
        got = {}
        for strategy in ("best", "triton"):
            p = plan_conversion(src, dst, bitwidth=r["dtype"], strategy=strategy)
            if p.kind in ROUND_TRIPS:
                rep = simulate(p)
                assert p.cost == executed_cost(p, rep), (i, strategy, p.cost, executed_cost(p, rep))
                got[strategy] = p.cost
        if len(got) == 2:
            both += 1
            assert got["best"] <= got["triton"], (i, got)
    assert both > 150


def test_sub_word_conflicts_are_claimed():
    """Sub-word accesses: the cvt_ptx i8 row 192 (Triton 3.9's fallback fills the word with a
    warp, so its loads are single bytes) executes one excess wavefront per load that Triton's
    model does not see; the plan claims it (f7a3a3b claimed 0)."""
    from conftest import load_oracle
    from converters.gluon import from_dict

    r = load_oracle("triton-3.9/cvt_ptx.jsonl")[192]
    src, dst = (from_dict(r[k]).to_linear(list(r["shape"])) for k in ("src", "dst"))
    p = plan_conversion(src, dst, bitwidth=r["dtype"], strategy="triton")
    rep = simulate(p)
    assert p.load_vector * 8 < 32 and p.load_conflicts == 1
    assert_claims_executed(p, rep)


def _flat(bases, outs):
    from linlayout import LinearLayout

    return LinearLayout.from_flat(bases, outs)


#: pairs of benchmarks/check_plans.py (seed 7) whose plans claimed other conflicts than they
#: executed on f7a3a3b, one per cause: (what it shows, bits, options, strategy, the side's
#: instruction of Triton's plan / the plan, src bases, dst bases, out-dims)
_CAUSES = [
    ("ldmatrix.trans side kept the search's estimate", 16, {}, "triton", "ldmatrix.trans",
     {"register": [4096, 8192, 2, 1, 32, 16384, 2048, 64], "lane": [8, 128, 4, 1024, 256], "warp": [16, 512]},
     {"register": [1, 2, 4, 8, 16, 48, 64, 128], "lane": [512, 1024, 2048, 4096, 4352], "warp": [8192, 16384]},
     [("dim0", 256), ("dim1", 128)]),
    ("8-bit ldmatrix rows: the estimate missed a conflict", 8, {}, "triton", "ldmatrix",
     {"register": [64, 1, 2, 128, 16, 4, 1024, 8192], "lane": [256, 8, 2048, 32, 512], "warp": [4096]},
     {"register": [384, 512, 2048, 128, 68, 4096, 32, 8], "lane": [64, 2, 1024, 1, 8192], "warp": [16]},
     [("dim0", 64), ("dim1", 256)]),
    ("stmatrix side kept the search's estimate", 16, {}, "triton", "stmatrix",
     {"register": [2, 4, 8, 16, 32, 64, 128], "lane": [256, 257, 512, 1024, 2048], "warp": [4096, 8192]},
     {"register": [1, 2, 4, 64, 128, 256, 16, 32], "lane": [8, 512, 1024, 2048, 4096], "warp": [8192, 0]},
     [("dim0", 64), ("dim1", 256)]),
    ("cross-CTA sides priced at Triton's widest vector, not the executed 128-bit one", 16, {}, "triton", "st.shared",
     {"register": [1, 4, 8, 16, 32, 64], "lane": [132, 256, 512, 1024, 2048], "block": [4096, 4098]},
     {"register": [1, 2, 5, 8, 16, 32], "lane": [64, 128, 256, 512, 1024], "block": [2048, 4096]},
     [("dim0", 128), ("dim1", 64)]),
    ("best's topped-up plain vector priced at Triton's narrower one", 16, {"matrix_instructions": False}, "best", "st.shared",
     {"register": [4, 2, 256, 512, 4096, 8192, 8, 16], "lane": [128, 2048, 32, 1024, 64], "warp": [3]},
     {"register": [1, 2, 4, 8, 16, 32, 64, 128], "lane": [256, 512, 1024, 2048, 4096], "warp": [8192]},
     [("dim0", 64), ("dim1", 256)]),
]


def test_each_cause_claims_what_it_executes():
    """One pair per cause found on f7a3a3b: the plan (same mechanism and instructions as then)
    claims what the simulator executes on every access."""
    for what, bits, opts, strategy, instr, s, d, outs in _CAUSES:
        p = plan_conversion(_flat(s, outs), _flat(d, outs), bitwidth=bits, strategy=strategy, **opts)
        assert instr in (p.store_instr, p.load_instr), (what, p.store_instr, p.load_instr)
        rep = simulate(p)
        assert rep.ok, (what, rep)
        assert_claims_executed(p, rep, what)
