#!/usr/bin/env python3
"""Peer benchmark (issue #8): mxgemm against what users run today, side by side, on the same
inputs and in one run, on a GPU machine with no network.

    python3 bench/peers/peer_bench.py --suite all --out bench/results/peers.json
    python3 bench/peers/report.py bench/results/peers.json --plots bench/results --readme README.md

GEMM methods (suites "square", "llm" and "large", issue #3's large shapes; a method that cannot run a shape is recorded as
"unsupported" with the reason):
    mxgemm               mxgemm.mxfp8_scaled_mm, E4M3 operands, swizzled E8M0 scales, BF16 out
    mxgemm_weight_only   mxgemm.mxfp8_weight_only_mm: the bf16 activation x the MXFP8 weight
    cublas_bf16          torch.mm (cuBLAS) on both operands dequantized beforehand
    dequant_eager_bf16   eager-PyTorch dequantization of both operands, then torch.mm
    dequant_mxgemm_bf16  mxgemm.dequantize_mxfp8 of both operands, then torch.mm
    fp8_per_tensor       torch._scaled_mm, E4M3 with one fp32 scale per tensor
    fp8_blockwise        torch._scaled_mm with DeepSeek-style 1x128 (A) / 128x128 (B) scales
    triton_dot_scaled    a Triton kernel on tl.dot_scaled (E4M3 + E8M0), best of a few configs
    humming_weight_only  humming-kernels (vLLM's JIT GEMM backend, what vLLM runs on Hopper for
                         MXFP8 checkpoints): the bf16 activation x the same MXFP8 weight (wq and
                         its E8M0 scales), prepared once as vLLM's HummingMxfp8LinearKernel does
    humming_mxfp8        humming-kernels W8A8: the same pre-quantized MXFP8 activation (E4M3
                         codes; on Hopper humming takes the activation's group scales as fp32,
                         so its E8M0 scales are passed as the fp32 powers of two they stand for)
                         x the same MXFP8 weight

Quantization methods (suite "quant": a bf16 rows x K tensor to E4M3 codes and one E8M0 scale
per 32 along K, the OCP FLOOR rule of shared/design/MX_FORMAT.md):
    mxgemm_quantize      mxgemm.ops.quantize_mxfp8 (swizzled scales)
    eager_quantize       the rule in eager PyTorch as users write it (linear scales)
    compiled_quantize    torch.compile of eager_quantize (unsupported if compilation fails)
reported as median time and GB/s of logical traffic: the bf16 input read, the codes and one
scale byte per 32 written (swizzle padding not counted), the same bytes for every method.

humming: the humming-kernels wheel is on PyPI but the GPU machine has no network: on a
networked machine run `pip download --no-deps humming-kernels==0.1.20`, carry the wheel over
and `pip install --no-deps humming_kernels-0.1.20-cp310-abi3-manylinux_2_28_x86_64.whl` there
(its dependencies, torch, cuda-bindings, nvidia-cuda-nvrtc, jinja2, ..., are installed there).
Without it the humming methods are recorded as unsupported, and so is any humming failure
(import, JIT compilation, a shape it refuses): it never stops the run. humming compiles its
kernels with NVRTC. vLLM lets it compile the kernels of all its M intervals at a layer's
first call; here each shape gets the one kernel that humming's heuristics pick for its M
(the one vLLM would launch), all of them compiled up front in parallel threads before the
check, so compilation never falls in the timing (humming caches them on disk for later runs;
the first llm run still spends minutes compiling).

A long run can be split, one results file collecting the parts:
    python3 bench/peers/peer_bench.py --suite llm --out R.json
    python3 bench/peers/peer_bench.py --suite quant --out R.json --append

Timing: each method's calls are captured in a CUDA graph (so Python's launch overhead does
not count) over input copies that together exceed 2x L2 (rotation); the graph is replayed
--reps times and the median per-call time is reported, with every replay's time kept in the
results file. A method's timing flag says how: "graph" (that), "events" (a plain loop of
launches between two CUDA events; the host's launch overhead counts wherever it exceeds the
GPU time) or "auto" (a CUDA graph, and the event loop if capture fails). The humming methods
are "auto" (vLLM captures them in its CUDA graphs, but this is not verified here), and so is
torch.compile; each run records how it was timed ("timing"), and the README table marks the
event-timed ones. Compilation (humming's JIT, torch.compile, Triton's autotuning) happens in
the untimed calls before timing.

Checks: on a small shape that is no tile multiple (or, for a method that cannot run it, a
200 x 512 x 512 one), every method's output is compared with its exact reference: the MXFP8
methods with the MXFP8 product of the two quantized operands (1e-2 relative Frobenius error),
the weight-only ones with the product of the bf16 activation and the dequantized weight (the
activation there is the dequantized MXFP8 activation, so the two references coincide; the run
checks that they are equal), the coarser fp8 recipes with the fp64 product of the unquantized
inputs (0.1). The quantizers are compared code for code and scale for scale with
ops.quantize_mxfp8 on 200 x 264 (a short last block) over every binade, rounding ties,
saturation and a zero block (mxgemm_quantize itself with the CPU reference). A method that
fails is marked "wrong" everywhere and kept out of the table's ratios. Every GEMM output is
checked for NaN.

Status: run on an H200 (bench/results/peers_2026-11-29_s3.json, the README's table). The
report side is tested in CI (tests/python/test_peer_report.py; the eager quantizer against
the CPU reference where torch is installed).
"""

