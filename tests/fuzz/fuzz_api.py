"""The API fuzz target: the public functions, constructors and methods of linlayout and the
converters, called with hostile arguments.

The contract (issue 20) is the parsers' one: a call returns or raises a
:class:`~linlayout.errors.LayoutError`; never another exception, never past the time bound,
never past the memory bound.  Arity is always right (a call with a missing argument is a
programming error, not bad input); the values are not: ``None``, the wrong type, negative and
huge integers (``2**63``), NaN and infinities, empty and megabyte containers, nesting ten
thousand deep, lone surrogates, mismatched shapes, layouts of another class.

Entry points are found by introspection (the ``__all__`` of the modules in :data:`MODULES`, the
public methods of a sample of every layout class), so a new public function is fuzzed without
being listed here; :data:`SKIP` names the few that write files, start processes or need Triton.
Values that a constructor accepts join the pool, so the methods also run on odd layouts that
were accepted (a stride of ``2**62``, an extent-1 mode, an empty shape).

Foreign exceptions are counted in two classes: ``type`` (a TypeError or AttributeError: an
argument of the wrong Python type, e.g. ``None`` for a shape, reached code that assumed the type)
and ``foreign`` (a numpy array where a scalar or list goes, met by ``if x:``, counts as ``type``
too; everything else: overflow, division by zero, recursion, index errors, wrong
answers, hangs, memory).  The second class is the contract the fuzz suite asserts; the first is
reported with its figures (issue 20's report lists it).  Containers are nested at most 900 deep
(beyond MAX_DEPTH, below the interpreter's recursion limit: Python cannot even print a deeper one).

A few laws are checked on what succeeds (wrong answers count like foreign exceptions):
``equivalent(x, x)`` is identical; ``table()`` agrees with ``apply`` (MixedRadixLayout).

    >>> import random
    >>> call = one_call(random.Random(3))
    >>> call.outcome() in ("ok", "refused", "foreign", "roundtrip", "hang")
    True
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import io
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


#: Modules whose ``__all__`` functions and classes are fuzzed.
MODULES = (
    "linlayout", "linlayout.equiv", "linlayout.plan", "linlayout.plan_graph", "linlayout.simulate", "linlayout.draw",
    "linlayout.banks", "linlayout.swizzle", "linlayout.locality", "linlayout.tabulate", "linlayout.smem_atoms",
    "linlayout.cost", "linlayout.contract", "linlayout.dtypes", "linlayout.limits", "linlayout.checks",
    "converters.cute", "converters.tile", "converters.tilus", "converters.gluon", "converters.mlir",
    "converters.registry", "linlayout.app.space",
)

#: Names not called: they write files, start processes or threads, need Triton/pycute at run
#: time, change global state (a registry), or are not layout API (exception classes, constants).
SKIP = {
    "save", "sweep", "sweep_iter", "Progress", "attach_displays", "register", "from_triton", "to_triton",
    "linear_from_triton", "linear_to_triton", "triton_available", "from_pycute", "to_pycute", "pycute_available",
    "require_matplotlib", "draw", "registry", "lookup", "Executor", "load", "read_text", "parse_module",
    "audit", "run", "tour", "main", "cost_matrix", "CostMatrix", "zero_cost_graph", "zero_cost_components",
    "conversion_graph", "cheapest_path", "LayoutSpace",
    # the input discipline's own helpers (they take checked Python values from the library's code)
    "check_text", "parse_int", "check_int", "check_depth", "as_list", "read_json", "as_int", "check_pow2", "log2",
    "is_pow2", "check_positive", "expect", "log2_exact",
    # records the library returns (constructing one from garbage is not an input path)
    "Plan", "Step", "Alternative", "WarpDecomposition", "MultiStepPlan", "Access", "MemOp", "Program",
    "SimulationReport", "BankReport", "Cell", "Picture", "Equivalence", "Counterexample", "Spelling",
    "SpellingProduct", "SpellingChain", "LayoutClass", "Kind", "Form", "Pow2Piece", "Digit", "LayoutValue",
    "TensorType", "MemDescType", "Module", "Op", "MemorySpace", "MMAAtom", "CopyAtom", "MmaAtom", "Iter",
    # abstract bases (their methods raise NotImplementedError by design)
    "GluonLayout", "DistributedLayout",
}

#: Public methods not called on instances (they print or write, or are inherited plumbing).
SKIP_METHODS = {"save", "to_svg_file", "show", "mro", "register"}


def _deep(depth: int, kind: type) -> Any:
    x: Any = 1
    for _ in range(depth):
        x = kind((x,)) if kind is tuple else [x]
    return x


@functools.lru_cache(maxsize=None)
def hostile() -> tuple[Any, ...]:
    """Values no API should take (but must refuse with a LayoutError)."""
    import numpy as np

    return (
        None, True, False, 0, -1, -2, 3, 2**31, 2**62, 2**62 - 1, 2**63, -2**63, 2**64, 10**30, -10**30, 10**400,
        0.5, 2.0, float("nan"), float("inf"), -float("inf"), 1e308, complex(1, 1),
        "", "x", "lane", "\ud800", "\x00", "a" * 100_000, " register", "0x10", "01", "-1",
        b"", b"\xff\xfe", bytearray(b"12"),
        [], (), {}, set(), frozenset(), [None], [[]], [()], [-1], [0], [2**63], [float("nan")], ["x"], [1] * 100_000,
        [2] * 65, (2,) * 64, [1.5, 2], [[1, 2], [3]], [[2**62]], [[-1]], {"x": None}, {"x": [None]}, {None: 1},
        {"register": [[1]]}, {"x": [(2, 2**62, "m")]}, {"x": [(2**62, 2, "m")]}, {"x": [(0, 1, "m")]},
        _deep(900, list), _deep(900, tuple), _deep(70, tuple), _deep(70, list),
        object(), print, type, Exception("x"), np.int64(4), np.int64(-1), np.float64("nan"), np.array([1, 2]),
        np.zeros((2, 2), dtype=np.uint8), np.array([], dtype=np.int64), range(10**12), iter([1, 2]),
    )


#: Plausible values by parameter name (a substring of the name).
PLAUSIBLE: tuple[tuple[tuple[str, ...], tuple[Any, ...]], ...] = (
    (("shape", "tile", "codomain", "block", "instr", "per_thread", "per_warp", "per_cta", "mode_shape", "dims"),
     ([128, 64], [64, 64], (4, 8), [32], (2, 2), [16, 16], [8, 8, 2], [128], (4, (2, 2)), [1, 1], [256, 128])),
    (("order", "modes", "ranks", "perm", "axes_order"), ([1, 0], [0, 1], [0], (0, 1, 2), [2, 0, 1])),
    (("name", "dim_name", "axis", "in_dim", "out_dim", "kind", "form", "style", "to", "mode", "op"),
     ("register", "lane", "warp", "block", "offset", "dim0", "dim1", "x", "m", "gluon", "cute", "tile", "tilus",
      "linear", "json", "mlir", "distributed", "shared", "memory", "128B", "64B", "K", "MN")),
    (("bitwidth", "bits", "base", "shift", "vec", "phase", "size", "warps", "width", "version", "stride",
      "alignment", "warp_size", "index", "column", "row", "dim", "n", "k", "count", "log2", "extent", "offset",
      "operand", "limit", "max", "num"),
     (0, 1, 2, 3, 4, 8, 16, 32, 64, 128, 7, 1024)),
    (("dtype",), ("fp16", "bf16", "fp8", "f32", "tf32", "i8", 16, 8)),
    (("text", "spec", "source", "string"), ()),  # filled from the parsers' corpora
)


@functools.lru_cache(maxsize=None)
def samples() -> list[Any]:
    """Valid objects of every layout class (the pool that arguments and receivers come from)."""
    from converters import cute, gluon, tile, tilus
    from linlayout import LinearLayout, MixedRadixLayout

    blocked = gluon.BlockedLayout([1, 4], [8, 4], [2, 2], [1, 0])
    out: list[Any] = [
        LinearLayout.identity_1d(32, "lane", "dim0"),
        blocked.to_linear([64, 64]),
        gluon.SwizzledSharedLayout(8, 1, 8, [1, 0]).to_linear([64, 64]),
        LinearLayout({"register": [[1], [2]], "lane": [[4], [8], [16], [0], [0]]}, {"dim0": 32}),
        LinearLayout.empty(),
        MixedRadixLayout({"x": [(4, 1, "m"), (3, 4, "m")]}),
        MixedRadixLayout({"x": [(3, 1, "m")], "y": [(1, 0, "m")]}, replicas=[(2, 12, "m")]),
        MixedRadixLayout({"register": [(2, 1, "dim0")], "lane": [(32, 2, "dim0")]}),
        cute.parse("(4,8):(8,1)"), cute.parse("(8,(2,2)):(2,(1,16))"), cute.parse("S<3,4,3> o 0 o (8,64):(64,1)"),
        cute.parse("((4,8),(2,2)):((32,1),(16,8)) -> (16,8)"), cute.Layout(0, 1), cute.parse("(224,131072):(131072,1)"),
        cute.Swizzle(3, 4, 3), tile.parse("S[(8,4):(4@laneid,1@laneid)] shape=(8,4)"),
        tile.parse("S[(2,4):(1@warpid,1)] + R[2:1@laneid]"), tile.TileLayout([(4, 2, "m"), (2, 1, "m")]),
        tilus.parse("local(2, 1).spatial(8, 4)"), tilus.parse("spatial(4, 8).local(2, 2)"), tilus.local(3),
        blocked, gluon.SliceLayout(1, blocked), gluon.parse("NVMMASharedLayout(128, 16)"),
        gluon.SwizzledSharedLayout(8, 1, 8, [1, 0]), gluon.NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16]),
        gluon.DotOperandLayout(0, gluon.NVMMADistributedLayout([2, 0], [4, 1], [16, 8]), 2),
        gluon.TensorMemoryLayout([128, 64], 1), gluon.DistributedLinearLayout([[0, 1]], [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], [[0, 2]]),
        gluon.SharedLinearLayout([[0, 1], [1, 0]]),
    ]
    return out


def _text_pool() -> tuple[str, ...]:
    from fuzz_targets import TARGETS

    texts: list[str] = []
    for name in ("gluon", "linear", "tile", "tilus", "mlir", "cute", "cute_tv", "cute_desc"):
        corpus = TARGETS[name].corpus()
        texts += list(corpus[:: max(1, len(corpus) // 8)])
    return tuple(texts)


@functools.lru_cache(maxsize=None)
def entry_points() -> list[tuple[str, Callable[..., Any]]]:
    """(label, callable) of every fuzzed public function and class (constructors).

    The optional packages some calls import on first use (galois: seconds; matplotlib) are
    imported here, so that their one-time import is not counted against the first call."""
    for optional in ("galois", "matplotlib.pyplot"):
        try:
            importlib.import_module(optional)
        except ImportError:
            pass
    out: dict[str, Callable[..., Any]] = {}
    for modname in MODULES:
        mod = importlib.import_module(modname)
        for name in getattr(mod, "__all__", ()):
            if name in SKIP or name.isupper() or name.startswith("_"):
                continue
            obj = getattr(mod, name, None)
            if obj is None or not callable(obj):
                continue
            if isinstance(obj, type) and issubclass(obj, BaseException):
                continue
            out.setdefault(f"{getattr(obj, '__module__', modname)}.{name}", obj)
    return sorted(out.items())


def _params(fn: Callable[..., Any]) -> list[inspect.Parameter] | None:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    return [p for p in sig.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def short(x: Any, n: int = 80) -> str:
    """A bounded repr (deep or huge containers included)."""
    if isinstance(x, (list, tuple)):
        if len(x) > 6:
            return f"{type(x).__name__}[{len(x)}: {short(x[0], 20)}, ...]"
        depth, y = 0, x
        while isinstance(y, (list, tuple)) and len(y) == 1 and depth < 100_000:
            y, depth = y[0], depth + 1
        if depth > 5:
            return f"{type(x).__name__} nested {depth} deep"
        inner = ", ".join(short(v, 30) for v in x)
        return ("[" + inner + "]" if isinstance(x, list) else "(" + inner + ")")[:n]
    if isinstance(x, str) and len(x) > 40:
        return f"str[{len(x)}: {x[:10]!r}...]"
    try:
        s = repr(x)
    except Exception as e:  # noqa: BLE001 - a repr that fails is itself worth reporting
        s = f"<repr failed: {type(e).__name__}>"
    return s if len(s) <= n else s[: n - 3] + "..."


@dataclass
class Call:
    """One API call: ``fn(*args, **kwargs)`` and a label for the report."""

    label: str
    fn: Callable[..., Any]
    args: tuple
    kwargs: dict
    law: Callable[[Any], None] | None = None

    def __str__(self) -> str:
        parts = [short(a) for a in self.args] + [f"{k}={short(v)}" for k, v in self.kwargs.items()]
        return f"{self.label}({', '.join(parts)})"

    def run(self) -> Any:
        """Call it with standard output swallowed (some methods print)."""
        with contextlib.redirect_stdout(io.StringIO()):
            value = self.fn(*self.args, **self.kwargs)
        if self.law is not None:
            self.law(value)
        return value

    def outcome(self, hard_limit: float = 20.0) -> str:
        return check_call(self, hard_limit).outcome


def classify(res: Any) -> str:
    """``res.outcome``, with a foreign TypeError/AttributeError as ``type`` (see the module docstring)."""
    if res.outcome == "foreign" and res.detail.split(":")[0] in ("TypeError", "AttributeError"):
        return "type"
    if res.outcome == "foreign" and "truth value of an" in res.detail:  # a numpy array where a scalar goes
        return "type"
    return res.outcome


class LawError(AssertionError):
    """A law failed on what a call returned (a wrong answer)."""


def check_call(call: Call, hard_limit: float = 20.0, p: Pool | None = None) -> Any:
    """Make ``call`` under the harness of :func:`fuzz_targets.check` (a
    :class:`fuzz_targets.Result`); what a constructor returns joins the pool ``p``."""
    from fuzz_targets import check

    return check(as_target(call, p), "", hard_limit=hard_limit)


def as_target(call: Call, p: Pool | None = None) -> Any:
    """A :class:`fuzz_targets.Target` whose ``parse`` makes the call and whose laws check it."""
    from fuzz_targets import Target

    def laws(v: Any) -> None:
        if call.law is not None:
            call.law(v)

    def parse(_: str) -> Any:
        with contextlib.redirect_stdout(io.StringIO()):
            value = call.fn(*call.args, **call.kwargs)
        if p is not None and isinstance(call.fn, type):
            p.add(value)
        return value

    return Target(call.label, parse, laws, tuple, str)


class Pool:
    """The values arguments are drawn from: samples, hostile values, texts, and what accepted
    constructors returned (at most ``keep`` of them, oldest dropped)."""

    def __init__(self, keep: int = 200):
        self.objects: list[Any] = list(samples())
        self.grown: list[Any] = []
        self.keep = keep
        self.texts = _text_pool()

    def add(self, value: Any) -> None:
        if value is None or isinstance(value, (int, float, str, bool, list, tuple, dict)):
            return
        self.grown.append(value)
        if len(self.grown) > self.keep:
            del self.grown[0]

    def layout(self, r: random.Random) -> Any:
        if self.grown and r.random() < 0.3:
            return r.choice(self.grown)
        return r.choice(self.objects)

    def value(self, r: random.Random, name: str) -> Any:
        """An argument for a parameter called ``name``: plausible for the name most of the
        time, hostile otherwise."""
        k = r.random()
        if k < 0.35:
            return r.choice(hostile())
        if k < 0.45:
            return self.layout(r)
        low = name.lower()
        if any(w in low for w in ("text", "spec", "source", "string")) and self.texts:
            return r.choice(self.texts)
        for keys, values in PLAUSIBLE:
            if values and any(w == low or w in low for w in keys):
                v = r.choice(values)
                if isinstance(v, int) and r.random() < 0.2:  # a near miss
                    v = r.choice([v - 1, v + 1, -v, v * 1024, 0])
                return v
        return self.layout(r) if r.random() < 0.7 else r.choice(hostile())


_POOL: Pool | None = None


def pool() -> Pool:
    global _POOL
    if _POOL is None:
        _POOL = Pool()
    return _POOL


def _equivalent_law(a: Any, b: Any) -> Callable[[Any], None] | None:
    if a is not b:
        return None

    def law(e: Any) -> None:
        if getattr(e, "relation", "identical") != "identical":
            raise LawError(f"equivalent(x, x) answered {e}")
    return law


def _table_law(obj: Any) -> Callable[[Any], None] | None:
    from linlayout import MixedRadixLayout

    if not isinstance(obj, MixedRadixLayout):
        return None

    def law(t: Any) -> None:
        names = list(obj.in_dims)
        sizes = [obj.in_dims[n] for n in names]
        total = math.prod(sizes)
        for flat in sorted({0, 1, total // 2, max(0, total - 1)}):
            if flat >= total:
                continue
            point, rest = {}, flat
            for n, s in zip(names, sizes):
                point[n], rest = rest % s, rest // s
            want = obj.apply(point)
            got = {a: int(t[flat][i]) for i, a in enumerate(obj.axes)}
            if {a: want.get(a, 0) for a in obj.axes} != got:
                raise LawError(f"table()[{flat}] = {got} but apply({point}) = {want}")
    return law


def _methods(obj: Any) -> list[str]:
    names = []
    for n in dir(type(obj)):
        if n.startswith("_") or n in SKIP_METHODS:
            continue
        attr = getattr(type(obj), n, None)
        if isinstance(attr, property) or attr is None:
            continue
        if callable(attr):
            names.append(n)
    return names


def _args_for(r: random.Random, fn: Callable[..., Any], p: Pool) -> tuple[tuple, dict] | None:
    params = _params(fn)
    if params is None:
        return None
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for prm in params:
        required = prm.default is inspect.Parameter.empty
        if not required and r.random() < 0.7:
            continue
        v = p.value(r, prm.name)
        if prm.kind is prm.KEYWORD_ONLY or (not required and r.random() < 0.5 and prm.kind is not prm.POSITIONAL_ONLY):
            kwargs[prm.name] = v
        elif kwargs:  # positional after a keyword: give it by name
            if prm.kind is prm.POSITIONAL_ONLY:
                return None
            kwargs[prm.name] = v
        else:
            args.append(v)
    return tuple(args), kwargs


def one_call(r: random.Random, p: Pool | None = None) -> Call:
    """A random call: a module function or constructor (60%) or a method of a pool object."""
    p = p or pool()
    for _ in range(20):
        if r.random() < 0.6:
            label, fn = r.choice(entry_points())
        else:
            obj = p.layout(r)
            names = _methods(obj)
            if not names:
                continue
            m = r.choice(names)
            label, fn = f"{type(obj).__name__}.{m}", getattr(obj, m)
        made = _args_for(r, fn, p)
        if made is None:
            continue
        args, kwargs = made
        law = None
        if label.endswith(".equivalent") and len(args) >= 2:
            if r.random() < 0.3:  # the same object twice: the answer must be "identical"
                args = (args[0], args[0]) + args[2:]
            law = _equivalent_law(args[0], args[1])
        elif label.endswith(".table") and not args and not kwargs:
            law = _table_law(getattr(fn, "__self__", None))
        return Call(label, fn, args, kwargs, law)
    return Call("linlayout.LinearLayout.empty", __import__("linlayout").LinearLayout.empty, (), {})
