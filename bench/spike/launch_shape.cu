// Spike (session 32): how much of a kernel's duration lies outside its CTAs' span, by launch
// shape. The streaming kernel's ncu duration at decode shapes was ~4 us longer than the span
// from its first CTA's start to its last CTA's end (global timer); this kernel only stamps the
// global timer at entry and exit of every CTA (and optionally spins for `work_ns`), launched
// with a chosen block size, dynamic shared memory and PDL attribute, so that ncu's duration
// and the span can be set side by side.
// Session 33: the same kernel with a parameter block of 16, 1152 (the streaming kernel's: three
// tensor maps and StreamGemmParams) or 4096 bytes, each also timed with events over 50
// back-to-back launches (the bench's way), to see whether the parameter block's size is the
// streaming kernel's own ~1-2.4 us outside its span.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o launch_shape launch_shape.cu
// Run:   ncu --clock-control none --metrics gpu__time_duration.sum ./launch_shape
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "stream_spike.cuh"  // CK

__device__ unsigned long long g_stamp[1024][2];

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void stamp_kernel(unsigned long long work_ns, int smem_bytes) {
  extern __shared__ unsigned char smem[];
  const unsigned long long t0 = now_ns();
  if (threadIdx.x == 0) {
    g_stamp[blockIdx.x][0] = t0;
    while (now_ns() - t0 < work_ns) {
    }
    if (smem_bytes > 0) smem[smem_bytes - 1] = 1;  // touch the shared memory (none when 0)
  }
  __syncthreads();
  if (threadIdx.x == 0) g_stamp[blockIdx.x][1] = now_ns() + (smem_bytes > 0 ? smem[smem_bytes - 1] - 1 : 0);
}

// The median over 8 launches (each run to completion) of the span from the first CTA's entry
// stamp to the last CTA's exit stamp, us.
template <typename Launch>
static double median_span(cudaStream_t s, int ctas, Launch&& launch) {
  std::vector<double> spans;
  for (int it = 0; it < 8; ++it) {
    launch();
    CK(cudaStreamSynchronize(s));
    static unsigned long long h[1024][2];
    CK(cudaMemcpyFromSymbol(h, g_stamp, sizeof(h)));
    unsigned long long first = ~0ull, last = 0;
    for (int c = 0; c < ctas; ++c) {
      first = std::min(first, h[c][0]);
      last = std::max(last, h[c][1]);
    }
    spans.push_back((last - first) * 1e-3);
  }
  std::sort(spans.begin(), spans.end());
  return spans[spans.size() / 2];
}

template <int kBytes>
struct Blob {
  unsigned char b[kBytes];
};
template <int kBytes>
__global__ void stamp_kernel_params(const __grid_constant__ Blob<kBytes> blob, unsigned long long work_ns) {
  const unsigned long long t0 = now_ns();
  if (threadIdx.x == 0) {
    g_stamp[blockIdx.x][0] = t0;
    while (now_ns() - t0 < work_ns) {
    }
  }
  __syncthreads();
  // Read the last byte of the block so that it cannot be left out.
  if (threadIdx.x == 0) g_stamp[blockIdx.x][1] = now_ns() + (blob.b[kBytes - 1] == 7 ? 1 : 0);
}

template <int kBytes>
static void time_params(cudaStream_t s, int ctas, unsigned long long work_ns) {
  auto kernel = stamp_kernel_params<kBytes>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  Blob<kBytes> blob{};
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(ctas);
  cfg.blockDim = dim3(640);
  cfg.dynamicSmemBytes = 227 * 1024;
  cfg.stream = s;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = at;
  cfg.numAttrs = 1;
  const double span = median_span(s, ctas, [&] { CK(cudaLaunchKernelEx(&cfg, kernel, blob, work_ns)); });
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<double> per_launch{0.0};
  const int reps = std::getenv("LAUNCH_NO_LOOP") ? 0 : 5;  // (under ncu: the spans' launches only)
  if (reps > 0) per_launch.clear();
  for (int rep = 0; rep < reps; ++rep) {
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < 50; ++i) CK(cudaLaunchKernelEx(&cfg, kernel, blob, work_ns));
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    per_launch.push_back(ms * 1e3 / 50);
  }
  std::sort(per_launch.begin(), per_launch.end());
  std::printf("params %d B work %.1f us: CTA span median %.2f us, back-to-back %.2f us a launch\n", kBytes,
              work_ns * 1e-3, span, per_launch[per_launch.size() / 2]);
}

int main() {
  struct Shape { int threads, smem_kb, pdl; unsigned long long work_ns; };
  const Shape shapes[] = {{640, 227, 1, 20000}, {640, 227, 0, 20000}, {160, 0, 0, 20000}, {384, 225, 0, 20000},
                          {640, 0, 1, 20000},   {640, 160, 1, 20000}, {640, 100, 1, 20000}, {384, 227, 1, 20000},
                          {640, 227, 1, 0}};
  CK(cudaFuncSetAttribute(stamp_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  const int ctas = 128;
  for (const Shape& sh : shapes) {
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(ctas);
    cfg.blockDim = dim3(sh.threads);
    cfg.dynamicSmemBytes = static_cast<size_t>(sh.smem_kb) * 1024;
    cfg.stream = s;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = at;
    cfg.numAttrs = sh.pdl;
    const double span =
        median_span(s, ctas, [&] { CK(cudaLaunchKernelEx(&cfg, stamp_kernel, sh.work_ns, sh.smem_kb * 1024)); });
    std::printf("threads %d smem %d KB pdl %d work %.1f us: CTA span median %.2f us\n", sh.threads, sh.smem_kb, sh.pdl,
                sh.work_ns * 1e-3, span);
  }
  for (unsigned long long work : {20000ull, 0ull}) {
    time_params<16>(s, ctas, work);
    time_params<1152>(s, ctas, work);
    time_params<4096>(s, ctas, work);
    time_params<1152>(s, ctas, work);
    time_params<16>(s, ctas, work);
  }
  return 0;
}
