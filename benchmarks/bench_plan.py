"""Conversion planning and equivalence speed, measured in one run.

Run on demand:  python benchmarks/bench_plan.py [--matrix N ...] [--repeat R]

Targets (issue 7): planning a 128x128 pair takes under 1 ms (median); deciding equivalence of two
64x64 linear layouts is at least 100x faster than enumerating their points.  The enumeration
reference is measured in the same run two ways: calling ``apply`` once per point (what a
point-by-point checker does) and comparing the two full numpy tables (a vectorised checker).

Targets (issue 19): ``plan_conversion`` (``strategy="best"``, every mechanism priced) of a 128x128
pair <= 100 us median, per kind of pair (blocked <-> blocked transposed, blocked <-> MMA, MMA <->
dot operand, tensor-memory register layout -> blocked, a register permutation), printed warm (the
planner remembers per-layout facts; nothing of a pair is remembered, so every call plans the pair
from scratch: what a cost matrix pays per entry; also with the cyclic garbage collector on, which
``timeit`` turns off: garbage a plan leaves in reference cycles is then paid for) and cold (``linlayout.plan.clear_caches()`` before
each plan, the layouts' own cached rank kept), each with its ratio to Triton's
``invert_and_compose`` of the same pair through its C++ binding (the map a plan is built on;
needs ``pip install triton==3.9.0``); the growth exponent of the planning time over the tensor
size (blocked -> transposed at 32x32 .. 256x256); a cost matrix of 128 distinct layouts (class
representatives of the 128x128 4-warp BlockedLayout space) < 2 s, serial and on the default
executor, with the growth exponent of its time over the matrix sizes (2 = per-pair cost constant),
and its ratio to the same matrix planned pair by pair (``plan_conversion`` + ``plan_cost``: what
``cost_matrix`` did before :func:`linlayout.plan.conversion_costs`, which prices the pairs without
building plans).
Timings are medians of repeats (``--repeat``) of this process's CPU time (``time.process_time``, so
that other load on a shared machine does not inflate them), except where a line says min or wall.

Speed work on the planner must leave every plan identical: ``benchmarks/check_plans.py --save`` on
the commit before, ``--compare`` after (both corpora and 3000 generated pairs, both strategies).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an installed copy

import argparse
import gc
import math
import statistics
import time
import timeit

from linlayout import LinearLayout  # noqa: E402
from linlayout.equiv import equivalent  # noqa: E402
from linlayout.plan import clear_caches, plan_conversion  # noqa: E402


def median_us(fn, number: int, repeat: int = 7, gc_on: bool = False) -> float:
    """Median over ``repeat`` runs of the CPU time of one call (``time.process_time``: this
    process's own work, so that other load on a shared machine does not count).  ``timeit``
    turns the cyclic garbage collector off while it times; ``gc_on`` keeps it on, as in a
    user's process (garbage in reference cycles is then collected, and paid for, in the run)."""
    repeat = max(repeat, 3)
    runs = timeit.Timer(fn, setup="gc.enable()" if gc_on else "pass", timer=time.process_time,
                        globals={"gc": gc}).repeat(number=number, repeat=repeat)
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


def to_triton(tl, layout):
    return tl.LinearLayout.from_bases(
        [(n, [list(v) for v in vs]) for n, vs in layout.bases.items()], list(layout.out_dims), list(layout.out_dims.values()), True
    )


def growth_exponent(sizes, times) -> float:
    """Least-squares slope of log(time) over log(size)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(t) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def pair_kinds(shape=(128, 128)) -> dict:
    """The kinds of 128x128 pairs the planning figures are given for: name -> (src, dst, bits)."""
    from converters.gluon import TensorMemoryLayout, from_dict
    from converters.gluon.tmem import tmem_reg_layout

    shape = list(shape)
    rows = blocked([1, 4], [1, 32], [4, 1], [1, 0], shape)
    cols = blocked([4, 1], [32, 1], [1, 4], [0, 1], shape)
    mma2 = {"kind": "NVMMADistributedLayout", "version": [2, 0], "warps_per_cta": [4, 1], "instr_shape": [16, 8]}
    mma3 = {"kind": "NVMMADistributedLayout", "version": [3, 0], "warps_per_cta": [4, 1], "instr_shape": [16, 128, 16]}
    dot_a = {"kind": "DotOperandLayout", "operand_index": 0, "parent": mma2, "k_width": 2}
    dot_b = {"kind": "DotOperandLayout", "operand_index": 1, "parent": mma2, "k_width": 2}
    g = {k: from_dict(v).to_linear(shape) for k, v in {"mma2": mma2, "mma3": mma3, "dot_a": dot_a, "dot_b": dot_b}.items()}
    tmem = tmem_reg_layout(TensorMemoryLayout(shape, 1), shape, element_bitwidth=16).to_linear(shape)
    reorder = LinearLayout(dict(rows.bases, register=[list(v) for v in rows.bases["register"]][::-1]), rows.out_dims)
    return {
        "blocked->transposed fp16": (rows, cols, 16),
        "blocked->transposed fp32": (rows, cols, 32),
        "blocked->mma v2 fp16": (rows, g["mma2"], 16),
        "mma v3->blocked fp16": (g["mma3"], rows, 16),
        "mma v2->dot operand A fp16": (g["mma2"], g["dot_a"], 16),
        "dot operand B->mma v2 fp16": (g["dot_b"], g["mma2"], 16),
        "tmem 32x32b->blocked fp16": (tmem, rows, 16),
        "register reorder fp16": (rows, reorder, 16),
    }


def bench_pairs(tl, repeat: int) -> None:
    print("planning 128x128 conversions (strategy='best'; median us per plan; Triton: its invert_and_compose of the same pair):")
    for name, (a, b, bits) in pair_kinds().items():
        kind = plan_conversion(a, b, bitwidth=bits).kind
        warm = median_us(lambda: plan_conversion(a, b, bitwidth=bits), number=50, repeat=repeat)
        warm_gc = median_us(lambda: plan_conversion(a, b, bitwidth=bits), number=50, repeat=repeat, gc_on=True)
        cold = median_us(lambda: (clear_caches(), plan_conversion(a, b, bitwidth=bits)), number=50, repeat=repeat)
        line = f"  {name:27s} {kind:13s} warm {warm:7.1f} us (gc on {warm_gc:7.1f})  cold {cold:7.1f} us  (target <= 100)"
        if tl is not None:
            ta, tb = to_triton(tl, a), to_triton(tl, b)
            ref = median_us(lambda: tb.invert_and_compose(ta), number=200, repeat=repeat)
            line += f" | Triton invert_and_compose {ref:5.1f} us -> warm {warm / ref:5.1f}x, cold {cold / ref:5.1f}x"
        print(line)
    sizes, times = [], []
    for n in (32, 64, 128, 256):
        rows = blocked([1, 1], [1, 32], [4, 1], [1, 0], [n, n])
        cols = blocked([1, 1], [32, 1], [1, 4], [0, 1], [n, n])
        sizes.append(n * n)
        times.append(median_us(lambda: plan_conversion(rows, cols, bitwidth=16), number=20, repeat=repeat))
    per = ", ".join(f"{int(math.sqrt(s))}x{int(math.sqrt(s))} {t:.0f} us" for s, t in zip(sizes, times))
    print(f"  blocked->transposed fp16 (one element per thread and tile) over sizes (warm): {per}; growth exponent over elements "
          f"{growth_exponent(sizes, times):.2f}")


def cost_matrix_layouts(n: int) -> dict:
    """``n`` distinct layouts: class representatives of the 128x128 4-warp BlockedLayout space,
    spread over its classes."""
    from linlayout.app import space

    s = space.classify(space.blocked_space([128, 128], 4), [128, 128], executor="serial")
    step = max(1, len(s.classes) // n)
    return {f"L{k}": c.layout for k, c in enumerate(s.classes[::step][:n])}


def bench_cost_matrix(sizes, repeat: int) -> None:
    from linlayout.app import space

    layouts = cost_matrix_layouts(max(sizes))
    print("cost matrices of distinct 128x128 layouts (fp16; caches cleared before each; serial: CPU time, median and min over"
          " runs; executor: wall clock of one run):")
    serial = []
    for n in sizes:
        names = list(layouts)[:n]
        runs = []
        for _ in range(repeat):
            clear_caches()
            t0 = time.process_time()
            space.cost_matrix({k: layouts[k] for k in names}, executor="serial")
            runs.append(time.process_time() - t0)
        clear_caches()
        t0 = time.perf_counter()
        space.cost_matrix({k: layouts[k] for k in names})
        best_d = time.perf_counter() - t0
        med = statistics.median(runs)
        serial.append(med)
        print(f"  {n:4d} layouts ({n * n:6d} plans): serial median {med:7.2f} s ({med / (n * n) * 1e6:6.1f} us/plan), "
              f"min {min(runs):7.2f} s; default executor {best_d:7.2f} s   (target < 2 s at 128)")
    if len(sizes) > 1:
        print(f"  growth exponent of the serial time over the layout count: {growth_exponent(sizes, serial):.2f}")
    # the reference: the same matrix plan by plan (every plan_conversion built, then priced), one run
    from linlayout.cost import plan_cost

    lls = [layouts[k] for k in list(layouts)[:sizes[-1]]]
    clear_caches()
    t0 = time.process_time()
    for a in lls:
        for b in lls:
            plan_cost(plan_conversion(a, b, bitwidth=16))
    ref = time.process_time() - t0
    print(f"  reference, {sizes[-1]} layouts plan by plan (plan_conversion + plan_cost per pair, one run): {ref:7.2f} s "
          f"({ref / len(lls) ** 2 * 1e6:6.1f} us/plan) -> cost_matrix {serial[-1] / ref:4.2f}x of it")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matrix", type=int, nargs="*", default=[32, 64, 128], help="cost-matrix sizes (none: skip)")
    ap.add_argument("--repeat", type=int, default=5, help="repeats of every timing (the median is printed)")
    ap.add_argument("--matrix-repeat", type=int, default=3, help="serial runs of every cost matrix")
    args = ap.parse_args()
    try:
        from triton._C.libtriton import linear_layout as tl
    except ImportError:
        tl = None
        print("triton is not installed: no reference ratios (pip install triton==3.9.0)")
    bench_pairs(tl, args.repeat)

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
    if args.matrix:
        bench_cost_matrix(sorted(args.matrix), args.matrix_repeat)


if __name__ == "__main__":
    main()
