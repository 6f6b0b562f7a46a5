"""The prefill's rotary table (examples/qwen3/prefill_kernels.py ``rotate_rows``,
``PrefillTiles.rotary_table``): the cache write, the queries and the attention read the
cosines and sines of their rows from the decoder's table, so none of their kernels computes a
sine or cosine; the logits, the caches and the tokens after the prefill as with the computed
ones, on the tiny config on the interpreter."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import safetile as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from qwen3 import prefill_kernels as P  # noqa: E402
from qwen3.model import TINY_PREFILL, TINY_TILES, PrefillTiles, Qwen3Decoder  # noqa: E402
from qwen3.reference import TINY, random_weights  # noqa: E402
from test_qwen3_prefill import PROMPT_17, LAUNCHED, replay_prefill_as_the_reference  # noqa: E402

ROTATING = (P.prefill_kv, P.prefill_attention, P.prefill_queries)


@pytest.fixture(scope="module")
def weights() -> dict[str, np.ndarray]:
    return random_weights(TINY, seed=1)


@pytest.mark.parametrize("kernel", ROTATING, ids=lambda k: k.name)
def test_with_the_table_no_prefill_kernel_computes_a_sine_or_cosine(kernel: st.Kernel) -> None:
    with_table, computed = (str(kernel.compile(**LAUNCHED[kernel], TABLE=table)) for table in (1, 0))
    assert "cuda_tile.cos" in computed and "cuda_tile.sin" in computed
    assert "cuda_tile.cos" not in with_table and "cuda_tile.sin" not in with_table
    assert kernel.unsafe_report(**LAUNCHED[kernel], TABLE=1) == []


def test_the_prefill_rotates_with_the_table_by_default() -> None:
    """The picks of session 19's H100 runs (docs/model.md): the table, the queries in the
    attention, the cache written in blocks of 32 rows."""
    assert PrefillTiles().rotary_table and not PrefillTiles().rotated_queries
    assert PrefillTiles().write_rows == 32
    assert TINY_PREFILL.rotary_table  # test_qwen3_prefill.py's prefills (8 launches a layer) take it


def test_the_computed_rotation_prefill_replays_as_the_reference(weights: dict[str, np.ndarray]) -> None:
    """Without the table (``rotary_table=False``) the kernels compute the cosines and sines: 8
    launches a layer, the reference's logits."""
    replay_prefill_as_the_reference(weights, replace(TINY_PREFILL, rotary_table=False), launches_a_layer=8)


@pytest.mark.full  # make test: the replays above (7 CPU-s: three generations on the interpreter)
def test_the_table_prefill_writes_the_caches_and_tokens_of_the_computed_one(weights: dict[str, np.ndarray]) -> None:
    """The caches the table's prefill writes are the computed rotation's (to f32 rounding of the
    two ways' cosines), and the decode continuing from them gives token-by-token decode's tokens."""
    runs = []
    for table in (False, True):
        d = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=32, tiles=TINY_TILES,
                         prefill_tiles=replace(TINY_PREFILL, rotary_table=table))
        runs.append((d.generate(PROMPT_17, 8, prefill=True), [d.read(f"{c}{i}") for i in range(TINY.layers)
                                                               for c in "kv"]))
    (computed, computed_caches), (tokens, caches) = runs
    for a, b in zip(caches, computed_caches):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    assert tokens == computed
    d = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=32, tiles=TINY_TILES, prefill_tiles=TINY_PREFILL)
    assert tokens == d.generate(PROMPT_17, 8)
