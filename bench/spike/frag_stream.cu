// Spike (session 17): the skinny kernel's weight stream without TMA. ring_stream.cu measured every
// TMA ring (any box, stage count, CTAs per SM) at ~3.4 TB/s on the H200, where plain loads read
// 4.25 (read_floor.cu). Here each warp streams its 16-row x 128-byte units (the skinny kernel's
// split: 128-row tiles x 128-byte groups, tile-major, one contiguous range a CTA, 8 warps a CTA)
// straight into registers, each lane its mma.sync A-fragment bytes (rows g and g + 8, 8 bytes
// of each 32-byte block: ld.global.nc.v2, or 16 bytes of two blocks: .v4), D units ahead in a
// register ring; the consumer only xors (no multiply).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o frag_stream frag_stream.cu
// Run:   ./frag_stream

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "stream_spike.cuh"

__device__ __forceinline__ uint2 ld64(const uint8_t* p) {
  uint2 v;
  asm volatile("ld.global.nc.L1::no_allocate.v2.u32 {%0,%1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
  return v;
}
__device__ __forceinline__ uint4 ld128(const uint8_t* p) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

struct Unit {
  uint4 v[4];  // 64 bytes a lane: 8 x 8 (v2 form, two per uint4) or 4 x 16 (v4 form)
};

template <bool kWide>
__device__ __forceinline__ void load_unit(Unit& u, const uint8_t* w, long K, int unit, int groups, int warp, int lane) {
  const int tile = unit / groups, group = unit - tile * groups;
  const int g = lane >> 2, q = lane & 3;
  const uint8_t* row0 = w + (static_cast<long>(tile) * 128 + warp * 16 + g) * K + group * 128;
  const uint8_t* row1 = row0 + 8 * K;
  if constexpr (kWide) {
    // 16 bytes per row per 64-byte half: lane q reads bytes 16q.. of each half
    u.v[0] = ld128(row0 + 16 * q);
    u.v[1] = ld128(row0 + 64 + 16 * q);
    u.v[2] = ld128(row1 + 16 * q);
    u.v[3] = ld128(row1 + 64 + 16 * q);
  } else {
#pragma unroll
    for (int b = 0; b < 4; b += 2) {
      const uint2 a0 = ld64(row0 + 32 * b + 8 * q), a1 = ld64(row0 + 32 * (b + 1) + 8 * q);
      const uint2 c0 = ld64(row1 + 32 * b + 8 * q), c1 = ld64(row1 + 32 * (b + 1) + 8 * q);
      u.v[b] = make_uint4(a0.x, a0.y, a1.x, a1.y);
      u.v[b + 1] = make_uint4(c0.x, c0.y, c1.x, c1.y);
    }
  }
}

// K: the row pitch in bytes (the weight's K, or more: a row gap).
template <int D, bool kWide>
__global__ void __launch_bounds__(256) frag_kernel(const uint8_t* __restrict__ w, long K, int units, int groups,
                                                   unsigned* sink) {
  const int ctas = gridDim.x, cta = blockIdx.x, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int per = units / ctas, extra = units % ctas;
  const int u0 = cta * per + (cta < extra ? cta : extra), u1 = u0 + per + (cta < extra ? 1 : 0);
  Unit ring[D];
#pragma unroll
  for (int d = 0; d < D; ++d)
    if (u0 + d < u1) load_unit<kWide>(ring[d], w, K, u0 + d, groups, warp, lane);
  unsigned acc = 0;
  for (int u = u0; u < u1; u += D) {
#pragma unroll
    for (int d = 0; d < D; ++d) {
      if (u + d < u1) {
#pragma unroll
        for (int i = 0; i < 4; ++i) acc ^= ring[d].v[i].x ^ ring[d].v[i].y ^ ring[d].v[i].z ^ ring[d].v[i].w;
        if (u + d + D < u1) load_unit<kWide>(ring[d], w, K, u + d + D, groups, warp, lane);
      }
    }
  }
  if (acc == 0x9E3779B9u) sink[0] = acc;
}

// The same units in another order: 16-row tiles dealt round-robin to the CTAs (CTA c: tiles c, c +
// ctas, ...), each tile's K split among the CTA's 8 warps (warp w: groups [w G / 8, (w + 1) G / 8)).
// At any moment the CTAs then read neighbouring tiles: the GPU-wide reads stay in one region,
// as a grid-stride sweep's do, instead of one region per CTA.
template <int D>
__global__ void __launch_bounds__(256) frag_rows_kernel(const uint8_t* __restrict__ w, long K, int units, int groups,
                                                        unsigned* sink) {
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, q = lane & 3;
  const int tiles16 = units / groups * 8, per_warp = groups / 8;
  unsigned acc = 0;
  uint4 ring[D][4];
  auto load = [&](uint4 (&u)[4], int i) {  // i: this warp's i-th unit
    const int tile = blockIdx.x + (i / per_warp) * gridDim.x, group = warp * per_warp + i % per_warp;
    const uint8_t* row0 = w + (static_cast<long>(tile) * 16 + g) * K + group * 128;
    const uint8_t* row1 = row0 + 8 * K;
    u[0] = ld128(row0 + 16 * q); u[1] = ld128(row0 + 64 + 16 * q);
    u[2] = ld128(row1 + 16 * q); u[3] = ld128(row1 + 64 + 16 * q);
  };
  const int my_tiles = (tiles16 - static_cast<int>(blockIdx.x) + gridDim.x - 1) / gridDim.x;
  const int n = my_tiles * per_warp;
#pragma unroll
  for (int d = 0; d < D; ++d)
    if (d < n) load(ring[d], d);
  for (int i = 0; i < n; i += D) {
#pragma unroll
    for (int d = 0; d < D; ++d) {
      if (i + d < n) {
#pragma unroll
        for (int j = 0; j < 4; ++j) acc ^= ring[d][j].x ^ ring[d][j].y ^ ring[d][j].z ^ ring[d][j].w;
        if (i + d + D < n) load(ring[d], i + d + D);
      }
    }
  }
  if (acc == 0x9E3779B9u) sink[0] = acc;
}

// Both orders again with the skinny kernel's loads: each warp its own ring of kRing 2 KB stages,
// lane 0 TMA-loading 16 x 128-byte boxes (128-byte swizzle), a consumer that reads one word a
// lane and refills. kRoundRobin: the order above; else the skinny kernel's (CTA-contiguous
// ranges of 128-row tile x group units).
template <int kRing, bool kRoundRobin>
__global__ void __launch_bounds__(256) tma_warp_kernel(const __grid_constant__ CUtensorMap wm, int units, int groups,
                                                       unsigned* sink) {
  extern __shared__ __align__(1024) uint8_t dsm[];
  uint8_t* base = dsm + ((1024 - (sa(dsm) & 1023)) & 1023);
  auto ring = reinterpret_cast<uint8_t(*)[kRing][2048]>(base);
  auto full = reinterpret_cast<uint64_t(*)[kRing]>(base + 8 * kRing * 2048);
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) {
    for (int s = 0; s < kRing; ++s) asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(sa(&full[warp][s])));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncwarp();
  // this warp's i-th unit: (K byte offset, first row)
  int n, u0 = 0, per_warp = groups / 8;
  if constexpr (kRoundRobin) {
    const int tiles16 = units / groups * 8;
    n = (tiles16 - static_cast<int>(blockIdx.x) + gridDim.x - 1) / gridDim.x * per_warp;
  } else {
    const int per = units / gridDim.x, extra = units % gridDim.x, c = blockIdx.x;
    u0 = c * per + (c < extra ? c : extra);
    n = per + (c < extra ? 1 : 0);
  }
  auto coords = [&](int i, int& x, int& y) {
    if constexpr (kRoundRobin) {
      x = (warp * per_warp + i % per_warp) * 128;
      y = (blockIdx.x + (i / per_warp) * gridDim.x) * 16;
    } else {
      const int u = u0 + i, tile = u / groups;
      x = (u - tile * groups) * 128;
      y = tile * 128 + warp * 16;
    }
  };
  auto issue = [&](int i, int s) {
    if (lane == 0) {
      int x, y;
      coords(i, x, y);
      const uint32_t bar = sa(&full[warp][s]);
      asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], 2048;" ::"r"(bar));
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];"
                   ::"r"(sa(ring[warp][s])), "l"(&wm), "r"(bar), "r"(x), "r"(y) : "memory");
    }
  };
  for (int s = 0; s < kRing && s < n; ++s) issue(s, s);
  unsigned acc = 0;
  for (int i = 0; i < n; ++i) {
    const int s = i % kRing;
    const uint32_t ph = (i / kRing) & 1;
    asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n @!p bra W;\n}" ::"r"(sa(&full[warp][s])), "r"(ph));
    acc ^= *reinterpret_cast<volatile unsigned*>(&ring[warp][s][lane * 64]);
    __syncwarp();
    if (i + kRing < n) issue(i + kRing, s);
  }
  if (acc == 0x9E3779B9u) sink[0] = acc;
}

