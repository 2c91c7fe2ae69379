"""Whole-layout evaluation at memory speed: every point of a layout in a handful of numpy calls.

A layout whose flat input splits into digits (fastest first; a GF(2) layout's input bits are
digits of extent 2) is tabulated by *doubling*: with the rows of the first ``h`` inputs written,
digit value ``t`` of the next digit gives rows ``t*h .. (t+1)*h`` as those rows combined with
``t`` steps of the digit (``+`` for a mixed-radix digit, XOR for a GF(2) basis), and the rows
already written double each call.  Everything is written in place into one preallocated array of
the smallest integer dtype that holds every value, so peak memory is the output itself; there is
no index array and no temporary as large as the output.

When a row (every output column) fits in 1, 2, 4 or 8 bytes, the rows are viewed as single
unsigned integers with the columns in separate lanes (numpy arrays are little-endian here), so
each call is one flat SIMD pass: XOR never crosses lanes, and for ``+`` every lane holds a value
in ``[0, 2**w)`` (signed columns are biased by ``2**(w-1)`` while summing, then flipped back with
one XOR) so a lane never carries into its neighbour.

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

import sys
from collections.abc import Sequence

import numpy as np

from .errors import SizeError

__all__ = ["smallest_dtype", "tabulate", "value_range", "MAX_OBJECT_CELLS"]

#: Largest table (rows x columns) of Python ints, for values beyond 64 bits (about 50 bytes a cell).
MAX_OBJECT_CELLS = 1 << 20

_UNSIGNED = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.uint32), np.dtype(np.uint64))
_SIGNED = (np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.int32), np.dtype(np.int64))
_LANES = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32), 8: np.dtype(np.uint64)}
_OBJECT = np.dtype(object)


def smallest_dtype(lo: int, hi: int) -> np.dtype:
    """The smallest integer dtype holding every value in ``[lo, hi]`` (unsigned when ``lo >= 0``);
    ``object`` (Python ints) beyond 64 bits.

        >>> smallest_dtype(0, 255), smallest_dtype(-1, 255), smallest_dtype(0, 2**64)
        (dtype('uint8'), dtype('int16'), dtype('O'))
    """
    for dt in _UNSIGNED if lo >= 0 else _SIGNED:
        info = np.iinfo(dt)
        if info.min <= lo and hi <= info.max:
            return dt
    return _OBJECT


def value_range(digits: Sequence[tuple[int, Sequence[int]]], base: Sequence[int], op: str) -> tuple[int, int]:
    """The smallest and largest value over every column of the table of ``digits`` (exact for
    ``add``; for ``xor`` an upper bound: the OR of every step)."""
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
    k = len(base)
    n = 1
    for e, _ in digits:
        n *= e
    dt = np.dtype(dtype) if dtype is not None else smallest_dtype(*value_range(digits, base, op))
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
    signed = dt.kind == "i"
    lanes = _LANES.get(dt.itemsize * k) if sys.byteorder == "little" else None
    if lanes is None:  # rows of 3, 5, 6, 7 or more than 8 bytes: column-wise lanes, broadcast rows
        flat = out.view(_LANES[dt.itemsize])
        mask = (1 << w) - 1
        _double(flat, [(e, np.array([x & mask for x in v], dtype=flat.dtype)) for e, v in digits],
                np.array([x & mask for x in base], dtype=flat.dtype), op, mask)
        return out
    flat = out.view(lanes).reshape(n)
    width = (1 << (w * k)) - 1
    bias = (1 << (w - 1)) if signed and k > 1 and op == "add" else 0

    def pack(v: Sequence[int], b: int = 0) -> int:
        p = 0
        for c, x in enumerate(v):
            p |= ((x + b) & ((1 << w) - 1)) << (w * c)
        return p

    if op == "add" and k > 1:
        steps = [(e, sum(x << (w * c) for c, x in enumerate(v)) & width) for e, v in digits]
    else:
        steps = [(e, pack(v)) for e, v in digits]
    _double(flat, steps, pack(base, bias), op, width)
    if bias:
        np.bitwise_xor(flat, lanes.type(pack([bias] * k)), out=flat)
    return out


#: Rows written by doubling before the rest is added as one broadcast over a cache-resident block.
_BLOCK_BYTES = 1 << 15


def _double(flat: np.ndarray, steps: Sequence[tuple[int, object]], base: object, op: str, mask: int) -> None:
    """Fill ``flat`` (rows, or a 1-D array of packed rows) in place (see the module): doubling
    until the rows written fill a block that stays in cache, then one broadcast call combines that
    block with the (small) table of the remaining digits, so the output is written once and the
    block is read from cache."""
    ufunc = np.bitwise_xor if op == "xor" else np.add
    scalar = flat.ndim == 1
    flat[0] = base
    h = 1
    block = max(1, _BLOCK_BYTES // (flat.itemsize * (1 if scalar else flat.shape[1])))
    k = 0
    steps = list(steps)
    while k < len(steps) and h < block:
        e, v = steps[k]
        if h * e > 2 * block:  # split a long digit t = t0 + d*t1 so that the block stays in cache
            d = _divisor_near(e, block // h)
            if d > 1:
                big = (v * d) & mask if scalar else v * flat.dtype.type(d)  # (only "add" has extents > 2)
                steps[k : k + 1] = [(d, v), (e // d, big)]
                e = d
        c = 1
        while c < e:
            m = min(c, e - c)
            # c steps of this digit: a scalar (mod the lane width) or a row
            if scalar:
                s = flat.dtype.type((c * v) & mask if op == "add" else v)
            else:
                s = (v * flat.dtype.type(c)) if op == "add" else v
            ufunc(flat[: m * h], s, out=flat[c * h : (c + m) * h])
            c += m
        h *= e
        k += 1
    if k == len(steps) or h == flat.shape[0]:
        return
    rest = flat.shape[0] // h
    high = np.empty((rest,) + flat.shape[1:], dtype=flat.dtype)
    _double(high, steps[k:], flat.dtype.type(0) if scalar else np.zeros_like(flat[0]), op, mask)
    lo = flat[:h]
    out = flat[h:].reshape((rest - 1, h) + flat.shape[1:])
    ufunc(lo[None], high[1:, None], out=out)


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
