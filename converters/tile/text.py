"""TIRx ``TileLayout`` text: reading it into its parts and printing iters.

The grammar (whitespace is free)::

    layout  := term ("+" term)* ["shape" "=" "(" int ("," int)* ")"]
    term    := "S[" spec "]" | "R[" spec "]" | stride
    spec    := extents [":" strides]          (no strides: row-major, on the memory axis m)
    extents := int | "(" int ("," int)* [","] ")"
    strides := stride | "(" stride ("," stride)* [","] ")"
    stride  := int ["@" axis]
    int     := ["-"] ("0" | [1-9][0-9]*)      (a leading zero is refused; magnitude < 2**62)

Tuples hold at most :data:`~linlayout.limits.MAX_RANK` entries; the text is at most
:data:`~linlayout.limits.MAX_TEXT` characters.

The trailing ``shape=(...)`` is linlayout's: the tensor shape the layout is read over (TIRx keeps
it on the buffer).

    >>> read_tile_text("S[(2,7):(1@TLane,32@TLane)] shape=(14)").shape
    (14,)
    >>> read_tile_text("S[(2,7):(1@TLane)]")
    Traceback (most recent call last):
    ...
    linlayout.errors.ParseError: S[...] has 2 extents but 1 strides; expected one stride per extent (at position 8)
      S[(2,7):(1@TLane)]
              ^
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple, NoReturn, TypeVar

from linlayout.errors import ParseError
from linlayout.limits import MAX_INT, MAX_RANK, check_text, parse_int

from .axes import Iter, as_iter

__all__ = ["TileParts", "read_tile_text", "format_stride", "format_iters"]


class TileParts(NamedTuple):
    """What TileLayout text says: shard and replica iters, offsets, and the shape (or None)."""

    shard: tuple[Iter, ...]
    replica: tuple[Iter, ...]
    offset: dict[str, int]
    shape: tuple[int, ...] | None


_T = TypeVar("_T")
_Token = tuple[str, str, int]  # (kind, text, position)


class _Parser:
    _TOKEN = re.compile(r"\s*(?:(?P<int>-?[0-9]+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<sym>[\[\]():,@+=]))")

    def __init__(self, text: str) -> None:
        check_text(text, "TileLayout text")
        self.text = text
        self.toks: list[_Token | None] = []
        self._more = self._tokens()
        self.i = 0

    def _tokens(self) -> Iterator[_Token | None]:
        """Tokens on demand (text after an error is never scanned); None at the end."""
        text, pos = self.text, 0
        while True:
            m = self._TOKEN.match(text, pos)
            if not m:
                p = pos
                while p < len(text) and text[p].isspace():
                    p += 1
                if p == len(text):
                    break
                raise ParseError(f"unexpected character {text[p]!r}; expected a number, a name or one of [ ] ( ) : , @ +", text, p)
            kind = m.lastgroup
            assert kind is not None  # every alternative of _TOKEN is a named group
            yield (kind, m.group(kind), m.start(kind))
            pos = m.end()
        while True:
            yield None

    def peek(self, ahead: int = 0) -> _Token | None:
        while len(self.toks) <= self.i + ahead:
            self.toks.append(next(self._more))
        return self.toks[self.i + ahead]

    def pos(self) -> int:
        t = self.peek()
        return t[2] if t else len(self.text)

    def fail(self, expected: str) -> NoReturn:
        t = self.peek()
        got = f"{t[1]!r}" if t else "end of text"
        raise ParseError(f"expected {expected}, got {got}", self.text, self.pos())

    def take(self, kind: str, value: str | None = None, expected: str = "") -> str:
        t = self.peek()
        if t is None or t[0] != kind or (value is not None and t[1] != value):
            self.fail(expected or (repr(value) if value else kind))
        self.i += 1
        return t[1]

    def at(self, value: str) -> bool:
        t = self.peek()
        return t is not None and t[0] == "sym" and t[1] == value

    def integer(self, what: str) -> int:
        pos = self.pos()
        return parse_int(self.take("int", expected=what), what, self.text, pos)

    def stride(self) -> tuple[int, str]:
        v = self.integer("a stride (an integer, optionally @axis)")
        axis = "m"
        if self.at("@"):
            self.i += 1
            axis = self.take("name", expected="an axis name after '@'")
        return v, axis

    def tuple_of(self, item: Callable[[], _T], what: str) -> list[_T]:
        if self.at("("):
            self.i += 1
            out = [item()]
            while self.at(","):
                self.i += 1
                if self.at(")"):
                    break
                self.check_rank(out, what)
                out.append(item())
            self.take("sym", ")", f"',' or ')' closing the {what} tuple")
            return out
        out = [item()]
        while self.at(","):  # S[8, 16]
            self.i += 1
            self.check_rank(out, what)
            out.append(item())
        return out

    def check_rank(self, out: Sequence[object], what: str) -> None:
        if len(out) >= MAX_RANK:
            raise ParseError(f"the {what} tuple has more than {MAX_RANK} entries", self.text, self.pos())

    def spec(self, kind: str) -> list[Iter]:
        start = self.pos()
        self.take("sym", "[", f"'[' after {kind}")
        shape = self.tuple_of(lambda: self.integer("an extent (a positive integer)"), "shape")
        for k, e in enumerate(shape):
            if e < 1:
                raise ParseError(f"extent {k} of {kind}[...] is {e}; extents must be positive", self.text, start)
        if self.at(":"):
            self.i += 1
            spos = self.pos()
            strides = self.tuple_of(self.stride, "stride")
            if len(strides) != len(shape):
                raise ParseError(
                    f"{kind}[...] has {len(shape)} extents but {len(strides)} strides; expected one stride per extent",
                    self.text,
                    spos,
                )
        else:
            strides, acc = [], 1
            for e in reversed(shape):
                if acc > MAX_INT:
                    raise ParseError(f"the row-major strides of {kind}[...] exceed 2**62", self.text, start)
                strides.append((acc, "m"))
                acc *= e
            strides.reverse()
        self.take("sym", "]", f"']' closing {kind}[...]")
        return [as_iter((e, s, a), f"{kind} iter {k}") for k, (e, (s, a)) in enumerate(zip(shape, strides))]

    def layout(self) -> TileParts:
        shard: list[Iter] | None = None
        replica: list[Iter] | None = None
        offset: dict[str, int] = {}
        shape: tuple[int, ...] | None = None
        while True:
            t = self.peek()
            if t is None:
                self.fail("S[...], R[...] or an offset")
            if t[0] == "name" and t[1] == "shape" and (self.peek(1) or ("", ""))[1] == "=":
                self.i += 2
                dims = self.tuple_of(lambda: self.integer("a dimension of the shape (a positive integer)"), "shape")
                if any(d < 1 for d in dims):
                    raise ParseError("shape=(...) takes positive integers, e.g. shape=(64,16)", self.text, t[2])
                if self.peek() is not None:
                    self.fail("end of text after shape=(...)")
                shape = tuple(dims)
                break
            if t[0] == "name" and t[1] in ("S", "R") and (self.peek(1) or ("", ""))[1] == "[":
                self.i += 1
                if t[1] == "S":
                    if shard is not None:
                        raise ParseError("a second S[...]; a TileLayout has one shard", self.text, t[2])
                    shard = self.spec("S")
                else:
                    if replica is not None:
                        raise ParseError("a second R[...]; a TileLayout has one replica spec", self.text, t[2])
                    replica = self.spec("R")
            elif t[0] == "int":
                v, a = self.stride()
                total = offset.get(a, 0) + v
                if abs(total) > MAX_INT:
                    raise ParseError(f"the offset on {a!r} exceeds 2**62 in magnitude", self.text, t[2])
                offset[a if a != "tid" else "tx"] = total
            else:
                self.fail("S[...], R[...] or an offset (integer, optionally @axis)")
            nxt = self.peek()
            if nxt is None:
                break
            if nxt[0] == "name" and nxt[1] == "shape":
                continue
            self.take("sym", "+", "'+', shape=(...) or end of text")
        if shard is None:
            raise ParseError("missing the shard S[...]", self.text, 0)
        return TileParts(tuple(shard), tuple(replica or ()), offset, shape)


def read_tile_text(text: str) -> TileParts:
    """The parts of TileLayout text (see the module docstring for the grammar)."""
    return _Parser(text).layout()


def format_stride(s: int, a: str) -> str:
    """``s`` on axis ``a`` as TIRx writes it (a bare number on the memory axis ``m``)."""
    return str(s) if a == "m" else f"{s}@{a}"


def format_iters(iters: Sequence[Iter], force_tuple: bool) -> str:
    """``(e0,e1):(s0,s1)`` (or ``e:s`` for one iter unless ``force_tuple``)."""
    if len(iters) == 1 and not force_tuple:
        return f"{iters[0].extent}:{format_stride(iters[0].stride, iters[0].axis)}"
    ex = ",".join(str(i.extent) for i in iters)
    st = ",".join(format_stride(i.stride, i.axis) for i in iters)
    if len(iters) == 1:
        ex += ","
        st += ","
    return f"({ex}):({st})"
