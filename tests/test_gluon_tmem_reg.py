"""Register layouts of tensor-memory loads and stores (converters.gluon.tmem.tmem_reg_layout) against Triton 3.9.

The generated corpus triton-3.9-generated/tmem_reg.jsonl holds Triton's own answers
(``_compute_tmem_reg_layout``, what Gluon's ``get_reg_layout`` calls): every accepted row must be
bit-exact, every refused row refused with a ``LayoutError``.  Hypothesis checks the hardware
contract on random configurations: the layout covers the tensor, and warp ``w`` only touches the
tensor-memory lanes ``32 (w % 4) .. 32 (w % 4) + 31``.
"""

from __future__ import annotations

import collections

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from conftest import compare_with_live_triton, load_oracle
from converters import gluon
from converters.gluon import TensorMemoryLayout, TensorMemoryScalesLayout, canonical, tmem_reg_layout
from linlayout.errors import LayoutError, SizeError, UnsupportedError

ROWS = load_oracle("triton-3.9-generated/tmem_reg.jsonl")


def _ours(row: dict) -> dict:
    got = tmem_reg_layout(
        gluon.from_dict(row["tmem"]),
        row["shape"],
        element_bitwidth=row["bitwidth"],
        num_warps=row["num_warps"],
        instr_variant=row["instr_variant"],
        alloc_shape=row["alloc_shape"],
    )
    assert list(got.shape) == list(row["shape"])
    return {
        "register": [list(v) for v in got.reg_bases],
        "lane": [list(v) for v in got.lane_bases],
        "warp": [list(v) for v in got.warp_bases],
        "block": [list(v) for v in got.block_bases],
    }


def test_the_corpus_covers_every_variant_accepted_and_refused():
    seen = collections.Counter((r["instr_variant"], "error" in r) for r in ROWS)
    for v in gluon.TMEM_INSTR_VARIANTS:
        assert seen[(v, False)] >= 20 and seen[(v, True)] >= 5, v
    assert len(ROWS) == 1768


@pytest.mark.parametrize("variant", sorted({r["instr_variant"] for r in ROWS}))
def test_every_row_matches_triton(variant):
    rows = [r for r in ROWS if r["instr_variant"] == variant]
    for row in rows:
        where = {k: row[k] for k in ("tmem", "element_ty", "shape", "alloc_shape", "num_warps", "instr_variant")}
        if "error" in row:
            with pytest.raises(LayoutError) as e:
                _ours(row)
            assert str(e.value), where
        else:
            assert _ours(row) == row["linear"], where


def test_the_fp32_accumulator_load():
    """One row per lane, 32 lanes per warp, four warps for 128 rows; the columns in registers."""
    r = TensorMemoryLayout([128, 128], 1).reg_layout([128, 128], element_bitwidth=32)
    assert r.lane_bases == tuple((1 << i, 0) for i in range(5))
    assert r.warp_bases == ((32, 0), (64, 0))
    assert r.reg_bases == tuple((0, 1 << i) for i in range(7))
    # eight warps: the second warpgroup takes the right half of the columns
    r8 = TensorMemoryLayout([128, 128], 1).reg_layout([128, 128], element_bitwidth=32, num_warps=8)
    assert r8.warp_bases[-1] == (0, 64) and len(r8.reg_bases) == 6


def test_split_n_puts_the_column_half_in_the_last_register():
    t = TensorMemoryLayout([128, 64], 1)
    r = tmem_reg_layout(t, [128, 64], element_bitwidth=32, num_warps=8, instr_variant="32x32b_splitn")
    plain = tmem_reg_layout(t, [128, 64], element_bitwidth=32, num_warps=8)
    assert plain.reg_bases[-1] == (0, 16) and plain.warp_bases[-1] == (0, 32)
    # the column half moved from the third warp basis into the last register: a swap
    assert r.reg_bases == plain.reg_bases[:-1] + ((0, 32),)
    assert r.warp_bases == plain.warp_bases[:-1] + ((0, 16),)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(instr_variant="16x32bx2"), LayoutError, "infers 16x32bx2"),
        (dict(instr_variant="64x64b"), LayoutError, "unknown instr_variant"),
        (dict(num_warps=2), SizeError, "num_warps"),
        (dict(num_warps=12), SizeError, "num_warps"),
        (dict(element_bitwidth=64), UnsupportedError, "element_bitwidth"),
        (dict(alloc_shape=[128, 32]), SizeError, "alloc_shape"),
    ],
)
def test_bad_arguments_are_named(kwargs, error, match):
    args = dict(element_bitwidth=32, num_warps=4, instr_variant="32x32b")
    args.update(kwargs)
    with pytest.raises(error, match=match):
        tmem_reg_layout(TensorMemoryLayout([128, 64], 1), [128, 64], **args)


