"""Qwen3: the configs, random weights in Hugging Face's names, and the decoder's math in numpy.

The published configs (``config.json`` of Qwen/Qwen3-0.6B, -4B, -8B, -14B and -32B on the
Hugging Face hub, stated from the model cards): head dim 128, 8 kv heads, vocab 151936, rope
theta 1e6, RMS eps 1e-6, no attention bias, SiLU MLP, embeddings tied to the LM head in 0.6B
and 4B, a separate LM head in 8B, 14B and 32B.

``forward`` is the independent reference of the kernels: whole sequences at once,
causal attention over all positions, in f32 (weights as stored, converted).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np


@dataclass(frozen=True)
class Config:
    hidden: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    vocab: int
    rope_theta: float = 1e6
    eps: float = 1e-6
    tied: bool = True

    @property
    def group(self) -> int:
        """Query heads per kv head."""
        return self.heads // self.kv_heads

    @property
    def group_tile(self) -> int:
        """The decode attention's query-tile rows: ``group`` rounded up to a power of two (tile
        shapes are powers of two; the rows past ``group`` are padding)."""
        return 1 << (self.group - 1).bit_length()

    @property
    def qkv(self) -> int:
        """Rows of the fused QKV projection."""
        return (self.heads + 2 * self.kv_heads) * self.head_dim


QWEN3_0_6B = Config(hidden=1024, layers=28, heads=16, kv_heads=8, head_dim=128, intermediate=3072, vocab=151936)
QWEN3_4B = Config(hidden=2560, layers=36, heads=32, kv_heads=8, head_dim=128, intermediate=9728, vocab=151936)
QWEN3_8B = Config(hidden=4096, layers=36, heads=32, kv_heads=8, head_dim=128, intermediate=12288, vocab=151936,
                  tied=False)
QWEN3_14B = Config(hidden=5120, layers=40, heads=40, kv_heads=8, head_dim=128, intermediate=17408, vocab=151936,
                   tied=False)
"""Its 5 query heads per kv head are not a power of two: the decode attention pads them to 8 rows."""
QWEN3_32B = Config(hidden=5120, layers=64, heads=64, kv_heads=8, head_dim=128, intermediate=25600, vocab=151936,
                   tied=False)
TINY = Config(hidden=64, layers=2, heads=4, kv_heads=2, head_dim=16, intermediate=96, vocab=128)
TINY_GROUP3 = replace(TINY, heads=6)
"""The tiny config with 3 query heads per kv head: a group that is not a power of two, as Qwen3-14B's 5."""


def random_weights(config: Config, seed: int = 0, dtype: type = np.float32) -> dict[str, np.ndarray]:
    """Random weights named as ``Qwen3ForCausalLM``'s state dict; projections ~ N(0, 1/fan_in),
    norm weights near 1, so activations stay O(1) through every layer.  Embeddings ~ N(0, 0.1):
    the layers' outputs outweigh the token's own embedding in the residual stream, so the tied
    LM head does not just repeat the last token."""
    rng = np.random.default_rng(seed)
    c = config

    def linear(rows: int, cols: int) -> np.ndarray:
        return (rng.standard_normal((rows, cols), np.float32) / np.sqrt(cols)).astype(dtype)

    def norm(n: int) -> np.ndarray:
        return (1.0 + 0.1 * rng.standard_normal(n, np.float32)).astype(dtype)

    w = {"model.embed_tokens.weight": (0.1 * rng.standard_normal((c.vocab, c.hidden), np.float32)).astype(dtype)}
    for i in range(c.layers):
        p = f"model.layers.{i}."
        w[p + "input_layernorm.weight"] = norm(c.hidden)
        w[p + "self_attn.q_proj.weight"] = linear(c.heads * c.head_dim, c.hidden)
        w[p + "self_attn.k_proj.weight"] = linear(c.kv_heads * c.head_dim, c.hidden)
        w[p + "self_attn.v_proj.weight"] = linear(c.kv_heads * c.head_dim, c.hidden)
        w[p + "self_attn.o_proj.weight"] = linear(c.hidden, c.heads * c.head_dim)
        w[p + "self_attn.q_norm.weight"] = norm(c.head_dim)
        w[p + "self_attn.k_norm.weight"] = norm(c.head_dim)
        w[p + "post_attention_layernorm.weight"] = norm(c.hidden)
        w[p + "mlp.gate_proj.weight"] = linear(c.intermediate, c.hidden)
        w[p + "mlp.up_proj.weight"] = linear(c.intermediate, c.hidden)
        w[p + "mlp.down_proj.weight"] = linear(c.hidden, c.intermediate)
    w["model.norm.weight"] = norm(c.hidden)
    if not c.tied:
        w["lm_head.weight"] = linear(c.vocab, c.hidden)
    return w


