"""The kernels of a Qwen3 decode step (batch 1), every one safe: no unsafe code, no raw pointers.

Activations are f32 vectors; weights and the KV cache are ``E`` (f16, bf16
or f32) and every product accumulates in f32.  The token, the position and
the caches live in device memory, so one recorded graph of these launches
serves every position (model.py):

* ``embed``                 x = table[tokens[pos]]
* ``norm_gemv``             z = W @ (rms_norm(x) * norm_w)            (QKV projection)
* ``kv_append``             k_cache[pos], v_cache[pos] = rope(rms_norm_head(k)), v
* ``attention_split``       per (kv head, key tile): q = rope(rms_norm_head(q)), the
                            tile's softmax(q k^T) v and its log-sum-exp (split-K)
* ``attention_merge``       per kv head: the tiles' outputs weighted by their sums
* ``gemv_residual``         z = r + W @ x                             (o_proj, down_proj)
* ``norm_gate_up``          z = silu(Wg @ xn) * (Wu @ xn), xn = rms_norm(x) * norm_w
* ``norm_gemv_argmax``      logits = W @ (rms_norm(x) * norm_w), and each tile's max and
                            where it is (the LM head)
* ``sample``                tokens[pos + 1] = argmax over the tiles' maxima (greedy)
* ``advance``               z = x + step (the position: counted into a second buffer, copied back)

A launch that must write one row picked by the device-side position (the
cache append, the sampled token) runs a block per row, and every block but
the position's returns before storing: each row still has one writer, the
compiler's disjointness proof, and nothing is written through a computed
index.  Key tiles past the position are skipped the same way.  Queries, keys and values are read from the QKV vector as tiles of
``G * D`` (a kv head's queries) or ``KVH * D`` (all keys, all values)
elements, so those indices are small constants.

The only index checks left in the kernels are ``embed``'s two: the token and
the position are data (``tile-opt -p 'bounds-check-elision{report=true}'``
lists every check: static, at the launch, or in the kernel).
"""

from __future__ import annotations

import math

import safetile as st
from safetile import f32, i32

LOG2E = 1.0 / math.log(2.0)


@st.function
def load_scalar(t):
    """The one element of a ``(1,)`` tensor, as a scalar."""
    return t.load_tile((1,), (0,)).reshape(())


