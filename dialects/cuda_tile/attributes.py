"""Attributes of the ``cuda_tile`` dialect (NVIDIA Tile IR ``AttrDefs.td`` of 13.4; the
13.5 additions, ``ptr_attr`` cases and ``multimem_reduction_kind``, as 13.5.37's tools show them).

Enumerations keep NVIDIA's case order: the position of a case in its enum is
its integer value in the bytecode (``code``).  Each enum attribute prints as
``<case>`` after its mnemonic, e.g. ``#cuda_tile.rounding<zero>`` when fully
qualified and ``rounding<zero>`` inside an op's custom syntax.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Generic, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NoneAttr,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.dialects.utils.enum_attribute import EnumType
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum


class CudaTileEnum(StrEnum):
    """A Tile IR enumeration; ``code`` is the bytecode value of a case."""

    @property
    def code(self) -> int:
        return list(type(self)).index(self)

    @classmethod
    def from_code(cls, code: int) -> CudaTileEnum:
        return list(cls)[code]


class Signedness(CudaTileEnum):
    UNSIGNED = "unsigned"
    SIGNED = "signed"


class IntegerOverflow(CudaTileEnum):
    NONE = "none"
    NSW = "no_signed_wrap"
    NUW = "no_unsigned_wrap"
    NW = "no_wrap"


class RoundingMode(CudaTileEnum):
    NEAREST_EVEN = "nearest_even"
    ZERO = "zero"
    NEGATIVE_INF = "negative_inf"
    POSITIVE_INF = "positive_inf"
    APPROX = "approx"
    FULL = "full"
    NEAREST_INT_TO_ZERO = "nearest_int_to_zero"
    NEAREST_AWAY = "nearest_away"  # 13.4: ftof widening and f32 -> tf32


class ComparisonOrdering(CudaTileEnum):
    UNORDERED = "unordered"
    ORDERED = "ordered"


class ComparisonPredicate(CudaTileEnum):
    EQUAL = "equal"
    NOT_EQUAL = "not_equal"
    LESS_THAN = "less_than"
    LESS_THAN_OR_EQUAL = "less_than_or_equal"
    GREATER_THAN = "greater_than"
    GREATER_THAN_OR_EQUAL = "greater_than_or_equal"


class AtomicRMWMode(CudaTileEnum):
    AND = "and"
    OR = "or"
    XOR = "xor"
    ADD = "add"
    ADDF = "addf"
    MAX = "max"
    MIN = "min"
    UMAX = "umax"
    UMIN = "umin"
    XCHG = "xchg"


class MemoryScope(CudaTileEnum):
    TL_BLK = "tl_blk"
    DEVICE = "device"
    SYS = "sys"


class MemoryOrdering(CudaTileEnum):
    WEAK = "weak"
    RELAXED = "relaxed"
    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQ_REL = "acq_rel"


class PaddingValue(CudaTileEnum):
    ZERO = "zero"
    NEG_ZERO = "neg_zero"
    NAN = "nan"
    POS_INF = "pos_inf"
    NEG_INF = "neg_inf"


class SymbolVisibility(CudaTileEnum):
    PUBLIC = "public"
    PRIVATE = "private"


class PointerKind(CudaTileEnum):
    """``#cuda_tile.ptr_attr<...>`` of a ``ptr`` or ``tensor_view`` type.

    ``none`` is 13.4's only case; 13.5 adds ``unicast`` and ``multicast``, which
    the ``multimem_*`` ops require of their view's base pointer (docs/bytecode.md).
    """

    NONE = "none"
    UNICAST = "unicast"
    MULTICAST = "multicast"


class MultimemReductionKind(CudaTileEnum):
    """13.5: how ``multimem_load_reduce_view_tko`` / ``multimem_reduce_view_tko`` combine."""

    ADD = "add"
    MIN = "min"
    MAX = "max"
    AND = "and"
    OR = "or"
    XOR = "xor"
    UMIN = "umin"
    UMAX = "umax"


class _AngleEnum(Generic[EnumType]):
    """Prints and parses an enum attribute's case inside ``<...>``."""

    data: EnumType
    enum_type: ClassVar[type[StrEnum]]

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> EnumType:
        with parser.in_angle_brackets():
            return cast(EnumType, parser.parse_str_enum(cls.enum_type))


@irdl_attr_definition
class SignednessAttr(_AngleEnum[Signedness], EnumAttribute[Signedness]):
    name = "cuda_tile.signedness"


@irdl_attr_definition
class IntegerOverflowAttr(_AngleEnum[IntegerOverflow], EnumAttribute[IntegerOverflow]):
    name = "cuda_tile.overflow"


