// How fast the two CTAs of a cluster swap partial sums through distributed shared memory: the
// paired-halves epilogue (stream_gemm_kernel.cuh, pair_exchange) moves 32 KB each way at 128
// activation rows and 64 KB at 256, and session 56's trace timed that at 1.8 and 2.9-3.0 us. Is
// that the SM-to-SM network's rate, or the way the kernel reads?
//
// 132 CTAs in clusters of 2, 256 threads (the two math warpgroups), one CTA an SM. Each round:
// every thread writes its share of BYTES to its own shared memory (push: into the partner's), a
// cluster barrier, then the exchange, then a second cluster barrier; a CTA's clock64 from the
// round's start (the last round's second barrier) to its second barrier is the round's time
// (the trace's pair_done, less the wait for the partner's mainloop). Modes:
//   pull     each CTA reads the partner's bytes with ld.shared::cluster.v4 and adds them (main's way)
//   pull1    only rank 0 reads (the network one way)
//   push     each CTA writes into the partner with st.shared::cluster.v4 before the barrier,
//            then reads its own shared memory (session 56's dropped variant, alone)
//   bulk     one thread a CTA copies the bytes into the partner with cp.async.bulk
//            (shared::cta -> shared::cluster, the partner's mbarrier counts the bytes), in
//            kChunks pieces from kChunks threads; the receivers wait on the mbarrier and read
//            their own shared memory
//   local    each CTA reads its own bytes (the floor: no network)
//   sync     the two barriers alone (no bytes written or read)
//   global   through L2 instead: each CTA stores its bytes (st.global.cg), the barrier (release /
//            acquire at cluster scope), and loads the partner's (ld.global.cg)
//   split    half the float4s as pull, half as global, at once
//   mbar     pull with mbarriers instead of the two cluster barriers: after a CTA barrier, one
//            thread arrives (release, cluster scope) on the partner's "ready" mbarrier; all wait
//            on their own (acquire); after the reads, a CTA barrier and one arrival on the
//            partner's "done", which a CTA waits on only before it writes its bytes again
// Every received value is checked against what the partner wrote (mismatches are printed).
// Session 68 (H100, bench/results/s68/README.md, call 5): no route beat pull beyond the scatter
// between runs; through L2 and by bulk copy 10-20% slower; one way no faster than both ways.
// Build: nvcc -std=c++17 -O3 -arch=sm_90a -o dsmem_exchange bench/spike/dsmem_exchange.cu
// Run:   ./dsmem_exchange            (prints cycles a round and bytes a cycle received a CTA)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                                     \
  do {                                                                                               \
    const cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                         \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));        \
      std::exit(1);                                                                                  \
    }                                                                                                \
  } while (0)

namespace {

constexpr int kThreads = 256;
constexpr int kRounds = 64;
constexpr int kChunks = 8;
enum Mode { kPull, kPull1, kPush, kBulk, kLocal, kSync, kGlobal, kSplit, kMbar };
const char* const kModeNames[] = {"pull", "pull1", "push", "bulk", "local", "sync", "global", "split", "mbar"};

__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ std::uint32_t cta_rank() {
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ std::uint32_t remote(std::uint32_t local, std::uint32_t cta) {
  std::uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(local), "r"(cta));
  return r;
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
__device__ __forceinline__ float4 ld_cluster(std::uint32_t a) {
  float4 v;
  asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(a) : "memory");
  return v;
}
__device__ __forceinline__ void st_cluster(std::uint32_t a, float4 v) {
  asm volatile("st.shared::cluster.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(a), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w) : "memory");
}
__device__ __forceinline__ void arrive_remote(std::uint32_t cluster_addr) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(cluster_addr) : "memory");
}
__device__ __forceinline__ void wait_cluster_acquire(std::uint32_t addr, std::uint32_t parity) {
  std::uint32_t done = 0;
  while (!done)
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(addr), "r"(parity)
        : "memory");
}
__device__ __forceinline__ float value(int cluster, int rank, int i, int round) {
  return static_cast<float>((cluster * 7 + rank * 3 + i + round * 5) & 0xFFFF);
}

