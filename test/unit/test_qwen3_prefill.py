"""The Qwen3 prefill (examples/qwen3/prefill_kernels.py, ``Qwen3Decoder.prefill``) at the tiny
config on the interpreter: the prompt's logits in one pass against the numpy reference, and the
decode graph continuing from the caches it wrote gives the tokens of token-by-token decoding."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safetile as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from qwen3 import prefill_kernels as P  # noqa: E402
from qwen3.model import TINY_PREFILL, TINY_TILES, PrefillTiles, Qwen3Decoder  # noqa: E402
from qwen3.reference import TINY, TINY_GROUP3, forward, random_weights  # noqa: E402

PROMPT_17 = [5, 17, 99, 3, 64, 12, 100, 7, 7, 31, 2, 88, 127, 0, 45, 9, 71]


@pytest.fixture(scope="module")
def weights() -> dict[str, np.ndarray]:
    return random_weights(TINY, seed=1)


def decoder(weights: dict[str, np.ndarray], max_positions: int = 32, zeros: Any = None, **tiles: Any) -> Qwen3Decoder:
    return Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=max_positions, tiles=replace(TINY_TILES, **tiles),
                        prefill_tiles=TINY_PREFILL, zeros=zeros)


@pytest.mark.parametrize("prompt", [[42], PROMPT_17], ids=["1 token", "17 tokens"])
def test_prefill_logits_match_the_numpy_reference(weights: dict[str, np.ndarray], prompt: list[int]) -> None:
    d = decoder(weights)
    d.record(prompt, prefill=True).release()
    logits = forward(TINY, weights, prompt)[-1]
    np.testing.assert_allclose(d.read("logits"), logits, rtol=1e-4, atol=1e-4)
    assert int(d.read("tokens")[len(prompt)]) == int(np.argmax(logits))
    assert int(d.read("pos")[0]) == len(prompt)  # the graph continues at the next position


@pytest.mark.parametrize("packed", [True, pytest.param(False, marks=pytest.mark.full)], ids=["packed", "plain"])
def test_prefill_then_decode_gives_the_tokens_of_token_by_token_decode(weights: dict[str, np.ndarray],
                                                                       packed: bool) -> None:
    """17 prompt tokens (two prefill row tiles, the second partial) and 8 generated: the cache rows
    the prefill wrote are the ones the decode's own appends would have written."""
    expected = decoder(weights, packed=packed).generate(PROMPT_17, 8)
    assert decoder(weights, packed=packed).generate(PROMPT_17, 8, prefill=True) == expected
    assert len(set(expected)) > 2  # not one token repeated


def test_the_recorded_prefill_replays_as_the_eager_one(weights: dict[str, np.ndarray]) -> None:
    """The prefill as one graph (8 launches a layer, 7 more): a replay leaves the logits of the
    last prompt token, its greedy token at ``tokens[n]`` and the position at ``n``; the graph sets
    the position itself, so a second replay does the same (not the next position's token).  The
    caches and the prefill's 6 buffers are the ``zeros`` hook's (bench/prefill.py passes torch's:
    nothing converted on the host)."""
    made: list[tuple[tuple[int, ...], st.DType]] = []

    def zeros(shape: tuple[int, ...], dtype: st.DType) -> st.Tensor:
        made.append((shape, dtype))
        return st.from_numpy(np.zeros(shape, np.float32), dtype=dtype).sync()

    d = decoder(weights, zeros=zeros)
    graph = d.record_prefill(PROMPT_17)
    assert made[:2 * TINY.layers] == [((TINY.kv_heads, 32, TINY.head_dim), st.f32)] * (2 * TINY.layers)
    assert [shape[0] for shape, _ in made[2 * TINY.layers:]] == [32] * 6  # 17 rows padded to 2 tiles of 16
    assert graph.what == f"{8 * TINY.layers + 7} recorded ops"
    graph.replay()
    graph.replay()
    graph.release()
    logits = forward(TINY, weights, PROMPT_17)[-1]
    np.testing.assert_allclose(d.read("logits"), logits, rtol=1e-4, atol=1e-4)
    tokens = d.read("tokens")
    assert int(tokens[len(PROMPT_17)]) == int(np.argmax(logits))
    assert not tokens[len(PROMPT_17) + 1:].any()
    assert int(d.read("pos")[0]) == len(PROMPT_17)
    again = d.record_prefill(PROMPT_17, fresh=False)  # over the same buffers, as a benchmark repeats it
    again.replay()
    again.release()
    np.testing.assert_allclose(d.read("logits"), logits, rtol=1e-4, atol=1e-4)
    assert int(d.read("pos")[0]) == len(PROMPT_17)


