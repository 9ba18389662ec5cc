// The weight-only GPU GEMM (mxfp8_weight_only_mm: BF16 activations x MXFP8 weight) against
// the exact reference, with the tolerance of gemm_test_utils.hpp (the kernel multiplies the
// exact bf16 activation by the exactly dequantized weight and sums in fp32; the bias is added
// in the same rounding as alpha): every element within one output ulp plus
// K * 2^-24 * sum_k |a_k w_k| (+ the bias term is exact), FP32 relative Frobenius error
// under 1e-5, 99% of FP16/BF16 outputs correctly rounded. Outputs poisoned, guard bands
// checked, M beyond one 128-row pass, K tails, both layouts, bias types, NaN.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/wide_random.hpp"
#include "cuda/common/current_device.hpp"
#include "cuda/sm90/stream_gemm_sm90.hpp"
#include "cuda/sm90/stream_schedule.hpp"
#include "gpu/gemm_test_utils.hpp"

namespace mxgemm::testing {
namespace {

// prepacked: the device copy of w prepacked in place by mxfp8_prepack_weight (KOrder::Prepacked);
// the reference keeps w as it is.
GpuResult run_weight_only(const HostWide& a, const HostMxOperand& w, const ConstMatrixView* bias,
                          DType out, float alpha, detail::Sm90Kernel kernel = detail::Sm90Kernel::Auto,
                          std::int64_t d_pad = 3, bool prepacked = false) {
  GpuResult r{HostOutput(out, a.rows, w.rows, d_pad)};
  poison(r.out);
  GuardedDeviceBuffer da(a.bits.size() * 2), dd(r.out.bytes.size()), dalpha(4);
  da.upload(a.bits.data());
  dd.upload(r.out.bytes.data());
  dalpha.upload(&alpha);
  DeviceMxOperand dw(w);
  if (prepacked) {
    const ConstMatrixView& v = dw.view.data;
    mxfp8_prepack_weight(v, MatrixView(dw.data.data(), v.rows, v.cols, v.row_stride, v.dtype, Memory::Device));
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    dw.view.order = KOrder::Prepacked;
  }
  ConstMatrixView av = a.view(Memory::Device);
  av.data = da.data();
  MatrixView dv = r.out.view(Memory::Device);
  dv.data = dd.data();
  std::unique_ptr<GuardedDeviceBuffer> dbias;
  ConstMatrixView bv;
  if (bias != nullptr) {
    dbias = std::make_unique<GuardedDeviceBuffer>(bias->cols * dtype_size(bias->dtype));
    dbias->upload(bias->data);
    bv = *bias;
    bv.data = dbias->data();
    bv.memory = Memory::Device;
  }
  try {
    const detail::ScopedSm90Kernel forced(kernel);
    mxfp8_weight_only_mm(av, dw.view, static_cast<const float*>(dalpha.data()),
                         bias != nullptr ? &bv : nullptr, dv);
  } catch (const UnsupportedError& e) {
    EXPECT_EQ(gemm_backend().name.find("sm90"), std::string::npos) << e.what();
    r.unsupported = true;
    return r;
  }
  collect(r, dd, da.guards_intact() && dw.data.guards_intact());
  return r;
}

// Where output element (r, c) starts in its bytes.
std::size_t output_offset(const HostOutput& o, std::int64_t r, std::int64_t c) {
  return static_cast<std::size_t>((r * o.stride + c) * dtype_size(o.dtype));
}

HostOutput weight_only_reference(const HostWide& a, const HostMxOperand& w, const ConstMatrixView* bias,
                                 DType out, float alpha) {
  HostOutput r(out, a.rows, w.rows);
  mxfp8_weight_only_mm_reference(a.view(), w.view(), alpha, bias, r.view());
  return r;
}

// n normal(0, 2) bias values as FP32 or BF16 bytes.
std::vector<std::uint8_t> random_bias(std::int64_t n, DType t, std::mt19937& rng) {
  std::vector<std::uint8_t> bytes(static_cast<size_t>(n * dtype_size(t)));
  std::normal_distribution<double> nd(0.0, 2.0);
  for (std::int64_t j = 0; j < n; ++j) {
    const double v = nd(rng);
    if (t == DType::FP32) { const float f = static_cast<float>(v); std::memcpy(&bytes[j * 4], &f, 4); }
    else { const std::uint16_t h = encode_bf16(v); std::memcpy(&bytes[j * 2], &h, 2); }
  }
  return bytes;
}

void expect_weight_only_matches(const HostWide& a, const HostMxOperand& w, const ConstMatrixView* bias,
                                float alpha, const GpuResult& g, const std::string& what) {
  if (g.unsupported) return;
  // The bias enters exactly in the reference and in one fused rounding on the GPU: the
  // summation bound is the one of the bias-free sum.
  expect_close(g, weight_only_reference(a, w, bias, g.out.dtype, alpha),
               weight_only_reference(a, w, bias, DType::FP32, alpha),
               weight_only_reference(a.absolute(), absolute(w), nullptr, DType::FP32, std::fabs(alpha)),
               a.cols, what);
}

TEST(GpuWeightOnly, MatchesReferenceAcrossShapesBiasAndLayouts) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  // M within one 128-row tile, exactly one, and several; more than two waves of tiles (the
  // data-parallel part of the work split); N and K tails. Activation row pitches alternate
  // between 16-byte multiples (TMA reads the activation in place) and odd ones (pre-pass copy).
  const std::int64_t shapes[][3] = {{1, 16, 32},     {37, 520, 1008},  {128, 300, 4112}, {129, 136, 272},
                                    {300, 257, 2064}, {2100, 2100, 1040}};
  int variant = 0;
  for (const auto& s : shapes) {
    MxOptions o;
    o.layout = variant % 2 == 0 ? ScaleLayout::Swizzled128x4 : ScaleLayout::Linear;
    const DType out = variant % 3 == 0 ? DType::FP32 : (variant % 3 == 1 ? DType::BF16 : DType::FP16);
    const DType bias_t = variant % 3 == 0 ? DType::BF16 : DType::FP32;
    ++variant;
    const HostWide a = random_wide(s[0], s[2], DType::BF16, rng, 1.0, /*stride_pad=*/variant % 2 == 0 ? 8 : 5);
    const HostMxOperand w = random_mx_operand(s[1], s[2], rng, o);
    const std::vector<std::uint8_t> bias_bytes = random_bias(s[1], bias_t, rng);
    const ConstMatrixView bias(bias_bytes.data(), 1, s[1], s[1], bias_t, Memory::Host);
    for (const bool with_bias : {false, true}) {
      const float alpha = with_bias ? -0.75f : 1.0f;
      const ConstMatrixView* b = with_bias ? &bias : nullptr;
      expect_weight_only_matches(a, w, b, alpha, run_weight_only(a, w, b, out, alpha),
                                 std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]) +
                                     " out=" + dtype_name(out) + (with_bias ? " bias" : ""));
    }
  }
}

// 16-bit outputs whose row pitch is a multiple of 8 elements leave the two-warpgroup tiles
// (33..256 activation rows a tile) through shared memory in 16-byte pieces (store_staged), the
// bias added before the rounding: M and N tails inside a piece, bias types BF16 and FP32.
TEST(GpuWeightOnly, StagedStoreWithBiasCoversTails) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  // {M, N, K, D's row gap}: N + gap a multiple of 8.
  const std::int64_t shapes[][4] = {{37, 300, 1008, 4}, {200, 1006, 2064, 2}, {600, 520, 1040, 0}, {129, 2050, 272, 6}};
  int variant = 0;
  for (const auto& s : shapes) {
    const DType out = variant % 2 == 0 ? DType::BF16 : DType::FP16;
    const DType bias_t = variant % 2 == 0 ? DType::FP32 : DType::BF16;
    ++variant;
    const HostWide a = random_wide(s[0], s[2], DType::BF16, rng, 1.0, /*stride_pad=*/8);
    const HostMxOperand w = random_mx_operand(s[1], s[2], rng);
    const std::vector<std::uint8_t> bias_bytes = random_bias(s[1], bias_t, rng);
    const ConstMatrixView bias(bias_bytes.data(), 1, s[1], s[1], bias_t, Memory::Host);
    expect_weight_only_matches(a, w, &bias, -0.75f,
                               run_weight_only(a, w, &bias, out, -0.75f, detail::Sm90Kernel::Auto, s[3]),
                               shape_name(s[0], s[1], s[2]) + " out=" + dtype_name(out) + " bias=" +
                                   dtype_name(bias_t) + " row gap " + std::to_string(s[3]));
  }
}

