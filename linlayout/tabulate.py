"""Whole-layout evaluation at memory speed: every point of a layout in a handful of numpy calls.

A layout whose flat input splits into digits (fastest first; a GF(2) layout's input bits are
digits of extent 2) has the table ``row(j + h*r) = lo[j] (+) hi[r]``, where ``lo`` is the table
of the fastest digits (a *block* of ``h`` rows, about 16 KiB and at least 4096 elements: it stays
in cache, and numpy's broadcast over shorter rows is several times slower) and ``hi`` the table
of the rest (``(+)`` is ``+`` for a mixed-radix digit, XOR for a GF(2) basis).  The short tables
cost a few numpy calls whatever their length, so what matters before the one big write is how few
calls and Python steps build them: an XOR table's are prefix XORs (row ``i`` is row ``i - 1`` XOR
the prefix of the images up to the lowest set bit of ``i``: one ``accumulate`` over one indexed
array for the two halves of the block and the bits above it, one broadcast for the block); a
sum's digits longer than a few values are ``arange`` calls, shorter ones grouped as Python lists
(about the square root of a table's length each, converted to numpy in one call), combined by one
broadcast call per further group, and the commonest sum (two digits: a row of columns, rows) is
three aranges.  The block is written in place into the first rows of the output, one
preallocated array of the smallest integer dtype that holds every value, and every further block
from it by one broadcast call, so the time is close to numpy's time to write the array, and
peak memory is the output itself.  The digit where the block ends is split (``t = t0 + d*t1``);
when ``d`` does not divide its extent, the rows past the last whole multiple are one more call.

When a row (every output column) fits in 1, 2, 4 or 8 bytes, the rows are viewed as single
unsigned integers with the columns in separate lanes (numpy arrays are little-endian here):
XOR never crosses lanes, and packing is additive modulo the word, so ``+`` of packed rows is
``+`` of rows (signed columns are biased by ``2**(w-1)`` so that each final lane is in
``[0, 2**w)``, then flipped back with one XOR).  Wider rows (3 columns, say) are written over
8-byte machine words that each hold whole elements of one or more rows: an XOR table builds its
first kilobytes as one Python int, doubles them once per input bit (the new half is the old half
XOR the bit's row repeated) and then copies the block in Gray-code order, each copy the one
before it XOR one input bit's repeated row (numpy cannot broadcast a row that is not one word
over a contiguous output, so the final pass reads an earlier part of the output back: close to
numpy's time to copy the array, not to fill it); a sum writes one word-wise call along the words that
share a position in the period of rows, with ``lo`` and ``hi`` holding non-negative lane values
that sum to the final value, so no lane carries into its neighbour.

Values outside 64-bit integers are tabulated as Python ints in an object array (exact, slower;
at most ``MAX_OBJECT_CELLS`` cells, else a :class:`~linlayout.errors.SizeError`).

    >>> tabulate([(3, (1, 0)), (2, (0, 5))], base=(0, 1), op="add").tolist()
    [[0, 1], [1, 1], [2, 1], [0, 6], [1, 6], [2, 6]]
    >>> tabulate([(2, (1,)), (2, (3,))], base=(0,), op="xor").ravel().tolist()
    [0, 1, 3, 2]
    >>> tabulate([(4, (2**62,))], base=(0,), op="add").dtype
    dtype('uint64')
    >>> tabulate([(4, (2**63,))], base=(0,), op="add").ravel().tolist()[-1] == 3 * 2**63
    True
"""

from __future__ import annotations

import functools
import math
import sys
from array import array
from collections.abc import Callable, Sequence
from itertools import accumulate
from operator import xor
from typing import Any, TypeVar

import numpy as np

from .checks import as_int
from .errors import BasisError, LayoutError, SizeError
from .limits import MAX_ITEMS, MAX_RANK, MAX_TABLE_LOG2, as_list

__all__ = ["smallest_dtype", "tabulate", "tabulate_xor", "value_range", "MAX_OBJECT_CELLS"]

#: Largest table (rows x columns) of Python ints, for values beyond 64 bits (about 50 bytes a cell).
MAX_OBJECT_CELLS = 1 << 20
#: Most rows of any table: the callers' own limits are lower (2**24 for linlayout's layouts, 2**26
#: for CuTe's); this one refuses an absurd request before numpy tries to allocate it.
MAX_ROWS_LOG2 = MAX_TABLE_LOG2 + 2

_UNSIGNED: tuple[np.dtype, ...] = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.uint32), np.dtype(np.uint64))
_SIGNED: tuple[np.dtype, ...] = (np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.int32), np.dtype(np.int64))
#: The unsigned dtype of each size in bytes (a row of packed columns, or a machine word).
_LANES: dict[int, np.dtype] = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32), 8: np.dtype(np.uint64)}
_OBJECT = np.dtype(object)


def smallest_dtype(lo: int, hi: int) -> np.dtype:
    """The smallest integer dtype holding every value in ``[lo, hi]`` (unsigned when ``lo >= 0``);
    ``object`` (Python ints) beyond 64 bits.

        >>> smallest_dtype(0, 255), smallest_dtype(-1, 255), smallest_dtype(-128, 127), smallest_dtype(0, 2**64)
        (dtype('uint8'), dtype('int16'), dtype('int8'), dtype('O'))
    """
    return _smallest_dtype(as_int(lo, "smallest_dtype: lo", LayoutError), as_int(hi, "smallest_dtype: hi", LayoutError))


