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
// Timing: CUDA events around each call; a first (checked) call, a warm-up, then the median
// of --iters timed calls. Each timed call is queued behind a short spin kernel that
// outlasts the host side of the call (measured during the warm-up), so the events time
// the GPU work alone, for every method alike. Inputs rotate among enough copies that one
// method's input sets together exceed 2 x L2 (at least 120 MB, at least 2 copies). Each
// output is poisoned (0xFF: NaN) once before its method's first call.
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
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/check.hpp"            // MXGEMM_CUDA_CHECK
#include "core/kernel_override.hpp"  // the tiled kernel, for comparison
#include "mxgemm/mxgemm.hpp"

namespace {

using namespace mxgemm;
using i64 = std::int64_t;

// ---------------------------------------------------------------------------------------
// Options and suites

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
};

struct Shape {
  i64 m, n, k;
  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
};

std::vector<Shape> suite_shapes(const std::string& name) {
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

// ---------------------------------------------------------------------------------------
// Small helpers

[[noreturn]] void throw_cublas(cublasStatus_t st, const char* call, const char* file, int line) {
  throw std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                           ": " + cublasLtGetStatusName(st) + " (" + cublasLtGetStatusString(st) +
                           ")");
}
#define CUBLAS_CHECK(call)                                                   \
  do {                                                                       \
    const cublasStatus_t st_ = (call);                                       \
    if (st_ != CUBLAS_STATUS_SUCCESS) throw_cublas(st_, #call, __FILE__, __LINE__); \
  } while (0)

void warn_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::fprintf(stderr, "warning: %s: %s\n", what, cudaGetErrorString(e));
}

// Owning device allocation; movable, never copied.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes) MXGEMM_CUDA_CHECK(cudaMalloc(&ptr_, bytes));
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void reset() {
    if (ptr_) warn_cuda(cudaFree(ptr_), "cudaFree");
    ptr_ = nullptr;
    bytes_ = 0;
  }
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Runs fn(begin, end) over [0, n) in contiguous chunks on all cores.
template <typename Fn>
void parallel_for(i64 n, const Fn& fn) {
  const i64 hw = std::max(1u, std::thread::hardware_concurrency());
  const i64 t = std::max<i64>(1, std::min(hw, n));
  std::vector<std::thread> pool;
  for (i64 i = 1; i < t; ++i) pool.emplace_back([&, i] { fn(n * i / t, n * (i + 1) / t); });
  fn(0, n / t);
  for (auto& th : pool) th.join();
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

float bf16_to_float(std::uint16_t h) {
  const std::uint32_t u = std::uint32_t{h} << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// ---------------------------------------------------------------------------------------
// Host inputs. One pool per (operand role, K): rows x K normal(0, 1) fp32 with everything
// derived from it. A shape's operand is the pool's first R rows: quantization works row by
// row, so the prefix of the quantized pool is the quantized prefix, and the swizzled scales
// of a prefix are a prefix of the bytes (128-row tiles are outermost). Rows past R in the
// last 128-row tile then sit in the padding, which must never change D.

struct Pool {
  i64 rows = 0, k = 0;
  ScaleShape sshape{0, 0};
  std::vector<float> x;               // fp32 data
  std::vector<float> row_amax;        // max |x| of each row
  std::vector<std::uint8_t> q, s;     // MXFP8: E4M3 codes, swizzled E8M0 scales (Floor)
  std::vector<std::uint16_t> bf;      // dequantize_mxfp8_reference(q, s) as BF16 (exact)
  // E4M3 with one scale per tensor, for the last prefix asked for.
  i64 pt_rows = -1;
  float pt_scale = 1.0f;
  std::vector<std::uint8_t> pt;

  std::size_t scale_bytes(i64 r) const {
    return static_cast<std::size_t>(scale_shape(r, k, ScaleLayout::Swizzled128x4).rows * sshape.cols);
  }
  ConstMxOperand host_op(i64 r) const {
    const ScaleShape ss = scale_shape(r, k, ScaleLayout::Swizzled128x4);
    return ConstMxOperand(contiguous(static_cast<const void*>(q.data()), r, k, DType::E4M3, Memory::Host),
                          contiguous(static_cast<const void*>(s.data()), ss.rows, ss.cols,
                                     DType::E8M0, Memory::Host),
                          ScaleLayout::Swizzled128x4);
  }
};

std::unique_ptr<Pool> make_pool(i64 rows, i64 k, std::uint64_t seed) {
  auto p = std::make_unique<Pool>();
  p->rows = rows;
  p->k = k;
  p->sshape = scale_shape(rows, k, ScaleLayout::Swizzled128x4);
  const auto n = static_cast<std::size_t>(rows * k);
  p->x.resize(n);
  p->row_amax.resize(static_cast<std::size_t>(rows));
  // Fixed chunks of 64 rows, one generator each: the data depend on the seed alone.
  constexpr i64 kChunk = 64;
  const i64 chunks = (rows + kChunk - 1) / kChunk;
  parallel_for(chunks, [&](i64 c0, i64 c1) {
    for (i64 c = c0; c < c1; ++c) {
      std::mt19937_64 gen(splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(c))));
      std::normal_distribution<float> dist(0.0f, 1.0f);
      for (i64 r = c * kChunk; r < std::min(rows, (c + 1) * kChunk); ++r) {
        float amax = 0.0f;
        float* row = &p->x[static_cast<std::size_t>(r * k)];
        for (i64 i = 0; i < k; ++i) {
          float v = dist(gen);
          if (v == 0.0f) v = 1.0f;  // never zeros
          row[i] = v;
          amax = std::max(amax, std::fabs(v));
        }
        p->row_amax[static_cast<std::size_t>(r)] = amax;
      }
    }
  });
  p->q.resize(n);
  p->s.resize(static_cast<std::size_t>(p->sshape.rows * p->sshape.cols));
  p->bf.resize(n);
  const MxOperand qop(contiguous(static_cast<void*>(p->q.data()), rows, k, DType::E4M3, Memory::Host),
                      contiguous(static_cast<void*>(p->s.data()), p->sshape.rows, p->sshape.cols,
                                 DType::E8M0, Memory::Host),
                      ScaleLayout::Swizzled128x4);
  quantize_mxfp8_reference(contiguous(static_cast<const void*>(p->x.data()), rows, k, DType::FP32,
                                      Memory::Host),
                           qop, ScaleRounding::Floor);
  dequantize_mxfp8_reference(qop, contiguous(static_cast<void*>(p->bf.data()), rows, k,
                                             DType::BF16, Memory::Host));
  return p;
}

