"""Write ``ops.jsonl``: TVM TIRx's answers to its layout algebra on seeded random layouts.

Run by hand (it needs ``apache-tvm-tirx==0.1.0a4``; linlayout is not imported, so the corpus is
TIRx's alone)::

    python tests/oracles/tirx/generate_ops.py [--seed 0] [--layouts 320] [--composes 80] [--out PATH]

Each row is one call: ``op``, the layout (``spec`` in linlayout's TileLayout text, and ``shard``,
``replica``, ``offset`` as TIRx received them; a ComposeLayout adds ``swizzle``), ``args``, and
either ``result`` (what TIRx returned: a layout as ``text``, TIRx's own print, plus its iters; a
bool; the scope pair; ``null``) or ``error`` (TIRx's exception type and the last line of its
message).  See README.md.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import random
import sys
from typing import Any

MEM = ["m", "TCol", "TLane"]
#: Families of thread axes whose scopes chain (thread < warp < warpgroup < cta < cluster/kernel),
#: and a pool to draw broken mixtures from.
FAMILIES = [
    ["laneid", "warpid"], ["laneid", "wid_in_wg", "wgid"], ["tx"], ["tid_in_wg", "wgid"], ["laneid", "warpid", "cbx"],
    ["laneid"], ["warpid"], ["tx", "bx"],
]
THREADS = ["laneid", "warpid", "tx", "wgid", "wid_in_wg", "tid_in_wg", "bx", "cbx"]


def fmt_stride(s: int, a: str) -> str:
    return str(s) if a == "m" else f"{s}@{a}"


def spec_text(shard, replica, offset) -> str:
    """linlayout's TileLayout text for the iters (the grammar of converters/tile/text.py)."""
    t = "S[(" + ",".join(str(e) for e, _, _ in shard) + ",):(" + ",".join(fmt_stride(s, a) for _, s, a in shard) + ",)]"
    if replica:
        t += " + R[(" + ",".join(str(e) for e, _, _ in replica) + ",):(" + ",".join(fmt_stride(s, a) for _, s, a in replica) + ",)]"
    for a, v in offset.items():
        t += " + " + fmt_stride(v, a)
    return t


def factorize(n: int, k: int, rng: random.Random) -> list[int]:
    """``n`` as a product of ``k`` positive ints, drawn at random (1s allowed)."""
    primes = []
    m, p = n, 2
    while m > 1:
        while m % p == 0:
            primes.append(p)
            m //= p
        p += 1
    dims = [1] * k
    for q in primes:
        dims[rng.randrange(k)] *= q
    return dims


def compact_iters(extents: list[int], axes: list[str], rng: random.Random) -> list[tuple[int, int, str]]:
    """Iters with the given extents and axes whose strides are compact per axis, in a random order."""
    order = list(range(len(extents)))
    rng.shuffle(order)
    acc: dict[str, int] = {}
    strides = [0] * len(extents)
    for i in order:
        strides[i] = acc.get(axes[i], 1)
        acc[axes[i]] = strides[i] * extents[i]
    return [(e, s, a) for e, s, a in zip(extents, strides, axes)]


def random_layout(rng: random.Random, *, memory_only: bool = False) -> tuple[list, list, dict]:
    n = rng.randint(1, 4)
    kind = rng.random()
    if memory_only:
        pool = ["m"] if rng.random() < 0.7 else MEM
    elif kind < 0.35:
        pool = ["m"] + rng.choice(FAMILIES)
    elif kind < 0.6:
        pool = rng.sample(MEM, rng.randint(1, 2)) + rng.choice(FAMILIES)
    elif kind < 0.8:
        pool = rng.sample(MEM, rng.randint(1, 3))
    elif kind < 0.97:
        pool = rng.sample(MEM + THREADS, rng.randint(1, 4))
    else:
        pool = ["m", "foo"] + rng.sample(THREADS, 1)  # an axis TIRx cannot classify
    extents = [rng.choice([1, 2, 2, 3, 4, 4, 8, 8, 16, 32]) for _ in range(n)]
    axes = [rng.choice(pool) for _ in range(n)]
    if rng.random() < 0.6:
        shard = compact_iters(extents, axes, rng)
        if rng.random() < 0.2:  # a gap
            k = rng.randrange(n)
            e, s, a = shard[k]
            shard[k] = (e, s * rng.choice([2, 3]), a)
    else:
        shard = [(e, rng.choice([0, 1, 2, 3, 4, 8, 16, 32, 5]), a) for e, a in zip(extents, axes)]
    replica: list = []
    offset: dict = {}
    if not memory_only or rng.random() < 0.2:
        if rng.random() < 0.35:
            replica = [(rng.choice([1, 2, 4]), rng.choice([0, 1, 2, 8, 32]), rng.choice(pool)) for _ in range(rng.randint(1, 2))]
        if rng.random() < 0.35:
            for a in rng.sample(pool, min(len(pool), rng.randint(1, 2))):
                offset[a] = rng.choice([0, 1, 2, 4, 5, 8, 64])
    return shard, replica, offset


