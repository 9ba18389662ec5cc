// Spike (session 17): what bounds a shared-memory ring streaming an fp8 weight from HBM.
// tma_stream.cu found every TMA box shape of 8 KB or more, at any stage count, at 3.3-3.5 TB/s
// on the H200 (28672 x 8192 bytes in 66.7-71 us), where plain loads reach 4.25 TB/s
// (read_floor.cu). Here the same ring (a stage: `rows` weight rows x `kbytes` bytes of K, every
// CTA streaming its own tiles, a consumer thread that only waits and releases) is filled
//   tma     by one thread's TMA box,
//   cpasync by 96 threads' 16-byte cp.async copies (through L1, not the TMA unit),
//   hybrid  half the rows by TMA, half by cp.async,
// with `cps` CTAs per SM, so that a per-SM limit of the TMA unit shows against the LSU path.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o ring_stream ring_stream.cu
// Run:   ./ring_stream mode:rows:kbytes:stages:cps[:ctas] ...   e.g. tma:256:64:8:1 hybrid:256:64:8:1
//        (ctas: the grid, default cps x SMs; each CTA streams whole tiles, round-robin)
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                          \
  do {                                                                                 \
    cudaError_t e = (x);                                                               \
    if (e != cudaSuccess) {                                                            \
      std::printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__);                 \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

__device__ __forceinline__ uint32_t sa(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void bar_init(uint64_t* b, int c) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(sa(b)), "r"(c));
}
__device__ __forceinline__ void bar_expect(uint64_t* b, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(sa(b)), "r"(bytes));
}
__device__ __forceinline__ void bar_arrive(uint64_t* b) { asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(sa(b))); }
__device__ __forceinline__ void bar_wait(uint64_t* b, uint32_t ph) {
  asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n @!p bra W;\n}" ::"r"(sa(b)),
               "r"(ph));
}
__device__ __forceinline__ void tma2(void* dst, const CUtensorMap* m, uint64_t* b, int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(
          sa(dst)),
      "l"(m), "r"(sa(b)), "r"(c0), "r"(c1)
      : "memory");
}
__device__ __forceinline__ void cp16(void* dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa(dst)), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_arrive(uint64_t* b) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(sa(b)) : "memory");
}

enum Mode { kTma = 0, kCpAsync = 1, kHybrid = 2 };
struct P {
  int mode, rows, kbytes, stages, tiles, ksteps, tma_rows;
  long k;
  const uint8_t* w;
};
constexpr int kCopyThreads = 96;

// Warp 0 lane 0: TMA; warp 1 lane 0: the consumer; warps 2..4: cp.async.
__global__ void __launch_bounds__(160) ring_kernel(const __grid_constant__ CUtensorMap wmap, P p) {
  extern __shared__ __align__(1024) uint8_t smem[];
  uint8_t* base = smem + ((1024 - (sa(smem) & 1023)) & 1023);
  const int stage_bytes = p.rows * p.kbytes;
  uint64_t* full = reinterpret_cast<uint64_t*>(base + p.stages * stage_bytes);
  uint64_t* empty = full + p.stages;
  const bool tma = p.mode != kCpAsync, copies = p.mode != kTma;
  if (threadIdx.x == 0) {
    for (int s = 0; s < p.stages; ++s) {
      bar_init(&full[s], (tma ? 1 : 0) + (copies ? kCopyThreads : 0));
      bar_init(&empty[s], 1);
    }
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  const int cp_rows = p.rows - p.tma_rows;  // rows [tma_rows, rows) by cp.async
  if (threadIdx.x == 0 && tma) {
    int s = 0;
    uint32_t ph = 0;
    long issued = 0;
    for (int t = blockIdx.x; t < p.tiles; t += gridDim.x)
      for (int ks = 0; ks < p.ksteps; ++ks, ++issued) {
        if (issued >= p.stages) bar_wait(&empty[s], ph ^ 1);
        bar_expect(&full[s], p.tma_rows * p.kbytes);
        tma2(base + s * stage_bytes, &wmap, &full[s], ks * p.kbytes, t * p.rows);
        if (++s == p.stages) { s = 0; ph ^= 1; }
      }
  } else if (threadIdx.x == 32) {
    int s = 0;
    uint32_t ph = 0;
    for (int t = blockIdx.x; t < p.tiles; t += gridDim.x)
      for (int ks = 0; ks < p.ksteps; ++ks) {
        bar_wait(&full[s], ph);
        bar_arrive(&empty[s]);
        if (++s == p.stages) { s = 0; ph ^= 1; }
      }
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

static PFN_cuTensorMapEncodeTiled_v12000 enc() {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q));
  return (PFN_cuTensorMapEncodeTiled_v12000)f;
}

int main(int argc, char** argv) {
  const long N = 28672, K = 8192;
  uint8_t* w;
  CK(cudaMalloc(&w, N * K));
  CK(cudaMemset(w, 0x3c, N * K));
  uint8_t* flush;
  CK(cudaMalloc(&flush, 256l << 20));
  int sms;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaFuncSetAttribute(ring_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  std::printf("%8s %5s %6s %6s %4s %5s %10s %8s\n", "mode", "rows", "kbytes", "stages", "cps", "ctas", "us", "TB/s");
  for (int i = 1; i < argc; ++i) {
    char mode_name[16] = {};
    int rows = 0, kbytes = 0, stages = 0, cps = 1, ctas = 0;
    if (std::sscanf(argv[i], "%15[a-z]:%d:%d:%d:%d:%d", mode_name, &rows, &kbytes, &stages, &cps, &ctas) < 4) {
      std::printf("bad spec %s\n", argv[i]);
      return 2;
    }
    P p{};
    p.mode = !std::strcmp(mode_name, "tma") ? kTma : !std::strcmp(mode_name, "cpasync") ? kCpAsync : kHybrid;
    p.rows = rows; p.kbytes = kbytes; p.stages = stages; p.k = K; p.w = w;
    p.tiles = static_cast<int>(N / rows); p.ksteps = static_cast<int>(K / kbytes);
    p.tma_rows = p.mode == kTma ? rows : p.mode == kCpAsync ? 0 : rows / 2;
    CUtensorMap wm{};
    if (p.tma_rows > 0) {
      cuuint64_t dims[2] = {(cuuint64_t)K, (cuuint64_t)N};
      cuuint64_t str[1] = {(cuuint64_t)K};
      cuuint32_t box[2] = {(cuuint32_t)kbytes, (cuuint32_t)p.tma_rows};
      cuuint32_t es[2] = {1, 1};
      CUresult r = enc()(&wm, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, w, dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
      if (r) { std::printf("%s: encode %d\n", argv[i], r); continue; }
    }
    const int smem = stages * rows * kbytes + 2 * stages * 8 + 1024;
    if (smem * cps > 227 * 1024) { std::printf("%s: %d bytes of smem a CTA do not fit %d CTAs\n", argv[i], smem, cps); continue; }
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> ts;
    for (int it = 0; it < 12; ++it) {
      CK(cudaMemsetAsync(flush, it, 256l << 20));
      CK(cudaEventRecord(a));
      ring_kernel<<<ctas > 0 ? ctas : sms * cps, 160, smem>>>(wm, p);
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      if (it >= 2) ts.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(ts.begin(), ts.end());
    const double us = ts[ts.size() / 2] * 1e3;
    std::printf("%8s %5d %6d %6d %4d %5d %10.1f %8.2f\n", mode_name, rows, kbytes, stages, cps, ctas > 0 ? ctas : sms * cps, us,
                N * K / us / 1e6);
  }
  return 0;
}
