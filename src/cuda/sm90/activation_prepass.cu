// MXFP8 activation rows -> what the streaming kernel's TMA reads: bf16 values (values form:
// every M > 16) or fp16 codes (codes form, M <= 16), both in the permuted K order of
// mainloop.cuh. A short launch ahead of the streaming kernel at small M; at large M it moves
// 3 bytes per activation element (1 read, 2 written) against 2N flops of GEMM, and it is
// the whole of the time MXFP8 takes over weight-only there, so the values form is written to
// run near copy bandwidth: every warp instruction reads 256 contiguous bytes or writes 512
// (ncu, session 9: 50 us at 8192 x 8192, whose bytes a copy moves in about 42).
#include "cuda/sm90/activation_prepass.hpp"

#include <algorithm>

#include "core/check.hpp"
#include "cuda/common/ptx.cuh"
#include "cuda/sm90/mainloop.cuh"
#include "cuda/sm90/scale_window.cuh"
#include "mxgemm/layout.hpp"

namespace mxgemm::sm90 {
namespace {

constexpr int kThreads = 128;
// The streaming kernel starts while this pre-pass runs (programmatic dependent launch) and
// keeps one 640-thread CTA with up to 96 registers per thread on every SM: at 2 CTAs per SM
// worth of registers (32 per thread) a pre-pass CTA fits beside it instead of delaying it.
constexpr int kMinCtasPerSm = 16;

struct PrepassParams {
  const std::uint8_t* a;
  std::int64_t a_stride;  // bytes
  ScaleSource sa;
  int row0;     // first row of a that this launch covers
  int a_rows;   // rows of a (scale rows past it read as 1)
  int m, k, blocks;
  std::uint16_t* out;
  std::int64_t out_stride;  // elements
  float* scales_out;        // codes form only
  std::int64_t scales_stride;
  float* row_scale_out;     // fp16 values form only: each row's power of two (row_top_scale_byte)
  unsigned int* exact_rows;  // row r := generation where a block needs the exact path
  unsigned int generation;
};

// Values form: a CTA dequantizes kThreads * kChunksPerThread consecutive chunks of 8 elements
// (8 bytes in, 16 out) of one row (blockIdx.y), a thread every kThreads-th, all its loads
// issued before the first store. A thread per 32-block (as the codes form below) moved 64
// bytes a thread in 16-byte pieces 64 bytes apart: 95 us at 8192 x 8192, twice the copy
// time (ncu, session 9).
constexpr int kChunksPerThread = 4;
constexpr int kChunkElems = 8;
constexpr int kCtaChunks = kThreads * kChunksPerThread;

// The permuted K order of mainloop.cuh, for the four threads (a quad, q = thread % 4) that
// hold the four 8-element chunks of one 32-block: thread q converted its physical codes
// 8q..8q+7 into words w[p] (pair p = 2h + i: codes 8q + 4h + 2i, +1), whose logical place is
// k = 16h + 8i + 2q, word q of logical chunk p. Transposing the quad's 4 x 4 words gives
// thread q logical chunk q, to be stored where its physical chunk was read. Two butterfly
// exchanges (partners q ^ 2, then q ^ 1), four shuffles.
__device__ __forceinline__ void permute_quad(std::uint32_t (&w)[4], int q) {
  const bool b1 = (q & 2) != 0, b0 = (q & 1) != 0;
  // Keep the pairs whose bit 1 is q's, send the others: then k* = w_q[2 b1 + *] and
  // r* = w_{q^2}[2 b1 + *].
  const std::uint32_t k0 = b1 ? w[2] : w[0], k1 = b1 ? w[3] : w[1];
  const std::uint32_t r0 = __shfl_xor_sync(0xFFFFFFFFu, b1 ? w[0] : w[2], 2);
  const std::uint32_t r1 = __shfl_xor_sync(0xFFFFFFFFu, b1 ? w[1] : w[3], 2);
  // Keep pair q, send pair q ^ 1: u0 = w_{q^1}[q], u1 = w_{q^3}[q].
  const std::uint32_t own_k = b0 ? k1 : k0, own_r = b0 ? r1 : r0;
  const std::uint32_t u0 = __shfl_xor_sync(0xFFFFFFFFu, b0 ? k0 : k1, 1);
  const std::uint32_t u1 = __shfl_xor_sync(0xFFFFFFFFu, b0 ? r0 : r1, 1);
  // Word r of the chunk is w_r[q]: own_k, u0, own_r or u1 as r ^ q is 0, 1, 2 or 3.
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const bool d1 = ((r & 2) != 0) != b1, d0 = ((r & 1) != 0) != b0;
    w[r] = d1 ? (d0 ? u1 : own_r) : (d0 ? u0 : own_k);
  }
}

#ifdef MXGEMM_STREAM_TRACE
__device__ unsigned long long g_prepass_trace[2];
__device__ __forceinline__ unsigned long long prepass_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
#endif

// The largest of every thread's `value` in the CTA, returned to every thread (each calls it once
// per kernel: the scratch words are not reused).
__device__ __forceinline__ std::uint32_t cta_max(std::uint32_t value) {
  __shared__ std::uint32_t warp_max[kThreads / 32];
  value = __reduce_max_sync(0xFFFFFFFFu, value);
  if ((threadIdx.x & 31) == 0) warp_max[threadIdx.x / 32] = value;
  __syncthreads();
#pragma unroll
  for (int w = 0; w < kThreads / 32; ++w) value = max(value, warp_max[w]);
  return value;
}

// The fp16 values form (kF16 below): the largest scale byte of the row inside the exact window
// (scale_window.cuh), 127 if none; every thread of the CTA calls it.
template <DType kElem>
__device__ __forceinline__ std::uint32_t row_top_scale_byte(const ScaleRow& scales, int blocks) {
  std::uint32_t top = 0;
  for (int b = static_cast<int>(threadIdx.x); b < blocks; b += kThreads) {
    const std::uint32_t s = scales.load(b);
    if (!scale_outside_window<kElem>(s)) top = max(top, s);
  }
  top = cta_max(top);
  return top == 0 ? 127u : top;
}

// The fp16 values form's power of two of a block with scale byte s in a row whose top byte is
// `top` (scale_window.cuh, kF16RowTopExponent), as fp16x2: NaN for a NaN block; exponents below
// fp16's least subnormal or above 15 are clamped (blocks there hold only zero codes, or mark
// their row for the exact path).
__device__ __forceinline__ std::uint32_t row_block_power_f16x2(std::uint32_t s, std::uint32_t top) {
  if (s == 0xFFu) return 0x7E007E00u;
  const int e = min(max(static_cast<int>(s) - static_cast<int>(top) + kF16RowTopExponent, -24), 15);
  const std::uint32_t bits = e >= -14 ? static_cast<std::uint32_t>(e + 15) << 10 : 1u << (e + 24);
  return bits * 0x00010001u;
}

// kF16: the fp16 values form of an E4M3 activation (stream_gemm_kernel.cuh's kF16X with
// kPermutedX): each block as fp16 code x 2^(s - top + kF16RowTopExponent) (exact for blocks no
// more than kF16RowSpan bytes below the row's top byte; rows with a nonzero block further below
// are marked), and the row's power of two 2^(top - kF16RowScaleBias) to p.row_scale_out.
template <DType kElem, bool kF16 = false>
__global__ void __launch_bounds__(kThreads, kMinCtasPerSm) activation_values_prepass_kernel(const PrepassParams p) {
  static_assert(!kF16 || kElem == DType::E4M3, "the row window is built for E4M3 codes");
  ptx::griddepcontrol_launch_dependents();
#ifdef MXGEMM_STREAM_TRACE
  if (threadIdx.x == 0) atomicMin(&g_prepass_trace[0], prepass_now());
#endif
  const int row = static_cast<int>(blockIdx.y);
  // Columns in 32 bits unsigned: K < 2^31, rounded up to whole CTAs stays below 2^32.
  const std::uint32_t first = blockIdx.x * kCtaChunks + threadIdx.x;
  const std::uint8_t* src = p.a + static_cast<std::int64_t>(p.row0 + row) * p.a_stride;
  const ScaleRow scales(p.sa, p.row0 + row, p.a_rows, p.blocks);
  uint2 codes[kChunksPerThread];
  std::uint32_t scale_byte[kChunksPerThread];
#pragma unroll
  for (int j = 0; j < kChunksPerThread; ++j) {
    const std::uint32_t col = (first + j * kThreads) * kChunkElems;
    // K is a multiple of 16: a chunk lies wholly inside K or wholly past it (zero codes).
    codes[j] = col < static_cast<std::uint32_t>(p.k) ? __ldg(reinterpret_cast<const uint2*>(src + col)) : make_uint2(0, 0);
    scale_byte[j] = scales.load(static_cast<int>(col / 32));  // 127 past the last block
  }
  const std::uint32_t row_elems = static_cast<std::uint32_t>(p.blocks) * 32;
  std::uint16_t* dst = p.out + static_cast<std::int64_t>(row) * p.out_stride;
  // (The code loads are in flight while the CTA reads the row's scale bytes.)
  [[maybe_unused]] const std::uint32_t top = kF16 ? row_top_scale_byte<kElem>(scales, p.blocks) : 0u;
  if constexpr (kF16) {
    if (blockIdx.x == 0 && threadIdx.x == 0)
      p.row_scale_out[row] = __uint_as_float((127u + top - kF16RowScaleBias) << 23);
  }
  bool exact = false;
#pragma unroll
  for (int j = 0; j < kChunksPerThread; ++j) {
    // Chunks past the row are converted too (zero codes, scale 1) but not stored: the
    // permutation's shuffles need every thread of the warp.
    const std::uint32_t col = (first + j * kThreads) * kChunkElems;
    const bool in_row = col < row_elems;
    const std::uint32_t code_bits = code_magnitudes(codes[j].x | codes[j].y);
    exact |= in_row && needs_exact_path<kElem>(scale_byte[j], code_bits);
    std::uint32_t w[4];
    if constexpr (kF16) {
      exact |= in_row && scale_byte[j] != 0xFFu && code_bits != 0 && scale_byte[j] + kF16RowSpan < top;
      const std::uint32_t power = row_block_power_f16x2(scale_byte[j], top);
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const std::uint32_t h2 = cuda::fp8x2_to_f16x2<kElem>(cuda::byte_pair(i < 2 ? codes[j].x : codes[j].y, i % 2));
        const __half2 v = __hmul2(*reinterpret_cast<const __half2*>(&h2), *reinterpret_cast<const __half2*>(&power));
        w[i] = *reinterpret_cast<const std::uint32_t*>(&v);
      }
    } else {
      const float scale = cuda::e8m0_to_float(scale_byte[j]);
#pragma unroll
      for (int i = 0; i < 4; ++i)
        w[i] = cuda::dequant_pair_bf16x2<kElem>(cuda::byte_pair(i < 2 ? codes[j].x : codes[j].y, i % 2), scale);
    }
    permute_quad(w, static_cast<int>(threadIdx.x & 3));
    if (in_row) *reinterpret_cast<uint4*>(dst + col) = make_uint4(w[0], w[1], w[2], w[3]);
  }
  // Rows only ever gain the mark within a launch; threads race to write the same value.
  if (exact) p.exact_rows[row] = p.generation;
#ifdef MXGEMM_STREAM_TRACE
  __syncthreads();
  if (threadIdx.x == 0) atomicMax(&g_prepass_trace[1], prepass_now());
#endif
}

