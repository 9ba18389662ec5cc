// The K-split clusters of the sm_90a weight-streaming GEMM (StreamSchedule::k_split > 1): a
// 64-row weight tile's K is split among the CTAs of a cluster, each of which sums its range
// in its four warpgroups (StreamGemmConfig::kSplitK). Here the cluster adds those sums through
// distributed shared memory and stores the tile, each CTA a slice of it, with no partial in
// L2 and no second kernel.
#pragma once

#include <cstdint>

#include "cuda/common/ptx.cuh"
#include "cuda/sm90/mxfp8_gemm_params.hpp"
#include "cuda/sm90/stream_epilogue.cuh"

namespace mxgemm::sm90 {

// Every math thread of every CTA of the cluster calls this (the producer warps have exited or
// will: exited threads do not hold a cluster barrier). `tile_sum` is this CTA's sum of the tile
// in its shared memory, written by warpgroup 0 before the call, as float4s [kAcc / 4][128] of
// that warpgroup's accumulator registers (float4 v: registers 4 (v / 128) .. + 3 of math thread
// v % 128); `exact_flag`, a word of this CTA's shared memory. `exact`: this CTA's own verdict.
// Each element is the sum of the CTAs' values in rank order, the same bits every run. Returns
// the cluster's verdict: when any CTA needs the exact path, none stores, and the caller lists
// the tile for it (once: rank 0). __noinline__: inlined after the split's mainloops, code like
// this changed their registers (session 35's in-kernel sum).
template <int kAcc>
__device__ __noinline__ bool split_cluster_store(const StreamGemmParams& p, const float* tile_sum,
                                                 std::uint32_t* exact_flag, bool exact, float alpha, int m0,
                                                 int n0, int math_tid, int math_threads) {
  constexpr int kWarpgroupThreads = 128;
  constexpr int kVecs = kAcc / 4 * kWarpgroupThreads;  // float4s of a tile
  if (math_tid == 0) *exact_flag = exact ? 1u : 0u;
  ptx::cluster_sync();  // every CTA's tile_sum and exact_flag are written
  const int ctas = p.sched.k_split;
  bool any_exact = false;
  for (int c = 0; c < ctas; ++c)
    any_exact = any_exact || ptx::ld_shared_cluster_u32(ptx::cluster_smem_addr(exact_flag, c)) != 0;
  if (!any_exact) {
    if (p.x_row_scale != nullptr) ptx::griddepcontrol_wait();  // (the pre-pass's row scales)
    const int rank = static_cast<int>(ptx::cluster_ctarank());
    for (int v = rank * math_threads + math_tid; v < kVecs; v += ctas * math_threads) {
      float4 sum = ptx::ld_shared_cluster_v4(ptx::cluster_smem_addr(tile_sum, 0) + v * 16);
      for (int c = 1; c < ctas; ++c) {
        const float4 x = ptx::ld_shared_cluster_v4(ptx::cluster_smem_addr(tile_sum, c) + v * 16);
        sum.x += x.x;
        sum.y += x.y;
        sum.z += x.z;
        sum.w += x.w;
      }
      const float e[4] = {sum.x, sum.y, sum.z, sum.w};
      const int owner = v % kWarpgroupThreads;  // the math thread whose registers these are
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const AccCoord at = acc_coord(v / kWarpgroupThreads * 4 + j, owner % 32);
        const int m = m0 + at.col, n = n0 + owner / 32 * 16 + at.row;
        if (m < p.m && n < p.n) store_summed_element(p, alpha, e[j], m, n);
      }
    }
  }
  ptx::cluster_sync();  // no CTA leaves while another may still read its shared memory
  return any_exact;
}

}  // namespace mxgemm::sm90
