// Shared by the GPU GEMM tests: runs on poisoned, guarded outputs and the comparison with
// the exact CPU reference.
//
// Tolerance. The kernel dequantizes exactly (e4m3/e5m2 x 2^k fits bf16), multiplies in the
// tensor core exactly (bf16 x bf16 fits fp32) and adds the K products in fp32. Summing K terms
// in fp32 in any order errs by at most (K-1) * 2^-24 * sum_k |a_k b_k| (the standard
// gamma_{K-1} bound); alpha and the final rounding add at most one unit in the last place of
// the output type. So every element must satisfy
//     |gpu - exact| <= ulp_out(exact) + K * 2^-24 * sum_k |a_k b_k|,
// where sum_k |a_k b_k| is the reference run on |A|, |B|. FP32 outputs must also have a
// relative Frobenius error under 1e-5, and FP16/BF16 outputs must equal the correctly rounded
// reference in at least 99% of the elements, less three binomial standard deviations of a 1%
// miss rate (sqrt(0.01 n)): on an output of a few hundred elements, 1% is 3 elements, which a
// kernel that misrounds 1% of the time would exceed in a third of the runs.
//
// Infinities must match, except at the overflow edge: an exact value within that bound of the
// output type's rounding boundary to infinity (65520 for FP16) may round to the largest finite
// value or to infinity, depending on the order of the K additions (seeds 316530420 and others of
// GpuStreamGemm.SplitKBetweenTwoWarpgroupsInClustersMatchesReference, E5M2 to FP16, session 41).
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/mx_random.hpp"
#include "core/kernel_override.hpp"
#include "gpu/gpu_test_utils.hpp"
#include "mxgemm/mxgemm.hpp"

