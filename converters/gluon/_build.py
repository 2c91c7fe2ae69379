"""A small, fast builder for the layouts Triton constructs (internal).

Bases are kept as lists over the *standard* out-dims ``dim0..dim{rank-1}``; the builder also
remembers the out-dim order Triton's layout would have (it decides where repetitions go) and the
out-dim sizes.  The finished layout is made with one ``LinearLayout`` construction.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from linlayout.checks import is_pow2, log2
from linlayout.errors import BasisError, DimensionError, LayoutError, SizeError
from linlayout.limits import MAX_RANK, as_list
from linlayout.linear import LinearLayout


def shrink_bases(
    bases: dict[str, list[list[int]]], j: int, actual: int, desired: int,
    broadcast_registers: bool = True, dropped: set[int] | None = None,
) -> None:
    """Triton's ``ensureLayoutNotLargerThan`` for one out-dim, in place on basis vectors.

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


def check_shape(shape: Sequence[int], rank: int | None, who: str) -> list[int]:
    """The shape as a list of ints; SizeError/DimensionError naming the problem."""
    if shape is None:
        raise DimensionError(f"{who}: this layout needs the tensor's shape: pass shape=[...] (--shape 128,128 on the command line)")
    if type(shape) in (list, tuple) and all(type(s) is int for s in shape):
        shp = list(shape)
    else:
        try:
            shape = as_list(shape, f"{who}: shape", MAX_RANK)  # a range(10**12) is refused, not walked
        except SizeError:
            raise
        except LayoutError:
            raise SizeError(f"{who}: shape must be a sequence of ints, got {shape!r:.80}") from None
        try:
            shp = [int(s) for s in shape]
            if any(isinstance(s, bool) or float(s) != int(s) for s in shape):
                raise ValueError
        except (TypeError, ValueError):
            raise SizeError(f"{who}: shape must be a sequence of ints, got {shape!r}") from None
    if not shp:
        raise SizeError(f"{who}: shape must have at least one dimension")
    if rank is not None and len(shp) != rank:
        raise DimensionError(f"{who}: the layout has rank {rank} but the shape {shp} has rank {len(shp)}")
    for i, s in enumerate(shp):
        if not is_pow2(s):
            raise SizeError(
                f"{who}: shape {shp}: dim {i} = {s} is not a power of two; a GF(2) linear layout needs "
                "power-of-two extents (Triton aborts on it; use the general-shape backend)"
            )
    return shp


def cga_split(cga: Sequence[Sequence[int]], shape: Sequence[int]) -> tuple[list[list[int]], list[int]]:
    """The CGA bases cut to the tensor (Triton's ensureLayoutNotLargerThan) and the CTA tiles per dim."""
    rank = len(shape)
    cut = [[v if v < s else 0 for v, s in zip(b, shape)] for b in cga]
    tiles = []
    for i in range(rank):
        m = max((b[i] for b in cut), default=0)
        tiles.append(1 if m == 0 else 1 << m.bit_length())
    return cut, tiles


def colex_shifts(sizes: Sequence[int]) -> list[int]:
    """Where each dim's bits start in the flat form (first dim in the lowest bits).

        >>> colex_shifts([4, 8, 2])
        [0, 2, 5]
    """
    shifts, acc = [], 0
    for size in sizes:
        shifts.append(acc)
        acc += size.bit_length() - 1
    return shifts


def pack(bases: dict[str, list[list[int]]], outs: list[tuple[str, int]]) -> LinearLayout:
    """``LinearLayout(bases, outs, require_surjective=False)`` by the fast path: each basis vector is
    packed into flat form here (checking every entry is below its out-dim's size) and handed to
    :meth:`LinearLayout.from_flat`.

        >>> pack({"lane": [[1, 0], [0, 2]]}, [("dim0", 2), ("dim1", 4)]).bases["lane"]
        ((1, 0), (0, 2))
        >>> pack({"lane": [[2, 0]]}, [("dim0", 2), ("dim1", 4)])
        Traceback (most recent call last):
        ...
        linlayout.errors.BasisError: basis 0 of in-dim 'lane' has value 2 for out-dim 'dim0' of size 2
    """
    sizes = [size for _, size in outs]
    fields = list(zip(colex_shifts(sizes), sizes))
    rank = len(outs)
    flat = {}
    for k, vecs in bases.items():
        packed = []
        for v in vecs:
            f = 0
            for x, (sh, size) in zip(v, fields):
                if x < 0 or x >= size:
                    break
                f |= x << sh
            else:
                if len(v) == rank:
                    packed.append(f)
                    continue
            _bad_basis(k, len(packed), v, outs)
        flat[k] = packed
    return LinearLayout.from_flat(flat, outs)


