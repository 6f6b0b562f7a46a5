"""Executors of the ``arith`` ops: element-wise integer and float arithmetic.

Integers: results are exact: add/sub/mul/neg/shl wrap modulo ``2**width``;
``signed``/``unsigned`` ops read their operands accordingly (``i1`` signed is
0/-1).  The ``overflow`` flags are promises to the compiler and do not change
the result.  Shifts by the width or more give the value shifted out completely
(0, or the sign for a signed right shift).  Division or remainder by zero is
an ``UndefinedBehaviorError``; ``MIN / -1`` wraps to ``MIN``.

Floats: ``addf``, ``subf``, ``mulf``, ``divf``, ``fma`` (except f64 ``fma``:
faithfully rounded, within one ulp), ``absf``, ``negf``, ``remf`` and
``maxf``/``minf`` (NaN and signed-zero rules included) are exact, correctly
rounded in every rounding mode for f16, bf16, f32 and f64, with
``flush_to_zero``.  ``approx`` and ``full`` are computed exactly too (the
device may differ by its documented error, 2 ulp).  ``fpowf``/``pow`` and
``fpowi`` are numpy's float64 power rounded once (approximate).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import Float32Type, Float64Type
from xdsl.ir import Attribute, Operation

from safetile.dialects.cuda_tile.attributes import RoundingMode, Signedness
from safetile.dialects.cuda_tile.ops import arith

from safetile.backend import floats
from ..engine import Builder, Executor, Frame, Program
from ..errors import UndefinedBehaviorError
from safetile.backend.elements import signed, unsigned, wrap
from .common import element, width
from .math import exact_unary, rounded_function

# --------------------------------------------------------------------------
# Integers
# --------------------------------------------------------------------------

IntFn = Callable[[np.ndarray, np.ndarray, int], np.ndarray]


def _binary(fn: IntFn) -> Builder:
    """An op computing ``fn(lhs, rhs, width)`` (any integer dtype), wrapped."""

    def build(op: Operation, kernel: Program) -> Executor:
        w = width(op.results[0])

        def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
            return (wrap(np.asarray(fn(a[0], a[1], w)), w),)

        return run

    return build


def _by_signedness(on_signed: IntFn, on_unsigned: IntFn) -> Builder:
    """An op whose ``signedness`` picks how the operands are read."""

    def build(op: Operation, kernel: Program) -> Executor:
        w = width(op.results[0])
        fn = on_signed if op.signedness.data == Signedness.SIGNED else on_unsigned

        def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
            return (wrap(np.asarray(fn(a[0], a[1], w)), w),)

        return run

    return build


def _unary(fn: Callable[[np.ndarray, int], np.ndarray]) -> Builder:
    def build(op: Operation, kernel: Program) -> Executor:
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


def _build_divi(op: Operation, kernel: Program) -> Executor:
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


def _build_remi(op: Operation, kernel: Program) -> Executor:
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


# --------------------------------------------------------------------------
# Floats
# --------------------------------------------------------------------------

F64 = np.float64
RNE = RoundingMode.NEAREST_EVEN

Exact = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray | None]]
"""(x, y) in float64 -> (nearest float64 result, sign of the error or None)."""


def _sum(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    return floats.two_sum(x, y)


def _difference(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    return floats.two_sum(x, -y)


def _product(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    return floats.two_prod(x, y)


def _quotient(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    q = x / y
    return q, floats.div_error(x, y, q)


def _rounded(x: np.ndarray, y: np.ndarray, t: Attribute, exact: Exact, mode: RoundingMode) -> np.ndarray:
    """``x op y`` correctly rounded into ``t`` in ``mode``."""
    x64, y64 = x.astype(F64), y.astype(F64)
    s, err = exact(x64, y64)
    overflowed = None
    if isinstance(t, Float64Type):
        overflowed = ~np.isfinite(s) & np.isfinite(x64) & np.isfinite(y64)
        if exact is _quotient:
            overflowed &= y64 != 0
    return floats.round_exact(s, err, t, mode, overflowed)


def add(x: np.ndarray, y: np.ndarray, t: Attribute) -> np.ndarray:
    """``x + y`` rounded to nearest-even (``atomic_rmw_tko addf``)."""
    return _rounded(x, y, t, _sum, RNE)


_NATIVE = {
    _sum: np.add,
    _difference: np.subtract,
    _product: np.multiply,
    _quotient: np.divide,
}


def _float_binary(exact: Exact) -> Builder:
    """``addf``, ``subf``, ``mulf``, ``divf``: rounding mode and flush-to-zero."""

    def build(op: Operation, kernel: Program) -> Executor:
        t = element(op.results[0])
        mode = op.rounding_mode.data
        if mode in (RoundingMode.APPROX, RoundingMode.FULL):
            mode = RNE
        ftz = op.flush_to_zero is not None
        native = _NATIVE[exact] if mode is RNE and isinstance(t, Float32Type | Float64Type) else None

        def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
            x, y = a
            if ftz:
                x, y = floats.flush_subnormals(x), floats.flush_subnormals(y)
            r = native(x, y) if native is not None else _rounded(x, y, t, exact, mode)
            return (floats.flush_subnormals(r) if ftz else r,)

        return run

    return build


def _build_fma(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, arith.FmaOp)
    t = element(op.result)
    mode = op.rounding_mode.data
    ftz = op.flush_to_zero is not None

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        x, y, z = a
        if ftz:
            x, y, z = (floats.flush_subnormals(v) for v in (x, y, z))
        x64, y64, z64 = x.astype(F64), y.astype(F64), z.astype(F64)
        if isinstance(t, Float64Type):
            p, pe = floats.two_prod(x64, y64)
            s, se = floats.two_sum(p, z64)
            tail = se + pe
            r = s + tail
            r = floats.adjust_f64(r, (s - r) + tail, mode)
        else:
            s, err = floats.two_sum(x64 * y64, z64)  # the product is exact
            r = floats.round_to_format(s, t, mode, err)
        return (floats.flush_subnormals(r) if ftz else r,)

    return run


def _extremum(pick_greater: bool) -> Builder:
    """``maxf``/``minf``: IEEE maximum(Number)/minimum(Number), +0 > -0."""

    def build(op: Operation, kernel: Program) -> Executor:
        propagate = op.propagate_nan is not None
        ftz = op.flush_to_zero is not None
        nan = np.array(np.nan, dtype=floats.carrier_of(element(op.results[0])))

        def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
            x, y = a
            if ftz:
                x, y = floats.flush_subnormals(x), floats.flush_subnormals(y)
            first = x > y if pick_greater else x < y
            r = np.where(first, x, y)
            # Equal values differ only in the sign of zero.
            tie = x == y
            keep_x = np.signbit(y) if pick_greater else np.signbit(x)
            r = np.where(tie & keep_x, x, r)
            xn, yn = np.isnan(x), np.isnan(y)
            if propagate:
                r = np.where(xn | yn, nan, r)
            else:
                r = np.where(xn, y, np.where(yn, x, r))
                r = np.where(xn & yn, nan, r)
            return (r,)

        return run

    return build


def _build_remf(op: Operation, kernel: Program) -> Executor:
    t = element(op.results[0])

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        # fmod is exact, so rounding only changes the carrier type.
        return (np.fmod(a[0].astype(F64), a[1].astype(F64)).astype(floats.carrier_of(t)),)

    return run


def _build_fpowi(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, arith.FPowIOp)
    t = element(op.result)
    w = width(op.exponent)

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        exponent = signed(a[1], w).astype(F64)  # the exponent is a signed integer
        return (floats.round_to_format(np.power(a[0].astype(F64), exponent), t),)

    return run


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
    arith.AddFOp: _float_binary(_sum),
    arith.SubFOp: _float_binary(_difference),
    arith.MulFOp: _float_binary(_product),
    arith.DivFOp: _float_binary(_quotient),
    arith.FmaOp: _build_fma,
    arith.RemFOp: _build_remf,
    arith.MaxFOp: _extremum(pick_greater=True),
    arith.MinFOp: _extremum(pick_greater=False),
    arith.AbsFOp: exact_unary(np.abs),
    arith.NegFOp: exact_unary(np.negative),
    arith.FPowFOp: rounded_function(np.power),
    arith.PowOp: rounded_function(np.power),
    arith.FPowIOp: _build_fpowi,
}

ELEMENTWISE = frozenset(HANDLERS)
"""Ops whose executors work on tiles of any shape (see ``reduction``)."""
