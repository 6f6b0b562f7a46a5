"""Comparisons and selection (cmpf, cmpi, select)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import ClassVar

from xdsl.dialects.builtin import Float4E2M1FNType, IntegerType
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import (
    ComparisonOrdering,
    ComparisonOrderingAttr,
    ComparisonPredicate,
    ComparisonPredicateAttr,
    Signedness,
    SignednessAttr,
)
from ..types import TileType
from ._common import (
    AnyTile,
    BaseFloatTile,
    BoolTile,
    CudaTileOp,
    OrderingKeyword,
    PredicateKeyword,
    IntTile,
    SignednessKeyword,
    same_shape,
)
from ._folding import elementwise, int_constant, int_elements, signed, width_of


_PREDICATES: dict[ComparisonPredicate, Callable[[int, int], bool]] = {
    ComparisonPredicate.EQUAL: operator.eq,
    ComparisonPredicate.NOT_EQUAL: operator.ne,
    ComparisonPredicate.LESS_THAN: operator.lt,
    ComparisonPredicate.LESS_THAN_OR_EQUAL: operator.le,
    ComparisonPredicate.GREATER_THAN: operator.gt,
    ComparisonPredicate.GREATER_THAN_OR_EQUAL: operator.ge,
}


def _i1_like(t: TileType) -> TileType:
    """``getI1SameShape``: the ``i1`` tile a comparison of ``t`` tiles yields."""
    return TileType(t.shape, IntegerType(1))


class _Compare(CudaTileOp):
    """``cmp* PRED ... %lhs, %rhs ... : T -> tile<...xi1>``."""

    result = result_def(BoolTile)
    comparison_predicate = prop_def(ComparisonPredicateAttr)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        operand = self.operands[0].type
        assert isinstance(operand, TileType)
        if self.result.type != _i1_like(operand):
            raise VerifyException(
                "failed to verify that Result type has i1 element type and same shape "
                "as operands"
            )


@irdl_op_definition
class CmpFOp(_Compare):
    """Element-wise float comparison; ``ordered`` is false when either side is NaN."""

    name = "cuda_tile.cmpf"
    T: ClassVar = VarConstraint("T", BaseFloatTile)
    lhs = operand_def(T)
    rhs = operand_def(T)
    comparison_ordering = prop_def(ComparisonOrderingAttr)
    custom_directives = (PredicateKeyword, OrderingKeyword)
    assembly_format = (
        "custom<PredicateKeyword>($comparison_predicate) "
        "custom<OrderingKeyword>($comparison_ordering) $lhs `,` $rhs attr-dict "
        "`:` type($lhs) `->` type($result)"
    )

    def __init__(
        self,
        predicate: ComparisonPredicate,
        ordering: ComparisonOrdering,
        lhs: SSAValue,
        rhs: SSAValue,
    ):
        assert isinstance(lhs.type, TileType)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[_i1_like(lhs.type)],
            properties={
                "comparison_predicate": ComparisonPredicateAttr(predicate),
                "comparison_ordering": ComparisonOrderingAttr(ordering),
            },
        )


@irdl_op_definition
class CmpIOp(_Compare, HasFolderInterface):
    """Element-wise integer comparison, reading the operands as ``signedness`` says."""

    name = "cuda_tile.cmpi"
    T: ClassVar = VarConstraint("T", IntTile)
    lhs = operand_def(T)
    rhs = operand_def(T)
    signedness = prop_def(SignednessAttr)
    custom_directives = (PredicateKeyword, SignednessKeyword)
    assembly_format = (
        "custom<PredicateKeyword>($comparison_predicate) $lhs `,` $rhs `,` "
        "custom<SignednessKeyword>($signedness) attr-dict `:` type($lhs) `->` type($result)"
    )

    def __init__(
        self,
        predicate: ComparisonPredicate,
        lhs: SSAValue,
        rhs: SSAValue,
        signedness: Signedness,
    ):
        assert isinstance(lhs.type, TileType)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[_i1_like(lhs.type)],
            properties={
                "comparison_predicate": ComparisonPredicateAttr(predicate),
                "signedness": SignednessAttr(signedness),
            },
        )

    def fold(self) -> tuple[Attribute] | None:
        """Constant operands compare lane by lane; ``x PRED x`` is known for
        integers (no NaN): true for ``==``, ``<=``, ``>=``."""
        holds = _PREDICATES[self.comparison_predicate.data]
        if self.lhs == self.rhs:
            return (int_constant(self.result, [holds(0, 0)]),)
        width = width_of(self.lhs)
        assert width is not None
        read = signed if self.signedness.data == Signedness.SIGNED else (lambda bits, _: bits)
        folded = elementwise(
            self.result, [self.lhs, self.rhs], lambda a, b: holds(read(a, width), read(b, width))
        )
        return None if folded is None else (folded,)


@irdl_op_definition
class SelectOp(CudaTileOp, HasFolderInterface):
    """Element-wise ``cond ? val_if_true : val_if_false``."""

    name = "cuda_tile.select"
    T: ClassVar = VarConstraint("T", AnyTile)
    cond = operand_def(BoolTile)
    val_if_true = operand_def(T)
    val_if_false = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = (
        "$cond `,` $val_if_true `,` $val_if_false attr-dict `:` type($cond) `,` "
        "type($result)"
    )

    def __init__(self, cond: SSAValue, val_if_true: SSAValue, val_if_false: SSAValue):
        super().__init__(
            operands=[cond, val_if_true, val_if_false], result_types=[val_if_true.type]
        )

    def fold(self) -> tuple[SSAValue | Attribute] | None:
        """A splat condition picks a side; two equal sides need no condition;
        a constant condition over constant integer sides folds lane by lane."""
        if self.val_if_true == self.val_if_false:
            return (self.val_if_true,)
        cond = int_elements(self.cond)
        if cond is None:
            return None
        if all(cond):
            return (self.val_if_true,)
        if not any(cond):
            return (self.val_if_false,)
        folded = elementwise(
            self.result, [self.cond, self.val_if_true, self.val_if_false], lambda c, t, f: t if c else f
        )
        return None if folded is None else (folded,)

    def verify_(self) -> None:
        same_shape(
            "cond, val_if_true, val_if_false, result",
            self.cond.type,
            self.val_if_true.type,
            self.val_if_false.type,
            self.result.type,
        )
        result = self.result.type
        assert isinstance(result, TileType)
        if isinstance(result.element_type, Float4E2M1FNType):
            raise VerifyException("cannot operate on sub-byte type F4E2M1FN")
