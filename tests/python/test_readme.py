"""The README's Python examples run as written: the numpy one everywhere (CI included),
the torch one where torch sees a CUDA device. A README that drifts from the API fails here."""

import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_has_both_examples():
    blocks = python_blocks()
    assert any("import numpy" in b for b in blocks), "README lost its numpy example"
    assert any("import torch" in b for b in blocks), "README lost its torch example"


def test_numpy_example_runs():
    (block,) = [b for b in python_blocks() if "import numpy" in b]
    exec(compile(block, "README.md (numpy example)", "exec"), {})


def test_torch_example_runs():
    torch = pytest.importorskip("torch", reason="torch is not installed")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device (torch.cuda.is_available() is False)")
    (block,) = [b for b in python_blocks() if "import torch" in b]
    scope = {}
    exec(compile(block, "README.md (torch example)", "exec"), scope)
    torch.cuda.synchronize()
    # The example's outputs exist, have the documented shapes and are finite.
    assert scope["y"].shape == (4096, 8192) and scope["y"].dtype == torch.bfloat16
    assert scope["z"].shape == (2, 16, 8192)
    assert torch.isfinite(scope["y"]).all() and torch.isfinite(scope["z"]).all()
