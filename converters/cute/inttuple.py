"""CuTe's int-tuple functions (C++ ``int_tuple.hpp``, ``stride.hpp``, ``underscore.hpp``).

An *int-tuple* is an ``int`` or a (possibly nested) tuple of int-tuples.  Every integer here is
static (C++ ``Int<N>``), as everywhere in :mod:`converters.cute`, so C++'s compile-time checks
("Mismatched Ranks", "Divisibility Condition") are errors here.

* :func:`shape_div` — divide a shape by a shape or an integer (folded left to right);
* :func:`weakly_congruent`, :func:`evenly_divides` — C++'s profile and divisibility predicates;
* :func:`lex_less`, :func:`colex_less`, :func:`elem_less` — the three orders on coordinates;
* :func:`idx2crd` — an index (or offset) to a coordinate, with C++'s three-argument form through
  strides (``(idx / d) % s`` per leaf);
* :data:`_` (:class:`Underscore`), :func:`slice_tuple`, :func:`dice_tuple` — the underscore of a
  slicing coordinate and what it keeps of an int-tuple (layouts: :mod:`.slicing`).

    >>> shape_div((4, 5, 6), 40), weakly_congruent(2, (2, 2)), lex_less((0, 1), (1, 0))
    ((1, 1, 3), True, True)
    >>> idx2crd(7, (3, 5), (5, 1))
    (1, 2)
    >>> slice_tuple((1, _), ((2, 3), 4))
    (4,)
"""

from __future__ import annotations

from typing import Any

from linlayout.errors import SizeError

from .layout import (
    IntTupleError,
    MAX_DEPTH,
    IntTuple,
    Layout,
    RankError,
    Underscore,
    _,
    _divmod,
    ceil_div_tuple,
    _idx2crd_tree,
    format_int_tuple,
    has_underscore,
    is_int,
    product,
    slice_modes,
)

__all__ = [
    "Underscore",
    "_",
    "RankError",
    "IntTupleError",
    "DivisibilityError",
    "has_underscore",
    "shape_div",
    "weakly_congruent",
    "congruent",
    "evenly_divides",
    "lex_less",
    "colex_less",
    "elem_less",
    "idx2crd",
    "slice_tuple",
    "dice_tuple",
]


class DivisibilityError(SizeError):
    """Two static integers neither of which divides the other (C++'s "Divisibility Condition")."""


def _check(t: Any, what: str, depth: int = 0, *, under: bool = False, negative: bool = False) -> Any:
    """``t`` checked to be an int-tuple (with ``_`` where ``under``); a LayoutError otherwise."""
    if depth > MAX_DEPTH:
        raise IntTupleError(f"{what}: nesting deeper than {MAX_DEPTH} levels")
    if isinstance(t, tuple):
        for x in t:
            _check(x, what, depth + 1, under=under, negative=negative)
        return t
    if under and t is _:
        return t
    if not is_int(t):
        raise IntTupleError(f"{what}: expected an int or a tuple of int-tuples, got {type(t).__name__} {t!r}")
    if not negative and t < 0:
        raise SizeError(f"{what}: a shape's extents are >= 0, got {t}")
    return t


def _ranks(a: tuple, b: tuple, who: str) -> None:
    if len(a) != len(b):
        raise RankError(f"{who}: mismatched ranks: {format_int_tuple(a)} has {len(a)} modes, {format_int_tuple(b)} has {len(b)}")


# ------------------------------------------------------------------ shape_div
def shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """``a`` divided by ``b`` as C++'s ``shape_div``: tuple / tuple mode by mode (equal ranks);
    tuple / int folded left to right (each mode takes what it can of ``b``: ``shape_div(ai, b)``,
    then ``b`` becomes ``shape_div(b, ai)``); int / tuple by the tuple's product; int / int the
    ceiling ``ceil(a / b)`` where one divides the other (C++'s static "Divisibility Condition";
    otherwise a :class:`DivisibilityError`).

    >>> shape_div((4, 5, 6), 40)        # (4,5,6)/40 -> (1,5,6)/10 -> (1,1,6)/2 -> (1,1,3)
    (1, 1, 3)
    >>> shape_div(6, 12), shape_div(((2, 4), 6), (4, 3)), shape_div(12, (2, 3))
    (1, ((1, 2), 2), 2)
    """
    _check(a, "shape_div: a")
    _check(b, "shape_div: b")
    return _shape_div(a, b)


