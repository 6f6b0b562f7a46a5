"""Building blocks shared by the op families: constraints, base ops, verifier helpers, directives.

NVIDIA's ``assemblyFormat`` strings use a handful of custom directives
(``custom<IEEERoundingMode>``, ``custom<Signedness>``, ...).  The directives
here implement them for xDSL's declarative format engine, so each op's format
reads almost exactly like its ``Ops.td`` entry.  ``custom<CudaTileType>`` needs
no directive: ``TileIRParser`` accepts bare types everywhere, so a plain
``type($x)`` suffices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from xdsl.dialects.builtin import Float32Type, UnitAttr, i1, i8, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrConstraint,
    IntConstraint,
    IRDLOperation,
    VerificationContext,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.irdl.constraints import InferenceContext
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
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xdsl.utils.str_enum import StrEnum

from ..attributes import (
    ComparisonOrdering,
    ComparisonOrderingAttr,
    ComparisonPredicate,
    ComparisonPredicateAttr,
    IntegerOverflow,
    IntegerOverflowAttr,
    RoundingMode,
    RoundingModeAttr,
    Signedness,
    SignednessAttr,
)
from ..diagnostics import ConstraintError, PrecededParseError, quoted
from ..types import (
    PointerType,
    TileType,
    TokenType,
    element_type_of,
    is_base_float,
    is_float,
    is_int,
    is_int_or_i4,
    is_number,
)


_D = TypeVar("_D", bound=CustomDirective)


class CudaTileOp(IRDLOperation):
    """Base of every ``cuda_tile`` op; ``SINCE`` is the version that added it."""

    SINCE: ClassVar[str] = "13.1"
    ODS_NAMES: ClassVar[Mapping[str, str]] = {}
    """NVIDIA's names of the operands/results whose field name differs, for
    the messages that name them (``lowerBound`` for ``lower_bound``)."""

    def verify(self, verify_nested_ops: bool = True) -> None:
        """MLIR's order: this op's own invariants, then (``verify_nested_ops``)
        the ops nested in it, then ``verify_regions``.  Without
        ``verify_nested_ops`` only the op's own invariants are checked (the
        tools' verifier, ``diagnostics.verify``, walks the rest itself)."""
        super().verify(verify_nested_ops=False)
        if verify_nested_ops:
            for region in self.regions:
                region.verify()
            self.verify_regions()

    def verify_regions(self) -> None:
        """Checks that need the nested ops verified first (ODS's
        ``hasRegionVerifier``, MLIR's ``verifyRegions``); an error about a
        nested op raises ``NestedOpError`` at that op."""

    def version_needed(self) -> tuple[str, str]:
        """The Tile IR version this op, as it is, needs, and what needs it (for
        the bytecode writer's message): ``SINCE``, unless a use of the op that
        an older version's verifier refuses needs a newer one."""
        return self.SINCE, f"'{self.name}'"


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
            raise ConstraintError(self.what, attr)

    def get_bases(self) -> set[type[Attribute]]:
        return {TileType}

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> TileOf:
        return self


def _is_pointer(t: Attribute) -> bool:
    return isinstance(t, PointerType)


@dataclass(frozen=True)
class _I32Index(TileOf):
    """A ``tile<i32>`` index; its type is implied, so the text leaves it out."""

    def can_infer(self, var_constraint_names: AbstractSet[str]) -> bool:
        return True

    def infer(self, context: InferenceContext) -> TileType:
        return TileType((), i32)


# The descriptions are NVIDIA's (``CudaTile_TileOf`` summaries), 13.4 types included.
_INTS = "i1 or i8 or i16 or i32 or i64"
_FLOATS = (
    "f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or "
    "f4E2M1FN or fnv8E5M3FNU"
)

IntTile = TileOf(f"tile of {_INTS} values", is_int)
FloatTile = TileOf(f"tile of {_FLOATS} values", is_float)
BaseFloatTile = TileOf("tile of f16 or bf16 or f32 or f64 values", is_base_float)
NumberTile = TileOf(f"tile of {_INTS} or {_FLOATS} values", is_number)
IntOrI4Tile = TileOf(f"tile of {_INTS} or i4 values", is_int_or_i4)
NumberOrI4Tile = TileOf(
    f"tile of {_INTS} or {_FLOATS} or i4 values", lambda t: is_int_or_i4(t) or is_float(t)
)
I8Tile = TileOf("tile of i8 values", lambda t: t == i8)
I64Tile = TileOf("tile of i64 values", lambda t: t == i64)
BoolTile = TileOf("tile of i1 values", lambda t: t == i1)
PointerTile = TileOf("tile of Pointer type values", _is_pointer)
AnyTile = TileOf("Tile type", lambda t: True)
ScalarIntTile = TileOf(f"0D tile of {_INTS} values", is_int, rank=0)
ScalarI32Tile = TileOf("0D tile of i32 values", lambda t: t == i32, rank=0)
ScalarBoolTile = TileOf("0D tile of i1 values", lambda t: t == i1, rank=0)
ScalarPointerTile = TileOf("0D tile of Pointer type values", _is_pointer, rank=0)
I32Index = _I32Index("variadic of 0D tile of i32 values", lambda t: t == i32, rank=0)


