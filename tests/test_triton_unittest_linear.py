"""Triton's own unit tests for ``LinearLayout``, every one of them, in our words and our API.

Source: ``unittest/Tools/LinearLayoutTest.cpp`` of triton-lang/triton.  Triton 3.9's own tree is not
in our mirrors; the text ported is upstream main at c147f0988de7 (2026-02-17, the last upstream
commit in the woct0rdho/triton-windows mirror: 70 tests) plus the two upstream tests cherry-picked
into facebookexperimental/triton release/3.8.x (673692051346): ``invertAndCompose1`` (upstream
bundle with #10066..) and ``InvertAndComposeBlockLocal`` (upstream #10647).  The fork's own
non-power-of-two tests (its PRs #1629, #1900, #1901, #2986: ``Modular*``, ``MixedShape*``, ``*NPOT``,
``Lstsq_*``, ...) are not upstream Triton and are not ported.  Installed Triton 3.9 (the binding
``triton._C.libtriton.linear_layout``) answers the same questions in the ``reference`` tests at the
end: every expected value below that the binding can compute is what Triton 3.9 computes.

``InvertAndComposeBlockLocal`` tests ``invertAndComposeBlockLocal`` (LayoutUtils, upstream #10647),
our :meth:`LinearLayout.invert_and_compose_block_local`; the installed 3.9 library exports no
symbol of that name but one named ``invertAndComposeLocal`` (not reachable from Python), so that
test is checked against its own expected values only.

One test function per Triton test, named after it (``test_<TritonName>``); each quotes the
expected answer of every assertion of the Triton test.  72 tests, none skipped.
"""

from __future__ import annotations

import time

import pytest

from linlayout import LinearLayout
from linlayout.errors import DimensionError
from linlayout.linear import column_action_values, supremum

I = LinearLayout.identity_1d
Z = LinearLayout.zeros_1d


def LL(bases, outs, surjective=True):
    return LinearLayout(bases, outs, require_surjective=surjective)


def units(n):
    return [[1 << i] for i in range(n)]


# ------------------------------------------------------------------------------ constructors


def test_Empty():
    e = LinearLayout.empty()
    assert e.bases == {} and e.in_dim_names == () and e.out_dim_names == ()


def test_Identity1D():
    L = I(32, "testIns", "testOuts")
    assert L == LL({"testIns": [[1], [2], [4], [8], [16]]}, ["testOuts"])
    assert L.in_dim_names == ("testIns",) and L.out_dim_names == ("testOuts",)
    assert L.in_dim_size_log2("testIns") == 5 and L.out_dim_size_log2("testOuts") == 5


def test_Identity1DSize1():
    L = I(1, "testIns", "testOuts")
    assert L == LL({"testIns": []}, ["testOuts"])
    assert L.in_dim_names == ("testIns",) and L.out_dim_names == ("testOuts",)
    assert L.in_dim_size_log2("testIns") == 0 and L.out_dim_size_log2("testOuts") == 0


def test_Zeros1D():
    assert Z(32, "ins", "outs") == LL({"ins": [[0]] * 5}, ["outs"])


# ---------------------------------------------------------------------------------- products


def test_MultiplyIdentity():
    prod = I(16, "in", "out") * I(32, "in", "out")
    assert prod == LL({"in": units(9)}, ["out"])
    assert prod.in_dim_names == ("in",) and prod.out_dim_names == ("out",)


def test_MultiplyDisjoint():
    prod = I(32, "in1", "out1") * I(16, "in2", "out2")
    assert prod == LL({"in1": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], "in2": [[0, 1], [0, 2], [0, 4], [0, 8]]},
                      ["out1", "out2"])
    assert prod.in_dim_names == ("in1", "in2") and prod.out_dim_names == ("out1", "out2")


def test_MultiplyByEmpty():
    assert LinearLayout.empty() * I(32, "in", "out") == I(32, "in", "out")


def test_MultiplyByZeros():
    # the zeros go above the identity
    assert I(8, "in", "out") * Z(16, "in", "out") == LL({"in": [[1], [2], [4], [0], [0], [0], [0]]}, ["out"])


def test_MultiplyZerosByDegenerate():
    # a size-1 in-dim over a new out-dim adds that out-dim (size 1)
    assert Z(16, "in", "out1") * LL({"in": []}, ["out2"]) == LL({"in": [[0, 0]] * 4}, ["out1", "out2"])


def test_MultiplyEmptyIdentityAndZeros():
    # identity1D(0) is the size-1 identity
    assert I(0, "in", "out") * Z(4, "in", "out") == LL({"in": [[0], [0]]}, ["out"])


def test_MultiplyOverlapping():
    # one in-dim over two out-dims: out1's bits first
    assert I(4, "in", "out1") * I(8, "in", "out2") == LL({"in": [[1, 0], [2, 0], [0, 1], [0, 2], [0, 4]]},
                                                         ["out1", "out2"])


def test_TimesEquals():
    prod = LinearLayout.empty()
    prod *= I(32, "in", "out")
    assert prod == I(32, "in", "out")


# ------------------------------------------------------------------------ sizes and transposes


