"""linlayout.simulate: every plan runs correctly on a virtual CTA; broken plans are caught."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import linlayout
from linlayout import LayoutError, LinearLayout, gf2
from linlayout.errors import UnsupportedError
from linlayout.plan import plan_conversion
from linlayout.simulate import SimulationReport, lower, run, simulate

from converters.gluon import from_dict as _gluon_from_dict


def gluon(d, shape):
    return _gluon_from_dict(d).to_linear(list(shape))


def blocked(spt, tpw, wpc, order, shape):
    return gluon({"kind": "BlockedLayout", "size_per_thread": spt, "threads_per_warp": tpw, "warps_per_cta": wpc,
                  "order": order, "cga_layout": []}, shape)


# ------------------------------------------------------------------------------ the corpus


def assert_claims_executed(p, rep, where=None):
    """Every shared-memory access of ``rep`` (a simulation of the round trip ``p``) takes the
    wavefronts the plan claims: excess == claimed conflicts * ideal wavefronts."""
    for a in rep.accesses:
        claimed = p.store_conflicts if a.op.startswith("st") else p.load_conflicts
        assert a.excess == claimed * a.ideal, (where, a, p.store_conflicts, p.load_conflicts)


def _ptx_store_load(counts):
    return counts["st_shared"] + counts["stmatrix"], counts["ld_shared"] + counts["ldmatrix"]


@pytest.mark.parametrize("strategy", ["triton", "best"])
@pytest.mark.parametrize("matrix", [True, False])
def test_every_cvt_ptx_plan_simulates(oracle, strategy, matrix):
    """All 400 conversions of Triton 3.9's cvt_ptx corpus, planned as test_plan does, run correctly,
    and every round trip takes the wavefronts its claimed bank conflicts say; where our plan and
    Triton both use shared memory, the executed store/load instruction counts are compared with
    Triton's PTX (reported, and held at least at the level measured)."""
    rows = oracle("triton-3.9/cvt_ptx.jsonl")
    kinds: dict[str, int] = {}
    same_st = same_ld = both_shared = 0
    for i, r in enumerate(rows):
        p = plan_conversion(gluon(r["src"], r["shape"]), gluon(r["dst"], r["shape"]), bitwidth=r["dtype"],
                            strategy=strategy, matrix_instructions=matrix)
        rep = simulate(p)
        assert rep.ok, f"row {i} ({p.kind}, {p.store_instr}/{p.load_instr}): {rep}"
        kinds[p.kind] = kinds.get(p.kind, 0) + 1
        if p.kind in ("shared_memory", "cross_cta"):
            # the bank conflicts the plan claims are the wavefronts every access takes (row 192,
            # triton: i8 single-byte loads whose lanes sit one byte and one line apart, a conflict
            # Triton's bank model does not see, is claimed too)
            assert_claims_executed(p, rep, i)
        st_, ld_ = _ptx_store_load(r["ptx_counts"])
        if p.kind == "shared_memory" and (st_ or ld_) and matrix and strategy == "triton":
            both_shared += 1
            same_st += rep.stores == st_
            same_ld += rep.loads == ld_
            # what the plan says is what ran
            assert (rep.stores, rep.loads, rep.barriers) == (p.stores, p.loads, p.barriers), i
    assert sum(kinds.values()) == 400
    if matrix and strategy == "triton":  # "best" may pick fewer rounds than Triton (cheaper under the cost model)
        print(f"\n[{strategy}] executed counts equal to Triton's PTX on {same_st}/{both_shared} rows (stores), "
              f"{same_ld}/{both_shared} (loads)")
        # every one (Triton 3.9's plain ld/st swizzle and vectors: linlayout.plan._triton_ldst, plan_price._aligned_vector)
        assert same_st == same_ld == both_shared == 222


