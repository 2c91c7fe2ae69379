"""Parse and print CuTe notation: layouts, swizzles and composed layouts.

Accepted forms (whitespace is free between tokens):

* layouts ``(4,8):(8,1)``, nested ``((2,2),3):((24,2),8)``, integral ``8:2``, the C++ print form
  ``(_4,_8):(_8,_1)``, and a bare shape ``(4,8)`` (compact column-major strides);
* the basis-descriptor grammar as strides: ``(4,8):(1@0,8@1)`` (C++ prints ``(_4,_8):(_1@0,_8@1)``)
  is a layout with CuTe's scaled-basis strides ``E<i> * v`` (:class:`~converters.cute.layout.E`),
  which maps to coordinates; a descriptor alone, e.g. ``(1@0, 8@1)``, has no shape and is refused
  with a message saying so (:func:`~converters.cute.descriptor.normalize_descriptor` takes one);
* nested basis strides as C++ prints them, innermost index first: ``1@1@1`` is C++'s ``E<1,1>``
  (the coordinate ``(0,(0,1))``);
* coordinates with the slicing underscore, ``(1,_)`` (:func:`parse_coord`, :func:`format_coord`);
* swizzles ``S<3,4,3>``, ``Sw<3,4,3>``, ``Swizzle<3,4,3>``, ``SW_3_4_3`` (negative shifts too:
  ``S<2,0,-2>``);
* composed layouts ``S<3,4,3> o 0 o (8,64):(64,1)`` (also without the offset:
  ``S<3,4,3> o (8,64):(64,1)``).

Every failure is a :class:`~linlayout.errors.ParseError` with the position and what was
expected; nesting is bounded (:data:`~converters.cute.layout.MAX_DEPTH`) and integers are bounded
(:data:`~converters.cute.layout.MAX_INT`), so no input crashes or hangs the parser.

    >>> parse_layout("((2,2),3):((24,2),8)")
    Layout(((2,2),3):((24,2),8))
    >>> parse_layout("(_4,_8):(_8,_1)")
    Layout((4,8):(8,1))
    >>> parse("SW_3_4_3 o 0 o (8,64):(64,1)")
    ComposedLayout(S<3,4,3> o 0 o (8,64):(64,1))
    >>> print(format_layout(parse_layout("(4,8):(8,1)"), cpp=True))
    (_4,_8):(_8,_1)
"""

from __future__ import annotations

from typing import Any, Union

from linlayout.checks import as_bool
from linlayout.errors import LayoutError, ParseError
from linlayout.limits import MAX_RANK

from .layout import MAX_DEPTH, MAX_INT, E, IntTuple, Layout, _, format_coord
from .swizzle import ComposedLayout, Swizzle

__all__ = [
    "parse",
    "parse_layout",
    "parse_swizzle",
    "parse_int_tuple",
    "parse_coord",
    "format_coord",
    "format_layout",
    "MAX_TEXT",
]

#: Longest text accepted (characters).
MAX_TEXT = 1 << 20
_MAX_DIGITS = 19

CuteLike = Union[Layout, Swizzle, ComposedLayout]

#: Spellings of a swizzle in angle brackets, longest first.
_ANGLE_PREFIXES = ("Swizzle<", "Sw<", "S<")