def _shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    if isinstance(a, tuple):
        if isinstance(b, tuple):
            _ranks(a, b, "shape_div")
            return tuple(_shape_div(x, y) for x, y in zip(a, b))
        out = []
        rest: IntTuple = b
        for ai in a:
            out.append(_shape_div(ai, rest))
            rest = _shape_div(rest, ai)
        return tuple(out)
    if isinstance(b, tuple):
        return _shape_div(a, product(b))
    if b == 0 or (a % b != 0 and (a == 0 or b % a != 0)):
        raise DivisibilityError(f"shape_div: neither of {a} and {b} divides the other (C++: 'Divisibility Condition')")
    return (a + b - 1) // b


# ------------------------------------------------------------------ profiles
def weakly_congruent(a: IntTuple, b: IntTuple) -> bool:
    """True when ``a``'s profile is a coarsening of ``b``'s (C++ ``weakly_congruent``, a partial
    order ``a <= b``): an integer matches anything; tuples match mode by mode with equal ranks; a
    tuple never matches an integer.  The values do not matter.

    >>> weakly_congruent(1, ((2, 2), 3)), weakly_congruent((1, 1), (2, (2, 2))), weakly_congruent((1,), 1)
    (True, True, False)
    """
    _check(a, "weakly_congruent: a")
    _check(b, "weakly_congruent: b")
    return _weakly(a, b)


def _weakly(a: Any, b: Any) -> bool:
    if isinstance(a, tuple):
        if not isinstance(b, tuple):
            return False
        return len(a) == len(b) and all(_weakly(x, y) for x, y in zip(a, b))
    return True


def congruent(a: IntTuple, b: IntTuple) -> bool:
    """True when ``a`` and ``b`` have the same profile (nesting and ranks), C++ ``congruent``.

    >>> congruent(((2, 3), 4), ((1, 1), 9)), congruent((2, 3), 6)
    (True, False)
    """
    _check(a, "congruent: a")
    _check(b, "congruent: b")
    return _weakly(a, b) and _weakly(b, a)


def evenly_divides(a: IntTuple, b: Any) -> bool:
    """True when the tiler ``b`` divides the shape ``a`` evenly (C++ ``evenly_divides``), so that
    ``logical_divide(Layout(a), b)`` has the size of ``a``.  A tuple tiler goes mode by mode (false
    when it has more modes than ``a``; its missing modes are free); an integer or a
    :class:`Layout` tiler ``t`` divides ``a`` when ``size(a) == size(t) * size(ceil_div(a, t))``
    (for a layout ``ceil_div`` is the shape of ``complement(t, a)``).  A :class:`Layout` ``a``
    stands for its shape.

    >>> evenly_divides(16, 8), evenly_divides(16, 12), evenly_divides((2, 8), (2, 8))
    (True, False, True)
    >>> evenly_divides((32, 64), (Layout(8, 2), 32)), evenly_divides((32, 64), (Layout(8, 3), 32))
    (True, False)
    """
    if isinstance(a, Layout):  # C++ takes shape(a)
        a = a.shape
    _check(a, "evenly_divides: a")
    return _evenly(a, b, 0)


