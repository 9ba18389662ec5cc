// MXFP8 dequantization: fp8 codes + E8M0 scales (either layout) -> FP32/BF16/FP16,
// out = RNE_out(decode(code) * 2^(s - 127)), NaN scale or NaN code -> the positive quiet NaN.
//
// Work split as in the rowwise quantizer, sized by the output: a thread owns V = 16 /
// sizeof(out) consecutive elements of a 32-block (one 16-byte store; 4 or 8 fp8 codes in,
// plus the block's scale byte, which the G = 32 / V threads of the block read together).
// No cross-thread reduction is needed. Each thread loads its next kUnroll blocks before it
// converts the current ones (register double buffering).
#include <cuda_runtime.h>

#include "core/check.hpp"
#include "cuda/common/grid.cuh"
#include "cuda/common/mx_convert.cuh"
#include "cuda/quantize/launch.hpp"

namespace mxgemm {
namespace cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;
constexpr int kMinCtasPerSm = 4;  // <= 64 registers: 1024 threads per SM

struct DequantParams {
  const std::uint8_t* q;
  std::int64_t q_stride;  // bytes
  const std::uint8_t* scales;
  std::int64_t scale_stride;  // linear layout only
  void* out;
  std::int64_t out_stride;  // elements
  std::int64_t k;
  bool swizzled;
  BlockGrid grid;
};

// V fp8 codes (V = 4 or 8) as one 4- or 8-byte load.
template <int V>
struct CodeVec;
template <>
struct CodeVec<4> {
  using type = std::uint32_t;
  __device__ static void words(type c, std::uint32_t* w) { w[0] = c; }
};
template <>
struct CodeVec<8> {
  using type = uint2;
  __device__ static void words(type c, std::uint32_t* w) {
    w[0] = c.x;
    w[1] = c.y;
  }
};

// kVec: q, out and both row strides 16-byte aligned: full blocks move as vectors.
template <typename Out, DType Elem, bool kVec>
__global__ void __launch_bounds__(kThreads, kMinCtasPerSm) dequantize_kernel(const DequantParams p) {
  constexpr int V = 16 / sizeof(Out);
  constexpr int G = kBlockSize / V;
  using Codes = typename CodeVec<V>::type;
  const int part = threadIdx.x % G;
  const BlockGrid& g = p.grid;
  auto* out = static_cast<Bits<Out>*>(p.out);

  // Register double buffering: the next kUnroll blocks' codes and scales are loaded before
  // the current ones are converted and stored, so loads stay in flight during the work.
  BlockCursor ahead = BlockCursor::at((blockIdx.x * kThreads + threadIdx.x) / G, g);
  BlockCursor cur = ahead;
  const auto fetch = [&](Codes* codes, std::uint32_t* scale) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      codes[u] = Codes{};
      scale[u] = 0;
      if (ahead.valid(g)) {
        scale[u] = __ldg(p.scales + scale_offset(p.swizzled, ahead.row, ahead.col, g.n_blocks,
                                                 p.scale_stride));
        if (kVec && (std::int64_t{ahead.col} + 1) * kBlockSize <= p.k)
          codes[u] = __ldg(reinterpret_cast<const Codes*>(
              p.q + ahead.row * p.q_stride + std::int64_t{ahead.col} * kBlockSize + part * V));
      }
      ahead = ahead.next(g);
    }
  };
  Codes codes[kUnroll];
  std::uint32_t scale[kUnroll];
  fetch(codes, scale);

  while (cur.valid(g)) {
    Codes next_codes[kUnroll];
    std::uint32_t next_scale[kUnroll];
    fetch(next_codes, next_scale);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (cur.valid(g)) {
        const std::int64_t col0 = std::int64_t{cur.col} * kBlockSize + part * V;
        const bool full = col0 - part * V + kBlockSize <= p.k;
        const float sv = scale_value(scale[u]);
        Bits<Out>* dst = out + cur.row * p.out_stride + col0;
        if (kVec && full) {
          std::uint32_t w[V / 4];
          CodeVec<V>::words(codes[u], w);
          bool nan = scale[u] == kScaleNaN;
#pragma unroll
          for (int i = 0; i < V / 4; ++i) nan |= has_nan_code<Elem>(w[i]);
          std::uint32_t o[4];
          if (!nan) {  // the common case: no NaN to canonicalize
#pragma unroll
            for (int i = 0; i < V / 2; ++i) {
              const float2 f = decode2<Elem>(w[i / 2] >> (16 * (i % 2)));
              const float a = __fmul_rn(f.x, sv), b = __fmul_rn(f.y, sv);
              if constexpr (sizeof(Out) == 4) {
                o[2 * i] = __float_as_uint(a);
                o[2 * i + 1] = __float_as_uint(b);
              } else {
                o[i] = pack2_no_nan<Out>(a, b);
              }
            }
          } else {
#pragma unroll
            for (int i = 0; i < V / 2; ++i) {
              const float2 f = decode2<Elem>(w[i / 2] >> (16 * (i % 2)));
              const std::uint32_t a = out_bits<Out>(__fmul_rn(f.x, sv));
              const std::uint32_t b = out_bits<Out>(__fmul_rn(f.y, sv));
              if constexpr (sizeof(Out) == 4) {
                o[2 * i] = a;
                o[2 * i + 1] = b;
              } else {
                o[i] = a | (b << 16);
              }
            }
          }
          *reinterpret_cast<uint4*>(dst) = make_uint4(o[0], o[1], o[2], o[3]);
        } else {  // short last block of a row, or unaligned operands: element by element
          const std::uint8_t* src = p.q + cur.row * p.q_stride + col0;
          for (int j = 0; j < V && col0 + j < p.k; ++j) {
            const float f = decode2<Elem>(src[j]).x;
            dst[j] = static_cast<Bits<Out>>(out_bits<Out>(__fmul_rn(f, sv)));
          }
        }
      }
      cur = cur.next(g);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      codes[u] = next_codes[u];
      scale[u] = next_scale[u];
    }
  }
}

