// Small named PTX wrappers for the Hopper (sm_90a) spike kernels.
// Meant to move to src/cuda/common/ once the real kernel exists. Each wrapper names the
// PTX ISA section (PTX ISA 8.x / 9.0 numbering) it implements.
#pragma once
#include <cstdint>

namespace spike {

// ---------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------
// 32-bit shared-state-space address of a generic pointer into shared memory
// (PTX ISA 9.7.9.21 "cvta").
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---------------------------------------------------------------------------------------
// wgmma shared-memory matrix descriptor
// PTX ISA 9.7.15.5.1 "Matrix Descriptor Format" (asynchronous warpgroup level matrix
// shared memory layout). 64 bits:
//   bits  0-13  start address,               (smem_addr & 0x3FFFF) >> 4
//   bits 16-29  leading-dimension byte offset (LBO) >> 4
//   bits 32-45  stride-dimension byte offset  (SBO) >> 4
//   bits 49-51  matrix base offset: 0 when each swizzle atom (8 rows x 128 B = 1024 B for
//               128B swizzle) starts 1024-byte aligned, which the spike guarantees
//   bits 62-63  swizzle mode: 0 none, 1 = 128B, 2 = 64B, 3 = 32B
// For a K-major operand in the 128B-swizzled canonical layout (each row of the tile is
// 128 bytes = 64 bf16 or 128 fp8 along K; row r at byte r*128; inside each 1024-byte
// atom of 8 rows the 16-byte chunk c of row r sits at chunk c ^ (r % 8)):
//   SBO = 1024 (distance between consecutive 8-row groups), LBO is unused for swizzled
//   K-major layouts (set to 1 by convention), swizzle = 1.
// Stepping along K inside the 128-byte row (k16 of bf16 or k32 of fp8 = 32 bytes) is done
// by adding the byte offset to the start address (desc + (32 >> 4) per step): the
// hardware applies the XOR swizzle to the final address bits, so base offset stays 0.
// ---------------------------------------------------------------------------------------
__device__ __forceinline__ uint64_t make_desc_sw128(uint32_t smem_addr) {
  uint64_t desc = 0;
  desc |= static_cast<uint64_t>((smem_addr & 0x3FFFFu) >> 4);        // start address
  desc |= static_cast<uint64_t>(1u) << 16;                           // LBO (unused)
  desc |= static_cast<uint64_t>(1024u >> 4) << 32;                   // SBO = 1024 B
  desc |= static_cast<uint64_t>(1u) << 62;                           // 128B swizzle
  return desc;
}
// Advance a descriptor's start address by `bytes` (a multiple of 16, no carry out of the
// 14-bit field: shared memory is < 256 KB).
__device__ __forceinline__ uint64_t desc_advance(uint64_t desc, uint32_t bytes) {
  return desc + static_cast<uint64_t>(bytes >> 4);
}

// ---------------------------------------------------------------------------------------
// wgmma synchronisation (PTX ISA 9.7.15.6 "wgmma.fence", 9.7.15.7 "wgmma.commit_group",
// 9.7.15.8 "wgmma.wait_group")
// ---------------------------------------------------------------------------------------
// Orders prior register accesses (accumulators, register-A fragments) before the
// following wgmma.mma_async reads/writes them. Needed before the first wgmma and whenever
// ordinary instructions touched those registers in between.
__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
// Wait until at most N committed wgmma groups of this warpgroup are still pending.
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  static_assert(N >= 0 && N <= 7, "wgmma.wait_group takes 0..7");
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// Compiler-only fence: keeps the compiler from moving reads/writes of an accumulator
// register across the wgmma issue/wait points (no instruction is emitted).
__device__ __forceinline__ void fence_reg(float& r) { asm volatile("" : "+f"(r)::"memory"); }
__device__ __forceinline__ void fence_reg(uint32_t& r) { asm volatile("" : "+r"(r)::"memory"); }
template <int N>
__device__ __forceinline__ void fence_regs(float (&r)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) fence_reg(r[i]);
}

