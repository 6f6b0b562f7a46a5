# The pass of docs/tile-opt.md's tutorial ("Writing a pass"), as the docs show it.
from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import OpResult
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from safetile.dialects.cuda_tile.attributes import RoundingMode
from safetile.dialects.cuda_tile.ops.arith import DivFOp, MulFOp
from safetile.dialects.cuda_tile.ops.shape import ConstantOp


def power_of_two_divisor(op: DivFOp) -> float | None:
    """``c`` if the divisor is a splat constant ``c = ±2**k`` whose reciprocal is a normal number."""
    divisor = op.rhs
    if not (isinstance(divisor, OpResult) and isinstance(divisor.op, ConstantOp)):
        return None
    values = {float(v) for v in divisor.op.value.get_values()}
    if len(values) != 1:
        return None
    c = values.pop()
    mantissa, exponent = math.frexp(abs(c)) if c else (0.0, 0)
    return c if mantissa == 0.5 and -120 < exponent < 120 else None


class DivideAsMultiply(RewritePattern):
    """``divf %x, c`` -> ``mulf %x, 1/c`` for a power of two ``c``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DivFOp, rewriter: PatternRewriter) -> None:
        if op.rounding_mode.data != RoundingMode.NEAREST_EVEN or op.flush_to_zero is not None:
            return  # approx/full division or flushing: not the same result
        c = power_of_two_divisor(op)
        if c is None:
            return
        reciprocal = ConstantOp.splat(op.rhs.type, 1.0 / c)
        product = MulFOp.build(operands=[op.lhs, reciprocal.result], result_types=[op.result.type],
                               properties={"rounding_mode": op.rounding_mode})
        rewriter.replace(op, [reciprocal, product])


@dataclass(frozen=True)
class ExactReciprocal(ModulePass):
    """Divide by a power of two as a multiply by its reciprocal (exact)."""

    name = "exact-reciprocal"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(DivideAsMultiply()).rewrite_module(op)
