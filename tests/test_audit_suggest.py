"""Equivalent cheaper layouts (linlayout.app.audit_suggest) on the Triton 3.9 IR corpus: every claim
checked against an independent computation or Triton's own lowering (suggest_ptx.jsonl)."""

from __future__ import annotations

import json

import pytest

from conftest import ORACLES
from converters.mlir import parse_type
from converters.mlir.module import parse_module
from linlayout.app.audit import AuditReport, audit
from linlayout.app.audit_suggest import global_store_cost, register_order_variant, shared_cost, users
from linlayout.banks import bank_report
from linlayout.linear import LinearLayout

IR = ORACLES / "triton-3.9-ir" / "ir"
FILES = sorted(IR.glob("*.ttgir"))


@pytest.fixture(scope="module")
def reports() -> dict[str, AuditReport]:
    return {p.name: audit(p.read_text()) for p in FILES}


def _all(reports, kind):
    return [(n, c, s) for n, r in reports.items() for c in r.conversions for s in c.suggestions if s["kind"] == kind]


def _tensor(c, layout):
    return parse_type(f"tensor<{'x'.join(map(str, c.shape))}x{c.dtype}, {layout}>")


def test_spelling_only_for_equal_linear_layouts(reports):
    rows = _all(reports, "spelling")
    assert len(rows) >= 20
    for _, c, s in rows:
        assert c.kind == "noop" and c.src != c.dst and s["cheaper"] is False
        assert _tensor(c, c.src).to_linear() == _tensor(c, c.dst).to_linear()
    # a conversion between different linear layouts never gets a spelling suggestion
    assert all(c.kind == "noop" for _, c, _ in rows)


def test_register_order_keeps_ownership_and_triton_confirms(reports):
    """Same elements per thread/lane/warp/CTA as the requested destination; Triton 3.9's PTX for
    source -> suggested (suggest_ptx.jsonl) has the loads, barriers and scratch the suggestion
    claims, and fewer loads or barriers than its PTX for the IR's own conversion (cvt_ptx.jsonl)."""
    rows = _all(reports, "register_order")
    ptx = {(r["file"], r["line"]): r for r in map(json.loads, open(ORACLES / "triton-3.9-ir" / "suggest_ptx.jsonl"))}
    own = {(r["file"], r["line"]): r for r in map(json.loads, open(ORACLES / "triton-3.9-ir" / "cvt_ptx.jsonl"))}
    assert rows and len(ptx) == len(rows)
    for name, c, s in rows:
        d, v = _tensor(c, c.dst).to_linear(), _tensor(c, s["layout"]).to_linear()
        assert v != d
        for dim in ("lane", "warp", "block"):
            assert v.bases[dim] == d.bases[dim]
        assert sorted(v.bases["register"]) == sorted(d.bases["register"])
        key = (f"ir/{name}", c.line)
        p, o = ptx[key]["ptx_counts"], own[key]["ptx_counts"]
        assert ptx[key]["dst"] == s["layout"] and "error" not in ptx[key]
        assert p["ld_shared"] + p["ldmatrix"] == s["suggested"]["loads"]
        assert p["bar_sync"] == s["suggested"]["barriers"]
        assert ptx[key]["shared_bytes"] == s["suggested"]["shared_bytes"]
        assert (p["ld_shared"] + p["ldmatrix"], p["bar_sync"]) < (o["ld_shared"] + o["ldmatrix"], o["bar_sync"])
        assert s["cheaper"] and c.better_layout is not None


def test_register_order_variant_law():
    s = LinearLayout({"register": [[1], [2]], "lane": [[4], [8]]}, {"dim0": 16})
    d = LinearLayout({"register": [[2], [1]], "lane": [[4], [8]]}, {"dim0": 16})
    assert register_order_variant(s, d) == s
    assert register_order_variant(s, s) is None


