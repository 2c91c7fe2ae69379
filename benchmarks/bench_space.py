"""Layout-space sweeps (``linlayout space --kind all``): time, peak memory and growth, same run.

Run on demand:  python benchmarks/bench_space.py [--shapes 32,32 64,64 128,128] [--warps 4]
                                                 [--triton-sample 3000] [--no-reference]
                                                 [--baseline PATH]

For each shape, the BlockedLayout and SliceLayout spellings on ``--warps`` warps (what
``linlayout space --kind all`` sweeps) are classified serially, each sweep in a fresh child
process, which reports its time and its peak resident memory above what the imports took.  Two
references are measured in the same run:

* the list approach (what ``classify`` did before issue 19): every spelling dict in a list, every
  linear layout in a list (one object each), then grouped; same answers, checked;
* Triton 3.9's ``GluonOpBuilder.to_linear_layout`` on a sample of the same spellings (fresh
  context, so nothing cached), scaled to the whole space: the time Triton alone would take to
  convert it (needs ``pip install triton==3.9.0``).

``--baseline PATH`` also sweeps each space with another checkout of this repository (say, the
commit before a change: ``git archive <commit> | tar -x -C PATH``), in its own child process,
and prints its time and memory beside ours: before and after from one run.

The growth exponents are the slopes of log(time) and log(peak memory) over log(spellings)
(1 = linear in the space; memory near 0 = streaming).

Targets (issue 19): the 128x128, 4-warp sweep in < 5 s serial and < 200 MiB.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import gc, json, resource, sys, time
sys.path.insert(0, {root!r})
sys.path = [p for p in sys.path if p not in ("", ".")]  # that checkout, not the working directory's

def peak_kib():
    # VmHWM: this process image's peak (ru_maxrss would include the parent's image before exec)
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
from linlayout.app import space
from linlayout.app.spellings import safe_linear
shape, warps, mode = {shape!r}, {warps!r}, {mode!r}
gc.collect()
base = peak_kib()
t0, c0 = time.perf_counter(), time.process_time()
if mode == "stream":
    s = space.classify(space.blocked_space(shape, warps) + space.slice_space(shape, warps), shape, executor="serial")
    n, classes, sizes = s.num_spellings, s.num_classes, s.class_sizes()
else:  # the list approach: every spelling and every layout object in memory, then grouped
    spellings = list(space.blocked_spellings(shape, warps)) + list(space.slice_spellings(shape, warps))
    layouts = [safe_linear(x, shape) for x in spellings]
    groups = {{}}
    for i, L in enumerate(layouts):
        if not isinstance(L, str):
            groups.setdefault(L, []).append(i)
    n, classes = len(spellings), len(groups)
    sizes = sorted((len(m) for m in groups.values()), reverse=True)
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
peak = peak_kib()
print(json.dumps({{"n": n, "classes": classes, "sizes": sizes, "wall": wall, "cpu": cpu,
                  "peak_mib": peak / 1024, "above_imports_mib": (peak - base) / 1024}}))
"""


def run_child(shape: list[int], warps: int, mode: str, root: Path = ROOT) -> dict:
    code = CHILD.format(root=str(root), shape=shape, warps=warps, mode=mode)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=str(root))
    got = json.loads(out.stdout.strip().splitlines()[-1])
    if mode == "stream":  # the child really imported that checkout
        check = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(root)!r}); "
                                "import linlayout; print(linlayout.__file__)"], capture_output=True, text=True,
                               check=True, cwd=str(root))
        assert check.stdout.strip().startswith(str(root)), (root, check.stdout)
    return got


