"""Laws of the operations added to :class:`LinearLayout` for the port of Triton's unit tests
(``sublayout_is_zero``, ``square_sublayout_is_identity``, ``is_identity_on_out_dim``,
``equal_ignoring_out_dim_sizes``, ``ensure_not_smaller``/``ensure_not_larger``,
``apply_column_action``/``column_action_values``, ``invert_and_compose_block_local``,
``supremum``), and their errors on bad input."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from strategies import linear_layouts

from linlayout import LinearLayout
from linlayout.errors import BasisError, DimensionError, LayoutError, SizeError
from linlayout.linear import column_action_values, supremum


def _brute_zero(L, ins, outs):
    return all(not any(v[L.out_dim_names.index(o)] for o in outs) for n in ins for v in L.bases[n])


@given(linear_layouts(), st.data())
def test_sublayout_is_zero_reads_the_bases(L, data):
    ins = data.draw(st.lists(st.sampled_from(L.in_dim_names), unique=True))
    outs = data.draw(st.lists(st.sampled_from(L.out_dim_names), unique=True))
    assert L.sublayout_is_zero(ins, outs) == _brute_zero(L, ins, outs)


@given(linear_layouts(outs={"register": 4, "lane": 8}, in_names=("register", "lane", "warp")), st.sampled_from(["register", "lane"]))
def test_identity_on_out_dim_means_the_out_dim_copies_the_in_dim(L, d):
    # is_identity_on_out_dim(d) <=> for every input, out[d] == in[d]
    copies = all(L.apply({n: x if n == d else 0 for n in L.in_dim_names})[d] == x for x in range(L.in_dim_size(d)))
    others = all(L.apply({n: 1 << i if n == m else 0 for n in L.in_dim_names})[d] == 0
                 for m in L.in_dim_names if m != d for i in range(L.in_dim_size_log2(m)))
    assert L.is_identity_on_out_dim(d) == (L.in_dim_size(d) == L.out_dim_size(d) and copies and others)
    if L.is_trivial_over([d]):
        assert L.is_identity_on_out_dim(d)
        assert L.square_sublayout_is_identity([d])


@given(linear_layouts(), linear_layouts())
def test_equal_ignoring_out_dim_sizes(a, b):
    assert a.equal_ignoring_out_dim_sizes(a)
    same = a.out_dim_names == b.out_dim_names and list(a.bases.items()) == list(b.bases.items())
    assert a.equal_ignoring_out_dim_sizes(b) == same
    if a == b:
        assert same


@given(linear_layouts(in_names=("register", "lane")), st.data())
def test_ensure_not_smaller_then_larger(L, data):
    shape = {n: 1 << data.draw(st.integers(0, 5)) for n in L.out_dim_names}
    big = L.ensure_not_smaller(shape)
    assert all(big.out_dim_size(n) >= shape[n] for n in shape)
    # only the first in-dim grows, and its old bases stay first
    assert big.bases["register"][: L.in_dim_size_log2("register")] == L.bases["register"]
    assert big.bases["lane"] == L.bases["lane"]
    small = L.ensure_not_larger(shape)
    assert small.in_dims == L.in_dims
    assert all(small.out_dim_size(n) == min(L.out_dim_size(n), shape[n]) for n in shape)
    # a basis component that fits stays, one that does not becomes 0 (that input repeats data)
    for n in L.in_dim_names:
        for i in range(L.in_dim_size_log2(n)):
            x = {m: 1 << i if m == n else 0 for m in L.in_dim_names}
            y, z = L(x), small(x)
            assert all(z[d] == (y[d] if y[d] < shape[d] else 0) for d in shape)
    dropped = L.ensure_not_larger(shape, broadcast_registers=False)
    assert dropped.bases["lane"] == small.bases["lane"]
    assert len(dropped.bases["register"]) == sum(1 for v, w in zip(L.bases["register"], small.bases["register"]) if any(w) or not any(v))


@given(st.integers(0, 5), st.data())
def test_column_action_moves_values_as_it_moves_bases(k, data):
    action = data.draw(st.permutations(range(k)).flatmap(lambda p: st.integers(0, k).map(lambda m: list(p[:m]))))
    L = LinearLayout({"register": [[data.draw(st.integers(0, 63))] for _ in range(k)]}, {"dim0": 64}, require_surjective=False)
    values = [L(register=i)["dim0"] for i in range(1 << k)]  # each register's value: where it lives
    moved = L.apply_column_action("register", action)
    assert column_action_values(values, action) == [moved(register=i)["dim0"] for i in range(1 << len(action))]


@given(linear_layouts(outs={"dim0": 8}, in_names=("lane", "block"), surjective=True),
       linear_layouts(outs={"dim0": 8}, in_names=("offset", "block"), surjective=True))
def test_block_local_solves_the_same_equation(reg, mem):
    assume(mem.in_dim_size("block") <= reg.in_dim_size("block"))
    local = reg.invert_and_compose_block_local(mem)
    padded = mem.resize_in_dim("block", reg.in_dim_size("block"))
    assert local.compose(padded) == reg
    # where memory does not broadcast over blocks, nothing changes
    if all(any(v) for v in padded.bases["block"]):
        assert local == reg.invert_and_compose(padded)


@given(st.lists(st.sampled_from("abcdef"), unique=True), st.lists(st.sampled_from("abcdef"), unique=True))
def test_supremum_holds_both_lists_in_order(xs, ys):
    common = set(xs) & set(ys)
    if [x for x in xs if x in common] != [y for y in ys if y in common]:
        with pytest.raises(DimensionError):
            supremum(xs, ys)
        return
    s = supremum(xs, ys)
    assert sorted(s) == sorted(set(xs) | set(ys))
    for lst in (xs, ys):
        assert [x for x in s if x in lst] == lst


def test_bad_input_raises_specific_errors():
    L = LinearLayout.identity_1d(8, "register", "dim0")
    with pytest.raises(DimensionError):
        L.ensure_not_smaller({"dim1": 4})
    with pytest.raises(SizeError):
        L.ensure_not_larger({"dim0": 3})
    with pytest.raises(DimensionError):
        L.ensure_not_larger([8])  # type: ignore[arg-type]
    with pytest.raises(BasisError):
        L.apply_column_action("register", [0, 3])
    with pytest.raises(BasisError):
        L.apply_column_action("register", [1, 1])
    with pytest.raises(DimensionError):
        L.apply_column_action("lane", [0])
    with pytest.raises(SizeError):
        column_action_values([1, 2, 3], [0])
    with pytest.raises(DimensionError):
        L.invert_and_compose_block_local(L)
    with pytest.raises(DimensionError):
        supremum(["a", "a"], ["a"])
    with pytest.raises(LayoutError):
        L.equal_ignoring_out_dim_sizes("x")  # type: ignore[arg-type]
    with pytest.raises(DimensionError):
        L.is_identity_on_out_dim(3)  # type: ignore[arg-type]
    assert not L.is_identity_on_out_dim("lane")


@given(linear_layouts(outs={"dim0": 4, "dim1": 8}, in_names=("register", "lane", "warp"), max_bits=3))
def test_triton_layout_str_lists_every_thread_register_once(L):
    import re

    from linlayout.linear_text import triton_layout_str

    text = triton_layout_str(L)
    cells = re.findall(r"T(\d+):(\d+)", text)
    lanes, regs = L.in_dim_size("lane"), L.in_dim_size("register")
    assert sorted((int(t), int(r)) for t, r in cells) == [(t, r) for t in range(lanes * L.in_dim_size("warp")) for r in range(regs)]
    # each thread:register sits in the cell of its element (row-major over the cells)
    flat = text.replace("[", "").replace("]", "").replace("\n", ", ").split(", ")[: 32]
    for i, cell in enumerate(flat):
        for t, r in re.findall(r"T(\d+):(\d+)", cell):
            out = L(register=int(r), lane=int(t) % lanes, warp=int(t) // lanes)
            assert out["dim0"] * 8 + out["dim1"] == i
    hw = triton_layout_str(L, hw_view=True).splitlines()
    assert len(hw) == L.in_dim_size("warp") * (1 + regs)