def test_GetOutDimSizeLog2():
    # zero bases do not count: in1 reaches 2 bits
    assert LL({"in0": [[0], [0], [0]], "in1": [[1], [2]]}, ["dim0"]).out_dim_size_log2("dim0") == 2


def test_TransposeOuts():
    t = (I(32, "in1", "out1") * I(16, "in2", "out2")).transpose_outs(["out2", "out1"])
    assert t.out_dim_names == ("out2", "out1")
    assert t == LL({"in1": [[0, 1 << i] for i in range(5)], "in2": [[1 << i, 0] for i in range(4)]}, ["out2", "out1"])


def test_TransposeOutsDegenerate():
    t = (I(32, "in1", "out1") * I(1, "in2", "out2")).transpose_outs(["out2", "out1"])
    assert t.out_dim_names == ("out2", "out1")
    assert t == LL({"in1": [[0, 1 << i] for i in range(5)], "in2": []}, ["out2", "out1"])


def test_TransposeIns():
    t = (I(32, "in1", "out1") * I(16, "in2", "out2")).transpose_ins(["in2", "in1"])
    assert t.in_dim_names == ("in2", "in1")
    assert t == LL({"in2": [[0, 1 << i] for i in range(4)], "in1": [[1 << i, 0] for i in range(5)]}, ["out1", "out2"])


def test_EmptyToString():
    assert str(LinearLayout.empty()) == "\n(empty layout)"


def test_Apply():
    L = LL({"in1": [[4, 2], [2, 1], [1, 0]], "in2": [[1, 2], [2, 1]]}, {"out1": 8, "out2": 4}, surjective=False)
    assert L(in1=0, in2=0) == {"out1": 0, "out2": 0}
    assert list(L(in1=0, in2=0)) == ["out1", "out2"]  # in out-dim order, whatever order the inputs come in
    assert L({"in2": 0, "in1": 1}) == {"out1": 4, "out2": 2}
    assert L({"in2": 1, "in1": 0}) == {"out1": 1, "out2": 2}


def test_ConstructLargeLayout():
    # 25 one-bit bases: Triton checks it is built quickly (a benchmark, not a timing assertion here)
    t0 = time.perf_counter()
    L = LL({"in": units(25)}, ["out"])
    assert L.in_dim_size_log2("in") == 25 and L.out_dim_size("out") == 1 << 25
    assert time.perf_counter() - t0 < 60  # only a guard against a hang


# ----------------------------------------------------------------------------------- compose

COMPOSE_L1 = ({"in1": [[1, 1], [0, 1]], "in2": [[1, 0], [1, 2]]}, ["out1", "out2"])
COMPOSE_L2 = ({"out1": [[2, 2], [1, 0]], "out2": [[1, 1], [2, 1]]}, ["out3", "out4"])
COMPOSE4D_L1 = ({"in0": [[1, 0, 0, 0], [2, 0, 0, 0]], "in1": [[4, 0, 0, 0], [8, 0, 0, 0], [16, 0, 0, 0], [32, 0, 0, 0]],
                 "in2": [[0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 2]], "in3": []}, ["out3", "out0", "out1", "out2"])
COMPOSE4D_L2 = ({"out3": [[1, 0, 0, 0], [2, 0, 0, 0]] + [[0, 0, 0, 0]] * 4, "out0": [[0, 1, 0, 0]], "out1": [[0, 0, 1, 0]],
                 "out2": [[0, 0, 0, 1], [0, 0, 0, 2]]}, ["out3", "out2", "out1", "out0"])


def test_Compose():
    c = LL(*COMPOSE_L1).compose(LL(*COMPOSE_L2))
    assert c == LL({"in1": [[3, 3], [1, 1]], "in2": [[2, 2], [0, 3]]}, {"out3": 4, "out4": 4}, surjective=False)
    assert not c.is_surjective()


def test_Compose4D():
    # the outer layout lists its in-dims in another order than l1's out-dims
    assert LL(*COMPOSE4D_L1).compose(LL(*COMPOSE4D_L2)) == LL(
        {"in0": [[1, 0, 0, 0], [2, 0, 0, 0]], "in1": [[0, 0, 0, 0]] * 4, "in2": [[0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 2]],
         "in3": []}, {"out3": 4, "out2": 2, "out1": 2, "out0": 4}, surjective=False)


# -------------------------------------------------------------------------- reshape / flatten

LL_RESHAPE = ({"in1": [[1], [4], [8]], "in2": [[2]]}, ["out"])
LL_TWO = ({"in1": [[1], [4]], "in2": [[2]]}, ["out"])


def test_ReshapeIns():
    assert LL(*LL_RESHAPE).reshape_ins([("in3", 2), ("in4", 8)]) == LL({"in3": [[1]], "in4": [[4], [8], [2]]}, ["out"])


def test_ReshapeInsDegenerateIn():
    assert LL({"in1": [[1], [4], [2]], "in2": []}, ["out"]).reshape_ins([("in3", 4), ("in4", 2)]) == LL(
        {"in3": [[1], [4]], "in4": [[2]]}, ["out"])


