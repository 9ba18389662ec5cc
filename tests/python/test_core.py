"""The torch-free layer: mxgemm's numpy functions, error translation and the device-pointer
entry points' validation. Runs everywhere (CI has no GPU and no torch)."""

import re

import numpy as np
import pytest

import mxgemm
from mx_numpy import (as_float64, decode_e8m0, decode_fp8, dequantize_linear, random_operand,
                      ulp)
from mxgemm import _core, _shapes

# ---- the reference GEMM ----------------------------------------------------------------------

SHAPES = [(128, 128, 128), (129, 67, 48), (1, 1, 16), (300, 130, 96), (37, 260, 528)]


@pytest.mark.parametrize("m,n,k", SHAPES)
@pytest.mark.parametrize("layout", ["swizzled", "linear"])
@pytest.mark.parametrize("out", ["bf16", "fp16", "fp32"])
@pytest.mark.parametrize("a_dtype,b_dtype,alpha", [("e4m3", "e4m3", 1.0), ("e5m2", "e4m3", 0.75)])
def test_reference_gemm_matches_numpy(m, n, k, layout, out, a_dtype, b_dtype, alpha):
    rng = np.random.default_rng(m * 1000 + n + k)
    a, sa, a64 = random_operand(rng, m, k, a_dtype)
    b, sb, b64 = random_operand(rng, n, k, b_dtype)
    if layout == "swizzled":
        sa, sb = mxgemm.to_swizzled(sa, m, k), mxgemm.to_swizzled(sb, n, k)
    d = mxgemm.mxfp8_scaled_mm_reference(a, b, sa, sb, alpha, out, a_dtype, b_dtype, layout)

    assert d.shape == (m, n)
    assert d.dtype == {"bf16": np.uint16, "fp16": np.float16, "fp32": np.float32}[out]
    want = alpha * (a64 @ b64.T)  # float64; error far below one output ulp
    assert np.all(np.isfinite(want)) and np.linalg.norm(want) > 0
    got = as_float64(d, out)
    # One rounding to nearest: within half an output ulp, plus the float64 sum's own error.
    bound = 0.5 * ulp(want, out) + k * 2.0**-50 * (np.abs(a64) @ np.abs(b64).T)
    assert np.all(np.abs(got - want) <= bound)


def test_reference_gemm_strided_rows_and_determinism():
    rng = np.random.default_rng(7)
    m, n, k = 70, 50, 64
    a, sa, _ = random_operand(rng, m, k, "e4m3")
    b, sb, _ = random_operand(rng, n, k, "e4m3")
    wide = np.zeros((m, k + 32), np.uint8)
    wide[:, :k] = a
    wide_s = np.full((m, 5), 0xFF, np.uint8)  # NaN scales in the padding: must not be read
    wide_s[:, :2] = sa
    d1 = mxgemm.mxfp8_scaled_mm_reference(wide[:, :k], b, wide_s[:, :2], sb, 1.0, "fp32",
                                          layout="linear")
    d2 = mxgemm.mxfp8_scaled_mm_reference(a, b, sa, sb, 1.0, "fp32", layout="linear")
    assert np.array_equal(d1, d2)


def test_nan_scale_poisons_its_row():
    rng = np.random.default_rng(3)
    a, sa, _ = random_operand(rng, 4, 64, "e4m3")
    b, sb, _ = random_operand(rng, 3, 64, "e4m3")
    sa[2, 1] = 0xFF
    d = mxgemm.mxfp8_scaled_mm_reference(a, b, sa, sb, 1.0, "fp32", layout="linear")
    assert np.all(np.isnan(d[2])) and not np.any(np.isnan(np.delete(d, 2, axis=0)))


# ---- quantize / dequantize ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "value,elem,rounding,scale,code",
    [
        (1.0, "e4m3", "floor", 119, 0x78),   # 2^(0-8); 1 / 2^-8 = 256 = 1.0 x 2^8
        (3.0, "e4m3", "floor", 120, 0x7C),   # 2^(1-8); 3 / 2^-7 = 384 = 1.5 x 2^8
        (500.0, "e4m3", "floor", 127, 0x7E),  # 2^(8-8); 500 saturates to 448
        (500.0, "e4m3", "rceil", 128, 0x78),  # 2^ceil(log2(500/448)) = 2; 250 -> 256
        (1.0, "e5m2", "floor", 112, 0x78),   # 2^(0-15); 2^15 = 1.0 x 2^15
        (0.0, "e4m3", "floor", 0, 0x00),     # all-zero block: scale byte 0
        (np.nan, "e4m3", "floor", 0xFF, 0x7F),  # NaN block
    ],
)
def test_quantize_golden_values(value, elem, rounding, scale, code):
    x = np.full((1, 32), value, np.float32)
    data, scales = mxgemm.quantize_mxfp8_reference(x, elem, rounding, "linear")
    assert data.dtype == np.uint8 and data.shape == (1, 32)
    assert scales.dtype == np.uint8 and scales.shape == (1, 1)
    assert scales[0, 0] == scale
    assert np.all(data == code)


