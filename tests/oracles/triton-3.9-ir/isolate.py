"""Shared by the ``make_*.py`` generators here that compile one op alone: check the Triton version,
lower each one-op TTGIR module in a worker process, and write the rows.

    rows = compile_each(worker_source('out = {"shared_bytes": int(k.metadata.shared)}'),
                        [(case, module_text, "cuda:90"), ...])
    write_rows("scratch.jsonl", rows, "ops")

Each module is compiled from TTGIR (``triton.compile(path, target=GPUTarget(backend, arch,
warp))``: the TTGIR passes do not run again, so the op stays as written); a Triton exception or a
dead worker becomes the row's ``error``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "triton-3.9-generated"))

from triton_worker import TritonWorker  # noqa: E402


def worker_source(measure: str, prelude: str = "") -> str:
    """The worker: compiles each requested ``[path, backend, arch, warp]`` and answers the dict
    ``out`` that the ``measure`` lines (run with the compiled kernel ``k``) set; ``prelude`` runs
    once (imports ``json``, ``re``, ``sys``, ``triton`` and ``GPUTarget`` are there)."""
    body = "".join(f"        {line}\n" for line in measure.strip().splitlines())
    return (
        "import json, re, sys\n"
        "import triton\n"
        "from triton.backends.compiler import GPUTarget\n"
        f"{prelude.strip()}\n"
        "for line in sys.stdin:\n"
        "    path, backend, arch, warp = json.loads(line)\n"
        "    try:\n"
        "        k = triton.compile(path, target=GPUTarget(backend, arch, warp))\n"
        f"{body}"
        "    except Exception as e:\n"
        "        out = {\"error\": f\"triton raised {type(e).__name__}: "
        "{str(e).strip().splitlines()[-1] if str(e).strip() else ''}\"[:300]}\n"
        "    sys.stdout.write(\"@@\" + json.dumps(out) + \"\\n\")\n"
        "    sys.stdout.flush()\n"
    )


def require_triton(doc: str) -> None:
    """The generator's command line (no options; ``--help`` prints ``doc``), then: refuse any
    Triton but 3.9.0 (the corpora are its answers), and put the repository on the path."""
    argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    import triton

    assert triton.__version__ == "3.9.0", f"expected triton 3.9.0, got {triton.__version__}"
    sys.path.insert(0, str(HERE.parents[2]))


def compile_each(source: str, cases: Iterable[tuple[dict, str, str]]) -> list[dict]:
    """For each ``(row, module_text, target)``: ``{**row, **answer}``, the answer of the worker
    running ``source`` on the module compiled for ``target`` (``cuda:<arch>`` with 32 threads per
    warp, ``hip:<arch>`` with 64)."""
    worker = TritonWorker(source)
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for i, (row, text, target) in enumerate(cases):
                p = Path(tmp) / f"op{i}.ttgir"
                p.write_text(text)
                backend, arch = target.split(":")
                answer = worker.run(str(p), backend, int(arch) if backend == "cuda" else arch, 64 if backend == "hip" else 32)
                rows.append({**row, **answer})
    finally:
        worker.close()
    return rows


def write_rows(name: str, rows: list[dict], what: str) -> None:
    """Write ``rows`` to ``name`` here as JSON Lines (keys sorted) and say how many Triton refused."""
    with open(HERE / name, "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    print(f"{len(rows)} {what}, {sum('error' in r for r in rows)} refused by Triton", file=sys.stderr)