def layout_row(shard, replica, offset) -> dict:
    return {"spec": spec_text(shard, replica, offset), "shard": [list(i) for i in shard],
            "replica": [list(i) for i in replica], "offset": offset}


# ------------------------------------------------------------------ TIRx side


def tirx_layout(t: Any, shard, replica, offset):
    return t.TileLayout.from_iters([t.Iter(*i) for i in shard], [t.Iter(*i) for i in replica], dict(offset))


def describe(t: Any, x: Any) -> Any:
    """TIRx's answer as JSON: layouts as their print and fields; scopes by name."""
    if isinstance(x, t.ComposeLayout):
        return {"text": str(x), "per_element": int(x.per_element), "swizzle_len": int(x.swizzle_len),
                "atom_len": int(x.atom_len), "swizzle_inner": bool(x.swizzle_inner), "tile": describe(t, x.tile_layout)}
    if isinstance(x, t.TileLayout):
        its = lambda xs: [[int(i.extent), int(i.stride), i.axis.name] for i in xs]  # noqa: E731
        return {"text": str(x), "shard": its(x.shard), "replica": its(x.replica),
                "offset": {a.name: int(v) for a, v in x.offset.items()}}
    if x is None or isinstance(x, bool):
        return x
    if isinstance(x, (tuple, list)) or type(x).__name__ == "Array":
        return [describe(t, y) for y in x]
    if type(x).__name__ == "ThreadScope":
        return x.name
    if hasattr(x, "value"):
        return int(x.value)
    return int(x)


def call(t: Any, f, raw: bool = False) -> dict:
    try:
        r = f()
        return {"result": r if raw else describe(t, r)}
    except Exception as e:  # TIRx's refusal: AssertionError, ValueError, IndexError, its RuntimeError
        msg = str(e).strip().splitlines()
        return {"error": f"{type(e).__name__}: {(msg[-1] if msg else '')[:300]}"}


def tile_ops(rng: random.Random, shard, replica, offset) -> list[tuple[str, dict]]:
    """The calls to make on one TileLayout: (op, args)."""
    size = math.prod(e for e, _, _ in shard)
    n = len(shard)
    out: list[tuple[str, dict]] = [("canonicalize", {}), ("is_contiguous", {}), ("is_trivial", {}), ("get_scope", {}),
                                   ("check_well_formed", {})]
    # group: along the iters' own boundaries (merged), and a random factorization
    bounds = sorted(rng.sample(range(1, n), rng.randint(0, n - 1))) if n > 1 else []
    cuts = [0] + bounds + [n]
    out.append(("group", {"shape": [math.prod(e for e, _, _ in shard[a:b]) for a, b in zip(cuts, cuts[1:])]}))
    out.append(("group", {"shape": factorize(size, rng.randint(1, 3), rng)}))
    # tile by a random outer layout
    k = rng.randint(1, 3)
    o_shard, o_rep, o_off = random_layout(rng)
    if rng.random() < 0.5:
        o_rep, o_off = [], {}
    osize = math.prod(e for e, _, _ in o_shard)
    out.append(("tile", {"outer": layout_row(o_shard, o_rep, o_off), "outer_shape": factorize(osize, k, rng),
                         "inner_shape": factorize(size, k, rng)}))
    cur = factorize(size, k, rng)
    to = [c * rng.choice([1, 1, 2, 3, 4]) + (rng.choice([0, 0, 0, 1]) if c > 1 else 0) for c in cur]
    out.append(("tile_to", {"to_shape": to, "current_shape": cur}))
    axes = sorted({a for _, _, a in shard} | {"m"})
    out.append(("pack", {"num": rng.choice([1, 2, 2, 4, 3, 8]), "axis": rng.choice(axes)}))
    out.append(("unpack", {"num": rng.choice([1, 2, 3, 4]), "axis": rng.choice(axes)}))
    out.append(("pack_unpacked", {"num": rng.choice([1, 2, 3, 4]), "axis": rng.choice(axes), "by": rng.choice([1, 2, 4])}))
    perm = list(range(n))
    rng.shuffle(perm)
    r = rng.random()
    if r < 0.08:
        perm = perm + [0]
    elif r < 0.16 and n > 1:
        perm[0] = perm[1]
    elif r < 0.22:
        perm[0] = -1 - rng.randrange(n)
    elif r < 0.28:
        perm[0] = n
    out.append(("permute_dims", {"perm": perm}))
    g = rng.randint(1, n)
    cuts = [0] + sorted(rng.sample(range(1, n), g - 1)) + [n] if n > 1 else [0, n]
    gp = list(range(len(cuts) - 1))
    rng.shuffle(gp)
    if rng.random() < 0.1:
        gp = gp + [len(gp)]
    out.append(("permute_by_groups", {"seps": cuts, "perm": gp}))
    pick = rng.choice(sorted({a for _, _, a in shard + replica} | set(offset) | {"m", "TCol", "laneid"}))
    out += [("span", {"axis": None}), ("span", {"axis": pick}), ("size", {"axis": rng.choice([None, pick])})]
    shp = factorize(size, rng.randint(1, 3), rng)
    pts = sorted({rng.randrange(size) for _ in range(min(size, 6))})
    out.append(("apply", {"shape": shp, "points": pts}))
    out.append(("apply_flat", {"points": pts}))  # apply(f): no shape
    out.append(("apply_iters", {"points": pts}))  # apply(*digits): one coordinate per shard iter, no shape
    return out