// ---------------------------------------------------------------------------------------
// Register reallocation between warpgroups (PTX ISA 9.7.19.6 "setmaxnreg"). Takes effect
// only when the kernel has a register cap at entry (__launch_bounds__(threads, 1)).
// ---------------------------------------------------------------------------------------
template <int R>
__device__ __forceinline__ void setmaxnreg_inc() {
  static_assert(R % 8 == 0 && R >= 24 && R <= 256, "setmaxnreg: multiple of 8 in [24,256]");
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R));
}
template <int R>
__device__ __forceinline__ void setmaxnreg_dec() {
  static_assert(R % 8 == 0 && R >= 24 && R <= 256, "setmaxnreg: multiple of 8 in [24,256]");
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R));
}

// ---------------------------------------------------------------------------------------
// Proxy fence (PTX ISA 9.7.12.4 "membar/fence": fence.proxy.async). Generic-proxy writes
// to shared memory (st.shared) become visible to the async proxy (wgmma operand reads,
// TMA) only after this fence in the writing thread, followed by a barrier.
// ---------------------------------------------------------------------------------------
__device__ __forceinline__ void fence_proxy_async_smem() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// Named barrier among `count` threads (PTX ISA 9.7.12.1 "bar.sync / barrier.sync").
__device__ __forceinline__ void named_barrier_sync(int id, int count) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(count) : "memory");
}

// ---------------------------------------------------------------------------------------
// mbarrier (PTX ISA 9.7.12.15 "Parallel Synchronization and Communication Instructions:
// mbarrier": init 9.7.12.15.9, arrive 9.7.12.15.13, try_wait 9.7.12.15.16)
// ---------------------------------------------------------------------------------------
__device__ __forceinline__ void mbar_init(uint64_t* bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count)
               : "memory");
}
// Makes mbarrier.init visible to other threads and to the async proxy.
__device__ __forceinline__ void fence_mbarrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile(
      "{\n"
      ".reg .b64 st;\n"
      "mbarrier.arrive.shared::cta.b64 st, [%0];\n"
      "}\n" ::"r"(smem_u32(bar))
      : "memory");
}
// Spin until the phase with parity `parity` of the barrier has completed.
// (A __trap() after N polls was tried as a hang guard: it made ptxas spill and serialize
// the wgmmas of the B2 kernel (C7512), so the guard is the run script's timeout instead.)
__device__ __forceinline__ bool mbar_try_wait(uint64_t* bar, uint32_t parity) {
  uint32_t done;
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n"
      "}\n"
      : "=r"(done)
      : "r"(smem_u32(bar)), "r"(parity)
      : "memory");
  return done != 0;
}
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) {
  while (!mbar_try_wait(bar, parity)) {
  }
}

// ---------------------------------------------------------------------------------------
// Packed bf16 multiply (PTX ISA 9.7.4.3 "Half Precision Floating Point Instructions: mul",
// .bf16x2 needs sm_90). Round to nearest even; bf16 subnormals are NOT flushed (there is
// no .ftz for bf16), which the exact fp8 -> bf16 dequantization relies on.
// ---------------------------------------------------------------------------------------
__device__ __forceinline__ uint32_t mul_bf16x2(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("mul.rn.bf16x2 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
// Hardware e4m3x2 -> f16x2 (PTX ISA 9.7.9.21 "cvt", .e4m3x2 source, sm_89+). Exact.
// The low byte of the 16-bit input goes to the low half of the result.
__device__ __forceinline__ uint32_t cvt_f16x2_e4m3x2(uint16_t x) {
  uint32_t d;
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;\n" : "=r"(d) : "h"(x));
  return d;
}
// f32 pair -> packed bf16x2 (PTX ISA 9.7.9.21 "cvt", .bf16x2.f32): d.hi = hi, d.lo = lo.
__device__ __forceinline__ uint32_t cvt_bf16x2_f32(float hi, float lo) {
  uint32_t d;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(d) : "f"(hi), "f"(lo));
  return d;
}

}  // namespace spike
