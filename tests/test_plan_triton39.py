"""strategy="triton" against Triton 3.9 itself: random conversions (linear layouts of one CTA
that permute the tensor bits -- Triton 3.9's ``#ttg.linear`` takes no XOR-mixed basis --,
i8/f16/f32, sm_80/sm_90) isolated in a one-op module and lowered to PTX as
tests/oracles/triton-3.9-ir/make_cvt_ptx.py does; every shared-memory round trip of ours has
Triton's stores, loads, barriers and scratch bytes exactly (its plain ld/st fallback swizzle and
``largestVectorisation`` vectors: ``linlayout.plan._triton_ldst`` /
``linlayout.plan_price._aligned_vector``)."""

from __future__ import annotations

import random
import sys

import pytest

from conftest import ORACLES
from linlayout import LinearLayout
from linlayout.plan import plan_conversion

DTYPES = {8: "i8", 16: "f16", 32: "f32"}


def _random_layout(rng: random.Random, shape: list[int], n_warp: int) -> LinearLayout:
    """A random distributed layout of one CTA: a permutation of the tensor bits split into
    registers, 32 lanes and ``2**n_warp`` warps."""
    total = sum(s.bit_length() - 1 for s in shape)
    cols = [1 << i for i in range(total)]
    rng.shuffle(cols)
    n_reg = total - 5 - n_warp
    if rng.random() < 0.5:  # registers low, as real layouts have them
        cols[:n_reg] = sorted(cols[:n_reg])
    return LinearLayout.from_flat({"register": cols[:n_reg], "lane": cols[n_reg:n_reg + 5], "warp": cols[n_reg + 5:]},
                                  [("dim0", shape[0]), ("dim1", shape[1])])


def _text(L: LinearLayout) -> str:
    def bases(d):
        return "[" + ", ".join("[" + ", ".join(map(str, v)) + "]" for v in L.bases[d]) + "]"

    return f"#ttg.linear<{{register = {bases('register')}, lane = {bases('lane')}, warp = {bases('warp')}, block = []}}>"


@pytest.mark.reference
def test_random_round_trips_match_triton_ptx():
    pytest.importorskip("triton")
    import triton

    if triton.__version__ != "3.9.0":
        pytest.skip(f"the reference is Triton 3.9.0, installed {triton.__version__}")
    sys.path.insert(0, str(ORACLES / "triton-3.9-ir"))
    from isolate import compile_each
    from make_cvt_ptx import WORKER, module_text

    rng = random.Random(39)
    cases, plans = [], []
    while len(cases) < 40:
        shape = [rng.choice([16, 32, 64, 128]), rng.choice([16, 32, 64, 128])]
        n_warp = rng.choice([1, 2, 3])
        if sum(s.bit_length() - 1 for s in shape) < 5 + n_warp + 1:
            continue
        a, b = _random_layout(rng, shape, n_warp), _random_layout(rng, shape, n_warp)
        bits, arch = rng.choice([8, 16, 32]), rng.choice([80, 90])
        p = plan_conversion(a, b, bitwidth=bits, strategy="triton", ldmatrix=True, stmatrix=arch >= 90)
        if p.kind != "shared_memory":
            continue
        cases.append({"target": f"cuda:{arch}", "num_warps": 1 << n_warp, "dtype": DTYPES[bits], "shape": shape,
                      "src": _text(a), "dst": _text(b)})
        plans.append(p)
    rows = compile_each(WORKER, ((c, module_text(c), c["target"]) for c in cases))
    compared = 0
    for p, r in zip(plans, rows):
        assert "error" not in r, r
        ptx = r["ptx_counts"]
        # a warp-level barrier (bar.warp.sync) is not a bar.sync line of the PTX
        got = (p.stores, p.loads, p.barriers if p.barrier_instr == "bar.sync" else 0, p.shared_bytes)
        want = (ptx["st_shared"] + ptx["stmatrix"], ptx["ld_shared"] + ptx["ldmatrix"], ptx["bar_sync"], r["shared_bytes"])
        assert got == want, (r, p.store_instr, p.load_instr, p.store_vector, p.load_vector)
        compared += 1
    assert compared == 40