def test_shuffle_counts_against_ptx(oracle):
    """The executed shuffle schedule never needs more shuffles than Triton emitted; it finds
    rounds already inside the thread (register moves) where the copies allow."""
    rows = oracle("triton-3.9/cvt_ptx.jsonl")
    fewer = equal = 0
    for i, r in enumerate(rows):
        if not r["ptx_counts"]["shfl"]:
            continue
        p = plan_conversion(gluon(r["src"], r["shape"]), gluon(r["dst"], r["shape"]), bitwidth=r["dtype"], strategy="triton")
        if p.kind != "warp_shuffle":
            continue
        rep = simulate(p)
        assert rep.ok and rep.shuffles <= r["ptx_counts"]["shfl"], (i, rep.shuffles, r["ptx_counts"])
        equal += rep.shuffles == r["ptx_counts"]["shfl"]
        fewer += rep.shuffles < r["ptx_counts"]["shfl"]
    print(f"\nshuffles: executed == PTX on {equal} rows, fewer on {fewer}")
    assert equal + fewer >= 100


# ------------------------------------------------------------------------- random pairs


@st.composite
def same_hardware_pair(draw):
    """Two random distributed layouts of one 2-D tensor on the same lanes, warps and CTAs: each
    tensor bit on some hardware bit; every other basis an XOR combination of the bits of its own
    dim (zero: broadcast; else copies: threads, warps, CTAs or registers repeating others).  A
    lane basis in the span of register bases (two threads holding the same elements in different
    registers) is left out here: :func:`general_pair` draws those."""
    n_warp = draw(st.integers(0, 2))
    n_block = draw(st.integers(0, 1))
    hw = 5 + n_warp + n_block
    total = draw(st.integers(max(1, hw - 3), hw + 4))
    d0 = draw(st.integers(0, total))
    outs = [("dim0", 1 << d0), ("dim1", 1 << (total - d0))]

    def vec(x):
        return [x & ((1 << d0) - 1), x >> d0]

    def side():
        n_reg = max(0, total - hw) + draw(st.integers(0, 1))
        n = n_reg + hw
        slots = draw(st.permutations(list(range(n))))[:total]  # these carry the unit vectors
        bits = draw(st.permutations(list(range(total))))
        sizes = [("register", n_reg), ("lane", 5), ("warp", n_warp), ("block", n_block)]
        bases, at = {}, 0
        for name, m in sizes:
            flat = []
            for k in range(at, at + m):
                if k in slots:
                    flat.append(1 << bits[slots.index(k)])
                elif name == "register":  # a register repeating others (an XOR of their elements)
                    own = [1 << bits[slots.index(q)] for q in range(at, at + m) if q in slots]
                    mask = draw(st.integers(0, (1 << len(own)) - 1))
                    flat.append(sum(v for i, v in enumerate(own) if mask >> i & 1))
                else:  # a thread (warp, CTA) holding the same elements as another one: broadcast
                    own = [1 << bits[slots.index(q)] for q in range(at, at + m) if q in slots]
                    mask = draw(st.integers(0, (1 << len(own)) - 1))
                    flat.append(sum(v for i, v in enumerate(own) if mask >> i & 1))
            bases[name] = [vec(x) for x in flat]
            at += m
        return LinearLayout(bases, outs)

    return side(), side()


@settings(max_examples=int(__import__("os").environ.get("SIM_EXAMPLES", 150)), deadline=None)
@given(same_hardware_pair(), st.sampled_from(["triton", "best"]), st.sampled_from([8, 16, 32, 64]), st.booleans())
def test_random_pairs_simulate(pair, strategy, bits, matrix):
    a, b = pair
    p = plan_conversion(a, b, bitwidth=bits, strategy=strategy, matrix_instructions=matrix)
    rep = simulate(p)
    assert rep.ok, f"{p.kind} {p.store_instr}/{p.load_instr}: {rep}\nsrc={a.to_dict()}\ndst={b.to_dict()}"
    if p.kind in ("shared_memory", "cross_cta"):
        assert (rep.stores, rep.loads, rep.barriers) == (p.stores, p.loads, p.barriers)
        assert rep.rounds == p.reps


