"""A Triton worker subprocess for the corpus generators in this folder.

Triton aborts the whole process on many invalid configurations (C++ asserts, LLVM fatal
errors), so each generator runs its calls in a child Python that reads one JSON request per line
and answers ``@@<json>``; a dead child becomes a refused row (with Triton's message from its
stderr) and a fresh child takes the next request.  :func:`generate` is the generators' shared
command line.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


#: The worker of the Gluon-layout generators (make_gluon_dist.py, make_gluon_lenient.py): reads
#: ``[layout dict, shape]`` (a dict with ``kind`` = a Gluon class name, nested for parents) and
#: answers Triton's linear layout of it (distributed: register/lane/warp/block bases; shared:
#: offset/block), or Triton's error.
GLUON_LAYOUT_WORKER = r"""
import json, sys
from triton._C.libtriton import gluon_ir, ir
import triton.experimental.gluon.language as gl
from triton.experimental.gluon.language import amd
ctx = ir.context(); ir.load_dialects(ctx); builder = gluon_ir.GluonOpBuilder(ctx)

def build(d):
    args = {k: build(v) if isinstance(v, dict) else v for k, v in d.items() if k != "kind"}
    cls = getattr(gl, d["kind"], None) or getattr(amd, d["kind"])
    return cls(**args)

for line in sys.stdin:
    layout, shape = json.loads(line)
    try:
        ll = builder.to_linear_layout(build(layout)._to_ir(builder), shape)
        if hasattr(ll, "offset_bases"):
            out = {"linear": {"offset": ll.offset_bases, "block": ll.block_bases}}
        else:
            out = {"linear": {"register": ll.reg_bases, "lane": ll.lane_bases, "warp": ll.warp_bases,
                              "block": ll.block_bases}}
        if list(ll.shape) != list(shape):
            out = {"error": f"triton returned shape {list(ll.shape)}"}
    except Exception as e:
        out = {"error": f"triton raised {type(e).__name__}: {e}"}
    sys.stdout.write("@@" + json.dumps(out) + "\n")
    sys.stdout.flush()
"""


class TritonWorker:
    """Runs ``source`` (a loop over stdin lines answering ``@@<json>``) in a restartable child."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.proc: subprocess.Popen | None = None
        self.err = None

    def _start(self) -> None:
        self.err = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", self.source], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, text=True
        )

    def run(self, *request: object) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(list(request)) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                break
            if line.startswith("@@"):
                return json.loads(line[2:])
        status = self.proc.wait()
        self.err.seek(0)
        msgs = [l.strip() for l in self.err.read().splitlines() if l.startswith(("error:", "LLVM ERROR:")) or "Assertion" in l]
        self.proc = None
        why = msgs[0] if msgs else ""
        if "Assertion `" in why:  # keep the asserted condition, not the whole template signature
            why = "Assertion " + why.split("Assertion ", 1)[1]
        return {"error": f"triton aborted (status {-status if status < 0 else status}): {why}"[:300]}

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()


def generate(
    doc: str,
    *,
    seed: int,
    count: int,
    out: Path,
    fixed: Sequence[Any],
    random_case: Callable[[random.Random], Any],
    source: str,
    row_of: Callable[[Any, Callable[..., dict]], dict],
) -> int:
    """The command line of a generator: ``--seed``, ``--count`` random cases (distinct from each
    other and from the ``fixed`` ones, which come first), ``--out``; every case becomes the row
    ``row_of(case, run)`` (``run`` asks the worker running ``source``), written as JSON Lines with
    sorted keys."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--count", type=int, default=count, help="random rows (the fixed cases come on top)")
    ap.add_argument("--out", type=Path, default=out)
    a = ap.parse_args()
    import triton

    assert triton.__version__ == "3.9.0", f"expected triton 3.9.0, got {triton.__version__}"
    rng = random.Random(a.seed)
    cases = list(fixed)
    seen = {json.dumps(c, sort_keys=True) for c in cases}
    while len(cases) < len(fixed) + a.count:
        c = random_case(rng)
        key = json.dumps(c, sort_keys=True)
        if key not in seen:
            seen.add(key)
            cases.append(c)
    worker = TritonWorker(source)
    try:
        rows = [row_of(c, worker.run) for c in cases]
    finally:
        worker.close()
    with open(a.out, "w") as f:
        for row in rows:
            f.write(json.dumps(row, sort_keys=True) + "\n")
    bad = sum("error" in r for r in rows)
    print(f"{a.out}: {len(rows)} rows ({len(fixed)} fixed), {len(rows) - bad} accepted by Triton, {bad} refused", file=sys.stderr)
    return 0
