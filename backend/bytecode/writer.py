"""``cuda_tile`` IR to Tile IR bytecode.

    data = write_bytecode(module)                    # 13.4, arch-independent
    data = write_bytecode(module, "13.1", arch="sm_100")

The layout follows NVIDIA's ``BytecodeWriter.cpp`` (see ``encodings`` for the
per-op rules) down to the order in which strings, types and constants are
interned, so equal IR gives equal bytes.  Like NVIDIA's writer it encodes
what Tile IR defines: discardable attributes (``{tag = 1}`` after an op) are
not part of it and are left out, as is the module's ``producer`` before 13.3.
IR that the requested version cannot express (an op, type, field or enum
case introduced later) is refused with a ``BytecodeWriteError`` that names it
and the version that introduced it.

Locations go to the debug section (``debug``): a kernel located at a
``file:line:col`` gets a ``di_subprogram`` and its ops' places become
``di_loc``s in it, so ``tileiras --lineinfo`` has the kernel's source lines.
An ``assert`` also has its ``file:line:col: `` put in front of its message
(once), so that the device's assertion message names the kernel line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

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
    TypeAttribute,
)
from xdsl.dialects.builtin import ModuleOp as BuiltinModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import AttrSizedOperandSegments

from safetile.dialects.cuda_tile.attributes import (
    BoundedAttr,
    CudaTileEnum,
    DivByAttr,
    OptimizationHintsAttr,
    PaddingValueAttr,
    PointerKind,
    SameElementsAttr,
    SymbolVisibility,
)
from safetile.dialects.cuda_tile.debuginfo import scoped_locations, source_location
from safetile.dialects.cuda_tile.ops import structure
from safetile.dialects.cuda_tile.ops.misc import AssertOp
from safetile.dialects.cuda_tile.types import (
    DYNAMIC,
    ELEMENT_TYPE_SINCE,
    CudaTileType,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
    TokenType,
)

from . import constants
from .debug import UNKNOWN, DebugSectionWriter
from .encodings import (
    DYNAMIC_BYTECODE,
    ENUM_CASE_SINCE,
    POINTER_ATTR_SINCE,
    AttrField,
    AttrKind,
    AttrTag,
    OpEncoding,
    OperandKind,
    TypeTag,
    encoding_of,
    our_field,
    python_name,
)
from .format import (
    ARCH_INDEPENDENT,
    DEFAULT_VERSION,
    ENTRY_ATTRIBUTES,
    MAGIC,
    UNIFIED_BITFIELD,
    V13_3,
    BytecodeWriteError,
    ByteWriter,
    FunctionFlags,
    Section,
    Version,
    write_section,
    write_table,
)
from .values import ELEMENT_NAMES, element_tag, float_to_bits

SEGMENT_SIZES = AttrSizedOperandSegments.attribute_name
"""xDSL's property for operand segments; bytecode encodes the groups instead."""


def write_bytecode(
    module: Operation, version: Version | str = DEFAULT_VERSION, arch: str | None = None
) -> bytes:
    """Encode a ``cuda_tile.module`` (or a ``builtin.module`` holding one).

    Before 13.3 bytecode targets one architecture: ``arch`` (e.g. ``"sm_100"``)
    is added as an (empty) ``optimization_hints`` entry of every kernel that
    names no architecture, as NVIDIA's tools expect.
    """
    if isinstance(version, str):
        version = Version.parse(version)
    return _Writer(version, arch).module(_cuda_tile_module(module))


def _cuda_tile_module(module: Operation) -> structure.ModuleOp:
    if isinstance(module, structure.ModuleOp):
        return module
    if isinstance(module, BuiltinModuleOp):
        inner = [op for op in module.ops if isinstance(op, structure.ModuleOp)]
        if len(inner) == 1 and len(list(module.ops)) == 1:
            return inner[0]
    raise BytecodeWriteError(
        f"expected one cuda_tile.module to encode, got '{module.name}'"
        + (" holding other ops" if isinstance(module, BuiltinModuleOp) else "")
    )


