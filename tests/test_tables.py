"""Whole-layout tables (LinearLayout, MixedRadixLayout, CuTe Layout): every row agrees with the
point evaluation, in the smallest integer dtype that holds the values, never wrapping."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import linear_layouts

from converters.cute import Layout
from linlayout.errors import BasisError, SizeError
from linlayout.mixed_radix import MixedRadixLayout
from linlayout.tabulate import MAX_OBJECT_CELLS, smallest_dtype, tabulate, value_range

AXES = ["m", "w", "q"]


def flat_points(dims):
    """Every input as a dict, in table order (first in-dim fastest)."""
    names, sizes = list(dims), list(dims.values())
    total = int(np.prod(sizes)) if sizes else 1
    for k in range(total):
        p = {}
        for n, s in zip(names, sizes):
            p[n] = k % s
            k //= s
        yield p


def smallest(values):
    return smallest_dtype(min(values, default=0), max(values, default=0))


@settings(max_examples=150, deadline=None)
@given(linear_layouts(max_bits=5))
def test_linear_table_rows_are_apply(L):
    t = L.table()
    assert t.shape == (L.total_in_size, len(L.out_dims))
    assert t.dtype == smallest_dtype(0, max(L.out_dims.values()) - 1)
    for k, p in enumerate(flat_points(L.in_dims)):
        assert t[k].tolist() == list(L.apply(p).values())
    flat = L.flat_table()
    shifts = np.cumsum([0] + [s.bit_length() - 1 for s in L.out_dims.values()])[:-1]
    assert flat.dtype == smallest_dtype(0, L.total_out_size - 1)
    packed = np.zeros(len(t), dtype=object)
    for c, sh in enumerate(shifts):
        packed |= t[:, c].astype(object) << int(sh)
    assert flat.astype(object).tolist() == packed.tolist()


_digit = st.tuples(st.integers(1, 5), st.one_of(st.integers(-40, 300), st.sampled_from([2**31, -(2**40), 2**62, 2**63])), st.sampled_from(AXES))


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["x", "y"]), st.lists(_digit, max_size=3), min_size=1),
    st.lists(_digit, max_size=2),
    st.dictionaries(st.sampled_from(AXES), st.integers(-(2**40), 2**40), max_size=2),
)
def test_mixed_radix_tables_are_apply(digits, reps, off):
    L = MixedRadixLayout(digits, reps, off)
    t = L.table()
    rows = [[L.apply(p)[a] for a in L.axes] for p in flat_points(L.in_dims)]
    assert [[int(v) for v in r] for r in t.tolist()] == rows
    assert t.dtype == smallest([v for r in rows for v in r])
    cells = L.size * L.num_replicas * len(L.axes)
    if cells > MAX_OBJECT_CELLS:  # beyond 64 bits such a table is refused (hypothesis found 390625 x 3)
        try:
            full = L.full_table()
        except SizeError as e:
            assert "Python ints is limited" in str(e)
            return
    full = L.full_table()
    assert full.shape == (L.size, L.num_replicas, len(L.axes))
    for k, p in enumerate(flat_points(L.in_dims)):
        assert [[int(v) for v in r] for r in full[k].tolist()] == [[d[a] for a in L.axes] for d in L.apply_all(p)]


def test_mixed_radix_tables_do_not_wrap():
    L = MixedRadixLayout({"x": [(4, 2**62, "m")]})
    assert L.table().dtype == np.uint64
    assert L.table()[:, 0].tolist() == [L.apply(x=k)["m"] for k in range(4)] == [0, 2**62, 2**63, 3 * 2**62]
    assert MixedRadixLayout({"x": [(2, 2**63, "m")]}).table()[:, 0].tolist() == [0, 2**63]
    big = MixedRadixLayout({"x": [(4, 2**63, "m")]}, offset={"w": -1})  # beyond 64 bits: Python ints
    assert big.table().dtype == object
    assert big.table().tolist() == [[k * 2**63, -1] for k in range(4)]
    with pytest.raises(SizeError, match="at most"):
        MixedRadixLayout({"x": [(1 << 13, 1, "m")], "y": [(1 << 12, 0, "m")]}).table()
    with pytest.raises(SizeError, match="Python ints is limited"):
        MixedRadixLayout({"x": [(1 << 21, 2**63, "m")]}).table()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(-(2**20), 2**20)), min_size=1, max_size=4))
def test_cute_table_is_the_layout(modes):
    shape, stride = tuple(s for s, _ in modes), tuple(d for _, d in modes)
    L = Layout(shape, stride)
    t = L.table()
    want = [L(i) for i in range(L.size())]
    assert t.tolist() == want
    assert t.dtype == smallest(want)


def test_cute_table_of_large_strides():
    L = Layout((4, 2), ((1 << 62) - 1, 1))
    assert L.table().tolist() == [L(i) for i in range(8)]
    assert L.table().dtype == np.uint64


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 4), st.lists(st.integers(-(2**66), 2**66), min_size=3, max_size=3)), max_size=4),
    st.lists(st.integers(-(2**66), 2**66), min_size=3, max_size=3),
    st.integers(0, 3),
    st.sampled_from([1, 2**7, 2**15, 2**31, 2**63, 2**66]),
)
def test_tabulate_sums_and_xors_every_row(digits, base, k, scale):
    digits = [(e, [x % scale - scale // 2 for x in v[:k]]) for e, v in digits]
    base = [x % scale - scale // 2 for x in base[:k]]
    t = tabulate(digits, base, "add")
    xd = [(2, [abs(x) for x in v]) for _, v in digits]
    x = tabulate(xd, [0] * k, "xor")
    n = int(np.prod([e for e, _ in digits])) if digits else 1
    for i in range(n):
        want, rest = list(base), i
        for e, v in digits:
            want = [w + (rest % e) * s for w, s in zip(want, v)]
            rest //= e
        assert [int(v) for v in t[i]] == want
    for i in range(1 << len(xd)):
        want = [0] * k
        for j, (_, v) in enumerate(xd):
            if i >> j & 1:
                want = [w ^ s for w, s in zip(want, v)]
        assert [int(v) for v in x[i]] == want


@pytest.mark.parametrize("axes", [("w", "m"), ("w", "m", "q")])
@pytest.mark.parametrize("extents", [(7, 32, 4681), (4099, 3), (3, 4099), (1 << 14, 5), (224, 13, 7), (2, 65536)])
def test_long_digits_are_split_correctly(extents, axes):
    # a long digit is split (t = t0 + d*t1) to keep the doubling in cache: check every row, with
    # rows packed in one word (2 axes of 32 bits) and not (3 axes: rows of 12 bytes)
    strides = [(-1) ** k * (5 + 3 * k) for k in range(len(extents))]
    on = [axes[k % len(axes)] for k in range(len(extents))]
    lay = MixedRadixLayout({"x": [(e, s, a) for e, s, a in zip(extents, strides, on)]}, offset={a: 10**6 for a in axes})
    n = int(np.prod(extents))
    idx = np.arange(n, dtype=np.int64)
    want = {a: np.full(n, 10**6) for a in axes}
    for e, s, a in zip(extents, strides, on):
        want[a] += (idx % e) * s
        idx //= e
    t = lay.table()
    for c, a in enumerate(lay.axes):
        assert np.array_equal(t[:, c].astype(np.int64), want[a])
    cl = Layout(tuple(extents), tuple(strides))
    assert np.array_equal(cl.table().astype(np.int64), sum(want.values()) - len(axes) * 10**6)


_small_digit = st.tuples(st.integers(1, 6), st.lists(st.integers(-(2**20), 2**20), min_size=3, max_size=3))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_small_digit, min_size=1, max_size=7),
    st.lists(st.integers(-(2**20), 2**20), min_size=3, max_size=3),
    st.integers(1, 3),
    st.sampled_from([1, 2**7, 2**15, 2**31, 2**63]),
    st.sampled_from([(1, 1, 1), (1, 64, 8), (2, 4, 2), (8, 8, 4), (16, 64, 8)]),
)
def test_tabulate_blocks_and_word_writes_are_exact(digits, base, k, scale, sizes):
    # shrink the block, the Python-list tables and the row minimum so that small tables take every
    # path of large ones: the block plus a short table, split long digits, long digits by numpy,
    # rows packed in one word and rows written over words (3 columns), signed and unsigned
    import linlayout.tabulate as tab

    digits = [(e, [x % scale - scale // 2 for x in v[:k]]) for e, v in digits]
    base = [x % scale - scale // 2 for x in base[:k]]
    xd = [(2, [abs(x) for x in v]) for _, v in digits]
    n = int(np.prod([e for e, _ in digits]))
    idx = np.arange(n, dtype=object)
    want = np.array([base] * n, dtype=object).reshape(n, k)
    xbase = [abs(x) for x in base]
    xwant = np.array([xbase] * (1 << len(xd)), dtype=object).reshape(-1, k)
    for e, v in digits:
        want += np.outer(idx % e, v)
        idx //= e
    xi = np.arange(1 << len(xd), dtype=object)
    for j, (_, v) in enumerate(xd):
        xwant ^= np.outer((xi >> j) & 1, v)
    knobs = ("_PY_ROWS", "_BLOCK_BYTES", "_BLOCK_ROWS", "_WIDE_FIRST_ROWS", "_WIDE_BLOCK_BYTES", "_WIDE_TILE_ROWS")
    saved = [getattr(tab, name) for name in knobs]
    try:
        for name, value in zip(knobs, sizes + (sizes[2], 8 * sizes[1], sizes[0])):
            setattr(tab, name, value)
        t = tabulate(digits, base, "add")
        x = tabulate(xd, xbase, "xor")
        fields = [(64 * c, (1 << 64) - 1) for c in range(k)]
        images = [sum(col << (64 * c) for c, col in enumerate(v)) for _, v in xd]
        x0 = tabulate(xd, [0] * k, "xor")
        xf = tab.tabulate_xor(images, fields, x0.dtype)
    finally:
        for name, value in zip(knobs, saved):
            setattr(tab, name, value)
    assert t.astype(object).tolist() == want.tolist()
    assert x.astype(object).tolist() == xwant.tolist()
    assert x0.astype(object).tolist() == (xwant ^ np.array(xbase, dtype=object)).tolist()
    assert xf.tolist() == x0.tolist() and xf.dtype == x0.dtype


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(-9, 9), st.integers(0, 2)), min_size=1, max_size=4))
def test_cute_coord_table_is_the_layout(modes):
    from converters.cute.layout import E

    strides = tuple(E(d, i) if d else 0 for _, d, i in modes)
    assume(any(type(d) is E for d in strides))
    L = Layout(tuple(s for s, _, _ in modes), strides)
    t = L.coord_table()
    want = [list(L(i)) for i in range(L.size())]
    assert t.astype(object).tolist() == [w + [0] * (t.shape[1] - len(w)) for w in want]
    assert t.dtype == smallest([v for w in want for v in w])


@pytest.mark.parametrize("call", [
    lambda: value_range([(2, (1, 0))], np.zeros((2, 2), dtype=int), "add"),  # a 2-D numpy base: rows are not ints
    lambda: tabulate([(2, (1, 0))], np.zeros((2, 2), dtype=int), "add"),
    lambda: tabulate([(2, np.zeros((1, 1)))], [0], "add"),
    lambda: tabulate([(2, (True,))], [0], "add"),
    lambda: tabulate([(2, (1,))], "a", "add"),
    lambda: value_range([(2, (0.5,))], (0,), "xor"),
])
def test_malformed_vectors_are_basis_errors(call):
    # the API fuzzer's wrong-type outcome: `if not base` on a 2-D array raised numpy's "truth value
    # of an array is ambiguous"; every malformed vector entry is a BasisError naming it
    with pytest.raises(BasisError, match=r"tabulate: (the base|digit 0's vector)"):
        call()


def test_malformed_extents_and_sizes_are_size_errors():
    with pytest.raises(SizeError, match="extent must be >= 0"):
        tabulate([(-1, (1,))], (0,))
    with pytest.raises(SizeError, match=r"must be 2 \(an XOR table\)"):
        tabulate([(3, (1,))], (0,), "xor")
    with pytest.raises(SizeError, match="rows; at most"):
        tabulate([(1 << 40, (1,))], (0,))
    # numpy integers and arrays of them are ints: the same table as Python ints
    assert tabulate([(np.int64(3), np.array([2, -1]))], np.array([1, 5])).tolist() == \
        tabulate([(3, (2, -1))], (1, 5)).tolist() == [[1, 5], [3, 4], [5, 3]]
