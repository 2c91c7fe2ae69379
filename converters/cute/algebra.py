"""The CuTe layout algebra as free functions, computed as CuTe C++ computes it.

CuTe C++ (``include/cute/layout.hpp``, ``layout_composed.hpp``, ``swizzle_layout.hpp``,
``int_tuple.hpp``) is the reference, also where pycute differs (each such difference is named in
the function's docstring and shown by a row of the C++ golden corpus, tests/oracles/cute-cpp,
printed by CuTe C++ compiled on the CPU).  Every extent and stride is taken as static, so the
conditions C++ checks at compile time (``static_assert``) are checked here and raise a
:class:`~linlayout.errors.LayoutError` subclass naming the condition:

* composition: C++'s *stride divisibility condition* (``rest_stride % shape == 0 or
  rest_stride < shape``) and *shape divisibility condition* (``rest_shape % min(next_shape,
  rest_shape) == 0``);
* complement: "Non-injective Layout detected in complement";
* left_inverse: the "left inverse divisibility condition";
* tile_to_shape: the block shape must divide the target shape.

``check=False`` gives CuTe C++'s behaviour with run-time (dynamic) integers instead: the
divisibility assertions are waived ("DEBUG assert can cause extra registers"), so a composition
may come out smaller than its inner layout and a complement may get an extent 0.  ``exact=True``
refuses the compositions C++ accepts whose answer is not ``c -> A(B(c))``, and ``strict=True``
also demands ``cosize(inner) <= size(outer)`` (verifier's options).

CuTe lets a layout run past its size along its last mode; composition follows it (an extent-1
last mode extends in stride 0, as C++'s ``coalesce_x``).  Swizzled :class:`ComposedLayout` values
go through composition, inverses, divides and products as in C++ (the swizzle stays outside), and
layouts with basis strides ``E<i>`` (identity layouts) compose and divide as C++'s ScaledBasis.

    >>> from converters.cute import Layout, composition, complement, logical_divide, coalesce
    >>> composition(Layout(8, 2), Layout(4, 1))
    Layout(4:2)
    >>> complement(Layout(4, 32), 256)
    Layout((32,2):(1,128))
    >>> logical_divide(Layout(128, 1), Layout(32, 1))
    Layout((32,4):(1,32))
    >>> coalesce(Layout((4, 2), (1, 4)))
    Layout(8:1)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Optional, Union, cast

import numpy as np

from linlayout.errors import LayoutError, NotInjectiveError, SizeError, UnsupportedError
from linlayout.limits import MAX_ITEMS

from .layout import MAX_DEPTH, E, IntTuple, Layout, ceil_div_tuple, format_int_tuple, flatten, is_int, make_layout, product
from .swizzle import ComposedLayout, Swizzle, evaluate_at

__all__ = [
    "CompositionError",
    "coalesce",
    "filter_zeros",
    "filter",
    "composition",
    "complement",
    "right_inverse",
    "left_inverse",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
    "tile_to_shape",
    "make_ordered_layout",
]

Tiler = Union[Layout, int, None, tuple]

_ONE = Layout._new(1, 0, (1,), (0,))
#: Most points checked when a swizzle is moved through a layout.
_MAX_CHECK = 1 << 16


class CompositionError(LayoutError):
    """A composition (or an operation built on it) violates one of CuTe's legality conditions."""


def _int_tuple(x: Any, what: str) -> IntTuple:
    """``x`` checked to be an int-tuple (ints >= 0, nested tuples); a LayoutError otherwise."""
    if isinstance(x, tuple):
        for v in x:
            _int_tuple(v, what)
        return x
    if not is_int(x) or x < 0:
        raise LayoutError(f"{what}: expected a shape (non-negative ints, nested tuples), got {x!r}")
    return x


def _as_layout(x: Any, what: str) -> Layout:
    if isinstance(x, Layout):
        return x
    if is_int(x):
        if x < 1:
            raise SizeError(f"{what}: an integer tiler must be >= 1, got {x}")
        return Layout._new(x, 1, (x,), (1,))
    raise LayoutError(f"{what}: expected a Layout or an int, got {type(x).__name__} {x!r}")


def _from_modes(shapes: list, strides: list) -> Layout:
    """Layout from flat mode lists: empty -> 1:0, one mode -> integral, else a flat tuple."""
    n = len(shapes)
    if n == 0:
        return _ONE
    if n == 1:
        return Layout._new(shapes[0], strides[0], (shapes[0],), (strides[0],))
    ts, td = tuple(shapes), tuple(strides)
    return Layout._new(ts, td, ts, td)


def _coalesce_flat(fs: tuple, fd: tuple) -> tuple[list, list]:
    rs: list = []
    rd: list = []
    for s, d in zip(fs, fd):
        if s == 1:
            continue
        if rs:
            ls = rs[-1]
            if ls * rd[-1] == d:
                rs[-1] = ls * s
                continue
        rs.append(s)
        rd.append(d)
    return rs, rd


