#include "core/kernel_override.hpp"

namespace mxgemm::detail {
namespace {
thread_local Sm90Kernel current = Sm90Kernel::Auto;
}  // namespace

Sm90Kernel set_sm90_kernel(Sm90Kernel kernel) {
  const Sm90Kernel previous = current;
  current = kernel;
  return previous;
}

Sm90Kernel sm90_kernel() { return current; }

}  // namespace mxgemm::detail
