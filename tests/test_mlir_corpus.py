"""The Triton 3.9 IR corpus (tests/oracles/triton-3.9-ir, see its README): real kernels' TritonGPU
IR read by converters.mlir agrees bit for bit with what Triton itself reads from the same files.
Runs without triton."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from conftest import ORACLES
from converters import gluon
from converters.mlir import parse_attr, parse_type, to_mlir
from converters.mlir.module import parse_module
from converters.mlir.rotating import AMDRotatingSharedLayout
from linlayout.errors import ParseError

CORPUS = ORACLES / "triton-3.9-ir"
ROWS = [json.loads(l) for l in open(CORPUS / "layouts.jsonl")]
FILES = sorted((CORPUS / "ir").glob("*.ttgir"))


def _bases(d):
    return {k: [list(b) for b in v] for k, v in d.items()}


def _triton_view(r, L):
    """Our bases as Triton's row records them.  Triton hands a tensor-memory layout out as
    ``_TensorMemoryLinearLayout(rows, cols)``: one CTA's ``row``/``col`` bases, without the ``block``
    bases of a CGA layout, which ours carries (checked against the register layouts Triton gives the
    tensor-memory loads and stores: ``test_tensor_memory_blocks_are_those_of_triton_register_layouts``)."""
    bases = _bases(L.bases)
    if set(r["linear"]) == {"row", "col"}:
        bases.pop("block", None)
    return bases


def test_corpus_size():
    compiled = json.loads((CORPUS / "compiled.json").read_text())
    assert len(FILES) == sum(v == "ok" for v in compiled.values()) >= 60
    targets = Counter(p.name.split(".")[-2] for p in FILES)
    assert set(targets) == {"sm_80", "sm_90", "sm_100", "gfx942"}
    assert len(ROWS) > 1000


def test_every_layout_agrees_with_triton_bit_for_bit():
    checked = Counter()
    for r in ROWS:
        t = parse_type(r["type"])
        assert str(t) == r["type"], "our printing differs from Triton's"
        if "linear" not in r:
            continue
        L = t.to_linear()
        assert list(L.out_dims.values()) == r["shape"], r["type"]
        assert _triton_view(r, L) == _bases(r["linear"]), r["type"]
        checked[type(t.layout).__name__] += 1
    assert sum(checked.values()) == sum("linear" in r for r in ROWS) > 1300
    assert {"BlockedLayout", "SliceLayout", "NVMMADistributedLayout", "DotOperandLayout", "DistributedLinearLayout",
            "AMDMFMALayout", "NVMMASharedLayout", "SwizzledSharedLayout", "TensorMemoryLayout"} <= set(checked)


def test_every_gluon_text_triton_hands_out_reads_back_bit_for_bit():
    """Each row's ``gluon`` text is Triton's repr of the Gluon layout it reads from the type
    (``GluonOpBuilder.get_gluon_layout_from_tensor``); read by converters.gluon, it gives Triton's
    linear layout.  Triton's IR reader gives rank-2 MFMA layouts ``tiles_per_warp=[1, 1, 1]`` (one
    entry per instrShape entry), which Gluon's Python takes as it is."""
    checked = Counter()
    for r in ROWS:
        if "linear" not in r:
            continue
        g = gluon.parse(r["gluon"])
        L = g.to_linear(r["shape"])
        assert list(L.out_dims.values()) == r["shape"], r["gluon"]
        assert _triton_view(r, L) == _bases(r["linear"]), r["gluon"]
        checked["rank+1 tiles_per_warp"] += "tiles_per_warp=[1, 1, 1]" in r["gluon"] and len(r["shape"]) + r["gluon"].startswith("SliceLayout") == 2
        checked["rows"] += 1
    assert checked["rows"] == sum("linear" in r for r in ROWS) > 1300
    assert checked["rank+1 tiles_per_warp"] == 187


def test_tensor_memory_blocks_are_those_of_triton_register_layouts():
    """With a CGA layout each CTA reads and writes its own tensor memory, so the ``block`` bases of a
    tensor-memory layout are those of the register layout Triton chose for the ``ttng.tmem_load`` /
    ``tmem_store`` / ``tmem_alloc`` moving it (Triton's own layout text, e.g. a ``#ttg.linear`` with
    ``block = [[0, 128]]`` for a 2-CTA cluster split along N)."""
    checked = 0
    for path in FILES:
        for op in parse_module(path.read_text()).ops:
            if op.name not in ("ttng.tmem_load", "ttng.tmem_store", "ttng.tmem_alloc"):
                continue
            mems = [t for t in op.types if str(t).startswith("!ttg.memdesc") and "CGALayout" in str(t)]
            regs = [t for t in op.types if str(t).startswith("tensor<")]
            for mem in mems:
                for reg in regs:
                    assert mem.to_linear().bases["block"] == reg.to_linear().bases["block"], (path.name, op.line)
                    checked += 1
    assert checked >= 1


