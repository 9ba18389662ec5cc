// The GPU GEMM against the exact CPU reference (mxfp8_scaled_mm_reference), on fresh random
// data, shapes that are not tile multiples, all output types and both scale layouts.
//
// Tolerance. The kernel dequantizes exactly (e4m3/e5m2 x 2^k fits bf16), multiplies in the
// tensor core exactly (bf16 x bf16 fits fp32) and adds the K products in fp32. Summing K terms
// in fp32 in any order errs by at most (K-1) * 2^-24 * sum_k |a_k b_k| (the standard
// gamma_{K-1} bound); alpha and the final rounding add at most one unit in the last place of
// the output type. So every element must satisfy
//     |gpu - exact| <= ulp_out(exact) + K * 2^-24 * sum_k |a_k b_k|,
// where sum_k |a_k b_k| is the reference run on |A|, |B|. FP32 outputs must also have a
// relative Frobenius error under 1e-5, and FP16/BF16 outputs must equal the correctly rounded
// reference in at least 99% of the elements.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/mx_random.hpp"
#include "gpu/gpu_test_utils.hpp"
#include "mxgemm/mxgemm.hpp"

namespace mxgemm::testing {
namespace {

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

struct GpuResult {
  HostOutput out;
  bool unsupported = false;  // the backend refused the case (UnsupportedError)
  bool guards_intact = false;
  bool gap_untouched = false;
  std::int64_t unwritten = 0;
};

// Runs the GPU GEMM once on poisoned output; alpha lives in device memory.
GpuResult run_gpu(const HostMxOperand& a, const HostMxOperand& b, DType out, float alpha,
                  std::int64_t d_pad = 0) {
  DeviceMxOperand da(a), db(b);
  GpuResult r{HostOutput(out, a.rows, b.rows, d_pad)};
  const int size = dtype_size(out);
  for (std::int64_t i = 0; i < r.out.rows; ++i)
    std::memset(r.out.bytes.data() + i * r.out.stride * size, kPoison, r.out.cols * size);
  GuardedDeviceBuffer dd(r.out.bytes.size()), dalpha(sizeof(float));
  dd.upload(r.out.bytes.data());
  dalpha.upload(&alpha);
  MatrixView dv = r.out.view(Memory::Device);
  dv.data = dd.data();
  try {
    mxfp8_scaled_mm(da.view, db.view, static_cast<const float*>(dalpha.data()), dv);
  } catch (const UnsupportedError& e) {
    // Only the sm_100 path narrows the contract (E4M3, swizzled scales, 16-bit output,
    // N % 8 == 0); on Hopper every valid case must run.
    EXPECT_NE(gemm_backend().name.find("sm100"), std::string::npos) << e.what();
    r.unsupported = true;
    return r;
  }
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  r.out.bytes = dd.download();
  r.guards_intact = dd.guards_intact() && da.data.guards_intact() && db.data.guards_intact();
  r.gap_untouched = r.out.gap_untouched();
  for (std::int64_t i = 0; i < r.out.rows; ++i)
    for (std::int64_t j = 0; j < r.out.cols; ++j) {
      const std::uint8_t* e = r.out.bytes.data() + (i * r.out.stride + j) * size;
      bool all = true;
      for (int x = 0; x < size; ++x) all = all && e[x] == kPoison;
      r.unwritten += all;
    }
  return r;
}

HostOutput run_reference(const HostMxOperand& a, const HostMxOperand& b, DType out, float alpha) {
  HostOutput r(out, a.rows, b.rows);
  mxfp8_scaled_mm_reference(a.view(), b.view(), alpha, r.view());
  return r;
}

// The operand with every sign bit cleared: the reference on these gives sum |a_k b_k|.
HostMxOperand absolute(HostMxOperand op) {
  for (auto& c : op.data) c &= 0x7F;
  return op;
}

double ulp_of(DType t, double v) {
  const double a = std::fabs(v);
  const int man = t == DType::FP32 ? 23 : (t == DType::BF16 ? 7 : 10);
  const int min_exp = t == DType::FP16 ? -14 : -126;
  int e = a > 0 ? std::ilogb(a) : min_exp;
  if (e < min_exp) e = min_exp;
  return std::ldexp(1.0, e - man);
}

// Compares a GPU result with the reference as the header comment explains.
void expect_matches_reference(const HostMxOperand& a, const HostMxOperand& b, const GpuResult& g,
                              float alpha, const std::string& what) {
  const DType out = g.out.dtype;
  SCOPED_TRACE(what);
  if (g.unsupported) return;  // refused with UnsupportedError by this backend (checked above)
  EXPECT_TRUE(g.guards_intact) << "something was written outside the buffers";
  EXPECT_TRUE(g.gap_untouched) << "the gap between output rows was written";
  EXPECT_EQ(g.unwritten, 0) << "output elements left unwritten";
  const HostOutput ref = run_reference(a, b, out, alpha);
  const HostOutput exact = run_reference(a, b, DType::FP32, alpha);
  const HostOutput abs_sum = run_reference(absolute(a), absolute(b), DType::FP32, std::fabs(alpha));
  const double k_term = static_cast<double>(a.k) * std::ldexp(1.0, -24);
  double err2 = 0, ref2 = 0;
  std::int64_t equal = 0, bad = 0, total = 0;
  for (std::int64_t i = 0; i < g.out.rows; ++i) {
    for (std::int64_t j = 0; j < g.out.cols; ++j) {
      const double gv = g.out.at(i, j), rv = ref.at(i, j), ev = exact.at(i, j);
      ++total;
      if (std::isnan(rv) || std::isnan(gv)) {
        if (std::isnan(rv) != std::isnan(gv) && bad++ < 5)
          ADD_FAILURE() << "NaN mismatch at (" << i << "," << j << "): gpu " << gv << " ref " << rv;
        equal += std::isnan(rv) && std::isnan(gv);
        continue;
      }
      equal += gv == rv;
      if (std::isinf(rv) || std::isinf(gv)) {
        if (gv != rv && bad++ < 5)
          ADD_FAILURE() << "Inf mismatch at (" << i << "," << j << "): gpu " << gv << " ref " << rv;
        continue;
      }
      err2 += (gv - rv) * (gv - rv);
      ref2 += rv * rv;
      const double tol = ulp_of(out, ev) + k_term * abs_sum.at(i, j);
      if (!(std::fabs(gv - ev) <= tol) && bad++ < 5)
        ADD_FAILURE() << "element (" << i << "," << j << "): gpu " << gv << " exact " << ev
                      << " |diff| " << std::fabs(gv - ev) << " > tol " << tol;
    }
  }
  EXPECT_EQ(bad, 0) << bad << " elements out of tolerance";
  if (out == DType::FP32) {
    EXPECT_GT(ref2, 0.0) << "vacuous: reference is all zero";
    EXPECT_LT(std::sqrt(err2 / ref2), 1e-5) << "relative Frobenius error";
  } else {
    EXPECT_GE(static_cast<double>(equal), 0.99 * static_cast<double>(total))
        << equal << " of " << total << " elements equal the correctly rounded reference";
  }
}

std::mt19937 fresh_rng() {
  const unsigned seed = std::random_device{}();
  std::printf("[ seed     ] %u\n", seed);
  return std::mt19937(seed);
}

struct Shape {
  std::int64_t m, n, k;
};

std::string describe(const Shape& s, DType out, ScaleLayout l) {
  std::ostringstream os;
  os << s.m << "x" << s.n << "x" << s.k << " out=" << dtype_name(out) << " scales=" << layout_name(l);
  return os.str();
}

// Shapes that are not tile multiples (tiles are 128 x 256 x 64), K with a short last block.
const Shape kShapes[] = {{1, 16, 32},     {1, 8192, 8192},   {129, 136, 48},  {7, 300, 16},
                         {1000, 1000, 1008}, {255, 257, 4112}, {4097, 2050, 4112}};

TEST(GpuGemm, MatchesReferenceAcrossShapesOutputsLayouts) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  int variant = 0;
  for (const Shape& s : kShapes) {
    const bool big = s.m * s.n * s.k > (std::int64_t{1} << 32);
    for (DType out : {DType::FP32, DType::BF16, DType::FP16}) {
      for (ScaleLayout l : {ScaleLayout::Swizzled128x4, ScaleLayout::Linear}) {
        if (big && variant++ % 3 != 0) continue;  // the largest shape: a third of the combinations
        MxOptions o;
        o.layout = l;
        const HostMxOperand a = random_mx_operand(s.m, s.k, rng, o);
        const HostMxOperand b = random_mx_operand(s.n, s.k, rng, o);
        expect_matches_reference(a, b, run_gpu(a, b, out, 1.0f), 1.0f, describe(s, out, l));
      }
    }
  }
}

TEST(GpuGemm, ElementTypesStridesAndAlpha) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  const DType pairs[][2] = {{DType::E5M2, DType::E5M2}, {DType::E4M3, DType::E5M2}, {DType::E5M2, DType::E4M3}};
  for (const auto& pr : pairs) {
    MxOptions oa, ob;
    oa.dtype = pr[0];
    ob.dtype = pr[1];
    oa.scale_lo = ob.scale_lo = 110;  // E5M2 elements reach 57344: smaller scales keep FP16 finite
    oa.scale_hi = ob.scale_hi = 118;
    oa.data_stride_pad = 16;
    ob.data_stride_pad = 48;
    ob.layout = ScaleLayout::Linear;
    ob.scale_stride_pad = 5;
    const HostMxOperand a = random_mx_operand(300, 272, rng, oa);
    const HostMxOperand b = random_mx_operand(520, 272, rng, ob);
    const float alpha = -0.375f;
    for (DType out : {DType::FP32, DType::BF16, DType::FP16})
      expect_matches_reference(a, b, run_gpu(a, b, out, alpha, /*d_pad=*/3), alpha,
                               std::string(dtype_name(pr[0])) + " x " + dtype_name(pr[1]) + " out=" + dtype_name(out));
  }
}

