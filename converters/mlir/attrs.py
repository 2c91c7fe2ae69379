"""Triton 3.9's layout attributes as MLIR text: parse them into :mod:`converters.gluon` layouts
and print Gluon layouts back, exactly as Triton 3.9 prints them.

=======================================  ===============================================
attribute                                Gluon layout
=======================================  ===============================================
``#ttg.blocked<{...}>``                  :class:`~converters.gluon.BlockedLayout`
``#ttg.slice<{dim, parent}>``            :class:`~converters.gluon.SliceLayout`
``#ttg.nvidia_mma<{...}>``               :class:`~converters.gluon.NVMMADistributedLayout`
``#ttg.dot_op<{opIdx, parent, kWidth}>`` :class:`~converters.gluon.DotOperandLayout`
``#ttg.linear<{register, lane, ...}>``   :class:`~converters.gluon.DistributedLinearLayout`
``#ttg.amd_mfma<{...}>``                 :class:`~converters.gluon.AMDMFMALayout`
``#ttg.amd_wmma<{...}>``                 :class:`~converters.gluon.AMDWMMALayout`
``#ttg.nvmma_shared<{...}>``             :class:`~converters.gluon.NVMMASharedLayout`
``#ttg.swizzled_shared<{...}>``          :class:`~converters.gluon.SwizzledSharedLayout`
``#ttg.shared_linear<{...}, alignment>`` :class:`~converters.gluon.SharedLinearLayout`
``#ttg.padded_shared<[i:+p] {...}>``     :class:`~converters.gluon.PaddedSharedLayout`
``#ttng.tensor_memory_encoding<...>``    :class:`~converters.gluon.TensorMemoryLayout`
``#ttng.tensor_memory_scales_encoding``  :class:`~converters.gluon.TensorMemoryScalesLayout` (``blockRepOrder``: its
                                         ``block_rep_order``)
``#ttg.generic_linear<{register, ...}>`` :class:`~converters.mlir.generic.GenericLinearLayout`
``#ttg.amd_rotating_shared<{...}>``      :class:`~converters.mlir.rotating.AMDRotatingSharedLayout`
``#ttg.partitioned_shared<{...}>``       :class:`~converters.mlir.partitioned.PartitionedSharedLayout`
=======================================  ===============================================

The CTA placement of a cluster is the ``CGALayout = [[...]]`` field (Gluon's ``cga_layout``: one
basis per CTA bit).  Field order and defaults follow Triton 3.9's printer (checked against
``str()`` of the types Triton builds): optional fields are printed only when they differ from
their default (``kWidth = 0``, ``fp4Padded = false``, ``rank = 2``, ``tilesPerWarp = [1, 1]`` ...).
A ``#ttg.linear`` attribute carries no shape: its shape is what its bases span (the shape of the
tensor type it sits in decides, see :mod:`converters.mlir.types`).

    >>> b = parse_attr("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
    ...                "warpsPerCTA = [4, 1], order = [1, 0]}>")
    >>> b
    BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    >>> to_mlir(b)
    '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>'
    >>> parse_attr("#ttg.slice<{dim = 1, parent = #blocked}>", aliases={"blocked": b})
    SliceLayout(1, BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0]))
    >>> parse_attr("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], order = [1, 0]}>")
    Traceback (most recent call last):
    ...
    linlayout.errors.ParseError: #ttg.blocked: missing field 'warpsPerCTA' (fields: sizePerThread, threadsPerWarp, warpsPerCTA, order, CGALayout) (at position 0)
      #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], order = [1, 0]}>
      ^
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeGuard, TypeVar, Union

from linlayout.checks import span_sizes
from linlayout.contract import Kind
from linlayout.errors import LayoutError, ParseError, UnsupportedError

from converters.gluon import (
    AMDMFMALayout,
    AMDWMMALayout,
    BlockedLayout,
    DistributedLayout,
    DistributedLinearLayout,
    DotOperandLayout,
    NVMMADistributedLayout,
    NVMMASharedLayout,
    PaddedSharedLayout,
    SharedLinearLayout,
    SliceLayout,
    SwizzledSharedLayout,
    TensorMemoryLayout,
    TensorMemoryScalesLayout,
)
from converters.gluon.base import GluonLayout

from .reader import Keyword, Located, Reader
from .generic import GenericLinearLayout
from .partitioned import PartitionedSharedLayout
from .rotating import AMDRotatingSharedLayout

__all__ = ["parse_attr", "read_attr", "to_mlir", "is_layout", "LayoutAttr", "MemorySpace", "ATTRIBUTE_NAMES", "MEMORY_SPACES"]


class MemorySpace(str):
    """A memory-space attribute of a memdesc type: ``#ttg.shared_memory`` or ``#ttng.tensor_memory``."""


