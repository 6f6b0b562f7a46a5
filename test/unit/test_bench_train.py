"""bench/train.py's ``--steady`` rounds: every run's step timed again after all of them, each round
running every step ``count`` times back to back, the runs' order rotated a round (so no run is
always the one right after another's, nor always the first)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import train  # noqa: E402


def test_steady_rounds_time_every_step_in_rotated_order() -> None:
    calls: list[str] = []

    def step_of(name: str) -> Any:
        def step(inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
            calls.append(name)
            return inputs

        return step

    data = [(torch.zeros(1), torch.zeros(1))] * train.POOL
    steps = {name: step_of(name) for name in ("a", "b", "c")}
    result = train.steady_rounds(steps, data, "cpu", rounds=3, count=2)
    assert calls == ["a"] * 2 + ["b"] * 2 + ["c"] * 2 + ["b"] * 2 + ["c"] * 2 + ["a"] * 2 + \
        ["c"] * 2 + ["a"] * 2 + ["b"] * 2
    assert list(result) == ["a", "b", "c"]
    for rounds in result.values():
        assert len(rounds) == 3
        for r in rounds:
            assert r["call_ms_min"] <= r["call_ms_median"] <= r["call_ms_max"]
            assert r["wall_ms_per_step"] >= r["call_ms_min"]
