"""Generate cvt_general.jsonl: conversions between *general* distributed linear layouts (bases
that are XOR combinations, lanes in the span of registers, ...) and what Triton 3.9 does with
them, next to permutation-layout controls of the same sizes that Triton lowers.

    python tests/oracles/triton-3.9-ir/make_cvt_general.py          # needs triton==3.9.0, no GPU

Each case (source and destination bases per in-dim ``register``/``lane``/``warp``, the tensor
shape, element type, warps) is given to Triton twice, each in its own process:

* ``ttgir``: the one-op module of ``make_cvt_ptx.py`` (volatile load in the source layout,
  ``ttg.convert_layout``, store in the destination layout), layouts written ``#ttg.linear<...>``,
  compiled from TTGIR for ``cuda:90``: the PTX instruction counts and ``metadata.shared``, or
  Triton's diagnostic (the MLIR verifier's message read from the compiler's stderr);
* ``gluon``: a Gluon kernel loading a ``BlockedLayout`` tensor, ``gl.convert_layout`` to
  ``gl.DistributedLinearLayout(src)``, to ``(dst)`` and back, storing it (``triton.compile`` of a
  ``GluonASTSource``): the same counts, or how Triton refused or aborted.

Cases: the pair of ``tests/test_simulate.py::test_lane_copy_in_other_registers``; the general
pairs (``FIXED``) on which linlayout 422badb planned a round trip that ``linlayout.simulate``
showed wrong (ldmatrix/stmatrix rows inside a row, rounds that differ per lane); ``--count``
random general pairs and as many random permutation pairs (Triton's kind: each non-zero basis a
distinct power of two), seeded; then ``--in-warp`` pairs of one warp's exchange (``in_warp_case``,
from their own seeded generator, so the rows above do not change): a permutation pair whose
register and lane bases trade 0 to 2 register<->lane swaps (the warps alike), made general on one
side or both -- a lane XOR-combined with another lane or a register, a lane holding what a
register or another lane holds, a warp basis XOR-combined with a register or lane -- or kept a
permutation (plain, with a broadcast lane, or spelled ``#ttg.generic_linear``).  Row (keys sorted): ``case``, ``src``, ``dst`` (``{"register":
[[...]], "lane": ..., "warp": ...}``), ``shape``, ``dtype``, ``num_warps``, ``target``,
``ttgir`` and ``gluon`` (each ``{"ptx_counts": {...}, "shared_bytes": n}`` or ``{"error": ...}``).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

PATS = {"shfl": r"shfl\.sync", "st_shared": r"st\.shared", "ld_shared": r"ld\.shared", "bar_sync": r"(bar|barrier)\.sync",
        "stmatrix": r"stmatrix", "ldmatrix": r"ldmatrix", "selp": r"selp", "prmt": r"prmt"}

# One compilation per process: Triton aborts the process on some of these layouts.
RUNNER = r'''
import json, os, re, sys, tempfile
import triton
from triton.backends.compiler import GPUTarget
req = json.loads(sys.argv[1])
PATS = req["pats"]
try:
    if req["route"] == "ttgir":
        path = os.path.join(tempfile.mkdtemp(), "cvt.ttgir")
        open(path, "w").write(req["module"])
        k = triton.compile(path, target=GPUTarget("cuda", 90, 32))
    else:
        sys.path.insert(0, req["dir"])
        from gluon_cvt import compile_case
        k = compile_case(req)
    ptx = k.asm["ptx"]
    if req.get("keep"):
        for ext in ("ttgir", "llir", "ptx"):
            open(req["keep"] + "." + ext, "w").write(k.asm[ext])
    out = {"ptx_counts": {n: len(re.findall(r"^\s*(?:@!?%p\d+\s+)?" + p + r"\b", ptx, re.M)) for n, p in PATS.items()},
           "shared_bytes": int(k.metadata.shared)}
except Exception as e:
    out = {"error": f"triton raised {type(e).__name__}: " + str(e).strip().splitlines()[-1]}
print("@@" + json.dumps(out))
'''

GLUON = r'''
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon._runtime import GluonASTSource
from triton.backends.compiler import GPUTarget


@gluon.jit
def cvt_kernel(inp, out, SRC: gl.constexpr, DST: gl.constexpr, IO: gl.constexpr, M: gl.constexpr, N: gl.constexpr):
    rows = gl.arange(0, M, gl.SliceLayout(1, IO))
    cols = gl.arange(0, N, gl.SliceLayout(0, IO))
    offs = rows[:, None] * N + cols[None, :]
    x = gl.convert_layout(gl.load(inp + offs), SRC)
    y = gl.convert_layout(x, DST)
    gl.store(out + offs, gl.convert_layout(y, IO))


def compile_case(req):
    m, n = req["shape"]
    lin = lambda b: gl.DistributedLinearLayout(b["register"], b["lane"], b["warp"], [], [m, n])
    io = gl.BlockedLayout([1, 1], [1, 32], [1, req["num_warps"]], [1, 0])
    ce = {"SRC": lin(req["src"]), "DST": lin(req["dst"]), "IO": io, "M": m, "N": n}
    t = {"f16": "*fp16", "f32": "*fp32", "i8": "*i8", "i64": "*i64"}[req["dtype"]]
    sig = {"inp": t, "out": t, "SRC": "constexpr", "DST": "constexpr", "IO": "constexpr", "M": "constexpr", "N": "constexpr"}
    return triton.compile(GluonASTSource(fn=cvt_kernel, signature=sig, constexprs=ce), target=GPUTarget("cuda", 90, 32),
                          options={"num_warps": req["num_warps"]})
'''

DTYPE = {8: "i8", 16: "f16", 32: "f32", 64: "i64"}


def _bases(d: dict) -> tuple[dict, list[int]]:
    """``LinearLayout.to_dict()`` form -> bases per in-dim (``warp`` always there) and the shape."""
    b = {n: [list(v) for v in vs] for n, vs in d["bases"]}
    b.setdefault("warp", [])
    return {k: b[k] for k in ("register", "lane", "warp")}, [s for _, s in d["out_dims"]]


#: (src, dst, bits): test_lane_copy_in_other_registers' pair (register 28 = 16 ^ 8 ^ 4 mixes bits:
#: outside Triton's domain), then pairs of Triton's domain (see random_case) that linlayout 422badb
#: mis-planned (found by simulating its plans of random such pairs; what went wrong in the comment).
FIXED = [
    ({"bases": [["register", [[0, 1], [0, 28]]], ["lane", [[0, 16], [0, 2], [0, 32], [0, 8], [0, 4]]]], "out_dims": [["dim0", 1], ["dim1", 64]]},
     {"bases": [["register", [[0, 2], [0, 13]]], ["lane", [[0, 1], [0, 4], [0, 16], [0, 32], [0, 8]]]], "out_dims": [["dim0", 1], ["dim1", 64]]}, 32),
    ({"bases": [["register", [[0, 4], [2, 0], [1, 0], [4, 0]]], ["lane", [[4, 0], [0, 16], [0, 26], [0, 7], [0, 2]]], ["warp", []]], "out_dims": [["dim0", 8], ["dim1", 32]]},
     {"bases": [["register", [[2, 0], [0, 1], [0, 2], [4, 0]]], ["lane", [[0, 16], [0, 20], [3, 0], [0, 0], [0, 27]]], ["warp", []]], "out_dims": [["dim0", 8], ["dim1", 32]]}, 16),  # 422badb: stmatrix.trans/ld.shared, rounds differ per lane
    ({"bases": [["register", [[2, 0], [1, 0], [16, 0], [0, 8]]], ["lane", [[0, 1], [4, 0], [11, 0], [0, 12], [0, 14]]], ["warp", []]], "out_dims": [["dim0", 32], ["dim1", 16]]},
     {"bases": [["register", [[16, 0], [0, 1], [0, 8], [2, 0]]], ["lane", [[0, 5], [4, 0], [24, 0], [0, 3], [5, 0]]], ["warp", []]], "out_dims": [["dim0", 32], ["dim1", 16]]}, 16),  # 422badb: stmatrix.trans/ld.shared, rounds differ per lane
    ({"bases": [["register", [[8, 0]]], ["lane", [[12, 0], [0, 1], [20, 0], [9, 0], [0, 2]]], ["warp", [[23, 0]]]], "out_dims": [["dim0", 32], ["dim1", 4]]},
     {"bases": [["register", [[0, 2], [0, 0]]], ["lane", [[4, 0], [0, 1], [8, 0], [2, 0], [16, 0]]], ["warp", [[21, 0]]]], "out_dims": [["dim0", 32], ["dim1", 4]]}, 16),  # 422badb: st.shared/ldmatrix.trans, a row starts inside a row
    ({"bases": [["register", [[8, 0]]], ["lane", [[36, 0], [19, 0], [16, 0], [89, 0], [4, 0]]], ["warp", [[2, 0], [0, 0]]]], "out_dims": [["dim0", 128], ["dim1", 1]]},
     {"bases": [["register", [[2, 0]]], ["lane", [[0, 0], [16, 0], [30, 0], [97, 0], [87, 0]]], ["warp", [[1, 0], [60, 0]]]], "out_dims": [["dim0", 128], ["dim1", 1]]}, 16),  # 422badb: st.shared/ldmatrix.trans, a row starts inside a row
    ({"bases": [["register", [[2, 0], [1, 0], [16, 0], [0, 8]]], ["lane", [[0, 1], [4, 0], [11, 0], [0, 12], [0, 14]]], ["warp", []]], "out_dims": [["dim0", 32], ["dim1", 16]]},
     {"bases": [["register", [[16, 0], [0, 1], [0, 8], [2, 0]]], ["lane", [[0, 5], [4, 0], [24, 0], [0, 3], [5, 0]]], ["warp", []]], "out_dims": [["dim0", 32], ["dim1", 16]]}, 64),  # 422badb: st.shared/ld.shared, rounds differ per lane
    ({"bases": [["register", [[0, 2], [0, 32], [2, 0], [0, 1]]], ["lane", [[8, 0], [0, 87], [9, 0], [0, 100], [0, 123]]], ["warp", [[4, 0], [0, 115]]]], "out_dims": [["dim0", 16], ["dim1", 128]]},
     {"bases": [["register", [[8, 0], [0, 1], [0, 4], [0, 8], [0, 2]]], ["lane", [[2, 0], [1, 0], [12, 0], [0, 64], [0, 104]]], ["warp", [[0, 0], [0, 58]]]], "out_dims": [["dim0", 16], ["dim1", 128]]}, 64),  # 422badb: st.shared/ld.shared, rounds differ per lane
    ({"bases": [["register", [[0, 32], [0, 1], [0, 2], [0, 128]]], ["lane", [[0, 64], [0, 209], [0, 8], [3, 0], [0, 4]]], ["warp", [[1, 0], [0, 0]]]], "out_dims": [["dim0", 4], ["dim1", 256]]},
     {"bases": [["register", [[0, 4], [0, 64], [0, 2]]], ["lane", [[2, 0], [0, 138], [0, 1], [0, 8], [1, 0]]], ["warp", [[0, 25], [0, 32]]]], "out_dims": [["dim0", 4], ["dim1", 256]]}, 16),  # 422badb: stmatrix/ld.shared, a row starts inside a row
    ({"bases": [["register", []], ["lane", [[0, 9], [0, 16], [1, 0], [0, 34], [0, 32]]], ["warp", [[0, 20], [0, 37]]]], "out_dims": [["dim0", 2], ["dim1", 64]]},
     {"bases": [["register", [[0, 16]]], ["lane", [[0, 32], [0, 8], [1, 0], [0, 4], [0, 0]]], ["warp", [[0, 2], [0, 61]]]], "out_dims": [["dim0", 2], ["dim1", 64]]}, 32),  # 422badb: stmatrix/ld.shared, a row starts inside a row
    ({"bases": [["register", [[0, 32], [0, 1], [0, 2], [0, 128]]], ["lane", [[0, 64], [0, 209], [0, 8], [3, 0], [0, 4]]], ["warp", [[1, 0], [0, 0]]]], "out_dims": [["dim0", 4], ["dim1", 256]]},
     {"bases": [["register", [[0, 4], [0, 64], [0, 2]]], ["lane", [[2, 0], [0, 138], [0, 1], [0, 8], [1, 0]]], ["warp", [[0, 25], [0, 32]]]], "out_dims": [["dim0", 4], ["dim1", 256]]}, 32),  # 422badb: stmatrix/ld.shared, rounds differ per lane
    ({"bases": [["register", [[16, 0], [128, 0], [2, 0], [0, 1]]], ["lane", [[69, 0], [402, 0], [60, 0], [4, 0], [8, 0]]], ["warp", [[265, 0]]]], "out_dims": [["dim0", 512], ["dim1", 2]]},
     {"bases": [["register", [[128, 0], [4, 0], [256, 0], [32, 0]]], ["lane", [[310, 0], [299, 0], [1, 0], [0, 1], [454, 0]]], ["warp", [[64, 0]]]], "out_dims": [["dim0", 512], ["dim1", 2]]}, 32),  # 422badb: stmatrix/ld.shared, rounds differ per lane
    ({"bases": [["register", [[1, 0]]], ["lane", [[38, 0], [4, 0], [16, 0], [53, 0], [40, 0]]], ["warp", [[4, 0]]]], "out_dims": [["dim0", 64], ["dim1", 1]]},
     {"bases": [["register", [[2, 0]]], ["lane", [[41, 0], [4, 0], [29, 0], [55, 0], [11, 0]]], ["warp", [[52, 0]]]], "out_dims": [["dim0", 64], ["dim1", 1]]}, 16),  # 422badb: stmatrix.trans/ld.shared, a row starts inside a row
    ({"bases": [["register", [[0, 1], [0, 2]]], ["lane", [[0, 16], [0, 4], [0, 35], [1, 0], [0, 30]]], ["warp", []]], "out_dims": [["dim0", 2], ["dim1", 64]]},
     {"bases": [["register", [[1, 0], [0, 4]]], ["lane", [[0, 8], [0, 2], [0, 16], [0, 32], [0, 5]]], ["warp", []]], "out_dims": [["dim0", 2], ["dim1", 64]]}, 16),  # 422badb: stmatrix.trans/ld.shared, a row starts inside a row
    ({"bases": [["register", [[1, 0], [4, 0], [0, 8]]], ["lane", [[9, 0], [0, 27], [0, 54], [0, 34], [14, 0]]], ["warp", [[0, 63], [0, 2]]]], "out_dims": [["dim0", 16], ["dim1", 64]]},
     {"bases": [["register", [[0, 0], [2, 0], [1, 0], [0, 2]]], ["lane", [[0, 8], [13, 0], [0, 32], [0, 1], [0, 4]]], ["warp", [[4, 0], [0, 57]]]], "out_dims": [["dim0", 16], ["dim1", 64]]}, 16),  # 422badb: st.shared/ldmatrix, a row starts inside a row
    ({"bases": [["register", [[16, 0], [8, 0], [0, 2], [16, 0], [2, 0]]], ["lane", [[0, 7], [4, 0], [0, 10], [0, 25], [0, 1]]], ["warp", [[1, 0]]]], "out_dims": [["dim0", 32], ["dim1", 32]]},
     {"bases": [["register", [[0, 1], [16, 0], [0, 16], [0, 8]]], ["lane", [[0, 22], [0, 2], [7, 0], [1, 0], [3, 0]]], ["warp", [[10, 0]]]], "out_dims": [["dim0", 32], ["dim1", 32]]}, 32),  # 422badb: st.shared/ldmatrix, a row starts inside a row
    ({"bases": [["register", [[0, 1], [0, 64], [0, 0], [0, 4], [0, 8]]], ["lane", [[1, 0], [0, 88], [3, 0], [0, 2], [0, 54]]], ["warp", []]], "out_dims": [["dim0", 4], ["dim1", 128]]},
     {"bases": [["register", [[0, 2], [0, 1], [0, 64], [1, 0], [0, 16]]], ["lane", [[3, 0], [2, 0], [0, 4], [0, 32], [0, 11]]], ["warp", []]], "out_dims": [["dim0", 4], ["dim1", 128]]}, 16),  # 422badb: st.shared/ldmatrix.trans, rounds differ per lane
    ({"bases": [["register", [[0, 32], [0, 64], [0, 8], [0, 4]]], ["lane", [[0, 128], [0, 1016], [0, 653], [0, 605], [1, 0]]], ["warp", [[0, 1], [0, 207]]]], "out_dims": [["dim0", 2], ["dim1", 1024]]},
     {"bases": [["register", [[0, 4], [0, 256], [0, 64], [0, 128], [0, 2]]], ["lane", [[1, 0], [0, 128], [0, 512], [0, 882], [0, 8]]], ["warp", [[0, 1], [0, 980]]]], "out_dims": [["dim0", 2], ["dim1", 1024]]}, 16),  # 422badb: st.shared/ldmatrix.trans, rounds differ per lane
    ({"bases": [["register", [[0, 4], [0, 2], [4, 0], [8, 0]]], ["lane", [[0, 22], [9, 0], [2, 0], [32, 0], [0, 8]]], ["warp", [[22, 0], [0, 21]]]], "out_dims": [["dim0", 64], ["dim1", 32]]},
     {"bases": [["register", [[2, 0], [16, 0], [0, 16], [0, 2]]], ["lane", [[50, 0], [1, 0], [0, 1], [0, 4], [0, 25]]], ["warp", [[39, 0], [24, 0]]]], "out_dims": [["dim0", 64], ["dim1", 32]]}, 32),  # 422badb: st.shared/ldmatrix, rounds differ per lane
    ({"bases": [["register", [[0, 8], [0, 32], [1, 0], [0, 1]]], ["lane", [[0, 13], [0, 16], [0, 0], [7, 0], [5, 0]]], ["warp", [[0, 63]]]], "out_dims": [["dim0", 8], ["dim1", 64]]},
     {"bases": [["register", [[0, 8], [0, 4], [1, 0]]], ["lane", [[0, 2], [0, 58], [0, 1], [6, 0], [2, 0]]], ["warp", [[0, 38]]]], "out_dims": [["dim0", 8], ["dim1", 64]]}, 16),  # 422badb: st.shared/ldmatrix, rounds differ per lane
]


def _rank(vs: list[int]) -> int:
    lead: dict[int, int] = {}
    for v in vs:
        while v:
            h = v.bit_length() - 1
            if h not in lead:
                lead[h] = v
                break
            v ^= lead[h]
    return len(lead)


def random_case(rng: random.Random, permutation: bool) -> tuple[dict, dict, int]:
    """A random pair of surjective layouts of one 2-D tensor on the same warps.  ``permutation``:
    each basis zero or a distinct unit vector (``#ttg.linear``); else Triton 3.9's generic-linear
    domain (``#ttg.generic_linear``): register bases zero or unit vectors (Triton aborts on others:
    "orderPerDim cannot determine dimension order for swizzled bases"), lane and warp bases zero,
    unit vectors or XOR combinations inside one dim (its verifier: "bases must move in at most one
    dimension"); copies allowed (a lane in the span of registers, two equal lanes)."""
    n_warp = rng.randint(0, 2)
    total = rng.randint(4, 5 + n_warp + 3)
    d0 = rng.randint(0, total)
    dims = [b for b in (list(range(d0)), list(range(d0, total))) if b]

    def side() -> dict:
        n_reg = max(0, total - 5 - n_warp) + rng.randint(0, 1)
        n = n_reg + 5 + n_warp
        while True:
            if permutation:
                cols = [0] * n
                for s, b in zip(rng.sample(range(n), total), rng.sample(range(total), total)):
                    cols[s] = 1 << b
            else:
                unit = lambda: 1 << rng.randrange(total)  # noqa: E731
                mixed = lambda: sum(1 << b for b in rng.choice(dims) if rng.random() < 0.5)  # noqa: E731
                cols = [rng.choice([0, unit(), unit()]) for _ in range(n_reg)] + [rng.choice([0, unit(), mixed()]) for _ in range(n - n_reg)]
            if _rank(cols) == total:
                break
        vec = lambda x: [x & ((1 << d0) - 1), x >> d0]  # noqa: E731
        return {"bases": [["register", [vec(c) for c in cols[:n_reg]]], ["lane", [vec(c) for c in cols[n_reg:n_reg + 5]]],
                          ["warp", [vec(c) for c in cols[n_reg + 5:]]]], "out_dims": [["dim0", 1 << d0], ["dim1", 1 << (total - d0)]]}

    return side(), side(), rng.choice([8, 16, 32, 64])


#: How ``in_warp_case`` makes a side general (or keeps it a permutation), and on which side.
IN_WARP_KINDS = ("xor lane with lane", "xor lane with register", "lane copies register", "equal lanes", "xor warp",
                 "broadcast lane", "permutation", "permutation as generic_linear")
SIDES = ("src", "dst", "both")


def in_warp_case(rng: random.Random) -> tuple[str, dict, dict, int]:
    """A pair of layouts of one 2-D tensor whose conversion stays inside each warp: a random
    permutation layout (1 to 3 registers, 5 lanes, 0 to 2 warps) and the same with 0 to 2 of its
    register bases swapped with lane bases and its registers and lanes reordered, the warps
    alike; then made general on one side or both (``IN_WARP_KINDS``: each keeps the layout
    surjective, its register bases unit vectors and its lane bases inside one dim, as Triton's
    ``#ttg.generic_linear`` requires) or kept a permutation.  Returns the case name, src, dst
    and the element width."""
    n_reg, n_warp = rng.randint(1, 3), rng.randint(0, 2)
    total = n_reg + 5 + n_warp
    d0 = rng.randint(0, total)
    src = [1 << b for b in rng.sample(range(total), total)]  # register, lane, warp bases in that order
    rl = src[:n_reg + 5]
    for _ in range(rng.choice([0, 1, 1, 2])):
        r, l = rng.randrange(n_reg), n_reg + rng.randrange(5)
        rl[r], rl[l] = rl[l], rl[r]
    regs, lanes = rl[:n_reg], rl[n_reg:]
    rng.shuffle(regs)
    rng.shuffle(lanes)
    dst = regs + lanes + src[n_reg + 5:]
    kind, side = rng.choice(IN_WARP_KINDS), rng.choice(SIDES)
    same_dim = lambda x, y: (x < (1 << d0)) == (y < (1 << d0))  # noqa: E731 -- unit vectors of one dim
    if kind == "xor lane with register" and not any(same_dim(x, y) for x in src[:n_reg] for y in src[n_reg:n_reg + 5]):
        kind = "xor lane with lane"  # no register in a lane's dim (a dim holds 3 of the 5 lanes: always a partner)
    if kind == "xor warp" and not n_warp:
        kind = "xor lane with lane"

    def general(cols: list[int]) -> list[int]:
        reg, lane, warp = cols[:n_reg], cols[n_reg:n_reg + 5], cols[n_reg + 5:]
        i = rng.randrange(5)
        if kind.startswith("xor lane"):  # lane i XOR another lane (register) of its dim
            pool = lane if kind.endswith("lane") else reg
            pairs = [(j, x) for j in range(5) for k, x in enumerate(pool) if (pool is reg or k != j) and same_dim(x, lane[j])]
            j, x = rng.choice(pairs)
            lane[j] ^= x
        elif kind == "lane copies register":  # the lane's own element moves to a new register
            reg, lane[i] = reg + [lane[i]], rng.choice(reg)
        elif kind == "equal lanes":
            j = rng.choice([j for j in range(5) if j != i])
            reg, lane[i] = reg + [lane[i]], lane[j]
        elif kind == "broadcast lane":
            reg, lane[i] = reg + [lane[i]], 0
        return reg + lane + warp

    if kind == "xor warp" and n_warp:  # the same warp basis on both sides: the exchange stays in the warp
        k = rng.randrange(n_warp)
        mix = rng.choice(src[:n_reg + 5])
        src[n_reg + 5 + k] ^= mix
        dst[n_reg + 5 + k] ^= mix
        side = "both"
    else:
        if side in ("src", "both"):
            src = general(src)
        if side in ("dst", "both"):
            dst = general(dst)

    def lay(cols: list[int]) -> dict:
        nr = len(cols) - 5 - n_warp
        vec = lambda x: [x & ((1 << d0) - 1), x >> d0]  # noqa: E731
        return {"bases": [["register", [vec(c) for c in cols[:nr]]], ["lane", [vec(c) for c in cols[nr:nr + 5]]],
                          ["warp", [vec(c) for c in cols[nr + 5:]]]], "out_dims": [["dim0", 1 << d0], ["dim1", 1 << (total - d0)]]}

    name = f"in-warp: {kind}" + ("" if kind.startswith("permutation") else f" ({side})")
    return name, lay(src), lay(dst), rng.choice([8, 16, 32, 64])


def _is_permutation(b: dict) -> bool:
    """Whether the non-zero bases are distinct powers of two (Triton's ``#ttg.linear``)."""
    flat = [v[0] | (v[1] << 16) for vs in b.values() for v in vs if any(v)]
    return all(x & (x - 1) == 0 for x in flat) and len(set(flat)) == len(flat)


def _module(c: dict) -> str:
    sys.path.insert(0, str(HERE))
    from make_cvt_ptx import module_text

    f = lambda vs: "[" + ", ".join("[" + ", ".join(map(str, v)) + "]" for v in vs) + "]"  # noqa: E731
    spelled = "generic_linear" if c["case"].endswith("as generic_linear") else None  # Triton reads the matrix, not the spelling
    lin = lambda b: (f"#ttg.{spelled or ('linear' if _is_permutation(b) else 'generic_linear')}<{{register = {f(b['register'])}, "  # noqa: E731
                     f"lane = {f(b['lane'])}, warp = {f(b['warp'])}, block = []}}>")
    return module_text({"num_warps": c["num_warps"], "target": c["target"], "dtype": c["dtype"], "shape": c["shape"],
                        "src": lin(c["src"]), "dst": lin(c["dst"])})


def _run(req: dict) -> dict:
    """Triton's answer: counts, or its exception (or abort) with the first diagnostic it printed
    (an MLIR ``error:``, an ``LLVM ERROR:``, an unreachable's message)."""
    p = subprocess.run([sys.executable, "-c", RUNNER, json.dumps(req)], capture_output=True, text=True)
    err = [l.strip() for l in p.stderr.splitlines() if l.strip() and "warn" not in l.lower()]
    diag = []
    for line in err:
        m = re.search(r"(\w+\.cpp):(\d+):.*(Assertion `.*' failed)", line)
        if m:  # file:line and the condition, not the whole signature
            diag.append(f"{m[1]}:{m[2]}: {m[3]}")
        elif line.startswith(("LLVM ERROR:", "UNREACHABLE")) or "cannot determine" in line:
            diag.append(line)
        elif "error: " in line and "signal was caught" not in line and "Failures have been" not in line:
            diag.append(line.split("error: ", 1)[1])
    why = (" -- " + " / ".join(dict.fromkeys(diag[:2])))[:300] if diag else ""
    for line in p.stdout.splitlines():
        if line.startswith("@@"):
            out = json.loads(line[2:])
            return {"error": out["error"] + why} if "error" in out else out
    return {"error": f"triton aborted (status {-p.returncode if p.returncode < 0 else p.returncode})" + why}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--count", type=int, default=12, help="random general pairs (and as many permutation pairs)")
    ap.add_argument("--in-warp", type=int, default=48, help="in-warp exchanges made general (seeded apart: --seed + 1)")
    ap.add_argument("--keep", help="a folder: write the TTGIR, LLVM IR and PTX of every compiled case there")
    args = ap.parse_args()
    import triton

    assert triton.__version__ == "3.9.0", f"expected triton 3.9.0, got {triton.__version__}"
    rng = random.Random(args.seed)
    cases = [("test_lane_copy_in_other_registers" if i == 0 else "mis-planned by 422badb", s, d, b) for i, (s, d, b) in enumerate(FIXED)]
    cases += [("random general", *random_case(rng, False)) for _ in range(args.count)]
    cases += [("random permutation", *random_case(rng, True)) for _ in range(args.count)]
    warp_rng = random.Random(args.seed + 1)
    cases += [in_warp_case(warp_rng) for _ in range(args.in_warp)]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "gluon_cvt.py").write_text(GLUON)
        for i, (name, s, d, bits) in enumerate(cases):
            (src, shape), (dst, _) = _bases(s), _bases(d)
            c = {"case": name, "src": src, "dst": dst, "shape": shape, "dtype": DTYPE[bits], "num_warps": 1 << len(src["warp"]),
                 "target": "cuda:90"}
            base = {"pats": PATS, "dir": tmp, **c}
            keep = (lambda route: f"{args.keep}/case{i}.{route}") if args.keep else (lambda route: "")
            c["ttgir"] = _run({**base, "route": "ttgir", "module": _module(c), "keep": keep("ttgir")})
            c["gluon"] = _run({**base, "route": "gluon", "keep": keep("gluon")})
            rows.append(c)
            print(name, "|", str(c["ttgir"])[:90], "|", str(c["gluon"])[:90], file=sys.stderr)
    with open(HERE / "cvt_general.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    print(f"{len(rows)} conversions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
