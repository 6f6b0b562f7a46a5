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
``loop_configs``: the fastest on an H100 first, the default, then the
runners-up, none spilling), timed on the device at the first launch of each element
type and width and kept on disk (docs/autotune.md).  Padded columns
load as zero and add nothing to the sums.

The kernels' own hints (a direct launch, ``rows=``): ``rms_norm_row``
``occupancy = 4`` on sm_90, 2 for f32 tiles of 8192 elements or more (at 4
they spill or run slower); ``rms_norm`` ``occupancy = 2``.
"""

from typing import Any

import safetile as st
from safetile import f32

MAX_ROW_TILE = 8192
"""The widest row ``rms_norm_row`` takes in one tile (elements)."""
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


def sm_90(**values: int) -> dict[str, dict[str, int]]:
    """Hints for sm_90 (a config's ``optimization_hints`` / ``load_hints``)."""
    return {"sm_90": values}


def row_choices(width: int, dtype: st.DType) -> list[tuple[int, dict[str, int]]]:
    """(elements a block, sm_90 hints) of ``rms_norm_row``'s candidates, the default first: the
    fastest of each width's candidates timed by ``st.autotune`` on an H100 (docs/benchmarks.md
    §5): 16-bit rows 8192 elements a block at ``occupancy = 4`` (1.04-1.07x the 4096 shipped
    before), f32 rows of up to 1024 columns 2048 at 6 (40 registers), wider ones 4096 at 4.  The
    others are the runners-up; none spills at the widths ``bench/kernels.py --build`` checks."""
    if dtype.bits == 16:
        return [(8192, {"occupancy": 4}), (4096, {"occupancy": 4}), (2048, {"occupancy": 6})]
    first = (2048, {"occupancy": 6}) if row_tile(width) <= 1024 else (4096, {"occupancy": 4})
    return [first, (4096, {"occupancy": 4}), (2048, {"occupancy": 6})]


def loop_choices(width: int, dtype: st.DType) -> list[tuple[int, dict[str, int]]]:
    """(column tile, sm_90 hints) of the looped ``rms_norm``'s candidates, the default first: the
    fastest on an H100 (docs/benchmarks.md §5): 16-bit rows 2048 at ``occupancy = 3`` up to
    16384 columns, 4096 at 2 wider; f32 rows 2048 at 2; then the runners-up (16-bit tiles of
    8192 only at 3: at 2 they spill)."""
    if dtype.bits == 16:
        first = (2048, {"occupancy": 3}) if width <= 16384 else (4096, {"occupancy": 2})
        return [first, (4096, {"occupancy": 2}), (4096, {"occupancy": 3}), (8192, {"occupancy": 3})]
    return [(2048, {"occupancy": 2}), (2048, {"occupancy": 3}), (4096, {"occupancy": 3}), (8192, {"occupancy": 2})]


def row_configs(width: int, dtype: st.DType) -> list[dict[str, Any]]:
    """``rms_norm_row``'s candidates for rows of ``width`` columns (``row_choices``), the default
    first: what runs untimed (the CPU interpreter, ``SAFETILE_AUTOTUNE=0``); f32 tiles of 8192
    elements or more at most at ``occupancy = 2`` (at 4 they spill)."""
    tile, found = row_tile(width), []
    for elements, hints in row_choices(width, dtype):
        rows = max(1, elements // tile)
        if dtype == f32 and rows * tile >= 8192 and hints.get("occupancy", 0) > 2:
            hints = dict(hints, occupancy=2)
        config = dict(BM=rows, BN=tile, optimization_hints=sm_90(**hints))  # {} : no hint
        if config not in found:
            found.append(config)
    return found


def loop_configs(width: int, dtype: st.DType) -> list[dict[str, Any]]:
    """The looped ``rms_norm``'s candidates (one row a block; ``loop_choices``), the default first."""
    found = []
    for bn, hints in loop_choices(width, dtype):
        config = dict(BM=1, BN=bn, optimization_hints=sm_90(**hints))  # {} : no hint
        if config not in found:
            found.append(config)
    return found


def rows_per_block(width: int, dtype: st.DType = f32) -> int:
    """The default rows per block of the one-tile kernel (its first candidate's)."""
    return int(row_configs(width, dtype)[0]["BM"])


def loop_tile(width: int, dtype: st.DType = f32) -> int:
    """The looped kernel's default column tile (its first candidate's)."""
    return int(loop_configs(width, dtype)[0]["BN"])


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


def launch_rms_norm(z: st.Tensor | st.Partition, x: st.Tensor, w: st.Tensor, eps: float,
                    rows: int | None = None) -> st.DeviceOp:
    """``z = rms_norm(x) * w``: ``rms_norm_row`` when a row fits in one tile, else the looped ``rms_norm``,
    with the tile and hints ``st.autotune`` picks on the device for the element type and width
    (kept on disk: a later process reuses the choice); ``rows`` fixes the rows per block instead
    (no tuning).  ``z`` comes back as passed (a Partition
    tiled as the chosen config tiles it)."""
    width = x.shape[1]
    looped = row_tile(width) > MAX_ROW_TILE
    if rows is not None:
        tile = (rows, loop_tile(width, x.dtype) if looped else row_tile(width))
        kernel, grid = (rms_norm, dict(grid=(-(-x.shape[0] // rows),))) if looped else (rms_norm_row, {})
        tensor = z.unpartition() if isinstance(z, st.Partition) else z
        op = kernel(tensor.partition(tile), x, w, eps, **grid)
        return op if isinstance(z, st.Partition) else op.then(lambda out: (out[0].unpartition(), *out[1:]))
    grid = dict(grid=(x.shape[0],)) if looped else {}
    return tuned(looped, width, x.dtype)(z, x, w, eps, **grid)
