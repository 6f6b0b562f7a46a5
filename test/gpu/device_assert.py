"""A launch whose in-kernel bounds check fails on the device (test_device_assert_gpu.py).

The tile index is a scalar argument, so the check stays in the kernel as an
assert; index 5 of a 2-tile tensor fails it.  The device prints the failing
assert with the kernel's file:line:col, and the launch's error says so.
Run in a process of its own: a device-side assert spoils the CUDA context.
"""

from __future__ import annotations

import numpy as np

import safetile as st
from safetile import f32, i32


@st.kernel
def pick(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], i: i32):
    z.store(x.partition((16,)).load((i,)))


def main() -> None:
    x = st.from_numpy(np.ones(32, np.float32)).sync()
    z = st.zeros((16,), f32).sync().partition((16,))
    z, x, _ = pick(z, x, 1).sync()  # in range: runs
    print("in range ok", flush=True)
    pick(z, x, 5).sync()  # out of range: the device assert fires


if __name__ == "__main__":
    main()
