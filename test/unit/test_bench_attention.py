"""bench/attention_candidates.py's choices, here, without a GPU: which plans a case tries, and which
finalist it picks."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import attention_candidates as ac  # noqa: E402


def _case(causal: int, seq: int = 4096, d: int = 128) -> ac.Case:
    return next(c for c in ac.attention_cases() if c.options["causal"] == causal and c.shape[1:] == (seq, d))


def test_the_reversed_plans_are_tried_causal_only_and_a_confirming_run_tries_the_shipped_one() -> None:
    unmasked, causal = ac.candidates(_case(0)), ac.candidates(_case(1))
    assert not any(p.reverse for p in unmasked) and any(p.reverse for p in causal)
    assert set(unmasked) < set(causal) == set(ac.PLANS_TRIED)
    assert any(p.persistent for p in unmasked)
    assert ac.candidates(_case(1), shipped=True) == (ac.attention_plan(128, True, 4096),)


def test_the_pick_is_the_best_finalist_by_the_headline_the_shipped_one_included() -> None:
    final = {"64x128 O1": dict(burst_ratio=0.92, steady_ratio=0.885),
             "64x128 O1 store-regs": dict(burst_ratio=0.93, steady_ratio=0.75),
             "128x128 O1 store-regs": dict(burst_ratio=0.90, steady_ratio=0.903),
             ac.PEER: dict(burst_ratio=1.0, steady_ratio=1.0)}
    pick = ac.choose(dict(seq=4096, final=final))
    assert (pick["name"], pick["headline"]) == ("128x128 O1 store-regs", "steady_ratio")  # steady from 4096
    assert ac.Plan(**pick["plan"]) == ac.Plan(128, 128, 1, register_store=True)
    assert ac.choose(dict(seq=1024, final=final))["name"] == "64x128 O1 store-regs"  # burst at 1024
