"""Layout spaces: enumeration, classes, the zero-cost graph, cost matrices, executors (incl. Dask)."""

from __future__ import annotations

import concurrent.futures as cf
import json
import pathlib

import pytest

from linlayout import LayoutError, LinearLayout
from linlayout.app import space

ORACLE = pathlib.Path(__file__).parent / "oracles" / "triton-3.9" / "gluon_ll.jsonl"

# The number of distinct linear layouts among the 2304 BlockedLayout spellings of a [128, 128]
# tensor on 4 warps (size_per_thread up to the shape, every split of 32 lanes and 4 warps, both
# orders).  Computed by this library through converters.gluon, whose conversion agrees with Triton
# 3.9 on every Blocked/Slice row of the oracle (test_spelling_to_linear_matches_triton below).
BLOCKED_128x128_W4_CLASSES = 1848


@pytest.fixture(scope="module")
def blocked_space():
    sp = space.blocked_spellings([128, 128], 4)
    return space.classify(sp, [128, 128], executor="serial")


def test_blocked_sweep_128x128_4warps(blocked_space):
    s = blocked_space
    assert s.num_spellings == 2304 == s.num_valid
    assert s.num_classes == BLOCKED_128x128_W4_CLASSES
    assert sum(s.class_sizes()) == 2304
    assert sum(k * v for k, v in s.histogram().items()) == 2304
    # every member of a class really has the class's layout, and classes are distinct
    reps = set()
    for c in s.classes[:50]:
        for m in c.members:
            assert s.layouts[m] == c.layout
        reps.add(c.layout)
    assert len(reps) == min(50, s.num_classes)
    print(s.summary())


def test_register_order_classes_are_coarser(blocked_space):
    s = blocked_space
    coarse = space.classify(s.spellings, s.shape, executor="serial", up_to="register_order")
    assert coarse.num_classes < s.num_classes
    # each identical-class lies inside one register-order class
    where = {}
    for k, c in enumerate(coarse.classes):
        for m in c.members:
            where[m] = k
    for c in s.classes:
        assert len({where[m] for m in c.members}) == 1


def test_process_pool_gives_same_classes(blocked_space):
    with cf.ProcessPoolExecutor(max_workers=2) as ex:
        s = space.classify(blocked_space.spellings[:600], [128, 128], executor=ex)
    ref = space.classify(blocked_space.spellings[:600], [128, 128], executor="serial")
    assert [c.members for c in s.classes] == [c.members for c in ref.classes]


def test_dask_local_cluster_gives_same_classes(blocked_space):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            s = space.classify(blocked_space.spellings, [128, 128], executor=client.get_executor())
    assert s.num_classes == BLOCKED_128x128_W4_CLASSES
    assert [c.members for c in s.classes] == [c.members for c in blocked_space.classes]
    assert [c.layout for c in s.classes] == [c.layout for c in blocked_space.classes]


def _rows(kinds):
    for line in ORACLE.read_text().splitlines():
        r = json.loads(line)
        if r["layout"]["kind"] in kinds and "error" not in r:
            yield r


def test_spelling_to_linear_matches_triton():
    """The spelling dicts of a sweep convert exactly as Triton 3.9 converts them."""
    n = 0
    for r in _rows({"BlockedLayout", "SliceLayout"}):
        got = space.spelling_to_linear(r["layout"], r["shape"])
        want = LinearLayout(
            {k: r["linear"][k] for k in ("register", "lane", "warp", "block")},
            {f"dim{i}": s for i, s in enumerate(r["shape"])},
            require_surjective=False,
        )
        assert got == want, (r["layout"], r["shape"])
        n += 1
    assert n > 1000


