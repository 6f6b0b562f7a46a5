"""The README's example runs as written on the GPU."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))

from test_readme import run_readme_example  # noqa: E402

pytestmark = pytest.mark.gpu


def test_readme_example_runs_on_the_gpu() -> None:
    result = run_readme_example(None)
    assert result.returncode == 0, result.stderr
    if not os.environ.get("SAFETILE_AOT_ARCHS"):  # (filling a cache, it runs on the CPU)
        assert "running kernels on the GPU" in result.stderr
    assert result.stdout.strip().startswith("[2. 2. 2.")
