"""Training layers on safetile kernels: torch custom ops with autograd.

``import safetile.nn`` registers, in the ``safetile`` op namespace, a
forward op and its backward ops for each layer (kernels in
``safetile.nn.kernels``, all safe code), and pairs them with
``register_autograd``.  The functions below run eagerly, under
``torch.compile(fullgraph=True)`` and through ``torch.autograd``; the row
layers take tensors of any leading shape (rows are the last dimension):

* ``softmax(x)``, ``log_softmax(x)``
* ``cross_entropy(logits, target)``: the mean over rows of
  ``logsumexp(logits[r]) - logits[r, target[r]]``, fused over
  vocabulary-wide rows (the logits' gradient from the saved ``lse``)
* ``rms_norm(x, weight, eps)``, ``layer_norm(x, weight, bias, eps)``
* ``matmul(a, b)``: 2-D ``a @ b``
* ``attention(q, k, v, causal, scale)``: FlashAttention-2 forward and backward, causal and
  grouped-query (dK/dV owned per key tile, dQ per query tile, no atomics)

Row kernels hold a whole row in one tile (rows up to ``MAX_ROW`` wide);
cross-entropy takes rows of any width.  Why a facade subpackage: the
layers need both the kernel language and the torch edge
(``safetile.runtime.torch``), which only the facade may import together
(test_layering.py); examples/ stays a folder of scripts.  See docs/torch.md.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import torch

from safetile import rows
from safetile.runtime.torch import KernelLaunch, OutputSpec, accumulator, kernel_op, safetile_dtype

from . import kernels as K

MAX_ROW = 8192
"""The widest row the row kernels (softmax, the norms) hold in one tile."""
ROW_ELEMENTS = 4096
"""About this many elements a tile of the backward rows: several narrow rows a tile, at most 16 for
softmax's, ``NORM_BACKWARD_ROWS`` for the norms' (the forward rows take ``safetile/rows.py``'s tuned
tiles)."""
VOCAB_TILE = 4096
"""Cross-entropy's forward column tile (its rows may be any width)."""
NORM_BACKWARD_ROWS = 64
"""The most rows a tile of the norms' backward takes (about ``ROW_ELEMENTS`` elements): 64 rows of the
training step's 64-wide query and key norms.  At 16 rows (a 16 x 64 tile, 2 KB of bf16 a tensor)
their kernels ran 4-5x the time of their memory traffic on an H100 (26-30 us at 65536 x 64,
bench/train.py --profile), where the forward, at the tuned 128 rows (``safetile/rows.py``), ran 6 us."""
ASSUMED_MULTIPROCESSORS = 132
"""The multiprocessors assumed off CUDA (an H100 SXM's)."""


class RowBackward(NamedTuple):
    """How a backward row kernel launches: ``blocks`` a multiprocessor (the norms' grid ``G``, each
    block walking every ``G``-th row tile; cross-entropy's backward takes a block a tile), tileiras's
    worker ``warps`` a block and ``occupancy`` (0: its own choice), and, for cross-entropy's, its
    ``columns`` a tile (0: ``VOCAB_TILE``)."""

    blocks: int = 0
    warps: int = 0
    occupancy: int = 0
    columns: int = 0


NORM_BACKWARD: dict[int, RowBackward] = {
    4096: RowBackward(blocks=1),
    8192: RowBackward(blocks=1, warps=8),
}
"""The norms' backward (dx and the weight gradients' first stage in one pass) by the widest row tile
each serves (the first that holds the row's): one block a multiprocessor, tileiras's warps up to
4096-element tiles (1024-wide rows four a tile, 64-wide ones 64; 256 threads of 255 registers on
sm_90, no spill: one block fills a multiprocessor's registers, so two a multiprocessor ran in two
waves), 8 worker warps at 8192 columns (384 threads of 168 registers, no spill; without the hint
it spills 352 B).  Each block walks its row tiles and keeps the weight's (and bias's) column sums, so ``G``
is the blocks the GPU runs at once, and the partial sums ``[G, N]`` stay a few percent of the
rows' traffic.  Timed on an H100 (docs/benchmarks.md section 8, run -s6c2): one block a
multiprocessor was the fastest at every shape, 1.11-1.12x two blocks (the first pick) for
layer_norm and rms_norm fwd+bwd up to 4096 columns, 1.18-1.32x four; 8 worker warps 0.79-0.94x."""
CROSS_ENTROPY_BACKWARD = RowBackward(columns=VOCAB_TILE, occupancy=8)
"""Cross-entropy's backward: one row of ``columns`` a tile (a block a tile) at ``occupancy`` 8 (40
registers at 4096 bf16 columns on sm_90, where tileiras's own choice took 112: four blocks of 128
threads a multiprocessor, too few loads in flight).  Timed on an H100 (run -s6c2): 1.36-1.39x no
hint at 4096 x 32768 and 8192 x 128256, as fast as two rows of 2048 without a hint; 8192 columns
1.05x, with occupancy 4 the same."""
COLUMN_TILE = 64
"""The column tile of ``column_sums`` (the weight gradients' second stage): 64 columns of ``G`` partial
rows a block, so that a 1024-wide gradient spreads over 16 blocks."""
REDUCTION_ROWS = 64
"""The partial rows ``column_sums`` adds a step (a 64 x 64 tile: ``ROW_ELEMENTS`` elements)."""


