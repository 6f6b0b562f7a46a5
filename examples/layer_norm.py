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

``launch_layer_norm`` picks the kernel from the width, then ``st.autotune``
picks its tile and hints among the width's candidates (``row_configs``,
``loop_configs``: the defaults of ``rows_per_block`` and ``loop_tile`` first,
none spilling), timed on the device at the first launch of each element
type and width and kept on disk (docs/autotune.md).

The kernels' own hints (a direct launch, ``rows=``): ``layer_norm_row`` ``occupancy = 4`` on sm_90, 2 for f32
tiles of 8192 elements or more (at 4 they spill or run slower), none for
tiles of 16384 or more (16-bit rows of 16384: at 4 they spill);
``layer_norm`` none (at ``occupancy = 2`` f16 and f32 spill 40 bytes).
"""

from typing import Any

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


def sm_90(**values: int) -> dict[str, dict[str, int]]:
    """Hints for sm_90 (a config's ``optimization_hints`` / ``load_hints``)."""
    return {"sm_90": values}


def row_configs(width: int, dtype: st.DType) -> list[dict[str, Any]]:
    """``layer_norm_row``'s candidates for rows of ``width`` columns: the default first (what runs
    untimed: on the CPU interpreter, with ``SAFETILE_AUTOTUNE=0``), then blocks of other sizes
    (elements a block) and register caps (``occupancy``: 4 = 64 registers, 6 = 40, 8 = 32; a
    16-bit row of 16384 also at occupancy 2 or with 8 worker warps): none spills at the widths
    ``bench/kernels.py --build`` checks (docs/benchmarks.md §5)."""
    tile, rows = row_tile(width), rows_per_block(width, dtype)
    found = [dict(BM=rows, BN=tile, optimization_hints=row_hints(dtype, rows * tile) or None)]
    if tile > MAX_ROW_TILE:
        return found + [dict(BM=1, BN=tile, optimization_hints=sm_90(occupancy=2)),
                        dict(BM=1, BN=tile, optimization_hints=sm_90(num_worker_warps_per_cta=8))]
    others = ((1024, 6), (1024, 8), (2048, 6), (2048, 4), (8192, 4)) if dtype.bits == 16 else ((2048, 6),)
    for elements, occupancy in others:
        config = dict(BM=max(1, elements // tile), BN=tile, optimization_hints=sm_90(occupancy=occupancy))
        if elements >= tile and config not in found:  # never a block bigger than asked
            found.append(config)
    return found


def loop_configs(width: int, dtype: st.DType) -> list[dict[str, Any]]:
    """The looped ``layer_norm``'s candidates (one row a block): the default first, then column
    tiles at occupancy 2 or 3 (128 or 80 registers; f32 tiles of 4096 only at 3, 16-bit ones of
    4096 with no hint: the others spill, as bf16 tiles of 2048 at 2 do) and a load latency of 4;
    none spills (``bench/kernels.py --build``)."""
    found = [dict(BM=1, BN=loop_tile(width, dtype))]
    hinted = ((8192, 2), (8192, 3), (4096, 3)) if dtype.bits == 32 else ((8192, 2), (8192, 3))
    found += [dict(BM=1, BN=bn, optimization_hints=sm_90(occupancy=o)) for bn, o in hinted]
    if dtype.bits == 16:
        found.append(dict(BM=1, BN=4096))
    found.append(dict(found[0], load_hints=sm_90(latency=4)))
    return found


def tuning_key(z: Any, x: Any, *_: Any, **__: Any) -> tuple[str, int]:
    """What makes a new tuning problem: the element type and the row width (not the number of rows)."""
    return x.dtype.name, x.shape[1]


TUNED: dict[tuple[bool, str, int], Any] = {}
"""The launcher's tuned kernels of this process, by (looped, element type, width): ``report()``
says what each chose."""


def tuned(looped: bool, width: int, dtype: st.DType) -> Any:
    """The ``st.autotune`` of ``layer_norm`` (``looped``) or ``layer_norm_row`` over the width's candidates."""
    key = (looped, dtype.name, width)
    if key not in TUNED:
        configs = loop_configs(width, dtype) if looped else row_configs(width, dtype)
        TUNED[key] = st.autotune(configs=configs, key=tuning_key, warmup=10, rep=40)(
            layer_norm if looped else layer_norm_row)
    return TUNED[key]


def launch_layer_norm(z: st.Tensor, x: st.Tensor, w: st.Tensor, b: st.Tensor, eps: float, rows: int | None = None) -> st.DeviceOp:
    """``z = layer_norm(x) * w + b``: ``layer_norm_row`` when a row fits in one tile, else the looped ``layer_norm``,
    with the tile and hints ``st.autotune`` picks on the device for the element type and width
    (kept on disk: a later process reuses the choice); ``rows`` fixes the rows per block instead
    (no tuning).  ``z`` comes back as passed."""
    width = x.shape[1]
    looped = row_tile(width) > max_row_tile(x.dtype)
    if rows is not None:
        tile = (rows, loop_tile(width, x.dtype) if looped else row_tile(width))
        kernel, grid = (layer_norm, dict(grid=(-(-x.shape[0] // rows),))) if looped else (layer_norm_row, {})
        return kernel(z.partition(tile), x, w, b, eps, **grid).then(lambda out: (out[0].unpartition(), *out[1:]))
    grid = dict(grid=(x.shape[0],)) if looped else {}
    return tuned(looped, width, x.dtype)(z, x, w, b, eps, **grid)
