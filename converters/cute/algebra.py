"""The CuTe layout algebra as free functions, with CuTe C++'s legality conditions checked.

Semantics follow CuTe C++ (``include/cute/layout.hpp``) with every extent and stride static, so
the conditions C++ checks at compile time (``static_assert``) are checked here and raise a
:class:`~linlayout.errors.LayoutError` subclass naming the condition:

* composition: the *stride divisibility condition* (each extent of the coalesced outer layout, but
  the last, divides or is divided by the remaining inner stride) and the *shape divisibility
  condition* (likewise for the remaining inner extent);
* complement: the layout must be injective on its non-zero-stride modes (no mode starts inside
  the span of a smaller one);
* tile_to_shape: the block shape must divide the target shape.

``check=False`` gives CuTe C++'s behaviour with run-time (dynamic) integers instead, which is
what pycute computes: the shape divisibility condition and complement's injectivity check are
waived (C++: "Waive dynamic assertion"), so a composition may come out smaller than its inner
layout and a complement may get an extent 0.  The stride divisibility condition is always checked
(pycute asserts it too).

CuTe lets a layout run past its size along its last mode; composition follows it.  The stricter
rule ``cosize(inner) <= size(outer)`` is available with ``strict=True`` (a verifier's option).

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

from collections.abc import Callable
from typing import Any, Optional, Union

from linlayout.errors import LayoutError, NotInjectiveError, SizeError, UnsupportedError

from .layout import IntTuple, Layout, _fmt, flatten, is_int, make_layout, product

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


class CompositionError(LayoutError):
    """A composition (or an operation built on it) violates one of CuTe's legality conditions."""


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


# --------------------------------------------------------------------------- coalesce / filter
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
        raise LayoutError(f"{fn.__name__}: profile {_fmt(profile)} has more modes than the rank-{r} layout {layout}")
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
            return tuple(go(x, y) for x, y in zip(s, d))
        return 1 if d == 0 else s

    return Layout._new(go(layout.shape, layout.stride), layout.stride)


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
def _compose_leaf(ls: tuple, ld: tuple, s: int, d: int, path: tuple, check: bool = True) -> tuple[IntTuple, IntTuple]:
    """Compose the coalesced flat layout ``ls:ld`` with the single mode ``s:d``."""
    if d == 0:
        return s, 0
    n = len(ls)
    if n == 1:
        return s, d * ld[0]
    if d < 0:
        raise UnsupportedError(f"composition: negative inner stride {d} at {_where(path)} is not supported")
    # divide out the inner stride from the outer extents (stride divisibility condition)
    rest_d = d
    rest_s = s
    shapes: list = []
    strides: list = []
    for i in range(n - 1):
        si = ls[i]
        if si == 0:
            raise CompositionError(
                f"composition: the outer layout has an empty (extent-0) mode {i} at {_where(path)}; nothing to compose with"
            )
        if rest_d == 1:
            ni = si
            stride_i = ld[i]
        elif si % rest_d == 0:
            ni = si // rest_d
            stride_i = ld[i] * rest_d
            rest_d = 1
        elif rest_d % si == 0:
            ni = 1
            rest_d //= si
            stride_i = ld[i] * si
        else:
            raise CompositionError(
                f"composition violates the stride divisibility condition at {_where(path)}: outer extent {si} "
                f"(mode {i} of the coalesced outer layout) and the remaining inner stride {rest_d} do not "
                f"divide one another (inner mode {s}:{d})"
            )
        # mod out the inner extent (shape divisibility condition)
        if ni == 1 or rest_s == 1:
            m = 1
        elif rest_s % ni == 0:
            m = ni
            rest_s //= ni
        elif ni % rest_s == 0:
            m = rest_s
            rest_s = 1
        elif not check:
            m = min(ni, rest_s)
            rest_s = rest_s // ni or 1
        else:
            raise CompositionError(
                f"composition violates the shape divisibility condition at {_where(path)}: the remaining inner "
                f"extent {rest_s} and the outer extent {ni} (mode {i} of the coalesced outer layout, after "
                f"dividing out the stride) do not divide one another (inner mode {s}:{d})"
            )
        shapes.append(m)
        strides.append(stride_i)
    # backward coalesce, ending with (rest_s, rest_d * last stride)
    acc_s = [rest_s]
    acc_d = [rest_d * ld[n - 1]]
    for i in range(n - 2, -1, -1):
        si = shapes[i]
        if si == 1:
            continue
        di = strides[i]
        if len(acc_s) == 1 and acc_s[0] == 1:
            acc_s[0] = si
            acc_d[0] = di
        elif si * di == acc_d[0]:
            acc_s[0] *= si
            acc_d[0] = di
        else:
            acc_s.insert(0, si)
            acc_d.insert(0, di)
    if len(acc_s) == 1:
        if acc_s[0] == 1:
            return 1, 0
        return acc_s[0], acc_d[0]
    return tuple(acc_s), tuple(acc_d)


