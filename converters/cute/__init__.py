"""CuTe layouts: notation, basis descriptors, the layout algebra, and bridges to linlayout.

* :mod:`.layout` — :class:`Layout` (nested shape:stride), evaluation, ``size``/``cosize``/...
* :mod:`.swizzle` — :class:`Swizzle` ``<B, M, S>`` and :class:`ComposedLayout` (swizzle o offset o layout)
* :mod:`.text` — parse and print CuTe notation (``(4,8):(8,1)``, ``S<3,4,3> o 0 o ...``, the
  C++ print forms ``(_4,_8):(_8,_1)``, basis strides ``(4,8):(1@0,1@1)``)
* :mod:`.descriptor` — the basis descriptor grammar (``(1@0, 8@1)``, ``(1/2@0, 4@1)``, ...)
* :mod:`.algebra` — coalesce, composition, complement, inverses, divides and products, as CuTe
  C++ computes them (checked row by row against C++ compiled on the CPU: tests/oracles/cute-cpp)
* :mod:`.bridge` — to and from :class:`linlayout.LinearLayout` (exactly when GF(2)-linear) and
  the general mixed-radix backend

    >>> from converters.cute import parse, composition, to_linear
    >>> composition(parse("8:2"), parse("4:1"))
    Layout(4:2)
    >>> to_linear(parse("(4,8):(8,1)")).bases["dim0"]
    ((8,), (16,))
"""

from . import algebra
from .algebra import *  # noqa: F403 (the algebra's public names, listed in algebra.__all__)
from .bridge import from_linear, to_general, to_linear
from .descriptor import Basis, Descriptor, basis_layout, format_descriptor, normalize_descriptor, parse_descriptor
from .layout import E, Layout, make_layout
from .swizzle import ComposedLayout, Swizzle
from .text import format_layout, parse, parse_int_tuple, parse_layout, parse_swizzle

__all__ = [
    "Layout",
    "E",
    "make_layout",
    "Swizzle",
    "ComposedLayout",
    "parse",
    "parse_layout",
    "parse_swizzle",
    "parse_int_tuple",
    "format_layout",
    "Basis",
    "Descriptor",
    "parse_descriptor",
    "format_descriptor",
    "normalize_descriptor",
    "basis_layout",
    "to_linear",
    "from_linear",
    "to_general",
    *algebra.__all__,
]