namespace mxgemm::testing {

// A host operand copied to the device (data and scales in guarded buffers).
struct DeviceMxOperand {
  GuardedDeviceBuffer data, scales;
  ConstMxOperand view;
  explicit DeviceMxOperand(const HostMxOperand& h)
      : data(h.data.size()), scales(h.scales.size()), view(h.view(Memory::Device)) {
    data.upload(h.data.data());
    scales.upload(h.scales.data());
    view.data.data = data.data();
    view.scales.data = scales.data();
  }
};

// Every byte of the poisoned output elements; no kernel writes an all-0xFF element
// (0xFFFF / 0xFFFFFFFF are NaNs with every payload bit set, not the canonical NaN).
constexpr std::uint8_t kPoison = 0xFF;

// Sets every byte of the output's elements to kPoison (the gap between rows keeps its sentinel).
inline void poison(HostOutput& out) {
  const int size = dtype_size(out.dtype);
  for (std::int64_t i = 0; i < out.rows; ++i)
    std::memset(out.bytes.data() + i * out.stride * size, kPoison, out.cols * size);
}

// Output elements still all kPoison after a run: never written.
inline std::int64_t count_poisoned(const HostOutput& out) {
  const int size = dtype_size(out.dtype);
  std::int64_t n = 0;
  for (std::int64_t i = 0; i < out.rows; ++i)
    for (std::int64_t j = 0; j < out.cols; ++j) {
      const std::uint8_t* e = out.bytes.data() + (i * out.stride + j) * size;
      bool all = true;
      for (int x = 0; x < size; ++x) all = all && e[x] == kPoison;
      n += all;
    }
  return n;
}

struct GpuResult {
  HostOutput out;
  bool unsupported = false;  // the backend refused the case (UnsupportedError)
  bool guards_intact = false;
  bool gap_untouched = false;
  std::int64_t unwritten = 0;
};

// After a GPU call into `dd` (holding r.out, poisoned): waits, downloads, and records whether
// the guard bands (of dd and of the inputs, `inputs_intact`), the row gaps and every output
// element came out as they should.
inline void collect(GpuResult& r, const GuardedDeviceBuffer& dd, bool inputs_intact) {
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  r.out.bytes = dd.download();
  r.guards_intact = dd.guards_intact() && inputs_intact;
  r.gap_untouched = r.out.gap_untouched();
  r.unwritten = count_poisoned(r.out);
}

// Whether the library's GEMM backend is the sm_90 one (whose kernels the Hopper tests force).
inline bool on_hopper() { return gemm_backend().name.find("sm90") != std::string::npos; }

// Runs the GPU GEMM once on poisoned output; alpha lives in device memory.
inline GpuResult run_gpu(const HostMxOperand& a, const HostMxOperand& b, DType out, float alpha,
                         std::int64_t d_pad = 0,
                         detail::Sm90Kernel kernel = detail::Sm90Kernel::Auto) {
  DeviceMxOperand da(a), db(b);
  GpuResult r{HostOutput(out, a.rows, b.rows, d_pad)};
  poison(r.out);
  GuardedDeviceBuffer dd(r.out.bytes.size()), dalpha(sizeof(float));
  dd.upload(r.out.bytes.data());
  dalpha.upload(&alpha);
  MatrixView dv = r.out.view(Memory::Device);
  dv.data = dd.data();
  try {
    const detail::ScopedSm90Kernel forced(kernel);
    mxfp8_scaled_mm(da.view, db.view, static_cast<const float*>(dalpha.data()), dv);
  } catch (const UnsupportedError& e) {
    // Only the sm_100 path narrows the contract (E4M3, swizzled scales, 16-bit output,
    // N % 8 == 0); on Hopper every valid case must run.
    EXPECT_NE(gemm_backend().name.find("sm100"), std::string::npos) << e.what();
    r.unsupported = true;
    return r;
  }
  collect(r, dd, da.data.guards_intact() && db.data.guards_intact());
  return r;
}

inline HostOutput run_reference(const HostMxOperand& a, const HostMxOperand& b, DType out, float alpha) {
  HostOutput r(out, a.rows, b.rows);
  mxfp8_scaled_mm_reference(a.view(), b.view(), alpha, r.view());
  return r;
}

// The operand with every sign bit cleared: the reference on these gives sum |a_k b_k|.
inline HostMxOperand absolute(HostMxOperand op) {
  for (auto& c : op.data) c &= 0x7F;
  return op;
}

inline double ulp_of(DType t, double v) {
  const double a = std::fabs(v);
  const int man = t == DType::FP32 ? 23 : (t == DType::BF16 ? 7 : 10);
  const int min_exp = t == DType::FP16 ? -14 : -126;
  int e = a > 0 ? std::ilogb(a) : min_exp;
  if (e < min_exp) e = min_exp;
  return std::ldexp(1.0, e - man);
}

inline double largest_finite(DType t) {
  const int man = t == DType::FP32 ? 23 : (t == DType::BF16 ? 7 : 10);
  return std::ldexp(2.0 - std::ldexp(1.0, -man), t == DType::FP16 ? 15 : 127);
}

// Where rounding to nearest starts to give infinity: half a unit past the largest finite value.
inline double overflow_boundary(DType t) { return largest_finite(t) + 0.5 * ulp_of(t, largest_finite(t)); }

// What expect_close measured, for tests that report their margin.
struct CloseStats {
  double rel_frobenius = 0;   // against the correctly rounded reference
  double equal_fraction = 0;  // elements equal to the correctly rounded reference
};

// Compares a GPU result with the references as the header comment explains: `ref` the
// correctly rounded output, `exact` the FP32 reference, `abs_sum` sum_k |a_k b_k| (times
// |alpha|) for the summation bound over k terms.
inline CloseStats expect_close(const GpuResult& g, const HostOutput& ref, const HostOutput& exact,
                         const HostOutput& abs_sum, std::int64_t k, const std::string& what) {
  const DType out = g.out.dtype;
  SCOPED_TRACE(what);
  if (g.unsupported) return {};  // refused with UnsupportedError by this backend (checked by the runner)
  EXPECT_TRUE(g.guards_intact) << "something was written outside the buffers";
  EXPECT_TRUE(g.gap_untouched) << "the gap between output rows was written";
  EXPECT_EQ(g.unwritten, 0) << "output elements left unwritten";
  const double k_term = static_cast<double>(k) * std::ldexp(1.0, -24);
  double err2 = 0, ref2 = 0;
  std::int64_t equal = 0, bad = 0, total = 0, non_finite = 0;
  for (std::int64_t i = 0; i < g.out.rows; ++i) {
    for (std::int64_t j = 0; j < g.out.cols; ++j) {
      const double gv = g.out.at(i, j), rv = ref.at(i, j), ev = exact.at(i, j);
      ++total;
      if (std::isnan(rv) || std::isnan(gv)) {
        ++non_finite;
        if (std::isnan(rv) != std::isnan(gv) && bad++ < 5)
          ADD_FAILURE() << "NaN mismatch at (" << i << "," << j << "): gpu " << gv << " ref " << rv;
        equal += std::isnan(rv) && std::isnan(gv);
        continue;
      }
      equal += gv == rv;
      const double tol = ulp_of(out, ev) + k_term * abs_sum.at(i, j);
      if (std::isinf(rv) || std::isinf(gv)) {
        ++non_finite;
        const double finite = std::isinf(gv) ? rv : gv;
        const bool overflow_edge = std::isinf(gv) != std::isinf(rv) && std::signbit(gv) == std::signbit(rv) &&
                                   std::fabs(finite) == largest_finite(out) && std::isfinite(ev) &&
                                   std::fabs(std::fabs(ev) - overflow_boundary(out)) <= tol;
        if (gv != rv && !overflow_edge && bad++ < 5)
          ADD_FAILURE() << "Inf mismatch at (" << i << "," << j << "): gpu " << gv << " ref " << rv
                        << " exact " << ev << " (tolerance " << tol << ")";
        continue;
      }
      err2 += (gv - rv) * (gv - rv);
      ref2 += rv * rv;
      if (!(std::fabs(gv - ev) <= tol) && bad++ < 5)
        ADD_FAILURE() << "element (" << i << "," << j << "): gpu " << gv << " exact " << ev
                      << " |diff| " << std::fabs(gv - ev) << " > tol " << tol;
    }
  }
  EXPECT_EQ(bad, 0) << bad << " elements out of tolerance";
  const CloseStats stats{ref2 > 0 ? std::sqrt(err2 / ref2) : 0.0,
                         total > 0 ? static_cast<double>(equal) / static_cast<double>(total) : 0.0};
  if (out == DType::FP32) {
    // Outputs that are all infinite or NaN (huge scales overflow every row: seed 1849133436 of
    // GpuGemm.ScalesOutsideTheExactRangeBehaveAsTheReference, 3 x 140 x 4096 with A scales
    // anywhere in 0..254, session 12) leave no finite part for a relative error; they were
    // compared exactly above. Only a reference with nothing but zeros is vacuous.
    EXPECT_TRUE(ref2 > 0.0 || non_finite > 0) << "vacuous: reference is all zero";
    if (ref2 > 0.0) EXPECT_LT(std::sqrt(err2 / ref2), 1e-5) << "relative Frobenius error";
  } else {
    const double n = static_cast<double>(total);
    EXPECT_GE(static_cast<double>(equal), 0.99 * n - 3.0 * std::sqrt(0.01 * n))
        << equal << " of " << total << " elements equal the correctly rounded reference";
  }
  return stats;
}

// Prints a measured error as the test's margin against the bars.
inline void print_margin(const std::string& what, const CloseStats& c) {
  std::printf("[ margin   ] %s: relative Frobenius error %.3g, %.4f equal to the rounded reference\n", what.c_str(),
              c.rel_frobenius, c.equal_fraction);
}

// The MXFP8 GEMM's references for expect_close.
inline CloseStats expect_matches_reference(const HostMxOperand& a, const HostMxOperand& b, const GpuResult& g,
                                           float alpha, const std::string& what) {
  if (g.unsupported) return {};
  return expect_close(g, run_reference(a, b, g.out.dtype, alpha), run_reference(a, b, DType::FP32, alpha),
               run_reference(absolute(a), absolute(b), DType::FP32, std::fabs(alpha)), a.k, what);
}

// For the sm_90 streaming kernel's fp16 values form of E4M3 x E4M3 (from 17 rows;
// test_stream_fp16_form_gpu.cpp): scale bytes inside the weight's fp16 window (103..123) and 16
// apart at most (an activation row's blocks stay within 22 of its top): both operands on the
// fast path.
inline MxOptions fp16_form_scales() {
  MxOptions o;
  o.scale_lo = 106;
  o.scale_hi = 122;
  return o;
}
// The same with every fp16 operand value normal: weight bytes from 112 (code x 2^(s - 117) >=
// 2^-9 x 2^-5), activation blocks at most 10 below their row's top (code x 2^(e >= -3)).
inline MxOptions fp16_normal_scales() {
  MxOptions o;
  o.scale_lo = 112;
  o.scale_hi = 122;
  return o;
}

inline std::mt19937 fresh_rng() {
  const unsigned seed = std::random_device{}();
  std::printf("[ seed     ] %u\n", seed);
  return std::mt19937(seed);
}

inline std::string shape_name(std::int64_t m, std::int64_t n, std::int64_t k) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

// Every M from 1 to max_m at each (N, K) on `kernel` against the exact reference, the scale
// layout, the output type and D's row padding changing from one case to the next; both
// operands drawn with `base` (its layout replaced).
inline void expect_every_m_matches_reference(std::int64_t max_m, const std::vector<std::array<std::int64_t, 2>>& nk,
                                             detail::Sm90Kernel kernel, const MxOptions& base = {}) {
  std::mt19937 rng = fresh_rng();
  const DType outs[] = {DType::FP32, DType::BF16, DType::FP16};
  int variant = 0;
  for (std::int64_t m = 1; m <= max_m; ++m) {
    for (const auto& s : nk) {
      MxOptions o = base;
      o.layout = variant % 2 == 0 ? ScaleLayout::Swizzled128x4 : ScaleLayout::Linear;
      const DType out = outs[variant++ % 3];
      const HostMxOperand a = random_mx_operand(m, s[1], rng, o);
      const HostMxOperand b = random_mx_operand(s[0], s[1], rng, o);
      expect_matches_reference(a, b, run_gpu(a, b, out, 1.0f, /*d_pad=*/variant % 4, kernel), 1.0f,
                               shape_name(m, s[0], s[1]) + " out=" + dtype_name(out) +
                                   " scales=" + layout_name(o.layout));
    }
  }
}

// Tiles cut among CTAs and summed from their partials: each M x N x K shape on `kernel`
// matches the reference and three more runs give the same bits (operands drawn with `o`).
inline void expect_split_tiles_deterministic(const std::vector<std::array<std::int64_t, 3>>& shapes,
                                             detail::Sm90Kernel kernel, const MxOptions& o = {}) {
  std::mt19937 rng = fresh_rng();
  for (const auto& s : shapes) {
    const std::string what = shape_name(s[0], s[1], s[2]);
    const HostMxOperand a = random_mx_operand(s[0], s[2], rng, o);
    const HostMxOperand b = random_mx_operand(s[1], s[2], rng, o);
    const float alpha = 0.75f;
    const GpuResult r1 = run_gpu(a, b, DType::FP32, alpha, 0, kernel);
    if (r1.unsupported) GTEST_SKIP() << "FP32 output is not supported by this backend";
    expect_matches_reference(a, b, r1, alpha, what);
    for (int run = 0; run < 3; ++run) {
      const GpuResult r2 = run_gpu(a, b, DType::FP32, alpha, 0, kernel);
      EXPECT_EQ(r1.out.bytes, r2.out.bytes) << what << ": run " << run + 2 << " differs";
    }
  }
}

// Scale bytes at both ends of the range in which every dequantized E4M3 element is a normal
// bf16 (2^(s-127) * [2^-9, 448] within [2^-126, 2^127]: bytes 10..245). Products and sums
// then stay exact up to fp32 accumulation, tiny and huge operands mixed included: an m x 140
// x 96 GEMM on `kernel` against the reference.
inline void expect_exact_range_scales_match(std::int64_t m, detail::Sm90Kernel kernel, const std::string& what,
                                            std::mt19937& rng) {
  struct Range { int lo, hi; const char* name; };
  const Range ranges[][2] = {{{10, 20, "tiny"}, {235, 245, "huge"}},
                             {{235, 245, "huge"}, {10, 20, "tiny"}},
                             {{10, 20, "tiny"}, {200, 210, "large"}},
                             {{200, 210, "large"}, {60, 70, "small"}}};
  for (const auto& r : ranges) {
    MxOptions oa, ob;
    oa.scale_lo = r[0].lo; oa.scale_hi = r[0].hi;
    ob.scale_lo = r[1].lo; ob.scale_hi = r[1].hi;
    const HostMxOperand a = random_mx_operand(m, 96, rng, oa);
    const HostMxOperand b = random_mx_operand(140, 96, rng, ob);
    for (DType out : {DType::FP32, DType::BF16})
      expect_matches_reference(a, b, run_gpu(a, b, out, 1.0f, 0, kernel), 1.0f,
                               what + ": A " + r[0].name + ", B " + r[1].name + ", out=" + dtype_name(out));
  }
}

// The number of outputs of g that differ from ref: neither equal (infinities included) nor
// both NaN nor within 1e-5 relative. For FP32 results of the exact path, which are the
// reference's up to the fp64 summation order.
inline std::int64_t count_differences(const HostOutput& g, const HostOutput& ref) {
  std::int64_t differ = 0;
  for (std::int64_t i = 0; i < ref.rows; ++i)
    for (std::int64_t j = 0; j < ref.cols; ++j) {
      const double x = g.at(i, j), y = ref.at(i, j);
      differ += !(x == y || (std::isnan(x) && std::isnan(y)) || std::fabs(x - y) <= 1e-5 * std::fabs(y));
    }
  return differ;
}

// Weight blocks at scale bytes in [lo, hi] that a fast path does not take, for
// expect_weight_scales_take_exact_path.
struct WeightScaleRange {
  int lo, hi;
  const char* name;
};
// m x 140 x k GEMMs on `kernel` for each m of `ms`, k = 112 and 4096 (whole tiles and K cut among
// CTAs), activations drawn with `a_options` and weights in each of `ranges`: every tile they feed
// takes the exact fp64 path, so every FP32 output is the reference's (count_differences),
// with nothing written outside D or left unwritten.
inline void expect_weight_scales_take_exact_path(const std::vector<std::int64_t>& ms,
                                                 const std::vector<WeightScaleRange>& ranges,
                                                 const MxOptions& a_options, detail::Sm90Kernel kernel,
                                                 std::mt19937& rng) {
  for (const std::int64_t m : ms)
    for (const std::int64_t k : {112, 4096})
      for (const auto& r : ranges) {
        MxOptions ob;
        ob.scale_lo = r.lo;
        ob.scale_hi = r.hi;
        const HostMxOperand a = random_mx_operand(m, k, rng, a_options);
        const HostMxOperand b = random_mx_operand(140, k, rng, ob);
        const std::string what = std::string(r.name) + " weight scales, " + shape_name(m, 140, k);
        const GpuResult g = run_gpu(a, b, DType::FP32, 1.0f, 0, kernel);
        EXPECT_TRUE(g.guards_intact && g.gap_untouched) << what << ": written outside the output";
        EXPECT_EQ(g.unwritten, 0) << what << ": outputs left unwritten";
        EXPECT_EQ(count_differences(g.out, run_reference(a, b, DType::FP32, 1.0f)), 0) << what;
      }
}
// Scale bytes outside the range above (0..10 against 245..254, and mixed with ordinary
// ones): dequantized elements leave bf16's normal range and products fp32's, so the
// streaming and skinny kernels send the tiles these blocks feed to their exact fp64 path
// (src/cuda/sm90/exact_outputs.cuh, scale_window.cuh). Where the exact result is in range
// (tiny x huge, and any x usual) the output meets the usual tolerance (expect_close), with
// infinities and NaN where the reference has them; where it is not (tiny x tiny underflows
// to zero, huge x huge overflows to +-inf) every FP32 output must equal the reference's
// (count_differences). An m x 140 x k GEMM on `kernel` (k = 4096 splits tiles among CTAs:
// the parts' exact flags meet in the fixup).
inline void expect_outside_range_scales_match(std::int64_t m, std::int64_t k, detail::Sm90Kernel kernel,
                                              const std::string& what, std::mt19937& rng) {
  struct Range { int lo, hi; const char* name; };
  const struct { Range a, b; bool in_range; } cases[] = {{{0, 10, "tiny"}, {245, 254, "huge"}, true},
                                                         {{245, 254, "huge"}, {0, 10, "tiny"}, true},
                                                         {{0, 254, "any"}, {116, 124, "usual"}, true},
                                                         {{0, 10, "tiny"}, {0, 10, "tiny"}, false},
                                                         {{245, 254, "huge"}, {245, 254, "huge"}, false}};
  for (const auto& c : cases) {
    MxOptions oa, ob;
    oa.scale_lo = c.a.lo; oa.scale_hi = c.a.hi;
    ob.scale_lo = c.b.lo; ob.scale_hi = c.b.hi;
    const HostMxOperand a = random_mx_operand(m, k, rng, oa);
    const HostMxOperand b = random_mx_operand(140, k, rng, ob);
    const std::string name = what + ": A " + c.a.name + " x B " + c.b.name + ", " + shape_name(m, 140, k);
    const GpuResult g = run_gpu(a, b, DType::FP32, 1.0f, 0, kernel);
    if (g.unsupported) GTEST_SKIP() << "FP32 output is not supported by this backend";
    if (c.in_range) {
      expect_matches_reference(a, b, g, 1.0f, name);
      expect_matches_reference(a, b, run_gpu(a, b, DType::BF16, 1.0f, 0, kernel), 1.0f, name + " out=bf16");
      continue;
    }
    EXPECT_TRUE(g.guards_intact && g.gap_untouched) << name << ": written outside the output";
    EXPECT_EQ(g.unwritten, 0) << name << ": outputs left unwritten";
    EXPECT_EQ(count_differences(g.out, run_reference(a, b, DType::FP32, 1.0f)), 0) << name;
  }
}

}  // namespace mxgemm::testing
