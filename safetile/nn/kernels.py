"""Safe forward and backward kernels of the row-wise layers a transformer trains with.

Every kernel here is safe code (``kernel.unsafe_report()`` is empty): each
output is partitioned by the host, one writer per tile, no atomics, no raw
pointers.  The weight and bias gradients of the norms reduce over rows in two
stages, still with one writer per place: the norm's backward kernel, which
reads ``x`` and ``dy`` once for ``dx``, is launched on ``G`` blocks (a grid
the host picks from the GPU's multiprocessors); block ``b`` owns the row
tiles ``b, b + G, ...`` of ``dx`` (a mapped output) and row ``b`` of the
``[G, N]`` partial sums (in ``A``) over them; the second kernel
(``column_sums``) owns a column tile of the gradient and adds the ``G``
partial rows.  No second pass over ``x`` and ``dy``, no atomics.

Conventions shared by the kernels:

* ``E`` is the tensors' element type, ``A`` the type arithmetic is done in
  (f64 for f64 tensors, so ``torch.autograd.gradcheck`` sees exact
  derivatives; f32 otherwise).  Per-row statistics saved for the backward
  (``lse``, ``mean``, ``rstd``) are stored in ``A``.
* Row kernels (``N`` = the row width, from ``x``'s shape) hold ``BM`` whole
  rows in one ``(BM, BN)`` tile, ``BN >= N`` a power of two; columns past the
  end load as the padding and are dropped by the stores.  The forward rows
  take their tiles and sm_90 hints from ``safetile/rows.py``'s tables (the
  examples' tuned defaults: ``RowTable.hints``, ``RowTable.store_hints`` and
  ``RowTable.load_hints`` give the hints of the default's tile, none for
  another).
* ``cross_entropy_forward`` and ``cross_entropy_backward`` take rows of any
  width (a vocabulary): the forward walks the row's column tiles with an
  online max and sum; the backward's tiles are independent given the saved
  ``lse``.

``safetile.nn`` registers them as torch custom ops with autograd
(docs/torch.md).
"""

import safetile as st
from safetile import rows


@st.kernel(optimization_hints=rows.SOFTMAX.hints, store_hints=rows.SOFTMAX.store_hints,
           load_hints=rows.SOFTMAX.load_hints)
def softmax_forward(y: st.Mut["E", ("BM", "BN")], x: st.Ref["E", (-1, "N")], *, E: st.DType, A: st.DType,
                    BM: int, BN: int, N: int, LOG: int = 0):
    """``y = softmax(x)`` along rows (``LOG``: ``log_softmax``)."""
    assert N <= BN, "softmax_forward holds a whole row in one tile: partition y with BN >= the row width"
    bm, bn, _ = st.tile_block_id()
    row = x.partition((BM, BN), padding="neg_inf").load((bm, bn)).astype(A)
    shifted = row - st.max(row, 1, keepdims=True)
    e = st.exp(shifted)
    if LOG:
        y.store((shifted - st.log(st.sum(e, 1, keepdims=True))).astype(E))
    else:
        y.store((e / st.sum(e, 1, keepdims=True)).astype(E))


@st.kernel
def softmax_backward(dx: st.Mut["E", ("BM", "BN")], y: st.Ref["E", (-1, "N")], dy: st.Ref["E", (-1, "N")], *,
                     E: st.DType, A: st.DType, BM: int, BN: int, N: int, LOG: int = 0):
    """``dx`` from the forward's output ``y`` and ``dy``: ``y * (dy - sum(dy * y))`` for softmax,
    ``dy - exp(y) * sum(dy)`` for log_softmax (padded columns: ``y`` and ``dy`` load as 0 and are
    not stored)."""
    assert N <= BN, "softmax_backward holds a whole row in one tile: partition dx with BN >= the row width"
    bm, bn, _ = st.tile_block_id()
    out = y.partition((BM, BN), padding="zero").load((bm, bn)).astype(A)
    grad = dy.partition((BM, BN), padding="zero").load((bm, bn)).astype(A)
    if LOG:
        dx.store((grad - st.exp(out) * st.sum(grad, 1, keepdims=True)).astype(E))
    else:
        dx.store((out * (grad - st.sum(grad * out, 1, keepdims=True))).astype(E))