def test_ReshapeInsDegenerateOut():
    assert LL(*LL_TWO).reshape_ins([("in3", 8), ("in4", 1)]) == LL({"in3": [[1], [4], [2]], "in4": []}, ["out"])


def test_ReshapeInsDegenerateFirstOut():
    assert LL(*LL_TWO).reshape_ins([("in3", 1), ("in4", 8)]) == LL({"in3": [], "in4": [[1], [4], [2]]}, ["out"])


def test_FlattenIns():
    assert LL(*LL_RESHAPE).flatten_ins() == LL({"in1": [[1], [4], [8], [2]]}, ["out"])


EDGE_LAYOUTS = [lambda: LL({"in1": []}, ["out"]), lambda: LL({"in1": []}, []), lambda: LL({}, ["out"]), lambda: LL({}, [])]


def test_FlattenInsEdgeCases():
    # nothing to flatten: a size-1 in-dim, no out-dim, no in-dim, nothing at all
    for make in EDGE_LAYOUTS:
        assert make().flatten_ins() == make()


def test_ReshapeOuts():
    L = LL({"in1": [[1], [4], [8]], "in2": [[3]]}, ["out"])
    assert L.total_out_size == 16
    # the basis 3 splits over out2 (2) and out3 (8): (1, 1)
    assert L.reshape_outs([("out2", 2), ("out3", 8)]) == LL({"in1": [[1, 0], [0, 2], [0, 4]], "in2": [[1, 1]]}, ["out2", "out3"])


def test_ReshapeOutsDegenerateIn():
    assert LL({"in1": [[1], [4], [2]], "in2": []}, ["out"]).reshape_outs([("out1", 4), ("out2", 2)]) == LL(
        {"in1": [[1, 0], [0, 1], [2, 0]], "in2": []}, ["out1", "out2"])


def test_ReshapeOutsDegenerateOut():
    assert LL(*LL_TWO).reshape_outs([("out1", 8), ("out2", 1)]) == LL({"in1": [[1, 0], [4, 0]], "in2": [[2, 0]]}, ["out1", "out2"])


def test_FlattenOuts():
    # out2 sits above out1's 4 bits
    L = LL({"in1": [[1, 0], [4, 1], [8, 4]], "in2": [[3, 2]]}, {"out1": 16, "out2": 8}, surjective=False)
    assert L.flatten_outs() == LL({"in1": [[1], [4 + 16], [8 + 4 * 16]], "in2": [[3 + 2 * 16]]}, {"out1": 128}, surjective=False)


def test_FlattenOutsEdgeCases():
    for make in EDGE_LAYOUTS:
        assert make().flatten_outs() == make()


# ------------------------------------------------------------------------ invert and compose

LARGER_A_REG = ({"register": [[0, 1], [0, 2], [0, 4], [0, 32], [32, 0]], "lane": [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]],
                 "warp": [[8, 0], [16, 0]], "block": []}, ["dim0", "dim1"])
LARGER_A_SHARED = ({"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64], [1, 8], [2, 16], [4, 32], [8, 0],
                               [16, 0], [32, 0], [64, 0], [128, 0]], "block": []}, ["dim0", "dim1"])
