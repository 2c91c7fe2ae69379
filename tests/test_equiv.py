"""Equivalence of layout spellings: documentation examples, every form, laws, multi-step plans."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linlayout import LayoutError, LinearLayout, MixedRadixLayout
from linlayout.equiv import equivalent
from linlayout.plan_graph import cheapest_path, conversion_graph
from test_plan import blocked, distributed


def slice_of(parent: LinearLayout, dim: str) -> LinearLayout:
    """Triton's SliceLayout: project ``dim`` away, drop the zero register bases."""
    keep = [n for n in parent.out_dim_names if n != dim]
    L = parent.sublayout(parent.in_dim_names, keep).remove_zero_bases("register")
    return L.rename_out_dim(keep[0], "dim0") if keep[0] != "dim0" else L


def test_doc_blocked_equals_slice_of_blocked():
    a = blocked([1], [32], [4], [0], [128])
    parent = blocked([1, 1], [32, 1], [4, 1], [1, 0], [128, 1])
    b = slice_of(parent, "dim1")
    e = equivalent(a, b)
    assert e and e.relation == "identical" and e.counterexample is None and e.zero_cost


def test_doc_blocked_equals_slice_with_gluon():
    from converters import gluon

    a = gluon.from_dict({"kind": "BlockedLayout", "size_per_thread": [1], "threads_per_warp": [32],
                         "warps_per_cta": [4], "order": [0], "cga_layout": []})
    b = gluon.from_dict({"kind": "SliceLayout", "dim": 1, "parent": {
        "kind": "BlockedLayout", "size_per_thread": [1, 1], "threads_per_warp": [32, 1], "warps_per_cta": [4, 1],
        "order": [1, 0], "cga_layout": []}})
    assert equivalent(a, b, shape=[128]).relation == "identical"


def test_register_order_relation():
    a = blocked([4, 4], [8, 4], [4, 1], [1, 0], [64, 64])
    b = LinearLayout(dict(a.bases, register=[list(v) for v in a.bases["register"]][::-1]), a.out_dims)
    e = equivalent(a, b)
    assert not e and e.relation == "same up to register order" and e.zero_cost
    c = e.counterexample
    assert set(c.point) == {"register"} and c.left != c.right
    assert a.apply(c.point) == c.left and b.apply(c.point) == c.right


def test_different_with_counterexample():
    a = blocked([1, 1], [1, 32], [1, 4], [1, 0], [128, 128])
    b = blocked([1, 1], [32, 1], [4, 1], [0, 1], [128, 128])
    e = equivalent(a, b)
    assert e.relation == "different" and not e.zero_cost
    assert a.apply(e.counterexample.point) != b.apply(e.counterexample.point)
    assert "counterexample" in str(e)


def test_different_tensors_and_domains():
    a = LinearLayout.identity_1d(32, "lane", "dim0")
    e = equivalent(a, LinearLayout.identity_1d(64, "lane", "dim0"))
    assert e.relation == "different" and e.counterexample is None and "different tensors" in e.reason
    f = equivalent(a * LinearLayout.identity_1d(2, "warp", "dim1"), a * LinearLayout.identity_1d(2, "register", "dim1"))
    assert f.relation == "different" and f.counterexample.right is None or f.counterexample.left is None


def test_size_one_dims_and_order_ignored():
    a = LinearLayout({"register": [], "lane": [[1, 0], [0, 1]]}, {"dim0": 2, "dim1": 2})
    b = LinearLayout({"lane": [[0, 1], [1, 0]]}, {"dim1": 2, "dim0": 2})
    assert equivalent(a, b).relation == "identical"


def test_general_forms():
    L = LinearLayout.identity_1d(8, "x", "m")
    assert equivalent(L, MixedRadixLayout({"x": [(8, 1, "m")]})).relation == "identical"
    g1 = MixedRadixLayout({"x": [(3, 4, "m"), (4, 1, "m")]})
    g2 = MixedRadixLayout({"x": [(3, 4, "m"), (4, 1, "m")]})
    g3 = MixedRadixLayout({"x": [(3, 1, "m"), (4, 3, "m")]})
    assert equivalent(g1, g2)
    e = equivalent(g1, g3)
    assert e.relation == "different" and e.method == "general" and e.counterexample is not None


def test_cute_forms():
    from converters import cute

    a = cute.parse("(4,8):(8,1)")
    assert equivalent(a, cute.parse("(4,(2,4)):(8,(1,2))")).relation == "identical"
    assert equivalent(a, a.to_linear()).relation == "identical"
    e = equivalent(a, cute.parse("(4,8):(1,4)"))
    assert e.relation == "different" and e.counterexample.point
    assert equivalent(cute.parse("(3,8):(8,1)"), cute.parse("(3,8):(8,1)")).relation == "identical"
    assert equivalent(cute.parse("(3,8):(8,1)"), cute.parse("(3,8):(1,3)")).relation == "different"