@st.kernel
def cross_entropy_forward(loss: st.Mut["A", ("BM",)], lse: st.Mut["A", ("BM",)], x: st.Ref["E", (-1, -1)],
                          target: st.Ref[st.i64, (-1,)], *, E: st.DType, A: st.DType, BM: int, BN: int):
    """Per row ``r``: ``lse[r] = logsumexp(x[r])`` and ``loss[r] = lse[r] - x[r, target[r]]``, the
    row walked in column tiles of ``BN`` (an online max and sum: when the max grows, the sum so far
    is rescaled).  A target outside ``[0, width)`` would pick nothing: a device assert refuses it
    (checked on the i64 value, before the narrowing to i32), so the host never reads the targets
    and a training step does not wait for the GPU."""
    bm = st.tile_block_id()[0]
    px = x.partition((BM, BN), padding="neg_inf")
    targets = target.partition((BM,), padding="zero").load((bm,))
    assert (targets >= 0) & (targets < x.shape[1].astype(st.i64)), (
        "safetile.nn.cross_entropy: a target is not a class of the logits: targets must lie in [0, vocabulary)")
    picked_column = targets.astype(st.i32).reshape((BM, 1))
    columns = st.iota((BN,)).reshape((1, BN))
    row_max = st.full((BM, 1), float("-inf"), A)
    row_sum = st.zeros((BM, 1), A)
    picked = st.zeros((BM, 1), A)
    for j in range(st.num_tiles(px, 1)):
        tile = px.load((bm, j)).astype(A)
        new_max = st.maximum(row_max, st.max(tile, 1, keepdims=True))
        row_sum = row_sum * st.exp(row_max - new_max) + st.sum(st.exp(tile - new_max), 1, keepdims=True)
        row_max = new_max
        picked = picked + st.sum(st.where(columns + j * BN == picked_column, tile, 0.0), 1, keepdims=True)
    total = row_max + st.log(row_sum)
    lse.store(total.reshape((BM,)))
    loss.store((total - picked).reshape((BM,)))


def _block_hints(WARPS: int = 0, OCCUPANCY: int = 0, **_: object) -> dict[str, dict[str, int]]:
    """The sm_90 hints of the norms' and cross-entropy's backward and attention's kernels: ``WARPS``
    worker warps a block, ``OCCUPANCY`` blocks a multiprocessor (0: tileiras's own choice)."""
    hints = {}
    if WARPS:
        hints["num_worker_warps_per_cta"] = WARPS
    if OCCUPANCY:
        hints["occupancy"] = OCCUPANCY
    return {"sm_90": hints} if hints else {}


@st.kernel(optimization_hints=_block_hints)
def cross_entropy_backward(dx: st.Mut["E", ("BM", "BN")], x: st.Ref["E", (-1, -1)], lse: st.Ref["A", (-1,)],
                           target: st.Ref[st.i64, (-1,)], dloss: st.Ref["A", (-1,)], *, E: st.DType, A: st.DType,
                           BM: int, BN: int, WARPS: int = 0, OCCUPANCY: int = 0):
    """``dx[r, c] = (exp(x[r, c] - lse[r]) - (c == target[r])) * dloss[r]``: each block one tile."""
    bm, bn, _ = st.tile_block_id()
    tile = x.partition((BM, BN), padding="zero").load((bm, bn)).astype(A)
    row_lse = lse.partition((BM,), padding="zero").load((bm,)).reshape((BM, 1))
    scale = dloss.partition((BM,), padding="zero").load((bm,)).reshape((BM, 1))
    picked_column = target.partition((BM,), padding="zero").load((bm,)).astype(st.i32).reshape((BM, 1))
    columns = st.iota((BN,)).reshape((1, BN)) + bn * BN
    hit = st.where(columns == picked_column, 1.0, 0.0).astype(A)
    dx.store(((st.exp(tile - row_lse) - hit) * scale).astype(E))


@st.kernel(optimization_hints=rows.RMS_NORM.hints, store_hints=rows.RMS_NORM.store_hints,
           load_hints=rows.RMS_NORM.load_hints)
