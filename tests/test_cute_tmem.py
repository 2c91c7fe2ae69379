"""SM100 UMMA: the two-CTA (``2x1SM``) atoms and the tensor-memory fragments (CuTe's ``tmem_frg``).

Oracles: ``tests/oracles/cute-cpp/tmem.jsonl`` and ``atoms.jsonl``, printed by CuTe C++ compiled
from CUTLASS's headers (``UMMA::tmem_frg<...>::make(shape).layout()`` and ``MMA_Traits<...>``'s
``Shape_MNK``, ``ThrID``, ``ALayout``, ``BLayout``, ``CLayout``); and Gluon's
``TensorMemoryLayout`` (itself checked against Triton 3.9), compared through ``equivalent``.
"""

from __future__ import annotations

import json
import pathlib

import pytest

from converters import gluon
from converters.cute import TmemLayout, atoms, mma_atom, parse, parse_tmem, tmem_frg
from linlayout import LinearLayout
from linlayout.contract import Kind, kind_of
from linlayout.equiv import equivalent
from linlayout.errors import LayoutError, NotLinearError, SizeError, UnsupportedError

HERE = pathlib.Path(__file__).parent / "oracles" / "cute-cpp"
TMEM_ROWS = [json.loads(x) for x in (HERE / "tmem.jsonl").read_text().splitlines()]
ATOM_ROWS = [json.loads(x) for x in (HERE / "atoms.jsonl").read_text().splitlines()]


def _shape(row):
    (m, n), *rest = row["shape"]
    return ((m, n), *rest)


def test_corpus_covers_ctas_modes_and_widths():
    assert len(TMEM_ROWS) >= 400 and len(ATOM_ROWS) >= 90
    assert {(r["ctas"], r["mode"]) for r in TMEM_ROWS} == {(1, "interleaved"), (1, "noninterleaved"),
                                                           (2, "interleaved"), (2, "duplicated")}
    assert {r["value_bits"] for r in TMEM_ROWS} == {8, 16, 32}
    assert sum("2x1SM" in r["name"] for r in ATOM_ROWS) >= 40


def test_tmem_frg_is_cpp_on_every_row():
    bad = []
    for row in TMEM_ROWS:
        ours = tmem_frg(row["value_bits"], _shape(row), ctas=row["ctas"], mode=row["mode"], storage_bits=row["storage_bits"])
        if ours != parse(row["result"]):
            bad.append((row, str(ours)))
    assert not bad, bad[:5]


def test_umma_atoms_are_cpp_traits():
    for row in ATOM_ROWS:
        a = mma_atom(row["name"])
        assert a.shape_mnk == tuple(int(x) for x in row["shape_mnk"].strip("()").replace("_", "").split(","))
        assert a.num_threads == parse(row["thr_id"]).size()
        for side in ("a", "b", "c"):
            assert getattr(a, side).layout == parse(row[side]), (row["name"], side)


def test_two_cta_atoms_split_rows_between_the_peers():
    a = mma_atom("SM100_MMA_F16BF16_2x1SM_SS_256x128x16")
    assert a.num_threads == 2 and a.shape_mnk == (256, 128, 16)
    # peer 1 holds rows 128.. of A and C, rows 64.. of B (CLayout = (2,(M/2,N)):(M/2,(1,M)))
    assert a.c(1, 0) == (128, 0) and a.c(1, 127 + 128 * 5) == (255, 5)
    assert a.a(1, 3) == (131, 0) and a.b(1, 64 * 2 + 1) == (65, 2)
    names = atoms("mma")
    assert "SM100_MMA_S8_2x1SM_TS_128x32x32" in names and "SM100_MMA_S8_2x1SM_SS_128x48x32" not in names
    assert "SM100_MMA_TF32_2x1SM_SS_128x16x8" in names and "SM100_MMA_TF32_2x1SM_TS_128x16x8" not in names
    with pytest.raises(LayoutError, match="unknown MMA atom"):
        mma_atom("SM100_MMA_F16BF16_2x1SM_SS_64x64x16")  # two CTAs run M = 128 or 256
    assert "SM100_MMA_F16BF16_TS_128x24x16" not in names  # tensor-memory A, M = 128: N a multiple of 16
    assert "SM100_MMA_F16BF16_TS_64x24x16" in names


