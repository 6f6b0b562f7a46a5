"""A kernel compiled with ``tileiras --sanitize=memcheck`` runs clean under
compute-sanitizer's memcheck."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]


def test_memcheck_finds_no_error() -> None:
    tool = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    if not Path(tool).exists():
        pytest.skip("compute-sanitizer is not installed")
    env = {**os.environ, "SAFETILE_SANITIZE": "memcheck"}
    result = subprocess.run(
        [tool, "--tool", "memcheck", "--error-exitcode", "3", sys.executable, "test/gpu/sanitized.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    print(result.stdout[-2000:], result.stderr[-2000:])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok" in result.stdout and "ERROR SUMMARY: 0 errors" in result.stdout
