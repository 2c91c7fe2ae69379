"""Spaces of Gluon spellings: enumerate them (Gluon's JSON form, ``{"kind": "BlockedLayout", ...}``),
print them, and read them as linear layouts.

    >>> [format_spelling(s) for s in blocked_spellings([4], 1)][:2]
    ['BlockedLayout([1], [32], [1], [0])', 'BlockedLayout([2], [32], [1], [0])']
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, overload

from converters import gluon
from converters.gluon.distributed import blocked_linear
from linlayout.checks import as_int, expect, is_pow2
from linlayout.errors import DimensionError, LayoutError, SizeError
from linlayout.limits import MAX_RANK, MAX_SPELLINGS, MAX_TOTAL_LOG2, as_list
from linlayout.linear import LinearLayout

__all__ = [
    "Spelling",
    "SpellingProduct",
    "SpellingChain",
    "blocked_space",
    "slice_space",
    "blocked_spellings",
    "slice_spellings",
    "mma_spellings",
    "dot_operand_spellings",
    "swizzled_shared_spellings",
    "format_spelling",
    "spelling_to_linear",
    "safe_linear",
    "check_spelling_shape",
    "linear_of",
]

Spelling = dict


def _pow2_upto(n: int) -> list[int]:
    out, v = [], 1
    while v <= n:
        out.append(v)
        v *= 2
    return out


def check_spelling_shape(shape: Sequence[int]) -> list[int]:
    """The shape as a list of positive powers of two (a SizeError otherwise)."""
    try:
        shape = [int(s) for s in as_list(shape, "shape", MAX_RANK)]
    except (TypeError, ValueError, OverflowError):
        raise DimensionError(f"shape must be a list of ints, got {shape!r:.80}") from None
    if not shape:
        raise DimensionError("shape must have at least one dim")
    for d, s in enumerate(shape):
        if not is_pow2(s):
            raise SizeError(f"shape[{d}] = {s} is not a power of two (Gluon distributed layouts need power-of-two shapes)")
    if sum(s.bit_length() - 1 for s in shape) > MAX_TOTAL_LOG2:
        raise SizeError(f"shape {shape} has more than 2**{MAX_TOTAL_LOG2} elements (linlayout.limits.MAX_TOTAL_LOG2)")
    return shape


def _count_splits(total: int, rank: int) -> int:
    """How many lists :func:`_splits` returns: compositions of ``log2(total)`` into ``rank`` parts."""
    k = total.bit_length() - 1
    return math.comb(k + rank - 1, rank - 1) if rank else int(k == 0)


def _check_count(n: int, what: str) -> None:
    """Refuse, before enumerating, a space of more than :data:`~linlayout.limits.MAX_SPELLINGS`."""
    if n > MAX_SPELLINGS:
        raise SizeError(f"{what}: {n} spellings; at most {MAX_SPELLINGS} are enumerated in one sweep "
                        "(use a smaller shape, fewer warps or max_size_per_thread)")


def _splits(total: int, rank: int) -> list[list[int]]:
    """Every way to write the power of two ``total`` as a product of ``rank`` powers of two, in
    lexicographic order of the exponents (only the valid ones are generated)."""
    k = total.bit_length() - 1

    def go(left: int, parts: int) -> Iterable[list[int]]:
        if parts == 1:
            yield [1 << left]
            return
        for e in range(left + 1):
            for rest in go(left - e, parts - 1):
                yield [1 << e] + rest

    if rank == 0:
        return [[]] if k == 0 else []
    return list(go(k, rank))


# ------------------------------------------------------------------------- lazy sequences


class SpellingProduct(Sequence):
    """The spellings ``make(c)`` for every ``c`` in ``itertools.product(*factors)``, as a lazy
    sequence: ``len``, indexing and iteration without a list of all spellings in memory (a
    sweep of 147k spellings holds only the factors).  Picklable when ``make`` is a top-level
    function (or a :func:`functools.partial` of one), so a process pool can be sent index
    ranges instead of spellings.

    ``linear(c, shape)``, when given, is what :func:`safe_linear` answers for ``make(c)``,
    computed straight from the combination ``c`` (no dict, no re-validation of what the
    enumeration guarantees); :meth:`linear_items` pairs it with every combination.

        >>> sp = blocked_space([4, 4], 1, max_size_per_thread=1)
        >>> len(sp), sp[1] == list(sp)[1], sp[-1] == list(sp)[-1]
        (12, True, True)
    """

    def __init__(self, factors: Sequence[Sequence[Any]], make: Callable[[tuple], Spelling],
                 linear: Callable[[tuple, list[int]], LinearLayout | str] | None = None):
        self.factors = tuple(tuple(f) for f in factors)
        self.make = make
        self.linear = linear
        self._len = math.prod(len(f) for f in self.factors)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Spelling: ...
    @overload
    def __getitem__(self, i: slice) -> list[Spelling]: ...

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._len))]
        n = self._len
        i = int(i)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"spelling index {i} out of range for {n} spellings")
        combo = []
        for f in reversed(self.factors):  # the last factor varies fastest, as in itertools.product
            i, k = divmod(i, len(f))
            combo.append(f[k])
        return self.make(tuple(reversed(combo)))

    def __iter__(self) -> Iterator[Spelling]:
        make = self.make
        for combo in itertools.product(*self.factors):
            yield make(combo)

    def __add__(self, other: Sequence[Spelling]) -> SpellingChain:
        return SpellingChain([self, other])

    def __radd__(self, other: Sequence[Spelling]) -> SpellingChain:
        return SpellingChain([other, self])

    def linear_items(self) -> Iterator[tuple[Callable[[tuple, list[int]], LinearLayout | str], tuple]] | None:
        """``(linear, c)`` for every combination ``c`` in order (``linear_of`` turns one into the
        spelling's layout), or None when this product has no ``linear``."""
        if self.linear is None:
            return None
        return zip(itertools.repeat(self.linear), itertools.product(*self.factors))


def linear_of(item: tuple[Callable[[tuple, list[int]], LinearLayout | str], tuple], shape: list[int]) -> LinearLayout | str:
    """:func:`safe_linear` of the spelling an item of :meth:`SpellingProduct.linear_items`
    stands for (``shape`` checked by :func:`check_spelling_shape`).

        >>> sp = blocked_space([64], 2)
        >>> item = next(sp.linear_items())
        >>> linear_of(item, [64]) == safe_linear(sp[0], [64])
        True
    """
    if not (isinstance(item, tuple) and len(item) == 2 and callable(item[0]) and isinstance(item[1], tuple)):
        raise LayoutError(f"linear_of: expected an item of SpellingProduct.linear_items() (a builder and its "
                          f"fields), got {item!r:.80}")
    linear, combo = item
    try:
        return linear(combo, shape)
    except LayoutError as e:
        return _error_line(e)


class SpellingChain(Sequence):
    """Sequences of spellings one after another (a lazy ``a + b``).

        >>> a, b = blocked_space([4], 1), blocked_space([8], 1)
        >>> c = a + b
        >>> len(c) == len(a) + len(b), c[len(a)] == b[0], list(c) == list(a) + list(b)
        (True, True, True)
    """

    def __init__(self, parts: Iterable[Sequence[Spelling]]):
        flat: list[Sequence[Spelling]] = []
        for p in parts:
            flat.extend(p.parts if isinstance(p, SpellingChain) else [p])
        self.parts: tuple[Sequence[Spelling], ...] = tuple(flat)
        self._starts = list(itertools.accumulate((len(p) for p in self.parts), initial=0))
        _check_count(self._starts[-1], "a chain of spelling spaces")  # each part was checked alone

    def __len__(self) -> int:
        return self._starts[-1]

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        i = int(i)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"spelling index {i} out of range for {n} spellings")
        for p, start, end in zip(self.parts, self._starts, self._starts[1:]):
            if i < end:
                return p[i - start]
        raise IndexError(i)  # unreachable

    def __iter__(self) -> Iterator[Spelling]:
        for p in self.parts:
            yield from p

    def __add__(self, other: Sequence[Spelling]) -> SpellingChain:
        return SpellingChain([self, other])

    def __radd__(self, other: Sequence[Spelling]) -> SpellingChain:
        return SpellingChain([other, self])

    def linear_items(self) -> Iterator[tuple[Callable[[tuple, list[int]], LinearLayout | str], tuple]] | None:
        """The parts' :meth:`SpellingProduct.linear_items` one after another, or None unless
        every part has them."""
        items = []
        for p in self.parts:
            it = p.linear_items() if isinstance(p, (SpellingProduct, SpellingChain)) else None
            if it is None:
                return None
            items.append(it)
        return itertools.chain.from_iterable(items)


