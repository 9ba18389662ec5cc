// Device buffers that only grow, one per device: the scratch memory that mxgemm's GPU calls
// share (workspace.hpp). A class of its own because when an outgrown buffer may be freed
// depends on CUDA graphs, and those rules are unit-tested on the host with fake CUDA calls.
//
// A CUDA graph keeps the addresses its kernels were captured with, so a buffer that a call
// used while its stream was capturing is never freed: when it is outgrown it is retired
// (kept allocated for the life of the process) and a new buffer, at least twice its size, takes
// its place, so that all that captures keep stays within the current buffer's size. Freeing any
// other outgrown buffer waits for the device first, as queued work may still use it. A call
// that would grow a buffer while its stream is capturing is refused with UnsupportedError,
// before any CUDA call: allocating and synchronizing are not allowed during a capture.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace mxgemm::cuda {

// The CUDA calls GrowingBuffers makes; each throws on failure.
struct DeviceMemoryCalls {
  int (*current_device)();
  void (*set_device)(int device);
  bool (*capturing)(cudaStream_t stream);  // is `stream` capturing a CUDA graph?
  void (*synchronize)();                   // the current device
  void* (*allocate)(std::size_t bytes);    // on the current device
  void (*release)(void* ptr);
};

// The CUDA runtime's calls, checked: CudaError on failure.
DeviceMemoryCalls cuda_runtime_memory_calls();

class GrowingBuffers {
 public:
  // `what` names the buffers in error messages ("workspace", "tile counters").
  GrowingBuffers(DeviceMemoryCalls calls, const char* what) : calls_(calls), what_(what) {}

  struct Lease {
    void* ptr;
    bool grown;  // newly allocated by this call (its contents are undefined)
  };

  // At least `bytes` (> 0) on the current device, for work queued on `stream`; valid until a
  // later call grows the buffer (and for the life of the process once a capture used it).
  Lease get(std::size_t bytes, cudaStream_t stream);

  // Frees every device's buffer that no capture used, each after its device synchronized, and
  // returns the bytes freed; the next get() allocates again. Buffers a capture used stay. Makes
  // no CUDA call when there is nothing to free (so it works where there is no GPU).
  std::size_t release_unused();

  // Bytes allocated on `device`: its buffer and the retired ones a capture used.
  std::size_t bytes(int device) const;

 private:
  struct Slot {
    void* ptr = nullptr;
    std::size_t size = 0;
    bool captured = false;  // a capture used it: its address lives on in a graph
  };
  struct Retired {
    int device;
    void* ptr;
    std::size_t size;
  };

  // Frees `slot`'s buffer after its device synchronized, or retires it when a capture used it.
  // Expects the current device to be `device`.
  void drop(int device, Slot& slot);

  DeviceMemoryCalls calls_;
  const char* what_;
  mutable std::mutex mutex_;
  std::unordered_map<int, Slot> slots_;  // by device ordinal
  std::vector<Retired> retired_;
};

}  // namespace mxgemm::cuda