// The first r rows of the pool as E4M3 with one scale: scale = amax / 448, q = e4m3(x / scale)
// (round to nearest even, saturating).
void make_per_tensor(Pool& p, i64 r) {
  if (p.pt_rows == r) return;
  float amax = 0.0f;
  for (i64 i = 0; i < r; ++i) amax = std::max(amax, p.row_amax[static_cast<std::size_t>(i)]);
  const float scale = amax > 0.0f ? amax / 448.0f : 1.0f;
  p.pt.resize(static_cast<std::size_t>(r * p.k));
  parallel_for(r, [&](i64 r0, i64 r1) {
    for (std::size_t i = static_cast<std::size_t>(r0 * p.k); i < static_cast<std::size_t>(r1 * p.k); ++i)
      p.pt[i] = __nv_cvt_float_to_fp8(p.x[i] / scale, __NV_SATFINITE, __NV_E4M3);
  });
  p.pt_rows = r;
  p.pt_scale = scale;
}

// ---------------------------------------------------------------------------------------
// Device kernels: the spin that hides host overheads, and the checks.

__global__ void spin_kernel(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

__device__ __forceinline__ float bf16_bits(std::uint16_t h) {
  return __uint_as_float(static_cast<std::uint32_t>(h) << 16);
}

// What compare_kernel accumulates over got vs ref (both BF16, same shape).
struct CompareSums {
  double err2;                    // sum (got - ref)^2 over entries finite in both
  double ref2;                    // sum ref^2 over the same entries
  unsigned long long nan_got;     // NaN in got
  unsigned long long nan_ref;     // NaN in ref
  unsigned long long nonfinite;   // exactly one side finite, or the infinities differ
  unsigned long long mismatches;  // |got - ref| > rel_tol * |ref| + abs_tol
  unsigned long long first_bad;   // smallest index of a mismatch (~0 when none)
  unsigned int max_diff_bits;     // max |got - ref| as fp32 bits (orders like the value)
};

__global__ void compare_kernel(const std::uint16_t* got, const std::uint16_t* ref, i64 n,
                               float rel_tol, float abs_tol, CompareSums* out) {
  double e2 = 0.0, r2 = 0.0;
  unsigned long long nan_g = 0, nan_r = 0, nonfinite = 0, bad = 0, first = ~0ull;
  float max_diff = 0.0f;
  for (i64 i = blockIdx.x * i64{blockDim.x} + threadIdx.x; i < n; i += i64{gridDim.x} * blockDim.x) {
    const float g = bf16_bits(got[i]), r = bf16_bits(ref[i]);
    nan_g += isnan(g);
    nan_r += isnan(r);
    if (isfinite(g) && isfinite(r)) {
      const double d = double(g) - double(r);
      e2 += d * d;
      r2 += double(r) * double(r);
      const float ad = fabsf(g - r);
      max_diff = fmaxf(max_diff, ad);
      if (ad > rel_tol * fabsf(r) + abs_tol) {
        ++bad;
        first = min(first, static_cast<unsigned long long>(i));
      }
    } else if (!(isnan(g) && isnan(r)) && g != r) {
      ++nonfinite;
    }
  }
  for (int off = 16; off > 0; off >>= 1) {
    e2 += __shfl_down_sync(0xFFFFFFFFu, e2, off);
    r2 += __shfl_down_sync(0xFFFFFFFFu, r2, off);
    nan_g += __shfl_down_sync(0xFFFFFFFFu, nan_g, off);
    nan_r += __shfl_down_sync(0xFFFFFFFFu, nan_r, off);
    nonfinite += __shfl_down_sync(0xFFFFFFFFu, nonfinite, off);
    bad += __shfl_down_sync(0xFFFFFFFFu, bad, off);
    first = min(first, __shfl_down_sync(0xFFFFFFFFu, first, off));
    max_diff = fmaxf(max_diff, __shfl_down_sync(0xFFFFFFFFu, max_diff, off));
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&out->err2, e2);
    atomicAdd(&out->ref2, r2);
    atomicAdd(&out->nan_got, nan_g);
    atomicAdd(&out->nan_ref, nan_r);
    atomicAdd(&out->nonfinite, nonfinite);
    atomicAdd(&out->mismatches, bad);
    atomicMin(&out->first_bad, first);
    atomicMax(&out->max_diff_bits, __float_as_uint(max_diff));
  }
}

// An FP32 or FP16 output rounded to BF16 (round to nearest even), for the checks.
__global__ void to_bf16_kernel(const void* src, bool fp32, i64 n, std::uint16_t* out) {
  for (i64 i = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<i64>(gridDim.x) * blockDim.x) {
    const float v = fp32 ? static_cast<const float*>(src)[i] : __half2float(static_cast<const __half*>(src)[i]);
    out[i] = __bfloat16_as_ushort(__float2bfloat16_rn(v));
  }
}

__global__ void gather_kernel(const std::uint16_t* src, const i64* idx, std::uint16_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = src[idx[i]];
}

// ---------------------------------------------------------------------------------------
// Shared GPU state: stream, cuBLAS handles, workspace, alpha.

struct Gpu {
  cudaDeviceProp prop{};
  cudaStream_t stream = nullptr;
  cublasLtHandle_t lt = nullptr;
  cublasHandle_t blas = nullptr;
  static constexpr std::size_t kWorkspace = std::size_t{32} << 20;  // cuBLAS' advice for Hopper
  DeviceBuffer workspace, alpha, cmp;
  std::size_t rotate_bytes = 0;  // what one method's input copies must exceed together

