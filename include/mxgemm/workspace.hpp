// The scratch memory of mxgemm's GPU calls, and the rules for sharing it.
//
// The GPU GEMMs keep scratch memory on each device they run on (activation copies, partial
// sums, tile lists, arrival counters): allocated when first needed, grown when a call needs
// more (growing waits for the device), and reused by every later call on that device, on any
// stream. Up to about 300 MB for MXFP8 activations of 128 MB or more, tens of MB otherwise.
// Hence:
// - Calls take turns on it: a call holds its device's turn on the host while it queues its work
//   (calls from several host threads run one after another), and a call on another stream than
//   the previous call's makes its stream wait for that call's work (an event). So GEMMs on two
//   streams of one device never overlap each other on the GPU; calls on one stream need nothing.
// - CUDA graphs: run a call once outside the capture (or a larger one) before capturing it, as
//   one warms up any op. A call that would have to grow the scratch memory while its stream
//   captures throws UnsupportedError, before any CUDA call, so the capture stays usable.
//   Memory that a capture used stays allocated for the life of the process, even when a later,
//   larger call outgrows it: the graph can be replayed at any time. (The memory that replaces
//   it is at least twice as large, so what captures keep stays within the current size.)
//   A captured call takes no part in the streams' order (a capture cannot wait for work outside
//   it): a graph's replay must not overlap another mxgemm call on the device, nor another replay
//   of a graph holding mxgemm calls; order them as their streams require.
#pragma once

#include <cstddef>

namespace mxgemm {

// Frees the scratch memory of every device where no capture used it, after waiting for that
// device (cudaDeviceSynchronize), and returns the bytes freed; the next call allocates again.
// Makes no CUDA call when there is nothing to free, so it also works without a GPU. Waits for the
// turns of calls in progress on other host threads.
std::size_t release_gpu_workspace();

// Bytes of scratch memory mxgemm holds on device `device` (a CUDA ordinal), what captures keep
// included (0 for a device it never used). Makes no CUDA call. ArgumentError for device < 0.
std::size_t gpu_workspace_bytes(int device);

}  // namespace mxgemm
