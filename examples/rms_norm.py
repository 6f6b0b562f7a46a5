"""RMS normalization of rows: ``x / sqrt(mean(x**2) + eps) * w``, computed in f32.

Each tile block writes one ``BM x BN`` tile; the output may be partitioned
narrower than a row: every block sums the squares of all the column tiles
of its rows, then scales its own tile.
"""

import safetile as st
from safetile import f32


@st.kernel(specialize=[dict(E=st.f16, BM=2, BN=1024), dict(E=st.f32, BM=1, BN=256)])
def rms_norm(
    z: st.Mut["E", ("BM", "BN")],
    x: st.Ref["E", (-1, -1)],
    w: st.Ref["E", (-1,)],
    eps: f32,
    *,
    E: st.DType,
    BM: int,
    BN: int,
):
    bm, bn, _ = st.tile_block_id()
    px = x.partition((BM, BN), padding="zero")
    sum_square = st.zeros((BM, 1), f32)
    for j in range(st.num_tiles(px, 1)):
        tile = px.load((bm, j)).astype(f32)
        sum_square = sum_square + st.sum(tile * tile, 1, keepdims=True)
    mean_square = sum_square / x.shape[1].astype(f32)
    own = px.load((bm, bn)).astype(f32)
    weight = w.partition((BN,), padding="zero").load((bn,)).astype(f32).reshape((1, BN))
    z.store((own * st.rsqrt(mean_square + eps) * weight).astype(E))
