"""The copy atoms' bit-level thread-value layouts, as CUTLASS's ``Copy_Traits`` state them.

Each entry is ``(ref, bits, tile_bits, src, dst)``: ``src`` / ``dst`` are CuTe layouts
``(thread, value) -> bit`` (the ``SrcLayout`` / ``DstLayout`` of the traits), ``tile_bits`` the
shape of the bit tile they index (colexicographically), ``bits`` the element width the operation's
name says (``U32`` / ``U16``; 32 for a tensor-memory column), ``ref`` which side is the traits'
``RefLayout``.  Sources (CUTLASS ``include/cute/atom/``):

* ``copy_traits_sm75.hpp`` — ``ldmatrix``: ``SM75_U32x{1,2,4}_LDSM_N``, ``SM75_U16x{2,4,8}_LDSM_T``;
* ``copy_traits_sm90.hpp`` — ``stmatrix``: ``SM90_U32x{1,2,4}_STSM_N``, ``SM90_U16x{2,4,8}_STSM_T``,
  the ``ldmatrix`` layouts with source and destination exchanged;
* ``copy_traits_sm100.hpp`` — ``tcgen05.ld`` / ``tcgen05.st``: ``SM100_TMEM_{LOAD,STORE}_<shape><r>x``
  for ``32dp32b`` (r = 1..128), ``16dp64b`` (1..128), ``16dp128b`` (1..64), ``16dp256b`` (1..32)
  and ``16dp32b`` (the ``16x32bx2`` access, 1..128).  The bit tile is ``(C, D)``: ``C`` bits of
  each of ``D`` data paths (lanes of tensor memory), column bits fastest, as the traits' ``ValID``
  ``(C, D):(1, DP_b)`` numbers them; the tensor-memory side is every thread's view of the whole
  tile (thread stride 0).

The ``tcgen05`` families are built from one formula per shape, checked against every one of the
header's 37 load layouts when this module was written.

    >>> ref, bits, tile, src, dst = copy_atom_bits("SM75_U32x1_LDSM_N")
    >>> ref, bits, tile, str(src), str(dst)
    ('dst', 32, (1024,), '((8,4),128):((128,0),1)', '(32,32):(32,1)')
    >>> str(recast_bits(dst, 16))
    '(32,2):(2,1)'
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from linlayout.errors import LayoutError

from .layout import Layout
from .text import parse_layout

__all__ = ["copy_atom_bits", "copy_atom_names", "recast_bits"]

# (name, src, dst, bits, tile bits) of the ldmatrix traits, copy_traits_sm75.hpp
_LDSM = {
    "SM75_U32x1_LDSM_N": ("((8,4),128):((128,0),1)", "(32,32):(32,1)", 32, 1024),
    "SM75_U32x2_LDSM_N": ("((16,2),128):((128,0),1)", "(32,(32,2)):(32,(1,1024))", 32, 2048),
    "SM75_U32x4_LDSM_N": ("(32,128):(128,1)", "(32,(32,4)):(32,(1,1024))", 32, 4096),
    "SM75_U16x2_LDSM_T": ("((8,4),128):((128,0),1)", "((4,8),(16,2)):((256,16),(1,128))", 16, 1024),
    "SM75_U16x4_LDSM_T": ("((16,2),128):((128,0),1)", "((4,8),(16,2,2)):((256,16),(1,128,1024))", 16, 2048),
    "SM75_U16x8_LDSM_T": ("(32,128):(128,1)", "((4,8),(16,2,4)):((256,16),(1,128,1024))", 16, 4096),
}

#: tcgen05 access shapes -> (data paths, bits per data path per repetition, largest repetition)
TMEM_SHAPES = {
    "32dp32b": (32, 32, 128),
    "16dp64b": (16, 64, 128),
    "16dp128b": (16, 128, 64),
    "16dp256b": (16, 256, 32),
    "16dp32b": (16, 64, 128),
}


def _tmem_registers(shape: str, r: int) -> str:
    """The register side ``(thread, value) -> bit`` of ``tcgen05.ld/st`` ``shape`` x ``r``, over
    the bit tile ``(C, D)`` (``C`` = bits per data path): copy_traits_sm100.hpp's ``DstLayout`` of
    ``SM100_TMEM_LOAD_<shape><r>x``."""
    dps, per, _ = TMEM_SHAPES[shape]
    C = per * r
    if shape == "32dp32b":
        # thread t reads data path t, all C bits in order
        return f"(32,{C}):({C},1)"
    if shape == "16dp32b":
        # lanes 0-15 read data paths 0-15 in the first half of the columns, lanes 16-31 the second
        return f"((16,2),{C // 2}):(({C},{C // 2}),1)"
    if shape == "16dp64b":
        # lane (a,b,c): a -> data path +8, b -> the 32-bit half, c -> data path
        vals = "32" if r == 1 else f"(32,{r})"
        vstr = "1" if r == 1 else "(1,64)"
        return f"((2,2,8),{vals}):(({8 * C},32,{C}),{vstr})"
    # 16dp128b / 16dp256b: lane (a, b): a -> a 32 (128b) or 64 (256b) bit chunk, b -> data path;
    # values: the chunk's bits, data path +8, then the repetitions
    chunk = per // 4
    vals = f"({chunk},2)" if r == 1 else f"({chunk},2,{r})"
    vstr = f"(1,{8 * C})" if r == 1 else f"(1,{8 * C},{per})"
    return f"((4,8),{vals}):(({chunk},{C}),{vstr})"


def _tmem_entry(kind: str, shape: str, r: int) -> tuple[str, int, tuple[int, ...], Layout, Layout]:
    dps, per, _ = TMEM_SHAPES[shape]
    C = per * r
    reg = parse_layout(_tmem_registers(shape, r))
    mem = Layout((32, C * dps), (0, 1))  # SrcLayout of the loads: Layout<Shape<_32,_N>, Stride<_0,_1>>
    if kind == "LOAD":
        return "src", 32, (C, dps), mem, reg
    return "dst", 32, (C, dps), reg, mem


def _tmem_names() -> Iterator[tuple[str, str, str, int]]:
    for kind in ("LOAD", "STORE"):
        for shape, (_, _, rmax) in TMEM_SHAPES.items():
            r = 1
            while r <= rmax:
                yield f"SM100_TMEM_{kind}_{shape}{r}x", kind, shape, r
                r *= 2


def copy_atom_names() -> list[str]:
    """Every copy atom name, ldmatrix / stmatrix first.

        >>> names = copy_atom_names()
        >>> len(names), names[0], names[-1]
        (86, 'SM75_U32x1_LDSM_N', 'SM100_TMEM_STORE_16dp32b128x')
    """
    out = list(_LDSM)
    out += [n.replace("SM75_", "SM90_").replace("LDSM", "STSM") for n in _LDSM]
    out += [n for n, *_ in _tmem_names()]
    return out


def copy_atom_bits(name: str) -> tuple[str, int, tuple[int, ...], Layout, Layout]:
    """``(ref, bits, tile_bits, src, dst)`` of a copy atom (see the module docstring); a
    :class:`KeyError` for an unknown name (the caller words the error)."""
    if name in _LDSM:
        src, dst, bits, n = _LDSM[name]
        return "dst", bits, (n,), parse_layout(src), parse_layout(dst)
    if name.startswith("SM90_") and "STSM" in name:
        ld = name.replace("SM90_", "SM75_").replace("STSM", "LDSM")
        if ld in _LDSM:
            src, dst, bits, n = _LDSM[ld]
            return "src", bits, (n,), parse_layout(dst), parse_layout(src)
    for tn, kind, shape, r in _tmem_names():
        if tn == name:
            return _tmem_entry(kind, shape, r)
    raise KeyError(name)


def recast_bits(layout: Layout, bits: int) -> Layout:
    """CuTe's ``upcast<bits>`` of a ``(thread, value) -> bit`` layout (``recast_layout<uint1_t,
    T>`` with ``sizeof_bits<T> == bits``): a stride-0 leaf stays; another leaf ``s:d`` becomes
    ``ceil(s / ceil(bits / |d|)) : sign(d) * ceil(|d| / bits)``, where ``d`` must divide or be a
    multiple of ``bits`` (CuTe's static assertion).

        >>> str(recast_bits(parse_layout("((4,8),(16,2)):((256,16),(1,128))"), 16))
        '((4,8),(1,2)):((16,1),(1,8))'
        >>> recast_bits(parse_layout("(32,32):(32,1)"), 24)
        Traceback (most recent call last):
        ...
        linlayout.errors.LayoutError: recast to 24-bit elements: stride 32 of (32,32):(32,1) neither divides nor is a multiple of 24
    """

    def leaf(s: int, d: int) -> tuple[int, int]:
        if d == 0:
            return s, 0
        a = abs(d)
        if a % bits and bits % a:
            raise LayoutError(f"recast to {bits}-bit elements: stride {d} of {layout} neither divides nor is a multiple of {bits}")
        k = -(-bits // a)
        return -(-s // k), (1 if d > 0 else -1) * -(-a // bits)

    def go(s: Any, d: Any) -> tuple[Any, Any]:
        if isinstance(s, tuple):
            pairs = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
        return leaf(s, d)

    shape, stride = go(layout.shape, layout.stride)
    return Layout(shape, stride)
