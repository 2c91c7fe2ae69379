"""pycute objects in and out (converters.cute.interop), against pycute itself when installed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from converters import cute
from converters.cute.interop import from_pycute, pycute_available, to_pycute
from linlayout.errors import LayoutError, UnsupportedError

ROWS = [json.loads(line) for line in open(Path(__file__).parent / "oracles" / "pycute" / "algebra.jsonl")]


@pytest.mark.reference
def test_round_trips_through_pycute_and_evaluates_alike():
    pc = pytest.importorskip("pycute")
    n = 0
    for r in ROWS[:300]:
        for text in r["args"] + ([r["result"]] if "result" in r else []):
            if not isinstance(text, str):  # a cotarget
                continue
            ours = cute.parse(text)
            if not isinstance(ours, (cute.Layout, cute.ComposedLayout)):
                continue
            theirs = to_pycute(ours)
            assert from_pycute(theirs) == ours
            size = ours.size()
            if size <= 256:
                assert [theirs(i) for i in range(size)] == [ours(i) for i in range(size)], text
            n += 1
    sw = pc.ComposedLayout(pc.Swizzle(3, 4, 3), 0, pc.Layout((8, 64), (64, 1)))
    assert str(from_pycute(sw)) == "S<3,4,3> o 0 o (8,64):(64,1)"
    assert n > 300


def test_without_pycute_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pycute", None)
    assert not pycute_available()
    with pytest.raises(UnsupportedError, match="pip install --no-deps nvidia-cutlass"):
        to_pycute(cute.parse("(4,8):(8,1)"))


@pytest.mark.reference
def test_foreign_objects_are_refused():
    pytest.importorskip("pycute")
    with pytest.raises(LayoutError, match="expected a pycute"):
        from_pycute("(4,8):(8,1)")
    with pytest.raises(LayoutError, match="expected a converters.cute"):
        to_pycute("(4,8):(8,1)")
