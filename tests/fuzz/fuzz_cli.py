"""The command-line fuzz target: ``linlayout`` subcommands with hostile argv, run in-process
through :func:`linlayout.app.cli.main` (every 50th through a subprocess, as a user runs it).

The contract (issue 20): exit status 0, or 1 only for ``equiv``'s "different", or 2 (bad input)
with one line on standard error; never a traceback.  Exit 3 (an internal error: a bug) is
reported as a foreign failure, as is any other status, an exception escaping ``main``, a
multi-line error, or an invocation past the time bound.

Layouts come from the parsers' corpora and mutations of them (:mod:`fuzz_targets`); options get
extreme numbers, malformed shapes, unknown choices; files are binary, empty, over the size
limit, ``/dev/zero``, a directory, missing; output paths are unwritable.

    >>> res = check_argv(Invocation(["convert", "(4,8):(8,1)", "--to", "tile"]))
    >>> res.outcome
    'ok'
    >>> check_argv(Invocation(["banks", "(8,64):(64,1)", "--column", "4294967296"])).outcome
    'refused'
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from fuzz_targets import TARGETS, Hang, Result, _alarm, mutate

ROOT = Path(__file__).resolve().parents[2]
IR = ROOT / "tests" / "oracles" / "triton-3.9-ir" / "ir"

#: Every how many invocations one runs in a subprocess.
SUBPROCESS_EVERY = 50


@dataclass
class Invocation:
    """``linlayout *argv`` with ``stdin`` as its standard input."""

    argv: list[str]
    stdin: bytes = b""
    subprocess: bool = False
    notes: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        shown = " ".join(repr(a) if len(a) <= 60 else f"<{len(a)} chars: {a[:30]!r}...>" for a in self.argv)
        return ("[subprocess] " if self.subprocess else "") + "linlayout " + shown


@functools.lru_cache(maxsize=None)
def prepare() -> dict[str, str]:
    """The files the invocations point at (made once per process)."""
    d = Path(tempfile.mkdtemp(prefix="linlayout-fuzz-cli-"))
    files = {
        "good": "BlockedLayout([1], [32], [4], [0])",
        "cute": "(8,64):(64,1)",
        "empty": "",
        "binary": None,
        "big": "1," * 600_000,
        "latin1": None,
    }
    out: dict[str, str] = {}
    for name, text in files.items():
        path = d / f"{name}.txt"
        if name == "binary":
            path.write_bytes(bytes(range(256)) * 64)
        elif name == "latin1":
            path.write_bytes("BlockedLayout([1], [32], [4], [0]) \xe9".encode("latin-1"))
        else:
            path.write_text(text or "")
        out[name] = str(path)
    ttgir = sorted(IR.glob("*.ttgir"))[:6] if IR.exists() else []
    for i, p in enumerate(ttgir):
        out[f"ir{i}"] = str(p)
        text = p.read_text()
        mutated = d / f"ir{i}-mutated.ttgir"
        mutated.write_text(mutate(random.Random(i), text))
        out[f"ir{i}m"] = str(mutated)
    out["dir"] = str(d)
    out["missing"] = str(d / "missing.txt")
    out["zero"] = "/dev/zero"
    out["unwritable"] = "/nonexistent-dir/out.svg"
    out["out_svg"] = str(d / "out.svg")
    out["out_png"] = str(d / "out.png")
    out["out_html"] = str(d / "out.html")
    return out


def _layout(r: random.Random) -> str:
    files = prepare()
    k = r.random()
    if k < 0.1:
        return "@" + files[r.choice(["good", "cute", "empty", "binary", "big", "latin1", "dir", "missing", "zero"])]
    if k < 0.13:
        return r.choice(["-", "@", "@@", "", "\ud800", "\x00", "a" * 2_000_000])
    name = r.choice(["gluon", "gluon", "cute", "tile", "tilus", "mlir", "linear", "cute_tv", "gluon_json"])
    target = TARGETS[name]
    corpus = target.corpus()
    text = r.choice(corpus) if corpus and r.random() < 0.7 else target.grammar(r)
    if r.random() < 0.4:
        text = mutate(r, text, corpus)
    return text[:200_000]


def _num(r: random.Random) -> str:
    return r.choice(["0", "1", "2", "4", "16", "32", "64", "128", "-1", "3", "4294967296", str(2**63), "9" * 40, "01",
                     "0x10", "1.5", "nan", "inf", "", "x", "\u0661", " 8", "8 "])


def _shape(r: random.Random) -> str:
    if r.random() < 0.6:
        return ",".join(str(1 << r.randint(0, 8)) for _ in range(r.randint(1, 3)))
    return r.choice(["", ",", "128,", ",128", "0", "-1,4", "128x128", "1," * 1000 + "1", "2," * 70 + "2", str(2**63),
                     "9" * 30, "4,8,16,32,64,128", "a,b", "128, 128", "(128,128)", "[128]", "\ud800", "3,5", "1"])


def one_argv(r: random.Random, index: int | None = None) -> Invocation:
    """A random invocation of a random subcommand."""
    files = prepare()
    cmd = r.choice(["show", "show", "convert", "convert", "equiv", "equiv", "plan", "banks", "swizzle", "atom", "space",
                    "audit", "tour", "bogus", "--version", "--help"])
    argv: list[str] = [cmd]
    forms = ["gluon", "cute", "tile", "tilus", "mlir", "linear", "json", "bogus"]
    if cmd == "show":
        argv += [_layout(r)]
        opts = {"--shape": _shape, "--form": lambda rr: rr.choice(forms), "--style": lambda rr: rr.choice(["gluon", "tilus", "hardware", "x"]),
                "--svg": lambda rr: files[rr.choice(["out_svg", "unwritable", "dir"])],
                "--png": lambda rr: files[rr.choice(["out_png", "unwritable"])], "--max-cells": _num, "--bitwidth": _num}
    elif cmd == "convert":
        argv += [_layout(r), "--to", r.choice(forms)]
        opts = {"--shape": _shape, "--form": lambda rr: rr.choice(forms), "--bitwidth": _num}
    elif cmd in ("equiv", "plan"):
        argv += [_layout(r), _layout(r)]
        opts = {"--shape": _shape, "--form": lambda rr: rr.choice(forms), "--bitwidth": _num}
        if cmd == "equiv":
            opts["--form-b"] = lambda rr: rr.choice(forms)
    elif cmd == "banks":
        argv += [_layout(r)]
        opts = {"--shape": _shape, "--column": _num, "--row": _num, "--register": _layout, "--bitwidth": _num,
                "--form": lambda rr: rr.choice(forms)}
    elif cmd == "swizzle":
        argv += [r.choice(["none", "32B", "64B", "128B", "S<3,4,3>", "S<3,4,2>", "S<-1,4,3>", "S<9999999999,4,3>", "256B",
                           "", "S<3,4", "128b"])]
        opts = {"--shape": _shape, "--column": _num, "--bitwidth": _num}
    elif cmd == "atom":
        argv += ["--shape", _shape(r), "--dtype", r.choice(["fp16", "bf16", "fp8", "f32", "tf32", "16", "0", "-8", "fp7", "", "9" * 30])]
        opts = {"--major": lambda rr: rr.choice(["K", "MN", "X"])}
    elif cmd == "space":
        argv += ["--serial", "--no-progress"]
        opts = {"--shape": _shape, "--warps": _num, "--kind": lambda rr: rr.choice(["blocked", "slice", "all", "x"]),
                "--up-to": lambda rr: rr.choice(["identical", "register_order"]), "--max-size-per-thread": _num}
    elif cmd == "audit":
        argv += [files[r.choice([k for k in files if k.startswith("ir")] + ["binary", "empty", "missing", "dir", "zero", "good"])]]
        opts = {"--target": lambda rr: rr.choice(["cuda:90", "cuda:80", "hip:gfx942", "cuda:x", "", "cuda:99999999999999999999"]),
                "--html": lambda rr: files[rr.choice(["out_html", "unwritable"])]}
    else:
        opts = {}
    for opt, gen in opts.items():
        if r.random() < 0.4:
            argv += [opt, gen(r)]
    if cmd not in ("--version", "--help", "bogus") and r.random() < 0.3:
        argv.append("--json")
    if r.random() < 0.03:  # an option without its value, an unknown option
        argv.append(r.choice(["--shape", "--bogus", "--to", "-x"]))
    stdin = r.choice([b"", b"BlockedLayout([1], [32], [4], [0])", bytes(range(256)), b"(4,8):(8,1)"])
    via = index is not None and index % SUBPROCESS_EVERY == SUBPROCESS_EVERY - 1
    return Invocation([a.replace("\x00", "") if via else a for a in argv], stdin, via)


def _judge(inv: Invocation, rc: int, out: str, err: str, seconds: float) -> Result:
    cmd = next((a for a in inv.argv if not a.startswith("-")), "")
    detail = f"exit {rc}: {err.strip()[:200]}"
    if "Traceback (most recent call last)" in out + err:
        return Result("foreign", seconds, "traceback: " + (err or out)[-200:])
    if rc == 0:
        return Result("ok", seconds)
    if rc == 1 and cmd == "equiv" and "different" in out:
        return Result("ok", seconds)
    if rc == 2:
        if err.strip().count("\n") and not ("usage:" in err or "--help" in inv.argv):
            return Result("foreign", seconds, "a multi-line error: " + err[:200])
        return Result("refused", seconds)
    return Result("foreign", seconds, detail)


def check_argv(inv: Invocation, hard_limit: float = 20.0) -> Result:
    """Run ``inv`` and judge it by the contract (see the module docstring)."""
    if inv.subprocess:
        t0 = time.perf_counter()
        try:
            # as bytes: a lone surrogate ('\ud800') cannot be encoded as a str argument, but its
            # bytes (invalid UTF-8) are what a shell can pass; Python reads them back as surrogateescape
            argv = [os.fsencode(sys.executable), b"-m", b"linlayout", *(a.encode("utf-8", "surrogatepass") for a in inv.argv)]
            p = subprocess.run(argv, input=inv.stdin, capture_output=True,
                               timeout=hard_limit, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        except subprocess.TimeoutExpired:
            return Result("hang", time.perf_counter() - t0, "subprocess")
        except OSError as e:
            if e.errno != errno.E2BIG:
                raise
            # the kernel refuses the command line before linlayout starts (as a shell would)
            return Result("refused", time.perf_counter() - t0, "argument list too long for the OS (E2BIG)")
        return _judge(inv, p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"),
                      time.perf_counter() - t0)
    import signal

    from linlayout.app.cli import main

    out, err = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(inv.stdin), encoding="utf-8")
    old_stdin = sys.stdin
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, hard_limit)
    t0 = time.perf_counter()
    try:
        sys.stdin = stdin
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(inv.argv)
    except Hang:
        return Result("hang", time.perf_counter() - t0, "main")
    except BaseException as e:  # noqa: BLE001 - anything escaping main is a failure
        return Result("foreign", time.perf_counter() - t0, f"escaped main: {type(e).__name__}: {str(e)[:200]}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        sys.stdin = old_stdin
    return _judge(inv, rc, out.getvalue(), err.getvalue(), time.perf_counter() - t0)
