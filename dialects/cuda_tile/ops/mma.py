"""Matrix multiply-accumulate (mmaf, mmai, mmaf_scaled).

All three compute ``lhs @ rhs + acc`` on 2-d tiles (``MxK``, ``KxN``, ``MxN``)
or batched 3-d tiles (``BxMxK``, ...).  The shape rules are NVIDIA's
``verifyMmaShapes``; the element type rules are the ODS constraints plus the
C++ verifiers of ``MmaFOp`` and ``MmaFScaledOp``.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatTF32Type,
    IntegerType,
    UnitAttr,
)
from xdsl.ir import Attribute, SSAValue
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
from xdsl.utils.exceptions import VerifyException

from ..attributes import SignednessAttr
from ..diagnostics import quoted, shape_text, type_text
from ..types import Float8E5M3FNUType, TileType
from ._common import CudaTileOp, SignednessKeyword, TileOf, same_element_type, same_rank

F16, BF16, F32, F64, TF32 = (
    Float16Type(),
    BFloat16Type(),
    Float32Type(),
    Float64Type(),
    FloatTF32Type(),
)
F8E4M3FN, F8E5M2, F8E8M0FNU = Float8E4M3FNType(), Float8E5M2Type(), Float8E8M0FNUType()
F4E2M1FN, F8E5M3FNU = Float4E2M1FNType(), Float8E5M3FNUType()

MMAF_ACCUMULATORS: dict[Attribute, tuple[Attribute, ...]] = {
    F8E4M3FN: (F16, F32),
    F8E5M2: (F16, F32),
    F16: (F16, F32),
    BF16: (F32,),
    TF32: (F32,),
    F32: (F32,),
    F64: (F64,),
}
"""``mmaf``: the accumulator/result element types allowed for each input type."""

F4_ONLY_SCALES = (F8E4M3FN, F8E5M3FNU)
"""``mmaf_scaled`` scale types that scale only ``f4E2M1FN`` inputs.

``f8E8M0FNU`` scales every input type.  ``f8E5M3FNU`` (a 13.4 developer
preview) behaves like ``f8E4M3FN`` here (checked against tileirdisasm 13.4).
"""

F4_BLOCK_SIZES: dict[Attribute, tuple[int, ...]] = {
    F8E4M3FN: (16,),
    F8E8M0FNU: (16, 32),
    F8E5M3FNU: (16, 32),
}
"""K elements per scale factor allowed for f4 inputs, by scale type (f8 needs 32)."""

MmaFOperandTile = TileOf(
    "mmaf operand tile type of f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or "
    "f8E5M2 values",
    lambda t: t in MMAF_ACCUMULATORS,
)
MmaFResultTile = TileOf(
    "mmaf acc/result tile type of f16 or f32 or f64 values",
    lambda t: t in (F16, F32, F64),
)
MmaFScaledOperandTile = TileOf(
    "mmaf_scaled operand tile type of f8E4M3FN or f8E5M2 or f4E2M1FN values",
    lambda t: t in (F8E4M3FN, F8E5M2, F4E2M1FN),
)
MmaFScaledScaleTile = TileOf(
    # NVIDIA's 13.4 tools spell the new scale type ``fnv8E5M3FNU``.
    "mmaf_scaled scale tile type of f8E4M3FN or f8E8M0FNU or fnv8E5M3FNU values",
    lambda t: t in (F8E4M3FN, F8E8M0FNU, F8E5M3FNU),
)
MmaFScaledResultTile = TileOf(
    "mmaf_scaled result tile type of f32 values", lambda t: t == F32
)
MmaIOperandTile = TileOf(
    "mmai operand tile type of i8 values", lambda t: t == IntegerType(8)
)
MmaIAccTile = TileOf("mmai acc tile type of i32 values", lambda t: t == IntegerType(32))


# --------------------------------------------------------------------------
# Shared verification
# --------------------------------------------------------------------------


def _tiles(*values: SSAValue) -> list[TileType]:
    """The operand types; the operand constraints have checked they are tiles."""
    tiles: list[TileType] = []
    for value in values:
        assert isinstance(value.type, TileType)
        tiles.append(value.type)
    return tiles


def _require_dim_match(
    a_name: str, a: TileType, a_dim: int, b_name: str, b: TileType, b_dim: int
) -> None:
    if a.shape[a_dim] != b.shape[b_dim]:
        raise VerifyException(
            f"shape error: dim {a_dim} of {a_name} ({a.shape[a_dim]}) and dim "
            f"{b_dim} of {b_name} ({b.shape[b_dim]}) must match, but got {a_name} "
            f"shape ({shape_text(a.shape)}) and {b_name} shape ({shape_text(b.shape)})"
        )


def verify_mma_shapes(lhs: TileType, rhs: TileType, acc: TileType) -> int:
    """NVIDIA's ``verifyMmaShapes``; returns 1 for batched (3-d) MMA, else 0."""
    if lhs.rank not in (2, 3):
        raise VerifyException("operands must be 2D or 3D tiles")
    batched = int(lhs.rank == 3)
    if batched:
        _require_dim_match("lhs", lhs, 0, "rhs", rhs, 0)
        _require_dim_match("lhs", lhs, 0, "acc", acc, 0)
    row, col = batched, batched + 1
    _require_dim_match("lhs", lhs, col, "rhs", rhs, row)
    _require_dim_match("lhs", lhs, row, "acc", acc, row)
    _require_dim_match("rhs", rhs, col, "acc", acc, col)
    return batched


