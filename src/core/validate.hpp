// Internal: the one validation of each entry point's arguments, shared by every backend
// (GPU kernels and the CPU reference). Each function throws ArgumentError or DtypeError
// naming the function, the argument, the expected and the actual value, and returns only
// when every check passed.
#pragma once

#include "mxgemm/types.hpp"

namespace mxgemm::detail {

// Where the arguments of an entry point must live, and whether to ask the CUDA driver
// about each pointer (cudaPointerGetAttributes; skipped when no driver/device is present
// or when the caller asked to skip costly checks).
struct Placement {
  Memory memory;
  bool query_driver;
};

// GEMM (MX_FORMAT.md contract as extended in gemm.hpp). `alpha` may be null only when
// alpha_is_value (the CPU reference passes alpha by value).
void validate_gemm(const char* fn, const ConstMxOperand& a, const ConstMxOperand& b,
                   const float* alpha, bool alpha_is_value, const MatrixView& d,
                   Placement placement);

// What the sm_100 (CUTLASS) GEMM adds to the contract, checked after validate_gemm: E4M3
// operands, swizzled scales, BF16/FP16 output whose row pitch and base are 16-byte aligned.
// Throws UnsupportedError (a valid request this backend cannot run), same message format.
void validate_gemm_sm100_support(const char* fn, const ConstMxOperand& a, const ConstMxOperand& b,
                                 const MatrixView& d);

// Weight-only GEMM (weight_only.hpp): a (M x K BF16/FP16), w (N x K MXFP8), optional bias
// (1 x N FP32/BF16/FP16), d (M x N). `alpha` may be null only when alpha_is_value.
void validate_weight_only(const char* fn, const ConstMatrixView& a, const ConstMxOperand& w,
                          const float* alpha, bool alpha_is_value, const ConstMatrixView* bias,
                          const MatrixView& d, Placement placement);

// Quantize: x (R x K, FP32/BF16/FP16) -> q (R x K E4M3/E5M2 + E8M0 scales in q.layout).
void validate_quantize(const char* fn, const ConstMatrixView& x, const ConstMxOperand& q,
                       Placement placement);

// Columnwise quantize: x (R x K, FP32/BF16/FP16) -> qt (K x R E4M3/E5M2 + E8M0 scales of
// a K x R operand in qt.layout).
void validate_quantize_columnwise(const char* fn, const ConstMatrixView& x,
                                  const ConstMxOperand& qt, Placement placement);

// Dequantize: q (R x K MXFP8) -> out (R x K, FP32/BF16/FP16).
void validate_dequantize(const char* fn, const ConstMxOperand& q, const ConstMatrixView& out,
                         Placement placement);

// One MX operand on its own (data dtype, scale dtype, scale shape for the layout, strides,
// null pointers, size overflow, K order). `name` prefixes messages ("a", "b", "q"). A
// prepacked operand (KOrder::Prepacked, whole 32-blocks) only where prepacked_taken.
void validate_mx_operand(const char* fn, const char* name, const ConstMxOperand& op,
                         Placement placement, bool prepacked_taken = false);

// Prepack: w (N x K fp8, K % 32 == 0) -> out (same dtype and shape; w itself, or disjoint).
void validate_prepack(const char* fn, const ConstMatrixView& w, const MatrixView& out, Placement placement);

// Layout conversion: `linear` is (rows, ceil(k/32)) and `swizzled` is the padded
// contiguous (round_up(rows,128), round_up(ceil(k/32),4)); both Host, E8M0.
void validate_scale_conversion(const char* fn, const ConstMatrixView& linear,
                               const ConstMatrixView& swizzled, std::int64_t rows,
                               std::int64_t k);

}  // namespace mxgemm::detail
