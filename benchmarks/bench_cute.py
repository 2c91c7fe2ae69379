"""Time converters.cute's algebra against pycute in the same run and print the ratios.

    python benchmarks/bench_cute.py [--repeat N] [--number N]

Target: ours/pycute <= 0.5 (at least 2x faster) on composition, complement, logical_divide,
logical_product, right_inverse and left_inverse.  Needs pycute
(``pip install --no-deps nvidia-cutlass==4.2.0.0``) for the ratios; without it only our times
print.  Layouts are built once outside the timed loop for both libraries; results are not cached; the
two libraries are timed alternately, repeat by repeat, so that load on a shared machine hits both.
Each pair of answers is checked to be the same function before timing (the cases are ones where
pycute and CuTe C++ agree; for left_inverse, both are checked to be left inverses).
"""

from __future__ import annotations

import argparse
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from converters.cute import Layout, algebra  # noqa: E402

CASES = [
    # operation, A (shape, stride), second argument: (shape, stride), an int, or None
    ("composition", ((8, 2, 4), (16, 1, 64)), ((16, 8), (8, 1))),
    ("complement", ((4, 8), (1, 32)), 1024),
    ("logical_divide", ((16, 4, 8), (4, 1, 64)), ((4, 2), (2, 1))),
    ("logical_product", ((2, 2), (2, 1)), ((3, 4), (4, 1))),
    ("right_inverse", (((4, 8), (2, 4)), ((8, 1), (64, 32))), None),
    ("left_inverse", (((4, 8), (2, 4)), ((8, 1), (32, 64))), None),
]


def _best(fn, number: int, repeat: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def _best_pair(f, g, number: int, repeat: int) -> tuple[float, float]:
    """Best times of ``f`` and ``g``, measured alternately so that a load change on a shared
    machine hits both alike."""
    tf, tg = [], []
    for _ in range(repeat):
        tf.append(timeit.timeit(f, number=number))
        tg.append(timeit.timeit(g, number=number))
    return min(tf) / number * 1e6, min(tg) / number * 1e6


def _call(f, a, b):
    if b is None:
        return lambda: f(a)
    return lambda: f(a, b)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--number", type=int, default=5000)
    args = ap.parse_args()
    try:
        import pycute
    except ImportError:
        pycute = None
    print(f"{'operation':<16}{'ours (us)':>12}{'pycute (us)':>14}{'ours/pycute':>13}")
    worst = None
    for name, a, b in CASES:
        A = Layout(*a)
        B = Layout(*b) if isinstance(b, tuple) else b
        ours = _call(getattr(algebra, name), A, B)
        if pycute is None:
            print(f"{name:<16}{_best(ours, args.number, args.repeat):>12.2f}")
        else:
            PA = pycute.Layout(*a)
            PB = pycute.Layout(*b) if isinstance(b, tuple) else b
            theirs = _call(getattr(pycute, name), PA, PB)
            r, pr = ours(), theirs()
            if name == "left_inverse":  # both must be left inverses (they may differ off the image)
                assert all(r(A(i)) == i == pr(PA(i)) for i in range(A.size())), (name, r, pr)
            else:
                assert Layout(pr.shape, pr.stride).same_function(r), (name, r, pr)
            t_ours, t_theirs = _best_pair(ours, theirs, args.number, args.repeat)
            ratio = t_ours / t_theirs
            worst = ratio if worst is None else max(worst, ratio)
            print(f"{name:<16}{t_ours:>12.2f}{t_theirs:>14.2f}{ratio:>13.2f}")
    if worst is not None:
        print(f"worst ratio ours/pycute {worst:.2f} (target <= 0.5): {'OK' if worst <= 0.5 else 'ABOVE TARGET'}")


if __name__ == "__main__":
    main()
