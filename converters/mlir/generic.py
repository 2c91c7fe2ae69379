"""``#ttg.generic_linear``: a distributed linear layout whose bases may XOR dims together.

Triton 3.9 reads ``#ttg.linear`` only when its bases, broadcast ones left out, are a permutation
matrix ("LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases");
``#ttg.generic_linear`` takes any bases.  Gluon 3.9 hands both out as ``DistributedLinearLayout``,
so the linear layout is the same; this class only remembers the spelling, so that a type prints
back as Triton prints it.

    >>> g = GenericLinearLayout([[1, 0], [0, 1]], [[2, 0], [4, 0], [8, 0], [0, 2], [0, 4]], [[16, 8], [0, 8]])
    >>> g.to_linear([32, 16]).bases["warp"]
    ((16, 8), (0, 8))
    >>> g == DistributedLinearLayout(g.reg_bases, g.lane_bases, g.warp_bases)
    False
"""

from __future__ import annotations

from dataclasses import dataclass

from converters.gluon import DistributedLinearLayout

__all__ = ["GenericLinearLayout"]


@dataclass(frozen=True, repr=False)
class GenericLinearLayout(DistributedLinearLayout):
    """``#ttg.generic_linear<{register, lane, warp, block}>`` (see the module docstring)."""

    def __str__(self) -> str:
        return "Generic" + super().__str__()
