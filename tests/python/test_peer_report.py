"""bench/peers/report.py (issue #8) on a synthetic results file: the README table (ratios to
cuBLAS bf16, n/a and WRONG cells, event-timed marks), the quantization suite's own table and
plot, the README update between the markers, merging results files, the schema check, and
one PNG per suite. Needs no GPU. Where torch is installed (not in CI), also peer_bench.py's
eager MXFP8 quantizer against the CPU reference, bit for bit."""

import importlib.util
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("peer_report", ROOT / "bench/peers/report.py")
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)


def results(tmp_path):
    runs = []
    for m in (1, 16):
        runs.append({"suite": "llm", "method": "cublas_bf16", "m": m, "n": 8192, "k": 8192,
                     "status": "ok", "median_us": 40.0, "times_us": [40.0, 41.0], "tflops": 1.0})
        runs.append({"suite": "llm", "method": "mxgemm", "m": m, "n": 8192, "k": 8192,
                     "status": "ok", "median_us": 20.0, "times_us": [20.0], "tflops": 2.0})
        runs.append({"suite": "llm", "method": "fp8_blockwise", "m": m, "n": 8192, "k": 8192,
                     "status": "unsupported", "why": "refused"})
        runs.append({"suite": "llm", "method": "triton_dot_scaled", "m": m, "n": 8192, "k": 8192,
                     "status": "wrong", "why": "relative error 0.5"})
    data = {"schema": report.SCHEMA, "git_commit": "0123456789abcdef", "command": "peer_bench.py --suite llm",
            "gpu": {"name": "NVIDIA H200", "driver": "580"}, "versions": {}, "runs": runs}
    path = tmp_path / "peers.json"
    path.write_text(json.dumps(data))
    return path


def test_table_has_ratios_and_marks(tmp_path):
    data = report.load(results(tmp_path))
    text = report.table(data)
    lines = text.splitlines()
    assert lines[0].startswith("| suite | M x N x K | mxgemm MXFP8 | cuBLAS bf16")
    assert "| llm | 1 x 8192 x 8192 | 20.0 us (2.00x) | 40.0 us | n/a | WRONG |" in lines
    assert len(lines) == 4  # header, rule, two shapes


def test_readme_block_is_replaced_between_the_markers(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\nbefore\n{report.TABLE_BEGIN}\nold table\n{report.TABLE_END}\nafter\n")
    path = results(tmp_path)
    report.main([str(path), "--readme", str(readme)])
    text = readme.read_text()
    assert "old table" not in text and "before\n" in text and text.endswith("after\n")
    assert "`peer_bench.py --suite llm` at commit 0123456789ab" in text and "20.0 us (2.00x)" in text
    assert text.count(report.TABLE_BEGIN) == 1


def test_schema_and_markers_are_checked(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"schema": "other", "runs": []}))
    with pytest.raises(ValueError, match="schema: expected 'mxgemm-peer-bench/1', got 'other'"):
        report.load(bad)
    readme = tmp_path / "README.md"
    readme.write_text("no markers\n")
    with pytest.raises(ValueError, match="marker lines"):
        report.update_readme(readme, "x")


def test_the_repository_readme_has_the_markers():
    text = (ROOT / "README.md").read_text()
    assert text.count(report.TABLE_BEGIN) == 1 and text.count(report.TABLE_END) == 1


