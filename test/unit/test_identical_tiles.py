"""The launch warns where a kernel's blocks along a grid dimension store identical tiles.

The compile driver records the stores whose data ignores a grid dimension
their tile follows (``CompiledVariant.unread_grid_dims``); a launch whose
grid has more than one block along that dimension warns, naming the
kernel line that stores.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import safetile as st
from safetile import f32


@st.kernel
def first_column_tile(z: st.Mut[f32, (4, 64)], x: st.Ref[f32, (-1, -1)]):
    # The softmax bug: every column tile of a row gets column tile 0's values.
    bm, _, _ = st.tile_block_id()
    z.store(x.partition((4, 64)).load((bm, 0)))


@st.kernel
def own_tile(z: st.Mut[f32, (4, 64)], x: st.Ref[f32, (-1, -1)]):
    z.store(st.load_tile_like(x, z))


@st.kernel
def fill(z: st.Mut[f32, (4, 64)]):
    z.store(1.0)


def launch(kernel: st.Kernel, columns: int, *inputs: np.ndarray) -> list[warnings.WarningMessage]:
    z = st.zeros((8, columns), f32).sync().partition((4, 64))
    args = [st.from_numpy(a).sync() for a in inputs]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kernel(z, *args).sync()
    return [w for w in caught if issubclass(w.category, st.IdenticalTilesWarning)]


def test_a_store_ignoring_the_column_blocks_warns_at_its_line() -> None:
    x = np.random.default_rng(0).random((8, 256), np.float32)
    (warning,) = launch(first_column_tile, 256, x)
    text = str(warning.message)
    where, _, rest = text.partition(": ")
    path, line, _ = where.rsplit(":", 2)
    assert Path(path).name == "test_identical_tiles.py"
    assert "z.store(" in Path(__file__).read_text().splitlines()[int(line) - 1]
    assert "stores the same data into the 4 tiles of 'z' along grid y" in rest
    assert "depends on tile_block_id()[0] only, not on tile_block_id()[1]" in rest


def test_one_block_along_the_dimension_is_quiet() -> None:
    x = np.random.default_rng(1).random((8, 64), np.float32)
    assert launch(first_column_tile, 64, x) == []


@pytest.mark.parametrize("kernel", [own_tile, fill])
def test_kernels_that_mean_their_tiles_are_quiet(kernel: st.Kernel) -> None:
    inputs = [np.ones((8, 256), np.float32)] if kernel is own_tile else []
    assert launch(kernel, 256, *inputs) == []


def test_the_warning_comes_once_per_plan() -> None:
    x = np.zeros((8, 256), np.float32)
    launch(first_column_tile, 256, x)
    assert launch(first_column_tile, 256, x) == []  # the same signature: planned once
