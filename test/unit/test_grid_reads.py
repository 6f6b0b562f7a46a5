"""``passes/analyses/grid_reads.py``: stores whose data ignores a grid dimension
their tile follows (a kernel writing identical data to different tiles)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from xdsl.dialects.builtin import FileLineColLoc

import safetile as st
from safetile import f32
from safetile.passes.analyses.grid_reads import UnreadGridDim, unread_grid_dims
from support import load_example


@st.kernel
def first_column_tile(z: st.Mut[f32, (4, 64)], x: st.Ref[f32, (-1, -1)]):
    # The softmax bug: every column tile of a row gets column tile 0's values.
    bm, _, _ = st.tile_block_id()
    z.store(x.partition((4, 64)).load((bm, 0)))


@st.kernel
def own_tile(z: st.Mut[f32, (4, 64)], x: st.Ref[f32, (-1, -1)]):
    z.store(st.load_tile_like(x, z) * 2.0)


@st.kernel
def fill(z: st.Mut[f32, (4, 64)]):
    z.store(1.0)


@st.kernel
def column_decides_whether(z: st.Mut[f32, (4, 64)], x: st.Ref[f32, (-1, -1)]):
    # The data ignores bn, but whether a block stores depends on it.
    bm, bn, _ = st.tile_block_id()
    if bn == 0:
        z.store(x.partition((4, 64)).load((bm, 0)))


@st.kernel
def column_through_a_loop(z: st.Mut[f32, (4, 64)], x: st.Ref[f32, (-1, -1)]):
    # The data depends on bn only through a loop-carried value.
    bm, bn, _ = st.tile_block_id()
    acc = st.zeros((4, 64), f32)
    for j in range(bn + 1):
        acc = acc + x.partition((4, 64)).load((bm, j))
    z.store(acc)


@st.kernel
def reads_own_output(z: st.Mut[f32, (4, 64)]):
    z.store(z.load() + 1.0)


def facts(kernel: Any, **values: Any) -> list[UnreadGridDim]:
    return unread_grid_dims(kernel.specialize(**values).entry)


def test_a_store_ignoring_the_column_block_id_is_reported_at_its_line() -> None:
    (fact,) = facts(first_column_tile)
    assert (fact.output, fact.dim, fact.value_dims) == ("z", 1, frozenset({0}))
    assert isinstance(fact.location, FileLineColLoc)
    assert fact.location.filename.data.endswith("test_grid_reads.py")
    line = fact.location.line.data
    assert "z.store(" in Path(__file__).read_text().splitlines()[line - 1]


def test_a_fill_is_reported_with_no_value_dims() -> None:
    assert [(f.dim, f.value_dims) for f in facts(fill)] == [(0, frozenset()), (1, frozenset())]


@pytest.mark.parametrize("kernel", [own_tile, column_decides_whether, column_through_a_loop, reads_own_output])
def test_stores_that_read_every_dimension_they_follow_are_not_reported(kernel: Any) -> None:
    assert facts(kernel) == []


def _example(name: str) -> Any:
    return getattr(load_example(name), name)


@pytest.mark.parametrize("name", ["softmax", "rms_norm", "layer_norm", "add", "gemm", "flash_attention"])
def test_the_examples_read_every_grid_dimension_they_write(name: str) -> None:
    kernel = _example(name)
    for values in kernel.specializations:
        assert facts(kernel, **values) == []
