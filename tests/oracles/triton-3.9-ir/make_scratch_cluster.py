"""Generate scratch_cluster.jsonl: the scratch Triton 3.9 gives ``tt.reduce`` and ``tt.scan`` in a CTA
cluster (2 or 4 CTAs, random blocked layouts with random CGA layouts, sm_90), each alone in a module.

    python tests/oracles/triton-3.9-ir/make_scratch_cluster.py      # needs triton==3.9.0, no GPU

The module is make_scratch.py's one-op module with ``"ttg.num-ctas"`` set; the kernel's
``metadata.shared`` is the op's scratch (one CTA's).  Half the reductions are drawn so that the
CTAs split the reduced axis (the reduction crosses CTAs through distributed shared memory).  Row
(keys sorted): ``op``, ``num_ctas``, ``axis``, ``across`` (whether the CTAs split the axis),
``module`` (the TTGIR text) and ``shared_bytes``, or ``error`` (Triton refuses many cluster scans).
Checked by ``tests/test_audit_scratch.py::test_cluster_reduce_scan_scratch_against_triton``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from isolate import compile_each, require_triton, write_rows  # noqa: E402

SEED = 20261124
#: (sizePerThread, threadsPerWarp, warpsPerCTA, order) of the blocked layouts drawn
BLOCKED = [("[1, 1]", "[1, 32]", "[2, 2]", "[1, 0]"), ("[1, 8]", "[4, 8]", "[4, 1]", "[1, 0]"), ("[4, 1]", "[8, 4]", "[1, 4]", "[0, 1]"),
           ("[2, 2]", "[2, 16]", "[2, 2]", "[0, 1]")]
#: CGA layouts (block bases) per CTA count
CGA = {2: ["[[0, 0]]", "[[0, 1]]", "[[1, 0]]"],
       4: ["[[0, 1], [0, 2]]", "[[1, 0], [2, 0]]", "[[0, 1], [1, 0]]", "[[1, 0], [0, 1]]", "[[0, 0], [0, 1]]", "[[1, 0], [0, 0]]",
           "[[0, 0], [0, 0]]"]}


def cases(n: int = 120) -> list:
    """(row, module text, target) of ``n`` seeded cases: reductions crossing CTAs, reductions
    inside them and scans, in turn."""
    import make_scratch
    from converters.mlir import parse_type

    rng = random.Random(SEED)
    out: list = []
    while len(out) < n:
        kind = len(out) % 3  # 0: a reduction across CTAs, 1: a reduction inside them, 2: a scan
        ctas = rng.choice([2, 4])
        s, t, w, o = rng.choice(BLOCKED)
        lay = f"#ttg.blocked<{{sizePerThread = {s}, threadsPerWarp = {t}, warpsPerCTA = {w}, order = {o}, CGALayout = {rng.choice(CGA[ctas])}}}>"
        shape = rng.choice([[32, 32], [64, 128], [128, 128], [128, 256]])
        ty = parse_type(f"tensor<{'x'.join(map(str, shape))}x{rng.choice(['f16', 'f32'])}, {lay}>")
        axis = rng.choice([0, 1])
        across = any(b[axis] for b in ty.to_linear().bases.get("block", ()))
        if kind < 2 and across != (kind == 0):
            continue
        op = "tt.scan" if kind == 2 else "tt.reduce"
        text = make_scratch._module(op, "cuda:90", 4, axis, [ty]).replace('"ttg.num-ctas" = 1', f'"ttg.num-ctas" = {ctas}')
        out.append(({"op": op, "num_ctas": ctas, "axis": axis, "across": across, "module": text}, text, "cuda:90"))
    return out


def main() -> int:
    require_triton(__doc__)
    import make_scratch

    write_rows("scratch_cluster.jsonl", compile_each(make_scratch.WORKER, cases()), "ops")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
