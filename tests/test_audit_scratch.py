"""Scratch shared memory of reductions and scans (linlayout.app.audit_scratch) against Triton 3.9
compiling each op alone (tests/oracles/triton-3.9-ir/scratch.jsonl, make_scratch.py)."""

from __future__ import annotations

import json

import pytest

from conftest import ORACLES
from converters.mlir import parse_type
from converters.mlir.module import parse_module
from linlayout.app.audit import audit
from linlayout.app.audit_scratch import reduce_scratch_bytes, region_ops, scan_scratch_bytes
from linlayout.errors import LayoutError

ROWS = [json.loads(l) for l in open(ORACLES / "triton-3.9-ir" / "scratch.jsonl")]


def test_oracle_covers_the_corpus_and_more():
    assert not any("error" in r for r in ROWS)
    assert {r["op"] for r in ROWS} == {"tt.reduce", "tt.scan"}
    assert sum(r["source"] == "extra" for r in ROWS) >= 10
    assert {r["target"] for r in ROWS} == {"cuda:80", "cuda:90", "cuda:100", "hip:gfx942"}
    assert len({r["shared_bytes"] for r in ROWS}) >= 8  # not all one size


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['source']}:{r['op']}:{r['axis']}")
def test_scratch_matches_triton(row):
    inputs = [parse_type(t) for t in row["inputs"]]
    f = reduce_scratch_bytes if row["op"] == "tt.reduce" else scan_scratch_bytes
    assert f(inputs, row["axis"]) == row["shared_bytes"]


def test_region_ops_read_every_reduce_and_scan():
    """Every corpus row's op is found at its line with its operand types."""
    for row in ROWS:
        if row["source"] == "extra":
            continue
        file, line = row["source"].rsplit(":", 1)
        m = parse_module((ORACLES / "triton-3.9-ir" / file).read_text())
        ops = {r.line: r for r in region_ops(m)}
        r = ops[int(line)]
        assert (r.op, r.axis, [str(t) for t in r.inputs]) == (row["op"], row["axis"], row["inputs"])


def test_report_lists_reductions_and_their_scratch():
    r = audit((ORACLES / "triton-3.9-ir" / "ir" / "softmax_b4096_w8.sm_90.ttgir").read_text())
    assert [(x.op, x.shared_bytes) for x in r.regions] == [("tt.reduce", 32), ("tt.reduce", 32)]
    assert r.scratch_peak_bytes == 32 and r.shared_total_status == "exact"
    text = r.format()
    assert "tt.reduce axis 0 of 4096 (1 operand(s)): scratch 32 B" in text
    d = json.loads(r.to_json())
    assert d["totals"]["scratch_by_op"] == [{"line": 29, "op": "tt.reduce", "bytes": 32}, {"line": 41, "op": "tt.reduce", "bytes": 32}]
    assert d["reductions"][0]["why"].startswith("partial results of the warps")


def test_unclosed_region_is_a_layout_error():
    text = (ORACLES / "triton-3.9-ir" / "ir" / "softmax_b4096_w8.sm_90.ttgir").read_text()
    lines = text.splitlines()
    i = next(k for k, l in enumerate(lines) if '"tt.reduce"' in l)
    m = parse_module("\n".join(lines[: i + 1]))
    with pytest.raises(LayoutError, match="region is not closed"):
        region_ops(m)
