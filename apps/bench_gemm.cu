// mxgemm_bench: mxfp8_scaled_mm against its peers, in one run, on the same inputs.
//
// For each shape M x N x K of a suite (A: M x K, B: N x K, D = A x B^T, all row-major):
//   mxgemm       mxfp8_scaled_mm: E4M3 operands, swizzled 128x4 E8M0 scales, BF16 out
//                (--mx-out fp16 / fp32: that output type for the mxgemm columns, the
//                peers keeping BF16; the checks then read the first call's output rounded
//                to BF16, and the memory floor counts D in that type), alpha on the device;
//   bf16         cuBLAS BF16 GEMM (fp32 compute, BF16 out) on operands dequantized
//                beforehand on the host (dequantize_mxfp8_reference: exactly the values
//                mxgemm multiplies);
//   dq+bf16      dequantize_mxfp8 of both operands (GPU) into BF16 buffers, then the same
//                cuBLAS BF16 GEMM, timed together ('n/a' where the GPU dequantizer throws
//                UnsupportedError);
//   fp8          cuBLASLt E4M3 x E4M3 with one fp32 scale per tensor (amax / 448),
//                BF16 out: a speed-of-light reference with coarser scaling;
//   tiled        mxfp8_scaled_mm forced onto another sm_90 kernel than the one it picks
//                (--compare-kernel: the tiled kernel by default, the streaming kernel,
//                which the skinny kernel replaces up to 16 rows, or the skinny kernel
//                where the streaming one is picked), so that the two can be
//                compared on the same shape; the column is named after that kernel.
//                --compare-kernel bf16-values: the kernel mxgemm picks, with E4M3 MXFP8
//                activations (and BF16 ones in weight-only mode) in the streaming kernel's
//                bf16 values form instead of the fp16 one (detail::StreamMxValues). That
//                column runs after the peers, warmer: on the H200 it read 5-9% slower than
//                the same path timed first (bench/results/s31/README.md, b2 against b3).
// The memory floor of a shape is the bytes that must move (A and B with their scales, D)
// divided by the device-to-device copy bandwidth measured at the start of the run (bytes
// read plus written per second, median of 20 copies of 1 GiB); "x floor" is mxgemm's time
// over it.
// Ratio columns are peer_time / mxgemm_time (> 1: mxgemm faster); the last line holds
// their geometric means over the suite.
//
// Timing: CUDA events around each call; every method's first (checked) call and warm-up,
// then per method --warmup-ms of back-to-back calls and the median of --iters timed calls.
// Each timed call is queued behind a spin kernel of one length for every method of a shape
// (--spin-us, or 3x the longest host side of a call + 20 us where that is longer, measured
// during the warm-ups), so the events time the GPU work alone, after the same idle time.
// Inputs rotate among enough copies that one method's input sets together exceed 2 x L2 (at
// least 120 MB, at least 2 copies). Each output is poisoned (0xFF: NaN) once before its
// method's first call.
//
// Checks: at start, on a small shape that is no tile multiple, every method against the
// exact host reference (mxfp8_scaled_mm_reference) and mxgemm against cuBLAS BF16
// (relative Frobenius error < 1e-2). After each shape's timings, mxgemm against cuBLAS
// BF16 (which multiplies the same values): relative Frobenius error < 1e-2 on a random
// sample of --sample outputs and over the whole of D, no NaN (D was poisoned), and no
// output off by more than 2^-5 |ref| + 1e-3 rms(ref) (two correct results differ by about
// one BF16 ulp; a lost K step or a stale tile shows up here even when it is too rare to
// move the Frobenius norm). A fast wrong kernel prints FAIL and makes the exit code 1.
//
// Exit codes: 0 all checks passed, 1 a check failed, 2 bad usage or nothing can run.
//
// This file has the start-up check, the run over the shapes and main; the pieces are in
// apps/bench/ (one translation unit: this one): options.hpp (options, suites), host_util.hpp,
// pools.hpp (the host inputs), device_checks.cuh (spin and check kernels), cublas_peers.cuh
// (GPU state, cuBLASLt plans), shape_bench.cuh (one shape's methods, timing, comparisons),
// report.hpp (table, geometric means, CSV).
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "bench/cublas_peers.cuh"
#include "bench/host_util.hpp"
#include "bench/options.hpp"
#include "bench/pools.hpp"
#include "bench/report.hpp"
#include "bench/shape_bench.cuh"
#include "core/check.hpp"
#include "mxgemm/mxgemm.hpp"

