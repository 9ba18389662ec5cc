// The weight-only GEMM's fp16 values form for BF16 activations: the shape rule that picks it
// (weight_only_f16_form_preferred, measured on the H200: bench/results/s31/README.md), and the
// pre-pass's refusals of what it cannot read (no GPU needed: it checks before launching).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "cuda/sm90/activation_prepass.hpp"
#include "cuda/sm90/stream_gemm_sm90.hpp"
#include "mxgemm/errors.hpp"

namespace mxgemm::sm90 {
namespace {

// The H200's and the H100's (SXM) SMs and peak memory bandwidth.
constexpr int kSms = 132;
constexpr double kH200Dram = 4.8e12, kH100Dram = 3.35e12;

TEST(WeightOnlyF16Form, PicksTheFormMeasuredFaster) {
  const struct { std::int64_t m, n, k; bool f16; } choices[] = {
      // 33..128 rows on weights of N >= 8192 and >= 2^26 elements.
      {64, 28672, 8192, true}, {64, 8192, 28672, true}, {64, 8192, 8192, true}, {128, 28672, 8192, true},
      {48, 14336, 14336, true},
      {64, 1024, 8192, false}, {64, 4096, 4096, false}, {64, 4096, 14336, false}, {128, 4096, 16384, false},
      // 17..32 rows over 2^27 elements, not where the bf16 form splits K (N about 8192).
      {17, 28672, 8192, true}, {32, 28672, 28672, true}, {32, 14336, 14336, true},
      {32, 8192, 28672, false}, {32, 8192, 8192, false}, {24, 14336, 4096, false},
      // Up to 16 rows (the codes form, 16-row tiles) and 256 rows and more: never.
      {16, 28672, 8192, false}, {129, 28672, 8192, false}, {256, 14336, 14336, false}};
  for (const auto& c : choices)
    EXPECT_EQ(weight_only_f16_form_preferred(c.m, c.n, c.k, kSms, kH200Dram), c.f16) << c.m << " x " << c.n << " x " << c.k;
}

// On an H100's memory bandwidth, 33..64 rows of weights whose 64-row tiles fill the SMs keep the
// bf16 form (measured faster there: bench/results/s50); elsewhere both GPUs pick alike.
TEST(WeightOnlyF16Form, KeepsTheBf16FormWhereTheH100sMemoryBinds) {
  const struct { std::int64_t m, n, k; bool f16_h100, f16_h200; } choices[] = {
      {48, 8192, 8192, false, true},   {64, 8192, 28672, false, true}, {33, 8192, 8192, false, true},
      {64, 8192, 8192, false, true},   {64, 28672, 8192, true, true},  {48, 14336, 14336, true, true},
      {65, 8192, 8192, true, true},    {96, 8192, 8192, true, true},   {128, 8192, 28672, true, true},
      {32, 28672, 8192, true, true},   {32, 8192, 28672, false, false}, {16, 28672, 8192, false, false}};
  for (const auto& c : choices) {
    EXPECT_EQ(weight_only_f16_form_preferred(c.m, c.n, c.k, kSms, kH100Dram), c.f16_h100) << c.m << " x " << c.n << " x " << c.k;
    EXPECT_EQ(weight_only_f16_form_preferred(c.m, c.n, c.k, kSms, kH200Dram), c.f16_h200) << c.m << " x " << c.n << " x " << c.k;
  }
}

// Where the bf16 form reads 33..64 rows in place on the H100 (the test above), those rows are
// copied into the permuted K order first (measured faster there: bench/results/s55/call4), and
// nowhere else: not at 17..32 rows (slower), not where the fp16 form runs, not on the H200.
TEST(WeightOnlyF16Form, CopiesIntoThePermutedOrderWhereTheH100KeepsTheBf16Form) {
  const struct { std::int64_t m, n, k; bool h100; } choices[] = {
      {48, 8192, 8192, true},   {64, 8192, 28672, true},  {33, 8192, 8192, true},  {64, 8192, 8192, true},
      {48, 8192, 28672, true},  {32, 8192, 28672, false}, {17, 8192, 8192, false}, {16, 8192, 8192, false},
      {65, 8192, 8192, false},  {64, 28672, 8192, false}, {64, 4096, 8192, false}, {64, 8192, 4096, false},
      {48, 14336, 14336, false}, {128, 8192, 28672, false}};
  for (const auto& c : choices) {
    const std::string what = std::to_string(c.m) + " x " + std::to_string(c.n) + " x " + std::to_string(c.k);
    EXPECT_EQ(weight_only_bf16_permuted_preferred(c.m, c.n, c.k, kSms, kH100Dram), c.h100) << what;
    EXPECT_FALSE(weight_only_bf16_permuted_preferred(c.m, c.n, c.k, kSms, kH200Dram)) << what;
    // Never where the fp16 form runs: the two copies are alternatives.
    if (c.h100) EXPECT_FALSE(weight_only_f16_form_preferred(c.m, c.n, c.k, kSms, kH100Dram)) << what;
  }
}

// What the chunked row pre-passes (the fp16 form's and the copy into the permuted K order)
// refuse, naming the function, the argument, the expectation and the actual value: another dtype
// than BF16, rows not 16-byte aligned (address, stride or K).
template <typename E>
void expect_refused(const ConstMatrixView& a, const std::string& expected, const std::string& actual) {
  std::uint16_t out[64];
  float row_scale = 0;
  unsigned int mark = 0;
  const auto expect_message = [&](const char* fn, const auto& launch) {
    try {
      launch();
      ADD_FAILURE() << fn << ", " << actual << ": not refused";
    } catch (const E& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(fn), std::string::npos) << what;
      EXPECT_NE(what.find(expected), std::string::npos) << what;
      EXPECT_NE(what.find(actual), std::string::npos) << what;
    }
  };
  expect_message("launch_activation_f16_rows_prepass", [&] {
    launch_activation_f16_rows_prepass(a, 0, a.rows, out, 64, ExactRowMarks{&mark, 1}, &row_scale, nullptr);
  });
  expect_message("launch_activation_bf16_permuted_prepass",
                 [&] { launch_activation_bf16_permuted_prepass(a, 0, a.rows, out, 64, nullptr); });
}

TEST(WeightOnlyF16Form, PrepassRefusesWhatItCannotRead) {
  alignas(16) static std::uint16_t row[64];
  expect_refused<DtypeError>(ConstMatrixView(row, 1, 32, 32, DType::FP16, Memory::Device), "a.dtype: expected BF16",
                             "got fp16");
  expect_refused<ArgumentError>(ConstMatrixView(row + 1, 1, 32, 32, DType::BF16, Memory::Device), "16-byte aligned",
                                "address % 16 = 2");
  expect_refused<ArgumentError>(ConstMatrixView(row, 2, 16, 20, DType::BF16, Memory::Device), "16-byte aligned",
                                "row stride 20");
  expect_refused<ArgumentError>(ConstMatrixView(row, 1, 36, 36, DType::BF16, Memory::Device), "16-byte aligned",
                                "36 columns");
}

}  // namespace
}  // namespace mxgemm::sm90
