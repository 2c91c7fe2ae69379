"""linlayout.app.audit on conversions in a CTA cluster, against Triton 3.9's scratch for them
(tests/oracles/triton-3.9-ir/cvt_cluster.jsonl: seeded random blocked / MMA layouts with random CGA
layouts over 2 and 4 CTAs, f16 / f32, sm_90 and sm_100, each alone in make_cvt_ptx.py's module)."""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import load_oracle, oracle_generator
from linlayout.app.audit import audit

ROWS = load_oracle("triton-3.9-ir/cvt_cluster.jsonl")
GEN = oracle_generator("triton-3.9-ir/make_cvt_ptx.py")
#: where the audit's figure is only an estimate: the rows (of each class) where it is Triton's
#: (measured on the corpus; a change that loses one fails, one that gains says to raise it)
AGREE = {"across CTAs": (198, 235), "CGA layouts differ": (74, 77)}


@pytest.fixture(scope="module")
def audited():
    return [(row, audit(GEN.module_text(row))) for row in ROWS]


def test_corpus_is_whole():
    assert len(ROWS) == 400 and not any("error" in r for r in ROWS)
    assert Counter(r["num_ctas"] for r in ROWS).keys() == {2, 4}
    assert Counter(r["target"] for r in ROWS).keys() == {"cuda:90", "cuda:100"}
    assert any("nvidia_mma" in r["src"] for r in ROWS) and any("blocked" in r["dst"] for r in ROWS)


def test_cluster_conversions_against_triton(audited):
    """Whether Triton allocates shared memory at all is whether our Triton plan is a round trip
    (400/400).  Inside CTAs that split the tensor alike the audit's total is exact and is Triton's
    ``metadata.shared`` (and the report says exact); across CTAs, or inside CTAs that split it
    differently, the report says incomplete and names the op's class, and its estimate is Triton's
    figure in the measured number of rows (:data:`AGREE`) -- not in all of them, else the marker
    would be owed no more."""
    agree, total = Counter(), Counter()
    for row, r in audited:
        where = f"line {row['line']}: {row['src']} -> {row['dst']} {row['shape']} {row['dtype']} {row['target']}"
        c = r.conversions[0]
        assert (row["shared_bytes"] > 0) == (c.triton_kind in ("shared_memory", "cross_cta")), where
        est = c.counts["triton"]["estimate"]
        if est is None:
            assert r.shared_total_status == "exact" and not r.uncounted, where
            assert r.shared_total_bytes == row["shared_bytes"], f"{where}: ours {r.shared_total_bytes}, Triton {row['shared_bytes']}"
            total["exact"] += 1
            continue
        assert r.shared_total_status == "incomplete" and r.uncounted == {est: 1}, where
        cls = next(k for k in AGREE if k in est)
        assert (cls == "across CTAs") == (c.triton_kind == "cross_cta"), where
        total[cls] += 1
        agree[cls] += r.shared_total_bytes == row["shared_bytes"]
    assert total["exact"] == 88, total
    for cls, (n, of) in AGREE.items():
        assert (agree[cls], total[cls]) == (n, of), (cls, agree[cls], total[cls])
