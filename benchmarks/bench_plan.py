"""Conversion planning and equivalence speed, measured in one run.

Run on demand:  python benchmarks/bench_plan.py

Targets (issue 7): planning a 128x128 pair takes under 1 ms (median); deciding equivalence of two
64x64 linear layouts is at least 100x faster than enumerating their points.  The enumeration
reference is measured in the same run two ways: calling ``apply`` once per point (what a
point-by-point checker does) and comparing the two full numpy tables (a vectorised checker).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an installed copy

import statistics
import timeit

from linlayout import LinearLayout
from linlayout.equiv import equivalent
from linlayout.plan import plan_conversion


def median_us(fn, number: int, repeat: int = 7) -> float:
    runs = timeit.repeat(fn, number=number, repeat=repeat)
    return statistics.median(runs) / number * 1e6


def blocked(spt, tpw, wpc, order, shape):
    """A 2-D BlockedLayout built as Triton does (identity in ``order``, fitted to ``shape``)."""
    bases = {"register": [], "lane": [], "warp": []}
    covered = [1, 1]
    for hw, sizes in (("register", spt), ("lane", tpw), ("warp", wpc)):
        for d in order:
            k = 1
            while k < sizes[d]:
                v = [0, 0]
                v[d] = covered[d] * k
                bases[hw].append(v)
                k *= 2
            covered[d] *= sizes[d]
    for d in order:
        while covered[d] < shape[d]:
            v = [0, 0]
            v[d] = covered[d]
            bases["register"].append(v)
            covered[d] *= 2
    return LinearLayout(bases, {"dim0": shape[0], "dim1": shape[1]})


def main() -> None:
    rows = blocked([1, 4], [1, 32], [4, 1], [1, 0], [128, 128])
    cols = blocked([4, 1], [32, 1], [1, 4], [0, 1], [128, 128])
    mma = blocked([2, 2], [8, 4], [4, 1], [1, 0], [128, 128])
    print("planning 128x128 conversions (median per plan):")
    for name, (a, b, bits) in {
        "row->column fp16 (shared memory)": (rows, cols, 16),
        "row->column fp32 (shared memory)": (rows, cols, 32),
        "row->mma-like fp16": (rows, mma, 16),
        "register reorder": (rows, LinearLayout(dict(rows.bases, register=[list(v) for v in rows.bases["register"]][::-1]), rows.out_dims), 16),
    }.items():
        t = median_us(lambda: plan_conversion(a, b, bitwidth=bits), number=50)
        print(f"  {name:36s} {t:8.1f} us   ratio to the 1 ms target: {t / 1000:.3f}  (target < 1)")

    a = blocked([2, 2], [4, 8], [4, 1], [1, 0], [64, 64])
    b = LinearLayout(dict(a.bases, register=[list(v) for v in a.bases["register"]][::-1]), a.out_dims)
    c = blocked([2, 2], [4, 8], [4, 1], [0, 1], [64, 64])
    n = a.total_in_size

    def enumerate_points(x, y):
        """Evaluate both layouts at every point (no early exit: equality needs every point)."""
        names = x.in_dim_names
        sizes = [x.in_dim_size(m) for m in names]
        same = True
        for k in range(n):
            point, rest = {}, k
            for m, s in zip(names, sizes):
                point[m] = rest % s
                rest //= s
            same &= x.apply(point) == y.apply(point)
        return same

    def tables(x, y):
        return bool((x.table() == y.table()).all())

    print(f"equivalence of two 64x64 layouts ({n} points each):")
    for name, (x, y) in {"identical": (a, LinearLayout(a.bases, a.out_dims)), "register order": (a, b), "different": (a, c)}.items():
        ours = median_us(lambda: equivalent(x, y), number=200)
        per_point = median_us(lambda: enumerate_points(x, y), number=1, repeat=3)
        vect = median_us(lambda: tables(x, y), number=50)
        print(
            f"  {name:15s} ours {ours:8.1f} us | apply per point {per_point:10.1f} us -> {per_point / ours:8.0f}x"
            f" | numpy tables {vect:8.1f} us -> {vect / ours:6.1f}x   (target >= 100x vs enumeration)"
        )


if __name__ == "__main__":
    main()
