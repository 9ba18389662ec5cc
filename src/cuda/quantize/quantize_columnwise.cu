// Columnwise MXFP8 quantization: x (R x K) -> qt (K x R, R contiguous) + scales, i.e. the
// transpose of x quantized rowwise, blocks of 32 along R. What the backward pass of a
// linear layer needs (dW = dY^T X contracts over the rows).
//
// One CTA per tile of kTileRows x kTileCols of x. The tile arrives with coalesced 16-byte
// cp.async into shared memory. Thread (column k, row block j) reads its 32 values down the
// column (a warp reads 32 adjacent columns of one row: no bank conflicts), takes the amax
// and encodes its 32 codes -- contiguous in row k of qt -- into a shared-memory output
// tile (rows padded by 16 bytes: conflict-free). The CTA then stores the output tile with
// 16-byte stores, 8 threads per 128-byte row segment of qt, so every store instruction
// writes whole 128-byte lines (stored straight from each thread, 32 separate 16-byte
// pieces of lines per instruction, the L2 handled twice the requests and was the limit).
#include <cuda_runtime.h>

#include "core/check.hpp"
#include "cuda/common/grid.cuh"
#include "cuda/common/mx_convert.cuh"
#include "cuda/common/ptx.cuh"
#include "cuda/quantize/launch.hpp"

