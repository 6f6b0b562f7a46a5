"""Structured control flow: ``for``, ``loop``, ``if`` and their terminators.

* ``for`` counts an induction variable over ``[lower_bound, upper_bound)``;
  its body ends in ``continue``.
* ``loop`` runs until a ``break``; every path of its body ends in
  ``continue`` (next iteration) or ``break`` (leave the loop).
* ``if`` runs one of two regions; a branch ends in ``yield`` or, as an early
  exit, in ``continue``/``break`` (of the innermost enclosing loop) or
  ``return`` (of the kernel).

Implicit terminators follow NVIDIA's ``SingleBlockImplicitTerminator`` with
``ControlFlowImplicitTerminatorOpType``: parsing a region without a terminator
appends an operand-less ``continue`` (for, loop) or ``yield`` (if), and the
printer omits exactly such operand-less implicit terminators.

Parent checks name ops rather than classes: ``yield`` also ends the bodies of
``reduce`` and ``scan`` (another family), and ``return`` (``structure``) may end
an ``if`` branch, so classes would make the op modules import each other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from xdsl.dialects.builtin import UnitAttr, i1
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrConstraint,
    IntConstraint,
    VarConstraint,
    VerificationContext,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    IsTerminator,
    OpTrait,
    Pure,
    RecursiveMemoryEffect,
    ReturnLike,
)
from xdsl.utils.exceptions import VerifyException

from ..diagnostics import NotedError, quoted, quoted_types
from ..syntax import TileIRParser
from ..types import CudaTileType, TensorViewType, TileType, TileViewType, is_number
from ._common import CudaTileOp, ScalarBoolTile, ScalarIntTile

# --------------------------------------------------------------------------
# Traits
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class ParentOneOf(OpTrait):
    """MLIR's ``ParentOneOf``: the op's direct parent is one of ``names``."""

    names: tuple[str, ...]

    def verify(self, op: Operation) -> None:
        parent = op.parent_op()
        if parent is None or parent.name in self.names:
            return
        if len(self.names) == 1:
            raise VerifyException(f"expects parent op '{self.names[0]}'")
        raise VerifyException(
            f"expects parent op to be one of '{', '.join(self.names)}'"
        )


@dataclass(frozen=True)
class ImplicitTerminator(OpTrait):
    """Single-block regions ending in ``implicit`` (added when absent) or ``others``.

    NVIDIA's ``SingleBlockImplicitTerminator<...>``; an empty region (the
    missing ``else`` of an ``if``) is allowed.
    """

    implicit: str
    others: tuple[str, ...] = ()

    def verify(self, op: Operation) -> None:
        for i, region in enumerate(op.regions):
            if not region.blocks:
                continue
            if len(region.blocks) > 1:
                raise VerifyException(f"expects region #{i} to have 0 or 1 blocks")
            last = region.block.last_op
            if last is None:
                raise VerifyException("expects a non-empty block")
            if last.name != self.implicit and last.name not in self.others:
                raise VerifyException(
                    f"expects regions to end with '{self.implicit}', "
                    f"found '{last.name}'"
                )


def ensure_terminator(
    parser: Parser, region: Region, terminator: type[Operation], pos: int
) -> None:
    """Append ``terminator()`` to a parsed region that lacks a terminator.

    Like MLIR's ``ensureRegionTerminator``, an empty region gets a block.  The
    new op is placed where the op being parsed starts (its location, as MLIR's).
    """
    if not region.blocks:
        region.add_block(Block())
    if len(region.blocks) > 1:
        parser.raise_error(
            "expected a region with one block: Tile IR has no branches, use "
            "'if', 'for' or 'loop' instead",
            pos,
        )
    block = region.block
    last = block.last_op
    if last is not None and last.has_trait(IsTerminator):
        return
    op = terminator()
    block.add_op(op)
    if isinstance(parser, TileIRParser):
        parser.add_implicit_terminator(op)


def _print_body(
    printer: Printer, region: Region, implicit: type[Operation]
) -> None:
    """Print a control-flow body, omitting an operand-less implicit terminator."""
    last = region.block.last_op
    elide = isinstance(last, implicit) and not last.operands
    printer.print_region(
        region, print_entry_block_args=False, print_block_terminators=not elide
    )


def _print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


# --------------------------------------------------------------------------
# Constraints and verifier helpers
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class _AnyTileIRType(AttrConstraint):
    """``CudaTile_AnyType``: any ``cuda_tile`` type, or a number type."""

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not (isinstance(attr, CudaTileType) or is_number(attr)):
            raise VerifyException(f"expected a cuda_tile type, got {attr}")

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> _AnyTileIRType:
        return self


AnyTileIRType = _AnyTileIRType()
_BOOL = TileType((), i1)


def _verify_not_view(what: str, index: int, t: Attribute) -> None:
    """Loop-carried values and results of for/loop/if may not be views."""
    if isinstance(t, TensorViewType):
        raise VerifyException(f"{what} {index} is a tensor_view, which is not supported")
    if isinstance(t, TileViewType):
        raise VerifyException(f"{what} {index} is a tile view, which is not supported")


def _verify_loop_iter_values(
    inits: Sequence[SSAValue], iter_values: Sequence[SSAValue], results: Sequence[SSAValue]
) -> None:
    """``verifyLoopIterValues``: block arguments mirror the loop's init values."""
    if len(iter_values) != len(inits):
        raise VerifyException(
            "mismatch in number of region iterator values and loop iterator "
            f"inits: {len(iter_values)} vs {len(inits)}"
        )
    for i, (init, arg) in enumerate(zip(inits, iter_values)):
        _verify_not_view("loop-carried value", i, arg.type)
        if init.type != arg.type:
            raise VerifyException(
                f"init value {i} and region iter_value {i} have different type: "
                f"{quoted(init.type)} != {quoted(arg.type)}"
            )
    for i, result in enumerate(results):
        _verify_not_view("result type", i, result.type)


def _enclosing_loop(op: Operation, loops: tuple[str, ...]) -> Operation | None:
    """The loop an early exit returns to, through any chain of ``if`` ops.

    ``verifyEarlyExitOp``: only ``if`` ops may stand between ``op`` and the
    loop.  ``None`` when ``op`` is detached (its parent check covers the rest).
    """
    parent = op.parent_op()
    while parent is not None and parent.name not in loops:
        if not isinstance(parent, IfOp):
            names = "', '".join((*loops, IfOp.name))
            raise NotedError(
                f"can only be nested within a ancestor chain of '{names}' operations",
                [(parent, "see unexpected ancestor operation")],
            )
        parent = parent.parent_op()
    return parent


# --------------------------------------------------------------------------
# Parsing helpers
# --------------------------------------------------------------------------


def _parse_iter_values(
    parser: Parser,
) -> tuple[list[Parser.UnresolvedArgument], list[UnresolvedOperand]]:
    """``(%arg = %init, ...)``: the region arguments and their init values."""
    pairs: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []

    def pair() -> None:
        arg = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        pairs.append((arg, parser.parse_unresolved_operand()))

    parser.parse_comma_separated_list(parser.Delimiter.PAREN, pair)
    return [a for a, _ in pairs], [v for _, v in pairs]


def _print_iter_values(
    printer: Printer, args: Sequence[SSAValue], inits: Sequence[SSAValue]
) -> None:
    """``iter_values(%arg = %init, ...)`` (``printLoopIteratorValues``)."""
    printer.print_string("iter_values(")
    for i, (arg, init) in enumerate(zip(args, inits)):
        if i:
            printer.print_string(", ")
        printer.print_ssa_value(arg)
        printer.print_string(" = ")
        printer.print_ssa_value(init)
    printer.print_string(")")


def _parse_type_list(parser: Parser) -> list[Attribute]:
    return parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)


