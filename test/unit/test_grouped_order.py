"""The grouped tile order (``st.grouped(G)``) on the CPU interpreter.

The grouped GEMMs of the examples, host-partitioned (``z.tile_index``) and
mapped (``z.tile_indices``), match numpy on shapes the tiles and the group do
not divide; each tile is written by exactly one tile block (the output is
NaN-poisoned, the dynamic race detector is on) and in the order of Triton's
formula; a hand-written formula that is not one to one is caught by the
race detector.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile import f32
from safetile.backend.interpreter import RaceError
from support import load_example


def example(file: str, name: str) -> Any:
    return getattr(load_example(file), name)


GROUPED_GEMM = example("gemm", "grouped_gemm")
GROUPED_PERSISTENT_GEMM = example("persistent_gemm", "grouped_persistent_gemm")


@st.kernel
def block_numbers(z: st.Mut[f32, (16, 16)], *, G: int, R: int = 0):
    """Each block writes its number in launch order into the tile the grouped order gives it
    (``R``: the columns reversed)."""
    bx, by, _ = st.tile_block_id()
    n0 = st.num_tile_blocks()[0]
    z.store(st.full((16, 16), (bx + by * n0).astype(f32)), z.tile_index(order=st.grouped(G, reverse=R)))


@st.kernel
def mapped_tile_numbers(z: st.MutMapped[f32, (16, 16)], *, G: int, R: int = 0):
    """Each mapped tile gets its tile number ``t = bid + i * nblocks`` (``i``: this block's iteration)."""
    b, nb = st.tile_block_id()[0], st.num_tile_blocks()[0]
    i = 0
    for idx in z.tile_indices(order=st.grouped(G, reverse=R)):
        z.store(st.full((16, 16), (b + i * nb).astype(f32)), idx)
        i += 1


@st.kernel
def wrong_grouped(z: st.Mut[f32, (16, 16)], *, G: int):
    """Triton's formula with ``n = (t % width) // G`` instead of ``// rows``: not one to one
    when the last group is short, so two blocks write one tile."""
    bx, by, _ = st.tile_block_id()
    n0, n1 = st.num_tile_blocks()[0], st.num_tile_blocks()[1]
    t = bx + by * n0
    width = G * n1
    first = t // width * G
    rows = min(n0 - first, G)
    m, n = first + t % width % rows, t % width // G
    with st.unsafe():
        z.partition_mut((16, 16)).store((m, n), st.full((16, 16), 1.0, f32))


def triton_grouped(t: int, n0: int, n1: int, group: int, reverse: bool = False) -> tuple[int, int]:
    """Triton's grouped order (``GROUP_M``) of tile ``t``, in plain Python (``reverse``: the
    column counted from the last)."""
    width = group * n1
    first = t // width * group
    rows = min(n0 - first, group)
    column = t % width // rows
    return first + t % width % rows, n1 - 1 - column if reverse else column


def tile_numbers(z: st.Partition, n0: int, n1: int) -> np.ndarray:
    """The number each tile of a ``(n0 * 16) x (n1 * 16)`` output holds (one per tile, checked)."""
    out = z.unpartition().numpy().reshape(n0, 16, n1, 16).transpose(0, 2, 1, 3).reshape(n0, n1, 256)
    assert (out == out[:, :, :1]).all(), "a tile holds more than one value"
    return out[:, :, 0]


def poisoned(m: int, n: int, tile: tuple[int, int]) -> st.Partition:
    return st.full((m, n), np.nan, f32).sync().partition(tile)


@pytest.mark.parametrize(("m", "n", "k", "group"), [(64, 64, 32, 2), (70, 50, 48, 4), (100, 33, 16, 3), (16, 90, 16, 8)])
def test_grouped_gemm_matches_numpy(m: int, n: int, k: int, group: int) -> None:
    rng = np.random.default_rng()
    xs, ys = rng.random((m, k), np.float32) + 0.5, rng.random((k, n), np.float32) + 0.5
    x, y = st.from_numpy(xs).sync(), st.from_numpy(ys).sync()
    z, _, _ = GROUPED_GEMM(poisoned(m, n, (16, 16)), x, y, BK=16, G=group, shuffle=True, seed=3).sync()
    np.testing.assert_allclose(z.unpartition().numpy(), xs.astype(np.float64) @ ys, rtol=1e-5)


@pytest.mark.parametrize("grid", [None, (1,), (5,)])
def test_grouped_persistent_gemm_matches_numpy(grid: tuple[int, ...] | None) -> None:
    rng = np.random.default_rng()
    m, n, k = 70, 50, 32
    xs, ys = rng.random((m, k), np.float32) + 0.5, rng.random((k, n), np.float32) + 0.5
    x, y = st.from_numpy(xs).sync(), st.from_numpy(ys).sync()
    options = {} if grid is None else {"grid": grid}
    z, _, _ = GROUPED_PERSISTENT_GEMM(poisoned(m, n, (16, 16)), x, y, BK=16, G=3, **options).sync()
    np.testing.assert_allclose(z.unpartition().numpy(), xs.astype(np.float64) @ ys, rtol=1e-5)


@pytest.mark.parametrize(("n0", "n1", "group", "reverse"),
                         [(5, 3, 2, 0), (4, 4, 4, 0), (7, 2, 3, 0), (3, 5, 8, 0), (6, 1, 1, 0), (5, 3, 2, 1),
                          (3, 5, 8, 1)])
def test_each_block_writes_the_tile_of_its_number_and_no_other(n0: int, n1: int, group: int, reverse: int) -> None:
    z, = block_numbers(poisoned(n0 * 16, n1 * 16, (16, 16)), G=group, R=reverse).sync()
    numbers = tile_numbers(z, n0, n1)
    expected = np.empty((n0, n1))
    for t in range(n0 * n1):
        expected[triton_grouped(t, n0, n1, group, bool(reverse))] = t
    np.testing.assert_array_equal(numbers, expected)


def test_reversed_columns_start_at_the_last() -> None:
    # Block 0 takes the last column: causal attention's heaviest query tile first.
    z, = block_numbers(poisoned(2 * 16, 4 * 16, (16, 16)), G=8, R=1).sync()
    np.testing.assert_array_equal(tile_numbers(z, 2, 4), [[6, 4, 2, 0], [7, 5, 3, 1]])


@pytest.mark.parametrize(("grid", "reverse"), [((1,), 0), ((4,), 0), ((40,), 0), ((4,), 1)])
def test_mapped_tiles_follow_the_grouped_numbers(grid: tuple[int, ...], reverse: int) -> None:
    n0, n1, group = 7, 3, 2
    z, = mapped_tile_numbers(poisoned(n0 * 16, n1 * 16, (16, 16)), G=group, R=reverse, grid=grid).sync()
    numbers = tile_numbers(z, n0, n1)
    for t in range(n0 * n1):
        assert numbers[triton_grouped(t, n0, n1, group, bool(reverse))] == t


def test_a_formula_that_is_not_one_to_one_is_a_race() -> None:
    with pytest.raises(RaceError, match="data race"):
        wrong_grouped(poisoned(3 * 16, 2 * 16, (16, 16)), G=2).sync()
    z, = wrong_grouped(poisoned(4 * 16, 2 * 16, (16, 16)), G=2).sync()  # full groups: one to one
    assert not np.isnan(z.unpartition().numpy()).any()


def test_a_grouped_host_partitioned_output_launches_its_partition_grid_only() -> None:
    # The block number bid.x + bid.y * n0 is one to one onto the tiles only on
    # the partition's n0 x n1 grid; a 1-d grid of n0 * n1 blocks is refused.
    with pytest.raises(st.runtime.LaunchRefused, match=r"grid \(15, 1, 1\) differs from the partition grid \(5, 3, 1\)"):
        block_numbers(poisoned(5 * 16, 3 * 16, (16, 16)), G=2, grid=(15,)).sync()
