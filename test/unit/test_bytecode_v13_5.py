"""Bytecode 13.5: what changed from 13.4, round trips, and 13.5.37's tools as the oracle.

The layout was established by probing ``tileirdisasm`` / ``tileiras``
13.5.37 (docs/bytecode.md, "Tile IR 13.5"); the byte-level tests below pin
it.  The oracle tests need those tools: from the ``toolchain-13-5`` extra
installed in this environment, or from a directory named by
``SAFETILE_TILEIRAS_13_5`` (the ``nvidia/cu13/bin`` of the unpacked 13.5.37
wheels, with its ``../lib/libnvvm.so.4`` and ``ptxas``); without either they
skip.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bytecode_support import Program, anonymous_text, corpus, tile_module
from safetile.backend.bytecode import (
    BytecodeReadError,
    BytecodeWriteError,
    read_bytecode,
    write_bytecode,
)
from safetile.backend.bytecode.debug import DebugTag
from safetile.backend.bytecode.encodings import BY_NAME, AttrTag, TypeTag
from safetile.backend.bytecode.format import ByteReader, FunctionFlags, Section
from safetile.dialects.cuda_tile.debuginfo import DISubprogramAttr
from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from safetile.dialects.cuda_tile.types import TensorViewType
from support import make_context

V = "13.5"
PROGRAMS = corpus()
RELEASE = "13.5.37"
TOOLS_ENV = "SAFETILE_TILEIRAS_13_5"


def parse(text: str):  # noqa: ANN201 - a builtin.module
    return parse_tile_ir(make_context(), text, "t")


def module(body: str, params: str = "%p: tile<ptr<f32>>", hints: str = "") -> str:
    return f"cuda_tile.module @m {{\n  entry @k({params}){hints} {{\n{body}\n    return\n  }}\n}}\n"


def sections(data: bytes) -> dict[int, ByteReader]:
    r = ByteReader(data, 12)
    found: dict[int, ByteReader] = {}
    while (head := r.byte("section")) != Section.END:
        length = r.varint("length")
        if head & 0x80:
            alignment = r.varint("alignment")
            r.pos += -r.pos % alignment
        found[head & 0x7F] = r.sub(length, "payload")
    return found


def entry_head(data: bytes) -> bytes:
    """The function entry's bytes from its flags to the body length (one kernel)."""
    f = sections(data)[Section.FUNC]
    f.varint("count"), f.varint("name"), f.varint("signature")
    start = f.pos
    return f.data[start : f.data.index(bytes([0x5C, 0, 0]), start) - 1]


def has_tensor_view_parameters(program: Program) -> bool:
    entries = [op for op in tile_module(program.parsed()).body.block.ops if isinstance(op, EntryOp)]
    return any(isinstance(t, TensorViewType) for e in entries for t in e.function_type.inputs.data)


# --------------------------------------------------------------------------
# The format
# --------------------------------------------------------------------------


def test_header_and_entry_layout() -> None:
    """Flags 0x02 only; then the location, tagged hints (empty for none) and an
    empty tagged ``arg_attrs`` array, whether or not the kernel has hints."""
    data = write_bytecode(parse(module("")), V)
    assert data[8:12] == bytes([13, 5, 0, 0])
    empty_hints, no_args = bytes([AttrTag.OPTIMIZATION_HINTS, 0]), bytes([AttrTag.ARRAY, 0])
    assert entry_head(data) == bytes([FunctionFlags.KERNEL, 0]) + empty_hints + no_args
    hinted = write_bytecode(parse(module("", hints=" optimization_hints=<sm_100 = {}>")), V)
    head = entry_head(hinted)
    assert head[0] == FunctionFlags.KERNEL  # bit 2 is no longer "has hints"
    assert head[2:4] == bytes([AttrTag.OPTIMIZATION_HINTS, 1]) and head.endswith(no_args)
    assert entry_head(write_bytecode(parse(module("")), "13.4")) == bytes([FunctionFlags.KERNEL, 0])