def rms_norm_forward(y: st.Mut["E", ("BM", "BN")], rstd: st.Mut["A", ("BM",)], x: st.Ref["E", (-1, "N")],
                     w: st.Ref["E", ("N",)], *, E: st.DType, A: st.DType, BM: int, BN: int, N: int, EPS: float):
    """``y = x * rstd * w`` with ``rstd = 1 / sqrt(mean(x**2) + EPS)`` per row (saved)."""
    assert N <= BN, "rms_norm_forward holds a whole row in one tile: partition y with BN >= the row width"
    bm, bn, _ = st.tile_block_id()
    row = x.partition((BM, BN), padding="zero").load((bm, bn)).astype(A)
    weight = w.partition((BN,), padding="zero").load((bn,)).astype(A).reshape((1, BN))
    inv = st.rsqrt(st.sum(row * row, 1, keepdims=True) * (1.0 / N) + EPS)
    rstd.store(inv.reshape((BM,)))
    y.store((row * inv * weight).astype(E))


@st.kernel(optimization_hints=_block_hints)
def rms_norm_backward(dx: st.MutMapped["E", ("BM", "BN")], partial: st.Mut["A", (1, "BN")],
                      x: st.Ref["E", (-1, "N")], w: st.Ref["E", ("N",)], rstd: st.Ref["A", (-1,)],
                      dy: st.Ref["E", (-1, "N")], *, E: st.DType, A: st.DType, BM: int, BN: int, N: int,
                      WARPS: int = 0, OCCUPANCY: int = 0):
    """``dx = rstd * g - x * rstd**3 * mean(g * x)`` with ``g = dy * w``, per row, and stage 1 of
    ``dw = sum over rows of dy * x * rstd`` in the same pass: block ``b`` owns the row tiles ``b, b + G,
    ...`` of ``dx`` (``G`` blocks, the grid) and row ``b`` of ``partial[G, N]``, their sum (padded rows
    load as 0 and add nothing); ``column_sums`` adds the ``G`` rows."""
    assert N <= BN, "rms_norm_backward holds a whole row in one tile: partition dx with BN >= the row width"
    px, pdy = x.partition((BM, BN), padding="zero"), dy.partition((BM, BN), padding="zero")
    pr = rstd.partition((BM,), padding="zero")
    weight = w.partition((BN,), padding="zero").load((0,)).astype(A).reshape((1, BN))
    acc = st.zeros((BN,), A)
    for idx in dx.tile_indices():
        bm, _ = idx
        row = px.load((bm, 0)).astype(A)
        inv = pr.load((bm,)).reshape((BM, 1))
        grad = pdy.load((bm, 0)).astype(A)
        g = grad * weight
        dot = st.sum(g * row, 1, keepdims=True) * (1.0 / N)
        dx.store((inv * g - row * (inv * inv * inv * dot)).astype(E), idx)
        acc = acc + st.sum(grad * row * inv, 0)
    partial.store(acc.reshape((1, BN)))


@st.kernel
def column_sums(total: st.Mut["E", ("BN",)], partial: st.Ref["A", (-1, -1)], *, E: st.DType, A: st.DType, BM: int,
                BN: int):
    """Stage 2 of the weight gradients: ``total = sum over the rows of partial`` (the ``G`` rows of
    partial sums), each block one column tile, ``BM`` rows a step."""
    bn = st.tile_block_id()[0]
    pp = partial.partition((BM, BN), padding="zero")
    acc = st.zeros((BN,), A)
    for i in range(st.num_tiles(pp, 0)):
        acc = acc + st.sum(pp.load((i, bn)), 0)
    total.store(acc.astype(E))


@st.kernel(optimization_hints=rows.LAYER_NORM.hints, store_hints=rows.LAYER_NORM.store_hints,
           load_hints=rows.LAYER_NORM.load_hints)
def layer_norm_forward(y: st.Mut["E", ("BM", "BN")], mean: st.Mut["A", ("BM",)], rstd: st.Mut["A", ("BM",)],
                       x: st.Ref["E", (-1, "N")], w: st.Ref["E", ("N",)], b: st.Ref["E", ("N",)], *, E: st.DType,
                       A: st.DType, BM: int, BN: int, N: int, EPS: float):
    """``y = (x - mean) * rstd * w + b``, ``rstd = 1 / sqrt(var + EPS)`` per row (both saved; the
    variance of the centered values, padded columns masked out)."""
    assert N <= BN, "layer_norm_forward holds a whole row in one tile: partition y with BN >= the row width"
    bm, bn, _ = st.tile_block_id()
    row = x.partition((BM, BN), padding="zero").load((bm, bn)).astype(A)
    mu = st.sum(row, 1, keepdims=True) * (1.0 / N)
    centered = st.where(st.iota((BN,)).reshape((1, BN)) < N, row - mu, 0.0)
    inv = st.rsqrt(st.sum(centered * centered, 1, keepdims=True) * (1.0 / N) + EPS)
    weight = w.partition((BN,), padding="zero").load((bn,)).astype(A).reshape((1, BN))
    bias = b.partition((BN,), padding="zero").load((bn,)).astype(A).reshape((1, BN))
    mean.store(mu.reshape((BM,)))
    rstd.store(inv.reshape((BM,)))
    y.store((centered * inv * weight + bias).astype(E))


