"""A CuTe layout as a memory map, and its linear form (the contract's direction).

A CuTe ``Layout`` (or ``swizzle o offset o layout``) maps logical coordinates to a memory offset:
a *memory map* (:attr:`~linlayout.contract.Kind.MEMORY`).  Two maps live here:

* :func:`offset_map` / :func:`offset_general` — CuTe's own direction, coordinates -> offset, as a
  :class:`~linlayout.LinearLayout` (exactly when GF(2)-linear) or a mixed-radix layout;
* :func:`to_linear` / :func:`to_general` — the contract's direction, hardware -> coordinates:
  ``offset -> dim0, dim1, ...``, the inverse of the offset map, as Triton's shared layouts read.
  It exists when the layout is a bijection from its coordinates onto ``[0, size)``; otherwise it
  is refused (the offset map is still there).

**CuTe -> GF(2).**  A CuTe layout is linear over GF(2) exactly when every extent is a power of
two and the images ``stride * 2**k`` of all digit bits have pairwise disjoint binary supports
(then ``+`` equals XOR); a swizzle on top keeps it linear (a swizzle is a linear involution), and
a non-zero offset makes it affine.  :func:`offset_map` converts exactly those and otherwise raises
:class:`~linlayout.errors.NotLinearError` naming the offending mode, never a wrong matrix.

Dim names: one coordinate dim per top-level mode, ``dim0``, ``dim1``, ... (a nested mode's leaves
fill its dim colexicographically, first leaf in the lowest bits), and ``offset``, sized to the
next power of two that holds every image.

This module reads layouts through their attributes only (``shape``, ``modes()``, ``outer``,
``offset``, ``inner``), so ``layout.py`` and ``swizzle.py`` can call it without an import cycle.

    >>> from converters.cute import parse
    >>> offset_map(parse("(4,8):(8,1)")).bases
    {'dim0': ((8,), (16,)), 'dim1': ((1,), (2,), (4,))}
    >>> to_linear(parse("(4,8):(8,1)")).bases["offset"]
    ((0, 1), (0, 2), (0, 4), (1, 0), (2, 0))
    >>> to_linear(parse("4:3"))
    Traceback (most recent call last):
    ...
    linlayout.errors.NotLinearError: mode [0] = 4:3 of 4:3 is not GF(2)-linear: the images 3 and 6 of its digit bits 0 and 1 overlap in binary (bits 0x2), so addition is not XOR
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from linlayout import gf2
from linlayout.checks import as_bool, as_int
from linlayout.contract import Kind
from linlayout.limits import MAX_RANK, as_list
from linlayout.errors import DimensionError, LayoutError, NotInvertibleError, NotLinearError, SizeError, UnsupportedError
from linlayout.mixed_radix import MixedRadixLayout
from linlayout.linear import LinearLayout

__all__ = ["MemoryMap", "offset_map", "offset_general", "to_linear", "to_general", "is_linear"]


class MemoryMap:
    """The contract's methods of a CuTe memory layout (``Layout`` and ``ComposedLayout`` derive
    from it): its kind, its linear forms, and CuTe's own coordinate -> offset map."""

    __slots__ = ()

    @property
    def kind(self) -> Kind:
        """A CuTe layout is a memory map, coordinates -> offset (:class:`~linlayout.contract.Kind`)."""
        return Kind.MEMORY

    def to_linear(self, shape: Optional[Sequence[int]] = None) -> LinearLayout:
        """The linear form, ``offset -> dim0, dim1, ...``; see :func:`converters.cute.to_linear`."""
        return to_linear(self, shape)

    def to_general(self, shape: Optional[Sequence[int]] = None) -> MixedRadixLayout:
        """The mixed-radix linear form; see :func:`converters.cute.to_general`."""
        return to_general(self, shape)

    def offset_map(self, **kwargs: Any) -> LinearLayout:
        """The coordinate -> offset map (CuTe's direction); see :func:`converters.cute.offset_map`."""
        return offset_map(self, **kwargs)

    def offset_general(self, shape: Optional[Sequence[int]] = None) -> MixedRadixLayout:
        """The coordinate -> offset map of any extents (CuTe's direction), ``shape`` checked
        against the modes; see :func:`converters.cute.offset_general`.  ``equivalent`` compares two
        memory layouts that have no offset -> coordinate form by these maps.

            >>> from converters.cute import parse
            >>> parse("4:3").offset_general().apply(dim0=3)
            {'offset': 9}
        """
        _sizes_for(self, shape)
        return offset_general(self)