@st.composite
def general_pair(draw):
    """Two random surjective layouts of one 2-D tensor on the same lanes and warps whose bases are
    any vectors: zero, unit vectors or XOR combinations -- registers holding other threads'
    elements, lanes in the span of registers, equal lanes.  Half of them in Triton 3.9's
    generic-linear domain (what its ``#ttg.generic_linear`` accepts): register bases zero or unit
    vectors, lane and warp bases mixing only inside one dim.  Drawn from a ``Random`` seeded by
    hypothesis (its own draws of many small choices lean so far towards zero that the class
    below is almost never hit); rejection until surjective."""
    rng = random.Random(draw(st.integers(0, 2**64 - 1)))
    tri = rng.random() < 0.5
    n_warp = rng.randint(0, 2)
    hw = 5 + n_warp
    total = rng.randint(hw - 3, hw + 4)
    d0 = rng.randint(0, total)
    low = (1 << d0) - 1

    def mixed():
        if not tri:
            return rng.randrange(1, 1 << total)
        bits = range(d0) if d0 == total or (d0 and rng.random() < 0.5) else range(d0, total)  # inside one dim
        return sum(1 << b for b in bits if rng.random() < 0.5)

    def side():
        n_reg = max(0, total - hw) + rng.randint(0, 1)
        while True:
            cols = [rng.choice([0, 1 << rng.randrange(total), 1 << rng.randrange(total) if tri else mixed()]) for _ in range(n_reg)]
            cols += [rng.choice([0, 1 << rng.randrange(total), mixed()]) for _ in range(hw)]
            if gf2.rank(cols) == total:
                break

        def vec(x):
            return [x & low, x >> d0]

        return LinearLayout({"register": [vec(c) for c in cols[:n_reg]], "lane": [vec(c) for c in cols[n_reg:n_reg + 5]],
                             "warp": [vec(c) for c in cols[n_reg + 5:]]}, [("dim0", 1 << d0), ("dim1", 1 << (total - d0))])

    return side(), side()


@settings(max_examples=int(__import__("os").environ.get("SIM_EXAMPLES", 150)), deadline=None)
@given(general_pair())
def test_general_pairs_simulate(pair):
    """Every plan of both strategies, at every element width, with and without matrix
    instructions, runs correctly on general layouts, and the counts it claims are the ones run.
    The class that broke linlayout 422badb (a reps bit that a lane or warp vector moves: rounds
    that differ per thread; a matrix row starting inside a row) is common here: 79 of 920
    distinct pairs drawn (8.6%) had a plan 422badb got wrong, so a run of 150 examples meets
    about 13 of them.  Each "triton" round trip is planned again under half its buffer."""
    a, b = pair
    for bits in (8, 16, 32, 64):
        for strategy in ("triton", "best"):
            for matrix in (True, False):
                p = plan_conversion(a, b, bitwidth=bits, strategy=strategy, matrix_instructions=matrix)
                rep = simulate(p)
                assert rep.ok, f"{bits}-bit {strategy} {p.kind} {p.store_instr}/{p.load_instr}: {rep}\nsrc={a.to_dict()}\ndst={b.to_dict()}"
                if p.kind in ("shared_memory", "cross_cta"):
                    assert (rep.stores, rep.loads, rep.barriers, rep.rounds) == (p.stores, p.loads, p.barriers, p.reps)
                    if strategy == "triton" and matrix:
                        _check_halved_budget(p, strategy, matrix)


