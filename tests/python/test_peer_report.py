"""bench/peers/report.py (issue #8) on a synthetic results file: the README table (ratios to
cuBLAS bf16, n/a and WRONG cells), the README update between the markers, the schema check,
and one PNG per suite. Needs no GPU."""

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
    assert "commit 0123456789ab" in text and "20.0 us (2.00x)" in text
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
