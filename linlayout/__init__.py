"""linlayout: GPU tensor layouts as linear algebra over GF(2).

Every power-of-two GPU layout (registers of threads and warps, swizzled shared memory, tensor
memory) is a bit matrix over GF(2); composition, inversion, equivalence and conversion planning
are then linear algebra.

    >>> import linlayout
    >>> L = linlayout.LinearLayout.identity_1d(32, "lane", "dim0")
    >>> L.is_invertible()
    True

Heavy optional pieces (galois, networkx, matplotlib, the converters) are imported lazily, so
``import linlayout`` stays fast.
"""

from __future__ import annotations

from . import errors
from .errors import *  # noqa: F403 (every error class, listed in errors.__all__)
from .general import Counterexample, Digit, MixedRadixLayout, Pow2Piece
from .linear import LinearLayout
from . import draw as _draw

from . import equiv as _equiv, plan as _plan, plan_graph as _plan_graph, swizzle as _swizzle

# Jupyter draws a layout, a plan and an equivalence answer (draw.py imports linear.py, so the
# displays are attached here; the converters attach theirs to every form's classes).
LinearLayout._repr_svg_ = _draw.linear_layout_svg  # type: ignore[attr-defined]
LinearLayout._repr_html_ = _draw.linear_layout_html  # type: ignore[attr-defined]
_draw.attach_displays(MixedRadixLayout, _swizzle.Swizzle)
_plan.Plan._repr_html_ = _draw.plan_html  # type: ignore[attr-defined]
_plan_graph.MultiStepPlan._repr_html_ = _draw.plan_html  # type: ignore[attr-defined]
_equiv.Equivalence._repr_html_ = _draw.equivalence_html  # type: ignore[attr-defined]

# Planning, equivalence and the workbench load on first use (PEP 562), keeping the import fast.
_LAZY = {
    "as_linear": "contract",
    "as_layout": "contract",
    "kind_of": "contract",
    "Kind": "contract",
    "plan_conversion": "plan",
    "minimal_conversion": "plan",
    "Plan": "plan",
    "Step": "plan",
    "MultiStepPlan": "plan_graph",
    "cheapest_path": "plan_graph",
    "conversion_graph": "plan_graph",
    "simulate": "simulate",
    "SimulationReport": "simulate",
    "equivalent": "equiv",
    "Equivalence": "equiv",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'linlayout' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

__version__ = "0.1.0"

__all__ = [
    "LinearLayout",
    "as_linear",
    "as_layout",
    "kind_of",
    "Kind",
    "MixedRadixLayout",
    "Digit",
    "Counterexample",
    "Pow2Piece",
    "plan_conversion",
    "minimal_conversion",
    "Plan",
    "Step",
    "MultiStepPlan",
    "cheapest_path",
    "conversion_graph",
    "simulate",
    "SimulationReport",
    "equivalent",
    "Equivalence",
    *errors.__all__,
]