@irdl_attr_definition
class RoundingModeAttr(_AngleEnum[RoundingMode], EnumAttribute[RoundingMode]):
    name = "cuda_tile.rounding"


@irdl_attr_definition
class ComparisonOrderingAttr(
    _AngleEnum[ComparisonOrdering], EnumAttribute[ComparisonOrdering]
):
    name = "cuda_tile.comparison_ordering"


@irdl_attr_definition
class ComparisonPredicateAttr(
    _AngleEnum[ComparisonPredicate], EnumAttribute[ComparisonPredicate]
):
    name = "cuda_tile.comparison_predicate"


@irdl_attr_definition
class AtomicRMWModeAttr(_AngleEnum[AtomicRMWMode], EnumAttribute[AtomicRMWMode]):
    name = "cuda_tile.atomic_rmw_mode"


@irdl_attr_definition
class MemoryScopeAttr(_AngleEnum[MemoryScope], EnumAttribute[MemoryScope]):
    name = "cuda_tile.memory_scope"


@irdl_attr_definition
class MemoryOrderingAttr(_AngleEnum[MemoryOrdering], EnumAttribute[MemoryOrdering]):
    name = "cuda_tile.memory_ordering"


@irdl_attr_definition
class PaddingValueAttr(_AngleEnum[PaddingValue], EnumAttribute[PaddingValue]):
    name = "cuda_tile.padding_value"


@irdl_attr_definition
class SymbolVisibilityAttr(
    _AngleEnum[SymbolVisibility], EnumAttribute[SymbolVisibility]
):
    name = "cuda_tile.symbol_visibility"


@irdl_attr_definition
class PointerKindAttr(_AngleEnum[PointerKind], EnumAttribute[PointerKind]):
    name = "cuda_tile.ptr_attr"


@irdl_attr_definition
class MultimemReductionKindAttr(
    _AngleEnum[MultimemReductionKind], EnumAttribute[MultimemReductionKind]
):
    name = "cuda_tile.multimem_reduction_kind"


# --------------------------------------------------------------------------
# Optimization hints
# --------------------------------------------------------------------------

GPU_ARCHS = (
    "sm_80",
    "sm_86",
    "sm_87",
    "sm_88",
    "sm_89",
    "sm_90",
    "sm_100",
    "sm_103",
    "sm_107",
    "sm_110",
    "sm_120",
    "sm_121",
)
"""The GPU architectures of Tile IR 13.4: what ``tileiras`` accepts as ``--gpu-name``."""

HINT_ARCHS = (*GPU_ARCHS, "default")
"""Keys an ``optimization_hints`` dictionary may use (``default`` since 13.3)."""

ENTRY_HINTS = ("num_cta_in_cga", "num_worker_warps_per_cta", "occupancy")
VIEW_HINTS = ("allow_tma", "latency")
PTR_HINTS = ("latency",)


@irdl_attr_definition
class OptimizationHintsAttr(ParametrizedAttribute):
    """``optimization_hints=<sm_100 = {num_cta_in_cga = 2}, default = {...}>``.

    Per-architecture compiler hints; which hint keys are meaningful depends on
    the op carrying the attribute (see ``hints.hint_warnings``).
    """

    name = "cuda_tile.optimization_hints"
    value: DictionaryAttr = param_def()

    def __init__(self, hints: Mapping[str, Mapping[str, Attribute]] | DictionaryAttr):
        if not isinstance(hints, DictionaryAttr):
            hints = DictionaryAttr({k: DictionaryAttr(dict(v)) for k, v in hints.items()})
        super().__init__(hints)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        entries: dict[str, Attribute] = {}

        def entry() -> None:
            key = parser.parse_identifier_or_str_literal()
            parser.parse_punctuation("=")
            pos = parser.pos
            if key in entries:
                parser.raise_error(f"duplicate optimization_hints key `{key}`", pos)
            value = parser.parse_attribute()
            if not isinstance(value, DictionaryAttr):
                parser.raise_error(
                    "expected dictionary attribute for optimization_hints entry "
                    f"`{key}` got value={value}",
                    pos,
                    parser.pos,
                )
            entries[key] = value

        parser.parse_punctuation("<")
        if parser.parse_optional_punctuation(">") is None:
            parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
            parser.parse_punctuation(">")
        return [DictionaryAttr(entries)]

    @classmethod
    def parse_optional_assignment(cls, parser: AttrParser) -> OptimizationHintsAttr | None:
        """``optimization_hints = <...>`` as ops write it, if present."""
        if parser.parse_optional_keyword("optimization_hints") is None:
            return None
        parser.parse_punctuation("=")
        return cls.new(cls.parse_parameters(parser))

    def print_parameters(self, printer: Printer) -> None:
        """``<arch = {hint = value, ...}, ...>``: keys sorted, as in an MLIR
        dictionary, and values printed without their type, as NVIDIA does."""
        printer.print_string("<")
        for i, (arch, hints) in enumerate(sorted(self.value.data.items())):
            assert isinstance(hints, DictionaryAttr)
            printer.print_string(f"{', ' if i else ''}{arch} = {{")
            for j, (key, value) in enumerate(sorted(hints.data.items())):
                printer.print_string(f"{', ' if j else ''}{key} = ")
                _print_without_type(printer, value)
            printer.print_string("}")
        printer.print_string(">")

    def verify(self) -> None:
        for key, value in self.value.data.items():
            if not isinstance(value, DictionaryAttr):
                raise VerifyException(
                    "expected dictionary attribute for optimization_hints entry "
                    f"`{key}` got value={value}"
                )


