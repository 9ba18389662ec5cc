// The K-split clusters of the sm_90a weight-streaming GEMM (StreamSchedule::k_split > 1): a
// weight tile's K is split among the CTAs of a cluster, each of which sums its range (a 64-row
// tile in its warpgroups, StreamGemmConfig::kSplitK, or a 128-row tile in its two). Here
// the cluster adds those sums through distributed shared memory and stores the tile, each CTA
// a slice of it, with no partial in L2 and no second kernel.
#pragma once

#include <cstdint>

#include "cuda/common/ptx.cuh"
#include "cuda/sm90/mxfp8_gemm_params.hpp"
#include "cuda/sm90/stream_epilogue.cuh"

namespace mxgemm::sm90 {

// Writes math thread `tid`'s accumulators into `tile_sum` as split_cluster_store reads them:
// float4s [kAcc / 4][kTileThreads], float4 v holding registers 4 (v / kTileThreads) .. + 3 of
// thread v % kTileThreads.
template <int kAcc, int kTileThreads>
__device__ __forceinline__ void leave_tile_sum(float* tile_sum, const float (&sum)[kAcc], int tid) {
  static_assert(kAcc % 4 == 0, "whole float4s");
#pragma unroll
  for (int r = 0; r < kAcc; r += 4)
    *reinterpret_cast<float4*>(tile_sum + ((r / 4) * kTileThreads + tid) * 4) =
        make_float4(sum[r], sum[r + 1], sum[r + 2], sum[r + 3]);
}

// Every math thread of every CTA of the cluster calls this (the producer warps have exited or
// will: exited threads do not hold a cluster barrier). `tile_sum` is this CTA's sum of the tile
// in its shared memory, written before the call by the kTileThreads math threads that hold the
// tile (kSplitK: warpgroup 0, 128; the 128-row tiles of two warpgroups: 256) with leave_tile_sum (thread t's
// warp holds 16 weight rows from n0 + 16 (t / 32)); `exact_flag`, a word of this CTA's shared
// memory. `exact`: this CTA's own verdict.
// Each element is the sum of the CTAs' values in rank order, the same bits every run. Returns
// the cluster's verdict: when any CTA needs the exact path, none stores, and the caller lists
// the tile for it (once: rank 0). __noinline__: inlined after the split's mainloops, code like
// this changed their registers (session 35's in-kernel sum).
template <int kAcc, int kTileThreads>
__device__ __noinline__ bool split_cluster_store(const StreamGemmParams& p, const float* tile_sum,
                                                 std::uint32_t* exact_flag, bool exact, float alpha, int m0,
                                                 int n0, int math_tid, int math_threads) {
  constexpr int kVecs = kAcc / 4 * kTileThreads;  // float4s of a tile
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
      const int owner = v % kTileThreads;  // the math thread whose registers these are
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const AccCoord at = acc_coord(v / kTileThreads * 4 + j, owner % 32);
        const int m = m0 + at.col, n = n0 + owner / 32 * 16 + at.row;
        if (m < p.m && n < p.n) store_summed_element(p, alpha, e[j], m, n);
      }
    }
  }
  ptx::cluster_sync();  // no CTA leaves while another may still read its shared memory
  return any_exact;
}

}  // namespace mxgemm::sm90
