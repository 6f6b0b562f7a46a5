"""Layer normalization of rows: ``(x - mean) / sqrt(var + eps) * w + b``.

The padded columns of the last tile are masked out of the variance.
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
    bm, _, _ = st.tile_block_id()
    n = x.shape[1]
    rows = x.partition((BM, BN), padding="zero").load((bm, 0)).astype(f32)
    mean = st.sum(rows, 1, keepdims=True) / n.astype(f32)
    inside = (st.iota((BN,)) < n).reshape((1, BN))
    centered = st.where(inside, rows - mean, 0.0)
    var = st.sum(centered * centered, 1, keepdims=True) / n.astype(f32)
    weight = w.partition((BN,), padding="zero").load((0,)).astype(f32).reshape((1, BN))
    bias = b.partition((BN,), padding="zero").load((0,)).astype(f32).reshape((1, BN))
    z.store((centered * st.rsqrt(var + eps) * weight + bias).astype(E))
