"""linlayout.plan_shuffle: the in-warp exchange computed on flat bases agrees with the layout
algebra it stands for (gf2.solve, LinearLayout.invert_and_compose, schedule_counts of the built
schedule), and the planner builds the schedule's layout only when it is read."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linlayout import LayoutError, LinearLayout, gf2
from linlayout.errors import DimensionError
from linlayout.plan import (
    _cheaper_triton_shuffle,
    _pair,
    _scheduled_shuffle_counts,
    _scheduled_shuffle_plan,
    _triton_shuffle_counts,
    _Trip,
    clear_caches,
    conversion_map,
    plan_conversion,
    shuffle_schedule,
    warp_decomposition,
)
from linlayout.cost import price
from linlayout.plan_shuffle import _PARITY, _lane_choices, _schedule, _side, _solutions, _Solver, _with_identity, schedule_counts
from linlayout.simulate import simulate


@given(st.integers(1, 10).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.integers(0, (1 << n) - 1), max_size=12), st.lists(st.integers(0, (1 << n) - 1), max_size=8))))
def test_solver_is_gf2_solve(case):
    """One pass over a vector's bits gives gf2.solve's pivot-column solution, None outside the span."""
    n, columns, targets = case
    s = _Solver(columns, n)
    for t in targets:
        assert s.express(t) == gf2.solve(columns, t)
    width = len(columns)
    assert [None if x >> width else x for x in s.over(targets)] == [gf2.solve(columns, t) for t in targets]


@st.composite
def _two_dim_pair(draw):
    """Two layouts with in-dims register and lane of equal sizes over one tensor, every column of
    ``inner`` in the span of ``outer``'s; sometimes a dim shared by both (Triton's broadcasting
    heuristic may then keep it as the identity)."""
    bits = draw(st.integers(1, 8))
    d0 = draw(st.integers(0, bits))
    outs = [("dim0", 1 << d0), ("dim1", 1 << (bits - d0))]
    n_reg, n_lane = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    vec = st.integers(0, (1 << bits) - 1)
    outer = [tuple(draw(st.lists(vec, min_size=n, max_size=n))) for n in (n_reg, n_lane)]
    cols = outer[0] + outer[1]

    def in_span() -> int:
        m = draw(st.integers(0, (1 << len(cols)) - 1))
        return gf2_xor(cols, m)

    inner = [tuple(in_span() for _ in range(n)) for n in (n_reg, n_lane)]
    shared = draw(st.sampled_from([None, 0, 1]))
    if shared is not None:
        inner[shared] = outer[shared]
    return outer, inner, outs


def gf2_xor(cols, mask):
    out = 0
    for i, v in enumerate(cols):
        if mask >> i & 1:
            out ^= v
    return out


@given(_two_dim_pair())
def test_flat_conversion_is_invert_and_compose(case):
    """The warp permutation's map (the source over the destination's columns, with Triton's
    broadcasting heuristic) is ``S.invert_and_compose(T)``, read from flat bases."""
    outer, inner, outs = case
    T = LinearLayout.from_flat({"register": outer[0], "lane": outer[1]}, outs)
    S = LinearLayout.from_flat({"register": inner[0], "lane": inner[1]}, outs)
    full = _Solver(outer[0] + outer[1], T.total_out_size_log2).over(inner[0] + inner[1])
    got = _with_identity(outer, inner, full)
    want = S.invert_and_compose(T)
    assert got == list(want.flat_bases("register") + want.flat_bases("lane"))


@st.composite
def _in_warp_pair(draw):
    """A source layout and a destination holding the same data in every warp: its register and
    lane bases an invertible recombination of the source's (with broadcast zeros sometimes)."""
    n_reg, n_lane, n_warp = draw(st.integers(0, 4)), draw(st.integers(1, 5)), draw(st.integers(0, 2))
    total = n_reg + n_lane + n_warp
    d0 = draw(st.integers(0, total))
    outs = [("dim0", 1 << d0), ("dim1", 1 << (total - d0))]
    units = [1 << i for i in draw(st.permutations(range(total)))]
    warp = units[n_reg + n_lane:]
    own = units[:n_reg + n_lane]
    mixed = list(own)
    for _ in range(draw(st.integers(0, 2 * len(mixed)))):
        i, j = draw(st.integers(0, len(mixed) - 1)), draw(st.integers(0, len(mixed) - 1))
        if i != j:
            mixed[i] ^= mixed[j]
    order = draw(st.permutations(range(len(mixed))))
    mixed = [mixed[i] for i in order]
    regs_a, regs_b = own[:n_reg], mixed[:n_reg]
    for regs in (regs_a, regs_b):
        if draw(st.booleans()):  # a register holding a copy of another's element (broadcast)
            regs.insert(draw(st.integers(0, len(regs))), 0)
    a = LinearLayout.from_flat({"register": regs_a, "lane": own[n_reg:], "warp": warp, "block": []}, outs)
    b = LinearLayout.from_flat({"register": regs_b, "lane": mixed[n_reg:], "warp": warp, "block": []}, outs)
    return a, b, draw(st.sampled_from([8, 16, 32, 64]))


