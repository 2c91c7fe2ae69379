"""Generate gluon_lenient.jsonl: per-rank lists whose length Gluon's Python does not check -> Triton 3.9.

    python tests/oracles/triton-3.9-generated/make_gluon_lenient.py [--seed 20261125] [--count 300] [--out PATH]

Needs `triton==3.9.0` (no GPU).  Gluon's Python classes check some list lengths against the rank
(BlockedLayout's four lists) and leave others to Triton's C++: `AMDMFMALayout.tiles_per_warp`
(Triton's own IR reader hands out `tiles_per_warp=[1, 1, 1]` for rank-2 layouts: the C++ parser
defaults it to one entry per `instrShape` entry), `NVMMADistributedLayout`'s `version` and
`instr_shape`, the CGA bases of most families, `AMDWMMALayout.reg_bases`.  Each row builds a
layout through Gluon's own classes (nested parents too) and converts it with
`GluonOpBuilder.to_linear_layout(attr, shape)` in a worker subprocess (`triton_worker.py`);
Triton aborts on many of these, and a dead worker marks the row refused.

Row format (as ../triton-3.9/gluon_ll.jsonl), keys sorted:
  {"layout": {"kind": ..., <constructor arguments>}, "shape": [...], "linear": {<in-dim>: bases}}
with in-dims `register`, `lane`, `warp`, `block` (register layouts) or `offset`, `block` (shared
layouts), or "error" instead of "linear".

The fixed cases sweep the lengths (0 to rank + 2) and values (0, 1, 2, 4, non-powers of two, at
the entries Triton reads and the ones it ignores) on shapes where every entry shows; the random
ones draw MFMA accumulators, their dot operands and slices with tiles_per_warp of any length.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from triton_worker import GLUON_LAYOUT_WORKER, TritonWorker, generate  # noqa: E402,F401 (the tests run TritonWorker live)

WORKER = GLUON_LAYOUT_WORKER


def mfma(version: int, instr: list[int], transposed: bool, wpc: list[int], tpw: object = None, **kw: object) -> dict:
    d: dict = {"kind": "AMDMFMALayout", "version": version, "instr_shape": instr, "transposed": transposed,
               "warps_per_cta": wpc}
    if tpw is not None:
        d["tiles_per_warp"] = tpw
    d.update(kw)
    return d


def _tpw_sweep() -> list[tuple[dict, list[int]]]:
    """tiles_per_warp of every length and of telling values, on shapes where each entry shows."""
    out: list[tuple[dict, list[int]]] = []
    lists2 = [[], [1], [2], [1, 1], [2, 1], [1, 2], [2, 2], [1, 1, 1], [2, 1, 1], [1, 2, 1], [1, 1, 2], [2, 4, 1],
              [1, 1, 3], [1, 1, 0], [0, 1], [1, 0], [0, 0, 1], [3, 1], [1, 3, 1], [1, 1, 1, 1], [2, 1, 1, 1],
              [1, 2, 5, 7], [1, 1, -1], [1, 1, 4294967296], [4, 1, 1]]
    for tpw in lists2:
        for instr, tr, wpc, shape in (([32, 32, 8], True, [4, 1], [256, 128]), ([16, 16, 16], False, [2, 2], [128, 128]),
                                      ([32, 32, 8], False, [1, 2], [64, 256])):
            out.append((mfma(3, instr, tr, wpc, tpw), shape))
    lists3 = [[], [1, 1], [2, 2], [1, 1, 1], [1, 2, 1], [1, 1, 2], [4, 1, 1], [3, 1, 1], [0, 1, 1], [1, 2, 2, 1],
              [1, 1, 1, 2], [1, 1, 1, 1, 1], [2, 2, 2, 2, 2]]
    for tpw in lists3:
        out.append((mfma(4, [16, 16, 32], False, [1, 2, 2], tpw), [2, 128, 128]))
        out.append((mfma(2, [32, 32, 8], True, [2, 1, 2], tpw), [4, 128, 128]))
    # dot operands and slices of parents with long or short tiles_per_warp
    for tpw in ([1, 1, 1], [2, 1, 1], [1, 2, 1], [1, 1, 2], [1], [2, 2, 2, 2], [], [1, 0, 1], [0, 1, 1]):
        parent = mfma(3, [16, 16, 16], False, [2, 2], tpw)
        for op in (0, 1):
            out.append(({"kind": "DotOperandLayout", "operand_index": op, "parent": parent, "k_width": 4}, [128, 128]))
        for dim in (0, 1):
            out.append(({"kind": "SliceLayout", "dim": dim, "parent": parent}, [128]))
    # 64-bit accumulators and the 4x64 instruction with a rank+1 list
    out.append((mfma(3, [16, 16, 4], False, [2, 2], [1, 2, 1], element_bitwidth=64), [64, 64]))
    out.append((mfma(4, [4, 64, 4], False, [1, 4], [2, 1, 1]), [16, 256]))
    out.append((mfma(3, [32, 32, 8], True, [2, 2], [2, 2, 1], cga_layout=[[1, 0], [0, 1]]), [256, 256]))
    return out


def _other_families() -> list[tuple[dict, list[int]]]:
    """The other lists Gluon's Python leaves unchecked: NVIDIA MMA's version and instr_shape, CGA
    bases of the wrong length, WMMA's reg_bases, shared layouts' order and CGA."""
    nv = "NVMMADistributedLayout"
    out: list[tuple[dict, list[int]]] = [
        ({"kind": nv, "version": [2, 0], "warps_per_cta": [2, 2], "instr_shape": [16, 8]}, [64, 64]),
        ({"kind": nv, "version": [2], "warps_per_cta": [2, 2], "instr_shape": [16, 8]}, [64, 64]),
        ({"kind": nv, "version": [2, 0, 0], "warps_per_cta": [2, 2], "instr_shape": [16, 8]}, [64, 64]),
        ({"kind": nv, "version": [2, 1], "warps_per_cta": [2, 2], "instr_shape": [16, 8]}, [64, 64]),
        ({"kind": nv, "version": [2, 0], "warps_per_cta": [2, 2], "instr_shape": [16, 8, 16]}, [64, 64]),
        ({"kind": nv, "version": [2, 0], "warps_per_cta": [2, 2], "instr_shape": [16]}, [64, 64]),
        ({"kind": nv, "version": [2, 0], "warps_per_cta": [2, 2], "instr_shape": [1, 16, 8]}, [64, 64]),
        ({"kind": nv, "version": [2, 0], "warps_per_cta": [1, 2, 2], "instr_shape": [1, 16, 8]}, [2, 64, 64]),
        ({"kind": nv, "version": [2, 0], "warps_per_cta": [1, 2, 2], "instr_shape": [16, 8]}, [2, 64, 64]),
        ({"kind": nv, "version": [3, 0], "warps_per_cta": [4, 1], "instr_shape": [16, 64, 16]}, [64, 64]),
        ({"kind": nv, "version": [3, 0], "warps_per_cta": [4, 1], "instr_shape": [16, 64]}, [64, 64]),
        ({"kind": nv, "version": [3, 0], "warps_per_cta": [4, 1], "instr_shape": [16, 64, 16, 1]}, [64, 64]),
        ({"kind": nv, "version": [3], "warps_per_cta": [4, 1], "instr_shape": [16, 64, 16]}, [64, 64]),
        ({"kind": nv, "version": [3, 0, 7], "warps_per_cta": [4, 1], "instr_shape": [16, 64, 16]}, [64, 64]),
        ({"kind": nv, "version": [2, 0], "warps_per_cta": [2, 2], "instr_shape": [16, 8], "cga_layout": [[1, 0, 0]]}, [64, 64]),
        ({"kind": nv, "version": [2, 0], "warps_per_cta": [2, 2], "instr_shape": [16, 8], "cga_layout": [[1]]}, [64, 64]),
        ({"kind": nv, "version": [1, 0], "warps_per_cta": [2, 2], "instr_shape": [16, 8]}, [64, 64]),
        ({"kind": nv, "version": [5, 0], "warps_per_cta": [2, 2], "instr_shape": [16, 8]}, [64, 64]),
        ({"kind": nv, "version": [2, -1], "warps_per_cta": [2, 2], "instr_shape": [16, 8]}, [64, 64]),
        # the instruction tile: any multiples of 8 with power-of-two eighths (0 adds nothing)
        *[({"kind": nv, "version": [2, 0], "warps_per_cta": [2, 2], "instr_shape": i}, [64, 64])
          for i in ([16, 16], [32, 8], [8, 8], [128, 256], [0, 8], [16, 0], [24, 8], [4, 8], [16, 4], [16, -8])],
        ({"kind": nv, "version": [2, 0], "warps_per_cta": [1, 2, 2], "instr_shape": [2, 16, 8]}, [4, 64, 64]),
        ({"kind": nv, "version": [2, 0], "warps_per_cta": [1, 2, 2], "instr_shape": [0, 16, 8]}, [4, 64, 64]),
        *[({"kind": nv, "version": [3, 0], "warps_per_cta": [4, 1], "instr_shape": i}, [64, 64])
          for i in ([16, 512, 16], [32, 64, 16], [16], [16, 24, 16], [16, 4, 16], [0, 64, 16])],
        # wgmma with fewer than a warpgroup, and of rank 3 (the accumulator aborts, operand A is computed)
        ({"kind": nv, "version": [3, 0], "warps_per_cta": [2, 1], "instr_shape": [16, 64, 16]}, [64, 64]),
        ({"kind": nv, "version": [3, 0], "warps_per_cta": [1, 1], "instr_shape": [16, 64, 16]}, [64, 64]),
        ({"kind": nv, "version": [3, 0], "warps_per_cta": [1, 4, 1], "instr_shape": [16, 64, 16]}, [2, 64, 64]),
        ({"kind": "DotOperandLayout", "operand_index": 0, "k_width": 2,
          "parent": {"kind": nv, "version": [3, 0], "warps_per_cta": [1, 4, 1], "instr_shape": [16, 64, 16]}}, [2, 64, 64]),
        ({"kind": "DotOperandLayout", "operand_index": 0, "k_width": 2,
          "parent": {"kind": nv, "version": [3, 0], "warps_per_cta": [2, 1], "instr_shape": [16, 64]}}, [64, 64]),
        # wgmma operand A: its tile has instr_shape[rank - 2] rows (M for rank 2; N for rank 3)
        *[({"kind": "DotOperandLayout", "operand_index": 0, "k_width": k,
            "parent": {"kind": nv, "version": [3, 0], "warps_per_cta": w, "instr_shape": i}}, shp)
          for i, w, k, shp in (([32, 64, 16], [4, 1], 2, [128, 64]), ([64, 64, 16], [4, 1], 2, [256, 64]),
                               ([0, 64, 16], [4, 1], 2, [128, 64]), ([24, 64, 16], [4, 1], 2, [128, 64]),
                               ([4, 64, 16], [4, 1], 2, [128, 64]), ([], [4, 1], 2, [64, 64]),
                               ([16, 32, 16], [1, 4, 1], 2, [2, 64, 64]), ([16, 8, 16], [1, 4, 1], 2, [2, 64, 64]),
                               ([16, 64, 16], [1, 4, 1], 2, [2, 256, 64]), ([16, 64, 16], [2, 2, 2], 2, [4, 64, 64]),
                               ([16, 64, 16], [2, 4, 1], 4, [4, 256, 64]), ([16, 64, 16], [1, 1, 1], 2, [2, 16, 16]),
                               ([16, 24, 16], [1, 4, 1], 2, [2, 64, 64]), ([16], [1, 4, 1], 2, [2, 64, 64]))],
        ({"kind": "DotOperandLayout", "operand_index": 0, "k_width": 2,
          "parent": {"kind": nv, "version": [2, 0], "warps_per_cta": [4, 1], "instr_shape": [16]}}, [64, 64]),
        ({"kind": "SliceLayout", "dim": 0,
          "parent": {"kind": nv, "version": [3, 0], "warps_per_cta": [2, 1], "instr_shape": [16, 64, 16]}}, [64]),
        ({"kind": "BlockedLayout", "size_per_thread": [1, 1], "threads_per_warp": [8, 4], "warps_per_cta": [2, 2],
          "order": [1, 0], "cga_layout": [[1, 0, 0]]}, [64, 64]),
        ({"kind": "BlockedLayout", "size_per_thread": [1, 1], "threads_per_warp": [8, 4], "warps_per_cta": [2, 2],
          "order": [1, 0], "cga_layout": [[1, 0], [0]]}, [64, 64]),
        ({"kind": "SliceLayout", "dim": 1, "parent": {"kind": nv, "version": [2, 0, 0], "warps_per_cta": [2, 2],
                                                       "instr_shape": [16, 8, 16]}}, [64]),
        ({"kind": "DotOperandLayout", "operand_index": 0, "k_width": 2,
          "parent": {"kind": nv, "version": [2, 0, 0], "warps_per_cta": [2, 2], "instr_shape": [16, 8, 16]}}, [64, 64]),
        ({"kind": "AMDWMMALayout", "version": 2, "transposed": False, "warp_bases": [[0, 1]], "reg_bases": [[1, 0, 0]],
          "rank": 2}, [64, 64]),
        ({"kind": "AMDWMMALayout", "version": 2, "transposed": False, "warp_bases": [[0, 1], [1]]}, [64, 64]),
        ({"kind": "AMDWMMALayout", "version": 2, "transposed": False, "warp_bases": [], "reg_bases": [[1]]}, [64, 64]),
        ({"kind": "AMDWMMALayout", "version": 2, "transposed": False, "warp_bases": [[0, 1]],
          "cga_layout": [[1, 0], [0]]}, [64, 64]),
        ({"kind": "SwizzledSharedLayout", "vec": 2, "per_phase": 1, "max_phase": 4, "order": [1, 0],
          "cga_layout": [[1, 0, 0]]}, [64, 64]),
        ({"kind": "SwizzledSharedLayout", "vec": 2, "per_phase": 1, "max_phase": 4, "order": [1, 0],
          "cga_layout": [[1, 0], [0]]}, [64, 64]),
        ({"kind": "SwizzledSharedLayout", "vec": 2, "per_phase": 1, "max_phase": 4, "order": [1, 0, 2]}, [64, 64]),
        ({"kind": "SwizzledSharedLayout", "vec": 2, "per_phase": 1, "max_phase": 4, "order": [0]}, [64, 64]),
        ({"kind": "NVMMASharedLayout", "swizzle_byte_width": 128, "element_bitwidth": 16, "rank": 2,
          "cga_layout": [[1, 0], [0]]}, [64, 64]),
        ({"kind": "NVMMASharedLayout", "swizzle_byte_width": 128, "element_bitwidth": 16, "rank": 2,
          "cga_layout": [[1, 0], [0, 0, 1]]}, [64, 64]),
        ({"kind": "NVMMASharedLayout", "swizzle_byte_width": 64, "element_bitwidth": 16, "rank": 3}, [2, 64, 64]),
        ({"kind": "NVMMASharedLayout", "swizzle_byte_width": 64, "element_bitwidth": 16, "rank": 1}, [64]),
    ]
    return out


EDGE_CASES = _tpw_sweep() + _other_families()


def random_case(rng: random.Random) -> tuple[dict, list[int]]:
    """An MFMA accumulator, dot operand or slice whose parent's tiles_per_warp has any length."""
    rank = rng.choice([2, 2, 3])
    version = rng.randint(1, 4)
    instr = rng.choice([[32, 32, 8], [16, 16, 16], [32, 32, 16], [16, 16, 32]])
    wpc = [1 << rng.randint(0, 2) for _ in range(rank)]
    length = rng.choice([0, rank, rank, rank + 1, rank + 1, rank + 1, rank + 2, rank - 1])
    tpw = [rng.choice([1, 1, 1, 2, 2, 4, 0]) for _ in range(length)]
    kw: dict = {}
    if rng.random() < 0.2:
        kw["element_bitwidth"] = 64
    if rng.random() < 0.2:
        d = rng.randrange(rank)
        v = [0] * rank
        v[d] = 1
        kw["cga_layout"] = [v]
    parent = mfma(version, instr, rng.random() < 0.5, wpc, tpw, **kw)
    shape = [1 << rng.randint(0, 2) for _ in range(rank - 2)] + [1 << rng.randint(4, 8) for _ in range(2)]
    what = rng.random()
    if what < 0.5:
        return parent, shape
    if what < 0.8:
        return {"kind": "DotOperandLayout", "operand_index": rng.randint(0, 1), "parent": parent,
                "k_width": rng.choice([1, 2, 4, 8, 16])}, shape
    dim = rng.randrange(rank)
    return {"kind": "SliceLayout", "dim": dim, "parent": parent}, shape[:dim] + shape[dim + 1:]


def main() -> int:
    return generate(__doc__, seed=20261125, count=300, out=HERE / "gluon_lenient.jsonl", fixed=EDGE_CASES,
                    random_case=random_case, source=WORKER,
                    row_of=lambda c, run: {"layout": c[0], "shape": c[1], **run(*c)})


if __name__ == "__main__":
    raise SystemExit(main())
