// The exact CPU references of mxfp8_scaled_mm and mxfp8_weight_only_mm: the oracles of
// every GPU test and the CPU fallback of the CLI. The two differ only in how rows of A are
// read (MXFP8 decoded with its scales, or BF16/FP16 decoded) and in the optional bias.
//
// Every dequantized element (an fp8 value times a power of two) and every product of two
// of them is exact in fp64, so the only rounding before the final one is the fp64
// summation. Each output is summed in increasing k, one product at a time, starting
// from +0.0 -- the order of a plain triple loop -- whatever the thread count and the
// vector width, so results are bit-identical from run to run and machine to machine (no
// FMA contraction is ever enabled here: it would round differently).
//
// Structure (GotoBLAS-style, in fp64):
//   1. B is dequantized once into column panels of NR columns, k-major: panel[k][NR].
//   2. Work is split into tasks of (up to kPanelsPerTask * MR rows) x (a range of B
//      panels). Each task dequantizes its rows of A into MR-row panels (panel[k][MR]),
//      accumulates its C block in a private fp64 buffer, K-block by K-block, with an
//      MR x NR register-tiled micro-kernel, then scales by alpha and rounds once into d.
//   3. Tasks are handed out to std::threads through an atomic counter.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "core/validate.hpp"
#include "mxgemm/elements.hpp"
#include "mxgemm/gemm.hpp"
#include "mxgemm/layout.hpp"
#include "mxgemm/weight_only.hpp"

// Never fuse a*b+c into an FMA, even when the library is built with -mfma or
// -march=native: a fused multiply-add rounds once instead of twice, which would make the
// results depend on the build and the machine.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace mxgemm {
namespace detail {
// Test hook: force the portable (baseline x86-64 / generic) micro-kernel even where a
// wider one is available, so tests can check that both give bit-identical results.
void reference_gemm_force_portable_kernel(bool force);
}  // namespace detail

