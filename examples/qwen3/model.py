"""A Qwen3 decoder on the safe kernels: batch-1 greedy decoding, one recorded graph per generation.

The decode step is ``7 * layers + 5`` launches (kernels.py) over buffers
allocated once: the token history, the position, the residual stream (two
vectors, ping-ponged), the QKV vector, the attention parts, the MLP vector,
the logits and every layer's KV cache.  With ``Tiles(prefetch_rows=...)``, a
branch of the graph reads each layer's o_proj weights into the L2 cache
(``read_rows``) beside the attention, which waits on latency and leaves the
memory mostly idle, so that o_proj reads them from there: a branch of
``Graph.scope`` runs beside the main line, and the runtime orders anything
the two lines share (here only the weights, read by both, and the branch's
own scratch output).  Off by default: on an H100 the branch and the attention
slow each other more than o_proj gains (docs/model.md, session 5).  The token and the position live in
device memory, so the step is recorded once with ``st.Graph.scope`` and
replayed per position: the prompt runs through it token by token (a
replay at position ``p`` reads ``tokens[p]`` and, past the prompt, writes
the greedy ``tokens[p + 1]``), then the generated tokens feed themselves.

Weights are read-only ``st.shared`` handles held by every launch: Hugging
Face's state dict (reference.random_weights) with q/k/v fused into one
matrix; with tied embeddings the table is also the LM head.  The projections'
weights are uploaded packed in their GEMV's tiles (``kernels.pack_weight``:
each tile contiguous), the embedding table (the LM head) as it is, since the
embedding reads its rows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

import safetile as st

from . import kernels as K
from . import prefill_kernels as P
from .reference import Config, inv_freq


@dataclass(frozen=True)
class Tiles:
    """Tile sizes: ``rows``/``cols`` of the projections' GEMV tiles, ``head_rows`` of the LM head,
    ``keys`` per attention block, ``embed`` columns per embedding block, ``sample`` per step of
    the argmax over the LM head's tiles; ``products``: how attention computes its two products
    (``kernels.REDUCE``, ``ROWS``, ``MMA``); ``fused_append``: the cache append inside the
    attention launch (``attention_append``) rather than its own (``kv_append``);
    ``gemv_latency``, ``gemv_warps`` and ``gemv_occupancy``: the projections' ``latency`` load
    hint, ``num_worker_warps_per_cta`` and ``occupancy``; ``o_rows``, ``o_cols`` and
    ``o_occupancy``: o_proj's own (its 21 MB read on Qwen3-4B is short enough that the ramp
    and tail of 160 blocks of 16 rows cost 7%: bench/gemv_probe.py); ``attention_occupancy``: the
    attention launch's (tileiras's choice where ``None``); ``prefetch_rows`` (a multiple of ``o_rows``) and
    ``prefetch_occupancy``: rows a block and occupancy of the branch that reads o_proj's
    weights into L2 beside the attention (``None`` rows: no branch); ``dependent_launch``: every
    launch may start while the one before drains (the kernels wait for it before touching memory:
    passes/grid_dependency.py), off only to measure what that gains; ``early``: column tiles of
    the weights every block of QKV and the LM head loads before that wait, while
    the kernel before drains (the kernels' ``early_reads``), ``early_tma``: those loads through
    TMA; ``up_early``, ``up_early_tma``: gate/up's; ``down_early``, ``down_early_tma``: down's
    (what it reads during gate/up's last blocks); ``o_early`` and ``o_early_tma``: o_proj's
    (half its weights: it reads them while the attention merge runs; its occupancy 3 leaves
    registers for them) (bench/gemv_probe.py, docs/model.md);
    ``packed``: the projections' weights packed in their tiles (``kernels.pack_weight``), off
    only to measure what that gains (the prefetch branch needs them packed); ``qkv_rows``,
    ``up_rows``, ``down_rows``: QKV's, gate/up's and down's own row tiles (``None``: ``rows``),
    for a shard's smaller projections (tp.py, docs/model.md); ``rope_table``: the decode's
    attention rotates with a table of cosines and sines made with the model (``kernels.rotate``),
    rather than computing them in the kernel, off only to measure what that gains."""

    rows: int = 16
    cols: int = 256
    head_rows: int = 64
    keys: int = 128
    embed: int = 256
    sample: int = 1024
    products: int = K.MMA
    fused_append: bool = True
    gemv_latency: int | None = 4
    gemv_warps: int | None = None
    gemv_occupancy: int | None = 3
    o_rows: int = 8
    o_cols: int = 512
    o_occupancy: int | None = 3
    attention_occupancy: int | None = None
    prefetch_rows: int | None = None
    prefetch_occupancy: int | None = 4
    dependent_launch: bool = True
    early: int = 2
    early_tma: bool = False
    up_early: int = 1
    up_early_tma: bool = False
    down_early: int = 1
    down_early_tma: bool = False
    o_early: int = 4
    o_early_tma: bool = False
    packed: bool = True
    qkv_rows: int | None = None
    up_rows: int | None = None
    down_rows: int | None = None
    rope_table: bool = True

    @property
    def qkv_tile(self) -> int:
        """Rows a block of the QKV projection."""
        return self.rows if self.qkv_rows is None else self.qkv_rows

    @property
    def up_tile(self) -> int:
        """Rows a block of gate/up."""
        return self.rows if self.up_rows is None else self.up_rows

    @property
    def down_tile(self) -> int:
        """Rows a block of down_proj."""
        return self.rows if self.down_rows is None else self.down_rows

    def reads(self, projection: str = "") -> dict[str, Any]:
        """A projection's generics for its early reads: ``""`` QKV's and the LM head's, ``"up"``
        gate/up's, ``"down"``, ``"o"`` o_proj's (the fields ``{projection}_early``, ``_early_tma``)."""
        prefix = f"{projection}_" if projection else ""
        return {"EARLY": getattr(self, prefix + "early"), "EARLY_TMA": getattr(self, prefix + "early_tma")}

    def gemv(self, kernel: st.Kernel) -> st.Kernel:
        """``kernel`` (a projection) with this config's hints."""
        return hinted(kernel, self.gemv_latency, self.gemv_warps, self.gemv_occupancy)

    def o_proj(self, kernel: st.Kernel) -> st.Kernel:
        """``kernel`` (o_proj) with this config's hints for it."""
        return hinted(kernel, self.gemv_latency, self.gemv_warps, self.o_occupancy)

    def prefetch(self, kernel: st.Kernel) -> st.Kernel:
        """``kernel`` (the prefetch branch's) with this config's hints for it."""
        return hinted(kernel, self.gemv_latency, occupancy=self.prefetch_occupancy)

    def attention(self, kernel: st.Kernel) -> st.Kernel:
        """``kernel`` (the attention) with this config's hints."""
        return hinted(kernel, occupancy=self.attention_occupancy)

    def launched(self, kernel: st.Kernel) -> st.Kernel:
        """``kernel`` as this config launches it (with or without an early start)."""
        return kernel if self.dependent_launch else _ordinary(kernel)


@functools.cache
def _ordinary(kernel: st.Kernel) -> st.Kernel:
    """``kernel`` launched only once the one before has ended (one per kernel: a kernel compiles
    each variant once)."""
    return kernel.with_options(dependent_launch=False)


@functools.cache
def hinted(kernel: st.Kernel, latency: int | None = None, warps: int | None = None,
           occupancy: int | None = None) -> st.Kernel:
    """``kernel`` with the sm_90 hints given (those not ``None``); the same kernel for the same
    hints, so that a step's 36 layers compile each variant once."""
    options: dict[str, Any] = {}
    if latency is not None:
        options["load_hints"] = {"sm_90": {"latency": latency}}
    entry = {name: value for name, value in (("num_worker_warps_per_cta", warps), ("occupancy", occupancy))
             if value is not None}
    if entry:
        options["optimization_hints"] = {"sm_90": entry}
    return kernel.with_options(**options) if options else kernel


WAVE_PLANS: dict[tuple[int, int, int], tuple[tuple[int, int], int]] = {
    (512, 2560, 9728): ((128, 256), 3), (512, 2560, 4096): ((128, 128), 3), (512, 9728, 2560): ((128, 128), 1)}
"""Measured plans of the prefill's GEMMs at one shape ``(padded rows, n, k)``: the output tile (a
weight's, for gate/up) and, for down and o_proj, the K splits over every tile column (split-K:
the partials and their sum with the residual).  Qwen3-4B at 512 tokens, where ``gemm_tiles``'
64 x 128 tiles of down and o_proj are 160 blocks, 1.2 waves of 132 SMs: down 128 x 256 in 3
splits (120 blocks), o_proj 128 x 128 in 3 (240), gate/up 128 x 128 a weight (304 blocks of
128 x 256 against 608 of 128 x 128); on an H100 (session 19, docs/model.md) the prefill 9.92
against 11.23 ms, down 1.41 ms + its sum against 2.83, gate/up 3.41 against 3.79, o_proj 0.95 +
its sum against 1.26 (36 layers).  Other shapes and lengths take the rule (not measured)."""


@dataclass(frozen=True)
class PrefillTiles:
    """The prefill's tiles (prefill_kernels.py): ``fit``: each GEMM's output tile fitted to its
    shape by ``examples/gemm.py``'s ``gemm_tiles`` (the rule ``matmul()`` runs: 128 x 256 where
    its waves fill the GPU, 128 x 128, or 64 x 128 where 128 x 128 is under a wave), for the
    prompt's padded rows (``plan_rows`` instead, where given: ``bench/prefill.py --build``
    compiles a long prompt's tiles on a short one); without ``fit``, ``rows`` x ``cols`` tiles
    whatever the shape.  ``up_stacked`` (the default): gate/up in one accumulator from gate and
    up stacked in one ``(2, n, k)`` weight, each step's operand one load, its tile fitted as a
    one-accumulator GEMM of twice its columns, halved (on an H100 0.86-0.88 of cuBLAS's rate at
    2,048 and 8,192 tokens against 0.65-0.67 for the weights apart, docs/model.md session 17);
    the decoder makes the stacked copy when constructed with it, and the decode's gate and up
    are its halves.  Apart (``up_stacked=False``), two accumulators of ``rows`` x ``up_cols``
    either way: two 128 x 128 accumulators (128 x 256's registers) spill 512 bytes a thread at 8
    warps (tileiras on sm_90, this repo's toolchain), where 128 x 64 spills none; or
    ``up_joined``, one accumulator, the two weights' tiles concatenated each step (128 x 128 a
    weight: 168 registers, no spill), its tile fitted as the stacked one's (on an H100 no faster
    than the pairs, 0.55-0.67 of cuBLAS's rate, docs/model.md session 16).  The tiles are taken
    in the grouped order of
    ``group`` rows of tiles; ``packed_tiles``: a fitted tile's most packed weight tiles
    (``pack_weight``'s) in its columns: o_proj's 8-row tiles at 128 x 256 (32 of them) take 255
    registers and spill 1 KB a thread, at 128 x 128 (16) 168 and none; ``big_latency``: the load
    pipeline's depth (``latency`` hint on sm_90) of tiles of 128 x 256 accumulators or more
    (``examples/gemm.py``'s 6); ``depth`` columns of the input a step (it divides the packed
    weights' column tiles), ``gemm_warps``: the GEMMs' ``num_worker_warps_per_cta`` on sm_90
    (tileiras's choice where ``None``: 4 warps, which spill; 8 is 3.4-4x faster on an H200,
    docs/model.md); ``attention``: key rows a tile of the causal attention (it divides
    ``max_positions``), and its query rows a block where the prompt's padded rows exceed
    ``short_rows``, with ``attention_warps`` worker warps (examples/flash_attention.py's measured 8
    for 128-row tiles); up to ``short_rows``, ``short_queries`` query rows a block at occupancy
    ``short_occupancy`` and tileiras's warps (``None``: ``attention`` rows at every length) --
    flash_attention.py's causal d = 128 best on an H100 up to S = 4,096 is 64 x 128 at occupancy
    2 (docs/benchmarks.md §5: twice the blocks, so a short prompt's few query tiles fill the GPU),
    128 x 128 at 8 warps at 8,192 (in the prefill on an H100 the 64-row tiles are within 1-2% of
    128-row ones at 512 and 2,048 tokens, docs/model.md session 17); ``kv_rows``, ``kv_warps``,
    ``kv_occupancy``: rows a block of the cache write (``prefill_kv``; ``None``: the attention's rows, it divides them), its worker warps
    (``None``: the attention's) and its occupancy hint (``None``: none) -- 32 rows, 4 warps,
    occupancy 4 (with ``rotary_table``: 0.27 / 0.42 ms of the 512- / 2,048-token prefill on an
    H100 against 0.42 / 0.67 at 16 rows and 0.36 / 0.63 at 64, docs/model.md session 19; with the
    computed rotation 16 rows took 0.79 ms at 2,048 against 4.42 at the attention's 128 rows and
    8 warps, which spill 1.4 KB a thread, session 13); ``embed``: columns an embedding block copies; ``norm``:
    rows a block of the RMS norm (each row whole, in a power-of-two tile: 4 rows of 4,096 f32
    at Qwen3-4B's 2,560 columns; 1.21 ms of the 2,048-token prefill on an H100 against 1.53 at
    2 rows).  The prompt is padded to a multiple of ``rows`` and
    ``attention``.  ``split_columns``: o_proj and down_proj on ``examples/gemm.py``'s split
    columns where its ``gemm_plan`` picks them for the shape (``residual_plan``: down at 2,048
    tokens on Qwen3-4B), ``o_split`` and ``down_split`` ``(S, C)``: split columns forced (the first
    ``C`` tile columns' K in ``S`` splits; candidates and tests; ``C`` = every tile column: split-K,
    two launches, the partials and their sum with the residual), on ``o_split_tile`` and
    ``down_split_tile`` where given (else ``gemm_tile``'s); ``gate_up_tile``: gate/up's tile
    (a weight's rows x columns) forced, whatever the length; ``wave_plans``: down's, o_proj's and
    gate/up's plans from ``WAVE_PLANS`` at the shapes it holds (Qwen3-4B at 512 tokens), where
    nothing is forced and the tile fits ``rows`` and the packed weights; ``attention_plan``: the causal
    attention's query tiles, launch order and hints from ``examples/flash_attention.py``'s
    ``attention_plan`` (``attention_kernel``), else the fields above (the default: in the
    prefill on an H100 the plan's tiles ran its attention 10% slower, 6.46 against 5.87 ms at
    2,048 tokens, 1.22 against 1.11 at 512, docs/model.md session 18); ``rotated_queries``: the
    queries normalized, rotated and scaled by a launch of their own (``prefill_queries``, blocks
    of ``kv_rows`` rows with the cache write's hints) into an ``E`` buffer that
    ``prefill_attention_rotated`` reads, so the attention's cubin has none of the rotary
    embedding's software sine and cosine (not the default: with ``rotary_table`` the attention
    has none anyway, and the extra launch cost more than it saved on an H100, docs/model.md
    session 19); ``rotary_table`` (the default): the cache write's, the queries' and the
    attention's rotations read their cosines and sines from the decoder's ``rotary_table`` (made
    with the model, ``kernels.rotary_table``) in one ``(rows, D)`` load a tile
    (``prefill_kernels.rotate_rows``), not computed by software sine and cosine in the kernels
    (on an H100 the attention 1.13 -> 0.60 ms at 512 tokens, 5.95 -> 4.15 at 2,048; the whole
    prefill 11.03 -> 10.75 and 33.37 -> 31.34 ms, docs/model.md session 19)."""

    rows: int = 128
    cols: int = 128
    up_cols: int = 64
    fit: bool = True
    plan_rows: int | None = None
    group: int = P.GROUP
    packed_tiles: int = 16
    up_joined: bool = False
    up_stacked: bool = True
    big_latency: int | None = 6
    depth: int = 64
    attention: int = 128
    attention_warps: int | None = 8
    short_queries: int | None = 64
    short_rows: int = 4096
    short_occupancy: int | None = 2
    gemm_warps: int | None = 8
    embed: int = 256
    norm: int = 4
    kv_rows: int | None = 32
    kv_warps: int | None = 4
    kv_occupancy: int | None = 4
    split_columns: bool = True
    down_split: tuple[int, int] | None = None
    o_split: tuple[int, int] | None = None
    down_split_tile: tuple[int, int] | None = None
    o_split_tile: tuple[int, int] | None = None
    gate_up_tile: tuple[int, int] | None = None
    wave_plans: bool = True
    attention_plan: bool = False
    rotated_queries: bool = False
    rotary_table: bool = True

    def __post_init__(self) -> None:
        if self.up_joined and self.up_stacked:
            raise ValueError("PrefillTiles(up_joined=True, up_stacked=True): gate/up runs one way; pick one "
                             "(up_stacked is the default: pass up_stacked=False with up_joined=True)")
        if self.attention % self.write_rows:
            raise ValueError(f"PrefillTiles(kv_rows={self.kv_rows}) must divide the attention tile "
                             f"({self.attention}): the cache write covers the attention's padded rows")
        for name in ("attention", "short_queries"):
            value = getattr(self, name)
            if value is not None and (value < 1 or value & (value - 1)):
                raise ValueError(f"PrefillTiles({name}={value}) must be a power of two: the attention's "
                                 "query and key tiles divide the prompt's padded rows")

    @property
    def write_rows(self) -> int:
        """Rows a block of the cache write."""
        return self.attention if self.kv_rows is None else self.kv_rows

    @property
    def row_step(self) -> int:
        """The prompt's rows are padded to a multiple of this."""
        return max(self.rows, self.attention, self.short_queries or 0)

    def attention_kernel(self, rows: int, head_dim: int | None = None) -> tuple[st.Kernel, int, bool]:
        """The causal attention's kernel (with its hints), query rows a block and whether its blocks
        take the heads first (``HEADS_FIRST``) for ``rows`` padded prompt rows (``plan_rows``
        instead, where given); its key tile is ``attention``.  With ``attention_plan`` and a
        ``head_dim``: ``examples/flash_attention.py``'s ``attention_plan`` for a causal attention of
        that head dimension and length, where its key tile is ``attention``, its query tile
        divides ``row_step`` and it is not persistent (another kernel's) (its ``ORDER = 0``, head
        fastest, as ``HEADS_FIRST``; a grouped order as one head's query tiles together; 8 worker
        warps from 128 query rows, ``short_occupancy`` below, and the plan's store and load
        hints; its ``reverse``, the query tiles from the last, not taken: the prefill's output
        is ``[rows, heads * D]``, whose grouped order reverses the heads, not the query tiles);
        otherwise the fields'."""
        length = self.plan_rows or rows
        base = P.prefill_attention_rotated if self.rotated_queries else P.prefill_attention
        if self.attention_plan and head_dim is not None:
            plan = P.attention_plan(head_dim, True, length)
            if plan.bn == self.attention and self.row_step % plan.bm == 0 and not plan.persistent:
                big = plan.bm >= 128
                kernel = hinted(base, plan.latency or None, self.attention_warps if big else None,
                                None if big else self.short_occupancy)
                return _stored_from_registers(kernel) if plan.register_store else kernel, plan.bm, plan.order == 0
        if self.short_queries is not None and length <= self.short_rows:
            return hinted(base, occupancy=self.short_occupancy), self.short_queries, False
        return hinted(base, warps=self.attention_warps), self.attention, False

    def residual_plan(self, projection: str, rows: int, n: int, k: int,
                      packed_rows: int | None = None) -> tuple[tuple[int, int], int, int]:
        """The output tile, K splits and split tile columns of ``projection`` (``"down"`` or ``"o"``,
        a GEMM onto the residual stream; ``(tile, 0, 0)``: one launch of ``gemm_tile``'s): its
        ``{projection}_split`` ``(S, C)`` where given, on ``gemm_tile``'s tile; else with
        ``split_columns`` and ``fit``, ``examples/gemm.py``'s ``gemm_plan`` for ``rows x n`` over
        ``k`` where it picks split columns (``matmul()``'s: on an H100 Qwen3-4B's down projection
        at 2,048 tokens 0.85 / 0.88 of cuBLAS burst / steady against 0.80 / 0.79 on 128 x 128
        tiles, docs/benchmarks.md §4) and its tile holds at most ``packed_tiles`` packed tiles
        and ``rows`` rows and its K tile is ``depth`` (o_proj's 128 x 256, 32 of its 8-row packed
        tiles, did not compile within tileiras's 300 s here)."""
        tile = self.gemm_tile(rows, n, packed_rows)
        forced = getattr(self, f"{projection}_split")
        if forced is not None:
            splits, columns = forced
            tile = getattr(self, f"{projection}_split_tile") or tile
            limit = n if packed_rows is None else self.packed_tiles * packed_rows
            if tile[0] > self.rows or tile[1] > limit or n % tile[1]:
                raise ValueError(f"PrefillTiles({projection}_split_tile={tile}): its rows must be at most rows "
                                 f"({self.rows}) and its columns divide {n} and be at most {limit} (packed_tiles "
                                 f"x the packed weight's rows); pick e.g. (128, 128)")
            if not (1 <= columns <= n // tile[1] and 1 <= splits <= k // self.depth):
                raise ValueError(f"PrefillTiles({projection}_split={forced}): its {n} columns are {n // tile[1]} "
                                 f"tiles of {tile[1]} and its K {k // self.depth} steps of {self.depth}; pick "
                                 f"(S, C) with 1 <= C <= {n // tile[1]} and 1 <= S <= {k // self.depth}")
            return tile, splits, columns
        measured = self.wave_plan(rows, n, k, packed_rows)
        if measured is not None:
            return measured[0], measured[1], n // measured[0][1]
        if not (self.split_columns and self.fit):
            return tile, 0, 0
        plan = P.gemm_plan(self.plan_rows or rows, n, k)
        fits = (plan.bm <= self.rows and plan.bk == self.depth
                and (packed_rows is None or plan.bn <= self.packed_tiles * packed_rows))
        return ((plan.bm, plan.bn), plan.splits, plan.columns) if plan.columns and fits else (tile, 0, 0)

    def gemm_tile(self, rows: int, n: int, packed_rows: int | None = None) -> tuple[int, int]:
        """The output tile of a one-accumulator GEMM of ``rows`` padded rows and ``n`` columns;
        fitted, at most ``self.rows`` rows (the prompt is padded to a multiple of them) and, for
        a weight packed in tiles of ``packed_rows`` rows, at most ``packed_tiles`` of them."""
        if not self.fit:
            return self.rows, self.cols
        bm, bn, _ = P.gemm_tiles(self.plan_rows or rows, n)
        return min(bm, self.rows), bn if packed_rows is None else min(bn, self.packed_tiles * packed_rows)

    def wave_plan(self, rows: int, n: int, k: int | None,
                  packed_rows: int | None = None) -> tuple[tuple[int, int], int] | None:
        """``WAVE_PLANS``' plan for ``rows`` padded rows (``plan_rows`` instead, where given) of ``n``
        columns over ``k``, with ``wave_plans`` and ``fit``, where its tile has at most ``rows`` rows
        and, for a weight packed in tiles of ``packed_rows`` rows, at most ``packed_tiles`` of them
        in its columns; else ``None``."""
        plan = WAVE_PLANS.get((self.plan_rows or rows, n, k or 0)) if self.wave_plans and self.fit else None
        if plan is None:
            return None
        (bm, bn), _ = plan
        return plan if bm <= self.rows and (packed_rows is None or bn <= self.packed_tiles * packed_rows) else None

    def up_tile(self, rows: int, n: int, packed_rows: int | None = None, k: int | None = None) -> tuple[int, int]:
        """Gate/up's output tile (``n`` columns, two weights, over ``k``): ``rows`` x ``up_cols``, or
        joined or stacked, ``gate_up_tile`` where given, else stacked ``wave_plan``'s where it has one, else
        half the columns of a one-accumulator GEMM's tile of ``2 * n`` columns."""
        if not (self.up_joined or self.up_stacked):
            return self.rows, self.up_cols
        if self.gate_up_tile is not None:
            return self.gate_up_tile
        measured = self.wave_plan(rows, n, k, packed_rows) if self.up_stacked else None
        if measured is not None:
            return measured[0]
        bm, bn = self.gemm_tile(rows, 2 * n, packed_rows)
        return bm, bn // 2

    def gemm_kernel(self, kernel: st.Kernel, tile: tuple[int, int]) -> st.Kernel:
        """``kernel`` (a prefill GEMM) with its hints for ``tile``: ``gemm_warps``, and
        ``big_latency`` where the tile is 128 x 256 or more."""
        big = tile[0] * tile[1] >= 128 * 256
        return hinted(kernel, latency=self.big_latency if big else None, warps=self.gemm_warps)


@functools.cache
def _stored_from_registers(kernel: st.Kernel) -> st.Kernel:
    """``kernel`` with its output stored from registers (``flash_attention.REGISTER_STORE``; one
    kernel a kernel, as ``hinted``)."""
    return kernel.with_options(store_hints=P.REGISTER_STORE)


TINY_PREFILL = PrefillTiles(rows=16, cols=16, up_cols=16, depth=16, attention=16, attention_warps=None,
                            short_queries=8, short_occupancy=None, gemm_warps=None, embed=16, norm=16, kv_rows=8)
"""The tiny configs' prefill tiles: the cache written in blocks of half the attention's rows, the
attention's query tiles half its key tiles (a short prompt's: two query tiles a key tile)."""

TINY_TILES = Tiles(rows=16, cols=16, head_rows=16, keys=8, embed=16, sample=8, o_rows=8, o_cols=32, o_early=2)


def _stacked(parts: list[Any]) -> Any:
    """numpy arrays (or torch tensors) of one shape stacked along a new first dimension."""
    if isinstance(parts[0], np.ndarray):
        return np.stack(parts)
    import torch

    return torch.stack(parts)


def _stack_rows(parts: list[Any]) -> Any:
    """The row-wise concatenation of numpy arrays (or torch tensors)."""
    if isinstance(parts[0], np.ndarray):
        return np.concatenate(parts)
    import torch

    return torch.cat(parts)


class Qwen3Decoder:
    """``generate(prompt, steps)``: greedy tokens, the step replayed as one graph.

    ``weights`` maps Hugging Face's names to arrays; ``upload`` makes a device tensor of one
    (default: ``st.from_numpy(a, dtype=dtype)``; ``st.from_dlpack`` shares torch's memory);
    ``zeros(shape, dtype)`` a device tensor of zeros, for the caches and the prefill's buffers
    (default: an upload of numpy zeros, converted on the host: seconds for one bf16 layer cache
    of 16,384 positions, and Qwen3-4B has 72; bench/prefill.py passes torch's)."""

    def __init__(self, config: Config, weights: Mapping[str, Any], *, dtype: st.DType = st.bf16,
                 max_positions: int = 2048, tiles: Tiles = Tiles(), prefill_tiles: PrefillTiles = PrefillTiles(),
                 upload: Callable[[Any], st.Tensor] | None = None,
                 zeros: Callable[[tuple[int, ...], st.DType], st.Tensor] | None = None):
        if max_positions % tiles.keys:
            raise ValueError(f"max_positions ({max_positions}) must be a multiple of the key tile ({tiles.keys})")
        hidden, intermediate, attended = config.hidden, config.intermediate, config.heads * config.head_dim
        for projection, size, length, cols, early in (
                ("QKV, the LM head", "hidden", hidden, tiles.cols, "early"), ("gate/up", "hidden", hidden, tiles.cols, "up_early"),
                ("down", "intermediate", intermediate, tiles.cols, "down_early"),
                ("o_proj", "heads x head_dim", attended, tiles.o_cols, "o_early")):
            if length % cols:
                raise ValueError(f"the GEMV column tile ({cols}) must divide the {size} size ({length}): "
                                 "pick Tiles(cols=..., o_cols=...) dividing it")
            if getattr(tiles, early) > length // cols:
                raise ValueError(f"Tiles({early}={getattr(tiles, early)}) reads more column tiles early than "
                                 f"{projection} has ({length} / {cols}): pick at most {length // cols}")
        self.config, self.dtype, self.tiles, self.max_positions = config, dtype, tiles, max_positions
        self.prefill_tiles = prefill_tiles
        put = upload or (lambda a: st.from_numpy(a, dtype=dtype).sync())
        # Uploads, not st.zeros: the cuda backend's memset fill failed for bf16 (2026-11-24).
        self.zeros = zeros or (lambda shape, e: st.from_numpy(np.zeros(shape, np.float32), dtype=e).sync())

        def shared(array: Any) -> st.Shared:
            return st.shared(put(array))

        c, w = config, weights
        self.embedding = shared(w["model.embed_tokens.weight"])
        self.head = self.embedding if c.tied else shared(w["lm_head.weight"])
        self.final_norm = shared(w["model.norm.weight"])
        self.inv_freq = st.shared(st.from_numpy(inv_freq(c)).sync())
        self.rotary_table = st.shared(st.from_numpy(K.rotary_table(inv_freq(c), max_positions)).sync())
        """The cosines and sines of every position (``kernels.rotary_table``): made once, whatever
        the tiles (a benchmark swaps ``prefill_tiles`` on one decoder)."""
        self.rotary = self.rotary_table if tiles.rope_table else self.inv_freq
        """What the decode's attention rotates with (``kernels.rotate``): the table, or the frequencies."""
        self.layers = []
        if tiles.prefetch_rows is not None and not tiles.packed:
            raise ValueError("the prefetch branch reads o_proj's weights packed: Tiles(packed=True)")

        def packed(array: Any, rows: int = tiles.rows, cols: int = tiles.cols) -> Any:
            return K.pack_weight(array, rows, cols) if tiles.packed else array

        for i in range(c.layers):
            p = f"model.layers.{i}."
            qkv = _stack_rows([w[p + f"self_attn.{n}_proj.weight"] for n in "qkv"])
            gate, up = (packed(w[p + f"mlp.{n}_proj.weight"], tiles.up_tile) for n in ("gate", "up"))
            stacked = _stacked([gate, up]) if prefill_tiles.up_stacked else None
            if stacked is not None:  # the decode's gate and up: the halves of the prefill's stacked copy
                gate, up = stacked[0], stacked[1]  # (one memory where ``upload`` shares it, as DLPack does)
            self.layers.append({
                name: shared(array) for name, array in {
                    "ln1": w[p + "input_layernorm.weight"], "qkv": packed(qkv, tiles.qkv_tile),
                    "q_norm": w[p + "self_attn.q_norm.weight"], "k_norm": w[p + "self_attn.k_norm.weight"],
                    "o": packed(w[p + "self_attn.o_proj.weight"], tiles.o_rows, tiles.o_cols),
                    "ln2": w[p + "post_attention_layernorm.weight"],
                    "gate": gate, "up": up, "down": packed(w[p + "mlp.down_proj.weight"], tiles.down_tile),
                }.items()
            })
            if stacked is not None:
                self.layers[-1]["gate_up"] = shared(stacked)
        self.buffers: dict[str, st.Tensor] = {}
        self.scratch: dict[str, st.Tensor] = {}
        """The prefill's buffers (``prefill``), kept for the next prompt of as many padded rows."""

    def _allocate(self, prompt: list[int]) -> None:
        """Fresh buffers: the prompt at the head of the token history, position 0, empty caches."""
        c, t, s = self.config, self.tiles, self.max_positions
        tokens = np.zeros(s, np.int32)
        tokens[: len(prompt)] = prompt
        f32 = st.f32
        shapes = {
            "x": (c.hidden,), "x2": (c.hidden,), "qkv": (c.qkv,), "attn": (c.heads * c.head_dim,),
            "o_part": (c.kv_heads, s // t.keys, c.group_tile * c.head_dim), "lse": (c.kv_heads, s // t.keys, c.group_tile),
            "mlp": (c.intermediate,), "logits": (c.vocab,), "best": (c.vocab // t.head_rows,),
        }
        self.buffers = {name: st.zeros(shape, f32).sync() for name, shape in shapes.items()}
        if t.prefetch_rows is not None:
            self.buffers["prefetched"] = st.zeros((-(-c.hidden // t.prefetch_rows),), f32).sync()
        self.buffers["best_at"] = st.zeros((c.vocab // t.head_rows,), st.i32).sync()
        self.buffers["tokens"] = st.from_numpy(tokens).sync()
        self.buffers["pos"] = st.zeros((1,), st.i32).sync()
        self.buffers["pos_next"] = st.zeros((1,), st.i32).sync()
        for i in range(c.layers):
            for kv in "kv":
                self.buffers[f"{kv}{i}"] = self.zeros((c.kv_heads, s, c.head_dim), self.dtype)

    def _launch(self, run: Callable[[st.DeviceOp], Any], kernel: Any, *args: Any, **generics: Any) -> None:
        """``kernel`` on the named buffers: ``(name, tile)`` is an output partitioned by ``tile``,
        a ``str`` an input buffer, anything else (weights, scalars) passed as it is.  The
        handles the launch gives back replace the buffers."""
        launched = []
        for arg in args:
            if isinstance(arg, tuple):
                launched.append(self.buffers.pop(arg[0]).partition(arg[1]))
            elif isinstance(arg, str):
                launched.append(self.buffers.pop(arg))
            else:
                launched.append(arg)
        values = run(self.tiles.launched(kernel)(*launched, **generics))
        for arg, value in zip(args, values):
            if isinstance(arg, tuple):
                self.buffers[arg[0]] = value.unpartition()
            elif isinstance(arg, str):
                self.buffers[arg] = value

    def step(self, scope: Any, prompt_len: int) -> None:
        """Record the launches of one decode step in ``scope`` (what ``Graph.scope()`` yields)."""
        c, t = self.config, self.tiles
        g, gp, d, eps = c.group, c.group_tile, c.head_dim, c.eps
        merged = g if g == gp else 1  # query heads a merge block: the group, or one where it is padded
        launch, run = self._launch, scope.record
        launch(run, K.embed, ("x", (t.embed,)), self.embedding, "tokens", "pos")
        for i, layer in enumerate(self.layers):
            k, v = f"k{i}", f"v{i}"
            launch(run, t.gemv(K.norm_gemv), ("qkv", (t.qkv_tile,)), "x", layer["ln1"], layer["qkv"], eps, BK=t.cols,
                   **t.reads())
            if t.prefetch_rows is not None:
                with scope.branch() as branch:
                    launch(branch.record, t.prefetch(K.read_rows), ("prefetched", (1,)), layer["o"],
                           BN=t.prefetch_rows)
            heads = ("o_part", (1, 1, gp * d)), ("lse", (1, 1, gp))
            if t.fused_append:
                launch(run, t.attention(K.attention_append), *heads, (k, (1, t.keys, d)), (v, (1, t.keys, d)), "qkv",
                       layer["q_norm"], layer["k_norm"], self.rotary, "pos", eps, d ** -0.5, KVH=c.kv_heads,
                       G=g, PRODUCTS=t.products, TABLE=int(t.rope_table))
            else:
                launch(run, K.kv_append, (k, (c.kv_heads, 1, d)), (v, (c.kv_heads, 1, d)), "qkv", layer["k_norm"],
                       self.rotary, "pos", eps, G=g, TABLE=int(t.rope_table))
                launch(run, t.attention(K.attention_split), *heads, "qkv", layer["q_norm"], self.rotary, k, v, "pos", eps,
                       d ** -0.5, BN=t.keys, G=g, PRODUCTS=t.products, TABLE=int(t.rope_table))
            launch(run, K.attention_merge, ("attn", (merged * d,)), "o_part", "lse", "pos", R=merged, G=g, D=d,
                   TILES=self.max_positions // t.keys, BN=t.keys)
            self._row_parallel(run, t.o_proj, ("x2", (t.o_rows,)), "x", "attn", layer["o"], BK=t.o_cols,
                               **t.reads("o"))
            launch(run, t.gemv(K.norm_gate_up), ("mlp", (t.up_tile,)), "x2", layer["ln2"], layer["gate"], layer["up"], eps,
                   BK=t.cols, **t.reads("up"))
            self._row_parallel(run, t.gemv, ("x", (t.down_tile,)), "x2", "mlp", layer["down"], BK=t.cols,
                               **t.reads("down"))
        self._head(run, prompt_len)

    def _row_parallel(self, run: Callable[[st.DeviceOp], Any], hint: Callable[[st.Kernel], st.Kernel],
                      out: tuple[str, tuple[int]], residual: str, x: str, w: Any, **generics: Any) -> None:
        """o_proj or down (row-parallel when sharded): ``out = residual + w @ x`` (``gemv_residual``
        with ``hint``'s hints, ``out`` the output buffer and its row tile), then ``_reduce``'s sum
        over the ranks (tp.py may do both in one launch)."""
        self._launch(run, hint(K.gemv_residual), out, self._residual(residual), x, w, **generics)
        self._reduce(run, out[0])

    def _residual(self, name: str) -> str:
        """The buffer a projection adds its product to (the row-parallel ones' partial sums, when
        sharded: tp.py)."""
        return name

    def _reduce(self, run: Callable[[st.DeviceOp], Any], name: str) -> None:
        """After the row-parallel projection writing ``name``: nothing unsharded (tp.py sums the
        ranks' partial products there, with torch's collectives or a launch through ``run``)."""

    def _gather_best(self) -> tuple[str, str]:
        """After the LM head: the buffers of the per-tile maxima and where they are, which the
        sampling reads (tp.py gathers every rank's into others)."""
        return "best", "best_at"

    def _head(self, run: Callable[[st.DeviceOp], Any], prompt_len: int) -> None:
        """The end of a step, on ``x`` (the last layer's output at ``pos``): the LM head's logits,
        ``tokens[pos + 1]`` its greedy token (past the prompt), the position advanced."""
        t, launch = self.tiles, self._launch
        launch(run, K.norm_gemv_argmax, ("logits", (t.head_rows,)), ("best", (1,)), ("best_at", (1,)), "x",
               self.final_norm, self.head, self.config.eps, BK=t.cols, **t.reads())
        best, best_at = self._gather_best()
        launch(run, K.sample, ("tokens", (1,)), best, best_at, "pos", prompt_len, BT=t.sample)
        launch(run, K.advance, ("pos_next", (1,)), "pos", 1)
        launch(run, K.advance, ("pos", (1,)), "pos_next", 0)

    def _prefill_scratch(self, rows: int) -> None:
        """The prefill's buffers for ``rows`` padded prompt rows, into ``buffers`` (those of the
        last prefill when it had as many rows)."""
        c, e = self.config, self.dtype
        shapes = {name: ((rows, cols), dtype) for name, (cols, dtype) in {
            "X": (c.hidden, st.f32), "X2": (c.hidden, st.f32), "XN": (c.hidden, e), "QKV": (c.qkv, st.f32),
            "O": (c.heads * c.head_dim, e), "M": (c.intermediate, e)}.items()}
        if self.prefill_tiles.rotated_queries:  # the queries made ready for the attention
            shapes["Q"] = ((rows, c.heads * c.head_dim), e)
        for projection in ("o", "down"):  # split columns: [S, rows, C * BN] f32 partials
            (_, bn), splits, columns = self._residual_plan(projection, rows)
            if columns:
                shapes[f"P_{projection}"] = ((splits, rows, columns * bn), st.f32)
        if {name: t.shape for name, t in self.scratch.items()} != {name: shape for name, (shape, _) in shapes.items()}:
            self.scratch = {name: self.zeros(shape, dtype) for name, (shape, dtype) in shapes.items()}
        self.buffers.update(self.scratch)
        self.scratch = {}

    def _residual_plan(self, projection: str, rows: int) -> tuple[tuple[int, int], int, int]:
        """``projection``'s (``"o"``, ``"down"``) tile, splits and split columns for ``rows``
        padded prompt rows."""
        c, t = self.config, self.tiles
        k, packed_rows = (c.heads * c.head_dim, t.o_rows) if projection == "o" else (c.intermediate, t.down_tile)
        return self.prefill_tiles.residual_plan(projection, rows, c.hidden, k, packed_rows if t.packed else None)

    def _residual_gemm(self, run: Callable[[st.DeviceOp], Any], projection: str, z: str, residual: str, a: str,
                       weight: st.Shared, rows: int) -> None:
        """``z = residual + a @ weight^T``: ``projection``'s GEMM (``_residual_plan``) in one launch, or
        on split columns in three (``examples/gemm.py``'s ``split_columns``: the split columns'
        partials, every other tile, the split tiles' sums), two where every column is split."""
        p, launch = self.prefill_tiles, self._launch
        tile, _, split = self._residual_plan(projection, rows)
        gemm = p.gemm_kernel(P.gemm_residual, tile)
        if not split:
            launch(run, gemm, (z, tile), residual, a, weight, BK=p.depth, G=p.group)
            return
        piece = min(P.SUM_PIECE[0], tile[0]), min(P.SUM_PIECE[1], tile[1])
        launch(run, p.gemm_kernel(P.gemm_partials, tile), (f"P_{projection}", (1, *tile)), a, weight, BK=p.depth)
        if split * tile[1] < self.config.hidden:  # every column split: the sum writes all of z (split-K)
            launch(run, gemm, (z, tile), residual, a, weight, BK=p.depth, G=p.group, SPLIT=split)
        launch(run, P.residual_partials_sum, (z, piece), residual, f"P_{projection}")

    def _prefill_inputs(self, prompt: list[int]) -> None:
        """Check ``prompt`` fits the prefill's tiles and the caches, and upload it with its scratch
        buffers (``prompt``: the tokens padded to the row tile; ``last``: ``len(prompt) - 1``)."""
        n, p = len(prompt), self.prefill_tiles
        if self.max_positions % p.attention:
            raise ValueError(f"a prefill needs max_positions ({self.max_positions}) to be a multiple of the "
                             f"prefill's attention tile ({p.attention}): pick PrefillTiles(attention=...) dividing it")
        rows = -(-n // p.row_step) * p.row_step
        if rows > self.max_positions:
            raise ValueError(f"a prefill of {n} tokens takes {rows} cache rows (padded to a multiple of "
                             f"{p.row_step}): more than max_positions ({self.max_positions})")
        self._prefill_scratch(rows)
        tokens = np.zeros(rows, np.int32)
        tokens[:n] = prompt
        self.buffers["prompt"] = st.from_numpy(tokens).sync()
        self.buffers["last"] = st.from_numpy(np.array([n - 1], np.int32)).sync()

    def _prefill_launches(self, run: Callable[[st.DeviceOp], Any], n: int) -> None:
        """The prefill's launches for an ``n``-token prompt (its inputs uploaded), through ``run``:
        8 a layer (2 more for o_proj or down on split columns, 1 for ``rotated_queries``), the
        embedding, the last row's copy, the position set to ``n - 1`` and the decode step's head
        (which advances it to ``n``)."""
        c, t, p = self.config, self.tiles, self.prefill_tiles
        g, d, eps = c.group, c.head_dim, c.eps
        launch = self._launch
        kv_warps = p.attention_warps if p.kv_warps is None else p.kv_warps
        write_kv = hinted(P.prefill_kv, warps=kv_warps, occupancy=p.kv_occupancy)
        ready_queries = hinted(P.prefill_queries, warps=kv_warps, occupancy=p.kv_occupancy)
        rows = self.buffers["X"].shape[0]
        attention, queries, heads_first = p.attention_kernel(rows, d)
        qkv_rows, up_rows = (t.qkv_tile, t.up_tile) if t.packed else (None, None)
        qkv_tile, up_tile = p.gemm_tile(rows, c.qkv, qkv_rows), p.up_tile(rows, c.intermediate, up_rows, c.hidden)
        gemm = p.gemm_kernel(P.gemm, qkv_tile)
        one_accumulator = p.up_joined or p.up_stacked
        gate_up = p.gemm_kernel(P.gate_up_stacked_gemm if p.up_stacked else P.gate_up_gemm,
                                (up_tile[0], 2 * up_tile[1]) if one_accumulator else up_tile)
        if p.up_stacked and "gate_up" not in self.layers[0]:
            raise ValueError("PrefillTiles(up_stacked=True) reads the stacked gate/up copy made at construction: "
                             "construct the decoder with prefill_tiles=PrefillTiles(up_stacked=True, ...)")
        norm_tile = (p.norm, P.row_tile(c.hidden))
        rotary, table = (self.rotary_table, 1) if p.rotary_table else (self.inv_freq, 0)
        launch(run, P.embed_rows, ("X", (1, p.embed)), self.embedding, "prompt")
        for i, layer in enumerate(self.layers):
            k, v = f"k{i}", f"v{i}"
            launch(run, P.norm_rows, ("XN", norm_tile), "X", layer["ln1"], eps)
            launch(run, gemm, ("QKV", qkv_tile), "XN", layer["qkv"], BK=p.depth, G=p.group)
            launch(run, write_kv, (k, (1, p.write_rows, d)), (v, (1, p.write_rows, d)), "QKV", layer["k_norm"],
                   rotary, n, eps, KVH=c.kv_heads, G=g, TABLE=table)
            if p.rotated_queries:
                launch(run, ready_queries, ("Q", (p.write_rows, d)), "QKV", layer["q_norm"], rotary, eps,
                       d ** -0.5, TABLE=table)
                launch(run, attention, ("O", (queries, d)), "Q", k, v, BN=p.attention, KVH=c.kv_heads, G=g,
                       HEADS_FIRST=heads_first)
            else:
                launch(run, attention, ("O", (queries, d)), "QKV", layer["q_norm"], rotary, k, v, eps,
                       d ** -0.5, BN=p.attention, KVH=c.kv_heads, G=g, HEADS_FIRST=heads_first, TABLE=table)
            self._residual_gemm(run, "o", "X2", "X", "O", layer["o"], rows)
            launch(run, P.norm_rows, ("XN", norm_tile), "X2", layer["ln2"], eps)
            if p.up_stacked:
                launch(run, gate_up, ("M", up_tile), "XN", layer["gate_up"], BK=p.depth, G=p.group)
            else:
                launch(run, gate_up, ("M", up_tile), "XN", layer["gate"], layer["up"], BK=p.depth, G=p.group,
                       JOINED=p.up_joined)
            self._residual_gemm(run, "down", "X", "X2", "M", layer["down"], rows)
        launch(run, P.take_row, ("x", (t.embed,)), "X", n - 1)
        launch(run, K.advance, ("pos", (1,)), "last", 0)
        self._head(run, n)

    def _prefill_done(self) -> None:
        """Keep the prefill's scratch buffers for the next prompt of as many padded rows."""
        del self.buffers["prompt"], self.buffers["last"]
        for name in ("X", "X2", "XN", "QKV", "O", "M", "P_o", "P_down", "Q"):
            if name in self.buffers:
                self.scratch[name] = self.buffers.pop(name)

    def prefill(self, prompt: list[int], stream: st.Stream | None = None) -> None:
        """The prompt in one pass over fresh buffers (``_allocate``'s): every layer's caches hold
        rows ``0 .. len(prompt) - 1``, ``logits`` the last row's, ``tokens[len(prompt)]`` its
        greedy token and the position is ``len(prompt)``: the decode graph continues from there.
        Enqueued launch by launch on ``stream`` (default: the default stream); a host read waits
        for it."""
        self._prefill_inputs(prompt)
        queue = stream or st.current_backend().default_stream
        self._prefill_launches(lambda op: op.enqueue(queue), len(prompt))
        self._prefill_done()

    def record_prefill(self, prompt: list[int], *, fresh: bool = True) -> st.Graph:
        """Fresh buffers for ``prompt`` (with ``fresh=False``: those of the last ``record`` or
        ``record_prefill`` of a prompt as long, as a benchmark's repeated prefills reuse them) and
        the prefill's launches recorded as one graph (nothing runs): each replay does what
        ``prefill`` does, without the host's launch costs."""
        self.check_lengths(prompt)
        if fresh or "tokens" not in self.buffers:
            self._allocate(prompt)
        self._prefill_inputs(prompt)
        with st.Graph.scope() as scope:
            self._prefill_launches(scope.record, len(prompt))
        self._prefill_done()
        assert scope.graph is not None
        return scope.graph

    def record(self, prompt: list[int], *, prefill: bool = False) -> st.Graph:
        """Fresh buffers for ``prompt`` and the graph of one step over them; with ``prefill`` the
        prompt is run through ``prefill`` first (the graph continues at ``len(prompt)``),
        without, nothing runs."""
        self.check_lengths(prompt)
        self._allocate(prompt)
        if prefill:
            self.prefill(prompt)
        with st.Graph.scope() as scope:
            self._capturing(scope)
            self.step(scope, len(prompt))
        assert scope.graph is not None
        return scope.graph

    def _capturing(self, scope: Any) -> None:
        """Called as the step's capture begins in ``scope`` (tp.py: its collectives go there)."""

    def check_lengths(self, prompt: list[int], steps: int = 1) -> None:
        """Refuse a prompt, or a generation of ``steps`` tokens after it, that does not fit."""
        if not 0 < len(prompt) < self.max_positions:
            raise ValueError(f"the prompt must have 1 to {self.max_positions - 1} tokens, got {len(prompt)}")
        if len(prompt) + steps > self.max_positions:
            raise ValueError(f"{len(prompt)} prompt tokens and {steps} steps exceed max_positions "
                             f"({self.max_positions})")
        if steps < 1:
            raise ValueError(f"generate takes at least 1 step, got {steps}")

    def generate(self, prompt: list[int], steps: int, *, prefill: bool = False) -> list[int]:
        """``steps`` greedy tokens after ``prompt``: ``len(prompt) - 1 + steps`` replays of one graph,
        or with ``prefill`` the prompt in one pass (``prefill``) and ``steps - 1`` replays."""
        self.check_lengths(prompt, steps)
        graph = self.record(prompt, prefill=prefill)
        for _ in range(steps - 1 if prefill else len(prompt) - 1 + steps):
            graph.replay()
        graph.release()
        return [int(t) for t in self.read("tokens")[len(prompt): len(prompt) + steps]]

    def read(self, name: str) -> np.ndarray:
        """A buffer's contents (``logits``: those of the last step)."""
        return self.buffers[name].numpy()