class TextParser:
    """The recursive-descent reader of CuTe text (shared with the descriptor grammar)."""

    __slots__ = ("text", "pos", "n", "_parens")

    def __init__(self, text: Any):
        if not isinstance(text, str):
            raise ParseError(f"expected a string to parse, got {type(text).__name__}")
        if len(text) > MAX_TEXT:
            raise ParseError(f"text of {len(text)} characters is longer than the limit {MAX_TEXT}", text[:200], 0)
        self.text = text
        self.pos = 0
        self.n = len(text)
        self._parens = 0  # parenthesized composed layouts being read (bounded by MAX_DEPTH)

    # ------------------------------------------------------------------ lexing helpers
    def error(self, expected: str, pos: int | None = None) -> ParseError:
        p = self.pos if pos is None else pos
        found = repr(self.text[p]) if p < self.n else "end of text"
        return ParseError(f"expected {expected}, found {found}", self.text, p)

    def ws(self) -> None:
        t, p, n = self.text, self.pos, self.n
        while p < n and t[p] in " \t\r\n":
            p += 1
        self.pos = p

    def peek(self) -> str:
        self.ws()
        return self.text[self.pos] if self.pos < self.n else ""

    def expect(self, ch: str, what: str | None = None) -> None:
        if self.peek() != ch:
            raise self.error(what or repr(ch))
        self.pos += 1

    def at_end(self) -> bool:
        self.ws()
        return self.pos >= self.n

    def integer(self, allow_underscore: bool = True, what: str = "an integer") -> int:
        self.ws()
        t, start = self.text, self.pos
        p = start
        if allow_underscore and p < self.n and t[p] == "_":
            p += 1
        neg = False
        if p < self.n and t[p] in "+-":
            neg = t[p] == "-"
            p += 1
        q = p
        while q < self.n and "0" <= t[q] <= "9":
            q += 1
        if q == p:
            raise self.error(what, p)
        if q - p > _MAX_DIGITS:
            raise ParseError(f"integer with {q - p} digits is out of range (|value| <= {MAX_INT})", t, p)
        v = int(t[p:q])
        if v > MAX_INT:
            raise ParseError(f"integer {v} is out of range (|value| <= {MAX_INT})", t, p)
        self.pos = q
        return -v if neg else v

    # ------------------------------------------------------------------ grammar
    def int_tuple(self, depth: int = 0, basis: bool = False, coord: bool = False) -> Any:
        """int_tuple := leaf | '(' [int_tuple (',' int_tuple)*] ')';  leaf := integer, or with
        ``basis`` (a stride) also ``integer '@' index`` (CuTe's scaled basis ``E<index> * v``),
        or with ``coord`` (a slicing coordinate) also the underscore ``_``."""
        if coord and self.peek() == "_":
            nxt = self.text[self.pos + 1] if self.pos + 1 < self.n else ""
            if not nxt or not ("0" <= nxt <= "9" or nxt in "+-"):
                self.pos += 1
                return _
        if self.peek() != "(":
            v = self.integer(what="an integer or '('")
            if basis and self.peek() == "@":
                self.pos += 1
                p = self.pos
                idx = [self.integer(allow_underscore=False, what="a codomain index after '@'")]
                while self.peek() == "@":  # C++'s nested basis E<i,j> prints v@j@i (innermost first)
                    if len(idx) >= MAX_DEPTH:
                        raise ParseError(f"a basis path deeper than {MAX_DEPTH} levels", self.text, self.pos)
                    self.pos += 1
                    idx.append(self.integer(allow_underscore=False, what="a codomain index after '@'"))
                try:
                    return E(v, tuple(reversed(idx)))
                except LayoutError as e:
                    raise ParseError(str(e), self.text, p) from None
            return v
        if depth >= MAX_DEPTH:
            raise ParseError(f"nesting deeper than {MAX_DEPTH} levels", self.text, self.pos)
        self.pos += 1
        items: list[Any] = []
        if self.peek() == ")":
            self.pos += 1
            return ()
        while True:
            if len(items) >= MAX_RANK:
                raise ParseError(f"a tuple of more than {MAX_RANK} modes (linlayout.limits.MAX_RANK)", self.text, self.pos)
            items.append(self.int_tuple(depth + 1, basis, coord))
            c = self.peek()
            if c == ",":
                self.pos += 1
                continue
            if c == ")":
                self.pos += 1
                return tuple(items)
            raise self.error("',' or ')'")

    def layout(self) -> Layout:
        start = self.pos
        self.ws()
        start = self.pos
        shape = self.int_tuple(basis=True)
        if _has_basis(shape):
            if self.peek() == ":":
                raise ParseError("a shape cannot hold basis (v@i) entries; they are strides", self.text, start)
            raise ParseError(
                "a basis descriptor is a stride and has no shape: write the layout as shape:descriptor, "
                "e.g. (4,8):(1@0,8@1)", self.text, start)
        if self.peek() == ":":
            self.pos += 1
            stride_pos = self.pos
            self.ws()
            stride_pos = self.pos
            stride = self.int_tuple(basis=True)
        else:
            stride, stride_pos = None, start
        try:
            return Layout(shape, stride)
        except LayoutError as e:
            raise ParseError(f"not a valid layout: {e}", self.text, stride_pos) from None

    def swizzle(self) -> Swizzle:
        self.ws()
        t, p = self.text, self.pos
        start = p
        if t.startswith("SW_", p):
            self.pos = p + 3
            vals = [self.integer(False)]
            for _ in range(2):
                if self.pos >= self.n or t[self.pos] != "_":
                    raise self.error("'_' between the swizzle parameters")
                self.pos += 1
                vals.append(self.integer(False))
        elif t.startswith(_ANGLE_PREFIXES, p):
            self.pos = p + next(len(x) for x in _ANGLE_PREFIXES if t.startswith(x, p))
            vals = [self.integer()]
            for _ in range(2):
                self.expect(",", "',' between the swizzle parameters")
                vals.append(self.integer())
            self.expect(">", "'>' closing the swizzle")
        else:
            raise self.error("a swizzle 'S<B,M,S>', 'Sw<B,M,S>', 'Swizzle<B,M,S>' or 'SW_B_M_S'")
        try:
            return Swizzle(*vals)
        except LayoutError as e:
            raise ParseError(f"not a valid swizzle: {e}", t, start) from None

    def is_swizzle_ahead(self) -> bool:
        self.ws()
        t, p = self.text, self.pos
        return t.startswith(_ANGLE_PREFIXES, p) or t.startswith("SW_", p)

    def separator_o(self) -> bool:
        self.ws()
        t, p = self.text, self.pos
        if p < self.n and t[p] in "o∘" and (p + 1 >= self.n or not t[p + 1].isalnum()):
            self.pos = p + 1
            return True
        return False

    def part(self) -> Any:
        """One part of a chain: a swizzle, a layout, or a parenthesized composed layout."""
        if self.is_swizzle_ahead():
            return self.swizzle()
        self.ws()
        if self.peek() == "(":
            save = self.pos
            try:
                return self.layout()
            except ParseError as e:
                # a parenthesized composed layout, at most MAX_DEPTH deep (never after a nesting error)
                depth = self._parens
                if "nesting deeper" in str(e) or depth >= MAX_DEPTH:
                    raise
                self.pos = save + 1
                self._parens = depth + 1
                try:
                    inner = self.anything()
                except ParseError:
                    raise e from None
                finally:
                    self._parens = depth
                if not isinstance(inner, ComposedLayout):
                    raise e from None
                self.expect(")", "')' after the parenthesized composed layout")
                return inner
        return self.layout()

    def anything(self) -> CuteLike:
        first = self.part()
        parts: list = [first]
        offsets: list = []
        # outer o [offset o] inner [o [offset o] inner ...]: a right-nested chain
        while self.separator_o():
            save = self.pos
            self.ws()
            offset = 0
            if self.peek() != "(" and not self.is_swizzle_ahead():
                offset = self.integer(what="an offset or a layout after 'o'")
                if self.peek() == ":":  # an integral layout like 8:2, not an offset
                    self.pos = save
                    offset = 0
                elif not self.separator_o():
                    raise self.error("'o' and the inner layout after the offset")
            pos = self.pos
            parts.append(self.part())
            offsets.append(offset)
        if len(parts) > 1 and isinstance(parts[-1], Swizzle):
            raise self.error("a layout (the innermost part of a composed layout is a layout, not a swizzle)", pos)
        value = parts[-1]
        for outer, offset in zip(reversed(parts[:-1]), reversed(offsets)):
            value = ComposedLayout(outer, offset, value)
        return value


