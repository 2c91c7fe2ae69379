"""Parse the constructor text of a Gluon layout: ``BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])``.

Grammar (whitespace free)::

    call  := name '(' [arg (',' arg)* [',']] ')'
    name  := ident ('.' ident)*            # gl.BlockedLayout, ttgl.…, triton.experimental.gluon.language.…
    arg   := [ident '='] value
    value := int | True | False | None | '[' values ']' | '(' values ')' | call | string

The last component of ``name`` picks the registered class; its constructor validates the fields.
Malformed text raises :class:`~linlayout.errors.ParseError` with the position.

    >>> from converters.gluon import parse
    >>> parse("ttgl.SliceLayout(dim=1, parent=gl.BlockedLayout([1, 1], [32, 1], [4, 1], [1, 0]))")
    SliceLayout(1, BlockedLayout([1, 1], [32, 1], [4, 1], [1, 0]))
    >>> parse("BlockedLayout([1], [32], [4], [0]")
    Traceback (most recent call last):
    ...
    linlayout.errors.ParseError: expected ',' or ')' (at position 33)
      BlockedLayout([1], [32], [4], [0]
                                       ^
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from linlayout.errors import LayoutError, ParseError
from linlayout.limits import MAX_DEPTH, MAX_RANK, check_text, parse_int

from .base import GluonLayout, lookup

__all__ = ["parse"]

_TOKEN = re.compile(
    r"\s*(?:(?P<int>[-+]?(?:0[xX][0-9a-fA-F]+|[0-9]+))|(?P<name>[A-Za-z_][A-Za-z_0-9]*)"
    r"|(?P<str>'[^']*'|\"[^\"]*\")|(?P<punct>[\[\]\(\),=.]))"
)


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks: list[tuple[str, str, int]] = []
        self._more = self._tokens()
        self.i = 0
        self.depth = 0

    def _tokens(self):
        """Tokens on demand, so that text after an error is never scanned."""
        text, pos, n = self.text, 0, len(self.text)
        while pos < n:
            if text[pos].isspace():
                pos += 1
                continue
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ParseError(f"unexpected character {text[pos]!r}", text, pos)
            kind = m.lastgroup or ""
            yield (kind, m.group(kind), m.start(kind))
            pos = m.end()
        while True:
            yield ("end", "", n)

    def peek(self, ahead: int = 0) -> tuple[str, str, int]:
        while len(self.toks) <= self.i + ahead:
            self.toks.append(next(self._more))
        return self.toks[self.i + ahead]

    def take(self) -> tuple[str, str, int]:
        t = self.peek()
        self.i += 1
        return t

    def expect(self, value: str, what: str | None = None) -> None:
        kind, v, pos = self.take()
        if v != value or kind != "punct":
            raise ParseError(f"expected {what or repr(value)}", self.text, pos)

    def value(self) -> Any:
        kind, v, pos = self.peek()
        if kind == "int":
            self.take()
            return parse_int(v, "an integer argument", self.text, pos, hex_ok=True)
        if kind == "str":
            self.take()
            return v[1:-1]
        if kind == "punct" and v in "[(":
            self.enter(pos)
            self.take()
            close = "]" if v == "[" else ")"
            items: list[Any] = []
            while True:
                k2, v2, p2 = self.peek()
                if k2 == "punct" and v2 == close:
                    self.take()
                    break
                if len(items) >= MAX_RANK:
                    raise ParseError(f"a list of more than {MAX_RANK} entries", self.text, p2)
                items.append(self.value())
                k2, v2, p2 = self.take()
                if k2 == "punct" and v2 == close:
                    break
                if not (k2 == "punct" and v2 == ","):
                    raise ParseError(f"expected ',' or {close!r}", self.text, p2)
            self.depth -= 1
            return items
        if kind == "name":
            if v in ("True", "False", "None", "true", "false"):
                self.take()
                return {"True": True, "true": True, "False": False, "false": False, "None": None}[v]
            return self.call()
        if kind == "end":
            raise ParseError("unexpected end of text; expected a value", self.text, pos)
        raise ParseError(f"expected a value (int, list, bool or layout), got {v!r}", self.text, pos)

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ParseError(f"brackets nest deeper than the limit of {MAX_DEPTH} levels", self.text, pos)

    def call(self) -> GluonLayout:
        kind, name, start = self.peek()
        self.enter(start)
        self.take()
        if kind != "name":
            raise ParseError("expected a layout class name such as BlockedLayout", self.text, start)
        parts = 1
        while self.peek()[1] == "." and self.peek()[0] == "punct":
            parts += 1
            if parts > 8:
                raise ParseError("a layout class name of more than 8 dotted parts", self.text, start)
            self.take()
            k2, v2, p2 = self.take()
            if k2 != "name":
                raise ParseError("expected a name after '.'", self.text, p2)
            name, start = v2, p2
        try:
            cls = lookup(name)
        except LayoutError as e:
            raise ParseError(str(e), self.text, start) from None
        self.expect("(", f"'(' after {name}")
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        while True:
            k, v, p = self.peek()
            if k == "punct" and v == ")":
                self.take()
                break
            if k == "name" and self.peek(1)[1] == "=" and self.peek(1)[0] == "punct":
                self.take()
                self.take()
                if v in kwargs:
                    raise ParseError(f"{name}: keyword {v!r} given twice", self.text, p)
                kwargs[v] = self.value()
            else:
                if kwargs:
                    raise ParseError(f"{name}: positional argument after keyword arguments", self.text, p)
                if len(args) >= len(cls.field_names()):
                    raise ParseError(f"{name} takes at most {len(cls.field_names())} arguments "
                                     f"({', '.join(cls.field_names())})", self.text, p)
                args.append(self.value())
            k, v, p = self.take()
            if k == "punct" and v == ")":
                break
            if not (k == "punct" and v == ","):
                raise ParseError("expected ',' or ')'", self.text, p)
        names = cls.field_names()
        if len(args) > len(names):
            raise ParseError(f"{name} takes at most {len(names)} arguments ({', '.join(names)}), got {len(args)}",
                             self.text, start)
        for n in kwargs:
            if n not in names:
                raise ParseError(f"{name} has no field {n!r}; fields: {', '.join(names)}", self.text, start)
        for n, a in zip(names, args):
            if n in kwargs:
                raise ParseError(f"{name}: field {n!r} given twice", self.text, start)
            kwargs[n] = a
        self.depth -= 1
        sig = cls._signature()
        missing = [n for n in names if n not in kwargs and sig.get(n, inspect.Parameter.empty) is inspect.Parameter.empty]
        if missing:
            raise ParseError(f"{name}: missing the argument(s) {', '.join(missing)}; {name} takes ({', '.join(names)})",
                             self.text, start)
        try:
            return cls(**kwargs)
        except TypeError as e:
            raise ParseError(f"{name}: {e}", self.text, start) from None


def parse(text: str) -> GluonLayout:
    """A Gluon layout from its constructor text (see the module docstring).

        >>> print(parse("gl.BlockedLayout(size_per_thread=[2, 4], threads_per_warp=[16, 2], "
        ...             "warps_per_cta=[2, 2], order=[1, 0])"))
        BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])
    """
    check_text(text, "Gluon layout text")
    p = _Parser(text)
    if p.peek()[0] == "end":
        raise ParseError("empty text; expected a layout such as BlockedLayout(...)", text, 0)
    obj = p.call()
    k, v, pos = p.peek()
    if k != "end":
        raise ParseError(f"unexpected text after the layout: {v!r}", text, pos)
    return obj
