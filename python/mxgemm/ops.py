"""PyTorch operators over mxgemm's GPU entry points (importing this module imports torch).

    mxfp8_scaled_mm(a, b, scales_a, scales_b, alpha=1.0, out_dtype=torch.bfloat16, layout="swizzled")
    mxfp8_weight_only_mm(a, w, scales_w, alpha=1.0, bias=None, out_dtype=torch.bfloat16, layout="swizzled",
                         weight_order="natural")
    prepack_weight(w)
    quantize_mxfp8(x, elem_dtype=torch.float8_e4m3fn, rounding="floor", layout="swizzled")
    quantize_mxfp8_columnwise(x, elem_dtype=torch.float8_e4m3fn, rounding="floor", layout="swizzled")
    dequantize_mxfp8(data, scales, out_dtype=torch.bfloat16, layout="swizzled")

are torch.library custom ops (torch.ops.mxgemm.*) with fake implementations, so they work
under torch.compile(fullgraph=True) and in CUDA graphs. They run on the tensors' own CUDA
device and its current stream. Data: torch.float8_e4m3fn / torch.float8_e5m2 (uint8 is
taken as e4m3 codes); scales: torch.float8_e8m0fnu or uint8. Inference only: no autograd.

Also, on torch tensors: to_swizzled / to_linear (scale layout conversion, in torch ops, on
any device) and mxfp8_scaled_mm_reference (the exact CPU reference; returns a CPU tensor).

Tested on an H200 with torch 2.11 (tests/python/test_torch_ops.py, weight-only included).
"""

from typing import Literal, Optional, Union

import numpy as np
import torch

from . import _core
from ._shapes import scale_shape

__all__ = [
    "dequantize_mxfp8",
    "mxfp8_scaled_mm",
    "mxfp8_scaled_mm_reference",
    "mxfp8_weight_only_mm",
    "prepack_weight",
    "quantize_mxfp8",
    "quantize_mxfp8_columnwise",
    "to_linear",
    "to_swizzled",
]

Layout = Literal["swizzled", "linear"]
Rounding = Literal["floor", "rceil"]
WeightOrder = Literal["natural", "prepacked"]
# alpha as the callers pass it: a Python float, or a one-element fp32 tensor on the device.
Alpha = Union[float, torch.Tensor]

# torch dtype -> the dtype name the C++ core takes.
_ELEM = {torch.float8_e4m3fn: "e4m3", torch.float8_e5m2: "e5m2", torch.uint8: "e4m3"}
_SCALE = {torch.float8_e8m0fnu: "e8m0", torch.uint8: "e8m0"}
_FLOAT = {torch.float32: "fp32", torch.bfloat16: "bf16", torch.float16: "fp16"}
_QUANT = {torch.float8_e4m3fn: "e4m3", torch.float8_e5m2: "e5m2"}


def _names(dtypes):
    return " or ".join(str(t) for t in dtypes)


def _check(fn, name, t, dtypes, device=None):
    """Type, rank, device and contiguity of one tensor argument; messages like the C++ ones."""
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{fn}: {name}: expected a torch.Tensor, got {type(t).__name__}")
    if t.dtype not in dtypes:
        raise TypeError(f"{fn}: {name}.dtype: expected {_names(dtypes)}, got {t.dtype}")
    if t.dim() != 2:
        raise ValueError(f"{fn}: {name}: expected a 2-D tensor, got {t.dim()}-D {tuple(t.shape)}")
    if t.device.type != "cuda":
        raise ValueError(f"{fn}: {name}: expected a CUDA tensor, got a tensor on {t.device}")
    if device is not None and t.device != device:
        raise ValueError(f"{fn}: {name}: expected a tensor on {device} (where the first input is), "
                         f"got {t.device}")
    if not t.is_contiguous():
        raise ValueError(f"{fn}: {name}: expected a contiguous tensor, got strides {t.stride()}")


def _check_choice(fn, name, value, choices, error=ValueError):
    if value not in choices:
        raise error(f"{fn}: {name}: expected {_names(choices)}, got {value!r}")


def _view(t, dtype_name):
    """The C++ core's device matrix: (pointer, rows, cols, row_stride, dtype); t is contiguous."""
    rows, cols = t.shape
    return (t.data_ptr(), rows, cols, cols, dtype_name)