def test_spelling_counts_and_text():
    assert len(space.blocked_spellings([128, 128], 4)) == 2304
    assert len(space.blocked_spellings([16, 16, 16], 2, max_size_per_thread=1)) == 21 * 3 * 6
    sp = space.blocked_spellings([64, 64], 4)[0]
    assert space.format_spelling(sp) == "BlockedLayout([1, 1], [1, 32], [1, 4], [0, 1])"
    mma = space.mma_spellings([128, 128], 4)
    assert {tuple(m["version"]) for m in mma} == {(2, 0), (3, 0)}
    assert all(m["warps_per_cta"][0] % 4 == 0 for m in mma if m["version"][0] == 3)
    dots = space.dot_operand_spellings(mma)
    assert {d["operand_index"] for d in dots} == {0, 1}
    assert len(space.swizzled_shared_spellings([64, 64])) == 2 * 5 * 4 * 5


def test_bad_input():
    with pytest.raises(LayoutError, match="power of two"):
        space.blocked_spellings([100, 128], 4)
    with pytest.raises(LayoutError, match="num_warps"):
        space.blocked_spellings([128, 128], 3)
    with pytest.raises(LayoutError):
        space.classify([], [128], up_to="nonsense")
    with pytest.raises(LayoutError):
        space.sweep(abs, [1], executor="threads")
    with pytest.raises(LayoutError, match="kind"):
        space.spelling_to_linear({"size_per_thread": [1]}, [4])
    # invalid spellings for the shape are recorded, not raised
    bad = {"kind": "BlockedLayout", "size_per_thread": [1], "threads_per_warp": [32], "warps_per_cta": [4], "order": [0, 1], "cga_layout": []}
    s = space.classify([bad], [128], executor="serial")
    assert s.num_valid == 0 and 0 in s.errors and s.num_classes == 0


def test_zero_cost_graph_and_components():
    # a row of 4 elements per thread in two register orders, and a layout that moves lanes.
    a = space.spelling_to_linear(space.blocked_spellings([64, 64], 4, max_size_per_thread=4)[0], [64, 64])
    regs = list(a.bases["register"])
    b = LinearLayout({**{k: list(v) for k, v in a.bases.items()}, "register": list(reversed(regs))}, a.out_dims)
    lanes = list(a.bases["lane"])
    c = LinearLayout({**{k: list(v) for k, v in a.bases.items()}, "lane": lanes[1:] + lanes[:1]}, a.out_dims)
    g = space.zero_cost_graph({"a": a, "b": b, "c": c})
    assert set(g.edges()) == {("a", "b"), ("b", "a")}
    assert space.zero_cost_components(g) == [["a", "b"], ["c"]]


def test_zero_cost_graph_of_a_space_matches_register_order_classes():
    sp = space.blocked_spellings([32, 32], 2, max_size_per_thread=2)
    s = space.classify(sp, [32, 32], executor="serial")
    g = space.zero_cost_graph([c.layout for c in s.classes])
    comps = space.zero_cost_components(g)
    coarse = space.classify(sp, [32, 32], executor="serial", up_to="register_order")
    assert len(comps) == coarse.num_classes


def test_cost_matrix_diagonal_is_free():
    sp = space.blocked_spellings([32, 32], 4, max_size_per_thread=2)[:3]
    m = space.cost_matrix({f"b{i}": x for i, x in enumerate(sp)}, [32, 32], executor="serial")
    assert m.costs.shape == (3, 3)
    assert all(m.costs[i, i] == 0 for i in range(3))
    assert "b0" in m.to_text()


def test_sweep_orders_results_and_progress(capsys):
    with cf.ThreadPoolExecutor(2) as ex:
        assert space.sweep(abs, list(range(-50, 0)), executor=ex, chunksize=7, progress=True) == list(range(50, 0, -1))
    err = capsys.readouterr().err
    import importlib.util

    if importlib.util.find_spec("tqdm") is None:  # no bar without the extra, one line saying what to install
        assert "needs tqdm" in err and "linlayout[progress]" in err
    else:  # tqdm's bar, with its rate and time, ends at 50/50
        assert "50/50" in err and "item/s" in err
