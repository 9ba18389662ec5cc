// Kernel parameters of the sm_90a MXFP8 GEMM, filled by the launcher.
#pragma once

#include <cstdint>

#include "cuda/sm90/scale_prepass.hpp"
#include "cuda/sm90/skinny_schedule.hpp"
#include "cuda/sm90/stream_schedule.hpp"
#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

// Where one operand's E8M0 scales are and how to index them.
struct ScaleSource {
  const std::uint8_t* data;
  std::int64_t row_stride;  // Linear layout: bytes between rows
  bool swizzled;            // Swizzled128x4 (else Linear)
};

struct Mxfp8GemmParams {
  int m, n, k;
  int scale_cols;     // ceil(K / 32)
  int tiles_m, tiles_n, k_stages;
  ChunkedScales sa, sb;
  const float* alpha;  // device
  void* d;
  std::int64_t ldd;    // elements
  DType d_dtype;
};

// Where the kernels that store D^T transposed (stream_epilogue.cuh: the streaming and skinny
// kernels) write D = alpha * (...) (+ bias row).
struct TransposedOutput {
  const float* alpha;  // device
  void* d;
  std::int64_t ldd;  // elements
  DType d_dtype;
  const void* bias;  // null, or N values of bias_dtype added to every row (weight-only)
  DType bias_dtype;
};

// The weight-streaming kernel (stream_gemm_kernel.cuh): D = alpha * X W^T with X the
// activation rows (bf16, or fp16 codes with fp32 block scales) and W the MXFP8 weight (the
// API's operand b).
struct StreamGemmParams {
  int m, n, k;
  int scale_cols;  // ceil(K / 32)
  StreamSchedule sched;
  ChunkedScales sw;
  TransposedOutput out;
  float* partials;               // 2 * sched.ctas slots of kBlockN * kMPad fp32
  unsigned int* tile_counters;   // sched.stream_tiles(), zero between launches
};

// The skinny kernel (skinny_gemm_kernel.cuh): D = alpha * X W^T for a few activation rows,
// both operands read straight from global memory.
struct SkinnyGemmParams {
  int m, n, k;
  int kblocks;  // ceil(K / 32)
  SkinnySchedule sched;
  const std::uint8_t* sw;  // the weight's scales (the weight: a tensor map), swizzled, 16-byte aligned
  const void* x;           // M x K: fp8 codes (scales sx) or bf16 values (weight-only)
  std::int64_t ldx;        // elements
  const std::uint8_t* sx;  // fp8 activations: their scales, as sw
  TransposedOutput out;
  float* partials;              // 2 * sched.ctas * 8 warps slots of 32 lanes x (4 * n-tiles) fp32
  unsigned int* tile_counters;  // sched.tiles * 8 (one per warp tile), zero between launches
};

}  // namespace mxgemm::sm90
