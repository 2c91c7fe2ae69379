"""Worked examples of Triton's own unit tests for ``LinearLayout``, in our words and our API.

Source: ``unittest/Tools/LinearLayoutTest.cpp`` in triton-lang/triton (the examples below are the
ones our corpora, which hold random layouts, do not hold as such).  Each test names the Triton test
it comes from and quotes its expected answer.
"""

from __future__ import annotations

from linlayout import LinearLayout

I = LinearLayout.identity_1d
Z = LinearLayout.zeros_1d


def LL(bases, outs, surjective=True):
    return LinearLayout(bases, outs, require_surjective=surjective)


def test_products():
    # MultiplyIdentity: 16 x 32 on the same dims is a 512 identity
    assert I(16, "in", "out") * I(32, "in", "out") == LL({"in": [[1 << i] for i in range(9)]}, ["out"])
    # MultiplyDisjoint: new dims side by side
    assert I(32, "in1", "out1") * I(16, "in2", "out2") == LL(
        {"in1": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], "in2": [[0, 1], [0, 2], [0, 4], [0, 8]]}, ["out1", "out2"])
    # MultiplyByEmpty, TimesEquals: the empty layout is the unit
    assert LinearLayout.empty() * I(32, "in", "out") == I(32, "in", "out")
    # MultiplyByZeros: the zeros go above the identity
    assert I(8, "in", "out") * Z(16, "in", "out") == LL({"in": [[1], [2], [4], [0], [0], [0], [0]]}, ["out"])
    # MultiplyZerosByDegenerate: a size-1 in-dim adds an out-dim of size 1
    assert Z(16, "in", "out1") * LL({"in": []}, ["out2"]) == LL({"in": [[0, 0]] * 4}, ["out1", "out2"])
    # MultiplyEmptyIdentityAndZeros: identity1D(0) is the empty layout
    assert I(0, "in", "out") * Z(4, "in", "out") == LL({"in": [[0], [0]]}, ["out"])
    # MultiplyOverlapping: the same in-dim on two out-dims
    assert I(4, "in", "out1") * I(8, "in", "out2") == LL({"in": [[1, 0], [2, 0], [0, 1], [0, 2], [0, 4]]}, ["out1", "out2"])


def test_out_dim_size_and_transposes():
    # GetOutDimSizeLog2: zero bases do not count
    assert LL({"in0": [[0], [0], [0]], "in1": [[1], [2]]}, ["dim0"]).out_dim_size_log2("dim0") == 2
    prod = I(32, "in1", "out1") * I(16, "in2", "out2")
    # TransposeOuts
    t = prod.transpose_outs(["out2", "out1"])
    assert t == LL({"in1": [[0, 1 << i] for i in range(5)], "in2": [[1 << i, 0] for i in range(4)]}, ["out2", "out1"])
    # TransposeOutsDegenerate: a size-1 out-dim moves too
    d = (I(32, "in1", "out1") * I(1, "in2", "out2")).transpose_outs(["out2", "out1"])
    assert d == LL({"in1": [[0, 1 << i] for i in range(5)], "in2": []}, ["out2", "out1"])
    # TransposeIns
    assert prod.transpose_ins(["in2", "in1"]) == LL(
        {"in2": [[0, 1 << i] for i in range(4)], "in1": [[1 << i, 0] for i in range(5)]}, ["out1", "out2"])


def test_apply():
    # Apply: in1 (4,2),(2,1),(1,0); in2 (1,2),(2,1) into out1 8, out2 4
    L = LL({"in1": [[4, 2], [2, 1], [1, 0]], "in2": [[1, 2], [2, 1]]}, {"out1": 8, "out2": 4}, surjective=False)
    assert L(in1=0, in2=0) == {"out1": 0, "out2": 0}
    assert L(in2=0, in1=1) == {"out1": 4, "out2": 2}
    assert L(in2=1, in1=0) == {"out1": 1, "out2": 2}


