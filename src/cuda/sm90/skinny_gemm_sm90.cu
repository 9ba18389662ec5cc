// Launcher of the skinny GEMM: kernel parameters from the validated views, and the
// instantiation for the operand types and the number of 8-row activation tiles.
#include "cuda/sm90/skinny_gemm_sm90.hpp"

#include "cuda/common/workspace.hpp"
#include "cuda/sm90/scale_prepass.hpp"
#include "cuda/sm90/stream_schedule.hpp"
#include "mxgemm/layout.hpp"

namespace mxgemm::sm90 {
namespace {

SkinnyGemmParams base_params(std::int64_t m, const ConstMxOperand& w, const float* alpha, const MatrixView& d) {
  SkinnyGemmParams p{};
  p.m = static_cast<int>(m);
  p.n = static_cast<int>(w.data.rows);
  p.k = static_cast<int>(w.data.cols);
  p.out = {alpha, d.data, d.row_stride, d.dtype, nullptr, DType::FP32};
  return p;
}

template <DType kElemW, DType kElemX, bool kPrepackedW = false>
void launch_width(const SkinnyGemmParams& p, const ConstMxOperand& w, const ConstMxOperand* a, cudaStream_t stream) {
  if (p.m <= 8) launch_skinny_kernel<kElemW, kElemX, 1, kPrepackedW>(p, w, a, stream);
  else launch_skinny_kernel<kElemW, kElemX, 2, kPrepackedW>(p, w, a, stream);
}

}  // namespace

void launch_skinny_gemm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                        const MatrixView& d, cudaStream_t stream) {
  SkinnyGemmParams p = base_params(a.data.rows, b, alpha, d);
  p.x = a.data.data;
  p.ldx = a.data.row_stride;
  p.exact = exact_gemm(exact_operand(a), exact_operand(b), 0, p.k);
  const bool w4 = b.data.dtype == DType::E4M3, x4 = a.data.dtype == DType::E4M3;
  if (w4 && x4) launch_width<DType::E4M3, DType::E4M3>(p, b, &a, stream);
  else if (w4) launch_width<DType::E4M3, DType::E5M2>(p, b, &a, stream);
  else if (x4) launch_width<DType::E5M2, DType::E4M3>(p, b, &a, stream);
  else launch_width<DType::E5M2, DType::E5M2>(p, b, &a, stream);
}

bool skinny_gemm_supports(std::int64_t m, std::int64_t n, std::int64_t k) {
  return m <= kSkinnyMaxM &&
         ceil_div(n, kSkinnyBlockN) * ceil_div(scale_cols(k), kSkinnyGroupBlocks) < (std::int64_t{1} << 31);
}

bool skinny_gemm_preferred(std::int64_t m, std::int64_t n, std::int64_t k, bool weight_only, int sms,
                           bool streaming_clusters) {
  if (!skinny_gemm_supports(m, n, k)) return false;
  if (k >= (weight_only ? kSplitKMinK : kSplitKOverSkinnyMinK) && split_k_fills(n, sms)) return false;
  const std::int64_t weight = n * k;
  if (weight_only) {
    if (m > kSkinnyMaxWeightOnlyM) return weight <= kSkinnyMaxWeightElemsWeightOnlyRows16;
    return weight <= (streaming_clusters ? kSkinnyMaxWeightElemsWeightOnlyClusters : kSkinnyMaxWeightElems);
  }
  return m <= kSkinnyAnyWeightM ? weight <= kSkinnyMaxWeightElemsFewRows : weight <= kSkinnyMaxWeightElems;
}

bool skinny_weight_only_supports(const ConstMatrixView& a, const ConstMxOperand& w) {
  // (BF16 activations only: FP16 ones take the streaming kernel's fp16 values form.)
  return a.dtype == DType::BF16 && skinny_gemm_supports(a.rows, w.data.rows, w.data.cols) &&
         reinterpret_cast<std::uintptr_t>(a.data) % 16 == 0 &&
         (a.row_stride * 2) % 16 == 0;
}

void launch_skinny_weight_only(const ConstMatrixView& a, const ConstMxOperand& w, const float* alpha,
                               const ConstMatrixView* bias, const MatrixView& d, cudaStream_t stream) {
  SkinnyGemmParams p = base_params(a.rows, w, alpha, d);
  p.x = a.data;
  p.ldx = a.row_stride;
  p.exact = exact_gemm(exact_operand(a), exact_operand(w), 0, p.k);
  if (bias != nullptr) {
    p.out.bias = bias->data;
    p.out.bias_dtype = bias->dtype;
  }
  const bool e4m3 = w.data.dtype == DType::E4M3;
  if (w.order == KOrder::Prepacked) {
    if (e4m3) launch_width<DType::E4M3, DType::BF16, true>(p, w, nullptr, stream);
    else launch_width<DType::E5M2, DType::BF16, true>(p, w, nullptr, stream);
  } else if (e4m3) {
    launch_width<DType::E4M3, DType::BF16>(p, w, nullptr, stream);
  } else {
    launch_width<DType::E5M2, DType::BF16>(p, w, nullptr, stream);
  }
}

}  // namespace mxgemm::sm90
