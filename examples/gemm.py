"""Tiled matrix multiply: each tile block accumulates one ``BM x BN`` output tile.

The K loop's bound comes from the partition of ``x``; with the argument
facts of contiguous, 16-aligned operands the inner strides are static 1.

``matmul(z, x, y)`` is what a user calls: it plans the launch for the shape
(``gemm_plan``: the tiles of ``gemm_tiles``, whether to split K, whether to
run persistent) and launches ``grouped_gemm``, the persistent grouped GEMM
of ``examples/persistent_gemm.py`` (128x256 tiles: one block per SM walks
them), ``split_k`` where the plain grid would leave most of the GPU idle, or
``split_columns`` where K is long and the last wave of tiles short.
Shipped defaults (the best of ``bench/gemm.py`` on an H100 by its method,
docs/benchmarks.md §4): for big outputs 128x256x64 tiles in the grouped
order (``G = 8``) with, on sm_90, 8 worker warps (384 threads, 168
registers: without it a 128x256 tile spills 1808 bytes a thread) and a load
pipeline 6 deep (``latency = 6``); for a few rows, 16 or 32-row tiles with
K tiles of 128 and ``latency = 4`` (``gemm_load_hints``).  Other tiles of
128x128 or smaller take no hints (8 warps there is neutral or slower).

Split-K (few tokens: a Qwen3-4B projection at 16-128 rows is 20-96 output
tiles for 132 SMs): ``split_k_gemm``'s block ``(s, bm, bn)`` sums every
``S``-th K tile from ``s`` into an f32 partial of ``[S, M, N]``;
``split_k_sum`` adds the ``S`` partials of each output tile.  Two launches,
no atomics: each partial and each output tile has one writer, and the
grid-strided K walk is proved in range (safe and ``unchecked_accesses``
compile to one cubin).

Split columns (``split_columns``: a long K and a short last wave of tiles): ``split_k_gemm``
sums the K of the tiles in the first tile columns in ``S`` splits, ``split_columns_gemm`` writes
the other tiles by the whole K loop and ``split_columns_sum`` the split ones as the sums of
their partials, so the unsplit tiles fill a whole wave and the split ones the SMs of the next.
Three launches, no atomics, one writer a tile, no check left in a kernel.

Stream-K (``stream_k``: a partial last wave of big tiles): ``stream_k_gemm``'s
blocks each take an equal contiguous run of all tiles' K steps and write a
partial sum for each tile their run crosses into slots of a mapped partials
tensor they own; ``stream_k_sum`` adds each tile's partials.  Two launches,
no atomics, every index proved (one cubin safe and unchecked).  Measured, it
does not beat the plan's GEMM at the shapes tried, so ``matmul()`` does not
run it (``gemm_plan``).
"""

import functools
import importlib.util
from pathlib import Path
from typing import NamedTuple

import safetile as st
from safetile import f16

GROUP = 8
"""Rows of tiles a group of blocks covers in the grouped order (4, 8, 16 measured equal)."""


def big_tile_hints(BM: int, BN: int, **_: object) -> dict[str, dict[str, int]]:
    """8 worker warps on sm_90 for tiles of 128x256 or more; none for smaller tiles."""
    return {"sm_90": {"num_worker_warps_per_cta": 8}} if BM * BN >= 128 * 256 else {}


def big_tile_load_hints(BM: int, BN: int, **_: object) -> dict[str, dict[str, int]]:
    """A load pipeline 6 deep on sm_90 for tiles of 128x256 or more (+2.4%; 8 or more slower)."""
    return {"sm_90": {"latency": 6}} if BM * BN >= 128 * 256 else {}


def gemm_load_hints(BM: int, BN: int, **_: object) -> dict[str, dict[str, int]]:
    """``big_tile_load_hints``, and tileiras's ``latency = 4`` on sm_90 for tiles of at most 32 rows
    (a few tokens; it shrinks the load pipeline tileiras picks for them, 16x64x128: 122 KB of shared
    memory against 151).  On an H100 (docs/benchmarks.md §4, burst vs cuBLAS in one run): Qwen3-4B's
    QKV at 16 tokens on 16x64x128 1.02 against 0.92 without, down at 16 tokens (2 splits) 1.02
    against 0.98.  Not for 64-row tiles: down at 128 tokens (2 splits of 64x128) fell to 0.93
    from 1.00, QKV at 128 tokens (64x128) moved 0.88 -> 0.90."""
    return big_tile_load_hints(BM=BM, BN=BN) or ({"sm_90": {"latency": 4}} if BM <= 32 else {})


