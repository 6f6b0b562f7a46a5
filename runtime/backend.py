"""Backend selection: which machine runs the kernels.

Only the CPU interpreter exists so far, so it is used wherever no GPU
backend is available, or on request (``SAFETILE_BACKEND=cpu``).  The choice is
announced once per process on stderr.
"""

from __future__ import annotations

import os
import sys

KNOWN = ("cpu",)
_announced: str | None = None


def gpu_available() -> bool:
    """Whether a GPU backend can run kernels (none is implemented yet)."""
    return False


def select_backend() -> str:
    """The backend name (``"cpu"``), announcing it the first time."""
    global _announced
    wanted = os.environ.get("SAFETILE_BACKEND", "").strip().lower()
    if wanted and wanted not in KNOWN + ("gpu", "cuda"):
        raise ValueError(f"SAFETILE_BACKEND={wanted!r}: expected one of cpu, gpu")
    if wanted in ("gpu", "cuda") and not gpu_available():
        raise RuntimeError("SAFETILE_BACKEND=gpu but no GPU backend is available; use SAFETILE_BACKEND=cpu")
    name = "cpu"
    if _announced is None:
        why = "SAFETILE_BACKEND=cpu" if wanted == "cpu" else "no GPU backend available"
        print(f"safetile: running kernels on the CPU interpreter ({why})", file=sys.stderr)
        _announced = name
    return name