def ANALYZER(t: Any) -> Any:
    import tvm_tirx

    return tvm_tirx.sym.Analyzer()


def apply_unshaped(t, L, extents, pts):
    """``apply`` without a shape: the flat index (``extents`` None) or its digits over ``extents``."""
    res = []
    for f in pts:
        coord, r = [], f
        for d in reversed(extents or []):
            coord.append(r % d)
            r //= d
        coord = coord[::-1] if extents is not None else [f]
        got = L.apply(*coord)
        res.append([coord, {str(k): int(v if type(v).__name__ == "IntImm" else ANALYZER(t).simplify(v)) for k, v in got.items()}])
    return res


def apply_points(t, L, shape, pts):
    res = []
    for f in pts:
        coord, r = [], f
        for d in reversed(shape):
            coord.append(r % d)
            r //= d
        coord.reverse()
        got = L.apply(*coord, shape=shape)
        # a swizzle_inner=False ComposeLayout answers with an unsimplified Let over constants
        res.append([coord, {str(k): int(v if type(v).__name__ == "IntImm" else ANALYZER(t).simplify(v)) for k, v in got.items()}])
    return res


def run_tile_op(t, L, op, args):
    if op in ("canonicalize", "is_contiguous", "is_trivial", "get_scope", "check_well_formed"):
        return call(t, getattr(L, op))
    if op == "group":
        return call(t, lambda: L.group(args["shape"]))
    if op in ("span", "size"):
        return call(t, lambda: getattr(L, op)(args["axis"]))
    if op == "tile":
        o = args["outer"]
        return call(t, lambda: L.tile(tirx_layout(t, o["shard"], o["replica"], o["offset"]), args["outer_shape"], args["inner_shape"]))
    if op == "tile_to":
        return call(t, lambda: L.tile_to(args["to_shape"], args["current_shape"]))
    if op in ("pack", "unpack"):
        return call(t, lambda: getattr(L, op)(args["num"], args["axis"]))
    if op == "pack_unpacked":  # pack(unpack(L, num * by), num): mostly packable
        return call(t, lambda: L.unpack(args["num"] * args["by"], args["axis"]).pack(args["num"], args["axis"]))
    if op == "permute_dims":
        return call(t, lambda: L.permute_dims(args["perm"]))
    if op == "permute_by_groups":
        return call(t, lambda: L.permute_by_groups(args["seps"], args["perm"]))
    if op == "apply":
        return call(t, lambda: apply_points(t, L, args["shape"], args["points"]), raw=True)
    if op in ("apply_flat", "apply_iters"):
        extents = [int(i.extent) for i in L.shard] if op == "apply_iters" else None
        return call(t, lambda: apply_unshaped(t, L, extents, args["points"]), raw=True)
    raise ValueError(op)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--layouts", type=int, default=320)
    ap.add_argument("--composes", type=int, default=80)
    ap.add_argument("--out", type=pathlib.Path, default=pathlib.Path(__file__).with_name("ops.jsonl"))
    a = ap.parse_args()
    import tvm_tirx.tirx.layout as t

    rng = random.Random(a.seed)
    rows = []
    for _ in range(a.layouts):
        shard, replica, offset = random_layout(rng, memory_only=rng.random() < 0.2)
        L = tirx_layout(t, shard, replica, offset)
        for op, args in tile_ops(rng, shard, replica, offset):
            rows.append({"op": op, **layout_row(shard, replica, offset), "args": args, **run_tile_op(t, L, op, args)})
    for _ in range(a.composes):
        n = rng.randint(1, 3)
        extents = [rng.choice([2, 4, 8, 16]) for _ in range(n)]
        shard = compact_iters(extents, ["m"] * n, rng)
        replica = [(2, rng.choice([0, 64, 128]), rng.choice(["m", "laneid"]))] if rng.random() < 0.2 else []
        offset = {"m": rng.choice([8, 16, 64])} if rng.random() < 0.2 else {}
        if rng.random() < 0.08:  # a tile TIRx accepts but cannot apply
            shard = shard + [(2, 1, "laneid")]
        sl = rng.randint(0, 3)
        sw = [rng.randint(0, 3), sl, rng.randint(sl, sl + 2)]
        inner = rng.random() < 0.75
        C = t.ComposeLayout(*sw, tirx_layout(t, shard, replica, offset), inner)
        if not inner:
            sw.append(False)
        size = math.prod(e for e, _, _ in shard)
        base = {**layout_row(shard, replica, offset), "swizzle": sw}  # [per_element, swizzle_len, atom_len(, swizzle_inner=False)]
        k = rng.randint(1, 2)
        osh = factorize(rng.choice([2, 4, 6]), k, rng)
        o_axis = rng.choice(["m", "m", "m", "laneid", "warpid"])
        outer = {"shard": [list(i) for i in compact_iters(osh, [o_axis] * k, rng)], "replica": [], "offset": {}}
        outer["spec"] = spec_text(outer["shard"], [], {})
        cur = factorize(size, k, rng)
        calls = [
            ("canonicalize", {}, lambda: C.canonicalize()),
            ("check_well_formed", {}, lambda: C.check_well_formed()),
            ("is_trivial", {}, lambda: C.is_trivial()),
            ("pack", {"num": rng.choice([1, 2, 4, 3])}, None),
            ("unpack", {"num": rng.choice([1, 2, 4, 3])}, None),
            ("tile", {"outer": outer, "outer_shape": osh, "inner_shape": factorize(size, k, rng)}, None),
            ("tile_to", {"to_shape": [c * rng.choice([1, 2, 3]) for c in cur], "current_shape": cur}, None),
            ("apply", {"shape": factorize(size, rng.randint(1, 2), rng), "points": sorted({rng.randrange(size) for _ in range(6)})}, None),
            ("apply_flat", {"points": sorted({rng.randrange(size) for _ in range(6)})}, None),
            ("span", {"axis": rng.choice([None, None, "m"])}, None),
            ("size", {"axis": rng.choice([None, "m"])}, None),
        ]
        for op, args, f in calls:
            if op in ("pack", "unpack"):
                res = call(t, lambda op=op, args=args: getattr(C, op)(args["num"]))
            elif op == "tile":
                res = call(t, lambda args=args: C.tile(tirx_layout(t, outer["shard"], [], {}), args["outer_shape"], args["inner_shape"]))
            elif op == "tile_to":
                res = call(t, lambda args=args: C.tile_to(args["to_shape"], args["current_shape"]))
            elif op in ("span", "size"):
                res = call(t, lambda op=op, args=args: getattr(C, op)(args["axis"]))
            elif op == "apply_flat":
                res = call(t, lambda args=args: apply_unshaped(t, C, None, args["points"]), raw=True)
            elif op == "apply":
                res = call(t, lambda args=args: apply_points(t, C, args["shape"], args["points"]), raw=True)
            else:
                res = call(t, f)
            rows.append({"op": op, **base, "args": args, **res})
    with open(a.out, "w") as fh:
        for r in rows:
            fh.write(json.dumps(r, separators=(",", ":")) + "\n")
    counts: dict[str, list[int]] = {}
    for r in rows:
        c = counts.setdefault(r["op"] + (" (compose)" if "swizzle" in r else ""), [0, 0])
        c["error" in r] += 1
    for k, (ok, err) in sorted(counts.items()):
        print(f"{k:28s} {ok:5d} answered {err:5d} refused", file=sys.stderr)
    print(f"{len(rows)} rows -> {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
