"""Row softmax for any row width: one tile per row block when a row fits, an online loop when not.

``softmax_row``: the row width ``N`` is part of the variant (from ``x``'s
shape) and at most ``BN`` (a compile-time assert), so each block loads its
``BM`` whole rows once and normalizes them in registers.

``softmax``: any width, the output a mapped partition (``st.MutMapped``)
narrower than a row, its tiles numbered column-major (``ROW_GROUP``).  On a
grid of one block per row block (the launcher's) each block walks its own
row block's tiles: at the first one it makes one pass over the row's column
tiles (an online max and sum: when the running max grows, the sum so far is
rescaled), then it normalizes each tile.  On any other grid every tile is
still right (a block recomputes the statistics when its row block changes).

``LOG=1`` (both kernels) gives log-softmax, ``x - max - log(sum)``.

``launch_softmax`` picks the kernel, the rows per block (``rows_per_block``)
and the looped kernel's column tile (``loop_tile``) from the width and the
element type: the best configs without spills of ``bench/kernels.py`` on
an H100 (docs/benchmarks.md §5).  Columns past the end of a row load as
``-inf`` (the partitions' padding), so they add nothing to the sum; stores
beyond the tensor are dropped.

Shipped hints: ``softmax_row`` ``occupancy = 4`` on sm_90, 2 for f32 tiles
of 8192 elements or more (at 4 they spill or run slower); ``softmax``
``occupancy = 2``.
"""

import safetile as st
from safetile import f32

LOG2E = 1.4426950408889634
MAX_ROW_TILE = 8192
"""The widest row ``softmax_row`` takes in one tile (elements); wider rows take the online loop."""
WIDE_TILE = 8192
"""The looped kernel's usual column tile (``loop_tile`` gives the exceptions)."""
ROW_GROUP = 1 << 16
"""The grouped order of the looped kernels' tiles: with at most this many row blocks, tile ``t``
of ``n0`` row blocks is ``(t % n0, t // n0)``, so on a grid of ``n0`` blocks block ``b`` walks
row block ``b``'s tiles left to right (one pass for its max and sum, then its tiles)."""


@st.kernel(
    specialize=[dict(E=st.f32, BM=2, BN=4096, N=4096), dict(E=st.f16, BM=1, BN=8192, N=8192),
                dict(E=st.f32, BM=4, BN=128, N=100)],
    optimization_hints=lambda E, BM, BN, **_: {"sm_90": {"occupancy": 2 if E == st.f32 and BM * BN >= 8192 else 4}},
)
def softmax_row(z: st.Mut["E", ("BM", "BN")], x: st.Ref["E", (-1, "N")], *, E: st.DType, BM: int, BN: int, N: int,
                LOG: int = 0):
    assert N <= BN, "softmax_row holds a whole row in one tile: partition the output with BN >= the row width"
    bm, bn, _ = st.tile_block_id()
    row = x.partition((BM, BN), padding="neg_inf").load((bm, bn)).astype(f32)
    shifted = row - st.max(row, 1, keepdims=True)
    e = st.exp2(shifted * LOG2E)  # exp(x) = exp2(x log2(e)): one MUFU op
    if LOG:
        z.store((shifted - st.log(st.sum(e, 1, keepdims=True))).astype(E))
    else:
        z.store((e * (1.0 / st.sum(e, 1, keepdims=True))).astype(E))  # one division per row, not per element


@st.kernel(specialize=[dict(E=st.f32, BM=4, BN=1024), dict(E=st.f16, BM=1, BN=4096)],
           optimization_hints={"sm_90": {"occupancy": 2}})
def softmax(z: st.MutMapped["E", ("BM", "BN")], x: st.Ref["E", (-1, -1)], *, E: st.DType, BM: int, BN: int,
            LOG: int = 0):
    px = x.partition((BM, BN), padding="neg_inf")
    tiles = st.num_tiles(px, 1)
    row = -1  # the row block whose max and sum row_max and row_sum hold
    row_max = st.full((BM, 1), float("-inf"), f32)
    row_sum = st.zeros((BM, 1), f32)
    for idx in z.tile_indices(order=st.grouped(ROW_GROUP)):
        bm, bn = idx
        # The first tile of a row block makes one pass over its column tiles; the next tiles of
        # the row make none (the loop starts at its end).  A loop bound, not an `if`: the index
        # proofs see the loads in it (inside an `if` they left a check in the kernel).
        fresh = bm != row
        row_max = st.where(fresh, float("-inf"), row_max)
        row_sum = st.where(fresh, 0.0, row_sum)
        for j in range(st.where(fresh, 0, tiles), tiles):
            tile = px.load((bm, j)).astype(f32)
            new_max = st.maximum(row_max, st.max(tile, 1, keepdims=True))
            row_sum = row_sum * st.exp2((row_max - new_max) * LOG2E) + \
                st.sum(st.exp2((tile - new_max) * LOG2E), 1, keepdims=True)
            row_max = new_max
        row = bm
        own = px.load((bm, bn)).astype(f32)
        if LOG:
            z.store((own - row_max - st.log(row_sum)).astype(E), idx)
        else:
            z.store((st.exp2((own - row_max) * LOG2E) * (1.0 / row_sum)).astype(E), idx)


def row_tile(width: int) -> int:
    """The smallest power of two holding ``width`` columns."""
    return 1 << max(0, (width - 1).bit_length())


def rows_per_block(width: int, dtype: st.DType = f32) -> int:
    """The launcher's rows per block: about 4096 elements a block (several rows of narrow ones, at
    most 16), 16384 for 16-bit rows of up to 1024 columns (at most 64): measured on an H100
    (docs/benchmarks.md §5), 16-bit rows of 1024 run 20% faster 16 to a block than 4; 4 rows of
    4096 spill (216 bytes), so wider rows keep 4096 elements a block."""
    per_block = 16384 if dtype.bits == 16 and row_tile(width) <= 1024 else 4096
    return max(1, min(per_block // 256, per_block // row_tile(width)))


def loop_tile(width: int, dtype: st.DType = f32) -> int:
    """The looped kernel's column tile: 8192, but 4096 for 16-bit rows wider than 16384 (the
    best of 2048/4096/8192 measured on an H100, docs/benchmarks.md §5)."""
    return 4096 if dtype.bits == 16 and width > 16384 else WIDE_TILE


def launch_softmax(z: st.Tensor, x: st.Tensor, rows: int | None = None, log: bool = False) -> st.DeviceOp:
    """``z = softmax(x)`` (``log``: ``log_softmax(x)``) along rows: ``softmax_row`` with ``rows``
    rows per block when a row fits in ``MAX_ROW_TILE`` elements, else the online ``softmax``."""
    width = x.shape[1]
    if row_tile(width) <= MAX_ROW_TILE:
        rows = rows or rows_per_block(width, x.dtype)
        return softmax_row(z.partition((rows, row_tile(width))), x, LOG=int(log))
    rows = rows or 1
    return softmax(z.partition((rows, loop_tile(width, x.dtype))), x, LOG=int(log), grid=(-(-x.shape[0] // rows),))
