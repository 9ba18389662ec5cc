// Launcher of the weight-streaming GEMM: activation pre-pass into the workspace (or the
// activation read in place), tensor maps, work split, and the kernel instance for the
// padded M.
#include "cuda/sm90/stream_gemm_sm90.hpp"

#include <atomic>
#include <limits>

#include "core/check.hpp"
#include "core/kernel_override.hpp"
#include "cuda/common/cluster_occupancy.hpp"
#include "cuda/common/current_device.hpp"
#include "cuda/common/tensor_map.hpp"
#include "cuda/common/workspace.hpp"
#include "cuda/sm90/activation_prepass.hpp"
#include "cuda/sm90/scale_prepass.hpp"
#include "cuda/sm90/stream_gemm_config.cuh"
#include "cuda/sm90/stream_schedule.hpp"
#include "mxgemm/layout.hpp"

namespace mxgemm::sm90 {
namespace {

constexpr std::int64_t round_up(std::int64_t x, std::int64_t to) { return ceil_div(x, to) * to; }

// When the activation goes through the workspace (MXFP8 activations dequantized, or BF16
// ones TMA cannot read in place), it is taken in launches of whole 256-row tiles whose
// activation fits this many bytes; each launch streams the weight again and ends in a
// partial wave. 256 MB (M = 8192 at K = 8192 in one launch) against 64 MB: 8192^3 MXFP8
// 1678 -> 1552 us, 8192 x 8192 x 28672 6625 -> 6382 us (session 7).
constexpr std::int64_t kActivationWorkspaceBytes = std::int64_t{256} << 20;

// The rows of the activation's TMA box (StreamGemmParams::x_box_rows): M where one tile holds
// them, so that no box reaches past M, else the tile's (rows past M then read as zeros). Boxes
// past the tensor's rows were slow: the 64-row split (two 128-K boxes of activation a ring stage)
// at MXFP8 33 x 4096 x 8192 29.2 us against 20.7 with whole boxes (H200, same call,
// bench/results/s38/b2). Boxes of M rows, H200, same call, two rounds alternated
// (bench/results/s39/b1, s42/a, s42/b): MXFP8 33..63 x {1024, 4096} x {4096, 8192} 8-14% faster;
// 17 x 8192 x 8192 28.0 -> 25.7 us, 17 x 4096 x 8192 21.5 -> 19.2, weight-only 17 x 8192^2 27.5
// -> 25.0-25.4; one part tile of 128 / 256 rows, MXFP8 65 x 8192^2 45.4-45.8 -> 36.1, 129 x
// 8192^2 71.7-72.1 -> 55.9-56.9, 100 and 200 rows 3-5%; the rest (1..16 and 24..45 rows) within
// 1-2% either way. The tile's shared-memory rows past M keep what they held: their products land
// only in D's columns past M (D^T's column j is activation row j's alone), which no store writes,
// and the exact path looks at marked rows and weight scales, never at sums.
constexpr int activation_box_rows(std::int64_t m, std::int64_t tiles_m, int m_pad) {
  return tiles_m == 1 ? static_cast<int>(m) : m_pad;
}

// The rows of the pre-pass's activation in the workspace (workspace_activation_rows; M with
// detail::StreamPaddedWorkspace::Never).
std::int64_t prepass_activation_rows(std::int64_t m, int m_pad, bool mx_activation) {
  if (detail::stream_padded_workspace() == detail::StreamPaddedWorkspace::Never) return m;
  return workspace_activation_rows(m, m_pad, mx_activation);
}

// The output rows and activation of one launch, and the optional bias.
struct StreamLaunch {
  const char* fn;            // the public entry point, for error messages
  int m;                     // activation rows
  const float* alpha;
  const void* bias;          // null or N values
  DType bias_dtype;
  MatrixView d;              // m x N
  const void* x_direct;      // a BF16 activation TMA reads in place, else null (pre-pass)
  std::int64_t x_direct_stride;  // its row stride, elements
  // The activation as the caller passed it (the exact path). Its dtype says what the kernel
  // multiplies: FP16 ones as they are (the fp16 values form), anything else as bf16.
  ExactOperand x_exact;
  int x_row0;                // the launch's first row of it
  // A BF16 activation of more than 16 rows goes through the fp16 values form's pre-pass
  // (bf16_rows_in_f16), or through a copy into the permuted K order (bf16_rows_permuted).
  bool x_f16_rows = false;
  bool x_bf16_permuted = false;