@settings(max_examples=60)
@given(_in_warp_pair())
def test_counts_from_flat_bases_are_those_of_the_schedule(case):
    """What the planner prices (counted on the flat bases, the layout never built) is
    schedule_counts of the schedule it hands out, and the schedule runs."""
    a, b, bits = case
    a, b = _pair(a, b, None)
    sch = _schedule(a, b, bits)
    assert sch.counts(bits) == schedule_counts(sch.layout(), bits) == schedule_counts(shuffle_schedule(a, b, bits), bits)
    assert sch.layout() == shuffle_schedule(a, b, bits)
    p = plan_conversion(a, b, bitwidth=bits)
    if p.kind == "warp_shuffle":
        assert simulate(p).ok


@settings(max_examples=40)
@given(_in_warp_pair())
def test_scheduled_plan_and_triton_plan_share_one_schedule(case):
    a, b, bits = case
    a, b = _pair(a, b, None)
    comp = conversion_map(a, b)
    trip = _Trip(a, b, comp, comp, bits)
    sched = _scheduled_shuffle_plan(trip)
    assert (sched.shuffles, sched.selects) == _scheduled_shuffle_counts(trip)
    tri = _cheaper_triton_shuffle(trip, sched)
    counts = _triton_shuffle_counts(trip)
    if counts is None or price(shuffles=counts[1], selects=counts[2]) >= sched.cost:
        assert tri is None
    else:
        assert tri is not None and tri.cost < sched.cost and (tri.shuffles, tri.selects) == counts[1:]
        assert tri.shuffle_schedule is sched.shuffle_schedule
    assert sched.shuffle_schedule == shuffle_schedule(a, b, bits)


def _scanned_lane_choices(Tl, Tr, K, exact, nrs):
    """The lane choices as specified, by a plain scan: lane bit ``j`` takes the first ``m`` (of
    ``exact[j]``, then ``0 .. 2**min(gens, 8) - 1``) whose column ``c`` lies in the span of the
    chosen columns exactly when its lane part lies in the span of theirs (gf2.solve)."""
    Tl, G, extra, chosen = list(Tl), [], [], []
    gens = list(Tr) + list(K)
    for j, t in enumerate(Tl):
        order = ([] if exact[j] is None else [exact[j]]) + list(range(1 << min(len(gens), 8)))
        for m in order:
            c = t ^ gf2_xor(gens, m)
            if (gf2.solve(chosen, c) is None) == (gf2.solve([x >> nrs for x in chosen], c >> nrs) is None):
                g = m & ((1 << len(Tr)) - 1)
                G.append(g)
                Tl[j] = c ^ gf2_xor(Tr, g)
                chosen.append(c)
                break
        else:
            extra.append((j, t))
            Tl[j] = 0
            G.append(0)
    return G, Tl, extra


