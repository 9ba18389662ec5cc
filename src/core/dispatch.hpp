// Internal: which GEMM kernel family serves a device. A pure function of the device
// query and of what this build contains, so the choice and its messages are testable on a
// machine without a GPU.
#pragma once

#include "core/device.hpp"
#include "mxgemm/gemm.hpp"

namespace mxgemm::detail {

enum class GemmBackend { None, Sm90, Sm100 };

struct BackendChoice {
  GemmBackend backend = GemmBackend::None;
  BackendInfo info;  // name when available, reason otherwise
};

// sm_90 (9.0) -> the Hopper kernels; sm_100 (10.0) -> the CUTLASS kernel when this build
// has it (`sm100_built`); anything else -> None with a reason naming the device and the
// supported architectures.
BackendChoice select_gemm_backend(const DeviceQuery& dev, bool sm100_built);

// Whether this library was built with the sm_100 (CUTLASS) path.
bool sm100_path_built();

}  // namespace mxgemm::detail
