// Epilogue of the sm_90a kernels that compute D^T = W x X^T with the weight as the MMA's
// 16-row A operand (the streaming kernel's wgmma, the skinny kernel's mma.sync): both leave a
// warp's accumulator in the same layout, acc[4j + 2h + e] = D^T row (lane / 4 + 8h), column
// (8j + 2 (lane % 4) + e), which is stored transposed into D. P is either kernel's parameter
// struct: its m, n and TransposedOutput out (mxfp8_gemm_params.hpp).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/common/ptx.cuh"
#include "cuda/sm90/mainloop.cuh"  // convert_out
#include "cuda/sm90/mxfp8_gemm_params.hpp"
#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

__device__ __forceinline__ float bias_at(const TransposedOutput& o, int n) {
  switch (o.bias_dtype) {
    case DType::FP32: return static_cast<const float*>(o.bias)[n];
    case DType::BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(o.bias)[n]);
    default: return __half2float(static_cast<const __half*>(o.bias)[n]);
  }
}

// Where accumulator register r of a lane lies in its warp's 16 weight rows x kMPad activation
// rows of D^T (the layout above): weight row `row` (0..15), activation row `col`.
struct AccCoord {
  int row, col;
};
__device__ __forceinline__ AccCoord acc_coord(int r, int lane) {
  return {(lane >> 2) + 8 * ((r >> 1) & 1), 8 * (r >> 2) + 2 * (lane & 3) + (r & 1)};
}

// The fp16 values form of an MXFP8 activation sums activation row m at its own power of two
// (StreamGemmParams::x_row_scale): a lane's D^T columns from activation row m0 are multiplied
// by theirs, exactly, rows from m_end on (past M) left as they are.
template <int kAcc>
__device__ __forceinline__ void scale_activation_rows(float (&acc)[kAcc], const float* row_scale, int m0, int m_end,
                                                      int lane) {
#pragma unroll
  for (int j = 0; j < kAcc / 4; ++j) {
    // Registers 4j + 2h + e hold column acc_coord(4j, lane).col + e, weight row half h.
    const int m = m0 + acc_coord(4 * j, lane).col;
    const float s0 = m < m_end ? ptx::ld_global_in_order(row_scale + m) : 1.0f;
    const float s1 = m + 1 < m_end ? ptx::ld_global_in_order(row_scale + m + 1) : 1.0f;
    acc[4 * j] *= s0;
    acc[4 * j + 1] *= s1;
    acc[4 * j + 2] *= s0;
    acc[4 * j + 3] *= s1;
#pragma unroll
    for (int i = 0; i < 4; ++i) ptx::fence_operand(acc[4 * j + i]);
  }
}

// alpha * v, plus the bias in one fused rounding.
__device__ __forceinline__ float out_value(float alpha, float v, bool has_bias, float bias) {
  return has_bias ? fmaf(alpha, v, bias) : alpha * v;
}

// Element (m, n) of D: alpha * v (+ the bias), in the output type T.
template <typename T>
__device__ __forceinline__ void store_element(const TransposedOutput& out, float alpha, float v, int m, int n) {
  const bool has_bias = out.bias != nullptr;
  static_cast<T*>(out.d)[static_cast<std::int64_t>(m) * out.ldd + n] =
      convert_out<T>(out_value(alpha, v, has_bias, has_bias ? bias_at(out, n) : 0.0f));
}
// Stores element (m, n) of D from a tile's sum v taken outside the math threads' registers
// (the split reduction's kernel, the K-split clusters): the activation row's power of two
// (p.x_row_scale, the fp16 values form of an MXFP8 activation), alpha and the bias, in D's
// output type. P: StreamGemmParams (x_row_scale is the pre-pass's: read after its wait).
template <typename P>
__device__ __forceinline__ void store_summed_element(const P& p, float alpha, float v, int m, int n) {
  if (p.x_row_scale != nullptr) v *= p.x_row_scale[m];
  switch (p.out.d_dtype) {
    case DType::FP32: store_element<float>(p.out, alpha, v, m, n); break;
    case DType::BF16: store_element<__nv_bfloat16>(p.out, alpha, v, m, n); break;
    default: store_element<__half>(p.out, alpha, v, m, n); break;
  }
}

