"""examples/fp8_gemm.py's shipped ``scaled_mm``, on the CPU interpreter.

``scaled_mm`` runs ``persistent_fp8_gemm`` (the H100's best of session 18: 0.90 of
``torch._scaled_mm`` in burst against 0.84 one block a tile, docs/benchmarks.md §4) on
``min(tiles, SMS)`` blocks, so a grid of fewer blocks than tiles walks them all."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile import f32

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import run_all  # noqa: E402

FP8 = run_all.load_example("fp8_gemm")


@pytest.mark.parametrize(("m", "n", "sms", "grid"), [(130, 260, 4, 4), (100, 70, 132, 1)])
def test_scaled_mm_runs_the_persistent_kernel_on_at_most_one_block_an_sm(
        m: int, n: int, sms: int, grid: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """130 x 260: 2 x 3 tiles of 128x128 on 4 blocks (SMS = 4 here), 2 of which walk two tiles;
    100 x 70: one tile, one block."""
    launched: list[Any] = []
    persistent = FP8.persistent_fp8_gemm

    def spy(*args: Any, **kwargs: Any) -> Any:
        launched.append(kwargs["grid"])
        return persistent(*args, **kwargs)

    monkeypatch.setattr(FP8, "persistent_fp8_gemm", spy)
    monkeypatch.setattr(FP8, "SMS", sms)
    rng = np.random.default_rng(m)
    x = st.from_numpy(rng.standard_normal((m, 96)).astype(np.float32), st.f8e4m3fn).sync()
    w = st.from_numpy(rng.standard_normal((n, 96)).astype(np.float32), st.f8e4m3fn).sync()
    xq, wq = x.numpy().astype(np.float64), w.numpy().astype(np.float64)  # the values e4m3 holds
    z = st.full((m, n), np.nan, f32).sync()
    got = FP8.scaled_mm(z, x, w, 0.5, 0.25).sync()[0].unpartition().numpy()
    assert launched == [(grid,)]
    assert run_all.max_error(got, xq @ wq.T * 0.125) <= 1e-3
