"""Gluon layout -> linear layout: converters.gluon against Triton's own builder, same run.

Run on demand:  python benchmarks/bench_gluon.py   (needs `pip install triton==3.9.0` for the reference)

Target (issue 3): our `to_linear` of a BlockedLayout on [128, 128] at most as slow as Triton's
`to_linear_layout` through its GluonOpBuilder (ratio ours/Triton <= 1).
"""

from __future__ import annotations

import statistics
import timeit

from converters import gluon

CASES = [
    ("BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])", [128, 128]),
    ("BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])", [128, 128]),
    ("SliceLayout(1, BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0]))", [128]),
    ("NVMMADistributedLayout([3, 0], [4, 1], [16, 128, 16])", [128, 128]),
    ("DotOperandLayout(0, NVMMADistributedLayout([2, 0], [4, 1], [16, 8]), 2)", [128, 64]),
    ("NVMMASharedLayout(128, 16)", [64, 64]),
]


KINDS = ("BlockedLayout", "SliceLayout", "NVMMADistributedLayout", "DotOperandLayout", "NVMMASharedLayout")

IN_DIMS = (("reg", "register"), ("lane", "lane"), ("warp", "warp"), ("block", "block"), ("offset", "offset"))


def median_us(fn, number: int = 1000, repeat: int = 7) -> float:
    return statistics.median(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def main() -> int:
    try:
        from triton._C.libtriton import gluon_ir, ir
        import triton.experimental.gluon.language as gl
    except ImportError:
        gl = None
        print("triton is not installed: printing our timings only")
    if gl is not None:
        ctx = ir.context()
        ir.load_dialects(ctx)
        builder = gluon_ir.GluonOpBuilder(ctx)
    print(f"{'layout':<66}{'ours (us)':>10}{'triton (us)':>13}{'ratio':>8}   target <= 1")
    for text, shape in CASES:
        ours = gluon.parse(text)
        us = median_us(lambda: ours.to_linear(shape))
        if gl is None:
            print(f"{text:<66}{us:>10.1f}")
            continue
        theirs = eval(text, {k: getattr(gl, k) for k in KINDS})  # our own fixed texts
        check = builder.to_linear_layout(theirs._to_ir(builder), shape)
        mine = ours.to_linear(shape).bases
        assert all(tuple(map(tuple, getattr(check, f"{a}_bases"))) == mine[k] for a, k in IN_DIMS if k in mine), text
        them = median_us(lambda: builder.to_linear_layout(theirs._to_ir(builder), shape))
        print(f"{text:<66}{us:>10.1f}{them:>13.1f}{us / them:>8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