def _evenly(a: IntTuple, b: Any, depth: int) -> bool:
    if depth > MAX_DEPTH:
        raise IntTupleError(f"evenly_divides: tiler nested deeper than {MAX_DEPTH} levels")
    if isinstance(b, tuple):
        ra = len(a) if isinstance(a, tuple) else 1
        if len(b) > ra:
            return False
        modes = a if isinstance(a, tuple) else (a,)
        return all(_evenly(y, x, depth + 1) for x, y in zip(b, modes))
    if isinstance(b, Layout):
        from .algebra import complement  # (algebra imports this module's siblings)

        b._need_offsets("evenly_divides")
        return product(a) == b.size() * product(complement(b, a).shape)
    if not is_int(b) or b < 1:
        raise IntTupleError(f"evenly_divides: a tiler is an int >= 1, a Layout or a tuple of tilers, got {b!r}")
    return product(a) == b * product(ceil_div_tuple(a, b))


# ------------------------------------------------------------------ orders
def lex_less(a: IntTuple, b: IntTuple) -> bool:
    """Lexicographic ``a < b`` on coordinates (C++ ``lex_less``): the first mode decides first;
    sub-tuples compare recursively; a tuple that runs out first is the smaller.

    >>> lex_less((0, 4), (1, 0)), lex_less((1, 0), (0, 4)), lex_less((1,), (1, 0))
    (True, False, True)
    """
    return _less(_check(a, "lex_less: a", negative=True), _check(b, "lex_less: b", negative=True), False, "lex_less")


def colex_less(a: IntTuple, b: IntTuple) -> bool:
    """Colexicographic ``a < b`` (C++ ``colex_less``): the last mode decides first — the order of
    a column-major enumeration of a shape.

    >>> colex_less((4, 0), (0, 1)), colex_less((0, 1), (4, 0))
    (True, False)
    """
    return _less(_check(a, "colex_less: a", negative=True), _check(b, "colex_less: b", negative=True), True, "colex_less")


