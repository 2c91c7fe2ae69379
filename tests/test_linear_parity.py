"""The core classes of issue 17 (Triton parity), each with Triton 3.9's answer.

Every expected value below was given by Triton 3.9.0's C++ ``LinearLayout`` through its Python
binding (``triton._C.libtriton.linear_layout``); the generated corpus
``triton-3.9-generated/ll_parity.jsonl`` holds 606 more (``*``, ``invert_and_compose`` with larger
outer out-dims, ``str``), and ``test_linear_reference.py`` repeats the comparisons on fresh random
inputs when triton is installed.
"""

from __future__ import annotations

import collections

import pytest

from conftest import load_oracle
from linlayout import LinearLayout
from linlayout.errors import SizeError
parse_linear = LinearLayout.from_text

I = LinearLayout.identity_1d


def test_invert_and_compose_accepts_an_outer_layout_with_larger_out_dims():
    # Triton 3.9: lane -> offset [[1]], out-dim offset of size 4 (used for subviews)
    sub = LinearLayout({"lane": [[1]]}, {"dim0": 2})
    whole = LinearLayout({"offset": [[1], [2]]}, {"dim0": 4})
    c = sub.invert_and_compose(whole)
    assert c.bases == {"lane": ((1,),)}
    assert c.out_dims == {"offset": 4}
    # and the map is right: sub(x) == whole(c(x)) read in the larger space
    for lane in range(2):
        assert sub(lane=lane) == whole(offset=c(lane=lane)["offset"])


def test_invert_and_compose_larger_outer_keeps_the_broadcast_heuristic():
    # Triton 3.9: warp broadcast on both sides maps to itself even though dim0 is 2 vs 4
    src = LinearLayout({"register": [[1]], "warp": [[0]]}, {"dim0": 2})
    dst = LinearLayout({"register": [[1]], "lane": [[2]], "warp": [[0]]}, {"dim0": 4})
    c = src.invert_and_compose(dst)
    assert c.bases == {"register": ((1, 0, 0),), "warp": ((0, 0, 1),)}
    assert c.out_dims == {"register": 2, "lane": 2, "warp": 2}


def test_invert_and_compose_larger_outer_on_two_out_dims_in_another_order():
    src = LinearLayout({"register": [[1, 0]], "lane": [[0, 1]]}, {"dim0": 2, "dim1": 2})
    dst = LinearLayout({"register": [[1, 0]], "lane": [[0, 1], [0, 2]]}, {"dim0": 2, "dim1": 4})
    # Triton 3.9: register -> (1, 0), lane -> (0, 1) over out-dims register 2, lane 4
    c = src.invert_and_compose(dst.transpose_outs(["dim1", "dim0"]))
    assert c.bases == {"register": ((1, 0),), "lane": ((0, 1),)}
    assert c.out_dims == {"register": 2, "lane": 4}


def test_direct_product_orders_in_dims_as_triton():
    a = LinearLayout({"in2": [[0, 1]]}, [("out1", 1), ("out2", 2)])
    b = LinearLayout({"in1": [], "in2": [], "in3": []}, [("out1", 1), ("out2", 1)], require_surjective=False)
    p = a * b
    assert p.in_dim_names == ("in1", "in2", "in3")  # Triton 3.9: [in1, in2, in3]
    assert p.bases == {"in1": (), "in2": ((0, 1),), "in3": ()}


@pytest.mark.parametrize(
    "inner, outer, want",
    [  # each answer is Triton 3.9's order of the product's in-dims (its out-dims merge the same way)
        (["a"], ["b", "a", "c"], ["b", "a", "c"]),
        (["a", "x"], ["b", "a", "c"], ["b", "a", "x", "c"]),
        (["x", "a"], ["b", "a", "c"], ["x", "b", "a", "c"]),
        (["a", "b"], ["c", "a"], ["c", "a", "b"]),
        (["c", "a"], ["b", "a"], ["c", "b", "a"]),
        (["p", "q"], ["r", "s"], ["p", "q", "r", "s"]),
    ],
)
def test_direct_product_merges_dim_orders(inner, outer, want):
    def empty(ins, outs):
        return LinearLayout({n: [] for n in ins}, {n: 1 for n in outs})

    assert list((empty(inner, ["o"]) * empty(outer, ["o"])).in_dim_names) == want
    assert list((empty(["i"], inner) * empty(["i"], outer)).out_dim_names) == want


