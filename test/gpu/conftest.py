"""GPU tests: run where kernels run on a GPU, or to fill a cubin cache.

Tests marked ``gpu`` are skipped unless the runtime's backend is ``cuda`` —
or ``$SAFETILE_AOT_ARCHS`` is set: then the numpy-only ones run on the CPU
interpreter and every variant they launch is also compiled for those archs
into the cache (``build_cache.py`` does this), so that a GPU machine without
``tileiras`` finds every cubin it needs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))


def building_cache() -> bool:
    return bool(os.environ.get("SAFETILE_AOT_ARCHS"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from safetile.runtime import select_backend

    if building_cache():
        return
    try:
        on_gpu = select_backend() == "cuda"
    except Exception as err:  # noqa: BLE001 - report why, as a skip
        reason = f"no GPU backend: {err}"
        on_gpu = False
    else:
        reason = "no GPU: the runtime runs kernels on the CPU interpreter"
    if not on_gpu:
        for item in items:
            if "gpu" in item.keywords:
                item.add_marker(pytest.mark.skip(reason=reason))
