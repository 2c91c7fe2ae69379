"""The layout tests of Triton's ``unittest/Dialect/TritonGPU/DialectTest.cpp``, in our words.

Source text: upstream main c147f0988de7 (see tests/test_triton_unittest_linear.py).  Of its five
tests two concern layouts as such and are ported: ``LinearEncodingTest`` (a distributed layout
written as a linear layout reads back as itself: our ``DistributedLinearLayout``) and
``ShapePerCTATest`` (each CTA's part of a tensor).  The other three test Triton's layout
*inference* for ops (``InferReshapeOpEncodingTest``, ``Fp4ToFpOpTest``, ``JoinOpTest``): which
blocked layout a reshape / fp4 upcast / join produces; we do not infer op layouts, so they are
skipped with that reason.
"""

from __future__ import annotations

import pytest

from converters.gluon import (
    BlockedLayout,
    DistributedLinearLayout,
    DotOperandLayout,
    NVMMADistributedLayout,
    SliceLayout,
)
from converters.gluon._build import shape_per_cta
from linlayout.errors import LayoutError


def _cga_4x2_split_2x2():
    """Triton's CGA (CTAs per CGA 4 x 2, split 2 x 2, order (1, 0)) as Gluon's bases: dim1's CTA
    first, then dim0's two CTAs of which the second holds copies."""
    return [[0, 1], [1, 0], [0, 0]]


def _encodings():
    """Triton's ``createDistributedEncodings`` in our forms, plus the FMA dot operands of each
    blocked layout the test adds."""
    out = []
    blocked = []
    for cga in ([], _cga_4x2_split_2x2()):
        for order in ([0, 1], [1, 0]):
            b = BlockedLayout([4, 4], [4, 8], [2, 2], order, cga)
            blocked.append(b)
            out += [b, SliceLayout(0, b)]
    for major, instr in ((2, [16, 8]), (3, [16, 32, 16])):
        mma = NVMMADistributedLayout([major, 0], [4, 2], instr)
        out.append(mma)
        out += [DotOperandLayout(op, mma, 2) for op in ((0, 1) if major == 2 else (0,))]
    out += [DotOperandLayout(op, b, 0) for b in blocked for op in (0, 1)]
    return out


ENCODINGS = _encodings()


@pytest.mark.parametrize("enc", ENCODINGS, ids=[repr(e)[:60] for e in ENCODINGS])
def test_LinearEncodingTest_DistributedEncodingToLinearEncoding(enc):
    for shape in ([64, 128], [256, 1024]):
        if isinstance(enc, SliceLayout):
            shape = shape[1:]
        L = enc.to_linear(shape)
        lin = DistributedLinearLayout([list(v) for v in L.bases["register"]], [list(v) for v in L.bases["lane"]],
                                      [list(v) for v in L.bases["warp"]], [list(v) for v in L.bases["block"]], shape)
        # the linear form over the same shape is the layout again: the same elements per thread
        # (register count), the same CTAs
        assert lin.to_linear(shape) == L
        assert lin.to_linear(shape).in_dim_size("register") == L.in_dim_size("register")
        assert lin.to_linear(shape).in_dim_size("block") == L.in_dim_size("block")


def test_ShapePerCTATest_ShapePerCTA():
    # CTAs split 2 x 4 (Gluon bases: one CTA bit on dim0, two on dim1): [64, 128] -> [32, 32]
    assert shape_per_cta([64, 128], [[1, 0], [0, 1], [0, 2]], "test") == [32, 32]
    # Triton also accepts a CTA split of another rank than the shape (it aligns the last dims:
    # 2 x 4 x 8 over [64, 128] gives [16, 16], a split of 2 gives [64, 64]).  Gluon's CGA bases
    # have the tensor's rank: the same splits, written over the tensor's two dims, give the same
    # answers, and a layout whose CGA has another rank is refused
    assert shape_per_cta([64, 128], [[1, 0], [2, 0], [0, 1], [0, 2], [0, 4]], "test") == [16, 16]
    assert shape_per_cta([64, 128], [[0, 1]], "test") == [64, 64]
    with pytest.raises(LayoutError):
        BlockedLayout([1, 1], [4, 8], [2, 2], [1, 0], [[1, 0, 0]])


OP_INFERENCE = {
    "InferReshapeOpEncodingTest_DoIt": "Triton's reshape layout inference (which blocked layout a tt.reshape produces); "
                                       "we do not infer op layouts",
    "Fp4ToFpOpTest_Fp4ToFpOpLayoutPropagation": "Triton's fp4-to-fp upcast layout inference (forward and back); we do "
                                                "not infer op layouts",
    "JoinOpTest_JoinOpLayoutPropagation": "Triton's tt.join layout inference; we do not infer op layouts",
}


@pytest.mark.parametrize("name", sorted(OP_INFERENCE))
def test_op_layout_inference(name):
    pytest.skip(f"{name}: {OP_INFERENCE[name]}")