@st.composite
def _lane_choice_case(draw):
    nrs, nl = draw(st.integers(0, 4)), draw(st.integers(1, 5))
    vec = st.integers(0, (1 << (nrs + nl)) - 1)
    Tr = draw(st.lists(vec, max_size=10))
    K = draw(st.lists(vec, max_size=4))
    Tl = draw(st.lists(vec, min_size=nl, max_size=nl))
    exact = draw(st.lists(st.none() | st.integers(0, (1 << len(Tr)) - 1), min_size=nl, max_size=nl))
    return Tl, Tr, K, exact, nrs


@settings(max_examples=300)
@given(_lane_choice_case())
def test_lane_choices_pick_the_first_column_of_the_scan(case):
    """The lane choices solved as parity conditions on the search index are those of the plain
    scan (the first index in search order decides the schedule)."""
    Tl, Tr, K, exact, nrs = case
    got_Tl, extra = list(Tl), []
    G = _lane_choices(got_Tl, list(Tr), K, list(exact), nrs, extra)
    assert (G, got_Tl, extra) == _scanned_lane_choices(Tl, Tr, K, exact, nrs)


@given(st.lists(st.integers(0, 63), max_size=8), st.integers(0, 127))
def test_solutions_are_the_masks_that_xor_to_the_target(cols, target):
    full = (1 << (1 << len(cols))) - 1
    want = sum(1 << m for m in range(1 << len(cols)) if gf2_xor(cols, m) == target)
    assert _solutions(cols, target, full) == want
    assert all(_PARITY[f] >> m & 1 == bin(f & m).count("1") % 2 for f in (0, 1, 6, 200, 255) for m in range(256))


def _lane_swap():
    s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
    d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
    return s, d


def test_public_functions_take_dtype_names_and_other_out_orders():
    s, d = _lane_swap()
    assert warp_decomposition(s, d, "fp16") == warp_decomposition(s, d, 16)
    assert shuffle_schedule(s, d, "f32") == shuffle_schedule(s, d, 32)
    s2 = LinearLayout({"register": [[1, 0]], "lane": [[2, 0], [0, 1], [0, 2], [4, 0], [8, 0]]}, {"dim0": 16, "dim1": 4})
    d2 = LinearLayout({"register": [[0, 2]], "lane": [[2, 0], [0, 1], [1, 0], [4, 0], [8, 0]]}, {"dim0": 16, "dim1": 4})
    flipped = d2.transpose_outs(["dim1", "dim0"])
    assert warp_decomposition(s2, flipped) == warp_decomposition(s2, d2)
    assert shuffle_schedule(s2, flipped) == shuffle_schedule(s2, d2)


def test_refusals_are_layout_errors():
    s, d = _lane_swap()
    other = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim1": 64})
    with pytest.raises(DimensionError, match="one tensor"):
        shuffle_schedule(s, other)
    with pytest.raises(DimensionError, match="one tensor"):
        warp_decomposition(s, other)
    crossing = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [64]], "warp": [[32]]}, {"dim0": 128})
    held = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]], "warp": [[64]]}, {"dim0": 128})
    with pytest.raises(LayoutError, match="not held inside the same warp"):
        shuffle_schedule(held, crossing)
    sch = shuffle_schedule(s, d)
    partial = LinearLayout.from_flat({n: sch.flat_bases(n) for n in sch.in_dim_names},
                                     [("register", 2), ("src_lane", 32), ("discard", 1), ("junk", 2)])
    with pytest.raises(DimensionError, match="src_register"):
        schedule_counts(partial)


def test_clear_caches_forgets_the_shuffle_facts():
    s, d = _lane_swap()
    plan_conversion(s, d)
    assert _side.cache_info().currsize > 0
    clear_caches()
    assert _side.cache_info().currsize == 0
