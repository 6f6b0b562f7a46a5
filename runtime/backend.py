"""Backend selection: which machine runs the kernels.

Two backends: ``cuda`` (an NVIDIA GPU through cuda-python,
``runtime/cuda/``) and ``cpu`` (the numpy interpreter, ``runtime/cpu.py``),
each implementing ``interface.py`` (re-exported here).  The GPU is used
wherever cuda-python finds a device; ``SAFETILE_BACKEND=cpu`` or ``=cuda``
forces one (forcing ``cuda`` without a GPU is an error saying why).  The
choice is announced once per process on stderr, at the first kernel launch
(``announce``; allocating and reading tensors say nothing).
"""

from __future__ import annotations

import os
import sys

from .interface import Backend, Launcher, ParamTemplate
from .stream import Stream, make_streams_with

ENV = "SAFETILE_BACKEND"
NAMES = {"cpu": "cpu", "gpu": "cuda", "cuda": "cuda"}

__all__ = ["ENV", "NAMES", "Backend", "Launcher", "ParamTemplate", "announce", "current_backend", "select_backend"]

_current: Backend | None = None


def select_backend() -> str:
    """The name of the backend in use (``"cuda"`` or ``"cpu"``), choosing it the first time."""
    return current_backend().name


_announced = False


def current_backend() -> Backend:
    """The backend in use, chosen on first use."""
    global _current
    if _current is None:
        _current = _choose()
    return _current


def announce() -> None:
    """Print, once per process, which machine runs the kernels (the first launch calls it)."""
    global _announced
    if not _announced:
        _announced = True
        print(f"safetile: {current_backend().describe()}", file=sys.stderr)


def _choose() -> Backend:
    wanted = os.environ.get(ENV, "").strip().lower()
    if wanted and wanted not in NAMES:
        raise ValueError(f"{ENV}={wanted!r}: expected one of cpu, cuda (or gpu)")
    if NAMES.get(wanted) == "cpu":
        from .cpu import CpuBackend

        return CpuBackend(f"{ENV}={wanted}")
    from .cuda.driver import NoGpu

    try:
        from .cuda.backend import CudaBackend

        return CudaBackend()
    except NoGpu as err:
        if wanted:
            raise RuntimeError(f"{ENV}={wanted} but there is no usable GPU: {err}; use {ENV}=cpu") from None
        from .cpu import CpuBackend

        return CpuBackend(f"no GPU: {err}")


def _new_stream(name: str) -> Stream:
    return current_backend().new_stream(name)


make_streams_with(_new_stream)
