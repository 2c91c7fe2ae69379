"""Small argument checks shared by every module: integers, powers of two, their logarithms, and
the power-of-two sizes a set of basis vectors spans.

One home for them, so that every error about a bad size reads the same way.

    >>> is_pow2(64), is_pow2(0), is_pow2(True)
    (True, False, False)
    >>> log2_exact(64, "size")
    6
    >>> log2_exact(24, "size")
    Traceback (most recent call last):
    ...
    linlayout.errors.SizeError: size must be a positive power of two, got 24
    >>> as_int(3.0, "extent")
    Traceback (most recent call last):
    ...
    linlayout.errors.SizeError: extent must be an integer, got float 3.0
"""

from __future__ import annotations

import operator
import reprlib
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .errors import LayoutError, SizeError
from .limits import MAX_ITEMS, MAX_RANK, as_list

__all__ = ["is_pow2", "log2", "log2_exact", "as_int", "check_pow2", "span_sizes", "expect", "as_bool"]


def is_pow2(n: object) -> bool:
    """True when ``n`` is an int (not a bool) that is a positive power of two."""
    return isinstance(n, int) and not isinstance(n, bool) and n > 0 and n & (n - 1) == 0


def log2(n: int) -> int:
    """``floor(log2(n))`` of a positive int (exact for a power of two); no check."""
    return n.bit_length() - 1


#: The repr in error messages: nesting cut at 3 levels, strings and others at 60 characters (a
#: tuple nested 100,000 deep, or a megabyte string, is shown in a line, never a RecursionError).
_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother = 3, 60, 60


def as_int(value: Any, what: str, error: type[LayoutError] = SizeError) -> int:
    """``value`` as a Python int (anything with ``__index__``, numpy integers included; never a
    bool or a float); else ``error`` (the caller's :class:`~linlayout.errors.LayoutError`
    subclass) naming ``what`` and what it got.

        >>> as_int(np.uint8(7), "stride"), as_int(np.True_, "stride", LayoutError)
        Traceback (most recent call last):
        ...
        linlayout.errors.LayoutError: stride must be an integer, got the boolean True
    """
    if isinstance(value, (bool, np.bool_)):
        raise error(f"{what} must be an integer, got the boolean {bool(value)!r}")
    try:
        return operator.index(value)
    except TypeError:
        shown = value.item() if isinstance(value, np.generic) else value
        raise error(f"{what} must be an integer, got {type(value).__name__} {_SHORT.repr(shown)}") from None


def log2_exact(value: Any, what: str, error: type[LayoutError] = SizeError) -> int:
    """``log2(value)`` for a positive power of two; else ``error`` naming ``what``."""
    n = as_int(value, what, error)
    if n <= 0 or n & (n - 1):
        raise error(f"{what} must be a positive power of two, got {n}")
    return n.bit_length() - 1


def check_pow2(value: Any, what: str, error: type[LayoutError] = SizeError) -> int:
    """``value`` itself when it is a positive power of two; else ``error`` naming ``what``."""
    log2_exact(value, what, error)
    return operator.index(value)


def span_sizes(vectors: Iterable[Sequence[int]], rank: int) -> list[int]:
    """Per dim, the smallest power of two above every entry of ``vectors`` (non-negative ints):
    the out-dim sizes Triton infers from a layout's bases.

        >>> span_sizes([[0, 1], [0, 2], [3, 0]], 2)
        [4, 4]
        >>> span_sizes([], 3)
        [1, 1, 1]
    """
    rank = as_int(rank, "span_sizes: rank", LayoutError)
    if not 0 <= rank <= MAX_RANK:
        raise SizeError(f"span_sizes: rank must be in [0, {MAX_RANK}], got {rank}")
    sizes = [1] * rank
    for v in as_list(vectors, "span_sizes: vectors", MAX_ITEMS):
        v = as_list(v, "span_sizes: a vector", MAX_RANK)
        if len(v) > rank:
            raise LayoutError(f"span_sizes: a vector of {len(v)} entries for rank {rank}")
        for d, x in enumerate(v):
            x = as_int(x, "span_sizes: a vector entry", LayoutError)
            if x < 0:
                raise LayoutError(f"span_sizes: vector entries must be non-negative, got {x}")
            if x >= sizes[d]:
                sizes[d] = 1 << x.bit_length()
    return sizes


def expect(value: Any, cls: type | tuple[type, ...], what: str) -> Any:
    """``value`` when it is an instance of ``cls``; else a :class:`LayoutError` naming ``what``,
    the class expected and the one given (the check at the top of a public function that takes
    a layout of one class, so a wrong argument is refused instead of failing deep inside).

        >>> expect(3, int, "a count")
        3
        >>> expect(None, int, "tilus.squeeze: layout")
        Traceback (most recent call last):
        ...
        linlayout.errors.LayoutError: tilus.squeeze: layout must be a int, got NoneType
    """
    if isinstance(value, cls):
        return value
    names = " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
    raise LayoutError(f"{what} must be a {names}, got {type(value).__name__}")


def as_bool(v: object, who: str, what: str) -> bool:
    """A flag argument as a bool (``0``/``1`` and numpy bools accepted, as Gluon's Python takes
    them); a :class:`LayoutError` naming ``who`` and ``what`` otherwise.

        >>> as_bool(1, "select_swizzle_width", "transposed")
        True
        >>> as_bool("yes", "select_swizzle_width", "transposed")
        Traceback (most recent call last):
        ...
        linlayout.errors.LayoutError: select_swizzle_width: transposed must be a bool, got 'yes'
    """
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, int) and v in (0, 1):
        return bool(v)
    raise LayoutError(f"{who}: {what} must be a bool, got {v!r:.60}")
