"""Building blocks shared by the op families: constraints, format directives.

NVIDIA's ``assemblyFormat`` strings use a handful of custom directives
(``custom<IEEERoundingMode>``, ``custom<Signedness>``, ...).  The directives
here implement them for xDSL's declarative format engine, so each op's format
reads almost exactly like its ``Ops.td`` entry.  ``custom<CudaTileType>`` needs
no directive: ``TileIRParser`` accepts bare types everywhere, so a plain
``type($x)`` suffices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    AttrConstraint,
    IntConstraint,
    IRDLOperation,
    VerificationContext,
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
from xdsl.utils.exceptions import VerifyException

from ..attributes import (
    ComparisonOrdering,
    ComparisonOrderingAttr,
    ComparisonPredicate,
    ComparisonPredicateAttr,
    RoundingMode,
    RoundingModeAttr,
    Signedness,
    SignednessAttr,
)
from ..types import PointerType, TileType, is_float, is_int, is_number


_D = TypeVar("_D", bound=CustomDirective)


class CudaTileOp(IRDLOperation):
    """Base of every ``cuda_tile`` op; ``SINCE`` is the version that added it."""

    SINCE: ClassVar[str] = "13.1"


# --------------------------------------------------------------------------
# Type constraints (the ``CudaTile_*TileType`` families of Types.td)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TileOf(AttrConstraint[TileType]):
    """A tile whose element type satisfies ``predicate`` (``CudaTile_TileOf``)."""

    what: str
    predicate: Callable[[Attribute], bool]
    rank: int | None = None

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not (
            isinstance(attr, TileType)
            and self.predicate(attr.element_type)
            and (self.rank is None or attr.rank == self.rank)
        ):
            raise VerifyException(f"expected {self.what}, got {attr}")

    def get_bases(self) -> set[type[Attribute]]:
        return {TileType}

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> TileOf:
        return self


def _is_base_float(t: Attribute) -> bool:
    """``CudaTile_BaseFloatTileType``: f16, bf16, f32, f64 (arith-capable)."""
    return isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type)


def _is_ptr(t: Attribute) -> bool:
    return isinstance(t, PointerType)


IntTile = TileOf("tile of integer values", is_int)
FloatTile = TileOf("tile of floating-point values", is_float)
BaseFloatTile = TileOf("tile of f16, bf16, f32 or f64 values", _is_base_float)
NumberTile = TileOf("tile of integer or floating-point values", is_number)
PointerTile = TileOf("tile of pointer values", _is_ptr)
AnyTile = TileOf("tile", lambda t: True)
ScalarIntTile = TileOf("0-d tile of integer values", is_int, rank=0)
BoolTile = TileOf("tile of i1 values", lambda t: t == IntegerType(1))


# --------------------------------------------------------------------------
# Verifier helpers (SharedVerifiers.h)
# --------------------------------------------------------------------------


def result_element_type(op: Operation) -> Attribute:
    t = op.results[0].type
    return t.element_type if isinstance(t, TileType) else t


def verify_ftz(op: Operation, ftz: UnitAttr | None) -> None:
    ty = result_element_type(op)
    if ftz is not None and not isinstance(ty, Float32Type):
        raise VerifyException(
            f"flush_to_zero modifier only supported for f32 data type, but got: '{ty}'"
        )


def verify_rounding_in(
    rounding: RoundingModeAttr, allowed: Sequence[RoundingMode]
) -> None:
    if rounding.data not in allowed:
        raise VerifyException(
            "invalid rounding mode specified, expect one of ["
            + ", ".join(m.value for m in allowed)
            + "]"
        )


IEEE_MODES = (
    RoundingMode.NEAREST_EVEN,
    RoundingMode.ZERO,
    RoundingMode.NEGATIVE_INF,
    RoundingMode.POSITIVE_INF,
)


# --------------------------------------------------------------------------
# Custom directives
# --------------------------------------------------------------------------


def _variant(cls: type[_D]) -> type[_D]:
    """Declare a directive that only changes class constants of its base.

    ``irdl_custom_directive`` reads the parameters from the class's own
    annotations; a variant inherits them from its (already declared) base.
    """
    parameters = cls.parameters
    cls = dataclass(frozen=True)(cls)
    cls.parameters = parameters
    return cls


@irdl_custom_directive
class _RoundingBase(CustomDirective):
    """``rounding<mode>``, omitted when it is the op's default mode."""

    rounding: AttributeVariable
    DEFAULT: ClassVar[RoundingMode] = RoundingMode.NEAREST_EVEN
    ALLOWED: ClassVar[tuple[RoundingMode, ...]] = IEEE_MODES

    def parse(self, parser: Parser, state: ParsingState) -> None:
        mode = self.DEFAULT
        if parser.parse_optional_keyword("rounding") is not None:
            with parser.in_angle_brackets():
                pos = parser.pos
                word = parser.parse_identifier()
                choices = ", ".join(f"'{m.value}'" for m in self.ALLOWED)
                try:
                    mode = RoundingMode(word)
                except ValueError:
                    parser.raise_error(
                        f"expected rounding mode to be one of: {choices}, got: '{word}'",
                        pos,
                    )
                if mode not in self.ALLOWED:
                    parser.raise_error(
                        f"expected rounding mode to be one of: {choices}, got: '{word}'",
                        pos,
                    )
        self.rounding.set(state, RoundingModeAttr(mode))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.rounding.get(op)
        assert isinstance(attr, RoundingModeAttr)
        if attr.data == self.DEFAULT:
            return
        state.print_whitespace(printer)
        printer.print_string(f"rounding<{attr.data.value}>")

    def is_optional_like(self) -> bool:
        return True

    def is_present(self, op: IRDLOperation) -> bool:
        attr = self.rounding.get(op)
        return isinstance(attr, RoundingModeAttr) and attr.data != self.DEFAULT


