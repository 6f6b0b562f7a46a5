"""``fuse-fma``: fuse a multiply and the add or subtract using it into one ``fma``.

NVIDIA's pass of the same name (``FuseFMA.cpp``), for the same IR:

* ``addf (mulf a, b), c``  ->  ``fma a, b, c``
* ``subf (mulf a, b), c``  ->  ``fma a, b, (negf c)``
* ``addf c, (mulf a, b)``  ->  ``addf (mulf a, b), c`` first (addition commutes),
  so the first rule applies.

Each rule fires only when the ``mulf`` has no other use (it is erased) and
when the two ops round the same way: the same ``rounding`` mode and the same
``flush_to_zero``; the ``fma`` keeps both.

Not numerics-preserving: ``a * b + c`` rounds twice and ``fma`` rounds once,
so results may differ in the last bit.  That is why the pass is not part of
safetile's default pipeline; run it with ``tile-opt -p fuse-fma`` (or
``--fuse-fma``).

Invariant established: no ``addf``/``subf`` whose left operand is a
single-use ``mulf`` rounding as it does is left, and no ``addf`` has a
single-use, equally rounding ``mulf`` on its right only.

This module is the model for a rewrite-pattern pass: one ``RewritePattern``
per rule, each matching one op type (``op_type_rewrite_pattern``) and
rewriting through the ``PatternRewriter``; the pass applies them all until
none matches (``PatternRewriteWalker`` over ``GreedyRewritePatternApplier``).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from safetile.dialects.cuda_tile.ops.arith import AddFOp, FmaOp, MulFOp, NegFOp, SubFOp


def _fusable_product(value: SSAValue, op: AddFOp | SubFOp) -> MulFOp | None:
    """The ``mulf`` defining ``value`` if ``op`` may absorb it: ``op`` is its
    only use, and both round the same way (mode and flush-to-zero)."""
    mul = value.owner
    if not isinstance(mul, MulFOp) or not mul.result.has_one_use():
        return None
    if mul.rounding_mode != op.rounding_mode or mul.flush_to_zero != op.flush_to_zero:
        return None
    return mul


def _fma(mul: MulFOp, acc: SSAValue, like: AddFOp | SubFOp) -> FmaOp:
    """``fma mul.lhs, mul.rhs, acc``, rounding as ``like`` does."""
    properties: dict[str, object] = {"rounding_mode": like.rounding_mode}
    if like.flush_to_zero is not None:
        properties["flush_to_zero"] = like.flush_to_zero
    return FmaOp.create(
        operands=[mul.lhs, mul.rhs, acc],
        result_types=[like.result.type],
        properties=properties,  # pyright: ignore[reportArgumentType]
    )


class ProductOnTheLeft(RewritePattern):
    """``addf c, (mulf a, b)`` -> ``addf (mulf a, b), c``: addition commutes, and
    the fusion rules look for the product on the left (NVIDIA applies the
    same reordering, ``AddFOp``'s canonicalization, in this pass)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AddFOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.lhs.owner, MulFOp) or not isinstance(op.rhs.owner, MulFOp):
            return  # already in order, or no product to move
        rewriter.replace(
            op,
            AddFOp.create(
                operands=[op.rhs, op.lhs],
                result_types=[op.result.type],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            ),
        )


class FuseMulAdd(RewritePattern):
    """``addf (mulf a, b), c`` -> ``fma a, b, c``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AddFOp, rewriter: PatternRewriter) -> None:
        mul = _fusable_product(op.lhs, op)
        if mul is None:
            return
        rewriter.replace(op, _fma(mul, op.rhs, op))
        rewriter.erase_op(mul)  # its one use is gone


class FuseMulSub(RewritePattern):
    """``subf (mulf a, b), c`` -> ``fma a, b, (negf c)``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SubFOp, rewriter: PatternRewriter) -> None:
        mul = _fusable_product(op.lhs, op)
        if mul is None:
            return
        negated = NegFOp.create(operands=[op.rhs], result_types=[op.rhs.type])
        new_ops: list[Operation] = [negated, _fma(mul, negated.results[0], op)]
        rewriter.replace(op, new_ops)
        rewriter.erase_op(mul)


@dataclass(frozen=True)
class FuseFma(ModulePass):
    """Fuse mulf+addf and mulf+subf into fma (one rounding instead of two: not numerics-preserving)."""

    name = "fuse-fma"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([ProductOnTheLeft(), FuseMulAdd(), FuseMulSub()])
        ).rewrite_module(op)