namespace mxgemm::bench {

// The start-up check: a small shape that is no tile multiple (M % 128, N % 128, ceil(K/32)
// % 4 all nonzero); every method against the exact host reference, and mxgemm against
// cuBLAS bf16 (the brief's < 1e-2). The fp8 bound is loose on purpose: per-tensor E4M3 of
// the fp32 data differs from MXFP8 by ~5% relative; a transpose or scale mistake gives ~100%.

double rel_fro(const std::vector<std::uint16_t>& got, const std::vector<std::uint16_t>& ref) {
  double e2 = 0.0, r2 = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = bf16_to_float(got[i]), r = bf16_to_float(ref[i]);
    if (!std::isfinite(g) || !std::isfinite(r)) return std::numeric_limits<double>::infinity();
    e2 += (g - r) * (g - r);
    r2 += r * r;
  }
  return r2 > 0.0 ? std::sqrt(e2 / r2) : std::numeric_limits<double>::infinity();
}

bool startup_check(Gpu& gpu, const Options& o) {
  const Shape sh{200, 272, 1056};
  std::printf("start-up check on %lld x %lld x %lld (no tile multiple), vs the exact reference "
              "mxfp8_scaled_mm_reference:\n",
              (long long)sh.m, (long long)sh.n, (long long)sh.k);
  Pools pools = make_pools({sh}, o.seed ^ 0x5EEDull);
  Pool &pa = pools.a(sh), &pb = pools.b(sh);
  ShapeBench bench(gpu, o, sh, pa, pb, /*rotate=*/false);
  std::vector<std::uint16_t> ref(static_cast<std::size_t>(sh.m * sh.n));
  // Also the weight-only mode's reference: its bf16 A is A's exact dequantization, and the
  // exact product of the same values is the same (tests/cpu/test_weight_only_reference.cpp).
  mxfp8_scaled_mm_reference(pa.host_op(sh.m), pb.host_op(sh.n), 1.0f,
                            contiguous(static_cast<void*>(ref.data()), sh.m, sh.n, DType::BF16, Memory::Host));
  bool ok = true;
  std::vector<std::uint16_t> outs[kMethods];
  for (int mi = 0; mi < kMethods; ++mi) {
    const auto m = static_cast<Method>(mi);
    const MethodResult r = bench.first_run(m);
    if (!r.ran) {
      const bool fatal = m == kMx || m == kBf16;
      std::printf("  %-22s n/a (%s)%s\n", kMethodNames[m], r.why.c_str(), fatal ? "  FAIL" : "");
      ok = ok && !fatal;
      continue;
    }
    outs[m] = bench.download(m);
    const double e = rel_fro(outs[m], ref);
    const double tol = m == kFp8 ? 0.2 : 1e-2;
    const bool pass = e < tol;
    ok = ok && pass;
    std::printf("  %-22s rel. Frobenius error %.3e (limit %.0e)%s\n", kMethodNames[m], e, tol,
                pass ? "" : "  FAIL");
  }
  if (!outs[kMx].empty() && !outs[kBf16].empty()) {
    const double e = rel_fro(outs[kMx], outs[kBf16]);
    const bool pass = e < 1e-2;
    ok = ok && pass;
    std::printf("  mxgemm vs cuBLAS bf16  rel. Frobenius error %.3e (limit 1e-02)%s\n", e,
                pass ? "" : "  FAIL");
  }
  std::printf("start-up check: %s\n\n", ok ? "PASS" : "FAIL");
  if (!ok) std::fprintf(stderr, "!!! FAIL: start-up check failed (see above)\n");
  return ok;
}

