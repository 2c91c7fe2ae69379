"""The fast paths of whole-layout XOR tables (rows packed in one word, rows wider than a word),
against evaluation point by point on small tables (with the block, list-table and tile sizes
shrunk so that small tables take every path of large ones) and against a bit-plane evaluation
in numpy on tables large enough to cross the real sizes."""

from __future__ import annotations

import contextlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import linlayout.tabulate as tab
from linlayout import LinearLayout
from linlayout.errors import LayoutError
from linlayout.tabulate import smallest_dtype, tabulate, tabulate_xor

#: Every size knob of the XOR paths, with the values a test may shrink it to.
KNOBS = {
    "_BLOCK_ROWS": [1, 2, 8, 4096],
    "_BLOCK_BYTES": [1, 16, 1 << 14],
    "_ACC_BITS": [0, 1, 2, 3, 10],
    "_WIDE_FIRST_ROWS": [1, 2, 8, 1024],
    "_WIDE_BLOCK_BYTES": [1, 24, 96, 3 << 20],
    "_WIDE_TILE_ROWS": [1, 8, 16, 1 << 14],
}


@contextlib.contextmanager
def knobs(values):
    saved = {k: getattr(tab, k) for k in values}
    try:
        for k, v in values.items():
            setattr(tab, k, v)
        yield
    finally:
        for k, v in saved.items():
            setattr(tab, k, v)


knob_values = st.fixed_dictionaries({k: st.sampled_from(v) for k, v in KNOBS.items()})


@st.composite
def layouts(draw, max_bits: int):
    """1-6 out-dims of 2**0 .. 2**40 (dtypes uint8 .. uint64, rows of 1 to 48 bytes; at most 62
    output bits), random bases."""
    widths = draw(st.lists(st.sampled_from([0, 1, 3, 8, 9, 16, 17, 31, 32, 40]), min_size=1, max_size=6)
                  .filter(lambda ws: sum(ws) <= 62))  # a layout has at most 62 output bits
    outs = {f"dim{i}": 1 << w for i, w in enumerate(widths)}
    bits = draw(st.integers(0, max_bits))
    cut = draw(st.integers(0, bits))
    vec = st.tuples(*[st.integers(0, s - 1) for s in outs.values()]).map(list)
    bases = {"register": draw(st.lists(vec, min_size=cut, max_size=cut)),
             "lane": draw(st.lists(vec, min_size=bits - cut, max_size=bits - cut))}
    return LinearLayout(bases, outs, require_surjective=False)


def flat_inputs(L):
    names, sizes = list(L.in_dims), list(L.in_dims.values())
    for k in range(L.total_in_size):
        p = {}
        for n, s in zip(names, sizes):
            p[n] = k % s
            k //= s
        yield p


@settings(max_examples=300, deadline=None)
@given(layouts(max_bits=9), knob_values)
def test_linear_table_is_apply_on_every_path(L, sizes):
    with knobs(sizes):
        t = L.table()
        flat = L.flat_table()
    assert t.shape == (L.total_in_size, len(L.out_dims))
    assert t.dtype == smallest_dtype(0, max(L.out_dims.values()) - 1)
    assert flat.dtype == smallest_dtype(0, L.total_out_size - 1)
    for k, p in enumerate(flat_inputs(L)):
        assert t[k].tolist() == list(L.apply(p).values())
        assert int(flat[k]) == L.apply_flat(k)


def bit_planes(images, fields, n):
    """The table of a GF(2) map by numpy: each flat output the XOR of the images of its input's
    set bits (flat outputs below 2**64), each column a field of it."""
    idx = np.arange(n, dtype=np.uint64)
    acc = np.zeros(n, dtype=np.uint64)
    for j, b in enumerate(images):
        acc ^= ((idx >> np.uint64(j)) & np.uint64(1)) * np.uint64(b)
    return np.stack([(acc >> np.uint64(sh)) & np.uint64(m) for sh, m in fields], axis=1)


