// Part of mxgemm_bench (apps/bench_gemm.cu), its only translation unit: the shared GPU state and
// the cuBLASLt plans of the peers.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/device_checks.cuh"  // CompareSums
#include "bench/host_util.hpp"
#include "bench/options.hpp"

namespace mxgemm::bench {

// Shared GPU state: stream, cuBLAS handles, workspace, alpha.

struct Gpu {
  cudaDeviceProp prop{};
  cudaStream_t stream = nullptr;
  cublasLtHandle_t lt = nullptr;
  cublasHandle_t blas = nullptr;
  static constexpr std::size_t kWorkspace = std::size_t{32} << 20;  // cuBLAS' advice for Hopper
  DeviceBuffer workspace, alpha, cmp;
  std::size_t rotate_bytes = 0;  // what one method's input copies must exceed together

  Gpu() {
    int dev = 0;
    MXGEMM_CUDA_CHECK(cudaGetDevice(&dev));
    MXGEMM_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    MXGEMM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUBLAS_CHECK(cublasLtCreate(&lt));
    CUBLAS_CHECK(cublasCreate(&blas));
    workspace = DeviceBuffer(kWorkspace);
    CUBLAS_CHECK(cublasSetStream(blas, stream));
    CUBLAS_CHECK(cublasSetWorkspace(blas, workspace.get(), kWorkspace));
    alpha = DeviceBuffer(sizeof(float));
    const float one = 1.0f;
    MXGEMM_CUDA_CHECK(cudaMemcpy(alpha.get(), &one, sizeof(float), cudaMemcpyHostToDevice));
    cmp = DeviceBuffer(sizeof(CompareSums));
    rotate_bytes = std::max<std::size_t>(2 * static_cast<std::size_t>(prop.l2CacheSize),
                                         std::size_t{120} << 20);
  }
  ~Gpu() {
    if (blas) cublasDestroy(blas);
    if (lt) cublasLtDestroy(lt);
    if (stream) warn_cuda(cudaStreamDestroy(stream), "cudaStreamDestroy");
  }
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  int copies_for(std::size_t set_bytes) const {
    return static_cast<int>(std::max<std::size_t>(2, (rotate_bytes + set_bytes - 1) / set_bytes));
  }
};

// A cuBLASLt plan for D (M x N row-major, BF16) = A (M x K row-major) x B (N x K row-major)^T.
// cuBLAS is column-major: D row-major M x N is D^T column-major N x M (ld N), and
// D^T = B x A^T. B row-major N x K is column-major K x N (ld K): cuBLAS's A with op T.
// A row-major M x K is column-major K x M (ld K): cuBLAS's B with op N. This is the "TN"
// layout cuBLASLt's fp8 kernels require.
// The FP8 plan is set up as torch._scaled_mm sets up cuBLASLt (C of D's type, C = nullptr
// with beta = 0, one fp32 scale per operand behind A/B_SCALE_POINTER). The heuristic's
// candidates are kept: the first call walks down the list past any that cublasLtMatmul
// refuses, and later calls use the one that ran.
class LtPlan {
 public:
  LtPlan(const Gpu& gpu, const Shape& sh, cudaDataType_t in, const float* scale_a_dev,
         const float* scale_b_dev, bool fast_accum)
      : sh_(sh), fp8_(scale_a_dev != nullptr) {
    CUBLAS_CHECK(cublasLtMatmulDescCreate(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t t = CUBLAS_OP_T, nn = CUBLAS_OP_N;
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof(t)));
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &nn, sizeof(nn)));
    if (fp8_) {
      // cuBLAS's A is our B and vice versa.
      CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                                                  &scale_b_dev, sizeof(scale_b_dev)));
      CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
                                                  &scale_a_dev, sizeof(scale_a_dev)));
      const std::int8_t fa = fast_accum ? 1 : 0;
      CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fa, sizeof(fa)));
    }
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&la_, in, sh.k, sh.n, sh.k));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lb_, in, sh.k, sh.m, sh.k));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lc_, CUDA_R_16BF, sh.n, sh.m, sh.n));
    cublasLtMatmulPreference_t pref = nullptr;
    CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
    const std::uint64_t ws = Gpu::kWorkspace;
    cublasLtMatmulHeuristicResult_t res[kCandidates] = {};
    int found = 0;
    cublasStatus_t st = cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
    if (st == CUBLAS_STATUS_SUCCESS)
      st = cublasLtMatmulAlgoGetHeuristic(gpu.lt, desc_, la_, lb_, lc_, lc_, pref, kCandidates, res, &found);
    cublasLtMatmulPreferenceDestroy(pref);
    CUBLAS_CHECK(st);
    if (found == 0) throw std::runtime_error("cublasLtMatmulAlgoGetHeuristic: no algorithm for " + what());
    for (int i = 0; i < found; ++i) algos_.push_back(res[i].algo);
  }
  ~LtPlan() {
    if (lc_) cublasLtMatrixLayoutDestroy(lc_);
    if (lb_) cublasLtMatrixLayoutDestroy(lb_);
    if (la_) cublasLtMatrixLayoutDestroy(la_);
    if (desc_) cublasLtMatmulDescDestroy(desc_);
  }
  LtPlan(const LtPlan&) = delete;
  LtPlan& operator=(const LtPlan&) = delete;

  // The first call tries each candidate with C = nullptr (FP8; torch's way) and then, for
  // FP8, each again with C = D (in place); later calls repeat what ran.
  void run(const Gpu& gpu, const void* a, const void* b, void* d) {
    const float one = 1.0f, zero = 0.0f;
    for (;;) {
      const void* c = fp8_ && !c_is_d_ ? nullptr : d;
      const cublasStatus_t st =
          cublasLtMatmul(gpu.lt, desc_, &one, b, la_, a, lb_, &zero, c, lc_, d, lc_, &algos_[chosen_],
                         gpu.workspace.get(), Gpu::kWorkspace, gpu.stream);
      if (st == CUBLAS_STATUS_SUCCESS) {
        pinned_ = true;
        return;
      }
      const bool last = chosen_ + 1 >= algos_.size() && (!fp8_ || c_is_d_);
      if (pinned_ || st != CUBLAS_STATUS_NOT_SUPPORTED || last)
        throw std::runtime_error(std::string("cublasLtMatmul: ") + cublasLtGetStatusName(st) + " (" +
                                 cublasLtGetStatusString(st) + ") for " + what() + "; tried " +
                                 std::to_string(algos_.size()) + " heuristic candidate(s)" +
                                 (fp8_ ? " with C = nullptr and C = D" : ""));
      if (++chosen_ >= algos_.size()) {
        chosen_ = 0;
        c_is_d_ = true;
      }
    }
  }
  // What ran, when it is not the plain choice (cuBLAS's first candidate, C as torch passes it).
  std::string fallback() const {
    if (chosen_ == 0 && !(fp8_ && c_is_d_)) return "";
    return "heuristic candidate " + std::to_string(chosen_ + 1) + (fp8_ && c_is_d_ ? ", C = D" : "");
  }

 private:
  static constexpr int kCandidates = 8;
  std::string what() const {
    return std::string(fp8_ ? "e4m3 x e4m3" : "bf16 x bf16") + " -> bf16, TN, m=" + std::to_string(sh_.n) +
           " n=" + std::to_string(sh_.m) + " k=" + std::to_string(sh_.k);
  }
  Shape sh_;
  bool fp8_;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t la_ = nullptr, lb_ = nullptr, lc_ = nullptr;
  std::vector<cublasLtMatmulAlgo_t> algos_;
  std::size_t chosen_ = 0;
  bool c_is_d_ = false;
  bool pinned_ = false;
};

}  // namespace mxgemm::bench
