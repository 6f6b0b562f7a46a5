"""Executors of the ``control`` ops: ``for``, ``loop``, ``if`` and their terminators.

Terminators return an ``Exit``; ``for``/``loop`` consume ``continue`` and
``break`` from their body (also when they come out of an ``if`` inside it)
and ``if`` consumes ``yield`` and passes every other exit on (a ``return``
reaches ``engine.Program.run``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation

from safetile.dialects.cuda_tile.ops import control

from ..engine import Builder, Executor, Exit, ExitKind, Frame, Program
from ..errors import UndefinedBehaviorError
from safetile.backend.elements import signed, unsigned, wrap
from .common import width


def terminator(kind: ExitKind) -> Builder:
    """A terminator: ends its block with ``kind`` and its operand values."""

    def build(op: Operation, kernel: Program) -> Executor:
        def run(frame: Frame, a: list[Any]) -> Exit:
            return Exit(kind, a)

        return run

    return build


def _build_for(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, control.ForOp)
    w = width(op.lower_bound)
    read = unsigned if op.unsigned_cmp is not None else signed
    mask = (1 << w) - 1
    body = op.region.block

    def run(frame: Frame, a: list[Any]) -> Any:
        lower, upper, step = (int(read(np.asarray(v), w)) for v in a[:3])
        if step <= 0 and lower < upper:
            raise UndefinedBehaviorError(f"'for' step must be positive, got {step}")
        carried = a[3:]
        iv = lower
        while iv < upper:
            value = wrap(np.asarray(iv & mask, dtype=np.uint64), w)
            out = kernel.run_block(frame, body, [value, *carried])
            if out.kind is not ExitKind.CONTINUE:
                return out
            carried = out.values
            iv += step
        return tuple(carried)

    return run


def _build_loop(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, control.LoopOp)
    body = op.region.block

    def run(frame: Frame, a: list[Any]) -> Any:
        carried = a
        while True:
            out = kernel.run_block(frame, body, carried)
            if out.kind is ExitKind.CONTINUE:
                carried = out.values
            elif out.kind is ExitKind.BREAK:
                return tuple(out.values)
            else:
                return out

    return run


def _build_if(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, control.IfOp)
    then_block = op.then_region.block
    else_block = op.else_region.block if op.else_region.blocks else None

    def run(frame: Frame, a: list[Any]) -> Any:
        block = then_block if bool(a[0]) else else_block
        if block is None:
            return ()
        out = kernel.run_block(frame, block, ())
        return tuple(out.values) if out.kind is ExitKind.YIELD else out

    return run


HANDLERS: dict[type[Operation], Builder] = {
    control.ForOp: _build_for,
    control.LoopOp: _build_loop,
    control.IfOp: _build_if,
    control.YieldOp: terminator(ExitKind.YIELD),
    control.ContinueOp: terminator(ExitKind.CONTINUE),
    control.BreakOp: terminator(ExitKind.BREAK),
}
