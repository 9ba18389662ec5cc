// Spike (session 17): what bounds a shared-memory ring streaming an fp8 weight from HBM.
// tma_stream.cu found every TMA box shape of 8 KB or more, at any stage count, at 3.3-3.5 TB/s
// on the H200 (28672 x 8192 bytes in 66.7-71 us), where plain loads reach 4.25 TB/s
// (read_floor.cu). Here the same ring (a stage: `rows` weight rows x `kbytes` bytes of K, every
// CTA streaming its own tiles, a consumer thread that only waits and releases) is filled
//   tma     by one thread's TMA box,
//   cpasync by 96 threads' 16-byte cp.async copies (through L1, not the TMA unit),
//   hybrid  half the rows by TMA, half by cp.async,
// with `cps` CTAs per SM, so that a per-SM limit of the TMA unit shows against the LSU path.
// Session 33: the flush between timed launches (cudaMemsetAsync of 256 MB, as in tma_stream.cu)
// leaves L2 full of dirty lines that the timed launch writes back while it streams; read_floor.cu
// and the library's bench rotate clean buffers instead. RING_CLEAN_FLUSH=1 flushes by a read:
// 28672 x 8192 then streams in 59-62 us (3.8-4.0 TB/s event-timed, one launch included) instead
// of 67-68, and 8192^2 in 21-23 us instead of 28. The TMA rates above and in earlier sessions'
// event-timed ring runs carry that handicap; compare them with each other, not with read_floor.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o ring_stream ring_stream.cu
// Run:   ./ring_stream mode:rows:kbytes:stages:cps[:ctas[:kparts[:boxk[:xrows]]]] ...
//        e.g. tma:256:64:8:1 hybrid:256:64:8:1
//        (ctas: the grid, default cps x SMs; each CTA streams whole tiles, round-robin;
//         kparts > 1 (session 19): CTA c streams K part c % kparts of tile c / kparts, as
//         the streaming kernel's split reduction does; boxk: a stage's rows x kbytes arrive as
//         kbytes / boxk TMA boxes of rows x boxk bytes (the K split among a CTA's warpgroups);
//         xrows: each box also loads an L2-resident bf16 activation box of xrows x boxk
//         elements, as the kernel does.) The weight is RING_N x RING_K bytes (default
//         28672 x 8192).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "stream_spike.cuh"

// The same with an L2 cache policy (createpolicy), for the RING_HINT experiments.
__device__ __forceinline__ void tma2_hint(void* dst, const CUtensorMap* m, uint64_t* b, int c0, int c1, uint64_t pol) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1, {%3, "
      "%4}], [%2], %5;" ::"r"(sa(dst)),
      "l"(m), "r"(sa(b)), "r"(c0), "r"(c1), "l"(pol)
      : "memory");
}
__device__ __forceinline__ void cp16(void* dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa(dst)), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_arrive(uint64_t* b) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(sa(b)) : "memory");
}

// RING_TRACE=1 (session 33): per CTA, global-timer stamps at entry, at the first TMA's issue
// (producer thread), when the first stage has landed (consumer thread) and at the consumer's
// end; printed for the last timed launch as min/median/max over the CTAs, us from the first
// entry. For comparison with the streaming kernel's own timeline (stream_trace.cuh).
enum RingEvent { kRingStart, kRingFirstTma, kRingFirstFull, kRingEnd, kRingEvents };
__device__ unsigned long long g_ring_trace[1024][kRingEvents];
__device__ __forceinline__ unsigned long long ring_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// RING_DYNAMIC=c (session 33, TMA mode only): instead of each CTA's fixed share, a unit of c
// stages of one tile's K goes to whichever CTA claims it next from a global counter (the way
// cuBLASLt's persistent fp8 kernels take their tiles, an ATOMG counter, session 32), so that a
// CTA slowed by its share of DRAM contention takes fewer units. The producer keeps one claim in
// flight; it ends the ring with a stage marked done (an arrival without bytes).
__device__ int g_ring_next_unit;

