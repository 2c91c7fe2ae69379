"""Generate tmem_reg.jsonl: Triton 3.9's register layouts for tensor-memory loads and stores.

    python tests/oracles/triton-3.9-generated/make_tmem_reg.py [--seed 20261123] [--count 900] [--out PATH]

Needs `triton==3.9.0` (no GPU).  Each configuration goes through Gluon's own entry point,
`triton.experimental.gluon.language._semantic._compute_tmem_reg_layout(element_ty, shape,
alloc_shape, layout, num_warps, instr_variant)` (what `tensor_memory_descriptor.get_reg_layout`
calls), in a worker subprocess (`triton_worker.py`): Triton aborts the process on some invalid
configurations, and a dead worker marks the row as refused.

Row format, one JSON object per line, keys sorted:
  {"tmem": {"kind": "TensorMemoryLayout" | "TensorMemoryScalesLayout", <constructor arguments>},
   "element_ty": "float16", "bitwidth": 16, "shape": [M, N], "alloc_shape": [...],
   "num_warps": 4, "instr_variant": "32x32b",
   "linear": {"register": [...], "lane": [...], "warp": [...], "block": [...]}}
or, where Triton refused, "error" instead of "linear" ("triton raised <Exception>: <message>" or
"triton aborted (status 6): <message>").

Configurations are random but seeded: every access variant (32x32b, 16x64b, 16x128b, 16x256b,
32x32b_splitn, and the refused 16x32bx2), 8/16/32-bit element types (and a 64-bit one), blocks of
64 and 128 rows and 1..512 columns, packed, unpacked and padded column strides, tensors smaller
and larger than the block, views of larger allocations, CGA layouts (with two_ctas), padded fp4, 4 to 16 warps, multi-buffered alloc shapes, scale-factor layouts, plus a
fixed sweep of the common cases and malformed input, and the fixed rows where a live comparison once
caught us out (`short_column_cases`: 8-bit loads of allocations narrower than a 32-bit column).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from triton_worker import TritonWorker, generate  # noqa: E402,F401 (the tests run TritonWorker live)

WORKER = r"""
import json, sys
import triton.experimental.gluon.language as gl
from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryLayout, TensorMemoryScalesLayout
from triton.experimental.gluon.language._semantic import _compute_tmem_reg_layout
KINDS = {"TensorMemoryLayout": TensorMemoryLayout, "TensorMemoryScalesLayout": TensorMemoryScalesLayout}
for line in sys.stdin:
    (cfg,) = json.loads(line)
    try:
        args = dict(cfg["tmem"])
        lay = KINDS[args.pop("kind")](**args)
        r = _compute_tmem_reg_layout(getattr(gl, cfg["element_ty"]), cfg["shape"], cfg["alloc_shape"], lay,
                                     cfg["num_warps"], cfg["instr_variant"])
        out = {"linear": {"register": r.reg_bases, "lane": r.lane_bases, "warp": r.warp_bases, "block": r.block_bases}}
        if list(r.shape) != list(cfg["shape"]):
            out = {"error": f"triton returned shape {list(r.shape)}"}
    except Exception as e:
        out = {"error": f"triton raised {type(e).__name__}: {e}"}
    sys.stdout.write("@@" + json.dumps(out) + "\n")
    sys.stdout.flush()