def test_bad_input():
    with pytest.raises(LayoutError):
        equivalent(object(), LinearLayout.identity_1d(2, "x", "m"))


@settings(max_examples=40)
@given(distributed())
def test_reflexive(L):
    e = equivalent(L, L)
    assert e and e.relation == "identical"


@settings(max_examples=40)
@given(distributed(), distributed())
def test_symmetric(a, b):
    e1, e2 = equivalent(a, b), equivalent(b, a)
    assert e1.relation == e2.relation
    if e1.counterexample is not None and e1.counterexample.left is not None and e1.counterexample.right is not None:
        assert a.apply(e1.counterexample.point) != b.apply(e1.counterexample.point)


@settings(max_examples=30)
@given(distributed(), st.randoms(use_true_random=False))
def test_register_permutation_is_same_up_to_register_order(L, rnd):
    regs = [list(r) for r in L.bases["register"]]
    perm = regs[:]
    rnd.shuffle(perm)
    M = LinearLayout(dict(L.bases, register=perm), L.out_dims)
    e = equivalent(L, M)
    assert e.relation == ("identical" if perm == regs else "same up to register order")


# ----------------------------------------------------------------------- multi-step plans


def test_graph_and_cheapest_path():
    a = blocked([1, 1], [1, 32], [1, 4], [1, 0], [64, 64])
    b = blocked([1, 1], [32, 1], [4, 1], [0, 1], [64, 64])
    c = LinearLayout(dict(b.bases), b.out_dims)
    G = conversion_graph({"a": a, "b": b, "c": c}, bitwidth=16)
    assert G.number_of_nodes() == 3 and G["b"]["c"]["kind"] == "noop" and G["a"]["b"]["kind"] == "shared_memory"
    m = cheapest_path(a, b, {"c": c}, bitwidth=16)
    assert m.names == ("src", "dst") and len(m.plans) == 1 and m.cost == m.plans[0].cost > 0
    assert m.shared_bytes == m.plans[0].shared_bytes and "src -> dst" in str(m)
    with pytest.raises(LayoutError):
        cheapest_path(a, b, {"src": c})


def test_cheapest_path_uses_a_cheaper_detour():
    # src -> mid is a register permutation, mid -> dst a lane shuffle; the direct route costs the same
    # or more, and the path never costs more than the direct plan
    s = LinearLayout({"register": [[1], [2]], "lane": [[4], [8], [16], [32], [64]]}, {"dim0": 128})
    d = LinearLayout({"register": [[64], [1]], "lane": [[4], [8], [16], [32], [2]]}, {"dim0": 128})
    mid = LinearLayout({"register": [[2], [1]], "lane": [[4], [8], [16], [32], [64]]}, {"dim0": 128})
    m = cheapest_path(s, d, [mid])
    from linlayout.plan import plan_conversion

    assert m.cost <= plan_conversion(s, d).cost
    assert m.to_dict()["names"][0] == "src"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(0, 9)), min_size=1, max_size=3), st.data())
def test_memory_layouts_without_an_inverse_compare_by_their_memory_maps(modes, data):
    """A CuTe layout that is not a bijection onto [0, size) has no offset -> coordinate form; two
    of them are compared by their coordinate -> offset maps (method "memory map"): equal strings
    are identical, and "different" comes with a counterexample where the offsets differ."""
    from converters import cute

    text = "(" + ",".join(str(s) for s, _ in modes) + "):(" + ",".join(str(d) for _, d in modes) + ")"
    a = cute.parse(text)
    e = equivalent(a, cute.parse(text))
    assert e.relation == "identical"
    i = data.draw(st.integers(0, len(modes) - 1))
    s, d = modes[i]
    other = [(s, d + 1 if k == i else dd) for k, (ss, dd) in enumerate(modes) for s in [ss]]
    b = cute.parse("(" + ",".join(str(s) for s, _ in other) + "):(" + ",".join(str(d) for _, d in other) + ")")
    e = equivalent(a, b)
    if modes[i][0] == 1:  # a mode of extent 1 never uses its stride
        assert e.relation == "identical"
    else:
        assert e.relation == "different" and e.counterexample is not None
        if e.method != "memory map":  # both happen to be bijections: compared offset -> coordinates
            return
        point = e.counterexample.point
        coord = tuple(point.get(f"dim{k}", 0) for k in range(len(modes)))
        assert a(coord) != b(coord)


def test_memory_map_fallback_needs_both_sides():
    from converters import cute

    with pytest.raises(LayoutError):  # "4:3" has no hardware form; a LinearLayout has no memory map
        equivalent(cute.parse("4:3"), LinearLayout.identity_1d(4, "offset", "dim0"))
