"""``#ttng.tensor_memory_scales_encoding<blockRepOrder = kThenMn>``: tensor-memory scales whose
repeated 32x4 blocks step along K before M (or N).

Triton 3.9's attribute has a ``blockRepOrder`` parameter (``mnThenK``, the default, or
``kThenMn``; Rubin NVFP4 A scales with ``BLOCK_M = 256`` use ``kThenMn``), Gluon 3.9's
``TensorMemoryScalesLayout`` has no field for it (its ``get_gluon_layout_from_memdesc`` drops it),
so the ``kThenMn`` spelling lives here, with the meaning of ``tensorMemoryScalesToLinearLayout``
(lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp): after the 64x4 tile and the merge of
two MN-adjacent tiles, the K repetitions take the columns before the remaining MN ones.

    >>> a, k = TensorMemoryScalesLayout(), TensorMemoryScalesKThenMnLayout()
    >>> a.to_linear([256, 8]).bases["col"]
    ((0, 1), (0, 2), (32, 0), (64, 0), (128, 0), (0, 4))
    >>> k.to_linear([256, 8]).bases["col"]
    ((0, 1), (0, 2), (32, 0), (64, 0), (0, 4), (128, 0))
    >>> k.to_linear([128, 8]) == a.to_linear([128, 8])       # one MN block: the order does not matter
    True
"""

from __future__ import annotations

from dataclasses import dataclass

from converters.gluon import TensorMemoryScalesLayout

__all__ = ["TensorMemoryScalesKThenMnLayout"]


@dataclass(frozen=True, repr=False)
class TensorMemoryScalesKThenMnLayout(TensorMemoryScalesLayout):
    """``#ttng.tensor_memory_scales_encoding<..., blockRepOrder = kThenMn>`` (see the module docstring)."""

    def __str__(self) -> str:
        return super().__str__().replace("TensorMemoryScalesLayout(", "TensorMemoryScalesKThenMnLayout(", 1)

    def _cta_flat(self, m: int, n: int, sh: int) -> tuple[list[int], list[int]]:
        row, col = super()._cta_flat(m, n, sh)
        # the parent's columns: 2 of K, then MN (32, 64 merged, 128, ...), then K again; the first
        # two MN columns stay, the K repetitions move before the other MN ones
        mn = [c for c in col[2:] if c < (1 << sh)]
        k = col[2 + len(mn):]
        return row, col[:2] + mn[:2] + k + mn[2:]
