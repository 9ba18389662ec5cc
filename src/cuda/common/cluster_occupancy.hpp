// How many clusters of CTAs the current device runs at once: a cluster's CTAs share a GPC, so
// with one CTA an SM the GPCs' sizes, not the SM count, bound it (the H200's 132 SMs hold 66
// clusters of 2, 30 of 4 and 15 of 8: bench/results/s36/b1).
#pragma once

namespace mxgemm::cuda {

// Clusters of `cluster_ctas` CTAs (1..8) of `threads` threads and `smem_bytes` of dynamic
// shared memory each that fit the current device at once (cudaOccupancyMaxActiveClusters on a
// probe kernel of that shape; cached per device and shape). For kernels whose shared memory
// holds them to one CTA an SM, as the streaming kernel's (the probe uses few registers).
int max_active_clusters(int cluster_ctas, int threads, int smem_bytes);

}  // namespace mxgemm::cuda
