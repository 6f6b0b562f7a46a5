"""The kernels of a Qwen3 prefill: the whole prompt in one pass, every kernel safe.

The prompt's ``n`` tokens are rows (padded to a multiple of the row tile): the
residual stream ``X`` is an f32 ``[rows, hidden]`` matrix, the GEMMs' other
inputs are ``E`` (bf16, f16 or f32) and every product accumulates in f32 on
the tensor cores (``st.mma``).  The projections read the decoder's weights as
they are uploaded, plain ``(n, k)`` or packed in the GEMV's tiles
(``kernels.pack_weight``): one copy serves prefill and decode.

* ``embed_rows``         X[r] = table[tokens[r]]
* ``norm_rows``          Xn = rms_norm(X) * norm_w, in ``E``: each row normalized once
* ``gemm``               Z = Xn @ W^T                                   (QKV: f32 out)
* ``prefill_kv``         rows ``0 .. n`` of the KV caches: keys normalized per head and rotated
                         at their positions (``rotate_rows``), values as they are
* ``prefill_attention``  causal GQA flash attention of each query head over the cache
                         (its queries normalized and rotated in the block), ``E`` out
* ``prefill_queries``, ``prefill_attention_rotated``: the same in two launches, the queries
                         made ready (normalized, rotated, scaled, ``E``) by the first
* ``gemm_residual``      Z = R + A @ W^T                                (o_proj, down_proj)
* ``gemm_partials``, ``residual_partials_sum``: with ``gemm_residual(SPLIT=C)``, down_proj on
                         split columns (``examples/gemm.py``'s ``split_columns``, where its
                         ``gemm_plan`` picks them: the first C tile columns' K in S splits)
* ``gate_up_gemm``       Z = silu(Xn @ Wg^T) * (Xn @ Wu^T)
* ``gate_up_stacked_gemm`` the same of ``W = [Wg, Wu]`` stacked in one ``(2, n, k)`` weight
* ``take_row``           z = X[row]: the last prompt row, for the decoder's LM head

The three GEMM kernels take their output tiles in the grouped order
(``st.grouped(G)``, as ``examples/gemm.py``'s ``grouped_gemm``: consecutive
blocks share rows of ``A`` and of the weights in L2; each tile still has one
writer); their tile sizes are the launcher's (model.py: ``PrefillTiles``
fits them to each GEMM's shape with ``gemm.py``'s ``gemm_tiles``).

The RMS norms run once a row, into an ``E`` copy of the residual stream that
QKV and gate/up read: every GEMM's ``A`` is then an ``E`` matrix (one GEMM
loop, ``rows_times_weights``, for all four projections).  Fusing the norm into
the GEMMs (their ``A`` the f32 stream, squared and converted in the loop) ran
them at half the plain GEMMs' rate on an H100 (docs/model.md).  The KV cache is written
by ``prefill_kv``'s grid over the cache's own tiles (blocks past the prompt
return), so each cache tile has one writer; the attention then reads the cache,
which the decode graph continues from (model.py: ``Qwen3Decoder.prefill``).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import safetile as st
from safetile import f32, i32

from .kernels import LOG2E, head_rms_norm, rope, rotated

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/: the flash attention's tile step
from flash_attention import REGISTER_STORE, attend, attention_plan, below  # noqa: E402,F401 - its plan (model.py)
from gemm import GROUP, SUM_PIECE, gemm_plan, gemm_tiles  # noqa: E402,F401 - the GEMMs' plans, tiles, order (model.py)
from rms_norm import row_tile  # noqa: E402,F401 - the norm's tile width (model.py)


@st.function
def gemm_weight_tile(w, bn, kt, s, BN, BK):
    """Rows ``bn * BN ...`` of a ``(N, K)`` weight, columns ``(kt * steps + s) * BK ...``, as an
    ``(BN, BK)`` tile: ``w`` plain (2-d; ``s`` is 0) or packed by ``pack_weight`` (4-d, tiles of
    ``(P, PK)``: ``BN / P`` consecutive tiles of column tile ``kt``, their ``s``-th ``BK``
    columns; ``steps = PK / BK``)."""
    if len(w.shape) == 4:
        P = w.shape[2]
        return w.partition((BN // P, 1, P, BK)).load((bn, kt, 0, s)).reshape((BN, BK))
    return w.partition((BN, BK)).load((bn, kt))


@st.function
def stacked_weight_tile(w, bn, kt, s, BN, BK):
    """``gemm_weight_tile`` of both weights of a stacked ``(2, N, K)`` weight (each plain, 3-d,
    or packed by ``pack_weight``, 5-d) in one load: a ``(2 * BN, BK)`` tile, the first weight's
    ``BN`` rows then the second's."""
    if len(w.shape) == 5:
        P = w.shape[3]
        return w.partition((2, BN // P, 1, P, BK)).load((0, bn, kt, 0, s)).reshape((2 * BN, BK))
    return w.partition((2, BN, BK)).load((0, bn, kt)).reshape((2 * BN, BK))


@st.function
def gemm_steps(w, BN, BK, K, lead=0):
    """``BK``-column steps per column tile of ``w`` (1 plain, ``PK / BK`` packed), with the
    static checks that ``w``'s tiles fit the GEMM's; ``lead``: ``w``'s dimensions before a
    weight's (1: two weights stacked)."""
    if len(w.shape) == lead + 4:
        assert BN % w.shape[lead + 2] == 0, "the GEMM's row tile BN is a multiple of the packed tile's rows"
        assert w.shape[lead + 3] % BK == 0, "the GEMM's step BK divides the packed tile's columns"
        assert w.shape[lead + 1] * w.shape[lead + 3] == K, "w's packed column tiles cover a row of the input"
        return w.shape[lead + 3] // BK
    assert len(w.shape) == lead + 2, "w is a (rows, K) matrix, or one packed by pack_weight"
    assert w.shape[lead + 1] == K, "w has a column per column of the input"
    assert K % BK == 0, "the GEMM's step BK divides the input's columns"
    return 1


@st.function
def rows_times_weights(a, w, bm, bn, BM, BN, BK, w2=None, joined=False, stacked=False):
    """Rows ``bm * BM ...`` of ``a`` times columns ``bn * BN ...`` of ``w^T`` (and of ``w2^T``: both
    in one loop), f32 ``(BM, BN)`` results.  ``joined``: one ``(BM, 2 * BN)`` accumulator, each
    step's ``w`` and ``w2`` tiles concatenated into one operand, its halves returned (at 128 x
    128 a weight, 168 registers and no spill on sm_90 at 8 warps, where two accumulators spill
    512 bytes a thread; on an H100 no faster than two: the concatenation costs what the tile
    saves).  ``stacked``: the same accumulator, ``w`` the two weights stacked (``(2, N, K)``),
    each step's operand one load (``stacked_weight_tile``)."""
    K = a.shape[1]
    steps = gemm_steps(w, BN, BK, K, 1 if stacked else 0)
    pa = a.partition((BM, BK))
    acc = acc2 = st.zeros((BM, BN), f32)
    both = st.zeros((BM, 2 * BN), f32)
    for kt in range(K // (BK * steps)):
        for s in st.static_range(steps):
            at = pa.load((bm, kt * steps + s))
            if stacked:
                both = st.mma(at, st.transpose(stacked_weight_tile(w, bn, kt, s, BN, BK)), both)
            elif joined:
                wt = st.cat(gemm_weight_tile(w, bn, kt, s, BN, BK), gemm_weight_tile(w2, bn, kt, s, BN, BK), 0)
                both = st.mma(at, st.transpose(wt), both)
            else:
                acc = st.mma(at, st.transpose(gemm_weight_tile(w, bn, kt, s, BN, BK)), acc)
                if w2 is not None:
                    acc2 = st.mma(at, st.transpose(gemm_weight_tile(w2, bn, kt, s, BN, BK)), acc2)
    if joined or stacked:
        return st.extract(both, (0, 0), (BM, BN)), st.extract(both, (0, 1), (BM, BN))
    return acc, acc2


@st.function
def rows_times_weight_steps(a, w, bm, bn, BM, BN, BK, first, stop, stride):
    """Rows ``bm * BM ...`` of ``a`` times columns ``bn * BN ...`` of ``w^T`` over the K steps of
    ``BK`` columns ``first, first + stride, ...`` below ``stop`` (of a packed weight, step ``kt *
    steps + s`` is step ``s`` of column tile ``kt``), an f32 ``(BM, BN)`` result: split columns'
    loop, one loop over the steps.  ``rows_times_weights``' loop over the column tiles, each
    tile's steps unrolled, with these dynamic bounds spilled 608-776 bytes a thread on sm_90 at
    128 x 256 (8 warps, latency 6) and ran down_proj's split columns at 2,048 tokens 4.6x slower
    on an H100 (session 18, docs/model.md); this one takes the one-launch GEMM's 168 registers,
    no spill, 230 KB of shared memory."""
    K = a.shape[1]
    steps = gemm_steps(w, BN, BK, K)
    pa = a.partition((BM, BK))
    acc = st.zeros((BM, BN), f32)
    for k in range(first, stop, stride):
        acc = st.mma(pa.load((bm, k)), st.transpose(gemm_weight_tile(w, bn, k // steps, k % steps, BN, BK)), acc)
    return acc


@st.kernel
def embed_rows(
    z: st.Mut[f32, (1, "BH")],
    table: st.Ref["E", (-1, -1)],
    tokens: st.Ref[i32, (-1,)],
    *,
    E: st.DType,
    BH: int,
):
    """Row ``r`` of ``z`` = ``table[tokens[r]]`` in f32, ``BH`` columns a block."""
    r, bh, _ = st.tile_block_id()
    token = tokens.partition((1,)).load((r,)).reshape(())
    z.store(table.partition((1, BH)).load((token, bh)).astype(f32))


@st.kernel
def norm_rows(
    z: st.Mut["E", ("BM", "BN")],
    x: st.Ref[f32, (-1, "K")],
    norm_w: st.Ref["E", ("K",)],
    eps: f32,
    *,
    E: st.DType,
    BM: int,
    BN: int,
    K: int,
):
    """``z = rms_norm(x) * norm_w`` in ``E``: ``BM`` whole rows a block (``BN >= K``; the padded
    columns load as zero and add nothing to the sums)."""
    assert K <= BN, "norm_rows holds a whole row in one tile: partition the output with BN >= the row width"
    bm, bn, _ = st.tile_block_id()
    row = x.partition((BM, BN), padding="zero").load((bm, bn))
    weight = norm_w.partition((BN,), padding="zero").load((bn,)).astype(f32).reshape((1, BN))
    inv_rms = st.rsqrt(st.sum(row * row, 1, keepdims=True) * (1.0 / K) + eps)
    z.store((row * inv_rms * weight).astype(E))


@st.kernel
def gemm(
    z: st.Mut[f32, ("BM", "BN")],
    a: st.Ref["E", (-1, "K")],
    w: st.Ref["E", "WS"],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    BK: int,
    K: int,
    WS: st.Shape,
    G: int,
):
    """``z = a @ w^T``; output tiles in the grouped order (``st.grouped(G)``)."""
    idx = z.tile_index(order=st.grouped(G))
    bm, bn = idx
    acc, _ = rows_times_weights(a, w, bm, bn, BM, BN, BK)
    z.store(acc, idx)


@st.kernel
def gemm_residual(
    z: st.Mut[f32, ("BM", "BN")],
    residual: st.Ref[f32, (-1, -1)],
    a: st.Ref["E", (-1, "K")],
    w: st.Ref["E", "WS"],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    BK: int,
    K: int,
    WS: st.Shape,
    G: int,
    SPLIT: int = 0,
):
    """``z = residual + a @ w^T``; output tiles in the grouped order.  ``SPLIT = C > 0``: split
    columns' second launch (``examples/gemm.py``'s ``split_columns_gemm``): the tiles of the first
    ``C`` tile columns take no K step and store the residual alone (``residual_partials_sum`` then
    writes them, from ``gemm_partials``' partials).  The K loop's bound ``min(KS, max(0, (bn + 1 -
    C) * KS))`` (``KS`` steps of ``BK``, ``rows_times_weight_steps``) stays below ``KS``, the
    form ``split_columns_gemm`` measured compiling as the plain GEMM (a sum of partials inside
    this launch halved the K loop's MMA instructions there)."""
    idx = z.tile_index(order=st.grouped(G))
    bm, bn = idx
    if SPLIT:
        steps = K // BK
        acc = rows_times_weight_steps(a, w, bm, bn, BM, BN, BK, 0, min(steps, max(0, (bn + 1 - SPLIT) * steps)), 1)
    else:
        acc, _ = rows_times_weights(a, w, bm, bn, BM, BN, BK)
    z.store(residual.partition((BM, BN)).load((bm, bn)) + acc, idx)


@st.kernel
def gemm_partials(
    p: st.Mut[f32, (1, "BM", "BN")],
    a: st.Ref["E", (-1, "K")],
    w: st.Ref["E", "WS"],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    BK: int,
    K: int,
    WS: st.Shape,
):
    """Split columns' first launch (``examples/gemm.py``'s ``split_k_gemm`` over the prefill's
    packed or plain weights): block ``(s, bm, bn)`` of ``S`` splits sums the K steps ``s, s + S,
    ...`` of output tile ``(bm, bn)`` into partial ``s`` of ``p`` (``[S, rows, C * BN]``,
    f32: the first ``C`` tile columns).  Grid-strided, so every K index is below the step count
    (no check in the kernel); each partial tile has one writer."""
    s, bm, bn = st.tile_block_id()
    acc = rows_times_weight_steps(a, w, bm, bn, BM, BN, BK, s, K // BK, st.num_tile_blocks()[0])
    p.store(acc.reshape((1, BM, BN)))


@st.kernel
def residual_partials_sum(
    z: st.Mut[f32, ("FM", "FN")],
    residual: st.Ref[f32, (-1, -1)],
    p: st.Ref[f32, (-1, -1, -1)],
    *,
    FM: int,
    FN: int,
):
    """Split columns' third launch: each ``FM x FN`` piece of ``z`` in ``p``'s columns (the first
    ``C * BN``) is ``residual`` plus the sum of its ``S`` partials (``examples/gemm.py``'s
    ``split_columns_sum``, with the residual added and ``z`` f32); a block past them does nothing
    (a loop of no trip, whose column is then below ``p``'s pieces: no check left in the kernel)."""
    fm, fn, _ = st.tile_block_id()
    pp = p.partition((1, FM, FN))
    for c in range(fn, min(st.num_tiles(pp, 2), fn + 1)):
        total = residual.partition((FM, FN)).load((fm, c))
        for s in range(st.num_tiles(pp, 0)):
            total = total + pp.load((s, fm, c)).reshape((FM, FN))
        z.store(total)


@st.function
def swiglu(gate, up):
    """``silu(gate) * up``."""
    return gate / (1.0 + st.exp2(gate * -LOG2E)) * up


@st.kernel
def gate_up_gemm(
    z: st.Mut["E", ("BM", "BN")],
    a: st.Ref["E", (-1, "K")],
    w_gate: st.Ref["E", "WS"],
    w_up: st.Ref["E", "WS"],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    BK: int,
    K: int,
    WS: st.Shape,
    G: int,
    JOINED: bool = False,
):
    """The gated MLP's first half: ``silu(a @ w_gate^T) * (a @ w_up^T)`` in ``E`` (down_proj's
    input); ``a`` the normalized rows (``norm_rows``); output tiles in the grouped order;
    ``JOINED``: the two products in one accumulator (``rows_times_weights``)."""
    idx = z.tile_index(order=st.grouped(G))
    bm, bn = idx
    gate, up = rows_times_weights(a, w_gate, bm, bn, BM, BN, BK, w_up, JOINED)
    z.store(swiglu(gate, up).astype(E), idx)


@st.kernel
def gate_up_stacked_gemm(
    z: st.Mut["E", ("BM", "BN")],
    a: st.Ref["E", (-1, "K")],
    w: st.Ref["E", "WS"],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    BK: int,
    K: int,
    WS: st.Shape,
    G: int,
):
    """``gate_up_gemm`` of ``w = [w_gate, w_up]`` stacked (``(2, N, K)``; each half plain or
    packed): one ``(BM, 2 * BN)`` accumulator, each step's operand one ``(2 * BN, BK)`` load."""
    idx = z.tile_index(order=st.grouped(G))
    bm, bn = idx
    gate, up = rows_times_weights(a, w, bm, bn, BM, BN, BK, stacked=True)
    z.store(swiglu(gate, up).astype(E), idx)


@st.function
def rotate_rows(x, t, rotary, TABLE):
    """``x`` (``(R, D)``, rows ``t * R ...`` of the prompt) rotated at those positions: with
    ``TABLE``, ``rotary`` is ``kernels.rotary_table``'s (``[positions * D]``, row ``p`` the
    cosines then the sines at ``p``) and its rows ``t * R ...`` are one ``R * D`` load, checked
    in the kernel (the host keeps the prompt within the table's rows); else ``rotary`` is
    ``inv_freq`` and ``rope`` computes the cosines and sines in software (their series were
    about 5,150 of the prefill attention's 9,008 sm_90 instructions, docs/model.md)."""
    R, D = x.shape
    if not TABLE:
        return rope(x, st.iota((R,)).reshape((R, 1)) + t * R, rotary)
    table = rotary.partition((R * D,)).load((t,)).reshape((R, D))
    return rotated(x, st.extract(table, (0, 0), (R, D // 2)), st.extract(table, (0, 1), (R, D // 2)))


@st.kernel
def prefill_kv(
    k_cache: st.Mut["E", (1, "BM", "D")],
    v_cache: st.Mut["E", (1, "BM", "D")],
    qkv: st.Ref[f32, (-1, "QKV")],
    k_norm: st.Ref["E", ("D",)],
    rotary: st.Ref[f32, (-1,)],
    n: i32,
    eps: f32,
    *,
    E: st.DType,
    BM: int,
    D: int,
    QKV: int,
    KVH: int,
    G: int,
    TABLE: int = 0,
):
    """Rows ``0 .. n`` of the caches (``[KVH, positions, D]``, tiles of ``BM`` rows): block
    ``(kvh, t)`` writes rows ``t * BM ...`` of kv head ``kvh`` from the QKV rows (``[q (G * KVH
    heads), k (KVH), v (KVH)]`` of ``D``), keys normalized per head and rotated at their
    positions (``rotate_rows``: ``rotary`` the table with ``TABLE``, else ``inv_freq``); rows from ``n``
    on are written as zeros, tiles past the QKV rows return."""
    kvh, t, _ = st.tile_block_id()
    heads = qkv.partition((BM, D))
    if t >= st.num_tiles(heads, 0):
        return
    last = st.minimum(t, st.num_tiles(heads, 0) - 1)  # t, in a form the index check sees bounded
    valid = st.iota((BM,)).reshape((BM, 1)) + t * BM < n
    k = rotate_rows(head_rms_norm(heads.load((last, G * KVH + kvh)), k_norm, eps), last, rotary, TABLE)
    k_cache.store(st.where(valid, k, 0.0).astype(E).reshape((1, BM, D)))
    v_cache.store(st.where(valid, heads.load((last, G * KVH + KVH + kvh)), 0.0).astype(E).reshape((1, BM, D)))


@st.function
def rotated_queries(q, q_norm, rotary, t, eps, scale, E, TABLE):
    """An f32 tile of one query head's rows ``t * R ...``, normalized per head, rotated at those
    positions (``rotate_rows``) and times ``scale * log2(e)`` (the attention's exponent base 2),
    in ``E``."""
    return (rotate_rows(head_rms_norm(q, q_norm, eps), t, rotary, TABLE) * (scale * LOG2E)).astype(E)


@st.function
def causal_attention(qt, k_cache, v_cache, t, kvh, BM, BN, D):
    """FlashAttention-2 of query rows ``t * BM ...`` (``qt``, ready: rotated and scaled) over the
    keys of kv head ``kvh`` up to each row, from the caches in tiles of ``BN`` keys: the key
    tiles every row sees whole unmasked, those on the diagonal masked (``BM`` and ``BN`` powers
    of two, either the larger: the rows are padded to a multiple of both, so no key tile passes
    them).  The loops' bounds are clamped tile counts (``below``): no load keeps a check."""
    pk, pv = k_cache.partition((1, BN, D)), v_cache.partition((1, BN, D))
    tiles = st.num_tiles(pk, 1)
    full = below((t * BM + 1) // BN, tiles)  # key tiles ending at or before the block's first row
    last = below(((t + 1) * BM + BN - 1) // BN, tiles)  # and up to its last row
    m = st.full((BM, 1), -math.inf, f32)
    l = st.zeros((BM, 1), f32)
    acc = st.zeros((BM, D), f32)
    for j in range(full):
        kt, vt = pk.load((kvh, j, 0)).reshape((BN, D)), pv.load((kvh, j, 0)).reshape((BN, D))
        m, l, acc = attend(qt, kt, vt, m, l, acc, j * BN, t * BM, 0, False, False)
    for j in range(full, last):
        kt, vt = pk.load((kvh, j, 0)).reshape((BN, D)), pv.load((kvh, j, 0)).reshape((BN, D))
        m, l, acc = attend(qt, kt, vt, m, l, acc, j * BN, t * BM, (t + 1) * BM, True, True)
    return acc / l


@st.kernel
def prefill_attention(
    o: st.Mut["E", ("BM", "D")],
    qkv: st.Ref[f32, (-1, "QKV")],
    q_norm: st.Ref["E", ("D",)],
    rotary: st.Ref[f32, (-1,)],
    k_cache: st.Ref["E", ("KVH", -1, "D")],
    v_cache: st.Ref["E", ("KVH", -1, "D")],
    eps: f32,
    scale: f32,
    *,
    E: st.DType,
    BM: int,
    BN: int,
    D: int,
    QKV: int,
    KVH: int,
    G: int,
    HEADS_FIRST: bool = False,
    TABLE: int = 0,
):
    """Causal attention of the prompt (``causal_attention``): block ``(t, h)`` takes query rows
    ``t * BM ...`` of query head ``h`` (``rotated_queries``: normalized per head, rotated at
    their positions, times ``scale * log2(e)``) over the keys of kv head ``h // G`` up to each
    row, from the caches (``prefill_kv`` wrote them), and writes the heads' outputs as columns
    ``h * D ...`` of ``o`` (``[rows, heads * D]``, o_proj's input).  The blocks take one head's
    query tiles together, or with ``HEADS_FIRST`` every head's first query tile, then every
    head's second, ... (``st.grouped(1)`` over the ``(t, h)`` tiles: ``examples/flash_attention.py``'s
    ``ORDER = 0``).  ``rotary``: the table with ``TABLE``, else ``inv_freq`` (``rotate_rows``)."""
    idx = o.tile_index(order=st.grouped(1)) if HEADS_FIRST else o.tile_index()
    t, h = idx
    qt = rotated_queries(qkv.partition((BM, D)).load((t, h)), q_norm, rotary, t, eps, scale, E, TABLE)
    o.store(causal_attention(qt, k_cache, v_cache, t, h // G, BM, BN, D).astype(E), idx)


@st.kernel
def prefill_queries(
    z: st.Mut["E", ("BM", "D")],
    qkv: st.Ref[f32, (-1, "QKV")],
    q_norm: st.Ref["E", ("D",)],
    rotary: st.Ref[f32, (-1,)],
    eps: f32,
    scale: f32,
    *,
    E: st.DType,
    BM: int,
    D: int,
    QKV: int,
    TABLE: int = 0,
):
    """The query heads of ``qkv`` ready for ``prefill_attention_rotated``: block ``(t, h)`` writes
    rows ``t * BM ...`` of head ``h`` (``rotated_queries``) as columns ``h * D ...`` of ``z``
    (``[rows, heads * D]`` in ``E``).  Without ``TABLE`` the rotary embedding's software sine and
    cosine then compile here, in a short memory-bound kernel, and not in the attention's loop
    kernel (there they are about 5,150 of its 9,008 sm_90 instructions and its 56-byte stack,
    docs/model.md); with it neither kernel has them."""
    t, h, _ = st.tile_block_id()
    z.store(rotated_queries(qkv.partition((BM, D)).load((t, h)), q_norm, rotary, t, eps, scale, E, TABLE))


@st.kernel
def prefill_attention_rotated(
    o: st.Mut["E", ("BM", "D")],
    q: st.Ref["E", (-1, -1)],
    k_cache: st.Ref["E", ("KVH", -1, "D")],
    v_cache: st.Ref["E", ("KVH", -1, "D")],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    D: int,
    KVH: int,
    G: int,
    HEADS_FIRST: bool = False,
):
    """``prefill_attention`` of queries ``prefill_queries`` made ready (``q``: ``[rows, heads *
    D]`` in ``E``, the tile of block ``(t, h)`` loaded as it is)."""
    idx = o.tile_index(order=st.grouped(1)) if HEADS_FIRST else o.tile_index()
    t, h = idx
    qt = q.partition((BM, D)).load((t, h))
    o.store(causal_attention(qt, k_cache, v_cache, t, h // G, BM, BN, D).astype(E), idx)


@st.kernel
def take_row(z: st.Mut[f32, ("BH",)], x: st.Ref[f32, (-1, -1)], row: i32, *, BH: int):
    """``z = x[row]``, ``BH`` columns a block."""
    bh, _, _ = st.tile_block_id()
    z.store(x.partition((1, BH)).load((row, bh)).reshape((BH,)))


KERNELS = (embed_rows, norm_rows, gemm, gemm_residual, gemm_partials, residual_partials_sum, gate_up_gemm,
           gate_up_stacked_gemm, prefill_kv, prefill_attention, prefill_queries, prefill_attention_rotated, take_row)
"""Every prefill kernel (the tests check each one's unsafe report is empty)."""
