"""Conversion planning: Triton's cvt_ptx oracle, documentation examples, laws."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linlayout import LayoutError, LinearLayout
from linlayout.errors import DimensionError, SizeError
from linlayout.plan_smem import optimal_swizzle, optimal_swizzle_ldst, side_bank_conflicts
from linlayout.plan import HARDWARE_DIMS, Plan, minimal_conversion, plan_conversion, warp_decomposition

from converters.gluon import from_dict as _gluon_from_dict


def gluon(d, shape):
    """The LinearLayout of a Gluon layout dict on ``shape``."""
    return _gluon_from_dict(d).to_linear(list(shape))


def mechanism(ptx: dict) -> str:
    if ptx["st_shared"] or ptx["ld_shared"] or ptx["stmatrix"] or ptx["ldmatrix"]:
        return "shared_memory"
    return "warp_shuffle" if ptx["shfl"] else "none"


def ours(kind: str) -> str:
    return "none" if kind in ("noop", "register") else kind


def _hw_tables(L: LinearLayout) -> np.ndarray:
    """Flat element per hardware index; rows in (register, lane, warp, block) order."""
    return L.flat_table()


def check_valid_locality(plan: Plan) -> None:
    """The plan's claim holds: every destination element is already held by the same thread
    (register / noop) or the same warp (warp_shuffle)."""
    src, dst = plan.src, plan.dst
    keep = {"register": ("lane", "warp", "block"), "noop": ("register", "lane", "warp", "block"),
            "warp_shuffle": ("warp", "block")}.get(plan.kind)
    if keep is None:
        return
    ts, td = src.flat_table(), dst.flat_table()
    # group hardware indices by the kept dims
    def groups(L):
        sizes = [L.in_dim_size(n) for n in L.in_dim_names]
        idx = np.arange(L.total_in_size)
        key = np.zeros_like(idx)
        shift = 0
        mult = 1
        for n, s in zip(L.in_dim_names, sizes):
            part = (idx >> shift) & (s - 1)
            if n in keep:
                key = key + part * mult
                mult *= s
            shift += s.bit_length() - 1
        return key
    gs, gd = groups(src), groups(dst)
    if plan.kind == "noop":
        assert np.array_equal(ts, td)
        return
    held = {}
    for k, e in zip(gs.tolist(), ts.tolist()):
        held.setdefault(k, set()).add(e)
    for k, e in zip(gd.tolist(), td.tolist()):
        assert e in held.get(k, ()), f"element {e} is not in group {k} of the source"


def test_cvt_ptx_oracle_triton(oracle):
    """strategy="triton" picks Triton 3.9's mechanism on every row of the corpus."""
    rows = oracle("triton-3.9/cvt_ptx.jsonl")
    for i, r in enumerate(rows):
        src, dst = gluon(r["src"], r["shape"]), gluon(r["dst"], r["shape"])
        p = plan_conversion(src, dst, bitwidth=r["dtype"], strategy="triton")
        assert ours(p.kind) == mechanism(r["ptx_counts"]), f"row {i}: ours {p.kind}, Triton {r['ptx_counts']}"
        if p.kind == "shared_memory":
            assert p.shared_bytes <= r["shared_bytes"], f"row {i}: {p.shared_bytes} > {r['shared_bytes']} bytes"
    assert len(rows) == 400


