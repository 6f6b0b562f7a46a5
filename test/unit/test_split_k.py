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
    (16, 6144, 2560, (16, 64, 128, 1, False)),   # QKV, 16 tokens: 96 blocks of 16 rows (1.02 of cuBLAS; 64x64 0.75-0.77)
    (1, 6144, 2560, (16, 64, 128, 1, False)),    # one token: the same 16-row tile
    (128, 6144, 2560, (64, 128, 64, 1, False)),  # QKV, 128 tokens: 96 blocks of 64x128 (0.90-0.95; 48 of 128x128 0.70-0.72)
    (1024, 6144, 2560, (128, 128, 64, 1, False)),  # QKV, 1024 tokens: 384 blocks (stream-K 128x256: 0.67 of it)
    (2048, 6144, 2560, (128, 256, 64, 1, True)),  # QKV, 2048 tokens: persistent (1.01; one block a tile 0.97)
    (8192, 6144, 2560, (128, 256, 64, 1, True)),  # QKV, 8192 tokens: persistent (1.02; 0.97)
    (16, 2560, 9728, (16, 64, 128, 2, False)),   # down, 16 tokens: 40 16x64 tiles -> 80 blocks (1.02; 64x64 0.83-0.84)
    (32, 2560, 9728, (32, 64, 128, 2, False)),   # down, 32 tokens: 32-row tiles, likewise split
    (128, 2560, 9728, (64, 128, 64, 2, False)),  # down, 128 tokens: 40 blocks of 64x128 -> 80 (1.02)
    (1024, 2560, 9728, (128, 256, 64, 1, True)),  # down, 1024 tokens: 80 tiles, 80 persistent blocks (0.74; split
                                                  # columns of 128x128 0.73, stream-K 0.70)
    (2048, 2560, 9728, (128, 256, 64, 4, False, 2)),  # down, 2048 tokens: split columns, 128 128x256 tiles whole and
                                                      # 32 in 4 splits (0.85; 320 blocks of 128x128 0.80)
    (4096, 2560, 9728, (128, 128, 64, 1, False)),  # down, 4096 tokens: 640 blocks of 128x128 (unmeasured)
    (8192, 2560, 9728, (128, 256, 64, 1, True)),  # down, 8192 tokens: 640 tiles, 0.97 of 5 waves: persistent
    (4096, 4096, 4096, (128, 256, 64, 1, True)),  # persistent (1.00 burst; one block a tile 0.97)
    (8192, 8192, 8192, (128, 256, 64, 1, True)),
    (64, 64, 4096, (64, 64, 64, 8, False)),      # one tile: at most 8 splits
    (16, 64, 48, (16, 64, 16, 1, False)),        # 3 K tiles of 16
])
def test_gemm_plan_is_the_measured_best_for_each_shape(m: int, n: int, k: int,
                                                       plan: tuple[int, int, int, int, bool]) -> None:
    """The H100 runs' best (docs/benchmarks.md §4, burst vs cuBLAS) for the squares and Qwen3-4B's QKV
    (N=6144, K=2560) and down (N=2560, K=9728) projections (down at 4096 tokens: ``gemm_tiles``' rule,
    unmeasured)."""
    assert GEMM.gemm_plan(m, n, k) == GEMM.Plan(*plan)


@pytest.mark.full  # 5 s in the interpreter; the plan alone is pinned above
def test_matmul_runs_the_persistent_kernel_for_128x256_tiles() -> None:
    """1536 x 1536 x 32: 144 128x128 tiles (over a wave), so 72 of 128x256 on 72 persistent blocks."""
    assert GEMM.gemm_plan(1536, 1536, 32) == GEMM.Plan(128, 256, 32, 1, True)
    xs, ys = operands(1536, 1536, 32)
    z = st.full((1536, 1536), np.nan, f32).sync()
    out = GEMM.matmul(z, st.from_numpy(xs).sync(), st.from_numpy(ys).sync()).sync()
    assert run_all.max_error(out[0].unpartition().numpy(), xs.astype(np.float64) @ ys) <= 1e-3