_T = TypeVar("_T", bound=Attribute)


@dataclass(frozen=True)
class TypeOf(AttrConstraint[_T]):
    """One ``cuda_tile`` type, named in errors by its ``Types.td`` summary."""

    what: str
    base: type[_T]

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not isinstance(attr, self.base):
            raise ConstraintError(self.what, attr)

    def get_bases(self) -> set[type[Attribute]]:
        return {self.base}

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> TypeOf[_T]:
        return self


@dataclass(frozen=True)
class _TokenOf(TypeOf[TokenType]):
    """``token``: it has no parameters, so a format may leave it out."""

    def can_infer(self, var_constraint_names: AbstractSet[str]) -> bool:
        return True

    def infer(self, context: InferenceContext) -> TokenType:
        return TokenType()


Token = _TokenOf("cuda tile token type", TokenType)


# --------------------------------------------------------------------------
# One tile in, one tile out
# --------------------------------------------------------------------------


class TileToTileOp(CudaTileOp):
    """A side-effect-free op from one tile (operand 0) to another (result 0)."""

    traits = traits_def(Pure())

    def _types(self) -> tuple[TileType, TileType]:
        """The operand and result types; the constraints made them tiles."""
        operand, result = self.operands[0].type, self.results[0].type
        assert isinstance(operand, TileType) and isinstance(result, TileType)
        return operand, result


class SourceToResultOp(TileToTileOp):
    """``op %source : A -> B``."""

    source = operand_def(AnyTile)
    result = result_def(AnyTile)
    assembly_format = "$source attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source: SSAValue, result_type: TileType):
        super().__init__(operands=[source], result_types=[result_type])


# --------------------------------------------------------------------------
# Verifier helpers (SharedVerifiers.h)
# --------------------------------------------------------------------------


def _verify_all_match(
    names: str, types: Sequence[Attribute], key: Callable[[TileType], object], what: str
) -> None:
    """ODS's ``AllTypesMatch``/``AllShapesMatch``/... on tile-typed values."""
    keys = [key(t) if isinstance(t, TileType) else t for t in types]
    if any(k != keys[0] for k in keys):
        raise VerifyException(f"failed to verify that all of {{{names}}} have {what}")


def same_shape(names: str, *types: Attribute) -> None:
    _verify_all_match(names, types, lambda t: t.shape, "same shape")


def same_rank(names: str, *types: Attribute) -> None:
    _verify_all_match(names, types, lambda t: t.rank, "same rank")


def same_type(names: str, *types: Attribute) -> None:
    _verify_all_match(names, types, lambda t: t, "same type")


def same_element_type(names: str, *types: Attribute) -> None:
    _verify_all_match(names, types, lambda t: t.element_type, "the same element type")


def verify_f32_modifier(op: Operation, modifier: str, present: bool) -> None:
    """``verifyApprox``, ``verifyFtz`` and ``full``'s twin: the modifier needs f32."""
    ty = element_type_of(op.results[0].type)
    if present and not isinstance(ty, Float32Type):
        raise VerifyException(
            f"{modifier} modifier only supported for f32 data type, but got: {quoted(ty)}"
        )


def verify_ftz(op: Operation, ftz: UnitAttr | None) -> None:
    verify_f32_modifier(op, "flush_to_zero", ftz is not None)


def verify_rounding_in(
    rounding: RoundingModeAttr, allowed: Sequence[RoundingMode]
) -> None:
    if rounding.data not in allowed:
        raise VerifyException(
            "invalid rounding mode specified, expect one of ["
            + ", ".join(m.value for m in allowed)
            + "]"
        )


NO_OVERFLOW = IntegerOverflowAttr(IntegerOverflow.NONE)
"""The default ``overflow`` flag (not printed) of integer ops and ``trunci``."""

IEEE_MODES = (
    RoundingMode.NEAREST_EVEN,
    RoundingMode.ZERO,
    RoundingMode.NEGATIVE_INF,
    RoundingMode.POSITIVE_INF,
)


# --------------------------------------------------------------------------
# Custom directives
# --------------------------------------------------------------------------


def directive_variant(cls: type[_D]) -> type[_D]:
    """Declare a directive that only changes class constants of its base.

    ``irdl_custom_directive`` reads the parameters from the class's own
    annotations; a variant inherits them from its (already declared) base.
    """
    parameters = cls.parameters
    cls = dataclass(frozen=True)(cls)
    cls.parameters = parameters
    return cls


