"""Tiled matrix multiply: each tile block accumulates one ``BM x BN`` output tile.

The K loop's bound comes from the partition of ``x``; with the argument
facts of contiguous, 16-aligned operands the inner strides are static 1.

``matmul(z, x, y)`` is what a user calls: it picks the tiles for the shape
(``gemm_tiles``) and launches ``grouped_gemm``.  Shipped defaults (the best
of ``bench/gemm.py`` on an H100 by its method, docs/benchmarks.md §4):
128x256x64 tiles in the grouped order (``G = 8``) with, on sm_90, 8 worker
warps (384 threads, 168 registers: without it a 128x256 tile spills 1808
bytes a thread) and a load pipeline 6 deep (``latency = 6``).  Tiles of
128x128 or smaller take no hints (8 warps there is neutral or slower).
"""

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
    load_hints=big_tile_load_hints,
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


def gemm_tiles(m: int, n: int) -> tuple[int, int, int]:
    """``(BM, BN, BK)`` for an ``m x n`` output: 64x64x64 below 128 rows or columns; else
    128x256x64 unless its last wave of blocks leaves the SMs idler than 128x128x64's does by
    more than the 10% the big tile is faster per block.  Fitted to bench/gemm.py on an H100
    (docs/benchmarks.md §4): Qwen3-4B's QKV at 1024 tokens runs 0.94 of cuBLAS on 128x128
    tiles (384 blocks, 2.9 waves) against 0.81 on 128x256 (192 blocks, 1.45 waves)."""
    if m < 128 or n < 128:
        return 64, 64, 64

    def busy(bm: int, bn: int) -> float:
        """The fraction of the SMs' block slots the launch's waves fill."""
        blocks = -(-m // bm) * -(-n // bn)
        return blocks / (-(-blocks // SMS) * SMS)

    return (128, 256, 64) if busy(128, 256) >= 0.9 * busy(128, 128) else (128, 128, 64)


def matmul(z: st.Tensor, x: st.Tensor, y: st.Tensor) -> st.DeviceOp:
    """``z = x @ y`` with the shipped defaults: ``grouped_gemm`` on ``gemm_tiles``'s tiles, the
    K tile narrowed to divide ``K`` (the kernel reads whole K tiles: no padding is summed)."""
    bm, bn, bk = gemm_tiles(z.shape[0], z.shape[1])
    k = x.shape[1]
    while k % bk and bk > 16:
        bk //= 2
    if k % bk:
        raise ValueError(f"matmul: K = {k} is not a multiple of 16; pad x's columns and y's rows with zeros "
                         "to a multiple of 16")
    return grouped_gemm(z.partition((bm, bn)), x, y, BK=bk, G=GROUP)
