"""Element-wise integer ops: arithmetic wrapping in the element width.

Results are exact: add/sub/mul/neg/shl wrap modulo ``2**width``; ``signed``/
``unsigned`` ops read their operands accordingly (``i1`` signed is 0/-1).
The ``overflow`` flags are promises to the compiler and do not change the
result.  Shifts by the width or more give the value shifted out completely
(0, or the sign for a signed right shift).  Division or remainder by zero is
an ``UndefinedBehaviorError``; ``MIN / -1`` wraps to ``MIN``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.ir import Operation

from safetile.dialects.cuda_tile.attributes import RoundingMode, Signedness
from safetile.dialects.cuda_tile.ops import arith

from ..engine import Builder, Executor, Frame, Kernel
from ..errors import UndefinedBehaviorError
from ..values import signed, unsigned, wrap
from .common import width

IntFn = Callable[[np.ndarray, np.ndarray, int], np.ndarray]


def _binary(fn: IntFn) -> Builder:
    """An op computing ``fn(lhs, rhs, width)`` (any integer dtype), wrapped."""

    def build(op: Operation, kernel: Kernel) -> Executor:
        w = width(op.results[0])

        def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
            return (wrap(np.asarray(fn(a[0], a[1], w)), w),)

        return run

    return build


def _by_signedness(on_signed: IntFn, on_unsigned: IntFn) -> Builder:
    """An op whose ``signedness`` picks how the operands are read."""

    def build(op: Operation, kernel: Kernel) -> Executor:
        w = width(op.results[0])
        fn = on_signed if op.signedness.data == Signedness.SIGNED else on_unsigned

        def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
            return (wrap(np.asarray(fn(a[0], a[1], w)), w),)

        return run

    return build


def _unary(fn: Callable[[np.ndarray, int], np.ndarray]) -> Builder:
    def build(op: Operation, kernel: Kernel) -> Executor:
        w = width(op.results[0])

        def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
            return (wrap(np.asarray(fn(a[0], w)), w),)

        return run

    return build


def _shift_left(x: np.ndarray, s: np.ndarray, w: int) -> np.ndarray:
    amount = unsigned(s, w).astype(np.uint64)
    big = amount >= w
    shifted = unsigned(x, w).astype(np.uint64) << np.where(big, 0, amount)
    return np.where(big, np.uint64(0), shifted)


def _shift_right_signed(x: np.ndarray, s: np.ndarray, w: int) -> np.ndarray:
    amount = np.minimum(unsigned(s, w).astype(np.uint64), 63).astype(np.int64)
    return signed(x, w).astype(np.int64) >> amount


def _shift_right_unsigned(x: np.ndarray, s: np.ndarray, w: int) -> np.ndarray:
    amount = unsigned(s, w).astype(np.uint64)
    big = amount >= w
    shifted = unsigned(x, w).astype(np.uint64) >> np.where(big, 0, amount)
    return np.where(big, np.uint64(0), shifted)


def _mulhi(x: np.ndarray, y: np.ndarray, w: int) -> np.ndarray:
    """High ``w`` bits of the unsigned ``2w``-bit product."""
    a = unsigned(x, w).astype(np.uint64)
    b = unsigned(y, w).astype(np.uint64)
    if w <= 32:
        return (a * b) >> np.uint64(w)
    mask, half = np.uint64(0xFFFFFFFF), np.uint64(32)
    a_lo, a_hi, b_lo, b_hi = a & mask, a >> half, b & mask, b >> half
    lo_lo, hi_lo, lo_hi = a_lo * b_lo, a_hi * b_lo, a_lo * b_hi
    cross = (lo_lo >> half) + (hi_lo & mask) + lo_hi
    return a_hi * b_hi + (hi_lo >> half) + (cross >> half)


def _check_divisor(y: np.ndarray, op_name: str) -> None:
    if not np.all(y):
        raise UndefinedBehaviorError(f"integer {op_name} by zero")


def _build_divi(op: Operation, kernel: Kernel) -> Executor:
    assert isinstance(op, arith.DivIOp)
    w = width(op.result)
    is_signed = op.signedness.data == Signedness.SIGNED
    mode = op.rounding.data

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        _check_divisor(a[1], "division")
        if is_signed:
            x, y = signed(a[0], w).astype(np.int64), signed(a[1], w).astype(np.int64)
        else:
            x, y = unsigned(a[0], w).astype(np.uint64), unsigned(a[1], w).astype(np.uint64)
        q = x // y  # floors; MIN // -1 wraps to MIN
        inexact = x - q * y != 0
        if mode is RoundingMode.POSITIVE_INF:
            q = q + inexact
        elif mode is RoundingMode.ZERO and is_signed:
            q = q + (inexact & ((x < 0) != (y < 0)))
        return (wrap(np.asarray(q), w),)

    return run


def _build_remi(op: Operation, kernel: Kernel) -> Executor:
    assert isinstance(op, arith.RemIOp)
    w = width(op.result)
    is_signed = op.signedness.data == Signedness.SIGNED

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        _check_divisor(a[1], "remainder")
        if is_signed:
            r = np.fmod(signed(a[0], w).astype(np.int64), signed(a[1], w).astype(np.int64))
        else:
            r = unsigned(a[0], w) % unsigned(a[1], w)
        return (wrap(np.asarray(r), w),)

    return run


def _u(fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> IntFn:
    """Modular arithmetic on the unsigned reading (the same bits either way)."""
    return lambda x, y, w: fn(unsigned(x, w), unsigned(y, w))


HANDLERS: dict[type[Operation], Builder] = {
    arith.AddIOp: _binary(_u(np.add)),
    arith.SubIOp: _binary(_u(np.subtract)),
    arith.MulIOp: _binary(_u(np.multiply)),
    arith.MulhiIOp: _binary(_mulhi),
    arith.ShLIOp: _binary(_shift_left),
    arith.ShRIOp: _by_signedness(_shift_right_signed, _shift_right_unsigned),
    arith.AndIOp: _binary(_u(np.bitwise_and)),
    arith.OrIOp: _binary(_u(np.bitwise_or)),
    arith.XOrIOp: _binary(_u(np.bitwise_xor)),
    arith.MaxIOp: _by_signedness(
        lambda x, y, w: np.maximum(signed(x, w), signed(y, w)),
        lambda x, y, w: np.maximum(unsigned(x, w), unsigned(y, w)),
    ),
    arith.MinIOp: _by_signedness(
        lambda x, y, w: np.minimum(signed(x, w), signed(y, w)),
        lambda x, y, w: np.minimum(unsigned(x, w), unsigned(y, w)),
    ),
    arith.DivIOp: _build_divi,
    arith.RemIOp: _build_remi,
    arith.AbsIOp: _unary(lambda x, w: np.abs(signed(x, w))),
    arith.NegIOp: _unary(lambda x, w: np.uint64(0) - unsigned(x, w).astype(np.uint64)),
}

ELEMENTWISE = frozenset(HANDLERS)
"""Ops whose executors work on tiles of any shape (see ``aggregate``)."""
