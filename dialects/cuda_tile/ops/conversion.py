"""Conversions and casts (ftof, itof, exti, bitcast, pointer casts, offset).

Every op here maps a tile to a tile of the same shape.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float32Type,
    Float64Type,
    FloatTF32Type,
    UnitAttr,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import (
    IntegerOverflow,
    IntegerOverflowAttr,
    RoundingMode,
    RoundingModeAttr,
    Signedness,
    SignednessAttr,
)
from ..diagnostics import quoted
from ..literals import FloatFormat, element_width
from ..types import Float8E5M3FNUType, TileType
from ._common import (
    IEEE_MODES,
    NO_OVERFLOW,
    CudaTileOp,
    FloatTile,
    I64Tile,
    IEEERounding,
    IntegerRounding,
    IntOrI4Tile,
    IntTile,
    NumberTile,
    PointerTile,
    RoundingDirective,
    SignednessKeyword,
    SourceToResultOp,
    TileToTileOp,
    directive_variant,
    same_shape,
    same_type,
)


class _SourceCast(SourceToResultOp):
    """A cast whose operand is named ``source`` and result ``result``."""

    def verify_(self) -> None:
        same_shape("source, result", *self._types())


@irdl_op_definition
class BitcastOp(_SourceCast):
    """Reinterprets the bits of each element as another number type of the same width."""

    name = "cuda_tile.bitcast"
    source = operand_def(NumberTile)
    result = result_def(NumberTile)

    def verify_(self) -> None:
        super().verify_()
        source, result = self._types()
        src_width = element_width(source.element_type)
        res_width = element_width(result.element_type)
        if src_width != res_width:
            raise VerifyException(
                f"types must be equal width, cannot convert {quoted(source)} of "
                f"width {src_width} to type {quoted(result)} of width {res_width}"
            )


@irdl_op_definition
class IntToPtrOp(_SourceCast):
    """Pointers from ``i64`` addresses (read as unsigned)."""

    name = "cuda_tile.int_to_ptr"
    source = operand_def(I64Tile)
    result = result_def(PointerTile)


@irdl_op_definition
class PtrToIntOp(_SourceCast):
    """The ``i64`` addresses of pointers (to be read as unsigned)."""

    name = "cuda_tile.ptr_to_int"
    source = operand_def(PointerTile)
    result = result_def(I64Tile)


@irdl_op_definition
class PtrToPtrOp(_SourceCast):
    """The same addresses as pointers to another element type."""

    name = "cuda_tile.ptr_to_ptr"
    source = operand_def(PointerTile)
    result = result_def(PointerTile)


class _FromTo(TileToTileOp):
    """``op %from ... : A -> B``, element-wise: ``from`` and ``to`` have one shape."""

    def _verify_shape(self) -> None:
        same_shape("from, to", *self._types())


@irdl_op_definition
class ExtIOp(_FromTo):
    """Integers widened by sign- or zero-extension."""

    name = "cuda_tile.exti"
    from_ = operand_def(IntOrI4Tile)
    to = result_def(IntOrI4Tile)
    signedness = prop_def(SignednessAttr)
    custom_directives = (SignednessKeyword,)
    assembly_format = (
        "$from_ custom<SignednessKeyword>($signedness) attr-dict `:` type($from_) "
        "`->` type($to)"
    )

    def __init__(self, from_: SSAValue, to: TileType, signedness: Signedness):
        super().__init__(
            operands=[from_], result_types=[to], properties={"signedness": SignednessAttr(signedness)}
        )

    def verify_(self) -> None:
        self._verify_shape()
        source, result = self._types()
        if element_width(result.element_type) <= element_width(source.element_type):
            raise VerifyException("extending to smaller or identical integer")


@irdl_op_definition
class TruncIOp(_FromTo):
    """Integers narrowed by dropping high bits; ``overflow`` says which bits are known zero/sign."""

    name = "cuda_tile.trunci"
    from_ = operand_def(IntOrI4Tile)
    to = result_def(IntOrI4Tile)
    overflow = prop_def(IntegerOverflowAttr, default_value=NO_OVERFLOW)
    assembly_format = (
        "$from_ (`overflow` `` $overflow^)? attr-dict `:` type($from_) `->` type($to)"
    )

    def __init__(
        self, from_: SSAValue, to: TileType, overflow: IntegerOverflow = IntegerOverflow.NONE
    ):
        super().__init__(
            operands=[from_], result_types=[to], properties={"overflow": IntegerOverflowAttr(overflow)}
        )

    def verify_(self) -> None:
        self._verify_shape()
        source, result = self._types()
        if element_width(result.element_type) >= element_width(source.element_type):
            raise VerifyException("truncating to larger or identical integer")


# ftof rounding rules (Tile IR 13.4), by the kind of conversion.
_NARROW_MODES = (RoundingMode.NEAREST_EVEN, RoundingMode.ZERO)
_WIDEN_MODES = (*IEEE_MODES, RoundingMode.NEAREST_AWAY)
_TF32_MODES = (*_NARROW_MODES, RoundingMode.NEAREST_AWAY)


@directive_variant
class FToFRounding(RoundingDirective):
    """``ftof``'s ``rounding<mode>``: the IEEE modes and ``nearest_away``."""

    ALLOWED = _WIDEN_MODES