def test_cvt_ptx_oracle_best(oracle):
    """strategy="best" is never dearer than Triton's plan under the one cost model; where it picks
    another mechanism it is strictly cheaper and its locality claim holds; every rejected
    alternative costs at least as much as the choice."""
    rows = oracle("triton-3.9/cvt_ptx.jsonl")
    other = cheaper = 0
    dearer = []
    for i, r in enumerate(rows):
        src, dst = gluon(r["src"], r["shape"]), gluon(r["dst"], r["shape"])
        p = plan_conversion(src, dst, bitwidth=r["dtype"], strategy="best")
        t = plan_conversion(src, dst, bitwidth=r["dtype"], strategy="triton")
        if p.cost > t.cost:
            dearer.append(i)
        cheaper += p.cost < t.cost
        if ours(p.kind) != mechanism(r["ptx_counts"]):
            other += 1
            # strictly cheaper, or as cheap without shared memory (ties go to the simpler mechanism)
            assert p.cost < t.cost or p.shared_bytes < t.shared_bytes, f"row {i}: another mechanism ({p.kind}) but not cheaper"
            check_valid_locality(p)
        assert all(a.cost is None or a.cost >= p.cost for a in p.rejected), (i, p.rejected)
    print(f"\n[best] cheaper than Triton's plan under the cost model on {cheaper}/400 rows, another mechanism on {other}")
    assert len(rows) == 400
    # never dearer (all under the hardware's bank conflicts, which simulate executes).  On
    # f7a3a3b 18 rows were (12, 27, 49, ...): where no pair of access tiles vectorises 128 bits,
    # the search's plain ld/st swizzle tops the vector up past the common registers with one
    # side's registers, which Triton dropped for the conflicts it causes (triton-lang/triton#7833);
    # "best" now also prices Triton 3.9's own fallback swizzle (plan._TRITON_LDST), and a side with
    # conflicts takes a narrower vector where that costs fewer wavefronts (plan_price._Price._count)
    assert dearer == [], dearer


def test_cvt_ptx_shared_bytes_equal(oracle):
    """Where both use shared memory, our buffer is exactly Triton's (same swizzle choice)."""
    for i, r in enumerate(oracle("triton-3.9/cvt_ptx.jsonl")):
        src, dst = gluon(r["src"], r["shape"]), gluon(r["dst"], r["shape"])
        if mechanism(r["ptx_counts"]) != "shared_memory":
            continue
        p = plan_conversion(src, dst, bitwidth=r["dtype"], strategy="triton")
        if p.kind == "shared_memory":
            assert p.shared_bytes == r["shared_bytes"], i


# ------------------------------------------------------------------ hand-built Blocked layouts


def blocked(spt, tpw, wpc, order, shape):
    return gluon({"kind": "BlockedLayout", "size_per_thread": spt, "threads_per_warp": tpw, "warps_per_cta": wpc,
                  "order": order, "cga_layout": []}, shape)


def test_doc_row_to_column_needs_shared_memory_conflict_free():
    a = blocked([1, 1], [1, 32], [1, 4], [1, 0], [128, 128])
    b = blocked([1, 1], [32, 1], [4, 1], [0, 1], [128, 128])
    for bits in (8, 16, 32):
        p = plan_conversion(a, b, bitwidth=bits)
        assert p.kind == "shared_memory"
        assert p.bank_conflicts == 0 and p.store_conflicts == 0 and p.load_conflicts == 0
        assert p.shared_bytes > 0 and p.barriers >= 1
        assert "conflict-free" in str(p)


def test_doc_register_order_is_zero_cost():
    a = blocked([4, 4], [8, 4], [4, 1], [1, 0], [64, 64])
    regs = [list(v) for v in a.bases["register"]]
    b = LinearLayout(dict(a.bases, register=regs[::-1]), a.out_dims)  # same data, registers reversed
    p = plan_conversion(a, b, bitwidth=16)
    assert p.kind == "register" and p.is_zero_cost and p.cost == 0
    assert p.shuffles == 0 and p.shared_bytes == 0


def test_lane_swap_is_warp_shuffle():
    s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
    d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
    p = plan_conversion(s, d)
    assert p.kind == "warp_shuffle" and p.mixed_transpositions == 1 and p.shuffles == 1
    assert warp_decomposition(s, d).mixed_transpositions == ((0, 4),)


def test_two_transpositions_go_through_shared_memory():
    s = LinearLayout({"register": [[1], [2]], "lane": [[4], [8], [16], [32], [64]]}, {"dim0": 128})
    d = LinearLayout({"register": [[32], [64]], "lane": [[4], [8], [16], [1], [2]]}, {"dim0": 128})
    assert len(warp_decomposition(s, d).mixed_transpositions) == 2
    assert plan_conversion(s, d).kind == "shared_memory"


