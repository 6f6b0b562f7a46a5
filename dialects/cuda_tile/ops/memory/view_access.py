"""View accesses: ``load_view_tko`` / ``store_view_tko`` / ``atomic_red_view_tko``
move one whole tile given its index in a view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import DenseArrayBase, IntegerType, i1
from xdsl.ir import Attribute, Operation, SSAValue
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
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from ...attributes import (
    AtomicRMWMode,
    AtomicRMWModeAttr,
    MemoryOrdering,
    MemoryOrderingAttr,
    MemoryScope,
    MemoryScopeAttr,
    OptimizationHintsAttr,
    PointerKind,
)
from ...diagnostics import quoted, shape_text
from ...types import (
    GatherScatterViewType,
    PartitionViewType,
    StridedViewType,
    TileType,
    TileViewType,
    TokenType,
    pointer_kind,
)
from .._common import AnyTile, Token, IntTile
from ._common import (
    AnyTileView,
    OrderedLoadEffects,
    TokenOrderedOp,
    _LOAD_ORDERINGS,
    _MemoryAttrMessages,
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
    _verify_atomic_mode,
    _verify_inbounds_size,
    _verify_memory_model,
    _verify_view_access,
)


def _verify_not_multicast_view(view: Attribute) -> None:
    """Only the ``multimem_*`` ops access a view of a multicast pointer."""
    assert isinstance(view, TileViewType)
    if pointer_kind(view.tensor_view) == PointerKind.MULTICAST:
        raise VerifyException("multicast ptr_attr is not allowed")
_ATOMIC_RED_MESSAGES = _MemoryAttrMessages(
    "invalid memory_ordering_semantics: '{}'; expected one of: weak, relaxed, "
    "acquire, release, acq_rel",
    "invalid memory_scope: '{}'; expected one of: tl_blk, device, sys",
    False,
)


def _parse_view_index(parser: Parser) -> tuple[UnresolvedOperand, list[UnresolvedOperand]]:
    """``%view[%i, %j, ...]``."""
    view = parser.parse_unresolved_operand()
    indices = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )
    return view, indices


def _print_view_index(printer: Printer, view: SSAValue, indices: Sequence[SSAValue]) -> None:
    printer.print_string(" ")
    printer.print_operand(view)
    printer.print_string("[")
    printer.print_list(indices, printer.print_operand)
    printer.print_string("]")


def _parse_index_types(
    parser: Parser, indices: Sequence[UnresolvedOperand]
) -> list[SSAValue]:
    """``parseIndexTypes``: ``, T`` (one type for all) or ``, T0, T1, ...``; resolves the indices."""
    types: list[Attribute] = []
    pos = parser.pos
    if parser.parse_optional_punctuation(",") is not None:
        pos = parser.pos
        first = parser.parse_optional_type()
        if first is None:
            parser.raise_error("expected index type after comma", pos)
        types = [first]
        if parser.parse_optional_punctuation(",") is None:
            types *= len(indices)
        else:
            types += parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
    if indices and not types:
        parser.raise_error("index types must be specified when indices are present")
    if types and len(types) != len(indices):
        parser.raise_error(f"expected {len(indices)} index types, got {len(types)}", pos)
    return [parser.resolve_operand(i, t) for i, t in zip(indices, types)]


def _parse_access_options(parser: Parser) -> dict[str, Attribute]:
    """``[optimization_hints = <...>] [inbounds = [...]]`` as properties."""
    props: dict[str, Attribute] = {}
    if (hints := OptimizationHintsAttr.parse_optional_assignment(parser)) is not None:
        props["optimization_hints"] = hints
    return props | _parse_inbounds(parser)


def _print_access_options(printer: Printer, op: ViewAccessOp) -> None:
    if op.optimization_hints is not None:
        printer.print_string(" optimization_hints = ")
        op.optimization_hints.print_parameters(printer)
    _print_inbounds(printer, op.inbounds)


def _print_attr_dict(printer: Printer, op: Operation) -> None:
    printer.print_op_attributes(op.attributes, print_keyword=True)


class ViewAccessOp(TokenOrderedOp):
    """``load_view_tko`` / ``store_view_tko``: one tile at ``view[index...]``.

    The subclasses define the operands (their order differs).
    """

    memory_ordering_semantics = prop_def(MemoryOrderingAttr)
    memory_scope = opt_prop_def(MemoryScopeAttr)
    optimization_hints = opt_prop_def(OptimizationHintsAttr)
    inbounds = opt_prop_def(DenseArrayBase.constr(i1))
    """13.4: per index dimension, whether the access is known to be in bounds.

    Absent means all false (NVIDIA's default, which it does not print)."""


# --------------------------------------------------------------------------
# View loads, stores and reductions
# --------------------------------------------------------------------------


@irdl_op_definition
class LoadViewTkoOp(ViewAccessOp):
    """Loads the tile at ``view[index...]``."""

    name = "cuda_tile.load_view_tko"
    view = operand_def(AnyTileView)
    index = var_operand_def(IntTile)
    token = opt_operand_def(Token)
    tile = result_def(AnyTile)
    result_token = result_def(Token)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(OrderedLoadEffects())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        props = _parse_memory_attributes(parser, _VIEW_ACCESS_MESSAGES)
        view, indices = _parse_view_index(parser)
        token = _parse_optional_token(parser)
        props |= _parse_access_options(parser)
        attrs = _parse_attr_dict(parser)
        parser.parse_punctuation(":")
        view_type = parser.parse_type()
        index_values = _parse_index_types(parser, indices)
        parser.parse_punctuation("->")
        tile_type = parser.parse_type()
        parser.parse_punctuation(",")
        token_type = parser.parse_type()
        op = cls.build(
            operands=[
                parser.resolve_operand(view, view_type),
                index_values,
                None if token is None else parser.resolve_operand(token, TokenType()),
            ],
            result_types=[tile_type, token_type],
            properties=props,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_memory_attributes(printer, self)
        _print_view_index(printer, self.view, self.index)
        _print_optional_token(printer, self.token)
        _print_access_options(printer, self)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.view.type)
        _print_index_types(printer, self.index)
        printer.print_string(" -> ")
        printer.print_attribute(self.tile.type)
        printer.print_string(", ")
        printer.print_attribute(self.result_token.type)

    def verify_(self) -> None:
        _verify_view_access(self.inbounds, self.tile.type, self.view.type, self.index)
        _verify_memory_model(
            self.memory_ordering_semantics, self.memory_scope, "load", _LOAD_ORDERINGS
        )
        _verify_not_multicast_view(self.view.type)


@irdl_op_definition
class StoreViewTkoOp(ViewAccessOp):
    """Stores ``tile`` at ``view[index...]``."""

    name = "cuda_tile.store_view_tko"
    tile = operand_def(AnyTile)
    view = operand_def(AnyTileView)
    index = var_operand_def(IntTile)
    token = opt_operand_def(Token)
    result_token = result_def(Token)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryWriteEffect())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        props = _parse_memory_attributes(parser, _VIEW_ACCESS_MESSAGES)
        tile = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        view, indices = _parse_view_index(parser)
        token = _parse_optional_token(parser)
        props |= _parse_access_options(parser)
        attrs = _parse_attr_dict(parser)
        parser.parse_punctuation(":")
        tile_type = parser.parse_type()
        parser.parse_punctuation(",")
        view_type = parser.parse_type()
        index_values = _parse_index_types(parser, indices)
        parser.parse_punctuation("->")
        token_type = parser.parse_type()
        op = cls.build(
            operands=[
                parser.resolve_operand(tile, tile_type),
                parser.resolve_operand(view, view_type),
                index_values,
                None if token is None else parser.resolve_operand(token, TokenType()),
            ],
            result_types=[token_type],
            properties=props,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_memory_attributes(printer, self)
        printer.print_string(" ")
        printer.print_operand(self.tile)
        printer.print_string(",")
        _print_view_index(printer, self.view, self.index)
        _print_optional_token(printer, self.token)
        _print_access_options(printer, self)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.tile.type)
        printer.print_string(", ")
        printer.print_attribute(self.view.type)
        _print_index_types(printer, self.index)
        printer.print_string(" -> ")
        printer.print_attribute(self.result_token.type)

    def verify_(self) -> None:
        _verify_view_access(self.inbounds, self.tile.type, self.view.type, self.index)
        _verify_memory_model(
            self.memory_ordering_semantics, self.memory_scope, "store", _STORE_ORDERINGS
        )
        _verify_not_multicast_view(self.view.type)