  // An MXFP8 activation (its pre-pass marks rows for the exact path and may pad its copy).
  bool mx_activation() const { return x_exact.dtype == DType::E4M3 || x_exact.dtype == DType::E5M2; }
};

// A value the pre-pass writes into the rows it marks, and the split reduction's CTAs into the
// tiles they flag, different in consecutive launches (so marks left in the workspace by
// earlier launches do not count), never 0.
unsigned int next_exact_generation() {
  static std::atomic<unsigned int> counter{0};
  unsigned int g = ++counter;
  if (g == 0) g = ++counter;
  return g;
}

// prepass(x, kp, sx, sx_stride, marks, row_scales) writes the launch's m activation rows into
// x (row stride kp): as bf16 values when sx and row_scales are null (an MXFP8 activation's in
// the permuted K order, kPermutedX; a copied BF16 one in its own), as fp16 values at a power of
// two per row, to row_scales[row], with row_scales (an E4M3 MXFP8 activation's, the fp16 values
// form), else as fp16 codes in the permuted order with their fp32 block scales in
// sx[blk * sx_stride + row] (the codes form, kCodes); the MXFP8 pre-passes and the codes form's
// BF16 one also mark the rows that need the exact path (marks). Not called when the launch
// reads its activation in place (x_direct).
// split_ctas (kSplitK): the CTAs each tile's K is split among, a cluster (1: one tile a CTA).
// The 64-row values form's 128-row tiles (not kSplitK) pick their own (wide_cluster_ctas_on_device).
template <int kMPad, bool kCodes, bool kPermutedX, bool kSplitK, typename Prepass>
void launch_schedule(const StreamLaunch& l, const ConstMxOperand& b, const Prepass& prepass, cudaStream_t stream,
                     int split_ctas = 1) {
  using Cfg = StreamGemmConfig<kMPad, kCodes, kSplitK>;
  const bool direct = !kCodes && l.x_direct != nullptr;  // codes come from the pre-pass only
  StreamGemmParams p{};
  p.m = l.m;
  p.n = static_cast<int>(b.data.rows);
  p.k = static_cast<int>(b.data.cols);
  p.scale_cols = static_cast<int>(scale_cols(p.k));
  const int sms = cuda::current_device_sms();
  const std::int64_t tiles_m = ceil_div(p.m, kMPad), tiles_n = ceil_div(p.n, Cfg::kBlockN);
  const std::int64_t k_stages = kSplitK ? split_k_ring_stages(p.k, Cfg::kQuarters) : stream_k_stages(p.k, kMPad, kCodes);
  // The kernel counts tiles and stream-K units in 32 bits.
  if (tiles_m * tiles_n * k_stages > std::numeric_limits<std::int32_t>::max())
    detail::fail<UnsupportedError>(l.fn, "M x N x K",
                                   detail::concat("below 2^31 tile-stages (", kMPad, " x ", Cfg::kBlockN,
                                                  " x ", Cfg::kRingK, " each) for the streaming kernel"),
                                   detail::concat(p.m, " x ", p.n, " x ", p.k));
  // The fp16 values form: an FP16 activation's sums carry the weight's 2^kF16WeightShift, which
  // alpha takes out; an MXFP8 one's, each row's power of two (x_row_scale), which takes it too.
  const bool f16_values = runs_f16_values<kCodes, kPermutedX>(l.x_exact.dtype, b.data.dtype, l.x_f16_rows);
  const bool row_scaled = f16_values && kPermutedX;
  p.sched = kSplitK ? StreamSchedule::one_tile_per_cta(static_cast<int>(tiles_n), static_cast<int>(k_stages), split_ctas)
                    : StreamSchedule::make(static_cast<int>(tiles_m), static_cast<int>(tiles_n),
                                           static_cast<int>(k_stages), sms,
                                           stream_max_imbalance(kCodes, f16_values, kMPad),
                                           last_wave_stream_k_preferred(kMPad, p.k));
  // 33..64 MXFP8 rows (the permuted K order) where the split reduction would run on a weight of
  // fewer than kWideClusterMaxWeightElems: each tile's K split among a cluster of CTAs instead,
  // where the clusters fit (wide_cluster_ctas; docs/streaming-kernel.md, session 37); with
  // detail::StreamSplitK::WideClusters wherever they can run, Never: not at all.
  if constexpr (!kSplitK && wide_clusters_built(kMPad, kCodes, kPermutedX)) {
    const detail::StreamSplitK mode = detail::stream_split_k();
    const bool forced = mode == detail::StreamSplitK::WideClusters;
    const bool small_weight = std::int64_t{p.n} * p.k < kWideClusterMaxWeightElems;
    if (tiles_m == 1 && mode != detail::StreamSplitK::Never && ((p.sched.split_reduce && small_weight) || forced)) {
      const int ctas = wide_cluster_ctas_on_device(p.n, k_stages, sms, forced);
      if (ctas > 1) p.sched = StreamSchedule::one_tile_per_cta(static_cast<int>(tiles_n), static_cast<int>(k_stages), ctas);
    }
  }
  // (The kernel's kInterleaves: the two-warpgroup values form's stream-K.)
  if constexpr (!kCodes && Cfg::kMathWarpgroups == 2 && !kSplitK) {
    p.sched.interleave_halves();
    p.sched.paired = p.sched.one_half_per_cta();  // unless the clusters do not fit (launcher)
  }
  p.out = {l.alpha, l.d.data, l.d.row_stride, l.d.dtype, l.bias, l.bias_dtype};
  // Where the staged store runs in the 192- and 256-row tiles, TMA writes its rows; the map's
  // bounds are D's, so no box writes past M x N. Not where a row of D ends inside a 16-byte
  // piece: there TMA wrote the whole piece, into the gap past N (session 48,
  // GpuStreamGemm.StagedStoreCoversTailsAndPitches with N = 129, 300, 1006, 2050).
  p.d_by_tma = Cfg::kStagedByTma && staged_store_fits(p) && p.n % 8 == 0 &&
               detail::stream_tma_store() != detail::StreamTmaStore::Never;
  if (p.d_by_tma)
    p.d_map = cuda::make_tensor_map_2d_u8(l.d.data, p.m, std::int64_t{p.n} * 2, l.d.row_stride * 2, kStagedRows,
                                          kStagedBoxBytes, CU_TENSOR_MAP_SWIZZLE_128B);
  p.alpha_scale = f16_values && !row_scaled ? 1.0f / static_cast<float>(1 << kF16WeightShift) : 1.0f;
  p.x_in_place = direct;
  p.x_box_rows = activation_box_rows(p.m, tiles_m, kMPad);
  p.early_fixup = detail::stream_early_fixup();
  p.exact = exact_gemm(l.x_exact, exact_operand(b), l.x_row0, p.k);
  // The MXFP8 pre-passes, and the codes form's and fp16 values form's of a BF16 activation, mark
  // rows for the exact path.
  const bool marks =
      !direct && (kCodes || row_scaled || l.mx_activation());

  // Workspace: the 16-bit activation (M x Kp, 1 KB aligned) unless read in place, its block
  // scales in the codes form (ceil(K/32) rows of kMPad fp32), the pre-pass's row marks, 2
  // partial slots per CTA, each CTA's list of exact-path tiles, and the weight's scale
  // chunks when they are not usable in place.
  const std::int64_t kp = static_cast<std::int64_t>(p.scale_cols) * 32;
  const std::int64_t x_rows = direct ? p.m : prepass_activation_rows(p.m, kMPad, l.mx_activation());
  const std::int64_t x_bytes = direct ? 0 : round_up(x_rows * kp * 2, 1024);
  const std::int64_t sx_bytes = kCodes ? round_up(std::int64_t{p.scale_cols} * kMPad * 4, 1024) : 0;
  const std::int64_t marks_bytes = marks ? round_up(std::int64_t{p.m} * 4, 1024) : 0;
  const std::int64_t row_scale_bytes = row_scaled ? round_up(std::int64_t{p.m} * 4, 1024) : 0;
  const std::int64_t partial_bytes = std::int64_t{2} * p.sched.ctas * Cfg::kBlockN * kMPad * 4;
  const std::int64_t promoted_bytes = Cfg::kPromotesIntoSlot ? std::int64_t{p.sched.ctas} * Cfg::kPromotedSlotFloats * 4 : 0;
  p.promote_stages = Cfg::kPromoteInGlobal && detail::stream_promote() != detail::StreamPromote::Never
                         ? static_cast<int>(unpromoted_chain_k(l.d.dtype) / Cfg::kRingK)
                         : 0;
  p.promote_groups = detail::stream_promote() == detail::StreamPromote::Unstaggered ? 1 : kPromoteStaggerGroups;
  const std::int64_t tile_exact_bytes = p.sched.split_reduce ? round_up(std::int64_t{p.sched.stream_tiles()} * 4, 1024) : 0;
  p.exact_tiles_per_cta = p.sched.max_items_per_cta();
  const std::int64_t exact_list_bytes = round_up(std::int64_t{p.sched.ctas} * p.exact_tiles_per_cta * 4, 1024);
  const std::int64_t scale_bytes = static_cast<std::int64_t>(scale_chunks_workspace(b));
  auto* ws = static_cast<std::uint8_t*>(cuda::device_workspace(x_bytes + sx_bytes + marks_bytes + row_scale_bytes + partial_bytes + promoted_bytes +
                                                               tile_exact_bytes + exact_list_bytes + scale_bytes, stream));
  auto* x = reinterpret_cast<std::uint16_t*>(ws);
  ws += x_bytes;
  auto* sx = kCodes ? reinterpret_cast<float*>(ws) : nullptr;
  ws += sx_bytes;
  const ExactRowMarks row_marks{marks ? reinterpret_cast<unsigned int*>(ws) : nullptr, next_exact_generation()};
  p.x_exact_rows = row_marks.rows;
  p.exact_generation = row_marks.generation;
  ws += marks_bytes;
  float* const row_scales = row_scaled ? reinterpret_cast<float*>(ws) : nullptr;
  p.x_row_scale = row_scales;
  ws += row_scale_bytes;
  p.partials = reinterpret_cast<float*>(ws);
  ws += partial_bytes;
  p.promoted = Cfg::kPromotesIntoSlot ? reinterpret_cast<float*>(ws) : nullptr;
  ws += promoted_bytes;
  p.tile_exact = p.sched.split_reduce ? reinterpret_cast<unsigned int*>(ws) : nullptr;
  ws += tile_exact_bytes;
  p.exact_tiles = reinterpret_cast<int*>(ws);
  ws += exact_list_bytes;
  p.sw = scale_chunks(b, ws, stream);
  p.tile_counters = p.sched.split_reduce ? nullptr : cuda::device_zeroed_counters(p.sched.stream_tiles(), stream);

#ifdef MXGEMM_STREAM_TRACE
  prepass_trace_reset(stream);
#endif
  if (!direct) prepass(x, kp, sx, kMPad, row_marks, row_scales);

  const CUtensorMap tma_w = cuda::make_tensor_map_2d_u8(
      b.data.data, b.data.rows, b.data.cols, b.data.row_stride, Cfg::kBlockN, Cfg::kWeightRowBytes,
      Cfg::kWeightRowBytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B);
  // Columns past K read as zero, against the weight's zeros past K.
  const CUtensorMap tma_x =
      direct ? cuda::make_tensor_map_2d_u8(l.x_direct, p.m, std::int64_t{p.k} * 2, l.x_direct_stride * 2, p.x_box_rows,
                                           kStageK * 2, CU_TENSOR_MAP_SWIZZLE_128B)
             : cuda::make_tensor_map_2d_u8(x, x_rows, kp * 2, kp * 2, p.x_box_rows, kStageK * 2, CU_TENSOR_MAP_SWIZZLE_128B);
  // Rows past ceil(K/32) read as zero scales (their products are zero). The codes form runs one
  // activation tile (M <= kMPad): its scales' kMPad columns are one whole box, those past M
  // holding whatever they held.
  static_assert(!kCodes || kMPad <= 16, "the codes form runs one activation tile");
  const CUtensorMap tma_sx =
      kCodes ? cuda::make_tensor_map_2d_u8(sx, p.scale_cols, std::int64_t{kMPad} * 4, kMPad * 4, Cfg::kSxBlocks, kMPad * 4,
                                           CU_TENSOR_MAP_SWIZZLE_NONE)
             : tma_x;
  launch_stream_kernel<kMPad, kCodes, kPermutedX, kSplitK>(tma_w, tma_x, tma_sx, p, b.data.dtype, f16_values, stream);
}

}  // namespace

namespace {
// Clusters of c CTAs of kernel configuration Cfg the device runs at once.
template <typename Cfg>
int max_clusters_of(int c) {
  return cuda::max_active_clusters(c, Cfg::kThreads, Cfg::kSmemBytes);
}
}  // namespace

// The split kernels hold one CTA an SM (more than half an SM's 228 KB of shared memory), so
// their clusters fit the device as the 32-row values form's do.
int split_k_cluster_ctas_on_device(std::int64_t n, std::int64_t k, int sms, bool any_fill, int m_pad) {
  using Cfg = StreamGemmConfig<32, false, true>;
  static_assert(Cfg::kSmemBytes > 114 * 1024 && StreamGemmConfig<8, true, true>::kSmemBytes > 114 * 1024 &&
                    StreamGemmConfig<64, false, true>::kSmemBytes > 114 * 1024,
                "one CTA an SM");
  return split_k_cluster_ctas(n, k, sms, max_clusters_of<Cfg>, any_fill, split_k_parts(m_pad));
}

int wide_cluster_ctas_on_device(std::int64_t n, std::int64_t k_stages, int sms, bool any_fill) {
  using Cfg = StreamGemmConfig<64, false>;
  static_assert(Cfg::kSmemBytes > 114 * 1024, "one CTA an SM");
  return wide_cluster_ctas(n, k_stages, sms, max_clusters_of<Cfg>, any_fill);
}

namespace {

// The four-warpgroup widths split K among their warpgroups where that schedule fits
// (split_k_fills; detail::StreamSplitK for tests), one activation tile and K >= kSplitKMinK.
// On the H200, same run (session 22, bench/results/s22/): see docs/streaming-kernel.md. Where
// the tiles alone are too few, each tile's K is split among a cluster of CTAs too
// (split_k_cluster_ctas): docs/streaming-kernel.md, session 36. The two-warpgroup width (33..64
// rows) takes those clusters where two_warpgroup_split_preferred, and its one-tile-a-CTA split
// where two_warpgroup_fill_preferred (MXFP8, K up to 8192; docs/streaming-kernel.md, sessions 38
// and 42).
template <int kMPad, bool kCodes, bool kPermutedX = false, typename Prepass>
void launch_padded(const StreamLaunch& l, const ConstMxOperand& b, const Prepass& prepass, cudaStream_t stream) {
  constexpr bool kFourWarpgroups = StreamGemmConfig<kMPad, kCodes>::kMathWarpgroups == 4;
  if constexpr (kFourWarpgroups || kMPad == 64) {  // (the widths with kSplitK instances)
    const detail::StreamSplitK mode = detail::stream_split_k();
    const int sms = cuda::current_device_sms();
    if (mode != detail::StreamSplitK::Never && l.m <= kMPad && b.data.cols >= kSplitKMinK) {
      const bool fill_preferred = kFourWarpgroups || two_warpgroup_fill_preferred(l.m, b.data.cols, kPermutedX);
      if (mode == detail::StreamSplitK::Always ||
          (mode == detail::StreamSplitK::Auto && fill_preferred && split_k_fills(b.data.rows, sms))) {
        launch_schedule<kMPad, kCodes, kPermutedX, true>(l, b, prepass, stream);
        return;
      }
    }
    const bool auto_clusters =
        mode == detail::StreamSplitK::Auto &&
        (kFourWarpgroups || two_warpgroup_split_preferred(l.m, b.data.cols, l.x_exact.dtype == DType::FP16));
    if ((auto_clusters || mode == detail::StreamSplitK::Clusters) && l.m <= kMPad) {
      const int ctas =
          split_k_cluster_ctas_on_device(b.data.rows, b.data.cols, sms, mode == detail::StreamSplitK::Clusters, kMPad);
      if (ctas > 1) {
        launch_schedule<kMPad, kCodes, kPermutedX, true>(l, b, prepass, stream, ctas);
        return;
      }
    }
  }
  launch_schedule<kMPad, kCodes, kPermutedX, false>(l, b, prepass, stream);
}

// launch_rows: up to 8 rows take the codes form (half the promotion work of 16), from the
// pre-pass of either activation (MXFP8: its codes and scales; BF16: fp16 codes at a
// power-of-two scale a block): weight-only 1 / 8 x 28672 x 8192 74.5 / 75.4 -> 68.8 / 70.4 us
// on the H200, same run (session 18; 67.5-67.7 for 1 row since kShiftDecodesScales). Up to 16
// MXFP8 rows take it too; 9..16 BF16 rows are values, as the 16-row codes form does not watch
// the weight's scales (StreamGemmConfig::kWatchesWeight), and so are more rows of either, in
// tiles of up to 256 rows (launch_values). An MXFP8 activation's values are written by its
// pre-pass in the permuted K order (kPermutedX, as mx_activation says), a BF16 one is read as
// it is.
template <bool kPermutedX, typename Prepass>
void launch_values(const StreamLaunch& l, const ConstMxOperand& b, const Prepass& prepass, cudaStream_t stream) {
  if (l.m <= 32) launch_padded<32, false, kPermutedX>(l, b, prepass, stream);
  else if (l.m <= 64) launch_padded<64, false, kPermutedX>(l, b, prepass, stream);
  else if (l.m <= 128 || !wide_tiles_preferred(l.d.dtype, b.data.cols))
    launch_padded<128, false, kPermutedX>(l, b, prepass, stream);
  else if (width_192_taken(detail::stream_width_192(), l.m))
    launch_padded<kNarrowWideTileRows, false, kPermutedX>(l, b, prepass, stream);
  else launch_padded<kWideTileRows, false, kPermutedX>(l, b, prepass, stream);
}

// FP16 activations take the codes form only on weights of more elements than this (launch_rows).
constexpr std::int64_t kF16CodesFormMinWeightElems = std::int64_t{1} << 25;

// A BF16 activation goes through the fp16 values form's pre-pass: where TMA could read it in
// place, more than 16 rows on an E4M3 weight, as weight_only_f16_form_preferred says (or as a
// test forces, detail::StreamMxValues).
bool bf16_rows_in_f16(const ConstMatrixView& a, const ConstMxOperand& w, bool in_place) {
  const detail::StreamMxValues mode = detail::stream_mx_values();
  if (a.dtype != DType::BF16 || w.data.dtype != DType::E4M3 || !in_place || a.rows <= 16 ||
      mode == detail::StreamMxValues::Bf16 || mode == detail::StreamMxValues::Bf16Permuted)
    return false;
  if (mode == detail::StreamMxValues::F16) return true;
  const cuda::DeviceTraits device = cuda::current_device_traits();
  return weight_only_f16_form_preferred(a.rows, w.data.rows, w.data.cols, device.sms, device.dram_bytes_per_s);
}

// A BF16 activation goes into the bf16 values form through a copy in the permuted K order
// (launch_activation_bf16_permuted_prepass): more than 16 rows TMA could read in place, on an
// E4M3 weight where weight_only_bf16_permuted_preferred says (or wherever a test or the benchmark
// forces it, detail::StreamMxValues::Bf16Permuted). Asked only where the fp16 form does not run.
bool bf16_rows_permuted(const ConstMatrixView& a, const ConstMxOperand& w, bool in_place) {
  const detail::StreamMxValues mode = detail::stream_mx_values();
  if (a.dtype != DType::BF16 || !in_place || a.rows <= 16) return false;
  if (mode == detail::StreamMxValues::Bf16Permuted) return true;
  if (mode != detail::StreamMxValues::Auto || w.data.dtype != DType::E4M3) return false;
  const cuda::DeviceTraits device = cuda::current_device_traits();
  return weight_only_bf16_permuted_preferred(a.rows, w.data.rows, w.data.cols, device.sms, device.dram_bytes_per_s);
}

}  // namespace

// BF16 activations on an E4M3 weight take the fp16 values form through a pre-pass
// (launch_activation_f16_rows_prepass) instead of being read in place by the bf16 values form
// where that measured faster on the H200 (bench/results/s31/README.md, alternated rounds
// against main): 33..128 rows on weights of N >= 8192 and 2^26 elements or more (64 x 28672 x
// 8192 92.4 -> 82.7 us, 64 x 8192 x 28672 88.0 -> 82.6, 128 x 28672 x 8192 128.5 -> 118.7),
// 17..32 rows on weights over 2^27 elements whose K the bf16 form does not split among its
// warpgroups (split_k_fills; 32 x 28672 x 8192 73.0 -> 69.7 us). Slower elsewhere: smaller
// weights (the pre-pass and its row reduction are not hidden: 64 x 1024 x 8192 15.9 -> 19.4
// us, 4096^2 5-8%), 17..32 rows on the split weights (8192^2 5-8%, 32 x 8192 x 28672 73.0 ->
// 74.5 us), and 256 rows and more (2-8%).
// On GPUs of less memory bandwidth (the H100's 3.35 TB/s against the H200's 4.8) the bf16 form
// read in place is faster at 33..64 rows where the 64-row tiles fill the SMs (N about 8192):
// three H100s, six alternated rounds (bench/results/s50, calls 4, 5 and 7), 48 / 64 x 8192^2
// 33.0-33.8 -> 32.2-32.5 us (59.1 and 50.7 once each), 48 / 64 x 8192 x 28672 100.6-103.2 ->
// 94.8-99.3; level at 28672 x 8192 (98.6-101.3 against 99.4-102.3), and the fp16 form still
// faster at 96 and 128 rows (in 4 of 6 rounds at 128 x 8192 x 28672). There the weight's stream
// is the bound, and the pre-pass's traffic costs more than the conversion it saves; session 31
// found the fp16 form faster on the H200 (64 x 8192 x 28672 88.0 -> 82.6 us).
constexpr double kFastDramBytesPerS = 4e12;
bool weight_only_f16_form_preferred(std::int64_t m, std::int64_t n, std::int64_t k, int sms, double dram_bytes_per_s) {
  constexpr std::int64_t kMaxRows = 128, kFewRows = 32, kMidRows = 64, kMinN = 8192;
  constexpr std::int64_t kMinWeightElems = std::int64_t{1} << 26, kFewRowsMinWeightElems = std::int64_t{1} << 27;
  if (m <= 16 || m > kMaxRows || n < kMinN) return false;
  if (m > kMidRows) return n * k >= kMinWeightElems;
  if (m > kFewRows)
    return n * k >= kMinWeightElems && (dram_bytes_per_s >= kFastDramBytesPerS || !split_k_fills(n, sms));
  return n * k > kFewRowsMinWeightElems && !split_k_fills(n, sms);
}

// Where the bf16 form reads 33..64 BF16 rows faster than the fp16 form's pre-pass (GPUs under
// kFastDramBytesPerS, 64-row tiles that fill the SMs, weights of 2^26 elements or more: the
// H100's rule above), those rows copied into the permuted K order run faster still than read in
// place: the weight's fragment of a 32-block is then one 8-byte shared load instead of four 2-byte
// ones, and the copy (an extra launch, 2 x M x K bytes each way) is hidden behind the weight's
// stream. H100, this build, two alternated rounds (bench/results/s55/call5; call4 had the same
// with session 51's build), us, read in place -> copied: 33 / 48 / 64 x 8192^2 31.3-31.5 / 31.4 /
// 31.1-31.3 -> 30.2-30.7 / 30.4-30.6 / 30.6-30.8; 33 / 48 / 64 x 8192 x 28672 93.7-94.6 /
// 94.7-94.8 / 96.0-96.4 -> 90.8-90.9 / 91.9 / 93.4-93.8. Slower at 17..32 rows (call4: 32 x 8192
// x 28672 85.0 / 85.8 -> 87.3 / 87.2; those rows split K among four warpgroups, not two; why the
// copy does not pay there is not measured). Not measured on the H200, whose rule sends 33..64
// rows of these weights to the fp16 form.
bool weight_only_bf16_permuted_preferred(std::int64_t m, std::int64_t n, std::int64_t k, int sms,
                                         double dram_bytes_per_s) {
  constexpr std::int64_t kMinRows = 33, kMaxRows = 64, kMinN = 8192, kMinWeightElems = std::int64_t{1} << 26;
  return m >= kMinRows && m <= kMaxRows && n >= kMinN && n * k >= kMinWeightElems &&
         dram_bytes_per_s < kFastDramBytesPerS && split_k_fills(n, sms);
}

namespace {

template <typename Prepass>
void launch_rows(const StreamLaunch& l, const ConstMxOperand& b, bool mx_activation, const Prepass& prepass,
                 cudaStream_t stream) {
  // FP16 activations: up to 4 rows on weights of more than 32 MB the codes form (its pre-pass
  // writes them as they are, at scale 1), the rest the fp16 values form. On the H200, same
  // binary, sustained (bench/results/s27/b3 against s26/b7): the codes form 64 against 68.8 us
  // at 1..4 x 8192 x 28672, level at 28672 x 8192 and 8192^2, but 10-27% slower on the 8 and
  // 16 MB weights (1 x 4096^2 18.6 against 16.7 us) and up to 7% at 8 rows.
  if (l.x_exact.dtype == DType::FP16) {
    if (l.m <= 4 && b.data.rows * b.data.cols > kF16CodesFormMinWeightElems) launch_padded<8, true>(l, b, prepass, stream);
    else if (l.m <= 16) launch_padded<16, false>(l, b, prepass, stream);
    else launch_values<false>(l, b, prepass, stream);
    return;
  }
  if (l.m <= 8) launch_padded<8, true>(l, b, prepass, stream);
  else if (l.m <= 16 && mx_activation) launch_padded<16, true>(l, b, prepass, stream);
  // A prepacked weight (its bytes already in the permuted order) meets the activation in its own
  // order in the permuted-order instances.
  else if (b.order == KOrder::Prepacked) {
    if (l.m <= 16) launch_padded<16, false, true>(l, b, prepass, stream);
    else launch_values<true>(l, b, prepass, stream);
  }
  else if (l.m <= 16) launch_padded<16, false>(l, b, prepass, stream);
  else if (mx_activation || l.x_f16_rows || l.x_bf16_permuted) launch_values<true>(l, b, prepass, stream);
  else launch_values<false>(l, b, prepass, stream);
}

// Calls launch(row0, rows) for consecutive row ranges covering `m` rows whose 16-bit
// activation (K padded to kp) fits the workspace budget.
template <typename Launch>
void for_each_row_range(std::int64_t m, std::int64_t kp, const Launch& launch) {
  std::int64_t step = kActivationWorkspaceBytes / (kp * 2) / 256 * 256;
  if (step < 256) step = 256;
  for (std::int64_t m0 = 0; m0 < m; m0 += step) launch(m0, m - m0 < step ? m - m0 : step);
}

MatrixView rows_of(const MatrixView& d, std::int64_t row0, std::int64_t rows) {
  MatrixView part = d;
  part.data = static_cast<std::uint8_t*>(d.data) + row0 * d.row_stride * dtype_size(d.dtype);
  part.rows = rows;
  return part;
}

}  // namespace

void launch_stream_gemm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                        const MatrixView& d, cudaStream_t stream) {
  const std::int64_t kp = scale_cols(a.data.cols) * 32;
  for_each_row_range(a.data.rows, kp, [&](std::int64_t row0, std::int64_t rows) {
    const StreamLaunch l{"mxfp8_scaled_mm", static_cast<int>(rows), alpha, nullptr, DType::FP32,
                         rows_of(d, row0, rows), nullptr, 0, exact_operand(a), static_cast<int>(row0)};
    launch_rows(l, b, /*mx_activation=*/true,
                [&](std::uint16_t* x, std::int64_t x_stride, float* sx, std::int64_t sx_stride,
                    const ExactRowMarks& marks, float* row_scales) {
                  if (sx != nullptr)
                    launch_activation_codes_prepass(a, row0, rows, x, x_stride, sx, sx_stride, marks, stream);
                  else
                    launch_activation_prepass(a, row0, rows, x, x_stride, marks, row_scales, stream);
                },
                stream);
  });
}

