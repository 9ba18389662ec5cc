// Development timeline of the skinny kernel (build with -DMXGEMM_STREAM_TRACE, run with
// MXGEMM_TRACE set): the streaming kernel's trace buffer (stream_trace.cuh), one row per CTA,
// with the skinny kernel's events. Warp 0 stamps the per-CTA events; every warp takes part in
// the first and last warp end. Not in normal builds.
#pragma once

#include <cstdlib>

#include "cuda/sm90/stream_trace.cuh"

namespace mxgemm::sm90 {
// Rows of the trace buffer the skinny kernel writes besides the shared ones (kTrStart,
// kTrFirstStage, kTrFirstLoopEnd, kTrFirstStored, kTrLastLoopEnd, kTrEnd: the last warp's
// end, kTrClkFirst/Last, kTrStages: units, kTrItems: segments, kTrEpilogueNs: warp 0's
// stores and fixups).
enum SkinnyTraceEvent {
  kSkTrSmid = 12,        // %smid of the CTA
  kSkTrWarpEndMin = 13,  // the first warp's end
  kSkTrFixupNs = 14,     // warp 0: time in the fixups of partial tiles (publish, count, sum, store)
};
}  // namespace mxgemm::sm90

#ifdef MXGEMM_STREAM_TRACE
namespace mxgemm::sm90 {
__device__ __forceinline__ unsigned trace_smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Waits for the launch and prints two lines: per event min/median/max over the CTAs (us from
// the first CTA's start), and percentiles of the quantities whose spread decides the kernel's
// end: each CTA's time from start to its last warp's end, and warp 0's ns per unit.
static inline void report_skinny_trace(const SkinnyGemmParams& q, int ntiles, cudaStream_t stream) {
  MXGEMM_CUDA_CHECK(cudaStreamSynchronize(stream));
  static unsigned long long h[1024][kTraceEvents];
  MXGEMM_CUDA_CHECK(cudaMemcpyFromSymbol(h, g_stream_trace, sizeof(h)));
  const int n = q.sched.ctas < 1024 ? q.sched.ctas : 1024;
  unsigned long long t0 = ~0ull;
  for (int c = 0; c < n; ++c) t0 = std::min(t0, h[c][kTrStart]);
  auto pct = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    if (v.empty()) return std::printf(" -"), 0;
    auto at = [&](double f) { return v[static_cast<std::size_t>(f * (v.size() - 1) + 0.5)]; };
    std::printf(" %.2f/%.2f/%.2f/%.2f/%.2f", at(0), at(0.1), at(0.5), at(0.9), at(1));
    return 0;
  };
  auto stat = [&](int e, bool rel) {
    std::vector<double> v;
    for (int c = 0; c < n; ++c)
      if (h[c][e] != 0) v.push_back(rel ? (h[c][e] - t0) * 1e-3 : static_cast<double>(h[c][e]));
    return pct(v);
  };
  std::printf("TRACE skinny m=%d n=%d k=%d ntiles=%d ctas=%d units=%d (p0/p10/p50/p90/p100) |", q.m, q.n, q.k, ntiles,
              n, q.sched.units);
  const char* names[] = {"start", "first_unit", "first_loop_end", "first_stored", "last_loop_end", "warp_end_min", "end"};
  const int events[] = {kTrStart, kTrFirstStage, kTrFirstLoopEnd, kTrFirstStored, kTrLastLoopEnd, kSkTrWarpEndMin, kTrEnd};
  for (int i = 0; i < 7; ++i) {
    std::printf(" %s", names[i]);
    stat(events[i], true);
    std::printf(" |");
  }
  std::printf(" units");
  stat(kTrStages, false);
  std::printf(" | epi_ns");
  stat(kTrEpilogueNs, false);
  std::printf(" | fixup_ns");
  stat(kSkTrFixupNs, false);
  std::vector<double> busy, ns_unit, mhz, warp_spread;
  for (int c = 0; c < n; ++c) {
    busy.push_back((h[c][kTrEnd] - h[c][kTrStart]) * 1e-3);
    warp_spread.push_back((h[c][kTrEnd] - h[c][kSkTrWarpEndMin]) * 1e-3);
    const double dt = static_cast<double>(h[c][kTrLastLoopEnd] - h[c][kTrFirstStage]);
    const double dc = static_cast<double>(h[c][kTrClkLast] - h[c][kTrClkFirst]);
    if (dt > 0 && h[c][kTrStages] > 1) {
      ns_unit.push_back(dt / static_cast<double>(h[c][kTrStages] - 1));
      mhz.push_back(dc / dt * 1e3);
    }
  }
  std::printf(" || cta busy us");
  pct(busy);
  std::printf(" | warp end spread us");
  pct(warp_spread);
  std::printf(" | ns/unit (warp 0)");
  pct(ns_unit);
  std::printf(" | MHz");
  pct(mhz);
  // The slowest CTAs and their SMs: is it the same SMs (a placement effect) or random?
  std::vector<std::pair<unsigned long long, int>> by_end;
  for (int c = 0; c < n; ++c) by_end.push_back({h[c][kTrEnd], c});
  std::sort(by_end.begin(), by_end.end());
  std::printf(" | last 6 (cta:sm:us):");
  for (std::size_t i = by_end.size() > 6 ? by_end.size() - 6 : 0; i < by_end.size(); ++i) {
    const int c = by_end[i].second;
    std::printf(" %d:%llu:%.2f", c, h[c][kSkTrSmid], (h[c][kTrEnd] - t0) * 1e-3);
  }
  std::printf("\n");
  // MXGEMM_TRACE_DUMP: one line per CTA, for placement analyses.
  if (std::getenv("MXGEMM_TRACE_DUMP") != nullptr) {
    static int launch = 0;
    for (int c = 0; c < n; ++c)
      std::printf("TRACECTA %d %d %llu %.3f %.3f %.3f %.3f %llu\n", launch, c, h[c][kSkTrSmid], (h[c][kTrStart] - t0) * 1e-3,
                  (h[c][kTrFirstStage] - t0) * 1e-3, (h[c][kTrLastLoopEnd] - t0) * 1e-3, (h[c][kTrEnd] - t0) * 1e-3,
                  h[c][kTrStages]);
    ++launch;
  }
}
}  // namespace mxgemm::sm90
#endif
