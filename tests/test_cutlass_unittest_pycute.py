"""CUTLASS's own pycute unit tests (``test/python/pycute/test_*.py``), ported to converters.cute.

Source: NVIDIA/cutlass at commit 7107b05535f8977f5ecb9d01ee203205b1fd9bc4 (v4.7.0-6-g7107b0553).
Every case of each file is here with the property its helper checks (``helper_test_coalesce``:
same size and ``R(i) == L(i)``; ``helper_test_complement``: disjoint codomains;
``helper_test_composition``: ``R(i) == A(B(i))``; ``helper_test_left_inverse``: ``inv(L(i)) ==
i``; ``helper_test_right_inverse``: ``L(inv(i)) == i``), and every value ``test_int_tuple.py``
states, asserted on our int-tuple helpers.  pycute itself is not needed: the cases run on our
algebra (which follows CuTe C++ where it and pycute differ; the C++ unit tests are in
``test_cutlass_unittest_core.py``).  The names of the parameter ids give the source line's layout.
"""

from __future__ import annotations

import json
import pathlib

import pytest

from converters.cute import Layout, coalesce, complement, composition, format_coord, left_inverse, parse_int_tuple, right_inverse, shape_div
from converters.cute.layout import compact_col_major, is_int, product

SRC = "test/python/pycute"


def _layouts(*cases):
    """pytest params of ``Layout(*args)`` cases, with the pycute text as id."""
    return [pytest.param(Layout(*c), id=str(Layout(*c))) for c in cases]


# ---------------------------------------------------------------- test_coalesce.py
# TestCoalesce.test_coalesce (every case, in order)
COALESCE = _layouts(
    (1, 0),
    (1, 1),
    ((2, 4),),
    ((2, 4, 6),),
    ((2, 4, 6), (1, 6, 2)),
    ((2, 1, 6), (1, 7, 2)),
    ((2, 1, 6), (4, 7, 8)),
    ((2, (4, 6)),),
    ((2, 4), (4, 1)),
    ((2, 4, 6), (24, 6, 1)),
    ((2, 1, 3), (2, 4, 4)),
    (((2, 2), (2, 2)), ((1, 4), (8, 32))),
)


@pytest.mark.parametrize("layout", COALESCE)
def test_coalesce(layout):
    """test_coalesce.py TestCoalesce.test_coalesce / helper_test_coalesce."""
    R = coalesce(layout)
    assert R.size() == layout.size()
    assert all(R(i) == layout(i) for i in range(layout.size()))


# ---------------------------------------------------------------- test_complement.py
COMPLEMENT = _layouts(
    (1, 0),
    (1, 1),
    (4, 0),
    ((2, 4), (1, 2)),
    ((2, 3), (1, 2)),
    ((2, 4), (1, 4)),
    ((2, 4, 8), (8, 1, 64)),
    (((2, 2), (2, 2)), ((1, 4), (8, 32))),
    ((2, (3, 4)), (3, (1, 6))),
    ((4, 6), (1, 6)),
    ((4, 10), (1, 10)),
)


@pytest.mark.parametrize("layout", COMPLEMENT)
def test_complement(layout):
    """test_complement.py TestComplement.test_complement / helper_test_complement: the codomains
    of the layout and its complement meet at most in 0."""
    R = complement(layout)
    image = {layout(a) for a in range(layout.size())}
    for b in range(R.size()):
        rb = R(b)
        assert rb not in image or rb == 0, (layout, R, b)


