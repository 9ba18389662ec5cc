// Launcher of the sm_90a MXFP8 GEMM: tensor maps, kernel parameters, persistent grid.
#include "cuda/sm90/mxfp8_gemm_sm90.hpp"

#include <cuda_runtime_api.h>

#include "core/check.hpp"
#include "core/kernel_override.hpp"
#include "cuda/common/current_device.hpp"
#include "cuda/common/once_per_device.hpp"
#include "cuda/common/tensor_map.hpp"
#include "cuda/common/workspace.hpp"
#include "cuda/sm90/mxfp8_gemm_kernel.cuh"
#include "cuda/sm90/skinny_gemm_sm90.hpp"
#include "cuda/sm90/stream_gemm_sm90.hpp"
#include "mxgemm/layout.hpp"

namespace mxgemm::sm90 {
namespace {

// Whether the skinny kernel runs a GEMM it `supported`: when forced, or when Auto and the
// measured crossover picks it (skinny_gemm_preferred).
bool use_skinny(bool supported, std::int64_t m, std::int64_t n, std::int64_t k, bool weight_only) {
  switch (detail::sm90_kernel()) {
    case detail::Sm90Kernel::Skinny: return supported;
    case detail::Sm90Kernel::Auto: {
      if (!supported) return false;
      const int sms = cuda::current_device_sms();
      // (The cluster query only where it can change the choice.)
      const bool clusters = weight_only && m <= kSkinnyMaxWeightOnlyM && n * k > kSkinnyMaxWeightElemsWeightOnlyClusters &&
                            split_k_cluster_ctas_on_device(n, k, sms, false) > 1;
      return skinny_gemm_preferred(m, n, k, weight_only, sms, clusters);
    }
    default: return false;
  }
}

template <DType kA, DType kB>
void launch(const CUtensorMap& tma_a, const CUtensorMap& tma_b, const Mxfp8GemmParams& p,
            cudaStream_t stream) {
  auto* kernel = &mxfp8_gemm_sm90_kernel<kA, kB>;
  // Once per device and instantiation: raise the dynamic shared-memory limit.
  static std::atomic<std::uint64_t> configured{0};
  cuda::once_per_device(configured, [&] {
    MXGEMM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           Cfg::kSmemBytes));
  });
  const int sms = cuda::current_device_sms();
  const int tiles = p.tiles_m * p.tiles_n;
  const int grid = tiles < sms ? tiles : sms;
  kernel<<<grid, Cfg::kThreads, Cfg::kSmemBytes, stream>>>(tma_a, tma_b, p);
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_mxfp8_gemm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                       const MatrixView& d, cudaStream_t stream) {
  // The skinny kernel (up to 16 rows, where skinny_gemm_preferred) and the streaming
  // kernel are faster on every measured shape than the tiled kernel (docs/skinny-kernel.md,
  // docs/streaming-kernel.md), which runs when asked for (tests and the benchmark compare).
  const std::int64_t m = a.data.rows, n = b.data.rows, k = b.data.cols;
  if (detail::sm90_kernel() != detail::Sm90Kernel::Tiled) {
    if (use_skinny(skinny_gemm_supports(m, n, k), m, n, k, /*weight_only=*/false))
      launch_skinny_gemm(a, b, alpha, d, stream);
    else
      launch_stream_gemm(a, b, alpha, d, stream);
    return;
  }
  Mxfp8GemmParams p{};
  p.m = static_cast<int>(a.data.rows);
  p.n = static_cast<int>(b.data.rows);
  p.k = static_cast<int>(a.data.cols);
  p.scale_cols = static_cast<int>(scale_cols(p.k));
  p.tiles_m = static_cast<int>(ceil_div(p.m, Cfg::kBlockM));
  p.tiles_n = static_cast<int>(ceil_div(p.n, Cfg::kBlockN));
  p.k_stages = static_cast<int>(ceil_div(p.k, Cfg::kBlockK));
  // Scale chunks of A and B, rewritten into the workspace when not usable in place.
  const std::size_t ws_a = scale_chunks_workspace(a), ws_b = scale_chunks_workspace(b);
  auto* ws = static_cast<std::uint8_t*>(cuda::device_workspace(ws_a + ws_b, stream));
  p.sa = scale_chunks(a, ws, stream);
  p.sb = scale_chunks(b, ws + ws_a, stream);
  p.alpha = alpha;
  p.d = d.data;
  p.ldd = d.row_stride;
  p.d_dtype = d.dtype;

  const CUtensorMap tma_a = cuda::make_tensor_map_2d_u8(
      a.data.data, a.data.rows, a.data.cols, a.data.row_stride, Cfg::kBlockM, Cfg::kBlockK,
      CU_TENSOR_MAP_SWIZZLE_64B);
  const CUtensorMap tma_b = cuda::make_tensor_map_2d_u8(
      b.data.data, b.data.rows, b.data.cols, b.data.row_stride, Cfg::kBlockN, Cfg::kBlockK,
      CU_TENSOR_MAP_SWIZZLE_64B);

  const bool a_e4m3 = a.data.dtype == DType::E4M3, b_e4m3 = b.data.dtype == DType::E4M3;
  if (a_e4m3 && b_e4m3) launch<DType::E4M3, DType::E4M3>(tma_a, tma_b, p, stream);
  else if (a_e4m3) launch<DType::E4M3, DType::E5M2>(tma_a, tma_b, p, stream);
  else if (b_e4m3) launch<DType::E5M2, DType::E4M3>(tma_a, tma_b, p, stream);
  else launch<DType::E5M2, DType::E5M2>(tma_a, tma_b, p, stream);
}

void launch_weight_only(const ConstMatrixView& a, const ConstMxOperand& w, const float* alpha,
                        const ConstMatrixView* bias, const MatrixView& d, cudaStream_t stream) {
  if (use_skinny(skinny_weight_only_supports(a, w), a.rows, w.data.rows, w.data.cols, /*weight_only=*/true))
    launch_skinny_weight_only(a, w, alpha, bias, d, stream);
  else
    launch_stream_weight_only(a, w, alpha, bias, d, stream);
}

}  // namespace mxgemm::sm90