  Gpu() {
    int dev = 0;
    MXGEMM_CUDA_CHECK(cudaGetDevice(&dev));
    MXGEMM_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    MXGEMM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUBLAS_CHECK(cublasLtCreate(&lt));
    CUBLAS_CHECK(cublasCreate(&blas));
    workspace = DeviceBuffer(kWorkspace);
    CUBLAS_CHECK(cublasSetStream(blas, stream));
    CUBLAS_CHECK(cublasSetWorkspace(blas, workspace.get(), kWorkspace));
    alpha = DeviceBuffer(sizeof(float));
    const float one = 1.0f;
    MXGEMM_CUDA_CHECK(cudaMemcpy(alpha.get(), &one, sizeof(float), cudaMemcpyHostToDevice));
    cmp = DeviceBuffer(sizeof(CompareSums));
    rotate_bytes = std::max<std::size_t>(2 * static_cast<std::size_t>(prop.l2CacheSize),
                                         std::size_t{120} << 20);
  }
  ~Gpu() {
    if (blas) cublasDestroy(blas);
    if (lt) cublasLtDestroy(lt);
    if (stream) warn_cuda(cudaStreamDestroy(stream), "cudaStreamDestroy");
  }
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  int copies_for(std::size_t set_bytes) const {
    return static_cast<int>(std::max<std::size_t>(2, (rotate_bytes + set_bytes - 1) / set_bytes));
  }
};

// A cuBLASLt plan for D (M x N row-major, BF16) = A (M x K row-major) x B (N x K row-major)^T.
// cuBLAS is column-major: D row-major M x N is D^T column-major N x M (ld N), and
// D^T = B x A^T. B row-major N x K is column-major K x N (ld K): cuBLAS's A with op T.
// A row-major M x K is column-major K x M (ld K): cuBLAS's B with op N. This is the "TN"
// layout cuBLASLt's fp8 kernels require.
// The FP8 plan is set up as torch._scaled_mm sets up cuBLASLt (C of D's type, C = nullptr
// with beta = 0, one fp32 scale per operand behind A/B_SCALE_POINTER). The heuristic's
// candidates are kept: the first call walks down the list past any that cublasLtMatmul
// refuses, and later calls use the one that ran.
class LtPlan {
 public:
  LtPlan(const Gpu& gpu, const Shape& sh, cudaDataType_t in, const float* scale_a_dev,
         const float* scale_b_dev, bool fast_accum)
      : sh_(sh), fp8_(scale_a_dev != nullptr) {
    CUBLAS_CHECK(cublasLtMatmulDescCreate(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t t = CUBLAS_OP_T, nn = CUBLAS_OP_N;
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof(t)));
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &nn, sizeof(nn)));
    if (fp8_) {
      // cuBLAS's A is our B and vice versa.
      CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                                                  &scale_b_dev, sizeof(scale_b_dev)));
      CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
                                                  &scale_a_dev, sizeof(scale_a_dev)));
      const std::int8_t fa = fast_accum ? 1 : 0;
      CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fa, sizeof(fa)));
    }
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&la_, in, sh.k, sh.n, sh.k));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lb_, in, sh.k, sh.m, sh.k));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lc_, CUDA_R_16BF, sh.n, sh.m, sh.n));
    cublasLtMatmulPreference_t pref = nullptr;
    CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
    const std::uint64_t ws = Gpu::kWorkspace;
    cublasLtMatmulHeuristicResult_t res[kCandidates] = {};
    int found = 0;
    cublasStatus_t st = cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
    if (st == CUBLAS_STATUS_SUCCESS)
      st = cublasLtMatmulAlgoGetHeuristic(gpu.lt, desc_, la_, lb_, lc_, lc_, pref, kCandidates, res, &found);
    cublasLtMatmulPreferenceDestroy(pref);
    CUBLAS_CHECK(st);
    if (found == 0) throw std::runtime_error("cublasLtMatmulAlgoGetHeuristic: no algorithm for " + what());
    for (int i = 0; i < found; ++i) algos_.push_back(res[i].algo);
  }
  ~LtPlan() {
    if (lc_) cublasLtMatrixLayoutDestroy(lc_);
    if (lb_) cublasLtMatrixLayoutDestroy(lb_);
    if (la_) cublasLtMatrixLayoutDestroy(la_);
    if (desc_) cublasLtMatmulDescDestroy(desc_);
  }
  LtPlan(const LtPlan&) = delete;
  LtPlan& operator=(const LtPlan&) = delete;

  // The first call tries each candidate with C = nullptr (FP8; torch's way) and then, for
  // FP8, each again with C = D (in place); later calls repeat what ran.
  void run(const Gpu& gpu, const void* a, const void* b, void* d) {
    const float one = 1.0f, zero = 0.0f;
    for (;;) {
      const void* c = fp8_ && !c_is_d_ ? nullptr : d;
      const cublasStatus_t st =
          cublasLtMatmul(gpu.lt, desc_, &one, b, la_, a, lb_, &zero, c, lc_, d, lc_, &algos_[chosen_],
                         gpu.workspace.get(), Gpu::kWorkspace, gpu.stream);
      if (st == CUBLAS_STATUS_SUCCESS) {
        pinned_ = true;
        return;
      }
      const bool last = chosen_ + 1 >= algos_.size() && (!fp8_ || c_is_d_);
      if (pinned_ || st != CUBLAS_STATUS_NOT_SUPPORTED || last)
        throw std::runtime_error(std::string("cublasLtMatmul: ") + cublasLtGetStatusName(st) + " (" +
                                 cublasLtGetStatusString(st) + ") for " + what() + "; tried " +
                                 std::to_string(algos_.size()) + " heuristic candidate(s)" +
                                 (fp8_ ? " with C = nullptr and C = D" : ""));
      if (++chosen_ >= algos_.size()) {
        chosen_ = 0;
        c_is_d_ = true;
      }
    }
  }
  // What ran, when it is not the plain choice (cuBLAS's first candidate, C as torch passes it).
  std::string fallback() const {
    if (chosen_ == 0 && !(fp8_ && c_is_d_)) return "";
    return "heuristic candidate " + std::to_string(chosen_ + 1) + (fp8_ && c_is_d_ ? ", C = D" : "");
  }

 private:
  static constexpr int kCandidates = 8;
  std::string what() const {
    return std::string(fp8_ ? "e4m3 x e4m3" : "bf16 x bf16") + " -> bf16, TN, m=" + std::to_string(sh_.n) +
           " n=" + std::to_string(sh_.m) + " k=" + std::to_string(sh_.k);
  }
  Shape sh_;
  bool fp8_;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t la_ = nullptr, lb_ = nullptr, lc_ = nullptr;
  std::vector<cublasLtMatmulAlgo_t> algos_;
  std::size_t chosen_ = 0;
  bool c_is_d_ = false;
  bool pinned_ = false;
};

