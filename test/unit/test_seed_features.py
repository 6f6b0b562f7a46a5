"""Seed features the guide documents (issue 14, item 11)."""

from __future__ import annotations

import numpy as np

import safetile as st
from safetile import f32


@st.kernel
def bump(z: st.MutMapped[f32, (4,)], step: f32):
    for idx in z.tile_indices():
        z.store(z.load(idx) + step, idx)


def test_mapped_output_loads_its_own_tiles() -> None:
    # docs/language.md: "z.load(idx) and z.store(tile, idx) accept only those indices".
    start = np.arange(18, dtype=np.float32)
    z, _ = bump(st.from_numpy(start).sync().partition((4,)), 0.5, grid=(2,)).sync()
    np.testing.assert_array_equal(z.unpartition().numpy(), start + 0.5)
