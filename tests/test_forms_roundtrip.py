"""The contract across forms: converting a layout A -> B -> A keeps its kind and its meaning
(``equivalent`` says so), or a step is refused with a LayoutError saying why; never an answer of a
different meaning.  Layouts are drawn from the oracle corpora: every Gluon family (Triton 3.9),
CuTe layouts incl. swizzled ones (pycute's results), TIRx TileLayouts, Tilus layouts.
The same through the command line: ``convert --to F`` then ``equiv`` exits 0, or ``convert`` exits 2.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import linlayout
from converters import cute, gluon, registry, tilus
from linlayout.contract import kind_of, same_kind
from linlayout.errors import LayoutError

ORACLES = Path(__file__).parent / "oracles"


def _rows(path: str) -> list[dict]:
    with open(ORACLES / path) as f:
        return [json.loads(line) for line in f]


def _gluon_cases(per_family: int = 5) -> list[tuple[str, object, list[int]]]:
    seen: Counter = Counter()
    out = []
    for r in _rows("triton-3.9/gluon_ll.jsonl"):
        fam = r["layout"]["kind"]
        if seen[fam] >= per_family or "error" in r:
            continue
        seen[fam] += 1
        out.append(("gluon", gluon.from_dict(r["layout"]), list(r["shape"])))
    return out


def _cute_cases(n: int = 30) -> list[tuple[str, object, list[int]]]:
    out = []
    for text in ("(4,8):(8,1)", "(8,4):(1,8)", "S<3,4,3> o 0 o (8,64):(64,1)", "S<2,4,3> o 0 o (16,32):(32,1)",
                 "S<1,0,1> o 0 o (2,2):(1,2)", "((2,2),8):((1,16),2)"):
        x = cute.parse(text)
        out.append(("cute", x, list(x.to_linear().out_dims.values())))
    for r in _rows("pycute/algebra.jsonl"):
        if len(out) >= n:
            break
        if "result" not in r:
            continue
        x = cute.parse(r["result"])
        if isinstance(x, cute.Layout) and cute.is_linear(x):
            shape = [m.size() for m in x.modes()] if isinstance(x.shape, tuple) else [x.size()]
            out.append(("cute", x, shape))
    return out


def _tile_cases(n: int = 25) -> list[tuple[str, object, list[int]]]:
    out = []
    for r in _rows("tirx/tile_layout.jsonl"):
        if len(out) >= n:
            break
        t = registry.parse(f"{r['spec']} shape=({','.join(map(str, r['shape']))})", "tile")
        out.append(("tile", t, list(r["shape"])))
    return out


def _tilus_cases() -> list[tuple[str, object, list[int]]]:
    ls = [tilus.local(2, 1).spatial(8, 4).local(1, 2), tilus.spatial(8, 4), tilus.local(4, 2).spatial(4, 8),
          tilus.spatial(2, 16).local(2, 2).spatial(2, 1)]
    return [("tilus", x, list(x.shape)) for x in ls]


def _mlir_cases(n: int = 24) -> list[tuple[str, object, list[int]]]:
    """Tensor and memdesc types of real kernels (their shape comes with them), one per layout family."""
    out, seen = [], set()
    for r in _rows("triton-3.9-ir/layouts.jsonl"):
        head = r["type"].split("#", 1)[-1].split("<", 1)[0]
        if head in seen or "linear" not in r or r["type"].startswith("!ttg.memdesc") and "x" not in r["type"]:
            continue
        try:
            t = registry.parse(r["type"], "mlir")
        except LayoutError:
            continue
        seen.add(head)
        out.append(("mlir", t, list(t.shape)))
        if len(out) >= n:
            break
    return out


CASES = _gluon_cases() + _cute_cases() + _tile_cases() + _tilus_cases() + _mlir_cases()


def _id(case: tuple) -> str:
    return f"{case[0]}:{str(case[1])[:60]}"


def _same(a: object, b: object, shape: list[int]) -> None:
    r = linlayout.equivalent(a, b, shape=shape)
    assert r, f"{a} and {b} differ on {shape}: {r.relation} {r.counterexample}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_every_form_pair_keeps_the_meaning(case):
    form, x, shape = case
    kind = kind_of(x)
    try:
        linlayout.as_linear(x, shape)
        linear = True
    except LayoutError:  # not GF(2)-linear, or a memory map that is not a bijection
        linear = False
    tried = 0
    for to in registry.FORMS:
        try:
            y = registry.convert(x, to, shape)
        except LayoutError as e:
            assert str(e), "a refusal says why"
            continue
        tried += 1
        if y is x:  # its own form: nothing converted
            assert to == form
            continue
        assert same_kind(kind_of(y), kind), f"{form} -> {to} changed the kind {kind} to {kind_of(y)}"
        _same(x, y, shape)
        assert registry.parse(registry.to_text(y), to) == y, f"{to}: parse(str(v)) != v for {y}"
        try:
            back = registry.convert(y, form, shape)
        except LayoutError:
            continue
        _same(x, back, shape)
    if linear:
        assert tried >= 2, f"{x}: only {tried} forms could spell it (its own and the linear form always can)"
    else:
        assert tried == 1, f"{x} has no linear form, so only its own form spells it"


def test_the_corpus_covers_every_form_and_kind():
    assert {c[0] for c in CASES} == {"gluon", "cute", "tile", "tilus", "mlir"}
    assert {kind_of(c[1]).value for c in CASES} >= {"distributed", "shared", "tensor_memory", "memory"}
    fams = {type(c[1]).__name__ for c in CASES if c[0] == "gluon"}
    assert {"BlockedLayout", "SliceLayout", "NVMMADistributedLayout", "DotOperandLayout", "NVMMASharedLayout",
            "SwizzledSharedLayout", "TensorMemoryLayout"} <= fams


def test_a_distributed_layout_never_becomes_a_memory_map():
    b = gluon.parse("BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])")
    tv = registry.convert(b, "cute", [64, 16])  # a thread-value layout, not a memory map
    assert isinstance(tv, cute.TVLayout) and kind_of(tv).value == "distributed"
    assert str(tv) == "((2,16,2),(4,2,2)):((4,16,512),(1,8,256)) -> (64,16)" or linlayout.equivalent(b, tv, shape=[64, 16])
    t = gluon.TensorMemoryLayout([128, 64], 1)
    frg = registry.convert(t, "cute", [128, 64])  # CuTe's UMMA fragment, still tensor memory
    assert isinstance(frg, cute.TmemLayout) and kind_of(frg).value == "tensor_memory"
    assert str(frg) == "tmem<32> (128,64):(65536,1)" and linlayout.equivalent(t, frg, shape=[128, 64])
    assert registry.load(str(frg)) == ("cute", frg)
    with pytest.raises(LayoutError, match="cannot spell a tensor_memory layout"):
        registry.convert(t, "tilus", [128, 64])
    with pytest.raises(LayoutError, match="cannot spell a memory layout"):
        registry.convert(cute.parse("(4,8):(8,1)"), "tilus")


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "linlayout", *args], capture_output=True, text=True, timeout=120)


CLI_CASES = [
    ("BlockedLayout([2,4],[16,2],[2,2],[1,0])", "64,16"),
    ("(4,8):(8,1)", None),
    ("S<3,4,3> o 0 o (8,64):(64,1)", None),
    ("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] shape=(32,4)", None),
    ("local(2, 1).spatial(8, 4).local(1, 2)", None),
    ("NVMMASharedLayout(128, 16)", "64,64"),
]


@pytest.mark.parametrize("text,shape", CLI_CASES)
def test_cli_convert_then_equiv(text, shape):
    extra = ["--shape", shape] if shape else []
    for to in ("gluon", "cute", "tile", "tilus", "linear"):
        r = _cli("convert", text, "--to", to, *extra)
        if r.returncode == 2:
            assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
            continue
        assert r.returncode == 0, r.stderr
        e = _cli("equiv", text, r.stdout.strip(), *extra)
        assert e.returncode == 0, f"{text} --to {to} gave {r.stdout!r}; equiv says {e.stdout}{e.stderr}"
