"""Runtime end to end: every example kernel, launched through the runtime on
the CPU interpreter, against numpy.

Inputs are fresh random values (never zeros), outputs are filled with NaN
before the launch (an element no tile block wrote is caught), shapes include
ones the tiles do not divide, and shuffled tile-block order must give
results identical to program order.  The drivers are ``examples/run_all.py``'s
``CASES`` (what ``make run`` prints).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import safetile as st
from safetile.backend.interpreter import RaceError
from safetile.frontend.dsl import f32

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import run_all  # noqa: E402

SHAPES: dict[str, list[dict[str, int]]] = {
    "add": [dict(n=1), dict(n=128), dict(n=1000), dict(n=4099)],
    "add_2d": [dict(m=64, n=64), dict(m=100, n=70), dict(m=1, n=130)],
    "saxpy": [dict(n=256), dict(n=1000)],
    "softmax": [dict(m=4, n=128), dict(m=10, n=100), dict(m=3, n=7), dict(m=5, n=300, bn=128)],
    "softmax_row": [dict(m=4, n=128, rows=4), dict(m=10, n=100), dict(m=3, n=7, rows=1), dict(m=3, n=300)],
    "rms_norm": [dict(m=2, n=256), dict(m=5, n=100), dict(m=3, n=1)],
    "rms_norm_row": [dict(m=2, n=256, rows=1), dict(m=5, n=100), dict(m=3, n=1)],
    "layer_norm": [dict(m=2, n=256), dict(m=5, n=100), dict(m=1, n=3)],
    "layer_norm_row": [dict(m=2, n=256, rows=1), dict(m=5, n=100), dict(m=1, n=3, rows=4)],
    "gemm": [dict(m=64, n=64, k=32), dict(m=70, n=50, k=48), dict(m=1, n=33, k=16)],
    "persistent_gemm": [dict(m=64, n=64, k=32), dict(m=70, n=50, k=48), dict(m=100, n=1, k=16)],
    "fp8_gemm": [dict(m=64, n=64, k=32), dict(m=70, n=50, k=48), dict(m=3, n=100, k=70)],
    "flash_attention": [
        dict(bh=1, s=32, sk=32),
        dict(bh=3, s=40, sk=64),
        dict(bh=2, s=5, sk=96),
        dict(bh=2, s=5, sk=70),
        dict(bh=4, s=70, sk=70, causal=1),
        dict(bh=4, s=40, sk=50, group=2),
        dict(bh=4, s=64, sk=64, causal=1, group=4),
        dict(bh=2, s=70, sk=70, causal=1, bn=16),
        dict(bh=2, s=70, sk=70, causal=1, bn=64),
        dict(bh=3, s=40, sk=64, order=0),
        dict(bh=3, s=70, sk=70, causal=1, order=2),
    ],
    "permute_heads": [dict(b=1, s=32, h=2, d=16), dict(b=2, s=40, h=4, d=16), dict(b=3, s=7, h=1, d=32)],
}

FULL_ONLY = {("flash_attention", 3), ("flash_attention", 8)}
"""Shapes ``make test-full`` adds (``make test`` keeps their neighbours: 5 queries over 96 keys,
and the causal mask at key tiles of 16)."""
PARAMS = [pytest.param(name, shape, i == 1, id=f"{name}-{'x'.join(map(str, shape.values()))}",
                       marks=pytest.mark.full if (name, i) in FULL_ONLY else ())
          for name, shapes in SHAPES.items() for i, shape in enumerate(shapes)]
"""Each case's shapes; the second of each is run in shuffled tile-block order too."""


def test_every_case_has_shapes() -> None:
    assert set(SHAPES) == set(run_all.CASES)
    kernels = {p.stem for p in run_all.EXAMPLES.glob("*.py")} - {"run_all"}
    assert kernels <= {name.removesuffix("_2d") for name in run_all.CASES}


