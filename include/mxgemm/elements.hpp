// Exact host codecs for every element type: decode a code to its value, and encode a
// value with round-to-nearest-even. The CPU reference and quantizer are built on these;
// GPU code has its own fast conversions, tested against these.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace mxgemm {

// What encoding does with a finite value whose rounded magnitude exceeds the largest
// finite value of the type.
enum class Overflow : std::uint8_t {
  Saturate,  // clamp to +-max finite (Inf is clamped too); NaN stays NaN
  Ieee,      // Inf where the type has one (E5M2, FP16, BF16), NaN otherwise (E4M3)
};

namespace detail {

// A binary floating-point format with `Man` stored mantissa bits, exponent bias `Bias`,
// smallest normal exponent 1 - Bias, largest finite value `max_finite`.
struct FloatFormat {
  int man_bits;
  int exp_bits;
  int bias;
  double max_finite;
  bool has_inf;
  std::uint32_t nan_code;  // positive quiet NaN
  std::uint32_t inf_code;  // positive Inf (when has_inf)
};

inline constexpr FloatFormat kE4M3{3, 4, 7, 448.0, false, 0x7F, 0};
inline constexpr FloatFormat kE5M2{2, 5, 15, 57344.0, true, 0x7F, 0x7C};
inline constexpr FloatFormat kFP16{10, 5, 15, 65504.0, true, 0x7E00, 0x7C00};
inline constexpr FloatFormat kBF16{7, 8, 127, 0x1.FEp127, true, 0x7FC0, 0x7F80};

inline double decode(const FloatFormat& f, std::uint32_t code) {
  const std::uint32_t sign = code >> (f.man_bits + f.exp_bits) & 1u;
  const std::uint32_t exp = (code >> f.man_bits) & ((1u << f.exp_bits) - 1u);
  const std::uint32_t man = code & ((1u << f.man_bits) - 1u);
  const double s = sign ? -1.0 : 1.0;
  const std::uint32_t exp_max = (1u << f.exp_bits) - 1u;
  if (f.has_inf && exp == exp_max) {
    return man == 0 ? s * std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::quiet_NaN();
  }
  if (!f.has_inf && exp == exp_max && man == (1u << f.man_bits) - 1u) {
    return std::numeric_limits<double>::quiet_NaN();  // E4M3: s.1111.111
  }
  if (exp == 0) return s * std::ldexp(static_cast<double>(man), 1 - f.bias - f.man_bits);
  return s * std::ldexp(static_cast<double>(man + (1u << f.man_bits)),
                        static_cast<int>(exp) - f.bias - f.man_bits);
}

inline std::uint32_t encode(const FloatFormat& f, double v, Overflow overflow) {
  const std::uint32_t sign = std::signbit(v) ? 1u << (f.man_bits + f.exp_bits) : 0u;
  if (std::isnan(v)) return sign | f.nan_code;
  double a = std::fabs(v);
  const int emin = 1 - f.bias;
  if (!std::isinf(a)) {
    // Round to a multiple of the quantum of a's binade (the subnormal quantum below
    // 2^emin). Scaling by a power of two is exact, so nearbyint rounds a exactly, to
    // nearest even under the default rounding mode.
    int e;
    std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    const int quantum_exp = (e - 1 < emin ? emin : e - 1) - f.man_bits;
    a = std::ldexp(std::nearbyint(std::ldexp(a, -quantum_exp)), quantum_exp);
  }
  if (a > f.max_finite) {
    if (overflow == Overflow::Saturate) a = f.max_finite;
    else return sign | (f.has_inf ? f.inf_code : f.nan_code);
  }
  if (a == 0.0) return sign;
  int e;
  std::frexp(a, &e);
  if (e - 1 < emin) {  // subnormal
    return sign | static_cast<std::uint32_t>(std::ldexp(a, f.bias - 1 + f.man_bits));
  }
  const auto man = static_cast<std::uint32_t>(std::ldexp(a, f.man_bits - (e - 1))) -
                   (1u << f.man_bits);
  return sign | (static_cast<std::uint32_t>(e - 1 + f.bias) << f.man_bits) | man;
}

}  // namespace detail

inline double decode_e4m3(std::uint8_t c) { return detail::decode(detail::kE4M3, c); }
inline double decode_e5m2(std::uint8_t c) { return detail::decode(detail::kE5M2, c); }
inline double decode_fp16(std::uint16_t c) { return detail::decode(detail::kFP16, c); }
inline double decode_bf16(std::uint16_t c) { return detail::decode(detail::kBF16, c); }
// E8M0: 2^(c - 127); 0xFF is NaN.
inline double decode_e8m0(std::uint8_t c) {
  return c == 0xFF ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, c - 127);
}

inline std::uint8_t encode_e4m3(double v, Overflow o) {
  return static_cast<std::uint8_t>(detail::encode(detail::kE4M3, v, o));
}
inline std::uint8_t encode_e5m2(double v, Overflow o) {
  return static_cast<std::uint8_t>(detail::encode(detail::kE5M2, v, o));
}
// FP16 and BF16 output rounding: IEEE round to nearest even, overflow to Inf.
inline std::uint16_t encode_fp16(double v) {
  return static_cast<std::uint16_t>(detail::encode(detail::kFP16, v, Overflow::Ieee));
}
inline std::uint16_t encode_bf16(double v) {
  return static_cast<std::uint16_t>(detail::encode(detail::kBF16, v, Overflow::Ieee));
}

}  // namespace mxgemm