namespace mxgemm {
namespace cuda {
namespace {

struct ColumnwiseConfig {
  static constexpr int kThreads = 256;
  // 128 rows of x = 128 bytes of each qt row: a CTA writes whole 128-byte lines of qt, and
  // reads whole 128-byte (bf16/fp16) or 256-byte (fp32) line runs of x.
  static constexpr int kTileRows = 128;  // rows of x (R): four 32-blocks
  static constexpr int kTileCols = 64;   // columns of x (K) = rows of the output tile
  static constexpr int kOutPitch = kTileRows + 16;  // bytes per output-tile row (padded)
  static constexpr int kMinCtasPerSm = 4;           // <= 64 registers
  static_assert(kTileRows % kBlockSize == 0, "whole blocks per tile");
  static_assert(kThreads == kTileCols * (kTileRows / kBlockSize),
                "one thread per (column, block) of a tile");
  static_assert(kTileCols * kTileRows / 16 % kThreads == 0, "whole 16-byte stores per thread");
};

struct ColumnwiseParams {
  const void* x;
  std::int64_t x_stride;  // elements
  std::int64_t rows;      // R
  std::int64_t k;         // K
  std::uint8_t* qt;
  std::int64_t qt_stride;  // bytes
  std::uint8_t* scales;
  std::int64_t scale_stride;  // linear layout only
  std::int64_t n_scale_cols;  // ceil(R / 32): scale columns of qt
  std::int64_t tiles_k;       // tiles along K
  std::int64_t tiles;         // all tiles
  bool swizzled;
  bool rceil;
  bool qt_vec;  // qt and its row stride 16-byte aligned
};

// kVecIn: x and its row stride are 16-byte aligned: in-bounds 16-byte chunks load as vectors.
template <typename In, DType Elem, bool kVecIn>
__global__ void __launch_bounds__(ColumnwiseConfig::kThreads, ColumnwiseConfig::kMinCtasPerSm)
    quantize_columnwise_kernel(const ColumnwiseParams p) {
  using Cfg = ColumnwiseConfig;
  using B = Bits<In>;
  constexpr int V = 16 / sizeof(In);
  constexpr int kChunksPerRow = Cfg::kTileCols / V;
  constexpr int kChunksPerThread = Cfg::kTileRows * kChunksPerRow / Cfg::kThreads;
  static_assert(kChunksPerThread * Cfg::kThreads == Cfg::kTileRows * kChunksPerRow,
                "the tile splits evenly into 16-byte chunks per thread");
  static_assert(Cfg::kTileRows * Cfg::kTileCols * sizeof(B) + Cfg::kTileCols * Cfg::kOutPitch <=
                    48 * 1024,
                "tiles fit static shared memory");
  __shared__ __align__(16) B tile[Cfg::kTileRows][Cfg::kTileCols];
  __shared__ __align__(16) std::uint8_t out_tile[Cfg::kTileCols][Cfg::kOutPitch];
  const auto* x = static_cast<const B*>(p.x);

  for (std::int64_t t = blockIdx.x; t < p.tiles; t += gridDim.x) {
    const std::int64_t r0 = (t / p.tiles_k) * Cfg::kTileRows;
    const std::int64_t k0 = (t % p.tiles_k) * Cfg::kTileCols;

    // Load: every 16-byte chunk in bounds as one cp.async, the rest element by element;
    // what lies outside x is 0, which leaves every amax as it is.
#pragma unroll
    for (int i = 0; i < kChunksPerThread; ++i) {
      const int c = threadIdx.x + i * Cfg::kThreads;
      const int row = c / kChunksPerRow, col = (c % kChunksPerRow) * V;
      const std::int64_t r = r0 + row, kk = k0 + col;
      if (kVecIn && r < p.rows && kk + V <= p.k) {
        cp_async_16(&tile[row][col], x + r * p.x_stride + kk);
      } else {
#pragma unroll
        for (int j = 0; j < V; ++j)
          tile[row][col + j] = (r < p.rows && kk + j < p.k) ? x[r * p.x_stride + kk + j] : B{0};
      }
    }
    cp_async_wait_all();
    __syncthreads();

    // Quantize: one (column, block) per thread, codes into the output tile.
    {
      const int kl = threadIdx.x % Cfg::kTileCols;
      const int jb = threadIdx.x / Cfg::kTileCols;
      const std::int64_t kk = k0 + kl;
      const std::int64_t rb = r0 + jb * kBlockSize;
      const B* column = &tile[jb * kBlockSize][kl];
      // amax on the raw bits (sign cleared), widened to fp32 bits once.
      constexpr std::uint32_t kRawAbs = sizeof(B) == 4 ? kAbsMask : 0x7FFFu;
      std::uint32_t raw_amax = 0;
#pragma unroll
      for (int i = 0; i < kBlockSize; ++i)
        raw_amax = max(raw_amax, static_cast<std::uint32_t>(column[i * Cfg::kTileCols]) & kRawAbs);
      const BlockScale s =
          block_scale<Elem>(abs_bits(bits_to_float<In>(static_cast<B>(raw_amax))), p.rceil);
      // Second pass over the column, read again from shared memory (volatile: so the
      // compiler does not keep all 32 values of the first pass in registers).
      const volatile B* again = column;
      std::uint32_t words[kBlockSize / 4];
#pragma unroll
      for (int w = 0; w < kBlockSize / 4; ++w) {
        float v[4];
#pragma unroll
        for (int i = 0; i < 4; ++i) v[i] = bits_to_float<In>(again[(4 * w + i) * Cfg::kTileCols]);
        encode_block_part<Elem, 4>(v, s, &words[w]);
      }
      auto* o = reinterpret_cast<uint4*>(&out_tile[kl][jb * kBlockSize]);
      o[0] = make_uint4(words[0], words[1], words[2], words[3]);
      o[1] = make_uint4(words[4], words[5], words[6], words[7]);
      if (kk < p.k && rb < p.rows)
        p.scales[scale_offset(p.swizzled, kk, rb / kBlockSize, p.n_scale_cols, p.scale_stride)] =
            static_cast<std::uint8_t>(s.byte);
    }
    __syncthreads();

    // Store: 8 threads per 128-byte row segment of qt.
    constexpr int kPiecesPerRow = Cfg::kTileRows / 16;
#pragma unroll
    for (int i = 0; i < Cfg::kTileCols * kPiecesPerRow / Cfg::kThreads; ++i) {
      const int c = threadIdx.x + i * Cfg::kThreads;
      const int row = c / kPiecesPerRow, piece = c % kPiecesPerRow;
      const std::int64_t kk = k0 + row, r = r0 + piece * 16;
      if (kk >= p.k || r >= p.rows) continue;
      const uint4 v = *reinterpret_cast<const uint4*>(&out_tile[row][piece * 16]);
      std::uint8_t* dst = p.qt + kk * p.qt_stride + r;
      if (p.qt_vec && r + 16 <= p.rows) {
        *reinterpret_cast<uint4*>(dst) = v;
      } else {
        const std::uint32_t w4[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
        for (int j = 0; j < 16; ++j)
          if (r + j < p.rows) dst[j] = static_cast<std::uint8_t>(w4[j / 4] >> (8 * (j % 4)));
      }
    }
    __syncthreads();  // the next tile overwrites both tiles
  }

  if (p.swizzled) {
    zero_swizzle_padding(p.scales, p.k, p.n_scale_cols,
                         std::int64_t{blockIdx.x} * Cfg::kThreads + threadIdx.x,
                         std::int64_t{gridDim.x} * Cfg::kThreads);
  }
}

template <typename In, DType Elem>
void launch_typed(const ColumnwiseParams& p, bool vec_in, cudaStream_t stream) {
  const auto kernel = vec_in ? quantize_columnwise_kernel<In, Elem, true>
                             : quantize_columnwise_kernel<In, Elem, false>;
  // One tile per CTA where the grid allows; the loop covers any remainder.
  const int grid = static_cast<int>(std::min<std::int64_t>(p.tiles, std::int64_t{1} << 30));
  kernel<<<grid, ColumnwiseConfig::kThreads, 0, stream>>>(p);
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

template <typename In>
void launch_for_input(const ColumnwiseParams& p, DType elem, bool vec_in, cudaStream_t stream) {
  if (elem == DType::E4M3) {
    launch_typed<In, DType::E4M3>(p, vec_in, stream);
  } else {
    launch_typed<In, DType::E5M2>(p, vec_in, stream);
  }
}

}  // namespace
}  // namespace cuda

void detail::launch_quantize_columnwise(const ConstMatrixView& x, const MxOperand& qt,
                                        ScaleRounding rounding, cudaStream_t stream) {
  using Cfg = cuda::ColumnwiseConfig;
  cuda::ColumnwiseParams p{};
  p.x = x.data;
  p.x_stride = x.row_stride;
  p.rows = x.rows;
  p.k = x.cols;
  p.qt = static_cast<std::uint8_t*>(qt.data.data);
  p.qt_stride = qt.data.row_stride;
  p.scales = static_cast<std::uint8_t*>(qt.scales.data);
  p.scale_stride = qt.scales.row_stride;
  p.n_scale_cols = scale_cols(x.rows);
  p.tiles_k = ceil_div(x.cols, Cfg::kTileCols);
  p.tiles = ceil_div(x.rows, Cfg::kTileRows) * p.tiles_k;
  p.swizzled = qt.layout == ScaleLayout::Swizzled128x4;
  p.rceil = rounding == ScaleRounding::RCeil;
  p.qt_vec = cuda::aligned16(qt.data.data) && qt.data.row_stride % 16 == 0;
  const bool vec_in =
      cuda::aligned16(x.data) && (x.row_stride * dtype_size(x.dtype)) % 16 == 0;
  switch (x.dtype) {
    case DType::FP32:
      cuda::launch_for_input<float>(p, qt.data.dtype, vec_in, stream);
      break;
    case DType::BF16:
      cuda::launch_for_input<__nv_bfloat16>(p, qt.data.dtype, vec_in, stream);
      break;
    default:
      cuda::launch_for_input<__half>(p, qt.data.dtype, vec_in, stream);
      break;
  }
}

}  // namespace mxgemm
