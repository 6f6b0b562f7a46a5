"""Element-wise arithmetic on float and integer tiles (``addf`` ... ``xori``)."""

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

from ..attributes import RoundingModeAttr
from ._common import (
    IEEE_MODES,
    BaseFloatTile,
    CudaTileOp,
    IEEERounding,
    verify_ftz,
    verify_rounding_in,
)


class _FloatBinaryIEEE(CudaTileOp):
    """``op %a, %b [rounding<m>] [flush_to_zero] : T`` with IEEE rounding."""

    T: ClassVar = VarConstraint("T", BaseFloatTile)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    rounding_mode = prop_def(RoundingModeAttr)
    flush_to_zero = opt_prop_def(UnitAttr)
    traits = traits_def(Pure())
    custom_directives = (IEEERounding,)
    assembly_format = (
        "$lhs `,` $rhs custom<IEEERounding>($rounding_mode) "
        "(`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)"
    )

    def verify_(self) -> None:
        verify_rounding_in(self.rounding_mode, IEEE_MODES)
        verify_ftz(self, self.flush_to_zero)


@irdl_op_definition
class AddFOp(_FloatBinaryIEEE):
    """Element-wise floating-point addition."""

    name = "cuda_tile.addf"