def _has_basis(t: Any) -> bool:
    if isinstance(t, tuple):
        return any(_has_basis(x) for x in t)
    return isinstance(t, E)


def _finish(p: TextParser, value: Any) -> Any:
    if not p.at_end():
        raise p.error("end of text")
    return value


def parse_int_tuple(text: str) -> IntTuple:
    """Parse an int-tuple such as ``((2,2),3)`` or ``_8``.

    >>> parse_int_tuple("((2,2),3)")
    ((2, 2), 3)
    >>> parse_int_tuple("(4)")
    (4,)
    """
    p = TextParser(text)
    return _finish(p, p.int_tuple())


def parse_coord(text: str) -> Any:
    """Parse a coordinate: an int-tuple whose leaves may be negative or the slicing underscore
    ``_`` (:data:`converters.cute._`), as C++ prints it; :func:`format_coord` writes it back.

    >>> parse_coord("(1,(_,_2))")
    (1, (_, 2))
    >>> format_coord(parse_coord("(1,(_,_2))"))
    '(1,(_,2))'
    """  # (format_coord lives in .layout, beside the underscore)
    p = TextParser(text)
    return _finish(p, p.int_tuple(coord=True))


def parse_layout(text: str) -> Layout:
    """Parse a layout ``shape:stride`` (or a bare shape, compact column-major).

    >>> parse_layout("(4,8):(8,1)")
    Layout((4,8):(8,1))
    >>> parse_layout("(4,8)")
    Layout((4,8):(1,4))
    >>> parse_layout("(4,8):(8,1")
    Traceback (most recent call last):
    ...
    linlayout.errors.ParseError: expected ',' or ')', found end of text (at position 10)
      (4,8):(8,1
                ^
    """
    p = TextParser(text)
    return _finish(p, p.layout())


