"""The input discipline: every limit on what linlayout reads, in one place, and the checks that
apply them before any work starts.

Every parser and dict form of the library and of ``converters`` imports these numbers, so a
hostile or accidental input (a megabyte of text, nesting ten thousand deep, an integer of five
thousand digits, a layout of 2**70 points) is refused with a :class:`~linlayout.errors.LayoutError`
that names the limit, never answered with a foreign exception, a hang or a huge allocation.

==================  ==========  ==============================================================
limit               value       what it bounds
==================  ==========  ==============================================================
``MAX_TEXT``        2**20       characters of layout text (and bytes of a layout file)
``MAX_DEPTH``       64          nesting of brackets / parentheses / JSON containers / parents
``MAX_INT``         2**62 - 1   magnitude of any integer read (so sums of two stay in int64)
``MAX_INT_DIGITS``  19          digits of a decimal integer literal (checked before ``int()``)
``MAX_RANK``        64          entries of a shape, stride or dimension list
``MAX_ITEMS``       4096        entries of any one list or dict in JSON or MLIR text
``MAX_CALLS``       1024        calls in one Tilus expression
``MAX_NAME``        256         characters of a dim or axis name
``MAX_TOTAL_LOG2``  62          total bits of a layout's inputs (or outputs)
``MAX_TABLE_LOG2``  24          points a whole-layout table materializes (2**24)
``MAX_SPELLINGS``   1000000     spellings one layout-space sweep enumerates
``MAX_GRID_CELLS``  65536       cells of a layout grid printed as text (``show --max-cells``)
==================  ==========  ==============================================================

Integer literals (our own grammar, never Python's ``int(x, 0)``): an optional sign, then ``0``
or a nonzero digit followed by digits.  A leading zero (``01``, ``007``) is refused with a
:class:`~linlayout.errors.ParseError` in every grammar: it means octal in C and in Python 2, and
nothing in Python 3, so no reading of it is safe.  Where a grammar allows hexadecimal (Gluon's
constructor text, MLIR attributes) ``0x`` introduces it.

    >>> parse_int("42", "a size")
    42
    >>> parse_int("0x10", "a size", hex_ok=True)
    16
    >>> parse_int("01", "a size")
    Traceback (most recent call last):
    ...
    linlayout.errors.ParseError: a size: '01' has a leading zero; write 1 (a leading zero has no meaning here)
    >>> parse_int("9" * 30, "a stride")
    Traceback (most recent call last):
    ...
    linlayout.errors.ParseError: a stride: an integer of 30 digits is out of range (at most 2**62 - 1 in magnitude)
    >>> check_text("x" * (MAX_TEXT + 1), "Gluon text")
    Traceback (most recent call last):
    ...
    linlayout.errors.ParseError: Gluon text of 1048577 characters is longer than the limit of 1048576 characters
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import LayoutError, ParseError, SizeError

__all__ = [
    "MAX_TEXT",
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_INT_DIGITS",
    "MAX_RANK",
    "MAX_ITEMS",
    "MAX_CALLS",
    "MAX_NAME",
    "MAX_TOTAL_LOG2",
    "MAX_TABLE_LOG2",
    "MAX_SPELLINGS",
    "MAX_GRID_CELLS",
    "check_text",
    "parse_int",
    "check_int",
    "check_depth",
    "split_top_level",
    "as_list",
    "read_json",
]

#: Longest layout text read, in characters (a layout file: in bytes).
MAX_TEXT = 1 << 20
#: Deepest nesting of brackets, parentheses, JSON containers or parent layouts.
MAX_DEPTH = 64
#: Largest magnitude of an integer read from text or a dict (sums of two stay inside int64).
MAX_INT = (1 << 62) - 1
#: Most digits of a decimal literal (checked before conversion, so no 4300-digit surprises).
MAX_INT_DIGITS = 19
#: Most entries of a shape, a stride list or a list of dims.
MAX_RANK = 64
#: Most entries of any one list or dict in JSON or MLIR text.
MAX_ITEMS = 4096
#: Most calls in one Tilus expression (``local(2).spatial(8, 4)`` has two).
MAX_CALLS = 1024
#: Most characters of a dim or axis name.
MAX_NAME = 256
#: Most bits of a layout's inputs (or outputs) in all: flat indices stay inside int64.
MAX_TOTAL_LOG2 = 62
#: Most points a whole-layout table materializes: 2**MAX_TABLE_LOG2.
MAX_TABLE_LOG2 = 24
#: Most spellings one layout-space sweep enumerates.
MAX_SPELLINGS = 1_000_000
#: Most cells of a layout grid printed as text (``linlayout show --max-cells`` above it is refused;
#: a 256 x 256 grid is about 3 MB of text; pictures are capped apart, at ``draw.MAX_CELLS``).
MAX_GRID_CELLS = 1 << 16

_DEC = re.compile(r"[-+]?(?:0|[1-9][0-9]*)\Z")
_HEX = re.compile(r"[-+]?0[xX][0-9a-fA-F]+\Z")


def check_text(text: Any, what: str = "layout text") -> str:
    """``text`` itself when it is a ``str`` of at most :data:`MAX_TEXT` characters; else a
    :class:`ParseError` saying which."""
    if not isinstance(text, str):
        raise ParseError(f"{what} must be a str, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise ParseError(f"{what} of {len(text)} characters is longer than the limit of {MAX_TEXT} characters")
    return text


def check_int(value: int, what: str, error: type = SizeError) -> int:
    """``value`` when its magnitude is at most :data:`MAX_INT`; else ``error`` naming ``what``."""
    if -MAX_INT <= value <= MAX_INT:
        return value
    raise error(f"{what}: {_short(value)} is out of range (at most 2**62 - 1 in magnitude)")


def as_list(value: Any, what: str, max_len: int | None = None, error: type[LayoutError] = LayoutError) -> list:
    """``value`` (any iterable but a string or a mapping) as a list, at most ``max_len`` long (read
    no further: a ``range(10**12)`` is refused, not listed); ``error`` (a
    :class:`~linlayout.errors.LayoutError` subclass) naming ``what`` when it is no such iterable,
    :class:`~linlayout.errors.SizeError` when it is longer.

        >>> as_list((1, 2), "shape")
        [1, 2]
        >>> as_list(5, "shape")
        Traceback (most recent call last):
        ...
        linlayout.errors.LayoutError: shape must be a list, got int 5
    """
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise error(f"{what} must be a list, got {type(value).__name__} {str(value)[:60]}")
    out = list(itertools.islice(value, None if max_len is None else max_len + 1))
    if max_len is not None and len(out) > max_len:
        raise SizeError(f"{what} has more than {max_len} entries")
    return out


def _short(value: int) -> str:
    if value.bit_length() <= 200:
        return str(value)
    return f"an integer of {value.bit_length()} bits"


def parse_int(token: str, what: str, text: str | None = None, pos: int | None = None, *, hex_ok: bool = False) -> int:
    """An integer literal of our grammar (see the module docstring) as an int of magnitude at
    most :data:`MAX_INT`; a :class:`ParseError` at ``text[pos]`` otherwise."""
    body = token.lstrip("+-")
    if hex_ok and _HEX.match(token):
        if len(body) > 2 + 16:
            raise ParseError(f"{what}: a hexadecimal integer of {len(body) - 2} digits is out of range "
                             "(at most 2**62 - 1 in magnitude)", text, pos)
        return check_int(int(token, 16), what, ParseError)
    if not _DEC.match(token):
        if body[:1] == "0" and body[1:].isdigit() and body.isascii():
            raise ParseError(f"{what}: {token[:40]!r} has a leading zero; write {body.lstrip('0')[:40] or '0'} "
                             "(a leading zero has no meaning here)", text, pos)
        raise ParseError(f"{what}: expected an integer, got {token[:40]!r}", text, pos)
    if len(body) > MAX_INT_DIGITS:
        raise ParseError(f"{what}: an integer of {len(body)} digits is out of range (at most 2**62 - 1 in magnitude)",
                         text, pos)
    value = int(token)
    if not -MAX_INT <= value <= MAX_INT:
        raise ParseError(f"{what}: {value} is out of range (at most 2**62 - 1 in magnitude)", text, pos)
    return value


def check_depth(text: str, what: str = "text", opening: str = "[{(<", closing: str = "]})>",
                max_items: int | None = None) -> None:
    """Refuse ``text`` whose brackets nest deeper than :data:`MAX_DEPTH`, or (with ``max_items``)
    one of whose bracketed groups has more than ``max_items`` comma-separated entries.  One linear
    scan; text inside double quotes is skipped, as JSON strings are.

        >>> check_depth("[" * 65, "JSON")
        Traceback (most recent call last):
        ...
        linlayout.errors.ParseError: JSON nests deeper than the limit of 64 levels (at position 64)
          [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
                                                                          ^
    """
    items = [0]
    in_str = False
    escape = False
    for i, ch in enumerate(text):
        if in_str:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in opening:
            items.append(0)
            if len(items) > MAX_DEPTH + 1:
                raise ParseError(f"{what} nests deeper than the limit of {MAX_DEPTH} levels", text, i)
        elif ch in closing:
            if len(items) > 1:
                items.pop()
        elif ch == "," and max_items is not None:
            items[-1] += 1
            if items[-1] >= max_items:
                raise ParseError(f"{what} has a list of more than {max_items} entries", text, i)


def split_top_level(text: str, opening: str = "<", closing: str = ">", sep: str = ",") -> list[str]:
    """``text`` split at the ``sep`` characters outside brackets, each part stripped (an empty
    ``text`` has no parts).

        >>> split_top_level("!tt.ptr<f32>, !ttg.memdesc<64x64xf16, #shared>, i32")
        ['!tt.ptr<f32>', '!ttg.memdesc<64x64xf16, #shared>', 'i32']
        >>> split_top_level("(1,(2,3)),_", "(", ")")
        ['(1,(2,3))', '_']
    """
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch == sep and depth == 0:
            out.append("".join(cur).strip())
            cur = []
            continue
        depth += (ch in opening) - (ch in closing)
        cur.append(ch)
    last = "".join(cur).strip()
    if last or out:
        out.append(last)
    return out


def _json_int(token: str) -> int:
    return parse_int(token, "a JSON integer")


def _json_float(token: str) -> float:
    value = float(token)
    if value in (float("inf"), float("-inf")):
        raise ParseError(f"JSON number {token[:40]} is out of range; expected an integer")
    return value


def _json_constant(token: str) -> Any:
    raise ParseError(f"JSON has no {token}; expected an integer")


def read_json(text: str, what: str = "JSON") -> Any:
    """``json.loads`` under the limits: at most :data:`MAX_TEXT` characters, :data:`MAX_DEPTH`
    levels, :data:`MAX_ITEMS` entries per list or object, integers of magnitude at most :data:`MAX_INT`, no ``NaN``/``Infinity`` (nor ``1e999``); every failure a
    :class:`ParseError`.

        >>> read_json('{"order": [1, 0]}')
        {'order': [1, 0]}
        >>> read_json('[Infinity]')
        Traceback (most recent call last):
        ...
        linlayout.errors.ParseError: JSON has no Infinity; expected an integer
    """
    check_text(text, what)
    check_depth(text, what, "[{", "]}", MAX_ITEMS)
    try:
        return json.loads(text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant)
    except json.JSONDecodeError as e:
        raise ParseError(f"invalid {what}: {e.msg}", text, e.pos) from None
    except RecursionError:  # pragma: no cover - check_depth bounds the nesting first
        raise ParseError(f"{what} is nested too deeply", text, 0) from None
