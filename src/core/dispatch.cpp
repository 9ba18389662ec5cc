// Public GPU entry points: validate, pick a backend by device architecture, launch.
#include <cuda_runtime_api.h>

#include "core/check.hpp"
#include "core/device.hpp"
#include "core/validate.hpp"
#include "cuda/quantize/launch.hpp"
#include "cuda/sm90/mxfp8_gemm_sm90.hpp"
#include "mxgemm/gemm.hpp"
#include "mxgemm/quantize.hpp"

namespace mxgemm {
namespace detail {

DeviceQuery query_current_device() {
  DeviceQuery q;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    q.error = err != cudaSuccess
                  ? concat("no CUDA device (cudaGetDeviceCount: ", cudaGetErrorString(err), ")")
                  : std::string("no CUDA device (cudaGetDeviceCount returned 0)");
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return q;
  }
  cudaDeviceProp prop{};
  if ((err = cudaGetDevice(&q.device)) != cudaSuccess ||
      (err = cudaGetDeviceProperties(&prop, q.device)) != cudaSuccess) {
    q.error = concat("cannot query the current CUDA device: ", cudaGetErrorString(err));
    cudaGetLastError();
    return q;
  }
  q.present = true;
  q.major = prop.major;
  q.minor = prop.minor;
  q.name = prop.name;
  return q;
}

namespace {

const char* kSupported = "supported: sm_90 (Hopper, H100/H200)";

// Which GEMM kernel family serves this device, or why none does.
BackendInfo select_gemm_backend(const DeviceQuery& dev) {
  BackendInfo info;
  if (!dev.present) {
    info.reason = dev.error;
    return info;
  }
  if (dev.major == 9 && dev.minor == 0) {
    info.available = true;
    info.name = "sm90a (Hopper)";
    return info;
  }
  info.reason = concat("no mxgemm GPU kernel for ", dev.name, " (compute capability ",
                       dev.major, ".", dev.minor, "); ", kSupported,
                       "; mxfp8_scaled_mm_reference runs on the CPU");
  return info;
}

// The quantize kernels need no Hopper-only instruction: any device of compute capability
// 8.9 or newer that this binary has code for runs them.
void require_quantize_kernels(const char* fn, const DeviceQuery& dev) {
  const std::string why = quantize_kernels_unavailable(dev);
  if (!why.empty()) throw UnsupportedError(concat(fn, ": no GPU backend can run here: ", why));
}

[[noreturn]] void throw_no_backend(const char* fn, const BackendInfo& info) {
  throw UnsupportedError(concat(fn, ": no GPU backend can run here: ", info.reason));
}

}  // namespace
}  // namespace detail

BackendInfo gemm_backend() { return detail::select_gemm_backend(detail::query_current_device()); }

void mxfp8_scaled_mm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                     MatrixView d, cudaStream_t stream, bool skip_checks) {
  constexpr const char* fn = "mxfp8_scaled_mm";
  const detail::DeviceQuery dev = detail::query_current_device();
  detail::validate_gemm(fn, a, b, alpha, /*alpha_is_value=*/false, d,
                        {Memory::Device, dev.present && !skip_checks});
  const BackendInfo info = detail::select_gemm_backend(dev);
  if (!info.available) detail::throw_no_backend(fn, info);
  sm90::launch_mxfp8_gemm(a, b, alpha, d, stream);
}

void quantize_mxfp8(ConstMatrixView x, const MxOperand& q, ScaleRounding rounding,
                    cudaStream_t stream) {
  constexpr const char* fn = "quantize_mxfp8";
  const detail::DeviceQuery dev = detail::query_current_device();
  detail::validate_quantize(fn, x, q, {Memory::Device, dev.present});
  detail::require_quantize_kernels(fn, dev);
  detail::launch_quantize_rowwise(x, q, rounding, stream);
}

void quantize_mxfp8_columnwise(ConstMatrixView x, const MxOperand& qt, ScaleRounding rounding,
                               cudaStream_t stream) {
  constexpr const char* fn = "quantize_mxfp8_columnwise";
  const detail::DeviceQuery dev = detail::query_current_device();
  detail::validate_quantize_columnwise(fn, x, qt, {Memory::Device, dev.present});
  detail::require_quantize_kernels(fn, dev);
  detail::launch_quantize_columnwise(x, qt, rounding, stream);
}

void dequantize_mxfp8(const ConstMxOperand& q, MatrixView out, cudaStream_t stream) {
  constexpr const char* fn = "dequantize_mxfp8";
  const detail::DeviceQuery dev = detail::query_current_device();
  detail::validate_dequantize(fn, q, out, {Memory::Device, dev.present});
  detail::require_quantize_kernels(fn, dev);
  detail::launch_dequantize(q, out, stream);
}

}  // namespace mxgemm
