// Spike (session 12): how fast TMA streams an fp8 weight (N x K = 28672 x 8192) into an SM
// ring, by box shape, with an optional L2-resident bf16 activation box per stage and the CTAs'
// K phase, no compute: one CTA per SM, one producer thread, one consumer warp that only waits
// and releases (the streaming kernel's pipeline alone). Also: plain 16-byte loads of the same
// weight, and pairs of CTAs (clusters of 2) that multicast the activation.
// (Session 33: its flush, cudaMemsetAsync, leaves L2 dirty, and every timed launch here writes
// those lines back while it streams: its rates compare with each other, not with read_floor.cu,
// which rotates clean buffers. ring_stream.cu's RING_CLEAN_FLUSH shows the size of it.)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o tma_stream tma_stream.cu
// Results: bench/results/s12/README.md.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>

#include "stream_spike.cuh"

__device__ __forceinline__ void tma3(void* dst, const CUtensorMap* m, uint64_t* b, int c0, int c1, int c2) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];"
               ::"r"(sa(dst)), "l"(m), "r"(sa(b)), "r"(c0), "r"(c1), "r"(c2) : "memory");
}

struct P { int rows_box, kchunks, stages, act_bytes, act_rows, tiles, ksteps, wbytes, phase; };

__global__ void __launch_bounds__(64, 1) stream_kernel(const __grid_constant__ CUtensorMap wmap, const __grid_constant__ CUtensorMap xmap, P p) {
  extern __shared__ __align__(1024) uint8_t smem[];
  uint8_t* base = smem + ((1024 - (sa(smem) & 1023)) & 1023);
  const int stage_bytes = p.wbytes + p.act_bytes;
  uint64_t* full = reinterpret_cast<uint64_t*>(base + p.stages * stage_bytes);
  uint64_t* empty = full + p.stages;
  if (threadIdx.x == 0) { for (int s = 0; s < p.stages; ++s) { bar_init(&full[s], 1); bar_init(&empty[s], 1); } asm volatile("fence.mbarrier_init.release.cluster;"); }
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0; uint32_t ph = 0; long issued = 0;
    for (int t = blockIdx.x; t < p.tiles; t += gridDim.x)
      for (int ks = 0; ks < p.ksteps; ++ks, ++issued) {
        if (issued >= p.stages) bar_wait(&empty[s], ph ^ 1);
        bar_expect(&full[s], stage_bytes);
        uint8_t* dst = base + s * stage_bytes;
        const int kk = (ks + blockIdx.x * p.phase) % p.ksteps;
        tma3(dst, &wmap, &full[s], 0, kk * p.kchunks, t * p.rows_box);
        if (p.act_bytes)
          for (int j = 0; j < p.kchunks; ++j)
            tma2(dst + p.wbytes + j * p.act_rows * 128, &xmap, &full[s], ((kk * p.kchunks + j) * 128) % 16384, 0);
        if (++s == p.stages) { s = 0; ph ^= 1; }
      }
  } else if (threadIdx.x == 32) {
    int s = 0; uint32_t ph = 0;
    for (int t = blockIdx.x; t < p.tiles; t += gridDim.x)
      for (int ks = 0; ks < p.ksteps; ++ks) {
        bar_wait(&full[s], ph);
        bar_arrive(&empty[s]);
        if (++s == p.stages) { s = 0; ph ^= 1; }
      }
  }
}