// Codes form: one thread per (row, 32-block): 32 fp8 codes and their scale in, their fp16
// codes out in the permuted order, and the block scale as fp32 to p.scales_out[blk][row]
// (the streaming kernel applies it after the MMA). At most 16 rows: its speed hardly matters.
template <DType kElem>
__global__ void __launch_bounds__(kThreads, kMinCtasPerSm) activation_codes_prepass_kernel(const PrepassParams p) {
  ptx::griddepcontrol_launch_dependents();
  const std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (idx >= static_cast<std::int64_t>(p.m) * p.blocks) return;
  const int row = static_cast<int>(idx / p.blocks), blk = static_cast<int>(idx % p.blocks);
  // Rows start 16-byte aligned (validated for TMA); K is a multiple of 16, so a block is
  // either whole or its first 16 bytes (the rest reads as zero codes).
  const std::uint8_t* src = p.a + static_cast<std::int64_t>(p.row0 + row) * p.a_stride + blk * 32;
  const bool whole = blk * 32 + 32 <= p.k;
  const uint4 lo = __ldg(reinterpret_cast<const uint4*>(src));
  const uint4 hi = whole ? __ldg(reinterpret_cast<const uint4*>(src + 16)) : make_uint4(0, 0, 0, 0);
  const std::uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  const ScaleRow scale_row(p.sa, p.row0 + row, p.a_rows, p.blocks);
  const std::uint32_t scale_byte = scale_row.load(blk);
  const float scale = cuda::e8m0_to_float(scale_byte);
  std::uint32_t code_bits = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) code_bits |= code_magnitudes(w[i]);
  // Rows only ever gain the mark within a launch; its blocks race to write the same value.
  if (needs_exact_path<kElem>(scale_byte, code_bits)) p.exact_rows[row] = p.generation;
  uint4 out[4];
  codes_block_permuted<kElem>(w, out);
  p.scales_out[static_cast<std::int64_t>(blk) * p.scales_stride + row] = scale;
  uint4* dst = reinterpret_cast<uint4*>(p.out + static_cast<std::int64_t>(row) * p.out_stride + blk * 32);