@irdl_custom_directive
class RoundingDirective(CustomDirective):
    """``rounding<mode>``, omitted when it is the op's default mode."""

    rounding: AttributeVariable
    DEFAULT: ClassVar[RoundingMode] = RoundingMode.NEAREST_EVEN
    ALLOWED: ClassVar[tuple[RoundingMode, ...]] = IEEE_MODES
    VERIFIED: ClassVar[bool] = False
    """Parse every known mode and leave the others to the op verifier.

    NVIDIA's ``divf``, ``sqrt``, ``exp`` and ``tanh`` parsers do so
    (``tanh %x rounding<zero>`` fails verification, not parsing); an unknown
    word is a parse error that lists the op's modes without ``got: ...``.
    """

    def parse(self, parser: Parser, state: ParsingState) -> None:
        mode = self.DEFAULT
        if parser.parse_optional_keyword("rounding") is not None:
            with parser.in_angle_brackets():
                pos = parser.pos
                word = parser.parse_identifier()
                known = next((m for m in RoundingMode if m.value == word), None)
                if known is None or not (self.VERIFIED or known in self.ALLOWED):
                    choices = ", ".join(f"'{m.value}'" for m in self.ALLOWED)
                    got = "" if self.VERIFIED else f", got: '{word}'"
                    parser.raise_error(
                        f"expected rounding mode to be one of: {choices}{got}", pos
                    )
                mode = known
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


@directive_variant
class IEEERounding(RoundingDirective):
    """``custom<IEEERoundingMode>``: the four IEEE modes, default nearest_even."""


@directive_variant
class DivRounding(RoundingDirective):
    """``custom<DivFOpRoundingMode>``: IEEE modes plus approx and full."""

    ALLOWED = (*IEEE_MODES, RoundingMode.APPROX, RoundingMode.FULL)


@directive_variant
class SqrtRounding(RoundingDirective):
    """``custom<SqrtOpRoundingMode>``: IEEE modes plus approx."""

    ALLOWED = (*IEEE_MODES, RoundingMode.APPROX)


@directive_variant
class ApproxFullRounding(RoundingDirective):
    """``custom<ExpOpRoundingMode>`` / ``custom<TanHOpRoundingMode>``: approx|full."""

    DEFAULT = RoundingMode.FULL
    ALLOWED = (RoundingMode.APPROX, RoundingMode.FULL)


@directive_variant
class IntegerRounding(RoundingDirective):
    """``custom<IntegerRoundingMode>``: only nearest_int_to_zero."""

    DEFAULT = RoundingMode.NEAREST_INT_TO_ZERO
    ALLOWED = (RoundingMode.NEAREST_INT_TO_ZERO,)


def enum_keyword_error(attribute: str, enum: type[StrEnum]) -> str:
    """MLIR's parse error for a bare enum keyword that is not one of ``enum``'s."""
    return (
        "expected string or keyword containing one of the following enum values for "
        f"attribute '{attribute}' [{', '.join(case.value for case in enum)}]"
    )


@irdl_custom_directive
class EnumKeyword(CustomDirective):
    """An enum attribute written as a bare keyword (``signed``, ``less_than``).

    ``OPTIONAL`` ones are omitted when absent and never fail to parse.
    """

    attr: AttributeVariable
    ATTR_TYPE: ClassVar[type[Attribute]]
    ENUM: ClassVar[type[StrEnum]]
    MESSAGE: ClassVar[str]
    OPTIONAL: ClassVar[bool] = False

    def parse(self, parser: Parser, state: ParsingState) -> None:
        word = parser.parse_optional_keyword_in([case.value for case in self.ENUM])
        if word is None:
            if self.OPTIONAL:
                return
            # MLIR's parseKeyword reports a missing keyword before the enum's
            # own message; a keyword that is no case gets the message alone.
            token = parser._current_token  # pyright: ignore[reportPrivateUsage]
            missing = token.kind != MLIRTokenKind.BARE_IDENT
            raise PrecededParseError(
                token.span,
                self.MESSAGE,
                ["expected valid keyword"] if missing else [],
            )
        self.attr.set(state, self.ATTR_TYPE(self.ENUM(word)))  # type: ignore[call-arg]

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.attr.get(op)
        if attr is None:
            return
        state.print_whitespace(printer)
        printer.print_string(attr.data.value)  # type: ignore[union-attr]

    def is_optional_like(self) -> bool:
        return self.OPTIONAL

    def is_present(self, op: IRDLOperation) -> bool:
        return self.attr.get(op) is not None


@directive_variant
class SignednessKeyword(EnumKeyword):
    """``custom<Signedness>``: ``signed`` or ``unsigned``."""

    ATTR_TYPE = SignednessAttr
    ENUM = Signedness
    MESSAGE = "expected signedness to be one of: {'signed', 'unsigned'}"


@directive_variant
class PredicateKeyword(EnumKeyword):
    """``custom<ComparisonPredicate>``: ``equal``, ``less_than``, ..."""

    ATTR_TYPE = ComparisonPredicateAttr
    ENUM = ComparisonPredicate
    MESSAGE = (
        "expected 'comparison_predicate' to be one of: {'equal', 'not_equal', "
        "'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}"
    )


@directive_variant
class OrderingKeyword(EnumKeyword):
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
