"""Generate the Triton 3.9 IR corpus: real kernels compiled to TritonGPU IR, and every layout on
every tensor / memdesc type in them with Triton's own linear layout for it.

    python tests/oracles/triton-3.9-ir/make_ir_corpus.py          # needs triton==3.9.0, no GPU

Writes, next to this script:

* ``ir/<kernel>.<target>.ttgir`` -- ``compiled.asm["ttgir"]`` of each kernel in ``kernels.py`` for
  each target it compiles for (sm_80, sm_90, sm_100, gfx942), ``triton.compile(src,
  target=GPUTarget(...))`` on a machine without a GPU;
* ``layouts.jsonl`` -- one row per distinct result type per file, read by Triton itself (keys sorted)::

      {"file": "ir/...", "op": <the first op producing it>, "type": <str() of the type: aliases expanded>,
       "gluon": <repr of Triton's Gluon layout for it>, "shape": <the shape of the linear layout>,
       "linear": {<in-dim>: bases}}   (or "error")

  A memdesc whose layout has fewer dims than its shape (multi-buffering: ``2x64x32`` with a rank-2
  layout) gets the linear layout of one buffer (the trailing dims); Triton's ``to_linear_layout``
  aborts on the whole shape.

  Triton parses the file (``ir.parse_mlir_module``), walks every op, and for each result of a
  tensor type with a layout or a memdesc type takes its Gluon layout
  (``GluonOpBuilder.get_gluon_layout_from_tensor / _from_memdesc``) and its linear layout
  (``to_linear_layout(layout, shape)``), in a worker process as
  ``../triton-3.9-generated/triton_worker.py`` does.  No code of ours is involved;
* ``printed_types.txt`` -- types Triton 3.9 prints for fixed Gluon layouts of every family
  (``str()`` of ``GluonOpBuilder.get_*_ty``), the text the attribute tests parse and print;
* ``compiled.json`` -- which kernel compiled for which target, and why not where it did not;
* ``shared.json`` -- the shared memory Triton allocates for each compiled kernel (``metadata.shared``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "triton-3.9-generated"))

from triton_worker import TritonWorker  # noqa: E402

WORKER = r"""
import json, re, sys
from triton._C.libtriton import gluon_ir, ir
import triton.experimental.gluon.language as gl
from triton.experimental.gluon.language import amd
from triton.experimental.gluon.language.nvidia import blackwell
from triton._C.libtriton import amd as amd_c, nvidia as nvidia_c
ctx = ir.context(); ir.load_dialects(ctx); amd_c.load_dialects(ctx); nvidia_c.load_dialects(ctx)
b = gluon_ir.GluonOpBuilder(ctx)
def build(d):
    args = {k: build(v) if isinstance(v, dict) else v for k, v in d.items() if k != "kind"}
    cls = getattr(gl, d["kind"], None) or getattr(amd, d["kind"], None) or getattr(blackwell, d["kind"])
    return cls(**args)
ELEM = {"f16": "get_half_ty", "bf16": "get_bf16_ty", "f32": "get_float_ty", "f64": "get_double_ty", "i1": "get_int1_ty",
        "i8": "get_int8_ty", "i16": "get_int16_ty", "i32": "get_int32_ty", "i64": "get_int64_ty",
        "f8E4M3FN": "get_fp8e4nv_ty", "f8E5M2": "get_fp8e5_ty"}
def elem(name):
    return getattr(b, ELEM.get(name, "get_float_ty"))()
def linear(ll):
    if hasattr(ll, "reg_bases"):
        return {"register": ll.reg_bases, "lane": ll.lane_bases, "warp": ll.warp_bases, "block": ll.block_bases}
    if hasattr(ll, "offset_bases"):
        return {"offset": ll.offset_bases, "block": ll.block_bases}
    return {"row": ll.rows, "col": ll.cols}
