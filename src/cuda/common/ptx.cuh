// Thin PTX wrappers, each naming the PTX ISA section it implements: the memory-bound
// kernels' cp.async (namespace mxgemm::cuda) and the Hopper GEMM's (namespace mxgemm::ptx).
#pragma once

#include <cstdint>

namespace mxgemm::cuda {

// cp.async.cg.shared.global, 16 bytes (PTX ISA 9.7.9.25.3.1, sm_80+): an asynchronous
// global -> shared copy that bypasses L1 and holds no registers while in flight.
__device__ __forceinline__ void cp_async_16(void* smem, const void* gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const auto s = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
#else  // older targets (never dispatched to: the quantizers need sm_89) copy synchronously
  *static_cast<uint4*>(smem) = *static_cast<const uint4*>(gmem);
#endif
}

// cp.async.wait_all (PTX ISA 9.7.9.25.3.4): waits for every cp.async of this thread. A
// barrier afterwards makes the copies visible to the whole CTA.
__device__ __forceinline__ void cp_async_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// cp.async.ca 4 bytes (PTX ISA 9.7.9.25.3.1).
__device__ __forceinline__ void cp_async_4(std::uint32_t s, const void* gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(gmem) : "memory");
#endif
}

// cp.async.commit_group / wait_group N (PTX ISA 9.7.9.25.3.2-3): close this thread's batch of
// copies; wait until at most kPending of its batches are in flight.
__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}

// max.u16x2 (PTX ISA 9.7.1.11, sm_90): two unsigned 16-bit maxima in one instruction.
__device__ __forceinline__ std::uint32_t max_u16x2(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  std::uint32_t d;
  asm("max.u16x2 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(b));
  return d;
#else
  return __vmaxu2(a, b);
#endif
}

// min.u16x2 (PTX ISA 9.7.1.11, sm_90): two unsigned 16-bit minima in one instruction.
__device__ __forceinline__ std::uint32_t min_u16x2(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  std::uint32_t d;
  asm("min.u16x2 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(b));
  return d;
#else
  return __vminu2(a, b);
#endif
}

}  // namespace mxgemm::cuda

// ----------------------------------------------------------------------------------------
// Hopper (sm_90a) wrappers of the GEMM mainloop: mbarrier, TMA, fences, setmaxnreg, wgmma.
namespace mxgemm::ptx {

__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// The dynamic shared memory `raw` advanced to the next multiple of kAlign (TMA swizzle
// atoms need 1024). The offset is added to `raw` itself rather than computed through an
// integer address, so the compiler still knows the result points to shared memory and
// emits LDS/STS with 32-bit addresses instead of generic 64-bit LD/ST.
template <typename T, int kAlign = 1024>
__device__ __forceinline__ T& aligned_dynamic_smem(std::uint8_t* raw) {
  const std::uint32_t pad = (kAlign - (smem_addr(raw) & (kAlign - 1))) & (kAlign - 1);
  return *reinterpret_cast<T*>(raw + pad);
}

// --- mbarrier (PTX ISA 9.7.13.15) --------------------------------------------------------
__device__ __forceinline__ void mbarrier_init(std::uint64_t* bar, std::uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count));
}
// Makes mbarrier.init visible to the async proxy (TMA) before first use.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint32_t bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint64_t* bar, std::uint32_t bytes) {
  mbarrier_arrive_expect_tx(smem_addr(bar), bytes);
}
// Blocks until the phase with parity `parity` has completed. `bar`: a shared-memory address.
__device__ __forceinline__ void mbarrier_wait(std::uint32_t bar, std::uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT_%=;\n"
      "}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* bar, std::uint32_t parity) {
  mbarrier_wait(smem_addr(bar), parity);
}

