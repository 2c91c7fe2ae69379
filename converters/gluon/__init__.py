"""Gluon (Triton's layout language) layouts: classes with Gluon's names, their linear layouts
(bit-exact with Triton 3.9), the dict and constructor-text forms, and the reverse direction.

    >>> from converters.gluon import from_dict, parse, BlockedLayout
    >>> b = parse("gl.BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])")
    >>> from_dict(b.to_dict()) == b
    True
    >>> b.to_linear([64, 16]).out_dims
    {'dim0': 64, 'dim1': 16}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import GluonLayout, lookup, register, registry
from .distributed import (
    BlockedLayout,
    DistributedLayout,
    DistributedLinearLayout,
    DotOperandLayout,
    NVMMADistributedLayout,
    SliceLayout,
)
from .amd import AMDMFMALayout, AMDWMMALayout
from .text import parse
from .tmem import TMEM_INSTR_VARIANTS, TensorMemoryLayout, TensorMemoryScalesLayout, tmem_reg_layout, tmem_view_layout
from .shared import NVMMASharedLayout, PaddedSharedLayout, SharedLinearLayout, SwizzledSharedLayout
from .spell import canonical, simplest_spelling, spellings
from .interop import from_triton, linear_from_triton, linear_to_triton, to_triton, triton_available


def from_dict(d: Mapping[str, Any]) -> GluonLayout:
    """A Gluon layout from its JSON form ``{"kind": <Gluon class name>, <field>: ...}``.

        >>> from_dict({"kind": "BlockedLayout", "size_per_thread": [1], "threads_per_warp": [32],
        ...            "warps_per_cta": [4], "order": [0], "cga_layout": []})
        BlockedLayout([1], [32], [4], [0])
    """
    return GluonLayout.from_dict(d)


__all__ = [
    "GluonLayout",
    "DistributedLayout",
    "BlockedLayout",
    "SliceLayout",
    "DistributedLinearLayout",
    "NVMMADistributedLayout",
    "DotOperandLayout",
    "TensorMemoryLayout",
    "TensorMemoryScalesLayout",
    "tmem_reg_layout",
    "tmem_view_layout",
    "TMEM_INSTR_VARIANTS",
    "AMDMFMALayout",
    "AMDWMMALayout",
    "NVMMASharedLayout",
    "SwizzledSharedLayout",
    "SharedLinearLayout",
    "PaddedSharedLayout",
    "from_dict",
    "parse",
    "spellings",
    "simplest_spelling",
    "canonical",
    "from_triton",
    "to_triton",
    "linear_from_triton",
    "linear_to_triton",
    "triton_available",
    "lookup",
    "register",
    "registry",
]

# Jupyter shows every Gluon layout as a picture (linlayout.draw.layout_html; a shape-less one says how to give a shape).
from linlayout.draw import attach_displays as _attach_displays  # noqa: E402

_attach_displays(GluonLayout)
