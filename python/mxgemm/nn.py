"""MXLinear: a linear layer with an MXFP8 weight (importing this module imports torch).

Tested on an H200 with torch 2.11, both modes and from_mxfp8 (tests/python/test_torch_ops.py).
"""

from typing import Optional

import torch

from ._shapes import scale_shape
from .ops import Layout, Rounding, mxfp8_scaled_mm, mxfp8_weight_only_mm, prepack_weight, quantize_mxfp8

__all__ = ["MXLinear"]


class MXLinear(torch.nn.Module):
    """y = x @ W.T + bias with W stored as MXFP8 (quantized once) and x quantized to MXFP8
    on every call; the product is mxgemm's GPU GEMM. Inference only (no autograd).

    Buffers: weight_data (out_features, in_features) and weight_scales (E8M0 in `layout`) as
    uint8 bytes (so that module.to(dtype) leaves them alone; elem_dtype tells what the
    bytes are), bias fp32 or None. in_features must be a multiple of 16. x: (..., in_features) CUDA
    tensor of fp32, bf16 or fp16; any leading dimensions. The output has out_dtype; with a
    bias the GEMM writes fp32, the bias is added in fp32 and the sum rounded once.

    prepack (weight-only mode, in_features a multiple of 32): weight_data holds the weight's
    codes in the prepacked order (prepack_weight, done once by from_linear / from_mxfp8), which
    the Hopper kernels read faster at large M; every input then enters as bf16.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, *,
                 device: Optional[torch.device | str | int] = None,
                 out_dtype: torch.dtype = torch.bfloat16,
                 elem_dtype: torch.dtype = torch.float8_e4m3fn, rounding: Rounding = "floor",
                 layout: Layout = "swizzled", weight_only: bool = False,
                 prepack: bool = False) -> None:
        super().__init__()
        if prepack and not weight_only:
            raise ValueError("MXLinear: prepack: expected weight_only=True (only the weight-only GEMM "
                             "reads a prepacked weight), got weight_only=False")
        if prepack and in_features % 32 != 0:
            raise ValueError(f"MXLinear: in_features: expected a multiple of 32 with prepack=True, "
                             f"got {in_features}")
        self.weight_only = weight_only
        self.prepack = prepack
        self.in_features = in_features
        self.out_features = out_features
        self.out_dtype = out_dtype
        self.elem_dtype = elem_dtype
        self.rounding = rounding
        self.layout = layout
        zeros = lambda shape: torch.zeros(shape, dtype=torch.uint8, device=device)  # noqa: E731
        self.register_buffer("weight_data", zeros((out_features, in_features)))
        self.register_buffer("weight_scales", zeros(scale_shape(out_features, in_features, layout)))
        self.register_buffer(
            "bias", torch.zeros(out_features, dtype=torch.float32, device=device) if bias else None)
        # alpha = 1 on the device, made once (mxfp8_scaled_mm would otherwise make one per call).
        self.register_buffer("_alpha", torch.ones((), dtype=torch.float32, device=device),
                             persistent=False)

    @classmethod
    def from_linear(cls, linear: torch.nn.Linear, *, out_dtype: Optional[torch.dtype] = None,
                    elem_dtype: torch.dtype = torch.float8_e4m3fn, rounding: Rounding = "floor",
                    layout: Layout = "swizzled", weight_only: bool = False,
                    prepack: bool = False) -> "MXLinear":
        """An MXLinear holding `linear`'s weight (a CUDA tensor) quantized with quantize_mxfp8
        (and prepacked with prepack). out_dtype defaults to the weight's dtype."""
        weight = linear.weight.detach()
        module = cls(linear.in_features, linear.out_features, bias=linear.bias is not None,
                     device=weight.device, out_dtype=out_dtype or weight.dtype,
                     elem_dtype=elem_dtype, rounding=rounding, layout=layout,
                     weight_only=weight_only, prepack=prepack)
        data, scales = quantize_mxfp8(weight.contiguous(), elem_dtype, rounding, layout)
        if prepack:
            data = prepack_weight(data)
        module.weight_data, module.weight_scales = data.view(torch.uint8), scales.view(torch.uint8)
        if linear.bias is not None:
            module.bias = linear.bias.detach().to(torch.float32).clone()
        return module

    @classmethod
    def from_mxfp8(cls, weight_data: torch.Tensor, weight_scales: torch.Tensor,
                   bias: Optional[torch.Tensor] = None, *, layout: Layout = "swizzled",
                   out_dtype: torch.dtype = torch.bfloat16,
                   weight_only: bool = True, prepack: bool = False) -> "MXLinear":
        """An MXLinear over an already quantized weight, as an MXFP8 checkpoint stores it:
        weight_data (out_features, in_features) float8_e4m3fn / float8_e5m2 (uint8: e4m3
        codes), weight_scales E8M0 (float8_e8m0fnu or uint8) in `layout`, bias None or
        (out_features,). No round trip through bf16; the tensors are copied to contiguous
        uint8 buffers on their device (with prepack, the codes prepacked on the way)."""
        if weight_data.dim() != 2:
            raise ValueError(f"MXLinear.from_mxfp8: weight_data: expected a 2-D tensor, got "
                             f"shape {tuple(weight_data.shape)}")
        elem = weight_data.dtype if weight_data.dtype != torch.uint8 else torch.float8_e4m3fn
        if elem not in (torch.float8_e4m3fn, torch.float8_e5m2):
            raise TypeError(f"MXLinear.from_mxfp8: weight_data.dtype: expected torch.float8_e4m3fn, "
                            f"torch.float8_e5m2 or torch.uint8, got {weight_data.dtype}")
        out_features, in_features = weight_data.shape
        want = tuple(scale_shape(out_features, in_features, layout))
        if tuple(weight_scales.shape) != want:
            raise ValueError(f"MXLinear.from_mxfp8: weight_scales: expected shape {want} for "
                             f"{layout} scales of a {out_features}x{in_features} weight, got "
                             f"{tuple(weight_scales.shape)}")
        module = cls(in_features, out_features, bias=bias is not None, device=weight_data.device,
                     out_dtype=out_dtype, elem_dtype=elem, layout=layout, weight_only=weight_only,
                     prepack=prepack)
        codes = weight_data.detach().contiguous().view(elem)
        module.weight_data = (prepack_weight(codes) if prepack else codes.clone()).view(torch.uint8)
        module.weight_scales = weight_scales.detach().contiguous().view(torch.uint8).clone()
        if bias is not None:
            module.bias = bias.detach().to(device=weight_data.device, dtype=torch.float32).clone()
        return module

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[-1] != self.in_features:
            raise ValueError(f"MXLinear: x: expected a last dimension of {self.in_features}, "
                             f"got shape {tuple(x.shape)}")
        lead = x.shape[:-1]
        if self.weight_only:
            # fp16 inputs stay fp16 with an e4m3 weight (the GEMM takes them as they are);
            # anything else enters as bf16.
            # A prepacked weight takes bf16 only.
            keep_fp16 = (x.dtype == torch.float16 and self.elem_dtype == torch.float8_e4m3fn
                         and not self.prepack)
            x2 = x.reshape(-1, self.in_features).to(torch.float16 if keep_fp16 else torch.bfloat16).contiguous()
            bias = None if self.bias is None else self.bias.float()
            y = mxfp8_weight_only_mm(x2, self.weight_data.view(self.elem_dtype),
                                     self.weight_scales.view(torch.float8_e8m0fnu),
                                     self._alpha.float(), bias, self.out_dtype, self.layout,
                                     "prepacked" if self.prepack else "natural")
            return y.reshape(*lead, self.out_features)
        xq, xs = quantize_mxfp8(x.reshape(-1, self.in_features).contiguous(), self.elem_dtype,
                                self.rounding, self.layout)
        gemm_dtype = self.out_dtype if self.bias is None else torch.float32
        # .float(): a no-op unless module.to(dtype) converted these floating buffers.
        y = mxfp8_scaled_mm(xq, self.weight_data.view(self.elem_dtype), xs,
                            self.weight_scales.view(torch.float8_e8m0fnu), self._alpha.float(),
                            gemm_dtype, self.layout)
        if self.bias is not None:
            y = (y + self.bias.float()).to(self.out_dtype)
        return y.reshape(*lead, self.out_features)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}, elem_dtype={self.elem_dtype}, "
                f"out_dtype={self.out_dtype}, rounding={self.rounding}, layout={self.layout}, "
                f"weight_only={self.weight_only}, prepack={self.prepack}")