def lrank(lay):
    r = getattr(lay, "rank", None)
    if isinstance(r, int):
        return r
    for a in ("order", "shape", "block"):
        v = getattr(lay, a, None)
        if v:
            return len(v)
    if getattr(lay, "offset_bases", None):
        return len(lay.offset_bases[0])
    return 2 if "TensorMemory" in type(lay).__name__ else None
def shape_of(t):
    m = re.match(r"(?:tensor|!ttg\.memdesc)<((?:\d+x)*)", t)
    return [int(x) for x in m.group(1).split("x") if x]
for line in sys.stdin:
    req = json.loads(line)
    out = {}
    try:
        if req[0] == "module":
            # Triton reads the IR itself: every op result's type, its Gluon layout, its linear layout
            m = ir.parse_mlir_module(req[1], ctx)
            seen, rows = set(req[3]), []
            progress = open(req[2], "w")
            def visit(op):
                for i in range(op.get_num_results()):
                    v = op.get_result(i)
                    t = str(v.get_type())
                    if t in seen or not (t.startswith("tensor<") and ", #" in t or t.startswith("!ttg.memdesc<")):
                        continue
                    seen.add(t)
                    progress.write(json.dumps([t, op.get_name()]) + "\n")  # the parent's clue if Triton aborts
                    progress.flush()
                    row = {"type": t, "op": op.get_name()}
                    try:
                        lay = b.get_gluon_layout_from_memdesc(v) if t.startswith("!ttg.memdesc") else b.get_gluon_layout_from_tensor(v)
                        row["gluon"] = repr(lay)
                        shape = shape_of(t)
                        r = lrank(lay)
                        if r is not None and r < len(shape):  # leading buffer dims (multi-buffering): one buffer
                            shape = shape[len(shape) - r:]
                        row["shape"] = shape
                        row["linear"] = linear(b.to_linear_layout(lay._to_ir(b), shape))
                    except Exception as e:
                        row["error"] = f"triton raised {type(e).__name__}: {e}"
                    rows.append(row)
            m.walk(visit)
            out = {"rows": rows}
        else:  # ["print", layout dict, shape, dtype, memory space]
            _, layout, shape, dtype, space = req
            attr = build(layout)._to_ir(b)
            if space == "ttg.shared_memory":
                out["triton_type"] = str(b.get_shared_mem_desc_ty(elem(dtype), shape, attr, shape))
            elif space == "ttng.tensor_memory":
                out["triton_type"] = str(b.get_tensor_mem_desc_ty(elem(dtype), shape, attr, shape))
            else:
                out["triton_type"] = str(b.get_distributed_ty(elem(dtype), shape, attr))
    except Exception as e:
        out["error"] = f"triton raised {type(e).__name__}: {e}"
    sys.stdout.write("@@" + json.dumps(out) + "\n")
    sys.stdout.flush()
