"""converters.cute against CuTe C++ itself: tests/oracles/cute-cpp/algebra.jsonl was printed by a
program compiled from CUTLASS's headers on the CPU (see that folder's README and generate.py).

Row by row our default algebra (``check=True``: C++ with static integers) must give C++'s answer
exactly (same shape and stride trees, swizzles included) or refuse where C++'s static_assert
refuses, naming the same condition.  The documented differences are computed in the test:
C++ "answers" ``left_inverse`` of a layout with a negative stride with negative extents, which is
no layout (its fold assumes non-negative strides: ``(2,3):(-1,1048576)`` gives
``(_-1,_-1048576,_3):(_0,_1,_2)``), and composes a layout with a swizzled layout by
moving the swizzle through the layout even where that changes the function ("works in simple
cases"), and likewise derives the swizzle of ``logical_product(A, Sw o 0 o L)`` from ``L``'s bit
fields without checking it; we refuse all three, and the test checks C++'s answer is wrong on each
such row.
"""

from __future__ import annotations

import collections
import json
import pathlib

from converters.cute import algebra as A
from converters.cute.layout import Layout, flatten
from converters.cute.swizzle import ComposedLayout
from converters.cute.text import TextParser, parse, parse_int_tuple
from linlayout.errors import LayoutError

CPP_ORACLE = pathlib.Path(__file__).parent / "oracles" / "cute-cpp" / "algebra.jsonl"
ROWS = [json.loads(line) for line in CPP_ORACLE.read_text().splitlines() if line.strip()]


def _args(row):
    if row["op"] == "tile_to_shape":  # a layout, then a target shape and an order (int-tuples)
        return [parse(row["args"][0]), *(parse_int_tuple(a) for a in row["args"][1:])]
    return [a if isinstance(a, int) else parse(a) for a in row["args"]]


def _not_a_left_inverse(row) -> bool:
    """C++'s answer R for left_inverse(L) has a negative extent (no layout at all) or fails
    R(L(i)) == i somewhere."""
    (L,) = _args(row)
    p = TextParser(row["result"])
    if any(x < 0 for x in flatten(p.int_tuple())):
        return True
    R = parse(row["result"])
    return any(R(L(i)) != i for i in range(L.size()))


def _not_a_composition(row) -> bool:
    """C++'s answer for composition(A, Sw o 0 o L) differs from A(Sw(L(i))) somewhere (C++ moves the
    swizzle through A assuming A keeps the swizzle's bit fields together: 'works in simple cases')."""
    a, b = _args(row)
    C = parse(row["result"])
    return any(C(i) != a(b(i)) for i in range(b.size()))


def _not_a_product(row) -> bool:
    """C++'s answer R for logical_product(A, Sw o 0 o L) differs somewhere from the product
    (a, b) -> A(a) + C(Sw(L(b))), C = complement(A, size(A) * cosize(L)) (C++ derives the new
    swizzle from L's bit fields without checking it)."""
    a, t = _args(row)
    R = parse(row["result"])
    C = A.complement(a, a.size() * t.inner.cosize())
    want = [a(i) + C(t(j)) for j in range(t.size()) for i in range(a.size())]
    return [R(k) for k in range(R.size())] != want


def _same_as_cpp(ours, text: str) -> bool:
    """Our answer is C++'s printed one: equal values; for composed layouts equal chains of parts
    (C++ prints a nested composed layout as one chain, without the nesting: the same function)."""
    theirs = parse(text)
    if isinstance(ours, ComposedLayout) and isinstance(theirs, ComposedLayout):
        return ours.chain() == theirs.chain()
    return ours == theirs


def _negative_left_inverse(row) -> bool:
    L = _args(row)[0]
    return row["op"] == "left_inverse" and isinstance(L, Layout) and min(L.flat_stride()) < 0


