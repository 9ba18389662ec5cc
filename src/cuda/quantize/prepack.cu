// Weight prepacking (mxgemm/prepack.hpp): each 32-byte block's bytes moved into the
// KOrder::Prepacked order, one thread a block (two 16-byte loads, eight byte permutes, two
// 16-byte stores). A thread reads its whole block before writing it, so out may be w itself.
#include <cuda_runtime.h>

#include <cstdint>

#include "core/check.hpp"
#include "cuda/quantize/launch.hpp"
#include "mxgemm/layout.hpp"

namespace mxgemm {
namespace cuda {
namespace {

constexpr int kThreads = 256;

struct PrepackParams {
  const std::uint8_t* w;
  std::int64_t w_stride;  // bytes
  std::uint8_t* out;
  std::int64_t out_stride;  // bytes
  std::int64_t blocks_per_row;
  std::int64_t blocks;  // rows x blocks_per_row
};

// Output word 2q + h of a block (bytes 8q + 4h + 2i + j) holds elements 16h + 8i + 2q + j:
// for i = 0 and 1 the 16-bit pairs 8h + q and 8h + 4 + q of the input, i.e. half q % 2 of
// input words 4h + q / 2 and 4h + 2 + q / 2.
__device__ __forceinline__ void prepack_block(const std::uint32_t (&in)[8], std::uint32_t (&out)[8]) {
#pragma unroll
  for (int q = 0; q < 4; ++q)
#pragma unroll
    for (int h = 0; h < 2; ++h)
      out[2 * q + h] = __byte_perm(in[4 * h + q / 2], in[4 * h + 2 + q / 2], (q & 1) ? 0x7632 : 0x5410);
}

__global__ void __launch_bounds__(kThreads) prepack_weight_kernel(const PrepackParams p) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kThreads;
  for (std::int64_t b = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x; b < p.blocks; b += stride) {
    const std::int64_t row = b / p.blocks_per_row, col = (b % p.blocks_per_row) * kBlockSize;
    const auto* src = reinterpret_cast<const uint4*>(p.w + row * p.w_stride + col);
    const uint4 lo = src[0], hi = src[1];
    const std::uint32_t in[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
    std::uint32_t out[8];
    prepack_block(in, out);
    auto* dst = reinterpret_cast<uint4*>(p.out + row * p.out_stride + col);
    dst[0] = make_uint4(out[0], out[1], out[2], out[3]);
    dst[1] = make_uint4(out[4], out[5], out[6], out[7]);
  }
}

}  // namespace
}  // namespace cuda

void detail::launch_prepack_weight(const ConstMatrixView& w, const MatrixView& out, cudaStream_t stream) {
  cuda::PrepackParams p{};
  p.w = static_cast<const std::uint8_t*>(w.data);
  p.w_stride = w.row_stride;
  p.out = static_cast<std::uint8_t*>(out.data);
  p.out_stride = out.row_stride;
  p.blocks_per_row = w.cols / kBlockSize;
  p.blocks = w.rows * p.blocks_per_row;
  // A grid-stride loop: up to 2^16 CTAs of 256 blocks (128 MB a pass) whatever the weight.
  const std::int64_t ctas = ceil_div(p.blocks, cuda::kThreads);
  cuda::prepack_weight_kernel<<<static_cast<unsigned>(ctas < 65536 ? ctas : 65536), cuda::kThreads, 0, stream>>>(p);
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace mxgemm