template <typename Out, DType Elem>
void launch_typed(DequantParams p, bool vec, std::int64_t rows, cudaStream_t stream) {
  constexpr int G = kBlockSize / (16 / sizeof(Out));
  const auto kernel = vec ? dequantize_kernel<Out, Elem, true> : dequantize_kernel<Out, Elem, false>;
  constexpr std::int64_t kBlocksPerCta = kThreads / G;
  const std::int64_t blocks = rows * scale_cols(p.k);
  const int grid = resident_grid(kernel, kThreads, ceil_div(blocks, kBlocksPerCta * kUnroll));
  p.grid = BlockGrid::make(rows, p.k, std::int64_t{grid} * kBlocksPerCta);
  kernel<<<grid, kThreads, 0, stream>>>(p);
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

template <typename Out>
void launch_for_output(const DequantParams& p, DType elem, bool vec, std::int64_t rows,
                       cudaStream_t stream) {
  if (elem == DType::E4M3) {
    launch_typed<Out, DType::E4M3>(p, vec, rows, stream);
  } else {
    launch_typed<Out, DType::E5M2>(p, vec, rows, stream);
  }
}

}  // namespace
}  // namespace cuda

void detail::launch_dequantize(const ConstMxOperand& q, const MatrixView& out,
                               cudaStream_t stream) {
  cuda::DequantParams p{};
  p.q = static_cast<const std::uint8_t*>(q.data.data);
  p.q_stride = q.data.row_stride;
  p.scales = static_cast<const std::uint8_t*>(q.scales.data);
  p.scale_stride = q.scales.row_stride;
  p.out = out.data;
  p.out_stride = out.row_stride;
  p.k = q.data.cols;
  p.swizzled = q.layout == ScaleLayout::Swizzled128x4;
  const bool vec = cuda::aligned16(q.data.data) && q.data.row_stride % 16 == 0 &&
                   cuda::aligned16(out.data) && (out.row_stride * dtype_size(out.dtype)) % 16 == 0;
  const std::int64_t rows = q.data.rows;
  switch (out.dtype) {
    case DType::FP32:
      cuda::launch_for_output<float>(p, q.data.dtype, vec, rows, stream);
      break;
    case DType::BF16:
      cuda::launch_for_output<__nv_bfloat16>(p, q.data.dtype, vec, rows, stream);
      break;
    default:
      cuda::launch_for_output<__half>(p, q.data.dtype, vec, rows, stream);
      break;
  }
}

}  // namespace mxgemm
