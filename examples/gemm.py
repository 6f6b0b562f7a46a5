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
