// The MXFP8 GEMM: D = alpha * dequant(A) x dequant(B)^T, as in MX_FORMAT.md.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "mxgemm/types.hpp"

namespace mxgemm {

// D[m, n] = alpha * sum_k (2^(sa[m, k/32] - 127) * a[m, k]) * (2^(sb[n, k/32] - 127) * b[n, k]),
// accumulated in fp32 and rounded to D's type (round to nearest even). A NaN element or
// a NaN scale (0xFF) makes every output it feeds NaN.
//
// a      M x K, E4M3 or E5M2, K contiguous (row_stride >= K, in elements), Device.
// b      N x K, E4M3 or E5M2, K contiguous, Device. (B is stored N x K: the "TN" GEMM.)
//        a and b may differ in type (E4M3 x E5M2 is allowed).
// scales E8M0, one per 32 elements along K (ceil(K/32) per row; the last block is short
//        when K % 32 == 16). Layout per operand (a.layout, b.layout):
//          Swizzled128x4: contiguous, exactly (round_up(R, 128), round_up(ceil(K/32), 4));
//          Linear:        (R, ceil(K/32)), row_stride >= ceil(K/32).
// alpha  pointer to one fp32 in Device memory, read by the kernel (no host sync).
// d      M x N, BF16, FP16 or FP32, row-major (row_stride >= N), Device. Only the M x N
//        elements are written; what lies between rows (row_stride > N) is untouched.
// stream the CUDA stream the work is queued on. The call uses the device's scratch memory,
//        shared with every other call on the device, in turns: mxgemm/workspace.hpp says how
//        calls on two streams and host threads are ordered, and how to capture CUDA graphs.
// skip_checks  skip the checks that cost more than a few comparisons (asking the driver
//        where each pointer lives); shapes, dtypes and alignment are always checked.
//
// Shapes: M >= 1, N >= 1, K >= 16 with K % 16 == 0. Alignment: a and b data pointers
// and row strides in bytes multiples of 16; d aligned to its element size.
//
// Backends, chosen by the current device: compute capability 9.0 runs the Hopper kernel
// (everything above, up to 2^31 - 1 tile-stages of 128 x 128 x 64, UnsupportedError
// beyond). There the operands are multiplied exactly on the tensor cores while their scales
// lie in a window: bytes 73..181 (E4M3; 80..174 E5M2), and, for E4M3 x E4M3 with 17 rows of a
// or more (multiplied in fp16), b's bytes 103..123 and rows of a whose nonzero blocks lie at
// most 22 bytes below the row's largest in-window byte. An output tile fed by a block
// outside (with a nonzero code) is computed by an exact fp64 path instead: the same contract,
// many times slower (9..16 rows watch only the activation's scales: docs/streaming-kernel.md).
// 10.0 runs the CUTLASS kernel when the library was built with it,
// which additionally needs E4M3 operands, swizzled scales (16-byte aligned), BF16/FP16
// output, N and d.row_stride multiples of 8 and a 16-byte aligned d, and refuses the rest
// with UnsupportedError; other devices get UnsupportedError naming the device.
//
// Throws ArgumentError / DtypeError for bad input (the message names the argument, the
// expected and the actual value), UnsupportedError when no GPU backend can run here
// (no CUDA device, or an architecture without a kernel), CudaError when a CUDA call
// fails. Nothing is written to d unless all checks pass.
void mxfp8_scaled_mm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                     MatrixView d, cudaStream_t stream = nullptr, bool skip_checks = false);

// The same contract checked by the same validation, but a, b, scales and d in Host
// memory and alpha a host value: the exact reference. Dequantizes exactly, accumulates in
// fp64, multiplies by alpha, rounds once to D's type (round to nearest even). Any M, N >= 1
// and K >= 16 with K % 16 == 0; multi-threaded. It is the oracle for every GPU test.
void mxfp8_scaled_mm_reference(const ConstMxOperand& a, const ConstMxOperand& b, float alpha,
                               MatrixView d);

// Which backend mxfp8_scaled_mm would use on the current device, or why none can run:
// e.g. "sm90a (Hopper)" or "none: no CUDA device (cudaGetDeviceCount: no CUDA-capable device
// is detected)". Never throws.
struct BackendInfo {
  bool available = false;
  std::string name;    // e.g. "sm90a (Hopper)"; empty when none
  std::string reason;  // why none is available; empty when one is
};
BackendInfo gemm_backend();

}  // namespace mxgemm
