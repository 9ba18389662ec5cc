// Helpers for the GPU suites: skip cleanly where there is no CUDA device (CI has none),
// and device buffers poisoned before a run with guard bands around them, checked after.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace mxgemm::testing {

// True when a CUDA device is usable; otherwise `why` says what the runtime answered.
inline bool cuda_device_present(std::string* why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    *why = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(err);
    cudaGetLastError();
    return false;
  }
  if (count == 0) {
    *why = "cudaGetDeviceCount returned 0";
    return false;
  }
  return true;
}

// Compute capability of the current device as major * 10 + minor (0 when unknown).
inline int current_compute_capability() {
  int dev = 0, major = 0, minor = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return major * 10 + minor;
}

}  // namespace mxgemm::testing

// First statement of every GPU test: skips it where no CUDA device is usable.
#define MXGEMM_REQUIRE_GPU()                                         \
  do {                                                               \
    std::string mxgemm_why_;                                         \
    if (!::mxgemm::testing::cuda_device_present(&mxgemm_why_))       \
      GTEST_SKIP() << "no CUDA device: " << mxgemm_why_;             \
  } while (0)

// Asserts that a CUDA runtime call succeeded, naming the call and the error.
#define MXGEMM_ASSERT_CUDA(call)                                                   \
  do {                                                                             \
    const cudaError_t mxgemm_err_ = (call);                                        \
    ASSERT_EQ(mxgemm_err_, cudaSuccess) << #call << ": " << cudaGetErrorString(mxgemm_err_); \
  } while (0)

namespace mxgemm::testing {

// A device allocation of `size` bytes with guard bands on both sides. The bands hold a
// fixed pseudo-random pattern and the payload starts poisoned with `poison`;
// guards_intact() says whether the bands survived, download() returns the payload. The
// payload starts kGuard bytes into a cudaMalloc block, so it is 256-byte aligned.
class GuardedDeviceBuffer {
 public:
  static constexpr std::size_t kGuard = 4096;

  explicit GuardedDeviceBuffer(std::size_t size, std::uint8_t poison = 0xAB) : size_(size) {
    if (cudaMalloc(&base_, size + 2 * kGuard) != cudaSuccess) {
      cudaGetLastError();
      base_ = nullptr;
      ADD_FAILURE() << "cudaMalloc of " << size + 2 * kGuard << " bytes failed";
      return;
    }
    std::vector<std::uint8_t> init(size + 2 * kGuard, poison);
    for (std::size_t i = 0; i < kGuard; ++i) {
      init[i] = guard_byte(i);
      init[kGuard + size + i] = guard_byte(kGuard + i);
    }
    EXPECT_EQ(cudaMemcpy(base_, init.data(), init.size(), cudaMemcpyHostToDevice), cudaSuccess);
  }
  GuardedDeviceBuffer(const GuardedDeviceBuffer&) = delete;
  GuardedDeviceBuffer& operator=(const GuardedDeviceBuffer&) = delete;
  ~GuardedDeviceBuffer() {
    if (base_ != nullptr) cudaFree(base_);
  }

  bool ok() const { return base_ != nullptr; }
  void* data() const { return static_cast<std::uint8_t*>(base_) + kGuard; }
  std::size_t size() const { return size_; }

  // Copies the first n (default: size()) host bytes at `src` into the payload.
  void upload(const void* src, std::size_t n) const {
    ASSERT_LE(n, size_);
    EXPECT_EQ(cudaMemcpy(data(), src, n, cudaMemcpyHostToDevice), cudaSuccess);
  }
  void upload(const void* src) const { upload(src, size_); }
  std::vector<std::uint8_t> download() const {
    std::vector<std::uint8_t> out(size_);
    EXPECT_EQ(cudaMemcpy(out.data(), data(), size_, cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }
  // True when both guard bands still hold their pattern.
  bool guards_intact() const {
    std::vector<std::uint8_t> all(size_ + 2 * kGuard);
    if (cudaMemcpy(all.data(), base_, all.size(), cudaMemcpyDeviceToHost) != cudaSuccess)
      return false;
    for (std::size_t i = 0; i < kGuard; ++i)
      if (all[i] != guard_byte(i) || all[kGuard + size_ + i] != guard_byte(kGuard + i))
        return false;
    return true;
  }

 private:
  static std::uint8_t guard_byte(std::size_t i) {
    return static_cast<std::uint8_t>((i * 2654435761u) >> 13);
  }
  void* base_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace mxgemm::testing
