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
@pytest.fixture(scope="module")
def audited():
    return [(row, audit(GEN.module_text(row))) for row in ROWS]


def test_corpus_is_whole():
    assert len(ROWS) == 400 and not any("error" in r for r in ROWS)
    assert Counter(r["num_ctas"] for r in ROWS).keys() == {2, 4}
    assert Counter(r["target"] for r in ROWS).keys() == {"cuda:90", "cuda:100"}
    assert any("nvidia_mma" in r["src"] for r in ROWS) and any("blocked" in r["dst"] for r in ROWS)


def test_cluster_conversions_against_triton(audited):
    """Whether Triton allocates shared memory at all is whether our Triton plan is a round trip,
    and the audit's total is exact and is Triton's ``metadata.shared``: inside CTAs that split the
    tensor alike (88 rows), inside CTAs that split it differently (77: Triton's buffer keeps the
    source's ``block`` bases as an in-dim, its loads are plain ``ld.shared``) and across CTAs (235:
    distributed shared memory; Triton stores with ``stmatrix`` where it fits)."""
    classes = Counter()
    for row, r in audited:
        where = f"line {row['line']}: {row['src']} -> {row['dst']} {row['shape']} {row['dtype']} {row['target']}"
        c = r.conversions[0]
        assert (row["shared_bytes"] > 0) == (c.triton_kind in ("shared_memory", "cross_cta")), where
        assert r.shared_total_status == "exact" and not r.uncounted, where
        assert r.shared_total_bytes == row["shared_bytes"], f"{where}: ours {r.shared_total_bytes}, Triton {row['shared_bytes']}"
        classes[c.triton_kind, row["ptx_counts"]["stmatrix"] > 0] += 1
    # the corpus reaches every class: across CTAs with and without stmatrix, round trips inside CTAs with it
    assert classes["cross_cta", True] and classes["cross_cta", False] and classes["shared_memory", True], classes
