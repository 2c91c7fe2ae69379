"""Generate suggest_ptx.jsonl: Triton 3.9's lowering of the cheaper destinations the audit suggests.

    python tests/oracles/triton-3.9-ir/make_suggest_ptx.py      # needs triton==3.9.0, no GPU

For every ``register_order`` suggestion ``linlayout audit`` makes on the NVIDIA kernels in ``ir/``
(a destination with the same elements per thread as the requested one, registers in the
source's order; see ``linlayout/app/audit_suggest.py``), the conversion source -> suggested
destination is isolated and lowered to PTX exactly as ``make_cvt_ptx.py`` does for the kernels' own
conversions (same module, same worker, same counts), so the test can compare Triton's code for
the two destinations.  Only the suggestion comes from our code; the instruction counts are
Triton's.  Row (keys sorted): ``file``, ``line``, ``target``, ``num_warps``, ``src``, ``dst`` (the
suggested layout), ``requested`` (the IR's destination), ``shape``, ``dtype``, ``ptx_counts``,
``shared_bytes``, or ``error``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from isolate import compile_each, require_triton, write_rows  # noqa: E402
from make_cvt_ptx import WORKER, module_text  # noqa: E402


def main() -> int:
    require_triton(__doc__)
    from linlayout.app.audit import audit  # the suggestions under test; Triton lowers them

    cases = []
    for path in sorted((HERE / "ir").glob("*.ttgir")):
        r = audit(path.read_text())
        if not r.target.startswith("cuda:"):
            continue
        for c in r.conversions:
            for s in c.suggestions:
                if s["kind"] == "register_order" and not c.dtype.startswith("!"):
                    cases.append({"file": f"ir/{path.name}", "line": c.line, "target": r.target, "num_warps": c.num_warps,
                                  "src": c.src, "dst": s["layout"], "requested": c.dst, "shape": c.shape, "dtype": c.dtype})
    rows = compile_each(WORKER, ((c, module_text(c), c["target"]) for c in cases))
    write_rows("suggest_ptx.jsonl", rows, "suggested conversions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
