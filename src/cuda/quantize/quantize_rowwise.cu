// Rowwise MXFP8 quantization: x (R x K, FP32/BF16/FP16) -> fp8 codes + E8M0 scales, one
// scale per 32 consecutive elements of a row, in either scale layout.
//
// The kernel is bound by instruction issue as much as by memory (measured: 21 instructions
// per element at 16-byte parts), so the per-block work -- amax reduction, scale rule,
// scale store, addressing -- is spread over as many elements as possible: a group of
// G = 32 / V threads owns one 32-block and each thread V = 32 / sizeof(input) consecutive
// elements, i.e. 32 contiguous input bytes loaded as two 16-byte loads (V = 16, G = 2 for
// BF16/FP16; V = 8, G = 4 for FP32). The amax is taken on the raw bits (max.u16x2 for
// 16-bit inputs) and reduced over the group by log2(G) xor-shuffles; the codes go out as
// one 16-byte (or 8-byte) store. The groups of a warp hold consecutive blocks of a row. A
// persistent grid walks the blocks kUnroll at a time per thread, loads first.
#include <cuda_runtime.h>

#include <string>

#include "core/check.hpp"
#include "cuda/common/grid.cuh"
#include "cuda/common/mx_convert.cuh"
#include "cuda/quantize/launch.hpp"

namespace mxgemm {
namespace cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 2;        // blocks per thread in flight (64 input bytes)
constexpr int kMinCtasPerSm = 4;  // <= 64 registers: 1024 threads per SM

struct RowwiseParams {
  const void* x;
  std::int64_t x_stride;  // elements
  std::uint8_t* q;
  std::int64_t q_stride;  // bytes
  std::uint8_t* scales;
  std::int64_t scale_stride;  // linear layout only
  std::int64_t k;
  bool swizzled;
  bool rceil;
  bool q_vec;  // q and its row stride 16-byte aligned: whole-block parts stored as vectors
  BlockGrid grid;
};

template <typename In>
struct RowwiseShape {
  static constexpr int kV = 32 / sizeof(In);   // elements per thread of a block
  static constexpr int kG = kBlockSize / kV;   // threads per block
  static constexpr int kW = 8;                 // input words per thread (32 bytes)
  static constexpr int kOutWords = kV / 4;     // output words per thread
};

// kVecIn: x and its row stride are 16-byte aligned, so full blocks load as 16-byte vectors.
template <typename In, DType Elem, bool kVecIn>
__global__ void __launch_bounds__(kThreads, kVecIn ? kMinCtasPerSm : 2)
    quantize_rowwise_kernel(const RowwiseParams p) {
  using S = RowwiseShape<In>;
  constexpr int V = S::kV, G = S::kG, W = S::kW;
  constexpr int kUnroll = kVecIn ? cuda::kUnroll : 1;  // the element-by-element path: 1
  const int part = (threadIdx.x % 32) % G;  // which V elements of its block this thread owns
  const BlockGrid& g = p.grid;
  const auto* x = static_cast<const Bits<In>*>(p.x);

  BlockCursor cur = BlockCursor::at((blockIdx.x * kThreads + threadIdx.x) / G, g);
  // The amax shuffles need the whole warp: loop while any of its groups has a block.
  while (__any_sync(~0u, cur.valid(g))) {
    BlockCursor c[kUnroll];
    c[0] = cur;
#pragma unroll
    for (int u = 1; u < kUnroll; ++u) c[u] = c[u - 1].next(g);

    // Loads first, all of them: 2 * kUnroll 16-byte loads in flight per thread.
    std::uint32_t w[kUnroll][W];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const bool full = (c[u].col + 1) * std::int64_t{kBlockSize} <= p.k;
      uint4 a = make_uint4(0, 0, 0, 0), b = a;
      if (kVecIn && full && c[u].valid(g)) {
        const auto* src = reinterpret_cast<const uint4*>(
            x + c[u].row * p.x_stride + std::int64_t{c[u].col} * kBlockSize + part * V);
        a = __ldg(src);
        b = __ldg(src + 1);
      }
      w[u][0] = a.x, w[u][1] = a.y, w[u][2] = a.z, w[u][3] = a.w;
      w[u][4] = b.x, w[u][5] = b.y, w[u][6] = b.z, w[u][7] = b.w;
    }

#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const bool valid = c[u].valid(g);
      const std::int64_t col0 = std::int64_t{c[u].col} * kBlockSize + part * V;
      const bool full = col0 - part * V + kBlockSize <= p.k;
      if (!(kVecIn && full)) {  // short last block of a row, or unaligned input
        const Bits<In>* src = x + c[u].row * p.x_stride + col0;
#pragma unroll
        for (int i = 0; i < W; ++i) w[u][i] = 0;
#pragma unroll
        for (int j = 0; j < V; ++j) {
          const std::uint32_t bits = (valid && col0 + j < p.k) ? src[j] : 0u;
          w[u][j * W / V] |= bits << (32 / (V / W) * (j % (V / W)) % 32);
        }
      }

      std::uint32_t amax = amax_bits_of<In, W>(w[u]);
#pragma unroll
      for (int off = 1; off < G; off <<= 1) amax = max(amax, __shfl_xor_sync(~0u, amax, off));
      const BlockScale s = block_scale<Elem>(amax, p.rceil);

      std::uint32_t out[S::kOutWords];
      encode_words<In, Elem, W>(w[u], s, out);
      if (!valid) continue;
      std::uint8_t* dst = p.q + c[u].row * p.q_stride + col0;
      if (p.q_vec && full) {
        if constexpr (S::kOutWords == 4) {
          *reinterpret_cast<uint4*>(dst) = make_uint4(out[0], out[1], out[2], out[3]);
        } else {
          *reinterpret_cast<uint2*>(dst) = make_uint2(out[0], out[1]);
        }
      } else {
#pragma unroll
        for (int j = 0; j < V; ++j)
          if (col0 + j < p.k) dst[j] = static_cast<std::uint8_t>(out[j / 4] >> (8 * (j % 4)));
      }
      if (part == 0) {
        p.scales[scale_offset(p.swizzled, c[u].row, c[u].col, g.n_blocks, p.scale_stride)] =
            static_cast<std::uint8_t>(s.byte);
      }
    }
    cur = c[kUnroll - 1].next(g);
  }

  if (p.swizzled) {
    zero_swizzle_padding(p.scales, g.rows, g.n_blocks,
                         std::int64_t{blockIdx.x} * kThreads + threadIdx.x,
                         std::int64_t{gridDim.x} * kThreads);
  }
}

