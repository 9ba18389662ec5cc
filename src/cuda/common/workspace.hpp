// Scratch memory per device that only grows: kernels that need scratch memory take it from
// here instead of allocating on every call. The sharing rules for users are in
// include/mxgemm/workspace.hpp, the rules for freeing in growing_buffers.hpp.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace mxgemm::cuda {

// At least `bytes` of device memory on the current device for work queued on `stream`, valid
// until the next call that grows it. Throws CudaError when the allocation fails.
void* device_workspace(std::size_t bytes, cudaStream_t stream);

// At least `count` unsigned ints on the current device that are zero whenever no kernel is
// running: allocated zeroed (on `stream`), and every kernel that counts on them returns them
// to zero. Used as per-tile arrival counters. Same sharing rules as device_workspace.
unsigned int* device_zeroed_counters(std::size_t count, cudaStream_t stream);

}  // namespace mxgemm::cuda