def _print_without_type(printer: Printer, attr: Attribute) -> None:
    """MLIR's ``printAttributeWithoutType``: ``3`` rather than ``3 : i64``."""
    if isinstance(attr, IntegerAttr) and attr.type != IntegerType(1):
        printer.print_string(str(attr.value.data))
    elif isinstance(attr, IntAttr):
        printer.print_string(str(attr.data))
    elif isinstance(attr, FloatAttr):
        printer.print_float(attr.value.data, attr.type)
    else:
        printer.print_attribute(attr)


# --------------------------------------------------------------------------
# assume predicates
# --------------------------------------------------------------------------


class AssumePredicate(ParametrizedAttribute):
    """A fact ``cuda_tile.assume`` attaches to a value.

    The checks need the tile and view types, which import this module (for
    padding values); so ``types`` is imported inside the methods.
    """

    def verify_with_value_type(self, t: Attribute) -> None:
        """Raise ``VerifyException`` if the predicate cannot hold on type ``t``."""


def _optional_int(attr: Attribute) -> int | None:
    return attr.data if isinstance(attr, IntAttr) else None


def _int_or_none(v: int | None) -> Attribute:
    return NoneAttr() if v is None else IntAttr(v)


@irdl_attr_definition
class DivByAttr(AssumePredicate):
    """``div_by<D[, every E along A]>``: values (or a view's base) divisible by D."""

    name = "cuda_tile.div_by"
    divisor_attr: IntAttr = param_def()
    every_attr: Attribute = param_def()
    along_attr: Attribute = param_def()

    def __init__(self, divisor: int, every: int | None = None, along: int | None = None):
        super().__init__(IntAttr(divisor), _int_or_none(every), _int_or_none(along))

    @property
    def divisor(self) -> int:
        return self.divisor_attr.data

    @property
    def every(self) -> int | None:
        return _optional_int(self.every_attr)

    @property
    def along(self) -> int | None:
        return _optional_int(self.along_attr)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            divisor = parser.parse_integer(
                allow_boolean=False,
                context_msg=" (parameter 'divisor' is expected to be an integer)",
            )
            every = along = None
            if parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword("every")
                every = parser.parse_integer(allow_boolean=False)
                parser.parse_keyword("along")
                along = parser.parse_integer(allow_boolean=False)
        return [IntAttr(divisor), _int_or_none(every), _int_or_none(along)]

    def print_parameters(self, printer: Printer) -> None:
        text = f"<{self.divisor}"
        if self.every is not None:
            text += f", every {self.every} along {self.along}"
        printer.print_string(text + ">")

    def verify_with_value_type(self, t: Attribute) -> None:
        from .types import PointerType, TensorViewType, TileType

        d = self.divisor
        if d <= 0 or d & (d - 1):
            raise VerifyException("'cuda_tile.div_by' divisor must be a power of 2")
        if (self.every is None) != (self.along is None):
            raise VerifyException("'cuda_tile.div_by' 'every'/'along' must be used in combination")
        if d > 4611686018427387904:
            raise VerifyException("'cuda_tile.div_by' divisor is too large")
        if isinstance(t, TensorViewType):
            if self.every is not None:
                raise VerifyException(
                    "'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained "
                    "value is a tensor_view"
                )
            return
        bad = (
            "'cuda_tile.div_by' is valid only for tile of integer/pointer or tensor_view values"
        )
        if not isinstance(t, TileType):
            raise VerifyException(bad)
        if t.rank == 0 and self.every is not None:
            raise VerifyException(
                "'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained value "
                "is a 0D tile"
            )
        if not isinstance(t.element_type, PointerType | IntegerType):
            raise VerifyException(bad)
        if self.every is None or self.along is None:
            return
        if not 0 <= self.along < t.rank:
            raise VerifyException(
                f"'cuda_tile.div_by' every_dim ({self.along}) must be >= 0 and < tile rank "
                f"({t.rank})"
            )
        if not 0 <= self.every <= t.shape[self.along]:
            raise VerifyException(
                "expected 'cuda_tile.div_by' every_dim to be within 0 and the size of the "
                f"respective dimension ({t.shape[self.along]})"
            )


