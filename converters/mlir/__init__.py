"""Triton's IR (TritonGPU MLIR): layout attributes, tensor and memdesc types, whole modules.

The form's entry points: :func:`parse` (an attribute or a type), :func:`to_mlir` (any Gluon
layout, a type prints with ``str``), :func:`from_linear` and :func:`looks_like` (for detection);
:func:`parse_module` reads a whole ``.ttgir`` module.

    >>> from converters.mlir import parse, to_mlir
    >>> t = parse("tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>")
    >>> t.shape, t.dtype, str(t.kind)
    ((128, 64), 'f16', 'distributed')
    >>> t.to_linear().out_dims
    {'dim0': 128, 'dim1': 64}
    >>> to_mlir(from_linear(t.to_linear()))
    '#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [16, 0], [32, 0], [64, 0]], lane = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>'
"""

from __future__ import annotations

from typing import Any

from linlayout.contract import Kind, kind_of_linear
from linlayout.checks import expect
from linlayout.errors import UnsupportedError
from linlayout.linear import LinearLayout

from converters.gluon import DistributedLinearLayout, SharedLinearLayout

from .attrs import ATTRIBUTE_NAMES, MemorySpace, is_layout, parse_attr, to_mlir
from .module import Module, Op, parse_module
from .generic import GenericLinearLayout
from .partitioned import PartitionedSharedLayout
from .rotating import AMDRotatingSharedLayout
from .types import MemDescType, TensorType, parse_type

__all__ = [
    "ATTRIBUTE_NAMES", "MemorySpace", "parse", "parse_attr", "to_mlir", "is_layout", "parse_type", "TensorType", "MemDescType",
    "parse_module", "Module", "Op", "AMDRotatingSharedLayout", "PartitionedSharedLayout", "GenericLinearLayout",
    "from_linear", "looks_like",
]


def looks_like(text: str) -> bool:
    """Whether ``text`` reads as this form: a ``#ttg.``/``#ttng.`` attribute, a ``tensor<...>`` or
    a ``!ttg.memdesc<...>`` type, or a module (``module attributes`` or alias lines).

        >>> looks_like("#ttg.slice<{dim = 0, parent = #blocked}>"), looks_like("BlockedLayout([1], [32], [4], [0])")
        (True, False)
    """
    s = text.lstrip() if isinstance(text, str) else ""
    return s.startswith(("#ttg.", "#ttng.", "tensor<", "!ttg.memdesc<")) or "module attributes" in s or (
        s.startswith("#") and " = #ttg." in s)


def parse(text: str) -> Any:
    """A layout attribute (-> its Gluon layout) or a tensor / memdesc type (-> :class:`TensorType` /
    :class:`MemDescType`, which carry the shape).

        >>> parse("#ttng.tensor_memory_scales_encoding<>")
        TensorMemoryScalesLayout()
    """
    s = text.lstrip() if isinstance(text, str) else text
    if isinstance(s, str) and s.startswith(("tensor<", "!ttg.memdesc<")):
        return parse_type(text)
    return parse_attr(text)


def from_linear(L: LinearLayout) -> Any:
    """A spelling of a linear layout as an attribute value: ``#ttg.linear`` for a distributed
    layout, ``#ttg.shared_linear`` for a shared one (print it with :func:`to_mlir`).

        >>> from_linear(LinearLayout({"row": [[1]], "col": []}, {"dim0": 2}))
        Traceback (most recent call last):
        ...
        linlayout.errors.UnsupportedError: mlir.from_linear: Triton has no linear attribute for tensor_memory layouts
    """
    expect(L, LinearLayout, "mlir.from_linear: L")
    kind = kind_of_linear(L)
    if kind is Kind.DISTRIBUTED:
        return DistributedLinearLayout.from_linear(L)
    if kind is Kind.SHARED:
        return SharedLinearLayout.from_linear(L)
    raise UnsupportedError(f"mlir.from_linear: Triton has no linear attribute for {kind} layouts")


# Jupyter shows IR types and attribute values as pictures (linlayout.draw.layout_html); attributes
# that parse to Gluon layouts are drawn through converters.gluon.
from linlayout.draw import attach_displays as _attach_displays  # noqa: E402
from .value import Attribute as _Attribute  # noqa: E402

_attach_displays(TensorType, MemDescType, AMDRotatingSharedLayout, PartitionedSharedLayout, _Attribute)
