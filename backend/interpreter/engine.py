"""The execution core: runs one ``entry`` over every tile block of a grid.

Each op is compiled once per ``Program`` into an *executor*: a closure built by
the builder registered for the op's class in ``ops.DISPATCH`` (attributes,
types and constants are decoded at build time).  An executor takes the
current ``Frame`` and the op's operand values and returns the result values,
or an ``Exit`` for terminators.  A tile block's SSA environment is one dict
from SSA value, by its ``id`` (xDSL hashes a value in Python: a third of the
interpreter's own time went to it), to runtime value.

Control flow: a block runs until its terminator, whose ``Exit`` says where
control goes (``yield`` to the parent op, ``continue``/``break`` to the
innermost loop, ``return`` out of the kernel).  ``if`` passes an ``Exit``
other than ``yield`` on to its own parent, which is how an early exit inside
an ``if`` reaches its loop.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np
from xdsl.ir import Block, Operation

from safetile.dialects.cuda_tile.ops.structure import EntryOp

from .errors import BlockId, InterpreterError, UnsupportedError, describe_op
from .memory import Buffer, GlobalMemory
from .races import RaceDetector


class ExitKind(enum.Enum):
    YIELD = "yield"
    CONTINUE = "continue"
    BREAK = "break"
    RETURN = "return"


@dataclass(slots=True)
class Exit:
    """How a block ended: its terminator's kind and operand values."""

    kind: ExitKind
    values: Sequence[Any]


@dataclass(frozen=True)
class LaunchOptions:
    """How a launch runs (see ``runner.run_kernel``)."""

    shuffle: bool = False
    seed: int | None = None
    detect_races: bool = True
    check_bounds: bool = True
    check_assumes: bool = False
    stream: TextIO | None = None


@dataclass
class Launch:
    """What every tile block of one launch shares."""

    kernel: Program
    grid: BlockId
    memory: GlobalMemory
    options: LaunchOptions
    races: RaceDetector | None
    stream: TextIO


class Frame:
    """One running tile block: its id, SSA environment and ``alloca`` buffers."""

    __slots__ = ("launch", "block_id", "linear_id", "env", "allocations")

    def __init__(self, launch: Launch, block_id: BlockId, linear_id: int):
        self.launch = launch
        self.block_id = block_id
        self.linear_id = linear_id
        self.env: dict[int, Any] = {}
        """``id(SSA value)`` -> its runtime value (the values live as long as the program's IR)."""
        self.allocations: list[Buffer] = []


Executor = Callable[[Frame, list[Any]], Any]
"""Runs one op: (frame, operand values) -> result values, or an ``Exit``."""

Builder = Callable[[Operation, "Program"], Executor]
"""Compiles one op of a kernel into its executor."""

_Step = tuple[Executor, tuple[int, ...], tuple[int, ...], Operation]
"""An op's executor, the ids of its operands and results, and the op."""


class Program:
    """An ``entry`` op ready to run: its ops compiled on first use."""

    def __init__(self, entry: EntryOp, dispatch: dict[type[Operation], Builder]):
        self.entry = entry
        self.name = entry.sym_name.data
        self._dispatch = dispatch
        self._steps: dict[Block, tuple[tuple[int, ...], list[_Step]]] = {}
        self._index: dict[Operation, int] = {}
        for i, op in enumerate(entry.walk()):
            self._index[op] = i
            if op is not entry and type(op) not in dispatch:
                raise UnsupportedError(
                    f"the interpreter cannot run '{op.name}'",
                    kernel=self.name,
                    op=op,
                    where=self.describe(op),
                )

    def describe(self, op: Operation) -> str:
        return describe_op(op, self._index.get(op))

    def steps(self, block: Block) -> tuple[tuple[int, ...], list[_Step]]:
        """The ids of ``block``'s arguments and its ops' steps (compiled on first use)."""
        steps = self._steps.get(block)
        if steps is None:
            steps = self._steps[block] = (
                tuple(map(id, block.args)),
                [
                    (self._dispatch[type(op)](op, self), tuple(map(id, op.operands)), tuple(map(id, op.results)), op)
                    for op in block.ops
                ],
            )
        return steps

    def run_block(self, frame: Frame, block: Block, args: Sequence[Any]) -> Exit:
        """Run ``block`` with its arguments bound to ``args`` until its terminator."""
        env = frame.env
        arg_ids, steps = self.steps(block)
        for arg, value in zip(arg_ids, args):
            env[arg] = value
        mark = len(frame.allocations)
        op: Operation | None = None
        try:
            for execute, operands, results, op in steps:
                out = execute(frame, [env[v] for v in operands])
                if out.__class__ is Exit:
                    return out
                for result, value in zip(results, out):
                    env[result] = value
        except InterpreterError as err:
            if err.op is None and op is not None:
                err.locate(self.name, frame.block_id, op, self.describe(op))
            raise
        except Exception as err:
            assert op is not None
            raise InterpreterError(
                f"internal error: {type(err).__name__}: {err}",
                kernel=self.name,
                block_id=frame.block_id,
                op=op,
                where=self.describe(op),
            ) from err
        finally:
            if len(frame.allocations) > mark:
                for buffer in frame.allocations[mark:]:
                    frame.launch.memory.release(buffer)
                del frame.allocations[mark:]
        raise AssertionError("a verified block ends in a terminator")

    def run(self, launch: Launch, args: Sequence[Any]) -> list[BlockId]:
        """Run every tile block of ``launch.grid``; returns the order they ran in."""
        gx, gy, gz = launch.grid
        order = [(x, y, z) for z in range(gz) for y in range(gy) for x in range(gx)]
        if launch.options.shuffle:
            rng = np.random.default_rng(launch.options.seed)
            order = [order[i] for i in rng.permutation(len(order))]
        body = self.entry.body.block
        with np.errstate(all="ignore"):
            for block_id in order:
                x, y, z = block_id
                frame = Frame(launch, block_id, x + gx * (y + gy * z))
                self.run_block(frame, body, args)
        return order
