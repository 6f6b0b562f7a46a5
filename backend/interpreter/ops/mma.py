"""Matrix multiply-accumulate: ``mmaf``, ``mmai``, ``mmaf_scaled`` (2-d or batched 3-d).

``mmai`` is exact: i8 products summed in 64 bits, plus the i32 accumulator,
wrapped to i32.  ``mmaf`` and ``mmaf_scaled`` compute ``lhs @ rhs + acc`` in
float64 (every product of the input formats is exact there) and round once to
the accumulator's type, nearest-even: at least as accurate as the device,
whose summation order and intermediate precision are unspecified (so results
may differ from it in the last bits of the accumulator type).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation

from safetile.dialects.cuda_tile.attributes import Signedness
from safetile.dialects.cuda_tile.ops import mma

from safetile.backend import elements, floats

from ..engine import Builder, Executor, Frame, Program
from .common import element, tile_type


def _build_mmaf(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, mma.MmaFOp)
    t = element(op.acc)

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        lhs, rhs, acc = (np.asarray(v).astype(np.float64) for v in a)
        return (floats.round_to_format(np.matmul(lhs, rhs) + acc, t),)

    return run


def _build_mmai(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, mma.MmaIOp)
    read_lhs = elements.signed if op.signedness_lhs.data == Signedness.SIGNED else elements.unsigned
    read_rhs = elements.signed if op.signedness_rhs.data == Signedness.SIGNED else elements.unsigned

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        lhs = read_lhs(np.asarray(a[0]), 8).astype(np.int64)
        rhs = read_rhs(np.asarray(a[1]), 8).astype(np.int64)
        return (elements.wrap(np.matmul(lhs, rhs) + np.asarray(a[2]).astype(np.int64), 32),)

    return run


def _build_mmaf_scaled(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, mma.MmaFScaledOp)
    t = element(op.acc)
    lhs_t, scale_t = tile_type(op.lhs), tile_type(op.lhs_scale)
    k_dim = lhs_t.rank - 1
    block = lhs_t.shape[k_dim] // scale_t.shape[k_dim]

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        lhs, rhs, acc, lhs_scale, rhs_scale = (np.asarray(v).astype(np.float64) for v in a)
        # Each scale covers ``block`` consecutive elements along K.
        lhs = lhs * np.repeat(lhs_scale, block, axis=-1)
        rhs = rhs * np.repeat(rhs_scale, block, axis=-2)
        return (floats.round_to_format(np.matmul(lhs, rhs) + acc, t),)

    return run


HANDLERS: dict[type[Operation], Builder] = {
    mma.MmaFOp: _build_mmaf,
    mma.MmaIOp: _build_mmai,
    mma.MmaFScaledOp: _build_mmaf_scaled,
}