// --- clusters (PTX ISA 9.7.13.1 barrier.cluster, 9.7.9.17 mapa, ld.shared::cluster) --------
__device__ __forceinline__ std::uint32_t cluster_ctarank() {
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
// Every (non-exited) thread of every CTA of the cluster arrives, then waits for all (release /
// acquire at cluster scope): what each wrote before is visible to all after.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
// The address of this CTA's shared variable at `p` in cluster CTA `cta`.
__device__ __forceinline__ std::uint32_t cluster_smem_addr(const void* p, std::uint32_t cta) {
  std::uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem_addr(p)), "r"(cta));
  return remote;
}
__device__ __forceinline__ float4 ld_shared_cluster_v4(std::uint32_t addr) {
  float4 v;
  asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(addr)
               : "memory");
  return v;
}
__device__ __forceinline__ std::uint32_t ld_shared_cluster_u32(std::uint32_t addr) {
  std::uint32_t v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
  return v;
}

// --- TMA: cp.async.bulk.tensor (PTX ISA 9.7.9.25.5.1) -------------------------------------
// Loads the box at (x = inner coordinate, y = row) of a 2-D tensor map into shared memory
// and signals `bar` with the byte count. Out-of-bounds elements are filled with zeros.
// dst and bar are shared-memory addresses (kernels that compute them once, outside the
// loop); the overload below takes pointers.
__device__ __forceinline__ void tma_load_2d(std::uint32_t dst, const void* tensor_map, std::uint32_t bar,
                                            std::int32_t x, std::int32_t y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
      "l"(tensor_map), "r"(bar), "r"(x), "r"(y)
      : "memory");
}
__device__ __forceinline__ void tma_load_2d(void* dst, const void* tensor_map, std::uint64_t* bar,
                                            std::int32_t x, std::int32_t y) {
  tma_load_2d(smem_addr(dst), tensor_map, smem_addr(bar), x, y);
}
// The same with an L2 cache policy (createpolicy below) for the lines the box touches.
__device__ __forceinline__ void tma_load_2d(std::uint32_t dst, const void* tensor_map, std::uint32_t bar,
                                            std::int32_t x, std::int32_t y, std::uint64_t policy) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
      " [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(dst),
      "l"(tensor_map), "r"(bar), "r"(x), "r"(y), "l"(policy)
      : "memory");
}
__device__ __forceinline__ void tma_load_2d(void* dst, const void* tensor_map, std::uint64_t* bar,
                                            std::int32_t x, std::int32_t y, std::uint64_t policy) {
  tma_load_2d(smem_addr(dst), tensor_map, smem_addr(bar), x, y, policy);
}
// Stores shared memory at `src` as the box at (x = inner coordinate, y = row) of a 2-D tensor
// map; elements outside the tensor are not written. Asynchronous: the calling thread commits
// its stores into a bulk group (bulk_commit_group) and waits on it (bulk_wait_group_read before
// `src` is written again, bulk_wait_group before the grid may end). PTX ISA 9.7.9.25.5.2.
__device__ __forceinline__ void tma_store_2d(const void* tensor_map, std::uint32_t src, std::int32_t x,
                                             std::int32_t y) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(tensor_map),
               "r"(src), "r"(x), "r"(y)
               : "memory");
}
__device__ __forceinline__ void bulk_commit_group() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
// Until at most kPending of this thread's bulk groups still read their shared memory.
template <int kPending>
__device__ __forceinline__ void bulk_wait_group_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(kPending) : "memory");
}
// Until at most kPending of this thread's bulk groups are incomplete (their writes done).
template <int kPending>
__device__ __forceinline__ void bulk_wait_group() {
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(kPending) : "memory");
}
// An L2 policy that makes the lines an access touches the first to be evicted (data read
// once: a streamed weight).
__device__ __forceinline__ std::uint64_t l2_policy_evict_first() {
  std::uint64_t policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
// An L2 policy that makes the lines an access touches the last to be evicted (data read back
// soon: the streaming kernel's promoted sums).
__device__ __forceinline__ std::uint64_t l2_policy_evict_last() {
  std::uint64_t policy;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
__device__ __forceinline__ void prefetch_tensor_map(const void* tensor_map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(tensor_map) : "memory");
}

// Orders this thread's generic-proxy shared-memory writes before later async-proxy reads
// (wgmma operands written with st.shared). PTX ISA 9.7.13.4 (membar/fence).
__device__ __forceinline__ void fence_proxy_async_smem() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// --- setmaxnreg (PTX ISA 9.7.17.1) --------------------------------------------------------
template <std::uint32_t kRegs>
__device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegs));
}
template <std::uint32_t kRegs>
__device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegs));
}