def verify_mma(lhs: TileType, rhs: TileType, acc: TileType) -> int:
    """The rules ``mmaf`` and ``mmai`` share, in NVIDIA's order; returns ``batched``."""
    same_element_type("lhs, rhs", lhs, rhs)
    same_rank("lhs, rhs, acc", lhs, rhs, acc)
    return verify_mma_shapes(lhs, rhs, acc)


# --------------------------------------------------------------------------
# Ops
# --------------------------------------------------------------------------


@irdl_op_definition
class MmaFOp(CudaTileOp):
    """Floating-point matrix multiply-accumulate: ``result = lhs @ rhs + acc``."""

    name = "cuda_tile.mmaf"
    ACC: ClassVar = VarConstraint("ACC", MmaFResultTile)
    lhs = operand_def(MmaFOperandTile)
    rhs = operand_def(MmaFOperandTile)
    acc = operand_def(ACC)
    result = result_def(ACC)
    fast_acc = opt_prop_def(UnitAttr)
    """Fast (less precise) fp8 accumulation on Hopper (13.3)."""
    traits = traits_def(Pure())
    assembly_format = (
        "$lhs `,` $rhs `,` $acc (`fast_acc` $fast_acc^)? attr-dict `:` "
        "type($lhs) `,` type($rhs) `,` type($acc)"
    )

    def verify_(self) -> None:
        lhs, rhs, acc = _tiles(self.lhs, self.rhs, self.acc)
        verify_mma(lhs, rhs, acc)
        allowed = MMAF_ACCUMULATORS[lhs.element_type]
        if acc.element_type not in allowed:
            raise VerifyException(
                "unsupported combination of element types. Input type "
                f"{quoted(lhs.element_type)} expects accumulator/result type to be "
                f"one of {{{', '.join(map(quoted, allowed))}}}, but got "
                f"{quoted(acc.element_type)}"
            )


@irdl_op_definition
class MmaIOp(CudaTileOp):
    """Integer matrix multiply-accumulate (i8 inputs, i32 acc): ``lhs @ rhs + acc``."""

    name = "cuda_tile.mmai"
    ACC: ClassVar = VarConstraint("ACC", MmaIAccTile)
    lhs = operand_def(MmaIOperandTile)
    rhs = operand_def(MmaIOperandTile)
    acc = operand_def(ACC)
    result = result_def(ACC)
    signedness_lhs = prop_def(SignednessAttr)
    signedness_rhs = prop_def(SignednessAttr)
    traits = traits_def(Pure())
    custom_directives = (SignednessKeyword,)
    assembly_format = (
        "$lhs `,` $rhs `,` $acc custom<SignednessKeyword>($signedness_lhs) "
        "custom<SignednessKeyword>($signedness_rhs) attr-dict `:` "
        "type($lhs) `,` type($rhs) `,` type($acc)"
    )

    def verify_(self) -> None:
        verify_mma(*_tiles(self.lhs, self.rhs, self.acc))