def _compose_tree(
    ls: tuple, ld: tuple, s: IntTuple, d: IntTuple, path: tuple, check: bool, fs: list, fd: list
) -> tuple[IntTuple, IntTuple]:
    """Compose over the inner tree; the result's leaves are appended to ``fs`` / ``fd``."""
    if type(s) is tuple:
        rs = []
        rd = []
        i = 0
        for x, y in zip(s, d):
            a, b = _compose_tree(ls, ld, x, y, path + (i,), check, fs, fd)
            rs.append(a)
            rd.append(b)
            i += 1
        return tuple(rs), tuple(rd)
    a, b = _compose_leaf(ls, ld, s, d, path, check)
    if type(a) is tuple:
        fs.extend(a)
        fd.extend(b)
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


def composition(A: Layout, B: Tiler, *, strict: bool = False, check: bool = True) -> Layout:
    """``A o B``: the layout ``c -> A(B(c))`` with ``B``'s shape (CuTe ``composition(A, B)``).

    ``B`` may be a :class:`Layout`, an int ``n`` (the layout ``n:1``), ``None`` (keep ``A``) or a
    tuple of those (a tiler: composed mode by mode with ``A``'s modes).  CuTe's divisibility
    conditions are checked (see the module docstring; ``check=False`` waives the shape
    divisibility condition as C++ does for run-time integers); ``strict=True`` also demands
    ``cosize(B) <= size(A)`` (the inner image fits the outer domain).

    >>> composition(Layout(8, 2), Layout(4, 1))
    Layout(4:2)
    >>> composition(Layout((4, 2), (1, 4)), Layout((2, 2), (1, 2)))
    Layout((2,2):(1,2))
    >>> composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))
    Layout(((2,2),3):((24,2),8))
    >>> composition(Layout(4, 1), Layout(8, 2))        # CuTe extends past the size
    Layout(8:2)
    >>> composition(Layout(4, 1), Layout(8, 2), strict=True)
    Traceback (most recent call last):
    ...
    converters.cute.algebra.CompositionError: composition refused under the strict rule cosize(inner) <= size(outer): cosize(8:2) = 15 > size(4:1) = 4
    """
    if not isinstance(A, Layout):
        raise LayoutError(f"composition: the outer operand must be a Layout, got {A!r}")
    if B is None:
        return A
    if isinstance(B, tuple):
        r = len(A)
        if len(B) > r:
            raise LayoutError(f"composition: tiler {B!r} has more modes than the rank-{r} layout {A}")
        parts = [composition(A[i], B[i], strict=strict, check=check) for i in range(len(B))]
        parts += [A[i] for i in range(len(B), r)]
        return make_layout(*parts)
    B = _as_layout(B, "composition")
    if strict:
        _check_strict(A, B)
    ls, ld = _coalesce_flat(A._fs, A._fd)
    if not ls:
        ls, ld = [1], [0]
    fs: list = []
    fd: list = []
    s, d = _compose_tree(tuple(ls), tuple(ld), B.shape, B.stride, (), check, fs, fd)
    return Layout._new(s, d, tuple(fs), tuple(fd))