def test_matmul_launches_the_persistent_kernel_where_its_plan_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cheap twin of the test above: a plan of 16x32 tiles, persistent, on 40 x 70 x 48 (3 x 3
    tiles on 9 blocks); the result is right and the launch was the persistent kernel's."""
    monkeypatch.setattr(GEMM, "gemm_plan", lambda m, n, k: GEMM.Plan(16, 32, 16, 1, True))
    xs, ys = operands(40, 70, 48)
    z = st.full((40, 70), np.nan, f32).sync()
    plans = len(GEMM.persistent_kernel().launch_cache.plans)
    out = GEMM.matmul(z, st.from_numpy(xs).sync(), st.from_numpy(ys).sync()).sync()
    assert run_all.max_error(out[0].unpartition().numpy(), xs.astype(np.float64) @ ys) <= 1e-3
    assert len(GEMM.persistent_kernel().launch_cache.plans) == plans + 1, "not the persistent kernel's launch"


def test_matmul_on_few_rows_takes_16_row_tiles_and_matches_numpy() -> None:
    """3 x 100 x 256: one 16-row tile a 64-column strip, K tiles of 128, no split (K < 4096)."""
    assert GEMM.gemm_plan(3, 100, 256) == GEMM.Plan(16, 64, 128, 1, False)
    xs, ys = operands(3, 100, 256)
    z = st.full((3, 100), np.nan, f32).sync()
    out = GEMM.matmul(z, st.from_numpy(xs).sync(), st.from_numpy(ys).sync()).sync()
    assert run_all.max_error(out[0].unpartition().numpy(), xs.astype(np.float64) @ ys) <= 1e-3


def test_matmul_splits_K_for_a_small_grid_and_matches_numpy() -> None:
    """70 x 50 x 4096: two 64x64 tiles, 64 K tiles -> 8 splits of 8."""
    assert GEMM.gemm_plan(70, 50, 4096) == GEMM.Plan(64, 64, 64, 8, False)
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


@pytest.mark.parametrize(("m", "n", "k", "sms"), [
    (40, 70, 96, 5),   # 9 tiles x 6 K tiles = 54 units: 5 blocks of 11, runs crossing up to 3 tiles
    (40, 70, 96, 7),   # 7 blocks of 8 (the last 6)
    (33, 64, 128, 3),  # 3 x 2 tiles x 8 K tiles: 3 blocks of 16
    (48, 96, 160, 9),  # 9 tiles, 9 blocks of one whole tile each
    (16, 32, 16, 4),   # one unit: one block
])
def test_stream_k_equals_numpy_and_reads_only_the_pieces_it_wrote(m: int, n: int, k: int, sms: int) -> None:
    """16x32x16 tiles; partials poisoned with NaN: a slot the sum read without its block writing it
    would show."""
    xs, ys = operands(m, n, k)
    blocks, _, pieces = GEMM.stream_k_shape(m, n, k, 16, 32, 16, sms)
    z = st.full((m, n), np.nan, f32).sync()
    partials = st.full((pieces * blocks * 16, 32), np.nan, f32).sync()
    out = GEMM.stream_k(z, st.from_numpy(xs).sync(), st.from_numpy(ys).sync(), partials, BM=16, BN=32, BK=16,
                        sms=sms).sync()
    assert run_all.max_error(out[0].unpartition().numpy(), xs.astype(np.float64) @ ys) <= 1e-3