def _check_halved_budget(p, strategy, matrix):
    """The round trip ``p`` again with half its buffer allowed (more rounds, where a register of
    both sides that no thread's index moves can become one): it runs correctly, or is refused."""
    try:
        q = plan_conversion(p.src, p.dst, bitwidth=p.bitwidth, strategy=strategy, matrix_instructions=matrix,
                            max_shared_bytes=p.shared_bytes // 2)
    except UnsupportedError:
        return
    rep = simulate(q)
    assert rep.ok, f"budget {p.shared_bytes // 2}: {q.store_instr}/{q.load_instr} in {q.reps} rounds: {rep}\nsrc={p.src.to_dict()}\ndst={p.dst.to_dict()}"


def test_budget_rounds_never_split_by_a_thread():
    """Permutation layouts (a tensor-memory register layout and a blocked one, check_plans' pair
    gen:2355) under a 2048-byte budget: 422badb split the buffer along a register that the
    ``stmatrix.trans`` tile's XOR segment ties to a lane, so that the ld.shared side's rounds
    differed per thread ("thread 1 holds elements of another round")."""
    src = LinearLayout({"register": [[0, 1], [0, 2], [8, 0], [0, 16], [0, 32], [0, 64], [64, 0]],
                        "lane": [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0]]},
                       {"dim0": 128, "dim1": 128})
    dst = LinearLayout({"register": [[1, 0], [2, 0], [4, 0], [0, 1], [0, 2], [0, 32], [0, 64]],
                        "lane": [[8, 0], [16, 0], [32, 0], [0, 4], [0, 8]], "warp": [[64, 0], [0, 16]]},
                       {"dim0": 128, "dim1": 128})
    for budget in (2048, 4096):
        p = plan_conversion(src, dst, bitwidth=16, strategy="triton", max_shared_bytes=budget)
        assert p.shared_bytes <= budget and simulate(p).ok, (budget, simulate(p))


# --------------------------------------------------------------------------- broken plans


def _lane_swap_plan():
    s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
    d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
    return plan_conversion(s, d)


def test_wrong_shuffle_source_is_caught():
    p = _lane_swap_plan()
    assert p.kind == "warp_shuffle" and simulate(p).ok
    sch = p.shuffle_schedule
    bases = {n: [list(v) for v in sch.bases[n]] for n in sch.in_dim_names}
    bases["lane"][0][1] ^= 4  # lane bit 0 now reads two lanes further than it should
    broken = dataclasses.replace(p, shuffle_schedule=LinearLayout(bases, sch.out_dims, require_surjective=False))
    rep = simulate(broken)
    assert not rep.ok and rep.first_wrong is not None
    thread, reg = rep.first_wrong
    assert set(thread) == {"lane", "warp", "block"} and rep.held != rep.expected
    # the report names a real wrong register: the destination layout puts `expected` there
    want = p.dst.apply({"register": reg, **thread})
    assert rep.expected == want


def test_sender_asked_twice_is_caught():
    p = _lane_swap_plan()
    sch = p.shuffle_schedule
    bases = {n: [list(v) for v in sch.bases[n]] for n in sch.in_dim_names}
    bases["lane"][4] = [0, 0, 0, 0]  # lanes l and l ^ 16 read the same lane for different registers
    rep = simulate(dataclasses.replace(p, shuffle_schedule=LinearLayout(bases, sch.out_dims, require_surjective=False)))
    assert not rep.ok and ("asked for registers" in rep.error or rep.first_wrong is not None)


def test_program_missing_its_schedule_is_reported():
    """A hand-broken in-warp program (a schedule array dropped) is a failed report naming what is
    missing, not a numpy TypeError; a wrong register is printed with its thread and register."""
    p = _lane_swap_plan()
    prog = lower(p)
    prog.src_lane = None
    rep = run(prog, p)
    assert not rep.ok and "src_lane" in rep.error and rep.first_wrong is None
    assert str(rep).startswith("FAILED (warp_shuffle): an in-warp program needs")
    prog = lower(p)
    prog.src_reg = prog.src_reg ^ 1  # every thread reads the other register of its sender
    rep = run(prog, p)
    assert not rep.ok and rep.first_wrong is not None and f"register {rep.first_wrong[1]} holds" in str(rep)


def _round_trip_plan(bits=16, matrix=True):
    a = blocked([1, 1], [1, 32], [1, 4], [1, 0], [64, 64])
    b = blocked([1, 1], [32, 1], [4, 1], [0, 1], [64, 64])
    return plan_conversion(a, b, bitwidth=bits, matrix_instructions=matrix)