def test_cross_cta():
    s = LinearLayout({"lane": [[1], [2], [4], [8], [16]], "block": [[32]]}, {"dim0": 64})
    d = LinearLayout({"lane": [[2], [4], [8], [16], [32]], "block": [[1]]}, {"dim0": 64})
    p = plan_conversion(s, d)
    assert p.kind == "cross_cta" and not p.is_zero_cost and "cross-CTA" in p.describe()


def test_plan_value_object():
    a = blocked([1, 1], [1, 32], [1, 4], [1, 0], [64, 64])
    b = blocked([1, 1], [32, 1], [4, 1], [0, 1], [64, 64])
    p = plan_conversion(a, b, bitwidth="fp16")
    with pytest.raises(AttributeError):
        p.kind = "noop"  # type: ignore[misc]
    d = p.to_dict()
    assert d["kind"] == "shared_memory" and d["shared_bytes"] == p.shared_bytes and d["steps"]
    import json

    json.dumps(d)
    assert p == plan_conversion(a, b, bitwidth=16)
    assert p.shared_layout is not None and set(p.shared_layout.in_dim_names) == {"vector", "bank", "segment", "reps"}


def test_bad_inputs():
    a = LinearLayout.identity_1d(32, "lane", "dim0")
    with pytest.raises(SizeError):
        plan_conversion(a, LinearLayout.identity_1d(64, "lane", "dim0"))
    with pytest.raises(DimensionError):
        plan_conversion(a, LinearLayout.identity_1d(32, "lane", "dim1"))
    with pytest.raises(DimensionError):
        plan_conversion(LinearLayout.identity_1d(32, "offset", "dim0"), a)
    with pytest.raises(LayoutError):
        plan_conversion(a, a, bitwidth=12)
    with pytest.raises(LayoutError):
        plan_conversion(a, a, bitwidth="complex128")
    with pytest.raises(LayoutError):
        plan_conversion(a, a, strategy="magic")
    with pytest.raises(LayoutError):
        plan_conversion(object(), a)
    with pytest.raises(SizeError):
        plan_conversion(a, a, shape=[64])


def test_to_linear_objects_with_shape():
    class Spelled:
        def __init__(self, L):
            self.L = L

        def to_linear(self, shape):
            assert list(shape) == [32]
            return self.L

    a = LinearLayout.identity_1d(32, "lane", "dim0")
    assert plan_conversion(Spelled(a), Spelled(a), shape=[32]).kind == "noop"


def test_swizzle_helpers():
    assert side_bank_conflicts([4, 8], [1, 2, 4]) == 1
    s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
    c = optimal_swizzle_ldst(s, s, 32)
    assert c.store_conflicts == 0 and c.bytes == 64 * 4 // c.reps
    assert optimal_swizzle(s, s, 32, matrix_instructions=False).store_instr == "st.shared"


# ------------------------------------------------------------------------------- properties


@st.composite
def distributed(draw, n_bits=None):
    """A random bijective distributed layout of a 1-D or 2-D tensor (register/lane/warp)."""
    n_reg = draw(st.integers(0, 3))
    n_lane = 5
    n_warp = draw(st.integers(0, 2))
    total = n_reg + n_lane + n_warp
    bits = draw(st.permutations(list(range(total))))
    d0 = draw(st.integers(0, total))
    outs = [("dim0", 1 << d0), ("dim1", 1 << (total - d0))]

    def vec(b):
        return [1 << b, 0] if b < d0 else [0, 1 << (b - d0)]

    it = iter(bits)
    bases = {
        "register": [vec(next(it)) for _ in range(n_reg)],
        "lane": [vec(next(it)) for _ in range(n_lane)],
        "warp": [vec(next(it)) for _ in range(n_warp)],
    }
    return LinearLayout(bases, outs)


@settings(max_examples=40)
@given(distributed())
def test_plan_to_itself_is_noop(L):
    p = plan_conversion(L, L)
    assert p.kind == "noop" and p.is_zero_cost and p.cost == 0


