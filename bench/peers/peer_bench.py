#!/usr/bin/env python3
"""Peer benchmark (issue #8): mxgemm against what users run today, side by side, on the same
inputs and in one run, on a GPU machine with no network.

    python3 bench/peers/peer_bench.py --suite all --out bench/results/peers.json
    python3 bench/peers/report.py bench/results/peers.json --plots bench/results --readme README.md

Methods (a method that cannot run a shape is recorded as "unsupported" with the reason):
    mxgemm               mxgemm.mxfp8_scaled_mm, E4M3 operands, swizzled E8M0 scales, BF16 out
    mxgemm_weight_only   mxgemm.mxfp8_weight_only_mm: the bf16 activation x the MXFP8 weight
    cublas_bf16          torch.mm (cuBLAS) on both operands dequantized beforehand
    dequant_eager_bf16   eager-PyTorch dequantization of both operands, then torch.mm
    dequant_mxgemm_bf16  mxgemm.dequantize_mxfp8 of both operands, then torch.mm
    fp8_per_tensor       torch._scaled_mm, E4M3 with one fp32 scale per tensor
    fp8_blockwise        torch._scaled_mm with DeepSeek-style 1x128 (A) / 128x128 (B) scales
    triton_dot_scaled    a Triton kernel on tl.dot_scaled (E4M3 + E8M0), best of a few configs
    humming              humming-kernels, if its wheel is installed (not on PyPI's index here)

Timing: each method's calls are captured in a CUDA graph (so Python's launch overhead does
not count) over input copies that together exceed 2x L2 (rotation); the graph is replayed
--reps times and the median per-call time is reported, with every replay's time kept in the
results file. Checks: on a small shape that is no tile multiple, every method's output is
compared with the exact reference (the MXFP8 methods, 1e-2 relative Frobenius error) or with
the fp64 product of the unquantized inputs (the coarser fp8 recipes, 0.1); a method that
fails is marked "wrong" everywhere and kept out of the table's ratios. Every shape's output
is checked for NaN.

Status: written; not yet run on a GPU (the report side is tested in CI:
tests/python/test_peer_report.py).
"""

import argparse
import datetime
import json
import math
import os
import pathlib
import platform
import subprocess
import sys

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
}
CHECK_SHAPE = (200, 264, 512)  # no tile multiple
E4M3, E8M0 = torch.float8_e4m3fn, torch.float8_e8m0fnu


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


# ---- methods -----------------------------------------------------------------------------------
# Each returns (call, why): call(inputs) -> output, or None and the reason it cannot run.

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


def m_humming(inp):
    try:
        import humming  # noqa: F401
    except Exception:
        return None, "humming-kernels is not installed (carry its wheel to the GPU machine)"
    return None, "humming-kernels is installed but its MXFP8 entry point is not wired up yet"


METHODS = {
    "mxgemm": (m_mxgemm, "exact"),
    "mxgemm_weight_only": (m_mxgemm_weight_only, "exact"),
    "cublas_bf16": (m_cublas_bf16, "exact"),
    "dequant_eager_bf16": (m_dequant_eager_bf16, "exact"),
    "dequant_mxgemm_bf16": (m_dequant_mxgemm_bf16, "exact"),
    "fp8_per_tensor": (m_fp8_per_tensor, "coarse"),
    "fp8_blockwise": (m_fp8_blockwise, "coarse"),
    "triton_dot_scaled": (m_triton_dot_scaled, "exact"),
    "humming": (m_humming, "exact"),
}


# ---- timing ------------------------------------------------------------------------------------

def time_graph(calls, calls_per_graph, reps):
    """Median per-call microseconds over `reps` replays of a CUDA graph of calls_per_graph
    calls, rotating over `calls` (one per input copy), and every replay's per-call time."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for call in calls:
            call()  # warm-up, outside the graph (allocations, workspaces, autotuning)
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
    return {
        "git_commit": run(["git", "-C", str(repo), "rev-parse", "HEAD"]),
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


def check_methods(methods):
    """Every method on CHECK_SHAPE against the exact reference or the fp64 product."""
    m, n, k = CHECK_SHAPE
    inp = Inputs(m, n, k, seed=1)
    exact = ops.mxfp8_scaled_mm_reference(inp.aq, inp.wq, inp.sa, inp.sw, 1.0, torch.float32)
    fp64 = inp.x.double().cpu() @ inp.w.double().cpu().T
    verdict = {}
    for name in methods:
        make, kind = METHODS[name]
        call, why = make(inp)
        if call is None:
            verdict[name] = ("unsupported", why, None)
            continue
        out = call().float().cpu()
        err = rel_err(out, exact if kind == "exact" else fp64)
        limit = 1e-2 if kind == "exact" else 0.1
        ok = math.isfinite(err) and err < limit
        verdict[name] = ("ok" if ok else "wrong", f"relative error {err:.2e} (limit {limit})", err)
        print(f"check {name:22s} {verdict[name][1]} {'ok' if ok else 'WRONG'}")
    return verdict


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", choices=[*SUITES, "all"], default="all")
    ap.add_argument("--methods", default=",".join(METHODS), help="comma list")
    ap.add_argument("--reps", type=int, default=20, help="graph replays per method and shape")
    ap.add_argument("--out", required=True, help="results JSON")
    args = ap.parse_args(argv)
    if not torch.cuda.is_available():
        print("error: no CUDA device", file=sys.stderr)
        return 2
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        print(f"error: --methods: unknown {unknown}; known: {list(METHODS)}", file=sys.stderr)
        return 2
    suites = list(SUITES) if args.suite == "all" else [args.suite]
    result = {"schema": SCHEMA, "created": datetime.datetime.now(datetime.timezone.utc).isoformat(),
              "command": " ".join([os.path.basename(sys.argv[0]), *(argv or sys.argv[1:])]),
              **environment(), "runs": []}
    verdict = check_methods(methods)
    l2 = 60 << 20
    jobs = [(s, shape) for s in suites for shape in SUITES[s]]
    for suite, (m, n, k) in progress(jobs, "shapes"):
        first = Inputs(m, n, k, seed=m * 131 + n * 7 + k)
        # Input copies that together exceed 2x L2, so no call finds its operands cached.
        copies = min(16, max(1, math.ceil(2 * l2 / first.bytes())))
        inputs = [first] + [Inputs(m, n, k, seed=m * 131 + n * 7 + k + c) for c in range(1, copies)]
        for name in methods:
            run = {"suite": suite, "method": name, "m": m, "n": n, "k": k}
            status, why, _ = verdict[name]
            made = [METHODS[name][0](x) for x in inputs] if status != "unsupported" else [(None, why)]
            if any(call is None for call, _ in made):
                run.update(status="unsupported", why=next(w for c, w in made if c is None) or why)
            else:
                calls = [call for call, _ in made]
                try:
                    out = calls[0]()
                    if torch.isnan(out).any():
                        run.update(status="wrong", why="NaN in the output")
                    else:
                        med, times = time_graph(calls, max(len(calls), 10), args.reps)
                        run.update(status=status, why=why, median_us=med, times_us=times,
                                   tflops=2.0 * m * n * k / (med * 1e-6) / 1e12)
                except Exception as e:
                    run.update(status="unsupported", why=f"{type(e).__name__}: {str(e).splitlines()[0]}")
            result["runs"].append(run)
        del first, inputs
        torch.cuda.empty_cache()
    pathlib.Path(args.out).write_text(json.dumps(result, indent=1))
    print(f"wrote {args.out} ({len(result['runs'])} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
