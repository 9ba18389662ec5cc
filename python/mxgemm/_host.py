"""bf16 on numpy, which has no bfloat16: arrays of uint16 holding the bits."""

import numpy as np
import numpy.typing as npt


def bf16_to_float32(bits: npt.ArrayLike) -> np.ndarray:
    """uint16 bf16 bit patterns -> float32 values (exact)."""
    bits = np.asarray(bits)
    if bits.dtype != np.uint16:
        raise TypeError(f"bf16_to_float32: expected a uint16 array (bf16 bits), got {bits.dtype}")
    return (bits.astype(np.uint32) << 16).view(np.float32)


def float32_to_bf16(x: npt.ArrayLike) -> np.ndarray:
    """float32 values -> uint16 bf16 bit patterns, rounded to nearest even (NaN stays NaN)."""
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    # Rounding must not turn a NaN into Inf: keep the sign and exponent, set the quiet bit.
    nan = ((u >> 16) | 0x40).astype(np.uint16)
    return np.where(np.isnan(x), nan, rounded)
