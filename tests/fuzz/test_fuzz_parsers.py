"""The fuzz suite, small budget (the whole directory runs in well under a minute).

For every text parser and dict form: hypothesis drives the grammar generators and the corpus
mutator of :mod:`fuzz_targets` and asserts the contract — a value or a LayoutError, never another
exception or a hang — and the round-trip laws on every value returned.  The larger on-demand
budget (100,000 inputs per parser, with a memory cap per input) is ``python tests/fuzz/run.py``.

The time limit here is a hang detector (a generous hard limit per input), not a speed target;
speed is measured by the driver, which reports every input over the 2 s bound.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_targets import TARGETS, Target, check, huge, mutate, one_input

ASSERTED = [name for name, t in TARGETS.items() if not t.informational]
HANG = 20.0


def _assert_contract(target: Target, text: str) -> None:
    res = check(target, text, hard_limit=HANG)
    assert res.outcome in ("ok", "refused"), f"{target.name}: {res.outcome} {res.detail} on {text[:300]!r}"


@pytest.mark.parametrize("name", ASSERTED)
@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(rnd=st.randoms(use_true_random=False))
def test_fuzz_contract(name: str, rnd: random.Random) -> None:
    target = TARGETS[name]
    _assert_contract(target, one_input(rnd, target))


@pytest.mark.parametrize("name", ASSERTED)
def test_corpus_parses_and_round_trips(name: str) -> None:
    """Corpus texts (real layouts from the oracles) meet the contract, nearly all are read, and
    what is read round-trips."""
    target = TARGETS[name]
    corpus = target.corpus()
    assert corpus, f"{name}: empty corpus"
    sample = corpus[:: max(1, len(corpus) // 60)]
    outcomes = [check(target, text, hard_limit=HANG) for text in sample]
    for text, res in zip(sample, outcomes):
        assert res.outcome in ("ok", "refused"), f"{name}: {res.outcome} {res.detail} on {text[:300]!r}"
    assert sum(res.outcome == "ok" for res in outcomes) >= 0.9 * len(sample)


@pytest.mark.parametrize("name", ASSERTED)
def test_megabyte_input(name: str) -> None:
    """An input at the length limit is answered (the parsers are linear in the input length)."""
    target = TARGETS[name]
    _assert_contract(target, huge(random.Random(name), target))


def test_mutation_changes_text() -> None:
    """The mutator is not a no-op (else the suite would test only the corpus)."""
    r = random.Random(0)
    text = "BlockedLayout([1], [32], [4], [0])"
    assert sum(mutate(r, text) != text for _ in range(50)) > 40