def _add_attr_dict(parser: Parser, op: Operation) -> None:
    op.attributes |= parser.parse_optional_attr_dict()


# --------------------------------------------------------------------------
# Terminators
# --------------------------------------------------------------------------


class TerminatorOp(CudaTileOp):
    """``op %v, ... : T, ...``: a terminator handing values to its parent."""

    operands_ = var_operand_def(AnyTileIRType)
    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


@irdl_op_definition
class YieldOp(TerminatorOp):
    """``yield %v, ... : T, ...``: hand values back to an ``if``, ``reduce`` or ``scan``."""

    name = "cuda_tile.yield"
    traits = traits_def(
        Pure(),
        ReturnLike(),
        IsTerminator(),
        ParentOneOf(("cuda_tile.if", "cuda_tile.reduce", "cuda_tile.scan")),
    )


@irdl_op_definition
class ContinueOp(TerminatorOp):
    """``continue %v, ... : T, ...``: start the enclosing loop's next iteration."""

    name = "cuda_tile.continue"
    traits = traits_def(
        IsTerminator(),
        ParentOneOf(("cuda_tile.for", "cuda_tile.if", "cuda_tile.loop")),
    )

    def verify_(self) -> None:
        loop = _enclosing_loop(self, (ForOp.name, LoopOp.name))
        found = quoted_types(self.operands_.types)
        if isinstance(loop, LoopOp):
            if loop.init_values.types != self.operands_.types:
                raise VerifyException(
                    "`loop` is missing a valid terminator. `continue` op should have "
                    "operand types that match the parent loop iter_values: "
                    f"({quoted_types(loop.init_values.types)}), but found: ({found})"
                )
        elif isinstance(loop, ForOp):
            if loop.result_values.types != self.operands_.types:
                raise VerifyException(
                    "`for` is missing a valid terminator. `continue` op should have "
                    "operand types that match the parent loop return types: "
                    f"({quoted_types(loop.result_values.types)}), but found: ({found})"
                )


