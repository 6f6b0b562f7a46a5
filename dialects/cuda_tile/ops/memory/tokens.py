"""Tokens, fences, allocation: ``make_token`` starts a chain, ``join_tokens``
merges chains, ``memory_fence_alias_tko`` orders aliasing accesses, ``alloca``
allocates its result."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr, UnitAttr
from xdsl.ir import Operation
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import (
    EffectInstance,
    MemoryEffect,
    MemoryEffectKind,
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from ...diagnostics import quoted
from ...types import PointerType, TileType
from .._common import Token, CudaTileOp, ScalarPointerTile
from ._common import TokenOrderedOp, _bit_width


class AllocatesResult(MemoryEffect):
    """Allocates the memory its result points to (MLIR's ``MemAlloc`` on the result).

    An allocation nobody uses can be removed; two allocations never merge.
    """

    @classmethod
    def get_effects(cls, op: Operation) -> frozenset[EffectInstance]:
        return frozenset({EffectInstance(MemoryEffectKind.ALLOC, op.results[0])})


# --------------------------------------------------------------------------
# Tokens, fences, allocation
# --------------------------------------------------------------------------


@irdl_op_definition
class MakeTokenOp(CudaTileOp):
    """A fresh token with no prior dependencies."""

    name = "cuda_tile.make_token"
    result = result_def(Token)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"


@irdl_op_definition
class JoinTokensOp(CudaTileOp):
    """A token that depends on all of ``tokens``."""

    name = "cuda_tile.join_tokens"
    tokens = var_operand_def(Token)
    result = result_def(Token)
    traits = traits_def(Pure())
    assembly_format = "$tokens attr-dict `:` type($result)"

    def verify_(self) -> None:
        if len(self.tokens) < 2:
            raise VerifyException("expect two or more tokens")


@irdl_op_definition
class MemoryFenceAliasTkoOp(TokenOrderedOp):
    """Orders, along the token chain, accesses to one memory through different virtual aliases."""

    name = "cuda_tile.memory_fence_alias_tko"
    SINCE: ClassVar[str] = "13.4"
    token = operand_def(Token)
    result_token = result_def(Token)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "$token attr-dict"


_MIN_ZERO = "64-bit signless integer attribute whose minimum value is 0"


@irdl_op_definition
class AllocaOp(CudaTileOp):
    """Allocates ``num_elem`` elements, ``alignment``-aligned, for the enclosing block."""

    name = "cuda_tile.alloca"
    SINCE: ClassVar[str] = "13.3"
    num_elem = prop_def(IntegerAttr[I64])
    alignment = prop_def(IntegerAttr[I64])
    global_ = opt_prop_def(UnitAttr, prop_name="global")
    """Other tile blocks may access the allocation too."""
    result = result_def(ScalarPointerTile)
    traits = traits_def(AllocatesResult())
    assembly_format = (
        "`num_elem` `=` $num_elem `,` `alignment` `=` $alignment "
        "(`global` $global^)? attr-dict `:` type($result)"
    )

    def verify_(self) -> None:
        for name, attr in (("num_elem", self.num_elem), ("alignment", self.alignment)):
            if attr.value.data < 0:
                raise VerifyException(
                    f"attribute '{name}' failed to satisfy constraint: {_MIN_ZERO}"
                )
        alignment = self.alignment.value.data
        if alignment <= 0 or alignment & (alignment - 1):
            raise VerifyException("'alignment' must be power of two")
        pointer = self.result.type
        assert isinstance(pointer, TileType) and isinstance(pointer.element_type, PointerType)
        pointee = pointer.element_type.pointee
        width = _bit_width(pointee) or 0
        size = 1 if width == 1 else width // 8
        if alignment < size:
            raise VerifyException(
                f"'alignment' ({alignment}) must be at least the natural size ({size} "
                f"bytes) for element type {quoted(pointee)}"
            )
