"""CuTe thread-value (TV) layouts: ``(thread, value) -> element of a tile``, and their bridge to the
distributed linear form.

A :class:`TVLayout` pairs a CuTe :class:`~converters.cute.layout.Layout` with exactly two top-level
modes (thread, value) and the shape of the tile it indexes.  The layout's result is the
*colexicographic* index of a tile element, as CuTe reads it (``TiledMMA::get_layoutC_TV()``,
``make_tiled_copy``): tile coordinate ``(m, n)`` of a ``(M, N)`` tile has index ``m + M * n``.

Its linear form is a distributed layout (Triton's convention, hardware -> tensor coordinates):
in-dim ``register`` = the value bits, ``lane`` = thread bits 0-4, ``warp`` = thread bits 5 and up
(``warp_size`` other than 32 moves the split, for 64-wide AMD waves); out-dims ``dim0, dim1, ...``
= the tile coordinates, ``dim0`` the first tile mode.  So the SM80 ``mma.sync`` 16x8 accumulator
is the same layout as Triton's ``NVMMADistributedLayout([2, 0], [1, 1], [16, 8])``:

    >>> from converters.gluon import NVMMADistributedLayout
    >>> from linlayout.equiv import equivalent
    >>> c = parse_tv("((4,8),(2,2)):((32,1),(16,8)) -> (16,8)")
    >>> c(5, 3)                                   # thread 5, value 3: row 1 + 8, column 2 + 1
    (9, 3)
    >>> c.to_linear().bases["lane"]
    ((0, 2), (0, 4), (1, 0), (2, 0), (4, 0))
    >>> bool(equivalent(c, NVMMADistributedLayout([2, 0], [1, 1], [16, 8]), shape=[16, 8]))
    True
    >>> print(TVLayout.from_linear(c.to_linear()))
    ((4,8),(2,2)):((32,1),(16,8)) -> (16,8)

:func:`make_layout_tv` builds one from a thread layout and a value layout as CuTe does; a tile that
is not a power of two in every mode has only the general (mixed-radix) form, :meth:`TVLayout.to_general`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

import numpy as np

from linlayout.checks import is_pow2, log2
from linlayout.contract import Kind
from linlayout.errors import DimensionError, LayoutError, NotLinearError, ParseError, SizeError, UnsupportedError
from linlayout.mixed_radix import MixedRadixLayout
from linlayout.limits import MAX_RANK, as_list, parse_int
from linlayout.linear import LinearLayout

from .algebra import coalesce, composition, raked_product, right_inverse
from .memory_map import offset_map as _offset_map
from .layout import Layout, is_int, product
from .text import parse_int_tuple, parse_layout

__all__ = ["TVLayout", "parse_tv", "make_layout_tv", "to_tv", "format_tile"]

_HW_IN = ("register", "lane", "warp")
#: Largest tile (elements) whose tables are built for the general form.
_MAX_GENERAL = 1 << 24
_INT64_MAX = (1 << 63) - 1


def format_tile(tile: Sequence[int]) -> str:
    """CuTe's spelling of a tile shape.

    >>> format_tile((16, 8)), format_tile((128,))
    ('(16,8)', '(128)')
    """
    return "(" + ",".join(str(t) for t in tile) + ")"


def _tile_arg(tile: Any) -> tuple[int, ...]:
    if is_int(tile):
        tile = (tile,)
    if isinstance(tile, list):
        tile = tuple(tile)
    if not isinstance(tile, tuple) or not tile:
        raise SizeError(f"TVLayout: a tile is a non-empty tuple of positive ints, got {tile!r}")
    out = []
    for t in tile:
        if isinstance(t, tuple):
            raise SizeError(f"TVLayout: the tile shape must be flat (one int per mode), got {tile!r}")
        if isinstance(t, bool) or not hasattr(t, "__index__") or int(t) < 1:
            raise SizeError(f"TVLayout: a tile is a non-empty tuple of positive ints, got {tile!r}")
        out.append(int(t))
    return tuple(out)


def _image_range(layout: Layout) -> tuple[int, int]:
    """Smallest and largest index a layout reaches on its domain (no tabulation)."""
    lo = hi = 0
    for s, d in zip(layout.flat_shape(), layout.flat_stride()):
        span = (s - 1) * d
        if span > 0:
            hi += span
        else:
            lo += span
    return lo, hi


class TVLayout:
    """A CuTe thread-value layout over a tile: ``(thread, value) -> tile coordinate``.

    ``layout`` is a CuTe :class:`~converters.cute.layout.Layout` with two top-level modes (thread,
    value) whose result is the colexicographic index of a ``tile`` element; ``tile`` is the tile's
    shape (an int or a flat tuple of ints); ``warp_size`` is where the thread index splits into
    ``lane`` and ``warp`` bits in the linear form.  Values are frozen; ``==`` compares the spelling.

    Raises :class:`~linlayout.errors.LayoutError` when the layout is not rank 2 and
    :class:`~linlayout.errors.SizeError` when it reaches an index outside the tile.

        >>> tv = TVLayout(Layout(((4, 8), (2, 2)), ((32, 1), (16, 8))), (16, 8))
        >>> tv.num_threads, tv.num_values, tv.kind
        (32, 4, <Kind.DISTRIBUTED: 'distributed'>)
        >>> TVLayout(Layout((32, 4), (1, 32)), (16, 4))
        Traceback (most recent call last):
        ...
        linlayout.errors.SizeError: TVLayout: (32,4):(1,32) reaches index 127 but the tile (16,4) has 64 elements
    """

    __slots__ = ("layout", "tile", "warp_size", "_hash")

    layout: Layout
    tile: tuple[int, ...]
    warp_size: int

    def __init__(self, layout: Layout, tile: Any, warp_size: int = 32):
        if isinstance(layout, str):
            layout = parse_layout(layout)
        if not isinstance(layout, Layout):
            raise LayoutError(f"TVLayout: expected a CuTe Layout with (thread, value) modes, got {type(layout).__name__}")
        if not isinstance(layout.shape, tuple) or len(layout.shape) != 2:
            raise LayoutError(f"TVLayout: the layout {layout} must have exactly two top-level modes (thread, value), "
                              f"it has {layout.rank()}")
        tile = _tile_arg(tile)
        if not is_pow2(warp_size):
            raise SizeError(f"TVLayout: warp_size must be a positive power of two, got {warp_size!r}")
        if 0 in layout.flat_shape():
            raise SizeError(f"TVLayout: {layout} is empty (an extent is 0)")
        lo, hi = _image_range(layout)
        if lo < 0:
            raise SizeError(f"TVLayout: {layout} reaches the negative index {lo}; a tile index is >= 0")
        n = product(tile)
        if hi >= n:
            raise SizeError(f"TVLayout: {layout} reaches index {hi} but the tile {format_tile(tile)} has {n} elements")
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "warp_size", int(warp_size))
        object.__setattr__(self, "_hash", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"TVLayout is immutable: cannot set {name!r}")

    # ------------------------------------------------------------------ structure
    @property
    def kind(self) -> Kind:
        """Always :attr:`~linlayout.contract.Kind.DISTRIBUTED`: where each element sits in registers."""
        return Kind.DISTRIBUTED

    @property
    def thr(self) -> Layout:
        """The thread mode as a layout (thread -> index)."""
        return self.layout[0]

    @property
    def val(self) -> Layout:
        """The value mode as a layout (value -> index)."""
        return self.layout[1]

    @property
    def num_threads(self) -> int:
        """Number of threads (the size of the thread mode)."""
        return self.layout[0].size()

    @property
    def num_values(self) -> int:
        """Number of values each thread holds (the size of the value mode)."""
        return self.layout[1].size()

    def index(self, thread: int, value: int) -> int:
        """The colexicographic tile index of value ``value`` of thread ``thread``.

            >>> parse_tv("((4,8),(2,2)):((32,1),(16,8)) -> (16,8)").index(1, 0)
            32
        """
        for what, x, n in (("thread", thread, self.num_threads), ("value", value, self.num_values)):
            if not is_int(x) or not 0 <= x < n:
                raise LayoutError(f"TVLayout: {what} must be an int in [0, {n}), got {x!r}")
        return self.layout((thread, value))

    def __call__(self, thread: int, value: int) -> tuple[int, ...]:
        """The tile coordinate of value ``value`` of thread ``thread`` (first tile mode first)."""
        return self._coord(self.index(thread, value))

    def _coord(self, idx: int) -> tuple[int, ...]:
        out = []
        for t in self.tile:
            out.append(idx % t)
            idx //= t
        return tuple(out)

    def table(self) -> np.ndarray:
        """Every tile coordinate at once: an int64 array of shape ``(threads, values, rank(tile))``.

            >>> parse_tv("(2,2):(1,2) -> (2,2)").table()[1].tolist()
            [[1, 0], [1, 1]]
        """
        idx = self.layout.table().reshape(self.num_values, self.num_threads).T
        # indices that may pass int64 (a uint64 or object table) or a tile extent past it: Python
        # ints, then back to int64 (or a SizeError when a coordinate does not fit)
        wide = idx.dtype == object or idx.dtype == np.uint64 or max(self.tile, default=0) > _INT64_MAX
        out = np.empty(idx.shape + (len(self.tile),), dtype=object if wide else np.int64)
        rest = idx.astype(object if wide else np.int64)  # the table's own dtype may be narrower than a tile extent
        for k, t in enumerate(self.tile):
            out[..., k] = rest % t
            rest //= t
        if wide:
            try:
                return out.astype(np.int64)
            except OverflowError:
                raise SizeError(f"TVLayout.table: {self}: a tile coordinate does not fit in 64 bits") from None
        return out

    def with_tile(self, tile: Any) -> "TVLayout":
        """The same (thread, value) -> index map read over another tile of the same size (the
        colexicographic index is kept; only its split into coordinates changes), e.g. the 1-D
        tile of ``ldmatrix`` as ``(columns, rows, matrices)``.

            >>> t = parse_tv("(32,(2,4)):(2,(1,64)) -> (256)").with_tile((8, 8, 4))
            >>> t(5, 3)                       # lane 5: row 1, columns 2-3; value 3: matrix 1, column 3
            (3, 1, 1)
            >>> t.with_tile((16, 8))
            Traceback (most recent call last):
            ...
            linlayout.errors.SizeError: TVLayout.with_tile: the tile (16,8) has 128 elements, not the 256 of (8,8,4)
        """
        new = _tile_arg(tile)
        if product(new) != product(self.tile):
            raise SizeError(f"TVLayout.with_tile: the tile {format_tile(new)} has {product(new)} elements, "
                            f"not the {product(self.tile)} of {format_tile(self.tile)}")
        return TVLayout(self.layout, new, self.warp_size)

    # ------------------------------------------------------------------ comparison, text
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TVLayout):
            return NotImplemented
        return self.layout == other.layout and self.tile == other.tile and self.warp_size == other.warp_size

    def __hash__(self) -> int:
        h: Optional[int] = getattr(self, "_hash")
        if h is None:
            h = hash((self.layout, self.tile, self.warp_size))
            object.__setattr__(self, "_hash", h)
        return h

    def __str__(self) -> str:
        s = f"{self.layout} -> {format_tile(self.tile)}"
        if self.warp_size != 32:
            s += f" ; warp_size={self.warp_size}"
        return s

    def __repr__(self) -> str:
        return f"TVLayout({self})"

    # ------------------------------------------------------------------ lane/warp split
    def _lane_warp(self, who: str) -> tuple[int, int]:
        t, ws = self.num_threads, self.warp_size
        if t <= ws:
            return t, 1
        if t % ws:
            raise UnsupportedError(f"{who}: {self} has {t} threads, neither at most nor a multiple of the warp size "
                                   f"{ws}, so its threads do not split into lanes and warps")
        return ws, t // ws

    def _check_shape(self, shape: Optional[Sequence[int]], who: str) -> None:
        if shape is None:
            return
        try:
            want = tuple(int(s) for s in as_list(shape, f"{who}: shape", MAX_RANK))
        except (TypeError, ValueError):
            raise SizeError(f"{who}: a shape is a list of integers, got {shape!r}") from None
        if want != self.tile:
            raise SizeError(f"{who}: {self} covers a tile of shape {list(self.tile)}, not the requested shape {list(want)}")

    def _out_names(self) -> list[str]:
        return [f"dim{i}" for i in range(len(self.tile))]

    # ------------------------------------------------------------------ bridges
    def to_linear(self, shape: Optional[Sequence[int]] = None) -> LinearLayout:
        """The distributed :class:`~linlayout.LinearLayout`: ``register`` (value bits), ``lane``
        (thread bits below ``log2(warp_size)``), ``warp`` (the rest) -> ``dim0, dim1, ...``.

        ``shape``, if given, must be the tile.  Raises :class:`~linlayout.errors.SizeError` when a
        tile mode is not a power of two (see :meth:`to_general`) and
        :class:`~linlayout.errors.NotLinearError`, naming the mode, when the layout is not
        GF(2)-linear.

            >>> parse_tv("(4,2):(2,1) -> (8)").to_linear().bases
            {'register': ((1,),), 'lane': ((2,), (4,)), 'warp': ()}
            >>> parse_tv("(4,2):(3,1) -> (16)").to_linear()
            Traceback (most recent call last):
            ...
            linlayout.errors.NotLinearError: TVLayout (4,2):(3,1) -> (16): thread mode: mode [0] = 4:3 of (4,2):(3,1) is not GF(2)-linear: the images 3 and 6 of its digit bits 0 and 1 overlap in binary (bits 0x2), so addition is not XOR
        """
        who = "TVLayout.to_linear"
        self._check_shape(shape, who)
        for k, t in enumerate(self.tile):
            if not is_pow2(t):
                raise SizeError(f"{who}: tile mode {k} of {self} has extent {t}, not a power of two; "
                                "its general form is to_general()")
        try:
            per = _offset_map(self.layout, in_dims=["thread", "value"], out_dim="index")
        except NotLinearError as e:
            msg = str(e)
            mode = "thread mode" if msg.startswith("mode [0]") else "value mode" if msg.startswith("mode [1]") else "layout"
            raise NotLinearError(f"TVLayout {self}: {mode}: {msg}") from None
        lanes, _ = self._lane_warp(who)
        thr = per.flat_bases("thread")
        lw = log2(lanes)
        ins = [("register", per.flat_bases("value")), ("lane", thr[:lw]), ("warp", thr[lw:])]
        return LinearLayout.from_flat(ins, list(zip(self._out_names(), self.tile)))

    def to_general(self, shape: Optional[Sequence[int]] = None) -> MixedRadixLayout:
        """The mixed-radix form (any tile, any extents): in-dims ``register``, ``lane``, ``warp``,
        out axes ``dim0, dim1, ...`` sized as the tile.

            >>> g = make_layout_tv(Layout((2, 3), (3, 1)), Layout((2, 2), (2, 1))).to_general()
            >>> g.out_dims, g.apply(register=3, lane=5)
            ({'dim0': 4, 'dim1': 6}, {'dim0': 3, 'dim1': 5})
        """
        who = "TVLayout.to_general"
        self._check_shape(shape, who)
        lanes, warps = self._lane_warp(who)
        n = self.num_threads * self.num_values
        if n > _MAX_GENERAL:
            raise SizeError(f"{who}: {self} has {n} (thread, value) pairs, more than the limit {_MAX_GENERAL}")
        # rows: register fastest, then lane, then warp; thread = lane + lanes * warp
        coords = self.table().reshape(n, len(self.tile))
        ins = {"register": self.num_values, "lane": lanes, "warp": warps}
        return MixedRadixLayout.from_table(ins, coords, self._out_names(), out_dims=dict(zip(self._out_names(), self.tile)))

    @classmethod
    def from_linear(cls, L: LinearLayout) -> "TVLayout":
        """The TV layout of a distributed :class:`~linlayout.LinearLayout` (in-dims ``register``,
        ``lane``, ``warp``; a ``block`` in-dim of size 1; zero bases allowed), with
        ``from_linear(L).to_linear() == L`` when ``L``'s in-dims are exactly ``register, lane, warp``.

        The tile is ``L``'s out-dim sizes in order; ``warp_size`` is ``L``'s lane count when it has
        warp bits (32 otherwise, unless there are more lanes).  A CuTe layout adds its strides, so
        the flat images of ``L``'s non-zero bases (first out-dim lowest) must have pairwise
        disjoint bits (then adding equals XOR); otherwise :class:`~linlayout.errors.UnsupportedError`.

            >>> L = LinearLayout({"register": [[1, 0]], "lane": [[0, 1], [2, 0]], "warp": []}, {"dim0": 4, "dim1": 2})
            >>> print(TVLayout.from_linear(L))
            ((2,2),2):((4,2),1) -> (4,2)
            >>> TVLayout.from_linear(LinearLayout({"register": [[1], [3]]}, {"dim0": 4}))
            Traceback (most recent call last):
            ...
            linlayout.errors.UnsupportedError: TVLayout.from_linear: register basis 0 and register basis 1 have images 1 and 3 that share bits (0x1); a CuTe layout adds strides, so no TV layout computes this XOR
        """
        who = "TVLayout.from_linear"
        if not isinstance(L, LinearLayout):
            raise LayoutError(f"{who}: expected a LinearLayout, got {type(L).__name__}")
        _check_in_dims(L.in_dims, who)
        if not L.out_dim_names:
            raise DimensionError(f"{who}: the layout has no out-dims")
        reg, lane, warp = (L.flat_bases(n) for n in _HW_IN)
        seen = 0
        owner: dict[int, tuple[str, int, int]] = {}  # bit -> (in-dim, basis index, image)
        for name, bases in (("register", reg), ("lane", lane), ("warp", warp)):
            for i, b in enumerate(bases):
                clash = b & seen
                if clash:
                    on, oi, ob = owner[clash & -clash]
                    raise UnsupportedError(
                        f"{who}: {on} basis {oi} and {name} basis {i} have images {ob} and {b} that share bits "
                        f"({hex(clash)}); a CuTe layout adds strides, so no TV layout computes this XOR")
                seen |= b
                bit = b
                while bit:
                    owner[bit & -bit] = (name, i, b)
                    bit &= bit - 1
        thr = _mode([2] * (len(lane) + len(warp)), list(lane) + list(warp))
        val = _mode([2] * len(reg), list(reg))
        lay = Layout((thr.shape, val.shape), (thr.stride, val.stride))
        return cls(lay, tuple(L.out_dims.values()), _warp_size(1 << len(lane), bool(warp)))

    @classmethod
    def from_general(cls, G: MixedRadixLayout) -> "TVLayout":
        """The TV layout of a distributed :class:`~linlayout.mixed_radix.MixedRadixLayout` (in-dims
        ``register``, ``lane``, ``warp``; axes ``dim0, dim1, ...`` sized as the tile; no offset,
        no replicas, strides >= 0): the inverse of :meth:`to_general`, for any tile.

            >>> tv = parse_tv("((4,8,4),(2,2,3)):((128,1,16),(64,8,512)) -> (64,24)")
            >>> TVLayout.from_general(tv.to_general()) == tv
            True
        """
        who = "TVLayout.from_general"
        if not isinstance(G, MixedRadixLayout):
            raise LayoutError(f"{who}: expected a MixedRadixLayout, got {type(G).__name__}")
        if G.replicas or any(G.offset.values()):
            raise UnsupportedError(f"{who}: a TV layout has no replicas and no offset; this layout has "
                                   f"{len(G.replicas)} replica digit(s) and offset {G.offset}")
        _check_in_dims(G.in_dims, who)
        sizes = G.out_dims
        scale = {}
        acc = 1
        for a in G.axes:
            scale[a] = acc
            acc *= sizes[a]

        def mode(name: str) -> tuple[list[int], list[int]]:
            shp, std = [], []
            for d in G.digits.get(name, ()):
                if d.stride < 0:
                    raise UnsupportedError(f"{who}: digit {d} of {name!r} has a negative stride")
                shp.append(d.extent)
                std.append(d.stride * scale[d.axis])
            return shp, std

        ls, ld = mode("lane")
        ws_, wd = mode("warp")
        rs, rd = mode("register")
        lanes = G.in_dims.get("lane", 1)
        if ws_ and not is_pow2(lanes):
            raise UnsupportedError(f"{who}: {lanes} lanes per warp is not a power of two")
        t, v = _mode(ls + ws_, ld + wd), _mode(rs, rd)
        return cls(Layout((t.shape, v.shape), (t.stride, v.stride)), tuple(sizes[a] for a in G.axes),
                   _warp_size(lanes, bool(ws_)))


def _mode(shape: list[int], stride: list[int]) -> Layout:
    """The coalesced CuTe mode with these leaves, fastest first (``1:0`` for none)."""
    if not shape:
        return Layout(1, 0)
    return coalesce(Layout(tuple(shape), tuple(stride)))


def _warp_size(lanes: int, has_warps: bool) -> int:
    """The warp size a linear / general form implies: its lane count when it has warps (or more
    than 32 lanes), else 32."""
    return lanes if has_warps or lanes > 32 else 32


def _check_in_dims(in_dims: dict, who: str) -> None:
    """A distributed form's in-dims: register, lane, warp, and a block in-dim of size 1 at most."""
    for n, size in in_dims.items():
        if n == "block":
            if size > 1:
                raise UnsupportedError(f"{who}: a TV layout describes one CTA; the layout has {size} blocks")
        elif n not in _HW_IN:
            raise DimensionError(f"{who}: in-dim {n!r} is not one of register, lane, warp (a distributed layout)")