void launch_stream_weight_only(const ConstMatrixView& a, const ConstMxOperand& w, const float* alpha,
                               const ConstMatrixView* bias, const MatrixView& d, cudaStream_t stream) {
  constexpr const char* kWeightOnly = "mxfp8_weight_only_mm";
  const void* bias_data = bias != nullptr ? bias->data : nullptr;
  const DType bias_dtype = bias != nullptr ? bias->dtype : DType::FP32;
  // TMA reads the activation in place when its address and row pitch are 16-byte multiples.
  const bool in_place = reinterpret_cast<std::uintptr_t>(a.data) % 16 == 0 && (a.row_stride * 2) % 16 == 0;
  const bool f16_rows = bf16_rows_in_f16(a, w, in_place);
  // A prepacked weight's bytes are in the permuted order already (KOrder::Prepacked): the
  // activation keeps its own, in place or through the pre-passes' natural-order forms.
  const bool prepacked = w.order == KOrder::Prepacked;
  const bool permuted_rows = !f16_rows && !prepacked && bf16_rows_permuted(a, w, in_place);
  // The codes form's pre-pass (sx set), the fp16 values form's (row_scales set), the copy into
  // the permuted K order, or a copy of rows TMA cannot read in place (the bf16 values form reads
  // an aligned activation itself and calls no pre-pass).
  auto prepass_rows = [&](std::int64_t row0, std::int64_t rows) {
    return [&a, row0, rows, permuted_rows, prepacked, stream](std::uint16_t* x, std::int64_t x_stride, float* sx,
                                                              std::int64_t sx_stride, const ExactRowMarks& marks,
                                                              float* row_scales) {
      if (sx != nullptr)
        launch_activation_codes_prepass(a, row0, rows, x, x_stride, sx, sx_stride, marks, stream, prepacked);
      else if (row_scales != nullptr)
        launch_activation_f16_rows_prepass(a, row0, rows, x, x_stride, marks, row_scales, stream, prepacked);
      // launch_rows reads more than 16 of these rows in the permuted order, fewer (the last of
      // several row ranges) in the natural one.
      else if (permuted_rows && rows > 16) launch_activation_bf16_permuted_prepass(a, row0, rows, x, x_stride, stream);
      else launch_activation_prepass(a, row0, rows, x, x_stride, stream);
    };
  };
  if (in_place && !f16_rows && !permuted_rows) {
    const StreamLaunch l{kWeightOnly, static_cast<int>(a.rows), alpha, bias_data, bias_dtype, d, a.data, a.row_stride,
                         exact_operand(a), 0};
    launch_rows(l, w, /*mx_activation=*/false, prepass_rows(0, a.rows), stream);
    return;
  }
  const std::int64_t kp = scale_cols(a.cols) * 32;
  for_each_row_range(a.rows, kp, [&](std::int64_t row0, std::int64_t rows) {
    // (A last range of 16 rows or fewer takes neither form: x_f16_rows and x_bf16_permuted are
    // for more than 16 rows.)
    const StreamLaunch l{kWeightOnly, static_cast<int>(rows), alpha, bias_data, bias_dtype, rows_of(d, row0, rows),
                         nullptr, 0, exact_operand(a), static_cast<int>(row0), f16_rows && rows > 16,
                         permuted_rows && rows > 16};
    launch_rows(l, w, /*mx_activation=*/false, prepass_rows(row0, rows), stream);
  });
}

}  // namespace mxgemm::sm90
