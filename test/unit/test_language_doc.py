"""Every ``python`` code block of docs/language.md compiles.

Each block is a module: it is written to a file (kernels are read from their
source), imported, and every kernel it defines is compiled for the
specializations it declares.  Fragments that are not whole modules are
marked ``py`` in the guide and skipped.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from safetile.jit import Kernel

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "language.md"
BLOCKS = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.S)


def test_the_guide_has_examples() -> None:
    assert len(BLOCKS) >= 25


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_guide_example_compiles(index: int, tmp_path: Path) -> None:
    path = tmp_path / f"guide_{index}.py"
    path.write_text(BLOCKS[index])
    name = f"safetile_guide_{index}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        kernels = [v for v in vars(module).values() if isinstance(v, Kernel)]
        assert kernels, "a guide example defines no kernel"
        for kernel in kernels:
            assert kernel.specializations, f"{kernel.name} declares no specialization"
            kernel.compile().verify()
    finally:
        del sys.modules[name]
