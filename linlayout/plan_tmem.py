"""Tensor-memory loads and stores: which ``tcgen05.ld``/``tcgen05.st`` shape, and how many.

A Blackwell kernel reads its accumulator from tensor memory with one of the ``tcgen05`` access
shapes (``32x32b``, ``16x64b``, ``16x128b``, ``16x256b``, ``32x32b`` split along N), each giving
a fixed register layout, and then usually converts to the layout its epilogue wants.  The
cheapest shape is the one whose *total* is least: the ``tcgen05`` instructions plus the
follow-on conversion (:func:`linlayout.plan.plan_conversion`), both priced by the one cost model
(:mod:`linlayout.cost`).

:func:`plan_tmem` works on linear forms only (this layer does not know Gluon): the tensor-memory
layout ``row, col -> dims`` (any CGA / two-CTA / scale-factor layout reduces to one) and, per
candidate shape, the register layout that shape gives (``register, lane, warp[, block] ->
dims``) or a sentence saying why the shape cannot serve.  :func:`linlayout.app.tmem_access`
builds both from a Gluon ``TensorMemoryLayout`` the way Triton 3.9 does.

Instruction counts (PTX ISA, ``tcgen05.ld``): a shape moves ``base`` 32-bit registers per thread
per repetition (``32x32b``/``16x64b``: 1, ``16x128b``: 2, ``16x256b``: 4) and takes repetitions
``.x1`` to ``.x128`` (``.x64``, ``.x32`` for the wider shapes), i.e. at most 128 registers per
instruction; a ``32x32b`` access covers the warp's 32 lanes, a ``16x..`` one 16 of them, so
registers that step to the other 16 rows need their own instructions.  The largest repetition
that fits is chosen (fewest instructions).

    >>> from linlayout import LinearLayout
    >>> tmem = LinearLayout({"row": [[1 << i, 0] for i in range(7)], "col": [[0, 1 << i] for i in range(5)]},
    ...                     {"dim0": 128, "dim1": 32})
    >>> row_per_thread = LinearLayout({"register": [[0, 1 << i] for i in range(5)], "lane": [[1 << i, 0] for i in range(5)],
    ...                                "warp": [[32, 0], [64, 0]]}, {"dim0": 128, "dim1": 32})
    >>> p = plan_tmem(tmem, {"32x32b": row_per_thread}, row_per_thread, bitwidth=32)
    >>> p.chosen.shape, p.chosen.repetition, p.chosen.instructions, p.chosen.conversion.kind
    ('32x32b', 32, 1, 'noop')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .contract import as_linear
from .cost import WEIGHTS
from .dtypes import element_bitwidth
from .errors import LayoutError, UnsupportedError
from .linear import LinearLayout
from .plan import Plan, plan_conversion

__all__ = ["TCGEN05_SHAPES", "TmemAccess", "TmemPlan", "plan_tmem", "tcgen05_counts"]

#: shape -> (32-bit registers per thread per repetition, largest repetition, rows one instruction covers)
TCGEN05_SHAPES: dict[str, tuple[int, int, int]] = {
    "32x32b": (1, 128, 32),
    "16x64b": (1, 128, 16),
    "16x128b": (2, 64, 16),
    "16x256b": (4, 32, 16),
    "32x32b_splitn": (1, 128, 32),
}


@dataclass(frozen=True)
class TmemAccess:
    """One candidate: the ``tcgen05`` shape, its repetition ``.xN``, instructions per thread, the
    register layout it gives and the conversion to (or from) the wanted layout."""

    shape: str
    repetition: int
    instructions: int
    registers: int
    layout: LinearLayout = field(repr=False)
    conversion: Plan = field(repr=False)

    @property
    def instruction(self) -> str:
        split = " (split along N)" if self.shape.endswith("_splitn") else ""
        return f"{self.shape.replace('_splitn', '')}.x{self.repetition}{split}"

    @property
    def cost(self) -> float:
        """``tcgen05`` issues (weight ``WEIGHTS["tcgen05"]``, a model value) plus the conversion's cost."""
        return self.instructions * WEIGHTS["tcgen05"] + self.conversion.cost


