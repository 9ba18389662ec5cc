"""Independent numpy oracles for the Python tests: decode codes from their bit fields (not
through mxgemm), random MX operands, and the rounding bound of an output format."""

import numpy as np

import mxgemm

# (mantissa bits, exponent bits, bias) of the fp8 element types.
_FP8 = {"e4m3": (3, 4, 7), "e5m2": (2, 5, 15)}
# (precision bits incl. the implicit one, minimum normal exponent) of the output types.
_OUT = {"fp32": (24, -126), "bf16": (8, -126), "fp16": (11, -14)}


def decode_fp8(codes, elem):
    """uint8 codes -> float64 values (NaN and Inf codes decode to NaN / Inf)."""
    man_bits, exp_bits, bias = _FP8[elem]
    c = np.asarray(codes).astype(np.int64)
    sign = np.where(c >> 7, -1.0, 1.0)
    e = (c >> man_bits) & ((1 << exp_bits) - 1)
    m = c & ((1 << man_bits) - 1)
    val = np.where(e == 0, m * 2.0 ** (1 - bias - man_bits),
                   (m + 2 ** man_bits) * np.exp2(e - bias - man_bits))
    if elem == "e4m3":
        val = np.where((c & 0x7F) == 0x7F, np.nan, val)
    else:
        val = np.where(e == 31, np.where(m == 0, np.inf, np.nan), val)
    return sign * val


def decode_e8m0(s):
    s = np.asarray(s).astype(np.float64)
    return np.where(s == 255, np.nan, np.exp2(s - 127.0))


def finite_codes(rng, shape, elem):
    """Random fp8 codes over every finite value, both signs."""
    codes = rng.integers(0, 256, size=shape, dtype=np.uint8)
    bad = ~np.isfinite(decode_fp8(codes, elem))
    codes[bad] = 0x01  # the smallest positive subnormal
    return codes


def dequantize_linear(codes, linear_scales, elem):
    """Exact float64 values of an operand with linear scales."""
    k = codes.shape[1]
    per_elem = np.repeat(decode_e8m0(linear_scales), 32, axis=1)[:, :k]
    return decode_fp8(codes, elem) * per_elem


def random_operand(rng, rows, k, elem):
    """(codes, linear scales, exact float64 values) of a random MX operand. Scales 2^-11..2^-3
    (E4M3) or 2^-23..2^-15 (E5M2): elements below 60 in magnitude, so that products over
    K <= 1024 stay finite in fp16."""
    codes = finite_codes(rng, (rows, k), elem)
    low = 116 if elem == "e4m3" else 104
    scales = rng.integers(low, low + 9, size=(rows, -(-k // 32)), dtype=np.uint8)
    return codes, scales, dequantize_linear(codes, scales, elem)


def ulp(x, out):
    """The spacing of `out` values at the binade of |x| (subnormal spacing below it)."""
    precision, emin = _OUT[out]
    _, e = np.frexp(np.abs(np.asarray(x, dtype=np.float64)))  # |x| = m * 2^e, m in [0.5, 1)
    return np.exp2(np.maximum(e - 1, emin) - (precision - 1))


def as_float64(d, out):
    """An output array of mxgemm (bf16 as uint16 bits) as float64."""
    return (mxgemm.bf16_to_float32(d) if out == "bf16" else d).astype(np.float64)
