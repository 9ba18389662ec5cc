// Internal: the launchers behind quantize_mxfp8, quantize_mxfp8_columnwise,
// dequantize_mxfp8 and mxfp8_prepack_weight. Arguments are already validated (core/validate.hpp); each launcher
// picks the kernel instance for the dtypes and alignment and queues it on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "core/device.hpp"
#include "mxgemm/types.hpp"

namespace mxgemm::detail {

// Why these kernels cannot run on `dev` (no device, compute capability below 8.9, or no
// code for it in this binary), or an empty string when they can. Never throws.
std::string quantize_kernels_unavailable(const DeviceQuery& dev);

// x (R x K) -> q (R x K fp8 + scales in q.layout), blocks of 32 along K.
void launch_quantize_rowwise(const ConstMatrixView& x, const MxOperand& q,
                             ScaleRounding rounding, cudaStream_t stream);

// x (R x K) -> qt (K x R fp8 + scales in qt.layout): the transpose of x quantized rowwise,
// i.e. blocks of 32 along R.
void launch_quantize_columnwise(const ConstMatrixView& x, const MxOperand& qt,
                                ScaleRounding rounding, cudaStream_t stream);

// q (R x K fp8 + scales) -> out (R x K, FP32/BF16/FP16).
void launch_dequantize(const ConstMxOperand& q, const MatrixView& out, cudaStream_t stream);

// w (N x K fp8, K % 32 == 0) -> out in KOrder::Prepacked (out may be w itself).
void launch_prepack_weight(const ConstMatrixView& w, const MatrixView& out, cudaStream_t stream);

}  // namespace mxgemm::detail