// RING_CLEAN_FLUSH=1 (session 33): L2 is flushed between launches by reading the 256 MB buffer
// (clean lines) instead of cudaMemsetAsync, which leaves L2 full of dirty lines that the next
// launch writes back while it streams (the library's bench rotates its inputs instead).
__device__ unsigned g_ring_flush_sink;
__global__ void read_flush(const uint4* buf, long n) {
  unsigned acc = 0;
  for (long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < n; i += static_cast<long>(gridDim.x) * blockDim.x)
    acc ^= buf[i].x ^ buf[i].w;
  if (acc == 0x12345678u) g_ring_flush_sink = acc;
}

enum Mode { kTma = 0, kCpAsync = 1, kHybrid = 2 };
struct P {
  int mode, rows, kbytes, stages, tiles, ksteps, tma_rows, kparts, boxk, xrows, hint, trace, dynamic;
  int scales;      // RING_SCALES=1: each 128-byte box also loads its rows' 512-byte scale chunks
  int consume_ns;  // RING_CONSUME_NS: the consumer holds each stage this long before releasing it
  long k;
  const uint8_t* w;
};
constexpr int kCopyThreads = 96;

// RING_SCALES=1 (session 33): the streaming kernel's weight scales travel as 512-byte chunks (128
// rows x 4 blocks), chunk (tile128, k128) at (tile128 * K / 128 + k128) * 512, one TMA (2 rows of
// 256 B) for each 128 K of each 128 rows; 64-row tiles load their pair's chunk (as the kernel's
// split does). RING_SCALES=G > 1: the chunks of G consecutive 128-K steps of each 128 rows
// (contiguous in memory) as one TMA box of G x 512 bytes, loaded with the stage where the group
// starts. The shared memory a stage keeps for its chunks, in bytes:
__host__ __device__ inline int scale_stage_bytes(int rows, int kbytes, int scales) {
  const int steps = kbytes / 128;  // 128-K steps a stage
  return scales ? ((steps + scales - 1) / scales) * scales * ((rows + 127) / 128) * 512 : 0;
}

