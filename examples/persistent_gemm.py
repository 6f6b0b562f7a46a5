"""Persistent GEMM over a mapped partition: a fixed grid, each block owning several tiles.

``z`` is ``st.MutMapped``: the host partitions it into ``BM x BN`` tiles but
launches any grid (e.g. one block per SM).  ``z.tile_indices()`` hands this
block the tiles ``b, b + nblocks, ...``; a store takes only such an index,
which is what lets the compiler prove each tile has one writer.

``examples/gemm.py``'s ``matmul()`` runs ``grouped_persistent_gemm``, with
the big-tile hints, for 128x256 tiles (``gemm_plan``; docs/benchmarks.md §4).
"""

import safetile as st
from safetile import f16


@st.kernel(
    specialize=[
        dict(E=f16, BM=128, BN=128, BK=64, x=st.TensorSpec(f16, (8192, 8192)), y=st.TensorSpec(f16, (8192, 8192))),
    ]
)
def persistent_gemm(
    z: st.MutMapped["E", ("BM", "BN")],
    x: st.Ref["E", (-1, -1)],
    y: st.Ref["E", (-1, -1)],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    BK: int,
):
    px, py = x.partition((BM, BK)), y.partition((BK, BN))
    for idx in z.tile_indices():
        bm, bn = idx
        acc = st.zeros((BM, BN), st.f32)
        for k in range(st.num_tiles(px, 1)):
            acc = st.mma(px.load((bm, k)), py.load((k, bn)), acc)
        z.store(acc.astype(E), idx)


@st.kernel(
    specialize=[
        dict(E=f16, BM=128, BN=128, BK=64, G=8, x=st.TensorSpec(f16, (8192, 8192)), y=st.TensorSpec(f16, (8192, 8192))),
    ]
)
def grouped_persistent_gemm(
    z: st.MutMapped["E", ("BM", "BN")],
    x: st.Ref["E", (-1, -1)],
    y: st.Ref["E", (-1, -1)],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    BK: int,
    G: int,
):
    """The persistent GEMM with the tiles numbered in the grouped order
    (``st.grouped(G)``): the blocks working at one time share rows of ``x``
    and columns of ``y`` in L2."""
    px, py = x.partition((BM, BK)), y.partition((BK, BN))
    for idx in z.tile_indices(order=st.grouped(G)):
        bm, bn = idx
        acc = st.zeros((BM, BN), st.f32)
        for k in range(st.num_tiles(px, 1)):
            acc = st.mma(px.load((bm, k)), py.load((k, bn)), acc)
        z.store(acc.astype(E), idx)