def to_tv(x: Any, shape: Optional[Sequence[int]] = None) -> TVLayout:
    """The TV spelling of any distributed layout value (Gluon, TIRx, Tilus, a LinearLayout) on
    ``shape``: :meth:`TVLayout.from_linear` of its linear form.

        >>> from converters.gluon import BlockedLayout
        >>> print(to_tv(BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0]), [32, 16]))
        ((4,32),4):((128,1),32) -> (32,16)
    """
    from linlayout.contract import as_linear

    if isinstance(x, TVLayout):
        x._check_shape(shape, "to_tv")
        return x
    return TVLayout.from_linear(as_linear(x, shape, what="to_tv"))


def make_layout_tv(thr_layout: Layout, val_layout: Optional[Layout] = None) -> TVLayout:
    """CuTe's ``make_layout_tv(thr_layout, val_layout)`` (``make_tiled_copy``'s construction):
    ``layout_mn = raked_product(thr, val)`` maps a tile coordinate to (thread, value); the TV
    layout is its right inverse reshaped to ``(size(thr), size(val))``, over the tile
    ``product_each(shape(layout_mn))``.

    The CuTe DSL's documented example:

        >>> print(make_layout_tv(Layout((2, 3), (3, 1)), Layout((2, 2), (2, 1))))
        ((3,2),(2,2)):((8,2),(4,1)) -> (4,6)
    """
    if val_layout is None:
        val_layout = Layout(1, 0)
    for what, x in (("thr_layout", thr_layout), ("val_layout", val_layout)):
        if not isinstance(x, Layout):
            raise LayoutError(f"make_layout_tv: {what} must be a CuTe Layout, got {type(x).__name__}")
    layout_mn = raked_product(thr_layout, val_layout)
    T, V = thr_layout.size(), val_layout.size()
    inv = right_inverse(layout_mn)
    if inv.size() < T * V:
        raise LayoutError(f"make_layout_tv: raked_product({thr_layout}, {val_layout}) = {layout_mn} is not a bijection "
                          f"onto its {T * V} elements (thr_layout and val_layout must be compact)")
    layout_tv = composition(inv, Layout((T, V)))
    shape = layout_mn.shape if isinstance(layout_mn.shape, tuple) else (layout_mn.shape,)
    tile = tuple(product(s) for s in shape)
    return TVLayout(layout_tv, tile)