@pytest.mark.parametrize(("name", "shape", "shuffled_too"), PARAMS)
def test_example_against_numpy(name: str, shape: dict[str, int], shuffled_too: bool) -> None:
    """Against numpy; where ``shuffled_too``, the tile blocks run in shuffled order on the same
    inputs must give the identical result."""
    seed = int(np.random.default_rng().integers(1 << 30))
    got, ref, tol = run_all.CASES[name](np.random.default_rng(seed), **shape)
    assert not np.isnan(got).any(), "an output element was not written"
    assert run_all.max_error(got, ref) <= tol
    if shuffled_too:
        shuffled, _, _ = run_all.CASES[name](np.random.default_rng(seed), shuffle=True, seed=7, **shape)
        np.testing.assert_array_equal(got, shuffled)


@st.kernel
def racy_permute_heads(
    z: st.Mut["E", (1, "BS", "D")], x: st.Ref["E", (-1, -1, "H", "D")], *, E: st.DType, BS: int, D: int, H: int
):
    bh, bs, _ = st.tile_block_id()
    b, h = bh // H, bh % H
    tile = x.partition((1, BS, 1, D)).load((b, bs, h, 0))
    with st.unsafe():
        # Bug: the batch index instead of the (batch, head) index, so the
        # blocks of every head of one batch write the same tile.
        z.partition_mut((1, BS, D)).store((b, bs, 0), tile.reshape((1, BS, D)))


def test_racy_permute_heads_is_caught_by_the_race_detector() -> None:
    rng = np.random.default_rng()
    b, s, h, d = 2, 64, 4, 16
    x = st.from_numpy(run_all.fresh(rng, (b, s, h, d))).sync()
    z = st.full((b * h, s, d), np.nan, f32).sync().partition((1, 32, d))
    with pytest.raises(RaceError, match="tile block"):
        racy_permute_heads(z, x).sync()


@pytest.mark.parametrize("grid", [(1,), (3,), (5, 1, 1)])
def test_persistent_gemm_on_a_smaller_grid(grid: tuple[int, ...]) -> None:
    got, ref, tol = run_all.CASES["persistent_gemm"](np.random.default_rng(), m=100, n=70, k=32, grid=grid)
    assert run_all.max_error(got, ref) <= tol


def test_mapped_outputs_need_a_one_dimensional_grid() -> None:
    # tile_indices() walks tiles over the x blocks only; a (2, 2) grid would race.
    with pytest.raises(st.runtime.LaunchRefused, match=r"walks its tiles over grid x only: grid \(2, 2, 1\)"):
        run_all.CASES["persistent_gemm"](np.random.default_rng(), m=100, n=70, k=32, grid=(2, 2))


@pytest.mark.parametrize(("example", "width"), [("softmax", 300), ("softmax", 17000), ("rms_norm", 300),
                                                ("rms_norm", 17000), ("layer_norm", 300), ("layer_norm", 17000)])
def test_row_launchers_take_the_one_tile_kernel_when_a_row_fits_and_the_loop_when_not(example: str,
                                                                                       width: int) -> None:
    module = run_all.load_example(example)
    rng = np.random.default_rng()
    xs, ws, bs = run_all.fresh(rng, (3, width)) * 4, run_all.fresh(rng, (width,)), run_all.fresh(rng, (width,))
    z = st.full((3, width), np.nan, f32).sync()
    x, w, b = (st.from_numpy(a).sync() for a in (xs, ws, bs))
    launch = getattr(module, f"launch_{example}")
    args = {"softmax": (z, x), "rms_norm": (z, x, w, 1e-5), "layer_norm": (z, x, w, b, 1e-5)}[example]
    op = launch(*args, rows=2)
    fits = width <= module.MAX_ROW_TILE
    assert op.name.split("[")[0] == (f"{example}_row" if fits else example)
    got = op.sync()[0].numpy()  # z comes back as passed: a Tensor
    ref = {"softmax": lambda: run_all._softmax_ref(xs), "rms_norm": lambda: run_all._rms_norm_ref(xs, ws, 1e-5),
           "layer_norm": lambda: run_all._layer_norm_ref(xs, ws, bs, 1e-5)}[example]()
    assert run_all.max_error(got, ref) <= 1e-4


def test_a_row_kernel_refuses_a_row_wider_than_its_tile() -> None:
    softmax_row = run_all.load_example("softmax").softmax_row
    z = st.full((2, 300), np.nan, f32).sync().partition((1, 256))
    with pytest.raises(st.CompileError, match="holds a whole row in one tile"):
        softmax_row(z, st.from_numpy(np.ones((2, 300), np.float32)).sync())
