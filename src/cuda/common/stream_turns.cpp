#include "cuda/common/stream_turns.hpp"

#include <utility>

#include "core/check.hpp"
#include "cuda/common/current_device.hpp"

namespace mxgemm::cuda {

StreamOrderCalls cuda_runtime_order_calls() {
  StreamOrderCalls calls{};
  calls.current_device = &current_device;
  calls.capturing = &stream_capturing;
  calls.create_event = [] {
    cudaEvent_t event = nullptr;
    MXGEMM_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    return event;
  };
  calls.record = [](cudaEvent_t event, cudaStream_t stream) { MXGEMM_CUDA_CHECK(cudaEventRecord(event, stream)); };
  calls.wait = [](cudaStream_t stream, cudaEvent_t event) { MXGEMM_CUDA_CHECK(cudaStreamWaitEvent(stream, event, 0)); };
  return calls;
}

StreamTurns::Device& StreamTurns::device(int ordinal) {
  std::lock_guard<std::mutex> lock(map_mutex_);
  std::unique_ptr<Device>& d = devices_[ordinal];
  if (!d) d = std::make_unique<Device>();
  return *d;
}

StreamTurns::Turn StreamTurns::take(cudaStream_t stream) {
  Device& d = device(calls_.current_device());
  d.mutex.lock();
  try {
    const bool captured = calls_.capturing(stream);
    if (!captured) {
      if (d.last_done == nullptr) d.last_done = calls_.create_event();
      if (d.any && d.last_stream != stream) calls_.wait(stream, d.last_done);
    }
    return Turn(this, &d, stream, captured);
  } catch (...) {
    d.mutex.unlock();
    throw;
  }
}

StreamTurns::Turn::Turn(const StreamTurns* owner, Device* device, cudaStream_t stream, bool captured)
    : owner_(owner), device_(device), stream_(stream), captured_(captured) {}

StreamTurns::Turn::Turn(Turn&& other) noexcept
    : owner_(other.owner_), device_(std::exchange(other.device_, nullptr)), stream_(other.stream_),
      captured_(other.captured_) {}

StreamTurns::Turn::~Turn() {
  if (device_ == nullptr) return;
  if (!captured_) {
    try {
      owner_->calls_.record(device_->last_done, stream_);
      device_->last_stream = stream_;
      device_->any = true;
    } catch (...) {
      // No record: the next call on another stream cannot wait for this one. Leave `any` as it
      // was; a failed record means the CUDA context is failing anyway.
    }
  }
  device_->mutex.unlock();
}

StreamTurns& gemm_turns() {
  static StreamTurns turns(cuda_runtime_order_calls());
  return turns;
}

}  // namespace mxgemm::cuda