import argparse
import datetime
import importlib
import json
import math
import os
import pathlib
import platform
import subprocess
import sys
import traceback
from typing import Callable, NamedTuple

import numpy as np
import torch

import mxgemm
from mxgemm import ops

SCHEMA = "mxgemm-peer-bench/1"
LAYERS = [(8192, 8192), (8192, 28672), (28672, 8192), (10240, 8192), (57344, 8192),
          (4096, 14336), (14336, 4096)]
LLM_M = [1, 16, 64, 128, 512, 2048, 8192]
SUITES = {
    "square": [(s, s, s) for s in (2048, 4096, 8192, 16384)],
    "llm": [(m, n, k) for (n, k) in LAYERS for m in LLM_M],
    # Issue #3's large shapes (mxgemm_bench --suite large), for its Triton bar.
    "large": [(m, n, k) for (n, k) in ((8192, 8192), (8192, 28672), (28672, 8192), (4096, 4096))
              for m in (2048, 4096, 8192, 16384)],
}
QUANT_SUITE = "quant"
# (rows, K) of the quantization suite; its records carry m = rows, n = 0, k = K.
QUANT_SHAPES = [(1, 8192), (16, 8192), (128, 8192), (2048, 8192), (8192, 8192), (16384, 8192),
                (8192, 28672)]
CHECK_SHAPE = (200, 264, 512)  # no tile multiple
CHECK_SHAPE_ALIGNED = (200, 512, 512)  # for a method that cannot run CHECK_SHAPE
QUANT_CHECK_SHAPE = (200, 264)  # 264 = 8 x 32 + 8: a short last block
E4M3, E8M0 = torch.float8_e4m3fn, torch.float8_e8m0fnu
L2_BYTES = 60 << 20


def first_line(e):
    """An exception in one line: its type and first line, or where it was raised if it has
    no message (a bare assert)."""
    lines = str(e).strip().splitlines()
    if lines:
        return f"{type(e).__name__}: {lines[0]}"
    frames = traceback.extract_tb(e.__traceback__)
    if not frames:
        return type(e).__name__
    where = "/".join(pathlib.Path(frames[-1].filename).parts[-3:])
    return f"{type(e).__name__} at {where}:{frames[-1].lineno}"


# ---- inputs ------------------------------------------------------------------------------------

class Inputs:
    """One shape's operands in every form the methods take, all from the same random data."""

    def __init__(self, m, n, k, seed):
        g = torch.Generator(device="cuda").manual_seed(seed)
        self.m, self.n, self.k = m, n, k
        self.x = torch.randn((m, k), generator=g, device="cuda").to(torch.bfloat16)
        self.w = torch.randn((n, k), generator=g, device="cuda").to(torch.bfloat16)
        self.aq, self.sa = ops.quantize_mxfp8(self.x)
        self.wq, self.sw = ops.quantize_mxfp8(self.w)
        self.sa_lin = ops.to_linear(self.sa, m, k)
        self.sw_lin = ops.to_linear(self.sw, n, k)
        # Exactly the values the MXFP8 product multiplies.
        self.a_deq = ops.dequantize_mxfp8(self.aq, self.sa)
        self.w_deq = ops.dequantize_mxfp8(self.wq, self.sw)

    def bytes(self):
        return sum(t.numel() * t.element_size() for t in
                   (self.aq, self.sa, self.wq, self.sw, self.a_deq, self.w_deq))


def eager_dequant(q, scales_linear, k):
    """Dequantization as users write it in eager PyTorch: codes x 2^(e - 127) per 32 along K."""
    s = torch.exp2(scales_linear.view(torch.uint8).float() - 127.0)
    return (q.float() * s.repeat_interleave(32, dim=1)[:, :k]).to(torch.bfloat16)


def e8m0_to_float32(scales):
    """E8M0 scale bytes -> the fp32 values they stand for, exactly: 2^(e - 127) (byte 0 is
    2^-127, an fp32 subnormal), byte 0xFF NaN."""
    e = scales.view(torch.uint8).to(torch.int32)
    values = (e << 23).view(torch.float32)  # 2^(e - 127) for 1 <= e <= 254
    values = torch.where(e == 0, torch.full_like(values, 2.0 ** -127), values)
    return torch.where(e == 255, torch.full_like(values, float("nan")), values)


def per_tensor_fp8(t):
    amax = t.abs().amax().float().clamp(min=1e-12)
    scale = amax / 448.0
    return (t.float() / scale).to(E4M3), scale.reshape(())