@pytest.mark.parametrize("form", ["pairs", pytest.param("up_joined", marks=pytest.mark.full)])
def test_gate_up_apart_prefills_as_the_reference(weights: dict[str, np.ndarray], form: str) -> None:
    """Gate/up from the two weights apart (``up_stacked=False``; tiny tiles: 16 rows, 2 x 16 or 32
    columns): on two accumulators (``pairs``) or one, each step's two weight tiles concatenated
    into one operand (``up_joined``: no faster on an H100; make test-full).  Every other prefill
    test runs the default, gate/up loaded from the stacked ``(2, n, k)`` copy (packed in the GEMV's
    tiles here), which the decoder makes only when constructed with it."""
    tiles = replace(TINY_PREFILL, up_stacked=False, up_joined=form == "up_joined")
    d = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=32, tiles=TINY_TILES, prefill_tiles=tiles)
    assert "gate_up" not in d.layers[0]
    d.record(PROMPT_17, prefill=True).release()
    np.testing.assert_allclose(d.read("logits"), forward(TINY, weights, PROMPT_17)[-1], rtol=1e-4, atol=1e-4)


def test_the_decode_reads_the_halves_of_the_stacked_gate_up(weights: dict[str, np.ndarray]) -> None:
    """With ``up_stacked`` (the default) the decode's gate and up are the stacked copy's two halves:
    uploaded through DLPack (as bench/prefill.py's torch tensors are) one memory, not a second copy."""
    torch = pytest.importorskip("torch")
    d = Qwen3Decoder(TINY, {k: torch.from_numpy(v) for k, v in weights.items()}, dtype=st.f32, max_positions=32,
                     tiles=TINY_TILES, prefill_tiles=TINY_PREFILL, upload=lambda t: st.from_dlpack(t.contiguous()))
    layer = d.layers[0]
    address = {name: layer[name].tensor().storage().__array_interface__["data"][0] for name in ("gate", "up", "gate_up")}
    assert address["gate"] == address["gate_up"]
    assert address["up"] == address["gate_up"] + layer["gate"].tensor().storage().nbytes


def test_stacked_gate_up_needs_its_copy_and_runs_one_way(weights: dict[str, np.ndarray]) -> None:
    d = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=32, tiles=TINY_TILES,
                     prefill_tiles=replace(TINY_PREFILL, up_stacked=False))
    d.prefill_tiles = TINY_PREFILL
    with pytest.raises(ValueError, match=r"construct the decoder with prefill_tiles=PrefillTiles\(up_stacked=True"):
        d.generate([1, 2], 1, prefill=True)
    with pytest.raises(ValueError, match=r"gate/up runs one way; pick one \(up_stacked is the default: pass "
                                         r"up_stacked=False with up_joined=True\)"):
        PrefillTiles(up_joined=True)