@settings(max_examples=12, deadline=None)
@given(st.integers(1, 6), st.sampled_from([1, 2, 4, 8]), st.integers(13, 18), st.randoms(use_true_random=False), st.booleans())
def test_large_xor_tables_match_bit_planes(k, size, m, rnd, gray):
    # sizes that cross the real block (4096-16384 rows), first-block (1024 rows) and tile (16384
    # rows) sizes; the Gray-code copies of wide rows with a block shrunk below the table
    w = min(8 * size, 63 // k)
    fields = [(w * c, (1 << rnd.randint(1, w)) - 1) for c in range(k)]
    images = [rnd.getrandbits(w * k) for _ in range(m)]
    dt = smallest_dtype(0, (1 << w) - 1) if size == 1 else np.dtype(f"uint{8 * size}")
    with knobs({"_WIDE_BLOCK_BYTES": 3 << 12} if gray else {}):
        t = tabulate_xor(images, fields, dt)
    assert t.dtype == dt and t.shape == (1 << m, k)
    assert np.array_equal(t.astype(np.uint64), bit_planes(images, fields, 1 << m))


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 6),
    st.sampled_from(["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "object"]),
    st.integers(0, 9),
    st.randoms(use_true_random=False),
    knob_values,
)
def test_tabulate_xor_every_dtype(k, dtype, m, rnd, sizes):
    dt = np.dtype(dtype)
    w = 80 if dt.kind == "O" else 8 * dt.itemsize - (dt.kind == "i")  # a signed column holds 0 .. 2**(w-1) - 1
    fields = [(rnd.randint(0, 90), (1 << rnd.randint(0, w)) - 1) for _ in range(k)]
    images = [rnd.getrandbits(100) for _ in range(m)]
    with knobs(sizes):
        t = tabulate_xor(images, fields, dt)
        via_digits = tabulate([(2, [(b >> sh) & mk for sh, mk in fields]) for b in images], [0] * k, "xor", dt)
    want = []
    for i in range(1 << m):
        f = 0
        for j, b in enumerate(images):
            if i >> j & 1:
                f ^= b
        want.append([(f >> sh) & mk for sh, mk in fields])
    assert t.dtype == dt and via_digits.dtype == dt
    assert [[int(x) for x in r] for r in t.tolist()] == want
    assert [[int(x) for x in r] for r in via_digits.tolist()] == want


def test_masks_wider_than_the_dtype_wrap_and_bad_fields_are_refused():
    # a value is kept modulo the dtype's width, in every path (1, 2 and 3 columns)
    for k in (1, 2, 3):
        t = tabulate_xor([0x1FF, 0x3FE], [(0, 0xFFFF)] * k, np.dtype(np.uint8))
        assert t[:, 0].tolist() == [0, 0xFF, 0xFE, 0x01]
    for fields in ([(-1, 3)], [(0,)], [("0", 3)]):
        try:
            tabulate_xor([1], fields, np.dtype(np.uint8))
        except LayoutError:
            continue
        raise AssertionError(f"{fields} accepted")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 9), st.booleans(), st.lists(st.integers(-(2**9), 2**17), min_size=3, max_size=3)),
             min_size=1, max_size=5),
    st.lists(st.integers(-(2**9), 2**17), min_size=3, max_size=3),
    st.integers(1, 3),
    st.sampled_from([1, 2, 4, 64]),
    st.sampled_from([(1, 1), (8, 4), (64, 8), (1 << 14, 4096)]),
)
def test_sums_of_contiguous_and_long_digits(digits, base, k, py_rows, block):
    # a digit whose step is the span of the one before continues it (merged into one digit), and a
    # digit longer than a list table is one arange when no value wraps: both against the sum
    steps = []
    for e, contiguous, v in digits:
        if contiguous and steps:
            pe, pv = steps[-1]
            v = [x * pe for x in pv]
        steps.append((e, v[:k]))
    base = base[:k]
    n = int(np.prod([e for e, _ in steps]))
    want = []
    for i in range(n):
        row, r = list(base), i
        for e, v in steps:
            row = [x + (r % e) * y for x, y in zip(row, v)]
            r //= e
        want.append(row)
    with knobs({"_PY_ROWS": py_rows, "_BLOCK_BYTES": block[0], "_BLOCK_ROWS": block[1]}):
        t = tabulate(steps, base, "add")
    assert t.dtype == smallest_dtype(min(min(r) for r in want), max(max(r) for r in want))
    assert [[int(x) for x in r] for r in t.tolist()] == want


