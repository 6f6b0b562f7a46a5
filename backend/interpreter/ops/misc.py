"""Executors of the ``misc`` ops: tile-block queries, ``assume``, ``assert``,
``print_tko`` and the grid-dependency ops.

The ``gdc_*`` ops (one kernel at a time: nothing to wait for) return a
``Token``.  ``assume`` returns its operand; with ``check_assumes`` it first
checks the predicate.
"""

from __future__ import annotations

from io import StringIO
from typing import Any

import numpy as np
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

from safetile.dialects.cuda_tile.attributes import BoundedAttr, DivByAttr, SameElementsAttr
from safetile.dialects.cuda_tile.ops import misc
from safetile.dialects.cuda_tile.types import PointerType, TileType, int_width
from safetile.backend import elements

from ..engine import Builder, Executor, Frame, Program
from ..errors import AssumptionError, DeviceAssertError
from ..printf import format_tiles
from ..values import TOKEN, TensorView
from .common import element, slot, token


def _build_block_id(op: Operation, kernel: Program) -> Executor:
    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray, ...]:
        return tuple(np.asarray(i, dtype=np.int32) for i in frame.block_id)

    return run


def _build_num_blocks(op: Operation, kernel: Program) -> Executor:
    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray, ...]:
        return tuple(np.asarray(n, dtype=np.int32) for n in frame.launch.grid)

    return run


# --------------------------------------------------------------------------
# assume
# --------------------------------------------------------------------------


def _violation(predicate: Attribute, value: Any, t: Attribute) -> str | None:
    """Why ``predicate`` does not hold on ``value`` (None if it does)."""
    if isinstance(value, TensorView):
        assert isinstance(predicate, DivByAttr)
        return None if value.base % predicate.divisor == 0 else f"base address {value.base:#x}"
    assert isinstance(t, TileType)
    elem = t.element_type
    x = np.asarray(value)
    width = int_width(elem)
    if isinstance(predicate, BoundedAttr):
        assert width is not None
        v = elements.signed(x, width).astype(np.int64)
        bad = np.zeros(v.shape, dtype=np.bool_)
        if predicate.lb is not None:
            bad |= v < predicate.lb
        if predicate.ub is not None:
            bad |= v > predicate.ub
        return f"value {int(v[bad].flat[0])}" if bad.any() else None
    if isinstance(predicate, SameElementsAttr):
        for dim, group in enumerate(predicate.values):
            starts = (np.arange(x.shape[dim]) // group) * group
            if not (np.take(x, starts, axis=dim) == x).all():
                return f"elements differ within groups of {group} along dimension {dim}"
        return None
    assert isinstance(predicate, DivByAttr)
    bits = (x if width is None else elements.unsigned(x, width)).astype(np.uint64)
    if predicate.every is None or x.ndim == 0:
        heads = bits
    else:
        along, every = predicate.along, predicate.every
        assert along is not None
        n = x.shape[along]
        step = elements.storage_dtype(elem.pointee).itemsize if isinstance(elem, PointerType) else 1
        positions = np.arange(n)
        offsets = (positions % every).astype(np.uint64) * np.uint64(step)
        heads = np.take(bits, (positions // every) * every, axis=along)
        expected = heads + offsets.reshape([-1 if d == along else 1 for d in range(x.ndim)])
        if not (expected == bits).all():
            return f"elements do not increase by {step} within groups of {every} along dimension {along}"
    bad = heads % np.uint64(predicate.divisor) != 0
    return f"value {int(heads[bad].flat[0]):#x}" if bad.any() else None


def _build_assume(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, misc.AssumeOp)
    predicate = op.predicate
    t = op.value.type
    text = predicate.name.removeprefix("cuda_tile.")

    def run(frame: Frame, a: list[Any]) -> tuple[Any]:
        if frame.launch.options.check_assumes:
            why = _violation(predicate, a[0], t)
            if why is not None:
                raise AssumptionError(f"assume {text}{_params(predicate)} does not hold: {why}")
        return (a[0],)

    return run


def _params(predicate: Attribute) -> str:
    out = StringIO()
    predicate.print_parameters(Printer(stream=out))  # type: ignore[attr-defined]
    return out.getvalue()


# --------------------------------------------------------------------------
# assert and print
# --------------------------------------------------------------------------


def _build_assert(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, misc.AssertOp)
    message = op.message.data

    def run(frame: Frame, a: list[Any]) -> tuple[()]:
        condition = np.asarray(a[0])
        if condition.all():
            return ()
        failed = np.argwhere(~condition)
        shown = ", ".join(str(tuple(int(i) for i in idx)) for idx in failed[:8])
        more = f" and {len(failed) - 8} more" if len(failed) > 8 else ""
        where = f" at element(s) {shown}{more}" if condition.ndim else ""
        raise DeviceAssertError(f'assertion failed{where}: "{message}"', message)

    return run


def _build_print(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, misc.PrintTkoOp)
    text = op.str.data
    positions = [slot(op, v) for v in op.args]
    types = [element(v) for v in op.args]

    def run(frame: Frame, a: list[Any]) -> tuple[Any]:
        frame.launch.stream.write(format_tiles(text, [a[p] for p in positions], types))
        return (TOKEN,)

    return run


HANDLERS: dict[type[Operation], Builder] = {
    misc.GetTileBlockIdOp: _build_block_id,
    misc.GetNumTileBlocksOp: _build_num_blocks,
    misc.AssumeOp: _build_assume,
    misc.AssertOp: _build_assert,
    misc.PrintTkoOp: _build_print,
    misc.GdcLaunchDependentsTkoOp: token,
    misc.GdcWaitTkoOp: token,
}
