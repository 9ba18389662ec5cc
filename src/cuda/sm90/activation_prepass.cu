// One thread per (row, 32-block) of the activation: 32 fp8 codes and their scale in, 64 bytes
// out: bf16 values in the natural K order, or fp16 codes in the permuted order of the codes
// form. A short launch ahead of the streaming kernel at small M; at large M it costs about
// 3 bytes of traffic per activation element against 2N flops of GEMM.
#include "cuda/sm90/activation_prepass.hpp"

#include "core/check.hpp"
#include "cuda/common/ptx.cuh"
#include "cuda/sm90/mainloop.cuh"
#include "cuda/sm90/scale_window.cuh"
#include "mxgemm/layout.hpp"

namespace mxgemm::sm90 {
namespace {

constexpr int kThreads = 128;
// The streaming kernel starts while this pre-pass runs (programmatic dependent launch) and
// keeps one 640-thread CTA with up to 96 registers per thread on every SM: at 2 CTAs per SM
// worth of registers (32 per thread) a pre-pass CTA fits beside it instead of delaying it.
constexpr int kMinCtasPerSm = 16;

struct PrepassParams {
  const std::uint8_t* a;
  std::int64_t a_stride;  // bytes
  ScaleSource sa;
  int row0;     // first row of a that this launch covers
  int a_rows;   // rows of a (scale rows past it read as 1)
  int m, k, blocks;
  std::uint16_t* out;
  std::int64_t out_stride;  // elements
  float* scales_out;        // codes form only
  std::int64_t scales_stride;
  unsigned int* exact_rows;  // row r := generation where a block needs the exact path
  unsigned int generation;
};

// kCodes: write fp16 codes and the block scales as fp32 to p.scales_out[blk][row] (the
// streaming kernel applies them after the MMA); otherwise bf16 values code * scale.
template <DType kElem, bool kCodes>
__global__ void __launch_bounds__(kThreads, kMinCtasPerSm) activation_prepass_kernel(const PrepassParams p) {
  ptx::griddepcontrol_launch_dependents();
  const std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (idx >= static_cast<std::int64_t>(p.m) * p.blocks) return;
  const int row = static_cast<int>(idx / p.blocks), blk = static_cast<int>(idx % p.blocks);
  // Rows start 16-byte aligned (validated for TMA); K is a multiple of 16, so a block is
  // either whole or its first 16 bytes (the rest reads as zero codes).
  const std::uint8_t* src = p.a + static_cast<std::int64_t>(p.row0 + row) * p.a_stride + blk * 32;
  const bool whole = blk * 32 + 32 <= p.k;
  const uint4 lo = __ldg(reinterpret_cast<const uint4*>(src));
  const uint4 hi = whole ? __ldg(reinterpret_cast<const uint4*>(src + 16)) : make_uint4(0, 0, 0, 0);
  const std::uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  const ScaleRow scale_row(p.sa, p.row0 + row, p.a_rows, p.blocks);
  const std::uint32_t scale_byte = scale_row.load(blk);
  const float scale = cuda::e8m0_to_float(scale_byte);
  std::uint32_t code_bits = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) code_bits |= code_magnitudes(w[i]);
  // Rows only ever gain the mark within a launch; its blocks race to write the same value.
  if (needs_exact_path<kElem>(scale_byte, code_bits)) p.exact_rows[row] = p.generation;
  uint4 out[4];
  if constexpr (kCodes) {
    codes_block_permuted<kElem>(w, out);
    p.scales_out[static_cast<std::int64_t>(blk) * p.scales_stride + row] = scale;
  } else {
#pragma unroll
    for (int t = 0; t < 4; ++t) {
      out[t] = make_uint4(cuda::dequant_pair_bf16x2<kElem>(cuda::byte_pair(w[2 * t], 0), scale),
                          cuda::dequant_pair_bf16x2<kElem>(cuda::byte_pair(w[2 * t], 1), scale),
                          cuda::dequant_pair_bf16x2<kElem>(cuda::byte_pair(w[2 * t + 1], 0), scale),
                          cuda::dequant_pair_bf16x2<kElem>(cuda::byte_pair(w[2 * t + 1], 1), scale));
    }
  }
  uint4* dst = reinterpret_cast<uint4*>(p.out + static_cast<std::int64_t>(row) * p.out_stride + blk * 32);
#pragma unroll
  for (int t = 0; t < 4; ++t) dst[t] = out[t];
}

// BF16 rows whose address or stride TMA cannot take: copied into the workspace, K padded
// to whole 32-element blocks with zeros.
struct WidePrepassParams {
  const std::uint16_t* a;
  std::int64_t a_stride;  // elements
  int m, k, blocks;
  std::uint16_t* out;
  std::int64_t out_stride;  // elements
};

__global__ void __launch_bounds__(kThreads, kMinCtasPerSm) wide_prepass_kernel(const WidePrepassParams p) {
  ptx::griddepcontrol_launch_dependents();
  const std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (idx >= static_cast<std::int64_t>(p.m) * p.blocks) return;
  const int row = static_cast<int>(idx / p.blocks), blk = static_cast<int>(idx % p.blocks);
  const std::uint16_t* src = p.a + static_cast<std::int64_t>(row) * p.a_stride + blk * 32;
  const int valid = p.k - blk * 32 < 32 ? p.k - blk * 32 : 32;  // 16 or 32 (K % 16 == 0)
  std::uint32_t pairs[16];
#pragma unroll
  for (int w = 0; w < 16; ++w)
    pairs[w] = 2 * w < valid ? (static_cast<std::uint32_t>(src[2 * w]) |
                                (static_cast<std::uint32_t>(src[2 * w + 1]) << 16))
                             : 0u;
  uint4* dst = reinterpret_cast<uint4*>(p.out + static_cast<std::int64_t>(row) * p.out_stride + blk * 32);
#pragma unroll
  for (int t = 0; t < 4; ++t) dst[t] = make_uint4(pairs[4 * t], pairs[4 * t + 1], pairs[4 * t + 2], pairs[4 * t + 3]);
}

}  // namespace

