"""TIRx ``ComposeLayout``: a swizzle over a TileLayout's memory offsets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from linlayout.checks import as_bool, as_int
from linlayout.errors import LayoutError, SizeError, UnsupportedError

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

    The tile must place data on ``m`` only (TIRx refuses others); replicas may be on any axis.

        >>> C = ComposeLayout(0, 2, 3, TileLayout.parse("S[(8,8):(8,1)]"))
        >>> C.apply(1, 2, shape=(8, 8))
        {'m': 11}
        >>> ComposeLayout(1, 1, 1, TileLayout.parse("S[4:2@TLane]"))
        Traceback (most recent call last):
        ...
        linlayout.errors.UnsupportedError: ComposeLayout: the tile must place data on the memory axis m only; shard iter 0 is 4:2@TLane

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
        for k, it in enumerate(tile.shard):
            if it.axis != "m" and it.extent != 1:
                raise UnsupportedError(f"ComposeLayout: the tile must place data on the memory axis m only; shard iter {k} is {it}")
        for a in tile.offset:
            if a != "m":
                raise UnsupportedError(f"ComposeLayout: the tile must place data on the memory axis m only; it has an offset on {a!r}")
        self.per_element, self.swizzle_len, self.atom_len = per_element, swizzle_len, atom_len
        self.tile = tile
        self.swizzle_inner = bool(swizzle_inner)

    def __repr__(self) -> str:
        return f"ComposeLayout({self.per_element}, {self.swizzle_len}, {self.atom_len}, {self.tile})"

    def size(self, axis: str | None = None) -> int:
        return self.tile.size(axis)

    def span(self, axis: str | None = None) -> int:
        return self.tile.span(axis)

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