@irdl_op_definition
class BreakOp(TerminatorOp):
    """``break %v, ... : T, ...``: leave the enclosing ``loop`` with its results."""

    name = "cuda_tile.break"
    traits = traits_def(
        ReturnLike(),
        IsTerminator(),
        ParentOneOf(("cuda_tile.if", "cuda_tile.loop")),
    )

    def verify_(self) -> None:
        loop = _enclosing_loop(self, (LoopOp.name,))
        if loop is not None and loop.result_types != self.operands_.types:
            raise VerifyException(
                "operand types must correspond to the parent loop result types: "
                f"({quoted_types(self.operands_.types)}) vs ({quoted_types(loop.result_types)})"
            )


# --------------------------------------------------------------------------
# Region ops
# --------------------------------------------------------------------------


@irdl_op_definition
class ForOp(CudaTileOp):
    """``for [unsigned] %iv in (%lb to %ub, step %s) : T [iter_values(...) -> (...)]``.

    Runs its body for ``iv`` = ``lb``, ``lb + step``, ... while ``iv < ub``
    (signed comparison unless ``unsigned``), carrying ``init_values`` through
    the iterations; the results are their final values.
    """

    name = "cuda_tile.for"
    ODS_NAMES: ClassVar = {"lower_bound": "lowerBound", "upper_bound": "upperBound"}
    T: ClassVar = VarConstraint("T", ScalarIntTile)
    lower_bound = operand_def(T)
    upper_bound = operand_def(T)
    step = operand_def(T)
    init_values = var_operand_def()
    unsigned_cmp = opt_prop_def(UnitAttr)  # 13.2
    result_values = var_result_def()
    region = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), ImplicitTerminator(ContinueOp.name))

    def __init__(
        self,
        lower_bound: SSAValue | Operation,
        upper_bound: SSAValue | Operation,
        step: SSAValue | Operation,
        init_values: Sequence[SSAValue | Operation] = (),
        body: Region | None = None,
        unsigned_cmp: bool = False,
    ):
        inits = [SSAValue.get(v) for v in init_values]
        if body is None:
            # Block arguments named as NVIDIA's getAsmBlockArgumentNames does.
            iv_type = SSAValue.get(lower_bound).type
            block = Block(arg_types=[iv_type, *(v.type for v in inits)])
            block.args[0].name_hint = "loopIdx"
            for i, arg in enumerate(block.args[1:]):
                arg.name_hint = f"iterArg{i}"
            if not inits:
                block.add_op(ContinueOp())
            body = Region(block)
        super().__init__(
            operands=[lower_bound, upper_bound, step, inits],
            result_types=[[v.type for v in inits]],
            properties={"unsigned_cmp": UnitAttr()} if unsigned_cmp else {},
            regions=[body],
        )

    @property
    def induction_var(self) -> SSAValue:
        return self.region.block.args[0]

    @property
    def iter_args(self) -> Sequence[SSAValue]:
        return self.region.block.args[1:]

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        start = parser.pos
        unsigned = parser.parse_optional_keyword("unsigned") is not None
        iv = parser.parse_argument(expect_type=False)
        parser.parse_keyword("in")
        parser.parse_punctuation("(")
        bounds = [parser.parse_unresolved_operand()]
        parser.parse_keyword("to")
        bounds.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(",")
        parser.parse_keyword("step")
        bounds.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(")")
        parser.parse_punctuation(":")
        iv_type = parser.parse_type()
        args = [iv.resolve(iv_type)]
        init_operands: list[UnresolvedOperand] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_values") is not None:
            pos = parser.pos
            iter_args, init_operands = _parse_iter_values(parser)
            parser.parse_punctuation("->")
            types = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_type
            )
            if len(types) != len(init_operands):
                parser.raise_error(
                    "mismatch in number of loop-carried values and defined values", pos
                )
            args += [a.resolve(t) for a, t in zip(iter_args, types)]
        body = parser.parse_region(args)
        # Operands are resolved after the body, as MLIR's parser does: a name
        # defined only inside the body is then undeclared here.
        inits = [parser.resolve_operand(v, t) for v, t in zip(init_operands, types)]
        operands = [parser.resolve_operand(b, iv_type) for b in bounds]
        ensure_terminator(parser, body, ContinueOp, start)
        op = cls(*operands, inits, body, unsigned)
        _add_attr_dict(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        if self.unsigned_cmp is not None:
            printer.print_string(" unsigned")
        printer.print_string(" ")
        printer.print_ssa_value(self.induction_var)
        printer.print_string(" in (")
        printer.print_operand(self.lower_bound)
        printer.print_string(" to ")
        printer.print_operand(self.upper_bound)
        printer.print_string(", step ")
        printer.print_operand(self.step)
        printer.print_string(") : ")
        printer.print_attribute(self.induction_var.type)
        printer.print_string(" ")
        if self.init_values:
            _print_iter_values(printer, self.iter_args, self.init_values)
            printer.print_string(" -> (")
            _print_types(printer, self.init_values.types)
            printer.print_string(") ")
        _print_body(printer, self.region, ContinueOp)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.init_values.types != self.result_values.types:
            raise VerifyException(
                "failed to verify that all of {initValues, resultValues} have same type"
            )

    def verify_regions(self) -> None:
        args = self.region.block.args
        if not args:
            raise VerifyException(
                "expected at least one block argument for induction variable"
            )
        if args[0].type != self.lower_bound.type:
            raise VerifyException(
                "expected induction variable to be same type as bounds and step: "
                f"{quoted(args[0].type)} vs {quoted(self.lower_bound.type)}"
            )
        _verify_loop_iter_values(self.init_values, args[1:], self.result_values)


@irdl_op_definition
class LoopOp(CudaTileOp):
    """``loop [iter_values(...)] [: T... [-> R...]] { ... }``: repeat until ``break``.

    Each ``continue`` passes the next iteration's values (typed like
    ``init_values``); ``break`` passes the results (typed like ``result_values``).
    """

    name = "cuda_tile.loop"
    init_values = var_operand_def()
    result_values = var_result_def()
    region = region_def("single_block")
    traits = traits_def(
        RecursiveMemoryEffect(),
        ImplicitTerminator(ContinueOp.name, (BreakOp.name,)),
    )

    def __init__(
        self,
        init_values: Sequence[SSAValue | Operation] = (),
        result_types: Sequence[Attribute] = (),
        body: Region | None = None,
    ):
        inits = [SSAValue.get(v) for v in init_values]
        if body is None:
            body = Region(Block(arg_types=[v.type for v in inits]))
        super().__init__(operands=[inits], result_types=[result_types], regions=[body])

    @classmethod
    def parse(cls, parser: Parser) -> LoopOp:
        start = parser.pos
        args: list[Parser.Argument] = []
        init_operands: list[UnresolvedOperand] = []
        iter_types: list[Attribute] = []
        result_types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_values") is None:
            if parser.parse_optional_punctuation(":") is not None:
                result_types = _parse_type_list(parser)
        else:
            iter_args, init_operands = _parse_iter_values(parser)
            parser.parse_punctuation(":")
            iter_types = _parse_type_list(parser)
            if len(iter_types) != len(iter_args):
                parser.raise_error("found different number of iter_values and types")
            if parser.parse_optional_punctuation("->") is not None:
                result_types = _parse_type_list(parser)
            args = [a.resolve(t) for a, t in zip(iter_args, iter_types)]
        body = parser.parse_region(args)
        # After the body, as MLIR's parser does (see ForOp.parse).
        inits = [parser.resolve_operand(v, t) for v, t in zip(init_operands, iter_types)]
        ensure_terminator(parser, body, ContinueOp, start)
        op = cls(inits, result_types, body)
        _add_attr_dict(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.init_values:
            _print_iter_values(printer, self.region.block.args, self.init_values)
            printer.print_string(" ")
        if self.init_values or self.result_values:
            printer.print_string(": ")
        if self.init_values:
            _print_types(printer, self.init_values.types)
            printer.print_string(" ")
            if self.result_values:
                printer.print_string("-> ")
        if self.result_values:
            _print_types(printer, self.result_values.types)
            printer.print_string(" ")
        _print_body(printer, self.region, ContinueOp)
        printer.print_op_attributes(self.attributes)

    def verify_regions(self) -> None:
        _verify_loop_iter_values(
            self.init_values, self.region.block.args, self.result_values
        )


@irdl_op_definition
class IfOp(CudaTileOp):
    """``if %cond [-> (T, ...)] { ... } [else { ... }]``: run one branch.

    With results, both branches end in ``yield`` of values of the result types
    (or leave early with ``continue``/``break``/``return``).
    """

    name = "cuda_tile.if"
    condition = operand_def(ScalarBoolTile)
    results_ = var_result_def()
    then_region = region_def("single_block")
    else_region = region_def()
    traits = traits_def(
        RecursiveMemoryEffect(),
        ImplicitTerminator(
            YieldOp.name, (BreakOp.name, ContinueOp.name, "cuda_tile.return")
        ),
    )

    def __init__(
        self,
        condition: SSAValue | Operation,
        result_types: Sequence[Attribute] = (),
        then_region: Region | None = None,
        else_region: Region | None = None,
    ):
        if then_region is None:
            # As NVIDIA's builder: without results the branch can end right away.
            then_region = Region(Block([] if result_types else [YieldOp()]))
        super().__init__(
            operands=[condition],
            result_types=[result_types],
            regions=[then_region, else_region if else_region is not None else Region()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        start = parser.pos
        unresolved = parser.parse_unresolved_operand()
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_type
            )
        then_region = parser.parse_region()
        ensure_terminator(parser, then_region, YieldOp, start)
        else_region = Region()
        if parser.parse_optional_keyword("else") is not None:
            else_region = parser.parse_region()
            ensure_terminator(parser, else_region, YieldOp, start)
        # After the regions, as MLIR's parser does (see ForOp.parse).
        condition = parser.resolve_operand(unresolved, _BOOL)
        op = cls(condition, result_types, then_region, else_region)
        _add_attr_dict(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.condition)
        if self.results_:
            printer.print_string(" -> (")
            _print_types(printer, self.result_types)
            printer.print_string(")")
        printer.print_string(" ")
        _print_body(printer, self.then_region, YieldOp)
        if self.else_region.blocks:
            printer.print_string(" else ")
            _print_body(printer, self.else_region, YieldOp)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        for i, region in enumerate(self.regions):
            if region.blocks and region.block.args:
                raise VerifyException(f"region #{i} should have no arguments")
        for i, t in enumerate(self.result_types):
            _verify_not_view("result type", i, t)
        self._verify_branch(self.then_region, "then")
        if self.else_region.blocks:
            self._verify_branch(self.else_region, "else")
        elif self.results_:
            raise VerifyException("has non-empty return type, must define else branch")

    def _verify_branch(self, region: Region, name: str) -> None:
        """A branch ending in ``yield`` yields values of the result types."""
        last = region.block.last_op
        if not isinstance(last, YieldOp):
            return
        yielded = last.operands_.types
        results = self.result_types
        if results and not yielded:
            raise VerifyException(
                f"has return type of {quoted_types(results)} but {name} branch "
                "does not yield anything"
            )
        if not results and yielded:
            raise VerifyException(
                f"does not return a value, but {name} branch yields {quoted_types(yielded)}"
            )
        if yielded != results:
            raise VerifyException(
                f"type does not match yield type, {name} branch yields "
                f"{quoted_types(yielded)} but op result type is {quoted_types(results)}"
            )