// Tiles of 192 rows (width_192_taken, wgmma n = 192): one (129..192 rows), two (300) and three
// (520). BF16 activations read in place and copied by the pre-pass (an odd row pitch), FP16 ones,
// N and K tails, K = 8192 (BF16 out's whole unpromoted chain) and 4112 (FP32 out, promoted), bias
// and alpha, every row written and nothing outside; the same bits on a second run. (FP16 activations: weight
// scales in their fp16 window, as in Fp16ActivationsMatchReference.)
TEST(GpuWeightOnly, TilesOf192RowsMatchReference) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  struct Case {
    std::int64_t m, n, k, stride_pad;
    DType a, out;
  };
  const Case cases[] = {{129, 1030, 8192, 8, DType::BF16, DType::BF16}, {160, 520, 2032, 5, DType::BF16, DType::FP16},
                        {192, 300, 4112, 0, DType::BF16, DType::FP32},  {150, 257, 1008, 0, DType::FP16, DType::BF16},
                        {177, 136, 4112, 3, DType::FP16, DType::FP32},  {300, 520, 1040, 8, DType::BF16, DType::BF16},
                        {520, 136, 2064, 0, DType::FP16, DType::FP32}};
  for (const Case& c : cases) {
    ASSERT_TRUE(sm90::width_192_taken(detail::stream_width_192(), c.m));
    ASSERT_TRUE(sm90::wide_tiles_preferred(c.out, c.k)) << "the 128-row tiles would run";
    const HostWide a = random_wide(c.m, c.k, c.a, rng, 1.0, c.stride_pad);
    MxOptions o;
    if (c.a == DType::FP16) o.scale_lo = 106, o.scale_hi = 122;
    const HostMxOperand w = random_mx_operand(c.n, c.k, rng, o);
    const std::vector<std::uint8_t> bias_bytes = random_bias(c.n, DType::FP32, rng);
    const ConstMatrixView bias(bias_bytes.data(), 1, c.n, c.n, DType::FP32, Memory::Host);
    const std::string what = std::string(dtype_name(c.a)) + " a, " + shape_name(c.m, c.n, c.k) + " out=" +
                             dtype_name(c.out) + " pad=" + std::to_string(c.stride_pad);
    const GpuResult g = run_weight_only(a, w, &bias, c.out, -0.75f);
    if (g.unsupported) GTEST_SKIP() << "no weight-only kernel on this backend";
    EXPECT_TRUE(g.guards_intact && g.gap_untouched) << what << ": written outside the output";
    EXPECT_EQ(g.unwritten, 0) << what << ": outputs left unwritten";
    expect_weight_only_matches(a, w, &bias, -0.75f, g, what);
    EXPECT_EQ(g.out.bytes, run_weight_only(a, w, &bias, c.out, -0.75f).out.bytes) << what << ": a second run differs";
  }
}

// Up to 16 rows: the skinny kernel (activation rows 16-byte aligned: pitch pad 8) and the
// streaming kernel (forced, and what an unaligned pitch runs), with bias and alpha, N and K
// tails, a K cut into several ranges per tile.
// (3 and 5 rows: activation boxes of fewer rows than the skinny kernel's 8-row stage.)
TEST(GpuWeightOnly, SmallMOnBothKernels) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  const std::int64_t nk[][2] = {{136, 272}, {520, 1008}, {300, 4112}, {1040, 8192}};
  const struct { detail::Sm90Kernel kernel; const char* name; } kernels[] = {
      {detail::Sm90Kernel::Skinny, "skinny"}, {detail::Sm90Kernel::Streaming, "streaming"}};
  int variant = 0;
  for (const auto& kc : kernels)
    for (std::int64_t m : {1, 2, 3, 5, 7, 8, 9, 16})
      for (const auto& s : nk) {
        MxOptions o;
        o.layout = variant % 2 == 0 ? ScaleLayout::Swizzled128x4 : ScaleLayout::Linear;
        o.dtype = variant % 5 == 0 ? DType::E5M2 : DType::E4M3;
        if (o.dtype == DType::E5M2) o.scale_lo = 110, o.scale_hi = 118;
        const DType out = variant % 3 == 0 ? DType::FP32 : (variant % 3 == 1 ? DType::BF16 : DType::FP16);
        const bool with_bias = variant % 2 == 1;
        const std::int64_t pad = variant % 4 == 3 ? 5 : 8;
        ++variant;
        const HostWide a = random_wide(m, s[1], DType::BF16, rng, 1.0, pad);
        const HostMxOperand w = random_mx_operand(s[0], s[1], rng, o);
        std::vector<std::uint8_t> bias_bytes(static_cast<size_t>(s[0] * 4));
        std::normal_distribution<double> nd(0.0, 2.0);
        for (std::int64_t j = 0; j < s[0]; ++j) {
          const float f = static_cast<float>(nd(rng));
          std::memcpy(&bias_bytes[j * 4], &f, 4);
        }
        const ConstMatrixView bias(bias_bytes.data(), 1, s[0], s[0], DType::FP32, Memory::Host);
        const float alpha = with_bias ? -0.75f : 1.0f;
        const ConstMatrixView* b = with_bias ? &bias : nullptr;
        expect_weight_only_matches(a, w, b, alpha, run_weight_only(a, w, b, out, alpha, kc.kernel),
                                   std::string(kc.name) + " " + shape_name(m, s[0], s[1]) + " out=" + dtype_name(out) + " pad=" +
                                       std::to_string(pad) + (with_bias ? " bias" : ""));
      }
}

TEST(GpuWeightOnly, NanPropagatesAndRunsAreBitwiseIdentical) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  HostWide a = random_wide(70, 1040, DType::BF16, rng);
  HostMxOperand w = random_mx_operand(900, 1040, rng);
  a.bits[4 * a.stride + 100] = 0x7FC0;  // row 4 NaN
  w.set_scale(33, 7, kScaleNaN);        // column 33 NaN
  const GpuResult r1 = run_weight_only(a, w, nullptr, DType::FP32, 1.0f);
  if (r1.unsupported) GTEST_SKIP() << "no weight-only kernel on this backend";
  for (std::int64_t i = 0; i < 70; ++i)
    for (std::int64_t j = 0; j < 900; ++j)
      ASSERT_EQ(std::isnan(r1.out.at(i, j)), i == 4 || j == 33) << "(" << i << "," << j << ")";
  const GpuResult r2 = run_weight_only(a, w, nullptr, DType::FP32, 1.0f);
  EXPECT_EQ(r1.out.bytes, r2.out.bytes);
  // The same for 9 rows (the skinny kernel), K cut into several ranges per tile.
  HostWide a9 = random_wide(9, 8192, DType::BF16, rng);
  HostMxOperand w9 = random_mx_operand(300, 8192, rng);
  a9.bits[4 * a9.stride + 5000] = 0x7FC0;  // row 4 NaN
  w9.set_scale(33, 200, kScaleNaN);        // column 33 NaN
  const GpuResult s1 = run_weight_only(a9, w9, nullptr, DType::FP32, 1.0f);
  for (std::int64_t i = 0; i < 9; ++i)
    for (std::int64_t j = 0; j < 300; ++j)
      ASSERT_EQ(std::isnan(s1.out.at(i, j)), i == 4 || j == 33) << "9 rows (" << i << "," << j << ")";
  const GpuResult s2 = run_weight_only(a9, w9, nullptr, DType::FP32, 1.0f);
  EXPECT_EQ(s1.out.bytes, s2.out.bytes) << "9 rows";
  // The same for 12 and 30 rows forced on the streaming kernel: its four-warpgroup tiles (16
  // and 32 rows) carry the weight's scales as bf16 lanes, where a NaN scale becomes +Inf and
  // sends its tile to the exact path (scale_window.cuh); one of the NaN blocks is the short
  // last block of K (K % 32 == 16).
  for (const std::int64_t rows : {12, 30}) {
    HostWide ar = random_wide(rows, 1040, DType::BF16, rng);
    HostMxOperand wr = random_mx_operand(300, 1040, rng);
    ar.bits[4 * ar.stride + 100] = 0x7FC0;  // row 4 NaN
    wr.set_scale(33, 7, kScaleNaN);          // column 33 NaN
    wr.set_scale(290, 32, kScaleNaN);        // column 290 NaN (the last block)
    const GpuResult g = run_weight_only(ar, wr, nullptr, DType::FP32, 1.0f, detail::Sm90Kernel::Streaming);
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < 300; ++j)
        ASSERT_EQ(std::isnan(g.out.at(i, j)), i == 4 || j == 33 || j == 290)
            << rows << " rows (" << i << "," << j << ")";
  }
}

