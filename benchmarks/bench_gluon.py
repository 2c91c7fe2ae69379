"""Gluon layout -> linear layout: converters.gluon against Triton's own builder, same run.

Run on demand:  python benchmarks/bench_gluon.py [--timer cpu|wall] [--root PATH]
                (needs `pip install triton==3.9.0` for the reference)

Target (issue 3): our `to_linear` of a BlockedLayout on [128, 128] at most as slow as Triton's
`to_linear_layout` through its GluonOpBuilder (ratio ours/Triton <= 1).  Target (issue 19):
tensor memory's cold `to_linear` at most as slow as Triton's cached call (cold/warm <= 1).

Triton caches linear layouts per (shape, attribute) in its MLIR context, so a repeated call is a
cache lookup plus the Python wrapping of the answer; the first call in a context computes it.
So does `converters.gluon` (`cached_to_linear`).  Two comparisons, both with target <= 1:

* cold: our computation (every cache emptied first) against Triton's first call in a fresh context;
* warm: our cached call against Triton's repeated call.

The last column compares our cold computation with Triton's warm call, the issue's measurement.

Times are the median over repeats of this process's CPU time (``--timer cpu``, the default: on a
shared machine, time spent descheduled would otherwise land on whichever side it hit) or of wall
time (``--timer wall``); both sides are measured with the same clock.  ``--root PATH`` measures
another checkout of this repository (say, the commit before a change) with this same harness.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES = [
    ("BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])", [128, 128]),
    ("BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])", [128, 128]),
    ("SliceLayout(1, BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0]))", [128]),
    ("NVMMADistributedLayout([3, 0], [4, 1], [16, 128, 16])", [128, 128]),
    ("DotOperandLayout(0, NVMMADistributedLayout([2, 0], [4, 1], [16, 8]), 2)", [128, 64]),
    ("NVMMASharedLayout(128, 16)", [64, 64]),
    ("TensorMemoryLayout([128, 64], 1)", [128, 128]),
    ("TensorMemoryLayout([64, 64], 2)", [128, 256]),
    ("TensorMemoryLayout([128, 64], 1, cga_layout=[[0, 1]])", [128, 128]),
]


KINDS = ("BlockedLayout", "SliceLayout", "NVMMADistributedLayout", "DotOperandLayout", "NVMMASharedLayout")

IN_DIMS = (("reg", "register"), ("lane", "lane"), ("warp", "warp"), ("block", "block"), ("offset", "offset"))


def same_as_triton(check, mine) -> bool:
    """Triton's answer (a LinearLayout, or a tensor-memory layout's rows/cols) equals ours."""
    if hasattr(check, "rows"):  # Triton's _TensorMemoryLinearLayout: rows, cols (one CTA)
        bases = mine.bases
        return [list(b) for b in bases["row"]] == check.rows and [list(b) for b in bases["col"]] == check.cols
    return all(tuple(map(tuple, getattr(check, f"{a}_bases"))) == mine.bases[k] for a, k in IN_DIMS if k in mine.bases)


TIMER = time.process_time


def median_us(fn, number: int = 1000, repeat: int = 7) -> float:
    return statistics.median(timeit.repeat(fn, number=number, repeat=repeat, timer=TIMER)) / number * 1e6


def triton_cold_us(ir, gluon_ir, theirs, shape, samples: int = 25) -> float:
    """Triton's first call in a fresh context (setup untimed), median over ``samples`` contexts."""
    times = []
    for _ in range(samples):
        ctx = ir.context()
        ir.load_dialects(ctx)
        builder = gluon_ir.GluonOpBuilder(ctx)
        t0 = TIMER()
        builder.to_linear_layout(theirs._to_ir(builder), shape)
        times.append(TIMER() - t0)
    return statistics.median(times) * 1e6


def main() -> int:
    global TIMER
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timer", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--root", default=str(ROOT), help="the checkout to measure (default: this one)")
    args = ap.parse_args()
    TIMER = time.process_time if args.timer == "cpu" else time.perf_counter
    sys.path.insert(0, args.root)  # that checkout, not an installed copy
    from converters import gluon
    from converters.gluon.base import clear_to_linear_caches

    print(f"{args.root} ({args.timer} time)")
    try:
        from triton._C.libtriton import gluon_ir, ir
        import triton.experimental.gluon.language as gl
        from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryLayout
    except ImportError:
        gl = None
        print("triton is not installed: printing our timings only")
    if gl is not None:
        ctx = ir.context()
        ir.load_dialects(ctx)
        builder = gluon_ir.GluonOpBuilder(ctx)
    head = f"{'layout':<66}{'ours cold':>10}{'ours warm':>10}"
    print(head + (f"{'tri cold':>10}{'tri warm':>10}{'cold/cold':>10}{'warm/warm':>10}{'cold/warm':>10}" if gl else ""))
    print(f"{'':<66}{'(us)':>10}{'(us)':>10}" + (f"{'(us)':>10}{'(us)':>10}{'<= 1':>10}{'<= 1':>10}{'issue 3':>10}" if gl else ""))
    for text, shape in CASES:
        ours = gluon.parse(text)
        cold = median_us(lambda: (clear_to_linear_caches(), ours.to_linear(shape)))  # nothing remembered
        warm = median_us(lambda: ours.to_linear(shape))
        if gl is None:
            print(f"{text:<66}{cold:>10.1f}{warm:>10.1f}")
            continue
        theirs = eval(text, {**{k: getattr(gl, k) for k in KINDS}, "TensorMemoryLayout": TensorMemoryLayout})  # our own fixed texts
        check = builder.to_linear_layout(theirs._to_ir(builder), shape)
        if "cga_layout" not in text:  # Triton reports one CTA's rows/cols of a tensor-memory layout
            assert same_as_triton(check, ours.to_linear(shape)), text
        t_warm = median_us(lambda: builder.to_linear_layout(theirs._to_ir(builder), shape))
        t_cold = triton_cold_us(ir, gluon_ir, theirs, shape)
        print(f"{text:<66}{cold:>10.1f}{warm:>10.1f}{t_cold:>10.1f}{t_warm:>10.1f}"
              f"{cold / t_cold:>10.2f}{warm / t_warm:>10.2f}{cold / t_warm:>10.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