namespace {

using std::int64_t;

#if defined(__GNUC__) || defined(__clang__)
#define MXGEMM_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define MXGEMM_ALWAYS_INLINE inline
#endif

// ---- exact dequantization ----------------------------------------------------------

using Table = std::array<double, 256>;

Table make_table(double (*decode)(std::uint8_t)) {
  Table t{};
  for (int c = 0; c < 256; ++c) t[c] = decode(static_cast<std::uint8_t>(c));
  return t;
}

// Value of every fp8 code (NaN codes decode to NaN, E5M2 infinities to +-Inf).
const Table& element_table(DType t) {
  static const Table e4m3 = make_table(decode_e4m3);
  static const Table e5m2 = make_table(decode_e5m2);
  return t == DType::E5M2 ? e5m2 : e4m3;
}

// 2^(byte - 127) for every E8M0 byte; 0xFF is NaN.
const Table& scale_table() {
  static const Table t = make_table(decode_e8m0);
  return t;
}

// The E8M0 byte of scale (r, c), through the single definition of each layout's offsets.
std::uint8_t scale_byte(const ConstMxOperand& op, int64_t r, int64_t c, int64_t n_scale_cols) {
  const auto* s = static_cast<const std::uint8_t*>(op.scales.data);
  return op.layout == ScaleLayout::Swizzled128x4
             ? s[swizzled_scale_offset(r, c, n_scale_cols)]
             : s[linear_scale_offset(r, c, op.scales.row_stride)];
}

constexpr int kMaxPanelWidth = 8;  // the widest MR or NR of any kernel

// Dequantizes rows [r0, r0 + width) of `op` into one k-major panel:
// panel[k * width + i] = value of element (r0 + i, k) (found at its prepacked column in a
// prepacked weight). Rows past the operand's last are
// zero (their products land in C entries that are never written out). The panel is
// written in order, k outer, so each cache line of it is filled at once.
void pack_panel(const ConstMxOperand& op, int64_t r0, int width, double* panel) {
  const int64_t k_total = op.data.cols;
  const int64_t n_scale_cols = scale_cols(k_total);
  const Table& values = element_table(op.data.dtype);
  const Table& scales = scale_table();
  const int valid = static_cast<int>(std::min<int64_t>(width, op.data.rows - r0));
  const std::uint8_t* rows[kMaxPanelWidth];
  for (int i = 0; i < valid; ++i)
    rows[i] = static_cast<const std::uint8_t*>(op.data.data) + (r0 + i) * op.data.row_stride;
  for (int64_t c = 0; c < n_scale_cols; ++c) {
    double s[kMaxPanelWidth];
    for (int i = 0; i < valid; ++i) s[i] = scales[scale_byte(op, r0 + i, c, n_scale_cols)];
    const int64_t k_end = std::min<int64_t>((c + 1) * kBlockSize, k_total);
    for (int64_t k = c * kBlockSize; k < k_end; ++k) {
      double* out = panel + k * width;
      const int64_t col = op.order == KOrder::Prepacked ? prepacked_column(k) : k;
      for (int i = 0; i < valid; ++i) out[i] = values[rows[i][col]] * s[i];
      for (int i = valid; i < width; ++i) out[i] = 0.0;
    }
  }
}

// The same panel from a BF16 or FP16 matrix (every such value is exact in fp64).
void pack_panel_wide(const ConstMatrixView& a, int64_t r0, int width, double* panel) {
  const int64_t k_total = a.cols;
  const int valid = static_cast<int>(std::min<int64_t>(width, a.rows - r0));
  const std::uint16_t* rows[kMaxPanelWidth];
  for (int i = 0; i < valid; ++i)
    rows[i] = static_cast<const std::uint16_t*>(a.data) + (r0 + i) * a.row_stride;
  const bool bf16 = a.dtype == DType::BF16;
  for (int64_t k = 0; k < k_total; ++k) {
    double* out = panel + k * width;
    for (int i = 0; i < valid; ++i) out[i] = bf16 ? decode_bf16(rows[i][k]) : decode_fp16(rows[i][k]);
    for (int i = valid; i < width; ++i) out[i] = 0.0;
  }
}

// ---- the micro-kernel ----------------------------------------------------------------

// C[0..MR)[0..NR) (row stride ldc) += sum over kc steps of ap[k][i] * bp[k][j], one k at
// a time in increasing order. GCC/Clang vector extensions of the machine's width W give
// the vector arithmetic without intrinsics, so the same source serves every instruction
// set it is compiled for. NR = JV * W; the MR x JV accumulators must fit the registers
// (constant trip counts let the compiler unroll every inner loop and keep them there).
template <int MR, int JV, int W>
MXGEMM_ALWAYS_INLINE void micro_kernel(int64_t kc, const double* ap, const double* bp, double* c,
                                       int64_t ldc) {
#if defined(__GNUC__) || defined(__clang__)
  typedef double Vec __attribute__((vector_size(W * sizeof(double))));
  constexpr int NR = JV * W;
  Vec acc[MR][JV];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < JV; ++j) std::memcpy(&acc[i][j], c + i * ldc + j * W, sizeof(Vec));
  for (int64_t k = 0; k < kc; ++k) {
    Vec b[JV];
    for (int j = 0; j < JV; ++j) std::memcpy(&b[j], bp + k * NR + j * W, sizeof(Vec));
    for (int i = 0; i < MR; ++i) {
      const double a = ap[k * MR + i];
      for (int j = 0; j < JV; ++j) acc[i][j] += a * b[j];
    }
  }
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < JV; ++j) std::memcpy(c + i * ldc + j * W, &acc[i][j], sizeof(Vec));
#else
  constexpr int NR = JV * W;
  for (int64_t k = 0; k < kc; ++k)
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j) c[i * ldc + j] += ap[k * MR + i] * bp[k * NR + j];
#endif
}

using KernelFn = void (*)(int64_t, const double*, const double*, double*, int64_t);

struct Kernel {
  int mr;
  int nr;
  KernelFn fn;
};