__device__ __forceinline__ void tma2_mc(void* dst, const CUtensorMap* m, uint64_t* b, int c0, int c1, uint16_t mask) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;"
               ::"r"(sa(dst)), "l"(m), "r"(sa(b)), "r"(c0), "r"(c1), "h"(mask) : "memory");
}
__device__ __forceinline__ uint32_t cta_rank() { uint32_t r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ __forceinline__ void bar_arrive_remote(uint64_t* b, uint32_t rank) {
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(sa(b)), "r"(rank));
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
}
__device__ __forceinline__ void cluster_sync() { asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory"); }

// The same stream, CTAs in pairs (a cluster of 2 along N): each loads its own weight box and
// half of the activation box, multicast to both.
__global__ void __launch_bounds__(64, 1) stream_mc_kernel(const __grid_constant__ CUtensorMap wmap, const __grid_constant__ CUtensorMap xmap, P p) {
  extern __shared__ __align__(1024) uint8_t smem[];
  uint8_t* base = smem + ((1024 - (sa(smem) & 1023)) & 1023);
  const int stage_bytes = p.wbytes + p.act_bytes;
  uint64_t* full = reinterpret_cast<uint64_t*>(base + p.stages * stage_bytes);
  uint64_t* empty = full + p.stages;
  const uint32_t rank = cta_rank();
  if (threadIdx.x == 0) { for (int s = 0; s < p.stages; ++s) { bar_init(&full[s], 1); bar_init(&empty[s], 2); } asm volatile("fence.mbarrier_init.release.cluster;"); }
  cluster_sync();
  const int pair = blockIdx.x / 2, pairs = gridDim.x / 2;
  if (threadIdx.x == 0) {
    int s = 0; uint32_t ph = 0; long issued = 0;
    const int half_rows = p.act_rows / 2;
    for (int t = pair; t < p.tiles / 2; t += pairs)
      for (int ks = 0; ks < p.ksteps; ++ks, ++issued) {
        if (issued >= p.stages) bar_wait(&empty[s], ph ^ 1);
        bar_expect(&full[s], stage_bytes);
        uint8_t* dst = base + s * stage_bytes;
        tma3(dst, &wmap, &full[s], 0, ks * p.kchunks, (2 * t + rank) * p.rows_box);
        for (int j = 0; j < p.kchunks; ++j)
          tma2_mc(dst + p.wbytes + j * p.act_rows * 128 + rank * half_rows * 128, &xmap, &full[s],
                  ((ks * p.kchunks + j) * 128) % 16384, rank * half_rows, 3);
        if (++s == p.stages) { s = 0; ph ^= 1; }
      }
  } else if (threadIdx.x == 32) {
    int s = 0; uint32_t ph = 0;
    for (int t = pair; t < p.tiles / 2; t += pairs)
      for (int ks = 0; ks < p.ksteps; ++ks) {
        bar_wait(&full[s], ph);
        bar_arrive_remote(&empty[s], rank);
        bar_arrive_remote(&empty[s], rank ^ 1);
        if (++s == p.stages) { s = 0; ph ^= 1; }
      }
  }
  cluster_sync();
}

// Plain vectorized reads of the weight (the read ceiling without TMA).
__global__ void read_kernel(const uint4* w, long n16, unsigned* out) {
  unsigned acc = 0;
  const long stride = (long)gridDim.x * blockDim.x;
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n16; i += 4 * stride) {
    uint4 a = __ldcs(w + i), b = __ldcs(w + i + stride), c = __ldcs(w + i + 2 * stride), d = __ldcs(w + i + 3 * stride);
    acc ^= a.x ^ b.y ^ c.z ^ d.w;
  }
  for (; i < n16; i += stride) acc ^= __ldcs(w + i).x;
  if (acc == 0x12345678u) out[0] = acc;
}