# ---------------------------------------------------------------- test_composition.py
COMPOSITION = [
    ((1, 0), (1, 0)),
    ((1, 0), (1, 1)),
    ((1, 1), (1, 0)),
    ((1, 1), (1, 1)),
    ((4,), (4,)),
    ((4, 2), (4,)),
    ((4,), (4, 2)),
    ((4, 0), (4,)),
    ((4,), (4, 0)),
    ((1, 0), (4,)),
    ((4,), (1, 0)),
    ((4,), (2,)),
    ((4, 2), (2,)),
    ((4,), (2, 2)),
    ((4, 2), (2, 2)),
    ((12,), ((4, 3),)),
    ((12, 2), ((4, 3),)),
    ((12,), ((4, 3), (3, 1))),
    ((12, 2), ((4, 3), (3, 1))),
    ((12,), ((2, 3), (2, 4))),
    (((4, 3),), ((4, 3),)),
    (((4, 3),), (12,)),
    (((4, 3),), (6, 2)),
    (((4, 3),), ((6, 2), (2, 1))),
    (((4, 3), (3, 1)), ((4, 3),)),
    (((4, 3), (3, 1)), (12,)),
    (((4, 3), (3, 1)), (6, 2)),
    (((4, 3), (3, 1)), ((6, 2), (2, 1))),
    (((8, 8),), (((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32)))),
    (((8, 8), (8, 1)), (((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32)))),
    ((((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32))), (8, 4)),
    (((4, 2), (1, 16)), ((4, 2), (2, 1))),  # pycute's ((4,2)) is the tuple (4,2), not a 1-tuple
    (((2, 2), (2, 1)), ((2, 2), (2, 1))),
    (((4, 8, 2),), ((2, 2, 2), (2, 8, 1))),
    (((4, 8, 2), (2, 8, 1)), ((2, 2, 2), (1, 8, 2))),
    (((4, 8, 2), (2, 8, 1)), ((4, 2, 2), (2, 8, 1))),
    (((4, 6, 8), (1, 4, 7)), (6, 1)),  # "Pre-coalesced LHS"
    (((4, 6, 8, 10), (2, 3, 5, 7)), (6, 12)),  # "Mid-layout truncation"
]


@pytest.mark.parametrize(
    "a,b", [pytest.param(Layout(*a), Layout(*b), id=f"{Layout(*a)} o {Layout(*b)}") for a, b in COMPOSITION]
)
def test_composition(a, b):
    """test_composition.py TestComposition.test_composition / helper_test_composition:
    ``R(i) == A(B(i))`` for every i < size(R)."""
    R = composition(a, b)
    assert all(R(i) == a(b(i)) for i in range(R.size())), (a, b, R)
    # C++ (and pycute's "true post-condition"): R has B's domain
    assert R.size() == b.size()


# ---------------------------------------------------------------- test_left_inverse.py
LEFT_INVERSE = _layouts(
    (1, 0),
    ((1, 1), (0, 0)),
    (1, 1),
    (4, 1),
    (4, 2),
    ((8, 4), (1, 8)),
    ((8, 4), (4, 1)),
    ((2, 4, 6), (1, 2, 8)),
    ((2, 4, 6), (4, 1, 8)),
    ((4, 2), (1, 16)),
)


@pytest.mark.parametrize("layout", LEFT_INVERSE)
def test_left_inverse(layout):
    """test_left_inverse.py TestLeftInverse.test_left_inverse / helper_test_left_inverse:
    ``inv(L(i)) == i``."""
    inv = left_inverse(layout)
    assert all(inv(layout(i)) == i for i in range(layout.size())), (layout, inv)


# ---------------------------------------------------------------- test_right_inverse.py
RIGHT_INVERSE = _layouts(
    (1, 0),
    ((1, 1), (0, 0)),
    ((3, 7), (0, 0)),
    (1, 1),
    (4, 0),
    (4, 1),
    (4, 2),
    ((2, 4), (0, 2)),
    ((8, 4), (1, 8)),
    ((8, 4), (4, 1)),
    ((2, 4, 6), (1, 2, 8)),
    ((2, 4, 6), (4, 1, 8)),
    ((4, 2), (1, 16)),
)


@pytest.mark.parametrize("layout", RIGHT_INVERSE)
def test_right_inverse(layout):
    """test_right_inverse.py TestRightInverse.test_right_inverse / helper_test_right_inverse:
    ``L(inv(i)) == i`` for every i < size(inv)."""
    inv = right_inverse(layout)
    assert all(layout(inv(i)) == i for i in range(inv.size())), (layout, inv)


