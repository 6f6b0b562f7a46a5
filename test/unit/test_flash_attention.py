"""examples/flash_attention.py beyond its numpy cases (test_runtime_examples.py): the output's tile
must be whole query rows, every launch order (reversed and persistent too) keeps one writer a tile,
and ``attention`` launches the plan the H100 run picked for the shape."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import safetile as st
from safetile.backend.bytecode import write_bytecode
from safetile.dialects.cuda_tile.ops.structure import ModuleOp as TileModuleOp
from safetile.frontend.kernel import context
from safetile.passes.partition_disjointness import PartitionDisjointness
from support import load_example

FLASH = load_example("flash_attention").flash_attention


def _spec(shape: tuple[int, ...], tile: tuple[int, ...] | None = None) -> st.TensorSpec:
    strides = tuple(math.prod(shape[i + 1:]) for i in range(len(shape)))
    return st.TensorSpec(st.f16, shape, strides, tile, True)


def _values(o_tile: int, order: int, heads: int = 2, seq: int = 64, d: int = 32) -> dict[str, Any]:
    q = _spec((heads, seq, d))
    return dict(o=_spec((heads, seq * d), (1, o_tile)), q=q, k=q, v=q, E=st.f16, BN=32, D=d, CAUSAL=1, GROUP=1,
                ORDER=order)


def test_an_output_tile_shorter_than_a_query_row_is_refused_naming_the_fix() -> None:
    with pytest.raises(st.CompileError, match=r"o's tile \(1, 16\) is not whole query rows of D = 32: partition "
                                              r"the \[heads, S \* D\] output into \(1, BM \* D\) tiles"):
        FLASH.compile_variant(**_values(16, 1))


@pytest.mark.parametrize(("order", "proof"), [(0, "mut"), (1, "mut grouped(1)"), (4, "mut grouped(4)")])
def test_every_launch_order_is_proved_one_writer_a_tile(order: int, proof: str, capsys: Any) -> None:
    variant = FLASH.specialize(**_values(32 * 32, order))
    PartitionDisjointness(report=True).apply(context(), ModuleOp([TileModuleOp("m", [variant.entry.clone()])]))
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"{proof}: ") and line.endswith("store to 'o'")


FA = load_example("flash_attention")
RESULTS = Path(__file__).resolve().parents[2] / "docs" / "results" / "attention-h100-2026-11-28-s8" / "candidates.json"


def _attention_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: bool) -> np.ndarray:
    logits = np.einsum("bsd,btd->bst", q.astype(np.float64), k.astype(np.float64)) / math.sqrt(q.shape[2])
    if causal:
        logits = np.where(np.tril(np.ones(logits.shape[1:], bool)), logits, -np.inf)
    p = np.exp(logits - logits.max(axis=2, keepdims=True))
    return np.einsum("bst,btd->bsd", p / p.sum(axis=2, keepdims=True), v.astype(np.float64))


def _attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: bool) -> np.ndarray:
    bh, seq, d = q.shape
    o = st.full((bh, seq * d), math.nan, st.f16).sync()
    tensors = [st.from_numpy(a, st.f16).sync() for a in (q, k, v)]
    out = FA.attention(o, *tensors, 1 / math.sqrt(d), causal=causal).sync()[0]
    assert out.shape == (1, FA.attention_plan(d, causal, seq).bm * d)  # the plan's query tile
    return out.unpartition().numpy().reshape(bh, seq, d)


@pytest.mark.parametrize(("d", "causal", "seq", "rule"), [(64, False, 1024, 0), (64, False, 2048, 0),
                                                          (64, False, 2049, 1), (64, True, 6144, 0),
                                                          (64, True, 6145, 1), (128, False, 32768, 1)])
def test_the_plan_follows_the_sequence_length(d: int, causal: bool, seq: int, rule: int) -> None:
    assert FA.attention_plan(d, causal, seq) == FA.PLANS[(d, int(causal))][rule][1]


def test_a_head_dimension_not_measured_gets_the_default_plan() -> None:
    assert FA.attention_plan(32, True, 1024) == FA.DEFAULT_PLAN


def test_the_plans_are_the_h100_runs_picks() -> None:
    """Each measured case's plan is the one ``bench/attention_candidates.py`` picked on the H100
    (docs/benchmarks.md section 5, session 18): change the table with a new run's results."""
    rows = json.loads(RESULTS.read_text())["rows"]
    assert len(rows) == 12
    for row in rows:
        picked = FA.Plan(**row["pick"]["plan"])
        assert FA.attention_plan(row["d"], bool(row["causal"]), row["seq"]) == picked, row["case"]
    # session 18's reversed order is the pick at every causal case; its persistent kernel at d64 unmasked S >= 4096
    assert all(FA.attention_plan(d, True, s).reverse for d in (64, 128) for s in (1024, 4096, 8192))
    assert FA.attention_plan(64, False, 4096).persistent


@pytest.mark.parametrize("causal", [False, pytest.param(True, marks=pytest.mark.full)])
def test_attention_launches_its_plan_and_matches_numpy(causal: bool) -> None:
    rng = np.random.default_rng(5)
    q, k, v = (rng.standard_normal((1, 70, 64)).astype(np.float16) for _ in range(3))
    assert np.abs(_attention(q, k, v, causal) - _attention_ref(q, k, v, causal)).max() < 2e-2


