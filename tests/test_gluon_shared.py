"""converters.gluon.shared: Gluon shared layouts -> LinearLayout, bit-exact with Triton 3.9."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import linlayout
from conftest import load_oracle, oracle_generator
from converters.gluon.shared import (
    NVMMASharedLayout,
    PaddedSharedLayout,
    SharedLinearLayout,
    SwizzledSharedLayout,
    shared_from_dict,
)
from linlayout import LayoutError, LinearLayout
from linlayout.errors import (
    BasisError,
    DimensionError,
    NotLinearError,
    NotSurjectiveError,
    SizeError,
    SwizzleError,
    UnsupportedError,
)
from linlayout.swizzle import Swizzle, swizzle_for


def _shared_rows():
    return [r for r in load_oracle("triton-3.9/gluon_ll.jsonl") if "Shared" in r["layout"]["kind"]]


def test_gluon_ll_shared_rows_bit_exact():
    rows = _shared_rows()
    linear = [r for r in rows if "error" not in r]
    refused = [r for r in rows if "error" in r]
    agree = 0
    for r in linear:
        L = shared_from_dict(r["layout"]).to_linear(r["shape"])
        assert [list(b) for b in L.bases["offset"]] == r["linear"]["offset"], (r["layout"], r["shape"])
        assert [list(b) for b in L.bases["block"]] == r["linear"]["block"]
        assert list(L.out_dims.values()) == r["shape"]
        agree += 1
    # Triton aborts on these (a tile smaller than one swizzle row / core matrix): we refuse too
    for r in refused:
        with pytest.raises(NotSurjectiveError, match="Triton aborts"):
            shared_from_dict(r["layout"]).to_linear(r["shape"])
    assert (agree, len(refused)) == (386, 77)


def test_nvmma_swizzle_is_the_mode_swizzle():
    """Inside one 8-row atom, NVMMA's layout is the row-major tile with the mode's element swizzle."""
    for bits in (8, 16, 32):
        for w in (32, 64, 128):
            cols = 8 * w // bits
            L = NVMMASharedLayout(w, bits).to_linear([8, cols])
            sw = swizzle_for(bits, w)
            assert sw == NVMMASharedLayout(w, bits).swizzle()
            for o in range(8 * cols):
                c = L(offset=o)
                assert sw(c["dim0"] * cols + c["dim1"]) == o


def test_swizzled_shared_is_the_triton_swizzle():
    lay = SwizzledSharedLayout(4, 2, 4, [1, 0])
    L = lay.to_linear([16, 32])
    sw = lay.swizzle(32)
    assert sw == Swizzle.from_triton(4, 2, 4, 32)
    for o in range(16 * 32):
        c = L(offset=o)
        assert sw(c["dim0"] * 32 + c["dim1"]) == o


def test_dict_round_trip_and_equality():
    for r in _shared_rows()[:50]:
        lay = shared_from_dict(r["layout"])
        assert shared_from_dict(lay.to_dict()) == lay
        assert hash(shared_from_dict(lay.to_dict())) == hash(lay)
    with pytest.raises(LayoutError, match="BlockedLayout is not a shared layout"):
        shared_from_dict({"kind": "BlockedLayout"})
    with pytest.raises(LayoutError, match="unknown field"):
        shared_from_dict({"kind": "SwizzledSharedLayout", "vec": 1, "per_phase": 1, "max_phase": 1, "order": [0], "x": 1})


def test_bad_input():
    with pytest.raises(SwizzleError, match="0, 32, 64 or 128"):
        NVMMASharedLayout(48, 16)
    with pytest.raises(SizeError):
        NVMMASharedLayout(128, 12)
    with pytest.raises(SwizzleError):
        SwizzledSharedLayout(0, 1, 1, [1, 0])
    with pytest.raises(DimensionError):
        SwizzledSharedLayout(1, 1, 1, [1, 1])
    with pytest.raises(DimensionError):
        NVMMASharedLayout(128, 16).to_linear([64, 64, 64])  # rank 2 layout, rank 3 shape
    with pytest.raises(SizeError, match="power of two"):
        NVMMASharedLayout(128, 16).to_linear([64, 96])
    with pytest.raises(NotSurjectiveError, match="too small"):
        NVMMASharedLayout(128, 16).to_linear([64, 32])  # a 128-byte row needs 64 fp16 columns
    with pytest.raises(BasisError, match="permutation matrix"):
        SwizzledSharedLayout(1, 1, 1, [1, 0], cga_layout=[[1, 0], [1, 0]])
    with pytest.raises(BasisError, match="permutation matrix"):
        NVMMASharedLayout(0, 16, cga_layout=[[2, 0]])


def test_shared_linear_layout_must_cover_the_tensor():
    lay = SharedLinearLayout([[0, 1], [0, 2], [1, 0]])
    assert lay.to_linear([2, 4]) == LinearLayout({"offset": [[0, 1], [0, 2], [1, 0]], "block": []}, {"dim0": 2, "dim1": 4})
    with pytest.raises(NotSurjectiveError, match="does not cover"):
        lay.to_linear([4, 4])
    assert SharedLinearLayout.from_linear(lay.to_linear()) == lay


def test_padded_is_not_linear():
    lay = PaddedSharedLayout([[8, 1]], [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], [], [8, 4])
    with pytest.raises(NotLinearError, match="not\\s+linear over GF\\(2\\)"):
        lay.to_linear([8, 4])
    # Gluon's documented example: rows 0, 2 | pad | rows 4, 6 | pad | rows 1, 3 | pad | rows 5, 7
    table = lay.table()
    assert table[0] == ((0, 0), 0) and table[4] == ((2, 0), 4) and table[8] == ((4, 0), 9)
    assert table[16] == ((1, 0), 18)


def test_padded_as_a_general_layout():
    lay = PaddedSharedLayout([[8, 1]], [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], [], [8, 4])
    g = lay.offset_general()
    assert not g.is_linear()
    assert all(g.apply(dim0=c[0], dim1=c[1]) == {"offset": a} for c, a in lay.table())
    assert lay.offset_general([8, 4]) == g
    with pytest.raises(NotSurjectiveError, match="span shape"):
        lay.offset_general([8, 8])
    with pytest.raises(UnsupportedError, match="offset basis 2 = \\[2, 1\\]"):
        PaddedSharedLayout([[8, 1]], [[0, 1], [0, 2], [2, 1], [4, 0], [1, 0]], [], [8, 4]).offset_general()
    with pytest.raises(NotSurjectiveError, match="do not reach"):
        PaddedSharedLayout([[8, 1]], [[0, 1], [0, 2], [2, 0], [4, 0]], [], [8, 4]).offset_general()
    # the contract's direction (padded address -> coordinates) is not a function: refused
    with pytest.raises(UnsupportedError, match="padding slots hold no element"):
        lay.to_general()
    with pytest.raises(NotSurjectiveError, match="span shape"):
        lay.to_general([8, 8])
    with pytest.raises(NotSurjectiveError, match="to_general: the offset bases .* do not reach"):
        PaddedSharedLayout([[8, 1]], [[0, 1], [0, 2], [2, 0], [4, 0]], [], [8, 4]).to_general()
    # equivalence compares the memory maps: an interval past the tensor pads nothing
    wider = PaddedSharedLayout([[8, 1], [64, 2]], lay.offset_bases, [], [8, 4])
    e = linlayout.equivalent(lay, wider, shape=[8, 4])
    assert (e.relation, e.method) == ("identical", "memory map")
    more = PaddedSharedLayout([[8, 1], [16, 2]], lay.offset_bases, [], [8, 4])
    e = linlayout.equivalent(lay, more, shape=[8, 4])
    assert (e.relation, e.method) == ("different", "memory map") and e.counterexample is not None
    # a padded layout is never "equivalent" to a layout of another kind: refused, not answered
    with pytest.raises(linlayout.LayoutError):
        linlayout.equivalent(lay, lay.offset_layout())


@st.composite
def padded_layouts(draw):
    rank = draw(st.integers(1, 2))
    shape = [1 << draw(st.integers(0, 4)) for _ in range(rank)]
    bits = [[0] * d + [1 << k] + [0] * (rank - d - 1) for d in range(rank) for k in range(shape[d].bit_length() - 1)]
    bases = draw(st.permutations(bits))
    for _ in range(draw(st.integers(0, 2))):  # zero bases: elements stored twice
        bases.insert(draw(st.integers(0, len(bases))), [0] * rank)
    intervals = draw(st.lists(st.integers(0, 6), min_size=1, max_size=3, unique=True))
    pairs = [[1 << i, 1 << draw(st.integers(0, 3))] for i in intervals]
    return PaddedSharedLayout(pairs, bases, [], shape)


@given(padded_layouts())
def test_offset_general_is_the_padded_memory_map(lay):
    """Every offset's padded address is one of the places the memory map (offset_general) gives its element."""
    g = lay.offset_general()
    for coord, addr in lay.table():
        places = g.apply_all({f"dim{d}": x for d, x in enumerate(coord)})
        assert {"offset": addr} in places
    assert g.size * g.num_replicas == 1 << len(lay.offset_bases)


