"""The Qwen3 decode kernels (examples/qwen3/kernels.py), each against numpy on the interpreter.

Outputs are NaN-poisoned so a tile no block wrote is caught; sizes are tiny.
Every kernel is safe: its unsafe report is empty.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import safetile as st
from safetile.driver.compile import compile_variant

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from qwen3 import kernels as K  # noqa: E402
from qwen3.reference import rms_norm, rope, silu  # noqa: E402

EPS = 1e-6
RNG = np.random.default_rng(7)


def tensor(a: np.ndarray, dtype: st.DType | None = None) -> st.Tensor:
    return st.from_numpy(a, dtype=dtype).sync()


def poisoned(shape: tuple[int, ...], dtype: st.DType = st.f32) -> st.Tensor:
    fill = np.nan if dtype in (st.f32, st.f16, st.bf16) else -7
    return st.full(shape, fill, dtype).sync()


def normal(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def scalar(value: int) -> st.Tensor:
    return tensor(np.array([value], np.int32))


def close(actual: st.Tensor | st.Partition, expected: np.ndarray, tol: float = 2e-5) -> None:
    got = actual.unpartition().numpy() if isinstance(actual, st.Partition) else actual.numpy()
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


def test_embed_gathers_the_row_of_the_token_at_pos() -> None:
    table, tokens = normal(10, 32), np.array([3, 9, 4], np.int32)
    z, *_ = K.embed(poisoned((32,)).partition((8,)), tensor(table), tensor(tokens), scalar(1)).sync()
    close(z, table[9])


@pytest.mark.parametrize("dtype", [st.f32, st.f16])
@pytest.mark.parametrize(("early", "tma"), [(0, False), (2, False), (4, True)])
def test_norm_gemv(dtype: st.DType, early: int, tma: bool) -> None:
    x, norm_w, w = normal(64), normal(64), normal(48, 64)
    z, *_ = K.norm_gemv(poisoned((48,)).partition((16,)), tensor(x), tensor(norm_w, dtype),
                        tensor(K.pack_weight(w, 16, 16), dtype), EPS, BK=16, EARLY=early, EARLY_TMA=tma).sync()
    as_stored = [tensor(a, dtype).numpy() for a in (norm_w, w)]
    close(z, as_stored[1] @ rms_norm(x, as_stored[0], EPS), 1e-3 if dtype == st.f16 else 2e-5)
    assert read_before_wait(K.norm_gemv, EARLY=early) == (("w",) if early else ())


EARLY = [(0, False), (1, False), (3, True)]
"""(column tiles of the weights read before the wait, through TMA): none, one, all three of 48."""


def read_before_wait(kernel: st.Kernel, **generics: object) -> tuple[str, ...]:
    """The tensors the last compiled variant of ``kernel`` with ``generics`` reads before its wait."""
    variant = next(v for v in reversed(kernel.variants.values())
                   if all(v.generics.get(name) == value for name, value in generics.items()))
    return compile_variant(kernel, variant).early_reads


@pytest.mark.parametrize("packed", [True, False])
@pytest.mark.parametrize(("early", "tma"), EARLY)
def test_gemv_residual(early: int, tma: bool, packed: bool) -> None:
    """With the weight packed (as the model has it) and as the plain matrix."""
    r, x, w = normal(32), normal(48), normal(32, 48)
    z, *_ = K.gemv_residual(poisoned((32,)).partition((8,)), tensor(r), tensor(x),
                            st.shared(tensor(K.pack_weight(w, 8, 16) if packed else w)), BK=16, EARLY=early,
                            EARLY_TMA=tma).sync()
    close(z, r + w @ x)
    assert read_before_wait(K.gemv_residual, EARLY=early) == (("w",) if early else ())


def test_read_rows_stores_each_row_tiles_sum() -> None:
    """Rows past the last packed tile are read as zeros (40 rows packed in tiles of 8, blocks of 16:
    3 blocks, the last reading one tile)."""
    w = normal(40, 48)
    z, _ = K.read_rows(poisoned((3,)).partition((1,)), tensor(K.pack_weight(w, 8, 16)), BN=16).sync()
    close(z, np.array([w[:16].sum(), w[16:32].sum(), w[32:].sum()], np.float32), 1e-4)


def test_a_plain_weight_without_a_column_per_element_of_x_is_refused() -> None:
    r, x, w = normal(32), normal(48), normal(32, 64)
    with pytest.raises(Exception, match="w has a column per element of x") as refused:
        K.gemv_residual(poisoned((32,)).partition((8,)), tensor(r), tensor(x), tensor(w), BK=16).sync()
    assert "Traceback" not in str(refused.value)


def test_read_rows_refuses_a_block_of_part_of_a_packed_tile() -> None:
    with pytest.raises(Exception, match="a block reads whole packed tiles: P divides BN"):
        K.read_rows(poisoned((5,)).partition((1,)), tensor(K.pack_weight(normal(40, 48), 8, 16)), BN=12).sync()


def test_a_column_tile_not_dividing_the_reduction_is_refused() -> None:
    """K // BK steps would drop the last K % BK columns: the kernel refuses the launch instead."""
    r, x, w = normal(32), normal(40), K.pack_weight(normal(32, 48), 8, 16)
    with pytest.raises(Exception, match="the column tile BK divides the length of x") as refused:
        K.gemv_residual(poisoned((32,)).partition((8,)), tensor(r), tensor(x), tensor(w), BK=16).sync()
    assert "Traceback" not in str(refused.value)


