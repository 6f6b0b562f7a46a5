"""Executors of the ``math`` ops: element-wise float functions.

Exact (correctly rounded in every rounding mode, for f16, bf16, f32 and
f64): ``sqrt`` (``approx`` computed as ``nearest_even``: more precise than the
device's documented error), ``ceil`` and ``floor``.

Approximate (numpy's float64 function, rounded once to the element type;
the device's CUDA math functions may differ by an ulp or two): ``exp``,
``exp2``, ``log``, ``log2``, ``sin``, ``cos``, ``tan``, ``sinh``, ``cosh``,
``tanh``, ``rsqrt``, ``atan2``.

``exact_unary`` and ``rounded_function`` also build ``arith``'s ``absf``,
``negf``, ``fpowf`` and ``pow``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.ir import Operation

from safetile.dialects.cuda_tile.attributes import RoundingMode
from safetile.dialects.cuda_tile.ops import math

from safetile.backend import floats
from ..engine import Builder, Executor, Frame, Program
from .common import element

F64 = np.float64


def exact_unary(fn: Callable[[np.ndarray], np.ndarray]) -> Builder:
    """Ops exact on the carrier itself (``absf``, ``negf``, ``ceil``, ``floor``)."""

    def build(op: Operation, kernel: Program) -> Executor:
        def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
            return (fn(a[0]),)

        return run

    return build


def rounded_function(fn: Callable[..., np.ndarray], *, has_ftz: bool = False) -> Builder:
    """A function evaluated in float64 and rounded once to the element type."""

    def build(op: Operation, kernel: Program) -> Executor:
        t = element(op.results[0])
        ftz = has_ftz and op.flush_to_zero is not None

        def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
            args = [floats.flush_subnormals(v) if ftz else v for v in a]
            r = floats.round_to_format(fn(*(v.astype(F64) for v in args)), t)
            return (floats.flush_subnormals(r) if ftz else r,)

        return run

    return build


def _build_sqrt(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, math.SqrtOp)
    t = element(op.result)
    mode = RoundingMode.NEAREST_EVEN if op.rounding_mode.data is RoundingMode.APPROX else op.rounding_mode.data
    ftz = op.flush_to_zero is not None

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        x = floats.flush_subnormals(a[0]) if ftz else a[0]
        x64 = x.astype(F64)
        s = np.sqrt(x64)
        r = floats.round_exact(s, floats.sqrt_error(x64, s), t, mode)
        return (floats.flush_subnormals(r) if ftz else r,)

    return run


def _rsqrt(x: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(x)


HANDLERS: dict[type[Operation], Builder] = {
    math.CeilOp: exact_unary(np.ceil),
    math.FloorOp: exact_unary(np.floor),
    math.CosOp: rounded_function(np.cos),
    math.CosHOp: rounded_function(np.cosh),
    math.SinOp: rounded_function(np.sin),
    math.SinHOp: rounded_function(np.sinh),
    math.TanOp: rounded_function(np.tan),
    math.TanHOp: rounded_function(np.tanh),
    math.ExpOp: rounded_function(np.exp),
    math.Exp2Op: rounded_function(np.exp2, has_ftz=True),
    math.LogOp: rounded_function(np.log),
    math.Log2Op: rounded_function(np.log2),
    math.RsqrtOp: rounded_function(_rsqrt, has_ftz=True),
    math.SqrtOp: _build_sqrt,
    math.Atan2Op: rounded_function(np.arctan2),
}

ELEMENTWISE = frozenset(HANDLERS)
"""Ops whose executors work on tiles of any shape (see ``reduction``)."""
