"""A tiny decoder block trained with safetile's layers under ``torch.compile`` on the CPU: its
loss curve equals the same model's in plain torch (same initial weights, same batches)."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

torch = pytest.importorskip("torch")  # a pinned test dependency: make test installs it

import torch.nn.functional as F  # noqa: E402

import safetile.nn as snn  # noqa: E402

VOCAB, DIM, HEADS, KV_HEADS, SEQ, BATCH, HIDDEN = 64, 32, 4, 2, 8, 4, 64
HEAD = DIM // HEADS
STEPS = 8


class Layers:
    """The layers a block is built of: torch's or safetile's."""

    def __init__(self, rms_norm: Callable, attention: Callable, cross_entropy: Callable) -> None:
        self.rms_norm, self.attention, self.cross_entropy = rms_norm, attention, cross_entropy


TORCH = Layers(lambda x, w: F.rms_norm(x, x.shape[-1:], w, 1e-6),
               lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True),
               F.cross_entropy)
SAFETILE = Layers(lambda x, w: snn.rms_norm(x, w, 1e-6), lambda q, k, v: snn.attention(q, k, v, causal=True),
                  snn.cross_entropy)


class Decoder(torch.nn.Module):
    """Embedding, one pre-norm block (causal grouped-query attention, a SiLU-gated MLP), a final norm,
    the LM head."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = torch.nn.Embedding(VOCAB, DIM)
        self.attn_norm = torch.nn.Parameter(torch.ones(DIM))
        self.qkv = torch.nn.Linear(DIM, DIM + 2 * KV_HEADS * HEAD, bias=False)
        self.out = torch.nn.Linear(DIM, DIM, bias=False)
        self.mlp_norm = torch.nn.Parameter(torch.ones(DIM))
        self.gate_up = torch.nn.Linear(DIM, 2 * HIDDEN, bias=False)
        self.down = torch.nn.Linear(HIDDEN, DIM, bias=False)
        self.final_norm = torch.nn.Parameter(torch.ones(DIM))
        self.head = torch.nn.Linear(DIM, VOCAB, bias=False)

    def forward(self, tokens: torch.Tensor, targets: torch.Tensor, layers: Layers) -> torch.Tensor:
        x = self.embed(tokens)
        q, k, v = self.qkv(layers.rms_norm(x, self.attn_norm)).split([DIM, KV_HEADS * HEAD, KV_HEADS * HEAD], -1)
        q, k, v = (t.reshape(BATCH, SEQ, -1, HEAD).transpose(1, 2) for t in (q, k, v))
        x = x + self.out(layers.attention(q, k, v).transpose(1, 2).reshape(BATCH, SEQ, DIM))
        gate, up = self.gate_up(layers.rms_norm(x, self.mlp_norm)).split(HIDDEN, -1)
        x = x + self.down(F.silu(gate) * up)
        logits = self.head(layers.rms_norm(x, self.final_norm))
        return layers.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))


def train(model: Decoder, layers: Layers, compiled: bool) -> list[float]:
    tokens = torch.randint(0, VOCAB, (BATCH, SEQ + 1), generator=torch.Generator().manual_seed(1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    step = torch.compile(model, backend="aot_eager", fullgraph=True) if compiled else model
    losses = []
    for _ in range(STEPS):
        loss = step(tokens[:, :-1], tokens[:, 1:], layers)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def test_the_loss_curve_equals_plain_torch() -> None:
    torch.manual_seed(0)
    model = Decoder()
    reference = train(copy.deepcopy(model), TORCH, compiled=False)
    from torch._dynamo.utils import counters  # here, not at collection: dynamo's import is 1.2 CPU-s a worker

    counters.clear()
    ours = train(model, SAFETILE, compiled=True)
    assert dict(counters["graph_break"]) == {}
    assert reference[-1] < reference[0] - 0.5, "the model learns (memorizes its batch)"
    torch.testing.assert_close(torch.tensor(ours), torch.tensor(reference), rtol=1e-4, atol=1e-5)