def blockwise_fp8(t, rows_per_block):
    """DeepSeek-style scaling: one fp32 scale per rows_per_block x 128 block."""
    r, k = t.shape
    tb = t.float().reshape(r // rows_per_block, rows_per_block, k // 128, 128)
    amax = tb.abs().amax(dim=(1, 3)).clamp(min=1e-12)
    scale = amax / 448.0
    q = (tb / scale[:, None, :, None]).reshape(r, k).to(E4M3)
    return q, scale


def to_numpy_bits(t):
    """A tensor's raw elements as numpy, the way mxgemm's CPU references take them: bf16 as
    uint16 bits, fp8 and E8M0 as uint8 codes, anything else as is."""
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    if t.dtype in (E4M3, torch.float8_e5m2, E8M0):
        return t.view(torch.uint8).numpy()
    return t.numpy()


# ---- GEMM methods ------------------------------------------------------------------------------
# Each returns (call, why): call() -> output, or None and the reason it cannot run.

class Method(NamedTuple):
    make: Callable  # make(inputs) -> (call, None) or (None, reason)
    kind: str  # its reference: "exact" (MXFP8 x MXFP8), "weight_only", "coarse" or "codes"
    timing: str = "graph"  # "graph", "events" or "auto" (a graph, else events): see time_calls


def m_mxgemm(inp):
    alpha = torch.ones((), device="cuda")
    return lambda: ops.mxfp8_scaled_mm(inp.aq, inp.wq, inp.sa, inp.sw, alpha, torch.bfloat16), None


def m_mxgemm_weight_only(inp):
    alpha = torch.ones((), device="cuda")
    return lambda: ops.mxfp8_weight_only_mm(inp.a_deq, inp.wq, inp.sw, alpha, None, torch.bfloat16), None


def m_cublas_bf16(inp):
    return lambda: torch.mm(inp.a_deq, inp.w_deq.t()), None


def m_dequant_eager_bf16(inp):
    def call():
        a = eager_dequant(inp.aq, inp.sa_lin, inp.k)
        w = eager_dequant(inp.wq, inp.sw_lin, inp.k)
        return torch.mm(a, w.t())
    return call, None


def m_dequant_mxgemm_bf16(inp):
    return lambda: torch.mm(ops.dequantize_mxfp8(inp.aq, inp.sa),
                            ops.dequantize_mxfp8(inp.wq, inp.sw).t()), None


def m_fp8_per_tensor(inp):
    a8, sa = per_tensor_fp8(inp.x)
    w8, sw = per_tensor_fp8(inp.w)
    return lambda: torch._scaled_mm(a8, w8.t(), scale_a=sa, scale_b=sw, out_dtype=torch.bfloat16), None


def m_fp8_blockwise(inp):
    if inp.k % 128 or inp.n % 128:
        return None, "needs K and N multiples of 128"
    a8, sa = blockwise_fp8(inp.x, 1)      # (M, K/128)
    w8, sw = blockwise_fp8(inp.w, 128)    # (N/128, K/128)
    try:
        call = lambda: torch._scaled_mm(a8, w8.t(), scale_a=sa, scale_b=sw.t(),  # noqa: E731
                                        out_dtype=torch.bfloat16)
        call()
    except Exception as e:  # torch raises RuntimeError / NotImplementedError by build
        return None, f"torch._scaled_mm refused 1x128/128x128 scales: {str(e).splitlines()[0]}"
    return call, None


def m_triton_dot_scaled(inp):
    try:
        from triton_dot_scaled import dot_scaled_mm
    except Exception as e:
        return None, f"Triton unavailable: {e}"
    try:
        call = dot_scaled_mm(inp.aq, inp.sa_lin, inp.wq, inp.sw_lin)
        call()
    except Exception as e:
        return None, f"tl.dot_scaled failed: {str(e).splitlines()[0]}"
    return call, None


# humming-kernels, as vLLM runs an MXFP8 checkpoint on Hopper
# (vllm/model_executor/kernels/linear/mxfp8/humming.py, HummingMxfp8LinearKernel, and
# prepare_humming_linear_layer_config / apply_humming_linear in
# vllm/model_executor/layers/quantization/utils/humming_utils.py): the weight schema below,
# weight.view(int32), weight_scale as E8M0, N padded to 256 and K to 128, this compute config,
# 1024 stream-K locks, humming_forward. One difference: vLLM leaves tuning_config None, so
# humming compiles the kernels of all its M intervals (about 90 for bf16 x E4M3) at the first
# call; here only the kernel of the interval holding the shape's M is compiled and passed as
# a one-interval tuning_config: the kernel vLLM would launch for that M.
HUMMING_WEIGHT_CONFIG = {"quant_method": "humming", "dtype": "float8e4m3",
                         "scale_dtype": "float8e8m0", "group_size": 32,
                         "weight_scale_type": "group"}
# W8A8: E4M3 activations with one scale per 32 along K (humming's dynamic group mode; here the
# activation comes quantized, so humming's own activation quantizer does not run).
HUMMING_MXFP8_INPUT_CONFIG = {"quant_method": "humming", "dtype": "float8e4m3", "group_size": 32}
HUMMING_COMPUTE_CONFIG = json.dumps({"use_batch_invariant": False, "use_f16_accum": False,
                                     "gemm_type": "dense"})
HUMMING_PAD_N, HUMMING_PAD_K, HUMMING_LOCKS = 256, 128, 1024


def humming_missing():
    """None if humming imports, else why not."""
    try:
        for module in ("humming", "humming.forward", "humming.transform", "humming.schema",
                       "humming.tune", "humming.kernel.humming"):
            importlib.import_module(module)
    except Exception as e:
        return (f"humming-kernels is not importable ({first_line(e)}); carry its wheel to the GPU "
                f"machine (see this file's docstring)")
    return None


def humming_layer(n, k, input_config, tensors):
    """(layer config, weight tensors in humming's standard form) for an N x K MXFP8 weight
    given as {"weight": (N, K/4) int32, "weight_scale": (N, K/32) E8M0}; input_config None:
    bf16 activations."""
    from humming.schema import BaseInputSchema, BaseWeightSchema, HummingInputSchema
    from humming.transform import prepare_layer_config

    bf16 = torch.bfloat16
    weight_schema = BaseWeightSchema.from_config(dict(HUMMING_WEIGHT_CONFIG))
    weight_schema, tensors = weight_schema.convert_humming(
        tensors=tensors, shape_n_stacks=[n], shape_k_stacks=[k], param_dtype=bf16)
    input_schema = (HummingInputSchema() if input_config is None
                    else BaseInputSchema.from_config(dict(input_config)))
    input_schema, _ = input_schema.convert_humming(
        tensors={}, shape_n_stacks=[n], shape_k_stacks=[k], param_dtype=bf16)
    config = prepare_layer_config(
        shape_n=n, shape_k=k, weight_schema=weight_schema, input_schema=input_schema,
        pad_n_to_multiple=HUMMING_PAD_N, pad_k_to_multiple=HUMMING_PAD_K, has_bias=False,
        torch_dtype=bf16)
    return config, tensors


def humming_tuning(config, m):
    """humming's own heuristic choice for M rows, as a one-interval tuning_config (JSON)."""
    from humming.tune import get_heuristics_config

    entries = get_heuristics_config(config, **json.loads(HUMMING_COMPUTE_CONFIG))
    if isinstance(entries, dict):
        return json.dumps(entries)
    for lo, hi, tuning in entries:
        if lo < m <= (hi if hi > 0 else 1 << 30):  # the launcher's rule
            # Registered for every M (0, unbounded]: with the heuristic's own bounds humming's
            # launcher refused every M but 1 ("shape_m is not within any range") on the H200.
            return json.dumps([[0, -1, tuning]])
    raise ValueError(f"humming's heuristics have no interval holding M = {m}")


def humming_prepare(inp, input_config=None):
    """inp's MXFP8 weight (wq and its linear E8M0 scales sw_lin) prepared once for humming:
    (layer config, prepared tensors, stream-K locks, tuning_config)."""
    from humming.transform import transform_humming_tensors

    # Copies: humming's conversion must never touch the operands that the other methods use.
    tensors = {"weight": inp.wq.clone().view(torch.int32),  # (N, K/4): 4 codes a word
               "weight_scale": inp.sw_lin.clone().view(E8M0)}  # (N, K/32)
    config, tensors = humming_layer(inp.n, inp.k, input_config, tensors)
    tensors = transform_humming_tensors(config, tensors)  # the repacking, once
    locks = torch.zeros(HUMMING_LOCKS, dtype=torch.int32, device=inp.wq.device)
    return config, tensors, locks, humming_tuning(config, inp.m)


def humming_call(config, tensors, locks, tuning, inputs, input_scale=None):
    from humming.forward import humming_forward

    def call():
        return humming_forward(
            config, inputs=inputs, weight=tensors["weight"],
            weight_scale=tensors.get("weight_scale"), zero_point=tensors.get("zero_point"),
            bias=tensors.get("bias"), weight_scale_2=tensors.get("weight_scale_2"),
            input_scale=input_scale, locks=locks, compute_config=HUMMING_COMPUTE_CONFIG,
            tuning_config=tuning)
    call.info = {"humming_tuning": json.loads(tuning)}
    return call


def humming_activation_scales(config, inp):
    """inp's activation scales in the form humming's kernel reads for this layer config."""
    from humming import dtypes

    if config.as_dtype == dtypes.float32:
        # Hopper (no block-scaled MMA): one fp32 scale per 32 along K, (M, ceil(K/32)).
        return e8m0_to_float32(inp.sa_lin).contiguous()
    if config.as_dtype == dtypes.float8e8m0 and config.use_block_scaled_mma:
        # Block-scaled MMA (sm_100+): E8M0 bytes, four groups to an int32, low byte first,
        # (M, ceil(groups/4)) row-major (the compute config leaves use_m_major_input_scale off).
        s = inp.sa_lin.view(torch.uint8)
        s = torch.nn.functional.pad(s, (0, -s.shape[1] % 4), value=127)
        return s.contiguous().view(torch.int32)
    raise ValueError(f"unexpected activation scale dtype {config.as_dtype}")


def m_humming_weight_only(inp):
    why = humming_missing()
    if why:
        return None, why
    try:
        config, tensors, locks, tuning = humming_prepare(inp)
        return humming_call(config, tensors, locks, tuning, inp.a_deq), None
    except Exception as e:
        return None, f"humming refused the weight: {first_line(e)}"


def m_humming_mxfp8(inp):
    why = humming_missing()
    if why:
        return None, why
    try:
        config, tensors, locks, tuning = humming_prepare(inp, HUMMING_MXFP8_INPUT_CONFIG)
        scales = humming_activation_scales(config, inp)
        return humming_call(config, tensors, locks, tuning, inp.aq, input_scale=scales), None
    except Exception as e:
        return None, f"humming refused MXFP8 x MXFP8: {first_line(e)}"


HUMMING_INPUT_CONFIGS = {"humming_weight_only": None, "humming_mxfp8": HUMMING_MXFP8_INPUT_CONFIG}


def humming_precompile(shapes, methods):
    """Compile the kernel each humming method will run for each (M, N, K), in parallel threads
    (as humming's own compile_many does), so that the shapes' first calls find them in
    humming's cache (same layer, compute and tuning strings). Errors are left for those calls
    to report."""
    names = [name for name in methods if name in HUMMING_INPUT_CONFIGS]
    if not names or humming_missing():
        return
    import time
    from concurrent.futures import ThreadPoolExecutor

    from humming.kernel.humming import HummingKernel
    from humming.utils.cpu import get_parallel_build_workers

    device = torch.cuda.current_device()
    tasks = set()
    for m, n, k in shapes:
        meta = {"weight": torch.empty((n, k // 4), dtype=torch.int32, device="meta"),
                "weight_scale": torch.empty((n, k // 32), dtype=E8M0, device="meta")}
        for name in names:
            try:
                config, _ = humming_layer(n, k, HUMMING_INPUT_CONFIGS[name], dict(meta))
                tasks.add((config.to_str(), humming_tuning(config, m)))
            except Exception:
                pass

    def compile_one(task):
        try:
            HummingKernel.prepare_kernels(task[0], HUMMING_COMPUTE_CONFIG, task[1], device)
            return None
        except Exception as e:
            return first_line(e)

    start = time.time()
    workers = max(1, min(len(tasks), get_parallel_build_workers()))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        errors = [e for e in pool.map(compile_one, sorted(tasks)) if e]
    print(f"humming: compiled {len(tasks) - len(errors)} of {len(tasks)} kernels in "
          f"{time.time() - start:.0f} s ({workers} threads)"
          + (f"; first error: {errors[0]}" if errors else ""))


METHODS = {
    "mxgemm": Method(m_mxgemm, "exact"),
    "mxgemm_weight_only": Method(m_mxgemm_weight_only, "weight_only"),
    "cublas_bf16": Method(m_cublas_bf16, "exact"),
    "dequant_eager_bf16": Method(m_dequant_eager_bf16, "exact"),
    "dequant_mxgemm_bf16": Method(m_dequant_mxgemm_bf16, "exact"),
    "fp8_per_tensor": Method(m_fp8_per_tensor, "coarse"),
    "fp8_blockwise": Method(m_fp8_blockwise, "coarse"),
    "triton_dot_scaled": Method(m_triton_dot_scaled, "exact"),
    "humming_weight_only": Method(m_humming_weight_only, "weight_only", "auto"),
    "humming_mxfp8": Method(m_humming_mxfp8, "exact", "auto"),
}


# ---- quantization methods ----------------------------------------------------------------------
# Each takes the bf16 input x and returns (call, why): call() -> (codes, scales).

def _quantize_blocks(blocks):
    """(R, B, 32) fp32 blocks -> (E4M3 codes (R, B * 32), scale bytes (R, B) uint8)."""
    rows = blocks.shape[0]
    amax = blocks.abs().amax(dim=2, keepdim=True)
    field = (amax.view(torch.int32) >> 23) & 0xFF  # biased exponent; 0 for zero and subnormals
    shared = (field - (127 + 8)).clamp(-127, 127)
    scales = torch.where(field == 0xFF, 0xFF, shared + 127).to(torch.uint8).view(rows, -1)
    inv = ((127 - shared) << 23).view(torch.float32)  # 2^-shared, a normal fp32 for any block
    codes = (blocks * inv).clamp(-448.0, 448.0).to(E4M3).view(rows, -1)
    return codes, scales


def quantize_mxfp8_bytes(x):
    """bf16/fp32 (R, K) -> (E4M3 codes (R, K), scale bytes (R, ceil(K/32)) uint8, linear): the
    OCP FLOOR rule of MX_FORMAT.md as users write it in eager PyTorch. Per block of 32 along
    K: amax; shared_exp = floor(log2(amax)) - 8 (E4M3's emax), clamped to [-127, 127], read
    from amax's fp32 exponent field (a zero or subnormal amax lands below -127 and clamps to
    byte 0, as the rule wants); scale byte shared_exp + 127; codes = round-to-nearest-even of
    v * 2^-shared_exp (exact: a power of two), saturated to +-448. Code for code and byte for
    byte equal to ops.quantize_mxfp8 on finite inputs. A block holding Inf or NaN gets scale
    byte 0xFF (the whole block decodes to NaN) but its codes are left as the cast makes them.
    A short last block (K not a multiple of 32) is quantized on its own, padded with zeros
    (Inductor's CPU code mis-indexes a fused padded tail; none of the timed shapes has one)."""
    rows, k = x.shape
    xf = x.float()
    full = k - k % 32
    if full == k:
        return _quantize_blocks(xf.view(rows, -1, 32))
    codes, scales = _quantize_blocks(xf[:, :full].reshape(rows, -1, 32))
    tail = torch.nn.functional.pad(xf[:, full:], (0, 32 - (k - full)))  # zeros change no amax
    tail_codes, tail_scales = _quantize_blocks(tail.view(rows, 1, 32))
    return (torch.cat([codes, tail_codes[:, :k - full]], dim=1),
            torch.cat([scales, tail_scales], dim=1))


def eager_quantize_mxfp8(x):
    """quantize_mxfp8_bytes with the scales as E8M0 (a free view; outside the function that
    torch.compile compiles, since Inductor cannot bitcast to E8M0)."""
    codes, scales = quantize_mxfp8_bytes(x)
    return codes, scales.view(E8M0)


def q_mxgemm(x):
    return lambda: ops.quantize_mxfp8(x), None


def q_eager(x):
    return lambda: eager_quantize_mxfp8(x), None


_COMPILED_QUANTIZE = []


def q_compiled(x):
    try:
        if not _COMPILED_QUANTIZE:
            # One compilation per shape: allow more than the default few recompilations.
            for name in ("recompile_limit", "cache_size_limit"):
                if hasattr(torch._dynamo.config, name):
                    setattr(torch._dynamo.config, name,
                            max(64, getattr(torch._dynamo.config, name)))
            _COMPILED_QUANTIZE.append(torch.compile(quantize_mxfp8_bytes, dynamic=False))
    except Exception as e:
        return None, f"torch.compile unavailable: {first_line(e)}"
    compiled = _COMPILED_QUANTIZE[0]

    def call():
        codes, scales = compiled(x)
        return codes, scales.view(E8M0)
    return call, None


QUANT_METHODS = {
    "mxgemm_quantize": Method(q_mxgemm, "codes"),
    "eager_quantize": Method(q_eager, "codes"),
    "compiled_quantize": Method(q_compiled, "codes", "auto"),
}


def quant_bytes(rows, k):
    """Logical traffic of one quantization: bf16 in, E4M3 codes and one scale per 32 out."""
    return rows * k * 2 + rows * k + rows * -(-k // 32)


# ---- timing ------------------------------------------------------------------------------------

def time_graph(calls, calls_per_graph, reps):
    """Median per-call microseconds over `reps` replays of a CUDA graph of calls_per_graph
    calls, rotating over `calls` (one per input copy), and every replay's per-call time."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for call in calls:
            call()  # warm-up, outside the graph (allocations, workspaces, autotuning, JIT)
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for i in range(calls_per_graph):
            calls[i % len(calls)]()
    graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / calls_per_graph)
    return sorted(times)[len(times) // 2], times


def time_events(calls, calls_per_rep, reps):
    """As time_graph, for calls that cannot be captured in a CUDA graph: each rep launches
    calls_per_rep calls (rotating) between two CUDA events, so the host's launch overhead
    counts wherever it exceeds the GPU time (small shapes)."""
    for call in calls:
        call()  # warm-up (JIT, autotuning, allocations)
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for i in range(calls_per_rep):
            calls[i % len(calls)]()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / calls_per_rep)
    return sorted(times)[len(times) // 2], times


def time_calls(calls, timing, reps):
    """(median us, every rep's us, "graph" or "events", note) by a method's timing flag:
    "graph", "events", or "auto" (a CUDA graph; if capture fails, the event loop)."""
    per = max(len(calls), 10)
    if timing == "events":
        return (*time_events(calls, per, reps), "events", None)
    try:
        return (*time_graph(calls, per, reps), "graph", None)
    except Exception as e:
        if timing != "auto":
            raise
        torch.cuda.synchronize()
        note = f"CUDA graph capture failed ({first_line(e)}); timed with CUDA events instead"
        return (*time_events(calls, per, reps), "events", note)


def rel_err(got, want):
    got, want = got.double(), want.double()
    return ((got - want).norm() / want.norm()).item()


# ---- run ---------------------------------------------------------------------------------------

def environment():
    def run(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip()
        except Exception as e:
            return f"unavailable: {e}"
    repo = pathlib.Path(__file__).resolve().parents[2]
    props = torch.cuda.get_device_properties(0)
    versions = {"python": platform.python_version(), "torch": torch.__version__,
                "cuda": torch.version.cuda, "mxgemm": mxgemm.__version__}
    try:
        import triton
        versions["triton"] = triton.__version__
    except Exception:
        versions["triton"] = None
    try:
        from importlib.metadata import version
        versions["humming"] = version("humming-kernels")
    except Exception:
        versions["humming"] = None
    return {
        # MXGEMM_GIT_COMMIT: for a copy of the tree whose .git is not the one it came from.
        "git_commit": os.environ.get("MXGEMM_GIT_COMMIT") or run(["git", "-C", str(repo), "rev-parse", "HEAD"]),
        "gpu": {"name": props.name, "sms": props.multi_processor_count,
                "memory_gb": round(props.total_memory / 2**30, 1),
                "driver": run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"]),
                "clocks": run(["nvidia-smi", "--query-gpu=clocks.sm,clocks.max.sm,clocks.mem",
                               "--format=csv,noheader"])},
        "versions": versions,
    }


def progress(items, desc):
    try:
        from tqdm import tqdm
        return tqdm(items, desc=desc, file=sys.stdout)
    except Exception:
        return items


class References:
    """CHECK_SHAPE-like inputs and the references the methods are checked with, made once."""

    def __init__(self, shape):
        m, n, k = shape
        self.shape = shape
        self.inp = Inputs(m, n, k, seed=1)
        inp = self.inp
        # MXFP8 x MXFP8: the exact fp64 sum over the dequantized operands, rounded once.
        self.exact = ops.mxfp8_scaled_mm_reference(inp.aq, inp.wq, inp.sa, inp.sw, 1.0,
                                                   torch.float32)
        # Weight-only: the bf16 activation a_deq x the dequantized weight, the reference of
        # ops.mxfp8_weight_only_mm. a_deq is exactly dequant(aq, sa) (every E4M3 code times a
        # power of two in range is a bf16), so this equals `exact` bit for bit: checked below.
        self.weight_only = torch.from_numpy(mxgemm.mxfp8_weight_only_mm_reference(
            to_numpy_bits(inp.a_deq), to_numpy_bits(inp.wq), to_numpy_bits(inp.sw), 1.0, "fp32"))
        self.fp64 = inp.x.double().cpu() @ inp.w.double().cpu().T
        self.references_agree = bool(torch.equal(self.exact, self.weight_only))

    def want(self, kind):
        return {"exact": self.exact, "weight_only": self.weight_only}.get(kind, self.fp64)


def check_methods(methods):
    """Every method on CHECK_SHAPE (CHECK_SHAPE_ALIGNED where it cannot run that) against its
    reference: verdict[name] = (status, why, relative error)."""
    refs = {}

    def references(shape):
        if shape not in refs:
            refs[shape] = References(shape)
        return refs[shape]

    first = references(CHECK_SHAPE)
    print(f"check references: weight-only == MXFP8 x MXFP8 on {'x'.join(map(str, CHECK_SHAPE))}: "
          f"{first.references_agree}")
    verdict = {}
    for name in methods:
        method = METHODS[name]
        tried = []
        for shape in (CHECK_SHAPE, CHECK_SHAPE_ALIGNED):
            ref = references(shape)
            try:
                call, why = method.make(ref.inp)
                out = None if call is None else call().float().cpu()
            except Exception as e:
                out, why = None, first_line(e)
            if out is not None:
                break
            tried.append((f"{'x'.join(map(str, shape))}: {why}", why))
        if out is None:
            whys = [t[1] for t in tried]
            reason = whys[0] if len(set(whys)) == 1 else "; ".join(t[0] for t in tried)
            verdict[name] = ("unsupported", reason, None)
            print(f"check {name:22s} unsupported: {verdict[name][1]}")
            continue
        err = rel_err(out, ref.want(method.kind))
        limit = 0.1 if method.kind == "coarse" else 1e-2
        ok = math.isfinite(err) and err < limit
        where = f" on {'x'.join(map(str, shape))} ({tried[0][0]})" if tried else ""
        verdict[name] = ("ok" if ok else "wrong",
                         f"relative error {err:.2e} (limit {limit}){where}", err)
        print(f"check {name:22s} {verdict[name][1]} {'ok' if ok else 'WRONG'}")
    return verdict, first.references_agree


def quant_check_input(rows, k, seed):
    """bf16 (rows, k) over every binade (bf16 subnormals to near bf16's max), with a zero block,
    rounding ties (normal and subnormal) and values that saturate."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    nb = -(-k // 32)
    exps = torch.randint(-135, 120, (rows, nb), generator=g, device="cuda").float()
    x = torch.randn((rows, k), generator=g, device="cuda")
    x = x * torch.exp2(exps).repeat_interleave(32, dim=1)[:, :k]
    x[0, :32] = 0.0
    # Block amax 464 -> shared_exp 0: 1.0625 and 1.1875 are ties (to 1.0 and 1.25), 2^-10 and
    # 3 x 2^-10 subnormal ties (to 0 and 2^-8), 460 and 464 saturate to 448.
    ties = [464.0, 460.0, 1.0625, 1.1875, -1.0625, -1.1875, 2.0 ** -10, 3 * 2.0 ** -10,
            -3 * 2.0 ** -10, 2.0 ** -12, 256.0, -0.0]
    x[1, :32] = 0.5
    x[1, :len(ties)] = torch.tensor(ties, device="cuda")
    return x.to(torch.bfloat16)


def check_quantizers(methods):
    """Every quantizer on QUANT_CHECK_SHAPE against ops.quantize_mxfp8, code for code and scale
    for scale (ops.quantize_mxfp8 itself against the CPU reference)."""
    rows, k = QUANT_CHECK_SHAPE
    x = quant_check_input(rows, k, seed=3)
    q_ref, s_ref = ops.quantize_mxfp8(x)
    q_ref = q_ref.view(torch.uint8).cpu()
    s_ref = ops.to_linear(s_ref, rows, k).view(torch.uint8).cpu()
    shape = f"{rows}x{k}"
    verdict = {}
    for name in methods:
        try:
            if name == "mxgemm_quantize":
                against = "mxgemm.quantize_mxfp8_reference"
                q_np, s_np = mxgemm.quantize_mxfp8_reference(to_numpy_bits(x), layout="linear")
                got_q, got_s = torch.from_numpy(q_np), torch.from_numpy(s_np)
                want_q, want_s = q_ref, s_ref
            else:
                against = "ops.quantize_mxfp8"
                call, why = QUANT_METHODS[name].make(x)
                if call is None:
                    verdict[name] = ("unsupported", why, None)
                    print(f"check {name:22s} unsupported: {why}")
                    continue
                got_q, got_s = call()
                got_q, got_s = got_q.view(torch.uint8).cpu(), got_s.view(torch.uint8).cpu()
                want_q, want_s = q_ref, s_ref
        except Exception as e:
            verdict[name] = ("unsupported", first_line(e), None)
            print(f"check {name:22s} unsupported: {verdict[name][1]}")
            continue
        if got_q.shape != want_q.shape or got_s.shape != want_s.shape:
            got = f"{tuple(got_q.shape)}/{tuple(got_s.shape)}"
            want = f"{tuple(want_q.shape)}/{tuple(want_s.shape)}"
            verdict[name] = ("wrong", f"shapes {got}, {against} gives {want}", None)
        else:
            bad_q = int((got_q != want_q).sum())
            bad_s = int((got_s != want_s).sum())
            status = "ok" if bad_q == bad_s == 0 else "wrong"
            verdict[name] = (status, f"{bad_q} codes and {bad_s} scales differ from {against} "
                                     f"on {shape}", bad_q + bad_s)
        ok = verdict[name][0] == "ok"
        print(f"check {name:22s} {verdict[name][1]} {'ok' if ok else 'WRONG'}")
    return verdict


def time_run(run, calls, method, status, why, reps):
    """Time calls by the method's timing flag into the record `run`; the median us."""
    med, times, timing, note = time_calls(calls, method.timing, reps)
    run.update(status=status, why=why, median_us=med, times_us=times, timing=timing)
    if note:
        run["timing_note"] = note
    return med


def run_gemm(suites, methods, reps, result):
    jobs = [(s, shape) for s in suites for shape in SUITES[s]]
    humming_precompile([CHECK_SHAPE, CHECK_SHAPE_ALIGNED] + [shape for _, shape in jobs], methods)
    verdict, agree = check_methods(methods)
    result["checks"]["gemm"] = {
        "shape": list(CHECK_SHAPE), "weight_only_reference_equals_mxfp8_reference": agree,
        "methods": {name: {"status": v[0], "why": v[1], "rel_err": v[2]}
                    for name, v in verdict.items()}}
    for suite, (m, n, k) in progress(jobs, "shapes"):
        first = Inputs(m, n, k, seed=m * 131 + n * 7 + k)
        # Input copies that together exceed 2x L2, so no call finds its operands cached.
        copies = min(16, max(1, math.ceil(2 * L2_BYTES / first.bytes())))
        inputs = [first] + [Inputs(m, n, k, seed=m * 131 + n * 7 + k + c) for c in range(1, copies)]
        for name in methods:
            method = METHODS[name]
            run = {"suite": suite, "method": name, "m": m, "n": n, "k": k}
            status, why, err = verdict[name]
            if err is not None:
                run["check_rel_err"] = err
            made = [method.make(x) for x in inputs] if status != "unsupported" else [(None, why)]
            if any(call is None for call, _ in made):
                run.update(status="unsupported", why=next(w for c, w in made if c is None) or why)
            else:
                calls = [call for call, _ in made]
                if getattr(calls[0], "info", None):
                    run["method_info"] = calls[0].info
                out = None
                try:
                    out = calls[0]()  # also the JIT compilation of methods that have one
                    if torch.isnan(out).any():
                        run.update(status="wrong", why="NaN in the output")
                    else:
                        med = time_run(run, calls, method, status, why, reps)
                        run["tflops"] = 2.0 * m * n * k / (med * 1e-6) / 1e12
                except Exception as e:
                    run.update(status="unsupported", why=first_line(e))
                del calls, out  # before the next method prepares its operands (humming)
            result["runs"].append(run)
            del made
        del first, inputs
        torch.cuda.empty_cache()


def run_quant(methods, reps, result):
    verdict = check_quantizers(methods)
    result["checks"]["quant"] = {
        "shape": list(QUANT_CHECK_SHAPE),
        "methods": {name: {"status": v[0], "why": v[1], "mismatches": v[2]}
                    for name, v in verdict.items()}}
    for rows, k in progress(QUANT_SHAPES, "quant"):
        nbytes = quant_bytes(rows, k)
        copies = min(16, max(1, math.ceil(2 * L2_BYTES / (rows * k * 2))))
        xs = []
        for c in range(copies):
            g = torch.Generator(device="cuda").manual_seed(rows * 131 + k + c)
            xs.append(torch.randn((rows, k), generator=g, device="cuda").to(torch.bfloat16))
        for name in methods:
            method = QUANT_METHODS[name]
            run = {"suite": QUANT_SUITE, "method": name, "m": rows, "n": 0, "k": k,
                   "bytes": nbytes}
            status, why, _ = verdict[name]
            made = [method.make(x) for x in xs] if status != "unsupported" else [(None, why)]
            if any(call is None for call, _ in made):
                run.update(status="unsupported", why=next(w for c, w in made if c is None) or why)
            else:
                try:
                    calls = [call for call, _ in made]
                    calls[0]()  # torch.compile compiles here, before timing
                    med = time_run(run, calls, method, status, why, reps)
                    run["gbps"] = nbytes / (med * 1e-6) / 1e9
                except Exception as e:
                    run.update(status="unsupported", why=first_line(e))
            result["runs"].append(run)
            del made
        del xs
        torch.cuda.empty_cache()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", choices=[*SUITES, QUANT_SUITE, "all"], default="all")
    ap.add_argument("--methods", default=",".join(METHODS),
                    help=f"comma list of GEMM methods, of {list(METHODS)}")
    ap.add_argument("--quant-methods", default=",".join(QUANT_METHODS),
                    help=f"comma list of quantization methods, of {list(QUANT_METHODS)}")
    ap.add_argument("--reps", type=int, default=20, help="graph replays per method and shape")
    ap.add_argument("--out", required=True, help="results JSON")
    ap.add_argument("--append", action="store_true",
                    help="merge into an existing --out (same GPU): its runs of the same suite, "
                         "method and shape are replaced, the others kept")
    args = ap.parse_args(argv)
    if not torch.cuda.is_available():
        print("error: no CUDA device", file=sys.stderr)
        return 2
    here = pathlib.Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    qmethods = [m.strip() for m in args.quant_methods.split(",") if m.strip()]
    for flag, names, known in (("--methods", methods, METHODS),
                               ("--quant-methods", qmethods, QUANT_METHODS)):
        unknown = [m for m in names if m not in known]
        if unknown:
            print(f"error: {flag}: unknown {unknown}; known: {list(known)}", file=sys.stderr)
            return 2
    suites = [*SUITES, QUANT_SUITE] if args.suite == "all" else [args.suite]
    result = {"schema": SCHEMA, "created": datetime.datetime.now(datetime.timezone.utc).isoformat(),
              "command": " ".join([os.path.basename(sys.argv[0]), *(argv or sys.argv[1:])]),
              **environment(), "checks": {}, "runs": []}
    gemm_suites = [s for s in suites if s in SUITES]
    if gemm_suites and methods:
        run_gemm(gemm_suites, methods, args.reps, result)
    if QUANT_SUITE in suites and qmethods:
        run_quant(qmethods, args.reps, result)
    out = pathlib.Path(args.out)
    if args.append and out.exists():
        import report
        result = report.merge(report.load(out), result)
    out.write_text(json.dumps(result, indent=1))
    print(f"wrote {out} ({len(result['runs'])} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
