"""Shared test helpers: oracle loading and hypothesis strategies for linear layouts."""

from __future__ import annotations

import importlib.util
import json
import os
import random
from collections.abc import Callable
from types import ModuleType
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

#: The corpora's generator scripts need the reference libraries (triton, CUTLASS); they are run
#: by hand, never collected as tests.
collect_ignore_glob = ["oracles/*"]

ORACLES = Path(__file__).parent / "oracles"

# The test command (and CI) draws the same examples every run (``derandomize``): a red run is
# one anyone can repeat, and main does not turn red by the luck of a draw.  New examples are
# explored on demand: ``HYPOTHESIS_PROFILE=thorough python -m pytest`` (random, 1000 per test);
# a failure it finds becomes an explicit regression test.
settings.register_profile(
    "default", max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def load_oracle(relpath: str) -> list[dict]:
    """The rows of one oracle corpus (JSON Lines) under tests/oracles/."""
    with open(ORACLES / relpath) as f:
        return [json.loads(line) for line in f if line.strip()]


def oracle_generator(relpath: str) -> ModuleType:
    """The script that generated a corpus under tests/oracles/ (for its random cases and worker)."""
    path = ORACLES / relpath
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def assert_rows_match(rows: list[dict], ours: Callable[[dict, list[int]], dict]) -> None:
    """Every oracle row of a generated Gluon corpus: a row Triton refused (``error``) is refused by
    us with a LayoutError, any other gives Triton's ``linear`` through ``ours(layout, shape)``."""
    from linlayout.errors import LayoutError

    for row in rows:
        where = f"{row['layout']} on {row['shape']}"
        if "error" in row:
            with pytest.raises(LayoutError):
                ours(row["layout"], row["shape"])
        else:
            assert ours(row["layout"], row["shape"]) == row["linear"], where


def assert_gluon_round_trips(rows: list[dict]) -> int:
    """Every row's Gluon layout we accept comes back equal through its dict and its text; the
    number of such rows."""
    from converters import gluon
    from linlayout.errors import LayoutError

    n = 0
    for row in rows:
        try:
            lay = gluon.from_dict(row["layout"])
        except LayoutError:
            continue
        assert gluon.from_dict(lay.to_dict()) == lay
        assert gluon.parse(str(lay)) == lay
        n += 1
    return n


def compare_with_live_triton(
    generator: str, ours: Callable, request: Callable, *, count: int, max_refusals: int = 1 << 30,
    draw: str = "random_case",
) -> None:
    """Fresh random cases of a corpus generator (tests/oracles/...; drawn by its function ``draw``):
    ``ours(case)`` (the bases, or a ``LayoutError``) must equal what the generator's Triton worker
    answers for ``request(case)``.
    Triton aborts on some invalid input, so it runs in a subprocess; each refusal may cost a fresh
    one, hence ``max_refusals`` (cases we refuse beyond it are skipped)."""
    from linlayout.errors import LayoutError

    gen = oracle_generator(generator)
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    worker = gen.TritonWorker(gen.WORKER)
    refused = n = 0
    try:
        while n < count:
            case = getattr(gen, draw)(rng)
            try:
                mine = ours(case)
            except LayoutError:
                mine = None
                if refused >= max_refusals:
                    continue
                refused += 1
            theirs = worker.run(*request(case))
            where = f"seed {seed}: {case}"
            if mine is None:
                assert "error" in theirs, f"{where}: we refuse it, Triton gives {theirs}"
            else:
                assert theirs.get("linear") == mine, f"{where}: Triton {theirs}, ours {mine}"
            n += 1
    finally:
        worker.close()


@pytest.fixture(scope="module")
def builder():
    """Triton 3.9's Gluon op builder (its ``to_linear_layout`` is the live oracle); skips
    without triton."""
    pytest.importorskip("triton")
    from triton._C.libtriton import gluon_ir, ir

    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    b._ctx = ctx  # keep the context alive with the builder
    return b


@pytest.fixture(scope="session")
def oracle():
    return load_oracle
