"""TIRx ``ComposeLayout``: a swizzle over a TileLayout's memory offsets."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from linlayout.checks import as_bool, as_int
from linlayout.errors import LayoutError, ParseError, SizeError, UnsupportedError
from linlayout.limits import check_text

from .hardware import invert_to_hardware
from .layout import TileLayout

__all__ = ["ComposeLayout", "swizzle_address"]


def swizzle_address(x: int | np.ndarray, per_element: int, swizzle_len: int, atom_len: int, inner: bool = True):
    """CuTe ``Swizzle<B=swizzle_len, M=per_element, S=atom_len>`` on an address (works on arrays).

    ``inner=True`` XORs the higher bit group ``[M+S, M+S+B)`` into ``[M, M+B)`` (TIRx's default);
    ``inner=False`` XORs the lower group into the higher one.

        >>> swizzle_address(10, 0, 2, 3)
        11
    """
    for name, v in (("per_element", per_element), ("swizzle_len", swizzle_len), ("atom_len", atom_len)):
        if not isinstance(v, int) or not 0 <= v <= 62:  # bit counts; a negative one has no meaning
            raise SizeError(f"swizzle_address: {name} must be a bit count in [0, 62], got {v!r}"[:200])
    if isinstance(x, np.ndarray):
        if x.dtype.kind not in "iu":
            raise SizeError(f"swizzle_address: the addresses must be integers, got an array of {x.dtype}")
    else:
        x = as_int(x, "swizzle_address: x")
    mask = ((1 << swizzle_len) - 1) << per_element
    if inner:
        return x ^ ((x >> atom_len) & mask)
    return x ^ ((x & mask) << atom_len)


class ComposeLayout:
    """TIRx ``ComposeLayout(per_element, swizzle_len, atom_len, tile)``: the memory address ``m`` of
    ``tile`` swizzled as CuTe ``Swizzle<swizzle_len, per_element, atom_len>``.

    The tile must place data on ``m`` only for :meth:`apply` (TIRx refuses others there, and so do
    we); as TIRx, the layout itself may be built over any tile (tiling or unpacking it is defined).

        >>> C = ComposeLayout(0, 2, 3, TileLayout.parse("S[(8,8):(8,1)]"))
        >>> C.apply(1, 2, shape=(8, 8))
        {'m': 11}
        >>> ComposeLayout(1, 1, 1, TileLayout.parse("S[4:2@TLane]")).apply(1)
        Traceback (most recent call last):
        ...
        linlayout.errors.UnsupportedError: ComposeLayout.apply: the tile maps to axes ['TLane']; a swizzle needs the memory axis m only

    ``swizzle_inner=False`` (XOR the lower group into the higher one) follows TIRx's description;
    the oracle corpus only exercises the default.
    """

    __slots__ = ("per_element", "swizzle_len", "atom_len", "tile", "swizzle_inner")

    def __init__(self, per_element: int, swizzle_len: int, atom_len: int, tile: TileLayout, swizzle_inner: bool = True):
        per_element, swizzle_len, atom_len = (as_int(v, f"ComposeLayout: {n}", LayoutError) for v, n in (
            (per_element, "per_element"), (swizzle_len, "swizzle_len"), (atom_len, "atom_len")))
        if per_element < 0 or swizzle_len < 0 or atom_len < swizzle_len:
            raise SizeError(
                f"ComposeLayout: needs per_element >= 0, swizzle_len >= 0 and atom_len >= swizzle_len; "
                f"got {per_element}, {swizzle_len}, {atom_len}"
            )
        if isinstance(tile, str):
            tile = TileLayout.parse(tile)
        if not isinstance(tile, TileLayout):
            raise LayoutError(f"ComposeLayout: tile must be a TileLayout, got {type(tile).__name__}")
        self.per_element, self.swizzle_len, self.atom_len = per_element, swizzle_len, atom_len
        self.tile = tile
        self.swizzle_inner = bool(swizzle_inner)

    def __repr__(self) -> str:
        inner = "" if self.swizzle_inner else ", swizzle_inner=False"
        return f"ComposeLayout({self.per_element}, {self.swizzle_len}, {self.atom_len}, {self.tile}{inner})"

    __str__ = __repr__

    @property
    def tile_layout(self) -> TileLayout:
        """TIRx's name for :attr:`tile`, the swizzled TileLayout."""
        return self.tile

    _TEXT = re.compile(r"\s*ComposeLayout\(\s*(-?\d{1,19})\s*,\s*(-?\d{1,19})\s*,\s*(-?\d{1,19})\s*,(.*?)(,\s*swizzle_inner\s*=\s*(True|False)\s*)?\)\s*", re.S)

    @classmethod
    def parse(cls, text: str) -> ComposeLayout:
        """Read the text :func:`repr` prints: ``ComposeLayout(per_element, swizzle_len, atom_len,
        <TileLayout text>[, swizzle_inner=False])``.

            >>> C = ComposeLayout.parse("ComposeLayout(1, 2, 3, S[(8,8):(8,1)])")
            >>> C == ComposeLayout(1, 2, 3, TileLayout.parse("S[(8,8):(8,1)]")), ComposeLayout.parse(str(C)) == C
            (True, True)

        Raises:
            ParseError: the text is not of that form (the tile's own errors point into it).
        """
        check_text(text, "ComposeLayout text")
        m = cls._TEXT.fullmatch(text)
        if m is None:
            raise ParseError("expected ComposeLayout(per_element, swizzle_len, atom_len, <TileLayout>[, swizzle_inner=False])", text, 0)
        try:
            tile = TileLayout.parse(m.group(4))
        except ParseError as e:
            raise ParseError(str(e).split("\n")[0].rsplit(" (at position", 1)[0], text, m.start(4) + (e.position or 0)) from None
        return cls(int(m.group(1)), int(m.group(2)), int(m.group(3)), tile, m.group(6) != "False")

    def to_tirx_source(self) -> str:
        """What TIRx prints for this layout.

            >>> print(ComposeLayout(1, 2, 3, TileLayout.parse("S[(8,8):(8,1)]")).to_tirx_source())
            T.ComposeLayout(1, 2, 3, T.TileLayout.from_iters(shard=[T.Iter(8, 8, "m"), T.Iter(8, 1, "m")], replica=[]))
        """
        inner = "" if self.swizzle_inner else ", swizzle_inner=False"
        return f"T.ComposeLayout({self.per_element}, {self.swizzle_len}, {self.atom_len}, {self.tile.to_tirx_source()}{inner})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ComposeLayout):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[Any, ...]:
        return (self.per_element, self.swizzle_len, self.atom_len, self.swizzle_inner, self.tile)

    def _with_tile(self, tile: TileLayout, per_element: int | None = None) -> ComposeLayout:
        pe = self.per_element if per_element is None else per_element
        return ComposeLayout(pe, self.swizzle_len, self.atom_len, tile, self.swizzle_inner)

    # ------------------------------------------------------------------ TIRx algebra

    def canonicalize(self) -> ComposeLayout:
        """TIRx's ``canonicalize``: the tile's canonical form under the same swizzle.

            >>> ComposeLayout(1, 2, 3, TileLayout.parse("S[(8,8):(8,1)]")).canonicalize()
            ComposeLayout(1, 2, 3, S[(64,):(1,)])
        """
        return self._with_tile(self.tile.canonicalize())

    def tile_by(self, outer: TileLayout, outer_shape: Sequence[int], inner_shape: Sequence[int]) -> ComposeLayout:
        """TIRx's ``tile`` on a ComposeLayout (named ``tile_by`` here, since :attr:`tile` is the
        swizzled TileLayout): the tile tiled by ``outer``, under the same swizzle.

            >>> C = ComposeLayout(1, 2, 3, TileLayout.parse("S[(8,8):(8,1)]"))
            >>> C.tile_by(TileLayout.parse("S[(2,1):(1,1)]"), [2, 1], [8, 8])
            ComposeLayout(1, 2, 3, S[(128,):(1,)])
        """
        return self._with_tile(self.tile.tile(outer, outer_shape, inner_shape))

    def tile_to(self, to_shape: Sequence[int], current_shape: Sequence[int]) -> ComposeLayout:
        """TIRx's ``tile_to``: the tile repeated row-major up to ``to_shape``, under the same swizzle.

            >>> ComposeLayout(1, 2, 3, TileLayout.parse("S[(8,8):(8,1)]")).tile_to([16, 8], [8, 8])
            ComposeLayout(1, 2, 3, S[(128,):(1,)])
        """
        return self._with_tile(self.tile.tile_to(to_shape, current_shape))

    def _log2(self, num: Any, what: str) -> tuple[int, int]:
        n = as_int(num, f"ComposeLayout.{what}: num", LayoutError)
        if n < 1 or n & (n - 1):
            raise SizeError(f"ComposeLayout.{what}: num = {n}; expected a power of two (the swizzle works on address bits)")
        return n, n.bit_length() - 1

    def unpack(self, num: int, axis: str = "m") -> ComposeLayout:
        """TIRx's ``unpack``: the tile unpacked (:meth:`TileLayout.unpack`), ``per_element`` grown
        by ``log2(num)`` so that the swizzle moves the same bytes.

            >>> ComposeLayout(1, 2, 3, TileLayout.parse("S[(8,8):(8,1)]")).unpack(2)
            ComposeLayout(2, 2, 3, S[(8,8,2):(16,2,1)])

        Raises:
            SizeError: ``num`` is not a power of two.
        """
        n, b = self._log2(num, "unpack")
        return self._with_tile(self.tile.unpack(n, axis), self.per_element + b)

    def pack(self, num: int, axis: str = "m") -> ComposeLayout:
        """TIRx's ``pack``: the tile packed (:meth:`TileLayout.pack`), ``per_element`` reduced by
        ``log2(num)``.

            >>> ComposeLayout(1, 2, 3, TileLayout.parse("S[(8,8):(8,1)]")).pack(2)
            ComposeLayout(0, 2, 3, S[(8,4):(4,1)])

        Raises:
            SizeError: ``num`` is not a power of two, ``log2(num)`` exceeds ``per_element``, or the
                tile cannot be packed.
        """
        n, b = self._log2(num, "pack")
        if self.per_element < b:
            raise SizeError(f"ComposeLayout.pack: per_element = {self.per_element} is less than log2({n}) = {b}; packing would move the swizzle below bit 0")
        return self._with_tile(self.tile.pack(n, axis), self.per_element - b)

    def check_well_formed(self) -> None:
        """TIRx's ``check_well_formed``: the tile's (:meth:`TileLayout.check_well_formed`)."""
        self.tile.check_well_formed()

    def is_trivial(self) -> bool:
        """TIRx's ``is_trivial``: a swizzled layout never is.

            >>> ComposeLayout(0, 0, 0, TileLayout.parse("S[8:1]")).is_trivial()
            False
        """
        return False

    def same_as(self, other: object) -> bool:
        """TIRx's ``same_as``: the very same object; ``==`` compares values."""
        return self is other

    def size(self, axis: str | None = None) -> int:
        """The number of elements (the tile's); as TIRx, a ComposeLayout takes no ``axis``.

            >>> ComposeLayout(0, 1, 3, TileLayout.parse("S[8:16]")).size()
            8

        Raises:
            UnsupportedError: an ``axis`` is given (TIRx refuses it for a swizzled layout).
        """
        self._no_axis(axis, "size")
        return self.tile.size()

    def span(self, axis: str | None = None) -> int:
        """The memory span (the tile's, unswizzled, as TIRx); a ComposeLayout takes no ``axis``.

            >>> ComposeLayout(0, 1, 3, TileLayout.parse("S[8:16]")).span()
            113

        Raises:
            UnsupportedError: an ``axis`` is given (TIRx refuses it for a swizzled layout).
        """
        self._no_axis(axis, "span")
        return self.tile.span()

    def _no_axis(self, axis: object, what: str) -> None:
        if axis is not None:
            raise UnsupportedError(f"ComposeLayout.{what}: got axis {axis!r}; a swizzled layout has one size and span, over its memory axis (TIRx refuses an axis too)")

    def _swz(self, x):
        return swizzle_address(x, self.per_element, self.swizzle_len, self.atom_len, self.swizzle_inner)

    def apply(self, *coord: int, shape: Sequence[int] | None = None) -> dict[str, int]:
        """The tile's ``apply`` with ``m`` swizzled.

        Raises:
            UnsupportedError: the tile's result has an axis other than ``m`` for this shape (TIRx
                refuses it too).
        """
        base = self.tile.apply(*coord, shape=shape)
        if set(base) != {"m"}:
            raise UnsupportedError(f"ComposeLayout.apply: the tile maps to axes {sorted(base)}; a swizzle needs the memory axis m only")
        return {"m": int(self._swz(base["m"]))}

    def places(self, *coord: int, shape: Sequence[int] | None = None) -> list[dict[str, int]]:
        """Every place (replicas included) with ``m`` swizzled."""
        self.apply(*coord, shape=shape)
        out = []
        for p in self.tile.places(*coord, shape=shape):
            p = dict(p)
            p["m"] = int(self._swz(p.get("m", 0)))
            out.append(p)
        return out

    def to_linear(self, shape: Sequence[int] | None = None, *, hardware_first: bool = True) -> Any:
        """The swizzled layout over GF(2): the tile's forward map composed with the swizzle on
        ``offset`` (the swizzle is linear), inverted when ``hardware_first``.

            >>> C = ComposeLayout(0, 2, 3, TileLayout.parse("S[(8,8):(8,1)]"))
            >>> C.to_linear((8, 8)).apply({"offset": 11})
            {'dim0': 1, 'dim1': 2}
        """
        from linlayout import LinearLayout

        for k, it in enumerate(self.tile.shard):
            if it.axis != "m" and it.extent != 1:
                raise UnsupportedError(f"ComposeLayout.to_linear: the tile must place data on the memory axis m only; shard iter {k} is {it}")
        for a in self.tile.offset:
            if a != "m":
                raise UnsupportedError(f"ComposeLayout.to_linear: the tile must place data on the memory axis m only; it has an offset on {a!r}")
        hardware_first = as_bool(hardware_first, "ComposeLayout.to_linear", "hardware_first")
        fwd = self.tile.to_linear(shape, hardware_first=False)
        name = "register" if "register" in fwd.out_dims else "offset"
        if name not in fwd.out_dims:
            raise UnsupportedError("ComposeLayout.to_linear: the tile has no memory axis")
        top = max(fwd.out_dims[name], 1 << (self.per_element + self.swizzle_len + self.atom_len))
        fwd = LinearLayout(
            {n: [list(v) for v in bl] for n, bl in fwd.bases.items()},
            {**fwd.out_dims, name: top},
            require_surjective=False,
        )
        k = top.bit_length() - 1
        outs = list(fwd.out_dims)
        sw_bases = {}
        for n in outs:
            bl = []
            for j in range(fwd.out_dims[n].bit_length() - 1):
                v = [0] * len(outs)
                v[outs.index(n)] = int(self._swz(1 << j)) if n == name else 1 << j
                bl.append(v)
            sw_bases[n] = bl
        del k
        sw = LinearLayout(sw_bases, dict(fwd.out_dims), require_surjective=False)
        res = fwd.compose(sw)
        if not hardware_first:
            return res
        logical = [n for n in fwd.in_dim_names if n != "replica"]
        return invert_to_hardware(res, logical)
