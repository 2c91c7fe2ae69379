"""Shared test helpers: oracle loading and hypothesis strategies for linear layouts."""

from __future__ import annotations

import importlib.util
import json
import os
from types import ModuleType
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ORACLES = Path(__file__).parent / "oracles"

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None)
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


@pytest.fixture(scope="session")
def oracle():
    return load_oracle
