"""converters.cute's int-tuple functions, slicing, nullspace, domain_distribute, max_alignment and
MixedBits against CuTe C++'s printed answers (tests/oracles/cute-cpp/extras.jsonl, written by
``generate.py --parts extras`` from CUTLASS's headers compiled with g++; see the README there).

Every row is checked: an accepted row's answer is C++'s (the same tree, the same layout, the same
composed chain, the same MixedBits split), and each case C++ refuses to compile we refuse with a
specific LayoutError subclass.
"""

from __future__ import annotations

import json
import pathlib
import sys

import pytest

from converters.cute import ComposedLayout, Layout, MixedBits, parse, parse_coord, parse_int_tuple, parse_layout
from linlayout.errors import LayoutError
from linlayout.limits import split_top_level

HERE = pathlib.Path(__file__).parent / "oracles" / "cute-cpp"
sys.path.insert(0, str(HERE))
from generate import extras_call  # noqa: E402  (the generator's own dispatch: one call per op)

ROWS = [json.loads(line) for line in (HERE / "extras.jsonl").read_text().splitlines() if line.strip()]


def _tiler(text):
    """A tiler: an int-tuple, or a tuple holding layouts (``(8:2,32)``)."""
    if not isinstance(text, str):
        return text
    try:
        return parse_coord(text)
    except LayoutError:
        pass
    if text[0] != "(":  # a layout tiler
        return parse_layout(text)
    parts = split_top_level(text[1:-1], "(", ")")
    return tuple(parse_layout(p) if ":" in p else parse_coord(p) for p in parts)


def _tuple(x):
    return parse_coord(x) if isinstance(x, str) else x


def read_args(op: str, args: list) -> list:
    """A row's arguments from their text."""
    if op == "mixed_bits":
        return list(args)
    if op in ("slice", "dice", "slice_and_offset"):
        return [parse_coord(args[0]), parse(args[1])]
    if op in ("nullspace", "max_alignment"):
        return [parse(args[0])]
    if op == "composition":
        return [parse(a) for a in args]
    if op == "evenly_divides":
        return [_tuple(args[0]), _tiler(args[1])]
    return [_tuple(a) for a in args]


def _same(ours, text: str) -> bool:
    theirs = parse(text)
    if isinstance(ours, ComposedLayout) or isinstance(theirs, ComposedLayout):
        return isinstance(ours, ComposedLayout) and isinstance(theirs, ComposedLayout) and ours.chain() == theirs.chain()
    return ours == theirs


def _ids(rows):
    return [f"{r['op']}-{k}" for k, r in enumerate(rows)]


@pytest.mark.parametrize("row", ROWS, ids=_ids(ROWS))
def test_row(row):
    op = row["op"]
    args = read_args(op, row["args"])
    if "error" in row:
        with pytest.raises(LayoutError) as e:
            extras_call(op, args)
        assert type(e.value) is not LayoutError, e.value  # a specific subclass
        return
    ours = extras_call(op, args)
    text = row["result"]
    if op in ("weakly_congruent", "congruent", "evenly_divides", "lex_less", "colex_less", "elem_less"):
        assert ours is (text == "1")
    elif op in ("shape_div", "idx2crd"):
        assert ours == parse_int_tuple(text)
    elif op == "max_alignment":
        assert ours == int(text)
    elif op == "mixed_bits":
        if isinstance(ours, MixedBits):
            assert str(ours) == text and MixedBits.parse(text) == ours
        else:  # C++ folds a MixedBits with no dynamic bit into a static integer
            assert ours == parse_int_tuple(text)
    elif op == "slice_and_offset":
        sl, off = ours
        assert _same(sl, text), (str(sl), text)
        assert off == parse_int_tuple(row["offset"])
    else:
        assert _same(ours, text), (str(ours), text)


def test_every_op_has_rows_and_refusals():
    """The corpus covers every function (a generator that lost a part fails here)."""
    ops = {r["op"] for r in ROWS}
    assert ops == {"shape_div", "weakly_congruent", "congruent", "evenly_divides", "lex_less", "colex_less", "elem_less",
                   "idx2crd", "slice", "dice", "slice_and_offset", "nullspace", "domain_distribute", "max_alignment",
                   "mixed_bits", "composition"}
    assert {r["op"] for r in ROWS if "error" in r} >= {"shape_div", "colex_less", "slice_and_offset"}
    assert any(isinstance(parse(r["result"]), ComposedLayout) for r in ROWS if r["op"] == "slice_and_offset" and "result" in r)
    assert any(isinstance(parse(r["result"]), Layout) and "S<" in r["args"][1] for r in ROWS if r["op"] == "slice_and_offset" and "result" in r)
