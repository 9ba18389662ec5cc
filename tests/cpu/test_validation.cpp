// One test per rejected input: each asserts the exception type and that the message names
// the argument, the expected and the actual value.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/expect_error.hpp"
#include "mxgemm/mxgemm.hpp"

namespace mxgemm {
namespace {

using testing::expect_error;

// Valid host operands for an M x N x K GEMM, swizzled scales, FP32 output. Buffers are
// 16-byte aligned (std::vector of uint64 storage) so the device-placement variants can
// reuse them with only the Memory tag changed.
struct GemmCase {
  std::int64_t m = 130, n = 70, k = 96;
  std::vector<std::uint64_t> a_buf, b_buf, sa_buf, sb_buf, d_buf;
  ConstMxOperand a, b;
  MatrixView d;

  static void* alloc(std::vector<std::uint64_t>& v, std::int64_t bytes) {
    v.assign(static_cast<size_t>((bytes + 7) / 8), 0);
    return v.data();
  }
  GemmCase() {
    const ScaleShape sa = scale_shape(m, k, ScaleLayout::Swizzled128x4);
    const ScaleShape sb = scale_shape(n, k, ScaleLayout::Swizzled128x4);
    a = ConstMxOperand(contiguous<const void>(alloc(a_buf, m * k), m, k, DType::E4M3, Memory::Host),
                       contiguous<const void>(alloc(sa_buf, sa.rows * sa.cols), sa.rows, sa.cols,
                                              DType::E8M0, Memory::Host),
                       ScaleLayout::Swizzled128x4);
    b = ConstMxOperand(contiguous<const void>(alloc(b_buf, n * k), n, k, DType::E4M3, Memory::Host),
                       contiguous<const void>(alloc(sb_buf, sb.rows * sb.cols), sb.rows, sb.cols,
                                              DType::E8M0, Memory::Host),
                       ScaleLayout::Swizzled128x4);
    d = contiguous<void>(alloc(d_buf, m * n * 4), m, n, DType::FP32, Memory::Host);
  }
  void run() { mxfp8_scaled_mm_reference(a, b, 1.0f, d); }
  // The GPU entry point with every view declared Device; skip_checks so that no driver is
  // asked about these (host) pointers: the checks under test are the ones always made.
  void run_device() {
    for (auto* v : {&a.data, &a.scales, &b.data, &b.scales}) v->memory = Memory::Device;
    d.memory = Memory::Device;
    static const float alpha = 1.0f;
    mxfp8_scaled_mm(a, b, &alpha, d, nullptr, /*skip_checks=*/true);
  }
};

TEST(Validation, ValidInputPassesReference) {
  GemmCase c;
  EXPECT_NO_THROW(c.run());
}

TEST(Validation, KMismatchShowsBothShapes) {
  GemmCase c;
  c.b.data.cols = 64;
  c.b.data.row_stride = 64;
  expect_error<ArgumentError>([&] { c.run(); },
                              {"mxfp8_scaled_mm_reference", "b.data.cols (K)", "expected 96",
                               "a is 130x96", "got 64", "b is 70x64"});
}

TEST(Validation, KNotMultipleOf16) {
  GemmCase c;
  c.k = 40;
  for (auto* v : {&c.a.data, &c.b.data}) v->cols = v->row_stride = 40;
  c.a.scales.cols = c.a.scales.row_stride = 4;
  c.b.scales.cols = c.b.scales.row_stride = 4;
  expect_error<ArgumentError>([&] { c.run(); }, {"K (a.data.cols)", "a multiple of 16", "got 40"});
}

TEST(Validation, WrongDataDtypeIsDtypeError) {
  GemmCase c;
  c.a.data.dtype = DType::BF16;
  expect_error<DtypeError>([&] { c.run(); }, {"a.data.dtype", "expected e4m3 or e5m2", "got bf16"});
}

TEST(Validation, WrongScaleDtype) {
  GemmCase c;
  c.b.scales.dtype = DType::E4M3;
  expect_error<DtypeError>([&] { c.run(); }, {"b.scales.dtype", "expected e8m0", "got e4m3"});
}

TEST(Validation, WrongOutputDtype) {
  GemmCase c;
  c.d.dtype = DType::E4M3;
  expect_error<DtypeError>([&] { c.run(); }, {"d.dtype", "bf16 or fp16 or fp32", "got e4m3"});
}

TEST(Validation, NullPointers) {
  {
    GemmCase c;
    c.a.data.data = nullptr;
    expect_error<ArgumentError>([&] { c.run(); }, {"a.data.data", "non-null", "got null"});
  }
  {
    GemmCase c;
    c.b.scales.data = nullptr;
    expect_error<ArgumentError>([&] { c.run(); }, {"b.scales.data", "non-null", "got null"});
  }
  {
    GemmCase c;
    c.d.data = nullptr;
    expect_error<ArgumentError>([&] { c.run(); }, {"d.data", "non-null", "got null"});
  }
}

TEST(Validation, NullAlphaOnGpuEntry) {
  GemmCase c;
  for (auto* v : {&c.a.data, &c.a.scales, &c.b.data, &c.b.scales}) v->memory = Memory::Device;
  c.d.memory = Memory::Device;
  expect_error<ArgumentError>([&] { mxfp8_scaled_mm(c.a, c.b, nullptr, c.d, nullptr, true); },
                              {"alpha", "non-null", "got null"});
}

TEST(Validation, SwizzledScaleShape) {
  GemmCase c;
  c.a.scales.rows = 130;  // unpadded: the swizzled layout needs round_up(130, 128) = 256
  expect_error<ArgumentError>([&] { c.run(); },
                              {"a.scales shape", "expected 256x4", "swizzled128x4", "130x96",
                               "got 130x4"});
}

TEST(Validation, SwizzledScalesMustBeContiguous) {
  GemmCase c;
  c.a.scales.row_stride = 8;
  expect_error<ArgumentError>([&] { c.run(); }, {"a.scales.row_stride", "expected 4", "got 8"});
}

TEST(Validation, LinearScaleShape) {
  GemmCase c;
  c.b.layout = ScaleLayout::Linear;  // needs 70 x 3; the view is 128 x 4
  expect_error<ArgumentError>([&] { c.run(); }, {"b.scales shape", "expected 70x3", "linear", "got 128x4"});
}

TEST(Validation, OutputShape) {
  GemmCase c;
  c.d.cols = c.d.row_stride = 71;
  expect_error<ArgumentError>([&] { c.run(); }, {"d shape", "expected 130x70", "got 130x71"});
}

TEST(Validation, RowStrideSmallerThanCols) {
  GemmCase c;
  c.a.data.row_stride = 80;
  expect_error<ArgumentError>([&] { c.run(); }, {"a.data.row_stride", ">= cols (96)", "got 80"});
}

TEST(Validation, EmptyDimensions) {
  GemmCase c;
  c.a.data.rows = 0;
  expect_error<ArgumentError>([&] { c.run(); }, {"a.data.rows", "expected 1 ..", "got 0"});
}

TEST(Validation, DimensionTooLarge) {
  GemmCase c;
  c.a.data.rows = std::int64_t{1} << 31;
  expect_error<ArgumentError>([&] { c.run(); }, {"a.data.rows", "2147483647", "got 2147483648"});
}

TEST(Validation, ByteSizeOverflow) {
  GemmCase c;
  c.a.data.rows = 2000000000;
  c.a.data.row_stride = std::int64_t{1} << 40;
  expect_error<ArgumentError>([&] { c.run(); }, {"a.data", "< 2^62", "2000000000 * 1099511627776"});
}

TEST(Validation, MisalignedOutput) {
  GemmCase c;
  c.d.data = static_cast<char*>(c.d.data) + 2;
  expect_error<ArgumentError>([&] { c.run(); }, {"d.data", "aligned to 4 bytes (fp32)", "got address 0x"});
}

TEST(Validation, OutputOverlapsInput) {
  GemmCase c;
  c.d.data = const_cast<void*>(c.b.data.data);
  // d (M x N fp32) starting at b's data may also reach into whichever input the heap
  // placed after b: the message names the first overlapping input in argument order.
  expect_error<ArgumentError>([&] { c.run(); }, {"d: expected memory disjoint from ", "overlapping"});
}

TEST(Validation, HostEntryRejectsDeviceViews) {
  GemmCase c;
  c.a.data.memory = Memory::Device;
  expect_error<ArgumentError>([&] { c.run(); }, {"a.data.memory", "expected host", "got device"});
}

TEST(Validation, GpuEntryRejectsHostViews) {
  GemmCase c;
  static const float alpha = 1.0f;
  expect_error<ArgumentError>([&] { mxfp8_scaled_mm(c.a, c.b, &alpha, c.d, nullptr, true); },
                              {"mxfp8_scaled_mm", "a.data.memory", "expected device", "got host"});
}

TEST(Validation, GpuEntryNeeds16ByteAlignedOperands) {
  {
    GemmCase c;
    c.b.data.data = static_cast<const char*>(c.b.data.data) + 8;
    expect_error<ArgumentError>([&] { c.run_device(); }, {"b.data", "16-byte aligned", "got address 0x"});
  }
  {
    GemmCase c;
    c.a.data.row_stride = 104;  // >= K, a multiple of 8 but not 16
    expect_error<ArgumentError>([&] { c.run_device(); },
                                {"a.data.row_stride", "multiple of 16 elements", "got 104"});
  }
}

// --- quantize / dequantize / layout conversion ---------------------------------------

struct QuantCase {
  std::int64_t r = 40, k = 80;
  std::vector<float> x;
  std::vector<std::uint8_t> q, s;
  ConstMatrixView xv;
  MxOperand qv;
  QuantCase() : x(static_cast<size_t>(r * k), 1.0f), q(static_cast<size_t>(r * k)) {
    const ScaleShape ss = scale_shape(r, k, ScaleLayout::Linear);
    s.resize(static_cast<size_t>(ss.rows * ss.cols));
    xv = contiguous<const void>(x.data(), r, k, DType::FP32, Memory::Host);
    qv = MxOperand(contiguous<void>(q.data(), r, k, DType::E4M3, Memory::Host),
                   contiguous<void>(s.data(), ss.rows, ss.cols, DType::E8M0, Memory::Host),
                   ScaleLayout::Linear);
  }
};

TEST(Validation, QuantizeInputDtype) {
  QuantCase c;
  c.xv.dtype = DType::E5M2;
  expect_error<DtypeError>([&] { quantize_mxfp8_reference(c.xv, c.qv, ScaleRounding::Floor); },
                           {"quantize_mxfp8_reference", "x.dtype", "fp32 or bf16 or fp16", "got e5m2"});
}

TEST(Validation, QuantizeOutputShape) {
  QuantCase c;
  c.qv.data.rows = 39;
  c.qv.scales.rows = 39;
  expect_error<ArgumentError>([&] { quantize_mxfp8_reference(c.xv, c.qv, ScaleRounding::Floor); },
                              {"q.data shape", "expected 40x80", "got 39x80"});
}

TEST(Validation, QuantizeOutputDtype) {
  QuantCase c;
  c.qv.data.dtype = DType::FP16;
  expect_error<DtypeError>([&] { quantize_mxfp8_reference(c.xv, c.qv, ScaleRounding::Floor); },
                           {"q.data.dtype", "e4m3 or e5m2", "got fp16"});
}

TEST(Validation, QuantizeScalesShape) {
  QuantCase c;
  c.qv.layout = ScaleLayout::Swizzled128x4;
  expect_error<ArgumentError>([&] { quantize_mxfp8_reference(c.xv, c.qv, ScaleRounding::Floor); },
                              {"q.scales shape", "expected 128x4", "got 40x3"});
}

TEST(Validation, DequantizeOutputDtypeAndShape) {
  QuantCase c;
  std::vector<float> out(static_cast<size_t>(c.r * c.k));
  MatrixView ov = contiguous<void>(out.data(), c.r, c.k, DType::E8M0, Memory::Host);
  expect_error<DtypeError>([&] { dequantize_mxfp8_reference(c.qv, ov); }, {"out.dtype", "got e8m0"});
  ov.dtype = DType::FP32;
  ov.cols = 79;
  expect_error<ArgumentError>([&] { dequantize_mxfp8_reference(c.qv, ov); },
                              {"out shape", "expected 40x80", "got 40x79"});
}

TEST(Validation, ScaleConversionShapes) {
  std::vector<std::uint8_t> lin(300 * 3), swz(384 * 4);
  ConstMatrixView l = contiguous<const void>(lin.data(), 300, 3, DType::E8M0, Memory::Host);
  MatrixView s = contiguous<void>(swz.data(), 384, 4, DType::E8M0, Memory::Host);
  EXPECT_NO_THROW(scales_to_swizzled(l, s, 300, 80));
  expect_error<ArgumentError>([&] { scales_to_swizzled(l, s, 300, 200); },
                              {"scales_to_swizzled", "linear shape", "expected 300x7", "got 300x3"});
  expect_error<ArgumentError>([&] { scales_to_swizzled(l, s, 0, 80); }, {"rows", "got 0"});
  MatrixView s_bad = contiguous<void>(swz.data(), 300, 4, DType::E8M0, Memory::Host);
  expect_error<ArgumentError>([&] { scales_to_swizzled(l, s_bad, 300, 80); },
                              {"swizzled shape", "expected 384x4", "got 300x4"});
}

}  // namespace
}  // namespace mxgemm
