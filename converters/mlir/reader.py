"""A cursor over MLIR text: the tokens Triton's IR dumps use in attributes and types.

Every reader method raises :class:`~linlayout.errors.ParseError` with the position (an index into
the whole text) and what was expected there.  Attribute, type and module parsers share it.

    >>> r = Reader("[[0, 1], [2, 0]] : i32")
    >>> r.value()
    [[0, 1], [2, 0]]
    >>> r.pos
    16
    >>> Reader("[1, 2").value()
    Traceback (most recent call last):
    ...
    linlayout.errors.ParseError: expected ',' or ']' in a list (at position 5)
      [1, 2
           ^
"""

from __future__ import annotations

import re
from typing import Any

from linlayout.errors import ParseError
from linlayout.limits import MAX_DEPTH, MAX_ITEMS, check_text, parse_int

__all__ = ["Reader", "Located"]

_IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9$.\-]*")
_INT = re.compile(r"[-+]?(?:0x[0-9a-fA-F]+|[0-9]+)")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')



class Keyword(str):
    """A bare name as a field's value: an enum case such as ``kThenMn``."""

class Located:
    """A value with the position where it starts in the text (for error messages)."""

    __slots__ = ("value", "pos", "key_pos")

    def __init__(self, value: Any, pos: int, key_pos: int | None = None) -> None:
        self.value, self.pos = value, pos
        self.key_pos = pos if key_pos is None else key_pos

    def __repr__(self) -> str:
        return f"Located({self.value!r}, {self.pos})"