# ---------------------------------------------------------------------------------- spellings


def _blocked(combo: tuple) -> Spelling:
    spt, tpw, wpc, order = combo
    return {
        "kind": "BlockedLayout",
        "size_per_thread": list(spt),
        "threads_per_warp": list(tpw),
        "warps_per_cta": list(wpc),
        "order": list(order),
        "cga_layout": [],
    }


def _sliced(dim: int, combo: tuple) -> Spelling:
    return {"kind": "SliceLayout", "dim": dim, "parent": _blocked(combo)}


def _blocked_linear(combo: tuple, shape: list[int]) -> LinearLayout | str:
    """The layout of ``_blocked(combo)`` from the combination's fields (trusted: enumerated)."""
    spt, tpw, wpc, order = combo
    if len(spt) != len(shape):  # a space swept over a shape of another rank: the spelling's own error
        return safe_linear(_blocked(combo), shape)
    return blocked_linear(spt, tpw, wpc, order, shape)


def _sliced_linear(dim: int, combo: tuple, shape: list[int]) -> LinearLayout | str:
    """The layout of ``_sliced(dim, combo)`` from the combination's fields."""
    spt, tpw, wpc, order = combo
    if len(spt) != len(shape) + 1:
        return safe_linear(_sliced(dim, combo), shape)
    return blocked_linear(spt, tpw, wpc, order, shape, sliced=dim)