TEST(GpuGemm, NanScalesAndElementsPropagate) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  HostMxOperand a = random_mx_operand(200, 160, rng);
  HostMxOperand b = random_mx_operand(300, 160, rng);
  a.set_scale(5, 2, kScaleNaN);           // row 5 of D is NaN
  b.set_code(7, 131, nan_code(b.dtype));  // column 7 of D is NaN
  b.set_scale(290, 4, kScaleNaN);         // column 290 of D is NaN (scale of the last block)
  const GpuResult g = run_gpu(a, b, DType::FP32, 1.0f);
  if (g.unsupported) GTEST_SKIP() << "FP32 output is not supported by this backend";
  std::int64_t nans = 0;
  for (std::int64_t i = 0; i < 200; ++i)
    for (std::int64_t j = 0; j < 300; ++j) {
      const bool expect_nan = i == 5 || j == 7 || j == 290;
      EXPECT_EQ(std::isnan(g.out.at(i, j)), expect_nan) << "(" << i << "," << j << ")";
      nans += std::isnan(g.out.at(i, j));
    }
  EXPECT_EQ(nans, 300 + 2 * 200 - 2);
  expect_matches_reference(a, b, g, 1.0f, "NaN inputs");
}

// Scale bytes at both ends of the range in which every dequantized E4M3 element is a normal
// bf16 (2^(s-127) * [2^-9, 448] within [2^-126, 2^127]: bytes 10..245). Products and sums
// then stay exact up to fp32 accumulation, tiny and huge operands mixed included.
TEST(GpuGemm, ExtremeScalesInsideTheExactRangeBehaveAsTheReference) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  struct Range { int lo, hi; const char* name; };
  const Range ranges[][2] = {{{10, 20, "tiny"}, {235, 245, "huge"}},
                             {{235, 245, "huge"}, {10, 20, "tiny"}},
                             {{10, 20, "tiny"}, {200, 210, "large"}},
                             {{200, 210, "large"}, {60, 70, "small"}}};
  for (const auto& r : ranges) {
    MxOptions oa, ob;
    oa.scale_lo = r[0].lo; oa.scale_hi = r[0].hi;
    ob.scale_lo = r[1].lo; ob.scale_hi = r[1].hi;
    const HostMxOperand a = random_mx_operand(130, 96, rng, oa);
    const HostMxOperand b = random_mx_operand(140, 96, rng, ob);
    for (DType out : {DType::FP32, DType::BF16})
      expect_matches_reference(a, b, run_gpu(a, b, out, 1.0f), 1.0f,
                               std::string("A ") + r[0].name + ", B " + r[1].name + ", out=" + dtype_name(out));
  }
}