class Reader:
    """A position in ``text``; ``attr_hook(reader)`` reads a ``#...`` attribute inside values
    (set by :mod:`converters.mlir.attrs`)."""

    def __init__(self, text: str, pos: int = 0, attr_hook: Any = None) -> None:
        check_text(text, "MLIR text")
        self.text = text
        self.pos = pos
        self.attr_hook = attr_hook
        self.depth = 0

    def enter(self) -> None:
        """One level deeper into a list, dictionary or attribute (bounded by MAX_DEPTH)."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"the text nests deeper than the limit of {MAX_DEPTH} levels")

    # ------------------------------------------------------------------ basics
    def error(self, message: str, pos: int | None = None) -> ParseError:
        return ParseError(message, self.text, self.pos if pos is None else pos)

    def ws(self) -> None:
        t, n, p = self.text, len(self.text), self.pos
        while p < n and t[p] in " \t\r\n":
            p += 1
        self.pos = p

    def at_end(self) -> bool:
        self.ws()
        return self.pos >= len(self.text)

    def peek(self, s: str) -> bool:
        self.ws()
        return self.text.startswith(s, self.pos)

    def accept(self, s: str) -> bool:
        if self.peek(s):
            self.pos += len(s)
            return True
        return False

    def expect(self, s: str, what: str | None = None) -> None:
        if not self.accept(s):
            got = self.text[self.pos:self.pos + 12] or "the end of the text"
            raise self.error(f"expected {what or repr(s)}, got {got!r}")

    def _token(self, pattern: re.Pattern[str], what: str) -> str:
        """The text ``pattern`` matches at the next non-blank position (consumed), or a ParseError
        saying ``what`` was expected."""
        self.ws()
        m = pattern.match(self.text, self.pos)
        if not m:
            raise self.error(f"expected {what}")
        self.pos = m.end()
        return m.group()

    def ident(self, what: str = "a name") -> str:
        return self._token(_IDENT, what)

    def integer(self, what: str = "an integer") -> int:
        text = self._token(_INT, what)
        return parse_int(text, what, self.text, self.pos - len(text), hex_ok=True)

    def string(self) -> str:
        return self._token(_STRING, "a quoted string")[1:-1]

    def key(self) -> Located:
        """A dictionary key: a bare name or a quoted string."""
        self.ws()
        p = self.pos
        if self.peek('"'):
            return Located(self.string(), p)
        return Located(self.ident("a field name"), p)

    # ------------------------------------------------------------------ values
    def value(self) -> Any:
        """An int (an optional ``: i32`` type suffix is read and dropped), ``true``/``false``, a
        quoted string, a list, a ``{k = v}`` dictionary (of :class:`Located` values) or, with an
        ``attr_hook``, a ``#...`` attribute."""
        self.ws()
        p = self.pos
        t = self.text
        if p >= len(t):
            raise self.error("unexpected end of text; expected a value")
        c = t[p]
        if c == "[":
            return self.list_()
        if c == "{":
            return self.dict_()
        if c == '"':
            return self.string()
        if c == "#":
            if self.attr_hook is None:
                raise self.error("an attribute is not allowed here")
            return self.attr_hook(self)
        if c in "-+" or c.isdigit():
            v = self.integer()
            if self.peek(":") and not self.peek("::"):
                save = self.pos
                self.pos += 1
                self.ws()
                if _IDENT.match(t, self.pos):
                    self.ident()
                else:
                    self.pos = save
            return v
        m = _IDENT.match(t, p)
        if m and m.group() in ("true", "false"):
            self.pos = m.end()
            return m.group() == "true"
        raise self.error(f"expected a value (integer, true/false, list, dictionary or attribute), got {t[p:p + 12]!r}")

    def list_(self) -> list:
        self.expect("[")
        self.enter()
        out: list = []
        if self.accept("]"):
            self.depth -= 1
            return out
        while True:
            if len(out) >= MAX_ITEMS:
                raise self.error(f"a list of more than {MAX_ITEMS} entries")
            out.append(self.value())
            if self.accept("]"):
                self.depth -= 1
                return out
            if not self.accept(","):
                raise self.error("expected ',' or ']' in a list")

    def dict_(self) -> dict[str, Located]:
        """``{k = v, ...}``; a key without ``= v`` (a unit attribute) reads as ``true``."""
        self.expect("{")
        self.enter()
        out: dict[str, Located] = {}
        if self.accept("}"):
            self.depth -= 1
            return out
        while True:
            if len(out) >= MAX_ITEMS:
                raise self.error(f"a dictionary of more than {MAX_ITEMS} entries")
            self.fields_into(out)
            if self.accept("}"):
                self.depth -= 1
                return out
            if not self.accept(","):
                raise self.error("expected ',' or '}' in a dictionary")

    def fields_into(self, out: dict[str, Located], keywords: bool = False) -> None:
        """One ``key = value`` (or a bare ``key``) into ``out``; a repeated key is an error.  With
        ``keywords``, a bare name as the value is a :class:`Keyword` (an enum case)."""
        k = self.key()
        if k.value in out:
            raise self.error(f"field {k.value!r} given twice", k.pos)
        if self.accept("="):
            self.ws()
            p = self.pos
            m = _IDENT.match(self.text, p)
            if keywords and m and m.group() not in ("true", "false") and self.text[m.end():m.end() + 1] in (",", ">"):
                self.pos = m.end()  # an enum case (`blockRepOrder = kThenMn`)
                out[k.value] = Located(Keyword(m.group()), p, k.pos)
                return
            out[k.value] = Located(self.value(), p, k.pos)
        else:
            out[k.value] = Located(True, k.pos, k.pos)

    def skip_balanced(self) -> str:
        """Skip one balanced ``<...>``, ``(...)``, ``[...]`` or ``{...}`` group (quotes respected)
        starting at the cursor and return its text."""
        self.ws()
        start = self.pos
        t = self.text
        pairs = {"<": ">", "(": ")", "[": "]", "{": "}"}
        if start >= len(t) or t[start] not in pairs:
            raise self.error("expected one of '<', '(', '[' or '{'")
        stack = []
        p = start
        n = len(t)
        while p < n:
            c = t[p]
            if c == '"':
                m = _STRING.match(t, p)
                if not m:
                    raise self.error("unterminated string", p)
                p = m.end()
                continue
            if c in pairs:
                stack.append(pairs[c])
            elif c in ">)]}":
                if c == ">" and p > 0 and t[p - 1] == "-" and stack and stack[-1] != ">":  # '->' inside a group
                    p += 1
                    continue
                if not stack or c != stack[-1]:
                    raise self.error(f"unbalanced {c!r}", p)
                stack.pop()
                if not stack:
                    self.pos = p + 1
                    return t[start:p + 1]
            p += 1
        raise self.error(f"unclosed {t[start]!r}", start)
