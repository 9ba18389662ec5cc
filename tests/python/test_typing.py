"""The package's types as editors and type checkers see them (PEP 561): the installed package
carries py.typed and the stub of its C++ module, the stub declares all that the module has,
the public Python functions are annotated, and mypy reads them. Runs everywhere (no torch or
GPU needed: the torch modules are read as source, not imported)."""

import ast
import importlib.util
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

import mxgemm
from mxgemm import _core

PACKAGE = pathlib.Path(mxgemm.__file__).parent
# The modules whose public functions users call; ops and nn import torch, so they are parsed.
PYTHON_MODULES = ["__init__.py", "_host.py", "_shapes.py", "ops.py", "nn.py"]


def _parse(name):
    path = PACKAGE / name
    assert path.is_file(), f"{path}: missing from the installed package"
    return ast.parse(path.read_text(), filename=str(path))


def test_the_installed_package_is_marked_typed():
    assert (PACKAGE / "py.typed").is_file(), f"{PACKAGE}: no py.typed marker"


def test_the_core_stub_declares_every_public_name_of_the_module():
    declared = set()
    for node in _parse("_core.pyi").body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            declared.add(node.target.id)
        elif isinstance(node, ast.Assign):
            declared.update(t.id for t in node.targets)
    public = {name for name in dir(_core) if not name.startswith("_")}
    assert public, "the module _core has no public names"
    assert public - declared == set(), "names of _core that its stub does not declare"


def _public_functions(tree):
    """(qualified name, def node) of public top-level functions and public classes' methods."""
    for node in tree.body:
        # A module's __getattr__ (the lazy torch names in __init__) is public too.
        if isinstance(node, ast.FunctionDef) and (node.name == "__getattr__"
                                                  or not node.name.startswith("_")):
            yield node.name, node
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and (item.name == "__init__"
                                                          or not item.name.startswith("_")):
                    yield f"{node.name}.{item.name}", item


@pytest.mark.parametrize("module", PYTHON_MODULES)
def test_public_python_functions_are_annotated(module):
    missing = []
    for name, fn in _public_functions(_parse(module)):
        args = fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs
        for arg in args:
            if arg.annotation is None and arg.arg not in ("self", "cls"):
                missing.append(f"{name}({arg.arg})")
        if fn.returns is None:
            missing.append(f"{name} -> ?")
    assert missing == []


def _mypy_strict(tmp_path):
    """mypy --strict on tmp_path/client.py: (output, its reveal_type notes, its errors). Run
    from tmp_path, so that mypy finds the installed package, not the source tree's."""
    run = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--strict",
                          "--cache-dir", str(tmp_path / "cache"), "client.py"],
                         cwd=tmp_path, capture_output=True, text=True)
    out = run.stdout + run.stderr
    lines = [line for line in out.splitlines() if line.startswith("client.py:")]
    revealed = [line for line in lines if "note: Revealed type is" in line]
    errors = [line for line in lines if ": error:" in line]
    return out, revealed, errors


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                    reason="mypy is not installed (scripts/test_python.sh installs it when pip "
                           "can reach an index)")
def test_mypy_reads_the_stub_and_rejects_a_wrong_argument(tmp_path):
    (tmp_path / "client.py").write_text(textwrap.dedent("""\
        import numpy as np
        import mxgemm

        x = np.ones((4, 64), dtype=np.float32)
        data, scales = mxgemm.quantize_mxfp8_reference(x, "e4m3", "floor", "linear")
        d = mxgemm.mxfp8_scaled_mm_reference(data, data, scales, scales, 1.0, "fp32")
        reveal_type(d)
        rows, cols = mxgemm.scale_shape(4, 64)
        reveal_type(rows)
        mxgemm.scale_shape("4", 64)
        bits = mxgemm.float32_to_bf16(x)
        reveal_type(bits)
        """))
    out, revealed, errors = _mypy_strict(tmp_path)
    assert len(revealed) == 3, out
    assert "numpy.ndarray" in revealed[0], out
    assert re.search(r'"(builtins\.)?int"', revealed[1]), out
    assert "numpy.ndarray" in revealed[2], out
    # The one wrong call, and nothing else (no "missing library stubs or py.typed marker").
    assert len(errors) == 1 and errors[0].startswith("client.py:10:") and "arg-type" in errors[0], out


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None
                    or importlib.util.find_spec("torch") is None,
                    reason="needs mypy and torch")
def test_mypy_sees_the_lazily_imported_torch_operators(tmp_path):
    (tmp_path / "client.py").write_text(textwrap.dedent("""\
        import torch
        import mxgemm

        a = torch.zeros((4, 64), dtype=torch.float8_e4m3fn)
        s = torch.zeros((128, 4), dtype=torch.float8_e8m0fnu)
        reveal_type(mxgemm.mxfp8_scaled_mm(a, a, s, s, 2.0))
        reveal_type(mxgemm.quantize_mxfp8(torch.ones(4, 64), layout="linear"))
        mxgemm.quantize_mxfp8(torch.ones(4, 64), layout="tiled")
        """))
    out, revealed, errors = _mypy_strict(tmp_path)
    assert len(revealed) == 2 and "Tensor" in revealed[0], out
    assert "tuple[torch._tensor.Tensor, torch._tensor.Tensor]" in revealed[1], out
    # Only the layout that is not one of the Literal choices.
    assert len(errors) == 1 and errors[0].startswith("client.py:8:") and "layout" in errors[0], out