// Baseline x86-64 (SSE2): 4 x 4 tile = 8 two-double accumulators of the 16 registers
// (a wider tile would spill).
void kernel_portable(int64_t kc, const double* ap, const double* bp, double* c, int64_t ldc) {
  micro_kernel<4, 2, 2>(kc, ap, bp, c, ldc);
}
constexpr Kernel kPortable{4, 4, kernel_portable};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MXGEMM_HAVE_AVX2_KERNEL 1
// AVX2, selected at run time (binaries must run on any x86-64): 6 x 8 tile = 12
// four-double accumulators, enough independent additions to hide their latency. "avx2"
// does not imply FMA, so nothing is contracted and the results equal the portable
// kernel's bit for bit.
__attribute__((target("avx2"))) void kernel_avx2(int64_t kc, const double* ap,
                                                 const double* bp, double* c, int64_t ldc) {
  micro_kernel<6, 2, 4>(kc, ap, bp, c, ldc);
}
constexpr Kernel kAvx2{6, 8, kernel_avx2};
#endif

std::atomic<bool> g_force_portable{false};

Kernel select_kernel() {
#if defined(MXGEMM_HAVE_AVX2_KERNEL)
  static const bool has_avx2 = __builtin_cpu_supports("avx2");
  if (has_avx2 && !g_force_portable.load(std::memory_order_relaxed)) return kAvx2;
#endif
  return kPortable;
}

// ---- threads -------------------------------------------------------------------------

