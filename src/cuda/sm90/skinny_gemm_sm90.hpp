// Host entry of the sm_90a skinny MXFP8 GEMM (skinny_gemm_kernel.cuh): up to 16 activation
// rows, operands read in place. Arguments are already validated.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "cuda/sm90/mxfp8_gemm_params.hpp"
#include "mxgemm/types.hpp"

namespace mxgemm::sm90 {

// Activation rows the skinny kernel can take (two 8-row mma tiles).
constexpr std::int64_t kSkinnyMaxM = 16;
// Where it is the faster kernel, measured against the streaming kernel on the same shapes
// (docs/skinny-kernel.md; since session 21 against the streaming kernel's 128-K stages,
// bench/results/s21/b1, b2): up to kSkinnyAnyWeightM MXFP8 activation rows on weights of at
// most kSkinnyMaxWeightElemsFewRows elements (128 MB of fp8: 14336 x 8192 is 3% faster here,
// 28672 x 8192 and 8192 x 28672 1-5% faster on the streaming kernel); 9..16 MXFP8 rows, or up
// to kSkinnyMaxWeightOnlyM BF16 rows, on weights of at most kSkinnyMaxWeightElems (32 MB:
// 4096 x 8192 is 8-24% faster here; 14336 x 4096, 4096 x 14336 and 8192^2 up to 13% faster on
// the streaming kernel at 12 rows, 1-6% for BF16 rows). More rows run on the streaming kernel,
// and so do the weights whose K it splits among its warpgroups (split_k_fills: N = 8192 on 132
// SMs) from kSplitKOverSkinnyMinK (MXFP8) or kSplitKMinK (BF16): on the H200, same run, two
// rounds (session 22, bench/results/s22/b5), the split was 0-4% faster than the skinny kernel
// for 1..8 MXFP8 rows at 8192^2 (26.4-27.5 us) but 2-7% slower at K = 2048 and 4096, and 4-6%
// faster for 1..8 BF16 rows at K = 2048 and 4096.
constexpr std::int64_t kSplitKOverSkinnyMinK = 8192;
constexpr std::int64_t kSkinnyMaxWeightElemsFewRows = std::int64_t{1} << 27;
constexpr std::int64_t kSkinnyMaxWeightElems = std::int64_t{1} << 25;
constexpr std::int64_t kSkinnyAnyWeightM = 8;
constexpr std::int64_t kSkinnyMaxWeightOnlyM = 8;
// 9..16 BF16 rows on weights of at most 2^22 elements (4 MB) are faster on the skinny kernel
// too. On the H200 (session 35, bench/results/s35/b1 and b2, same call, two rounds) it beat the
// streaming kernel's split reduction up to 2^23 elements: weight-only 9..16 x 1024 x 4096
// 13.7-14.1 -> 12.4-12.8 us, x 2048 x 4096 14.5-14.8 -> 13.1-13.4, x 1024 x 8192 14.8-15.1 ->
// 14.6-15.0. Since the streaming kernel splits those tiles' K in clusters (session 36,
// bench/results/s36/b4, the streaming kernel in the comparison column, which runs warmer and
// reads slower), 9 / 12 / 16 x 1024 x 8192 run there in 13.7-13.8 us against the skinny
// kernel's 14.8-14.9, x 2048 x 4096 in 13.1-13.3 against 13.3-13.4; x 1024 x 4096 level (12.6-12.8).
constexpr std::int64_t kSkinnyMaxWeightElemsWeightOnlyRows16 = std::int64_t{1} << 22;
// Up to kSkinnyMaxWeightOnlyM BF16 rows, on weights whose K the streaming kernel splits in
// clusters of CTAs (split_k_cluster_ctas_on_device: N = 1024..4096 on the H200), only up to
// 2^24 elements: on the H200 (session 37, bench/results/s37/b3, same call, two rounds) the
// clusters were faster above, weight-only 1 / 4 / 8 x 3072 x 8192 18.7-19.3 -> 17.5-18.4 us, x
// 4096 x 8192 20.0-20.4 -> 18.6-19.7; at 2^24 the skinny kernel was level or faster (x 4096 x
// 4096 14.7-15.3 against 15.0-15.9, x 2048 x 8192 15.2-15.8 against 15.6-16.4).
constexpr std::int64_t kSkinnyMaxWeightElemsWeightOnlyClusters = std::int64_t{1} << 24;

// Whether the skinny kernel can run a GEMM of m activation rows against an n x k weight: at
// most kSkinnyMaxM rows, and fewer than 2^31 work units (skinny_schedule.hpp).
bool skinny_gemm_supports(std::int64_t m, std::int64_t n, std::int64_t k);

// Whether it is the kernel to pick for it on a device of `sms` SMs (supported, and the
// measured crossover above). streaming_clusters: the streaming kernel would split this
// weight's K in clusters (split_k_cluster_ctas_on_device > 1; asked by the caller, which has
// the device).
bool skinny_gemm_preferred(std::int64_t m, std::int64_t n, std::int64_t k, bool weight_only, int sms,
                           bool streaming_clusters = false);

// D = alpha * A x B^T when skinny_gemm_supports.
void launch_skinny_gemm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                        const MatrixView& d, cudaStream_t stream);

// Whether the weight-only GEMM can run here: skinny_gemm_supports, and the BF16 activation's
// address and row pitch 16-byte multiples (each thread loads 16 bytes of a row).
bool skinny_weight_only_supports(const ConstMatrixView& a, const ConstMxOperand& w);

// D = alpha * A x dequant(W)^T (+ bias) when skinny_weight_only_supports.
void launch_skinny_weight_only(const ConstMatrixView& a, const ConstMxOperand& w, const float* alpha,
                               const ConstMatrixView* bias, const MatrixView& d, cudaStream_t stream);

// One instantiation per weight type, activation type (fp8 codes or BF16 values) and number
// of 8-row activation tiles, in skinny_gemm_{codes,values}.cu (kPrepackedW: a weight in
// KOrder::Prepacked, BF16 activations). w: the weight (its scales), a: the MXFP8 activation (its
// scales), null for BF16 activations.
template <DType kElemW, DType kElemX, int kNTiles, bool kPrepackedW = false>
void launch_skinny_kernel(SkinnyGemmParams p, const ConstMxOperand& w, const ConstMxOperand* a,
                          cudaStream_t stream);

}  // namespace mxgemm::sm90
