"""The bytecode container and the per-op encoding table.

Integers, sections and tables against hand-computed bytes; the encoding table
against the dialect (every op has an encoding whose fields are the op's) and
against facts of NVIDIA's format (opcodes, presence-bit order, versions).
"""

from __future__ import annotations

import pytest
from xdsl.irdl import AttrSizedOperandSegments

from safetile.backend.bytecode.encodings import (
    BY_NAME,
    OP_ALIASES,
    OPS,
    OperandKind,
    our_field,
)
from safetile.backend.bytecode.format import (
    MAGIC,
    SUPPORTED_VERSIONS,
    V13_1,
    V13_2,
    V13_3,
    V13_4,
    BytecodeReadError,
    ByteReader,
    ByteWriter,
    Section,
    Version,
    read_table,
    write_section,
    write_table,
)
from safetile.dialects.cuda_tile.ops import ALL_OPS

# --------------------------------------------------------------------------
# Integers
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "encoded"),
    [
        (0, b"\x00"),
        (1, b"\x01"),
        (127, b"\x7f"),
        (128, b"\x80\x01"),
        (300, b"\xac\x02"),
        (2**64 - 1, b"\xff" * 9 + b"\x01"),
        (-1, b"\xff" * 9 + b"\x01"),  # negative values: their 64-bit pattern
    ],
)
def test_varint(value: int, encoded: bytes) -> None:
    w = ByteWriter()
    w.varint(value)
    assert bytes(w.data) == encoded
    assert ByteReader(encoded).varint("v") == value % 2**64


@pytest.mark.parametrize(
    ("value", "encoded"),
    [(0, b"\x00"), (-1, b"\x01"), (1, b"\x02"), (-64, b"\x7f"), (64, b"\x80\x01")],
)
def test_signed_varint_is_zigzag(value: int, encoded: bytes) -> None:
    w = ByteWriter()
    w.signed_varint(value)
    assert bytes(w.data) == encoded
    assert ByteReader(encoded).signed_varint("v") == value


def test_signed_varint_extremes() -> None:
    for value in (-(2**63), 2**63 - 1):
        w = ByteWriter()
        w.signed_varint(value)
        assert ByteReader(bytes(w.data)).signed_varint("v") == value


@pytest.mark.parametrize(
    ("data", "offset", "expected"),
    [
        (b"", 0, "unexpected end of data"),
        (b"\x80\x80", 0, "unexpected end of data"),
        (b"\xff" * 9 + b"\x02", 0, "does not fit in 64 bits"),
        (b"\xff" * 11, 0, "does not fit in 64 bits"),
    ],
)
def test_bad_varints_name_their_offset(data: bytes, offset: int, expected: str) -> None:
    with pytest.raises(BytecodeReadError) as err:
        ByteReader(data).varint("a count")
    assert err.value.offset == offset
    assert err.value.expected == "a count"
    assert expected in str(err.value)


def test_counts_are_checked_against_the_bytes_left() -> None:
    r = ByteReader(b"\x05\x01\x02")
    with pytest.raises(BytecodeReadError, match="count 5 exceeds the 2 bytes left"):
        r.count("number of things")


def test_fixed_width_lists() -> None:
    w = ByteWriter()
    w.le_list([1, -2], 4)
    assert bytes(w.data) == b"\x02\x01\x00\x00\x00\xfe\xff\xff\xff"
    assert ByteReader(bytes(w.data)).le_list(4, "values") == [1, -2]


# --------------------------------------------------------------------------
# Sections and tables
# --------------------------------------------------------------------------


def test_aligned_section_header_pads_with_0xcb() -> None:
    out = ByteWriter()
    out.raw(MAGIC + b"\x0d\x04\x00\x00")
    write_section(out, Section.TYPE, b"\x01\x02")
    # id|0x80, length, alignment 4, padding to offset 16, payload.
    assert bytes(out.data[12:]) == b"\x85\x02\x04\xcb\x01\x02"
    assert len(out) % 4 == 2


def test_unaligned_sections_have_no_alignment() -> None:
    out = ByteWriter()
    write_section(out, Section.GLOBAL, b"\x07")
    assert bytes(out.data) == b"\x06\x01\x07"


def test_tables_round_trip() -> None:
    out = ByteWriter()
    write_table(out, [b"ab", b"", b"cde"], 4)
    assert bytes(out.data) == (
        b"\x03\xcb\xcb\xcb" + b"\x00\x00\x00\x00\x02\x00\x00\x00\x02\x00\x00\x00" + b"abcde"
    )
    entries = read_table(ByteReader(bytes(out.data)), 4, "string")
    assert [bytes(e.raw(e.remaining, "s")) for e in entries] == [b"ab", b"", b"cde"]