def _sorted_dict(attr: DictionaryAttr) -> list[tuple[str, Attribute]]:
    """Dictionary entries in MLIR's order (``DictionaryAttr`` sorts by name)."""
    return sorted(attr.data.items())


def _field(op: Operation, nvidia_name: str) -> str | None:
    """Our name of an ``Ops.td`` field of ``op``, or None if the op lacks it."""
    definition = type(op).get_irdl_definition()  # type: ignore[attr-defined]
    fields = {*definition.properties, *(name for name, _ in definition.operands)}
    return our_field(fields, nvidia_name)


class _Writer:
    def __init__(self, version: Version, arch: str | None):
        self.version = version
        self.arch = arch
        self.strings: dict[str, int] = {}
        self.types: dict[Attribute, int] = {}
        self.type_data: list[bytes] = []
        self.constants: dict[tuple[Attribute, bytes], int] = {}
        self.constant_data: list[bytes] = []
        self.values: dict[SSAValue, int] = {}
        self.debug = DebugSectionWriter(self.string, version)
        self.kernel_locations: dict[structure.EntryOp, tuple[int, Callable[[Attribute], Attribute]]] = {}
        self.function = UNKNOWN
        self.scoped: Callable[[Attribute], Attribute] = _unscoped

    # ---------------------------------------------------------------- tables

    def string(self, text: str) -> int:
        if text not in self.strings:
            self.strings[text] = len(self.strings)
        return self.strings[text]

    def constant(self, tile: TileType, raw: bytes) -> int:
        entry = ByteWriter()
        entry.varint(len(raw))
        entry.raw(raw)
        key = (tile, bytes(entry.data))
        if key not in self.constants:
            self.constants[key] = len(self.constant_data)
            self.constant_data.append(bytes(entry.data))
        return self.constants[key]

    def type(self, t: Attribute) -> int:
        """The index of ``t`` in the type table; types it names come first."""
        if t in self.types:
            return self.types[t]
        out = ByteWriter()
        self._encode_type(t, out)
        # Encoding interned the referenced types, so they precede this one.
        self.types[t] = len(self.type_data)
        self.type_data.append(bytes(out.data))
        return self.types[t]

    def _require(self, since: Version, what: str) -> None:
        """Refuse ``what`` (introduced in ``since``) if the target is older."""
        if self.version < since:
            raise BytecodeWriteError(
                f"{what} requires bytecode version {since} (it was introduced in {since}); "
                f"the target version is {self.version}"
            )

    def _encode_type(self, t: Attribute, out: ByteWriter) -> None:
        if isinstance(t, CudaTileType):
            self._require(Version.parse(t.SINCE), f"type {t.name}")
        tag = element_tag(t)
        if tag is not None:
            name = ELEMENT_NAMES[tag]
            if name in ELEMENT_TYPE_SINCE:
                self._require(Version.parse(ELEMENT_TYPE_SINCE[name]), f"element type {name}")
            out.varint(tag)
            return
        if isinstance(t, PointerType):
            pointee = self.type(t.pointee)
            out.varint(TypeTag.POINTER)
            kind = self._pointer_kind(t, out)
            out.varint(pointee)
            if kind is not None:
                out.varint(kind.code)
        elif isinstance(t, TileType):
            elem = self.type(t.element_type)
            out.varint(TypeTag.TILE)
            out.varint(elem)
            out.le_list(t.shape, 8)
        elif isinstance(t, TokenType):
            out.varint(TypeTag.TOKEN)
        elif isinstance(t, TensorViewType):
            elem = self.type(t.element_type)
            out.varint(TypeTag.TENSOR_VIEW)
            kind = self._pointer_kind(t, out)
            out.varint(elem)
            out.le_list([DYNAMIC_BYTECODE if d == DYNAMIC else d for d in t.shape], 8)
            out.le_list([DYNAMIC_BYTECODE if s == DYNAMIC else s for s in t.strides], 8)
            if kind is not None:
                out.varint(kind.code)
        elif isinstance(t, PartitionViewType):
            view = self.type(t.tensor_view_type)
            out.varint(TypeTag.PARTITION_VIEW)
            unified = self.version >= UNIFIED_BITFIELD
            if unified:
                out.varint(int(t.padding is not None))
            out.le_list(t.tile_shape, 4)
            out.varint(view)
            out.le_list(t.dim_map, 4)
            self._padding(t.padding, out, unified)
        elif isinstance(t, StridedViewType):
            view = self.type(t.tensor_view_type)
            out.varint(TypeTag.STRIDED_VIEW)
            out.varint(int(t.padding is not None))
            out.le_list(t.tile_shape, 4)
            out.le_list(t.traversal_strides, 4)
            out.varint(view)
            out.le_list(t.dim_map, 4)
            self._padding(t.padding, out, True)
        elif isinstance(t, GatherScatterViewType):
            view = self.type(t.tensor_view_type)
            out.varint(TypeTag.GATHER_SCATTER_VIEW)
            out.varint(int(t.padding is not None))
            out.le_list(t.tile_shape, 4)
            out.varint(view)
            out.varint(t.sparse_dim)
            self._padding(t.padding, out, True)
        elif isinstance(t, FunctionType):
            inputs = [self.type(i) for i in t.inputs.data]
            outputs = [self.type(o) for o in t.outputs.data]
            out.varint(TypeTag.FUNCTION)
            out.varint(len(inputs))
            for i in inputs:
                out.varint(i)
            out.varint(len(outputs))
            for o in outputs:
                out.varint(o)
        else:
            raise BytecodeWriteError(f"type {t} has no bytecode encoding")

    def _pointer_kind(
        self, t: PointerType | TensorViewType, out: ByteWriter
    ) -> PointerKind | None:
        """Write the presence bits of ``t``'s ``ptr_attr`` (13.4+); its case, if any."""
        kind = t.kind
        if kind is not None:
            self._require(POINTER_ATTR_SINCE, f"type {t.name} with a ptr_attr")
            if kind.data in ENUM_CASE_SINCE:
                self._require(ENUM_CASE_SINCE[kind.data], f"ptr_attr {kind.data.value}")
        if self.version >= POINTER_ATTR_SINCE:
            out.varint(int(kind is not None))
        return None if kind is None else kind.data

    @staticmethod
    def _padding(padding: PaddingValueAttr | None, out: ByteWriter, unified: bool) -> None:
        # 13.3 moved presence into the type's bitfield; before, a byte preceded it.
        if not unified:
            out.byte(int(padding is not None))
        if padding is not None:
            out.varint(padding.data.code)

    # ------------------------------------------------------------ attributes

    def tagged(self, attr: Attribute, out: ByteWriter) -> None:
        """A self-contained attribute: tag, then payload."""
        if isinstance(attr, IntegerAttr):
            width = attr.type.width.data if isinstance(attr.type, IntegerType) else 64
            out.varint(AttrTag.INTEGER)
            out.varint(self.type(attr.type))
            out.varint(attr.value.data & ((1 << width) - 1))
        elif isinstance(attr, FloatAttr):
            out.varint(AttrTag.FLOAT)
            out.varint(self.type(attr.type))
            self.ap_int(float_to_bits(attr.value.data, attr.type), attr.type.bitwidth, out)
        elif isinstance(attr, StringAttr):
            out.varint(AttrTag.STRING)
            out.varint(self.string(attr.data))
        elif isinstance(attr, TypeAttribute):
            out.varint(AttrTag.TYPE)
            out.varint(self.type(attr))
        elif isinstance(attr, ArrayAttr):
            out.varint(AttrTag.ARRAY)
            self.attr_array(attr, out)
        elif isinstance(attr, DictionaryAttr):
            out.varint(AttrTag.DICTIONARY)
            self.dictionary(attr, out)
        elif isinstance(attr, OptimizationHintsAttr):
            out.varint(AttrTag.OPTIMIZATION_HINTS)
            self.dictionary(attr.value, out)
        elif isinstance(attr, DivByAttr):
            out.varint(AttrTag.DIV_BY)
            out.varint(attr.divisor)
            out.byte(int(attr.every is not None) | int(attr.along is not None) << 1)
            for v in (attr.every, attr.along):
                if v is not None:
                    out.signed_varint(v)
        elif isinstance(attr, SameElementsAttr):
            out.varint(AttrTag.SAME_ELEMENTS)
            out.le_list(attr.values, 8)
        elif isinstance(attr, BoundedAttr):
            out.varint(AttrTag.BOUNDED)
            out.byte(int(attr.lb is not None) | int(attr.ub is not None) << 1)
            for v in (attr.lb, attr.ub):
                if v is not None:
                    out.signed_varint(v)
        else:
            raise BytecodeWriteError(f"attribute {attr} has no bytecode encoding")

    @staticmethod
    def ap_int(bits: int, width: int, out: ByteWriter) -> None:
        """An integer of ``width`` bits: a byte up to 8 bits, else a zigzag varint."""
        if width <= 8:
            out.byte(bits)
        else:
            out.signed_varint(bits)

    def attr_array(self, attr: ArrayAttr, out: ByteWriter) -> None:
        out.varint(len(attr.data))
        for element in attr.data:
            self.tagged(element, out)

    def dictionary(self, attr: DictionaryAttr, out: ByteWriter) -> None:
        entries = _sorted_dict(attr)
        out.varint(len(entries))
        for key, value in entries:
            out.varint(self.string(key))
            self.tagged(value, out)

    def op_attribute(self, op: Operation, f: AttrField, value: Attribute, out: ByteWriter) -> None:
        """An attribute in an op's attribute list (not self-contained)."""
        kind = f.kind
        if kind is AttrKind.ENUM:
            case = _enum_case(value)
            if case in ENUM_CASE_SINCE:
                self._require(ENUM_CASE_SINCE[case], f"'{op.name}': {python_name(f.name)} {case}")
            out.varint(case.code)
        elif kind is AttrKind.INT:
            out.varint(_int_value(value))
        elif kind is AttrKind.BOOL:
            out.byte(int(_int_value(value) != 0))
        elif kind in (AttrKind.STRING, AttrKind.SYMBOL):
            out.varint(self.string(_device_text(op, _symbol(value))))
        elif kind is AttrKind.DENSE:
            tile = op.results[0].type
            assert isinstance(tile, TileType)
            out.varint(self.constant(tile, constants.raw_data(value, tile)))
        elif kind is AttrKind.I32_ARRAY:
            out.le_list(_int_list(value), 4)
        elif kind is AttrKind.BOOL_ARRAY:
            out.le_list([int(v != 0) for v in _int_list(value)], 1)
        elif kind is AttrKind.ATTR_ARRAY:
            assert isinstance(value, ArrayAttr)
            self.attr_array(value, out)
        elif kind is AttrKind.PREDICATE:
            self.tagged(value, out)
        elif kind is AttrKind.HINTS:
            assert isinstance(value, OptimizationHintsAttr)
            self.dictionary(value.value, out)
        else:
            raise AssertionError(kind)

    # -------------------------------------------------------------------- IR

    def module(self, module: structure.ModuleOp) -> bytes:
        entries: list[structure.EntryOp] = []
        globals_: list[Operation] = []
        for op in module.body.block.ops:
            if isinstance(op, structure.EntryOp):
                entries.append(op)
            elif op.name == "cuda_tile.global":
                globals_.append(op)
            else:
                raise BytecodeWriteError(
                    f"'{op.name}' cannot be encoded at module level: only "
                    "cuda_tile.entry and cuda_tile.global can"
                )
        # Interning order as in NVIDIA's writer: kernel names, signatures and
        # locations, then globals, then each kernel's hints and body, then
        # the debug section's strings.
        for entry in entries:
            self.string(entry.sym_name.data)
            self.type(entry.function_type)
            scoped = scoped_locations(entry, entry.sym_name.data) or _unscoped
            self.kernel_locations[entry] = (self.debug.function(scoped(entry.location)), scoped)
        global_section = self.global_section(globals_)
        func_section = self.func_section(entries)

        out = ByteWriter()
        out.raw(MAGIC)
        out.byte(self.version.major)
        out.byte(self.version.minor)
        out.le(0, 2)
        if globals_:
            write_section(out, Section.GLOBAL, global_section)
        write_section(out, Section.FUNC, func_section)
        if self.constant_data:
            payload = ByteWriter()
            write_table(payload, self.constant_data, 8)
            write_section(out, Section.CONSTANT, payload.data)
        if (debug := self.debug.payload()) is not None:
            write_section(out, Section.DEBUG, debug)
        payload = ByteWriter()
        write_table(payload, self.type_data, 4)
        write_section(out, Section.TYPE, payload.data)
        producer = module.producer
        if producer is not None and self.version >= V13_3:
            payload = ByteWriter()
            payload.varint(self.string(producer.data))
            write_section(out, Section.PRODUCER, payload.data)
        payload = ByteWriter()
        write_table(payload, [s.encode() for s in self.strings], 4)
        write_section(out, Section.STRING, payload.data)
        out.byte(Section.END)
        return bytes(out.data)

    def global_section(self, globals_: Sequence[Operation]) -> bytes:
        out = ByteWriter()
        out.varint(len(globals_))
        for op in globals_:
            name = _symbol(op.properties["sym_name"])
            visibility = op.properties.get("symbol_visibility")
            private = visibility is not None and _enum_case(visibility) != SymbolVisibility.PUBLIC
            constant = op.properties.get("constant") is not None
            if private:
                self._require(V13_3, f"private global @{name}")
            if constant:
                self._require(V13_3, f"constant global @{name}")
            value = op.properties["value"]
            tile = constants.tile_type_of(value)
            out.varint(self.string(name))
            out.varint(self.type(tile))
            out.varint(self.constant(tile, constants.raw_data(value, tile)))
            alignment = op.properties.get("alignment")
            out.varint(0 if alignment is None else _int_value(alignment))
            if self.version >= V13_3:
                out.varint(int(private))
                out.varint(int(constant))
        return bytes(out.data)

    def func_section(self, entries: Sequence[structure.EntryOp]) -> bytes:
        out = ByteWriter()
        out.varint(len(entries))
        for entry in entries:
            for attrs in (entry.arg_attrs, entry.res_attrs):
                if attrs is not None and any(d.data for d in attrs.data):
                    raise BytecodeWriteError(
                        f"argument and result attributes of entry @{entry.sym_name.data} "
                        f"cannot be encoded in bytecode version {self.version}"
                    )
            if self.version >= ENTRY_ATTRIBUTES:
                self._scalar_arguments(entry)
            hints = self.entry_hints(entry)
            always = self.version >= ENTRY_ATTRIBUTES  # and bit 2 is the form's
            flags = FunctionFlags.KERNEL
            if hints is not None and not always:
                flags |= FunctionFlags.HAS_OPTIMIZATION_HINTS
            self.function, self.scoped = self.kernel_locations[entry]
            out.varint(self.string(entry.sym_name.data))
            out.varint(self.type(entry.function_type))
            out.byte(flags)
            out.varint(self.function)
            if always:
                self.tagged(hints or OptimizationHintsAttr({}), out)
                self.tagged(ArrayAttr([]), out)  # arg_attrs, as cuTile writes it
            elif hints is not None:
                self.tagged(hints, out)
            body = ByteWriter()
            self.values = {}
            block = entry.body.block
            for arg in block.args:
                self.values[arg] = len(self.values)
            for op in block.ops:
                self.operation(op, body)
            out.varint(len(body))
            out.raw(body.data)
        out.align(8)
        return bytes(out.data)

    def _scalar_arguments(self, entry: structure.EntryOp) -> None:
        """13.5's readers refuse a kernel argument that is not a rank-0 tile
        (a ``tensor_view``), whatever the file's version: do not write one."""
        for i, t in enumerate(entry.function_type.inputs.data):
            if not (isinstance(t, TileType) and t.rank == 0):
                raise BytecodeWriteError(
                    f"entry @{entry.sym_name.data}: argument #{i} of type {t} cannot be "
                    f"encoded in bytecode version {self.version} (its readers accept only "
                    "rank-0 tile arguments)"
                )

    def entry_hints(self, entry: structure.EntryOp) -> OptimizationHintsAttr | None:
        hints = entry.optimization_hints
        if self.version >= ARCH_INDEPENDENT:
            return hints
        keys = set(hints.value.data) if hints is not None else set()
        if "default" in keys:
            self._require(V13_3, f"entry @{entry.sym_name.data}: optimization_hints key 'default'")
        if keys:
            return hints
        if self.arch is None:
            raise BytecodeWriteError(
                f"bytecode version {self.version} must target an architecture: pass "
                f"arch (e.g. 'sm_100'), or give entry @{entry.sym_name.data} "
                "optimization_hints for one (architecture-independent bytecode "
                "requires version 13.3)"
            )
        return OptimizationHintsAttr({self.arch: {}})

    def operation(self, op: Operation, out: ByteWriter) -> None:
        encoding = encoding_of(op.name)
        if encoding is None:
            raise BytecodeWriteError(f"'{op.name}' has no bytecode encoding")
        needed = getattr(op, "version_needed", lambda: (str(encoding.since), f"'{op.name}'"))
        since, what = needed()
        self._require(Version.parse(since), what)
        known = {_field(op, f.name) for f in encoding.attrs} | {SEGMENT_SIZES}
        extra = set(op.properties) - known
        if extra:
            raise BytecodeWriteError(
                f"'{op.name}': properties without a bytecode field: {', '.join(sorted(extra))}"
            )
        out.varint(encoding.opcode)
        self.debug.add(self.function, self.scoped(op.location))
        results = self.results(op, encoding, out)
        self.flags(op, encoding, out)
        for f in encoding.attrs:
            self.attribute(op, encoding, f, out)
        self.operands(op, encoding, out)
        if encoding.regions:
            out.varint(len(op.regions))
            for region in op.regions:
                self.region(region, out)
        for result in results:
            self.values[result] = len(self.values)

    def results(self, op: Operation, encoding: OpEncoding, out: ByteWriter) -> list[SSAValue]:
        """Write the result types; return the results that get value numbers."""
        encoded = encoding.result_count_at(len(op.results), self.version)
        for index, since in encoding.result_since:
            if op.results[index].uses:
                self._require(since, f"'{op.name}': a use of result #{index}")
        kept = [
            r
            for i, r in enumerate(op.results)
            if all(i != j or self.version >= v for j, v in encoding.result_since)
        ]
        assert len(kept) == encoded
        if encoding.variadic:
            out.varint(len(kept))
        for r in kept:
            out.varint(self.type(r.type))
        return kept

    def present(self, op: Operation, name: str) -> bool:
        """Whether an optional attribute or operand is set."""
        field = _field(op, name)
        if field is None:
            return False
        if field in op.properties:
            return True
        value = getattr(op, field, None)
        return isinstance(value, SSAValue)

    def flags(self, op: Operation, encoding: OpEncoding, out: ByteWriter) -> None:
        fields = {f.name: f.since for f in encoding.attrs if f.optional}
        fields |= {o.name: o.since for o in encoding.operands}
        bits = 0
        for name, bit in encoding.flag_bits.items():
            if not self.present(op, name):
                continue
            self._require(fields[name], f"'{op.name}': '{python_name(name)}'")
            bits |= 1 << bit
        if encoding.has_flags(self.version):
            out.varint(bits)

    def attribute(self, op: Operation, encoding: OpEncoding, f: AttrField, out: ByteWriter) -> None:
        if f.kind is AttrKind.UNIT:
            return  # presence is a flag bit
        field = _field(op, f.name)
        value = op.properties.get(field) if field is not None else None
        if f.optional:
            if value is not None:
                self.op_attribute(op, f, value, out)
            return
        if self.version < f.since:
            if value is not None and not _is_default(value, f):
                self._require(f.since, f"'{op.name}': a non-default '{python_name(f.name)}'")
            return
        if value is None:
            self.default_attribute(op, f, out)
            return
        self.op_attribute(op, f, value, out)

    @staticmethod
    def default_attribute(op: Operation, f: AttrField, out: ByteWriter) -> None:
        """A required field the op leaves out: its default value."""
        if f.kind is AttrKind.ENUM and isinstance(f.default, CudaTileEnum):
            out.varint(f.default.code)
        elif f.kind is AttrKind.BOOL_ARRAY and f.per_operand is not None:
            group = _field(op, f.per_operand)
            out.le_list([0] * len(getattr(op, group) if group else ()), 1)
        else:
            raise BytecodeWriteError(f"'{op.name}': attribute '{python_name(f.name)}' is missing")

    def operands(self, op: Operation, encoding: OpEncoding, out: ByteWriter) -> None:
        groups: list[tuple[OperandKind, list[SSAValue]]] = []
        for o in encoding.operands:
            field = _field(op, o.name)
            value = getattr(op, field) if field is not None else None
            if value is None:
                values: list[SSAValue] = []
            elif isinstance(value, SSAValue):
                values = [value]
            else:
                values = list(value)
            if field is None and o.kind is not OperandKind.OPTIONAL:
                raise BytecodeWriteError(f"'{op.name}': operand '{python_name(o.name)}' is missing")
            if values:
                self._require(o.since, f"'{op.name}': operand '{python_name(o.name)}'")
            groups.append((o.kind, values))
        if encoding.segmented:
            for kind, values in groups:
                if kind is OperandKind.VARIADIC:
                    out.varint(len(values))
                self.value_ids(values, out)
            return
        flat = [v for _, values in groups for v in values]
        if any(kind is not OperandKind.SINGLE for kind, _ in groups):
            out.varint(len(flat))
        self.value_ids(flat, out)

    def value_ids(self, values: Iterable[SSAValue], out: ByteWriter) -> None:
        for v in values:
            if v not in self.values:
                raise BytecodeWriteError(
                    "a value is used outside the scope that defines it (or before it)"
                )
            out.varint(self.values[v])

    def region(self, region: Region, out: ByteWriter) -> None:
        out.varint(len(region.blocks))
        for block in region.blocks:
            self.block(block, out)

    def block(self, block: Block, out: ByteWriter) -> None:
        scope = dict(self.values)
        out.varint(len(block.args))
        for arg in block.args:
            out.varint(self.type(arg.type))
            self.values[arg] = len(self.values)
        ops = list(block.ops)
        out.varint(len(ops))
        for op in ops:
            self.operation(op, out)
        self.values = scope


