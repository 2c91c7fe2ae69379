"""Generate gluon_dist.jsonl: random Gluon register layouts -> Triton 3.9's linear layout (or its refusal).

    python tests/oracles/triton-3.9-generated/make_gluon_dist.py [--seed 20261124] [--count 700] [--out PATH]

Needs `triton==3.9.0` (no GPU).  Each layout is built from Gluon's own classes (nested parents
too) and converted by `GluonOpBuilder.to_linear_layout(attr, shape)` in a worker subprocess
(`triton_worker.py`); a dead worker marks the row refused.

Row format (as ../triton-3.9/gluon_ll.jsonl), keys sorted:
  {"layout": {"kind": ..., <constructor arguments>}, "shape": [...],
   "linear": {"register": [...], "lane": [...], "warp": [...], "block": [...]}}
or "error" instead of "linear".

The shared corpora hold hand-picked configurations; this one draws them at random, with what
those rarely have: CGA layouts with several and broadcast bases on every family, slices of MMA
parents, dot operands of blocked, MMA and MFMA parents, AMD MFMA with tiles_per_warp, 64-bit
accumulators and the 64x4 / 4x64 instructions, shapes from one element to 256 per dim.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from triton_worker import GLUON_LAYOUT_WORKER, TritonWorker, generate  # noqa: E402,F401 (the tests run TritonWorker live)

WORKER = GLUON_LAYOUT_WORKER


def pow2(rng: random.Random, lo: int, hi: int) -> int:
    return 1 << rng.randint(lo, hi)


def split(rng: random.Random, total_log2: int, rank: int) -> list[int]:
    """Powers of two over ``rank`` dims multiplying to 2**total_log2."""
    c = [0] * rank
    for _ in range(total_log2):
        c[rng.randrange(rank)] += 1
    return [1 << x for x in c]


def cga(rng: random.Random, rank: int) -> list[list[int]]:
    """A CGA layout: per dim the powers 1, 2, ... once each, sometimes a broadcast basis."""
    out, per = [], [0] * rank
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        v = [0] * rank
        if rng.random() < 0.85:
            d = rng.randrange(rank)
            v[d] = 1 << per[d]
            per[d] += 1
        out.append(v)
    return out


def blocked(rng: random.Random, rank: int) -> dict:
    order = list(range(rank))
    rng.shuffle(order)
    return {"kind": "BlockedLayout", "size_per_thread": [pow2(rng, 0, 3) for _ in range(rank)],
            "threads_per_warp": split(rng, 5, rank), "warps_per_cta": split(rng, rng.randint(0, 3), rank),
            "order": order, "cga_layout": cga(rng, rank)}


def nvmma(rng: random.Random, rank: int) -> dict:
    if rank == 2 and rng.random() < 0.4:
        nw = rng.choice([4, 8])
        return {"kind": "NVMMADistributedLayout", "version": [3, 0],
                "warps_per_cta": [nw, 1] if rng.random() < 0.7 else [4, nw // 4],
                "instr_shape": [16, rng.choice([8, 16, 32, 64, 128, 256]), 16], "cga_layout": cga(rng, 2)}
    return {"kind": "NVMMADistributedLayout", "version": [2, 0], "warps_per_cta": split(rng, rng.randint(0, 3), rank),
            "instr_shape": [1] * (rank - 2) + [16, 8], "cga_layout": cga(rng, rank)}


def mfma(rng: random.Random, rank: int) -> dict:
    instr = rng.choice([[32, 32, 8], [16, 16, 16], [32, 32, 16], [16, 16, 32], [64, 4, 4], [4, 64, 4], [4, 4, 4]])
    d = {"kind": "AMDMFMALayout", "version": rng.randint(1, 4), "instr_shape": instr,
         "transposed": rng.random() < 0.5 or instr[:2] == [64, 4], "warps_per_cta": split(rng, rng.randint(0, 3), rank),
         "cga_layout": cga(rng, rank)}
    if rng.random() < 0.4:
        d["tiles_per_warp"] = [pow2(rng, 0, 2) for _ in range(rank)]
    if rng.random() < 0.3:
        d["element_bitwidth"] = rng.choice([32, 64])
    return d


def random_case(rng: random.Random) -> tuple[dict, list[int]]:
    kind = rng.choice(["blocked", "blocked", "slice", "nvmma", "dot", "dot", "dot", "mfma", "mfma"])
    rank = rng.choice([1, 2, 2, 3]) if kind == "blocked" else rng.choice([2, 2, 3])
    if kind == "blocked":
        d = blocked(rng, rank)
    elif kind == "slice":
        parent = blocked(rng, rank) if rng.random() < 0.6 else nvmma(rng, rank)
        d = {"kind": "SliceLayout", "dim": rng.randrange(rank), "parent": parent}
        rank -= 1
    elif kind == "nvmma":
        d = nvmma(rng, rank)
    elif kind == "dot":
        r = rng.random()
        if r < 0.25:
            d = {"kind": "DotOperandLayout", "operand_index": rng.choice([0, 1]), "parent": blocked(rng, rank), "k_width": 0}
        elif r < 0.5:
            d = {"kind": "DotOperandLayout", "operand_index": rng.choice([0, 1]), "parent": mfma(rng, rank),
                 "k_width": rng.choice([1, 2, 4, 8, 16])}
        else:
            parent = nvmma(rng, rank)
            op = 0 if parent["version"][0] == 3 else rng.choice([0, 1])
            d = {"kind": "DotOperandLayout", "operand_index": op, "parent": parent, "k_width": rng.choice([1, 2, 4, 8, 16])}
    else:
        d = mfma(rng, rank)
    return d, [pow2(rng, 0, 8) for _ in range(rank)]


EDGE_CASES: list[tuple[dict, list[int]]] = [
    # MFMA registers run over the whole tensor's N before the CGA split: broadcast registers
    ({"kind": "AMDMFMALayout", "version": 3, "instr_shape": [16, 16, 32], "transposed": False,
      "warps_per_cta": [1, 1], "cga_layout": [[0, 1]]}, [4, 256]),
    ({"kind": "AMDMFMALayout", "version": 3, "instr_shape": [16, 16, 32], "transposed": False,
      "warps_per_cta": [1, 1, 1], "cga_layout": [[0, 0, 1]]}, [256, 4, 256]),
    ({"kind": "AMDMFMALayout", "version": 3, "instr_shape": [16, 16, 32], "transposed": False,
      "warps_per_cta": [1, 1], "cga_layout": [[1, 0]]}, [256, 4]),
    ({"kind": "AMDMFMALayout", "version": 4, "instr_shape": [32, 32, 16], "transposed": True,
      "warps_per_cta": [2, 2], "tiles_per_warp": [2, 2]}, [128, 128]),
    ({"kind": "AMDMFMALayout", "version": 3, "instr_shape": [64, 4, 4], "transposed": True,
      "warps_per_cta": [1, 1], "element_bitwidth": 64}, [64, 64]),
]


def odd_warp_cases(seed: int = 20261126, count: int = 60) -> list[tuple[dict, list[int]]]:
    """Register layouts whose warps are not 32 or 64 threads (1 to 128, powers of two): Triton's
    conversions compute them (its own unit tests use 4 threads per warp).  Drawn from their own
    seed, so the rows above stay as they were."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        rank = rng.choice([1, 2, 2, 3])
        d = blocked(rng, rank)
        d["threads_per_warp"] = split(rng, [0, 1, 2, 3, 4, 6, 7][i % 7], rank)
        kind = rng.choice(["blocked", "blocked", "slice", "dot"])
        if kind == "slice" and rank > 1:
            d = {"kind": "SliceLayout", "dim": rng.randrange(rank), "parent": d}
            rank -= 1
        elif kind == "dot" and rank > 1:
            d = {"kind": "DotOperandLayout", "operand_index": rng.choice([0, 1]), "parent": d, "k_width": 0}
        out.append((d, [pow2(rng, 0, 7) for _ in range(rank)]))
    return out