#pragma unroll
  for (int t = 0; t < 4; ++t) dst[t] = out[t];
}

// The weight-only codes form, per (row, 32-block) of a BF16 activation: the block
// becomes fp16 codes x = v * 2^-e (permuted as above) with the fp32 block scale 2^e, where
// e = max(E - 15, -54) and E is the exponent of its largest finite magnitude: bf16 keeps 8
// significant bits, so x is exact for every element within 2^32 of that magnitude (fp16's
// subnormals reach 2^-24), and the largest, below 2^16, never overflows (65280 < 65504). The
// kernel then sums exact products of fp16 codes and applies 2^e with the weight's scale, as
// for an MXFP8 activation. A block is marked for the exact path (scale_window.cuh) when an
// element would round, or lies outside [2^-63, 2^63) (an in-window MXFP8 block's range).
// NaN and infinities pass through as fp16 NaN and infinities.
//
// FP16 activations (fp16_input) are their own fp16 codes: written as they are at scale 1
// (e = 0), never marked.
struct Bf16CodesParams {
  const std::uint16_t* a;
  std::int64_t a_stride;  // elements
  bool fp16_input;        // the elements are FP16, not BF16
  bool vector_loads;      // rows start 8-byte aligned: four 8-byte loads a thread
  bool natural_order;     // codes in the activation's own K order (a prepacked weight's partner)
  int m, k, blocks;
  std::uint16_t* out;
  std::int64_t out_stride;  // elements
  float* scales_out;
  std::int64_t scales_stride;
  unsigned int* exact_rows;
  unsigned int generation;
};

// kMaxField: the bf16 exponent field of 2^62 (magnitudes below 2^63); kMinField: of 2^-63.
constexpr std::uint32_t kBf16MaxField = 127 + 62, kBf16MinField = 127 - 63;
constexpr int kBf16CodesTopExponent = 15, kBf16CodesMinScaleExponent = -54;

// The output fields both codes pre-passes' parameters share (PrepassParams, Bf16CodesParams).
template <typename Params>
void set_codes_outputs(Params& p, std::uint16_t* out, std::int64_t out_stride, float* scales, std::int64_t scales_stride,
                       const ExactRowMarks& marks) {
  p.out = out;
  p.out_stride = out_stride;
  p.scales_out = scales;
  p.scales_stride = scales_stride;
  p.exact_rows = marks.rows;
  p.generation = marks.generation;
}

