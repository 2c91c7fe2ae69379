"""Generic LinearLayout helpers from Triton's ``LayoutUtils`` (and the CTA/CGA combination of
``LinearLayoutConversions``), in our own words.

Every function takes and returns :class:`~linlayout.linear.LinearLayout` values; shapes are given
as ``{out_dim: size}`` mappings (or, where the out dims are ``dim0, dim1, ...``, as sequences).

* :func:`ensure_layout_not_larger_than` -- zero the largest bases until the layout fits a shape
  (a tensor smaller than the layout's tile: broadcast).
* :func:`ensure_layout_not_smaller_than` -- grow the first in-dim (``register`` / ``offset``) until
  the layout covers a shape (a tensor larger than the tile: repetition).
* :func:`identity_standard_nd`, :func:`standard_out_dim_names`, :func:`standard_out_dim_pairs`.
* :func:`combine_cta_cga_with_shape` -- a CTA layout times a CGA (``block``) layout, fitted to a shape.
* :func:`zeros_like`, :func:`square_sublayout_is_identity`, :func:`reshape_layout`,
  :func:`transpose_linear_layout`, :func:`remove_broadcasted_registers`.

    >>> from linlayout import LinearLayout
    >>> L = identity_standard_nd("lane", [4, 8], [1, 0]).transpose_outs(["dim0", "dim1"])
    >>> L.bases["lane"]                                   # dim1 is the fastest
    ((0, 1), (0, 2), (0, 4), (1, 0), (2, 0))
    >>> ensure_layout_not_larger_than(L, {"dim0": 2, "dim1": 8}).bases["lane"]
    ((0, 1), (0, 2), (0, 4), (1, 0), (0, 0))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .checks import is_pow2
from .errors import DimensionError, LayoutError, SizeError
from .linear import LinearLayout

__all__ = [
    "standard_out_dim_names",
    "standard_out_dim_pairs",
    "identity_standard_nd",
    "ensure_layout_not_larger_than",
    "ensure_layout_not_smaller_than",
    "shrink_bases",
    "combine_cta_cga_with_shape",
    "zeros_like",
    "square_sublayout_is_identity",
    "reshape_layout",
    "transpose_linear_layout",
    "remove_broadcasted_registers",
]


def _named_shape(layout: LinearLayout, shape: Mapping[str, int] | Sequence[int], who: str) -> dict[str, int]:
    if isinstance(shape, Mapping):
        named = {str(k): int(v) for k, v in shape.items()}
    else:
        vals = [int(s) for s in shape]
        names = layout.out_dim_names
        if len(vals) != len(names):
            raise DimensionError(f"{who}: shape {vals} has {len(vals)} dims, the layout has out-dims {list(names)}")
        named = dict(zip(names, vals))
    if set(named) != set(layout.out_dim_names):
        raise DimensionError(f"{who}: shape names {sorted(named)} must be the layout's out-dims {list(layout.out_dim_names)}")
    for k, v in named.items():
        if not is_pow2(v):
            raise SizeError(f"{who}: size {v} of {k!r} is not a power of two")
    return named


def standard_out_dim_names(rank: int) -> list[str]:
    """``["dim0", "dim1", ...]``.

        >>> standard_out_dim_names(3)
        ['dim0', 'dim1', 'dim2']
    """
    return [f"dim{i}" for i in range(rank)]


def standard_out_dim_pairs(shape: Sequence[int]) -> list[tuple[str, int]]:
    """``[("dim0", shape[0]), ...]``.

        >>> standard_out_dim_pairs([4, 8])
        [('dim0', 4), ('dim1', 8)]
    """
    return [(f"dim{i}", int(s)) for i, s in enumerate(shape)]


def identity_standard_nd(in_dim: str, shape: Sequence[int], order: Sequence[int]) -> LinearLayout:
    """A 1-D -> N-D identity: ``in_dim`` counts through ``shape`` with ``order[0]`` fastest.

    The out dims are listed in ``order`` (minor to major), as Triton builds them.

        >>> L = identity_standard_nd("register", [2, 4], [1, 0])
        >>> L.out_dim_names, L.bases["register"]
        (('dim1', 'dim0'), ((1, 0), (2, 0), (0, 1)))
    """
    if sorted(order) != list(range(len(shape))):
        raise DimensionError(f"identity_standard_nd: order {list(order)} is not a permutation of 0..{len(shape) - 1}")
    names = standard_out_dim_names(len(shape))
    ret = LinearLayout.empty()
    for d in order:
        if not is_pow2(int(shape[d])):
            raise SizeError(f"identity_standard_nd: size {shape[d]} of dim {d} is not a power of two")
        ret = ret * LinearLayout.identity_1d(int(shape[d]), in_dim, names[d])
    return ret


def ensure_layout_not_larger_than(
    layout: LinearLayout, shape: Mapping[str, int] | Sequence[int], broadcast_registers: bool = True
) -> LinearLayout:
    """Zero the largest bases of each out-dim until the layout is no larger than ``shape``.

    With ``broadcast_registers=False`` a ``register`` basis that would be zeroed is removed instead
    (the register count shrinks), as Triton does for distributed layouts.

        >>> L = LinearLayout({"register": [[1], [2]], "lane": [[4], [8]]}, ["dim0"])
        >>> ensure_layout_not_larger_than(L, [4], broadcast_registers=False).bases
        {'register': ((1,), (2,)), 'lane': ((0,), (0,))}
        >>> ensure_layout_not_larger_than(L, [2], broadcast_registers=False).bases
        {'register': ((1,),), 'lane': ((0,), (0,))}
    """
    named = _named_shape(layout, shape, "ensure_layout_not_larger_than")
    outs = layout.out_dim_names
    bases = {k: [list(b) for b in v] for k, v in layout.bases.items()}
    dropped: set[int] = set()
    sizes = dict(layout.out_dims)
    for j, name in enumerate(outs):
        if sizes[name] > named[name]:
            shrink_bases(bases, j, sizes[name], named[name], broadcast_registers, dropped)
            sizes[name] = named[name]
    if dropped and "register" in bases:
        bases["register"] = [b for i, b in enumerate(bases["register"]) if i not in dropped]
    return LinearLayout(bases, [(n, sizes[n]) for n in outs], require_surjective=False)


def shrink_bases(
    bases: dict[str, list[list[int]]], j: int, actual: int, desired: int,
    broadcast_registers: bool = True, dropped: set[int] | None = None,
) -> None:
    """The step of :func:`ensure_layout_not_larger_than` for one out-dim, in place on basis vectors.

    Component ``j`` of the largest bases (over all in-dims, largest value first) is zeroed until
    the out-dim of size ``actual`` is no larger than ``desired``; with ``broadcast_registers=False``
    the indices of ``register`` bases that would be zeroed go into ``dropped`` instead.

        >>> b = {"register": [[1], [2]], "lane": [[4], [8]]}
        >>> shrink_bases(b, 0, 16, 4); b
        {'register': [[1], [2]], 'lane': [[0], [0]]}
        >>> gone = set(); shrink_bases(b, 0, 4, 2, broadcast_registers=False, dropped=gone); gone
        {1}
    """
    cands = sorted(
        ((v[j], in_dim, i) for in_dim, vecs in bases.items() for i, v in enumerate(vecs) if v[j]),
        key=lambda c: -c[0],
    )
    for _, in_dim, i in cands:
        if actual <= desired:
            break
        if not broadcast_registers and in_dim == "register":
            if dropped is None:
                raise LayoutError("shrink_bases: broadcast_registers=False needs a 'dropped' set")
            dropped.add(i)
        else:
            bases[in_dim][i][j] = 0
        actual >>= 1


def ensure_layout_not_smaller_than(layout: LinearLayout, shape: Mapping[str, int] | Sequence[int]) -> LinearLayout:
    """Grow the first in-dim (``register``/``offset``) until each out-dim covers ``shape``.

    Out-dims are visited in the layout's order (minor to major), so repetitions of the minor
    dim come first.

        >>> L = LinearLayout({"register": [], "lane": [[1, 0], [0, 1]]}, ["dim0", "dim1"])
        >>> ensure_layout_not_smaller_than(L, {"dim0": 4, "dim1": 4}).bases["register"]
        ((2, 0), (0, 2))
    """
    named = _named_shape(layout, shape, "ensure_layout_not_smaller_than")
    if not layout.in_dim_names:
        raise DimensionError("ensure_layout_not_smaller_than: the layout has no in-dims")
    k = layout.in_dim_names[0]
    ret = layout
    for name in layout.out_dim_names:
        actual, desired = layout.out_dim_size(name), named[name]
        if desired > actual:
            ret = ret * LinearLayout.identity_1d(desired // actual, k, name)
    return ret


def combine_cta_cga_with_shape(
    cta_layout: LinearLayout, cga_layout: LinearLayout | Sequence[Sequence[int]] | None, shape: Sequence[int],
    broadcast_registers: bool = True,
) -> LinearLayout:
    """Triton's ``combineCtaCgaWithShape``: fit a CTA layout and a CGA (``block``) layout to ``shape``.

    ``cga_layout`` is a ``block`` layout or Gluon's ``cga_layout`` bases (one basis per block bit,
    in units of one CTA's tile).  The CGA layout is cut to ``shape``; the CTA layout is grown and
    cut to ``shape`` divided by the CGA extent; the block bases are scaled by the CTA extent.
    With ``broadcast_registers=False`` cut register bases are dropped (as for Triton 3.9's
    ``BlockedLayout``) instead of zeroed (Triton's default, kept by MMA layouts).

        >>> cta = identity_standard_nd("register", [1], [0]) * identity_standard_nd("lane", [32], [0])
        >>> L = combine_cta_cga_with_shape(cta, [[1]], [128])
        >>> L.bases["register"], L.bases["block"]
        (((32,),), ((64,),))
    """
    rank = len(shape)
    names = standard_out_dim_names(rank)
    if len(cta_layout.out_dim_names) != rank:
        raise DimensionError(f"combine_cta_cga_with_shape: CTA layout has {len(cta_layout.out_dim_names)} out-dims, shape has {rank}")
    if not isinstance(cga_layout, LinearLayout):
        vecs = [list(b) for b in (cga_layout or [])]
        cga_layout = LinearLayout({"block": vecs}, names, require_surjective=False)
        if not vecs:
            cga_layout = LinearLayout({"block": []}, [(n, 1) for n in names])
    labeled = dict(zip(names, (int(s) for s in shape)))
    cga = ensure_layout_not_larger_than(cga_layout, labeled).transpose_outs(list(cta_layout.out_dim_names))
    cta_shape = {d: max(1, labeled[d] // cga.out_dim_size(d)) for d in cta_layout.out_dim_names}
    cta = ensure_layout_not_smaller_than(cta_layout, cta_shape)
    cta = ensure_layout_not_larger_than(cta, cta_shape, broadcast_registers=broadcast_registers)
    return (cta * cga).transpose_outs(names)


def zeros_like(layout: LinearLayout) -> LinearLayout:
    """The same dims and sizes with every basis zero.

        >>> zeros_like(LinearLayout({"lane": [[1], [2]]}, ["dim0"])).bases
        {'lane': ((0,), (0,))}
    """
    return LinearLayout(
        {k: [[0] * len(b) for b in v] for k, v in layout.bases.items()},
        list(layout.out_dims.items()), require_surjective=False,
    )


def square_sublayout_is_identity(layout: LinearLayout, dim_names: Sequence[str]) -> bool:
    """Whether the sublayout over ``dim_names`` (as both in- and out-dims) is the identity.

        >>> L = LinearLayout({"register": [[1, 0]], "lane": [[0, 1]]}, ["register", "lane"])
        >>> square_sublayout_is_identity(L, ["register", "lane"])
        True
    """
    names = list(dim_names)
    if not names:
        return True
    for d in names:
        if not (layout.has_in_dim(d) and layout.has_out_dim(d)) or layout.in_dim_size(d) != layout.out_dim_size(d):
            return False
    sub = layout.sublayout(names, names).flatten_ins().flatten_outs()
    (vecs,) = sub.bases.values()
    return all(v[0] == 1 << i for i, v in enumerate(vecs))


def reshape_layout(layout: LinearLayout, shape: Sequence[int]) -> LinearLayout:
    """Reshape the out-dims (row-major, last dim fastest) to ``dim0..`` of ``shape``.

        >>> L = identity_standard_nd("offset", [2, 4], [1, 0]).transpose_outs(["dim0", "dim1"])
        >>> reshape_layout(L, [8]).bases["offset"]
        ((1,), (2,), (4,))
    """
    src = list(reversed(layout.out_dim_names))
    new = list(reversed(standard_out_dim_pairs(shape)))
    return layout.transpose_outs(src).reshape_outs(new).transpose_outs(standard_out_dim_names(len(shape)))


def transpose_linear_layout(layout: LinearLayout, order: Sequence[int]) -> LinearLayout:
    """Permute the entries of every basis: entry ``i`` of the result is entry ``order[i]``.

    The out-dim names stay; their sizes are inferred again from the bases.

        >>> L = LinearLayout({"offset": [[0, 1], [0, 2], [1, 0]]}, ["dim0", "dim1"])
        >>> transpose_linear_layout(L, [1, 0]).bases["offset"]
        ((1, 0), (2, 0), (0, 1))
    """
    if sorted(order) != list(range(len(layout.out_dim_names))):
        raise DimensionError(f"transpose_linear_layout: order {list(order)} is not a permutation")
    bases = {k: [[b[i] for i in order] for b in v] for k, v in layout.bases.items()}
    return LinearLayout(bases, list(layout.out_dim_names), require_surjective=False)


def remove_broadcasted_registers(layout: LinearLayout) -> LinearLayout:
    """Drop the all-zero ``register`` bases (Triton's ``actionRemoveBroadcastedRegs``).

        >>> L = LinearLayout({"register": [[1], [0]], "lane": [[2]]}, ["dim0"])
        >>> remove_broadcasted_registers(L).bases["register"]
        ((1,),)
    """
    bases = {k: [list(b) for b in v] for k, v in layout.bases.items()}
    if "register" in bases:
        bases["register"] = [b for b in bases["register"] if any(b)]
    return LinearLayout(bases, list(layout.out_dims.items()), require_surjective=False)