int main(int argc, char** argv) {
  const long N = 28672, K = 8192;
  uint8_t* w; CK(cudaMalloc(&w, N * K));
  CK(cudaMemset(w, 0x3c, N * K));
  uint16_t* x; CK(cudaMalloc(&x, 256 * 8192 * 2)); CK(cudaMemset(x, 0x3c, 256 * 8192 * 2));
  uint8_t* flush; CK(cudaMalloc(&flush, 256l << 20));
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaFuncSetAttribute(stream_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  // Session 17: `tma_stream rows:kbytes[:stages] ...` streams only those weight boxes (no
  // activation, every CTA at its own tiles), without the plain-read and multicast runs.
  const bool custom = argc > 1;
  if (!custom) {
    unsigned* out; CK(cudaMalloc(&out, 4));
    for (int blocks : {sms * 2, sms * 4, sms * 8}) for (int threads : {256, 512, 1024}) {
      std::vector<float> ts; cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
      for (int it = 0; it < 12; ++it) {
        CK(cudaMemsetAsync(flush, it, 256l << 20));
        CK(cudaEventRecord(a)); read_kernel<<<blocks, threads>>>((const uint4*)w, N * K / 16, out); CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b)); float ms; CK(cudaEventElapsedTime(&ms, a, b)); if (it >= 2) ts.push_back(ms);
      }
      std::sort(ts.begin(), ts.end());
      printf("plain read %5d x %4d: %8.1f us %6.2f TB/s\n", blocks, threads, ts[5] * 1e3, N * K / (ts[5] * 1e9));
    }
  }
  CK(cudaFuncSetAttribute(stream_mc_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  struct V { int rows, kbytes, act_rows, promo, phase = 0; };
  // Box shapes without an activation, then with 64/128/256 activation rows at K phases: 0 (every
  // CTA at the same K), ksteps / 2 (two offsets), / 4, / 8, and 37 (spread over all of K).
  std::vector<V> vs_default = {
    {128, 64, 0, 256}, {128, 64, 0, 0}, {128, 128, 0, 256}, {128, 256, 0, 256}, {256, 64, 0, 256},
    {256, 128, 0, 256}, {64, 256, 0, 256}, {128, 512, 0, 256}, {128, 64, 0, 256, 37},
    {128, 64, 256, 256, 0}, {128, 64, 256, 256, 64}, {128, 64, 256, 256, 32}, {128, 64, 256, 256, 16},
    {128, 64, 256, 256, 8}, {128, 64, 256, 256, 37}, {128, 64, 256, 256, 1},
    {128, 64, 128, 256, 0}, {128, 64, 128, 256, 64}, {128, 64, 128, 256, 32}, {128, 64, 128, 256, 16},
    {128, 64, 128, 256, 37}, {128, 128, 128, 256}, {256, 64, 128, 256}, {256, 128, 128, 256},
    {256, 64, 128, 256, 37}, {128, 128, 256, 256}, {128, 64, 64, 256, 0}, {128, 64, 64, 256, 37},
  };
  std::vector<V> vs = vs_default;
  std::vector<int> forced_stages;
  if (custom) {
    vs.clear();
    for (int i = 1; i < argc; ++i) {
      int r = 0, kb = 0, st = 0;
      if (std::sscanf(argv[i], "%d:%d:%d", &r, &kb, &st) < 2) { printf("bad box %s\n", argv[i]); return 2; }
      vs.push_back(V{r, kb, 0, 256});
      forced_stages.push_back(st);
    }
  }
  printf("%6s %6s %6s %6s %6s %10s %10s %10s\n", "rows", "kbytes", "actrow", "promo", "stages", "us", "W TB/s", "W+X TB/s");
  int mc_ctas = 0;
  {
    cudaLaunchConfig_t cfg{}; cfg.gridDim = dim3(sms / 2 * 2); cfg.blockDim = dim3(64); cfg.dynamicSmemBytes = 200 * 1024;
    cudaLaunchAttribute at[1]; at[0].id = cudaLaunchAttributeClusterDimension; at[0].val.clusterDim.x = 2; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
    cfg.attrs = at; cfg.numAttrs = 1;
    int clusters = 0; CK(cudaOccupancyMaxActiveClusters(&clusters, (void*)stream_mc_kernel, &cfg));
    printf("max active clusters of 2 at 200 KB smem: %d\n", clusters);
    mc_ctas = 2 * clusters;
  }
  for (int mc = 0; mc < (custom ? 1 : 2); ++mc)
  for (size_t vi = 0; vi < vs.size(); ++vi) {
    const V& v = vs[vi];
    if (mc && (v.act_rows == 0 || v.phase != 0)) continue;  // multicast: same-K pairs only
    const int kchunks = v.kbytes / 64;
    CUtensorMap wm{}, xm{};
    cuuint64_t dims[3] = {64, (cuuint64_t)(K / 64), (cuuint64_t)N};
    cuuint64_t str[2] = {64, (cuuint64_t)K};
    cuuint32_t box[3] = {64, (cuuint32_t)kchunks, (cuuint32_t)v.rows};
    cuuint32_t es[3] = {1, 1, 1};
    CUresult r = enc()(&wm, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, w, dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                       CU_TENSOR_MAP_SWIZZLE_64B, v.promo == 256 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_NONE,
                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r) { printf("encode w %d\n", r); continue; }
    const int act_bytes = v.act_rows * v.kbytes * 2;
    if (v.act_rows) {
      cuuint64_t d2[2] = {16384, 256}; cuuint64_t s2[1] = {16384};
      cuuint32_t b2[2] = {128, (cuuint32_t)(mc ? v.act_rows / 2 : v.act_rows)};
      // activation boxes of 128 bytes (64 bf16) per row; kchunks of them for wider stages
      r = enc()(&xm, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, x, d2, s2, b2, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
      if (r) { printf("encode x %d\n", r); continue; }
    }
    P p{}; p.phase = v.phase;
    p.rows_box = v.rows; p.kchunks = kchunks; p.act_rows = v.act_rows;
    p.wbytes = v.rows * v.kbytes;
    p.act_bytes = v.act_rows ? v.act_rows * 128 : 0;  // one 128-byte activation box per stage
    // the activation box is 64 K of bf16; a stage of kbytes K needs kchunks of them: emulate by
    // scaling the box count into bytes (one box per 64 K)
    p.act_bytes *= kchunks;
    const int stage_bytes = p.wbytes + p.act_bytes;
    p.stages = std::min(8, (200 * 1024) / stage_bytes);
    if (custom && forced_stages[vi] > 0) p.stages = std::min(forced_stages[vi], (220 * 1024) / stage_bytes);
    if (p.stages < 2) { printf("skip\n"); continue; }
    p.tiles = N / v.rows; p.ksteps = K / v.kbytes;
    const int smem = p.stages * stage_bytes + 2 * p.stages * 8 + 1024;
    // multiple activation boxes per stage: issue kchunks boxes
    (void)act_bytes;
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    std::vector<float> ts;
    for (int it = 0; it < 12; ++it) {
      CK(cudaMemsetAsync(flush, it, 256l << 20));
      CK(cudaEventRecord(a));
      if (mc) {
        cudaLaunchConfig_t cfg{}; cfg.gridDim = dim3(mc_ctas); cfg.blockDim = dim3(64); cfg.dynamicSmemBytes = smem;
        cudaLaunchAttribute at[1]; at[0].id = cudaLaunchAttributeClusterDimension; at[0].val.clusterDim.x = 2; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
        cfg.attrs = at; cfg.numAttrs = 1;
        CK(cudaLaunchKernelEx(&cfg, stream_mc_kernel, wm, xm, p));
      } else {
        stream_kernel<<<sms, 64, smem>>>(wm, xm, p);
      }
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms; CK(cudaEventElapsedTime(&ms, a, b)); if (it >= 2) ts.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(ts.begin(), ts.end());
    const double us = ts[ts.size() / 2] * 1e3;
    const double wb = (double)N * K, xb = (double)p.act_bytes * p.ksteps * p.tiles;
    printf("%s%6d %6d %6d %6d %6d %10.1f %10.2f %10.2f  phase %d\n", mc ? "mc " : "   ", v.rows, v.kbytes, v.act_rows, v.promo, p.stages, us, wb / us / 1e6, (wb + xb) / us / 1e6, v.phase);
  }
  return 0;
}
