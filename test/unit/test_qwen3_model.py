"""The Qwen3 decoder (examples/qwen3/model.py) at a tiny config against the numpy reference:
the same greedy tokens, the same logits, from one recorded graph replayed per position."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import safetile as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from dataclasses import replace  # noqa: E402

from qwen3 import kernels as K  # noqa: E402
from qwen3.model import TINY_TILES, Qwen3Decoder  # noqa: E402
from qwen3.reference import TINY, TINY_GROUP3, greedy, random_weights  # noqa: E402

PROMPT = [5, 17, 99, 3, 64]


@pytest.fixture(scope="module")
def weights() -> dict[str, np.ndarray]:
    return random_weights(TINY, seed=1)


TILES = {"default": TINY_TILES,
         "kv_append, reduce, sin/cos": replace(TINY_TILES, fused_append=False, products=K.REDUCE, rope_table=False),
         "rows": replace(TINY_TILES, products=K.ROWS), "prefetch branch": replace(TINY_TILES, prefetch_rows=16),
         "early reads through TMA": replace(TINY_TILES, early=2, early_tma=True, up_early=2, up_early_tma=True,
                                                    down_early=3, down_early_tma=True, o_early=1, o_early_tma=True),
         "no early reads": replace(TINY_TILES, early=0, up_early=0, down_early=0, o_early=0), "plain weights": replace(TINY_TILES, packed=False),
         "QKV, gate/up and down in their own row tiles": replace(TINY_TILES, qkv_rows=32, up_rows=8, down_rows=8)}


@pytest.mark.parametrize(
    "tiles",
    [pytest.param(tiles, id=name, marks=() if name == "default" else pytest.mark.full) for name, tiles in TILES.items()],
)  # make test decodes with the default tiles; make test-full with each variant
def test_greedy_decode_matches_the_numpy_reference(weights: dict[str, np.ndarray], tiles) -> None:  # noqa: ANN001
    decoder = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=32, tiles=tiles)
    steps = 12  # positions 0 .. 15: two key tiles of 8, the second filling up
    tokens = decoder.generate(PROMPT, steps)
    expected, logits = greedy(TINY, weights, PROMPT, steps)
    assert tokens == expected
    assert len(set(tokens)) > 3  # the weights do not just repeat one token
    np.testing.assert_allclose(decoder.read("logits"), logits, rtol=1e-4, atol=1e-4)


@pytest.mark.full  # make test keeps the group of three's prefill (its logits) and its attention kernels' cases
@pytest.mark.parametrize("tiles", [TINY_TILES, replace(TINY_TILES, fused_append=False, products=K.REDUCE, rope_table=False)],
                         ids=["default", "kv_append, reduce, sin/cos"])
def test_a_group_of_three_query_heads_decodes_as_the_reference(tiles) -> None:  # noqa: ANN001
    """3 query heads per kv head (Qwen3-14B has 5): the attention pads the group's tile to 4 rows,
    the merge takes one query head a block."""
    weights = random_weights(TINY_GROUP3, seed=1)
    decoder = Qwen3Decoder(TINY_GROUP3, weights, dtype=st.f32, max_positions=32, tiles=tiles)
    tokens = decoder.generate(PROMPT, 12)
    expected, logits = greedy(TINY_GROUP3, weights, PROMPT, 12)
    assert tokens == expected
    assert len(set(tokens)) > 3
    np.testing.assert_allclose(decoder.read("logits"), logits, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("fused_append, prefetch_rows, per_layer", [(True, None, 6), (False, None, 7), (True, 16, 7)])
def test_the_step_is_one_graph_of_six_launches_a_layer(weights: dict[str, np.ndarray], fused_append: bool,
                                                        prefetch_rows: int | None, per_layer: int) -> None:
    decoder = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=16,
                           tiles=replace(TINY_TILES, fused_append=fused_append, prefetch_rows=prefetch_rows))
    graph = decoder.record([1])
    assert graph.what == f"{per_layer * TINY.layers + 5} recorded ops"
    graph.release()


def test_the_prefetch_branch_reads_each_layers_o_proj_weights(weights: dict[str, np.ndarray]) -> None:
    """The branch's scratch output holds the row-tile sums of the last layer's o_proj weights:
    its launches ran, over the weights the layer's o_proj then reads."""
    decoder = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=16, tiles=replace(TINY_TILES, prefetch_rows=16))
    decoder.generate(PROMPT, 1)
    o = weights[f"model.layers.{TINY.layers - 1}.self_attn.o_proj.weight"]
    np.testing.assert_allclose(decoder.read("prefetched"), o.reshape(-1, 16, o.shape[1]).sum((1, 2)), rtol=1e-4,
                               atol=1e-4)


@pytest.mark.parametrize(("field", "tiles", "message"), [("o_early", 4, r"o_proj has \(64 / 32\): pick at most 2"),
                                                         ("down_early", 7, r"down has \(96 / 16\): pick at most 6")])
def test_more_early_column_tiles_than_a_projection_has_are_refused(weights: dict[str, np.ndarray], field: str,
                                                                   tiles: int, message: str) -> None:
    with pytest.raises(ValueError, match=rf"Tiles\({field}={tiles}\) reads more column tiles early than {message}"):
        Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=16, tiles=replace(TINY_TILES, **{field: tiles}))


def test_the_prefetch_branch_without_packed_weights_is_refused(weights: dict[str, np.ndarray]) -> None:
    with pytest.raises(ValueError, match=r"reads o_proj's weights packed: Tiles\(packed=True\)"):
        Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=16,
                     tiles=replace(TINY_TILES, prefetch_rows=16, packed=False))


def test_a_generation_past_max_positions_is_refused(weights: dict[str, np.ndarray]) -> None:
    decoder = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=16, tiles=TINY_TILES)
    with pytest.raises(ValueError, match=r"5 prompt tokens and 12 steps exceed max_positions \(16\)"):
        decoder.generate(PROMPT, 12)
    with pytest.raises(ValueError, match="must be a multiple of the key tile"):
        Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=20, tiles=TINY_TILES)
    with pytest.raises(ValueError, match=r"column tile \(48\) must divide the heads x head_dim size \(64\)"):
        Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=16, tiles=replace(TINY_TILES, o_cols=48))


def test_each_projection_is_packed_in_its_own_row_tiles(weights: dict[str, np.ndarray]) -> None:
    """``Tiles(qkv_rows=..., up_rows=..., down_rows=...)`` pack QKV, gate/up and down in their
    own row tiles (make test-full decodes with them against the reference)."""
    tiles = replace(TINY_TILES, qkv_rows=32, up_rows=8, down_rows=8)
    layer = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=16, tiles=tiles).layers[0]
    assert {name: layer[name].shape for name in ("qkv", "gate", "up", "down")} == {
        "qkv": (4, 4, 32, 16), "gate": (12, 4, 8, 16), "up": (12, 4, 8, 16), "down": (8, 6, 8, 16)}