@irdl_op_definition
class AtomicRedViewTkoOp(TokenOrderedOp):
    """Atomically combines ``value`` into the tile at ``view[index...]`` (no result tile)."""

    name = "cuda_tile.atomic_red_view_tko"
    SINCE: ClassVar[str] = "13.3"
    view = operand_def(AnyTileView)
    index = var_operand_def(IntTile)
    value = operand_def(AnyTile)
    token = opt_operand_def(Token)
    memory_ordering_semantics = prop_def(MemoryOrderingAttr)
    memory_scope = opt_prop_def(MemoryScopeAttr)
    """Required; optional here so that its absence gets NVIDIA's message."""
    mode = prop_def(AtomicRMWModeAttr)
    inbounds = opt_prop_def(DenseArrayBase.constr(i1))
    """13.5: as ``ViewAccessOp.inbounds`` (bytecode before 13.5 cannot say it)."""
    result_token = result_def(Token)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        props = _parse_memory_attributes(parser, _ATOMIC_RED_MESSAGES)
        view, indices = _parse_view_index(parser)
        parser.parse_punctuation(",")
        pos = parser.pos
        word = parser.parse_optional_identifier() or ""
        try:
            props["mode"] = AtomicRMWModeAttr(AtomicRMWMode(word))
        except ValueError:
            parser.raise_error(
                f"unknown atomic RMW mode: '{word}'; expected one of: and, or, xor, "
                "add, addf, max, min, umax, umin",
                pos,
            )
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        token = _parse_optional_token(parser)
        props |= _parse_inbounds(parser)
        attrs = _parse_attr_dict(parser)
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        view_type = parser.parse_type()
        index_values = _parse_index_types(parser, indices)
        parser.parse_punctuation("->")
        token_type = parser.parse_type()
        op = cls.build(
            operands=[
                parser.resolve_operand(view, view_type),
                index_values,
                parser.resolve_operand(value, value_type),
                None if token is None else parser.resolve_operand(token, TokenType()),
            ],
            result_types=[token_type],
            properties=props,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_memory_attributes(printer, self)
        _print_view_index(printer, self.view, self.index)
        printer.print_string(f", {self.mode.data.value}, ")
        printer.print_operand(self.value)
        _print_optional_token(printer, self.token)
        _print_inbounds(printer, self.inbounds)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.view.type)
        _print_index_types(printer, self.index)
        printer.print_string(" -> ")
        printer.print_attribute(self.result_token.type)

    def verify_(self) -> None:
        if self.memory_scope is None:
            raise VerifyException("requires attribute 'memory_scope'")
        view = self.view.type
        if isinstance(view, GatherScatterViewType):
            raise VerifyException(
                "gather_scatter_view is not supported; use partition_view instead"
            )
        assert isinstance(view, PartitionViewType | StridedViewType)
        if view.padding is not None:
            raise VerifyException(
                "views with padding_value are not supported for atomic reductions"
            )
        value = self.value.type
        assert isinstance(value, TileType)
        view_tile = view.tile_type()
        if view_tile.element_type != value.element_type:
            raise VerifyException(
                f"view element type ({quoted(view_tile.element_type)}) must match value "
                f"element type ({quoted(value.element_type)})"
            )
        if view_tile.shape != value.shape:
            raise VerifyException(
                f"view tile shape {shape_text(view_tile.shape)} must match value shape "
                f"{shape_text(value.shape)} for element-wise atomic operations"
            )
        if self.mode.data == AtomicRMWMode.XCHG:
            raise VerifyException("atomic_red_view_tko op cannot use xchg operation")
        _verify_atomic_mode(self.mode, value.element_type)
        if self.memory_ordering_semantics.data != MemoryOrdering.RELAXED:
            raise VerifyException(
                "only 'relaxed' memory ordering is supported for view-based atomic "
                "reductions"
            )
        if self.memory_scope.data == MemoryScope.SYS:
            raise VerifyException(
                "memory scope 'sys' is not supported for view-based atomic "
                "reductions; use 'tl_blk' or 'device' for TMA compatibility"
            )
        _verify_inbounds_size(self.inbounds, self.index)
        rank = view_tile.rank
        if len(self.index) != rank:
            raise VerifyException(
                f"expected {rank} index operand(s) for view with tile rank {rank}, "
                f"got {len(self.index)}"
            )
        for i, index in enumerate(self.index):
            t = index.type
            assert isinstance(t, TileType)
            if t.rank:
                raise VerifyException(
                    f"index operand {i} must be a scalar tile (rank 0), got shape "
                    f"{shape_text(t.shape)}"
                )
            if not isinstance(t.element_type, IntegerType):
                raise VerifyException(
                    f"index operand {i} must be a scalar integer tile, got element "
                    f"type {quoted(t.element_type)}"
                )
        _verify_not_multicast_view(view)
