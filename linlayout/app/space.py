"""Layout spaces: enumerate Gluon layout spellings, canonicalize them, and study them at scale.

Many spellings denote one layout: ``BlockedLayout([1, 1], [32, 1], [4, 1], [1, 0])`` and
``BlockedLayout([1, 1], [32, 1], [4, 1], [0, 1])`` put every element of a ``[128, 1]`` tensor in the
same thread and register.  The :class:`~linlayout.LinearLayout` of a spelling is its canonical form
(two spellings are the same layout exactly when their linear layouts are equal), so a space of
spellings falls into equivalence classes.

* Enumerate spellings (Gluon's JSON form, ``{"kind": "BlockedLayout", ...}``):
  :func:`blocked_spellings`, :func:`slice_spellings`, :func:`mma_spellings`,
  :func:`dot_operand_spellings`, :func:`swizzled_shared_spellings` (from :mod:`.spellings`).
* :func:`classify` converts every spelling (in parallel, through any
  :class:`concurrent.futures.Executor`) and groups them into a :class:`LayoutSpace`.
* :func:`zero_cost_graph` links layouts that convert into each other without moving data between
  threads (networkx), :func:`cost_matrix` prices every conversion between a set of layouts with
  :func:`linlayout.plan.plan_conversion`.

    >>> space = classify(blocked_spellings([16, 16], 1, max_size_per_thread=2), [16, 16], executor="serial")
    >>> space.num_spellings, space.num_classes
    (48, 38)

Sweeps take an executor: ``None`` uses a process pool for big sweeps (serial for small ones, and
for the enumerated spaces of :func:`blocked_space` / :func:`slice_space`, which :func:`classify`
converts straight from their fields faster than a worker could send the layouts back),
``"serial"`` runs in this process, and any :class:`concurrent.futures.Executor` works unchanged —
including a Dask cluster's (``distributed.Client(...).get_executor()``), so a sweep that outgrows one
machine runs on many.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import itertools
import math
import os
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linlayout.contract import as_linear
from linlayout.errors import DimensionError, LayoutError
from linlayout.limits import MAX_SPELLINGS, as_list
from linlayout.linear import LinearLayout
from linlayout.cost import plan_cost as model_cost
from linlayout.locality import is_register_only, register_order_key
from linlayout.plan import Plan, conversion_costs, plan_conversion
from linlayout.plan_graph import MultiStepPlan

from . import spellings
from .spellings import (
    Spelling,
    SpellingChain,
    SpellingProduct,
    blocked_space,
    blocked_spellings,
    check_spelling_shape,
    dot_operand_spellings,
    format_spelling,
    linear_of,
    mma_spellings,
    safe_linear,
    slice_space,
    slice_spellings,
    spelling_to_linear,
    swizzled_shared_spellings,
)
from .sweep import SERIAL_THRESHOLD, Progress, gc_paused, sweep, sweep_iter

__all__ = [
    *spellings.__all__,
    "sweep",
    "sweep_iter",
    "Progress",
    "LayoutClass",
    "LayoutSpace",
    "classify",
    "zero_cost_graph",
    "zero_cost_components",
    "CostMatrix",
    "plan_cost",
    "cost_matrix",
]


# ------------------------------------------------------------------------- classification


class _Sized:
    """An iterator with a known length (so that :func:`sweep_iter` sizes its chunks and its
    progress bar as for the sequence it stands for)."""

    def __init__(self, items: Iterator[Any], n: int):
        self.items, self.n = items, n

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[Any]:
        return self.items


@dataclass
class LayoutClass:
    """One equivalence class: its layout and the indices of its spellings in the space."""

    layout: LinearLayout
    members: list[int]

    @property
    def size(self) -> int:
        return len(self.members)


@dataclass
class LayoutSpace:
    """Spellings of a tensor ``shape``, their linear layouts and their equivalence classes.

    ``layouts[i]`` is the :class:`LinearLayout` of ``spellings[i]`` (None when the spelling is
    invalid for the shape; ``errors[i]`` says why; equal layouts are one shared object);
    ``classes`` are sorted largest first.  ``spellings`` is any sequence: a list, or a lazy
    :func:`blocked_space` / :func:`slice_space` that holds no spelling in memory.
    ``up_to="identical"`` groups equal layouts, ``up_to="register_order"`` also groups layouts that
    differ only in register order (zero-cost conversions).

        >>> space = classify(blocked_spellings([4, 1], 1), [4, 1], executor="serial")
        >>> space.num_spellings, space.num_classes, space.histogram()
        (36, 12, {1: 9, 5: 1, 6: 1, 16: 1})
    """

    shape: list[int]
    spellings: Sequence[Spelling]
    layouts: list[LinearLayout | None]
    errors: dict[int, str]
    classes: list[LayoutClass]
    up_to: str = "identical"

    @property
    def num_spellings(self) -> int:
        return len(self.spellings)

    @property
    def num_valid(self) -> int:
        return len(self.spellings) - len(self.errors)

    @property
    def num_classes(self) -> int:
        return len(self.classes)

    def class_sizes(self) -> list[int]:
        """How many spellings each class has, largest first."""
        return [c.size for c in self.classes]

    def histogram(self) -> dict[int, int]:
        """class size -> number of classes of that size."""
        return dict(sorted(Counter(self.class_sizes()).items()))

    def class_of(self, index: int) -> int:
        """The class number of spelling ``index``."""
        for k, c in enumerate(self.classes):
            if index in c.members:
                return k
        raise LayoutError(f"spelling {index} is not in any class ({self.errors.get(index, 'out of range')})")

    def representatives(self) -> list[Spelling]:
        """One spelling per class (its first)."""
        return [self.spellings[c.members[0]] for c in self.classes]

    def summary(self) -> str:
        """A short human-readable report."""
        sizes = self.class_sizes()
        lines = [
            f"{self.num_spellings} spellings for shape {self.shape}: {self.num_valid} valid, "
            f"{self.num_classes} distinct layouts (up to {self.up_to.replace('_', ' ')})",
        ]
        if sizes:
            lines.append(f"largest class: {sizes[0]} spellings, e.g. {format_spelling(self.spellings[self.classes[0].members[0]])}")
            lines.append(f"class sizes -> count: {self.histogram()}")
        return "\n".join(lines)


def classify(
    spellings: Sequence[Spelling],
    shape: Sequence[int],
    *,
    executor: cf.Executor | str | None = None,
    up_to: str = "identical",
    progress: bool = False,
) -> LayoutSpace:
    """Convert every spelling to its linear layout (through ``executor``, see :func:`sweep`) and
    group equal layouts (``up_to="identical"``) or layouts equal up to register order
    (``up_to="register_order"``) into classes.  An enumerated space (:func:`blocked_space`,
    :func:`slice_space` and their sums) is converted straight from each spelling's fields (no
    dict, no re-validation), serially unless an executor is given; other spellings go through
    :func:`safe_linear`.  The answers are the same either way.

        >>> sp = [{"kind": "BlockedLayout", "size_per_thread": [1], "threads_per_warp": [32], "warps_per_cta": [4], "order": [0]}] * 2
        >>> classify(sp, [128], executor="serial").class_sizes()
        [2]
    """
    if not isinstance(up_to, str) or up_to not in ("identical", "register_order"):
        raise LayoutError(f"up_to must be 'identical' or 'register_order', got {up_to!r:.80}")
    shape = check_spelling_shape(shape)
    if not isinstance(spellings, (SpellingProduct, SpellingChain)):
        spellings = as_list(spellings, "classify: spellings", MAX_SPELLINGS)
    layouts: list[LinearLayout | None] = []
    errors: dict[int, str] = {}
    # one object per distinct layout (members of a class share it), one key per distinct layout
    groups: dict[Any, list[int]] = {}
    seen: dict[LinearLayout, tuple[LinearLayout, Any]] = {}
    # enumerated spaces are swept from their combinations of fields (no dict, no re-validation)
    direct = spellings.linear_items() if isinstance(spellings, (SpellingProduct, SpellingChain)) else None
    if direct is not None:
        # ~7 us a spelling here, less than a worker takes to send the layout back (the parent's
        # unpickling and grouping alone cost about what the serial sweep does): no pool unless asked
        results = sweep_iter(functools.partial(linear_of, shape=shape), _Sized(direct, len(spellings)),
                             executor="serial" if executor is None else executor, progress=progress, desc="layouts")
    else:
        results = sweep_iter(functools.partial(safe_linear, shape=shape), spellings, executor=executor, progress=progress, desc="layouts")
    with gc_paused():
        for i, r in enumerate(results):
            if isinstance(r, str):
                errors[i] = r
                layouts.append(None)
                continue
            got = seen.get(r)
            if got is None:
                got = seen[r] = (r, r if up_to == "identical" else register_order_key(r))
            layouts.append(got[0])
            members = groups.get(got[1])
            if members is None:
                groups[got[1]] = [i]
            else:
                members.append(i)
    classes = [LayoutClass(layouts[m[0]], m) for m in groups.values()]  # type: ignore[arg-type]
    classes.sort(key=lambda c: (-c.size, c.members[0]))
    return LayoutSpace(shape, spellings, layouts, errors, classes, up_to)


# ------------------------------------------------------------------------- graphs and costs


def _as_layout(x: Any, shape: Sequence[int] | None) -> LinearLayout:
    """A layout value (any form) or a spelling dict as a linear layout."""
    if isinstance(x, Mapping):
        if shape is None:
            raise DimensionError("a spelling dict needs a shape")
        return spelling_to_linear(x, shape)
    return as_linear(x, shape)


def zero_cost_graph(
    layouts: Sequence[Any] | Mapping[str, Any],
    shape: Sequence[int] | None = None,
    *,
    method: str = "span",
    bitwidth: int = 16,
) -> Any:
    """A :class:`networkx.DiGraph` over the layouts (nodes ``0..n-1``, or the names of a mapping),
    with an edge ``u -> v`` when converting ``u`` to ``v`` costs nothing (no data leaves its
    thread).  ``method="span"`` decides with :func:`is_register_only`; ``method="plan"`` asks
    :func:`linlayout.plan.plan_conversion` for ``is_zero_cost``.  Node attribute ``layout`` holds
    the linear layout.

        >>> a = LinearLayout({"register": [[1]], "lane": [[2]]}, {"dim0": 4})
        >>> b = LinearLayout({"register": [[1]], "lane": [[2]]}, {"dim0": 4})
        >>> c = LinearLayout({"register": [[2]], "lane": [[1]]}, {"dim0": 4})
        >>> g = zero_cost_graph({"a": a, "b": b, "c": c})
        >>> sorted(g.edges())
        [('a', 'b'), ('b', 'a')]
    """
    import networkx as nx

    if method not in ("span", "plan"):
        raise LayoutError(f"method must be 'span' or 'plan', got {method!r}")
    items = list(layouts.items()) if isinstance(layouts, Mapping) else list(enumerate(layouts))
    lls = [(name, _as_layout(x, shape)) for name, x in items]
    g = nx.DiGraph()
    for name, L in lls:
        g.add_node(name, layout=L)
    # Group by out dims and thread dims first: only those can be linked.
    for (na, a), (nb, b) in itertools.permutations(lls, 2):
        if method == "span":
            ok = is_register_only(a, b)
        else:
            if a.out_dims != b.out_dims:
                continue
            try:
                ok = plan_conversion(a, b, bitwidth=bitwidth).is_zero_cost
            except LayoutError:
                ok = False
        if ok:
            g.add_edge(na, nb)
    return g


def zero_cost_components(graph: Any) -> list[list[Any]]:
    """The groups of layouts that convert into one another for free (strongly connected
    components of :func:`zero_cost_graph`), largest first.

        >>> a = LinearLayout({"register": [[1]], "lane": [[2]]}, {"dim0": 4})
        >>> c = LinearLayout({"register": [[2]], "lane": [[1]]}, {"dim0": 4})
        >>> zero_cost_components(zero_cost_graph([a, a, c]))
        [[0, 1], [2]]
    """
    import networkx as nx

    comps = [sorted(c, key=str) for c in nx.strongly_connected_components(graph)]
    comps.sort(key=lambda c: (-len(c), str(c[0])))
    return comps


_KIND_COST = {"noop": 0.0, "register": 0.0, "warp_shuffle": 1.0, "shared_memory": 2.0, "cross_cta": 3.0}


def plan_cost(plan: Any) -> float:
    """A scalar cost of a conversion plan under the one cost model (:mod:`linlayout.cost`): a
    :class:`~linlayout.plan.Plan` (or a :class:`~linlayout.plan_graph.MultiStepPlan`) is priced
    by :func:`linlayout.cost.plan_cost`; another object by its ``cost`` attribute when it has one,
    else by kind (noop/register 0, warp_shuffle 1, shared_memory 2, cross_cta 3).

        >>> class P: kind = "warp_shuffle"
        >>> plan_cost(P())
        1.0
        >>> from linlayout.plan import plan_conversion
        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
        >>> d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
        >>> plan_cost(plan_conversion(s, d)) == model_cost(plan_conversion(s, d))
        True
    """
    if isinstance(plan, Plan):
        return model_cost(plan)
    if isinstance(plan, MultiStepPlan):
        return float(sum(model_cost(p) for p in plan.plans))
    c = getattr(plan, "cost", None)
    if callable(c):
        c = c()
    if isinstance(c, (int, float)):
        return float(c)
    return _KIND_COST.get(getattr(plan, "kind", ""), math.nan)


@dataclass
class CostMatrix:
    """Conversion costs between named layouts: ``costs[i, j]`` converts ``names[i]`` to
    ``names[j]`` (NaN when no plan exists), ``kinds[i][j]`` the plan's kind."""

    names: list[str]
    costs: Any
    kinds: list[list[str]]

    def to_text(self) -> str:
        """The matrix as an aligned text table of kinds."""
        w = max([len(n) for n in self.names] + [len(k) for r in self.kinds for k in r] + [4])
        lines = [" " * w + "".join("  " + n[:w].rjust(w) for n in self.names)]
        for n, row in zip(self.names, self.kinds):
            lines.append(n.ljust(w) + "".join("  " + k.rjust(w) for k in row))
        return "\n".join(lines)


