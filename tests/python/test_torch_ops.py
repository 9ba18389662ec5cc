"""The torch layer on a GPU: custom ops against the exact CPU reference, torch.compile,
CUDA graphs, MXLinear and the error cases. Skips (with the reason) without torch or
without a CUDA device: CI has neither; these run on the GPU machine."""

import re
import subprocess
import sys

import numpy as np
import pytest

import mxgemm

torch = pytest.importorskip("torch", reason="torch is not installed (the torch layer is tested "
                                            "on the GPU machine)")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device (torch.cuda.is_available() is False)", allow_module_level=True)

from mxgemm import ops  # noqa: E402
from mxgemm.nn import MXLinear  # noqa: E402

requires_gemm = pytest.mark.skipif(not mxgemm.gemm_backend()["available"],
                                   reason=f"no mxgemm GEMM kernel: {mxgemm.gemm_backend()['reason']}")
requires_quantize = pytest.mark.skipif(torch.cuda.get_device_capability() < (8, 9),
                                       reason="the quantize kernels need compute capability >= 8.9")

DEV = torch.device("cuda", torch.cuda.current_device())
OUT_NAME = {torch.bfloat16: "bf16", torch.float16: "fp16", torch.float32: "fp32"}
# (precision bits, minimum normal exponent) of the output types.
OUT_FORMAT = {torch.bfloat16: (8, -126), torch.float16: (11, -14), torch.float32: (24, -126)}


def as_bytes(t):
    return t.detach().view(torch.uint8).cpu().numpy() if t.element_size() == 1 else None


def quantized_operand(rows, k, seed, elem=torch.float8_e4m3fn, layout="swizzled", dtype=torch.bfloat16):
    g = torch.Generator(device=DEV).manual_seed(seed)
    x = torch.randn((rows, k), generator=g, device=DEV, dtype=torch.float32).to(dtype)
    return ops.quantize_mxfp8(x, elem, "floor", layout)


def dequantized_abs(data, scales, layout):
    """|dequant(operand)| as float64 numpy, from the CPU reference."""
    elem = "e5m2" if data.dtype == torch.float8_e5m2 else "e4m3"
    x = mxgemm.dequantize_mxfp8_reference(as_bytes(data), as_bytes(scales), "fp32", elem, layout)
    return np.abs(x.astype(np.float64))


def assert_gemm_close(out, a, b, sa, sb, alpha, out_dtype, layout):
    """GPU result vs the exact reference: one output rounding plus the fp32 accumulation
    bound K * 2^-23 * |alpha| * (|A| @ |B|^T), element by element."""
    ref = ops.mxfp8_scaled_mm_reference(a, b, sa, sb, float(alpha), torch.float32, layout)
    ref = ref.double().numpy()
    got = out.double().cpu().numpy()
    assert out.dtype == out_dtype and out.device == a.device and got.shape == ref.shape
    assert np.isfinite(ref).all() and np.linalg.norm(ref) > 0 and not np.isnan(got).any()
    precision, emin = OUT_FORMAT[out_dtype]
    _, e = np.frexp(np.abs(ref))
    out_ulp = np.exp2(np.maximum(e - 1, emin) - (precision - 1))
    k = a.shape[1]
    bound = out_ulp + k * 2.0**-23 * abs(float(alpha)) * (
        dequantized_abs(a, sa, layout) @ dequantized_abs(b, sb, layout).T)
    assert np.all(np.abs(got - ref) <= bound), f"max error {np.abs(got - ref).max()}"
    rel = np.linalg.norm(got - ref) / np.linalg.norm(ref)
    assert rel < 1e-2  # far tighter than the original test's 1e-1


# ---- the GEMM ------------------------------------------------------------------------------