def test_shared_layout_suggestions_recomputed(reports):
    """Every shared-layout suggestion: the same layout family (or Triton's round-trip swizzle), and
    its per-access figures recomputed with linlayout.banks (checked against Triton's
    gl.bank_conflicts in test_banks.py) on the suggested layout; fewer wavefronts than now."""
    rows = _all(reports, "shared_layout")
    assert len(rows) >= 10
    for name, c, s in rows:
        assert reports[name].target.startswith("cuda:")  # NVIDIA banks only
        mem_type, reg_type = (c.dst_type, c.src_type) if c.dst_type.startswith("!") else (c.src_type, c.dst_type)
        new = parse_type(mem_type.replace(s["current"]["layout"], s["layout"], 1))
        here = shared_cost(parse_type(reg_type).to_linear(), new.to_linear(), new.bitwidth)
        assert here in s["suggested"]["accesses"]
        assert s["suggested"]["wavefronts"] < s["current"]["wavefronts"]
        assert s["cheaper"] and c.better_layout == s
    # the Gluon round trip: its first load had 3 extra wavefronts per access, none with the suggestion
    r = reports["gluon_smem_roundtrip.sm_90.ttgir"]
    c = next(c for c in r.conversions if c.line == 23)
    s = c.better_layout
    assert s["kind"] == "shared_layout" and s["layout"].startswith("#ttg.swizzled_shared<")
    cur = bank_report(parse_type(c.dst_type).to_linear(), parse_type(c.src_type).to_linear(), 16).conflicts
    new = bank_report(parse_type(c.dst_type).to_linear(), parse_type(c.src_type.replace(c.src, s["layout"])).to_linear(), 16).conflicts
    assert (cur, new) == (3, 0)


def test_no_shared_advice_on_amd(reports):
    for name, r in reports.items():
        if r.target.startswith("hip:"):
            assert not any(s["kind"] == "shared_layout" for c in r.conversions for s in c.suggestions), name


def test_skip_conversion_only_for_any_layout_users(reports):
    rows = _all(reports, "skip_conversion")
    assert len(rows) >= 20
    cheaper = 0
    for name, c, s in rows:
        assert c.op == "ttg.convert_layout" and s["layout"] == c.src
        m = parse_module((IR / name).read_text())
        op = next(o for o in m.ops if o.line == c.line)
        assert {u.name for u in users(m, op.result, op.line)} <= {"tt.store", "ttg.local_alloc", "ttg.local_store"}
        if "store" in s["current"]:
            a, b = s["suggested"]["store"], s["current"]["store"]
            assert a == global_store_cost(_tensor(c, c.src).to_linear(), c.bitwidth, c.shape)
            assert s["cheaper"] == all(a[k] <= b[k] for k in ("sectors_per_warp", "instructions", "line_requests"))
            if not s["cheaper"]:
                assert "buys the coalescing" in s["plan"]
        cheaper += s["cheaper"]
    assert 0 < cheaper < len(rows)


def test_global_store_cost_by_hand():
    # 32 lanes along a 64-element row of f16, 2 registers each, contiguous: one 32-bit vector,
    # 128 contiguous bytes = 4 sectors, 1 line
    L = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
    assert global_store_cost(L, 16, [64]) == {"vector_bits": 32, "instructions": 1, "sectors": 4, "lines": 1,
                                               "sectors_per_warp": 4, "line_requests": 1}
    # the same elements, lanes strided by 2 rows of 64: each lane its own sector
    L2 = LinearLayout({"register": [[0, 1]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]}, {"dim0": 32, "dim1": 2})
    assert global_store_cost(L2, 16, [32, 2])["sectors"] == 4  # 32 lanes x 4 bytes, rows of 4 bytes: contiguous again
    L3 = LinearLayout({"register": [[1, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]]}, {"dim0": 2, "dim1": 32})
    assert global_store_cost(L3, 16, [2, 32]) == {"vector_bits": 16, "instructions": 2, "sectors": 2, "lines": 1,
                                                   "sectors_per_warp": 4, "line_requests": 2}


def test_matrix_instructions_follow_the_target():
    """stmatrix only from sm_90, ldmatrix from sm_75, neither on AMD: the same kernel audited for
    three targets (the planner's ldmatrix=/stmatrix= switches)."""
    text = (IR / "matmul_128x128x64_fp16.sm_90.ttgir").read_text()

    def instrs(target):
        r = audit(text, target=target)
        return {c.counts["triton"][k].split(".")[0] for c in r.conversions if c.op == "ttg.convert_layout"
                for k in ("store_instr", "load_instr") if c.counts["triton"][k]}

    assert "stmatrix" in instrs("cuda:90")
    assert "stmatrix" not in instrs("cuda:80")
    assert not {"stmatrix", "ldmatrix"} & instrs("hip:gfx942")


def test_html_lists_suggestions_and_draws_them(reports):
    r = reports["gluon_smem_roundtrip.sm_90.ttgir"]
    page = r.to_html((IR / "gluon_smem_roundtrip.sm_90.ttgir").read_text())
    assert "<h2>Suggestions (" in page and "equivalent cheaper layout" in page
    assert "suggested (shared_layout) (offsets, colored by bank)" in page
    assert page.count("<svg") >= 3 and "drawn above" in page
    assert "tt.reduce" not in page or "Reductions and scans" in page