GLUON_CASES = [  # (M, N, ctas, value bits, storage bits, Gluon block, col_stride)
    (m, n, ctas, vb, sb, [m // ctas, n], sb // vb)
    for ctas, ms in ((1, (64, 128)), (2, (128, 256)))
    for m in ms
    for n in (16, 64, 256)
    for vb, sb in ((32, 32), (16, 32), (16, 16), (8, 32), (8, 8))
]


@pytest.mark.parametrize("m, n, ctas, vb, sb, block, cs", GLUON_CASES)
def test_accumulator_is_gluons_tensor_memory_layout(m, n, ctas, vb, sb, block, cs):
    t = TmemLayout.accumulator(m, n, ctas=ctas, value_bits=vb, storage_bits=sb)
    g = gluon.TensorMemoryLayout(block, cs, cga_layout=[[1, 0]] if ctas == 2 else [], two_ctas=ctas == 2)
    e = equivalent(t, g, shape=[m, n])
    assert e, (str(t), e.relation, e.counterexample, e.reason)
    assert kind_of(t) is Kind.TENSOR_MEMORY
    assert TmemLayout.from_linear(t.to_linear(), vb) == t
    assert parse(str(t)) == t and parse_tmem(str(t)) == t


@pytest.mark.parametrize("m, n, tiles", [(64, 64, (2, 1)), (64, 32, (2, 2)), (128, 64, (1, 2)), (128, 32, (2, 2))])
def test_tiled_fragments_are_gluons_blocks(m, n, tiles):
    # C++ tiles the atom in data paths first (an M = 64 tile's neighbour sits 16 lanes lower), then columns:
    # Gluon's TensorMemoryLayout([m, n]) over the tiled tensor places its blocks the same way
    t = TmemLayout.from_frg(tmem_frg(32, ((m, n), *tiles)))
    shape = [m * tiles[0], n * tiles[1]]
    assert t.tile == tuple(shape)
    assert equivalent(t, gluon.TensorMemoryLayout([m, n], 1), shape=shape)


@pytest.mark.parametrize("name", ["SM100_MMA_F16BF16_SS_128x256x16", "SM100_MMA_TF32_TS_64x64x8",
                                  "SM100_MMA_F16BF16_2x1SM_SS_128x64x16", "SM100_MMA_F8F6F4_2x1SM_TS_256x256x32"])
def test_atom_accumulators_in_tensor_memory(name):
    a = mma_atom(name)
    M, N, _ = a.shape_mnk
    two = a.num_threads == 2
    g = gluon.TensorMemoryLayout([M // a.num_threads, N], 1, cga_layout=[[1, 0]] if two else [], two_ctas=two)
    assert equivalent(a.tmem_c(), g, shape=[M, N])
    # the peer CTA's rows are the block in-dim, the accumulator's TV layout says the same split
    L = a.tmem_c().to_linear()
    assert ("block" in L.in_dims) == two
    if two:
        assert L.bases["block"] == ((M // 2, 0),) and a.c(1, 0) == (M // 2, 0)


@pytest.mark.parametrize("name, bits", [("SM100_MMA_F16BF16_TS_128x64x16", 16), ("SM100_MMA_TF32_TS_64x32x8", 32),
                                        ("SM100_MMA_S8_TS_128x64x32", 8), ("SM100_MMA_F8F6F4_TS_64x128x32", 8)])
def test_tensor_memory_a(name, bits):
    a = mma_atom(name)
    M, _, K = a.shape_mnk
    t = a.tmem_a()
    assert t.value_bits == bits and t.tile == (M, K)
    assert t.layout == TmemLayout.from_frg(tmem_frg(bits, ((M, K), 1, 1), mode="noninterleaved", storage_bits=bits)).layout
    assert equivalent(t, gluon.TensorMemoryLayout([M, K], 1), shape=[M, K])  # packed: column stride 1
    with pytest.raises(UnsupportedError, match="Duplicated"):
        mma_atom(name.replace("_TS_", "_2x1SM_TS_").replace("_64x", "_128x").replace("x32x8", "x32x8")).tmem_a()


def test_refusals():
    with pytest.raises(UnsupportedError, match="not a tcgen05"):
        mma_atom("SM90_64x64x16_F32F16F16_SS").tmem_c()
    with pytest.raises(SizeError, match="64 or 128 rows"):
        tmem_frg(32, ((32, 64), 1, 1))
    with pytest.raises(LayoutError, match="not duplicated"):
        tmem_frg(32, ((64, 64), 1, 1), mode="duplicated")
    with pytest.raises(LayoutError, match="UMMA::TmemAllocMode"):
        tmem_frg(32, ((64, 64), 1, 1), mode="packed")
    with pytest.raises(SizeError, match="4, 8, 16 or 32"):
        TmemLayout.accumulator(128, 64, value_bits=64)
    with pytest.raises(NotLinearError, match="not a power of two"):
        TmemLayout.accumulator(128, 24).to_linear()
    with pytest.raises(SizeError, match="not the requested shape"):
        TmemLayout.accumulator(128, 64).to_linear([64, 128])
    skew = LinearLayout({"row": [[1, 1]] + [[0, 0]] * 6, "col": [[1, 0]]}, {"dim0": 2, "dim1": 2})
    with pytest.raises(UnsupportedError, match="one address bit"):
        TmemLayout.from_linear(skew)
    # the scale factors' layout is a placement too (each lane quarter a copy: unused lane bits)
    sc = gluon.TensorMemoryScalesLayout().to_linear([128, 8])
    assert TmemLayout.from_linear(sc).to_linear() == sc
    with pytest.raises(LayoutError):
        parse_tmem("tmem (128,64):(65536,1)")