@st.kernel(optimization_hints=_block_hints)
def layer_norm_backward(dx: st.MutMapped["E", ("BM", "BN")], partial_w: st.Mut["A", (1, "BN")],
                        partial_b: st.Mut["A", (1, "BN")], x: st.Ref["E", (-1, "N")], w: st.Ref["E", ("N",)],
                        mean: st.Ref["A", (-1,)], rstd: st.Ref["A", (-1,)], dy: st.Ref["E", (-1, "N")], *,
                        E: st.DType, A: st.DType, BM: int, BN: int, N: int, WARPS: int = 0, OCCUPANCY: int = 0):
    """``dx = rstd * (g - mean(g) - xhat * mean(g * xhat))`` with ``g = dy * w`` and
    ``xhat = (x - mean) * rstd`` (padded columns masked out of both means), and stage 1 of
    ``dw = sum over rows of dy * xhat`` and ``db = sum over rows of dy`` in the same pass: block ``b``
    owns the row tiles ``b, b + G, ...`` of ``dx`` (``G`` blocks, the grid) and row ``b`` of both
    partial sums (padded rows load as 0: their ``xhat`` is 0); ``column_sums`` adds the rows."""
    assert N <= BN, "layer_norm_backward holds a whole row in one tile: partition dx with BN >= the row width"
    px, pdy = x.partition((BM, BN), padding="zero"), dy.partition((BM, BN), padding="zero")
    pm, pr = mean.partition((BM,), padding="zero"), rstd.partition((BM,), padding="zero")
    weight = w.partition((BN,), padding="zero").load((0,)).astype(A).reshape((1, BN))
    inside = st.iota((BN,)).reshape((1, BN)) < N
    acc_w = st.zeros((BN,), A)
    acc_b = st.zeros((BN,), A)
    for idx in dx.tile_indices():
        bm, _ = idx
        row = px.load((bm, 0)).astype(A)
        mu = pm.load((bm,)).reshape((BM, 1))
        inv = pr.load((bm,)).reshape((BM, 1))
        xhat = st.where(inside, (row - mu) * inv, 0.0)
        grad = pdy.load((bm, 0)).astype(A)
        g = grad * weight
        g_mean = st.sum(g, 1, keepdims=True) * (1.0 / N)
        gx_mean = st.sum(g * xhat, 1, keepdims=True) * (1.0 / N)
        dx.store((inv * (g - g_mean - xhat * gx_mean)).astype(E), idx)
        acc_w = acc_w + st.sum(grad * xhat, 0)
        acc_b = acc_b + st.sum(grad, 0)
    partial_w.store(acc_w.reshape((1, BN)))
    partial_b.store(acc_b.reshape((1, BN)))


@st.kernel
def matmul(c: st.Mut["E", ("BM", "BN")], a: st.Ref["E", (-1, -1)], b: st.Ref["E", (-1, -1)], *, E: st.DType,
           A: st.DType, BM: int, BN: int, BK: int, TA: int = 0, TB: int = 0):
    """``c = op(a) @ op(b)``, ``op`` the transpose where ``TA`` / ``TB`` say (the backward's
    ``dA = dC @ B^T`` and ``dB = A^T @ dC`` read ``a`` and ``b`` as they lie).  Each block owns one
    ``(BM, BN)`` tile of ``c`` and walks the shared dimension in ``BK`` steps, accumulating in ``A``;
    the padded part of the last step loads as 0 and adds nothing."""
    bm, bn, _ = st.tile_block_id()
    pa = a.partition((BK, BM) if TA else (BM, BK), padding="zero")
    pb = b.partition((BN, BK) if TB else (BK, BN), padding="zero")
    acc = st.zeros((BM, BN), A)
    for k in range(st.num_tiles(pa, 0) if TA else st.num_tiles(pa, 1)):
        tile_a = st.transpose(pa.load((k, bm))) if TA else pa.load((bm, k))
        tile_b = st.transpose(pb.load((bn, k))) if TB else pb.load((k, bn))
        acc = st.mma(tile_a, tile_b, acc)
    c.store(acc.astype(E))


