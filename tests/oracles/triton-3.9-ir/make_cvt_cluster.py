"""Generate cvt_cluster.jsonl: seeded random ``ttg.convert_layout`` in a CTA cluster (2 or 4
CTAs), each alone in make_cvt_ptx.py's one-op module, lowered by Triton 3.9 to PTX, with the
kernel's ``metadata.shared`` (the conversion's scratch) and PTX counts.

    python tests/oracles/triton-3.9-ir/make_cvt_cluster.py      # needs triton==3.9.0, no GPU

Cases: source and destination each a blocked layout (from a fixed list) or an NVIDIA MMA layout
(v2 for sm_90 / sm_100 alike, v3 on sm_90) with a random CGA layout of the cluster; f16 or f32;
a 2-D shape; 4 warps; target ``cuda:90`` or ``cuda:100``.  Rows as cvt_ptx.jsonl's (``file`` is
``"random"``, ``line`` the case's index; the seed is fixed, so a run repeats).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from isolate import compile_each, require_triton, write_rows  # noqa: E402
from make_cvt_ptx import WORKER, module_text  # noqa: E402

SEED = 20261124
N = 400
CGA = {2: ["[[0, 0]]", "[[0, 1]]", "[[1, 0]]"],
       4: ["[[0, 1], [0, 2]]", "[[1, 0], [2, 0]]", "[[0, 1], [1, 0]]", "[[1, 0], [0, 1]]", "[[0, 0], [0, 1]]", "[[1, 0], [0, 0]]",
           "[[0, 0], [0, 0]]", "[[0, 1], [0, 0]]"]}
BLOCKED = [("[1, 1]", "[1, 32]", "[2, 2]", "[1, 0]"), ("[1, 8]", "[4, 8]", "[4, 1]", "[1, 0]"), ("[4, 1]", "[8, 4]", "[1, 4]", "[0, 1]"),
           ("[2, 2]", "[2, 16]", "[2, 2]", "[0, 1]"), ("[1, 4]", "[8, 4]", "[1, 4]", "[1, 0]"), ("[1, 2]", "[32, 1]", "[4, 1]", "[0, 1]")]


def layout(rng: random.Random, ctas: int, target: str) -> str:
    cga = rng.choice(CGA[ctas])
    r = rng.random()
    if r < 0.6:
        s, t, w, o = rng.choice(BLOCKED)
        return f"#ttg.blocked<{{sizePerThread = {s}, threadsPerWarp = {t}, warpsPerCTA = {w}, order = {o}, CGALayout = {cga}}}>"
    if r < 0.8 or target != "cuda:90":
        w = rng.choice(["[2, 2]", "[4, 1]", "[1, 4]"])
        return f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {w}, CGALayout = {cga}, instrShape = [16, 8]}}>"
    n = rng.choice([16, 32, 64])
    return f"#ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = {cga}, instrShape = [16, {n}, 16]}}>"


def cases(seed: int = SEED, n: int = N) -> list[dict]:
    """The ``n`` random cluster conversions of ``seed``."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        ctas = rng.choice([2, 4])
        target = rng.choice(["cuda:90", "cuda:100"])
        src, dst = layout(rng, ctas, target), layout(rng, ctas, target)
        out.append({"file": "random", "line": i, "target": target, "num_warps": 4, "num_ctas": ctas,
                    "dtype": rng.choice(["f16", "f32"]), "shape": rng.choice([[64, 64], [64, 128], [128, 128], [128, 256]]),
                    "src": src, "dst": dst})
    return out


def main() -> int:
    require_triton(__doc__)
    cs = cases()
    rows = compile_each(WORKER, ((c, module_text(c), c["target"]) for c in cs))
    write_rows("cvt_cluster.jsonl", rows, "cluster conversions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