def inv_freq(config: Config) -> np.ndarray:
    """The rotary frequencies, ``theta ** (-2i / D)``, as Hugging Face computes them (f32)."""
    exponent = np.arange(0, config.head_dim, 2, dtype=np.int64).astype(np.float32) / config.head_dim
    return (1.0 / (np.float32(config.rope_theta) ** exponent)).astype(np.float32)


def rms_norm(x: np.ndarray, weight: np.ndarray, eps: float) -> np.ndarray:
    """RMS norm over the last axis, times ``weight``."""
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + np.float32(eps)) * weight


def rope(x: np.ndarray, positions: np.ndarray, freqs: np.ndarray) -> np.ndarray:
    """Rotary embedding of ``x[..., position, D]`` (half-split pairs)."""
    angle = positions.astype(np.float32)[:, None] * freqs[None, :]
    cos, sin = np.cos(angle), np.sin(angle)
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


def silu(x: np.ndarray) -> np.ndarray:
    return x / (1.0 + np.exp(-x))


def forward(config: Config, weights: dict[str, np.ndarray], tokens: list[int]) -> np.ndarray:
    """The logits ``[len(tokens), vocab]`` of every position (causal attention), in f32."""
    c = config
    w = {name: value.astype(np.float32) for name, value in weights.items()}
    n, d = len(tokens), c.head_dim
    positions = np.arange(n)
    freqs = inv_freq(c)
    causal = np.tril(np.ones((n, n), bool))
    x = w["model.embed_tokens.weight"][np.asarray(tokens)]
    for i in range(c.layers):
        p = f"model.layers.{i}."
        h = rms_norm(x, w[p + "input_layernorm.weight"], c.eps)
        q = (h @ w[p + "self_attn.q_proj.weight"].T).reshape(n, c.heads, d).transpose(1, 0, 2)
        k = (h @ w[p + "self_attn.k_proj.weight"].T).reshape(n, c.kv_heads, d).transpose(1, 0, 2)
        v = (h @ w[p + "self_attn.v_proj.weight"].T).reshape(n, c.kv_heads, d).transpose(1, 0, 2)
        q = rope(rms_norm(q, w[p + "self_attn.q_norm.weight"], c.eps), positions, freqs)
        k = rope(rms_norm(k, w[p + "self_attn.k_norm.weight"], c.eps), positions, freqs)
        k, v = np.repeat(k, c.group, axis=0), np.repeat(v, c.group, axis=0)
        scores = np.where(causal, q @ k.transpose(0, 2, 1) / np.sqrt(np.float32(d)), -np.inf)
        probs = np.exp(scores - scores.max(-1, keepdims=True))
        attn = (probs / probs.sum(-1, keepdims=True)) @ v
        x = x + attn.transpose(1, 0, 2).reshape(n, c.heads * d) @ w[p + "self_attn.o_proj.weight"].T
        h = rms_norm(x, w[p + "post_attention_layernorm.weight"], c.eps)
        mlp = silu(h @ w[p + "mlp.gate_proj.weight"].T) * (h @ w[p + "mlp.up_proj.weight"].T)
        x = x + mlp @ w[p + "mlp.down_proj.weight"].T
    head = w["model.embed_tokens.weight" if c.tied else "lm_head.weight"]
    return rms_norm(x, w["model.norm.weight"], c.eps) @ head.T


def greedy(config: Config, weights: dict[str, np.ndarray], prompt: list[int], steps: int) -> tuple[list[int], np.ndarray]:
    """``steps`` greedy tokens after ``prompt``, and the logits that chose the last one."""
    tokens = list(prompt)
    for _ in range(steps):
        logits = forward(config, weights, tokens)[-1]
        tokens.append(int(np.argmax(logits)))
    return tokens[len(prompt):], logits