void launch_activation_prepass(const ConstMatrixView& a, std::int64_t row0, std::int64_t rows, std::uint16_t* out,
                               std::int64_t out_stride, cudaStream_t stream) {
  WidePrepassParams p{};
  p.a = static_cast<const std::uint16_t*>(a.data) + row0 * a.row_stride;
  p.a_stride = a.row_stride;
  p.m = static_cast<int>(rows);
  p.k = static_cast<int>(a.cols);
  p.blocks = static_cast<int>(scale_cols(p.k));
  p.out = out;
  p.out_stride = out_stride;
  const std::int64_t work = static_cast<std::int64_t>(p.m) * p.blocks;
  wide_prepass_kernel<<<static_cast<unsigned>(ceil_div(work, kThreads)), kThreads, 0, stream>>>(p);
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

namespace {

template <bool kCodes>
void launch_mx_prepass(const ConstMxOperand& a, std::int64_t row0, std::int64_t rows, std::uint16_t* out,
                       std::int64_t out_stride, float* scales_out, std::int64_t scales_stride,
                       const ExactRowMarks& marks, cudaStream_t stream) {
  PrepassParams p{};
  p.a = static_cast<const std::uint8_t*>(a.data.data);
  p.a_stride = a.data.row_stride;
  p.sa = {static_cast<const std::uint8_t*>(a.scales.data), a.scales.row_stride,
          a.layout == ScaleLayout::Swizzled128x4};
  p.row0 = static_cast<int>(row0);
  p.a_rows = static_cast<int>(a.data.rows);
  p.m = static_cast<int>(rows);
  p.k = static_cast<int>(a.data.cols);
  p.blocks = static_cast<int>(scale_cols(p.k));
  p.out = out;
  p.out_stride = out_stride;
  p.scales_out = scales_out;
  p.scales_stride = scales_stride;
  p.exact_rows = marks.rows;
  p.generation = marks.generation;
  const std::int64_t work = static_cast<std::int64_t>(p.m) * p.blocks;
  const unsigned grid = static_cast<unsigned>(ceil_div(work, kThreads));
  if (a.data.dtype == DType::E4M3)
    activation_prepass_kernel<DType::E4M3, kCodes><<<grid, kThreads, 0, stream>>>(p);
  else
    activation_prepass_kernel<DType::E5M2, kCodes><<<grid, kThreads, 0, stream>>>(p);
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_activation_prepass(const ConstMxOperand& a, std::int64_t row0, std::int64_t rows, std::uint16_t* out,
                               std::int64_t out_stride, const ExactRowMarks& marks, cudaStream_t stream) {
  launch_mx_prepass<false>(a, row0, rows, out, out_stride, nullptr, 0, marks, stream);
}

void launch_activation_codes_prepass(const ConstMxOperand& a, std::int64_t row0, std::int64_t rows,
                                     std::uint16_t* out, std::int64_t out_stride, float* scales,
                                     std::int64_t scales_stride, const ExactRowMarks& marks, cudaStream_t stream) {
  launch_mx_prepass<true>(a, row0, rows, out, out_stride, scales, scales_stride, marks, stream);
}

}  // namespace mxgemm::sm90