def _stream(device):
    return torch.cuda.current_stream(device).cuda_stream


# ---- GEMM ----------------------------------------------------------------------------------


def _check_alpha(fn, alpha, dev):
    """alpha as the GEMM ops take it: a one-element fp32 tensor on the inputs' device."""
    if not isinstance(alpha, torch.Tensor) or alpha.dtype != torch.float32 or alpha.numel() != 1:
        got = (f"a {alpha.dtype} tensor of shape {tuple(alpha.shape)}"
               if isinstance(alpha, torch.Tensor) else type(alpha).__name__)
        raise TypeError(f"{fn}: alpha: expected a Python float or a one-element torch.float32 "
                        f"tensor, got {got}")
    if alpha.device != dev:
        raise ValueError(f"{fn}: alpha: expected a tensor on {dev} (the kernel reads it there), "
                         f"got {alpha.device}")


# Device copies of Python-float alphas, made once per (device, value), so that a call with a
# float alpha launches no fill kernel of its own. Fake tensors and tracing
# get a new tensor (they must see it made), and so does a value first met during a CUDA graph
# capture (the graph records its fill, which has not run yet); a cached one, already filled,
# serves captures too. A NaN never matches its key and is not cached.
_ALPHAS: dict = {}
_ALPHAS_MAX = 64


def _device_alpha(alpha: float, like: torch.Tensor) -> torch.Tensor:
    value, dev = float(alpha), like.device
    if (type(like) is not torch.Tensor or dev.type != "cuda" or value != value
            or torch.compiler.is_compiling()):
        return torch.full((), value, dtype=torch.float32, device=dev)
    cached = _ALPHAS.get((dev, value))
    if cached is not None:
        return cached
    with torch.cuda.device(dev):
        if torch.cuda.is_current_stream_capturing():
            return torch.full((), value, dtype=torch.float32, device=dev)
    if len(_ALPHAS) >= _ALPHAS_MAX:
        _ALPHAS.clear()
    with torch.inference_mode(False):  # usable outside inference mode too
        cached = torch.full((), value, dtype=torch.float32, device=dev)
    # The fill runs on this stream: wait for it once, so that a call on any stream may read it.
    torch.cuda.current_stream(dev).synchronize()
    _ALPHAS[(dev, value)] = cached
    return cached


def _check_gemm(a, b, scales_a, scales_b, alpha, out_dtype, layout):
    fn = "mxfp8_scaled_mm"
    _check(fn, "a", a, _ELEM)
    dev = a.device
    _check(fn, "b", b, _ELEM, dev)
    _check(fn, "scales_a", scales_a, _SCALE, dev)
    _check(fn, "scales_b", scales_b, _SCALE, dev)
    _check_alpha(fn, alpha, dev)
    _check_choice(fn, "out_dtype", out_dtype, _FLOAT, TypeError)
    _check_choice(fn, "layout", layout, ("swizzled", "linear"))


@torch.library.custom_op("mxgemm::mxfp8_scaled_mm", mutates_args=())
def _mxfp8_scaled_mm(a: torch.Tensor, b: torch.Tensor, scales_a: torch.Tensor,
                     scales_b: torch.Tensor, alpha: torch.Tensor, out_dtype: torch.dtype,
                     layout: str) -> torch.Tensor:
    _check_gemm(a, b, scales_a, scales_b, alpha, out_dtype, layout)
    out = torch.empty((a.shape[0], b.shape[0]), dtype=out_dtype, device=a.device)
    if out.numel() == 0:  # M or N is 0: nothing to compute (the C++ core wants M, N >= 1)
        return out
    with torch.cuda.device(a.device):
        _core.mxfp8_scaled_mm_ptr(
            _view(a, _ELEM[a.dtype]), _view(b, _ELEM[b.dtype]),
            _view(scales_a, "e8m0"), _view(scales_b, "e8m0"), alpha.data_ptr(),
            _view(out, _FLOAT[out_dtype]), layout, _stream(a.device))
    return out


@_mxfp8_scaled_mm.register_fake
def _(a, b, scales_a, scales_b, alpha, out_dtype, layout):
    _check_gemm(a, b, scales_a, scales_b, alpha, out_dtype, layout)
    return a.new_empty((a.shape[0], b.shape[0]), dtype=out_dtype)


