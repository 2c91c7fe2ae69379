"""Tensor and memdesc types of Triton's IR: the shape and element type come with the layout.

``tensor<128x64xf16, #blocked>`` is a :class:`TensorType` (a distributed layout: registers);
``!ttg.memdesc<64x64xf16, #shared, #smem, mutable>`` a :class:`MemDescType` (shared or tensor
memory).  Both are layout values of the contract (:mod:`linlayout.contract`): ``kind`` and
``to_linear(shape=None)``, the shape being the type's own.

    >>> t = parse_type("!ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, "
    ...                "transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable, 2x64x64>")
    >>> t.shape, t.alloc_shape, t.mutable, str(t.kind)
    ((64, 64), (2, 64, 64), True, 'shared')
    >>> t.to_linear().in_dims
    {'offset': 4096, 'block': 1}
    >>> parse_type("tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>").to_linear()
    Traceback (most recent call last):
    ...
    linlayout.errors.DimensionError: tensor<128x64xf16>: its layout #ttg.blocked has rank 1, the tensor rank 2
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

from linlayout.contract import Kind
from linlayout.dtypes import DTYPE_BITS
from linlayout.errors import DimensionError, LayoutError, ParseError, SizeError, UnsupportedError
from linlayout.limits import MAX_RANK, parse_int
from linlayout.linear import LinearLayout

from converters.gluon import AMDWMMALayout, TensorMemoryLayout, TensorMemoryScalesLayout

from .attrs import LayoutAttr, MemorySpace, is_layout, read_attr, to_mlir
from .reader import Reader

__all__ = ["TensorType", "MemDescType", "parse_type", "read_type", "dtype_bits"]

_DIM = re.compile(r"([0-9]+)x")
_ELEM = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def dtype_bits(dtype: str) -> int:
    """Bits of an MLIR element type: ``f16``, ``bf16``, ``i1`` (a byte), ``f8E4M3FN``,
    ``!tt.ptr<f16>`` (64) ...

        >>> dtype_bits("f8E4M3FN"), dtype_bits("!tt.ptr<f16>"), dtype_bits("i1")
        (8, 64, 8)
    """
    if dtype.startswith("!tt.ptr"):
        return 64
    key = dtype.lower()
    if key in DTYPE_BITS:
        return DTYPE_BITS[key]
    m = re.fullmatch(r"f([1-9][0-9]{0,3})(e\d+m\d+.*)?", key)
    if m:
        return int(m.group(1))
    m = re.fullmatch(r"[iu]i?([1-9][0-9]{0,3})", key)
    if m:
        return max(8, int(m.group(1))) if m.group(1) == "1" else int(m.group(1))
    raise LayoutError(f"unknown MLIR element type {dtype!r}")


def _layout_rank(layout: Any) -> Optional[int]:
    r = getattr(layout, "rank", None)
    return r if isinstance(r, int) else None


class _Typed:
    shape: tuple[int, ...]
    dtype: str
    layout: Any

    @property
    def bitwidth(self) -> int:
        """Bits of one element."""
        return dtype_bits(self.dtype)

    @property
    def layout_text(self) -> str:
        """The layout as attribute text, aliases expanded."""
        return to_mlir(self.layout)

    def _shape_text(self) -> str:
        return "".join(f"{s}x" for s in self.shape) + self.dtype  # a rank-0 type is tensor<f16, ...>

    def to_linear(self, shape: Optional[Sequence[int]] = None) -> LinearLayout:
        """The layout's linear form over this type's shape (``shape``, if given, must be it; a
        multi-buffered memdesc gives one buffer's)."""
        own = self._own_shape(shape)
        rank = _layout_rank(self.layout)
        if rank is not None and rank != len(own):
            name = to_mlir(self.layout).split("<", 1)[0]
            raise DimensionError(f"{self._head()}: its layout {name} has rank {rank}, the tensor rank {len(own)}")
        return self.layout.to_linear(own)

    def _linear_shape(self) -> tuple[int, ...]:
        return self.shape

    def _own_shape(self, shape: Optional[Sequence[int]]) -> list[int]:
        """The shape a form of this type is built over (one buffer's for a multi-buffered
        memdesc); ``shape``, if given, must be the type's or that one."""
        own = list(self._linear_shape())
        if shape is not None and list(shape) not in (list(self.shape), own):
            raise SizeError(f"{self}: the type's shape is {list(self.shape)}, not {list(shape)}")
        return own

    def to_general(self, shape: Optional[Sequence[int]] = None) -> Any:
        """The mixed-radix form over this type's shape, where the layout has one."""
        return self._general("to_general", shape)

    def offset_general(self, shape: Optional[Sequence[int]] = None) -> Any:
        """The memory map (coordinates -> offset) of a memory layout that has one (padded shared
        layouts); ``equivalent`` compares two such types by it."""
        return self._general("offset_general", shape)

    def _general(self, method: str, shape: Optional[Sequence[int]]) -> Any:
        own = self._own_shape(shape)
        fn = getattr(self.layout, method, None)
        if fn is None:
            raise UnsupportedError(f"{self._head()}: its layout {type(self.layout).__name__} has no {method}() "
                                   "(it is power-of-two: use to_linear)")
        return fn(own)

    def _head(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class TensorType(_Typed):
    """``tensor<SHAPExDTYPE, #layout>``: a distributed (register) layout with its tensor."""

    shape: tuple[int, ...]
    dtype: str
    layout: LayoutAttr

    @property
    def kind(self) -> Kind:
        return Kind.DISTRIBUTED

    def _head(self) -> str:
        return f"tensor<{self._shape_text()}>"

    def __str__(self) -> str:
        return f"tensor<{self._shape_text()}, {self.layout_text}>"


@dataclass(frozen=True)
class MemDescType(_Typed):
    """``!ttg.memdesc<SHAPExDTYPE, #layout, #memory_space[, mutable][, ALLOC_SHAPE]>``: a buffer in
    shared memory (``#ttg.shared_memory``) or tensor memory (``#ttng.tensor_memory``)."""

    shape: tuple[int, ...]
    dtype: str
    layout: LayoutAttr
    memory_space: str = "ttg.shared_memory"
    mutable: bool = False
    alloc_shape: Optional[tuple[int, ...]] = None

    @property
    def kind(self) -> Kind:
        if self.memory_space == "ttng.tensor_memory" or isinstance(self.layout, (TensorMemoryLayout, TensorMemoryScalesLayout)):
            return Kind.TENSOR_MEMORY
        return Kind.SHARED

    @property
    def nbytes(self) -> int:
        """Bytes of the allocation (its alloc shape, else its shape)."""
        n = 1
        for s in self.alloc_shape or self.shape:
            n *= s
        return n * self.bitwidth // 8

    def _head(self) -> str:
        return f"!ttg.memdesc<{self._shape_text()}>"

    def _linear_shape(self) -> tuple[int, ...]:
        """The shape the layout covers: a layout of fewer dims than the type (multi-buffering,
        ``2x64x32`` with a rank-2 layout) covers one buffer, the trailing dims."""
        rank = _layout_rank(self.layout)
        if rank is not None and rank < len(self.shape):
            return self.shape[len(self.shape) - rank:]
        return self.shape

    def __str__(self) -> str:
        parts = [self._shape_text(), self.layout_text, "#" + self.memory_space]
        if self.mutable:
            parts.append("mutable")
        if self.alloc_shape is not None:
            parts.append("x".join(str(s) for s in self.alloc_shape))
        return f"!ttg.memdesc<{', '.join(parts)}>"


def _dims_and_elem(r: Reader) -> tuple[tuple[int, ...], str]:
    r.ws()
    dims: list[int] = []
    while True:
        m = _DIM.match(r.text, r.pos)
        if not m:
            break
        if len(dims) >= MAX_RANK:
            raise r.error(f"a shape of more than {MAX_RANK} dims")
        dims.append(parse_int(m.group(1), "a dim of the shape", r.text, m.start(1)))
        r.pos = m.end()
    start = r.pos
    if r.text.startswith("!", r.pos):
        r.pos += 1
        r.ident("an element type")
        if r.text.startswith("<", r.pos):
            r.skip_balanced()
        return tuple(dims), r.text[start:r.pos]
    m = _ELEM.match(r.text, r.pos)
    if not m:
        raise r.error("expected the element type after the shape (e.g. 128x64xf16)")
    r.pos = m.end()
    return tuple(dims), m.group()


def _fix_rank(layout: LayoutAttr, rank: int) -> LayoutAttr:
    """A WMMA layout without bases does not say its rank; the tensor's rank does."""
    if isinstance(layout, AMDWMMALayout) and layout.rank != rank and not (layout.warp_bases or layout.reg_bases or layout.cga_layout):
        try:
            return AMDWMMALayout(layout.version, layout.transposed, [], [], layout.instr_shape, [], rank)
        except LayoutError:
            return layout
    return layout


def read_type(r: Reader, aliases: Optional[Mapping[str, Any]] = None) -> Any:
    """Read a ``tensor<...>`` or ``!ttg.memdesc<...>`` type at the cursor.  A tensor without a
    layout comes back as ``None`` (nothing to audit); other types raise a ParseError."""
    r.ws()
    start = r.pos
    if r.accept("tensor<"):
        shape, dtype = _dims_and_elem(r)
        if r.accept(">"):
            return None
        r.expect(",", "',' and the layout after the element type")
        layout = read_attr(r, aliases)
        if not is_layout(layout):
            raise r.error(f"tensor type: expected a layout attribute, got #{layout}", start)
        r.expect(">", "'>' closing the tensor type")
        return TensorType(shape, dtype, _fix_rank(layout, len(shape)))
    if r.accept("!ttg.memdesc<"):
        shape, dtype = _dims_and_elem(r)
        r.expect(",", "',' and the layout after the element type")
        layout = read_attr(r, aliases)
        if not is_layout(layout):
            raise r.error("memdesc type: expected a layout attribute first", start)
        space = "ttg.shared_memory"
        mutable = False
        alloc = None
        while r.accept(","):
            r.ws()
            if r.peek("#"):
                sp = read_attr(r, aliases)
                if not isinstance(sp, MemorySpace):
                    raise r.error("memdesc type: expected a memory space (#ttg.shared_memory or #ttng.tensor_memory)", start)
                space = str(sp)
            elif r.peek("mutable"):
                r.pos += len("mutable")
                mutable = True
            else:
                dims = []
                while True:
                    dims.append(r.integer("an allocation shape such as 2x64x64"))
                    if not r.accept("x"):
                        break
                alloc = tuple(dims)
        r.expect(">", "'>' closing the memdesc type")
        return MemDescType(shape, dtype, layout, space, mutable, alloc)
    raise r.error("expected a type: tensor<...> or !ttg.memdesc<...>")


def parse_type(text: str, aliases: Optional[Mapping[str, Any]] = None) -> Any:
    """A :class:`TensorType` or :class:`MemDescType` from its text (aliases resolved through
    ``aliases``).

        >>> parse_type("tensor<64xf32, #ttg.slice<{dim = 0, parent = #b}>>",
        ...            aliases={"b": parse_type("tensor<1x64xf32, #ttg.blocked<{sizePerThread = [1, 2], "
        ...            "threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>>").layout}).to_linear().bases["register"]
        ((1,),)
    """
    r = Reader(text)
    out = read_type(r, aliases)
    if out is None:
        raise ParseError("the tensor type has no layout", text, 0)
    if not r.at_end():
        raise r.error("unexpected text after the type")
    return out
