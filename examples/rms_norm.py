"""RMS normalization of rows: ``x / sqrt(mean(x**2) + eps) * w``, computed in f32."""

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
    bm, _, _ = st.tile_block_id()
    rows = x.partition((BM, BN), padding="zero").load((bm, 0)).astype(f32)
    n = x.shape[1].astype(f32)
    mean_square = st.sum(rows * rows, 1, keepdims=True) / n
    weight = w.partition((BN,), padding="zero").load((0,)).astype(f32).reshape((1, BN))
    z.store((rows * st.rsqrt(mean_square + eps) * weight).astype(E))
