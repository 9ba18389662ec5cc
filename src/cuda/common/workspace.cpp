#include "cuda/common/workspace.hpp"

#include <cuda_runtime_api.h>

#include "core/check.hpp"
#include "cuda/common/growing_buffers.hpp"
#include "cuda/common/stream_turns.hpp"
#include "mxgemm/workspace.hpp"

namespace mxgemm {
namespace cuda {
namespace {

GrowingBuffers& workspace_buffers() {
  static GrowingBuffers buffers(cuda_runtime_memory_calls(), "workspace");
  return buffers;
}

GrowingBuffers& counter_buffers() {
  static GrowingBuffers buffers(cuda_runtime_memory_calls(), "tile counters");
  return buffers;
}

}  // namespace

void* device_workspace(std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return nullptr;
  return workspace_buffers().get(bytes, stream).ptr;
}

unsigned int* device_zeroed_counters(std::size_t count, cudaStream_t stream) {
  if (count == 0) return nullptr;
  const std::size_t bytes = count * sizeof(unsigned int);
  const GrowingBuffers::Lease lease = counter_buffers().get(bytes, stream);
  if (lease.grown) MXGEMM_CUDA_CHECK(cudaMemsetAsync(lease.ptr, 0, bytes, stream));
  return static_cast<unsigned int*>(lease.ptr);
}

}  // namespace cuda

std::size_t release_gpu_workspace() {
  // With every device's turn held, no call is between taking its memory and launching on it.
  return cuda::gemm_turns().with_all_turns(
      [] { return cuda::workspace_buffers().release_unused() + cuda::counter_buffers().release_unused(); });
}

std::size_t gpu_workspace_bytes(int device) {
  if (device < 0) detail::fail("gpu_workspace_bytes", "device", "a CUDA device ordinal >= 0", device);
  return cuda::workspace_buffers().bytes(device) + cuda::counter_buffers().bytes(device);
}

}  // namespace mxgemm