def _parts(x: Any, who: str) -> tuple[Any, Any, int]:
    """(layout, swizzle or None, offset) of a Layout or a ComposedLayout."""
    if hasattr(x, "inner") and hasattr(x, "outer"):
        return x.inner, x.outer, int(x.offset)
    if hasattr(x, "_fs") and hasattr(x, "modes"):
        return x, None, 0
    raise LayoutError(f"{who} expects a CuTe Layout or ComposedLayout, got {type(x).__name__}")


def _leaf_paths(shape: Any, path: tuple = ()) -> list:
    if isinstance(shape, tuple):
        out = []
        for i, s in enumerate(shape):
            out += _leaf_paths(s, path + (i,))
        return out
    return [path]


def _mode_name(path: tuple) -> str:
    return "".join(f"[{i}]" for i in path) if path else "[0]"


def _linear_bases(L: Any) -> list[list[int]]:
    """Per top-level mode, the images of its digit bits; raises NotLinearError when not linear."""
    top = list(L.modes()) if isinstance(L.shape, tuple) else [L]
    per_mode: list[list[int]] = []
    used = 0
    owner: dict[int, str] = {}
    for t, mode in enumerate(top):
        bases: list[int] = []
        paths = _leaf_paths(mode.shape, (t,) if isinstance(L.shape, tuple) else ())
        for path, s, d in zip(paths, mode._fs, mode._fd):
            name = _mode_name(path)
            if s == 0 or s & (s - 1):
                raise NotLinearError(
                    f"mode {name} = {s}:{d} of {L} is not GF(2)-linear: extent {s} is not a power of two"
                )
            if d < 0:
                raise NotLinearError(f"mode {name} = {s}:{d} of {L} is not GF(2)-linear: negative stride {d}")
            prev = None
            for k in range(s.bit_length() - 1):
                img = d << k
                if img:
                    clash = img & used
                    if clash:
                        if prev is not None and prev & img:
                            raise NotLinearError(
                                f"mode {name} = {s}:{d} of {L} is not GF(2)-linear: the images {d << (k - 1)} and "
                                f"{img} of its digit bits {k - 1} and {k} overlap in binary (bits {hex(prev & img)}), "
                                f"so addition is not XOR"
                            )
                        other = next(v for b, v in owner.items() if b & clash)
                        raise NotLinearError(
                            f"mode {name} = {s}:{d} of {L} is not GF(2)-linear: the image {img} of its digit bit {k} "
                            f"overlaps in binary (bits {hex(clash)}) with an image of mode {other}, "
                            f"so addition is not XOR"
                        )
                    used |= img
                    b = img
                    while b:
                        low = b & -b
                        owner[low] = name
                        b ^= low
                bases.append(img)
                prev = img
        per_mode.append(bases)
    return per_mode


def _nested_bases(x: Any) -> list[list[int]]:
    """Per top-level mode of a (possibly nested) composed layout, the offsets of its digit bits:
    the inner part's, carried through the outer part as a GF(2)-linear map of the flat index."""
    if not hasattr(x, "inner"):
        return _linear_bases(x)
    if x.offset != 0:
        raise NotLinearError(f"{x} is affine, not linear: its offset {x.offset} moves the image of 0")
    per = _nested_bases(x.inner)
    top = 0
    for m in per:
        for b in m:
            top |= b
    images = _index_bases(x.outer, top.bit_length(), x)
    return [[gf2.combine(images, b) for b in m] for m in per]


