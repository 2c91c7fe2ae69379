"""Triton's ``unittest/Dialect/TritonNvidiaGPU/NvmmaSmemAttrsTest.cpp`` in our words: Triton's
``getNvmmaSmemAttrs`` recognises an NVMMA shared layout (swizzle, transposed, fp4 padding) in a
shared *linear* layout; ours is :func:`converters.gluon.spellings`, which lists the
``NVMMASharedLayout`` s whose linear layout is the given one.

Source text: facebookexperimental/triton release/3.8.x at 673692051346 (upstream tests
cherry-picked there; not in upstream main c147f0988de7).  Its three tests are ported.  One group
of cases is not expressible and is left out (counted in the report): Triton's C++ attribute
accepts ``fp4Padded`` with 0-, 32- and 64-byte swizzles, which Gluon 3.9's ``NVMMASharedLayout``
refuses (an assertion: fp4 padding only with 128-byte swizzling and 8-bit elements) and we refuse
as Gluon does.  Triton's element type, which we do not carry, is the ``element_bitwidth`` of the
spelling.
"""

from __future__ import annotations

import pytest

from converters.gluon import NVMMASharedLayout, spellings
from linlayout import LinearLayout
from linlayout.errors import UnsupportedError


def nvmma_spellings(layout):
    return [s for s in spellings(layout) if isinstance(s, NVMMASharedLayout)]


def test_InferNvmmaSmemAttrsSharedLinear():
    # 128 x 128 bytes, every swizzle and orientation, fp4 padding where Gluon allows it: the
    # layout is recognised with its own swizzle, orientation and padding
    for sw in (32, 64, 128):
        for transposed in (False, True):
            for fp4 in (False, True):
                if fp4 and sw != 128:
                    with pytest.raises(UnsupportedError):
                        NVMMASharedLayout(sw, 8, 2, transposed, fp4)
                    continue
                lay = NVMMASharedLayout(sw, 8, 2, transposed, fp4)
                assert lay in nvmma_spellings(lay.to_linear([128, 128]))
    # no swizzle: core matrices tiled over 128 x 256 bytes, either orientation
    for transposed in (False, True):
        lay = NVMMASharedLayout(0, 8, 2, transposed)
        assert lay in nvmma_spellings(lay.to_linear([128, 256]))
    # other element sizes
    for bits, sw, transposed in ((8, 32, True), (16, 64, False), (32, 128, True)):
        lay = NVMMASharedLayout(sw, bits, 2, transposed)
        assert lay in nvmma_spellings(lay.to_linear([128, 128]))


def test_Fp4PaddedRequiresI8Storage():
    # only 8-bit storage is read as fp4-padded; the fp4 layout itself is (positive control)
    fp4 = NVMMASharedLayout(128, 8, 2, False, True).to_linear([128, 128])
    found = nvmma_spellings(fp4)
    assert any(s.fp4_padded for s in found)
    assert all(s.element_bitwidth == 8 for s in found if s.fp4_padded)
    for bits, sw, transposed in ((8, 32, True), (16, 64, False), (32, 128, True), (64, 128, False)):
        found = nvmma_spellings(NVMMASharedLayout(sw, bits, 2, transposed).to_linear([128, 128]))
        assert found and all(s.element_bitwidth == 8 for s in found if s.fp4_padded)


def test_InferNvmmaSmemAttrsRejectsNearMisses():
    # Triton asks about 4-bit elements: no NVMMA layout has 4-bit elements (Gluon allows 8 to 64),
    # and none of these near misses is an fp4-padded layout
    prefix = LinearLayout({"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]], "block": []},
                          ["dim0", "dim1"])
    assert not any(s.fp4_padded or s.element_bitwidth == 4 for s in nvmma_spellings(prefix))
    # the padding's zero basis one place too late
    shifted_zero = LinearLayout({"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 0], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32],
                                            [8, 0], [16, 0]], "block": []}, ["dim0", "dim1"])
    assert nvmma_spellings(shifted_zero) == []
    # a valid fp4 prefix, but the rows interleave too early
    early_rows = LinearLayout({"offset": [[0, 1], [0, 2], [0, 4], [0, 0], [1, 8], [2, 16], [4, 32], [0, 8], [0, 16], [0, 32],
                                          [8, 0], [16, 0]], "block": []}, {"dim0": 32, "dim1": 64})
    assert nvmma_spellings(early_rows) == []
