"""Spaces of Gluon spellings: enumerate them (Gluon's JSON form, ``{"kind": "BlockedLayout", ...}``),
print them, and read them as linear layouts.

    >>> [format_spelling(s) for s in blocked_spellings([4], 1)][:2]
    ['BlockedLayout([1], [32], [1], [0])', 'BlockedLayout([2], [32], [1], [0])']
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from converters import gluon
from linlayout.checks import is_pow2
from linlayout.errors import DimensionError, LayoutError, SizeError
from linlayout.limits import MAX_SPELLINGS
from linlayout.linear import LinearLayout

__all__ = [
    "Spelling",
    "blocked_spellings",
    "slice_spellings",
    "mma_spellings",
    "dot_operand_spellings",
    "swizzled_shared_spellings",
    "format_spelling",
    "spelling_to_linear",
    "safe_linear",
    "check_spelling_shape",
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
        shape = [int(s) for s in shape]
    except (TypeError, ValueError):
        raise DimensionError(f"shape must be a list of ints, got {shape!r}") from None
    if not shape:
        raise DimensionError("shape must have at least one dim")
    for d, s in enumerate(shape):
        if not is_pow2(s):
            raise SizeError(f"shape[{d}] = {s} is not a power of two (Gluon distributed layouts need power-of-two shapes)")
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


# ---------------------------------------------------------------------------------- spellings


def blocked_spellings(
    shape: Sequence[int],
    num_warps: int,
    *,
    threads_per_warp: int = 32,
    max_size_per_thread: int | None = None,
) -> list[Spelling]:
    """Every ``BlockedLayout`` for a tensor ``shape`` on ``num_warps`` warps (one CTA).

    ``size_per_thread[d]`` ranges over the powers of two up to ``shape[d]`` (and up to
    ``max_size_per_thread``); ``threads_per_warp`` and ``warps_per_cta`` over every power-of-two
    split of the warp size and the warp count; ``order`` over every permutation.

        >>> len(blocked_spellings([128, 128], 4))
        2304
        >>> blocked_spellings([4], 1)[0]
        {'kind': 'BlockedLayout', 'size_per_thread': [1], 'threads_per_warp': [32], 'warps_per_cta': [1], 'order': [0], 'cga_layout': []}
    """
    shape = check_spelling_shape(shape)
    if not is_pow2(num_warps):
        raise SizeError(f"num_warps must be a power of two, got {num_warps}")
    if not is_pow2(threads_per_warp):
        raise SizeError(f"threads_per_warp must be a power of two, got {threads_per_warp}")
    rank = len(shape)
    spt_choices = [[v for v in _pow2_upto(s) if max_size_per_thread is None or v <= max_size_per_thread] for s in shape]
    _check_count(math.prod(len(c) for c in spt_choices) * _count_splits(threads_per_warp, rank)
                 * _count_splits(num_warps, rank) * math.factorial(rank), "blocked_spellings")
    out = []
    for spt in itertools.product(*spt_choices):
        for tpw in _splits(threads_per_warp, rank):
            for wpc in _splits(num_warps, rank):
                for order in itertools.permutations(range(rank)):
                    out.append(
                        {
                            "kind": "BlockedLayout",
                            "size_per_thread": list(spt),
                            "threads_per_warp": tpw,
                            "warps_per_cta": wpc,
                            "order": list(order),
                            "cga_layout": [],
                        }
                    )
    return out


def slice_spellings(
    shape: Sequence[int],
    num_warps: int,
    *,
    threads_per_warp: int = 32,
    max_size_per_thread: int | None = None,
) -> list[Spelling]:
    """Every ``SliceLayout(dim, BlockedLayout(...))`` for ``shape``: a blocked parent of rank
    ``len(shape) + 1`` (size 1 per thread along the sliced dim) with one dim sliced away.

        >>> s = slice_spellings([32], 1)
        >>> len(s), s[0]["kind"], s[0]["dim"]
        (144, 'SliceLayout', 0)
    """
    shape = check_spelling_shape(shape)
    out = []
    for dim in range(len(shape) + 1):
        parent_shape = shape[:dim] + [1] + shape[dim:]
        for p in blocked_spellings(parent_shape, num_warps, threads_per_warp=threads_per_warp, max_size_per_thread=max_size_per_thread):
            out.append({"kind": "SliceLayout", "dim": dim, "parent": p})
    return out


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
    if bitwidth not in (8, 16, 32):
        raise SizeError(f"bitwidth must be 8, 16 or 32, got {bitwidth}")
    out = []
    k_width = max(1, 32 // bitwidth)
    for p in parents:
        version = p.get("version", [2, 0])[0]
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
    """:func:`spelling_to_linear`, or the error's first line when the spelling is refused."""
    try:
        return spelling_to_linear(spelling, shape)
    except (LayoutError, KeyError, TypeError, IndexError) as e:  # a foreign converter may raise the latter
        msg = str(e).splitlines()[0] if str(e) else ""
        return f"{type(e).__name__}: {msg}"
