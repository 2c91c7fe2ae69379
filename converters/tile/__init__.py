"""TVM TIRx ``TileLayout`` and ``ComposeLayout``: text, evaluation, and the bridges to
:class:`~linlayout.mixed_radix.MixedRadixLayout` and :class:`~linlayout.LinearLayout`.

* :mod:`.axes` — the axes TIRx names and their linear names;
* :mod:`.text` — the grammar: reading text into parts, printing iters;
* :mod:`.layout` — :class:`TileLayout` (evaluation as TIRx, ``to_linear``/``to_general`` in the
  contract's direction, ``place_general`` in TIRx's);
* :mod:`.hardware` — TIRx axes as linear-layout in-dims and back;
* :mod:`.compose` — :class:`ComposeLayout` (a swizzle over a TileLayout);
* :mod:`.algebra` — TIRx's layout algebra: ``canonicalize``, ``group``, ``tile``, ``tile_to``,
  ``pack``/``unpack``, ``permute_dims``/``permute_by_groups``, ``is_contiguous``, ``is_trivial``,
  ``get_scope``, ``check_well_formed`` (methods of :class:`TileLayout`; ComposeLayout has those
  TIRx gives it, ``tile`` named ``tile_by`` there).

A TileLayout is ``S[(e0,e1,...):(s0,s1,...)] + R[(r0,...):(t0,...)] + o@axis``:

* the *shard* iters (``S``) split the flat logical index **row-major, first iter outermost**; iter
  ``k`` adds ``digit_k * s_k`` on its axis;
* the *replica* iters (``R``) store every element again at ``+ r * t`` for each replica index;
* the *offset* adds a constant per axis.

A bare stride (or offset) is on the memory axis ``m``; ``v@axis`` names another axis.  Known axes:
thread axes ``laneid``, ``warpid``, ``tx`` (alias ``tid``), ``tid_in_wg``, ``wid_in_wg``, ``wgid``,
``bx``/``by``/``bz``, ``cbx``/``cby``/``cbz``; memory axes ``m``, ``TLane``, ``TCol`` (tensor memory)
and ``P``, ``F``, ``Bank`` (Trainium); any other identifier is a user-defined axis.

    >>> L = TileLayout.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    >>> L.apply(0, 2, shape=(8, 16))
    {'laneid': 1, 'warpid': 5, 'm': 0}
    >>> L.places(0, 2, shape=(8, 16))
    [{'laneid': 1, 'warpid': 5, 'm': 0}, {'laneid': 1, 'warpid': 9, 'm': 0}]
    >>> print(L)
    S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid

``apply`` follows TIRx 0.1.0a4 exactly, including which axes appear in its result (without a
shape, every shard iter's axis and the offset's; with one, every axis of a non-unit shard iter and
of the offset, an extent-1 iter's axis only where TIRx's grouping by ``shape`` keeps it, and
every iter's axis when the layout cannot be grouped by ``shape``).

TIRx's algebra, checked row by row against TIRx 0.1.0a4 (``tests/oracles/tirx/ops.jsonl``):

    >>> warp = TileLayout.parse("S[(8,4):(4@laneid,1@laneid)]")        # 8x4 threads of a warp
    >>> print(warp.tile(TileLayout.parse("S[(2,2):(2@warpid,1@warpid)]"), [2, 2], [8, 4]))
    S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]
    >>> print(TileLayout.parse("S[(4,8):(8,1)]").tile_to([8, 16], [4, 8]))   # 2x2 tiles, row-major
    S[(2,4,2,8):(64,8,32,1)]
    >>> print(TileLayout.parse("S[(8,4):(4@laneid,1)]").unpack(2)), TileLayout.parse("S[(8,4):(4@laneid,1)]").get_scope()
    S[(8,4,2):(4@laneid,2,1)]
    (None, ('cuda.thread', 'cuda.warp'))

Where TIRx refuses (an iter that cannot be split by a shape, an unpackable innermost iter, thread
axes whose scopes do not chain, an axis TIRx cannot classify), these raise a
:class:`~linlayout.errors.LayoutError` subclass (:class:`ScopeError` for scopes).  Two liberties:
``canonicalize`` keeps the replica iters in their order (TIRx sorts them by a hash of TVM objects;
the order does not change the layout), and ``tid`` is read as ``tx`` (TIRx has no ``tid`` axis).

Mapping to :class:`~linlayout.LinearLayout` (:meth:`TileLayout.to_linear`): thread axes become
``lane``/``warp`` (``laneid`` -> lane, ``warpid`` and ``wid_in_wg`` -> warp, ``wgid`` -> warp bits
above a 4-warp group, ``tx``/``tid``/``tid_in_wg`` split into lane (low 5 bits, 32 lanes per warp)
and warp); memory axes become ``register`` (``m`` when a thread axis is present), ``offset`` (``m``
otherwise), ``row`` (``TLane``) and ``col`` (``TCol``); other axes keep their names.  The
logical coordinates are ``dim0, dim1, ...`` (``dim0`` is the slowest of the row-major ``shape``).

Directions.  TIRx maps coordinates to places; the contract (:mod:`linlayout.contract`) maps
hardware places to coordinates.  :meth:`TileLayout.to_linear` and :meth:`TileLayout.to_general`
(its mixed-radix form, for extents that are not powers of two) follow the contract, so they exist
only when the layout's places, replicas included, cover the hardware box ``[0, span)`` of every
axis exactly once (no offset, no gap between strides, no overlap); :meth:`TileLayout.place_general`
is TIRx's own direction and exists for every layout.

    >>> t = TileLayout.parse("S[(128,2,112):(1@TLane,112@TCol,1@TCol)] shape=(128,224)")
    >>> t.to_general().apply(row=5, col=200), t.apply(5, 200, shape=t.shape)
    ({'dim0': 5, 'dim1': 200}, {'TLane': 5, 'TCol': 200})
    >>> TileLayout.parse("S[(4,8):(16,1)]").to_general()        # rows of 8 in strides of 16
    Traceback (most recent call last):
    ...
    linlayout.errors.NotInvertibleError: inverse: the layout has 32 inputs x 1 replicas = 32 places, but its output box {'offset': 56} has 56
    >>> TileLayout.parse("S[(4,8):(16,1)]").place_general().apply(x=9)
    {'m': 17}
"""

from .axes import LINEAR_AXIS_NAMES, MEMORY_AXES, THREAD_AXES, Iter, ScopeError
from .compose import ComposeLayout, swizzle_address
from .layout import TileLayout, parse_tile

#: ``converters.tile.parse``: the same name as the other forms' parsers.
parse = parse_tile

__all__ = [
    "Iter",
    "TileLayout",
    "ComposeLayout",
    "parse_tile",
    "parse",
    "swizzle_address",
    "THREAD_AXES",
    "MEMORY_AXES",
    "LINEAR_AXIS_NAMES",
    "ScopeError",
]

# Jupyter shows every TIRx layout as a picture (linlayout.draw.layout_html).
from linlayout.draw import attach_displays as _attach_displays  # noqa: E402

_attach_displays(TileLayout, ComposeLayout)
