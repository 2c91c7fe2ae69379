"""Worked examples of Triton's ``unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp``, in
our words, through the Gluon forms.

Those tests build blocked layouts with 4 threads per warp (and one thread per warp), which our
generated corpora held none of before issue 17, slices and FMA dot operands of such layouts, CGA
layouts given as (CTAs per CGA, split, order), and tensor-memory layouts.  Each test names the
Triton test and quotes its expected bases.
"""

from __future__ import annotations

import pytest

from converters.gluon import (
    BlockedLayout,
    DotOperandLayout,
    NVMMADistributedLayout,
    SliceLayout,
    TensorMemoryLayout,
)
from linlayout import LinearLayout

IN_DIMS = ("register", "lane", "warp", "block")


def cga(ctas_per_cga, split, order):
    """Triton's ``CGAEncodingAttr::fromSplitParams`` as Gluon's ``cga_layout`` bases: the CTAs of
    each dim, fastest dim of ``order`` first; those beyond the split hold copies (zero bases)."""
    rank = len(ctas_per_cga)
    bases = []
    for d in order:
        for i in range(ctas_per_cga[d].bit_length() - 1):
            v = [0] * rank
            if 1 << i < split[d]:
                v[d] = 1 << i
            bases.append(v)
    return bases


def blocked(spt, tpw, wpc, cpg, split, order, cta_order):
    return BlockedLayout(spt, tpw, wpc, order, cga(cpg, split, cta_order))


def bases(layout, shape):
    L = layout.to_linear(shape)
    return {k: [list(v) for v in L.bases.get(k, ())] for k in IN_DIMS}


def want(register, lane, warp, block=()):
    return {"register": [list(v) for v in register], "lane": [list(v) for v in lane], "warp": [list(v) for v in warp],
            "block": [list(v) for v in block]}


@pytest.mark.parametrize(
    "name, layout, shape, expected",
    [
        ("SimpleBlocked", blocked([1], [4], [4], [1], [1], [0], [0]), [16], want([], [[1], [2]], [[4], [8]])),
        ("CTADuplication", blocked([1], [4], [4], [4], [2], [0], [0]), [32], want([], [[1], [2]], [[4], [8]], [[16], [0]])),
        ("CTABroadcast", blocked([8, 1], [8, 4], [1, 4], [1, 2], [1, 2], [0, 1], [1, 0]), [64, 128],
         want([[1, 0], [2, 0], [4, 0], [0, 16], [0, 32]], [[8, 0], [16, 0], [32, 0], [0, 1], [0, 2]], [[0, 4], [0, 8]], [[0, 64]])),
        ("ShapeLargerThanLayout", blocked([1], [4], [4], [1], [1], [0], [0]), [128],
         want([[16], [32], [64]], [[1], [2]], [[4], [8]])),
        ("ShapeLargerThanLayout2DDegenerate", blocked([1, 1], [4, 1], [4, 1], [1, 1], [1, 1], [0, 1], [1, 0]), [128, 1],
         want([[16, 0], [32, 0], [64, 0]], [[1, 0], [2, 0]], [[4, 0], [8, 0]])),
        ("ShapeSmallerThanLayout", blocked([4], [4], [4], [1], [1], [0], [0]), [8], want([[1], [2]], [[4], [0]], [[0], [0]])),
        ("ReversedOrder", blocked([1, 1], [32, 1], [1, 8], [1, 1], [1, 1], [0, 1], [1, 0]), [1, 64],
         want([[0, 8], [0, 16], [0, 32]], [[0, 0]] * 5, [[0, 1], [0, 2], [0, 4]])),
        ("ReplicateInRegisterDim", blocked([2], [4], [1], [1], [1], [0], [0]), [32], want([[1], [8], [16]], [[2], [4]], [])),
        ("OneDimTooLargeAnotherTooSmall", blocked([1, 4], [8, 4], [4, 1], [2, 2], [2, 1], [1, 0], [1, 0]), [128, 16],
         want([[0, 1], [0, 2], [32, 0]], [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], [[8, 0], [16, 0]], [[0, 0], [64, 0]])),
        ("RepeatInCTGDimFirst", blocked([1], [1], [4], [2], [2], [0], [0]), [4], want([], [], [[1], [0]], [[2]])),
        ("SmallerThanCGALayout", blocked([1], [1], [1], [4], [4], [0], [0]), [2], want([], [], [], [[1], [0]])),
        ("Skinny", blocked([8, 1], [8, 4], [1, 4], [1, 2], [1, 2], [0, 1], [0, 1]), [64, 1],
         want([[1, 0], [2, 0], [4, 0]], [[8, 0], [16, 0], [32, 0], [0, 0], [0, 0]], [[0, 0], [0, 0]], [[0, 0]])),
        ("BlockedOrder", blocked([2, 2], [4, 8], [2, 2], [2, 2], [2, 2], [1, 0], [1, 0]), [1024, 128],
         want([[0, 1], [1, 0], [0, 32], [16, 0], [32, 0], [64, 0], [128, 0], [256, 0]],
              [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]], [[0, 16], [8, 0]], [[0, 64], [512, 0]])),
        # Blocked4D: the unit test's revision keeps two zero register bases; Triton 3.9 (live
        # GluonOpBuilder.to_linear_layout) drops the registers the shape cuts away, and 3.9 is our reference
        ("Blocked4D", blocked([1, 1, 1, 4], [2, 1, 1, 16], [1, 2, 4, 1], [1, 1, 1, 1], [1, 1, 1, 1], [3, 0, 1, 2], [3, 2, 1, 0]),
         [2, 1, 1, 1], want([], [[0, 0, 0, 0]] * 4 + [[1, 0, 0, 0]], [[0, 0, 0, 0]] * 3)),
    ],
)
def test_blocked_layouts(name, layout, shape, expected):
    assert bases(layout, shape) == expected, name