// BYTES a direction; each thread moves kVec float4s.
template <int kMode, int kBytes>
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(kThreads, 1)
    exchange(long long* cycles, unsigned* mismatches, float* sink, float4* global) {
  constexpr int kVec = kBytes / 16 / kThreads;
  static_assert(kVec * 16 * kThreads == kBytes, "whole float4s a thread");
  extern __shared__ __align__(1024) unsigned char smem[];
  float4* send = reinterpret_cast<float4*>(smem);                 // what the partner reads (pull)
  float4* recv = reinterpret_cast<float4*>(smem + kBytes);        // what the partner writes (push, bulk)
  __shared__ __align__(8) std::uint64_t bar;
  __shared__ __align__(8) std::uint64_t ready;
  __shared__ __align__(8) std::uint64_t done_reading;
  const int tid = threadIdx.x;
  const std::uint32_t rank = cta_rank();
  const std::uint32_t peer = rank ^ 1u;
  const int cluster = blockIdx.x / 2;
  if (tid == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&bar)));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&ready)));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&done_reading)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cluster_sync();
  long long total = 0;
  unsigned bad = 0;
  float acc = 0.0f;
  for (int round = 0; round < kRounds; ++round) {
    const long long t0 = clock64();  // after the last round's second barrier: the writes count too
    float4 mine[kVec];
#pragma unroll
    for (int v = 0; v < kVec; ++v) {
      const int i = v * kThreads + tid;
      mine[v] = make_float4(value(cluster, rank, i, round), 1.0f, 2.0f, 3.0f);
    }
    if constexpr (kMode == kPush) {
      const std::uint32_t dst = remote(smem_addr(recv), peer);
#pragma unroll
      for (int v = 0; v < kVec; ++v) st_cluster(dst + (v * kThreads + tid) * 16, mine[v]);
    } else if constexpr (kMode == kGlobal || kMode == kSplit) {
      float4* mine_g = global + static_cast<std::size_t>(blockIdx.x) * (kBytes / 16);
#pragma unroll
      for (int v = 0; v < kVec; ++v) {
        if (kMode == kSplit && v < kVec / 2)
          send[v * kThreads + tid] = mine[v];
        else
          __stcg(mine_g + v * kThreads + tid, mine[v]);
      }
    } else if constexpr (kMode == kMbar) {
      if (round > 0) wait_cluster_acquire(smem_addr(&done_reading), (round - 1) & 1);  // the partner read them
#pragma unroll
      for (int v = 0; v < kVec; ++v) send[v * kThreads + tid] = mine[v];
    } else if constexpr (kMode != kSync) {
#pragma unroll
      for (int v = 0; v < kVec; ++v) send[v * kThreads + tid] = mine[v];
    }
    if constexpr (kMode == kBulk) {
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      if (tid == 0)
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(&bar)), "r"(kBytes) : "memory");
    }
    if constexpr (kMode == kMbar) {
      __syncthreads();
      if (tid == 0) arrive_remote(remote(smem_addr(&ready), peer));
      wait_cluster_acquire(smem_addr(&ready), round & 1);
    } else {
      cluster_sync();
    }
    float4 got[kVec];
    if constexpr (kMode == kMbar) {
      const std::uint32_t src = remote(smem_addr(send), peer);
#pragma unroll
      for (int v = 0; v < kVec; ++v) got[v] = ld_cluster(src + (v * kThreads + tid) * 16);
      __syncthreads();
      if (tid == 0) arrive_remote(remote(smem_addr(&done_reading), peer));
    } else if constexpr (kMode == kPull || kMode == kPull1) {
      if (kMode == kPull || rank == 0) {
        const std::uint32_t src = remote(smem_addr(send), peer);
#pragma unroll
        for (int v = 0; v < kVec; ++v) got[v] = ld_cluster(src + (v * kThreads + tid) * 16);
      } else {
#pragma unroll
        for (int v = 0; v < kVec; ++v) got[v] = make_float4(value(cluster, peer, v * kThreads + tid, round), 1.0f, 2.0f, 3.0f);
      }
    } else if constexpr (kMode == kBulk) {
      if (tid < kChunks) {
        constexpr int kChunkBytes = kBytes / kChunks;
        const std::uint32_t dst = remote(smem_addr(recv), peer) + tid * kChunkBytes;
        const std::uint32_t mbar = remote(smem_addr(&bar), peer);
        asm volatile(
            "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
            "r"(smem_addr(send) + tid * kChunkBytes), "r"(kChunkBytes), "r"(mbar)
            : "memory");
      }
      const std::uint32_t parity = round & 1;
      std::uint32_t done = 0;
      while (!done)
        asm volatile(
            "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
            : "=r"(done)
            : "r"(smem_addr(&bar)), "r"(parity)
            : "memory");
#pragma unroll
      for (int v = 0; v < kVec; ++v) got[v] = recv[v * kThreads + tid];
    } else if constexpr (kMode == kPush) {
#pragma unroll
      for (int v = 0; v < kVec; ++v) got[v] = recv[v * kThreads + tid];
    } else if constexpr (kMode == kGlobal || kMode == kSplit) {
      const float4* peer_g = global + static_cast<std::size_t>(blockIdx.x ^ 1u) * (kBytes / 16);
      const std::uint32_t src = remote(smem_addr(send), peer);
#pragma unroll
      for (int v = 0; v < kVec; ++v) {
        if (kMode == kSplit && v < kVec / 2)
          got[v] = ld_cluster(src + (v * kThreads + tid) * 16);
        else
          got[v] = __ldcg(peer_g + v * kThreads + tid);
      }
    } else if constexpr (kMode == kSync) {
#pragma unroll
      for (int v = 0; v < kVec; ++v) got[v] = make_float4(value(cluster, peer, v * kThreads + tid, round), 1.0f, 2.0f, 3.0f);
    } else {
#pragma unroll
      for (int v = 0; v < kVec; ++v) got[v] = send[v * kThreads + tid];
    }
