"""Pointer-tile accesses: ``load_ptr_tko``, ``store_ptr_tko``, ``atomic_cas_tko``,
``atomic_rmw_tko`` address elements one by one."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute
from xdsl.irdl import (
    VarConstraint,
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.irdl.operations import IRDLOperation
from xdsl.parser import Parser
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
from ...diagnostics import quoted
from ...types import PointerType, TileType, is_float, pointer_kind
from .._common import (
    AnyTile,
    Token,
    BoolTile,
    EnumKeyword,
    NumberTile,
    PointerTile,
    directive_variant,
    enum_keyword_error,
)
from ._common import (
    OrderedLoadEffects,
    TokenOrderedOp,
    _LOAD_ORDERINGS,
    _STORE_ORDERINGS,
    _bit_width,
    _verify_atomic_mode,
    _verify_memory_model,
)


# --------------------------------------------------------------------------
# Enum keywords of declarative formats (an ``I32EnumAttr`` is written bare)
# --------------------------------------------------------------------------


@directive_variant
class MemoryOrderingKeyword(EnumKeyword):
    """``weak`` | ``relaxed`` | ``acquire`` | ``release`` | ``acq_rel``."""

    ATTR_TYPE = MemoryOrderingAttr
    ENUM = MemoryOrdering
    MESSAGE = enum_keyword_error("memory_ordering_semantics", MemoryOrdering)


@directive_variant
class MemoryScopeKeyword(EnumKeyword):
    """``tl_blk`` | ``device`` | ``sys``."""

    ATTR_TYPE = MemoryScopeAttr
    ENUM = MemoryScope
    MESSAGE = enum_keyword_error("memory_scope", MemoryScope)


@directive_variant
class OptionalMemoryScopeKeyword(MemoryScopeKeyword):
    """An optional ``tl_blk`` | ``device`` | ``sys``."""

    OPTIONAL = True


@directive_variant
class AtomicModeKeyword(EnumKeyword):
    """``and`` | ``or`` | ... | ``xchg``."""

    ATTR_TYPE = AtomicRMWModeAttr
    ENUM = AtomicRMWMode
    MESSAGE = enum_keyword_error("mode", AtomicRMWMode)


def _verify_atomic_ordering(ordering: MemoryOrderingAttr) -> None:
    """``verifyAtomicMemoryOrdering``: atomics are never weak."""
    if ordering.data == MemoryOrdering.WEAK:
        raise VerifyException(
            "memory ordering semantics must be one of: relaxed, acquire, release, acq_rel"
        )


def _verify_pointee(pointers: TileType, element_type: Attribute, operand: str) -> None:
    pointee = pointers.element_type
    assert isinstance(pointee, PointerType)
    if pointee.pointee != element_type:
        raise VerifyException(
            f"expected pointee type ({quoted(pointee.pointee)}) to match element type "
            f"of '{operand}' ({quoted(element_type)})"
        )


def _same_shape(*types: Attribute) -> bool:
    shapes = {t.shape for t in types if isinstance(t, TileType)}
    return len(shapes) <= 1


def _points_to(pointers: Attribute, values: Attribute) -> bool:
    """``verifyLoadStoreType``: ``pointers`` is ``values``' shape of ``ptr<E>``."""
    return (
        isinstance(pointers, TileType)
        and isinstance(values, TileType)
        and pointers.shape == values.shape
        and isinstance(pointers.element_type, PointerType)
        and pointers.element_type.pointee == values.element_type
    )


def _verify_not_multicast_pointer(pointers: Attribute, message: str) -> None:
    if pointer_kind(pointers) == PointerKind.MULTICAST:
        raise VerifyException(message)


@irdl_custom_directive
class OptionalHints(CustomDirective):
    """``optimization_hints = <...>``, omitted when the property is absent."""

    hints: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if (hints := OptimizationHintsAttr.parse_optional_assignment(parser)) is not None:
            self.hints.set(state, hints)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        hints = self.hints.get(op)
        if isinstance(hints, OptimizationHintsAttr):
            printer.print_string(" optimization_hints = ")
            hints.print_parameters(printer)
            state.should_emit_space = True
            state.last_was_punctuation = False

    def is_optional_like(self) -> bool:
        return True

    def is_present(self, op: IRDLOperation) -> bool:
        return self.hints.get(op) is not None