def test_blocked_dot_operands():
    parent = blocked([2, 4], [8, 4], [2, 4], [1, 1], [1, 1], [1, 0], [1, 0])
    # BlockedDotOperandLhs
    assert bases(DotOperandLayout(0, parent, 0), [32, 16]) == want(
        [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]], [[0, 0], [0, 0], [2, 0], [4, 0], [8, 0]], [[0, 0], [0, 0], [16, 0]])
    # BlockedDotOperandRhs
    assert bases(DotOperandLayout(1, parent, 0), [16, 64]) == want(
        [[0, 1], [0, 2], [1, 0], [2, 0], [4, 0], [8, 0]], [[0, 4], [0, 8], [0, 0], [0, 0], [0, 0]], [[0, 16], [0, 32], [0, 0]])
    parent3 = blocked([2, 2, 4], [2, 4, 4], [2, 2, 2], [1, 1, 1], [1, 1, 1], [2, 1, 0], [2, 1, 0])
    # BlockedDot3dOperandLhs
    assert bases(DotOperandLayout(0, parent3, 0), [16, 32, 4]) == want(
        [[0, 0, 1], [0, 0, 2], [0, 1, 0], [1, 0, 0], [0, 16, 0], [8, 0, 0]],
        [[0, 0, 0], [0, 0, 0], [0, 2, 0], [0, 4, 0], [2, 0, 0]], [[0, 0, 0], [0, 8, 0], [4, 0, 0]])
    # BlockedDot3dOperandRhs
    assert bases(DotOperandLayout(1, parent3, 0), [16, 4, 64]) == want(
        [[0, 0, 1], [0, 0, 2], [0, 1, 0], [0, 2, 0], [1, 0, 0], [0, 0, 32], [8, 0, 0]],
        [[0, 0, 4], [0, 0, 8], [0, 0, 0], [0, 0, 0], [2, 0, 0]], [[0, 0, 16], [0, 0, 0], [4, 0, 0]])