// ---------------------------------------------------------------------------------------
// One shape: device inputs (rotated copies), outputs, plans, the four methods.

enum Method { kMx = 0, kBf16, kDqBf16, kFp8, kMxTiled, kMethods };
// The comparison column is renamed after --compare-kernel.
const char* kMethodNames[kMethods] = {"mxgemm", "cuBLAS bf16", "dequant + cuBLAS bf16",
                                            "cuBLASLt fp8", "mxgemm tiled kernel"};

struct MethodResult {
  bool ran = false;
  std::string why;  // why not, when !ran
  double med_us = 0.0, min_us = 0.0, max_us = 0.0, host_us = 0.0;
};

// Outputs counted as mismatched: |got - ref| > kMismatchRel * |ref| + kMismatchAbs * rms(ref).
// Two correct fp32-accumulated results rounded to BF16 differ by at most about one BF16 ulp
// (2^-7 relative); a lost K step or a stale tile differs by a good fraction of rms(ref).
constexpr float kMismatchRel = 0x1p-5f;
constexpr float kMismatchAbs = 1e-3f;

struct PairCheck {
  bool done = false;
  double sample_rel = 0.0, full_rel = 0.0;
  double rms_ref = 0.0, max_diff = 0.0;
  unsigned long long nan_got = 0, nan_ref = 0, nonfinite = 0, mismatches = 0;
  i64 first_row = -1, first_col = -1;
};

class ShapeBench {
 public:
  ShapeBench(Gpu& gpu, const Options& o, const Shape& sh, Pool& pa, Pool& pb, bool rotate)
      : gpu_(gpu), o_(o), sh_(sh) {
    const std::size_t am = static_cast<std::size_t>(sh.m * sh.k), bn = static_cast<std::size_t>(sh.n * sh.k);
    const std::size_t sa = pa.scale_bytes(sh.m), sb = pb.scale_bytes(sh.n);
    cm_ = rotate ? gpu.copies_for(am + bn + sa + sb) : 1;
    cb_ = rotate ? gpu.copies_for(2 * (am + bn)) : 1;
    cf_ = rotate ? gpu.copies_for(am + bn) : 1;
    make_per_tensor(pa, sh.m);
    make_per_tensor(pb, sh.n);
    upload(a_q_, pa.q.data(), am, cm_);
    upload(a_s_, pa.s.data(), sa, cm_);
    upload(b_q_, pb.q.data(), bn, cm_);
    upload(b_s_, pb.s.data(), sb, cm_);
    upload(a_bf_, pa.bf.data(), 2 * am, cb_);
    if (o.fp16_activation()) {
      std::vector<std::uint16_t> a_f16(pa.bf.size());
      for (std::size_t j = 0; j < a_f16.size(); ++j) {
        const std::uint32_t bits = std::uint32_t{pa.bf[j]} << 16;
        float v;
        std::memcpy(&v, &bits, 4);
        a_f16[j] = __half_as_ushort(__float2half_rn(v));
      }
      upload(a_f16_, a_f16.data(), 2 * am, cb_);
    }
    upload(b_bf_, pb.bf.data(), 2 * bn, cb_);
    upload(a_f8_, pa.pt.data(), am, cf_);
    upload(b_f8_, pb.pt.data(), bn, cf_);
    // Each scale in its own 256-byte slot, as separate allocations would have them.
    f8_scales_ = DeviceBuffer(2 * kScaleSlot);
    MXGEMM_CUDA_CHECK(cudaMemcpy(f8_scales_.get(), &pa.pt_scale, sizeof(float), cudaMemcpyHostToDevice));
    MXGEMM_CUDA_CHECK(cudaMemcpy(static_cast<char*>(f8_scales_.get()) + kScaleSlot, &pb.pt_scale,
                                 sizeof(float), cudaMemcpyHostToDevice));
    dq_a_ = DeviceBuffer(2 * am);
    dq_b_ = DeviceBuffer(2 * bn);
    d_bytes_ = static_cast<std::size_t>(sh.m * sh.n * 2);
    for (auto& d : d_) d = DeviceBuffer(d_bytes_);
    if (o.mx_out_dtype() != DType::BF16)
      for (Method m : {kMx, kMxTiled}) mx_out_[m] = DeviceBuffer(static_cast<std::size_t>(sh.m * sh.n) * o.mx_out_bytes());
    if (o.bf16_api == "lt") bf16_plan_ = std::make_unique<LtPlan>(gpu, sh, CUDA_R_16BF, nullptr, nullptr, false);
    try {
      fp8_plan_ = std::make_unique<LtPlan>(gpu, sh, CUDA_R_8F_E4M3, scale_a_f8(), scale_b_f8(),
                                           o.fp8_fast_accum);
    } catch (const std::exception& e) {
      fp8_plan_error_ = e.what();
    }
    MXGEMM_CUDA_CHECK(cudaDeviceSynchronize());
  }

  void* d(Method m) const { return d_[m].get(); }
  // Where method m writes: its BF16 buffer, or the mxgemm columns' own output type.
  void* out(Method m) const { return mx_out_[m].get() != nullptr ? mx_out_[m].get() : d(m); }
  std::string fp8_fallback() const { return fp8_plan_ ? fp8_plan_->fallback() : ""; }

