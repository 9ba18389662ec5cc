"""The torch layer without a GPU: op schemas, fake implementations (shapes and dtypes, and a
full-graph dynamo trace through torch.export on fake CUDA tensors), input checks, the
torch-side layout helpers and the CPU reference. Skips without torch (as in CI)."""

import re

import numpy as np
import pytest

import mxgemm

torch = pytest.importorskip("torch", reason="torch is not installed (the torch layer is tested "
                                            "where torch is)")
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402

from mx_numpy import random_operand  # noqa: E402
from mxgemm import ops  # noqa: E402
from mxgemm.nn import MXLinear  # noqa: E402

E4M3, E8M0 = torch.float8_e4m3fn, torch.float8_e8m0fnu


def test_schemas():
    assert str(torch.ops.mxgemm.mxfp8_scaled_mm.default._schema) == (
        "mxgemm::mxfp8_scaled_mm(Tensor a, Tensor b, Tensor scales_a, Tensor scales_b, "
        "Tensor alpha, ScalarType out_dtype, str layout) -> Tensor")
    assert str(torch.ops.mxgemm.quantize_mxfp8.default._schema) == (
        "mxgemm::quantize_mxfp8(Tensor x, ScalarType elem_dtype, str rounding, str layout) "
        "-> (Tensor, Tensor)")
    assert str(torch.ops.mxgemm.quantize_mxfp8_columnwise.default._schema) == (
        "mxgemm::quantize_mxfp8_columnwise(Tensor x, ScalarType elem_dtype, str rounding, "
        "str layout) -> (Tensor, Tensor)")
    assert str(torch.ops.mxgemm.dequantize_mxfp8.default._schema) == (
        "mxgemm::dequantize_mxfp8(Tensor data, Tensor scales, ScalarType out_dtype, str layout) "
        "-> Tensor")
    assert mxgemm.mxfp8_scaled_mm is ops.mxfp8_scaled_mm and mxgemm.MXLinear is MXLinear


def test_fake_implementations():
    cached = dict(ops._ALPHAS)
    with FakeTensorMode():
        x = torch.empty((130, 80), device="cuda", dtype=torch.bfloat16)
        data, scales = ops.quantize_mxfp8(x, torch.float8_e5m2)
        assert data.shape == (130, 80) and data.dtype == torch.float8_e5m2 and data.is_cuda
        assert scales.shape == (256, 4) and scales.dtype == E8M0
        _, linear = ops.quantize_mxfp8(x, E4M3, "rceil", "linear")
        assert linear.shape == (130, 3)
        data_t, scales_t = ops.quantize_mxfp8_columnwise(x)  # x.T: 80 x 130
        assert data_t.shape == (80, 130) and data_t.dtype == E4M3 and scales_t.shape == (128, 8)
        assert ops.quantize_mxfp8_columnwise(x, layout="linear")[1].shape == (80, 5)
        w, ws = ops.quantize_mxfp8(torch.empty((70, 80), device="cuda"))
        out = ops.mxfp8_scaled_mm(data, w, scales, ws, 2.0, torch.float16)
        assert out.shape == (130, 70) and out.dtype == torch.float16 and out.is_cuda
        assert ops.dequantize_mxfp8(w, ws, torch.float32).dtype == torch.float32
        y = MXLinear(80, 48, device="cuda")(torch.empty((2, 3, 80), device="cuda"))
        assert y.shape == (2, 3, 48) and y.dtype == torch.bfloat16
    # The float alpha's device tensor was fake: it must not be kept for real calls.
    assert ops._ALPHAS == cached


class QuantizedMM(torch.nn.Module):
    def forward(self, x, w, alpha):
        xq, xs = mxgemm.quantize_mxfp8(x)
        wq, ws = mxgemm.quantize_mxfp8(w)
        return (mxgemm.mxfp8_scaled_mm(xq, wq, xs, ws, alpha) +
                mxgemm.mxfp8_scaled_mm(xq, wq, xs, ws, 0.5))