@pytest.mark.parametrize(("m", "n", "k", "tiles", "shape"), [
    (1024, 2560, 9728, (128, 256, 64), (131, 93, 2)),   # down, 1024 tokens: 80 tiles x 152 K tiles on 131 blocks
    (2048, 2560, 9728, (128, 256, 64), (132, 185, 3)),  # down, 2048 tokens: 160 tiles
    (1024, 6144, 2560, (128, 256, 64), (131, 59, 3)),   # QKV, 1024 tokens: 192 tiles x 40
    (40, 70, 96, (16, 32, 16), (54, 1, 1)),           # 54 units, fewer than the SMs: one a block
])
def test_stream_k_shape_gives_every_block_the_same_run(m: int, n: int, k: int, tiles: tuple[int, int, int],
                                                       shape: tuple[int, int, int]) -> None:
    """``(blocks, units, pieces)``; no block idle: the last run starts before the last unit."""
    bm, bn, bk = tiles
    got = GEMM.stream_k_shape(m, n, k, bm, bn, bk, 132)
    assert got == shape
    total = -(-m // bm) * -(-n // bn) * (k // bk)
    assert (got.blocks - 1) * got.units < total <= got.blocks * got.units


def test_the_stream_k_kernel_keeps_no_check_and_its_launch_refuses_a_short_y() -> None:
    """Every index is proved: the tile's row and column as one-trip loop indices, the K walk clamped
    to x's K tiles (y's: a launch check)."""
    assert not re.findall(r"\bassert ", print_tile_ir(GEMM.stream_k_gemm.compile(E=f32, BM=16, BN=32, BK=16)))
    p, x, y = st.zeros((2 * 16, 32)).sync(), st.ones((16, 64)).sync(), st.ones((48, 32)).sync()
    with pytest.raises(st.LaunchRefused, match="stream_k_gemm"):
        GEMM.stream_k_gemm(p.partition((16, 32)), x, y, BK=16, grid=(2,)).sync()


def test_the_stream_k_sum_keeps_no_check() -> None:
    """The partial's row is a one-trip loop index below the partials' tiles."""
    assert not re.findall(r"\bassert ", print_tile_ir(GEMM.stream_k_sum.compile(E=f32, BM=16, BN=32, FM=8, FN=16)))


@pytest.mark.parametrize(("k", "sms", "partials", "match"), [
    (40, 2, (32, 16), r"stream_k: K = 40 is not a positive multiple of BK = 16; pass a BK that divides K"),
    (0, 2, (32, 16), r"stream_k: K = 0 is not a positive multiple of BK = 16"),
    (64, 0, (32, 16), r"stream_k: sms = 0; pass the number of blocks to run on, at least 1"),
    (64, 2, (32, 32), r"stream_k: partials are \[32, 32\]; they must be \[W \* B \* BM, BN\] = \[32, 16\]"),
])
def test_stream_k_refuses_what_it_cannot_run(k: int, sms: int, partials: tuple[int, int], match: str) -> None:
    z, x, y = st.zeros((16, 16)).sync(), st.ones((16, k)).sync(), st.ones((k, 16)).sync()
    with pytest.raises(ValueError, match=match):
        GEMM.stream_k(z, x, y, st.zeros(partials).sync(), BM=16, BN=16, BK=16, sms=sms)


@pytest.mark.parametrize(("tile", "hints"), [
    ((16, 64), {"sm_90": {"latency": 4}}),    # few tokens: QKV at 16 tokens 1.02 of cuBLAS, 0.92 without
    ((32, 64), {"sm_90": {"latency": 4}}),
    ((64, 128), {}),                          # down at 128 tokens (split-K 64x128): 0.93 with, 1.00 without
    ((128, 128), {}),
    ((128, 256), {"sm_90": {"latency": 6}}),  # the big tiles' pipeline
])
def test_gemm_load_hints_take_latency_4_on_few_row_tiles_only(tile: tuple[int, int],
                                                              hints: dict[str, dict[str, int]]) -> None:
    bm, bn = tile
    assert GEMM.gemm_load_hints(BM=bm, BN=bn) == hints


@pytest.mark.parametrize(("m", "n", "k", "splits", "columns"), [
    (40, 70, 96, 3, 1),   # 3 x 3 tiles of 16x32 (the last column partial): the first column split in 3
    (40, 70, 96, 2, 3),   # every column split: a split-K whose sum is the GEMM launch
    (33, 64, 128, 4, 1),  # a partial last row of tiles
    (16, 32, 16, 1, 1),   # one tile, one K tile: S = 1
])
def test_split_columns_equals_numpy(m: int, n: int, k: int, splits: int, columns: int) -> None:
    """16x32x16 tiles; the output and the partials poisoned with NaN: a tile left unwritten, or a
    partial read that no block wrote, would show."""
    xs, ys = operands(m, n, k)
    z = st.full((m, n), np.nan, f32).sync()
    partials = st.full((splits, m, columns * 32), np.nan, f32).sync()
    out = GEMM.split_columns(z, st.from_numpy(xs).sync(), st.from_numpy(ys).sync(), partials, BM=16, BN=32,
                             BK=16).sync()
    assert run_all.max_error(out[0].unpartition().numpy(), xs.astype(np.float64) @ ys) <= 1e-3
    assert out[3].shape == (splits, m, columns * 32)


def test_the_split_columns_kernels_keep_no_check_and_the_gemm_refuses_a_short_y() -> None:
    """The K loop's bound is below x's K tiles, the sum's column below the partials' pieces: y's
    columns and the partials' rows are launch checks."""
    assert not re.findall(r"\bassert ", print_tile_ir(GEMM.split_columns_gemm.compile(E=f32, BM=16, BN=16, BK=16,
                                                                                      G=2)))
    assert not re.findall(r"\bassert ", print_tile_ir(GEMM.split_columns_sum.compile(E=f32, FM=8, FN=16)))
    z, p, x, y = (st.zeros((16, 32)).sync(), st.zeros((2, 16, 16)).sync(), st.ones((16, 64)).sync(),
                  st.ones((64, 16)).sync())
    with pytest.raises(st.LaunchRefused, match="split_columns_gemm"):
        GEMM.split_columns_gemm(z.partition((16, 16)), p, x, y, BK=16, G=2).sync()


@pytest.mark.parametrize(("k", "partials", "match"), [
    (40, (2, 16, 16), r"split_columns: K = 40 is not a multiple of BK = 16; pass a BK that divides K"),
    (64, (5, 16, 16), r"split_columns: S = 5 splits of 4 K tiles of 16: every split needs a K tile"),
    (64, (2, 16, 24),
     r"split_columns: partials are \[2, 16, 24\]; they must be \[S, M, C \* BN\] = \[S, 16, C \* 16\]"),
    (64, (2, 16, 48), r"for the first C tile columns, 1 <= C <= 2"),
    (64, (2, 8, 16), r"partials are \[2, 8, 16\]"),
])
def test_split_columns_refuses_what_it_cannot_run(k: int, partials: tuple[int, ...], match: str) -> None:
    z, x, y = st.zeros((16, 32)).sync(), st.ones((16, k)).sync(), st.ones((k, 32)).sync()
    with pytest.raises(ValueError, match=match):
        GEMM.split_columns(z, x, y, st.zeros(partials).sync(), BM=16, BN=16, BK=16)


def test_matmul_launches_split_columns_where_its_plan_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plan of 16x32 tiles whose first 2 of 3 tile columns split K in 2, on 40 x 70 x 48: the
    result is right and the second launch was ``split_columns_gemm``'s."""
    monkeypatch.setattr(GEMM, "gemm_plan", lambda m, n, k: GEMM.Plan(16, 32, 16, 2, False, 2))
    xs, ys = operands(40, 70, 48)
    z = st.full((40, 70), np.nan, f32).sync()
    plans = len(GEMM.split_columns_gemm.launch_cache.plans)
    out = GEMM.matmul(z, st.from_numpy(xs).sync(), st.from_numpy(ys).sync()).sync()
    assert len(out) == 3
    assert run_all.max_error(out[0].unpartition().numpy(), xs.astype(np.float64) @ ys) <= 1e-3
    assert len(GEMM.split_columns_gemm.launch_cache.plans) == plans + 1, "not split_columns_gemm's launch"


@pytest.mark.parametrize(("m", "n", "plan"), [
    (2048, 2560, (128, 256, 64, 4, False, 2)),  # 160 tiles of 128x256: 8 of 10 columns fill a wave (0.85; 0.80)
    (2000, 2500, (128, 256, 64, 4, False, 2)),  # partial last tiles: as 2048 x 2560
    (1024, 2560, None),                         # 80 tiles, under a wave (split columns of 128x128: 0.73; 0.74)
    (4096, 2560, None),                         # 320 tiles, two whole waves (split columns 0.80 steady; 0.84)
    (8192, 2560, None),                         # 640 of 660 slots: a full last wave
    (9000, 512, None),                          # 71 x 2 tiles: one column past the wave is 71 tiles, S = 1
])
def test_columns_plan_splits_the_columns_past_one_wave_of_128x256_tiles(m: int, n: int, plan: tuple | None) -> None:
    """``R`` tile rows of 128x256 tiles, one whole wave and a short second: ``132 // R`` columns
    whole, the other ``C`` in ``132 // (R * C)`` splits (docs/benchmarks.md §4, burst vs cuBLAS)."""
    got = GEMM.columns_plan(m, n, 152)
    assert got == (None if plan is None else GEMM.Plan(*plan))