def test_one_plot_per_suite(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed")
    written = report.plots(report.load(results(tmp_path)), tmp_path / "plots")
    assert [p.name for p in written] == ["peer_llm.png"]
    assert written[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---- the quantization suite, event-timed runs, merging -----------------------------------------


def quant_runs():
    runs = []
    for rows in (1, 2048):
        runs.append({"suite": "quant", "method": "eager_quantize", "m": rows, "n": 0, "k": 8192,
                     "status": "ok", "median_us": 100.0, "times_us": [100.0], "bytes": 1000,
                     "gbps": 10.0, "timing": "graph"})
        runs.append({"suite": "quant", "method": "mxgemm_quantize", "m": rows, "n": 0, "k": 8192,
                     "status": "ok", "median_us": 25.0, "times_us": [25.0], "bytes": 1000,
                     "gbps": 40.0, "timing": "graph"})
        runs.append({"suite": "quant", "method": "compiled_quantize", "m": rows, "n": 0,
                     "k": 8192, "status": "unsupported", "why": "torch.compile failed"})
    return runs


def with_quant(tmp_path, extra=()):
    data = json.loads(results(tmp_path).read_text())
    data["runs"] += quant_runs() + list(extra)
    path = tmp_path / "peers_quant.json"
    path.write_text(json.dumps(data))
    return report.load(path)


def test_quant_runs_get_their_own_table(tmp_path):
    data = with_quant(tmp_path)
    gemm = report.table(data)
    assert "| quant |" not in gemm and "eager PyTorch" not in gemm
    assert len(gemm.splitlines()) == 4  # as without the quantization runs
    lines = report.quant_table(data).splitlines()
    assert lines[0] == "| rows x K | mxgemm quantize | eager PyTorch | torch.compile |"
    assert lines[1] == "|---|---|---|---|"
    assert "| 1 x 8192 | 25.0 us, 40 GB/s (4.00x) | 100.0 us, 10 GB/s | n/a |" in lines
    assert "| 2048 x 8192 | 25.0 us, 40 GB/s (4.00x) | 100.0 us, 10 GB/s | n/a |" in lines
    assert len(lines) == 4
    assert report.table(data, suite="quant") == report.quant_table(data)


def test_quant_table_wrong_and_missing_cells(tmp_path):
    wrong = {"suite": "quant", "method": "eager_quantize", "m": 16, "n": 0, "k": 28672,
             "status": "wrong", "why": "3 codes differ", "median_us": 5.0, "gbps": 1.0}
    data = with_quant(tmp_path, [wrong])
    lines = report.quant_table(data).splitlines()
    # rows sorted by K, then rows; no eager baseline that is ok: no ratio
    assert lines[-1] == "| 16 x 28672 | - | WRONG | - |"


def test_event_timed_runs_are_marked(tmp_path):
    humming = {"suite": "llm", "method": "humming_mxfp8", "m": 1, "n": 8192, "k": 8192,
               "status": "ok", "median_us": 10.0, "times_us": [10.0], "tflops": 1.0,
               "timing": "events", "timing_note": "CUDA graph capture failed"}
    data = with_quant(tmp_path, [humming])
    text = report.table(data)
    assert "humming MXFP8" in text.splitlines()[0]
    assert "| 10.0 us* (4.00x) |" in text
    assert "| 20.0 us (2.00x) |" in text  # graph-timed: no mark
    block = report.readme_block(data, "peers.json")
    assert "*: timed as a loop of launches between CUDA events" in block
    assert "*: timed" not in report.readme_block(with_quant(tmp_path), "peers.json")


def test_readme_block_has_the_quant_table_after_the_gemm_table(tmp_path):
    data = with_quant(tmp_path)
    block = report.readme_block(data, "peers.json")
    assert block.startswith(report.TABLE_BEGIN) and block.endswith(report.TABLE_END)
    gemm_at = block.index("| suite | M x N x K |")
    quant_at = block.index("| rows x K |")
    assert gemm_at < block.index("Quantization, bf16 to MXFP8") < quant_at
    assert "25.0 us, 40 GB/s (4.00x)" in block
    # Without quantization runs, the block is what it always was: no quantization section.
    plain = report.readme_block(report.load(results(tmp_path)), "peers.json")
    assert "Quantization" not in plain and "| rows x K |" not in plain
    # Quantization runs alone: no empty GEMM table.
    only = dict(data, runs=quant_runs())
    assert "| suite | M x N x K |" not in report.readme_block(only, "peers.json")


def test_main_prints_both_tables(tmp_path, capsys):
    data = with_quant(tmp_path)
    path = tmp_path / "both.json"
    path.write_text(json.dumps(data))
    assert report.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "| suite | M x N x K |" in out and "| rows x K |" in out


def test_results_from_before_the_humming_methods_still_render(tmp_path):
    data = report.load(results(tmp_path))
    data["runs"].append({"suite": "llm", "method": "humming", "m": 1, "n": 8192, "k": 8192,
                         "status": "unsupported", "why": "not wired up"})
    header, _, row1, _ = report.table(data).splitlines()
    assert header.endswith("| Triton dot_scaled | humming |") and row1.endswith("| WRONG | n/a |")


def test_merge_replaces_remeasured_runs_and_keeps_the_rest(tmp_path):
    old = with_quant(tmp_path)
    old["created"], old["command"] = "yesterday", "peer_bench.py --suite all"
    old["checks"] = {"gemm": {"shape": [200, 264, 512]}}
    new = {"schema": report.SCHEMA, "git_commit": "fedcba9876543210", "created": "today",
           "command": "peer_bench.py --suite quant --append", "gpu": {"name": "NVIDIA H200"},
           "versions": {}, "checks": {"quant": {"shape": [200, 264]}},
           "runs": [{"suite": "quant", "method": "compiled_quantize", "m": 1, "n": 0, "k": 8192,
                     "status": "ok", "median_us": 50.0, "times_us": [50.0], "bytes": 1000,
                     "gbps": 20.0, "timing": "graph"}]}
    merged = report.merge(old, new)
    assert len(merged["runs"]) == len(old["runs"])  # one run replaced, none lost
    compiled = [r for r in merged["runs"] if r["method"] == "compiled_quantize"]
    assert sorted((r["m"], r["status"]) for r in compiled) == [(1, "ok"), (2048, "unsupported")]
    assert merged["git_commit"] == "fedcba9876543210" and merged["command"].endswith("--append")
    assert merged["history"] == [{"created": "yesterday", "command": "peer_bench.py --suite all",
                                  "git_commit": "0123456789abcdef"}]
    assert set(merged["checks"]) == {"gemm", "quant"}
    row = "| 1 x 8192 | 25.0 us, 40 GB/s (4.00x) | 100.0 us, 10 GB/s | 50.0 us, 20 GB/s (2.00x) |"
    assert row in report.quant_table(merged)
    block = report.readme_block(merged, "peers.json")
    assert ("`peer_bench.py --suite all` at commit 0123456789ab; "
            "`peer_bench.py --suite quant --append` at commit fedcba987654") in block
    # Merging again keeps the whole history.
    again = report.merge(merged, dict(new, created="later"))
    assert [h["created"] for h in again["history"]] == ["yesterday", "today"]


def test_merge_refuses_other_gpus_and_schemas(tmp_path):
    old = report.load(results(tmp_path))
    with pytest.raises(ValueError, match="different GPUs: 'NVIDIA H200' and 'NVIDIA H100'"):
        report.merge(old, dict(old, gpu={"name": "NVIDIA H100"}))
    with pytest.raises(ValueError, match="schema"):
        report.merge(old, dict(old, schema="other"))


def test_one_plot_per_suite_with_the_quant_suite(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed")
    written = report.plots(with_quant(tmp_path), tmp_path / "plots")
    assert [p.name for p in written] == ["peer_llm.png", "peer_quant.png"]
    for p in written:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---- peer_bench.py's eager quantizer (needs torch; skipped in CI) -------------------------------


def load_peer_bench():
    pytest.importorskip("torch", reason="torch is not installed (peer_bench.py needs it)")
    spec = importlib.util.spec_from_file_location("peer_bench", ROOT / "bench/peers/peer_bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def quantizer_input(torch, rows, k, seed):
    """Every binade (bf16 subnormals to near bf16's max), a zero block, rounding ties
    (normal and subnormal), saturation and a negative zero: what peer_bench's check uses."""
    g = torch.Generator().manual_seed(seed)
    nb = -(-k // 32)
    exps = torch.randint(-135, 120, (rows, nb), generator=g).float()
    x = torch.randn((rows, k), generator=g) * torch.exp2(exps).repeat_interleave(32, dim=1)[:, :k]
    x[0, :32] = 0.0
    ties = [464.0, 460.0, 1.0625, 1.1875, -1.0625, -1.1875, 2.0 ** -10, 3 * 2.0 ** -10,
            -3 * 2.0 ** -10, 2.0 ** -12, 256.0, -0.0]
    x[1, :32] = 0.5
    x[1, :min(k, len(ties))] = torch.tensor(ties)[:k]
    return x.to(torch.bfloat16)


@pytest.mark.parametrize("rows,k", [(200, 264), (7, 32), (33, 1024), (5, 40), (3, 20)])
def test_eager_quantizer_matches_the_cpu_reference(rows, k):
    bench = load_peer_bench()
    torch = bench.torch
    x = quantizer_input(torch, rows, k, seed=rows + k)
    for given in (x, x.float() * 3.0):  # bf16, and fp32 off the bf16 grid
        codes, scales = bench.eager_quantize_mxfp8(given)
        assert codes.dtype == torch.float8_e4m3fn and scales.dtype == torch.float8_e8m0fnu
        assert codes.shape == (rows, k) and scales.shape == (rows, -(-k // 32))
        want_codes, want_scales = bench.mxgemm.quantize_mxfp8_reference(
            bench.to_numpy_bits(given), layout="linear")
        assert (codes.view(torch.uint8).numpy() == want_codes).all()
        assert (scales.view(torch.uint8).numpy() == want_scales).all()


def test_eager_quantizer_gives_nonfinite_blocks_the_nan_scale():
    bench = load_peer_bench()
    torch = bench.torch
    x = quantizer_input(torch, 4, 64, seed=0)
    x[2, 3], x[3, 40] = float("nan"), float("-inf")
    _, scales = bench.eager_quantize_mxfp8(x)
    _, want = bench.mxgemm.quantize_mxfp8_reference(bench.to_numpy_bits(x), layout="linear")
    assert (scales.view(torch.uint8).numpy() == want).all()
    assert scales.view(torch.uint8)[2, 0] == 0xFF and scales.view(torch.uint8)[3, 1] == 0xFF


def test_e8m0_scales_decode_exactly():
    bench = load_peer_bench()
    torch = bench.torch
    e = torch.tensor([0, 1, 127, 128, 254, 255], dtype=torch.uint8).view(torch.float8_e8m0fnu)
    got = bench.e8m0_to_float32(e).tolist()
    assert got[:5] == [2.0 ** -127, 2.0 ** -126, 1.0, 2.0, 2.0 ** 127] and got[5] != got[5]
    assert bench.quant_bytes(1, 8192) == 8192 * 2 + 8192 + 256
