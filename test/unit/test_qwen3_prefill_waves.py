"""The prefill's GEMMs on tiles forced for their waves (``PrefillTiles``' ``down_split_tile``,
``o_split_tile``, ``gate_up_tile``; session 19): split-K over every tile column in two launches,
the logits as the reference's, and the refusals of tiles that do not fit."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import safetile as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from qwen3.model import TINY_PREFILL, TINY_TILES, PrefillTiles, Qwen3Decoder  # noqa: E402
from qwen3.reference import TINY, forward, random_weights  # noqa: E402

PROMPT_17 = [5, 17, 99, 3, 64, 12, 100, 7, 7, 31, 2, 88, 127, 0, 45, 9, 71]


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