def _smallest_dtype(lo: int, hi: int) -> np.dtype:
    """:func:`smallest_dtype` of two Python ints, unchecked."""
    if lo >= 0:
        bits, kinds = hi.bit_length(), _UNSIGNED
    else:
        bits, kinds = max(hi.bit_length(), (-lo - 1).bit_length()) + 1, _SIGNED
    for dt in kinds:
        if bits <= dt.itemsize * 8:
            return dt
    return _OBJECT


def value_range(digits: Sequence[tuple[int, Sequence[int]]], base: Sequence[int], op: str) -> tuple[int, int]:
    """The smallest and largest value over every column of the table of ``digits`` (exact for
    ``add``; for ``xor`` an upper bound: the OR of every step).

        >>> value_range([(3, (1, 0)), (2, (0, -5))], (0, 1), "add")
        (-4, 2)
    """
    digits, base, _, _ = _checked(digits, base, op, None)
    return _value_range(digits, base, op)


def _value_range(digits: Sequence[tuple[int, Sequence[int]]], base: Sequence[int], op: str) -> tuple[int, int]:
    if not base:
        return 0, 0
    if op == "xor":
        acc = [0] * len(base)
        for _, v in digits:
            acc = [a | x for a, x in zip(acc, v)]
        return 0, max(a | b for a, b in zip(acc, base))
    lo, hi = list(base), list(base)
    for e, v in digits:
        for c, x in enumerate(v):
            if x < 0:
                lo[c] += x * (e - 1)
            else:
                hi[c] += x * (e - 1)
    return min(lo), max(hi)


def tabulate(
    digits: Sequence[tuple[int, Sequence[int]]],
    base: Sequence[int],
    op: str = "add",
    dtype: np.dtype | None = None,
) -> np.ndarray:
    """The table ``(prod of extents, len(base))`` of a map given by digits, fastest first.

    Row ``i`` (``i = t0 + e0 * (t1 + e1 * ...)``) is ``base + sum(tk * vk)`` (``op="add"``) or
    ``base ^ XOR(vk for tk == 1)`` (``op="xor"``, every extent 2).  ``dtype`` defaults to
    :func:`smallest_dtype` of the values (an explicit one must hold them; nothing is checked).

        >>> tabulate([(2, (4,)), (3, (-1,))], base=(2,)).ravel().tolist()
        [2, 6, 1, 5, 0, 4]
    """
    digits, base, n, dt = _checked(digits, base, op, dtype)
    if n > 1 << MAX_ROWS_LOG2:
        raise SizeError(f"tabulate: a table of {n} rows; at most 2**{MAX_ROWS_LOG2}")
    return _tabulate(digits, base, op, dt, n)


def _tabulate(
    digits: Sequence[tuple[int, Sequence[int]]], base: Sequence[int], op: str = "add", dt: np.dtype | None = None, n: int = -1
) -> np.ndarray:
    """:func:`tabulate` without checking its arguments, for callers that built them (extents and
    vector entries Python ints, vectors as long as the base, at most ``2**MAX_ROWS_LOG2`` rows);
    ``n`` is the number of rows when known."""
    k = len(base)
    if n < 0:
        n = math.prod(e for e, _ in digits)
    if dt is None:
        dt = _smallest_dtype(*_value_range(digits, base, op))
    if dt == _OBJECT and n * k > MAX_OBJECT_CELLS:
        raise SizeError(
            f"table: the values do not fit in 64 bits, and a table of Python ints is limited to "
            f"{MAX_OBJECT_CELLS} cells (this one has {n} x {k})"
        )
    out = np.empty((n, k), dtype=dt)
    if n == 0 or k == 0:
        return out
    if dt == _OBJECT:
        _fill_object(out, digits, base, op)
        return out
    w = dt.itemsize * 8
    lane = _LANES.get(dt.itemsize * k) if _LITTLE else None
    if lane is not None:
        _fill_packed(out.view(lane).reshape(n), digits, base, op, w, dt.kind == "i" and k > 1 and op == "add")
    elif op == "xor":
        _fill_wide_xor(out, [v for _, v in digits], base)
    else:
        _fill_columns(out, digits, base, op, w, dt.kind == "i")
    return out


def _tabulate_sparse(digits: Sequence[tuple[int, int, int]], base: Sequence[int], n: int) -> np.ndarray:
    """:func:`_tabulate` of a sum whose every digit moves one column, given as ``(extent, stride,
    column)`` (a mixed-radix layout's digits): the value range, the dtype and the packed rows come
    straight from the strides, without a vector per digit (fewer steps before the one write).

        >>> _tabulate_sparse([(3, 1, 0), (2, 5, 1)], (0, 1), 6).tolist()
        [[0, 1], [1, 1], [2, 1], [0, 6], [1, 6], [2, 6]]
    """
    k = len(base)
    lo, hi = list(base), list(base)
    for e, s, c in digits:
        if s < 0:
            lo[c] += s * (e - 1)
        else:
            hi[c] += s * (e - 1)
    dt = _smallest_dtype(min(lo, default=0), max(hi, default=0))
    lane = _LANES.get(dt.itemsize * k) if _LITTLE and dt.kind in "ui" and n else None
    if lane is None:  # values beyond 64 bits, rows wider than a word, or nothing to write
        vectors = []
        for e, s, c in digits:
            v = [0] * k
            v[c] = s
            vectors.append((e, v))
        return _tabulate(vectors, base, "add", dt, n)
    out = np.empty((n, k), dtype=dt)
    w = dt.itemsize * 8
    width = (1 << (8 * lane.itemsize)) - 1
    bias = 1 << (w - 1) if dt.kind == "i" and k > 1 else 0
    flat = out.view(lane).reshape(n)
    _fill(flat, [(e, (s << (w * c)) & width) for e, s, c in digits], sum((x + bias) << (w * c) for c, x in enumerate(base)) & width,
          "add", width)
    if bias:
        np.bitwise_xor(flat, lane.type(sum(bias << (w * c) for c in range(k))), out=flat)
    return out


