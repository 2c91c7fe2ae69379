"""linlayout.simulate on 128x128 conversions, against planning the same conversion, same run.

Run on demand:  python benchmarks/bench_simulate.py

Target (issue 16): a 128x128 plan simulates in well under a second; here also reported as the
ratio simulate / plan_conversion of the same pair (planning is the reference measured alongside).
"""

from __future__ import annotations

import statistics
import timeit

from converters import gluon
from linlayout.plan import plan_conversion
from linlayout.simulate import simulate

PAIRS = [
    ("row -> column (transpose)", "BlockedLayout([1,1],[1,32],[1,4],[1,0])", "BlockedLayout([1,1],[32,1],[4,1],[0,1])"),
    ("mma v2 -> blocked", "NVMMADistributedLayout(version=[2,0], warps_per_cta=[2,2], instr_shape=[16,8])",
     "BlockedLayout([1,8],[4,8],[4,1],[1,0])"),
    ("blocked 1x4 -> 4x1 per thread", "BlockedLayout([1,4],[4,8],[4,1],[1,0])", "BlockedLayout([4,1],[4,8],[4,1],[1,0])"),
]


def median_ms(fn, number: int = 5, repeat: int = 5) -> float:
    return statistics.median(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e3


def main() -> None:
    print(f"{'conversion (128x128)':34} {'bits':>4} {'kind':>14} {'plan ms':>8} {'simulate ms':>11} {'ratio':>6}")
    for name, s, d in PAIRS:
        a = gluon.parse(s).to_linear([128, 128])
        b = gluon.parse(d).to_linear([128, 128])
        for bits in (16, 32):
            p = plan_conversion(a, b, bitwidth=bits)
            assert simulate(p).ok
            t_plan = median_ms(lambda: plan_conversion(a, b, bitwidth=bits))
            t_sim = median_ms(lambda: simulate(p))
            print(f"{name:34} {bits:>4} {p.kind:>14} {t_plan:8.2f} {t_sim:11.2f} {t_sim / t_plan:6.1f}")


if __name__ == "__main__":
    main()
