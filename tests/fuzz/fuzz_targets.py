"""The fuzz targets: each text parser and dict form of linlayout, its corpus, its grammar, and
the contract every input must meet.

The contract (issue 20): on any input a parser either returns a value or raises a
:class:`~linlayout.errors.LayoutError` — never another exception, never past the time bound,
never past the memory bound — and what it returns obeys the round-trip laws of its form
(``parse(print(v)) == v``; ``from_dict(to_dict(v)) == v`` for the dict forms).

Inputs come from three sources, all driven by one ``random.Random`` (so hypothesis can drive them
through ``st.randoms()`` and the on-demand driver ``tests/fuzz/run.py`` through a seed):

* the corpus: texts of real layouts from ``tests/oracles`` (Triton 3.9, pycute, TIRx, Triton IR),
* a small generator per grammar (:data:`GRAMMARS`), which writes well-formed and nearly
  well-formed text with extreme numbers, long lists and deep nesting,
* :func:`mutate`: byte-level mutations of either (deletions, duplications, splices, extreme
  integers, odd characters, deep nesting, long repetitions).

    >>> r = random.Random(0)
    >>> check(TARGETS["gluon"], "BlockedLayout([1], [32], [4], [0])").outcome
    'ok'
    >>> check(TARGETS["gluon"], "NVMMASharedLayout(01").outcome
    'refused'
"""

from __future__ import annotations

import functools
import json
import random
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from linlayout.errors import LayoutError
from linlayout.limits import MAX_TEXT

ORACLES = Path(__file__).resolve().parents[1] / "oracles"

#: Seconds one input may take (the issue's bound).
TIME_BOUND = 2.0


class Hang(Exception):
    """Raised by the alarm when one input runs past the hard time limit."""


@dataclass
class Result:
    """What one input did: ``outcome`` is ``ok``, ``refused`` (a LayoutError), ``foreign`` (any
    other exception), ``roundtrip`` (a law failed on a value it returned) or ``hang``."""

    outcome: str
    seconds: float
    detail: str = ""


@dataclass
class Target:
    """One parser: ``parse(text)`` and the laws to check on what it returns."""

    name: str
    parse: Callable[[str], Any]
    laws: Callable[[Any], None]
    corpus: Callable[[], list[str]]
    grammar: Callable[[random.Random], str]
    #: Whether failures are owned elsewhere (reported, not asserted on).
    informational: bool = False
    notes: list[str] = field(default_factory=list)


def _alarm(signum: int, frame: Any) -> None:
    raise Hang()