// Scale bytes 0..9 and 246..254 put some dequantized elements outside bf16's normal range;
// the sm_90 kernel dequantizes each operand to bf16 before the tensor cores, so these
// elements flush or overflow and results differ from the exact reference (NaN where an
// overflowed operand meets a flushed one). Known limitation of issue #3, documented in
// docs/hopper-kernel.md; this test measures it and is reported as skipped until it is fixed.
TEST(GpuGemm, ExtremeScalesOutsideTheExactRange) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  MxOptions oa, ob;
  oa.scale_lo = 0; oa.scale_hi = 10;
  ob.scale_lo = 245; ob.scale_hi = 254;
  const HostMxOperand a = random_mx_operand(130, 96, rng, oa);
  const HostMxOperand b = random_mx_operand(140, 96, rng, ob);
  const GpuResult g = run_gpu(a, b, DType::FP32, 1.0f);
  if (g.unsupported) GTEST_SKIP() << "FP32 output is not supported by this backend";
  const HostOutput ref = run_reference(a, b, DType::FP32, 1.0f);
  std::int64_t differ = 0;
  for (std::int64_t i = 0; i < 130; ++i)
    for (std::int64_t j = 0; j < 140; ++j) {
      const double x = g.out.at(i, j), y = ref.at(i, j);
      differ += !(x == y || (std::isnan(x) && std::isnan(y)) ||
                  std::fabs(x - y) <= 1e-5 * std::fabs(y));
    }
  if (differ > 0)
    GTEST_SKIP() << "known limitation (issue #3): " << differ << " of " << 130 * 140
                 << " outputs differ from the exact reference for scale bytes 0..10 x 245..254";
}

