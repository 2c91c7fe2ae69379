"""Generate cvt_ptx.jsonl: every distinct ``ttg.convert_layout`` of the NVIDIA kernels in ``ir/``,
isolated in a one-op module and lowered by Triton 3.9 to PTX, with its instruction counts.

    python tests/oracles/triton-3.9-ir/make_cvt_ptx.py          # needs triton==3.9.0, no GPU

Each conversion (source and destination layout, shape, element type, the warps of the op --
its warp-specialized partition's where it sits in one -- and the target) becomes the module

    tt.splat %in -> tensor<SHAPE x !tt.ptr<T>, #src>;  tt.load {isVolatile}
    ttg.convert_layout  #src -> #dst
    tt.splat %out -> ..., #dst;  tt.store

compiled from TTGIR (``triton.compile(path, target=GPUTarget("cuda", arch, 32))``: the TTGIR
passes do not run again, so the conversion stays as written) in a worker process.  The volatile
load keeps every register a distinct value.  Row (keys sorted): ``file``, ``line`` (where the
conversion sits in ``ir/``), ``target``, ``num_warps``, ``src``, ``dst``, ``shape``, ``dtype``,
``num_ctas`` (only where the kernel runs as a CTA cluster), ``ptx_counts`` (lines of the PTX starting with ``shfl.sync``, ``st.shared``, ``ld.shared``,
``bar.sync``/``barrier.sync``, ``stmatrix``, ``ldmatrix``; predicated ones included) and
``shared_bytes`` (the kernel's ``metadata.shared``: the conversion's scratch), or ``error``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from isolate import compile_each, require_triton, worker_source, write_rows  # noqa: E402

WORKER = worker_source(
    prelude=r'''
PATS = {"shfl": r"shfl\.sync", "st_shared": r"st\.shared", "ld_shared": r"ld\.shared", "bar_sync": r"(bar|barrier)\.sync",
        "stmatrix": r"stmatrix", "ldmatrix": r"ldmatrix"}
''',
    measure=r'''
ptx = k.asm["ptx"]
counts = {k2: len(re.findall(r"^\s*(?:@!?%p\d+\s+)?" + p + r"\b", ptx, re.M)) for k2, p in PATS.items()}
out = {"ptx_counts": counts, "shared_bytes": int(k.metadata.shared)}
''',
)

MODULE = """module attributes {{"ttg.num-ctas" = {ctas} : i32, "ttg.num-warps" = {nw} : i32, ttg.target = "{target}", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @cvt(%in: !tt.ptr<{dt}>, %out: !tt.ptr<{dt}>) {{
    %p = tt.splat %in : !tt.ptr<{dt}> -> tensor<{s}x!tt.ptr<{dt}>, {src}>
    %v = tt.load %p {{isVolatile = true}} : tensor<{s}x!tt.ptr<{dt}>, {src}>
    %c = ttg.convert_layout %v : tensor<{s}x{dt}, {src}> -> tensor<{s}x{dt}, {dst}>
    %q = tt.splat %out : !tt.ptr<{dt}> -> tensor<{s}x!tt.ptr<{dt}>, {dst}>
    tt.store %q, %c : tensor<{s}x!tt.ptr<{dt}>, {dst}>
    tt.return
  }}
}}
"""


def module_text(c: dict) -> str:
    """The one-op module of the conversion case ``c`` (``num_warps``, ``target``, ``dtype``, ``shape``, ``src``, ``dst``,
    and ``num_ctas`` where the kernel runs as a CTA cluster)."""
    return MODULE.format(ctas=c.get("num_ctas", 1), nw=c["num_warps"], target=c["target"], dt=c["dtype"], s="x".join(map(str, c["shape"])), src=c["src"], dst=c["dst"])


def main() -> int:
    require_triton(__doc__)
    from converters.mlir.module import parse_module  # only to find the conversions; Triton lowers them

    cases, seen = [], set()
    for path in sorted((HERE / "ir").glob("*.ttgir")):
        m = parse_module(path.read_text())
        if not m.target.startswith("cuda:"):
            continue
        for op in m.ops_named("ttg.convert_layout"):
            src, dst = op.types
            if src.dtype.startswith("!"):
                continue  # pointer tensors: no load/store of them
            key = (m.target, m.num_ctas, op.num_warps, src.layout_text, dst.layout_text, src.shape, src.dtype)
            if key in seen:
                continue
            seen.add(key)
            cases.append({"file": f"ir/{path.name}", "line": op.line, "target": m.target, "num_warps": op.num_warps,
                          "src": src.layout_text, "dst": dst.layout_text, "shape": list(src.shape), "dtype": src.dtype,
                          **({"num_ctas": m.num_ctas} if m.num_ctas > 1 else {})})
    rows = compile_each(WORKER, ((c, module_text(c), c["target"]) for c in cases))
    write_rows("cvt_ptx.jsonl", rows, "conversions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
