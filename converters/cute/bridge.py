"""Bridges between CuTe layouts and linlayout's backends.

**CuTe -> GF(2).**  A CuTe layout is linear over GF(2) exactly when every extent is a power of
two and the images ``stride * 2**k`` of all digit bits have pairwise disjoint binary supports
(then ``+`` equals XOR); a swizzle on top keeps it linear (a swizzle is a linear involution), and
a non-zero offset makes it affine.  :func:`to_linear` converts exactly those and otherwise raises
:class:`~linlayout.errors.NotLinearError` naming the offending mode, never a wrong matrix.

Dim names: one in-dim per top-level mode, ``dim0``, ``dim1``, ... (the logical coordinate; a
nested mode's leaves fill its in-dim colexicographically, first leaf in the lowest bits), and one
out-dim ``offset`` (the memory offset), sized to the next power of two that holds every image.
``flat=True`` gives a single in-dim ``index`` (CuTe's flat colexicographic index).  So
``to_linear(L).invert()`` maps ``offset`` to ``dim0, dim1, ...`` as Triton's shared layouts do.

    >>> from converters.cute import Layout, ComposedLayout, Swizzle, parse
    >>> to_linear(parse("(4,8):(8,1)")).bases
    {'dim0': ((8,), (16,)), 'dim1': ((1,), (2,), (4,))}
    >>> to_linear(parse("4:3"))
    Traceback (most recent call last):
    ...
    linlayout.errors.NotLinearError: mode [0] = 4:3 of 4:3 is not GF(2)-linear: the images 3 and 6 of its digit bits 0 and 1 overlap in binary (bits 0x2), so addition is not XOR

**GF(2) -> CuTe.**  :func:`from_linear` finds a CuTe layout (every basis a distinct power of two
or zero), or a ``Swizzle o 0 o layout`` when a swizzle makes it one.

**CuTe -> general.**  :func:`to_general` gives the mixed-radix backend's form of any layout.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

from linlayout.errors import LayoutError, NotLinearError, UnsupportedError

from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = ["to_linear", "from_linear", "to_general", "is_linear"]

CuteLayout = Union[Layout, ComposedLayout]


def _leaf_paths(shape: Any, path: tuple = ()) -> list:
    if isinstance(shape, tuple):
        out = []
        for i, s in enumerate(shape):
            out += _leaf_paths(s, path + (i,))
        return out
    return [path]


def _mode_name(path: tuple) -> str:
    return "".join(f"[{i}]" for i in path) if path else "[0]"


def _linear_bases(L: Layout) -> list[list[int]]:
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


def is_linear(x: CuteLayout) -> bool:
    """True when :func:`to_linear` accepts ``x``.

    >>> from converters.cute import parse
    >>> is_linear(parse("(4,8):(8,1)")), is_linear(parse("(3,8):(8,1)")), is_linear(parse("4:3"))
    (True, False, False)
    """
    try:
        to_linear(x)
    except LayoutError:
        return False
    return True


def to_linear(
    x: CuteLayout,
    *,
    flat: bool = False,
    in_dims: Optional[Sequence[str]] = None,
    out_dim: str = "offset",
):
    """The :class:`~linlayout.LinearLayout` of a CuTe layout (or ``swizzle o 0 o layout``).

    Raises :class:`~linlayout.errors.NotLinearError` naming the offending mode when the layout is
    not GF(2)-linear (see the module docstring).

    >>> from converters.cute import parse
    >>> LL = to_linear(parse("S<1,0,1> o 0 o (2,2):(1,2)"))
    >>> [LL.apply({"dim0": i, "dim1": j})["offset"] for j in range(2) for i in range(2)]
    [0, 1, 3, 2]
    >>> to_linear(parse("(2,4):(4,1)"), flat=True).bases
    {'index': ((4,), (1,), (2,))}
    """
    from linlayout import LinearLayout

    swz: Optional[Swizzle] = None
    if isinstance(x, ComposedLayout):
        if not isinstance(x.outer, Swizzle):
            raise UnsupportedError(f"to_linear: only a Swizzle is supported as the outer part of {x}")
        if x.offset != 0:
            raise NotLinearError(f"{x} is affine, not linear: its offset {x.offset} moves the image of 0")
        swz = x.outer
        L = x.inner
    elif isinstance(x, Layout):
        L = x
    else:
        raise LayoutError(f"to_linear expects a CuTe Layout or ComposedLayout, got {type(x).__name__}")
    per_mode = _linear_bases(L)
    if swz is not None:
        per_mode = [[swz(b) for b in m] for m in per_mode]
    if flat:
        names = list(in_dims) if in_dims is not None else ["index"]
        per_mode = [[b for m in per_mode for b in m]]
        if len(names) != 1:
            raise LayoutError(f"to_linear(flat=True) takes one in-dim name, got {names}")
    else:
        names = list(in_dims) if in_dims is not None else [f"dim{i}" for i in range(len(per_mode))]
        if len(names) != len(per_mode):
            raise LayoutError(f"to_linear: {len(names)} in-dim names for {len(per_mode)} top-level modes of {L}")
    top = 0
    for m in per_mode:
        for b in m:
            top |= b
    size = 1 << top.bit_length()
    return LinearLayout(
        {n: [[b] for b in m] for n, m in zip(names, per_mode)}, {out_dim: size}, require_surjective=False
    )


def _pow2_or_zero(b: int) -> bool:
    return b & (b - 1) == 0


def _layout_from_bases(names: Sequence[str], per_dim: Sequence[Sequence[int]]) -> Optional[Layout]:
    """Layout with one top mode per in-dim when every basis is 0 or a distinct power of two."""
    seen = 0
    modes_s = []
    modes_d = []
    for bases in per_dim:
        rs: list = []
        rd: list = []
        for b in bases:
            if not _pow2_or_zero(b) or (b and seen & b):
                return None
            seen |= b
            if rs and rs[-1] * rd[-1] == b:
                rs[-1] *= 2
            else:
                rs.append(2)
                rd.append(b)
        if not rs:
            modes_s.append(1)
            modes_d.append(0)
        elif len(rs) == 1:
            modes_s.append(rs[0])
            modes_d.append(rd[0])
        else:
            modes_s.append(tuple(rs))
            modes_d.append(tuple(rd))
    if len(modes_s) == 1:
        # rank(result) == number of in-dims: a nested single mode stays one mode
        if isinstance(modes_s[0], tuple):
            return Layout((modes_s[0],), (modes_d[0],))
        return Layout(modes_s[0], modes_d[0])
    return Layout(tuple(modes_s), tuple(modes_d))


def from_linear(LL: Any, *, swizzle: bool = True) -> CuteLayout:
    """A CuTe layout computing the same map as a :class:`~linlayout.LinearLayout`.

    One top-level mode per in-dim (in order); several out-dims are flattened into one offset
    (the first out-dim in the lowest bits, column-major).  When some basis is not a power of two
    (or two bases share a bit) and ``swizzle`` is true, a ``Swizzle`` is searched whose
    application turns every basis into a distinct power of two (or zero): the result is then
    ``Swizzle o 0 o layout``.  Raises :class:`~linlayout.errors.UnsupportedError` when none exists.

    >>> from converters.cute import parse
    >>> from_linear(to_linear(parse("((2,2),8):((1,16),2)")))
    Layout(((2,2),8):((1,16),2))
    >>> from_linear(to_linear(parse("S<2,2,3> o 0 o (8,32):(32,1)")))
    ComposedLayout(S<2,2,3> o 0 o (8,32):(32,1))
    """
    from linlayout import LinearLayout

    if not isinstance(LL, LinearLayout):
        raise LayoutError(f"from_linear expects a LinearLayout, got {type(LL).__name__}")
    if LL.num_out_dims > 1:
        LL = LL.flatten_outs()
    names = LL.in_dim_names
    out = LL.out_dim_names[0] if LL.out_dim_names else None
    per_dim = [[b[0] for b in LL.bases[n]] if out is not None else [0] * len(LL.bases[n]) for n in names]
    if not names:
        return Layout(1, 0)
    lay = _layout_from_bases(names, per_dim)
    if lay is not None:
        return lay
    if swizzle:
        nbits = max((b.bit_length() for m in per_dim for b in m), default=0)
        for sw in _swizzle_candidates(nbits):
            lay = _layout_from_bases(names, [[sw(b) for b in m] for m in per_dim])
            if lay is not None:
                return ComposedLayout(sw, 0, lay)
    bad = [(n, i, b) for n, m in zip(names, per_dim) for i, b in enumerate(m) if not _pow2_or_zero(b)]
    what = f"basis {bad[0][1]} of in-dim {bad[0][0]!r} is {bad[0][2]}, not a power of two" if bad else "two bases share a bit"
    raise UnsupportedError(
        f"no CuTe layout{' or swizzle o layout' if swizzle else ''} computes this LinearLayout: {what}"
    )


def _swizzle_candidates(nbits: int):
    # all Swizzle<B,M,S> (B >= 1) acting inside the low nbits bits, the common ones first
    out = []
    for B in range(1, nbits + 1):
        for S in list(range(B, nbits + 1)) + list(range(-nbits, -B + 1)):
            for M in range(0, nbits + 1):
                hi = M + max(0, S) + B
                lo = M - min(0, S) + B
                if hi <= nbits and lo <= nbits:
                    out.append(Swizzle(B, M, S))
    out.sort(key=lambda s: (s.shift < 0, -s.bits, s.base, s.shift))
    return out


def to_general(
    x: CuteLayout,
    shape: Any = None,
    *,
    flat: bool = False,
    in_dims: Optional[Sequence[str]] = None,
    axis: str = "offset",
):
    """The :class:`~linlayout.general.MixedRadixLayout` of any CuTe layout (any extents).

    Same dim names as :func:`to_linear`: one in-dim ``dim{i}`` per top-level mode (its leaves are
    the digits, fastest first) or a single ``index`` with ``flat=True``; every digit lands on the
    axis ``offset``.  A ``ComposedLayout`` with an identity swizzle (``B = 0``) keeps its offset;
    a real swizzle is not mixed-radix and raises :class:`~linlayout.errors.UnsupportedError`.
    ``shape`` is accepted for the duck-typed ``to_general(shape)`` protocol and ignored.

    >>> from converters.cute import parse
    >>> G = to_general(parse("(3,(2,7)):(14,(1,2))"))
    >>> G.apply(dim0=2, dim1=13), parse("(3,(2,7)):(14,(1,2))")((2, 13))
    ({'offset': 41}, 41)
    """
    from linlayout.general import MixedRadixLayout

    offset = 0
    if isinstance(x, ComposedLayout):
        if not isinstance(x.outer, Swizzle) or not x.outer.is_identity():
            raise UnsupportedError(f"to_general: {x} has a swizzle, which is not a mixed-radix map")
        offset = x.offset
        L = x.inner
    elif isinstance(x, Layout):
        L = x
    else:
        raise LayoutError(f"to_general expects a CuTe Layout or ComposedLayout, got {type(x).__name__}")
    top = list(L.modes()) if isinstance(L.shape, tuple) else [L]
    per_mode = [[(s, d, axis) for s, d in zip(m._fs, m._fd) if s != 1] for m in top]
    if any(s == 0 for m in top for s in m._fs):
        raise UnsupportedError(f"to_general: {L} is empty (an extent is 0)")
    if flat:
        names = list(in_dims) if in_dims is not None else ["index"]
        per_mode = [[d for m in per_mode for d in m]]
    else:
        names = list(in_dims) if in_dims is not None else [f"dim{i}" for i in range(len(per_mode))]
    if len(names) != len(per_mode):
        raise LayoutError(f"to_general: {len(names)} in-dim names for {len(per_mode)} modes of {L}")
    return MixedRadixLayout(
        {n: m for n, m in zip(names, per_mode)}, offset={axis: offset} if offset else None, out_dims=[axis]
    )
