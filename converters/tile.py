"""TVM TIRx ``TileLayout`` and ``ComposeLayout``: text, evaluation, and the bridges to
:class:`~linlayout.general.MixedRadixLayout` and :class:`~linlayout.LinearLayout`.

A TileLayout is ``S[(e0,e1,...):(s0,s1,...)] + R[(r0,...):(t0,...)] + o@axis``:

* the *shard* iters (``S``) split the flat logical index **row-major, first iter outermost**; iter
  ``k`` adds ``digit_k * s_k`` on its axis;
* the *replica* iters (``R``) store every element again at ``+ r * t`` for each replica index;
* the *offset* adds a constant per axis.

A bare stride (or offset) is on the memory axis ``m``; ``v@axis`` names another axis.  Known axes:
thread axes ``laneid``, ``warpid``, ``tx`` (alias ``tid``), ``tid_in_wg``, ``wid_in_wg``, ``wgid``,
``bx``/``by``/``bz``, ``cbx``/``cby``/``cbz``; memory axes ``m``, ``TLane``, ``TCol`` (tensor memory)
and ``P``, ``F``, ``Bank`` (Trainium); any other identifier is a user-defined axis.

    >>> L = TileLayout.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    >>> L.apply(0, 2, shape=(8, 16))
    {'laneid': 1, 'warpid': 5, 'm': 0}
    >>> L.places(0, 2, shape=(8, 16))
    [{'laneid': 1, 'warpid': 5, 'm': 0}, {'laneid': 1, 'warpid': 9, 'm': 0}]
    >>> print(L)
    S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid

``apply`` follows TIRx 0.1.0a4 exactly, including which axes appear in its result (every axis of a
non-unit shard iter and of the offset; a leading extent-1 iter's axis only when ``shape[0] == 1``;
when the layout cannot be grouped by ``shape``, every iter's axis).

Mapping to :class:`~linlayout.LinearLayout` (:meth:`TileLayout.to_linear`): thread axes become
``lane``/``warp`` (``laneid`` -> lane, ``warpid`` and ``wid_in_wg`` -> warp, ``wgid`` -> warp bits
above a 4-warp group, ``tx``/``tid``/``tid_in_wg`` split into lane (low 5 bits, 32 lanes per warp)
and warp); memory axes become ``register`` (``m`` when a thread axis is present), ``offset`` (``m``
otherwise), ``row`` (``TLane``) and ``col`` (``TCol``); other axes keep their names.  The
logical coordinates are ``dim0, dim1, ...`` (``dim0`` is the slowest of the row-major ``shape``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from linlayout.contract import Kind
from linlayout.errors import (
    DimensionError,
    LayoutError,
    NotInvertibleError,
    NotLinearError,
    ParseError,
    SizeError,
    UnsupportedError,
)
from linlayout.general import Digit, MixedRadixLayout, to_digit

__all__ = [
    "Iter",
    "TileLayout",
    "ComposeLayout",
    "parse_tile",
    "parse",
    "swizzle_address",
    "THREAD_AXES",
    "MEMORY_AXES",
    "LINEAR_AXIS_NAMES",
]

#: A TIRx iter: ``extent`` positions, each adding ``stride`` on ``axis``.
Iter = Digit

THREAD_AXES = ("laneid", "warpid", "tx", "tid", "tid_in_wg", "wid_in_wg", "wgid", "bx", "by", "bz", "cbx", "cby", "cbz")
MEMORY_AXES = ("m", "TLane", "TCol", "P", "F", "Bank")

#: How axes are named in a LinearLayout (see the module docstring); ``m`` depends on the layout.
LINEAR_AXIS_NAMES = {"laneid": "lane", "warpid": "warp", "wid_in_wg": "warp", "TLane": "row", "TCol": "col"}
_BACK_NAMES = {"lane": "laneid", "warp": "warpid", "register": "m", "offset": "m", "row": "TLane", "col": "TCol"}

_WARP = 32
_WARPS_PER_GROUP = 4


def _prod(xs) -> int:
    p = 1
    for x in xs:
        p *= x
    return p


def _iter(x: Any, where: str) -> Iter:
    d = to_digit(x, where)
    axis = "tx" if d.axis == "tid" else d.axis  # TIRx's alias
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", axis):
        raise DimensionError(f"{where} has axis {axis!r}; an axis is an identifier")
    return Iter(d.extent, d.stride, axis)


# ---------------------------------------------------------------------------------------- parser


class _Parser:
    _TOKEN = re.compile(r"\s*(?:(?P<int>-?\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<sym>[\[\]():,@+]))")

    def __init__(self, text: str):
        if not isinstance(text, str):
            raise ParseError(f"expected TileLayout text, got {type(text).__name__}")
        self.text = text
        self.toks: list[tuple[str, str, int]] = []
        pos = 0
        while True:
            m = self._TOKEN.match(text, pos)
            if not m:
                rest = text[pos:]
                if rest.strip() == "":
                    break
                p = pos + len(rest) - len(rest.lstrip())
                raise ParseError(f"unexpected character {text[p]!r}; expected a number, a name or one of [ ] ( ) : , @ +", text, p)
            kind = m.lastgroup
            self.toks.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        self.i = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def pos(self) -> int:
        t = self.peek()
        return t[2] if t else len(self.text)

    def fail(self, expected: str):
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
        return int(self.take("int", expected=what))

    def stride(self) -> tuple[int, str]:
        v = self.integer("a stride (an integer, optionally @axis)")
        axis = "m"
        if self.at("@"):
            self.i += 1
            axis = self.take("name", expected="an axis name after '@'")
        return v, axis

    def tuple_of(self, item, what: str) -> list:
        if self.at("("):
            self.i += 1
            out = [item()]
            while self.at(","):
                self.i += 1
                if self.at(")"):
                    break
                out.append(item())
            self.take("sym", ")", f"',' or ')' closing the {what} tuple")
            return out
        out = [item()]
        while self.at(","):  # S[8, 16]
            self.i += 1
            out.append(item())
        return out

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
                strides.append((acc, "m"))
                acc *= e
            strides.reverse()
        self.take("sym", "]", f"']' closing {kind}[...]")
        return [_iter((e, s, a), f"{kind} iter {k}") for k, (e, (s, a)) in enumerate(zip(shape, strides))]

    def layout(self) -> TileLayout:
        shard: list[Iter] | None = None
        replica: list[Iter] | None = None
        offset: dict[str, int] = {}
        while True:
            t = self.peek()
            if t is None:
                self.fail("S[...], R[...] or an offset")
            if t[0] == "name" and t[1] in ("S", "R") and self.i + 1 < len(self.toks) and self.toks[self.i + 1][1] == "[":
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
                offset[a if a != "tid" else "tx"] = offset.get(a, 0) + v
            else:
                self.fail("S[...], R[...] or an offset (integer, optionally @axis)")
            if self.peek() is None:
                break
            self.take("sym", "+", "'+' or end of text")
        if shard is None:
            raise ParseError("missing the shard S[...]", self.text, 0)
        return TileLayout(shard, replica or (), offset)


def parse_tile(text: str) -> TileLayout:
    """Parse TileLayout text (see :class:`TileLayout`).

        >>> parse_tile("S[(2,7):(1@TLane,32@TLane)]").shard
        (Digit(extent=2, stride=1, axis='TLane'), Digit(extent=7, stride=32, axis='TLane'))
        >>> parse_tile("S[(2,7):(1@TLane)]")
        Traceback (most recent call last):
        ...
        linlayout.errors.ParseError: S[...] has 2 extents but 1 strides; expected one stride per extent (at position 8)
          S[(2,7):(1@TLane)]
                  ^
    """
    body, shape = _split_shape_suffix(text)
    layout = _Parser(body).layout()
    if shape is None:
        return layout
    return TileLayout(layout.shard, layout.replica, layout.offset, shape=shape)


def _split_shape_suffix(text: str) -> tuple[str, tuple[int, ...] | None]:
    """``"S[...] shape=(64,16)"`` -> (``"S[...]"``, ``(64, 16)``); the suffix is optional."""
    if not isinstance(text, str):
        raise ParseError(f"a TileLayout must be text, got {type(text).__name__}")
    k = text.rfind("shape=")
    if k < 0 or "]" in text[k:]:
        return text, None
    tail = text[k + len("shape="):].strip()
    if not (tail.startswith("(") and tail.endswith(")")):
        raise ParseError("expected shape=(d0, d1, ...) at the end", text, k)
    parts = [p.strip() for p in tail[1:-1].split(",") if p.strip()]
    if not parts or not all(p.isdigit() and len(p) <= 18 for p in parts):
        raise ParseError("shape=(...) takes positive integers, e.g. shape=(64,16)", text, k)
    return text[:k].rstrip(), tuple(int(p) for p in parts)


# ---------------------------------------------------------------------------------------- layouts


#: ``converters.tile.parse``: the same name as the other converters' parsers.
parse = parse_tile


def _fmt_stride(s: int, a: str) -> str:
    return str(s) if a == "m" else f"{s}@{a}"


def _fmt_iters(iters: Sequence[Iter], force_tuple: bool) -> str:
    if len(iters) == 1 and not force_tuple:
        return f"{iters[0].extent}:{_fmt_stride(iters[0].stride, iters[0].axis)}"
    ex = ",".join(str(i.extent) for i in iters)
    st = ",".join(_fmt_stride(i.stride, i.axis) for i in iters)
    if len(iters) == 1:
        ex += ","
        st += ","
    return f"({ex}):({st})"


class TileLayout:
    """A TIRx TileLayout: shard iters (row-major, first outermost), replica iters and an offset.

    Args:
        shard: ``(extent, stride, axis)`` iters, **outermost first** (as TIRx prints them).
        replica: replica iters.
        offset: axis -> constant.

    Example (the Blackwell 224-column tensor-memory placement):

        >>> L = TileLayout.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]")
        >>> [L.apply(a, l, c, shape=(2, 128, 112)) for a, l, c in [(0, 5, 3), (1, 0, 0), (1, 127, 111)]]
        [{'TCol': 3, 'TLane': 5}, {'TCol': 112, 'TLane': 0}, {'TCol': 223, 'TLane': 127}]
        >>> L.size(), L.span("TCol"), L.span("TLane")
        (28672, 224, 128)
    """

    __slots__ = ("shard", "replica", "offset", "shape")

    def __init__(
        self,
        shard: Sequence[Any],
        replica: Sequence[Any] = (),
        offset: Mapping[str, int] | None = None,
        *,
        shape: Sequence[int] | None = None,
    ):
        self.shard: tuple[Iter, ...] = tuple(_iter(x, f"shard iter {k}") for k, x in enumerate(shard))
        self.replica: tuple[Iter, ...] = tuple(_iter(x, f"replica iter {k}") for k, x in enumerate(replica))
        off: dict[str, int] = {}
        for a, v in (offset or {}).items():
            a = "tx" if a == "tid" else a
            if not isinstance(a, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", a):
                raise DimensionError(f"offset axis {a!r} is not an identifier")
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise LayoutError(f"offset on {a!r} must be an int, got {v!r}")
            off[a] = off.get(a, 0) + int(v)
        self.offset: dict[str, int] = off
        #: The tensor shape the layout is read over (``None``: the flat index, TIRx's own view).
        self.shape: tuple[int, ...] | None = None if shape is None else self._check_shape(shape)

    parse = staticmethod(parse_tile)

    @property
    def kind(self) -> Kind:
        """What the layout says (:class:`~linlayout.contract.Kind`): tensor memory when it names
        ``TLane``/``TCol``, distributed when it names a thread axis, else a memory map.

            >>> TileLayout.parse("S[(8,4):(4@laneid,1)]").kind, TileLayout.parse("S[(8,4):(4,1)]").kind
            (<Kind.DISTRIBUTED: 'distributed'>, <Kind.MEMORY: 'memory'>)
        """
        axes = set(self.axes) | set(self.offset)
        if axes & {"TLane", "TCol"}:
            return Kind.TENSOR_MEMORY
        if axes & set(THREAD_AXES):
            return Kind.DISTRIBUTED
        return Kind.MEMORY

    def _shape_for(self, shape: Sequence[int] | None) -> tuple[int, ...] | None:
        """The shape to read the layout over: ``shape``, which must agree with the layout's own."""
        if shape is None:
            return self.shape
        shp = self._check_shape(shape)
        if self.shape is not None and shp != self.shape:
            raise SizeError(f"{self} is read over the shape {list(self.shape)}, not the requested shape {list(shp)}")
        return shp

    @classmethod
    def from_text(cls, text: str) -> TileLayout:
        """Same as :func:`parse_tile`."""
        return parse_tile(text)

    # ------------------------------------------------------------------ text

    def __str__(self) -> str:
        s = f"S[{_fmt_iters(self.shard, True)}]"
        if self.replica:
            s += f" + R[{_fmt_iters(self.replica, False)}]"
        for a, v in self.offset.items():
            s += f" + {_fmt_stride(v, a)}"
        if self.shape is not None:
            s += " shape=(" + ",".join(str(d) for d in self.shape) + ")"
        return s

    def __repr__(self) -> str:
        return f"TileLayout({str(self)!r})"

    def to_tirx_source(self) -> str:
        """The ``T.TileLayout.from_iters(...)`` form that TIRx prints.

            >>> print(TileLayout([(16, 112, "m")], offset={"TCol": 64}).to_tirx_source())
            T.TileLayout.from_iters(shard=[T.Iter(16, 112, "m")], replica=[], offset={"TCol": 64})
        """
        f = lambda its: ", ".join(f'T.Iter({i.extent}, {i.stride}, "{i.axis}")' for i in its)  # noqa: E731
        s = f"T.TileLayout.from_iters(shard=[{f(self.shard)}], replica=[{f(self.replica)}]"
        if self.offset:
            s += ", offset={" + ", ".join(f'"{a}": {v}' for a, v in self.offset.items()) + "}"
        return s + ")"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TileLayout):
            return NotImplemented
        return (
            self.shard == other.shard and self.replica == other.replica and self.offset == other.offset
            and self.shape == other.shape
        )

    def __hash__(self) -> int:
        return hash((self.shard, self.replica, tuple(self.offset.items()), self.shape))

    # ------------------------------------------------------------------ sizes

    @property
    def axes(self) -> tuple[str, ...]:
        """Every axis named by the shard, the replicas or the offset (first appearance order)."""
        return self._axes_of(self.shard + self.replica)

    def size(self, axis: str | None = None) -> int:
        """Number of logical elements (product of the shard extents), or of the shard extents on ``axis``.

            >>> TileLayout.parse("S[(2,7):(5@laneid,32)]").size(), TileLayout.parse("S[(2,7):(5@laneid,32)]").size("laneid")
            (14, 2)
        """
        return _prod(i.extent for i in self.shard if axis is None or i.axis == axis)

    def span(self, axis: str | None = None) -> int:
        """Extent covered on ``axis`` (``offset + sum((e-1)*s) + 1`` over shard and replica iters);
        without ``axis``, ``1 + sum(span(a) - 1)`` over the memory axes (as TIRx).

            >>> L = TileLayout.parse("S[(4,8):(1@TLane,1@TCol)]")
            >>> L.span("TLane"), L.span("TCol"), L.span()
            (4, 8, 11)
        """
        if axis is None:
            return 1 + sum(self.span(a) - 1 for a in self.axes if a in MEMORY_AXES)
        axis = "tx" if axis == "tid" else axis
        return 1 + self.offset.get(axis, 0) + sum((i.extent - 1) * i.stride for i in self.shard + self.replica if i.axis == axis)

    # ------------------------------------------------------------------ TIRx algebra

    def canonicalize(self) -> TileLayout:
        """TIRx's canonical form: drop extent-1 iters, fuse neighbours (outer, inner) on one axis
        with ``outer.stride == inner.extent * inner.stride``; an all-unit shard becomes ``1:1`` on
        the first iter's axis.

            >>> print(TileLayout.parse("S[(1,16,2):(8@warpid,2,1)]").canonicalize())
            S[(32,):(1,)]
        """

        def fuse(iters: Sequence[Iter]) -> list[Iter]:
            out: list[Iter] = []
            for it in iters:
                if it.extent == 1:
                    continue
                if out and out[-1].axis == it.axis and out[-1].stride == it.extent * it.stride:
                    out[-1] = Iter(out[-1].extent * it.extent, it.stride, it.axis)
                else:
                    out.append(it)
            return out

        shard = fuse(self.shard) or [Iter(1, 1, self.shard[0].axis if self.shard else "m")]
        return TileLayout(shard, fuse(self.replica), {a: v for a, v in self.offset.items() if v != 0})

    def group(self, shape: Sequence[int]) -> tuple[TileLayout, list[int]]:
        """Split the shard iters so that consecutive runs multiply to each entry of ``shape``
        (TIRx's ``group``): returns the regrouped layout and the separators (``seps[0] == 0``;
        dim ``k`` is iters ``seps[k]:seps[k+1]``).

            >>> L, seps = TileLayout.parse("S[(4,4):(3@laneid,12@laneid)]").group([2, 8])
            >>> print(L), seps
            S[(2,2,4):(6@laneid,3@laneid,12@laneid)]
            (None, [0, 1, 3])

        Raises:
            SizeError: the shape's size differs from the layout's, or an iter cannot be split.
        """
        shape = self._check_shape(shape)
        its = list(self.shard)
        lead = None
        while its and its[0].extent == 1:
            lead = lead or its[0]
            its.pop(0)
        its = [i for i in its if i.extent != 1]
        out: list[Iter] = []
        seps = [0]
        k = 0
        cur: Iter | None = None  # the remaining (inner) part of a split iter
        for di, d in enumerate(shape):
            if d == 1:
                if not out and lead is not None:
                    out.append(lead)
                elif not out:
                    nxt = cur or (its[k] if k < len(its) else Iter(1, 1, "m"))
                    out.append(Iter(1, nxt.extent * nxt.stride, nxt.axis))
                else:
                    prev = out[-1]
                    out.append(Iter(1, prev.stride, prev.axis))
                seps.append(len(out))
                continue
            r = d
            while r > 1:
                it = cur if cur is not None else (its[k] if k < len(its) else None)
                if it is None:
                    raise SizeError(f"group: the layout {self} cannot be grouped by shape {list(shape)}")
                if it.extent <= r:
                    if r % it.extent:
                        raise SizeError(f"group: iter {it} of {self} does not divide dim {di} (size {d}) of shape {list(shape)}")
                    out.append(it)
                    r //= it.extent
                    cur = None
                    k += 1
                else:
                    if it.extent % r:
                        raise SizeError(f"group: dim {di} (size {d}) of shape {list(shape)} does not divide iter {it} of {self}")
                    inner = it.extent // r
                    out.append(Iter(r, it.stride * inner, it.axis))
                    cur = Iter(inner, it.stride, it.axis)
                    r = 1
            seps.append(len(out))
        return TileLayout(out, self.replica, self.offset), seps

    # ------------------------------------------------------------------ evaluation

    def _check_shape(self, shape: Sequence[int]) -> tuple[int, ...]:
        try:
            shape = tuple(int(s) for s in shape)
        except (TypeError, ValueError):
            raise LayoutError(f"shape must be a sequence of ints, got {shape!r}") from None
        if any(s < 1 for s in shape):
            raise SizeError(f"shape {list(shape)} has a non-positive entry")
        if _prod(shape) != self.size():
            raise SizeError(
                f"shape {list(shape)} has size {_prod(shape)}, but the shard extents {[i.extent for i in self.shard]} "
                f"multiply to {self.size()}"
            )
        return shape

    def _flat(self, coord: Sequence[int], shape: Sequence[int] | None) -> tuple[int, tuple[int, ...]]:
        if len(coord) == 1 and isinstance(coord[0], (list, tuple)):
            coord = tuple(coord[0])
        if shape is None:
            shape = (self.size(),) if len(coord) == 1 else tuple(i.extent for i in self.shard)
        shape = self._check_shape(shape)
        if len(coord) != len(shape):
            raise DimensionError(f"apply: {len(coord)} coordinates for the {len(shape)}-dim shape {list(shape)}")
        f = 0
        for k, (c, s) in enumerate(zip(coord, shape)):
            if isinstance(c, bool) or not isinstance(c, (int, np.integer)):
                raise LayoutError(f"apply: coordinate {k} must be an int, got {c!r}")
            if not 0 <= c < s:
                raise DimensionError(f"apply: coordinate {k} = {c} is out of range [0, {s}) of shape {list(shape)}")
            f = f * s + int(c)
        return f, shape

    def result_axes(self, shape: Sequence[int] | None = None) -> tuple[str, ...]:
        """The axes TIRx's ``apply(..., shape=shape)`` reports (see the module docstring)."""
        shape = self._check_shape(shape) if shape is not None else (self.size(),)
        try:
            grouped, _ = self.group(shape)
            its = grouped.shard
        except SizeError:
            its = self.shard
        return self._axes_of(its)

    def _axes_of(self, iters: Sequence[Iter]) -> tuple[str, ...]:
        """The axes of ``iters``, then those of the offset, each once (first appearance order)."""
        return tuple(dict.fromkeys([i.axis for i in iters] + list(self.offset)))

    def apply(self, *coord: int, shape: Sequence[int] | None = None) -> dict[str, int]:
        """TIRx's ``apply``: the coordinate is flattened row-major over ``shape`` (default: a flat
        index if one coordinate is given, else the shard extents), split row-major over the shard
        extents; strides and offset are added; replicas are left out.

            >>> L = TileLayout.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
            >>> [L.apply(f) for f in (0, 1, 2, 16, 127)]
            [{'laneid': 0, 'warpid': 5, 'm': 0}, {'laneid': 0, 'warpid': 5, 'm': 1}, {'laneid': 1, 'warpid': 5, 'm': 0}, {'laneid': 4, 'warpid': 5, 'm': 0}, {'laneid': 31, 'warpid': 6, 'm': 1}]

        Raises:
            SizeError: ``shape`` does not have the layout's size (both numbers are named).
            DimensionError: a coordinate is out of range.
        """
        f, shape = self._flat(coord, shape)
        res = {a: 0 for a in self.result_axes(shape)}
        for it in reversed(self.shard):
            d = f % it.extent
            f //= it.extent
            res[it.axis] = res.get(it.axis, 0) + d * it.stride
        for a, v in self.offset.items():
            res[a] = res.get(a, 0) + v
        keep = self.result_axes(shape)
        return {a: res[a] for a in keep}

    def places(self, *coord: int, shape: Sequence[int] | None = None) -> list[dict[str, int]]:
        """The set L(x): the base place of :meth:`apply` plus every replica (replica index
        row-major), each with every axis of the layout.

            >>> TileLayout.parse("S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]").places(1, 2, shape=(32, 4))
            [{'TLane': 1, 'TCol': 2}, {'TLane': 33, 'TCol': 2}, {'TLane': 65, 'TCol': 2}, {'TLane': 97, 'TCol': 2}]
        """
        base = self.apply(*coord, shape=shape)
        base = {a: base.get(a, 0) for a in self.axes}
        out = []
        n = _prod(i.extent for i in self.replica)
        for r in range(n):
            p = dict(base)
            for it in reversed(self.replica):
                p[it.axis] += (r % it.extent) * it.stride
                r //= it.extent
            out.append(p)
        return out

    # ------------------------------------------------------------------ bridges

    def to_general(self, shape: Sequence[int] | None = None) -> MixedRadixLayout:
        """The same map as a :class:`~linlayout.general.MixedRadixLayout`.

        Without ``shape``: one in-dim ``x`` (the flat index).  With ``shape``: in-dims ``dim0``,
        ``dim1``, ... (``dim0`` the slowest, row-major), digits fastest first.

            >>> g = TileLayout.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]").to_general((256, 112))
            >>> g.digits["dim0"]
            (Digit(extent=128, stride=1, axis='TLane'), Digit(extent=2, stride=112, axis='TCol'))
            >>> g.apply(dim0=255, dim1=111)
            {'TCol': 223, 'TLane': 127}

        Raises:
            SizeError: ``shape`` has another size.
            UnsupportedError: an iter straddles two dims of ``shape`` in a way no digit split expresses.
        """
        axes = list(self.axes)
        reps = list(reversed(self.replica))
        shape = self._shape_for(shape)
        if shape is None:
            return MixedRadixLayout({"x": list(reversed(self.shard))}, reps, self.offset, axes)
        shape = self._check_shape(shape)
        names = [f"dim{k}" for k in range(len(shape))]
        try:
            grouped, seps = self.group(shape)
            digits = {names[k]: list(reversed(grouped.shard[seps[k]: seps[k + 1]])) for k in range(len(shape))}
            return MixedRadixLayout(digits, reps, self.offset, axes)
        except SizeError:
            pass
        flat = MixedRadixLayout({"x": list(reversed(self.shard))}, (), self.offset, axes).table()
        # rows of the colex table (dim0 fastest) -> row-major flat index
        grids = np.meshgrid(*[np.arange(s) for s in shape], indexing="ij")
        rm = np.zeros(grids[0].shape, dtype=np.int64)
        for g, s in zip(grids, shape):
            rm = rm * s + g
        idx = np.transpose(rm).reshape(-1)
        return MixedRadixLayout.from_table(dict(zip(names, shape)), flat[idx], axes, replicas=reps)

    @classmethod
    def from_general(cls, g: MixedRadixLayout) -> tuple[TileLayout, tuple[int, ...]]:
        """The TileLayout of a general layout and the row-major shape of its in-dims (in order).

            >>> g = MixedRadixLayout({"dim0": [(4, 1, "laneid")], "dim1": [(2, 1, "m")]})
            >>> L, shape = TileLayout.from_general(g)
            >>> print(L), shape
            S[(4,2):(1@laneid,1)]
            (None, (4, 2))
        """
        shard: list[Iter] = []
        for _, dl in g.digits.items():
            shard.extend(reversed(dl))
        if not shard:
            shard = [Iter(1, 1, "m")]
        return cls(shard, list(reversed(g.replicas)), {a: v for a, v in g.offset.items()}), tuple(g.in_dims.values())

    def to_linear(self, shape: Sequence[int] | None = None, *, hardware_first: bool = True) -> Any:
        """The layout as a :class:`~linlayout.LinearLayout` (axes renamed as the module docstring says).

        ``hardware_first=True`` (Triton's view): in-dims ``register``/``offset``/``row``/``col``,
        ``lane``, ``warp`` (what exists) -> out-dims ``dim0, dim1, ...``; replicas are the places
        that map to the same element.  It needs every place of the hardware box to hold exactly one
        (element, replica).  ``hardware_first=False``: logical ``dim*`` (and ``replica``) -> hardware.

            >>> L = TileLayout.parse("S[(4,8,2):(1@warpid,1@laneid,1)] + R[4:8@laneid]")
            >>> ll = L.to_linear((4, 16))
            >>> ll.in_dim_names, ll.out_dims
            (('register', 'lane', 'warp'), {'dim0': 4, 'dim1': 16})
            >>> ll.apply({"register": 1, "lane": 9, "warp": 2})
            {'dim0': 2, 'dim1': 3}

        Raises:
            NotLinearError: an extent is not a power of two, there is an offset, or digits overlap.
            NotInvertibleError: (hardware_first) some place holds no element or two.
        """
        shp = self._shape_for(shape)
        g = self.to_general(shp if shp is not None else (self.size(),))
        fwd = _hardware_general(g).to_linear()
        if not hardware_first:
            return fwd
        return _hardware_first(fwd, [n for n in g.in_dims])

    @classmethod
    def from_linear(cls, L: Any) -> TileLayout:
        """From a hardware-first LinearLayout (in-dims register/offset/row/col/lane/warp, out-dims
        ``dim0, dim1, ...``): the TileLayout read over the out-dims' shape.  Zero bases become
        replicas.

            >>> L = TileLayout.parse("S[(4,8,2):(1@warpid,1@laneid,1)] + R[4:8@laneid]")
            >>> print(TileLayout.from_linear(L.to_linear((4, 16))))
            S[(4,8,2):(1@warpid,1@laneid,1)] + R[4:8@laneid] shape=(4,16)

        Raises:
            UnsupportedError: a replication that is not a zero basis, or a non-invertible remainder.
        """
        fwd, reps = _logical_first(L)
        g = MixedRadixLayout.from_linear(fwd)
        g = _from_hardware_general(g, reps)
        t, shape = cls.from_general(g)
        return cls(t.shard, t.replica, t.offset, shape=shape)

    def table(self, shape: Sequence[int] | None = None) -> np.ndarray:
        """Base places of every element, by row-major flat index (the same for any ``shape`` of
        the layout's size): int64 array ``(size, len(axes))``, columns in :attr:`axes` order."""
        if shape is not None:
            self._check_shape(shape)
        return self.to_general().table()


