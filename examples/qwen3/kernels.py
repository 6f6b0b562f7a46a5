"""The kernels of a Qwen3 decode step (batch 1), every one safe: no unsafe code, no raw pointers.

Activations are f32 vectors; weights and the KV cache are ``E`` (f16, bf16
or f32) and every product accumulates in f32.  The token, the position and
the caches live in device memory, so one recorded graph of these launches
serves every position (model.py):

* ``embed``                 x = table[tokens[pos]]
* ``norm_gemv``             z = W @ (rms_norm(x) * norm_w)            (QKV projection)
* ``attention_append``      per (kv head, key tile): the tile holding ``pos`` gets row
                            ``pos`` = rope(rms_norm_head(k)), v (the cache append); then
                            q = rope(rms_norm_head(q)), the tile's softmax(q k^T) v and
                            its log-sum-exp (split-K)
* ``kv_append``, ``attention_split``   the same in two launches
* ``attention_merge``       per kv head (per query head where the group is not a power of
                            two): the tiles' outputs weighted by their sums
* ``gemv_residual``         z = r + W @ x                             (o_proj, down_proj)
* ``read_rows``             z[b] = sum of W's rows of tile b: reads W into the L2 cache ahead
                            of the launch that needs it, from a graph branch (model.py)
* ``norm_gate_up``          z = silu(Wg @ xn) * (Wu @ xn), xn = rms_norm(x) * norm_w
* ``norm_gemv_argmax``      logits = W @ (rms_norm(x) * norm_w), and each tile's max and
                            where it is (the LM head)
* ``sample``                tokens[pos + 1] = argmax over the tiles' maxima (greedy)
* ``advance``               z = x + step (the position: counted into a second buffer, copied back)

A launch that must write a row picked by the device-side position (the
cache append, the sampled token) writes it from the block that owns the
tile holding it, and every other block stores nothing: each tile still has
one writer, the compiler's disjointness proof, and nothing is written
through a computed index (``attention_append`` reads its own key and value
tiles, puts the new row in with ``where``, and stores them back).  Key tiles
past the position are skipped the same way.  Queries, keys and values are
read from the QKV vector as tiles of ``G * D`` (a kv head's queries), ``D``
(one head) or ``KVH * D`` (all keys, all values), so those indices are
static.

Any group ``G`` of query heads per kv head works: tile shapes are powers of
two, so the attention's query tile has ``GP`` rows (``G`` rounded up to a
power of two), the group's heads loaded one by one and zero rows below them
where ``G < GP``.  The padded rows' outputs land in their own rows of the
attention parts (``[KVH, tiles, GP * D]``, one ``(1, 1, GP * D)`` tile a block:
still one writer per tile) and the merge never reads them: it merges a whole
group a block where ``G == GP`` and one query head a block otherwise.

The projections take their weights packed in their GEMV's tiles (``pack_weight``: tile
``(i, j)`` of ``(BN, BK)`` at ``w[i, j]``, contiguous; ``weight_tile``), which the memory
streams faster than ``BN`` rows' pieces of a plain matrix; a plain matrix works too (the LM
head's, which is also the embedding table).

The attention launches read the position before their wait for the QKV projection
(``early_reads=("pos",)``: the launch before writes only the QKV vector), so the key tiles,
which depend on it, are fetched one memory round trip sooner.

The only index checks left in the kernels are ``embed``'s two and the rotary table's row (``rotate``):
the token and the position are data (``tile-opt -p 'bounds-check-elision{report=true}'``
lists every check: static, at the launch, or in the kernel).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import safetile as st
from safetile import f32, i32

LOG2E = 1.0 / math.log(2.0)


@st.function
def load_scalar(t):
    """The one element of a ``(1,)`` tensor, as a scalar."""
    return t.load_tile((1,), (0,)).reshape(())


def pack_weight(w: Any, rows: int, cols: int) -> Any:
    """``w`` (a ``(n, k)`` numpy array or torch tensor) packed for ``weight_tile``: ``(n / rows,
    k / cols, rows, cols)``, each ``(rows, cols)`` tile of ``w`` contiguous, a block's tiles one
    after another.  A GEMV block then streams one contiguous stretch of memory rather than
    ``rows`` short pieces a tile (on an H100, 2-3% faster: docs/model.md)."""
    n, k = w.shape
    if n % rows or k % cols:
        raise ValueError(f"a ({n}, {k}) weight does not cut into ({rows}, {cols}) tiles: pick tiles dividing it")
    packed = w.reshape(n // rows, rows, k // cols, cols).swapaxes(1, 2)
    return np.ascontiguousarray(packed) if isinstance(packed, np.ndarray) else packed.contiguous()


@st.function
def covers(w, BN, BK, K):
    """Static checks that ``w`` (as ``weight_tile`` takes it) has ``K`` columns and, packed, is
    packed in ``(BN, BK)`` tiles."""
    if len(w.shape) == 4:
        assert w.shape[2] == BN and w.shape[3] == BK, "w is packed in the kernel's tiles: pack_weight(w, BN, BK)"
        assert w.shape[1] * BK == K, "w's packed column tiles cover x: pack_weight(w, BN, BK) of a weight with len(x) columns"
    else:
        assert len(w.shape) == 2, "w is a (rows, len(x)) matrix, or one packed by pack_weight(w, BN, BK)"
        assert w.shape[1] == K, "w has a column per element of x"


@st.function
def weight_tile(w, bn, k, BN, BK, allow_tma=None):
    """Tile ``(bn, k)`` of a ``(rows, K)`` weight matrix cut in ``(BN, BK)`` tiles, in f32.  ``w``
    is the matrix (2-d) or the same packed by ``pack_weight`` (4-d: the tile is ``w[bn, k]``,
    ``BN * BK`` consecutive elements, which memory streams faster than ``BN`` rows' pieces)."""
    if len(w.shape) == 4:
        return w.partition((1, 1, BN, BK)).load((bn, k, 0, 0), allow_tma=allow_tma).reshape((BN, BK)).astype(f32)
    return w.partition((BN, BK), padding="zero").load((bn, k), allow_tma=allow_tma).astype(f32)


@st.function
def matvec(w, x, bn, BN, BK, early, early_tma):
    """Rows ``bn * BN ...`` of ``w @ x`` (``w`` as ``weight_tile`` takes it).  The first ``early``
    column tiles of ``w`` are loaded outside the loop: a kernel with ``early_reads=("w",)`` reads
    them before its wait for the kernel before it (``allow_tma=early_tma``)."""
    K = x.shape[0]
    assert K % BK == 0, "the column tile BK divides the length of x"
    assert early <= K // BK, "EARLY column tiles fit in the row"
    covers(w, BN, BK, K)
    px = x.partition((BK,))
    acc = st.zeros((BN, BK), f32)
    for k in st.static_range(early):
        acc = acc + weight_tile(w, bn, k, BN, BK, early_tma) * px.load((k,)).reshape((1, BK))
    for k in range(early, K // BK):
        acc = acc + weight_tile(w, bn, k, BN, BK) * px.load((k,)).reshape((1, BK))
    return st.sum(acc, 1)


@st.function
def norm_matvec(w, x, bn, BN, BK, norm_w, eps, early, early_tma, w2=None):
    """Rows ``bn * BN ...`` of ``w @ (rms_norm(x) * norm_w)`` (and of ``w2 @ ...``: both in one
    loop, both weights' loads in flight).  The norm is a scalar factor, so it scales the sums,
    and the squares of ``x`` are summed in the same loop: the weight loads wait for nothing.
    The first ``early`` column tiles of the weights are loaded outside the loop (``matvec``)."""
    K = x.shape[0]
    assert K % BK == 0, "the column tile BK divides the length of x"
    assert early <= K // BK, "EARLY column tiles fit in the row"
    covers(w, BN, BK, K)
    px, pn = x.partition((BK,)), norm_w.partition((BK,))
    acc = acc2 = st.zeros((BN, BK), f32)
    squares = st.zeros((BK,), f32)
    for k in st.static_range(early):
        w_k = weight_tile(w, bn, k, BN, BK, early_tma)
        w2_k = w_k
        if w2 is not None:
            w2_k = weight_tile(w2, bn, k, BN, BK, early_tma)
        t = px.load((k,))
        squares = squares + t * t
        xn = (t * pn.load((k,)).astype(f32)).reshape((1, BK))
        acc = acc + w_k * xn
        if w2 is not None:
            acc2 = acc2 + w2_k * xn
    for k in range(early, K // BK):
        t = px.load((k,))
        squares = squares + t * t
        xn = (t * pn.load((k,)).astype(f32)).reshape((1, BK))
        acc = acc + weight_tile(w, bn, k, BN, BK) * xn
        if w2 is not None:
            acc2 = acc2 + weight_tile(w2, bn, k, BN, BK) * xn
    inv = st.rsqrt(st.sum(squares, 0) * (1.0 / K) + eps)
    return st.sum(acc, 1) * inv, st.sum(acc2, 1) * inv


@st.function
def head_rms_norm(x, weight, eps):
    """Per-row (per-head) RMS norm of an f32 ``(R, D)`` tile, times ``weight`` (a ``(D,)`` tensor)."""
    R, D = x.shape
    w = weight.load_tile((D,), (0,)).astype(f32).reshape((1, D))
    return x * st.rsqrt(st.sum(x * x, 1, keepdims=True) * (1.0 / D) + eps) * w


@st.function
def rope(x, position, inv_freq):
    """Rotary embedding of the rows of ``(R, D)`` at ``position``: pairs ``(i, i + D/2)`` rotate by
    ``position * inv_freq[i]`` (the half-split layout of Qwen3 and Llama)."""
    R, D = x.shape
    half = D // 2
    angle = position.astype(f32) * inv_freq.load_tile((half,), (0,)).reshape((1, half))
    return rotated(x, st.cos(angle), st.sin(angle))


@st.function
def rotated(x, cos, sin):
    """``x`` (``(R, D)``) with each pair ``(i, i + D/2)`` rotated by the angle whose cosine and sine
    are ``cos[., i]`` and ``sin[., i]`` (``(1 or R, D/2)``): the one rotation ``rope``, ``rotate``
    and the prefill's ``rotate_rows`` share."""
    R, D = x.shape
    half = D // 2
    x1, x2 = st.extract(x, (0, 0), (R, half)), st.extract(x, (0, 1), (R, half))
    return st.cat(x1 * cos - x2 * sin, x2 * cos + x1 * sin, 1)


def rotary_table(inv_freq: np.ndarray, positions: int) -> np.ndarray:
    """The decode's rotary table, ``[positions * D]`` f32: row ``p`` (``D`` long) holds
    ``cos(p * inv_freq)`` then ``sin(p * inv_freq)``, computed in f32 as ``reference.rope`` does."""
    angle = np.arange(positions, dtype=np.float32)[:, None] * inv_freq[None, :]
    return np.concatenate([np.cos(angle), np.sin(angle)], 1).reshape(-1)


@st.function
def rotate(x, position, rotary, TABLE):
    """``x`` (``(R, D)``) rotated at ``position``: with ``TABLE``, ``rotary`` is ``rotary_table``'s
    and its row ``position`` gives the cosines and sines (one ``D``-wide load: no software sine
    and cosine, whose series are most of the instructions of a kernel that rotates); else
    ``rotary`` is ``inv_freq`` and ``rope`` computes them.  The row index is data, so the table's
    load is checked in the kernel: a position past the table's rows is an index error there
    (``generate`` refuses such a position on the host first)."""
    if not TABLE:
        return rope(x, position, rotary)
    D = x.shape[1]
    row = rotary.partition((D,)).load((position,)).reshape((1, D))
    return rotated(x, st.extract(row, (0, 0), (1, D // 2)), st.extract(row, (0, 1), (1, D // 2)))


@st.kernel
def embed(
    z: st.Mut[f32, ("BH",)],
    table: st.Ref["E", (-1, -1)],
    tokens: st.Ref[i32, (-1,)],
    pos: st.Ref[i32, (1,)],
    *,
    E: st.DType,
    BH: int,
):
    """``z = table[tokens[pos]]`` in f32, ``BH`` columns a block."""
    bh, _, _ = st.tile_block_id()
    token = tokens.partition((1,)).load((load_scalar(pos),)).reshape(())
    z.store(table.partition((1, BH)).load((token, bh)).reshape((BH,)).astype(f32))


@st.kernel(early_reads=("w",))
def norm_gemv(
    z: st.Mut[f32, ("BN",)],
    x: st.Ref[f32, ("K",)],
    norm_w: st.Ref["E", ("K",)],
    w: st.Ref["E", "WS"],
    eps: f32,
    *,
    E: st.DType,
    BN: int,
    BK: int,
    K: int,
    WS: st.Shape,
    EARLY: int = 0,
    EARLY_TMA: bool = False,
):
    """``z = w @ (rms_norm(x) * norm_w)``: every block normalizes the whole ``x`` (it is small)."""
    bn, _, _ = st.tile_block_id()
    z.store(norm_matvec(w, x, bn, BN, BK, norm_w, eps, EARLY, EARLY_TMA)[0])


@st.kernel(early_reads=("w",))
def gemv_residual(
    z: st.Mut[f32, ("BN",)],
    residual: st.Ref[f32, (-1,)],
    x: st.Ref[f32, ("K",)],
    w: st.Ref["E", "WS"],
    *,
    E: st.DType,
    BN: int,
    BK: int,
    K: int,
    WS: st.Shape,
    EARLY: int = 0,
    EARLY_TMA: bool = False,
):
    """``z = residual + w @ x``."""
    bn, _, _ = st.tile_block_id()
    r = residual.partition((BN,)).load((bn,))
    z.store(r + matvec(w, x, bn, BN, BK, EARLY, EARLY_TMA))


@st.kernel
def read_rows(
    z: st.Mut[f32, (1,)],
    w: st.Ref["E", (-1, "KT", "P", "BK")],
    *,
    E: st.DType,
    BN: int,
    P: int,
    BK: int,
    KT: int,
):
    """Read rows ``bn * BN ...`` of ``w`` (packed in tiles of ``P`` rows) and store their sum:
    the loads bring ``w`` into the L2 cache for a later launch (the store keeps the compiler
    from dropping them)."""
    assert BN % P == 0, "a block reads whole packed tiles: P divides BN"
    bn, _, _ = st.tile_block_id()
    pw = w.partition((BN // P, 1, P, BK), padding="zero")
    acc = st.zeros((BK,), f32)
    for k in range(KT):
        acc = acc + st.sum(pw.load((bn, k, 0, 0)).reshape((BN, BK)).astype(f32), 0)
    z.store(st.sum(acc, 0).reshape((1,)))


@st.kernel(early_reads=("w_gate", "w_up"))
def norm_gate_up(
    z: st.Mut[f32, ("BN",)],
    x: st.Ref[f32, ("K",)],
    norm_w: st.Ref["E", ("K",)],
    w_gate: st.Ref["E", "WS"],
    w_up: st.Ref["E", "WS"],
    eps: f32,
    *,
    E: st.DType,
    BN: int,
    BK: int,
    K: int,
    WS: st.Shape,
    EARLY: int = 0,
    EARLY_TMA: bool = False,
):
    """The gated MLP's first half: ``silu(w_gate @ xn) * (w_up @ xn)``, ``xn = rms_norm(x) * norm_w``."""
    bn, _, _ = st.tile_block_id()
    gate, up = norm_matvec(w_gate, x, bn, BN, BK, norm_w, eps, EARLY, EARLY_TMA, w_up)
    z.store(gate / (1.0 + st.exp2(gate * -LOG2E)) * up)


@st.kernel(early_reads=("w",))
def norm_gemv_argmax(
    logits: st.Mut[f32, ("BN",)],
    best: st.Mut[f32, (1,)],
    best_at: st.Mut[i32, (1,)],
    x: st.Ref[f32, ("K",)],
    norm_w: st.Ref["E", ("K",)],
    w: st.Ref["E", (-1, "K")],
    eps: f32,
    *,
    E: st.DType,
    BN: int,
    BK: int,
    K: int,
    EARLY: int = 0,
    EARLY_TMA: bool = False,
):
    """The LM head: ``logits = w @ (rms_norm(x) * norm_w)``, and per tile its largest logit and
    the first row holding it (``best``/``best_at`` have one element per tile)."""
    bn, _, _ = st.tile_block_id()
    row_logits = norm_matvec(w, x, bn, BN, BK, norm_w, eps, EARLY, EARLY_TMA)[0]
    logits.store(row_logits)
    top = st.max(row_logits, 0)
    rows = st.iota((BN,)) + bn * BN
    best.store(top.reshape((1,)))
    best_at.store(st.min(st.where(row_logits == top, rows, 2147483647), 0).reshape((1,)))


@st.kernel
def sample(
    tokens: st.Mut[i32, (1,)],
    best: st.Ref[f32, (-1,)],
    best_at: st.Ref[i32, (-1,)],
    pos: st.Ref[i32, (1,)],
    prompt_len: i32,
    *,
    BT: int,
):
    """Greedy sampling: ``tokens[pos + 1]`` = the row of the largest logit (the first on ties),
    from the LM head's per-tile maxima; nothing is written while ``pos + 1`` is still in the
    prompt (``< prompt_len``).  One block per token slot; only slot ``pos + 1`` works."""
    slot, _, _ = st.tile_block_id()
    if slot != load_scalar(pos) + 1 or slot < prompt_len:
        return
    pb, pa = best.partition((BT,), padding="neg_inf"), best_at.partition((BT,))
    top = st.full((BT,), -math.inf, f32)
    top_at = st.zeros((BT,), i32)
    for t in range(st.num_tiles(pb, 0)):
        b, a = pb.load((t,)), pa.load((t,))
        better = b > top  # earlier tiles hold earlier rows: keep them on ties
        top_at = st.where(better, a, top_at)
        top = st.where(better, b, top)
    m = st.max(top, 0)
    tokens.store(st.min(st.where(top == m, top_at, 2147483647), 0).reshape((1,)))


@st.kernel
def advance(z: st.Mut[i32, (1,)], x: st.Ref[i32, (1,)], step: i32):
    """``z = x + step`` (the position: counted into one buffer, copied back with ``step = 0``)."""
    z.store(x.load_tile((1,), (0,)) + step)


@st.function
def head_vector(qkv, head, D):
    """Head ``head`` (of the ``[q heads, k heads, v heads]`` layout) of the QKV vector, ``(1, D)``."""
    return qkv.partition((D,)).load((head,)).reshape((1, D))


@st.function
def new_key(qkv, k_norm, rotary, kvh, position, eps, G, KVH, D, TABLE):
    """Key head ``kvh`` at ``position``: normalized per head and rotated (``rotate``), ``(1, D)`` f32."""
    return rotate(head_rms_norm(head_vector(qkv, G * KVH + kvh, D), k_norm, eps), position, rotary, TABLE)


@st.kernel(early_reads=("pos",))
def kv_append(
    k_cache: st.Mut["E", ("KVH", 1, "D")],
    v_cache: st.Mut["E", ("KVH", 1, "D")],
    qkv: st.Ref[f32, ("QKV",)],
    k_norm: st.Ref["E", ("D",)],
    rotary: st.Ref[f32, (-1,)],
    pos: st.Ref[i32, (1,)],
    eps: f32,
    *,
    E: st.DType,
    KVH: int,
    D: int,
    QKV: int,
    G: int,
    TABLE: int = 0,
):
    """Row ``pos`` of the caches (``[KVH, positions, D]``): the keys normalized per head and
    rotated (``rotate``: ``rotary`` the table where ``TABLE``, else ``inv_freq``), the values as
    they are.  ``qkv`` is ``[q (G * KVH heads), k (KVH), v (KVH)]``."""
    _, row, _ = st.tile_block_id()
    position = load_scalar(pos)
    if row != position:
        return
    kv = qkv.partition((KVH * D,))
    k = rotate(head_rms_norm(kv.load((G,)).reshape((KVH, D)), k_norm, eps), position, rotary, TABLE)
    k_cache.store(k.astype(E).reshape((KVH, 1, D)))
    v_cache.store(kv.load((G + 1,)).astype(E).reshape((KVH, 1, D)))


REDUCE = 0
"""``PRODUCTS``: both attention products as one broadcast multiply of ``(G, BN, D)`` summed."""
ROWS = 1
"""``PRODUCTS``: the products one query head at a time, ``(BN, D)`` multiplies summed."""
MMA = 2
"""``PRODUCTS``: both products as ``mma`` with the keys as the rows (``kt @ q^T``, the query
heads padded to 16 columns): a ``G``-row ``mma`` would waste its tensor-core rows."""


@st.function
def queries(qkv, q_norm, rotary, kvh, position, eps, scale, G, GP, D, TABLE):
    """Kv head ``kvh``'s ``G`` query heads, normalized per head, rotated (``rotate``), times ``scale * log2(e)``:
    ``(GP, D)`` f32, rows ``G ..`` zeros (``GP``: ``G`` rounded up to a power of two)."""
    if G == GP:
        q = qkv.partition((G * D,)).load((kvh,)).reshape((G, D))
    else:
        heads = ()
        for g in st.static_range(GP):
            heads = heads + ((head_vector(qkv, kvh * G + g, D) if g < G else st.zeros((1, D), f32)),)
        q = stack_rows(heads)
    return rotate(head_rms_norm(q, q_norm, eps), position, rotary, TABLE) * (scale * LOG2E)


@st.function
def pad_rows(x, R):
    """``x`` (``(G, D)``, ``G`` a power of two ``<= R``) with zero rows appended up to ``R`` rows
    (doubling: tile shapes are powers of two)."""
    for _ in st.static_range(R.bit_length()):
        if x.shape[0] < R:
            x = st.cat(x, st.zeros(x.shape, x.dtype), 0)
    return x


@st.function
def stack_rows(rows):
    """The ``(1, N)`` tiles of ``rows`` (a power-of-two count) stacked into ``(len(rows), N)``,
    concatenated pairwise (every intermediate shape a power of two)."""
    for _ in st.static_range(len(rows).bit_length()):
        if len(rows) > 1:
            pairs = ()
            for i in st.static_range(len(rows) // 2):
                pairs = pairs + (st.cat(rows[2 * i], rows[2 * i + 1], 0),)
            rows = pairs
    return rows[0]


@st.function
def scores_of(q, kt, E, PRODUCTS):
    """``q @ kt^T`` (``(G, D)`` f32 queries, ``(BN, D)`` keys in ``E``): ``(G, BN)`` f32."""
    G, D = q.shape
    BN = kt.shape[0]
    if PRODUCTS == REDUCE:
        return st.sum(q.reshape((G, 1, D)) * kt.astype(f32).reshape((1, BN, D)), 2)
    if PRODUCTS == ROWS:
        k32 = kt.astype(f32)
        rows = ()
        for g in st.static_range(G):
            rows = rows + (st.sum(k32 * st.extract(q, (g, 0), (1, D)), 1).reshape((1, BN)),)
        return stack_rows(rows)
    R = max(G, 16)
    sT = st.mma(kt, pad_rows(q, R).astype(E).T, st.zeros((BN, R), f32))
    return st.extract(sT.T, (0, 0), (G, BN))


@st.function
def weighted_of(p, vt, E, PRODUCTS):
    """``p @ vt`` (``(G, BN)`` f32 weights, ``(BN, D)`` values in ``E``): ``(G, D)`` f32."""
    G, BN = p.shape
    D = vt.shape[1]
    if PRODUCTS == REDUCE:
        return st.sum(p.reshape((G, BN, 1)) * vt.astype(f32).reshape((1, BN, D)), 1)
    if PRODUCTS == ROWS:
        v32 = vt.astype(f32)
        rows = ()
        for g in st.static_range(G):
            rows = rows + (st.sum(v32 * st.extract(p, (g, 0), (1, BN)).reshape((BN, 1)), 0).reshape((1, D)),)
        return stack_rows(rows)
    R = max(G, 16)
    ot = st.mma(vt.T, pad_rows(p, R).astype(E).T, st.zeros((D, R), f32))
    return st.extract(ot.T, (0, 0), (G, D))


@st.function
def attend_tile(o_part, lse, q, kt, vt, c, position, E, BN, PRODUCTS):
    """Key tile ``c`` (``kt``, ``vt``: keys ``c * BN ...``, those past ``position`` masked) for the
    queries ``q``: stores the softmax-weighted values (normalized) and the log2 of the sum."""
    GP, D = q.shape
    keys = st.iota((BN,)).reshape((1, BN)) + c * BN
    s = st.where(keys <= position, scores_of(q, kt, E, PRODUCTS), -math.inf)
    m = st.max(s, 1, keepdims=True)
    p = st.exp2(s - m)
    l = st.sum(p, 1, keepdims=True)
    o_part.store((weighted_of(p, vt, E, PRODUCTS) / l).reshape((1, 1, GP * D)))
    lse.store((m + st.log2(l)).reshape((1, 1, GP)))


@st.kernel(early_reads=("pos",))
def attention_split(
    o_part: st.Mut[f32, (1, 1, "GPD")],
    lse: st.Mut[f32, (1, 1, "GP")],
    qkv: st.Ref[f32, ("QKV",)],
    q_norm: st.Ref["E", ("D",)],
    rotary: st.Ref[f32, (-1,)],
    k_cache: st.Ref["E", ("KVH", -1, "D")],
    v_cache: st.Ref["E", ("KVH", -1, "D")],
    pos: st.Ref[i32, (1,)],
    eps: f32,
    scale: f32,
    *,
    E: st.DType,
    G: int,
    GP: int,
    GPD: int,
    D: int,
    QKV: int,
    KVH: int,
    BN: int,
    PRODUCTS: int,
    TABLE: int = 0,
):
    """Decode attention, split-K, one key tile a block: block ``(kvh, c)`` takes the ``G`` query
    heads of kv head ``kvh`` over keys ``c * BN ...`` (those up to ``pos``) and writes their
    softmax-weighted values (normalized) and the log2 of their softmax sum (``o_part`` is
    ``[KVH, tiles, GP * D]``, ``lse`` ``[KVH, tiles, GP]``; ``GP``: ``G`` rounded up to a power
    of two, the rows past ``G`` padding).  A tile wholly past ``pos``
    returns at once, writing nothing: ``attention_merge`` skips it.  The queries are
    normalized per head and rotated here, the scale times log2(e) folded in; ``PRODUCTS``
    says how the two products are computed (``REDUCE``, ``ROWS``, ``MMA``); ``rotary`` is
    ``rotary_table``'s table where ``TABLE``, else ``inv_freq`` (``rotate``)."""
    assert GPD == GP * D and GP == 1 << (G - 1).bit_length(), "o_part's tiles are GP query rows of D"
    kvh, c, _ = st.tile_block_id()
    position = load_scalar(pos)
    if c * BN > position:
        return
    q = queries(qkv, q_norm, rotary, kvh, position, eps, scale, G, GP, D, TABLE)
    kt = k_cache.partition((1, BN, D)).load((kvh, c, 0)).reshape((BN, D))
    vt = v_cache.partition((1, BN, D)).load((kvh, c, 0)).reshape((BN, D))
    attend_tile(o_part, lse, q, kt, vt, c, position, E, BN, PRODUCTS)


@st.kernel(early_reads=("pos",))
def attention_append(
    o_part: st.Mut[f32, (1, 1, "GPD")],
    lse: st.Mut[f32, (1, 1, "GP")],
    k_cache: st.Mut["E", (1, "BN", "D")],
    v_cache: st.Mut["E", (1, "BN", "D")],
    qkv: st.Ref[f32, ("QKV",)],
    q_norm: st.Ref["E", ("D",)],
    k_norm: st.Ref["E", ("D",)],
    rotary: st.Ref[f32, (-1,)],
    pos: st.Ref[i32, (1,)],
    eps: f32,
    scale: f32,
    *,
    E: st.DType,
    G: int,
    GP: int,
    GPD: int,
    D: int,
    QKV: int,
    KVH: int,
    BN: int,
    PRODUCTS: int,
    TABLE: int = 0,
):
    """``kv_append`` and ``attention_split`` in one launch: block ``(kvh, c)`` owns key tile ``c``
    of kv head ``kvh`` in both caches (``[KVH, positions, D]``, partitioned ``(1, BN, D)``: the
    same grid as ``o_part``'s).  The block whose tile holds ``pos`` puts the new key (normalized,
    rotated) and value into row ``pos`` of its tiles and stores them back; every block then
    attends over its tiles as ``attention_split`` does."""
    assert GPD == GP * D and GP == 1 << (G - 1).bit_length(), "o_part's tiles are GP query rows of D"
    kvh, c, _ = st.tile_block_id()
    position = load_scalar(pos)
    if c * BN > position:
        return
    row = position - c * BN
    here = (st.iota((BN,)) == row).reshape((BN, 1))
    kt = st.where(here, new_key(qkv, k_norm, rotary, kvh, position, eps, G, KVH, D, TABLE).astype(E),
                  st.load_tile_mut(k_cache).reshape((BN, D)))
    vt = st.where(here, head_vector(qkv, G * KVH + KVH + kvh, D).astype(E),
                  st.load_tile_mut(v_cache).reshape((BN, D)))
    if row < BN:
        k_cache.store(kt.reshape((1, BN, D)))
        v_cache.store(vt.reshape((1, BN, D)))
    q = queries(qkv, q_norm, rotary, kvh, position, eps, scale, G, GP, D, TABLE)
    attend_tile(o_part, lse, q, kt, vt, c, position, E, BN, PRODUCTS)


@st.kernel
def attention_merge(
    z: st.Mut[f32, ("RD",)],
    o_part: st.Ref[f32, (-1, -1, "GPD")],
    lse: st.Ref[f32, (-1, -1, "GP")],
    pos: st.Ref[i32, (1,)],
    *,
    RD: int,
    R: int,
    G: int,
    GP: int,
    GPD: int,
    D: int,
    TILES: int,
    BN: int,
):
    """The output of ``R`` query heads (``z`` is ``[heads * D]``): ``R = G``, a power of two, is
    kv head ``b``'s group (block ``b``); ``R = 1`` is query head ``b`` alone, row ``b % G`` of kv
    head ``b // G``'s parts (any ``G``).  The partial outputs of the ``TILES`` key tiles of ``BN``
    weighted by ``2**lse`` over their sum; tiles past ``pos`` were not written and weigh nothing,
    nor are the padding rows ``G .. GP`` read."""
    assert RD == R * D, "the output tile is R query heads of D"
    assert R == G or R == 1, "a merge block takes a whole group (G a power of two) or one query head"
    assert GPD == GP * D and GP >= G, "o_part's rows are GP query rows of D"
    b, _, _ = st.tile_block_id()
    kvh, sub = b // (G // R), b % (G // R)
    visible = (st.iota((TILES,)) * BN <= load_scalar(pos)).reshape((TILES, 1))
    parts = o_part.partition((1, TILES, RD)).load((kvh, 0, sub)).reshape((TILES, R, D))
    sums = st.where(visible, lse.partition((1, TILES, R)).load((kvh, 0, sub)).reshape((TILES, R)), -math.inf)
    weights = st.exp2(sums - st.max(sums, 0, keepdims=True))  # tile 0 is always visible
    parts = st.where(visible.reshape((TILES, 1, 1)), parts, 0.0)
    out = st.sum(parts * weights.reshape((TILES, R, 1)), 0) / st.sum(weights, 0).reshape((R, 1))
    z.store(out.reshape((RD,)))