def test_num_consecutive_in_out_counts_only_the_first_out_dim():
    L = I(4, "in", "out1") * I(8, "in", "out2")
    assert L.num_consecutive_in_out() == 4  # Triton 3.9: 4 (we said 32)


def test_identity_of_size_zero_is_empty():
    assert I(0, "in", "out") == LinearLayout.empty()  # Triton 3.9: "(empty layout)"
    assert LinearLayout.zeros_1d(0, "in", "out", 4) == LinearLayout.empty()
    assert LinearLayout.strided_1d(0, 2, "in", "out") == LinearLayout.empty()
    # Triton 3.9: strided_1d(1, 4) keeps out size 4 (= size * stride)
    assert LinearLayout.strided_1d(1, 4, "in", "out").out_dims == {"out": 4}


def test_resize_in_dim_shrinks():
    L = I(4, "in", "out").resize_in_dim("in", 2)
    assert L.bases == {"in": ((1,),)}  # Triton 3.9: in: [[1]], out size 4
    assert L.out_dims == {"out": 4}
    with pytest.raises(SizeError, match="power of two"):
        I(4, "in", "out").resize_in_dim("in", 6)


@pytest.mark.parametrize(
    "layout, text",
    [  # Triton 3.9's str() of the same layouts
        (LinearLayout.empty(), "\n(empty layout)"),
        (LinearLayout({}, {"a": 4}, require_surjective=False), "\n(empty layout with out-dims [a (size 4)])"),
        (I(1, "in", "out"), "\n - in is a size 1 dimension\nwhere out dims are: [out (size 1)]"),
        (I(4, "in", "out"), "\n - in=1 -> (1)\n   in=2 -> (2)\nwhere out dims are: [out (size 4)]"),
        (
            LinearLayout({"a": [], "b": [[1]]}, {"o": 2}),
            "\n - a is a size 1 dimension\n - b=1 -> (1)\nwhere out dims are: [o (size 2)]",
        ),
    ],
)
def test_str_is_tritons_to_string_and_reads_back(layout, text):
    assert str(layout) == text
    assert parse_linear(text) == layout
    assert parse_linear(text.lstrip("\n")) == layout


# ------------------------------------------------------------------ the generated corpus
ROWS = load_oracle("triton-3.9-generated/ll_parity.jsonl")


def _ours(row):
    a = LinearLayout.from_dict(row["a"])
    if row["op"] == "str":
        return {"text": str(a)}
    b = LinearLayout.from_dict(row["b"])
    got = a * b if row["op"] == "mul" else a.invert_and_compose(b)
    return {"result": got.to_dict()}


def test_the_parity_corpus_covers_each_operation():
    seen = collections.Counter(r["op"] for r in ROWS)
    assert len(ROWS) == 606 and min(seen[op] for op in ("mul", "invert_and_compose", "str")) >= 100
    # rows where Triton's dim order differs from "left's dims, then right's new ones"
    reordered = [r for r in ROWS if r["op"] == "mul"
                 and [n for n, _ in r["result"]["bases"]] != list(dict.fromkeys(n for x in (r["a"], r["b"]) for n, _ in x["bases"]))]
    assert len(reordered) >= 30
    larger = [r for r in ROWS if r["op"] == "invert_and_compose" and dict(r["a"]["out_dims"]) != dict(r["b"]["out_dims"])]
    assert len(larger) >= 50


@pytest.mark.parametrize("op", ["mul", "invert_and_compose", "str"])
def test_every_parity_row_matches_triton(op):
    for row in (r for r in ROWS if r["op"] == op):
        want = {k: row[k] for k in ("result", "text") if k in row}
        assert _ours(row) == want, row
