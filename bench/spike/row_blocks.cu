// Spike (session 43): one or two 64-row weight blocks a math warpgroup for a 128-row activation
// tile (issue #3: M = 128 at N = K = 8192 needs ~28 us, the library takes 36.7).
//
// The streaming kernel's 128-row tiles (stream_gemm_config.cuh, kMPad = 128) give each of their
// two math warpgroups 64 weight rows: per 64-K sub-stage a warpgroup converts its fragment and
// issues four m64n128k16 wgmmas (256 tensor cycles), and the CTA's shared memory takes, per
// million MACs, 32 KB of wgmma B reads, 16 KB of activation and 8 KB of weight TMA writes and
// 8 KB of fragment loads: ~125 bytes a cycle at the tensor rate (512 cycles per million MACs),
// against the SM's 128. The 256-row tiles (two warpgroups, m64n256k16) need ~109 a cycle and
// run at about the tensor rate (session 15 timeline: 1031-1100 cycles for 1024). With two
// 64-row blocks a warpgroup (a CTA tile of 256 weight rows x 128 activation rows) each
// activation stage serves twice the weight rows (the activation's TMA bytes per MAC halve, ~109
// bytes a cycle) and each warpgroup issues eight wgmmas a sub-stage, as the 256-row tiles do.
// This spike times the two mainloops alone, with the library's own fragment conversion
// (load_fragment_permuted, the fp16 values form's LaneScalesF16) and the same TMA ring shape:
//   rb1: two warpgroups x one 64-row block (the library's 128-row tile), 4 stages of 128 K;
//   rb2: two warpgroups x two 64-row blocks (256 weight rows a CTA), 3 stages of 128 K, both
//        blocks converted, then their eight wgmmas as one group (four fragments' registers);
//   rb2 groups: the same tile, each block's four wgmmas a group converted while the previous
//        group runs (two fragments: the register budget the kernel's 256-row tiles have);
//   and both without the stream (SPIKE "math only": the first ring stages loaded once and
//   reused, no TMA in the loop), which separates the ring's shared-memory writes and waits
//   from the math's own chain.
// Each launch covers N x K of weight against 128 activation rows, 128 CTAs (rb1: 64 tiles x 2 K
// halves; rb2: 32 tiles x 4 K quarters: the same MACs a CTA), no epilogue (a sum a thread to a
// sink). No promotion (the library's 128-row tiles promote every 512 K: 0-1.5% of their time,
// session 24). Reports the median over CTAs of SM cycles per ring stage (clock64, first stage
// landed to the last wgmma complete) and per million MACs (tensor rate: 512), and the launch's
// median time over 20 runs, weights rotated over three 64 MB copies.
//
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I src -I include -I bench/spike \
//          -o build-spike/row_blocks bench/spike/row_blocks.cu
// Run:   build-spike/row_blocks [K]   (N = 8192; K default 8192)

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "cuda/common/wgmma_rs.cuh"
#include "cuda/sm90/mainloop.cuh"
#include "stream_spike.cuh"

using namespace mxgemm;
using namespace mxgemm::sm90;

