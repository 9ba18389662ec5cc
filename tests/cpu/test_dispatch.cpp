// Backend selection: without a usable GPU backend the GPU entry points say so clearly,
// after validation, and never crash.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mxgemm/mxgemm.hpp"

namespace mxgemm {
namespace {

bool cuda_device_present() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  cudaGetLastError();
  return ok;
}

TEST(Dispatch, BackendInfoIsConsistent) {
  const BackendInfo info = gemm_backend();
  if (info.available) {
    EXPECT_FALSE(info.name.empty());
    EXPECT_TRUE(info.reason.empty());
  } else {
    EXPECT_TRUE(info.name.empty());
    EXPECT_FALSE(info.reason.empty());
  }
  if (!cuda_device_present()) {
    EXPECT_FALSE(info.available);
    EXPECT_NE(info.reason.find("no CUDA device"), std::string::npos) << info.reason;
  }
}

TEST(Dispatch, GpuGemmWithoutGpuSaysSo) {
  if (cuda_device_present()) GTEST_SKIP() << "a CUDA device is present: this test is for machines without one";
  // Valid shapes, declared Device: validation passes (no driver to ask), then the
  // dispatcher must refuse with UnsupportedError naming the reason.
  alignas(16) static std::uint8_t a[64 * 32], b[48 * 32], sa[128 * 4], sb[128 * 4];
  alignas(16) static float d[64 * 48];
  static const float alpha = 1.0f;
  const ConstMxOperand A(contiguous<const void>(a, 64, 32, DType::E4M3, Memory::Device),
                         contiguous<const void>(sa, 128, 4, DType::E8M0, Memory::Device),
                         ScaleLayout::Swizzled128x4);
  const ConstMxOperand B(contiguous<const void>(b, 48, 32, DType::E4M3, Memory::Device),
                         contiguous<const void>(sb, 128, 4, DType::E8M0, Memory::Device),
                         ScaleLayout::Swizzled128x4);
  try {
    mxfp8_scaled_mm(A, B, &alpha, contiguous<void>(d, 64, 48, DType::FP32, Memory::Device));
    FAIL() << "expected UnsupportedError";
  } catch (const UnsupportedError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("mxfp8_scaled_mm: no GPU backend can run here"), std::string::npos) << msg;
    EXPECT_NE(msg.find("no CUDA device"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace mxgemm