  // Queues run number i of method m on the stream (input copy i % copies).
  void op(Method m, int i) {
    switch (m) {
      case kMx:
      case kMxTiled: {
        const detail::ScopedSm90Kernel forced(m == kMxTiled ? o_.compare_kernel() : detail::Sm90Kernel::Auto);
        const detail::ScopedStreamMxValues values(m == kMxTiled ? o_.compare_mx_values() : detail::StreamMxValues::Auto);
        const detail::ScopedStreamSplitK split(m == kMx ? o_.split_k_mode() : detail::StreamSplitK::Auto);
        const int c = i % cm_;
        if (o_.weight_only()) {
          const bool f16 = o_.fp16_activation();
          mxfp8_weight_only_mm(contiguous(static_cast<const void*>((f16 ? a_f16_ : a_bf_)[i % cb_].get()), sh_.m,
                                          sh_.k, f16 ? DType::FP16 : DType::BF16, Memory::Device),
                               mx_op(b_q_[c], b_s_[c], sh_.n), static_cast<const float*>(gpu_.alpha.get()),
                               nullptr, contiguous(out(m), sh_.m, sh_.n, o_.mx_out_dtype(), Memory::Device),
                               gpu_.stream, /*skip_checks=*/i != 0);
          break;
        }
        mxfp8_scaled_mm(mx_op(a_q_[c], a_s_[c], sh_.m), mx_op(b_q_[c], b_s_[c], sh_.n),
                        static_cast<const float*>(gpu_.alpha.get()),
                        contiguous(out(m), sh_.m, sh_.n, o_.mx_out_dtype(), Memory::Device), gpu_.stream,
                        /*skip_checks=*/i != 0);
        break;
      }
      case kBf16: {
        const int c = i % cb_;
        bf16_gemm(a_bf_[c].get(), b_bf_[c].get(), d(kBf16));
        break;
      }
      case kDqBf16: {
        const int c = i % cm_;
        if (!o_.weight_only())
          dequantize_mxfp8(mx_op(a_q_[c], a_s_[c], sh_.m),
                           contiguous(dq_a_.get(), sh_.m, sh_.k, DType::BF16, Memory::Device), gpu_.stream);
        dequantize_mxfp8(mx_op(b_q_[c], b_s_[c], sh_.n),
                         contiguous(dq_b_.get(), sh_.n, sh_.k, DType::BF16, Memory::Device), gpu_.stream);
        bf16_gemm(o_.weight_only() ? a_bf_[i % cb_].get() : dq_a_.get(), dq_b_.get(), d(kDqBf16));
        break;
      }
      case kFp8: {
        if (!fp8_plan_) throw std::runtime_error(fp8_plan_error_);
        const int c = i % cf_;
        fp8_plan_->run(gpu_, a_f8_[c].get(), b_f8_[c].get(), d(kFp8));
        break;
      }
      default: break;
    }
  }

  // Poison D, run once (checked), warm up, then time `iters` runs behind spin kernels.
  MethodResult time(Method m, bool timed) {
    MethodResult r;
    cudaStream_t s = gpu_.stream;
    if (m == kMxTiled && o_.weight_only() && o_.compare == "tiled") {
      r.why = "the tiled kernel has no weight-only form";
      return r;
    }
    MXGEMM_CUDA_CHECK(cudaMemsetAsync(d(m), 0xFF, d_bytes_, s));
    if (out(m) != d(m))
      MXGEMM_CUDA_CHECK(cudaMemsetAsync(out(m), 0xFF, static_cast<std::size_t>(sh_.m * sh_.n) * o_.mx_out_bytes(), s));
    try {
      op(m, 0);
      MXGEMM_CUDA_CHECK(cudaGetLastError());
      if (out(m) != d(m)) {  // the checks read BF16: the first (checked) call's output, rounded
        const i64 n = sh_.m * sh_.n;
        const int blocks = static_cast<int>(std::min<i64>((n + 255) / 256, 8 * gpu_.prop.multiProcessorCount));
        to_bf16_kernel<<<blocks, 256, 0, s>>>(out(m), o_.mx_out_dtype() == DType::FP32, n,
                                              static_cast<std::uint16_t*>(d(m)));
        MXGEMM_CUDA_CHECK(cudaGetLastError());
      }
      MXGEMM_CUDA_CHECK(cudaStreamSynchronize(s));
    } catch (const UnsupportedError& e) {
      cudaStreamSynchronize(s);
      r.why = m == kDqBf16 ? std::string("GPU dequantizer unavailable: ") + e.what() : e.what();
      return r;
    } catch (const std::exception& e) {
      cudaStreamSynchronize(s);
      r.why = e.what();
      return r;
    }
    r.ran = true;
    if (!timed) return r;
    const int w = std::max(1, o_.warmup);
    const auto t0 = Clock::now();
    for (int i = 1; i <= w; ++i) op(m, i);
    r.host_us = seconds_since(t0) * 1e6 / w;
    MXGEMM_CUDA_CHECK(cudaGetLastError());
    MXGEMM_CUDA_CHECK(cudaStreamSynchronize(s));
    // Sustained warm-up: a few calls queued at a time (the host never runs far ahead of the
    // device), until the device has been busy with this method for warmup_ms.
    const auto t_sustain = Clock::now();
    for (int i = w + 1; seconds_since(t_sustain) * 1e3 < o_.warmup_ms; ++i) {
      op(m, i);
      if (i % 4 == 0) MXGEMM_CUDA_CHECK(cudaStreamSynchronize(s));
    }
    MXGEMM_CUDA_CHECK(cudaGetLastError());
    MXGEMM_CUDA_CHECK(cudaStreamSynchronize(s));
    // The spin outlasts the host side of one call (event records included) with margin.
    const auto spin_ns = static_cast<unsigned long long>(std::max(50.0, 3.0 * r.host_us + 20.0) * 1e3);
    std::vector<cudaEvent_t> ev(2 * static_cast<std::size_t>(o_.iters));
    for (auto& e : ev) MXGEMM_CUDA_CHECK(cudaEventCreate(&e));
    std::vector<double> us;
    try {
      for (int j = 0; j < o_.iters; ++j) {
        spin_kernel<<<1, 1, 0, s>>>(spin_ns);
        MXGEMM_CUDA_CHECK(cudaEventRecord(ev[2 * j], s));
        op(m, w + 1 + j);
        MXGEMM_CUDA_CHECK(cudaEventRecord(ev[2 * j + 1], s));
      }
      MXGEMM_CUDA_CHECK(cudaGetLastError());
      MXGEMM_CUDA_CHECK(cudaStreamSynchronize(s));
      for (int j = 0; j < o_.iters; ++j) {
        float ms = 0.0f;
        MXGEMM_CUDA_CHECK(cudaEventElapsedTime(&ms, ev[2 * j], ev[2 * j + 1]));
        us.push_back(1e3 * ms);
      }
    } catch (...) {
      for (auto& e : ev) cudaEventDestroy(e);
      throw;
    }
    for (auto& e : ev) warn_cuda(cudaEventDestroy(e), "cudaEventDestroy");
    r.med_us = median(us);
    r.min_us = *std::min_element(us.begin(), us.end());
    r.max_us = *std::max_element(us.begin(), us.end());
    return r;
  }