def _cost_row(i: int, layouts: Sequence[LinearLayout], bitwidth: int) -> list[tuple[float, str]]:
    """Row ``i`` of a cost matrix, priced by :func:`linlayout.plan.conversion_costs` (the cost and
    kind of each ``plan_conversion``, no plans built): one worker prices a whole row, so the
    planner's per-layout facts (normalized layouts, round-trip sides: remembered in
    :mod:`linlayout.plan`) are reused across the row and the rows it prices after."""
    out: list[tuple[float, str]] = []
    for got in conversion_costs([layouts[i]], layouts, bitwidth=bitwidth)[0]:
        if isinstance(got, LayoutError):  # one refused pair must not sink a whole sweep
            e = got
            got = (math.nan, "error: " + (str(e).splitlines()[0][:40] if str(e) else type(e).__name__))
        out.append(got)
    return out


def cost_matrix(
    layouts: Mapping[str, Any],
    shape: Sequence[int] | None = None,
    *,
    bitwidth: int = 16,
    executor: cf.Executor | str | None = None,
    progress: bool = False,
) -> CostMatrix:
    """Plan every conversion between the named layouts (spelling dicts, layout objects or linear
    layouts of one tensor ``shape``) with :func:`linlayout.plan.plan_conversion` (``"best"``) and
    price each with the one cost model (:func:`plan_cost`, :mod:`linlayout.cost`).  Each layout is
    read once; the rows are swept through ``executor`` (see :func:`sweep`; ``None`` runs a process
    pool for large matrices).

        >>> a = LinearLayout({"register": [[1]], "lane": [[2]]}, {"dim0": 4})
        >>> m = cost_matrix({"a": a, "a2": a}, executor="serial")
        >>> m.costs.tolist()
        [[0.0, 0.0], [0.0, 0.0]]
    """
    import numpy as np

    names = list(layouts)
    lls = [_as_layout(layouts[n], shape) for n in names]
    n = len(names)
    own = None
    workers = min(os.cpu_count() or 1, 8)
    if executor is None:  # decided by the number of plans, not of rows
        own = executor = "serial" if n * n < SERIAL_THRESHOLD or workers < 2 else cf.ProcessPoolExecutor(max_workers=workers)
    try:
        rows = sweep(functools.partial(_cost_row, layouts=lls, bitwidth=bitwidth), range(n), executor=executor,
                     chunksize=max(1, math.ceil(n / (4 * workers))), progress=progress, desc="plan rows")
    finally:
        if isinstance(own, cf.Executor):
            own.shutdown()
    costs = np.array([c for row in rows for c, _ in row], dtype=float).reshape(n, n)
    kinds = [[k for _, k in row] for row in rows]
    return CostMatrix(names, costs, kinds)
