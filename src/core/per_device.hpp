// Internal: a value per CUDA device ordinal, read once per device and process. For what every
// call asks of its device and the device cannot change (its properties, its traits): some of
// those reads are slow driver queries (the memory clock: 354 us a query on the H100).
#pragma once

#include <map>
#include <mutex>

namespace mxgemm::detail {

template <typename T>
class PerDevice {
 public:
  // The value kept for `device`; else read(device), kept where keep(value) says so (a read that
  // found no usable device is not kept, so that the next call asks again). Thread-safe; the read
  // runs under the lock, so each device is read once.
  template <typename Read, typename Keep>
  T get(int device, const Read& read, const Keep& keep) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = values_.find(device);
    if (it != values_.end()) return it->second;
    T value = read(device);
    if (keep(value)) values_.emplace(device, value);
    return value;
  }

  template <typename Read>
  T get(int device, const Read& read) {
    return get(device, read, [](const T&) { return true; });
  }

 private:
  std::mutex mutex_;
  std::map<int, T> values_;
};

}  // namespace mxgemm::detail
