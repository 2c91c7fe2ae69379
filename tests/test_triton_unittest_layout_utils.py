"""Triton's ``unittest/Tools/LayoutUtilsTest.cpp`` in our words (``squareSublayoutIsIdentity`` is
our :meth:`LinearLayout.square_sublayout_is_identity`).

Source text: upstream main c147f0988de7 (see tests/test_triton_unittest_linear.py for why not a
3.9 tag); its one test is ported.  The facebookexperimental fork adds ``IdentityStandardNDModular``
(non-power-of-two identities, not upstream Triton): not ported.
"""

from __future__ import annotations

from linlayout import LinearLayout

I = LinearLayout.identity_1d


def test_SquareSublayoutIsIdentity():
    assert I(4, "in", "in").square_sublayout_is_identity(["in"])
    assert I(4, "in", "in").square_sublayout_is_identity([])
    l1 = LinearLayout({"in1": [[1, 1], [2, 2], [4, 4]], "in2": [[2, 1], [1, 2]]}, {"in1": 8, "in2": 8},
                      require_surjective=False)
    assert l1.square_sublayout_is_identity(["in1"])
    assert not l1.square_sublayout_is_identity(["in2"])
    # in3 writes to all three out-dims; in1 and in2 cover only half of their out-dims
    l2 = I(4, "in1", "in1") * I(8, "in2", "in2") * LinearLayout(
        {"in3": [[1, 1, 1]]}, {"in1": 2, "in2": 2, "in3": 2}, require_surjective=False)
    assert not l2.square_sublayout_is_identity(["in1"])
    assert not l2.square_sublayout_is_identity(["in2"])
    assert l2.square_sublayout_is_identity(["in3"])
    assert not l2.square_sublayout_is_identity(["in1", "in2"])
    l3 = I(4, "in1", "in1") * I(8, "in2", "in2")
    assert l3.square_sublayout_is_identity(["in1"])
    assert l3.square_sublayout_is_identity(["in2"])
    assert l3.square_sublayout_is_identity(["in1", "in2"])
