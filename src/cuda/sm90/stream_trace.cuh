// Development timeline of the streaming kernel (build with -DMXGEMM_STREAM_TRACE): global
// timer (ns) and SM clock stamps per CTA, printed by the launcher after each launch when the
// environment variable MXGEMM_TRACE is set. Not in normal builds.
#pragma once

#include <cstdint>

namespace mxgemm::sm90 {
constexpr int kTraceEvents = 25;
enum TraceEvent {
  kTrStart = 0,        // kernel entry (thread 0)
  kTrDepWait = 1,      // producer: griddepcontrol.wait returned
  kTrFirstStage = 2,   // math thread 0: first stage landed
  kTrFirstLoopEnd = 3, // first work item's mainloop done
  kTrFirstStored = 4,  // first work item stored (or handed over)
  kTrLastLoopEnd = 5,  // last work item's mainloop done
  kTrEnd = 6,          // all work done
  kTrClkFirst = 7,     // clock64 at kTrFirstStage
  kTrClkLast = 8,      // clock64 at kTrLastLoopEnd
  kTrStages = 9,       // stages run by the CTA
  kTrItems = 10,       // work items
  kTrEpilogueNs = 11,  // sum over items of (stored - mainloop end)
  kTrProducerUp = 12,  // producer thread: past the CTA barrier and setmaxnreg
  kTrFirstTma = 13,    // producer thread: first weight TMA issued
  kTrPreStoreNs = 14,  // sum over stored items of (store begins - mainloop end)
  kTrWorkReady = 15,   // producer thread: its first work item and tile computed
  kTrMapsFetched = 16, // producer thread: the tensor maps' prefetches and the L2 policy issued
  kTrFirstExpect = 17, // producer thread: the first stage's arrive.expect_tx done
  kTrFirstScaleTma = 18,  // producer thread: the first stage's first scale TMA issued
  kTrLastExit = 19,    // the CTA's last warp to leave the kernel (every warp's lane 0, atomicMax)
  kTrProducerWaitNs = 20,  // producer thread: time blocked on empty stages (the ring full)
  kTrMathWaitNs = 21,      // math thread 0: time blocked on full stages (the ring empty)
  // Sums over stored items, from math thread 0's mainloop end: past the math threads' barrier (the
  // other warps' mainloop ends), and for paired halves past the first and second cluster barrier.
  kTrBarrierNs = 22,
  kTrPairSyncNs = 23,
  kTrPairDoneNs = 24,
};
}  // namespace mxgemm::sm90

#ifdef MXGEMM_STREAM_TRACE
namespace mxgemm::sm90 {
static __device__ unsigned long long g_stream_trace[1024][kTraceEvents];
__device__ __forceinline__ unsigned long long trace_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
}  // namespace mxgemm::sm90
#define MXGEMM_TRACE_SET(id, v) (::mxgemm::sm90::g_stream_trace[blockIdx.x][id] = (v))
#define MXGEMM_TRACE_ADD(id, v) (::mxgemm::sm90::g_stream_trace[blockIdx.x][id] += (v))
#define MXGEMM_TRACE_NOW() ::mxgemm::sm90::trace_now()
#define MXGEMM_TRACE_MAX(id, v) atomicMax(&::mxgemm::sm90::g_stream_trace[blockIdx.x][id], (v))
#define MXGEMM_TRACE_ON 1

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "core/check.hpp"
#include "cuda/sm90/activation_prepass.hpp"
#include "cuda/sm90/mxfp8_gemm_params.hpp"

