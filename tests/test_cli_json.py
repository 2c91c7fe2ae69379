"""Every command's ``--json`` output parses and has its documented keys (``commands.JSON_KEYS``),
for good input and for bad input (``{"error": {...}}`` with exit status 2), run as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from linlayout.app.commands import ERROR_KEYS, GRID_KEYS, JSON_KEYS

ROOT = Path(__file__).resolve().parents[1]
IR = ROOT / "tests" / "oracles" / "triton-3.9-ir" / "ir" / "matmul_128x128x64_fp16.sm_80.ttgir"
BLOCKED = "BlockedLayout([1],[32],[4],[0])"


def run(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "linlayout", *args], capture_output=True, text=True, timeout=300,
                          input=input, cwd=ROOT)


GOOD = {
    "show": ["show", "BlockedLayout([2,4],[16,2],[2,2],[1,0])", "--shape", "64,16"],
    "convert": ["convert", "(4,8):(8,1)", "--to", "tile"],
    "equiv": ["equiv", BLOCKED, "SliceLayout(1, BlockedLayout([1,1],[32,1],[4,1],[1,0]))", "--shape", "128"],
    "plan": ["plan", "BlockedLayout([1,1],[1,32],[1,4],[1,0])", "BlockedLayout([1,1],[32,1],[4,1],[0,1])", "--shape", "128,128"],
    "banks": ["banks", "(8,64):(64,1)", "--bitwidth", "16", "--column", "0"],
    "swizzle": ["swizzle", "128B", "--bitwidth", "16"],
    "atom": ["atom", "--shape", "128,64", "--dtype", "fp16"],
    "space": ["space", "--shape", "32", "--warps", "1", "--serial"],
    "audit": ["audit", str(IR)],
    "tour": ["tour"],
}

BAD = {
    "show": ["show", "BlockedLayout([1],[32],[4],[0])"],  # a Gluon layout needs --shape
    "convert": ["convert", "(4,8):(8,1", "--to", "tile"],  # unbalanced parenthesis
    "equiv": ["equiv", BLOCKED, "no layout at all", "--shape", "128"],
    "plan": ["plan", BLOCKED, "BlockedLayout([1],[32],[4],[0])", "--shape", "128", "--bitwidth", "fp13"],
    "banks": ["banks", "(8,64):(64,1)", "--column", "99"],
    "swizzle": ["swizzle", "96B"],
    "atom": ["atom", "--shape", "100,64", "--dtype", "fp16"],
    "space": ["space", "--warps", "4"],  # no --shape
    "audit": ["audit", str(ROOT / "no-such-kernel.ttgir")],
    "tour": ["tour", "--no-such-option"],
}


def test_every_command_is_covered():
    assert set(GOOD) == set(BAD) == set(JSON_KEYS)


@pytest.mark.parametrize("command", sorted(GOOD))
def test_json_success_has_documented_keys(command):
    r = run(*GOOD[command], "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert isinstance(d, dict) and "error" not in d
    missing = [k for k in JSON_KEYS[command] if k not in d]
    assert not missing, f"{command} --json lacks {missing}: {sorted(d)}"
    if "grid" in d:
        assert set(GRID_KEYS) <= set(d["grid"]) and isinstance(d["grid"]["cells"], list)


@pytest.mark.parametrize("command", sorted(BAD))
def test_json_error_is_structured(command):
    r = run(*BAD[command], "--json")
    assert r.returncode == 2, (r.stdout, r.stderr)
    d = json.loads(r.stdout)
    assert set(d) == {"error"} and set(ERROR_KEYS) <= set(d["error"])
    err = d["error"]
    assert err["exit_status"] == 2 and err["command"] == command and err["message"] and err["type"]
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1  # one line for a person too


def test_structured_fields_not_strings():
    """The issue's complaints: a counterexample as a string, a conflict count inside a title."""
    d = json.loads(run("equiv", BLOCKED, "BlockedLayout([1],[16],[4],[0])", "--shape", "128", "--json").stdout)
    cex = d["counterexample"]
    assert d["equivalent"] is False and cex["input"] == {"lane": 16} and cex["first"] == {"dim0": 16} and cex["second"] is None
    d = json.loads(run(*GOOD["banks"], "--json").stdout)
    assert d["ways"] == 8 and d["banks"] == [0]
    assert d["grid"]["highlighted"] == [[r, 0] for r in range(8)]
    d = json.loads(run("banks", "S<3,3,3> o 0 o (8,64):(64,1)", "--bitwidth", "16", "--column", "0", "--json").stdout)
    assert d["ways"] == 1 and d["banks"] == list(range(0, 32, 4))