def test_wrong_shared_offset_is_caught():
    p = _round_trip_plan(matrix=False)
    prog = lower(p)
    assert run(prog, p).ok
    prog.loads[0].addr[37, 0] ^= 1  # thread 37 loads its first vector from the neighbouring offset
    rep = run(prog, p)
    assert not rep.ok
    assert rep.first_wrong is not None and rep.first_wrong[0]["lane"] == 37 % 32 or "offset" in rep.error


def test_store_to_wrong_offset_is_caught():
    p = _round_trip_plan(matrix=False)
    prog = lower(p)
    prog.stores[0].addr[5, 0] = prog.stores[0].addr[6, 0]  # two threads store to one place
    rep = run(prog, p)
    assert not rep.ok and ("different elements" in rep.error or rep.first_wrong is not None)


def test_wrong_shared_layout_is_caught():
    """A shared layout whose lowest offset bit is not the plan's vector breaks vectorised access."""
    p = _round_trip_plan(bits=32, matrix=False)
    lay = p.shared_layout
    vec = [list(v) for v in lay.bases["vector"]]
    bank = [list(v) for v in lay.bases["bank"]]
    if not vec:
        pytest.skip("no vector to break")
    bad = LinearLayout({"vector": bank[:1] + vec[1:], "bank": vec[:1] + bank[1:], "segment": [list(v) for v in lay.bases["segment"]],
                        "reps": [list(v) for v in lay.bases["reps"]]}, lay.out_dims)
    rep = simulate(dataclasses.replace(p, shared_layout=bad))
    assert not rep.ok


def test_ldmatrix_semantics_are_checked():
    """A matrix load whose row addresses come from the wrong lanes delivers wrong elements."""
    a = blocked([1, 1], [32, 1], [2, 4], [0, 1], [32, 128])  # cvt_ptx row 59: st.shared / ldmatrix
    b = blocked([8, 4], [8, 4], [2, 4], [1, 0], [32, 128])
    p = plan_conversion(a, b, bitwidth=32, strategy="triton")
    assert p.uses_ldmatrix
    prog = lower(p)
    assert run(prog, p).ok
    side = prog.stores if p.uses_stmatrix else prog.loads
    side[0].addr[:, 0] = np.roll(side[0].addr[:, 0], 8)  # matrix i gets the rows of matrix i - 1
    assert not run(prog, p).ok


# ------------------------------------------------------------------------------ the report


def test_report_counts_and_wavefronts():
    p = _round_trip_plan(bits=32, matrix=False)
    rep = simulate(p)
    assert isinstance(rep, SimulationReport) and rep.ok and rep.error == "" and rep.first_wrong is None
    assert rep.stores == p.stores and rep.loads == p.loads and rep.barriers == p.barriers == 2 * p.reps - 1
    assert len(rep.accesses) == p.stores + p.loads  # one entry per instruction of the program
    assert {a.op for a in rep.accesses} == {p.store_instr, p.load_instr}
    # the swizzle is conflict-free: every instruction takes its ideal number of wavefronts
    assert p.bank_conflicts == 0 and rep.excess_wavefronts == {"store": 0, "load": 0}
    assert all(a.wavefronts == a.ideal >= 1 for a in rep.accesses)
    assert "ok" in str(rep)


def test_unswizzled_buffer_counts_conflicts():
    """The same round trip through a plain row-major buffer: the column-wise side conflicts, and
    the simulator counts the wavefronts (32 lanes on one bank: 32 wavefronts)."""
    p = _round_trip_plan(bits=32, matrix=False)
    outs = p.shared_layout.out_dims
    n0, n1 = outs["dim0"].bit_length() - 1, outs["dim1"].bit_length() - 1
    plain = LinearLayout({"vector": [], "bank": [[0, 1 << k] for k in range(5)],
                          "segment": [[0, 1 << k] for k in range(5, n1)] + [[1 << k, 0] for k in range(n0)], "reps": []}, outs)
    broken = dataclasses.replace(p, shared_layout=plain, store_vector=1, load_vector=1, reps=1, barriers=1,
                                 stores=p.stores * p.store_vector, loads=p.loads * p.load_vector)
    rep = simulate(broken)
    assert rep.ok
    assert max(a.wavefronts for a in rep.accesses) == 32


