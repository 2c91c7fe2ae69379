"""``LinearLayout``: a layout as a linear map over GF(2), with Triton's model and answers.

A linear layout maps named *input* dimensions (``register``, ``lane``, ``warp``, ``block`` for a
distributed tensor; ``offset`` for shared memory; ``row``, ``col`` for tensor memory) to named
*output* dimensions (``dim0``, ``dim1``, ...), every size a power of two.  Basis ``i`` of an input
dimension is the image of the input value ``2**i``; any other input is the XOR of the bases of its
set bits.  This is the model of Triton's ``LinearLayout`` (``include/triton/Tools/LinearLayout.h``),
and every operation here gives the same answer as Triton's, so results can be checked bit for bit.

    >>> L = LinearLayout({"register": [[0, 1]], "lane": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 2})
    >>> L.apply({"register": 1, "lane": 3})
    {'dim0': 3, 'dim1': 1}
    >>> L(register=0, lane=2)
    {'dim0': 2, 'dim1': 0}
    >>> L.is_invertible()
    True
    >>> L.invert().compose(L) == LinearLayout.identity_1d(4, "dim0", "dim0") * LinearLayout.identity_1d(2, "dim1", "dim1")
    True

Internally each basis is stored *flat*: one integer with the output dims packed, the first output
dim in the lowest bits (Triton's ``flattenOuts`` order), so the linear algebra runs on machine-word
integers (see :mod:`linlayout.gf2`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence, Sized
from typing import TYPE_CHECKING, Any, Union, cast

import numpy as np

from . import gf2
from .checks import as_int, expect, is_pow2, log2
from .linear_text import read_linear_text
from .tabulate import _smallest_dtype, _tabulate_xor, smallest_dtype
from .errors import (
    BasisError,
    DimensionError,
    LayoutError,
    NotInvertibleError,
    NotSurjectiveError,
    SizeError,
)

# The caps on table sizes (2**24 rows) and on total bits (62, so that flat values stay within
# numpy's int64) live with the other input limits.
from .limits import MAX_ITEMS, MAX_NAME, MAX_RANK, MAX_TABLE_LOG2, MAX_TOTAL_LOG2, as_list

if TYPE_CHECKING:  # pragma: no cover
    import galois

__all__ = ["LinearLayout", "supremum", "column_action_values"]

BasesLike = Union[Mapping[str, Sequence[Sequence[int]]], Sequence[tuple[str, Sequence[Sequence[int]]]]]
OutDimsLike = Union[Mapping[str, int], Sequence[str], Sequence[tuple[str, int]]]

#: Input dims up to this many bits get a lookup table for ``apply``...
_APPLY_TABLE_LOG2 = 10
#: ...built on this call of ``apply`` on one layout (before it, ``apply`` XORs bases: a table of
#: 2**10 entries costs about as much as 50 such calls, so it is built only once it is likely to pay).
_APPLY_TABLE_CALLS = 32


#: Integer arguments of the layout API: the shared check, raising BasisError as the API always has.
_as_int = functools.partial(as_int, error=BasisError)

#: What a dim name may look like: the names Triton prints and our text form reads back.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\Z")


#: Dim names already checked by :func:`_check_name` (bounded: when full, names are checked again).
_GOOD_NAMES: set[str] = set()


def _check_name(name: Any, what: str) -> str:
    if type(name) is str and name in _GOOD_NAMES:
        return name
    if not isinstance(name, str) or not name:
        raise DimensionError(f"{what} names must be non-empty strings, got {name!r}")
    if len(name) > MAX_NAME or not _NAME.match(name):
        raise DimensionError(f"{what} name {name[:60]!r} is not a name such as dim0 or register "
                             f"(a letter or '_', then letters, digits, '_' or '.'; at most {MAX_NAME} characters)")
    if type(name) is str and len(_GOOD_NAMES) < 4096:
        _GOOD_NAMES.add(name)
    return name


def _items(obj: Any, what: str) -> list[tuple[Any, Any]]:
    if isinstance(obj, Mapping):
        return list(obj.items())
    if isinstance(obj, (str, bytes)) or not isinstance(obj, Iterable):
        raise LayoutError(f"{what} must be a mapping or a sequence of (name, value) pairs, got {obj!r:.80}")
    items = as_list(obj, what, MAX_RANK)
    out = []
    for item in items:
        if isinstance(item, str) or not isinstance(item, Sequence) or len(item) != 2:
            raise LayoutError(f"{what} must be a mapping or a sequence of (name, value) pairs; got the item {item!r}")
        out.append((item[0], item[1]))
    return out


def _dim_names(names: Any) -> list:
    """A list of dim names from any iterable of them (a mapping: its keys), at most MAX_RANK long;
    each a string (a name no layout has is the caller's to judge)."""
    out = list(names) if isinstance(names, Mapping) else as_list(names, "a list of dim names", MAX_RANK)
    for n in out:
        if type(n) is not str:
            _check_name(n, "dim")
    return out


def _new_dims(dims: Sequence[tuple[str, int]] | Mapping[str, int], kind: str, total_log2: int) -> list[tuple[str, int]]:
    """Validate the ``(name, size)`` list of a reshape: names unique, sizes powers of two that
    multiply to the layout's total size (``2**total_log2``)."""
    items: list[tuple[str, int]] = []
    total = 0
    for name, value in _items(dims, f"the new {kind}-dims"):
        n = _check_name(name, f"{kind}-dim")
        size = _as_int(value, f"size of {kind}-dim {n!r}")
        if not is_pow2(size):
            raise SizeError(f"reshape_{kind}s: {kind}-dim {n!r} has size {size}, not a power of two")
        items.append((n, size))
        total += log2(size)
    if total != total_log2:
        raise SizeError(f"reshape_{kind}s: new {kind}-dims have total size {1 << total}, but the layout has {1 << total_log2}")
    if len({n for n, _ in items}) != len(items):
        raise DimensionError(f"reshape_{kind}s: repeated {kind}-dim names in {items}")
    return items


def _merged_order(xs: Sequence[str], ys: Sequence[str]) -> list[str]:
    """The dim order of a direct product (Triton 3.9's ``operator*``): walking the dims common to
    both lists (in their shared relative order), each common dim comes after the not-yet-placed
    dims that precede it in ``xs``, then those that precede it in ``ys``; the dims after the last
    common one follow, ``xs``'s first.

        >>> _merged_order(["in2"], ["in1", "in2", "in3"])
        ['in1', 'in2', 'in3']
        >>> _merged_order(["x", "a"], ["b", "a", "c"])
        ['x', 'b', 'a', 'c']
    """
    ys_set = set(ys)
    out: list[str] = []
    i = j = 0
    for d in [x for x in xs if x in ys_set]:
        while xs[i] != d:
            out.append(xs[i])
            i += 1
        while ys[j] != d:
            out.append(ys[j])
            j += 1
        out.append(d)
        i += 1
        j += 1
    out.extend(xs[i:])
    out.extend(ys[j:])
    return out


def supremum(xs: Sequence[str], ys: Sequence[str]) -> list[str]:
    """The shortest list holding ``xs`` and ``ys`` as subsequences (Triton's ``supremum`` of two
    ordered lists of dim names, the dim order of a direct product); where several exist, ``xs``'s
    names come first.  Raises :class:`DimensionError` when the lists order two names both ways.

        >>> supremum(["a", "b"], ["a", "c"]), supremum(["a", "b"], ["b", "c"])
        (['a', 'b', 'c'], ['a', 'b', 'c'])
        >>> supremum(["a", "b"], ["b", "a"])
        Traceback (most recent call last):
        ...
        linlayout.errors.DimensionError: supremum: ['a', 'b'] and ['b', 'a'] order the names they share differently (['a', 'b'] vs ['b', 'a']); no list holds both
    """
    xs, ys = _dim_names(xs), _dim_names(ys)
    for what, names in (("first", xs), ("second", ys)):
        if len(set(names)) != len(names):
            raise DimensionError(f"supremum: the {what} list {names} repeats a name")
    in_y, in_x = set(ys), set(xs)
    common_x = [x for x in xs if x in in_y]
    common_y = [y for y in ys if y in in_x]
    if common_x != common_y:
        raise DimensionError(
            f"supremum: {xs} and {ys} order the names they share differently ({common_x} vs {common_y}); no list holds both")
    return _merged_order(xs, ys)


def _check_action(action: Sequence[int], size_log2: int, who: str) -> list[int]:
    act = as_list(action, f"{who}: action")
    out = []
    for a in act:
        a = _as_int(a, f"{who}: action entry")
        if not 0 <= a < size_log2:
            raise BasisError(f"{who}: action entry {a} is not the index of one of the {size_log2} bases")
        out.append(a)
    if len(set(out)) != len(out):
        raise BasisError(f"{who}: action {out} names a basis twice")
    return out


def column_action_values(values: Sequence[Any], action: Sequence[int]) -> list[Any]:
    """Values stored in the order of an in-dim (value ``i`` belongs to input ``i``) moved as
    :meth:`LinearLayout.apply_column_action` moves that in-dim's bases (Triton's
    ``ColumnAction::apply`` on values): output ``i`` is the value at the input whose bit
    ``action[k]`` is bit ``k`` of ``i``; inputs with a dropped bit set are dropped.  ``values``
    holds a power of two of entries.

        >>> column_action_values([1, 2, 3, 4, 5, 6, 7, 8], [2, 0, 1])
        [1, 5, 2, 6, 3, 7, 4, 8]
        >>> column_action_values([1, 2, 3, 4, 5, 6, 7, 8], [2, 1])
        [1, 5, 3, 7]
    """
    vals = as_list(values, "column_action_values: values")
    if not is_pow2(len(vals)):
        raise SizeError(f"column_action_values: {len(vals)} values; need a power of two (one per input)")
    act = _check_action(action, log2(len(vals)), "column_action_values")
    out = []
    for i in range(1 << len(act)):
        j = 0
        for k, a in enumerate(act):
            if i >> k & 1:
                j |= 1 << a
        out.append(vals[j])
    return out


#: The stored forms of layouts built by the public constructor (see :meth:`LinearLayout.__init__`).
_STORED: dict[tuple, tuple] = {}
_STORED_MAX = 4096

_Packing = tuple[tuple[int, ...], tuple[tuple[str, int, int], ...], int]
_OUT_PACKING: dict[tuple[tuple[str, int], ...], _Packing] = {}


_INT_TYPE = {int}

#: out-dims (as a tuple of (name, size) pairs) that :meth:`LinearLayout.from_flat` has checked:
#: the checked tuple and its total bits (bulk builders make layouts over a few out-dims).
_FLAT_OUTS: dict[tuple, tuple[tuple[tuple[str, int], ...], int]] = {}


def _out_packing(outs: tuple[tuple[str, int], ...]) -> _Packing:
    """Bit offsets of the out-dims in the flat form, (name, shift, mask) triples, and the total
    bits (memoized); every constructor passes here for a new out-dim list, so the rank limit is
    checked here."""
    if len(outs) > MAX_RANK:
        raise SizeError(f"a layout has at most {MAX_RANK} out-dims (linlayout.limits.MAX_RANK), got {len(outs)}")
    shifts = []
    acc = 0
    for _, s in outs:
        shifts.append(acc)
        acc += log2(s)
    packing = (tuple(shifts), tuple((n, sh, s - 1) for (n, s), sh in zip(outs, shifts)), acc)
    if len(_OUT_PACKING) < 4096:
        _OUT_PACKING[outs] = packing
    return packing


def _sized_len(x: Any) -> int | None:
    """``len(x)`` of a sized non-string, else None (numpy reads strings and unsized objects its own way)."""
    if isinstance(x, (str, bytes)):
        return None
    try:
        return len(x)
    except TypeError:
        return None


class LinearLayout:
    """A linear map over GF(2) from named input dims to named output dims (Triton's model).

    Args:
        bases: in-dim name -> list of basis vectors; basis ``i`` is the image of input ``2**i``, one
            int per output dim (in ``out_dims`` order). An empty list is a size-1 dim. A sequence of
            ``(name, bases)`` pairs is accepted too (the JSON form).
        out_dims: out-dim name -> power-of-two size; or a sequence of ``(name, size)`` pairs; or a
            sequence of names, whose sizes are then inferred as the smallest power of two larger
            than every basis value (as Triton does).
        require_surjective: refuse a layout that does not reach every output (Triton's default).

    Raises:
        DimensionError: repeated or malformed names.
        BasisError: a basis of the wrong length, negative, or not smaller than its out-dim size.
        SizeError: an out-dim size that is not a power of two.
        NotSurjectiveError: ``require_surjective`` and some output is never reached.

    Example:
        >>> L = LinearLayout({"lane": [[1], [2], [4], [8], [16]], "warp": [[32], [64]]}, ["dim0"])
        >>> L.out_dims
        {'dim0': 128}
        >>> print(L)
        <BLANKLINE>
         - lane=1 -> (1)
           lane=2 -> (2)
           lane=4 -> (4)
           lane=8 -> (8)
           lane=16 -> (16)
         - warp=1 -> (32)
           warp=2 -> (64)
        where out dims are: [dim0 (size 128)]
    """

    __slots__ = ("_ins", "_outs", "_stored", "_shifts", "_rank", "_hash", "_bases", "_tables", "_out_unpack", "_out_bits",
                 "_in_names", "_out_names")

    _ins: tuple[tuple[str, tuple[int, ...]], ...]
    _outs: tuple[tuple[str, int], ...]
    #: ``(_ins, _outs)``: the whole stored form in one tuple, which ``==`` and ``hash`` read
    _stored: tuple[tuple[tuple[str, tuple[int, ...]], ...], tuple[tuple[str, int], ...]]
    _shifts: tuple[int, ...]
    _out_unpack: tuple[tuple[str, int, int], ...]
    #: total bits of the out-dims
    _out_bits: int
    #: the in- and out-dim names (built on first use)
    _in_names: tuple[str, ...] | None
    _out_names: tuple[str, ...] | None
    _rank: int | None
    _hash: int | None
    _bases: dict[str, tuple[tuple[int, ...], ...]] | None
    #: the lookup tables of :meth:`apply` (in-dim -> (size, table or bases)), or before they are
    #: built the number of calls so far (None: none)
    _tables: dict[str, tuple[int, Sequence[int]]] | int | None

    # ----------------------------------------------------------------------------- construction

    def __init__(self, bases: BasesLike, out_dims: OutDimsLike, *, require_surjective: bool = True):
        in_items = _items(bases, "bases")
        seen: set[str] = set()
        for name, _ in in_items:
            _check_name(name, "in-dim")
            if name in seen:
                raise DimensionError(f"in-dim {name!r} appears twice in bases")
            seen.add(name)

        infer = False
        if isinstance(out_dims, Mapping):
            out_items = list(out_dims.items())
            if len(out_items) > MAX_RANK:
                raise SizeError(f"out_dims has {len(out_items)} dims; at most {MAX_RANK} are supported")
        else:
            if isinstance(out_dims, (str, bytes)) or not isinstance(out_dims, Iterable):
                raise LayoutError(f"out_dims must be a mapping, a list of names or of (name, size) pairs; got {out_dims!r:.80}")
            raw = as_list(out_dims, "out_dims", MAX_RANK)
            names = [x for x in raw if isinstance(x, str)]
            if len(names) == len(raw):
                infer = True
                out_items = [(x, 1) for x in names]
            else:
                out_items = _items(raw, "out_dims")
        out_names: list[str] = []
        for name, _ in out_items:
            _check_name(name, "out-dim")
            if name in out_names:
                raise DimensionError(f"out-dim {name!r} appears twice in out_dims")
            out_names.append(name)
        n_out = len(out_names)

        # Validate and normalize every basis vector.
        norm: list[tuple[str, list[tuple[int, ...]]]] = []
        for name, vecs in in_items:
            try:
                vecs = list(vecs)
            except TypeError:
                raise BasisError(f"bases of in-dim {name!r} must be a list of vectors, got {vecs!r}") from None
            rows = []
            for i, vec in enumerate(vecs):
                if isinstance(vec, (str, bytes)) or not isinstance(vec, Iterable):
                    raise BasisError(f"basis {i} of in-dim {name!r} must be a vector of {n_out} ints, got {vec!r}")
                vec = tuple(_as_int(x, f"basis {i} of in-dim {name!r}") for x in vec)
                if len(vec) != n_out:
                    raise BasisError(
                        f"basis {i} of in-dim {name!r} has {len(vec)} entries, expected one per out-dim "
                        f"({n_out}: {', '.join(out_names) or 'none'})"
                    )
                for k, x in enumerate(vec):
                    if x < 0:
                        raise BasisError(f"basis {i} of in-dim {name!r} has the negative value {x} for out-dim {out_names[k]!r}")
                rows.append(vec)
            norm.append((name, rows))

        if infer:
            sizes = [1] * n_out
            for _, rows in norm:
                for vec in rows:
                    for k, x in enumerate(vec):
                        if x >= sizes[k]:
                            sizes[k] = 1 << x.bit_length()
        else:
            sizes = []
            for name, size in out_items:
                size = _as_int(size, f"size of out-dim {name!r}")
                if not is_pow2(size):
                    raise SizeError(f"out-dim {name!r} has size {size}; out-dim sizes must be powers of two")
                sizes.append(size)
        outs = tuple(zip(out_names, sizes))
        if sum(log2(s) for s in sizes) > MAX_TOTAL_LOG2:
            raise SizeError(f"out-dims total {sum(log2(s) for s in sizes)} bits; at most {MAX_TOTAL_LOG2} are supported")

        shifts = []
        acc = 0
        for s in sizes:
            shifts.append(acc)
            acc += log2(s)
        ins = []
        for name, rows in norm:
            flat = []
            for i, vec in enumerate(rows):
                f = 0
                for k, x in enumerate(vec):
                    if x >= sizes[k]:
                        raise BasisError(
                            f"basis {i} of in-dim {name!r} has value {x} for out-dim {out_names[k]!r}, "
                            f"which has size {sizes[k]}: a basis value must be smaller than its out-dim size"
                        )
                    f |= x << shifts[k]
                flat.append(f)
            ins.append((name, tuple(flat)))
        if sum(len(f) for _, f in ins) > MAX_TOTAL_LOG2:
            raise SizeError(f"in-dims total {sum(len(f) for _, f in ins)} bits; at most {MAX_TOTAL_LOG2} are supported")
        self._init(tuple(ins), outs)
        # layouts built from the same spelling share one stored form, so == between them is an
        # identity check (the table is bounded: when full it starts again)
        stored = _STORED.setdefault(self._stored, self._stored)
        if stored is not self._stored:
            self._ins, self._outs = stored
            self._stored = stored
        elif len(_STORED) > _STORED_MAX:
            _STORED.clear()
        if require_surjective and not self.is_surjective():
            raise NotSurjectiveError(f"layout is not surjective: {self._unreached_description()}")

    def _init(self, ins: tuple[tuple[str, tuple[int, ...]], ...], outs: tuple[tuple[str, int], ...]) -> None:
        self._ins = ins
        self._outs = outs
        self._stored = (ins, outs)
        packing = _OUT_PACKING.get(outs)
        if packing is None:
            packing = _out_packing(outs)
        self._shifts, self._out_unpack, self._out_bits = packing
        self._in_names = self._out_names = None
        self._rank = None
        self._hash = None
        self._bases = None
        self._tables = None

    @classmethod
    def _make(cls, ins: Iterable[tuple[str, Iterable[int]]], outs: Iterable[tuple[str, int]]) -> LinearLayout:
        """Internal constructor from flat bases; no validation."""
        self = object.__new__(cls)
        self._init(tuple((n, tuple(f)) for n, f in ins), tuple(outs))
        return self

    @classmethod
    def _make_raw(cls, ins: tuple[tuple[str, tuple[int, ...]], ...], outs: tuple[tuple[str, int], ...]) -> LinearLayout:
        """Internal constructor from tuples already in the stored form."""
        self = object.__new__(cls)
        self._init(ins, outs)
        return self

    @classmethod
    def from_flat(
        cls, flat_bases: Mapping[str, Sequence[int]] | Sequence[tuple[str, Sequence[int]]], out_dims: OutDimsLike
    ) -> LinearLayout:
        """A layout from bases in flat form (as :meth:`flat_bases` gives them: out-dims packed into
        one int, the first out-dim in the lowest bits); the fast constructor for code that builds
        layouts in bulk.  Not required to be surjective.

            >>> L = LinearLayout.from_flat({"lane": [1, 2, 4], "warp": [0]}, [("dim0", 4), ("dim1", 2)])
            >>> L.bases["lane"], L.bases["warp"]
            (((1, 0), (2, 0), (0, 1)), ((0, 0),))
            >>> LinearLayout.from_flat({"lane": [16]}, [("dim0", 4), ("dim1", 2)])
            Traceback (most recent call last):
            ...
            linlayout.errors.BasisError: basis 0 of in-dim 'lane' is 16 in flat form; the out-dims have 3 bits, so it must be below 8
        """
        if isinstance(out_dims, Sized) and len(out_dims) > MAX_RANK:
            raise SizeError(f"from_flat: {len(out_dims)} out-dims; at most {MAX_RANK} are supported")
        known = None
        fast = type(out_dims) is list
        if fast:
            for x in cast(list, out_dims):
                if type(x) is not tuple or len(x) != 2 or type(x[0]) is not str or type(x[1]) is not int:
                    fast = False
                    break
            else:  # out-dims of exact types (a float or bool size equals an int key, so that is checked first)
                known = _FLAT_OUTS.get(tuple(out_dims))  # out-dims checked before
        if known is None:
            outs: list[tuple[str, int]] = []
            total = 0
            for name, value in (cast(list, out_dims) if fast else _items(out_dims, "out_dims")):
                _check_name(name, "out-dim")
                size = _as_int(value, f"size of out-dim {name!r}")
                if not is_pow2(size):
                    raise SizeError(f"out-dim {name!r} has size {size}; out-dim sizes must be powers of two")
                outs.append((name, size))
                total += log2(size)
            if len({n for n, _ in outs}) != len(outs):
                raise DimensionError(f"from_flat: repeated out-dim names in {[n for n, _ in outs]}")
            if total > MAX_TOTAL_LOG2:
                raise SizeError(f"out-dims total {total} bits; at most {MAX_TOTAL_LOG2} are supported")
            known = (tuple(outs), total)
            if fast and len(_FLAT_OUTS) < 4096:
                _FLAT_OUTS[tuple(out_dims)] = known
        stored_outs, total = known
        limit = 1 << total
        ins = []
        n_bits = 0
        for name, vecs in (flat_bases.items() if type(flat_bases) is dict else _items(flat_bases, "flat_bases")):
            _check_name(name, "in-dim")
            if type(vecs) is tuple or type(vecs) is list:
                flat = tuple(vecs)
            elif isinstance(vecs, (str, bytes, Mapping)) or not isinstance(vecs, Iterable):
                raise BasisError(f"flat bases of in-dim {name!r} must be a list of ints, got {str(vecs)[:60]}")
            else:  # any other iterable (a range, a generator): at most MAX_ITEMS entries
                flat = tuple(as_list(vecs, f"flat bases of in-dim {name!r}", MAX_ITEMS))
            if not set(map(type, flat)) <= _INT_TYPE:
                flat = tuple(_as_int(f, f"basis {i} of in-dim {name!r}") for i, f in enumerate(flat))
            if flat and (min(flat) < 0 or max(flat) >= limit):
                i, f = next((i, f) for i, f in enumerate(flat) if not 0 <= f < limit)
                raise BasisError(
                    f"basis {i} of in-dim {name!r} is {f} in flat form; the out-dims have {total} bits, "
                    f"so it must be below {limit}"
                )
            n_bits += len(flat)
            ins.append((name, flat))
        if len({n for n, _ in ins}) != len(ins):
            raise DimensionError(f"from_flat: repeated in-dim names in {[n for n, _ in ins]}")
        if n_bits > MAX_TOTAL_LOG2:
            raise SizeError(f"in-dims total {n_bits} bits; at most {MAX_TOTAL_LOG2} are supported")
        return cls._make_raw(tuple(ins), stored_outs)

    @classmethod
    def identity_1d(cls, size: int, in_dim: str, out_dim: str) -> LinearLayout:
        """The identity ``in_dim -> out_dim`` of a power-of-two ``size``.

            >>> LinearLayout.identity_1d(4, "lane", "dim0").bases
            {'lane': ((1,), (2,))}
            >>> LinearLayout.identity_1d(0, "lane", "dim0") == LinearLayout.empty()   # as Triton: size 0 is empty
            True
        """
        return cls.strided_1d(size, 1, in_dim, out_dim)

    @classmethod
    def strided_1d(cls, size: int, stride: int, in_dim: str, out_dim: str) -> LinearLayout:
        """``x -> stride * x`` for ``x < size`` (``size`` and ``stride`` powers of two), with the
        out-dim of size ``stride * size``; ``size`` 0 gives the empty layout (as Triton).

            >>> LinearLayout.strided_1d(4, 2, "register", "dim0").bases
            {'register': ((2,), (4,))}
            >>> LinearLayout.strided_1d(4, 2, "register", "dim0").out_dims
            {'dim0': 8}
            >>> LinearLayout.strided_1d(1, 4, "register", "dim0").out_dims
            {'dim0': 4}
        """
        size = _as_int(size, "size")
        stride = _as_int(stride, "stride")
        if size == 0:
            return cls.empty()
        if not is_pow2(size):
            raise SizeError(f"strided_1d: size {size} is not a power of two")
        if not is_pow2(stride):
            raise SizeError(f"strided_1d: stride {stride} is not a power of two")
        _check_name(in_dim, "in-dim")
        _check_name(out_dim, "out-dim")
        k = log2(size)
        return cls._make([(in_dim, [stride << i for i in range(k)])], [(out_dim, stride * size)])

    @classmethod
    def zeros_1d(cls, size: int, in_dim: str, out_dim: str, out_dim_size: int = 1) -> LinearLayout:
        """Every input of ``in_dim`` (a power-of-two ``size``) maps to 0: a broadcast; ``size`` 0
        gives the empty layout (as Triton).

            >>> LinearLayout.zeros_1d(4, "warp", "dim0").bases
            {'warp': ((0,), (0,))}
        """
        size = _as_int(size, "size")
        out_dim_size = _as_int(out_dim_size, "out_dim_size")
        if size == 0:
            return cls.empty()
        if not is_pow2(size):
            raise SizeError(f"zeros_1d: size {size} is not a power of two")
        if not is_pow2(out_dim_size):
            raise SizeError(f"zeros_1d: out_dim_size {out_dim_size} is not a power of two")
        _check_name(in_dim, "in-dim")
        _check_name(out_dim, "out-dim")
        return cls._make([(in_dim, [0] * log2(size))], [(out_dim, out_dim_size)])

    @classmethod
    def empty(cls) -> LinearLayout:
        """The layout with no dims at all (the unit of ``*``).

            >>> LinearLayout.empty() * LinearLayout.identity_1d(2, "a", "b") == LinearLayout.identity_1d(2, "a", "b")
            True
        """
        return cls._make([], [])

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], *, require_surjective: bool = False) -> LinearLayout:
        """Build from the JSON form of the oracle files.

            >>> LinearLayout.from_dict({"bases": [["lane", [[1], [2]]]], "out_dims": [["dim0", 4]]}).out_dims
            {'dim0': 4}
        """
        if not isinstance(d, Mapping) or "bases" not in d or "out_dims" not in d:
            raise LayoutError(f"a layout dict needs the keys 'bases' and 'out_dims', got {d!r}")
        return cls(d["bases"], d["out_dims"], require_surjective=require_surjective)

    @classmethod
    def from_text(cls, text: str) -> LinearLayout:
        """Parse the text Triton prints for a layout (or our ``str``/JSON form); see
        :func:`linlayout.linear_text.read_linear_text`.

            >>> L = LinearLayout.identity_1d(4, "lane", "dim0")
            >>> LinearLayout.from_text(str(L)) == L
            True
        """
        return cls.from_dict(read_linear_text(text))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"bases": [[in, [[...]...]]...], "out_dims": [[name, size]...]}``.

            >>> LinearLayout.identity_1d(2, "lane", "dim0").to_dict()
            {'bases': [['lane', [[1]]]], 'out_dims': [['dim0', 2]]}
        """
        return {
            "bases": [[n, [list(v) for v in vecs]] for n, vecs in self.bases.items()],
            "out_dims": [[n, s] for n, s in self._outs],
        }

    @classmethod
    def from_matrix(cls, matrix: Any, in_dims: Mapping[str, int], out_dims: Mapping[str, int]) -> LinearLayout:
        """Build from a GF(2) matrix: rows are output bits, columns input bits (dims in order).

            >>> import numpy as np
            >>> LinearLayout.from_matrix(np.array([[0, 1], [1, 0]]), {"lane": 4}, {"dim0": 4}).bases
            {'lane': ((2,), (1,))}
        """
        in_items = [(n, _as_int(s, f"size of in-dim {n!r}")) for n, s in _items(in_dims, "in_dims")]
        out_items = [(n, _as_int(s, f"size of out-dim {n!r}")) for n, s in _items(out_dims, "out_dims")]
        for n, s in in_items + out_items:
            if not is_pow2(s):
                raise SizeError(f"dim {n!r} has size {s}; sizes must be powers of two")
        n_in = sum(log2(s) for _, s in in_items)
        n_out = sum(log2(s) for _, s in out_items)
        if not isinstance(matrix, np.ndarray):
            # a sized sequence of the wrong length is refused before numpy copies it (range(10**12))
            rows = _sized_len(matrix)
            if rows is not None and rows != n_out:
                raise SizeError(f"matrix has {rows} rows, expected {n_out} (output bits)")
            if rows is not None and any(k is not None and k != n_in for k in map(_sized_len, matrix)):
                raise SizeError(f"matrix rows must have {n_in} entries (input bits)")
        try:
            raw = np.asarray(matrix)
        except (TypeError, ValueError):  # ragged, or too deep for numpy
            raise BasisError("a GF(2) matrix must be a rectangular array of 0s and 1s") from None
        if raw.dtype.kind not in "iub":  # floats (NaN, inf, 1.5) and strings are not bits
            raise BasisError(f"a GF(2) matrix holds 0s and 1s, got an array of {raw.dtype}")
        m = raw.astype(np.int64)
        if m.ndim != 2 or m.shape != (n_out, n_in):
            raise SizeError(f"matrix has shape {m.shape}, expected ({n_out}, {n_in}) = (output bits, input bits)")
        if np.any((m != 0) & (m != 1)):
            raise BasisError("a GF(2) matrix may hold only 0 and 1")
        cols = [int(sum(int(m[r, c]) << r for r in range(n_out))) for c in range(n_in)]
        ins = []
        c = 0
        for n, s in in_items:
            ins.append((n, cols[c:c + log2(s)]))
            c += log2(s)
        return cls._make(ins, out_items)

    # ------------------------------------------------------------------------------ properties

    @property
    def bases(self) -> dict[str, tuple[tuple[int, ...], ...]]:
        """In-dim name -> tuple of basis vectors (one int per out-dim)."""
        if self._bases is None:
            self._bases = {n: tuple(self._unflatten(f) for f in flat) for n, flat in self._ins}
        return dict(self._bases)

    @property
    def in_dims(self) -> dict[str, int]:
        """In-dim name -> size, in order."""
        return {n: 1 << len(f) for n, f in self._ins}

    @property
    def out_dims(self) -> dict[str, int]:
        """Out-dim name -> size, in order."""
        return dict(self._outs)

    @property
    def in_dim_names(self) -> tuple[str, ...]:
        names = self._in_names
        if names is None:
            names = self._in_names = tuple([n for n, _ in self._ins])
        return names

    @property
    def out_dim_names(self) -> tuple[str, ...]:
        names = self._out_names
        if names is None:
            names = self._out_names = tuple([n for n, _ in self._outs])
        return names

    @property
    def num_in_dims(self) -> int:
        return len(self._ins)

    @property
    def num_out_dims(self) -> int:
        return len(self._outs)

    def has_in_dim(self, name: str) -> bool:
        if type(name) is not str:
            _check_name(name, "in-dim")
        for n, _ in self._ins:
            if n == name:
                return True
        return False

    def has_out_dim(self, name: str) -> bool:
        if type(name) is not str:
            _check_name(name, "out-dim")
        for n, _ in self._outs:
            if n == name:
                return True
        return False

    def _in_flat(self, name: str) -> tuple[int, ...]:
        if type(name) is not str:
            _check_name(name, "in-dim")
        for n, f in self._ins:
            if n == name:
                return f
        raise DimensionError(f"in-dim {name!r} is not in this layout (in-dims: {', '.join(self.in_dim_names) or 'none'})")

    def _out_index(self, name: str) -> int:
        if type(name) is not str:
            _check_name(name, "out-dim")
        for i, (n, _) in enumerate(self._outs):
            if n == name:
                return i
        raise DimensionError(f"out-dim {name!r} is not in this layout (out-dims: {', '.join(self.out_dim_names) or 'none'})")

    def in_dim_size_log2(self, name: str) -> int:
        return len(self._in_flat(name))

    def in_dim_size(self, name: str) -> int:
        return 1 << len(self._in_flat(name))

    def out_dim_size(self, name: str) -> int:
        return self._outs[self._out_index(name)][1]

    def out_dim_size_log2(self, name: str) -> int:
        return log2(self.out_dim_size(name))

    @property
    def total_in_size_log2(self) -> int:
        return sum(len(f) for _, f in self._ins)

    @property
    def total_out_size_log2(self) -> int:
        return self._out_bits

    @property
    def total_in_size(self) -> int:
        return 1 << self.total_in_size_log2

    @property
    def total_out_size(self) -> int:
        return 1 << self.total_out_size_log2

    def get_basis(self, in_dim: str, i: int, out_dim: str | None = None) -> Any:
        """Basis ``i`` of ``in_dim`` (a tuple), or its component on ``out_dim`` (an int)."""
        flat = self._in_flat(in_dim)
        i = _as_int(i, f"basis index of in-dim {in_dim!r}")
        if not 0 <= i < len(flat):
            raise DimensionError(f"in-dim {in_dim!r} has {len(flat)} bases; there is no basis {i}")
        vec = self._unflatten(flat[i])
        return vec if out_dim is None else vec[self._out_index(out_dim)]

    def flat_bases(self, in_dim: str) -> tuple[int, ...]:
        """The bases of ``in_dim`` in flat form: one int each, the out-dims packed with the first
        out-dim in the lowest bits (Triton's ``flattenOuts`` order); ``()`` for an absent dim.

            >>> LinearLayout({"lane": [[1, 0], [0, 1]]}, {"dim0": 2, "dim1": 2}).flat_bases("lane")
            (1, 2)
        """
        if type(in_dim) is not str:
            _check_name(in_dim, "in-dim")
        for n, f in self._ins:
            if n == in_dim:
                return f
        return ()

    def _columns(self) -> list[int]:
        """All flat bases in in-dim order: the columns of the GF(2) matrix."""
        return [b for _, f in self._ins for b in f]

    def _unflatten(self, f: int) -> tuple[int, ...]:
        return tuple((f >> sh) & m for _, sh, m in self._out_unpack)

    def _describe_flat(self, f: int) -> str:
        return "(" + ", ".join(f"{n}={v}" for n, v in zip(self.out_dim_names, self._unflatten(f))) + ")"

    def _bit_name(self, flat_bit: int) -> str:
        """'dim1 bit 3' for a bit of the flat output."""
        for (n, s), sh in zip(self._outs, self._shifts):
            if sh <= flat_bit < sh + log2(s):
                return f"{n} bit {flat_bit - sh}"
        return f"bit {flat_bit}"  # pragma: no cover

    # ------------------------------------------------------------------------------ evaluation

    def apply(self, inputs: Mapping[str, int] | None = None, /, **kwargs: int) -> dict[str, int]:
        """Evaluate at one input: ``{in_dim: value}`` -> ``{out_dim: value}``.

        In-dims that are not given count as 0.  Values must lie in ``[0, size)``.

            >>> L = LinearLayout({"lane": [[1], [2]], "warp": [[4]]}, {"dim0": 8})
            >>> L.apply({"lane": 3, "warp": 1})
            {'dim0': 7}
            >>> L(lane=2)
            {'dim0': 2}
        """
        if inputs is None:
            inputs = kwargs
        elif kwargs or inputs.__class__ is not dict:
            if not isinstance(inputs, Mapping):
                raise LayoutError(f"apply: inputs must map in-dim names to ints, got {type(inputs).__name__}")
            inputs = {**inputs, **kwargs}
        tables = self._tables
        if tables.__class__ is not dict:  # the first calls: no tables yet (see _apply_untabled)
            return self._apply_untabled(inputs, tables)
        flat = 0
        for name, val in inputs.items():
            entry = tables.get(name)
            if entry is None:
                raise DimensionError(f"apply: {name!r} is not an in-dim of this layout (in-dims: {', '.join(self.in_dim_names) or 'none'})")
            size, table = entry
            if val.__class__ is not int:
                val = _as_int(val, f"input {name!r}")
            if not 0 <= val < size:
                raise DimensionError(f"apply: input {name}={val} is out of range [0, {size})")
            if table.__class__ is list:
                flat ^= table[val]
            else:
                for b in table:
                    if val & 1:
                        flat ^= b
                    val >>= 1
        return {n: (flat >> sh) & m for n, sh, m in self._out_unpack}

    __call__ = apply

    def _apply_untabled(self, inputs: Mapping[str, int], calls: object) -> dict[str, int]:
        """:meth:`apply` before the lookup tables pay: XOR the bases of the set bits, and count the
        calls (in ``_tables``) until the ``_APPLY_TABLE_CALLS``-th builds the tables."""
        calls = calls + 1 if isinstance(calls, int) else 1
        if calls >= _APPLY_TABLE_CALLS:
            self._build_apply_tables()
            return self.apply(inputs)
        self._tables = calls
        flat = 0
        for name, val in inputs.items():
            for n, f in self._ins:
                if n == name:
                    break
            else:
                raise DimensionError(f"apply: {name!r} is not an in-dim of this layout (in-dims: {', '.join(self.in_dim_names) or 'none'})")
            if val.__class__ is not int:
                val = _as_int(val, f"input {name!r}")
            if not 0 <= val < 1 << len(f):
                raise DimensionError(f"apply: input {name}={val} is out of range [0, {1 << len(f)})")
            i = 0
            while val:
                if val & 1:
                    flat ^= f[i]
                val >>= 1
                i += 1
        return {n: (flat >> sh) & m for n, sh, m in self._out_unpack}

    def _build_apply_tables(self) -> dict[str, tuple[int, Sequence[int]]]:
        tables: dict[str, tuple[int, Sequence[int]]] = {}
        for n, f in self._ins:
            if len(f) <= _APPLY_TABLE_LOG2:
                t = [0]
                for b in f:
                    t += [x ^ b for x in t]
                tables[n] = (1 << len(f), t)
            else:
                tables[n] = (1 << len(f), f)
        self._tables = tables
        return tables

    def apply_flat(self, flat_input: int) -> int:
        """Evaluate on the flattened input (first in-dim lowest bits) to the flattened output."""
        if flat_input.__class__ is not int:
            flat_input = _as_int(flat_input, "apply_flat: the flat input")
        out = 0
        for b in self._columns():
            if flat_input & 1:
                out ^= b
            flat_input >>= 1
        return out

    def flat_table(self) -> np.ndarray:
        """The flattened output of every flattened input, as a 1-D array of the smallest unsigned
        dtype that holds the flat outputs (vectorized, see :meth:`table`).

            >>> LinearLayout({"lane": [[1], [3]]}, {"dim0": 4}).flat_table().tolist()
            [0, 1, 3, 2]
        """
        self._check_table_size()
        mask = (1 << self.total_out_size_log2) - 1
        return _tabulate_xor(self._columns(), [(0, mask)], smallest_dtype(0, mask)).reshape(-1)

    def table(self) -> np.ndarray:
        """Outputs of every input at once: an array of shape ``(total_in_size, num_out_dims)`` of
        the smallest unsigned dtype that holds every out-dim's values (``uint8`` up to size 256).

        Row ``k`` holds the outputs of the flat input ``k``, whose lowest bits are the first in-dim.
        Computed as a cache-resident block of the lowest input bits XORed with a short table of
        the rest, written in one broadcast call (see :mod:`linlayout.tabulate`): close to numpy's
        time to write the array, peak memory the output itself.

            >>> L = LinearLayout({"register": [[0, 1]], "lane": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 2})
            >>> L.table()[:4].tolist()
            [[0, 0], [0, 1], [1, 0], [1, 1]]
            >>> L.table().dtype
            dtype('uint8')
        """
        cols = self._columns()
        if len(cols) > MAX_TABLE_LOG2:
            self._check_table_size()
        unpack = self._out_unpack
        return _tabulate_xor(cols, [(sh, m) for _, sh, m in unpack], _smallest_dtype(0, max((m for _, _, m in unpack), default=0)))

    def _check_table_size(self) -> None:
        n = self.total_in_size_log2
        if n > MAX_TABLE_LOG2:
            raise SizeError(f"table: the layout has 2**{n} inputs; at most 2**{MAX_TABLE_LOG2} can be tabulated")

    # ---------------------------------------------------------------------------- rank & kinds

    def rank(self) -> int:
        """The rank of the GF(2) matrix."""
        if self._rank is None:
            self._rank = gf2.rank(self._columns())
        return self._rank

    def is_surjective(self) -> bool:
        """Every output is reached (rank == total out bits)."""
        return self.rank() == self.total_out_size_log2

    def is_injective(self) -> bool:
        """No two inputs share an output (rank == total in bits)."""
        return self.rank() == self.total_in_size_log2

    def is_invertible(self) -> bool:
        """Surjective and square (as Triton's ``isInvertible``)."""
        return self.is_surjective() and self.total_in_size_log2 == self.total_out_size_log2

    def _unreached_description(self) -> str:
        basis = gf2.SpanBasis()
        for c in self._columns():
            basis.insert(c)
        for bit in range(self.total_out_size_log2):
            if not basis.contains(1 << bit):
                return f"{self._bit_name(bit)} is never reached"
        return "every output bit is reached"  # pragma: no cover

    def _kernel_description(self) -> str:
        cols = self._columns()
        x = gf2.kernel_vector(cols)
        if x is None:
            return "it is injective"  # pragma: no cover
        parts = []
        c = 0
        for n, f in self._ins:
            v = (x >> c) & ((1 << len(f)) - 1)
            if v:
                parts.append(f"{n}={v}")
            c += len(f)
        return f"the input ({', '.join(parts)}) maps to zero, as does the zero input"

    def free_variable_masks(self) -> dict[str, int]:
        """Per in-dim, the bits that never change the output (non-pivot columns; broadcast).

            >>> LinearLayout({"lane": [[1], [0], [2]], "warp": [[1]]}, {"dim0": 4}).free_variable_masks()
            {'lane': 2, 'warp': 1}
        """
        pivots = set(gf2.pivot_columns(self._columns()))
        out = {}
        c = 0
        for n, f in self._ins:
            mask = 0
            for i in range(len(f)):
                if c not in pivots:
                    mask |= 1 << i
                c += 1
            out[n] = mask
        return out

    # ---------------------------------------------------------------------------------- algebra

    def compose(self, outer: LinearLayout) -> LinearLayout:
        """``outer`` after ``self``: the layout ``x -> outer(self(x))``.

        ``self``'s out-dims must be ``outer``'s in-dims (any order), each no larger.

            >>> a = LinearLayout({"lane": [[1], [2]]}, {"offset": 4})
            >>> b = LinearLayout({"offset": [[0, 1], [1, 0]]}, {"dim0": 2, "dim1": 2})
            >>> a.compose(b).bases
            {'lane': ((0, 1), (1, 0))}
        """
        expect(outer, LinearLayout, "LinearLayout.compose: outer")
        outer_in = dict(outer._ins)
        if len(outer_in) != len(self._outs) or any(n not in outer_in for n, _ in self._outs):
            raise DimensionError(
                f"compose: the out-dims of the first layout ({', '.join(self.out_dim_names)}) must be the "
                f"in-dims of the outer layout ({', '.join(outer.in_dim_names)})"
            )
        # The image in ``outer`` of every bit of self's flat output, keyed by the bit's value.
        images: dict[int, int] = {}
        bit = 1
        for n, s in self._outs:
            of = outer_in[n]
            if s > (1 << len(of)):
                raise SizeError(f"compose: out-dim {n!r} has size {s} but the outer in-dim {n!r} has size {1 << len(of)}")
            for j in range(log2(s)):
                images[bit] = of[j]
                bit <<= 1
        new_ins = []
        images[0] = 0
        for n, flat in self._ins:
            new_ins.append((n, tuple(gf2.images_over_units(images, flat))))
        return LinearLayout._make_raw(tuple(new_ins), outer._outs)

    def invert_and_compose(self, outer: LinearLayout) -> LinearLayout:
        """The layout ``C`` with ``self(x) == outer(C(x))`` for every ``x`` (Triton's choice).

        ``C`` maps ``self``'s in-dims to ``outer``'s in-dims.  ``self`` and ``outer`` must have the
        same out-dims, each of ``outer``'s at least as large as ``self``'s (Triton 3.9 reads
        ``self`` as a map into ``outer``'s larger space; it uses that for subviews), and every
        output of ``self`` must be an output of ``outer`` (true
        whenever ``outer`` is surjective; Triton asserts surjectivity in debug builds only, and its
        release builds solve exactly this weaker condition).  An in-dim whose bases are equal in
        both layouts, and whose output bits no other in-dim of either layout touches, maps to
        itself (Triton's broadcasting heuristic); the rest is Triton's least-squares solve: each
        input is written over the pivot columns of ``outer`` (free columns zero).
        This is the conversion map of a ``convert_layout`` from ``self`` to ``outer``.

            >>> src = LinearLayout({"register": [[1]], "lane": [[2]]}, {"dim0": 4})
            >>> dst = LinearLayout({"register": [[2]], "lane": [[1]]}, {"dim0": 4})
            >>> src.invert_and_compose(dst).bases
            {'register': ((0, 1),), 'lane': ((1, 0),)}
            >>> sub = LinearLayout({"lane": [[1]]}, {"dim0": 2})     # a view of 2 of 4 elements
            >>> C = sub.invert_and_compose(LinearLayout({"offset": [[1], [2]]}, {"dim0": 4}))
            >>> C.bases, C.out_dims
            ({'lane': ((1,),)}, {'offset': 4})
        """
        expect(outer, LinearLayout, "LinearLayout.invert_and_compose: outer")
        A, B = outer, self
        if set(A.out_dim_names) != set(B.out_dim_names):
            raise DimensionError(
                f"invert_and_compose: both layouts need the same out-dims; got ({', '.join(B.out_dim_names)}) "
                f"and ({', '.join(A.out_dim_names)})"
            )
        if A.out_dim_names != B.out_dim_names:
            A = A.transpose_outs(B.out_dim_names)
        for (n, s), (_, t) in zip(B._outs, A._outs):
            if s > t:
                raise SizeError(
                    f"invert_and_compose: out-dim {n!r} has size {s} in this layout but only {t} in the outer one; "
                    "the outer layout's out-dims must be at least as large"
                )
        if B._outs != A._outs:
            B = B._grow_outs(A._outs)
        b_in = dict(B._ins)
        # Triton's broadcasting heuristic: an in-dim with the same bases on both sides maps to
        # itself, provided no other in-dim of either layout touches the output bits it touches.
        identity = []
        for n, f in A._ins:
            if n in b_in and b_in[n] == f:
                support = 0
                for v in f:
                    support |= v
                others = 0
                for lay in (A, B):
                    for m, g in lay._ins:
                        if m != n:
                            for v in g:
                                others |= v
                if support & others == 0:
                    identity.append(n)
        a_red = [(n, f) for n, f in A._ins if n not in identity]
        basis = gf2.SpanBasis()
        for _, f in a_red:
            for v in f:
                basis.insert(v)
        # Bit offsets of A's reduced in-dims within the solution mask.
        red_offsets = {}
        c = 0
        for n, f in a_red:
            red_offsets[n] = c
            c += len(f)
        out_items = [(n, 1 << len(f)) for n, f in A._ins]
        out_shift = {}
        acc = 0
        for n, s in out_items:
            out_shift[n] = acc
            acc += log2(s)
        new_ins = []
        for n, f in B._ins:
            if n in identity:
                sh = out_shift[n]
                new_ins.append((n, [1 << (sh + i) for i in range(len(f))]))
                continue
            col = []
            for i, v in enumerate(f):
                x = basis.express(v)
                if x is None:
                    raise NotSurjectiveError(
                        f"invert_and_compose: no C with self(x) == outer(C(x)) exists: {n}={1 << i} of this layout "
                        f"maps to {B._describe_flat(v)}, which the outer layout never reaches"
                    )
                y = 0
                for m, g in a_red:
                    part = (x >> red_offsets[m]) & ((1 << len(g)) - 1)
                    y |= part << out_shift[m]
                col.append(y)
            new_ins.append((n, col))
        return LinearLayout._make(new_ins, out_items)

    def _grow_outs(self, outs: tuple[tuple[str, int], ...]) -> LinearLayout:
        """The same map into larger out-dims ``outs`` (same names and order, each size at least
        this layout's): only the packing of the flat bases changes."""
        mapping = [(sh, m, nsh) for (_, sh, m), nsh in zip(self._out_unpack, (_OUT_PACKING.get(outs) or _out_packing(outs))[0])]

        def move(f: int) -> int:
            v = 0
            for sh, m, nsh in mapping:
                v |= ((f >> sh) & m) << nsh
            return v

        return LinearLayout._make([(n, [move(b) for b in f]) for n, f in self._ins], outs)

    def _identity_on_outs(self) -> LinearLayout:
        return LinearLayout._make(
            [(n, [1 << (sh + i) for i in range(log2(s))]) for (n, s), sh in zip(self._outs, self._shifts)], self._outs
        )

    def pseudo_invert(self) -> LinearLayout:
        """A right inverse ``P`` (``self(P(y)) == y``) of a surjective layout, chosen as Triton does.

            >>> L = LinearLayout({"register": [[1], [0]], "lane": [[2]]}, {"dim0": 4})
            >>> L.pseudo_invert().bases
            {'dim0': ((1, 0), (0, 1))}
        """
        if not self.is_surjective():
            raise NotSurjectiveError(f"cannot pseudo-invert: layout is not surjective; {self._unreached_description()}")
        return self._identity_on_outs().invert_and_compose(self)

    def invert(self) -> LinearLayout:
        """The inverse of a bijective layout.

            >>> L = LinearLayout({"lane": [[2], [1]]}, {"dim0": 4})
            >>> L.invert().bases
            {'dim0': ((2,), (1,))}
        """
        if not self.is_surjective():
            raise NotInvertibleError(f"cannot invert: layout is not surjective; {self._unreached_description()}")
        if not self.is_injective():
            raise NotInvertibleError(f"cannot invert: layout is not injective; {self._kernel_description()}")
        if not set(self.in_dim_names) & set(self.out_dim_names):
            # No dim is both an input and an output, so Triton's identity heuristic cannot apply:
            # the inverse is the plain solve, column by column.
            basis = gf2.SpanBasis()
            for v in self._columns():
                basis.insert(v)

            def solve(v: int) -> int:
                x = basis.express(v)
                assert x is not None  # every output is reached (surjective)
                return x

            out_items = [(n, 1 << len(f)) for n, f in self._ins]
            return LinearLayout._make(
                [(n, [solve(1 << (sh + i)) for i in range(log2(s))]) for (n, s), sh in zip(self._outs, self._shifts)],
                out_items,
            )
        return self._identity_on_outs().invert_and_compose(self)

    def __mul__(self, outer: LinearLayout) -> LinearLayout:
        """Direct product (Triton's ``operator*``): ``self`` in the low bits, ``outer`` above.

        Dims present in both are joined, with ``self``'s bits first; dims common to both must
        appear in the same relative order.  The dims of the result come in Triton 3.9's merged
        order: each dim common to both comes after the dims that precede it in ``self`` and then
        in ``outer`` (so ``in2 * (in1, in2, in3)`` gives ``(in1, in2, in3)``).

            >>> a = LinearLayout.identity_1d(4, "lane", "dim0")
            >>> b = LinearLayout.identity_1d(2, "warp", "dim0")
            >>> (a * b).bases
            {'lane': ((1,), (2,)), 'warp': ((4,),)}
        """
        if not isinstance(outer, LinearLayout):
            return NotImplemented
        inner = self
        for what, xs, ys in (("in", inner.in_dim_names, outer.in_dim_names), ("out", inner.out_dim_names, outer.out_dim_names)):
            common_x = [x for x in xs if x in ys]
            common_y = [y for y in ys if y in xs]
            if common_x != common_y:
                raise DimensionError(
                    f"direct product: {what}-dims common to both layouts must appear in the same relative order; "
                    f"got ({', '.join(xs)}) and ({', '.join(ys)})"
                )
        out_log2: dict[str, int] = {n: 0 for n in _merged_order(inner.out_dim_names, outer.out_dim_names)}
        for lay in (inner, outer):
            for n, s in lay._outs:
                out_log2[n] += log2(s)
        if sum(out_log2.values()) > MAX_TOTAL_LOG2:
            raise SizeError(f"direct product: out-dims would total {sum(out_log2.values())} bits; at most {MAX_TOTAL_LOG2}")
        out_items = [(n, 1 << k) for n, k in out_log2.items()]
        new_shift = {}
        acc = 0
        for n, k in out_log2.items():
            new_shift[n] = acc
            acc += k
        inner_out = {n: log2(s) for n, s in inner._outs}

        def remap(lay: LinearLayout, extra: dict[str, int]) -> list[tuple[int, int, int]]:
            return [(sh, m, new_shift[n] + extra.get(n, 0)) for (n, sh, m) in lay._out_unpack]

        inner_map = remap(inner, {})
        outer_map = remap(outer, inner_out)

        def move(f: int, mapping: list[tuple[int, int, int]]) -> int:
            v = 0
            for sh, m, nsh in mapping:
                v |= ((f >> sh) & m) << nsh
            return v

        in_order = _merged_order(inner.in_dim_names, outer.in_dim_names)
        ii = dict(inner._ins)
        oi = dict(outer._ins)
        new_ins = []
        for n in in_order:
            col = [move(f, inner_map) for f in ii.get(n, ())] + [move(f, outer_map) for f in oi.get(n, ())]
            new_ins.append((n, col))
        if sum(len(c) for _, c in new_ins) > MAX_TOTAL_LOG2:
            raise SizeError(f"direct product: in-dims would total more than {MAX_TOTAL_LOG2} bits")
        return LinearLayout._make(new_ins, out_items)

    def divide_left(self, divisor: LinearLayout) -> LinearLayout | None:
        """The ``C`` with ``self == divisor * C`` (``divisor`` in the low bits), or None.

        ``C`` has all of ``self``'s in- and out-dims (some possibly of size 1).

            >>> a = LinearLayout.identity_1d(4, "lane", "dim0")
            >>> b = LinearLayout.identity_1d(2, "warp", "dim0")
            >>> (a * b).divide_left(a) == LinearLayout({"lane": [], "warp": [[1]]}, {"dim0": 2})
            True
        """
        expect(divisor, LinearLayout, "LinearLayout.divide_left: divisor")
        return self._divide(divisor, left=True)

    def divide_right(self, divisor: LinearLayout) -> LinearLayout | None:
        """The ``C`` with ``self == C * divisor`` (``divisor`` in the high bits), or None.

            >>> a = LinearLayout.identity_1d(4, "lane", "dim0")
            >>> b = LinearLayout.identity_1d(2, "warp", "dim0")
            >>> (a * b).divide_right(b) == LinearLayout({"lane": [[1], [2]], "warp": []}, {"dim0": 4})
            True
        """
        expect(divisor, LinearLayout, "LinearLayout.divide_right: divisor")
        return self._divide(divisor, left=False)

    def _divide(self, d: LinearLayout, left: bool) -> LinearLayout | None:
        for n, f in d._ins:
            if not self.has_in_dim(n) or len(f) > len(self._in_flat(n)):
                return None
        for n, s in d._outs:
            if not self.has_out_dim(n) or s > self.out_dim_size(n):
                return None
        d_in = {n: len(f) for n, f in d._ins}
        d_out = {n: log2(s) for n, s in d._outs}
        out_items = [(n, s >> d_out.get(n, 0)) for n, s in self._outs]
        c_unpack = []
        acc = 0
        for (n, sh, m), (_, cs) in zip(self._out_unpack, out_items):
            c_unpack.append((sh, m, d_out.get(n, 0), acc))
            acc += log2(cs)
        new_ins = []
        for n, f in self._ins:
            k = d_in.get(n, 0)
            part = f[k:] if left else f[: len(f) - k]
            col = []
            for b in part:
                v = 0
                for sh, m, dk, nsh in c_unpack:
                    x = (b >> sh) & m
                    x = x >> dk if left else x
                    v |= x << nsh
                col.append(v)
            new_ins.append((n, col))
        try:
            c = LinearLayout._make(new_ins, out_items)
            prod = d * c if left else c * d
            prod = prod.transpose_ins(self.in_dim_names).transpose_outs(self.out_dim_names)
        except LayoutError:
            return None
        return c if prod == self else None

    # ------------------------------------------------------------------------ reshaping dims

    def transpose_ins(self, names: Sequence[str]) -> LinearLayout:
        """Reorder the in-dims (``names`` is a permutation of them)."""
        names = _dim_names(names)
        if sorted(names) != sorted(self.in_dim_names) or len(set(names)) != len(names):
            raise DimensionError(f"transpose_ins: {names} is not a permutation of the in-dims {list(self.in_dim_names)}")
        d = dict(self._ins)
        return LinearLayout._make([(n, d[n]) for n in names], self._outs)

    def transpose_outs(self, names: Sequence[str]) -> LinearLayout:
        """Reorder the out-dims (``names`` is a permutation of them).

            >>> LinearLayout({"lane": [[1, 0]]}, {"dim0": 2, "dim1": 1}).transpose_outs(["dim1", "dim0"]).bases
            {'lane': ((0, 1),)}
        """
        names = _dim_names(names)
        if sorted(names) != sorted(self.out_dim_names) or len(set(names)) != len(names):
            raise DimensionError(f"transpose_outs: {names} is not a permutation of the out-dims {list(self.out_dim_names)}")
        if tuple(names) == self.out_dim_names:
            return self
        sizes = dict(self._outs)
        out_items = [(n, sizes[n]) for n in names]
        unpack = {n: (sh, m) for n, sh, m in self._out_unpack}
        mapping = []
        acc = 0
        for n, s in out_items:
            sh, m = unpack[n]
            mapping.append((sh, m, acc))
            acc += log2(s)

        def move(f: int) -> int:
            v = 0
            for sh, m, nsh in mapping:
                v |= ((f >> sh) & m) << nsh
            return v

        return LinearLayout._make([(n, [move(b) for b in f]) for n, f in self._ins], out_items)

    def reshape_ins(self, new_in_dims: Sequence[tuple[str, int]] | Mapping[str, int]) -> LinearLayout:
        """Flatten the in-dims and split them again into ``new_in_dims`` (same total size).

            >>> LinearLayout.identity_1d(8, "offset", "dim0").reshape_ins([("a", 2), ("b", 4)]).bases
            {'a': ((1,),), 'b': ((2,), (4,))}
        """
        items = _new_dims(new_in_dims, "in", self.total_in_size_log2)
        cols = self._columns()
        new_ins = []
        c = 0
        for n, s in items:
            new_ins.append((n, cols[c:c + log2(s)]))
            c += log2(s)
        return LinearLayout._make(new_ins, self._outs)

    def reshape_outs(self, new_out_dims: Sequence[tuple[str, int]] | Mapping[str, int]) -> LinearLayout:
        """Flatten the out-dims (first lowest) and split them into ``new_out_dims`` (same total).

            >>> LinearLayout.identity_1d(8, "offset", "dim0").reshape_outs([("x", 4), ("y", 2)]).bases
            {'offset': ((1, 0), (2, 0), (0, 1))}
        """
        items = _new_dims(new_out_dims, "out", self.total_out_size_log2)
        return LinearLayout._make(self._ins, items)

    def flatten_ins(self) -> LinearLayout:
        """One in-dim (named like the first) holding all input bits, first in-dim lowest."""
        if not self._ins:
            return self
        return self.reshape_ins([(self._ins[0][0], self.total_in_size)])

    def flatten_outs(self) -> LinearLayout:
        """One out-dim (named like the first) holding all output bits, first out-dim lowest."""
        if not self._outs:
            return self
        return self.reshape_outs([(self._outs[0][0], self.total_out_size)])

    def sublayout(self, in_names: Iterable[str], out_names: Iterable[str]) -> LinearLayout:
        """The restriction to some in-dims and the projection onto some out-dims (orders kept).

            >>> L = LinearLayout({"lane": [[1, 0]], "warp": [[0, 1]]}, {"dim0": 2, "dim1": 2})
            >>> L.sublayout(["warp"], ["dim1"]).bases
            {'warp': ((1,),)}
        """
        try:
            in_set = set(in_names if in_names.__class__ in (list, tuple) else _dim_names(in_names))
            out_set = set(out_names if out_names.__class__ in (list, tuple) else _dim_names(out_names))
        except TypeError:  # an unhashable entry
            raise DimensionError(f"sublayout: dim names must be strings, got {in_names!r:.60} and {out_names!r:.60}") from None
        for n in in_set:
            self._in_flat(n)
        for n in out_set:
            self._out_index(n)
        keep = [(sh, m) for n, sh, m in self._out_unpack if n in out_set]
        out_items = [(n, s) for n, s in self._outs if n in out_set]
        mapping = []
        acc = 0
        for (sh, m), (_, s) in zip(keep, out_items):
            mapping.append((sh, m, acc))
            acc += log2(s)
        new_ins = []
        for n, f in self._ins:
            if n in in_set:
                col = []
                for b in f:
                    v = 0
                    for sh, m, nsh in mapping:
                        v |= ((b >> sh) & m) << nsh
                    col.append(v)
                new_ins.append((n, col))
        return LinearLayout._make(new_ins, out_items)

    def concat_ins(self, other: LinearLayout) -> LinearLayout:
        """Put ``other``'s in-dims after ``self``'s (same out-dims and sizes, disjoint in-dims)."""
        expect(other, LinearLayout, "LinearLayout.concat_ins: other")
        if self._outs != other._outs:
            raise DimensionError(f"concat_ins: out-dims differ: {self.out_dims} vs {other.out_dims}")
        common = set(self.in_dim_names) & set(other.in_dim_names)
        if common:
            raise DimensionError(f"concat_ins: in-dims {sorted(common)} appear in both layouts")
        return LinearLayout._make(self._ins + other._ins, self._outs)

    def concat_outs(self, other: LinearLayout) -> LinearLayout:
        """Put ``other``'s out-dims after ``self``'s (same in-dims and sizes, disjoint out-dims)."""
        expect(other, LinearLayout, "LinearLayout.concat_outs: other")
        if self.in_dims != other.in_dims or self.in_dim_names != other.in_dim_names:
            raise DimensionError(f"concat_outs: in-dims differ: {self.in_dims} vs {other.in_dims}")
        common = set(self.out_dim_names) & set(other.out_dim_names)
        if common:
            raise DimensionError(f"concat_outs: out-dims {sorted(common)} appear in both layouts")
        shift = self.total_out_size_log2
        oi = dict(other._ins)
        return LinearLayout._make([(n, [a | (b << shift) for a, b in zip(f, oi[n])]) for n, f in self._ins], self._outs + other._outs)

    def is_trivial_over(self, names: Iterable[str]) -> bool:
        """Whether the dims ``names`` (each both an in- and an out-dim) are an identity block that
        neither affects nor is affected by the other dims (Triton's ``isTrivialOver``).

            >>> L = LinearLayout.identity_1d(4, "register", "register") * LinearLayout.identity_1d(2, "lane", "lane")
            >>> L.is_trivial_over(["lane"]), L.quotient(["lane"]).in_dim_names
            (True, ('register',))
        """
        names = _dim_names(names)
        ins = set(self.in_dim_names)
        outs = set(self.out_dim_names)
        for n in names:
            if n not in ins or n not in outs:
                return False
        if not names:
            return True
        for n in names:
            if self.in_dim_size(n) != self.out_dim_size(n):
                return False
        # on the flat bases: project onto the out-dims ``names`` (packed in out-dim order, as
        # sublayout(names, names) does), the in-dims ``names`` in in-dim order must read as the
        # identity; every other in-dim must miss those out-dims, and they must miss every other
        name_set = set(names)
        mapping = []
        mask = acc = 0
        for n, sh, m in self._out_unpack:
            if n in name_set:
                mapping.append((sh, m, acc))
                mask |= m << sh
                acc += m.bit_length()
        i = 0
        for n, f in self._ins:
            if n not in name_set:
                if any(b & mask for b in f):
                    return False
                continue
            for b in f:
                if b & ~mask:
                    return False
                v = 0
                for sh, m, nsh in mapping:
                    v |= ((b >> sh) & m) << nsh
                if v != 1 << i:
                    return False
                i += 1
        return True

    def quotient(self, names: Iterable[str]) -> LinearLayout | None:
        """Remove the dims ``names`` if the layout is trivial over them (else None)."""
        names = _dim_names(names)
        if not self.is_trivial_over(names):
            return None
        return self.sublayout([n for n in self.in_dim_names if n not in names], [n for n in self.out_dim_names if n not in names])

    # ------------------------------------------------------------------ Triton's sublayout tests

    def sublayout_is_zero(self, in_names: Iterable[str], out_names: Iterable[str]) -> bool:
        """Whether every basis of the sublayout from ``in_names`` to ``out_names`` is zero
        (Triton's ``sublayoutIsZero``; an empty list of names gives an empty, zero, sublayout).

            >>> L = LinearLayout({"in1": [[0, 1], [0, 2]], "in2": [[1, 1]]}, ["out1", "out2"])
            >>> L.sublayout_is_zero(["in1"], ["out1"]), L.sublayout_is_zero(["in2"], ["out1"])
            (True, False)
        """
        return not any(b for _, f in self.sublayout(in_names, out_names)._ins for b in f)

    def square_sublayout_is_identity(self, names: Iterable[str]) -> bool:
        """Whether the sublayout from the dims ``names`` to the same dims is the identity (Triton's
        ``squareSublayoutIsIdentity``): each named in-dim as large as the out-dim of the same name,
        and the flattened sublayout mapping input ``2**i`` to output ``2**i``.  Other in-dims may
        still write to these out-dims (see :meth:`is_identity_on_out_dim`).  No names: True.

            >>> L = LinearLayout({"in1": [[1, 1], [2, 2], [4, 4]], "in2": [[2, 1], [1, 2]]},
            ...                  {"in1": 8, "in2": 8}, require_surjective=False)
            >>> L.square_sublayout_is_identity(["in1"]), L.square_sublayout_is_identity(["in2"])
            (True, False)
        """
        names = _dim_names(names)
        if not names:
            return True
        for n in names:
            if self.in_dim_size(n) != self.out_dim_size(n):
                return False
        sub = self.sublayout(names, names)
        i = 0
        for _, f in sub._ins:
            for b in f:
                if b != 1 << i:
                    return False
                i += 1
        return True

    def is_identity_on_out_dim(self, name: str) -> bool:
        """Whether out-dim ``name`` is an exact copy of the in-dim of the same name: that in-dim
        maps onto it as the identity and no other in-dim writes to it (Triton's
        ``isIdentityOnOutDim``; False when ``name`` is not both an in- and an out-dim).  Unlike
        :meth:`is_trivial_over`, the in-dim ``name`` may also write to other out-dims.

            >>> L = LinearLayout({"lane": [[1, 0]], "block": [[1, 1]]}, ["offset", "block"])
            >>> L.is_identity_on_out_dim("block"), L.is_trivial_over(["block"])
            (True, False)
        """
        name = _check_name(name, "dim")
        if not self.has_in_dim(name) or not self.has_out_dim(name):
            return False
        others = [n for n in self.in_dim_names if n != name]
        return self.square_sublayout_is_identity([name]) and self.sublayout_is_zero(others, [name])

    def equal_ignoring_out_dim_sizes(self, other: LinearLayout) -> bool:
        """Equal out-dim names (in order) and equal bases, whatever the out-dim sizes (Triton's
        ``equalIgnoringOutDimSizes``).

            >>> a = LinearLayout.identity_1d(4, "in", "out")
            >>> b = LinearLayout({"in": [[1], [2]]}, {"out": 8}, require_surjective=False)
            >>> a == b, a.equal_ignoring_out_dim_sizes(b)
            (False, True)
        """
        expect(other, LinearLayout, "LinearLayout.equal_ignoring_out_dim_sizes: other")
        return self.out_dim_names == other.out_dim_names and list(self.bases.items()) == list(other.bases.items())

    # ---------------------------------------------------------------- fitting a layout to a shape

    def _shape_arg(self, shape: Mapping[str, int], who: str) -> dict[str, int]:
        if not isinstance(shape, Mapping):
            raise DimensionError(f"{who}: shape must map every out-dim to a size, got {type(shape).__name__}")
        if set(shape) != set(self.out_dim_names):
            raise DimensionError(f"{who}: shape names {sorted(map(str, shape))} must be the out-dims {list(self.out_dim_names)}")
        out = {}
        for n, s in shape.items():
            s = _as_int(s, f"{who}: size of {n!r}")
            if not is_pow2(s):
                raise SizeError(f"{who}: size {s} of {n!r} must be a positive power of two")
            out[n] = s
        return out

    def ensure_not_smaller(self, shape: Mapping[str, int]) -> LinearLayout:
        """Grow the first in-dim until each out-dim is at least ``shape[d]`` (Triton's
        ``ensureLayoutNotSmallerThan``): out-dims in their order, each multiplied by an identity
        from the first in-dim (``register`` or ``offset`` in Triton's uses), so the new bases
        repeat the layout over the larger shape.

            >>> L = LinearLayout({"offset": [[1, 0]]}, ["dim0", "dim1"])
            >>> L.ensure_not_smaller({"dim0": 4, "dim1": 2}).bases
            {'offset': ((1, 0), (2, 0), (0, 1))}
        """
        want = self._shape_arg(shape, "ensure_not_smaller")
        if not self._ins:
            raise DimensionError("ensure_not_smaller: the layout has no in-dim to grow")
        first = self._ins[0][0]
        out = self
        for n, s in self._outs:
            if s < want[n]:
                out = out * LinearLayout.identity_1d(want[n] // s, first, n)
        return out

    def ensure_not_larger(self, shape: Mapping[str, int], *, broadcast_registers: bool = True) -> LinearLayout:
        """Shrink each out-dim to at most ``shape[d]`` without changing the in-dims (Triton's
        ``ensureLayoutNotLargerThan``): a basis component that falls outside the new size becomes
        0 (that input now repeats data).  With ``broadcast_registers=False`` the ``register``
        bases that become zero this way are dropped instead (those already zero stay).

            >>> L = LinearLayout({"register": [[8], [4], [1]], "lane": [[2], [16]]}, ["dim0"])
            >>> L.ensure_not_larger({"dim0": 8}).bases
            {'register': ((0,), (4,), (1,)), 'lane': ((2,), (0,))}
            >>> L.ensure_not_larger({"dim0": 8}, broadcast_registers=False).bases["register"]
            ((4,), (1,))
        """
        want = self._shape_arg(shape, "ensure_not_larger")
        outs = [(n, min(s, want[n])) for n, s in self._outs]
        limits = [s for _, s in outs]
        new_ins = []
        for n, vecs in self.bases.items():
            drop = not broadcast_registers and n == "register"
            kept = []
            for v in vecs:
                w = [x if x < lim else 0 for x, lim in zip(v, limits)]
                if drop and any(v) and not any(w):
                    continue
                kept.append(w)
            new_ins.append((n, kept))
        return LinearLayout(new_ins, outs, require_surjective=False)

    # ------------------------------------------------------------- Triton's ColumnAction on bases

    def _column_action_check(self, in_dim: str, action: Sequence[int], who: str) -> list[int]:
        size_log2 = len(self._in_flat(in_dim))
        return _check_action(action, size_log2, who)

    def apply_column_action(self, in_dim: str, action: Sequence[int]) -> LinearLayout:
        """The bases of ``in_dim`` picked (and reordered) by ``action`` (Triton's
        ``ColumnAction::apply(LinearLayout)``): new basis ``k`` is old basis ``action[k]``; bases
        not named are dropped; the out-dims keep their sizes.  ``action`` lists distinct indices of
        the in-dim's bases.  :func:`column_action_values` moves values stored in register order the
        same way.

            >>> L = LinearLayout({"register": [[1], [2], [4]]}, ["dim0"])
            >>> L.apply_column_action("register", [2, 0, 1]).bases
            {'register': ((4,), (1,), (2,))}
            >>> L.apply_column_action("register", [1, 0]).out_dims
            {'dim0': 8}
        """
        act = self._column_action_check(in_dim, action, "apply_column_action")
        f = self._in_flat(in_dim)
        return LinearLayout._make([(n, [f[a] for a in act] if n == in_dim else g) for n, g in self._ins], self._outs)

    # --------------------------------------------------------- conversions that keep CTAs local

    def invert_and_compose_block_local(self, outer: LinearLayout) -> LinearLayout:
        """:meth:`invert_and_compose` that never sends a CTA to another CTA's copy (Triton's
        ``invertAndComposeBlockLocal(outer, self)``): ``outer`` (memory) may broadcast over some
        ``block`` bits that ``self`` (registers) spreads; the plain solve maps those bits to block
        0, this one maps each such block bit to itself.  ``outer``'s ``block`` in-dim is first
        padded with zero bases to ``self``'s size.  The result still satisfies
        ``C.compose(outer) == self`` (a zero ``block`` basis of ``outer`` changes no output).

            >>> mem = LinearLayout({"offset": [[1]], "block": [[0]]}, ["dim"])
            >>> reg = LinearLayout({"lane": [[0]], "block": [[1]]}, ["dim"])
            >>> reg.invert_and_compose(mem).bases["block"], reg.invert_and_compose_block_local(mem).bases["block"]
            (((1, 0),), ((1, 1),))
        """
        expect(outer, LinearLayout, "LinearLayout.invert_and_compose_block_local: outer")
        for who, lay in (("outer", outer), ("self", self)):
            if not lay.has_in_dim("block"):
                raise DimensionError(f"invert_and_compose_block_local: {who} has no 'block' in-dim; in-dims {list(lay.in_dim_names)}")
        n_mem, n_reg = len(outer._in_flat("block")), len(self._in_flat("block"))
        if n_mem > n_reg:
            raise SizeError(f"invert_and_compose_block_local: outer's block dim (size {1 << n_mem}) is larger than self's ({1 << n_reg})")
        local = outer.resize_in_dim("block", 1 << n_reg) if n_mem < n_reg else outer
        cvt = self.invert_and_compose(local)
        bases = {n: [list(v) for v in vs] for n, vs in cvt.bases.items()}
        j = cvt.out_dim_names.index("block")
        for i, v in enumerate(local.bases["block"]):
            if any(v):
                continue
            for vs in bases.values():
                for w in vs:
                    w[j] &= ~(1 << i)
            bases["block"][i][j] |= 1 << i
        return LinearLayout(bases, cvt.out_dims, require_surjective=False)

    def num_consecutive_in_out(self) -> int:
        """How many consecutive inputs of the first in-dim map to consecutive outputs of the first
        out-dim (the vector width of a register layout; Triton's ``getNumConsecutiveInOut``).

            >>> LinearLayout({"register": [[1], [2], [8]], "lane": [[4]]}, {"dim0": 16}).num_consecutive_in_out()
            4
            >>> (LinearLayout.identity_1d(4, "in", "out1") * LinearLayout.identity_1d(8, "in", "out2")).num_consecutive_in_out()
            4
        """
        if not self._ins or not self._outs:
            return 1
        first = self._ins[0][1]
        m0 = self._out_unpack[0][2]
        # A basis counts only while it is (2**i, 0, ..., 0): 2**i must fit in the first out-dim
        # (a flat 2**i beyond it is a unit vector of a later out-dim).
        limit = min(len(first), m0.bit_length())
        consec = 0
        while consec < limit and first[consec] == (1 << consec):
            consec += 1
        other = 0
        for k, (n, f) in enumerate(self._ins):
            for i, b in enumerate(f):
                if k != 0 or i >= consec:
                    other |= b & m0
        tz = (other & -other).bit_length() - 1 if other else 31
        return 1 << min(consec, tz)

    def resize_in_dim(self, name: str, new_size: int) -> LinearLayout:
        """In-dim ``name`` resized to ``new_size`` (Triton's ``resizeInDim``): grown with zero bases
        (a broadcast) or shrunk by dropping its highest bases; the out-dims stay as they are.

            >>> LinearLayout.identity_1d(2, "in", "out").resize_in_dim("in", 8).bases
            {'in': ((1,), (0,), (0,))}
            >>> L = LinearLayout.identity_1d(4, "in", "out").resize_in_dim("in", 2)
            >>> L.bases, L.out_dims
            ({'in': ((1,),)}, {'out': 4})
        """
        f = self._in_flat(name)
        new_size = _as_int(new_size, "new_size")
        if not is_pow2(new_size):
            raise SizeError(f"resize_in_dim: new size {new_size} of {name!r} must be a power of two")
        k = log2(new_size)
        g = f[:k] + (0,) * (k - len(f))
        return LinearLayout._make([(n, g if n == name else h) for n, h in self._ins], self._outs)

    def remove_zero_bases(self, name: str) -> LinearLayout:
        """Drop the zero bases of in-dim ``name`` (Triton's ``removeZeroBasesAlongDim``)."""
        self._in_flat(name)
        return LinearLayout._make([(n, [b for b in g if b] if n == name else g) for n, g in self._ins], self._outs)

    def squeeze_ins(self) -> LinearLayout:
        """Drop in-dims of size 1."""
        return LinearLayout._make([(n, g) for n, g in self._ins if g], self._outs)

    def squeeze_outs(self) -> LinearLayout:
        """Drop out-dims of size 1."""
        return self.sublayout(self.in_dim_names, [n for n, s in self._outs if s > 1])

    def rename_in_dim(self, old: str, new: str) -> LinearLayout:
        """Rename in-dim ``old`` to ``new``."""
        self._in_flat(old)
        _check_name(new, "in-dim")
        if new != old and self.has_in_dim(new):
            raise DimensionError(f"rename_in_dim: {new!r} is already an in-dim")
        return LinearLayout._make([(new if n == old else n, g) for n, g in self._ins], self._outs)

    def rename_out_dim(self, old: str, new: str) -> LinearLayout:
        """Rename out-dim ``old`` to ``new``."""
        self._out_index(old)
        _check_name(new, "out-dim")
        if new != old and self.has_out_dim(new):
            raise DimensionError(f"rename_out_dim: {new!r} is already an out-dim")
        return LinearLayout._make(self._ins, [(new if n == old else n, s) for n, s in self._outs])

    # ---------------------------------------------------------------------------- matrix view

    def matrix_rows(self) -> list[int]:
        """The GF(2) matrix as packed rows: row ``r`` (an output bit, flat: the first out-dim's
        bits lowest) has bit ``c`` set when input bit ``c`` (flat: the first in-dim's bits lowest)
        flips it; the transpose of the columns (:meth:`flat_bases` of every in-dim, in order).

            >>> L = LinearLayout({"lane": [[1], [3]]}, {"dim0": 4})   # out bit 0 = in0 ^ in1, out bit 1 = in1
            >>> [bin(r) for r in L.matrix_rows()]
            ['0b11', '0b10']
        """
        return gf2.transpose(self._columns(), self.total_out_size_log2)

    def matrix(self) -> galois.FieldArray:
        """The GF(2) matrix as a ``galois.GF(2)`` array: rows are output bits, columns input bits.

        Imports galois on first use (it takes seconds to import).

            >>> LinearLayout({"lane": [[1], [3]]}, {"dim0": 4}).matrix()
            GF([[1, 1],
                [0, 1]], order=2)
        """
        import galois

        rows = self.total_out_size_log2
        cols = self._columns()
        m = np.zeros((rows, len(cols)), dtype=np.int64)
        for c, b in enumerate(cols):
            for r in range(rows):
                m[r, c] = (b >> r) & 1
        return galois.GF2(m)

    # ------------------------------------------------------------------------------ dunder

    def __eq__(self, other: object) -> bool:
        """Equal dims (names, sizes, order) and equal bases, as Triton's ``==``: one comparison of
        the stored tuples (after a first equal comparison both layouts share them, so the next is
        an identity check).

            >>> LinearLayout.identity_1d(4, "lane", "dim0") == LinearLayout({"lane": [[1], [2]]}, {"dim0": 4})
            True
        """
        try:
            theirs = other._stored  # type: ignore[attr-defined]
        except AttributeError:
            return NotImplemented
        mine = self._stored
        if mine is theirs:
            return True
        if not isinstance(other, LinearLayout):
            return NotImplemented
        if mine != theirs:
            return False
        other._stored = mine  # equal immutable tuples: share them
        return True

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash(self._stored)
        return h

    def __reduce__(self):
        return (LinearLayout._make, (self._ins, self._outs))

    def __str__(self) -> str:
        """Triton's ``toString()``, character for character: a leading newline, one ``" - "``
        bullet per in-dim (its further bases indented by three spaces), then the out-dims.

            >>> str(LinearLayout.identity_1d(4, "in", "out"))
            '\\n - in=1 -> (1)\\n   in=2 -> (2)\\nwhere out dims are: [out (size 4)]'
            >>> str(LinearLayout.empty())
            '\\n(empty layout)'
        """
        outs = "[" + ", ".join(f"{n} (size {s})" for n, s in self._outs) + "]"
        if not self._ins:
            return "\n(empty layout)" if not self._outs else f"\n(empty layout with out-dims {outs})"
        lines = [""]
        for n, vecs in self.bases.items():
            if not vecs:
                lines.append(f" - {n} is a size 1 dimension")
                continue
            for i, v in enumerate(vecs):
                lines.append(f"{' - ' if i == 0 else '   '}{n}={1 << i} -> ({', '.join(map(str, v))})")
        lines.append(f"where out dims are: {outs}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        body = str(self).lstrip("\n").replace("\n", "\n  ")
        return f"LinearLayout(\n  {body}\n)"
