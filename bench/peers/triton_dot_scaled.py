"""The Triton peer: an MXFP8 GEMM on tl.dot_scaled (E4M3 operands, E8M0 scales per 32 along
K), D = A @ W.T in BF16, the best of a few block configurations (picked on first call).

Written against Triton 3.6; run on an H200 with the peer benchmark (bench/results/peers_2026-11-29_s3.json).
"""

import torch
import triton
import triton.language as tl

CONFIGS = [(128, 128, 128, 3, 8), (128, 256, 128, 3, 8), (64, 128, 128, 4, 4), (128, 64, 128, 4, 4)]


@triton.jit
def _kernel(a, sa, w, sw, d, M, N, K, stride_a, stride_sa, stride_w, stride_sw, stride_d,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    rs = tl.arange(0, BK // 32)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a_t = tl.load(a + rm[:, None] * stride_a + (k0 + rk)[None, :],
                      mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0)
        w_t = tl.load(w + rn[:, None] * stride_w + (k0 + rk)[None, :],
                      mask=(rn[:, None] < N) & ((k0 + rk)[None, :] < K), other=0)
        sa_t = tl.load(sa + rm[:, None] * stride_sa + (k0 // 32 + rs)[None, :],
                       mask=(rm[:, None] < M) & ((k0 // 32 + rs)[None, :] < tl.cdiv(K, 32)), other=127)
        sw_t = tl.load(sw + rn[:, None] * stride_sw + (k0 // 32 + rs)[None, :],
                       mask=(rn[:, None] < N) & ((k0 // 32 + rs)[None, :] < tl.cdiv(K, 32)), other=127)
        acc = tl.dot_scaled(a_t, sa_t, "e4m3", tl.trans(w_t), sw_t, "e4m3", acc)
    tl.store(d + rm[:, None] * stride_d + rn[None, :], acc.to(tl.bfloat16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def dot_scaled_mm(aq, sa_linear, wq, sw_linear):
    """A call computing aq @ wq.T with linear scales; the fastest config is chosen once."""
    m, k = aq.shape
    n = wq.shape[0]
    a8, w8 = aq.view(torch.uint8), wq.view(torch.uint8)
    sa8, sw8 = sa_linear.view(torch.uint8), sw_linear.view(torch.uint8)
    out = torch.empty((m, n), dtype=torch.bfloat16, device=aq.device)

    def launch(cfg):
        bm, bn, bk, stages, warps = cfg
        grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
        _kernel[grid](a8, sa8, w8, sw8, out, m, n, k, a8.stride(0), sa8.stride(0), w8.stride(0),
                      sw8.stride(0), out.stride(0), BM=bm, BN=bn, BK=bk, num_stages=stages,
                      num_warps=warps)
        return out

    best = min(CONFIGS, key=lambda c: triton.testing.do_bench(lambda: launch(c), warmup=5, rep=20))
    return lambda: launch(best)