@st.function
def inv_rms(x, eps, BK):
    """``1 / sqrt(mean(x**2) + eps)`` of a static-length f32 vector, as a scalar."""
    K = x.shape[0]
    px = x.partition((BK,))
    squares = st.zeros((BK,), f32)
    for k in range(K // BK):
        t = px.load((k,))
        squares = squares + t * t
    return st.rsqrt(st.sum(squares, 0) * (1.0 / K) + eps)


@st.function
def plain_tile(px, norm_w, inv, k):
    """Tile ``k`` of the input vector as it is."""
    return px.load((k,))


@st.function
def normalized_tile(px, norm_w, inv, k):
    """Tile ``k`` of the input vector, RMS-normalized: times ``inv`` and the norm weight's tile."""
    t = px.load((k,))
    return t * (norm_w.partition(t.shape).load((k,)).astype(f32) * inv)


@st.function
def matvec(w, x, bn, BN, BK, input_tile, norm_w, inv):
    """Rows ``bn * BN ...`` of ``w @ x'``, tile ``k`` of ``x'`` being ``input_tile(...)``
    (``plain_tile``, or ``normalized_tile`` by ``norm_w`` and ``inv``)."""
    K = x.shape[0]
    pw, px = w.partition((BN, BK), padding="zero"), x.partition((BK,))
    acc = st.zeros((BN, BK), f32)
    for k in range(K // BK):
        acc = acc + pw.load((bn, k)).astype(f32) * input_tile(px, norm_w, inv, k).reshape((1, BK))
    return st.sum(acc, 1)


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
    cos, sin = st.cos(angle), st.sin(angle)
    x1, x2 = st.extract(x, (0, 0), (R, half)), st.extract(x, (0, 1), (R, half))
    return st.cat(x1 * cos - x2 * sin, x2 * cos + x1 * sin, 1)


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


@st.kernel
def norm_gemv(
    z: st.Mut[f32, ("BN",)],
    x: st.Ref[f32, ("K",)],
    norm_w: st.Ref["E", ("K",)],
    w: st.Ref["E", (-1, "K")],
    eps: f32,
    *,
    E: st.DType,
    BN: int,
    BK: int,
    K: int,
):
    """``z = w @ (rms_norm(x) * norm_w)``: every block normalizes the whole ``x`` (it is small)."""
    bn, _, _ = st.tile_block_id()
    z.store(matvec(w, x, bn, BN, BK, normalized_tile, norm_w, inv_rms(x, eps, BK)))


@st.kernel
def gemv_residual(
    z: st.Mut[f32, ("BN",)],
    residual: st.Ref[f32, (-1,)],
    x: st.Ref[f32, ("K",)],
    w: st.Ref["E", (-1, "K")],
    *,
    E: st.DType,
    BN: int,
    BK: int,
    K: int,
):
    """``z = residual + w @ x``."""
    bn, _, _ = st.tile_block_id()
    r = residual.partition((BN,)).load((bn,))
    z.store(r + matvec(w, x, bn, BN, BK, plain_tile, None, 1.0))


@st.kernel
def norm_gate_up(
    z: st.Mut[f32, ("BN",)],
    x: st.Ref[f32, ("K",)],
    norm_w: st.Ref["E", ("K",)],
    w_gate: st.Ref["E", (-1, "K")],
    w_up: st.Ref["E", (-1, "K")],
    eps: f32,
    *,
    E: st.DType,
    BN: int,
    BK: int,
    K: int,
):
    """The gated MLP's first half: ``silu(w_gate @ xn) * (w_up @ xn)``, ``xn = rms_norm(x) * norm_w``."""
    bn, _, _ = st.tile_block_id()
    inv = inv_rms(x, eps, BK)
    gate = matvec(w_gate, x, bn, BN, BK, normalized_tile, norm_w, inv)
    up = matvec(w_up, x, bn, BN, BK, normalized_tile, norm_w, inv)
    z.store(gate / (1.0 + st.exp2(gate * -LOG2E)) * up)


@st.kernel
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
):
    """The LM head: ``logits = w @ (rms_norm(x) * norm_w)``, and per tile its largest logit and
    the first row holding it (``best``/``best_at`` have one element per tile)."""
    bn, _, _ = st.tile_block_id()
    row_logits = matvec(w, x, bn, BN, BK, normalized_tile, norm_w, inv_rms(x, eps, BK))
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


@st.kernel
def kv_append(
    k_cache: st.Mut["E", (1, "KVH", "D")],
    v_cache: st.Mut["E", (1, "KVH", "D")],
    qkv: st.Ref[f32, ("QKV",)],
    k_norm: st.Ref["E", ("D",)],
    inv_freq: st.Ref[f32, ("HALF",)],
    pos: st.Ref[i32, (1,)],
    eps: f32,
    *,
    E: st.DType,
    KVH: int,
    D: int,
    HALF: int,
    QKV: int,
    G: int,
):
    """Row ``pos`` of the caches (``[positions, KVH, D]``): the keys normalized per head and
    rotated, the values as they are.  ``qkv`` is ``[q (G * KVH heads), k (KVH), v (KVH)]``."""
    row, _, _ = st.tile_block_id()
    position = load_scalar(pos)
    if row != position:
        return
    kv = qkv.partition((KVH * D,))
    k = rope(head_rms_norm(kv.load((G,)).reshape((KVH, D)), k_norm, eps), position, inv_freq)
    k_cache.store(k.astype(E).reshape((1, KVH, D)))
    v_cache.store(kv.load((G + 1,)).astype(E).reshape((1, KVH, D)))


@st.function
def scores_mma(q, kt):
    """``q @ kt^T`` of ``(G, D)`` queries and ``(BN, D)`` keys (``E``), f32: one ``mma``."""
    return st.mma(q, kt.T, st.zeros((q.shape[0], kt.shape[0]), f32))


@st.function
def weighted_mma(p, vt):
    """``p @ vt`` of ``(G, BN)`` f32 weights and ``(BN, D)`` values (``E``), f32: one ``mma``."""
    return st.mma(p.astype(vt.dtype), vt, st.zeros((p.shape[0], vt.shape[1]), f32))


@st.function
def scores_reduce(q, kt):
    """``q @ kt^T`` as a broadcast product summed over ``D``: a ``G``-row ``mma`` wastes its
    tensor-core rows and spills; this form keeps every lane on the keys."""
    G, D = q.shape
    BN = kt.shape[0]
    return st.sum(q.astype(f32).reshape((G, 1, D)) * kt.astype(f32).reshape((1, BN, D)), 2)


@st.function
def weighted_reduce(p, vt):
    """``p @ vt`` as a broadcast product summed over the keys."""
    G, BN = p.shape
    D = vt.shape[1]
    return st.sum(p.reshape((G, BN, 1)) * vt.astype(f32).reshape((1, BN, D)), 1)


@st.function
def attend(o_part, lse, qkv, q_norm, inv_freq, k_cache, v_cache, pos, eps, scale, E, G, D, BN, scores, weighted):
    """The body of ``attention_split`` (below), the two products being ``scores(q, kt)`` and
    ``weighted(p, vt)``."""
    kvh, c, _ = st.tile_block_id()
    position = load_scalar(pos)
    if c * BN > position:
        return
    q = qkv.partition((G * D,)).load((kvh,)).reshape((G, D))
    q = (rope(head_rms_norm(q, q_norm, eps), position, inv_freq) * (scale * LOG2E)).astype(E)
    kt = k_cache.partition((BN, 1, D)).load((c, kvh, 0)).reshape((BN, D))
    vt = v_cache.partition((BN, 1, D)).load((c, kvh, 0)).reshape((BN, D))
    keys = st.iota((BN,)).reshape((1, BN)) + c * BN
    s = st.where(keys <= position, scores(q, kt), -math.inf)
    m = st.max(s, 1, keepdims=True)
    p = st.exp2(s - m)
    l = st.sum(p, 1, keepdims=True)
    o_part.store((weighted(p, vt) / l).reshape((1, G, D)))
    lse.store((m + st.log2(l)).reshape((1, G)))


@st.kernel
def attention_split(
    o_part: st.Mut[f32, (1, "G", "D")],
    lse: st.Mut[f32, (1, "G")],
    qkv: st.Ref[f32, ("QKV",)],
    q_norm: st.Ref["E", ("D",)],
    inv_freq: st.Ref[f32, ("HALF",)],
    k_cache: st.Ref["E", (-1, "KVH", "D")],
    v_cache: st.Ref["E", (-1, "KVH", "D")],
    pos: st.Ref[i32, (1,)],
    eps: f32,
    scale: f32,
    *,
    E: st.DType,
    G: int,
    D: int,
    HALF: int,
    QKV: int,
    KVH: int,
    BN: int,
):
    """Decode attention, split-K, one key tile a block: block ``(kvh, c)`` takes the ``G`` query
    heads of kv head ``kvh`` over keys ``c * BN ...`` (those up to ``pos``) and writes their
    softmax-weighted values (normalized) and the log2 of their softmax sum (``o_part`` is
    ``[KVH, tiles * G, D]``, ``lse`` ``[KVH, tiles * G]``).  A tile wholly past ``pos``
    returns at once, writing nothing: ``attention_merge`` skips it.  The queries are
    normalized per head and rotated here, the scale times log2(e) folded in.  The products
    are broadcast multiplies summed (``attention_split_mma``: the same with ``mma``)."""
    attend(o_part, lse, qkv, q_norm, inv_freq, k_cache, v_cache, pos, eps, scale, E, G, D, BN,
           scores_reduce, weighted_reduce)


@st.kernel
def attention_split_mma(
    o_part: st.Mut[f32, (1, "G", "D")],
    lse: st.Mut[f32, (1, "G")],
    qkv: st.Ref[f32, ("QKV",)],
    q_norm: st.Ref["E", ("D",)],
    inv_freq: st.Ref[f32, ("HALF",)],
    k_cache: st.Ref["E", (-1, "KVH", "D")],
    v_cache: st.Ref["E", (-1, "KVH", "D")],
    pos: st.Ref[i32, (1,)],
    eps: f32,
    scale: f32,
    *,
    E: st.DType,
    G: int,
    D: int,
    HALF: int,
    QKV: int,
    KVH: int,
    BN: int,
):
    """``attention_split`` with both products as ``mma`` (``G`` rows: spills at ``BN = 128``)."""
    attend(o_part, lse, qkv, q_norm, inv_freq, k_cache, v_cache, pos, eps, scale, E, G, D, BN,
           scores_mma, weighted_mma)


@st.kernel
def attention_merge(
    z: st.Mut[f32, ("GD",)],
    o_part: st.Ref[f32, (-1, -1, "D")],
    lse: st.Ref[f32, (-1, -1)],
    pos: st.Ref[i32, (1,)],
    *,
    GD: int,
    G: int,
    D: int,
    TILES: int,
    BN: int,
):
    """The output of kv head ``kvh``'s ``G`` query heads (``z`` is ``[heads * D]``): the
    partial outputs of its ``TILES`` key tiles of ``BN`` weighted by ``2**lse`` over their
    sum; tiles past ``pos`` were not written and weigh nothing."""
    assert GD == G * D, "the output tile is one kv head's G query heads of D"
    kvh, _, _ = st.tile_block_id()
    visible = (st.iota((TILES,)) * BN <= load_scalar(pos)).reshape((TILES, 1))
    parts = o_part.partition((1, TILES * G, D)).load((kvh, 0, 0)).reshape((TILES, G, D))
    sums = st.where(visible, lse.partition((1, TILES * G)).load((kvh, 0)).reshape((TILES, G)), -math.inf)
    weights = st.exp2(sums - st.max(sums, 0, keepdims=True))  # tile 0 is always visible
    parts = st.where(visible.reshape((TILES, 1, 1)), parts, 0.0)
    out = st.sum(parts * weights.reshape((TILES, G, 1)), 0) / st.sum(weights, 0).reshape((G, 1))
    z.store(out.reshape((GD,)))