@st.kernel(
    specialize=[
        dict(E=f16, BM=128, BN=128, BK=64, x=st.TensorSpec(f16, (4096, 4096)), y=st.TensorSpec(f16, (4096, 4096))),
        dict(E=st.f32, BM=64, BN=64, BK=32),
    ]
)
def gemm(
    z: st.Mut["E", ("BM", "BN")],
    x: st.Ref["E", (-1, -1)],
    y: st.Ref["E", (-1, -1)],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    BK: int,
):
    bm, bn, _ = st.tile_block_id()
    px, py = x.partition((BM, BK)), y.partition((BK, BN))
    acc = st.zeros((BM, BN), st.f32)
    for k in range(st.num_tiles(px, 1)):
        acc = st.mma(px.load((bm, k)), py.load((k, bn)), acc)
    z.store(acc.astype(E))


@st.kernel(
    specialize=[
        dict(E=f16, BM=128, BN=256, BK=64, G=8, x=st.TensorSpec(f16, (8192, 8192)), y=st.TensorSpec(f16, (8192, 8192))),
    ],
    optimization_hints=big_tile_hints,
    load_hints=gemm_load_hints,
)
def grouped_gemm(
    z: st.Mut["E", ("BM", "BN")],
    x: st.Ref["E", (-1, -1)],
    y: st.Ref["E", (-1, -1)],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    BK: int,
    G: int,
):
    """The same GEMM, its blocks taking output tiles in the grouped order.

    Blocks run in launch order; ``z.tile_index(order=st.grouped(G))`` gives
    consecutive blocks the tiles of ``G`` rows, column by column, so they
    share rows of ``x`` and columns of ``y`` in L2 (Triton's ``GROUP_M``).
    The order is a bijection the compiler proves: each tile has one writer.
    """
    idx = z.tile_index(order=st.grouped(G))
    bm, bn = idx
    px, py = x.partition((BM, BK)), y.partition((BK, BN))
    acc = st.zeros((BM, BN), st.f32)
    for k in range(st.num_tiles(px, 1)):
        acc = st.mma(px.load((bm, k)), py.load((k, bn)), acc)
    z.store(acc.astype(E), idx)


SMS = 132
"""Streaming multiprocessors of an H100 SXM: the blocks of one wave."""


