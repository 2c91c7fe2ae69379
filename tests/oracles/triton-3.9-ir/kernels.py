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
