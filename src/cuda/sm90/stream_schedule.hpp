// Stream-K work split of the weight-streaming GEMM, shared by the launcher and the kernel:
// the (weight tile, K stage) pairs in tile-major order, cut into `ctas` contiguous ranges of
// equal length (+-1). A tile whose stages fall into several ranges is summed from the
// partials of those CTAs, always in CTA order, so results do not depend on timing.
#pragma once

#include <cstdint>

#include "mxgemm/layout.hpp"  // MXGEMM_HOST_DEVICE

namespace mxgemm::sm90 {

// A CTA's share of the work is at least this many stages, so that the partial-tile fixups
// stay small next to the streaming.
constexpr int kStreamMinStagesPerCta = 8;

struct StreamSchedule {
  std::int64_t units;  // tiles * k_stages
  int ctas;
  int k_stages;

  // First unit of CTA c (c == ctas gives the end of the last range).
  MXGEMM_HOST_DEVICE std::int64_t begin(int c) const { return c * units / ctas; }
  // The CTA whose range holds unit u: the largest c with begin(c) <= u.
  MXGEMM_HOST_DEVICE int cta_of_unit(std::int64_t u) const {
    return static_cast<int>(((u + 1) * ctas + units - 1) / units - 1);
  }
  MXGEMM_HOST_DEVICE int first_cta(int tile) const {
    return cta_of_unit(static_cast<std::int64_t>(tile) * k_stages);
  }
  MXGEMM_HOST_DEVICE int last_cta(int tile) const {
    return cta_of_unit(static_cast<std::int64_t>(tile + 1) * k_stages - 1);
  }
  // Each CTA has at most two partial tiles, the first and the last it touches: the slot of
  // CTA c's partial of `tile` in the partials buffer.
  MXGEMM_HOST_DEVICE int partial_slot(int c, int tile) const {
    return 2 * c + (tile == begin(c) / k_stages ? 0 : 1);
  }

  // One CTA per SM, fewer when the work is short.
  static StreamSchedule make(int tiles, int k_stages, int sms) {
    StreamSchedule s{static_cast<std::int64_t>(tiles) * k_stages, 1, k_stages};
    const std::int64_t by_work = s.units / kStreamMinStagesPerCta;
    s.ctas = static_cast<int>(by_work < 1 ? 1 : (by_work < sms ? by_work : sms));
    return s;
  }
};

}  // namespace mxgemm::sm90
