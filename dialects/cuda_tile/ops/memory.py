"""Global memory: views, token-ordered loads, stores and atomics, tokens, fences, alloca.

Memory is reached in two ways.  *Views* describe a tensor in global memory
(``make_tensor_view``) cut into tiles (``make_partition_view``,
``make_strided_view``, ``make_gather_scatter_view``); ``load_view_tko`` /
``store_view_tko`` / ``atomic_red_view_tko`` move one whole tile given its
index in the view.  *Pointer tiles* address elements one by one
(``load_ptr_tko``, ``store_ptr_tko``, ``atomic_cas_tko``, ``atomic_rmw_tko``).

Token ordering.  Memory operations are not ordered by program order: every
``_tko`` op takes an optional input ``token`` and yields a ``result_token``;
an op is ordered after the ops whose tokens it (transitively) consumes.
``make_token`` starts a chain and ``join_tokens`` merges chains.  Every
``TokenOrderedOp`` has the accessors ``token`` (input, ``None`` if absent) and
``result_token``, and ``with_token`` rebuilds it with another input token.

Effects (what xDSL's cse/dce/licm may do).  Weak loads only read: an unused one
is dropped, and two identical ones merge unless a writing op lies between
them.  ``relaxed``/``acquire`` loads synchronize with other tile blocks, so,
like LLVM's ordered atomic loads, they also count as writes: never dropped or
merged.  Stores, atomics and the alias fence read and write.  ``alloca``
allocates its result (dead if unused, never merged).  Making views, tokens and
querying shapes have no memory effects.
"""

from __future__ import annotations

from abc import abstractmethod

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple, Self, TypeVar

