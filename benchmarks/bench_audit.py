"""Auditing a real kernel's IR: time for the largest kernel of the Triton 3.9 IR corpus.

Run on demand:  python benchmarks/bench_audit.py

Target (issue 15): auditing the largest kernel's IR takes well under a second.  The largest
kernel is the corpus file with the most audited ops; the slowest kernel to audit is printed too (``tests/oracles/triton-3.9-ir/ir``).  Cold =
every layout cache emptied first (``converters.gluon.base.clear_to_linear_caches``), as in a fresh
``linlayout audit`` process; warm = the same text audited again.  Reference measured in the same
run: Triton 3.9 reading the same file (``ir.parse_mlir_module`` and a walk over every op) when
triton is installed -- the least any tool that reads this IR with Triton must pay.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from converters.gluon.base import clear_to_linear_caches  # noqa: E402
from converters.mlir.module import parse_module  # noqa: E402
from linlayout.app.audit import audit  # noqa: E402

IR = ROOT / "tests" / "oracles" / "triton-3.9-ir" / "ir"


def timed(fn, repeat: int = 5, setup=None) -> float:
    runs = []
    for _ in range(repeat):
        if setup:
            setup()
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def triton_read(path: Path):
    try:
        from triton._C.libtriton import amd, ir, nvidia
    except ImportError:
        return None
    ctx = ir.context()
    ir.load_dialects(ctx)
    amd.load_dialects(ctx)
    nvidia.load_dialects(ctx)

    def run():
        m = ir.parse_mlir_module(str(path), ctx)
        n = [0]

        def visit(op):
            for i in range(op.get_num_results()):
                str(op.get_result(i).get_type())
                n[0] += 1

        m.walk(visit)

    return run


def main() -> int:
    files = sorted(IR.glob("*.ttgir"))
    sizes = {p: len(audit(p.read_text()).conversions) for p in files}
    path = max(files, key=lambda p: (sizes[p], p.stat().st_size))
    text = path.read_text()
    n = sizes[path]
    parse = timed(lambda: parse_module(text), setup=clear_to_linear_caches)
    cold = timed(lambda: audit(text), setup=clear_to_linear_caches)
    warm = timed(lambda: audit(text))
    print(f"largest kernel: {path.name} ({len(text.splitlines())} lines, {n} audited ops)")
    print(f"| what | time | per audited op |")
    print(f"|---|---|---|")
    print(f"| parse the module (converters.mlir) | {parse * 1e3:.1f} ms | {parse / n * 1e3:.2f} ms |")
    print(f"| audit, cold caches | {cold * 1e3:.1f} ms | {cold / n * 1e3:.2f} ms |")
    print(f"| audit, warm | {warm * 1e3:.1f} ms | {warm / n * 1e3:.2f} ms |")
    ref = triton_read(path)
    if ref is not None:
        t = timed(ref)
        print(f"| reference: Triton 3.9 parses + walks the file | {t * 1e3:.1f} ms | {t / n * 1e3:.2f} ms |")
        print(f"ratio audit (cold) / Triton's read: {cold / t:.1f}")
    print(f"target: well under 1 s; cold audit = {cold:.3f} s ({cold / 1.0:.1%} of the second)")
    total = timed(lambda: [audit(p.read_text()) for p in files], repeat=1, setup=clear_to_linear_caches)
    print(f"whole corpus ({len(files)} kernels, {sum(sizes.values())} audited ops), cold: {total:.2f} s")
    # the slowest kernel to audit (the suggestion searches -- shared layouts of a buffer, users of a
    # conversion -- cost more than the op count says)
    per = {p: timed(lambda p=p: audit(p.read_text()), repeat=3, setup=clear_to_linear_caches) for p in files}
    slow = max(per, key=per.__getitem__)
    r = audit(slow.read_text())
    n_sugg = sum(len(c.suggestions) for c in r.conversions)
    print(f"slowest kernel, cold: {slow.name}: {per[slow] * 1e3:.1f} ms for {sizes[slow]} audited ops "
          f"({per[slow] / max(sizes[slow], 1) * 1e3:.2f} ms per op; {n_sugg} suggestions, {len(r.regions)} reductions/scans)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
