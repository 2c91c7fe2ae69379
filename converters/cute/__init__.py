"""CuTe layouts: notation, basis descriptors, the layout algebra, and bridges to linlayout.

* :mod:`.layout` — :class:`Layout` (nested shape:stride), evaluation, ``size``/``cosize``/...
* :mod:`.swizzle` — :class:`Swizzle` ``<B, M, S>`` and :class:`ComposedLayout` (swizzle o offset o layout)
* :mod:`.text` — parse and print CuTe notation (``(4,8):(8,1)``, ``S<3,4,3> o 0 o ...``, the
  C++ print forms ``(_4,_8):(_8,_1)``, basis strides ``(4,8):(1@0,1@1)``)
* :mod:`.descriptor` — the basis descriptor grammar (``(1@0, 8@1)``, ``(1/2@0, 4@1)``, ...)
* :mod:`.algebra` — coalesce, composition, complement, inverses, divides and products, as CuTe
  C++ computes them (checked row by row against C++ compiled on the CPU: tests/oracles/cute-cpp)
* :mod:`.memory_map` — a CuTe layout as a memory map: its linear form ``offset -> dim0, dim1, ...``
  (the contract's direction, :func:`to_linear`) and CuTe's own coordinate -> offset map
  (:func:`offset_map`), over GF(2) or mixed-radix
* :mod:`.bridge` — back from a :class:`linlayout.LinearLayout` (:func:`from_linear`,
  :func:`from_offset_map`)
* :mod:`.tv` — :class:`TVLayout` (thread-value layouts over a tile: CuTe's distributed layouts)
  and their distributed linear form
* :mod:`.interop` — pycute objects in and out (``from_pycute``, ``to_pycute``; pycute optional)
* :mod:`.atoms` — the MMA and copy atoms by CUTLASS name (``mma_atom``, ``copy_atom``, ``atoms``)
* :mod:`.inttuple` — int-tuple functions (``shape_div``, ``weakly_congruent``, ``evenly_divides``,
  ``lex_less`` / ``colex_less`` / ``elem_less``, ``idx2crd`` through strides) and the slicing
  underscore :data:`_`
* :mod:`.slicing` — ``slice``, ``dice``, ``slice_and_offset`` of plain and swizzled layouts
  (``L(i, _)`` slices)
* :mod:`.queries` — ``nullspace``, ``domain_distribute``, ``max_alignment``;
  :mod:`.mixedbits` — ``MixedBits`` (C++'s partly static, partly run-time 32-bit values)
* :mod:`.tmem` — UMMA tensor-memory fragments (CuTe's ``tmem_frg``: ``TMEM::DP`` / column
  addresses) as :class:`TmemLayout` values of kind ``tensor_memory`` (``row, col -> dim0, dim1``)

A CuTe ``Layout`` is a memory map (kind ``memory``): coordinates -> offset.

    >>> from converters.cute import parse, composition, to_linear, offset_map
    >>> composition(parse("8:2"), parse("4:1"))
    Layout(4:2)
    >>> offset_map(parse("(4,8):(8,1)")).bases["dim0"]
    ((8,), (16,))
    >>> to_linear(parse("(4,8):(8,1)")).in_dims
    {'offset': 32}
"""

from . import algebra
from .algebra import *  # noqa: F403 (the algebra's public names, listed in algebra.__all__)
from .atoms import CopyAtom, MMAAtom, atoms, copy_atom, mma_atom, smem_atom
from .bridge import from_linear, from_offset_map
from .memory_map import is_linear, offset_general, offset_map, to_general, to_linear
from .interop import from_pycute, pycute_available, to_pycute
from .descriptor import Basis, Descriptor, basis_layout, format_descriptor, normalize_descriptor, parse_descriptor
from .layout import E, Layout, make_layout
from .swizzle import ComposedLayout, Swizzle
from .read import parse
from .text import format_coord, format_layout, parse_coord, parse_int_tuple, parse_layout, parse_swizzle
from .tv import TVLayout, make_layout_tv, parse_tv, to_tv
from .tmem import TmemLayout, parse_tmem, tmem_frg
from . import inttuple, mixedbits, queries, slicing
from .mixedbits import MixedBits, MixedBitsError, make_mixed_bits
from .queries import domain_distribute, max_alignment, nullspace
from .inttuple import *  # noqa: F403 (listed in inttuple.__all__)
from .inttuple import _
from .slicing import dice, slice, slice_and_offset  # noqa: A004 (CuTe's names)

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
    "parse_coord",
    "format_coord",
    "format_layout",
    "Basis",
    "Descriptor",
    "parse_descriptor",
    "format_descriptor",
    "normalize_descriptor",
    "basis_layout",
    "to_linear",
    "to_general",
    "offset_map",
    "offset_general",
    "is_linear",
    "from_linear",
    "from_offset_map",
    "from_pycute",
    "to_pycute",
    "pycute_available",
    "TVLayout",
    "parse_tv",
    "make_layout_tv",
    "to_tv",
    "TmemLayout",
    "tmem_frg",
    "parse_tmem",
    "MMAAtom",
    "CopyAtom",
    "mma_atom",
    "copy_atom",
    "smem_atom",
    "atoms",
    *algebra.__all__,
    *inttuple.__all__,
    *slicing.__all__,
    *mixedbits.__all__,
    *queries.__all__,
]

# Jupyter shows every CuTe layout value (and TV layout) as a picture (linlayout.draw.layout_html).
from linlayout.draw import attach_displays as _attach_displays  # noqa: E402

_attach_displays(Layout, ComposedLayout, TVLayout, Swizzle)