// A tile's activation rows past M (in shared memory past the boxes of M rows,
// activation_box_rows, and the codes form's block scales' columns past M in the workspace) hold
// what an earlier launch left: NaN rows of a launch of more rows must not reach the next one's
// output (GpuStreamGemm.StaleRowsPastMStayOutOfTheOutput has the MXFP8 side). Each case runs
// `full` rows whose rows from m on are NaN, then their first m rows, on the same K. Through the
// workspace: the codes form's pre-pass (8 rows, then 3), the copy of rows TMA cannot read in
// place (a row stride of 4100 elements: 40 rows, then 33, the 64-row split in clusters at N =
// 1000, K = 4096). In place: 13 rows (16-row values form; also FP16), 27 (32 rows), 33 (the
// 64-row split in clusters), 50 (64-row tiles), 100 (128), 150 (192), 200 (256) and 300 (two
// of 192).
TEST(GpuWeightOnly, StaleRowsPastMStayOutOfTheOutput) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  struct Case {
    std::int64_t full, m, n, k, stride_pad;
    DType dtype;
  };
  const Case cases[] = {{8, 3, 300, 4112, 0, DType::BF16},     {40, 33, 1000, 4096, 4, DType::BF16},
                        {16, 13, 300, 1040, 0, DType::BF16},   {16, 11, 300, 1040, 0, DType::FP16},
                        {32, 27, 300, 4112, 0, DType::BF16},   {64, 33, 1000, 4096, 0, DType::BF16},
                        {64, 50, 300, 2048, 0, DType::BF16},   {128, 100, 300, 1040, 0, DType::BF16},
                        {192, 150, 300, 1040, 0, DType::BF16}, {256, 200, 300, 1040, 0, DType::BF16},
                        {384, 300, 300, 1040, 0, DType::BF16}};
  for (const Case& c : cases) {
    HostWide full = random_wide(c.full, c.k, c.dtype, rng, 1.0, c.stride_pad);
    const HostMxOperand w = random_mx_operand(c.n, c.k, rng);
    HostWide a = full;
    a.rows = c.m;
    a.bits.resize(static_cast<size_t>(c.m * a.stride));
    const std::uint16_t nan = c.dtype == DType::FP16 ? 0x7E00 : 0x7FC0;
    for (std::int64_t r = c.m; r < c.full; ++r)
      for (std::int64_t col = 0; col < c.k; ++col) full.bits[r * full.stride + col] = nan;
    const std::string what = std::string(dtype_name(c.dtype)) + " " + shape_name(c.m, c.n, c.k) + " after " +
                             std::to_string(c.full) + " rows";
    const GpuResult poisoned = run_weight_only(full, w, nullptr, DType::BF16, 1.0f, detail::Sm90Kernel::Streaming);
    if (poisoned.unsupported) GTEST_SKIP() << "no weight-only kernel on this backend";
    const GpuResult g = run_weight_only(a, w, nullptr, DType::BF16, 1.0f, detail::Sm90Kernel::Streaming);
    EXPECT_TRUE(g.guards_intact && g.gap_untouched) << what << ": written outside the output";
    EXPECT_EQ(g.unwritten, 0) << what << ": outputs left unwritten";
    expect_weight_only_matches(a, w, nullptr, 1.0f, g, what);
  }
}

// K split among a CTA's warpgroups (GpuStreamGemm.SplitKAmongWarpgroupsMatchesReference
// has the MXFP8 side), forced: one tile a CTA (Always), and each tile's K split among a
// cluster of CTAs too (Clusters: 9 tiles of 520 rows, clusters of 4 at K = 2080, of 8 at
// 4112). M = 5 (the 8-row codes form), 13 (the 16-row values form, its fp32 sum in shared
// memory), 30 (the 32-row values form, natural K order), 40 and 64 (the 64-row one, two parts);
// K = 2080 and 4112 (uneven parts, a short last one). Against the reference, bitwise the same run to run, NaN where it feeds, and
// tiny weight blocks through the exact path.
TEST(GpuWeightOnly, SplitKAmongWarpgroupsMatchesReference) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  for (const detail::StreamSplitK mode : {detail::StreamSplitK::Always, detail::StreamSplitK::Clusters})
    for (const std::int64_t m : {5, 13, 30, 40, 64})
      for (const std::int64_t k : {2080, 4112}) {
        const detail::ScopedStreamSplitK split(mode);
        const std::string what = std::string(mode == detail::StreamSplitK::Clusters ? "split K in clusters, " : "split K, ") +
                                 std::to_string(m) + " x 520 x " + std::to_string(k);
        HostWide a = random_wide(m, k, DType::BF16, rng);
        HostMxOperand w = random_mx_operand(520, k, rng);
        const GpuResult g = run_weight_only(a, w, nullptr, DType::FP32, 0.75f, detail::Sm90Kernel::Streaming);
        if (g.unsupported) GTEST_SKIP() << "no weight-only kernel on this backend";
        expect_weight_only_matches(a, w, nullptr, 0.75f, g, what);
        EXPECT_EQ(g.out.bytes, run_weight_only(a, w, nullptr, DType::FP32, 0.75f, detail::Sm90Kernel::Streaming).out.bytes)
            << what << ": a second run differs";
        a.bits[2 * a.stride + 1500] = 0x7FC0;  // row 2 NaN (K 1500: 128-K stage 11, part 3)
        w.set_scale(33, (k + 31) / 32 - 1, kScaleNaN);  // column 33 NaN (the last block)
        const GpuResult nan = run_weight_only(a, w, nullptr, DType::FP32, 1.0f, detail::Sm90Kernel::Streaming);
        for (std::int64_t i = 0; i < m; ++i)
          for (std::int64_t j = 0; j < 520; ++j)
            ASSERT_EQ(std::isnan(nan.out.at(i, j)), i == 2 || j == 33) << what << " (" << i << "," << j << ")";
        MxOptions tiny;
        tiny.scale_lo = 0;
        tiny.scale_hi = 10;
        const HostWide a2 = random_wide(m, k, DType::BF16, rng);
        const HostMxOperand wt = random_mx_operand(520, k, rng, tiny);
        const GpuResult e = run_weight_only(a2, wt, nullptr, DType::FP32, 1.0f, detail::Sm90Kernel::Streaming);
        EXPECT_EQ(count_differences(e.out, weight_only_reference(a2, wt, nullptr, DType::FP32, 1.0f)), 0)
            << what << ", tiny weights";
      }
}

// The split's values forms at long K (GpuStreamGemm.SplitKValuesFormOfLongKMatchesReference):
// 13 rows (the 16-row values form), 30 (the 32-row form, natural K order) and 50 (the 64-row
// one) at K = 65536,
// forced, every output type; the error is printed as the margin.
TEST(GpuWeightOnly, SplitKValuesFormOfLongKMatchesReference) {
  MXGEMM_REQUIRE_GPU();
  const detail::ScopedStreamSplitK split(detail::StreamSplitK::Always);
  std::mt19937 rng = fresh_rng();
  const std::int64_t n = 136, k = 65536;
  for (const std::int64_t m : {13, 30, 50}) {
    const HostWide a = random_wide(m, k, DType::BF16, rng);
    const HostMxOperand w = random_mx_operand(n, k, rng);
    for (DType out : {DType::FP32, DType::BF16, DType::FP16}) {
      const std::string what = "split K, " + std::to_string(m) + " x 136 x 65536 " + dtype_name(out);
      const GpuResult g = run_weight_only(a, w, nullptr, out, 1.0f, detail::Sm90Kernel::Streaming);
      if (g.unsupported) GTEST_SKIP() << "no weight-only kernel on this backend";
      EXPECT_TRUE(g.guards_intact && g.gap_untouched) << what << ": written outside the output";
      const CloseStats c = expect_close(g, weight_only_reference(a, w, nullptr, out, 1.0f),
                                        weight_only_reference(a, w, nullptr, DType::FP32, 1.0f),
                                        weight_only_reference(a.absolute(), absolute(w), nullptr, DType::FP32, 1.0f),
                                        k, what);
      print_margin(what, c);
    }
  }
}

// Weight scale bytes outside the exact window (scale_window.cuh): tiny (0..10), huge
// (245..254) and any (0..254) weights on the skinny kernel (3 rows), the streaming kernel's
// codes form (5 rows, forced) and values form (9, 40, 130 rows), whole tiles and tiles split
// along K. Their tiles go through the exact fp64 path, so every FP32 output is the
// reference's (count_differences), infinities included.
TEST(GpuWeightOnly, WeightScalesOutsideTheExactRangeBehaveAsTheReference) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  using K = detail::Sm90Kernel;
  const struct { std::int64_t m, k; K kernel; } shapes[] = {{3, 112, K::Auto},       {5, 112, K::Streaming},
                                                             {5, 4096, K::Streaming}, {9, 4096, K::Auto},
                                                             {40, 112, K::Auto},      {130, 4096, K::Auto}};
  const struct { int lo, hi; const char* name; } ranges[] = {{0, 10, "tiny"}, {245, 254, "huge"}, {0, 254, "any"}};
  for (const auto& s : shapes)
    for (const auto& r : ranges) {
      const HostWide a = random_wide(s.m, s.k, DType::BF16, rng);
      MxOptions o;
      o.scale_lo = r.lo;
      o.scale_hi = r.hi;
      const HostMxOperand w = random_mx_operand(140, s.k, rng, o);
      const GpuResult g = run_weight_only(a, w, nullptr, DType::FP32, 1.0f, s.kernel);
      if (g.unsupported) GTEST_SKIP() << "no weight-only kernel on this backend";
      EXPECT_TRUE(g.guards_intact && g.gap_untouched) << r.name << ": written outside the output";
      EXPECT_EQ(g.unwritten, 0) << r.name << ": outputs left unwritten";
      EXPECT_EQ(count_differences(g.out, weight_only_reference(a, w, nullptr, DType::FP32, 1.0f)), 0)
          << r.name << " weight scales, " << s.m << " x 140 x " << s.k;
    }
}

// The exactness probes' operands: random bf16 rows with row 1 zero but for `big` at column 0
// and `small` at column 7 and an infinity at row 3, column 100; and a 300-row weight whose
// column 0 is zero, so that row 1's only term is its column 7.
HostWide probe_activation(std::int64_t m, std::int64_t k, double big, double small, std::mt19937& rng) {
  HostWide a = random_wide(m, k, DType::BF16, rng, 1.0, /*stride_pad=*/8);
  for (std::int64_t j = 0; j < k; ++j) a.set(1, j, 0.0);
  a.set(1, 0, big);
  a.set(1, 7, small);
  a.set(3, 100, INFINITY);
  return a;
}
HostMxOperand probe_weight(std::int64_t k, std::mt19937& rng, const MxOptions& o) {
  HostMxOperand w = random_mx_operand(300, k, rng, o);
  for (std::int64_t n = 0; n < w.rows; ++n) w.set_code(n, 0, 0);
  return w;
}