// Writes one warp's 16 weight rows (from n0) x kMPad activation rows (from m0) of D^T into D
// (M x N, row-major), alpha (and the bias, in one fused rounding) applied, masked to the rows
// below m_end (<= M) and the columns below N.
template <typename T, int kAcc, typename P>
__device__ __forceinline__ void store_transposed(const P& p, const float (&acc)[kAcc],
                                                 float alpha, int m0, int n0, int lane, int m_end) {
  T* d = static_cast<T*>(p.out.d);
  // Most tiles of a large GEMM lie inside M x N: no bounds checks there, and one running
  // pointer instead of the full offset per element (the checked loop below costs ~20
  // instructions an element: ~9% of a 256-row tile's time at K = 8192, ncu). Wide tiles only:
  // the narrow ones' epilogue is a small part of their time, and the 4-warpgroup shapes have
  // no registers to spare for it (ptxas spilled).
  if (kAcc >= 64 && m0 + 2 * kAcc <= m_end && n0 + 16 <= p.n) {
    const std::int64_t ldd = p.out.ldd;
    const AccCoord first = acc_coord(0, lane);
    const int n = n0 + first.row;
    const bool has_bias = p.out.bias != nullptr;
    const float b[2] = {has_bias ? bias_at(p.out, n) : 0.0f, has_bias ? bias_at(p.out, n + 8) : 0.0f};
    auto value = [&](float v, int half) { return out_value(alpha, v, has_bias, b[half]); };
    // Rows m and m + 1 of D; the second half's column n + 8 is an immediate offset from them.
    T* out = d + static_cast<std::int64_t>(m0 + first.col) * ldd + n;
#pragma unroll
    for (int j = 0; j < kAcc / 4; ++j) {
      T* next_row = out + ldd;
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        out[8 * half] = convert_out<T>(value(acc[4 * j + 2 * half], half));
        next_row[8 * half] = convert_out<T>(value(acc[4 * j + 2 * half + 1], half));
      }
      out += 8 * ldd;
    }
    return;
  }
  const bool has_bias = p.out.bias != nullptr;
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const int n = n0 + acc_coord(2 * half, lane).row;
    if (n >= p.n) continue;
    const float b = has_bias ? bias_at(p.out, n) : 0.0f;
#pragma unroll
    for (int j = 0; j < kAcc / 4; ++j) {
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int r = 4 * j + 2 * half + e;
        const int m = m0 + acc_coord(r, lane).col;
        if (m < m_end) d[static_cast<std::int64_t>(m) * p.out.ldd + n] = convert_out<T>(out_value(alpha, acc[r], has_bias, b));
      }
    }
  }
}

// ---- staged store (16-bit outputs, the two-warpgroup tiles) ------------------------------------
// The direct store above writes 2-byte elements, 16 bytes a row for each group of 8 lanes: a
// 256-row tile (128 stores a thread) took 4-7 us on the H200, 6% of a large GEMM (session 15,
// globaltimer stamps). Here the CTA's math threads stage kStagedRows rows of D x kBlockN columns
// at a time in shared memory, transposed by stmatrix, and write them back in 16-byte pieces,
// whole rows of the tile at once.
constexpr int kStagedRows = 32;
// Rows padded by 16 bytes: the 8 rows one stmatrix matrix writes then fall on distinct banks.
template <int kBlockN>
constexpr int kStagedPitch = kBlockN * 2 + 16;
template <int kBlockN>
constexpr int kStagedBytes = kStagedRows * kStagedPitch<kBlockN>;
// store_staged_tma: a round's rows in boxes of kStagedRows x 64 16-bit columns (128 bytes, the
// 128B swizzle's width), buffers of a tile's 128 columns, 1024-byte aligned; two at least.
constexpr int kStagedBoxBytes = 128;
constexpr int kStagedTmaBufferBytes = kStagedRows * 256;
constexpr int kStagedTmaBytes = 2 * kStagedTmaBufferBytes;

__device__ __forceinline__ std::uint16_t out_bits(__nv_bfloat16 v) { return __bfloat16_as_ushort(v); }
__device__ __forceinline__ std::uint16_t out_bits(__half v) { return __half_as_ushort(v); }

// Whether the staged store can write D: 16-bit elements, 16-byte pieces aligned (the base
// and the row pitch). (The launcher asks it too: whether TMA may write those rows.)
template <typename P>
MXGEMM_HOST_DEVICE bool staged_store_fits(const P& p) {
  return p.out.d_dtype != DType::FP32 && reinterpret_cast<std::uintptr_t>(p.out.d) % 16 == 0 && p.out.ldd % 8 == 0;
}