def _index_bases(f: Any, nbits: int, whole: Any) -> list[int]:
    """The images of the flat-index bits ``0 .. nbits-1`` under ``f`` (a swizzle, a layout read
    at its flat index -- past its size along its last mode, as CuTe does -- or a composed layout),
    when ``f`` is GF(2)-linear on ``[0, 2**nbits)``; NotLinearError otherwise."""
    if hasattr(f, "is_identity"):  # a Swizzle
        return [f(1 << j) for j in range(nbits)]
    if hasattr(f, "inner"):
        if f.offset != 0:
            raise NotLinearError(f"{whole} is affine, not linear: the offset {f.offset} of its part {f} moves the image of 0")
        inner = _index_bases(f.inner, nbits, whole)
        top = 0
        for b in inner:
            top |= b
        outer = _index_bases(f.outer, top.bit_length(), whole)
        return [gf2.combine(outer, b) for b in inner]
    fs, fd = list(f._fs), list(f._fd)
    # the digit bits of the modes that the first nbits index bits reach; the last mode extends
    images: list[int] = []
    used = 0
    for k, (e, d) in enumerate(zip(fs, fd)):
        if len(images) >= nbits:
            break
        if k == len(fs) - 1:
            e = max(e, 1 << (nbits - len(images)))
        if e & (e - 1) or e == 0:
            raise NotLinearError(f"{whole}: its part {f}, read at the flat indices below {1 << nbits}, is not GF(2)-linear: "
                                 f"the mode {e}:{d} has an extent that is not a power of two")
        for j in range(e.bit_length() - 1):
            img = d << j if d >= 0 else -1
            if img < 0 or img & used:
                raise NotLinearError(f"{whole}: its part {f}, read at the flat indices below {1 << nbits}, is not GF(2)-linear: "
                                     f"the image of digit bit {j} of its mode {e}:{d} is negative or overlaps another in binary")
            used |= img
            images.append(img)
    if not fs:
        images = [0] * nbits
    return (images + [0] * nbits)[:nbits]


def is_linear(x: Any) -> bool:
    """True when :func:`offset_map` accepts ``x`` (its coordinate -> offset map is GF(2)-linear).

    >>> from converters.cute import parse
    >>> is_linear(parse("(4,8):(8,1)")), is_linear(parse("(3,8):(8,1)")), is_linear(parse("4:3"))
    (True, False, False)
    """
    try:
        offset_map(x)
    except LayoutError:
        return False
    return True