def test_refusals_say_why():
    with pytest.raises(SizeError, match="col_stride"):
        tmem_reg_layout(TensorMemoryLayout([128, 64], 2), [128, 64], element_bitwidth=32)
    with pytest.raises(LayoutError, match="16x256b access cannot load"):
        tmem_reg_layout(TensorMemoryLayout([128, 4], 1), [128, 4], element_bitwidth=32, instr_variant="16x256b")
    with pytest.raises(SizeError, match="scale factors are 8-bit"):
        tmem_reg_layout(TensorMemoryScalesLayout(), [128, 16], element_bitwidth=16)
    with pytest.raises(LayoutError, match="TensorMemoryLayout"):
        tmem_reg_layout(gluon.parse("BlockedLayout([1], [32], [4], [0])"), [128], element_bitwidth=32)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ the hardware contract
@st.composite
def tmem_configs(draw):
    bits = draw(st.sampled_from([8, 16, 32]))
    bm = draw(st.sampled_from([64, 128]))
    bn = 1 << draw(st.integers(0, 8))
    cs = draw(st.sampled_from(sorted({1, 32 // bits} & {1, 2, 4})))
    m = bm << draw(st.integers(0, 2))
    n = max(1, (bn << 2) >> draw(st.integers(0, 4)))  # from a quarter of the block to 4 blocks
    nw = draw(st.sampled_from([4, 8, 16]))
    variant = draw(st.sampled_from(gluon.TMEM_INSTR_VARIANTS))
    cga = draw(st.sampled_from([[], [], [[1, 0]], [[0, 1]], [[1, 0], [0, 1]], [[0, 0]]]))
    two = bool(cga) and cga[0] == [1, 0] and draw(st.booleans())
    shape = [m << sum(1 for b in cga if b[0]), n << sum(1 for b in cga if b[1])]  # each CTA keeps its tile
    return TensorMemoryLayout([bm, bn], cs, cga_layout=cga, two_ctas=two), shape, bits, nw, variant


@given(tmem_configs())
def test_each_warp_stays_in_its_lane_quarter(cfg):
    t, shape, bits, nw, variant = cfg
    try:
        reg = tmem_reg_layout(t, shape, element_bitwidth=bits, num_warps=nw, instr_variant=variant)
    except LayoutError:
        assume(False)
        return
    L = reg.to_linear(shape)
    assert L.is_surjective()
    # the lane quarters (rows // 32) of tensor memory holding each element (flat dim0-fastest
    # index; the in-dims are row, col and, over several CTAs, block, row fastest)
    mem = t.to_linear(shape)
    quarters = np.zeros(shape[0] * shape[1], dtype=np.int64)
    row_of_input = np.arange(1 << mem.total_in_size_log2) % 128  # in-dims (row, col): row fastest
    np.bitwise_or.at(quarters, mem.flat_table(), 1 << (row_of_input // 32))
    # the warp of each (register, lane, warp) input, and the element it reaches
    reg_bits = L.in_dim_size_log2("register")
    warp_of_input = (np.arange(1 << L.total_in_size_log2) >> (reg_bits + 5)) % nw
    reached = quarters[L.flat_table()]
    assert np.all(reached & (1 << (warp_of_input % 4))), f"a warp leaves its lane quarter: {reg}"


@pytest.mark.reference
def test_live_triton_on_fresh_random_configs():
    pytest.importorskip("triton")
    compare_with_live_triton("triton-3.9-generated/make_tmem_reg.py", _ours, lambda case: [case], count=60)


# ------------------------------------------------------------------------------ several CTAs
def test_tensor_memory_over_several_ctas():
    """Each CTA keeps its own tile; the block bases say where (Triton 3.9's to_linear_layout prints
    the per-CTA rows/cols below; the block bases are checked through the register corpus)."""
    t = TensorMemoryLayout([128, 64], 1, cga_layout=[[1, 0]])
    L = t.to_linear([256, 64])
    assert L.bases["row"] == tuple((1 << i, 0) for i in range(7))
    assert L.bases["col"] == tuple((0, 1 << i) for i in range(6))
    assert L.bases["block"] == ((128, 0),)
    # two CTAs sharing a 128-row MMA with 64-row blocks: each CTA's 64 rows fill all 128 lanes,
    # lanes 64-127 holding the right half of the block's columns
    pair = TensorMemoryLayout([64, 8], 1, cga_layout=[[1, 0]], two_ctas=True).to_linear([128, 16])
    assert pair.bases["row"] == ((1, 0), (2, 0), (4, 0), (8, 0), (16, 0), (32, 0), (0, 4))
    assert pair.bases["col"] == ((0, 1), (0, 2), (0, 8))
    assert pair.bases["block"] == ((64, 0),)
    # the split is over column slots: with col_stride 2 and one column, lanes 64-127 get padding
    thin = TensorMemoryLayout([64, 1], 2, cga_layout=[[1, 0]], two_ctas=True).to_linear([128, 1])
    assert thin.bases["row"][-1] == (0, 0) and thin.bases["col"] == ()
    with pytest.raises(SizeError, match="no column slots"):
        TensorMemoryLayout([64, 1], 1, cga_layout=[[1, 0]], two_ctas=True).to_linear([128, 1])


@st.composite
def _tmem_over_ctas(draw):
    """A tensor-memory layout with a CGA (any mix of CTAs along M and N, some broadcast) and a
    shape that gives each CTA at least a block's rows."""
    cga = []
    steps = [1, 1]
    for _ in range(draw(st.integers(0, 3))):
        d = draw(st.sampled_from([0, 1, None]))
        if d is None:
            cga.append([0, 0])
        else:
            cga.append([steps[0], 0] if d == 0 else [0, steps[1]])
            steps[d] *= 2
    shape = [steps[0] * draw(st.sampled_from([64, 128, 256])), draw(st.sampled_from([1, 2, 8, 64, 256, 1024]))]
    if draw(st.booleans()):
        return TensorMemoryScalesLayout(cga), shape
    bm = draw(st.sampled_from([64, 128]))
    assume(shape[0] >= bm * steps[0])
    return TensorMemoryLayout([bm, draw(st.sampled_from([1, 8, 64, 512]))], draw(st.sampled_from([1, 2, 4])),
                              cga_layout=cga), shape


@given(_tmem_over_ctas())
def test_tensor_memory_over_ctas_is_its_cta_tile_plus_blocks(case):
    """to_linear over several CTAs (packed in one step) is one CTA's tile (cta_linear of the part
    cta_split gives it, as Triton prints it) with the block bases cta_split computes."""
    tmem, shape = case
    try:
        per, _, blocks = tmem.cta_split(shape)
        cta = tmem.cta_linear(per)
    except SizeError:
        with pytest.raises(SizeError):
            tmem.to_linear(shape)
        return
    L = tmem.to_linear(shape)
    assert L.out_dims == {"dim0": shape[0], "dim1": shape[1]}
    assert L.bases["row"] == cta.bases["row"] and L.bases["col"] == cta.bases["col"]
    assert L.bases.get("block", ()) == tuple(blocks)


@pytest.mark.parametrize(
    "tmem, shape",
    [
        (TensorMemoryLayout([128, 64], 1, cga_layout=[[1, 0]]), [256, 64]),
        (TensorMemoryLayout([64, 8], 1, cga_layout=[[1, 0]], two_ctas=True), [128, 16]),
        (TensorMemoryLayout([64, 32], 2, cga_layout=[[0, 1], [1, 0]]), [128, 128]),
        (TensorMemoryScalesLayout([[0, 1]]), [128, 16]),
        (TensorMemoryLayout([128, 512], 1, cga_layout=[[0, 1]]), [128, 256]),  # block cut to a CTA's 128
        (TensorMemoryLayout([64, 64], 1, cga_layout=[[0, 1]]), [128, 64]),
        (TensorMemoryLayout([128, 64], 1, fp4_padded=True), [128, 64]),
    ],
)
def test_tensor_memory_spellings(tmem, shape):
    L = tmem.to_linear(shape)
    found = gluon.spellings(L)
    canon = canonical(tmem, shape)
    assert canon in found
    assert (tmem in found) == (canon == tmem)  # the original is listed exactly when it is canonical
    if isinstance(canon, TensorMemoryLayout):  # the canonical block is no wider than a CTA's tile
        assert canon.block[1] <= canon.cta_split(shape)[0][1]
    assert all(s.to_linear(shape) == L for s in found)


def test_padded_fp4_skips_a_column_slot():
    """Triton 3.9's to_linear_layout: a zero first column basis, like col_stride 2."""
    t = TensorMemoryLayout([64, 64], 1, fp4_padded=True)
    L = t.to_linear([128, 64])
    assert L.bases["row"] == ((1, 0), (2, 0), (4, 0), (8, 0), (64, 0), (16, 0), (32, 0))
    assert L.bases["col"] == ((0, 0), (0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (0, 32))
    with pytest.raises(LayoutError, match="fp4_padded needs col_stride 1"):
        TensorMemoryLayout([128, 64], 2, fp4_padded=True)


def test_two_ctas_needs_the_pair_in_the_cga_layout():
    with pytest.raises(LayoutError, match="two_ctas needs a cga_layout whose first block basis is \\[1, 0\\]"):
        TensorMemoryLayout([128, 64], 1, two_ctas=True)
    with pytest.raises(LayoutError, match="two_ctas"):
        TensorMemoryLayout([128, 64], 1, cga_layout=[[0, 1]], two_ctas=True)


def test_each_cta_must_hold_a_whole_block():
    t = TensorMemoryLayout([128, 32], 1, cga_layout=[[0, 1]])
    with pytest.raises(SizeError, match="at least 128x64"):
        tmem_reg_layout(t, [128, 32], element_bitwidth=32)
    r = tmem_reg_layout(t, [128, 64], element_bitwidth=32)
    assert r.block_bases == ((0, 32),)


# ---------------------------------------------------------------------------- narrow subviews
def test_the_corpus_holds_narrow_subviews():
    narrow = [r for r in ROWS if r["alloc_shape"] != r["shape"] and r["shape"][1] <= 8]
    assert sum("linear" in r for r in narrow) >= 100 and sum("error" in r for r in narrow) >= 50


@pytest.mark.parametrize(
    "tmem, element_ty, col",
    [
        # issue 17 (Triton 3.9's tensor-memory descriptor): a view keeps log2(32 / bitwidth) column
        # bases even where the shape leaves them unused
        (TensorMemoryLayout([128, 64], 2), "f16", ((0, 0),)),  # a 16-bit strided view: col [[0, 0]]
        (TensorMemoryLayout([128, 64], 1, fp4_padded=True), "i8", ((0, 0), (0, 0))),  # 8-bit fp4-padded
        (TensorMemoryLayout([128, 64], 1), "f32", ()),  # 32-bit: one column, no sub-column bases
    ],
)
def test_a_one_column_subview_keeps_the_sub_column_bases(tmem, element_ty, col):
    L = gluon.tmem_view_layout(tmem, [128, 1], [128, 64], element_ty=element_ty)
    assert L.bases["col"] == col
    assert L.bases["row"] == tuple((1 << i, 0) for i in range(7))


def test_tmem_view_layout_reads_the_element_type_in_any_spelling():
    t = TensorMemoryLayout([128, 64], 1)
    wide = gluon.tmem_view_layout(t, [128, 2], [128, 64], element_ty="float8e4nv")
    assert wide.bases["col"] == ((0, 1), (0, 0))  # two of the four 8-bit slots of the column
    assert gluon.tmem_view_layout(t, [128, 2], [128, 64], element_ty=8) == wide
    with pytest.raises(UnsupportedError, match="at most 32 bits"):
        gluon.tmem_view_layout(t, [128, 2], [128, 64], element_ty="f64")


@pytest.mark.parametrize(
    "tmem, shape, alloc",
    [
        # 8-bit views of allocations with fewer element slots than the four of a 32-bit column (the
        # reference test's seed 111334163 and its class): the view still spans the whole column
        (TensorMemoryLayout([64, 8], 1, fp4_padded=True), [64, 1], [64, 1]),  # one padded fp4 column
        (TensorMemoryLayout([128, 1], 2), [128, 1], None),  # col_stride 2, one column
        (TensorMemoryLayout([64, 1], 1), [64, 2], [64, 4]),  # one-column blocks: the 2nd N block in lanes 16-31
        (TensorMemoryLayout([128, 2], 1), [128, 1], [128, 2]),  # half of a packed pair
    ],
)
def test_an_8bit_view_spans_a_whole_32bit_column(tmem, shape, alloc):
    L = gluon.tmem_view_layout(tmem, shape, alloc, element_ty="i8")
    assert L.in_dim_size("col") == 4 and set(L.bases["col"]) == {(0, 0)}
    # so a 32x32b load reads it as one padded 32-bit column: no register, one row per lane
    reg = tmem_reg_layout(tmem, shape, element_bitwidth=8, alloc_shape=alloc)
    assert reg.reg_bases == () and reg.to_linear(shape).is_surjective()
    # while the access atoms of 16 rows find no second column to fill their lanes with
    with pytest.raises(LayoutError, match="16x64b access cannot load"):
        tmem_reg_layout(tmem, shape, element_bitwidth=8, alloc_shape=alloc, instr_variant="16x64b")


@given(tmem_configs())
def test_no_alloc_shape_is_the_view_of_itself(cfg):
    """Gluon always hands Triton an allocation shape (by default the tensor's): leaving it out is
    the same as giving the shape, refusals included."""
    t, shape, bits, nw, variant = cfg

    def reg(alloc):
        try:
            return tmem_reg_layout(t, shape, element_bitwidth=bits, num_warps=nw, instr_variant=variant, alloc_shape=alloc)
        except LayoutError as e:
            return type(e), str(e)

    assert reg(None) == reg(shape)
