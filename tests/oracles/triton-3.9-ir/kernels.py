"""The kernels of the Triton 3.9 IR corpus: Triton tutorial kernels (vector add, fused softmax,
layer norm, matmul, persistent TMA matmul, flash attention) and small reduction / transpose /
reshape kernels, plus Gluon kernels (shared memory, warp specialization, Hopper wgmma, Blackwell
tensor memory).  Written for this corpus after the tutorials in triton-lang/triton (python/tutorials)
and its Gluon tutorials; only compiled (``triton.compile`` with an explicit target), never run.
"""

import triton
import triton.language as tl
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia import blackwell as bw
from triton.experimental.gluon.language.nvidia import hopper


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        cols = tl.arange(0, BLOCK)
        x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)


@triton.jit
def layer_norm_kernel(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        w = tl.load(W + cols, mask=cols < N)
        b = tl.load(B + cols, mask=cols < N)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        tl.store(Y + cols, ((x - mean) * rstd * w + b).to(Y.dtype.element_ty), mask=cols < N)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    group = pid // (GROUP_M * num_n)
    first_m = group * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % (GROUP_M * num_n)) % size_m)
    pid_n = (pid % (GROUP_M * num_n)) // size_m
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    c = acc.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :], c,
             mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def persistent_tma_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                                 NUM_SMS: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    num_tiles = tl.cdiv(M, BM) * tl.cdiv(N, BN)
    for tile in tl.range(tl.program_id(0), num_tiles, NUM_SMS, flatten=True):
        pid_m = tile // tl.cdiv(N, BN)
        pid_n = tile % tl.cdiv(N, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            a = a_desc.load([pid_m * BM, k * BK])
            b = b_desc.load([pid_n * BN, k * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def attn_fwd_kernel(Q, K, V, Out, sm_scale, stride_qm, stride_kn, stride_vn, stride_om, N_CTX,
                    BM: tl.constexpr, BN: tl.constexpr, HEAD_DIM: tl.constexpr):
    start_m = tl.program_id(0)
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + offs_m[:, None] * stride_qm + offs_d[None, :])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, N_CTX, BN):
        k = tl.load(K + (start_n + offs_n)[None, :] * stride_kn + offs_d[:, None])
        qk = tl.dot(q, k)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V + (start_n + offs_n)[:, None] * stride_vn + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + offs_m[:, None] * stride_om + offs_d[None, :], acc.to(Out.type.element_ty))