// A BF16 block held by the pair of threads `both` (this thread's 8 pairs) -> its fp16 codes
// v * 2^-e in place; returns e. `exact` becomes false where a code would round or the block
// lies outside [2^-63, 2^63) (see above).
__device__ __forceinline__ int bf16_block_to_codes(std::uint32_t (&pairs)[8], unsigned both, bool& exact) {
  // Exponent fields of the finite nonzero magnitudes (a bf16 subnormal has field 0).
  std::uint32_t max_field = 0, min_field = 0xFF;
#pragma unroll
  for (int j = 0; j < 16; ++j) {
    const std::uint32_t mag = (pairs[j / 2] >> (16 * (j % 2))) & 0x7FFFu, field = mag >> 7;
    if (mag != 0 && field != 0xFF) {
      max_field = max(max_field, field);
      min_field = min(min_field, field);
    }
  }
  max_field = max(max_field, __shfl_xor_sync(both, max_field, 1));
  min_field = min(min_field, __shfl_xor_sync(both, min_field, 1));
  const bool any = min_field != 0xFF;
  exact = !any || (max_field <= kBf16MaxField && min_field >= kBf16MinField);
  const int e = any ? max(static_cast<int>(max_field) - 127 - kBf16CodesTopExponent, kBf16CodesMinScaleExponent) : 0;
  const float down = __uint_as_float(static_cast<std::uint32_t>(127 - e) << 23);  // 2^-e, e in [-54, 47]
#pragma unroll
  for (int j = 0; j < 8; ++j) {  // each pair becomes its fp16 codes in place
    // bf16 -> fp32 is a shift; times 2^-e is exact (every magnitude checked lies far inside fp32).
    const float lo = __uint_as_float(pairs[j] << 16) * down, hi = __uint_as_float(pairs[j] & 0xFFFF0000u) * down;
    const __half2 c = __floats2half2_rn(lo, hi);
    const float2 back = __half22float2(c);
    exact = exact && (back.x == lo || lo != lo) && (back.y == hi || hi != hi);
    pairs[j] = *reinterpret_cast<const std::uint32_t*>(&c);
  }
  return e;
}

// Two threads a block (registers: the pre-pass runs beside the streaming kernel at 32 a
// thread): thread h holds the block's pairs 2h, 2h + 1, 4 + 2h, 5 + 2h, ... (elements 4h..4h+3
// of each 8), so that it writes the permuted chunks 2h and 2h + 1 (convert_block_permuted:
// chunk t holds pairs t, 4 + t, 8 + t, 12 + t).
__global__ void __launch_bounds__(kThreads, kMinCtasPerSm) bf16_codes_prepass_kernel(const Bf16CodesParams p) {
  ptx::griddepcontrol_launch_dependents();
  const std::int64_t idx = (static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x) / 2;
  const int h = static_cast<int>(threadIdx.x & 1);
  // The two threads of a block (lanes 2i, 2i + 1) leave together and shuffle with each other.
  if (idx >= static_cast<std::int64_t>(p.m) * p.blocks) return;
  const unsigned both = 3u << (threadIdx.x & 30u);
  const int row = static_cast<int>(idx / p.blocks), blk = static_cast<int>(idx % p.blocks);
  const std::uint16_t* src = p.a + static_cast<std::int64_t>(row) * p.a_stride + blk * 32 + 4 * h;
  const int valid = p.k - blk * 32 < 32 ? p.k - blk * 32 : 32;  // 16 or 32 (K % 16 == 0)
  std::uint32_t pairs[8];  // [2i], [2i + 1]: block pairs 4i + 2h, 4i + 2h + 1 (elements 8i + 4h ..)
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    uint2 v = make_uint2(0, 0);
    if (8 * i < valid) {
      if (p.vector_loads) {
        v = __ldg(reinterpret_cast<const uint2*>(src + 8 * i));
      } else {
        v.x = static_cast<std::uint32_t>(src[8 * i]) | (static_cast<std::uint32_t>(src[8 * i + 1]) << 16);
        v.y = static_cast<std::uint32_t>(src[8 * i + 2]) | (static_cast<std::uint32_t>(src[8 * i + 3]) << 16);
      }
    }
    pairs[2 * i] = v.x, pairs[2 * i + 1] = v.y;
  }
  int e = 0;  // the block's scale 2^e (0 for FP16 elements: already fp16 codes)
  if (!p.fp16_input) {  // (uniform: a kernel parameter, so the pair's shuffles stay together)
    bool exact = true;
    e = bf16_block_to_codes(pairs, both, exact);
    // Rows only ever gain the mark within a launch; its blocks race to write the same value.
    if (!exact) p.exact_rows[row] = p.generation;
  }
  if (h == 0)
    p.scales_out[static_cast<std::int64_t>(blk) * p.scales_stride + row] = __uint_as_float(static_cast<std::uint32_t>(127 + e) << 23);
  std::uint16_t* const block = p.out + static_cast<std::int64_t>(row) * p.out_stride + blk * 32;
  if (p.natural_order) {  // elements 8i + 4h .. 8i + 4h + 3 where they were read
#pragma unroll
    for (int i = 0; i < 4; ++i) reinterpret_cast<uint2*>(block + 8 * i + 4 * h)[0] = make_uint2(pairs[2 * i], pairs[2 * i + 1]);
    return;
  }
  // Chunk 2h + c holds block pairs 2h + c, 4 + 2h + c, 8 + 2h + c, 12 + 2h + c: pairs[c], [2 + c], ...
  uint4* dst = reinterpret_cast<uint4*>(block) + 2 * h;
