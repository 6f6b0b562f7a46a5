"""Row softmax: each tile block normalizes ``BM`` rows of up to ``BN`` columns.

Columns past the end of a row load as ``-inf`` (the partition's padding),
so they add nothing to the sum; stores beyond the tensor are dropped.
"""

import safetile as st
from safetile import f32


@st.kernel(specialize=[dict(E=st.f32, BM=4, BN=1024), dict(E=st.f16, BM=1, BN=4096)])
def softmax(z: st.Mut["E", ("BM", "BN")], x: st.Ref["E", (-1, -1)], *, E: st.DType, BM: int, BN: int):
    bm, _, _ = st.tile_block_id()
    rows = x.partition((BM, BN), padding="neg_inf").load((bm, 0)).astype(f32)
    stable = rows - st.max(rows, 1, keepdims=True)
    e = st.exp(stable)
    z.store((e / st.sum(e, 1, keepdims=True)).astype(E))