// The staged stores' values for stmatrix: pair(j, half) is a lane's accumulator registers
// 4j + 2 half and + 1 (weight row n_lane + 8 half, two activation rows), alpha and the bias
// applied, as two 16-bit values of T in a word.
template <typename T, int kAcc, typename P>
__device__ __forceinline__ auto staged_pairs(const P& p, const float (&acc)[kAcc], float alpha, int n_lane) {
  const bool has_bias = p.out.bias != nullptr;
  const float b0 = has_bias && n_lane < p.n ? bias_at(p.out, n_lane) : 0.0f;
  const float b1 = has_bias && n_lane + 8 < p.n ? bias_at(p.out, n_lane + 8) : 0.0f;
  return [&acc, alpha, has_bias, b0, b1](int j, int half) {
    const float b = half == 0 ? b0 : b1;
    const float v0 = out_value(alpha, acc[4 * j + 2 * half], has_bias, b);
    const float v1 = out_value(alpha, acc[4 * j + 2 * half + 1], has_bias, b);
    return static_cast<std::uint32_t>(out_bits(convert_out<T>(v0))) |
           (static_cast<std::uint32_t>(out_bits(convert_out<T>(v1))) << 16);
  };
}

// Writes the CTA's tile (kBlockN weight rows from n0 x 2 kAcc activation rows from m0) of D^T
// into D, alpha and the bias applied, masked to M x N; only its first `rounds` x kStagedRows
// activation rows (rounds <= kAcc / 16, the same in every thread). Every math thread of the
// CTA calls it (kMathThreads, named barrier `barrier`); warp_row0 is the warp's first weight
// row in the tile.
// skip: the same steps, writing nothing to D (a tile the exact path stores).
template <typename T, int kAcc, int kBlockN, int kMathThreads, typename P>
__device__ __forceinline__ void store_staged(const P& p, const float (&acc)[kAcc], float alpha, int m0, int n0,
                                             int warp_row0, int lane, int math_tid, std::uint8_t* buf,
                                             std::uint32_t barrier, bool skip, int rounds) {
  static_assert(sizeof(T) == 2, "16-bit outputs");
  static_assert(kAcc % 16 == 0, "whole rounds of kStagedRows activation rows");
  constexpr int kPitch = kStagedPitch<kBlockN>;
  constexpr int kPiecesPerRow = kBlockN * 2 / 16;
  constexpr int kPieces = kStagedRows * kPiecesPerRow;
  static_assert(kPieces % kMathThreads == 0, "every thread copies the same number of pieces");
  const auto pair = staged_pairs<T>(p, acc, alpha, n0 + warp_row0 + (lane >> 2));
  // Lane 8i + r addresses row r of matrix i: matrices (j, half 0), (j, 1), (j + 1, 0), (j + 1, 1),
  // i.e. D rows 8 (j + i / 2) + r, columns warp_row0 + 8 (i % 2) .. + 8.
  const std::uint32_t base = ptx::smem_addr(buf);
  const std::uint32_t row_addr =
      base + ((lane >> 4) * 8 + (lane & 7)) * kPitch + (warp_row0 + 8 * ((lane >> 3) & 1)) * 2;
  T* d = static_cast<T*>(p.out.d);
#pragma unroll
  for (int round = 0; round < kAcc / 16; ++round) {
    if (round == rounds) break;
#pragma unroll
    for (int jj = 0; jj < 4; jj += 2) {
      const int j = 4 * round + jj;
      ptx::stmatrix_x4_trans(row_addr + jj * 8 * kPitch, pair(j, 0), pair(j, 1), pair(j + 1, 0), pair(j + 1, 1));
    }
    ptx::named_barrier_sync(barrier, kMathThreads);
#pragma unroll
    for (int c = math_tid; c < kPieces; c += kMathThreads) {
      const int row = c / kPiecesPerRow, piece = c % kPiecesPerRow;
      const uint4 v = ptx::ld_shared_v4(base + row * kPitch + piece * 16);
      const int m = m0 + round * kStagedRows + row, n = n0 + 8 * piece;
      if (skip || m >= p.m || n >= p.n) continue;
      T* out = d + static_cast<std::int64_t>(m) * p.out.ldd + n;
      if (n + 8 <= p.n) {
        *reinterpret_cast<uint4*>(out) = v;
      } else {  // the last columns of D
        const std::uint32_t w[4] = {v.x, v.y, v.z, v.w};
        std::uint16_t* o = reinterpret_cast<std::uint16_t*>(out);
#pragma unroll
        for (int e = 0; e < 8; ++e)
          if (n + e < p.n) o[e] = static_cast<std::uint16_t>(w[e / 2] >> (16 * (e % 2)));
      }
    }
    // The next round overwrites the rows just read (the last round's are read before the
    // buffer's next use: the epilogue of another tile starts after a barrier of all math threads).
    if (round + 1 < rounds) ptx::named_barrier_sync(barrier, kMathThreads);
  }
}