def test_cga_blocks_scale_by_the_cta_tile():
    L = NVMMASharedLayout(128, 16, cga_layout=[[1, 0]]).to_linear([16, 64])
    assert L.bases["block"] == ((8, 0),)
    assert L.in_dim_size("offset") == 8 * 64


_CHILD = r"""
import sys, json, os
from triton._C.libtriton import ir, gluon_ir
import triton.experimental.gluon.language as gl
ctx = ir.context(); ir.load_dialects(ctx)
b = gluon_ir.GluonOpBuilder(ctx)
for line in sys.stdin:
    d, shape = json.loads(line)
    kind = d.pop("kind")
    r = b.to_linear_layout(getattr(gl, kind)(**d)._to_ir(b), shape)
    print("R " + json.dumps([r.offset_bases, r.block_bases]), flush=True)
os._exit(0)
"""


_DIST = oracle_generator("triton-3.9-generated/make_gluon_dist.py")  # its random CGA layouts


def _random_cases(n: int, seed: int):
    rnd = random.Random(seed)
    cases = []
    while len(cases) < n:
        rank = rnd.choice([2, 2, 3])
        shape = [2 ** rnd.randint(1, 8) for _ in range(rank)]
        cga = _DIST.cga(rnd, rank)  # a permutation matrix, sometimes with a broadcast basis
        if rnd.random() < 0.7:
            bits = rnd.choice([8, 16, 32])
            d = {"kind": "NVMMASharedLayout", "swizzle_byte_width": rnd.choice([0, 32, 64, 128]),
                 "element_bitwidth": bits, "rank": rank, "transposed": rnd.random() < 0.5,
                 "fp4_padded": bits == 8 and rnd.random() < 0.4, "cga_layout": cga}
        else:
            order = list(range(rank))
            rnd.shuffle(order)
            d = {"kind": "SwizzledSharedLayout", "vec": 2 ** rnd.randint(0, 3), "per_phase": 2 ** rnd.randint(0, 3),
                 "max_phase": 2 ** rnd.randint(0, 3), "order": order, "cga_layout": cga}
        try:
            ours = shared_from_dict(d).to_linear(shape)
        except LayoutError:
            continue  # Triton aborts on those; the oracle test covers refusals
        if not ours.bases["offset"]:
            continue  # one element per CTA: Triton's Python SharedLinearLayout cannot hold it
        cases.append((d, shape, [[list(b) for b in ours.bases["offset"]], [list(b) for b in ours.bases["block"]]]))
    return cases


