// A device workspace per device that only grows: kernels that need scratch memory (the
// CUTLASS path) take it from here instead of allocating on every call.
#pragma once

#include <cstddef>

namespace mxgemm::cuda {

// At least `bytes` of device memory on the current device, valid until the next call that
// grows it. Not for concurrent use from several host threads on one device with different
// streams. Throws CudaError when the allocation fails.
void* device_workspace(std::size_t bytes);

}  // namespace mxgemm::cuda