def _sum_by_points(steps, base):
    rows = []
    for i in range(int(np.prod([e for e, _ in steps]))):
        row, r = list(base), i
        for e, v in steps:
            row = [x + (r % e) * y for x, y in zip(row, v)]
            r //= e
        rows.append(row)
    return rows


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([[2, 6], [2, 7], [2, 7, 3], [3, 5, 2, 2], [1, 9, 4], [4, 3], [2, 9], [3, 11]]),
    st.integers(1, 4),
    st.randoms(use_true_random=False),
    st.sampled_from([1, 2, 4, 64]),
    st.sampled_from([0, 1, 8]),
    st.booleans(),
)
def test_sums_split_at_the_block_on_every_path(extents, k, rnd, py_rows, one_digit, signed):
    # a block of 4 rows: the digit where it ends splits as t0 + d*t1; when d divides the extent the
    # block is written in place and every further block is it plus one row of the short table;
    # when it does not and the split digit is the last, the leftover rows are the first ones plus
    # one value; with digits above it, the general path ([2, 6], [2, 7], [2, 7, 3] take the three);
    # two digits whose parts are all longer than _ONE_DIGIT_LIST and do not wrap: three aranges
    # and no short-table planning ([2, 9] with one_digit 0 or 1 and non-negative strides); rows of
    # 1-4 columns (4 of int16: eight-byte rows, one uint64 lane each)
    lo = -300 if signed else 0
    steps = [(e, [rnd.randint(lo, 300) for _ in range(k)]) for e in extents]
    base = [rnd.randint(lo // 6, 50) for _ in range(k)]
    with knobs({"_PY_ROWS": py_rows, "_BLOCK_BYTES": 1, "_BLOCK_ROWS": 4, "_ONE_DIGIT_LIST": one_digit}):
        t = tabulate(steps, base, "add")
    assert [[int(x) for x in r] for r in t.tolist()] == _sum_by_points(steps, base)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 12), st.one_of(st.integers(-300, 300), st.sampled_from([2**31, -(2**33), 2**62, 2**63])),
                       st.integers(0, 2)), min_size=1, max_size=4),
    st.lists(st.integers(-(2**20), 2**20), min_size=3, max_size=3),
    st.integers(1, 3),
    st.sampled_from([(1 << 14, 4096, 8), (1, 4, 0), (1, 4, 1), (1, 8, 8)]),
)
def test_sparse_sums_are_the_dense_ones(digits, base, k, sizes):
    # a mixed-radix layout's digits each move one column: (extent, stride, column) tabulated
    # straight from the strides agrees with the sum point by point and with the dense tabulate
    # (same dtype), through packed rows, signed lanes, wide rows and Python ints, on every path
    digits = [(e, s, c % k) for e, s, c in digits]
    base = base[:k]
    dense = []
    for e, s, c in digits:
        v = [0] * k
        v[c] = s
        dense.append((e, v))
    n = int(np.prod([e for e, _, _ in digits]))
    with knobs({"_BLOCK_BYTES": sizes[0], "_BLOCK_ROWS": sizes[1], "_ONE_DIGIT_LIST": sizes[2]}):
        t = tab._tabulate_sparse(digits, base, n)
        d = tabulate(dense, base, "add")
    assert t.dtype == d.dtype and t.shape == (n, k)
    assert [[int(x) for x in r] for r in t.tolist()] == _sum_by_points(dense, base)
