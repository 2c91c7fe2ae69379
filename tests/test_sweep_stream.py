"""Issue 19, planning and sweeps at scale: lazy spelling spaces, streamed sweeps, classification
that shares layouts, cost matrices by rows, and the planner's remembered facts.  Every fast path
here must give exactly the answers of the plain one."""

from __future__ import annotations

import concurrent.futures as cf
import gc
import itertools
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linlayout import LayoutError, LinearLayout
from linlayout.app import space
from linlayout.app.spellings import SpellingChain, SpellingProduct
from linlayout.app.sweep import gc_paused, sweep_iter
from linlayout.plan import clear_caches, plan_conversion, warp_decomposition

from strategies import linear_layouts  # noqa: E402

SPACES = [([32, 32], 2, {}), ([16], 4, {}), ([8, 4, 2], 1, {"max_size_per_thread": 2}), ([4, 4], 1, {"threads_per_warp": 4})]


@pytest.mark.parametrize("shape,warps,kw", SPACES)
def test_lazy_spaces_are_the_lists(shape, warps, kw):
    blocked = space.blocked_space(shape, warps, **kw)
    sliced = space.slice_space(shape, warps, **kw)
    assert isinstance(blocked, SpellingProduct) and isinstance(sliced, SpellingChain)
    want = list(space.blocked_spellings(shape, warps, **kw)) + list(space.slice_spellings(shape, warps, **kw))
    both = blocked + sliced
    assert len(both) == len(want)
    assert list(both) == want
    for i in (0, 1, len(want) // 3, len(want) - 1, -1, -len(want)):
        assert both[i] == want[i]
    assert both[5:40:7] == want[5:40:7]
    with pytest.raises(IndexError):
        both[len(want)]
    assert list(pickle.loads(pickle.dumps(both))) == want  # what a process pool is sent


def _same_space(a: space.LayoutSpace, b: space.LayoutSpace) -> None:
    assert a.num_spellings == b.num_spellings
    assert a.errors == b.errors
    assert a.layouts == b.layouts
    assert [c.members for c in a.classes] == [c.members for c in b.classes]
    assert [c.layout for c in a.classes] == [c.layout for c in b.classes]
    assert a.summary() == b.summary()


@pytest.mark.parametrize("up_to", ["identical", "register_order"])
def test_streamed_classify_gives_the_same_classes(up_to):
    shape, warps = [32, 32], 2
    lazy = space.blocked_space(shape, warps, max_size_per_thread=4) + space.slice_space(shape, warps, max_size_per_thread=4)
    listed = list(lazy)
    # one invalid spelling in the middle: recorded at its index, not raised
    listed.insert(7, {"kind": "BlockedLayout", "size_per_thread": [3, 1], "threads_per_warp": [8, 4],
                      "warps_per_cta": [2, 1], "order": [1, 0]})
    ref = space.classify(listed, shape, executor="serial", up_to=up_to)
    assert 7 in ref.errors and ref.layouts[7] is None
    with cf.ThreadPoolExecutor(2) as ex:
        threaded = space.classify(listed, shape, executor=ex, up_to=up_to)
    _same_space(ref, threaded)
    from_lazy = space.classify(lazy, shape, executor="serial", up_to=up_to)
    assert from_lazy.spellings is lazy  # the space keeps the lazy sequence, not a list of spellings
    assert from_lazy.num_spellings == len(listed) - 1
    assert [c.size for c in from_lazy.classes] == sorted((c.size for c in from_lazy.classes), reverse=True)
    # members of a class share one layout object (memory: one object per distinct layout)
    for c in from_lazy.classes[:20]:
        if up_to == "identical":
            assert all(from_lazy.layouts[m] is c.layout for m in c.members)
        else:
            assert all(from_lazy.layouts[m] is from_lazy.layouts[m] for m in c.members)


def test_classify_with_a_process_pool_and_a_lazy_space():
    lazy = space.slice_space([16, 16], 2, max_size_per_thread=2)
    ref = space.classify(list(lazy), [16, 16], executor="serial")
    with cf.ProcessPoolExecutor(max_workers=2) as ex:
        got = space.classify(lazy, [16, 16], executor=ex)
    _same_space(ref, got)


@pytest.mark.parametrize("shape,warps,kw", SPACES)
def test_direct_sweep_equals_the_dict_sweep(shape, warps, kw):
    """An enumerated space is swept from its fields (no dicts, no validation): the same layouts,
    errors and classes as converting each spelling dict, serially and on a process pool."""
    lazy = space.blocked_space(shape, warps, **kw) + space.slice_space(shape, warps, **kw)
    assert lazy.linear_items() is not None
    ref = space.classify(list(lazy), shape, executor="serial")
    _same_space(ref, space.classify(lazy, shape, executor="serial"))
    with cf.ThreadPoolExecutor(2) as ex:
        _same_space(ref, space.classify(lazy, shape, executor=ex))
    # swept over other shapes: a larger tensor (repeats), a smaller one (broadcasts), another rank (errors)
    for other in ([s * 4 for s in shape], [max(1, s // 4) for s in shape], shape + [2]):
        _same_space(space.classify(list(lazy), other, executor="serial"), space.classify(lazy, other, executor="serial"))
    wrong = space.classify(lazy, shape + [2], executor="serial")
    assert wrong.num_valid == 0 and "rank" in wrong.errors[0]


def test_a_chain_with_a_listed_part_sweeps_its_dicts():
    chain = space.blocked_space([8], 1) + list(space.blocked_spellings([8], 2))
    assert chain.linear_items() is None
    s = space.classify(chain, [8], executor="serial")
    _same_space(s, space.classify(list(chain), [8], executor="serial"))


_POW2 = st.integers(0, 3).map(lambda e: 1 << e)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_blocked_linear_is_the_builders_layout(data):
    """The direct construction (one dim at a time, remembered) equals Triton's builder steps
    (identity products, ensureLayoutNotSmaller/NotLarger) for blocked layouts and their slices,
    on tensors smaller than, equal to and larger than the tile."""
    from converters.gluon import BlockedLayout, SliceLayout
    from converters.gluon.distributed import blocked_linear
    from converters.gluon.base import clear_to_linear_caches

    rank = data.draw(st.integers(1, 3))
    fields = [tuple(data.draw(st.lists(_POW2, min_size=rank, max_size=rank))) for _ in range(3)]
    order = tuple(data.draw(st.permutations(range(rank))))
    shape = data.draw(st.lists(st.integers(0, 7).map(lambda e: 1 << e), min_size=rank, max_size=rank))
    if data.draw(st.booleans()):
        clear_to_linear_caches()  # cold and remembered parts give the same answer
    b = BlockedLayout(*fields, order)
    assert blocked_linear(*fields, order, shape) == b._builder(shape).build() == b.to_linear(shape)
    if rank > 1:
        k = data.draw(st.integers(0, rank - 1))
        sub = shape[:k] + shape[k + 1:]
        pb = b._builder(shape[:k] + [1] + shape[k + 1:])  # Triton's slice: the parent with extent 1 at k, projected
        pb.bases = {n: [v[:k] + v[k + 1:] for v in vs] for n, vs in pb.bases.items()}
        pb.bases["register"] = [v for v in pb.bases["register"] if any(v)]
        pb.sizes = pb.sizes[:k] + pb.sizes[k + 1:]
        assert blocked_linear(*fields, order, sub, sliced=k) == pb.build() == SliceLayout(k, b).to_linear(sub)


def test_sweep_iter_streams_and_keeps_order():
    consumed = []

    def items():
        for x in range(10_000):
            consumed.append(x)
            yield x

    with cf.ThreadPoolExecutor(2) as ex:
        it = sweep_iter(abs, items(), executor=ex, chunksize=10)
        first = [next(it) for _ in range(3)]
        # only a few chunks per worker were read before the first result came back
        assert len(consumed) <= 10 * 4 * 2 + 10
        rest = list(it)
    assert first + rest == list(range(10_000))
    serial = sweep_iter(abs, (x for x in range(-3, 3)), executor="serial", chunksize=2)
    assert list(serial) == [3, 2, 1, 0, 1, 2]
    assert space.sweep(abs, iter([-1, -2]), executor="serial") == [1, 2]
    assert list(sweep_iter(abs, [], executor="serial")) == []
    with pytest.raises(LayoutError, match="executor"):
        list(sweep_iter(abs, [1], executor="threads"))


def test_gc_paused_restores_the_collector():
    was = gc.isenabled()
    try:
        gc.enable()
        with gc_paused():
            assert not gc.isenabled()
        assert gc.isenabled()
        gc.disable()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
        gc.enable()
        with pytest.raises(ZeroDivisionError):
            with gc_paused():
                1 / 0
        assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_cost_matrix_rows_equal_pairwise_plans():
    sp = space.blocked_spellings([32, 32], 4, max_size_per_thread=2)[::9][:6]
    lls = {f"b{i}": space.spelling_to_linear(x, [32, 32]) for i, x in enumerate(sp)}
    with cf.ThreadPoolExecutor(2) as ex:
        m = space.cost_matrix(lls, executor=ex)
    serial = space.cost_matrix(lls, executor="serial")
    for i, a in enumerate(lls.values()):
        for j, b in enumerate(lls.values()):
            p = plan_conversion(a, b, bitwidth=16)
            assert m.kinds[i][j] == serial.kinds[i][j] == p.kind
            assert m.costs[i, j] == serial.costs[i, j] == space.plan_cost(p)


def _fresh(L: LinearLayout) -> LinearLayout:
    """An equal layout that shares no object (and no remembered fact) with ``L``."""
    return LinearLayout.from_dict(L.to_dict())


def test_plans_do_not_depend_on_remembered_facts():
    sp = space.blocked_spellings([64, 64], 4, max_size_per_thread=4)[::37]
    lls = [space.spelling_to_linear(x, [64, 64]) for x in sp]
    for a, b in itertools.islice(itertools.product(lls, lls), 0, None, 3):
        for bits in (8, 16, 32):
            warm = plan_conversion(a, b, bitwidth=bits).to_dict()
            clear_caches()
            cold = plan_conversion(_fresh(a), _fresh(b), bitwidth=bits).to_dict()
            assert warm == cold


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(7)), st.permutations(range(7)))
def test_warp_decomposition_widths_share_the_permutation(pa, pb):
    outs = {"dim0": 32, "dim1": 4}

    def unit(k: int) -> list[int]:
        return [1 << k, 0] if k < 5 else [0, 1 << (k - 5)]

    a = LinearLayout({"register": [unit(k) for k in pa[:2]], "lane": [unit(k) for k in pa[2:]]}, outs)
    b = LinearLayout({"register": [unit(k) for k in pb[:2]], "lane": [unit(k) for k in pb[2:]]}, outs)
    try:
        decs = {bits: warp_decomposition(a, b, bits) for bits in (8, 16, 32, 64)}
    except LayoutError:
        return
    first = decs[32]
    for d in decs.values():
        assert (d.mixed_transpositions, d.reg_perm, d.lane_perm) == (first.mixed_transpositions, first.reg_perm, first.lane_perm)
    assert decs[8].n_pack >= decs[16].n_pack >= decs[32].n_pack == decs[64].n_pack == 0


def _trivial_by_definition(L: LinearLayout, names: list[str]) -> bool:
    """Triton's isTrivialOver spelled out with sublayouts (the definition the fast check replaces)."""
    if any(not L.has_in_dim(n) or not L.has_out_dim(n) or L.in_dim_size(n) != L.out_dim_size(n) for n in names):
        return False
    sq = L.sublayout(names, names).flatten_ins()
    if any(b != 1 << i for i, b in enumerate(sq.flat_bases(sq.in_dim_names[0]) if sq.in_dim_names else ())):
        return False
    rest_in = [n for n in L.in_dim_names if n not in names]
    rest_out = [n for n in L.out_dim_names if n not in names]
    zero = lambda lay: all(b == 0 for n in lay.in_dim_names for b in lay.flat_bases(n))  # noqa: E731
    return zero(L.sublayout(rest_in, names)) and zero(L.sublayout(names, rest_out))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_is_trivial_over_matches_its_definition(data):
    names = ["register", "lane", "warp"]
    sizes = {n: 1 << data.draw(st.integers(0, 2)) for n in names}
    outs = {n: sizes[n] for n in data.draw(st.permutations(names))}
    L = data.draw(linear_layouts(outs, in_names=tuple(names), max_bits=2))
    if data.draw(st.booleans()):  # make some dims trivial, the common case of a conversion map
        picked = data.draw(st.sets(st.sampled_from(names)))
        bases = {}
        for n in L.in_dim_names:
            if n in picked and L.in_dim_size(n) == outs[n]:
                bases[n] = [[(1 << i) if m == n else 0 for m in outs] for i in range(L.in_dim_size_log2(n))]
            else:
                bases[n] = [list(v) for v in L.bases[n]]
        L = LinearLayout(bases, outs, require_surjective=False)
    for k in range(0, 4):
        for sub in itertools.combinations(names, k):
            assert L.is_trivial_over(list(sub)) == _trivial_by_definition(L, list(sub)), (L, sub)
