// Launcher of the weight-streaming GEMM: activation pre-pass into the workspace, tensor maps,
// stream-K schedule, and the kernel instance for the padded M.
#include "cuda/sm90/stream_gemm_sm90.hpp"

#include "core/check.hpp"
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

// The output rows and activation of one launch, and the optional bias.
struct StreamLaunch {
  int m;                 // activation rows (<= kStreamMaxM)
  const float* alpha;
  const void* bias;      // null or N values
  DType bias_dtype;
  MatrixView d;          // m x N
};

// prepass(x, kp, sx, sx_stride) writes the launch's m activation rows into x (row stride
// kp) in the permuted order: as bf16 values when sx is null, else as fp16 codes with their
// fp32 block scales in sx[blk * sx_stride + row] (the codes form, kCodes).
template <int kMPad, bool kCodes, typename Prepass>
void launch_padded(const StreamLaunch& l, const ConstMxOperand& b, const Prepass& prepass,
                   cudaStream_t stream) {
  using Cfg = StreamGemmConfig<kMPad, kCodes>;
  StreamGemmParams p{};
  p.m = l.m;
  p.n = static_cast<int>(b.data.rows);
  p.k = static_cast<int>(b.data.cols);
  p.scale_cols = static_cast<int>(scale_cols(p.k));
  p.tiles_n = static_cast<int>(ceil_div(p.n, Cfg::kBlockN));
  p.k_stages = static_cast<int>(ceil_div(p.k, kStageK));
  int device = 0, sms = 0;
  MXGEMM_CUDA_CHECK(cudaGetDevice(&device));
  MXGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const StreamSchedule sched = StreamSchedule::make(p.tiles_n, p.k_stages, sms);
  p.units = sched.units;
  p.ctas = sched.ctas;
  p.alpha = l.alpha;
  p.d = l.d.data;
  p.ldd = l.d.row_stride;
  p.d_dtype = l.d.dtype;
  p.bias = l.bias;
  p.bias_dtype = l.bias_dtype;

  // Workspace: the 16-bit activation (M x Kp, 1 KB aligned), its block scales in the codes
  // form (ceil(K/32) rows of kMPad fp32), 2 partial slots per CTA, and the weight's scale
  // chunks when they are not usable in place.
  const std::int64_t kp = static_cast<std::int64_t>(p.scale_cols) * 32;
  const std::int64_t x_bytes = round_up(p.m * kp * 2, 1024);
  const std::int64_t sx_bytes = kCodes ? round_up(std::int64_t{p.scale_cols} * kMPad * 4, 1024) : 0;
  const std::int64_t partial_bytes = std::int64_t{2} * p.ctas * Cfg::kBlockN * kMPad * 4;
  const std::int64_t scale_bytes = static_cast<std::int64_t>(scale_chunks_workspace(b));
  auto* ws = static_cast<std::uint8_t*>(
      cuda::device_workspace(x_bytes + sx_bytes + partial_bytes + scale_bytes));
  auto* x = reinterpret_cast<std::uint16_t*>(ws);
  auto* sx = kCodes ? reinterpret_cast<float*>(ws + x_bytes) : nullptr;
  p.partials = reinterpret_cast<float*>(ws + x_bytes + sx_bytes);
  p.sw = scale_chunks(b, ws + x_bytes + sx_bytes + partial_bytes, stream);
  p.tile_counters = cuda::device_zeroed_counters(p.tiles_n, stream);

  prepass(x, kp, sx, kMPad);

  const CUtensorMap tma_w = cuda::make_tensor_map_2d_u8(
      b.data.data, b.data.rows, b.data.cols, b.data.row_stride, Cfg::kBlockN, kStageK,
      CU_TENSOR_MAP_SWIZZLE_64B);
  const CUtensorMap tma_x = cuda::make_tensor_map_2d_u8(x, p.m, kp * 2, kp * 2, kMPad, kStageK * 2,
                                                        CU_TENSOR_MAP_SWIZZLE_128B);
  // Rows past ceil(K/32) and columns past M read as zero scales (their products are zero).
  const CUtensorMap tma_sx =
      kCodes ? cuda::make_tensor_map_2d_u8(sx, p.scale_cols, std::int64_t{p.m} * 4, kMPad * 4, 2, kMPad * 4,
                                           CU_TENSOR_MAP_SWIZZLE_NONE)
             : tma_x;
  launch_stream_kernel<kMPad, kCodes>(tma_w, tma_x, tma_sx, p, b.data.dtype, stream);
}

// mx_activation: the activation is MXFP8 (codes and scales), so up to 16 rows take the codes
// form (8-wide for up to 8 rows: half the promotion work); BF16 activations (weight-only) are
// values.
template <typename Prepass>
void launch_rows(const StreamLaunch& l, const ConstMxOperand& b, bool mx_activation, const Prepass& prepass,
                 cudaStream_t stream) {
  if (l.m <= 8 && mx_activation) launch_padded<8, true>(l, b, prepass, stream);
  else if (l.m <= 16 && mx_activation) launch_padded<16, true>(l, b, prepass, stream);
  else if (l.m <= 16) launch_padded<16, false>(l, b, prepass, stream);
  else if (l.m <= 32) launch_padded<32, false>(l, b, prepass, stream);
  else if (l.m <= 64) launch_padded<64, false>(l, b, prepass, stream);
  else launch_padded<128, false>(l, b, prepass, stream);
}

}  // namespace

void launch_stream_gemm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                        const MatrixView& d, cudaStream_t stream) {
  const std::int64_t m = a.data.rows;
  if (m > kStreamMaxM)
    detail::fail<UnsupportedError>("mxfp8_scaled_mm", "M (a.data.rows)",
                                   detail::concat("<= ", kStreamMaxM, " for the streaming kernel"), m);
  const StreamLaunch l{static_cast<int>(m), alpha, nullptr, DType::FP32, d};
  launch_rows(l, b, /*mx_activation=*/true,
              [&](std::uint16_t* x, std::int64_t kp, float* sx, std::int64_t sx_stride) {
                if (sx != nullptr)
                  launch_activation_codes_prepass(a, x, kp, sx, sx_stride, stream);
                else
                  launch_activation_prepass(a, x, kp, stream);
              },
              stream);
}

void launch_stream_weight_only(const ConstMatrixView& a, const ConstMxOperand& w, const float* alpha,
                               const ConstMatrixView* bias, const MatrixView& d, cudaStream_t stream) {
  // kStreamMaxM activation rows per pass; the weight is streamed once per pass.
  for (std::int64_t m0 = 0; m0 < a.rows; m0 += kStreamMaxM) {
    const std::int64_t rows = a.rows - m0 < kStreamMaxM ? a.rows - m0 : kStreamMaxM;
    ConstMatrixView a_part = a;
    a_part.data = static_cast<const std::uint16_t*>(a.data) + m0 * a.row_stride;
    a_part.rows = rows;
    MatrixView d_part = d;
    d_part.data = static_cast<std::uint8_t*>(d.data) + m0 * d.row_stride * dtype_size(d.dtype);
    d_part.rows = rows;
    const StreamLaunch l{static_cast<int>(rows), alpha, bias != nullptr ? bias->data : nullptr,
                         bias != nullptr ? bias->dtype : DType::FP32, d_part};
    launch_rows(l, w, /*mx_activation=*/false,
                [&](std::uint16_t* x, std::int64_t kp, float*, std::int64_t) {
                  launch_activation_prepass(a_part, x, kp, stream);
                },
                stream);
  }
}

}  // namespace mxgemm::sm90