def tabulate_xor(images: Sequence[int], fields: Sequence[tuple[int, int]], dtype: np.dtype) -> np.ndarray:
    """The table of a GF(2)-linear map given by the flat images of its input bits (the XOR of
    the images of the set bits): ``(2**len(images), len(fields))``, column ``c`` of a row being
    ``(flat >> shift) & mask`` for ``fields[c] == (shift, mask)``; the same as :func:`tabulate`
    with ``op="xor"`` on the split images, without building them one tuple at a time.

        >>> tabulate_xor([0b01, 0b11, 0b10], [(0, 1), (1, 1)], np.dtype(np.uint8)).tolist()
        [[0, 0], [1, 0], [1, 1], [0, 1], [0, 1], [1, 1], [1, 0], [0, 0]]
    """
    try:
        dt = np.dtype(dtype)
        len(fields)  # a sized sequence (a TypeError otherwise: refused below)
        ok = dt.kind in "uiO" and set(map(type, images)) <= _INT and \
            all(len(f) == 2 and type(f[0]) is int and type(f[1]) is int and f[0] >= 0 for f in fields)
    except (TypeError, ValueError, SyntaxError):  # np.dtype("01") is a SyntaxError
        ok = False
    if not ok:
        raise LayoutError("tabulate_xor: images must be ints, fields (shift >= 0, mask) pairs of ints and dtype "
                          "a numpy integer dtype")
    if len(images) > MAX_ROWS_LOG2:
        raise SizeError(f"tabulate_xor: a table of 2**{len(images)} rows; at most 2**{MAX_ROWS_LOG2}")
    return _tabulate_xor(images, fields, dt)


def _tabulate_xor(images: Sequence[int], fields: Sequence[tuple[int, int]], dt: np.dtype) -> np.ndarray:
    """:func:`tabulate_xor` without checking its arguments (for callers that validated them:
    ints, ``(shift, mask)`` pairs of ints, an integer dtype, at most ``2**MAX_ROWS_LOG2`` rows)."""
    k = len(fields)
    size = dt.itemsize
    w = size * 8
    wm = (1 << w) - 1  # a value is kept modulo the dtype's width (it must hold them: nothing is checked)
    n = 1 << len(images)
    lane = _LANES.get(size * k) if _LITTLE and dt.kind in "ui" else None
    if lane is not None:  # the common case first, with the fewest steps (see _fill_xor)
        out = np.empty((n, k), dtype=dt)
        if k == 1:
            (s0, m0), = fields
            m0 &= wm
            packed = [b & m0 for b in images] if not s0 else [(b >> s0) & m0 for b in images]
        elif k == 2:
            (s0, m0), (s1, m1) = fields
            m0 &= wm
            m1 &= wm
            if s0:
                packed = [((b >> s0) & m0) | (((b >> s1) & m1) << w) for b in images]
            else:
                packed = [(b & m0) | (((b >> s1) & m1) << w) for b in images]
        else:
            packed = [sum(((b >> sh) & (m & wm)) << (w * c) for c, (sh, m) in enumerate(fields)) for b in images]
        _fill_xor(out.view(lane).reshape(n), packed, 0)
        return out
    if dt.kind in "ui":
        fields = [(sh, m & wm) for sh, m in fields]
    if not (_LITTLE and dt.kind in "ui" and k):
        cols = [[(b >> sh) & m for b in images] for sh, m in fields]
        return tabulate([(2, v) for v in zip(*cols)] if k else [(2, ())] * len(images), [0] * k, "xor", dt)
    out = np.empty((n, k), dtype=dt)  # rows wider than a word: written as bytes
    R = size * k
    if k == 3:
        (s0, m0), (s1, m1), (s2, m2) = fields
        rows = [(((b >> s0) & m0) | (((b >> s1) & m1) << w) | (((b >> s2) & m2) << (2 * w))).to_bytes(R, "little")
                for b in images]
    else:
        rows = [sum(((b >> sh) & m) << (w * c) for c, (sh, m) in enumerate(fields)).to_bytes(R, "little") for b in images]
    _fill_wide_rows(out, rows, bytes(R))
    return out


_INT = {int}
_LITTLE = sys.byteorder == "little"


def _checked(digits: Any, base: Any, op: str, dtype: Any) -> tuple[list[tuple[int, Sequence[int]]], Sequence[int], int, np.dtype | None]:
    """``(digits, base, number of rows, dtype or None)`` after checking the arguments, the
    digits' extents and every entry of the vectors as Python ints: a
    :class:`~linlayout.errors.LayoutError` subclass saying what is malformed (a
    :class:`~linlayout.errors.BasisError` for a vector's entries, a
    :class:`~linlayout.errors.SizeError` for an extent), never a numpy or unpacking error from
    deep inside."""
    if not isinstance(op, str) or op not in ("add", "xor"):
        raise LayoutError(f"tabulate: op must be 'add' or 'xor', got {op!r:.40}")
    if type(digits) is not list and type(digits) is not tuple:
        digits = as_list(digits, "tabulate: digits", MAX_ITEMS * MAX_RANK)
    try:
        base = _ints(base, "tabulate: the base")
        k = len(base)
        n = 1
        steps = []
        for j, (e, v) in enumerate(digits):
            v = _ints(v, f"tabulate: digit {j}'s vector")
            if len(v) != k:
                raise BasisError(f"tabulate: digit {j}'s vector {v!r:.60} has {len(v)} entries, the base {k}")
            if type(e) is not int:
                e = as_int(e, f"tabulate: digit {j}'s extent")
            if e < 0 or (op == "xor" and e != 2):
                raise SizeError(f"tabulate: digit {j}'s extent must be {'2 (an XOR table)' if op == 'xor' else '>= 0'}, got {e}")
            steps.append((e, v))
            n *= e
        dt = None if dtype is None else np.dtype(dtype)
    except (TypeError, ValueError, SyntaxError) as exc:  # np.dtype("01") is a SyntaxError
        if isinstance(exc, LayoutError):
            raise
        raise LayoutError("tabulate: digits must be (extent, vector) pairs with vectors as long as the base, "
                          "and dtype a numpy dtype") from None
    return steps, base, n, dt


