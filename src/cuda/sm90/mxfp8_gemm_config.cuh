// Tile shapes, pipeline depth and warp roles of the sm_90a MXFP8 GEMM (docs/hopper-kernel.md
// explains the choices).
#pragma once

#include <cstdint>

namespace mxgemm::sm90 {

struct Mxfp8GemmConfig {
  static constexpr int kBlockM = 128;      // two math warpgroups x 64 rows
  static constexpr int kBlockN = 128;      // one m64n128k16 wgmma per math warpgroup per k16
  static constexpr int kBlockK = 64;       // fp8 bytes per row per pipeline stage: 2 scale blocks
  static constexpr int kStages = 6;        // fp8 TMA stages in flight
  static constexpr int kBf16Buffers = 4;   // converted-B buffers between converter and math
  // Tensor-core accumulation into fp32 is not round-to-nearest: summing all of K in one
  // wgmma accumulator drifts (relative error ~1e-5 at K = 8192). Each group of stages is
  // summed in a fresh accumulator and added into the result with an ordinary fp32 add.
  static constexpr int kStagesPerPromotion = 2;
  static constexpr int kMathWarpgroups = 2;
  static constexpr int kThreads = 128 * (2 + kMathWarpgroups);  // TMA, converter, math x 2
  static constexpr int kMathThreads = 128 * kMathWarpgroups;
  static constexpr int kTmaRegs = 24;
  static constexpr int kConverterRegs = 80;
  static constexpr int kMathRegs = 200;
  static constexpr int kAccRegs = kBlockN / 2;  // m64nNk16 fp32 accumulator registers per thread
  static constexpr int kGroupM = 8;        // tile raster: 8 M-tiles share each B tile in L2

  static constexpr int kStageBytesA = kBlockM * kBlockK;
  static constexpr int kStageBytesB = kBlockN * kBlockK;
  static constexpr int kBf16BufferBytes = kBlockN * kBlockK * 2;
  // Buffers, barriers, and 1024 bytes of slack to align the dynamic allocation to the
  // 128-byte swizzle pattern (the kernel's smem struct asserts it fits).
  static constexpr int kSmemBytes = kStages * (kStageBytesA + kStageBytesB) +
                                    kBf16Buffers * kBf16BufferBytes + kStages * 2 * 512 + 1024 + 1024;

  static_assert(kBlockK == 64, "fp8 tiles use the 64-byte TMA swizzle: one 64-byte row per stage");
  static_assert(kBlockK * 2 == 128, "a converted bf16 row is one 128-byte swizzle atom");
  static_assert(kBlockN == 128, "the converter warpgroup converts one B row per thread");
  static_assert(kBlockM == 64 * kMathWarpgroups, "each math warpgroup owns 64 rows");
  static_assert(kSmemBytes <= 227 * 1024, "shared memory budget of an sm_90 CTA exceeded");
  static_assert((kTmaRegs + kConverterRegs) * 128 + kMathRegs * kMathThreads <= 65536,
                "register file budget exceeded");
  static_assert(kTmaRegs % 8 == 0 && kConverterRegs % 8 == 0 && kMathRegs % 8 == 0,
                "setmaxnreg takes multiples of 8");
};

}  // namespace mxgemm::sm90
