"""Time converters.cute's algebra against pycute in the same run and print the ratios.

    python benchmarks/bench_cute.py [--repeat N]

Target: at least 2x faster than pycute on composition, complement, logical_divide and
right_inverse (pycute measured elsewhere at about 17.7, 3.7, 11.7 and 9.1 us).  Needs pycute
(``pip install --no-deps nvidia-cutlass==4.2.0.0``) for the ratios; without it only our times print.
Layouts are built once outside the timed loop for both libraries; results are not cached.
"""

from __future__ import annotations

import argparse
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from converters.cute import Layout, complement, composition, logical_divide, right_inverse  # noqa: E402

CASES = [
    # operation, call, A (shape, stride), B (shape, stride) or None
    ("composition", "composition(A, B)", ((8, 2, 4), (16, 1, 64)), ((16, 8), (8, 1))),
    ("complement", "complement(A, 1024)", ((4, 8), (1, 32)), None),
    ("logical_divide", "logical_divide(A, B)", ((16, 4, 8), (4, 1, 64)), ((4, 2), (2, 1))),
    ("right_inverse", "right_inverse(A)", (((4, 8), (2, 4)), ((8, 1), (64, 32))), None),
]


def _best(fn, number: int, repeat: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--number", type=int, default=5000)
    args = ap.parse_args()
    try:
        import pycute
    except ImportError:
        pycute = None
    ours_fns = {
        "composition": composition,
        "complement": complement,
        "logical_divide": logical_divide,
        "right_inverse": right_inverse,
    }
    print(f"{'operation':<16}{'ours (us)':>12}{'pycute (us)':>14}{'speedup':>10}")
    worst = None
    for name, expr, a, b in CASES:
        A = Layout(*a)
        B = Layout(*b) if b else None
        f = ours_fns[name]
        if name == "complement":
            ours = lambda: f(A, 1024)  # noqa: E731
        elif B is None:
            ours = lambda: f(A)  # noqa: E731
        else:
            ours = lambda: f(A, B)  # noqa: E731
        t_ours = _best(ours, args.number, args.repeat)
        line = f"{name:<16}{t_ours:>12.2f}"
        if pycute is not None:
            PA = pycute.Layout(*a)
            PB = pycute.Layout(*b) if b else None
            pf = getattr(pycute, name)
            if name == "complement":
                theirs = lambda: pf(PA, 1024)  # noqa: E731
            elif PB is None:
                theirs = lambda: pf(PA)  # noqa: E731
            else:
                theirs = lambda: pf(PA, PB)  # noqa: E731
            # same function computed by both
            r, pr = ours(), theirs()
            assert Layout(pr.shape, pr.stride).same_function(r), (name, r, pr)
            t_theirs = _best(theirs, args.number, args.repeat)
            ratio = t_theirs / t_ours
            worst = ratio if worst is None else min(worst, ratio)
            line += f"{t_theirs:>14.2f}{ratio:>9.2f}x"
        print(line)
    if worst is not None:
        print(f"worst speedup {worst:.2f}x (target >= 2x): {'OK' if worst >= 2 else 'BELOW TARGET'}")


if __name__ == "__main__":
    main()