def _through_composed(fn: Callable) -> Callable:
    """Let ``fn(layout, ...)`` take a :class:`ComposedLayout` as C++ ``layout_composed.hpp`` does:
    ``fn(O o off o L, ...) = O o off o fn(L, ...)`` (the swizzle and offset stay outside; a
    composed inner ``L`` recurses)."""

    @functools.wraps(fn)
    def run(layout: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(layout, ComposedLayout):
            return ComposedLayout(layout.outer, layout.offset, run(layout.inner, *args, **kwargs))
        return fn(layout, *args, **kwargs)

    return run


# --------------------------------------------------------------------------- coalesce / filter
@_through_composed
def coalesce(layout: Layout, profile: IntTuple | None = None) -> Layout:
    """Merge modes while keeping the function ``int -> int``; CuTe's first mode is the fastest.

    ``profile`` (a tuple) coalesces each of the first ``len(profile)`` modes separately and keeps
    the rest; an integer profile (or none) coalesces the whole layout to a flat one.

    >>> coalesce(Layout((4, 2), (1, 4)))
    Layout(8:1)
    >>> coalesce(Layout((2, 4), (4, 1))), coalesce(Layout((2, 4), (8, 1)))
    (Layout((2,4):(4,1)), Layout((2,4):(8,1)))
    >>> coalesce(Layout((2, (1, 6)), (1, (7, 2))))
    Layout(12:1)
    >>> coalesce(Layout(((2, 2), (2, 2)), ((1, 2), (8, 16))), (1, 1))
    Layout((4,4):(1,8))
    """
    if not isinstance(layout, Layout):
        raise LayoutError(f"coalesce expects a Layout, got {layout!r}")
    if isinstance(profile, tuple):
        return _per_mode(coalesce, layout, profile)
    rs, rd = _coalesce_flat(layout._fs, layout._fd)
    return _from_modes(rs, rd)


def _per_mode(fn: Callable[[Layout, IntTuple], Layout], layout: Layout, profile: tuple) -> Layout:
    """``fn`` applied mode by mode with the matching entry of ``profile`` (the modes past the
    profile are kept as they are)."""
    r = len(layout)
    if len(profile) > r:
        raise LayoutError(f"{fn.__name__}: profile {format_int_tuple(profile)} has more modes than the rank-{r} layout {layout}")
    parts = [fn(layout[i], profile[i]) for i in range(len(profile))]
    parts += [layout[i] for i in range(len(profile), r)]
    return make_layout(*parts)


def filter_zeros(layout: Layout) -> Layout:
    """Replace the extent of every stride-0 mode by 1 (the profile is kept).

    >>> filter_zeros(Layout((4, 3), (1, 0)))
    Layout((4,1):(1,0))
    >>> coalesce(filter_zeros(Layout((4, 3), (1, 0))))
    Layout(4:1)
    """
    if not isinstance(layout, Layout):
        raise LayoutError(f"filter_zeros expects a Layout, got {layout!r}")

    def go(s: IntTuple, d: IntTuple) -> IntTuple:
        if isinstance(s, tuple):
            return tuple(go(x, y) for x, y in zip(s, cast(tuple, d)))
        return 1 if d == 0 else s

    return Layout._new(go(layout.shape, layout.stride), layout.stride)


@_through_composed
def filter(layout: Layout, profile: IntTuple | None = None) -> Layout:  # noqa: A001 - CuTe's name
    """Drop stride-0 and size-1 modes, then coalesce: ``coalesce(filter_zeros(layout))``.

    >>> filter(Layout((4, 3, 2), (1, 0, 4)))
    Layout(8:1)
    >>> filter(Layout(3, 0))
    Layout(1:0)
    """
    if not isinstance(layout, Layout):
        raise LayoutError(f"filter expects a Layout, got {layout!r}")
    if isinstance(profile, tuple):
        return _per_mode(filter, layout, profile)
    fs, fd = layout._fs, layout._fd
    ks = [s for s, d in zip(fs, fd) if d != 0]
    kd = [d for d in fd if d != 0]
    rs, rd = _coalesce_flat(tuple(ks), tuple(kd))
    return _from_modes(rs, rd)


# --------------------------------------------------------------------------- composition
def _coalesce_x(fs: tuple, fd: tuple) -> tuple[list, list]:
    """C++ ``detail::coalesce_x``: coalesce keeping the function *outside* the domain too.

    Backward merge as C++'s ``bw_coalesce``; a last mode of extent 1 is read as extent 2 (so
    ``(4,3,1):(3,1,0)`` becomes ``(4,3,2):(3,1,0)``: "capping a layout with 1:0 extends in
    stride-0"), and an all-size-1 layout becomes ``1:0``.
    """
    n = len(fs)
    if n == 0:
        return [1], [0]
    ls = fs[n - 1]
    rs = [2 if ls == 1 else ls]
    rd = [fd[n - 1]]
    for i in range(n - 2, -1, -1):
        s = fs[i]
        if s == 1:
            continue
        d = fd[i]
        if s * d == rd[-1]:
            rs[-1] *= s
            rd[-1] = d
        else:
            rs.append(s)
            rd.append(d)
    rs.reverse()
    rd.reverse()
    return rs, rd


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _compose_leaf(
    ls: tuple, ld: tuple, s: int, d: int, path: tuple, check: bool = True, exact: bool = False
) -> tuple[IntTuple, IntTuple]:
    """Compose the coalesced flat layout ``ls:ld`` with the single mode ``s:d`` as C++'s
    ``detail::composition_impl`` does (every integer static)."""
    if d == 0:
        return s, 0
    n = len(ls)
    if n == 1:
        return s, d * ld[0]
    if s == 0:
        raise SizeError(f"composition: the inner mode {s}:{d} at {_where(path)} is empty (C++ would divide by its extent)")
    rest_s, rest_d = s, d
    shapes: list = []
    strides: list = []
    for i in range(n - 1):
        cs = ls[i]
        if cs == 0:
            raise CompositionError(
                f"composition: the outer layout has an empty (extent-0) mode {i} at {_where(path)}; nothing to compose with"
            )
        ad = rest_d if rest_d > 0 else -rest_d
        if check and rest_d > 0 and rest_d % cs != 0 and rest_d >= cs:
            raise CompositionError(
                f"composition violates the stride divisibility condition at {_where(path)}: the remaining inner "
                f"stride {rest_d} is neither a multiple of nor smaller than the outer extent {cs} (mode {i} of "
                f"the coalesced outer layout; C++: (rest_stride % shape == 0) or (rest_stride < shape)); inner mode {s}:{d}"
            )
        next_s = _ceil_div(cs, ad)
        next_d = _ceil_div(ad, cs) if rest_d > 0 else -_ceil_div(ad, cs)
        if next_s == 1 or rest_s == 1:
            rest_d = next_d
            continue
        new_s = next_s if next_s < rest_s else rest_s
        if check and rest_s % new_s != 0:
            raise CompositionError(
                f"composition violates the shape divisibility condition at {_where(path)}: the remaining inner "
                f"extent {rest_s} is not a multiple of min({next_s}, {rest_s}) (outer extent {cs}, mode {i} of the "
                f"coalesced outer layout, divided by the stride {ad}); inner mode {s}:{d}"
            )
        if exact and cs % ad != 0 and rest_s > new_s:
            raise CompositionError(
                f"composition is not exact at {_where(path)}: the inner stride {rest_d} does not divide the outer "
                f"extent {cs} (mode {i} of the coalesced outer layout) and the inner extent {rest_s} runs past it, "
                f"so CuTe C++'s answer would not be c -> A(B(c)); inner mode {s}:{d}"
            )
        shapes.append(new_s)
        strides.append(rest_d * ld[i])
        rest_s //= new_s
        rest_d = next_d
    if not shapes:
        return rest_s, rest_d * ld[n - 1]
    if rest_s != 1:
        shapes.append(rest_s)
        strides.append(rest_d * ld[n - 1])
    if len(shapes) == 1:
        return shapes[0], strides[0]
    return tuple(shapes), tuple(strides)


def _compose_tree(
    ls: tuple, ld: tuple, s: IntTuple, d: IntTuple, path: tuple, check: bool, exact: bool, fs: list, fd: list,
    A: Layout,
) -> tuple[IntTuple, IntTuple]:
    """Compose over the inner tree; the result's leaves are appended to ``fs`` / ``fd``.  A leaf
    with a basis stride ``v@i`` composes mode ``i`` of ``A`` with ``s:v`` (C++'s ScaledBasis case)."""
    if type(s) is tuple:
        rs = []
        rd = []
        i = 0
        for x, y in zip(s, cast(tuple, d)):
            a, b = _compose_tree(ls, ld, x, y, path + (i,), check, exact, fs, fd, A)
            rs.append(a)
            rd.append(b)
            i += 1
        return tuple(rs), tuple(rd)
    if type(d) is E:
        mode = A
        for i in d.path:  # C++ basis_get: the mode (of a mode ...) the basis points at
            mode = mode[i]
        mls, mld = _coalesce_x(mode._fs, mode._fd)
        a, b = _compose_leaf(tuple(mls), tuple(mld), s, d.value, path, check, exact)
    else:
        a, b = _compose_leaf(ls, ld, cast(int, s), cast(int, d), path, check, exact)
    if isinstance(a, tuple):
        fs.extend(a)
        fd.extend(cast(tuple, b))
    else:
        fs.append(a)
        fd.append(b)
    return a, b


def _where(path: tuple) -> str:
    return "inner mode" + "".join(f"[{i}]" for i in path)


def _check_strict(A: Layout, B: Layout) -> None:
    cb, sa = B.cosize(), A.size()
    if cb > sa:
        raise CompositionError(
            f"composition refused under the strict rule cosize(inner) <= size(outer): "
            f"cosize({B}) = {cb} > size({A}) = {sa}"
        )


def _make_swizzle(y: int, z: int, where: str) -> Swizzle:
    """C++ ``make_swizzle<Y, Z>()``: the swizzle whose yyy mask is ``y`` and zzz mask is ``z``."""
    by, bz = bin(y).count("1"), bin(z).count("1")
    if by != bz:
        raise CompositionError(f"{where}: the swizzle's bits land on {by} and {bz} bits (C++: 'Number of bits in Y and Z don't match')")
    if by == 0:
        return Swizzle(0, 0, 0)
    ty = (y & -y).bit_length() - 1
    tz = (z & -z).bit_length() - 1
    try:
        sw = Swizzle(by, min(ty, tz), ty - tz)
    except LayoutError as e:
        raise CompositionError(
            f"{where}: the swizzle's bits land on the masks {y:#x} and {z:#x}: {e} (C++: 'abs(SShift) must be more than BBits.')"
        ) from None
    if sw.yyy_mask != y or sw.zzz_mask != z:
        raise CompositionError(
            f"{where}: the swizzle's bits land on the masks {y:#x} and {z:#x}, which no Swizzle<B,M,S> has "
            f"(C++ make_swizzle: 'Something went wrong')"
        )
    return sw


def _compose_with_composed(A: Layout, B: Any, strict: bool, check: bool, exact: bool) -> Any:
    """``A o B`` for a swizzle or a composed inner ``B`` (C++ ``layout_composed.hpp`` and
    ``swizzle_layout.hpp``): ``A o (O o 0 o L) = (A o O) o L`` and ``A o Sw = Sw' o A`` with
    ``Sw'`` the swizzle of the bits ``A`` moves ``Sw``'s masks to (C++: "works in simple cases")."""
    if isinstance(B, Swizzle):
        where = f"composition({A}, {B})"
        sw = _make_swizzle(A(B.yyy_mask), A(B.zzz_mask), where)
        # C++ takes A o Sw == Sw' o A on trust ("works in simple cases"); check it, never answer wrongly
        n = min(max(1 << (B.bits + B.base + abs(B.shift)), A.size()), _MAX_CHECK)
        x = np.arange(n, dtype=np.int64)
        lhs, rhs = evaluate_at(A, B(x)), sw(evaluate_at(A, x))
        bad = np.flatnonzero(lhs != rhs)
        if bad.size:
            i = int(bad[0])
            raise CompositionError(
                f"{where}: C++ moves the swizzle through the layout as {sw} o {A}, but that is not A o Sw: "
                f"at {i} A(Sw({i})) = {int(lhs[i])} while Sw'(A({i})) = {int(rhs[i])}"
            )
        return A if sw.bits == 0 else ComposedLayout(sw, 0, A)  # C++ drops an identity Swizzle<0,M,S>
    if B.offset != 0:
        raise CompositionError(f"composition({A}, {B}): the composed inner layout must have offset 0 (C++: 'Require offset == 0.')")
    first = composition(A, B.outer, strict=strict, check=check, exact=exact)
    return composition(first, B.inner, strict=strict, check=check, exact=exact)


def composition(A: Any, B: Any, *, strict: bool = False, check: bool = True, exact: bool = False) -> Any:
    """``A o B``: the layout ``c -> A(B(c))`` with ``B``'s shape (CuTe ``composition(A, B)``).

    ``B`` may be a :class:`Layout`, an int ``n`` (the layout ``n:1``), ``None`` (keep ``A``) or a
    tuple of those (a tiler: composed mode by mode with ``A``'s modes); either side may be a
    :class:`ComposedLayout` (C++ ``layout_composed.hpp``: ``(S o o o L) o B = S o o o (L o B)``;
    ``A o (S o 0 o L) = (A o S) o L`` with the swizzle carried through ``A``).

    CuTe C++ (``layout.hpp``, ``composition_impl``) is the reference, also where pycute differs:
    ``A`` is coalesced keeping its function outside the domain (a last mode of extent 1 extends in
    stride 0: ``(4,3,1):(3,1,0) o 24:1 = (4,3,2):(3,1,0)``), and C++'s static conditions are
    checked: ``rest_stride % shape == 0 or rest_stride < shape`` (stride divisibility) and
    ``rest_shape % min(next_shape, rest_shape) == 0`` (shape divisibility).  Negative inner
    strides follow C++.  ``check=False`` waives both as C++ does for run-time integers;
    ``exact=True`` also refuses the few cases C++ accepts whose answer is not ``A(B(c))`` (an inner
    stride smaller than, but not dividing, an outer extent that the inner extent runs past);
    ``strict=True`` demands ``cosize(B) <= size(A)``.

    >>> composition(Layout(8, 2), Layout(4, 1))
    Layout(4:2)
    >>> composition(Layout((4, 2), (1, 4)), Layout((2, 2), (1, 2)))
    Layout((2,2):(1,2))
    >>> composition(Layout((4, 6, 8, 10), (2, 3, 5, 7)), Layout(6, 12))
    Layout((2,3):(9,5))
    >>> composition(Layout((4, 3, 1), (3, 1, 0)), Layout(24, 1))
    Layout((4,3,2):(3,1,0))
    >>> composition(Layout(4, 1), Layout(8, 2))        # CuTe extends past the size
    Layout(8:2)
    >>> composition(Layout(4, 1), Layout(8, 2), strict=True)
    Traceback (most recent call last):
    ...
    converters.cute.algebra.CompositionError: composition refused under the strict rule cosize(inner) <= size(outer): cosize(8:2) = 15 > size(4:1) = 4
    """
    if not isinstance(A, Layout):
        if isinstance(A, Swizzle) and isinstance(B, Layout):
            return B if A.bits == 0 else ComposedLayout(A, 0, B)
        if isinstance(A, ComposedLayout):
            return ComposedLayout(A.outer, A.offset, composition(A.inner, B, strict=strict, check=check, exact=exact))
        raise LayoutError(f"composition: the outer operand must be a Layout or a ComposedLayout, got {A!r}")
    if B is None:
        return A
    if isinstance(B, tuple):
        _check_tiler_depth(B, "composition")
        r = len(A)
        if len(B) > r:
            raise LayoutError(f"composition: tiler {B!r} has more modes than the rank-{r} layout {A}")
        parts = [composition(A[i], B[i], strict=strict, check=check, exact=exact) for i in range(len(B))]
        parts += [A[i] for i in range(len(B), r)]
        return make_layout(*parts)
    if isinstance(B, (ComposedLayout, Swizzle)):
        return _compose_with_composed(A, B, strict, check, exact)
    B = _as_layout(B, "composition")
    if strict:
        _check_strict(A, B)
    ls, ld = _coalesce_x(A._fs, A._fd)
    fs: list = []
    fd: list = []
    s, d = _compose_tree(tuple(ls), tuple(ld), B.shape, B.stride, (), check, exact, fs, fd, A)
    return Layout._new(s, d, tuple(fs), tuple(fd))


# --------------------------------------------------------------------------- complement
def complement(layout: Layout, cotarget: Optional[IntTuple] = None, *, check: bool = True) -> Layout:
    """The layout of the offsets ``layout`` leaves out, up to ``cotarget`` (CuTe ``complement``).

    ``cotarget`` (an int or a shape, default ``cosize(filter(layout))``) is the codomain size to
    cover; a shape is divided mode by mode as C++'s ``ceil_div`` does (so it may cover more than
    its size; pycute only takes ints).  A :class:`ComposedLayout` gives the complement of its
    inner layout (C++).  The modes (non-zero strides, non-negative) must not interleave: each mode must start
    at or past the span of the smaller-stride ones (CuTe's "Non-injective Layout detected in
    complement"); ``check=False`` waives it as C++ does at run time (an extent 0 results).

    >>> complement(Layout(4, 32), 256)
    Layout((32,2):(1,128))
    >>> complement(Layout((2, 2), (1, 6)), 24)
    Layout((3,2):(2,12))
    >>> complement(Layout(4, 1), 24)
    Layout(6:4)
    """
    while isinstance(layout, ComposedLayout):  # C++: the complement of the inner layout
        layout = layout.inner
    if not isinstance(layout, Layout):
        raise LayoutError(f"complement expects a Layout or a ComposedLayout, got {layout!r}")
    layout._need_offsets("complement")
    fs, fd = layout._fs, layout._fd
    modes = []
    if 0 in fs:
        raise SizeError(f"complement: {layout} has an extent-0 mode (an empty layout has no complement)")
    for s, d in zip(fs, fd):
        if d != 0 and s != 1:
            if d < 0:
                raise UnsupportedError(f"complement: negative stride {d} in {layout} is not supported")
            modes.append((d, s))
    if cotarget is None:
        cot = 1 + sum((s - 1) * d for d, s in modes)
    else:
        cot = product(_int_tuple(cotarget, "complement"))
        if not is_int(cot) or cot < 0:
            raise LayoutError(f"complement: cotarget must be a non-negative int or shape, got {cotarget!r}")
    if not modes:
        c = cot if cot >= 1 else 1
        return Layout._new(c, 1 if c != 1 else 0, (c,), (1 if c != 1 else 0,))
    modes.sort()
    rs: list = []
    rd: list = []
    cur = 1
    for d, s in modes:
        n = d // cur
        if cur > d * s:
            raise NotInjectiveError(
                f"complement: {layout} is not injective: the mode {s}:{d} lies inside the span {cur} of "
                f"the smaller-stride modes (CuTe: 'Non-injective Layout detected in complement')"
            )
        if n == 0 and check:
            raise NotInjectiveError(
                f"complement: the modes of {layout} interleave: the mode {s}:{d} starts at {d}, inside the "
                f"span {cur} of the smaller-stride modes (CuTe: 'Non-injective Layout detected in complement')"
            )
        _push_mode(rs, rd, n, cur)
        cur = d * s
    rest = (_ceil_div_size(cotarget, cur) if isinstance(cotarget, tuple) else -(-cot // cur)) if cur else 1
    _push_mode(rs, rd, rest, cur)
    return _from_modes(rs, rd)


def _push_mode(rs: list, rd: list, n: Any, stride: Any) -> None:
    """Append the mode ``n:stride`` to the modes ``rs:rd`` (none when ``n`` is 1), merged into the
    last mode when it continues it (``rs[-1] * rd[-1] == stride``)."""
    if n == 1:
        return
    if rs and rs[-1] * rd[-1] == stride:
        rs[-1] *= n
    else:
        rs.append(n)
        rd.append(stride)


def _ceil_div_size(shape: IntTuple, d: int) -> int:
    """``size(ceil_div(shape, d))`` as C++ ``int_tuple.hpp`` folds it over a tuple: each mode is
    divided by what is left of ``d`` (rounding up), so ``ceil_div((4,7,6), 16)`` is ``(1,2,6)``
    (size 12, not ``ceil(168 / 16) = 11``)."""
    if isinstance(shape, tuple) and 0 in flatten(shape):
        raise SizeError(f"complement: the cotarget shape {format_int_tuple(shape)} has an extent-0 mode")
    return product(ceil_div_tuple(shape, d))


# --------------------------------------------------------------------------- inverses
def _sorted_modes(layout: Layout) -> tuple[list, list, list, list]:
    """Coalesced modes, their exclusive prefix products, and the mode order by stride (ties keep
    the mode order, as C++'s ``SortByKey``)."""
    cs, cd = _coalesce_flat(layout._fs, layout._fd)
    if not cs:
        cs, cd = [1], [0]
    pre = []
    p = 1
    for x in cs:
        pre.append(p)
        p *= x
    order = sorted(range(len(cs)), key=lambda i: cd[i])
    return cs, cd, pre, order


def _composed_inverse(layout: ComposedLayout, inv: Callable[[Any], Any], name: str) -> Any:
    """C++ ``swizzle_layout.hpp``: ``inv(Sw o 0 o L) = inv(L) o Sw`` (the swizzle is its own
    inverse); ``layout_composed.hpp`` for a layout or composed outer part: ``inv(A o off o B) =
    inv(B) o -off o inv(A)``, a composed layout (nested where ``A`` or ``B`` is composed)."""
    if isinstance(layout.outer, Swizzle):
        if layout.offset != 0:
            raise UnsupportedError(
                f"{name}({layout}): C++ builds inv(L) o -offset o Sw, a composed layout whose inner part is a bare "
                f"swizzle (no domain of its own), which has no value here; only a swizzle with offset 0 inverts"
            )
        return composition(inv(layout.inner), layout.outer)
    return ComposedLayout(inv(layout.inner), -layout.offset, inv(layout.outer))


def _inverse_of_other(layout: Any, inverse: Any, who: str) -> Any:
    """What both inverses do with anything but a plain Layout: ``None`` stays, an integer (a
    stride) negates, a swizzle is its own inverse, a composed layout inverts part by part."""
    if layout is None:
        return None
    if is_int(layout):
        return -layout
    if isinstance(layout, Swizzle):
        return layout
    if isinstance(layout, ComposedLayout):
        return _composed_inverse(layout, inverse, who)
    raise LayoutError(f"{who} expects a Layout, got {layout!r}")


def right_inverse(layout: Any) -> Any:
    """A layout ``R`` with ``layout(R(i)) == i`` for ``i < size(R)``, as CuTe C++ builds it.

    CuTe C++ (``layout.hpp``) is the reference: coalesce, then follow the strides up from 1 in
    stride order (a stride equal to the running product extends ``R``); negative strides never
    match, so ``right_inverse((2,3):(-1,1048576))`` is ``1:0`` (the trivial right inverse).
    pycute sorts the uncoalesced modes instead and can stop earlier (``((2,8),4):((1,2),2)``:
    C++ ``16:1``, pycute ``(2,4):(1,16)``).  A swizzled ``Sw o 0 o L`` gives
    ``right_inverse(L) o Sw`` (the swizzle moved through ``right_inverse(L)``, refused where that
    is not exact).

    >>> right_inverse(Layout((4, 8), (8, 1)))
    Layout((8,4):(4,1))
    >>> right_inverse(Layout((2, 4), (0, 1)))
    Layout(4:2)
    >>> right_inverse(Layout(4, 2))
    Layout(1:0)
    """
    if not isinstance(layout, Layout):
        return _inverse_of_other(layout, right_inverse, "right_inverse")
    layout._need_offsets("right_inverse")
    cs, cd, pre, order = _sorted_modes(layout)
    rs: list = []
    rd: list = []
    cur = 1
    for i in order:
        if cd[i] == cur:
            rs.append(cs[i])
            rd.append(pre[i])
            cur = cs[i] * cd[i]
    rs, rd = _coalesce_flat(tuple(rs), tuple(rd))
    return _from_modes(rs, rd)


def left_inverse(layout: Any) -> Any:
    """A layout ``R`` with ``R(layout(i)) == i`` for every ``i < size(layout)`` (injective input).

    CuTe C++ (``layout.hpp``) is the reference (pycute's ``right_inverse(make_layout(L,
    complement(L)))`` is not a left inverse, e.g. for ``(4,2):(1,5)``): coalesce, sort the modes by
    stride, and give each gap between consecutive strides a mode that reads the digit of the
    smaller one.  C++'s "left inverse divisibility condition" (each non-zero stride divides by the
    product of the previous quotients) is checked and raises a LayoutError naming it; negative
    strides are refused (C++ has no answer for them).  For a non-injective layout the result is
    C++'s quasi-inverse (``layout(R(layout(i))) == layout(i)`` where C++ promises it).

    >>> left_inverse(Layout((4, 8), (8, 1)))
    Layout((8,4):(4,1))
    >>> left_inverse(Layout((4, 2), (1, 5)))
    Layout((5,2):(1,4))
    >>> left_inverse(Layout(4, 2))
    Layout((2,4):(0,1))
    """
    if not isinstance(layout, Layout):
        return _inverse_of_other(layout, left_inverse, "left_inverse")
    layout._need_offsets("left_inverse")
    cs, cd, pre, order = _sorted_modes(layout)
    if cd[order[0]] < 0:
        raise UnsupportedError(f"left_inverse: negative stride {cd[order[0]]} in {layout} is not supported (nor in CuTe C++)")
    rs: list = []
    rd: list = [0]
    size = 1
    for i in order:
        d = cd[i]
        if d == 0:
            continue
        if d % size != 0:
            raise UnsupportedError(
                f"left_inverse: {layout} violates the left inverse divisibility condition: the stride {d} is not "
                f"a multiple of the next smaller non-zero stride {size}, so no CuTe layout reads its digits back "
                f"(CuTe C++ refuses too: 'Left inverse divisibility condition')"
            )
        rs.append(d // size)
        rd.append(pre[i])
        size *= d // size
    rs.append(cs[order[-1]])
    rs, rd = _coalesce_flat(tuple(rs), tuple(rd))
    return _from_modes(rs, rd)


# --------------------------------------------------------------------------- divides
def _check_tiler_depth(B: Any, who: str) -> None:
    """A :class:`LayoutError` when the tuple tiler ``B`` is nested deeper than :data:`MAX_DEPTH`
    (the mode-by-mode recursion would otherwise reach Python's recursion limit)."""
    level, depth = [B], 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            raise LayoutError(f"{who}: the tiler is nested deeper than {MAX_DEPTH} levels")
        level = [x for t in level if isinstance(t, tuple) for x in t]
        if len(level) > MAX_ITEMS:
            raise LayoutError(f"{who}: the tiler has more than {MAX_ITEMS} modes")


def _by_mode(op: Any, A: Layout, B: Any, check: bool) -> Layout:
    """Apply ``op`` mode by mode for a tuple tiler ``B`` (``None`` leaves ``A`` as it is); modes of
    ``A`` beyond the tiler are kept."""
    if not isinstance(A, Layout):
        raise LayoutError(f"{op.__name__}: expected a Layout or a ComposedLayout, got {A!r}")
    if B is None:
        return A
    _check_tiler_depth(B, op.__name__)
    r = len(A)
    if len(B) > r:
        raise LayoutError(f"{op.__name__}: tiler {B!r} has more modes than the rank-{r} layout {A}")
    parts = [op(A[i], B[i], check=check) for i in range(len(B))]
    parts += [A[i] for i in range(len(B), r)]
    return make_layout(*parts)


@_through_composed
def logical_divide(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """Split ``A`` into tiles ``B`` and the rest: ``A o (B, complement(B, size(A)))``.

    A tuple tiler divides mode by mode; a :class:`ComposedLayout` keeps its swizzle outside.  The
    rest mode is ``complement(B, shape(coalesce(A)))`` as in CuTe C++ (the reference); pycute
    passes ``size(A)``, which differs when the tile does not divide a mode evenly (C++ rounds up
    mode by mode: dividing ``(4,7,6):(7,1,28)`` by ``(16):(1)`` leaves 12, pycute 11).

    >>> logical_divide(Layout(128, 1), Layout(32, 1))
    Layout((32,4):(1,32))
    >>> logical_divide(Layout((4, 2, 3), (2, 1, 8)), Layout(4, 2))
    Layout(((2,2),(2,3)):((4,1),(2,8)))
    >>> logical_divide(Layout((8, 8), (8, 1)), (2, 4))
    Layout(((2,4),(4,2)):((8,16),(1,4)))
    """
    if not isinstance(A, Layout):
        raise LayoutError(f"logical_divide: expected a Layout to divide, got {A!r}")
    if B is None or isinstance(B, tuple):
        return _by_mode(logical_divide, A, B, check)
    B = _as_layout(B, "logical_divide")
    R = complement(B, coalesce(A).shape, check=check)
    M = Layout._new((B.shape, R.shape), (B.stride, R.stride), B._fs + R._fs, B._fd + R._fd)
    return composition(A, M, check=check)


def _hier_unzip(split: Any, A: Layout, B: Tiler, check: bool) -> Layout:
    if not isinstance(A, Layout):
        raise LayoutError(f"{split.__name__}: expected a Layout or a ComposedLayout, got {A!r}")
    if B is None:
        return make_layout(_ONE, A)
    if isinstance(B, tuple):
        _check_tiler_depth(B, split.__name__)
        r = len(A)
        if len(B) > r:
            raise LayoutError(f"tiler {B!r} has more modes than the rank-{r} layout {A}")
        parts = [_hier_unzip(split, A[i], B[i], check) for i in range(len(B))]
        first = make_layout(*[p[0] for p in parts])
        second = make_layout(*([p[1] for p in parts] + [A[i] for i in range(len(B), r)]))
        return make_layout(first, second)
    return split(A, B, check=check)


def _unpack(L: Layout) -> list:
    """The modes C++'s ``result(_, repeat<R>(_))`` spreads: the top-level modes of ``L``, or ``L``
    itself when its rank is 1 (``repeat<1>(_)`` is ``_``, so a 1-tuple mode such as ``(7)`` stays)."""
    return list(L.modes()) if len(L) > 1 else [L]


@_through_composed
def zipped_divide(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """``logical_divide`` with the tile modes gathered first: ``((tile...), (rest...))``.

    >>> zipped_divide(Layout((8, 8), (8, 1)), (2, 4))
    Layout(((2,4),(4,2)):((8,1),(16,4)))
    """
    return _hier_unzip(logical_divide, A, B, check)


@_through_composed
def tiled_divide(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """``zipped_divide`` with the rest modes unpacked: ``((tile...), rest0, rest1, ...)``.

    >>> tiled_divide(Layout((8, 8), (8, 1)), (2, 4))
    Layout(((2,4),4,2):((8,1),16,4))
    """
    r = zipped_divide(A, B, check=check)
    return make_layout(r[0], *_unpack(r[1]))


@_through_composed
def flat_divide(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """``zipped_divide`` with both modes unpacked: ``(tile0, tile1, ..., rest0, rest1, ...)``.

    >>> flat_divide(Layout((8, 8), (8, 1)), (2, 4))
    Layout((2,4,4,2):(8,1,16,4))
    """
    r = zipped_divide(A, B, check=check)
    return make_layout(*_unpack(r[0]), *_unpack(r[1]))


# --------------------------------------------------------------------------- products
@_through_composed
def logical_product(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """Repeat ``A`` over ``B``: ``(A, complement(A, size(A) * cosize(B)) o B)``.

    An int ``B`` means the layout ``B:1`` (pycute divides there instead: a known pycute bug).

    >>> logical_product(Layout((2, 2), (4, 1)), Layout(6, 1))
    Layout(((2,2),(2,3)):((4,1),(2,8)))
    >>> logical_product(Layout(4, 1), 3)
    Layout((4,3):(1,4))
    """
    if not isinstance(A, Layout):
        raise LayoutError(f"logical_product: expected a Layout as the block, got {A!r}")
    if B is None or isinstance(B, tuple):
        return _by_mode(logical_product, A, B, check)
    if isinstance(B, ComposedLayout):
        return _product_with_swizzled(A, B, check)
    B = _as_layout(B, "logical_product")
    return make_layout(A, composition(complement(A, A.size() * B.cosize(), check=check), B, check=check))


def _product_with_swizzled(A: Layout, T: ComposedLayout, check: bool) -> ComposedLayout:
    """``logical_product(A, Sw o 0 o L)`` as C++ ``swizzle_layout.hpp``: the product with ``L``,
    under a new swizzle found by projecting ``L`` onto the swizzle's bit fields and carrying the
    active bits through the product.  C++ takes the result on trust; here it is checked to be
    ``(a, b) -> A(a) + C(Sw(L(b)))`` (``C`` the complement of ``A``), and refused otherwise."""
    sw = T.outer
    where = f"logical_product({A}, {T})"
    if not isinstance(sw, Swizzle) or T.offset != 0:
        raise UnsupportedError(f"{where}: only a swizzle with offset 0 is supported (C++: 'Require Swizzle offset == 0.')")
    L = T.inner
    new = logical_product(A, L, check=check)
    B, M, S = sw.bits, sw.base, abs(sw.shift)
    proj = Layout._new((1 << M, 1 << B, 1 << (S - B), 1 << B, 1), (0, 1 << M, 0, 1 << (M + S), 0))
    only_zy = composition(proj, L, check=check)
    active = only_zy(only_zy.size() - 1)
    act_z, act_y = active & sw.zzz_mask, active & sw.yyy_mask
    new_sw = _make_swizzle(new((0, L(act_y))), new((0, L(act_z))), where)
    C = complement(A, A.size() * L.cosize(), check=check)
    a = A.table().astype(np.int64)  # tables come in their smallest dtype; the arithmetic needs room
    c_of = evaluate_at(C, sw(L.table().astype(np.int64)))
    want = (a[:, None] + c_of[None, :]).ravel(order="F")
    got = new_sw(new.table().astype(np.int64))
    bad = np.flatnonzero(got != want)
    if bad.size:
        i = int(bad[0])
        raise CompositionError(
            f"{where}: C++'s answer {new_sw} o 0 o {new} is not the product at {i}: {int(got[i])} != {int(want[i])}"
        )
    return new if new_sw.bits == 0 else ComposedLayout(new_sw, 0, new)


@_through_composed
def zipped_product(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """``logical_product`` with the block modes gathered first: ``((block...), (product...))``.

    >>> zipped_product(Layout((2, 2)), (2, 4))
    Layout(((2,2),(2,(2,2))):((1,2),(2,(1,4))))
    """
    return _hier_unzip(logical_product, A, B, check)


@_through_composed
def tiled_product(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """``zipped_product`` with the product modes unpacked.

    >>> tiled_product(Layout((2, 2)), (2, 4))
    Layout(((2,2),2,(2,2)):((1,2),2,(1,4)))
    """
    r = zipped_product(A, B, check=check)
    return make_layout(r[0], *_unpack(r[1]))


@_through_composed
def flat_product(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """``zipped_product`` with both modes unpacked."""
    r = zipped_product(A, B, check=check)
    return make_layout(*_unpack(r[0]), *_unpack(r[1]))


def _append_to_rank(L: Layout, r: int) -> Layout:
    k = len(L)
    if k >= r:
        return L
    modes = list(L.modes()) if isinstance(L.shape, tuple) else [L]
    return make_layout(*(modes + [_ONE] * (r - k)))


def _zip2(first: Layout, second: Layout) -> Layout:
    return make_layout(*[make_layout(first[i], second[i]) for i in range(len(first))])


def _rank_product(block: Layout, tiler: Layout, raked: bool) -> Layout:
    block = _as_layout(block, "product")
    tiler = _as_layout(tiler, "product")
    r = max(len(block), len(tiler))
    a = _append_to_rank(block, r)
    b = _append_to_rank(tiler, r)
    res = make_layout(a, composition(complement(a, a.size() * b.cosize()), b))
    # current CuTe C++ zips the two modes and stops (older CuTe and pycute coalesced each mode)
    return _zip2(res[1], res[0]) if raked else _zip2(res[0], res[1])


@_through_composed
def blocked_product(block: Layout, tiler: Layout) -> Layout:
    """Each element of ``tiler`` becomes a copy of ``block``; rank ``max(rank(block), rank(tiler))``.

    ``zip(logical_product(block, tiler))`` with both padded to the same rank, as CuTe C++ (which no
    longer coalesces the modes, unlike pycute); a :class:`ComposedLayout` keeps its swizzle outside.

    >>> blocked_product(Layout((2, 2), (1, 2)), Layout((2, 3), (1, 2)))
    Layout(((2,2),(2,3)):((1,4),(2,8)))
    """
    return _rank_product(block, tiler, raked=False)


@_through_composed
def raked_product(block: Layout, tiler: Layout) -> Layout:
    """Like :func:`blocked_product` with the copies interleaved (tiler modes fastest).

    >>> raked_product(Layout((2, 2), (1, 2)), Layout((2, 3), (1, 2)))
    Layout(((2,2),(3,2)):((4,1),(8,2)))
    """
    return _rank_product(block, tiler, raked=True)


def make_ordered_layout(shape: IntTuple, order: Optional[IntTuple] = None) -> Layout:
    """Compact layout of ``shape`` whose modes get strides in increasing ``order`` (ties: left first).

    As C++'s ``compact_order`` on static extents, an extent-1 mode gets the stride 0 (C++ prints
    ``make_ordered_layout(Shape<_2,_1,_4>{}, Step<_1,_0,_2>{})`` as ``(_2,_1,_4):(_1,_0,_2)``).

    >>> make_ordered_layout((2, 3, 4), (1, 0, 2))
    Layout((2,3,4):(3,1,6))
    >>> make_ordered_layout((2, 1, 4), (1, 0, 2))
    Layout((2,1,4):(1,0,2))
    """
    if order is None:
        return Layout(shape)
    fs = flatten(Layout(shape).shape)  # checked: an int tuple
    fo = flatten(order)
    if not all(is_int(o) for o in fo):
        raise LayoutError(f"make_ordered_layout: order must be an int tuple, got {type(order).__name__}")
    if len(fs) != len(fo):
        raise LayoutError(f"make_ordered_layout: order {format_int_tuple(order)} is not congruent with shape {format_int_tuple(shape)}")
    idx = sorted(range(len(fs)), key=lambda i: (fo[i], i))
    st = [0] * len(fs)
    p = 1
    for i in idx:
        st[i] = p if fs[i] != 1 else 0
        p *= fs[i]
    from .layout import unflatten

    return Layout(shape, unflatten(st, shape))


@_through_composed
def tile_to_shape(block: Layout, trg_shape: IntTuple, order: Optional[IntTuple] = None) -> Layout:
    """Repeat ``block`` (blocked product) until it has the target shape; ``order`` picks which
    target modes the repetitions run along first (default: first mode first).

    >>> tile_to_shape(Layout((2, 2), (1, 2)), (4, 6))
    Layout(((2,2),(2,3)):((1,4),(2,8)))
    >>> tile_to_shape(Layout((2, 2), (1, 2)), (4, 6), (1, 0))
    Layout(((2,2),(2,3)):((1,12),(2,4)))

    As current CuTe C++, the result is ``blocked_product(block, make_ordered_layout(...))`` as it
    stands (older CuTe and pycute coalesced each mode: ``((2,2),6):((1,12),2)`` above).
    """
    block = _as_layout(block, "tile_to_shape")
    _int_tuple(trg_shape, "tile_to_shape")
    tshape = trg_shape if isinstance(trg_shape, tuple) else (trg_shape,)
    r = len(tshape)
    if len(block) > r:
        raise LayoutError(f"tile_to_shape: rank of {block} is larger than the rank {r} of the target {format_int_tuple(trg_shape)}")
    padded = _append_to_rank(block, r)
    bshape = [product(padded[i].shape) for i in range(r)]
    tgt = [product(x) for x in tshape]
    for i in range(r):
        if bshape[i] == 0 or tgt[i] == 0:
            raise SizeError(f"tile_to_shape: mode {i} is empty (block extent {bshape[i]}, target extent {tgt[i]})")
        if tgt[i] % bshape[i] != 0:
            raise LayoutError(
                f"tile_to_shape: block shape does not divide the target shape in mode {i}: "
                f"{bshape[i]} does not divide {tgt[i]}"
            )
    pshape = tuple(t // b for t, b in zip(tgt, bshape))
    ordered = make_ordered_layout(pshape, order if order is None or isinstance(order, tuple) else (order,))
    return blocked_product(padded, ordered)