def test_compose_examples():
    # Compose: the composition is not surjective
    l1 = LL({"in1": [[1, 1], [0, 1]], "in2": [[1, 0], [1, 2]]}, ["out1", "out2"])
    l2 = LL({"out1": [[2, 2], [1, 0]], "out2": [[1, 1], [2, 1]]}, ["out3", "out4"])
    c = l1.compose(l2)
    assert c == LL({"in1": [[3, 3], [1, 1]], "in2": [[2, 2], [0, 3]]}, {"out3": 4, "out4": 4}, surjective=False)
    assert not c.is_surjective()
    # Compose4D: the outer layout's in-dims come in another order than l1's out-dims
    l1 = LL({"in0": [[1, 0, 0, 0], [2, 0, 0, 0]], "in1": [[4, 0, 0, 0], [8, 0, 0, 0], [16, 0, 0, 0], [32, 0, 0, 0]],
             "in2": [[0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 2]], "in3": []}, ["out3", "out0", "out1", "out2"])
    l2 = LL({"out3": [[1, 0, 0, 0], [2, 0, 0, 0]] + [[0, 0, 0, 0]] * 4, "out0": [[0, 1, 0, 0]], "out1": [[0, 0, 1, 0]],
             "out2": [[0, 0, 0, 1], [0, 0, 0, 2]]}, ["out3", "out2", "out1", "out0"])
    assert l1.compose(l2) == LL(
        {"in0": [[1, 0, 0, 0], [2, 0, 0, 0]], "in1": [[0, 0, 0, 0]] * 4, "in2": [[0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 2]],
         "in3": []}, {"out3": 4, "out2": 2, "out1": 2, "out0": 4}, surjective=False)


def test_reshapes_and_flattens():
    ll = LL({"in1": [[1], [4], [8]], "in2": [[2]]}, ["out"])
    # ReshapeIns
    assert ll.reshape_ins([("in3", 2), ("in4", 8)]) == LL({"in3": [[1]], "in4": [[4], [8], [2]]}, ["out"])
    # ReshapeInsDegenerateIn / DegenerateOut / DegenerateFirstOut
    assert LL({"in1": [[1], [4], [2]], "in2": []}, ["out"]).reshape_ins([("in3", 4), ("in4", 2)]) == LL(
        {"in3": [[1], [4]], "in4": [[2]]}, ["out"])
    two = LL({"in1": [[1], [4]], "in2": [[2]]}, ["out"])
    assert two.reshape_ins([("in3", 8), ("in4", 1)]) == LL({"in3": [[1], [4], [2]], "in4": []}, ["out"])
    assert two.reshape_ins([("in3", 1), ("in4", 8)]) == LL({"in3": [], "in4": [[1], [4], [2]]}, ["out"])
    # FlattenIns
    assert ll.flatten_ins() == LL({"in1": [[1], [4], [8], [2]]}, ["out"])
    # FlattenInsEdgeCases / FlattenOutsEdgeCases: nothing to flatten
    for lay in (LL({"in1": []}, ["out"]), LL({"in1": []}, []), LL({}, {"out": 1}), LinearLayout.empty()):
        assert lay.flatten_ins() == lay and lay.flatten_outs() == lay
    # ReshapeOuts: the basis 3 splits over out2 (2) and out3 (8)
    l3 = LL({"in1": [[1], [4], [8]], "in2": [[3]]}, ["out"])
    assert l3.total_out_size == 16
    assert l3.reshape_outs([("out2", 2), ("out3", 8)]) == LL({"in1": [[1, 0], [0, 2], [0, 4]], "in2": [[1, 1]]}, ["out2", "out3"])
    # ReshapeOutsDegenerateIn / DegenerateOut
    assert LL({"in1": [[1], [4], [2]], "in2": []}, ["out"]).reshape_outs([("out1", 4), ("out2", 2)]) == LL(
        {"in1": [[1, 0], [0, 1], [2, 0]], "in2": []}, ["out1", "out2"])
    assert two.reshape_outs([("out1", 8), ("out2", 1)]) == LL({"in1": [[1, 0], [4, 0]], "in2": [[2, 0]]}, ["out1", "out2"])
    # FlattenOuts: out2 sits above out1's 4 bits
    lo = LL({"in1": [[1, 0], [4, 1], [8, 4]], "in2": [[3, 2]]}, {"out1": 16, "out2": 8}, surjective=False)
    assert lo.flatten_outs() == LL({"in1": [[1], [4 + 16], [8 + 4 * 16]], "in2": [[3 + 2 * 16]]}, {"out1": 128},
                                   surjective=False)


