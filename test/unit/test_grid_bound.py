"""What bounds a tile block id (passes/analyses/intervals.py, ``grid_extents``).

Every ``st.Mut`` output has the launch grid (the runtime refuses outputs whose
grids differ), so a block-id index into any of them is in range without a
check; a ``st.MutMapped`` output runs on any ``(n, 1, 1)`` grid, so it bounds
nothing and an index taken from the block id keeps its check.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import safetile as st
from safetile import f32, i32
from safetile.backend.interpreter.errors import DeviceAssertError
from safetile.dialects.cuda_tile.syntax import print_tile_ir


def asserts(kernel: st.Kernel, **generics: object) -> int:
    return len(re.findall(r"\bassert ", print_tile_ir(kernel.compile(**generics))))


@st.kernel
def mapped_reads_at_block_id(z: st.MutMapped[f32, (64,)], x: st.Ref[f32, (-1,)]):
    bid, _, _ = st.tile_block_id()
    t = x.partition((64,)).load((bid,))
    for idx in z.tile_indices():
        z.store(t, idx)


def test_a_mapped_output_does_not_bound_the_block_id() -> None:
    assert asserts(mapped_reads_at_block_id) == 1
    z, x = st.zeros((256,)).sync().partition((64,)), st.ones((256,)).sync()
    with pytest.raises(DeviceAssertError, match=r"tile block \(4, 0, 0\).*load: tile index out of range"):
        mapped_reads_at_block_id(z, x, grid=(100, 1, 1)).sync()


@st.kernel
def second_output_under_if(
    a: st.Mut[f32, (1, 8)], b: st.Mut[f32, (1, 16)], flag: st.Ref[i32, (1,)]
):
    """Stores into the second output, at the block id, only where ``flag`` says."""
    a.store(st.full((1, 8), 1.0, f32))
    if flag.load_tile((1,), (0,)).reshape(()) != 0:
        b.store(st.full((1, 16), 2.0, f32))


def test_every_mut_output_has_the_launch_grid() -> None:
    # The grid is a's; b's tile counts are the same numbers whenever a launch runs, so
    # its store needs no check, even under an ``if`` (where a launch check would not do).
    assert asserts(second_output_under_if) == 0
    a, b = st.zeros((4, 8)).sync().partition((1, 8)), st.zeros((4, 16)).sync().partition((1, 16))
    a, b, _ = second_output_under_if(a, b, st.from_numpy(np.array([1], np.int32)).sync()).sync()
    np.testing.assert_array_equal(b.unpartition().numpy(), np.full((4, 16), 2.0, np.float32))
    wrong = st.zeros((5, 16)).sync().partition((1, 16))
    with pytest.raises(st.LaunchRefused, match="different grids"):
        second_output_under_if(a, wrong, st.from_numpy(np.array([1], np.int32)).sync()).sync()
