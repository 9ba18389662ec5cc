// CPU reference quantizer and dequantizer (MX_FORMAT.md "Quantization", quantize.hpp).
//
// Quantization works on the exact fp32 bits of every input (bf16 and fp16 widen exactly)
// with integer arithmetic only: no log2, frexp or ldexp per element. The rules are
// written so that a GPU kernel can reproduce them bit for bit:
//   amax = m * 2^E, m in [1, 2) (subnormals normalized)
//   FLOOR: shared_exp = E - emax
//   RCEIL: shared_exp = E - emax + (m > m_max), max_finite = m_max * 2^emax
//   both clamped to [-127, 127]; element = RNE(v * 2^-shared_exp), saturated to +-max.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "core/validate.hpp"
#include "mxgemm/elements.hpp"
#include "mxgemm/layout.hpp"
#include "mxgemm/quantize.hpp"

namespace mxgemm {
namespace {

constexpr int kMinSharedExp = -127;  // E8M0 byte 0
constexpr int kMaxSharedExp = 127;   // E8M0 byte 254 (255 is NaN)
constexpr int kScaleBias = 127;
constexpr std::uint8_t kNanScale = 0xFF;

constexpr std::uint32_t kAbsMask = 0x7FFFFFFFu;
constexpr std::uint32_t kInfBits = 0x7F800000u;
constexpr int kFp32ManBits = 23;

std::uint32_t float_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// A finite nonzero fp32 magnitude as sig * 2^(exp - 23) with sig in [2^23, 2^24).
// fp32 subnormals are normalized here, so amax and elements take a single path.
struct Unpacked {
  std::uint32_t sig;
  int exp;
};

Unpacked unpack(std::uint32_t abs_bits) {
  const std::uint32_t field = abs_bits >> kFp32ManBits;
  const std::uint32_t frac = abs_bits & ((1u << kFp32ManBits) - 1u);
  if (field != 0) return {frac | (1u << kFp32ManBits), static_cast<int>(field) - 127};
  const int lead = 31 - __builtin_clz(frac);  // frac != 0: the value is nonzero
  return {frac << (kFp32ManBits - lead), -149 + lead};
}

// What quantization needs to know about an element type, derived from the exact codec's
// format description so the constants live in one place (elements.hpp).
struct Fp8Params {
  const detail::FloatFormat* fmt;
  int emin;                // exponent of the smallest normal: 1 - bias
  int emax;                // exponent of max finite: 8 (E4M3), 15 (E5M2)
  std::uint32_t max_sig;   // max finite = max_sig * 2^(emax - 23); 1.75 * 2^23 for both
  std::uint32_t max_code;  // code of +max finite: 0x7E (E4M3), 0x7B (E5M2)
};

Fp8Params fp8_params(DType t) {
  const detail::FloatFormat& f = t == DType::E5M2 ? detail::kE5M2 : detail::kE4M3;
  const Unpacked max = unpack(float_bits(static_cast<float>(f.max_finite)));
  return {&f, 1 - f.bias, max.exp, max.sig,
          detail::encode(f, f.max_finite, Overflow::Saturate)};
}

// Shared exponent of a block with finite amax (fp32 bits without sign).
// FLOOR is floor(log2(amax)) - emax. RCEIL is ceil(log2(amax / max_finite)): with
// amax = m * 2^E and max_finite = m_max * 2^emax, m/m_max lies in (1/2, 2), so the
// ceiling is E - emax, plus one exactly when m > m_max.
// amax == 0 gives the smallest exponent: scale byte 0, and every element encodes to +-0.
int shared_exponent(std::uint32_t amax_bits, ScaleRounding rounding, const Fp8Params& p) {
  if (amax_bits == 0) return kMinSharedExp;
  const Unpacked a = unpack(amax_bits);
  int e = a.exp - p.emax;
  if (rounding == ScaleRounding::RCeil && a.sig > p.max_sig) ++e;
  return std::clamp(e, kMinSharedExp, kMaxSharedExp);
}

// Code of the finite fp32 `bits` times 2^-shared_exp, rounded to nearest even and
// saturated to +-max finite. The scaled value is sig * 2^(exp - 23) exactly; the code
// keeps the bits of sig at or above the quantum of the value's binade (the subnormal
// quantum below emin) and rounds away the rest.
std::uint8_t encode_scaled(std::uint32_t bits, int shared_exp, const Fp8Params& p) {
  const std::uint32_t sign = (bits >> 24) & 0x80u;
  const std::uint32_t abs = bits & kAbsMask;
  if (abs == 0) return static_cast<std::uint8_t>(sign);
  const int man_bits = p.fmt->man_bits;
  const Unpacked u = unpack(abs);
  const int exp = u.exp - shared_exp;                       // exponent of the scaled value
  const int binade = std::max(exp, p.emin);                 // subnormals use emin's quantum
  const int shift = kFp32ManBits - man_bits + (binade - exp);  // >= 20: bits rounded away
  // Round to nearest even without a branch: adding half a quantum minus one, plus the
  // lowest kept bit, carries into the kept bits exactly when the dropped bits exceed half
  // a quantum, or equal it with an odd kept part. sig < 2^24, so 25 or more dropped bits
  // are below half a quantum and give 0; capping the shift at 31 keeps that so, keeps the
  // shift defined and the sum below 2^32.
  const int s = std::min(shift, 31);
  const std::uint32_t kept = (u.sig + (1u << (s - 1)) - 1u + ((u.sig >> s) & 1u)) >> s;
  // A normal code is ((exp - emin + 1) << man) | (kept - 2^man), i.e.
  // ((binade - emin) << man) + kept. The same sum gives subnormal codes (binade == emin,
  // kept < 2^man) and carries a round-up to 2^(man+1) into the next exponent.
  const std::int64_t code = (static_cast<std::int64_t>(binade - p.emin) << man_bits) + kept;
  return static_cast<std::uint8_t>(sign |
                                   static_cast<std::uint32_t>(std::min<std::int64_t>(code, p.max_code)));
}

// Element of a block whose amax is Inf or NaN (scale 0xFF): NaN stays NaN and Inf stays
// Inf where the type has one (E5M2; E4M3 has none, so NaN), sign kept; finite elements
// become +-0 since the NaN scale makes the whole block decode to NaN anyway.
std::uint8_t encode_in_nan_block(std::uint32_t bits, const Fp8Params& p) {
  const std::uint32_t sign = (bits >> 24) & 0x80u;
  const std::uint32_t abs = bits & kAbsMask;
  if (abs < kInfBits) return static_cast<std::uint8_t>(sign);
  const bool is_nan = abs > kInfBits;
  const bool as_nan = is_nan || !p.fmt->has_inf;
  return static_cast<std::uint8_t>(sign | (as_nan ? p.fmt->nan_code : p.fmt->inf_code));
}

// fp32 bits of every fp16 code. decode_fp16 is exact and fp32 holds every fp16 value;
// the sign is OR-ed back in because decode returns an unsigned NaN.
const std::vector<std::uint32_t>& fp16_to_fp32_bits() {
  static const std::vector<std::uint32_t> table = [] {
    std::vector<std::uint32_t> t(1u << 16);
    for (std::uint32_t c = 0; c < t.size(); ++c) {
      t[c] = float_bits(static_cast<float>(decode_fp16(static_cast<std::uint16_t>(c)))) |
             ((c & 0x8000u) << 16);
    }
    return t;
  }();
  return table;
}

// Exact fp32 bits of the k elements of row r of x.
void load_row_bits(const ConstMatrixView& x, std::int64_t r, std::uint32_t* out) {
  const auto* row = static_cast<const std::uint8_t*>(x.data) + r * x.row_stride * dtype_size(x.dtype);
  const std::int64_t k = x.cols;
  if (x.dtype == DType::FP32) {
    std::memcpy(out, row, static_cast<std::size_t>(k) * sizeof(std::uint32_t));
    return;
  }
  const auto* half = reinterpret_cast<const std::uint16_t*>(row);
  if (x.dtype == DType::BF16) {
    for (std::int64_t i = 0; i < k; ++i) out[i] = static_cast<std::uint32_t>(half[i]) << 16;
  } else {  // FP16
    const std::uint32_t* table = fp16_to_fp32_bits().data();
    for (std::int64_t i = 0; i < k; ++i) out[i] = table[half[i]];
  }
}

// Byte offset of scale (r, c) of an operand, in whichever layout it uses.
std::int64_t scale_offset(const ConstMxOperand& op, std::int64_t r, std::int64_t c) {
  return op.layout == ScaleLayout::Linear
             ? linear_scale_offset(r, c, op.scales.row_stride)
             : swizzled_scale_offset(r, c, scale_cols(op.data.cols));
}

// Runs fn(row_begin, row_end) over [0, rows) in contiguous chunks on up to
// hardware_concurrency threads. Small problems stay on the calling thread, where thread
// start-up would cost more than the work. fn must not throw.
template <typename Fn>
void for_row_chunks(std::int64_t rows, std::int64_t cols, const Fn& fn) {
  constexpr std::int64_t kMinElementsPerThread = std::int64_t{1} << 18;
  const std::int64_t hw = std::max(1u, std::thread::hardware_concurrency());
  const std::int64_t n = std::clamp<std::int64_t>(rows * cols / kMinElementsPerThread, 1,
                                                  std::min(hw, rows));
  const auto chunk_begin = [&](std::int64_t i) { return rows * i / n; };
  std::vector<std::thread> workers;
  workers.reserve(static_cast<std::size_t>(n - 1));
  try {
    for (std::int64_t i = 1; i < n; ++i) workers.emplace_back(fn, chunk_begin(i), chunk_begin(i + 1));
  } catch (...) {  // could not start a thread: wait for those that did, then report
    for (auto& w : workers) w.join();
    throw;
  }
  fn(chunk_begin(0), chunk_begin(1));
  for (auto& w : workers) w.join();
}

// Quantizes rows [begin, end) of x into q.
void quantize_rows(const ConstMatrixView& x, const MxOperand& q, ScaleRounding rounding,
                   std::int64_t begin, std::int64_t end) {
  const Fp8Params p = fp8_params(q.data.dtype);
  const std::int64_t k = x.cols;
  std::vector<std::uint32_t> bits(static_cast<std::size_t>(k));
  auto* scales = static_cast<std::uint8_t*>(q.scales.data);
  for (std::int64_t r = begin; r < end; ++r) {
    load_row_bits(x, r, bits.data());
    auto* codes = static_cast<std::uint8_t*>(q.data.data) + r * q.data.row_stride;
    for (std::int64_t b0 = 0; b0 < k; b0 += kBlockSize) {
      const std::int64_t b1 = std::min<std::int64_t>(b0 + kBlockSize, k);
      // |v| as fp32 bits orders like |v| itself, and NaN bits sort above Inf.
      std::uint32_t amax_bits = 0;
      for (std::int64_t i = b0; i < b1; ++i) amax_bits = std::max(amax_bits, bits[i] & kAbsMask);
      std::uint8_t scale;
      if (amax_bits >= kInfBits) {
        scale = kNanScale;
        for (std::int64_t i = b0; i < b1; ++i) codes[i] = encode_in_nan_block(bits[i], p);
      } else {
        const int shared_exp = shared_exponent(amax_bits, rounding, p);
        scale = static_cast<std::uint8_t>(shared_exp + kScaleBias);
        for (std::int64_t i = b0; i < b1; ++i) codes[i] = encode_scaled(bits[i], shared_exp, p);
      }
      scales[scale_offset(q, r, b0 / kBlockSize)] = scale;
    }
  }
}

// Output bits of round(2^(s-127) * decode(e)) for every scale byte s and element code e
// (index s * 256 + e). The product is exact in double; it is rounded once to the output
// type with the exact codecs. NaN (NaN scale or NaN element) is the positive quiet NaN
// of the output type, whatever the sign bits said, so every backend can agree on it.
std::vector<std::uint32_t> build_dequant_table(DType elem, DType out) {
  std::vector<std::uint32_t> t(256 * 256);
  for (std::uint32_t s = 0; s < 256; ++s) {
    for (std::uint32_t e = 0; e < 256; ++e) {
      const auto code = static_cast<std::uint8_t>(e);
      double v = decode_e8m0(static_cast<std::uint8_t>(s)) *
                 (elem == DType::E5M2 ? decode_e5m2(code) : decode_e4m3(code));
      if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
      std::uint32_t bits;
      switch (out) {
        case DType::BF16: bits = encode_bf16(v); break;
        case DType::FP16: bits = encode_fp16(v); break;
        default: bits = float_bits(static_cast<float>(v)); break;  // FP32, RNE
      }
      t[s * 256 + e] = bits;
    }
  }
  return t;
}

template <DType Elem, DType Out>
const std::vector<std::uint32_t>& dequant_table_for() {
  static const std::vector<std::uint32_t> table = build_dequant_table(Elem, Out);
  return table;
}

// The table of one (element type, output type) pair, built on first use.
const std::uint32_t* dequant_table(DType elem, DType out) {
  const bool e5 = elem == DType::E5M2;
  switch (out) {
    case DType::BF16:
      return (e5 ? dequant_table_for<DType::E5M2, DType::BF16>()
                 : dequant_table_for<DType::E4M3, DType::BF16>()).data();
    case DType::FP16:
      return (e5 ? dequant_table_for<DType::E5M2, DType::FP16>()
                 : dequant_table_for<DType::E4M3, DType::FP16>()).data();
    default:
      return (e5 ? dequant_table_for<DType::E5M2, DType::FP32>()
                 : dequant_table_for<DType::E4M3, DType::FP32>()).data();
  }
}

// Dequantizes rows [begin, end) of q into out; OutT is the output's storage word.
template <typename OutT>
void dequantize_rows(const ConstMxOperand& q, const MatrixView& out, const std::uint32_t* table,
                     std::int64_t begin, std::int64_t end) {
  const std::int64_t k = q.data.cols;
  const auto* scales = static_cast<const std::uint8_t*>(q.scales.data);
  for (std::int64_t r = begin; r < end; ++r) {
    const auto* codes = static_cast<const std::uint8_t*>(q.data.data) + r * q.data.row_stride;
    auto* dst = static_cast<OutT*>(out.data) + r * out.row_stride;
    for (std::int64_t b0 = 0; b0 < k; b0 += kBlockSize) {
      const std::int64_t b1 = std::min<std::int64_t>(b0 + kBlockSize, k);
      const std::uint32_t* row = table + 256 * scales[scale_offset(q, r, b0 / kBlockSize)];
      for (std::int64_t i = b0; i < b1; ++i) dst[i] = static_cast<OutT>(row[codes[i]]);
    }
  }
}

}  // namespace

void quantize_mxfp8_reference(ConstMatrixView x, const MxOperand& q, ScaleRounding rounding) {
  detail::validate_quantize("quantize_mxfp8_reference", x, q, {Memory::Host, false});
  if (q.layout == ScaleLayout::Swizzled128x4) {
    // Padding bytes are written as 0; the real scales overwrite their bytes below.
    const ScaleShape padded = scale_shape(x.rows, x.cols, ScaleLayout::Swizzled128x4);
    std::memset(q.scales.data, 0, static_cast<std::size_t>(padded.rows * padded.cols));
  }
  for_row_chunks(x.rows, x.cols, [&](std::int64_t begin, std::int64_t end) {
    quantize_rows(x, q, rounding, begin, end);
  });
}

void dequantize_mxfp8_reference(const ConstMxOperand& q, MatrixView out) {
  detail::validate_dequantize("dequantize_mxfp8_reference", q, out, {Memory::Host, false});
  const std::uint32_t* table = dequant_table(q.data.dtype, out.dtype);
  for_row_chunks(q.data.rows, q.data.cols, [&](std::int64_t begin, std::int64_t end) {
    if (out.dtype == DType::FP32) {
      dequantize_rows<std::uint32_t>(q, out, table, begin, end);
    } else {
      dequantize_rows<std::uint16_t>(q, out, table, begin, end);
    }
  });
}

}  // namespace mxgemm