@pytest.mark.parametrize("tag", [1, 2, 0x100])
def test_reader_rejects_version_tags(tag: int) -> None:
    """Bit 0 of the tag marks preview content (13.5.37 reads it only with
    ``--preview=simt``); the tools reject the other bits.  We read neither."""
    data = bytearray(write_bytecode(parse(module("")), V))
    data[10:12] = tag.to_bytes(2, "little")
    with pytest.raises(BytecodeReadError, match="version tag 0") as err:
        read_bytecode(bytes(data))
    assert err.value.offset == 10


def _patched_entry(old: bytes, new: bytes) -> bytes:
    data = write_bytecode(parse(module("")), V)
    at = data.index(old, data.index(bytes([Section.FUNC | 0x80])))
    return data[:at] + new + data[at + len(old) :]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (bytes([2, 0, 11]), bytes([6, 0, 11]), "kernel function flags (0x02)"),  # extern impl
        (bytes([2, 0, 11]), bytes([10, 0, 11]), "kernel function flags (0x02)"),  # testing
        (bytes([11, 0, 6, 0]), bytes([10, 0, 6, 0]), "optimization hints"),
    ],
)
def test_reader_rejects_other_entries(old: bytes, new: bytes, expected: str) -> None:
    with pytest.raises(BytecodeReadError, match=re.escape(expected)):
        read_bytecode(_patched_entry(old, new))


def test_argument_attributes_as_the_tools_accept_them() -> None:
    """An empty dictionary reads like the empty array; a dictionary per
    argument only if empty (13.5's verifier allows dialect attributes only)."""
    base = read_bytecode(write_bytecode(parse(module("")), V))
    same = read_bytecode(_patched_entry(bytes([11, 0, 6, 0]), bytes([11, 0, 10, 0])))
    assert anonymous_text(same) == anonymous_text(base)
    with pytest.raises(BytecodeReadError, match="no argument attributes"):
        read_bytecode(_patched_entry(bytes([11, 0, 6, 0]), bytes([11, 0, 4, 0])))


POINTERS = """
    %a = make_tensor_view %n, shape = [8], strides = [1] : tile<ptr<f32, <none>>> -> tensor_view<8xf32, strides=[1], #cuda_tile.ptr_attr<none>>
    %b = make_tensor_view %u, shape = [8], strides = [1] : tile<ptr<f32, <unicast>>> -> tensor_view<8xf32, strides=[1], #cuda_tile.ptr_attr<unicast>>
    %c = make_tensor_view %m, shape = [8], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<8xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>"""
POINTER_PARAMS = "%n: tile<ptr<f32, <none>>>, %u: tile<ptr<f32, <unicast>>>, %m: tile<ptr<f32, <multicast>>>"


def test_pointer_kinds_are_a_presence_bit_and_a_trailing_case() -> None:
    data = write_bytecode(parse(module(POINTERS, POINTER_PARAMS)), V)
    entries = sections(data)[Section.TYPE]
    payload = entries.data[entries.pos : entries.end]
    f32 = 7  # the first type written
    for code in (0, 1, 2):  # none, unicast, multicast
        assert bytes([TypeTag.POINTER, 1, 0, code]) in payload
    assert payload[:1] == bytes([f32]) or f32 in payload
    read = read_bytecode(data)
    assert anonymous_text(read) == anonymous_text(parse(module(POINTERS, POINTER_PARAMS)))
    assert write_bytecode(read, V) == data


