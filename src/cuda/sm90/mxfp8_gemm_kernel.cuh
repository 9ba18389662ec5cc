// sm_90a MXFP8 x MXFP8 GEMM mainloop: TMA -> fp8 smem stages -> exact dequantization to bf16
// on the CUDA cores -> bf16 wgmma, fp32 accumulation (design B of HOPPER_MXFP8.md;
// docs/hopper-kernel.md says why and what was measured).
//
// Warp roles (512 threads, one CTA per SM, persistent over 128 x 128 output tiles):
//   warpgroup 0    TMA producer: one thread streams A (128 x 64) and B (128 x 64) fp8 tiles into
//                  kStages smem stages.
//   warpgroup 1    B converter: each thread dequantizes one B row of a stage (64 fp8 -> bf16,
//                  two block scales) into a 128B-swizzled bf16 buffer that wgmma reads.
//   warpgroups 2-3 math, 64 rows each: dequantize their A slice straight into wgmma's register
//                  fragment, issue m64n128k16 wgmmas, and every kStagesPerPromotion stages add
//                  the wgmma accumulator into an fp32 result with ordinary (round-to-nearest)
//                  adds, because the tensor core's own fp32 accumulation drifts over long K.
//
// The K permutation that lets one 8-byte load fill a fragment is described in mainloop.cuh.
#pragma once

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/common/ptx.cuh"
#include "cuda/common/wgmma_rs.cuh"
#include "cuda/sm90/mainloop.cuh"
#include "cuda/sm90/mxfp8_gemm_config.cuh"
#include "cuda/sm90/mxfp8_gemm_params.hpp"

namespace mxgemm::sm90 {

using Cfg = Mxfp8GemmConfig;
static_assert(Cfg::kBlockK == kStageK, "the shared mainloop pieces stage 64 K at a time");

struct alignas(1024) Mxfp8GemmSmem {
  std::uint8_t a[Cfg::kStages][Cfg::kStageBytesA];                // 64B-swizzled by TMA
  std::uint8_t b[Cfg::kStages][Cfg::kStageBytesB];                // 64B-swizzled by TMA
  std::uint8_t b_bf16[Cfg::kBf16Buffers][Cfg::kBf16BufferBytes];  // 128B-swizzled, K-major
  std::uint8_t a_scales[Cfg::kStages][kScaleChunkBytes];          // scale chunks (mainloop.cuh)
  std::uint8_t b_scales[Cfg::kStages][kScaleChunkBytes];
  std::uint64_t full[Cfg::kStages];         // TMA -> converter, math: fp8 stage landed
  std::uint64_t empty[Cfg::kStages];        // converter, math -> TMA: fp8 stage consumed
  std::uint64_t b_full[Cfg::kBf16Buffers];  // converter -> math: bf16 B written
  std::uint64_t b_empty[Cfg::kBf16Buffers]; // math -> converter: wgmma done reading it
};
static_assert(sizeof(Mxfp8GemmSmem) + 1023 <= Cfg::kSmemBytes,
              "the smem layout plus alignment slack must fit the dynamic allocation");
static_assert(Cfg::kStageBytesA % 1024 == 0 && Cfg::kStageBytesB % 1024 == 0 &&
                  Cfg::kBf16BufferBytes % 1024 == 0,
              "every buffer must start on a 1024-byte swizzle boundary");

// Output tile of persistent work item `t`, rastered in groups of kGroupM M-tiles so that
// CTAs running at the same time share B tiles (and A tiles) in L2.
struct TileCoord {
  int m, n;
};
__device__ __forceinline__ TileCoord tile_coord(int t, int tiles_m, int tiles_n) {
  const int per_group = Cfg::kGroupM * tiles_n;
  const int first_m = (t / per_group) * Cfg::kGroupM;
  const int group_m = min(Cfg::kGroupM, tiles_m - first_m);
  const int in_group = t % per_group;
  return {first_m + in_group % group_m, in_group / group_m};
}

// Converts B row `row` of one fp8 stage (two 32-element blocks) into the bf16 buffer, in the
// permuted logical k order of mainloop.cuh.
template <DType kElemB>
__device__ __forceinline__ void convert_b_row(const std::uint8_t* src, std::uint8_t* dst, int row,
                                              float scale0, float scale1) {
#pragma unroll
  for (int blk = 0; blk < 2; ++blk) {
    // 32 physical bytes of the block as 8 words: word w holds bytes 4w .. 4w+3.
    const uint4 lo = *reinterpret_cast<const uint4*>(src + sw64_offset(row, 2 * blk));
    const uint4 hi = *reinterpret_cast<const uint4*>(src + sw64_offset(row, 2 * blk + 1));
    const std::uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
    uint4 out[4];
    dequant_block_permuted<kElemB>(w, blk == 0 ? scale0 : scale1, out);
#pragma unroll
    for (int t = 0; t < 4; ++t) *reinterpret_cast<uint4*>(dst + sw128_offset(row, 4 * blk + t)) = out[t];
  }
}

template <typename T>
__device__ __forceinline__ void store_tile(const Mxfp8GemmParams& p,
                                           const float (&acc)[Cfg::kAccRegs], float alpha,
                                           int row0, int col0, int lane) {
  T* d = static_cast<T*>(p.d);
  const int q = lane & 3;
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const int row = row0 + (lane >> 2) + 8 * half;
    if (row >= p.m) continue;
    T* drow = d + static_cast<std::int64_t>(row) * p.ldd;
#pragma unroll
    for (int j = 0; j < Cfg::kAccRegs / 4; ++j) {
      const int col = col0 + 8 * j + 2 * q;
      if (col < p.n) drow[col] = convert_out<T>(alpha * acc[4 * j + 2 * half]);
      if (col + 1 < p.n) drow[col + 1] = convert_out<T>(alpha * acc[4 * j + 2 * half + 1]);
    }
  }
}