def mxfp8_scaled_mm(a: torch.Tensor, b: torch.Tensor, scales_a: torch.Tensor,
                    scales_b: torch.Tensor, alpha: Alpha = 1.0,
                    out_dtype: torch.dtype = torch.bfloat16,
                    layout: Layout = "swizzled") -> torch.Tensor:
    """D = alpha * dequant(a) @ dequant(b).T on the GPU (the original call's contract).

    a (M, K) and b (N, K): fp8 data, K contiguous. scales_a / scales_b: E8M0, one per 32
    elements along K, in `layout` ('swizzled': (round_up(M, 128), round_up(ceil(K/32), 4));
    'linear': (M, ceil(K/32))). alpha: a Python float, or a one-element fp32 tensor on the
    same device, read by the kernel (so it may change between CUDA graph replays).
    out_dtype: torch.bfloat16, torch.float16 or torch.float32. Returns a new (M, N) tensor.
    """
    if not isinstance(alpha, torch.Tensor) and isinstance(a, torch.Tensor):
        alpha = _device_alpha(alpha, a)
    return torch.ops.mxgemm.mxfp8_scaled_mm(a, b, scales_a, scales_b, alpha, out_dtype, layout)


# ---- weight-only GEMM ------------------------------------------------------------------------

_ACT = {torch.bfloat16: "bf16", torch.float16: "fp16"}


_ORDERS = ("natural", "prepacked")


def _check_weight_only(a, w, scales_w, alpha, bias, out_dtype, layout, weight_order="natural"):
    fn = "mxfp8_weight_only_mm"
    _check(fn, "a", a, _ACT)
    dev = a.device
    _check(fn, "w", w, _ELEM, dev)
    _check(fn, "scales_w", scales_w, _SCALE, dev)
    _check_alpha(fn, alpha, dev)
    if bias is not None:
        if not isinstance(bias, torch.Tensor) or bias.dtype not in _FLOAT:
            raise TypeError(f"{fn}: bias: expected None or a torch.Tensor of {_names(_FLOAT)}, "
                            f"got {getattr(bias, 'dtype', type(bias).__name__)}")
        if bias.dim() != 1 or bias.shape[0] != w.shape[0]:
            raise ValueError(f"{fn}: bias: expected shape ({w.shape[0]},) (one value per row of "
                             f"w), got {tuple(bias.shape)}")
        if bias.device != dev or not bias.is_contiguous():
            raise ValueError(f"{fn}: bias: expected a contiguous tensor on {dev}, got "
                             f"{bias.device}, strides {bias.stride()}")
    _check_choice(fn, "out_dtype", out_dtype, _FLOAT, TypeError)
    _check_choice(fn, "layout", layout, ("swizzled", "linear"))
    _check_choice(fn, "weight_order", weight_order, _ORDERS)


@torch.library.custom_op("mxgemm::mxfp8_weight_only_mm", mutates_args=())
def _mxfp8_weight_only_mm(a: torch.Tensor, w: torch.Tensor, scales_w: torch.Tensor,
                          alpha: torch.Tensor, bias: Optional[torch.Tensor], out_dtype: torch.dtype,
                          layout: str, weight_order: str) -> torch.Tensor:
    _check_weight_only(a, w, scales_w, alpha, bias, out_dtype, layout, weight_order)
    out = torch.empty((a.shape[0], w.shape[0]), dtype=out_dtype, device=a.device)
    if out.numel() == 0:
        return out
    b = None if bias is None else (bias.data_ptr(), 1, bias.shape[0], bias.shape[0], _FLOAT[bias.dtype])
    with torch.cuda.device(a.device):
        _core.mxfp8_weight_only_mm_ptr(
            _view(a, _ACT[a.dtype]), _view(w, _ELEM[w.dtype]), _view(scales_w, "e8m0"),
            alpha.data_ptr(), b, _view(out, _FLOAT[out_dtype]), layout, _stream(a.device),
            weight_order=weight_order)
    return out


@_mxfp8_weight_only_mm.register_fake
def _(a, w, scales_w, alpha, bias, out_dtype, layout, weight_order):
    _check_weight_only(a, w, scales_w, alpha, bias, out_dtype, layout, weight_order)
    return a.new_empty((a.shape[0], w.shape[0]), dtype=out_dtype)


