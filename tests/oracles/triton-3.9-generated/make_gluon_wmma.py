"""Generate gluon_wmma.jsonl: Gluon's AMDWMMALayout -> Triton 3.9's linear layout (or Triton's refusal).

    python tests/oracles/triton-3.9-generated/make_gluon_wmma.py [--seed 20261122] [--count 400] [--out PATH]

Needs `triton==3.9.0` (no GPU).  Each configuration is run in a worker subprocess through
Gluon's own classes and builder (`AMDWMMALayout(...)._to_ir(builder)` then
`GluonOpBuilder.to_linear_layout(attr, shape)`); Triton aborts the process on many invalid
configurations (C++ asserts, LLVM fatal errors), so a dead worker marks the row as refused and a
fresh worker takes the next row
(`triton_worker.py`).

Row format (same as ../triton-3.9/gluon_ll.jsonl), one JSON object per line, keys sorted:
  {"layout": {"kind": "AMDWMMALayout", <the constructor arguments given>}, "shape": [...],
   "linear": {"register": [...], "lane": [...], "warp": [...], "block": [...]}}
or, where Triton refused, "error" instead of "linear":
  "triton aborted (status 6): <Triton's message>"  or  "triton raised <Exception>: <message>".

Configurations are random but seeded: versions 1-3, every accepted instruction shape and some
refused ones, transposed or not, rank 2 and 3, reg/warp bases (permutations in tile units with
broadcast zeros, sometimes repeated or mixed vectors), CGA layouts, shapes from a single element
to 256 per dim (broadcast and repetition), plus a fixed list of edge cases and of malformed input.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from triton_worker import GLUON_LAYOUT_WORKER, TritonWorker, generate  # noqa: E402,F401 (the tests run TritonWorker live)

HERE = Path(__file__).resolve().parent

WORKER = GLUON_LAYOUT_WORKER


def request(case: tuple[dict, list]) -> tuple[dict, list]:
    """The worker's request for a case ``(AMDWMMALayout arguments, shape)``."""
    args, shape = case
    return {"kind": "AMDWMMALayout", **args}, shape

VALID_INSTR = {
    1: [[16, 16, 16]],
    2: [[16, 16, 16], [16, 16, 32]],
    3: [[16, 16, 4], [16, 16, 32], [16, 16, 64], [16, 16, 128], [32, 16, 64], [32, 16, 128]],
}
BAD_INSTR = [[16, 16, 8], [32, 32, 32], [16, 32, 64], [32, 16, 32], [16, 16], [16, 16, 16, 16], [64, 16, 64], [16, 16, 256]]


# ---------------------------------------------------------------------------- random configurations
def perm_tiles(rng: random.Random, rank: int, n: int, zeros: int) -> list[list[int]]:
    """n single-bit vectors (a permutation in tile units: per dim 1, 2, 4, ...) plus zero vectors, shuffled."""
    dims = list(range(rank))
    weights = [1] * rank if rank == 2 else [1, 2, 2]
    counts = [0] * rank
    for _ in range(n):
        counts[rng.choices(dims, weights)[0]] += 1
    vecs = []
    for d, c in enumerate(counts):
        for k in range(c):
            v = [0] * rank
            v[d] = 1 << k
            vecs.append(v)
    rng.shuffle(vecs)
    for _ in range(zeros):
        vecs.insert(rng.randrange(len(vecs) + 1), [0] * rank)
    return vecs


def spoil(rng: random.Random, vecs: list[list[int]], rank: int) -> list[list[int]]:
    """Repeat a vector, add two (a mixed vector) or put in a non-power-of-two entry."""
    vecs = [list(v) for v in vecs]
    nz = [v for v in vecs if any(v)]
    how = rng.choice(["repeat", "mix", "three"])
    if how == "repeat" and nz:
        vecs.insert(rng.randrange(len(vecs) + 1), list(rng.choice(nz)))
    elif how == "mix" and len(nz) >= 2:
        a, b = rng.sample(nz, 2)
        vecs[vecs.index(a)] = [x ^ y for x, y in zip(a, b)]  # still reaches everything
    else:
        d = rng.randrange(rank)
        v = [0] * rank
        v[d] = 3
        w = [0] * rank
        w[d] = rng.choice([1, 2])
        vecs += [v, w]
    return vecs


def random_case(rng: random.Random) -> tuple[dict, list]:
    version = rng.choice([1, 2, 3, 3])
    rank = rng.choice([2, 2, 3])
    args: dict = {"version": version, "transposed": rng.random() < 0.5}
    if rng.random() < 0.06:
        instr = rng.choice(BAD_INSTR + [[16, 16, 16]])
    else:
        instr = rng.choice(VALID_INSTR[version])
    n_tiles = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4, 5])
    tiles = perm_tiles(rng, rank, n_tiles, rng.choice([0, 0, 0, 1, 2]))
    if rng.random() < 0.12:
        tiles = spoil(rng, tiles, rank)
    n_warps = rng.randint(0, len(tiles))
    picks = set(rng.sample(range(len(tiles)), n_warps))
    warp = [t for i, t in enumerate(tiles) if i in picks]
    reg = [t for i, t in enumerate(tiles) if i not in picks]
    args["warp_bases"] = warp
    if reg or rng.random() < 0.2:
        args["reg_bases"] = reg
    elif rng.random() < 0.1:
        args["reg_bases"] = None
    if instr != [16, 16, 16] or rng.random() < 0.3:
        args["instr_shape"] = instr
    if rng.random() < 0.3:
        cga = perm_tiles(rng, rank, rng.randint(1, 3), rng.choice([0, 0, 1]))
        if rng.random() < 0.1:
            cga = spoil(rng, cga, rank)
        args["cga_layout"] = cga
    if rank == 3 or rng.random() < 0.3:
        args["rank"] = rank
    if rank == 3:
        shape = [1 << rng.randint(0, 3)]
    else:
        shape = []
    shape += [1 << rng.choice([0, 2, 3, 4, 4, 5, 5, 6, 6, 7, 8]) for _ in range(2)]
    return args, shape