def test_invert_and_compose_examples():
    # InvertAndCompose_Simple
    l1 = LL({"in1": [[2], [1], [4]]}, ["out"])
    c = l1.invert_and_compose(LL({"in2": [[4], [1], [2]]}, ["out"]))
    assert c == LL({"in1": [[4], [2], [1]]}, ["in2"])
    assert c.compose(LL({"in2": [[4], [1], [2]]}, ["out"])) == l1
    # InvertAndCompose_NonInjective: the least solution skips the zero basis of l2
    l2 = LL({"in2": [[0], [2], [1], [4]]}, ["out"])
    c = l1.invert_and_compose(l2)
    assert c == LL({"in1": [[2], [4], [8]]}, {"in2": 16}, surjective=False)
    assert not c.is_surjective() and c.compose(l2) == l1
    # InvertAndCompose_BroadcastedInDim
    l1b = LL({"in1": [[2], [1], [4]], "in2": [[0]]}, ["out"])
    l2b = LL({"in": [[4], [1], [2]]}, ["out"])
    c = l1b.invert_and_compose(l2b)
    assert c == LL({"in1": [[4], [2], [1]], "in2": [[0]]}, ["in"]) and c.compose(l2b) == l1b
    ident = LL({"in": [[1], [2], [4]]}, ["out"])
    # InvertAndCompose_BroadcastAtBeginningOfSecond
    l2 = LL({"in": [[0], [4], [1], [2]]}, ["out"])
    c = ident.invert_and_compose(l2)
    assert c == LL({"in": [[4], [8], [2]]}, {"in": 16}, surjective=False) and c.compose(l2) == ident
    # InvertAndCompose_BroadcastAtEndOfSecond: equal once the out-dim sizes are ignored
    l1e = LL({"in1": [[1], [2], [4]]}, ["out"])
    l2 = LL({"in2": [[4], [1], [2], [0]]}, ["out"])
    c = l1e.invert_and_compose(l2)
    assert c == LL({"in1": [[2], [4], [1]]}, {"in2": 16}, surjective=False)
    assert c.compose(l2).bases == l1e.bases
    # InvertAndCompose_BroadcastBeginningAndEndOfSecond
    l2 = LL({"in": [[0], [4], [1], [2], [0]]}, ["out"])
    c = ident.invert_and_compose(l2)
    assert c == LL({"in": [[4], [8], [2]]}, {"in": 32}, surjective=False) and c.compose(l2) == ident
    # InvertAndCompose_Multidim: both directions satisfy the equation, out-dims in either order
    m1 = LL({"in1": [[1, 0], [0, 1], [2, 0], [3, 2]], "in2": [[2, 2]]}, ["out1", "out2"])
    m2 = LL({"in3": [[0, 1], [1, 0], [0, 0], [0, 2], [2, 1]]}, ["out2", "out1"])
    assert m1.invert_and_compose(m2).compose(m2) == m1.transpose_outs(m2.out_dim_names)
    assert m2.invert_and_compose(m1).compose(m1) == m2.transpose_outs(m1.out_dim_names)
    # InvertAndCompose_BroadcastedDims and _BroadcastedDims2
    a = LL({"in1": [[1], [2], [4]], "in2": [[0]]}, ["out"])
    b = LL({"in3": [[1], [2], [4]], "in4": [[0]]}, ["out"])
    c = a.invert_and_compose(b)
    assert c == LL({"in1": [[1, 0], [2, 0], [4, 0]], "in2": [[0, 0]]}, {"in3": 8, "in4": 2}, surjective=False)
    assert c.compose(b) == a
    a = LL({"in1": [[1], [2]], "in2": [[0]]}, ["out"])
    b = LL({"in3": [[2], [1]], "in4": [[0]]}, ["out"])
    c = a.invert_and_compose(b)
    assert c == LL({"in1": [[2, 0], [1, 0]], "in2": [[0, 0]]}, {"in3": 4, "in4": 2}, surjective=False)