def test_pack_weight_puts_each_tile_in_a_row_of_its_own() -> None:
    w = np.arange(8 * 12, dtype=np.float32).reshape(8, 12)
    packed = K.pack_weight(w, 4, 3)
    assert packed.shape == (2, 4, 4, 3) and packed.flags.c_contiguous
    np.testing.assert_array_equal(packed[1, 2], w[4:8, 6:9])
    with pytest.raises(ValueError, match=r"does not cut into \(5, 3\) tiles"):
        K.pack_weight(w, 5, 3)


def test_a_weight_of_another_shape_is_refused() -> None:
    """A packed weight's tiles are the kernel's and cover ``x``, a plain one is a matrix: else the
    launch names the mismatch and the fix (static checks of the variant), before anything runs."""
    r, x, w = normal(32), normal(48), normal(32, 48)
    with pytest.raises(Exception, match=r"w is packed in the kernel's tiles: pack_weight\(w, BN, BK\)"):
        K.gemv_residual(poisoned((32,)).partition((8,)), tensor(r), tensor(x), tensor(K.pack_weight(w, 8, 8)),
                        BK=16).sync()
    with pytest.raises(Exception, match="a \\(rows, len\\(x\\)\\) matrix, or one packed"):
        K.gemv_residual(poisoned((32,)).partition((8,)), tensor(r), tensor(x), tensor(normal(4, 8, 48)), BK=16).sync()
    with pytest.raises(Exception, match="w's packed column tiles cover x") as refused:
        K.gemv_residual(poisoned((32,)).partition((8,)), tensor(r), tensor(x[:32]),
                        tensor(K.pack_weight(w, 8, 16)), BK=16).sync()
    assert "Traceback" not in str(refused.value)


@pytest.mark.parametrize(("early", "tma"), [(0, False), (1, True), (2, False)])
def test_norm_gate_up_is_the_silu_gated_mlp_input(early: int, tma: bool) -> None:
    x, norm_w, gate, up = normal(32), normal(32), normal(64, 32), normal(64, 32)
    z, *_ = K.norm_gate_up(poisoned((64,)).partition((16,)), tensor(x), tensor(norm_w),
                           tensor(K.pack_weight(gate, 16, 16)), tensor(K.pack_weight(up, 16, 16)), EPS, BK=16,
                           EARLY=early, EARLY_TMA=tma).sync()
    xn = rms_norm(x, norm_w, EPS)
    close(z, silu(gate @ xn) * (up @ xn))
    assert read_before_wait(K.norm_gate_up, EARLY=early) == (("w_gate", "w_up") if early else ())