EDGE_CASES: list[tuple[dict, list]] = [
    # every version and tile, transposed or not, exactly one tile
    *[({"version": v, "transposed": t, "warp_bases": [], "instr_shape": i}, [16 if i[0] == 16 or t else 32, 32 if i[0] == 32 and t else 16])
      for v in (1, 2, 3) for i in VALID_INSTR[v] for t in (False, True)],
    ({"version": 1, "transposed": False, "warp_bases": []}, [16, 16]),  # instr_shape defaulted
    ({"version": 3, "transposed": False, "warp_bases": []}, [16, 16]),  # v3 has no [16, 16, 16]
    ({"version": 2, "transposed": False, "warp_bases": [[1, 0], [1, 0]]}, [16, 16]),  # repeats cut away
    ({"version": 2, "transposed": False, "warp_bases": [[1, 0], [1, 0]]}, [16, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [[1, 0], [1, 0]]}, [64, 64]),  # repeats kept
    ({"version": 2, "transposed": False, "warp_bases": [[3, 0], [1, 0]]}, [32, 16]),  # 48 cut, 16 kept
    ({"version": 2, "transposed": False, "warp_bases": [[3, 0], [1, 0]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [[3, 0], [2, 0]]}, [32, 16]),  # cut leaves a hole
    ({"version": 2, "transposed": False, "warp_bases": [[1, 1], [1, 0]]}, [16, 32]),
    ({"version": 2, "transposed": False, "warp_bases": [[1, 1], [1, 0]]}, [32, 16]),
    ({"version": 2, "transposed": False, "warp_bases": [[3, 0, 0], [1, 0, 0]], "rank": 3}, [2, 16, 16]),
    ({"version": 2, "transposed": False, "warp_bases": [[3, 0]]}, [64, 64]),  # does not reach tile 1, 2
    ({"version": 2, "transposed": False, "warp_bases": [[2, 0]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [[1, 1]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [[0, 0]], "reg_bases": [[0, 0]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [[0, 1]], "reg_bases": [[0, 1]]}, [16, 16]),
    ({"version": 2, "transposed": False, "warp_bases": [[0, 1]], "reg_bases": [[0, 1]]}, [16, 32]),
    ({"version": 2, "transposed": False, "warp_bases": [[1, 0]], "reg_bases": [[1, 0]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0], [128, 0]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [[0, 1], [1, 0]], "cga_layout": [[1, 0], [0, 1]]}, [16, 128]),
    ({"version": 2, "transposed": False, "warp_bases": [[0, 1], [1, 0]], "cga_layout": [[2, 0], [0, 0], [1, 0]]}, [16, 128]),
    ({"version": 2, "transposed": False, "warp_bases": [[0, 1]], "reg_bases": [[1, 0], [0, 2]], "cga_layout": [[0, 0], [2, 0], [1, 0], [0, 1]]}, [1, 1]),
    ({"version": 2, "transposed": False, "warp_bases": [], "cga_layout": [[2, 0]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [], "cga_layout": [[1, 0], [0, 0], [4, 0]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [], "cga_layout": [[1, 0], [1, 0]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [], "cga_layout": [[1, 1]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [], "cga_layout": [[1, 1], [1, 0]]}, [64, 64]),
    ({"version": 3, "transposed": True, "warp_bases": [[0, 0, 1], [0, 1, 0]], "instr_shape": [32, 16, 128], "rank": 3}, [4, 64, 64]),
    ({"version": 1, "transposed": True, "warp_bases": [[0, 0, 1], [0, 1, 0]], "rank": 3}, [1, 8, 8]),
    # malformed input (Gluon's own checks or Triton's aborts)
    ({"version": 0, "transposed": False, "warp_bases": []}, [16, 16]),
    ({"version": 4, "transposed": False, "warp_bases": []}, [16, 16]),
    ({"version": 2, "transposed": False, "warp_bases": [[1, 0, 0]]}, [16, 16, 16]),  # rank not given
    ({"version": 2, "transposed": False, "warp_bases": [[1, 0]], "reg_bases": [[1, 0, 0]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [[1, 0], [1, 0, 0]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [[1, 0]], "cga_layout": [[1, 0, 0]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [[-1, 0]]}, [64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [[1]], "rank": 1}, [64]),
    ({"version": 2, "transposed": False, "warp_bases": [[1, 0, 0, 0]], "rank": 4}, [64, 64, 64, 64]),
    ({"version": 2, "transposed": False, "warp_bases": [[1, 0]]}, [64, 64, 64]),  # shape rank
    ({"version": 2, "transposed": False, "warp_bases": [[1, 0]]}, [48, 64]),  # not a power of two
    ({"version": 2, "transposed": False, "warp_bases": [], "instr_shape": [16, 16]}, [64, 64]),
]


def main() -> int:
    return generate(__doc__, seed=20261122, count=400, out=HERE / "gluon_wmma.jsonl", fixed=EDGE_CASES,
                    random_case=random_case, source=WORKER,
                    row_of=lambda c, run: {"layout": request(c)[0], "shape": c[1], **run(*request(c))})


if __name__ == "__main__":
    raise SystemExit(main())
