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
picks its tile and hints among the width's candidates (``row_configs``,
``loop_configs``: the defaults of ``rows_per_block`` and ``loop_tile`` first,
none spilling), timed on the device at the first launch of each element
type and width and kept on disk (docs/autotune.md). Padded columns
load as zero and add nothing to the sums.

The kernels' own hints (a direct launch, ``rows=``): ``rms_norm_row`` ``occupancy = 4`` on sm_90, 2 for f32 tiles
of 8192 elements or more (at 4 they spill or run slower); ``rms_norm``
``occupancy = 2``.
"""

from typing import Any

import safetile as st
from safetile import f32

MAX_ROW_TILE = 8192
"""The widest row ``rms_norm_row`` takes in one tile (elements)."""
WIDE_TILE = 8192
"""The looped kernel's usual column tile (``loop_tile`` gives the exceptions)."""
ROW_GROUP = 1 << 16
"""The looped kernel's tile order (as softmax.py's): on a grid of one block per row block, each
block walks its own row block's tiles left to right."""


@st.kernel(
    specialize=[dict(E=st.f16, BM=1, BN=4096, N=4096), dict(E=st.f32, BM=2, BN=8192, N=8192),
                dict(E=st.bf16, BM=4, BN=128, N=100)],
    optimization_hints=lambda E, BM, BN, **_: {"sm_90": {"occupancy": 2 if E == st.f32 and BM * BN >= 8192 else 4}},
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
        for j in range(st.where(fresh, 0, tiles), tiles):
            tile = px.load((bm, j)).astype(f32)
            sum_square = sum_square + st.sum(tile * tile, 1, keepdims=True)
        inv_rms = st.rsqrt(sum_square / x.shape[1].astype(f32) + eps)
        row = bm
        own = px.load((bm, bn)).astype(f32)
        weight = pw.load((bn,)).astype(f32).reshape((1, BN))
        z.store((own * inv_rms * weight).astype(E), idx)


def row_tile(width: int) -> int:
    """The smallest power of two holding ``width`` columns."""
    return 1 << max(0, (width - 1).bit_length())


def rows_per_block(width: int, dtype: st.DType = f32) -> int:
    """The launcher's rows per block: about 4096 elements a block (several rows of narrow ones,
    at most 16), one row from 4096 columns up, for every element type (4x as many measured
    slower on an H100)."""
    return max(1, min(16, 4096 // row_tile(width)))


def loop_tile(width: int, dtype: st.DType = f32) -> int:
    """The looped kernel's column tile: 2048 for f32 (the fastest of 2048/4096/8192 measured on an
    H100, docs/benchmarks.md §5), 4096 for 16-bit types (8192 is 4-10% faster but spills 16
    bytes a thread)."""
    return 2048 if dtype.bits == 32 else WIDE_TILE // 2


def sm_90(**values: int) -> dict[str, dict[str, int]]:
    """Hints for sm_90 (a config's ``optimization_hints`` / ``load_hints``)."""
    return {"sm_90": values}


def row_configs(width: int, dtype: st.DType) -> list[dict[str, Any]]:
    """``rms_norm_row``'s candidates for rows of ``width`` columns: the default first (what runs
    untimed: on the CPU interpreter, with ``SAFETILE_AUTOTUNE=0``), then blocks of other sizes
    (elements a block) and register caps (``occupancy``: 4 = 64 registers, 6 = 40, 8 = 32): none
    spills at the widths ``bench/kernels.py --build`` checks (docs/benchmarks.md §5)."""
    tile, rows = row_tile(width), rows_per_block(width, dtype)
    occupancy = 2 if dtype == f32 and rows * tile >= 8192 else 4
    found = [dict(BM=rows, BN=tile, optimization_hints=sm_90(occupancy=occupancy))]
    others = ((1024, 6), (1024, 8), (2048, 6), (2048, 4), (8192, 4)) if dtype.bits == 16 else ((2048, 6),)
    for elements, occupancy in others:
        config = dict(BM=max(1, elements // tile), BN=tile, optimization_hints=sm_90(occupancy=occupancy))
        if elements >= tile and config not in found:  # never a block bigger than asked
            found.append(config)
    return found


def loop_configs(width: int, dtype: st.DType) -> list[dict[str, Any]]:
    """The looped ``rms_norm``'s candidates (one row a block): the default first, then column
    tiles of 2048 to 8192 at occupancy 2 or 3 (128 or 80 registers; 16-bit tiles of 8192 only at
    3: at 2 they spill) and a load latency of 4; none spills (``bench/kernels.py --build``)."""
    found = [dict(BM=1, BN=loop_tile(width, dtype), optimization_hints=sm_90(occupancy=2))]
    tiles = ((2048, 2), (4096, 2), (2048, 3), (4096, 3), (8192, 3)) + (((8192, 2),) if dtype.bits == 32 else ())
    for bn, occupancy in tiles:
        config = dict(BM=1, BN=bn, optimization_hints=sm_90(occupancy=occupancy))
        if config not in found:
            found.append(config)
    found.append(dict(found[0], load_hints=sm_90(latency=4)))
    return found


def tuning_key(z: Any, x: Any, *_: Any, **__: Any) -> tuple[str, int]:
    """What makes a new tuning problem: the element type and the row width (not the number of rows)."""
    return x.dtype.name, x.shape[1]


TUNED: dict[tuple[bool, str, int], Any] = {}
"""The launcher's tuned kernels of this process, by (looped, element type, width): ``report()``
says what each chose."""


def tuned(looped: bool, width: int, dtype: st.DType) -> Any:
    """The ``st.autotune`` of ``rms_norm`` (``looped``) or ``rms_norm_row`` over the width's candidates."""
    key = (looped, dtype.name, width)
    if key not in TUNED:
        configs = loop_configs(width, dtype) if looped else row_configs(width, dtype)
        TUNED[key] = st.autotune(configs=configs, key=tuning_key, warmup=10, rep=40)(
            rms_norm if looped else rms_norm_row)
    return TUNED[key]


def launch_rms_norm(z: st.Tensor, x: st.Tensor, w: st.Tensor, eps: float, rows: int | None = None) -> st.DeviceOp:
    """``z = rms_norm(x) * w``: ``rms_norm_row`` when a row fits in one tile, else the looped ``rms_norm``,
    with the tile and hints ``st.autotune`` picks on the device for the element type and width
    (kept on disk: a later process reuses the choice); ``rows`` fixes the rows per block instead
    (no tuning).  ``z`` comes back as passed."""
    width = x.shape[1]
    looped = row_tile(width) > MAX_ROW_TILE
    if rows is not None:
        tile = (rows, loop_tile(width, x.dtype) if looped else row_tile(width))
        kernel, grid = (rms_norm, dict(grid=(-(-x.shape[0] // rows),))) if looped else (rms_norm_row, {})
        return kernel(z.partition(tile), x, w, eps, **grid).then(lambda out: (out[0].unpartition(), *out[1:]))
    grid = dict(grid=(x.shape[0],)) if looped else {}
    return tuned(looped, width, x.dtype)(z, x, w, eps, **grid)