@pytest.mark.parametrize("layout", ["swizzled", "linear"])
@pytest.mark.parametrize("elem", ["e4m3", "e5m2"])
def test_quantize_dequantize_round_trip(layout, elem):
    rng = np.random.default_rng(11)
    rows, k = 150, 80  # K % 32 == 16: a short last block
    x = (rng.standard_normal((rows, k)) * np.exp2(rng.integers(-20, 20, (rows, 1)))).astype(np.float32)
    data, scales = mxgemm.quantize_mxfp8_reference(x, elem, "floor", layout)
    assert scales.shape == mxgemm.scale_shape(rows, k, layout)
    linear = scales if layout == "linear" else mxgemm.to_linear(scales, rows, k)
    exact = dequantize_linear(data, linear, elem)

    dq = mxgemm.dequantize_mxfp8_reference(data, scales, "fp32", elem, layout)
    assert dq.dtype == np.float32 and np.array_equal(dq.astype(np.float64), exact)
    # Round to nearest: within half a step of x (relative 2^-4 for E4M3, 2^-3 for E5M2; half
    # the subnormal step near zero), except elements saturated to +-max (FLOOR allows it).
    # max_finite minus half its step: the least |x| / scale that may end at +-max.
    man_bits, max_finite, max_low, half_subnormal = (
        (3, 448.0, 432.0, 2.0**-10) if elem == "e4m3" else (2, 57344.0, 53248.0, 2.0**-17))
    scale = np.repeat(decode_e8m0(linear), 32, axis=1)[:, :k]
    at_max = np.abs(dq) == max_finite * scale
    err = np.abs(dq - x)
    assert np.all((err <= 2.0 ** -(man_bits + 1) * np.abs(x) + half_subnormal * scale)[~at_max])
    assert np.all(np.abs(x[at_max]) >= max_low * scale[at_max])
    # Quantizing the dequantized values again changes nothing.
    data2, scales2 = mxgemm.quantize_mxfp8_reference(dq, elem, "floor", layout)
    assert np.array_equal(data, data2) and np.array_equal(scales, scales2)
    # bf16 and fp16 outputs: the exact value rounded once.
    bf = mxgemm.dequantize_mxfp8_reference(data, scales, "bf16", elem, layout)
    assert bf.dtype == np.uint16 and np.array_equal(bf, mxgemm.float32_to_bf16(dq))
    hf = mxgemm.dequantize_mxfp8_reference(data, scales, "fp16", elem, layout)
    with np.errstate(over="ignore"):  # beyond fp16's range: Inf in both
        assert hf.dtype == np.float16 and np.array_equal(hf, dq.astype(np.float16))


def test_quantize_input_dtypes_agree():
    rng = np.random.default_rng(5)
    x32 = mxgemm.bf16_to_float32(mxgemm.float32_to_bf16(rng.standard_normal((33, 64))))
    want = mxgemm.quantize_mxfp8_reference(x32)
    for x in (mxgemm.float32_to_bf16(x32), x32.astype(np.float16)):
        if x.dtype == np.float16:
            want = mxgemm.quantize_mxfp8_reference(x.astype(np.float32))
        got = mxgemm.quantize_mxfp8_reference(x)
        assert all(np.array_equal(g, w) for g, w in zip(got, want))


