"""Every example kernel on the GPU against numpy, on fresh random inputs at
several sizes (the drivers of examples/run_all.py, shared with ``make run``).

GPU arithmetic differs from numpy's in the last bits (fused multiply-adds,
reduction order, ``exp``), so tolerances are the drivers' or a few f32 ulps
relative to the result's scale, whichever is larger.
"""

from __future__ import annotations

import numpy as np
import pytest

from run_all import CASES, max_error

pytestmark = pytest.mark.gpu

SIZES = {
    "add": [dict(n=1000, tile=128), dict(n=1 << 16, tile=1024), dict(n=12345, tile=1024)],
    "add_2d": [dict(m=100, n=70), dict(m=300, n=257)],
    "saxpy": [dict(n=1000), dict(n=1 << 15)],
    "softmax": [dict(m=10, n=100), dict(m=64, n=1000)],
    "softmax_row": [dict(m=10, n=100), dict(m=64, n=1000)],
    "rms_norm": [dict(m=5, n=100), dict(m=33, n=512)],
    "rms_norm_row": [dict(m=5, n=100), dict(m=33, n=512)],
    "layer_norm": [dict(m=5, n=100), dict(m=33, n=512)],
    "layer_norm_row": [dict(m=5, n=100), dict(m=33, n=512)],
    "gemm": [dict(m=70, n=50, k=48), dict(m=256, n=192, k=128)],
    "persistent_gemm": [dict(m=70, n=50, k=48), dict(m=256, n=192, k=128)],
    "fp8_gemm": [dict(m=70, n=50, k=48), dict(m=256, n=192, k=128)],
    "flash_attention": [dict(bh=3, s=40, sk=64, d=32), dict(bh=4, s=128, sk=128, d=32),
                        dict(bh=4, s=128, sk=128, d=32, causal=1), dict(bh=8, s=100, sk=100, d=32, group=4)],
    "permute_heads": [dict(b=2, s=40, h=4, d=16), dict(b=3, s=64, h=8, d=16)],
}

PARAMS = [pytest.param(name, sizes, id=f"{name}-" + "-".join(f"{k}{v}" for k, v in sizes.items()))
          for name, cases in SIZES.items() for sizes in cases]


def test_every_example_has_sizes() -> None:
    assert set(SIZES) == set(CASES)


@pytest.mark.parametrize("name,sizes", PARAMS)
def test_example_matches_numpy(name: str, sizes: dict[str, int]) -> None:
    got, ref, tol = CASES[name](np.random.default_rng(), **sizes)
    scale = float(np.max(np.abs(ref), initial=1.0))
    bound = max(tol, 4 * np.finfo(np.float32).eps * scale)
    if got.dtype == np.float16:
        bound = max(bound, 2 * np.finfo(np.float16).eps * scale)
    err = max_error(got, ref)
    print(f"{name} {sizes}: max error {err:.3g} (bound {bound:.3g})")
    assert err <= bound
