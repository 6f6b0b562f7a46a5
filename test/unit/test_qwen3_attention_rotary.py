"""The decode attention's rotary table (examples/qwen3/kernels.py ``rotate``, ``rotary_table``):
the model's default, no sine or cosine left in the attention, the reference's values, and a
position past the table stopped in the kernel with the place named.  (The tiny model's tokens
with the table: test_qwen3_model.py's default decode; with the sines and cosines computed:
its ``sin/cos`` variant, full tier.)"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import safetile as st
from safetile.backend.interpreter.errors import DeviceAssertError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from qwen3 import kernels as K  # noqa: E402
from qwen3.model import Tiles  # noqa: E402
from qwen3.reference import TINY, inv_freq, rope  # noqa: E402
from test_qwen3_kernels import EPS, attention_inputs, normal, parts, scalar, tensor  # noqa: E402

APPEND = dict(E=st.bf16, G=5, GP=8, GPD=128, D=16, QKV=224, KVH=2, BN=16, PRODUCTS=K.MMA)


def test_the_decode_attention_rotates_with_the_table_by_default() -> None:
    assert Tiles().rope_table
    with_table, computed = (str(K.attention_append.compile(**APPEND, TABLE=table)) for table in (1, 0))
    assert "cuda_tile.cos" in computed and "cuda_tile.sin" in computed
    assert "cuda_tile.cos" not in with_table and "cuda_tile.sin" not in with_table


def test_the_table_holds_the_references_cosines_and_sines() -> None:
    freqs, positions, d = inv_freq(TINY), 24, TINY.head_dim
    table = K.rotary_table(freqs, positions).reshape(positions, d)
    x = np.zeros((1, positions, d), np.float32)
    x[..., : d // 2] = 1.0  # rotating (1, 0) pairs gives (cos, sin)
    np.testing.assert_array_equal(table, rope(x, np.arange(positions), freqs)[0])


def test_a_position_past_the_table_stops_the_kernel_at_the_tables_load() -> None:
    kvh, d, s, bn, g = 2, 16, 32, 8, 2
    qkv, q_norm, freqs, k_cache, v_cache = attention_inputs(kvh, g, d, s)
    with pytest.raises(DeviceAssertError, match=r"kernels\.py:\d+.*tile index out of range"):
        K.attention_append(*parts(kvh, g, d, s // bn), tensor(k_cache).partition((1, bn, d)),
                           tensor(v_cache).partition((1, bn, d)), tensor(qkv), tensor(q_norm), tensor(normal(d)),
                           tensor(K.rotary_table(freqs, 16)), scalar(21), EPS, d ** -0.5, KVH=kvh, G=g,
                           PRODUCTS=K.MMA, TABLE=1).sync()