def _blocked_factors(shape: Sequence[int], num_warps: int, threads_per_warp: int, max_size_per_thread: int | None) -> list[list]:
    shape = check_spelling_shape(shape)
    if not is_pow2(num_warps):
        raise SizeError(f"num_warps must be a power of two, got {num_warps}")
    if not is_pow2(threads_per_warp):
        raise SizeError(f"threads_per_warp must be a power of two, got {threads_per_warp}")
    if max_size_per_thread is not None:
        max_size_per_thread = as_int(max_size_per_thread, "max_size_per_thread", SizeError)
    rank = len(shape)
    spt_choices = [[v for v in _pow2_upto(s) if max_size_per_thread is None or v <= max_size_per_thread] for s in shape]
    _check_count(math.prod(len(c) for c in spt_choices) * _count_splits(threads_per_warp, rank)
                 * _count_splits(num_warps, rank) * math.factorial(rank), "blocked_spellings")
    return [
        [tuple(spt) for spt in itertools.product(*spt_choices)],
        [tuple(t) for t in _splits(threads_per_warp, rank)],
        [tuple(w) for w in _splits(num_warps, rank)],
        list(itertools.permutations(range(rank))),
    ]


def blocked_space(
    shape: Sequence[int],
    num_warps: int,
    *,
    threads_per_warp: int = 32,
    max_size_per_thread: int | None = None,
) -> SpellingProduct:
    """:func:`blocked_spellings` as a lazy sequence (same spellings, same order).

        >>> len(blocked_space([128, 128], 4)), blocked_space([128, 128], 4)[5] == blocked_spellings([128, 128], 4)[5]
        (2304, True)
    """
    return SpellingProduct(_blocked_factors(shape, num_warps, threads_per_warp, max_size_per_thread), _blocked, _blocked_linear)


