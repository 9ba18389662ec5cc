#include "core/kernel_override.hpp"

namespace mxgemm::detail {
namespace {
thread_local Sm90Kernel current = Sm90Kernel::Auto;
thread_local StreamEarlyFixup current_early_fixup = StreamEarlyFixup::Auto;
thread_local StreamSplitK current_split_k = StreamSplitK::Auto;
thread_local StreamMxValues current_mx_values = StreamMxValues::Auto;
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

StreamSplitK set_stream_split_k(StreamSplitK mode) {
  const StreamSplitK previous = current_split_k;
  current_split_k = mode;
  return previous;
}

StreamSplitK stream_split_k() { return current_split_k; }

StreamMxValues set_stream_mx_values(StreamMxValues form) {
  const StreamMxValues previous = current_mx_values;
  current_mx_values = form;
  return previous;
}

StreamMxValues stream_mx_values() { return current_mx_values; }

}  // namespace mxgemm::detail