MEMORY_SPACES = ("ttg.shared_memory", "ttng.tensor_memory")


# ============================================================================ reading
class _Required:
    """The type of :data:`_REQUIRED`: a field helper called without a default needs the field."""


_REQUIRED: Final = _Required()
_D = TypeVar("_D")

#: a layout attribute's value: a Gluon layout, or AMD's rotating shared layout (no Gluon class)
LayoutAttr = Union[GluonLayout, AMDRotatingSharedLayout, PartitionedSharedLayout]


#: attributes whose Triton 3.9 reader skips keys it does not know (NvidiaMmaEncodingAttr::parse,
#: AMDMfmaEncodingAttr::parse and AMDWmmaEncodingAttr::parse test each key with a plain `if`;
#: parseLinearLayout looks up the in-dims it wants): `CTAsPerCGA = [1, 1]` in an old lit test,
#: `isTranspose = false` in an MFMA one, `order` in a linear one are read and dropped
_SKIPS_UNKNOWN = frozenset({"ttg.nvidia_mma", "ttg.amd_mfma", "ttg.amd_wmma", "ttg.linear", "ttg.generic_linear"})


class _Fields:
    """The fields of one attribute, taken one by one with checks; errors name the field."""

    def __init__(self, name: str, fields: dict[str, Located], r: Reader, start: int, known: Sequence[str]) -> None:
        self.name, self.f, self.r, self.start, self.known = name, fields, r, start, tuple(known)
        unknown = [k for k in fields if k not in self.known]
        if name in _SKIPS_UNKNOWN:  # Triton's reader passes over keys it does not know
            for k in unknown:
                del fields[k]
        elif unknown:
            k = unknown[0]
            raise r.error(f"#{name}: unknown field {k!r} (fields: {', '.join(self.known)})", fields[k].key_pos)

    def take(self, key: str, default: _D | _Required, want: str, ok: Callable[[Any], bool]) -> Any | _D:
        """The value of field ``key`` (an error saying it must be ``want`` unless ``ok(value)``);
        ``default`` when the field is absent (an error when there is none)."""
        if key not in self.f:
            if isinstance(default, _Required):
                raise self.r.error(f"#{self.name}: missing field {key!r} (fields: {', '.join(self.known)})", self.start)
            return default
        loc = self.f[key]
        if not ok(loc.value):
            raise self.bad(key, want, loc)
        return loc.value

    def bad(self, key: str, want: str, loc: Located) -> ParseError:
        return self.r.error(f"#{self.name}: field {key!r} must be {want}, got {loc.value!r}", loc.pos)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_ints(v: Any) -> bool:
    return isinstance(v, list) and all(_is_int(x) for x in v)


def _int(F: _Fields, key: str, default: _D | _Required = _REQUIRED) -> int | _D:
    return F.take(key, default, "an integer", _is_int)


def _bool(F: _Fields, key: str, default: _D | _Required = _REQUIRED) -> bool | _D:
    return F.take(key, default, "true or false", lambda v: isinstance(v, bool))


def _ints(F: _Fields, key: str, default: _D | _Required = _REQUIRED) -> list[int] | _D:
    return F.take(key, default, "a list of integers", _is_ints)


def _bases(F: _Fields, key: str, default: _D | _Required = _REQUIRED) -> list[list[int]] | _D:
    return F.take(key, default, "a list of bases (lists of integers)", lambda v: isinstance(v, list) and all(map(_is_ints, v)))


