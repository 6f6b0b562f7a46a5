"""Tile IR bytecode to ``cuda_tile`` IR.

    module = read_bytecode(data)        # a cuda_tile.module named "kernels"

The inverse of ``writer``: ``write_bytecode(read_bytecode(b), v) == b`` for
bytecode ``b`` of version ``v`` written by safetile.  Bytecode carries no
module name (NVIDIA's reader also says ``kernels``) and no SSA names.  Ops
and kernels get their locations from the debug section (``debug``), unknown
where it has none.

Malformed input raises ``BytecodeReadError`` naming the byte offset and what
was expected there.  Every count is checked against the bytes left before it
is used, region nesting is bounded, and type references cannot loop, so no
input makes the reader crash, recurse without bound or run for long.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FloatAttr,
    FunctionType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import OptionalDef, VariadicDef, VerificationContext
from xdsl.utils.exceptions import VerifyException

from safetile.dialects.cuda_tile.attributes import (
    BoundedAttr,
    DivByAttr,
    OptimizationHintsAttr,
    PaddingValue,
    PaddingValueAttr,
    PointerKind,
    PointerKindAttr,
    SameElementsAttr,
    SymbolVisibility,
    SymbolVisibilityAttr,
)
from safetile.dialects.cuda_tile.ops import ALL_OPS, structure
from safetile.dialects.cuda_tile.types import (
    DYNAMIC,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
    TokenType,
    is_number,
    is_tile_element,
)

from . import constants
from .debug import DebugSection
from .encodings import (
    BY_OPCODE,
    DYNAMIC_BYTECODE,
    ENUM_ATTRS,
    ENUM_CASE_SINCE,
    POINTER_ATTR_SINCE,
    TYPE_TAG_SINCE,
    VARIADIC,
    AttrField,
    AttrKind,
    AttrTag,
    OpEncoding,
    OperandKind,
    TypeTag,
    our_field,
    python_name,
)
from .format import (
    ALIGNMENT_BYTE,
    ENTRY_ATTRIBUTES,
    MAGIC,
    MAX_NESTING,
    SECTION_ALIGNMENT,
    SUPPORTED_VERSIONS,
    UNIFIED_BITFIELD,
    V13_3,
    BytecodeReadError,
    ByteReader,
    FunctionFlags,
    Section,
    Version,
    read_table,
)
from .values import ELEMENT_TYPES, bit_width, bits_to_float

OP_CLASSES: dict[str, type[Operation]] = {op.name: op for op in ALL_OPS}
MODULE_NAME = structure.UNNAMED_MODULE


def read_bytecode(data: bytes) -> structure.ModuleOp:
    """Decode Tile IR bytecode into a verified ``cuda_tile.module``."""
    return _Reader(bytes(data)).module()


def bytecode_version(data: bytes) -> Version:
    """The version in a bytecode header (checked like ``read_bytecode`` does)."""
    return _header(ByteReader(bytes(data)))


def _header(r: ByteReader) -> Version:
    for i, expected in enumerate(MAGIC):
        got = r.byte("Tile IR bytecode magic number 7F 'TileIR' 00")
        if got != expected:
            raise r.error(
                "Tile IR bytecode magic number 7F 'TileIR' 00",
                f"byte {i} is {got:#04x}",
                r.pos - 1,
            )
    at = r.pos
    version = Version(r.byte("major version"), r.byte("minor version"))
    tag_at = r.pos
    if tag := r.le(2, "version tag"):
        # 13.5's readers: bit 0 marks public-preview content, other bits are unknown.
        raise r.error("version tag 0 (no preview content)", f"got {tag:#06x}", tag_at)
    if version not in SUPPORTED_VERSIONS:
        raise r.error(
            "a supported bytecode version (" + ", ".join(map(str, SUPPORTED_VERSIONS)) + ")",
            f"got {version}",
            at,
        )
    return version


class _Reader:
    def __init__(self, data: bytes):
        self.data = data
        self.version = Version(0, 0)
        self.strings: list[str] = []
        self.type_entries: list[ByteReader] = []
        self.type_cache: dict[int, Attribute] = {}
        self.types_parsing: set[int] = set()
        self.constants: list[ByteReader] = []
        self.values: list[SSAValue] = []
        self.op_offsets: dict[Operation, int] = {}
        self.depth = 0
        self.debug = DebugSection(None, [], self.version)
        self.kernel_locations: list[int] | None = None
        """The location references of the kernel being read (None: it has none)."""

    # -------------------------------------------------------------- sections

    def module(self) -> structure.ModuleOp:
        r = ByteReader(self.data)
        self.version = _header(r)
        sections = self.sections(r)
        if Section.STRING not in sections:
            raise BytecodeReadError(len(self.data), "a string section")
        if Section.FUNC not in sections:
            raise BytecodeReadError(len(self.data), "a function section")
        self.strings = self.string_table(sections[Section.STRING])
        producer = None
        if Section.PRODUCER in sections:
            producer = self.string_ref(sections[Section.PRODUCER], "producer string index")
            sections[Section.PRODUCER].expect_end("producer section")
        if Section.TYPE in sections:
            self.type_entries = read_table(sections[Section.TYPE], 4, "type")
        if Section.CONSTANT in sections:
            self.constant_table(sections[Section.CONSTANT])
        self.debug = DebugSection(sections.get(Section.DEBUG), self.strings, self.version)
        ops: list[Operation] = []
        if Section.GLOBAL in sections:
            ops += self.globals(sections[Section.GLOBAL])
        ops += self.functions(sections[Section.FUNC])
        module = structure.ModuleOp(MODULE_NAME, ops, producer)
        self.verify(module)
        return module

    def sections(self, r: ByteReader) -> dict[int, ByteReader]:
        found: dict[int, ByteReader] = {}
        while True:
            at = r.pos
            head = r.byte("a section id or the end marker")
            section, aligned = head & 0x7F, bool(head & 0x80)
            if section == Section.END:
                if aligned:
                    raise r.error("the end marker 00", f"got {head:#04x}", at)
                if not r.at_end():
                    raise r.error("end of data after the end marker", f"{r.remaining} more bytes")
                return found
            if section not in Section.__members__.values():
                raise r.error("a section id (1-7)", f"got {section}", at)
            if section in found:
                raise r.error("each section at most once", f"section {section} repeats", at)
            length = r.varint("section length")
            alignment = 1
            if aligned:
                align_at = r.pos
                alignment = r.varint("section alignment")
                if alignment == 0 or alignment & (alignment - 1) or alignment > 4096:
                    raise r.error("a power-of-two section alignment", f"got {alignment}", align_at)
                pad = -r.pos % alignment
                r.raw(pad, "section alignment padding")
            required = SECTION_ALIGNMENT.get(Section(section), 1)
            if alignment % required:
                raise r.error(
                    f"section {section} aligned to a multiple of {required} bytes",
                    f"alignment is {alignment}",
                    at,
                )
            found[section] = r.sub(length, f"section {section} payload")

    def string_table(self, r: ByteReader) -> list[str]:
        strings = []
        for entry in read_table(r, 4, "string"):
            at = entry.pos
            try:
                strings.append(entry.raw(entry.remaining, "string").decode("utf-8"))
            except UnicodeDecodeError as err:
                raise BytecodeReadError(at, "a UTF-8 string", str(err)) from None
        return strings

    def string_ref(self, r: ByteReader, what: str) -> str:
        return self.strings[r.index(what, len(self.strings))]

    def constant_table(self, r: ByteReader) -> None:
        for entry in read_table(r, 8, "constant"):
            size = entry.count("constant size")
            self.constants.append(entry.sub(size, "constant data"))
            entry.expect_end("constant")

    def location(self, at: int) -> Attribute:
        """The next location of the kernel being read (for the op or kernel at ``at``)."""
        refs = self.kernel_locations
        if refs is None:
            return UnknownLoc()
        if not refs:
            raise BytecodeReadError(at, "a debug location for each op of the kernel")
        return self.debug.attr(refs.pop(0), at)

    # ----------------------------------------------------------------- types

    def type_ref(self, r: ByteReader, what: str) -> Attribute:
        at = r.pos
        return self.type_at(r.index(what, len(self.type_entries)), at)

    def type_at(self, index: int, at: int) -> Attribute:
        if index in self.type_cache:
            return self.type_cache[index]
        if index in self.types_parsing:
            raise BytecodeReadError(at, "a type that does not contain itself", f"type {index}")
        self.types_parsing.add(index)
        entry = self.type_entries[index]
        r = ByteReader(entry.data, entry.pos, entry.end)
        try:
            t = self.parse_type(r)
        except VerifyException as err:
            raise BytecodeReadError(entry.pos, "a valid type", _first_line(err)) from None
        finally:
            self.types_parsing.discard(index)
        r.expect_end(f"type {index}")
        self.type_cache[index] = t
        return t

    def parse_type(self, r: ByteReader) -> Attribute:
        at = r.pos
        tag = r.varint("a type tag")
        since = TYPE_TAG_SINCE.get(tag)  # type: ignore[call-overload]
        if since is not None and self.version < since:
            raise r.error(
                f"a type of bytecode version {self.version}",
                f"type tag {tag} needs {since}",
                at,
            )
        if tag in ELEMENT_TYPES:
            return ELEMENT_TYPES[tag]
        if tag == TypeTag.TOKEN:
            return TokenType()
        if tag == TypeTag.POINTER:
            has_kind = self.pointer_attr_bits(r)
            pointee = self.type_ref(r, "pointee type index")
            if not is_number(pointee):
                raise r.error("a number pointee type", f"got {pointee}", at)
            return PointerType(pointee, self.pointer_kind(r) if has_kind else None)
        if tag == TypeTag.TILE:
            elem = self.type_ref(r, "tile element type index")
            if not is_tile_element(elem):
                raise r.error("a tile element type", f"got {elem}", at)
            return TileType(r.le_list(8, "tile shape"), elem)
        if tag == TypeTag.TENSOR_VIEW:
            has_kind = self.pointer_attr_bits(r)
            elem = self.type_ref(r, "tensor_view element type index")
            if not is_number(elem):
                raise r.error("a number element type", f"got {elem}", at)
            shape = [
                DYNAMIC if d == DYNAMIC_BYTECODE else d for d in r.le_list(8, "tensor_view shape")
            ]
            strides = [
                DYNAMIC if s == DYNAMIC_BYTECODE else s for s in r.le_list(8, "tensor_view strides")
            ]
            return TensorViewType(elem, shape, strides, self.pointer_kind(r) if has_kind else None)
        if tag == TypeTag.PARTITION_VIEW:
            unified = self.version >= UNIFIED_BITFIELD
            flags = self.type_flags(r) if unified else 0
            tile = r.le_list(4, "partition_view tile shape")
            view = self.tensor_view_ref(r)
            dim_map = r.le_list(4, "partition_view dim_map")
            return PartitionViewType(tile, view, dim_map, self.padding(r, flags, unified))
        if tag == TypeTag.STRIDED_VIEW:
            flags = self.type_flags(r)
            tile = r.le_list(4, "strided_view tile shape")
            strides = r.le_list(4, "strided_view traversal strides")
            view = self.tensor_view_ref(r)
            dim_map = r.le_list(4, "strided_view dim_map")
            return StridedViewType(tile, strides, view, dim_map, self.padding(r, flags, True))
        if tag == TypeTag.GATHER_SCATTER_VIEW:
            flags = self.type_flags(r)
            tile = r.le_list(4, "gather_scatter_view tile shape")
            view = self.tensor_view_ref(r)
            sparse_at = r.pos
            sparse_dim = r.varint("gather_scatter_view sparse_dim")
            if sparse_dim > 2**32 - 1:
                raise r.error("a 32-bit sparse_dim", f"got {sparse_dim}", sparse_at)
            return GatherScatterViewType(tile, view, sparse_dim, self.padding(r, flags, True))
        if tag == TypeTag.FUNCTION:
            inputs = [
                self.type_ref(r, "parameter type index")
                for _ in range(r.count("number of parameters"))
            ]
            outputs = [
                self.type_ref(r, "result type index") for _ in range(r.count("number of results"))
            ]
            if any(isinstance(t, FunctionType) for t in (*inputs, *outputs)):
                raise r.error("non-function parameter and result types", at=at)
            return FunctionType.from_lists(inputs, outputs)
        raise r.error("a type tag", f"got {tag}", at)

    def pointer_attr_bits(self, r: ByteReader) -> bool:
        """Whether a ``ptr`` / ``tensor_view`` has a ``ptr_attr`` (13.4's presence bits)."""
        return self.version >= POINTER_ATTR_SINCE and bool(self.type_flags(r))

    def pointer_kind(self, r: ByteReader) -> PointerKindAttr:
        at = r.pos
        code = r.varint("ptr_attr value")
        if code >= len(PointerKind):
            raise r.error(f"a ptr_attr value (0-{len(PointerKind) - 1})", f"got {code}", at)
        kind = PointerKind.from_code(code)
        if self.version < ENUM_CASE_SINCE.get(kind, self.version):
            raise r.error(
                f"a ptr_attr of bytecode version {self.version}",
                f"'{kind}' needs {ENUM_CASE_SINCE[kind]}",
                at,
            )
        return PointerKindAttr(kind)

    @staticmethod
    def type_flags(r: ByteReader) -> int:
        at = r.pos
        flags = r.varint("type parameter presence bits")
        if flags & ~1:
            raise r.error("presence bits 0 or 1", f"got {flags:#x}", at)
        return flags

    def tensor_view_ref(self, r: ByteReader) -> TensorViewType:
        at = r.pos
        t = self.type_ref(r, "tensor_view type index")
        if not isinstance(t, TensorViewType):
            raise r.error("a tensor_view type", f"got {t}", at)
        return t

    @staticmethod
    def padding(r: ByteReader, flags: int, unified: bool) -> PaddingValueAttr | None:
        if not unified:
            at = r.pos
            flags = r.byte("padding_value presence byte")
            if flags > 1:
                raise r.error("padding_value presence byte 0 or 1", f"got {flags}", at)
        if not flags:
            return None
        at = r.pos
        code = r.varint("padding_value")
        if code >= len(PaddingValue):
            raise r.error("a padding_value (0-4)", f"got {code}", at)
        return PaddingValueAttr(PaddingValue.from_code(code))

    # ------------------------------------------------------------ attributes

    def tagged(self, r: ByteReader, depth: int = 0) -> Attribute:
        """A self-contained attribute (tag and payload)."""
        if depth > MAX_NESTING:
            raise r.error(f"attributes nested at most {MAX_NESTING} deep")
        at = r.pos
        tag = r.varint("an attribute tag")
        if tag == AttrTag.INTEGER:
            t = self.type_ref(r, "integer attribute type index")
            if not isinstance(t, IntegerType):
                raise r.error("an integer type", f"got {t}", at)
            return self.integer(r, t.width.data)
        if tag == AttrTag.FLOAT:
            t = self.type_ref(r, "float attribute type index")
            if isinstance(t, IntegerType) or not is_number(t):
                raise r.error("a float type", f"got {t}", at)
            bits = self.ap_int(r, bit_width(t))
            try:
                return FloatAttr(bits_to_float(bits, t), t)
            except ValueError as err:
                raise r.error("a float value", str(err), at) from None
        if tag == AttrTag.BOOL:
            return IntegerAttr(int(self.flag_byte(r, "bool attribute")), 1)
        if tag == AttrTag.TYPE:
            return self.type_ref(r, "type attribute type index")
        if tag == AttrTag.STRING:
            return StringAttr(self.string_ref(r, "string attribute index"))
        if tag == AttrTag.ARRAY:
            return self.attr_array(r, depth)
        if tag == AttrTag.DENSE_ELEMENTS:
            t = self.type_ref(r, "dense elements type index")
            if not isinstance(t, TileType):
                raise r.error("a tile type", f"got {t}", at)
            return self.dense(r, t)
        if tag == AttrTag.DICTIONARY:
            return self.dictionary(r, depth)
        if tag == AttrTag.OPTIMIZATION_HINTS:
            return self.hints(r, depth)
        if tag == AttrTag.DIV_BY:
            divisor = r.varint("div_by divisor")
            flags = self.bits_byte(r, "div_by presence bits")
            every = r.signed_varint("div_by every") if flags & 1 else None
            along = r.signed_varint("div_by along") if flags & 2 else None
            return DivByAttr(divisor, every, along)
        if tag == AttrTag.SAME_ELEMENTS:
            return SameElementsAttr(r.le_list(8, "same_elements values"))
        if tag == AttrTag.BOUNDED:
            flags = self.bits_byte(r, "bounded presence bits")
            lb = r.signed_varint("bounded lower bound") if flags & 1 else None
            ub = r.signed_varint("bounded upper bound") if flags & 2 else None
            return BoundedAttr(lb, ub)
        raise r.error("an attribute tag (1-12)", f"got {tag}", at)

    @staticmethod
    def flag_byte(r: ByteReader, what: str) -> bool:
        at = r.pos
        b = r.byte(what)
        if b > 1:
            raise r.error(f"{what} 0 or 1", f"got {b}", at)
        return bool(b)

    @staticmethod
    def bits_byte(r: ByteReader, what: str) -> int:
        at = r.pos
        b = r.byte(what)
        if b & ~3:
            raise r.error(f"{what} within 0b11", f"got {b:#04x}", at)
        return b

    @staticmethod
    def integer(r: ByteReader, width: int) -> IntegerAttr:
        """An integer payload of ``width`` bits, as a signed value (i1: 0 or 1)."""
        at = r.pos
        value = r.byte("i1 value") if width == 1 else r.varint(f"i{width} value")
        if value >> width:
            raise r.error(f"a value that fits in {width} bits", f"got {value}", at)
        if width > 1 and value >> (width - 1):
            value -= 1 << width
        return IntegerAttr(value, width)

    @staticmethod
    def ap_int(r: ByteReader, width: int) -> int:
        at = r.pos
        if width <= 8:
            bits = r.byte("float bits")
        else:
            bits = r.signed_varint("float bits") & ((1 << 64) - 1)
        if bits >> width:
            raise r.error(f"float bits that fit in {width} bits", f"got {bits:#x}", at)
        return bits

    def attr_array(self, r: ByteReader, depth: int) -> ArrayAttr:
        return ArrayAttr([self.tagged(r, depth + 1) for _ in range(r.count("array size"))])

    def dictionary(self, r: ByteReader, depth: int) -> DictionaryAttr:
        entries: dict[str, Attribute] = {}
        for _ in range(r.count("dictionary size", 2)):
            at = r.pos
            key = self.string_ref(r, "dictionary key index")
            if not key or key in entries:
                raise r.error("a new, non-empty dictionary key", f"got '{key}'", at)
            entries[key] = self.tagged(r, depth + 1)
        return DictionaryAttr(entries)

    def hints(self, r: ByteReader, depth: int) -> OptimizationHintsAttr:
        at = r.pos
        value = self.dictionary(r, depth)
        if not all(isinstance(v, DictionaryAttr) for v in value.data.values()):
            raise r.error("a dictionary per optimization_hints architecture", at=at)
        return OptimizationHintsAttr(value)

    def dense(self, r: ByteReader, tile: TileType) -> Attribute:
        at = r.pos
        raw = self.constants[r.index("constant index", len(self.constants))]
        if not is_number(tile.element_type):
            raise r.error("a constant of numbers", f"got {tile}", at)
        try:
            return constants.from_raw(raw.data[raw.pos : raw.end], tile)
        except ValueError as err:
            raise BytecodeReadError(raw.pos, f"constant data for {tile}", str(err)) from None

    # -------------------------------------------------------------- globals

    def globals(self, r: ByteReader) -> list[Operation]:
        cls = OP_CLASSES["cuda_tile.global"]
        extended = self.version >= V13_3
        ops = []
        for _ in range(r.count("number of globals", 6 if extended else 4)):
            at = r.pos
            name = self.string_ref(r, "global name index")
            if not name:
                raise r.error("a non-empty global name", at=at)
            type_at = r.pos
            t = self.type_ref(r, "global type index")
            if not isinstance(t, TileType):
                raise r.error("a tile type", f"got {t}", type_at)
            value = self.dense(r, t)
            alignment = r.varint("global alignment")
            private = constant = False
            if extended:
                vis_at = r.pos
                vis = r.varint("global symbol visibility")
                if vis > 1:
                    raise r.error("symbol visibility 0 or 1", f"got {vis}", vis_at)
                private = vis == 1
                constant = r.varint("global constant flag") != 0
            props: dict[str, Attribute] = {
                "sym_name": StringAttr(name),
                "value": value,
                "alignment": IntegerAttr(alignment, 64),
            }
            if extended:
                props["symbol_visibility"] = SymbolVisibilityAttr(
                    SymbolVisibility.PRIVATE if private else SymbolVisibility.PUBLIC
                )
            if constant:
                props["constant"] = UnitAttr()
            op = self.build(cls, at, [], [], props, [])
            ops.append(op)
        r.expect_end("global section")
        return ops

    # ------------------------------------------------------------ functions

    def functions(self, r: ByteReader) -> list[Operation]:
        entries: list[Operation] = []
        for _ in range(r.count("number of functions", 5)):
            at = r.pos
            name = self.string_ref(r, "function name index")
            if not name:
                raise r.error("a non-empty function name", at=at)
            sig_at = r.pos
            signature = self.type_ref(r, "function signature type index")
            if not isinstance(signature, FunctionType):
                raise r.error("a function type", f"got {signature}", sig_at)
            always = self.version >= ENTRY_ATTRIBUTES
            flags_at = r.pos
            flags = r.byte("function flags")
            if always and flags != FunctionFlags.KERNEL:
                # Bits 2-3 are the form: extern implementations and testing
                # entries are not kernels safetile models.
                raise r.error("kernel function flags (0x02)", f"got {flags:#04x}", flags_at)
            if flags & ~(FunctionFlags.KERNEL | FunctionFlags.HAS_OPTIMIZATION_HINTS) or not (
                flags & FunctionFlags.KERNEL
            ):
                raise r.error("kernel function flags (0x02, 0x06)", f"got {flags:#04x}", flags_at)
            loc_at = r.pos
            loc = r.varint("function location index")
            if loc > self.debug.functions:
                raise r.error("a location index covered by the debug section", f"got {loc}", loc_at)
            hints = None
            if always or flags & FunctionFlags.HAS_OPTIMIZATION_HINTS:
                hints_at = r.pos
                hints = self.tagged(r)
                if not isinstance(hints, OptimizationHintsAttr):
                    raise r.error("optimization hints", f"got {hints}", hints_at)
                if always and not hints.value.data:
                    hints = None  # 13.5 writes an empty one for none
            if always:
                self.no_argument_attributes(r)
            body = r.sub(r.count("function body length", 0), "function body")
            self.kernel_locations = self.debug.location_refs(loc) if loc else None
            entries.append(self.function(name, signature, hints, body, at))
        pad_at = r.pos
        padding = r.raw(r.remaining, "padding")
        if len(padding) >= 8 or any(b != ALIGNMENT_BYTE for b in padding):
            raise BytecodeReadError(pad_at, "end of the function section", "trailing bytes")
        return entries

    def no_argument_attributes(self, r: ByteReader) -> None:
        """13.5's ``arg_attrs``: an empty array or dictionary (as NVIDIA's tools
        accept), or one empty dictionary per argument; we model none."""
        at = r.pos
        attrs = self.tagged(r)
        entries = attrs.data if isinstance(attrs, ArrayAttr) else [attrs]
        if not isinstance(attrs, ArrayAttr | DictionaryAttr) or any(
            not isinstance(d, DictionaryAttr) or d.data for d in entries
        ):
            raise r.error("no argument attributes (unsupported)", f"got {attrs}", at)

    def function(
        self,
        name: str,
        signature: FunctionType,
        hints: OptimizationHintsAttr | None,
        body: ByteReader,
        at: int,
    ) -> Operation:
        location = self.location(at)
        block = Block(arg_types=signature.inputs.data)
        self.values = list(block.args)
        while not body.at_end():
            block.add_op(self.operation(body))
        entry = structure.EntryOp(
            name, signature.inputs.data, Region(block), hints, signature.outputs.data
        )
        entry.location = location
        self.op_offsets[entry] = at
        return entry

    # ------------------------------------------------------------------- ops

    def operation(self, r: ByteReader) -> Operation:
        at = r.pos
        opcode = r.varint("an opcode")
        encoding = BY_OPCODE.get(opcode)
        if encoding is None:
            raise r.error("an opcode", f"got {opcode:#x}", at)
        if self.version < encoding.since:
            raise r.error(
                f"an op of bytecode version {self.version}",
                f"'{encoding.name}' needs {encoding.since}",
                at,
            )
        cls = OP_CLASSES.get(encoding.name)
        if cls is None:
            raise r.error("an op safetile models", f"'{encoding.name}'", at)
        location = self.location(at)  # before the ops of its regions
        result_types = self.result_types(r, encoding)
        flags = self.flags(r, encoding)
        props = self.attributes(r, encoding, cls, flags, result_types)
        operands, sizes = self.operands(r, encoding, cls, flags)
        for f in encoding.attrs:
            # One false flag per operand is the default: the op leaves it out.
            name = our_field(props, f.name)
            value = props.get(name) if name else None
            if (
                f.per_operand
                and _is_default(value)
                and len(value.get_values()) == sizes[f.per_operand]
            ):
                del props[name]
        regions = self.regions(r, encoding)
        op = self.build(cls, at, operands, result_types, props, regions)
        op.location = location
        self.values += op.results[: encoding.result_count_at(len(op.results), self.version)]
        return op

    def result_types(self, r: ByteReader, encoding: OpEncoding) -> list[Attribute]:
        fixed = encoding.results
        older = [i for i, v in encoding.result_since if self.version < v]
        encoded = VARIADIC if fixed == VARIADIC else fixed - len(older)
        if encoding.variadic:
            at = r.pos
            n = r.count("number of results")
            if encoded not in (VARIADIC, n):
                raise r.error(f"{encoded} results for '{encoding.name}'", f"got {n}", at)
            encoded = n
        types = [self.type_ref(r, "result type index") for _ in range(encoded)]
        for i in older:  # results this version lacks: tokens (print_tko)
            types.insert(i, TokenType())
        return types

    def flags(self, r: ByteReader, encoding: OpEncoding) -> int:
        if not encoding.has_flags(self.version):
            return 0
        at = r.pos
        flags = r.varint("presence bits")
        allowed = 0
        since = {f.name: f.since for f in encoding.attrs} | {
            o.name: o.since for o in encoding.operands
        }
        for name, bit in encoding.flag_bits.items():
            if self.version >= since[name]:
                allowed |= 1 << bit
        if flags & ~allowed:
            raise r.error(
                f"presence bits within {allowed:#b} for '{encoding.name}'", f"got {flags:#b}", at
            )
        return flags

    def attributes(
        self,
        r: ByteReader,
        encoding: OpEncoding,
        cls: type[Operation],
        flags: int,
        result_types: list[Attribute],
    ) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {}
        definition = cls.get_irdl_definition()  # type: ignore[attr-defined]
        for f in encoding.attrs:
            name = our_field(definition.properties, f.name)
            if f.optional:
                if not flags >> encoding.flag_bits[f.name] & 1:
                    continue
                value = (
                    UnitAttr() if f.kind is AttrKind.UNIT else self.op_attribute(r, f, result_types)
                )
            elif self.version < f.since:
                continue  # absent from older files: the op's default applies
            else:
                value = self.op_attribute(r, f, result_types)
            if name is None:
                if not _is_default(value):
                    raise r.error(f"no '{python_name(f.name)}' on '{encoding.name}' (unsupported)")
                continue
            if value is not None:
                props[name] = _fit(definition.properties[name], value)
        return props

    def op_attribute(
        self, r: ByteReader, f: AttrField, result_types: list[Attribute]
    ) -> Attribute | None:
        """An attribute from an op's attribute list (not self-contained)."""
        at = r.pos
        kind = f.kind
        if kind is AttrKind.ENUM:
            assert f.enum is not None
            code = r.varint(f"{python_name(f.name)} value")
            if code >= len(f.enum):
                raise r.error(
                    f"a {python_name(f.name)} value (0-{len(f.enum) - 1})", f"got {code}", at
                )
            case = f.enum.from_code(code)
            if self.version < ENUM_CASE_SINCE.get(case, self.version):
                raise r.error(
                    f"a {python_name(f.name)} of bytecode version {self.version}",
                    f"'{case}' needs {ENUM_CASE_SINCE[case]}",
                    at,
                )
            return ENUM_ATTRS[f.enum](case)
        if kind is AttrKind.INT:
            value = r.varint(f"{python_name(f.name)} value")
            if value >> f.width:
                raise r.error(f"a value that fits in {f.width} bits", f"got {value}", at)
            if value >> (f.width - 1):
                value -= 1 << f.width
            return IntegerAttr(value, f.width)
        if kind is AttrKind.BOOL:
            return IntegerAttr(int(self.flag_byte(r, python_name(f.name))), 1)
        if kind is AttrKind.STRING:
            return StringAttr(self.string_ref(r, f"{python_name(f.name)} string index"))
        if kind is AttrKind.SYMBOL:
            name = self.string_ref(r, "symbol name index")
            if not name:
                raise r.error("a non-empty symbol name", at=at)
            return SymbolRefAttr(name)
        if kind is AttrKind.DENSE:
            tile = result_types[0] if result_types else None
            if not isinstance(tile, TileType):
                raise r.error("a tile result type for a constant", f"got {tile}", at)
            return self.dense(r, tile)
        if kind is AttrKind.I32_ARRAY:
            return DenseArrayBase.from_list(IntegerType(32), r.le_list(4, python_name(f.name)))
        if kind is AttrKind.BOOL_ARRAY:
            values = r.le_list(1, python_name(f.name), signed=False)
            if any(v > 1 for v in values):
                raise r.error(f"{python_name(f.name)} values 0 or 1", f"got {values}", at)
            return DenseArrayBase.from_list(IntegerType(1), values)
        if kind is AttrKind.ATTR_ARRAY:
            return self.attr_array(r, 0)
        if kind is AttrKind.PREDICATE:
            value = self.tagged(r)
            if not isinstance(value, DivByAttr | SameElementsAttr | BoundedAttr):
                raise r.error("an assume predicate", f"got {value}", at)
            return value
        if kind is AttrKind.HINTS:
            return self.hints(r, 0)
        raise AssertionError(kind)

    def operands(
        self, r: ByteReader, encoding: OpEncoding, cls: type[Operation], flags: int
    ) -> tuple[list[SSAValue | list[SSAValue] | None], dict[str, int]]:
        """The operands per definition of ``cls``, and the size of each ``Ops.td`` group."""
        groups: dict[str, list[SSAValue]] = {}
        fields = encoding.operands
        if encoding.segmented:
            for o in fields:
                if o.kind is OperandKind.SINGLE:
                    n = 1
                elif o.kind is OperandKind.VARIADIC:
                    n = r.count(f"number of '{python_name(o.name)}' operands")
                else:
                    n = flags >> encoding.flag_bits[o.name] & 1
                groups[o.name] = [self.value(r) for _ in range(n)]
        else:
            singles = sum(o.kind is OperandKind.SINGLE for o in fields)
            n = singles
            if any(o.kind is not OperandKind.SINGLE for o in fields):
                at = r.pos
                n = r.count("number of operands")
                optional_only = all(o.kind is not OperandKind.VARIADIC for o in fields)
                most = len(fields) if optional_only else n
                if not singles <= n <= most:
                    raise r.error(
                        f"{singles} to {most} operands for '{encoding.name}'", f"got {n}", at
                    )
            values = [self.value(r) for _ in range(n)]
            rest = n - singles
            for o in fields:
                take = 1 if o.kind is OperandKind.SINGLE else rest
                if o.kind is not OperandKind.SINGLE:
                    rest = 0
                groups[o.name], values = values[:take], values[take:]
        definition = cls.get_irdl_definition()  # type: ignore[attr-defined]
        ours = [name for name, _ in definition.operands]
        by_name = {our_field(ours, name): values for name, values in groups.items()}
        operands: list[SSAValue | list[SSAValue] | None] = []
        for name, d in definition.operands:
            values = by_name.get(name, [])
            if isinstance(d, VariadicDef):
                operands.append(
                    values if not isinstance(d, OptionalDef) else (values[0] if values else None)
                )
            else:
                operands.append(values[0] if values else None)
        return operands, {name: len(values) for name, values in groups.items()}

    def value(self, r: ByteReader) -> SSAValue:
        at = r.pos
        i = r.varint("an operand value index")
        if i >= len(self.values):
            raise r.error("a defined value", f"value {i} of {len(self.values)}", at)
        return self.values[i]

    def regions(self, r: ByteReader, encoding: OpEncoding) -> list[Region]:
        if not encoding.regions:
            return []
        at = r.pos
        n = r.varint("number of regions")
        if n != encoding.regions:
            raise r.error(f"{encoding.regions} regions for '{encoding.name}'", f"got {n}", at)
        if self.depth >= MAX_NESTING:
            raise r.error(f"regions nested at most {MAX_NESTING} deep", at=at)
        self.depth += 1
        regions = [self.region(r) for _ in range(n)]
        self.depth -= 1
        return regions

    def region(self, r: ByteReader) -> Region:
        blocks = []
        for _ in range(r.count("number of blocks", 2)):
            scope = len(self.values)
            block = Block(
                arg_types=[
                    self.type_ref(r, "block argument type index")
                    for _ in range(r.count("number of block arguments"))
                ]
            )
            self.values += block.args
            for _ in range(r.count("number of ops in block")):
                block.add_op(self.operation(r))
            del self.values[scope:]
            blocks.append(block)
        return Region(blocks)

    # ------------------------------------------------------------- building

    def build(
        self,
        cls: type[Operation],
        at: int,
        operands: Sequence[SSAValue | list[SSAValue] | None],
        result_types: list[Attribute],
        props: dict[str, Attribute],
        regions: list[Region],
    ) -> Operation:
        definition = cls.get_irdl_definition()  # type: ignore[attr-defined]
        try:
            grouped = _group(definition.results, result_types)
            op = cls.build(  # type: ignore[attr-defined]
                operands=operands, result_types=grouped, properties=props, regions=regions
            )
        except (ValueError, VerifyException) as err:
            raise BytecodeReadError(at, f"a valid '{cls.name}' op", _first_line(err)) from None
        self.op_offsets[op] = at
        return op

    def verify(self, module: Operation) -> None:
        """Verify every op; an invalid one is reported at its offset."""
        for op in module.walk():
            try:
                op.verify(verify_nested_ops=False)
            except VerifyException as err:
                at = self.op_offsets.get(op, 0)
                raise BytecodeReadError(at, f"a valid '{op.name}' op", _first_line(err)) from None


# ------------------------------------------------------------------ helpers


def _is_default(value: Attribute | None) -> bool:
    """An all-false flag array: what a missing ``inbounds`` means."""
    return isinstance(value, DenseArrayBase) and not any(value.get_values())


def _fit(definition: object, value: Attribute) -> Attribute:
    """``value`` in the form the op's property constraint accepts."""
    constr = definition.constr
    candidates = [value]
    if isinstance(value, IntegerAttr):
        candidates.append(IntAttr(value.value.data))
    elif isinstance(value, SymbolRefAttr):
        candidates.append(StringAttr(value.root_reference.data))
    elif isinstance(value, DenseArrayBase):
        candidates.append(ArrayAttr(IntegerAttr(v, 32) for v in value.get_values()))
        candidates.append(ArrayAttr(IntAttr(v) for v in value.get_values()))
    for candidate in candidates:
        try:
            constr.verify(candidate, VerificationContext())
        except VerifyException:
            continue
        return candidate
    return value  # the op verifier reports the mismatch


def _group(
    definitions: Sequence[tuple[str, object]], types: list[Attribute]
) -> list[Attribute | list[Attribute] | None]:
    """Split a flat result-type list over the op's result definitions."""
    variable = [d for _, d in definitions if isinstance(d, VariadicDef)]
    fixed = len(definitions) - len(variable)
    if len(variable) > 1 or len(types) < fixed or (not variable and len(types) != fixed):
        raise ValueError(f"expected {fixed} results, got {len(types)}")
    extra = len(types) - fixed
    grouped: list[Attribute | list[Attribute] | None] = []
    rest = list(types)
    for _, d in definitions:
        if not isinstance(d, VariadicDef):
            grouped.append(rest.pop(0))
        elif isinstance(d, OptionalDef):
            if extra > 1:
                raise ValueError(f"expected at most {fixed + 1} results, got {len(types)}")
            grouped.append(rest.pop(0) if extra else None)
        else:
            grouped.append(rest[:extra])
            del rest[:extra]
    return grouped


def _first_line(err: Exception) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
