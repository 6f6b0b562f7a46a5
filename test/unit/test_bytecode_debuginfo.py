"""Locations through bytecode: the debug section, written and read.

A kernel's ops keep their ``file:line:col`` through bytecode (as ``di_loc``s in
the kernel's ``di_subprogram``), NVIDIA's ``tileirdisasm -g`` prints those
lines from our bytes, and ``tileiras --lineinfo`` puts them in the cubin's line
table.  Malformed debug sections are refused at the offending byte.
"""

from __future__ import annotations

import inspect
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr, UnknownLoc
from xdsl.ir import Attribute

import safetile as st
from bytecode_support import disassembly, skip_without_toolchain, toolchain_bin
from safetile import f32, i32
from safetile.backend.bytecode import DEFAULT_VERSION, BytecodeReadError, read_bytecode, write_bytecode
from safetile.backend.bytecode.debug import DebugSectionWriter
from safetile.backend.bytecode.format import ALIGNMENT_BYTE, ByteReader, ByteWriter, Section, write_section
from safetile.dialects.cuda_tile.debuginfo import (
    DICompileUnitAttr,
    DIFileAttr,
    DILocAttr,
    DISubprogramAttr,
    source_location,
)
from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.syntax import parse_tile_ir, print_tile_ir
from support import make_context


@st.kernel(unchecked_accesses=True)
def scaled(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], k: i32):
    t = x.partition((16,)).load((k,))
    u = t * 2.0
    z.store(u)


def _line_of(text: str) -> int:
    lines, first = inspect.getsourcelines(scaled.python)  # type: ignore[attr-defined]
    return first + next(i for i, line in enumerate(lines) if text in line)


def _module():
    return scaled.compile(dict(z=st.TensorSpec(f32, (16,), (1,), (16,)), x=st.TensorSpec(f32, (64,), (1,))))


def _places(module) -> list[tuple[str, tuple[str, int, int] | None]]:
    found = []
    for op in module.walk():
        if op.name.startswith("cuda_tile.") and op.name != "cuda_tile.module":
            loc = source_location(op.location)
            found.append((op.name, None if loc is None else (loc.filename.data, loc.line.data, loc.column.data)))
    return found


# --------------------------------------------------------------------------
# Round trip
# --------------------------------------------------------------------------


def test_every_op_keeps_its_place_through_bytecode() -> None:
    module = _module()
    data = write_bytecode(module, "13.4")
    back = read_bytecode(data)
    assert _places(back) == _places(module)
    assert {line for _, p in _places(back) if p for line in [p[1]]} >= {_line_of("t * 2.0"), _line_of("z.store")}
    assert write_bytecode(back, "13.4") == data


def test_a_kernel_gets_a_subprogram_of_its_own_name() -> None:
    back = read_bytecode(write_bytecode(_module(), "13.4"))
    (entry,) = [op for op in back.walk() if isinstance(op, EntryOp)]
    assert isinstance(entry.location, DILocAttr)
    program = entry.location.scope
    assert isinstance(program, DISubprogramAttr)
    assert program.linkage_name.data == entry.sym_name.data
    assert program.file == DIFileAttr("test_bytecode_debuginfo.py", "test/unit")
    for op in entry.walk():
        assert isinstance(op.location, DILocAttr) and op.location.scope == program, op.name


def test_text_with_scopes_prints_and_reads_back_the_same() -> None:
    module = read_bytecode(write_bytecode(_module(), "13.4"))
    text = print_tile_ir(module, debuginfo=True)
    assert text.startswith("#di_file = #cuda_tile.di_file<")
    assert re.search(r'loc\(#cuda_tile.di_loc<loc\("test/unit/test_bytecode_debuginfo.py":\d+:\d+\) in #di_subprogram>\)', text)
    again = parse_tile_ir(make_context(), text)
    assert print_tile_ir(again, debuginfo=True) == text
    assert write_bytecode(again, "13.4") == write_bytecode(module, "13.4")


def test_without_locations_there_is_no_debug_section() -> None:
    text = "cuda_tile.module @m {\n  entry @k() {\n    return\n  }\n}\n"
    data = write_bytecode(parse_tile_ir(make_context(), text), "13.4")
    assert Section.DEBUG not in _section_ids(data)
    assert Section.DEBUG in _section_ids(write_bytecode(_module(), "13.4"))
    (entry,) = [op for op in read_bytecode(data).walk() if isinstance(op, EntryOp)]
    assert isinstance(entry.location, UnknownLoc)


def test_an_unknown_op_location_stays_unknown_in_a_located_kernel() -> None:
    text = (
        'cuda_tile.module @m {\n  entry @k() {\n    %c = constant <i32: 1> : tile<i32> loc(unknown)\n'
        '    return loc("k.py":3:5)\n  } loc("k.py":1:1)\n}\n'
    )
    back = read_bytecode(write_bytecode(parse_tile_ir(make_context(), text), "13.4"))
    constant, ret = [op for op in back.walk() if op.name in ("cuda_tile.constant", "cuda_tile.return")]
    assert isinstance(constant.location, UnknownLoc)
    assert isinstance(ret.location, DILocAttr) and ret.location.source_loc == FileLineColLoc(StringAttr("k.py"), IntAttr(3), IntAttr(5))


