"""Core LinearLayout operations against Triton's C++ LinearLayout (Python binding), same run.

Run on demand:  python benchmarks/bench_core.py   (needs `pip install triton` for the reference)

Targets (issue 2): apply, compose, invert, invert_and_compose each at most as slow as Triton's
binding (ratio ours/triton <= 1); table() of an 8192-point layout at least 50x faster than calling
Triton's apply once per point; `import linlayout` adds at most 0.25 s.
Targets (issue 19): the first apply on a fresh layout at most 2x Triton's apply (Triton builds
nothing lazily, so its every call is a first call); == of two equal layouts at most 1x Triton's.
"""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an installed copy

from linlayout import LinearLayout  # noqa: E402


def best_us(fn, number: int, repeat: int = 7) -> float:
    """Median over ``repeat`` runs of the mean time of ``number`` calls, in microseconds."""
    runs = timeit.repeat(fn, number=number, repeat=repeat)
    return statistics.median(runs) / number * 1e6


def cases():
    """Register layouts of a 128x64 tile with 4 warps: a blocked-like and an MMA-like spelling."""
    blocked = LinearLayout(
        {
            "register": [[0, 1], [0, 2], [0, 4], [8, 0], [16, 0], [32, 0]],
            "lane": [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]],
            "warp": [[4, 0], [64, 0]],
        },
        {"dim0": 128, "dim1": 64},
    )
    mma = LinearLayout(
        {
            "register": [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [64, 0]],
            "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
            "warp": [[16, 0], [32, 0]],
        },
        {"dim0": 128, "dim1": 64},
    )
    return blocked, mma


def to_triton(tl, layout):
    return tl.LinearLayout.from_bases(
        [(n, [list(v) for v in vs]) for n, vs in layout.bases.items()],
        list(layout.out_dims),
        list(layout.out_dims.values()),
        True,
    )


def first_call_us(objects, fn, repeat: int = 7) -> float:
    """Median over ``repeat`` rounds of the mean time of ``fn(obj)`` once on each fresh object
    (``objects()`` builds a new list each round); the garbage collector is off, as in timeit."""
    runs = []
    for _ in range(repeat):
        objs = objects()
        gc.disable()
        try:
            t0 = time.perf_counter()
            for o in objs:
                fn(o)
            runs.append((time.perf_counter() - t0) / len(objs) * 1e6)
        finally:
            gc.enable()
    return statistics.median(runs)


def met(ratio: float, target: str) -> str:
    """'yes' / 'NO' for a target such as '<= 1' or '<= 1/50'; '' without one (or without Triton)."""
    if not target.startswith("<=") or ratio != ratio:
        return ""
    num, _, den = target[2:].strip().partition("/")
    return "yes" if ratio <= float(num) / float(den or 1) else "NO"


def import_seconds(module: str) -> float:
    code = f"import time; t=time.perf_counter(); import {module}; print(time.perf_counter()-t)"
    times = [float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(5)]
    return statistics.median(times)


