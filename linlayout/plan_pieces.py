"""Piecewise conversion plans for tensors whose sizes are not powers of two.

GF(2) planning needs power-of-two sizes; a 128 x 224 accumulator, head dims 80/96/112 or a
160-column tile are not.  :func:`plan_pieces` splits the *tensor* into aligned power-of-two boxes
(each dim ``n`` into its binary parts, largest first: 224 = 128 + 64 + 32, 80 = 64 + 16) on which
both layouts agree to be ordinary distributed layouts: every thread holds the box's elements in
the same registers (a static register set: no lane-dependent register indexing), the same number
of them (a power of two), and the map ``(piece register, lane, warp, block) -> coordinate in the
box`` is GF(2)-linear.  Each piece is then planned by :func:`linlayout.plan.plan_conversion` and
can be :func:`~linlayout.simulate`\\ d; the costs add up (one round trip per piece: pieces are
independent, so a kernel may also fuse them).  A box on which a side is not such a layout is
halved along its largest dim and tried again; when a box gets smaller than one element per
thread the conversion is refused, saying which box and why.

Exact pieces move no padding: ``waste`` is 0.  For comparison the plan reports what padding each
dim to a power of two (Triton's way: a 256-wide tensor with masked columns) would cost:
``padded_elements`` extra elements, ``padding_fraction`` of the padded tensor.

    >>> from linlayout import MixedRadixLayout
    >>> src = MixedRadixLayout({"register": [(224, 1, "dim1")], "lane": [(32, 1, "dim0")], "warp": [(4, 32, "dim0")]},
    ...                        out_dims={"dim0": 128, "dim1": 224})
    >>> dst = MixedRadixLayout({"register": [(4, 1, "dim1"), (7, 32, "dim1"), (8, 16, "dim0")],
    ...                         "lane": [(8, 4, "dim1"), (4, 1, "dim0")], "warp": [(4, 4, "dim0")]},
    ...                        out_dims={"dim0": 128, "dim1": 224})
    >>> pp = plan_pieces(src, dst, bitwidth=16)
    >>> [(p.box["dim1"], p.plan.kind) for p in pp.pieces]
    [((0, 128), 'shared_memory'), ((128, 64), 'shared_memory'), ((192, 32), 'shared_memory')]
    >>> pp.padded_elements, pp.waste
    (4096, 0)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .contract import as_layout
from .cost import plan_cost
from .errors import DimensionError, LayoutError, SizeError, UnsupportedError
from .mixed_radix import MixedRadixLayout
from .linear import LinearLayout
from .plan import HARDWARE_DIMS, Plan, plan_conversion

__all__ = ["Piece", "PiecewisePlan", "plan_pieces", "pow2_parts"]


def pow2_parts(n: int) -> list[tuple[int, int]]:
    """``(start, size)`` of the binary parts of ``n``, largest first.

        >>> pow2_parts(224), pow2_parts(80)
        ([(0, 128), (128, 64), (192, 32)], [(0, 64), (64, 16)])
    """
    out, start = [], 0
    for b in reversed(range(n.bit_length())):
        if n >> b & 1:
            out.append((start, 1 << b))
            start += 1 << b
    return out


@dataclass(frozen=True)
class Piece:
    """One box of the tensor (``box[dim] = (start, size)``), both sides restricted to it as
    power-of-two distributed layouts (``registers``: the source / destination registers that hold
    it, the same in every thread) and its plan."""

    box: dict[str, tuple[int, int]]
    src: LinearLayout = field(repr=False)
    dst: LinearLayout = field(repr=False)
    src_registers: tuple[int, ...] = field(repr=False)
    dst_registers: tuple[int, ...] = field(repr=False)
    plan: Plan = field(repr=False)

    @property
    def elements(self) -> int:
        n = 1
        for _, s in self.box.values():
            n *= s
        return n


@dataclass(frozen=True)
class PiecewisePlan:
    """A conversion done piece by piece; counts and costs are sums over the pieces."""

    shape: dict[str, int]
    pieces: tuple[Piece, ...]

    @property
    def cost(self) -> float:
        """Sum of the pieces' costs under the cost model (:mod:`linlayout.cost`)."""
        return float(sum(plan_cost(p.plan) for p in self.pieces))

    @property
    def elements(self) -> int:
        return int(np.prod(list(self.shape.values()), dtype=np.int64))

    @property
    def waste(self) -> int:
        """Elements moved that are not the tensor's (0: the pieces tile it exactly)."""
        return sum(p.elements for p in self.pieces) - self.elements

    @property
    def padded_elements(self) -> int:
        """Extra elements a plan on the tensor padded to powers of two would move (masked)."""
        padded = 1
        for n in self.shape.values():
            padded *= 1 << (n - 1).bit_length()
        return padded - self.elements

    @property
    def padding_fraction(self) -> float:
        """``padded_elements`` as a fraction of the padded tensor."""
        return self.padded_elements / (self.elements + self.padded_elements)

    def total(self, name: str) -> int:
        """A per-thread count summed over the pieces (``"shuffles"``, ``"stores"``, ``"barriers"``...)."""
        return sum(int(getattr(p.plan, name)) for p in self.pieces)

    @property
    def shared_bytes(self) -> int:
        """The largest buffer a piece needs (the pieces run one after another)."""
        return max((p.plan.shared_bytes for p in self.pieces), default=0)

    def simulate(self) -> list[Any]:
        """:func:`linlayout.simulate` of every piece's plan."""
        from .simulate import simulate

        return [simulate(p.plan) for p in self.pieces]

    def describe(self) -> str:
        dims = ", ".join(f"{k}={v}" for k, v in self.shape.items())
        lines = [f"{len(self.pieces)} power-of-two piece(s) of the ({dims}) tensor, cost {self.cost:g}; waste {self.waste} "
                 f"elements (padding to powers of two would add {self.padded_elements}, {self.padding_fraction:.1%})"]
        for p in self.pieces:
            box = ", ".join(f"{k}[{s}:{s + n}]" for k, (s, n) in p.box.items())
            lines.append(f"  {box}: {p.plan.describe()}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()


def _hardware(x: Any, shape: Sequence[int] | None, which: str) -> LinearLayout | MixedRadixLayout:
    lay = as_layout(x, shape, what=which)
    extra = [n for n in lay.in_dim_names if n not in HARDWARE_DIMS]
    if extra:
        raise DimensionError(f"{which} is not a distributed layout: in-dim(s) {', '.join(map(repr, extra))}; "
                             f"expected only {', '.join(HARDWARE_DIMS)}")
    for d in ("lane", "warp", "block"):
        n = dict(lay.in_dims).get(d, 1)
        if n & (n - 1):
            raise SizeError(f"{which} has {n} {d}s; hardware dims must be powers of two (only registers and tensor dims may not be)")
    return lay


class _Side:
    """A side's table: element coordinates per (thread, register)."""

    def __init__(self, lay: LinearLayout | MixedRadixLayout, outs: Sequence[str]):
        sizes = dict(lay.in_dims)
        self.regs = sizes.get("register", 1)
        self.hw = {d: sizes.get(d, 1) for d in ("lane", "warp", "block")}
        table = np.asarray(lay.table()).astype(np.int64)
        order = list(lay.in_dim_names)
        # rows: first in-dim fastest -> reshape to (..., in_dim0) then move to (threads, register)
        shp = [sizes[n] for n in reversed(order)]
        t = table.reshape(shp + [table.shape[1]])
        axes_in = list(reversed(order))
        perm = [axes_in.index(d) for d in ("block", "warp", "lane", "register") if d in axes_in]
        t = np.transpose(t, perm + [len(shp)])
        self.coords = t.reshape(-1, self.regs, table.shape[1])  # (threads, registers, out axes)
        ax = list(lay.axes if isinstance(lay, MixedRadixLayout) else lay.out_dim_names)
        self.coords = self.coords[..., [ax.index(o) for o in outs]]

    def restrict(self, box: dict[str, tuple[int, int]], outs: Sequence[str]) -> tuple[LinearLayout, tuple[int, ...]] | str:
        """The side on ``box`` as a LinearLayout, or why it is not one."""
        inside = np.ones(self.coords.shape[:2], dtype=bool)
        for k, o in enumerate(outs):
            s, n = box[o]
            inside &= (self.coords[..., k] >= s) & (self.coords[..., k] < s + n)
        regs = np.nonzero(inside[0])[0]
        if not np.array_equal(inside, np.broadcast_to(inside[0], inside.shape)):
            return "threads hold the box in different registers (a register index would depend on the thread)"
        k = len(regs)
        if k == 0 or k & (k - 1):
            return f"each thread holds {k} of its elements (not a power of two)"
        local = self.coords[:, regs, :] - np.array([box[o][0] for o in outs])
        nr = k.bit_length() - 1
        lanes, warps = self.hw["lane"], self.hw["warp"]
        # threads are ordered block, warp, lane (lane fastest)
        def at(t: int, r: int) -> list[int]:
            return [int(v) for v in local[t, r]]
        bases = {"register": [at(0, 1 << i) for i in range(nr)],
                 "lane": [at(1 << i, 0) for i in range(lanes.bit_length() - 1)],
                 "warp": [at(lanes << i, 0) for i in range(warps.bit_length() - 1)],
                 "block": [at((lanes * warps) << i, 0) for i in range(self.hw["block"].bit_length() - 1)]}
        if any(v for v in local[0, 0]):
            return "thread 0's first register is not the box's origin"
        L = LinearLayout(bases, [(o, box[o][1]) for o in outs], require_surjective=False)
        tab = L.table().astype(np.int64).reshape(self.coords.shape[0], k, len(outs)) if L.total_in_size == self.coords.shape[0] * k else None
        # L.table rows: register fastest, then lane, warp, block -> (threads, registers)
        if tab is None or not np.array_equal(tab, local):
            return "the map (register, lane, warp, block) -> coordinate is not GF(2)-linear on the box"
        if not L.is_surjective():
            return "the box is not covered"
        return L, tuple(int(r) for r in regs)


def plan_pieces(
    src: Any,
    dst: Any,
    *,
    shape: Sequence[int] | None = None,
    bitwidth: int | str = 32,
    strategy: str = "best",
    **options: Any,
) -> PiecewisePlan:
    """Plan the conversion of a tensor of any sizes from distributed layout ``src`` to ``dst``
    (:class:`~linlayout.LinearLayout`, :class:`~linlayout.MixedRadixLayout` or any form
    :func:`linlayout.as_layout` takes) piece by piece; see the module docstring.  Further keyword
    ``options`` go to :func:`~linlayout.plan.plan_conversion` for every piece.

    Raises:
        DimensionError / SizeError: not distributed layouts of one tensor.
        UnsupportedError: no split into power-of-two pieces exists (names the box and why).
    """
    a = _hardware(src, shape, "src")
    b = _hardware(dst, shape, "dst")
    outs_a = dict(a.out_dims)
    outs_b = dict(b.out_dims)
    if set(outs_a) != set(outs_b) or any(outs_a[k] != outs_b[k] for k in outs_a):
        raise SizeError(f"src and dst must be layouts of one tensor: src has dims {outs_a}, dst has {outs_b}")
    for d in ("lane", "warp", "block"):
        if dict(a.in_dims).get(d, 1) != dict(b.in_dims).get(d, 1):
            raise SizeError(f"src and dst must run on the same hardware: {d} sizes {dict(a.in_dims).get(d, 1)} and {dict(b.in_dims).get(d, 1)}")
    outs = list(outs_a)
    total = int(np.prod(list(outs_a.values()), dtype=np.int64))
    threads = int(np.prod([dict(a.in_dims).get(d, 1) for d in ("lane", "warp", "block")], dtype=np.int64))
    if total > (1 << 24):
        raise SizeError(f"plan_pieces: a tensor of {total} elements; at most 2**24 are split piecewise")
    sa, sb = _Side(a, outs), _Side(b, outs)
    pieces: list[Piece] = []

    def visit(box: dict[str, tuple[int, int]]) -> None:
        ra = sa.restrict(box, outs)
        rb = sb.restrict(box, outs)
        if isinstance(ra, tuple) and isinstance(rb, tuple):
            plan = plan_conversion(ra[0], rb[0], bitwidth=bitwidth, strategy=strategy, **options)
            pieces.append(Piece(dict(box), ra[0], rb[0], ra[1], rb[1], plan))
            return
        size = int(np.prod([n for _, n in box.values()], dtype=np.int64))
        # halve the dim whose first half both sides hold as layouts (one step of lookahead),
        # else the largest dim
        dims = sorted((o for o in outs if box[o][1] >= 2), key=lambda o: -box[o][1])
        big = dims[0] if dims else outs[0]
        for o in dims:
            half = {**box, o: (box[o][0], box[o][1] // 2)}
            if isinstance(sa.restrict(half, outs), tuple) and isinstance(sb.restrict(half, outs), tuple):
                big = o
                break
        if size < 2 * threads or box[big][1] < 2:
            why = ra if isinstance(ra, str) else rb
            where = ", ".join(f"{o}[{s}:{s + n}]" for o, (s, n) in box.items())
            raise UnsupportedError(
                f"no piecewise plan: on the box {where} the {'src' if isinstance(ra, str) else 'dst'} layout is not a power-of-two "
                f"distributed layout ({why}), and halving the box further leaves fewer elements than threads; "
                f"pad the tensor to powers of two instead"
            )
        s, n = box[big]
        visit({**box, big: (s, n // 2)})
        visit({**box, big: (s + n // 2, n // 2)})

    grids = [pow2_parts(outs_a[o]) for o in outs]
    for combo in itertools.product(*grids):
        visit(dict(zip(outs, combo)))
    if not pieces:  # pragma: no cover - every dim has at least one part
        raise LayoutError("plan_pieces: empty tensor")
    return PiecewisePlan(dict(outs_a), tuple(pieces))