IC1_REG = ({"offset": [[0, 1], [0, 2], [0, 4], [0, 16], [32, 0], [64, 0], [128, 0]],
            "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], "warp": [[0, 0], [16, 0]], "block": [[0, 0]]}, ["dim0", "dim1"])
IC1_SHARED = ({"offset": [[0, 1 << i] for i in range(7)] + [[1 << i, 0] for i in range(8)], "block": [[0, 0]]}, ["dim0", "dim1"])


def test_InvertAndCompose_Simple():
    l1 = LL({"in1": [[2], [1], [4]]}, ["out"])
    l2 = LL({"in2": [[4], [1], [2]]}, ["out"])
    c = l1.invert_and_compose(l2)
    assert c == LL({"in1": [[4], [2], [1]]}, ["in2"])
    assert c.compose(l2) == l1


def test_InvertAndComposeLargerA():
    # the shared layout covers more of dim0 and dim1 than the registers do
    reg, shared = LL(*LARGER_A_REG), LL(*LARGER_A_SHARED)
    want = LL({"register": [[1, 0], [2, 0], [4, 0], [32, 0], [4096, 0]], "lane": [[8, 0], [16, 0], [136, 0], [272, 0], [544, 0]],
               "warp": [[1024, 0], [2048, 0]], "block": []}, {"offset": 32768, "block": 1}, surjective=False)
    assert reg.invert_and_compose(shared) == want
    assert reg.compose(shared.invert()) == want


def test_InvertAndCompose_NonInjective():
    l1 = LL({"in1": [[2], [1], [4]]}, ["out"])
    l2 = LL({"in2": [[0], [2], [1], [4]]}, ["out"])
    c = l1.invert_and_compose(l2)
    # the least solution skips l2's zero basis
    assert c == LL({"in1": [[2], [4], [8]]}, {"in2": 16}, surjective=False)
    assert not c.is_surjective()
    assert c.compose(l2) == l1


def test_InvertAndCompose_BroadcastedInDim():
    l1 = LL({"in1": [[2], [1], [4]], "in2": [[0]]}, ["out"])
    l2 = LL({"in": [[4], [1], [2]]}, ["out"])
    c = l1.invert_and_compose(l2)
    assert c == LL({"in1": [[4], [2], [1]], "in2": [[0]]}, ["in"])
    assert c.compose(l2) == l1


def test_InvertAndCompose_BroadcastAtBeginningOfSecond():
    l1 = LL({"in": [[1], [2], [4]]}, ["out"])
    l2 = LL({"in": [[0], [4], [1], [2]]}, ["out"])
    c = l1.invert_and_compose(l2)
    assert c == LL({"in": [[4], [8], [2]]}, {"in": 16}, surjective=False)
    assert c.compose(l2) == l1


def test_InvertAndCompose_BroadcastAtEndOfSecond():
    l1 = LL({"in1": [[1], [2], [4]]}, ["out"])
    l2 = LL({"in2": [[4], [1], [2], [0]]}, ["out"])
    c = l1.invert_and_compose(l2)
    assert c == LL({"in1": [[2], [4], [1]]}, {"in2": 16}, surjective=False)
    # equal once the out-dim sizes are ignored (the composition's out-dim keeps l2's size)
    assert c.compose(l2).equal_ignoring_out_dim_sizes(l1)


def test_InvertAndCompose_BroadcastBeginningAndEndOfSecond():
    l1 = LL({"in": [[1], [2], [4]]}, ["out"])
    l2 = LL({"in": [[0], [4], [1], [2], [0]]}, ["out"])
    c = l1.invert_and_compose(l2)
    assert c == LL({"in": [[4], [8], [2]]}, {"in": 32}, surjective=False)
    assert c.compose(l2) == l1


def test_InvertAndCompose_Multidim():
    l1 = LL({"in1": [[1, 0], [0, 1], [2, 0], [3, 2]], "in2": [[2, 2]]}, ["out1", "out2"])
    l2 = LL({"in3": [[0, 1], [1, 0], [0, 0], [0, 2], [2, 1]]}, ["out2", "out1"])
    # both directions solve the equation, the out-dims in the other layout's order
    assert l1.invert_and_compose(l2).compose(l2) == l1.transpose_outs(l2.out_dim_names)
    assert l2.invert_and_compose(l1).compose(l1) == l2.transpose_outs(l1.out_dim_names)


def test_InvertAndCompose_BroadcastedDims():
    l1 = LL({"in1": [[1], [2], [4]], "in2": [[0]]}, ["out"])
    l2 = LL({"in3": [[1], [2], [4]], "in4": [[0]]}, ["out"])
    c = l1.invert_and_compose(l2)
    assert c == LL({"in1": [[1, 0], [2, 0], [4, 0]], "in2": [[0, 0]]}, {"in3": 8, "in4": 2}, surjective=False)
    assert c.compose(l2) == l1.transpose_outs(l2.out_dim_names)


def test_InvertAndCompose_BroadcastedDims2():
    a = LL({"in1": [[1], [2]], "in2": [[0]]}, ["out"])
    b = LL({"in3": [[2], [1]], "in4": [[0]]}, ["out"])
    c = a.invert_and_compose(b)
    assert c == LL({"in1": [[2, 0], [1, 0]], "in2": [[0, 0]]}, {"in3": 4, "in4": 2}, surjective=False)
    assert c.compose(b) == a.transpose_outs(b.out_dim_names)


def _one_bit_dims(k):
    """Basis over nine one-bit out-dims dim0..dim8 with bit ``8 - k`` set (Triton lists dim8 last)."""
    return [1 if j == 8 - k else 0 for j in range(9)]


def test_InvertAndCompose_IdentityInDim():
    # nine one-bit out-dims; both sides have the same register bases
    u = _one_bit_dims
    outs = [f"dim{i}" for i in range(9)]
    src = LL({"register": [u(0), u(1)], "lane": [u(2), u(3), u(4), u(5), u(6)], "warp": [u(7), u(8)], "block": []}, outs)
    dst = LL({"register": [u(0), u(1)], "lane": [u(8), u(7), u(6), u(5), u(4)], "warp": [u(3), u(2)], "block": []}, outs)
    cvt = dst.invert_and_compose(src)
    k = {"register": 3, "lane": 0, "warp": 2, "block": 0}
    assert dst(k) == src(cvt(k))


def test_InvertAndComposeBlockLocal():
    mem = LL({"offset": [[1]], "block": [[0]]}, ["dim"])
    reg = LL({"register": [], "lane": [[0]] * 5, "warp": [], "block": [[1]]}, ["dim"])
    # the plain solve sends the second CTA to block 0 (memory is broadcast over blocks)
    assert not reg.invert_and_compose(mem).is_identity_on_out_dim("block")
    local = reg.invert_and_compose_block_local(mem)
    assert local == LL({"register": [], "lane": [[0, 0]] * 5, "warp": [], "block": [[1, 1]]}, {"offset": 2, "block": 2},
                       surjective=False)
    assert local.is_identity_on_out_dim("block") and not local.is_trivial_over(["block"])
    assert local.compose(mem) == reg
    # memory broadcast over one of two block bits
    mem2 = LL({"offset": [[2]], "block": [[1], [0]]}, ["dim"])
    reg2 = LL({"register": [], "lane": [[0]] * 5, "warp": [], "block": [[1], [2]]}, ["dim"])
    assert not reg2.invert_and_compose(mem2).is_identity_on_out_dim("block")
    local2 = reg2.invert_and_compose_block_local(mem2)
    assert local2 == LL({"register": [], "lane": [[0, 0]] * 5, "warp": [], "block": [[0, 1], [1, 2]]},
                        {"offset": 2, "block": 4}, surjective=False)
    assert local2.is_identity_on_out_dim("block") and local2.compose(mem2) == reg2
    # memory partitioned over blocks (no broadcast): the same as the plain solve
    mem3 = LL({"offset": [[1]], "block": [[2]]}, ["dim"])
    reg3 = LL({"register": [[2]], "lane": [[0]] * 5, "warp": [], "block": [[1]]}, ["dim"])
    assert reg3.invert_and_compose_block_local(mem3) == reg3.invert_and_compose(mem3)


def test_invertAndCompose1():
    # a register layout with a gap in its offsets and a broadcast warp and block: the conversion
    # leaves the block alone
    assert LL(*IC1_REG).invert_and_compose(LL(*IC1_SHARED)).is_trivial_over(["block"])


# ------------------------------------------------------------------------------- predicates


def test_NumConsecutiveInOut():
    assert I(1, "in", "out").num_consecutive_in_out() == 1
    assert I(4, "in", "out").num_consecutive_in_out() == 4
    assert (I(4, "in1", "out") * I(8, "in2", "out")).num_consecutive_in_out() == 4
    assert (I(4, "in", "out1") * I(8, "in", "out2")).num_consecutive_in_out() == 4
    assert (Z(4, "in", "out1") * I(4, "in", "out2")).num_consecutive_in_out() == 1
    assert LL({"in": [[1], [2], [4], [9]]}, ["out"]).num_consecutive_in_out() == 1
    assert LL({"in": [[1], [2], [4], [10]]}, ["out"]).num_consecutive_in_out() == 2
    assert LL({"in": [[1], [4], [2]]}, ["out"]).num_consecutive_in_out() == 2
    assert LL({"in": [[1], [2], [4]], "in2": [[8], [18]]}, ["out"]).num_consecutive_in_out() == 2


def test_EqualsChecksOutDimSizes():
    wide = LL({"in": [[1], [2]]}, {"out": 8}, surjective=False)
    assert not (I(4, "in", "out") == wide)
    assert I(4, "in", "out") != wide
    assert I(4, "in", "out").equal_ignoring_out_dim_sizes(wide)


def test_Sublayout():
    l1 = LL({"in1": [[1, 0], [0, 1], [2, 0]], "in2": [[0, 1]]}, ["out1", "out2"])
    want = LL({"in1": [[1], [0], [2]], "in2": [[0]]}, ["out1"])
    # the order of the names asked for does not matter
    assert l1.sublayout(["in1", "in2"], ["out1"]) == want
    assert l1.sublayout(["in2", "in1"], ["out1"]) == want
    assert l1.sublayout(["in2", "in1"], ["out2", "out1"]) == l1
    assert l1.sublayout(["in1"], ["out1"]) == LL({"in1": [[1], [0], [2]]}, ["out1"])
    assert l1.sublayout([], []) == LinearLayout.empty()
    assert l1.sublayout(["in1"], []) == LL({"in1": [[], [], []]}, [])
    assert l1.sublayout([], ["out1"]) == LL({}, {"out1": 4}, surjective=False)


def test_SublayoutIsZero():
    i4 = I(4, "in", "out")
    assert not i4.sublayout_is_zero(["in"], ["out"])
    assert i4.sublayout_is_zero([], ["out"])
    assert i4.sublayout_is_zero(["in"], [])
    assert i4.sublayout_is_zero([], [])
    l1 = LL({"in1": [[0, 1], [0, 2]], "in2": [[1, 1]]}, ["out1", "out2"])
    assert l1.sublayout_is_zero(["in1"], ["out1"])
    assert not l1.sublayout_is_zero(["in1"], ["out2"])
    assert not l1.sublayout_is_zero(["in2"], ["out1"])
    assert not l1.sublayout_is_zero(["in2"], ["out2"])


def test_FreeVariableMasks():
    assert I(4, "in", "out").free_variable_masks() == {"in": 0}
    assert Z(16, "in", "out").free_variable_masks() == {"in": 0b1111}
    mixed = I(2, "in", "out") * Z(4, "in", "out") * I(4, "in", "out") * Z(2, "in", "out")
    assert mixed.free_variable_masks() == {"in": 0b100110}  # (Triton asserts this one twice)
    two = LL({"in1": [[1, 1], [2, 2], [0, 0]], "in2": [[1, 0], [0, 1], [2, 0]]}, ["out1", "out2"])
    masks = two.free_variable_masks()
    assert masks == {"in1": 0b100, "in2": 0b10} and list(masks) == ["in1", "in2"]


# --------------------------------------------------------------------------------- quotients


def test_QuotientOneDimension():
    layout = LL({"dim1": [[1, 0]], "dim2": [[0, 0]]}, {"dim1": 2, "dim2": 1}, surjective=False)
    q = layout.quotient(["dim1"])
    # what is left over dim2 is zero, not the identity
    assert q == Z(2, "dim2", "dim2")
    assert q.quotient(["dim2"]) is None


def test_QuotientSeveralDimensions():
    L = LL({"dim1": [[1, 0], [2, 0], [4, 0]], "dim2": [[0, 1], [0, 2]]}, ["dim1", "dim2"])
    assert L.quotient(["dim1", "dim2"]) is not None


def test_QuotientMultipleTrivialDimensions():
    ok = LL({"dim1": [[1, 0, 2], [2, 0, 1]], "dim2": [[0, 1, 0], [0, 2, 0], [0, 4, 0]], "dim3": [[0, 0, 1], [0, 0, 2]]},
            ["dim1", "dim2", "dim3"])
    assert ok.quotient(["dim2"]) is not None
    # dim3 now writes to dim2: no longer trivial
    bad = LL({"dim1": [[1, 0, 2], [2, 0, 1]], "dim2": [[0, 1, 0], [0, 2, 0], [0, 4, 0]], "dim3": [[0, 1, 1], [0, 0, 2]]},
             ["dim1", "dim2", "dim3"])
    assert bad.quotient(["dim2"]) is None


def test_QuotientEmptyLayout():
    assert LinearLayout.empty().quotient(["dim1"]) is None


def test_QuotientIdentityMultipleDimensions():
    ident = I(8, "dim1", "dim1") * I(2, "dim2", "dim2") * I(4, "dim3", "dim3")
    q = ident.quotient(["dim1", "dim3"])
    assert q is not None and q.quotient(["dim2"]) is not None


# ---------------------------------------------------- Blackwell mixed-precision padded offsets


def _padded(lin):
    """Triton's fp4 padding of shared memory: 8 packed bytes in every 16."""
    return lin // 8 * 16 + lin % 8


def _packed_to_padded_offset(m, k_packed):
    """(row, col) of the packed fp4 bytes -> padded offset, as a linear layout of its own."""
    rows = [[_padded(r * k_packed)] for r in (1 << i for i in range((m - 1).bit_length()))]
    cols = [[_padded(c)] for c in (1 << i for i in range((k_packed - 1).bit_length()))]
    return LL({"row": rows, "col": cols}, {"offset": m * k_packed * 2}, surjective=False)


def test_BlackwellMixedPrecisionDotScaledSMEM():
    # 128 fp4 elements, M = 16: 4 packed bytes per row, 8 padded; the pseudo-inverse of
    # offset -> (row, col) is the packed-to-padded map
    m, k_packed, k_padded = 16, 4, 8
    bases = []
    for off in (1 << i for i in range((m * k_padded - 1).bit_length())):
        lin = off // 16 * 8 + off % 8
        bases.append([lin // k_packed, lin % k_packed])
    computed = LL({"offset": bases}, ["row", "col"]).pseudo_invert()
    manual = _packed_to_padded_offset(m, k_packed)
    for r in range(m):
        for c in range(k_packed):
            assert manual(row=r, col=c)["offset"] == computed(row=r, col=c)["offset"]


def test_BlackwellMixedPrecisionDotScaledSMEMSwizzled():
    # 128-byte swizzle over 8 rows of 128 padded bytes (vector 16, perPhase 1, maxPhase 8), grown to
    # 16 rows of 64 packed bytes: the pseudo-inverse gives the unswizzled padded offset with its
    # 16-byte column chunk XOR-ed with row % 8
    m, k_padded = 16, 128
    k_packed = k_padded // 2
    tile_rows, tile_cols, vec = 8, 8 * 128 // 8, 16

    def packed(col_padded):
        return col_padded // 16 * 8 + col_padded % 8

    bases = [[0, packed(c)] for c in (1 << i for i in range((tile_cols - 1).bit_length()))]
    bases += [[r, packed(vec * (r % 8))] for r in (1 << i for i in range((tile_rows - 1).bit_length()))]
    swizzled = LL({"offset": bases}, ["row", "col"], surjective=False).ensure_not_smaller({"row": m, "col": k_packed})
    inverse = swizzled.pseudo_invert()
    plain = _packed_to_padded_offset(m, k_packed)
    for i in range(m):
        for j in range(k_packed):
            flat = plain(row=i, col=j)["offset"]
            row, col = divmod(flat, k_padded)
            col_swizzled = ((col // 16) ^ (row % 8)) * 16 + col % 16
            assert inverse(row=i, col=j)["offset"] == row * k_padded + col_swizzled


# ------------------------------------------------------------------------------ supremum


def test_SupremumTest_IdenticalLists():
    assert supremum(["a", "b", "c"], ["a", "b", "c"]) == ["a", "b", "c"]


def test_SupremumTest_NonUniqueSupremumFirstListPriority():
    assert supremum(["a", "b"], ["a", "c"]) == ["a", "b", "c"]


def test_SupremumTest_NonUniqueSupremumAlternate():
    assert supremum(["a", "b"], ["b", "c"]) == ["a", "b", "c"]


def test_SupremumTest_DifferentLengths():
    assert supremum(["a", "b", "c"], ["a", "d"]) == ["a", "b", "c", "d"]


def test_SupremumTest_SupremumEmptyLists():
    assert supremum([], []) == []


def test_SupremumTest_OneEmptyList():
    assert supremum(["a", "b"], []) == ["a", "b"]


def test_SupremumTest_ErrorOnInconsistentOrder():
    # Triton dies with "Supremum does not exist"; we raise
    with pytest.raises(DimensionError, match="no list holds both"):
        supremum(["a", "b"], ["b", "a"])


# ---------------------------------------------------------------------------------- division


def test_Divide_Basic():
    B, C = I(8, "in", "out"), Z(16, "in", "out")
    assert (B * C).divide_left(B) == C
    assert (B * C).divide_right(C) == B
    assert (C * B).divide_left(C) == B
    assert (C * B).divide_right(B) == C


def test_Divide_NonMatchingDims():
    # the divisor has an in-dim the layout lacks
    A = I(32, "in", "out")
    B = LL({"in": [[1], [2], [4], [8]], "extra": [[0]]}, ["out"])
    assert A.divide_left(B) is None
    assert A.divide_right(B) is None


def test_Divide_Simple():
    A, B, C = I(8, "in", "out"), I(4, "in", "out"), I(2, "in", "out")
    assert A.divide_left(B) == C
    assert A.divide_right(B) == C
    assert A.divide_left(A) == I(1, "in", "out")
    assert A.divide_right(A) == I(1, "in", "out")


def test_Divide_2D():
    l1 = LL({"in1": [[1, 1], [2, 2], [0, 8], [0, 4]], "in2": [[0, 2], [0, 1]]}, ["out1", "out2"])
    l2 = LL({"in1": [[1, 1], [2, 2]], "in2": [[0, 2], [0, 1]]}, ["out1", "out2"])
    l3 = LL({"in1": [[0, 2], [0, 1]], "in2": []}, ["out1", "out2"])
    assert l2 * l3 == l1
    assert l1.divide_left(l2) == l3
    assert l1.divide_right(l3) == l2


def test_Divide_EliminateInDim():
    l1 = LL({"in2": [[0, 1], [1, 0]], "in1": [[2, 0], [0, 2]]}, ["out1", "out2"])
    l2 = LL({"in2": [[0, 1], [1, 0]]}, ["out1", "out2"])
    l3 = LL({"in2": [], "in1": [[1, 0], [0, 1]]}, ["out1", "out2"])
    assert l2 * l3 == l1
    assert l1.divide_left(l2) == l3
    l2 = LL({"in2": [[0, 1], [1, 0]], "in1": []}, ["out1", "out2"])
    l3 = LL({"in1": [[1, 0], [0, 1]]}, ["out1", "out2"])
    assert l2 * l3 == l1
    assert l1.divide_right(l3) == l2
    l4 = LL({"in1": [[0, 1], [0, 2]], "in2": []}, ["out1", "out2"])
    l5 = LL({"in1": [[0, 1], [0, 2]]}, ["out1", "out2"])
    l6 = LL({"in1": [], "in2": []}, ["out1", "out2"])
    assert l5 * l6 == l4
    assert l4.divide_left(l5) == l6
    assert l4.divide_right(l5) == l6
    l7 = LL({"in1": [], "in2": [[0, 1]], "in3": []}, ["out1", "out2"])
    l8 = LL({"in2": [[0, 1]]}, ["out1", "out2"])
    l9 = LL({"in1": [], "in2": [], "in3": []}, ["out1", "out2"])
    assert l8 * l9 == l7
    assert l7.divide_left(l8) == l9
    assert l7.divide_right(l8) == l9


def test_Divide_EliminateOutDim():
    l1 = LL({"in2": [[1, 0], [1, 0]], "in1": [[2, 0], [0, 1]]}, ["out1", "out2"])
    l2 = LL({"in2": [[1], [1]]}, ["out1"])
    l3 = LL({"in2": [], "in1": [[1, 0], [0, 1]]}, ["out1", "out2"])
    assert l2 * l3 == l1
    assert l1.divide_left(l2) == l3
    l1 = LL({"in2": [[1, 0], [0, 2]], "in1": [[0, 1], [0, 2]]}, ["out1", "out2"])
    l2 = LL({"in2": [[1]], "in1": [[1]]}, ["out2"])
    l3 = LL({"in2": [[1, 0]], "in1": [[0, 1]]}, ["out1", "out2"])
    assert l3 * l2 == l1
    assert l1.divide_right(l2) == l3
    l4 = LL({"in1": [[0, 1], [0, 2]]}, ["out1", "out2"])
    l5 = LL({}, ["out1"])
    l6 = LL({"in1": [[0, 1], [0, 2]]}, ["out1", "out2"])
    assert l5 * l6 == l4
    assert l4.divide_left(l5) == l6
    assert l4.divide_right(l5) == l6


# ---------------------------------------------------------------------------- column actions


def test_ColumnActionApplyLayout():
    L = LL({"in": [[1], [2], [4]]}, ["out"])
    # action [2, 0, 1]: the bases become 4, 1, 2 (stated in Triton's comment, not asserted there)
    assert L.apply_column_action("in", [2, 0, 1]) == LL({"in": [[4], [1], [2]]}, ["out"])
    # drop the third basis and swap the others; out stays of size 8
    assert L.apply_column_action("in", [1, 0]) == LL({"in": [[2], [1]]}, {"out": 8}, surjective=False)


def test_ColumnActionApplyValues():
    values = list(range(1, 9))
    assert column_action_values(values, [2, 0, 1]) == [1, 5, 2, 6, 3, 7, 4, 8]
    # drop the odd indices
    assert column_action_values(values, [2, 1]) == [1, 5, 3, 7]


# ------------------------------------------------------- Triton 3.9 itself on the same inputs

tl = None
try:  # the oracle is optional
    from triton._C.libtriton import linear_layout as tl  # type: ignore[no-redef]
except ImportError:  # pragma: no cover - triton not installed
    pass


def _to_triton(layout):
    return tl.LinearLayout.from_bases([(n, [list(v) for v in vs]) for n, vs in layout.bases.items()],
                                      list(layout.out_dims), list(layout.out_dims.values()), False)



INVERT_AND_COMPOSE_CASES = {
    "InvertAndCompose_Simple": (({"in1": [[2], [1], [4]]}, ["out"]), ({"in2": [[4], [1], [2]]}, ["out"])),
    "InvertAndComposeLargerA": (LARGER_A_REG, LARGER_A_SHARED),
    "InvertAndCompose_NonInjective": (({"in1": [[2], [1], [4]]}, ["out"]), ({"in2": [[0], [2], [1], [4]]}, ["out"])),
    "InvertAndCompose_BroadcastedInDim": (({"in1": [[2], [1], [4]], "in2": [[0]]}, ["out"]), ({"in": [[4], [1], [2]]}, ["out"])),
    "InvertAndCompose_BroadcastAtBeginningOfSecond": (({"in": [[1], [2], [4]]}, ["out"]), ({"in": [[0], [4], [1], [2]]}, ["out"])),
    "InvertAndCompose_BroadcastAtEndOfSecond": (({"in1": [[1], [2], [4]]}, ["out"]), ({"in2": [[4], [1], [2], [0]]}, ["out"])),
    "InvertAndCompose_BroadcastBeginningAndEndOfSecond": (({"in": [[1], [2], [4]]}, ["out"]),
                                                          ({"in": [[0], [4], [1], [2], [0]]}, ["out"])),
    "InvertAndCompose_BroadcastedDims": (({"in1": [[1], [2], [4]], "in2": [[0]]}, ["out"]),
                                         ({"in3": [[1], [2], [4]], "in4": [[0]]}, ["out"])),
    "InvertAndCompose_BroadcastedDims2": (({"in1": [[1], [2]], "in2": [[0]]}, ["out"]), ({"in3": [[2], [1]], "in4": [[0]]}, ["out"])),
    "invertAndCompose1": (IC1_REG, IC1_SHARED),
}


@pytest.mark.reference
@pytest.mark.skipif(tl is None, reason="triton is not installed")
@pytest.mark.parametrize("name", sorted(INVERT_AND_COMPOSE_CASES))
def test_triton39_invert_and_compose_agrees(name):
    a, b = (LL(*x) for x in INVERT_AND_COMPOSE_CASES[name])
    theirs = _to_triton(a).invert_and_compose(_to_triton(b))
    assert {n: [list(v) for v in vs] for n, vs in theirs.bases} == {n: [list(v) for v in vs] for n, vs in a.invert_and_compose(b).bases.items()}


@pytest.mark.reference
@pytest.mark.skipif(tl is None, reason="triton is not installed")
def test_triton39_compose_apply_and_inverses_agree():
    for l1, l2 in ((COMPOSE_L1, COMPOSE_L2), (COMPOSE4D_L1, COMPOSE4D_L2)):
        ours = LL(*l1).compose(LL(*l2))
        theirs = _to_triton(LL(*l1)).compose(_to_triton(LL(*l2)))
        assert {n: [list(v) for v in vs] for n, vs in theirs.bases} == {n: [list(v) for v in vs] for n, vs in ours.bases.items()}
        assert theirs.is_surjective() == ours.is_surjective()
    shared = LL(*LARGER_A_SHARED)
    assert {n: [list(v) for v in vs] for n, vs in _to_triton(shared).invert().bases} == {
        n: [list(v) for v in vs] for n, vs in shared.invert().bases.items()}
    L = LL({"in1": [[4, 2], [2, 1], [1, 0]], "in2": [[1, 2], [2, 1]]}, {"out1": 8, "out2": 4}, surjective=False)
    for x in ({"in1": 1, "in2": 0}, {"in1": 0, "in2": 1}, {"in1": 5, "in2": 3}):
        assert dict(_to_triton(L).apply(x)) == L(x)
