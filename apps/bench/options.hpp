// Part of mxgemm_bench (apps/bench_gemm.cu), its only translation unit: the command line's options
// and the shape suites.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/kernel_override.hpp"  // the forced kernels and schedules of the comparison
#include "mxgemm/mxgemm.hpp"

namespace mxgemm::bench {

using i64 = std::int64_t;

struct Options {
  std::string suite = "square";
  std::vector<i64> m, n, k;  // custom shapes: the cross product
  int iters = 30;
  int warmup = 5;
  // Then each method runs back to back for at least this long before its timed runs, so that
  // it is timed at the clock its own power draw settles to. Under sustained load the H200's
  // power cap (700 W) lowers the SM clock from 1980 MHz to 1400-1700 within about 100 ms;
  // a few warm-up runs of a large GEMM leave the first method timed at full clock and the
  // next ones throttled (bench/results/s25/README.md).
  double warmup_ms = 300.0;
  int sample = 1000;
  std::string csv;
  std::string bf16_api = "lt";
  bool fp8_fast_accum = false;
  bool list = false;
  std::uint64_t seed = 20261129;
  // "mxfp8": mxfp8_scaled_mm (MXFP8 x MXFP8). "weight-only": mxfp8_weight_only_mm, the same
  // A as bf16 (its exact dequantization) times the MXFP8 B; the dequant + cuBLAS peer then
  // dequantizes only B, and the memory floor counts A as bf16.
  // "weight-only-fp16": the same with A as FP16 for mxgemm (the same exact values: every
  // element of the MXFP8 A is an fp16 value at these scales), which takes the fp16 values
  // form; the peers keep the bf16 A.
  std::string mode = "mxfp8";
  bool weight_only() const { return mode == "weight-only" || mode == "weight-only-fp16"; }
  bool fp16_activation() const { return mode == "weight-only-fp16"; }
  // The kernel of the comparison column: "tiled", "streaming", "skinny", or "bf16-values" (the
  // library's choice, the streaming kernel's MXFP8 values in bf16).
  std::string compare = "tiled";
  // Output type of the mxgemm columns (mxgemm and the comparison kernel); the peers keep BF16.
  // A non-BF16 output is rounded to BF16 once after the checked first call, for the checks.
  std::string mx_out = "bf16";
  DType mx_out_dtype() const { return mx_out == "fp32" ? DType::FP32 : mx_out == "fp16" ? DType::FP16 : DType::BF16; }
  std::size_t mx_out_bytes() const { return mx_out == "fp32" ? 4 : 2; }
  detail::Sm90Kernel compare_kernel() const {
    return compare == "streaming" ? detail::Sm90Kernel::Streaming
           : compare == "skinny"  ? detail::Sm90Kernel::Skinny
           : compare == "tiled"   ? detail::Sm90Kernel::Tiled
                                  : detail::Sm90Kernel::Auto;
  }
  detail::StreamMxValues compare_mx_values() const {
    return compare == "bf16-values" ? detail::StreamMxValues::Bf16 : detail::StreamMxValues::Auto;
  }
  // The streaming kernel's K-split schedule of the mxgemm column (detail::StreamSplitK): "auto"
  // (the library's), or a forced one, to time a schedule Auto does not take with the same binary.
  std::string split_k = "auto";
  detail::StreamSplitK split_k_mode() const {
    return split_k == "never"           ? detail::StreamSplitK::Never
           : split_k == "always"        ? detail::StreamSplitK::Always
           : split_k == "clusters"      ? detail::StreamSplitK::Clusters
           : split_k == "wide-clusters" ? detail::StreamSplitK::WideClusters
                                        : detail::StreamSplitK::Auto;
  }
  // The streaming kernel's 192-row tiles and padded workspace activation in the mxgemm column
  // (detail::StreamWidth192, detail::StreamPaddedWorkspace): "auto" or "never" (192-row tiles
  // also "always": every M above 128).
  std::string width_192 = "auto";
  std::string padded_ws = "auto";
  detail::StreamWidth192 width_192_mode() const {
    return width_192 == "never"    ? detail::StreamWidth192::Never
           : width_192 == "always" ? detail::StreamWidth192::Always
                                   : detail::StreamWidth192::Auto;
  }
  detail::StreamPaddedWorkspace padded_ws_mode() const {
    return padded_ws == "never" ? detail::StreamPaddedWorkspace::Never : detail::StreamPaddedWorkspace::Auto;
  }
  // The staged store's rows written by TMA (detail::StreamTmaStore): "auto" or "never" (the math
  // threads write them).
  std::string tma_store = "auto";
  detail::StreamTmaStore tma_store_mode() const {
    return tma_store == "never" ? detail::StreamTmaStore::Never : detail::StreamTmaStore::Auto;
  }
  // The 256-row tiles' promotion into global memory (detail::StreamPromote): "auto",
  // "unstaggered" or "never" (timing only).
  std::string promote = "auto";
  detail::StreamPromote promote_mode() const {
    return promote == "never"         ? detail::StreamPromote::Never
           : promote == "unstaggered" ? detail::StreamPromote::Unstaggered
                                      : detail::StreamPromote::Auto;
  }
  // The streaming kernel's values form of the mxgemm column (detail::StreamMxValues): "auto",
  // "bf16", "f16" (BF16 activations through the fp16 form's pre-pass wherever it can run) or
  // "bf16-permuted" (BF16 activations of more than 16 rows copied into the permuted K order).
  // The weight's K order in the mxgemm column of the weight-only modes: "natural", or
  // "prepacked" (mxfp8_prepack_weight once per copy, outside the timing; KOrder::Prepacked).
  std::string weight_order = "natural";
  bool prepacked_weight() const { return weight_only() && weight_order == "prepacked"; }
  // The same for the comparison column (--compare-kernel), so that two kernels can be timed on a
  // prepacked weight in one run.
  std::string compare_weight_order = "natural";
  bool compare_prepacked_weight() const { return weight_only() && compare_weight_order == "prepacked"; }
  std::string mx_values = "auto";
  detail::StreamMxValues mx_values_mode() const {
    return mx_values == "bf16"             ? detail::StreamMxValues::Bf16
           : mx_values == "f16"            ? detail::StreamMxValues::F16
           : mx_values == "bf16-permuted" ? detail::StreamMxValues::Bf16Permuted
                                           : detail::StreamMxValues::Auto;
  }
  // Every timed run of a shape waits behind a spin kernel of this many microseconds, or of 3x
  // the longest host side of a call among the methods + 20 us where that is longer (the host
  // must not fall behind the device within a timed run): ShapeBench::time_all.
  double spin_us = 50.0;
};

struct Shape {
  i64 m, n, k;
  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
};

inline std::vector<Shape> suite_shapes(const std::string& name) {
  std::vector<Shape> s;
  if (name == "large" || name == "all") {
    const std::pair<i64, i64> nk[] = {{8192, 8192}, {8192, 28672}, {28672, 8192}, {4096, 4096}};
    for (const auto& [n, k] : nk)
      for (i64 m : {2048, 4096, 8192, 16384}) s.push_back({m, n, k});
  }
  if (name == "square" || name == "all") s.push_back({8192, 8192, 8192});
  if (name == "mid" || name == "all")
    for (i64 m : {128, 256, 512, 1024}) s.push_back({m, 8192, 8192});
  if (name == "small" || name == "all")
    for (i64 m : {1, 16, 64}) s.push_back({m, 8192, 8192});
  if (name == "decode" || name == "all") {
    const std::pair<i64, i64> nk[] = {{8192, 8192}, {28672, 8192}, {8192, 28672}, {4096, 4096}, {1024, 8192}};
    for (const auto& [n, k] : nk)
      for (i64 m : {1, 2, 4, 8, 16, 32, 64}) s.push_back({m, n, k});
  }
  // 'all' lists 8192^3 twice (large and square): keep the first.
  std::vector<Shape> out;
  for (const Shape& x : s) {
    const bool dup = std::any_of(out.begin(), out.end(), [&](const Shape& y) {
      return y.m == x.m && y.n == x.n && y.k == x.k;
    });
    if (!dup) out.push_back(x);
  }
  return out;
}

}  // namespace mxgemm::bench
