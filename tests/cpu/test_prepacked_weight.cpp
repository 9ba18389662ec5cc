// The prepacked weight order (KOrder::Prepacked, mxgemm/prepack.hpp) on the host: the column
// maps of layout.hpp against the definition, mxfp8_prepack_weight_reference (out of place and
// in place), the weight-only reference reading a prepacked weight (the natural weight's bits),
// and the refusals: K % 32, every entry point but the weight-only GEMM's, and the GPU prepack's
// argument checks.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "common/expect_error.hpp"
#include "common/mx_random.hpp"
#include "common/wide_random.hpp"
#include "mxgemm/mxgemm.hpp"

namespace mxgemm::testing {
namespace {

// Element 16h + 8i + 2q + j of a block sits at byte 8q + 4h + 2i + j, and the maps are inverses.
TEST(PrepackedOrder, ColumnMapsFollowTheDefinition) {
  for (int blk = 0; blk < 3; ++blk)
    for (int q = 0; q < 4; ++q)
      for (int h = 0; h < 2; ++h)
        for (int i = 0; i < 2; ++i)
          for (int j = 0; j < 2; ++j) {
            const std::int64_t k = 32 * blk + 16 * h + 8 * i + 2 * q + j, p = 32 * blk + 8 * q + 4 * h + 2 * i + j;
            EXPECT_EQ(prepacked_column(k), p) << "element " << k;
            EXPECT_EQ(prepacked_element(p), k) << "column " << p;
          }
}

// The reference moves each byte to its column, whatever the row pitch, and in place gives the same.
TEST(PrepackedOrder, ReferencePrepackMovesEveryByteToItsColumn) {
  std::mt19937 rng(17);
  const std::int64_t n = 5, k = 96, stride = 112;
  std::vector<std::uint8_t> w(static_cast<std::size_t>(n * stride)), out(w.size(), 0xEE);
  for (auto& b : w) b = static_cast<std::uint8_t>(rng());
  const ConstMatrixView wv(w.data(), n, k, stride, DType::E4M3, Memory::Host);
  mxfp8_prepack_weight_reference(wv, MatrixView(out.data(), n, k, stride, DType::E4M3, Memory::Host));
  for (std::int64_t r = 0; r < n; ++r) {
    for (std::int64_t c = 0; c < k; ++c) ASSERT_EQ(out[r * stride + prepacked_column(c)], w[r * stride + c]);
    for (std::int64_t c = k; c < stride; ++c) ASSERT_EQ(out[r * stride + c], 0xEE) << "the gap past K was written";
  }
  std::vector<std::uint8_t> inplace = w;
  mxfp8_prepack_weight_reference(ConstMatrixView(inplace.data(), n, k, stride, DType::E4M3, Memory::Host),
                                 MatrixView(inplace.data(), n, k, stride, DType::E4M3, Memory::Host));
  for (std::int64_t r = 0; r < n; ++r)
    for (std::int64_t c = 0; c < k; ++c) ASSERT_EQ(inplace[r * stride + c], out[r * stride + c]);
}

// The reference reads a prepacked weight's elements where they are: the natural weight's bits,
// both layouts, E4M3 and E5M2, NaN included.
TEST(PrepackedOrder, WeightOnlyReferenceGivesTheNaturalWeightsBits) {
  std::mt19937 rng(23);
  for (const DType elem : {DType::E4M3, DType::E5M2}) {
    MxOptions o;
    o.dtype = elem;
    o.layout = elem == DType::E4M3 ? ScaleLayout::Swizzled128x4 : ScaleLayout::Linear;
    const std::int64_t m = 9, n = 21, k = 160;
    HostWide a = random_wide(m, k, DType::BF16, rng, 1.0, 3);
    a.bits[static_cast<std::size_t>(2 * a.stride + 40)] = 0x7FC0;  // row 2: NaN
    const HostMxOperand w = random_mx_operand(n, k, rng, o);
    HostMxOperand packed = w;
    const ConstMxOperand wv = w.view();
    mxfp8_prepack_weight_reference(wv.data, MatrixView(packed.data.data(), n, k, w.data_stride, elem, Memory::Host));
    ConstMxOperand pv = packed.view();
    pv.order = KOrder::Prepacked;
    HostOutput natural(DType::FP32, m, n), prepacked(DType::FP32, m, n);
    mxfp8_weight_only_mm_reference(a.view(), wv, 1.0f, nullptr, natural.view());
    mxfp8_weight_only_mm_reference(a.view(), pv, 1.0f, nullptr, prepacked.view());
    EXPECT_EQ(natural.bytes, prepacked.bytes) << dtype_name(elem);
    EXPECT_NE(packed.data, w.data) << "the prepack moved nothing: the test's premise";
  }
}

TEST(PrepackedOrder, Refusals) {
  std::mt19937 rng(29);
  // K % 32 == 16: the prepack and a prepacked weight are refused by name.
  std::vector<std::uint8_t> w(4 * 48), out(4 * 48);
  expect_error<ArgumentError>(
      [&] {
        mxfp8_prepack_weight_reference(ConstMatrixView(w.data(), 4, 48, 48, DType::E4M3, Memory::Host),
                                       MatrixView(out.data(), 4, 48, 48, DType::E4M3, Memory::Host));
      },
      {"mxfp8_prepack_weight_reference", "K (w.cols): expected a multiple of 32", "got 48"});
  expect_error<DtypeError>(
      [&] {
        mxfp8_prepack_weight_reference(ConstMatrixView(w.data(), 4, 32, 48, DType::E4M3, Memory::Host),
                                       MatrixView(out.data(), 4, 32, 48, DType::E5M2, Memory::Host));
      },
      {"out.dtype: expected e4m3 (w's), got e5m2"});
  expect_error<ArgumentError>(
      [&] {
        mxfp8_prepack_weight_reference(ConstMatrixView(w.data(), 4, 32, 48, DType::E4M3, Memory::Host),
                                       MatrixView(w.data() + 8, 4, 32, 48, DType::E4M3, Memory::Host));
      },
      {"out: expected memory disjoint from w"});
  const HostWide a = random_wide(3, 48, DType::BF16, rng);
  const HostMxOperand w48 = random_mx_operand(8, 48, rng);
  ConstMxOperand p48 = w48.view();
  p48.order = KOrder::Prepacked;
  HostOutput d(DType::FP32, 3, 8);
  expect_error<ArgumentError>([&] { mxfp8_weight_only_mm_reference(a.view(), p48, 1.0f, nullptr, d.view()); },
                              {"mxfp8_weight_only_mm_reference", "w.data.cols (K): expected a multiple of 32 for a prepacked weight",
                               "got 48"});
  // Only the weight-only GEMM reads a prepacked operand.
  const HostMxOperand x = random_mx_operand(3, 64, rng), y = random_mx_operand(8, 64, rng);
  ConstMxOperand yp = y.view();
  yp.order = KOrder::Prepacked;
  expect_error<UnsupportedError>([&] { mxfp8_scaled_mm_reference(x.view(), yp, 1.0f, d.view()); },
                                 {"mxfp8_scaled_mm_reference", "b.order: expected natural", "got prepacked"});
  std::vector<float> dq(8 * 64);
  expect_error<UnsupportedError>(
      [&] { dequantize_mxfp8_reference(yp, MatrixView(dq.data(), 8, 64, 64, DType::FP32, Memory::Host)); },
      {"dequantize_mxfp8_reference", "q.order: expected natural", "got prepacked"});
  ConstMxOperand bad = y.view();
  bad.order = static_cast<KOrder>(7);
  expect_error<ArgumentError>([&] { mxfp8_scaled_mm_reference(x.view(), bad, 1.0f, d.view()); },
                              {"b.order: expected natural or prepacked", "got value 7"});
}

// The GPU prepack's checks, each by name, before anything runs: on device memory where a CUDA
// device is present, else on host memory declared Device (no driver to ask; a valid call then
// reports that no GPU can run it instead of crashing).
TEST(PrepackedOrder, GpuPrepackRefusesBadViews) {
  int devices = 0;
  const bool gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  if (!gpu) cudaGetLastError();
  constexpr std::size_t kBytes = 2 * 4 * 96;  // w and out: 4 rows of up to 96 bytes each
  alignas(16) static std::uint8_t host[kBytes];
  std::uint8_t* base = host;
  if (gpu) ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&base), kBytes), cudaSuccess);
  std::uint8_t* const w = base;
  std::uint8_t* const out = base + kBytes / 2;
  auto cw = [&](std::uint8_t* p, std::int64_t k, std::int64_t stride, DType t = DType::E4M3) {
    return ConstMatrixView(p, 4, k, stride, t, Memory::Device);
  };
  auto mo = [&](std::uint8_t* p, std::int64_t k, std::int64_t stride, DType t = DType::E4M3) {
    return MatrixView(p, 4, k, stride, t, Memory::Device);
  };
  constexpr const char* fn = "mxfp8_prepack_weight";
  expect_error<ArgumentError>([&] { mxfp8_prepack_weight(cw(w + 8, 64, 64), mo(out, 64, 64)); },
                              {fn, "w: expected a 16-byte aligned address", "got address 0x"});
  expect_error<ArgumentError>([&] { mxfp8_prepack_weight(cw(w, 32, 40), mo(out, 32, 40)); },
                              {fn, "w.row_stride: expected a multiple of 16 elements (16 bytes), got 40"});
  expect_error<ArgumentError>([&] { mxfp8_prepack_weight(cw(w, 32, 32), mo(out, 32, 40)); },
                              {fn, "out.row_stride: expected a multiple of 16 elements (16 bytes), got 40"});
  expect_error<ArgumentError>([&] { mxfp8_prepack_weight(cw(w, 64, 64), mo(out, 32, 64)); },
                              {fn, "out shape: expected 4x64 (the shape of w), got 4x32"});
  expect_error<ArgumentError>([&] { mxfp8_prepack_weight(cw(w, 48, 48), mo(out, 48, 48)); },
                              {fn, "K (w.cols): expected a multiple of 32", "got 48"});
  expect_error<DtypeError>([&] { mxfp8_prepack_weight(cw(w, 32, 32, DType::BF16), mo(out, 32, 32)); },
                           {fn, "w.dtype: expected e4m3 or e5m2, got bf16"});
  expect_error<ArgumentError>([&] { mxfp8_prepack_weight(cw(w, 64, 64), mo(w + 16, 64, 64)); },
                              {fn, "out: expected memory disjoint from w"});
  if (gpu) {
    ASSERT_EQ(cudaFree(base), cudaSuccess);
  } else {
    expect_error<UnsupportedError>([&] { mxfp8_prepack_weight(cw(w, 64, 64), mo(out, 64, 64)); },
                                   {fn, "no GPU backend can run here"});
  }
}

}  // namespace
}  // namespace mxgemm::testing
