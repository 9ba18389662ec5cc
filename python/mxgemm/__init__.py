"""mxgemm: exact MXFP8 (OCP MX) block-scaled GEMM.

Torch-free, on numpy arrays (imported with the package):
    mxfp8_scaled_mm_reference, mxfp8_weight_only_mm_reference, mxfp8_prepack_weight_reference,
    quantize_mxfp8_reference,
    quantize_mxfp8_columnwise_reference, dequantize_mxfp8_reference,
    to_swizzled, to_linear, scale_shape, gemm_backend, bf16_to_float32, float32_to_bf16,
    release_gpu_workspace, gpu_workspace_bytes (the GPU GEMMs' scratch memory)
    and the exceptions DtypeError (TypeError), ArgumentError (ValueError),
    UnsupportedError and CudaError (RuntimeError).

PyTorch operators (torch is imported on first use of one of these names):
    mxfp8_scaled_mm, mxfp8_weight_only_mm, prepack_weight, quantize_mxfp8,
    quantize_mxfp8_columnwise, dequantize_mxfp8 (mxgemm.ops),
    MXLinear (mxgemm.nn).
"""

from importlib import import_module as _import_module
from typing import TYPE_CHECKING, Any

from . import _core
from ._core import (
    ArgumentError,
    CudaError,
    DtypeError,
    UnsupportedError,
    dequantize_mxfp8_reference,
    gemm_backend,
    gpu_workspace_bytes,
    mxfp8_prepack_weight_reference,
    mxfp8_scaled_mm_reference,
    mxfp8_weight_only_mm_reference,
    quantize_mxfp8_columnwise_reference,
    quantize_mxfp8_reference,
    release_gpu_workspace,
    scale_shape,
    to_linear,
    to_swizzled,
)
from ._host import bf16_to_float32, float32_to_bf16

__version__: str = _core.__version__

if TYPE_CHECKING:  # what the lazy names below are, for type checkers (no import at run time)
    from . import nn as nn, ops as ops  # "as": re-exported (mypy --strict)
    from .nn import MXLinear as MXLinear
    from .ops import (
        dequantize_mxfp8 as dequantize_mxfp8,
        mxfp8_scaled_mm as mxfp8_scaled_mm,
        mxfp8_weight_only_mm as mxfp8_weight_only_mm,
        prepack_weight as prepack_weight,
        quantize_mxfp8 as quantize_mxfp8,
        quantize_mxfp8_columnwise as quantize_mxfp8_columnwise,
    )

for _error in (ArgumentError, CudaError, DtypeError, UnsupportedError):
    _error.__module__ = __name__
del _error

# name -> submodule that defines it; loaded (with torch) on first access.
_LAZY = {
    "ops": None,
    "nn": None,
    "mxfp8_scaled_mm": "ops",
    "mxfp8_weight_only_mm": "ops",
    "prepack_weight": "ops",
    "quantize_mxfp8": "ops",
    "quantize_mxfp8_columnwise": "ops",
    "dequantize_mxfp8": "ops",
    "MXLinear": "nn",
}

__all__ = [
    "ArgumentError",
    "CudaError",
    "DtypeError",
    "UnsupportedError",
    "bf16_to_float32",
    "dequantize_mxfp8_reference",
    "float32_to_bf16",
    "gemm_backend",
    "gpu_workspace_bytes",
    "mxfp8_prepack_weight_reference",
    "mxfp8_scaled_mm_reference",
    "mxfp8_weight_only_mm_reference",
    "quantize_mxfp8_columnwise_reference",
    "quantize_mxfp8_reference",
    "release_gpu_workspace",
    "scale_shape",
    "to_linear",
    "to_swizzled",
    *_LAZY,
]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'mxgemm' has no attribute {name!r}")
    module = _import_module(f".{_LAZY[name] or name}", __name__)
    value = module if _LAZY[name] is None else getattr(module, name)
    globals()[name] = value  # found directly from now on
    return value