// Device-to-device copy bandwidth, bytes read plus written per second: median of 20 timed
// copies of 1 GiB after 3 warm-ups.
double copy_bandwidth_gbps(Gpu& gpu) {
  constexpr std::size_t kBytes = std::size_t{1} << 30;
  DeviceBuffer src(kBytes), dst(kBytes);
  MXGEMM_CUDA_CHECK(cudaMemsetAsync(src.get(), 0x5A, kBytes, gpu.stream));
  cudaEvent_t e0, e1;
  MXGEMM_CUDA_CHECK(cudaEventCreate(&e0));
  MXGEMM_CUDA_CHECK(cudaEventCreate(&e1));
  std::vector<double> gbps;
  for (int i = 0; i < 23; ++i) {
    MXGEMM_CUDA_CHECK(cudaEventRecord(e0, gpu.stream));
    MXGEMM_CUDA_CHECK(cudaMemcpyAsync(dst.get(), src.get(), kBytes, cudaMemcpyDeviceToDevice, gpu.stream));
    MXGEMM_CUDA_CHECK(cudaEventRecord(e1, gpu.stream));
    MXGEMM_CUDA_CHECK(cudaEventSynchronize(e1));
    float ms = 0.0f;
    MXGEMM_CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    if (i >= 3) gbps.push_back(2.0 * double(kBytes) / (ms * 1e-3) / 1e9);
  }
  warn_cuda(cudaEventDestroy(e0), "cudaEventDestroy");
  warn_cuda(cudaEventDestroy(e1), "cudaEventDestroy");
  return median(gbps);
}

