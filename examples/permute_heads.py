"""Permute heads: ``[B, S, H, D] -> [B*H, S, D]`` (the data race of the cuTile Rust paper).

In cuTile Python the output index is the programmer's to compute, and a
swapped index races.  Here the store target is the block's own partition
tile, so there is no index to get wrong: block ``(b*H + h, s)`` reads its
tile of ``x`` and writes its own tile of ``z``.
"""

import safetile as st


@st.kernel(specialize=[dict(E=st.f16, BS=64, D=64, H=16), dict(E=st.f32, BS=32, D=128, H=8)])
def permute_heads(
    z: st.Mut["E", (1, "BS", "D")],
    x: st.Ref["E", (-1, -1, "H", "D")],
    *,
    E: st.DType,
    BS: int,
    D: int,
    H: int,
):
    bh, bs, _ = st.tile_block_id()
    b, h = bh // H, bh % H
    tile = x.partition((1, BS, 1, D)).load((b, bs, h, 0))
    z.store(tile.reshape((1, BS, D)))