def test_dynamo_traces_the_ops_in_one_graph():
    # strict export = dynamo with fullgraph: any graph break fails here.
    cached = dict(ops._ALPHAS)
    with FakeTensorMode(allow_non_fake_inputs=True):
        x = torch.empty((96, 256), device="cuda", dtype=torch.bfloat16)
        w = torch.empty((320, 256), device="cuda", dtype=torch.bfloat16)
        ep = torch.export.export(QuantizedMM(), (x, w, torch.empty((), device="cuda")), strict=True)
        called = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
        assert called.count("mxgemm.quantize_mxfp8.default") == 2
        assert called.count("mxgemm.mxfp8_scaled_mm.default") == 2
        # MXLinear with a dynamic batch dimension: the fake scale shapes take symbolic sizes.
        batch = torch.export.Dim("batch", min=2)
        ep = torch.export.export(MXLinear(256, 64, device="cuda"),
                                 (torch.empty((4, 256), device="cuda", dtype=torch.bfloat16),),
                                 dynamic_shapes=({0: batch},), strict=True)
        assert "mxgemm.mxfp8_scaled_mm" in ep.graph_module.code
    assert ops._ALPHAS == cached  # traced alphas are made in the graph, not cached


def test_input_checks_without_a_gpu():
    a = torch.zeros((128, 64), dtype=E4M3)
    s = torch.zeros((128, 4), dtype=torch.uint8).view(E8M0)
    with pytest.raises(ValueError, match=re.escape("mxfp8_scaled_mm: a: expected a CUDA tensor, got a tensor on cpu")):
        ops.mxfp8_scaled_mm(a, a, s, s)
    with pytest.raises(TypeError, match=re.escape("mxfp8_scaled_mm: a.dtype: expected torch.float8_e4m3fn")):
        ops.mxfp8_scaled_mm(a.float(), a, s, s)
    with pytest.raises(ValueError, match=re.escape("quantize_mxfp8: x: expected a CUDA tensor")):
        ops.quantize_mxfp8(torch.zeros((4, 32)))
    with FakeTensorMode():
        a = torch.empty((128, 64), device="cuda", dtype=E4M3)
        s = torch.empty((128, 4), device="cuda", dtype=E8M0)
        with pytest.raises(TypeError, match="quantize_mxfp8: elem_dtype: expected"):
            ops.quantize_mxfp8(torch.empty((4, 32), device="cuda"), torch.bfloat16)
        with pytest.raises(TypeError, match="quantize_mxfp8_columnwise: elem_dtype: expected"):
            ops.quantize_mxfp8_columnwise(torch.empty((4, 32), device="cuda"), torch.bfloat16)
        with pytest.raises(ValueError, match="quantize_mxfp8_columnwise: layout: expected swizzled or linear"):
            ops.quantize_mxfp8_columnwise(torch.empty((4, 32), device="cuda"), layout="blocked")
        with pytest.raises(ValueError, match="quantize_mxfp8_columnwise: x: expected a contiguous tensor"):
            ops.quantize_mxfp8_columnwise(torch.empty((32, 4), device="cuda").t())
        with pytest.raises(TypeError, match="quantize_mxfp8_columnwise: x.dtype: expected"):
            ops.quantize_mxfp8_columnwise(torch.empty((4, 32), device="cuda", dtype=E4M3))
        with pytest.raises(ValueError, match="b: expected a contiguous tensor"):
            ops.mxfp8_scaled_mm(a, torch.empty((64, 128), device="cuda", dtype=E4M3).t(), s, s)
        with pytest.raises(ValueError, match="layout: expected swizzled or linear, got 'blocked'"):
            ops.mxfp8_scaled_mm(a, a, s, s, 1.0, torch.bfloat16, "blocked")
        with pytest.raises(ValueError, match="alpha: expected a tensor on cuda:0"):
            ops.mxfp8_scaled_mm(a, a, s, s, torch.tensor(1.0))
        # Another device: a fake cuda:1 tensor initialises that device where CUDA is present,
        # so a one-GPU machine uses the CPU as the other device.
        other = "cuda:1" if not torch.cuda.is_available() or torch.cuda.device_count() > 1 else "cpu"
        expect = "a tensor on cuda:0" if other == "cuda:1" else "a CUDA tensor, got a tensor on cpu"
        with pytest.raises(ValueError, match=f"dequantize_mxfp8: scales: expected {expect}"):
            ops.dequantize_mxfp8(a, torch.empty((128, 4), device=other, dtype=E8M0))