# -- attention (FlashAttention-2) ------------------------------------------------------------
#
# q, o, dq: (BH, T, D) -- batch and query heads folded; k, v, dk, dv: (BKV, S, D) with
# BH = G * BKV: query head bh reads key/value head bh // G (grouped-query attention).  Tiles are
# (1, BQ, D) of queries and (1, BK, D) of keys; a padded key (past S) and, with CAUSAL, a key
# after its query (T == S) are masked out of the scores.  Only the tiles a boundary crosses
# take the mask (the last, partial key tile; with CAUSAL, the tiles on the diagonal): the others
# run without its compare and select.  dk/dv's walk masks no padded key: the scores of one only
# reach its own rows of dk and dv, which are not stored.  Scores are taken in base 2: the
# softmax scale times log2(e) (``SCALE * LOG2E``) multiplies the raw score, ``exp2`` replaces
# ``exp`` and the saved ``lse`` is the rows' log-sum-exp in base 2 (a multiply-add and an
# ``exp2`` a score).

LOG2E = 1.4426950408889634


def _latency(LATENCY: int, **_: object) -> dict[str, dict[str, int]]:
    """The attention kernels' loads' tileiras hint: a pipeline ``LATENCY`` deep on sm_90 for the tiles
    a block streams (0: tileiras's own depth)."""
    return {"sm_90": {"latency": LATENCY}} if LATENCY else {}


@st.function
def _scores(q, k, qi, kj, s_len, A, BQ, BK, MASKED, CAUSAL, SCALE):
    """``q @ k^T * SCALE * LOG2E`` (in ``A``) for query tile ``qi`` and key tile ``kj``; with
    ``MASKED``, padded keys and (``CAUSAL``) keys after their query are ``-inf``."""
    s = st.mma(q, st.transpose(k), st.zeros((BQ, BK), A)) * (SCALE * LOG2E)
    if MASKED:
        keys = st.iota((BK,)).reshape((1, BK)) + kj * BK
        valid = keys < s_len
        if CAUSAL:
            valid = valid & (keys <= st.iota((BQ,)).reshape((BQ, 1)) + qi * BQ)
        s = st.where(valid, s, float("-inf"))
    return s


@st.function
def _below(n, count):
    """``n`` (never negative) clamped to ``[0, count]``, a tile count: the form bounds-check elision
    reads (it follows ``min``, ``max`` and tile counts, not the products of a causal bound), so
    the loads of a loop it bounds keep no check in the kernel."""
    return st.minimum(count, st.maximum(n, 0))


