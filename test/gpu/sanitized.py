"""A kernel run under compute-sanitizer (test_sanitizer_gpu.py).

Run with ``SAFETILE_SANITIZE=memcheck`` so the cubin is built with
``tileiras --sanitize=memcheck``; prints ``ok`` when the result is right.
Non-divisible sizes, so the edge tiles' masked accesses are exercised.
"""

from __future__ import annotations

import numpy as np

import safetile as st
from safetile import f32


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))


def main() -> None:
    n = 1000
    xs, ys = np.arange(n, dtype=np.float32), np.ones(n, np.float32)
    z, _, _ = add(st.zeros((n,)).sync().partition((128,)), st.from_numpy(xs).sync(), st.from_numpy(ys).sync()).sync()
    assert np.array_equal(z.unpartition().numpy(), xs + ys)
    print("ok")


if __name__ == "__main__":
    main()