def _ints(vec: Any, what: str) -> Sequence[int]:
    """``vec`` (a vector of a digit, or the base) with every entry a Python int; else a
    :class:`~linlayout.errors.BasisError` naming ``what`` (a 2-D array's rows are not ints), or a
    :class:`~linlayout.errors.SizeError` past :data:`~linlayout.limits.MAX_RANK` entries (read no
    further: a ``range(10**12)`` is refused, not listed)."""
    if (type(vec) is tuple or type(vec) is list) and len(vec) <= MAX_RANK and set(map(type, vec)) <= _INT:
        return vec
    items = as_list(vec, what, MAX_RANK, BasisError)  # at most one entry per column of the table
    return [as_int(x, f"{what}[{c}]", BasisError) for c, x in enumerate(items)]


#: The block of rows that the whole table is combined from: at least this many bytes (it stays in
#: the first-level cache)...
_BLOCK_BYTES = 1 << 14
#: ...and at least this many elements: numpy's broadcast over rows of fewer elements is several
#: times slower (4 MiB of uint32 here: 0.19 ms with rows of 2048 elements, 0.047 ms with 4096).
_BLOCK_ROWS = 1 << 12
#: Tables of up to this many rows are built as Python lists (cheaper than a numpy call per digit).
_PY_ROWS = 64
#: When every digit of the short tables has more than this many values (and none wraps), they are
#: ``arange`` calls, no list at all: one ``arange`` (0.3 us) costs less than its list and the
#: conversion (0.7 us for 18 values).  With lists built anyway, a digit is a list up to
#: ``_PY_ROWS`` values: one more numpy call costs more than a short list when the caches are cold
#: (a 2**20-point CuTe table took 3-5 us longer with its 16-value digits as aranges).
_ONE_DIGIT_LIST = 8
#: The block of a sum of wide rows (:func:`_fill_columns`): this many bytes, or at least this many rows.
_SPLIT_BLOCK_BYTES = 1 << 15
_SPLIT_BLOCK_ROWS = 1 << 13


def _fill_packed(
    flat: np.ndarray, digits: Sequence[tuple[int, Sequence[int]]], base: Sequence[int], op: str, w: int, biased: bool
) -> None:
    """Fill ``flat``, one unsigned integer per row with column ``c`` in bits ``w*c ..``: a row is
    one number, ``base + sum(t * step)`` of the packed numbers modulo the word (the packing is
    additive), or their XOR.  Signed columns of a sum are biased by ``2**(w-1)`` so that each lane
    of the final row is its value plus the bias, in ``[0, 2**w)``; one XOR flips the bias back."""
    width = (1 << (flat.itemsize * 8)) - 1
    if op == "xor":
        if len(base) == 1:
            _fill_xor(flat, [v[0] & width for _, v in digits], base[0] & width)
        else:
            _fill_xor(flat, [sum(x << (w * c) for c, x in enumerate(v)) & width for _, v in digits],
                      sum(x << (w * c) for c, x in enumerate(base)) & width)
        return
    if len(base) == 1:
        steps = [(e, v[0] & width) for e, v in digits]
        _fill(flat, steps, base[0] & width, op, width)
        return
    bias = 1 << (w - 1) if biased else 0
    if len(base) == 2:
        steps = [(e, (v[0] + (v[1] << w)) & width) for e, v in digits]
    else:
        steps = [(e, sum(x << (w * c) for c, x in enumerate(v)) & width) for e, v in digits]
    _fill(flat, steps, sum((x + bias) << (w * c) for c, x in enumerate(base)) & width, op, width)
    if bias:
        np.bitwise_xor(flat, flat.dtype.type(sum(bias << (w * c) for c in range(len(base)))), out=flat)