def test_rows_triton_refused():
    """Where Triton gave no linear layout, say why and what we do instead."""
    clusters = 0
    for r in ROWS:
        if "linear" in r:
            continue
        t = parse_type(r["type"])
        if "Unhandled encoding" in r["error"]:
            # Gluon 3.9 has no class for #ttg.amd_rotating_shared; ours follows sharedToLinearLayoutAMDRotating
            assert isinstance(t.layout, AMDRotatingSharedLayout)
            assert t.to_linear().is_invertible()
        else:
            # one-element barrier buffers: Gluon's SharedLinearLayout refuses empty bases; the layout is the
            # point.  In a CTA cluster each CTA has its own element (`memdesc<2xi64, ... CGALayout = [[1]]>`)
            assert "offset_bases must not be empty" in r["error"], r
            L = t.to_linear()
            ctas = L.in_dims.get("block", 1)
            assert L.in_dims["offset"] == 1 and list(L.out_dims.values()) == [ctas] == r["shape"]
            assert L.bases.get("block", ()) == tuple((1 << i,) for i in range(ctas.bit_length() - 1))
            clusters += ctas > 1
    assert clusters == 2


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_module_reads_every_type_triton_reads(path):
    m = parse_module(path.read_text())
    def key(t):
        return t.shape, t.layout_text

    triton_types = {key(parse_type(r["type"])) for r in ROWS if r["file"] == f"ir/{path.name}"}
    ours = {key(t) for _, t in m.types()}
    # Triton's rows are op results; each (shape, layout) appears on some op line we read (a result's
    # own type is not always printed: `arith.cmpi ... : tensor<1024xi32, #blocked>` makes an i1 tensor)
    assert triton_types <= ours
    assert m.num_warps in (4, 8) and m.threads_per_warp == (64 if "gfx942" in path.name else 32)
    assert m.target == ("hip:gfx942" if "gfx942" in path.name else f"cuda:{path.name.split('.')[-2][3:]}")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_alias_lines_print_back_exactly(path):
    for line in path.read_text().splitlines():
        if line.startswith("#") and " = #tt" in line and not line.split(" = ", 1)[1].startswith(("#ttg.shared_memory", "#ttng.tensor_memory")):
            rhs = line.split(" = ", 1)[1]
            assert to_mlir(parse_attr(rhs, aliases={})) == rhs


def test_warp_specialized_partitions_have_their_warps():
    m = parse_module((CORPUS / "ir" / "gluon_warp_specialize.sm_90.ttgir").read_text())
    cvts = m.ops_named("ttg.convert_layout")
    assert [(o.partition, o.num_warps) for o in cvts] == [(None, 4), (0, 2)]
    assert all(o.location.startswith("kernels.py:") for o in cvts)


def test_malformed_module_is_a_parse_error_with_the_line():
    text = (CORPUS / "ir" / "vector_add.sm_90.ttgir").read_text()
    bad = text.replace("threadsPerWarp = [32]", "threadsPerWarp = [32", 1)
    with pytest.raises(ParseError, match=r"line 1: expected a value .* got 'warpsPerCTA '"):
        parse_module(bad)


def test_mlir_dump_log_reads_the_last_module():
    one = (CORPUS / "ir" / "vector_add.sm_90.ttgir").read_text()
    two = (CORPUS / "ir" / "gluon_warp_specialize.sm_90.ttgir").read_text()
    log = "// -----// IR Dump Before Foo (foo) ('builtin.module' operation) //----- //\n" + one
    log += "\n// -----// IR Dump Before Bar (bar) ('builtin.module' operation) //----- //\n" + two
    m = parse_module(log)
    offset = [i for i, l in enumerate(log.splitlines()) if l.startswith("// -----//")][-1] + 1
    cvts = m.ops_named("ttg.convert_layout")
    assert [o.line for o in cvts] == [o.line + offset for o in parse_module(two).ops_named("ttg.convert_layout")]
    assert log.splitlines()[cvts[0].line - 1].strip() == cvts[0].text