#pragma unroll
  for (int c = 0; c < 2; ++c) dst[c] = make_uint4(pairs[c], pairs[2 + c], pairs[4 + c], pairs[6 + c]);
}

// The fp16 values form of a BF16 activation (weight-only, stream_gemm_kernel.cuh's kF16X with
// kPermutedX): row r as fp16 values a x 2^c_r in the permuted K order, c_r = 142 - f for f the
// biased exponent of the row's largest finite magnitude, which so lies in [2^15, 2^16) and stays
// below fp16's largest (65280 at most against 65504); every bf16 value whose lowest significant
// bit is 2^-24 or more after the shift is an exact fp16 value. The row's 2^-(c_r +
// kF16WeightShift) goes to row_scale_out[r] (scale_window.cuh: the weight's fp16 values carry
// 2^kF16WeightShift). A row holding a value fp16 cannot hold exactly at that power (more than
// about 2^32 below the largest, or a row whose largest lies below 2^-101, where c_r = 0) is
// marked for the exact path. NaN and Inf stay what they are.
struct F16RowsParams {
  const std::uint16_t* a;
  std::int64_t a_stride;  // elements, a multiple of 8 (16-byte rows: the in-place condition)
  int m, k, blocks;
  std::uint16_t* out;
  std::int64_t out_stride;  // elements
  float* row_scale_out;
  unsigned int* exact_rows;
  unsigned int generation;
  bool natural_order;  // values in the activation's own K order (a prepacked weight's partner)
};

// The biased exponent field of a bf16 magnitude at or above which c_r (above) is usable: the
// row's power 2^(f - 152) stays an fp32 normal.
constexpr std::uint32_t kF16RowsMinTopField = 26;

// The magnitudes of two bf16 values, 0 for Inf and NaN (lanes at or above 0x7F80).
__device__ __forceinline__ std::uint32_t finite_bf16_magnitudes(std::uint32_t pair) {
  const std::uint32_t mag = pair & 0x7FFF7FFFu;
  const std::uint32_t non_finite = (mag + 0x00800080u) & 0x80008000u;  // no carry leaves a lane
  return mag & ~((non_finite >> 15) * 0xFFFFu);
}

// The largest finite bf16 magnitude (its bits) of the k elements of a row, every thread of the
// CTA taking part; 16-byte loads (K % 8 == 0, rows 16-byte aligned).
__device__ __forceinline__ std::uint32_t row_top_bf16_magnitude(const std::uint16_t* row, int k) {
  std::uint32_t top = 0;
  for (int col = static_cast<int>(threadIdx.x) * 8; col < k; col += kThreads * 8) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(row + col));
    top = cuda::max_u16x2(top, cuda::max_u16x2(cuda::max_u16x2(finite_bf16_magnitudes(v.x), finite_bf16_magnitudes(v.y)),
                                               cuda::max_u16x2(finite_bf16_magnitudes(v.z), finite_bf16_magnitudes(v.w))));
  }
  return cta_max(max(top & 0xFFFFu, top >> 16));
}

// Two bf16 values (low half first) times `power` as fp16x2; `inexact` set where a finite one
// does not convert exactly.
__device__ __forceinline__ std::uint32_t bf16x2_to_f16x2_scaled(std::uint32_t pair, float power, bool& inexact) {
  const float lo = __uint_as_float(pair << 16) * power, hi = __uint_as_float(pair & 0xFFFF0000u) * power;
  const __half2 h = __floats2half2_rn(lo, hi);
  const float2 back = __half22float2(h);
  inexact |= (back.x != lo && lo == lo) || (back.y != hi && hi == hi);  // (NaN != NaN)
  return *reinterpret_cast<const std::uint32_t*>(&h);
}

// A thread's kChunksPerThread chunks of 8 elements of a BF16 row, every kThreads-th from chunk
// `first`, in 16-byte loads (rows 16-byte aligned, k % 8 == 0); zeros past k.
__device__ __forceinline__ void load_row_chunks(const std::uint16_t* src, std::uint32_t first, int k,
                                                uint4 (&v)[kChunksPerThread]) {
#pragma unroll
  for (int j = 0; j < kChunksPerThread; ++j) {
    const std::uint32_t col = (first + j * kThreads) * kChunkElems;
    v[j] = col < static_cast<std::uint32_t>(k) ? __ldg(reinterpret_cast<const uint4*>(src + col)) : make_uint4(0, 0, 0, 0);
  }
}

