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
from .mixed_radix import Counterexample, Digit, MixedRadixLayout, Pow2Piece
from .linear import LinearLayout
from . import draw as _draw

import sys as _sys

# Jupyter draws a layout, a plan and an equivalence answer (draw.py imports linear.py, so the
# displays are attached here; the converters attach theirs to every form's classes).
LinearLayout._repr_svg_ = _draw.linear_layout_svg  # type: ignore[attr-defined]
LinearLayout._repr_html_ = _draw.linear_layout_html  # type: ignore[attr-defined]
_draw.attach_displays(MixedRadixLayout)

#: (module, class, display) of the values whose modules load on first use
_DISPLAYS = (
    ("plan", "Plan", _draw.plan_html),
    ("plan_graph", "MultiStepPlan", _draw.plan_html),
    ("equiv", "Equivalence", _draw.equivalence_html),
    ("swizzle", "Swizzle", _draw.layout_html),
)


def _attach_displays() -> None:
    """Give the lazily loaded classes their ``_repr_html_`` once their module is loaded, and tell
    a running IPython to display them by name (so a class imported directly, before ``linlayout``
    attached anything, still draws itself in Jupyter)."""
    for module, cls, fn in _DISPLAYS:
        mod = _sys.modules.get(f"{__name__}.{module}")
        if mod is not None and not hasattr(getattr(mod, cls), "_repr_html_"):
            setattr(getattr(mod, cls), "_repr_html_", fn)
    ipython = _sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    if shell is not None:
        html = shell.display_formatter.formatters["text/html"]
        for module, cls, fn in _DISPLAYS:
            html.for_type_by_name(f"{__name__}.{module}", cls, fn)


_attach_displays()

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
    _attach_displays()
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