def test_more_early_column_tiles_than_the_row_has_are_refused() -> None:
    r, x, w = normal(32), normal(48), K.pack_weight(normal(32, 48), 8, 16)
    with pytest.raises(Exception, match="EARLY column tiles fit in the row") as refused:
        K.gemv_residual(poisoned((32,)).partition((8,)), tensor(r), tensor(x), tensor(w), BK=16, EARLY=4).sync()
    assert "Traceback" not in str(refused.value)


def test_norm_gemv_argmax_gives_each_tiles_max_and_its_first_row() -> None:
    x, norm_w, w = normal(32), normal(32), normal(64, 32)
    w[33] = w[37] = 3.0 * rms_norm(x, norm_w, EPS)  # tied for the largest logit of tile 2: row 33 wins
    logits, best, best_at, *_ = K.norm_gemv_argmax(
        poisoned((64,)).partition((16,)), poisoned((4,)).partition((1,)), poisoned((4,), st.i32).partition((1,)),
        tensor(x), tensor(norm_w), tensor(w), EPS, BK=16).sync()
    expected = w @ rms_norm(x, norm_w, EPS)
    values = logits.unpartition().numpy()
    np.testing.assert_allclose(values, expected, rtol=2e-5, atol=2e-5)
    assert values[33] == values[37]
    by_tile = values.reshape(4, 16)
    close(best, by_tile.max(1))
    rows = best_at.unpartition().numpy()
    np.testing.assert_array_equal(rows, np.arange(4) * 16 + by_tile.argmax(1))
    assert rows[2] == 33


@pytest.mark.parametrize(("pos", "prompt_len", "written"), [(4, 3, True), (1, 3, False)])
def test_sample_writes_the_argmax_at_pos_plus_one_past_the_prompt(pos: int, prompt_len: int, written: bool) -> None:
    best = np.array([0.5, 2.0, -1.0, 2.0, 1.5], np.float32)  # a tie: the earlier tile's row wins
    best_at = np.array([3, 17, 40, 51, 70], np.int32)
    tokens = np.arange(8, dtype=np.int32) + 100
    z, *_ = K.sample(tensor(tokens).partition((1,)), tensor(best), tensor(best_at), scalar(pos), prompt_len,
                     BT=4).sync()
    expected = tokens.copy()
    if written:
        expected[pos + 1] = 17
    np.testing.assert_array_equal(z.unpartition().numpy(), expected)


def test_advance_counts() -> None:
    z, *_ = K.advance(poisoned((1,), st.i32).partition((1,)), scalar(41), 1).sync()
    np.testing.assert_array_equal(z.unpartition().numpy(), [42])


def qkv_vector(heads: int, kv_heads: int, d: int) -> np.ndarray:
    return normal((heads + 2 * kv_heads) * d)


def test_kv_append_writes_row_pos_only() -> None:
    kvh, d, s, pos = 2, 16, 8, 5
    qkv, k_norm = qkv_vector(4, kvh, d), normal(d)
    freqs = (1.0 / 10000.0 ** (np.arange(0, d, 2) / d)).astype(np.float32)
    k_cache, v_cache = normal(kvh, s, d), normal(kvh, s, d)
    kc, vc, *_ = K.kv_append(tensor(k_cache).partition((kvh, 1, d)), tensor(v_cache).partition((kvh, 1, d)),
                             tensor(qkv), tensor(k_norm), tensor(freqs), scalar(pos), EPS, G=2).sync()
    k = qkv[4 * d: 6 * d].reshape(kvh, d)
    k_cache[:, pos] = rope(rms_norm(k, k_norm, EPS)[None], np.array([pos]), freqs)[0]
    v_cache[:, pos] = qkv[6 * d:].reshape(kvh, d)
    close(kc, k_cache, 1e-5)
    close(vc, v_cache)
    assert read_before_wait(K.kv_append) == ("pos",)