# --------------------------------------------------------------------------
# NVIDIA's tools read our debug section
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def kernel_bytecode(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if skip_without_toolchain():
        pytest.skip("SAFETILE_SKIP_TOOLCHAIN_TESTS=1")
    path = tmp_path_factory.mktemp("debuginfo") / "scaled.tileirbc"
    path.write_bytes(write_bytecode(_module(), "13.4"))
    return path


def test_tileirdisasm_shows_the_kernels_python_lines(kernel_bytecode: Path) -> None:
    done = subprocess.run(
        [toolchain_bin("tileirdisasm"), "-g", kernel_bytecode], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert '#di_file = #cuda_tile.di_file<"test_bytecode_debuginfo.py" in "test/unit">' in text
    assert re.search(r'linkageName = "scaled\w*"', text)
    lines = {int(n) for n in re.findall(r'loc\("test/unit/test_bytecode_debuginfo.py":(\d+):\d+\)', text)}
    assert {_line_of("t * 2.0"), _line_of("z.store")} <= lines
    # and our parser reads what it printed (entries in a module, aliases after it)
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    aliases = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    parsed = parse_tile_ir(make_context(), f"cuda_tile.module @kernels {{\n{body}\n}}\n{aliases}\n")
    assert _places(parsed) == _places(read_bytecode(kernel_bytecode.read_bytes()))


def test_tileiras_lineinfo_puts_the_python_lines_in_the_cubin(kernel_bytecode: Path, cubin_cache: Path) -> None:
    """nvdisasm's listing is kept in the suite's cache by the cubin's bytes (0.5 CPU-s; tileiras 0.1)."""
    cubin = kernel_bytecode.with_suffix(".cubin")
    done = subprocess.run(
        [toolchain_bin("tileiras"), "--gpu-name=sm_90", "--lineinfo", kernel_bytecode, "-o", cubin],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    listing = disassembly("nvdisasm", "--print-line-info", cubin, cubin_cache)
    lines = {int(n) for n in re.findall(r'File "test/unit/test_bytecode_debuginfo.py", line (\d+)', listing)}
    assert _line_of("z.store") in lines or _line_of("t * 2.0") in lines, listing[:2000]


# --------------------------------------------------------------------------
# Malformed debug sections
# --------------------------------------------------------------------------


def _section_ids(data: bytes) -> list[int]:
    r = ByteReader(data, 12)  # after the magic number and version
    ids = []
    while (head := r.byte("section id")) != Section.END:
        ids.append(head & 0x7F)
        length = r.varint("length")
        if head & 0x80:
            r.varint("alignment")
            while r.data[r.pos] == ALIGNMENT_BYTE:
                r.pos += 1
        r.raw(length, "payload")
    return ids


def _place(line: int) -> FileLineColLoc:
    return FileLineColLoc(StringAttr("k"), IntAttr(line), IntAttr(1))


SIMPLE = "cuda_tile.module @m {\n  entry @k() {\n    return\n  }\n}\n"
FILE = DIFileAttr("k", "k")  # SIMPLE's one string: the debug strings below are all "k"
HERE = DILocAttr(_place(1), DISubprogramAttr(FILE, 1, "k", "k", DICompileUnitAttr(FILE), 1))


def _located(debug_payload: bytes | None) -> bytes:
    """SIMPLE's bytecode with its kernel's location index 1 and ``debug_payload``
    as its debug section (before the end marker)."""
    data = write_bytecode(parse_tile_ir(make_context(), SIMPLE), "13.4")
    flags_at = data.index(b"\x02\x00", data.index(bytes([Section.FUNC | 0x80])))
    data = data[: flags_at + 1] + b"\x01" + data[flags_at + 2 :]
    if debug_payload is None:
        return data
    out = ByteWriter()
    out.raw(data[:-1])
    write_section(out, Section.DEBUG, debug_payload)
    out.byte(Section.END)
    return bytes(out.data)


def _payload(locations: list[Attribute], string: Callable[[str], int] = lambda s: 0) -> bytes:
    writer = DebugSectionWriter(string, DEFAULT_VERSION)
    function = writer.function(locations[0])
    for loc in locations[1:]:
        writer.add(function, loc)
    payload = writer.payload()
    assert payload is not None
    return payload


def test_a_well_formed_section_reads() -> None:
    (entry,) = [op for op in read_bytecode(_located(_payload([HERE, HERE]))).walk() if isinstance(op, EntryOp)]
    assert entry.location == HERE


def test_a_kernel_location_index_needs_a_debug_section() -> None:
    with pytest.raises(BytecodeReadError, match="location index covered by the debug section"):
        read_bytecode(_located(None))


def test_every_op_needs_a_location() -> None:
    with pytest.raises(BytecodeReadError, match="a debug location for each op"):
        read_bytecode(_located(_payload([HERE])))  # the kernel's, none for its return


def test_strings_of_the_section_must_exist() -> None:
    with pytest.raises(BytecodeReadError, match="file name string index"):
        read_bytecode(_located(_payload([HERE, HERE], string=lambda s: 5)))