namespace {

constexpr int kMPad = 128;   // activation rows: the wgmma's N
constexpr int kRingK = 128;  // K of a ring stage: two 64-K sub-stages, 128-byte weight rows (128B swizzle)
constexpr int kCtas = 128;

template <int kRowBlocks, int kStages>
struct SpikeCfg {
  static constexpr int kBlockN = 128 * kRowBlocks;  // weight rows a CTA
  static constexpr int kStageBytesW = kBlockN * kRingK;
  static constexpr int kSubStageBytesX = kMPad * kStageK * 2;
  static constexpr int kStageBytesX = 2 * kSubStageBytesX;
  static constexpr int kScaleBytes = kRowBlocks * kScaleChunkBytes;  // one 512-byte chunk per 128 rows
  static constexpr int kStageBytes = kStageBytesW + kStageBytesX + kScaleBytes;
  static constexpr int kThreads = 384;  // a producer warpgroup and two math warpgroups
  static constexpr int kAccRegs = kMPad / 2;
  static constexpr int kBlockOffsetW = 64 * kRingK;  // a warpgroup's second block: 64 rows further
  // (FragmentScaleBase: rows r and r + 64 of a chunk are 2 x 4 bytes apart, chunk_row_offset.)
  static constexpr int kBlockOffsetScales = 8;
  static_assert(kBlockN <= 256, "one TMA box of weight rows");
  static_assert(kStageBytesW % 1024 == 0 && kStageBytesX % 1024 == 0, "swizzle atoms on 1024 bytes");
};

template <int kRowBlocks, int kStages>
struct alignas(1024) SpikeSmem {
  using Cfg = SpikeCfg<kRowBlocks, kStages>;
  std::uint8_t w[kStages][Cfg::kStageBytesW];
  std::uint8_t x[kStages][Cfg::kStageBytesX];
  std::uint8_t scales[kStages][Cfg::kScaleBytes];
  std::uint64_t full[kStages];
  std::uint64_t empty[kStages];
};

// kStream: the producer streams every stage of the CTA's range through the ring; otherwise it
// loads the first kStages once and the math reuses them (no waits after the first pass).
template <int kRowBlocks, int kStages, bool kStream, bool kPerBlockGroups>
__global__ void __launch_bounds__(384, 1)
    row_blocks_kernel(const __grid_constant__ CUtensorMap wmap, const __grid_constant__ CUtensorMap xmap,
                      const __grid_constant__ CUtensorMap smap, int tiles, int stages_per_cta, int k_stages,
                      float* sink, long long* cycles) {
  using Cfg = SpikeCfg<kRowBlocks, kStages>;
  using Smem = SpikeSmem<kRowBlocks, kStages>;
  using Mma = ptx::WgmmaF16Rs<kMPad>;
  extern __shared__ std::uint8_t smem_raw[];
  auto& smem = ptx::aligned_dynamic_smem<Smem>(smem_raw);
  const int cta = blockIdx.x, tile = cta % tiles, part = cta / tiles;
  const int ks0 = part * stages_per_cta;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      ptx::mbarrier_init(&smem.full[s], 1);
      ptx::mbarrier_init(&smem.empty[s], 8);  // the math warps
    }
    ptx::fence_barrier_init();
  }
  __syncthreads();

  if (threadIdx.x < 128) {
    ptx::setmaxnreg_dec<40>();
    if (threadIdx.x == 0) {
      const int loads = kStream ? stages_per_cta : (stages_per_cta < kStages ? stages_per_cta : kStages);
      RingIndex<kStages> st;
      for (int i = 0; i < loads; ++i, st.advance()) {
        if (i >= kStages) ptx::mbarrier_wait(&smem.empty[st.index], st.phase ^ 1);
        const int ks = ks0 + i;
        ptx::mbarrier_arrive_expect_tx(&smem.full[st.index], Cfg::kStageBytes);
        ptx::tma_load_2d(smem.w[st.index], &wmap, &smem.full[st.index], ks * kRingK, tile * Cfg::kBlockN);
        for (int sub = 0; sub < 2; ++sub)
          ptx::tma_load_2d(smem.x[st.index] + sub * Cfg::kSubStageBytesX, &xmap, &smem.full[st.index],
                           (2 * ks + sub) * kStageK * 2, 0);
        for (int c = 0; c < kRowBlocks; ++c)  // chunk rows: ((128-row block) x k_stages + ks) x 4
          ptx::tma_load_2d(smem.scales[st.index] + c * kScaleChunkBytes, &smap, &smem.full[st.index], 0,
                           ((tile * kRowBlocks + c) * k_stages + ks) * 4);
      }
    }
    return;
  }

  ptx::setmaxnreg_inc<232>();
  const int math_tid = threadIdx.x - 128, lane = threadIdx.x & 31;
  const int wg = math_tid / 128, warp = (math_tid % 128) / 32, q = lane & 3;
  const int row0 = wg * 64 * kRowBlocks + warp * 16 + (lane >> 2);  // block 0's rows row0, row0 + 8
  const PermutedFragmentOffsets<kRingK> frag_at(row0, q);
  const FragmentScaleBase scale_at(row0);
  std::uint64_t x_desc0 = ptx::smem_desc_k_major_sw128(ptx::smem_addr(smem.x[0]));
  ptx::keep_in_register(x_desc0);
  float acc[kRowBlocks][Cfg::kAccRegs];
  std::uint32_t frag[2][kRowBlocks][kK16PerStage][4];
  std::uint32_t outside_bits = 0;
  RingIndex<kStages> st;
  long long t_first = 0;

  // Block b's fragment of sub-stage kSub of the current ring stage, as the kernel converts it.
  auto convert_block = [&](int b, auto sub_c, std::uint32_t (&out)[kK16PerStage][4]) {
    constexpr int kSub = decltype(sub_c)::value;
    LaneScalesF16 sw;
    fragment_scales_f16<DType::E4M3>(smem.scales[st.index] + b * Cfg::kBlockOffsetScales, scale_at, kSub, 0x7FFFFFFF,
                                     sw, outside_bits);
    load_fragment_permuted<DType::E4M3, kSub>(smem.w[st.index] + b * Cfg::kBlockOffsetW, frag_at, sw, out);
  };
  // Sub-stage i's groups are issued; the last group that read the previous ring stage is complete:
  // wait for it and (at kSub 0) free that stage. The wait is unconditional (a no-op after the
  // first group), and the release's __syncwarp outside the test of i: with either behind a branch
  // ptxas serialized every wgmma of the per-block groups (C7513).
  auto release_previous = [&](int kSub, int i) {
    ptx::wgmma_wait<1>();
    if (kStream && kSub == 0) {
      __syncwarp();
      if (lane == 0 && i > 0) ptx::mbarrier_arrive(&smem.empty[st.behind(1)]);
    }
  };
  // Sub-stage i of the CTA's range (kSub: its half of the ring stage). kPerBlockGroups: each
  // 64-row block's four wgmmas are a group of their own, converted while the previous group
  // runs (two fragments in all, the 256-row tiles' register budget); otherwise both blocks are
  // converted, then their eight wgmmas issued as one group (two fragments a block).
  auto sub_stage = [&](auto sub_c, int i) {
    constexpr int kSub = decltype(sub_c)::value;
    if constexpr (kSub == 0) {
      if (kStream || i < 2 * kStages) ptx::mbarrier_wait(&smem.full[st.index], st.phase);
      if (i == 0) t_first = clock64();
    }
    const std::uint64_t x_desc =
        x_desc0 + static_cast<std::uint64_t>(st.index) * (Cfg::kStageBytesX >> 4) + kSub * (Cfg::kSubStageBytesX >> 4);
    // Blocks [b0, b_end) as one group of wgmmas, from frag[buf] (or frag[b]'s own buffer).
    auto issue = [&](int b0, int b_end, auto frag_of) {
#pragma unroll
      for (int b = b0; b < b_end; ++b)
#pragma unroll
        for (int r = 0; r < Cfg::kAccRegs; ++r) ptx::fence_operand(acc[b][r]);
      ptx::wgmma_fence();
#pragma unroll
      for (int b = b0; b < b_end; ++b)
#pragma unroll
        for (int kk = 0; kk < kK16PerStage; ++kk)
          Mma::mma(acc[b], frag_of(b)[kk], x_desc + kk * (32 >> 4), (i == 0 && kk == 0) ? 0u : 1u);
      ptx::wgmma_commit();
#pragma unroll
      for (int b = b0; b < b_end; ++b)
#pragma unroll
        for (int r = 0; r < Cfg::kAccRegs; ++r) ptx::fence_operand(acc[b][r]);
    };
    if constexpr (kPerBlockGroups) {
      // Fragment buffer: the block's (two blocks), or the sub-stage's (one).
      auto frag_of = [&](int b) -> std::uint32_t (&)[kK16PerStage][4] { return frag[kRowBlocks == 2 ? b : kSub][0]; };
#pragma unroll
      for (int b = 0; b < kRowBlocks; ++b) {
        convert_block(b, sub_c, frag_of(b));
        issue(b, b + 1, frag_of);
        if (b == 0) release_previous(kSub, i);
        else ptx::wgmma_wait<1>();
      }
    } else {
      auto frag_of = [&](int b) -> std::uint32_t (&)[kK16PerStage][4] { return frag[kSub][b]; };
#pragma unroll
      for (int b = 0; b < kRowBlocks; ++b) convert_block(b, sub_c, frag_of(b));
      issue(0, kRowBlocks, frag_of);
      release_previous(kSub, i);
    }
    if constexpr (kSub == 1) st.advance();
  };
  const int subs = 2 * stages_per_cta;
  for (int i = 0; i < subs; i += 2) {
    sub_stage(std::integral_constant<int, 0>{}, i);
    sub_stage(std::integral_constant<int, 1>{}, i + 1);
  }
  ptx::wgmma_wait<0>();
  const long long t_last = clock64();
  float sum = static_cast<float>(outside_bits & 1);