// Up to 8 rows on the streaming kernel take the codes form: each 32-block of the activation as
// fp16 codes at one power-of-two scale (activation_prepass.cu). Each case puts one block into
// row 1 of an otherwise ordinary activation, against a weight whose column 0 is zero, so that
// row 1's outputs are the products of the block's small element alone:
//  - "wide": 2^20 and 1.9921875 * 2^-11 (2^31 apart, 8 significant bits): exact fp16 codes at
//    the block's scale, the fast path (checked with the summation tolerance);
//  - "lossy": 2^20 and (1 + 2^-7) * 2^-13, whose last bit fp16 cannot keep at that scale;
//  - "subnormal": a bf16 subnormal; "huge": 2^100; "tiny": 2^-70 (outside [2^-63, 2^63)).
// The last four mark their row for the exact fp64 path, and every tile holds row 1, so every
// FP32 output must be the reference's (count_differences); "lossy" and "subnormal" would lose
// their only term on the fast path (0.8% and all of it). 5 and 8 rows, whole tiles and K cut
// among CTAs; an infinity elsewhere in the activation stays one.
TEST(GpuWeightOnly, CodesFormKeepsOrMarksActivationBlocksExactly) {
  MXGEMM_REQUIRE_GPU();
  if (gemm_backend().name.find("sm90") == std::string::npos) GTEST_SKIP() << "the codes form is the sm_90 path's";
  std::mt19937 rng = fresh_rng();
  const struct { double big, small; const char* name; bool marked; } cases[] = {
      {std::ldexp(1.0, 20), std::ldexp(1.9921875, -11), "wide", false},
      {std::ldexp(1.0, 20), std::ldexp(1.0078125, -13), "lossy", true},
      {0.0, std::ldexp(1.0, -130), "subnormal", true},
      {0.0, std::ldexp(1.0, 100), "huge", true},
      {0.0, std::ldexp(1.0, -70), "tiny", true}};
  for (const std::int64_t m : {5, 8})
    for (const std::int64_t k : {1040, 8192})
      for (const auto& c : cases) {
        const HostWide a = probe_activation(m, k, c.big, c.small, rng);
        ASSERT_EQ(a.at(1, 7), c.small) << c.name << ": the test value must be a bf16 value";
        const HostMxOperand w = probe_weight(k, rng, MxOptions{});
        const std::string what = std::string(c.name) + " block, " + shape_name(m, 300, k);
        const GpuResult g = run_weight_only(a, w, nullptr, DType::FP32, 1.0f, detail::Sm90Kernel::Streaming);
        EXPECT_TRUE(g.guards_intact && g.gap_untouched) << what << ": written outside the output";
        EXPECT_EQ(g.unwritten, 0) << what << ": outputs left unwritten";
        if (c.marked)
          EXPECT_EQ(count_differences(g.out, weight_only_reference(a, w, nullptr, DType::FP32, 1.0f)), 0) << what;
        else
          expect_weight_only_matches(a, w, nullptr, 1.0f, g, what);
        for (std::int64_t n = 0; n < w.rows; ++n)
          EXPECT_FALSE(std::isfinite(g.out.at(3, n))) << what << ": row 3 has an infinity, column " << n;
      }
}

// FP16 activations take the streaming kernel's fp16 values form on sm_90 (kF16X in
// stream_gemm_kernel.cuh): the weight enters as code x 2^(s - 127 + kF16WeightShift) in fp16,
// exact inside the fp16 window (scale bytes 103..123 for E4M3, scale_window.cuh). Weight
// scales inside it (106..122: block maxima up to 448 x 2^-5), every row count form (1, 16, 17,
// 33, 65 rows; 130 and 300, the 192- and 256-row tiles; 2100, several waves), N and K tails,
// both layouts, bias, odd row pitches (the pre-pass copy), every output type; against the
// reference with the summation tolerance, bitwise the same run to run.
MxOptions fp16_window_scales(std::int64_t shape, ScaleLayout layout = ScaleLayout::Swizzled128x4) {
  MxOptions o;
  o.layout = layout;
  o.scale_lo = 106;
  o.scale_hi = 122;
  o.data_stride_pad = shape % 2 == 0 ? 0 : 16;
  return o;
}

TEST(GpuWeightOnly, Fp16ActivationsMatchReference) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  // (3 x 4104 x 8208: more than 2^25 weight elements, the codes form at up to 4 rows.)
  const std::int64_t shapes[][3] = {{1, 16, 32},     {5, 136, 1040},  {16, 272, 2064}, {17, 520, 1008},
                                    {33, 300, 4112}, {65, 136, 2080}, {130, 520, 1040}, {300, 257, 2064},
                                    {2100, 1100, 1040}, {3, 4104, 8208}};
  int variant = 0;
  for (const auto& s : shapes) {
    const ScaleLayout layout = variant % 2 == 0 ? ScaleLayout::Swizzled128x4 : ScaleLayout::Linear;
    const HostWide a = random_wide(s[0], s[2], DType::FP16, rng, 1.0, variant % 3 == 2 ? 3 : 0);
    const HostMxOperand w = random_mx_operand(s[1], s[2], rng, fp16_window_scales(variant, layout));
    const DType out = variant % 3 == 0 ? DType::FP32 : (variant % 3 == 1 ? DType::BF16 : DType::FP16);
    const std::vector<std::uint8_t> bias_bytes = random_bias(s[1], DType::FP32, rng);
    const ConstMatrixView bias(bias_bytes.data(), 1, s[1], s[1], DType::FP32, Memory::Host);
    const ConstMatrixView* b = variant % 2 == 1 ? &bias : nullptr;
    const float alpha = variant % 4 == 3 ? -0.375f : 1.0f;
    const std::string what = "fp16 a, " + std::to_string(s[0]) + " x " + std::to_string(s[1]) + " x " +
                             std::to_string(s[2]) + " " + dtype_name(out);
    const GpuResult g = run_weight_only(a, w, b, out, alpha);
    if (g.unsupported) GTEST_SKIP() << "no weight-only kernel for fp16 activations on this backend";
    EXPECT_TRUE(g.guards_intact && g.gap_untouched) << what << ": written outside the output";
    EXPECT_EQ(g.unwritten, 0) << what << ": outputs left unwritten";
    expect_weight_only_matches(a, w, b, alpha, g, what);
    EXPECT_EQ(g.out.bytes, run_weight_only(a, w, b, out, alpha).out.bytes) << what << ": a second run differs";
    ++variant;
  }
}

// BF16 activations of more than 16 rows on E4M3 weights in the fp16 values form (forced:
// detail::StreamMxValues::F16; the library picks it for 17..128 rows on the larger weights),
// through a pre-pass, where TMA could read them in place (launch_activation_f16_rows_prepass): each row
// at the power of two that puts its largest finite magnitude in [2^15, 2^16), in the permuted
// K order, the weight in its fp16 window (scale bytes 106..122 here). Every tile width (17, 40:
// 32- and 64-row tiles, 100, 300, 1000 rows), the split of K (forced), N and K tails, both
// layouts, bias, alpha, every output type, against the reference and bitwise the same run to
// run; the bf16 values form (forced, same call) matches the reference too, and the share of
// bitwise-equal outputs of the two forms is printed (equal where every fp16 operand is normal).
TEST(GpuWeightOnly, Bf16ActivationsInTheFp16FormMatchReference) {
  MXGEMM_REQUIRE_GPU();
  if (gemm_backend().name.find("sm90") == std::string::npos) GTEST_SKIP() << "the fp16 values form is the sm_90 path's";
  std::mt19937 rng = fresh_rng();
  const struct { std::int64_t m, n, k; bool split_k; } shapes[] = {
      {17, 520, 1008, false}, {40, 300, 4112, false}, {30, 520, 8192, true},     {100, 136, 2080, false},
      {300, 257, 2064, false}, {1000, 1100, 1040, false}, {64, 8200, 1040, false}};
  int variant = 0;
  for (const auto& s : shapes) {
    const detail::ScopedStreamSplitK split(s.split_k ? detail::StreamSplitK::Always : detail::StreamSplitK::Auto);
    const ScaleLayout layout = variant % 2 == 0 ? ScaleLayout::Swizzled128x4 : ScaleLayout::Linear;
    const HostWide a = random_wide(s.m, s.k, DType::BF16, rng, variant % 2 == 0 ? 1.0 : 300.0, /*stride_pad=*/8);
    const detail::ScopedStreamMxValues f16(detail::StreamMxValues::F16);
    const HostMxOperand w = random_mx_operand(s.n, s.k, rng, fp16_window_scales(0, layout));
    const DType out = variant % 3 == 0 ? DType::FP32 : (variant % 3 == 1 ? DType::BF16 : DType::FP16);
    const std::vector<std::uint8_t> bias_bytes = random_bias(s.n, DType::BF16, rng);
    const ConstMatrixView bias(bias_bytes.data(), 1, s.n, s.n, DType::BF16, Memory::Host);
    const ConstMatrixView* b = variant % 2 == 1 ? &bias : nullptr;
    const float alpha = variant % 4 == 3 ? -0.375f : 1.0f;
    const std::string what = shape_name(s.m, s.n, s.k) + (s.split_k ? " split K " : " ") + dtype_name(out);
    ++variant;
    const GpuResult g = run_weight_only(a, w, b, out, alpha);
    EXPECT_TRUE(g.guards_intact && g.gap_untouched) << what << ": written outside the output";
    EXPECT_EQ(g.unwritten, 0) << what << ": outputs left unwritten";
    expect_weight_only_matches(a, w, b, alpha, g, what);
    EXPECT_EQ(g.out.bytes, run_weight_only(a, w, b, out, alpha).out.bytes) << what << ": a second run differs";
    const detail::ScopedStreamMxValues bf16(detail::StreamMxValues::Bf16);
    const GpuResult g_bf16 = run_weight_only(a, w, b, out, alpha);
    expect_weight_only_matches(a, w, b, alpha, g_bf16, what + ", bf16 form");
    std::int64_t equal = 0;
    for (std::int64_t i = 0; i < s.m; ++i)
      for (std::int64_t j = 0; j < s.n; ++j)
        equal += std::memcmp(&g.out.bytes[output_offset(g.out, i, j)], &g_bf16.out.bytes[output_offset(g_bf16.out, i, j)],
                             static_cast<size_t>(dtype_size(out))) == 0;
    std::printf("[ margin   ] %s: %.4f of the outputs bitwise the bf16 form's\n", what.c_str(),
                static_cast<double>(equal) / static_cast<double>(s.m * s.n));
  }
}

