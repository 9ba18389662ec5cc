#include "core/kernel_override.hpp"

namespace mxgemm::detail {
namespace {
thread_local Sm90Kernel current = Sm90Kernel::Auto;
thread_local StreamEarlyFixup current_early_fixup = StreamEarlyFixup::Auto;
}  // namespace

Sm90Kernel set_sm90_kernel(Sm90Kernel kernel) {
  const Sm90Kernel previous = current;
  current = kernel;
  return previous;
}

Sm90Kernel sm90_kernel() { return current; }

StreamEarlyFixup set_stream_early_fixup(StreamEarlyFixup mode) {
  const StreamEarlyFixup previous = current_early_fixup;
  current_early_fixup = mode;
  return previous;
}

StreamEarlyFixup stream_early_fixup() { return current_early_fixup; }

}  // namespace mxgemm::detail