def _parent(F: _Fields, key: str) -> DistributedLayout:
    return F.take(key, _REQUIRED, "a distributed layout attribute", lambda v: isinstance(v, DistributedLayout))


def _dict(F: _Fields, key: str) -> dict[str, Located]:
    return F.take(key, _REQUIRED, "a dictionary {register = [...], warp = [...]}", lambda v: isinstance(v, dict))


def _blocked(F: _Fields) -> GluonLayout:
    return BlockedLayout(_ints(F, "sizePerThread"), _ints(F, "threadsPerWarp"), _ints(F, "warpsPerCTA"),
                         _ints(F, "order"), _bases(F, "CGALayout", []))


def _slice(F: _Fields) -> GluonLayout:
    return SliceLayout(_int(F, "dim"), _parent(F, "parent"))


def _nvidia_mma(F: _Fields) -> GluonLayout:
    return NVMMADistributedLayout([_int(F, "versionMajor"), _int(F, "versionMinor", 0)], _ints(F, "warpsPerCTA"),
                                  _ints(F, "instrShape"), _bases(F, "CGALayout", []))


def _dot_op(F: _Fields) -> GluonLayout:
    parent, k_width = _parent(F, "parent"), _int(F, "kWidth", 0)
    if isinstance(parent, BlockedLayout) and k_width != 0:  # DotOperandEncodingAttr::verify
        raise F.bad("kWidth", "absent (0): Triton does not support kWidth when the parent is a blocked layout", F.f["kWidth"])
    return DotOperandLayout(_int(F, "opIdx"), parent, k_width)


def _linear(F: _Fields) -> GluonLayout:
    # parseLinearLayout wants all four in-dims ("Expected basis of 'block' not found")
    bases = {k: _bases(F, k) for k in ("register", "lane", "warp", "block")}
    if not _permutation_matrix(bases.values()):  # LinearEncodingAttr::verify
        raise F.bad("register", "bases that, broadcast (zero) ones left out, form a permutation matrix (each a power "
                                "of two in one dim, none repeated); #ttg.generic_linear takes any bases", F.f["register"])
    return DistributedLinearLayout(bases["register"], bases["lane"], bases["warp"], bases["block"])


def _permutation_matrix(groups: Any) -> bool:
    """Whether the bases (lists of bases), broadcast (zero) ones left out, form a permutation
    matrix: each a power of two in one dim, none repeated -- what Triton 3.9's ``#ttg.linear``
    requires ("LinearEncodingAttr requires a permutation matrix layout after removing broadcast
    bases").

        >>> _permutation_matrix([[[0, 1], [0, 0], [1, 0]]]), _permutation_matrix([[[1, 1]]]), _permutation_matrix([[[1], [1]]])
        (True, False, False)
    """
    seen: set[tuple[int, ...]] = set()
    for vecs in groups:
        for b in vecs:
            nz = [v for v in b if v]
            if not nz:
                continue
            if len(nz) != 1 or nz[0] < 0 or nz[0] & (nz[0] - 1) or tuple(b) in seen:
                return False
            seen.add(tuple(b))
    return True


def _generic_linear(F: _Fields) -> GluonLayout:
    return GenericLinearLayout(_bases(F, "register"), _bases(F, "lane"), _bases(F, "warp"), _bases(F, "block"))


def _amd_mfma(F: _Fields) -> GluonLayout:
    # Triton's reader: version 0 and isTransposed false when absent (Gluon refuses version 0)
    return AMDMFMALayout(_int(F, "version", 0), _ints(F, "instrShape"), _bool(F, "isTransposed", False), _ints(F, "warpsPerCTA"),
                         _int(F, "elementBitWidth", None), _ints(F, "tilesPerWarp", None), _bases(F, "CGALayout", []))


def _amd_wmma(F: _Fields) -> GluonLayout:
    cta = _dict(F, "ctaLayout")
    sub = _Fields(F.name + " ctaLayout", cta, F.r, F.f["ctaLayout"].pos, ("register", "warp"))
    reg = _bases(sub, "register", [])
    warp = _bases(sub, "warp", [])
    cga = _bases(F, "CGALayout", [])
    rank = next((len(b) for b in reg + warp + cga), _int(F, "rank", 2))
    return AMDWMMALayout(_int(F, "version"), _bool(F, "isTranspose", False), warp, reg,
                         _ints(F, "instrShape", list(AMDWMMALayout.instr_shape)), cga, rank)


