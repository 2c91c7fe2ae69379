"""converters.gluon base: registry, dict and text forms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from converters import gluon
from converters.gluon import BlockedLayout, GluonLayout, SliceLayout, from_dict, parse, registry
from linlayout.errors import LayoutError, ParseError, SizeError

ORACLE = Path(__file__).parent / "oracles" / "triton-3.9" / "gluon_ll.jsonl"


def test_registry_has_distributed_kinds():
    reg = registry()
    for k in ("BlockedLayout", "SliceLayout", "DistributedLinearLayout"):
        assert k in reg and reg[k].family == k


def test_str_and_parse_round_trip():
    b = BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])
    assert str(b) == "BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])"
    assert parse(str(b)) == b
    assert parse("ttgl.BlockedLayout([2, 4], [16, 2], warps_per_cta=[2, 2], order=[1, 0])") == b
    s = SliceLayout(1, b)
    assert str(s) == "SliceLayout(1, BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0]))"
    assert parse("gl.SliceLayout(dim=1, parent=" + str(b) + ")") == s
    c = BlockedLayout([1, 1], [32, 1], [4, 1], [1, 0], cga_layout=[[1, 0]])
    assert str(c).endswith("cga_layout=[[1, 0]])") and parse(str(c)) == c


def test_dict_round_trip():
    b = BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])
    d = SliceLayout(0, b).to_dict()
    assert d["parent"]["kind"] == "BlockedLayout"
    assert from_dict(d) == SliceLayout(0, b)
    assert GluonLayout.from_dict(json.loads(json.dumps(d))) == SliceLayout(0, b)


@pytest.mark.parametrize(
    "text,pos",
    [
        ("BlockedLayout([1], [32], [4], [0]", 33),
        ("BlockedLayout([1], [32], [4], [0]) x", 35),
        ("Nope([1])", 0),
        ("BlockedLayout([1] [32], [4], [0])", 18),
        ("", 0),
        ("BlockedLayout(size_per_thread=[1], [32], [4], [0])", 35),
        ("BlockedLayout([1], [32], [4], [0], foo=1)", 0),
    ],
)
def test_parse_errors_have_positions(text, pos):
    with pytest.raises(ParseError) as ei:
        parse(text)
    assert ei.value.position == pos


def test_from_dict_errors():
    with pytest.raises(LayoutError, match="unknown Gluon layout kind"):
        from_dict({"kind": "Whatever"})
    with pytest.raises(LayoutError, match="unknown field"):
        from_dict({"kind": "BlockedLayout", "size_per_thread": [1], "threads_per_warp": [32],
                   "warps_per_cta": [4], "order": [0], "bogus": 1})
    with pytest.raises(LayoutError):
        from_dict([1, 2])


# ------------------------------------------------------------------------------ remembered answers
def test_to_linear_remembers_per_layout_and_shape():
    from converters.gluon.base import clear_to_linear_caches

    b = gluon.parse("BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])")
    first = b.to_linear([64, 64])
    assert b.to_linear((64, 64)) is first  # any sequence of the same ints
    assert gluon.parse(str(b)).to_linear([64, 64]) is first  # equal layouts share the answer
    assert b.to_linear([32, 64]) is not first
    clear_to_linear_caches()
    again = b.to_linear([64, 64])
    assert again == first and again is not first


def test_errors_are_not_remembered():
    b = gluon.parse("BlockedLayout([1], [32], [4], [0])")
    for _ in range(2):
        with pytest.raises(SizeError, match="power of two"):
            b.to_linear([48])
    with pytest.raises(LayoutError, match="shape"):
        b.to_linear([[1, 2]])  # an unhashable shape is computed (and refused) afresh


def test_shared_layouts_are_immutable_values():
    s = gluon.parse("NVMMASharedLayout(128, 16)")
    with pytest.raises(AttributeError, match="cannot assign to field"):  # frozen dataclasses, like the distributed ones
        s.swizzle_byte_width = 64
    assert hash(s) == hash(gluon.parse("NVMMASharedLayout(128, 16)"))
