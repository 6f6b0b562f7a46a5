"""How each ``cuda_tile`` op, type and attribute is laid out in bytecode.

NVIDIA generates its op readers and writers from ``Ops.td``
(``tools/cuda-tile-tblgen/BytecodeGen.cpp``); the rules, which ``writer`` and
``reader`` implement once for all ops, are:

* an op is ``opcode``, then (if any operand or result is variadic) the number
  of results, then one type index per result;
* then, if the op has optional attributes or (for ops with operand segments)
  optional operands, a varint of presence bits.  Bits are numbered in order
  of the version that introduced each field, attributes before operands
  within a version.  The field is left out when writing a version older
  than every optional field, unless those fields are as old as the op;
* then the attributes in ``Ops.td`` order: unit attributes only live in the
  presence bits, absent optional ones are skipped, required ones newer than
  the target version are left out (they must equal their default);
* then the operands: with segments, a varint count before each variadic
  group and nothing for an absent optional one; without segments, one count
  before all operands when any is variadic or optional;
* then, for ops with regions, the region count and each region (block count;
  per block: argument count, argument types, op count, ops).

``OPS`` below is the per-op data those rules need: ``Ops.td`` of the 13.3
source release, plus the 13.4 and 13.5 additions as those releases' tools
(and cuTile's encoder) show them (docs/bytecode.md says how each was
established).  Fields use NVIDIA's names; ``python_name`` gives ours.
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum

from safetile.dialects.cuda_tile.attributes import (
    AtomicRMWMode,
    AtomicRMWModeAttr,
    ComparisonOrdering,
    ComparisonOrderingAttr,
    ComparisonPredicate,
    ComparisonPredicateAttr,
    CudaTileEnum,
    IntegerOverflow,
    IntegerOverflowAttr,
    MemoryOrdering,
    MemoryOrderingAttr,
    MemoryScope,
    MemoryScopeAttr,
    MultimemReductionKind,
    MultimemReductionKindAttr,
    PaddingValue,
    PaddingValueAttr,
    PointerKind,
    PointerKindAttr,
    RoundingMode,
    RoundingModeAttr,
    Signedness,
    SignednessAttr,
    SymbolVisibility,
    SymbolVisibilityAttr,
)

from .format import V13_1, V13_2, V13_3, V13_4, V13_5, Version

# --------------------------------------------------------------------------
# Types (BytecodeTypeOpcodes.td; f8E5M3FNU from the 13.4 tools)
# --------------------------------------------------------------------------


class TypeTag(IntEnum):
    I1 = 0
    I8 = 1
    I16 = 2
    I32 = 3
    I64 = 4
    F16 = 5
    BF16 = 6
    F32 = 7
    TF32 = 8
    F64 = 9
    F8E4M3FN = 10
    F8E5M2 = 11
    POINTER = 12
    TILE = 13
    TENSOR_VIEW = 14
    PARTITION_VIEW = 15
    FUNCTION = 16
    TOKEN = 17
    F8E8M0FNU = 18
    F4E2M1FN = 19
    GATHER_SCATTER_VIEW = 20
    STRIDED_VIEW = 21
    I4 = 22
    F8E5M3FNU = 130


TYPE_TAG_SINCE = {
    TypeTag.F8E8M0FNU: V13_2,
    TypeTag.F4E2M1FN: V13_3,
    TypeTag.GATHER_SCATTER_VIEW: V13_3,
    TypeTag.STRIDED_VIEW: V13_3,
    TypeTag.I4: V13_3,
    TypeTag.F8E5M3FNU: V13_4,
}
"""Types newer than 13.1 (a reader rejects them in older files)."""

POINTER_ATTR_SINCE = V13_4
"""``ptr`` and ``tensor_view`` gained an optional ``ptr_attr`` parameter in 13.4:
a varint of presence bits (bit 0), then, after the type's other parameters,
the ``PointerKind`` case as a varint."""

DYNAMIC_BYTECODE = -(2**63)
"""A dynamic (``?``) tensor_view size or stride (MLIR's ``ShapedType::kDynamic``)."""

# --------------------------------------------------------------------------
# Self-contained attributes (BytecodeAttrOpcodes.td)
# --------------------------------------------------------------------------


class AttrTag(IntEnum):
    INTEGER = 1
    FLOAT = 2
    BOOL = 3
    TYPE = 4
    STRING = 5
    ARRAY = 6
    DENSE_ELEMENTS = 7
    DIV_BY = 8
    SAME_ELEMENTS = 9
    DICTIONARY = 10
    OPTIMIZATION_HINTS = 11
    BOUNDED = 12


ENUM_ATTRS: dict[type[CudaTileEnum], type] = {
    Signedness: SignednessAttr,
    IntegerOverflow: IntegerOverflowAttr,
    RoundingMode: RoundingModeAttr,
    ComparisonOrdering: ComparisonOrderingAttr,
    ComparisonPredicate: ComparisonPredicateAttr,
    AtomicRMWMode: AtomicRMWModeAttr,
    MemoryScope: MemoryScopeAttr,
    MemoryOrdering: MemoryOrderingAttr,
    PaddingValue: PaddingValueAttr,
    SymbolVisibility: SymbolVisibilityAttr,
    PointerKind: PointerKindAttr,
    MultimemReductionKind: MultimemReductionKindAttr,
}
"""The attribute class holding each enumeration."""

ENUM_CASE_SINCE: dict[CudaTileEnum, Version] = {
    RoundingMode.NEAREST_AWAY: V13_4,
    PointerKind.UNICAST: V13_5,
    PointerKind.MULTICAST: V13_5,
}
"""Enumeration cases newer than their enumeration."""

# --------------------------------------------------------------------------
# Op fields
# --------------------------------------------------------------------------


class AttrKind(Enum):
    UNIT = "unit"  # presence bit only
    ENUM = "enum"  # varint case number
    INT = "int"  # varint of the value's two's-complement bits
    BOOL = "bool"  # one byte
    STRING = "string"  # string-table index
    SYMBOL = "symbol"  # string-table index of a flat symbol reference
    DENSE = "dense"  # constant-table index; element type from the first result
    I32_ARRAY = "i32_array"  # varint count, 4-byte little-endian values
    BOOL_ARRAY = "bool_array"  # varint count, one byte per value
    ATTR_ARRAY = "attr_array"  # varint count, self-contained attributes
    PREDICATE = "predicate"  # one self-contained assume predicate
    HINTS = "hints"  # optimization hints: an untagged dictionary


class OperandKind(Enum):
    SINGLE = "single"
    OPTIONAL = "optional"
    VARIADIC = "variadic"


def python_name(nvidia_name: str) -> str:
    """Our spelling of an ``Ops.td`` name: snake_case (``lowerBound`` -> ``lower_bound``)."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", nvidia_name).lower()


def our_field(fields: Container[str], nvidia_name: str) -> str | None:
    """Which of ``fields`` (an op's properties or operands) is the ``Ops.td`` field.

    Names clashing with Python or xDSL get a trailing underscore (``from_``,
    ``operands_``).  None if the op does not have the field.
    """
    base = python_name(nvidia_name)
    return next((name for name in (base, base + "_") if name in fields), None)


@dataclass(frozen=True)
class AttrField:
    name: str
    kind: AttrKind
    since: Version = V13_1
    optional: bool = False
    enum: type[CudaTileEnum] | None = None
    width: int = 64
    default: object = None
    """The value implied when a version older than ``since`` is read or written."""
    per_operand: str | None = None
    """For a flag array: the operand group it has one flag per (default: all false)."""


@dataclass(frozen=True)
class OperandField:
    name: str
    kind: OperandKind
    since: Version = V13_1


VARIADIC = -1
"""``OpEncoding.results`` of an op with a variadic result list."""


@dataclass(frozen=True)
class OpEncoding:
    opcode: int
    mnemonic: str
    since: Version
    attrs: tuple[AttrField, ...] = ()
    operands: tuple[OperandField, ...] = ()
    results: int = 1
    result_since: tuple[tuple[int, Version], ...] = ()
    """Results newer than the op: (index, version); older files lack them."""
    regions: int = 0
    segmented: bool = False
    """``AttrSizedOperandSegments``: operand groups are encoded one by one."""
    flag_bits: dict[str, int] = field(init=False, compare=False)
    flags_since: Version | None = field(init=False, compare=False)

    def __post_init__(self) -> None:
        optional: list[tuple[Version, int, str]] = [
            (a.since, 0, a.name) for a in self.attrs if a.optional
        ]
        if self.segmented:
            optional += [
                (o.since, 1, o.name) for o in self.operands if o.kind is OperandKind.OPTIONAL
            ]
        # Stable sort: by version, attributes before operands, then Ops.td order.
        ordered = sorted(optional, key=lambda f: (f[0], f[1]))
        object.__setattr__(self, "flag_bits", {n: i for i, (_, _, n) in enumerate(ordered)})
        first = min((v for v, _, _ in optional), default=None)
        object.__setattr__(self, "flags_since", first)

    @property
    def name(self) -> str:
        return "cuda_tile." + self.mnemonic

    @property
    def variadic(self) -> bool:
        """Any variadic operand or result: the result count is encoded."""
        return self.results == VARIADIC or any(
            o.kind is OperandKind.VARIADIC for o in self.operands
        )

    def has_flags(self, version: Version) -> bool:
        """Whether the presence-bits varint is present at ``version``."""
        if self.flags_since is None:
            return False
        return self.flags_since == self.since or version >= self.flags_since

    def result_count_at(self, total: int, version: Version) -> int:
        """How many of ``total`` results are encoded at ``version``."""
        return total - sum(1 for _, v in self.result_since if version < v)


# Constructors that keep the table below close to Ops.td.


def _operands(spec: str) -> tuple[OperandField, ...]:
    """``"a ?b *c@13.2"``: ``?`` optional, ``*`` variadic, ``@V`` since version."""
    fields = []
    for word in spec.split():
        name, _, since = word.partition("@")
        kind = OperandKind.SINGLE
        if name[0] in "?*":
            kind = OperandKind.OPTIONAL if name[0] == "?" else OperandKind.VARIADIC
            name = name[1:]
        fields.append(OperandField(name, kind, Version.parse(since) if since else V13_1))
    return tuple(fields)


def _unit(name: str, since: Version = V13_1) -> AttrField:
    return AttrField(name, AttrKind.UNIT, since, optional=True)


def _enum(
    name: str, enum: type[CudaTileEnum], since: Version = V13_1, default: object = None
) -> AttrField:
    return AttrField(name, AttrKind.ENUM, since, enum=enum, default=default)


def _opt_enum(name: str, enum: type[CudaTileEnum]) -> AttrField:
    return AttrField(name, AttrKind.ENUM, optional=True, enum=enum)


def _int(name: str, width: int = 64) -> AttrField:
    return AttrField(name, AttrKind.INT, width=width)


def _attr(name: str, kind: AttrKind, optional: bool = False) -> AttrField:
    return AttrField(name, kind, optional=optional)


_ROUNDING = _enum("rounding_mode", RoundingMode)
_FTZ = _unit("flush_to_zero")
_OVERFLOW = _enum("overflow", IntegerOverflow)
_SIGNEDNESS = _enum("signedness", Signedness)
_ORDERING = _enum("memory_ordering_semantics", MemoryOrdering)
_SCOPE = _enum("memory_scope", MemoryScope)
_OPT_SCOPE = _opt_enum("memory_scope", MemoryScope)
_HINTS = _attr("optimization_hints", AttrKind.HINTS, optional=True)
_INBOUNDS = AttrField("inbounds", AttrKind.BOOL_ARRAY, V13_4, per_operand="index")
"""13.4: one flag per index, all false by default (the 13.4 tools require the count)."""
_REDUCTION = _enum("reduction", MultimemReductionKind)


def _op(
    opcode: int,
    mnemonic: str,
    operands: str = "",
    attrs: tuple[AttrField, ...] = (),
    since: Version = V13_1,
    **kw: object,
) -> OpEncoding:
    """An op; its fields are at least as new as the op itself."""
    attrs = tuple(replace(f, since=max(f.since, since)) for f in attrs)
    fields = tuple(replace(o, since=max(o.since, since)) for o in _operands(operands))
    return OpEncoding(opcode, mnemonic, since, attrs, fields, **kw)  # type: ignore[arg-type]


_UNARY = "source"
_BINARY = "lhs rhs"

OPS: tuple[OpEncoding, ...] = (
    _op(0x00, "absf", _UNARY),
    _op(0x01, "absi", _UNARY),
    _op(0x02, "addf", _BINARY, (_ROUNDING, _FTZ)),
    _op(0x03, "addi", _BINARY, (_OVERFLOW,)),
    _op(0x04, "andi", _BINARY),
    _op(0x05, "assert", "condition", (_attr("message", AttrKind.STRING),), results=0),
    _op(0x06, "assume", "value", (_attr("predicate", AttrKind.PREDICATE),)),
    _op(
        0x07,
        "atomic_cas_tko",
        "pointers cmp val ?mask ?token",
        (_ORDERING, _SCOPE),
        results=2,
        segmented=True,
    ),
    _op(
        0x08,
        "atomic_rmw_tko",
        "pointers arg ?mask ?token",
        (_ORDERING, _SCOPE, _enum("mode", AtomicRMWMode)),
        results=2,
        segmented=True,
    ),
    _op(0x09, "bitcast", _UNARY),
    _op(0x0A, "break", "*operands", results=0),
    _op(0x0B, "broadcast", _UNARY),
    _op(0x0C, "cat", _BINARY, (_int("dim"),)),
    _op(0x0D, "ceil", _UNARY),
    _op(
        0x0E,
        "cmpf",
        _BINARY,
        (
            _enum("comparison_predicate", ComparisonPredicate),
            _enum("comparison_ordering", ComparisonOrdering),
        ),
    ),
    _op(0x0F, "cmpi", _BINARY, (_enum("comparison_predicate", ComparisonPredicate), _SIGNEDNESS)),
    _op(0x10, "constant", attrs=(_attr("value", AttrKind.DENSE),)),
    _op(0x11, "continue", "*operands", results=0),
    _op(0x12, "cos", _UNARY),
    _op(0x13, "cosh", _UNARY),
    _op(0x14, "divf", _BINARY, (_ROUNDING, _FTZ)),
    _op(0x15, "divi", _BINARY, (_SIGNEDNESS, _enum("rounding", RoundingMode))),
    # 0x16 entry: a function-table entry, not an op in a body (see writer).
    _op(
        0x17,
        "exp",
        _UNARY,
        (_enum("rounding_mode", RoundingMode, V13_3, RoundingMode.FULL),),
    ),
    _op(0x18, "exp2", _UNARY, (_FTZ,)),
    _op(0x25, "exti", "from", (_SIGNEDNESS,)),
    _op(0x26, "extract", "source *indices"),
    _op(0x27, "floor", _UNARY),
    _op(0x28, "fma", "lhs rhs acc", (_ROUNDING, _FTZ)),
    _op(
        0x29,
        "for",
        "lowerBound upperBound step *initValues",
        (_unit("unsignedCmp", V13_2),),
        results=VARIADIC,
        regions=1,
    ),
    _op(0x2A, "ftof", "from", (_ROUNDING,)),
    _op(0x2B, "ftoi", "from", (_SIGNEDNESS, _ROUNDING, _unit("saturating", V13_4))),
    _op(0x2C, "get_global", attrs=(_attr("name", AttrKind.SYMBOL),)),
    _op(0x2D, "get_index_space_shape", "src", results=VARIADIC),
    _op(0x2E, "get_num_tile_blocks", results=3),
    _op(0x2F, "get_tensor_shape", "src", results=VARIADIC),
    _op(0x30, "get_tile_block_id", results=3),
    # 0x31 global: an entry of the global section, not an op in a body.
    _op(0x32, "if", "condition", results=VARIADIC, regions=2),
    _op(0x33, "int_to_ptr", _UNARY),
    _op(0x3A, "iota"),
    _op(0x3B, "itof", "from", (_SIGNEDNESS, _ROUNDING)),
    _op(0x3C, "join_tokens", "*tokens"),
    _op(
        0x3D,
        "load_ptr_tko",
        "source ?mask ?paddingValue ?token",
        (_ORDERING, _OPT_SCOPE, _HINTS),
        results=2,
        segmented=True,
    ),
    _op(
        0x3E,
        "load_view_tko",
        "view *index ?token",
        (_ORDERING, _OPT_SCOPE, _HINTS, _INBOUNDS),
        results=2,
        segmented=True,
    ),
    _op(0x3F, "log", _UNARY),
    _op(0x40, "log2", _UNARY),
    _op(0x41, "loop", "*initValues", results=VARIADIC, regions=1),
    _op(0x42, "make_partition_view", "tensor_view"),
    _op(0x43, "make_tensor_view", "base *dynamicShape *dynamicStrides", segmented=True),
    _op(0x44, "make_token"),
    _op(0x45, "maxf", _BINARY, (_unit("propagate_nan"), _FTZ)),
    _op(0x46, "maxi", _BINARY, (_SIGNEDNESS,)),
    _op(0x47, "minf", _BINARY, (_unit("propagate_nan"), _FTZ)),
    _op(0x48, "mini", _BINARY, (_SIGNEDNESS,)),
    _op(0x49, "mmaf", "lhs rhs acc", (_unit("fast_acc", V13_3),)),
    _op(
        0x4A,
        "mmai",
        "lhs rhs acc",
        (_enum("signedness_lhs", Signedness), _enum("signedness_rhs", Signedness)),
    ),
    # 0x4B module: the file itself.
    _op(0x4C, "mulf", _BINARY, (_ROUNDING, _FTZ)),
    _op(0x4D, "mulhii", "x y"),
    _op(0x4E, "muli", _BINARY, (_OVERFLOW,)),
    _op(0x4F, "negf", _UNARY),
    _op(
        0x50,
        "negi",
        _UNARY,
        (_enum("overflow", IntegerOverflow, V13_2, IntegerOverflow.NONE),),
    ),
    _op(0x51, "offset", "ptr offset"),
    _op(0x52, "ori", _BINARY),
    _op(0x53, "permute", _UNARY, (_attr("permutation", AttrKind.I32_ARRAY),)),
    _op(0x54, "fpowf", "source exponent"),
    _op(
        0x55,
        "print_tko",
        "*args ?token@13.2",
        (_attr("str", AttrKind.STRING),),
        result_since=((0, V13_2),),
        segmented=True,
    ),
    _op(0x56, "ptr_to_int", _UNARY),
    _op(0x57, "ptr_to_ptr", _UNARY),
    _op(
        0x58,
        "reduce",
        "*operands",
        (_int("dim", 32), _attr("identities", AttrKind.ATTR_ARRAY)),
        results=VARIADIC,
        regions=1,
    ),
    _op(0x59, "remf", _BINARY),
    _op(0x5A, "remi", _BINARY, (_SIGNEDNESS,)),
    _op(0x5B, "reshape", _UNARY),
    _op(0x5C, "return", "*operands", results=0),
    _op(0x5D, "rsqrt", _UNARY, (_FTZ,)),
    _op(
        0x5E,
        "scan",
        "*operands",
        (
            _int("dim", 32),
            _attr("reverse", AttrKind.BOOL),
            _attr("identities", AttrKind.ATTR_ARRAY),
        ),
        results=VARIADIC,
        regions=1,
    ),
    _op(0x5F, "select", "cond val_if_true val_if_false"),
    _op(0x60, "shli", _BINARY, (_OVERFLOW,)),
    _op(0x61, "shri", _BINARY, (_SIGNEDNESS,)),
    _op(0x62, "sin", _UNARY),
    _op(0x63, "sinh", _UNARY),
    _op(0x64, "sqrt", _UNARY, (_ROUNDING, _FTZ)),
    _op(
        0x65,
        "store_ptr_tko",
        "destination value ?mask ?token",
        (_ORDERING, _OPT_SCOPE, _HINTS),
        segmented=True,
    ),
    _op(
        0x66,
        "store_view_tko",
        "tile view *index ?token",
        (_ORDERING, _OPT_SCOPE, _HINTS, _INBOUNDS),
        segmented=True,
    ),
    _op(0x67, "subf", _BINARY, (_ROUNDING, _FTZ)),
    _op(0x68, "subi", _BINARY, (_OVERFLOW,)),
    _op(0x69, "tan", _UNARY),
    _op(
        0x6A,
        "tanh",
        _UNARY,
        (_enum("rounding_mode", RoundingMode, V13_2, RoundingMode.FULL),),
    ),
    _op(0x6B, "trunci", "from", (_OVERFLOW,)),
    _op(0x6C, "xori", _BINARY),
    _op(0x6D, "yield", "*operands", results=0),
    _op(0x6E, "atan2", "x y", since=V13_2),
    _op(0x6F, "pack", _UNARY, since=V13_3),
    _op(0x70, "unpack", _UNARY, since=V13_3),
    _op(
        0x71,
        "alloca",
        attrs=(_int("num_elem"), _int("alignment"), _unit("global", V13_3)),
        since=V13_3,
    ),
    _op(0x72, "mmaf_scaled", "lhs rhs acc lhs_scale rhs_scale", since=V13_3),
    _op(0x73, "make_gather_scatter_view", "tensor_view", since=V13_3),
    _op(0x74, "make_strided_view", "tensor_view", since=V13_3),
    _op(
        0x75,
        "atomic_red_view_tko",
        "view *index value ?token",
        (_ORDERING, _SCOPE, _enum("mode", AtomicRMWMode), replace(_INBOUNDS, since=V13_5)),
        since=V13_3,
        segmented=True,
    ),
    _op(0x76, "insert", "source destination *indices", since=V13_4),
    _op(0x77, "gdc_launch_dependents_tko", "?token", since=V13_4),
    _op(0x78, "gdc_wait_tko", "?token", since=V13_4),
    _op(0x79, "fpowi", "source exponent", since=V13_4),
    _op(0x7A, "memory_fence_alias_tko", "token", since=V13_4),
    _op(
        0x7B,
        "multimem_load_reduce_view_tko",
        "view *index ?token",
        (_ORDERING, _OPT_SCOPE, _REDUCTION, _INBOUNDS),
        since=V13_5,
        results=2,
        segmented=True,
    ),
    _op(
        0x7C,
        "multimem_reduce_view_tko",
        "view tile *index ?token",
        (_ORDERING, _SCOPE, _REDUCTION, _INBOUNDS),
        since=V13_5,
        segmented=True,
    ),
    _op(
        0x7D,
        "multimem_store_view_tko",
        "view tile *index ?token",
        (_ORDERING, _OPT_SCOPE, _INBOUNDS),
        since=V13_5,
        segmented=True,
    ),
)

ENTRY_OPCODE = 0x16
GLOBAL_OPCODE = 0x31
MODULE_OPCODE = 0x4B

OP_ALIASES = {"cuda_tile.pow": "cuda_tile.fpowf"}
"""Ops written under another op's encoding (13.3 spelled opcode 0x54 ``pow``)."""

BY_NAME: dict[str, OpEncoding] = {op.name: op for op in OPS}
BY_OPCODE: dict[int, OpEncoding] = {op.opcode: op for op in OPS}


def encoding_of(op_name: str) -> OpEncoding | None:
    return BY_NAME.get(OP_ALIASES.get(op_name, op_name))