@pytest.mark.parametrize("plan", [FA.Plan(32, 32, 1, register_store=True, latency=2),
                                  pytest.param(FA.Plan(32, 32, 1, register_store=True, latency=2, reverse=True,
                                                       persistent=True), marks=pytest.mark.full),
                                  pytest.param(FA.Plan(32, 32, 0, register_store=True, latency=2, reverse=True),
                                               marks=pytest.mark.full)])
def test_a_plan_with_every_hint_stays_safe_at_no_cost(plan: Any) -> None:
    """The hints a plan adds (stores from registers, the loads' latency) and its orders (reversed,
    persistent) change no check: nothing is left unsafe, and the safe build is the unchecked one."""
    kernel = FA.planned_kernel(plan)
    values = _values(32 * 32, plan.order) | plan.generics()
    safe = kernel.compile_variant(**values)
    assert "allow_tma = false" in safe.ir() and "latency = 2" in safe.ir()  # the plan's hints are there
    assert kernel.unsafe_report(**values) == [] and "assert" not in safe.ir()
    unchecked = kernel.with_options(unchecked_accesses=True).compile_variant(**values)
    assert write_bytecode(safe.module, "13.4") == write_bytecode(unchecked.module, "13.4")


def _launch(plan: Any, q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: bool, **grid: Any) -> np.ndarray:
    bh, seq, d = q.shape
    o = st.full((bh, seq * d), math.nan, st.f16).sync()
    tensors = [st.from_numpy(a, st.f16).sync() for a in (q, k, v)]
    if grid:  # a persistent plan on fewer blocks than its launcher gives it
        kernel, partition = FA.planned_kernel(plan), o.partition((1, plan.bm * d))
        out = kernel(partition, *tensors, 1 / math.sqrt(d), CAUSAL=int(causal), GROUP=1, **plan.generics(),
                     **grid).sync()[0]
    else:
        out = FA.launch_plan(plan, o, *tensors, 1 / math.sqrt(d), causal=causal).sync()[0]
    return out.unpartition().numpy().reshape(bh, seq, d)


@pytest.mark.parametrize(("plan", "causal", "grid"), [
    pytest.param(FA.Plan(32, 32, 0, reverse=True), True, {}, marks=pytest.mark.full),
    (FA.Plan(32, 32, 1, reverse=True, persistent=True), True, {"grid": (3,)}),
    pytest.param(FA.Plan(32, 32, 0, persistent=True), False, {}, marks=pytest.mark.full),
    pytest.param(FA.Plan(32, 16, 2, reverse=True, persistent=True), True, {"grid": (5,)}, marks=pytest.mark.full),
])
def test_reversed_and_persistent_plans_match_numpy(plan: Any, causal: bool, grid: dict[str, Any]) -> None:
    """Every query tile written once (the output NaN-poisoned), by a block a tile or by a few blocks
    walking several, from the last query tile or the first."""
    rng = np.random.default_rng(7)
    q, k, v = (rng.standard_normal((3, 70, 32)).astype(np.float16) for _ in range(3))
    assert np.abs(_launch(plan, q, k, v, causal, **grid) - _attention_ref(q, k, v, causal)).max() < 2e-2


@pytest.mark.parametrize(("plan", "proof"), [(FA.Plan(32, 32, 0, reverse=True), "mut grouped(4096, reverse)"),
                                             pytest.param(FA.Plan(32, 32, 4, reverse=True), "mut grouped(4, reverse)",
                                                          marks=pytest.mark.full),
                                             pytest.param(FA.Plan(32, 32, 1, persistent=True), "mapped grouped(1)",
                                                          marks=pytest.mark.full),
                                             (FA.Plan(32, 32, 0, reverse=True, persistent=True),
                                              "mapped grouped(4096, reverse)")])
def test_reversed_and_persistent_orders_are_proved_one_writer_a_tile(plan: Any, proof: str, capsys: Any) -> None:
    kernel = FA.persistent_flash_attention if plan.persistent else FLASH
    variant = kernel.specialize(**(_values(32 * 32, plan.order) | plan.generics()))
    PartitionDisjointness(report=True).apply(context(), ModuleOp([TileModuleOp("m", [variant.entry.clone()])]))
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"{proof}: ") and line.endswith("store to 'o'")


def test_a_persistent_plan_launches_one_wave_at_most() -> None:
    assert FA.Plan(64, 128, 1, persistent=True).grid(32, 1024) == {"grid": (2 * FA.SMS,)}  # occupancy 2
    assert FA.Plan(128, 128, 1, persistent=True).grid(32, 8192) == {"grid": (FA.SMS,)}
    assert FA.Plan(128, 128, 1, persistent=True).grid(2, 300) == {"grid": (6,)}  # fewer query tiles than SMs
    assert FA.Plan(128, 128, 1).grid(32, 1024) == {}  # a block a query tile: the partition's grid
    with pytest.raises(ValueError, match="persistent_flash_attention: it is no config of flash_attention"):
        FA.Plan(64, 128, 1, persistent=True).config(64)