#pragma unroll
  for (int b = 0; b < kRowBlocks; ++b)
#pragma unroll
    for (int r = 0; r < Cfg::kAccRegs; ++r) sum += acc[b][r];
  sink[cta * 256 + math_tid] = sum;
  if (math_tid == 0) {
    cycles[2 * cta] = t_first;
    cycles[2 * cta + 1] = t_last;
  }
}

CUtensorMap map_2d(void* base, std::uint64_t cols_bytes, std::uint64_t rows, std::uint32_t box_cols,
                   std::uint32_t box_rows, CUtensorMapSwizzle swizzle) {
  CUtensorMap m;
  const cuuint64_t dims[2] = {cols_bytes, rows};
  const cuuint64_t strides[1] = {cols_bytes};
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t elem_strides[2] = {1, 1};
  const CUresult r = enc()(&m, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, base, dims, strides, box, elem_strides,
                           CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::printf("cuTensorMapEncodeTiled failed (%d)\n", static_cast<int>(r));
    std::exit(1);
  }
  return m;
}

struct Operands {
  long n, k;
  std::vector<std::uint8_t*> w;  // rotated copies
  std::uint16_t* x;
  std::vector<std::uint8_t*> s;
};

template <int kRowBlocks, int kStages, bool kStream, bool kPerBlockGroups = false>
void run_variant(const char* name, const Operands& o, float* sink, long long* cycles_d) {
  using Cfg = SpikeCfg<kRowBlocks, kStages>;
  const int tiles = static_cast<int>(o.n / Cfg::kBlockN);
  const int k_stages = static_cast<int>(o.k / kRingK);
  const int parts = kCtas / tiles;
  if (tiles * parts != kCtas || k_stages % parts != 0) {
    std::printf("%s: N / %d tiles do not divide %d CTAs into whole K parts\n", name, Cfg::kBlockN, kCtas);
    return;
  }
  const int stages_per_cta = k_stages / parts;
  auto kernel = row_blocks_kernel<kRowBlocks, kStages, kStream, kPerBlockGroups>;
  const int smem = static_cast<int>(sizeof(SpikeSmem<kRowBlocks, kStages>)) + 1024;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const CUtensorMap xmap = map_2d(o.x, o.k * 2, kMPad, 128, kMPad, CU_TENSOR_MAP_SWIZZLE_128B);
  std::vector<CUtensorMap> wmaps, smaps;
  for (std::size_t c = 0; c < o.w.size(); ++c) {
    wmaps.push_back(map_2d(o.w[c], o.k, o.n, kRingK, Cfg::kBlockN, CU_TENSOR_MAP_SWIZZLE_128B));
    smaps.push_back(map_2d(o.s[c], 128, (o.n / 128) * k_stages * 4, 128, 4, CU_TENSOR_MAP_SWIZZLE_NONE));
  }
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> ms;
  std::vector<double> cyc_stage;
  for (int it = 0; it < 25; ++it) {
    const std::size_t c = it % o.w.size();
    CK(cudaEventRecord(e0));
    kernel<<<kCtas, Cfg::kThreads, smem>>>(wmaps[c], xmap, smaps[c], tiles, stages_per_cta, k_stages, sink, cycles_d);
    CK(cudaEventRecord(e1));
    CK(cudaGetLastError());
    CK(cudaEventSynchronize(e1));
    if (it < 5) continue;
    float t = 0;
    CK(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t);
    std::vector<long long> h(2 * kCtas);
    CK(cudaMemcpy(h.data(), cycles_d, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int b = 0; b < kCtas; ++b)
      if (stages_per_cta > 1) cyc_stage.push_back(static_cast<double>(h[2 * b + 1] - h[2 * b]) / (stages_per_cta - 1));
  }
  std::sort(ms.begin(), ms.end());
  std::sort(cyc_stage.begin(), cyc_stage.end());
  const double macs_stage = static_cast<double>(Cfg::kBlockN) * kMPad * kRingK;
  const double med_cyc = cyc_stage[cyc_stage.size() / 2];
  const double us = ms[ms.size() / 2] * 1e3;
  const double tflops = 2.0 * o.n * o.k * kMPad / (us * 1e-6) / 1e12;
  std::printf("| %s | %d x %d | %d | %d | %.1f | %.0f | %.0f / %.0f / %.0f | %.0f |\n", name, Cfg::kBlockN, kMPad,
              kStages, stages_per_cta, us, tflops, cyc_stage.front(), med_cyc, cyc_stage.back(),
              med_cyc / (macs_stage / (1 << 20)));
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
}

}  // namespace