def _comparable(a: Any, b: Any, colex: bool, who: str) -> None:
    """C++ instantiates the comparison of every pair of modes up to the shorter tuple (whatever
    the values), so an integer meeting a tuple anywhere there does not compile."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        n, m = len(a), len(b)
        for i in range(min(n, m)):
            _comparable(a[n - 1 - i] if colex else a[i], b[m - 1 - i] if colex else b[i], colex, who)
    elif isinstance(a, tuple) or isinstance(b, tuple):
        raise RankError(f"{who}: cannot compare the tuple and the integer {format_int_tuple(a)} and {format_int_tuple(b)}")


def _less(a: Any, b: Any, colex: bool, who: str) -> bool:
    _comparable(a, b, colex, who)
    return _less_values(a, b, colex)


def _less_values(a: Any, b: Any, colex: bool) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        n, m = len(a), len(b)
        for i in range(min(n, m)):
            x = a[n - 1 - i] if colex else a[i]
            y = b[m - 1 - i] if colex else b[i]
            if _less_values(x, y, colex):
                return True
            if x != y:
                return False
        return n < m  # b exhausted first (or together): not less; a exhausted first: less
    return bool(a < b)


def elem_less(a: IntTuple, b: IntTuple) -> bool:
    """True when every mode of ``a`` is below the matching mode of ``b`` (C++ ``elem_less``), e.g.
    a coordinate inside a shape; ``b``'s extra modes are free, ``a``'s extra modes fail.

    >>> elem_less((1, (2, 0)), (3, (4, 1))), elem_less((1, 3), (3, 3))
    (True, False)
    """
    a, b = _check(a, "elem_less: a", negative=True), _check(b, "elem_less: b", negative=True)
    _comparable(a, b, False, "elem_less")
    return _elem_less(a, b)


def _elem_less(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) <= len(b) and all(_elem_less(x, y) for x, y in zip(a, b))
    return bool(a < b)


# ------------------------------------------------------------------ idx2crd
def idx2crd(idx: IntTuple, shape: IntTuple, stride: IntTuple | None = None) -> IntTuple:
    """The coordinate of ``idx`` in ``shape`` (C++ ``idx2crd``).

    Without ``stride``: the colexicographic split (the first mode fastest, the last mode not
    reduced), as :meth:`Layout.idx2crd`.  With ``stride`` (C++'s three-argument form): the
    coordinate of the *offset* ``idx`` of the layout ``shape:stride`` — each leaf
    ``(idx / d) % s`` (truncating, as C++; an extent-1 leaf is 0), so ``crd2idx`` of the result is
    ``idx`` for a compact layout of any mode order (C++'s ``Layout::get_hier_coord``).  An integer
    stride for a tuple shape is the start of the compact column-major strides.  A tuple ``idx``
    goes mode by mode.

    >>> idx2crd(7, (3, 5))                 # column-major: 7 = 1 + 3 * 2
    (1, 2)
    >>> idx2crd(7, (3, 5), (5, 1))         # row-major (3,5):(5,1): 7 = 5 * 1 + 2
    (1, 2)
    >>> idx2crd(11, ((2, 3), 2), ((6, 2), 1))
    ((1, 2), 1)
    """
    _check(idx, "idx2crd: idx", negative=True)
    _check(shape, "idx2crd: shape")
    if stride is None:
        return _idx2crd_tree(idx, shape, "idx2crd: index")
    _check(stride, "idx2crd: stride", negative=True)
    return _idx2crd_strided(idx, shape, stride)


def _idx2crd_strided(idx: Any, shape: Any, stride: Any) -> IntTuple:
    if isinstance(idx, tuple):
        if not isinstance(shape, tuple) or not isinstance(stride, tuple):
            raise RankError(f"idx2crd: the index {format_int_tuple(idx)} is a tuple but the shape {format_int_tuple(shape)} is not")
        _ranks(idx, shape, "idx2crd")
        _ranks(idx, stride, "idx2crd")
        return tuple(_idx2crd_strided(i, s, d) for i, s, d in zip(idx, shape, stride))
    if isinstance(shape, tuple):
        if not isinstance(stride, tuple):
            from .layout import compact_col_major

            stride = compact_col_major(shape, stride)
        _ranks(shape, stride, "idx2crd")
        return tuple(_idx2crd_strided(idx, s, d) for s, d in zip(shape, stride))
    if isinstance(stride, tuple):
        raise RankError(f"idx2crd: the shape {shape} is an integer but the stride {format_int_tuple(stride)} is a tuple")
    if shape == 1:
        return 0  # C++: skip a potential stride-0 division
    if stride == 0:
        raise SizeError(f"idx2crd: the mode {shape}:0 has stride 0, so an offset does not determine its coordinate")
    q = _divmod(idx, stride)[0]
    return _divmod(q, shape)[1]


# ------------------------------------------------------------------ slice / dice of int-tuples
def slice_tuple(coord: Any, t: Any) -> Any:
    """What ``t`` keeps of the modes ``coord`` pairs with :data:`_` (C++ ``slice(coord, t)`` on
    tuples): ``_`` keeps ``t``; an integer keeps nothing (``()``); a tuple keeps, flattened one
    level per nesting, the kept modes of each mode (C++'s ``filter_tuple``).

    >>> slice_tuple((1, _), (4, 8)), slice_tuple(((_, 1), _), ((2, 3), 4)), slice_tuple(_, (4, 8))
    ((8,), (2, 4), (4, 8))
    """
    _check(coord, "slice: coordinate", under=True, negative=True)
    return _filter(coord, t, True, True)


def dice_tuple(coord: Any, t: Any) -> Any:
    """What ``t`` keeps of the modes ``coord`` pairs with an integer (C++ ``dice``): the
    complement of :func:`slice_tuple`.

    >>> dice_tuple((1, _), (4, 8)), dice_tuple(((_, 1), _), ((2, 3), 4)), dice_tuple(2, (4, 8))
    ((4,), (3,), (4, 8))
    """
    _check(coord, "dice: coordinate", under=True, negative=True)
    return _filter(coord, t, False, True)


_filter = slice_modes


def _text(x: Any) -> str:
    if isinstance(x, tuple):
        return "(" + ",".join(_text(v) for v in x) + ")"
    return str(x)
