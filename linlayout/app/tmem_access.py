"""Tensor-memory accesses of Gluon layouts: the ``tcgen05`` candidates Triton 3.9 would build,
handed to :func:`linlayout.plan_tmem.plan_tmem` (the planning layer works on linear forms only).

    >>> from converters.gluon import TensorMemoryLayout
    >>> from converters.gluon.tmem import tmem_reg_layout
    >>> t = TensorMemoryLayout([128, 128], 1)
    >>> epilogue = tmem_reg_layout(t, [128, 128], element_bitwidth=16, instr_variant="16x256b")
    >>> p = plan_tmem_access(t, [128, 128], epilogue, element_bitwidth=16)
    >>> p.chosen.shape, p.chosen.conversion.kind
    ('16x256b', 'noop')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from converters.gluon.tmem import TMEM_INSTR_VARIANTS, tmem_reg_layout, tmem_view_layout
from linlayout.errors import LayoutError
from linlayout.linear import LinearLayout
from linlayout.plan_tmem import TmemPlan, plan_tmem

__all__ = ["tmem_candidates", "plan_tmem_access"]


def tmem_candidates(tmem: Any, shape: Sequence[int], *, element_bitwidth: int, num_warps: int = 4,
                    alloc_shape: Sequence[int] | None = None) -> dict[str, LinearLayout | str]:
    """Every ``tcgen05`` shape's register layout for ``tmem`` (a Gluon ``TensorMemoryLayout``
    with its CGA / two-CTA settings, or a ``TensorMemoryScalesLayout``), or why Triton refuses it."""
    out: dict[str, LinearLayout | str] = {}
    for v in TMEM_INSTR_VARIANTS:
        try:
            out[v] = tmem_reg_layout(tmem, shape, element_bitwidth=element_bitwidth, num_warps=num_warps, instr_variant=v,
                                     alloc_shape=alloc_shape).to_linear(list(shape))
        except LayoutError as e:
            out[v] = str(e).splitlines()[0]
    return out


def plan_tmem_access(tmem: Any, shape: Sequence[int], other: Any, *, element_bitwidth: int, num_warps: int = 4,
                     direction: str = "load", alloc_shape: Sequence[int] | None = None, **options: Any) -> TmemPlan:
    """:func:`linlayout.plan_tmem.plan_tmem` for a Gluon tensor-memory layout: the linear form of one
    CTA's view (``row, col -> dim0, dim1``) and the candidates of :func:`tmem_candidates`."""
    cands = tmem_candidates(tmem, shape, element_bitwidth=element_bitwidth, num_warps=num_warps, alloc_shape=alloc_shape)
    if alloc_shape is None:
        T = tmem.to_linear(list(shape))  # row, col[, block] -> dim0, dim1 (the CGA's CTAs as block)
    else:  # a view of a larger allocation: one CTA's view
        per, per_alloc, blocks = tmem.cta_split(list(shape), alloc_shape)
        if blocks:
            raise LayoutError("plan_tmem_access: a view of a larger allocation over several CTAs is not supported; "
                              "give alloc_shape=None or one CTA's shape")
        T = tmem_view_layout(tmem, per, per_alloc, element_ty=element_bitwidth)
    other_l = other if isinstance(other, LinearLayout) else other.to_linear(list(shape))
    return plan_tmem(T, cands, other_l, bitwidth=element_bitwidth, direction=direction, **options)
