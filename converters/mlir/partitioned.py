"""``#ttg.partitioned_shared``: AMD's shared layout that splits a tensor along one dim into pieces
held by ``numPartitions`` separate buffers.  Gluon 3.9 has the class
(``gluon.language.amd.cdna5.PartitionedSharedLayout``), converters.gluon not yet; this one has
Triton 3.9's meaning (``partitionedSharedToLinearLayout`` in
lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp): the tensor's ``partitionDim`` is cut into
``numPartitions * numGroups`` pieces; the inner layout places one piece; the ``partition`` in-dim
picks the buffer (pieces ``p, p + numPartitions, ...``) and the top ``offset`` bits pick the group.

    >>> from converters.gluon import SwizzledSharedLayout
    >>> lay = PartitionedSharedLayout(16, 2, 0, SwizzledSharedLayout(4, 2, 4, [1, 0]))
    >>> L = lay.to_linear([32, 32])
    >>> L.bases["offset"][-1], L.bases["partition"]
    ((16, 0), ((1, 0), (2, 0), (4, 0), (8, 0)))

Triton's ``to_linear_layout`` hands the result out as a ``SharedLinearLayout`` (``offset`` and
``block`` bases: the ``partition`` bases are dropped), so the corpus checks those two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from linlayout.contract import Kind
from linlayout.errors import DimensionError, UnsupportedError, SizeError
from linlayout.linear import LinearLayout

from converters.gluon import PaddedSharedLayout
from converters.gluon.fields import int_tuple

__all__ = ["PartitionedSharedLayout"]


@dataclass(frozen=True)
class PartitionedSharedLayout:
    """``#ttg.partitioned_shared<{numPartitions, numGroups, partitionDim, partitionLayout}>``."""

    num_partitions: int
    num_groups: int
    partition_dim: int
    partition_layout: Any

    family: ClassVar[str] = "PartitionedSharedLayout"
    kind: ClassVar[Kind] = Kind.SHARED

    def __post_init__(self) -> None:
        who = "PartitionedSharedLayout"
        # PartitionedSharedEncodingAttr::verify
        n, g, d = (int_tuple([x], who, name)[0] for x, name in ((self.num_partitions, "num_partitions"),
                                                                 (self.num_groups, "num_groups"),
                                                                 (self.partition_dim, "partition_dim")))
        if n < 2 or n & (n - 1):
            raise SizeError(f"{who}: num_partitions must be a power of 2 and at least 2, got {n}")
        if g < 1 or g & (g - 1):
            raise SizeError(f"{who}: num_groups must be a power of 2 and greater than 0, got {g}")
        if getattr(self.partition_layout, "kind", None) is not Kind.SHARED:
            raise SizeError(f"{who}: partition_layout must be a shared layout, got {self.partition_layout!r}")
        rank = self.rank
        if not 0 <= d < rank:
            raise DimensionError(f"{who}: partition_dim ({d}) must be less than the layout rank ({rank})")

    @property
    def rank(self) -> int:
        inner = self.partition_layout
        return int(inner.rank) if hasattr(inner, "rank") else len(inner.shape)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.family, "num_partitions": self.num_partitions, "num_groups": self.num_groups,
                "partition_dim": self.partition_dim, "partition_layout": self.partition_layout.to_dict()}

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """``offset``/``block``/``partition`` -> ``dim0..`` as Triton 3.9 computes it."""
        who = "PartitionedSharedLayout.to_linear"
        shp = list(int_tuple(shape, who, "shape", pow2=True))
        if len(shp) != self.rank:
            raise DimensionError(f"{who}: shape {shp} has rank {len(shp)}, the layout {self.rank}")
        if isinstance(self.partition_layout, PaddedSharedLayout):
            raise UnsupportedError(f"{who}: Triton 3.9 gives no linear layout for a partitioned layout wrapping a "
                                   "padded one (it uses paddedLinearLayout)")
        d, pieces = self.partition_dim, self.num_partitions * self.num_groups
        if shp[d] < pieces:
            raise DimensionError(f"{who}: dim {d} of shape {shp} is smaller than its {pieces} pieces "
                                 f"({self.num_partitions} partitions x {self.num_groups} groups)")
        piece = list(shp)
        piece[d] //= pieces
        base = self.partition_layout.to_linear(piece)
        rank = len(shp)

        def along(k: int) -> list[int]:
            return [k if i == d else 0 for i in range(rank)]

        part = [along(piece[d] << i) for i in range(self.num_partitions.bit_length() - 1)]
        groups = [along((piece[d] * self.num_partitions) << i) for i in range(self.num_groups.bit_length() - 1)]
        bases = {"offset": [list(b) for b in base.bases["offset"]] + groups,
                 "block": [list(b) for b in base.bases.get("block", ())], "partition": part}
        return LinearLayout(bases, [(name, shp[i]) for i, name in enumerate(base.out_dims)])