def check(target: Target, text: str, hard_limit: float = 20.0) -> Result:
    """Run ``target`` on ``text`` and classify what happened (see :class:`Result`)."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, hard_limit)
    t0 = time.perf_counter()
    try:
        try:
            value = target.parse(text)
        except LayoutError:
            return Result("refused", time.perf_counter() - t0)
        except Hang:
            return Result("hang", time.perf_counter() - t0, "parse")
        except Exception as e:  # noqa: BLE001 - the point of the fuzzer
            return Result("foreign", time.perf_counter() - t0, f"{type(e).__name__}: {str(e)[:200]}")
        try:
            target.laws(value)
        except Hang:
            return Result("hang", time.perf_counter() - t0, "laws")
        except Exception as e:  # noqa: BLE001
            return Result("roundtrip", time.perf_counter() - t0, f"{type(e).__name__}: {str(e)[:200]}")
        return Result("ok", time.perf_counter() - t0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _same(a: Any, b: Any, how: str) -> None:
    if a != b:
        raise AssertionError(f"{how}: {a!r} != {b!r}")


# ------------------------------------------------------------------------------ corpus


def _jsonl(rel: str) -> list[dict]:
    path = ORACLES / rel
    if not path.exists():
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


@functools.lru_cache(maxsize=None)
def _gluon_dicts() -> tuple[str, ...]:
    rows = _jsonl("triton-3.9/gluon_ll.jsonl")[::4] + _jsonl("triton-3.9-generated/gluon_dist.jsonl")[::8]
    return tuple(json.dumps(r["layout"]) for r in rows if isinstance(r.get("layout"), dict) and "error" not in r)


@functools.lru_cache(maxsize=None)
def gluon_corpus() -> tuple[str, ...]:
    from converters import gluon

    out = []
    for d in _gluon_dicts():
        try:
            out.append(str(gluon.from_dict(json.loads(d))))
        except LayoutError:
            pass
    out += [r["gluon"] for r in _jsonl("triton-3.9-ir/layouts.jsonl")[::20] if r.get("gluon")]
    return tuple(dict.fromkeys(out))


@functools.lru_cache(maxsize=None)
def linear_corpus() -> tuple[str, ...]:
    from linlayout import LinearLayout

    out = []
    for r in _jsonl("triton-3.9/ll_ops.jsonl")[::5]:
        try:
            L = LinearLayout.from_dict(r["a"])
        except LayoutError:
            continue
        out += [str(L), json.dumps(r["a"])]
    return tuple(dict.fromkeys(out))


@functools.lru_cache(maxsize=None)
def tile_corpus() -> tuple[str, ...]:
    return tuple(dict.fromkeys(
        f"{r['spec']} shape=({','.join(map(str, r['shape']))})" if r.get("shape") else r["spec"]
        for r in _jsonl("tirx/tile_layout.jsonl")[::2]))


@functools.lru_cache(maxsize=None)
def cute_corpus() -> tuple[str, ...]:
    out = []
    for r in _jsonl("pycute/algebra.jsonl")[::3]:
        out += [a for a in r.get("args", []) if isinstance(a, str)]
        if isinstance(r.get("result"), str):
            out.append(r["result"])
    out += ["S<3,4,3> o 0 o (8,64):(64,1)", "(32,4):(4,1) -> (16,8)", "Sw<2,3,3> o (8,8):(8,1)"]
    return tuple(dict.fromkeys(out))


@functools.lru_cache(maxsize=None)
def cute_tv_corpus() -> tuple[str, ...]:
    """The thread-value layouts of the MMA atoms (CUTLASS's tables, as converters.cute has them)."""
    from converters import cute

    out = []
    for name in cute.atoms()[::7]:
        try:
            atom = cute.mma_atom(name)
        except LayoutError:
            continue
        out += [str(atom.a), str(atom.b), str(atom.c)]
    out += ["(32,4):(4,1) -> (16,8)", "((4,8),(2,2)):((32,1),(16,8)) -> (16,8); warp_size=16", "(128,4):(1,128) -> (128,4)"]
    return tuple(dict.fromkeys(out))


CUTE_DESC_CORPUS = (
    "(1@0, 1@1)", "()", "(1/2@0, 4@1)", "(1@0@1)", "(1/2@1, 4@0)", "((1@0, 8@1), 1@2)", "(1@0,1@1) | (4,8)",
    "((1@0, 8@1), 1@2) | (2,16,3)", "(1/2@0, 4@1) | (2,16)", "(1@0@1) | ((4,2))", "(1/2@1, 4@0) | (2,16)",
    "(2@1, 1@0, 16@1) | (4,32)", "(-1@0, 1@1)", "(3, 1@0)", "((1@0,2@0),(1@1,(4@1,8@1)))",
)


@functools.lru_cache(maxsize=None)
def mlir_corpus() -> tuple[str, ...]:
    path = ORACLES / "triton-3.9-ir/printed_types.txt"
    out = [line.strip() for line in path.read_text().splitlines() if line.strip()] if path.exists() else []
    out += [r["type"] for r in _jsonl("triton-3.9-ir/layouts.jsonl")[::20] if r.get("type")]
    return tuple(dict.fromkeys(out))


TILUS_CORPUS = (
    "local(2, 1).spatial(8, 4)", "spatial(4, 8).local(2, 2)", "local(2).spatial(32)",
    "column_spatial(4, 8).local(1, 4)", "spatial(8, 4, ranks=[1, 0])", "replicated(2).spatial(16)",
    "RegisterLayout(shape=[16, 4], mode_shape=[2, 8, 4], spatial_modes=[1, 2], local_modes=[0])",
    "register_layout(shape=[4, 6], mode_shape=[2, 2, 3, 2], spatial_modes=[0, 2], local_modes=[3, 1])",
    "tilus.local(4).column_local(2)", "spatial(2, 2).replicated(4).local(2, 2)",
)


# ------------------------------------------------------------------------------ grammars

_NAMES = ("register", "lane", "warp", "block", "offset", "row", "col")


def _int(r: random.Random) -> str:
    """Mostly small powers of two; sometimes extremes and malformed integers."""
    k = r.random()
    if k < 0.7:
        return str(1 << r.randint(0, 6))
    if k < 0.8:
        return str(r.randint(-3, 100))
    return r.choice(["0", "-1", "01", "007", "0x10", "1_0", "+4", str(2**31), str(2**62 - 1), str(2**62),
                     str(2**63), str(-2**63), "9" * 25, "9" * 5000, "1e3", "\u0661", "2.0", ""])


def _list(r: random.Random, item: Callable[[random.Random], str], lo: int = 0, hi: int = 4, sep: str = ", ") -> str:
    n = r.randint(lo, hi) if r.random() < 0.95 else r.choice([64, 65, 200, 5000])
    return sep.join(item(r) for _ in range(n))


def _ints(r: random.Random, lo: int = 1, hi: int = 3) -> str:
    return "[" + _list(r, _int, lo, hi) + "]"


def gluon_grammar(r: random.Random, depth: int = 0) -> str:
    kind = r.choice(["BlockedLayout", "BlockedLayout", "SliceLayout", "NVMMADistributedLayout", "DotOperandLayout",
                     "SwizzledSharedLayout", "NVMMASharedLayout", "DistributedLinearLayout", "SharedLinearLayout",
                     "AMDMFMALayout", "AMDWMMALayout", "TensorMemoryLayout", "PaddedSharedLayout", "Nope"])
    prefix = r.choice(["", "", "gl.", "ttgl.", "triton.experimental.gluon.language."])
    parent = (lambda rr: gluon_grammar(rr, depth + 1)) if depth < 3 else (lambda rr: "BlockedLayout([1], [32], [4], [0])")
    if kind == "BlockedLayout":
        rank = r.randint(1, 3)
        args = [_ints(r, rank, rank) for _ in range(4)]
        if r.random() < 0.3:
            args.append("cga_layout=" + "[" + _list(r, lambda rr: _ints(rr, rank, rank), 0, 2) + "]")
    elif kind in ("SliceLayout",):
        args = [_int(r), parent(r)]
    elif kind == "DotOperandLayout":
        args = [_int(r), parent(r), _int(r)]
    elif kind == "NVMMADistributedLayout":
        args = [_ints(r, 2, 2), _ints(r, 2, 2), _ints(r, 2, 3)]
    elif kind == "SwizzledSharedLayout":
        args = [_int(r), _int(r), _int(r), _ints(r, 1, 3)]
    elif kind == "NVMMASharedLayout":
        args = [_int(r), _int(r), r.choice(["True", "False", "0"])]
    elif kind in ("DistributedLinearLayout", "SharedLinearLayout"):
        args = ["[" + _list(r, lambda rr: _ints(rr, 2, 2), 0, 5) + "]" for _ in range(r.randint(1, 4))]
    else:
        args = [_ints(r) for _ in range(r.randint(0, 5))]
    if r.random() < 0.1:
        args.append(r.choice(["'x'", '"y"', "None", "True", "foo=1", "[[[[1]]]]"]))
    return f"{prefix}{kind}({', '.join(args)})"


def _entry(r: random.Random, size: int) -> int:
    """A basis entry: mostly inside ``[0, size)``, sometimes negative, too large or huge."""
    if r.random() < 0.93:
        return r.randint(0, max(0, size - 1))
    return r.choice([-1, size, 2**31, 2**62, 2**63, 10**30])


def linear_grammar(r: random.Random) -> str:
    outs = [(f"dim{i}", 1 << r.randint(0, 5)) for i in range(r.randint(1, 3))]
    if r.random() < 0.05:
        outs.append((r.choice(["dim9", "x y", "", "dim0"]), r.choice([3, 0, -1, 2**62, 2**63])))
    if r.random() < 0.3:  # the JSON form
        bases = [[n, [[_entry(r, s) for _, s in outs] for _ in range(r.randint(0, 3))]]
                 for n in r.sample(_NAMES, r.randint(1, 3))]
        return json.dumps({"bases": bases, "out_dims": [list(o) for o in outs]})
    lines = []
    for n in r.sample(_NAMES, r.randint(0, 4)):
        k = r.randint(0, 4)
        if k == 0:
            lines.append(f" - {n} is a size 1 dimension")
        for i in range(k):
            vec = ", ".join(str(r.randint(0, max(0, s - 1))) if r.random() < 0.9 else _int(r) for _, s in outs)
            lines.append(f" {'-' if i == 0 else ' '} {n}={1 << i if r.random() < 0.95 else _int(r)} -> ({vec})")
    lines.append("where out dims are: [" + ", ".join(f"{n} (size {s})" for n, s in outs) + "]")
    return "\n".join(lines)


def _stride(r: random.Random) -> str:
    s = _int(r)
    return s + (r.choice(["", "", "@laneid", "@warpid", "@TLane", "@m", "@tx", "@wid"]) if r.random() < 0.5 else "")


def tile_grammar(r: random.Random) -> str:
    def spec() -> str:
        n = r.randint(1, 3) if r.random() < 0.97 else r.choice([64, 65, 1000])
        ex = ",".join(_int(r) for _ in range(n))
        if r.random() < 0.3:
            return f"[({ex})]" if n > 1 else f"[{ex}]"
        st = ",".join(_stride(r) for _ in range(n if r.random() < 0.95 else n + 1))
        return f"[({ex}):({st})]" if n > 1 or r.random() < 0.5 else f"[{ex}:{st}]"

    parts = ["S" + spec()]
    if r.random() < 0.4:
        parts.append("R" + spec())
    if r.random() < 0.3:
        parts.append(_stride(r))
    text = " + ".join(parts)
    if r.random() < 0.5:
        text += " shape=(" + ",".join(_int(r) for _ in range(r.randint(1, 3))) + ")"
    return text


def tilus_grammar(r: random.Random) -> str:
    calls = ["local", "spatial", "column_local", "column_spatial", "replicated"]
    parts = []
    for i in range(r.randint(1, 4)):
        name = r.choice(calls if r.random() < 0.95 else calls + ["shuffle", "__import__", "print"])
        args = ", ".join(_int(r) for _ in range(1 if name == "replicated" else r.randint(1, 3)))
        if r.random() < 0.1:
            args += ", ranks=" + _ints(r)
        parts.append(f"{name}({args})")
    text = ("tilus." if r.random() < 0.1 else "") + ".".join(parts)
    if r.random() < 0.1:
        text = (f"RegisterLayout(shape={_ints(r)}, mode_shape={_ints(r)}, spatial_modes={_ints(r, 0)}, "
                f"local_modes={_ints(r, 0)})")
    return text


def cute_grammar(r: random.Random, depth: int = 0) -> str:
    def tree(d: int) -> str:
        if d > 2 or r.random() < 0.6:
            return _int(r)
        if d == 0:  # long lists (5000 modes) only at the top, so that an input stays < 1 MB
            return "(" + _list(r, lambda rr: tree(d + 1), 1, 3, ",") + ")"
        return "(" + ",".join(tree(d + 1) for _ in range(r.randint(1, 3))) + ")"

    shape = tree(0)
    text = shape if r.random() < 0.2 else f"{shape}:{tree(0)}"
    if r.random() < 0.2:
        text = f"S<{_int(r)},{_int(r)},{_int(r)}> o {_int(r)} o {text}"
    if r.random() < 0.1:
        text += f" -> {tree(0)}"
    return text


def cute_desc_grammar(r: random.Random) -> str:
    def leaf() -> str:
        text = _int(r)
        if r.random() < 0.2:
            text += "/" + _int(r)
        for _ in range(r.choice([0, 1, 1, 1, 2, 3]) if r.random() < 0.98 else 65):
            text += "@" + (str(r.randint(0, 3)) if r.random() < 0.9 else _int(r))
        return text

    def tree(d: int) -> str:
        if d > 2 or r.random() < 0.5:
            return leaf()
        if d == 0:
            return "(" + _list(r, lambda rr: tree(d + 1), 0, 4, ", ") + ")"
        return "(" + ", ".join(tree(d + 1) for _ in range(r.randint(1, 3))) + ")"

    text = tree(0)
    if r.random() < 0.4:
        text += " | (" + ",".join(_int(r) for _ in range(r.randint(1, 4))) + ")"
    return text


def cute_tv_grammar(r: random.Random) -> str:
    layout = cute_grammar(r).split(" -> ")[0]
    if " o " in layout:
        layout = layout.split(" o ")[-1]
    tile = _int(r) if r.random() < 0.3 else "(" + ",".join(_int(r) for _ in range(r.randint(1, 3))) + ")"
    text = f"{layout} -> {tile}"
    if r.random() < 0.2:
        text += "; warp_size=" + r.choice(["32", "16", "64", "3", "0", "01", "\u00b2", "9" * 30, "x", ""])
    return text


def mlir_grammar(r: random.Random) -> str:
    attr = r.choice([
        lambda: f"#ttg.blocked<{{sizePerThread = {_ints(r, 2, 2)}, threadsPerWarp = {_ints(r, 2, 2)}, "
                f"warpsPerCTA = {_ints(r, 2, 2)}, order = {_ints(r, 2, 2)}}}>",
        lambda: f"#ttg.swizzled_shared<{{vec = {_int(r)}, perPhase = {_int(r)}, maxPhase = {_int(r)}, order = {_ints(r, 2, 2)}}}>",
        lambda: f"#ttg.nvidia_mma<{{versionMajor = {_int(r)}, versionMinor = 0, warpsPerCTA = {_ints(r, 2, 2)}, "
                f"instrShape = {_ints(r, 2, 3)}}}>",
        lambda: f"#ttg.linear<{{register = [{_list(r, lambda rr: _ints(rr, 2, 2))}], lane = [{_list(r, lambda rr: _ints(rr, 2, 2), 0, 5)}], "
                f"warp = [], block = []}}>",
        lambda: f"#ttng.tensor_memory_encoding<blockM = {_int(r)}, blockN = {_int(r)}, colStride = {_int(r)}>",
        lambda: f"#ttg.nvmma_shared<{{swizzlingByteWidth = {_int(r)}, transposed = {r.choice(['true', 'false'])}, "
                f"elementBitWidth = {_int(r)}}}>",
    ])()
    if r.random() < 0.2:
        attr = f"#ttg.slice<{{dim = {_int(r)}, parent = {attr}}}>"
    if r.random() < 0.5:
        dims = "x".join(_int(r) for _ in range(r.randint(1, 3)))
        attr = f"tensor<{dims}x{r.choice(['f16', 'f32', 'i8', 'bf16', 'q7'])}, {attr}>"
    return attr


def gluon_json_grammar(r: random.Random) -> str:
    corpus = _gluon_dicts()
    d = json.loads(r.choice(corpus)) if corpus else {"kind": "BlockedLayout"}
    for _ in range(r.randint(0, 3)):
        key = r.choice(list(d) + ["extra", "parent", "kind"])
        d[key] = r.choice([None, True, 3.5, -1, 2**62, 2**70, [], [[]], {}, "x", {"kind": "SliceLayout", "dim": 0, "parent": 3},
                           [1, [2]], "BlockedLayout", {"kind": "BlockedLayout"}])
        if r.random() < 0.3:
            d.pop(r.choice(list(d)), None)
    text = json.dumps(d)
    if r.random() < 0.1:
        text = text.replace("1", r.choice(["Infinity", "NaN", "-Infinity", "1e999", "1.5", "9" * 30]), 1)
    return text


# ------------------------------------------------------------------------------ mutation

_ODD = ["\x00", "\ud800", "\u0661", "\u00a0", "\n", "\t", "@", "#", "<", ">", "{", "}", "[", "]", "(", ")", ",", ":",
        "=", ".", "-", "+", "0", "01", "'", '"', "\\", "x", "S", "R", " o ", " -> ", "é", "\U0001f600"]
_EXTREME = ["0", "-1", "01", "00", "2147483648", "4611686018427387904", "9223372036854775808", "-9223372036854775808",
            "99999999999999999999999999", "1" + "0" * 400, "0x7fffffffffffffff", "1_000", "1e308"]


def mutate(r: random.Random, text: str, corpus: tuple[str, ...] = ()) -> str:
    """One to three random mutations of ``text`` (the result is at most :data:`MAX_TEXT` + 2
    characters, so the length limit itself is exercised too)."""
    for _ in range(r.randint(1, 3)):
        n = len(text)
        k = r.randrange(10)
        i = r.randint(0, n)
        j = r.randint(i, min(n, i + 1 + r.randrange(16)))
        if k == 0 and n:  # delete a span
            text = text[:i] + text[j:]
        elif k == 1:  # insert an odd character or token
            text = text[:i] + r.choice(_ODD) + text[i:]
        elif k == 2:  # duplicate a span
            text = text[:j] + text[i:j] * r.choice([1, 2, 10, 100]) + text[j:]
        elif k == 3:  # replace a number by an extreme one
            digits = [m for m in range(n) if text[m].isdigit() and (m == 0 or not text[m - 1].isdigit())]
            if digits:
                a = r.choice(digits)
                b = a
                while b < n and text[b].isdigit():
                    b += 1
                text = text[:a] + r.choice(_EXTREME) + text[b:]
        elif k == 4 and corpus:  # splice with another corpus entry
            other = r.choice(corpus)
            a = r.randint(0, len(other))
            text = text[:i] + other[a:] if r.random() < 0.5 else other[:a] + text[i:]
        elif k == 5:  # deep nesting
            depth = r.choice([10, 65, 100, 1000, 20000])
            o, c = r.choice([("(", ")"), ("[", "]"), ("{", "}"), ("<", ">")])
            text = text[:i] + o * depth + text[i:j] + c * depth + text[j:]
        elif k == 6:  # a long repetition of a list item
            reps = r.choice([64, 65, 1000, 100000])
            text = text[:i] + (text[i:j] or ",1") * reps + text[j:]
        elif k == 7 and n:  # replace one character
            text = text[:i] + r.choice(_ODD) + text[i + 1:]
        elif k == 8:  # whitespace runs (the detection once was cubic on them)
            text = text[:i] + r.choice(["\n", " ", "\t", "\r\n"]) * r.choice([1, 100, 5000]) + text[i:]
        else:  # truncate
            text = text[:i]
        if len(text) > MAX_TEXT + 2:
            text = text[:MAX_TEXT + 2]
    return text


def huge(r: random.Random, target: Target) -> str:
    """A megabyte-sized input near the length limit (the parsers must stay linear)."""
    base = r.choice(target.corpus() or ("x",))
    unit = r.choice(["1,", "[1],", "(2,", "2,", "\n", " ", "local(1).", "[[", "0"])
    return (base[: len(base) // 2] + unit * ((MAX_TEXT - len(base)) // len(unit)) + base[len(base) // 2:])[:MAX_TEXT]


def one_input(r: random.Random, target: Target) -> str:
    """One fuzz input for ``target``: grammar, corpus or both, mutated most of the time."""
    corpus = target.corpus()
    k = r.random()
    if k < 0.35 or not corpus:
        text = target.grammar(r)
    else:
        text = r.choice(corpus)
    if r.random() < 0.75:
        text = mutate(r, text, corpus)
    return text


# ------------------------------------------------------------------------------ targets


def _gluon_parse(text: str) -> Any:
    from converters import gluon

    return gluon.parse(text)


def _gluon_laws(v: Any) -> None:
    from converters import gluon

    _same(gluon.parse(str(v)), v, "gluon parse(str(v))")
    _same(gluon.from_dict(json.loads(json.dumps(v.to_dict()))), v, "gluon from_dict(to_dict(v))")


def _gluon_json_parse(text: str) -> Any:
    from converters import registry

    return registry.parse(text, "gluon")


def _linear_parse(text: str) -> Any:
    from converters import registry

    return registry.parse(text, "linear")


def _linear_laws(L: Any) -> None:
    from linlayout import LinearLayout

    _same(LinearLayout.from_text(str(L)), L, "linear from_text(str(L))")
    _same(LinearLayout.from_dict(json.loads(json.dumps(L.to_dict()))), L, "linear from_dict(to_dict(L))")


def _tile_parse(text: str) -> Any:
    from converters import tile

    return tile.parse(text)


def _tile_laws(v: Any) -> None:
    from converters import tile

    _same(tile.parse(str(v)), v, "tile parse(str(v))")


def _tilus_parse(text: str) -> Any:
    from converters import tilus

    return tilus.parse(text)


def _tilus_laws(v: Any) -> None:
    from converters import tilus

    _same(tilus.parse(str(v)), v, "tilus parse(str(v))")


def _cute_parse(text: str) -> Any:
    from converters import cute

    return cute.parse(text)


def _cute_laws(v: Any) -> None:
    from converters import cute

    _same(cute.parse(str(v)), v, "cute parse(str(v))")


def _desc_shape(tree: Any) -> Any:
    """A shape congruent with a descriptor tree (2 at every leaf), for normalize_descriptor."""
    return tuple(_desc_shape(t) for t in tree) if isinstance(tree, tuple) else 2


def _cute_desc_parse(text: str) -> Any:
    """``descriptor [| codomain]``: the descriptor is read, then normalized over a congruent shape
    (and the codomain when given); a refusal of the normalization still counts as an answer."""
    from converters import cute

    desc_text, bar, codomain_text = text.partition(" | ")
    d = cute.parse_descriptor(desc_text)
    codomain = cute.parse_int_tuple(codomain_text) if bar else None
    try:
        cute.normalize_descriptor(_desc_shape(d.tree), d, codomain)
    except LayoutError:
        pass
    return d


def _cute_desc_laws(d: Any) -> None:
    from converters import cute

    _same(cute.parse_descriptor(cute.format_descriptor(d)), d, "cute parse_descriptor(format_descriptor(d))")


def _cute_tv_parse(text: str) -> Any:
    from converters import cute

    return cute.parse_tv(text)


def _cute_tv_laws(v: Any) -> None:
    from converters import cute

    _same(cute.parse_tv(str(v)), v, "cute parse_tv(str(v))")


def _mlir_parse(text: str) -> Any:
    from converters import mlir

    return mlir.parse(text)


def _mlir_laws(v: Any) -> None:
    from converters import mlir
    from converters.gluon import GluonLayout
    from converters.mlir.attrs import to_mlir

    text = to_mlir(v) if isinstance(v, GluonLayout) else str(v)
    _same(mlir.parse(text), v, "mlir parse(print(v))")


def _linear_json_parse(text: str) -> Any:
    from linlayout import LinearLayout
    from linlayout.limits import read_json

    return LinearLayout.from_dict(read_json(text, "linear JSON"))


def linear_json_corpus() -> tuple[str, ...]:
    return tuple(t for t in linear_corpus() if t.startswith("{"))


def linear_json_grammar(r: random.Random) -> str:
    """The dict form: a corpus dict with fields replaced by hostile values, or the grammar's JSON."""
    corpus = linear_json_corpus()
    if not corpus or r.random() < 0.3:
        text = linear_grammar(r)
        if text.startswith("{"):
            return text
        return json.dumps({"bases": [["register", [[1]]]], "out_dims": [["dim0", 2]]})
    d = json.loads(r.choice(corpus))
    for _ in range(r.randint(1, 3)):
        key = r.choice(["bases", "out_dims", "extra", "surjective"])
        d[key] = r.choice([None, True, 3.5, -1, 2**62, 2**70, [], [[]], {}, "x", [["register", None]], [["dim0", -2]],
                           [["register", [[1, 2, 3]]]], [["", 2]], [["dim0", 2], ["dim0", 4]], {"register": [[1]]},
                           [["register", [[2**62]]]], [["lane", [[0]] * 70]]])
        if r.random() < 0.3:
            d.pop(r.choice(list(d)), None)
    return json.dumps(d)


def _detect_parse(text: str) -> Any:
    from converters import registry

    return registry.parse(text)


def _detect_laws(v: Any) -> None:
    from converters import registry

    form = registry.form_of(v).name
    _same(registry.parse(registry.to_text(v), form), v, f"registry parse(to_text(v), {form!r})")


def _detect_corpus() -> tuple[str, ...]:
    return gluon_corpus()[::4] + linear_corpus()[::4] + tile_corpus()[::4] + mlir_corpus()[::4] + TILUS_CORPUS + cute_corpus()[::8]


def _detect_grammar(r: random.Random) -> str:
    return r.choice([gluon_grammar, linear_grammar, tile_grammar, tilus_grammar, mlir_grammar, gluon_json_grammar])(r)


TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target("gluon", _gluon_parse, _gluon_laws, gluon_corpus, gluon_grammar),
        Target("gluon_json", _gluon_json_parse, _gluon_laws, _gluon_dicts, gluon_json_grammar),
        Target("linear", _linear_parse, _linear_laws, linear_corpus, linear_grammar),
        Target("linear_json", _linear_json_parse, _linear_laws, linear_json_corpus, linear_json_grammar),
        Target("tile", _tile_parse, _tile_laws, tile_corpus, tile_grammar),
        Target("tilus", _tilus_parse, _tilus_laws, lambda: TILUS_CORPUS, tilus_grammar),
        Target("mlir", _mlir_parse, _mlir_laws, mlir_corpus, mlir_grammar),
        Target("detect", _detect_parse, _detect_laws, _detect_corpus, _detect_grammar),
        Target("cute", _cute_parse, _cute_laws, cute_corpus, cute_grammar),
        Target("cute_desc", _cute_desc_parse, _cute_desc_laws, lambda: CUTE_DESC_CORPUS, cute_desc_grammar),
        Target("cute_tv", _cute_tv_parse, _cute_tv_laws, cute_tv_corpus, cute_tv_grammar),
    )
}