// The chunks of load_row_chunks, each word (a pair of elements) mapped by convert, stored in the
// permuted K order (unless natural_order, the same for every thread) up to row_elems. Chunks
// past the row are converted too (zeros) but not stored: the permutation's shuffles need every
// thread of the warp.
template <typename Convert>
__device__ __forceinline__ void store_permuted_chunks(const uint4 (&v)[kChunksPerThread], std::uint16_t* dst,
                                                      std::uint32_t first, std::uint32_t row_elems,
                                                      const Convert& convert, bool natural_order = false) {
#pragma unroll
  for (int j = 0; j < kChunksPerThread; ++j) {
    const std::uint32_t col = (first + j * kThreads) * kChunkElems;
    std::uint32_t w[4] = {convert(v[j].x), convert(v[j].y), convert(v[j].z), convert(v[j].w)};
    if (!natural_order) permute_quad(w, static_cast<int>(threadIdx.x & 3));
    if (col < row_elems) *reinterpret_cast<uint4*>(dst + col) = make_uint4(w[0], w[1], w[2], w[3]);
  }
}

// A CTA converts kCtaChunks chunks of 8 elements of one row (blockIdx.y), as the MXFP8 values
// pre-pass; each first finds the row's largest magnitude (the row is read once from memory and
// again from L2 by its other CTAs).
__global__ void __launch_bounds__(kThreads, kMinCtasPerSm) bf16_f16_rows_prepass_kernel(const F16RowsParams p) {
  ptx::griddepcontrol_launch_dependents();
  const int row = static_cast<int>(blockIdx.y);
  const std::uint32_t first = blockIdx.x * kCtaChunks + threadIdx.x;
  const std::uint16_t* src = p.a + static_cast<std::int64_t>(row) * p.a_stride;
  uint4 v[kChunksPerThread];
  load_row_chunks(src, first, p.k, v);
  const std::uint32_t field = row_top_bf16_magnitude(src, p.k) >> 7;
  const bool usable = field >= kF16RowsMinTopField;
  const std::uint32_t c_biased = usable ? 127u + 142u - field : 127u;  // 127 + c_r
  if (blockIdx.x == 0 && threadIdx.x == 0)
    p.row_scale_out[row] = __uint_as_float((254u - c_biased - kF16WeightShift) << 23);  // 2^-(c_r + shift)
  const float power = __uint_as_float(c_biased << 23);
  const std::uint32_t row_elems = static_cast<std::uint32_t>(p.blocks) * 32;
  std::uint16_t* dst = p.out + static_cast<std::int64_t>(row) * p.out_stride;
  bool inexact = false;
  store_permuted_chunks(
      v, dst, first, row_elems, [&](std::uint32_t pair) { return bf16x2_to_f16x2_scaled(pair, power, inexact); },
      p.natural_order);
  // Rows only ever gain the mark within a launch; threads race to write the same value.
  if (inexact) p.exact_rows[row] = p.generation;
}
static_assert(127 + 142 - 254 >= 1 && 127 + 142 - kF16RowsMinTopField <= 254 &&
                  254 - (127 + 142 - kF16RowsMinTopField) - kF16WeightShift >= 1,
              "every row's power and its inverse times 2^-kF16WeightShift are fp32 normals");

// BF16 rows copied into the workspace, K padded to whole 32-element blocks with zeros: rows whose
// address or stride TMA cannot take (wide_prepass_kernel, natural order), or rows for the
// permuted order (bf16_permuted_prepass_kernel).
struct WidePrepassParams {
  const std::uint16_t* a;
  std::int64_t a_stride;  // elements
  int m, k, blocks;
  std::uint16_t* out;
  std::int64_t out_stride;  // elements
};

// BF16 rows copied bit for bit into the permuted K order (launch_activation_bf16_permuted_prepass):
// a CTA moves kCtaChunks chunks of 8 elements of one row (blockIdx.y), as the pre-passes above,
// with 16-byte loads (rows 16-byte aligned, K % 8 == 0).
__global__ void __launch_bounds__(kThreads, kMinCtasPerSm) bf16_permuted_prepass_kernel(const WidePrepassParams p) {
  ptx::griddepcontrol_launch_dependents();
  const int row = static_cast<int>(blockIdx.y);
  const std::uint32_t first = blockIdx.x * kCtaChunks + threadIdx.x;
  uint4 v[kChunksPerThread];
  load_row_chunks(p.a + static_cast<std::int64_t>(row) * p.a_stride, first, p.k, v);
  store_permuted_chunks(v, p.out + static_cast<std::int64_t>(row) * p.out_stride, first,
                        static_cast<std::uint32_t>(p.blocks) * 32, [](std::uint32_t pair) { return pair; });
}

__global__ void __launch_bounds__(kThreads, kMinCtasPerSm) wide_prepass_kernel(const WidePrepassParams p) {
  ptx::griddepcontrol_launch_dependents();
  const std::int64_t idx = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (idx >= static_cast<std::int64_t>(p.m) * p.blocks) return;
  const int row = static_cast<int>(idx / p.blocks), blk = static_cast<int>(idx % p.blocks);
  const std::uint16_t* src = p.a + static_cast<std::int64_t>(row) * p.a_stride + blk * 32;
  const int valid = p.k - blk * 32 < 32 ? p.k - blk * 32 : 32;  // 16 or 32 (K % 16 == 0)
  std::uint32_t pairs[16];
#pragma unroll
  for (int w = 0; w < 16; ++w)
    pairs[w] = 2 * w < valid ? (static_cast<std::uint32_t>(src[2 * w]) |
                                (static_cast<std::uint32_t>(src[2 * w + 1]) << 16))
                             : 0u;
  uint4* dst = reinterpret_cast<uint4*>(p.out + static_cast<std::int64_t>(row) * p.out_stride + blk * 32);
#pragma unroll
  for (int t = 0; t < 4; ++t) dst[t] = make_uint4(pairs[4 * t], pairs[4 * t + 1], pairs[4 * t + 2], pairs[4 * t + 3]);
}

}  // namespace

