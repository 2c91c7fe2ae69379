"""``#ttg.amd_rotating_shared``: AMD's swizzled shared layout whose phase also rotates by block of
rows.  Gluon 3.9 has no class for it (``get_gluon_layout_from_memdesc`` answers "Unhandled
encoding"), so it lives here, with Triton 3.9's meaning (``sharedToLinearLayoutAMDRotating`` in
lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp): as ``#ttg.swizzled_shared``, except that row
``r``'s XOR pattern uses ``phase ^ blockNo`` with ``phase = (r / perPhase) % maxPhase`` and
``blockNo = (r / maxPhase / perPhase) % maxPhase``.

    >>> lay = AMDRotatingSharedLayout(4, 1, 4, [1, 0])
    >>> str(lay.kind)
    'shared'
    >>> L = lay.to_linear([16, 16])
    >>> [L(offset=16 * r)["dim1"] for r in (1, 2, 4, 8)]     # swizzled would give 4, 8, 0, 0
    [4, 8, 4, 8]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from linlayout.contract import Kind
from linlayout.errors import UnsupportedError
from linlayout.limits import MAX_RANK, as_list
from linlayout.linear import LinearLayout

from converters.gluon import SwizzledSharedLayout
from converters.gluon.fields import int_tuple

__all__ = ["AMDRotatingSharedLayout"]


@dataclass(frozen=True)
class AMDRotatingSharedLayout:
    """``#ttg.amd_rotating_shared<{vec, perPhase, maxPhase, order}>`` (see the module docstring)."""

    vec: int
    per_phase: int
    max_phase: int
    order: Sequence[int]
    cga_layout: Sequence[Sequence[int]] = field(default_factory=tuple)

    #: the class name in the dict form (Gluon's convention); ``kind`` is the contract's
    family: ClassVar[str] = "AMDRotatingSharedLayout"
    kind: ClassVar[Kind] = Kind.SHARED

    def __post_init__(self) -> None:
        who = "AMDRotatingSharedLayout"
        object.__setattr__(self, "order", int_tuple(self.order, who, "order"))
        object.__setattr__(self, "cga_layout", tuple(int_tuple(b, who, "cga_layout entry")
                                                     for b in as_list(self.cga_layout, f"{who}: cga_layout", MAX_RANK)))
        self._swizzled()  # the same checks as #ttg.swizzled_shared
        if self.cga_layout:
            raise UnsupportedError("AMDRotatingSharedLayout: a CGA layout is not supported (AMD GPUs have no CTA clusters)")

    def _swizzled(self) -> SwizzledSharedLayout:
        return SwizzledSharedLayout(self.vec, self.per_phase, self.max_phase, list(self.order))

    @property
    def rank(self) -> int:
        return len(self.order)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.family, "vec": self.vec, "per_phase": self.per_phase, "max_phase": self.max_phase,
                "order": list(self.order), "cga_layout": [list(b) for b in self.cga_layout]}

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """``offset``/``block`` -> ``dim0..`` as Triton 3.9 computes it."""
        L = self._swizzled().to_linear(shape)
        if self.rank == 1:
            return L
        shp = list(L.out_dims.values())
        col, row = self.order[0], self.order[1]
        ncols = shp[col]
        n_col_bits = ncols.bit_length() - 1
        offs = [list(b) for b in L.bases["offset"]]
        r = 1
        k = n_col_bits
        while r < shp[row]:
            phase = (r // self.per_phase) % self.max_phase
            block = (r // self.max_phase // self.per_phase) % self.max_phase
            offs[k][col] = (self.vec * (phase ^ block)) % ncols
            r *= 2
            k += 1
        return LinearLayout({"offset": offs, "block": [list(b) for b in L.bases["block"]]}, list(L.out_dims.items()))