// Each CTA reads one contiguous share of the bytes, its threads side by side, 4 x 16 bytes in
// flight a thread (read_floor.cu's loads, a CTA-contiguous order instead of grid-stride).
__global__ void __launch_bounds__(512) block_sweep(const uint4* __restrict__ w, long n16, unsigned* sink) {
  const long per = (n16 + gridDim.x - 1) / gridDim.x, lo = blockIdx.x * per, hi = lo + per < n16 ? lo + per : n16;
  unsigned acc = 0;
  long i = lo + threadIdx.x;
  for (; i + 3 * 512 < hi; i += 4 * 512) {
    uint4 v[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) v[j] = ld128(reinterpret_cast<const uint8_t*>(w + i + j * 512));
#pragma unroll
    for (int j = 0; j < 4; ++j) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
  }
  for (; i < hi; i += 512) acc ^= ld128(reinterpret_cast<const uint8_t*>(w + i)).x;
  if (acc == 0x9E3779B9u) sink[0] = acc;
}

int main() {
  const long N = 28672, K = 8192;
  const long kMaxPitch = K + 512;
  std::vector<uint8_t*> bufs(2);
  for (auto& b : bufs) {
    CK(cudaMalloc(&b, N * kMaxPitch));
    CK(cudaMemset(b, 0x5A, N * kMaxPitch));
  }
  unsigned* sink;
  CK(cudaMalloc(&sink, 4));
  int sms;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int groups = static_cast<int>(K / 128), units = static_cast<int>(N / 128) * groups;
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  long pitch = K;
  CUtensorMap maps[2];
  auto time = [&](auto kernel, int cps) {
    std::vector<float> ts;
    for (int it = 0; it < 22; ++it) {
      CK(cudaEventRecord(a));
      kernel<<<sms * cps, 256>>>(bufs[it % 2], pitch, units, groups, sink);
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      if (it >= 2) ts.push_back(ms * 1e3f);
    }
    CK(cudaGetLastError());
    std::sort(ts.begin(), ts.end());
    return ts[ts.size() / 2];
  };
  std::printf("28672 x 8192 bytes, 16-row x 128-byte units a warp, 8 warps a CTA; us (TB/s)\n");
  std::printf("%4s %4s %14s %14s\n", "D", "cps", "v2 loads", "v4 loads");
#define ROW(D, CPS)                                                                                      \
  {                                                                                                      \
    const float t2 = time(frag_kernel<D, false>, CPS), t4 = time(frag_kernel<D, true>, CPS);          \
    std::printf("%4d %4d %8.1f (%.2f) %8.1f (%.2f)\n", D, CPS, t2, N * K / t2 / 1e6, t4, N * K / t4 / 1e6); \
  }
  ROW(2, 2) ROW(3, 2) ROW(4, 2) ROW(2, 3) ROW(3, 3) ROW(4, 4) ROW(2, 4) ROW(6, 2) ROW(8, 1)
  for (long gap : {128, 256, 512}) {
    pitch = K + gap;
    std::printf("row pitch K + %ld:\n", gap);
    ROW(2, 2) ROW(4, 2) ROW(2, 4)
  }
  pitch = K;
  std::printf("16-row tiles round-robin, K split among the warps (v4 loads):\n");
  for (int cps : {2, 3, 4}) {
    const float t2 = time(frag_rows_kernel<2>, cps), t4 = time(frag_rows_kernel<4>, cps);
    std::printf("   cps %d: D=2 %.1f us (%.2f), D=4 %.1f us (%.2f)\n", cps, t2, N * K / t2 / 1e6, t4, N * K / t4 / 1e6);
  }
  {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult qr;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &qr));
    auto encode = (PFN_cuTensorMapEncodeTiled_v12000)f;
    for (int bi = 0; bi < 2; ++bi) {
      CUtensorMap wm{};
      cuuint64_t dims[2] = {(cuuint64_t)K, (cuuint64_t)N};
      cuuint64_t str[1] = {(cuuint64_t)K};
      cuuint32_t box[2] = {128, 16};
      cuuint32_t es[2] = {1, 1};
      if (encode(&wm, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, bufs[bi], dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                 CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)) {
        std::printf("encode failed\n");
        return 1;
      }
      maps[bi] = wm;
    }
    auto smem_of = [&](auto kernel) {
      const int ring = kernel == tma_warp_kernel<5, false> || kernel == tma_warp_kernel<5, true> ? 5 : 6;
      const int bytes = 8 * ring * 2048 + 8 * ring * 8 + 1024;
      CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
      return bytes;
    };
    auto time_tma = [&](auto kernel, int cps) {
      std::vector<float> ts;
      for (int it = 0; it < 22; ++it) {
        CK(cudaEventRecord(a));
        kernel<<<sms * cps, 256, smem_of(kernel)>>>(maps[it % 2], units, groups, sink);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (it >= 2) ts.push_back(ms * 1e3f);
      }
      CK(cudaGetLastError());
      std::sort(ts.begin(), ts.end());
      return ts[ts.size() / 2];
    };
    std::printf("per-warp TMA rings of 2 KB stages, 2 CTAs a SM (us, TB/s):\n");
    const float s5 = time_tma(tma_warp_kernel<5, false>, 2), r5 = time_tma(tma_warp_kernel<5, true>, 2);
    const float s6 = time_tma(tma_warp_kernel<6, false>, 2), r6 = time_tma(tma_warp_kernel<6, true>, 2);
    std::printf("   5 stages: skinny order %.1f (%.2f), round-robin 16-row tiles %.1f (%.2f)\n", s5, N * K / s5 / 1e6, r5, N * K / r5 / 1e6);
    std::printf("   6 stages: skinny order %.1f (%.2f), round-robin 16-row tiles %.1f (%.2f)\n", s6, N * K / s6 / 1e6, r6, N * K / r6 / 1e6);
  }
  for (int bps : {1, 2, 4}) {
    std::vector<float> ts;
    for (int it = 0; it < 22; ++it) {
      CK(cudaEventRecord(a));
      block_sweep<<<sms * bps, 512>>>(reinterpret_cast<const uint4*>(bufs[it % 2]), N * K / 16, sink);
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      if (it >= 2) ts.push_back(ms * 1e3f);
    }
    CK(cudaGetLastError());
    std::sort(ts.begin(), ts.end());
    std::printf("CTA-contiguous sweep, %d x 512 threads a SM: %.1f us (%.2f TB/s)\n", bps, ts[10], N * K / ts[10] / 1e6);
  }
  return 0;
}
