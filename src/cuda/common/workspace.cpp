#include "cuda/common/workspace.hpp"

#include <cuda_runtime_api.h>

#include <mutex>
#include <unordered_map>

#include "core/check.hpp"

namespace mxgemm::cuda {

namespace {

struct Buffer {
  void* ptr = nullptr;
  std::size_t size = 0;
};

// A per-device buffer of at least `bytes` from `buffers` (by device ordinal, kept for the
// process); `grown` says whether it was (re)allocated by this call.
void* grow_buffer(std::unordered_map<int, Buffer>& buffers, std::mutex& mutex, std::size_t bytes,
                  bool& grown) {
  grown = false;
  int device = 0;
  MXGEMM_CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(mutex);
  Buffer& b = buffers[device];
  if (b.size < bytes) {
    // The old buffer may still be in use by queued work: wait before freeing it.
    if (b.ptr != nullptr) {
      MXGEMM_CUDA_CHECK(cudaDeviceSynchronize());
      MXGEMM_CUDA_CHECK(cudaFree(b.ptr));
      b = Buffer{};
    }
    MXGEMM_CUDA_CHECK(cudaMalloc(&b.ptr, bytes));
    b.size = bytes;
    grown = true;
  }
  return b.ptr;
}

}  // namespace

void* device_workspace(std::size_t bytes) {
  static std::mutex mutex;
  static std::unordered_map<int, Buffer> buffers;
  if (bytes == 0) return nullptr;
  bool grown = false;
  return grow_buffer(buffers, mutex, bytes, grown);
}

unsigned int* device_zeroed_counters(std::size_t count, cudaStream_t stream) {
  static std::mutex mutex;
  static std::unordered_map<int, Buffer> buffers;
  if (count == 0) return nullptr;
  bool grown = false;
  void* p = grow_buffer(buffers, mutex, count * sizeof(unsigned int), grown);
  if (grown) MXGEMM_CUDA_CHECK(cudaMemsetAsync(p, 0, count * sizeof(unsigned int), stream));
  return static_cast<unsigned int*>(p);
}

}  // namespace mxgemm::cuda