from xdsl.dialects.builtin import (
    I64,
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrConstraint,
    VarConstraint,
    AttrSizedOperandSegments,
    IntConstraint,
    VerificationContext,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.irdl.operations import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    EffectInstance,
    MemoryEffect,
    MemoryEffectKind,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from ..attributes import (
    AtomicRMWMode,
    AtomicRMWModeAttr,
    MemoryOrdering,
    MemoryOrderingAttr,
    MemoryScope,
    MemoryScopeAttr,
    MultimemReductionKind,
    MultimemReductionKindAttr,
    OptimizationHintsAttr,
    PointerKind,
    PointerKindAttr,
)
from ..diagnostics import ConstraintError, quoted, shape_text
from ..literals import element_width
from ..types import (
    DYNAMIC,
    TILE_VIEW_TYPES,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
    TileViewType,
    TokenType,
    is_base_float,
    is_float,
    is_number,
    pointer_kind,
)
from ._common import (
    AnyTile,
    Token,
    TypeOf,
    BoolTile,
    CudaTileOp,
    EnumKeyword,
    IntTile,
    NumberTile,
    PointerTile,
    ScalarIntTile,
    ScalarPointerTile,
    directive_variant,
    enum_keyword_error,
)

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

TensorView = TypeOf("tensor view type", TensorViewType)
PartitionView = TypeOf("partition view type", PartitionViewType)
StridedView = TypeOf("strided view type", StridedViewType)
GatherScatterView = TypeOf("gather/scatter view type", GatherScatterViewType)


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


class AllocatesResult(MemoryEffect):
    """Allocates the memory its result points to (MLIR's ``MemAlloc`` on the result).

    An allocation nobody uses can be removed; two allocations never merge.
    """

    @classmethod
    def get_effects(cls, op: Operation) -> frozenset[EffectInstance]:
        return frozenset({EffectInstance(MemoryEffectKind.ALLOC, op.results[0])})


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


def _verify_atomic_ordering(ordering: MemoryOrderingAttr) -> None:
    """``verifyAtomicMemoryOrdering``: atomics are never weak."""
    if ordering.data == MemoryOrdering.WEAK:
        raise VerifyException(
            "memory ordering semantics must be one of: relaxed, acquire, release, acq_rel"
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


# The ptr_attr rules of 13.5.37's verifiers (docs/bytecode.md, "Tile IR 13.5").


def _verify_kept_pointer_kind(base: PointerKindAttr | None, view: PointerKindAttr | None) -> None:
    """``make_tensor_view``: the view has its base pointer's ``ptr_attr``, or neither has one."""
    if base is not None and view is None:
        raise VerifyException(f"tensor_view must preserve ptr_attr from base pointer ({base})")
    if base is None and view is not None:
        raise VerifyException(
            "pointer base without ptr_attr cannot produce tensor_view with ptr_attr"
        )
    if base != view:
        raise VerifyException(
            f"ptr_attr mismatch between base pointer ({base}) and result tensor_view ({view})"
        )


def _verify_not_multicast_view(view: Attribute) -> None:
    """Only the ``multimem_*`` ops access a view of a multicast pointer."""
    assert isinstance(view, TileViewType)
    if pointer_kind(view.tensor_view) == PointerKind.MULTICAST:
        raise VerifyException("multicast ptr_attr is not allowed")


def _verify_not_multicast_pointer(pointers: Attribute, message: str) -> None:
    if pointer_kind(pointers) == PointerKind.MULTICAST:
        raise VerifyException(message)


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
_ATOMIC_RED_MESSAGES = _MemoryAttrMessages(
    "invalid memory_ordering_semantics: '{}'; expected one of: weak, relaxed, "
    "acquire, release, acq_rel",
    "invalid memory_scope: '{}'; expected one of: tl_blk, device, sys",
    False,
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


def _print_index_types(printer: Printer, indices: Sequence[SSAValue]) -> None:
    """``printIndexTypes``: one type if all indices share it."""
    types = [i.type for i in indices]
    if types and all(t == types[0] for t in types):
        types = types[:1]
    for t in types:
        printer.print_string(", ")
        printer.print_attribute(t)


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


def _parse_access_options(parser: Parser) -> dict[str, Attribute]:
    """``[optimization_hints = <...>] [inbounds = [...]]`` as properties."""
    props: dict[str, Attribute] = {}
    if (hints := OptimizationHintsAttr.parse_optional_assignment(parser)) is not None:
        props["optimization_hints"] = hints
    return props | _parse_inbounds(parser)


def _parse_inbounds(parser: Parser) -> dict[str, Attribute]:
    """``[inbounds = [true, ...]]`` as the ``inbounds`` property."""
    if parser.parse_optional_keyword("inbounds") is None:
        return {}
    parser.parse_punctuation("=")
    flags = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_boolean)
    # All-false is the default and is not printed; keep one spelling of it.
    return {"inbounds": _bool_array(flags)} if any(flags) else {}


def _print_access_options(printer: Printer, op: ViewAccessOp) -> None:
    if op.optimization_hints is not None:
        printer.print_string(" optimization_hints = ")
        op.optimization_hints.print_parameters(printer)
    _print_inbounds(printer, op.inbounds)


def _print_inbounds(printer: Printer, inbounds: DenseArrayBase | None) -> None:
    if inbounds is not None and any(_flags(inbounds)):
        flags = ", ".join("true" if f else "false" for f in _flags(inbounds))
        printer.print_string(f" inbounds = [{flags}]")


def _parse_attr_dict(parser: Parser) -> dict[str, Attribute]:
    attrs = parser.parse_optional_attr_dict_with_keyword()
    return dict(attrs.data) if attrs is not None else {}


def _print_attr_dict(printer: Printer, op: Operation) -> None:
    printer.print_op_attributes(op.attributes, print_keyword=True)


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
# Views
# --------------------------------------------------------------------------


class _DeclaredList(NamedTuple):
    """A ``shape = [...]`` or ``strides = [...]`` list as written in the op."""

    dims: list[int]
    """Each entry, ``DYNAMIC`` where an SSA value is written."""
    positions: list[int]
    values: list[UnresolvedOperand]
    pos: int


def _parse_declared_list(parser: Parser, keyword: str) -> _DeclaredList:
    """``keyword = [entry, ...]``, each entry an integer or an SSA value."""
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    declared = _DeclaredList([], [], [], parser.pos)

    def entry() -> None:
        pos = parser.pos
        declared.positions.append(pos)
        if (n := parser.parse_optional_integer(allow_boolean=False)) is not None:
            declared.dims.append(n)
        elif (v := parser.parse_optional_unresolved_operand()) is not None:
            declared.dims.append(DYNAMIC)
            declared.values.append(v)
        else:
            parser.raise_error("expected either integer or SSA value", pos)

    parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
    return declared


def _check_declared(
    parser: Parser, what: str, declared: _DeclaredList, expected: Sequence[int]
) -> None:
    """The shape/stride written in the op must be the one of the result type."""
    if len(declared.dims) != len(expected):
        parser.raise_error(
            f"expected {what} declaration to contain {len(expected)} elements due to "
            f"tensor_view type, but {len(declared.dims)} were provided",
            declared.pos,
        )
    for i, (d, e, pos) in enumerate(zip(declared.dims, expected, declared.positions)):
        if d != e:
            parser.raise_error(
                f"input {what} dimension {i} does not match tensor_view type "
                f"(expected {_fmt_dim(e)}, got {_fmt_dim(d)})",
                pos,
            )


def _fmt_dim(d: int) -> str:
    return "dynamic" if d == DYNAMIC else str(d)


def _print_declared_list(
    printer: Printer, dims: Sequence[int], values: Sequence[SSAValue]
) -> None:
    dynamic = iter(values)
    printer.print_string("[")
    for i, d in enumerate(dims):
        if i:
            printer.print_string(", ")
        if d == DYNAMIC:
            printer.print_operand(next(dynamic))
        else:
            printer.print_string(str(d))
    printer.print_string("]")


@irdl_op_definition
class MakeTensorViewOp(CudaTileOp):
    """Creates a ``tensor_view`` from a base pointer and (partly dynamic) shape and strides."""

    name = "cuda_tile.make_tensor_view"
    base = operand_def(ScalarPointerTile)
    dynamic_shape = var_operand_def(ScalarIntTile)
    dynamic_strides = var_operand_def(ScalarIntTile)
    result = result_def(TensorView)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(NoMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        base = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        shape = _parse_declared_list(parser, "shape")
        parser.parse_punctuation(",")
        strides = _parse_declared_list(parser, "strides")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        # A base pointer with a ptr_attr is written first (13.5's tools print
        # it so); all dynamic values share one type, written before the view.
        base_type = index_type = None
        if shape.values or strides.values:
            index_type = parser.parse_type()
            if _is_pointer_tile(index_type):
                base_type = index_type
                parser.parse_punctuation(",")
                index_type = parser.parse_type()
            parser.parse_punctuation("->")
        pos = parser.pos
        view = parser.parse_type()
        if base_type is None and _is_pointer_tile(view):
            base_type = view
            parser.parse_punctuation("->")
            pos = parser.pos
            view = parser.parse_type()
        if not isinstance(view, TensorViewType):
            parser.raise_error(f"expected 'tensor_view' type, but got {quoted(view)}", pos)
        base_value = parser.resolve_operand(
            base, base_type or TileType((), PointerType(view.element_type))
        )
        _check_declared(parser, "shape", shape, view.shape)
        _check_declared(parser, "stride", strides, view.strides)
        op = cls.build(
            operands=[
                base_value,
                [parser.resolve_operand(v, index_type) for v in shape.values],
                [parser.resolve_operand(v, index_type) for v in strides.values],
            ]
            if index_type is not None
            else [base_value, [], []],
            result_types=[view],
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        view = self.result.type
        printer.print_string(" ")
        printer.print_operand(self.base)
        printer.print_string(", shape = ")
        _print_declared_list(printer, view.shape, self.dynamic_shape)
        printer.print_string(", strides = ")
        _print_declared_list(printer, view.strides, self.dynamic_strides)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        dynamic = (*self.dynamic_shape, *self.dynamic_strides)
        types = [dynamic[0].type] if dynamic else []
        if self.base.type != TileType((), PointerType(view.element_type)):
            types.insert(0, self.base.type)
        for t in types:
            printer.print_attribute(t)
            printer.print_string(", " if t is not types[-1] else " -> ")
        printer.print_attribute(view)

    def verify_(self) -> None:
        view = self.result.type
        pointer = self.base.type
        assert isinstance(pointer, TileType) and isinstance(pointer.element_type, PointerType)
        pointee = pointer.element_type.pointee
        if view.element_type != pointee:
            raise VerifyException(
                f"expected pointer to {quoted(view.element_type)} to build tensor_view of "
                f"this type, got {quoted(pointee)}"
            )
        _verify_kept_pointer_kind(pointer.element_type.kind, view.kind)
        for what, count, values in (
            ("shape", view.dynamic_shape_count(), self.dynamic_shape),
            ("stride", view.dynamic_stride_count(), self.dynamic_strides),
        ):
            if count != len(values):
                raise VerifyException(
                    f"expected {count} dynamic {what} operands, got {len(values)}"
                )
        dynamic_values = (*self.dynamic_shape, *self.dynamic_strides)
        for what, values in (("shape", self.dynamic_shape), ("stride", self.dynamic_strides)):
            for i, v in enumerate(values):
                if v.type != dynamic_values[0].type:
                    raise VerifyException(
                        f"expected dynamic {what} index {i} to be of the same type as "
                        f"the other dynamic values ({quoted(dynamic_values[0].type)}), got "
                        f"{quoted(v.type)}"
                    )


def _is_pointer_tile(t: Attribute) -> bool:
    return isinstance(t, TileType) and isinstance(t.element_type, PointerType)


class _MakeViewOp(CudaTileOp):
    """``make_*_view %tensor_view : VIEW``: the view type says how tiles are cut."""

    VIEW: ClassVar[type[TileViewType]]
    tensor_view = operand_def(TensorView)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        view = parser.parse_type()
        if not isinstance(view, cls.VIEW):
            mnemonic = cls.VIEW.name.removeprefix("cuda_tile.")
            parser.raise_error(f"expected '{mnemonic}' type, but got {quoted(view)}", pos)
        op = cls.build(
            operands=[parser.resolve_operand(source, view.tensor_view)],
            result_types=[view],
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensor_view)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.results[0].type)

    def verify_(self) -> None:
        view = self.results[0].type
        assert isinstance(view, TileViewType)
        if self.tensor_view.type != view.tensor_view:
            raise VerifyException(
                "expected the type of the provided tensor_view value "
                f"({quoted(self.tensor_view.type)}) to be the same as the view's "
                f"tensor_view type ({quoted(view.tensor_view)})"
            )


@irdl_op_definition
class MakePartitionViewOp(_MakeViewOp):
    """Cuts a tensor view into a grid of equally sized tiles."""

    name = "cuda_tile.make_partition_view"
    VIEW: ClassVar[type[TileViewType]] = PartitionViewType
    result = result_def(PartitionView)


@irdl_op_definition
class MakeStridedViewOp(_MakeViewOp):
    """Cuts a tensor view into tiles that start every ``traversal_strides`` elements."""

    name = "cuda_tile.make_strided_view"
    SINCE: ClassVar[str] = "13.3"
    VIEW: ClassVar[type[TileViewType]] = StridedViewType
    result = result_def(StridedView)


@irdl_op_definition
class MakeGatherScatterViewOp(_MakeViewOp):
    """Makes a view whose ``sparse_dim`` is indexed by a tile of row indices."""

    name = "cuda_tile.make_gather_scatter_view"
    SINCE: ClassVar[str] = "13.3"
    VIEW: ClassVar[type[TileViewType]] = GatherScatterViewType
    result = result_def(GatherScatterView)


class _ShapeQueryOp(CudaTileOp):
    """``get_*_shape %src : SRC -> tile<iN>``: one scalar result per dimension."""

    SOURCE: ClassVar[str]
    result = var_result_def(ScalarIntTile)
    traits = traits_def(NoMemoryEffect())

    @classmethod
    @abstractmethod
    def _rank(cls, source: Attribute) -> int | None:
        """The number of results for ``source``, or None if it is not accepted."""

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        pos = parser.pos
        src_type = parser.parse_type()
        rank = cls._rank(src_type)
        if rank is None:
            parser.raise_error(f"expected {cls.SOURCE}, got {quoted(src_type)}", pos)
        result_type = None
        if parser.parse_optional_punctuation("->") is not None:
            result_type = parser.parse_type()
        elif rank:  # only a 0-d source (no results) may leave the result type out
            parser.parse_punctuation("->")
        return cls.build(
            operands=[parser.resolve_operand(src, src_type)],
            result_types=[[result_type] * rank],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        printer.print_string(" : ")
        printer.print_attribute(self.operands[0].type)
        if self.results:
            printer.print_string(" -> ")
            printer.print_attribute(self.results[0].type)


@irdl_op_definition
class GetTensorShapeOp(_ShapeQueryOp):
    """The shape of a tensor view, one scalar per dimension."""

    name = "cuda_tile.get_tensor_shape"
    SOURCE: ClassVar[str] = "tensor_view"
    src = operand_def(TensorView)

    @classmethod
    def _rank(cls, source: Attribute) -> int | None:
        return source.rank if isinstance(source, TensorViewType) else None

    def verify_(self) -> None:
        rank = self.src.type.rank
        if len(self.result) != rank:
            raise VerifyException(
                f"expected {rank} results due to tensor rank, but got {len(self.result)}"
            )


@irdl_op_definition
class GetIndexSpaceShapeOp(_ShapeQueryOp):
    """The number of tiles of a view along each index dimension."""

    name = "cuda_tile.get_index_space_shape"
    SOURCE: ClassVar[str] = "tile view"
    src = operand_def(AnyTileView)

    @classmethod
    def _rank(cls, source: Attribute) -> int | None:
        return source.index_rank() if isinstance(source, TileViewType) else None

    def verify_(self) -> None:
        view = self.src.type
        assert isinstance(view, TileViewType)
        if len(self.result) != view.index_rank():
            raise VerifyException(
                f"expected {view.index_rank()} results due to view index space rank, "
                f"but got {len(self.result)}"
            )


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
    tensor_view = view.owner.operands[0] if isinstance(view.owner, _MakeViewOp) else None
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