@irdl_op_definition
class MmaFScaledOp(CudaTileOp):
    """Block-scaled MMA: ``result = (lhs * lhs_scale) @ (rhs * rhs_scale) + acc``.

    Each scale element scales a block of consecutive elements along K; the
    block size is ``K / K_scale``.
    """

    name = "cuda_tile.mmaf_scaled"
    SINCE: ClassVar[str] = "13.3"
    ACC: ClassVar = VarConstraint("ACC", MmaFScaledResultTile)
    lhs = operand_def(MmaFScaledOperandTile)
    rhs = operand_def(MmaFScaledOperandTile)
    acc = operand_def(ACC)
    lhs_scale = operand_def(MmaFScaledScaleTile)
    rhs_scale = operand_def(MmaFScaledScaleTile)
    result = result_def(ACC)
    traits = traits_def(Pure())
    assembly_format = (
        "$lhs `,` $rhs `,` $acc `,` $lhs_scale `,` $rhs_scale attr-dict `:` "
        "type($lhs) `,` type($rhs) `,` type($acc) `,` type($lhs_scale) `,` "
        "type($rhs_scale)"
    )

    def verify_(self) -> None:
        lhs, rhs, acc, lhs_scale, rhs_scale = _tiles(
            self.lhs, self.rhs, self.acc, self.lhs_scale, self.rhs_scale
        )
        same_element_type("lhs, rhs", lhs, rhs)
        same_element_type("lhs_scale, rhs_scale", lhs_scale, rhs_scale)
        same_rank("lhs, rhs, acc, lhs_scale, rhs_scale", lhs, rhs, acc, lhs_scale, rhs_scale)
        batched = verify_mma_shapes(lhs, rhs, acc)
        row, col = batched, batched + 1
        if batched:
            _require_dim_match("lhs", lhs, 0, "lhs_scale", lhs_scale, 0)
            _require_dim_match("rhs", rhs, 0, "rhs_scale", rhs_scale, 0)
        # M and N match their scales; K of the scales is K / block size.
        _require_dim_match("lhs", lhs, row, "lhs_scale", lhs_scale, row)
        _require_dim_match("rhs", rhs, col, "rhs_scale", rhs_scale, col)
        _require_dim_match("lhs_scale", lhs_scale, col, "rhs_scale", rhs_scale, row)
        _verify_scaled_types(lhs, lhs_scale, col)


def _verify_scaled_types(lhs: TileType, lhs_scale: TileType, k_dim: int) -> None:
    """Input/scale type combination and block size (``MmaFScaledOp::verify``)."""
    element, scale = lhs.element_type, lhs_scale.element_type
    if scale in F4_ONLY_SCALES and element != F4E2M1FN:
        raise VerifyException(
            f"unsupported combination of element types. Scale type {quoted(scale)} "
            f"expects lhs and rhs element types to be {quoted(F4E2M1FN)}, but got "
            f"{quoted(element)}"
        )
    k, scale_k = lhs.shape[k_dim], lhs_scale.shape[k_dim]
    if k % scale_k:
        raise VerifyException(
            f"shape error: dim {k_dim} of lhs_scale ({scale_k}) must be a divisor "
            f"of dim {k_dim} of lhs ({k}), but got lhs_scale shape "
            f"({shape_text(lhs_scale.shape)}) and lhs shape ({shape_text(lhs.shape)})"
        )
    block = k // scale_k
    if element == F4E2M1FN:
        allowed = F4_BLOCK_SIZES[scale]
        what = f"{type_text(element)} element type with {type_text(scale)} scales"
    else:
        allowed, what = (32,), "f8 element type"
    if block not in allowed:
        raise VerifyException(
            f"shape error: {what} requires block scale factor of lhs_scale and "
            f"rhs_scale to be {' or '.join(map(str, allowed))}, but got {block}"
        )
