"""Generate scratch_ops.jsonl: the scratch shared memory Triton 3.9 gives the ops other than
conversions, reductions and scans -- ``tt.histogram``, ``tt.gather``, ``tt.atomic_rmw`` /
``tt.atomic_cas`` (tensor and scalar, result used or not) and ``ttg.warp_specialize`` (its
captures, and the function's per-warp bytes) -- each in a one-op module compiled alone.

    python tests/oracles/triton-3.9-ir/make_scratch_ops.py      # needs triton==3.9.0, no GPU

Each module is compiled from TTGIR (``triton.compile(path, target=GPUTarget(...))``) in a worker
process; nothing else in it uses shared memory but the ``ttg.local_alloc`` buffers a
warp-specialize case captures, so ``metadata.shared`` is the op's scratch (plus those buffers
and the warp-specialized function's bytes).  Row (keys sorted): the case's parameters, ``module``
(the TTGIR text) and ``shared_bytes``, or ``error``.  Checked by
``tests/test_audit_scratch.py::test_other_ops_scratch_against_triton``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from isolate import compile_each, require_triton, worker_source, write_rows  # noqa: E402

WORKER = worker_source('out = {"shared_bytes": int(k.metadata.shared)}')
B = "#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}}}>"


def head(warps, target, tpw):
    """The module line."""
    return (f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, ttg.target = "{target}", '
            f'"ttg.threads-per-warp" = {tpw} : i32}} {{')


def module(warps, target, args, body):
    """A module of one function ``@k(args)`` running ``body`` (lines)."""
    tpw = 64 if target.startswith("hip") else 32
    return "\n".join([head(warps, target, tpw), f"  tt.func public @k({args}) {{", *body, "    tt.return", "  }", "}", ""])


def hist(n, bins, lay_in, lay_out, warps, target):
    """A ``tt.histogram`` of ``n`` loaded values into ``bins`` bins, stored."""
    return module(warps, target, "%in: !tt.ptr<i32>, %out: !tt.ptr<i32>", [
        f"    %p = tt.splat %in : !tt.ptr<i32> -> tensor<{n}x!tt.ptr<i32>, {lay_in}>",
        f"    %v = tt.load %p {{isVolatile = true}} : tensor<{n}x!tt.ptr<i32>, {lay_in}>",
        f"    %h = tt.histogram %v : tensor<{n}xi32, {lay_in}> -> tensor<{bins}xi32, {lay_out}>",
        f"    %q = tt.splat %out : !tt.ptr<i32> -> tensor<{bins}x!tt.ptr<i32>, {lay_out}>",
        f"    tt.store %q, %h : tensor<{bins}x!tt.ptr<i32>, {lay_out}>"])


def atomic(shape, dt, lay, warps, target, used, cas=False):
    """A ``tt.atomic_rmw`` (or ``tt.atomic_cas``) on a tensor of ``shape`` (None: a scalar), its
    result stored when ``used``."""
    if shape is None:
        T, P, M, ptr = dt, f"!tt.ptr<{dt}>", "i1", "%in"
        body = [f"    %v = tt.load %in : {P}", "    %m = arith.constant true"]
    else:
        s = "x".join(map(str, shape))
        T, P, M, ptr = f"tensor<{s}x{dt}, {lay}>", f"tensor<{s}x!tt.ptr<{dt}>, {lay}>", f"tensor<{s}xi1, {lay}>", "%p"
        body = [f"    %p = tt.splat %in : !tt.ptr<{dt}> -> {P}", f"    %v = tt.load %p {{isVolatile = true}} : {P}",
                f"    %m = arith.constant dense<true> : {M}"]
    if cas:
        body.append(f"    %r = tt.atomic_cas acq_rel, gpu, {ptr}, %v, %v : ({P}, {T}, {T}) -> {T}")
    else:
        op = "fadd" if dt.startswith("f") else "add"
        body.append(f"    %r = tt.atomic_rmw {op}, acq_rel, gpu, {ptr}, %v, %m : ({P}, {T}, {M}) -> {T}")
    if used and shape is None:
        body.append(f"    tt.store %out, %r : {P}")
    elif used:
        body += [f"    %q = tt.splat %out : !tt.ptr<{dt}> -> {P}", f"    tt.store %q, %r : {P}"]
    return module(warps, target, f"%in: !tt.ptr<{dt}>, %out: !tt.ptr<{dt}>", body)


def gather(shape, ishape, dt, lay_s, lay_i, axis, warps, target):
    """A ``tt.gather`` along ``axis``, its result stored."""
    s = "x".join(map(str, shape)); si = "x".join(map(str, ishape))
    return module(warps, target, f"%in: !tt.ptr<{dt}>, %idx: !tt.ptr<i32>, %out: !tt.ptr<{dt}>", [
        f"    %p = tt.splat %in : !tt.ptr<{dt}> -> tensor<{s}x!tt.ptr<{dt}>, {lay_s}>",
        f"    %v = tt.load %p {{isVolatile = true}} : tensor<{s}x!tt.ptr<{dt}>, {lay_s}>",
        f"    %pi = tt.splat %idx : !tt.ptr<i32> -> tensor<{si}x!tt.ptr<i32>, {lay_i}>",
        f"    %i = tt.load %pi {{isVolatile = true}} : tensor<{si}x!tt.ptr<i32>, {lay_i}>",
        f"    %g = tt.gather %v[%i] {{axis = {axis} : i32}} : (tensor<{s}x{dt}, {lay_s}>, tensor<{si}xi32, {lay_i}>) -> tensor<{si}x{dt}, {lay_i}>",
        f"    %q = tt.splat %out : !tt.ptr<{dt}> -> tensor<{si}x!tt.ptr<{dt}>, {lay_i}>",
        f"    tt.store %q, %g : tensor<{si}x!tt.ptr<{dt}>, {lay_i}>"])


def ws(nptr, nint, nf16, parts, nmem=0, target="cuda:90", warps=4):
    """A ``ttg.warp_specialize`` capturing ``nptr`` i32 pointers, ``nint`` i32, ``nf16`` f16 (and an
    f16 pointer) and ``nmem`` shared buffers, with partitions of ``parts`` warps, each using every
    capture."""
    caps = ["!tt.ptr<i32>"] * nptr + ["i32"] * nint + ["f16"] * nf16
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(caps)) + (", %fp: !tt.ptr<f16>" if nf16 or nmem else "")
    lines = ['#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>', '#smem = #ttg.shared_memory',
             '#bl = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>',
             f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, ttg.target = "{target}", "ttg.threads-per-warp" = 32 : i32}} {{',
             f"  tt.func public @k({args}) {{"]
    names = [f"%a{i}" for i in range(len(caps))]
    for m in range(nmem):
        lines.append(f"    %m{m} = ttg.local_alloc : () -> !ttg.memdesc<32xf16, #shared, #smem, mutable>")
        caps.append("!ttg.memdesc<32xf16, #shared, #smem, mutable>"); names.append(f"%m{m}")
    if nf16 or nmem:
        caps.append("!tt.ptr<f16>"); names.append("%fp")
    lines += [f"    ttg.warp_specialize({', '.join(names)})", "    default {", "      ttg.warp_yield", "    }"]
    for j, w in enumerate(parts):
        pargs = ", ".join(f"%p{j}_{i}: {t}" for i, t in enumerate(caps))
        lines.append(f"    partition{j}({pargs}) num_warps({w}) {{")
        lines.append(f"      %c{j} = arith.constant {j + 1} : i32")
        for i, t in enumerate(caps):
            if t == "!tt.ptr<i32>":
                lines.append(f"      tt.store %p{j}_{i}, %c{j} : !tt.ptr<i32>")
            elif t == "i32":
                lines.append(f"      tt.store %p{j}_0, %p{j}_{i} : !tt.ptr<i32>")
            elif t == "f16":
                lines.append(f"      tt.store %p{j}_{len(caps) - 1}, %p{j}_{i} : !tt.ptr<f16>")
            elif t.startswith("!ttg.memdesc"):
                blw = f"#ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [{w}], order = [0]}}>"
                lines.append(f"      %l{j}_{i} = ttg.local_load %p{j}_{i} : {t} -> tensor<32xf16, {blw}>")
                lines.append(f"      %s{j}_{i} = tt.splat %p{j}_{len(caps) - 1} : !tt.ptr<f16> -> tensor<32x!tt.ptr<f16>, {blw}>")
                lines.append(f"      tt.store %s{j}_{i}, %l{j}_{i} : tensor<32x!tt.ptr<f16>, {blw}>")
        lines.append("      ttg.warp_return")
        lines.append("    }")
    lines[-1] = "    } : (" + ", ".join(caps) + ") -> ()"
    lines += ["    tt.return", "  }", "}", ""]
    return "\n".join(lines)


def cases() -> list:
    """(row, module text, target) of every case."""
    cases = []
    for target in ("cuda:90", "cuda:80", "hip:gfx942"):
        tpw = 64 if target.startswith("hip") else 32
        for warps in (1, 4, 8):
            for n, bins in ((2048, 64), (1024, 16), (4096, 256), (256, 128)):
                L = B.format([1], [tpw], [warps], [0])
                cases.append(({"op": "tt.histogram", "target": target, "warps": warps, "n": n, "bins": bins}, hist(n, bins, L, L, warps, target), target))
    for target in ("cuda:90", "hip:gfx942"):
        tpw = 64 if target.startswith("hip") else 32
        for warps in (4,):
            for shape, spt, tpwv, wpc in (((64,), [1], [tpw], [warps]), ((32, 64), [1, 4], [tpw // 8, 8], [warps, 1]), ((16,), [1], [tpw], [warps]), ((8, 8), [1, 1], [tpw // 8, 8], [1, warps])):
                L = B.format(spt, tpwv, wpc, list(range(len(shape)))[::-1])
                for dt in ("i32", "f32", "f16", "i64"):
                    for used in (True, False):
                        for cas in (False, True):
                            if cas and dt.startswith("f"): continue
                            cases.append(({"op": "tt.atomic_cas" if cas else "tt.atomic_rmw", "target": target, "warps": warps, "shape": list(shape), "dt": dt, "used": used, "layout": L}, atomic(shape, dt, L, warps, target, used, cas), target))
            for dt in ("i32", "f32", "f16", "i8"):
                for used in (True, False):
                    for cas in (False, True):
                        if cas and dt.startswith("f"): continue
                        cases.append(({"op": "scalar " + ("tt.atomic_cas" if cas else "tt.atomic_rmw"), "target": target, "dt": dt, "used": used}, atomic(None, dt, None, 4, target, used, cas), target))
    for target in ("cuda:90", "hip:gfx942"):
        tpw = 64 if target.startswith("hip") else 32
        for warps in (4, 8):
            for shape, ishape, axis, ls, li in [
                ((16, 32), (16, 32), 1, ([1, 1], [tpw // 32, 32], [warps, 1]), ([1, 1], [tpw // 32, 32], [warps, 1])),
                ((16, 32), (16, 32), 0, ([1, 1], [tpw // 32, 32], [warps, 1]), ([1, 1], [tpw // 32, 32], [warps, 1])),
                ((64, 16), (64, 8), 1, ([1, 4], [tpw // 4, 4], [warps, 1]), ([1, 2], [tpw // 4, 4], [warps, 1])),
                ((128,), (64,), 0, ([1], [tpw], [warps]), ([1], [tpw], [warps])),
                ((32, 32), (32, 32), 1, ([1, 1], [tpw // 8, 8], [1, warps]), ([1, 1], [tpw // 8, 8], [1, warps]))]:
                Ls = B.format(ls[0], ls[1], ls[2], list(range(len(shape)))[::-1]); Li = B.format(li[0], li[1], li[2], list(range(len(shape)))[::-1])
                for dt in ("f32", "f16"):
                    cases.append(({"op": "tt.gather", "target": target, "warps": warps, "shape": list(shape), "ishape": list(ishape), "axis": axis, "dt": dt, "src": Ls, "idx": Li}, gather(shape, ishape, dt, Ls, Li, axis, warps, target), target))
    for cfg in [(1,0,0),(2,0,0),(3,0,0),(1,1,0),(1,2,0),(1,3,0),(1,0,1),(1,1,1),(4,0,0),(1,0,0,1),(1,0,0,2)]:
        for parts in ([1], [2], [4], [2, 2], [1, 4], [4, 4, 4]):
            nm = cfg[3] if len(cfg) > 3 else 0
            cases.append(({"op": "ttg.warp_specialize", "cfg": cfg, "parts": parts}, ws(cfg[0], cfg[1], cfg[2], parts, nm), "cuda:90"))
    return [({**row, "module": text}, text, target) for row, text, target in cases]


def main() -> int:
    require_triton(__doc__)
    write_rows("scratch_ops.jsonl", compile_each(WORKER, cases()), "ops")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
