"""Layer normalization of rows: ``(x - mean) / sqrt(var + eps) * w + b``, computed in f32.

``layer_norm_row``: the row width ``N`` is part of the variant (from
``x``'s shape) and at most ``BN`` (a compile-time assert): each block loads
its ``BM`` whole rows once; the mean, the variance of the centered values
(padded columns masked out) and the result come from registers.

``layer_norm``: any width, the output a mapped partition narrower than a
row, its tiles numbered column-major: on the launcher's grid (one block per
row block) each block makes one pass over its row block's column tiles for
the mean and the centered sum of squares (each tile's own, merged by Chan's
update; the padded columns of the last tile masked out), then normalizes
each of its tiles (on any other grid every tile is still right; as
``softmax.py``'s ``softmax``).

``launch_layer_norm`` picks the kernel, the rows per block and the looped
kernel's column tile from the width and the element type (the best configs
without spills measured on an H100, docs/benchmarks.md §5).

Shipped hints: ``layer_norm_row`` ``occupancy = 4`` on sm_90, 2 for f32
tiles of 8192 elements or more (at 4 they spill or run slower), none for
tiles of 16384 or more (16-bit rows of 16384: at 4 they spill);
``layer_norm`` none (at ``occupancy = 2`` f16 and f32 spill 40 bytes).
"""

import safetile as st
from safetile import f32

MAX_ROW_TILE = 8192
"""The widest row ``layer_norm_row`` takes in one tile (elements)."""
WIDE_TILE = 8192
"""The looped kernel's usual column tile (``loop_tile`` gives the exceptions)."""
ROW_GROUP = 1 << 16
"""The looped kernel's tile order (as softmax.py's): on a grid of one block per row block, each
block walks its own row block's tiles left to right."""


def row_hints(dtype: st.DType, elements: int) -> dict[str, dict[str, int]]:
    """``layer_norm_row``'s sm_90 hints for a tile of ``elements``: ``occupancy = 4``, 2 for f32
    tiles of 8192 or more, none from 16384 (at 4 or 2 those spill)."""
    if elements >= 16384:
        return {}
    return {"sm_90": {"occupancy": 2 if dtype == st.f32 and elements >= 8192 else 4}}


@st.kernel(
    specialize=[dict(E=st.f16, BM=1, BN=4096, N=4096), dict(E=st.f32, BM=2, BN=8192, N=8192),
                dict(E=st.bf16, BM=4, BN=128, N=100)],
    optimization_hints=lambda E, BM, BN, **_: row_hints(E, BM * BN),
)
def layer_norm_row(
    z: st.Mut["E", ("BM", "BN")],
    x: st.Ref["E", (-1, "N")],
    w: st.Ref["E", ("N",)],
    b: st.Ref["E", ("N",)],
    eps: f32,
    *,
    E: st.DType,
    BM: int,
    BN: int,
    N: int,
):
    assert N <= BN, "layer_norm_row holds a whole row in one tile: partition the output with BN >= the row width"
    bm, bn, _ = st.tile_block_id()
    row = x.partition((BM, BN), padding="zero").load((bm, bn)).astype(f32)
    centered = row - st.sum(row, 1, keepdims=True) * (1.0 / N)
    if N < BN:
        centered = st.where(st.iota((BN,)).reshape((1, BN)) < N, centered, 0.0)
    inv_std = st.rsqrt(st.sum(centered * centered, 1, keepdims=True) * (1.0 / N) + eps)
    weight = w.partition((BN,), padding="zero").load((bn,)).astype(f32).reshape((1, BN))
    bias = b.partition((BN,), padding="zero").load((bn,)).astype(f32).reshape((1, BN))
    z.store((centered * inv_std * weight + bias).astype(E))


@st.kernel(specialize=[dict(E=st.f16, BM=2, BN=1024), dict(E=st.f32, BM=1, BN=512)],
           optimization_hints=None)  # no occupancy hint: at 2 (128 registers) f16 and f32 spill 40 bytes