"""

BITS = {"float32": 32, "int32": 32, "float16": 16, "bfloat16": 16, "float8e4nv": 8, "float8e5": 8, "int8": 8, "uint8": 8,
        "float64": 64}
VARIANTS = ["32x32b", "16x64b", "16x128b", "16x256b", "32x32b_splitn"]


def case(tmem: dict, dtype: str, shape: list, nw: int, variant: str, alloc: list | None = None) -> dict:
    return {"tmem": tmem, "element_ty": dtype, "bitwidth": BITS[dtype], "shape": shape,
            "alloc_shape": alloc if alloc is not None else list(shape), "num_warps": nw, "instr_variant": variant}


CGAS = [[[1, 0]], [[0, 1]], [[1, 0], [0, 1]], [[0, 1], [1, 0]], [[1, 0], [2, 0]], [[0, 0]], [[1, 0], [0, 0]], [[0, 1], [0, 2]]]


def with_cga(rng: random.Random, shape: list) -> tuple[list, list]:
    """A CGA layout (CTA-tile units) and the shape, usually grown so that each CTA keeps its tile."""
    cga = rng.choice(CGAS)
    if rng.random() < 0.85:
        shape = [s << sum(1 for b in cga if b[d]) for d, s in enumerate(shape)]
    return cga, shape


def random_case(rng: random.Random) -> dict:
    variant = rng.choice(VARIANTS + (["16x32bx2"] if rng.random() < 0.03 else []))
    nw = rng.choice([4, 4, 4, 8, 8, 16]) if rng.random() > 0.03 else rng.choice([2, 32])
    if rng.random() < 0.15:  # scale factors: 8-bit, 4 per 32-bit column
        dtype = rng.choice(["uint8", "uint8", "float8e4nv", "float16"])
        shape = [1 << rng.randint(7, 9), 1 << rng.randint(1, 5)]
        tmem: dict = {"kind": "TensorMemoryScalesLayout"}
        if rng.random() < 0.2:
            tmem["cga_layout"], shape = with_cga(rng, shape)
        alloc = [shape[0] * rng.choice([1, 2]), shape[1] * rng.choice([1, 2])] if rng.random() < 0.2 else None
        return case(tmem, dtype, shape, nw, variant, alloc)
    dtype = rng.choice(["float32", "float32", "float16", "bfloat16", "float8e4nv", "int8", "int32"]
                       + (["float64"] if rng.random() < 0.05 else []))
    bits = BITS[dtype]
    bm = rng.choice([64, 128, 128])
    bn = 1 << rng.choice([0, 2, 3, 4, 5, 5, 6, 6, 7, 7, 8, 9])
    if rng.random() < 0.8:
        cs = rng.choice([1, max(1, 32 // bits)])
    else:
        cs = rng.choice([1, 2, 4, 8])
    tmem = {"kind": "TensorMemoryLayout", "block": [bm, bn], "col_stride": cs}
    if rng.random() < 0.03:
        tmem["two_ctas"] = True
    if bits <= 16 and rng.random() < 0.2:  # fp4 pairs in bytes, one byte of padding after each
        tmem["fp4_padded"] = True
    m = bm << rng.choice([0, 0, 0, 1, 1, 2]) if rng.random() > 0.04 else bm // 2
    n = bn << rng.choice([0, 0, 1, 2]) if rng.random() > 0.15 else max(1, bn >> rng.randint(1, 3))
    n = min(n, 1024)
    if rng.random() < 0.15:  # several CTAs; two_ctas pairs the first two along M
        tmem["cga_layout"], (m, n) = with_cga(rng, [m, n])
        if tmem["cga_layout"][0] == [1, 0] and rng.random() < 0.4:
            tmem["two_ctas"] = True
    alloc = None
    r = rng.random()
    if r < 0.12:  # multi-buffered
        alloc = [rng.choice([2, 3, 4]), m, n]
    elif r < 0.3:  # a view of a larger allocation
        alloc = [m * rng.choice([1, 1, 2]), n * rng.choice([1, 2, 4])]
    return case(tmem, dtype, [m, n], nw, variant, alloc)


def edge_cases() -> list[dict]:
    out = []
    for variant in VARIANTS:  # the common accumulator tiles
        for dtype in ("float32", "float16", "float8e4nv"):
            bits = BITS[dtype]
            for bm, m in ((128, 128), (64, 64), (64, 128), (128, 256)):
                for n in (16, 64, 256):
                    for nw in (4, 8):
                        cs = 1 if packed(bm, n, nw) else 32 // bits
                        out.append(case({"kind": "TensorMemoryLayout", "block": [bm, n], "col_stride": cs}, dtype, [m, n], nw, variant))
    bad = {"kind": "TensorMemoryLayout", "block": [128, 64], "col_stride": 1}
    out += [
        case(bad, "float32", [128, 64], 4, "16x32bx2"),
        case(bad, "float32", [128, 64], 4, "64x64b"),
        case(bad, "float32", [128, 64], 2, "32x32b"),
        case(bad, "float32", [128, 64], 6, "32x32b"),
        case(bad, "float64", [128, 64], 4, "32x32b"),
        case({**bad, "col_stride": 2}, "float32", [128, 64], 4, "32x32b"),
        case({**bad, "col_stride": 2}, "float8e4nv", [128, 64], 4, "32x32b"),
        case({**bad, "block": [128, 4]}, "float32", [128, 4], 4, "16x256b"),
        case({**bad, "two_ctas": True}, "float32", [256, 64], 4, "32x32b"),
        case({**bad, "cga_layout": [[128, 0]]}, "float32", [256, 64], 4, "32x32b"),
        case(bad, "float32", [64, 64], 4, "32x32b"),
        case({"kind": "TensorMemoryScalesLayout"}, "uint8", [128, 16], 4, "32x32b"),
        case({"kind": "TensorMemoryScalesLayout"}, "uint8", [256, 8], 8, "32x32b"),
        # found by the live comparison: a view narrower than the CTAs' blocks; a two-CTA 64-row
        # block with a single column slot per lane half
        case({"kind": "TensorMemoryLayout", "block": [128, 8], "col_stride": 1, "cga_layout": [[0, 1], [0, 2]]},
             "float8e4nv", [256, 8], 8, "16x64b", [256, 32]),
        case({"kind": "TensorMemoryLayout", "block": [64, 1], "col_stride": 2, "cga_layout": [[1, 0], [2, 0]],
              "two_ctas": True}, "bfloat16", [512, 1], 16, "32x32b"),
        case({"kind": "TensorMemoryLayout", "block": [64, 2], "col_stride": 1, "cga_layout": [[1, 0]],
              "two_ctas": True}, "float32", [128, 2], 4, "32x32b"),
    ]
    return out


def packed(bm: int, n: int, nw: int) -> bool:
    """Packed (col_stride 1) for most sweep rows, unpacked/padded for a fixed third of them."""
    return (bm + n + nw) % 3 != 0


def narrow_view_cases() -> list[dict]:
    """Views 1 to 8 columns wide of a [128, 64] (or [64, 64]) allocation, for every element width,
    packed, unpacked and padded column stride, padded fp4 and access variant: the subviews whose
    column bases the shape cuts down to the element slots of one 32-bit column (issue 17).  The
    rows above stay as they were."""
    out = []
    for dtype, bits in (("float8e4nv", 8), ("float16", 16), ("float32", 32)):
        for cs in (1, 2, 4):
            if bits * cs > 32:
                continue
            for fp4 in (False, True) if cs == 1 else (False,):
                for bm in (128, 64):
                    for n in (1, 2, 4, 8):
                        for variant in ("32x32b", "16x64b", "16x128b", "16x256b"):
                            tmem = {"kind": "TensorMemoryLayout", "block": [bm, 64], "col_stride": cs}
                            if fp4:
                                tmem["fp4_padded"] = True
                            out.append(case(tmem, dtype, [bm, n], 4, variant, [bm, 64]))
    return out


def short_column_cases() -> list[dict]:
    """8-bit loads whose allocation has fewer element slots than the four of a 32-bit column (one
    padded-fp4 column, col_stride 2 with one column, one-column blocks seen through a narrow view):
    Triton 3.9 accepts them with 32x32b, the view spanning the whole 32-bit column.  First the
    configurations where the live comparison caught us refusing them (seed 111334163 of the
    reference test, then seeds 1-11 of 5,000 draws each), then a sweep of the class (the other
    rows are unchanged)."""
    found = [
        ({"block": [64, 8], "col_stride": 1, "fp4_padded": True}, "float8e4nv", [64, 1], 4, "32x32b", None),
        ({"block": [64, 1], "col_stride": 1, "fp4_padded": True}, "int8", [64, 1], 16, "32x32b", None),
        ({"block": [64, 1], "cga_layout": [[0, 0]], "col_stride": 1, "fp4_padded": True}, "float8e4nv", [64, 1], 4,
         "32x32b_splitn", None),
        ({"block": [64, 1], "col_stride": 2}, "float8e4nv", [64, 2], 4, "32x32b", None),
        ({"block": [128, 1], "col_stride": 1, "fp4_padded": True}, "int8", [128, 1], 8, "32x32b", [3, 128, 1]),
        ({"block": [128, 8], "col_stride": 1, "fp4_padded": True}, "float8e4nv", [128, 1], 16, "32x32b", None),
        ({"block": [64, 8], "col_stride": 1, "fp4_padded": True}, "int8", [64, 1], 8, "32x32b", [2, 64, 1]),
        ({"block": [64, 1], "col_stride": 1, "fp4_padded": True}, "float8e4nv", [64, 1], 8, "32x32b", None),
        ({"block": [64, 1], "col_stride": 2}, "float8e4nv", [64, 1], 8, "32x32b_splitn", None),
        ({"block": [64, 1], "col_stride": 2}, "float8e4nv", [64, 1], 4, "32x32b", None),
        ({"block": [64, 1], "col_stride": 1}, "int8", [64, 1], 4, "32x32b", [128, 2]),
        ({"block": [64, 1], "cga_layout": [[0, 1], [0, 2]], "col_stride": 1, "fp4_padded": True}, "float8e4nv",
         [64, 4], 4, "32x32b", None),
        ({"block": [128, 8], "cga_layout": [[1, 0]], "col_stride": 1, "fp4_padded": True, "two_ctas": True}, "int8",
         [256, 1], 4, "32x32b", None),
        ({"block": [64, 8], "col_stride": 1}, "float8e4nv", [64, 1], 4, "32x32b_splitn", [64, 2]),
        ({"block": [64, 1], "col_stride": 2}, "int8", [128, 1], 4, "32x32b", None),
        ({"block": [64, 1], "col_stride": 1, "fp4_padded": True}, "int8", [128, 1], 4, "32x32b", None),
        ({"block": [64, 1], "col_stride": 1, "fp4_padded": True}, "float8e4nv", [64, 1], 4, "32x32b_splitn", None),
    ]
    out = [case({"kind": "TensorMemoryLayout", **t}, dt, shape, nw, v, alloc) for t, dt, shape, nw, v, alloc in found]
    for bm in (64, 128):
        for bn in (1, 2):
            for extra in ({"col_stride": 1}, {"col_stride": 2}, {"col_stride": 1, "fp4_padded": True}):
                tmem = {"kind": "TensorMemoryLayout", "block": [bm, bn], **extra}
                for n, an in ((1, 1), (1, 2), (2, 2), (2, 4)):
                    for i, variant in enumerate(("32x32b", "32x32b_splitn", "16x64b")):
                        out.append(case(tmem, "float8e4nv", [bm, n], 4 << (i % 2), variant, [bm, an]))
                    out.append(case(tmem, "int8", [2 * bm, n], 4, "32x32b", [2 * bm, an]))  # a second block along M
    unique: dict[str, dict] = {}
    for c in out:  # the sweep repeats some of the reproducers
        unique.setdefault(json.dumps(c, sort_keys=True), c)
    return list(unique.values())


def main() -> int:
    return generate(__doc__, seed=20261123, count=900, out=HERE / "tmem_reg.jsonl", fixed=edge_cases() + narrow_view_cases() + short_column_cases(),
                    random_case=random_case, source=WORKER, row_of=lambda c, run: {**c, **run(c)})


if __name__ == "__main__":
    raise SystemExit(main())
