"""The one cost model (linlayout.cost): the worked example, every consumer prices alike, the
ldmatrix / stmatrix switches."""

from __future__ import annotations

import pytest

from linlayout import LinearLayout
from linlayout.cost import WEIGHTS, plan_cost, price, shared_wavefronts
from linlayout.plan import plan_conversion, schedule_counts
from linlayout.plan_graph import cheapest_path, conversion_graph
from linlayout.simulate import simulate

from converters.gluon import from_dict

MMA2 = {"kind": "NVMMADistributedLayout", "version": [2, 0], "warps_per_cta": [4, 1], "instr_shape": [16, 8]}
DOT_B = {"kind": "DotOperandLayout", "operand_index": 1, "parent": MMA2, "k_width": 2}


def _dot_b_to_mma():
    shape = [128, 128]
    return from_dict(DOT_B).to_linear(shape), from_dict(MMA2).to_linear(shape)


def test_worked_example_dot_operand_b_to_mma_v2():
    """Dot operand B (k_width 2) -> MMA v2 accumulator, 128x128 fp16.  Every warp holds all of B
    (512 fp16 per thread) but needs a quarter: the simulated exchange moves 64 words in 64
    shuffles, while a round trip stores the whole replicated operand (64 x 128-bit stmatrix =
    256 wavefronts).  Under the model the shuffles win, and the plan says what it rejected."""
    a, b = _dot_b_to_mma()
    best = plan_conversion(a, b, bitwidth="fp16")
    tri = plan_conversion(a, b, bitwidth="fp16", strategy="triton")
    assert best.kind == "warp_shuffle" and tri.kind == "shared_memory"
    rep = simulate(best)
    assert rep.ok and rep.shuffles == best.shuffles == 64  # the counts priced are the counts executed
    assert best.cost == price(shuffles=best.shuffles, selects=best.selects) < tri.cost
    kinds = {r.kind for r in best.rejected}
    assert "shared_memory" in kinds and all(r.cost > best.cost for r in best.rejected)
    assert "Rejected: shared memory" in str(best) and f"cost {tri.cost:g}" in str(best)
    # the round trip's price is its wavefronts and barriers
    wf = tri.stores * shared_wavefronts(tri.store_instr, tri.store_vector * 16, tri.store_conflicts)
    wf += tri.loads * shared_wavefronts(tri.load_instr, tri.load_vector * 16, tri.load_conflicts)
    assert tri.cost == price(wavefronts=wf, barriers=tri.barriers)


def test_consumers_price_alike():
    from linlayout.app.space import cost_matrix
    from linlayout.app.space import plan_cost as space_cost

    a, b = _dot_b_to_mma()
    p = plan_conversion(a, b, bitwidth=16)
    assert space_cost(p) == plan_cost(p) == p.cost
    m = cost_matrix({"dot_b": a, "mma": b}, bitwidth=16, executor="serial")
    assert m.costs[0, 1] == p.cost and m.kinds[0][1] == p.kind
    path = cheapest_path(a, b, bitwidth=16)
    assert path.cost == p.cost and space_cost(path) == p.cost
    G = conversion_graph({"a": a, "b": b}, bitwidth=16)
    assert G["a"]["b"]["weight"] == p.cost


def test_cheapest_path_says_what_it_rejected():
    """Through a register-order intermediate: the chain is chosen only when cheaper, and then the
    direct conversion is reported as rejected with its cost."""
    s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]], "warp": [[64]]}, {"dim0": 128})
    d = LinearLayout({"register": [[64]], "lane": [[2], [4], [8], [16], [32]], "warp": [[1]]}, {"dim0": 128})
    m = cheapest_path(s, d, {"mid": d})
    assert m.names == ("src", "dst") and m.rejected == ()
    direct = plan_conversion(s, d)
    assert m.cost == direct.cost


def test_schedule_counts_are_the_executed_shuffles():
    s = LinearLayout({"register": [[1], [2]], "lane": [[4], [8], [16], [32], [64]]}, {"dim0": 128})
    d = LinearLayout({"register": [[64], [2]], "lane": [[4], [8], [16], [32], [1]]}, {"dim0": 128})
    p = plan_conversion(s, d)
    shfl, _ = schedule_counts(p.shuffle_schedule, 32)
    assert simulate(p).shuffles == shfl == p.shuffles


@pytest.mark.parametrize("ld,st_", [(True, False), (False, True), (False, False), (True, True)])
def test_ldmatrix_and_stmatrix_switches(oracle, ld, st_):
    """ldmatrix arrives with sm_75, stmatrix with sm_90: each side has its own switch (an sm_80
    target gets ldmatrix without stmatrix), and the old ``matrix_instructions`` keyword still
    sets both."""
    from test_simulate import gluon

    used = {"ld": 0, "st": 0}
    for r in oracle("triton-3.9/cvt_ptx.jsonl")[:200]:
        a, b = gluon(r["src"], r["shape"]), gluon(r["dst"], r["shape"])
        p = plan_conversion(a, b, bitwidth=r["dtype"], strategy="triton", ldmatrix=ld, stmatrix=st_)
        if p.kind != "shared_memory":
            continue
        assert (ld or not p.uses_ldmatrix) and (st_ or not p.uses_stmatrix)
        used["ld"] += p.uses_ldmatrix
        used["st"] += p.uses_stmatrix
        if ld == st_:
            assert p == plan_conversion(a, b, bitwidth=r["dtype"], strategy="triton", matrix_instructions=ld)
    assert (used["ld"] > 0) == ld and (used["st"] > 0) == st_, used


def test_weights_are_positive_and_documented():
    import linlayout.cost as cost

    assert set(WEIGHTS) == {"shfl", "select", "wavefront", "barrier", "warp_barrier", "cluster_barrier", "tcgen05"}
    assert all(w > 0 for w in WEIGHTS.values())
    assert "model, not a measurement" in cost.__doc__