def offset_map(
    x: Any,
    *,
    flat: bool = False,
    in_dims: Optional[Sequence[str]] = None,
    out_dim: str = "offset",
):
    """The coordinate -> offset map of a CuTe layout (or ``swizzle o 0 o layout``) as a
    :class:`~linlayout.LinearLayout`: CuTe's own direction, the inverse of the linear form.

    Raises :class:`~linlayout.errors.NotLinearError` naming the offending mode when the layout is
    not GF(2)-linear (see the module docstring).

    >>> from converters.cute import parse
    >>> LL = offset_map(parse("S<1,0,1> o 0 o (2,2):(1,2)"))
    >>> [LL.apply({"dim0": i, "dim1": j})["offset"] for j in range(2) for i in range(2)]
    [0, 1, 3, 2]
    >>> offset_map(parse("(2,4):(4,1)"), flat=True).bases
    {'index': ((4,), (1,), (2,))}
    """
    flat = as_bool(flat, "offset_map", "flat")
    L, swz, offset = _parts(x, "offset_map")
    inner = L.inner if hasattr(L, "inner") else L
    if not flat and isinstance(inner.shape, tuple) and len(inner.shape) > MAX_RANK:  # before any work per mode
        raise SizeError(f"offset_map: {len(inner.shape)} top-level modes, one in-dim each; a layout has at most "
                        f"{MAX_RANK} (linlayout.limits.MAX_RANK); flat=True gives one in-dim")
    if swz is not None and (not hasattr(swz, "is_identity") or hasattr(L, "inner")):
        per_mode = _nested_bases(x)  # a layout or a composed layout outside, or a composed inner
        L = x
    else:
        if offset != 0:
            raise NotLinearError(f"{x} is affine, not linear: its offset {offset} moves the image of 0")
        per_mode = _linear_bases(L)
        if swz is not None:
            per_mode = [[swz(b) for b in m] for m in per_mode]
    if flat:
        names = as_list(in_dims, "in_dims", MAX_RANK) if in_dims is not None else ["index"]
        per_mode = [[b for m in per_mode for b in m]]
        if len(names) != 1:
            raise LayoutError(f"to_linear(flat=True) takes one in-dim name, got {names}")
    else:
        names = as_list(in_dims, "in_dims", MAX_RANK) if in_dims is not None else [f"dim{i}" for i in range(len(per_mode))]
        if len(names) != len(per_mode):
            raise LayoutError(f"to_linear: {len(names)} in-dim names for {len(per_mode)} top-level modes of {L}")
    for n in [*names, out_dim]:
        if not isinstance(n, str):
            raise DimensionError(f"to_linear: dim names are strings, got {type(n).__name__} {n!r:.60}")
    top = 0
    for m in per_mode:
        for b in m:
            top |= b
    size = 1 << top.bit_length()
    return LinearLayout(
        {n: [[b] for b in m] for n, m in zip(names, per_mode)}, {out_dim: size}, require_surjective=False
    )


def offset_general(
    x: Any,
    *,
    flat: bool = False,
    in_dims: Optional[Sequence[str]] = None,
    axis: str = "offset",
):
    """The coordinate -> offset map of any CuTe layout (any extents) as a
    :class:`~linlayout.mixed_radix.MixedRadixLayout`.

    Same dim names as :func:`offset_map`: one in-dim ``dim{i}`` per top-level mode (its leaves are
    the digits, fastest first) or a single ``index`` with ``flat=True``; every digit lands on the
    axis ``offset``.  A ``ComposedLayout`` with an identity swizzle (``B = 0``) keeps its offset;
    a real swizzle is not mixed-radix and raises :class:`~linlayout.errors.UnsupportedError`.

    >>> from converters.cute import parse
    >>> G = offset_general(parse("(3,(2,7)):(14,(1,2))"))
    >>> G.apply(dim0=2, dim1=13), parse("(3,(2,7)):(14,(1,2))")((2, 13))
    ({'offset': 41}, 41)
    """
    flat = as_bool(flat, "offset_general", "flat")
    L, swz, offset = _parts(x, "offset_general")
    if hasattr(L, "inner") or (swz is not None and not hasattr(swz, "is_identity")):
        raise UnsupportedError(f"offset_general: {x} composes layouts (a nested or layout-outer composed layout), "
                               "which has no mixed-radix form here; its GF(2) form is offset_map()")
    if swz is not None and not (hasattr(swz, "is_identity") and swz.is_identity()):
        raise UnsupportedError(f"offset_general: {x} has a swizzle, which is not a mixed-radix map")
    top = list(L.modes()) if isinstance(L.shape, tuple) else [L]
    per_mode = [[(s, d, axis) for s, d in zip(m._fs, m._fd) if s != 1] for m in top]
    if any(s == 0 for m in top for s in m._fs):
        raise UnsupportedError(f"offset_general: {L} is empty (an extent is 0)")
    if flat:
        names = as_list(in_dims, "in_dims", MAX_RANK) if in_dims is not None else ["index"]
        per_mode = [[d for m in per_mode for d in m]]
    else:
        names = as_list(in_dims, "in_dims", MAX_RANK) if in_dims is not None else [f"dim{i}" for i in range(len(per_mode))]
    if len(names) != len(per_mode):
        raise LayoutError(f"offset_general: {len(names)} in-dim names for {len(per_mode)} modes of {L}")
    return MixedRadixLayout(
        {n: m for n, m in zip(names, per_mode)}, offset={axis: offset} if offset else None, out_dims=[axis]
    )