def parse_swizzle(text: str) -> Swizzle:
    """Parse ``S<B,M,S>``, ``Sw<B,M,S>`` or ``SW_B_M_S``.

    >>> parse_swizzle("Sw<3,4,3>") == parse_swizzle("SW_3_4_3") == Swizzle(3, 4, 3)
    True
    """
    p = TextParser(text)
    return _finish(p, p.swizzle())


def parse(text: str) -> CuteLike:
    """Parse any CuTe form: a layout, a swizzle, or ``outer o offset o inner``.

    >>> parse("S<3,4,3> o 0 o (8,64):(64,1)")
    ComposedLayout(S<3,4,3> o 0 o (8,64):(64,1))
    >>> parse("S<2,0,2>")
    Swizzle(2, 0, 2)
    """
    p = TextParser(text)
    return _finish(p, p.anything())


def format_layout(x: CuteLike, cpp: bool = False) -> str:
    """Print a layout, swizzle or composed layout; ``cpp=True`` gives CuTe C++'s print form.

    >>> format_layout(Layout(((2, 2), 3), ((24, 2), 8)))
    '((2,2),3):((24,2),8)'
    >>> format_layout(Swizzle(3, 4, 3), cpp=True)
    'Sw<3,4,3>'
    """
    if cpp is not False and cpp is not True:
        cpp = as_bool(cpp, "format_layout", "cpp")
    if isinstance(x, Layout):
        return x.to_cpp() if cpp else str(x)
    if isinstance(x, Swizzle):
        return f"Sw<{x.bits},{x.base},{x.shift}>" if cpp else f"S<{x.bits},{x.base},{x.shift}>"
    if isinstance(x, ComposedLayout):
        return x.to_cpp() if cpp else str(x)
    raise LayoutError(f"format_layout expects a CuTe layout, swizzle or composed layout, got {type(x).__name__}")