def triton_seconds_per_spelling(shape: list[int], warps: int, sample: int) -> float | None:
    """Triton's to_linear_layout per spelling (CPU time; a fresh context, so nothing cached), over
    an even sample of the space."""
    try:
        import triton.experimental.gluon.language as gl
        from triton._C.libtriton import gluon_ir, ir
    except ImportError:
        return None
    import time

    sys.path.insert(0, str(ROOT))
    from linlayout.app import space

    sp = space.blocked_space(shape, warps) + space.slice_space(shape, warps)
    step = max(1, len(sp) // sample)
    picked = [sp[i] for i in range(0, len(sp), step)]

    def gluon_object(d):
        if d["kind"] == "SliceLayout":
            return gl.SliceLayout(d["dim"], gluon_object(d["parent"]))
        return gl.BlockedLayout(d["size_per_thread"], d["threads_per_warp"], d["warps_per_cta"], d["order"])

    objs = [gluon_object(d) for d in picked]
    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    t0 = time.process_time()  # CPU time, as the sweeps' "cpu s" it is compared with
    for o in objs:
        builder.to_linear_layout(o._to_ir(builder), shape)
    return (time.process_time() - t0) / len(objs)


def slope(xs: list[float], ys: list[float]) -> float:
    lx = [math.log(x) for x in xs]
    ly = [math.log(max(y, 1e-9)) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", nargs="*", default=["32,32", "64,64", "128,128"])
    ap.add_argument("--warps", type=int, default=4)
    ap.add_argument("--triton-sample", type=int, default=3000)
    ap.add_argument("--no-reference", action="store_true", help="skip the list-approach reference")
    ap.add_argument("--baseline", type=Path, help="another checkout to sweep with, shown beside ours")
    args = ap.parse_args()
    shapes = [[int(x) for x in s.split(",")] for s in args.shapes]
    print(f"checkout: {ROOT}" + (f"; baseline: {args.baseline}" if args.baseline else ""))
    print(f"{'shape':>10}{'spellings':>11}{'classes':>9}{'wall s':>9}{'cpu s':>8}{'peak MiB':>10}{'sweep MiB':>11}"
          f"{'list cpu s':>12}{'list MiB':>10}{'cpu ratio':>11}{'mem ratio':>11}{'Triton s':>10}{'/Triton':>9}"
          + (f"{'base cpu s':>12}{'base MiB':>10}{'/base':>8}" if args.baseline else ""))
    ns, walls, mems = [], [], []
    for shape in shapes:
        ours = run_child(shape, args.warps, "stream")
        line = (f"{'x'.join(map(str, shape)):>10}{ours['n']:>11}{ours['classes']:>9}{ours['wall']:>9.2f}{ours['cpu']:>8.2f}"
                f"{ours['peak_mib']:>10.1f}{ours['above_imports_mib']:>11.1f}")
        if not args.no_reference:
            ref = run_child(shape, args.warps, "list")
            assert (ref["n"], ref["classes"], ref["sizes"]) == (ours["n"], ours["classes"], ours["sizes"]), shape
            line += (f"{ref['cpu']:>12.2f}{ref['above_imports_mib']:>10.1f}{ours['cpu'] / ref['cpu']:>11.2f}"
                     f"{ours['above_imports_mib'] / max(ref['above_imports_mib'], 1e-3):>11.2f}")
        else:
            line += f"{'':>12}{'':>10}{'':>11}{'':>11}"
        per = triton_seconds_per_spelling(shape, args.warps, args.triton_sample)
        if per is not None:
            tri = per * ours["n"]
            line += f"{tri:>10.2f}{ours['cpu'] / tri:>9.2f}"
        else:
            line += f"{'':>10}{'':>9}"
        if args.baseline:
            base = run_child(shape, args.warps, "stream", args.baseline.resolve())
            assert (base["n"], base["classes"], base["sizes"]) == (ours["n"], ours["classes"], ours["sizes"]), shape
            line += f"{base['cpu']:>12.2f}{base['peak_mib']:>10.1f}{ours['cpu'] / base['cpu']:>8.2f}"
        print(line, flush=True)
        ns.append(ours["n"])
        walls.append(ours["cpu"])
        mems.append(max(ours["above_imports_mib"], 0.1))
    if len(ns) > 1:
        print(f"growth exponents over spellings: cpu time {slope(ns, walls):.2f}, sweep memory {slope(ns, mems):.2f}")
    print("targets (issue 19): 128x128 on 4 warps < 5 s serial, < 200 MiB peak")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
