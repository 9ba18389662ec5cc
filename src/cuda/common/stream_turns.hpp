// Turns on a device's scratch memory: the GPU GEMM calls of a device share one workspace
// (growing_buffers.hpp), so their GPU work must not overlap. A call takes the device's turn for
// its whole length, launches included: host threads take turns one at a time, and a call on
// another stream than the previous call's first makes its stream wait for that call's work (an
// event recorded after it). Calls on one stream need no wait: the stream orders them.
//
// A call while its stream captures a CUDA graph neither waits nor records: a capture cannot wait
// for work outside it, and its event would name the graph, not a run of it. Graph replays are
// ordered by whoever launches them (include/mxgemm/workspace.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace mxgemm::cuda {

// The CUDA calls StreamTurns makes; each throws on failure.
struct StreamOrderCalls {
  int (*current_device)();
  bool (*capturing)(cudaStream_t stream);
  cudaEvent_t (*create_event)();  // on the current device
  void (*record)(cudaEvent_t event, cudaStream_t stream);
  void (*wait)(cudaStream_t stream, cudaEvent_t event);
};

// The CUDA runtime's calls, checked (CudaError); events without timing.
StreamOrderCalls cuda_runtime_order_calls();

class StreamTurns {
  struct Device {
    std::mutex mutex;  // held for a turn
    cudaEvent_t last_done = nullptr;  // recorded after the last uncaptured call
    cudaStream_t last_stream = nullptr;
    bool any = false;  // an uncaptured call has recorded last_done
  };

 public:
  explicit StreamTurns(StreamOrderCalls calls) : calls_(calls) {}

  // A call's turn on the current device, from take() to its end. When it ends, an uncaptured
  // call records its work's end (also after a failed launch: whatever it queued counts).
  class Turn {
   public:
    Turn(Turn&& other) noexcept;
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;
    Turn& operator=(Turn&&) = delete;
    ~Turn();

   private:
    friend class StreamTurns;
    Turn(const StreamTurns* owner, Device* device, cudaStream_t stream, bool captured);
    const StreamTurns* owner_;
    Device* device_;  // null once moved from
    cudaStream_t stream_;
    bool captured_;
  };

  // Waits (on the host) for the device's turn; then, outside a capture, makes `stream` wait for
  // the previous call's work when that ran on another stream.
  Turn take(cudaStream_t stream);

  // Runs f() while holding every device's turn that has been taken so far (for freeing the
  // scratch memory: no call is between taking it and launching on it). Only this function
  // holds more than one turn, and map_mutex_ serializes it, so the locking order is free.
  template <typename F>
  auto with_all_turns(F&& f) {
    std::unique_lock<std::mutex> map_lock(map_mutex_);
    std::vector<std::unique_lock<std::mutex>> locks;
    for (auto& [ordinal, device] : devices_) locks.emplace_back(device->mutex);
    return f();
  }

 private:
  Device& device(int ordinal);

  StreamOrderCalls calls_;
  std::mutex map_mutex_;  // guards devices_ (not the devices themselves)
  std::unordered_map<int, std::unique_ptr<Device>> devices_;
};

// The library's turns (every GPU GEMM entry point takes one).
StreamTurns& gemm_turns();

}  // namespace mxgemm::cuda