@requires_gemm
@requires_quantize
@pytest.mark.parametrize("out_dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("m,n,k", [(128, 128, 128), (128, 128, 256), (256, 128, 128), (128, 256, 256)])
def test_original_nvfuser_cases(m, n, k, out_dtype):
    a, sa = quantized_operand(m, k, 1)
    b, sb = quantized_operand(n, k, 2)
    alpha = torch.tensor(1.0, device=DEV)
    out = mxgemm.mxfp8_scaled_mm(a, b, sa, sb, alpha, out_dtype)
    assert_gemm_close(out, a, b, sa, sb, 1.0, out_dtype, "swizzled")


@requires_gemm
@requires_quantize
@pytest.mark.parametrize("layout", ["swizzled", "linear"])
@pytest.mark.parametrize("m,n,k", [(129, 67, 48), (1, 1, 16), (300, 130, 96), (37, 260, 528)])
def test_unaligned_shapes_both_layouts(m, n, k, layout):
    a, sa = quantized_operand(m, k, 3, layout=layout)
    b, sb = quantized_operand(n, k, 4, layout=layout)
    out = ops.mxfp8_scaled_mm(a, b, sa, sb, 1.0, torch.bfloat16, layout)
    assert_gemm_close(out, a, b, sa, sb, 1.0, torch.bfloat16, layout)


@requires_gemm
@requires_quantize
def test_alpha_float_and_tensor_mixed_types_fp32_out():
    a, sa = quantized_operand(256, 192, 5, elem=torch.float8_e5m2)
    b, sb = quantized_operand(160, 192, 6)
    for alpha in (0.375, torch.tensor(-2.5, device=DEV), torch.tensor([3.0], device=DEV)):
        out = mxgemm.mxfp8_scaled_mm(a, b, sa, sb, alpha, torch.float32)
        assert_gemm_close(out, a, b, sa, sb, float(alpha), torch.float32, "swizzled")


@requires_gemm
@requires_quantize
def test_uint8_views_are_accepted():
    a, sa = quantized_operand(128, 64, 7)
    b, sb = quantized_operand(64, 64, 8)
    want = mxgemm.mxfp8_scaled_mm(a, b, sa, sb)
    got = mxgemm.mxfp8_scaled_mm(a.view(torch.uint8), b.view(torch.uint8), sa.view(torch.uint8),
                                 sb.view(torch.uint8))
    assert torch.equal(got, want)


@requires_gemm
@requires_quantize
def test_runs_on_the_current_stream():
    a, sa = quantized_operand(512, 512, 9)
    b, sb = quantized_operand(512, 512, 10)
    want = mxgemm.mxfp8_scaled_mm(a, b, sa, sb)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        got = mxgemm.mxfp8_scaled_mm(a, b, sa, sb)
    torch.cuda.current_stream().wait_stream(side)
    assert torch.equal(got, want)


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_tensors_on_another_device_than_the_current_one():
    dev1 = torch.device("cuda", 1)
    with torch.cuda.device(dev1):
        if not mxgemm.gemm_backend()["available"]:
            pytest.skip("no mxgemm GEMM kernel on cuda:1")
    torch.cuda.set_device(0)
    for rows in (130, 16):  # MXFP8 activations in bf16 (values form) and as codes (workspace is per device)
        x = torch.randn((rows, 64), device=dev1)
        w = torch.randn((70, 64), device=dev1)
        a, sa = ops.quantize_mxfp8(x)
        b, sb = ops.quantize_mxfp8(w)
        out = ops.mxfp8_scaled_mm(a, b, sa, sb, 1.0, torch.float32)
        assert out.device == dev1 and torch.cuda.current_device() == 0
        assert_gemm_close(out, a, b, sa, sb, 1.0, torch.float32, "swizzled")


# ---- quantize / dequantize / layouts -----------------------------------------------------------


@requires_quantize
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
@pytest.mark.parametrize("elem", [torch.float8_e4m3fn, torch.float8_e5m2])
@pytest.mark.parametrize("rounding", ["floor", "rceil"])
@pytest.mark.parametrize("layout", ["swizzled", "linear"])
def test_quantize_is_bit_exact_with_the_reference(dtype, elem, rounding, layout):
    x = torch.randn((257, 96), device=DEV, dtype=torch.float32).to(dtype) * 7
    data, scales = ops.quantize_mxfp8(x, elem, rounding, layout)
    assert data.dtype == elem and scales.dtype == torch.float8_e8m0fnu
    assert tuple(scales.shape) == mxgemm.scale_shape(257, 96, layout)
    xn = x.cpu()
    xn = xn.view(torch.int16).numpy().view(np.uint16) if dtype == torch.bfloat16 else xn.numpy()
    want_data, want_scales = mxgemm.quantize_mxfp8_reference(
        xn, "e4m3" if elem == torch.float8_e4m3fn else "e5m2", rounding, layout)
    assert np.array_equal(as_bytes(data), want_data)
    assert np.array_equal(as_bytes(scales), want_scales)


@requires_quantize
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
@pytest.mark.parametrize("layout", ["swizzled", "linear"])
def test_columnwise_quantize_is_the_transposes_quantize(dtype, layout):
    x = torch.randn((257, 96), device=DEV, dtype=torch.float32).to(dtype) * 7
    for elem in (torch.float8_e4m3fn, torch.float8_e5m2):
        data, scales = ops.quantize_mxfp8_columnwise(x, elem, "rceil", layout)
        assert data.shape == (96, 257) and data.dtype == elem
        assert tuple(scales.shape) == mxgemm.scale_shape(96, 257, layout)
        want_data, want_scales = ops.quantize_mxfp8(x.t().contiguous(), elem, "rceil", layout)
        assert np.array_equal(as_bytes(data), as_bytes(want_data))
        assert np.array_equal(as_bytes(scales), as_bytes(want_scales))


@requires_quantize
@pytest.mark.parametrize("out_dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_dequantize_is_exact(out_dtype):
    data, scales = quantized_operand(200, 80, 11, layout="linear")
    got = ops.dequantize_mxfp8(data, scales, out_dtype, "linear")
    want = mxgemm.dequantize_mxfp8_reference(as_bytes(data), as_bytes(scales), OUT_NAME[out_dtype],
                                             "e4m3", "linear")
    got = got.cpu()
    got = got.view(torch.int16).numpy().view(np.uint16) if out_dtype == torch.bfloat16 else got.numpy()
    assert np.array_equal(got, want)


@pytest.mark.parametrize("rows,k", [(1, 16), (128, 256), (200, 200), (300, 1000)])
def test_torch_layout_helpers_match_the_core(rows, k):
    linear = torch.randint(0, 255, (rows, -(-k // 32)), dtype=torch.uint8, device=DEV)
    swz = ops.to_swizzled(linear.view(torch.float8_e8m0fnu), rows, k)
    assert swz.dtype == torch.float8_e8m0fnu and swz.device == DEV
    assert np.array_equal(as_bytes(swz), mxgemm.to_swizzled(linear.cpu().numpy(), rows, k))
    assert torch.equal(ops.to_linear(swz, rows, k).view(torch.uint8), linear)


# ---- torch.compile, CUDA graphs, opcheck -------------------------------------------------------


def quantized_mm(x, w, alpha):
    xq, xs = mxgemm.quantize_mxfp8(x)
    wq, ws = mxgemm.quantize_mxfp8(w)
    return mxgemm.mxfp8_scaled_mm(xq, wq, xs, ws, alpha, torch.bfloat16)


@requires_gemm
@requires_quantize
def test_torch_compile_fullgraph_matches_eager():
    x = torch.randn((96, 256), device=DEV, dtype=torch.bfloat16)
    w = torch.randn((320, 256), device=DEV, dtype=torch.bfloat16)
    alpha = torch.tensor(0.5, device=DEV)
    compiled = torch.compile(quantized_mm, fullgraph=True)
    assert torch.equal(compiled(x, w, alpha), quantized_mm(x, w, alpha))
    lin = MXLinear.from_linear(torch.nn.Linear(256, 64, device=DEV, dtype=torch.bfloat16))
    x3 = torch.randn((2, 5, 256), device=DEV, dtype=torch.bfloat16)
    assert torch.equal(torch.compile(lin, fullgraph=True)(x3), lin(x3))


@requires_gemm
@requires_quantize
def test_cuda_graph_capture_and_replay_reads_alpha_on_device():
    x = torch.randn((128, 128), device=DEV, dtype=torch.bfloat16)
    w = torch.randn((256, 128), device=DEV, dtype=torch.bfloat16)
    alpha = torch.tensor(1.0, device=DEV)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up outside the capture
        quantized_mm(x, w, alpha)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = quantized_mm(x, w, alpha)
    x.copy_(torch.randn_like(x))
    alpha.fill_(-0.25)
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(out, quantized_mm(x, w, alpha))


# Run in a process of its own: the scratch memory that earlier tests' captures used is kept for
# the life of the process (a graph may still use it), so here it would already be larger than
# this test's large call needs (session 41's first GPU run: 85 MB held, no growth).
GRAPH_AFTER_GROWTH = """
import torch, mxgemm
dev = torch.device("cuda", torch.cuda.current_device())
def quantized_mm(x, w, alpha):
    xq, xs = mxgemm.quantize_mxfp8(x)
    wq, ws = mxgemm.quantize_mxfp8(w)
    return mxgemm.mxfp8_scaled_mm(xq, wq, xs, ws, alpha, torch.bfloat16)
x = torch.randn((40, 1024), device=dev, dtype=torch.bfloat16)
w = torch.randn((520, 1024), device=dev, dtype=torch.bfloat16)
alpha = torch.tensor(1.0, device=dev)
side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    quantized_mm(x, w, alpha)
torch.cuda.current_stream().wait_stream(side)
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    out = quantized_mm(x, w, alpha)
held = mxgemm.gpu_workspace_bytes(dev.index)
big = quantized_mm(torch.randn((512, 8192), device=dev, dtype=torch.bfloat16),
                   torch.randn((1032, 8192), device=dev, dtype=torch.bfloat16), alpha)
grown = mxgemm.gpu_workspace_bytes(dev.index)
assert grown > held + 8 * 2**20, f"the large call did not grow the scratch memory: {held} -> {grown} bytes"
del big
mxgemm.release_gpu_workspace()
scratch = torch.full((held,), 0x5A, dtype=torch.uint8, device=dev)  # may take freed memory
x.copy_(torch.randn_like(x))
graph.replay()
torch.cuda.synchronize()
assert torch.equal(out, quantized_mm(x, w, alpha)), "the replay differs from an eager call"
assert bool((scratch == 0x5A).all()), "the replay wrote into memory handed out after the growth"
"""


@requires_gemm
@requires_quantize
def test_cuda_graph_replays_correctly_after_a_larger_eager_call():
    # The larger call grows mxgemm's scratch memory; the graph's memory must survive it
    # (include/mxgemm/workspace.hpp). Before, it was freed and the replay wrote into memory
    # that torch or cudaMalloc had handed out again.
    run = subprocess.run([sys.executable, "-c", GRAPH_AFTER_GROWTH], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


@requires_gemm
@requires_quantize
def test_float_alphas_are_made_on_the_device_once():
    x = torch.randn((24, 256), device=DEV, dtype=torch.bfloat16)
    w = torch.randn((96, 256), device=DEV, dtype=torch.bfloat16)
    xq, xs = mxgemm.quantize_mxfp8(x)
    wq, ws = mxgemm.quantize_mxfp8(w)
    first = mxgemm.ops._device_alpha(0.375, xq)
    assert mxgemm.ops._device_alpha(0.375, xq) is first
    assert first.device == xq.device and first.item() == 0.375
    assert mxgemm.ops._device_alpha(-2.0, xq) is not first
    want = mxgemm.mxfp8_scaled_mm(xq, wq, xs, ws, torch.tensor(0.375, device=DEV))
    assert torch.equal(mxgemm.mxfp8_scaled_mm(xq, wq, xs, ws, 0.375), want)
    # A value first met inside a capture: the graph records its fill; nothing is cached.
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up outside the capture
        mxgemm.mxfp8_scaled_mm(xq, wq, xs, ws, 0.625)
    torch.cuda.current_stream().wait_stream(side)
    assert (xq.device, 0.625) in mxgemm.ops._ALPHAS
    before_capture = dict(mxgemm.ops._ALPHAS)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = mxgemm.mxfp8_scaled_mm(xq, wq, xs, ws, 0.8125)
    assert mxgemm.ops._ALPHAS == before_capture
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(out, mxgemm.mxfp8_scaled_mm(xq, wq, xs, ws, torch.tensor(0.8125, device=DEV)))


@requires_gemm
@requires_quantize
def test_opcheck():
    x = torch.randn((130, 64), device=DEV, dtype=torch.bfloat16)
    torch.library.opcheck(torch.ops.mxgemm.quantize_mxfp8.default,
                          (x, torch.float8_e4m3fn, "floor", "swizzled"))
    # uint8 views (accepted as E4M3 codes and E8M0 bytes): opcheck's schema test compares
    # inputs before and after with allclose, which torch does not implement for fp8 on CUDA.
    a, sa = (t.view(torch.uint8) for t in ops.quantize_mxfp8(x))
    torch.library.opcheck(torch.ops.mxgemm.dequantize_mxfp8.default,
                          (a, sa, torch.bfloat16, "swizzled"))
    torch.library.opcheck(torch.ops.mxgemm.mxfp8_scaled_mm.default,
                          (a, a, sa, sa, torch.tensor(1.0, device=DEV), torch.bfloat16, "swizzled"))


# ---- MXLinear ----------------------------------------------------------------------------------


@requires_gemm
@requires_quantize
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_mxlinear_vs_nn_linear(bias, dtype):
    torch.manual_seed(0)
    linear = torch.nn.Linear(512, 384, bias=bias, device=DEV, dtype=dtype)
    mx = MXLinear.from_linear(linear)
    x = torch.randn((3, 7, 512), device=DEV, dtype=dtype)
    y = mx(x)
    assert y.shape == (3, 7, 384) and y.dtype == dtype
    want = linear(x).double()
    # The MXFP8 quantization of both operands (E4M3: about 4% relative error each way).
    assert (y.double() - want).norm() / want.norm() < 0.1
    # And exactly the composition of the ops: bias added in fp32, one rounding.
    xq, xs = ops.quantize_mxfp8(x.reshape(-1, 512))
    y32 = ops.mxfp8_scaled_mm(xq, mx.weight_data.view(torch.float8_e4m3fn), xs,
                              mx.weight_scales.view(torch.float8_e8m0fnu), 1.0, torch.float32)
    if bias:
        y32 = y32 + linear.bias.float()
    assert torch.equal(y, y32.to(dtype).reshape(3, 7, 384))
    assert mx.to(torch.float16).weight_data.dtype == torch.uint8  # dtype casts leave fp8 bytes alone


# ---- errors --------------------------------------------------------------------------------------


@requires_gemm
@pytest.mark.parametrize("m", [1, 37, 300])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_weight_only_matches_the_reference(m, bias, dtype):
    g = torch.Generator(device=DEV).manual_seed(m)
    n, k = 136, 528
    x = torch.randn((m, k), generator=g, device=DEV).to(dtype)
    w, sw = ops.quantize_mxfp8(torch.randn((n, k), generator=g, device=DEV))
    b = torch.randn(n, generator=g, device=DEV) if bias else None
    got = ops.mxfp8_weight_only_mm(x, w, sw, 0.5, b, torch.float32)

    def host(t):  # the reference takes bf16 as its uint16 bits, fp16 as float16
        t = t.cpu()
        return t.view(torch.int16).numpy().view(np.uint16) if dtype == torch.bfloat16 else t.numpy()

    want = mxgemm.mxfp8_weight_only_mm_reference(host(x), as_bytes(w), as_bytes(sw), 0.5, "fp32",
                                                 bias=None if b is None else b.cpu().numpy())
    absolute = mxgemm.mxfp8_weight_only_mm_reference(host(x.abs()), as_bytes(w) & 0x7F, as_bytes(sw),
                                                     0.5, "fp32")
    bound = np.abs(want) * 2.0**-23 + k * 2.0**-23 * absolute
    assert np.all(np.abs(got.cpu().double().numpy() - want) <= bound)


@requires_gemm
@requires_quantize
def test_mxlinear_weight_only_vs_nn_linear():
    torch.manual_seed(0)
    linear = torch.nn.Linear(512, 256, device=DEV, dtype=torch.bfloat16)
    layer = MXLinear.from_linear(linear, weight_only=True)
    x = torch.randn((4, 9, 512), device=DEV, dtype=torch.bfloat16)
    deq = ops.dequantize_mxfp8(layer.weight_data.view(torch.float8_e4m3fn),
                               layer.weight_scales.view(torch.float8_e8m0fnu), torch.float32)
    want = x.float() @ deq.T + linear.bias.float()
    got = layer(x)
    assert got.shape == (4, 9, 256) and got.dtype == torch.bfloat16
    rel = ((got.float() - want).norm() / want.norm()).item()
    print(f"MXLinear weight-only vs fp32 on the dequantized weight: relative error {rel:.2e}")
    assert rel < 1e-2
    again = MXLinear.from_mxfp8(layer.weight_data.view(torch.float8_e4m3fn), layer.weight_scales,
                                linear.bias, out_dtype=torch.bfloat16)
    assert torch.equal(again(x), got)


@requires_gemm
@requires_quantize
@pytest.mark.parametrize("m", [1, 12, 300])
def test_prepacked_weight_gives_the_reference_and_mxlinear_takes_it(m):
    g = torch.Generator(device=DEV).manual_seed(m)
    n, k = 136, 512
    x = torch.randn((m, k), generator=g, device=DEV).to(torch.bfloat16)
    w, sw = ops.quantize_mxfp8(torch.randn((n, k), generator=g, device=DEV))
    packed = ops.prepack_weight(w)
    assert packed.dtype == w.dtype and packed.shape == w.shape
    assert np.array_equal(as_bytes(packed), mxgemm.mxfp8_prepack_weight_reference(as_bytes(w)))
    got = ops.mxfp8_weight_only_mm(x, packed, sw, 1.0, None, torch.float32, weight_order="prepacked")
    host = x.cpu().view(torch.int16).numpy().view(np.uint16)
    want = mxgemm.mxfp8_weight_only_mm_reference(host, as_bytes(w), as_bytes(sw), 1.0, "fp32")
    absolute = mxgemm.mxfp8_weight_only_mm_reference(mxgemm.float32_to_bf16(np.abs(mxgemm.bf16_to_float32(host))),
                                                     as_bytes(w) & 0x7F, as_bytes(sw), 1.0, "fp32")
    assert np.all(np.abs(got.cpu().double().numpy() - want) <= np.abs(want) * 2.0**-23 + k * 2.0**-23 * absolute)
    with pytest.raises(mxgemm.UnsupportedError, match="a.dtype: expected bf16 with a prepacked weight"):
        ops.mxfp8_weight_only_mm(x.half(), packed, sw, weight_order="prepacked")
    linear = torch.nn.Linear(k, n, device=DEV, dtype=torch.bfloat16)
    natural = MXLinear.from_linear(linear, weight_only=True)
    prepacked = MXLinear.from_linear(linear, weight_only=True, prepack=True)
    loaded = MXLinear.from_mxfp8(natural.weight_data.view(torch.float8_e4m3fn), natural.weight_scales,
                                 linear.bias, prepack=True)
    assert torch.equal(prepacked.weight_data, loaded.weight_data)
    xs = torch.randn((m, k), generator=g, device=DEV).to(torch.float16)  # enters as bf16
    y0, y1 = natural(xs.to(torch.bfloat16)).float(), prepacked(xs).float()
    assert ((y1 - y0).norm() / y0.norm()).item() < 1e-2
    assert torch.equal(loaded(xs), prepacked(xs))
    with pytest.raises(ValueError, match="prepack: expected weight_only=True"):
        MXLinear(k, n, prepack=True)


@requires_quantize
def test_error_cases():
    a, sa = quantized_operand(128, 64, 12)
    b, sb = quantized_operand(64, 64, 13)
    mm = mxgemm.mxfp8_scaled_mm
    with pytest.raises(ValueError, match="a: expected a CUDA tensor, got a tensor on cpu"):
        mm(a.cpu(), b, sa, sb)
    with pytest.raises(ValueError, match=re.escape("b: expected a contiguous tensor")):
        mm(a, b.t(), sa, sb)  # b is 64 x 64
    with pytest.raises(TypeError, match=re.escape("a.dtype: expected torch.float8_e4m3fn or")):
        mm(a.to(torch.float16), b, sa, sb)
    with pytest.raises(TypeError, match="out_dtype: expected"):
        mm(a, b, sa, sb, 1.0, torch.int32)
    with pytest.raises(ValueError, match="alpha: expected a tensor on cuda"):
        mm(a, b, sa, sb, torch.tensor(1.0))
    with pytest.raises(TypeError, match="alpha: expected a Python float or a one-element"):
        mm(a, b, sa, sb, torch.ones(2, device=DEV))
    # Shape errors come from the C++ validation, with its message.
    b96, sb96 = quantized_operand(64, 96, 14)
    with pytest.raises(ValueError, match=re.escape("mxfp8_scaled_mm: b.data.cols (K): expected 64 to match a")):
        mm(a, b96, sa, sb96)
    with pytest.raises(ValueError, match=re.escape("mxfp8_scaled_mm: a.scales shape: expected 128x4")):
        mm(a, b, sa[:64], sb)
    x = torch.randn((16, 100), device=DEV)
    xq, xs = ops.quantize_mxfp8(x)
    with pytest.raises(ValueError, match=re.escape("K (a.data.cols): expected a multiple of 16, got 100")):
        mm(xq, xq, xs, xs)
    with pytest.raises(TypeError, match="quantize_mxfp8: x.dtype"):
        ops.quantize_mxfp8(torch.zeros((4, 32), device=DEV, dtype=torch.float64))
    with pytest.raises(ValueError, match="quantize_mxfp8: x: expected a 2-D tensor"):
        ops.quantize_mxfp8(torch.zeros((2, 4, 32), device=DEV))
    with pytest.raises(ValueError, match="MXLinear: x: expected a last dimension of 64"):
        MXLinear.from_linear(torch.nn.Linear(64, 32, device=DEV))(torch.zeros((2, 48), device=DEV))
