"""Layout spaces: enumerate Gluon layout spellings, canonicalize them, and study them at scale.

Many spellings denote one layout: ``BlockedLayout([1, 1], [32, 1], [4, 1], [1, 0])`` and
``BlockedLayout([1, 1], [32, 1], [4, 1], [0, 1])`` put every element of a ``[128, 1]`` tensor in the
same thread and register.  The :class:`~linlayout.LinearLayout` of a spelling is its canonical form
(two spellings are the same layout exactly when their linear layouts are equal), so a space of
spellings falls into equivalence classes.

* Enumerate spellings (Gluon's JSON form, ``{"kind": "BlockedLayout", ...}``):
  :func:`blocked_spellings`, :func:`slice_spellings`, :func:`mma_spellings`,
  :func:`dot_operand_spellings`, :func:`swizzled_shared_spellings`.
* :func:`classify` converts every spelling (in parallel, through any
  :class:`concurrent.futures.Executor`) and groups them into a :class:`LayoutSpace`.
* :func:`zero_cost_graph` links layouts that convert into each other without moving data between
  threads (networkx), :func:`cost_matrix` prices every conversion between a set of layouts with
  :func:`linlayout.plan.plan_conversion`.

    >>> space = classify(blocked_spellings([16, 16], 1, max_size_per_thread=2), [16, 16], executor="serial")
    >>> space.num_spellings, space.num_classes
    (48, 38)

Sweeps take an executor: ``None`` uses a process pool for big sweeps (serial for small ones),
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
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from linlayout.checks import is_pow2
from linlayout import gf2
from linlayout.errors import DimensionError, LayoutError, SizeError, UnsupportedError
from linlayout.linear import LinearLayout

__all__ = [
    "blocked_spellings",
    "slice_spellings",
    "mma_spellings",
    "dot_operand_spellings",
    "swizzled_shared_spellings",
    "format_spelling",
    "spelling_to_linear",
    "sweep",
    "Progress",
    "LayoutClass",
    "LayoutSpace",
    "classify",
    "register_order_key",
    "is_register_only",
    "conversion_mechanism",
    "zero_cost_graph",
    "zero_cost_components",
    "CostMatrix",
    "plan_cost",
    "cost_matrix",
]

Spelling = dict


def _pow2_upto(n: int) -> list[int]:
    out, v = [], 1
    while v <= n:
        out.append(v)
        v *= 2
    return out


def _check_shape(shape: Sequence[int]) -> list[int]:
    try:
        shape = [int(s) for s in shape]
    except (TypeError, ValueError):
        raise DimensionError(f"shape must be a list of ints, got {shape!r}") from None
    if not shape:
        raise DimensionError("shape must have at least one dim")
    for d, s in enumerate(shape):
        if not is_pow2(s):
            raise SizeError(f"shape[{d}] = {s} is not a power of two (Gluon distributed layouts need power-of-two shapes)")
    return shape


def _splits(total: int, rank: int) -> list[list[int]]:
    """Every way to write the power of two ``total`` as a product of ``rank`` powers of two."""
    k = total.bit_length() - 1
    out = []
    for exps in itertools.product(range(k + 1), repeat=rank):
        if sum(exps) == k:
            out.append([1 << e for e in exps])
    return out


# ---------------------------------------------------------------------------------- spellings


def blocked_spellings(
    shape: Sequence[int],
    num_warps: int,
    *,
    threads_per_warp: int = 32,
    max_size_per_thread: int | None = None,
) -> list[Spelling]:
    """Every ``BlockedLayout`` for a tensor ``shape`` on ``num_warps`` warps (one CTA).

    ``size_per_thread[d]`` ranges over the powers of two up to ``shape[d]`` (and up to
    ``max_size_per_thread``); ``threads_per_warp`` and ``warps_per_cta`` over every power-of-two
    split of the warp size and the warp count; ``order`` over every permutation.

        >>> len(blocked_spellings([128, 128], 4))
        2304
        >>> blocked_spellings([4], 1)[0]
        {'kind': 'BlockedLayout', 'size_per_thread': [1], 'threads_per_warp': [32], 'warps_per_cta': [1], 'order': [0], 'cga_layout': []}
    """
    shape = _check_shape(shape)
    if not is_pow2(num_warps):
        raise SizeError(f"num_warps must be a power of two, got {num_warps}")
    if not is_pow2(threads_per_warp):
        raise SizeError(f"threads_per_warp must be a power of two, got {threads_per_warp}")
    rank = len(shape)
    spt_choices = [[v for v in _pow2_upto(s) if max_size_per_thread is None or v <= max_size_per_thread] for s in shape]
    out = []
    for spt in itertools.product(*spt_choices):
        for tpw in _splits(threads_per_warp, rank):
            for wpc in _splits(num_warps, rank):
                for order in itertools.permutations(range(rank)):
                    out.append(
                        {
                            "kind": "BlockedLayout",
                            "size_per_thread": list(spt),
                            "threads_per_warp": tpw,
                            "warps_per_cta": wpc,
                            "order": list(order),
                            "cga_layout": [],
                        }
                    )
    return out


def slice_spellings(
    shape: Sequence[int],
    num_warps: int,
    *,
    threads_per_warp: int = 32,
    max_size_per_thread: int | None = None,
) -> list[Spelling]:
    """Every ``SliceLayout(dim, BlockedLayout(...))`` for ``shape``: a blocked parent of rank
    ``len(shape) + 1`` (size 1 per thread along the sliced dim) with one dim sliced away.

        >>> s = slice_spellings([32], 1)
        >>> len(s), s[0]["kind"], s[0]["dim"]
        (144, 'SliceLayout', 0)
    """
    shape = _check_shape(shape)
    out = []
    for dim in range(len(shape) + 1):
        parent_shape = shape[:dim] + [1] + shape[dim:]
        for p in blocked_spellings(parent_shape, num_warps, threads_per_warp=threads_per_warp, max_size_per_thread=max_size_per_thread):
            out.append({"kind": "SliceLayout", "dim": dim, "parent": p})
    return out


def mma_spellings(shape: Sequence[int], num_warps: int, *, versions: Sequence[int] = (2, 3)) -> list[Spelling]:
    """NVIDIA MMA accumulator layouts (``NVMMADistributedLayout``) for a 2-D ``shape``: version 2
    (instr_shape ``[16, 8]``) over every split of the warps, and version 3 (wgmma,
    instr_shape ``[16, n, 16]``, ``n`` up to ``min(256, shape[1])``) over splits whose first entry
    is a multiple of 4 (whole warp groups along M).

        >>> [s["version"] for s in mma_spellings([64, 64], 4)][:3]
        [[2, 0], [2, 0], [2, 0]]
        >>> len(mma_spellings([64, 64], 4, versions=[3]))
        4
    """
    shape = _check_shape(shape)
    if len(shape) != 2:
        raise DimensionError(f"MMA layouts need a 2-D shape, got {shape}")
    out = []
    if 2 in versions:
        for wpc in _splits(num_warps, 2):
            out.append({"kind": "NVMMADistributedLayout", "version": [2, 0], "warps_per_cta": wpc, "instr_shape": [16, 8]})
    if 3 in versions and num_warps % 4 == 0:
        for wpc in _splits(num_warps, 2):
            if wpc[0] % 4:
                continue
            n = 8
            while n <= min(256, shape[1]):
                out.append({"kind": "NVMMADistributedLayout", "version": [3, 0], "warps_per_cta": wpc, "instr_shape": [16, n, 16]})
                n *= 2
    return out


def dot_operand_spellings(parents: Iterable[Spelling], *, bitwidth: int = 16) -> list[Spelling]:
    """The dot operands (``DotOperandLayout``) of MMA parents: both operands of version 2, operand 0
    (A from registers) of version 3, with ``k_width = 32 // bitwidth`` (2 for 16-bit types).

        >>> p = mma_spellings([64, 64], 4, versions=[2])[0]
        >>> [d["operand_index"] for d in dot_operand_spellings([p])]
        [0, 1]
    """
    if bitwidth not in (8, 16, 32):
        raise SizeError(f"bitwidth must be 8, 16 or 32, got {bitwidth}")
    out = []
    k_width = max(1, 32 // bitwidth)
    for p in parents:
        version = p.get("version", [2, 0])[0]
        for op in (0, 1) if version == 2 else (0,):
            out.append({"kind": "DotOperandLayout", "operand_index": op, "parent": p, "k_width": k_width})
    return out


def swizzled_shared_spellings(shape: Sequence[int], *, max_vec: int = 16) -> list[Spelling]:
    """``SwizzledSharedLayout(vec, per_phase, max_phase, order)`` with ``vec`` and ``max_phase`` up to
    ``max_vec``, ``per_phase`` up to 8, and every order.

        >>> len(swizzled_shared_spellings([32, 32]))
        200
    """
    shape = _check_shape(shape)
    out = []
    for order in itertools.permutations(range(len(shape))):
        for vec in _pow2_upto(max_vec):
            for per_phase in _pow2_upto(8):
                for max_phase in _pow2_upto(max_vec):
                    out.append({"kind": "SwizzledSharedLayout", "vec": vec, "per_phase": per_phase, "max_phase": max_phase, "order": list(order)})
    return out


_FIELD_ORDER = {
    "BlockedLayout": ("size_per_thread", "threads_per_warp", "warps_per_cta", "order"),
    "SliceLayout": ("dim", "parent"),
    "NVMMADistributedLayout": ("version", "warps_per_cta", "instr_shape"),
    "DotOperandLayout": ("operand_index", "parent", "k_width"),
    "SwizzledSharedLayout": ("vec", "per_phase", "max_phase", "order"),
}


def format_spelling(spelling: Mapping[str, Any]) -> str:
    """The constructor text of a spelling dict (positional fields in Gluon's order; an empty
    ``cga_layout`` left out).

        >>> format_spelling(blocked_spellings([4], 1)[0])
        'BlockedLayout([1], [32], [1], [0])'
        >>> format_spelling({"kind": "SliceLayout", "dim": 1, "parent": blocked_spellings([4, 1], 1)[0]})
        'SliceLayout(1, BlockedLayout([1, 1], [1, 32], [1, 1], [0, 1]))'
    """
    if not isinstance(spelling, Mapping) or "kind" not in spelling:
        raise LayoutError(f"a spelling is a dict with a 'kind', got {spelling!r}")
    kind = spelling["kind"]
    names = _FIELD_ORDER.get(kind)
    parts = []

    def fmt(v: Any) -> str:
        if isinstance(v, Mapping) and "kind" in v:
            return format_spelling(v)
        return repr(v) if not isinstance(v, (list, tuple)) else "[" + ", ".join(fmt(x) for x in v) + "]"

    if names:
        parts = [fmt(spelling[n]) for n in names if n in spelling]
        for k, v in spelling.items():
            if k not in names and k != "kind" and not (k == "cga_layout" and not v):
                parts.append(f"{k}={fmt(v)}")
    else:
        parts = [f"{k}={fmt(v)}" for k, v in spelling.items() if k != "kind"]
    return f"{kind}({', '.join(parts)})"


# --------------------------------------------------------------- spelling -> linear layout


def _to_linear_impl(spelling: Mapping[str, Any], shape: Sequence[int]) -> LinearLayout:
    from converters.gluon import from_dict  # lazily: linlayout never imports converters at module level

    return from_dict(dict(spelling)).to_linear(list(shape))


def spelling_to_linear(spelling: Mapping[str, Any], shape: Sequence[int]) -> LinearLayout:
    """The :class:`LinearLayout` of a Gluon spelling dict on a tensor ``shape`` (through
    ``converters.gluon``).

        >>> L = spelling_to_linear(blocked_spellings([64], 2, max_size_per_thread=1)[0], [64])
        >>> L.bases["lane"][:2], L.bases["warp"]
        (((1,), (2,)), ((32,),))
    """
    if not isinstance(spelling, Mapping) or "kind" not in spelling:
        raise LayoutError(f"a spelling is a dict with a 'kind', got {spelling!r}")
    return _to_linear_impl(spelling, list(shape))


def _safe_linear(spelling: Mapping[str, Any], shape: Sequence[int]) -> LinearLayout | str:
    try:
        return spelling_to_linear(spelling, shape)
    except (LayoutError, KeyError, TypeError, IndexError) as e:  # a foreign converter may raise the latter
        msg = str(e).splitlines()[0] if str(e) else ""
        return f"{type(e).__name__}: {msg}"


# ------------------------------------------------------------------------------- sweeping


class Progress:
    """A progress bar on stderr: tqdm when installed, else a plain one-line bar.

        >>> with Progress(3, "demo", enabled=False) as p:
        ...     p.update(3)
        >>> p.done
        3
    """

    def __init__(self, total: int, desc: str = "", *, enabled: bool = True, stream: Any = None):
        self.total = total
        self.desc = desc
        self.done = 0
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self._tqdm = None
        self._last = 0.0
        if enabled:
            try:
                from tqdm import tqdm

                self._tqdm = tqdm(total=total, desc=desc, file=self.stream, leave=False)
            except ImportError:
                pass

    def update(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        if self._tqdm is not None:
            self._tqdm.update(n)
            return
        now = time.monotonic()
        if now - self._last < 0.1 and self.done < self.total:
            return
        self._last = now
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(frac * 30)
        self.stream.write(f"\r{self.desc} [{bar:<30}] {self.done}/{self.total}")
        self.stream.flush()

    def close(self) -> None:
        if not self.enabled:
            return
        if self._tqdm is not None:
            self._tqdm.close()
        else:
            self.stream.write("\r" + " " * (len(self.desc) + 50) + "\r")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _run_chunk(fn: Callable[[Any], Any], chunk: Sequence[Any]) -> list[Any]:
    return [fn(x) for x in chunk]


#: Sweeps with fewer items than this run serially when no executor is given.
SERIAL_THRESHOLD = 512


def sweep(
    fn: Callable[[Any], Any],
    items: Sequence[Any],
    *,
    executor: cf.Executor | str | None = None,
    chunksize: int | None = None,
    progress: bool = False,
    desc: str = "sweep",
) -> list[Any]:
    """``[fn(x) for x in items]``, in chunks, through an executor; results in input order.

    ``executor``: ``None`` -> a process pool (serial when there are fewer than
    :data:`SERIAL_THRESHOLD` items or one CPU); ``"serial"`` -> this process; any
    :class:`concurrent.futures.Executor` (thread or process pool, a Dask client's
    ``get_executor()``).  ``fn`` must be picklable for process and distributed executors (a
    top-level function or a :func:`functools.partial` of one).

        >>> sweep(abs, [-1, 2, -3], executor="serial")
        [1, 2, 3]
        >>> import concurrent.futures as cf
        >>> with cf.ThreadPoolExecutor(2) as ex:
        ...     sweep(abs, list(range(-5, 0)), executor=ex, chunksize=2)
        [5, 4, 3, 2, 1]
    """
    items = list(items)
    n = len(items)
    if n == 0:
        return []
    own = None
    if executor is None:
        workers = min(os.cpu_count() or 1, 8)
        if n < SERIAL_THRESHOLD or workers < 2:
            executor = "serial"
        else:
            own = executor = cf.ProcessPoolExecutor(max_workers=workers)
    if isinstance(executor, str):
        if executor != "serial":
            raise LayoutError(f"executor must be an Executor, None or 'serial', got {executor!r}")
        out = []
        step = chunksize or max(1, n // 100)
        with Progress(n, desc, enabled=progress) as bar:
            for i in range(0, n, step):
                out.extend(_run_chunk(fn, items[i : i + step]))
                bar.update(min(step, n - i))
        return out
    if chunksize is None:
        chunksize = max(1, min(256, math.ceil(n / 32)))
    chunks = [items[i : i + chunksize] for i in range(0, n, chunksize)]
    results: list[Any] = [None] * len(chunks)
    try:
        futures = {executor.submit(_run_chunk, fn, c): i for i, c in enumerate(chunks)}
        with Progress(n, desc, enabled=progress) as bar:
            for fut in cf.as_completed(futures):
                i = futures[fut]
                results[i] = fut.result()
                bar.update(len(chunks[i]))
    finally:
        if own is not None:
            own.shutdown()
    return [x for r in results for x in r]


# ------------------------------------------------------------------------- classification


_THREAD_DIMS = ("lane", "warp", "block")


def register_order_key(L: LinearLayout) -> tuple:
    """A key equal for two distributed layouts exactly when every thread holds the same *set* of
    elements in both (they differ only in register order or register broadcast): the span of the
    register bases in reduced echelon form, and each lane/warp/block basis reduced modulo that span.

        >>> a = LinearLayout({"register": [[1], [2]], "lane": [[4], [8]]}, {"dim0": 16})
        >>> b = LinearLayout({"register": [[2], [1]], "lane": [[4], [8]]}, {"dim0": 16})
        >>> a == b, register_order_key(a) == register_order_key(b)
        (False, True)
    """
    span = gf2.reduced_basis(L.flat_bases("register"))
    threads = tuple((d, L.in_dim_size(d) if L.has_in_dim(d) else 1, tuple(gf2.reduce_mod(v, span) for v in L.flat_bases(d))) for d in _THREAD_DIMS)
    return (tuple(L.out_dims.items()), tuple(span), threads)


def _stays_within(src: LinearLayout, dst: LinearLayout, local: Sequence[str]) -> bool:
    """Whether every element a unit (fixed values of the non-``local`` in-dims) holds in ``dst``
    it already holds in ``src``: the span of ``dst``'s local bases lies in ``src``'s, and each other
    basis differs between the two by an element of that span."""
    if src.out_dims != dst.out_dims:
        return False
    dims = ("register",) + _THREAD_DIMS
    for d in dims:
        sa = src.in_dim_size(d) if src.has_in_dim(d) else 1
        sb = dst.in_dim_size(d) if dst.has_in_dim(d) else 1
        if d not in local and sa != sb:
            return False
    span = gf2.reduced_basis([v for d in local for v in src.flat_bases(d)])
    if any(gf2.reduce_mod(v, span) for d in local for v in dst.flat_bases(d)):
        return False
    for d in dims:
        if d in local:
            continue
        for a, b in zip(src.flat_bases(d), dst.flat_bases(d)):
            if gf2.reduce_mod(a ^ b, span):
                return False
    return True


def is_register_only(src: LinearLayout, dst: LinearLayout) -> bool:
    """Whether converting from ``src`` to ``dst`` moves no data between threads: every element a
    thread holds in ``dst`` it already holds in ``src`` (a zero-cost register permutation/copy).

        >>> a = LinearLayout({"register": [[1], [2]], "lane": [[4], [8]]}, {"dim0": 16})
        >>> b = LinearLayout({"register": [[1]], "lane": [[4], [8]]}, {"dim0": 16}, require_surjective=False)
        >>> is_register_only(a, b), is_register_only(b, a)
        (True, False)
    """
    return _stays_within(src, dst, ("register",))


def conversion_mechanism(src: LinearLayout, dst: LinearLayout) -> str:
    """The cheapest mechanism that can convert ``src`` to ``dst`` by where data must travel:
    ``noop`` (equal), ``register`` (within each thread), ``warp_shuffle`` (within each warp),
    ``shared_memory`` (within the CTA) or ``cross_cta``.  A quick estimate that needs no planner;
    :func:`linlayout.plan.plan_conversion` gives the full plan.

        >>> a = LinearLayout({"register": [[1]], "lane": [[2], [4]], "warp": [[8]]}, {"dim0": 16})
        >>> b = LinearLayout({"register": [[1]], "lane": [[4], [2]], "warp": [[8]]}, {"dim0": 16})
        >>> c = LinearLayout({"register": [[1]], "lane": [[2], [8]], "warp": [[4]]}, {"dim0": 16})
        >>> conversion_mechanism(a, a), conversion_mechanism(a, b), conversion_mechanism(a, c)
        ('noop', 'warp_shuffle', 'shared_memory')
    """
    if src == dst:
        return "noop"
    if _stays_within(src, dst, ("register",)):
        return "register"
    if _stays_within(src, dst, ("register", "lane")):
        return "warp_shuffle"
    if _stays_within(src, dst, ("register", "lane", "warp")):
        return "shared_memory"
    return "cross_cta"


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
    invalid for the shape; ``errors[i]`` says why); ``classes`` are sorted largest first.
    ``up_to="identical"`` groups equal layouts, ``up_to="register_order"`` also groups layouts that
    differ only in register order (zero-cost conversions).

        >>> space = classify(blocked_spellings([4, 1], 1), [4, 1], executor="serial")
        >>> space.num_spellings, space.num_classes, space.histogram()
        (36, 12, {1: 9, 5: 1, 6: 1, 16: 1})
    """

    shape: list[int]
    spellings: list[Spelling]
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
    (``up_to="register_order"``) into classes.

        >>> sp = [{"kind": "BlockedLayout", "size_per_thread": [1], "threads_per_warp": [32], "warps_per_cta": [4], "order": [0]}] * 2
        >>> classify(sp, [128], executor="serial").class_sizes()
        [2]
    """
    if up_to not in ("identical", "register_order"):
        raise LayoutError(f"up_to must be 'identical' or 'register_order', got {up_to!r}")
    shape = _check_shape(shape)
    spellings = list(spellings)
    results = sweep(functools.partial(_safe_linear, shape=shape), spellings, executor=executor, progress=progress, desc="layouts")
    layouts: list[LinearLayout | None] = []
    errors: dict[int, str] = {}
    groups: dict[Any, list[int]] = {}
    for i, r in enumerate(results):
        if isinstance(r, str):
            errors[i] = r
            layouts.append(None)
            continue
        layouts.append(r)
        key = r if up_to == "identical" else register_order_key(r)
        groups.setdefault(key, []).append(i)
    classes = [LayoutClass(layouts[m[0]], m) for m in groups.values()]  # type: ignore[arg-type]
    classes.sort(key=lambda c: (-c.size, c.members[0]))
    return LayoutSpace(shape, spellings, layouts, errors, classes, up_to)


# ------------------------------------------------------------------------- graphs and costs


def _as_layout(x: Any, shape: Sequence[int] | None) -> LinearLayout:
    if isinstance(x, LinearLayout):
        return x
    if isinstance(x, Mapping) and "kind" in x:
        if shape is None:
            raise DimensionError("a spelling dict needs a shape")
        return spelling_to_linear(x, shape)
    to_linear = getattr(x, "to_linear", None)
    if to_linear is None:
        raise UnsupportedError(f"not a layout: {type(x).__name__}")
    return to_linear(list(shape)) if shape is not None else to_linear()


def _plan(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> Any:
    from linlayout.plan import plan_conversion

    return plan_conversion(src, dst, bitwidth=bitwidth)


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
                ok = bool(getattr(_plan(a, b, bitwidth), "is_zero_cost"))
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
    """A scalar cost of a conversion plan: its ``cost`` attribute when it has one, else by kind
    (noop/register 0, warp_shuffle 1, shared_memory 2, cross_cta 3).

        >>> class P: kind = "warp_shuffle"
        >>> plan_cost(P())
        1.0
    """
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


def _cost_pair(pair: tuple[LinearLayout, LinearLayout], bitwidth: int) -> tuple[float, str]:
    src, dst = pair
    try:
        p = _plan(src, dst, bitwidth)
    except ImportError:
        kind = conversion_mechanism(src, dst)
        return _KIND_COST[kind], kind
    except Exception as e:  # noqa: BLE001 - one failed plan must not sink a whole sweep
        return (math.nan, "error: " + (str(e).splitlines()[0][:40] if str(e) else type(e).__name__))
    return plan_cost(p), str(getattr(p, "kind", "?"))


def cost_matrix(
    layouts: Mapping[str, Any],
    shape: Sequence[int] | None = None,
    *,
    bitwidth: int = 16,
    executor: cf.Executor | str | None = None,
    progress: bool = False,
) -> CostMatrix:
    """Plan every conversion between the named layouts (spelling dicts, layout objects or linear
    layouts of one tensor ``shape``) with :func:`linlayout.plan.plan_conversion`.

        >>> a = LinearLayout({"register": [[1]], "lane": [[2]]}, {"dim0": 4})
        >>> m = cost_matrix({"a": a, "a2": a}, executor="serial")
        >>> m.costs.tolist()
        [[0.0, 0.0], [0.0, 0.0]]
    """
    import numpy as np

    names = list(layouts)
    lls = [_as_layout(layouts[n], shape) for n in names]
    pairs = [(a, b) for a in lls for b in lls]
    res = sweep(functools.partial(_cost_pair, bitwidth=bitwidth), pairs, executor=executor, progress=progress, desc="plans")
    n = len(names)
    costs = np.array([c for c, _ in res], dtype=float).reshape(n, n)
    kinds = [[res[i * n + j][1] for j in range(n)] for i in range(n)]
    return CostMatrix(names, costs, kinds)