// Warp 0 lane 0: TMA; warp 1 lane 0: the consumer; warps 2..4: cp.async.
__global__ void __launch_bounds__(160) ring_kernel(const __grid_constant__ CUtensorMap wmap,
                                                   const __grid_constant__ CUtensorMap xmap,
                                                   const __grid_constant__ CUtensorMap smap, P p) {
  extern __shared__ __align__(1024) uint8_t smem[];
  uint8_t* base = smem + ((1024 - (sa(smem) & 1023)) & 1023);
  const int x_bytes = p.xrows * p.kbytes * 2;  // bf16 activation boxes of the stage
  const int sc_bytes = scale_stage_bytes(p.rows, p.kbytes, p.scales);
  const int stage_bytes = p.rows * p.kbytes + x_bytes + sc_bytes;
  uint64_t* full = reinterpret_cast<uint64_t*>(base + p.stages * stage_bytes);
  uint64_t* empty = full + p.stages;
  volatile int* done = reinterpret_cast<int*>(empty + p.stages);  // RING_DYNAMIC: stage s ends the ring
  const bool tma = p.mode != kCpAsync, copies = p.mode != kTma;
  if (threadIdx.x == 0) {
    if (p.trace) g_ring_trace[blockIdx.x][kRingStart] = ring_now();
    for (int s = 0; s < p.stages; ++s) done[s] = 0;
    for (int s = 0; s < p.stages; ++s) {
      bar_init(&full[s], (tma ? 1 : 0) + (copies ? kCopyThreads : 0));
      bar_init(&empty[s], 1);
    }
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  const int cp_rows = p.rows - p.tma_rows;  // rows [tma_rows, rows) by cp.async
  if (p.dynamic > 0) {
    const int chunks = p.ksteps / p.dynamic, units = p.tiles * chunks;
    int s = 0;
    uint32_t ph = 0;
    if (threadIdx.x == 0) {
      long issued = 0;
      int unit = atomicAdd(&g_ring_next_unit, 1);
      while (unit < units) {
        const int next = atomicAdd(&g_ring_next_unit, 1);  // used only after this unit's stages
        const int t = unit / chunks, k0 = (unit % chunks) * p.dynamic;
        for (int ks = k0; ks < k0 + p.dynamic; ++ks, ++issued) {
          if (issued >= p.stages) bar_wait(&empty[s], ph ^ 1);
          bar_expect(&full[s], p.rows * p.kbytes);
          uint8_t* dst = base + s * stage_bytes;
          for (int b = 0; b < p.kbytes / p.boxk; ++b)
            tma2(dst + b * p.rows * p.boxk, &wmap, &full[s], ks * p.kbytes + b * p.boxk, t * p.rows);
          if (p.trace && issued == 0) g_ring_trace[blockIdx.x][kRingFirstTma] = ring_now();
          if (++s == p.stages) { s = 0; ph ^= 1; }
        }
        unit = next;
      }
      if (issued >= p.stages) bar_wait(&empty[s], ph ^ 1);
      done[s] = 1;
      bar_arrive(&full[s]);
    } else if (threadIdx.x == 32) {
      for (long n = 0;; ++n) {
        bar_wait(&full[s], ph);
        if (done[s]) break;
        if (p.trace && n == 0) g_ring_trace[blockIdx.x][kRingFirstFull] = ring_now();
        bar_arrive(&empty[s]);
        if (++s == p.stages) { s = 0; ph ^= 1; }
      }
      if (p.trace) g_ring_trace[blockIdx.x][kRingEnd] = ring_now();
    }
    return;
  }
  if (threadIdx.x == 0 && tma) {
    int s = 0;
    uint32_t ph = 0;
    long issued = 0;
    const int part_steps = p.ksteps / p.kparts;
    uint64_t pol = 0;
    if (p.hint == 1 || p.hint == 5) asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
    if (p.hint == 2) asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    if (p.hint == 3) asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;" : "=l"(pol));
    if (p.hint == 4) asm volatile("createpolicy.fractional.L2::evict_unchanged.b64 %0, 1.0;" : "=l"(pol));
    for (int u = blockIdx.x; u < p.tiles * p.kparts; u += gridDim.x) {
      const int t = u / p.kparts, k0 = (u % p.kparts) * part_steps;
      for (int ks = k0; ks < k0 + part_steps; ++ks, ++issued) {
        if (issued >= p.stages) bar_wait(&empty[s], ph ^ 1);
        const int steps = p.kbytes / 128, groups = (p.rows + 127) / 128, gsz = p.scales;
        int sc_loaded = 0;
        if (sc_bytes > 0)
          for (int j = ks * steps; j < ks * steps + steps; ++j)
            if (j % gsz == 0) sc_loaded += groups * gsz * 512;
        bar_expect(&full[s], p.tma_rows * p.kbytes + x_bytes + sc_loaded);
        uint8_t* dst = base + s * stage_bytes;
        if (sc_bytes > 0) {
          for (int j = ks * steps; j < ks * steps + steps; ++j) {
            if (j % gsz != 0) continue;
            for (int g = 0; g < groups; ++g) {
              const long chunk = (static_cast<long>(t) * p.rows / 128 + g) * (p.k / 128) + j;
              tma2(dst + p.rows * p.kbytes + x_bytes + (((j - ks * steps) / gsz) * groups + g) * gsz * 512, &smap,
                   &full[s], 0, static_cast<int>(2 * chunk));
            }
          }
        }
        for (int b = 0; b < p.kbytes / p.boxk; ++b) {
          const bool last_use = (ks * p.kbytes + b * p.boxk) % 256 + p.boxk == 256;
          if (p.hint == 5 && last_use) tma2_hint(dst + b * p.rows * p.boxk, &wmap, &full[s], ks * p.kbytes + b * p.boxk, t * p.rows, pol);
          else if (p.hint && p.hint != 5) tma2_hint(dst + b * p.rows * p.boxk, &wmap, &full[s], ks * p.kbytes + b * p.boxk, t * p.rows, pol);
          else tma2(dst + b * p.rows * p.boxk, &wmap, &full[s], ks * p.kbytes + b * p.boxk, t * p.rows);
          if (p.xrows > 0)
            tma2(dst + p.rows * p.kbytes + b * p.xrows * p.boxk * 2, &xmap, &full[s], ks * p.kbytes + b * p.boxk, 0);
        }
        if (p.trace && issued == 0) g_ring_trace[blockIdx.x][kRingFirstTma] = ring_now();
        if (++s == p.stages) { s = 0; ph ^= 1; }
      }
    }
  } else if (threadIdx.x == 32) {
    int s = 0;
    uint32_t ph = 0;
    for (int u = blockIdx.x; u < p.tiles * p.kparts; u += gridDim.x)
      for (int ks = 0; ks < p.ksteps / p.kparts; ++ks) {
        bar_wait(&full[s], ph);
        if (p.trace && u == static_cast<int>(blockIdx.x) && ks == 0) g_ring_trace[blockIdx.x][kRingFirstFull] = ring_now();
        if (p.consume_ns > 0) {
          const unsigned long long t0 = ring_now();
          while (ring_now() - t0 < static_cast<unsigned long long>(p.consume_ns)) {
          }
        }
        bar_arrive(&empty[s]);
        if (++s == p.stages) { s = 0; ph ^= 1; }
      }
    if (p.trace) g_ring_trace[blockIdx.x][kRingEnd] = ring_now();
  } else if (threadIdx.x >= 64 && copies) {
    const int tid = threadIdx.x - 64;
    const int chunks_per_row = p.kbytes / 16, chunks = cp_rows * chunks_per_row;
    int s = 0;
    uint32_t ph = 0;
    long issued = 0;
    for (int t = blockIdx.x; t < p.tiles; t += gridDim.x)
      for (int ks = 0; ks < p.ksteps; ++ks, ++issued) {
        if (issued >= p.stages) bar_wait(&empty[s], ph ^ 1);
        uint8_t* dst = base + s * stage_bytes + p.tma_rows * p.kbytes;
        const uint8_t* src = p.w + (static_cast<long>(t) * p.rows + p.tma_rows) * p.k + static_cast<long>(ks) * p.kbytes;
        for (int c = tid; c < chunks; c += kCopyThreads) {
          const int r = c / chunks_per_row, j = c % chunks_per_row;
          cp16(dst + r * p.kbytes + j * 16, src + r * p.k + j * 16);
        }
        cp_arrive(&full[s]);
        if (++s == p.stages) { s = 0; ph ^= 1; }
      }
  }
}

int main(int argc, char** argv) {
  const long N = std::getenv("RING_N") ? std::atol(std::getenv("RING_N")) : 28672;
  const long K = std::getenv("RING_K") ? std::atol(std::getenv("RING_K")) : 8192;
  uint16_t* x;
  CK(cudaMalloc(&x, 256 * K * 2));
  CK(cudaMemset(x, 0x3c, 256 * K * 2));
  uint8_t* w;
  CK(cudaMalloc(&w, N * K));
  CK(cudaMemset(w, 0x3c, N * K));
  uint8_t* flush;
  CK(cudaMalloc(&flush, 256l << 20));
  uint8_t* scales_buf;  // RING_SCALES: the weight's scale chunks, N K / 32 bytes
  CK(cudaMalloc(&scales_buf, N * K / 32));
  CK(cudaMemset(scales_buf, 0x7f, N * K / 32));
  int sms;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaFuncSetAttribute(ring_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  std::printf("weight %ld x %ld bytes\n%8s %5s %6s %6s %4s %5s %3s %4s %3s %10s %8s\n", N, K, "mode", "rows", "kbytes",
              "stages", "cps", "ctas", "kp", "boxk", "xr", "us", "TB/s");
  for (int i = 1; i < argc; ++i) {
    char mode_name[16] = {};
    int rows = 0, kbytes = 0, stages = 0, cps = 1, ctas = 0, kparts = 1, boxk = 0, xrows = 0;
    if (std::sscanf(argv[i], "%15[a-z]:%d:%d:%d:%d:%d:%d:%d:%d", mode_name, &rows, &kbytes, &stages, &cps, &ctas, &kparts,
                    &boxk, &xrows) < 4) {
      std::printf("bad spec %s\n", argv[i]);
      return 2;
    }
    P p{};
    p.mode = !std::strcmp(mode_name, "tma") ? kTma : !std::strcmp(mode_name, "cpasync") ? kCpAsync : kHybrid;
    if (boxk <= 0) boxk = kbytes;
    if (kparts < 1) kparts = 1;
    p.rows = rows; p.kbytes = kbytes; p.stages = stages; p.k = K; p.w = w;
    p.kparts = kparts; p.boxk = boxk; p.xrows = xrows;
    // RING_HINT: the weight's L2 policy (0 none, 1 evict_first, 2 evict_last, 3 evict_normal,
    // 4 evict_unchanged, 5 evict_first on the last box of each 256-byte segment of a row, none
// on the others); RING_PROMO: its tensor map's L2 promotion (0 none, 1 64B, 2 128B,
    // 3 256B, the default); RING_SWZ=1: 128B swizzle (boxk 128), 2: 64B swizzle (boxk 64).
    p.hint = std::getenv("RING_HINT") ? std::atoi(std::getenv("RING_HINT")) : 0;
    p.trace = std::getenv("RING_TRACE") ? 1 : 0;
    const bool clean_flush = std::getenv("RING_CLEAN_FLUSH") != nullptr;
    p.dynamic = std::getenv("RING_DYNAMIC") ? std::atoi(std::getenv("RING_DYNAMIC")) : 0;
    p.scales = std::getenv("RING_SCALES") ? std::atoi(std::getenv("RING_SCALES")) : 0;
    p.consume_ns = std::getenv("RING_CONSUME_NS") ? std::atoi(std::getenv("RING_CONSUME_NS")) : 0;
    if (p.scales && (kbytes % 128 != 0 || p.dynamic > 0 || mode_name[0] != 't' || (K / 128) % p.scales != 0 ||
                     (p.scales > kbytes / 128 ? p.scales % (kbytes / 128) : (kbytes / 128) % p.scales) != 0)) {
      std::printf("%s: RING_SCALES takes the tma mode with 128-byte multiples of K a stage, not dynamic\n", argv[i]);
      continue;
    }
    if (p.dynamic > 0 && (mode_name[0] != 't' || xrows > 0 || (K / kbytes) % p.dynamic != 0)) {
      std::printf("%s: RING_DYNAMIC takes the tma mode without xrows, its units dividing K\n", argv[i]);
      continue;
    }
    const int promo = std::getenv("RING_PROMO") ? std::atoi(std::getenv("RING_PROMO")) : 3;
    const int cluster = std::getenv("RING_CLUSTER") ? std::atoi(std::getenv("RING_CLUSTER")) : 1;
    const int swz = std::getenv("RING_SWZ") ? std::atoi(std::getenv("RING_SWZ")) : 0;  // 2: 64B swizzle
    p.tiles = static_cast<int>(N / rows); p.ksteps = static_cast<int>(K / kbytes);
    p.tma_rows = p.mode == kTma ? rows : p.mode == kCpAsync ? 0 : rows / 2;
    CUtensorMap wm{};
    if (p.tma_rows > 0) {
      cuuint64_t dims[2] = {(cuuint64_t)K, (cuuint64_t)N};
      cuuint64_t str[1] = {(cuuint64_t)K};
      cuuint32_t box[2] = {(cuuint32_t)boxk, (cuuint32_t)p.tma_rows};
      cuuint32_t es[2] = {1, 1};
      CUresult r = enc()(&wm, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, w, dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         swz == 1 ? CU_TENSOR_MAP_SWIZZLE_128B : swz == 2 ? CU_TENSOR_MAP_SWIZZLE_64B : CU_TENSOR_MAP_SWIZZLE_NONE,
                         static_cast<CUtensorMapL2promotion>(promo), CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
      if (r) { std::printf("%s: encode %d\n", argv[i], r); continue; }
    }
    CUtensorMap xm{};
    if (xrows > 0) {
      cuuint64_t dims[2] = {(cuuint64_t)K, 256};
      cuuint64_t str[1] = {(cuuint64_t)K * 2};
      cuuint32_t box[2] = {(cuuint32_t)boxk, (cuuint32_t)xrows};
      cuuint32_t es[2] = {1, 1};
      CUresult r = enc()(&xm, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, x, dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
      if (r) { std::printf("%s: x encode %d\n", argv[i], r); continue; }
    }
    const int smem = stages * (rows * kbytes + xrows * kbytes * 2 + scale_stage_bytes(rows, kbytes, p.scales)) +
                     2 * stages * 8 + 4 * stages + 1024;
    CUtensorMap sm{};
    if (p.scales) {
      cuuint64_t dims[2] = {256, (cuuint64_t)(N * K / 32 / 256)};
      cuuint64_t str[1] = {256};
      cuuint32_t box[2] = {256, static_cast<cuuint32_t>(2 * p.scales)};
      cuuint32_t es[2] = {1, 1};
      CUresult r = enc()(&sm, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, scales_buf, dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
      if (r) { std::printf("%s: scales encode %d\n", argv[i], r); continue; }
    }
    if (smem * cps > 227 * 1024) { std::printf("%s: %d bytes of smem a CTA do not fit %d CTAs\n", argv[i], smem, cps); continue; }
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> ts;
    for (int it = 0; it < 12; ++it) {
      if (clean_flush) {
        read_flush<<<sms * 4, 512>>>(reinterpret_cast<const uint4*>(flush), (256l << 20) / 16);
        CK(cudaGetLastError());
      } else {
        CK(cudaMemsetAsync(flush, it, 256l << 20));
      }
      if (p.dynamic > 0) {
        void* counter;
        CK(cudaGetSymbolAddress(&counter, g_ring_next_unit));
        CK(cudaMemsetAsync(counter, 0, sizeof(int)));
      }
      CK(cudaEventRecord(a));
      if (cluster > 1) {
        // RING_CLUSTER (session 32): the grid in clusters of that many CTAs, as cuBLASLt's
        // nvjet kernels launch (its CTAs each still stream their own tiles).
        cudaLaunchConfig_t cfg{};
        cfg.gridDim = dim3(ctas > 0 ? ctas : sms * cps);
        cfg.blockDim = dim3(160);
        cfg.dynamicSmemBytes = smem;
        cudaLaunchAttribute at[1];
        at[0].id = cudaLaunchAttributeClusterDimension;
        at[0].val.clusterDim.x = cluster;
        at[0].val.clusterDim.y = 1;
        at[0].val.clusterDim.z = 1;
        cfg.attrs = at;
        cfg.numAttrs = 1;
        CK(cudaLaunchKernelEx(&cfg, ring_kernel, wm, xm, sm, p));
      } else {
        ring_kernel<<<ctas > 0 ? ctas : sms * cps, 160, smem>>>(wm, xm, sm, p);
      }
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      if (it >= 2) ts.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(ts.begin(), ts.end());
    const double us = ts[ts.size() / 2] * 1e3;
    std::printf("hint %d promo %d swz %d cluster %d dynamic %d flush %s scales %d consume %d: ", p.hint, promo, swz, cluster,
                p.dynamic, clean_flush ? "read" : "memset", p.scales, p.consume_ns);
    std::printf("%8s %5d %6d %6d %4d %5d %3d %4d %3d %10.1f %8.2f\n", mode_name, rows, kbytes, stages, cps,
                ctas > 0 ? ctas : sms * cps, kparts, boxk, xrows, us, N * K / us / 1e6);
    if (p.trace) {
      const int grid = ctas > 0 ? ctas : sms * cps;
      static unsigned long long h[1024][kRingEvents];
      CK(cudaMemcpyFromSymbol(h, g_ring_trace, sizeof(h)));
      unsigned long long t0 = ~0ull;
      for (int c = 0; c < grid; ++c) t0 = std::min(t0, h[c][kRingStart]);
      const char* names[kRingEvents] = {"start", "first_tma", "first_full", "end"};
      std::printf("RING_TRACE");
      for (int e = 0; e < kRingEvents; ++e) {
        std::vector<double> v;
        for (int c = 0; c < grid; ++c)
          if (h[c][e] >= t0) v.push_back((h[c][e] - t0) * 1e-3);
        std::sort(v.begin(), v.end());
        if (!v.empty()) std::printf(" | %s %.2f/%.2f/%.2f", names[e], v.front(), v[v.size() / 2], v.back());
      }
      std::printf("\n");
    }
  }
  return 0;
}