int main(int argc, char** argv) {
  Operands o;
  o.n = 8192;
  o.k = argc > 1 ? std::atol(argv[1]) : 8192;
  if (o.k % (kRingK * 4) != 0) {
    std::printf("K must be a multiple of %d\n", kRingK * 4);
    return 1;
  }
  std::mt19937 rng(std::random_device{}());
  // E4M3 codes without NaN (0x7F / 0xFF) or the top binade; scales inside the fp16 window.
  std::vector<std::uint8_t> hw(static_cast<std::size_t>(o.n * o.k)), hs(static_cast<std::size_t>(o.n * o.k / 32));
  std::vector<std::uint16_t> hx(static_cast<std::size_t>(kMPad * o.k));
  for (auto& v : hw) v = static_cast<std::uint8_t>(rng() & 0xF7u);
  for (auto& v : hs) v = static_cast<std::uint8_t>(kF16WindowCenter - 3 + rng() % 7);
  for (auto& v : hx) v = static_cast<std::uint16_t>(0x3000u + rng() % 0x0C00u);
  for (int c = 0; c < 3; ++c) {
    std::uint8_t *w, *s;
    CK(cudaMalloc(&w, hw.size()));
    CK(cudaMalloc(&s, hs.size()));
    CK(cudaMemcpy(w, hw.data(), hw.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(s, hs.data(), hs.size(), cudaMemcpyHostToDevice));
    o.w.push_back(w);
    o.s.push_back(s);
  }
  CK(cudaMalloc(&o.x, hx.size() * 2));
  CK(cudaMemcpy(o.x, hx.data(), hx.size() * 2, cudaMemcpyHostToDevice));
  float* sink;
  long long* cycles;
  CK(cudaMalloc(&sink, kCtas * 256 * sizeof(float)));
  CK(cudaMalloc(&cycles, 2 * kCtas * sizeof(long long)));
  std::printf("row_blocks: %ld x %ld fp8 weight x %d activation rows, %d CTAs, median of 20 launches\n", o.n, o.k,
              kMPad, kCtas);
  std::printf("| variant | CTA tile (weight x act rows) | ring stages | stages a CTA | us | TFLOP/s | cycles a stage min / median / max | cycles per 1M MACs (tensor rate 512) |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  run_variant<1, 4, true>("rb1 stream", o, sink, cycles);
  run_variant<2, 3, true>("rb2 stream", o, sink, cycles);
  run_variant<2, 3, true, true>("rb2 groups stream", o, sink, cycles);
  run_variant<1, 3, true>("rb1 stream, 3 stages", o, sink, cycles);
  run_variant<1, 4, false>("rb1 math only", o, sink, cycles);
  run_variant<2, 3, false>("rb2 math only", o, sink, cycles);
  run_variant<2, 3, false, true>("rb2 groups math only", o, sink, cycles);
  run_variant<1, 4, true>("rb1 stream (again)", o, sink, cycles);
  run_variant<2, 3, true>("rb2 stream (again)", o, sink, cycles);
  run_variant<2, 3, true, true>("rb2 groups stream (again)", o, sink, cycles);
  CK(cudaDeviceSynchronize());
  return 0;
}
