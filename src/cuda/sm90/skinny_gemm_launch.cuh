// The launch of one instantiation of the skinny kernel, included by skinny_gemm_{codes,values}.cu
// (split so that the two build in parallel).
#pragma once

#include <atomic>
#include <cstdlib>

#include "core/check.hpp"
#include "cuda/common/current_device.hpp"
#include "cuda/common/once_per_device.hpp"
#include "cuda/common/tensor_map.hpp"
#include "cuda/common/workspace.hpp"
#include "cuda/sm90/skinny_gemm_kernel.cuh"
#include "cuda/sm90/scale_prepass.hpp"
#include "cuda/sm90/skinny_gemm_sm90.hpp"
#include "mxgemm/layout.hpp"

namespace mxgemm::sm90 {

// p arrives with the shapes, operands and output; the split, the partials and the scales'
// addresses are set here, with one workspace: the partials, the warps' lists of exact-path
// tiles, then w's and a's scales when they have to be rewritten as swizzled chunks
// (scale_prepass.hpp).
// a: the MXFP8 activation, null in the weight-only GEMM.
template <DType kElemW, DType kElemX, int kNTiles, bool kPrepackedW>
void launch_skinny_kernel(SkinnyGemmParams p, const ConstMxOperand& w, const ConstMxOperand* a,
                          cudaStream_t stream) {
  using Cfg = SkinnyGemmConfig<kElemW, kElemX, kNTiles, kPrepackedW>;
  auto* kernel = &skinny_gemm_sm90_kernel<kElemW, kElemX, kNTiles, kPrepackedW>;
  // CTAs per SM: a property of the compiled kernel and the architecture, asked once.
  static std::atomic<std::uint64_t> configured{0};
  cuda::once_per_device(configured, [&] {
    MXGEMM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes));
  });
  static std::atomic<int> ctas_per_sm{0};
  if (ctas_per_sm.load() == 0) {
    int fit = 0;
    MXGEMM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, Cfg::kThreads, Cfg::kSmemBytes));
    if (fit < 1)
      detail::fail<CudaError>("mxfp8_scaled_mm", "skinny kernel CTAs per SM", ">= 1", fit);
    ctas_per_sm.store(fit);
  }
  const int sms = cuda::current_device_sms();
  p.kblocks = static_cast<int>(scale_cols(p.k));
  p.sched = SkinnySchedule::make(p.n, p.kblocks, sms, ctas_per_sm.load());
  const std::size_t partial_bytes = static_cast<std::size_t>(
      round_up(std::int64_t{2} * p.sched.ctas * Cfg::kWarps * 32 * Cfg::kAccRegs * 4, 1024));
  p.exact_tiles_per_warp = p.sched.max_tiles_per_cta();
  const std::size_t list_bytes = static_cast<std::size_t>(
      round_up(std::int64_t{p.sched.ctas} * Cfg::kWarps * p.exact_tiles_per_warp * 4, 1024));
  const std::size_t ws_w = scale_chunks_workspace(w), ws_a = a != nullptr ? scale_chunks_workspace(*a) : 0;
  auto* ws = static_cast<std::uint8_t*>(cuda::device_workspace(partial_bytes + list_bytes + ws_w + ws_a, stream));
  p.partials = reinterpret_cast<float*>(ws);
  p.exact_tiles = reinterpret_cast<int*>(ws + partial_bytes);
  ws += partial_bytes + list_bytes;
  p.sw = swizzled_scales(w, ws, stream);
  if (a != nullptr) p.sx = swizzled_scales(*a, ws + ws_w, stream);
  p.tile_counters = cuda::device_zeroed_counters(static_cast<std::size_t>(p.sched.tiles) * Cfg::kWarps, stream);
  // Each warp loads a 16-row x 128-byte box (one unit: 4 scale blocks) per stage. L2 fetches
  // each box row alone (128-byte promotion): with the kernel's evict_first weight, 1-5% faster
  // than 256 bytes on the H200 (session 19, same run, two rounds: 8 x 28672 x 8192 66.8 ->
  // 65.8 us, 1 / 16 x 8192^2 27.9 / 32.3 -> 27.3 / 30.8).
  const CUtensorMap tma_w =
      cuda::make_tensor_map_2d_u8(w.data.data, w.data.rows, w.data.cols, w.data.row_stride, 16, 128,
                                  CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
  // kXInSmem: the activation's box over the activation as bytes, 128 bytes wide (codes: a
  // unit; bf16 values: half a unit), Cfg::x_box_rows rows; otherwise unused (tma_w stands in).
  constexpr int kXBytes = Cfg::kValues ? 2 : 1;
  const CUtensorMap tma_x =
      Cfg::kXInSmem ? cuda::make_tensor_map_2d_u8(p.x, p.m, std::int64_t{p.k} * kXBytes, p.ldx * kXBytes,
                                                  Cfg::x_box_rows(p.m), 128, CU_TENSOR_MAP_SWIZZLE_128B)
                    : tma_w;
  kernel<<<p.sched.ctas, Cfg::kThreads, Cfg::kSmemBytes, stream>>>(tma_w, tma_x, p);
  MXGEMM_CUDA_CHECK(cudaGetLastError());
#ifdef MXGEMM_STREAM_TRACE
  if (std::getenv("MXGEMM_TRACE") != nullptr) report_skinny_trace(p, kNTiles, stream);
#endif
}

}  // namespace mxgemm::sm90
