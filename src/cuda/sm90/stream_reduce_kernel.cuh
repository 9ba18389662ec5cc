// The split reduction of the sm_90a weight-streaming GEMM (StreamSchedule::split_reduce):
// when small M meets a small weight, every output tile is cut among many CTAs, and the last
// of them to finish would sum all the others' partials with one SM's share of the L2
// bandwidth. Instead the streaming kernel only writes its partials (and flags the tiles that
// need the exact path), and this kernel, a programmatic dependent launch right behind it,
// sums them with the whole GPU: a CTA per (slice of a tile, tile).
//
// Each element is the sum of its tile's partials in CTA order, as the in-kernel fixup adds
// them, so the result is deterministic and the same whichever way the tile is summed.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/common/ptx.cuh"
#include "cuda/sm90/exact_outputs.cuh"
#include "cuda/sm90/mxfp8_gemm_params.hpp"
#include "cuda/sm90/stream_epilogue.cuh"
#include "cuda/sm90/stream_gemm_config.cuh"
#include "cuda/sm90/stream_schedule.hpp"

namespace mxgemm::sm90 {

constexpr int kReduceThreads = 128;
// Each thread sums 4 consecutive elements (16-byte loads), loading this many CTAs' partials
// ahead of their in-order adds: one L2 round trip for up to 16 CTAs (a split tile has 3 to
// about 40). At 8 single floats a thread it was latency-bound (ncu: 9 us for 4 MB).
constexpr int kReduceBatch = 16;
constexpr int kReduceVec = 4;

// The launch's CTAs per tile: a thread for every 4 elements of the tile.
template <int kMPad, bool kCodes>
constexpr int kReduceSlices = StreamGemmConfig<kMPad, kCodes>::kBlockN * kMPad / (kReduceVec * kReduceThreads);

// blockIdx.y: the stream-K tile; blockIdx.x: its slice of kReduceThreads groups of 4
// elements (the launch covers the tile). A partial tile is laid out as the streaming kernel's
// math threads hold it: element r * kMathThreads + math thread, r their accumulator register.
template <int kMPad, bool kCodes>
__global__ void __launch_bounds__(kReduceThreads)
    stream_reduce_sm90_kernel(const __grid_constant__ StreamGemmParams p) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using Cfg = StreamGemmConfig<kMPad, kCodes>;
  constexpr int kSlot = Cfg::kBlockN * kMPad;
  static_assert(kSlot == kReduceSlices<kMPad, kCodes> * kReduceVec * kReduceThreads, "slices of whole thread rows");
  const StreamSchedule& sched = p.sched;
  const int t = static_cast<int>(blockIdx.y);
  const StreamTile tile = sched.coord(sched.dp_tiles + t);
  const int m0 = tile.m * kMPad, n0 = tile.n * Cfg::kBlockN;
  ptx::griddepcontrol_wait();  // the streaming kernel's partials and flags

  if (p.tile_exact[t] == p.exact_generation) {  // the slices share the tile's outputs
    exact_outputs(p.exact, p.out, m0, p.m - m0 < kMPad ? p.m - m0 : kMPad, n0,
                  p.n - n0 < Cfg::kBlockN ? p.n - n0 : Cfg::kBlockN,
                  static_cast<int>(blockIdx.x * kReduceThreads + threadIdx.x),
                  static_cast<int>(gridDim.x * kReduceThreads));
    return;
  }
  const float alpha = __ldg(p.out.alpha) * p.alpha_scale;  // (exact: a power of two)
  // The tile's partials, in CTA order (finding a slot takes 64-bit divisions: once a CTA).
  __shared__ const float* parts[kSplitReduceMaxCtas];
  const int c_lo = sched.first_cta(t), count = sched.last_cta(t) - c_lo + 1;
  for (int i = threadIdx.x; i < count; i += kReduceThreads)
    parts[i] = p.partials + static_cast<std::int64_t>(sched.partial_slot(c_lo + i, t)) * kSlot;
  __syncthreads();
  // The launch gives each thread one group of 4 elements.
  const int vec = static_cast<int>(blockIdx.x * kReduceThreads + threadIdx.x);
  float sum[kReduceVec] = {};
  for (int i0 = 0; i0 < count; i0 += kReduceBatch) {
    float4 v[kReduceBatch];
#pragma unroll
    for (int b = 0; b < kReduceBatch; ++b)
      v[b] = i0 + b < count ? __ldcg(reinterpret_cast<const float4*>(parts[i0 + b]) + vec) : float4{};
#pragma unroll
    for (int b = 0; b < kReduceBatch; ++b) {
      if (i0 + b >= count) continue;
      sum[0] += v[b].x;
      sum[1] += v[b].y;
      sum[2] += v[b].z;
      sum[3] += v[b].w;
    }
  }
#pragma unroll
  for (int j = 0; j < kReduceVec; ++j) {
    const int e = vec * kReduceVec + j;
    const int r = e / Cfg::kMathThreads, math_tid = e % Cfg::kMathThreads;
    const AccCoord at = acc_coord(r, math_tid % 32);
    const int m = m0 + at.col, n = n0 + Cfg::warp_row0(math_tid) + at.row;
    if (m >= p.m || n >= p.n) continue;
    store_summed_element(p, alpha, sum[j], m, n);
  }
#else
  // Built for another architecture: the launcher only dispatches here on sm_90a.
  if (threadIdx.x == 0) __trap();
#endif
}

}  // namespace mxgemm::sm90
