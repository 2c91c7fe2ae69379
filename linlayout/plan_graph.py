"""Multi-step conversion plans: layouts as nodes, plans as weighted edges (networkx).

Sometimes going through an intermediate layout is cheaper than converting directly (or it is
the only way a pass can express the move).  :func:`conversion_graph` builds a directed graph whose
edges carry the :class:`~linlayout.plan.Plan` from one layout to another and its ``cost``;
:func:`cheapest_path` finds the cheapest sequence of conversions from ``src`` to ``dst`` through
given candidate layouts.  Edges are priced by the one cost model (:mod:`linlayout.cost`, the
same ``Plan.cost`` that ``plan_conversion(strategy="best")`` minimises).  networkx is imported
lazily.

    >>> from linlayout import LinearLayout
    >>> a = LinearLayout({"register": [[1], [2]], "lane": [[4], [8], [16], [32], [64]]}, {"dim0": 128})
    >>> b = LinearLayout({"register": [[2], [1]], "lane": [[4], [8], [16], [32], [64]]}, {"dim0": 128})
    >>> m = cheapest_path(a, b, {"c": a})
    >>> m.names, m.cost, m.is_zero_cost
    (('src', 'dst'), 0.0, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import LayoutError
from .contract import as_linear
from .plan import Alternative, Plan, plan_conversion

__all__ = ["MultiStepPlan", "conversion_graph", "cheapest_path"]


@dataclass(frozen=True)
class MultiStepPlan:
    """A chain of conversions: ``names[i] -> names[i+1]`` is done by ``plans[i]``."""

    names: tuple[str, ...]
    plans: tuple[Plan, ...]
    #: the direct conversion when a chain through candidates won (its cost and why it lost)
    rejected: tuple[Alternative, ...] = ()

    @property
    def cost(self) -> float:
        """Sum of the steps' costs."""
        return float(sum(p.cost for p in self.plans))

    @property
    def shared_bytes(self) -> int:
        """The largest shared buffer any step needs."""
        return max((p.shared_bytes for p in self.plans), default=0)

    @property
    def is_zero_cost(self) -> bool:
        return all(p.is_zero_cost for p in self.plans)

    def describe(self) -> str:
        """One line per step."""
        if not self.plans:
            return "nothing to do: source and destination are the same node."
        lines = [f"{a} -> {b}: {p.describe()}" for a, b, p in zip(self.names, self.names[1:], self.plans)]
        lines += [f"Rejected: {r}." for r in self.rejected]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()

    def to_dict(self) -> dict[str, Any]:
        return {"names": list(self.names), "cost": self.cost, "steps": [p.to_dict() for p in self.plans]}


def _named(layouts: Mapping[str, Any] | Sequence[Any]) -> dict[str, Any]:
    if isinstance(layouts, Mapping):
        return {str(k): v for k, v in layouts.items()}
    return {f"L{i}": v for i, v in enumerate(layouts)}


def conversion_graph(
    layouts: Mapping[str, Any] | Sequence[Any],
    *,
    bitwidth: int | str = 32,
    shape: Sequence[int] | None = None,
    strategy: str = "best",
    max_cost: float | None = None,
) -> Any:
    """A ``networkx.DiGraph``: a node per layout (attribute ``layout``), an edge per conversion with
    attributes ``plan``, ``kind`` and ``weight`` (= ``plan.cost``).  Edges dearer than
    ``max_cost`` are left out.

        >>> from linlayout import LinearLayout
        >>> L = LinearLayout.identity_1d(32, "lane", "dim0")
        >>> G = conversion_graph({"a": L, "b": L})
        >>> G["a"]["b"]["kind"], G.number_of_edges()
        ('noop', 2)
    """
    import networkx as nx

    named = _named(layouts)
    lin = {k: as_linear(v, shape) for k, v in named.items()}
    G = nx.DiGraph()
    for k, v in lin.items():
        G.add_node(k, layout=v)
    for a, la in lin.items():
        for b, lb in lin.items():
            if a == b:
                continue
            p = plan_conversion(la, lb, bitwidth=bitwidth, strategy=strategy)
            if max_cost is not None and p.cost > max_cost:
                continue
            G.add_edge(a, b, plan=p, kind=p.kind, weight=p.cost)
    return G


def cheapest_path(
    src: Any,
    dst: Any,
    candidates: Mapping[str, Any] | Sequence[Any] = (),
    *,
    bitwidth: int | str = 32,
    shape: Sequence[int] | None = None,
    strategy: str = "best",
) -> MultiStepPlan:
    """The cheapest chain of conversions from ``src`` to ``dst`` through ``candidates``.

    Ties go to fewer steps.  The direct conversion is always a candidate path.

        >>> from linlayout import LinearLayout
        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]], "warp": [[64]]}, {"dim0": 128})
        >>> d = LinearLayout({"register": [[64]], "lane": [[2], [4], [8], [16], [32]], "warp": [[1]]}, {"dim0": 128})
        >>> cheapest_path(s, d).plans[0].kind
        'shared_memory'
    """
    import networkx as nx

    named = _named(candidates)
    if "src" in named or "dst" in named:
        raise LayoutError("cheapest_path: 'src' and 'dst' are reserved node names; rename the candidates")
    G = conversion_graph({"src": src, "dst": dst, **named}, bitwidth=bitwidth, shape=shape, strategy=strategy)
    # weight plus a tiny per-step term so that ties prefer fewer steps
    path = nx.shortest_path(G, "src", "dst", weight=lambda u, v, d: d["weight"] + 1e-9)
    plans = tuple(G[u][v]["plan"] for u, v in zip(path, path[1:]))
    rejected: tuple[Alternative, ...] = ()
    if len(path) > 2:
        d = G["src"]["dst"]["plan"]
        total = sum(p.cost for p in plans)
        rejected = (Alternative(d.kind, "the direct conversion", d.cost,
                                f"costs {d.cost - total:g} more under the cost model than the {len(plans)}-step chain"),)
    return MultiStepPlan(tuple(path), plans, rejected)