@pytest.mark.parametrize("layout", ["swizzled", "linear"])
@pytest.mark.parametrize("rounding", ["floor", "rceil"])
def test_columnwise_quantize_is_the_transposes_quantize(layout, rounding):
    rng = np.random.default_rng(17)
    rows, k = 70, 45  # blocks run down x's columns: 70 rows = 2 whole blocks and a short one
    x = (rng.standard_normal((rows, k)) * np.exp2(rng.integers(-9, 9, (1, k)))).astype(np.float32)
    x[3, 5] = np.nan  # one NaN block in column 5
    for xin in (x, mxgemm.float32_to_bf16(x), x.astype(np.float16)):
        for elem in ("e4m3", "e5m2"):
            data, scales = mxgemm.quantize_mxfp8_columnwise_reference(xin, elem, rounding, layout)
            assert data.shape == (k, rows) and scales.shape == mxgemm.scale_shape(k, rows, layout)
            want = mxgemm.quantize_mxfp8_reference(np.ascontiguousarray(xin.T), elem, rounding, layout)
            assert np.array_equal(data, want[0]) and np.array_equal(scales, want[1])
    linear = mxgemm.quantize_mxfp8_columnwise_reference(x, "e4m3", rounding, "linear")[1]
    assert linear[5, 0] == 0xFF and np.all(linear[5, 1:] != 0xFF)  # the NaN block, and only it
    with pytest.raises(TypeError, match="quantize_mxfp8_columnwise_reference: x"):
        mxgemm.quantize_mxfp8_columnwise_reference(np.zeros((4, 32), np.int32))
    with pytest.raises(ValueError, match="quantize_mxfp8_columnwise_reference: layout"):
        mxgemm.quantize_mxfp8_columnwise_reference(x, "e4m3", rounding, "blocked")
    with pytest.raises(TypeError, match="quantize_mxfp8_columnwise_reference: qt.data.dtype: expected e4m3 or e5m2, got bf16"):
        mxgemm.quantize_mxfp8_columnwise_reference(x, "bf16", rounding, layout)


def test_bf16_helpers():
    x = np.array([1.0, -2.5, 1 + 2**-8, 1 + 3 * 2**-8, np.inf, 3e38], np.float32)
    bits = mxgemm.float32_to_bf16(x)
    assert bits.tolist() == [0x3F80, 0xC020, 0x3F80, 0x3F82, 0x7F80, 0x7F62]  # ties to even
    assert np.isnan(mxgemm.bf16_to_float32(mxgemm.float32_to_bf16(np.float32(np.nan))))
    assert mxgemm.bf16_to_float32(bits)[:2].tolist() == [1.0, -2.5]
    assert np.array_equal(decode_fp8(np.array([0x7E, 0x01, 0xF8]), "e4m3"), [448.0, 2.0**-9, -256.0])


# ---- scale layouts ------------------------------------------------------------------------------


