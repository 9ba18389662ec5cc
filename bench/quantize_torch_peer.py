#!/usr/bin/env python3
"""Eager PyTorch MXFP8 quantization, the peer that apps/bench_quantize is compared with.

The nvFuser-style recipe, op by op in eager mode: amax over blocks of 32 along K, the
power-of-two scale 2^(floor(log2(amax)) - 8) (OCP FLOOR), divide, clamp to +-448, cast to
float8_e4m3fn, scale bytes as uint8 (exponent + 127). Same shape and dtype as the C++
benchmark (8192 x 8192 bf16 by default), timed with torch.cuda.Event, median of --iters runs
after warm-up, inputs rotated among buffers larger than L2 in total.

    python3 bench/quantize_torch_peer.py [--rows 8192] [--cols 8192] [--iters 100]
"""
import argparse
import statistics

import torch


def quantize_eager(x: torch.Tensor):
    rows, cols = x.shape
    blocks = x.view(rows, cols // 32, 32).float()
    amax = blocks.abs().amax(dim=-1, keepdim=True)
    exp = torch.floor(torch.log2(amax)) - 8  # 448 = 1.75 * 2^8
    exp = torch.clamp(torch.nan_to_num(exp, neginf=-127.0), -127, 127)
    scaled = blocks / torch.exp2(exp)
    q = torch.clamp(scaled, -448.0, 448.0).to(torch.float8_e4m3fn).view(rows, cols)
    scales = (exp + 127).to(torch.uint8).view(rows, cols // 32)
    return q, scales


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=8192)
    ap.add_argument("--cols", type=int, default=8192)
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    args = ap.parse_args()
    assert args.cols % 32 == 0, "cols must be a multiple of 32"

    dev = torch.device("cuda")
    props = torch.cuda.get_device_properties(dev)
    l2 = getattr(props, "L2_cache_size", 60 << 20)
    x_bytes = args.rows * args.cols * 2
    sets = max(3, 3 * l2 // x_bytes + 1)
    xs = [torch.randn(args.rows, args.cols, device=dev, dtype=torch.bfloat16) for _ in range(sets)]

    for i in range(args.warmup):
        quantize_eager(xs[i % sets])
    torch.cuda.synchronize()
    times = []
    for i in range(args.iters):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(1_000_000)  # keep the GPU busy while the host queues the ops
        start.record()
        quantize_eager(xs[i % sets])
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    ms = statistics.median(times)
    # The same bytes the C++ benchmark counts: x read once, codes and scales written once.
    useful = x_bytes + args.rows * args.cols + args.rows * (args.cols // 32)
    print(f"# {props.name}, torch {torch.__version__}, {args.rows}x{args.cols} bf16, "
          f"median of {args.iters} runs, {sets} input buffers rotated")
    print(f"torch eager quantize (FLOOR, e4m3): {ms * 1e3:.1f} us, "
          f"{useful / (ms * 1e6):.0f} GB/s effective (useful bytes {useful / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
