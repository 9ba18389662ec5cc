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

// Output word o of a block (bytes 4o .. 4o + 3) holds two pairs of consecutive elements, from
// prepacked_element(4o) and prepacked_element(4o + 2) (layout.hpp), each the low or high half of
// an input word: one byte permute a word, every index a constant.
__device__ __forceinline__ void prepack_block(const std::uint32_t (&in)[8], std::uint32_t (&out)[8]) {
#pragma unroll
  for (int o = 0; o < 8; ++o) {
    const int lo = static_cast<int>(prepacked_element(4 * o)), hi = static_cast<int>(prepacked_element(4 * o + 2));
    out[o] = __byte_perm(in[lo / 4], in[hi / 4], (lo % 4 == 0 ? 0x0010 : 0x0032) | (hi % 4 == 0 ? 0x5400 : 0x7600));
  }
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