"""

TARGETS = {"sm_80": ("cuda", 80, 32), "sm_90": ("cuda", 90, 32), "sm_100": ("cuda", 100, 32), "gfx942": ("hip", "gfx942", 64)}


def _sig(fn, types: dict, constexprs: dict) -> dict:
    names = fn.arg_names
    return {n: ("constexpr" if n in constexprs else types.get(n, "i32")) for n in names}


def cases():
    """(file stem, kernel, signature types, constexprs, num_warps, gluon?, compile options, targets)"""
    out = [c + ({}, tuple(TARGETS)) for c in _first_cases()] + _added_cases()
    stems = [c[0] for c in out]
    assert len(stems) == len(set(stems)), "two cases write the same file"
    return out


def _first_cases():
    """The cases of the first corpus (2026-11-23): every target, Triton's default options but num_warps."""
    import kernels as K

    out = []
    out.append(("vector_add", K.add_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32"}, {"BLOCK": 1024}, 4, False))
    for blk, nw in ((1024, 4), (4096, 8)):
        out.append((f"softmax_b{blk}_w{nw}", K.softmax_kernel, {"out_ptr": "*fp32", "in_ptr": "*fp32"}, {"BLOCK": blk}, nw, False))
    out.append(("layer_norm", K.layer_norm_kernel, {"X": "*fp16", "Y": "*fp16", "W": "*fp16", "B": "*fp16", "Mean": "*fp32",
                                                     "Rstd": "*fp32", "eps": "fp32"}, {"BLOCK": 1024}, 8, False))
    for bm, bn, bk, dt, nw in ((128, 128, 64, "fp16", 4), (64, 64, 32, "fp16", 4), (128, 256, 64, "bf16", 8),
                               (64, 128, 32, "fp32", 4), (128, 128, 128, "fp8e4nv", 8)):
        ptr = "*" + dt
        out.append((f"matmul_{bm}x{bn}x{bk}_{dt}", K.matmul_kernel, {"a_ptr": ptr, "b_ptr": ptr, "c_ptr": "*fp16" if dt == "fp8e4nv" else ptr},
                    {"BM": bm, "BN": bn, "BK": bk, "GROUP_M": 8}, nw, False))
    out.append(("persistent_tma_matmul", K.persistent_tma_matmul_kernel, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16"},
                {"BM": 128, "BN": 128, "BK": 64, "NUM_SMS": 132}, 4, False))
    for bm, bn, d, nw in ((128, 64, 64, 4), (64, 32, 128, 4)):
        out.append((f"attn_fwd_{bm}x{bn}_d{d}", K.attn_fwd_kernel, {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "Out": "*fp16",
                                                                    "sm_scale": "fp32"}, {"BM": bm, "BN": bn, "HEAD_DIM": d}, nw, False))
    out.append(("reduce_transpose", K.reduce_transpose_kernel, {"x_ptr": "*fp32", "out_ptr": "*fp32", "rows_ptr": "*fp32",
                                                                "cols_ptr": "*fp32"}, {"BM": 64, "BN": 128}, 4, False))
    out.append(("reshape_permute", K.reshape_permute_kernel, {"x_ptr": "*fp32", "out_ptr": "*fp32", "out2_ptr": "*fp32"},
                {"A": 8, "B": 16, "C": 32}, 4, False))
    out.append(("gluon_smem_roundtrip", K.gluon_smem_roundtrip_kernel, {"ptr": "*fp16", "out": "*fp16"}, {"BM": 64, "BN": 64}, 4, True))
    out.append(("gluon_warp_specialize", K.gluon_warp_specialize_kernel, {"ptr": "*fp32"}, {"BLOCK": 256}, 4, True))
    out.append(("gluon_wgmma", K.gluon_wgmma_kernel, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16"},
                {"BM": 64, "BN": 128, "BK": 64}, 4, True))
    out.append(("gluon_tmem", K.gluon_tmem_kernel, {"ptr": "*fp32", "out": "*fp32"}, {"BM": 128, "BN": 64}, 4, True))
    return out


def _added_cases():
    """Cases added 2026-11-24 for layouts the first ones missed, each on the targets that have what it
    exercises (fewer compilations): block-scaled dots, wide Blackwell / Hopper tiles, 3-D and int8 dots,
    tf32x3, tensor-descriptor loads pipelined 3-4 deep, join / split / sort / gather / histogram /
    axis-0 scans / atomics, MFMA 16x16 and 32x32 on gfx942, a Gluon TMA + tcgen05 kernel."""
    import kernels as K

    nv, every = ("sm_80", "sm_90", "sm_100"), tuple(TARGETS)
    out = []
    mm = {"GROUP_M": 8}
    for bm, bn, bk, dt, nw, stages, targets in ((128, 256, 64, "fp16", 4, 3, ("sm_90", "sm_100")),
                                                (256, 128, 64, "fp16", 8, 3, ("sm_90", "sm_100")),
                                                (128, 256, 128, "fp8e5", 8, 3, ("sm_90", "sm_100")),
                                                (128, 64, 32, "fp16", 4, 4, ("sm_80",))):
        ptr = "*" + dt
        out.append((f"matmul_{bm}x{bn}x{bk}_{dt}_w{nw}_s{stages}", K.matmul_kernel,
                    {"a_ptr": ptr, "b_ptr": ptr, "c_ptr": "*fp16"}, {"BM": bm, "BN": bn, "BK": bk, **mm}, nw, False,
                    {"num_stages": stages}, targets))
    for bm, bn, targets in ((128, 256, ("sm_90", "sm_100")),):  # a CTA cluster: layouts with block bases
        out.append((f"matmul_{bm}x{bn}x64_fp16_ctas2", K.matmul_kernel, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16"},
                    {"BM": bm, "BN": bn, "BK": 64, **mm}, 4, False, {"num_ctas": 2}, targets))
    for dt, kdim in (("bf16", 16), ("bf16", 32), ("fp8e4b8", 16), ("fp8e4b8", 32)):
        out.append((f"matmul_mfma{kdim}_{dt}", K.matmul_kernel, {"a_ptr": "*" + dt, "b_ptr": "*" + dt, "c_ptr": "*fp16"},
                    {"BM": 128, "BN": 128, "BK": 64, **mm}, 4, False, {"matrix_instr_nonkdim": kdim}, ("gfx942",)))
    out.append(("dot_int8", K.dot_kernel, {"a_ptr": "*i8", "b_ptr": "*i8", "c_ptr": "*i32"},
                {"BM": 128, "BN": 128, "BK": 64, "PRECISION": None}, 4, False, {}, every))
    out.append(("dot_tf32x3", K.dot_kernel, {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32"},
                {"BM": 64, "BN": 64, "BK": 32, "PRECISION": "tf32x3"}, 4, False, {}, nv))
    out.append(("bmm_fp16", K.bmm_kernel, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16"},
                {"BB": 2, "BM": 64, "BN": 64, "BK": 32}, 4, False, {}, ("sm_90", "gfx942")))  # sm_80/sm_100: sm_90's layouts
    for fmt, a in (("e4m3", "*fp8e4nv"), ("e2m1", "*u8")):
        out.append((f"dot_scaled_{fmt}", K.dot_scaled_kernel, {"a_ptr": a, "b_ptr": a, "a_scale_ptr": "*u8",
                    "b_scale_ptr": "*u8", "c_ptr": "*fp32"}, {"BM": 128, "BN": 128, "BK": 128, "FMT": fmt}, 4, False,
                    {}, ("sm_90", "sm_100")))
    out.append(("tma_matmul_s4", K.tma_matmul_kernel, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16"},
                {"BM": 128, "BN": 128, "BK": 64}, 4, False, {"num_stages": 4}, ("sm_90", "sm_100")))
    out.append(("join_split", K.join_split_kernel, {"x_ptr": "*fp32", "out_ptr": "*fp32", "out2_ptr": "*fp32",
                                                     "out3_ptr": "*fp32"}, {"BM": 32, "BN": 64}, 4, False, {}, ("sm_90", "gfx942")))
    out.append(("sort_gather", K.sort_gather_kernel, {"x_ptr": "*fp32", "idx_ptr": "*i32", "out_ptr": "*fp32",
                                                       "out2_ptr": "*fp32"}, {"BM": 16, "BN": 32}, 4, False, {}, ("sm_90", "gfx942")))
    out.append(("scan_hist_atomic", K.scan_hist_atomic_kernel, {"x_ptr": "*fp32", "cnt_ptr": "*i32", "out_ptr": "*fp32",
                                                                 "hist_ptr": "*i32"}, {"BM": 32, "BN": 64, "BINS": 64}, 8,
                False, {}, ("sm_90", "gfx942")))
    out.append(("gluon_tma_tcgen05", K.gluon_tma_tcgen05_kernel, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16"},
                {"BM": 128, "BN": 128, "BK": 64}, 4, True, {}, ("sm_100",)))
    out.append(("gluon_amd_mfma", K.gluon_amd_mfma_kernel, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16"},
                {"BM": 64, "BN": 64, "BK": 32}, 4, True, {}, ("gfx942",)))
    out.append(("gluon_mma_scaled", K.gluon_mma_scaled_kernel, {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "a_scale_ptr": "*u8",
                "b_scale_ptr": "*u8", "c_ptr": "*fp32"}, {"BM": 128, "BN": 128, "BK": 128}, 4, True, {}, ("sm_100",)))
    return out


def compile_one(fn, types, constexprs, num_warps, gluon, options, target):
    import triton
    from triton.backends.compiler import GPUTarget

    if gluon:
        from triton.experimental.gluon._runtime import GluonASTSource as Source
    else:
        from triton.compiler import ASTSource as Source
    src = Source(fn=fn, signature=_sig(fn, types, constexprs), constexprs=constexprs)
    backend, arch, warp = TARGETS[target]
    k = triton.compile(src, target=GPUTarget(backend, arch, warp), options={"num_warps": num_warps, **options})
    return k.asm["ttgir"], int(k.metadata.shared)


#: fixed Gluon layouts of every family printed by Triton: (layout dict, shape, dtype, memory space or None)
PRINT_CASES = [
    ({"kind": "BlockedLayout", "size_per_thread": [1, 8], "threads_per_warp": [4, 8], "warps_per_cta": [4, 1], "order": [1, 0]}, [128, 128], "f16", None),
    ({"kind": "BlockedLayout", "size_per_thread": [1, 8], "threads_per_warp": [4, 8], "warps_per_cta": [4, 1], "order": [1, 0], "cga_layout": [[0, 1], [1, 0]]}, [128, 128], "f16", None),
    ({"kind": "BlockedLayout", "size_per_thread": [1, 8], "threads_per_warp": [4, 8], "warps_per_cta": [4, 1], "order": [1, 0], "cga_layout": [[0, 0]]}, [128, 128], "f16", None),
    ({"kind": "SliceLayout", "dim": 0, "parent": {"kind": "SliceLayout", "dim": 1, "parent": {"kind": "BlockedLayout", "size_per_thread": [1, 1, 1], "threads_per_warp": [1, 4, 8], "warps_per_cta": [1, 2, 2], "order": [2, 1, 0]}}}, [32], "f16", None),
    ({"kind": "NVMMADistributedLayout", "version": [3, 0], "warps_per_cta": [4, 1], "instr_shape": [16, 128, 16], "cga_layout": [[0, 1]]}, [128, 256], "f32", None),
    ({"kind": "NVMMADistributedLayout", "version": [2, 0], "warps_per_cta": [2, 2, 1], "instr_shape": [1, 16, 8]}, [2, 32, 32], "f32", None),
    ({"kind": "DotOperandLayout", "operand_index": 1, "parent": {"kind": "NVMMADistributedLayout", "version": [2, 0], "warps_per_cta": [2, 2], "instr_shape": [16, 8], "cga_layout": [[1, 0]]}, "k_width": 2}, [64, 64], "f16", None),
    ({"kind": "DotOperandLayout", "operand_index": 0, "parent": {"kind": "BlockedLayout", "size_per_thread": [1, 8], "threads_per_warp": [4, 8], "warps_per_cta": [4, 1], "order": [1, 0]}, "k_width": 0}, [128, 64], "f32", None),
    ({"kind": "DistributedLinearLayout", "reg_bases": [[0, 1], [0, 2]], "lane_bases": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], "warp_bases": [[32, 0], [64, 0]], "block_bases": [[0, 4]], "shape": [128, 8]}, [128, 8], "f16", None),
    ({"kind": "AMDMFMALayout", "version": 4, "instr_shape": [16, 16, 32], "transposed": False, "warps_per_cta": [4, 1], "element_bitwidth": 64, "tiles_per_warp": [2, 1], "cga_layout": [[1, 0]]}, [256, 64], "f32", None),
    ({"kind": "AMDMFMALayout", "version": 3, "instr_shape": [32, 32, 8], "transposed": True, "warps_per_cta": [2, 2]}, [128, 128], "f32", None),
    ({"kind": "DotOperandLayout", "operand_index": 1, "parent": {"kind": "AMDMFMALayout", "version": 3, "instr_shape": [32, 32, 8], "transposed": True, "warps_per_cta": [2, 2]}, "k_width": 8}, [128, 128], "f16", None),
    ({"kind": "AMDWMMALayout", "version": 3, "transposed": False, "warp_bases": [[1, 0], [0, 1]], "reg_bases": [[0, 2]], "instr_shape": [16, 16, 32], "cga_layout": [[1, 0]]}, [128, 128], "f32", None),
    ({"kind": "AMDWMMALayout", "version": 2, "transposed": True, "warp_bases": [[1, 0], [2, 0]]}, [128, 128], "f32", None),
    ({"kind": "AMDWMMALayout", "version": 2, "transposed": False, "warp_bases": [[0, 0, 1]], "rank": 3}, [1, 16, 32], "f32", None),
    ({"kind": "NVMMASharedLayout", "swizzle_byte_width": 128, "element_bitwidth": 16}, [64, 64], "f16", "ttg.shared_memory"),
    ({"kind": "NVMMASharedLayout", "swizzle_byte_width": 0, "element_bitwidth": 16}, [64, 64], "f16", "ttg.shared_memory"),
    ({"kind": "NVMMASharedLayout", "swizzle_byte_width": 64, "element_bitwidth": 8, "transposed": True}, [64, 64], "i8", "ttg.shared_memory"),
    ({"kind": "NVMMASharedLayout", "swizzle_byte_width": 128, "element_bitwidth": 16, "rank": 3}, [2, 64, 64], "f16", "ttg.shared_memory"),
    ({"kind": "NVMMASharedLayout", "swizzle_byte_width": 128, "element_bitwidth": 8, "rank": 3, "fp4_padded": True, "cga_layout": [[0, 1, 0]]}, [2, 64, 256], "i8", "ttg.shared_memory"),
    ({"kind": "SwizzledSharedLayout", "vec": 8, "per_phase": 1, "max_phase": 8, "order": [1, 0]}, [64, 64], "f16", "ttg.shared_memory"),
    ({"kind": "SwizzledSharedLayout", "vec": 1, "per_phase": 1, "max_phase": 1, "order": [0, 1], "cga_layout": [[0, 1]]}, [64, 64], "f16", "ttg.shared_memory"),
    ({"kind": "SharedLinearLayout", "offset_bases": [[0, 1], [0, 2], [1, 0]], "block_bases": [[2, 0]], "alignment": 128}, [4, 4], "f16", "ttg.shared_memory"),
    ({"kind": "SharedLinearLayout", "offset_bases": [[0, 1], [0, 2], [1, 0]]}, [2, 4], "f16", "ttg.shared_memory"),
    ({"kind": "PaddedSharedLayout", "interval_padding_pairs": [[32, 4], [64, 8]], "offset_bases": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], "cga_layout": [], "shape": [4, 32]}, [4, 32], "f16", "ttg.shared_memory"),
    ({"kind": "PaddedSharedLayout", "interval_padding_pairs": [[32, 4]], "offset_bases": [[0, 2], [0, 1], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], "cga_layout": [], "shape": [4, 32]}, [4, 32], "f16", "ttg.shared_memory"),
    ({"kind": "TensorMemoryLayout", "block": [128, 64], "col_stride": 1}, [128, 64], "f32", "ttng.tensor_memory"),
    ({"kind": "TensorMemoryLayout", "block": [128, 64], "col_stride": 2}, [128, 64], "f16", "ttng.tensor_memory"),
    ({"kind": "TensorMemoryLayout", "block": [128, 64], "col_stride": 1, "cga_layout": [[1, 0]], "two_ctas": True, "fp4_padded": True}, [256, 64], "i8", "ttng.tensor_memory"),
    ({"kind": "TensorMemoryScalesLayout"}, [128, 4], "i8", "ttng.tensor_memory"),
    ({"kind": "TensorMemoryScalesLayout", "cga_layout": [[1, 0]]}, [256, 4], "i8", "ttng.tensor_memory"),
]


def main() -> int:
    import triton

    assert triton.__version__ == "3.9.0", f"expected triton 3.9.0, got {triton.__version__}"
    irdir = HERE / "ir"
    irdir.mkdir(exist_ok=True)
    compiled: dict[str, str] = {}
    shared: dict[str, int] = {}
    if "--skip-compile" in sys.argv:  # reuse ir/ (to regenerate only the layout rows)
        compiled = json.loads((HERE / "compiled.json").read_text())
    # a cache of our own: Triton's cache key leaves out the source file's path and line numbers, so a
    # shared cache hands back IR whose locations point at another checkout's kernels.py
    cache = tempfile.TemporaryDirectory(prefix="triton-ir-corpus-")
    env = {**os.environ, "TRITON_CACHE_DIR": cache.name}
    for stem, *_, targets in ([] if compiled else cases()):
        for target in targets:
            # each compilation in a child process: LLVM aborts the process on some targets
            name = f"{stem}.{target}"
            p = subprocess.run([sys.executable, __file__, "--one", stem, target], capture_output=True, text=True, env=env)
            if p.returncode == 0:
                compiled[name] = "ok"
                shared[name] = next(json.loads(l[2:]) for l in p.stdout.splitlines() if l.startswith("@@"))["shared"]
                continue
            errs = [l.strip() for l in p.stderr.splitlines() if "error" in l.lower() and "warn" not in l.lower()]
            why = (errs[0] if errs else f"exit status {p.returncode}").replace(str(HERE) + "/", "")
            compiled[name] = "not compiled: " + why[:200]
    cache.cleanup()
    (HERE / "compiled.json").write_text(json.dumps(compiled, indent=1, sort_keys=True) + "\n")
    if shared:
        (HERE / "shared.json").write_text(json.dumps(shared, indent=1, sort_keys=True) + "\n")

    worker = TritonWorker(WORKER)
    rows = []
    try:
        progress = HERE / ".progress"
        for path in sorted(irdir.glob("*.ttgir")):
            aborted: list[dict] = []
            while True:
                res = worker.run("module", str(path), str(progress), [a["type"] for a in aborted])
                if "rows" in res:
                    break
                done = progress.read_text().splitlines() if progress.exists() else []
                if not done:
                    raise SystemExit(f"Triton could not read {path}: {res}")
                t, op = json.loads(done[-1])  # the type Triton was working on when it aborted
                aborted.append({"type": t, "op": op, "error": res["error"]})
            for r in res["rows"] + aborted:
                rows.append({"file": f"ir/{path.name}", **r})
        progress.unlink(missing_ok=True)
        printed = []
        for d, shape, dtype, space in PRINT_CASES:
            res = worker.run("print", d, shape, dtype, space)
            if "triton_type" not in res:
                raise SystemExit(f"Triton refused a fixed printing case {d}: {res}")
            printed.append(res["triton_type"])
    finally:
        worker.close()
    with open(HERE / "layouts.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    (HERE / "printed_types.txt").write_text("\n".join(printed) + "\n")
    ok = sum(v == "ok" for v in compiled.values())
    bad = sum("error" in r for r in rows)
    print(f"{ok}/{len(compiled)} kernel x target compiled; {len(rows)} layout rows ({bad} refused by Triton); "
          f"{len(printed)} printed types", file=sys.stderr)
    return 0


def one(stem: str, target: str) -> int:
    for s, fn, types, constexprs, nw, gluon, options, _ in cases():
        if s == stem:
            text, shared = compile_one(fn, types, constexprs, nw, gluon, options, target)
            text = text.replace(str(HERE) + "/", "")  # locations relative to this folder
            (HERE / "ir" / f"{stem}.{target}.ttgir").write_text(text)
            print("@@" + json.dumps({"shared": shared}))
            return 0
    return 2


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        raise SystemExit(one(sys.argv[2], sys.argv[3]))
    try:
        raise SystemExit(main())
    except SystemExit:
        raise
    except Exception:
        traceback.print_exc()
        raise SystemExit(1)
