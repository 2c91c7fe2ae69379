"""Piecewise plans for non-power-of-two tensors (linlayout.plan_pieces): the 224- and
160-column accumulators to an epilogue layout, head dims 80/96/112; every piece simulated."""

from __future__ import annotations

import numpy as np
import pytest

from linlayout import LayoutError, MixedRadixLayout
from linlayout.errors import UnsupportedError
from linlayout.plan_pieces import plan_pieces, pow2_parts

from converters.tile import parse_tile


def row_per_thread(cols: int, rows: int = 128) -> MixedRadixLayout:
    """What ``tcgen05.ld.32x32b`` leaves in registers: thread ``32w + l`` holds row ``32w + l``,
    register ``r`` column ``r``."""
    return MixedRadixLayout({"register": [(cols, 1, "dim1")], "lane": [(32, 1, "dim0")], "warp": [(rows // 32, 32, "dim0")]},
                            out_dims={"dim0": rows, "dim1": cols})


def blocked_epilogue(cols: int, rows: int = 128, vec: int = 4, tpw_cols: int = 8) -> MixedRadixLayout:
    """A blocked register layout (size_per_thread [1, vec], threads_per_warp [32/tpw_cols, tpw_cols],
    warps [4, 1], order [1, 0]) repeated over the columns: ``cols / (vec * tpw_cols)`` repetitions."""
    per = vec * tpw_cols
    assert cols % per == 0
    tpw_rows = 32 // tpw_cols
    return MixedRadixLayout(
        {"register": [(vec, 1, "dim1"), (cols // per, per, "dim1"), (rows // (4 * tpw_rows), 4 * tpw_rows, "dim0")],
         "lane": [(tpw_cols, vec, "dim1"), (tpw_rows, 1, "dim0")], "warp": [(4, tpw_rows, "dim0")]},
        out_dims={"dim0": rows, "dim1": cols},
    )


def tmem_registers(text: str, shape: tuple[int, int]) -> MixedRadixLayout:
    """The register layout ``tcgen05.ld.32x32b`` gives for a tensor-memory layout in the tile
    notation: (register, lane, warp) -> (TLane, TCol) composed with the layout's inverse."""
    acc = parse_tile(text).place_general(shape)
    lanes, cols = acc.out_dims["TLane"], acc.out_dims["TCol"]
    access = MixedRadixLayout({"register": [(cols, 1, "TCol")], "lane": [(32, 1, "TLane")], "warp": [(lanes // 32, 32, "TLane")]},
                              out_dims={"TLane": lanes, "TCol": cols})
    return access.compose(acc.invert())


def _check(pp, src, dst):
    """The pieces tile the tensor exactly, each side's piece is the original layout on its box,
    and every piece's plan runs correctly."""
    seen = np.zeros([pp.shape[k] for k in pp.shape], dtype=int)
    for p in pp.pieces:
        seen[tuple(slice(s, s + n) for s, n in p.box.values())] += 1
        for side, regs, orig in ((p.src, p.src_registers, src), (p.dst, p.dst_registers, dst)):
            full = np.asarray(orig.table()).reshape(-1, orig.in_dims["register"], 2)  # (threads, registers, dims)
            mine = np.asarray(side.table()).astype(np.int64).reshape(full.shape[0], len(regs), 2)
            start = np.array([s for s, _ in p.box.values()])
            assert np.array_equal(mine + start, full[:, list(regs), :])
    assert (seen == 1).all() and pp.waste == 0
    reps = pp.simulate()
    assert all(r.ok for r in reps), [str(r) for r in reps if not r.ok]
    return reps


def test_pow2_parts():
    assert pow2_parts(224) == [(0, 128), (128, 64), (192, 32)]
    assert pow2_parts(160) == [(0, 128), (128, 32)]
    assert [n for _, n in pow2_parts(112)] == [64, 32, 16]
    assert pow2_parts(64) == [(0, 64)]


def test_224_column_accumulator_to_blocked_epilogue():
    src = tmem_registers("S[(128,2,112):(1@TLane,112@TCol,1@TCol)]", (128, 224))
    assert src.in_dims == {"register": 224, "lane": 32, "warp": 4}
    dst = blocked_epilogue(224)
    pp = plan_pieces(src, dst, bitwidth="fp16")
    assert [p.box["dim1"] for p in pp.pieces] == [(0, 128), (128, 64), (192, 32)]
    assert all(p.box["dim0"] == (0, 128) for p in pp.pieces)
    _check(pp, src, dst)
    assert pp.padded_elements == 128 * 32 and abs(pp.padding_fraction - 0.125) < 1e-12
    assert pp.cost == sum(p.plan.cost for p in pp.pieces) > 0
    print(f"\n224 columns: {pp.describe()}")


@pytest.mark.parametrize("cols", [160, 224])
def test_accumulator_columns(cols):
    src, dst = row_per_thread(cols), blocked_epilogue(cols)
    pp = plan_pieces(src, dst, bitwidth="fp16")
    assert [p.box["dim1"] for p in pp.pieces] == pow2_parts(cols)
    _check(pp, src, dst)
    # the pieces sum to what each thread moves: its registers of the source
    assert sum(len(p.src_registers) for p in pp.pieces) == cols


@pytest.mark.parametrize("head_dim", [80, 96, 112])
def test_head_dims(head_dim):
    """A 128 x head_dim tile from one row per thread to a blocked layout with 16 columns per
    repetition (size_per_thread [1, 4], threads_per_warp [8, 4])."""
    src, dst = row_per_thread(head_dim), blocked_epilogue(head_dim, vec=4, tpw_cols=4)
    pp = plan_pieces(src, dst, bitwidth="bf16")
    assert [p.box["dim1"] for p in pp.pieces] == pow2_parts(head_dim)
    _check(pp, src, dst)
    assert pp.total("stores") > 0 and pp.shared_bytes > 0


def test_pieces_are_halved_where_a_side_needs_it():
    """Columns interleaved across the halves of a 2-register digit: the 96-wide box [0, 64) is not
    held in one register set by the source, so it is halved until it is."""
    src = MixedRadixLayout({"register": [(2, 48, "dim1"), (48, 1, "dim1")], "lane": [(32, 1, "dim0")], "warp": [(4, 32, "dim0")]},
                           out_dims={"dim0": 128, "dim1": 96})
    dst = row_per_thread(96)
    pp = plan_pieces(src, dst, bitwidth=16)
    _check(pp, src, dst)
    assert len(pp.pieces) > 2


def test_refusals():
    # element i of 96 at lane i // 3, register i % 3: every power-of-two box splits a thread's
    # registers unevenly or is held by some threads only
    threes = MixedRadixLayout({"register": [(3, 1, "dim0")], "lane": [(32, 3, "dim0")]}, out_dims={"dim0": 96})
    strided = MixedRadixLayout({"lane": [(32, 1, "dim0")], "register": [(3, 32, "dim0")]}, out_dims={"dim0": 96})
    with pytest.raises(UnsupportedError, match="no piecewise plan: on the box dim0"):
        plan_pieces(threes, strided)
    with pytest.raises(LayoutError, match="same hardware"):
        plan_pieces(row_per_thread(96), MixedRadixLayout({"register": [(96, 1, "dim1"), (2, 64, "dim0")], "lane": [(32, 1, "dim0")],
                                                          "warp": [(2, 32, "dim0")]}, out_dims={"dim0": 128, "dim1": 96}))
    with pytest.raises(LayoutError, match="not a distributed layout"):
        plan_pieces(MixedRadixLayout({"x": [(96, 1, "dim0")]}), MixedRadixLayout({"x": [(96, 1, "dim0")]}))


def test_forms_reaching_mixed_radix_via_as_layout():
    """A CuTe TV layout of a 128 x 80 tile (thread t holds row t, value v column v) is not GF(2);
    ``as_layout`` gives its mixed-radix form and the planner splits it like the others."""
    from converters.cute.layout import Layout
    from converters.cute.tv import TVLayout

    tv = TVLayout(Layout((128, 80), (1, 128)), (128, 80))
    same = plan_pieces(tv, row_per_thread(80))
    assert [p.plan.kind for p in same.pieces] == ["noop", "noop"] and same.cost == 0
    pp = plan_pieces(tv, blocked_epilogue(80, vec=4, tpw_cols=4), bitwidth=16)
    assert [p.box["dim1"] for p in pp.pieces] == [(0, 64), (64, 16)]
    assert all(r.ok for r in pp.simulate())
