// Scale layouts: the offset functions, scale shapes and the host conversions.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "mxgemm/layout.hpp"

namespace mxgemm {
namespace {

// (rows, K) pairs covering a partial row tile, exact tiles, a partial column tile and a
// short last block.
const std::vector<std::pair<std::int64_t, std::int64_t>> kShapes = {
    {1, 16}, {1, 32}, {127, 48}, {128, 32}, {128, 256}, {129, 48},
    {300, 16}, {300, 4096 + 16}, {256, 512}, {1, 4096 + 16}};

TEST(LayoutOffsets, CheckValuesFromSpec) {
  // MX_FORMAT.md: 128 rows, 8 scale columns (two column tiles).
  EXPECT_EQ(swizzled_scale_offset(5, 2, 8), 82);
  EXPECT_EQ(swizzled_scale_offset(5, 5, 8), 593);
  EXPECT_EQ(swizzled_scale_offset(0, 0, 8), 0);
  EXPECT_EQ(swizzled_scale_offset(127, 7, 8), 1023);  // last byte of the second tile
  EXPECT_EQ(swizzled_scale_offset(128, 0, 8), 1024);  // the next row tile follows
  EXPECT_EQ(linear_scale_offset(3, 2, 10), 32);
}

TEST(LayoutShape, BothLayouts) {
  const ScaleShape lin = scale_shape(300, 4096 + 16, ScaleLayout::Linear);
  EXPECT_EQ(lin.rows, 300);
  EXPECT_EQ(lin.cols, 129);
  const ScaleShape swz = scale_shape(300, 4096 + 16, ScaleLayout::Swizzled128x4);
  EXPECT_EQ(swz.rows, 384);
  EXPECT_EQ(swz.cols, 132);
  const ScaleShape tiny = scale_shape(1, 16, ScaleLayout::Swizzled128x4);
  EXPECT_EQ(tiny.rows, 128);
  EXPECT_EQ(tiny.cols, 4);
  const ScaleShape tiny_lin = scale_shape(1, 16, ScaleLayout::Linear);
  EXPECT_EQ(tiny_lin.rows, 1);
  EXPECT_EQ(tiny_lin.cols, 1);
  const ScaleShape exact = scale_shape(256, 512, ScaleLayout::Swizzled128x4);
  EXPECT_EQ(exact.rows, 256);
  EXPECT_EQ(exact.cols, 16);
  EXPECT_EQ(scale_cols(33), 2);
  EXPECT_EQ(scale_cols(32), 1);
}

TEST(LayoutOffsets, BijectionOntoPaddedBuffer) {
  for (const auto& [rows, k] : kShapes) {
    SCOPED_TRACE(testing::Message() << rows << "x" << k);
    const ScaleShape padded = scale_shape(rows, k, ScaleLayout::Swizzled128x4);
    const std::int64_t size = padded.rows * padded.cols;
    std::vector<int> hits(static_cast<std::size_t>(size), 0);
    for (std::int64_t r = 0; r < padded.rows; ++r) {
      for (std::int64_t c = 0; c < padded.cols; ++c) {
        const std::int64_t off = swizzled_scale_offset(r, c, scale_cols(k));
        ASSERT_GE(off, 0);
        ASSERT_LT(off, size);
        ++hits[static_cast<std::size_t>(off)];
      }
    }
    for (std::int64_t i = 0; i < size; ++i) ASSERT_EQ(hits[static_cast<std::size_t>(i)], 1) << i;
  }
}

// The swizzled buffer built the way torchao's to_blocked builds it, by reshapes rather
// than by an offset formula: pad, view as (row_tiles, 128, col_tiles, 4), permute to
// (row_tiles, col_tiles, 128, 4), split 128 rows as (4, 32), transpose to (32, 4) and
// flatten -- written here as loops in output order.
std::vector<std::uint8_t> to_blocked(const std::vector<std::uint8_t>& lin, std::int64_t rows,
                                     std::int64_t cols, std::uint8_t pad) {
  const std::int64_t row_tiles = (rows + 127) / 128;
  const std::int64_t col_tiles = (cols + 3) / 4;
  std::vector<std::uint8_t> out;
  for (std::int64_t rt = 0; rt < row_tiles; ++rt)
    for (std::int64_t ct = 0; ct < col_tiles; ++ct)
      for (std::int64_t inner = 0; inner < 32; ++inner)
        for (std::int64_t outer = 0; outer < 4; ++outer)
          for (std::int64_t cc = 0; cc < 4; ++cc) {
            const std::int64_t r = rt * 128 + outer * 32 + inner;
            const std::int64_t c = ct * 4 + cc;
            out.push_back(r < rows && c < cols ? lin[static_cast<std::size_t>(r * cols + c)] : pad);
          }
  return out;
}

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

TEST(LayoutConversion, RoundTripAndPadding) {
  for (std::int64_t rows : {1, 127, 128, 129, 300}) {
    for (std::int64_t k : {16, 32, 48, 4096 + 16}) {
      SCOPED_TRACE(testing::Message() << rows << "x" << k);
      const std::int64_t cols = scale_cols(k);
      const ScaleShape padded = scale_shape(rows, k, ScaleLayout::Swizzled128x4);
      const auto lin = random_bytes(static_cast<std::size_t>(rows * cols), 1234);
      constexpr std::uint8_t kPad = 0xA5;
      std::vector<std::uint8_t> swz(static_cast<std::size_t>(padded.rows * padded.cols), 0x11);
      scales_to_swizzled(contiguous(lin.data(), rows, cols, DType::E8M0, Memory::Host),
                         contiguous(swz.data(), padded.rows, padded.cols, DType::E8M0, Memory::Host),
                         rows, k, kPad);
      // Every byte, padding included, as torchao's reshape construction places it.
      ASSERT_EQ(swz, to_blocked(lin, rows, cols, kPad));
      // Every padding byte holds the pad value.
      for (std::int64_t r = 0; r < padded.rows; ++r) {
        for (std::int64_t c = 0; c < padded.cols; ++c) {
          if (r >= rows || c >= cols) {
            ASSERT_EQ(swz[static_cast<std::size_t>(swizzled_scale_offset(r, c, cols))], kPad);
          }
        }
      }

      std::vector<std::uint8_t> back(lin.size(), 0xEE);
      scales_to_linear(contiguous(swz.data(), padded.rows, padded.cols, DType::E8M0, Memory::Host),
                       contiguous(back.data(), rows, cols, DType::E8M0, Memory::Host), rows, k);
      ASSERT_EQ(back, lin);
    }
  }
}

TEST(LayoutConversion, DefaultPadIsZero) {
  const std::int64_t rows = 3, k = 40;  // 2 scale columns
  const std::vector<std::uint8_t> lin = {1, 2, 3, 4, 5, 6};
  std::vector<std::uint8_t> swz(128 * 4, 0x77);
  scales_to_swizzled(contiguous(lin.data(), rows, 2, DType::E8M0, Memory::Host),
                     contiguous(swz.data(), 128, 4, DType::E8M0, Memory::Host), rows, k);
  EXPECT_EQ(swz[0], 1);
  EXPECT_EQ(swz[1], 2);
  EXPECT_EQ(swz[16], 3);  // row 1 starts 16 bytes further
  EXPECT_EQ(swz[33], 6);
  EXPECT_EQ(swz[2], 0);  // column 2 is padding
  EXPECT_EQ(swz[4], 0);  // row 32 is padding
  int nonzero = 0;
  for (auto b : swz) nonzero += b != 0;
  EXPECT_EQ(nonzero, 6);
}

TEST(LayoutConversion, StridedLinear) {
  // A linear view whose row_stride exceeds its columns: the gap is read from no one and
  // left untouched on write.
  const std::int64_t rows = 130, k = 96, cols = 3, stride = 5;
  constexpr std::uint8_t kGap = 0xCD;
  std::vector<std::uint8_t> lin(static_cast<std::size_t>(rows * stride), kGap);
  std::vector<std::uint8_t> dense(static_cast<std::size_t>(rows * cols));
  std::mt19937 rng(5);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      dense[static_cast<std::size_t>(r * cols + c)] = lin[static_cast<std::size_t>(r * stride + c)] =
          static_cast<std::uint8_t>(rng() % 255);
  const ScaleShape padded = scale_shape(rows, k, ScaleLayout::Swizzled128x4);
  std::vector<std::uint8_t> swz(static_cast<std::size_t>(padded.rows * padded.cols));
  scales_to_swizzled(ConstMatrixView(lin.data(), rows, cols, stride, DType::E8M0, Memory::Host),
                     contiguous(swz.data(), padded.rows, padded.cols, DType::E8M0, Memory::Host),
                     rows, k);
  EXPECT_EQ(swz, to_blocked(dense, rows, cols, 0));

  std::vector<std::uint8_t> back(lin.size(), kGap);
  scales_to_linear(contiguous(swz.data(), padded.rows, padded.cols, DType::E8M0, Memory::Host),
                   MatrixView(back.data(), rows, cols, stride, DType::E8M0, Memory::Host), rows, k);
  EXPECT_EQ(back, lin);  // scales restored, gap bytes still kGap
}

}  // namespace
}  // namespace mxgemm