def test_slices_of_blocked():
    parent = blocked([2, 4], [4, 2], [2, 2], [2, 2], [2, 2], [1, 0], [1, 0])
    # SliceOfBlocked
    assert bases(SliceLayout(0, parent), [128]) == want([[1], [2], [16], [32]], [[4], [0], [0]], [[8], [0]], [[64], [0]])
    assert bases(SliceLayout(1, parent), [128]) == want([[1], [16], [32]], [[0], [2], [4]], [[0], [8]], [[0], [64]])
    # SliceWithShape1
    p1 = blocked([1, 4], [8, 4], [2, 2], [1, 1], [1, 1], [0, 1], [1, 0])
    assert bases(SliceLayout(0, p1), [1]) == want([], [[0]] * 5, [[0], [0]])
    # Slice4D
    p4 = blocked([1, 1, 1, 4], [2, 1, 1, 16], [1, 2, 4, 1], [1, 1, 1, 1], [1, 1, 1, 1], [3, 0, 1, 2], [3, 2, 1, 0])
    assert bases(SliceLayout(3, p4), [2, 1, 1]) == want([], [[0, 0, 0]] * 4 + [[1, 0, 0]], [[0, 0, 0]] * 3)


def test_mma_v2_over_a_cga():
    # MMAv2_Cga and MMAv2_Small3D: 16 warps along the batch dim, 16 CTAs split 4 x 2 x 1 (order 2, 1, 0)
    mma = NVMMADistributedLayout([2, 0], [16, 1, 1], [1, 16, 8], cga([4, 2, 2], [4, 2, 1], [2, 1, 0]))
    regs = [[0, 0, 1], [0, 8, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64], [0, 16, 0], [0, 32, 0]]
    lanes = [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]]
    assert bases(mma, [64, 128, 128]) == want(regs, lanes, [[1, 0, 0], [2, 0, 0], [4, 0, 0], [8, 0, 0]],
                                              [[0, 0, 0], [0, 64, 0], [16, 0, 0], [32, 0, 0]])
    assert bases(mma, [1, 128, 128]) == want(regs, lanes, [[0, 0, 0]] * 4, [[0, 0, 0], [0, 64, 0], [0, 0, 0], [0, 0, 0]])


def test_tensor_memory():
    # TensorMemory_blockM_64: rows 16-31 of each quarter take the next 64 rows, or N when M = 64
    t = TensorMemoryLayout([64, 64], 1)
    cols = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]]
    L = t.to_linear([128, 64])
    assert [list(v) for v in L.bases["row"]] == [[1, 0], [2, 0], [4, 0], [8, 0], [64, 0], [16, 0], [32, 0]]
    assert [list(v) for v in L.bases["col"]] == cols
    L = t.to_linear([64, 64])  # just fits: row 16 is unused
    assert [list(v) for v in L.bases["row"]] == [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0], [16, 0], [32, 0]]
    L = t.to_linear([256, 128])  # M then N
    assert [list(v) for v in L.bases["col"]] == cols + [[128, 0], [0, 64]]
    L = t.to_linear([64, 256])  # N in the 5th row basis
    assert [list(v) for v in L.bases["row"]] == [[1, 0], [2, 0], [4, 0], [8, 0], [0, 64], [16, 0], [32, 0]]
    assert [list(v) for v in L.bases["col"]] == cols + [[0, 128]]
    # TensorMemory_blockM_128: identities, the extra blocks in columns (M first)
    t = TensorMemoryLayout([128, 128], 1)
    tile = LinearLayout.identity_1d(128, "row", "dim0") * LinearLayout.identity_1d(128, "col", "dim1")
    assert t.to_linear([128, 128]) == tile
    assert t.to_linear([256, 128]) == tile * LinearLayout.identity_1d(2, "col", "dim0")
    assert t.to_linear([256, 256]) == tile * LinearLayout.identity_1d(2, "col", "dim0") * LinearLayout.identity_1d(2, "col", "dim1")
    # TensorMemory_fp4Padded: one unused column slot per element pair
    padded = TensorMemoryLayout([128, 64], 1, fp4_padded=True).to_linear([128, 64])
    assert padded == (LinearLayout.identity_1d(128, "row", "dim0") * LinearLayout.zeros_1d(2, "col", "dim1")
                      * LinearLayout.identity_1d(64, "col", "dim1"))
    # TensorMemory_CTASplit: two CTAs along N, each with its own 128 x 64 block
    split = TensorMemoryLayout([128, 64], 1, cga_layout=[[0, 1]]).to_linear([128, 128])
    one = TensorMemoryLayout([128, 64], 1).to_linear([128, 64])
    assert split == one * LinearLayout.identity_1d(2, "block", "dim1")
