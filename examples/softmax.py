"""Row softmax: each tile block writes one ``BM x BN`` tile of the output.

The output may be partitioned narrower than a row: every block walks all
the column tiles of its rows once (an online max and sum: when the running
max grows, the sum so far is rescaled), then normalizes its own tile.
Columns past the end of a row load as ``-inf`` (the partition's padding),
so they add nothing to the sum; stores beyond the tensor are dropped.
"""

import safetile as st
from safetile import f32


@st.kernel(specialize=[dict(E=st.f32, BM=4, BN=1024), dict(E=st.f16, BM=1, BN=4096)])
def softmax(z: st.Mut["E", ("BM", "BN")], x: st.Ref["E", (-1, -1)], *, E: st.DType, BM: int, BN: int):
    bm, bn, _ = st.tile_block_id()
    px = x.partition((BM, BN), padding="neg_inf")
    row_max = st.full((BM, 1), float("-inf"), f32)
    row_sum = st.zeros((BM, 1), f32)
    for j in range(st.num_tiles(px, 1)):
        tile = px.load((bm, j)).astype(f32)
        new_max = st.maximum(row_max, st.max(tile, 1, keepdims=True))
        row_sum = row_sum * st.exp(row_max - new_max) + st.sum(st.exp(tile - new_max), 1, keepdims=True)
        row_max = new_max
    own = px.load((bm, bn)).astype(f32)
    z.store((st.exp(own - row_max) / row_sum).astype(E))