def mxfp8_weight_only_mm(a: torch.Tensor, w: torch.Tensor, scales_w: torch.Tensor,
                         alpha: Alpha = 1.0, bias: Optional[torch.Tensor] = None,
                         out_dtype: torch.dtype = torch.bfloat16,
                         layout: Layout = "swizzled",
                         weight_order: WeightOrder = "natural") -> torch.Tensor:
    """D = alpha * a @ dequant(w).T (+ bias) on the GPU: bf16 or fp16 activations (on Hopper fp16
    takes an e4m3 weight only), an MXFP8 weight w (N, K) with E8M0 scales_w in `layout`, bias
    None or (N,) (fp32/bf16/fp16), added in the same rounding as alpha. weight_order
    "prepacked": w as prepack_weight returns it (bf16 activations, K % 32 == 0; faster at large
    M on Hopper). Returns a new (M, N) tensor."""
    if not isinstance(alpha, torch.Tensor) and isinstance(a, torch.Tensor):
        alpha = _device_alpha(alpha, a)
    return torch.ops.mxgemm.mxfp8_weight_only_mm(a, w, scales_w, alpha, bias, out_dtype, layout,
                                                 weight_order)


@torch.library.custom_op("mxgemm::prepack_weight", mutates_args=())
def _prepack_weight(w: torch.Tensor) -> torch.Tensor:
    _check("prepack_weight", "w", w, _ELEM)
    out = torch.empty_like(w)
    if out.numel() == 0:
        return out
    with torch.cuda.device(w.device):
        _core.mxfp8_prepack_weight_ptr(_view(w, _ELEM[w.dtype]), _view(out, _ELEM[w.dtype]),
                                       _stream(w.device))
    return out


@_prepack_weight.register_fake
def _(w):
    _check("prepack_weight", "w", w, _ELEM)
    return torch.empty_like(w)


def prepack_weight(w: torch.Tensor) -> torch.Tensor:
    """An MXFP8 weight (N, K) float8_e4m3fn / float8_e5m2 CUDA tensor, K % 32 == 0 -> a new
    tensor of the same codes in the prepacked order (mxgemm/prepack.hpp), for
    mxfp8_weight_only_mm(..., weight_order="prepacked"). The scales do not change. Do it once,
    when the weight is loaded."""
    return torch.ops.mxgemm.prepack_weight(w)


# ---- quantize / dequantize -------------------------------------------------------------------


def _check_quantize(x, elem_dtype, rounding, layout, fn="quantize_mxfp8"):
    _check(fn, "x", x, _FLOAT)
    _check_choice(fn, "elem_dtype", elem_dtype, _QUANT, TypeError)
    _check_choice(fn, "rounding", rounding, ("floor", "rceil"))
    _check_choice(fn, "layout", layout, ("swizzled", "linear"))


def _new_quantized(x, elem_dtype, layout, columnwise=False):
    """Empty (data, scales) for x, or with `columnwise` for x's transpose."""
    rows, k = x.shape if not columnwise else (x.shape[1], x.shape[0])
    data = x.new_empty((rows, k), dtype=elem_dtype)
    scales = x.new_empty(scale_shape(rows, k, layout), dtype=torch.float8_e8m0fnu)
    return data, scales


@torch.library.custom_op("mxgemm::quantize_mxfp8", mutates_args=())
def _quantize_mxfp8(x: torch.Tensor, elem_dtype: torch.dtype, rounding: str,
                    layout: str) -> tuple[torch.Tensor, torch.Tensor]:
    _check_quantize(x, elem_dtype, rounding, layout)
    data, scales = _new_quantized(x, elem_dtype, layout)
    if x.numel() == 0:  # R or K is 0: nothing to quantize (the C++ core wants R, K >= 1)
        return data, scales
    with torch.cuda.device(x.device):
        _core.quantize_mxfp8_ptr(_view(x, _FLOAT[x.dtype]), _view(data, _QUANT[elem_dtype]),
                                 _view(scales, "e8m0"), rounding, layout, _stream(x.device))
    return data, scales


@_quantize_mxfp8.register_fake
def _(x, elem_dtype, rounding, layout):
    _check_quantize(x, elem_dtype, rounding, layout)
    return _new_quantized(x, elem_dtype, layout)


