"""AMD layouts: ``AMDMFMALayout`` (CDNA matrix cores, 64-lane wavefronts).

    >>> m = AMDMFMALayout(3, [32, 32, 8], False, [2, 1])
    >>> L = m.to_linear([128, 32])
    >>> L.bases["lane"]
    ((0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (4, 0))
    >>> L.bases["register"], L.bases["warp"]
    (((1, 0), (2, 0), (8, 0), (16, 0), (64, 0)), ((32, 0),))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from linlayout.errors import DimensionError, LayoutError, UnsupportedError
from linlayout.linear import LinearLayout

from ._build import Builder, check_shape
from .distributed import DistributedLayout, _set, as_int, bases_tuple, check_cga, int_tuple, matrix_order
from .tmem import _as_bool

__all__ = ["AMDMFMALayout"]


@dataclass(frozen=True, repr=False)
class AMDMFMALayout(DistributedLayout):
    """Gluon's ``AMDMFMALayout(version, instr_shape, transposed, warps_per_cta, element_bitwidth,
    tiles_per_warp, cga_layout)``: the accumulator of an MFMA instruction (32x32 or 16x16 output
    tiles per wavefront of 64 lanes).  ``transposed`` swaps the roles of M and N inside a tile.

        >>> AMDMFMALayout(3, [16, 16, 16], True, [1, 1]).to_linear([16, 16]).bases["lane"]
        ((1, 0), (2, 0), (4, 0), (8, 0), (0, 4), (0, 8))
        >>> AMDMFMALayout(5, [16, 16, 16], True, [1, 1])
        Traceback (most recent call last):
        ...
        linlayout.errors.LayoutError: AMDMFMALayout: version must be in 1..4, got 5
    """

    kind = "AMDMFMALayout"
    version: int
    instr_shape: Sequence[int]
    transposed: bool
    warps_per_cta: Sequence[int]
    element_bitwidth: int | None = None
    tiles_per_warp: Sequence[int] | None = None
    cga_layout: Sequence[Sequence[int]] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        who = "AMDMFMALayout"
        v = as_int(self.version, who, "version")
        if not 1 <= v <= 4:
            raise LayoutError(f"{who}: version must be in 1..4, got {v}")
        instr = int_tuple(self.instr_shape, who, "instr_shape")
        if len(instr) != 3:
            raise DimensionError(f"{who}: instr_shape {list(instr)} must be [M, N, K]")
        if instr[:2] not in ((32, 32), (16, 16)):
            raise UnsupportedError(f"{who}: instr_shape {list(instr)}: only 32x32 and 16x16 output tiles are supported")
        wpc = int_tuple(self.warps_per_cta, who, "warps_per_cta", pow2=True)
        rank = len(wpc)
        if rank not in (2, 3):
            raise DimensionError(f"{who}: warps_per_cta {list(wpc)} must have rank 2 or 3")
        eb = 32 if self.element_bitwidth is None else as_int(self.element_bitwidth, who, "element_bitwidth")
        if eb not in (32, 64):
            raise LayoutError(f"{who}: element_bitwidth must be 32 or 64, got {eb}")
        if eb == 64:
            raise UnsupportedError(f"{who}: 64-bit accumulators are not supported here")
        tpw = None if self.tiles_per_warp is None else int_tuple(self.tiles_per_warp, who, "tiles_per_warp", length=rank)
        if tpw is not None and any(x != 1 for x in tpw):
            raise UnsupportedError(f"{who}: tiles_per_warp {list(tpw)} other than all ones is not supported here")
        cga = bases_tuple(self.cga_layout, who, "cga_layout", rank)
        check_cga(cga, who)
        _set(self, "version", v)
        _set(self, "instr_shape", instr)
        _set(self, "transposed", _as_bool(self.transposed, who, "transposed"))
        _set(self, "warps_per_cta", wpc)
        _set(self, "tiles_per_warp", tpw)
        _set(self, "cga_layout", cga)

    @property
    def rank(self) -> int:
        return len(self.warps_per_cta)

    @property
    def warp_size(self) -> int:
        return 64

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """Triton's linear layout of this layout over ``shape``."""
        shp = check_shape(shape, self.rank, "AMDMFMALayout")
        rank = self.rank
        order = matrix_order(rank, True)
        n_dim, m_dim = order[0], order[1]
        b = Builder(rank)
        b.touch("register")
        b.touch("lane")
        for d in order:
            b.touch("register", d)
        # tile bases as (N, M) pairs, scaled onto the standard dims
        if self.instr_shape[0] == 32:
            reg, lane = [(0, 1), (0, 2), (0, 8), (0, 16)], [(1, 0), (2, 0), (4, 0), (8, 0), (16, 0), (0, 4)]
            ext = 32
        else:
            reg, lane = [(0, 1), (0, 2)], [(1, 0), (2, 0), (4, 0), (8, 0), (0, 4), (0, 8)]
            ext = 16
        if self.transposed:
            reg = [(y, x) for x, y in reg]
            lane = [(y, x) for x, y in lane]

        def put(pairs: list[tuple[int, int]]) -> list[list[int]]:
            out = []
            for x, y in pairs:
                v = [0] * rank
                v[n_dim], v[m_dim] = x, y
                out.append(v)
            return out

        b.bases["register"] = put(reg)
        b.bases["lane"] = put(lane)
        b.sizes[n_dim] = b.sizes[m_dim] = ext
        b.identity_nd("warp", self.warps_per_cta, order)
        b.combine_cga(self.cga_layout, shp)
        return b.build()
