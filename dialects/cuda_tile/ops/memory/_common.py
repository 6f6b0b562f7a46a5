"""What the memory sub-families share: view type constraints, load effects,
the memory-model and view-access verifiers, the custom syntax of view
accesses, and ``TokenOrderedOp``, the base of every ``_tko`` op."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Self, TypeVar

from xdsl.dialects.builtin import DenseArrayBase, IntegerType, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import AttrConstraint, AttrSizedOperandSegments, IntConstraint, VerificationContext
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind
from xdsl.utils.exceptions import VerifyException

from ...attributes import (
    AtomicRMWMode,
    AtomicRMWModeAttr,
    MemoryOrdering,
    MemoryOrderingAttr,
    MemoryScope,
    MemoryScopeAttr,
)
from ...diagnostics import ConstraintError, quoted
from ...literals import element_width
from ...types import TILE_VIEW_TYPES, TileViewType, is_base_float, is_number
from .._common import CudaTileOp


# --------------------------------------------------------------------------
# Type constraints (Types.td)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TileViewOf(AttrConstraint[TileViewType]):
    """``CudaTile_TileView``: a partition, strided or gather/scatter view."""

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not isinstance(attr, TILE_VIEW_TYPES):
            raise ConstraintError("TileView instance", attr)

    def get_bases(self) -> set[type[Attribute]]:
        return set(TILE_VIEW_TYPES)

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> TileViewOf:
        return self


AnyTileView = TileViewOf()


# --------------------------------------------------------------------------
# Memory effects
# --------------------------------------------------------------------------

_READ = frozenset({EffectInstance(MemoryEffectKind.READ)})
_READ_WRITE = frozenset(
    {EffectInstance(MemoryEffectKind.READ), EffectInstance(MemoryEffectKind.WRITE)}
)


class OrderedLoadEffects(MemoryEffect):
    """A weak load reads; an atomic (relaxed/acquire) load also synchronizes.

    The write effect keeps cse/dce from merging or dropping a synchronizing
    load, as LLVM does for atomic loads stronger than ``unordered``.
    """

    @classmethod
    def get_effects(cls, op: Operation) -> frozenset[EffectInstance]:
        ordering = op.properties.get("memory_ordering_semantics")
        weak = isinstance(ordering, MemoryOrderingAttr) and ordering.data == MemoryOrdering.WEAK
        return _READ if weak else _READ_WRITE


# --------------------------------------------------------------------------
# Shared verifiers (SharedVerifiers.h, CudaTile.cpp)
# --------------------------------------------------------------------------

_LOAD_ORDERINGS = (MemoryOrdering.WEAK, MemoryOrdering.RELAXED, MemoryOrdering.ACQUIRE)
_STORE_ORDERINGS = (MemoryOrdering.WEAK, MemoryOrdering.RELAXED, MemoryOrdering.RELEASE)


def _verify_memory_model(
    ordering: MemoryOrderingAttr,
    scope: MemoryScopeAttr | None,
    access: str,
    allowed: Sequence[MemoryOrdering],
) -> None:
    """``verifyMemoryModelLoad`` / ``verifyMemoryModelStore``."""
    if ordering.data not in allowed:
        names = [m.value for m in allowed]
        raise VerifyException(
            f"expect one of: {', '.join(names[:-1])}, or {names[-1]}, but got: "
            f"{ordering.data.value}"
        )
    if ordering.data == MemoryOrdering.WEAK:
        if scope is not None:
            raise VerifyException(f"weak {access} must not have memory scope")
    elif scope is None:
        raise VerifyException(
            f"memory scope is required for {ordering.data.value} {access}"
        )


def _bit_width(t: Attribute) -> int | None:
    """The width of a number element type; None for pointers."""
    return element_width(t) if is_number(t) else None


_INT_MODES = (
    AtomicRMWMode.AND,
    AtomicRMWMode.OR,
    AtomicRMWMode.XOR,
    AtomicRMWMode.ADD,
    AtomicRMWMode.MAX,
    AtomicRMWMode.MIN,
    AtomicRMWMode.UMAX,
    AtomicRMWMode.UMIN,
)


def _verify_atomic_mode(mode: AtomicRMWModeAttr, element_type: Attribute) -> None:
    """``verifyAtomicRMWMode``: which element types each mode supports."""
    name = mode.data.value
    width = _bit_width(element_type)
    if mode.data in _INT_MODES:
        if not isinstance(element_type, IntegerType) or width not in (32, 64):
            raise VerifyException(f"'{name}' works only with integers i32 and i64")
    elif mode.data == AtomicRMWMode.ADDF:
        if not is_base_float(element_type):
            raise VerifyException(
                f"'{name}' works only with floats f16, bf16, f32, and f64"
            )
    elif width not in (32, 64):
        raise VerifyException(
            f"'{name}' works only with integers or float of 32 or 64 bitwidth"
        )


def _bool_array(values: Sequence[bool]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i1, [int(v) for v in values])


def _flags(array: DenseArrayBase) -> tuple[bool, ...]:
    """The values of an ``array<i1: ...>`` (stored as 0 / -1)."""
    return tuple(v != 0 for v in array.get_values())


def _verify_view_access(
    inbounds: DenseArrayBase | None,
    tile_type: Attribute,
    view_type: Attribute,
    indices: Sequence[SSAValue],
) -> None:
    """``verifyViewLoadStoreCommon`` plus the 13.4 ``inbounds`` size check.

    Hint names and values are not checked: NVIDIA's tools accept any by
    default (they check them only when asked to warn or fail on hints).
    """
    assert isinstance(view_type, TileViewType)
    index_types = [v.type for v in indices]
    rank = view_type.index_rank()
    if len(index_types) != rank:
        raise VerifyException(
            f"expected {rank} index operands (based on view type), got {len(index_types)}"
        )
    if tile_type != view_type.tile_type():
        raise VerifyException(
            f"expected tile type to be {quoted(view_type.tile_type())} (based on view "
            f"type), got {quoted(tile_type)}"
        )
    view_type.verify_indices(index_types)
    _verify_inbounds_size(inbounds, indices)


def _verify_inbounds_size(inbounds: DenseArrayBase | None, indices: Sequence[SSAValue]) -> None:
    if inbounds is not None and len(_flags(inbounds)) != len(indices):
        raise VerifyException(
            f"inbounds size ({len(_flags(inbounds))}) must match the number of index "
            f"dimensions ({len(indices)})"
        )


# --------------------------------------------------------------------------
# Custom syntax of the view ops (CudaTile.cpp: parseViewTkoCommon, ...)
# --------------------------------------------------------------------------


class _MemoryAttrMessages(NamedTuple):
    """How a custom parser reports bad memory keywords (the ops differ)."""

    bad_ordering: str
    bad_scope: str
    weak_forbids_scope: bool


_VIEW_ACCESS_MESSAGES = _MemoryAttrMessages(
    'invalid memory_ordering_semantics attribute specification. Got "{}" but '
    "expect one of: weak, relaxed, acquire, release, acq_rel",
    'invalid memory_scope attribute specification. Got "{}" but expect one of: '
    "tl_blk, device, sys",
    True,
)


def _parse_memory_attributes(
    parser: Parser, messages: _MemoryAttrMessages
) -> dict[str, Attribute]:
    """``ordering [scope]`` as the properties they set."""
    pos = parser.pos
    word = parser.parse_optional_identifier() or ""
    try:
        ordering = MemoryOrdering(word)
    except ValueError:
        parser.raise_error(messages.bad_ordering.format(word), pos)
    props: dict[str, Attribute] = {"memory_ordering_semantics": MemoryOrderingAttr(ordering)}
    pos = parser.pos
    word = parser.parse_optional_identifier()
    if word is None:
        return props
    if messages.weak_forbids_scope and ordering == MemoryOrdering.WEAK:
        parser.raise_error(
            "operation specifies weak memory ordering semantics, but then provides "
            f'"{word}" scope, expected no memory scope.',
            pos,
        )
    try:
        props["memory_scope"] = MemoryScopeAttr(MemoryScope(word))
    except ValueError:
        parser.raise_error(messages.bad_scope.format(word), pos)
    return props


def _print_memory_attributes(printer: Printer, op: Operation) -> None:
    for name in ("memory_ordering_semantics", "memory_scope"):
        attr = op.properties.get(name)
        if isinstance(attr, MemoryOrderingAttr | MemoryScopeAttr):
            printer.print_string(f" {attr.data.value}")


def _parse_optional_token(parser: Parser) -> UnresolvedOperand | None:
    """``token = %t``, if present."""
    if parser.parse_optional_keyword("token") is None:
        return None
    parser.parse_punctuation("=")
    return parser.parse_unresolved_operand()


def _print_optional_token(printer: Printer, token: SSAValue | None) -> None:
    if token is not None:
        printer.print_string(" token = ")
        printer.print_operand(token)


def _print_index_types(printer: Printer, indices: Sequence[SSAValue]) -> None:
    """``printIndexTypes``: one type if all indices share it."""
    types = [i.type for i in indices]
    if types and all(t == types[0] for t in types):
        types = types[:1]
    for t in types:
        printer.print_string(", ")
        printer.print_attribute(t)


def _parse_inbounds(parser: Parser) -> dict[str, Attribute]:
    """``[inbounds = [true, ...]]`` as the ``inbounds`` property."""
    if parser.parse_optional_keyword("inbounds") is None:
        return {}
    parser.parse_punctuation("=")
    flags = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_boolean)
    # All-false is the default and is not printed; keep one spelling of it.
    return {"inbounds": _bool_array(flags)} if any(flags) else {}


def _print_inbounds(printer: Printer, inbounds: DenseArrayBase | None) -> None:
    if inbounds is not None and any(_flags(inbounds)):
        flags = ", ".join("true" if f else "false" for f in _flags(inbounds))
        printer.print_string(f" inbounds = [{flags}]")


def _parse_attr_dict(parser: Parser) -> dict[str, Attribute]:
    attrs = parser.parse_optional_attr_dict_with_keyword()
    return dict(attrs.data) if attrs is not None else {}


# --------------------------------------------------------------------------
# Token-ordered ops
# --------------------------------------------------------------------------


class TokenOrderedOp(CudaTileOp):
    """A ``_tko`` op: ordered by its input ``token`` and its ``result_token``.

    Every subclass defines the operand ``token`` (optional except on
    ``memory_fence_alias_tko``) and the result ``result_token``.
    """

    def with_token(self, token: SSAValue | None) -> Self:
        """A copy of this op (not inserted anywhere) taking ``token`` as input token."""
        operands = [
            token if name == "token" else getattr(self, name)
            for name, _ in self.get_irdl_definition().operands
        ]
        properties = {
            k: v
            for k, v in self.properties.items()
            if k != AttrSizedOperandSegments.attribute_name
        }
        return type(self).build(
            operands=operands,
            result_types=[r.type for r in self.results],
            properties=properties,
            attributes=dict(self.attributes),
        )