def layer_norm(
    z: st.MutMapped["E", ("BM", "BN")],
    x: st.Ref["E", (-1, -1)],
    w: st.Ref["E", (-1,)],
    b: st.Ref["E", (-1,)],
    eps: f32,
    *,
    E: st.DType,
    BM: int,
    BN: int,
):
    n = x.shape[1]
    px = x.partition((BM, BN), padding="zero")
    pw, pb = w.partition((BN,), padding="zero"), b.partition((BN,), padding="zero")
    columns = st.iota((BN,)).reshape((1, BN))
    tiles = st.num_tiles(px, 1)
    row = -1  # the row block whose mean and centered sum of squares hold
    mean = st.zeros((BM, 1), f32)
    square = st.zeros((BM, 1), f32)
    for idx in z.tile_indices(order=st.grouped(ROW_GROUP)):
        bm, bn = idx
        # one pass over the row block's column tiles at its first tile, none at the next (a loop
        # bound, not an `if`, as in softmax.py: the index proofs see the loads).  Chan's parallel
        # update: each tile's own mean and centered squares merged into the running ones (no
        # cancellation, as E[x^2] - E[x]^2 would have).
        fresh = bm != row
        mean = st.where(fresh, 0.0, mean)
        square = st.where(fresh, 0.0, square)
        for j in range(st.where(fresh, 0, tiles), tiles):
            valid = st.minimum(n - j * BN, BN).astype(f32)
            tile = px.load((bm, j)).astype(f32)
            tile_mean = st.sum(tile, 1, keepdims=True) / valid
            centered = st.where(columns + j * BN < n, tile - tile_mean, 0.0)
            seen = (j * BN).astype(f32)
            delta = tile_mean - mean
            mean = mean + delta * (valid / (seen + valid))
            square = square + st.sum(centered * centered, 1, keepdims=True) + \
                delta * delta * (seen * valid / (seen + valid))
        inv_std = st.rsqrt(square / n.astype(f32) + eps)
        row = bm
        own = px.load((bm, bn)).astype(f32)
        weight = pw.load((bn,)).astype(f32).reshape((1, BN))
        bias = pb.load((bn,)).astype(f32).reshape((1, BN))
        z.store(((own - mean) * inv_std * weight + bias).astype(E), idx)


def row_tile(width: int) -> int:
    """The smallest power of two holding ``width`` columns."""
    return 1 << max(0, (width - 1).bit_length())


def max_row_tile(dtype: st.DType) -> int:
    """The widest row the launcher gives the one-tile kernel: ``MAX_ROW_TILE``, twice that for
    16-bit types (one tile of 16384 columns with no hint: 168 registers, no spill, 1.9x the
    looped kernel on an H100, docs/benchmarks.md §5)."""
    return 2 * MAX_ROW_TILE if dtype.bits == 16 else MAX_ROW_TILE


def rows_per_block(width: int, dtype: st.DType = f32) -> int:
    """The launcher's rows per block: about 4096 elements a block (several rows of narrow ones,
    at most 16), one row from 4096 columns up, for every element type (4x as many measured
    slower on an H100)."""
    return max(1, min(16, 4096 // row_tile(width)))


def loop_tile(width: int, dtype: st.DType = f32) -> int:
    """The looped kernel's column tile: 8192 for 16-bit types (the fastest of 2048/4096/8192
    measured on an H100, docs/benchmarks.md §5), 4096 for f32 (8192 spills 312 bytes a thread)."""
    return WIDE_TILE // 2 if dtype.bits == 32 else WIDE_TILE


def launch_layer_norm(z: st.Tensor, x: st.Tensor, w: st.Tensor, b: st.Tensor, eps: float,
                      rows: int | None = None) -> st.DeviceOp:
    """``z = layer_norm(x) * w + b``: ``layer_norm_row`` when a row fits in ``MAX_ROW_TILE``
    elements, else ``layer_norm``."""
    width = x.shape[1]
    if row_tile(width) <= max_row_tile(x.dtype):
        rows = rows or rows_per_block(width, x.dtype)
        return layer_norm_row(z.partition((rows, row_tile(width))), x, w, b, eps)
    rows = rows or 1
    return layer_norm(z.partition((rows, loop_tile(width, x.dtype))), x, w, b, eps, grid=(-(-x.shape[0] // rows),))