// store_staged's steps with TMA writing D: each round's rows go to one of kBuffers buffers of
// shared memory, 128B-swizzled (conflict-free for stmatrix), and math thread 0 hands them to TMA
// (p.d_map, whose bounds mask D to M x N), so the math threads do not wait for D's writes: one
// barrier a round instead of two, and no copy through the registers. Round r writes buffer
// r % kBuffers, which round r - kBuffers wrote before: before round r - 1's barrier, thread 0
// waits until TMA has read that one. With a buffer a round (the 192- and 256-row tiles have the
// shared memory: their promoted sums' high parts) no round waits for TMA; with two, every round
// waited for the previous round's read, one TMA round trip a round. Every buffer is free when
// the store begins: thread 0 waits for the previous store's reads, which ended a mainloop ago,
// before one barrier. Math thread 0 waits for every store (ptx::bulk_wait_group) before the
// kernel ends.
template <typename T, int kAcc, int kBlockN, int kMathThreads, int kBuffers, typename P>
__device__ __forceinline__ void store_staged_tma(const P& p, const float (&acc)[kAcc], float alpha, int m0, int n0,
                                                 int warp_row0, int lane, int math_tid, std::uint8_t* buf,
                                                 std::uint32_t barrier, bool skip, int rounds) {
  static_assert(sizeof(T) == 2, "16-bit outputs");
  static_assert(kAcc % 16 == 0, "whole rounds of kStagedRows activation rows");
  static_assert(kBlockN * 2 == 2 * kStagedBoxBytes, "a tile's columns are two boxes");
  static_assert(kBuffers >= 2 && kBuffers <= kAcc / 16, "two buffers at least, one a round at most");
  constexpr int kBoxBytes = kStagedRows * kStagedBoxBytes;
  const auto pair = staged_pairs<T>(p, acc, alpha, n0 + warp_row0 + (lane >> 2));
  // Lane 8i + r addresses row r of matrix i (store_staged): round row 8 (jj + i / 2) + r, tile
  // columns col .. col + 8, a 16-byte chunk of box col / 64, swizzled by the row (r = row % 8).
  const int row = (lane >> 4) * 8 + (lane & 7);
  const int col = warp_row0 + 8 * ((lane >> 3) & 1);
  const std::uint32_t lane_offset =
      (col / 64) * kBoxBytes + row * kStagedBoxBytes + ((((col % 64) / 8) ^ (lane & 7)) << 4);
  const std::uint32_t base = ptx::smem_addr(buf);
  if (math_tid == 0) ptx::bulk_wait_group_read<0>();
  ptx::named_barrier_sync(barrier, kMathThreads);
#pragma unroll
  for (int round = 0; round < kAcc / 16; ++round) {
    if (round == rounds) break;
    const std::uint32_t buffer = base + (round % kBuffers) * kStagedTmaBufferBytes;
#pragma unroll
    for (int jj = 0; jj < 4; jj += 2) {
      const int j = 4 * round + jj;
      ptx::stmatrix_x4_trans(buffer + lane_offset + jj * 8 * kStagedBoxBytes, pair(j, 0), pair(j, 1), pair(j + 1, 0),
                             pair(j + 1, 1));
    }
    ptx::fence_proxy_async_smem();  // (the writes, before TMA reads them)
    // Round + 1 writes the buffer of round + 1 - kBuffers: of the rounds committed so far, the
    // kBuffers - 2 after that one may still be read.
    if (math_tid == 0 && round + 1 >= kBuffers && round + 1 < rounds) ptx::bulk_wait_group_read<kBuffers - 2>();
    ptx::named_barrier_sync(barrier, kMathThreads);
    if (math_tid == 0 && !skip) {
#pragma unroll
      for (int box = 0; box < 2; ++box)
        ptx::tma_store_2d(&p.d_map, buffer + box * kBoxBytes, (n0 + 64 * box) * 2, m0 + round * kStagedRows);
      ptx::bulk_commit_group();
    }
  }
}

// Only the rows below m_end (<= M).
template <int kAcc, typename P>
__device__ __forceinline__ void store_tile_transposed(const P& p, const float (&acc)[kAcc],
                                                      float alpha, int m0, int n0, int lane, int m_end) {
  switch (p.out.d_dtype) {
    case DType::FP32: store_transposed<float>(p, acc, alpha, m0, n0, lane, m_end); break;
    case DType::BF16: store_transposed<__nv_bfloat16>(p, acc, alpha, m0, n0, lane, m_end); break;
    default: store_transposed<__half>(p, acc, alpha, m0, n0, lane, m_end); break;
  }
}

template <int kAcc, typename P>
__device__ __forceinline__ void store_tile_transposed(const P& p, const float (&acc)[kAcc],
                                                      float alpha, int m0, int n0, int lane) {
  store_tile_transposed(p, acc, alpha, m0, n0, lane, p.m);
}

}  // namespace mxgemm::sm90