def _fill(flat: np.ndarray, steps: list[tuple[int, int]], base: int, op: str, mask: int) -> None:
    """Fill the 1-D ``flat`` with the table of ``steps`` (ints modulo ``mask + 1``), in one
    broadcast call: ``row(j + h*r) = lo[j] (+) hi[r]`` with ``lo`` the table of the fastest digits
    (a block of ``h`` rows, about ``_BLOCK_BYTES``, that stays in cache) and ``hi`` the short table
    of the rest.  The digit where the block ends is split, ``t = t0 + d*t1`` with ``t0 < d``; when
    ``d`` divides the extent, or the split digit is the last, the block is written in place into
    the first rows and every further block read from it (when ``d`` does not divide, the rows past
    the last whole multiple, ``t1 = q``, are the first ones plus one value); otherwise the block is
    a temporary and the leftover rows of each ``r`` one more broadcast call."""
    n = len(flat)
    dt = flat.dtype
    target = max(_BLOCK_ROWS, _BLOCK_BYTES // dt.itemsize)
    if op == "add":  # a digit whose step is the previous one's span continues it: one digit, fewer calls
        merged: list[tuple[int, int]] = []
        span = -1  # the step that continues the last digit (none yet)
        for e, v in steps:
            if v == span:
                merged[-1] = (merged[-1][0] * e, merged[-1][1])
                span = (span * e) & mask
            elif e != 1:
                merged.append((e, v))
                span = (e * v) & mask
        steps = merged or [(1, 0)]
    if n <= 2 * target:
        _table(steps, base, op, dt, mask, flat)
        return
    i, h = 0, 1
    while h * steps[i][0] <= target:  # n > target: i stays in range
        h *= steps[i][0]
        i += 1
    e, v = steps[i]
    d = target // h  # 1 <= d < e
    q, rem = divmod(e, d)
    B = h * d
    hi_steps = [(q, (v * d) & mask)] + steps[i + 1 :]
    if i == 1 and len(hi_steps) == 1 and op == "add":
        # two digits, the commonest shape (a row of columns, rows): the block is the outer sum of
        # two aranges, the further blocks one more (the short tables inline: no list, no planning)
        e0, v0 = steps[0]
        lim = min(1 << 53, mask + 1)
        if min(e0, d, q) > _ONE_DIGIT_LIST and v0 and v and 0 <= base and base + e0 * v0 < lim and e * v < lim:
            np.add(np.arange(base, base + e0 * v0, v0, dtype=dt), np.arange(0, d * v, v, dtype=dt)[:, None],
                   out=flat[:B].reshape(d, h))
            np.add(flat[:B], np.arange(d * v, q * d * v, d * v, dtype=dt)[:, None], out=flat[B : q * B].reshape(q - 1, B))
            if rem:
                np.add(flat[: h * rem], dt.type(q * d * v), out=flat[q * B :])
            return
    if not rem or n == h * e:
        # the block is written in place (the first B rows), then every further block is the first
        # (+) a row of the short table (its row 0 is 0: the first block itself)
        hi, _ = _tables([(hi_steps, 0), (steps[:i] + [(d, v)], base)], op, dt, mask, flat[:B])
        if not rem:
            _UFUNC[op](flat[:B], hi[1:, None], out=flat[B:].reshape(len(hi) - 1, B))
            return
        # the split digit is the last (a sum: an XOR's extents are 2): q blocks, then the rows of
        # t1 = q, t0 < rem, the first rem * h rows plus one value
        np.add(flat[:B], hi[1:, None], out=flat[B : q * B].reshape(q - 1, B))
        np.add(flat[: h * rem], dt.type((v * d * q) & mask), out=flat[q * B :])
        return
    lo, hi = _tables([(steps[:i] + [(d, v)], base), (hi_steps, 0)], op, dt, mask)
    # digits above the split one, whose extent d does not divide: rows (r, t1 < q, t0 < d), then
    # the tail (r, t1 = q, t0 < rem)
    rows = flat.reshape(n // (h * e), h * e)
    np.add(lo[None, None, :], hi.reshape(len(rows), q, 1), out=rows[:, : q * B].reshape(len(rows), q, B))
    tail = np.add(hi.reshape(len(rows), q)[:, 0], dt.type((v * d * q) & mask))
    np.add(lo[None, : h * rem], tail[:, None], out=rows[:, q * B :])


_UFUNC = {"add": np.add, "xor": np.bitwise_xor}

#: The short tables of an XOR table (the two halves of the block, the bits above it) are prefix
#: XORs (one numpy ``accumulate``, see :func:`_xor_tables`) of at most this many bits each: above
#: it, the bits above the block are two such tables combined by one broadcast.  A numpy call costs
#: about a microsecond here whatever its length up to a thousand elements, a Python list element
#: 30-40 ns: 2**20 rows of 2 uint16 took 61 us with Python-list tables, the write alone 44 us.
_ACC_BITS = 10


def _fill_xor(flat: np.ndarray, images: Sequence[int], base: int) -> None:
    """Fill the 1-D ``flat`` (``2**len(images)`` unsigned ints) with ``base`` XOR the images of
    the set bits (ints within the dtype): the block of the lowest input bits (``_BLOCK_ROWS`` or
    ``_BLOCK_BYTES``, in cache) is written into the first rows of ``flat`` by one broadcast of the
    tables of its two halves, then one broadcast writes every further block as the first XOR the
    table of the other bits (two tables and one more broadcast when they are more than
    ``_ACC_BITS``).  Every short table comes from one :func:`_xor_tables` call: at most four numpy
    calls before the final write."""
    dt = flat.dtype
    m = len(images)
    a = max(_BLOCK_ROWS, _BLOCK_BYTES // dt.itemsize).bit_length() - 1
    if m <= a + 1:
        a = m
    if a <= _ACC_BITS and m == a:
        _xor_tables(images, (a,), base, dt, flat)
        return
    a1 = (a + 1) // 2
    rest = m - a
    sizes: tuple[int, ...] = (a1, a - a1)
    if rest:
        sizes += (rest,) if rest <= _ACC_BITS else ((rest + 1) // 2, rest // 2)
    tab = _xor_tables(images, sizes, base, dt)
    h0, h1 = 1 << sizes[0], 1 << sizes[1]
    h = h0 * h1
    np.bitwise_xor(tab[:h0], tab[h0 : h0 + h1, None], out=flat[:h].reshape(h1, h0))
    if not rest:
        return
    at = h0 + h1
    if len(sizes) == 3:
        hi = tab[at + 1 :]
    else:
        l0, l1 = 1 << sizes[2], 1 << sizes[3]
        hi = np.empty(l0 * l1, dt)
        np.bitwise_xor(tab[at : at + l0], tab[at + l0 :, None], out=hi.reshape(l1, l0))
        hi = hi[1:]
    np.bitwise_xor(flat[:h], hi[:, None], out=flat[h:].reshape(len(hi), h))


def _xor_tables(images: Sequence[int], sizes: Sequence[int], base: int, dt: np.dtype, out: np.ndarray | None = None) -> np.ndarray:
    """The XOR tables of consecutive groups of ``images`` (``sizes[g]`` images each, the first
    group from ``base``, the others from 0), one after the other in one array of the unsigned
    ``dt`` (into ``out`` if given).  Row ``i > 0`` of a group is row ``i - 1`` XOR the prefix XOR
    of its images up to the lowest set bit of ``i`` (``i - 1`` and ``i`` differ in exactly those
    bits), so every table is one prefix XOR over those prefixes picked in that order (one
    ``accumulate`` of one indexed array; a group's first entry XORs out the end of the group
    before it).

        >>> _xor_tables([1, 2, 4], (2, 1), 8, np.dtype(np.uint8)).tolist()
        [8, 9, 10, 11, 0, 4]
    """
    deltas: list[int] = []
    end = j = 0
    for g, t in enumerate(sizes):
        start = 0 if g else base
        deltas.append(end ^ start)
        end = start
        if t:
            deltas += accumulate(images[j : j + t], xor)
            end ^= deltas[-1]
        j += t
    picked = _array(deltas, dt)[_ruler_index(tuple(sizes))]
    return np.bitwise_xor.accumulate(picked, out=picked if out is None else out)


@functools.lru_cache(maxsize=256)
def _ruler_index(sizes: tuple[int, ...]) -> np.ndarray:
    """The index array of :func:`_xor_tables` for groups of ``sizes`` bits: per group, its reset
    entry, then for ``i = 1 .. 2**t - 1`` the prefix up to the lowest set bit of ``i``.  It depends
    on the sizes alone (a few dozen shapes), never on a layout."""
    idx: list[int] = []
    off = 0
    for t in sizes:
        idx.append(off)
        idx += [off + (i & -i).bit_length() for i in range(1, 1 << t)]
        off += t + 1
    arr = np.array(idx, dtype=np.intp)
    arr.flags.writeable = False
    return arr


_S = TypeVar("_S")


def _split(steps: Sequence[tuple[int, _S]], block: int, op: str, scale: Callable[[_S, int], _S]) -> tuple[int, list[tuple[int, _S]]]:
    """``(i, steps)``: the first ``i`` steps make the block (at most ``block`` rows, and near it
    when the digits allow: a long digit ``t`` splits into ``t0 + d*t1``, its step scaled by ``d``
    with ``scale``)."""
    steps = list(steps)
    i, h = 0, 1
    while i < len(steps) and h * steps[i][0] <= block:
        h *= steps[i][0]
        i += 1
    if op == "add" and i < len(steps) and h * 2 <= block:
        e, v = steps[i]
        d = _divisor_near(e, block // h)
        if d > 1:
            steps[i : i + 1] = [(d, v), (e // d, scale(v, d))]
            i += 1
    return i, steps


def _table(steps: Sequence[tuple[int, int]], base: int, op: str, dt: np.dtype, mask: int, out: np.ndarray | None = None) -> np.ndarray:
    """The 1-D table of ``steps`` (fastest first) from ``base``, into ``out`` if given."""
    return _tables([(steps, base)], op, dt, mask, out)[0]


def _tables(
    specs: Sequence[tuple[Sequence[tuple[int, int]], int]], op: str, dt: np.dtype, mask: int, out: np.ndarray | None = None
) -> list[np.ndarray]:
    """The 1-D tables of several ``(steps, base)`` (steps fastest first, ints modulo ``mask + 1``),
    the last one into ``out`` if given.  When every digit of a sum has more than
    ``_ONE_DIGIT_LIST`` values and none wraps, each is one ``arange``; otherwise each table is cut
    into groups of consecutive digits of at most ``_PY_ROWS`` rows, built as Python lists (a digit
    longer than that by numpy), the groups of every table converted to numpy in one call.  The
    parts are combined (``(+)``) by one broadcast call per further part: a few microseconds for the
    two small tables of :func:`_fill`."""
    plans: list[list[Any]] = []
    flat = _NO_ROWS
    if op == "add":  # every digit long enough to be one arange, and none wraps: no lists at all
        lim = min(1 << 53, mask + 1)
        ranges: list[list[tuple[int, int, int]]] = []
        for steps, base in specs:
            parts = []
            for e, v in steps:
                if e != 1:
                    if e <= _ONE_DIGIT_LIST or not v or base < 0 or base + e * v >= lim:
                        break
                    parts.append((base, base + e * v, v))
                    base = 0
            else:
                ranges.append(parts or [(base, base + 1, 1)])
                continue
            break
        else:
            plans = [[np.arange(*p, dtype=dt) for p in parts] for parts in ranges]
    if not plans:
        xor = op == "xor"
        rows_all: list[int] = []
        for steps, base in specs:
            groups: list[Any] = []  # (start, length) in rows_all, or a numpy array
            # groups of about the g-th root of the table's length (g the fewest groups of _PY_ROWS):
            # the fewest broadcast calls, and the fewest rows built in Python for that many
            total = 1
            for e, _ in steps:
                total *= e
            cap = max(2, _PY_ROWS)
            if total <= cap:
                enough = total
            elif total <= cap * cap:
                enough = math.isqrt(total - 1) + 1
            else:
                g = 3
                while cap**g < total:
                    g += 1
                enough = math.ceil(total ** (1 / g) - 1e-9)
            rows: list[int] | None = None
            h = lo = hi = 0
            for e, v in steps:
                if e == 1:
                    continue
                if rows is None or h * e > _PY_ROWS or h >= enough:
                    if rows is not None:
                        groups.append(_close(rows, rows_all, lo, hi, mask))
                    rows, h, lo, hi = None, 1, 0, 0
                    if not groups:
                        lo = hi = base
                    if e > _PY_ROWS:
                        groups.append(_long_digit(e, v, lo, op, dt))
                        continue
                    rows = [lo]
                if xor:
                    rows += [x ^ v for x in rows]
                    hi |= v
                else:
                    rows = [x + c for c in range(0, e * v, v) for x in rows] if v else rows * e
                    if v < 0:
                        lo += v * (e - 1)
                    else:
                        hi += v * (e - 1)
                h *= e
            if rows is not None:
                groups.append(_close(rows, rows_all, lo, hi, mask))
            elif not groups:
                groups.append(_close([base], rows_all, base, base, mask))
            plans.append(groups)
        flat = _array(rows_all, dt)
    ufunc = _UFUNC[op]
    res: list[np.ndarray] = []
    last = len(plans) - 1
    for k, groups in enumerate(plans):
        acc: np.ndarray | None = None
        into = out if k == last else None
        for j, part in enumerate(groups):
            arr: np.ndarray = flat[part[0] : part[0] + part[1]] if type(part) is tuple else part
            if acc is None:
                acc = arr
                continue
            dst = into if into is not None and j == len(groups) - 1 else np.empty(len(acc) * len(arr), dt)
            ufunc(acc, arr.reshape(-1, 1), dst.reshape(len(arr), len(acc)))
            acc = dst
        assert acc is not None  # every table has a group
        if into is not None and len(groups) == 1:
            into[:] = acc
            acc = into
        res.append(acc)
    return res


def _close(rows: list[int], rows_all: list[int], lo: int, hi: int, mask: int) -> tuple[int, int]:
    """Append a group's rows (values in ``[lo, hi]``) to ``rows_all``, reduced modulo ``mask + 1``
    when they leave ``[0, mask]``; its ``(start, length)``."""
    start = len(rows_all)
    rows_all += rows if lo >= 0 and hi <= mask else [x & mask for x in rows]
    return start, len(rows)


def _long_digit(e: int, v: int, base: int, op: str, dt: np.dtype) -> np.ndarray:
    """The table of one digit longer than a Python list table: its multiples by numpy (one
    ``arange`` when no value wraps, else 64-bit and truncated)."""
    if op == "add" and v and 0 <= base and base + e * v < min(1 << 53, 1 << (8 * dt.itemsize)):
        return np.arange(base, base + e * v, v, dtype=dt)  # the length e*v/v is exact below 2**53
    t = np.arange(e, dtype=np.uint64)
    np.multiply(t, np.uint64(v & _U64), out=t)
    if base:
        _UFUNC[op](t, np.uint64(base & _U64), out=t)
    return t.astype(dt, copy=False)


#: array-module type codes of the unsigned dtypes (a list converts to one faster than to numpy).
_TYPECODE = {np.dtype(t): c for c in "BHILQ" for t in (np.uint8, np.uint16, np.uint32, np.uint64) if array(c).itemsize == np.dtype(t).itemsize}


def _array(rows: list[int], dt: np.dtype) -> np.ndarray:
    """``rows`` (ints that fit the unsigned ``dt``) as a numpy array."""
    code = _TYPECODE.get(dt)
    if code is None:  # pragma: no cover - every platform numpy supports has these type codes
        return np.array(rows, dtype=dt)
    return np.frombuffer(array(code, rows), dtype=dt)


_U64 = (1 << 64) - 1
#: The list-built rows of :func:`_tables` when there are none (every part an arange).
_NO_ROWS = np.empty(0, np.uint8)


def _fill_columns(out: np.ndarray, digits: Sequence[tuple[int, Sequence[int]]], base: Sequence[int], op: str, w: int, signed_add: bool) -> None:
    """Fill ``out`` when a row does not fit one machine word (rows of 3, 5, 6, 7 or more than 8
    bytes): each column's block and short table are built as in :func:`_fill`; the final write
    runs over machine words, each holding whole elements of one or more rows.  A word-wise sum
    must not carry between elements, so for sums every column's block and table hold
    non-negative values whose sum is the final value (biased by ``2**(w-1)`` when signed, the bias
    flipped back by one XOR)."""
    n, k = out.shape
    s = out.itemsize
    cols = out.view(_LANES[s])
    U = cols.dtype
    mask = (1 << w) - 1
    i, steps = _split(digits, max(_SPLIT_BLOCK_ROWS, _SPLIT_BLOCK_BYTES // (s * k)), op, lambda v, d: [x * d for x in v])
    if i == len(steps):
        for c in range(k):
            cols[:, c] = _table([(e, v[c] & mask) for e, v in steps], base[c] & mask, op, U, mask)
        return
    lo_steps, hi_steps = steps[:i], steps[i:]
    h = math.prod(e for e, _ in lo_steps)
    rest = n // h
    bias = 1 << (w - 1) if signed_add else 0
    R = s * k
    W = next(W for W in (8, 4, 2, 1) if W >= s and (h * R) % W == 0)
    Wt = _LANES[W]
    p = math.lcm(R, W) // R  # rows per period of words
    q = p * R // W  # words per period
    blk = np.empty((h, k), U)
    tiles = np.empty((rest, p, k), U)
    for c in range(k):
        low = 0
        if op == "add":
            low = sum(min(0, (e - 1) * v[c]) for e, v in hi_steps)
        blk[:, c] = _table([(e, v[c] & mask) for e, v in lo_steps], (base[c] + bias + low) & mask, op, U, mask)
        tiles[:, :, c] = _table([(e, v[c] & mask) for e, v in hi_steps], -low & mask, op, U, mask)[:, None]
    lo_t = blk.reshape(-1).view(Wt).reshape(h // p, q).T.copy()
    words = out.reshape(-1).view(np.uint8).view(Wt)
    _UFUNC[op](lo_t[None], tiles.reshape(rest, -1).view(Wt)[:, :, None], out=words.reshape(rest, h // p, q).transpose(0, 2, 1))
    if bias:
        np.bitwise_xor(words, Wt.type(sum(bias << (w * j) for j in range(W // s))), out=words)


#: The XOR of wide rows: the first block, built as one Python int (a few microseconds for a
#: kilobyte), has this many rows at most...
_WIDE_FIRST_ROWS = 1 << 10
#: ...and doubles (one call over machine words per input bit) until it has this many bytes; the
#: rest are copies of it in Gray-code order.  Doubling reads the older half back from the cache
#: levels below the first; a copy reads the copy before it.  Measured (3-byte rows, ms):
#: doubling all the way 0.092 at 2**20 rows, 0.32 at 2**22; blocks of 384 KiB 0.102 and 0.34;
#: 3 MiB 0.092 and 0.31; at 2**24 rows 3.9 with 3 MiB, 3.8-4.0 with 384-768 KiB.
_WIDE_BLOCK_BYTES = 3 << 20
#: Each doubling or copy XORs with one input bit's image repeated over at most this many rows (a
#: tile that stays in cache, broadcast over the block: shorter tiles mean more, slower, inner
#: loops: 0.118 ms at 2**20 rows with tiles of 4096 rows, 0.092 with 16384).
_WIDE_TILE_ROWS = 1 << 14


def _fill_wide_xor(out: np.ndarray, images: Sequence[Sequence[int]], base: Sequence[int]) -> None:
    """:func:`_fill_wide_rows` for images and base given as vectors (one int per column)."""
    s = out.itemsize
    mask = (1 << (8 * s)) - 1
    w = 8 * s

    def row(v: Sequence[int]) -> bytes:
        return sum((x & mask) << (w * c) for c, x in enumerate(v)).to_bytes(s * len(v), "little")

    _fill_wide_rows(out, [row(v) for v in images], row(base))


def _fill_wide_rows(out: np.ndarray, images: Sequence[bytes], base: bytes) -> None:
    """Fill ``out`` (``2**len(images)`` C-contiguous rows of ``len(base)`` bytes each, which do not
    fit one machine word: 3, 5, 6, 7 or more than 8 bytes) with the XOR table of the images given
    as their rows' bytes.  The first block (up to ``_WIDE_FIRST_ROWS`` rows) is one Python int
    doubled once per input bit (the new half is the old half XOR the bit's row repeated), written
    in one call; then it doubles over 8-byte words (one call per input bit, the repeated row a
    tile of at most ``_WIDE_TILE_ROWS`` rows broadcast over the half) until it fills
    ``_WIDE_BLOCK_BYTES``, and the rest are copies of the block in Gray-code order, each the copy
    before it XOR one bit's tile.  XOR acts on each bit alone, so words may cut across rows."""
    R = len(base)
    m = len(images)
    period = 8 // math.gcd(R, 8)  # rows in a run of whole words (a power of two)
    a = min(m, max(period.bit_length() - 1, _WIDE_FIRST_ROWS.bit_length() - 1))
    blk = int.from_bytes(base, "little")
    nb = R
    for j in range(a):
        blk |= (blk ^ int.from_bytes(images[j] * (nb // R), "little")) << (8 * nb)
        nb <<= 1
    buf = out.reshape(-1).view(np.uint8)
    buf[:nb] = np.frombuffer(blk.to_bytes(nb, "little"), np.uint8)
    if a == m:
        return
    words = buf.view(np.uint64)
    rows = min(1 << m, max(period, _WIDE_TILE_ROWS))  # rows of a tile

    def tile(j: int, h: int) -> np.ndarray:
        return np.frombuffer(images[j] * min(h, rows), np.uint64)

    h, j = 1 << a, a
    while j < m and h * R < _WIDE_BLOCK_BYTES:
        t = tile(j, h)
        hw = h * R // 8
        np.bitwise_xor(words[:hw].reshape(-1, len(t)), t, words[hw : 2 * hw].reshape(-1, len(t)))
        h <<= 1
        j += 1
    if j == m:
        return
    tiles = [tile(i, h) for i in range(j, m)]
    hw = h * R // 8
    copies = words.reshape(1 << (m - j), hw // len(tiles[0]), len(tiles[0]))
    prev = 0
    for r in range(1, 1 << (m - j)):
        g = r ^ (r >> 1)
        np.bitwise_xor(copies[prev], tiles[(r & -r).bit_length() - 1], copies[g])
        prev = g


def _divisor_near(e: int, most: int) -> int:
    """A divisor of ``e`` in ``(most // 16, most]`` (the largest found), else 1."""
    for d in range(min(most, e - 1), max(1, most // 16), -1):
        if e % d == 0:
            return d
    return 1


def _fill_object(out: np.ndarray, digits: Sequence[tuple[int, Sequence[int]]], base: Sequence[int], op: str) -> None:
    """The same doubling on Python ints (values beyond 64 bits)."""
    out[0] = list(base)
    h = 1
    for e, v in digits:
        vec = np.array(list(v), dtype=object)
        c = 1
        while c < e:
            m = min(c, e - c)
            out[c * h : (c + m) * h] = (out[: m * h] ^ vec) if op == "xor" else (out[: m * h] + vec * c)
            c += m
        h *= e