def _nvmma_shared(F: _Fields) -> GluonLayout:
    cga = _bases(F, "CGALayout", [])
    rank = _int(F, "rank", len(cga[0]) if cga else 2)
    return NVMMASharedLayout(_int(F, "swizzlingByteWidth"), _int(F, "elementBitWidth"), rank, _bool(F, "transposed", False),
                             _bool(F, "fp4Padded", False), cga)


def _swizzled_args(F: _Fields) -> tuple[int, int, int, list[int], list[list[int]]]:
    """The fields of ``#ttg.swizzled_shared`` and ``#ttg.amd_rotating_shared`` (the same set)."""
    return _int(F, "vec"), _int(F, "perPhase"), _int(F, "maxPhase"), _ints(F, "order"), _bases(F, "CGALayout", [])


def _swizzled_shared(F: _Fields) -> GluonLayout:
    return SwizzledSharedLayout(*_swizzled_args(F))


def _shared_linear(F: _Fields) -> GluonLayout:
    # SharedLinearEncodingAttr::parse: `{offset, block}, alignment = N`, the alignment required
    return SharedLinearLayout(_bases(F, "offset"), _bases(F, "block", []), _int(F, "alignment"))


def identity_bases(shape: Sequence[int], order: Sequence[int]) -> list[list[int]]:
    """The offset bases of an identity layout of ``shape`` over dims in ``order`` (fastest
    first): what ``#ttg.padded_shared<[...] {order, shape}>`` stands for.

        >>> identity_bases([2, 4], [1, 0])
        [[0, 1], [0, 2], [1, 0]]
    """
    out = []
    for d in order:
        k = 1
        while k < shape[d]:
            v = [0] * len(shape)
            v[d] = k
            out.append(v)
            k *= 2
    return out


def _amd_rotating_shared(F: _Fields) -> AMDRotatingSharedLayout:
    return AMDRotatingSharedLayout(*_swizzled_args(F))


