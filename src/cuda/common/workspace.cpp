#include "cuda/common/workspace.hpp"

#include <cuda_runtime_api.h>

#include <mutex>
#include <unordered_map>

#include "core/check.hpp"

namespace mxgemm::cuda {

void* device_workspace(std::size_t bytes) {
  struct Buffer {
    void* ptr = nullptr;
    std::size_t size = 0;
  };
  static std::mutex mutex;
  static std::unordered_map<int, Buffer> buffers;  // by device ordinal; kept for the process
  if (bytes == 0) return nullptr;
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
  }
  return b.ptr;
}

}  // namespace mxgemm::cuda
