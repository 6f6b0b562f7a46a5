"""Backward kernels and a training step on the GPU: safetile.nn against torch and Triton's tutorials.

    python -P bench/backward.py --out DIR [--only layer_norm,attention,...] [--cases d128,...]
                                [--step-mode reduce-overhead]

By the method of ``bench/method.py`` (shuffled rounds, each implementation
warmed on itself, a spin keeping the host ahead of the GPU: the autograd
calls cost the host more than small kernels take), every implementation
enqueuing on one stream (safetile's default; torch's work through
``torch.cuda.ExternalStream`` of its handle, so the kernel ops run there as
torch's current stream):

* ``layer_norm``: forward + backward (``torch.autograd.grad`` of the
  output, no accumulation) of safetile.nn.layer_norm against Triton's
  tutorial 05 (``bench/triton_kernels.py``: its forward, its locked partial
  dw/db backward) and ``torch.nn.functional.layer_norm``; f16 rows as the
  tutorial measures them.
* ``rms_norm``: forward + backward of safetile.nn.rms_norm against
  ``torch.nn.functional.rms_norm`` at the training step's shapes (bf16: the
  1024-wide block norms, the 64-wide query norm).
* ``attention``: the backward alone (the graph of one forward kept) of
  safetile.nn.attention against ``scaled_dot_product_attention`` (torch picks
  its flash/cuDNN kernel), bf16, causal and not, and, where the heads are
  not grouped (the tutorial has no grouped-query heads), Triton's tutorial 06
  backward (``bench/triton_kernels.py``); the shipped backward tiles
  (``snn.ATTENTION_BACKWARD_TILES``) beside those of ``ATTENTION_TRIED``.
* ``attention_forward``: the forward alone of safetile.nn.attention at the shipped tiles
  (``snn.ATTENTION_FORWARD_TILES``) and those of ``ATTENTION_FORWARD_TRIED`` against
  ``scaled_dot_product_attention``, at the training step's shape and the d64 ones above.
  ``--cases d64_causal,...`` runs only those attention cases (``case_name``).
* ``softmax`` and ``cross_entropy``: the backward alone against torch.
* The norms' and cross-entropy's backward configurations of ``NORM_TRIED``
  and ``CROSS_ENTROPY_TRIED`` are timed beside the shipped ones
  (``configured``: the tables replaced, every kernel op's signatures
  forgotten, so the recipes read them again).
* ``step``: one training step (forward, backward, AdamW) of a Qwen3-shaped
  decoder block at a real size: safetile's norms, attention and loss under
  ``torch.compile`` against the same model in torch eager and under
  ``torch.compile``; its figure is the steady state (``STEP_STEADY_S`` of
  steps back to back, the host's time included), the burst kept beside it.
  ``--step-mode reduce-overhead`` compiles both compiled steps with CUDA
  graphs (``torch.compile(mode="reduce-overhead")``).

Results go to ``DIR/backward.json`` after each workload (a timeout keeps
what was measured) and ``DIR/backward.md``.  The cubins come from the cache
(test/gpu/build_torch_cache.py traces ``trace_every_case`` on meta tensors).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent))  # method, triton_kernels (python -P leaves the folder out)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from method import ClockSampler, Method, device_state  # noqa: E402

import safetile.nn as snn  # noqa: E402
from safetile.runtime.torch import forget_signatures  # noqa: E402

METHOD = Method(rounds=5, warm=3, reps=3)
STEP_STEADY_S = 2.0
"""Seconds each training step runs back to back (the step's figure): a burst of 3 steps after the
spin hides up to the spin's ~10 ms of host time (20M cycles), so a step whose host is slower
than its GPU (safetile's was: 14.0 ms of host against 5.2 of GPU on an H100) timed 10.7 ms
there; back to back, the host's time shows."""
SPIN_CYCLES = 20_000_000


# -- the cases -------------------------------------------------------------------------------------

LAYER_NORM = [(4096, n) for n in (1024, 4096, 8192)]
"""(rows, columns), f16, as tutorial 05 measures (M = 4096)."""
RMS_NORM = [(4096, 1024), (65536, 64)]
"""(rows, columns), bf16: the training step's block norms and its query norm."""
R = snn.RowBackward
NORM_TRIED: dict[str, dict[int, snn.RowBackward]] = {
    "safetile 1 block/SM": {4096: R(blocks=1), 8192: R(blocks=1, warps=8)},
    "safetile 4 blocks/SM": {4096: R(blocks=4), 8192: R(blocks=2, warps=8)},
    "safetile 8 warps": {4096: R(blocks=1, warps=8), 8192: R(blocks=2, warps=8)},
}
"""The norms' backward tables timed beside the shipped ``snn.NORM_BACKWARD``: the blocks a
multiprocessor (``G``) and worker warps of the one-pass backward."""
CROSS_ENTROPY_TRIED: dict[str, snn.RowBackward] = {
    "safetile occupancy 8": R(columns=4096, occupancy=8),
    "safetile 8192 columns": R(columns=8192),
    "safetile 8192 columns, occupancy 4": R(columns=8192, occupancy=4),
    "safetile 2 rows of 2048": R(columns=2048),
}
"""Cross-entropy backward's tiles and hints timed beside the shipped ``snn.CROSS_ENTROPY_BACKWARD``
(one row of 4096 a block, no hint)."""
ATTENTION = [(4, 16, 8, 2048, 64, causal) for causal in (False, True)] + [(4, 16, 16, 2048, 128, causal)
                                                                         for causal in (True, False)]
ATTENTION += [(4, 16, 8, 1024, 64, True)]
"""(batch, heads, kv_heads, seq, head dim, causal), bf16; the last, the training step's (``STEP``)."""
ATTENTION_FORWARD = [(4, 16, 8, 1024, 64, True), (4, 16, 8, 2048, 64, True), (4, 16, 8, 2048, 64, False)]
"""The forward's cases: the training step's (``STEP``: 4 x 1024 tokens, 16 / 8 heads of 64, causal) and
the backward's d64 ones."""
B = snn.AttentionTiles


def case_name(head: int, causal: bool) -> str:
    """``d64``, ``d64_causal``, ``d128``, ``d128_causal``: the names of ``--cases`` and ``_tried``."""
    return f"d{head}" + ("_causal" if causal else "")


def _tried(**changed: tuple[B, B]) -> dict[tuple[int, bool], tuple[B, B]]:
    """The shipped tiles with the entries ``d64``, ``d64_causal``, ``d128``, ``d128_causal`` replaced."""
    return {key: changed.get(case_name(*key), tiles) for key, tiles in snn.ATTENTION_BACKWARD_TILES.items()}


H = dict(head_major=1)
ATTENTION_TRIED: dict[str, dict[tuple[int, bool], tuple[B, B]]] = {
    "safetile d128: heads fastest": _tried(d128=(B(128, 64, 8, 4), B(128, 64, 8, 4))),
    "safetile d128: dq head-major": _tried(d128=(B(128, 64, 8, 4, **H), B(128, 64, 8, 4))),
    "safetile d128: dkdv head-major": _tried(d128=(B(128, 64, 8, 4), B(128, 64, 8, 4, **H))),
    "safetile d128: dkdv 128 keys x 64": _tried(d128=(B(128, 64, 8, 4), B(64, 128, 8))),
    "safetile d128: dkdv 128 keys x 64, both head-major": _tried(d128=(B(128, 64, 8, 4, **H), B(64, 128, 8, **H))),
    "safetile d128 causal: heads fastest": _tried(d128_causal=(B(128, 64, 8), B(64, 128, 8))),
    "safetile d64: both head-major": _tried(d64=(B(128, 64, 8, 2, **H), B(64, 128, 8, 2, **H))),
    "safetile d64 causal: both head-major": _tried(d64_causal=(B(128, 64, 8, 2, **H), B(64, 128, 8, 2, **H))),
}
"""Backward tiles timed beside the shipped ``snn.ATTENTION_BACKWARD_TILES`` ("safetile"), each the
shipped table with one entry replaced (all with 8 worker warps, none spilling on sm_90): the
order of the blocks (``AttentionTiles.head_major``: a head's tiles together, as shipped at d128,
or every head's first tile first, as at d64), of dq, dk/dv or both, at the shipped tiles and,
at d128, FlashAttention-3's 128 keys by 64 queries for dk/dv.  Run -s7a2 (session 17) timed these
(the heads-fastest orders then shipped); run -s7a1 at d128 dq at the loads' depth 2 and at
tileiras's own, dq 64 queries by 128 keys and dk/dv 64 x 64, and at d64 causal dq 128 by 64 keys
(now shipped) and dk/dv at 64 keys; runs -s6a and -s6b (session 16) the rest of the shapes and
depths: docs/benchmarks.md section 8."""
ATTENTION_FORWARD_TRIED: dict[str, dict[tuple[int, bool], B]] = {
    "safetile 64 x 64 (session 16)": {},
    "safetile 64 x 64 occupancy 2": {(64, c): B(64, 64, occupancy=2) for c in (False, True)},
    "safetile 128 x 64 8 warps": {(64, c): B(128, 64, 8) for c in (False, True)},
    "safetile 128 x 128 8 warps": {(64, c): B(128, 128, 8) for c in (False, True)},
}
"""Forward tiles (``snn.ATTENTION_FORWARD_TILES``) timed beside the shipped ones at d64: the
``ATTENTION_TILE`` square without hints (session 16's), at two blocks a multiprocessor, and the
128-row tiles of examples/flash_attention.py's table at 8 worker warps, none spilling on sm_90."""
SOFTMAX = [(4096, 4096), (4096, 8192)]
CROSS_ENTROPY = [(4096, 32768), (8192, 128256)]
"""(rows, vocabulary), bf16 logits."""


class Block(torch.nn.Module):
    """A Qwen3-shaped decoder: embedding, one pre-norm block (grouped-query causal attention with
    RMSNorm on queries and keys, a SiLU-gated MLP), a final norm, the LM head and the loss.
    ``layers`` picks torch's or safetile's norms, attention and cross-entropy."""

    def __init__(self, vocab: int, dim: int, heads: int, kv_heads: int, hidden: int, safetile: bool):
        super().__init__()
        self.heads, self.kv_heads, self.head, self.hidden = heads, kv_heads, dim // heads, hidden
        self.safetile = safetile
        self.embed = torch.nn.Embedding(vocab, dim)
        self.attn_norm, self.mlp_norm, self.final_norm = (torch.nn.Parameter(torch.ones(dim)) for _ in range(3))
        self.q_norm, self.k_norm = (torch.nn.Parameter(torch.ones(self.head)) for _ in range(2))
        self.qkv = torch.nn.Linear(dim, dim + 2 * kv_heads * self.head, bias=False)
        self.out = torch.nn.Linear(dim, dim, bias=False)
        self.gate_up = torch.nn.Linear(dim, 2 * hidden, bias=False)
        self.down = torch.nn.Linear(hidden, dim, bias=False)
        self.lm_head = torch.nn.Linear(dim, vocab, bias=False)

    def norm(self, x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        return snn.rms_norm(x, w, 1e-6) if self.safetile else F.rms_norm(x, x.shape[-1:], w, 1e-6)

    def forward(self, tokens: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        batch, seq = tokens.shape
        x = self.embed(tokens)
        q, k, v = self.qkv(self.norm(x, self.attn_norm)).split(
            [self.heads * self.head, self.kv_heads * self.head, self.kv_heads * self.head], -1)
        q = self.norm(q.reshape(batch, seq, self.heads, self.head), self.q_norm).transpose(1, 2)
        k = self.norm(k.reshape(batch, seq, self.kv_heads, self.head), self.k_norm).transpose(1, 2)
        v = v.reshape(batch, seq, self.kv_heads, self.head).transpose(1, 2)
        if self.safetile:
            a = snn.attention(q.contiguous(), k.contiguous(), v.contiguous(), causal=True)
        else:
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        x = x + self.out(a.transpose(1, 2).reshape(batch, seq, -1))
        gate, up = self.gate_up(self.norm(x, self.mlp_norm)).split(self.hidden, -1)
        x = x + self.down(F.silu(gate) * up)
        logits = self.lm_head(self.norm(x, self.final_norm)).reshape(batch * seq, -1)
        targets = targets.reshape(-1)
        return snn.cross_entropy(logits, targets) if self.safetile else F.cross_entropy(logits.float(), targets)


STEP = dict(vocab=32768, dim=1024, heads=16, kv_heads=8, hidden=3072)
STEP_BATCH, STEP_SEQ = 4, 1024


def trace_every_case(device: str = "meta") -> None:
    """Forward and backward of every safetile case on ``device`` tensors (the cache build: on meta
    tensors the kernel ops specialize their kernels as the GPU run will)."""
    for table in (snn.NORM_BACKWARD, *NORM_TRIED.values()):
        with configured(NORM_BACKWARD=table):
            for rows, cols in LAYER_NORM:
                x, w, b = (torch.empty(s, dtype=torch.float16, device=device, requires_grad=True)
                           for s in ((rows, cols), (cols,), (cols,)))
                torch.autograd.grad(snn.layer_norm(x, w, b), (x, w, b), torch.empty_like(x))
            for rows, cols in RMS_NORM:
                x, w = (torch.empty(s, dtype=torch.bfloat16, device=device, requires_grad=True)
                        for s in ((rows, cols), (cols,)))
                torch.autograd.grad(snn.rms_norm(x, w), (x, w), torch.empty_like(x))
    for batch, heads, kv, seq, d, causal in ATTENTION:
        q = torch.empty(batch, heads, seq, d, dtype=torch.bfloat16, device=device, requires_grad=True)
        k, v = (torch.empty(batch, kv, seq, d, dtype=torch.bfloat16, device=device, requires_grad=True)
                for _ in range(2))
        o = snn.attention(q, k, v, causal=causal)
        for tiles in (snn.ATTENTION_BACKWARD_TILES, *ATTENTION_TRIED.values()):
            with backward_tiles(tiles):
                torch.autograd.grad(o, (q, k, v), torch.empty_like(o), retain_graph=True)
    for batch, heads, kv, seq, d, causal in ATTENTION_FORWARD:
        q = torch.empty(batch, heads, seq, d, dtype=torch.bfloat16, device=device)
        k = torch.empty(batch, kv, seq, d, dtype=torch.bfloat16, device=device)
        for table in (snn.ATTENTION_FORWARD_TILES, *ATTENTION_FORWARD_TRIED.values()):
            with configured(ATTENTION_FORWARD_TILES=table):
                snn.attention(q, k, k, causal=causal)
    for rows, cols in SOFTMAX:
        x = torch.empty(rows, cols, dtype=torch.bfloat16, device=device, requires_grad=True)
        torch.autograd.grad(snn.softmax(x), x, torch.empty_like(x))
    for config in (snn.CROSS_ENTROPY_BACKWARD, *CROSS_ENTROPY_TRIED.values()):
        with configured(CROSS_ENTROPY_BACKWARD=config):
            for rows, vocab in CROSS_ENTROPY:
                x = torch.empty(rows, vocab, dtype=torch.bfloat16, device=device, requires_grad=True)
                torch.autograd.grad(snn.cross_entropy(x, torch.zeros(rows, dtype=torch.long, device=device)), x)
    with torch.device(device):
        model = Block(**STEP, safetile=True).to(torch.bfloat16)
        tokens = torch.zeros(STEP_BATCH, STEP_SEQ, dtype=torch.long)
    model(tokens, tokens).backward()


@contextlib.contextmanager
def backward_tiles(tiles: dict[tuple[int, bool], tuple[snn.AttentionTiles, snn.AttentionTiles]]) -> Iterator[None]:
    """Attention's backward kernels launched with ``tiles`` (their recipes read the table at each
    backward) for the duration."""
    with configured(ATTENTION_BACKWARD_TILES=tiles):
        yield


@contextlib.contextmanager
def configured(**tables: Any) -> Iterator[None]:
    """safetile.nn's module-level tables named in ``tables`` (``NORM_BACKWARD=...``) replaced for the
    duration, every kernel op's signatures forgotten on the way in and out: the recipes read the
    tables, and a signature seen before would keep the launch of the table it was first called
    with (the first calls' host checks are hidden by the method's spin)."""
    shipped = {name: getattr(snn, name) for name in tables}
    for name, table in tables.items():
        setattr(snn, name, table)
    forget_signatures()
    try:
        yield
    finally:
        for name, table in shipped.items():
            setattr(snn, name, table)
        forget_signatures()


def _configured(call: Callable[[], Any], **tables: Any) -> Callable[[], Any]:
    def run() -> Any:
        with configured(**tables):
            return call()

    return run


# -- measuring -------------------------------------------------------------------------------------


def _compare(impls: dict[str, Callable[[], Any]], peer: str, st_stream: Any, sampler: ClockSampler,
             method: Method) -> dict[str, Any]:
    spin = lambda: torch.cuda._sleep(SPIN_CYCLES)  # noqa: E731
    measured = method.compare(impls, peer, st_stream, sampler=sampler, spin=spin)
    return {name: measured.summary(name) | {"orders": measured.orders[:1]} for name in impls}


def _grad(out: torch.Tensor, inputs: tuple[torch.Tensor, ...], dy: torch.Tensor | None) -> Callable[[], Any]:
    return lambda: torch.autograd.grad(out, inputs, dy, retain_graph=True)


def layer_norm_rows(st_stream: Any, sampler: ClockSampler, method: Method) -> list[dict[str, Any]]:
    from triton_kernels import layer_norm_tutorial

    tutorial = layer_norm_tutorial(torch)
    rows_out = []
    for rows, cols in LAYER_NORM:
        x = torch.randn(rows, cols, dtype=torch.float16, device="cuda", requires_grad=True)
        w = (torch.rand(cols, dtype=torch.float16, device="cuda") + 0.5).requires_grad_()
        b = torch.randn(cols, dtype=torch.float16, device="cuda").requires_grad_()
        dy = torch.randn_like(x)
        impls = {
            "safetile": lambda: torch.autograd.grad(snn.layer_norm(x, w, b, 1e-5), (x, w, b), dy),
            "triton tutorial 05": lambda: torch.autograd.grad(tutorial(x, w, b, 1e-5), (x, w, b), dy),
            "torch": lambda: torch.autograd.grad(F.layer_norm(x, (cols,), w, b, 1e-5), (x, w, b), dy),
        }
        for name, table in NORM_TRIED.items():
            impls[name] = _configured(impls["safetile"], NORM_BACKWARD=table)
        errors = _errors(impls, "torch")
        timings = _compare(impls, "triton tutorial 05", st_stream, sampler, method)
        gbytes = (5 * rows * cols * 2) / 1e9  # x read twice (fwd, bwd), dy read, y and dx written: the floor
        rows_out += [dict(workload="layer_norm fwd+bwd", dtype="f16", shape=[rows, cols], impl=name, error=errors[name],
                          **timings[name], floor_gb=gbytes) for name in impls]
    return rows_out


def rms_norm_rows(st_stream: Any, sampler: ClockSampler, method: Method) -> list[dict[str, Any]]:
    rows_out = []
    for rows, cols in RMS_NORM:
        x = torch.randn(rows, cols, dtype=torch.bfloat16, device="cuda", requires_grad=True)
        w = (torch.rand(cols, dtype=torch.bfloat16, device="cuda") + 0.5).requires_grad_()
        dy = torch.randn_like(x)
        impls = {
            "safetile": lambda: torch.autograd.grad(snn.rms_norm(x, w, 1e-6), (x, w), dy),
            "torch": lambda: torch.autograd.grad(F.rms_norm(x, (cols,), w, 1e-6), (x, w), dy),
        }
        for name, table in NORM_TRIED.items():
            impls[name] = _configured(impls["safetile"], NORM_BACKWARD=table)
        errors = _errors(impls, "torch")
        timings = _compare(impls, "torch", st_stream, sampler, method)
        gbytes = (5 * rows * cols * 2) / 1e9  # x read twice (fwd, bwd), dy read, y and dx written: the floor
        rows_out += [dict(workload="rms_norm fwd+bwd", dtype="bf16", shape=[rows, cols], impl=name,
                          error=errors[name], **timings[name], floor_gb=gbytes) for name in impls]
    return rows_out


def _errors(impls: dict[str, Callable[[], Any]], reference: str) -> dict[str, float]:
    """Each implementation's largest relative error against ``reference``'s outputs."""
    want = [t.float() for t in impls[reference]()]
    out = {}
    for name, call in impls.items():
        got = [t.float() for t in call()]
        out[name] = max(((g - r).abs().max() / r.abs().max().clamp_min(1e-6)).item() for g, r in zip(got, want))
    return out


def attention_rows(st_stream: Any, sampler: ClockSampler, method: Method,
                   cases: set[str] | None = None) -> list[dict[str, Any]]:
    rows_out = []
    for batch, heads, kv, seq, d, causal in ATTENTION:
        if cases is not None and case_name(d, causal) not in cases:
            continue
        q = torch.randn(batch, heads, seq, d, dtype=torch.bfloat16, device="cuda", requires_grad=True)
        k, v = (torch.randn(batch, kv, seq, d, dtype=torch.bfloat16, device="cuda", requires_grad=True)
                for _ in range(2))
        ours = snn.attention(q, k, v, causal=causal)
        theirs = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
        do = torch.randn_like(ours)
        impls = {"safetile": _grad(ours, (q, k, v), do), "torch sdpa": _grad(theirs, (q, k, v), do)}
        for name, tiles in ATTENTION_TRIED.items():
            if tiles[(d, causal)] != snn.ATTENTION_BACKWARD_TILES[(d, causal)]:  # else the shipped again
                impls[name] = _with_tiles(tiles, _grad(ours, (q, k, v), do))
        if kv == heads:
            impls["triton tutorial 06"] = _tutorial_attention_backward(q, k, v, theirs, do, causal)
        errors = _errors(impls, "torch sdpa")
        timings = _compare(impls, "torch sdpa", st_stream, sampler, method)
        flop = 2.5 * 4 * batch * heads * seq * seq * d * (0.5 if causal else 1)  # 5 GEMMs of the backward
        rows_out += [dict(workload="attention bwd", dtype="bf16", shape=[batch, heads, kv, seq, d], causal=causal,
                          impl=name, error=errors[name], tflops=flop / timings[name]["burst_s"] / 1e12,
                          **timings[name]) for name in impls]
    return rows_out


def attention_forward_rows(st_stream: Any, sampler: ClockSampler, method: Method,
                           cases: set[str] | None = None) -> list[dict[str, Any]]:
    """The forward alone (no graph kept) of safetile.nn.attention at ``ATTENTION_FORWARD_TRIED``'s tiles
    beside the shipped ones, against ``scaled_dot_product_attention``."""
    rows_out = []
    for batch, heads, kv, seq, d, causal in ATTENTION_FORWARD:
        if cases is not None and case_name(d, causal) not in cases:
            continue
        q = torch.randn(batch, heads, seq, d, dtype=torch.bfloat16, device="cuda")
        k, v = (torch.randn(batch, kv, seq, d, dtype=torch.bfloat16, device="cuda") for _ in range(2))
        impls = {"safetile": lambda: (snn.attention(q, k, v, causal=causal),),
                 "torch sdpa": lambda: (F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True),)}
        for name, table in ATTENTION_FORWARD_TRIED.items():
            if table.get((d, causal)) != snn.ATTENTION_FORWARD_TILES.get((d, causal)):  # else the shipped again
                impls[name] = _configured(impls["safetile"], ATTENTION_FORWARD_TILES=table)
        errors = _errors(impls, "torch sdpa")
        timings = _compare(impls, "torch sdpa", st_stream, sampler, method)
        flop = 4 * batch * heads * seq * seq * d * (0.5 if causal else 1)  # the forward's 2 GEMMs
        rows_out += [dict(workload="attention fwd", dtype="bf16", shape=[batch, heads, kv, seq, d], causal=causal,
                          impl=name, error=errors[name], tflops=flop / timings[name]["burst_s"] / 1e12,
                          **timings[name]) for name in impls]
    return rows_out


def _with_tiles(tiles: dict[tuple[int, bool], tuple[snn.AttentionTiles, snn.AttentionTiles]],
                call: Callable[[], Any]) -> Callable[[], Any]:
    def run() -> Any:
        with backward_tiles(tiles):
            return call()

    return run


def _tutorial_attention_backward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor,
                                 do: torch.Tensor, causal: bool) -> Callable[[], Any]:
    """Tutorial 06's backward (bench/triton_kernels.py) on flattened heads, its forward's row
    log-sum-exp computed once by torch (only the backward is timed)."""
    from triton_kernels import attention_backward

    flat = [t.detach().reshape(-1, t.shape[2], t.shape[3]).contiguous() for t in (q, k, v, o, do)]
    scale = q.shape[-1] ** -0.5
    scores = torch.bmm(flat[0].float(), flat[1].float().transpose(1, 2)) * scale
    if causal:
        scores.masked_fill_(torch.ones_like(scores[0], dtype=torch.bool).triu(1), float("-inf"))
    lse = torch.logsumexp(scores, -1)
    del scores
    delta = torch.empty_like(lse)
    grads = [torch.empty_like(t) for t in flat[:3]]

    def run() -> tuple[torch.Tensor, ...]:
        attention_backward(*grads, *flat, lse, delta, scale, causal)
        return tuple(g.reshape(t.shape) for g, t in zip(grads, (q, k, v)))

    return run


def softmax_rows(st_stream: Any, sampler: ClockSampler, method: Method) -> list[dict[str, Any]]:
    rows_out = []
    for rows, cols in SOFTMAX:
        x = torch.randn(rows, cols, dtype=torch.bfloat16, device="cuda", requires_grad=True)
        dy = torch.randn_like(x)
        impls = {"safetile": _grad(snn.softmax(x), (x,), dy), "torch": _grad(torch.softmax(x, -1), (x,), dy)}
        errors = _errors(impls, "torch")
        timings = _compare(impls, "torch", st_stream, sampler, method)
        rows_out += [dict(workload="softmax bwd", dtype="bf16", shape=[rows, cols], impl=name, error=errors[name],
                          **timings[name]) for name in impls]
    for rows, vocab in CROSS_ENTROPY:
        x = torch.randn(rows, vocab, dtype=torch.bfloat16, device="cuda", requires_grad=True)
        target = torch.randint(0, vocab, (rows,), device="cuda")
        impls = {"safetile": _grad(snn.cross_entropy(x, target), (x,), None),
                 "torch": _grad(F.cross_entropy(x, target), (x,), None)}
        for name, config in CROSS_ENTROPY_TRIED.items():
            impls[name] = _configured(impls["safetile"], CROSS_ENTROPY_BACKWARD=config)
        errors = _errors(impls, "torch")
        timings = _compare(impls, "torch", st_stream, sampler, method)
        rows_out += [dict(workload="cross_entropy bwd", dtype="bf16", shape=[rows, vocab], impl=name,
                          error=errors[name], **timings[name]) for name in impls]
    return rows_out


def step_rows(st_stream: Any, sampler: ClockSampler, method: Method,
              mode: str = "default") -> list[dict[str, Any]]:
    """The training step's rows, both compiled models under ``torch.compile(mode=mode)``."""
    torch.manual_seed(0)
    tokens = torch.randint(0, STEP["vocab"], (STEP_BATCH, STEP_SEQ + 1), device="cuda")
    inputs, targets = tokens[:, :-1].contiguous(), tokens[:, 1:].contiguous()
    base = Block(**STEP, safetile=False).to(device="cuda", dtype=torch.bfloat16)
    setups: dict[str, tuple[torch.nn.Module, bool]] = {}
    for name, safetile, compiled in (("safetile + torch.compile", True, True), ("torch eager", False, False),
                                     ("torch.compile", False, True)):
        model = Block(**STEP, safetile=safetile).to(device="cuda", dtype=torch.bfloat16)
        model.load_state_dict(base.state_dict())
        setups[name] = (model, compiled)
    impls, losses, compile_s = {}, {}, {}
    for name, (model, compiled) in setups.items():
        forward = torch.compile(model, fullgraph=True, mode=mode) if compiled else model
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, foreach=True)
        graphs = compiled and mode == "reduce-overhead"

        def step(forward: Any = forward, optimizer: Any = optimizer, graphs: bool = graphs) -> Any:
            if graphs:  # a new step: the last replay's outputs may be overwritten
                torch.compiler.cudagraph_mark_step_begin()
            loss = forward(inputs, targets)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            return loss

        started = time.perf_counter()
        losses[name] = [step().item() for _ in range(3)]
        compile_s[name] = time.perf_counter() - started
        impls[name] = step
    steady = dataclasses.replace(method, steady_s=STEP_STEADY_S)
    timings = _compare(impls, "torch.compile", st_stream, sampler, steady)
    ratio_eager = timings["torch eager"]["steady_s"] / timings["safetile + torch.compile"]["steady_s"]
    return [dict(workload="training step", dtype="bf16", shape=[STEP_BATCH, STEP_SEQ], config=STEP, impl=name,
                 mode=mode, first_losses=losses[name], first_three_steps_s=compile_s[name], **timings[name],
                 ratio_to_eager=ratio_eager if name.startswith("safetile") else None) for name in impls]


WORKLOADS = {"layer_norm": layer_norm_rows, "rms_norm": rms_norm_rows, "softmax": softmax_rows,
             "attention": attention_rows, "attention_forward": attention_forward_rows, "step": step_rows}


def _markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| workload | dtype | shape | impl | burst ms | ratio to peer (burst) | steady ms | ratio (steady) | "
             "error |", "|---" * 9 + "|"]
    for r in rows:
        ratio, steady_ratio = r.get("burst_ratio"), r.get("steady_ratio")
        shape = "x".join(map(str, r["shape"])) + (" causal" if r.get("causal") else "")
        steady = f"{r['steady_s'] * 1e3:.3f}" if "steady_s" in r else ""
        lines.append(f"| {r['workload']} | {r['dtype']} | {shape} | {r['impl']} | {r['burst_s'] * 1e3:.3f} | "
                     f"{'' if ratio is None else f'{ratio:.2f}'} | {steady} | "
                     f"{'' if steady_ratio is None else f'{steady_ratio:.2f}'} | {r.get('error', float('nan')):.2g} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--only", default=",".join(WORKLOADS))
    parser.add_argument("--step-mode", choices=("default", "reduce-overhead"), default="default",
                        help="torch.compile's mode for the step's compiled models")
    parser.add_argument("--cases", help="the attention cases to run, by case_name (d64,d128_causal,...): all if none")
    args = parser.parse_args()
    import safetile as st

    args.out.mkdir(parents=True, exist_ok=True)
    st_stream = st.current_backend().default_stream
    torch_stream = torch.cuda.ExternalStream(int(st_stream.handle))
    result: dict[str, Any] = {"device": device_state(), "method": METHOD.__dict__, "rows": [], "failed": {}}
    with ClockSampler() as sampler, torch.cuda.stream(torch_stream):
        for name in args.only.split(","):
            try:
                extra: dict[str, Any] = {"mode": args.step_mode} if name == "step" else {}
                if name.startswith("attention") and args.cases:
                    extra["cases"] = set(args.cases.split(","))
                result["rows"] += WORKLOADS[name](st_stream, sampler, METHOD, **extra)
            except Exception as err:  # noqa: BLE001 - report it, go on with the next workload
                result["failed"][name] = f"{type(err).__name__}: {err}"
            (args.out / "backward.json").write_text(json.dumps(result, indent=1, default=str))
            (args.out / "backward.md").write_text(_markdown(result["rows"]))
            print(f"{name} done", flush=True)
    print(_markdown(result["rows"]))
    print(json.dumps(result["failed"], indent=1))


if __name__ == "__main__":
    main()