def slice_space(
    shape: Sequence[int],
    num_warps: int,
    *,
    threads_per_warp: int = 32,
    max_size_per_thread: int | None = None,
) -> SpellingChain:
    """:func:`slice_spellings` as a lazy sequence (same spellings, same order).

        >>> len(slice_space([128, 128], 4)), slice_space([32], 1)[7] == slice_spellings([32], 1)[7]
        (145152, True)
    """
    shape = check_spelling_shape(shape)
    parts = []
    for dim in range(len(shape) + 1):
        parent_shape = shape[:dim] + [1] + shape[dim:]
        factors = _blocked_factors(parent_shape, num_warps, threads_per_warp, max_size_per_thread)
        parts.append(SpellingProduct(factors, functools.partial(_sliced, dim), functools.partial(_sliced_linear, dim)))
    return SpellingChain(parts)


def blocked_spellings(
    shape: Sequence[int],
    num_warps: int,
    *,
    threads_per_warp: int = 32,
    max_size_per_thread: int | None = None,
) -> SpellingProduct:
    """Every ``BlockedLayout`` for a tensor ``shape`` on ``num_warps`` warps (one CTA).

    ``size_per_thread[d]`` ranges over the powers of two up to ``shape[d]`` (and up to
    ``max_size_per_thread``); ``threads_per_warp`` and ``warps_per_cta`` over every power-of-two
    split of the warp size and the warp count; ``order`` over every permutation.
    The same lazy sequence as :func:`blocked_space` (``len``, indexing, slicing, iteration and
    ``+``; ``list()`` of it for a list): a sweep of up to :data:`~linlayout.limits.MAX_SPELLINGS`
    spellings streams them, one dict at a time, instead of holding every dict (about 900 bytes
    each: a list of a million was close to a gigabyte).

        >>> len(blocked_spellings([128, 128], 4))
        2304
        >>> blocked_spellings([4], 1)[0]
        {'kind': 'BlockedLayout', 'size_per_thread': [1], 'threads_per_warp': [32], 'warps_per_cta': [1], 'order': [0], 'cga_layout': []}
        >>> sp = blocked_spellings([4], 1) + [{"kind": "BlockedLayout"}]
        >>> len(sp), sp[-1]["kind"]
        (4, 'BlockedLayout')
    """
    return blocked_space(shape, num_warps, threads_per_warp=threads_per_warp, max_size_per_thread=max_size_per_thread)


def slice_spellings(
    shape: Sequence[int],
    num_warps: int,
    *,
    threads_per_warp: int = 32,
    max_size_per_thread: int | None = None,
) -> SpellingChain:
    """Every ``SliceLayout(dim, BlockedLayout(...))`` for ``shape``: a blocked parent of rank
    ``len(shape) + 1`` (size 1 per thread along the sliced dim) with one dim sliced away.
    The same lazy sequence as :func:`slice_space`, streamed as :func:`blocked_spellings` is
    (``slice_spellings([8, 8, 2], 2)`` is 688,128 spellings: as a list 3.4 s and 600 MB, as the
    sequence a sweep holds one at a time).

        >>> s = slice_spellings([32], 1)
        >>> len(s), s[0]["kind"], s[0]["dim"]
        (144, 'SliceLayout', 0)
        >>> chained = [{"kind": "BlockedLayout"}] + s
        >>> len(chained), chained[1] == s[0]
        (145, True)
    """
    return slice_space(shape, num_warps, threads_per_warp=threads_per_warp, max_size_per_thread=max_size_per_thread)