# --------------------------------------------------------------------------
# Pointer loads, stores and atomics
# --------------------------------------------------------------------------


@irdl_op_definition
class LoadPtrTkoOp(TokenOrderedOp):
    """Gathers the elements ``source`` points to (masked lanes take ``padding_value``)."""

    name = "cuda_tile.load_ptr_tko"
    source = operand_def(PointerTile)
    mask = opt_operand_def(BoolTile)
    padding_value = opt_operand_def(NumberTile)
    token = opt_operand_def(Token)
    memory_ordering_semantics = prop_def(MemoryOrderingAttr)
    memory_scope = opt_prop_def(MemoryScopeAttr)
    optimization_hints = opt_prop_def(OptimizationHintsAttr)
    result = result_def(AnyTile)
    result_token = result_def(Token)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(OrderedLoadEffects())
    custom_directives = (MemoryOrderingKeyword, OptionalMemoryScopeKeyword, OptionalHints)
    assembly_format = (
        "custom<MemoryOrderingKeyword>($memory_ordering_semantics) "
        "custom<OptionalMemoryScopeKeyword>($memory_scope) "
        "$source (`,` $mask^)? (`,` $padding_value^)? "
        "(`token` `` `=` `` $token^)? "
        "custom<OptionalHints>($optimization_hints) attr-dict `:` "
        "type($source) (`,` type($mask)^)? (`,` type($padding_value)^)? "
        "`->` type($result) `,` type($result_token)"
    )

    def verify_(self) -> None:
        result = self.result.type
        if not _points_to(self.source.type, result):
            raise VerifyException(
                "failed to verify that `source` type is expected a pointer type of "
                "`result` type"
            )
        if self.mask is not None and not _same_shape(self.mask.type, self.source.type):
            raise VerifyException(
                "failed to verify that shape of 'mask' must match the shape of 'source'"
            )
        if self.padding_value is not None and self.padding_value.type != result:
            raise VerifyException(
                "failed to verify that type of 'paddingValue' must match the type of "
                "'result'"
            )
        _verify_memory_model(
            self.memory_ordering_semantics, self.memory_scope, "load", _LOAD_ORDERINGS
        )
        _verify_not_multicast_pointer(self.source.type, "multicast pointer is not allowed")


@irdl_op_definition
class StorePtrTkoOp(TokenOrderedOp):
    """Scatters ``value`` to the addresses in ``destination`` (only unmasked lanes)."""

    name = "cuda_tile.store_ptr_tko"
    destination = operand_def(PointerTile)
    value = operand_def(AnyTile)
    mask = opt_operand_def(BoolTile)
    token = opt_operand_def(Token)
    memory_ordering_semantics = prop_def(MemoryOrderingAttr)
    memory_scope = opt_prop_def(MemoryScopeAttr)
    optimization_hints = opt_prop_def(OptimizationHintsAttr)
    result_token = result_def(Token)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryWriteEffect())
    custom_directives = (MemoryOrderingKeyword, OptionalMemoryScopeKeyword, OptionalHints)
    assembly_format = (
        "custom<MemoryOrderingKeyword>($memory_ordering_semantics) "
        "custom<OptionalMemoryScopeKeyword>($memory_scope) "
        "$destination `,` $value (`,` $mask^)? (`token` `` `=` `` $token^)? "
        "custom<OptionalHints>($optimization_hints) attr-dict `:` "
        "type($destination) `,` type($value) (`,` type($mask)^)? "
        "`->` type($result_token)"
    )

    def verify_(self) -> None:
        if not _points_to(self.destination.type, self.value.type):
            raise VerifyException(
                "failed to verify that `destination` type is expected a pointer type "
                "of `value` type"
            )
        if self.mask is not None and not _same_shape(self.mask.type, self.destination.type):
            raise VerifyException(
                "failed to verify that shape of 'destination' must match the shape of "
                "'mask'"
            )
        _verify_memory_model(
            self.memory_ordering_semantics, self.memory_scope, "store", _STORE_ORDERINGS
        )
        _verify_not_multicast_pointer(self.destination.type, "multicast pointer is not allowed")