  // got vs ref on the sample indices (on the host) and over the whole of D (on the GPU).
  PairCheck compare(Method got, Method ref, const std::vector<i64>& sample) {
    PairCheck c;
    const std::vector<std::uint16_t> g = gather(got, sample), r = gather(ref, sample);
    double e2 = 0.0, r2 = 0.0;
    bool sample_nan = false;
    for (std::size_t i = 0; i < g.size(); ++i) {
      const double gv = bf16_to_float(g[i]), rv = bf16_to_float(r[i]);
      if (!std::isfinite(gv) || !std::isfinite(rv)) sample_nan = true;
      e2 += (gv - rv) * (gv - rv);
      r2 += rv * rv;
    }
    c.sample_rel = sample_nan || !(r2 > 0.0) ? std::numeric_limits<double>::infinity() : std::sqrt(e2 / r2);
    c.rms_ref = std::isfinite(r2) && !g.empty() ? std::sqrt(r2 / double(g.size())) : 0.0;

    const i64 n = sh_.m * sh_.n;
    CompareSums init{};
    init.first_bad = ~0ull;
    MXGEMM_CUDA_CHECK(cudaMemcpyAsync(gpu_.cmp.get(), &init, sizeof(init), cudaMemcpyHostToDevice, gpu_.stream));
    const int blocks = static_cast<int>(std::min<i64>((n + 255) / 256, 8 * gpu_.prop.multiProcessorCount));
    compare_kernel<<<blocks, 256, 0, gpu_.stream>>>(
        static_cast<const std::uint16_t*>(d(got)), static_cast<const std::uint16_t*>(d(ref)), n,
        kMismatchRel, static_cast<float>(kMismatchAbs * c.rms_ref),
        static_cast<CompareSums*>(gpu_.cmp.get()));
    MXGEMM_CUDA_CHECK(cudaGetLastError());
    CompareSums sums{};
    MXGEMM_CUDA_CHECK(cudaMemcpyAsync(&sums, gpu_.cmp.get(), sizeof(sums), cudaMemcpyDeviceToHost, gpu_.stream));
    MXGEMM_CUDA_CHECK(cudaStreamSynchronize(gpu_.stream));
    c.full_rel = sums.ref2 > 0.0 ? std::sqrt(sums.err2 / sums.ref2) : std::numeric_limits<double>::infinity();
    c.nan_got = sums.nan_got;
    c.nan_ref = sums.nan_ref;
    c.nonfinite = sums.nonfinite;
    c.mismatches = sums.mismatches;
    float md;
    std::memcpy(&md, &sums.max_diff_bits, 4);
    c.max_diff = md;
    if (sums.mismatches) {
      c.first_row = static_cast<i64>(sums.first_bad) / sh_.n;
      c.first_col = static_cast<i64>(sums.first_bad) % sh_.n;
    }
    c.done = true;
    return c;
  }

  // The whole of D, on the host.
  std::vector<std::uint16_t> download(Method m) {
    std::vector<std::uint16_t> h(static_cast<std::size_t>(sh_.m * sh_.n));
    MXGEMM_CUDA_CHECK(cudaMemcpy(h.data(), d(m), d_bytes_, cudaMemcpyDeviceToHost));
    return h;
  }

 private:
  static void upload(std::vector<DeviceBuffer>& bufs, const void* host, std::size_t bytes, int copies) {
    bufs.clear();
    for (int c = 0; c < copies; ++c) {
      bufs.emplace_back(bytes);
      if (c == 0) MXGEMM_CUDA_CHECK(cudaMemcpy(bufs[0].get(), host, bytes, cudaMemcpyHostToDevice));
      else MXGEMM_CUDA_CHECK(cudaMemcpy(bufs[c].get(), bufs[0].get(), bytes, cudaMemcpyDeviceToDevice));
    }
  }
  ConstMxOperand mx_op(const DeviceBuffer& q, const DeviceBuffer& s, i64 rows) const {
    const ScaleShape ss = scale_shape(rows, sh_.k, ScaleLayout::Swizzled128x4);
    return ConstMxOperand(contiguous(static_cast<const void*>(q.get()), rows, sh_.k, DType::E4M3, Memory::Device),
                          contiguous(static_cast<const void*>(s.get()), ss.rows, ss.cols, DType::E8M0,
                                     Memory::Device),
                          ScaleLayout::Swizzled128x4);
  }
  const float* scale_a_f8() const { return static_cast<const float*>(f8_scales_.get()); }
  const float* scale_b_f8() const {
    return reinterpret_cast<const float*>(static_cast<const char*>(f8_scales_.get()) + kScaleSlot);
  }
  static constexpr std::size_t kScaleSlot = 256;

  void bf16_gemm(const void* a, const void* b, void* dd) {
    if (bf16_plan_) {
      bf16_plan_->run(gpu_, a, b, dd);
      return;
    }
    // cublasGemmEx, same TN mapping as LtPlan: D^T (N x M) = B^T(op T) x A(op N).
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasGemmEx(gpu_.blas, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(sh_.n),
                              static_cast<int>(sh_.m), static_cast<int>(sh_.k), &one, b, CUDA_R_16BF,
                              static_cast<int>(sh_.k), a, CUDA_R_16BF, static_cast<int>(sh_.k), &zero,
                              dd, CUDA_R_16BF, static_cast<int>(sh_.n), CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT));
  }

  std::vector<std::uint16_t> gather(Method m, const std::vector<i64>& idx) {
    const int n = static_cast<int>(idx.size());
    DeviceBuffer didx(idx.size() * sizeof(i64)), dout(idx.size() * 2);
    MXGEMM_CUDA_CHECK(cudaMemcpyAsync(didx.get(), idx.data(), didx.bytes(), cudaMemcpyHostToDevice,
                                      gpu_.stream));
    gather_kernel<<<(n + 255) / 256, 256, 0, gpu_.stream>>>(static_cast<const std::uint16_t*>(d(m)),
                                                            static_cast<const i64*>(didx.get()),
                                                            static_cast<std::uint16_t*>(dout.get()), n);
    MXGEMM_CUDA_CHECK(cudaGetLastError());
    std::vector<std::uint16_t> h(idx.size());
    MXGEMM_CUDA_CHECK(cudaMemcpyAsync(h.data(), dout.get(), dout.bytes(), cudaMemcpyDeviceToHost, gpu_.stream));
    MXGEMM_CUDA_CHECK(cudaStreamSynchronize(gpu_.stream));
    return h;
  }

  Gpu& gpu_;
  const Options& o_;
  Shape sh_;
  int cm_ = 1, cb_ = 1, cf_ = 1;
  std::vector<DeviceBuffer> a_q_, a_s_, b_q_, b_s_, a_bf_, a_f16_, b_bf_, a_f8_, b_f8_;
  DeviceBuffer f8_scales_, dq_a_, dq_b_;
  DeviceBuffer d_[kMethods];
  std::size_t d_bytes_ = 0;
  DeviceBuffer mx_out_[kMethods];  // the mxgemm columns' outputs when not BF16 (else empty)
  std::unique_ptr<LtPlan> bf16_plan_, fp8_plan_;
  std::string fp8_plan_error_;
};

