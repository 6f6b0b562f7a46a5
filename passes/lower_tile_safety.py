"""``lower-tile-safety``: the last rung of bounds checking, and the exit from ``tile_safety``."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.attributes import ComparisonPredicate, Signedness
from safetile.dialects.cuda_tile.ops.arith import AndIOp
from safetile.dialects.cuda_tile.ops.compare import CmpIOp
from safetile.dialects.cuda_tile.ops.control import IfOp, YieldOp
from safetile.dialects.cuda_tile.ops.memory.views import GetIndexSpaceShapeOp
from safetile.dialects.cuda_tile.ops.misc import AssertOp, PrintTkoOp
from safetile.dialects.cuda_tile.ops.shape import ConstantOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.types import TileType, TileViewType, TokenType
from safetile.passes.analyses.locations import OpDiagnostic


@dataclass(frozen=True)
class LowerTileSafety(ModulePass):
    """Lower tile_safety index checks to in-kernel asserts; strip tile_safety attributes.

    Invariant established: afterwards the module is pure ``cuda_tile`` — no
    ``tile_safety`` op is left and no op carries a ``tile_safety.*``
    attribute, so NVIDIA's tools accept it.

    Each remaining ``tile_safety.check_index %i, %view[d], "what"`` (one the
    earlier safety passes could not discharge or hoist) becomes the
    in-kernel check, every op located where the check was::

        %n:k = get_index_space_shape %view
        %lo = cmpi greater_than_or_equal %i, 0 signed
        %hi = cmpi less_than %i, %n#d signed
        %ok = andi %lo, %hi
        if %ok {} else {
          print_tko "what: tile index %d is outside [0, %d) in dimension d\n", %i, %n#d
        }
        assert %ok, "what: tile index out of range in dimension d"

    The print shows the failing index and the bound (an assert message is
    static text); the assert's location names the access (the bytecode
    writer puts it in front of the device's message).

    An ``entry`` marked ``tile_safety.deny_in_kernel_checks`` refuses this
    rung: a check left in it is an error at the access.
    """

    name = "lower-tile-safety"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(LowerCheckIndex(), apply_recursively=False).rewrite_module(op)
        for o in op.walk():
            for name in [n for n in o.attributes if tile_safety.is_safety_attribute(n)]:
                del o.attributes[name]


class LowerCheckIndex(RewritePattern):
    """One ``tile_safety.check_index`` to its in-kernel check (see ``LowerTileSafety``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, check: tile_safety.CheckIndexOp, rewriter: PatternRewriter) -> None:
        entry = _entry_of(check)
        if entry is not None and tile_safety.DENY_IN_KERNEL_CHECKS in entry.attributes:
            raise OpDiagnostic(
                check,
                f"{check.message.data}: this index check needs an in-kernel assert, but "
                f"@{entry.sym_name.data} is compiled with deny_in_kernel_checks",
            )
        rewriter.replace(check, _in_kernel_check(check), new_results=[])


def _entry_of(op: Operation) -> EntryOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, EntryOp):
        parent = parent.parent_op()
    return parent


def _in_kernel_check(check: tile_safety.CheckIndexOp) -> list[Operation]:
    """The ops that check ``check``'s obligation in the kernel, located where it is."""
    view = check.view.type
    index = check.index.type
    assert isinstance(view, TileViewType) and isinstance(index, TileType)
    counts = GetIndexSpaceShapeOp.build(
        operands=[check.view], result_types=[[index] * view.index_rank()]
    )
    zero = ConstantOp.splat(index, 0)
    low = CmpIOp(ComparisonPredicate.GREATER_THAN_OR_EQUAL, check.index, zero.result, Signedness.SIGNED)
    high = CmpIOp(
        ComparisonPredicate.LESS_THAN,
        check.index,
        counts.results[check.dim.value.data],
        Signedness.SIGNED,
    )
    both = AndIOp.build(operands=[low.result, high.result], result_types=[low.result.type])
    what, dim = check.message.data, check.dim.value.data
    show = PrintTkoOp.build(
        operands=[[check.index, counts.results[dim]], []],
        result_types=[TokenType()],
        properties={"str": StringAttr(f"{what}: tile index %d is outside [0, %d) in dimension {dim}\n")},
    )
    report = IfOp(both.results[0], [], Region(Block([YieldOp()])), Region(Block([show, YieldOp()])))
    message = StringAttr(f"{what}: tile index out of range in dimension {dim}")
    ok = AssertOp.build(operands=[both.results[0]], properties={"message": message})
    made = [counts, zero, low, high, both, report, ok]
    for op in made:
        for inner in op.walk():
            inner.location = check.location
    return made