def test_invert_and_compose_identity_in_dim():
    # InvertAndCompose_IdentityInDim: 9 one-bit out-dims; register bases agree on both sides
    def unit(k):
        return [1 if j == 8 - k else 0 for j in range(9)]

    outs = [f"dim{i}" for i in range(9)]
    src = LL({"register": [unit(0), unit(1)], "lane": [unit(2), unit(3), unit(4), unit(5), unit(6)],
              "warp": [unit(7), unit(8)], "block": []}, outs)
    dst = LL({"register": [unit(0), unit(1)], "lane": [unit(8), unit(7), unit(6), unit(5), unit(4)],
              "warp": [unit(3), unit(2)], "block": []}, outs)
    cvt = dst.invert_and_compose(src)
    k = {"register": 3, "lane": 0, "warp": 2, "block": 0}
    assert dst(k) == src(cvt(k))


def test_num_consecutive_in_out_examples():
    # NumConsecutiveInOut, every case of the Triton test
    assert I(1, "in", "out").num_consecutive_in_out() == 1
    assert I(4, "in", "out").num_consecutive_in_out() == 4
    assert (I(4, "in1", "out") * I(8, "in2", "out")).num_consecutive_in_out() == 4
    assert (I(4, "in", "out1") * I(8, "in", "out2")).num_consecutive_in_out() == 4
    assert (Z(4, "in", "out1") * I(4, "in", "out2")).num_consecutive_in_out() == 1
    assert LL({"in": [[1], [2], [4], [9]]}, ["out"]).num_consecutive_in_out() == 1
    assert LL({"in": [[1], [2], [4], [10]]}, ["out"]).num_consecutive_in_out() == 2
    assert LL({"in": [[1], [4], [2]]}, ["out"]).num_consecutive_in_out() == 2
    assert LL({"in": [[1], [2], [4]], "in2": [[8], [18]]}, ["out"]).num_consecutive_in_out() == 2


def test_equality_checks_out_dim_sizes():
    # EqualsChecksOutDimSizes
    wide = LL({"in": [[1], [2]]}, {"out": 8}, surjective=False)
    assert I(4, "in", "out") != wide
    assert I(4, "in", "out").bases == wide.bases  # equal ignoring the out-dim sizes


def test_sublayouts():
    # Sublayout: the order of the names asked for does not matter
    l1 = LL({"in1": [[1, 0], [0, 1], [2, 0]], "in2": [[0, 1]]}, ["out1", "out2"])
    want = LL({"in1": [[1], [0], [2]], "in2": [[0]]}, ["out1"])
    assert l1.sublayout(["in1", "in2"], ["out1"]) == want and l1.sublayout(["in2", "in1"], ["out1"]) == want
    assert l1.sublayout(["in2", "in1"], ["out2", "out1"]) == l1
    assert l1.sublayout(["in1"], ["out1"]) == LL({"in1": [[1], [0], [2]]}, ["out1"])
    assert l1.sublayout([], []) == LinearLayout.empty()
    assert l1.sublayout(["in1"], []) == LL({"in1": [[], [], []]}, [])
    assert l1.sublayout([], ["out1"]) == LL({}, {"out1": 4}, surjective=False)

    # SublayoutIsZero (we ask the sublayout for zero bases)
    def is_zero(lay, ins, outs):
        return all(not any(v) for vs in lay.sublayout(ins, outs).bases.values() for v in vs)

    i4 = I(4, "in", "out")
    assert not is_zero(i4, ["in"], ["out"])
    assert is_zero(i4, [], ["out"]) and is_zero(i4, ["in"], []) and is_zero(i4, [], [])
    l2 = LL({"in1": [[0, 1], [0, 2]], "in2": [[1, 1]]}, ["out1", "out2"])
    assert is_zero(l2, ["in1"], ["out1"])
    assert not is_zero(l2, ["in1"], ["out2"]) and not is_zero(l2, ["in2"], ["out1"]) and not is_zero(l2, ["in2"], ["out2"])


