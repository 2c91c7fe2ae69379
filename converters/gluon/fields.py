"""Field checks shared by every Gluon layout class: integers, int lists, basis lists, orders,
CGA bases, and setting a normalised field on a frozen value.

Messages name the class (``who``) and the field (``what``), as Gluon's constructors would.

    >>> int_tuple([1, 2], "BlockedLayout", "order")
    (1, 2)
    >>> check_cga([[0, 1], [0, 2]], 2, "BlockedLayout")
    ((0, 1), (0, 2))
    >>> check_cga([[0, 3]], 2, "BlockedLayout")
    Traceback (most recent call last):
    ...
    linlayout.errors.BasisError: BlockedLayout: cga_layout basis [0, 3] must be a power of two on one dim (a permutation matrix)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from linlayout.checks import as_bool, is_pow2
from linlayout.errors import BasisError, DimensionError, LayoutError, SizeError
from linlayout.limits import MAX_ITEMS, MAX_RANK, as_list

__all__ = ["as_bool", "as_int", "int_tuple", "uint32_tuple", "bases_tuple", "check_order", "check_cga", "set_field"]


def as_int(v: Any, who: str, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise LayoutError(f"{who}: {what} must be an int, got {v!r}")
    return v


_INT_ONLY = {int}


def int_tuple(v: Any, who: str, what: str, *, pow2: bool = False, length: int | None = None) -> tuple[int, ...]:
    if (type(v) is list or type(v) is tuple) and set(map(type, v)) <= _INT_ONLY:
        out = tuple(v)  # the common case, checked without a call per entry
    else:
        if isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
            raise LayoutError(f"{who}: {what} must be a list of ints, got {v!r}")
        out = tuple(as_int(x, who, f"{what} entry") for x in as_list(v, f"{who}: {what}", MAX_ITEMS))
    if length is not None and len(out) != length:
        raise DimensionError(f"{who}: {what} has {len(out)} entries, expected {length} (the rank)")
    if pow2:
        for i, x in enumerate(out):
            if not is_pow2(x):
                raise SizeError(f"{who}: {what}[{i}] = {x} is not a power of two")
    return out


def uint32_tuple(v: Any, who: str, what: str) -> tuple[int, ...]:
    """A list of 32-bit unsigned ints of any length up to MAX_RANK, as Triton's bindings take the
    lists whose length Gluon's Python leaves unchecked (which entries are read is for the use to
    say).

        >>> uint32_tuple([1, 0, 7], "example", "tiles_per_warp")
        (1, 0, 7)
        >>> uint32_tuple([1, -1], "example", "tiles_per_warp")
        Traceback (most recent call last):
        ...
        linlayout.errors.SizeError: example: tiles_per_warp[1] = -1 is not a 32-bit unsigned int (Triton's binding refuses it)
    """
    out = int_tuple(v, who, what)
    if len(out) > MAX_RANK:
        raise DimensionError(f"{who}: {what} has {len(out)} entries; at most {MAX_RANK} are accepted")
    for i, x in enumerate(out):
        if not 0 <= x < 1 << 32:
            raise SizeError(f"{who}: {what}[{i}] = {x} is not a 32-bit unsigned int (Triton's binding refuses it)")
    return out


def bases_tuple(v: Any, who: str, what: str, rank: int | None) -> tuple[tuple[int, ...], ...]:
    if v is None:
        return ()
    if isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
        raise BasisError(f"{who}: {what} must be a list of basis vectors, got {v!r}")
    out = []
    for i, b in enumerate(v):
        t = int_tuple(b, who, f"{what}[{i}]")
        if rank is not None and len(t) != rank:
            raise BasisError(f"{who}: {what}[{i}] = {list(t)} has {len(t)} entries, expected {rank} (the rank)")
        for x in t:
            if x < 0:
                raise BasisError(f"{who}: {what}[{i}] = {list(t)} has a negative entry")
        out.append(t)
    return tuple(out)


def check_order(order: tuple[int, ...], rank: int, who: str) -> None:
    if sorted(order) != list(range(rank)):
        raise DimensionError(f"{who}: order {list(order)} is not a permutation of 0..{rank - 1}")


def check_cga(cga_layout: Any, rank: int | None, who: str) -> tuple[tuple[int, ...], ...]:
    """Validate Gluon's ``cga_layout`` (block bases in CTA-tile units).

    As Triton 3.9 requires, the non-zero bases must form a permutation matrix: each a power of two
    on one dim, no repeats, and on every dim the powers 1, 2, 4, ... up to the largest.
    """
    if cga_layout is None:
        return ()
    try:
        cga = tuple(tuple(int(v) for v in b) for b in cga_layout)
    except (TypeError, ValueError):
        raise LayoutError(f"{who}: cga_layout must be a list of bases (lists of ints), got {cga_layout!r}") from None
    per_dim: dict[int, list[int]] = {}
    for b in cga:
        if rank is not None and len(b) != rank:
            raise DimensionError(f"{who}: cga_layout basis {list(b)} must have {rank} entries")
        nz = [(i, v) for i, v in enumerate(b) if v]
        if not nz:
            continue  # a broadcast CTA
        if len(nz) != 1 or not is_pow2(nz[0][1]):
            raise BasisError(f"{who}: cga_layout basis {list(b)} must be a power of two on one dim (a permutation matrix)")
        per_dim.setdefault(nz[0][0], []).append(nz[0][1])
    for i, vals in per_dim.items():
        if sorted(vals) != [1 << k for k in range(len(vals))]:
            raise BasisError(
                f"{who}: cga_layout bases on dim {i} are {vals}; after removing broadcast bases the CGA "
                "must be a permutation matrix (powers 1, 2, 4, ... each once), as Triton requires"
            )
    return cga


def set_field(obj: Any, name: str, value: Any) -> None:
    """Set a normalised field of a frozen dataclass value (in ``__post_init__`` only)."""
    object.__setattr__(obj, name, value)