@functools.cache
def persistent_kernel() -> st.Kernel:
    """``examples/persistent_gemm.py``'s ``grouped_persistent_gemm`` with the big-tile hints:
    ``matmul()``'s kernel for 128x256 tiles.  Loaded on first use, once (the examples are files,
    not a package; one kernel object keeps one launch cache)."""
    spec = importlib.util.spec_from_file_location("safetile_example_persistent_gemm",
                                                  Path(__file__).with_name("persistent_gemm.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.grouped_persistent_gemm.with_options(optimization_hints=big_tile_hints,
                                                       load_hints=big_tile_load_hints)


@st.kernel(
    specialize=[dict(E=f16, BM=64, BN=64, BK=64, x=st.TensorSpec(f16, (16, 2560)), y=st.TensorSpec(f16, (2560, 6144)))],
    optimization_hints=big_tile_hints,
    load_hints=gemm_load_hints,
)
def split_k_gemm(
    p: st.Mut[st.f32, (1, "BM", "BN")],
    x: st.Ref["E", (-1, -1)],
    y: st.Ref["E", (-1, -1)],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    BK: int,
):
    """Split-K, first launch: block ``(s, bm, bn)`` of a grid of ``S`` splits sums the K tiles
    ``s, s + S, s + 2S, ...`` of output tile ``(bm, bn)`` into partial ``s`` of ``p`` (``[S, M, N]``,
    f32).  The K walk is grid-strided (each split takes every ``S``-th K tile, not a contiguous
    run): the compiler then sees every K index below the tile count, so no check is left in the
    kernel and any ``S`` up to the K tiles works (a contiguous run ``s*KS .. s*KS+KS`` is bounded
    only by a product the prover does not follow).  Each partial tile has one writer."""
    s, bm, bn = st.tile_block_id()
    px, py = x.partition((BM, BK)), y.partition((BK, BN))
    acc = st.zeros((BM, BN), st.f32)
    for k in range(s, st.num_tiles(px, 1), st.num_tile_blocks()[0]):
        acc = st.mma(px.load((bm, k)), py.load((k, bn)), acc)
    p.store(acc.reshape((1, BM, BN)))


@st.kernel(specialize=[dict(E=f16, BM=16, BN=64)])
def split_k_sum(
    z: st.Mut["E", ("BM", "BN")],
    p: st.Ref[st.f32, (-1, -1, -1)],
    *,
    E: st.DType,
    BM: int,
    BN: int,
):
    """Split-K, second launch: each output tile is the sum of its ``S`` partials, cast to ``E``."""
    bm, bn, _ = st.tile_block_id()
    pp = p.partition((1, BM, BN))
    acc = st.zeros((BM, BN), st.f32)
    for s in range(st.num_tiles(pp, 0)):
        acc = acc + pp.load((s, bm, bn)).reshape((BM, BN))
    z.store(acc.astype(E))


SUM_TILE = (16, 64)
"""``split_k_sum``'s output tile: small, so the sum (memory-bound, reading ``S`` partials a
tile) runs on many blocks where the GEMM's grid is small."""


def split_k(z: st.Tensor, x: st.Tensor, y: st.Tensor, partials: st.Tensor, *, BM: int, BN: int,
            BK: int) -> st.DeviceOp:
    """``z = x @ y`` in two launches, ``split_k_gemm`` on ``BM x BN x BK`` tiles into ``partials``
    (``[S, M, N]`` f32: ``S`` splits of the K tiles), then ``split_k_sum``.  Its value is
    ``(z partitioned, x, y, partials)``.  Refused: a ``K`` that is not whole ``BK`` tiles (the
    kernel sums whole K tiles), ``partials`` of another shape, more splits than K tiles."""
    (m, k), n = x.shape, y.shape[1]
    if k % BK:
        raise ValueError(f"split_k: K = {k} is not a multiple of BK = {BK}; pass a BK that divides K "
                         "(matmul() picks one) or pad x's columns and y's rows with zeros")
    splits = partials.shape[0]
    if partials.shape != (splits, m, n):
        raise ValueError(f"split_k: partials are {list(partials.shape)}; they must be [S, M, N] = "
                         f"[S, {m}, {n}] (f32, one [M, N] slice per split)")
    if not 1 <= splits <= k // BK:
        raise ValueError(f"split_k: S = {splits} splits of {k // BK} K tiles of {BK}: every split needs "
                         f"a K tile; take 1 <= S <= {k // BK}")
    first = split_k_gemm(partials.partition((1, BM, BN)), x, y, BK=BK)
    return first.then(lambda v: split_k_sum(z.partition(SUM_TILE), v[0].unpartition()).then(
        lambda w: (w[0], v[1], v[2], w[1])))


@st.kernel(
    specialize=[dict(E=f16, BM=128, BN=256, BK=64, G=8, x=st.TensorSpec(f16, (2048, 9728)),
                     y=st.TensorSpec(f16, (9728, 2560)))],
    optimization_hints=big_tile_hints,
    load_hints=gemm_load_hints,
)
def split_columns_gemm(
    z: st.Mut["E", ("BM", "BN")],
    p: st.Ref[st.f32, (-1, -1, -1)],
    x: st.Ref["E", (-1, -1)],
    y: st.Ref["E", (-1, -1)],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    BK: int,
    G: int,
):
    """Split columns, second launch: ``grouped_gemm``, except that the K loop of a tile in the first
    ``C`` tile columns (``p``: ``[S, M, C * BN]``, ``split_k_gemm``'s partials of those columns) has
    no trip, so the block writes zeros there and ends (``split_columns_sum`` then writes those
    tiles).  In the grouped order those blocks come first in each group of ``G`` tile rows.  The K
    loop's bound is ``min(KT, max(0, (bn + 1 - C) * KT))``, below ``KT``: every index is proved or a
    launch check, and the kernel compiles as ``grouped_gemm`` does (tileiras 13.4, sm_90: the same
    registers, shared memory and MMA instructions).  Adding the partials in this launch instead (a
    loop of one trip for a split column) made tileiras compile the K loop with half the warpgroup MMA
    instructions (128x256: ``HGMMA.64x256x16`` x4 against x8), and it ran 0.52-0.73 of cuBLAS in
    burst where the plain grids ran 0.73-0.86 (docs/benchmarks.md §4)."""
    idx = z.tile_index(order=st.grouped(G))
    bm, bn = idx
    px, py = x.partition((BM, BK)), y.partition((BK, BN))
    split, k_tiles = st.num_tiles(p.partition((1, BM, BN)), 2), st.num_tiles(px, 1)
    acc = st.zeros((BM, BN), st.f32)
    for k in range(min(k_tiles, max(0, (bn + 1 - split) * k_tiles))):
        acc = st.mma(px.load((bm, k)), py.load((k, bn)), acc)
    z.store(acc.astype(E), idx)


@st.kernel(specialize=[dict(E=f16, FM=32, FN=128)])
def split_columns_sum(
    z: st.Mut["E", ("FM", "FN")],
    p: st.Ref[st.f32, (-1, -1, -1)],
    *,
    E: st.DType,
    FM: int,
    FN: int,
):
    """Split columns, third launch: each ``FM x FN`` piece of ``z`` in the split columns (``p``'s
    ``C * BN``) is the sum of its ``S`` partials, cast to ``E``; a block past them does nothing (a
    loop of no trip, whose column is then below ``p``'s pieces: no check is left in the kernel)."""
    fm, fn, _ = st.tile_block_id()
    pp = p.partition((1, FM, FN))
    for c in range(fn, min(st.num_tiles(pp, 2), fn + 1)):
        total = st.zeros((FM, FN), st.f32)
        for s in range(st.num_tiles(pp, 0)):
            total = total + pp.load((s, fm, c)).reshape((FM, FN))
        z.store(total.astype(E))


def split_columns(z: st.Tensor, x: st.Tensor, y: st.Tensor, partials: st.Tensor, *, BM: int, BN: int,
                  BK: int) -> st.DeviceOp:
    """``z = x @ y`` in three launches where only the tiles of the first ``C`` tile columns split K:
    ``split_k_gemm`` sums their K tiles in ``S`` splits into ``partials`` (``[S, M, C * BN]`` f32),
    ``split_columns_gemm`` writes every other tile by the whole K loop, and ``split_columns_sum``
    the split ones as the sums of their partials (pieces of ``SUM_PIECE``, or the tile where
    smaller).  So a grid of ``R x (N / BN)`` tiles runs the ``R x (N / BN - C)`` tiles that fill
    whole waves unsplit and spreads the rest over the SMs in ``S`` shares of their K (``gemm_plan``'s
    ``columns_plan``).  Its value is ``(z partitioned, x, y, partials)``.  Refused: a ``K`` that is
    not whole ``BK`` tiles, ``partials`` whose columns are not whole ``BN`` tiles within ``z``'s,
    more splits than K tiles."""
    (m, k), n = x.shape, y.shape[1]
    if k % BK:
        raise ValueError(f"split_columns: K = {k} is not a multiple of BK = {BK}; pass a BK that divides K "
                         "(matmul() picks one) or pad x's columns and y's rows with zeros")
    splits, rows, cols = partials.shape if len(partials.shape) == 3 else (0, 0, 0)
    if rows != m or not cols or cols % BN or cols > -(-n // BN) * BN:
        raise ValueError(f"split_columns: partials are {list(partials.shape)}; they must be [S, M, C * BN] = "
                         f"[S, {m}, C * {BN}] (f32) for the first C tile columns, 1 <= C <= {-(-n // BN)}")
    if not 1 <= splits <= k // BK:
        raise ValueError(f"split_columns: S = {splits} splits of {k // BK} K tiles of {BK}: every split needs "
                         f"a K tile; take 1 <= S <= {k // BK}")
    piece = min(SUM_PIECE[0], BM), min(SUM_PIECE[1], BN)
    first = split_k_gemm(partials.partition((1, BM, BN)), x, y, BK=BK)
    return first.then(lambda v: split_columns_gemm(z.partition((BM, BN)), v[0].unpartition(), v[1], v[2], BK=BK,
                                                   G=GROUP)).then(
        lambda w: split_columns_sum(w[0].unpartition().partition(piece), w[1]).then(
            lambda u: (u[0], w[2], w[3], u[1])))


@st.kernel(
    specialize=[dict(E=f16, BM=128, BN=256, BK=64, x=st.TensorSpec(f16, (1024, 9728)), y=st.TensorSpec(f16, (9728, 2560)))],
    optimization_hints=big_tile_hints,
    load_hints=gemm_load_hints,
)
def stream_k_gemm(
    p: st.MutMapped[st.f32, ("BM", "BN")],
    x: st.Ref["E", (-1, -1)],
    y: st.Ref["E", (-1, -1)],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    BK: int,
):
    """Stream-K, first launch: the ``T * KT`` work units (output tile ``t`` row-major, K tile
    ``k``: unit ``t * KT + k``) in ``B`` contiguous runs of ``U = ceil(T * KT / B)``, one a block,
    so every block does the same work whatever the tile count (no partial last wave).  Block ``b``'s
    run crosses at most ``W`` tiles; its ``j``-th piece from the end (a partial sum over a run of K
    tiles) goes to slot ``b + j * B`` of ``p`` (``[W * B * BM, BN]`` f32, one ``BM x BN`` tile a
    slot): the slots are the mapped tiles ``tile_indices()`` hands block ``b``, so each has one
    writer.  The block walks its pieces last tile first, each from its lowest K tile: where a run is
    at most ``KT`` long (two pieces, ``[0, k1)`` of one tile then ``[k0, KT)`` of the one before),
    at step ``i`` every block is at K tile ``i`` or ``i + KT - U``, so the blocks share the K tiles
    of ``x`` and ``y`` they load in L2, as the one-tile-a-block GEMMs do.  On an H100, Qwen3-4B's
    down projection at 1024 tokens (80 128x256 tiles, 131 blocks of 93 of 152 K tiles): this walk
    0.70 of cuBLAS in burst, the persistent GEMM 0.72 (one tile on each of 80 blocks); the run
    walked in order, each block at its own K offset, 0.46 (our reading: its loads miss L2).
    docs/benchmarks.md §4.  A slot whose piece is empty is not written (``stream_k_sum`` never reads
    it): a loop of at most one trip skips it, not an ``if`` (under which a check could not become a
    launch check).

    ``U`` comes from the grid and the shapes (no scalar argument): the host launches ``B =
    ceil(T * KT / U)`` blocks, so none is idle.  The tile's row and column are the index of a
    loop of one trip (none past the last tile), which bounds them below the tile counts; the K walk
    is clamped to ``[0, KT)``: every index is proved in range, no check is left in the kernel."""
    px, py = x.partition((BM, BK)), y.partition((BK, BN))
    blocks = st.num_tile_blocks()[0]
    k_tiles = st.num_tiles(px, 1)
    n0, n1 = st.num_tiles(px, 0), st.num_tiles(py, 1)
    total = n0 * n1 * k_tiles
    units = st.ceil_div(total, blocks)
    start = st.tile_block_id()[0] * units
    end = min(start + units, total)
    last = (end - 1) // k_tiles
    for slot in p.tile_indices():
        tile = last - slot[0] // blocks
        base = tile * k_tiles
        lo = max(start, base)
        for _ in range(lo, min(min(end, base + k_tiles), lo + 1)):  # one trip if the piece is not empty
            row = tile // n1
            acc = st.zeros((BM, BN), st.f32)
            for bm in range(max(row, 0), min(row + 1, n0)):
                for bn in range(max(tile - row * n1, 0), min(tile - row * n1 + 1, n1)):
                    for k in range(max(start - base, 0), min(end - base, k_tiles)):
                        acc = st.mma(px.load((bm, k)), py.load((k, bn)), acc)
            p.store(acc, slot)


@st.kernel(specialize=[dict(E=f16, BM=128, BN=256, FM=32, FN=128)])
def stream_k_sum(
    z: st.Mut["E", ("FM", "FN")],
    p: st.Ref[st.f32, (-1, "BN")],
    units: st.i32,
    k_tiles: st.i32,
    blocks: st.i32,
    *,
    E: st.DType,
    BM: int,
    BN: int,
    FM: int,
    FN: int,
):
    """Stream-K, second launch: each ``FM x FN`` piece of output tile ``t`` (``BM x BN``) is the sum
    of the pieces of the blocks whose runs cross ``t`` (``b = t * KT // U`` to ``((t + 1) * KT -
    1) // U``; block ``b``'s piece of ``t`` is its ``(last tile of b) - t``-th from the end), cast
    to ``E``.  Small pieces: the sum is memory-bound and the GEMM's tiles are few."""
    fm, fn, _ = st.tile_block_id()
    rm, rn = BM // FM, BN // FN
    pp = p.partition((FM, FN))
    n1 = st.ceil_div(st.num_tile_blocks()[1], rn)
    tile = (fm // rm) * n1 + fn // rn
    total = st.ceil_div(st.num_tile_blocks()[0], rm) * n1 * k_tiles
    acc = st.zeros((FM, FN), st.f32)
    for b in range(tile * k_tiles // units, ((tile + 1) * k_tiles - 1) // units + 1):
        last = (min(b * units + units, total) - 1) // k_tiles
        row = ((last - tile) * blocks + b) * rm + fm % rm
        for r in range(max(row, 0), min(row + 1, st.num_tiles(pp, 0))):
            acc = acc + pp.load((r, fn % rn))
    z.store(acc.astype(E))


SUM_PIECE = (32, 128)
"""``stream_k_sum``'s and ``split_columns_sum``'s output piece (32 of a 128x256 tile: many blocks for a
memory-bound sum)."""


class StreamK(NamedTuple):
    """A stream-K launch of ``[m, k] @ [k, n]`` on ``bm x bn x bk`` tiles: ``blocks`` blocks of
    ``units`` work units (one ``bm x bn x bk`` step), each crossing at most ``pieces`` tiles."""

    blocks: int
    units: int
    pieces: int


def stream_k_shape(m: int, n: int, k: int, bm: int, bn: int, bk: int, sms: int) -> StreamK:
    """The stream-K launch on at most ``sms`` blocks: ``U = ceil(T * KT / sms)`` units a block on
    ``ceil(T * KT / U)`` blocks (then ``stream_k_gemm`` computes the same ``U`` from its grid)."""
    k_tiles = k // bk
    total = -(-m // bm) * -(-n // bn) * k_tiles
    units = -(-total // sms)
    blocks = -(-total // units)
    pieces = max((min(b * units + units, total) - 1) // k_tiles - b * units // k_tiles + 1 for b in range(blocks))
    return StreamK(blocks, units, pieces)


def stream_k(z: st.Tensor, x: st.Tensor, y: st.Tensor, partials: st.Tensor, *, BM: int, BN: int, BK: int,
             sms: int = SMS) -> st.DeviceOp:
    """``z = x @ y`` in two launches, ``stream_k_gemm`` on ``BM x BN x BK`` tiles over at most
    ``sms`` blocks into ``partials`` (f32, ``[W * B * BM, BN]`` for ``stream_k_shape``'s ``B``
    blocks and ``W`` pieces), then ``stream_k_sum`` (pieces of ``SUM_PIECE``, or the tile where
    smaller).  Its value is ``(z partitioned, x, y, partials)``.  Refused: a ``K`` that is not whole
    ``BK`` tiles (or none), ``sms < 1``, ``partials`` of another shape."""
    (m, k), n = x.shape, y.shape[1]
    if k % BK or not k:
        raise ValueError(f"stream_k: K = {k} is not a positive multiple of BK = {BK}; pass a BK that divides K "
                         "(matmul() picks one) or pad x's columns and y's rows with zeros")
    if sms < 1:
        raise ValueError(f"stream_k: sms = {sms}; pass the number of blocks to run on, at least 1")
    blocks, units, pieces = stream_k_shape(m, n, k, BM, BN, BK, sms)
    if partials.shape != (pieces * blocks * BM, BN):
        raise ValueError(f"stream_k: partials are {list(partials.shape)}; they must be [W * B * BM, BN] = "
                         f"[{pieces * blocks * BM}, {BN}] (f32: {pieces} pieces of {blocks} blocks, "
                         "stream_k_shape())")
    fm, fn = min(SUM_PIECE[0], BM), min(SUM_PIECE[1], BN)
    first = stream_k_gemm(partials.partition((BM, BN)), x, y, BK=BK, grid=(blocks,))
    return first.then(lambda v: stream_k_sum(z.partition((fm, fn)), v[0].unpartition(), units, k // BK, blocks,
                                             BM=BM, BN=BN).then(lambda w: (w[0], v[1], v[2], w[1])))


def waves(m: int, n: int, bm: int, bn: int) -> float:
    """The fraction of the SMs' block slots an ``m x n`` output's ``bm x bn`` tiles fill over the
    whole waves the launch takes (1.0: the last wave full)."""
    tiles = -(-m // bm) * -(-n // bn)
    return tiles / (-(-tiles // SMS) * SMS)


def gemm_tiles(m: int, n: int) -> tuple[int, int, int]:
    """``(BM, BN, BK)`` for an ``m x n`` output.  Fitted to ``bench/gemm.py`` on an H100
    (docs/benchmarks.md §4):

    * ``m <= 32`` (a few tokens: the GEMM streams the weights): 16 or 32 rows, 64 columns, K tiles
      of 128 -- Qwen3-4B's QKV at 16 tokens 0.92-0.97 of cuBLAS on 16x64x128 (96 blocks) against
      0.75-0.77 on 64x64x64 (48 of whose 64 rows are padding); 32 rows for 17-32 is measured only
      at 16 tokens (32x64x128 0.82);
    * below 128 rows or columns otherwise: 64x64x64;
    * where 128x128 tiles are under one wave of ``SMS`` blocks: 64x128x64 (twice the blocks: QKV at
      128 tokens 0.90-0.95 against 0.70-0.72 on 48 blocks of 128x128);
    * else 128x256x64 unless its last wave of blocks leaves the SMs idler than 128x128x64's does
      by more than the 10% the big tile is faster per block (QKV at 1024 tokens: 0.94 on 128x128,
      384 blocks, 2.9 waves, against 0.81 on 128x256, 192 blocks, 1.45 waves)."""
    if m <= 32:
        return (16 if m <= 16 else 32), 64, 128
    if m < 128 or n < 128:
        return 64, 64, 64

    if -(-m // 128) * -(-n // 128) < SMS:
        return 64, 128, 64
    return (128, 256, 64) if waves(m, n, 128, 256) >= 0.9 * waves(m, n, 128, 128) else (128, 128, 64)


SPLIT_BLOCKS = 80
"""The blocks a split-K launch aims at: about 0.6 of a wave of ``SMS``.  Measured on an H100
(docs/benchmarks.md §4): Qwen3-4B's down projection at 128 tokens runs 1.02 of cuBLAS as 2 splits
of 40 64x128 tiles (80 blocks), 0.80 as 4 splits (160 blocks), 0.57 unsplit (20 128x128 blocks);
at 16 tokens 0.98-0.99 as 2 splits of 40 16x64x128 tiles, 0.97 as 3, 0.83 unsplit."""
MIN_SPLIT_K = 4096
"""The shortest K a split-K GEMM has.  Shorter K loops do not pay for the second launch and the
partials' traffic: the QKV projection (K = 2560) ran slower split at every size measured (0.53
against 0.74 of cuBLAS at 16 tokens)."""
MAX_SPLITS = 8


class Plan(NamedTuple):
    """How ``matmul()`` launches ``[m, k] @ [k, n]``: ``bm x bn x bk`` tiles, K in ``splits``
    splits (1: one launch over the output tiles), and for one launch whether it is persistent
    (``grouped_persistent_gemm`` on ``min(tiles, SMS)`` blocks) or one block a tile
    (``grouped_gemm``); ``columns > 0``: only the first ``columns`` tile columns split K
    (``split_columns``), ``0`` with ``splits > 1``: every tile does (``split_k``)."""

    bm: int
    bn: int
    bk: int
    splits: int
    persistent: bool
    columns: int = 0


def columns_plan(m: int, n: int, k_tiles: int) -> Plan | None:
    """``split_columns``' plan where 128x256 tiles come to more than one wave of ``SMS`` blocks and
    less than two, the last under 0.9 full: the ``R`` tile rows run unsplit in the ``SMS // R``
    columns that fill a wave, the other ``C`` columns' ``R * C`` tiles split K in ``S = SMS // (R *
    C)`` (at least 2; at most ``MAX_SPLITS`` and the K tiles).  Measured on an H100 (quick method,
    docs/benchmarks.md §4): Qwen3-4B's down projection at 2048 tokens (160 tiles: 128 whole, 32 in 4
    splits) 0.85 of cuBLAS in burst, 0.88 steady, against 0.80 / 0.79 on the 128x128 grid (2.4
    waves) it replaces.  Not taken where it did not win: at 1024 tokens (80 128x256 tiles, under a
    wave; split columns of 128x128 tiles, 128 whole and 32 in 4 splits) 0.73 / 0.79 against the
    persistent 128x256 grid's 0.74 / 0.85; at 4096 tokens (320 tiles: two whole waves, 64 tiles in
    2 splits) 0.91 / 0.80 against the persistent 128x256 grid's 0.86 / 0.84 (the plan's 128x128 grid
    there was not in that run).  ``None``: no such grid, or no split of 2 or more."""
    rows, cols = -(-m // 128), -(-n // 256)
    tiles = rows * cols
    if not SMS <= tiles < 2 * SMS or waves(m, n, 128, 256) >= 0.9:
        return None
    columns = cols - SMS // rows
    splits = min(SMS // (rows * columns), MAX_SPLITS, k_tiles)
    return Plan(128, 256, 64, splits, False, columns) if splits >= 2 else None


def gemm_plan(m: int, n: int, k: int) -> Plan:
    """The plan for ``[m, k] @ [k, n]``: ``gemm_tiles``'s tiles, the K tile narrowed to divide
    ``k``.  K splits where it is long (``MIN_SPLIT_K`` or more) and the output few tiles of at most
    64 rows (64x128, or ``gemm_tiles``'s up to 64x64 below 128 rows or columns): ``S =
    SPLIT_BLOCKS // blocks`` when that is 2 or more (at most ``MAX_SPLITS``); where it is long and
    128x256 tiles come to one whole wave and a short second, K splits in the tile columns past the
    wave (``columns_plan``, K tiles of 64).  Unsplit 128x256 tiles run persistent: at 4096³ and
    Qwen3-4B's QKV at 2048 and 8192 tokens 0.99-1.02 of cuBLAS in burst against 0.97 one block a
    tile (the same tiles, hints and order; a block's prologue overlaps the last tile's epilogue).
    No plan runs ``stream_k``: where 128x256 tiles leave a partial wave (Qwen3-4B's down projection
    at 1024 and 2048 tokens, QKV at 1024) it ran 0.97, 0.97 and 0.67 of the persistent or grouped
    GEMM in burst (steady 0.98, 1.00, 0.68) in one H100 run.  Fitted to Qwen3-4B's projections at
    16-8192 tokens and the squares on an H100 (docs/benchmarks.md §4); other shapes are the rule's
    extrapolation."""
    bm, bn, bk = gemm_tiles(m, n)
    while k % bk and bk > 16:
        bk //= 2
    if k % bk:
        raise ValueError(f"matmul: K = {k} is not a multiple of 16; pad x's columns and y's rows with zeros "
                         "to a multiple of 16")
    sbm, sbn = (64, 128) if m >= 128 and n >= 128 else (min(bm, 64), 64)
    splits = min(SPLIT_BLOCKS // (-(-m // sbm) * -(-n // sbn)), MAX_SPLITS)
    if k >= MIN_SPLIT_K and splits >= 2:
        return Plan(sbm, sbn, bk, splits, False)
    columns = columns_plan(m, n, k // 64) if k >= MIN_SPLIT_K and k % 64 == 0 else None
    return columns or Plan(bm, bn, bk, 1, bm * bn >= 128 * 256)


def matmul(z: st.Tensor, x: st.Tensor, y: st.Tensor) -> st.DeviceOp:
    """``z = x @ y`` with the shipped defaults (``gemm_plan``): ``grouped_gemm``, the persistent
    ``persistent_kernel()`` for 128x256 tiles, or for a long K ``split_k`` (few output tiles) or
    ``split_columns`` (a short last wave) with partials it allocates each call (a caller in a loop
    passes its own to ``split_k`` or ``split_columns``) (the kernels read whole K tiles: no padding
    is summed).  Its value is ``(z partitioned, x, y)``."""
    (m, k), n = x.shape, y.shape[1]
    bm, bn, bk, splits, persistent, columns = gemm_plan(m, n, k)
    if persistent:
        tiles = -(-m // bm) * -(-n // bn)
        return persistent_kernel()(z.partition((bm, bn)), x, y, BK=bk, G=GROUP, grid=(min(tiles, SMS),))
    if splits == 1:
        return grouped_gemm(z.partition((bm, bn)), x, y, BK=bk, G=GROUP)
    if columns:
        return st.zeros((splits, m, columns * bn)).then(
            lambda partials: split_columns(z, x, y, partials, BM=bm, BN=bn, BK=bk)).then(lambda v: v[:3])
    return st.zeros((splits, m, n)).then(
        lambda partials: split_k(z, x, y, partials, BM=bm, BN=bn, BK=bk)).then(lambda v: v[:3])