std::vector<i64> sample_indices(i64 total, int count, std::uint64_t seed) {
  std::vector<i64> idx;
  if (total <= count) {
    for (i64 i = 0; i < total; ++i) idx.push_back(i);
    return idx;
  }
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<i64> dist(0, total - 1);
  for (int i = 0; i < count; ++i) idx.push_back(dist(gen));
  return idx;
}

// ---------------------------------------------------------------------------------------
// Pools for a list of shapes: per K, one A pool (max M rows) and one B pool (max N rows).

struct Pools {
  std::map<std::pair<int, i64>, std::unique_ptr<Pool>> by_key;  // (0: A, 1: B; K)
  Pool& a(const Shape& s) { return *by_key.at({0, s.k}); }
  Pool& b(const Shape& s) { return *by_key.at({1, s.k}); }
};

Pools make_pools(const std::vector<Shape>& shapes, std::uint64_t seed) {
  std::map<std::pair<int, i64>, i64> rows;
  for (const Shape& s : shapes) {
    rows[{0, s.k}] = std::max(rows[{0, s.k}], s.m);
    rows[{1, s.k}] = std::max(rows[{1, s.k}], s.n);
  }
  Pools p;
  for (const auto& [key, r] : rows) {
    const std::uint64_t pool_seed =
        splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(key.second) * 2 + key.first));
    p.by_key[key] = make_pool(r, key.second, pool_seed);
  }
  return p;
}

// ---------------------------------------------------------------------------------------
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
    const MethodResult r = bench.time(m, /*timed=*/false);
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

// ---------------------------------------------------------------------------------------
// The table

struct Row {
  Shape sh;
  MethodResult r[kMethods];
  PairCheck mx_vs_bf16, dq_vs_bf16, fp8_vs_bf16, tiled_vs_bf16;
  double floor_us = 0.0;  // memory floor: bytes that must move / copy bandwidth
  std::string fp8_fallback;  // how cuBLASLt fp8 ran, when not its first heuristic choice
  bool pass = true;
  std::string failure;
};

double tflops(const Shape& s, const MethodResult& r) { return s.flops() / (r.med_us * 1e-6) / 1e12; }
bool has_ratio(const Row& row, Method m) { return row.r[kMx].ran && row.r[m].ran; }
double ratio(const Row& row, Method m) { return row.r[m].med_us / row.r[kMx].med_us; }

void print_header() {
  std::printf("%-21s | %-17s | %-24s | %-24s | %-24s | %-24s | %-16s | %s\n", "", "mxgemm",
              "cuBLAS bf16 (pre-deq.)", "dequant + cuBLAS bf16", "cuBLASLt fp8 per-tensor",
              kMethodNames[kMxTiled], "memory floor", "check: mxgemm vs bf16");
  std::printf("%6s %6s %6s   | %9s %7s | %9s %7s %6s | %9s %7s %6s | %9s %7s %6s | %9s %7s %6s | %8s %7s | %s\n",
              "M", "N", "K", "us", "TFLOP/s", "us", "TFLOP/s", "ratio", "us", "TFLOP/s", "ratio", "us",
              "TFLOP/s", "ratio", "us", "TFLOP/s", "ratio", "us", "x floor", "sample / full rel. err / bad");
  std::fflush(stdout);
}

void print_row(const Row& row) {
  char buf[512];
  int n = std::snprintf(buf, sizeof(buf), "%6lld %6lld %6lld   |", (long long)row.sh.m,
                        (long long)row.sh.n, (long long)row.sh.k);
  std::string line(buf, static_cast<std::size_t>(n));
  for (int mi = 0; mi < kMethods; ++mi) {
    const MethodResult& r = row.r[mi];
    if (r.ran) n = std::snprintf(buf, sizeof(buf), " %9.1f %7.1f", r.med_us, tflops(row.sh, r));
    else n = std::snprintf(buf, sizeof(buf), " %9s %7s", "n/a", "n/a");
    line.append(buf, static_cast<std::size_t>(n));
    if (mi != kMx) {
      if (has_ratio(row, static_cast<Method>(mi))) n = std::snprintf(buf, sizeof(buf), " %5.2fx", ratio(row, static_cast<Method>(mi)));
      else n = std::snprintf(buf, sizeof(buf), " %6s", "n/a");
      line.append(buf, static_cast<std::size_t>(n));
    }
    line += " |";
  }
  if (row.r[kMx].ran && row.floor_us > 0.0)
    n = std::snprintf(buf, sizeof(buf), " %8.1f %6.2fx |", row.floor_us, row.r[kMx].med_us / row.floor_us);
  else
    n = std::snprintf(buf, sizeof(buf), " %8s %7s |", "n/a", "n/a");
  line.append(buf, static_cast<std::size_t>(n));
  if (row.mx_vs_bf16.done)
    n = std::snprintf(buf, sizeof(buf), " %.1e / %.1e / %llu %s", row.mx_vs_bf16.sample_rel,
                      row.mx_vs_bf16.full_rel, row.mx_vs_bf16.mismatches, row.pass ? "ok" : "FAIL");
  else
    n = std::snprintf(buf, sizeof(buf), " %s", row.pass ? "unchecked" : "FAIL");
  line.append(buf, static_cast<std::size_t>(n));
  std::printf("%s\n", line.c_str());
  if (!row.pass) {
    std::printf("!!! FAIL %lldx%lldx%lld: %s\n", (long long)row.sh.m, (long long)row.sh.n,
                (long long)row.sh.k, row.failure.c_str());
    std::fprintf(stderr, "!!! FAIL %lldx%lldx%lld: %s\n", (long long)row.sh.m, (long long)row.sh.n,
                 (long long)row.sh.k, row.failure.c_str());
  }
  for (int mi = 0; mi < kMethods; ++mi)
    if (!row.r[mi].ran && !row.r[mi].why.empty())
      std::printf("    note: %s n/a: %s\n", kMethodNames[mi], row.r[mi].why.c_str());
  if (row.r[kFp8].ran && !row.fp8_fallback.empty())
    std::printf("    note: cuBLASLt fp8 ran with %s (cublasLtMatmul refused the earlier tries)\n",
                row.fp8_fallback.c_str());
  std::fflush(stdout);
}

