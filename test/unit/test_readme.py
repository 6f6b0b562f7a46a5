"""The README's example runs as written (here on the CPU interpreter, in this process as the
docs' examples run: test_docs_snippets.py; test/gpu/test_readme_gpu.py runs it on a GPU as a
process of its own)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_docs_snippets import run_block

ROOT = Path(__file__).resolve().parents[2]


def readme_block() -> str:
    block = re.search(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert block is not None, "README.md has no python example"
    return block.group(1)


def run_readme_example(backend: str | None) -> subprocess.CompletedProcess[str]:
    """Write the README's Python block to build/readme_example.py and run it from the root
    (a fixed relative path: the IR, and so the cubin cache key, are the same on every machine)."""
    script = ROOT / "build" / "readme_example.py"
    script.parent.mkdir(exist_ok=True)
    script.write_text(readme_block())
    env = dict(os.environ)
    if backend is not None:
        env["SAFETILE_BACKEND"] = backend
    return subprocess.run([sys.executable, "-P", str(script.relative_to(ROOT))], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_readme_example_runs(tmp_path: Path, cubin_cache: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    run_block(readme_block(), "safetile_readme", tmp_path, cubin_cache, monkeypatch)
    assert capsys.readouterr().out.strip().startswith("[2. 2. 2.")
