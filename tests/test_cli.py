"""The `linlayout` command, driven as a user would: subprocesses, exit codes, stdout/stderr."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from linlayout.app import cli

BLOCKED = "BlockedLayout([2,4],[16,2],[2,2],[1,0])"


def run(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "linlayout", *args], capture_output=True, text=True, timeout=120, input=input)


def test_help_lists_commands_and_examples():
    r = run("--help")
    assert r.returncode == 0
    for cmd in ("show", "convert", "equiv", "plan", "banks", "swizzle", "tour", "examples:"):
        assert cmd in r.stdout
    r = run("equiv", "--help")
    assert r.returncode == 0 and "exit 0 yes, 1 no" in r.stdout and "examples:" in r.stdout


def test_show_gluon_blocked():
    r = run("show", BLOCKED, "--shape", "64,16")
    assert r.returncode == 0, r.stderr
    assert "form: gluon" in r.stdout
    assert "lane      [32]: (0,4) (2,0) (4,0) (8,0) (16,0)" in r.stdout
    assert "T0:0" in r.stdout and "T33:7" in r.stdout


def test_show_json_and_hardware_view():
    r = run("show", BLOCKED, "--shape", "64,16", "--json")
    d = json.loads(r.stdout)
    assert d["form"] == "gluon" and d["linear"]["out_dims"] == [["dim0", 64], ["dim1", 16]]
    r = run("show", BLOCKED, "--shape", "64,16", "--style", "hardware")
    assert r.returncode == 0 and "R7" in r.stdout and "T127" in r.stdout


def test_show_writes_svg(tmp_path):
    out = tmp_path / "l.svg"
    r = run("show", "local(2,1).spatial(8,4).local(1,2)", "--style", "tilus", "--svg", str(out))
    assert r.returncode == 0, r.stderr
    assert "form: tilus" in r.stdout and " 0: 0" in r.stdout
    assert out.read_text().startswith("<svg")


def test_show_non_power_of_two_tile():
    r = run("show", "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]", "--shape", "2,128,112")
    assert r.returncode == 0, r.stderr
    assert "not GF(2)-linear" in r.stdout and "power-of-two pieces" in r.stdout


def test_layout_from_file(tmp_path):
    f = tmp_path / "lay.json"
    f.write_text(json.dumps({"bases": [["lane", [[1], [2]]]], "out_dims": [["dim0", 4]]}))
    r = run("show", f"@{f}")
    assert r.returncode == 0 and "form: linear" in r.stdout and "T3:0" in r.stdout


@pytest.mark.parametrize(
    "src,to,expect",
    [
        ("(4,8):(8,1)", "tile", "S[(4,8):(8,1)]"),
        ("(4,8):(8,1)", "json", '"out_dims": [["dim0", 4], ["dim1", 8]]'),
        ("local(2,1).spatial(8,4).local(1,2)", "tile", "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"),
        ("local(2,1).spatial(8,4).local(1,2)", "linear", "register=1 -> (0, 1)"),
        ("S[(4,8):(8,1)]", "cute", "(4,8):(8,1)"),
    ],
)
def test_convert(src, to, expect):
    r = run("convert", src, "--to", to, "--shape", "4,8") if src.startswith("S[") else run("convert", src, "--to", to)
    assert r.returncode == 0, r.stderr
    assert expect in r.stdout


def test_convert_gluon_round_trip():
    r = run("convert", "BlockedLayout([1],[32],[4],[0])", "--shape", "128", "--to", "gluon")
    assert r.returncode == 0, r.stderr
    first = r.stdout.strip().splitlines()[0]
    r2 = run("equiv", "BlockedLayout([1],[32],[4],[0])", first, "--shape", "128")
    assert r2.returncode == 0, (first, r2.stdout, r2.stderr)


def test_equiv_exit_codes():
    same = run("equiv", "BlockedLayout([1],[32],[4],[0])", "SliceLayout(1, BlockedLayout([1,1],[32,1],[4,1],[1,0]))", "--shape", "128")
    assert same.returncode == 0, same.stderr
    assert "EQUIVALENT" in same.stdout
    diff = run("equiv", "BlockedLayout([1],[32],[4],[0])", "BlockedLayout([2],[32],[4],[0])", "--shape", "256", "--json")
    assert diff.returncode == 1, diff.stderr
    assert json.loads(diff.stdout)["equivalent"] is False
    # the same CuTe layout in two spellings
    assert run("equiv", "(4,8):(8,1)", "S[(4,8):(8,1)]", "--shape", "4,8").returncode == 0
    assert run("equiv", "(4,8):(8,1)", "S[(4,8):(1,4)]", "--shape", "4,8").returncode == 1


def test_plan():
    r = run("plan", "BlockedLayout([1,1],[1,32],[1,4],[1,0])", "BlockedLayout([1,1],[32,1],[4,1],[0,1])", "--shape", "128,128", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["kind"] == "shared_memory"
    r = run("plan", BLOCKED, BLOCKED, "--shape", "64,16", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["is_zero_cost"] is True


def test_swizzle_and_banks():
    r = run("swizzle", "128B", "--bitwidth", "16", "--json")
    d = json.loads(r.stdout)
    assert d["swizzle"] == [3, 3, 3]
    assert d["banks_plain"] == [0] and d["banks_swizzled"] == list(range(0, 32, 4))
    r = run("banks", "(8,64):(64,1)", "--bitwidth", "16", "--column", "0")
    assert r.returncode == 0, r.stderr
    assert "8-way conflict" in r.stdout
    r = run("banks", "S<3,3,3> o 0 o (8,64):(64,1)", "--bitwidth", "16", "--column", "0")
    assert r.returncode == 0 and "conflict-free" in r.stdout


def test_space_command_reports_classes():
    r = run("space", "--shape", "128,128", "--warps", "4", "--json", "--progress")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["spellings"] == 2304 and d["classes"] == 1848


def test_tour_touches_every_area():
    r = run("tour")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    for title in ("Gluon blocked", "equivalence", "conversion plan", "swizzle", "CuTe", "224-column", "tensor memory"):
        assert title in out
    assert "skipped" not in out  # every backend the tour uses ships with the core install
    assert "on [128]: equivalent" in out
    assert "conflict-free" in out and "TCol 223" in out
    assert "BlockedLayout([1, 128], [32, 1], [4, 1], [0, 1]): yes (identical)" in out


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["show", "(4,8"], "position"),
        (["show", "BlockedLayout([1],[32],[4],[0])"], "--shape"),
        (["show", "hello world"], "cannot tell the layout's form"),
        (["show", "@/nonexistent/file.json"], "cannot read"),
        (["show", "(4,8):(8,1)", "--form", "tile"], "expected"),
        (["convert", "(4,8):(8,1)", "--to", "klingon"], "invalid choice"),
        (["equiv", "(4,8):(8,1)"], "required"),
        (["show", BLOCKED, "--shape", "64,abc"], "--shape"),
        (["swizzle", "S<3,4,1>"], "requires |S| >= B"),
        (["bogus"], "invalid choice"),
        (["show", "{not json"], "JSON"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, fragment):
    r = run(*args)
    assert r.returncode == 2, (args, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("linlayout: error:") and fragment in lines[0], lines[0]
    assert "Traceback" not in r.stderr


def test_main_in_process(capsys):
    assert cli.main(["convert", "(4,8):(8,1)", "--to", "tile"]) == 0
    assert "S[(4,8):(8,1)]" in capsys.readouterr().out
    assert cli.main(["show", "nonsense text"]) == 2
    assert cli.parse_shape("8x64") == [8, 64]


def test_console_script_installed():
    import shutil

    exe = shutil.which("linlayout")
    if exe is None:
        pytest.skip("the console script is not on PATH (package not installed)")
    r = subprocess.run([exe, "convert", "(2,2):(1,2)", "--to", "json"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "out_dims" in r.stdout