def wmma_dot_cases(seed: int = 20261127, count: int = 300) -> list[tuple[dict, list[int]]]:
    """Dot operands (A and B) of AMD WMMA parents, versions 1-3: the parents drawn as in
    ``make_gluon_wmma.py`` (every instruction shape, reg/warp tiles, CGA layouts, rank 3, some
    malformed), ``k_width`` mostly what each version accepts (v1: 8, 16; v2: 4, 8, 16; v3: powers of
    two) and sometimes not.  Drawn from their own seed, so the rows above stay as they were."""
    rng = random.Random(seed)
    return [random_wmma_dot_case(rng) for _ in range(count)]


def random_wmma_dot_case(rng: random.Random) -> tuple[dict, list[int]]:
    """One WMMA dot operand (see :func:`wmma_dot_cases`); the live test in
    ``tests/test_gluon_dist.py`` draws fresh ones."""
    import make_gluon_wmma

    ok = {1: [8, 16], 2: [4, 8, 16], 3: [1, 2, 4, 8, 16, 32, 64]}
    parent, shape = make_gluon_wmma.random_case(rng)
    kw = rng.choice(ok[parent["version"]]) if rng.random() < 0.9 else rng.choice([0, 1, 2, 3, 4, 32])
    d = {"kind": "DotOperandLayout", "operand_index": rng.choice([0, 1]), "parent": {"kind": "AMDWMMALayout", **parent},
         "k_width": kw}
    if rng.random() < 0.5:  # K larger than the instruction (repetition along K)
        k_dim = len(shape) - 1 if d["operand_index"] == 0 else len(shape) - 2
        shape = list(shape)
        shape[k_dim] = 1 << rng.randint(4, 8)
    return d, shape


def main() -> int:
    return generate(__doc__, seed=20261124, count=700, out=HERE / "gluon_dist.jsonl", fixed=EDGE_CASES + odd_warp_cases() + wmma_dot_cases(),
                    random_case=random_case, source=WORKER,
                    row_of=lambda c, run: {"layout": c[0], "shape": c[1], **run(*c)})


if __name__ == "__main__":
    raise SystemExit(main())