def attention_inputs(kvh: int, g: int, d: int, s: int) -> tuple[np.ndarray, ...]:
    qkv = qkv_vector(kvh * g, kvh, d)
    freqs = (1.0 / 100.0 ** (np.arange(0, d, 2) / d)).astype(np.float32)
    return qkv, normal(d), freqs, normal(kvh, s, d), normal(kvh, s, d)


def attention_expected(qkv, q_norm, freqs, k_cache, v_cache, pos, kvh, g, d) -> np.ndarray:  # noqa: ANN001
    q = rope(rms_norm(qkv[: kvh * g * d].reshape(kvh * g, 1, d), q_norm, EPS), np.array([pos]), freqs)
    keys = np.repeat(k_cache[:, : pos + 1], g, axis=0)
    values = np.repeat(v_cache[:, : pos + 1], g, axis=0)
    scores = q @ keys.transpose(0, 2, 1) / np.sqrt(d)
    p = np.exp(scores - scores.max(-1, keepdims=True))
    return ((p / p.sum(-1, keepdims=True)) @ values).reshape(kvh * g * d)


def group_tile(g: int) -> int:
    return 1 << (g - 1).bit_length()


def parts(kvh: int, g: int, d: int, chunks: int) -> tuple[st.Partition, st.Partition]:
    """Poisoned attention parts, ``(1, 1, GP * D)`` tiles (``GP``: ``g`` rounded up to a power of two)."""
    gp = group_tile(g)
    return poisoned((kvh, chunks, gp * d)).partition((1, 1, gp * d)), poisoned((kvh, chunks, gp)).partition((1, 1, gp))