template <DType kElemA, DType kElemB>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    mxfp8_gemm_sm90_kernel(const __grid_constant__ CUtensorMap tma_a,
                           const __grid_constant__ CUtensorMap tma_b,
                           const __grid_constant__ Mxfp8GemmParams p) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ std::uint8_t smem_raw[];
  auto& smem = ptx::aligned_dynamic_smem<Mxfp8GemmSmem>(smem_raw);
  const int warpgroup = threadIdx.x / 128;
  const int lane = threadIdx.x & 31;
  const int num_tiles = p.tiles_m * p.tiles_n;

  if (threadIdx.x == 0) {
    for (int s = 0; s < Cfg::kStages; ++s) {
      ptx::mbarrier_init(&smem.full[s], 1);
      ptx::mbarrier_init(&smem.empty[s], (128 + Cfg::kMathThreads) / 32);  // converter + math warps
    }
    for (int b = 0; b < Cfg::kBf16Buffers; ++b) {
      ptx::mbarrier_init(&smem.b_full[b], 128 / 32);                 // converter warps
      ptx::mbarrier_init(&smem.b_empty[b], Cfg::kMathThreads / 32);  // math warps
    }
    ptx::fence_barrier_init();
  }
  __syncthreads();

  if (warpgroup == 0) {
    // ---- TMA producer: one thread streams the fp8 tiles of A and B ---------------------
    ptx::setmaxnreg_dec<Cfg::kTmaRegs>();
    if (threadIdx.x == 0) {
      ptx::prefetch_tensor_map(&tma_a);
      ptx::prefetch_tensor_map(&tma_b);
      ptx::prefetch_tensor_map(&p.sa.map);
      ptx::prefetch_tensor_map(&p.sb.map);
      RingIndex<Cfg::kStages> st;
      for (int t = blockIdx.x; t < num_tiles; t += gridDim.x) {
        const TileCoord tile = tile_coord(t, p.tiles_m, p.tiles_n);
        for (int ks = 0; ks < p.k_stages; ++ks, st.advance()) {
          ptx::mbarrier_wait(&smem.empty[st.index], st.phase ^ 1);
          ptx::mbarrier_arrive_expect_tx(&smem.full[st.index],
                                         Cfg::kStageBytesA + Cfg::kStageBytesB + 2 * kScaleChunkBytes);
          ptx::tma_load_2d(smem.a_scales[st.index], &p.sa.map, &smem.full[st.index], 0,
                           scale_chunk_row(tile.m, p.sa.col_tiles, ks));
          ptx::tma_load_2d(smem.b_scales[st.index], &p.sb.map, &smem.full[st.index], 0,
                           scale_chunk_row(tile.n, p.sb.col_tiles, ks));
          ptx::tma_load_2d(smem.a[st.index], &tma_a, &smem.full[st.index], ks * Cfg::kBlockK,
                           tile.m * Cfg::kBlockM);
          ptx::tma_load_2d(smem.b[st.index], &tma_b, &smem.full[st.index], ks * Cfg::kBlockK,
                           tile.n * Cfg::kBlockN);
        }
      }
    }
  } else if (warpgroup == 1) {
    // ---- B converter: fp8 B stage -> bf16 buffer, one row (two scale blocks) per thread --
    ptx::setmaxnreg_dec<Cfg::kConverterRegs>();
    const int row = threadIdx.x - 128;
    RingIndex<Cfg::kStages> st;
    RingIndex<Cfg::kBf16Buffers> buf;
    for (int t = blockIdx.x; t < num_tiles; t += gridDim.x) {
      for (int ks = 0; ks < p.k_stages; ++ks, st.advance(), buf.advance()) {
        ptx::mbarrier_wait(&smem.full[st.index], st.phase);
        ptx::mbarrier_wait(&smem.b_empty[buf.index], buf.phase ^ 1);
        const std::uint32_t pair = chunk_scale_pair(smem.b_scales[st.index], row, ks, p.scale_cols);
        convert_b_row<kElemB>(smem.b[st.index], smem.b_bf16[buf.index], row, pair_scale(pair, 0),
                              pair_scale(pair, 1));
        // Orders the generic-proxy smem accesses above before async-proxy ones after the
        // barriers: wgmma reading the bf16 writes, and TMA overwriting the fp8 stage.
        ptx::fence_proxy_async_smem();
        __syncwarp();
        if (lane == 0) {
          ptx::mbarrier_arrive(&smem.empty[st.index]);
          ptx::mbarrier_arrive(&smem.b_full[buf.index]);
        }
      }
    }
  } else {
    // ---- math warpgroups: A fragment dequantized in registers, wgmma, promotion ---------
    ptx::setmaxnreg_inc<Cfg::kMathRegs>();
    const int wg_row0 = (warpgroup - 2) * 64;  // this warpgroup's rows inside the CTA tile
    const int warp_in_wg = (threadIdx.x / 32) & 3;
    const int a_row = wg_row0 + warp_in_wg * 16 + (lane >> 2);  // fragment rows a_row, a_row + 8
    const int q = lane & 3;
    const float alpha = __ldg(p.alpha);

    RingIndex<Cfg::kStages> st;
    RingIndex<Cfg::kBf16Buffers> buf;
    float result[Cfg::kAccRegs];   // fp32 sum of the promoted partials
    float partial[Cfg::kAccRegs];  // wgmma accumulator of the current promotion group
    std::uint32_t frag[kK16PerStage][4];

    // Tells the converter that wgmma has finished reading the previous stage's buffer.
    auto release_previous_buffer = [&] {
      __syncwarp();
      if (lane == 0) ptx::mbarrier_arrive(&smem.b_empty[buf.behind(1)]);
    };
    auto promote = [&] {
#pragma unroll
      for (int i = 0; i < Cfg::kAccRegs; ++i) {
        ptx::fence_operand(partial[i]);
        result[i] += partial[i];
      }
    };

    for (int t = blockIdx.x; t < num_tiles; t += gridDim.x) {
      const TileCoord tile = tile_coord(t, p.tiles_m, p.tiles_n);
      const int m0 = tile.m * Cfg::kBlockM, n0 = tile.n * Cfg::kBlockN;
#pragma unroll
      for (int i = 0; i < Cfg::kAccRegs; ++i) result[i] = 0.0f;

      for (int ks = 0; ks < p.k_stages; ++ks) {
        ptx::mbarrier_wait(&smem.full[st.index], st.phase);
        float sa[2][2];
        fragment_scales(smem.a_scales[st.index], a_row, ks, p.scale_cols, sa);
        // ptxas keeps wgmma asynchronous only if no register input of an in-flight wgmma
        // group is written, so this warpgroup's previous stage must finish before its A
        // fragment is rebuilt; the other math warpgroup keeps the tensor cores busy meanwhile.
        if (ks > 0) {
          ptx::wgmma_wait<0>();
          if (ks % Cfg::kStagesPerPromotion == 0) promote();
          release_previous_buffer();
        }
        load_fragment<kElemA>(smem.a[st.index], a_row, q, sa, frag);
        // The next TMA write into this stage (async proxy) must come after these generic
        // reads: a proxy fence before the release, as the converter does.
        ptx::fence_proxy_async_smem();
        __syncwarp();
        if (lane == 0) ptx::mbarrier_arrive(&smem.empty[st.index]);

        const bool fresh = ks % Cfg::kStagesPerPromotion == 0;  // a new promotion group
        const std::uint32_t b_base = ptx::smem_addr(smem.b_bf16[buf.index]);
        ptx::mbarrier_wait(&smem.b_full[buf.index], buf.phase);
#pragma unroll
        for (int i = 0; i < Cfg::kAccRegs; ++i) ptx::fence_operand(partial[i]);
        ptx::wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < kK16PerStage; ++kk)
          ptx::WgmmaBf16Rs<Cfg::kBlockN>::mma(partial, frag[kk],
                                        ptx::smem_desc_k_major_sw128(b_base + kk * 32),
                                        (fresh && kk == 0) ? 0u : 1u);
        ptx::wgmma_commit();
#pragma unroll
        for (int i = 0; i < Cfg::kAccRegs; ++i) ptx::fence_operand(partial[i]);
        st.advance();
        buf.advance();
      }
      ptx::wgmma_wait<0>();
      promote();
      release_previous_buffer();

      const int row0 = m0 + wg_row0 + warp_in_wg * 16;
      switch (p.d_dtype) {
        case DType::FP32: store_tile<float>(p, result, alpha, row0, n0, lane); break;
        case DType::BF16: store_tile<__nv_bfloat16>(p, result, alpha, row0, n0, lane); break;
        default: store_tile<__half>(p, result, alpha, row0, n0, lane); break;
      }
    }
  }
#else
  // Built for another architecture: the launcher only dispatches here on sm_90a.
  if (threadIdx.x == 0) __trap();
#endif
}

}  // namespace mxgemm::sm90