def _bad_basis(in_dim: str, i: int, v: Sequence[int], outs: list[tuple[str, int]]) -> None:
    """Raise the error :func:`pack` found in basis ``i`` of ``in_dim``."""
    if len(v) != len(outs):
        raise BasisError(f"basis {i} of in-dim {in_dim!r} has {len(v)} entries, expected {len(outs)}")
    for (name, size), x in zip(outs, v):
        if not 0 <= x < size:
            raise BasisError(f"basis {i} of in-dim {in_dim!r} has value {x} for out-dim {name!r} of size {size}")


class Builder:
    """A layout under construction over ``rank`` standard out-dims."""

    __slots__ = ("rank", "bases", "order", "sizes")

    def __init__(self, rank: int):
        self.rank = rank
        self.bases: dict[str, list[list[int]]] = {}
        self.order: list[int] = []
        self.sizes = [1] * rank

    def touch(self, in_dim: str, d: int | None = None) -> None:
        if in_dim not in self.bases:
            self.bases[in_dim] = []
        if d is not None and d not in self.order:
            self.order.append(d)

    def identity(self, in_dim: str, size: int, d: int) -> None:
        """``*= identity1D(size, in_dim, dim d)``."""
        vecs = self.bases.get(in_dim)
        if vecs is None:
            vecs = self.bases[in_dim] = []
        if d not in self.order:
            self.order.append(d)
        s = self.sizes[d]
        rank = self.rank
        k = 1
        while k < size:
            v = [0] * rank
            v[d] = s * k
            vecs.append(v)
            k <<= 1
        self.sizes[d] = s * size

    def zeros(self, in_dim: str, size: int, d: int) -> None:
        """``*= zeros1D(size, in_dim, dim d)``."""
        self.touch(in_dim, d)
        vecs = self.bases[in_dim]
        k = 1
        while k < size:
            vecs.append([0] * self.rank)
            k <<= 1

    def identity_nd(self, in_dim: str, shape: Sequence[int], order: Sequence[int]) -> None:
        """``*= identityStandardND(in_dim, shape, order)``."""
        self.touch(in_dim)
        for d in order:
            self.identity(in_dim, shape[d], d)

    def add(self, in_dim: str, vecs: Sequence[Sequence[int]], dims: Sequence[int]) -> None:
        """``*= LinearLayout({in_dim: vecs}, dims)``: bases given over ``dims`` (a sub-list of out-dims),
        scaled by the sizes already covered; the sizes grow by the inferred extents."""
        for d in dims:
            self.touch(in_dim, d)
        ext = [1] * len(dims)
        for v in vecs:
            for j, x in enumerate(v):
                if x >= ext[j]:
                    ext[j] = 1 << x.bit_length()
        out = self.bases[in_dim]
        for v in vecs:
            w = [0] * self.rank
            for j, d in enumerate(dims):
                w[d] = v[j] * self.sizes[d]
            out.append(w)
        for j, d in enumerate(dims):
            self.sizes[d] *= ext[j]

    def not_smaller(self, shape: Sequence[int]) -> None:
        """``ensureLayoutNotSmallerThan``: grow the first in-dim along the out-dims in order."""
        k = next(iter(self.bases))
        for d in list(self.order):
            if shape[d] > self.sizes[d]:
                self.identity(k, shape[d] // self.sizes[d], d)

    def not_larger(self, shape: Sequence[int], broadcast_registers: bool = False, by_value: bool = False) -> None:
        """``ensureLayoutNotLargerThan``: zero the largest bases of each too-large out-dim.

        ``by_value`` zeroes every component that reaches ``shape`` instead of one basis per
        halving: the same for bases that are distinct powers of two, different for repeated
        ones (Triton 3.9's WMMA operands are cut that way)."""
        dropped: set[int] = set()
        for d in self.order:
            if self.sizes[d] > shape[d]:
                if by_value:
                    for vecs in self.bases.values():
                        for v in vecs:
                            if v[d] >= shape[d]:
                                v[d] = 0
                else:
                    shrink_bases(self.bases, d, self.sizes[d], shape[d], broadcast_registers, dropped)
                self.sizes[d] = shape[d]
        if dropped:
            regs = self.bases["register"]
            self.bases["register"] = [b for i, b in enumerate(regs) if i not in dropped]

    def combine_cga(
        self, cga: Sequence[Sequence[int]], shape: Sequence[int], broadcast_registers: bool = True, by_value: bool = False
    ) -> None:
        """``combineCtaCgaWithShape``: fit the CTA layout and append the ``block`` bases
        (``by_value``: see :meth:`not_larger`)."""
        rank = self.rank
        for d in range(rank):
            self.touch(next(iter(self.bases)) if self.bases else "register", d)
        # the CGA layout, cut to the shape (zero the largest block bases first)
        blocks = [list(b) for b in cga]
        cga_sizes = [1] * rank
        for b in blocks:
            for d, x in enumerate(b):
                if x >= cga_sizes[d]:
                    cga_sizes[d] = 1 << x.bit_length()
        for d in range(rank):
            if cga_sizes[d] > shape[d]:
                shrink_bases({"block": blocks}, d, cga_sizes[d], shape[d])
                cga_sizes[d] = shape[d]
        cta_shape = [max(1, shape[d] // cga_sizes[d]) for d in range(rank)]
        self.not_smaller(cta_shape)
        self.not_larger(cta_shape, broadcast_registers, by_value)
        sizes = self.sizes
        self.bases["block"] = [[x * sizes[d] for d, x in enumerate(b)] for b in blocks]
        self.sizes = [sizes[d] * cga_sizes[d] for d in range(rank)]

    def build(self, in_dims: Sequence[str] = ("register", "lane", "warp", "block")) -> LinearLayout:
        bases = {k: self.bases.get(k, []) for k in in_dims}
        for k, v in self.bases.items():
            if k not in bases:
                bases[k] = v
        return pack(bases, [(f"dim{d}", s) for d, s in enumerate(self.sizes)])


# ============================================================================ shared layouts
def dim_names(rank: int) -> list[str]:
    """``dim0, ..., dim{rank-1}``."""
    return [f"dim{i}" for i in range(rank)]


def pack_bases(bases: Mapping[str, Sequence[Sequence[int]]], outs: Sequence[tuple[str, int]]) -> LinearLayout:
    """A LinearLayout from bases as lists of vectors (checked by :func:`pack`)."""
    return pack({k: [list(b) for b in v] for k, v in bases.items()}, list(outs))


class SharedBuilder:
    """A single-in-dim layout under construction: bases as lists over a fixed tuple of out dims.

    Mirrors the handful of Triton helpers the shared conversions use: ``operator*`` by identity1D
    (append bases on one out dim), ``ensureLayoutNotSmallerThan``, ``ensureLayoutNotLargerThan``,
    ``reshapeLayout`` and ``transposeLinearLayout``.  ``sizes`` are the out-dim sizes, ``order`` is
    the out-dim order of the Triton layout (it decides where ensure-not-smaller appends).
    """

    def __init__(self, names: Sequence[str]):
        self.names = list(names)
        self.sizes = {n: 1 for n in names}
        self.order: list[str] = []  # out-dim order as Triton's layout would list it
        self.bases: list[list[int]] = []

    def _touch(self, name: str) -> None:
        if name not in self.order:
            self.order.append(name)

    def mul_identity(self, size: int, out: str) -> None:
        j = self.names.index(out)
        self._touch(out)
        cur = self.sizes[out]
        for k in range(log2(size)):
            b = [0] * len(self.names)
            b[j] = cur << k
            self.bases.append(b)
        self.sizes[out] = cur * size

    def ensure_not_smaller(self, shape: Mapping[str, int], order: Sequence[str] | None = None) -> None:
        for n in order if order is not None else self.order:
            want = shape[n]
            if self.sizes[n] < want:
                self.mul_identity(want // self.sizes[n], n)

    def ensure_not_larger(self, shape: Mapping[str, int]) -> None:
        for n in self.names:
            want = shape[n]
            if self.sizes[n] > want:
                j = self.names.index(n)
                for b in self.bases:
                    if b[j] >= want:
                        b[j] = 0
                self.sizes[n] = want

    def total(self) -> int:
        return math.prod(self.sizes[n] for n in self.names)

    def reshape(self, new_sizes: Sequence[int]) -> None:
        """Row-major reshape of the out space (last dim fastest) to ``new_sizes`` on dim0..dimN-1."""
        def shifts(sizes: Sequence[int]) -> list[int]:  # log2 of the row-major strides (all powers of two)
            out, acc = [], 0
            for n in reversed(sizes):
                out.append(acc)
                acc += log2(n)
            return out[::-1]

        old_shifts = shifts([self.sizes[n] for n in self.names])
        split = list(zip(shifts(new_sizes), [n - 1 for n in new_sizes]))
        names = dim_names(len(new_sizes))
        nb = []
        for b in self.bases:
            flat = sum(v << sh for v, sh in zip(b, old_shifts))  # entries below their sizes: no carries
            nb.append([(flat >> sh) & m for sh, m in split])
        self.names = names
        self.bases = nb
        self.sizes = dict(zip(names, new_sizes))
        self.order = list(names)

    def transpose(self, order: Sequence[int]) -> None:
        """Triton's ``transposeLinearLayout``: component i of a basis becomes old component order[i]."""
        self.bases = [[b[i] for i in order] for b in self.bases]
        old_sizes = [self.sizes[n] for n in self.names]
        self.sizes = {n: old_sizes[i] for n, i in zip(self.names, order)}

    def linear(self, out_order: Sequence[str]) -> list[list[int]]:
        idx = [self.names.index(n) for n in out_order]
        return [[b[i] for i in idx] for b in self.bases]


def shape_per_cta(shape: Sequence[int], cga: Sequence[Sequence[int]], who: str) -> list[int]:
    """Each CTA's part of ``shape`` under the CGA bases."""
    if not cga:
        return list(shape)
    _, tiles = cga_split(cga, shape)
    return [max(1, s // t) for s, t in zip(shape, tiles)]


def powers(start: int, stop: int) -> list[int]:
    """``start, 2 start, 4 start, ...`` below ``stop``: the bases identity1D appends to grow a dim."""
    out = []
    while start < stop:
        out.append(start)
        start *= 2
    return out


def finish_shared(offset: SharedBuilder, cga: Sequence[Sequence[int]], shape: Sequence[int]) -> LinearLayout:
    """Triton's combineCtaCgaWithShape for a shared layout: cover the per-CTA shape, then add blocks."""
    names = dim_names(len(shape))
    per_cta = shape_per_cta(shape, cga, "shared layout")
    want = dict(zip(names, per_cta))
    offset.ensure_not_smaller(want)
    offset.ensure_not_larger(want)
    return pack_shared(offset.linear(names), per_cta, cga, shape)


def pack_shared(offsets: Sequence[Sequence[int]], per_cta: Sequence[int], cga: Sequence[Sequence[int]],
          shape: Sequence[int]) -> LinearLayout:
    """The ``offset``/``block`` layout from offset bases (one entry per dim, each below the dim's
    per-CTA size, so the dims' bit fields cannot overlap) and the CGA."""
    shifts = colex_shifts(shape)
    return pack_shared_flat([sum(v << k for v, k in zip(b, shifts)) for b in offsets], per_cta, cga, shape)


def pack_shared_flat(flat_offset: list[int], per_cta: Sequence[int], cga: Sequence[Sequence[int]],
               shape: Sequence[int]) -> LinearLayout:
    """:func:`pack_shared` for offset bases already in flat form: adds the CGA's block bases."""
    shifts = colex_shifts(shape)
    flat_block = []
    if cga:
        cut, _ = cga_split(cga, shape)
        for b in cut:
            vals = [v * c for v, c in zip(b, per_cta)]
            if any(v >= s for v, s in zip(vals, shape)):
                raise BasisError(f"shared layout: CGA basis {list(b)} reaches {vals}, beyond the tensor {list(shape)}")
            flat_block.append(sum(v << k for v, k in zip(vals, shifts)))
    return LinearLayout.from_flat({"offset": flat_offset, "block": flat_block}, list(zip(dim_names(len(shape)), shape)))