namespace mxgemm::sm90 {
// Waits for the launch and prints one line: per event, min/median/max over the CTAs, in us
// from the first start of the pre-pass (or of the kernel); the SM clock and the cycles per
// stage between a CTA's first stage and its last mainloop end.
static inline void report_stream_trace(const StreamGemmParams& q, int kMPad, cudaStream_t stream) {
  MXGEMM_CUDA_CHECK(cudaStreamSynchronize(stream));
  static unsigned long long h[1024][kTraceEvents];
  MXGEMM_CUDA_CHECK(cudaMemcpyFromSymbol(h, g_stream_trace, sizeof(h)));
  unsigned long long pre[2];
  prepass_trace_read(pre);
  const int n = q.sched.ctas;
  unsigned long long t0 = ~0ull;
  for (int c = 0; c < n; ++c) t0 = std::min(t0, h[c][kTrStart]);
  const bool has_pre = pre[1] != 0 && pre[0] != ~0ull;
  if (has_pre) t0 = std::min(t0, pre[0]);
  auto stat = [&](int e, bool rel) {
    std::vector<double> v;
    for (int c = 0; c < n; ++c)
      if (h[c][e] != 0) v.push_back(rel ? (h[c][e] - t0) * 1e-3 : static_cast<double>(h[c][e]));
    if (v.empty()) return std::printf(" %s", "-"), 0;
    std::sort(v.begin(), v.end());
    std::printf(" %.2f/%.2f/%.2f", v.front(), v[v.size() / 2], v.back());
    return 0;
  };
  std::vector<double> mhz, cyc;
  for (int c = 0; c < n; ++c) {
    const double dt = static_cast<double>(h[c][kTrLastLoopEnd] - h[c][kTrFirstStage]);
    const double dc = static_cast<double>(h[c][kTrClkLast] - h[c][kTrClkFirst]);
    if (dt > 0 && h[c][kTrStages] > 1) {
      mhz.push_back(dc / dt * 1e3);
      cyc.push_back(dc / static_cast<double>(h[c][kTrStages] - 1));
    }
  }
  std::sort(mhz.begin(), mhz.end());
  std::sort(cyc.begin(), cyc.end());
  std::printf("TRACE m=%d n=%d k=%d mpad=%d ctas=%d paired=%d | prepass us %.2f..%.2f |", q.m, q.n, q.k, kMPad, n,
              q.sched.paired ? 1 : 0, has_pre ? (pre[0] - t0) * 1e-3 : -1.0, has_pre ? (pre[1] - t0) * 1e-3 : -1.0);
  std::printf(" start");
  stat(kTrStart, true);
  std::printf(" | producer_up");
  stat(kTrProducerUp, true);
  std::printf(" | maps");
  stat(kTrMapsFetched, true);
  std::printf(" | work_ready");
  stat(kTrWorkReady, true);
  std::printf(" | expect");
  stat(kTrFirstExpect, true);
  std::printf(" | scale_tma");
  stat(kTrFirstScaleTma, true);
  std::printf(" | first_tma");
  stat(kTrFirstTma, true);
  std::printf(" | depwait");
  stat(kTrDepWait, true);
  std::printf(" | first_stage");
  stat(kTrFirstStage, true);
  std::printf(" | first_loop_end");
  stat(kTrFirstLoopEnd, true);
  std::printf(" | first_stored");
  stat(kTrFirstStored, true);
  std::printf(" | last_loop_end");
  stat(kTrLastLoopEnd, true);
  std::printf(" | end");
  stat(kTrEnd, true);
  std::printf(" | last_exit");
  stat(kTrLastExit, true);
  std::printf(" | stages");
  stat(kTrStages, false);
  std::printf(" | producer_wait_ns");
  stat(kTrProducerWaitNs, false);
  std::printf(" | math_wait_ns");
  stat(kTrMathWaitNs, false);
  std::printf(" | epi_ns");
  stat(kTrEpilogueNs, false);
  std::printf(" | prestore_ns");
  stat(kTrPreStoreNs, false);
  std::printf(" | barrier_ns");
  stat(kTrBarrierNs, false);
  std::printf(" | pair_sync_ns");
  stat(kTrPairSyncNs, false);
  std::printf(" | pair_done_ns");
  stat(kTrPairDoneNs, false);
  if (!mhz.empty())
    std::printf(" | MHz %.0f/%.0f/%.0f | cyc/stage %.0f/%.0f/%.0f", mhz.front(), mhz[mhz.size() / 2], mhz.back(),
                cyc.front(), cyc[cyc.size() / 2], cyc.back());
  std::printf("\n");
}
}  // namespace mxgemm::sm90
#else
#define MXGEMM_TRACE_SET(id, v) ((void)0)
#define MXGEMM_TRACE_ADD(id, v) ((void)0)
#define MXGEMM_TRACE_NOW() 0ull
#define MXGEMM_TRACE_MAX(id, v) ((void)0)
#define MXGEMM_TRACE_ON 0
#endif