@triton.jit
def reduce_transpose_kernel(x_ptr, out_ptr, rows_ptr, cols_ptr, BM: tl.constexpr, BN: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    x = tl.load(x_ptr + offs_m[:, None] * BN + offs_n[None, :])
    tl.store(rows_ptr + offs_m, tl.sum(x, axis=1))
    tl.store(cols_ptr + offs_n, tl.max(x, axis=0))
    xt = tl.trans(x)
    tl.store(out_ptr + offs_n[:, None] * BM + offs_m[None, :], xt)


@triton.jit
def reshape_permute_kernel(x_ptr, out_ptr, out2_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, A * B * C)
    x = tl.load(x_ptr + offs)
    x3 = tl.reshape(x, [A, B, C])
    y = tl.permute(x3, [2, 0, 1])
    i = tl.arange(0, C)[:, None, None] * (A * B) + tl.arange(0, A)[None, :, None] * B + tl.arange(0, B)[None, None, :]
    tl.store(out_ptr + i, y)
    lo, hi = tl.split(tl.reshape(x, [A * B * C // 2, 2]))
    j = tl.arange(0, A * B * C // 2)
    tl.store(out2_ptr + j, tl.cumsum(lo + hi, axis=0))


# ---------------------------------------------------------------------------- Gluon
@gluon.jit
def gluon_smem_roundtrip_kernel(ptr, out, BM: gl.constexpr, BN: gl.constexpr):
    src: gl.constexpr = gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    dst: gl.constexpr = gl.BlockedLayout([4, 1], [8, 4], [1, 4], [0, 1])
    rows = gl.arange(0, BM, gl.SliceLayout(1, src))
    cols = gl.arange(0, BN, gl.SliceLayout(0, src))
    x = gl.load(ptr + rows[:, None] * BN + cols[None, :])
    smem = gl.allocate_shared_memory(gl.float16, [BM, BN], gl.SwizzledSharedLayout(8, 1, 8, [1, 0]), x)
    y = smem.load(dst)
    z = gl.convert_layout(x, dst)
    smem.store(gl.convert_layout(y + z, src))
    w = smem.load(src)
    gl.store(out + rows[:, None] * BN + cols[None, :], w)


@gluon.jit
def _ws_default(ptr, BLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    x = gl.load(ptr + gl.arange(0, BLOCK, layout))
    y = gl.convert_layout(x, gl.BlockedLayout([2], [32], [4], [0]))
    gl.store(ptr + gl.arange(0, BLOCK, gl.BlockedLayout([2], [32], [4], [0])), y)


@gluon.jit
def _ws_worker(ptr, BLOCK: gl.constexpr):
    x = gl.load(ptr + gl.arange(0, BLOCK, gl.BlockedLayout([1], [32], [2], [0])))
    smem = gl.allocate_shared_memory(gl.float32, [BLOCK], gl.SwizzledSharedLayout(1, 1, 1, [0]), x)
    y = smem.load(gl.BlockedLayout([4], [32], [2], [0]))
    y = gl.convert_layout(y, gl.BlockedLayout([1], [32], [2], [0]))
    gl.store(ptr + gl.arange(0, BLOCK, gl.BlockedLayout([1], [32], [2], [0])), y)


@gluon.jit
def gluon_warp_specialize_kernel(ptr, BLOCK: gl.constexpr):
    gl.warp_specialize([(_ws_default, (ptr, BLOCK)), (_ws_worker, (ptr, BLOCK))], [2], [40])


@gluon.jit
def gluon_wgmma_kernel(a_ptr, b_ptr, c_ptr, BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr):
    ld: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    acc_layout: gl.constexpr = gl.NVMMADistributedLayout([3, 0], [4, 1], [16, BN, 16])
    ra = gl.arange(0, BM, gl.SliceLayout(1, ld))
    rk = gl.arange(0, BK, gl.SliceLayout(0, ld))
    rkb = gl.arange(0, BK, gl.SliceLayout(1, ld))
    rn = gl.arange(0, BN, gl.SliceLayout(0, ld))
    a = gl.load(a_ptr + ra[:, None] * BK + rk[None, :])
    b = gl.load(b_ptr + rkb[:, None] * BN + rn[None, :])
    a_s = gl.allocate_shared_memory(gl.float16, [BM, BK], gl.NVMMASharedLayout.get_default_for([BM, BK], gl.float16), a)
    b_s = gl.allocate_shared_memory(gl.float16, [BK, BN], gl.NVMMASharedLayout.get_default_for([BK, BN], gl.float16), b)
    hopper.fence_async_shared()
    acc = hopper.warpgroup_mma(a_s, b_s, gl.zeros([BM, BN], gl.float32, acc_layout))
    c = gl.convert_layout(acc.to(gl.float16), ld)
    gl.store(c_ptr + ra[:, None] * BN + rn[None, :], c)


@gluon.jit
def gluon_tmem_kernel(ptr, out, BM: gl.constexpr, BN: gl.constexpr):
    ld: gl.constexpr = gl.BlockedLayout([1, 4], [1, 32], [4, 1], [1, 0])
    rows = gl.arange(0, BM, gl.SliceLayout(1, ld))
    cols = gl.arange(0, BN, gl.SliceLayout(0, ld))
    x = gl.load(ptr + rows[:, None] * BN + cols[None, :])
    tmem_layout: gl.constexpr = bw.TensorMemoryLayout([128, BN], 1)
    t = bw.allocate_tensor_memory(gl.float32, [BM, BN], tmem_layout)
    t.store(gl.convert_layout(x, t.get_reg_layout()))
    y = t.load()
    gl.store(out + rows[:, None] * BN + cols[None, :], gl.convert_layout(y, ld))


# ---------------------------------------------------------------------------- added 2026-11-24
# (appended below the kernels above so that their source locations in ir/ stay as they were)
@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, PRECISION: tl.constexpr):
    """A K loop of ``tl.dot`` whose accumulator has ``c_ptr``'s element type (int8 -> int32, fp32 with
    ``input_precision``)."""
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=c_ptr.dtype.element_ty)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + offs_m[:, None] * K + (k + offs_k)[None, :])
        b = tl.load(b_ptr + (k + offs_k)[:, None] * BN + offs_n[None, :])
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc)


@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, BB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """Batched (3-D) ``tl.dot``."""
    ob = tl.arange(0, BB)[:, None, None]
    om = tl.arange(0, BM)[None, :, None]
    on = tl.arange(0, BN)[None, None, :]
    ok_row = tl.arange(0, BK)[None, None, :]
    ok_col = tl.arange(0, BK)[None, :, None]
    a = tl.load(a_ptr + ob * BM * BK + om * BK + ok_row)
    b = tl.load(b_ptr + ob * BK * BN + ok_col * BN + on)
    c = tl.dot(a, b)
    tl.store(c_ptr + ob * BM * BN + om * BN + on, c.to(c_ptr.dtype.element_ty))


@triton.jit
def dot_scaled_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr, FMT: tl.constexpr):
    """Block-scaled ``tl.dot_scaled`` (mxfp8 / mxfp4: one e8m0 scale per 32 elements of K); e2m1 packs two per byte."""
    PACK: tl.constexpr = 2 if FMT == "e2m1" else 1
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_ka = tl.arange(0, BK // PACK)
    offs_s = tl.arange(0, BK // 32)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + offs_m[:, None] * (K // PACK) + (k // PACK + offs_ka)[None, :])
        b = tl.load(b_ptr + (k // PACK + offs_ka)[:, None] * BN + offs_n[None, :])
        a_scale = tl.load(a_scale_ptr + offs_m[:, None] * (K // 32) + (k // 32 + offs_s)[None, :])
        b_scale = tl.load(b_scale_ptr + offs_n[:, None] * (K // 32) + (k // 32 + offs_s)[None, :])
        acc = tl.dot_scaled(a, a_scale, FMT, b, b_scale, FMT, acc)
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc)


@triton.jit
def tma_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """Device-side tensor descriptors (``tl.make_tensor_descriptor``), B not transposed, a pipelined K loop."""
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK):
        acc = tl.dot(a_desc.load([pid_m * BM, k]), b_desc.load([k, pid_n * BN]), acc)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(c_ptr.dtype.element_ty))


@triton.jit
def join_split_kernel(x_ptr, out_ptr, out2_ptr, out3_ptr, BM: tl.constexpr, BN: tl.constexpr):
    """``tl.join`` / ``tl.split`` / ``tl.trans`` of a 3-D tensor / ``tl.reshape(can_reorder=True)`` / interleave."""
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    x = tl.load(x_ptr + offs_m[:, None] * BN + offs_n[None, :])
    j = tl.join(x, x * 2.0)                                   # [BM, BN, 2]
    jt = tl.trans(j, (1, 0, 2))                               # [BN, BM, 2]
    r = tl.reshape(jt, [BN, 2 * BM])
    tl.store(out_ptr + tl.arange(0, BN)[:, None] * (2 * BM) + tl.arange(0, 2 * BM)[None, :], r)
    lo, hi = tl.split(tl.reshape(x, [BM, BN // 2, 2]))
    tl.store(out2_ptr + offs_m[:, None] * (BN // 2) + tl.arange(0, BN // 2)[None, :], lo * hi)
    s = tl.sum(tl.reshape(x, [BM * BN // 64, 64], can_reorder=True), axis=1)
    tl.store(out3_ptr + tl.arange(0, BM * BN // 64), s)
    inter = tl.interleave(offs_m, offs_m + 1)
    tl.store(out3_ptr + tl.arange(0, 2 * BM), inter.to(tl.float32))


@triton.jit
def sort_gather_kernel(x_ptr, idx_ptr, out_ptr, out2_ptr, BM: tl.constexpr, BN: tl.constexpr):
    """``tl.sort`` along the last axis, ``tl.gather`` along it, ``tl.flip``."""
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    x = tl.load(x_ptr + offs_m[:, None] * BN + offs_n[None, :])
    idx = tl.load(idx_ptr + offs_m[:, None] * BN + offs_n[None, :])
    tl.store(out_ptr + offs_m[:, None] * BN + offs_n[None, :], tl.sort(x, dim=1, descending=True))
    g = tl.gather(x, idx, axis=1)
    tl.store(out2_ptr + offs_m[:, None] * BN + offs_n[None, :], tl.flip(g, 0))


@triton.jit
def scan_hist_atomic_kernel(x_ptr, cnt_ptr, out_ptr, hist_ptr, BM: tl.constexpr, BN: tl.constexpr, BINS: tl.constexpr):
    """``tl.cumsum`` / ``tl.cumprod`` over axis 0 of a 2-D tile, ``tl.histogram``, atomics (add, max, cas)."""
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    x = tl.load(x_ptr + offs_m[:, None] * BN + offs_n[None, :])
    tl.store(out_ptr + offs_m[:, None] * BN + offs_n[None, :], tl.cumsum(x, axis=0) + tl.cumprod(x, axis=1))
    v = tl.load(cnt_ptr + tl.arange(0, BM * BN))
    h = tl.histogram(v, BINS)
    bins = tl.arange(0, BINS)
    tl.atomic_add(hist_ptr + bins, h)
    tl.atomic_max(hist_ptr + BINS + bins, h, mask=h > 0)
    tl.atomic_cas(hist_ptr + 2 * BINS + bins, bins, h)
    tl.atomic_add(out_ptr + offs_m[:, None] * BN + offs_n[None, :], x, sem="relaxed")


@gluon.jit
def gluon_tma_tcgen05_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr):
    """Gluon Blackwell matmul: NVMMASharedLayout buffers filled by TMA (device-side descriptors, an mbarrier),
    ``tcgen05_mma`` into tensor memory, the result stored back through shared memory by TMA."""
    a_layout: gl.constexpr = gl.NVMMASharedLayout.get_default_for([BM, BK], gl.float16)
    b_layout: gl.constexpr = gl.NVMMASharedLayout.get_default_for([BN, BK], gl.float16)
    c_layout: gl.constexpr = gl.NVMMASharedLayout.get_default_for([BM, BN], gl.float16)
    a_desc = bw.tma.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK], a_layout)
    b_desc = bw.tma.make_tensor_descriptor(b_ptr, [N, K], [K, 1], [BN, BK], b_layout)
    c_desc = bw.tma.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BM, BN], c_layout)
    a_s = gl.allocate_shared_memory(gl.float16, [BM, BK], a_layout)
    b_s = gl.allocate_shared_memory(gl.float16, [BN, BK], b_layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], bw.mbarrier.MBarrierLayout())
    mma_bar = gl.allocate_shared_memory(gl.int64, [1], bw.mbarrier.MBarrierLayout())
    bw.mbarrier.init(bar, count=1)
    bw.mbarrier.init(mma_bar, count=1)
    acc = bw.allocate_tensor_memory(gl.float32, [BM, BN], bw.TensorMemoryLayout([BM, BN], col_stride=1))
    off_m = gl.program_id(0) * BM
    off_n = gl.program_id(1) * BN
    phase = 0
    use_acc = False
    for k in range(0, K, BK):
        bw.mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        bw.tma.async_load(a_desc, [off_m, k], bar, a_s)
        bw.tma.async_load(b_desc, [off_n, k], bar, b_s)
        bw.mbarrier.wait(bar, phase)
        bw.tcgen05_mma(a_s, b_s.permute((1, 0)), acc, use_acc=use_acc)
        bw.tcgen05_commit(mma_bar)
        bw.mbarrier.wait(mma_bar, phase)
        use_acc = True
        phase ^= 1
    bw.mbarrier.invalidate(bar)
    bw.mbarrier.invalidate(mma_bar)
    c_s = gl.allocate_shared_memory(gl.float16, [BM, BN], c_layout, acc.load().to(gl.float16))
    bw.fence_async_shared()
    bw.tma.async_store(c_desc, [off_m, off_n], c_s)
    bw.tma.store_wait(0)


@gluon.jit
def gluon_amd_mfma_kernel(a_ptr, b_ptr, c_ptr, BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr):
    """Gluon on gfx942 (64-lane warps): buffer loads, swizzled shared memory, MFMA 32x32 with its dot operands."""
    ld: gl.constexpr = gl.BlockedLayout([1, 8], [8, 8], [4, 1], [1, 0])
    mfma: gl.constexpr = gl.amd.AMDMFMALayout(version=3, instr_shape=[32, 32, 8], transposed=True, warps_per_cta=[2, 2])
    ra = gl.arange(0, BM, gl.SliceLayout(1, ld))
    rk = gl.arange(0, BK, gl.SliceLayout(0, ld))
    rkb = gl.arange(0, BK, gl.SliceLayout(1, ld))
    rn = gl.arange(0, BN, gl.SliceLayout(0, ld))
    a = gl.amd.cdna3.buffer_load(a_ptr, ra[:, None] * BK + rk[None, :])
    b = gl.amd.cdna3.buffer_load(b_ptr, rkb[:, None] * BN + rn[None, :])
    a_s = gl.allocate_shared_memory(gl.float16, [BM, BK], gl.SwizzledSharedLayout(8, 2, 4, [1, 0]), a)
    b_s = gl.allocate_shared_memory(gl.float16, [BK, BN], gl.SwizzledSharedLayout(8, 2, 4, [0, 1]), b)
    acc = gl.amd.cdna3.mfma(a_s.load(gl.DotOperandLayout(0, mfma, 4)), b_s.load(gl.DotOperandLayout(1, mfma, 4)),
                            gl.zeros([BM, BN], gl.float32, mfma))
    gl.amd.cdna3.buffer_store(gl.convert_layout(acc.to(gl.float16), ld), c_ptr, ra[:, None] * BN + rn[None, :])


@gluon.jit
def gluon_mma_scaled_kernel(a_ptr, b_ptr, a_scale_ptr, b_scale_ptr, c_ptr, BM: gl.constexpr, BN: gl.constexpr,
                            BK: gl.constexpr):
    """Gluon Blackwell block-scaled MMA (mxfp8): e4m3 operands in NVMMA shared memory, e8m0 scales in tensor
    memory (TensorMemoryScalesLayout), the accumulator in tensor memory."""
    ld: gl.constexpr = gl.BlockedLayout([1, 16], [8, 4], [4, 1], [1, 0])
    sl: gl.constexpr = gl.BlockedLayout([1, BK // 32], [32, 1], [4, 1], [1, 0])
    ra = gl.arange(0, BM, gl.SliceLayout(1, ld))
    rb = gl.arange(0, BN, gl.SliceLayout(1, ld))
    rk = gl.arange(0, BK, gl.SliceLayout(0, ld))
    a = gl.load(a_ptr + ra[:, None] * BK + rk[None, :])
    b = gl.load(b_ptr + rb[:, None] * BK + rk[None, :])
    a_s = gl.allocate_shared_memory(gl.float8e4nv, [BM, BK], gl.NVMMASharedLayout.get_default_for([BM, BK], gl.float8e4nv), a)
    b_s = gl.allocate_shared_memory(gl.float8e4nv, [BN, BK], gl.NVMMASharedLayout.get_default_for([BN, BK], gl.float8e4nv), b)
    rs = gl.arange(0, BM, gl.SliceLayout(1, sl))
    ks = gl.arange(0, BK // 32, gl.SliceLayout(0, sl))
    a_scale = gl.load(a_scale_ptr + rs[:, None] * (BK // 32) + ks[None, :])
    b_scale = gl.load(b_scale_ptr + rs[:, None] * (BK // 32) + ks[None, :])
    scales: gl.constexpr = bw.TensorMemoryScalesLayout()
    a_scale_t = bw.allocate_tensor_memory(gl.uint8, [BM, BK // 32], scales)
    b_scale_t = bw.allocate_tensor_memory(gl.uint8, [BN, BK // 32], scales)
    a_scale_t.store(gl.convert_layout(a_scale, a_scale_t.get_reg_layout()))
    b_scale_t.store(gl.convert_layout(b_scale, b_scale_t.get_reg_layout()))
    acc = bw.allocate_tensor_memory(gl.float32, [BM, BN], bw.TensorMemoryLayout([BM, BN], col_stride=1))
    bw.tcgen05_mma_scaled(a_s, b_s.permute((1, 0)), acc, a_scale_t, b_scale_t, "e4m3", "e4m3", use_acc=False)
    c = acc.load()
    rc = gl.arange(0, BM, gl.SliceLayout(1, c.type.layout))
    cc = gl.arange(0, BN, gl.SliceLayout(0, c.type.layout))
    gl.store(c_ptr + rc[:, None] * BN + cc[None, :], c)