@pytest.mark.reference
def test_random_layouts_agree_with_installed_triton():
    pytest.importorskip("triton.experimental.gluon.language")
    cases = _random_cases(200, seed=int(os.environ.get("LINLAYOUT_SEED", "7")))
    inp = "".join(json.dumps([dict(d), s]) + "\n" for d, s, _ in cases)
    p = subprocess.run([sys.executable, "-c", _CHILD], input=inp, capture_output=True, text=True, timeout=120)
    got = [json.loads(line[2:]) for line in p.stdout.splitlines() if line.startswith("R ")]
    assert len(got) == len(cases), p.stderr[-2000:]
    for (d, s, ours), theirs in zip(cases, got):
        assert ours == theirs, (d, s)


def test_padded_to_general_checks_without_building_the_memory_map(monkeypatch):
    """to_general refuses after the memory map's checks, without building the map (a
    MixedRadixLayout over every coordinate bit) only to throw it away."""
    import linlayout.mixed_radix

    def no_map(*args, **kwargs):
        raise AssertionError("to_general built the memory map")

    monkeypatch.setattr(linlayout.mixed_radix, "MixedRadixLayout", no_map)
    lay = PaddedSharedLayout([[8, 1]], [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], [], [8, 4])
    with pytest.raises(UnsupportedError, match="padding slots hold no element"):
        lay.to_general()
    with pytest.raises(AssertionError, match="built the memory map"):
        lay.offset_general()  # the patch is seen by the memory map itself