def test_13_4_has_only_the_none_case() -> None:
    none = "%a = make_tensor_view %n, shape = [8], strides = [1] : tile<ptr<f32, <none>>> -> tensor_view<8xf32, strides=[1], #cuda_tile.ptr_attr<none>>"
    data = write_bytecode(parse(module(none, "%n: tile<ptr<f32, <none>>>")), "13.4")
    assert anonymous_text(read_bytecode(data)) == anonymous_text(parse(module(none, "%n: tile<ptr<f32, <none>>>")))
    with pytest.raises(BytecodeWriteError, match="ptr_attr unicast requires bytecode version 13.5"):
        write_bytecode(parse(module(POINTERS, POINTER_PARAMS)), "13.4")
    with pytest.raises(BytecodeWriteError, match="type cuda_tile.ptr with a ptr_attr requires bytecode version 13.4"):
        write_bytecode(parse(module(none, "%n: tile<ptr<f32, <none>>>")), "13.3")
    multicast_13_4 = bytearray(write_bytecode(parse(module(POINTERS, POINTER_PARAMS)), V))
    multicast_13_4[9] = 4
    with pytest.raises(BytecodeReadError, match="'unicast' needs 13.5"):
        read_bytecode(bytes(multicast_13_4))


MULTIMEM = next(p for p in PROGRAMS if p.name.startswith("multimem#") and "multimem_ops" in p.text)


def test_multimem_ops_are_13_5() -> None:
    for name, opcode in [
        ("multimem_load_reduce_view_tko", 0x7B),
        ("multimem_reduce_view_tko", 0x7C),
        ("multimem_store_view_tko", 0x7D),
    ]:
        assert BY_NAME[f"cuda_tile.{name}"].opcode == opcode
    with pytest.raises(BytecodeWriteError, match="requires bytecode version 13.5"):
        write_bytecode(MULTIMEM.parsed(), "13.4")


def test_multimem_store_bytes() -> None:
    """Opcode, result count and type, presence bits (scope 0, token 1), ordering,
    [scope], inbounds, then view, tile, index count and indices, [token]."""
    text = module(
        """    %tok = make_token : token
    %tv = make_tensor_view %p, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %i = constant <i32: 0> : tile<i32>
    %c = constant <f32: 0.0> : tile<64xf32>
    %t = multimem_store_view_tko relaxed device %pv, %c[%i] token = %tok inbounds = [true] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32>, token -> token""",
        "%p: tile<ptr<f32, <multicast>>>",
    )
    data = write_bytecode(parse(text), V)
    types = sections(data)[Section.TYPE]
    token = None
    # values: %p 0, %tok 1, %tv 2, %pv 3, %i 4, %c 5; the token type's index:
    for index, entry in enumerate(_table(types)):
        if entry == bytes([TypeTag.TOKEN]):
            token = index
    assert token is not None
    store = bytes([0x7D, 1, token, 0b11, 1, 1, 1, 1, 3, 5, 1, 4, 1])
    assert store in data


def _table(r: ByteReader) -> list[bytes]:
    from safetile.backend.bytecode.format import read_table

    return [e.data[e.pos : e.end] for e in read_table(ByteReader(r.data, r.pos, r.end), 4, "t")]


ATOMIC_RED = module(
    """    %tv = make_tensor_view %p, shape = [128], strides = [1] : tensor_view<128xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1]>>
    %i = constant <i32: 0> : tile<i32>
    %c = constant <f32: 0.0> : tile<64xf32>
    %t = atomic_red_view_tko relaxed device %pv[%i], addf, %c INBOUNDS: tile<64xf32>, partition_view<tile=(64), tensor_view<128xf32, strides=[1]>>, tile<i32> -> token"""
)


def test_atomic_red_view_inbounds_is_13_5() -> None:
    plain, flagged = ATOMIC_RED.replace("INBOUNDS", ""), ATOMIC_RED.replace("INBOUNDS", "inbounds = [true] ")
    assert bytes([0x75, 1]) in write_bytecode(parse(plain), "13.4")
    with pytest.raises(BytecodeWriteError, match="a non-default 'inbounds' requires bytecode version 13.5"):
        write_bytecode(parse(flagged), "13.4")
    for text in (plain, flagged):
        data = write_bytecode(parse(text), V)
        assert anonymous_text(read_bytecode(data)) == anonymous_text(parse(text))