@st.function
def _key_tiles(qi, n_k, BQ, BK, CAUSAL):
    """How many of the ``n_k`` key tiles query tile ``qi`` sees (with ``CAUSAL``, none past its
    last query)."""
    tiles = n_k
    if CAUSAL:
        tiles = _below(((qi + 1) * BQ + BK - 1) // BK, n_k)
    return tiles


@st.function
def _whole_key_tiles(qi, n_k, s_len, BQ, BK, CAUSAL):
    """How many key tiles, from the first, every query of tile ``qi`` sees whole (no padded key;
    with ``CAUSAL``, none after the tile's first query): the tiles that need no mask."""
    tiles = s_len // BK
    if CAUSAL:
        tiles = st.minimum(tiles, (qi * BQ + 1) // BK)
    return _below(tiles, n_k)


@st.function
def _attend(q, k, v, m, l, acc, qi, kj, s_len, A, BQ, BK, MASKED, CAUSAL, SCALE):
    """One key tile of the forward: scores, the online max and sum (base 2), the value update."""
    s = _scores(q, k, qi, kj, s_len, A, BQ, BK, MASKED, CAUSAL, SCALE)
    new_max = st.maximum(m, st.max(s, 1, keepdims=True))
    p = st.exp2(s - new_max)
    rescale = st.exp2(m - new_max)
    l = l * rescale + st.sum(p, 1, keepdims=True)
    acc = st.mma(p.astype(v.dtype), v, acc * rescale)
    return new_max, l, acc


@st.kernel(optimization_hints=_block_hints, load_hints=_latency)
def attention_forward(o: st.Mut["E", (1, "BQ", "D")], lse: st.Mut["A", (1, "BQ")], q: st.Ref["E", (-1, -1, "D")],
                      k: st.Ref["E", (-1, -1, "D")], v: st.Ref["E", (-1, -1, "D")], *, E: st.DType, A: st.DType,
                      BQ: int, BK: int, D: int, G: int, CAUSAL: int, SCALE: float, WARPS: int = 0,
                      OCCUPANCY: int = 0, LATENCY: int = 0):
    """``o = softmax(q k^T * SCALE) v`` per query tile, the keys walked in tiles with an online max
    and sum (the whole tiles first, unmasked); ``lse``, the rows' log-sum-exp in base 2, is saved
    for the backward."""
    bh, qi, _ = st.tile_block_id()
    kv = bh // G
    s_len = k.shape[1]
    pk, pv = k.partition((1, BK, D), padding="zero"), v.partition((1, BK, D), padding="zero")
    tile_q = q.partition((1, BQ, D), padding="zero").load((bh, qi, 0)).reshape((BQ, D))
    m = st.full((BQ, 1), float("-inf"), A)
    l = st.zeros((BQ, 1), A)
    acc = st.zeros((BQ, D), A)
    whole = _whole_key_tiles(qi, st.num_tiles(pk, 1), s_len, BQ, BK, CAUSAL)
    for kj in range(whole):
        tile_k, tile_v = pk.load((kv, kj, 0)).reshape((BK, D)), pv.load((kv, kj, 0)).reshape((BK, D))
        m, l, acc = _attend(tile_q, tile_k, tile_v, m, l, acc, qi, kj, s_len, A, BQ, BK, False, CAUSAL, SCALE)
    for kj in range(whole, _key_tiles(qi, st.num_tiles(pk, 1), BQ, BK, CAUSAL)):
        tile_k, tile_v = pk.load((kv, kj, 0)).reshape((BK, D)), pv.load((kv, kj, 0)).reshape((BK, D))
        m, l, acc = _attend(tile_q, tile_k, tile_v, m, l, acc, qi, kj, s_len, A, BQ, BK, True, CAUSAL, SCALE)
    o.store((acc / l).astype(E).reshape((1, BQ, D)))
    lse.store((m + st.log2(l)).reshape((1, BQ)))


@st.function
def _dq_step(q, do, lse2, delta, k, v, acc, qi, kj, s_len, A, BQ, BK, MASKED, CAUSAL, SCALE):
    """One key tile of ``dq``: ``acc + ds @ k`` with ``ds = p * (do v^T - delta)``."""
    p = st.exp2(_scores(q, k, qi, kj, s_len, A, BQ, BK, MASKED, CAUSAL, SCALE) - lse2, ftz=A == st.f32)
    dp = st.mma(do, st.transpose(v), st.zeros((BQ, BK), A))
    return st.mma((p * (dp - delta)).astype(k.dtype), k, acc)


@st.kernel(optimization_hints=_block_hints, load_hints=_latency)
def attention_backward_dq(dq: st.Mut["E", ("Q0", "Q1", "D")], delta: st.Mut["A", ("Q0", "Q1")],
                          q: st.Ref["E", (-1, -1, "D")], k: st.Ref["E", (-1, -1, "D")],
                          v: st.Ref["E", (-1, -1, "D")], o: st.Ref["E", (-1, -1, "D")],
                          do: st.Ref["E", (-1, -1, "D")], lse: st.Ref["A", (-1, -1)], *, E: st.DType, A: st.DType,
                          BQ: int, BK: int, D: int, G: int, CAUSAL: int, SCALE: float, Q0: int, Q1: int,
                          HEAD_MAJOR: int = 0, WARPS: int = 0, OCCUPANCY: int = 0, LATENCY: int = 0):
    """``dq`` of one query tile, owned by its block: ``sum over key tiles of ds @ k * SCALE`` with
    ``ds = p * (do v^T - delta)`` and ``p = exp2(s - lse)``.  The key tiles every query sees
    whole run unmasked; with CAUSAL, the diagonal tiles after them, masked.  The block also owns
    the tile's ``delta = rowsum(do * o)``, which it computes first and stores for dk/dv (launched
    after it): no kernel of its own, no second pass over ``o`` and ``do``.

    ``dq`` and ``delta`` are ``(BH, T, D)`` and ``(BH, T)`` in ``(1, BQ, ...)`` tiles (``Q0, Q1 =
    1, BQ``): the grid's x is the head; with ``HEAD_MAJOR`` they are laid out ``(T, BH, D)`` and
    ``(T, BH)`` in ``(BQ, 1, ...)`` tiles, the grid's x the query tile, so the blocks on the GPU at
    once walk one head's query tiles (and share its keys and values in L2)."""
    if HEAD_MAJOR:
        qi, bh, _ = st.tile_block_id()
    else:
        bh, qi, _ = st.tile_block_id()
    kv = bh // G
    s_len = k.shape[1]
    pk, pv = k.partition((1, BK, D), padding="zero"), v.partition((1, BK, D), padding="zero")
    tile_q = q.partition((1, BQ, D), padding="zero").load((bh, qi, 0)).reshape((BQ, D))
    tile_do = do.partition((1, BQ, D), padding="zero").load((bh, qi, 0)).reshape((BQ, D))
    tile_o = o.partition((1, BQ, D), padding="zero").load((bh, qi, 0)).reshape((BQ, D))
    row_delta = st.sum(tile_o.astype(A) * tile_do.astype(A), 1, keepdims=True)
    delta.store(row_delta.reshape((Q0, Q1)))
    row_lse = lse.partition((1, BQ), padding="zero").load((bh, qi)).reshape((BQ, 1))
    acc = st.zeros((BQ, D), A)
    whole = _whole_key_tiles(qi, st.num_tiles(pk, 1), s_len, BQ, BK, CAUSAL)
    for kj in range(whole):
        tile_k, tile_v = pk.load((kv, kj, 0)).reshape((BK, D)), pv.load((kv, kj, 0)).reshape((BK, D))
        acc = _dq_step(tile_q, tile_do, row_lse, row_delta, tile_k, tile_v, acc, qi, kj, s_len, A, BQ, BK, False,
                       CAUSAL, SCALE)
    for kj in range(whole, _key_tiles(qi, st.num_tiles(pk, 1), BQ, BK, CAUSAL)):
        tile_k, tile_v = pk.load((kv, kj, 0)).reshape((BK, D)), pv.load((kv, kj, 0)).reshape((BK, D))
        acc = _dq_step(tile_q, tile_do, row_lse, row_delta, tile_k, tile_v, acc, qi, kj, s_len, A, BQ, BK, True,
                       CAUSAL, SCALE)
    dq.store((acc * SCALE).astype(E).reshape((Q0, Q1, D)))


@st.function
def _key_scores(k, q, qi, kj, A, BQ, BK, MASKED, SCALE):
    """``k @ q^T * SCALE * LOG2E`` (in ``A``), the scores of key tile ``kj`` and query tile ``qi``
    with the keys as rows: the transpose of ``_scores``, so that dk/dv's products take ``p^T`` and
    ``ds^T`` as they come out of the MMA (transposing a tile held in registers goes through shared
    memory).  With ``MASKED`` (the causal diagonal), keys after their query are ``-inf``; no
    padded key is masked (module note)."""
    s = st.mma(k, st.transpose(q), st.zeros((BK, BQ), A)) * (SCALE * LOG2E)
    if MASKED:
        keys = st.iota((BK,)).reshape((BK, 1)) + kj * BK
        s = st.where(keys <= st.iota((BQ,)).reshape((1, BQ)) + qi * BQ, s, float("-inf"))
    return s


@st.function
def _dkdv_step(q, do, lse2, delta, k, v, acc_k, acc_v, qi, kj, A, BQ, BK, MASKED, SCALE):
    """One query tile of ``dk`` and ``dv``, transposed: ``acc_v + p^T do`` and ``acc_k + ds^T q`` with
    ``p^T = exp2(k q^T - lse)`` and ``ds^T = p^T * (v do^T - delta)`` (``lse2`` and ``delta`` rows
    of the query tile)."""
    p = st.exp2(_key_scores(k, q, qi, kj, A, BQ, BK, MASKED, SCALE) - lse2, ftz=A == st.f32)
    acc_v = st.mma(p.astype(k.dtype), do, acc_v)
    dp = st.mma(v, st.transpose(do), st.zeros((BK, BQ), A))
    acc_k = st.mma((p * (dp - delta)).astype(k.dtype), q, acc_k)
    return acc_k, acc_v


@st.kernel(optimization_hints=_block_hints, load_hints=_latency)
def attention_backward_dkdv(dk: st.Mut["E", ("K0", "K1", "D")], dv: st.Mut["E", ("K0", "K1", "D")],
                            q: st.Ref["E", (-1, "G", -1, "D")], k: st.Ref["E", (-1, -1, "D")],
                            v: st.Ref["E", (-1, -1, "D")], do: st.Ref["E", (-1, "G", -1, "D")],
                            lse: st.Ref["A", (-1, "G", -1)], delta: st.Ref["A", (-1, "G", -1)], *, E: st.DType,
                            A: st.DType, BQ: int, BK: int, D: int, G: int, CAUSAL: int, SCALE: float,
                            K0: int, K1: int, HEAD_MAJOR: int = 0, WARPS: int = 0, OCCUPANCY: int = 0,
                            LATENCY: int = 0):
    """``dk`` and ``dv`` of one key tile, owned by its block, which walks the query tiles of the
    ``G`` query heads sharing this key head (with ``CAUSAL``, from the first that sees the tile:
    the diagonal ones masked, those that see it whole not): ``dv = sum of p^T do``,
    ``dk = sum of ds^T q * SCALE``.  No atomics: no other block adds into these tiles.  The
    query side comes grouped, ``q`` and ``do`` as ``(BKV, G, T, D)``, ``lse`` and ``delta`` as
    ``(BKV, G, T)`` (views of the heads as they lie): head ``g`` of the group is an index of its
    own, which the bounds checks place on the host, not ``bkv * G + g`` in every step.

    ``dk`` and ``dv`` are ``(BKV, S, D)`` in ``(1, BK, D)`` tiles (``K0, K1 = 1, BK``): the grid's
    x is the head, so the blocks on the GPU at once span the heads; with ``HEAD_MAJOR`` they are
    laid out ``(S, BKV, D)`` in ``(BK, 1, D)`` tiles, the grid's x the key tile, so they walk one
    head's key tiles together (and share its queries in L2)."""
    if HEAD_MAJOR:
        kj, bkv, _ = st.tile_block_id()
    else:
        bkv, kj, _ = st.tile_block_id()
    pq, pdo = q.partition((1, 1, BQ, D), padding="zero"), do.partition((1, 1, BQ, D), padding="zero")
    plse, pdelta = lse.partition((1, 1, BQ), padding="zero"), delta.partition((1, 1, BQ), padding="zero")
    tile_k = k.partition((1, BK, D), padding="zero").load((bkv, kj, 0)).reshape((BK, D))
    tile_v = v.partition((1, BK, D), padding="zero").load((bkv, kj, 0)).reshape((BK, D))
    n_q = st.num_tiles(pq, 2)
    first = _below((kj * BK) // BQ, n_q) if CAUSAL else 0  # the first query tile that sees the keys
    whole = _below((kj * BK + BK + BQ - 2) // BQ, n_q) if CAUSAL else 0  # the first that sees them whole
    acc_k = st.zeros((BK, D), A)
    acc_v = st.zeros((BK, D), A)
    for g in range(G):
        if CAUSAL:
            for qi in range(first, whole):
                tile_q, tile_do = pq.load((bkv, g, qi, 0)).reshape((BQ, D)), pdo.load((bkv, g, qi, 0)).reshape((BQ, D))
                row_lse = plse.load((bkv, g, qi)).reshape((1, BQ))
                row_delta = pdelta.load((bkv, g, qi)).reshape((1, BQ))
                acc_k, acc_v = _dkdv_step(tile_q, tile_do, row_lse, row_delta, tile_k, tile_v, acc_k, acc_v, qi, kj,
                                          A, BQ, BK, True, SCALE)
        for qi in range(whole, n_q):
            tile_q, tile_do = pq.load((bkv, g, qi, 0)).reshape((BQ, D)), pdo.load((bkv, g, qi, 0)).reshape((BQ, D))
            row_lse, row_delta = plse.load((bkv, g, qi)).reshape((1, BQ)), pdelta.load((bkv, g, qi)).reshape((1, BQ))
            acc_k, acc_v = _dkdv_step(tile_q, tile_do, row_lse, row_delta, tile_k, tile_v, acc_k, acc_v, qi, kj,
                                      A, BQ, BK, False, SCALE)
    dk.store((acc_k * SCALE).astype(E).reshape((K0, K1, D)))
    dv.store(acc_v.astype(E).reshape((K0, K1, D)))
