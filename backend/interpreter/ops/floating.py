"""Element-wise float ops: arithmetic with rounding modes, and math functions.

Exact (correctly rounded in every rounding mode, for f16, bf16, f32 and
f64): ``addf``, ``subf``, ``mulf``, ``divf``, ``sqrt``, ``fma`` (except f64
``fma``: faithfully rounded, within one ulp), ``absf``, ``negf``, ``remf``,
``maxf``/``minf`` (NaN and signed-zero rules included), ``ceil``, ``floor``,
and ``flush_to_zero``.  ``approx`` and ``full`` are computed exactly too (the
device may differ by its documented error, 2 ulp).

Approximate (numpy's float64 function, rounded once to the element type;
the device's CUDA math functions may differ by an ulp or two): ``exp``,
``exp2``, ``log``, ``log2``, ``sin``, ``cos``, ``tan``, ``sinh``, ``cosh``,
``tanh``, ``rsqrt``, ``atan2``, ``fpowf``/``pow``, ``fpowi``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import Float32Type, Float64Type
from xdsl.ir import Attribute, Operation

from safetile.dialects.cuda_tile.attributes import RoundingMode
from safetile.dialects.cuda_tile.ops import arith, math

from .. import floats
from ..engine import Builder, Executor, Frame, Kernel
from ..values import signed
from .common import element, width

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


def round_exact(
    s: np.ndarray,
    err: np.ndarray | None,
    t: Attribute,
    mode: RoundingMode,
    overflowed: np.ndarray | None = None,
) -> np.ndarray:
    """A float64 result ``s`` (off by ``err``) rounded into type ``t``."""
    if isinstance(t, Float64Type):
        return s if err is None else floats.adjust_f64(s, err, mode, overflowed)
    return floats.round_to_format(s, t, mode, err)


def binary(x: np.ndarray, y: np.ndarray, t: Attribute, exact: Exact, mode: RoundingMode) -> np.ndarray:
    """``x op y`` correctly rounded into ``t`` in ``mode``."""
    x64, y64 = x.astype(F64), y.astype(F64)
    s, err = exact(x64, y64)
    overflowed = None
    if isinstance(t, Float64Type):
        overflowed = ~np.isfinite(s) & np.isfinite(x64) & np.isfinite(y64)
        if exact is _quotient:
            overflowed &= y64 != 0
    return round_exact(s, err, t, mode, overflowed)


def add(x: np.ndarray, y: np.ndarray, t: Attribute) -> np.ndarray:
    """``x + y`` rounded to nearest-even (``atomic_rmw_tko addf``)."""
    return binary(x, y, t, _sum, RNE)


_NATIVE = {
    _sum: np.add,
    _difference: np.subtract,
    _product: np.multiply,
    _quotient: np.divide,
}


def _arith(exact: Exact) -> Builder:
    """``addf``, ``subf``, ``mulf``, ``divf``: rounding mode and flush-to-zero."""

    def build(op: Operation, kernel: Kernel) -> Executor:
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
            r = native(x, y) if native is not None else binary(x, y, t, exact, mode)
            return (floats.flush_subnormals(r) if ftz else r,)

        return run

    return build


def _build_fma(op: Operation, kernel: Kernel) -> Executor:
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

    def build(op: Operation, kernel: Kernel) -> Executor:
        propagate = op.propagate_nan is not None
        ftz = op.flush_to_zero is not None
        nan = np.array(np.nan, dtype=element_carrier(op))

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


def element_carrier(op: Operation) -> np.dtype:
    return floats.carrier_of(element(op.results[0]))


def _exact_unary(fn: Callable[[np.ndarray], np.ndarray]) -> Builder:
    """Ops exact on the carrier itself (``absf``, ``negf``, ``ceil``, ``floor``)."""

    def build(op: Operation, kernel: Kernel) -> Executor:
        def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
            return (fn(a[0]),)

        return run

    return build


def _function(fn: Callable[..., np.ndarray], *, has_ftz: bool = False) -> Builder:
    """A math function evaluated in float64 and rounded once."""

    def build(op: Operation, kernel: Kernel) -> Executor:
        t = element(op.results[0])
        ftz = has_ftz and op.flush_to_zero is not None

        def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
            args = [floats.flush_subnormals(v) if ftz else v for v in a]
            r = floats.round_to_format(fn(*(v.astype(F64) for v in args)), t)
            return (floats.flush_subnormals(r) if ftz else r,)

        return run

    return build


def _build_sqrt(op: Operation, kernel: Kernel) -> Executor:
    assert isinstance(op, math.SqrtOp)
    t = element(op.result)
    mode = RNE if op.rounding_mode.data is RoundingMode.APPROX else op.rounding_mode.data
    ftz = op.flush_to_zero is not None

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        x = floats.flush_subnormals(a[0]) if ftz else a[0]
        x64 = x.astype(F64)
        s = np.sqrt(x64)
        r = round_exact(s, floats.sqrt_error(x64, s), t, mode)
        return (floats.flush_subnormals(r) if ftz else r,)

    return run


def _build_remf(op: Operation, kernel: Kernel) -> Executor:
    t = element(op.results[0])

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        # fmod is exact, so rounding only changes the carrier type.
        return (np.fmod(a[0].astype(F64), a[1].astype(F64)).astype(floats.carrier_of(t)),)

    return run


def _rsqrt(x: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(x)


def _build_fpowi(op: Operation, kernel: Kernel) -> Executor:
    assert isinstance(op, arith.FPowIOp)
    t = element(op.result)
    w = width(op.exponent)

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        exponent = signed(a[1], w).astype(F64)  # the exponent is a signed integer
        return (floats.round_to_format(np.power(a[0].astype(F64), exponent), t),)

    return run


HANDLERS: dict[type[Operation], Builder] = {
    arith.AddFOp: _arith(_sum),
    arith.SubFOp: _arith(_difference),
    arith.MulFOp: _arith(_product),
    arith.DivFOp: _arith(_quotient),
    arith.FmaOp: _build_fma,
    arith.RemFOp: _build_remf,
    arith.MaxFOp: _extremum(pick_greater=True),
    arith.MinFOp: _extremum(pick_greater=False),
    arith.AbsFOp: _exact_unary(np.abs),
    arith.NegFOp: _exact_unary(np.negative),
    arith.FPowFOp: _function(np.power),
    arith.PowOp: _function(np.power),
    arith.FPowIOp: _build_fpowi,
    math.CeilOp: _exact_unary(np.ceil),
    math.FloorOp: _exact_unary(np.floor),
    math.CosOp: _function(np.cos),
    math.CosHOp: _function(np.cosh),
    math.SinOp: _function(np.sin),
    math.SinHOp: _function(np.sinh),
    math.TanOp: _function(np.tan),
    math.TanHOp: _function(np.tanh),
    math.ExpOp: _function(np.exp),
    math.Exp2Op: _function(np.exp2, has_ftz=True),
    math.LogOp: _function(np.log),
    math.Log2Op: _function(np.log2),
    math.RsqrtOp: _function(_rsqrt, has_ftz=True),
    math.SqrtOp: _build_sqrt,
    math.Atan2Op: _function(np.arctan2),
}

ELEMENTWISE = frozenset(HANDLERS)
"""Ops whose executors work on tiles of any shape (see ``aggregate``)."""