LOCATED = """cuda_tile.module @m {
  entry @k() {
    return loc(#l1)
  } loc(#l0)
}
#f = #cuda_tile.di_file<"k.py" in "src">
#cu = #cuda_tile.di_compile_unit<file = #f>
#sp = #cuda_tile.di_subprogram<file = #f, line = 2, name = "k", linkageName = "k", compileUnit = #cu, scopeLine = 2FLAGS>
#l0 = #cuda_tile.di_loc<loc("k.py":2:1) in #sp>
#l1 = #cuda_tile.di_loc<loc("k.py":3:5) in #sp>
"""


def test_subprogram_flags() -> None:
    """13.5 ends a di_subprogram with a flags varint; bit 0 is ``declaration``."""
    plain, declared = LOCATED.replace("FLAGS", ""), LOCATED.replace("FLAGS", ", flags = declaration")
    for text, flags in ((plain, 0), (declared, 1)):
        data = write_bytecode(parse(text), V)
        subprogram = _subprogram(data)
        assert subprogram[0] == DebugTag.SUBPROGRAM and subprogram[-1] == flags
        read = read_bytecode(data)
        assert write_bytecode(read, V) == data
        found = [a for a in _attributes(read) if isinstance(a, DISubprogramAttr)]
        assert {a.declaration for a in found} == {bool(flags)}
    assert _subprogram(write_bytecode(parse(plain), "13.4"))[-1] == 2  # scopeLine, no flags
    with pytest.raises(BytecodeWriteError, match="di_subprogram flags"):
        write_bytecode(parse(declared), "13.4")
    bad = bytearray(write_bytecode(parse(plain), V))
    at = bytes(bad).index(_subprogram(bytes(bad)))
    bad[at + len(_subprogram(bytes(bad))) - 1] = 2
    with pytest.raises(BytecodeReadError, match="di_subprogram flags 0 or 1"):
        read_bytecode(bytes(bad))


def _subprogram(data: bytes) -> bytes:
    from safetile.backend.bytecode.debug import DebugSection

    debug = DebugSection(sections(data)[Section.DEBUG], [], read_version(data))
    entries = [e.data[e.pos : e.end] for e in debug.entries]
    return next(e for e in entries if e[0] == DebugTag.SUBPROGRAM)


def read_version(data: bytes):  # noqa: ANN201
    from safetile.backend.bytecode import bytecode_version

    return bytecode_version(data)


def _attributes(module):  # noqa: ANN001, ANN202
    from safetile.dialects.cuda_tile.debuginfo import DILocAttr

    for op in module.walk():
        loc = op.location
        if isinstance(loc, DILocAttr):
            yield loc.scope


def test_tensor_view_parameters_are_refused() -> None:
    """13.5.37 reads only rank-0 tile kernel arguments (13.4 files too)."""
    text = module("", "%v: tensor_view<8xf32, strides=[1]>")
    write_bytecode(parse(text), "13.4")
    with pytest.raises(BytecodeWriteError, match="argument #0 .* cannot be encoded in bytecode version 13.5"):
        write_bytecode(parse(text), V)


# --------------------------------------------------------------------------
# The corpus
# --------------------------------------------------------------------------


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_round_trip_13_5(program: Program) -> None:
    module_ = program.parsed()
    if has_tensor_view_parameters(program):
        with pytest.raises(BytecodeWriteError, match="rank-0 tile arguments"):
            write_bytecode(module_, V)
        return
    data = write_bytecode(module_, V)
    read = read_bytecode(data)
    assert anonymous_text(read) == anonymous_text(module_)
    assert write_bytecode(read, V) == data


# --------------------------------------------------------------------------
# 13.5.37's tools
# --------------------------------------------------------------------------


