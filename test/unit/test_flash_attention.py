"""examples/flash_attention.py beyond its numpy cases (test_runtime_examples.py): the output's tile
must be whole query rows, and every launch order keeps one writer a tile."""

from __future__ import annotations

import math
from typing import Any

import pytest
from xdsl.dialects.builtin import ModuleOp

import safetile as st
from safetile.dialects.cuda_tile.ops.structure import ModuleOp as TileModuleOp
from safetile.frontend.kernel import context
from safetile.passes.partition_disjointness import PartitionDisjointness
from support import load_example

FLASH = load_example("flash_attention").flash_attention


def _spec(shape: tuple[int, ...], tile: tuple[int, ...] | None = None) -> st.TensorSpec:
    strides = tuple(math.prod(shape[i + 1:]) for i in range(len(shape)))
    return st.TensorSpec(st.f16, shape, strides, tile, True)


def _values(o_tile: int, order: int, heads: int = 2, seq: int = 64, d: int = 32) -> dict[str, Any]:
    q = _spec((heads, seq, d))
    return dict(o=_spec((heads, seq * d), (1, o_tile)), q=q, k=q, v=q, E=st.f16, BN=32, D=d, CAUSAL=1, GROUP=1,
                ORDER=order)


def test_an_output_tile_shorter_than_a_query_row_is_refused_naming_the_fix() -> None:
    with pytest.raises(st.CompileError, match=r"o's tile \(1, 16\) is not whole query rows of D = 32: partition "
                                              r"the \[heads, S \* D\] output into \(1, BM \* D\) tiles"):
        FLASH.compile_variant(**_values(16, 1))


@pytest.mark.parametrize(("order", "proof"), [(0, "mut"), (1, "mut grouped(1)"), (4, "mut grouped(4)")])
def test_every_launch_order_is_proved_one_writer_a_tile(order: int, proof: str, capsys: Any) -> None:
    variant = FLASH.specialize(**_values(32 * 32, order))
    PartitionDisjointness(report=True).apply(context(), ModuleOp([TileModuleOp("m", [variant.entry.clone()])]))
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"{proof}: ") and line.endswith("store to 'o'")