// BF16 activations of more than 16 rows copied into the permuted K order for the bf16 values
// form (forced: detail::StreamMxValues::Bf16Permuted; the library picks it on GPUs of the H100's
// bandwidth only, weight_only_bf16_permuted_preferred; launch_activation_bf16_permuted_prepass): every tile width (17 and 30 rows: 32-row tiles, the
// latter with K split among the warpgroups; 40 and 64: 64-row tiles; 100, 300), N and K tails,
// E4M3 and E5M2 weights, both layouts, bias, alpha, every output type, against the reference and
// bitwise the same run to run; an activation TMA cannot read in place (pitch 5 past K) keeps the
// natural order's copy.
TEST(GpuWeightOnly, Bf16ActivationsInThePermutedOrderMatchReference) {
  MXGEMM_REQUIRE_GPU();
  if (gemm_backend().name.find("sm90") == std::string::npos) GTEST_SKIP() << "the permuted K order is the sm_90 path's";
  std::mt19937 rng = fresh_rng();
  const struct { std::int64_t m, n, k; bool split_k; std::int64_t pad; } shapes[] = {
      {17, 520, 1008, false, 8}, {30, 520, 8192, true, 8},   {40, 300, 4112, false, 8}, {64, 8200, 1040, false, 8},
      {100, 136, 2080, false, 8}, {300, 257, 2064, false, 8}, {40, 300, 1040, false, 5}};
  const detail::ScopedStreamMxValues permuted(detail::StreamMxValues::Bf16Permuted);
  int variant = 0;
  for (const auto& s : shapes) {
    const detail::ScopedStreamSplitK split(s.split_k ? detail::StreamSplitK::Always : detail::StreamSplitK::Auto);
    MxOptions o;
    o.layout = variant % 2 == 0 ? ScaleLayout::Swizzled128x4 : ScaleLayout::Linear;
    o.dtype = variant % 3 == 2 ? DType::E5M2 : DType::E4M3;
    if (o.dtype == DType::E5M2) o.scale_lo = 110, o.scale_hi = 118;
    const HostWide a = random_wide(s.m, s.k, DType::BF16, rng, variant % 2 == 0 ? 1.0 : 300.0, s.pad);
    const HostMxOperand w = random_mx_operand(s.n, s.k, rng, o);
    const DType out = variant % 3 == 0 ? DType::FP32 : (variant % 3 == 1 ? DType::BF16 : DType::FP16);
    const std::vector<std::uint8_t> bias_bytes = random_bias(s.n, DType::BF16, rng);
    const ConstMatrixView bias(bias_bytes.data(), 1, s.n, s.n, DType::BF16, Memory::Host);
    const ConstMatrixView* b = variant % 2 == 1 ? &bias : nullptr;
    const float alpha = variant % 4 == 3 ? -0.375f : 1.0f;
    const std::string what = shape_name(s.m, s.n, s.k) + (s.split_k ? " split K " : " ") + dtype_name(w.dtype) +
                             " weight, " + dtype_name(out) + " out, pitch pad " + std::to_string(s.pad);
    ++variant;
    const GpuResult g = run_weight_only(a, w, b, out, alpha);
    EXPECT_TRUE(g.guards_intact && g.gap_untouched) << what << ": written outside the output";
    EXPECT_EQ(g.unwritten, 0) << what << ": outputs left unwritten";
    expect_weight_only_matches(a, w, b, alpha, g, what);
    EXPECT_EQ(g.out.bytes, run_weight_only(a, w, b, out, alpha).out.bytes) << what << ": a second run differs";
  }
}

// Rows the fp16 values form cannot hold exactly at one power of two are marked for the exact
// path; the others are exact on the fast path. Row 1 holds one nonzero term (the weight's
// column 0 is zero), so where that term is an fp16 normal or the row is marked its FP32
// outputs are the reference's bits:
//  - "wide": 2^20 and 1.9921875 x 2^-11 (an fp16 subnormal's last bit at the row's power; the
//    tensor core may align its product more coarsely: within the tolerance);
//  - "huge": 2^100, "tiny": 2^-70 (far outside the codes form's range, fine for a row's power);
//  - "lossy": 2^20 and (1 + 2^-7) x 2^-13, whose last bit falls below fp16's 2^-24: marked;
//  - "subnormal": a bf16 subnormal alone, below the least usable power: marked.
// Whatever the row, every output within the tolerance; an infinity (row 3) and a NaN (row 5)
// elsewhere in the activation stay non-finite; 40 and 300 rows.
TEST(GpuWeightOnly, Bf16ActivationsInTheFp16FormKeepOrMarkRowsExactly) {
  MXGEMM_REQUIRE_GPU();
  if (gemm_backend().name.find("sm90") == std::string::npos) GTEST_SKIP() << "the fp16 values form is the sm_90 path's";
  std::mt19937 rng = fresh_rng();
  const struct { double big, small; const char* name; bool bitwise; } cases[] = {
      {std::ldexp(1.0, 20), std::ldexp(1.9921875, -11), "wide", false},
      {0.0, std::ldexp(1.0, 100), "huge", true},
      {0.0, std::ldexp(1.0, -70), "tiny", true},
      {std::ldexp(1.0, 20), std::ldexp(1.0078125, -13), "lossy", true},
      {0.0, std::ldexp(1.0, -130), "subnormal", true}};
  for (const std::int64_t m : {40, 300})
    for (const auto& c : cases) {
      const std::int64_t k = 1040;
      HostWide a = probe_activation(m, k, c.big, c.small, rng);
      ASSERT_EQ(a.at(1, 7), c.small) << c.name << ": the test value must be a bf16 value";
      a.set(5, 333, NAN);
      const HostMxOperand w = probe_weight(k, rng, fp16_window_scales(0));
      const std::string what = std::string(c.name) + " row, " + shape_name(m, 300, k);
      const detail::ScopedStreamMxValues f16(detail::StreamMxValues::F16);
      const GpuResult g = run_weight_only(a, w, nullptr, DType::FP32, 1.0f);
      EXPECT_TRUE(g.guards_intact && g.gap_untouched) << what << ": written outside the output";
      EXPECT_EQ(g.unwritten, 0) << what << ": outputs left unwritten";
      const HostOutput ref = weight_only_reference(a, w, nullptr, DType::FP32, 1.0f);
      std::int64_t row1_differ = 0;
      for (std::int64_t n = 0; n < w.rows; ++n) {
        row1_differ += std::memcmp(&g.out.bytes[output_offset(g.out, 1, n)], &ref.bytes[output_offset(ref, 1, n)], 4) != 0;
        EXPECT_FALSE(std::isfinite(g.out.at(3, n))) << what << ": row 3 has an infinity, column " << n;
        EXPECT_TRUE(std::isnan(g.out.at(5, n))) << what << ": row 5 has a NaN, column " << n;
      }
      if (c.bitwise) EXPECT_EQ(row1_differ, 0) << what << ": row 1 is not the reference's";
      // The other rows against the tolerance: rows 3 and 5 (checked above) as the reference of
      // the activation without their infinity and NaN.
      HostWide finite = a;
      finite.set(3, 100, 0.0);
      finite.set(5, 333, 0.0);
      const HostOutput finite_ref = weight_only_reference(finite, w, nullptr, DType::FP32, 1.0f);
      GpuResult rest = g;
      for (std::int64_t n = 0; n < w.rows; ++n)
        for (const std::int64_t r : {3, 5})
          std::memcpy(&rest.out.bytes[output_offset(rest.out, r, n)], &finite_ref.bytes[output_offset(finite_ref, r, n)], 4);
      expect_weight_only_matches(finite, w, nullptr, 1.0f, rest, what);
    }
}