@settings(max_examples=40)
@given(distributed(), st.randoms(use_true_random=False))
def test_register_permutation_is_zero_cost(L, rnd):
    regs = list(L.bases["register"])
    rnd.shuffle(regs)
    M = LinearLayout(dict(L.bases, register=[list(r) for r in regs]), L.out_dims)
    p = plan_conversion(L, M)
    assert p.is_zero_cost and p.kind in ("noop", "register")


@settings(max_examples=30)
@given(distributed(), distributed())
def test_plans_are_valid(a, b):
    if a.out_dims != b.out_dims or a.in_dim_size("warp") != b.in_dim_size("warp"):
        with pytest.raises(LayoutError):
            plan_conversion(a, b)
        return
    p = plan_conversion(a, b)
    assert p.kind in ("noop", "register", "warp_shuffle", "shared_memory", "cross_cta")
    check_valid_locality(p)
    if p.kind == "shared_memory":
        assert p.shared_bytes > 0 and p.stores > 0 and p.loads > 0
    # the data moves across at most the dims Triton's first choice keeps, and only hardware dims
    triton_dims = set(minimal_conversion(a, b, strategy="triton").in_dim_names)
    assert set(minimal_conversion(a, b).in_dim_names) <= triton_dims <= set(HARDWARE_DIMS)


# ------------------------------------------------------------------- refusals and budgets


@pytest.mark.parametrize("dim, words", [("warp", "warps per CTA"), ("lane", "lanes per warp"), ("block", "CTAs")])
def test_refuses_different_hardware_naming_both_sides(dim, words):
    base = {"register": [[1]], "lane": [[2], [4], [8], [16], [32]], "warp": [[64]], "block": [[128]]}
    a = LinearLayout(base, {"dim0": 256})
    other = dict(base)
    other[dim] = base[dim][:-1]
    other["register"] = [[1], base[dim][-1]]
    b = LinearLayout(other, {"dim0": 256})
    with pytest.raises(SizeError) as e:
        plan_conversion(a, b)
    n_a, n_b = a.in_dim_size(dim), b.in_dim_size(dim)
    assert f"src has {n_a} {words}" in str(e.value) and f"dst has {n_b}" in str(e.value)


def test_refuses_huge_sizes_before_any_work():
    """2**40 rows of a blocked layout: refused from the register count alone (no table is built;
    before this check the planner ran for more than 11 minutes)."""
    a = blocked([1, 1], [1, 32], [1, 4], [1, 0], [1 << 40, 128])
    with pytest.raises(SizeError, match="registers per thread"):
        plan_conversion(a, a)
    with pytest.raises(SizeError, match="registers per thread"):
        plan_conversion(a, blocked([1, 1], [32, 1], [4, 1], [0, 1], [1 << 40, 128]))


def _transpose_pair(n=64, spt=(2, 2)):
    return (blocked(list(spt), [1, 32], [1, 4], [1, 0], [n, n]), blocked(list(spt), [32, 1], [4, 1], [0, 1], [n, n]))


