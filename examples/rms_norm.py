"""RMS normalization of rows: ``x / sqrt(mean(x**2) + eps) * w``, computed in f32.

``rms_norm_row``: the row width ``N`` is part of the variant (from ``x``'s
shape) and at most ``BN`` (a compile-time assert): each block loads its
``BM`` whole rows once and scales them in registers.

``rms_norm``: any width, the output a mapped partition narrower than a row,
its tiles numbered column-major: on the launcher's grid (one block per row
block) each block sums the squares of its row block's column tiles once,
then scales each of its tiles (on any other grid every tile is still right;
as ``softmax.py``'s ``softmax``).

``launch_rms_norm`` picks the kernel from the width, then ``st.autotune``
picks its tile and hints among the width's candidates (``safetile/rows.py``'s
``RMS_NORM`` table, which ``safetile.nn.rms_norm`` takes its tiles from too:
the fastest on an H100 first, the default, then the runners-up, none
spilling), timed on the device at the first launch of each element type and
width and kept on disk (docs/autotune.md).  Padded columns
load as zero and add nothing to the sums.

The kernels' own hints (a direct launch, ``rows=``): ``rms_norm_row``
``occupancy = 4`` on sm_90, 2 for f32 tiles of 8192 elements or more and every
tile of 16384 (at 4 they spill or run slower); ``rms_norm`` ``occupancy = 2``.
"""

import safetile as st
from safetile import f32
from safetile.rows import REREAD, RMS_NORM, RowLauncher, row_tile  # noqa: F401 - row_tile: examples/qwen3's norm tile

MAX_ROW_TILE = RMS_NORM.widest[16]
"""The widest row the launcher gives ``rms_norm_row`` (elements, every type: 16384, one tile at
``occupancy = 2``, no spill; 1.2x the looped kernel on an H100, docs/benchmarks.md §5)."""
ROW_GROUP = 1 << 16
"""The looped kernel's tile order (as softmax.py's): on a grid of one block per row block, each
block walks its own row block's tiles left to right."""


@st.kernel(
    specialize=[dict(E=st.f16, BM=1, BN=4096, N=4096), dict(E=st.f32, BM=2, BN=8192, N=8192),
                dict(E=st.bf16, BM=4, BN=128, N=100)],
    optimization_hints=lambda E, BM, BN, **_: {
        "sm_90": {"occupancy": 2 if BM * BN >= 16384 or (E == st.f32 and BM * BN >= 8192) else 4}},
)
def rms_norm_row(
    z: st.Mut["E", ("BM", "BN")],
    x: st.Ref["E", (-1, "N")],
    w: st.Ref["E", ("N",)],
    eps: f32,
    *,
    E: st.DType,
    BM: int,
    BN: int,
    N: int,
):
    assert N <= BN, "rms_norm_row holds a whole row in one tile: partition the output with BN >= the row width"
    bm, bn, _ = st.tile_block_id()
    row = x.partition((BM, BN), padding="zero").load((bm, bn)).astype(f32)
    weight = w.partition((BN,), padding="zero").load((bn,)).astype(f32).reshape((1, BN))
    inv_rms = st.rsqrt(st.sum(row * row, 1, keepdims=True) * (1.0 / N) + eps)
    z.store((row * inv_rms * weight).astype(E))


@st.function
def squares(tile):
    """Each row's sum of squares of ``tile``, in f32."""
    row = tile.astype(f32)
    return st.sum(row * row, 1, keepdims=True)


@st.kernel(specialize=[dict(E=st.f16, BM=2, BN=1024), dict(E=st.f32, BM=1, BN=256)],
           optimization_hints={"sm_90": {"occupancy": 2}})
def rms_norm(
    z: st.MutMapped["E", ("BM", "BN")],
    x: st.Ref["E", (-1, -1)],
    w: st.Ref["E", (-1,)],
    eps: f32,
    *,
    E: st.DType,
    BM: int,
    BN: int,
    REREAD: int = REREAD,
):
    px = x.partition((BM, BN), padding="zero")
    pw = w.partition((BN,), padding="zero")
    tiles = st.num_tiles(px, 1)
    row = -1  # the row block whose sum of squares sum_square holds
    sum_square = st.zeros((BM, 1), f32)
    for idx in z.tile_indices(order=st.grouped(ROW_GROUP)):
        bm, bn = idx
        # one pass over the row block's column tiles at its first tile, none at the next (a loop
        # bound, not an `if`, as in softmax.py: the index proofs see the loads)
        fresh = bm != row
        sum_square = st.where(fresh, 0.0, sum_square)
        # from column tile REREAD // BN to the end, then from 0 up to it (as softmax.py): the
        # tiles the next tiles read first come last, still in L2
        first = REREAD // BN
        for k in range(st.minimum(tiles, st.where(fresh, first, tiles)), tiles):
            sum_square = sum_square + squares(px.load((bm, k)))
        for k in range(st.minimum(tiles, st.where(fresh, first, 0))):
            sum_square = sum_square + squares(px.load((bm, k)))
        inv_rms = st.rsqrt(sum_square / x.shape[1].astype(f32) + eps)
        row = bm
        own = px.load((bm, bn)).astype(f32)
        weight = pw.load((bn,)).astype(f32).reshape((1, BN))
        z.store((own * inv_rms * weight).astype(E), idx)


LAUNCHER = RowLauncher(RMS_NORM, rms_norm_row, rms_norm)
"""The width -> kernel, tile and hints choice (``safetile/rows.py``: ``RMS_NORM``'s candidates),
tuned per element type and width; ``LAUNCHER.tuned_kernels`` holds this process's."""


def launch_rms_norm(z: st.Tensor | st.Partition, x: st.Tensor, w: st.Tensor, eps: float,
                    rows: int | None = None) -> st.DeviceOp:
    """``z = rms_norm(x) * w``: ``rms_norm_row`` when a row fits in one tile, else the looped
    ``rms_norm``, with the tile and hints ``st.autotune`` picks on the device for the element type
    and width (kept on disk: a later process reuses the choice); ``rows`` fixes the rows per block
    instead (no tuning).  ``z`` comes back as passed (a Partition tiled as the chosen config tiles
    it)."""
    return LAUNCHER.launch(z, x, w, eps, rows=rows)
