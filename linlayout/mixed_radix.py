"""General-shape (mixed-radix) layouts: the backend for extents GF(2) cannot express.

A :class:`MixedRadixLayout` is an integer map from named input dims to named output axes.  Each input
dim is split into mixed-radix *digits*; a digit has an ``extent``, a ``stride`` and the output
``axis`` its stride lands on.  A layout may also carry *replicas* (one logical element stored at
several physical places, each replica digit adding ``stride * r`` on its axis) and a constant
``offset`` per axis.

Conventions (stated once, used everywhere):

* **Digits of an in-dim are listed fastest first** (colexicographic, as CuTe and as the bases of a
  :class:`~linlayout.LinearLayout`): an in-dim with digits ``(e0, s0, a0), (e1, s1, a1), ...`` takes
  the value ``x = d0 + e0 * (d1 + e1 * (d2 + ...))`` with ``0 <= dk < ek``.
* **In-dims are flattened first-fastest** too: row ``k`` of :meth:`MixedRadixLayout.table` is the
  flat input ``k`` whose lowest "digit" is the first in-dim (as ``LinearLayout.table``).
* The base image is ``L(x)[a] = offset[a] + sum(dk * sk for digits on axis a)``; the full image is
  the *set* ``{L(x) + R(r)}`` over every replica index ``r`` (replicas are left out of
  :meth:`MixedRadixLayout.apply`, as TIRx's ``apply`` leaves them out).

Row-major forms (TIRx shard iters, Tilus modes) list their factors slowest first: reverse them
when building a layout.

    >>> L = MixedRadixLayout({"x": [(112, 1, "TCol"), (2, 112, "TCol")]})
    >>> L.apply(x=113)
    {'TCol': 113}
    >>> L.is_linear()
    False
    >>> [(p.in_start, p.offset, p.layout.in_dims) for p in L.split_pow2()]
    [({'x': 0}, {'TCol': 0}, {'x': 128}), ({'x': 128}, {'TCol': 128}, {'x': 64}), ({'x': 192}, {'TCol': 192}, {'x': 32})]

Promotion to GF(2) (:meth:`MixedRadixLayout.to_linear`) is exact: it succeeds only when every extent
is a power of two, strides are non-negative, there is no offset, and on each axis the images
``stride * 2**j`` of all digit bits have pairwise disjoint binary supports (then ``+`` equals XOR).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .checks import as_int, expect, is_pow2
from .errors import (
    DimensionError,
    LayoutError,
    NotInvertibleError,
    NotLinearError,
    SizeError,
    UnsupportedError,
)
from .limits import MAX_ITEMS, MAX_RANK, MAX_TABLE_LOG2, as_list
from .tabulate import _tabulate_sparse

__all__ = ["Digit", "MixedRadixLayout", "Counterexample", "Pow2Piece", "MAX_TABLE_SIZE", "MAX_ENUMERATION", "to_digit"]

#: Largest number of inputs (times replicas) that the vectorized evaluators tabulate.
MAX_TABLE_SIZE = 1 << MAX_TABLE_LOG2
#: Largest number of points the checked enumeration fallback of :meth:`MixedRadixLayout.compose`
#: evaluates (for the cases the digit algebra cannot decide).
MAX_ENUMERATION = 1 << 20
#: Replica sets up to this size are listed in a replica :class:`Counterexample`.
_MAX_LISTED_REPLICAS = 4096


class Digit(NamedTuple):
    """One mixed-radix digit: ``extent`` values, each step adding ``stride`` on ``axis``.

        >>> Digit(4, 8, "m")
        Digit(extent=4, stride=8, axis='m')
    """

    extent: int
    stride: int
    axis: str

    def __str__(self) -> str:
        return f"{self.extent}:{self.stride}@{self.axis}"


@dataclass(frozen=True)
class Counterexample:
    """Where two layouts differ: the input ``point`` and what each layout gives there.

    ``left`` / ``right`` are the base images (``{axis: value}``) or, when ``reason`` is
    ``"replicas"``, the sorted lists of every replica image.
    """

    point: dict[str, int]
    left: Any
    right: Any
    reason: str = "base"

    def __str__(self) -> str:
        return f"at {self.point}: {self.left} != {self.right} ({self.reason})"


@dataclass(frozen=True)
class Pow2Piece:
    """One power-of-two piece of a layout (see :meth:`MixedRadixLayout.split_pow2`).

    For inputs ``in_start + y`` (``0 <= y[d] < layout.in_dims[d]``) the original layout gives
    ``layout(y) + offset``.
    """

    in_start: dict[str, int]
    offset: dict[str, int]
    layout: "MixedRadixLayout" = field(repr=False)


#: Integer arguments of the layout: the shared check, raising LayoutError as this module always has.
_as_int = functools.partial(as_int, error=LayoutError)


def _name(a: Any, what: str) -> str:
    """``a`` when it is a non-empty string (an in-dim or axis name); else a
    :class:`~linlayout.errors.DimensionError` naming ``what``.

        >>> _name("TCol", "an axis")
        'TCol'
    """
    if not isinstance(a, str) or not a:
        raise DimensionError(f"{what} must be a non-empty string, got {a!r:.60}")
    return a


def to_digit(d: Any, where: str) -> Digit:
    """A :class:`Digit` from an ``(extent, stride, axis)`` triple, checked (``where`` names it in
    errors).

        >>> to_digit((4, 8, "m"), "digit 0")
        Digit(extent=4, stride=8, axis='m')
    """
    if isinstance(d, Digit):
        e, s, a = d
    else:
        try:
            e, s, a = d
        except (TypeError, ValueError):
            raise LayoutError(f"{where} must be an (extent, stride, axis) triple, got {d!r}") from None
    e = _as_int(e, f"extent of {where}")
    s = _as_int(s, f"stride of {where}")
    if e < 1:
        raise SizeError(f"{where} has extent {e}; extents must be >= 1")
    return Digit(e, s, _name(a, f"the axis of {where}"))


def _coalesce_digits(digits: Sequence[Digit]) -> tuple[Digit, ...]:
    """Drop extent-1 digits and merge neighbours (fast, slow) with slow.stride == fast.extent * fast.stride."""
    out: list[Digit] = []
    for d in digits:
        if d.extent == 1:
            continue
        if out:
            p = out[-1]
            if (p.stride == 0 and d.stride == 0) or (p.axis == d.axis and d.stride == p.extent * p.stride):
                out[-1] = Digit(p.extent * d.extent, p.stride, p.axis)
                continue
        out.append(d)
    return tuple(out)


def _fit_digits(values: np.ndarray, axes: Sequence[str], what: str) -> tuple[Digit, ...] | None:
    """Recover digits (fastest first) of a 1-D table ``values`` (N, n_axes), relative to row 0.

    Returns None when the table is not a mixed-radix map.
    """
    n = values.shape[0]
    rel = values - values[0]
    digits: list[Digit] = []
    pos = 1
    default_axis = axes[0] if axes else "m"
    while pos < n:
        v = rel[pos]
        nz = np.nonzero(v)[0]
        if len(nz) > 1:
            return None
        if len(nz) == 1:
            axis, stride = axes[nz[0]], int(v[nz[0]])
        else:
            axis, stride = (digits[-1].axis if digits else default_axis), 0
        q = n // pos
        ks = np.arange(q, dtype=np.int64)
        ok = np.all(rel[ks * pos] == ks[:, None] * v[None, :], axis=1)
        run = q if ok.all() else int(np.argmin(ok))
        e = max(k for k in range(1, run + 1) if q % k == 0)
        if e == 1:
            return None
        digits.append(Digit(e, stride, axis))
        pos *= e
    return tuple(digits)


def _chain_key(dl: Sequence[Digit]) -> tuple[Digit, ...]:
    """The coalesced digit chain of an in-dim with every stride-0 digit on the same (empty) axis:
    equal keys exactly when the in-dims are the same function."""
    return _coalesce_digits([Digit(d.extent, 0, "") if d.stride == 0 else d for d in dl])


def _first_difference(a: Sequence[Digit], b: Sequence[Digit]) -> int | None:
    """The first input where two coalesced chains (of the same size) differ, or None."""
    place = 1
    for da, db in zip(a, b):
        if da == db:
            place *= da.extent
            continue
        if (da.stride, da.axis) != (db.stride, db.axis):
            return place  # the image of one step of this digit differs
        return place * min(da.extent, db.extent)  # one chain moves on to its next digit there
    return None if len(a) == len(b) else place


def _replica_signature(reps: Sequence[Digit]) -> tuple[int, dict[str, tuple[int, frozenset]]]:
    """What decides a replica multiset: the multiplicity of the stride-0 digits and, per axis, the
    lowest place and the signed multiset ``{e*|s|} - {|s|}`` (see :meth:`MixedRadixLayout.equivalent`)."""
    zero = 1
    per: dict[str, tuple[int, dict[int, int]]] = {}
    for d in reps:
        if d.extent == 1:
            continue
        if d.stride == 0:
            zero *= d.extent
            continue
        s = abs(d.stride)
        lo, c = per.setdefault(d.axis, (0, {}))
        if d.stride < 0:
            lo -= s * (d.extent - 1)
        c[s * d.extent] = c.get(s * d.extent, 0) + 1
        c[s] = c.get(s, 0) - 1
        per[d.axis] = (lo, c)
    sig = {}
    for a, (lo, c) in per.items():
        items = frozenset((k, v) for k, v in c.items() if v)
        if lo or items:
            sig[a] = (lo, items)
    return zero, sig


def _place_chain(od: Sequence[Digit], s: int, e: int, used: dict[int, int]) -> list[Digit] | None:
    """Where the values ``t * s`` (``0 <= t < e``, ``s > 0``) fall in the mixed radix of the digits
    ``od`` (fastest first): the chain of composite digits, adding to ``used`` (digit position ->
    sum of the largest values put there); None when they do not fall on whole sub-digits (a stride
    that does not divide or is not divided by an extent)."""
    m = len(od)
    j = 0
    while j < m and s >= od[j].extent and s % od[j].extent == 0:
        s //= od[j].extent
        j += 1
    if j == m:
        return None
    big = od[j].extent
    if s >= big:
        return None
    if (e - 1) * s < big:
        used[j] = used.get(j, 0) + (e - 1) * s
        return [Digit(e, od[j].stride * s, od[j].axis)]
    if big % s:
        return None
    q = big // s
    if e % q:
        return None
    chain = [Digit(q, od[j].stride * s, od[j].axis)]
    used[j] = used.get(j, 0) + big - s
    e //= q
    j += 1
    while e > 1:
        if j == m:
            return None
        big = od[j].extent
        if e <= big:
            chain.append(Digit(e, od[j].stride, od[j].axis))
            used[j] = used.get(j, 0) + e - 1
            break
        if e % big:
            return None
        if big > 1:
            chain.append(od[j])
            used[j] = used.get(j, 0) + big - 1
        e //= big
        j += 1
    return chain


class MixedRadixLayout:
    """A layout over mixed-radix digits: ``{in_dim: value}`` -> ``{axis: value}`` (plus replicas).

    Args:
        digits: in-dim name -> sequence of ``(extent, stride, axis)`` triples, **fastest first**
            (colexicographic).  An in-dim with no digits has size 1.  A sequence of
            ``(name, digits)`` pairs is accepted too.
        replicas: ``(extent, stride, axis)`` triples: each logical element is also stored at
            ``base + sum(r_k * stride_k)`` for every ``0 <= r_k < extent_k``.
        offset: axis -> constant added to the base image.
        out_dims: optional axis -> size (the extent of each output axis; used by :meth:`to_linear`,
            :meth:`inverse` and :meth:`complement`) or a sequence of axis names fixing the order.
            Sizes not given are inferred as ``max image + 1``.

    Raises:
        LayoutError / SizeError / DimensionError on malformed digits, names or sizes.

    Example (the Blackwell 224-column tensor-memory placement, in-dims (a, l, c) of TIRx's
    ``S[(2,128,112):(112@TCol,1@TLane,1@TCol)]``):

        >>> L = MixedRadixLayout({"c": [(112, 1, "TCol")], "l": [(128, 1, "TLane")], "a": [(2, 112, "TCol")]})
        >>> L.apply(a=1, l=127, c=111)
        {'TCol': 223, 'TLane': 127}
        >>> L.out_dims
        {'TCol': 224, 'TLane': 128}
        >>> L.table().shape
        (28672, 2)
    """

    __slots__ = ("_digits", "_replicas", "_offset", "_axes", "_out_sizes", "_hash")

    _hash: int | None

    def __init__(
        self,
        digits: Mapping[str, Sequence[Any]] | Sequence[tuple[str, Sequence[Any]]],
        replicas: Sequence[Any] = (),
        offset: Mapping[str, int] | None = None,
        out_dims: Mapping[str, int] | Sequence[str] | None = None,
    ):
        items = list(digits.items()) if isinstance(digits, Mapping) else as_list(digits, "digits", MAX_RANK)
        if offset is not None and not isinstance(offset, Mapping):
            raise LayoutError(f"offset must map axis names to ints, got {type(offset).__name__}")
        ds: list[tuple[str, tuple[Digit, ...]]] = []
        seen: set[str] = set()
        for item in items:
            try:
                name, dl = item
            except (TypeError, ValueError):
                raise LayoutError(f"digits must map in-dim names to digit lists, got {item!r}") from None
            if _name(name, "an in-dim name") in seen:
                raise DimensionError(f"in-dim {name!r} appears twice")
            seen.add(name)
            ds.append((name, tuple(to_digit(d, f"digit {i} of in-dim {name!r}")
                                   for i, d in enumerate(as_list(dl, f"the digits of in-dim {name!r}", MAX_ITEMS)))))
        reps = tuple(to_digit(d, f"replica {i}") for i, d in enumerate(as_list(replicas, "replicas", MAX_ITEMS)))
        off: dict[str, int] = {}
        for a, v in (offset or {}).items():
            off[_name(a, "an offset axis")] = _as_int(v, f"offset on axis {a!r}")
        # axis order: out_dims order, then first appearance
        axes: list[str] = []
        given: dict[str, int] = {}
        if out_dims is not None:
            if isinstance(out_dims, Mapping):
                for a, s in out_dims.items():
                    s = _as_int(s, f"size of axis {a!r}")
                    if s < 1:
                        raise SizeError(f"axis {a!r} has size {s}; sizes must be >= 1")
                    given[a] = s
                    axes.append(a)
            else:
                for a in as_list(out_dims, "out_dims", MAX_RANK):
                    if _name(a, "an out_dims axis") in axes:
                        raise DimensionError(f"axis {a!r} appears twice in out_dims")
                    axes.append(a)
        self._setup(tuple(ds), reps, off, axes, given)

    def _setup(
        self, ds: tuple[tuple[str, tuple[Digit, ...]], ...], reps: tuple[Digit, ...], off: dict[str, int], axes: list[str], given: Mapping[str, int]
    ) -> None:
        """Store checked parts; axes: the given order, then first appearance; sizes not given are
        inferred from the extreme images (no tabulation: the max of sums is the sum of maxes)."""
        hi: dict[str, int] = {a: 0 for a in axes}
        for _, dl in ds:
            for d in dl:
                if d.axis not in hi:
                    hi[d.axis] = 0
                    axes.append(d.axis)
                if d.stride > 0:
                    hi[d.axis] += d.stride * (d.extent - 1)
        for d in reps:
            if d.axis not in hi:
                hi[d.axis] = 0
                axes.append(d.axis)
            if d.stride > 0:
                hi[d.axis] += d.stride * (d.extent - 1)
        for a, v in off.items():
            if a not in hi:
                hi[a] = 0
                axes.append(a)
            hi[a] += v
        self._digits = ds
        self._replicas = reps
        self._offset = off
        self._axes = tuple(axes)
        self._out_sizes = {a: given[a] if a in given else max(hi[a] + 1, 1) for a in axes}
        self._hash = None

    @classmethod
    def _make(
        cls,
        ds: Sequence[tuple[str, tuple[Digit, ...]]],
        reps: tuple[Digit, ...],
        off: dict[str, int],
        axes: Sequence[str],
        sizes: Mapping[str, int] | None = None,
    ) -> MixedRadixLayout:
        """Internal constructor from parts already checked (Digit tuples, int offsets, axis order,
        optional axis sizes)."""
        self = object.__new__(cls)
        self._setup(tuple(ds), reps, off, list(axes), sizes or {})
        return self

    # ------------------------------------------------------------------ properties

    @property
    def digits(self) -> dict[str, tuple[Digit, ...]]:
        """in-dim name -> its digits, fastest first."""
        return dict(self._digits)

    @property
    def replicas(self) -> tuple[Digit, ...]:
        """The replica digits."""
        return self._replicas

    @property
    def offset(self) -> dict[str, int]:
        """axis -> constant offset (only the axes that have one)."""
        return dict(self._offset)

    @property
    def axes(self) -> tuple[str, ...]:
        """Output axis names, in order."""
        return self._axes

    @property
    def out_dims(self) -> dict[str, int]:
        """axis -> size (given, or inferred as the largest image + 1)."""
        return {a: self._out_sizes[a] for a in self._axes}

    @property
    def in_dims(self) -> dict[str, int]:
        """in-dim name -> size (product of its digit extents)."""
        return {n: math.prod(d.extent for d in dl) for n, dl in self._digits}

    @property
    def in_dim_names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self._digits)

    @property
    def size(self) -> int:
        """Number of logical elements (product of the in-dim sizes)."""
        return math.prod(self.in_dims.values())

    @property
    def num_replicas(self) -> int:
        """Places each element is stored at (product of the replica extents)."""
        return math.prod(d.extent for d in self._replicas)

    def all_digits(self) -> list[tuple[str, int, Digit]]:
        """Every digit as ``(in_dim, index, digit)``."""
        return [(n, i, d) for n, dl in self._digits for i, d in enumerate(dl)]

    # ------------------------------------------------------------------ evaluation

    def _point(self, inputs: Mapping[str, int] | Sequence[int] | None, kwargs: Mapping[str, int]) -> dict[str, int]:
        dims = self.in_dims
        if inputs is None:
            inputs = {}
        if not isinstance(inputs, Mapping):
            vals = as_list(inputs, "apply: inputs (a mapping of in-dims to ints, or a list of them)", MAX_RANK)
            if len(vals) != len(dims):
                raise DimensionError(f"apply: got {len(vals)} coordinates, the layout has {len(dims)} in-dims {list(dims)}")
            inputs = dict(zip(dims, vals))
        point = {**inputs, **kwargs}
        out = {}
        for n, v in point.items():
            if n not in dims:
                raise DimensionError(f"apply: {n!r} is not an in-dim of this layout (in-dims: {', '.join(dims) or 'none'})")
            v = _as_int(v, f"input {n!r}")
            if not 0 <= v < dims[n]:
                raise DimensionError(f"apply: input {n}={v} is out of range [0, {dims[n]})")
            out[n] = v
        return out

    def apply(self, inputs: Mapping[str, int] | Sequence[int] | None = None, /, **kwargs: int) -> dict[str, int]:
        """The base image of one input (replicas left out): ``{axis: value}`` for every axis.

        Missing in-dims count as 0; ``inputs`` may also be a sequence in in-dim order.

            >>> L = MixedRadixLayout({"x": [(3, 1, "m"), (4, 8, "laneid")]}, offset={"warpid": 5})
            >>> L.apply(x=7)
            {'m': 1, 'laneid': 16, 'warpid': 5}
            >>> L(x=7) == L.apply([7])
            True
        """
        point = self._point(inputs, kwargs)
        res = {a: self._offset.get(a, 0) for a in self._axes}
        for n, dl in self._digits:
            v = point.get(n, 0)
            for d in dl:
                res[d.axis] += (v % d.extent) * d.stride
                v //= d.extent
        return res

    __call__ = apply

    def apply_all(self, inputs: Mapping[str, int] | Sequence[int] | None = None, /, **kwargs: int) -> list[dict[str, int]]:
        """Every place of one input: the base image plus each replica (replica index colex order).

            >>> L = MixedRadixLayout({"x": [(2, 1, "m")]}, replicas=[(2, 4, "warpid")], offset={"warpid": 5})
            >>> L.apply_all(x=1)
            [{'m': 1, 'warpid': 5}, {'m': 1, 'warpid': 9}]
        """
        base = self.apply(inputs, **kwargs)
        out = []
        for row in self.replica_table():
            out.append({a: base[a] + int(row[i]) for i, a in enumerate(self._axes)})
        return out

    def _check_table_size(self, n: int) -> None:
        if n > MAX_TABLE_SIZE:
            raise SizeError(f"table: the layout has {n} entries; at most {MAX_TABLE_SIZE} can be tabulated")

    def _sparse(self, digits: Sequence[Digit]) -> tuple[list[tuple[int, int, int]], int]:
        """Digits as ``(extent, stride, column)`` for :func:`~linlayout.tabulate._tabulate_sparse`,
        and the number of rows of their table."""
        col = {a: i for i, a in enumerate(self._axes)}
        out = [(e, s, col[a]) for e, s, a in digits]
        return out, math.prod([e for e, _, _ in out])

    def table(self) -> np.ndarray:
        """Base images of every input at once: array ``(size, len(axes))`` (vectorized).

        Row ``k`` is the flat input ``k``, first in-dim fastest, digits fastest first.  The dtype is
        the smallest integer type that holds every image (unsigned when none is negative; ``uint64``
        up to ``2**64 - 1``); images beyond 64 bits come as Python ints in an object array, so the
        table always agrees with :meth:`apply`.  Computed as a cache-resident block of the fastest digits plus a
        short table of the rest, in one broadcast write (see :mod:`linlayout.tabulate`): peak
        memory is the output.

            >>> MixedRadixLayout({"x": [(2, 3, "m")], "y": [(2, 1, "laneid")]}).table().tolist()
            [[0, 0], [3, 0], [0, 1], [3, 1]]
            >>> MixedRadixLayout({"x": [(4, 2**62, "m")]}).table().dtype
            dtype('uint64')
        """
        digits, n = self._sparse([d for _, dl in self._digits for d in dl])
        self._check_table_size(n)
        return _tabulate_sparse(digits, self._base(), n)

    def _base(self) -> tuple[int, ...]:
        return tuple(self._offset.get(a, 0) for a in self._axes)

    def replica_table(self) -> np.ndarray:
        """Offsets of every replica: array ``(num_replicas, len(axes))`` (row 0 is all zero)."""
        digits, n = self._sparse(self._replicas)
        self._check_table_size(n)
        return _tabulate_sparse(digits, (0,) * len(self._axes), n)

    def full_table(self) -> np.ndarray:
        """Every place of every input: array ``(size, num_replicas, len(axes))``."""
        digits, n = self._sparse(list(self._replicas) + [d for _, dl in self._digits for d in dl])
        self._check_table_size(n)
        return _tabulate_sparse(digits, self._base(), n).reshape(self.size, self.num_replicas, len(self._axes))

    def _unflatten(self, k: int) -> dict[str, int]:
        out = {}
        for n, s in self.in_dims.items():
            out[n] = k % s
            k //= s
        return out

    # ------------------------------------------------------------------ construction helpers

    @classmethod
    def from_table(
        cls,
        in_dims: Mapping[str, int],
        table: np.ndarray,
        axes: Sequence[str],
        replicas: Sequence[Any] = (),
        out_dims: Mapping[str, int] | Sequence[str] | None = None,
    ) -> MixedRadixLayout:
        """Recover the mixed-radix layout whose :meth:`table` is ``table`` (exact or refused).

        ``table`` has one row per flat input (first in-dim fastest) and one column per axis.
        Row 0 becomes the offset.

            >>> t = MixedRadixLayout({"x": [(3, 1, "m"), (2, 10, "m")]}).table()
            >>> MixedRadixLayout.from_table({"x": 6}, t, ["m"]).digits
            {'x': (Digit(extent=3, stride=1, axis='m'), Digit(extent=2, stride=10, axis='m'))}

        Raises:
            UnsupportedError: the table is not a mixed-radix map (e.g. a swizzle).
        """
        if not isinstance(in_dims, Mapping):
            raise DimensionError(f"from_table: in_dims must map in-dim names to sizes, got {in_dims!r:.80}")
        table = _exact_ints(table)
        axes = as_list(axes, "from_table: axes", MAX_RANK)
        names = list(in_dims)
        sizes = [_as_int(in_dims[n], f"size of in-dim {n!r}") for n in names]
        total = math.prod(sizes)
        if table.ndim != 2 or table.shape != (total, len(axes)):
            raise SizeError(f"from_table: expected a table of shape ({total}, {len(axes)}), got {table.shape}")
        base = table[0] if total else np.zeros(len(axes), dtype=np.int64)
        digits = []
        stride_flat = 1
        for n, s in zip(names, sizes):
            idx = np.arange(s, dtype=np.int64) * stride_flat
            fitted = _fit_digits(table[idx], list(axes), n) if s > 1 else ()
            if fitted is None:
                raise UnsupportedError(f"from_table: in-dim {n!r} is not a mixed-radix map of its input")
            digits.append((n, fitted))
            stride_flat *= s
        off = {a: int(base[i]) for i, a in enumerate(axes) if base[i] != 0}
        res = cls(digits, replicas=replicas, offset=off, out_dims=out_dims if out_dims is not None else list(axes))
        got = res.table()
        if not np.array_equal(got, table):
            k = int(np.argmax(np.any(got != table, axis=1)))
            raise UnsupportedError(
                f"from_table: the table is not a mixed-radix map (at input {res._unflatten(k)} the best fit "
                f"gives {got[k].tolist()}, the table {table[k].tolist()})"
            )
        return res

    def with_out_dims(self, out_dims: Mapping[str, int] | Sequence[str]) -> MixedRadixLayout:
        """The same map with other output sizes / axis order."""
        return MixedRadixLayout(self._digits, self._replicas, self._offset, out_dims)

    def rename_axes(self, mapping: Mapping[str, str]) -> MixedRadixLayout:
        """Rename output axes (axes mapped to the same name are added together).

            >>> MixedRadixLayout({"x": [(4, 1, "m")]}).rename_axes({"m": "offset"}).axes
            ('offset',)
        """
        expect(mapping, Mapping, "MixedRadixLayout.rename_axes: mapping")
        r = lambda a: mapping.get(a, a)  # noqa: E731
        digits = [(n, [Digit(d.extent, d.stride, r(d.axis)) for d in dl]) for n, dl in self._digits]
        reps = [Digit(d.extent, d.stride, r(d.axis)) for d in self._replicas]
        off: dict[str, int] = {}
        for a, v in self._offset.items():
            off[r(a)] = off.get(r(a), 0) + v
        axes = []
        for a in self._axes:
            if r(a) not in axes:
                axes.append(r(a))
        return MixedRadixLayout(digits, reps, off, axes)

    # ------------------------------------------------------------------ algebra

    def coalesce(self) -> MixedRadixLayout:
        """The same function with the fewest digits: drop extent-1 digits, merge contiguous neighbours.

            >>> MixedRadixLayout({"x": [(2, 1, "m"), (1, 7, "m"), (4, 2, "m")]}).coalesce().digits
            {'x': (Digit(extent=8, stride=1, axis='m'),)}
        """
        return MixedRadixLayout(
            [(n, _coalesce_digits(dl)) for n, dl in self._digits],
            _coalesce_digits(self._replicas),
            {a: v for a, v in self._offset.items() if v != 0},
            self.out_dims,
        )

    def canonical(self) -> MixedRadixLayout:
        """A canonical form: equal functions (base and replica set) give equal canonical forms
        whenever both are coalesced mixed-radix maps of the same in-dims.

        Digits are coalesced; stride-0 digits are put on the first axis; replicas are sorted by
        (axis, stride) and coalesced; zero offsets are dropped.

            >>> a = MixedRadixLayout({"x": [(2, 1, "m"), (2, 2, "m")]}, replicas=[(2, 8, "w"), (2, 4, "w")])
            >>> b = MixedRadixLayout({"x": [(4, 1, "m")]}, replicas=[(4, 4, "w")])
            >>> a.canonical() == b.canonical()
            True
        """
        first = self._axes[0] if self._axes else "m"

        def norm(dl: Sequence[Digit]) -> list[Digit]:
            return [Digit(d.extent, 0, first) if d.stride == 0 else d for d in dl]

        reps = sorted((d for d in norm(self._replicas) if d.extent > 1), key=lambda d: (d.stride == 0, d.axis, d.stride, d.extent))
        return MixedRadixLayout(
            [(n, _coalesce_digits(norm(_coalesce_digits(dl)))) for n, dl in self._digits],
            _coalesce_digits(reps),
            {a: v for a, v in self._offset.items() if v != 0},
            self.out_dims,
        )

    def __eq__(self, other: object) -> bool:
        """Structural equality (same digits, replicas, offsets, axes and sizes).  For equality as
        functions use :meth:`equivalent`."""
        if not isinstance(other, MixedRadixLayout):
            return NotImplemented
        return (
            self._digits == other._digits
            and self._replicas == other._replicas
            and {a: v for a, v in self._offset.items() if v} == {a: v for a, v in other._offset.items() if v}
            and self.out_dims == other.out_dims
        )

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash((self._digits, self._replicas, tuple(sorted((a, v) for a, v in self._offset.items() if v)), tuple(self.out_dims.items())))
        return h

    def counterexample(self, other: MixedRadixLayout) -> Counterexample | None:
        """None when both layouts are the same map (base images and replica sets), else a
        :class:`Counterexample`.  Axes missing on one side count as 0 there.

        Decided on the digits, never by enumerating points, in time linear in the number of digits:

        * base images: per in-dim, the coalesced digit chains (stride-0 digits on no particular
          axis) are equal exactly when the functions are (a coalesced chain is unique: the first
          digit is the image of 1, its extent the first input where the images stop growing by
          that step), so a difference gives the first input where they differ;
        * replica sets (multisets of places): per axis, the generating polynomial of the set is
          ``x**min * prod((1 - x**(e*|s|)) / (1 - x**|s|))`` times the multiplicity of stride-0
          replica digits; since ``1 - x**n`` factors uniquely into cyclotomic polynomials, two
          sets are equal exactly when their minima, multiplicities and the signed multisets
          ``{e*|s|} - {|s|}`` agree.

            >>> a = MixedRadixLayout({"x": [(4, 1, "m")]})
            >>> b = MixedRadixLayout({"x": [(2, 1, "m"), (2, 3, "m")]})
            >>> print(a.counterexample(b))
            at {'x': 2}: {'m': 2} != {'m': 3} (base)
            >>> c = MixedRadixLayout({"x": [(4, 1, "m")]}, replicas=[(3, 1, "w"), (2, 3, "w")])
            >>> c.counterexample(MixedRadixLayout({"x": [(2, 1, "m"), (2, 2, "m")]}, replicas=[(2, 1, "w"), (3, 2, "w")])) is None
            True

        Raises:
            DimensionError: the in-dims (names or sizes) differ.
        """
        if not isinstance(other, MixedRadixLayout):
            other = _as_general(other)
        if self.in_dims != other.in_dims:
            raise DimensionError(f"equivalent: in-dims differ: {self.in_dims} vs {other.in_dims}")
        axes = list(self._axes) + [a for a in other._axes if a not in self._axes]
        zero = {n: 0 for n in self.in_dims}

        def images(point: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
            pa, pb = self.apply(point), other.apply(point)
            return {a: pa.get(a, 0) for a in axes}, {a: pb.get(a, 0) for a in axes}

        if {a: v for a, v in self._offset.items() if v} != {a: v for a, v in other._offset.items() if v}:
            return Counterexample(zero, *images(zero))
        odig = dict(other._digits)
        for n, dl in self._digits:
            x = _first_difference(_chain_key(dl), _chain_key(odig[n]))
            if x is not None:
                point = {**zero, n: x}
                return Counterexample(point, *images(point))
        if _replica_signature(self._replicas) != _replica_signature(other._replicas):
            if max(self.num_replicas, other.num_replicas) <= _MAX_LISTED_REPLICAS:
                return Counterexample(zero, self.apply_all(), other.apply_all(), "replicas")
            return Counterexample(zero, [str(d) for d in self._replicas], [str(d) for d in other._replicas], "replicas")
        return None

    def is_equivalent(self, other: MixedRadixLayout) -> bool:
        """True when :meth:`equivalent` finds no counterexample."""
        return self.counterexample(other) is None

    def compose(self, outer: MixedRadixLayout) -> MixedRadixLayout:
        """``outer(self(x))``: the axes of ``self`` are the in-dims of ``outer``.

        Replicas of ``self`` are pushed through ``outer``; replicas of ``outer`` are kept.

        Computed on the digits, as CuTe composes shape:stride: each digit ``(e, s)`` of ``self`` on
        axis ``a`` becomes the chain of ``outer``'s digits of in-dim ``a`` that ``t * s`` runs
        through (``s`` divided through the extents below it, then ``e`` taken from the ones above).
        That is exact when, on every axis, the values of the digits of ``self`` (and its offset)
        never carry in ``outer``'s mixed radix (digit by digit, the largest values add up to less
        than the extent), so that ``outer`` of a sum is the sum of the images.  The cases the
        digits cannot decide -- a stride that does not divide (or is not divided by) an extent, or
        two digits whose values carry -- fall back to evaluating every point (at most
        ``MAX_ENUMERATION`` of them, inputs times replicas) and refitting; the result is exact or
        refused.

            >>> inner = MixedRadixLayout({"x": [(4, 2, "i")]})
            >>> outer = MixedRadixLayout({"i": [(8, 3, "m")]})
            >>> inner.compose(outer).digits
            {'x': (Digit(extent=4, stride=6, axis='m'),)}
            >>> MixedRadixLayout({"x": [(4, 56, "i"), (56, 1, "i")]}).compose(MixedRadixLayout({"i": [(7, 1, "r"), (32, 7, "c")]})).digits
            {'x': (Digit(extent=4, stride=56, axis='c'), Digit(extent=7, stride=1, axis='r'), Digit(extent=8, stride=7, axis='c'))}

        Raises:
            DimensionError: an axis of ``self`` is not an in-dim of ``outer``, or an image falls
                outside it.
            UnsupportedError: the composite is not a mixed-radix map, or the digits cannot decide
                and the layout has more than ``MAX_ENUMERATION`` points.
        """
        if not isinstance(outer, MixedRadixLayout):
            outer = _as_general(outer)
        od = outer.in_dims
        for a in self._axes:
            if a not in od:
                raise DimensionError(f"compose: axis {a!r} of the inner layout is not an in-dim of the outer layout (in-dims: {list(od)})")
        ranges = self._ranges()
        for a in self._axes:
            lo, hi = ranges[a]
            if lo < 0 or hi >= od[a]:
                point = self._extreme_point(a, lo < 0)
                raise DimensionError(
                    f"compose: the inner layout sends input {point} (replica digits at their "
                    f"{'lowest' if lo < 0 else 'highest'}) to {a}={lo if lo < 0 else hi}, outside the outer in-dim {a!r} of size {od[a]}"
                )
        res = self._compose_digits(outer, ranges)
        return res if res is not None else self._compose_enumerated(outer)

    def _ranges(self) -> dict[str, tuple[int, int]]:
        """axis -> smallest and largest value over every input and replica."""
        lo = {a: self._offset.get(a, 0) for a in self._axes}
        hi = dict(lo)
        for d in itertools.chain(*(dl for _, dl in self._digits), self._replicas):
            if d.stride < 0:
                lo[d.axis] += d.stride * (d.extent - 1)
            else:
                hi[d.axis] += d.stride * (d.extent - 1)
        return {a: (lo[a], hi[a]) for a in self._axes}

    def _axis_range(self, a: str) -> tuple[int, int]:
        """Smallest and largest value on axis ``a`` over every input and replica."""
        return self._ranges()[a]

    def _extreme_point(self, a: str, lowest: bool) -> dict[str, int]:
        """The input whose image on axis ``a`` is the smallest (``lowest``) or the largest."""
        point = {}
        for n, dl in self._digits:
            x, place = 0, 1
            for d in dl:
                if d.axis == a and (d.stride < 0) == lowest and d.stride != 0:
                    x += (d.extent - 1) * place
                place *= d.extent
            point[n] = x
        return point

    def _compose_digits(self, outer: MixedRadixLayout, ranges: Mapping[str, tuple[int, int]] | None = None) -> MixedRadixLayout | None:
        """:meth:`compose` on the digits; None when the digit algebra cannot decide."""
        if ranges is None:
            ranges = self._ranges()
        odig = dict(outer._digits)
        zero_axis = outer._axes[0] if outer._axes else "m"
        used: dict[str, dict[int, int]] = {a: {} for a in self._axes}
        parts: list[tuple[str | None, list[Digit]]] = []  # the in-dims, then None: the replicas
        chains: Iterable[tuple[str | None, tuple[Digit, ...]]] = itertools.chain(self._digits, ((None, self._replicas),))
        for n, dl in chains:
            chain: list[Digit] = []
            for d in dl:
                e, s = d.extent, d.stride
                if e == 1:
                    continue
                if s == 0:
                    chain.append(Digit(e, 0, zero_axis))
                    continue
                placed = _place_chain(odig[d.axis], -s if s < 0 else s, e, used[d.axis])
                if placed is None:
                    return None
                if s < 0:  # t*s == g(e-1-t) - g(e-1) reads the chain backwards
                    placed = [Digit(c.extent, -c.stride, c.axis) for c in placed]
                chain += placed
            parts.append((n, chain))
        reps = parts.pop()[1]
        digits = [(str(n), _coalesce_digits(c)) for n, c in parts]
        # carry check: per outer digit, the lowest image's digit plus every digit's largest value
        off = dict(outer._offset)
        for a in self._axes:
            rest = ranges[a][0]
            u = used[a]
            for j, od in enumerate(odig[a]):
                if rest % od.extent + u.get(j, 0) >= od.extent:
                    return None
                rest //= od.extent
            v = self._offset.get(a, 0)  # the offset's image: outer's digits of it
            for od in odig[a]:
                if v % od.extent:
                    off[od.axis] = off.get(od.axis, 0) + v % od.extent * od.stride
                v //= od.extent
        return MixedRadixLayout._make(
            digits, _coalesce_digits([*reps, *outer._replicas]), {a: v for a, v in off.items() if v}, outer._axes
        )

    def _compose_enumerated(self, outer: MixedRadixLayout) -> MixedRadixLayout:
        """:meth:`compose` by evaluating every point and refitting (the checked fallback)."""
        od = outer.in_dims
        n = self.size * self.num_replicas
        if max(n, outer.size) > MAX_ENUMERATION:
            raise UnsupportedError(
                f"compose: the digits of {self} do not compose with {outer} (a stride does not divide an extent, "
                f"or digit values carry), and enumerating {max(n, outer.size)} points exceeds the cap of {MAX_ENUMERATION}"
            )
        full = self.full_table().astype(np.int64)  # (size, R, axes): in range, checked by compose
        nrep = full.shape[1]
        flat = full.transpose(1, 0, 2).reshape(-1, len(self._axes))  # replica slowest
        idx = np.zeros(flat.shape[0], dtype=np.int64)
        mult = 1
        for name in od:
            if name in self._axes:
                idx += flat[:, self._axes.index(name)] * mult
            mult *= od[name]
        res = _exact_ints(outer.table())[idx]
        rep_name = "__replica__"
        while rep_name in self.in_dims:
            rep_name += "_"
        dims = {**self.in_dims, rep_name: nrep}
        fitted = MixedRadixLayout.from_table(dims, res, outer._axes)
        reps = list(fitted.digits[rep_name]) + list(outer._replicas)
        return MixedRadixLayout([(n, fitted.digits[n]) for n in self.in_dims], reps, fitted.offset, list(outer._axes))

    def invert(self, in_dim_names: Sequence[str] | None = None) -> MixedRadixLayout:
        """The inverse map from places to inputs, when the layout (with its replicas) covers the box
        ``[0, out_dims[a])`` of every axis exactly once; replica copies map to the same input.

        The result's in-dims are this layout's axes (sizes ``out_dims``), its axes this layout's
        in-dims (or ``in_dim_names``).

        Decided on the digits: the digits on an axis tile ``[0, n)`` exactly once if and only if,
        sorted by ``|stride|``, each stride is the product of the extents below it (1 first) and
        the extents multiply to ``n`` (the generating polynomial ``(1 - x**n) / (1 - x)`` factors
        uniquely), with the lowest image at 0.  The inverse then reads the sorted chain: each
        digit goes back to its place value in its in-dim (0 for a replica).

            >>> L = MixedRadixLayout({"x": [(2, 4, "m"), (4, 1, "m")]})
            >>> Li = L.invert()
            >>> Li.digits
            {'m': (Digit(extent=4, stride=2, axis='x'), Digit(extent=2, stride=1, axis='x'))}
            >>> [Li(m=L(x=k)["m"])["x"] for k in range(8)]
            [0, 1, 2, 3, 4, 5, 6, 7]

        Raises:
            NotInvertibleError: some place is hit twice or never (the message names one).
        """
        axes = list(self._axes)
        sizes = [self._out_sizes[a] for a in axes]
        box = math.prod(sizes)
        in_sizes = [math.prod(d.extent for d in dl) for _, dl in self._digits]
        nrep = self.num_replicas
        n = math.prod(in_sizes) * nrep
        if box != n:
            raise NotInvertibleError(
                f"inverse: the layout has {n // nrep} inputs x {nrep} replicas = {n} places, "
                f"but its output box {dict(zip(axes, sizes))} has {box}"
            )
        names = as_list(in_dim_names, "invert: in_dim_names", MAX_RANK) if in_dim_names is not None else [d for d, _ in self._digits]
        names = [_name(x, "inverse: in_dim_names") for x in names]  # before a set of them is built
        if len(names) != len(self._digits) or len(set(names)) != len(names):
            raise DimensionError(f"inverse: in_dim_names {names} must name the {len(self._digits)} in-dims {list(self.in_dims)} once each")
        zero_axis = names[0] if names else "m"
        # per axis: (|stride|, extent, target name or None for a replica, place value, negative?)
        per_axis: dict[str, list[tuple[int, int, str | None, int, bool]]] = {a: [] for a in axes}
        for (dim, dl), name in zip(self._digits, names):
            place = 1
            for k, d in enumerate(dl):
                if d.extent > 1:
                    if d.stride == 0:
                        raise NotInvertibleError(f"inverse: digit {k} of in-dim {dim!r} ({d}) has stride 0, so its {d.extent} values share one place")
                    per_axis[d.axis].append((abs(d.stride), d.extent, name, place, d.stride < 0))
                place *= d.extent
        for k, d in enumerate(self._replicas):
            if d.extent > 1:
                if d.stride == 0:
                    raise NotInvertibleError(f"inverse: replica {k} ({d}) has stride 0, so its {d.extent} copies share one place")
                per_axis[d.axis].append((abs(d.stride), d.extent, None, 0, d.stride < 0))
        digits: list[tuple[str, tuple[Digit, ...]]] = []
        off: dict[str, int] = {}
        ranges = self._ranges()
        for a, size in zip(axes, sizes):
            lo, hi = ranges[a]
            if lo < 0 or hi >= size:
                raise NotInvertibleError(f"inverse: images on axis {a!r} leave [0, {size}) (they span [{lo}, {hi}])")
            if lo > 0:
                raise NotInvertibleError(f"inverse: place {a}=0 is never reached (the lowest image is {lo})")
            chain: list[Digit] = []
            span = 1
            for s, e, tgt, place, neg in sorted(per_axis[a], key=lambda t: (t[0], t[1])):
                if s < span:
                    raise NotInvertibleError(f"inverse: place {a}={s} is reached twice (by a digit of stride {s} and by the digits below it)")
                if s > span:
                    raise NotInvertibleError(f"inverse: place {a}={span} is never reached (the next stride on {a!r} is {s})")
                if tgt is None:
                    chain.append(Digit(e, 0, zero_axis))
                elif neg:
                    chain.append(Digit(e, -place, tgt))
                    off[tgt] = off.get(tgt, 0) + (e - 1) * place
                else:
                    chain.append(Digit(e, place, tgt))
                span *= e
            if span != size:
                raise NotInvertibleError(f"inverse: place {a}={span} is never reached (the digits on {a!r} cover [0, {span}))")
            digits.append((a, _coalesce_digits(chain)))
        out_sizes = dict(zip(names, in_sizes))
        return MixedRadixLayout._make(digits, (), off, names, out_sizes)

    def complement(self, out_dims: Mapping[str, int] | None = None, in_dim: str = "rest") -> MixedRadixLayout:
        """A layout over ``in_dim`` that fills the places this layout (with replicas) leaves empty, so
        that (self, complement) together cover the box of ``out_dims`` once (CuTe's complement,
        per axis; offsets and stride-0 digits play no part).  Computed on the digits: per axis,
        sorted by stride, each gap between the span of the digits below and the next stride becomes
        a complement digit, and one more digit reaches the size (rounded up to a whole span).

            >>> L = MixedRadixLayout({"x": [(4, 2, "m")]})
            >>> L.complement({"m": 16}).digits
            {'rest': (Digit(extent=2, stride=1, axis='m'), Digit(extent=2, stride=8, axis='m'))}

        Raises:
            UnsupportedError: the digits on some axis are not nested (a stride is not a multiple of
                the span below it) or there are negative strides.
        """
        if not isinstance(in_dim, str):
            raise DimensionError(f"complement: in_dim must be a name (str), got {type(in_dim).__name__} {in_dim!r:.80}")
        sizes = dict(self.out_dims)
        if out_dims is not None:
            if not isinstance(out_dims, Mapping):
                raise DimensionError(f"complement: out_dims must map axis names to sizes, got {out_dims!r:.80}")
            sizes.update({k: as_int(v, f"complement: out_dims[{k!r:.40}]") for k, v in out_dims.items()})
        digits: list[Digit] = []
        all_d = [d for _, dl in self._digits for d in dl] + list(self._replicas)
        for a in self._axes:
            ds = sorted((d for d in all_d if d.axis == a and d.extent > 1 and d.stride != 0), key=lambda d: (d.stride, d.extent))
            cur = 1
            for d in ds:
                if d.stride < 0:
                    raise UnsupportedError(f"complement: negative stride {d} on axis {a!r}")
                if d.stride % cur:
                    raise UnsupportedError(f"complement: digit {d} on axis {a!r} is not a multiple of the span {cur} below it")
                if d.stride // cur > 1:
                    digits.append(Digit(d.stride // cur, cur, a))
                cur = d.stride * d.extent
            top = -(-sizes[a] // cur)
            if top > 1:
                digits.append(Digit(top, cur, a))
        return MixedRadixLayout({in_dim: digits}, out_dims=self._axes)

    # ------------------------------------------------------------------ GF(2)

    def _linear_obstruction(self) -> str | None:
        if any(v != 0 for v in self._offset.values()):
            return f"the constant offset {self._offset} is affine, not linear"
        masks: dict[str, tuple[int, str]] = {}
        named = [(f"digit {i} of in-dim {n!r} ({d.extent}:{d.stride}@{d.axis})", d) for n, i, d in self.all_digits()]
        named += [(f"replica {i} ({d.extent}:{d.stride}@{d.axis})", d) for i, d in enumerate(self._replicas)]
        for what, d in named:
            if not is_pow2(d.extent):
                return f"{what} has extent {d.extent}, not a power of two"
            if d.stride < 0:
                return f"{what} has a negative stride"
            for j in range(d.extent.bit_length() - 1):
                img = d.stride << j
                if img == 0:
                    continue
                m, who = masks.get(d.axis, (0, ""))
                if img & m:
                    return f"{what}: bit image {img} on axis {d.axis!r} overlaps the binary support of {who} (addition would carry)"
                masks[d.axis] = (m | img, what)
        return None

    def is_linear(self) -> bool:
        """Whether :meth:`to_linear` would succeed (before output-size checks)."""
        return self._linear_obstruction() is None

    def to_linear(self, out_dims: Mapping[str, int] | None = None, replica_dim: str = "replica") -> Any:
        """Promote to a :class:`~linlayout.LinearLayout` when that is faithful.

        In-dims keep their names, one basis per digit bit (fastest first); replicas become one more
        in-dim ``replica_dim``; output sizes are ``out_dims`` or the inferred sizes rounded up to
        powers of two.

            >>> L = MixedRadixLayout({"x": [(4, 1, "m"), (2, 8, "m")]})
            >>> L.to_linear().bases
            {'x': ((1,), (2,), (8,))}

        Raises:
            NotLinearError: naming the offending digit (extent not a power of two, overlapping
                binary supports, negative stride) or the offset.
        """
        from .linear import LinearLayout

        if out_dims is not None:
            out_dims = expect(out_dims, Mapping, "to_linear: out_dims (axis name -> size)")
        why = self._linear_obstruction()
        if why is not None:
            raise NotLinearError(f"to_linear: {why}")
        sizes = {}
        for a in self._axes:
            s = (out_dims or {}).get(a)
            if s is None:
                s = 1 << max(self._out_sizes[a] - 1, 0).bit_length()
            sizes[a] = s
        col = {a: i for i, a in enumerate(self._axes)}

        def bases(dl: Sequence[Digit]) -> list[list[int]]:
            out = []
            for d in dl:
                for j in range(d.extent.bit_length() - 1):
                    v = [0] * len(self._axes)
                    v[col[d.axis]] = d.stride << j
                    out.append(v)
            return out

        b = [(n, bases(dl)) for n, dl in self._digits]
        if self._replicas and math.prod(d.extent for d in self._replicas) > 1:
            if replica_dim in self.in_dims:
                raise DimensionError(f"to_linear: replica_dim {replica_dim!r} is already an in-dim")
            b.append((replica_dim, bases(self._replicas)))
        return LinearLayout(b, sizes, require_surjective=False)

    @classmethod
    def from_linear(cls, L: Any, replica_dim: str | None = None) -> MixedRadixLayout:
        """Demote a :class:`~linlayout.LinearLayout` whose XOR is an addition: every basis has one
        nonzero output and, per output, all bases have disjoint binary supports.

        ``replica_dim`` (if given and present) becomes the replicas.

            >>> from linlayout import LinearLayout
            >>> L = LinearLayout({"x": [[1], [2], [8]]}, {"m": 16}, require_surjective=False)
            >>> MixedRadixLayout.from_linear(L).digits
            {'x': (Digit(extent=4, stride=1, axis='m'), Digit(extent=2, stride=8, axis='m'))}

        Raises:
            NotLinearError: a basis touches two outputs, or two bases overlap (XOR is not +).
        """
        from .linear import LinearLayout  # linear.py imports this module

        expect(L, LinearLayout, "MixedRadixLayout.from_linear: L")
        outs = list(L.out_dims)
        masks = {a: 0 for a in outs}
        digits: list[tuple[str, tuple[Digit, ...]]] = []
        reps: list[Digit] = []
        for n, bl in L.bases.items():
            dl = []
            for i, vec in enumerate(bl):
                nz = [k for k, v in enumerate(vec) if v]
                if len(nz) > 1:
                    raise NotLinearError(f"from_linear: basis {i} of in-dim {n!r} {list(vec)} has several nonzero outputs; a digit has one axis")
                if not nz:
                    dl.append(Digit(2, 0, outs[0] if outs else "m"))
                    continue
                a, v = outs[nz[0]], vec[nz[0]]
                if masks[a] & v:
                    raise NotLinearError(f"from_linear: basis {i} of in-dim {n!r} ({v} on {a!r}) overlaps earlier bases; XOR is not addition there")
                masks[a] |= v
                dl.append(Digit(2, v, a))
            if n == replica_dim:
                reps = dl
            else:
                digits.append((n, _coalesce_digits(dl)))
        return cls(digits, _coalesce_digits(reps), None, dict(L.out_dims))

    def split_pow2(self) -> list[Pow2Piece]:
        """Split the inputs into power-of-two boxes (224 = 128 + 64 + 32 per in-dim) on each of
        which the layout is a mixed-radix map with power-of-two in-dims and no offset, so GF(2) tools
        can work piecewise (a piece is split further when its restriction is not mixed-radix).

            >>> L = MixedRadixLayout({"x": [(7, 1, "m")]})
            >>> [(p.in_start["x"], p.layout.in_dims["x"], p.offset["m"]) for p in L.split_pow2()]
            [(0, 4, 0), (4, 2, 4), (6, 1, 6)]
        """
        dims = self.in_dims
        ranges = []
        for n, s in dims.items():
            parts, start = [], 0
            for b in reversed(range(s.bit_length())):
                if s >> b & 1:
                    parts.append((start, 1 << b))
                    start += 1 << b
            ranges.append(parts)
        table = _exact_ints(self.table())
        names = list(dims)
        sizes = list(dims.values())
        out: list[Pow2Piece] = []

        def piece(starts: list[int], lens: list[int]) -> None:
            grids = np.meshgrid(*[np.arange(st, st + ln) for st, ln in zip(starts, lens)], indexing="ij")
            flat: np.ndarray = np.zeros(grids[0].shape if grids else (), dtype=np.int64)
            mult = 1
            for g, s in zip(grids, sizes):
                flat = flat + g * mult
                mult *= s
            # order rows first-in-dim fastest: transpose so the first axis varies fastest
            flat = np.transpose(flat).reshape(-1) if grids else np.zeros(1, dtype=np.int64)
            sub = table[flat]
            base = sub[0].copy()
            try:
                lay = MixedRadixLayout.from_table(dict(zip(names, lens)), sub - base, self._axes, self._replicas, list(self._axes))
            except UnsupportedError:
                k = max(range(len(lens)), key=lambda i: lens[i])
                if lens[k] == 1:  # pragma: no cover - a single point always fits
                    raise
                half = lens[k] // 2
                piece(starts, lens[:k] + [half] + lens[k + 1:])
                piece(starts[:k] + [starts[k] + half] + starts[k + 1:], lens[:k] + [half] + lens[k + 1:])
                return
            out.append(Pow2Piece(dict(zip(names, starts)), {a: int(base[i]) for i, a in enumerate(self._axes)}, lay.coalesce()))

        for combo in itertools.product(*ranges):
            piece([c[0] for c in combo], [c[1] for c in combo])
        return out

    # ------------------------------------------------------------------ printing

    def __repr__(self) -> str:
        ds = ", ".join(f"{n!r}: [{', '.join(str(d) for d in dl)}]" for n, dl in self._digits)
        s = f"MixedRadixLayout({{{ds}}}"
        if self._replicas:
            s += f", replicas=[{', '.join(str(d) for d in self._replicas)}]"
        if any(self._offset.values()):
            s += f", offset={ {a: v for a, v in self._offset.items() if v} }"
        return s + ")"

    def to_general(self, shape: Any = None) -> MixedRadixLayout:
        """Itself (the duck-typed protocol of layouts)."""
        return self


def _exact_ints(t: Any) -> np.ndarray:
    """``t`` as int64, or as Python ints (object) when some value is outside int64."""
    try:
        t = np.asarray(t)
    except ValueError as e:  # a ragged list
        raise LayoutError(f"a table must be a rectangular array of integers: {e}") from None
    if t.dtype.kind not in "iubO" or (t.dtype == object and not all(isinstance(v, int) for v in t.flat)):
        raise LayoutError(f"a table must hold integers, got an array of {t.dtype}")
    if t.dtype == object or (t.dtype == np.uint64 and t.size and int(t.max()) > np.iinfo(np.int64).max):
        return t.astype(object)
    return t.astype(np.int64, copy=False)


def _as_general(obj: Any) -> MixedRadixLayout:
    if isinstance(obj, MixedRadixLayout):
        return obj
    if hasattr(obj, "to_general"):
        return obj.to_general()
    if hasattr(obj, "bases") and hasattr(obj, "out_dims"):
        return MixedRadixLayout.from_linear(obj)
    raise LayoutError(f"expected a layout, got {type(obj).__name__}")