int run(const Options& o, const std::vector<Shape>& shapes) {
  const BackendInfo info = gemm_backend();
  if (!info.available) throw UnsupportedError("no mxgemm GPU backend can run here: " + info.reason);
  Gpu gpu;
  const double l2_mb = gpu.prop.l2CacheSize / 1048576.0;
  if (o.weight_only())
    std::printf("mxgemm_bench --mode %s: D = A x B^T, A: M x K %s (the exact dequantization "
                "of an MXFP8 A), B: N x K E4M3 MXFP8, BF16 out\n",
                o.mode.c_str(), o.fp16_activation() ? "FP16 for mxgemm, BF16 for the peers" : "BF16");
  else
    std::printf("mxgemm_bench: D = A x B^T, A: M x K, B: N x K (TN), E4M3 MXFP8 inputs, BF16 out\n");
  if (o.mx_out_dtype() != DType::BF16)
    std::printf("mxgemm columns: %s out (the peers: BF16; checked after rounding to BF16)\n",
                o.mx_out == "fp32" ? "FP32" : "FP16");
  if (o.split_k != "auto") std::printf("mxgemm column: the streaming kernel's K split forced: %s\n", o.split_k.c_str());
  if (o.width_192 != "auto") std::printf("mxgemm column: 192-row tiles: %s\n", o.width_192.c_str());
  if (o.padded_ws != "auto") std::printf("mxgemm column: padded workspace activation: %s\n", o.padded_ws.c_str());
  if (o.tma_store != "auto") std::printf("mxgemm column: staged store by TMA: %s\n", o.tma_store.c_str());
  if (o.promote != "auto") std::printf("mxgemm column: the wide tiles' promotion of their sums: %s\n", o.promote.c_str());
  if (o.mx_values != "auto") std::printf("mxgemm column: the streaming kernel's values form: %s\n", o.mx_values.c_str());
  if (o.prepacked_weight()) std::printf("mxgemm column: the weight prepacked (mxfp8_prepack_weight, KOrder::Prepacked)\n");
  if (o.compare_prepacked_weight()) std::printf("comparison column: the weight prepacked\n");
  std::printf("device: %s, %d SMs, L2 %.0f MiB; mxgemm backend: %s; cuBLASLt %zu; bf16 via %s; "
              "fp8 fast accumulation %s\n",
              gpu.prop.name, gpu.prop.multiProcessorCount, l2_mb, info.name.c_str(),
              cublasLtGetVersion(), o.bf16_api == "lt" ? "cublasLtMatmul" : "cublasGemmEx",
              o.fp8_fast_accum ? "on" : "off");
  std::printf("timing: median of %d CUDA-event timed runs after %d warm-up and %.0f ms of back-to-back "
              "runs per method (its own sustained clock), each behind a %.0f us spin kernel; inputs "
              "rotated over copies totalling > %.0f MiB\n\n",
              o.iters, o.warmup, o.warmup_ms, o.spin_us, gpu.rotate_bytes / 1048576.0);
  std::fflush(stdout);

  bool all_ok = startup_check(gpu, o);
  const double copy_gbps = copy_bandwidth_gbps(gpu);
  std::printf("device-to-device copy: %.0f GB/s (read + written), the memory floor's bandwidth\n\n",
              copy_gbps);

  auto t0 = Clock::now();
  Pools pools = make_pools(shapes, o.seed);
  double elems = 0.0;
  for (const auto& kv : pools.by_key) elems += double(kv.second->rows) * double(kv.second->k);
  std::printf("inputs: %zu host pools, %.0f M elements (%.1f GB on the host), made in %.1f s\n\n",
              pools.by_key.size(), elems / 1e6, elems * 8.0 / 1e9, seconds_since(t0));
  std::fflush(stdout);

  print_header();
  std::vector<Row> rows;
  for (std::size_t si = 0; si < shapes.size(); ++si) {
    const Shape& sh = shapes[si];
    Row row;
    row.sh = sh;
    {
      const ScaleShape sa = scale_shape(sh.m, sh.k, ScaleLayout::Swizzled128x4);
      const ScaleShape sb = scale_shape(sh.n, sh.k, ScaleLayout::Swizzled128x4);
      const double a_bytes = o.weight_only() ? 2.0 * double(sh.m * sh.k)
                                             : double(sh.m * sh.k + sa.rows * sa.cols);
      const double bytes =
          a_bytes + double(sh.n * sh.k + sb.rows * sb.cols) + double(o.mx_out_bytes()) * double(sh.m * sh.n);
      row.floor_us = bytes / (copy_gbps * 1e3);
    }
    try {
      ShapeBench bench(gpu, o, sh, pools.a(sh), pools.b(sh), /*rotate=*/true);
      const ShapeTimings t = bench.time_all(o.spin_us);
      for (int mi = 0; mi < kMethods; ++mi) row.r[mi] = t.r[mi];
      row.spin_us = t.spin_us;
      row.fp8_fallback = bench.fp8_fallback();
      const std::vector<i64> idx = sample_indices(sh.m * sh.n, o.sample, o.seed + si);
      std::vector<std::string> why;
      if (!row.r[kMx].ran) why.push_back("mxgemm did not run: " + row.r[kMx].why);
      if (row.r[kMx].ran && row.r[kBf16].ran) {
        row.mx_vs_bf16 = bench.compare(kMx, kBf16, idx);
        const PairCheck& c = row.mx_vs_bf16;
        char b[256];
        if (!(c.sample_rel < 1e-2)) {
          std::snprintf(b, sizeof(b), "mxgemm vs cuBLAS bf16: sample relative error %.3e >= 1e-2", c.sample_rel);
          why.push_back(b);
        }
        if (!(c.full_rel < 1e-2)) {
          std::snprintf(b, sizeof(b), "mxgemm vs cuBLAS bf16: full relative error %.3e >= 1e-2", c.full_rel);
          why.push_back(b);
        }
        if (c.nan_got || c.nonfinite) {
          std::snprintf(b, sizeof(b), "mxgemm output has %llu NaN (%llu non-finite mismatches)",
                        c.nan_got, c.nonfinite);
          why.push_back(b);
        }
        if (c.mismatches) {
          std::snprintf(b, sizeof(b),
                        "mxgemm vs cuBLAS bf16: %llu of %lld outputs differ by more than 2^-5 |ref| + "
                        "1e-3 rms(ref) (max |diff| %.3g = %.3g x rms(ref); first at row %lld, col %lld)",
                        c.mismatches, (long long)(sh.m * sh.n), c.max_diff,
                        c.rms_ref > 0.0 ? c.max_diff / c.rms_ref : 0.0, (long long)c.first_row,
                        (long long)c.first_col);
          why.push_back(b);
        }
        if (c.nan_ref) why.push_back("cuBLAS bf16 output has NaN: the check is void");
      } else if (row.r[kMx].ran) {
        why.push_back("unchecked: cuBLAS bf16 did not run");
      }
      // A method that multiplies the same values as cuBLAS bf16 must agree with it.
      auto check_same_values = [&](Method m, PairCheck& slot) {
        if (!row.r[m].ran || !row.r[kBf16].ran) return;
        slot = bench.compare(m, kBf16, idx);
        const PairCheck& c = slot;
        if (!(c.sample_rel < 1e-2) || !(c.full_rel < 1e-2) || c.nan_got || c.mismatches) {
          char b[256];
          std::snprintf(b, sizeof(b),
                        "%s disagrees with cuBLAS bf16 on the same values (sample rel %.3e, full "
                        "rel %.3e, %llu NaN, %llu mismatches)",
                        kMethodNames[m], c.sample_rel, c.full_rel, c.nan_got, c.mismatches);
          why.push_back(b);
        }
      };
      check_same_values(kDqBf16, row.dq_vs_bf16);
      check_same_values(kMxTiled, row.tiled_vs_bf16);
      if (row.r[kFp8].ran && row.r[kBf16].ran) {
        row.fp8_vs_bf16 = bench.compare(kFp8, kBf16, idx);
        if (!(row.fp8_vs_bf16.sample_rel < 0.2) || row.fp8_vs_bf16.nan_got)
          why.push_back("cuBLASLt fp8 far from cuBLAS bf16 (sample rel " +
                        std::to_string(row.fp8_vs_bf16.sample_rel) + " >= 0.2)");
      }
      for (const auto& w : why) row.failure += (row.failure.empty() ? "" : "; ") + w;
      row.pass = why.empty();
    } catch (const std::exception& e) {
      row.pass = false;
      row.failure = std::string("error: ") + e.what();
      cudaGetLastError();
    }
    all_ok = all_ok && row.pass;
    print_row(row, o.spin_us);
    rows.push_back(row);
  }

  std::printf("\ngeometric mean of peer_time / mxgemm_time (> 1: mxgemm faster):\n");
  for (int mi = kBf16; mi < kMethods; ++mi) {
    const Geomean g = geomean(rows, static_cast<Method>(mi));
    if (g.count) std::printf("  vs %-24s %.3fx over %d shape%s\n", kMethodNames[mi], g.v, g.count, g.count == 1 ? "" : "s");
    else std::printf("  vs %-24s n/a\n", kMethodNames[mi]);
  }
  if (!o.csv.empty()) {
    write_csv(o.csv, rows);
    std::printf("csv: %s\n", o.csv.c_str());
  }
  std::printf("%s\n", all_ok ? "all checks passed" : "!!! FAIL: some checks failed (see above)");
  return all_ok ? 0 : 1;
}

}  // namespace mxgemm::bench