def mma_spellings(shape: Sequence[int], num_warps: int, *, versions: Sequence[int] = (2, 3)) -> list[Spelling]:
    """NVIDIA MMA accumulator layouts (``NVMMADistributedLayout``) for a 2-D ``shape``: version 2
    (instr_shape ``[16, 8]``) over every split of the warps, and version 3 (wgmma,
    instr_shape ``[16, n, 16]``, ``n`` up to ``min(256, shape[1])``) over splits whose first entry
    is a multiple of 4 (whole warp groups along M).

        >>> [s["version"] for s in mma_spellings([64, 64], 4)][:3]
        [[2, 0], [2, 0], [2, 0]]
        >>> len(mma_spellings([64, 64], 4, versions=[3]))
        4
    """
    shape = check_spelling_shape(shape)
    if len(shape) != 2:
        raise DimensionError(f"MMA layouts need a 2-D shape, got {shape}")
    if not is_pow2(num_warps):
        raise SizeError(f"num_warps must be a power of two, got {num_warps}")
    out = []
    versions = [as_int(v, "mma_spellings: a version") for v in as_list(versions, "mma_spellings: versions", MAX_RANK)]
    if 2 in versions:
        for wpc in _splits(num_warps, 2):
            out.append({"kind": "NVMMADistributedLayout", "version": [2, 0], "warps_per_cta": wpc, "instr_shape": [16, 8]})
    if 3 in versions and num_warps % 4 == 0:
        for wpc in _splits(num_warps, 2):
            if wpc[0] % 4:
                continue
            n = 8
            while n <= min(256, shape[1]):
                out.append({"kind": "NVMMADistributedLayout", "version": [3, 0], "warps_per_cta": wpc, "instr_shape": [16, n, 16]})
                n *= 2
    return out