@_variant
class IEEERounding(_RoundingBase):
    """``custom<IEEERoundingMode>``: the four IEEE modes, default nearest_even."""


@_variant
class DivRounding(_RoundingBase):
    """``custom<DivFOpRoundingMode>``: IEEE modes plus approx and full."""

    ALLOWED = (*IEEE_MODES, RoundingMode.APPROX, RoundingMode.FULL)


@_variant
class SqrtRounding(_RoundingBase):
    """``custom<SqrtOpRoundingMode>``: IEEE modes plus approx."""

    ALLOWED = (*IEEE_MODES, RoundingMode.APPROX)


@_variant
class ApproxFullRounding(_RoundingBase):
    """``custom<ExpOpRoundingMode>`` / ``custom<TanHOpRoundingMode>``: approx|full."""

    DEFAULT = RoundingMode.FULL
    ALLOWED = (RoundingMode.APPROX, RoundingMode.FULL)


@_variant
class IntegerRounding(_RoundingBase):
    """``custom<IntegerRoundingMode>``: only nearest_int_to_zero."""

    DEFAULT = RoundingMode.NEAREST_INT_TO_ZERO
    ALLOWED = (RoundingMode.NEAREST_INT_TO_ZERO,)


@irdl_custom_directive
class _KeywordEnum(CustomDirective):
    """An enum attribute written as a bare keyword (``signed``, ``less_than``)."""

    attr: AttributeVariable
    ATTR_TYPE: ClassVar[type[Attribute]]
    ENUM: ClassVar[type]
    MESSAGE: ClassVar[str]

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        word = parser.parse_optional_identifier()
        try:
            value = self.ENUM(word)
        except ValueError:
            parser.raise_error(self.MESSAGE, pos)
        self.attr.set(state, self.ATTR_TYPE(value))  # type: ignore[call-arg]

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.attr.get(op)
        state.print_whitespace(printer)
        printer.print_string(attr.data.value)  # type: ignore[union-attr]


@_variant
class SignednessKeyword(_KeywordEnum):
    """``custom<Signedness>``: ``signed`` or ``unsigned``."""

    ATTR_TYPE = SignednessAttr
    ENUM = Signedness
    MESSAGE = "expected signedness to be one of: {'signed', 'unsigned'}"


@_variant
class PredicateKeyword(_KeywordEnum):
    """``custom<ComparisonPredicate>``: ``equal``, ``less_than``, ..."""

    ATTR_TYPE = ComparisonPredicateAttr
    ENUM = ComparisonPredicate
    MESSAGE = (
        "expected 'comparison_predicate' to be one of: {'equal', 'not_equal', "
        "'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}"
    )


@_variant
class OrderingKeyword(_KeywordEnum):
    """``custom<ComparisonOrdering>``: ``ordered`` or ``unordered``."""

    ATTR_TYPE = ComparisonOrderingAttr
    ENUM = ComparisonOrdering
    MESSAGE = "expected 'comparison_ordering' to be one of: {'ordered', 'unordered'}"


COMMON_DIRECTIVES = (
    IEEERounding,
    DivRounding,
    SqrtRounding,
    ApproxFullRounding,
    IntegerRounding,
    SignednessKeyword,
    PredicateKeyword,
    OrderingKeyword,
)
