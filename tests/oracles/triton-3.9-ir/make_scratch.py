"""Generate scratch.jsonl: the scratch shared memory Triton 3.9 gives every distinct ``tt.reduce``
and ``tt.scan`` of the kernels in ``ir/`` (and a few extra layouts), each compiled alone.

    python tests/oracles/triton-3.9-ir/make_scratch.py          # needs triton==3.9.0, no GPU

Each op (operand types, axis, the op's warps and the target; found with ``converters.mlir`` and
``linlayout.app.audit_scratch.region_ops``, whose reading of the files the corpus test checks)
becomes the module

    tt.splat %in -> tensor<SHAPE x !tt.ptr<T>, #L>;  tt.load {isVolatile}   (per operand)
    "tt.reduce" / "tt.scan" over AXIS, combining with arith.addf / addi
    tt.store of every result (a scalar to %out, a tensor through splat pointers)

compiled from TTGIR (``triton.compile(path, target=GPUTarget(...))``; the TTGIR passes do not run
again) in a worker process.  The module has no other shared-memory user, so the kernel's
``metadata.shared`` is the op's scratch.  Row (keys sorted): ``source`` (``ir/<file>:<line>`` or
``extra``), ``op``, ``target``, ``num_warps``, ``axis``, ``inputs`` (type texts, aliases expanded)
and ``shared_bytes``, or ``error``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from isolate import compile_each, require_triton, worker_source, write_rows  # noqa: E402

WORKER = worker_source('out = {"shared_bytes": int(k.metadata.shared)}')

B = "#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}}}>"
#: extra layouts beyond the corpus: (op, target, warps, axis, [input types])
EXTRA = [
    ("tt.reduce", "cuda:90", 8, 0, [f"tensor<64x64xf32, {B.format([1, 4], [8, 4], [4, 2], [1, 0])}>"]),
    ("tt.reduce", "cuda:90", 8, 1, [f"tensor<64x64xf32, {B.format([1, 4], [8, 4], [4, 2], [1, 0])}>"]),
    ("tt.reduce", "cuda:90", 8, 1, [f"tensor<16x64xf16, {B.format([1, 2], [4, 8], [2, 4], [1, 0])}>"] * 2),
    ("tt.reduce", "cuda:80", 4, 0, [f"tensor<32x16xi32, {B.format([2, 1], [16, 2], [4, 1], [0, 1])}>"]),
    ("tt.reduce", "cuda:90", 4, 0,
     ["tensor<128x64xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>"]),
    ("tt.reduce", "cuda:80", 8, 1,
     ["tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>>"]),
    ("tt.scan", "cuda:90", 8, 0, [f"tensor<64x32xf32, {B.format([2, 1], [8, 4], [4, 2], [0, 1])}>"]),
    ("tt.scan", "cuda:90", 8, 1, [f"tensor<64x32xf32, {B.format([2, 1], [8, 4], [4, 2], [0, 1])}>"]),
    ("tt.scan", "cuda:80", 4, 0, [f"tensor<4096xi32, {B.format([4], [32], [4], [0])}>"] * 2),
    ("tt.scan", "cuda:90", 4, 0, [f"tensor<64xf32, {B.format([1], [32], [4], [0])}>"]),
]


def _module(op: str, target: str, warps: int, axis: int, inputs: list) -> str:
    """The one-op module (inputs are TensorTypes)."""
    t0 = inputs[0]
    lay, shape = t0.layout_text, list(t0.shape)
    tpw = 64 if target.startswith("hip:") else 32
    dts = [t.dtype for t in inputs]
    n = len(inputs)
    s = "x".join(map(str, shape))
    args = ", ".join(f"%in{i}: !tt.ptr<{d}>, %out{i}: !tt.ptr<{d}>" for i, d in enumerate(dts))
    body = []
    for i, d in enumerate(dts):
        body.append(f"    %p{i} = tt.splat %in{i} : !tt.ptr<{d}> -> tensor<{s}x!tt.ptr<{d}>, {lay}>")
        body.append(f"    %v{i} = tt.load %p{i} {{isVolatile = true}} : tensor<{s}x!tt.ptr<{d}>, {lay}>")
    if op == "tt.reduce":
        rshape = [v for k, v in enumerate(shape) if k != axis]
        rlay = f"#ttg.slice<{{dim = {axis}, parent = {lay}}}>"
        rtypes = dts if not rshape else [f"tensor<{'x'.join(map(str, rshape))}x{d}, {rlay}>" for d in dts]
    else:
        rshape, rlay = shape, lay
        rtypes = [f"tensor<{s}x{d}, {lay}>" for d in dts]
    a = ", ".join(f"%a{i}: {d}" for i, d in enumerate(dts))
    b = ", ".join(f"%b{i}: {d}" for i, d in enumerate(dts))
    comb = [f"      %c{i} = arith.{'addf' if d.startswith(('f', 'bf')) else 'addi'} %a{i}, %b{i} : {d}" for i, d in enumerate(dts)]
    ins = ", ".join(f"%v{i}" for i in range(n))
    outs = ", ".join(f"%r{i}" for i in range(n)) if n > 1 else "%r0"
    res = f"%r:{n}" if n > 1 else "%r0"
    attrs = f"axis = {axis} : i32" + (", reverse = false" if op == "tt.scan" else "")
    body.append(f"    {res} = \"{op}\"({ins}) <{{{attrs}}}> ({{")
    body.append(f"    ^bb0({a}, {b}):")
    body.extend(comb)
    body.append(f"      {op}.return {', '.join(f'%c{i}' for i in range(n))} : {', '.join(dts)}")
    ityp = ", ".join(f"tensor<{s}x{d}, {lay}>" for d in dts)
    body.append(f"    }}) : ({ityp}) -> ({', '.join(rtypes)})")
    for i, d in enumerate(dts):
        r = f"%r#{i}" if n > 1 else "%r0"
        if op == "tt.reduce" and not rshape:
            body.append(f"    tt.store %out{i}, {r} : !tt.ptr<{d}>")
        else:
            rs = "x".join(map(str, rshape))
            body.append(f"    %q{i} = tt.splat %out{i} : !tt.ptr<{d}> -> tensor<{rs}x!tt.ptr<{d}>, {rlay}>")
            body.append(f"    tt.store %q{i}, {r} : tensor<{rs}x!tt.ptr<{d}>, {rlay}>")
    del outs
    head = (f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, ttg.target = "{target}", '
            f'"ttg.threads-per-warp" = {tpw} : i32}} {{')
    return "\n".join([head, f"  tt.func public @k({args}) {{", *body, "    tt.return", "  }", "}", ""])


def main() -> int:
    require_triton(__doc__)
    from converters.mlir import parse_type
    from converters.mlir.module import parse_module
    from linlayout.app.audit_scratch import region_ops  # only to find the ops and their types; Triton sizes them

    cases, seen = [], set()
    for path in sorted((HERE / "ir").glob("*.ttgir")):
        m = parse_module(path.read_text())
        for r in region_ops(m):
            key = (m.target, r.op, r.num_warps, r.axis, tuple(str(t) for t in r.inputs))
            if key not in seen:
                seen.add(key)
                cases.append((f"ir/{path.name}:{r.line}", r.op, m.target, r.num_warps, r.axis, r.inputs))
    for op, target, warps, axis, texts in EXTRA:
        cases.append(("extra", op, target, warps, axis, [parse_type(t) for t in texts]))
    rows = compile_each(
        WORKER,
        (
            ({"source": src, "op": op, "target": target, "num_warps": warps, "axis": axis, "inputs": [str(t) for t in inputs]},
             _module(op, target, warps, axis, inputs), target)
            for src, op, target, warps, axis, inputs in cases
        ),
    )
    write_rows("scratch.jsonl", rows, "ops")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