def dot_operand_spellings(parents: Iterable[Spelling], *, bitwidth: int = 16) -> list[Spelling]:
    """The dot operands (``DotOperandLayout``) of MMA parents: both operands of version 2, operand 0
    (A from registers) of version 3, with ``k_width = 32 // bitwidth`` (2 for 16-bit types).

        >>> p = mma_spellings([64, 64], 4, versions=[2])[0]
        >>> [d["operand_index"] for d in dot_operand_spellings([p])]
        [0, 1]
    """
    bitwidth = as_int(bitwidth, "dot_operand_spellings: bitwidth")
    if bitwidth not in (8, 16, 32):
        raise SizeError(f"bitwidth must be 8, 16 or 32, got {bitwidth}")
    out = []
    k_width = max(1, 32 // bitwidth)
    for p in as_list(parents, "dot_operand_spellings: parents", MAX_SPELLINGS):
        version = expect(p, dict, "dot_operand_spellings: a parent spelling").get("version", [2, 0])
        if not isinstance(version, (list, tuple)) or not version:
            raise LayoutError(f"dot_operand_spellings: a parent's version must be a list such as [2, 0], got {version!r:.40}")
        version = version[0]
        for op in (0, 1) if version == 2 else (0,):
            out.append({"kind": "DotOperandLayout", "operand_index": op, "parent": p, "k_width": k_width})
    return out


def swizzled_shared_spellings(shape: Sequence[int], *, max_vec: int = 16) -> list[Spelling]:
    """``SwizzledSharedLayout(vec, per_phase, max_phase, order)`` with ``vec`` and ``max_phase`` up to
    ``max_vec``, ``per_phase`` up to 8, and every order.

        >>> len(swizzled_shared_spellings([32, 32]))
        200
    """
    shape = check_spelling_shape(shape)
    if not is_pow2(max_vec):
        raise SizeError(f"max_vec must be a power of two, got {max_vec}")
    _check_count(math.factorial(len(shape)) * len(_pow2_upto(max_vec)) ** 2 * 4, "swizzled_shared_spellings")
    out = []
    for order in itertools.permutations(range(len(shape))):
        for vec in _pow2_upto(max_vec):
            for per_phase in _pow2_upto(8):
                for max_phase in _pow2_upto(max_vec):
                    out.append({"kind": "SwizzledSharedLayout", "vec": vec, "per_phase": per_phase, "max_phase": max_phase, "order": list(order)})
    return out


_FIELD_ORDER = {
    "BlockedLayout": ("size_per_thread", "threads_per_warp", "warps_per_cta", "order"),
    "SliceLayout": ("dim", "parent"),
    "NVMMADistributedLayout": ("version", "warps_per_cta", "instr_shape"),
    "DotOperandLayout": ("operand_index", "parent", "k_width"),
    "SwizzledSharedLayout": ("vec", "per_phase", "max_phase", "order"),
}


def format_spelling(spelling: Mapping[str, Any]) -> str:
    """The constructor text of a spelling dict (positional fields in Gluon's order; an empty
    ``cga_layout`` left out).

        >>> format_spelling(blocked_spellings([4], 1)[0])
        'BlockedLayout([1], [32], [1], [0])'
        >>> format_spelling({"kind": "SliceLayout", "dim": 1, "parent": blocked_spellings([4, 1], 1)[0]})
        'SliceLayout(1, BlockedLayout([1, 1], [1, 32], [1, 1], [0, 1]))'
    """
    if not isinstance(spelling, Mapping) or "kind" not in spelling:
        raise LayoutError(f"a spelling is a dict with a 'kind', got {spelling!r}")
    kind = spelling["kind"]
    names = _FIELD_ORDER.get(kind)
    parts = []

    def fmt(v: Any) -> str:
        if isinstance(v, Mapping) and "kind" in v:
            return format_spelling(v)
        return repr(v) if not isinstance(v, (list, tuple)) else "[" + ", ".join(fmt(x) for x in v) + "]"

    if names:
        parts = [fmt(spelling[n]) for n in names if n in spelling]
        for k, v in spelling.items():
            if k not in names and k != "kind" and not (k == "cga_layout" and not v):
                parts.append(f"{k}={fmt(v)}")
    else:
        parts = [f"{k}={fmt(v)}" for k, v in spelling.items() if k != "kind"]
    return f"{kind}({', '.join(parts)})"


# --------------------------------------------------------------- spelling -> linear layout


def spelling_to_linear(spelling: Mapping[str, Any], shape: Sequence[int]) -> LinearLayout:
    """The :class:`LinearLayout` of a Gluon spelling dict on a tensor ``shape`` (through
    ``converters.gluon``).

        >>> L = spelling_to_linear(blocked_spellings([64], 2, max_size_per_thread=1)[0], [64])
        >>> L.bases["lane"][:2], L.bases["warp"]
        (((1,), (2,)), ((32,),))
    """
    if not isinstance(spelling, Mapping) or "kind" not in spelling:
        raise LayoutError(f"a spelling is a dict with a 'kind', got {spelling!r}")
    return gluon.from_dict(dict(spelling)).to_linear(list(shape))


def safe_linear(spelling: Mapping[str, Any], shape: Sequence[int]) -> LinearLayout | str:
    """:func:`spelling_to_linear`, or the error's first line when the spelling is refused.

    For sweeps: the layout is computed without ``to_linear``'s cache (a sweep asks for each
    spelling once; remembering them would only evict what planners reuse).

        >>> safe_linear({"kind": "BlockedLayout", "size_per_thread": [3], "threads_per_warp": [32],
        ...              "warps_per_cta": [1], "order": [0]}, [32])
        'SizeError: BlockedLayout: size_per_thread[0] = 3 is not a power of two'
    """
    try:
        if type(spelling) is not dict or "kind" not in spelling:
            return spelling_to_linear(spelling, shape)
        layout = gluon.from_dict(spelling)
        compute = getattr(type(layout).to_linear, "__wrapped__", None)
        return compute(layout, list(shape)) if compute is not None else layout.to_linear(list(shape))
    except (LayoutError, KeyError, TypeError, IndexError) as e:  # a foreign converter may raise the latter
        return _error_line(e)


def _error_line(e: Exception) -> str:
    """An error as the one line a sweep records: its class and the first line of its message."""
    msg = str(e).splitlines()[0] if str(e) else ""
    return f"{type(e).__name__}: {msg}"
