#include "cuda/common/growing_buffers.hpp"

#include <algorithm>
#include <cstdint>

#include "core/check.hpp"
#include "cuda/common/current_device.hpp"

namespace mxgemm::cuda {

DeviceMemoryCalls cuda_runtime_memory_calls() {
  DeviceMemoryCalls calls{};
  calls.current_device = &current_device;
  calls.set_device = [](int device) { MXGEMM_CUDA_CHECK(cudaSetDevice(device)); };
  calls.capturing = &stream_capturing;
  calls.synchronize = [] { MXGEMM_CUDA_CHECK(cudaDeviceSynchronize()); };
  calls.allocate = [](std::size_t bytes) {
    void* ptr = nullptr;
    MXGEMM_CUDA_CHECK(cudaMalloc(&ptr, bytes));
    return ptr;
  };
  calls.release = [](void* ptr) { MXGEMM_CUDA_CHECK(cudaFree(ptr)); };
  return calls;
}

GrowingBuffers::Lease GrowingBuffers::get(std::size_t bytes, cudaStream_t stream) {
  const int device = calls_.current_device();
  const bool capturing = calls_.capturing(stream);
  std::lock_guard<std::mutex> lock(mutex_);
  Slot& slot = slots_[device];
  if (slot.size >= bytes) {
    slot.captured = slot.captured || capturing;
    return {slot.ptr, false};
  }
  if (capturing) {
    throw UnsupportedError(detail::concat(
        "mxgemm ", what_, ": stream ", detail::hex_address(reinterpret_cast<std::uintptr_t>(stream)),
        " is capturing a CUDA graph and this call needs ", bytes, " bytes on device ", device,
        ", more than the ", slot.size,
        " allocated; a capture cannot allocate: run the same call (or a larger one) once "
        "before capturing it"));
  }
  std::size_t size = bytes;
  if (slot.ptr != nullptr) {
    // A captured buffer stays allocated when outgrown; growing such buffers at least twofold
    // keeps what captures hold within the current buffer's size, however many shapes are
    // captured one after another (CUDA-graph trees capture each new shape after its warm-up).
    if (slot.captured) size = std::max(bytes, 2 * slot.size);
    drop(device, slot);
  }
  slot.ptr = calls_.allocate(size);
  slot.size = size;
  return {slot.ptr, true};
}

void GrowingBuffers::drop(int device, Slot& slot) {
  if (slot.captured) {
    retired_.push_back({device, slot.ptr, slot.size});  // a graph's kernels still hold this address
  } else {
    calls_.synchronize();  // queued work may still use the buffer
    calls_.release(slot.ptr);
  }
  slot = Slot{};
}

std::size_t GrowingBuffers::release_unused() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t freed = 0;
  int restore = -1;
  for (auto& [device, slot] : slots_) {
    if (slot.ptr == nullptr || slot.captured) continue;
    if (restore < 0) restore = calls_.current_device();
    calls_.set_device(device);
    freed += slot.size;
    drop(device, slot);
  }
  if (restore >= 0) calls_.set_device(restore);
  return freed;
}

std::size_t GrowingBuffers::bytes(int device) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t total = 0;
  if (const auto it = slots_.find(device); it != slots_.end()) total += it->second.size;
  for (const Retired& r : retired_) total += r.device == device ? r.size : 0;
  return total;
}

}  // namespace mxgemm::cuda
