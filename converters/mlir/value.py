"""A layout attribute as a value of the MLIR form: a Gluon layout that prints as Triton's IR.

:func:`converters.mlir.parse` gives bare Gluon layouts (the audit works on those); the registry's
``mlir`` form wraps them in :class:`Attribute`, so that ``str`` prints the attribute text and
``parse(str(v)) == v`` holds in the form's own spelling.

    >>> from converters.gluon import BlockedLayout
    >>> a = Attribute(BlockedLayout([1], [32], [4], [0]))
    >>> print(a)
    #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
    >>> a.kind, a.to_linear([128]).in_dims["lane"]
    (<Kind.DISTRIBUTED: 'distributed'>, 32)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

from linlayout.contract import Kind
from linlayout.linear import LinearLayout

from .attrs import to_mlir

__all__ = ["Attribute"]


@dataclass(frozen=True)
class Attribute:
    """A layout attribute: the Gluon layout it denotes, printed as Triton 3.9 prints it."""

    layout: Any

    @property
    def kind(self) -> Kind:
        return Kind(self.layout.kind)

    def to_linear(self, shape: Optional[Sequence[int]] = None) -> LinearLayout:
        return self.layout.to_linear(shape)

    def __str__(self) -> str:
        return to_mlir(self.layout)

    def __repr__(self) -> str:
        return f"Attribute({self})"
