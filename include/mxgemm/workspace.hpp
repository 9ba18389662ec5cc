// The scratch memory of mxgemm's GPU calls, and the rules for sharing it.
//
// The GPU GEMMs keep scratch memory on each device they run on (activation copies, partial
// sums, tile lists, arrival counters): allocated when first needed, grown when a call needs
// more (growing waits for the device), and reused by every later call on that device, on any
// stream. Up to about 300 MB for MXFP8 activations of 128 MB or more, tens of MB otherwise.
// Hence:
// - Calls whose GPU work may overlap in time must not run on one device's scratch memory at
//   once: GEMMs on two streams of one device need an order between them (an event, or one
//   stream), and so do a CUDA graph holding mxgemm calls and a call outside it. Calls on one
//   stream need nothing.
// - CUDA graphs: run a call once outside the capture (or a larger one) before capturing it, as
//   one warms up any op. A call that would have to grow the scratch memory while its stream
//   captures throws UnsupportedError, before any CUDA call, so the capture stays usable.
//   Memory that a capture used stays allocated for the life of the process, even when a later,
//   larger call outgrows it: the graph can be replayed at any time. (The memory that replaces
//   it is at least twice as large, so what captures keep stays within the current size.)
// - Host threads: GPU GEMM calls on one device from several host threads at once are not
//   supported (a call growing the memory may free what another call is about to use).
#pragma once

#include <cstddef>

namespace mxgemm {

// Frees the scratch memory of every device where no capture used it, after waiting for that
// device (cudaDeviceSynchronize), and returns the bytes freed; the next call allocates again.
// Makes no CUDA call when there is nothing to free, so it also works without a GPU. Not while
// another host thread is inside a GPU GEMM call (it may hold the memory it is about to free).
std::size_t release_gpu_workspace();

// Bytes of scratch memory mxgemm holds on device `device` (a CUDA ordinal), what captures keep
// included (0 for a device it never used). Makes no CUDA call. ArgumentError for device < 0.
std::size_t gpu_workspace_bytes(int device);

}  // namespace mxgemm
