// Internal: what the current CUDA device is, asked without throwing.
#pragma once

#include <string>

namespace mxgemm::detail {

struct DeviceQuery {
  bool present = false;   // a CUDA device is usable
  int device = -1;        // current device ordinal
  int major = 0, minor = 0;
  std::string name;       // e.g. "NVIDIA H200"
  std::string error;      // why no device is usable, when !present
};

// The current device of the calling thread, or why there is none.
DeviceQuery query_current_device();

}  // namespace mxgemm::detail
