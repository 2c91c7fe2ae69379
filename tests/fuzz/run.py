"""The on-demand fuzz driver (issue 20): many inputs per parser, a time bound and a memory cap per
input, and a report of every foreign exception, round-trip failure and outlier.

    python tests/fuzz/run.py                       # 100,000 inputs for each asserted parser
    python tests/fuzz/run.py -n 2000 gluon tile    # a quick look at two parsers
    python tests/fuzz/run.py --jobs 2 --out /tmp/fuzz.json
    python tests/fuzz/run.py --target api -n 30000 # public API calls with hostile arguments (fuzz_api.py)
    python tests/fuzz/run.py --target cli -n 2500  # linlayout command lines (fuzz_cli.py)

Each worker process caps its address space (``--mem-mb`` above what it uses at the start), so an
input that allocates without bound fails with MemoryError (counted as foreign) instead of taking
the machine down; inputs that raise the process's peak resident memory by more than
``--rss-mb`` are reported as memory outliers, and inputs slower than ``--time-bound`` seconds as
time outliers.  Every 500th input is a megabyte-sized one (at the length limit).  The exit status
is 0 when no asserted parser had a foreign exception, round-trip failure, hang or outlier.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import json
import multiprocessing as mp
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

from fuzz_targets import TARGETS, TIME_BOUND, check, huge, one_input  # noqa: E402


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _vm_size() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


class _Driver:
    """Inputs and checks of one kind of target: a parser's texts (the default), API calls or
    command lines.  ``make(r, i)`` is one input, ``run(x)`` a :class:`fuzz_targets.Result` with
    its outcome class, ``show(x)`` a bounded description."""

    def __init__(self, name: str, huge_every: int, hard_limit: float):
        self.name, self.huge_every, self.hard_limit = name, huge_every, hard_limit
        if name == "api":
            import fuzz_api

            self.mod: Any = fuzz_api
            self.pool = fuzz_api.pool()
            fuzz_api.entry_points()
        elif name == "cli":
            import fuzz_cli

            self.mod = fuzz_cli
            fuzz_cli.prepare()
        else:
            self.target = TARGETS[name]
            self.target.corpus()  # load before capping memory

    def make(self, r: random.Random, i: int) -> Any:
        if self.name == "api":
            return self.mod.one_call(r, self.pool)
        if self.name == "cli":
            return self.mod.one_argv(r, i)
        if self.huge_every and i % self.huge_every == self.huge_every - 1:
            return huge(r, self.target)
        return one_input(r, self.target)

    def run(self, x: Any) -> tuple[str, Any]:
        if self.name == "api":
            res = self.mod.check_call(x, self.hard_limit, self.pool)
            return self.mod.classify(res), res
        if self.name == "cli":
            res = self.mod.check_argv(x, self.hard_limit)
            return res.outcome, res
        res = check(self.target, x, hard_limit=self.hard_limit)
        return res.outcome, res

    def show(self, x: Any) -> tuple[int, str]:
        if isinstance(x, str):
            return len(x), x[:400]
        text = str(x)
        return len(text), text[:400]


def work(job: tuple[str, int, int, int, dict]) -> dict:
    """Run ``count`` inputs of one target from ``seed``; the counts and the bad examples."""
    name, seed, count, huge_every, opts = job
    driver = _Driver(name, huge_every, opts["hard_limit"])
    cap = _vm_size() + opts["mem_mb"] * (1 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    r = random.Random(seed)
    counts: collections.Counter = collections.Counter()
    bad: list[dict] = []
    slowest = 0.0
    for i in range(count):
        x = driver.make(r, i)
        before = _maxrss_mb()
        outcome, res = driver.run(x)
        grew = _maxrss_mb() - before
        counts[outcome] += 1
        slowest = max(slowest, res.seconds)
        flags = []
        if outcome in ("foreign", "roundtrip", "hang"):
            flags.append(outcome)
        if res.seconds > opts["time_bound"]:
            flags.append("slow")
            counts["slow"] += 1
        if grew > opts["rss_mb"]:
            flags.append("memory")
            counts["memory"] += 1
        if flags and len(bad) < 200:
            n, shown = driver.show(x)
            bad.append({"flags": flags, "seconds": round(res.seconds, 3), "rss_growth_mb": round(grew, 1),
                        "detail": res.detail, "len": n, "input": shown})
        elif outcome == "type" and len(bad) < 100 and sum(b["flags"] == ["type"] for b in bad) < TYPES_KEPT:
            n, shown = driver.show(x)
            bad.append({"flags": ["type"], "seconds": round(res.seconds, 3), "rss_growth_mb": round(grew, 1),
                        "detail": res.detail, "len": n, "input": shown})
    return {"target": name, "counts": dict(counts), "bad": bad, "slowest": slowest}


TYPES_KEPT = 50  # wrong-type examples kept in the report (all of them, now that they are rare)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("targets", nargs="*", help=f"parsers to fuzz (default: all asserted ones); of {', '.join(TARGETS)}")
    ap.add_argument("--target", choices=("parsers", "api", "cli"), default="parsers",
                    help="what to fuzz: the parsers named (default), the public API, or the command line")
    ap.add_argument("-n", type=int, default=100_000, help="inputs per parser (default 100000)")
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--chunk", type=int, default=5000, help="inputs per work item")
    ap.add_argument("--time-bound", type=float, default=TIME_BOUND, help="seconds; slower inputs are outliers")
    ap.add_argument("--hard-limit", type=float, default=20.0, help="seconds; an input is stopped (a hang) after this")
    ap.add_argument("--mem-mb", type=int, default=2048, help="address-space cap per worker above its start")
    ap.add_argument("--rss-mb", type=int, default=512, help="peak-RSS growth of one input that counts as an outlier")
    ap.add_argument("--huge-every", type=int, default=500, help="every k-th input is a megabyte input (0: none)")
    ap.add_argument("--out", help="write the full report (JSON) here")
    args = ap.parse_args(argv)
    if args.target != "parsers":
        names = [args.target]
        args.huge_every = 0
    else:
        names = args.targets or [n for n, t in TARGETS.items() if not t.informational]
        for n in names:
            if n not in TARGETS:
                ap.error(f"unknown target {n!r}")
    # Import every parser now, so that the forked workers all run the code as it is at the start
    # (a worker that imported a module edited mid-run would mix two versions).
    for module in ("converters.cute", "converters.gluon", "converters.mlir", "converters.registry",
                   "converters.tile", "converters.tilus"):
        importlib.import_module(module)
    for n in names:
        if n in TARGETS:
            TARGETS[n].corpus()
    if args.target == "api":
        import fuzz_api

        fuzz_api.entry_points()
        fuzz_api.samples()
    elif args.target == "cli":
        import fuzz_cli

        fuzz_cli.prepare()
        importlib.import_module("linlayout.app.cli")
    opts = {"mem_mb": args.mem_mb, "time_bound": args.time_bound, "hard_limit": args.hard_limit, "rss_mb": args.rss_mb}
    jobs = []
    for n in names:
        for k, start in enumerate(range(0, args.n, args.chunk)):
            seed = args.seed * 1_000_003 + k * 7919 + sum(map(ord, n))
            jobs.append((n, seed, min(args.chunk, args.n - start), args.huge_every, opts))
    t0 = time.time()
    totals: dict[str, collections.Counter] = {n: collections.Counter() for n in names}
    bad: dict[str, list] = {n: [] for n in names}
    slowest = dict.fromkeys(names, 0.0)
    with mp.get_context("fork").Pool(args.jobs, maxtasksperchild=1) as pool:
        for res in pool.imap_unordered(work, jobs):
            n = res["target"]
            totals[n].update(res["counts"])
            # the wrong-type class may be numerous: keep at most TYPES_KEPT of its examples, the rest for the others
            chunk = sorted(res["bad"], key=lambda b: b["flags"] == ["type"])
            kept_types = sum(b["flags"] == ["type"] for b in bad[n])
            for b in chunk:
                if len(bad[n]) >= 200 or (b["flags"] == ["type"] and kept_types >= TYPES_KEPT):
                    continue
                kept_types += b["flags"] == ["type"]
                bad[n].append(b)
            slowest[n] = max(slowest[n], res["slowest"])
            done = sum(sum(v for k, v in c.items() if k not in ("slow", "memory")) for c in totals.values())
            print(f"[{time.time() - t0:7.0f}s] {done} inputs", file=sys.stderr, flush=True)
    failed = False
    print(f"{'target':12} {'inputs':>8} {'ok':>7} {'refused':>8} {'foreign':>8} {'type':>6} {'roundtrip':>9} {'hang':>5} "
          f"{'slow':>5} {'memory':>6} {'slowest':>8}")
    for n in names:
        c = totals[n]
        total = sum(v for k, v in c.items() if k not in ("slow", "memory"))
        print(f"{n:12} {total:8d} {c['ok']:7d} {c['refused']:8d} {c['foreign']:8d} {c['type']:6d} {c['roundtrip']:9d} {c['hang']:5d} "
              f"{c['slow']:5d} {c['memory']:6d} {slowest[n]:7.2f}s")
        if not (n in TARGETS and TARGETS[n].informational) and any(c[k] for k in ("foreign", "roundtrip", "hang", "slow", "memory")):
            failed = True
    for n in names:
        for b in bad[n][:5]:
            print(f"  {n}: {b['flags']} {b['seconds']}s +{b['rss_growth_mb']}MB {b['detail'][:160]!r} on {b['input'][:160]!r}")
    if args.out:
        Path(args.out).write_text(json.dumps({"args": vars(args), "seconds": time.time() - t0,
                                              "totals": {n: dict(c) for n, c in totals.items()},
                                              "slowest": slowest, "bad": bad}, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