template <typename In, DType Elem>
void launch_typed(RowwiseParams p, bool vec_in, std::int64_t rows, std::int64_t k,
                  cudaStream_t stream) {
  constexpr int G = RowwiseShape<In>::kG;
  const auto kernel = vec_in ? quantize_rowwise_kernel<In, Elem, true>
                             : quantize_rowwise_kernel<In, Elem, false>;
  constexpr std::int64_t kBlocksPerCta = kThreads / G;
  const std::int64_t blocks = rows * scale_cols(k);
  const int grid = resident_grid(kernel, kThreads, ceil_div(blocks, kBlocksPerCta * kUnroll));
  p.grid = BlockGrid::make(rows, k, std::int64_t{grid} * kBlocksPerCta);
  kernel<<<grid, kThreads, 0, stream>>>(p);
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

template <typename In>
void launch_for_input(const RowwiseParams& p, DType elem, bool vec_in, std::int64_t rows,
                      std::int64_t k, cudaStream_t stream) {
  if (elem == DType::E4M3) {
    launch_typed<In, DType::E4M3>(p, vec_in, rows, k, stream);
  } else {
    launch_typed<In, DType::E5M2>(p, vec_in, rows, k, stream);
  }
}

}  // namespace
}  // namespace cuda

std::string detail::quantize_kernels_unavailable(const DeviceQuery& dev) {
  if (!dev.present) return dev.error;
  // cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 needs sm_89; nothing else is architecture-specific.
  if (dev.major * 10 + dev.minor < 89)
    return concat("no MXFP8 quantization kernel for ", dev.name, " (compute capability ",
                  dev.major, ".", dev.minor, "): needs compute capability 8.9 or newer");
  // The binary must hold code this device can run (SASS for it, or PTX it can compile).
  cudaFuncAttributes attr{};
  const cudaError_t err =
      cudaFuncGetAttributes(&attr, cuda::quantize_rowwise_kernel<float, DType::E4M3, true>);
  if (err != cudaSuccess) {
    cudaGetLastError();
    return concat("this mxgemm build has no code for ", dev.name, " (compute capability ",
                  dev.major, ".", dev.minor, "; ", cudaGetErrorString(err),
                  "): rebuild with CMAKE_CUDA_ARCHITECTURES including ", dev.major, dev.minor);
  }
  return {};
}

void detail::launch_quantize_rowwise(const ConstMatrixView& x, const MxOperand& q,
                                     ScaleRounding rounding, cudaStream_t stream) {
  cuda::RowwiseParams p{};
  p.x = x.data;
  p.x_stride = x.row_stride;
  p.q = static_cast<std::uint8_t*>(q.data.data);
  p.q_stride = q.data.row_stride;
  p.scales = static_cast<std::uint8_t*>(q.scales.data);
  p.scale_stride = q.scales.row_stride;
  p.k = x.cols;
  p.swizzled = q.layout == ScaleLayout::Swizzled128x4;
  p.rceil = rounding == ScaleRounding::RCeil;
  p.q_vec = cuda::aligned16(q.data.data) && q.data.row_stride % 16 == 0;
  const bool vec_in =
      cuda::aligned16(x.data) && (x.row_stride * dtype_size(x.dtype)) % 16 == 0;
  switch (x.dtype) {
    case DType::FP32:
      cuda::launch_for_input<float>(p, q.data.dtype, vec_in, x.rows, x.cols, stream);
      break;
    case DType::BF16:
      cuda::launch_for_input<__nv_bfloat16>(p, q.data.dtype, vec_in, x.rows, x.cols, stream);
      break;
    default:
      cuda::launch_for_input<__half>(p, q.data.dtype, vec_in, x.rows, x.cols, stream);
      break;
  }
}

}  // namespace mxgemm
