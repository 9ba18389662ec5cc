// Part of mxgemm_bench (apps/bench_gemm.cu), its only translation unit: error checks, the owning
// device buffer and small host helpers.
#pragma once

#include <cublasLt.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench/options.hpp"  // i64
#include "core/check.hpp"    // MXGEMM_CUDA_CHECK

namespace mxgemm::bench {

[[noreturn]] inline void throw_cublas(cublasStatus_t st, const char* call, const char* file, int line) {
  throw std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                           ": " + cublasLtGetStatusName(st) + " (" + cublasLtGetStatusString(st) +
                           ")");
}
#define CUBLAS_CHECK(call)                                                   \
  do {                                                                       \
    const cublasStatus_t st_ = (call);                                       \
    if (st_ != CUBLAS_STATUS_SUCCESS) throw_cublas(st_, #call, __FILE__, __LINE__); \
  } while (0)

inline void warn_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::fprintf(stderr, "warning: %s: %s\n", what, cudaGetErrorString(e));
}

// Owning device allocation; movable, never copied.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes) MXGEMM_CUDA_CHECK(cudaMalloc(&ptr_, bytes));
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void reset() {
    if (ptr_) warn_cuda(cudaFree(ptr_), "cudaFree");
    ptr_ = nullptr;
    bytes_ = 0;
  }
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Runs fn(begin, end) over [0, n) in contiguous chunks on all cores.
template <typename Fn>
void parallel_for(i64 n, const Fn& fn) {
  const i64 hw = std::max(1u, std::thread::hardware_concurrency());
  const i64 t = std::max<i64>(1, std::min(hw, n));
  std::vector<std::thread> pool;
  for (i64 i = 1; i < t; ++i) pool.emplace_back([&, i] { fn(n * i / t, n * (i + 1) / t); });
  fn(0, n / t);
  for (auto& th : pool) th.join();
}

inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

inline float bf16_to_float(std::uint16_t h) {
  const std::uint32_t u = std::uint32_t{h} << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace mxgemm::bench