// --- matrix stores and vector shared loads (PTX ISA 9.7.9.x, stmatrix; ld.shared) ----------
// Four 8x8 b16 matrices, each thread holding register i's pair of matrix i in the mma
// accumulator layout (row lane / 4, columns 2 (lane % 4), +1); stored transposed: lane 8i + r
// gives the address of row r of matrix i in shared memory, which receives column r.
__device__ __forceinline__ void stmatrix_x4_trans(std::uint32_t addr, std::uint32_t r0, std::uint32_t r1,
                                                  std::uint32_t r2, std::uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r0),
               "r"(r1), "r"(r2), "r"(r3)
               : "memory");
}
__device__ __forceinline__ uint4 ld_shared_v4(std::uint32_t addr) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr) : "memory");
  return v;
}

// Named barrier over `count` threads (PTX ISA 9.7.13.1, bar.sync): syncs a subset of the CTA,
// e.g. the math warpgroups without the producer.
__device__ __forceinline__ void named_barrier_sync(std::uint32_t id, std::uint32_t count) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}
// bar.sync that also returns whether `v` was true in any of the `count` threads.
__device__ __forceinline__ bool named_barrier_or(std::uint32_t id, std::uint32_t count, bool v) {
  std::uint32_t any;
  asm volatile(
      "{ .reg .pred p, q;\n"
      "setp.ne.u32 q, %1, 0;\n"
      "bar.red.or.pred p, %2, %3, q;\n"
      "selp.u32 %0, 1, 0, p; }"
      : "=r"(any)
      : "r"(static_cast<std::uint32_t>(v)), "r"(id), "r"(count)
      : "memory");
  return any != 0;
}

// --- programmatic dependent launch (PTX ISA 9.7.12.x, griddepcontrol) --------------------
// A kernel launched with cudaLaunchAttributeProgrammaticStreamSerialization may start while
// the previous kernel of the stream still runs; it must wait before reading that kernel's
// output. The previous kernel lets it start early by signalling launch_dependents.
__device__ __forceinline__ void griddepcontrol_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }
__device__ __forceinline__ void griddepcontrol_launch_dependents() {
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

// --- wgmma (PTX ISA 9.7.15) ---------------------------------------------------------------
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(kPending) : "memory");
}
// Keeps the compiler from moving accumulator reads/writes across wgmma boundaries.
__device__ __forceinline__ void fence_operand(float& r) { asm volatile("" : "+f"(r)::"memory"); }

// Pins a loop-invariant value in a register: ptxas cannot rebuild it from its inputs inside
// the loop (it otherwise recomputes per-thread offsets every stage to save registers that
// the hot loop has to spare).
__device__ __forceinline__ void keep_in_register(int& v) { asm volatile("" : "+r"(v)); }
__device__ __forceinline__ void keep_in_register(std::uint64_t& v) { asm volatile("" : "+l"(v)); }