# --------------------------------------------------------------------------- complement
def complement(layout: Layout, cotarget: Optional[IntTuple] = None, *, check: bool = True) -> Layout:
    """The layout of the offsets ``layout`` leaves out, up to ``cotarget`` (CuTe ``complement``).

    ``cotarget`` (an int or a shape, default ``cosize(filter(layout))``) is the codomain size to
    cover.  The modes (non-zero strides, non-negative) must not interleave: each mode must start
    at or past the span of the smaller-stride ones (CuTe's "Non-injective Layout detected in
    complement"); ``check=False`` waives it as C++ does at run time (an extent 0 results).

    >>> complement(Layout(4, 32), 256)
    Layout((32,2):(1,128))
    >>> complement(Layout((2, 2), (1, 6)), 24)
    Layout((3,2):(2,12))
    >>> complement(Layout(4, 1), 24)
    Layout(6:4)
    """
    if not isinstance(layout, Layout):
        raise LayoutError(f"complement expects a Layout, got {layout!r}")
    fs, fd = layout._fs, layout._fd
    modes = []
    for s, d in zip(fs, fd):
        if d != 0 and s != 1:
            if d < 0:
                raise UnsupportedError(f"complement: negative stride {d} in {layout} is not supported")
            modes.append((d, s))
    if cotarget is None:
        cot = 1 + sum((s - 1) * d for d, s in modes)
    else:
        cot = product(cotarget) if isinstance(cotarget, tuple) else cotarget
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
                f"the smaller-stride modes (pycute asserts this even where C++ does not check)"
            )
        if n == 0 and check:
            raise NotInjectiveError(
                f"complement: the modes of {layout} interleave: the mode {s}:{d} starts at {d}, inside the "
                f"span {cur} of the smaller-stride modes (CuTe: 'Non-injective Layout detected in complement')"
            )
        if n != 1:
            if rs and rs[-1] * rd[-1] == cur:
                rs[-1] *= n
            else:
                rs.append(n)
                rd.append(cur)
        cur = d * s
    rest = -(-cot // cur) if cur else 1
    if rest != 1:
        if rs and rs[-1] * rd[-1] == cur:
            rs[-1] *= rest
        else:
            rs.append(rest)
            rd.append(cur)
    return _from_modes(rs, rd)


# --------------------------------------------------------------------------- inverses
def right_inverse(layout: Optional[Layout]) -> Optional[Layout]:
    """A layout ``R`` with ``layout(R(i)) == i`` for ``i < size(R)``, as large as CuTe finds.

    >>> right_inverse(Layout((4, 8), (8, 1)))
    Layout((8,4):(4,1))
    >>> right_inverse(Layout((2, 4), (0, 1)))
    Layout(4:2)
    >>> right_inverse(Layout(4, 2))
    Layout(1:0)
    """
    if layout is None:
        return None
    if is_int(layout):
        return Layout(layout)
    if not isinstance(layout, Layout):
        raise LayoutError(f"right_inverse expects a Layout, got {layout!r}")
    cs, cd = _coalesce_flat(layout._fs, layout._fd)
    n = len(cs)
    # first-found mode of each absolute stride, and the compact column-major strides
    by_stride: dict = {}
    rstride = []
    p = 1
    for i in range(n):
        a = abs(cd[i])
        if a not in by_stride:
            by_stride[a] = i
        rstride.append(p)
        p *= cs[i]
    rs: list = []
    rd: list = []
    nxt = 1
    while True:
        i = by_stride.get(nxt)
        if i is None:
            break
        rs.append(cs[i])
        rd.append(rstride[i] if cd[i] > 0 else -rstride[i])
        nn = cs[i] * nxt
        if nn == nxt:
            break
        nxt = nn
    return _from_modes(rs, rd)


def left_inverse(layout: Optional[Layout]) -> Optional[Layout]:
    """A layout ``L`` with ``L(layout(i)) == i`` for every ``i < size(layout)`` (injective input).

    CuTe C++'s form: ``right_inverse(make_layout(layout, complement(layout)))``.

    >>> left_inverse(Layout((4, 8), (8, 1)))
    Layout((8,4):(4,1))
    >>> left_inverse(Layout(4, 2))
    Layout((2,4):(4,1))
    """
    if layout is None:
        return None
    if is_int(layout):
        return Layout(layout)
    if not isinstance(layout, Layout):
        raise LayoutError(f"left_inverse expects a Layout, got {layout!r}")
    return right_inverse(make_layout(layout, complement(layout)))


# --------------------------------------------------------------------------- divides
def _by_mode(op: Any, A: Layout, B: Any, check: bool) -> Layout:
    """Apply ``op`` mode by mode for a tuple tiler ``B`` (``None`` leaves ``A`` as it is); modes of
    ``A`` beyond the tiler are kept."""
    if B is None:
        return A
    r = len(A)
    if len(B) > r:
        raise LayoutError(f"{op.__name__}: tiler {B!r} has more modes than the rank-{r} layout {A}")
    parts = [op(A[i], B[i], check=check) for i in range(len(B))]
    parts += [A[i] for i in range(len(B), r)]
    return make_layout(*parts)


def logical_divide(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """Split ``A`` into tiles ``B`` and the rest: ``A o (B, complement(B, size(A)))``.

    A tuple tiler divides mode by mode.  The rest mode is ``complement(B, size(A))`` (older CuTe
    and pycute; current CuTe passes ``shape(A)``, which gives the same function).

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
    R = complement(B, A.size(), check=check)
    M = Layout._new((B.shape, R.shape), (B.stride, R.stride), B._fs + R._fs, B._fd + R._fd)
    return composition(A, M, check=check)


def _hier_unzip(split: Any, A: Layout, B: Tiler, check: bool) -> Layout:
    if B is None:
        return make_layout(_ONE, A)
    if isinstance(B, tuple):
        r = len(A)
        if len(B) > r:
            raise LayoutError(f"tiler {B!r} has more modes than the rank-{r} layout {A}")
        parts = [_hier_unzip(split, A[i], B[i], check) for i in range(len(B))]
        first = make_layout(*[p[0] for p in parts])
        second = make_layout(*([p[1] for p in parts] + [A[i] for i in range(len(B), r)]))
        return make_layout(first, second)
    return split(A, B, check=check)


def zipped_divide(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """``logical_divide`` with the tile modes gathered first: ``((tile...), (rest...))``.

    >>> zipped_divide(Layout((8, 8), (8, 1)), (2, 4))
    Layout(((2,4),(4,2)):((8,1),(16,4)))
    """
    return _hier_unzip(logical_divide, A, B, check)


def tiled_divide(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """``zipped_divide`` with the rest modes unpacked: ``((tile...), rest0, rest1, ...)``.

    >>> tiled_divide(Layout((8, 8), (8, 1)), (2, 4))
    Layout(((2,4),4,2):((8,1),16,4))
    """
    r = zipped_divide(A, B, check=check)
    return make_layout(r[0], *r[1].modes())


def flat_divide(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """``zipped_divide`` with both modes unpacked: ``(tile0, tile1, ..., rest0, rest1, ...)``.

    >>> flat_divide(Layout((8, 8), (8, 1)), (2, 4))
    Layout((2,4,4,2):(8,1,16,4))
    """
    r = zipped_divide(A, B, check=check)
    return make_layout(*r[0].modes(), *r[1].modes())


# --------------------------------------------------------------------------- products
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
    B = _as_layout(B, "logical_product")
    return make_layout(A, composition(complement(A, A.size() * B.cosize(), check=check), B, check=check))


def zipped_product(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """``logical_product`` with the block modes gathered first: ``((block...), (product...))``.

    >>> zipped_product(Layout((2, 2)), (2, 4))
    Layout(((2,2),(2,(2,2))):((1,2),(2,(1,4))))
    """
    return _hier_unzip(logical_product, A, B, check)


def tiled_product(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """``zipped_product`` with the product modes unpacked.

    >>> tiled_product(Layout((2, 2)), (2, 4))
    Layout(((2,2),2,(2,2)):((1,2),2,(1,4)))
    """
    r = zipped_product(A, B, check=check)
    return make_layout(r[0], *r[1].modes())


def flat_product(A: Layout, B: Tiler, *, check: bool = True) -> Layout:
    """``zipped_product`` with both modes unpacked."""
    r = zipped_product(A, B, check=check)
    return make_layout(*r[0].modes(), *r[1].modes())


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
    z = _zip2(res[1], res[0]) if raked else _zip2(res[0], res[1])
    return coalesce(z, (1,) * r)


def blocked_product(block: Layout, tiler: Layout) -> Layout:
    """Each element of ``tiler`` becomes a copy of ``block``; rank ``max(rank(block), rank(tiler))``.

    >>> blocked_product(Layout((2, 2), (1, 2)), Layout((2, 3), (1, 2)))
    Layout(((2,2),(2,3)):((1,4),(2,8)))
    """
    return _rank_product(block, tiler, raked=False)


def raked_product(block: Layout, tiler: Layout) -> Layout:
    """Like :func:`blocked_product` with the copies interleaved (tiler modes fastest).

    >>> raked_product(Layout((2, 2), (1, 2)), Layout((2, 3), (1, 2)))
    Layout(((2,2),(3,2)):((4,1),(8,2)))
    """
    return _rank_product(block, tiler, raked=True)


def make_ordered_layout(shape: IntTuple, order: Optional[IntTuple] = None) -> Layout:
    """Compact layout of ``shape`` whose modes get strides in increasing ``order`` (ties: left first).

    >>> make_ordered_layout((2, 3, 4), (1, 0, 2))
    Layout((2,3,4):(3,1,6))
    """
    if order is None:
        return Layout(shape)
    fs = flatten(shape)
    fo = flatten(order)
    if len(fs) != len(fo):
        raise LayoutError(f"make_ordered_layout: order {_fmt(order)} is not congruent with shape {_fmt(shape)}")
    idx = sorted(range(len(fs)), key=lambda i: (fo[i], i))
    st = [0] * len(fs)
    p = 1
    for i in idx:
        st[i] = p
        p *= fs[i]
    from .layout import unflatten

    return Layout(shape, unflatten(st, shape))


def tile_to_shape(block: Layout, trg_shape: IntTuple, order: Optional[IntTuple] = None) -> Layout:
    """Repeat ``block`` (blocked product) until it has the target shape; ``order`` picks which
    target modes the repetitions run along first (default: first mode first).

    >>> tile_to_shape(Layout((2, 2), (1, 2)), (4, 6))
    Layout(((2,2),(2,3)):((1,4),(2,8)))
    >>> tile_to_shape(Layout((2, 2), (1, 2)), (4, 6), (1, 0))
    Layout(((2,2),6):((1,12),2))
    """
    block = _as_layout(block, "tile_to_shape")
    tshape = trg_shape if isinstance(trg_shape, tuple) else (trg_shape,)
    r = len(tshape)
    if len(block) > r:
        raise LayoutError(f"tile_to_shape: rank of {block} is larger than the rank {r} of the target {_fmt(trg_shape)}")
    padded = _append_to_rank(block, r)
    bshape = [product(padded[i].shape) for i in range(r)]
    tgt = [product(x) for x in tshape]
    for i in range(r):
        if tgt[i] % bshape[i] != 0:
            raise LayoutError(
                f"tile_to_shape: block shape does not divide the target shape in mode {i}: "
                f"{bshape[i]} does not divide {tgt[i]}"
            )
    pshape = tuple(t // b for t, b in zip(tgt, bshape))
    ordered = make_ordered_layout(pshape, order if order is None or isinstance(order, tuple) else (order,))
    return coalesce(blocked_product(padded, ordered), pshape)
