// Columnwise quantization on the CPU: the reference equals the rowwise reference run on
// the transpose, and both columnwise entry points reject bad input with messages that name
// the argument, the expected and the actual value.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/expect_error.hpp"
#include "mxgemm/mxgemm.hpp"

namespace mxgemm {
namespace {

using testing::expect_error;

// An R x K bf16 input and the buffers of its columnwise (K x R) quantization.
struct ColumnwiseCase {
  std::int64_t r, k;
  ScaleLayout layout;
  std::vector<std::uint16_t> x;
  std::vector<std::uint8_t> data, scales;
  ColumnwiseCase(std::int64_t rows, std::int64_t cols, ScaleLayout l, std::mt19937& rng)
      : r(rows), k(cols), layout(l), x(static_cast<size_t>(rows * cols)) {
    std::normal_distribution<double> normal;
    for (auto& v : x) v = encode_bf16(normal(rng) * 16.0);
    const ScaleShape s = scale_shape(k, r, l);  // qt is K x R
    data.assign(static_cast<size_t>(k * r), 0xAB);
    scales.assign(static_cast<size_t>(s.rows * s.cols), 0xAB);
  }
  ConstMatrixView xv(Memory m = Memory::Host) const {
    return contiguous<const void>(x.data(), r, k, DType::BF16, m);
  }
  MxOperand qt(Memory m = Memory::Host) {
    const ScaleShape s = scale_shape(k, r, layout);
    return MxOperand(contiguous<void>(data.data(), k, r, DType::E4M3, m),
                     contiguous<void>(scales.data(), s.rows, s.cols, DType::E8M0, m), layout);
  }
};

TEST(QuantizeColumnwise, ReferenceEqualsRowwiseOfTranspose) {
  std::mt19937 rng(std::random_device{}());
  for (ScaleLayout l : {ScaleLayout::Swizzled128x4, ScaleLayout::Linear}) {
    ColumnwiseCase c(70, 45, l, rng);
    quantize_mxfp8_columnwise_reference(c.xv(), c.qt(), ScaleRounding::RCeil);
    // The transpose, by hand, quantized rowwise.
    std::vector<std::uint16_t> xt(c.x.size());
    for (std::int64_t i = 0; i < c.r; ++i)
      for (std::int64_t j = 0; j < c.k; ++j) xt[j * c.r + i] = c.x[i * c.k + j];
    ColumnwiseCase t = c;
    std::fill(t.data.begin(), t.data.end(), 0xAB);
    std::fill(t.scales.begin(), t.scales.end(), 0xAB);
    quantize_mxfp8_reference(contiguous<const void>(xt.data(), c.k, c.r, DType::BF16, Memory::Host),
                             t.qt(), ScaleRounding::RCeil);
    EXPECT_EQ(c.data, t.data);
    EXPECT_EQ(c.scales, t.scales);
  }
}

TEST(QuantizeColumnwise, RejectsWrongShape) {
  std::mt19937 rng(1);
  ColumnwiseCase c(64, 96, ScaleLayout::Linear, rng);
  MxOperand q = c.qt();
  q.data.rows = 64;  // R x K instead of K x R
  q.data.cols = 96;
  q.data.row_stride = 96;
  q.scales.rows = 64;
  q.scales.cols = 3;
  q.scales.row_stride = 3;
  expect_error<ArgumentError>(
      [&] { quantize_mxfp8_columnwise_reference(c.xv(), q, ScaleRounding::Floor); },
      {"quantize_mxfp8_columnwise_reference", "qt.data shape", "96x64", "got 64x96"});
  // The GPU entry point validates the same way before it looks for a device.
  MxOperand qd = q;
  qd.data.memory = qd.scales.memory = Memory::Device;
  expect_error<ArgumentError>(
      [&] { quantize_mxfp8_columnwise(c.xv(Memory::Device), qd, ScaleRounding::Floor); },
      {"quantize_mxfp8_columnwise", "qt.data shape", "96x64", "got 64x96"});
}

TEST(QuantizeColumnwise, RejectsWrongDtypesAndScales) {
  std::mt19937 rng(2);
  ColumnwiseCase c(64, 96, ScaleLayout::Swizzled128x4, rng);
  ConstMatrixView x = c.xv();
  x.dtype = DType::E4M3;
  expect_error<DtypeError>([&] { quantize_mxfp8_columnwise_reference(x, c.qt(), ScaleRounding::Floor); },
                           {"x.dtype", "fp32 or bf16 or fp16", "got e4m3"});
  MxOperand q = c.qt();
  q.data.dtype = DType::BF16;
  expect_error<DtypeError>([&] { quantize_mxfp8_columnwise_reference(c.xv(), q, ScaleRounding::Floor); },
                           {"qt.data.dtype", "got bf16"});
  q = c.qt();
  q.scales.rows = 96;  // (K, ...) unpadded instead of round_up(K, 128)
  expect_error<ArgumentError>([&] { quantize_mxfp8_columnwise_reference(c.xv(), q, ScaleRounding::Floor); },
                              {"qt.scales shape", "128x4", "got 96x4"});
}

TEST(QuantizeColumnwise, RejectsBadInputMatrix) {
  std::mt19937 rng(3);
  ColumnwiseCase c(64, 96, ScaleLayout::Linear, rng);
  ConstMatrixView x = c.xv();
  x.row_stride = 50;
  expect_error<ArgumentError>([&] { quantize_mxfp8_columnwise_reference(x, c.qt(), ScaleRounding::Floor); },
                              {"x.row_stride", ">= cols (96)", "got 50"});
  x = c.xv();
  x.data = nullptr;
  expect_error<ArgumentError>([&] { quantize_mxfp8_columnwise_reference(x, c.qt(), ScaleRounding::Floor); },
                              {"x.data", "non-null", "got null"});
  x = c.xv(Memory::Device);
  expect_error<ArgumentError>([&] { quantize_mxfp8_columnwise_reference(x, c.qt(), ScaleRounding::Floor); },
                              {"x.memory", "expected host", "got device"});
  // Output overlapping the input.
  MxOperand q = c.qt();
  q.data.data = const_cast<std::uint16_t*>(c.x.data());
  expect_error<ArgumentError>([&] { quantize_mxfp8_columnwise_reference(c.xv(), q, ScaleRounding::Floor); },
                              {"qt.data", "disjoint from x", "overlapping"});
}

TEST(QuantizeColumnwise, GpuEntryPointWithoutDeviceIsUnsupported) {
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0)
    GTEST_SKIP() << "a CUDA device is present: the GPU tests cover the kernel";
  cudaGetLastError();
  std::mt19937 rng(4);
  ColumnwiseCase c(64, 96, ScaleLayout::Swizzled128x4, rng);
  expect_error<UnsupportedError>(
      [&] { quantize_mxfp8_columnwise(c.xv(Memory::Device), c.qt(Memory::Device), ScaleRounding::Floor); },
      {"quantize_mxfp8_columnwise", "no GPU backend"});
}

}  // namespace
}  // namespace mxgemm