// --- atom (PTX ISA 9.7.13.5) ---------------------------------------------------------------
// atom.acq_rel.gpu.add: the release publishes this thread's earlier writes and, being
// cumulative, those of the threads that synchronized with it before (a warp's partial tile
// after __syncwarp); the acquire makes the writes published before earlier adds visible to it
// and, after a __syncwarp, to its warp. Returns the old value.
__device__ __forceinline__ std::uint32_t atomic_add_acq_rel_gpu(std::uint32_t* p, std::uint32_t v) {
  std::uint32_t old;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

// red.global.add.v4.f32 (PTX ISA 9.7.13.6, sm_90+): four fp32 adds to 16 consecutive bytes
// (16-byte aligned), each rounded to nearest, with no value returned; subnormal inputs and
// results flush to zero (as every f32 atomic add: REDG...FTZ.RN). A thread's own adds to one
// location take effect in program order, so a sum only one thread adds into is deterministic.
// With an L2 cache policy (createpolicy); and a 16-byte store with one.
__device__ __forceinline__ void red_add_v4(float* p, float a, float b, float c, float d, std::uint64_t policy) {
  asm volatile("red.global.add.L2::cache_hint.v4.f32 [%0], {%1, %2, %3, %4}, %5;" ::"l"(p), "f"(a), "f"(b), "f"(c),
               "f"(d), "l"(policy)
               : "memory");
}
__device__ __forceinline__ void st_global_v4(float* p, float a, float b, float c, float d, std::uint64_t policy) {
  asm volatile("st.global.L2::cache_hint.v4.f32 [%0], {%1, %2, %3, %4}, %5;" ::"l"(p), "f"(a), "f"(b), "f"(c),
               "f"(d), "l"(policy)
               : "memory");
}

// ld.acquire.gpu: a stream-K counter read before deciding whether to publish a partial; the
// writes published before the adds it observes are visible to this thread after it.
__device__ __forceinline__ std::uint32_t ld_acquire_gpu(const std::uint32_t* p) {
  std::uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// A plain global load that ptxas keeps in program order among the other volatile asm (so a
// loop of them is not hoisted ahead of the uses of its values: the streaming kernel's 256-row
// epilogue spilled 568 bytes when all 64 of its row scales were loaded at once).
__device__ __forceinline__ float ld_global_in_order(const float* p) {
  float v;
  asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

// --- cp.async.bulk.prefetch.L2 (PTX ISA 9.7.9.25.4.3) ------------------------------------------
// A hint: brings `bytes` (a multiple of 16, 16-byte aligned) of global memory into L2. L2 is
// the device's point of coherence, so a line fetched before another CTA writes it is updated
// there, never read stale.
__device__ __forceinline__ void prefetch_l2_bulk(const void* p, std::uint32_t bytes) {
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(bytes) : "memory");
}

// --- ld.shared (PTX ISA 9.7.9.8) by shared-memory address -----------------------------------
// Volatile with a memory clobber: they stay after the mbarrier wait that guards the data.
__device__ __forceinline__ std::uint32_t ld_shared_u32(std::uint32_t addr) {
  std::uint32_t v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
  return v;
}
__device__ __forceinline__ uint2 ld_shared_u32x2(std::uint32_t addr) {
  uint2 v;
  asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "r"(addr) : "memory");
  return v;
}
// Four 8 x 8 matrices of 16-bit elements: lane 8i + r gives the address of matrix i's row r
// (16 bytes); lane 4g + q receives elements 2q, 2q + 1 of row g of matrix i in word i.
__device__ __forceinline__ uint4 ldmatrix_x4(std::uint32_t addr) {
  uint4 v;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(addr)
               : "memory");
  return v;
}

// --- mma.sync (the skinny GEMM, skinny_gemm_kernel.cuh) ------------------------------------

// mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16} (PTX ISA 9.7.14.5.8, sm_80+): one warp,
// D (16 x 8 fp32) = A (16 x 16, four 32-bit registers) x B (16 x 8, two) + C. kBf16 picks the
// input type. The fragments' layout is the ISA's "m16n8k16" figures.
template <bool kBf16>
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const std::uint32_t (&a)[4], std::uint32_t b0,
                                             std::uint32_t b1) {
  if constexpr (kBf16) {
    asm(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  } else {
    asm(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
}

// Shared-memory matrix descriptor (PTX ISA 9.7.15.5.1, "Matrix Descriptor Format"):
//   bits  0-13  start address >> 4
//   bits 16-29  leading-dimension byte offset >> 4 (unused for swizzled K-major; set to 1)
//   bits 32-45  stride-dimension byte offset >> 4 (distance between 8-row groups)
//   bits 49-51  base offset (0: buffers are aligned to the swizzle pattern)
//   bits 62-63  swizzle mode: 1 = 128B, 2 = 64B, 3 = 32B
__device__ __forceinline__ std::uint64_t smem_desc_k_major_sw128(std::uint32_t smem_byte_addr) {
  constexpr std::uint64_t kSbo = 1024;  // 8 rows x 128 bytes
  return (static_cast<std::uint64_t>((smem_byte_addr & 0x3FFFF) >> 4)) |
         (std::uint64_t{1} << 16) | ((kSbo >> 4) << 32) | (std::uint64_t{1} << 62);
}

}  // namespace mxgemm::ptx