def quantize_mxfp8(x: torch.Tensor, elem_dtype: torch.dtype = torch.float8_e4m3fn,
                   rounding: Rounding = "floor",
                   layout: Layout = "swizzled") -> tuple[torch.Tensor, torch.Tensor]:
    """x (R, K) fp32/bf16/fp16 CUDA tensor -> (data (R, K) elem_dtype, scales E8M0 in layout).

    rounding: 'floor' (OCP MX) or 'rceil' (cuBLAS / Transformer Engine). Bit-exact with
    mxgemm.quantize_mxfp8_reference."""
    return torch.ops.mxgemm.quantize_mxfp8(x, elem_dtype, rounding, layout)


@torch.library.custom_op("mxgemm::quantize_mxfp8_columnwise", mutates_args=())
def _quantize_mxfp8_columnwise(x: torch.Tensor, elem_dtype: torch.dtype, rounding: str,
                               layout: str) -> tuple[torch.Tensor, torch.Tensor]:
    _check_quantize(x, elem_dtype, rounding, layout, "quantize_mxfp8_columnwise")
    data, scales = _new_quantized(x, elem_dtype, layout, columnwise=True)
    if x.numel() == 0:
        return data, scales
    with torch.cuda.device(x.device):
        _core.quantize_mxfp8_columnwise_ptr(
            _view(x, _FLOAT[x.dtype]), _view(data, _QUANT[elem_dtype]), _view(scales, "e8m0"),
            rounding, layout, _stream(x.device))
    return data, scales


@_quantize_mxfp8_columnwise.register_fake
def _(x, elem_dtype, rounding, layout):
    _check_quantize(x, elem_dtype, rounding, layout, "quantize_mxfp8_columnwise")
    return _new_quantized(x, elem_dtype, layout, columnwise=True)


def quantize_mxfp8_columnwise(x: torch.Tensor, elem_dtype: torch.dtype = torch.float8_e4m3fn,
                              rounding: Rounding = "floor",
                              layout: Layout = "swizzled") -> tuple[torch.Tensor, torch.Tensor]:
    """x (R, K) fp32/bf16/fp16 CUDA tensor -> the MXFP8 form of x.T: (data (K, R) elem_dtype,
    scales E8M0 in layout for a (K, R) operand), one scale per 32 consecutive rows of a column
    of x, without making x.T in high precision (for a weight stored (in, out), as the GEMM's
    N x K operand). Bit-exact with quantize_mxfp8(x.t().contiguous()) and with
    mxgemm.quantize_mxfp8_columnwise_reference."""
    return torch.ops.mxgemm.quantize_mxfp8_columnwise(x, elem_dtype, rounding, layout)


def _check_dequantize(data, scales, out_dtype, layout):
    fn = "dequantize_mxfp8"
    _check(fn, "data", data, _ELEM)
    _check(fn, "scales", scales, _SCALE, data.device)
    _check_choice(fn, "out_dtype", out_dtype, _FLOAT, TypeError)
    _check_choice(fn, "layout", layout, ("swizzled", "linear"))


@torch.library.custom_op("mxgemm::dequantize_mxfp8", mutates_args=())
def _dequantize_mxfp8(data: torch.Tensor, scales: torch.Tensor, out_dtype: torch.dtype,
                      layout: str) -> torch.Tensor:
    _check_dequantize(data, scales, out_dtype, layout)
    out = torch.empty(data.shape, dtype=out_dtype, device=data.device)
    if out.numel() == 0:
        return out
    with torch.cuda.device(data.device):
        _core.dequantize_mxfp8_ptr(_view(data, _ELEM[data.dtype]), _view(scales, "e8m0"),
                                   _view(out, _FLOAT[out_dtype]), layout, _stream(data.device))
    return out


@_dequantize_mxfp8.register_fake
def _(data, scales, out_dtype, layout):
    _check_dequantize(data, scales, out_dtype, layout)
    return data.new_empty(data.shape, dtype=out_dtype)


def dequantize_mxfp8(data: torch.Tensor, scales: torch.Tensor,
                     out_dtype: torch.dtype = torch.bfloat16,
                     layout: Layout = "swizzled") -> torch.Tensor:
    """(data (R, K) fp8, scales E8M0 in layout) -> (R, K) tensor of out_dtype."""
    return torch.ops.mxgemm.dequantize_mxfp8(data, scales, out_dtype, layout)


