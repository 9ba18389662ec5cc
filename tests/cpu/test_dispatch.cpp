// Backend selection: without a usable GPU backend the GPU entry points say so clearly,
// after validation, and never crash.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "common/expect_error.hpp"
#include "core/dispatch.hpp"
#include "core/kernel_override.hpp"
#include "core/validate.hpp"
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


// ---- architecture dispatch, on fake device queries ---------------------------------------

detail::DeviceQuery fake_device(int major, int minor, const char* name) {
  detail::DeviceQuery q;
  q.present = true;
  q.major = major;
  q.minor = minor;
  q.name = name;
  return q;
}

TEST(Dispatch, HopperGetsTheSm90Kernels) {
  for (bool sm100 : {false, true}) {
    const detail::BackendChoice c = detail::select_gemm_backend(fake_device(9, 0, "NVIDIA H200"), sm100);
    EXPECT_EQ(c.backend, detail::GemmBackend::Sm90);
    EXPECT_TRUE(c.info.available);
    EXPECT_EQ(c.info.name, "sm90a (Hopper)");
  }
}

TEST(Dispatch, BlackwellGetsTheCutlassKernelWhenBuilt) {
  const detail::BackendChoice c = detail::select_gemm_backend(fake_device(10, 0, "NVIDIA B200"), true);
  EXPECT_EQ(c.backend, detail::GemmBackend::Sm100);
  EXPECT_EQ(c.info.name, "sm100a (Blackwell, CUTLASS)");
}

TEST(Dispatch, BlackwellWithoutTheSm100BuildSaysWhy) {
  const detail::BackendChoice c = detail::select_gemm_backend(fake_device(10, 0, "NVIDIA B200"), false);
  EXPECT_EQ(c.backend, detail::GemmBackend::None);
  EXPECT_FALSE(c.info.available);
  EXPECT_NE(c.info.reason.find("NVIDIA B200 (compute capability 10.0)"), std::string::npos) << c.info.reason;
  EXPECT_NE(c.info.reason.find("without CUTLASS headers"), std::string::npos) << c.info.reason;
}

TEST(Dispatch, OtherArchitecturesAreRefusedNamingDeviceAndSupported) {
  const struct { int major, minor; const char* name; } devices[] = {
      {8, 0, "NVIDIA A100"}, {8, 9, "NVIDIA L40S"}, {10, 3, "NVIDIA B300"}, {12, 0, "RTX 5090"}};
  for (const auto& d : devices) {
    const detail::BackendChoice c = detail::select_gemm_backend(fake_device(d.major, d.minor, d.name), true);
    EXPECT_EQ(c.backend, detail::GemmBackend::None) << d.name;
    EXPECT_NE(c.info.reason.find(d.name), std::string::npos) << c.info.reason;
    EXPECT_NE(c.info.reason.find("supported: compute capability 9.0 (sm_90a: H100, H200) and 10.0"),
              std::string::npos) << c.info.reason;
  }
}

TEST(Dispatch, NoDeviceReasonIsPassedThrough) {
  detail::DeviceQuery q;
  q.error = "no CUDA device (cudaGetDeviceCount: test)";
  const detail::BackendChoice c = detail::select_gemm_backend(q, true);
  EXPECT_EQ(c.backend, detail::GemmBackend::None);
  EXPECT_EQ(c.info.reason, q.error);
}

// CI sets MXGEMM_EXPECT_SM100=1: the sm_100a path must have been compiled, so it cannot rot.
TEST(Dispatch, Sm100PathIsBuiltWhenCiExpectsIt) {
  const char* expect = std::getenv("MXGEMM_EXPECT_SM100");
  if (expect == nullptr || std::string(expect) != "1")
    GTEST_SKIP() << "MXGEMM_EXPECT_SM100 is not set (CI sets it)";
  EXPECT_TRUE(detail::sm100_path_built())
      << "the sm_100a CUTLASS path was configured off (CUTLASS headers not found)";
}

// ---- what the sm_100 path adds to the contract -------------------------------------------

struct Sm100Case {
  alignas(16) std::uint8_t bytes[64] = {};
  ConstMxOperand a, b;
  MatrixView d;
  Sm100Case() {
    const ConstMatrixView data(bytes, 128, 64, 64, DType::E4M3, Memory::Device);
    const ConstMatrixView scales(bytes, 128, 4, 4, DType::E8M0, Memory::Device);
    a = ConstMxOperand(data, scales, ScaleLayout::Swizzled128x4);
    b = a;
    d = MatrixView(bytes, 128, 128, 128, DType::BF16, Memory::Device);
  }
  void check() { detail::validate_gemm_sm100_support("mxfp8_scaled_mm", a, b, d); }
};

