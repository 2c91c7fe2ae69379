"""Planner regression check: every plan of a fixed set of pairs, fingerprinted, compared against a
saved run (speed work on the planner must leave every plan identical).

    python benchmarks/check_plans.py --save /tmp/plans.json      # on the commit before a change
    python benchmarks/check_plans.py --compare /tmp/plans.json   # after it: exit 1 on any difference

The pairs: both conversion corpora (tests/oracles/triton-3.9/cvt_ptx.jsonl, sm_90, and the IR
corpus of real kernels), and a few thousand generated pairs of 2-D tensors (BlockedLayouts over
shapes, widths and warp counts; MMA v2/v3 and their dot operands; tensor-memory register layouts
against blocked ones; random distributed linear layouts with broadcast and XOR-mixed bases, some
with a block dim).  Each is planned with ``strategy="best"`` and ``"triton"`` (and a few with a
``max_shared_bytes`` budget or matrix instructions off); a plan's fingerprint is its ``str()`` and
its ``to_dict()`` (which reads every rejected alternative, i.e. prices what the lazy planner
skipped), and an error's type and message.  ``--seed`` / ``--random`` change the generated set.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout, not an installed copy

import argparse
import hashlib
import json
import random
import time

from linlayout import LinearLayout  # noqa: E402
from linlayout.errors import LayoutError  # noqa: E402
from linlayout.plan import plan_conversion  # noqa: E402


def _layout(x, shape):
    from converters.gluon import from_dict
    from converters.mlir import parse_attr

    return (from_dict(x) if isinstance(x, dict) else parse_attr(x)).to_linear(list(shape))


def _corpus(name):
    return [json.loads(line) for line in (ROOT / "tests" / "oracles" / name).read_text().splitlines() if line.strip()]


def _blocked(rng, shape, warps):
    def split(total, n):
        out = [1] * n
        for _ in range(total.bit_length() - 1):
            out[rng.randrange(n)] *= 2
        return out

    return {"kind": "BlockedLayout", "size_per_thread": [rng.choice([1, 1, 2, 4, 8]) for _ in shape],
            "threads_per_warp": split(32, 2), "warps_per_cta": split(warps, 2), "order": rng.choice([[1, 0], [0, 1]]),
            "cga_layout": []}


def _mma(rng, warps):
    w0 = rng.choice([w for w in (1, 2, 4, 8) if w <= warps])
    if rng.random() < 0.5:
        return {"kind": "NVMMADistributedLayout", "version": [2, 0], "warps_per_cta": [w0, warps // w0], "instr_shape": [16, 8]}
    return {"kind": "NVMMADistributedLayout", "version": [3, 0], "warps_per_cta": [max(w0, 4) if warps >= 4 else 4, max(warps // max(w0, 4), 1)],
            "instr_shape": [16, rng.choice([16, 32, 64]), 16]}


def _random_linear(rng, shape, warps, blocks=1):
    """A random surjective distributed layout: a random invertible map, XOR-mixed, plus broadcast bits."""
    dim = sum(s.bit_length() - 1 for s in shape)
    n_lane, n_warp, n_block = 5, warps.bit_length() - 1, blocks.bit_length() - 1
    n_reg = max(dim - n_lane - n_warp - n_block, 0)
    vecs = [1 << i for i in range(dim)]
    rng.shuffle(vecs)
    for _ in range(rng.randrange(3)):
        i, j = rng.sample(range(dim), 2)
        vecs[i] ^= vecs[j]
    # too few hardware bits for the tensor: more registers; too many: broadcast (zero) bases
    need = n_lane + n_warp + n_block + n_reg
    vecs += [0] * max(need - dim, 0)
    n_reg += max(dim - need, 0)
    zeros = [i for i, v in enumerate(vecs) if v == 0]
    rng.shuffle(zeros)
    order = list(range(len(vecs)))
    rng.shuffle(order)
    # keep the ordering mostly tidy (registers low), as real layouts are
    if rng.random() < 0.5:
        order.sort(key=lambda i: (vecs[i] == 0, vecs[i]))
    vs = [vecs[i] for i in order]
    outs = [(f"dim{k}", s) for k, s in enumerate(shape)]
    flat = {"register": vs[:n_reg], "lane": vs[n_reg:n_reg + n_lane], "warp": vs[n_reg + n_lane:n_reg + n_lane + n_warp],
            "block": vs[n_reg + n_lane + n_warp:]}
    return LinearLayout.from_flat(flat, outs)


def _tmem(rows, rng):
    r = rng.choice([r for r in rows if "linear" in r])
    shape = r["shape"]
    outs = [("dim0", shape[0]), ("dim1", shape[1])]
    lin = r["linear"]
    L = LinearLayout({k: lin[k] for k in ("register", "lane", "warp", "block")}, outs)
    return L, shape, r["num_warps"], r["bitwidth"]


def pairs(seed: int, n_random: int):
    """(label, src, dst, bitwidth, options) of every pair checked."""
    out = []
    for name in ("triton-3.9/cvt_ptx.jsonl", "triton-3.9-ir/cvt_ptx.jsonl"):
        for i, r in enumerate(_corpus(name)):
            if "error" in r:
                continue
            arch = int(str(r["target"]).replace("sm_", "").replace("cuda:", ""))
            s, d = _layout(r["src"], r["shape"]), _layout(r["dst"], r["shape"])
            out.append((f"{name}:{i}", s, d, r["dtype"], {}))
            out.append((f"{name}:{i}:arch", s, d, r["dtype"], {"ldmatrix": arch >= 75, "stmatrix": arch >= 90}))
    rng = random.Random(seed)
    # the rows the fingerprints were first taken over: the 204 short-column rows inserted at row
    # 664 later (issue 19's session 2) must not change which pairs are drawn
    tmem_all = _corpus("triton-3.9-generated/tmem_reg.jsonl")
    tmem_rows = tmem_all[:664] + tmem_all[868:]
    shapes = [(16, 16), (32, 32), (64, 64), (128, 128), (128, 64), (64, 256), (256, 128), (256, 256), (32, 128), (16, 64)]
    for k in range(n_random):
        family = k % 6
        bits = rng.choice([8, 16, 16, 32, 64])
        try:
            if family == 0:
                shape, warps = rng.choice(shapes), rng.choice([1, 2, 4, 8])
                s, d = (_layout(_blocked(rng, shape, warps), shape) for _ in range(2))
            elif family == 1:
                shape, warps = rng.choice(shapes[2:]), rng.choice([4, 8])
                s, d = _layout(_blocked(rng, shape, warps), shape), _layout(_mma(rng, warps), shape)
                if rng.random() < 0.5:
                    s, d = d, s
            elif family == 2:
                shape, warps = rng.choice(shapes[2:]), rng.choice([4, 8])
                parent = _mma(rng, warps)
                if parent["version"][0] == 3:
                    parent = {"kind": "NVMMADistributedLayout", "version": [2, 0], "warps_per_cta": parent["warps_per_cta"],
                              "instr_shape": [16, 8]}
                dot = {"kind": "DotOperandLayout", "operand_index": rng.randrange(2), "parent": parent,
                       "k_width": rng.choice([1, 2, 4, 8])}
                s, d = _layout(parent, shape), _layout(dot, shape)
                if rng.random() < 0.5:
                    s, d = d, s
            elif family == 3:
                s, shape, warps, bits = _tmem(tmem_rows, rng)
                d = _layout(_blocked(rng, shape, warps), shape)
                if rng.random() < 0.3:
                    s, d = d, s
            elif family == 4:
                shape, warps = rng.choice(shapes), rng.choice([1, 2, 4, 8])
                s = _random_linear(rng, shape, warps)
                d = _random_linear(rng, shape, warps) if rng.random() < 0.6 else _layout(_blocked(rng, shape, warps), shape)
            else:
                shape, warps = rng.choice(shapes[:6]), rng.choice([1, 2, 4])
                blocks = rng.choice([1, 2, 4])
                s, d = _random_linear(rng, shape, warps, blocks), _random_linear(rng, shape, warps, blocks)
        except LayoutError:
            continue
        opts = {}
        roll = rng.random()
        if roll < 0.1:
            opts = {"max_shared_bytes": rng.choice([0, 256, 1024, 4096])}
        elif roll < 0.2:
            opts = {"matrix_instructions": False}
        elif roll < 0.3:
            opts = {"ldmatrix": True, "stmatrix": False}
        out.append((f"gen:{k}", s, d, bits, opts))
    return out


def fingerprint(src, dst, bits, opts, strategy) -> tuple[str, str]:
    """The plan's digest and its kind (or the error's type)."""
    try:
        p = plan_conversion(src, dst, bitwidth=bits, strategy=strategy, **opts)
        text, kind = str(p) + "\n" + json.dumps(p.to_dict(), sort_keys=True, default=repr), p.kind
    except LayoutError as e:
        text, kind = f"{type(e).__name__}: {e}", type(e).__name__
    return hashlib.sha256(text.encode()).hexdigest()[:20], kind


def run(seed: int, n_random: int) -> tuple[dict[str, str], dict[str, int]]:
    prints, kinds = {}, {}
    for label, s, d, bits, opts in pairs(seed, n_random):
        for strategy in ("best", "triton"):
            prints[f"{label}:{strategy}"], kind = fingerprint(s, d, bits, opts, strategy)
            kinds[kind] = kinds.get(kind, 0) + 1
    return prints, kinds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--save", help="write the fingerprints to this file")
    g.add_argument("--compare", help="compare against fingerprints saved in this file")
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--random", type=int, default=3000, help="generated pairs")
    args = ap.parse_args()
    t0 = time.process_time()
    prints, kinds = run(args.seed, args.random)
    spent = time.process_time() - t0
    print("plans by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    if args.save:
        Path(args.save).write_text(json.dumps({"seed": args.seed, "random": args.random, "plans": prints}, indent=0))
        print(f"saved {len(prints)} plan fingerprints to {args.save} ({spent:.1f} s CPU)")
        return 0
    saved = json.loads(Path(args.compare).read_text())
    if (saved["seed"], saved["random"]) != (args.seed, args.random):
        print(f"the saved run used --seed {saved['seed']} --random {saved['random']}")
        return 2
    old = saved["plans"]
    diff = sorted(k for k in set(old) | set(prints) if old.get(k) != prints.get(k))
    print(f"{len(prints)} plans ({spent:.1f} s CPU): {len(prints) - len(diff)} identical, {len(diff)} differ")
    for k in diff[:30]:
        print(f"  {k}: saved {old.get(k)} now {prints.get(k)}")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
