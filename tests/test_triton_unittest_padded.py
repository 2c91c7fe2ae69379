"""Triton's ``unittest/Dialect/TritonGPU/PaddedTest.cpp`` in our words: a padded shared layout
with the identity as its linear part (Gluon's ``PaddedSharedLayout.with_identity_for``) maps its
offsets one to one onto the tensor, whether the CTAs split the tensor or hold copies.

Source text: facebookexperimental/triton release/3.8.x at 673692051346 (an upstream test
cherry-picked there); its one test is ported.
"""

from __future__ import annotations

import pytest

from converters.gluon import PaddedSharedLayout


@pytest.mark.parametrize("cga", [[[0, 1]], [[0, 0]]], ids=["split-dim1", "copies"])
def test_TestMultiCTA(cga):
    lay = PaddedSharedLayout.with_identity_for([[64, 8]], [16, 128], [1, 0], cga)
    assert lay.offset_layout().is_injective()


@pytest.mark.reference
def test_with_identity_for_matches_gluon():
    gl = pytest.importorskip("triton.experimental.gluon.language")
    from converters.gluon import from_triton

    for cga in ([[0, 1]], [[0, 0]], [], [[1, 0], [0, 1]]):
        for order in ([1, 0], [0, 1]):
            theirs = gl.PaddedSharedLayout.with_identity_for([[64, 8]], [16, 128], order, cga)
            assert from_triton(theirs) == PaddedSharedLayout.with_identity_for([[64, 8]], [16, 128], order, cga)


def test_with_identity_for_bad_input():
    from linlayout.errors import LayoutError

    with pytest.raises(LayoutError):
        PaddedSharedLayout.with_identity_for([[64, 8]], [16, 128], [1, 1])
    with pytest.raises(LayoutError):
        PaddedSharedLayout.with_identity_for([[64, 8]], [16, 100], [1, 0])
    with pytest.raises(LayoutError):
        PaddedSharedLayout.with_identity_for([[64, 8]], [16, 128], [1, 0], [[0, 1, 0]])
