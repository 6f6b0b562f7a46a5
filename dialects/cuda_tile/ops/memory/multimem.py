"""Multimem view accesses (Tile IR 13.5): ``multimem_load_reduce_view_tko``,
``multimem_reduce_view_tko``, ``multimem_store_view_tko`` on a view over a
``multicast`` pointer; syntax and rules as 13.5.37's tools show them."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import BFloat16Type, DenseArrayBase, Float16Type, IntegerType, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from ...attributes import (
    MemoryOrderingAttr,
    MemoryScopeAttr,
    MultimemReductionKind,
    MultimemReductionKindAttr,
    PointerKind,
)
from ...diagnostics import quoted
from ...literals import element_width
from ...types import (
    PartitionViewType,
    TileType,
    TileViewType,
    TokenType,
    is_base_float,
    is_float,
    pointer_kind,
)
from .._common import AnyTile, Token, IntTile
from ._common import (
    AnyTileView,
    OrderedLoadEffects,
    TokenOrderedOp,
    _LOAD_ORDERINGS,
    _STORE_ORDERINGS,
    _VIEW_ACCESS_MESSAGES,
    _parse_attr_dict,
    _parse_inbounds,
    _parse_memory_attributes,
    _parse_optional_token,
    _print_inbounds,
    _print_index_types,
    _print_memory_attributes,
    _print_optional_token,
    _verify_memory_model,
    _verify_view_access,
)
from .views import MakeTensorViewOp, MakeViewOp


# --------------------------------------------------------------------------
# Multimem view accesses (13.5; syntax and rules as 13.5.37's tools show them)
# --------------------------------------------------------------------------


class MultimemOp(TokenOrderedOp):
    """``multimem_*_view_tko``: a tile of a view over a ``multicast`` pointer.

    Syntax, as 13.5's ``tileirdisasm`` prints it::

        multimem_store_view_tko ORD [SCOPE] %view, %tile[%i, ...] [token = %t]
            [inbounds = [...]] [attributes {...}] : VIEW, TILE, INDEX... [, token] -> token
        multimem_load_reduce_view_tko ORD [SCOPE] %view[%i, ...] ...
            : VIEW, INDEX... [, token] -> TILE, token

    The index types are one type for all or one each; the input token's type
    ends the list when there is one.  ``reduction`` (not on the store) prints
    in the attribute dictionary, left out when it is ``add``, the default.
    """

    memory_ordering_semantics = prop_def(MemoryOrderingAttr)
    memory_scope = opt_prop_def(MemoryScopeAttr)
    inbounds = opt_prop_def(DenseArrayBase.constr(i1))
    """Per index dimension; absent means all false (not printed)."""
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    HAS_TILE: ClassVar[bool] = True
    """Whether a ``tile`` operand follows the view (store, reduce).  Each op
    defines its operands ``view [tile] index token`` in that order."""
    HAS_REDUCTION: ClassVar[bool] = True

    @property
    def view_operand(self) -> SSAValue:
        return self.operands[0]

    @property
    def tile_operand(self) -> SSAValue | None:
        return self.operands[1] if self.HAS_TILE else None

    @property
    def index_operands(self) -> Sequence[SSAValue]:
        return getattr(self, "index")

    @property
    def token_operand(self) -> SSAValue | None:
        return getattr(self, "token")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        props = _parse_memory_attributes(parser, _VIEW_ACCESS_MESSAGES)
        view = parser.parse_unresolved_operand()
        tile = None
        if cls.HAS_TILE:
            parser.parse_punctuation(",")
            tile = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        token = _parse_optional_token(parser)
        props |= _parse_inbounds(parser)
        attrs = _parse_attr_dict(parser)
        if cls.HAS_REDUCTION:
            default = MultimemReductionKindAttr(MultimemReductionKind.ADD)
            props["reduction"] = attrs.pop("reduction", default)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        pos = parser.pos
        view_type, *types = types
        tile_type = types.pop(0) if tile is not None and types else None
        if token is not None and (not types or not isinstance(types.pop(), TokenType)):
            parser.raise_error("expected the input token's type, 'token', last", pos)
        if len(types) == 1:
            types *= len(indices)
        if len(types) != len(indices) or (tile is not None and tile_type is None):
            parser.raise_error(f"expected {len(indices)} index types", pos)
        parser.parse_punctuation("->")
        result_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        operands: list[SSAValue | list[SSAValue] | None] = [parser.resolve_operand(view, view_type)]
        if tile is not None:
            operands.append(parser.resolve_operand(tile, tile_type))
        operands.append([parser.resolve_operand(i, t) for i, t in zip(indices, types)])
        operands.append(None if token is None else parser.resolve_operand(token, TokenType()))
        op = cls.build(operands=operands, result_types=result_types, properties=props)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_memory_attributes(printer, self)
        printer.print_string(" ")
        printer.print_operand(self.view_operand)
        tile, index, token = self.tile_operand, self.index_operands, self.token_operand
        if tile is not None:
            printer.print_string(", ")
            printer.print_operand(tile)
        printer.print_string("[")
        printer.print_list(index, printer.print_operand)
        printer.print_string("]")
        _print_optional_token(printer, token)
        _print_inbounds(printer, self.inbounds)
        attrs = dict(self.attributes)
        reduction = self.properties.get("reduction")
        if isinstance(reduction, MultimemReductionKindAttr) and (
            reduction.data != MultimemReductionKind.ADD
        ):
            attrs = {"reduction": reduction, **attrs}
        printer.print_op_attributes(attrs, print_keyword=True)
        printer.print_string(" : ")
        printer.print_attribute(self.view_operand.type)
        if tile is not None:
            printer.print_string(", ")
            printer.print_attribute(tile.type)
        _print_index_types(printer, index)
        if token is not None:
            printer.print_string(", ")
            printer.print_attribute(token.type)
        printer.print_string(" -> ")
        printer.print_list(self.result_types, printer.print_attribute)

    @property
    def tile_type(self) -> Attribute:
        """The type of the tile moved: the ``tile`` operand's or the loaded result's."""
        tile = self.tile_operand
        return self.results[0].type if tile is None else tile.type

    def verify_(self) -> None:
        """The checks in the order 13.5.37 reports them (where two fail, the first)."""
        view = self.view_operand.type
        assert isinstance(view, TileViewType)
        _verify_view_access(self.inbounds, self.tile_type, view, self.index_operands)
        self.verify_memory_model()
        elem = view.tile_type().element_type
        _verify_multimem_element(elem, view.tile_type())
        if self.HAS_REDUCTION:
            reduction = self.properties["reduction"]
            assert isinstance(reduction, MultimemReductionKindAttr)
            self.verify_reduction(reduction.data, elem)
        if isinstance(elem, Float16Type | BFloat16Type):
            unit = sum(1 for s in view.tensor_view.strides if s == 1)
            if unit != 1:
                raise VerifyException(
                    "f16/bf16 multimem views must have exactly one element stride "
                    f"statically known to equal 1; got {unit}"
                )
        _verify_multicast_base(self.view_operand)
        if not isinstance(view, PartitionViewType):
            raise VerifyException(
                f"multimem view operations support only partition_view; got {quoted(view)}"
            )

    @abstractmethod
    def verify_memory_model(self) -> None:
        """The orderings and scopes the op accepts."""

    def verify_reduction(self, kind: MultimemReductionKind, elem: Attribute) -> None:
        """What ``reduction`` the element type allows (floats: add, no bitwise kinds)."""
        if is_float(elem) and kind not in _ARITHMETIC_REDUCTIONS:
            raise VerifyException(
                "and/or/xor/umin/umax reductions require integer element types"
            )


_ARITHMETIC_REDUCTIONS = (
    MultimemReductionKind.ADD,
    MultimemReductionKind.MIN,
    MultimemReductionKind.MAX,
)


def _verify_multimem_element(elem: Attribute, tile: TileType) -> None:
    """32/64-bit integers, f16/bf16/f32/f64 in whole 4-byte words."""
    if isinstance(elem, IntegerType):
        if elem.width.data not in (32, 64):
            raise VerifyException(
                "multimem requires 32- or 64-bit integer/index element types; got "
                f"{elem.width.data} bits"
            )
        return
    if not is_base_float(elem):
        raise VerifyException(
            "multimem supports only f16, bf16, f32, and f64 floating-point element types"
        )
    bits = element_width(elem)
    if tile.num_elements * bits % 32:
        raise VerifyException(
            "multimem op requires tile total size to be a multiple of 4 bytes for float "
            f"element types; got {tile.num_elements} element(s) of {bits} bits (total "
            f"{tile.num_elements * bits} bits)"
        )


def _verify_multicast_base(view: SSAValue) -> None:
    """The view's base pointer is multicast: found through ``make_*_view`` and
    ``make_tensor_view`` when they made it, else read from the tensor_view type."""
    tensor_view = view.owner.operands[0] if isinstance(view.owner, MakeViewOp) else None
    if tensor_view is not None and isinstance(tensor_view.owner, MakeTensorViewOp):
        kind = pointer_kind(tensor_view.owner.base.type)
        if kind != PointerKind.MULTICAST:
            raise VerifyException(
                f"expected a multicast pointer, but got {kind.value if kind else 'none'}"
            )
        return
    view_type = view.type
    assert isinstance(view_type, TileViewType)
    found = view_type.tensor_view.kind
    if found is None or found.data != PointerKind.MULTICAST:
        raise VerifyException(f"requires multicast ptr_attr, got {found or 'none'}")


@irdl_op_definition
class MultimemLoadReduceViewTkoOp(MultimemOp):
    """Loads the tile at ``view[index...]`` reduced (``reduction``) over the multicast group."""

    name = "cuda_tile.multimem_load_reduce_view_tko"
    SINCE: ClassVar[str] = "13.5"
    HAS_TILE: ClassVar[bool] = False
    view = operand_def(AnyTileView)
    index = var_operand_def(IntTile)
    token = opt_operand_def(Token)
    reduction = prop_def(MultimemReductionKindAttr)
    reduced_values = result_def(AnyTile)
    result_token = result_def(Token)
    traits = traits_def(OrderedLoadEffects())

    def verify_memory_model(self) -> None:
        _verify_memory_model(
            self.memory_ordering_semantics, self.memory_scope, "load", _LOAD_ORDERINGS
        )

    def verify_reduction(self, kind: MultimemReductionKind, elem: Attribute) -> None:
        super().verify_reduction(kind, elem)
        if kind in _ARITHMETIC_REDUCTIONS[1:] and is_float(elem) and (
            not isinstance(elem, Float16Type | BFloat16Type)
        ):
            raise VerifyException(
                f"min/max supports f16 and bf16 float types only; got {quoted(elem)}"
            )


@irdl_op_definition
class MultimemReduceViewTkoOp(MultimemOp):
    """Reduces ``tile`` (``reduction``) into the tile at ``view[index...]`` of the group."""

    name = "cuda_tile.multimem_reduce_view_tko"
    SINCE: ClassVar[str] = "13.5"
    view = operand_def(AnyTileView)
    tile = operand_def(AnyTile)
    index = var_operand_def(IntTile)
    token = opt_operand_def(Token)
    reduction = prop_def(MultimemReductionKindAttr)
    result_token = result_def(Token)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_memory_model(self) -> None:
        if self.memory_scope is None:
            raise VerifyException("requires attribute 'memory_scope'")
        if self.memory_ordering_semantics.data not in _STORE_ORDERINGS[1:]:
            raise VerifyException("memory ordering semantics must be one of: relaxed, release")

    def verify_reduction(self, kind: MultimemReductionKind, elem: Attribute) -> None:
        super().verify_reduction(kind, elem)
        if kind in _ARITHMETIC_REDUCTIONS[1:] and is_float(elem):
            raise VerifyException("supports only add for floating-point element types")


@irdl_op_definition
class MultimemStoreViewTkoOp(MultimemOp):
    """Stores ``tile`` at ``view[index...]`` through a multicast pointer."""

    name = "cuda_tile.multimem_store_view_tko"
    SINCE: ClassVar[str] = "13.5"
    HAS_REDUCTION: ClassVar[bool] = False
    view = operand_def(AnyTileView)
    tile = operand_def(AnyTile)
    index = var_operand_def(IntTile)
    token = opt_operand_def(Token)
    result_token = result_def(Token)
    traits = traits_def(MemoryWriteEffect())

    def verify_memory_model(self) -> None:
        _verify_memory_model(
            self.memory_ordering_semantics, self.memory_scope, "store", _STORE_ORDERINGS
        )
