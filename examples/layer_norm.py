"""Layer normalization of rows: ``(x - mean) / sqrt(var + eps) * w + b``.

Each tile block writes one ``BM x BN`` tile; the output may be partitioned
narrower than a row: every block walks all the column tiles of its rows
twice (the mean, then the variance of the centered values, with the padded
columns of the last tile masked out), then normalizes its own tile.
"""

import safetile as st
from safetile import f32


@st.kernel(specialize=[dict(E=st.f16, BM=2, BN=1024), dict(E=st.f32, BM=1, BN=512)])
def layer_norm(
    z: st.Mut["E", ("BM", "BN")],
    x: st.Ref["E", (-1, -1)],
    w: st.Ref["E", (-1,)],
    b: st.Ref["E", (-1,)],
    eps: f32,
    *,
    E: st.DType,
    BM: int,
    BN: int,
):
    bm, bn, _ = st.tile_block_id()
    n = x.shape[1]
    px = x.partition((BM, BN), padding="zero")
    total = st.zeros((BM, 1), f32)
    for j in range(st.num_tiles(px, 1)):
        total = total + st.sum(px.load((bm, j)).astype(f32), 1, keepdims=True)
    mean = total / n.astype(f32)
    columns = st.iota((BN,)).reshape((1, BN))
    square = st.zeros((BM, 1), f32)
    for j in range(st.num_tiles(px, 1)):
        centered = st.where(columns + j * BN < n, px.load((bm, j)).astype(f32) - mean, 0.0)
        square = square + st.sum(centered * centered, 1, keepdims=True)
    inv_std = st.rsqrt(square / n.astype(f32) + eps)
    own = px.load((bm, bn)).astype(f32)
    weight = w.partition((BN,), padding="zero").load((bn,)).astype(f32).reshape((1, BN))
    bias = b.partition((BN,), padding="zero").load((bn,)).astype(f32).reshape((1, BN))
    z.store(((own - mean) * inv_std * weight + bias).astype(E))