def swizzled_offset(r, c, n_scale_cols):
    """MX_FORMAT.md's formula."""
    n_col_tiles = -(-n_scale_cols // 4)
    return ((r // 128) * n_col_tiles + c // 4) * 512 + (r % 32) * 16 + ((r % 128) // 32) * 4 + c % 4


def test_swizzled_check_values_from_mx_format():
    rows, k = 128, 256  # 8 scale columns, n_col_tiles = 2
    linear = (np.arange(rows * 8) % 251 + 1).astype(np.uint8).reshape(rows, 8)
    flat = mxgemm.to_swizzled(linear, rows, k).reshape(-1)
    assert swizzled_offset(5, 2, 8) == 82 and swizzled_offset(5, 5, 8) == 593
    assert flat[82] == linear[5, 2] and flat[593] == linear[5, 5]


@pytest.mark.parametrize("rows,k", [(1, 16), (128, 256), (200, 200), (300, 1000)])
def test_swizzle_round_trip_and_padding(rows, k):
    rng = np.random.default_rng(rows + k)
    cols = -(-k // 32)
    linear = rng.integers(1, 255, (rows, cols), dtype=np.uint8)
    swz = mxgemm.to_swizzled(linear, rows, k)
    assert swz.shape == mxgemm.scale_shape(rows, k) == _shapes.scale_shape(rows, k)
    flat = swz.reshape(-1)
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    offsets = swizzled_offset(r, c, cols)
    assert np.array_equal(flat[offsets], linear)
    padding = np.ones(flat.size, bool)
    padding[offsets.reshape(-1)] = False
    assert np.all(flat[padding] == 0)
    assert np.array_equal(mxgemm.to_linear(swz, rows, k), linear)


def test_scale_shape_python_twin_agrees():
    for rows in (1, 2, 127, 128, 129, 300):
        for k in (1, 16, 31, 32, 33, 128, 129, 1000):
            for layout in ("swizzled", "linear"):
                assert _shapes.scale_shape(rows, k, layout) == mxgemm.scale_shape(rows, k, layout)
    assert mxgemm.scale_shape(129, 48) == (256, 4)
    assert mxgemm.scale_shape(129, 48, "linear") == (129, 2)


# ---- errors: C++ exceptions arrive as TypeError / ValueError / RuntimeError with the message ---


def gemm_args(m=128, n=128, k=128, layout="swizzled"):
    rng = np.random.default_rng(0)
    a, sa, _ = random_operand(rng, m, k, "e4m3")
    b, sb, _ = random_operand(rng, n, k, "e4m3")
    if layout == "swizzled":
        sa, sb = mxgemm.to_swizzled(sa, m, k), mxgemm.to_swizzled(sb, n, k)
    return a, b, sa, sb


def test_wrong_output_dtype_is_a_type_error_with_the_cpp_message():
    with pytest.raises(TypeError, match=re.escape(
            "mxfp8_scaled_mm_reference: d.dtype: expected bf16 or fp16 or fp32, got e4m3")) as e:
        mxgemm.mxfp8_scaled_mm_reference(*gemm_args(), 1.0, "e4m3")
    assert isinstance(e.value, mxgemm.DtypeError)


def test_wrong_element_dtype_is_a_type_error():
    with pytest.raises(TypeError, match=re.escape(
            "mxfp8_scaled_mm_reference: a.data.dtype: expected e4m3 or e5m2, got e8m0")):
        mxgemm.mxfp8_scaled_mm_reference(*gemm_args(), 1.0, "bf16", a_dtype="e8m0")
    a, b, sa, sb = gemm_args()
    with pytest.raises(TypeError, match=re.escape(
            "mxfp8_scaled_mm_reference: a: expected a uint8 array (e4m3), got float32")):
        mxgemm.mxfp8_scaled_mm_reference(a.astype(np.float32), b, sa, sb, 1.0, "bf16")
    with pytest.raises(TypeError, match="b_dtype: expected one of e4m3, e5m2"):
        mxgemm.mxfp8_scaled_mm_reference(a, b, sa, sb, 1.0, "bf16", b_dtype="fp8")
    with pytest.raises(TypeError, match="got float64"):
        mxgemm.quantize_mxfp8_reference(np.zeros((2, 32)))


def test_wrong_shapes_are_value_errors_with_the_cpp_message():
    a, b, sa, sb = gemm_args(k=100, layout="linear")
    with pytest.raises(ValueError, match=re.escape(
            "mxfp8_scaled_mm_reference: K (a.data.cols): expected a multiple of 16, got 100")) as e:
        mxgemm.mxfp8_scaled_mm_reference(a, b, sa, sb, 1.0, "bf16", layout="linear")
    assert isinstance(e.value, mxgemm.ArgumentError)

    a, b, sa, sb = gemm_args(m=100, k=64, layout="linear")
    with pytest.raises(ValueError, match=re.escape(
            "mxfp8_scaled_mm_reference: a.scales shape: expected 128x4 for swizzled128x4 scales "
            "of a 100x64 operand, got 100x2")):
        mxgemm.mxfp8_scaled_mm_reference(a, b, sa, sb, 1.0, "bf16")  # linear scales, swizzled layout

    a, b, sa, sb = gemm_args()
    with pytest.raises(ValueError, match=re.escape("b.data.cols (K): expected 128 to match a")):
        mxgemm.mxfp8_scaled_mm_reference(a, b[:, :96], sa, sb, 1.0, "bf16")
    with pytest.raises(ValueError, match="expected a 2-D array, got 1-D"):
        mxgemm.mxfp8_scaled_mm_reference(a.reshape(-1), b, sa, sb, 1.0, "bf16")
    with pytest.raises(ValueError, match="expected contiguous columns"):
        mxgemm.mxfp8_scaled_mm_reference(a[:, ::2], b, sa, sb, 1.0, "bf16")
    with pytest.raises(ValueError, match="layout: expected 'swizzled' or 'linear', got 'blocked'"):
        mxgemm.mxfp8_scaled_mm_reference(a, b, sa, sb, 1.0, "bf16", layout="blocked")
    with pytest.raises(ValueError, match="rounding: expected 'floor' or 'rceil', got 'even'"):
        mxgemm.quantize_mxfp8_reference(np.zeros((2, 32), np.float32), rounding="even")
    with pytest.raises(ValueError, match=re.escape(
            "scales_to_swizzled: linear shape: expected 5x2 for linear scales of a 5x64 operand, got 5x3")):
        mxgemm.to_swizzled(np.zeros((5, 3), np.uint8), 5, 64)
    with pytest.raises(ValueError, match="scale_shape: rows: expected >= 1, got 0"):
        mxgemm.scale_shape(0, 32)


# ---- the weight-only reference -----------------------------------------------------------------


@pytest.mark.parametrize("act", ["bf16", "fp16"])
@pytest.mark.parametrize("layout", ["swizzled", "linear"])
def test_weight_only_reference_matches_numpy(act, layout):
    rng = np.random.default_rng(21)
    m, n, k = 37, 70, 208
    x = rng.standard_normal((m, k)).astype(np.float32)
    a = mxgemm.float32_to_bf16(x) if act == "bf16" else x.astype(np.float16)
    a_val = mxgemm.bf16_to_float32(a) if act == "bf16" else a.astype(np.float32)
    w, sw = mxgemm.quantize_mxfp8_reference(rng.standard_normal((n, k)).astype(np.float32),
                                            layout=layout)
    w_val = mxgemm.dequantize_mxfp8_reference(w, sw, "fp32", layout=layout)
    bias = rng.standard_normal(n).astype(np.float32)
    got = mxgemm.mxfp8_weight_only_mm_reference(a, w, sw, -0.5, "fp32", layout=layout, bias=bias)
    want = -0.5 * (a_val.astype(np.float64) @ w_val.T.astype(np.float64)) + bias
    assert got.dtype == np.float32 and got.shape == (m, n)
    # The reference sums exactly in fp64 and rounds once; numpy's fp64 sum order differs by
    # far less than one fp32 ulp of the result.
    assert np.all(np.abs(got - want) <= ulp(want.astype(np.float32), "fp32"))
    no_bias = mxgemm.mxfp8_weight_only_mm_reference(a, w, sw, 1.0, "bf16", layout=layout)
    assert no_bias.dtype == np.uint16 and no_bias.shape == (m, n)


def test_weight_only_reference_errors_carry_the_cpp_message():
    w, sw = mxgemm.quantize_mxfp8_reference(np.ones((16, 64), np.float32))
    a = mxgemm.float32_to_bf16(np.ones((4, 64), np.float32))
    with pytest.raises(TypeError, match="mxfp8_weight_only_mm_reference: a: expected a float16 or "
                                        "uint16"):
        mxgemm.mxfp8_weight_only_mm_reference(np.ones((4, 64), np.float32), w, sw, 1.0, "fp32")
    with pytest.raises(ValueError, match=re.escape("bias shape: expected 1x16 (one row of N from w), "
                                                   "got 1x15")):
        mxgemm.mxfp8_weight_only_mm_reference(a, w, sw, 1.0, "fp32", bias=np.ones(15, np.float32))
    with pytest.raises(ValueError, match=re.escape("w.data.cols (K): expected 32 to match a")):
        mxgemm.mxfp8_weight_only_mm_reference(a[:, :32], w, sw, 1.0, "fp32")


def test_prepacked_weight_reference_moves_codes_and_gives_the_natural_weights_product():
    rng = np.random.default_rng(31)
    m, n, k = 9, 24, 96
    a = mxgemm.float32_to_bf16(rng.standard_normal((m, k)).astype(np.float32))
    w, sw = mxgemm.quantize_mxfp8_reference(rng.standard_normal((n, k)).astype(np.float32))
    packed = mxgemm.mxfp8_prepack_weight_reference(w)
    # Inside each 32-block, element 16h + 8i + 2q + j sits at byte 8q + 4h + 2i + j.
    r = np.arange(32)
    col = 8 * ((r >> 1) & 3) + 4 * (r >> 4) + 2 * ((r >> 3) & 1) + (r & 1)
    for blk in range(k // 32):
        assert np.array_equal(packed[:, 32 * blk + col], w[:, 32 * blk + r])
    assert not np.array_equal(packed, w)
    natural = mxgemm.mxfp8_weight_only_mm_reference(a, w, sw, 1.0, "fp32")
    prepacked = mxgemm.mxfp8_weight_only_mm_reference(a, packed, sw, 1.0, "fp32", weight_order="prepacked")
    assert np.array_equal(natural, prepacked)
    with pytest.raises(ValueError, match=re.escape("K (w.cols): expected a multiple of 32 (whole 32-element blocks), got 48")):
        mxgemm.mxfp8_prepack_weight_reference(np.zeros((2, 48), np.uint8))
    with pytest.raises(ValueError, match=re.escape("weight_order: expected 'natural' or 'prepacked', got 'x'")):
        mxgemm.mxfp8_weight_only_mm_reference(a, w, sw, 1.0, "fp32", weight_order="x")


# ---- the GPU entry points: validation and backend reporting without touching memory -------------

BACKEND = mxgemm.gemm_backend()
NO_CUDA_DEVICE = BACKEND["reason"].startswith("no CUDA device")


def test_gemm_backend_says_what_runs_or_why_not():
    assert set(BACKEND) == {"available", "name", "reason"}
    if BACKEND["available"]:
        assert BACKEND["name"] and not BACKEND["reason"]
    else:
        assert BACKEND["reason"] and not BACKEND["name"]


@pytest.mark.skipif(not NO_CUDA_DEVICE, reason="needs a machine without a CUDA device")
def test_the_gpu_workspace_is_empty_and_releasing_it_is_harmless_without_a_gpu():
    assert mxgemm.gpu_workspace_bytes(0) == 0
    assert mxgemm.release_gpu_workspace() == 0


def test_gpu_workspace_bytes_refuses_a_negative_device():
    with pytest.raises(ValueError, match=re.escape(
            "gpu_workspace_bytes: device: expected a CUDA device ordinal >= 0, got -1")):
        mxgemm.gpu_workspace_bytes(-1)


def device_gemm_args(k=128, a_ptr=0x10000):
    # Pointers that are never dereferenced: validation rejects the call first, or no GPU runs it.
    sa = (0x30000, 128, 4, 4, "e8m0")
    return ((a_ptr, 128, k, k, "e4m3"), (0x20000, 128, k, k, "e4m3"), sa,
            (0x40000, 128, 4, 4, "e8m0"), 0x50000, (0x60000, 128, 128, 128, "bf16"))


def test_device_gemm_null_pointer_is_a_value_error():
    with pytest.raises(ValueError, match=re.escape(
            "mxfp8_scaled_mm: a.data.data: expected a non-null pointer, got null")):
        _core.mxfp8_scaled_mm_ptr(*device_gemm_args(a_ptr=0))


def test_device_gemm_bad_dtype_name_is_a_type_error():
    args = list(device_gemm_args())
    args[5] = (0x60000, 128, 128, 128, "int8")
    with pytest.raises(TypeError, match="mxfp8_scaled_mm: d: expected one of e4m3"):
        _core.mxfp8_scaled_mm_ptr(*args)


@pytest.mark.skipif(not NO_CUDA_DEVICE, reason="needs a machine without a CUDA device")
def test_device_entry_points_without_a_gpu():
    with pytest.raises(ValueError, match="K \\(a.data.cols\\): expected a multiple of 16, got 120"):
        _core.mxfp8_scaled_mm_ptr(*device_gemm_args(k=120))
    with pytest.raises(RuntimeError, match=re.escape(
            "mxfp8_scaled_mm: no GPU backend can run here: no CUDA device")) as e:
        _core.mxfp8_scaled_mm_ptr(*device_gemm_args(), stream=0)
    assert isinstance(e.value, mxgemm.UnsupportedError)
    x = (0x10000, 128, 64, 64, "bf16")
    q = (0x20000, 128, 64, 64, "e4m3")
    s = (0x30000, 128, 4, 4, "e8m0")
    with pytest.raises(RuntimeError, match="quantize_mxfp8: no GPU backend can run here"):
        _core.quantize_mxfp8_ptr(x, q, s)
    with pytest.raises(RuntimeError, match="dequantize_mxfp8: no GPU backend can run here"):
        _core.dequantize_mxfp8_ptr(q, s, x)
    # Columnwise: data and scales are x's transpose's (64 x 128); the row-major shapes are refused.
    qt, st = (0x20000, 64, 128, 128, "e4m3"), (0x30000, 128, 4, 4, "e8m0")
    with pytest.raises(ValueError, match="quantize_mxfp8_columnwise: qt.data shape"):
        _core.quantize_mxfp8_columnwise_ptr(x, q, s)
    with pytest.raises(ValueError, match="quantize_mxfp8_columnwise: layout"):
        _core.quantize_mxfp8_columnwise_ptr(x, qt, st, layout="blocked")
    with pytest.raises(RuntimeError, match="quantize_mxfp8_columnwise: no GPU backend can run here"):
        _core.quantize_mxfp8_columnwise_ptr(x, qt, st)


def test_package_imports_without_torch_and_knows_its_version():
    assert mxgemm.__version__ == _core.__version__ and re.fullmatch(r"\d+\.\d+\.\d+", mxgemm.__version__)
    assert issubclass(mxgemm.CudaError, RuntimeError)
    with pytest.raises(AttributeError):
        mxgemm.no_such_name  # noqa: B018