def parse_tv(text: str) -> TVLayout:
    """Read ``<cute layout> -> <tile>`` (optionally ``; warp_size=N``), as ``str`` prints it.

        >>> parse_tv("((4,8),(2,2)):((32,1),(16,8)) -> (16,8)") == TVLayout(
        ...     Layout(((4, 8), (2, 2)), ((32, 1), (16, 8))), (16, 8))
        True
        >>> parse_tv("(32,4):(4,1) -> (16,x)")
        Traceback (most recent call last):
        ...
        linlayout.errors.ParseError: tile: expected an integer or '(', found 'x' (at position 20)
          (32,4):(4,1) -> (16,x)
                              ^
    """
    if not isinstance(text, str):
        raise ParseError(f"parse_tv: expected a string, got {type(text).__name__}")
    arrow = text.find("->")
    if arrow < 0:
        raise ParseError("expected '->' between the layout and its tile", text, len(text))
    rest_at = arrow + 2
    warp_size = 32
    semi = text.find(";", rest_at)
    tile_end = semi if semi >= 0 else len(text)
    layout = _sub(parse_layout, text, 0, arrow, "layout")
    tile_raw = _sub(parse_int_tuple, text, rest_at, tile_end, "tile")
    if is_int(tile_raw):
        tile_raw = (tile_raw,)
    if any(isinstance(t, tuple) for t in tile_raw):
        raise ParseError("tile: expected a flat tuple of extents", text, rest_at + len(text[rest_at:]) - len(text[rest_at:].lstrip()))
    if semi >= 0:
        opt = text[semi + 1:]
        key, eq, val = opt.partition("=")
        start = semi + 1 + (len(opt) - len(opt.lstrip()))
        if key.strip() != "warp_size" or not eq:
            raise ParseError("expected 'warp_size=<int>' after ';'", text, start)
        v = val.strip()
        at = semi + 1 + len(key) + 1 + (len(val) - len(val.lstrip()))
        if not v.isascii() or not v.isdigit():  # '²' is a digit to str.isdigit, not to int()
            raise ParseError("expected an integer warp size", text, at)
        warp_size = parse_int(v, "warp size", text, at)
    try:
        return TVLayout(layout, tile_raw, warp_size)
    except ParseError:
        raise
    except LayoutError as e:
        raise ParseError(str(e), text, 0) from None


def _sub(fn: Any, text: str, start: int, end: int, what: str) -> Any:
    """Parse ``text[start:end]`` with ``fn``, reporting errors at positions of the whole text."""
    try:
        return fn(text[start:end])
    except ParseError as e:
        msg = str(e).split(" (at position")[0]
        pos = start + (e.position or 0)
        raise ParseError(f"{what}: {msg}", text, pos) from None
