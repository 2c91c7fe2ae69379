"""The axes a TIRx layout names, and what they are called in a linear layout.

Thread axes (``laneid``, ``warpid``, ``tx`` ...), memory axes (``m``, ``TLane``, ``TCol`` ...) and
the names they take in a :class:`~linlayout.LinearLayout` (``lane``, ``warp``, ``row``, ``col``).

    >>> LINEAR_AXIS_NAMES["laneid"], as_iter((4, 2, "tid"), "iter 0")
    ('lane', Digit(extent=4, stride=2, axis='tx'))
"""

from __future__ import annotations

import re
from typing import Any

from linlayout.errors import DimensionError
from linlayout.mixed_radix import Digit, to_digit

__all__ = ["Iter", "THREAD_AXES", "MEMORY_AXES", "LINEAR_AXIS_NAMES", "BACK_NAMES", "WARP", "WARPS_PER_GROUP", "as_iter"]

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
