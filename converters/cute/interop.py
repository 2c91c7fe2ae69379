"""pycute objects (CUTLASS's Python CuTe, ``pip install --no-deps nvidia-cutlass``) in and out.

The only file that imports pycute, and only when called; without it the functions raise an
:class:`~linlayout.errors.UnsupportedError` that says what to install.  pycute's
``ComposedLayout(layoutB, offset, layoutA)`` is our ``ComposedLayout(outer, offset, inner)``.

    >>> import pytest; pc = pytest.importorskip("pycute")
    >>> from_pycute(pc.Layout((4, 8), (8, 1)))
    Layout((4,8):(8,1))
    >>> c = from_pycute(pc.ComposedLayout(pc.Swizzle(3, 4, 3), 0, pc.Layout((8, 64), (64, 1))))
    >>> c, str(to_pycute(c))
    (ComposedLayout(S<3,4,3> o 0 o (8,64):(64,1)), 'SW_3_4_3 o 0 o (8, 64):(64, 1)')
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Union

from linlayout.errors import LayoutError, UnsupportedError

from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["from_pycute", "to_pycute", "pycute_available"]

CuteValue = Union[Layout, Swizzle, ComposedLayout]


def _pycute() -> ModuleType:
    try:
        import pycute
    except ImportError:
        raise UnsupportedError(
            "pycute is not installed; `pip install --no-deps nvidia-cutlass` provides it"
        ) from None
    return pycute


def pycute_available() -> bool:
    """Whether pycute can be imported."""
    try:
        _pycute()
    except UnsupportedError:
        return False
    return True


def from_pycute(obj: Any) -> CuteValue:
    """Our value for a pycute ``Layout``, ``Swizzle`` or ``ComposedLayout``."""
    pc = _pycute()
    if isinstance(obj, pc.ComposedLayout):
        outer = from_pycute(obj.layoutB)
        inner = from_pycute(obj.layoutA)
        if not isinstance(inner, Layout) or isinstance(outer, ComposedLayout):
            raise UnsupportedError(f"from_pycute: {obj} nests composed layouts, which converters.cute does not hold")
        return ComposedLayout(outer, obj.offset, inner)
    if isinstance(obj, pc.Swizzle):
        return Swizzle(obj.bits, obj.base, obj.shift)
    if isinstance(obj, pc.Layout):
        return Layout(obj.shape, obj.stride)
    raise LayoutError(f"from_pycute: expected a pycute Layout, Swizzle or ComposedLayout, got {type(obj).__name__}")


def to_pycute(x: CuteValue) -> Any:
    """The pycute object for our ``Layout``, ``Swizzle`` or ``ComposedLayout``."""
    pc = _pycute()
    if isinstance(x, ComposedLayout):
        return pc.ComposedLayout(to_pycute(x.outer), x.offset, to_pycute(x.inner))
    if isinstance(x, Swizzle):
        return pc.Swizzle(x.bits, x.base, x.shift)
    if isinstance(x, Layout):
        return pc.Layout(x.shape, x.stride)
    raise LayoutError(f"to_pycute: expected a converters.cute Layout, Swizzle or ComposedLayout, got {type(x).__name__}")