def group3(weights: dict[str, np.ndarray]) -> Qwen3Decoder:
    """3 query heads per kv head, on a long prompt's attention tiles (past ``short_rows``: query
    tiles of the key tiles' 16 rows, the diagonal one masked, those before it not; the other
    tests run the short prompts' 8 query rows)."""
    tiles = replace(TINY_PREFILL, short_rows=16)
    assert tiles.attention_kernel(32)[1] == tiles.attention  # PROMPT_17's 32 padded rows
    return Qwen3Decoder(TINY_GROUP3, weights, dtype=st.f32, max_positions=32, tiles=TINY_TILES,
                        prefill_tiles=tiles)


def replay_prefill_as_the_reference(weights: dict[str, np.ndarray], tiles: PrefillTiles,
                                    launches_a_layer: int) -> None:
    """Record the 17-token prefill on ``tiles``, check its launches (``launches_a_layer`` a layer and
    the 7 outside the layers), replay it and compare the logits with the reference's."""
    d = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=32, tiles=TINY_TILES, prefill_tiles=tiles)
    graph = d.record_prefill(PROMPT_17)
    assert graph.what == f"{launches_a_layer * TINY.layers + 7} recorded ops"
    graph.replay()
    graph.release()
    np.testing.assert_allclose(d.read("logits"), forward(TINY, weights, PROMPT_17)[-1], rtol=1e-4, atol=1e-4)


def test_o_proj_and_down_on_split_columns_prefill_as_the_reference(weights: dict[str, np.ndarray]) -> None:
    """O_proj and down_proj on split columns (``o_split``, ``down_split`` ``(S, C)``; on Qwen3-4B at
    2,048 tokens ``gemm_plan`` picks (4, 2) for down): 16 x 32 tiles, the first of 2 tile columns
    split, down's K (6 packed column tiles of 16, one step each) in 4 grid-strided splits (2, 2,
    1, 1), o_proj's (2 packed tiles of 2 steps) in 2, the other column whole; three launches
    each, so 12 a layer; the logits as the reference's."""
    tiles = replace(TINY_PREFILL, fit=False, cols=32, down_split=(4, 1), o_split=(2, 1))
    replay_prefill_as_the_reference(weights, tiles, launches_a_layer=12)
    with pytest.raises(ValueError, match=r"down_split=\(2, 3\)\): its 64 columns are 2 tiles of 32 .* "
                                         r"pick \(S, C\) with 1 <= C <= 2 and 1 <= S <= 6"):
        replace(tiles, down_split=(2, 3)).residual_plan("down", 32, 64, 96, 16)


def test_down_takes_gemm_plans_split_columns_where_it_picks_them() -> None:
    """Qwen3-4B's down_proj (2,560 columns, K = 9,728, packed in 16-row tiles): at 2,048 rows
    ``examples/gemm.py``'s ``gemm_plan`` (``matmul()``'s) splits the K of the last 2 of 10 tile
    columns of 128 x 256 in 4 (128 tiles whole: one wave of 132 SMs, 32 in 4 splits), where one
    launch would be 128 x 128 tiles (2.4 waves); at 512 and 8,192 rows one launch of ``gemm_tile``'s
    tile.  o_proj (K = 4,096, 8-row packed tiles) takes none: 128 x 256 would hold 32 of them.
    Without ``split_columns`` or ``fit``, one launch."""
    tiles = PrefillTiles(wave_plans=False)  # at 512 rows the default takes WAVE_PLANS' (test_qwen3_prefill_waves.py)
    assert [tiles.residual_plan("down", rows, 2560, 9728, 16) for rows in (512, 2048, 8192)] == [
        ((64, 128), 0, 0), ((128, 256), 4, 2), ((128, 256), 0, 0)]
    assert tiles.residual_plan("o", 2048, 2560, 4096, 8) == ((128, 128), 0, 0)
    assert PrefillTiles(plan_rows=2048).residual_plan("down", 128, 2560, 9728, 16) == ((128, 256), 4, 2)
    assert PrefillTiles(split_columns=False).residual_plan("down", 2048, 2560, 9728, 16) == ((128, 128), 0, 0)
    assert PrefillTiles(fit=False).residual_plan("down", 2048, 2560, 9728, 16) == ((128, 128), 0, 0)


