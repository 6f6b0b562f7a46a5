"""Element-wise add: every tile block adds the tile it owns (cuTile Rust's first kernel).

``z`` is partitioned by the host; ``S`` (the partition shape) is inferred
from it at launch.  The rank is part of the type, so 1-d and 2-d are two
kernels, as in cuTile Rust.
"""

import safetile as st
from safetile import f32


@st.kernel(specialize=[dict(S=(1024,)), dict(S=(128,))])
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


@st.kernel(specialize=[dict(S=(64, 64))])
def add_2d(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1, -1)], y: st.Ref[f32, (-1, -1)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))
