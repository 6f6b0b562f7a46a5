"""Tiled matrix multiply: each tile block accumulates one ``BM x BN`` output tile.

The K loop's bound comes from the partition of ``x``; with the argument
facts of contiguous, 16-aligned operands the inner strides are static 1.
"""

import safetile as st
from safetile import f16


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
        dict(E=f16, BM=128, BN=128, BK=64, G=8, x=st.TensorSpec(f16, (8192, 8192)), y=st.TensorSpec(f16, (8192, 8192))),
    ]
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