#pragma unroll
    for (int v = 0; v < kVec; ++v) {
      const int i = v * kThreads + tid;
      const float want = kMode == kLocal ? value(cluster, rank, i, round) : value(cluster, peer, i, round);
      bad += got[v].x != want || got[v].y != 1.0f || got[v].w != 3.0f;
      acc += got[v].x + got[v].z + mine[v].x;
    }
    if constexpr (kMode != kMbar) cluster_sync();
    total += clock64() - t0;
  }
  if constexpr (kMode == kMbar) wait_cluster_acquire(smem_addr(&done_reading), (kRounds - 1) & 1);
  cluster_sync();  // neither CTA exits while the other may still reach into it
  if (tid == 0) cycles[blockIdx.x] = total / kRounds;
  atomicAdd(mismatches, bad);
  if (acc == -1.0f) sink[0] = acc;  // keeps the sums alive
}

template <int kMode, int kBytes>
void run(int ctas) {
  auto kernel = exchange<kMode, kBytes>;
  const int smem = 2 * kBytes;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  long long* cycles;
  unsigned* mismatches;
  float* sink;
  float4* global;
  CHECK(cudaMalloc(&global, static_cast<std::size_t>(ctas) * kBytes));
  CHECK(cudaMalloc(&cycles, ctas * sizeof(long long)));
  CHECK(cudaMalloc(&mismatches, sizeof(unsigned)));
  CHECK(cudaMalloc(&sink, sizeof(float)));
  std::vector<long long> best(ctas, 0);
  double best_median = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    CHECK(cudaMemset(mismatches, 0, sizeof(unsigned)));
    kernel<<<ctas, kThreads, smem>>>(cycles, mismatches, sink, global);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<long long> c(ctas);
    unsigned bad = 0;
    CHECK(cudaMemcpy(c.data(), cycles, ctas * sizeof(long long), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&bad, mismatches, sizeof(unsigned), cudaMemcpyDeviceToHost));
    if (bad != 0) std::printf("  %s %d KB: %u mismatches\n", kModeNames[kMode], kBytes / 1024, bad);
    std::sort(c.begin(), c.end());
    if (c[ctas / 2] < best_median) {
      best_median = static_cast<double>(c[ctas / 2]);
      best = c;
    }
  }
  const double received = kMode == kPull1 ? kBytes / 2.0 : kBytes;  // a CTA's mean (pull1: rank 0 only)
  std::printf("%-6s %3d KB a direction: cycles a round min %6lld median %6.0f max %6lld; %.1f bytes a cycle received a CTA\n",
              kModeNames[kMode], kBytes / 1024, best.front(), best_median, best.back(), received / best_median);
  CHECK(cudaFree(cycles));
  CHECK(cudaFree(mismatches));
  CHECK(cudaFree(sink));
  CHECK(cudaFree(global));
}

template <int kBytes>
void run_all(int ctas) {
  run<kSync, kBytes>(ctas);
  run<kLocal, kBytes>(ctas);
  run<kPull, kBytes>(ctas);
  run<kPull1, kBytes>(ctas);
  run<kPush, kBytes>(ctas);
  run<kBulk, kBytes>(ctas);
  run<kGlobal, kBytes>(ctas);
  run<kSplit, kBytes>(ctas);
  run<kMbar, kBytes>(ctas);
}

}  // namespace

int main() {
  int sms = 0, clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int ctas = sms / 2 * 2;
  std::printf("%s, %d SMs, %d CTAs in clusters of 2, %d threads, %d rounds (clock rate attribute %d MHz)\n", prop.name,
              sms, ctas, kThreads, kRounds, clock_khz / 1000);
  run_all<32 * 1024>(ctas);
  run_all<64 * 1024>(ctas);
  return 0;
}
