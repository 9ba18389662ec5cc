// The GPU quantizers and dequantizer against the CPU oracle (quantize_mxfp8_reference,
// quantize_mxfp8_columnwise_reference, dequantize_mxfp8_reference): bit for bit, on fresh
// random data. Every output buffer is poisoned (0xAB) before the run, the same way on both
// sides, and compared whole -- so a byte the GPU leaves unwritten, or writes where the CPU
// does not (the gap between rows, padding), is a mismatch -- and guard bands around every
// device buffer must survive.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "gpu/gpu_test_utils.hpp"
#include "mxgemm/mxgemm.hpp"

namespace mxgemm::testing {
namespace {

constexpr std::uint8_t kPoison = 0xAB;

std::mt19937 fresh_rng() {
  const unsigned seed = std::random_device{}();
  std::printf("[ seed     ] %u\n", seed);
  return std::mt19937(seed);
}

// ---- random high-precision inputs ----------------------------------------------------------

// What a 32-element block looks like.
enum class Dist {
  Normal,     // N(0,1) at a random power-of-two scale
  HeavyTail,  // normal plus a few outliers up to 2^14 times larger
  Boundary,   // amax = m * 2^E with m at the RCEIL edges (1, 1.75, 1.75 +- ulp, 2 - ulp),
              // the rest exact multiples of amax/64: many fp8 rounding ties
  Tiny,       // around the input type's subnormal range
  Huge,       // near the input type's largest finite value
  NonFinite,  // normal with one or two NaN (random payload and sign) or +-Inf
  Zero,       // +-0 only
  Mixed,      // each block picks one of the above
};
constexpr Dist kPureDists[] = {Dist::Normal, Dist::HeavyTail, Dist::Boundary, Dist::Tiny,
                               Dist::Huge,   Dist::NonFinite, Dist::Zero};
const char* dist_name(Dist d) {
  switch (d) {
    case Dist::Normal: return "normal";
    case Dist::HeavyTail: return "heavy_tail";
    case Dist::Boundary: return "boundary";
    case Dist::Tiny: return "tiny";
    case Dist::Huge: return "huge";
    case Dist::NonFinite: return "nonfinite";
    case Dist::Zero: return "zero";
    default: return "mixed";
  }
}

// Bit-level facts of the three input types.
struct Wide {
  int man_bits;
  std::uint32_t exp_mask;   // exponent field all ones (Inf/NaN)
  std::uint32_t sign;       // sign bit
  std::uint32_t max_bits;   // largest finite
  int min_exp, max_exp;     // range of binades used by Tiny and Huge
};
Wide wide(DType t) {
  switch (t) {
    case DType::FP32: return {23, 0x7F800000u, 0x80000000u, 0x7F7FFFFFu, -150, 126};
    case DType::BF16: return {7, 0x7F80u, 0x8000u, 0x7F7Fu, -136, 126};
    default: return {10, 0x7C00u, 0x8000u, 0x7BFFu, -25, 15};
  }
}

// Round-to-nearest-even bits of v (finite, in range) in the input type.
std::uint32_t to_bits(DType t, double v) {
  if (t == DType::FP32) {
    const float f = static_cast<float>(v);
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  return t == DType::BF16 ? encode_bf16(v) : encode_fp16(v);
}

void fill_block(Dist d, DType t, std::mt19937& rng, std::uint32_t* out, int n) {
  const Wide w = wide(t);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit(1.0, 2.0);
  std::uniform_int_distribution<int> coin(0, 1);
  const bool half = t == DType::FP16;
  const auto rnd_sign = [&] { return coin(rng) ? -1.0 : 1.0; };
  const auto expo = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  switch (d) {
    case Dist::Normal: {
      const double s = std::ldexp(1.0, half ? expo(-8, 8) : expo(-40, 40));
      for (int i = 0; i < n; ++i) out[i] = to_bits(t, normal(rng) * s);
      break;
    }
    case Dist::HeavyTail: {
      const double s = std::ldexp(1.0, half ? expo(-12, -1) : expo(-30, 30));
      for (int i = 0; i < n; ++i) out[i] = to_bits(t, normal(rng) * s);
      const int outliers = expo(1, 3);
      for (int j = 0; j < outliers; ++j) {
        const double v = rnd_sign() * unit(rng) * s * std::ldexp(1.0, expo(4, 14));
        out[expo(0, n - 1)] = to_bits(t, v);
      }
      break;
    }
    case Dist::Boundary: {
      const double ulp = std::ldexp(1.0, -w.man_bits);
      const double ms[] = {1.0, 1.75, 1.75 + 2 * ulp, 1.75 - ulp, 2.0 - ulp, 1.5};
      const double amax =
          ms[expo(0, 5)] * std::ldexp(1.0, half ? expo(-10, 10) : expo(-60, 60));
      for (int i = 0; i < n; ++i) out[i] = to_bits(t, rnd_sign() * amax * expo(0, 64) / 64.0);
      out[expo(0, n - 1)] = to_bits(t, rnd_sign() * amax);
      break;
    }
    case Dist::Tiny:
      for (int i = 0; i < n; ++i)
        out[i] = to_bits(t, rnd_sign() * unit(rng) * std::ldexp(1.0, expo(w.min_exp, w.min_exp + 24)));
      break;
    case Dist::Huge:
      for (int i = 0; i < n; ++i)
        out[i] = to_bits(t, rnd_sign() * unit(rng) * std::ldexp(1.0, expo(w.max_exp - 20, w.max_exp - 1)));
      if (coin(rng)) out[expo(0, n - 1)] = w.max_bits | (coin(rng) ? w.sign : 0u);
      break;
    case Dist::NonFinite: {
      fill_block(Dist::Normal, t, rng, out, n);
      const int specials = expo(1, 2);
      for (int j = 0; j < specials; ++j) {
        std::uint32_t b = w.exp_mask | (coin(rng) ? w.sign : 0u);
        if (coin(rng)) {  // NaN with a random nonzero payload
          const std::uint32_t payload =
              std::uniform_int_distribution<std::uint32_t>(1, (1u << w.man_bits) - 1)(rng);
          b |= payload;
        }
        out[expo(0, n - 1)] = b;
      }
      break;
    }
    case Dist::Zero:
      for (int i = 0; i < n; ++i) out[i] = coin(rng) ? w.sign : 0u;
      break;
    case Dist::Mixed:
      fill_block(kPureDists[expo(0, 6)], t, rng, out, n);
      break;
  }
}

// A rows x cols high-precision matrix in host memory with row stride `stride` (elements);
// the gap between rows holds poison. Blocks of 32 run along the rows (along_rows == false,
// the rowwise quantizer's blocks) or down the columns (along_rows == true, the columnwise
// quantizer's blocks), so every block draws from one distribution.
struct HostInput {
  DType dtype = DType::FP32;
  std::int64_t rows = 0, cols = 0, stride = 0;
  std::vector<std::uint8_t> bytes;

  std::uint32_t get(std::int64_t r, std::int64_t c) const {
    std::uint32_t b = 0;
    std::memcpy(&b, bytes.data() + (r * stride + c) * dtype_size(dtype), dtype_size(dtype));
    return b;
  }
  void set(std::int64_t r, std::int64_t c, std::uint32_t b) {
    std::memcpy(bytes.data() + (r * stride + c) * dtype_size(dtype), &b, dtype_size(dtype));
  }
  ConstMatrixView view(const void* data, Memory m) const {
    return ConstMatrixView(data, rows, cols, stride, dtype, m);
  }
};

HostInput random_input(DType t, std::int64_t rows, std::int64_t cols, std::int64_t pad, Dist d,
                       bool blocks_down_columns, std::mt19937& rng) {
  HostInput x;
  x.dtype = t;
  x.rows = rows;
  x.cols = cols;
  x.stride = cols + pad;
  x.bytes.assign(static_cast<std::size_t>(rows * x.stride * dtype_size(t)), kPoison);
  // Lines are the direction blocks run along: rows of x, or its columns. Large inputs are
  // drawn on several threads, each with its own generator seeded from `rng`.
  const std::int64_t lines = blocks_down_columns ? cols : rows;
  const std::int64_t len = blocks_down_columns ? rows : cols;
  const auto fill_lines = [&x, len, d, t, blocks_down_columns](std::int64_t l0, std::int64_t l1,
                                                               unsigned seed) {
    std::mt19937 local(seed);
    std::uint32_t block[kBlockSize];
    for (std::int64_t l = l0; l < l1; ++l) {
      for (std::int64_t b0 = 0; b0 < len; b0 += kBlockSize) {
        const int n = static_cast<int>(std::min<std::int64_t>(kBlockSize, len - b0));
        fill_block(d, t, local, block, n);
        for (int i = 0; i < n; ++i) {
          if (blocks_down_columns) x.set(b0 + i, l, block[i]);
          else x.set(l, b0 + i, block[i]);
        }
      }
    }
  };
  const std::int64_t n_threads = std::clamp<std::int64_t>(
      rows * cols / (1 << 20), 1, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> workers;
  for (std::int64_t i = 0; i < n_threads; ++i)
    workers.emplace_back(fill_lines, lines * i / n_threads, lines * (i + 1) / n_threads,
                         static_cast<unsigned>(rng()));
  for (auto& w : workers) w.join();
  return x;
}

// ---- one quantization, on both sides --------------------------------------------------------

struct Shape {
  std::int64_t rows, cols;
};

// How the operands are laid out beyond their shape: padding between rows (elements or
// bytes) and an x that starts one element past a 16-byte boundary (no vector path).
struct Strides {
  std::int64_t x_pad = 0, q_pad = 0, scale_pad = 0, out_pad = 0;
  bool x_misaligned = false;
};

// A quantized operand's bytes in host memory, both buffers whole (gaps and padding too).
struct QBytes {
  std::int64_t rows = 0, cols = 0, stride = 0, scale_rows = 0, scale_cols = 0, scale_stride = 0;
  DType elem = DType::E4M3;
  ScaleLayout layout = ScaleLayout::Linear;
  std::vector<std::uint8_t> data, scales;

  QBytes(std::int64_t r, std::int64_t c, DType e, ScaleLayout l, const Strides& s)
      : rows(r), cols(c), elem(e), layout(l) {
    stride = c + s.q_pad;
    const ScaleShape sh = scale_shape(r, c, l);
    scale_rows = sh.rows;
    scale_cols = sh.cols;
    scale_stride = l == ScaleLayout::Linear ? sh.cols + s.scale_pad : sh.cols;
    data.assign(static_cast<std::size_t>(r * stride), kPoison);
    scales.assign(static_cast<std::size_t>(scale_rows * scale_stride), kPoison);
  }
  MxOperand view(void* d, void* s, Memory m) const {
    return MxOperand(MatrixView(d, rows, cols, stride, elem, m),
                     MatrixView(s, scale_rows, scale_cols, scale_stride, DType::E8M0, m), layout);
  }
  MxOperand host_view() { return view(data.data(), scales.data(), Memory::Host); }
};

// The device copy of a QBytes (poisoned exactly like the host one).
struct DeviceQ {
  GuardedDeviceBuffer data, scales;
  explicit DeviceQ(const QBytes& q) : data(q.data.size(), kPoison), scales(q.scales.size(), kPoison) {}
  MxOperand view(const QBytes& q) const { return q.view(data.data(), scales.data(), Memory::Device); }
  void download_into(QBytes& q) const {
    q.data = data.download();
    q.scales = scales.download();
  }
  bool guards_intact() const { return data.guards_intact() && scales.guards_intact(); }
};

// Device copy of x, one element past 16-byte alignment when asked.
struct DeviceX {
  GuardedDeviceBuffer buf;
  std::size_t offset;
  DeviceX(const HostInput& x, bool misaligned)
      : buf(x.bytes.size() + 16), offset(misaligned ? dtype_size(x.dtype) : 0) {
    EXPECT_EQ(cudaMemcpy(static_cast<std::uint8_t*>(buf.data()) + offset, x.bytes.data(),
                         x.bytes.size(), cudaMemcpyHostToDevice),
              cudaSuccess);
  }
  ConstMatrixView view(const HostInput& x) const {
    return x.view(static_cast<const std::uint8_t*>(buf.data()) + offset, Memory::Device);
  }
};

// Up to 5 differing bytes of `what`, located as (row, col) of a matrix with `stride`.
std::int64_t report_diff(const std::string& what, const std::vector<std::uint8_t>& gpu,
                         const std::vector<std::uint8_t>& cpu, std::int64_t stride) {
  if (gpu.size() != cpu.size()) {
    ADD_FAILURE() << what << ": size " << gpu.size() << " vs " << cpu.size();
    return 1;
  }
  std::int64_t bad = 0;
  for (std::size_t i = 0; i < gpu.size(); ++i) {
    if (gpu[i] == cpu[i]) continue;
    if (bad++ < 5) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s: byte %zu (row %lld, col %lld): gpu 0x%02X, cpu 0x%02X",
                    what.c_str(), i, static_cast<long long>(i / stride),
                    static_cast<long long>(i % stride), gpu[i], cpu[i]);
      ADD_FAILURE() << buf;
    }
  }
  return bad;
}

std::string tag(DType in, DType elem, ScaleRounding r, ScaleLayout l) {
  std::ostringstream os;
  os << dtype_name(in) << "_" << dtype_name(elem) << "_" << rounding_name(r) << "_"
     << (l == ScaleLayout::Linear ? "linear" : "swizzled");
  return os.str();
}

// Dequantizes the device operand on the GPU and the identical host operand on the CPU into
// `out_dtype`, and compares the outputs byte for byte.
void check_dequantize(const QBytes& host_q, const DeviceQ& dev_q, DType out_dtype,
                      std::int64_t out_pad) {
  SCOPED_TRACE(std::string("dequantize to ") + dtype_name(out_dtype));
  const std::int64_t stride = host_q.cols + out_pad;
  const std::size_t bytes = static_cast<std::size_t>(host_q.rows * stride * dtype_size(out_dtype));
  std::vector<std::uint8_t> cpu(bytes, kPoison);
  QBytes q = host_q;  // the reference wants a non-const view; it only reads it
  dequantize_mxfp8_reference(q.host_view(),
                             MatrixView(cpu.data(), q.rows, q.cols, stride, out_dtype, Memory::Host));
  GuardedDeviceBuffer dout(bytes, kPoison);
  dequantize_mxfp8(dev_q.view(host_q),
                   MatrixView(dout.data(), q.rows, q.cols, stride, out_dtype, Memory::Device));
  MXGEMM_ASSERT_CUDA(cudaDeviceSynchronize());
  EXPECT_TRUE(dout.guards_intact()) << "dequantize wrote outside its output";
  EXPECT_EQ(report_diff("dequantized", dout.download(), cpu, stride * dtype_size(out_dtype)), 0);
}

// Quantizes x rowwise (or columnwise) on both sides and compares every byte; then
// dequantizes the result on both sides (into x's dtype) and compares again.
void check_quantize(const HostInput& x, bool columnwise, DType elem, ScaleRounding rounding,
                    ScaleLayout layout, const Strides& s) {
  const std::int64_t qr = columnwise ? x.cols : x.rows;
  const std::int64_t qc = columnwise ? x.rows : x.cols;
  QBytes cpu(qr, qc, elem, layout, s);
  QBytes gpu = cpu;
  const ConstMatrixView hx = x.view(x.bytes.data(), Memory::Host);
  if (columnwise) quantize_mxfp8_columnwise_reference(hx, cpu.host_view(), rounding);
  else quantize_mxfp8_reference(hx, cpu.host_view(), rounding);

  DeviceX dx(x, s.x_misaligned);
  DeviceQ dq(gpu);
  if (columnwise) quantize_mxfp8_columnwise(dx.view(x), dq.view(gpu), rounding);
  else quantize_mxfp8(dx.view(x), dq.view(gpu), rounding);
  MXGEMM_ASSERT_CUDA(cudaDeviceSynchronize());
  dq.download_into(gpu);
  EXPECT_TRUE(dq.guards_intact()) << "quantize wrote outside q.data or q.scales";
  EXPECT_TRUE(dx.buf.guards_intact()) << "quantize wrote around x";
  const std::int64_t bad = report_diff("codes", gpu.data, cpu.data, cpu.stride) +
                           report_diff("scales", gpu.scales, cpu.scales, cpu.scale_stride);
  EXPECT_EQ(bad, 0) << bad << " bytes differ";
  if (bad == 0) check_dequantize(cpu, dq, x.dtype, s.out_pad);
}

bool quantize_kernels_run_here(std::string* why) {
  const int cc = current_compute_capability();
  if (cc >= 89) return true;
  *why = "compute capability " + std::to_string(cc / 10) + "." + std::to_string(cc % 10) +
         " is below 8.9 (no fp8 conversions)";
  return false;
}

#define MXGEMM_REQUIRE_QUANTIZE_GPU()                                        \
  do {                                                                       \
    MXGEMM_REQUIRE_GPU();                                                    \
    std::string mxgemm_why_cc_;                                              \
    if (!quantize_kernels_run_here(&mxgemm_why_cc_)) GTEST_SKIP() << mxgemm_why_cc_; \
  } while (0)

// ---- the sweep: shape x input dtype x element type x rounding x layout ----------------------

using SweepParam = std::tuple<Shape, DType, DType, ScaleRounding, ScaleLayout>;

const Shape kShapes[] = {{1, 32}, {129, 48}, {1000, 1040}, {4096, 4096}, {7, 16}};

std::string sweep_name(const ::testing::TestParamInfo<SweepParam>& info) {
  const auto& [shape, in, elem, r, l] = info.param;
  return std::to_string(shape.rows) + "x" + std::to_string(shape.cols) + "_" + tag(in, elem, r, l);
}

class QuantizeSweep : public ::testing::TestWithParam<SweepParam> {};

TEST_P(QuantizeSweep, RowwiseMatchesCpuBitwise) {
  MXGEMM_REQUIRE_QUANTIZE_GPU();
  const auto& [shape, in, elem, rounding, layout] = GetParam();
  auto rng = fresh_rng();
  const HostInput x = random_input(in, shape.rows, shape.cols, 0, Dist::Mixed, false, rng);
  check_quantize(x, /*columnwise=*/false, elem, rounding, layout, {});
}

TEST_P(QuantizeSweep, ColumnwiseMatchesCpuBitwise) {
  MXGEMM_REQUIRE_QUANTIZE_GPU();
  const auto& [shape, in, elem, rounding, layout] = GetParam();
  auto rng = fresh_rng();
  const HostInput x = random_input(in, shape.rows, shape.cols, 0, Dist::Mixed, true, rng);
  check_quantize(x, /*columnwise=*/true, elem, rounding, layout, {});
}

INSTANTIATE_TEST_SUITE_P(
    AllCombinations, QuantizeSweep,
    ::testing::Combine(::testing::ValuesIn(kShapes),
                       ::testing::Values(DType::FP32, DType::BF16, DType::FP16),
                       ::testing::Values(DType::E4M3, DType::E5M2),
                       ::testing::Values(ScaleRounding::Floor, ScaleRounding::RCeil),
                       ::testing::Values(ScaleLayout::Swizzled128x4, ScaleLayout::Linear)),
    sweep_name);

// ---- each distribution on its own, every combination ----------------------------------------

TEST(QuantizeGpu, EachDistributionAlone) {
  MXGEMM_REQUIRE_QUANTIZE_GPU();
  auto rng = fresh_rng();
  for (Dist d : kPureDists)
    for (DType in : {DType::FP32, DType::BF16, DType::FP16})
      for (DType elem : {DType::E4M3, DType::E5M2})
        for (ScaleRounding r : {ScaleRounding::Floor, ScaleRounding::RCeil})
          for (ScaleLayout l : {ScaleLayout::Swizzled128x4, ScaleLayout::Linear})
            for (bool columnwise : {false, true}) {
              SCOPED_TRACE(std::string(dist_name(d)) + " " + tag(in, elem, r, l) +
                           (columnwise ? " columnwise" : " rowwise"));
              const HostInput x = random_input(in, 130, 200, 0, d, columnwise, rng);
              check_quantize(x, columnwise, elem, r, l, {});
              if (HasFailure()) return;
            }
}

// ---- strides, gaps and misaligned pointers (the element-by-element paths) -------------------

TEST(QuantizeGpu, StridedAndMisalignedOperands) {
  MXGEMM_REQUIRE_QUANTIZE_GPU();
  auto rng = fresh_rng();
  const Strides layouts[] = {
      {3, 5, 3, 7, false},   // odd strides everywhere: no 16-byte rows
      {8, 16, 1, 8, false},  // padded but 16-byte aligned rows: vector path, gaps checked
      {0, 0, 0, 0, true},    // x one element past a 16-byte boundary
  };
  const Shape shapes[] = {{129, 48}, {70, 333}, {33, 1000}};
  for (const Strides& s : layouts)
    for (const Shape& sh : shapes)
      for (DType in : {DType::FP32, DType::BF16, DType::FP16})
        for (DType elem : {DType::E4M3, DType::E5M2})
          for (ScaleLayout l : {ScaleLayout::Swizzled128x4, ScaleLayout::Linear})
            for (bool columnwise : {false, true}) {
              SCOPED_TRACE(std::to_string(sh.rows) + "x" + std::to_string(sh.cols) + " pads " +
                           std::to_string(s.x_pad) + "/" + std::to_string(s.q_pad) + "/" +
                           std::to_string(s.scale_pad) + "/" + std::to_string(s.out_pad) +
                           (s.x_misaligned ? " misaligned " : " ") +
                           tag(in, elem, ScaleRounding::RCeil, l) +
                           (columnwise ? " columnwise" : " rowwise"));
              const HostInput x = random_input(in, sh.rows, sh.cols, s.x_pad, Dist::Mixed, columnwise, rng);
              check_quantize(x, columnwise, elem, ScaleRounding::RCeil, l, s);
              if (HasFailure()) return;
            }
}

// ---- dequantize on arbitrary bytes: every code, every scale ----------------------------------

TEST(QuantizeGpu, DequantizeRandomBytesMatchesCpuBitwise) {
  MXGEMM_REQUIRE_QUANTIZE_GPU();
  auto rng = fresh_rng();
  std::uniform_int_distribution<int> byte(0, 255);
  const Shape shapes[] = {{7, 16}, {129, 48}, {1000, 1040}, {256, 8192}};
  for (const Shape& sh : shapes)
    for (DType elem : {DType::E4M3, DType::E5M2})
      for (ScaleLayout l : {ScaleLayout::Swizzled128x4, ScaleLayout::Linear})
        for (std::int64_t pad : {0, 3})
          for (DType out : {DType::FP32, DType::BF16, DType::FP16}) {
            SCOPED_TRACE(std::to_string(sh.rows) + "x" + std::to_string(sh.cols) + " " +
                         dtype_name(elem) + " " + layout_name(l) + " pad " + std::to_string(pad));
            Strides s;
            s.q_pad = pad;
            s.scale_pad = pad;
            s.out_pad = pad;
            QBytes q(sh.rows, sh.cols, elem, l, s);
            for (auto& b : q.data) b = static_cast<std::uint8_t>(byte(rng));
            for (auto& b : q.scales) b = static_cast<std::uint8_t>(byte(rng));
            DeviceQ dq(q);
            dq.data.upload(q.data.data());
            dq.scales.upload(q.scales.data());
            check_dequantize(q, dq, out, pad);
            EXPECT_TRUE(dq.guards_intact());
            if (HasFailure()) return;
          }
}

// ---- the entry points refuse bad input before touching memory --------------------------------

TEST(QuantizeGpu, RejectsBadArgumentsWithoutWriting) {
  MXGEMM_REQUIRE_QUANTIZE_GPU();
  GuardedDeviceBuffer x(64 * 64 * 2), data(64 * 64), scales(128 * 4);
  const ConstMatrixView xv(x.data(), 64, 64, 64, DType::BF16, Memory::Device);
  // q of the wrong shape (64 x 32 instead of 64 x 64).
  const MxOperand bad(MatrixView(data.data(), 64, 32, 32, DType::E4M3, Memory::Device),
                      MatrixView(scales.data(), 128, 4, 4, DType::E8M0, Memory::Device),
                      ScaleLayout::Swizzled128x4);
  EXPECT_THROW(quantize_mxfp8(xv, bad, ScaleRounding::Floor), ArgumentError);
  EXPECT_THROW(quantize_mxfp8_columnwise(xv, bad, ScaleRounding::Floor), ArgumentError);
  // Host memory where device memory is required (the driver knows better than the view).
  std::vector<std::uint8_t> host(64 * 64 * 2);
  const ConstMatrixView hx(host.data(), 64, 64, 64, DType::BF16, Memory::Device);
  const MxOperand good(MatrixView(data.data(), 64, 64, 64, DType::E4M3, Memory::Device),
                       MatrixView(scales.data(), 128, 4, 4, DType::E8M0, Memory::Device),
                       ScaleLayout::Swizzled128x4);
  EXPECT_THROW(quantize_mxfp8(hx, good, ScaleRounding::Floor), ArgumentError);
  // A wide dtype for the codes.
  const MxOperand wide_codes(MatrixView(data.data(), 64, 64, 64, DType::BF16, Memory::Device),
                             good.scales, ScaleLayout::Swizzled128x4);
  EXPECT_THROW(quantize_mxfp8(xv, wide_codes, ScaleRounding::Floor), DtypeError);
  MXGEMM_ASSERT_CUDA(cudaDeviceSynchronize());
  for (const auto* b : {&x, &data, &scales}) {
    EXPECT_TRUE(b->guards_intact());
    for (std::uint8_t v : b->download()) ASSERT_EQ(v, 0xAB) << "a rejected call wrote memory";
  }
}

}  // namespace
}  // namespace mxgemm::testing
