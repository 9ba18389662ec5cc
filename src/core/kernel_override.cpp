#include "core/kernel_override.hpp"

#include <utility>

namespace mxgemm::detail {
namespace {
thread_local Sm90Kernel current = Sm90Kernel::Auto;
thread_local StreamEarlyFixup current_early_fixup = StreamEarlyFixup::Auto;
thread_local StreamSplitK current_split_k = StreamSplitK::Auto;
thread_local StreamMxValues current_mx_values = StreamMxValues::Auto;
}  // namespace

Sm90Kernel set_sm90_kernel(Sm90Kernel kernel) { return std::exchange(current, kernel); }

Sm90Kernel sm90_kernel() { return current; }

StreamEarlyFixup set_stream_early_fixup(StreamEarlyFixup mode) { return std::exchange(current_early_fixup, mode); }

StreamEarlyFixup stream_early_fixup() { return current_early_fixup; }

StreamSplitK set_stream_split_k(StreamSplitK mode) { return std::exchange(current_split_k, mode); }

StreamSplitK stream_split_k() { return current_split_k; }

StreamMxValues set_stream_mx_values(StreamMxValues form) { return std::exchange(current_mx_values, form); }

StreamMxValues stream_mx_values() { return current_mx_values; }

}  // namespace mxgemm::detail