_LOW_PRECISION = (Float8E4M3FNType, Float8E5M2Type, Float4E2M1FNType, Float8E5M3FNUType)


def _ftof_rule(source: Attribute, result: Attribute) -> tuple[tuple[RoundingMode, ...], str]:
    """The rounding modes ``ftof`` allows from ``source`` to ``result``, and the error."""
    if isinstance(result, Float8E8M0FNUType):
        return (RoundingMode.ZERO, RoundingMode.POSITIVE_INF), (
            "invalid rounding mode specified for conversion to f8E8M0FNU. Only 'zero' "
            "and 'positive_inf' are supported"
        )
    if isinstance(result, _LOW_PRECISION):
        return (RoundingMode.NEAREST_EVEN,), (
            "invalid rounding mode specified for conversion to low-precision type. "
            "Only 'nearest_even' is supported"
        )
    if isinstance(source, Float32Type) and isinstance(result, FloatTF32Type):
        return _TF32_MODES, (
            "invalid rounding mode specified for conversion from f32 to tf32. Only "
            "'nearest_even', 'zero', and 'nearest_away' are supported"
        )
    if isinstance(source, Float64Type) and isinstance(result, Float32Type):
        return IEEE_MODES, (
            "invalid rounding mode specified for conversion from f64 to f32. Only "
            "'nearest_even', 'zero', 'negative_inf', and 'positive_inf' are supported"
        )
    if FloatFormat.of(result).represents_all_of(FloatFormat.of(source)):
        return _WIDEN_MODES, (
            "invalid rounding mode specified for widening conversion. Only IEEE float "
            "rounding modes are supported: 'nearest_even', 'zero', 'negative_inf', "
            "'positive_inf', 'nearest_away'"
        )
    return _NARROW_MODES, (
        "invalid rounding mode specified. Only 'nearest_even' and 'zero' are supported "
        "for narrowing conversions to standard types"
    )


_NEAREST_EVEN = RoundingModeAttr(RoundingMode.NEAREST_EVEN)


@irdl_op_definition
class FToFOp(_FromTo):
    """Floats converted to another float type, rounded by ``rounding_mode``."""

    name = "cuda_tile.ftof"
    from_ = operand_def(FloatTile)
    to = result_def(FloatTile)
    rounding_mode = prop_def(RoundingModeAttr, default_value=_NEAREST_EVEN)
    custom_directives = (FToFRounding,)
    assembly_format = (
        "$from_ custom<FToFRounding>($rounding_mode) attr-dict `:` type($from_) "
        "`->` type($to)"
    )

    def __init__(
        self,
        from_: SSAValue,
        to: TileType,
        rounding_mode: RoundingMode = RoundingMode.NEAREST_EVEN,
    ):
        super().__init__(
            operands=[from_],
            result_types=[to],
            properties={"rounding_mode": RoundingModeAttr(rounding_mode)},
        )

    def verify_(self) -> None:
        self._verify_shape()
        source, result = self._types()
        if source == result:
            raise VerifyException("converting tiles must not be a no-op")
        allowed, message = _ftof_rule(source.element_type, result.element_type)
        if self.rounding_mode.data not in allowed:
            raise VerifyException(message)

    def version_needed(self) -> tuple[str, str]:
        """13.4 for a widening conversion (f32 -> f64) with a rounding mode other
        than ``nearest_even``: NVIDIA's verifier for 13.1-13.3 refuses it,
        tileiras 13.4.92 takes it.  (``nearest_away``, itself a 13.4 case, is
        reported by the writer as such.)"""
        source, result = self._types()
        mode = self.rounding_mode.data
        widening = FloatFormat.of(result.element_type).represents_all_of(
            FloatFormat.of(source.element_type)
        )
        if not widening or mode in (RoundingMode.NEAREST_EVEN, RoundingMode.NEAREST_AWAY):
            return super().version_needed()
        what = (
            f"'{self.name}' from {quoted(source)} to {quoted(result)} with rounding<{mode.value}>"
        )
        return ROUNDED_FTOF_SINCE, what  # ftof itself is 13.1