// The tests' and the bench's forced choices (core/kernel_override.hpp): a scope sets one and
// restores the one before it, nested scopes unwind in order, and each thread has its own (a
// choice made on one thread never reaches another's launches).
TEST(KernelOverride, ScopedChoicesNestRestoreAndStayOnTheirThread) {
  ASSERT_EQ(detail::stream_split_k(), detail::StreamSplitK::Auto);
  {
    const detail::ScopedStreamSplitK outer(detail::StreamSplitK::Clusters);
    EXPECT_EQ(detail::stream_split_k(), detail::StreamSplitK::Clusters);
    {
      const detail::ScopedStreamSplitK inner(detail::StreamSplitK::Never);
      const detail::ScopedSm90Kernel kernel(detail::Sm90Kernel::Tiled);
      EXPECT_EQ(detail::stream_split_k(), detail::StreamSplitK::Never);
      EXPECT_EQ(detail::sm90_kernel(), detail::Sm90Kernel::Tiled);
      detail::StreamSplitK other_thread = detail::StreamSplitK::Never;
      detail::Sm90Kernel other_kernel = detail::Sm90Kernel::Tiled;
      std::thread([&] {
        other_thread = detail::stream_split_k();
        other_kernel = detail::sm90_kernel();
      }).join();
      EXPECT_EQ(other_thread, detail::StreamSplitK::Auto);
      EXPECT_EQ(other_kernel, detail::Sm90Kernel::Auto);
    }
    EXPECT_EQ(detail::stream_split_k(), detail::StreamSplitK::Clusters);
    EXPECT_EQ(detail::sm90_kernel(), detail::Sm90Kernel::Auto);
  }
  EXPECT_EQ(detail::stream_split_k(), detail::StreamSplitK::Auto);
  EXPECT_EQ(detail::set_stream_mx_values(detail::StreamMxValues::Bf16), detail::StreamMxValues::Auto);
  EXPECT_EQ(detail::set_stream_mx_values(detail::StreamMxValues::Auto), detail::StreamMxValues::Bf16);
  EXPECT_EQ(detail::set_stream_early_fixup(detail::StreamEarlyFixup::Never), detail::StreamEarlyFixup::Auto);
  EXPECT_EQ(detail::set_stream_early_fixup(detail::StreamEarlyFixup::Auto), detail::StreamEarlyFixup::Never);
}

TEST(Sm100Support, AcceptsTheOriginalContract) {
  Sm100Case c;
  EXPECT_NO_THROW(c.check());
  c.d.dtype = DType::FP16;
  EXPECT_NO_THROW(c.check());
}

TEST(Sm100Support, RefusesWhatTheCutlassKernelCannotRun) {
  using testing::expect_error;
  {
    Sm100Case c;
    c.b.data.dtype = DType::E5M2;
    expect_error<UnsupportedError>([&] { c.check(); },
                                   {"mxfp8_scaled_mm: b.data.dtype: expected e4m3 on the sm_100 path", "got e5m2"});
  }
  {
    Sm100Case c;
    c.a.layout = ScaleLayout::Linear;
    expect_error<UnsupportedError>([&] { c.check(); },
                                   {"a.layout", "swizzled128x4 scales on the sm_100 path", "got linear"});
  }
  {
    Sm100Case c;
    c.d.dtype = DType::FP32;
    expect_error<UnsupportedError>([&] { c.check(); }, {"d.dtype", "bf16 or fp16 on the sm_100 path", "got fp32"});
  }
  {
    Sm100Case c;
    c.d.cols = 100;
    expect_error<UnsupportedError>([&] { c.check(); }, {"N (d.cols)", "a multiple of 8", "got 100"});
  }
  {
    Sm100Case c;
    c.d.row_stride = 132;
    expect_error<UnsupportedError>([&] { c.check(); }, {"d.row_stride", "multiple of 8 elements", "got 132"});
  }
  {
    Sm100Case c;
    c.d.data = c.bytes + 2;
    expect_error<UnsupportedError>([&] { c.check(); }, {"d.data", "16-byte aligned", "got address 0x"});
  }
  {
    Sm100Case c;
    c.b.scales.data = c.bytes + 4;
    expect_error<UnsupportedError>([&] { c.check(); }, {"b.scales.data", "16-byte aligned", "got address 0x"});
  }
}

}  // namespace
}  // namespace mxgemm