def test_corpus_covers_the_algebra():
    ops = collections.Counter(r["op"] for r in ROWS)
    for op in ("composition", "left_inverse", "right_inverse", "complement", "logical_divide", "blocked_product", "raked_product"):
        assert ops[op] >= 40, ops
    assert ops["tile_to_shape"] >= 5
    swizzled = collections.Counter(r["op"] for r in ROWS if r.get("result", "").startswith("Sw<"))
    for op in ("composition", "logical_divide", "logical_product", "blocked_product", "tile_to_shape", "right_inverse"):
        assert swizzled[op] >= 1, swizzled
    assert sum("error" in r for r in ROWS) >= 30
    assert any("Sw<" in r.get("result", "") for r in ROWS)
    # nested composed layouts: a composed part inside, or outside, through the whole algebra
    nested = collections.Counter(r["op"] for r in ROWS if any(a.count(" o ") >= 4 or a.startswith("(S<") for a in r["args"] if isinstance(a, str)))
    for op in ("composition", "logical_divide", "zipped_divide", "logical_product", "blocked_product", "raked_product",
               "right_inverse", "left_inverse", "complement", "coalesce", "tile_to_shape"):
        assert nested[op] >= 1, nested
    assert sum(r.get("result", "").count(" o ") >= 4 for r in ROWS) >= 40


def test_every_row_agrees_with_cpp():
    agree, refused_alike, documented, bad = 0, 0, 0, []
    for k, row in enumerate(ROWS):
        try:
            ours, err = getattr(A, row["op"])(*_args(row)), None
        except LayoutError as e:
            ours, err = None, e
        if "error" in row:
            cond = row["error"].rstrip(".").lower()
            if err is not None and cond in str(err).lower():
                refused_alike += 1
            else:
                bad.append((k, row, ours if err is None else str(err)))
        elif err is None and _same_as_cpp(ours, row["result"]):
            agree += 1
        elif err is not None and _negative_left_inverse(row) and _not_a_left_inverse(row):
            documented += 1
        elif err is not None and "moves the swizzle" in str(err) and _not_a_composition(row):
            documented += 1
        elif err is not None and "is not the product" in str(err) and _not_a_product(row):
            documented += 1
        else:
            bad.append((k, row, ours if err is None else str(err)))
    assert not bad, bad[:10]
    print(f"C++ corpus: {agree} answers equal, {refused_alike} refusals alike, {documented} documented differences")


def test_cpp_issue_rows_are_in_the_corpus():
    """The issue's examples, answered by the compiled C++ (not written by hand)."""
    want = {
        ("composition", ("(4,6,8,10):(2,3,5,7)", "6:12")): "(2,3):(9,5)",
        ("composition", ("(8,8):(8,1)", "3:3")): "3:24",
        ("composition", ("(5,3):(1,7)", "4:1")): "4:1",
        ("composition", ("(4,3,1):(3,1,0)", "24:1")): "(4,3,2):(3,1,0)",
        ("composition", ("(4,3,1):(3,1,0)", "(24):(1)")): "((4,3,2)):((3,1,0))",
        ("composition", ("1:1", "4:1")): "4:1",
        ("left_inverse", ("(4,2):(1,5)",)): "(5,2):(1,4)",
        ("right_inverse", ("(2,3):(-1,1048576)",)): "1:0",
    }
    got = {(r["op"], tuple(r["args"])): r.get("result") for r in ROWS}
    for key, text in want.items():
        assert key in got, key
        assert parse(got[key]) == parse(text), (key, got[key])


def test_cpp_left_inverse_is_a_left_inverse_on_its_rows():
    """Every C++ left_inverse answer of an injective non-negative layout satisfies R(L(i)) == i."""
    n = 0
    for row in ROWS:
        if row["op"] != "left_inverse" or "error" in row or _negative_left_inverse(row):
            continue
        (L,) = _args(row)
        if not isinstance(L, Layout):
            continue
        t = L.table().tolist()
        if len(set(t)) != len(t):
            continue
        n += 1
        assert not _not_a_left_inverse(row), row
    assert n >= 40