def test_table_offsets_must_increase() -> None:
    data = b"\x02\xcb\xcb\xcb" + b"\x03\x00\x00\x00\x01\x00\x00\x00" + b"abc"
    with pytest.raises(BytecodeReadError) as err:
        read_table(ByteReader(data), 4, "type")
    assert err.value.offset == 4


# --------------------------------------------------------------------------
# Versions
# --------------------------------------------------------------------------


def test_versions() -> None:
    assert [str(v) for v in SUPPORTED_VERSIONS] == ["13.1", "13.2", "13.3", "13.4", "13.5"]
    assert Version.parse("13.3") == V13_3 and V13_1 < V13_2 < V13_3 < V13_4
    for bad in ("13.6", "13", "x.y", "12.9"):
        with pytest.raises(ValueError):
            Version.parse(bad)


# --------------------------------------------------------------------------
# The encoding table
# --------------------------------------------------------------------------

_STRUCTURAL = {"cuda_tile.module", "cuda_tile.entry", "cuda_tile.global"}
"""Encoded as the file, its function table and its global section, not as ops."""


def test_every_op_has_an_encoding() -> None:
    names = {op.name for op in ALL_OPS}
    missing = sorted(n for n in names - _STRUCTURAL if n not in BY_NAME and n not in OP_ALIASES)
    assert not missing
    assert not sorted(n for n in BY_NAME if n not in names)


@pytest.mark.parametrize("encoding", OPS, ids=lambda e: e.mnemonic)
def test_encoding_fields_are_the_ops_fields(encoding) -> None:  # type: ignore[no-untyped-def]
    cls = {op.name: op for op in ALL_OPS}[encoding.name]
    definition = cls.get_irdl_definition()
    props = set(definition.properties) - {AttrSizedOperandSegments.attribute_name}
    operands = [name for name, _ in definition.operands]
    attrs = [our_field(props, f.name) for f in encoding.attrs]
    groups = [our_field(operands, o.name) for o in encoding.operands]
    assert None not in attrs, f"{encoding.name}: unknown attributes"
    assert None not in groups, f"{encoding.name}: unknown operands"
    assert set(attrs) == props
    assert groups == operands  # same groups, same order
    segmented = any(isinstance(o, AttrSizedOperandSegments) for o in definition.options)
    assert segmented == encoding.segmented
    assert cls.SINCE == str(encoding.since)


def test_opcodes_are_nvidias() -> None:
    # BytecodeOpcodes.td (13.3) and the 13.4 tools.
    expected = {
        "addf": 0x02, "constant": 0x10, "exti": 0x25, "for": 0x29, "iota": 0x3A,
        "load_view_tko": 0x3E, "mmaf": 0x49, "fpowf": 0x54, "yield": 0x6D,
        "atan2": 0x6E, "atomic_red_view_tko": 0x75, "insert": 0x76, "fpowi": 0x79,
        "memory_fence_alias_tko": 0x7A,
    }  # fmt: skip
    assert {m: BY_NAME["cuda_tile." + m].opcode for m in expected} == expected
    assert len({op.opcode for op in OPS}) == len(OPS)


@pytest.mark.parametrize(
    ("op", "bits"),
    [
        # cuTile's encoder (13.4) writes these presence bits.
        (
            "load_ptr_tko",
            {"memory_scope": 0, "optimization_hints": 1, "mask": 2, "paddingValue": 3, "token": 4},
        ),
        ("load_view_tko", {"memory_scope": 0, "optimization_hints": 1, "token": 2}),
        ("atomic_cas_tko", {"mask": 0, "token": 1}),
        ("maxf", {"propagate_nan": 0, "flush_to_zero": 1}),
        ("print_tko", {"token": 0}),
        ("gdc_wait_tko", {}),  # optional operand without segments: a count instead
    ],
)
def test_presence_bits_follow_nvidia(op: str, bits: dict[str, int]) -> None:
    assert BY_NAME["cuda_tile." + op].flag_bits == bits


def test_presence_bits_of_later_fields_are_written_from_their_version() -> None:
    mmaf = BY_NAME["cuda_tile.mmaf"]  # fast_acc: 13.3
    assert not mmaf.has_flags(V13_2) and mmaf.has_flags(V13_3)
    addf = BY_NAME["cuda_tile.addf"]  # flush_to_zero: as old as the op
    assert addf.has_flags(V13_1)
    assert not BY_NAME["cuda_tile.iota"].has_flags(V13_4)


def test_result_count_is_encoded_for_variadic_ops() -> None:
    assert BY_NAME["cuda_tile.extract"].variadic  # variadic operand
    assert BY_NAME["cuda_tile.for"].variadic  # variadic results
    assert not BY_NAME["cuda_tile.load_ptr_tko"].variadic  # optional only
    assert all(
        o.kind is not OperandKind.VARIADIC for o in BY_NAME["cuda_tile.gdc_wait_tko"].operands
    )