def test_the_attention_takes_flash_attentions_plan_where_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``attention_plan`` (not the default: in the prefill on an H100 the plan's tiles ran 10%
    slower, docs/model.md session 18) Qwen3-4B's causal attention (head dimension 128) takes
    ``examples/flash_attention.py``'s ``attention_plan`` for its length: the plan's query rows, the
    heads first for its ``ORDER = 0`` (else one head's query tiles together), 8 worker warps from
    128 rows and occupancy 2 below, the output from registers where the plan stores so; a
    reversed plan runs unreversed (the prefill's grouped order would reverse heads).  By
    default, for a plan whose key tile is not ``attention``, or a persistent one: the fields'
    tiles, one head's query tiles together."""
    tiles = PrefillTiles(attention_plan=True)
    occupancy2, warps8 = {"sm_90": {"occupancy": 2}}, {"sm_90": {"num_worker_warps_per_cta": 8}}
    for rows in (512, 2048, 4096, 8192):
        plan = P.attention_plan(128, True, rows)
        if plan.persistent:
            continue
        kernel, queries, heads_first = tiles.attention_kernel(rows, 128)
        assert (queries, heads_first) == (plan.bm, plan.order == 0), rows
        assert kernel.options.optimization_hints == (warps8 if plan.bm >= 128 else occupancy2), rows
        assert (kernel.options.store_hints == P.REGISTER_STORE) == plan.register_store, rows
    assert PrefillTiles().attention_kernel(2048, 128)[1:] == (64, False)
    assert PrefillTiles(attention_plan=True, attention=64).attention_kernel(2048, 128)[1:] == (64, False)
    short = P.attention_plan(128, True, 2048)._replace(bm=64, bn=128, order=0, reverse=True, persistent=False)
    monkeypatch.setattr(P, "attention_plan", lambda d, causal, seq: short._replace(persistent=True))
    assert tiles.attention_kernel(8192, 128)[1:] == (128, False)
    monkeypatch.setattr(P, "attention_plan", lambda d, causal, seq: short)
    assert tiles.attention_kernel(8192, 128)[1:] == (64, True)


def test_queries_made_ready_apart_prefill_as_the_reference(weights: dict[str, np.ndarray]) -> None:
    """``rotated_queries``: the queries normalized, rotated and scaled by ``prefill_queries`` (blocks
    of the cache write's 8 rows) into an ``E`` buffer the attention reads
    (``prefill_attention_rotated``): 9 launches a layer, the reference's logits."""
    tiles = replace(TINY_PREFILL, rotated_queries=True)
    replay_prefill_as_the_reference(weights, tiles, launches_a_layer=9)
    assert tiles.attention_kernel(32)[0].python is P.prefill_attention_rotated.python


def test_the_attention_writes_the_same_tiles_heads_first() -> None:
    """The causal attention's blocks taking the heads first (``HEADS_FIRST``, the grouped order)
    write every tile, each as the blocks taking one head's query tiles together write it (the
    prefill tests check that order against the reference)."""
    rng = np.random.default_rng(5)
    kvh, g, d, rows = 2, 2, 16, 32
    inputs = (rng.standard_normal((rows, (g + 2) * kvh * d)).astype(np.float32), np.ones(d, np.float32),
              (1e4 ** -(np.arange(d // 2) / (d // 2))).astype(np.float32),
              *(rng.standard_normal((kvh, rows, d)).astype(np.float32) for _ in range(2)))
    outputs = []
    for heads_first in (False, True):
        out = st.from_numpy(np.full((rows, g * kvh * d), np.nan, np.float32)).sync()
        o, *_ = P.prefill_attention(out.partition((8, d)), *(st.from_numpy(a).sync() for a in inputs), 1e-6,
                                    d ** -0.5, BN=16, KVH=kvh, G=g, HEADS_FIRST=heads_first).sync()
        outputs.append(o.unpartition().numpy())
    assert not np.isnan(outputs[1]).any()
    np.testing.assert_array_equal(outputs[1], outputs[0])


def test_a_group_of_three_query_heads_prefills_as_the_reference() -> None:
    weights = random_weights(TINY_GROUP3, seed=1)
    d = group3(weights)
    d.record(PROMPT_17, prefill=True).release()
    np.testing.assert_allclose(d.read("logits"), forward(TINY_GROUP3, weights, PROMPT_17)[-1], rtol=1e-4, atol=1e-4)


@pytest.mark.full  # make test: the packed prefill-then-decode of two query heads a kv head
def test_a_group_of_three_query_heads_decodes_on_from_the_prefill() -> None:
    """The decode graph continuing from the prefill's caches gives token-by-token decoding's tokens."""
    weights = random_weights(TINY_GROUP3, seed=1)
    expected = group3(weights).generate(PROMPT_17, 6)
    assert group3(weights).generate(PROMPT_17, 6, prefill=True) == expected
    assert len(set(expected)) > 2


@pytest.mark.full
def test_a_512_token_prefill_matches_the_numpy_reference(weights: dict[str, np.ndarray]) -> None:
    prompt = [int(t) for t in np.random.default_rng(3).integers(0, TINY.vocab, 512)]
    d = decoder(weights, max_positions=1024)  # the merge takes a power-of-two count of key tiles
    tokens = d.generate(prompt, 2, prefill=True)
    logits = forward(TINY, weights, prompt + tokens[:1])[-2:]
    assert tokens[0] == int(np.argmax(logits[0]))
    np.testing.assert_allclose(d.read("logits"), logits[1], rtol=1e-4, atol=1e-4)


def test_a_prompt_padded_past_max_positions_is_refused(weights: dict[str, np.ndarray]) -> None:
    d = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=48, tiles=TINY_TILES,
                     prefill_tiles=replace(TINY_PREFILL, rows=32))
    with pytest.raises(ValueError, match=r"a prefill of 40 tokens takes 64 cache rows \(padded to a multiple of "
                                         r"32\): more than max_positions \(48\)"):
        d.generate(list(range(40)), 1, prefill=True)
    d = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=40, tiles=TINY_TILES, prefill_tiles=TINY_PREFILL)
    with pytest.raises(ValueError, match=r"needs max_positions \(40\) to be a multiple of the prefill's attention "
                                         r"tile \(16\): pick PrefillTiles\(attention=...\) dividing it"):
        d.generate([1, 2], 1, prefill=True)


def test_a_weight_packed_in_tiles_the_gemm_cannot_step_through_is_refused(weights: dict[str, np.ndarray]) -> None:
    """The GEMM steps through a packed weight's column tiles ``depth`` columns at a time."""
    d = Qwen3Decoder(TINY, weights, dtype=st.f32, max_positions=32, tiles=TINY_TILES,
                     prefill_tiles=replace(TINY_PREFILL, depth=32))
    with pytest.raises(st.CompileError, match="divides the packed tile's columns"):
        d.generate([1, 2], 1, prefill=True)


LAUNCHED = {
    P.embed_rows: dict(E=st.bf16, BH=16),
    P.norm_rows: dict(E=st.bf16, BM=2, BN=128, K=100),
    P.gemm: dict(E=st.bf16, BM=16, BN=16, BK=16, K=64, WS=(8, 4, 16, 16), G=8),
    P.gemm_residual: dict(E=st.bf16, BM=16, BN=16, BK=16, K=64, WS=(4, 4, 16, 16), G=8, SPLIT=2),
    P.gemm_partials: dict(E=st.bf16, BM=16, BN=16, BK=16, K=64, WS=(4, 4, 16, 16)),
    P.residual_partials_sum: dict(FM=16, FN=16),
    P.gate_up_gemm: dict(E=st.bf16, BM=16, BN=16, BK=16, K=64, WS=(6, 4, 16, 16), G=8, JOINED=True),
    P.gate_up_stacked_gemm: dict(E=st.bf16, BM=16, BN=16, BK=16, K=64, WS=(2, 6, 4, 16, 16), G=8),
    P.prefill_kv: dict(E=st.bf16, BM=16, D=16, QKV=128, KVH=2, G=2),
    P.prefill_attention: dict(E=st.bf16, BM=16, BN=32, D=16, QKV=128, KVH=2, G=2, HEADS_FIRST=True),
    P.prefill_queries: dict(E=st.bf16, BM=16, D=16, QKV=128),
    P.prefill_attention_rotated: dict(E=st.bf16, BM=16, BN=32, D=16, KVH=2, G=2, HEADS_FIRST=True),
    P.take_row: dict(BH=16),
}


def test_every_prefill_kernel_is_safe() -> None:
    assert set(P.KERNELS) == set(LAUNCHED)
    for kernel, generics in LAUNCHED.items():
        assert kernel.unsafe_report(**generics) == [], kernel.name


def test_norm_rows_normalizes_rows_narrower_than_their_tile() -> None:
    """A row of 100 columns in a 128-column tile (as Qwen3-4B's 2,560 in 4,096): the padded
    columns add nothing to the mean of the squares, and only the row's own columns are written."""
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((4, 100)).astype(np.float32), rng.standard_normal(100).astype(np.float32)
    out = st.from_numpy(np.full((4, 100), np.nan, np.float32)).sync().partition((2, 128))
    z, *_ = P.norm_rows(out, st.from_numpy(x).sync(), st.from_numpy(w).sync(), 1e-6).sync()
    expected = x / np.sqrt((x * x).mean(1, keepdims=True) + 1e-6) * w
    np.testing.assert_allclose(z.unpartition().numpy(), expected, rtol=1e-5, atol=1e-5)


def test_prefill_tiles_pad_to_the_larger_row_tile() -> None:
    assert PrefillTiles(rows=128, attention=64).row_step == 128
    assert TINY_PREFILL.row_step == 16


def test_the_projections_take_the_gemm_tiles_of_their_shape() -> None:
    """Qwen3-4B's QKV (6,144 columns), o_proj and down (2,560) at 512, 2,048 and 8,192 prompt
    rows: ``examples/gemm.py``'s tiles (128 x 256 with 8 warps and a load pipeline 6 deep where
    its waves fill 132 SMs; 128 x 128 for 2,560 columns at 2,048 rows, 160 blocks of 128 x 256
    being 1.2 waves; 64 x 128 where 128 x 128 is under a wave); unfitted, ``rows`` x ``cols``;
    never more rows than the prompt is padded to a multiple of, nor more than 16 packed weight
    tiles in its columns."""
    tiles = PrefillTiles()
    assert [tiles.gemm_tile(rows, n) for rows in (512, 2048, 8192) for n in (6144, 2560)] == [
        (128, 256), (64, 128), (128, 256), (128, 128), (128, 256), (128, 256)]
    assert PrefillTiles(fit=False).gemm_tile(2048, 6144) == (128, 128)
    assert PrefillTiles(rows=64, attention=64).gemm_tile(8192, 6144) == (64, 256)
    assert PrefillTiles(plan_rows=8192).gemm_tile(128, 2560) == (128, 256)
    assert tiles.gemm_tile(8192, 2560, packed_rows=8) == (128, 128)  # o_proj's 8-row packed tiles: 16 at most
    assert tiles.gemm_tile(8192, 2560, packed_rows=16) == (128, 256)
    big, small = tiles.gemm_kernel(P.gemm, (128, 256)), tiles.gemm_kernel(P.gemm, (128, 128))
    assert big.options.load_hints == {"sm_90": {"latency": 6}}
    assert big.options.optimization_hints == small.options.optimization_hints == {
        "sm_90": {"num_worker_warps_per_cta": 8}}
    assert small.options.load_hints != big.options.load_hints
    # gate/up (9,728 columns, two weights): stacked (the default) or joined, half of a 2 x 9,728-column
    # tile; on two accumulators 128 x 64
    assert [tiles.up_tile(rows, 9728, 16) for rows in (512, 2048, 8192)] == [(128, 64), (128, 128), (128, 128)]
    assert PrefillTiles(up_stacked=False, up_joined=True).up_tile(2048, 9728, 16) == (128, 128)
    assert PrefillTiles(up_stacked=False).up_tile(2048, 9728, 16) == (128, 64)


def test_the_cache_write_takes_its_own_rows_dividing_the_attention_tile() -> None:
    """prefill_kv's block rows (32 by default, the attention's with None) must divide the
    attention's (the tiny tiles' 8 of 16, which every prefill test here runs), or are refused
    naming both."""
    assert PrefillTiles().write_rows == 32 and PrefillTiles(kv_rows=None).write_rows == 128
    assert TINY_PREFILL.write_rows == 8 != TINY_PREFILL.attention
    with pytest.raises(ValueError, match=r"kv_rows=48\) must divide the attention tile \(128\)"):
        PrefillTiles(kv_rows=48)


def test_short_prompts_take_64_row_query_tiles_over_128_key_tiles() -> None:
    """The causal attention's query tile: 64 rows at occupancy 2 up to 4,096 padded rows (512 and
    2,048 tokens: 256 and 1,024 blocks of Qwen3-4B's 32 heads, where 128 rows give 128 and 512),
    128 rows at 8 warps above; its key tile ``attention`` (128) at every length.  The tiny tiles
    run 8 query rows over 16-row key tiles (two query tiles a key tile) in every prefill test
    here; rows pad to the larger of the tiles; a tile not a power of two is refused."""
    tiles = PrefillTiles()
    for rows, queries, hints in ((512, 64, {"sm_90": {"occupancy": 2}}), (4096, 64, {"sm_90": {"occupancy": 2}}),
                                 (8192, 128, {"sm_90": {"num_worker_warps_per_cta": 8}})):
        kernel, got, heads_first = tiles.attention_kernel(rows)  # no head dimension: the fields' tiles
        assert (got, kernel.options.optimization_hints, heads_first) == (queries, hints, False), rows
    assert PrefillTiles(plan_rows=8192).attention_kernel(512)[1] == 128  # a long prompt's tiles, built on a short one
    assert PrefillTiles(short_queries=None).attention_kernel(512)[1] == 128
    assert PrefillTiles(short_rows=16384).attention_kernel(8192)[1] == 64
    assert TINY_PREFILL.attention_kernel(32)[1] == 8 and TINY_PREFILL.attention == 16
    assert PrefillTiles(rows=64, attention=64, short_queries=256).row_step == 256
    with pytest.raises(ValueError, match=r"PrefillTiles\(short_queries=48\) must be a power of two"):
        PrefillTiles(short_queries=48)


@pytest.mark.parametrize("queries", [64, 128])
def test_the_prefill_attention_keeps_no_bounds_check_in_the_kernel(queries: int) -> None:
    """Qwen3-4B's attention on 64- or 128-row query tiles over 128-row key tiles: the loops'
    bounds are clamped tile counts (``below``), so every cache load is proved in range (the
    rotated queries' kernel at 64 rows too)."""
    P.prefill_attention.with_options(deny_in_kernel_checks=True).compile_variant(
        None, E=st.bf16, BM=queries, BN=128, D=128, QKV=6144, KVH=8, G=4)
    if queries == 64:
        P.prefill_attention_rotated.with_options(deny_in_kernel_checks=True).compile_variant(
            None, E=st.bf16, BM=queries, BN=128, D=128, KVH=8, G=4)