TEST(GpuGemm, TwoRunsAreBitwiseIdentical) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  const HostMxOperand a = random_mx_operand(777, 1040, rng);
  const HostMxOperand b = random_mx_operand(1500, 1040, rng);
  const GpuResult r1 = run_gpu(a, b, DType::FP32, 1.0f);
  if (r1.unsupported) GTEST_SKIP() << "FP32 output is not supported by this backend";
  const GpuResult r2 = run_gpu(a, b, DType::FP32, 1.0f);
  EXPECT_EQ(r1.out.bytes, r2.out.bytes);
}

TEST(GpuGemm, RejectsHostPointersDeclaredDevice) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  const HostMxOperand a = random_mx_operand(64, 64, rng);
  const HostMxOperand b = random_mx_operand(64, 64, rng);
  DeviceMxOperand db(b);
  GuardedDeviceBuffer dd(64 * 64 * 4), dalpha(4);
  const MatrixView d(dd.data(), 64, 64, 64, DType::FP32, Memory::Device);
  try {
    mxfp8_scaled_mm(a.view(Memory::Device), db.view, static_cast<const float*>(dalpha.data()), d);
    FAIL() << "host memory declared Device was accepted";
  } catch (const ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("a.data.data: expected device memory, got host memory"),
              std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mxgemm::testing
