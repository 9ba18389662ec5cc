// Public GPU entry points: validate, pick a backend by device architecture, launch.
#include <cuda_runtime_api.h>

#include "core/check.hpp"
#include "core/device.hpp"
#include "core/dispatch.hpp"
#include "core/per_device.hpp"
#include "core/validate.hpp"
#include "cuda/common/stream_turns.hpp"
#include "cuda/quantize/launch.hpp"
#include "cuda/sm100/mxfp8_gemm_sm100.hpp"
#include "cuda/sm90/mxfp8_gemm_sm90.hpp"
#include "mxgemm/gemm.hpp"
#include "mxgemm/prepack.hpp"
#include "mxgemm/quantize.hpp"
#include "mxgemm/weight_only.hpp"

namespace mxgemm {
namespace detail {

namespace {

// The query without the cache: how many devices, which is current, its name and compute
// capability (cudaGetDeviceProperties, which reads every property: slow, see below).
DeviceQuery read_current_device() {
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

}  // namespace

// Every entry point asks, so a usable device's answer is kept per device: what it returns is
// fixed for the device's life, and cudaGetDeviceProperties reads every property of the device
// (some from the driver) each time. Only cudaGetDevice runs per call once a device is known.
DeviceQuery query_current_device() {
  static PerDevice<DeviceQuery> known;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return read_current_device();
  }
  return known.get(
      device, [](int) { return read_current_device(); }, [](const DeviceQuery& q) { return q.present; });
}

BackendChoice select_gemm_backend(const DeviceQuery& dev, bool sm100_built) {
  BackendChoice c;
  if (!dev.present) {
    c.info.reason = dev.error;
    return c;
  }
  const std::string device = concat(dev.name, " (compute capability ", dev.major, ".", dev.minor, ")");
  if (dev.major == 9 && dev.minor == 0) {
    c.backend = GemmBackend::Sm90;
    c.info.available = true;
    c.info.name = "sm90a (Hopper)";
  } else if (dev.major == 10 && dev.minor == 0 && sm100_built) {
    c.backend = GemmBackend::Sm100;
    c.info.available = true;
    c.info.name = "sm100a (Blackwell, CUTLASS)";
  } else if (dev.major == 10 && dev.minor == 0) {
    c.info.reason = concat(device, " needs the sm_100 path, which this build does not have: "
                                   "it was configured without CUTLASS headers (MXGEMM_SM100; "
                                   "see README)");
  } else {
    c.info.reason = concat("no mxgemm GPU kernel for ", device,
                           "; supported: compute capability 9.0 (sm_90a: H100, H200) and "
                           "10.0 (sm_100a: B200, GB200); mxfp8_scaled_mm_reference runs on "
                           "the CPU");
  }
  return c;
}

bool sm100_path_built() {
#if defined(MXGEMM_HAVE_SM100)
  return true;
#else
  return false;
#endif
}

namespace {

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

BackendInfo gemm_backend() {
  return detail::select_gemm_backend(detail::query_current_device(), detail::sm100_path_built()).info;
}

void mxfp8_scaled_mm(const ConstMxOperand& a, const ConstMxOperand& b, const float* alpha,
                     MatrixView d, cudaStream_t stream, bool skip_checks) {
  constexpr const char* fn = "mxfp8_scaled_mm";
  const detail::DeviceQuery dev = detail::query_current_device();
  detail::validate_gemm(fn, a, b, alpha, /*alpha_is_value=*/false, d,
                        {Memory::Device, dev.present && !skip_checks});
  const detail::BackendChoice choice = detail::select_gemm_backend(dev, detail::sm100_path_built());
  switch (choice.backend) {
    case detail::GemmBackend::Sm90: {
      const cuda::StreamTurns::Turn turn = cuda::gemm_turns().take(stream);  // the scratch memory's
      sm90::launch_mxfp8_gemm(a, b, alpha, d, stream);
      return;
    }
    case detail::GemmBackend::Sm100: {
      detail::validate_gemm_sm100_support(fn, a, b, d);
      const cuda::StreamTurns::Turn turn = cuda::gemm_turns().take(stream);
      sm100::launch_mxfp8_gemm(a, b, alpha, d, stream);
      return;
    }
    case detail::GemmBackend::None:
      break;
  }
  detail::throw_no_backend(fn, choice.info);
}

void mxfp8_weight_only_mm(const ConstMatrixView& a, const ConstMxOperand& w, const float* alpha,
                          const ConstMatrixView* bias, MatrixView d, cudaStream_t stream,
                          bool skip_checks) {
  constexpr const char* fn = "mxfp8_weight_only_mm";
  const detail::DeviceQuery dev = detail::query_current_device();
  detail::validate_weight_only(fn, a, w, alpha, /*alpha_is_value=*/false, bias, d,
                               {Memory::Device, dev.present && !skip_checks});
  const detail::BackendChoice choice = detail::select_gemm_backend(dev, detail::sm100_path_built());
  switch (choice.backend) {
    case detail::GemmBackend::Sm90: {
      // FP16 activations run the fp16 values form, built for E4M3 weights only (an E5M2 code
      // times its scale is an exact fp16 value in a window of 9 binades, against E4M3's 21).
      if (a.dtype == DType::FP16 && w.data.dtype != DType::E4M3)
        detail::fail<UnsupportedError>(fn, "w.data.dtype",
                                       "e4m3 with fp16 activations on sm_90 (bf16 activations take "
                                       "e5m2 weights; mxfp8_weight_only_mm_reference takes both)",
                                       dtype_name(w.data.dtype));
      // A prepacked weight meets the activation in the permuted-order instances, which multiply
      // BF16 values (or the fp16 values form's pre-pass of them).
      if (w.order == KOrder::Prepacked && a.dtype != DType::BF16)
        detail::fail<UnsupportedError>(fn, "a.dtype", "bf16 with a prepacked weight on sm_90 (fp16 activations take "
                                                      "the natural order; mxfp8_weight_only_mm_reference takes both)",
                                       dtype_name(a.dtype));
      const cuda::StreamTurns::Turn turn = cuda::gemm_turns().take(stream);
      sm90::launch_weight_only(a, w, alpha, bias, d, stream);
      return;
    }
    case detail::GemmBackend::Sm100:
      throw UnsupportedError(detail::concat(fn, ": no GPU backend can run here: the weight-only "
                                                "GEMM has no sm_100 kernel yet (",
                                            choice.info.name, ")"));
    case detail::GemmBackend::None:
      break;
  }
  detail::throw_no_backend(fn, choice.info);
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

void mxfp8_prepack_weight(const ConstMatrixView& w, MatrixView out, cudaStream_t stream) {
  constexpr const char* fn = "mxfp8_prepack_weight";
  const detail::DeviceQuery dev = detail::query_current_device();
  detail::validate_prepack(fn, w, out, {Memory::Device, dev.present});
  detail::require_quantize_kernels(fn, dev);
  detail::launch_prepack_weight(w, out, stream);
}

}  // namespace mxgemm