def _coordinate_sizes(x: Any) -> list[int]:
    _parts(x, "to_linear")
    shape = x.shape

    def size(s: Any) -> int:
        if isinstance(s, tuple):
            p = 1
            for v in s:
                p *= size(v)
            return p
        return int(s)

    return [size(s) for s in shape] if isinstance(shape, tuple) else [size(shape)]


def to_linear(x: Any, shape: Optional[Sequence[int]] = None) -> LinearLayout:
    """The linear form of a CuTe memory layout: ``offset -> dim0, dim1, ...`` (the inverse of
    :func:`offset_map`), for a layout that is a bijection onto the offsets ``[0, size)``.

    ``shape`` (optional) must be the sizes of the top-level modes.

        >>> from converters.cute import parse
        >>> to_linear(parse("S<1,0,1> o 0 o (2,2):(1,2)")).bases
        {'offset': ((1, 0), (1, 1))}
        >>> to_linear(parse("(4,8):(16,1)"))
        Traceback (most recent call last):
        ...
        linlayout.errors.UnsupportedError: (4,8):(16,1) is not a bijection onto the offsets [0, 32), so it has no offset -> coordinate form (its coordinate -> offset map is offset_map())
    """
    if _is_basis(x):
        return _basis_linear(x, shape)
    sizes = _sizes_for(x, shape)
    M = offset_map(x)
    total = 1
    for s in sizes:
        total *= s
    if M.out_dim_size("offset") != total or not M.is_invertible():
        raise UnsupportedError(
            f"{x} is not a bijection onto the offsets [0, {total}), so it has no offset -> coordinate "
            "form (its coordinate -> offset map is offset_map())"
        )
    L = M.invert()
    return L.reshape_outs([(f"dim{i}", s) for i, s in enumerate(sizes)]) if list(L.out_dims.values()) != sizes else L


def _sizes_for(x: Any, shape: Optional[Sequence[int]]) -> list[int]:
    """The sizes of the layout's top-level modes; a SizeError unless ``shape`` is None or those."""
    sizes = _coordinate_sizes(x)
    if shape is not None:
        try:
            want = [as_int(s, "shape entry") for s in as_list(shape, "shape", MAX_RANK)]
        except (TypeError, ValueError):
            raise LayoutError(f"{x}: a shape is a list of integers, got {shape!r}") from None
        if want != sizes:
            raise SizeError(f"{x}: the layout's modes have sizes {sizes}, not the requested shape {want}")
    return sizes


def to_general(x: Any, shape: Optional[Sequence[int]] = None) -> MixedRadixLayout:
    """The mixed-radix linear form of a CuTe memory layout of any extents: ``offset -> dim0,
    dim1, ...``, the inverse of :func:`offset_general`, for a bijection onto ``[0, size)``.

        >>> from converters.cute import parse
        >>> G = to_general(parse("(3,5):(5,1)"))
        >>> G.apply(offset=7)
        {'dim0': 1, 'dim1': 2}
    """
    if _is_basis(x):
        return _basis_general(x, shape)
    _sizes_for(x, shape)
    G = offset_general(x)
    try:
        inv = G.invert()
    except NotInvertibleError as e:
        raise UnsupportedError(f"{x} has no offset -> coordinate form: {e}") from None
    return inv