# ------------------------------------------------------------------ helpers


def _enum_case(attr: Attribute) -> CudaTileEnum:
    data = getattr(attr, "data", None)
    if not isinstance(data, CudaTileEnum):
        raise BytecodeWriteError(f"expected an enum attribute, got {attr}")
    return data


def _int_value(attr: Attribute) -> int:
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    if isinstance(attr, IntAttr):
        return attr.data
    raise BytecodeWriteError(f"expected an integer attribute, got {attr}")


def _int_list(attr: Attribute) -> list[int]:
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    if isinstance(attr, ArrayAttr):
        return [_int_value(v) for v in attr.data]
    raise BytecodeWriteError(f"expected an integer array attribute, got {attr}")


def _device_text(op: Operation, text: str) -> str:
    """A string field as the device gets it: an assert's message with its
    location in front (unless it is there already: read back from bytecode)."""
    loc = source_location(op.location) if isinstance(op, AssertOp) else None
    if loc is None:
        return text
    prefix = f"{loc.filename.data}:{loc.line.data}:{loc.column.data}: "
    return text if text.startswith(prefix) else prefix + text


def _unscoped(loc: Attribute) -> Attribute:
    """A location of a kernel with no source place: written as it is (unknown
    unless it is a ``di_loc``, which the verifier allows only in a located kernel)."""
    return loc


def _symbol(attr: Attribute) -> str:
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, SymbolRefAttr) and not attr.nested_references.data:
        return attr.root_reference.data
    raise BytecodeWriteError(f"expected a string or flat symbol reference, got {attr}")


def _is_default(value: Attribute, f: AttrField) -> bool:
    if f.kind is AttrKind.ENUM:
        return _enum_case(value) == f.default
    if f.kind is AttrKind.BOOL_ARRAY:
        return not any(_int_list(value))  # all false: the default
    return False