def tools_13_5() -> Path | None:
    """The directory of 13.5.37's ``tileiras`` and ``tileirdisasm``, if any."""
    if named := os.environ.get(TOOLS_ENV):
        return Path(named)
    try:
        if importlib.metadata.version("nvidia-cuda-tileiras") != RELEASE:
            return None
    except importlib.metadata.PackageNotFoundError:
        return None
    spec = importlib.util.find_spec("nvidia")
    for base in spec.submodule_search_locations or [] if spec else []:
        if (Path(base) / "cu13" / "bin" / "tileiras").is_file():
            return Path(base) / "cu13" / "bin"
    return None


@pytest.fixture(scope="module")
def tools() -> Path:
    found = tools_13_5()
    if found is None:
        pytest.skip(f"no tileiras {RELEASE}: pip install -e '.[toolchain-13-5]' or set {TOOLS_ENV}")
    version = subprocess.run(
        [found / "tileiras", "--version"], capture_output=True, text=True, check=True
    ).stdout
    assert f"V{RELEASE}" in version, version
    return found


def _oracle(tools: Path, program: Program, workdir: Path) -> tuple[str, int, str, int, str]:
    path = workdir / f"{program.name.replace('/', '_').replace('#', '_').replace('@', '_')}.tileirbc"
    path.write_bytes(write_bytecode(program.parsed(), V))
    dis = subprocess.run([tools / "tileirdisasm", path], capture_output=True, text=True, timeout=120)
    ras = subprocess.run(
        [tools / "tileiras", "--gpu-name", program.arch, "--opt-level=0", path, "-o", path.with_suffix(".cubin")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return program.name, dis.returncode, dis.stdout + dis.stderr, ras.returncode, ras.stderr


def test_tools_read_and_compile_our_13_5_bytecode(tools: Path, tmp_path: Path) -> None:
    """Every corpus module 13.5 can express: tileirdisasm prints the IR we wrote,
    tileiras compiles it for its architecture (the multimem ops: sm_100)."""
    programs = [p for p in PROGRAMS if not has_tensor_view_parameters(p)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        outcomes = list(pool.map(lambda p: _oracle(tools, p, tmp_path), programs))
    failures = []
    for program, (name, dis_rc, text, ras_rc, errors) in zip(programs, outcomes, strict=True):
        if dis_rc != 0:
            failures.append(f"{name}: tileirdisasm exit {dis_rc}: {text[:300]}")
            continue
        wrapped = "cuda_tile.module @kernels {\n" + text + "}\n"
        if anonymous_text(parse_tile_ir(make_context(), wrapped, name)) != anonymous_text(program.parsed()):
            failures.append(f"{name}: tileirdisasm printed other IR")
        if ras_rc != 0:
            failures.append(f"{name}: tileiras --gpu-name {program.arch} exit {ras_rc}: {errors[:300]}")
    assert not failures, "\n".join(failures)
    assert len(programs) >= 40 and any(p.since == V for p in programs)  # 13.5's ops too


@pytest.mark.parametrize("kind", ["none", "unicast", "multicast"])
def test_unicast_and_multicast_need_sm_100(tools: Path, tmp_path: Path, kind: str) -> None:
    """tileiras compiles a unicast or multicast pointer for sm_100 only (of these)."""
    text = module(
        f"    %a = make_tensor_view %n, shape = [8], strides = [1] : tile<ptr<f32, <{kind}>>> -> "
        f"tensor_view<8xf32, strides=[1], #cuda_tile.ptr_attr<{kind}>>",
        f"%n: tile<ptr<f32, <{kind}>>>",
    )
    path = tmp_path / "kind.tileirbc"
    path.write_bytes(write_bytecode(parse(text), V))
    for arch in ("sm_90", "sm_100", "sm_120"):
        done = subprocess.run(
            [tools / "tileiras", "--gpu-name", arch, "--opt-level=0", path, "-o", tmp_path / "k.cubin"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if kind == "none" or arch == "sm_100":
            assert done.returncode == 0, done.stderr
        else:
            assert done.returncode == 5
            assert f"{kind} pointers require sm_100 or sm_103 or sm_107" in done.stderr