ROUNDED_FTOF_SINCE = "13.4"
"""The version whose ``ftof`` widens with rounding modes other than ``nearest_even``."""


_TO_ZERO = RoundingModeAttr(RoundingMode.NEAREST_INT_TO_ZERO)


@irdl_op_definition
class FToIOp(_FromTo):
    """Floats converted to integers, rounded toward zero; ``saturating`` (13.4) clamps."""

    name = "cuda_tile.ftoi"
    from_ = operand_def(FloatTile)
    to = result_def(IntTile)
    signedness = prop_def(SignednessAttr)
    rounding_mode = prop_def(RoundingModeAttr, default_value=_TO_ZERO)
    saturating = opt_prop_def(UnitAttr)
    custom_directives = (SignednessKeyword, IntegerRounding)
    assembly_format = (
        "$from_ custom<SignednessKeyword>($signedness) "
        "custom<IntegerRounding>($rounding_mode) (`saturating` $saturating^)? "
        "attr-dict `:` type($from_) `->` type($to)"
    )

    def __init__(
        self, from_: SSAValue, to: TileType, signedness: Signedness, saturating: bool = False
    ):
        super().__init__(
            operands=[from_],
            result_types=[to],
            properties={
                "signedness": SignednessAttr(signedness),
                "rounding_mode": _TO_ZERO,
                "saturating": UnitAttr() if saturating else None,
            },
        )

    def verify_(self) -> None:
        self._verify_shape()
        if self.rounding_mode.data != RoundingMode.NEAREST_INT_TO_ZERO:
            raise VerifyException(
                "invalid rounding mode specified. Only 'nearest_int_to_zero' is supported"
            )


@irdl_op_definition
class IToFOp(_FromTo):
    """Integers converted to the nearest float (read as ``signedness`` says)."""

    name = "cuda_tile.itof"
    from_ = operand_def(IntTile)
    to = result_def(FloatTile)
    signedness = prop_def(SignednessAttr)
    rounding_mode = prop_def(RoundingModeAttr, default_value=_NEAREST_EVEN)
    custom_directives = (SignednessKeyword, IEEERounding)
    assembly_format = (
        "$from_ custom<SignednessKeyword>($signedness) "
        "custom<IEEERounding>($rounding_mode) attr-dict `:` type($from_) `->` type($to)"
    )

    def __init__(self, from_: SSAValue, to: TileType, signedness: Signedness):
        super().__init__(
            operands=[from_],
            result_types=[to],
            properties={"signedness": SignednessAttr(signedness), "rounding_mode": _NEAREST_EVEN},
        )

    def verify_(self) -> None:
        self._verify_shape()
        _, result = self._types()
        if isinstance(result.element_type, Float8E8M0FNUType):
            raise VerifyException(
                "integer to f8E8M0FNU conversion is not supported, please first convert "
                "to another float type"
            )
        if self.rounding_mode.data != RoundingMode.NEAREST_EVEN:
            raise VerifyException(
                "invalid rounding mode specified. Only 'nearest_even' is supported"
            )


@irdl_op_definition
class OffsetOp(CudaTileOp):
    """Pointers advanced by ``offset`` elements of their pointee type."""

    name = "cuda_tile.offset"
    ptr = operand_def(PointerTile)
    offset = operand_def(IntTile)
    result = result_def(PointerTile)
    traits = traits_def(Pure())
    assembly_format = (
        "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset) `->` type($result)"
    )

    def __init__(self, ptr: SSAValue, offset: SSAValue):
        super().__init__(operands=[ptr, offset], result_types=[ptr.type])

    def verify_(self) -> None:
        same_type("result, ptr", self.result.type, self.ptr.type)
        shapes = {
            t.shape
            for t in (self.ptr.type, self.offset.type, self.result.type)
            if isinstance(t, TileType)
        }
        if len(shapes) != 1:
            raise VerifyException("requires the same shape for all operands and results")