#ifdef MXGEMM_STREAM_TRACE
void prepass_trace_reset(cudaStream_t stream) {
  static const unsigned long long init[2] = {~0ull, 0ull};
  MXGEMM_CUDA_CHECK(cudaMemcpyToSymbolAsync(g_prepass_trace, init, sizeof(init), 0, cudaMemcpyHostToDevice, stream));
}
void prepass_trace_read(unsigned long long (&start_end)[2]) {
  MXGEMM_CUDA_CHECK(cudaMemcpyFromSymbol(start_end, g_prepass_trace, sizeof(start_end)));
}
#endif

void launch_activation_prepass(const ConstMatrixView& a, std::int64_t row0, std::int64_t rows, std::uint16_t* out,
                               std::int64_t out_stride, cudaStream_t stream) {
  WidePrepassParams p{};
  p.a = static_cast<const std::uint16_t*>(a.data) + row0 * a.row_stride;
  p.a_stride = a.row_stride;
  p.m = static_cast<int>(rows);
  p.k = static_cast<int>(a.cols);
  p.blocks = static_cast<int>(scale_cols(p.k));
  p.out = out;
  p.out_stride = out_stride;
  const std::int64_t work = static_cast<std::int64_t>(p.m) * p.blocks;
  wide_prepass_kernel<<<static_cast<unsigned>(ceil_div(work, kThreads)), kThreads, 0, stream>>>(p);
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

namespace {

// The row pre-passes that read a BF16 activation in 16-byte chunks (bf16_f16_rows_prepass_kernel,
// bf16_permuted_prepass_kernel) need rows 16-byte aligned (address, row stride) of a multiple of
// 8 elements: TMA's in-place condition, which is when the launcher sends rows there.
void require_chunked_bf16_rows(const char* fn, const ConstMatrixView& a) {
  if (a.dtype != DType::BF16) detail::fail<DtypeError>(fn, "a.dtype", "BF16", dtype_name(a.dtype));
  if (reinterpret_cast<std::uintptr_t>(a.data) % 16 != 0 || a.row_stride % 8 != 0 || a.cols % 8 != 0)
    detail::fail<ArgumentError>(fn, "a", "16-byte aligned rows (address, row stride) of a multiple of 8 elements",
                                detail::concat("address % 16 = ", reinterpret_cast<std::uintptr_t>(a.data) % 16,
                                               ", row stride ", a.row_stride, ", ", a.cols, " columns"));
}

// Calls launch(r, rows_here, grid) for consecutive groups of at most 65535 rows (one row a grid
// row), the grid covering a row's chunks of 8 elements of K padded to whole 32-blocks.
template <typename Launch>
void for_each_row_grid(std::int64_t rows, int blocks, const Launch& launch) {
  const std::int64_t row_chunks = static_cast<std::int64_t>(blocks) * (32 / kChunkElems);
  constexpr std::int64_t kMaxRows = 65535;
  for (std::int64_t r = 0; r < rows; r += kMaxRows) {
    const std::int64_t here = std::min(kMaxRows, rows - r);
    launch(r, static_cast<int>(here), dim3(static_cast<unsigned>(ceil_div(row_chunks, kCtaChunks)), static_cast<unsigned>(here)));
  }
}

}  // namespace

void launch_activation_bf16_permuted_prepass(const ConstMatrixView& a, std::int64_t row0, std::int64_t rows,
                                             std::uint16_t* out, std::int64_t out_stride, cudaStream_t stream) {
  require_chunked_bf16_rows("launch_activation_bf16_permuted_prepass", a);
  WidePrepassParams p{};
  p.a = static_cast<const std::uint16_t*>(a.data) + row0 * a.row_stride;
  p.a_stride = a.row_stride;
  p.k = static_cast<int>(a.cols);
  p.blocks = static_cast<int>(scale_cols(p.k));
  p.out_stride = out_stride;
  for_each_row_grid(rows, p.blocks, [&](std::int64_t r, int here, dim3 grid) {
    WidePrepassParams part = p;
    part.a = p.a + r * a.row_stride;
    part.m = here;
    part.out = out + r * out_stride;
    bf16_permuted_prepass_kernel<<<grid, kThreads, 0, stream>>>(part);
  });
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

void launch_activation_f16_rows_prepass(const ConstMatrixView& a, std::int64_t row0, std::int64_t rows,
                                        std::uint16_t* out, std::int64_t out_stride, const ExactRowMarks& marks,
                                        float* row_scales, cudaStream_t stream, bool natural_order) {
  require_chunked_bf16_rows("launch_activation_f16_rows_prepass", a);
  F16RowsParams p{};
  p.natural_order = natural_order;
  p.a = static_cast<const std::uint16_t*>(a.data) + row0 * a.row_stride;
  p.a_stride = a.row_stride;
  p.k = static_cast<int>(a.cols);
  p.blocks = static_cast<int>(scale_cols(p.k));
  p.out_stride = out_stride;
  p.generation = marks.generation;
  for_each_row_grid(rows, p.blocks, [&](std::int64_t r, int here, dim3 grid) {
    F16RowsParams part = p;
    part.a = p.a + r * a.row_stride;
    part.m = here;
    part.out = out + r * out_stride;
    part.row_scale_out = row_scales + r;
    part.exact_rows = marks.rows + r;
    bf16_f16_rows_prepass_kernel<<<grid, kThreads, 0, stream>>>(part);
  });
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

void launch_activation_codes_prepass(const ConstMatrixView& a, std::int64_t row0, std::int64_t rows,
                                     std::uint16_t* out, std::int64_t out_stride, float* scales,
                                     std::int64_t scales_stride, const ExactRowMarks& marks, cudaStream_t stream,
                                     bool natural_order) {
  Bf16CodesParams p{};
  p.natural_order = natural_order;
  p.a = static_cast<const std::uint16_t*>(a.data) + row0 * a.row_stride;
  p.a_stride = a.row_stride;
  p.fp16_input = a.dtype == DType::FP16;
  p.vector_loads = reinterpret_cast<std::uintptr_t>(p.a) % 8 == 0 && a.row_stride % 4 == 0;
  p.m = static_cast<int>(rows);
  p.k = static_cast<int>(a.cols);
  p.blocks = static_cast<int>(scale_cols(p.k));
  set_codes_outputs(p, out, out_stride, scales, scales_stride, marks);
  const std::int64_t work = std::int64_t{2} * p.m * p.blocks;  // two threads a block
  bf16_codes_prepass_kernel<<<static_cast<unsigned>(ceil_div(work, kThreads)), kThreads, 0, stream>>>(p);
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

namespace {

template <bool kCodes>
void launch_mx_prepass(const ConstMxOperand& a, std::int64_t row0, std::int64_t rows, std::uint16_t* out,
                       std::int64_t out_stride, float* scales_out, std::int64_t scales_stride,
                       const ExactRowMarks& marks, float* row_scales, cudaStream_t stream) {
  PrepassParams p{};
  p.a = static_cast<const std::uint8_t*>(a.data.data);
  p.a_stride = a.data.row_stride;
  p.sa = {static_cast<const std::uint8_t*>(a.scales.data), a.scales.row_stride,
          a.layout == ScaleLayout::Swizzled128x4};
  p.row0 = static_cast<int>(row0);
  p.a_rows = static_cast<int>(a.data.rows);
  p.m = static_cast<int>(rows);
  p.k = static_cast<int>(a.data.cols);
  p.blocks = static_cast<int>(scale_cols(p.k));
  set_codes_outputs(p, out, out_stride, scales_out, scales_stride, marks);
  const bool e4m3 = a.data.dtype == DType::E4M3;
  if constexpr (kCodes) {
    const std::int64_t work = static_cast<std::int64_t>(p.m) * p.blocks;
    const unsigned grid = static_cast<unsigned>(ceil_div(work, kThreads));
    if (e4m3) activation_codes_prepass_kernel<DType::E4M3><<<grid, kThreads, 0, stream>>>(p);
    else activation_codes_prepass_kernel<DType::E5M2><<<grid, kThreads, 0, stream>>>(p);
  } else {
    // One row a grid row: launches of at most 65535 rows (the grid's y limit).
    constexpr std::int64_t kMaxRows = 65535;
    const std::int64_t row_chunks = static_cast<std::int64_t>(p.blocks) * (32 / kChunkElems);
    for (std::int64_t r = 0; r < rows; r += kMaxRows) {
      PrepassParams part = p;
      part.row0 = static_cast<int>(row0 + r);
      part.m = static_cast<int>(std::min(kMaxRows, rows - r));
      part.out = out + r * out_stride;
      part.exact_rows = marks.rows + r;
      part.row_scale_out = row_scales != nullptr ? row_scales + r : nullptr;
      const dim3 grid(static_cast<unsigned>(ceil_div(row_chunks, kCtaChunks)), static_cast<unsigned>(part.m));
      if (row_scales != nullptr) activation_values_prepass_kernel<DType::E4M3, true><<<grid, kThreads, 0, stream>>>(part);
      else if (e4m3) activation_values_prepass_kernel<DType::E4M3><<<grid, kThreads, 0, stream>>>(part);
      else activation_values_prepass_kernel<DType::E5M2><<<grid, kThreads, 0, stream>>>(part);
    }
  }
  MXGEMM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_activation_prepass(const ConstMxOperand& a, std::int64_t row0, std::int64_t rows, std::uint16_t* out,
                               std::int64_t out_stride, const ExactRowMarks& marks, float* row_scales,
                               cudaStream_t stream) {
  if (row_scales != nullptr && a.data.dtype != DType::E4M3)
    detail::fail<DtypeError>("launch_activation_prepass", "a.dtype", "E4M3 for the fp16 values form",
                                dtype_name(a.data.dtype));
  launch_mx_prepass<false>(a, row0, rows, out, out_stride, nullptr, 0, marks, row_scales, stream);
}

void launch_activation_codes_prepass(const ConstMxOperand& a, std::int64_t row0, std::int64_t rows,
                                     std::uint16_t* out, std::int64_t out_stride, float* scales,
                                     std::int64_t scales_stride, const ExactRowMarks& marks, cudaStream_t stream) {
  launch_mx_prepass<true>(a, row0, rows, out, out_stride, scales, scales_stride, marks, nullptr, stream);
}

}  // namespace mxgemm::sm90
