"""MixedRadixLayout algebra (on the digits) against pycute, measured in the same run.

    python benchmarks/bench_general.py [--repeat N]

For non-power-of-two layouts of 2**10 to 2**20 elements (a 224-column tile of R rows, placed
through a 7 x 32 x R outer layout) prints our time and pycute's for composition, inverse
(pycute's ``right_inverse``) and complement, the ratio ours/pycute, and the growth exponent of our
time over the sizes (0 is flat); then the time of the equivalence check (``counterexample``) on two 2**20-element
non-power-of-two spellings of one layout and on a pair that differs.

Targets (issue 19): compose <= 1x pycute at every size up to 2**20, flat in N; equivalence of two
2**20-element non-power-of-two layouts < 1 ms.  Needs pycute (``pip install --no-deps
nvidia-cutlass==4.2.0.0``) for the ratios; without it only our times print.
"""

from __future__ import annotations

import argparse
import math
import sys
import timeit
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from linlayout.mixed_radix import MixedRadixLayout  # noqa: E402


#: A growth exponent at most this is "flat in N" (timing noise makes a measured 0 rare).
FLAT = 0.2


def best_us(fn, repeat: int) -> float:
    number = max(1, int(2e-3 / max(1e-7, min(timeit.repeat(fn, number=1, repeat=3)))))
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    try:
        import pycute
    except ImportError:
        pycute = None
        print("pycute is not installed: printing our timings only (pip install --no-deps nvidia-cutlass==4.2.0.0)")

    print(f"{'operation':<14}{'elements':>10}{'ours us':>10}{'pycute us':>11}{'ratio':>8}   compose <= 1x pycute met")
    growth: dict[str, tuple[list[int], list[float]]] = {}
    for log2 in range(10, 21, 2):
        rows = max(1, (1 << log2) // 224)
        n = 224 * rows
        # inner: (c, r) -> i = c + 224 r; outer: i = (7, 32, rows) digits -> m
        inner = MixedRadixLayout({"c": [(224, 1, "i")], "r": [(rows, 224, "i")]})
        outer = MixedRadixLayout({"i": [(7, 1, "m"), (32, 7, "m"), (rows, 224, "m")]})
        perm = MixedRadixLayout({"c": [(7, rows * 32, "m"), (32, rows, "m")], "r": [(rows, 1, "m")]})
        part = MixedRadixLayout({"x": [(7, 1, "m"), (rows, 224, "m")]}, out_dims={"m": n})
        ours = {
            "compose": lambda: inner.compose(outer),
            "inverse": lambda: perm.invert(),
            "complement": lambda: part.complement(),
        }
        ref = {}
        if pycute is not None:
            ci = pycute.Layout((224, rows), (1, 224))
            co = pycute.Layout((7, 32, rows), (1, 7, 224))
            cp = pycute.Layout(((7, 32), rows), ((rows * 32, rows), 1))
            cq = pycute.Layout((7, rows), (1, 224))
            ref = {
                "compose": lambda: pycute.composition(co, ci),
                "inverse": lambda: pycute.right_inverse(cp),
                "complement": lambda: pycute.complement(cq, n),
            }
        for op, fn in ours.items():
            us = best_us(fn, args.repeat)
            them = best_us(ref[op], args.repeat) if op in ref else float("nan")
            growth.setdefault(op, ([], []))
            growth[op][0].append(n)
            growth[op][1].append(us)
            verdict = ("yes" if us <= them else "NO") if op == "compose" and pycute is not None else ""
            print(f"{op:<14}{n:>10}{us:>10.2f}{them:>11.2f}{us / them:>8.2f}   {verdict}")
    for op, (ns, ts) in growth.items():
        slope = np.polyfit([math.log(x) for x in ns], [math.log(t) for t in ts], 1)[0]
        print(f"growth exponent of {op} over the sizes: {slope:.2f}" + (f" (target: flat, ~0: {'yes' if slope <= FLAT else 'NO'})" if op == "compose" else ""))

    a = MixedRadixLayout({"c": [(7, 1, "m"), (32, 7, "m")], "r": [(4683, 224, "m")]}, replicas=[(3, 1, "w"), (2, 3, "w")])
    b = MixedRadixLayout({"c": [(224, 1, "m")], "r": [(21, 224, "m"), (223, 224 * 21, "m")]}, replicas=[(2, 1, "w"), (3, 2, "w")])
    c = MixedRadixLayout({"c": [(224, 1, "m")], "r": [(21, 224, "m"), (223, 224 * 21 + 1, "m")]})
    assert a.is_equivalent(b) and not a.is_equivalent(c)
    for what, other in (("two {}-element non-power-of-two spellings (equal)", b), ("{} elements, different (with the counterexample)", c)):
        us = best_us(lambda other=other: a.counterexample(other), args.repeat)
        print(f"equivalent, {what.format(a.size)}: {us:.2f} us (target < 1000 us: {'yes' if us < 1000 else 'NO'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
