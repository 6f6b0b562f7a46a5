"""The prefill's GEMMs on tiles picked for their waves (``WAVE_PLANS``, the default at Qwen3-4B's
512 tokens) or forced (``PrefillTiles``' ``down_split_tile``, ``o_split_tile``, ``gate_up_tile``;
session 19): split-K over every tile column in two launches, the logits as the reference's, and
the refusals of tiles that do not fit."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import safetile as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from qwen3.model import TINY_PREFILL, TINY_TILES, WAVE_PLANS, PrefillTiles, Qwen3Decoder  # noqa: E402
from qwen3.reference import TINY, forward, random_weights  # noqa: E402

PROMPT_17 = [5, 17, 99, 3, 64, 12, 100, 7, 7, 31, 2, 88, 127, 0, 45, 9, 71]


@pytest.mark.full  # an interpreter replay of new variants (~1.5-3 CPU-s); the plan's test below is the smoke
def test_split_k_over_every_column_prefills_as_the_reference_in_two_launches() -> None:
    """Down and o_proj with every tile column split (``(S, C)`` with ``C`` all of them: split-K):
    the partials and their sum with the residual, no launch between them (the one-launch GEMM's
    tiles would all take no K step), so 10 launches a layer against split columns' 12; down on a
    forced 16 x 32 tile in 3 splits, o_proj on 16 x 16 in 2; gate/up on a forced 16 x 16 tile."""
    weights = random_weights(TINY, seed=1)
    tiles = replace(TINY_PREFILL, down_split=(3, 2), down_split_tile=(16, 32), o_split=(2, 4),
                    o_split_tile=(16, 16), gate_up_tile=(16, 16))
    d = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=32, tiles=TINY_TILES, prefill_tiles=tiles)
    assert d._residual_plan("down", 32) == ((16, 32), 3, 2)
    graph = d.record_prefill(PROMPT_17)
    assert graph.what == f"{10 * TINY.layers + 7} recorded ops"
    graph.replay()
    graph.release()
    np.testing.assert_allclose(d.read("logits"), forward(TINY, weights, PROMPT_17)[-1], rtol=1e-4, atol=1e-4)


def test_forced_tiles_are_taken_and_checked() -> None:
    """Qwen3-4B at 512 rows: down's forced 128 x 256 split tile (16-row packed tiles: 16 of them
    fit), the tile the fitted rule would not take (64 x 128); o_proj's 8-row packed tiles hold 128
    columns at most; a tile's rows at most ``rows``; gate/up's forced tile whatever the length."""
    tiles = PrefillTiles(down_split=(3, 10), down_split_tile=(128, 256), gate_up_tile=(64, 128))
    assert tiles.residual_plan("down", 512, 2560, 9728, 16) == ((128, 256), 3, 10)
    assert [tiles.up_tile(rows, 9728, 16) for rows in (512, 8192)] == [(64, 128), (64, 128)]
    with pytest.raises(ValueError, match=r"o_split_tile=\(128, 256\)\): .* at most 128 .* pick e.g. \(128, 128\)"):
        PrefillTiles(o_split=(3, 10), o_split_tile=(128, 256)).residual_plan("o", 512, 2560, 4096, 8)
    with pytest.raises(ValueError, match=r"down_split_tile=\(256, 128\)\): its rows must be at most rows \(128\)"):
        PrefillTiles(down_split=(3, 20), down_split_tile=(256, 128)).residual_plan("down", 512, 2560, 9728, 16)


def test_qwen3_4b_at_512_tokens_takes_the_measured_wave_plans() -> None:
    """The default at Qwen3-4B's 512 padded rows (on an H100 9.92 against 11.23 ms, session 19):
    down split-K in 3 on 128 x 256 (120 blocks), o_proj in 3 on 128 x 128 (240), gate/up stacked
    128 x 128 a weight (304 blocks); at 2,048 rows, other shapes, without ``wave_plans`` or
    ``fit``, or with a tile the packed weights do not allow, the rule's tiles as before."""
    tiles = PrefillTiles()
    assert tiles.residual_plan("down", 512, 2560, 9728, 16) == ((128, 256), 3, 10)
    assert tiles.residual_plan("o", 512, 2560, 4096, 8) == ((128, 128), 3, 20)
    assert tiles.up_tile(512, 9728, 16, 2560) == (128, 128)
    assert PrefillTiles(plan_rows=512).residual_plan("down", 128, 2560, 9728, 16) == ((128, 256), 3, 10)
    assert tiles.residual_plan("down", 2048, 2560, 9728, 16) == ((128, 256), 4, 2)
    assert tiles.residual_plan("down", 512, 5120, 17408, 16) == PrefillTiles(wave_plans=False).residual_plan(
        "down", 512, 5120, 17408, 16)  # Qwen3-14B's down: not measured
    assert tiles.up_tile(512, 9728, 16) == tiles.up_tile(512, 9728, 16, 4096) == (128, 64)
    for off in (PrefillTiles(wave_plans=False), PrefillTiles(split_columns=False, wave_plans=False)):
        assert off.residual_plan("down", 512, 2560, 9728, 16) == ((64, 128), 0, 0)
        assert off.up_tile(512, 9728, 16, 2560) == (128, 64)
    assert PrefillTiles(fit=False).residual_plan("down", 512, 2560, 9728, 16) == ((128, 128), 0, 0)
    assert PrefillTiles(packed_tiles=8).residual_plan("down", 512, 2560, 9728, 16) == ((64, 128), 0, 0)
    assert PrefillTiles(up_stacked=False, up_joined=True).up_tile(512, 9728, 16, 2560) == (128, 64)
    assert set(WAVE_PLANS) == {(512, 2560, 9728), (512, 2560, 4096), (512, 9728, 2560)}