// The same through the split of K among the warpgroups (16-, 32- and 64-row values forms,
// forced), and NaN where it feeds.
TEST(GpuWeightOnly, Fp16ActivationsSplitKMatchesReference) {
  MXGEMM_REQUIRE_GPU();
  const detail::ScopedStreamSplitK split(detail::StreamSplitK::Always);
  std::mt19937 rng = fresh_rng();
  for (const std::int64_t m : {13, 30, 50})
    for (const std::int64_t k : {2080, 4112}) {
      const std::string what = "fp16 a, split K, " + std::to_string(m) + " x 520 x " + std::to_string(k);
      HostWide a = random_wide(m, k, DType::FP16, rng);
      HostMxOperand w = random_mx_operand(520, k, rng, fp16_window_scales(0));
      const GpuResult g = run_weight_only(a, w, nullptr, DType::FP32, 0.75f, detail::Sm90Kernel::Streaming);
      if (g.unsupported) GTEST_SKIP() << "no weight-only kernel for fp16 activations on this backend";
      expect_weight_only_matches(a, w, nullptr, 0.75f, g, what);
      a.bits[2 * a.stride + 1500] = 0x7E00;           // row 2 NaN
      w.set_scale(33, (k + 31) / 32 - 1, kScaleNaN);  // column 33 NaN (the last block)
      const GpuResult nan = run_weight_only(a, w, nullptr, DType::FP32, 1.0f, detail::Sm90Kernel::Streaming);
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < 520; ++j)
          ASSERT_EQ(std::isnan(nan.out.at(i, j)), i == 2 || j == 33) << what << " (" << i << "," << j << ")";
    }
}

// Weight scales outside the fp16 window: above it (124..130, the tests' usual range reaches
// 124), below it (90..102), anywhere (0..254), and a NaN scale over a block of zero codes
// (its lanes are finite: the exact path gives the NaN), on 3, 40 and 130 rows, whole tiles and
// tiles split along K. Their tiles go through the exact fp64 path: every FP32 output is the
// reference's.
TEST(GpuWeightOnly, Fp16ActivationsWithWeightScalesOutsideTheWindowBehaveAsTheReference) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  const struct { int lo, hi; const char* name; } ranges[] = {{124, 130, "above"}, {90, 102, "below"}, {0, 254, "any"}};
  for (const std::int64_t m : {3, 40, 130})
    for (const std::int64_t k : {112, 4096})
      for (const auto& r : ranges) {
        const HostWide a = random_wide(m, k, DType::FP16, rng);
        MxOptions o;
        o.scale_lo = r.lo;
        o.scale_hi = r.hi;
        const HostMxOperand w = random_mx_operand(140, k, rng, o);
        const std::string what = std::string(r.name) + " weight scales, fp16 a, " + std::to_string(m) + " x 140 x " +
                                 std::to_string(k);
        const GpuResult g = run_weight_only(a, w, nullptr, DType::FP32, 1.0f);
        if (g.unsupported) GTEST_SKIP() << "no weight-only kernel for fp16 activations on this backend";
        EXPECT_TRUE(g.guards_intact && g.gap_untouched) << what << ": written outside the output";
        EXPECT_EQ(count_differences(g.out, weight_only_reference(a, w, nullptr, DType::FP32, 1.0f)), 0) << what;
      }
  // Blocks of zero codes: scale 127 (outside the window) stays 0, a NaN scale gives NaN.
  const HostWide a = random_wide(20, 1040, DType::FP16, rng);
  HostMxOperand w = random_mx_operand(140, 1040, rng, fp16_window_scales(0));
  for (std::int64_t c = 0; c < 32; ++c) {
    w.set_code(5, 64 + c, 0);  // row 5, block 2: zero codes, scale 127
    w.set_code(7, 96 + c, 0);  // row 7, block 3: zero codes, NaN scale
  }
  w.set_scale(5, 2, 127);
  w.set_scale(7, 3, kScaleNaN);
  const GpuResult g = run_weight_only(a, w, nullptr, DType::FP32, 1.0f);
  if (g.unsupported) GTEST_SKIP() << "no weight-only kernel for fp16 activations on this backend";
  EXPECT_EQ(count_differences(g.out, weight_only_reference(a, w, nullptr, DType::FP32, 1.0f)), 0) << "zero blocks";
  for (std::int64_t i = 0; i < 20; ++i) {
    EXPECT_TRUE(std::isnan(g.out.at(i, 7))) << "row " << i << ": the NaN-scale column";
    EXPECT_FALSE(std::isnan(g.out.at(i, 5))) << "row " << i << ": the zero block with scale 127";
  }
}

// fp16 subnormals reach the tensor cores on both sides of the fp16 form: weight row 3's first
// block at scale byte 106 with subnormal E4M3 codes (m x 2^-9 x 2^-11 = m x 2^-20, below fp16's
// 2^-14), and activation row 2 holding only subnormals (2^-16..2^-23) in its first block. A
// flush to zero anywhere would lose all of column 3 and row 2 (every other term is zero), far
// outside the summation tolerance.
TEST(GpuWeightOnly, Fp16ActivationsKeepSubnormalProducts) {
  MXGEMM_REQUIRE_GPU();
  std::mt19937 rng = fresh_rng();
  const std::int64_t m = 8, n = 16, k = 64;
  HostWide a = random_wide(m, k, DType::FP16, rng);
  HostMxOperand w = random_mx_operand(n, k, rng, fp16_window_scales(0));
  for (std::int64_t c = 0; c < k; ++c) {
    w.set_code(3, c, c < 32 ? static_cast<std::uint8_t>((c % 7 + 1) | (c % 2 == 0 ? 0x80 : 0)) : 0);
    a.set(2, c, c < 32 ? std::ldexp(c % 2 == 0 ? 1.0 : -1.0, -16 - static_cast<int>(c % 8)) : 0.0);
  }
  w.set_scale(3, 0, 106);
  const GpuResult g = run_weight_only(a, w, nullptr, DType::FP32, 1.0f);
  if (g.unsupported) GTEST_SKIP() << "no weight-only kernel for fp16 activations on this backend";
  expect_weight_only_matches(a, w, nullptr, 1.0f, g, "fp16 subnormal products");
  const HostOutput ref = weight_only_reference(a, w, nullptr, DType::FP32, 1.0f);
  for (std::int64_t i = 0; i < m; ++i) {
    EXPECT_NE(ref.at(i, 3), 0.0f) << "row " << i << ": the reference's column 3 should not vanish";
    EXPECT_NE(g.out.at(i, 3), 0.0f) << "row " << i << ", column 3 (subnormal weight values) was flushed";
  }
  for (std::int64_t j = 0; j < n; ++j)
    EXPECT_NE(g.out.at(2, j), 0.0f) << "row 2 (subnormal activations), column " << j << " was flushed";
}

TEST(GpuWeightOnly, Fp16ActivationsWithE5m2WeightsAreRefusedOnHopper) {
  MXGEMM_REQUIRE_GPU();
  if (gemm_backend().name.find("sm90") == std::string::npos) GTEST_SKIP() << "Hopper only";
  std::mt19937 rng = fresh_rng();
  const HostWide a = random_wide(4, 64, DType::FP16, rng);
  MxOptions o;
  o.dtype = DType::E5M2;
  const HostMxOperand w = random_mx_operand(16, 64, rng, o);
  GuardedDeviceBuffer da(a.bits.size() * 2), dd(4 * 16 * 4), dalpha(4);
  da.upload(a.bits.data());
  DeviceMxOperand dw(w);
  ConstMatrixView av = a.view(Memory::Device);
  av.data = da.data();
  const MatrixView d(dd.data(), 4, 16, 16, DType::FP32, Memory::Device);
  try {
    mxfp8_weight_only_mm(av, dw.view, static_cast<const float*>(dalpha.data()), nullptr, d);
    FAIL() << "fp16 activations with an e5m2 weight were accepted on sm_90";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("mxfp8_weight_only_mm: w.data.dtype: expected e4m3 with fp16 activations on sm_90"),
              std::string::npos)
        << e.what();
  }
}

// The streaming kernel counts tiles and stream-K units in 32 bits: a shape with more than
// 2^31 - 1 tile-stages is refused by name before anything is read or launched. The views
// point at addresses that are never dereferenced (skip_checks skips the pointer queries;
// the refusal comes first), so no 2^41-byte buffers are needed.
TEST(GpuWeightOnly, RefusesMoreTileStagesThanTheKernelCounts) {
  MXGEMM_REQUIRE_GPU();
  if (gemm_backend().name.find("sm90") == std::string::npos) GTEST_SKIP() << "Hopper only";
  const std::int64_t m = std::int64_t{1} << 20, n = std::int64_t{1} << 20, k = std::int64_t{1} << 16;
  // Disjoint fake ranges (validation still checks that d overlaps no input).
  auto at = [](int bit) { return reinterpret_cast<void*>(std::uintptr_t{1} << bit); };
  const ConstMatrixView a(at(42), m, k, k, DType::BF16, Memory::Device);
  const ScaleShape ss = scale_shape(n, k, ScaleLayout::Swizzled128x4);
  const ConstMxOperand w(ConstMatrixView(at(43), n, k, k, DType::E4M3, Memory::Device),
                         ConstMatrixView(at(44), ss.rows, ss.cols, ss.cols, DType::E8M0, Memory::Device),
                         ScaleLayout::Swizzled128x4);
  const MatrixView d(at(45), m, n, n, DType::BF16, Memory::Device);
  try {
    mxfp8_weight_only_mm(a, w, static_cast<const float*>(at(46)), nullptr, d, nullptr, /*skip_checks=*/true);
    FAIL() << "a shape of 2^36 tile-stages was accepted";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("mxfp8_weight_only_mm: M x N x K: expected below 2^31 tile-stages"),
              std::string::npos)
        << e.what();
  }
}

