"""linlayout: GPU tensor layouts as linear algebra over GF(2).

Every power-of-two GPU layout (registers of threads and warps, swizzled shared memory, tensor
memory) is a bit matrix over GF(2); composition, inversion, equivalence and conversion planning
are then linear algebra.

    >>> import linlayout
    >>> L = linlayout.LinearLayout.identity_1d(32, "lane", "dim0")
    >>> L.is_invertible()
    True

Heavy optional pieces (galois, networkx, matplotlib, the converters) are imported lazily, so
``import linlayout`` stays fast.
"""

from __future__ import annotations

from .errors import (
    BasisError,
    DimensionError,
    LayoutError,
    NotInjectiveError,
    NotInvertibleError,
    NotLinearError,
    NotSurjectiveError,
    ParseError,
    SizeError,
    UnsupportedError,
)
from .general import Counterexample, Digit, MixedRadixLayout, Pow2Piece
from .linear import LinearLayout

__version__ = "0.1.0"

__all__ = [
    "LinearLayout",
    "MixedRadixLayout",
    "Digit",
    "Counterexample",
    "Pow2Piece",
    "LayoutError",
    "DimensionError",
    "BasisError",
    "SizeError",
    "NotSurjectiveError",
    "NotInjectiveError",
    "NotInvertibleError",
    "NotLinearError",
    "ParseError",
    "UnsupportedError",
]
