"""Split-K GEMM (examples/gemm.py ``split_k``) and ``matmul()``'s plan, on the CPU interpreter.

``split_k_gemm`` walks the K tiles grid-strided, so the compiler proves every index of it (no
check left in the kernel); ``split_k_sum`` adds the ``S`` partials.  ``gemm_plan`` splits a long K where
the output is few tiles.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

import safetile as st
from safetile import f32
from safetile.dialects.cuda_tile.syntax import print_tile_ir

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import run_all  # noqa: E402

GEMM = run_all.load_example("gemm")


def operands(m: int, n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(m * n + k)
    return run_all.fresh(rng, (m, k)), run_all.fresh(rng, (k, n))


@pytest.mark.parametrize(("m", "n", "k", "splits", "tiles"), [
    (20, 70, 96, 1, (16, 32, 16)), (20, 70, 96, 3, (16, 32, 16)), (20, 70, 96, 6, (16, 32, 16)),
    (33, 64, 128, 2, (32, 32, 32)), (33, 64, 128, 4, (32, 32, 32)),
])
def test_split_k_equals_numpy_for_any_number_of_splits(m: int, n: int, k: int, splits: int,
                                                       tiles: tuple[int, int, int]) -> None:
    """1, 3 and 6 splits of 6 K tiles; 2 and 4 of 4."""
    xs, ys = operands(m, n, k)
    z = st.full((m, n), np.nan, f32).sync()
    partials = st.full((splits, m, n), np.nan, f32).sync()
    bm, bn, bk = tiles
    out = GEMM.split_k(z, st.from_numpy(xs).sync(), st.from_numpy(ys).sync(), partials, BM=bm, BN=bn, BK=bk).sync()
    assert run_all.max_error(out[0].unpartition().numpy(), xs.astype(np.float64) @ ys) <= 1e-3
    assert out[3].shape == (splits, m, n)


def test_splits_that_do_not_divide_the_K_tiles_are_summed_whole() -> None:
    """5 K tiles over 2 splits (3 + 2): the grid-strided walk needs no divisibility."""
    xs, ys = operands(16, 32, 80)
    z, partials = st.zeros((16, 32)).sync(), st.full((2, 16, 32), np.nan, f32).sync()
    out = GEMM.split_k(z, st.from_numpy(xs).sync(), st.from_numpy(ys).sync(), partials, BM=16, BN=32, BK=16).sync()
    assert run_all.max_error(out[0].unpartition().numpy(), xs.astype(np.float64) @ ys) <= 1e-3
    tiles_0 = [c for c in range(80) if (c // 16) % 2 == 0]  # split 0: K tiles 0, 2, 4
    assert run_all.max_error(out[3].numpy()[0], xs[:, tiles_0].astype(np.float64) @ ys[tiles_0]) <= 1e-3


def test_split_k_refuses_a_K_that_is_not_whole_tiles_and_says_what_to_pass() -> None:
    z, x, y, p = st.zeros((16, 16)).sync(), st.ones((16, 40)).sync(), st.ones((40, 16)).sync(), st.zeros((2, 16, 16)).sync()
    with pytest.raises(ValueError, match=r"K = 40 is not a multiple of BK = 16; pass a BK that divides K"):
        GEMM.split_k(z, x, y, p, BM=16, BN=16, BK=16)


@pytest.mark.parametrize(("shape", "match"), [
    ((5, 16, 16), r"S = 5 splits of 4 K tiles of 16: every split needs a K tile; take 1 <= S <= 4"),
    ((2, 16, 32), r"partials are \[2, 16, 32\]; they must be \[S, M, N\] = \[S, 16, 16\]"),
])
def test_split_k_refuses_partials_it_cannot_fill(shape: tuple[int, ...], match: str) -> None:
    z, x, y = st.zeros((16, 16)).sync(), st.ones((16, 64)).sync(), st.ones((64, 16)).sync()
    with pytest.raises(ValueError, match=match):
        GEMM.split_k(z, x, y, st.zeros(shape).sync(), BM=16, BN=16, BK=16)


def test_the_split_k_kernel_keeps_no_check_and_its_launch_refuses_a_short_y() -> None:
    """The grid-strided K index is below x's K tiles (static) and y's (a launch check)."""
    text = print_tile_ir(GEMM.split_k_gemm.compile(E=f32, BM=16, BN=16, BK=16))
    assert not re.findall(r"\bassert ", text)
    z, x, y, p = st.zeros((16, 16)).sync(), st.ones((16, 64)).sync(), st.ones((48, 16)).sync(), st.zeros((2, 16, 16)).sync()
    with pytest.raises(st.LaunchRefused, match="split_k_gemm"):
        GEMM.split_k_gemm(p.partition((1, 16, 16)), x, y, BK=16).sync()


@pytest.mark.parametrize(("m", "n", "k", "plan"), [
    (16, 6144, 2560, (64, 64, 64, 1)),     # QKV, 16 tokens: 40 K tiles, too short to split
    (128, 6144, 2560, (128, 128, 64, 1)),  # QKV, 128 tokens: likewise
    (1024, 6144, 2560, (128, 128, 64, 1)),  # QKV, 1024 tokens: 384 blocks
    (16, 2560, 9728, (64, 64, 64, 2)),     # down, 16 tokens: 40 blocks of 64x64 -> 80
    (128, 2560, 9728, (64, 128, 64, 2)),   # down, 128 tokens: 40 blocks of 64x128 -> 80 (1.02 of cuBLAS)
    (1024, 2560, 9728, (128, 256, 64, 1)),  # down, 1024 tokens: 320 blocks of 64x128, no split
    (8192, 8192, 8192, (128, 256, 64, 1)),
    (64, 64, 4096, (64, 64, 64, 8)),       # one tile: at most 8 splits
    (16, 64, 48, (64, 64, 16, 1)),         # 3 K tiles
])
def test_gemm_plan_splits_a_long_K_of_few_output_tiles(m: int, n: int, k: int,
                                                      plan: tuple[int, int, int, int]) -> None:
    """The H100 run's best for Qwen3-4B's QKV (N=6144, K=2560) and down (N=2560, K=9728) projections."""
    assert GEMM.gemm_plan(m, n, k) == plan


def test_matmul_splits_K_for_a_small_grid_and_matches_numpy() -> None:
    """70 x 50 x 4096: two 64x64 tiles, 64 K tiles -> 8 splits of 8."""
    assert GEMM.gemm_plan(70, 50, 4096) == (64, 64, 64, 8)
    xs, ys = operands(70, 50, 4096)
    z = st.full((70, 50), np.nan, f32).sync()
    out = GEMM.matmul(z, st.from_numpy(xs).sync(), st.from_numpy(ys).sync()).sync()
    assert len(out) == 3
    assert run_all.max_error(out[0].unpartition().numpy(), xs.astype(np.float64) @ ys) <= 1e-1


@st.kernel
def strided_by_another_axis(z: st.Mut[f32, (1, 16)], x: st.Ref[f32, (-1, 16)], y: st.Ref[f32, (-1, 16)]):
    b, _, _ = st.tile_block_id()
    px, py = x.partition((1, 16)), y.partition((1, 16))
    acc = st.zeros((1, 16), f32)
    for k in range(b, st.num_tiles(px, 0), st.num_tile_blocks()[1]):
        acc = acc + py.load((k, 0))
    z.store(acc)


def test_a_walk_strided_by_another_axis_of_the_grid_keeps_its_check() -> None:
    """Only ``range(bid[d], ub, num_tile_blocks()[d])`` reaches ``ub - 1`` for sure: a step over
    another axis may skip it, so the index into y stays checked in the kernel."""
    assert len(re.findall(r"\bassert ", print_tile_ir(strided_by_another_axis.compile()))) == 1
