#include "core/kernel_override.hpp"

#include <utility>

namespace mxgemm::detail {
namespace {
thread_local Sm90Kernel current = Sm90Kernel::Auto;
thread_local StreamEarlyFixup current_early_fixup = StreamEarlyFixup::Auto;
thread_local StreamSplitK current_split_k = StreamSplitK::Auto;
thread_local StreamMxValues current_mx_values = StreamMxValues::Auto;
thread_local StreamWidth192 current_width_192 = StreamWidth192::Auto;
thread_local StreamPaddedWorkspace current_padded_workspace = StreamPaddedWorkspace::Auto;
thread_local StreamTmaStore current_tma_store = StreamTmaStore::Auto;
thread_local StreamPromote current_promote = StreamPromote::Auto;
}  // namespace

Sm90Kernel set_sm90_kernel(Sm90Kernel kernel) { return std::exchange(current, kernel); }

Sm90Kernel sm90_kernel() { return current; }

StreamEarlyFixup set_stream_early_fixup(StreamEarlyFixup mode) { return std::exchange(current_early_fixup, mode); }

StreamEarlyFixup stream_early_fixup() { return current_early_fixup; }

StreamSplitK set_stream_split_k(StreamSplitK mode) { return std::exchange(current_split_k, mode); }

StreamSplitK stream_split_k() { return current_split_k; }

StreamMxValues set_stream_mx_values(StreamMxValues form) { return std::exchange(current_mx_values, form); }

StreamMxValues stream_mx_values() { return current_mx_values; }

StreamWidth192 set_stream_width_192(StreamWidth192 mode) { return std::exchange(current_width_192, mode); }

StreamWidth192 stream_width_192() { return current_width_192; }

StreamPaddedWorkspace set_stream_padded_workspace(StreamPaddedWorkspace mode) {
  return std::exchange(current_padded_workspace, mode);
}

StreamPaddedWorkspace stream_padded_workspace() { return current_padded_workspace; }

StreamTmaStore set_stream_tma_store(StreamTmaStore mode) { return std::exchange(current_tma_store, mode); }

StreamTmaStore stream_tma_store() { return current_tma_store; }

StreamPromote set_stream_promote(StreamPromote mode) { return std::exchange(current_promote, mode); }

StreamPromote stream_promote() { return current_promote; }

}  // namespace mxgemm::detail