def test_free_variable_masks_examples():
    # FreeVariableMasks
    assert I(4, "in", "out").free_variable_masks() == {"in": 0}
    assert Z(16, "in", "out").free_variable_masks() == {"in": 0b1111}
    mixed = I(2, "in", "out") * Z(4, "in", "out") * I(4, "in", "out") * Z(2, "in", "out")
    assert mixed.free_variable_masks() == {"in": 0b100110}
    two = LL({"in1": [[1, 1], [2, 2], [0, 0]], "in2": [[1, 0], [0, 1], [2, 0]]}, ["out1", "out2"])
    assert two.free_variable_masks() == {"in1": 0b100, "in2": 0b10}


def test_quotients():
    # QuotientOneDimension: what is left over dim2 is zero, not the identity
    layout = LL({"dim1": [[1, 0]], "dim2": [[0, 0]]}, {"dim1": 2, "dim2": 1}, surjective=False)
    q = layout.quotient(["dim1"])
    assert q == Z(2, "dim2", "dim2")
    assert q.quotient(["dim2"]) is None
    # QuotientSeveralDimensions
    assert LL({"dim1": [[1, 0], [2, 0], [4, 0]], "dim2": [[0, 1], [0, 2]]}, ["dim1", "dim2"]).quotient(["dim1", "dim2"]) is not None
    # QuotientMultipleTrivialDimensions: dim2 is trivial until dim3 depends on it
    ok = LL({"dim1": [[1, 0, 2], [2, 0, 1]], "dim2": [[0, 1, 0], [0, 2, 0], [0, 4, 0]], "dim3": [[0, 0, 1], [0, 0, 2]]},
            ["dim1", "dim2", "dim3"])
    assert ok.quotient(["dim2"]) is not None
    bad = LL({"dim1": [[1, 0, 2], [2, 0, 1]], "dim2": [[0, 1, 0], [0, 2, 0], [0, 4, 0]], "dim3": [[0, 1, 1], [0, 0, 2]]},
             ["dim1", "dim2", "dim3"])
    assert bad.quotient(["dim2"]) is None
    # QuotientEmptyLayout: a dim that is not there
    assert LinearLayout.empty().quotient(["dim1"]) is None
    # QuotientIdentityMultipleDimensions
    ident = I(8, "dim1", "dim1") * I(2, "dim2", "dim2") * I(4, "dim3", "dim3")
    q = ident.quotient(["dim1", "dim3"])
    assert q is not None and q.quotient(["dim2"]) is not None


def test_to_string_of_the_empty_layout():
    # EmptyToString
    assert str(LinearLayout.empty()) == "\n(empty layout)"


def test_blackwell_mixed_precision_padded_offsets():
    # BlackwellMixedPrecisionDotScaledSMEM: packed fp4 bytes (8 of every 16 padded bytes used);
    # the pseudo-inverse of offset -> (row, col) gives the padded offset of each packed coordinate
    m, k_packed, k_padded = 16, 4, 8
    bases = []
    for i in range((m * k_padded).bit_length() - 1):
        off = 1 << i
        lin = off // 16 * 8 + off % 8
        bases.append([lin // k_packed, lin % k_packed])
    inv = LL({"offset": bases}, ["row", "col"]).pseudo_invert()
    for r in range(m):
        for c in range(k_packed):
            lin = r * k_packed + c
            assert inv(row=r, col=c)["offset"] == lin // 8 * 16 + lin % 8
