"""The axes a TIRx layout names, and what they are called in a linear layout.

Thread axes (``laneid``, ``warpid``, ``tx`` ...), memory axes (``m``, ``TLane``, ``TCol`` ...) and
the names they take in a :class:`~linlayout.LinearLayout` (``lane``, ``warp``, ``row``, ``col``).

    >>> LINEAR_AXIS_NAMES["laneid"], as_iter((4, 2, "tid"), "iter 0")
    ('lane', Digit(extent=4, stride=2, axis='tx'))
"""

from __future__ import annotations

import re
from typing import Any

from linlayout.errors import DimensionError, LayoutError
from linlayout.mixed_radix import Digit, to_digit

__all__ = [
    "Iter", "THREAD_AXES", "MEMORY_AXES", "LINEAR_AXIS_NAMES", "BACK_NAMES", "WARP", "WARPS_PER_GROUP", "as_iter",
    "AXIS_SCOPES", "SCOPE_RANK", "ScopeError", "is_thread_axis", "is_memory_axis",
]

#: A TIRx iter: ``extent`` positions, each adding ``stride`` on ``axis``.
Iter = Digit

THREAD_AXES = ("laneid", "warpid", "tx", "tid", "tid_in_wg", "wid_in_wg", "wgid", "bx", "by", "bz", "cbx", "cby", "cbz")
MEMORY_AXES = ("m", "TLane", "TCol", "P", "F", "Bank")

#: How axes are named in a LinearLayout (see the module docstring); ``m`` depends on the layout.
LINEAR_AXIS_NAMES = {"laneid": "lane", "warpid": "warp", "wid_in_wg": "warp", "TLane": "row", "TCol": "col"}
BACK_NAMES = {"lane": "laneid", "warp": "warpid", "register": "m", "offset": "m", "row": "TLane", "col": "TCol"}

WARP = 32
WARPS_PER_GROUP = 4


def as_iter(x: Any, where: str) -> Iter:
    """An iter from an ``(extent, stride, axis)`` triple (``tid`` read as ``tx``), checked."""
    d = to_digit(x, where)
    axis = "tx" if d.axis == "tid" else d.axis  # TIRx's alias
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", axis):
        raise DimensionError(f"{where} has axis {axis!r}; an axis is an identifier")
    return Iter(d.extent, d.stride, axis)


#: Thread axis -> (the scope one index names, the scope it counts within), as TIRx's CUDA axes
#: (``laneid`` numbers threads within a warp, ``wgid`` warpgroups within a CTA, ...).
AXIS_SCOPES: dict[str, tuple[str, str]] = {
    "laneid": ("thread", "warp"), "warpid": ("warp", "cta"), "tx": ("thread", "cta"),
    "tid_in_wg": ("thread", "warpgroup"), "wid_in_wg": ("warp", "warpgroup"), "wgid": ("warpgroup", "cta"),
    "bx": ("cta", "kernel"), "by": ("cta", "kernel"), "bz": ("cta", "kernel"),
    "cbx": ("cta", "cluster"), "cby": ("cta", "cluster"), "cbz": ("cta", "cluster"),
}
#: TIRx's scope ranks: a larger rank is a finer scope (``thread`` the finest).
SCOPE_RANK = {"kernel": -1, "cluster": 0, "cta": 1, "warpgroup": 2, "warp": 3, "thread": 4}


class ScopeError(LayoutError):
    """A layout whose thread axes do not form one chain of scopes (TIRx's ill-formed layout), or an
    axis TIRx cannot classify as thread or memory where it must."""


def is_thread_axis(axis: str, where: str) -> bool:
    """Whether TIRx classes ``axis`` as a thread axis (False: a memory axis).

        >>> is_thread_axis("warpid", "here"), is_thread_axis("TCol", "here")
        (True, False)

    Raises:
        ScopeError: a user-defined axis, which TIRx cannot classify (it refuses the same call).
    """
    if axis in AXIS_SCOPES:
        return True
    if axis in MEMORY_AXES:
        return False
    raise ScopeError(
        f"{where}: axis {axis!r} is neither a thread axis ({', '.join(AXIS_SCOPES)}) nor a memory axis "
        f"({', '.join(MEMORY_AXES)}); TIRx refuses to classify it"
    )


def is_memory_axis(axis: str, where: str) -> bool:
    """Whether TIRx classes ``axis`` as a memory axis (``m``, ``TLane``, ``TCol``, ``P``, ``F``, ``Bank``).

    Raises:
        ScopeError: as :func:`is_thread_axis`.
    """
    return not is_thread_axis(axis, where)