def test_simulate_is_lazy_export_and_checks_type():
    p = _lane_swap_plan()
    assert linlayout.simulate(p) == simulate(p)  # the package's name works whichever was imported first
    with pytest.raises(LayoutError):
        simulate("not a plan")  # type: ignore[arg-type]


# ------------------------------------------------ general layouts: XOR-mixed bases, copies in registers

_LANE_COPY = (
    LinearLayout.from_dict({"bases": [["register", [[0, 1], [0, 28]]], ["lane", [[0, 16], [0, 2], [0, 32], [0, 8], [0, 4]]]],
                            "out_dims": [["dim0", 1], ["dim1", 64]]}),
    LinearLayout.from_dict({"bases": [["register", [[0, 2], [0, 13]]], ["lane", [[0, 1], [0, 4], [0, 16], [0, 32], [0, 8]]]],
                            "out_dims": [["dim0", 1], ["dim1", 64]]}),
)


@pytest.mark.parametrize("strategy", ["triton", "best"])
@pytest.mark.parametrize("bits", [8, 16, 32, 64])
def test_lane_copy_in_other_registers(strategy, bits):
    """A thread holds other threads' elements in its registers (src register 1 is 28 = 16 ^ 8 ^ 4,
    the element of lanes 1, 8 and 16 away; dst register 1 is 13 = 8 ^ 4 ^ 1).  Planned with
    ldmatrix at 32 bits before: dst's offsets 1 and 4 step the word inside a 16-byte row, and
    register 13 = 8 ^ (1 ^ 4) puts the row of matrix 2 at offset 7, inside a row (the simulator:
    "lane 16 supplies ldmatrix row offset 7, not 16-byte aligned").  Triton 3.9 cannot compile
    the pair (cvt_general.jsonl row 0: it aborts on register 28, "orderPerDim cannot determine
    dimension order for swizzled bases"), so there is no mechanism of Triton's to match."""
    src, dst = _LANE_COPY
    for matrix in (True, False):
        p = plan_conversion(src, dst, bitwidth=bits, strategy=strategy, matrix_instructions=matrix)
        assert simulate(p).ok, (matrix, simulate(p))
        assert not p.uses_ldmatrix  # dst register 13 would start a matrix row inside a row


def _layout_of_bases(b: dict, shape: list[int]) -> LinearLayout:
    return LinearLayout({k: b[k] for k in ("register", "lane", "warp")}, {"dim0": shape[0], "dim1": shape[1]})


def _is_permutation(b: dict) -> bool:
    """Triton's ``#ttg.linear``: the non-zero bases are distinct powers of two (one dim each)."""
    flat = [(i, v[i]) for vs in b.values() for v in vs for i in range(len(v)) if v[i]]
    per = [sum(1 for x in v if x) for vs in b.values() for v in vs]
    return all(x & (x - 1) == 0 for _, x in flat) and len(set(flat)) == len(flat) and max(per, default=0) <= 1


def _mechanism(counts: dict) -> str:
    if counts["st_shared"] or counts["ld_shared"] or counts["stmatrix"] or counts["ldmatrix"]:
        return "shared_memory"
    return "warp_shuffle" if counts["shfl"] else "none"