def _pow2(n: int) -> int:
    """The smallest power of two holding ``n`` (by comparisons: under ``torch.compile`` with a
    dynamic ``n`` they become guards, so the trace holds for one power of two)."""
    p = 1
    while p < n:
        p *= 2
    return p


def _row_tiles(x: torch.Tensor, name: str, most: int = 16) -> tuple[int, int]:
    """``(BM, BN)`` for a backward row kernel on the 2-D ``x``: whole rows of ``BN`` columns, at most
    ``most`` rows."""
    if x.dim() != 2:
        raise ValueError(f"safetile.nn.{name} takes rows: a 2-D tensor, got shape {tuple(x.shape)}")
    bn = _pow2(x.shape[1])
    if bn > MAX_ROW:
        raise ValueError(f"safetile.nn.{name} holds a row in one tile: rows up to {MAX_ROW} wide, got {x.shape[1]}")
    return max(1, min(most, ROW_ELEMENTS // bn)), bn


def _forward_tiles(x: torch.Tensor, table: rows.RowTable, name: str) -> tuple[int, int]:
    """``(BM, BN)`` for a forward row kernel on the 2-D ``x``: the default of ``table`` for the width
    and type, as the example's launcher picks it untimed (the kernel's hints follow from the tile:
    ``RowTable.hints``)."""
    _row_tiles(x, name)  # the refusals
    config = table.default(x.shape[1], safetile_dtype(x.dtype))
    return config["BM"], config["BN"]


def _torch_accumulator(dtype: torch.dtype) -> torch.dtype:
    return torch.float64 if dtype == torch.float64 else torch.float32


def _rows_output(x: torch.Tensor, tiles: tuple[int, int], dtype: torch.dtype | None = None) -> OutputSpec:
    return OutputSpec(tuple(x.shape), dtype or x.dtype, tiles)


def _stat_output(x: torch.Tensor, bm: int) -> OutputSpec:
    """A per-row statistic saved for the backward, in the accumulator type."""
    return OutputSpec((x.shape[0],), _torch_accumulator(x.dtype), (bm,))


def _generics(x: torch.Tensor) -> dict[str, Any]:
    return {"A": accumulator(x.dtype)}


# -- softmax and log_softmax ----------------------------------------------------------


@kernel_op("safetile::softmax")
def _softmax(x: torch.Tensor, log: bool) -> KernelLaunch:
    tiles = _forward_tiles(x, rows.SOFTMAX, "softmax")
    return KernelLaunch(K.softmax_forward, [_rows_output(x, tiles)], [x], {**_generics(x), "LOG": int(log)})


@kernel_op("safetile::softmax_backward")
def _softmax_backward(y: torch.Tensor, dy: torch.Tensor, log: bool) -> KernelLaunch:
    tiles = _row_tiles(y, "softmax")
    return KernelLaunch(K.softmax_backward, [_rows_output(y, tiles)], [y, dy], {**_generics(y), "LOG": int(log)})


def _softmax_context(ctx: Any, inputs: tuple[Any, ...], output: torch.Tensor) -> None:
    ctx.log = inputs[1]
    ctx.save_for_backward(output)


def _softmax_grad(ctx: Any, dy: torch.Tensor) -> tuple[Any, ...]:
    (y,) = ctx.saved_tensors
    return _softmax_backward(y, dy, ctx.log), None


_softmax.register_autograd(_softmax_grad, setup_context=_softmax_context)


def softmax(x: torch.Tensor) -> torch.Tensor:
    """``torch.softmax(x, -1)`` on safetile kernels."""
    return _softmax(x.reshape(-1, x.shape[-1]), False).reshape(x.shape)


def log_softmax(x: torch.Tensor) -> torch.Tensor:
    """``torch.log_softmax(x, -1)`` on safetile kernels."""
    return _softmax(x.reshape(-1, x.shape[-1]), True).reshape(x.shape)


# -- cross-entropy ---------------------------------------------------------------------


def _vocab_tile(logits: torch.Tensor) -> int:
    return min(_pow2(logits.shape[1]), VOCAB_TILE)


def _vocab_rows(logits: torch.Tensor, columns: int = VOCAB_TILE) -> int:
    """The rows a block of cross-entropy's kernels takes: about ``ROW_ELEMENTS`` elements a tile of
    ``columns`` (one row of 4096 columns at a vocabulary of 4096 or more).  The forward took 16 rows
    of 4096 before: 256 blocks of a (16, 4096) f32 tile, 1.1 ms at 4096 x 32768 on an H100, 14x the
    time of its memory traffic (bench/train.py --profile)."""
    return max(1, ROW_ELEMENTS // min(_pow2(logits.shape[1]), columns))


@kernel_op("safetile::cross_entropy", outputs=2)
def _cross_entropy(logits: torch.Tensor, target: torch.Tensor) -> KernelLaunch:
    if logits.dim() != 2 or target.shape != logits.shape[:1] or target.dtype != torch.int64:
        raise ValueError("safetile.nn.cross_entropy takes logits (rows, vocabulary) and int64 targets (rows,), got "
                         f"{tuple(logits.shape)} and {target.dtype} {tuple(target.shape)}")
    bm = _vocab_rows(logits)
    return KernelLaunch(K.cross_entropy_forward, [_stat_output(logits, bm), _stat_output(logits, bm)], [logits, target],
                  {**_generics(logits), "BN": _vocab_tile(logits)})


@kernel_op("safetile::cross_entropy_backward")
def _cross_entropy_backward(logits: torch.Tensor, lse: torch.Tensor, target: torch.Tensor,
                            dloss: torch.Tensor) -> KernelLaunch:
    config = CROSS_ENTROPY_BACKWARD
    columns = min(_pow2(logits.shape[1]), config.columns or VOCAB_TILE)
    tiles = (_vocab_rows(logits, columns), columns)
    return KernelLaunch(K.cross_entropy_backward, [_rows_output(logits, tiles)], [logits, lse, target, dloss],
                        {**_generics(logits), "WARPS": config.warps, "OCCUPANCY": config.occupancy})


def _cross_entropy_context(ctx: Any, inputs: tuple[Any, ...], output: tuple[torch.Tensor, ...]) -> None:
    ctx.save_for_backward(inputs[0], output[1], inputs[1])


def _cross_entropy_grad(ctx: Any, dloss: torch.Tensor, _dlse: torch.Tensor) -> tuple[Any, ...]:
    # lse is internal (cross_entropy returns the loss alone), so its gradient is never used
    logits, lse, target = ctx.saved_tensors
    return _cross_entropy_backward(logits, lse, target, dloss), None


_cross_entropy.register_autograd(_cross_entropy_grad, setup_context=_cross_entropy_context)


def cross_entropy(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """``torch.nn.functional.cross_entropy(logits, target)`` (mean over rows; the vocabulary is
    the last dimension) on safetile kernels."""
    loss, _ = _cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))
    return loss.mean().to(logits.dtype)


# -- rms_norm ----------------------------------------------------------------------------


@kernel_op("safetile::rms_norm", outputs=2)
def _rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> KernelLaunch:
    tiles = _forward_tiles(x, rows.RMS_NORM, "rms_norm")
    return KernelLaunch(K.rms_norm_forward, [_rows_output(x, tiles), _stat_output(x, tiles[0])], [x, weight],
                  {**_generics(x), "EPS": eps})


def _multiprocessors(device: torch.device) -> int:
    """The GPU's multiprocessor count (``ASSUMED_MULTIPROCESSORS`` off CUDA: on ``meta`` tensors the
    GPU cache build then specializes what an H100 launches)."""
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count
    return ASSUMED_MULTIPROCESSORS


def _norm_backward(x: torch.Tensor, name: str) -> tuple[tuple[int, int], int, dict[str, int]]:
    """The tile, ``G`` (the grid: ``NORM_BACKWARD``'s blocks a multiprocessor, no more than the row
    tiles) and the hints of a norm's backward on the 2-D ``x``."""
    tiles = _row_tiles(x, name, NORM_BACKWARD_ROWS)
    config = next(c for widest, c in sorted(NORM_BACKWARD.items()) if tiles[1] <= widest)
    row_tiles = -(-x.shape[0] // tiles[0])
    groups = max(1, min(row_tiles, config.blocks * _multiprocessors(x.device)))
    return tiles, groups, {"WARPS": config.warps, "OCCUPANCY": config.occupancy}


def _partials(x: torch.Tensor, groups: int, bn: int) -> OutputSpec:
    """The ``[G, N]`` partial sums of a weight gradient (in the accumulator type), a row a block."""
    return OutputSpec((groups, x.shape[1]), _torch_accumulator(x.dtype), (1, bn))


@kernel_op("safetile::rms_norm_backward", outputs=2)
def _rms_norm_backward(x: torch.Tensor, weight: torch.Tensor, rstd: torch.Tensor, dy: torch.Tensor) -> KernelLaunch:
    """``(dx, partial)``: dx and the weight gradient's ``G`` rows of partial sums, in one pass."""
    tiles, groups, hints = _norm_backward(x, "rms_norm")
    return KernelLaunch(K.rms_norm_backward, [_rows_output(x, tiles), _partials(x, groups, tiles[1])],
                        [x, weight, rstd, dy], {**_generics(x), **hints})


@kernel_op("safetile::column_sums")
def _column_sums(partial: torch.Tensor, dtype: torch.dtype) -> KernelLaunch:
    bn = min(_pow2(partial.shape[1]), COLUMN_TILE)
    return KernelLaunch(K.column_sums, [OutputSpec((partial.shape[1],), dtype, (bn,))], [partial],
                        {**_generics(partial), "BM": min(_pow2(partial.shape[0]), REDUCTION_ROWS)})


def _rms_norm_context(ctx: Any, inputs: tuple[Any, ...], output: tuple[torch.Tensor, ...]) -> None:
    ctx.save_for_backward(inputs[0], inputs[1], output[1])


def _rms_norm_grad(ctx: Any, dy: torch.Tensor, _drstd: torch.Tensor) -> tuple[Any, ...]:
    # rstd is internal (rms_norm returns y alone)
    x, weight, rstd = ctx.saved_tensors
    dx, partial = _rms_norm_backward(x, weight, rstd, dy)
    return dx, _column_sums(partial, x.dtype), None


_rms_norm.register_autograd(_rms_norm_grad, setup_context=_rms_norm_context)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    """``x / sqrt(mean(x**2, -1) + eps) * weight`` on safetile kernels."""
    y, _ = _rms_norm(x.reshape(-1, x.shape[-1]), weight, eps)
    return y.reshape(x.shape)


# -- layer_norm --------------------------------------------------------------------------


@kernel_op("safetile::layer_norm", outputs=3)
def _layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> KernelLaunch:
    tiles = _forward_tiles(x, rows.LAYER_NORM, "layer_norm")
    stat = _stat_output(x, tiles[0])
    return KernelLaunch(K.layer_norm_forward, [_rows_output(x, tiles), stat, stat], [x, weight, bias],
                  {**_generics(x), "EPS": eps})


@kernel_op("safetile::layer_norm_backward", outputs=3)
def _layer_norm_backward(x: torch.Tensor, weight: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor,
                         dy: torch.Tensor) -> KernelLaunch:
    """``(dx, partial_w, partial_b)``: dx and the ``G`` rows of partial sums of the weight's and the
    bias's gradients, in one pass."""
    tiles, groups, hints = _norm_backward(x, "layer_norm")
    partials = _partials(x, groups, tiles[1])
    return KernelLaunch(K.layer_norm_backward, [_rows_output(x, tiles), partials, partials],
                        [x, weight, mean, rstd, dy], {**_generics(x), **hints})


def _layer_norm_context(ctx: Any, inputs: tuple[Any, ...], output: tuple[torch.Tensor, ...]) -> None:
    ctx.save_for_backward(inputs[0], inputs[1], output[1], output[2])


def _layer_norm_grad(ctx: Any, dy: torch.Tensor, _dmean: torch.Tensor, _drstd: torch.Tensor) -> tuple[Any, ...]:
    # mean and rstd are internal (layer_norm returns y alone)
    x, weight, mean, rstd = ctx.saved_tensors
    dx, partial_w, partial_b = _layer_norm_backward(x, weight, mean, rstd, dy)
    return dx, _column_sums(partial_w, x.dtype), _column_sums(partial_b, x.dtype), None


_layer_norm.register_autograd(_layer_norm_grad, setup_context=_layer_norm_context)


def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    """``torch.nn.functional.layer_norm(x, x.shape[-1:], weight, bias, eps)`` on safetile kernels."""
    y, _, _ = _layer_norm(x.reshape(-1, x.shape[-1]), weight, bias, eps)
    return y.reshape(x.shape)


# -- matmul ------------------------------------------------------------------------------

MATMUL_TILE = 64
"""The output tile's sides of ``matmul`` (smaller for smaller matrices)."""
MATMUL_STEP = 32
"""``matmul``'s step along the shared dimension."""


@kernel_op("safetile::matmul")
def _matmul(a: torch.Tensor, b: torch.Tensor, transpose_a: bool, transpose_b: bool) -> KernelLaunch:
    m, k = (a.shape[1], a.shape[0]) if transpose_a else (a.shape[0], a.shape[1])
    k_b, n = (b.shape[1], b.shape[0]) if transpose_b else (b.shape[0], b.shape[1])
    if a.dim() != 2 or b.dim() != 2 or k != k_b or a.dtype != b.dtype:
        raise ValueError(f"safetile.nn.matmul multiplies 2-D matrices of one dtype with a shared inner dimension, got "
                         f"{a.dtype} {tuple(a.shape)} and {b.dtype} {tuple(b.shape)}")
    tile = (min(_pow2(m), MATMUL_TILE), min(_pow2(n), MATMUL_TILE))
    return KernelLaunch(K.matmul, [OutputSpec((m, n), a.dtype, tile)], [a, b],
                        {**_generics(a), "BK": min(_pow2(k), MATMUL_STEP), "TA": int(transpose_a),
                         "TB": int(transpose_b)})


def _matmul_context(ctx: Any, inputs: tuple[Any, ...], output: torch.Tensor) -> None:
    ctx.save_for_backward(inputs[0], inputs[1])
    ctx.transposed = inputs[2], inputs[3]


def _matmul_grad(ctx: Any, dc: torch.Tensor) -> tuple[Any, ...]:
    a, b = ctx.saved_tensors
    if ctx.transposed != (False, False):
        raise NotImplementedError("safetile.nn.matmul differentiates a @ b (the transposed forms are its backward)")
    return _matmul(dc, b, False, True), _matmul(a, dc, True, False), None, None


_matmul.register_autograd(_matmul_grad, setup_context=_matmul_context)


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """``a @ b`` for 2-D ``a`` and ``b`` on safetile kernels; its backward is the same kernel reading
    an operand transposed (``dA = dC @ B^T``, ``dB = A^T @ dC``)."""
    return _matmul(a, b, False, False)


# -- attention -----------------------------------------------------------------------------

ATTENTION_TILE = 64
"""The query and key tiles of attention's kernels (smaller for shorter sequences) where
``ATTENTION_FORWARD_TILES`` or ``ATTENTION_BACKWARD_TILES`` lists none for the head dimension and
mask."""


class AttentionTiles(NamedTuple):
    """One attention kernel's query tile, key tile and sm_90 hints: tileiras's worker warps, the
    loads' pipeline depth (``latency``) and blocks a multiprocessor (``occupancy``); 0: tileiras's
    own choice of each.  ``head_major`` (the backward kernels only): the blocks walk one head's
    tiles together, not every head's first tile first (the kernels' ``HEAD_MAJOR``)."""

    bq: int
    bk: int
    warps: int = 0
    latency: int = 0
    occupancy: int = 0
    head_major: int = 0


ATTENTION_FORWARD_TILES: dict[tuple[int, bool], AttentionTiles] = {
    (64, False): AttentionTiles(64, 128, occupancy=2),
    (64, True): AttentionTiles(64, 128, occupancy=2),
}
"""Per ``(head dimension, causal)``, the tiles of ``attention_forward`` (smaller for shorter
sequences): at d64, 64 queries by 128 keys at two blocks a multiprocessor (128 registers, 92,256 B
of shared memory, no spill on sm_90; examples/flash_attention.py's pick at 1024 tokens).  On an
H100 (docs/benchmarks.md section 8, runs -s7a1 and -s7a2): causal, 0.87 of SDPA at the training
step's shape (4 x 1024 tokens, 16 / 8 heads) and 0.84 at 2048 tokens, where the ``ATTENTION_TILE``
square without hints (session 16's: 183 registers, 190,056 B, one block of one consumer warpgroup
a multiprocessor) ran 0.49 and 0.46, and the square at two blocks, 128 x 64 and 128 x 128 at 8
worker warps 0.72-0.82; unmasked at 2048 tokens 0.78 (the square 0.37, 128 x 128 at 8 warps
0.77, the others 0.68-0.71)."""

ATTENTION_BACKWARD_TILES: dict[tuple[int, bool], tuple[AttentionTiles, AttentionTiles]] = {
    (64, False): (AttentionTiles(128, 64, 8, 2), AttentionTiles(64, 128, 8, 2)),
    (64, True): (AttentionTiles(128, 64, 8, 2), AttentionTiles(64, 128, 8, 2)),
    (128, False): (AttentionTiles(128, 64, 8, 4, head_major=1), AttentionTiles(128, 64, 8, 4, head_major=1)),
    (128, True): (AttentionTiles(128, 64, 8, head_major=1), AttentionTiles(64, 128, 8, head_major=1)),
}
"""Per ``(head dimension, causal)``, the tiles of ``(attention_backward_dq, attention_backward_dkdv)``
(smaller for shorter sequences): the fastest of the configurations bench/backward.py timed on an
H100 (docs/benchmarks.md, section 8), none spilling a register on sm_90 at its shapes
(test_torch_autograd.py).  dq's block owns 128 queries and walks 64 keys a step; dk/dv's owns
128 keys and walks 64 queries a step, except at d128 unmasked (64 keys, 128 queries).  All take 8
worker warps (dk/dv at d64 without them: 255 registers and a 352 B spill, its scores and both
accumulators being 128 keys tall); the loads' pipeline depth is 2 at d64 and 4 at d128 unmasked,
where dk/dv's 64-key block then streams its 128-query tiles through 232,056 B of shared memory
(199,296 B at tileiras's own depth: 0.79 of SDPA against 0.68).  At d128 causal the 128-key
dk/dv ran faster than that (0.83 against 0.77), unmasked slower (0.74).  Runs -s6a and -s6b, two
GPU calls, gave the same ratio for each pick.  At d64 causal, run -s7a1 (session 17, one run, the
candidates in the same shuffled rounds): dq walking 64 keys a step ran 1.15 of
SDPA at 2048 tokens and 1.42 at the training step's 1024, against 1.08 and 1.38 for 128 keys.
At d128 both kernels walk one head's tiles together (``head_major``; run -s7a2, one run): 0.805
of SDPA unmasked and 0.87 causal, against 0.787 and 0.832 with every head's first tile first
(the blocks on the GPU at once then read all 64 heads' keys and values, or queries and output
gradients: 64 MB against the 50 MB L2); at d64, where they fit in L2, head-major ran 0.94
unmasked (against 0.95) and slower causal (0.98 against 1.15; 1.09 against 1.44 at 1024
tokens)."""


def _attention_facts(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool) -> tuple[int, int, int]:
    """``(G, BQ, BK)`` for 3-D ``q`` (BH, T, D) and ``k``, ``v`` (BKV, S, D); refusals name the shapes."""
    shapes = f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}"
    if q.dim() != 3 or k.shape != v.shape or k.dim() != 3 or q.shape[2] != k.shape[2] or q.shape[0] % k.shape[0]:
        raise ValueError("safetile.nn.attention takes q (batch, heads, T, D) and k, v (batch, kv_heads, S, D) with "
                         f"heads a multiple of kv_heads, got {shapes}")
    if causal and q.shape[1] != k.shape[1]:
        raise ValueError(f"safetile.nn.attention: causal attention needs as many queries as keys, got {shapes}")
    if _pow2(q.shape[2]) != q.shape[2]:
        raise ValueError(f"safetile.nn.attention: the head dimension must be a power of two, got {q.shape[2]}")
    return q.shape[0] // k.shape[0], min(_pow2(q.shape[1]), ATTENTION_TILE), min(_pow2(k.shape[1]), ATTENTION_TILE)


def _table_entry(table: dict[tuple[int, bool], Any], head: int, causal: bool) -> Any:
    """``table``'s entry for ``(head, causal)``, ``None`` if it lists none (found by comparisons: under
    ``torch.compile`` a dynamic head dimension, unhashable, becomes a guard)."""
    return next((entry for (d, c), entry in table.items() if c == causal and d == head), None)


def _attention_generics(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool, scale: float,
                        tiles: AttentionTiles | None, kernel: str) -> dict[str, Any]:
    """The generics of attention kernel ``kernel`` launched with ``tiles`` (``None``:
    ``ATTENTION_TILE``'s, no hints)."""
    g, bq, bk = _attention_facts(q, k, v, causal)
    generics = {**_generics(q), "G": g, "BQ": bq, "BK": bk, "D": q.shape[2], "CAUSAL": int(causal), "SCALE": scale}
    if tiles is None:
        return generics
    if tiles.head_major and kernel == "forward":
        raise ValueError(f"safetile.nn: attention's forward kernel has no head-major order ({tiles}): only the "
                         "backward kernels' tiles take head_major")
    return {**generics, "BQ": min(_pow2(q.shape[1]), tiles.bq), "BK": min(_pow2(k.shape[1]), tiles.bk),
            "WARPS": tiles.warps, "OCCUPANCY": tiles.occupancy, "LATENCY": tiles.latency}


def _forward_generics(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool, scale: float) -> dict[str, Any]:
    """The generics of the forward kernel: its tiles for the head dimension and the mask."""
    return _attention_generics(q, k, v, causal, scale, _table_entry(ATTENTION_FORWARD_TILES, q.shape[2], causal),
                               "forward")


@kernel_op("safetile::attention", outputs=2)
def _attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool, scale: float) -> KernelLaunch:
    generics = _forward_generics(q, k, v, causal, scale)
    rows = (q.shape[0], q.shape[1])
    return KernelLaunch(K.attention_forward, [OutputSpec(tuple(q.shape), q.dtype, (1, generics["BQ"], q.shape[2])),
                                              OutputSpec(rows, _torch_accumulator(q.dtype), (1, generics["BQ"]))],
                        [q, k, v], generics)


def _backward_generics(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool, scale: float,
                       kernel: int) -> dict[str, Any]:
    """The generics of backward kernel ``kernel`` (0: dq, 1: dk/dv): its tiles for the head dimension
    and the mask."""
    tiles = _table_entry(ATTENTION_BACKWARD_TILES, q.shape[2], causal)
    return _attention_generics(q, k, v, causal, scale, None if tiles is None else tiles[kernel], ("dq", "dkdv")[kernel])


def _head_major(head: int, causal: bool) -> tuple[bool, bool]:
    """Whether dq's and dk/dv's kernels walk one head's tiles together for ``(head, causal)``."""
    tiles = _table_entry(ATTENTION_BACKWARD_TILES, head, causal)
    return (False, False) if tiles is None else (bool(tiles[0].head_major), bool(tiles[1].head_major))


@kernel_op("safetile::attention_backward_dq", outputs=2)
def _attention_backward_dq(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor, do: torch.Tensor,
                           lse: torch.Tensor, causal: bool, scale: float, head_major: bool) -> KernelLaunch:
    """``(dq, delta)``: ``delta = rowsum(do * o)`` comes out of dq's kernel for dk/dv's; both laid out
    ``(T, BH, ...)`` where ``head_major`` (the caller transposes them): then the grid's x is the
    query tile, so the blocks on the GPU at once walk one head's tiles."""
    generics = {**_backward_generics(q, k, v, causal, scale, 0), "HEAD_MAJOR": int(head_major)}
    (bh, t, d), bq, accumulator = q.shape, generics["BQ"], _torch_accumulator(q.dtype)
    if head_major:
        outputs = [OutputSpec((t, bh, d), q.dtype, (bq, 1, d)), OutputSpec((t, bh), accumulator, (bq, 1))]
    else:
        outputs = [OutputSpec((bh, t, d), q.dtype, (1, bq, d)), OutputSpec((bh, t), accumulator, (1, bq))]
    return KernelLaunch(K.attention_backward_dq, outputs, [q, k, v, o, do, lse], generics)


@kernel_op("safetile::attention_backward_dkdv", outputs=2)
def _attention_backward_dkdv(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, do: torch.Tensor,
                             lse: torch.Tensor, delta: torch.Tensor, causal: bool, scale: float,
                             head_major: bool) -> KernelLaunch:
    """``(dk, dv)``, laid out ``(S, BKV, D)`` where ``head_major`` (the caller transposes them):
    then the grid's x is the key tile, so the blocks on the GPU at once walk one head's tiles."""
    generics = {**_backward_generics(q, k, v, causal, scale, 1), "HEAD_MAJOR": int(head_major)}
    bk, d = generics["BK"], k.shape[2]
    if head_major:
        tile = OutputSpec((k.shape[1], k.shape[0], d), k.dtype, (bk, 1, d))
    else:
        tile = OutputSpec(tuple(k.shape), k.dtype, (1, bk, d))
    grouped = (k.shape[0], generics["G"], q.shape[1])  # the query heads of each key head (views)
    return KernelLaunch(K.attention_backward_dkdv, [tile, tile],
                        [q.view(*grouped, q.shape[2]), k, v, do.view(*grouped, q.shape[2]), lse.view(grouped),
                         delta.view(grouped)], generics)


def _attention_context(ctx: Any, inputs: tuple[Any, ...], output: tuple[torch.Tensor, ...]) -> None:
    q, k, v, ctx.causal, ctx.scale = inputs
    ctx.save_for_backward(q, k, v, output[0], output[1])


def _attention_grad(ctx: Any, do: torch.Tensor, _dlse: torch.Tensor) -> tuple[Any, ...]:
    # lse is internal (attention returns o alone)
    q, k, v, o, lse = ctx.saved_tensors
    do = do.contiguous()
    dq_head_major, dkdv_head_major = _head_major(q.shape[2], ctx.causal)
    dq, delta = _attention_backward_dq(q, k, v, o, do, lse, ctx.causal, ctx.scale, dq_head_major)
    if dq_head_major:  # laid out (T, BH, ...); dk/dv's kernel reads delta's rows whole
        dq, delta = dq.transpose(0, 1), delta.transpose(0, 1).contiguous()
    dk, dv = _attention_backward_dkdv(q, k, v, do, lse, delta, ctx.causal, ctx.scale, dkdv_head_major)
    if dkdv_head_major:  # laid out (S, BKV, D)
        dk, dv = dk.transpose(0, 1), dv.transpose(0, 1)
    return dq, dk, dv, None, None


_attention.register_autograd(_attention_grad, setup_context=_attention_context)


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False,
              scale: float | None = None) -> torch.Tensor:
    """``softmax(q k^T * scale) v`` (FlashAttention-2 forward and backward) for q (batch, heads, T, D) and
    k, v (batch, kv_heads, S, D): grouped-query attention where heads is a multiple of kv_heads
    (``torch.nn.functional.scaled_dot_product_attention(..., is_causal=causal, enable_gqa=True)``)."""
    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
        raise ValueError("safetile.nn.attention takes q (batch, heads, T, D) and k, v (batch, kv_heads, S, D), got "
                         f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}")
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    flat = [t.reshape(-1, t.shape[2], t.shape[3]) for t in (q, k, v)]
    o, _ = _attention(*flat, causal, scale)
    return o.reshape(q.shape)


KERNELS = (K.softmax_forward, K.softmax_backward, K.cross_entropy_forward, K.cross_entropy_backward,
           K.rms_norm_forward, K.rms_norm_backward, K.column_sums,
           K.layer_norm_forward, K.layer_norm_backward, K.matmul, K.attention_forward,
           K.attention_backward_dq, K.attention_backward_dkdv)
"""Every kernel of the library (each safe: ``unsafe_report()`` is empty)."""

__all__ = ["KERNELS", "attention", "cross_entropy", "layer_norm", "log_softmax", "matmul", "rms_norm", "softmax"]