// Runs `worker` on `n_threads` threads, the calling thread included; workers share the
// work through counters they capture. Rethrows the first exception any worker threw. If
// the system refuses to start a thread, the ones already started (and the caller) still
// finish all the work.
template <typename Worker>
void run_workers(int n_threads, const Worker& worker) {
  std::exception_ptr error;
  std::mutex error_mutex;
  auto guarded = [&] {
    try {
      worker();
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  try {
    for (int t = 1; t < n_threads; ++t) threads.emplace_back(guarded);
  } catch (const std::system_error&) {
    // Fewer threads than asked: correct, only slower.
  }
  guarded();
  for (std::thread& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

// Threads worth starting for `work` multiply-adds: each should get at least ~1M of them
// (a fraction of a millisecond), or starting it costs more than it saves.
int thread_count(double work) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const double useful = work / (1 << 20);
  return static_cast<int>(std::max(1.0, std::min<double>(hw, useful)));
}

// ---- output --------------------------------------------------------------------------

// The bias row decoded to fp64 (empty: no bias).
std::vector<double> decode_bias(const ConstMatrixView* bias) {
  std::vector<double> v;
  if (bias == nullptr) return v;
  v.resize(static_cast<size_t>(bias->cols));
  for (int64_t j = 0; j < bias->cols; ++j) {
    switch (bias->dtype) {
      case DType::FP32: v[j] = static_cast<const float*>(bias->data)[j]; break;
      case DType::BF16: v[j] = decode_bf16(static_cast<const std::uint16_t*>(bias->data)[j]); break;
      default: v[j] = decode_fp16(static_cast<const std::uint16_t*>(bias->data)[j]); break;
    }
  }
  return v;
}

// Writes alpha * acc (+ bias), rounded once to d's type, for an rows x cols block whose
// top-left is (r0, c0) in d; acc has row stride ldc; bias is empty or has N entries.
void store_block(const double* acc, int64_t ldc, int64_t rows, int64_t cols, double alpha,
                 const std::vector<double>& bias, const MatrixView& d, int64_t r0, int64_t c0) {
  const double* b = bias.empty() ? nullptr : bias.data() + c0;
  for (int64_t i = 0; i < rows; ++i) {
    const double* src = acc + i * ldc;
    const int64_t offset = (r0 + i) * d.row_stride + c0;
    auto value = [&](int64_t j) { return b != nullptr ? src[j] * alpha + b[j] : src[j] * alpha; };
    switch (d.dtype) {
      case DType::FP32: {
        float* dst = static_cast<float*>(d.data) + offset;
        for (int64_t j = 0; j < cols; ++j) dst[j] = static_cast<float>(value(j));
        break;
      }
      case DType::BF16: {
        auto* dst = static_cast<std::uint16_t*>(d.data) + offset;
        for (int64_t j = 0; j < cols; ++j) dst[j] = encode_bf16(value(j));
        break;
      }
      default: {  // FP16; validation admits no other output type.
        auto* dst = static_cast<std::uint16_t*>(d.data) + offset;
        for (int64_t j = 0; j < cols; ++j) dst[j] = encode_fp16(value(j));
        break;
      }
    }
  }
}

// ---- the GEMM ------------------------------------------------------------------------

constexpr int64_t kPanelsPerTask = 16;  // A panels per task: 64 or 96 rows x kKBlock, in L2
constexpr int64_t kKBlock = 256;        // k per pass: a B micro-panel of 256 x 8 is 16 KiB (L1)

// A task covers rows [row_block * row_block_size, +row_block_size) and B panels
// [col_block * panels_per_col_block, +panels_per_col_block).
struct Plan {
  Kernel kernel;
  int64_t m, n, k;
  int64_t n_panels;            // ceil(N / NR)
  int64_t row_block_size;      // kPanelsPerTask * MR
  int64_t row_blocks;          // ceil(M / row_block_size)
  int64_t col_blocks;          // splits N when there are too few row blocks to share
  int64_t panels_per_col_block;
  int threads;
};

Plan make_plan(int64_t m, int64_t n, int64_t k) {
  Plan p{};
  p.kernel = select_kernel();
  p.m = m;
  p.n = n;
  p.k = k;
  p.n_panels = ceil_div(n, p.kernel.nr);
  p.row_block_size = kPanelsPerTask * p.kernel.mr;
  p.row_blocks = ceil_div(m, p.row_block_size);
  p.threads = thread_count(static_cast<double>(m) * static_cast<double>(n) *
                           static_cast<double>(k));
  // Aim for at least two tasks per thread so uneven tasks balance out.
  const int64_t wanted_tasks = 2 * static_cast<int64_t>(p.threads);
  p.col_blocks = p.row_blocks >= wanted_tasks
                     ? 1
                     : std::min(p.n_panels, ceil_div(wanted_tasks, p.row_blocks));
  p.panels_per_col_block = ceil_div(p.n_panels, p.col_blocks);
  p.col_blocks = ceil_div(p.n_panels, p.panels_per_col_block);
  return p;
}

// Dequantizes all of B into NR-column panels, in parallel.
std::unique_ptr<double[]> pack_b(const ConstMxOperand& b, const Plan& p) {
  const int nr = p.kernel.nr;
  std::unique_ptr<double[]> packed(new double[static_cast<size_t>(p.n_panels * nr * p.k)]);
  constexpr int64_t kPanelsPerChunk = 8;
  const int64_t chunks = ceil_div(p.n_panels, kPanelsPerChunk);
  std::atomic<int64_t> next{0};
  run_workers(static_cast<int>(std::min<int64_t>(p.threads, chunks)), [&] {
    for (int64_t chunk; (chunk = next.fetch_add(1)) < chunks;) {
      const int64_t end = std::min(p.n_panels, (chunk + 1) * kPanelsPerChunk);
      for (int64_t q = chunk * kPanelsPerChunk; q < end; ++q)
        pack_panel(b, q * nr, nr, packed.get() + q * nr * p.k);
    }
  });
  return packed;
}

// Per-thread buffers of one worker: its rows of A, dequantized, and its fp64 C block.
struct Workspace {
  std::vector<double> a_panels;  // kPanelsPerTask panels of K x MR
  std::vector<double> c_block;   // row_block_size x (panels_per_col_block * NR)
};

// pack_a(r0, width, panel) dequantizes rows [r0, r0 + width) of A into one panel.
template <typename PackA>
void run_task(const PackA& pack_a, const double* b_packed, double alpha,
              const std::vector<double>& bias, const MatrixView& d, const Plan& p, int64_t task,
              Workspace& ws) {
  const int mr = p.kernel.mr;
  const int nr = p.kernel.nr;
  const int64_t row0 = (task / p.col_blocks) * p.row_block_size;
  const int64_t panel0 = (task % p.col_blocks) * p.panels_per_col_block;
  const int64_t rows = std::min(p.row_block_size, p.m - row0);
  const int64_t a_panels = ceil_div(rows, mr);
  const int64_t b_panels = std::min(p.panels_per_col_block, p.n_panels - panel0);
  const int64_t ldc = b_panels * nr;

  for (int64_t i = 0; i < a_panels; ++i)
    pack_a(row0 + i * mr, mr, ws.a_panels.data() + i * mr * p.k);
  std::fill(ws.c_block.begin(), ws.c_block.begin() + a_panels * mr * ldc, 0.0);

  // K-blocks outermost so each C entry still sees its products in increasing k.
  for (int64_t k0 = 0; k0 < p.k; k0 += kKBlock) {
    const int64_t kc = std::min(kKBlock, p.k - k0);
    for (int64_t q = 0; q < b_panels; ++q) {
      const double* bp = b_packed + (panel0 + q) * nr * p.k + k0 * nr;
      for (int64_t i = 0; i < a_panels; ++i) {
        const double* ap = ws.a_panels.data() + i * mr * p.k + k0 * mr;
        p.kernel.fn(kc, ap, bp, ws.c_block.data() + i * mr * ldc + q * nr, ldc);
      }
    }
  }

  const int64_t col0 = panel0 * nr;
  store_block(ws.c_block.data(), ldc, rows, std::min(ldc, p.n - col0), alpha, bias, d, row0, col0);
}

// The whole reference GEMM: M rows of A through pack_a, B the MXFP8 operand (N x K).
template <typename PackA>
void reference_gemm(const PackA& pack_a, int64_t m, const ConstMxOperand& b, double alpha,
                    const ConstMatrixView* bias, MatrixView d) {
  const Plan p = make_plan(m, b.data.rows, b.data.cols);
  const std::unique_ptr<double[]> b_packed = pack_b(b, p);
  const std::vector<double> bias_values = decode_bias(bias);

  const int64_t tasks = p.row_blocks * p.col_blocks;
  std::atomic<int64_t> next{0};
  run_workers(static_cast<int>(std::min<int64_t>(p.threads, tasks)), [&] {
    Workspace ws;
    ws.a_panels.resize(static_cast<size_t>(p.row_block_size * p.k));
    ws.c_block.resize(
        static_cast<size_t>(p.row_block_size * p.panels_per_col_block * p.kernel.nr));
    for (int64_t task; (task = next.fetch_add(1)) < tasks;)
      run_task(pack_a, b_packed.get(), alpha, bias_values, d, p, task, ws);
  });
}

}  // namespace

void detail::reference_gemm_force_portable_kernel(bool force) {
  g_force_portable.store(force, std::memory_order_relaxed);
}

void mxfp8_scaled_mm_reference(const ConstMxOperand& a, const ConstMxOperand& b, float alpha,
                               MatrixView d) {
  detail::validate_gemm("mxfp8_scaled_mm_reference", a, b, nullptr, /*alpha_is_value=*/true, d,
                        {Memory::Host, false});
  reference_gemm([&](int64_t r0, int width, double* panel) { pack_panel(a, r0, width, panel); },
                 a.data.rows, b, static_cast<double>(alpha), nullptr, d);
}

void mxfp8_weight_only_mm_reference(const ConstMatrixView& a, const ConstMxOperand& w, float alpha,
                                    const ConstMatrixView* bias, MatrixView d) {
  detail::validate_weight_only("mxfp8_weight_only_mm_reference", a, w, nullptr,
                               /*alpha_is_value=*/true, bias, d, {Memory::Host, false});
  reference_gemm([&](int64_t r0, int width, double* panel) { pack_panel_wide(a, r0, width, panel); },
                 a.rows, w, static_cast<double>(alpha), bias, d);
}

}  // namespace mxgemm