def test_general_layouts_against_triton(oracle, monkeypatch):
    """``triton-3.9-ir/cvt_general.jsonl`` (``make_cvt_general.py``): conversions between general
    linear layouts (bases that are XOR combinations inside a dim, lanes in the span of registers,
    equal lanes: Triton 3.9's ``#ttg.generic_linear``), Triton's own lowering of each, and
    permutation-layout controls; then in-warp exchanges made general on one side or both.

    Every plan of both strategies, with and without matrix instructions, runs correctly.  Of the
    pairs linlayout 422badb mis-planned (rounds split by a thread's index, matrix rows starting
    inside a row), Triton 3.9 itself crashes on all but one (an LLVM error in its ``reps``
    layout, or a failed assertion in its swizzling or ld/st lowering): the same choices, made by
    the same method.  On the one it compiles, our "triton" plan takes Triton's buffer in one round
    with one barrier (422badb: half the buffer, two rounds that differed per lane).  On every pair
    Triton lowers, general or not, our "triton" strategy picks its mechanism: an exchange inside
    the warp is shuffled only between permutation-matrix layouts (Triton's ``cvtNeedsWarpShuffle``
    asks ``isPermutationMatrixLayout`` of both), whatever the attribute is spelled.  Both sides of
    that rule are exercised: in-warp pairs Triton shuffles, and in-warp pairs whose only reason to
    go through shared memory is a layout that is not a permutation matrix (our triton strategy
    with the rule switched off shuffles them)."""
    rows = oracle("triton-3.9-ir/cvt_general.jsonl")
    bits_of = {"i8": 8, "f16": 16, "f32": 32, "i64": 64}
    crashed = general = 0
    in_warp = {"shuffled": 0, "general, through shared memory": 0, "permutation spelled generic, shuffled": 0}
    for i, r in enumerate(rows):
        a, b = _layout_of_bases(r["src"], r["shape"]), _layout_of_bases(r["dst"], r["shape"])
        bits = bits_of[r["dtype"]]
        for strategy in ("triton", "best"):
            for matrix in (True, False):
                p = plan_conversion(a, b, bitwidth=bits, strategy=strategy, matrix_instructions=matrix)
                assert simulate(p).ok, (i, strategy, matrix, simulate(p))
        t = plan_conversion(a, b, bitwidth=bits, strategy="triton")
        res = r["ttgir"]
        if r["case"] == "mis-planned by 422badb":
            crashed += "error" in res
        if "error" in res:
            assert not _is_permutation(r["src"]) or not _is_permutation(r["dst"]), i  # Triton lowers all of its own kind
            continue
        mech = _mechanism(res["ptx_counts"])
        assert ("none" if t.kind in ("noop", "register") else t.kind) == mech, (i, r["case"], t.kind, res)
        perm = _is_permutation(r["src"]) and _is_permutation(r["dst"])
        general += not perm
        if linlayout.plan.minimal_conversion(a, b, strategy="triton").in_dim_names == ("register", "lane"):
            if mech == "warp_shuffle":
                in_warp["shuffled"] += 1
                in_warp["permutation spelled generic, shuffled"] += r["case"].endswith("as generic_linear")
            elif not perm:
                with monkeypatch.context() as m:  # the rule off: would our triton strategy shuffle it?
                    m.setattr(linlayout.plan, "_permutation_matrix", lambda L: True)
                    in_warp["general, through shared memory"] += plan_conversion(a, b, bitwidth=bits, strategy="triton").kind == "warp_shuffle"
        if r["case"] == "mis-planned by 422badb":  # the one Triton compiles
            assert t.kind == mech == "shared_memory" and (t.shared_bytes, t.barriers) == (res["shared_bytes"], res["ptx_counts"]["bar_sync"])
    n_bad = sum(r["case"] == "mis-planned by 422badb" for r in rows)
    print(f"\n[cvt_general] Triton crashed on {crashed}/{n_bad} pairs 422badb mis-planned; our triton strategy picks Triton's "
          f"mechanism on all {sum('error' not in r['ttgir'] for r in rows)} pairs it lowered ({general} general); in-warp: {in_warp}")
    assert (crashed, n_bad) == (17, 18) and general >= 20
    assert min(in_warp.values()) >= 3, in_warp
