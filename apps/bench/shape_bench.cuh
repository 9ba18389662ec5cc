// Part of mxgemm_bench (apps/bench_gemm.cu), its only translation unit: one shape's inputs, outputs
// and methods: how each is run, timed and compared.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/cublas_peers.cuh"
#include "bench/device_checks.cuh"
#include "bench/host_util.hpp"
#include "bench/options.hpp"
#include "bench/pools.hpp"
#include "core/kernel_override.hpp"
#include "mxgemm/mxgemm.hpp"

namespace mxgemm::bench {

// One shape: device inputs (rotated copies), outputs, plans, the four methods.

enum Method { kMx = 0, kBf16, kDqBf16, kFp8, kMxTiled, kMethods };
// The comparison column is renamed after --compare-kernel.
inline const char* kMethodNames[kMethods] = {"mxgemm", "cuBLAS bf16", "dequant + cuBLAS bf16",
                                            "cuBLASLt fp8", "mxgemm tiled kernel"};

struct MethodResult {
  bool ran = false;
  std::string why;  // why not, when !ran
  double med_us = 0.0, min_us = 0.0, max_us = 0.0, host_us = 0.0;
};

// Every method's result for one shape, and the spin all their timed runs waited behind.
struct ShapeTimings {
  std::array<MethodResult, kMethods> r;
  double spin_us = 0.0;
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
    if (o.prepacked_weight() || o.compare_prepacked_weight()) {  // beside the natural copies (the peers dequantize those)
      b_qp_.clear();
      for (int c = 0; c < cm_; ++c) {
        b_qp_.emplace_back(bn);
        mxfp8_prepack_weight(contiguous(static_cast<const void*>(b_q_[c].get()), sh.n, sh.k, DType::E4M3, Memory::Device),
                             contiguous(b_qp_[c].get(), sh.n, sh.k, DType::E4M3, Memory::Device), gpu.stream);
      }
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
        const detail::ScopedStreamMxValues values(m == kMxTiled ? o_.compare_mx_values() : o_.mx_values_mode());
        const detail::ScopedStreamSplitK split(m == kMx ? o_.split_k_mode() : detail::StreamSplitK::Auto);
        const detail::ScopedStreamWidth192 width_192(m == kMx ? o_.width_192_mode() : detail::StreamWidth192::Auto);
        const detail::ScopedStreamPaddedWorkspace padded(m == kMx ? o_.padded_ws_mode()
                                                                  : detail::StreamPaddedWorkspace::Auto);
        const detail::ScopedStreamTmaStore tma_store(m == kMx ? o_.tma_store_mode() : detail::StreamTmaStore::Auto);
        const detail::ScopedStreamPromote promote(m == kMx ? o_.promote_mode() : detail::StreamPromote::Auto);
        const int c = i % cm_;
        if (o_.weight_only()) {
          const bool f16 = o_.fp16_activation();
          mxfp8_weight_only_mm(contiguous(static_cast<const void*>((f16 ? a_f16_ : a_bf_)[i % cb_].get()), sh_.m,
                                          sh_.k, f16 ? DType::FP16 : DType::BF16, Memory::Device),
                               weight_op(m, c), static_cast<const float*>(gpu_.alpha.get()),
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

  // Poison D and run once (checked): whether method m ran, or why not.
  MethodResult first_run(Method m) {
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
    return r;
  }

  // Every method's first run and warm-up (which times the host side of a call), then each
  // method's sustained warm-up and timed runs, all behind spins of one length: spin_floor_us, or
  // 3x the longest host side + 20 us where that is longer, so that the host never falls behind
  // within a timed run and no method starts its runs after a longer idle time than another (the
  // clock follows the load; bench/results/s51 timed one kernel 4-7% apart under two settings
  // whose host sides differed, when each method's spin followed its own host side).
  ShapeTimings time_all(double spin_floor_us) {
    ShapeTimings t;
    t.spin_us = spin_floor_us;
    for (int mi = 0; mi < kMethods; ++mi) {
      const auto m = static_cast<Method>(mi);
      t.r[mi] = first_run(m);
      if (!t.r[mi].ran) continue;
      warm_up(m, t.r[mi]);
      t.spin_us = std::max(t.spin_us, 3.0 * t.r[mi].host_us + 20.0);
    }
    for (int mi = 0; mi < kMethods; ++mi)
      if (t.r[mi].ran) timed_runs(static_cast<Method>(mi), t.r[mi], t.spin_us);
    return t;
  }

 private:
  // Warm-up calls after the first: r.host_us, the host side of one call.
  void warm_up(Method m, MethodResult& r) {
    const int w = std::max(1, o_.warmup);
    const auto t0 = Clock::now();
    for (int i = 1; i <= w; ++i) op(m, i);
    r.host_us = seconds_since(t0) * 1e6 / w;
    MXGEMM_CUDA_CHECK(cudaGetLastError());
    MXGEMM_CUDA_CHECK(cudaStreamSynchronize(gpu_.stream));
  }

  // The sustained warm-up, then `iters` runs each queued behind a spin kernel of spin_us.
  void timed_runs(Method m, MethodResult& r, double spin_us) {
    cudaStream_t s = gpu_.stream;
    const int w = std::max(1, o_.warmup);
    // Sustained warm-up: a few calls queued at a time (the host never runs far ahead of the
    // device), until the device has been busy with this method for warmup_ms.
    const auto t_sustain = Clock::now();
    for (int i = w + 1; seconds_since(t_sustain) * 1e3 < o_.warmup_ms; ++i) {
      op(m, i);
      if (i % 4 == 0) MXGEMM_CUDA_CHECK(cudaStreamSynchronize(s));
    }
    MXGEMM_CUDA_CHECK(cudaGetLastError());
    MXGEMM_CUDA_CHECK(cudaStreamSynchronize(s));
    const auto spin_ns = static_cast<unsigned long long>(spin_us * 1e3);
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
  }

 public:
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
  // The weight-only GEMM's weight for method m (kMx or kMxTiled), copy c.
  ConstMxOperand weight_op(Method m, int c) const {
    const bool prepacked = m == kMx ? o_.prepacked_weight() : o_.compare_prepacked_weight();
    if (!prepacked) return mx_op(b_q_[c], b_s_[c], sh_.n);
    ConstMxOperand w = mx_op(b_qp_[c], b_s_[c], sh_.n);
    w.order = KOrder::Prepacked;
    return w;
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
  std::vector<DeviceBuffer> b_qp_;  // b_q_ prepacked (--weight-order prepacked)
  DeviceBuffer f8_scales_, dq_a_, dq_b_;
  DeviceBuffer d_[kMethods];
  std::size_t d_bytes_ = 0;
  DeviceBuffer mx_out_[kMethods];  // the mxgemm columns' outputs when not BF16 (else empty)
  std::unique_ptr<LtPlan> bf16_plan_, fp8_plan_;
  std::string fp8_plan_error_;
};

inline std::vector<i64> sample_indices(i64 total, int count, std::uint64_t seed) {
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

}  // namespace mxgemm::bench