// The copy into the permuted K order on a weight large enough for either fp16 rule (48 x 8192 x
// 8192: the H200's rule sends these rows to the fp16 form, the H100's copies them), forced: it
// must stay the copy wherever the fp16 form would be chosen, and agree with the activation read
// in place within fp32 rounding. Where the library's own rule copies (this GPU's SM count and
// bandwidth: weight_only_bf16_permuted_preferred), its choice gives the forced copy's bits. The
// shape is too large for the fp64 reference in every run of the suite, hence these checks (the
// forced copy is checked against the reference above).
TEST(GpuWeightOnly, PermutedCopyOfEightKRowWeightsMatchesInPlaceAndTheLibrarysChoice) {
  MXGEMM_REQUIRE_GPU();
  if (gemm_backend().name.find("sm90") == std::string::npos) GTEST_SKIP() << "the permuted K order is the sm_90 path's";
  const std::int64_t m = 48, n = 8192, k = 8192;
  std::mt19937 rng = fresh_rng();
  const HostWide a = random_wide(m, k, DType::BF16, rng, 1.0, 8);
  const HostMxOperand w = random_mx_operand(n, k, rng, MxOptions{});
  const auto run_as = [&](detail::StreamMxValues form) {
    const detail::ScopedStreamMxValues mode(form);
    GpuResult g = run_weight_only(a, w, nullptr, DType::FP32, 1.0f);
    EXPECT_TRUE(g.guards_intact && g.gap_untouched) << "written outside the output";
    EXPECT_EQ(g.unwritten, 0) << "outputs left unwritten";
    return g;
  };
  const GpuResult permuted = run_as(detail::StreamMxValues::Bf16Permuted);
  const GpuResult in_place = run_as(detail::StreamMxValues::Bf16);
  double diff = 0, norm = 0;
  for (std::int64_t r = 0; r < m; ++r)
    for (std::int64_t c = 0; c < n; ++c) {
      const double x = permuted.out.at(r, c), y = in_place.out.at(r, c);
      ASSERT_TRUE(std::isfinite(x) && std::isfinite(y)) << "output (" << r << ", " << c << ")";
      diff += (x - y) * (x - y);
      norm += y * y;
    }
  // Each within the 1e-5 bar of the exact product, so within twice that of each other.
  EXPECT_LT(std::sqrt(diff / norm), 2e-5) << "the permuted copy's sums against the activation read in place";
  const cuda::DeviceTraits device = cuda::current_device_traits();
  if (!sm90::weight_only_bf16_permuted_preferred(m, n, k, device.sms, device.dram_bytes_per_s)) {
    std::printf("  the library does not copy at 48 x 8192 x 8192 on this GPU (%d SMs, %.2f TB/s): its choice "
                "not compared\n", device.sms, device.dram_bytes_per_s / 1e12);
    return;
  }
  EXPECT_EQ(run_as(detail::StreamMxValues::Auto).out.bytes, permuted.out.bytes)
      << "the library's choice differs from the forced permuted copy";
}

// The 192- and 256-row tiles promote their running sums as a bf16 high part, rounded toward
// zero, plus the exact rest (promoted_high_parts.cuh). Sums at the edge of fp32's range, where
// a high part rounded to nearest would become Inf, and sums that overflow only between two
// promotions (Inf - Inf would leave NaN in the rest), against the reference: 2048 identical
// activation rows (one reference row) of 2^60 (a few 0.75 * 2^60) up to K = 16384 and zeros
// beyond (the last chains add nothing), times weights of +-2^54 (code 1, scale byte 181,
// inside the fast path's window), K = 20480: promotions every 2048 K (FP32 out) and every 8192
// (BF16 out), whole tiles of either width. Row sums: "edge" 32736 * 2^113, just below fp32's
// largest (BF16 out: Inf, as rounding to nearest gives), "overflow" 2^128 (Inf).
TEST(GpuWeightOnly, PromotedSumsAtTheEdgeOfTheRangeBehaveAsTheReference) {
  MXGEMM_REQUIRE_GPU();
  if (!on_hopper()) GTEST_SKIP() << "the 192- and 256-row tiles are the sm_90 streaming kernel's";
  const std::int64_t m = 2048, n = 4224, k = 20480, live_k = 16384;
  MxOptions o;
  o.scale_lo = o.scale_hi = 181;
  std::mt19937 rng = fresh_rng();
  HostMxOperand w = random_mx_operand(n, k, rng, o);
  for (std::int64_t r = 0; r < n; ++r)
    for (std::int64_t c = 0; c < k; ++c) w.set_code(r, c, r % 3 == 1 ? 0xB8 : 0x38);  // -1, +1 (E4M3)
  for (const bool overflow : {false, true}) {
    HostWide row = random_wide(1, k, DType::BF16, rng);
    for (std::int64_t c = 0; c < k; ++c) row.set(0, c, c >= live_k ? 0.0 : !overflow && c % 256 == 7 ? 0x1p59 * 1.5 : 0x1p60);
    HostWide a = row;
    a.rows = m;
    a.bits.resize(static_cast<std::size_t>(m * k));
    for (std::int64_t r = 1; r < m; ++r) std::copy_n(row.bits.begin(), k, a.bits.begin() + r * k);
    for (const auto width : {detail::StreamWidth192::Never, detail::StreamWidth192::Always}) {
      const detail::ScopedStreamWidth192 forced(width);
      for (DType out : {DType::FP32, DType::BF16}) {
        const std::string what = std::string(overflow ? "overflow" : "edge") +
                                 (width == detail::StreamWidth192::Never ? ", 256-row tiles, " : ", 192-row tiles, ") +
                                 dtype_name(out);
        const HostOutput ref = weight_only_reference(row, w, nullptr, out, 1.0f);
        if (!overflow && out == DType::FP32) {
          ASSERT_TRUE(std::isfinite(ref.at(0, 0)) && std::fabs(ref.at(0, 0)) > 0x1p127 * 1.99) << what;
        } else {
          ASSERT_TRUE(std::isinf(ref.at(0, 0))) << what;
        }
        const GpuResult g = run_weight_only(a, w, nullptr, out, 1.0f);
        if (g.unsupported) GTEST_SKIP() << "no weight-only kernel on this backend";
        EXPECT_TRUE(g.guards_intact && g.gap_untouched) << what << ": written outside the output";
        EXPECT_EQ(g.unwritten, 0) << what << ": outputs left unwritten";
        std::int64_t wrong = 0;
        for (std::int64_t r = 0; r < m; ++r)
          for (std::int64_t c = 0; c < n; ++c) {
            const bool same = std::memcmp(&g.out.bytes[output_offset(g.out, r, c)], &ref.bytes[output_offset(ref, 0, c)],
                                          dtype_size(out)) == 0;
            if (!same && wrong++ == 0)
              ADD_FAILURE() << what << ": output (" << r << ", " << c << ") is " << g.out.at(r, c) << ", the reference "
                            << ref.at(0, c);
          }
        EXPECT_EQ(wrong, 0) << what << ": outputs unlike the reference";
      }
    }
  }
}