@pytest.mark.parametrize("rows,k", [(1, 16), (128, 256), (200, 200), (300, 1000)])
def test_torch_layout_helpers_match_the_core(rows, k):
    linear = torch.randint(0, 255, (rows, -(-k // 32)), dtype=torch.uint8)
    swz = ops.to_swizzled(linear.view(E8M0), rows, k)
    assert swz.dtype == E8M0
    assert np.array_equal(swz.view(torch.uint8).numpy(), mxgemm.to_swizzled(linear.numpy(), rows, k))
    assert torch.equal(ops.to_linear(swz, rows, k).view(torch.uint8), linear)
    with pytest.raises(ValueError, match="to_swizzled: linear_scales shape: expected"):
        ops.to_swizzled(linear[:, :-1] if linear.shape[1] > 1 else linear[:0], rows, k)


@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float16, torch.float32])
def test_torch_reference_matches_the_numpy_one(out_dtype):
    rng = np.random.default_rng(1)
    a, sa, _ = random_operand(rng, 129, 96, "e4m3")
    b, sb, _ = random_operand(rng, 70, 96, "e5m2")
    sa, sb = mxgemm.to_swizzled(sa, 129, 96), mxgemm.to_swizzled(sb, 70, 96)
    name = {torch.bfloat16: "bf16", torch.float16: "fp16", torch.float32: "fp32"}[out_dtype]
    want = mxgemm.mxfp8_scaled_mm_reference(a, b, sa, sb, 0.5, name, "e4m3", "e5m2")
    got = ops.mxfp8_scaled_mm_reference(
        torch.from_numpy(a).view(E4M3), torch.from_numpy(b).view(torch.float8_e5m2),
        torch.from_numpy(sa).view(E8M0), torch.from_numpy(sb), torch.tensor(0.5), out_dtype)
    assert got.dtype == out_dtype and got.shape == (129, 70)
    got = got.view(torch.int16).numpy().view(np.uint16) if out_dtype == torch.bfloat16 else got.numpy()
    assert np.array_equal(got, want)


def test_mxlinear_buffers_survive_dtype_casts():
    m = MXLinear(64, 32).to(torch.float16)
    assert m.weight_data.dtype == torch.uint8 and m.weight_scales.dtype == torch.uint8
    assert m.weight_scales.shape == (128, 4) and m.bias.shape == (32,)
    assert "elem_dtype=torch.float8_e4m3fn" in repr(m)
    assert set(m.state_dict()) == {"weight_data", "weight_scales", "bias"}


def test_weight_only_op_fake_shapes_and_checks():
    with FakeTensorMode():
        a = torch.empty((5, 64), device="cuda", dtype=torch.bfloat16)
        w = torch.empty((16, 64), device="cuda", dtype=E4M3)
        s = torch.empty((128, 4), device="cuda", dtype=E8M0)
        alpha = torch.ones((), device="cuda")
        y = ops.mxfp8_weight_only_mm(a, w, s, alpha, torch.empty(16, device="cuda"), torch.float32)
        assert y.shape == (5, 16) and y.dtype == torch.float32
        with pytest.raises(ValueError, match=re.escape(
                "mxfp8_weight_only_mm: bias: expected shape (16,) (one value per row of w), got (15,)")):
            ops.mxfp8_weight_only_mm(a, w, s, alpha, torch.empty(15, device="cuda"))
        with pytest.raises(TypeError, match="mxfp8_weight_only_mm: a.dtype: expected"):
            ops.mxfp8_weight_only_mm(w, w, s, alpha)
        layer = MXLinear(64, 16, weight_only=True, device="cuda")
        assert layer(torch.empty((2, 3, 64), device="cuda", dtype=torch.bfloat16)).shape == (2, 3, 16)


def test_mxlinear_from_mxfp8_keeps_the_checkpoint_bytes():
    data = torch.randint(0, 255, (16, 64), dtype=torch.uint8)
    data[data == 0x7F] = 0  # no NaN codes
    scales = torch.randint(100, 140, (128, 4), dtype=torch.uint8)
    m = MXLinear.from_mxfp8(data.view(E4M3), scales.view(E8M0), torch.arange(16.0))
    assert m.weight_only and m.elem_dtype == E4M3
    assert torch.equal(m.weight_data, data) and torch.equal(m.weight_scales, scales)
    assert torch.equal(m.bias, torch.arange(16.0))
    with pytest.raises(ValueError, match=re.escape("MXLinear.from_mxfp8: weight_scales: expected shape (128, 4)")):
        MXLinear.from_mxfp8(data, scales[:, :3])
