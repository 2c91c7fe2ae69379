"""Generate ll_parity.jsonl: Triton 3.9's C++ LinearLayout on the operations of issue 17.

    python tests/oracles/triton-3.9-generated/make_ll_parity.py [--seed 20261128] [--count 600] [--out PATH]

Needs `triton==3.9.0` (no GPU).  Each case goes through `triton._C.libtriton.linear_layout`
in a worker subprocess (`triton_worker.py`; Triton aborts on some input).  Operations:

* `mul`: the direct product `a * b` of layouts whose in- and out-dims are drawn from shared
  pools in one global order each (so dims common to both keep their relative order, as Triton
  requires), sizes 1..8 per dim — the result's dim order is what issue 17 was about;
* `invert_and_compose`: `a.invert_and_compose(b)` with `b` surjective and each of its out-dims
  1x, 2x or 4x as large as `a`'s (Triton 3.9 reads `a` in `b`'s larger space);
* `str`: Triton's `str()` of a layout (its `toString`, character for character).

Row format, keys sorted: {"op": ..., "a": <layout>, "b": <layout> (not for str), and "result":
<layout> or "text": <str>, or "error"}, a layout being {"bases": [[in, [[...], ...]], ...],
"out_dims": [[out, size], ...]} (as `LinearLayout.to_dict`).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from triton_worker import TritonWorker, generate  # noqa: E402,F401 (the tests run TritonWorker live)

WORKER = r"""
import json, sys
from triton._C.libtriton import linear_layout as tl

def make(d):
    return tl.LinearLayout.from_bases([(n, v) for n, v in d["bases"]], [n for n, _ in d["out_dims"]],
                                      [s for _, s in d["out_dims"]], False)

def dump(t):
    return {"bases": [[n, v] for n, v in t.bases], "out_dims": [[n, s] for n, s in t.out_dims]}

for line in sys.stdin:
    (case,) = json.loads(line)
    try:
        a = make(case["a"])
        if case["op"] == "str":
            out = {"text": str(a)}
        elif case["op"] == "mul":
            out = {"result": dump(a * make(case["b"]))}
        else:
            out = {"result": dump(a.invert_and_compose(make(case["b"])))}
    except Exception as e:
        out = {"error": f"triton raised {type(e).__name__}: {e}"}
    sys.stdout.write("@@" + json.dumps(out) + "\n")
    sys.stdout.flush()
"""

IN_POOL = ["register", "lane", "warp", "block", "offset", "in1", "in2"]
OUT_POOL = ["dim0", "dim1", "dim2", "dim3"]


def layout(rng: random.Random, ins: list[str], outs: dict[str, int], max_bits: int = 3) -> dict:
    return {"bases": [[n, [[rng.randrange(s) for s in outs.values()] for _ in range(rng.randint(0, max_bits))]] for n in ins],
            "out_dims": [[n, s] for n, s in outs.items()]}


def subset(rng: random.Random, order: list[str]) -> list[str]:
    return [n for n in order if rng.random() < 0.5]


def surjective(d: dict) -> bool:
    sizes = [s for _, s in d["out_dims"]]
    shifts, acc = [], 0
    for s in sizes:
        shifts.append(acc)
        acc += s.bit_length() - 1
    rows = []
    for _, vecs in d["bases"]:
        for v in vecs:
            f = sum(x << sh for x, sh in zip(v, shifts))
            for r in rows:
                f = min(f, f ^ r)
            if f:
                rows.append(f)
    return len(rows) == acc


def random_case(rng: random.Random) -> dict:
    op = rng.choice(["mul", "mul", "invert_and_compose", "invert_and_compose", "str"])
    ins_order, outs_order = IN_POOL[:], OUT_POOL[:]
    rng.shuffle(ins_order)
    rng.shuffle(outs_order)
    if op == "mul":
        a = layout(rng, subset(rng, ins_order), {n: 1 << rng.randint(0, 3) for n in subset(rng, outs_order)})
        b = layout(rng, subset(rng, ins_order), {n: 1 << rng.randint(0, 3) for n in subset(rng, outs_order)})
        return {"op": op, "a": a, "b": b}
    outs = {n: 1 << rng.randint(0, 3) for n in outs_order[: rng.randint(1, 3)]}
    a = layout(rng, subset(rng, ins_order) or ["lane"], outs)
    if op == "str":
        return {"op": op, "a": a}
    bigger = {n: s << rng.choice([0, 1, 1, 2]) for n, s in outs.items()}
    names = list(bigger)
    rng.shuffle(names)  # the outer layout may list its out-dims in another order
    bigger = {n: bigger[n] for n in names}
    for _ in range(50):
        b = layout(rng, subset(rng, ins_order) or ["offset"], bigger, max_bits=5)
        if surjective(b):
            return {"op": op, "a": a, "b": b}
    total = sum(s.bit_length() - 1 for s in bigger.values())
    vecs = []
    for n, s in bigger.items():
        for i in range(s.bit_length() - 1):
            vecs.append([1 << i if m == n else 0 for m in bigger])
    rng.shuffle(vecs)
    return {"op": op, "a": a, "b": {"bases": [["offset", vecs]], "out_dims": [[n, s] for n, s in bigger.items()]}} if total else \
        {"op": op, "a": a, "b": {"bases": [["offset", []]], "out_dims": [[n, s] for n, s in bigger.items()]}}


EDGE_CASES = [
    # issue 17, each example as stated there
    {"op": "invert_and_compose", "a": {"bases": [["lane", [[1]]]], "out_dims": [["dim0", 2]]},
     "b": {"bases": [["offset", [[1], [2]]]], "out_dims": [["dim0", 4]]}},
    {"op": "mul", "a": {"bases": [["in2", [[0, 1]]]], "out_dims": [["out1", 1], ["out2", 2]]},
     "b": {"bases": [["in1", []], ["in2", []], ["in3", []]], "out_dims": [["out1", 1], ["out2", 1]]}},
    {"op": "str", "a": {"bases": [["in", [[1], [2]]]], "out_dims": [["out", 4]]}},
    {"op": "str", "a": {"bases": [], "out_dims": []}},
    {"op": "str", "a": {"bases": [], "out_dims": [["a", 4]]}},
    {"op": "str", "a": {"bases": [["a", []], ["b", [[1]]]], "out_dims": [["o", 2]]}},
]


def main() -> int:
    return generate(__doc__, seed=20261128, count=600, out=HERE / "ll_parity.jsonl", fixed=EDGE_CASES,
                    random_case=random_case, source=WORKER, row_of=lambda c, run: {**c, **run(c)})


if __name__ == "__main__":
    raise SystemExit(main())
