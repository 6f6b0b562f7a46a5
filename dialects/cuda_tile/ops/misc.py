"""Tile-block queries, assume hints, assert, print_tko and grid dependency control."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute
from xdsl.irdl import (
    AnyAttr,
    AttrConstraint,
    IntConstraint,
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    VerificationContext,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import ASSUME_PREDICATES
from ..attributes import AssumePredicate as AssumePredicateAttr
from ._common import AnyTile, BoolTile, CudaTileOp, ScalarI32Tile, Token


@irdl_op_definition
class GetTileBlockIdOp(CudaTileOp):
    """The (x, y, z) coordinates of the executing tile block in the grid."""

    name = "cuda_tile.get_tile_block_id"
    T: ClassVar = VarConstraint("T", ScalarI32Tile)
    block_id_x = result_def(T)
    block_id_y = result_def(T)
    block_id_z = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($block_id_x)"


@irdl_op_definition
class GetNumTileBlocksOp(CudaTileOp):
    """The number of tile blocks of the grid along x, y and z."""

    name = "cuda_tile.get_num_tile_blocks"
    T: ClassVar = VarConstraint("T", ScalarI32Tile)
    grid_size_x = result_def(T)
    grid_size_y = result_def(T)
    grid_size_z = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($grid_size_x)"


# --------------------------------------------------------------------------
# assume
# --------------------------------------------------------------------------

_PREDICATES = {p.name.removeprefix("cuda_tile."): p for p in ASSUME_PREDICATES}
"""The assume predicates by the short name used inside ``assume``."""


@irdl_custom_directive
class AssumePredicate(CustomDirective):
    """``custom<AssumePredicate>``: ``div_by<8>``, or ``#cuda_tile.div_by<8>``.

    Inside ``assume`` a predicate may be written without ``#cuda_tile.``;
    it is always printed that way.
    """

    predicate: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        attr = parser.parse_optional_attribute()
        if attr is None:
            name = parser.parse_optional_identifier()
            if name is None:
                parser.raise_error("expected attribute name", pos)
            if name not in _PREDICATES:
                parser.raise_error(
                    f"unknown assume predicate attribute: {name} (expected 'div_by', "
                    "'same_elements', or 'bounded')",
                    pos,
                )
            cls = _PREDICATES[name]
            attr = cls.new(cls.parse_parameters(parser))
        elif not isinstance(attr, AssumePredicateAttr):
            parser.raise_error("expected assume predicate attribute", pos)
        self.predicate.set(state, attr)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.predicate.get(op)
        assert isinstance(attr, AssumePredicateAttr)
        state.print_whitespace(printer)
        printer.print_string(attr.name.removeprefix("cuda_tile."))
        attr.print_parameters(printer)


@dataclass(frozen=True)
class _AssumePredicateOf(AttrConstraint[AssumePredicateAttr]):
    """``CudaTile_AssumePredicateAttrInterface``, failing in ODS's words."""

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not isinstance(attr, AssumePredicateAttr):
            raise VerifyException(
                "attribute 'predicate' failed to satisfy constraint: "
                "AssumePredicateAttrInterface instance"
            )

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> _AssumePredicateOf:
        return self


@irdl_op_definition
class AssumeOp(CudaTileOp):
    """Returns ``value`` unchanged, with ``predicate`` promised to hold on it.

    NVIDIA declares no effects for ``assume``, so it has unknown effects: it is
    never removed or merged, and is not allowed in a reduce/scan combiner.
    """

    name = "cuda_tile.assume"
    T: ClassVar = VarConstraint("T", AnyAttr())
    value = operand_def(T)
    result = result_def(T)
    predicate = prop_def(_AssumePredicateOf())
    custom_directives = (AssumePredicate,)
    assembly_format = (
        "custom<AssumePredicate>($predicate) `,` $value attr-dict `:` type($value)"
    )

    def verify_(self) -> None:
        self.predicate.verify_with_value_type(self.value.type)


# --------------------------------------------------------------------------
# Debugging: assert, print_tko
# --------------------------------------------------------------------------


@irdl_op_definition
class AssertOp(CudaTileOp):
    """Reports ``message`` and the index of every false element of ``condition``.

    The failure is signalled to the host.  Unknown effects (no effect trait, as
    in NVIDIA's ``Ops.td``): it is never removed, merged or moved.
    """

    name = "cuda_tile.assert"
    condition = operand_def(BoolTile)
    message = prop_def(StringAttr)
    assembly_format = "$condition `,` $message attr-dict `:` type($condition)"


_CONVERSIONS = "diuoxXeEfFgGaAcsSpn%"
"""Characters that end a printf conversion (``%S``: CUDA's wide string)."""


def count_format_expressions(text: str) -> int:
    """The number of printf conversions in ``text``, counted as NVIDIA does.

    A conversion runs from ``%`` to the next conversion character; ``%%`` is
    an escaped ``%``.  Scanning resumes right after the ``%`` of a conversion.
    Raises ``VerifyException`` for a conversion that never ends.
    """
    count, pos = 0, text.find("%")
    while pos != -1:
        end = next(
            (i for i in range(pos + 1, len(text)) if text[i] in _CONVERSIONS), None
        )
        if end is None:
            raise VerifyException("found unterminated format expression")
        if end == pos + 1 and text[end] == "%":
            pos = text.find("%", pos + 2)
        else:
            count += 1
            pos = text.find("%", pos + 1)
    return count


@irdl_op_definition
class PrintTkoOp(CudaTileOp):
    """Prints ``args`` with the C printf-style format string ``str``.

    Token-ordered: only the optional input ``token`` orders it against other
    ``_tko`` operations; the result token orders later ones after it.  Unknown
    effects, like ``assert``.
    """

    name = "cuda_tile.print_tko"
    str = prop_def(StringAttr)
    args = var_operand_def(AnyTile)
    token = opt_operand_def(Token)
    result_token = result_def(Token)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "$str (`,` $args^)? (`token` `` `=` `` $token^)? attr-dict "
        "(`:` type($args)^)? `->` type($result_token)"
    )

    def verify_(self) -> None:
        expected = count_format_expressions(self.str.data)
        if expected != len(self.args):
            raise VerifyException(
                f"incorrect number of operands: expected {expected}, found "
                f"{len(self.args)}"
            )


# --------------------------------------------------------------------------
# Grid dependency control (programmatic dependent launch, 13.4)
# --------------------------------------------------------------------------


@irdl_op_definition
class GdcLaunchDependentsTkoOp(CudaTileOp):
    """Signals that a dependent kernel may be scheduled (PDL); orders no memory.

    Takes effect once every tile block has executed it (or exited).  Unknown
    effects, like the other grid and debugging ops.
    """

    name = "cuda_tile.gdc_launch_dependents_tko"
    SINCE: ClassVar[str] = "13.4"
    token = opt_operand_def(Token)
    result_token = result_def(Token)
    assembly_format = "(`token` `=` $token^)? attr-dict `->` type($result_token)"


@irdl_op_definition
class GdcWaitTkoOp(CudaTileOp):
    """Waits until the preceding kernel (PDL) has completed and its stores are visible.

    An acquire: memory operations ordered after the result token see the
    predecessor's writes.  Unknown effects.
    """

    name = "cuda_tile.gdc_wait_tko"
    SINCE: ClassVar[str] = "13.4"
    token = opt_operand_def(Token)
    result_token = result_def(Token)
    assembly_format = "(`token` `=` $token^)? attr-dict `->` type($result_token)"