# ---- scale layouts (plain torch ops: any device, traceable) ----------------------------------
# Swizzled 128x4: scale (r, c) of the padded matrix sits at
#   ((r // 128) * n_col_tiles + c // 4) * 512 + (r % 32) * 16 + ((r % 128) // 32) * 4 + c % 4,
# i.e. the padded (rows, cols) matrix seen as (r//128, (r%128)//32, r%32, c//4, c%4) is stored
# in the order (r//128, c//4, r%32, (r%128)//32, c%4).


def _as_bytes(t):
    return t if t.dtype == torch.uint8 else t.view(torch.uint8)


def to_swizzled(linear_scales: torch.Tensor, rows: int, k: int) -> torch.Tensor:
    """Linear (rows, ceil(k/32)) scales -> swizzled 128x4, padded with zero bytes; same dtype."""
    cols = -(-k // 32)
    if tuple(linear_scales.shape) != (rows, cols):
        raise ValueError(f"to_swizzled: linear_scales shape: expected {rows}x{cols} for a "
                         f"{rows}x{k} operand, got {'x'.join(map(str, linear_scales.shape))}")
    prows, pcols = scale_shape(rows, k, "swizzled")
    padded = torch.zeros((prows, pcols), dtype=torch.uint8, device=linear_scales.device)
    padded[:rows, :cols] = _as_bytes(linear_scales)
    tiles = padded.view(prows // 128, 4, 32, pcols // 4, 4).permute(0, 3, 2, 1, 4)
    return tiles.reshape(prows, pcols).view(linear_scales.dtype)


def to_linear(swizzled_scales: torch.Tensor, rows: int, k: int) -> torch.Tensor:
    """Swizzled 128x4 scales of a (rows, k) operand -> linear (rows, ceil(k/32)); same dtype."""
    prows, pcols = scale_shape(rows, k, "swizzled")
    if tuple(swizzled_scales.shape) != (prows, pcols):
        raise ValueError(f"to_linear: swizzled_scales shape: expected {prows}x{pcols} for a "
                         f"{rows}x{k} operand, got {'x'.join(map(str, swizzled_scales.shape))}")
    tiles = _as_bytes(swizzled_scales).reshape(prows // 128, pcols // 4, 32, 4, 4)
    linear = tiles.permute(0, 3, 2, 1, 4).reshape(prows, pcols)
    return linear[:rows, : -(-k // 32)].contiguous().view(swizzled_scales.dtype)


# ---- the exact CPU reference on torch tensors -------------------------------------------------


def _to_numpy(t):
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    return _as_bytes(t).numpy() if t.dtype in _ELEM or t.dtype in _SCALE else t.numpy()


def mxfp8_scaled_mm_reference(a: torch.Tensor, b: torch.Tensor, scales_a: torch.Tensor,
                              scales_b: torch.Tensor, alpha: float = 1.0,
                              out_dtype: torch.dtype = torch.bfloat16,
                              layout: Layout = "swizzled") -> torch.Tensor:
    """The exact reference of mxfp8_scaled_mm (fp64 sum, one rounding) on the CPU, for tensors
    on any device; returns a CPU tensor."""
    fn = "mxfp8_scaled_mm_reference"
    for name, t, ok in (("a", a, _ELEM), ("b", b, _ELEM), ("scales_a", scales_a, _SCALE),
                        ("scales_b", scales_b, _SCALE)):
        if not isinstance(t, torch.Tensor) or t.dtype not in ok:
            raise TypeError(f"{fn}: {name}: expected a torch.Tensor of {_names(ok)}, got "
                            f"{getattr(t, 'dtype', type(t).__name__)}")
    _check_choice(fn, "out_dtype", out_dtype, _FLOAT, TypeError)
    d = _core.mxfp8_scaled_mm_reference(
        _to_numpy(a), _to_numpy(b), _to_numpy(scales_a), _to_numpy(scales_b), float(alpha),
        _FLOAT[out_dtype], _ELEM[a.dtype], _ELEM[b.dtype], layout)
    if out_dtype == torch.bfloat16:
        return torch.from_numpy(d.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(d)
