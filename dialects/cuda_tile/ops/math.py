"""Math functions on float tiles (exp, sqrt, tanh, atan2, ...).

Each op takes f16, bf16, f32 or f64 tiles (half precision is computed in f32).
The modifiers follow NVIDIA's per-op sets: ``exp``/``tanh`` take
``rounding<approx|full>`` (default ``full``), ``sqrt`` an IEEE mode or
``approx``, ``exp2``/``rsqrt``/``sqrt`` ``flush_to_zero``; ``approx``, ``full``
and ``flush_to_zero`` all need f32 elements.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import UnitAttr
from xdsl.irdl import (
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from ..attributes import RoundingMode, RoundingModeAttr
from ._common import (
    BaseFloatTile,
    CudaTileOp,
    verify_f32_modifier,
    verify_ftz,
    verify_rounding_in,
)
from .arith import ApproxFullFRounding, FloatUnaryOp, SqrtFRounding, verify_div_sqrt


class _FloatUnaryFtz(FloatUnaryOp):
    """``op %source [flush_to_zero] : T``."""

    flush_to_zero = opt_prop_def(UnitAttr)
    assembly_format = (
        "$source (`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)"
    )

    def verify_(self) -> None:
        verify_ftz(self, self.flush_to_zero)


class _FloatUnaryApproxFull(FloatUnaryOp):
    """``op %source [rounding<approx|full>] : T`` (``full`` elided)."""

    rounding_mode = prop_def(
        RoundingModeAttr, default_value=RoundingModeAttr(RoundingMode.FULL)
    )
    custom_directives = (ApproxFullFRounding,)
    assembly_format = (
        "$source custom<ApproxFullFRounding>($rounding_mode) attr-dict "
        "`:` type($result)"
    )

    def verify_(self) -> None:
        verify_rounding_in(self.rounding_mode, ApproxFullFRounding.ALLOWED)
        verify_f32_modifier(
            self, "approx", self.rounding_mode.data == RoundingMode.APPROX
        )


@irdl_op_definition
class CeilOp(FloatUnaryOp):
    """Element-wise ceiling (round toward +inf to an integral value)."""

    name = "cuda_tile.ceil"


@irdl_op_definition
class FloorOp(FloatUnaryOp):
    """Element-wise floor (round toward -inf to an integral value)."""

    name = "cuda_tile.floor"


@irdl_op_definition
class CosOp(FloatUnaryOp):
    """Element-wise cosine."""

    name = "cuda_tile.cos"


@irdl_op_definition
class CosHOp(FloatUnaryOp):
    """Element-wise hyperbolic cosine."""

    name = "cuda_tile.cosh"


@irdl_op_definition
class SinOp(FloatUnaryOp):
    """Element-wise sine."""

    name = "cuda_tile.sin"


@irdl_op_definition
class SinHOp(FloatUnaryOp):
    """Element-wise hyperbolic sine."""

    name = "cuda_tile.sinh"


@irdl_op_definition
class TanOp(FloatUnaryOp):
    """Element-wise tangent."""

    name = "cuda_tile.tan"


@irdl_op_definition
class TanHOp(_FloatUnaryApproxFull):
    """Element-wise hyperbolic tangent."""

    name = "cuda_tile.tanh"


@irdl_op_definition
class ExpOp(_FloatUnaryApproxFull):
    """Element-wise natural exponential ``e ** source``."""

    name = "cuda_tile.exp"


@irdl_op_definition
class Exp2Op(_FloatUnaryFtz):
    """Element-wise ``2 ** source``."""

    name = "cuda_tile.exp2"


@irdl_op_definition
class LogOp(FloatUnaryOp):
    """Element-wise natural logarithm."""

    name = "cuda_tile.log"


@irdl_op_definition
class Log2Op(FloatUnaryOp):
    """Element-wise base-2 logarithm."""

    name = "cuda_tile.log2"


@irdl_op_definition
class RsqrtOp(_FloatUnaryFtz):
    """Element-wise reciprocal square root ``1 / sqrt(source)``."""

    name = "cuda_tile.rsqrt"


@irdl_op_definition
class SqrtOp(FloatUnaryOp):
    """Element-wise square root (IEEE-rounded or ``approx``)."""

    name = "cuda_tile.sqrt"
    rounding_mode = prop_def(RoundingModeAttr)
    flush_to_zero = opt_prop_def(UnitAttr)
    custom_directives = (SqrtFRounding,)
    assembly_format = (
        "$source custom<SqrtFRounding>($rounding_mode) "
        "(`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)"
    )

    def verify_(self) -> None:
        verify_div_sqrt(
            self, self.rounding_mode, self.flush_to_zero, SqrtFRounding.ALLOWED
        )


@irdl_op_definition
class Atan2Op(CudaTileOp):
    """Element-wise arc tangent of ``x / y``, quadrant from the signs of both."""

    name = "cuda_tile.atan2"
    SINCE: ClassVar[str] = "13.2"
    T: ClassVar = VarConstraint("T", BaseFloatTile)
    x = operand_def(T)
    y = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$x `,` $y attr-dict `:` type($result)"