@dataclass(frozen=True)
class TmemPlan:
    """The cheapest access (``chosen``), the other feasible ones and the shapes that cannot serve."""

    direction: str
    chosen: TmemAccess
    others: tuple[TmemAccess, ...] = ()
    infeasible: tuple[tuple[str, str], ...] = ()

    @property
    def cost(self) -> float:
        return self.chosen.cost

    def describe(self) -> str:
        c = self.chosen
        op = "tcgen05.ld" if self.direction == "load" else "tcgen05.st"
        then = "then" if self.direction == "load" else "after"
        lines = [f"{op}.{c.instruction}: {c.instructions} instruction(s) per thread ({c.registers} 32-bit registers), "
                 f"{then} {c.conversion.describe()} Total cost {c.cost:g}."]
        for o in self.others:
            lines.append(f"  rejected {o.instruction}: {o.instructions} instruction(s) + {o.conversion.kind} = cost {o.cost:g}")
        for shape, why in self.infeasible:
            lines.append(f"  cannot use {shape}: {why}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()


def tcgen05_counts(shape: str, tmem: LinearLayout, registers: LinearLayout, bitwidth: int) -> tuple[int, int, int]:
    """``(repetition, instructions, 32-bit registers)`` per thread of moving ``registers`` (a
    register layout of ``shape``) to or from tensor memory laid out as ``tmem``.

    Raises :class:`~linlayout.errors.LayoutError` where the layout breaks the access rule: warp
    ``w`` may only touch rows ``32 (w % 4)`` to ``32 (w % 4) + 31``.
    """
    if shape not in TCGEN05_SHAPES:
        raise LayoutError(f"unknown tcgen05 shape {shape!r}; expected one of {', '.join(TCGEN05_SHAPES)}")
    base, max_rep, rows = TCGEN05_SHAPES[shape]
    access = registers.invert_and_compose(tmem)  # (register, lane, warp, block) -> (row, col)
    k_row = access.out_dim_names.index("row")
    # rows tensor memory repeats (zero row bases, e.g. scale factors copied to all four quadrants)
    # may be chosen freely: the element is also there
    free = 0
    for j, v in enumerate(tmem.bases.get("row", ())):
        if not any(v):
            free |= 1 << j

    def fits(row: int, quadrant: int) -> bool:
        return ((row ^ 32 * quadrant) & ~31 & ~free) == 0

    if access.has_in_dim("warp"):
        for i, v in enumerate(access.bases["warp"]):
            quadrant = (1 << i) % 4  # warps 1 and 2 take rows 32 and 64; warp 4 repeats quadrant 0
            if not fits(v[k_row], quadrant):
                raise LayoutError(f"{shape}: warp {1 << i} reaches row {v[k_row]}, outside its 32-row quadrant")
    for d in ("register", "lane"):
        for v in access.bases.get(d, ()):
            if not fits(v[k_row], 0):
                raise LayoutError(f"{shape}: a {d} basis reaches row {v[k_row]}, outside the warp's 32-row quadrant")
    n_regs = registers.in_dim_size("register")
    n32 = max(n_regs * max(bitwidth, 1) // 32, 1)
    row_regs = sum(1 for v in access.bases["register"] if v[k_row] >= rows)
    per_group = max(n32 >> row_regs, 1)
    rep = max(min(max_rep, per_group // base), 1)
    instructions = (1 << row_regs) * -(-per_group // (base * rep))
    return rep, instructions, n32


def plan_tmem(
    tmem: Any,
    candidates: Mapping[str, Any],
    other: Any,
    *,
    bitwidth: int | str = 32,
    direction: str = "load",
    shape: Any = None,
    **options: Any,
) -> TmemPlan:
    """Choose the ``tcgen05`` shape and repetition for loading (``direction="load"``: tensor
    memory -> candidate layout -> ``other``) or storing (``"store"``: ``other`` -> candidate ->
    tensor memory) with the least total cost.  ``candidates`` maps a shape name
    (:data:`TCGEN05_SHAPES`) to its register layout, or to a string saying why it cannot be
    used; ``options`` go to :func:`~linlayout.plan.plan_conversion` (e.g. ``strategy``,
    ``max_shared_bytes``).

    Raises:
        LayoutError: a bad direction or shape name.
        UnsupportedError: no candidate can serve (lists each shape's reason).
    """
    if direction not in ("load", "store"):
        raise LayoutError(f"direction must be 'load' or 'store', got {direction!r}")
    bits = element_bitwidth(bitwidth)
    T = as_linear(tmem, shape, what="tmem")
    if set(T.in_dim_names) - {"row", "col", "block"}:
        raise LayoutError(f"tmem must be a tensor-memory layout (in-dims row, col[, block]), got in-dims {list(T.in_dim_names)}")
    goal = as_linear(other, shape, what="other")
    feasible: list[TmemAccess] = []
    infeasible: list[tuple[str, str]] = []
    for name, cand in candidates.items():
        if isinstance(cand, str):
            infeasible.append((name, cand))
            continue
        R = as_linear(cand, shape, what=f"candidate {name}")
        try:
            rep, n, n32 = tcgen05_counts(name, T, R, bits)
            conv = (plan_conversion(R, goal, bitwidth=bits, **options) if direction == "load"
                    else plan_conversion(goal, R, bitwidth=bits, **options))
        except LayoutError as e:
            infeasible.append((name, str(e).splitlines()[0]))
            continue
        feasible.append(TmemAccess(name, rep, n, n32, R, conv))
    if not feasible:
        raise UnsupportedError("no tcgen05 shape can serve: " + "; ".join(f"{s}: {w}" for s, w in infeasible))
    order = list(TCGEN05_SHAPES)
    feasible.sort(key=lambda a: (a.cost, a.instructions, order.index(a.shape) if a.shape in order else len(order)))
    return TmemPlan(direction, feasible[0], tuple(feasible[1:]), tuple(infeasible))
