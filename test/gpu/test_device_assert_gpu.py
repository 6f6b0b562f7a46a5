"""A failing in-kernel check on the GPU names the kernel line (device printf and the raised error)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]


def test_a_failing_device_assert_names_the_kernel_line() -> None:
    result = subprocess.run([sys.executable, "-P", "test/gpu/device_assert.py"], cwd=ROOT, env=dict(os.environ),
                            capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    print(output[-3000:])
    assert result.returncode != 0 and "in range ok" in result.stdout
    line = next(n for n, text in enumerate((ROOT / "test/gpu/device_assert.py").read_text().splitlines(), 1)
                if "x.partition((16,)).load((i,))" in text)
    assert re.search(rf"device_assert\.py:{line}:\d+", output), output
    assert "tile index" in output
