"""The basis descriptor grammar: strides written as scaled basis elements of a multi-dim codomain.

A descriptor is a stride tree whose leaves are scaled basis elements ``v@i`` (``v`` times the unit
vector of codomain mode ``i``), as CuTe writes ``ScaledBasis`` strides::

    descriptor := leaf | '(' [descriptor (',' descriptor)*] ')'
    leaf       := coef ('@' index)*          a leaf without '@' is a plain integer stride
    coef       := ['-'] digits ['/' digits]  an integer or a fraction p/q
    index      := digits

Examples: ``(1@0, 1@1)``, ``((1@0, 8@1), 1@2)``, fractions ``(1/2@0, 4@1)``, multi-dim
``(1@0@1)`` (index path ``(0, 1)``: sub-mode 1 of codomain mode 0), the empty ``()``.

:func:`normalize_descriptor` turns ``shape`` + descriptor into an integer :class:`Layout` over a
codomain shape (column-major): ``v@i`` becomes ``v * stride_of_codomain_mode_i``.  It rejects
what no layout can mean (a zero denominator, a non-integral stride, an index outside the
codomain) with :class:`~linlayout.errors.BasisError` instead of inventing a layout.

    >>> d = parse_descriptor("(1@0, 1@1)")
    >>> d
    Descriptor((1@0,1@1))
    >>> normalize_descriptor((4, 8), d, codomain=(4, 8))
    Layout((4,8):(1,4))
    >>> normalize_descriptor((2, 8), parse_descriptor("(1/2@0, 4@1)"), codomain=(2, 16))
    Traceback (most recent call last):
    ...
    linlayout.errors.BasisError: descriptor leaf [0] = 1/2@0 gives the non-integral stride 1/2 * 1 = 1/2 over codomain (2,16)
    >>> normalize_descriptor((2,), parse_descriptor("(1@0@1)"), codomain=((4, 2),))
    Layout((2):(4))
    >>> normalize_descriptor((2, 8), parse_descriptor("(1/2@1, 4@0)"), codomain=(2, 16))
    Layout((2,8):(1,4))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Optional, Union

from linlayout.errors import BasisError, LayoutError, ParseError
from linlayout.checks import as_int
from linlayout.limits import MAX_RANK, as_list

from .layout import MAX_DEPTH, MAX_INT, E, IntTuple, Layout, compact_col_major, flatten, format_int_tuple, is_int
from .text import TextParser

__all__ = ["Basis", "Descriptor", "parse_descriptor", "format_descriptor", "normalize_descriptor", "basis_layout"]


class Basis:
    """A scaled basis element ``num/den @ index...`` (kept as written; ``den`` may be 0 until
    normalization rejects it).

    >>> Basis(3, 1, (0,)), Basis(1, 2, (1, 0))
    (Basis(3@0), Basis(1/2@1@0))
    """

    __slots__ = ("num", "den", "index")

    def __init__(self, num: int, den: int = 1, index: tuple = ()):
        self.num = as_int(num, "Basis: num", LayoutError)
        self.den = as_int(den, "Basis: den", LayoutError)
        self.index = tuple(as_int(i, "Basis: index", LayoutError) for i in as_list(index, "Basis: index", MAX_DEPTH))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Basis):
            return NotImplemented
        return (self.num, self.den, self.index) == (other.num, other.den, other.index)

    def __hash__(self) -> int:
        return hash((self.num, self.den, self.index))

    def __str__(self) -> str:
        c = f"{self.num}" if self.den == 1 else f"{self.num}/{self.den}"
        return c + "".join(f"@{i}" for i in self.index)

    def __repr__(self) -> str:
        return f"Basis({self})"


Tree = Union[Basis, tuple]


def _check_tree(t: Any, where: str, depth: int) -> None:
    """A :class:`BasisError` unless ``t`` is a :class:`Basis` or a (nested) tuple of them."""
    if isinstance(t, Basis):
        return
    if not isinstance(t, tuple):
        raise BasisError(f"{where}: a descriptor leaf must be a Basis (v@i), got {type(t).__name__}")
    if depth >= MAX_DEPTH:
        raise BasisError(f"{where}: the descriptor is nested more than {MAX_DEPTH} deep")
    for i, x in enumerate(t):
        _check_tree(x, f"{where}[{i}]", depth + 1)


class Descriptor:
    """A parsed descriptor: a tree (nested tuples) of :class:`Basis` leaves.

    >>> str(parse_descriptor("((1@0, 8@1), 1@2)"))
    '((1@0,8@1),1@2)'
    """

    __slots__ = ("tree",)

    def __init__(self, tree: Tree):
        _check_tree(tree, "Descriptor", 0)
        self.tree = tree

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Descriptor):
            return NotImplemented
        return self.tree == other.tree

    def __hash__(self) -> int:
        return hash(self.tree)

    def __str__(self) -> str:
        return format_descriptor(self)

    def __repr__(self) -> str:
        return f"Descriptor({self})"


class _DescParser(TextParser):
    def number(self, what: str) -> int:
        return self.integer(allow_underscore=False, what=what)

    def leaf(self) -> Basis:
        self.ws()
        num = self.number("an integer coefficient or '('")
        den = 1
        if self.pos < self.n and self.text[self.pos] == "/":
            self.pos += 1
            p = self.pos
            den = self.number("a denominator after '/'")
            if den < 0:
                raise ParseError("expected a non-negative denominator", self.text, p)
        idx: list[int] = []
        while self.peek() == "@":
            self.pos += 1
            self.ws()
            p = self.pos
            if len(idx) >= MAX_DEPTH:
                raise ParseError(f"more than {MAX_DEPTH} '@' indices", self.text, p)
            i = self.number("a codomain index after '@'")
            if i < 0:
                raise ParseError("expected a non-negative codomain index", self.text, p)
            idx.append(i)
        return Basis(num, den, tuple(idx))

    def tree(self, depth: int = 0) -> Tree:
        if self.peek() != "(":
            return self.leaf()
        if depth >= MAX_DEPTH:
            raise ParseError(f"nesting deeper than {MAX_DEPTH} levels", self.text, self.pos)
        self.pos += 1
        if self.peek() == ")":
            self.pos += 1
            return ()
        items: list[Tree] = []
        while True:
            if len(items) >= MAX_RANK:
                raise ParseError(f"a tuple of more than {MAX_RANK} modes (linlayout.limits.MAX_RANK)", self.text, self.pos)
            items.append(self.tree(depth + 1))
            c = self.peek()
            if c == ",":
                self.pos += 1
            elif c == ")":
                self.pos += 1
                return tuple(items)
            else:
                raise self.error("',' or ')'")


def parse_descriptor(text: str) -> Descriptor:
    """Parse a basis descriptor; errors are :class:`~linlayout.errors.ParseError` with a position.

    >>> parse_descriptor("(1@0@1)").tree
    (Basis(1@0@1),)
    >>> parse_descriptor("()").tree
    ()
    >>> parse_descriptor("(1@0, 1@)")
    Traceback (most recent call last):
    ...
    linlayout.errors.ParseError: expected a codomain index after '@', found ')' (at position 8)
      (1@0, 1@)
              ^
    """
    p = _DescParser(text)
    t = p.tree()
    if not p.at_end():
        raise p.error("end of text")
    return Descriptor(t)


def format_descriptor(d: Union[Descriptor, Tree]) -> str:
    """Print a descriptor so that :func:`parse_descriptor` reads it back unchanged.

    >>> format_descriptor(parse_descriptor(" ( 1/2@0 , 4@1 ) "))
    '(1/2@0,4@1)'
    """
    t = d.tree if isinstance(d, Descriptor) else d
    if isinstance(t, tuple):
        return _format_tree(t, 0)
    if isinstance(t, Basis):
        return str(t)
    raise LayoutError(f"format_descriptor: not a descriptor: {t!r}")


def _format_tree(t: Any, depth: int) -> str:
    if not isinstance(t, tuple):
        return format_descriptor(t)
    if depth >= MAX_DEPTH:  # a tree built by hand can be deeper than any parsed one
        raise LayoutError(f"format_descriptor: a descriptor nested deeper than {MAX_DEPTH} levels")
    return "(" + ",".join(_format_tree(x, depth + 1) for x in t) + ")"


def _codomain_strides(codomain: IntTuple) -> IntTuple:
    return compact_col_major(codomain)


def _lookup(strides: IntTuple, codomain: IntTuple, index: tuple, where: str, leaf: Basis) -> int:
    cur_s: Any = strides
    cur_c: Any = codomain
    if not index:
        # plain integer stride: unit stride of the flat codomain
        return 1
    for k, i in enumerate(index):
        if not isinstance(cur_c, tuple):
            if i == 0 and k == len(index) - 1:
                return cur_s
            raise BasisError(f"descriptor leaf {where} = {leaf}: index path {index} goes past codomain {format_int_tuple(codomain)}")
        if i >= len(cur_c):
            raise BasisError(
                f"descriptor leaf {where} = {leaf}: codomain mode {i} does not exist in codomain {format_int_tuple(codomain)}"
            )
        cur_s, cur_c = cur_s[i], cur_c[i]
    if isinstance(cur_s, tuple):
        # a basis of a nested codomain mode means its first (fastest) leaf
        while isinstance(cur_s, tuple):
            if not cur_s:
                raise BasisError(f"descriptor leaf {where} = {leaf}: codomain mode {index} is empty")
            cur_s = cur_s[0]
    return cur_s


def normalize_descriptor(shape: IntTuple, desc: Union[Descriptor, str], codomain: Optional[IntTuple] = None) -> Layout:
    """The integer layout ``shape : desc`` over ``codomain`` (column-major offsets).

    ``v@i`` becomes ``v`` times the column-major stride of codomain mode ``i`` (an index path
    ``@i@j`` walks into nested codomain modes); a plain integer leaf is an integer stride.
    Without ``codomain``, each codomain mode ``i`` is sized to hold what the layout reaches along
    it (integral coefficients only).

    >>> normalize_descriptor(((2, 2), 3), "((1@0, 8@1), 1@2)", codomain=(2, 16, 3))
    Layout(((2,2),3):((1,16),32))
    >>> normalize_descriptor((4, 8), "(1@0, 1@1)")
    Layout((4,8):(1,4))
    >>> normalize_descriptor((2,), "(1/0@0)")
    Traceback (most recent call last):
    ...
    linlayout.errors.BasisError: descriptor leaf [0] = 1/0@0 has a zero denominator
    """
    if isinstance(desc, str):
        desc = parse_descriptor(desc)
    if not isinstance(desc, Descriptor):
        raise LayoutError(f"normalize_descriptor expects a Descriptor or text, got {desc!r}")
    try:
        shape = Layout(shape).shape  # lists read as tuples, as Layout reads them
    except LayoutError as e:
        raise LayoutError(f"normalize_descriptor: bad shape: {e}") from None
    if codomain is not None:
        bad = [c for c in flatten(codomain) if not is_int(c) or c < 1]
        if bad:
            raise BasisError(f"normalize_descriptor: codomain {format_int_tuple(codomain)} has the extent {bad[0]!r}; extents are positive integers")
    leaves: list = []

    def walk(s: Any, t: Any, where: str) -> None:
        if isinstance(s, tuple):
            if not isinstance(t, tuple) or len(t) != len(s):
                raise BasisError(f"descriptor {format_descriptor(desc)} is not congruent with shape {format_int_tuple(shape)} at {where or 'top'}")
            for i, (x, y) in enumerate(zip(s, t)):
                walk(x, y, f"{where}[{i}]")
        else:
            if not isinstance(t, Basis):
                raise BasisError(f"descriptor {format_descriptor(desc)} is not congruent with shape {format_int_tuple(shape)} at {where or 'top'}")
            if t.den == 0:
                raise BasisError(f"descriptor leaf {where or '[0]'} = {t} has a zero denominator")
            leaves.append((where or "[0]", s, t))

    walk(shape, desc.tree, "")
    if codomain is None:
        ext: dict = {}
        for where, s, b in leaves:
            if b.den != 1 and b.num % b.den:
                raise BasisError(
                    f"descriptor leaf {where} = {b}: a fractional coefficient needs an explicit codomain"
                )
            if len(b.index) > 1:
                raise BasisError(f"descriptor leaf {where} = {b}: a multi-dim index needs an explicit codomain")
            i = b.index[0] if b.index else 0
            if i >= MAX_RANK:  # the codomain would have i + 1 modes
                raise BasisError(f"descriptor leaf {where} = {b}: codomain mode {i} is past the limit of {MAX_RANK} modes "
                                 "(linlayout.limits.MAX_RANK)")
            v = abs(b.num // b.den)
            ext[i] = ext.get(i, 1) + (s - 1) * v
        n = max(ext) + 1 if ext else 0
        codomain = tuple(ext.get(i, 1) for i in range(n)) if n != 1 else (ext[0],)
    strides = _codomain_strides(codomain)
    out = []
    for where, s, b in leaves:
        unit = _lookup(strides, codomain, b.index, where, b)
        v = Fraction(b.num, b.den) * unit
        if v.denominator != 1:
            raise BasisError(
                f"descriptor leaf {where} = {b} gives the non-integral stride {b.num}/{b.den} * {unit} = {v} "
                f"over codomain {format_int_tuple(codomain)}"
            )
        iv = int(v)
        if abs(iv) > MAX_INT:
            raise BasisError(f"descriptor leaf {where} = {b} gives the stride {iv}, beyond {MAX_INT}")
        out.append(iv)
    it = iter(out)

    def rebuild(s: Any) -> Any:
        if isinstance(s, tuple):
            return tuple(rebuild(x) for x in s)
        return next(it)

    return Layout(shape, rebuild(shape))


def basis_layout(shape: IntTuple, desc: Union[Descriptor, str]) -> Layout:
    """The layout ``shape : desc`` with CuTe's scaled-basis strides (``v@i`` -> ``E<i> * v``),
    mapping to coordinates; the same as ``parse("shape:desc")``.  Only integral coefficients and
    single indices have a C++ ``ScaledBasis`` spelling here (use :func:`normalize_descriptor`
    with a codomain for fractions and index paths).

    >>> basis_layout((4, 8), "(1@0, 1@1)")
    Layout((4,8):(1@0,1@1))
    >>> basis_layout((4, 8), "(1@0, 1@1)")((3, 2))
    (3, 2)
    """
    if isinstance(desc, str):
        desc = parse_descriptor(desc)
    if not isinstance(desc, Descriptor):
        raise LayoutError(f"basis_layout expects a Descriptor or text, got {desc!r}")

    def conv(t: Any, where: str) -> Any:
        if isinstance(t, tuple):
            return tuple(conv(x, f"{where}[{i}]") for i, x in enumerate(t))
        if t.den != 1 or len(t.index) > 1:
            raise BasisError(f"descriptor leaf {where or '[0]'} = {t}: only v@i with an integer v is a CuTe basis stride")
        return E(t.num, t.index[0]) if t.index else t.num

    try:
        return Layout(shape, conv(desc.tree, ""))
    except BasisError:
        raise
    except LayoutError as e:
        raise BasisError(f"basis_layout: {e}") from None