struct Geomean {
  double v = 0.0;
  int count = 0;
};
Geomean geomean(const std::vector<Row>& rows, Method m) {
  Geomean g;
  double s = 0.0;
  for (const Row& r : rows)
    if (has_ratio(r, m)) {
      s += std::log(ratio(r, m));
      ++g.count;
    }
  g.v = g.count ? std::exp(s / g.count) : 0.0;
  return g;
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw std::runtime_error("--csv: cannot open " + path + " for writing: " + std::strerror(errno));
  const char* keys[kMethods] = {"mxgemm", "bf16", "dq_bf16", "fp8", "tiled"};
  std::fprintf(f, "m,n,k");
  for (int mi = 0; mi < kMethods; ++mi) {
    std::fprintf(f, ",%s_us,%s_tflops", keys[mi], keys[mi]);
    if (mi != kMx) std::fprintf(f, ",ratio_%s", keys[mi]);
  }
  for (int mi = 0; mi < kMethods; ++mi)
    std::fprintf(f, ",%s_min_us,%s_max_us,%s_host_us", keys[mi], keys[mi], keys[mi]);
  std::fprintf(f, ",mx_vs_bf16_sample_rel,mx_vs_bf16_full_rel,mx_vs_bf16_mismatches,mx_vs_bf16_max_diff_over_rms,"
                  "mxgemm_nan,dq_vs_bf16_sample_rel,dq_vs_bf16_full_rel,fp8_vs_bf16_sample_rel,"
                  "tiled_vs_bf16_full_rel,floor_us,mxgemm_over_floor,check\n");
  const auto num = [&](bool ok, double v) {
    if (ok) std::fprintf(f, ",%.6g", v);
    else std::fprintf(f, ",n/a");
  };
  for (const Row& r : rows) {
    std::fprintf(f, "%lld,%lld,%lld", (long long)r.sh.m, (long long)r.sh.n, (long long)r.sh.k);
    for (int mi = 0; mi < kMethods; ++mi) {
      num(r.r[mi].ran, r.r[mi].med_us);
      num(r.r[mi].ran, r.r[mi].ran ? tflops(r.sh, r.r[mi]) : 0.0);
      if (mi != kMx) num(has_ratio(r, static_cast<Method>(mi)), has_ratio(r, static_cast<Method>(mi)) ? ratio(r, static_cast<Method>(mi)) : 0.0);
    }
    for (int mi = 0; mi < kMethods; ++mi) {
      num(r.r[mi].ran, r.r[mi].min_us);
      num(r.r[mi].ran, r.r[mi].max_us);
      num(r.r[mi].ran, r.r[mi].host_us);
    }
    num(r.mx_vs_bf16.done, r.mx_vs_bf16.sample_rel);
    num(r.mx_vs_bf16.done, r.mx_vs_bf16.full_rel);
    num(r.mx_vs_bf16.done, double(r.mx_vs_bf16.mismatches));
    num(r.mx_vs_bf16.done && r.mx_vs_bf16.rms_ref > 0.0,
        r.mx_vs_bf16.rms_ref > 0.0 ? r.mx_vs_bf16.max_diff / r.mx_vs_bf16.rms_ref : 0.0);
    num(r.mx_vs_bf16.done, double(r.mx_vs_bf16.nan_got));
    num(r.dq_vs_bf16.done, r.dq_vs_bf16.sample_rel);
    num(r.dq_vs_bf16.done, r.dq_vs_bf16.full_rel);
    num(r.fp8_vs_bf16.done, r.fp8_vs_bf16.sample_rel);
    num(r.tiled_vs_bf16.done, r.tiled_vs_bf16.full_rel);
    num(r.floor_us > 0.0, r.floor_us);
    num(r.floor_us > 0.0 && r.r[kMx].ran, r.floor_us > 0.0 ? r.r[kMx].med_us / r.floor_us : 0.0);
    std::fprintf(f, ",%s\n", r.pass ? "ok" : "FAIL");
  }
  // The geometric means, in the ratio columns of a last row.
  std::fprintf(f, "geomean,,");
  for (int mi = 0; mi < kMethods; ++mi) {
    std::fprintf(f, ",,");
    if (mi != kMx) {
      const Geomean g = geomean(rows, static_cast<Method>(mi));
      num(g.count > 0, g.v);
    }
  }
  for (int i = 0; i < 3 * kMethods + 12; ++i) std::fprintf(f, ",");
  std::fprintf(f, "\n");
  if (std::fclose(f) != 0) throw std::runtime_error("--csv: error writing " + path);
}

// ---------------------------------------------------------------------------------------

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
  std::printf("device: %s, %d SMs, L2 %.0f MiB; mxgemm backend: %s; cuBLASLt %zu; bf16 via %s; "
              "fp8 fast accumulation %s\n",
              gpu.prop.name, gpu.prop.multiProcessorCount, l2_mb, info.name.c_str(),
              cublasLtGetVersion(), o.bf16_api == "lt" ? "cublasLtMatmul" : "cublasGemmEx",
              o.fp8_fast_accum ? "on" : "off");
  std::printf("timing: median of %d CUDA-event timed runs after %d warm-up and %.0f ms of back-to-back "
              "runs per method (its own sustained clock), each behind a spin kernel; inputs rotated "
              "over copies totalling > %.0f MiB\n\n",
              o.iters, o.warmup, o.warmup_ms, gpu.rotate_bytes / 1048576.0);
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
      for (int mi = 0; mi < kMethods; ++mi) row.r[mi] = bench.time(static_cast<Method>(mi), true);
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
    print_row(row);
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

}  // namespace

int main(int argc, char** argv) {
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
