"""Row softmax for any row width: one tile per row block when a row fits, an online loop when not.

``softmax_row``: the row width ``N`` is part of the variant (from ``x``'s
shape) and at most ``BN`` (a compile-time assert), so each block loads its
``BM`` whole rows once and normalizes them in registers.

``softmax``: any width, the output a mapped partition (``st.MutMapped``)
narrower than a row, its tiles numbered column-major (``ROW_GROUP``).  On a
grid of one block per row block (the launcher's) each block walks its own
row block's tiles: at the first one it makes one pass over the row's column
tiles (an online max and sum: when the running max grows, the sum so far is
rescaled), then it normalizes each tile.  The pass starts at column tile
``REREAD // BN`` and wraps round to it (``REREAD``, a generic, defaults to
``safetile/rows.py``'s; 0: left to right), so the tiles normalized first are
the ones it read last, still in L2.  On any other grid every tile is still
right (a block recomputes the statistics when its row block changes).

``LOG=1`` (both kernels) gives log-softmax, ``x - max - log(sum)``.

``launch_softmax`` picks the kernel from the width, then ``st.autotune``
picks its tile and hints among the width's candidates (``safetile/rows.py``'s
``SOFTMAX`` table, which ``safetile.nn.softmax`` takes its tiles from too:
the fastest on an H100 first, the default, then the runners-up, none
spilling; the 16-bit ones store without the TMA, ``DIRECT_STORES``), timed
on the device at the first launch of each element type and width and kept
on disk (docs/autotune.md).  Columns past the end of a row load as ``-inf`` (the
partitions' padding), so they add nothing to the sum; stores beyond the
tensor are dropped.

The kernels' own hints (a direct launch, ``rows=``): ``softmax_row``
``occupancy = 4`` on sm_90, 2 for f32 tiles of 8192 elements or more (at 4
they spill or run slower); ``softmax`` ``occupancy = 2``.
"""

import safetile as st
from safetile import f32
from safetile.rows import REREAD, SOFTMAX, RowLauncher

LOG2E = 1.4426950408889634
MAX_ROW_TILE = SOFTMAX.widest[16]
"""The widest 16-bit row the launcher gives ``softmax_row`` (elements); wider rows take the online
loop.  f32 rows up to ``SOFTMAX.widest[32]`` (16384: one tile at ``occupancy = 2``, 1.4x the loop
on an H100; a 16-bit row of 16384 in one tile ran at 0.35-0.86x the loop by its hints, run -s5 of
docs/benchmarks.md §5, and with direct stores below the loop with direct stores, run -s6)."""
ROW_GROUP = 1 << 16
"""The grouped order of the looped kernels' tiles: with at most this many row blocks, tile ``t``
of ``n0`` row blocks is ``(t % n0, t // n0)``, so on a grid of ``n0`` blocks block ``b`` walks
row block ``b``'s tiles left to right (one pass for its max and sum, then its tiles)."""


@st.function
def exp_shifted(x, top):
    """``exp(x - top)`` as ``exp2(x log2(e) - top log2(e))``: one FMA and one MUFU op an element,
    flushing results below 2^-126 to zero (no subnormal fix-up; a softmax term that small is
    below every 16-bit type's resolution of a sum of at least 1)."""
    return st.exp2(st.fma(x, LOG2E, top * -LOG2E), ftz=True)


@st.function
def online_merge(tile, row_max, row_sum):
    """The running max and sum of exponentials with ``tile``'s columns merged in (the sum so far
    rescaled to the new max)."""
    new_max = st.maximum(row_max, st.max(tile, 1, keepdims=True))
    return new_max, row_sum * exp_shifted(row_max, new_max) + st.sum(exp_shifted(tile, new_max), 1, keepdims=True)


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
    top = st.max(row, 1, keepdims=True)
    e = exp_shifted(row, top)
    if LOG:
        z.store((row - (top + st.log(st.sum(e, 1, keepdims=True)))).astype(E))  # one subtraction an element
    else:
        z.store((e * (1.0 / st.sum(e, 1, keepdims=True))).astype(E))  # one division per row, not per element


@st.kernel(specialize=[dict(E=st.f32, BM=4, BN=1024), dict(E=st.f16, BM=1, BN=4096)],
           optimization_hints={"sm_90": {"occupancy": 2}})
def softmax(z: st.MutMapped["E", ("BM", "BN")], x: st.Ref["E", (-1, -1)], *, E: st.DType, BM: int, BN: int,
            LOG: int = 0, REREAD: int = REREAD):
    px = x.partition((BM, BN), padding="neg_inf")
    tiles = st.num_tiles(px, 1)
    row = -1  # the row block whose max and sum row_max and row_sum hold
    row_max = st.full((BM, 1), float("-inf"), f32)
    row_sum = st.zeros((BM, 1), f32)
    for idx in z.tile_indices(order=st.grouped(ROW_GROUP)):
        bm, bn = idx
        # The first tile of a row block makes one pass over its column tiles; the next tiles of
        # the row make none (the loops have no trips).  Loop bounds, not an `if`: the index
        # proofs see the loads in them (inside an `if` they left a check in the kernel).
        fresh = bm != row
        row_max = st.where(fresh, float("-inf"), row_max)
        row_sum = st.where(fresh, 0.0, row_sum)
        # From column tile REREAD // BN to the end, then from 0 up to it: the tiles the next tiles
        # read first are the ones this pass reads last, still in L2 (safetile/rows.py: REREAD).
        # Two loops, not one index modulo the tile count: the index proofs bound each loop's own.
        first = REREAD // BN
        for k in range(st.minimum(tiles, st.where(fresh, first, tiles)), tiles):
            row_max, row_sum = online_merge(px.load((bm, k)).astype(f32), row_max, row_sum)
        for k in range(st.minimum(tiles, st.where(fresh, first, 0))):
            row_max, row_sum = online_merge(px.load((bm, k)).astype(f32), row_max, row_sum)
        row = bm
        own = px.load((bm, bn)).astype(f32)
        if LOG:
            z.store((own - (row_max + st.log(row_sum))).astype(E), idx)
        else:
            z.store((exp_shifted(own, row_max) * (1.0 / row_sum)).astype(E), idx)


LAUNCHER = RowLauncher(SOFTMAX, softmax_row, softmax, key_generics=("LOG",))
"""The width -> kernel, tile and hints choice (``safetile/rows.py``: ``SOFTMAX``'s candidates),
tuned per element type, width and ``LOG``; ``LAUNCHER.tuned_kernels`` holds this process's."""


def launch_softmax(z: st.Tensor | st.Partition, x: st.Tensor, rows: int | None = None,
                   log: bool = False) -> st.DeviceOp:
    """``z = softmax(x)`` (``log``: ``log_softmax(x)``) along rows: ``softmax_row`` when a row fits
    in one tile (``MAX_ROW_TILE`` elements, f32 twice that), else the online ``softmax``, with the tile and hints
    ``st.autotune`` picks on the device for the element type and width (kept on disk: a later
    process reuses the choice); ``rows`` fixes the rows per block instead (no tuning).  ``z``
    comes back as passed (a Partition tiled as the chosen config tiles it)."""
    return LAUNCHER.launch(z, x, rows=rows, LOG=int(log))