# ---------------------------------------------------------------- test_int_tuple.py
def test_int_tuple_product():
    """test_int_tuple.py TestIntTuple.test_product."""
    assert product(2) == 2
    assert product((3, 2)) == 6
    assert product(product(((2, 3), 4))) == 24


def test_int_tuple_inner_product():
    """test_int_tuple.py TestIntTuple.test_inner_product.  We have no free ``inner_product``; a
    layout's ``crd2idx`` is the inner product of a coordinate with its stride (the shape only
    has to hold the coordinate), so the same values are asserted through it."""

    def inner_product(a, b):
        bound = 1 + max((abs(x) for x in _leaves(a)), default=0)
        shape = _map_leaves(b, lambda _: bound)
        return Layout(shape, b).crd2idx(a)

    assert inner_product(2, 3) == 6
    assert inner_product((1, 2), (3, 2)) == 7
    assert inner_product(((2, 3), 4), ((2, 1), 2)) == 15


EXTRAS = pathlib.Path(__file__).parent / "oracles" / "cute-cpp" / "extras.jsonl"
SHAPE_DIV = [((3, 4), 6, (1, 2)), ((3, 4), 12, (1, 1)), ((3, 4), 36, (1, 1)), (((3, 4), 6), 36, ((1, 1), 2)),
             ((6, (3, 4)), 36, (1, (1, 2)))]


@pytest.mark.parametrize("a,b,expected", SHAPE_DIV, ids=str)
def test_int_tuple_shape_div(a, b, expected):
    """test_int_tuple.py TestIntTuple.test_shape_div: every case, with pycute's answer; C++'s
    ``shape_div`` (static integers) prints the same (tests/oracles/cute-cpp/extras.jsonl, checked
    here too)."""
    assert shape_div(a, b) == expected
    rows = [json.loads(line) for line in EXTRAS.read_text().splitlines()]
    cpp = [r["result"] for r in rows if r["op"] == "shape_div" and r["args"] == [format_coord(a), b]]
    assert cpp and parse_int_tuple(cpp[0]) == expected


def test_int_tuple_prefix_product():
    """test_int_tuple.py TestIntTuple.test_prefix_product: our ``compact_col_major`` is the
    exclusive prefix product (pycute's ``prefix_product``; C++'s ``compact_col_major`` on
    run-time integers — static extent-1 modes differ, see test_cutlass_unittest_core.py)."""
    assert compact_col_major(2) == 1
    assert compact_col_major((3, 2)) == (1, 3)
    assert compact_col_major((3, 2, 4)) == (1, 3, 6)
    assert compact_col_major(((2, 3), 4)) == ((1, 2), 6)
    assert compact_col_major(((2, 3), (2, 1, 2), (5, 2, 1))) == ((1, 2), (6, 12, 12), (24, 120, 240))


# ---------------------------------------------------------------- test_typing.py
@pytest.mark.parametrize("obj,expected", [(1, True), (1.0, False), ("hi", False), (False, False)])
def test_typing(obj, expected):
    """test_typing.py TestTyping.test_typing: pycute's ``Integer`` (int, not bool, float or str)
    is our ``is_int`` (the class check ``issubclass`` has no counterpart: we test values)."""
    assert is_int(obj) is expected


def _leaves(t):
    return [x for s in t for x in _leaves(s)] if isinstance(t, tuple) else [t]


def _map_leaves(t, f):
    return tuple(_map_leaves(s, f) for s in t) if isinstance(t, tuple) else f(t)


def cpp_cases() -> list[tuple[str, list]]:
    """(op, args) of every algebra case above, for tests/oracles/cute-cpp/generate.py
    ``--parts unittest`` (C++'s printed answers, checked in test_cutlass_unittest_core.py)."""
    out: list[tuple[str, list]] = [("coalesce", list(p.values)) for p in COALESCE]
    out += [("complement", [p.values[0], p.values[0].cosize()]) for p in COMPLEMENT]
    out += [("composition", [Layout(*a), Layout(*b)]) for a, b in COMPOSITION]
    out += [("left_inverse", list(p.values)) for p in LEFT_INVERSE]
    out += [("right_inverse", list(p.values)) for p in RIGHT_INVERSE]
    return out

