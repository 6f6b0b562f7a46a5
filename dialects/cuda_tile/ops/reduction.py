"""Reductions and scans with a combiner region (reduce, scan).

Both fold N tiles of one shape along dimension ``dim`` with the combiner in
their body.  The body takes ``2N`` scalar tiles, ``(elem_0, acc_0, elem_1,
acc_1, ...)``, and yields the N new accumulators.  ``identities[i]`` is the
identity element of the combiner for operand ``i``.  Text form::

    %r = reduce %t dim=1 identities=[0.000000e+00 : f32] : tile<8x16xf32> -> tile<8xf32>
    (%elem: tile<f32>, %acc: tile<f32>) {
      %s = addf %elem, %acc : tile<f32>
      yield %s : tile<f32>
    }
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    BoolAttr,
    Float16Type,
    I32,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Block, TypedAttribute
from xdsl.irdl import (
    irdl_op_definition,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect, is_side_effect_free
from xdsl.utils.exceptions import VerifyException

from ..diagnostics import NestedOpError, NotedError, quoted, quoted_types
from ..types import TileType, element_type_of
from ._common import AnyTile, CudaTileOp
from . import control


def _pair(a: Attribute, b: Attribute) -> str:
    return f"{quoted(a)} and {quoted(b)}"


def _tile(t: Attribute) -> TileType:
    """An operand or result type; the ``AnyTile`` constraints made it a tile."""
    assert isinstance(t, TileType)
    return t


def _same_float_bits(a: Attribute, b: Attribute) -> bool:
    """An f16 identity may stand for a bf16 operand and vice versa."""
    halves = (Float16Type(), BFloat16Type())
    return a != b and a in halves and b in halves


class _AggregateOp(CudaTileOp):
    """Shared structure, syntax and verifier of ``reduce`` and ``scan``."""

    operands_ = var_operand_def(AnyTile)
    results_ = var_result_def(AnyTile)
    dim = prop_def(IntegerAttr[I32])
    identities = prop_def(ArrayAttr[TypedAttribute])
    body = region_def()
    traits = traits_def(
        RecursiveMemoryEffect(), control.ImplicitTerminator(control.YieldOp.name)
    )

    HAS_REVERSE: ClassVar[bool] = False
    """Whether the op has the ``reverse=`` flag (scan)."""

    # -- syntax ------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> _AggregateOp:
        operands: list[UnresolvedOperand] = []
        if (first := parser.parse_optional_unresolved_operand()) is not None:
            operands.append(first)
            while parser.parse_optional_punctuation(",") is not None:
                operands.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        properties: dict[str, Attribute] = {"dim": cls._parse_dim(parser)}
        if cls.HAS_REVERSE:
            parser.parse_keyword("reverse")
            parser.parse_punctuation("=")
            properties["reverse"] = IntegerAttr.from_bool(parser.parse_boolean())
        parser.parse_keyword("identities")
        parser.parse_punctuation("=")
        properties["identities"] = parser.parse_attribute()
        parser.parse_punctuation(":")
        pos = parser.pos
        operand_types = cls._parse_types(parser)
        if len(operand_types) != len(operands):
            parser.raise_error(
                "number of operands and types do not match: got "
                f"{len(operands)} operands and {len(operand_types)} types",
                pos,
            )
        parser.parse_punctuation("->")
        result_types = cls._parse_types(parser)
        args = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=True)
        )
        region = parser.parse_region(args)
        if not args and region.blocks and not region.block.ops:
            # As in MLIR, `() {}` is a region without blocks.
            region.detach_block(region.block)
        op = cls.create(
            operands=parser.resolve_operands(operands, operand_types, pos),
            result_types=result_types,
            properties=properties,
            regions=[region],
        )
        op.attributes |= attrs
        return op

    @staticmethod
    def _parse_dim(parser: Parser) -> IntegerAttr:
        parser.parse_keyword("dim")
        parser.parse_punctuation("=")
        pos = parser.pos
        value = parser.parse_integer(allow_boolean=False)
        if not -(2**31) <= value < 2**31:
            parser.raise_error("integer constant out of range for attribute", pos)
        return IntegerAttr(value, IntegerType(32))

    @staticmethod
    def _parse_types(parser: Parser) -> list[Attribute]:
        """A possibly empty comma-separated type list."""
        if (first := parser.parse_optional_type()) is None:
            return []
        types = [first]
        while parser.parse_optional_punctuation(",") is not None:
            types.append(parser.parse_type())
        return types

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands_, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" dim={self.dim.value.data}")
        if self.HAS_REVERSE:
            reverse = self.properties["reverse"]
            assert isinstance(reverse, IntegerAttr)
            printer.print_string(f" reverse={'true' if reverse.value.data else 'false'}")
        printer.print_string(" identities=")
        printer.print_attribute(self.identities)
        printer.print_string(" : ")
        printer.print_list(self.operands_.types, printer.print_attribute)
        printer.print_string(" -> ")
        printer.print_list(self.results_.types, printer.print_attribute)
        # The combiner's arguments go on the next line, as NVIDIA prints them
        # (NVIDIA also leaves a trailing space on this line; we do not).
        printer.print_string("\n(")
        if self.body.blocks:
            printer.print_list(self.body.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(self.body, print_entry_block_args=False)

    # -- verification --------------------------------------------------------

    def verify_(self) -> None:
        if self.dim.value.data < 0:
            raise VerifyException(
                "attribute 'dim' failed to satisfy constraint: 32-bit signless "
                "integer attribute whose value is non-negative"
            )
        if len(self.body.blocks) != 1:
            raise VerifyException(
                "region #0 ('body') failed to verify constraint: region with 1 blocks"
            )
        # 13.4's AtLeastNOperands<1> (it replaced verifyAggregateOp's own check).
        if not self.operands_:
            raise VerifyException("expected 1 or more operands, but found 0")
        shapes = {_tile(t).shape for t in self.operands_.types}
        if len(shapes) > 1:
            raise VerifyException("requires the same shape for all operands")
        self._verify_aggregate()
        self._verify_result_types()

    def _verify_aggregate(self) -> None:
        """NVIDIA's ``verifyAggregateOp``: counts, identity types, ``dim``."""
        types, n = self.operands_.types, len(self.operands_)
        if n != len(self.results_):
            raise VerifyException("expect same number of operands and results")
        identities = self.identities.data
        if len(identities) != n:
            raise VerifyException(
                "expect identities to match the number of operands but got: "
                f"{n} operands and {len(identities)} identities"
            )
        for i, (t, identity) in enumerate(zip(types, identities)):
            element, identity_type = element_type_of(t), identity.get_type()
            if element != identity_type and not _same_float_bits(element, identity_type):
                raise VerifyException(
                    f"expect same type for operand at index: {i} and identity at "
                    f"index: {i} but got: {_pair(element, identity_type)}"
                )
        rank = _tile(types[0]).rank
        if self.dim.value.data >= rank:
            raise VerifyException(
                f"dimension ({self.dim.value.data}) is out of bound [0, {rank})"
            )

    def _verify_result_types(self) -> None:
        """The result types each op's type inference gives."""

    def verify_regions(self) -> None:
        """NVIDIA's ``verifyAggregateOpRegions``: the combiner's signature, and
        only pure ops in it (the error at the op that is not)."""
        n, block = len(self.operands_), self.body.block
        if len(block.args) != 2 * n:
            raise VerifyException(
                f"expect {2 * n} block arguments but got: {len(block.args)}"
            )
        arg_types = block.arg_types
        for i, t in enumerate(arg_types):
            if not (isinstance(t, TileType) and t.rank == 0):
                raise VerifyException(
                    f"expect 0-rank tile type at index: {i} but got: {quoted(t)}"
                )
        for i in range(0, 2 * n, 2):
            elem, acc = element_type_of(arg_types[i]), element_type_of(arg_types[i + 1])
            if elem != acc:
                raise VerifyException(
                    "expect same element type for block argument at index: "
                    f"{i} and {i + 1} but got: {_pair(elem, acc)}"
                )
        for i, t in enumerate(self.operands_.types):
            operand, arg = element_type_of(t), element_type_of(arg_types[2 * i])
            if operand != arg:
                raise VerifyException(
                    f"expect same type for operand at index: {i} and block argument "
                    f"at index: {2 * i} but got: {_pair(operand, arg)}"
                )
        self._verify_yield(block)
        for op in block.ops:
            if op is not block.last_op and not is_side_effect_free(op):
                raise NestedOpError(
                    op, f"'{op.name}' op only pure operations are allowed inside '{self.name}'"
                )

    def _verify_yield(self, block: Block) -> None:
        yielded = block.last_op
        assert isinstance(yielded, control.YieldOp)  # ImplicitTerminator checked it
        n, types = len(self.operands_), yielded.operands_.types
        if len(types) != n:
            raise VerifyException(
                f"expect number of terminators operands ({len(types)}) to match "
                f"number of operands ({n})"
            )
        for i, (t, y) in enumerate(zip(self.operands_.types, types)):
            if not isinstance(y, TileType):
                raise VerifyException(
                    "expected TileType for operand and terminator types but got: "
                    f"{_pair(t, y)}"
                )
            if (element := element_type_of(t)) != y.element_type:
                raise VerifyException(
                    f"expect same type for operand at index: {i} and terminator "
                    f"argument at index: {i} but got: {_pair(element, y.element_type)}"
                )