// A weight prepacked on the GPU (mxfp8_prepack_weight, KOrder::Prepacked) on every path that
// takes it, against the reference of the weight as quantized: the skinny kernel (forced, 1..16
// rows: up to 8 the activation's TMA boxes in the stage, ldmatrix'd in the prepacked order, K
// tails included; 9..16 its words at the prepacked bytes' elements), the streaming kernel's codes form
// (1..8 rows, its pre-pass in the natural order), its 16-row tiles in the permuted order for 9..16
// rows (whole tiles, K split among the warpgroups and among clusters), 17..32 rows with K split
// among the warpgroups and among clusters, 64-, 128-, 192- and 256-row tiles, several waves, the
// fp16 values form's pre-pass (forced, natural order), an activation TMA cannot read in place
// (pitch 5 past K: the natural copy), E4M3 and E5M2, both layouts, bias, alpha, every output
// type, N tails; bitwise the same run to run; nothing written outside D.
TEST(GpuWeightOnly, PrepackedWeightMatchesReferenceOnEveryPath) {
  MXGEMM_REQUIRE_GPU();
  if (gemm_backend().name.find("sm90") == std::string::npos) GTEST_SKIP() << "prepacked weights are the sm_90 path's";
  std::mt19937 rng = fresh_rng();
  using Split = detail::StreamSplitK;
  using Values = detail::StreamMxValues;
  using K = detail::Sm90Kernel;
  const struct { std::int64_t m, n, k; Split split; Values values; std::int64_t pad; K kernel; } shapes[] = {
      {1, 520, 1024, Split::Auto, Values::Auto, 8, K::Skinny},       {7, 300, 4096, Split::Auto, Values::Auto, 8, K::Skinny},
      {3, 136, 2080, Split::Auto, Values::Auto, 8, K::Skinny},       {8, 257, 1056, Split::Auto, Values::Auto, 16, K::Skinny},
      {12, 136, 2080, Split::Auto, Values::Auto, 8, K::Skinny},      {16, 1000, 1024, Split::Auto, Values::Auto, 8, K::Skinny},
      {1, 520, 1024, Split::Auto, Values::Auto, 8, K::Streaming},    {5, 300, 4096, Split::Auto, Values::Auto, 8, K::Streaming},
      {8, 136, 2080, Split::Auto, Values::Auto, 5, K::Auto},         {12, 520, 1024, Split::Auto, Values::Auto, 8, K::Streaming},
      {16, 1000, 8192, Split::Never, Values::Auto, 8, K::Streaming}, {10, 1000, 8192, Split::Always, Values::Auto, 8, K::Streaming},
      {16, 1000, 4096, Split::Clusters, Values::Auto, 5, K::Streaming}, {30, 520, 8192, Split::Always, Values::Auto, 8, K::Auto},
      {30, 1000, 4096, Split::Clusters, Values::Auto, 8, K::Auto},   {40, 300, 2080, Split::Auto, Values::Auto, 8, K::Auto},
      {64, 8200, 1024, Split::Auto, Values::Auto, 8, K::Auto},       {100, 136, 2080, Split::Auto, Values::F16, 8, K::Auto},
      {300, 257, 2048, Split::Auto, Values::Auto, 8, K::Auto},       {40, 300, 1024, Split::Auto, Values::Auto, 5, K::Auto},
      {2100, 600, 1024, Split::Auto, Values::Auto, 8, K::Auto}};
  int variant = 0;
  for (const auto& s : shapes) {
    const detail::ScopedStreamSplitK split(s.split);
    const detail::ScopedStreamMxValues values(s.values);
    MxOptions o;
    o.layout = variant % 2 == 0 ? ScaleLayout::Swizzled128x4 : ScaleLayout::Linear;
    o.dtype = variant % 3 == 2 && s.values != Values::F16 ? DType::E5M2 : DType::E4M3;
    if (o.dtype == DType::E5M2 || s.values == Values::F16) o.scale_lo = 110, o.scale_hi = 118;
    const HostWide a = random_wide(s.m, s.k, DType::BF16, rng, variant % 2 == 0 ? 1.0 : 300.0, s.pad);
    const HostMxOperand w = random_mx_operand(s.n, s.k, rng, o);
    const DType out = variant % 3 == 0 ? DType::FP32 : (variant % 3 == 1 ? DType::BF16 : DType::FP16);
    const std::vector<std::uint8_t> bias_bytes = random_bias(s.n, DType::FP32, rng);
    const ConstMatrixView bias(bias_bytes.data(), 1, s.n, s.n, DType::FP32, Memory::Host);
    const ConstMatrixView* b = variant % 2 == 1 ? &bias : nullptr;
    const float alpha = variant % 4 == 3 ? -0.375f : 1.0f;
    const std::string what = shape_name(s.m, s.n, s.k) + " " + dtype_name(w.dtype) + " weight, " + dtype_name(out) +
                             " out, pitch pad " + std::to_string(s.pad) + ", variant " + std::to_string(variant) +
                             (s.kernel == K::Skinny ? ", skinny" : s.kernel == K::Streaming ? ", streaming" : "");
    ++variant;
    const GpuResult g = run_weight_only(a, w, b, out, alpha, s.kernel, 3, /*prepacked=*/true);
    EXPECT_TRUE(g.guards_intact && g.gap_untouched) << what << ": written outside the output";
    EXPECT_EQ(g.unwritten, 0) << what << ": outputs left unwritten";
    expect_weight_only_matches(a, w, b, alpha, g, what);
    EXPECT_EQ(g.out.bytes, run_weight_only(a, w, b, out, alpha, s.kernel, 3, true).out.bytes)
        << what << ": a second run differs";
  }
}

// The exact path reads a prepacked weight's elements where they are: weight scales far outside
// the fast paths' window (tiny, huge, any byte) and a NaN activation give the reference's FP32 bits
// (as for a natural weight, WeightScalesOutsideTheExactRangeBehaveAsTheReference) on the skinny
// kernel, the codes form, the 16-row tiles and the 64-row and wider tiles.
TEST(GpuWeightOnly, PrepackedWeightOnTheExactPathGivesTheReferencesBits) {
  MXGEMM_REQUIRE_GPU();
  if (gemm_backend().name.find("sm90") == std::string::npos) GTEST_SKIP() << "prepacked weights are the sm_90 path's";
  std::mt19937 rng = fresh_rng();
  using K = detail::Sm90Kernel;
  const struct { std::int64_t m, k; K kernel; } shapes[] = {{3, 128, K::Skinny},     {8, 2080, K::Skinny}, {12, 4096, K::Skinny},
                                                             {3, 128, K::Streaming},  {5, 4096, K::Streaming},
                                                             {12, 4096, K::Streaming}, {40, 128, K::Auto},
                                                             {130, 4096, K::Auto}};
  const struct { int lo, hi; const char* name; } ranges[] = {{0, 10, "tiny"}, {245, 254, "huge"}, {0, 254, "any"}};
  for (const auto& s : shapes)
    for (const auto& r : ranges) {
      HostWide a = random_wide(s.m, s.k, DType::BF16, rng);
      a.bits[static_cast<std::size_t>(a.stride + 37)] = 0x7FC0;  // row 1, column 37: NaN
      MxOptions o;
      o.scale_lo = r.lo;
      o.scale_hi = r.hi;
      const HostMxOperand w = random_mx_operand(140, s.k, rng, o);
      const GpuResult g = run_weight_only(a, w, nullptr, DType::FP32, 1.0f, s.kernel, 3, true);
      EXPECT_TRUE(g.guards_intact && g.gap_untouched) << r.name << ": written outside the output";
      EXPECT_EQ(g.unwritten, 0) << r.name << ": outputs left unwritten";
      EXPECT_EQ(count_differences(g.out, weight_only_reference(a, w, nullptr, DType::FP32, 1.0f)), 0)
          << r.name << " weight scales, " << s.m << " x 140 x " << s.k;
    }
}

// A prepacked weight with FP16 activations on sm_90: UnsupportedError naming a.dtype (the fp16
// values form reads the natural order only).
TEST(GpuWeightOnly, PrepackedWeightRefusals) {
  MXGEMM_REQUIRE_GPU();
  if (gemm_backend().name.find("sm90") == std::string::npos) GTEST_SKIP() << "prepacked weights are the sm_90 path's";
  std::mt19937 rng = fresh_rng();
  const HostWide a16 = random_wide(20, 256, DType::FP16, rng);
  HostMxOperand w = random_mx_operand(64, 256, rng, MxOptions{});
  DeviceMxOperand dw(w);
  dw.view.order = KOrder::Prepacked;
  GuardedDeviceBuffer da(a16.bits.size() * 2), dd(20 * 64 * 4), dalpha(4);
  const float one = 1.0f;
  dalpha.upload(&one);
  ConstMatrixView av = a16.view(Memory::Device);
  av.data = da.data();
  const MatrixView dv(dd.data(), 20, 64, 64, DType::FP32, Memory::Device);
  try {
    mxfp8_weight_only_mm(av, dw.view, static_cast<const float*>(dalpha.data()), nullptr, dv);
    FAIL() << "fp16 activations with a prepacked weight were accepted on sm_90";
  } catch (const UnsupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("mxfp8_weight_only_mm: a.dtype: expected bf16 with a prepacked weight"),
              std::string::npos)
        << e.what();
  }
}

// mxfp8_prepack_weight on the GPU gives the reference's bytes, out of place (nothing written
// outside the rows' K columns: guards and the gap past K intact) and in place, at a row pitch past
// K, for weights of more blocks than one pass of its grid-stride loop holds.
TEST(GpuPrepack, MatchesTheReferenceInAndOutOfPlace) {
  MXGEMM_REQUIRE_GPU();
  const BackendInfo info = gemm_backend();
  if (!info.available) GTEST_SKIP() << info.reason;
  std::mt19937 rng = fresh_rng();
  const struct { std::int64_t n, k, stride; } shapes[] = {{3, 32, 48}, {130, 1056, 1072}, {4100, 8192, 8192}};
  for (const auto& s : shapes) {
    const std::size_t bytes = static_cast<std::size_t>(s.n * s.stride);
    std::vector<std::uint8_t> w(bytes), want(bytes);
    for (auto& b : w) b = static_cast<std::uint8_t>(rng());
    want = w;
    mxfp8_prepack_weight_reference(ConstMatrixView(w.data(), s.n, s.k, s.stride, DType::E4M3, Memory::Host),
                                   MatrixView(want.data(), s.n, s.k, s.stride, DType::E4M3, Memory::Host));
    GuardedDeviceBuffer dw(bytes), dout(bytes, 0x5A);
    dw.upload(w.data());
    const ConstMatrixView wv(dw.data(), s.n, s.k, s.stride, DType::E4M3, Memory::Device);
    mxfp8_prepack_weight(wv, MatrixView(dout.data(), s.n, s.k, s.stride, DType::E4M3, Memory::Device));
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<std::uint8_t> got = dout.download();
    for (std::int64_t r = 0; r < s.n; ++r)
      for (std::int64_t c = 0; c < s.stride; ++c) {
        const std::size_t i = static_cast<std::size_t>(r * s.stride + c);
        ASSERT_EQ(got[i], c < s.k ? want[i] : 0x5A) << s.n << " x " << s.k << ": row " << r << ", column " << c;
      }
    EXPECT_TRUE(dout.guards_intact() && dw.guards_intact()) << s.n << " x " << s.k;
    mxfp8_prepack_weight(wv, MatrixView(dw.data(), s.n, s.k, s.stride, DType::E4M3, Memory::Device));
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(dw.download(), want) << s.n << " x " << s.k << " in place";
  }
}

}  // namespace
}  // namespace mxgemm::testing