@pytest.mark.parametrize("spt", [(2, 2), (4, 4), (2, 8)])
def test_max_shared_bytes_fits_with_more_rounds(spt):
    from linlayout.simulate import simulate

    a, b = _transpose_pair(64, spt)
    full = plan_conversion(a, b, bitwidth=16)
    assert full.kind == "shared_memory" and full.shared_bytes > 0
    assert plan_conversion(a, b, bitwidth=16, max_shared_bytes=full.shared_bytes) == full
    p = plan_conversion(a, b, bitwidth=16, max_shared_bytes=full.shared_bytes // 2)
    assert p.shared_bytes <= full.shared_bytes // 2 and p.reps > full.reps
    assert p.barriers == 2 * p.reps - 1
    rep = simulate(p)  # the smaller plan still moves every element to its place
    assert rep.ok and (rep.stores, rep.loads, rep.rounds) == (p.stores, p.loads, p.reps), rep


def test_max_shared_bytes_refusal_lists_alternatives():
    from linlayout.errors import UnsupportedError

    a, b = _transpose_pair(64)
    full = plan_conversion(a, b, bitwidth=16, strategy="triton")
    budget = full.shared_bytes // 4  # rounds can only split registers both layouts hold: not enough
    with pytest.raises(UnsupportedError) as e:  # Triton's mechanism: the round trip or nothing
        plan_conversion(a, b, bitwidth=16, max_shared_bytes=budget, strategy="triton")
    msg = str(e.value)
    assert f"max_shared_bytes={budget}" in msg and f"smallest buffer is {full.shared_bytes // 2} bytes" in msg
    assert msg.count("bytes") >= 3 and "round" in msg  # each alternative with its bytes and rounds
    # "best" falls back to the in-warp exchange (each warp's data stays in the warp), and says why
    p = plan_conversion(a, b, bitwidth=16, max_shared_bytes=budget)
    assert p.kind == "warp_shuffle" and p.cost > full.cost
    assert any(r.cost is None and "budget" in r.reason for r in p.rejected) and "Rejected:" in str(p)
    from linlayout.simulate import simulate

    assert simulate(p).ok
    with pytest.raises(LayoutError):
        plan_conversion(a, b, max_shared_bytes=-1)
    # a conversion that needs no shared memory fits any budget
    assert plan_conversion(a, a, max_shared_bytes=0).kind == "noop"


def test_triton_local_replica_is_a_shared_memory_round_trip():
    """Triton 3.9's convert_layout_loads_local_replica (test/Conversion/tritongpu_to_llvm.mlir): two
    CTAs, the source holds both elements in every CTA, the destination one per CTA.  Triton stores
    and loads through each CTA's own shared memory (no remote load, no cluster barrier); "best"
    sees that every element is already in the thread's registers."""
    from linlayout.simulate import simulate

    src = LinearLayout({"register": [[1]], "lane": [[0]] * 5, "warp": [], "block": [[0]]}, {"dim0": 2})
    dst = LinearLayout({"register": [], "lane": [[0]] * 5, "warp": [], "block": [[1]]}, {"dim0": 2})
    t = plan_conversion(src, dst, bitwidth="fp32", strategy="triton")
    assert t.kind == "shared_memory" and t.stores >= 1 and t.loads >= 1 and t.shared_bytes > 0
    assert "cluster" not in str(t.steps) and t.barriers == 1
    best = plan_conversion(src, dst, bitwidth="fp32", strategy="best")
    assert best.kind == "register" and best.cost == 0 < t.cost
    for p in (t, best):
        assert simulate(p).ok


def test_alternatives_and_schedules_read_late_are_the_plans_own(oracle):
    """strategy="best" prices a round trip that cannot win (a mechanism already priced costs no
    more than its floor) only when Plan.rejected is read, and a zero-cost plan's shuffle schedule
    when it is read: reading them at once, late, after pickling, after ``dataclasses.replace`` or
    after clear_caches gives the same, and no alternative read late beats the choice (ties go to
    the simpler mechanism, then to the one priced first)."""
    import dataclasses
    import pickle

    from linlayout.plan import clear_caches

    order = {"warp_shuffle": 0, "shared_memory": 1, "cross_cta": 2}
    kinds = set()
    for r in oracle("triton-3.9/cvt_ptx.jsonl")[::5]:
        src, dst = gluon(r["src"], r["shape"]), gluon(r["dst"], r["shape"])
        now = plan_conversion(src, dst, bitwidth=r["dtype"])
        alts, sch = now.rejected, now.shuffle_schedule
        clear_caches()
        later = pickle.loads(pickle.dumps(plan_conversion(src, dst, bitwidth=r["dtype"])))
        assert later == now and later.rejected == alts and later.shuffle_schedule == sch and str(later) == str(now)
        copy = dataclasses.replace(plan_conversion(src, dst, bitwidth=r["dtype"]), steps=now.steps)
        assert copy.rejected == alts and copy.to_dict() == now.to_dict()
        for a in alts:
            assert a.cost is None or (a.cost, order[a.kind]) >= (now.cost, order.get(now.kind, -1)), (r, a)
        kinds.add(now.kind)
    assert {"noop", "register", "warp_shuffle", "shared_memory"} <= kinds
