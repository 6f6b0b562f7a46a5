"""The README's example runs as written (here on the CPU interpreter;
test/gpu/test_readme_gpu.py runs it on a GPU)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_readme_example(backend: str | None) -> subprocess.CompletedProcess[str]:
    """Write the README's Python block to build/readme_example.py and run it from the root
    (a fixed relative path: the IR, and so the cubin cache key, are the same on every machine)."""
    block = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert block is not None, "README.md has no python example"
    script = ROOT / "build" / "readme_example.py"
    script.parent.mkdir(exist_ok=True)
    script.write_text(block.group(1))
    env = dict(os.environ)
    if backend is not None:
        env["SAFETILE_BACKEND"] = backend
    return subprocess.run([sys.executable, "-P", str(script.relative_to(ROOT))], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_readme_example_runs() -> None:
    result = run_readme_example("cpu")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().startswith("[2. 2. 2.")