def merged(o_part: st.Partition, lse: st.Partition, pos: int, kvh: int, g: int, d: int, bn: int,
           chunks: int) -> st.Partition:
    """``attention_merge`` of the split outputs, after checking that exactly the key tiles up to
    ``pos`` were written (the others are still poisoned), a group a block where ``g`` is a power
    of two, else a query head a block."""
    o_part, lse = o_part.unpartition(), lse.unpartition()
    lse_values = lse.numpy()
    used = -(-(pos + 1) // bn)
    assert np.isnan(lse_values[:, used:]).all() and np.isfinite(lse_values[:, :used]).all()
    r = g if g == group_tile(g) else 1
    z, *_ = K.attention_merge(poisoned((kvh * g * d,)).partition((r * d,)), o_part, lse, scalar(pos),
                              R=r, G=g, D=d, TILES=chunks, BN=bn).sync()
    return z


PRODUCTS = [K.REDUCE, K.ROWS, K.MMA]


def with_each_products(cases: list[tuple[int, int]]) -> list[object]:
    """Each ``(pos, g)`` with each way of taking the attention's products: ``make test`` runs
    each case once, the ways in turn (so each way runs on several cases), ``make test-full`` all."""
    return [pytest.param(pos, g, products, id=f"{pos}-{g}-{products}",
                         marks=() if products == PRODUCTS[i % len(PRODUCTS)] else pytest.mark.full)
            for i, (pos, g) in enumerate(cases) for products in PRODUCTS]


@pytest.mark.parametrize("pos, g, products", with_each_products([(0, 2), (9, 2), (21, 2), (31, 2), (9, 3), (21, 5)]))
def test_attention_split_and_merge_is_decode_attention(pos: int, g: int, products: int) -> None:
    kvh, d, s, bn = 2, 16, 32, 8
    chunks = s // bn
    qkv, q_norm, freqs, k_cache, v_cache = attention_inputs(kvh, g, d, s)
    o_part, lse, *_ = K.attention_split(
        *parts(kvh, g, d, chunks), tensor(qkv), tensor(q_norm), tensor(freqs), tensor(k_cache), tensor(v_cache),
        scalar(pos), EPS, d ** -0.5, BN=bn, G=g, PRODUCTS=products).sync()
    z = merged(o_part, lse, pos, kvh, g, d, bn, chunks)
    close(z, attention_expected(qkv, q_norm, freqs, k_cache, v_cache, pos, kvh, g, d), 1e-4)
    assert read_before_wait(K.attention_split) == ("pos",)  # the key tiles wait on it: one round trip sooner


@pytest.mark.parametrize("pos, g, products",
                         with_each_products([(0, 2), (9, 4), (21, 2), (31, 4), (0, 3), (21, 5), (31, 6)]))
def test_attention_append_appends_row_pos_and_attends(pos: int, g: int, products: int) -> None:
    kvh, d, s, bn = 2, 16, 32, 8
    chunks = s // bn
    qkv, q_norm, freqs, k_cache, v_cache = attention_inputs(kvh, g, d, s)
    k_norm = normal(d)
    table = products != K.REDUCE  # the rotary table (the model's default) and, with REDUCE, the frequencies
    rotary = K.rotary_table(freqs, s) if table else freqs
    o_part, lse, kc, vc, *_ = K.attention_append(
        *parts(kvh, g, d, chunks), tensor(k_cache).partition((1, bn, d)), tensor(v_cache).partition((1, bn, d)), tensor(qkv),
        tensor(q_norm), tensor(k_norm), tensor(rotary), scalar(pos), EPS, d ** -0.5, KVH=kvh,
        G=g, PRODUCTS=products, TABLE=int(table)).sync()
    k = qkv[kvh * g * d: (kvh * g + kvh) * d].reshape(kvh, d)
    k_cache[:, pos] = rope(rms_norm(k, k_norm, EPS)[None], np.array([pos]), freqs)[0]
    v_cache[:, pos] = qkv[(kvh * g + kvh) * d:].reshape(kvh, d)
    close(kc, k_cache, 1e-5)  # every other row as it was
    close(vc, v_cache)
    z = merged(o_part, lse, pos, kvh, g, d, bn, chunks)
    close(z, attention_expected(qkv, q_norm, freqs, k_cache, v_cache, pos, kvh, g, d), 1e-4)
    assert read_before_wait(K.attention_append) == ("pos",)


LAUNCHED = {
    K.embed: dict(E=st.f32, BH=8),
    K.norm_gemv: dict(E=st.bf16, BN=16, BK=16, K=64, WS=(4, 4, 16, 16)),
    K.gemv_residual: dict(E=st.bf16, BN=16, BK=16, K=64, WS=(64, 64)),
    K.read_rows: dict(E=st.bf16, BN=16, P=8, BK=16, KT=4),
    K.norm_gate_up: dict(E=st.bf16, BN=16, BK=16, K=64, WS=(4, 4, 16, 16)),
    K.norm_gemv_argmax: dict(E=st.bf16, BN=16, BK=16, K=64),
    K.sample: dict(BT=64),
    K.advance: dict(),
    K.kv_append: dict(E=st.bf16, KVH=2, D=16, QKV=128, G=2),
    K.attention_split: dict(E=st.bf16, G=2, GP=2, GPD=32, D=16, QKV=128, KVH=2, BN=16, PRODUCTS=K.ROWS),
    K.attention_append: dict(E=st.bf16, G=5, GP=8, GPD=128, D=16, QKV=224, KVH=2, BN=16, PRODUCTS=K.MMA, TABLE=1),
    K.attention_merge: dict(RD=16, R=1, G=5, GP=8, GPD=128, D=16, TILES=4, BN=16),
}


def test_every_kernel_is_tested_and_safe() -> None:
    kernels = {v for v in vars(K).values() if isinstance(v, type(K.embed))}
    assert kernels == set(LAUNCHED)
    for kernel, generics in LAUNCHED.items():
        assert kernel.unsafe_report(**generics) == [], kernel.name