@irdl_attr_definition
class SameElementsAttr(AssumePredicate):
    """``same_elements<[C0, C1, ...]>``: groups of ``Ci`` along dim i are equal."""

    name = "cuda_tile.same_elements"
    values_attr: Attribute = param_def()

    def __init__(self, values: Sequence[int]):
        super().__init__(ArrayAttr(IntAttr(v) for v in values))

    @property
    def values(self) -> tuple[int, ...]:
        assert isinstance(self.values_attr, ArrayAttr)
        return tuple(cast(IntAttr, v).data for v in self.values_attr.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            values = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
            )
        return [ArrayAttr(IntAttr(v) for v in values)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<[{', '.join(map(str, self.values))}]>")

    def verify_with_value_type(self, t: Attribute) -> None:
        from .types import PointerType, TileType

        if not isinstance(t, TileType) or not isinstance(
            t.element_type, PointerType | IntegerType
        ):
            raise VerifyException(
                "'cuda_tile.same_elements' is valid only for tile of integer/pointer values"
            )
        if len(self.values) != t.rank:
            raise VerifyException(
                f"expected number of values in 'cuda_tile.same_elements' ({len(self.values)}) "
                f"to match rank of constrained tile ({t.rank})"
            )
        for i, v in enumerate(self.values):
            if not 0 <= v <= t.shape[i]:
                raise VerifyException(
                    f"expected 'cuda_tile.same_elements' value {i} to be within 0 and the "
                    f"size of the respective dimension ({t.shape[i]})"
                )


@irdl_attr_definition
class BoundedAttr(AssumePredicate):
    """``bounded<LB|?, UB|?>``: every element lies in ``[LB, UB]`` (signed)."""

    name = "cuda_tile.bounded"
    lb_attr: Attribute = param_def()
    ub_attr: Attribute = param_def()

    def __init__(self, lb: int | None, ub: int | None):
        super().__init__(_int_or_none(lb), _int_or_none(ub))

    @property
    def lb(self) -> int | None:
        return _optional_int(self.lb_attr)

    @property
    def ub(self) -> int | None:
        return _optional_int(self.ub_attr)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        def bound() -> Attribute:
            if parser.parse_optional_punctuation("?") is not None:
                return NoneAttr()
            return IntAttr(parser.parse_integer(allow_boolean=False))

        with parser.in_angle_brackets():
            lb = bound()
            parser.parse_punctuation(",")
            ub = bound()
        return [lb, ub]

    def print_parameters(self, printer: Printer) -> None:
        lb = "?" if self.lb is None else str(self.lb)
        ub = "?" if self.ub is None else str(self.ub)
        printer.print_string(f"<{lb}, {ub}>")

    def verify_with_value_type(self, t: Attribute) -> None:
        from .types import TileType

        if not isinstance(t, TileType) or not isinstance(t.element_type, IntegerType):
            raise VerifyException("'cuda_tile.bounded' is valid only for tile of integer values")
        width = t.element_type.width.data
        lo, hi = -(2 ** (width - 1)), 2 ** (width - 1) - 1
        if self.lb is not None and not lo <= self.lb <= hi:
            raise VerifyException(
                f"'cuda_tile.bounded' expects lower bound to be within [{lo}, {hi}]"
            )
        if self.ub is not None and not lo <= self.ub <= hi:
            raise VerifyException(
                f"'cuda_tile.bounded' expects upper bound to be within [{lo}, {hi}]"
            )
        if self.lb is not None and self.ub is not None and self.lb > self.ub:
            raise VerifyException(
                "'cuda_tile.bounded' expects lower bound to be less than or equal to upper bound"
            )


ASSUME_PREDICATES: tuple[type[AssumePredicate], ...] = (
    DivByAttr,
    SameElementsAttr,
    BoundedAttr,
)

ENUM_ATTRS = (
    SignednessAttr,
    IntegerOverflowAttr,
    RoundingModeAttr,
    ComparisonOrderingAttr,
    ComparisonPredicateAttr,
    AtomicRMWModeAttr,
    MemoryScopeAttr,
    MemoryOrderingAttr,
    PaddingValueAttr,
    SymbolVisibilityAttr,
    PointerKindAttr,
    MultimemReductionKindAttr,
)

CUDA_TILE_ATTRS = (*ENUM_ATTRS, OptimizationHintsAttr, *ASSUME_PREDICATES)