# ---------------------------------------------------------------------------------------- hardware naming


def _split_digit(d: Digit, at: int, low: str, high: str) -> list[Digit]:
    """Split a digit on a thread-id axis into ``low`` (values mod ``at``) and ``high`` (// at)."""
    s, e = d.stride, d.extent
    if s == 0:
        return [Digit(e, 0, low)]
    if s % at == 0:
        return [Digit(e, s // at, high)]
    if s * (e - 1) < at:
        return [Digit(e, s, low)]
    if at % s == 0 and e % (at // s) == 0:
        k = at // s
        return [Digit(k, s, low), Digit(e // k, 1, high)]
    raise NotLinearError(f"to_linear: the digit {d} straddles the {low}/{high} boundary at {at}")


def _hw_name(axis: str, has_thread: bool) -> str:
    if axis == "m":
        return "register" if has_thread else "offset"
    return LINEAR_AXIS_NAMES.get(axis, axis)


def _hardware_general(g: MixedRadixLayout) -> MixedRadixLayout:
    has_thread = any(a in THREAD_AXES for a in g.axes)

    def conv(d: Digit) -> list[Digit]:
        if d.axis in ("tx", "tid", "tid_in_wg"):
            return _split_digit(d, _WARP, "lane", "warp")
        if d.axis == "wgid":
            return [Digit(d.extent, d.stride * _WARPS_PER_GROUP, "warp")]
        return [Digit(d.extent, d.stride, _hw_name(d.axis, has_thread))]

    digits = [(n, [x for d in dl for x in conv(d)]) for n, dl in g.digits.items()]
    reps = [x for d in g.replicas for x in conv(d)]
    off: dict[str, int] = {}
    for a, v in g.offset.items():
        if v:
            off[_hw_name(a, has_thread)] = v
    order = ["register", "offset", "row", "col", "lane", "warp"]
    present = {d.axis for _, dl in digits for d in dl} | {d.axis for d in reps} | set(off)
    axes = [a for a in order if a in present] + sorted(a for a in present if a not in order)
    return MixedRadixLayout(digits, reps, off, axes)


def _hardware_first(fwd: Any, logical: Sequence[str]) -> Any:
    """Invert a logical-first linear layout (with an optional ``replica`` in-dim)."""
    if not fwd.is_invertible():
        raise NotInvertibleError(
            f"to_linear: the hardware box {fwd.out_dims} is not covered exactly once by "
            f"{fwd.in_dims} (use hardware_first=False for the forward map)"
        )
    inv = fwd.invert()
    return inv.sublayout(list(inv.in_dim_names), [n for n in logical])


def _logical_first(L: Any) -> tuple[Any, list[Digit]]:
    from linlayout import LinearLayout

    outs = dict(L.out_dims)
    reps: list[Digit] = []
    keep: dict[str, list[int]] = {}
    bases: dict[str, list] = {}
    for n, bl in L.bases.items():
        keep[n] = []
        bases[n] = []
        for j, v in enumerate(bl):
            if any(v):
                keep[n].append(j)
                bases[n].append(list(v))
            else:
                reps.append(Digit(2, 1 << j, n))
    red = LinearLayout(bases, outs, require_surjective=False)
    if not red.is_invertible():
        raise UnsupportedError(
            "from_linear: after removing zero bases (replicas) the layout is not a bijection "
            f"({red.in_dims} -> {red.out_dims}); only zero-basis replication is supported"
        )
    inv = red.invert()  # dims -> reduced hardware
    # expand reduced hardware bit positions back to the original ones
    fwd_bases = {}
    for d, bl in inv.bases.items():
        vecs = []
        for v in bl:
            row = []
            for n, x in zip(inv.out_dim_names, v):
                y = 0
                for b, j in enumerate(keep[n]):
                    if x >> b & 1:
                        y |= 1 << j
                row.append(y)
            vecs.append(row)
        fwd_bases[d] = vecs
    full = LinearLayout(fwd_bases, {n: L.in_dims[n] for n in inv.out_dim_names}, require_surjective=False)
    return full, reps


def _from_hardware_general(g: MixedRadixLayout, reps: Sequence[Digit]) -> MixedRadixLayout:
    def back(a: str) -> str:
        return _BACK_NAMES.get(a, a)

    digits = [(n, [Digit(d.extent, d.stride, back(d.axis)) for d in dl]) for n, dl in g.digits.items()]
    digits = [(n, _coalesce(dl)) for n, dl in digits]
    r = _coalesce([Digit(d.extent, d.stride, back(d.axis)) for d in reps])
    return MixedRadixLayout(digits, r, {back(a): v for a, v in g.offset.items()})


def _coalesce(dl: Sequence[Digit]) -> list[Digit]:
    out: list[Digit] = []
    for d in dl:
        if d.extent == 1:
            continue
        if out and out[-1].axis == d.axis and d.stride == out[-1].extent * out[-1].stride:
            out[-1] = Digit(out[-1].extent * d.extent, out[-1].stride, d.axis)
        else:
            out.append(d)
    return out


# ---------------------------------------------------------------------------------------- swizzle


def swizzle_address(x: int | np.ndarray, per_element: int, swizzle_len: int, atom_len: int, inner: bool = True):
    """CuTe ``Swizzle<B=swizzle_len, M=per_element, S=atom_len>`` on an address (works on arrays).

    ``inner=True`` XORs the higher bit group ``[M+S, M+S+B)`` into ``[M, M+B)`` (TIRx's default);
    ``inner=False`` XORs the lower group into the higher one.

        >>> swizzle_address(10, 0, 2, 3)
        11
    """
    mask = ((1 << swizzle_len) - 1) << per_element
    if inner:
        return x ^ ((x >> atom_len) & mask)
    return x ^ ((x & mask) << atom_len)


class ComposeLayout:
    """TIRx ``ComposeLayout(per_element, swizzle_len, atom_len, tile)``: the memory address ``m`` of
    ``tile`` swizzled as CuTe ``Swizzle<swizzle_len, per_element, atom_len>``.

    The tile must place data on ``m`` only (TIRx refuses others); replicas may be on any axis.

        >>> C = ComposeLayout(0, 2, 3, TileLayout.parse("S[(8,8):(8,1)]"))
        >>> C.apply(1, 2, shape=(8, 8))
        {'m': 11}
        >>> ComposeLayout(1, 1, 1, TileLayout.parse("S[4:2@TLane]"))
        Traceback (most recent call last):
        ...
        linlayout.errors.UnsupportedError: ComposeLayout: the tile must place data on the memory axis m only; shard iter 0 is 4:2@TLane

    ``swizzle_inner=False`` (XOR the lower group into the higher one) follows TIRx's description;
    the oracle corpus only exercises the default.
    """

    __slots__ = ("per_element", "swizzle_len", "atom_len", "tile", "swizzle_inner")

    def __init__(self, per_element: int, swizzle_len: int, atom_len: int, tile: TileLayout, swizzle_inner: bool = True):
        for v, n in ((per_element, "per_element"), (swizzle_len, "swizzle_len"), (atom_len, "atom_len")):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise LayoutError(f"ComposeLayout: {n} must be an int, got {v!r}")
        if per_element < 0 or swizzle_len < 0 or atom_len < swizzle_len:
            raise SizeError(
                f"ComposeLayout: needs per_element >= 0, swizzle_len >= 0 and atom_len >= swizzle_len; "
                f"got {per_element}, {swizzle_len}, {atom_len}"
            )
        if isinstance(tile, str):
            tile = parse_tile(tile)
        if not isinstance(tile, TileLayout):
            raise LayoutError(f"ComposeLayout: tile must be a TileLayout, got {type(tile).__name__}")
        for k, it in enumerate(tile.shard):
            if it.axis != "m" and it.extent != 1:
                raise UnsupportedError(f"ComposeLayout: the tile must place data on the memory axis m only; shard iter {k} is {it}")
        for a in tile.offset:
            if a != "m":
                raise UnsupportedError(f"ComposeLayout: the tile must place data on the memory axis m only; it has an offset on {a!r}")
        self.per_element, self.swizzle_len, self.atom_len = int(per_element), int(swizzle_len), int(atom_len)
        self.tile = tile
        self.swizzle_inner = bool(swizzle_inner)

    def __repr__(self) -> str:
        return f"ComposeLayout({self.per_element}, {self.swizzle_len}, {self.atom_len}, {self.tile})"

    def size(self, axis: str | None = None) -> int:
        return self.tile.size(axis)

    def span(self, axis: str | None = None) -> int:
        return self.tile.span(axis)

    def _swz(self, x):
        return swizzle_address(x, self.per_element, self.swizzle_len, self.atom_len, self.swizzle_inner)

    def apply(self, *coord: int, shape: Sequence[int] | None = None) -> dict[str, int]:
        """The tile's ``apply`` with ``m`` swizzled.

        Raises:
            UnsupportedError: the tile's result has an axis other than ``m`` for this shape (TIRx
                refuses it too).
        """
        base = self.tile.apply(*coord, shape=shape)
        if set(base) != {"m"}:
            raise UnsupportedError(f"ComposeLayout.apply: the tile maps to axes {sorted(base)}; a swizzle needs the memory axis m only")
        return {"m": int(self._swz(base["m"]))}

    def places(self, *coord: int, shape: Sequence[int] | None = None) -> list[dict[str, int]]:
        """Every place (replicas included) with ``m`` swizzled."""
        self.apply(*coord, shape=shape)
        out = []
        for p in self.tile.places(*coord, shape=shape):
            p = dict(p)
            p["m"] = int(self._swz(p.get("m", 0)))
            out.append(p)
        return out

    def to_linear(self, shape: Sequence[int] | None = None, *, hardware_first: bool = True) -> Any:
        """The swizzled layout over GF(2): the tile's forward map composed with the swizzle on
        ``offset`` (the swizzle is linear), inverted when ``hardware_first``.

            >>> C = ComposeLayout(0, 2, 3, TileLayout.parse("S[(8,8):(8,1)]"))
            >>> C.to_linear((8, 8)).apply({"offset": 11})
            {'dim0': 1, 'dim1': 2}
        """
        from linlayout import LinearLayout

        fwd = self.tile.to_linear(shape, hardware_first=False)
        name = "register" if "register" in fwd.out_dims else "offset"
        if name not in fwd.out_dims:
            raise UnsupportedError("ComposeLayout.to_linear: the tile has no memory axis")
        top = max(fwd.out_dims[name], 1 << (self.per_element + self.swizzle_len + self.atom_len))
        fwd = LinearLayout(
            {n: [list(v) for v in bl] for n, bl in fwd.bases.items()},
            {**fwd.out_dims, name: top},
            require_surjective=False,
        )
        k = top.bit_length() - 1
        outs = list(fwd.out_dims)
        sw_bases = {}
        for n in outs:
            bl = []
            for j in range(fwd.out_dims[n].bit_length() - 1):
                v = [0] * len(outs)
                v[outs.index(n)] = int(self._swz(1 << j)) if n == name else 1 << j
                bl.append(v)
            sw_bases[n] = bl
        del k
        sw = LinearLayout(sw_bases, dict(fwd.out_dims), require_surjective=False)
        res = fwd.compose(sw)
        if not hardware_first:
            return res
        logical = [n for n in fwd.in_dim_names if n != "replica"]
        return _hardware_first(res, logical)