_ATOMIC_HEAD = (
    "custom<MemoryOrderingKeyword>($memory_ordering_semantics) "
    "custom<MemoryScopeKeyword>($memory_scope) $pointers `,` "
)
_ATOMIC_TAIL = (
    " (`,` $mask^)? (`token` `` `=` `` $token^)? attr-dict `:` type($pointers) `,` "
    "type({value}) (`,` type($mask)^)? `->` type($result) `,` type($result_token)"
)


@irdl_op_definition
class AtomicCASTkoOp(TokenOrderedOp):
    """Atomic compare-and-swap per element; returns the previous values."""

    name = "cuda_tile.atomic_cas_tko"
    memory_ordering_semantics = prop_def(MemoryOrderingAttr)
    memory_scope = prop_def(MemoryScopeAttr)
    pointers = operand_def(PointerTile)
    # The syntax writes the type of ``val`` only; ``cmp`` has the same type.
    T: ClassVar = VarConstraint("T", AnyTile)
    cmp = operand_def(T)
    val = operand_def(T)
    mask = opt_operand_def(BoolTile)
    token = opt_operand_def(Token)
    result = result_def(AnyTile)
    result_token = result_def(Token)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    custom_directives = (MemoryOrderingKeyword, MemoryScopeKeyword)
    assembly_format = _ATOMIC_HEAD + "$cmp `,` $val" + _ATOMIC_TAIL.format(value="$val")

    def verify_(self) -> None:
        pointers, val = self.pointers.type, self.val.type
        assert isinstance(pointers, TileType) and isinstance(val, TileType)
        if not _same_shape(pointers, self.cmp.type, val, self.result.type):
            raise VerifyException(
                "failed to verify that all of {pointers, cmp, val, result} have same shape"
            )
        if not self.cmp.type == val == self.result.type:
            raise VerifyException(
                "failed to verify that all of {cmp, val, result} have same type"
            )
        _verify_pointee(pointers, val.element_type, "val")
        elem = val.element_type
        if not (isinstance(elem, IntegerType) or is_float(elem)) or _bit_width(elem) not in (32, 64):
            raise VerifyException("expect only float or integer types with 32 or 64 bit")
        if self.mask is not None and not _same_shape(self.mask.type, val):
            raise VerifyException(
                "failed to verify that all of {pointers, val, cmp and mask} have same shape"
            )
        _verify_atomic_ordering(self.memory_ordering_semantics)
        _verify_not_multicast_pointer(
            pointers, "multicast pointer is not supported for atomic_cas"
        )


@irdl_op_definition
class AtomicRMWTkoOp(TokenOrderedOp):
    """Atomic read-modify-write (``mode``) per element; returns the previous values."""

    name = "cuda_tile.atomic_rmw_tko"
    memory_ordering_semantics = prop_def(MemoryOrderingAttr)
    memory_scope = prop_def(MemoryScopeAttr)
    pointers = operand_def(PointerTile)
    mode = prop_def(AtomicRMWModeAttr)
    arg = operand_def(AnyTile)
    mask = opt_operand_def(BoolTile)
    token = opt_operand_def(Token)
    result = result_def(AnyTile)
    result_token = result_def(Token)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    custom_directives = (MemoryOrderingKeyword, MemoryScopeKeyword, AtomicModeKeyword)
    assembly_format = (
        _ATOMIC_HEAD
        + "custom<AtomicModeKeyword>($mode) `,` $arg"
        + _ATOMIC_TAIL.format(value="$arg")
    )

    def verify_(self) -> None:
        pointers, arg = self.pointers.type, self.arg.type
        assert isinstance(pointers, TileType) and isinstance(arg, TileType)
        if not _same_shape(pointers, arg, self.result.type):
            raise VerifyException(
                "failed to verify that all of {pointers, arg, result} have same shape"
            )
        if arg != self.result.type:
            raise VerifyException(
                "failed to verify that all of {arg, result} have same type"
            )
        _verify_pointee(pointers, arg.element_type, "arg")
        if self.mask is not None and not _same_shape(self.mask.type, arg):
            raise VerifyException(
                "failed to verify that all of {pointers, arg, mask} have same shape"
            )
        _verify_atomic_mode(self.mode, arg.element_type)
        _verify_atomic_ordering(self.memory_ordering_semantics)
        _verify_not_multicast_pointer(
            pointers, "multicast pointer is not supported for atomic_rmw"
        )