def main() -> int:
    try:
        import triton._C.libtriton.linear_layout as tl
    except ImportError:
        tl = None
        print("triton is not installed: printing our timings only (pip install triton for ratios)")
    a, b = cases()
    inputs = {"register": 37, "lane": 21, "warp": 3}
    a_inv = a.invert()
    rows = []
    ours = {
        "apply": (lambda: a.apply(inputs), 20000),
        "compose": (lambda: a.compose(a_inv), 2000),
        "invert": (lambda: a.invert(), 2000),
        "invert_and_compose": (lambda: a.invert_and_compose(b), 2000),
    }
    ref = {}
    if tl is not None:
        ta, tb = to_triton(tl, a), to_triton(tl, b)
        ta_inv = ta.invert()
        ref = {
            "apply": lambda: ta.apply(inputs),
            "compose": lambda: ta.compose(ta_inv),
            "invert": lambda: ta.invert(),
            "invert_and_compose": lambda: ta.invert_and_compose(tb),
        }
    print(f"{'operation':<38}{'ours (us)':>12}{'triton (us)':>14}{'ratio ours/triton':>20}   {'target':<12}met")
    for name, (fn, number) in ours.items():
        us = best_us(fn, number)
        if name in ref:
            them = best_us(ref[name], number)
            rows.append((name, us, them, us / them, "<= 1"))
        else:
            rows.append((name, us, float("nan"), float("nan"), "<= 1"))

    # table(): 8192 points, vs Triton's apply called once per point.
    big = LinearLayout(
        {"register": [[0, 1], [0, 2], [0, 4], [8, 0], [16, 0]], "lane": [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], "warp": [[4, 0], [32, 0], [64, 0]]},
        {"dim0": 128, "dim1": 64},
    )
    us = best_us(big.table, 50)
    if tl is not None:
        tbig = to_triton(tl, big)
        names = list(big.in_dims)
        sizes = [big.in_dim_size_log2(n) for n in names]
        points = []
        for flat in range(big.total_in_size):
            d, sh = {}, 0
            for n, k in zip(names, sizes):
                d[n] = (flat >> sh) & ((1 << k) - 1)
                sh += k
            points.append(d)
        them = best_us(lambda: [tbig.apply(p) for p in points], 1, repeat=5)
        rows.append(("table() 8192 points vs per-point apply", us, them, us / them, "<= 1/50"))
    else:
        rows.append(("table() 8192 points", us, float("nan"), float("nan"), "<= 1/50"))
    # first apply on a fresh layout (our lookup tables are built lazily, on later calls) and ==
    fresh = lambda: [LinearLayout._make_raw(a._ins, a._outs) for _ in range(2000)]  # noqa: E731
    us = first_call_us(fresh, lambda L: L.apply(inputs))
    a2 = LinearLayout(a.bases, a.out_dims)
    eq = best_us(lambda: a == a2, 20000)
    pairs = lambda: [(LinearLayout(a.bases, a.out_dims), LinearLayout(a.bases, a.out_dims)) for _ in range(2000)]  # noqa: E731
    eq_first = first_call_us(pairs, lambda p: p[0] == p[1])
    if tl is not None:
        tfresh = [to_triton(tl, a) for _ in range(2000)]
        them = first_call_us(lambda: tfresh, lambda L: L.apply(inputs))
        rows.append(("apply, first call on a fresh layout", us, them, us / them, "<= 2"))
        ta2 = to_triton(tl, a)
        them_eq = best_us(lambda: ta == ta2, 20000)
        rows.append(("== (equal layouts)", eq, them_eq, eq / them_eq, "<= 1"))
        tpairs = [(to_triton(tl, a), to_triton(tl, a)) for _ in range(2000)]
        them_first = first_call_us(lambda: tpairs, lambda p: p[0] == p[1])
        rows.append(("== (first, fresh equal pair)", eq_first, them_first, eq_first / them_first, "(no target)"))
    else:
        rows += [("apply, first call on a fresh layout", us, float("nan"), float("nan"), "<= 2"),
                 ("== (equal layouts)", eq, float("nan"), float("nan"), "<= 1"),
                 ("== (first, fresh equal pair)", eq_first, float("nan"), float("nan"), "(no target)")]
    for name, us, them, ratio, target in rows:
        print(f"{name:<38}{us:>12.3f}{them:>14.3f}{ratio:>20.3f}   {target:<12}{met(ratio, target)}")

    base = import_seconds("numpy")
    ours_import = import_seconds("linlayout")
    galois = import_seconds("galois")
    print(f"\nimport linlayout: {ours_import:.3f} s ({ours_import - base:+.3f} s over numpy alone; target: adds at most 0.25 s: "
          f"{'yes' if ours_import - base <= 0.25 else 'NO'})")
    print(f"import galois (for scale): {galois:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