# --------------------------------------------------------------------------- basis-stride layouts
# A layout with basis strides (CuTe's ``E<i>`` scaled bases, ``(4,8):(1@0,1@1)``) maps its flat
# index to a coordinate of a multi-dimensional codomain: it already points the contract's way,
# ``offset -> dim0, dim1, ...`` (the offset being the flat index of its domain), so its linear form
# is the map itself, with no inverse: kind ``memory``, like every CuTe layout.  It is the identity
# layout's view of a tensor: ``(4,8):(1@0,1@1)`` has the linear form of the column-major ``(4,8):(1,4)``.


def _is_basis(x: Any) -> bool:
    return bool(getattr(x, "is_basis", None)) and x.is_basis()


def codomain_shape(L: Any) -> list[int]:
    """The codomain extents of a basis-stride layout: for each coordinate ``i``, one more than the
    largest value its modes reach (``sum((s - 1) * v)`` over the leaves ``s:v@i``).

        >>> from converters.cute import parse
        >>> codomain_shape(parse("(4,(2,8)):(1@1,(4@1,1@0))"))
        [8, 8]
    """
    L._need_flat_basis("codomain_shape")
    ext = [1] * L._basis
    for s, d in zip(L._fs, L._fd):
        if s == 0:
            return [0] * L._basis
        if hasattr(d, "index"):
            if d.value < 0:
                raise NotLinearError(f"{L}: the basis stride {d} is negative, so its coordinates leave the codomain [0, ...)")
            ext[d.index] += (s - 1) * d.value
    return ext


def _basis_sizes(L: Any, shape: Optional[Sequence[int]], pow2: bool) -> list[int]:
    ext = codomain_shape(L)
    if 0 in ext:
        raise UnsupportedError(f"{L} is empty (an extent is 0)")
    sizes = [1 << (e - 1).bit_length() for e in ext] if pow2 else ext
    if shape is not None:
        try:
            want = [as_int(s, "shape entry") for s in as_list(shape, "shape", MAX_RANK)]
        except (TypeError, ValueError):
            raise LayoutError(f"{L}: a shape is a list of integers, got {shape!r}") from None
        if want != ext and want != sizes:
            raise SizeError(f"{L}: its basis strides reach a codomain of shape {ext}, not the requested shape {want}")
    return sizes


def _basis_linear(L: Any, shape: Optional[Sequence[int]]) -> LinearLayout:
    """The linear form of a basis-stride layout: flat index (``offset``) -> its coordinate."""
    sizes = _basis_sizes(L, shape, True)
    k = len(sizes)
    bases: list[list[int]] = []
    used = [0] * k
    for s, d in zip(L._fs, L._fd):
        if s & (s - 1):
            raise NotLinearError(f"{L}: the mode {s}:{d} has extent {s}, not a power of two, so the map is not GF(2)-linear (to_general() takes it)")
        for j in range((s.bit_length() - 1)):
            vec = [0] * k
            if hasattr(d, "index"):
                img = d.value << j
                if img & used[d.index]:
                    raise NotLinearError(f"{L}: the image {img}@{d.index} of digit bit {j} of the mode {s}:{d} overlaps "
                                         f"in binary with another mode's on coordinate {d.index}, so addition is not XOR")
                used[d.index] |= img
                vec[d.index] = img
            bases.append(vec)
    return LinearLayout({"offset": bases}, {f"dim{i}": n for i, n in enumerate(sizes)}, require_surjective=False)


def _basis_general(L: Any, shape: Optional[Sequence[int]]) -> MixedRadixLayout:
    """The mixed-radix form of a basis-stride layout: flat index (``offset``) -> its coordinate."""
    sizes = _basis_sizes(L, shape, False)
    digits = [(s, d.value if hasattr(d, "index") else 0, f"dim{d.index if hasattr(d, 'index') else 0}")
              for s, d in zip(L._fs, L._fd) if s != 1]
    return MixedRadixLayout({"offset": digits}, out_dims={f"dim{i}": n for i, n in enumerate(sizes)})