@irdl_op_definition
class ReduceOp(_AggregateOp):
    """Folds each of N same-shape tiles along ``dim`` with the body's combiner.

    The results have the operands' shape with ``dim`` removed.  The order in
    which elements are combined is unspecified (but deterministic).
    """

    name = "cuda_tile.reduce"

    def _verify_result_types(self) -> None:
        dim = self.dim.value.data
        inferred = [
            TileType(t.shape[:dim] + t.shape[dim + 1 :], t.element_type)
            for t in map(_tile, self.operands_.types)
        ]
        if inferred != list(self.results_.types):
            # MLIR's InferTypeOpInterface check: the mismatch, then its verdict.
            raise NotedError(
                "failed to infer returned types",
                preceding=[
                    f"inferred type(s) {quoted_types(inferred)} are incompatible with return "
                    f"type(s) of operation {quoted_types(self.results_.types)}"
                ],
            )


@irdl_op_definition
class ScanOp(_AggregateOp):
    """Inclusive prefix combination of N same-shape tiles along ``dim``.

    ``result[j] = f(result[j - 1], x[j])`` starting from the identity; with
    ``reverse=true`` the prefix runs from the last index down.
    """

    name = "cuda_tile.scan"
    HAS_REVERSE: ClassVar[bool] = True
    reverse = prop_def(BoolAttr)

    def _verify_result_types(self) -> None:
        for i, (t, r) in enumerate(zip(self.operands_.types, self.results_.types)):
            if t != r:
                raise VerifyException(
                    f"expect same type for operand at index: {i} and result at index: {i}"
                )