def _padded_shared(F: _Fields) -> GluonLayout:
    pairs = F.f.pop("__intervals__").value
    F.known = tuple(k for k in F.known if k != "__intervals__")
    if "offset" in F.f or "block" in F.f:
        off = _bases(F, "offset")
        block = _bases(F, "block")  # parseLinearLayout wants both in-dims
        _check_padded_bases(F, off, block)
        if "order" in F.f or "shape" in F.f:
            k = "order" if "order" in F.f else "shape"
            raise F.r.error(f"#{F.name}: give either offset/block or order/shape, not both", F.f[k].pos)
        rank = len(off[0]) if off else (len(block[0]) if block else 1)
        # `block` bases are element coordinates; Gluon's cga_layout counts CTA tiles (the builder
        # multiplies the offset layout by the block one, get_gluon_layout divides it out again)
        tile = span_sizes(off, rank)
        cga = []
        for b in block:
            if any(v % t for v, t in zip(b, tile)):
                raise F.bad("block", f"bases that are whole CTA tiles ({tile}, the span of the offsets)", F.f["block"])
            cga.append([v // t for v, t in zip(b, tile)])
        return PaddedSharedLayout(pairs, off, cga, span_sizes(off + block, rank))
    if "CGALayout" in F.f:  # Triton: Unexpected attribute "CGALayout" found
        raise F.r.error(f"#{F.name}: the order/shape form takes no CGALayout; give offset/block", F.f["CGALayout"].key_pos)
    shape = _ints(F, "shape")
    order = _ints(F, "order")
    if sorted(order) != list(range(len(shape))):
        raise F.bad("order", f"a permutation of 0..{len(shape) - 1}", F.f["order"])
    return PaddedSharedLayout(pairs, identity_bases(shape, order), [], shape)


def _partitioned_shared(F: _Fields) -> PartitionedSharedLayout:
    inner = F.take("partitionLayout", _REQUIRED, "a shared layout attribute",
                   lambda v: getattr(v, "kind", None) is Kind.SHARED)
    return PartitionedSharedLayout(_int(F, "numPartitions"), _int(F, "numGroups"), _int(F, "partitionDim"), inner)


def _check_padded_bases(F: _Fields, off: list[list[int]], block: list[list[int]]) -> None:
    """PaddedSharedEncodingAttr::verify: offsets reach distinct elements, every basis moves in at
    most one dim, by 0 or a power of two."""
    for k, vecs in (("offset", off), ("block", block)):
        for b in vecs:
            nz = [v for v in b if v]
            if len(nz) > 1:
                raise F.bad(k, "bases that each move in at most one dimension", F.f[k])
            if any(v & (v - 1) or v < 0 for v in nz):
                raise F.bad(k, "bases whose entries are 0 or a power of two", F.f[k])
    if len({tuple(b) for b in off}) != len(off) or any(not any(b) for b in off):
        raise F.bad("offset", "distinct non-zero bases (broadcasting in the offset dimension is not supported)", F.f["offset"])


def _tmem(F: _Fields) -> GluonLayout:
    return TensorMemoryLayout([_int(F, "blockM"), _int(F, "blockN")], _int(F, "colStride", 1), _bases(F, "CGALayout", []),
                              _bool(F, "twoCTAs", False), _bool(F, "fp4Padded", False))


def _tmem_scales(F: _Fields) -> GluonLayout:
    order = F.take("blockRepOrder", Keyword("mnThenK"), "mnThenK or kThenMn", lambda v: v in ("mnThenK", "kThenMn"))
    return TensorMemoryScalesLayout(_bases(F, "CGALayout", []), block_rep_order=str(order))


#: attribute name -> (its fields in Triton's printing order, the builder)
_READERS: dict[str, tuple[tuple[str, ...], Callable[[_Fields], LayoutAttr]]] = {
    "ttg.blocked": (("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CGALayout"), _blocked),
    "ttg.slice": (("dim", "parent"), _slice),
    "ttg.nvidia_mma": (("versionMajor", "versionMinor", "warpsPerCTA", "CGALayout", "instrShape"), _nvidia_mma),
    "ttg.dot_op": (("opIdx", "parent", "kWidth"), _dot_op),
    "ttg.linear": (("register", "lane", "warp", "block"), _linear),
    "ttg.generic_linear": (("register", "lane", "warp", "block"), _generic_linear),
    "ttg.amd_mfma": (("version", "warpsPerCTA", "instrShape", "isTransposed", "CGALayout", "tilesPerWarp", "elementBitWidth"), _amd_mfma),
    "ttg.amd_wmma": (("version", "isTranspose", "ctaLayout", "CGALayout", "instrShape", "rank"), _amd_wmma),
    "ttg.nvmma_shared": (("swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded", "rank", "CGALayout"), _nvmma_shared),
    "ttg.swizzled_shared": (("vec", "perPhase", "maxPhase", "order", "CGALayout"), _swizzled_shared),
    "ttg.shared_linear": (("offset", "block", "alignment"), _shared_linear),
    "ttg.amd_rotating_shared": (("vec", "perPhase", "maxPhase", "order", "CGALayout"), _amd_rotating_shared),
    "ttg.partitioned_shared": (("numPartitions", "numGroups", "partitionDim", "partitionLayout"), _partitioned_shared),
    "ttg.padded_shared": (("__intervals__", "offset", "block", "order", "shape", "CGALayout"), _padded_shared),
    "ttng.tensor_memory_encoding": (("blockM", "blockN", "colStride", "CGALayout", "twoCTAs", "fp4Padded"), _tmem),
    "ttng.tensor_memory_scales_encoding": (("CGALayout", "blockRepOrder"), _tmem_scales),
}

#: every layout attribute name this module reads and prints
ATTRIBUTE_NAMES: tuple[str, ...] = tuple(_READERS)


def _intervals(r: Reader) -> list[list[int]]:
    r.expect("[")
    pairs = []
    while True:
        i = r.integer("an interval")
        r.expect(":", "':' between an interval and its padding")
        r.expect("+", "'+' before the padding")
        pairs.append([i, r.integer("a padding")])
        if r.accept("]"):
            return pairs
        r.expect(",", "',' or ']' after an interval:padding pair")


def read_attr(r: Reader, aliases: Mapping[str, Any] | None = None) -> LayoutAttr | MemorySpace:
    """Read one attribute at the cursor: a layout attribute (a Gluon layout), a memory space
    (:class:`MemorySpace`) or ``#alias`` (looked up in ``aliases``)."""
    r.ws()
    start = r.pos
    r.expect("#", "'#' starting an attribute")
    name = r.ident("an attribute name after '#'")
    if "." not in name or not r.text.startswith("<", r.pos):
        if name in MEMORY_SPACES:
            return MemorySpace(name)
        if "." in name:
            raise r.error(f"#{name} is not a layout attribute (known: {', '.join('#' + n for n in ATTRIBUTE_NAMES)})", start)
        if aliases is not None and name in aliases:
            v = aliases[name]
            if isinstance(v, Exception):
                raise r.error(f"alias #{name} is not a layout Triton 3.9 has: {str(v).splitlines()[0]}", start)
            return v
        raise r.error(f"unknown attribute alias #{name}" + ("" if aliases is None else " (no '#" + name + " = ...' line defines it)"), start)
    if name not in _READERS:
        raise r.error(f"#{name} is not a layout attribute Triton 3.9 has (known: {', '.join('#' + n for n in ATTRIBUTE_NAMES)})", start)
    known, build = _READERS[name]
    r.expect("<")
    hook = r.attr_hook
    r.attr_hook = lambda rr: read_attr(rr, aliases)
    try:
        fields: dict[str, Located] = {}
        while not r.peek(">"):
            if r.peek("{"):
                p = r.pos
                for k, v in r.dict_().items():
                    if k in fields:
                        raise r.error(f"#{name}: field {k!r} given twice", v.pos)
                    if name == "ttg.shared_linear" and k == "alignment":
                        raise r.error("#ttg.shared_linear: alignment must be specified outside of the linear layout braces",
                                      v.key_pos)
                    fields[k] = v
            elif r.peek("[") and name == "ttg.padded_shared" and "__intervals__" not in fields:
                p = r.pos
                fields["__intervals__"] = Located(_intervals(r), p)
            else:
                r.fields_into(fields, keywords=True)
            if not r.accept(","):
                if not r.peek(">") and not (name == "ttg.padded_shared" and r.peek("{")):
                    raise r.error(f"#{name}: expected ',' or '>' after a field")
        r.expect(">")
    finally:
        r.attr_hook = hook
    if name == "ttg.padded_shared" and "__intervals__" not in fields:
        raise r.error("#ttg.padded_shared: missing the [interval:+padding, ...] list", start)
    F = _Fields(name, fields, r, start, known)
    try:
        return build(F)
    except ParseError:
        raise
    except (LayoutError, TypeError) as e:
        raise ParseError(f"#{name}: {e}", r.text, start) from None


def is_layout(x: object) -> TypeGuard[LayoutAttr]:
    """Whether ``x`` is a layout value this module reads and prints."""
    return isinstance(x, (GluonLayout, AMDRotatingSharedLayout, PartitionedSharedLayout))


def parse_attr(text: str, aliases: Mapping[str, Any] | None = None) -> LayoutAttr:
    """The Gluon layout of one layout attribute's text (``#alias`` references resolved through
    ``aliases``: alias name without ``#`` -> layout).

        >>> parse_attr("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>")
        TensorMemoryLayout([128, 64], 1)
        >>> parse_attr("#ttg.nvidia_mma<{versionMajor = 4, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>")
        Traceback (most recent call last):
        ...
        linlayout.errors.ParseError: #ttg.nvidia_mma: ...
    """
    r = Reader(text)
    if r.at_end():
        raise ParseError("empty text; expected a layout attribute such as #ttg.blocked<{...}>", text, 0)
    out = read_attr(r, aliases)
    if not r.at_end():
        raise r.error("unexpected text after the attribute")
    if isinstance(out, MemorySpace):
        raise ParseError(f"#{out} is a memory space, not a layout", text, 0)
    return out


# ============================================================================ printing
def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, GluonLayout):
        return to_mlir(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return str(v)


def _fields(items: Sequence[tuple[str, Any]]) -> str:
    return ", ".join(f"{k} = {_fmt(v)}" for k, v in items)


def _cga(x: Any) -> list[tuple[str, Any]]:
    cga = getattr(x, "cga_layout", None) or ()
    return [("CGALayout", cga)] if cga else []


def _is_identity_for(x: PaddedSharedLayout) -> list[int] | None:
    """The order for which ``x``'s offset bases are the identity, if any."""
    shape = list(x.shape)
    rank = len(shape)
    ob = [list(b) for b in x.offset_bases]
    dims: list[int] = []
    for b in ob:
        nz = [i for i, v in enumerate(b) if v]
        if len(nz) != 1:
            return None
        if not dims or dims[-1] != nz[0]:
            dims.append(nz[0])
    # Triton's PaddedSharedEncodingAttr::getOrder: the dims in the order the bases move them, then
    # the others from [rank - 1, ..., 0]
    order = [*dims, *(d for d in reversed(range(rank)) if d not in dims)]
    return order if sorted(order) == list(range(rank)) and identity_bases(shape, order) == ob else None


def to_mlir(layout: GluonLayout) -> str:
    """The attribute text Triton 3.9 prints for a Gluon layout.

        >>> from converters.gluon import NVMMASharedLayout, SliceLayout, BlockedLayout
        >>> to_mlir(NVMMASharedLayout(128, 16))
        '#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>'
        >>> to_mlir(SliceLayout(0, BlockedLayout([1, 1], [1, 32], [4, 1], [1, 0], [[1, 0]])))
        '#ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>}>'
    """
    x = layout
    if isinstance(x, BlockedLayout):
        f = [("sizePerThread", x.size_per_thread), ("threadsPerWarp", x.threads_per_warp), ("warpsPerCTA", x.warps_per_cta),
             ("order", x.order), *_cga(x)]
        return f"#ttg.blocked<{{{_fields(f)}}}>"
    if isinstance(x, SliceLayout):
        return f"#ttg.slice<{{dim = {x.dim}, parent = {to_mlir(x.parent)}}}>"
    if isinstance(x, NVMMADistributedLayout):
        f = [("versionMajor", x.version[0]), ("versionMinor", x.version[1] if len(x.version) > 1 else 0), ("warpsPerCTA", x.warps_per_cta), *_cga(x),
             ("instrShape", x.instr_shape)]
        return f"#ttg.nvidia_mma<{{{_fields(f)}}}>"
    if isinstance(x, DotOperandLayout):
        f = [("opIdx", x.operand_index), ("parent", x.parent)] + ([("kWidth", x.k_width)] if x.k_width else [])
        return f"#ttg.dot_op<{{{_fields(f)}}}>"
    if isinstance(x, DistributedLinearLayout):
        f = [("register", x.reg_bases), ("lane", x.lane_bases), ("warp", x.warp_bases), ("block", x.block_bases)]
        # Triton reads #ttg.linear only for a permutation matrix: other bases print as #ttg.generic_linear
        generic = isinstance(x, GenericLinearLayout) or not _permutation_matrix(v for _, v in f)
        return f"#ttg.{'generic_linear' if generic else 'linear'}<{{{_fields(f)}}}>"
    if isinstance(x, AMDMFMALayout):
        f = [("version", x.version), ("warpsPerCTA", x.warps_per_cta), ("instrShape", x.instr_shape), ("isTransposed", x.transposed),
             *_cga(x)]
        if x.tiles_per_warp is not None and any(t != 1 for t in x.tiles_per_warp):
            f.append(("tilesPerWarp", x.tiles_per_warp))
        if x.element_bitwidth not in (None, 32):
            f.append(("elementBitWidth", x.element_bitwidth))
        return f"#ttg.amd_mfma<{{{_fields(f)}}}>"
    if isinstance(x, AMDWMMALayout):
        cta = ([("register", x.reg_bases)] if x.reg_bases else []) + ([("warp", x.warp_bases)] if x.warp_bases else [])
        f = [("version", x.version), ("isTranspose", x.transposed)]
        body = _fields(f) + f", ctaLayout = {{{_fields(cta)}}}"
        rest = [*_cga(x)] + ([("instrShape", x.instr_shape)] if x.instr_shape is not None and tuple(x.instr_shape) != (16, 16, 16) else [])
        if rest:
            body += ", " + _fields(rest)
        return f"#ttg.amd_wmma<{{{body}}}>"
    if isinstance(x, NVMMASharedLayout):
        f = [("swizzlingByteWidth", x.swizzle_byte_width), ("transposed", x.transposed), ("elementBitWidth", x.element_bitwidth)]
        if x.fp4_padded:
            f.append(("fp4Padded", True))
        if x.cga_layout:
            f.append(("CGALayout", x.cga_layout))
        elif x.rank != 2:
            f.append(("rank", x.rank))
        return f"#ttg.nvmma_shared<{{{_fields(f)}}}>"
    if isinstance(x, (SwizzledSharedLayout, AMDRotatingSharedLayout)):
        f = [("vec", x.vec), ("perPhase", x.per_phase), ("maxPhase", x.max_phase), ("order", x.order), *_cga(x)]
        name = "swizzled_shared" if isinstance(x, SwizzledSharedLayout) else "amd_rotating_shared"
        return f"#ttg.{name}<{{{_fields(f)}}}>"
    if isinstance(x, PartitionedSharedLayout):
        f = [("numPartitions", x.num_partitions), ("numGroups", x.num_groups), ("partitionDim", x.partition_dim),
             ("partitionLayout", to_mlir(x.partition_layout))]
        return f"#ttg.partitioned_shared<{{{_fields(f)}}}>"
    if isinstance(x, SharedLinearLayout):
        f = [("offset", x.offset_bases)] + ([("block", x.block_bases)] if x.block_bases else [])
        return f"#ttg.shared_linear<{{{_fields(f)}}}, alignment = {x.alignment}>"
    if isinstance(x, PaddedSharedLayout):
        pairs = ", ".join(f"{i}:+{p}" for i, p in x.interval_padding_pairs)
        order = None if x.cga_layout else _is_identity_for(x)
        if order is not None:
            body = _fields([("order", order), ("shape", x.shape)])
        else:
            tile = span_sizes(x.offset_bases, len(x.shape))  # cga_layout in CTA tiles -> element coordinates
            body = _fields([("offset", x.offset_bases), ("block", [[c * t for c, t in zip(b, tile)] for b in x.cga_layout])])
        return f"#ttg.padded_shared<[{pairs}] {{{body}}}>"
    if isinstance(x, TensorMemoryLayout):
        f = [("blockM", x.block[0]), ("blockN", x.block[1]), ("colStride", x.col_stride), *_cga(x)]
        if x.two_ctas:
            f.append(("twoCTAs", True))
        if x.fp4_padded:
            f.append(("fp4Padded", True))
        return f"#ttng.tensor_memory_encoding<{_fields(f)}>"
    if isinstance(x, TensorMemoryScalesLayout):
        f = _cga(x) + ([("blockRepOrder", "kThenMn")] if x.block_rep_order == "kThenMn" else [])
        return f"#ttng.tensor_memory_scales_encoding<{_fields(f)}>"
    raise UnsupportedError(f"to_mlir: no MLIR attribute for a {type(x).__name__}; expected a Gluon layout "
                           f"({', '.join(sorted(c.__name__ for c in _PRINTABLE))})")


_PRINTABLE = (BlockedLayout, SliceLayout, NVMMADistributedLayout, DotOperandLayout, DistributedLinearLayout, AMDMFMALayout,
              AMDWMMALayout, NVMMASharedLayout, SwizzledSharedLayout, SharedLinearLayout, PaddedSharedLayout,
              TensorMemoryLayout, TensorMemoryScalesLayout, AMDRotatingSharedLayout, PartitionedSharedLayout)