int main(int argc, char** argv) {
  using namespace mxgemm::bench;
  Options o;
  CLI::App app{
      "mxgemm_bench: times mxfp8_scaled_mm (E4M3 MXFP8, swizzled scales, BF16 out) against cuBLAS "
      "BF16 on pre-dequantized operands, GPU dequantize + cuBLAS BF16, and cuBLASLt FP8 with "
      "per-tensor scales, on the same random inputs, shape by shape (A: M x K, B: N x K, "
      "D = A x B^T). Prints us, TFLOP/s (2MNK/t) and peer_time / mxgemm_time (> 1: mxgemm "
      "faster) with geometric means, and checks mxgemm against cuBLAS BF16 on every shape.\n"
      "Suites: large = M in {2048,4096,8192,16384} x (N,K) in {(8192,8192),(8192,28672),"
      "(28672,8192),(4096,4096)}; square = 8192^3; mid = N=K=8192, M in {128,256,512,1024}; "
      "small = N=K=8192, M in {1,16,64}; decode = M in {1,2,4,8,16,32,64} x (N,K) in "
      "{(8192,8192),(28672,8192),(8192,28672),(4096,4096),(1024,8192)}; all = all of them. --m/--n/--k (comma lists) give "
      "custom shapes, their cross product.\n"
      "Exit code: 0 all checks passed, 1 a check failed, 2 usage error or nothing can run."};
  app.option_defaults()->always_capture_default();
  app.add_option("--suite", o.suite, "shape suite")
      ->check(CLI::IsMember({"large", "square", "mid", "small", "decode", "all"}));
  app.add_option("--m", o.m, "custom M values (rows of A and D), e.g. 1,128,4096")
      ->delimiter(',')->check(CLI::Range(i64{1}, i64{1} << 20));
  app.add_option("--n", o.n, "custom N values (rows of B, columns of D; multiples of 16)")
      ->delimiter(',')->check(CLI::Range(i64{16}, i64{1} << 20));
  app.add_option("--k", o.k, "custom K values (multiples of 16)")
      ->delimiter(',')->check(CLI::Range(i64{16}, i64{1} << 20));
  app.add_option("--iters", o.iters, "timed runs per method and shape (median reported)")
      ->check(CLI::Range(20, 100000));
  app.add_option("--warmup-ms", o.warmup_ms,
                 "then back-to-back runs per method for at least this long, so that each method is "
                 "timed at the clock the power cap settles to under its own load (0: off)")
      ->check(CLI::Range(0.0, 60000.0));
  app.add_option("--warmup", o.warmup, "warm-up runs after the first (checked) run")
      ->check(CLI::Range(1, 100000));
  app.add_option("--sample", o.sample, "outputs sampled for the per-shape check")
      ->check(CLI::Range(1, 10000000));
  app.add_option("--csv", o.csv, "also write the full table as CSV to this path");
  app.add_option("--seed", o.seed, "random seed of the inputs");
  app.add_option("--bf16-api", o.bf16_api, "cuBLAS entry point of the BF16 peers")
      ->check(CLI::IsMember({"lt", "gemmex"}));
  app.add_flag("--fp8-fast-accum", o.fp8_fast_accum,
               "cuBLASLt FP8 with CUBLASLT_MATMUL_DESC_FAST_ACCUM (default: off, as torch._scaled_mm)");
  app.add_flag("--list", o.list, "print the shapes and exit");
  app.add_option("--mode", o.mode,
                 "mxfp8: mxfp8_scaled_mm; weight-only: mxfp8_weight_only_mm on the bf16 A (the "
                 "dequant + cuBLAS peer then dequantizes B only); weight-only-fp16: the same with "
                 "mxgemm's A as FP16 (the same values)")
      ->check(CLI::IsMember({"mxfp8", "weight-only", "weight-only-fp16"}));
  app.add_option("--compare-kernel", o.compare,
                 "the sm_90 kernel of the comparison column: tiled (MXFP8 only), streaming "
                 "(the skinny kernel's alternative up to 16 rows), skinny (up to 16 rows), or "
                 "bf16-values (mxgemm's own choice with E4M3 MXFP8 activations, and BF16 ones "
                 "with --mode weight-only, in the streaming kernel's bf16 values form, not the "
                 "fp16 one)")
      ->check(CLI::IsMember({"tiled", "streaming", "skinny", "bf16-values"}));
  app.add_option("--split-k", o.split_k,
                 "the streaming kernel's K-split schedule in the mxgemm column: auto (the library's), "
                 "never, always (one tile a CTA, split among its warpgroups, wherever it can run), "
                 "clusters (each tile's K among a cluster of CTAs too, wherever they can run), "
                 "wide-clusters (33..64 rows: the 128-row tiles' clusters)")
      ->check(CLI::IsMember({"auto", "never", "always", "clusters", "wide-clusters"}));
  app.add_option("--width-192", o.width_192,
                 "the streaming kernel's 192-row tiles in the mxgemm column: auto (the library's: where "
                 "as few of them as of 256 rows cover M), never (256-row tiles), always (every M "
                 "above 128, in tiles of 192 rows)")
      ->check(CLI::IsMember({"auto", "never", "always"}));
  app.add_option("--padded-ws", o.padded_ws,
                 "the MXFP8 pre-pass's activation padded to whole tiles in the workspace (mxgemm "
                 "column): auto (the library's), never (M rows)")
      ->check(CLI::IsMember({"auto", "never"}));
  app.add_option("--tma-store", o.tma_store,
                 "the streaming kernel's staged store of 16-bit outputs (mxgemm column): auto (the "
                 "library's: TMA writes the staged rows), never (the math threads write them)")
      ->check(CLI::IsMember({"auto", "never"}));
  app.add_option("--promote", o.promote,
                 "the 192- and 256-row tiles' promotion of their sums past each chain of K (a bf16 high "
                 "part in shared memory, the exact rest kept; 8 of the 256-row tile's 128 accumulators "
                 "into global memory) "
                 "(mxgemm column): auto (the library's: the CTAs' first promotions staggered), "
                 "unstaggered (every CTA after whole chains), never (timing only: long K then misses "
                 "the accuracy bars, though not the bench's check)")
      ->check(CLI::IsMember({"auto", "unstaggered", "never"}));
  app.add_option("--weight-order", o.weight_order,
                 "weight-only modes, mxgemm column: the weight as quantized (natural) or prepacked by "
                 "mxfp8_prepack_weight before the timing (KOrder::Prepacked); the comparison column keeps "
                 "the natural order (--compare-weight-order)")
      ->check(CLI::IsMember({"natural", "prepacked"}));
  app.add_option("--compare-weight-order", o.compare_weight_order,
                 "weight-only modes: --weight-order for the comparison column (--compare-kernel)")
      ->check(CLI::IsMember({"natural", "prepacked"}));
  app.add_option("--mx-values", o.mx_values,
                 "the streaming kernel's values form (mxgemm column): auto (the library's), bf16 (the "
                 "bf16 values form), f16 (BF16 activations of more than 16 rows through the fp16 "
                 "form's pre-pass wherever TMA could read them in place), bf16-permuted (those rows "
                 "copied into the permuted K order for the bf16 values form; MXFP8 ones as bf16)")
      ->check(CLI::IsMember({"auto", "bf16", "f16", "bf16-permuted"}));
  app.add_option("--spin-us", o.spin_us,
                 "each timed run waits behind a spin kernel of at least this long (us), lengthened to 3x "
                 "a method's host time per call + 20 us where that is longer")
      ->check(CLI::Range(0.0, 100000.0));
  app.add_option("--mx-out", o.mx_out,
                 "output type of the mxgemm columns (the peers keep BF16; the checks round it to BF16)")
      ->check(CLI::IsMember({"bf16", "fp16", "fp32"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  static const std::string compare_name = "mxgemm " + o.compare + " kernel";
  kMethodNames[kMxTiled] = compare_name.c_str();
  std::vector<Shape> shapes;
  const bool custom = !o.m.empty() || !o.n.empty() || !o.k.empty();
  if (custom) {
    if (o.m.empty() || o.n.empty() || o.k.empty()) {
      std::fprintf(stderr, "error: custom shapes need all of --m, --n and --k\n");
      return 2;
    }
    if (app.count("--suite")) {
      std::fprintf(stderr, "error: give either --suite or --m/--n/--k, not both\n");
      return 2;
    }
    for (i64 m : o.m)
      for (i64 n : o.n)
        for (i64 k : o.k) {
          if (n % 16 || k % 16) {
            std::fprintf(stderr, "error: N and K must be multiples of 16, got N=%lld K=%lld\n",
                         (long long)n, (long long)k);
            return 2;
          }
          shapes.push_back({m, n, k});
        }
  } else {
    shapes = suite_shapes(o.suite);
  }
  if (o.list) {
    for (const Shape& s : shapes)
      std::printf("%lld x %lld x %lld\n", (long long)s.m, (long long)s.n, (long long)s.k);
    return 0;
  }
  try {
    return run(o, shapes);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
