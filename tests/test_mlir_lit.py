"""The Triton 3.9 lit corpus (tests/oracles/triton-3.9-lit, see its README): the layout attributes
of Triton's own lit tests (``test/**/*.mlir``), read by converters.mlir, agree with what Triton
3.9 reads from the same text.  Runs without triton.

* every result type Triton read (``layouts.jsonl``): our reading of Triton's printed type prints
  back to the same text and gives Triton's linear layout bit for bit; where Triton gave none we
  refuse with a LayoutError, or accept for a reason named in ``ACCEPTED`` (with the evidence);
* every layout attribute as written in a chunk (``attributes.jsonl``: alias definitions and
  attributes in types), read by Triton on its own: our reading of the text as written (with the
  aliases it refers to) prints as Triton prints it, and reads back the same; where Triton's reader refuses the text (lit's invalid-attribute tests) we refuse it with a
  LayoutError; where we refuse a text Triton's reader takes, ``REFUSED`` names why;
* nothing raises a foreign exception.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from conftest import ORACLES
from converters.mlir import parse_attr, parse_type, to_mlir
from linlayout.errors import LayoutError

CORPUS = ORACLES / "triton-3.9-lit"
ROWS = [json.loads(l) for l in open(CORPUS / "layouts.jsonl")]
ATTRS = [json.loads(l) for l in open(CORPUS / "attributes.jsonl")]
SUMMARY = json.loads((CORPUS / "summary.json").read_text())


def _bases(d: Mapping[str, Any]) -> dict[str, list[list[int]]]:
    return {k: [list(b) for b in v] for k, v in d.items()}


def _family(text: str) -> str:
    return text.split("#", 1)[1].split("<", 1)[0].rstrip(">, ") if "#" in text else "?"


#: Triton's refusals (its message starts with the key) where we give a linear layout, and why
#: that is right.  The evidence is in the rows themselves (checked below).
ACCEPTED = {
    # Gluon's SharedLinearLayout refuses empty bases: a one-element buffer (a barrier, `1xi64`) has
    # none.  The layout is the point (tests/test_mlir_corpus.py::test_rows_triton_refused says so
    # for the kernel corpus too).
    "triton raised AssertionError: SharedLinearLayout offset_bases must not be empty": "one element",
    # Gluon 3.9 has no class for #ttg.amd_rotating_shared; ours follows Triton's C++
    # sharedToLinearLayoutAMDRotating (converters/mlir/rotating.py)
    "triton raised ValueError: Unhandled encoding encountered": "amd_rotating_shared",
}


def _triton_view(r: dict, L: Any) -> dict:
    """Our bases as Triton's row records them.  Triton hands a tensor-memory layout out as
    ``_TensorMemoryLinearLayout(rows, cols)``, one CTA's bases without ``block`` (see
    tests/test_mlir_corpus.py::_triton_view)."""
    bases = _bases(L.bases)
    if set(r["linear"]) == {"row", "col"}:
        bases.pop("block", None)
    # and a partitioned shared layout as a SharedLinearLayout: offset and block bases, without the
    # partition bases (converters/mlir/partitioned.py; test_partition_bases_complete_trittons_offsets)
    bases.pop("partition", None)
    return bases


def test_corpus_size_and_provenance():
    assert SUMMARY["source"] == "triton-lang/triton" and len(SUMMARY["commit"]) == 40
    assert SUMMARY["files"] >= 250 and SUMMARY["chunks parsed"] >= 1500
    assert len(ROWS) == SUMMARY["rows"] >= 3000 and len(ATTRS) == SUMMARY["attributes"] >= 1800
    assert not SUMMARY["rows left out by the per-file cap"]
    fams = Counter(_family(r["type"]) for r in ROWS)
    for fam in ("ttg.blocked", "ttg.slice", "ttg.dot_op", "ttg.nvidia_mma", "ttg.amd_mfma", "ttg.amd_wmma", "ttg.linear",
                "ttg.swizzled_shared", "ttg.nvmma_shared", "ttg.padded_shared", "ttg.shared_linear",
                "ttng.tensor_memory_encoding", "ttng.tensor_memory_scales_encoding", "ttg.amd_rotating_shared",
                "ttg.partitioned_shared", "ttg.generic_linear"):
        assert fams[fam] >= 1, fam


def test_every_layout_agrees_with_triton_bit_for_bit():
    checked: Counter = Counter()
    for r in ROWS:
        if "linear" not in r:
            continue
        t = parse_type(r["type"])
        assert str(t) == r["type"], "our printing differs from Triton's"
        assert parse_type(str(t)) == t
        L = t.to_linear()
        assert list(L.out_dims.values()) == r["shape"], (r["file"], r["type"])
        assert _triton_view(r, L) == _bases(r["linear"]), (r["file"], r["type"])
        checked[_family(r["type"])] += 1
    assert sum(checked.values()) == sum("linear" in r for r in ROWS) >= 3000
    assert len(checked) >= 14  # every family in the corpus but amd_rotating_shared (Gluon has no class)


def test_rows_triton_refused():
    """Where Triton gave no linear layout we refuse with a LayoutError (the text, or its linear
    layout), or accept for a reason in ACCEPTED."""
    seen: Counter = Counter()
    for r in ROWS:
        if "linear" in r:
            continue
        reason = next((v for k, v in ACCEPTED.items() if r["error"].startswith(k)), None)
        try:
            t = parse_type(r["type"])
            assert str(t) == r["type"]
            L = t.to_linear()
        except LayoutError:
            assert reason is None, (r["type"], r["error"])
            seen["both refuse"] += 1
            continue
        assert reason is not None, f"we accept what Triton refuses: {r['type']} ({r['error']})"
        if reason == "one element":
            assert L.in_dims["offset"] == 1 and all(n == 1 for n in r["shape"][:-1])
        else:
            assert _family(r["type"]) == "ttg." + reason and L.is_invertible()
        seen[reason] += 1
    assert seen["both refuse"] >= 60 and seen["one element"] >= 10 and seen["amd_rotating_shared"] >= 1


def _env(env: Mapping[str, str]) -> dict[str, Any]:
    """The aliases an alias text refers to, read in dependency order."""
    out: dict[str, Any] = {}
    todo = dict(env)
    while todo:
        progressed = False
        for name, text in list(todo.items()):
            try:
                out[name] = parse_attr(text, aliases=out)
            except LayoutError as e:
                if "unknown attribute alias" in str(e):
                    continue  # one it refers to comes later
                out[name] = e  # a reference to it says why it is refused
            del todo[name]
            progressed = True
        if not progressed:
            break
    return out


#: Alias texts Triton's attribute parser takes and we refuse (the start of our message), and why.
REFUSED: dict[str, str] = {
    # Triton's C++ reader takes version 0 (its default) and a 2-entry instrShape, but Gluon refuses
    # both: the layout rows of the same attributes carry Gluon's refusal (checked below)
    "#ttg.amd_mfma: AMDMFMALayout: version must be in 1..4": "version must be in the [1, 4] range",
    "#ttg.amd_mfma: AMDMFMALayout: instr_shape [16, 16] must be [M, N, K]": "instr_shape must follow the (M, N, K) format",
    # Triton diagnoses it ("Unexpected attribute "order" found", the lit test's expected-error in
    # test/TritonGPU/verify-padded-layouts.mlir) and still builds the attribute
    "#ttg.padded_shared: give either offset/block or order/shape, not both": "diagnosed by Triton",
    # block bases inside the offsets' span (`offset = [[1, 0], [0, 1]], block = [[1, 0], [2, 0]]`,
    # test/TritonGPU/verify-padded-layouts.mlir): Triton's reader takes it, but the layout does not
    # factor into a CTA tile and a CGA: a memdesc of it aborts Triton 3.9 as soon as anything asks for
    # its CGA layout (`get_gluon_layout_from_memdesc` -> linearToCGAEncodingAttr: "layout must factor
    # into CTA and CGA layouts", Dialect.cpp:1334, tried 2026-11-24), and Gluon has no spelling for it
    "#ttg.padded_shared: field 'block' must be bases that are whole CTA tiles": "does not factor into CTA and CGA",
}


def test_every_alias_reads_as_triton_prints_it():
    seen: Counter = Counter()
    for r in ATTRS:
        if "error" in r:  # Triton's reader refuses the text (lit's invalid-attribute tests): so do we
            with pytest.raises(LayoutError):
                parse_attr(r["text"], aliases=_env(r["env"]))
            seen["both refuse"] += 1
            continue
        try:
            a = parse_attr(r["text"], aliases=_env(r["env"]))
        except LayoutError as e:
            why = next((v for k, v in REFUSED.items() if k in str(e)), None)
            assert why is not None, f"{r['file']}: we refuse {r['text']!r} which Triton reads as {r['printed']!r}: {e}"
            seen[why] += 1
            continue
        assert to_mlir(a) == r["printed"], (r["file"], r["text"])
        b = parse_attr(r["printed"])
        assert b == a and to_mlir(b) == r["printed"]
        seen["agree"] += 1
    assert seen["agree"] >= 1200 and seen["both refuse"] >= 30
    for why, n in seen.items():  # Gluon's refusals are on record in the layout rows
        if why not in ("agree", "both refuse", "diagnosed by Triton", "does not factor into CTA and CGA"):
            assert any(why in r.get("error", "") for r in ROWS), why


@pytest.mark.parametrize("r", [r for r in ROWS if "linear" in r][::97], ids=lambda r: f"{r['file']}:{r['chunk']}")
def test_sample_round_trips_through_our_printing(r):
    t = parse_type(r["type"])
    assert to_mlir(t.layout) in r["type"]
    assert parse_attr(to_mlir(t.layout)) == t.layout


@pytest.mark.parametrize("family", ["ttg.amd_rotating_shared", "ttg.partitioned_shared", "ttg.generic_linear"])
def test_attributes_without_a_gluon_class_are_values_of_the_mlir_form(family):
    """The lit corpus's attributes that converters.gluon has no class for read as values of the
    registry's ``mlir`` form (an Attribute printing back to Triton's text), with a linear layout."""
    from converters import registry

    r = next(r for r in ATTRS if r["text"].startswith("#" + family) and "printed" in r)
    v = registry.parse(r["printed"], "mlir")
    assert registry.form_of(v).name == "mlir" and str(v) == r["printed"]
    t = next((row for row in ROWS if f"#{family}<" in row["type"]), None)
    if t is not None:
        L = parse_type(t["type"]).to_linear()
        assert L.is_surjective() and list(L.out_dims.values()) == t.get("shape", list(L.out_dims.values()))


def test_partition_bases_complete_trittons_offsets():
    """Triton's Gluon binding drops a partitioned layout's ``partition`` bases; its full layout
    (offset, block, partition) places every element once.  Ours, with Triton's offset and block
    bases, does: the partition bases step along ``partitionDim`` and complete Triton's offsets to a
    bijection onto the tensor."""
    from converters.mlir import PartitionedSharedLayout
    from linlayout.linear import LinearLayout

    checked = 0
    for r in ROWS:
        if "#ttg.partitioned_shared<" not in r["type"] or "linear" not in r:
            continue
        t = parse_type(r["type"])
        assert isinstance(t.layout, PartitionedSharedLayout)
        ours = t.to_linear()
        d = t.layout.partition_dim
        part = [list(b) for b in ours.bases["partition"]]
        assert len(part) == t.layout.num_partitions.bit_length() - 1
        assert all(v == 0 for b in part for i, v in enumerate(b) if i != d)
        full = LinearLayout({**_bases(r["linear"]), "partition": part}, list(ours.out_dims.items()))
        assert full.is_invertible(), r["type"]
        checked += 1
    assert checked >= 5
