"""Flash attention (forward): online softmax over key/value tiles, one query tile per block.

Tensors are ``[batch*heads, seq, D]``; block ``(bh, bm)`` computes rows
``bm*BM ...`` of head ``bh``.  Scores use ``exp2`` with ``log2(e)`` folded
into the scale.
"""

import math

import safetile as st
from safetile import f32


@st.kernel(specialize=[dict(E=st.f16, BM=128, BN=64, D=64), dict(E=st.bf16, BM=64, BN=64, D=128)])
def flash_attention(
    o: st.Mut["E", (1, "BM", "D")],
    q: st.Ref["E", (-1, -1, "D")],
    k: st.Ref["E", (-1, -1, "D")],
    v: st.Ref["E", (-1, -1, "D")],
    scale: f32,
    *,
    E: st.DType,
    BM: int,
    BN: int,
    D: int,
):
    bh, bm, _ = st.tile_block_id()
    pk, pv = k.partition((1, BN, D)), v.partition((1, BN, D))
    qt = q.partition((1, BM, D)).load((bh, bm, 0)).reshape((BM, D))
    qk_scale = scale * (1.0 / math.log(2.0))
    m = st.full((BM, 1), -math.inf, f32)
    l = st.zeros((BM, 1), f32)
    acc = st.zeros((BM, D), f32)
    for j in range(st.num_tiles(pk, 1)):
        kt = pk.load((bh, j, 0)).reshape((BN, D))
        s = st.mma(qt, kt.T, st.zeros((BM, BN), f32)) * qk_scale
        m_new = st.maximum(m, st.max(s, 1, keepdims=True))
        p = st.exp2(s - m_new)
        alpha = st.exp2(m - m_new)
        l = l * alpha + st.sum(p, 1, keepdims=True)
        vt = pv.load((bh, j, 0)).reshape((BN, D))
        acc = st.mma(p.astype(E), vt, acc * alpha)
        m = m_new
    o.store((acc / l).astype(E).reshape((1, BM, D)))
