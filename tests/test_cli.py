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


# ------------------------------------------------------------ what a new user meets (issue 18)

from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def run_without(module: str, tmp_path, *args: str) -> subprocess.CompletedProcess:
    """Run the command as a user would, in an environment where ``module`` is not installed (a
    sitecustomize that makes importing it fail exactly as a missing package does)."""
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(f"import sys\nsys.modules[{module!r}] = None\n")
    import os

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    return subprocess.run([sys.executable, "-m", "linlayout", *args], capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)


def test_png_without_matplotlib_says_what_to_install(tmp_path):
    r = run_without("matplotlib", tmp_path, "show", BLOCKED, "--shape", "64,16", "--png", str(tmp_path / "x.png"))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.strip().count("\n") == 0 and "Traceback" not in r.stderr
    assert "pip install 'linlayout[draw]'" in r.stderr and not (tmp_path / "x.png").exists()
    r = run_without("matplotlib", tmp_path, "show", BLOCKED, "--shape", "64,16", "--png", str(tmp_path / "x.png"), "--json")
    assert json.loads(r.stdout)["error"]["type"] == "UnsupportedError"
    # an SVG needs nothing
    r = run_without("matplotlib", tmp_path, "show", BLOCKED, "--shape", "64,16", "--svg", str(tmp_path / "x.svg"))
    assert r.returncode == 0 and (tmp_path / "x.svg").read_text().startswith("<svg")
    # and in Python: draw.draw() raises the same one-line error
    code = ("import sys; sys.modules['matplotlib'] = None\nfrom linlayout import draw, LinearLayout, LayoutError\n"
            "try:\n    draw.draw(LinearLayout.identity_1d(4, 'lane', 'dim0'))\nexcept LayoutError as e:\n    print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert "pip install 'linlayout[draw]'" in r.stdout, r.stderr


def test_progress_without_tqdm_says_what_to_install(tmp_path):
    r = run_without("tqdm", tmp_path, "space", "--shape", "32", "--warps", "1", "--serial", "--progress")
    assert r.returncode == 0, r.stderr
    assert "linlayout[progress]" in r.stderr and "distinct layouts" in r.stdout


def test_progress_bar_has_rate_and_time_left():
    pytest.importorskip("tqdm")
    r = run("space", "--shape", "64", "--warps", "2", "--serial", "--progress")
    assert r.returncode == 0, r.stderr
    assert "it/s" in r.stderr or "item/s" in r.stderr
    assert "<" in r.stderr  # tqdm's [elapsed<remaining]


def test_dash_reads_standard_input():
    r = run("show", "-", input="(4,8):(8,1)\n")
    assert r.returncode == 0 and "form: cute" in r.stdout, r.stderr
    r = run("equiv", "-", "S[(4,8):(8,1)]", "--shape", "4,8", input="(4,8):(8,1)")
    assert r.returncode == 0, r.stderr


def test_internal_error_exits_3_and_asks_for_a_report():
    code = ("import sys\nfrom linlayout.app import cli, commands\n"
            "def broken(args):\n    raise KeyError('oops')\n"
            "commands.cmd_show = broken\nsys.exit(cli.main(['show', '(4,8):(8,1)', '--json']))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 3, (r.stdout, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1 and "bug in linlayout" in r.stderr and "report" in r.stderr
    assert json.loads(r.stdout)["error"]["type"] == "InternalError"


def test_did_you_mean():
    r = run("shwo", "(4,8):(8,1)")
    assert r.returncode == 2 and "did you mean 'show'?" in r.stderr
    r = run("show", "BlockLayout([1],[32],[4],[0])", "--shape", "128")
    assert r.returncode == 2 and "did you mean BlockedLayout?" in r.stderr


def test_every_option_has_help():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, sp in sub.choices.items():
        for action in sp._actions:
            assert action.help, f"linlayout {name} {action.option_strings or action.dest} has no help text"
        r = run(name, "--help")
        assert r.returncode == 0 and "examples:" in r.stdout


def test_help_example_for_224_columns_computes_the_pieces():
    r = run("show", "--help")
    line = next(x for x in r.stdout.splitlines() if "224" in x)
    text = line.split('"')[1]
    r = run("show", text)
    assert r.returncode == 0, r.stderr
    pieces = [x for x in r.stdout.splitlines() if x.startswith("  from ")]
    assert [p.split("size")[1].split("offset")[0].strip() for p in pieces] == [
        "(row=128, col=128)", "(row=128, col=64)", "(row=128, col=32)"]  # hardware -> coordinates: pieces of columns
    assert len(r.stdout.splitlines()) < 30


def test_outputs_explain_their_notation():
    r = run("show", BLOCKED, "--shape", "64,16")
    assert "cell = T<thread>:<register>" in r.stdout and "thread = lane + 32 * warp" in r.stdout
    r = run("show", BLOCKED, "--shape", "64,16", "--style", "hardware")
    assert "row T<t> = thread t" in r.stdout
    r = run("banks", "(8,64):(64,1)", "--bitwidth", "16", "--column", "0")
    assert "+ = more elements share the word" in r.stdout and "* = read by the access" in r.stdout
    marked = [line.split()[0] for line in r.stdout.splitlines() if line.startswith("L") and "*" in line]
    assert marked == [f"L{i}" for i in range(8)]  # --column marks the cells, not only the title
    r = run("banks", "(8,64):(64,1)", "--bitwidth", "16", "--row", "1")
    assert [line.split()[0] for line in r.stdout.splitlines() if line.startswith("L") and "*" in line] == ["L1"]
    r = run("equiv", "BlockedLayout([1],[32],[4],[0])", "BlockedLayout([1],[16],[4],[0])", "--shape", "128")
    assert "at input (lane=16) the first layout gives (dim0=16), the second nothing" in r.stdout
    r = run("show", "S<3,4,3>")
    assert r.returncode == 0 and max(len(x) for x in r.stdout.splitlines()) < 300  # folded into rows of 32


def test_one_default_bitwidth():
    import linlayout

    r = run("plan", "BlockedLayout([1,1],[1,32],[1,4],[1,0])", "BlockedLayout([1,1],[32,1],[4,1],[0,1])", "--shape", "128,128", "--json")
    from converters import gluon

    py = linlayout.plan_conversion(gluon.parse("BlockedLayout([1,1],[1,32],[1,4],[1,0])"),
                                   gluon.parse("BlockedLayout([1,1],[32,1],[4,1],[0,1])"), shape=[128, 128])
    d = json.loads(r.stdout)
    assert d["bitwidth"] == py.bitwidth == cli.DEFAULT_BITWIDTH and d["cost"] == py.cost
    r = run("plan", "BlockedLayout([1,1],[1,32],[1,4],[1,0])", "BlockedLayout([1,1],[32,1],[4,1],[0,1])", "--shape", "128,128",
            "--bitwidth", "bf16", "--json")
    assert json.loads(r.stdout)["bitwidth"] == 16


@pytest.mark.parametrize("shape,dtype,major,swizzle,atom", [
    ("128,64", "fp16", "K", 128, [8, 64]),
    ("128,32", "fp16", "K", 64, [8, 32]),
    ("64,128", "fp8", "MN", 64, [64, 8]),
])
def test_atom_command(shape, dtype, major, swizzle, atom):
    from linlayout.smem_atoms import select_atom

    r = run("atom", "--shape", shape, "--dtype", dtype, "--major", major, "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    expect = select_atom([int(x) for x in shape.split(",")], dtype, major=major)
    assert d["swizzle_bytes"] == expect.swizzle_bytes == swizzle and d["atom_shape"] == list(expect.shape) == atom
    assert d["ways"] == 1 and d["ways_unswizzled"] > 1  # the swizzle removes the conflict of the 8-row read
    text = run("atom", "--shape", shape, "--dtype", dtype, "--major", major).stdout
    assert f"{swizzle}B swizzle" in text and "conflict-free" in text and "* = read by the access" in text


def test_readme_reading_the_output_is_what_the_commands_print():
    """The README's "Reading the output" shows each notation once; every sample line's cells are
    what the command really prints."""
    import re
    import shlex

    text = (ROOT / "README.md").read_text()
    section = text.split("### Reading the output", 1)[1].split("\n## ", 1)[0]
    for notation in ("T5:1", "a|b", "+n", "R0", "L1", "* = read by the", "N-way conflict", "counterexample", "from (", "1,2+ = ",
                     "* = a zero-cost"):
        assert section.count(notation) == 1, notation
    block = section.split("```text", 1)[1].split("```", 1)[0]
    commands = re.split(r"^\$ ", block, flags=re.M)[1:]
    assert len(commands) == 7
    cell = re.compile(r"T\d+:\d+(?:\|T\d+:\d+)*|\*?\d+,\d+\+?|\(\w+=\d+(?:, \w+=\d+)*\)|\(\d+,\d+\)")
    for chunk in commands:
        head, *sample = chunk.splitlines()
        argv = shlex.split(head)[1:]
        if argv[0] == "audit":
            argv[1] = str(ROOT / "tests" / "oracles" / "triton-3.9-ir" / "ir" / "matmul_128x128x64_fp16.sm_80.ttgir")
        r = run(*argv)
        assert r.returncode in (0, 1), (argv, r.stderr)
        for line in sample:
            shown = line[:50]  # the sample; its explanation starts at column 51
            for token in cell.findall(shown):
                assert token in r.stdout, (argv, token, line)


@pytest.mark.parametrize(
    "args,message",
    [
        (["BlockedLayout([1,1],[1,32],[1,4],[1,0])", "BlockedLayout([1,1],[32,1],[2,1],[0,1])", "--shape", "128,128"],
         "src has 4 warps per CTA ('warp'), dst has 2"),
        (["BlockedLayout([1],[32],[4],[0])", "BlockedLayout([2],[32],[4],[0])", "--shape", str(2**40)],
         "registers per thread; plan_conversion accepts at most"),
    ],
)
def test_plan_refusals_are_one_line_exit_2_and_quick(args, message):
    """Pairs on different hardware and sizes past the cap are refused before any work."""
    import time

    t = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "linlayout", "plan", *args], capture_output=True, text=True, timeout=60)
    took = time.monotonic() - t
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and message in r.stderr, r.stderr
    assert took < 20, f"the refusal took {took:.1f} s"  # a generous bound: Python start-up on a loaded machine


def test_an_unwritable_picture_path_is_bad_input():
    r = run("show", "BlockedLayout([1],[32],[4],[0])", "--shape", "128", "--svg", "/no/such/dir/x.svg")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "/no/such/dir/x.svg" in r.stderr, r.stderr


@pytest.mark.parametrize(
    "text,message",
    [
        ("BlockedLayout([1],[32],[4])", "BlockedLayout: missing the argument(s) order; BlockedLayout takes"),
        ('{"kind":"SwizzledSharedLayout","max_phase":2,"order":[],"vec":4}', "missing the field(s) per_phase"),
    ],
)
def test_a_missing_field_is_named_without_python_internals(text, message):
    r = run("show", text, "--shape", "128")
    assert r.returncode == 2 and message in r.stderr and "__init__" not in r.stderr, r.stderr
