"""Version gating: what each bytecode version can express, in both directions.

Writing IR that the target version lacks (an op, a type, a field, a non-default
value) raises ``BytecodeWriteError`` naming it and the version that introduced
it; defaults that older versions imply are written silently.  Reading rejects
opcodes and types newer than the file's version.
"""

from __future__ import annotations

import pytest

from safetile.backend.bytecode import (
    BytecodeReadError,
    BytecodeWriteError,
    read_bytecode,
    write_bytecode,
)
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from support import make_context


def module(body: str, params: str = "", hints: str = "", globals_: str = "") -> str:
    return (
        f"cuda_tile.module @m {{\n{globals_}\n"
        f"  entry @k({params}){hints} {{\n{body}\n    return\n  }}\n}}\n"
    )


def write(text: str, version: str, arch: str | None = "sm_100") -> bytes:
    return write_bytecode(parse_tile_ir(make_context(), text), version, arch)


F = "%x: tile<f32>, %y: tile<f32>"
I32 = "%i: tile<i32>"
PTR = "%p: tile<ptr<f32>>"
TV64 = "tensor_view<64xf32, strides=[1]>"

# (name, module text, version that introduced the feature, what the error names)
GATED = [
    ("atan2", module("%0 = atan2 %x, %y : tile<f32>", F), "13.2", "'cuda_tile.atan2'"),
    (
        "pack",
        module(
            "%0 = constant <f32: 1.0> : tile<4xf32>\n    %1 = pack %0 : tile<4xf32> -> tile<16xi8>"
        ),
        "13.3",
        "'cuda_tile.pack'",
    ),
    (
        "alloca",
        module("%0 = alloca num_elem = 4, alignment = 16 : tile<ptr<f32>>"),
        "13.3",
        "'cuda_tile.alloca'",
    ),
    (
        "fpowi",
        module("%0 = fpowi %x, %i : tile<f32>, tile<i32>", F + ", " + I32),
        "13.4",
        "'cuda_tile.fpowi'",
    ),
    ("gdc_wait_tko", module("%0 = gdc_wait_tko -> token"), "13.4", "'cuda_tile.gdc_wait_tko'"),
    (
        "memory_fence_alias_tko",
        module("%t = make_token : token\n    %0 = memory_fence_alias_tko %t"),
        "13.4",
        "'cuda_tile.memory_fence_alias_tko'",
    ),
    ("f8E8M0FNU", module("", "%s: tile<f8E8M0FNU>"), "13.2", "element type f8E8M0FNU"),
    (
        "f4E2M1FN",
        module("%0 = constant <f4E2M1FN: 1.0> : tile<2xf4E2M1FN>"),
        "13.3",
        "element type f4E2M1FN",
    ),
    (
        "i4",
        module("%0 = constant <i8: 1> : tile<4xi8>\n    %1 = unpack %0 : tile<4xi8> -> tile<8xi4>"),
        "13.3",
        "'cuda_tile.unpack'",
    ),
    (
        "strided_view",
        module(
            f"%tv = make_tensor_view %p, shape = [64], strides = [1] : {TV64}\n"
            "    %sv = make_strided_view %tv : strided_view<tile=(16), traversal_strides=[8], "
            "tensor_view<64xf32, strides=[1]>>",
            PTR,
        ),
        "13.3",
        "'cuda_tile.make_strided_view'",
    ),
    (
        "for unsigned",
        module("for unsigned %iv in (%i to %i, step %i) : tile<i32> {\n      continue\n    }", I32),
        "13.2",
        "'cuda_tile.for': 'unsigned_cmp'",
    ),
    (
        "fast_acc",
        module(
            "%a = constant <f8E4M3FN: 1.0> : tile<16x32xf8E4M3FN>\n"
            "    %b = constant <f8E4M3FN: 1.0> : tile<32x16xf8E4M3FN>\n"
            "    %c = constant <f32: 0.0> : tile<16x16xf32>\n"
            "    %0 = mmaf %a, %b, %c fast_acc : "
            "tile<16x32xf8E4M3FN>, tile<32x16xf8E4M3FN>, tile<16x16xf32>"
        ),
        "13.3",
        "'cuda_tile.mmaf': 'fast_acc'",
    ),
    (
        "print_tko token",
        module('%t = make_token : token\n    %0 = print_tko "x" token = %t -> token'),
        "13.2",
        "'cuda_tile.print_tko': 'token'",
    ),
    (
        "print_tko result used",
        module('%t = print_tko "x" -> token\n    %u = join_tokens %t, %t : token'),
        "13.2",
        "'cuda_tile.print_tko': a use of result #0",
    ),
    (
        "exp rounding",
        module("%0 = exp %x rounding<approx> : tile<f32>", F),
        "13.3",
        "a non-default 'rounding_mode'",
    ),
    (
        "tanh rounding",
        module("%0 = tanh %x rounding<approx> : tile<f32>", F),
        "13.2",
        "a non-default 'rounding_mode'",
    ),
    (
        "negi overflow",
        module("%0 = negi %i overflow<no_signed_wrap> : tile<i32>", I32),
        "13.2",
        "a non-default 'overflow'",
    ),
    (
        "ftoi saturating",
        module("%0 = ftoi %x signed saturating : tile<f32> -> tile<i32>", F),
        "13.4",
        "'saturating'",
    ),
    (
        "inbounds",
        module(
            f"%tv = make_tensor_view %p, shape = [64], strides = [1] : {TV64}\n"
            f"    %pv = make_partition_view %tv : partition_view<tile=(16), {TV64}>\n"
            "    %v, %t = load_view_tko weak %pv[%i] inbounds = [true] : partition_view<tile=(16), "
            "tensor_view<64xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token",
            PTR + ", " + I32,
        ),
        "13.4",
        "a non-default 'inbounds'",
    ),
    (
        "nearest_away",
        module("%0 = ftof %x rounding<nearest_away> : tile<f32> -> tile<tf32>", F),
        "13.4",
        "rounding_mode nearest_away",
    ),
    (
        "private global",
        module("", globals_="  global private @g <f32: 1.0> : tile<1xf32>"),
        "13.3",
        "private global @g",
    ),
    (
        "constant global",
        module("", globals_="  global constant @g <f32: 1.0> : tile<1xf32>"),
        "13.3",
        "constant global @g",
    ),
    (
        "default hints",
        module("", hints=" optimization_hints=<default = {num_cta_in_cga = 2}>"),
        "13.3",
        "optimization_hints key 'default'",
    ),
]


def _older(version: str) -> str:
    return {"13.2": "13.1", "13.3": "13.2", "13.4": "13.3"}[version]


@pytest.mark.parametrize(
    ("text", "since", "names"), [g[1:] for g in GATED], ids=[g[0] for g in GATED]
)
def test_too_new_for_the_version(text: str, since: str, names: str) -> None:
    write(text, since)  # expressible from the version that introduced it
    older = _older(since)
    with pytest.raises(BytecodeWriteError) as err:
        write(text, older)
    message = str(err.value)
    assert names in message
    assert f"requires bytecode version {since}" in message
    assert f"the target version is {older}" in message


@pytest.mark.parametrize(
    ("text", "version"),
    [
        (module("%0 = exp %x rounding<full> : tile<f32>", F), "13.1"),  # the implied default
        (module("%0 = tanh %x : tile<f32>", F), "13.1"),
        (module("%0 = negi %i : tile<i32>", I32), "13.1"),
        (module('%t = print_tko "x" -> token'), "13.1"),  # result unused: dropped
        (module("%0 = ftoi %x signed : tile<f32> -> tile<i32>", F), "13.3"),
        (module("", globals_="  global public @g <f32: 1.0> : tile<1xf32>"), "13.1"),
    ],
)
def test_defaults_are_implied_by_older_versions(text: str, version: str) -> None:
    data = write(text, version)
    assert write_bytecode(read_bytecode(data), version) == data


def test_bytecode_before_13_3_names_an_architecture() -> None:
    text = module("", F)
    with pytest.raises(BytecodeWriteError, match="must target an architecture"):
        write(text, "13.2", arch=None)
    data = write(text, "13.1", arch="sm_90")
    hints = read_bytecode(data).body.block.first_op.optimization_hints  # type: ignore[union-attr]
    assert hints is not None and list(hints.value.data) == ["sm_90"]
    # An entry that names an architecture keeps it; arch is then not needed.
    named = module("", F, hints=" optimization_hints=<sm_120 = {num_cta_in_cga = 1}>")
    assert write(named, "13.1", arch=None) == write(named, "13.1", arch="sm_90")
    # From 13.3 on, bytecode is architecture-independent.
    assert write(text, "13.3", arch=None) == write(text, "13.3", arch="sm_90")


def test_producer_is_written_from_13_3() -> None:
    text = 'cuda_tile.module @m attributes {producer = "me"} {\n}\n'
    assert read_bytecode(write(text, "13.3")).producer.data == "me"  # type: ignore[union-attr]
    assert read_bytecode(write(text, "13.2")).producer is None


def _header(version: tuple[int, int], data: bytes) -> bytes:
    return data[:8] + bytes(version) + data[10:]


def test_reader_rejects_ops_newer_than_the_file() -> None:
    data = write(module("%0 = atan2 %x, %y : tile<f32>", F), "13.2")
    with pytest.raises(BytecodeReadError, match="an op of bytecode version 13.1.*atan2.*13.2"):
        read_bytecode(_header((13, 1), data))


def test_reader_rejects_types_newer_than_the_file() -> None:
    data = write(module("", "%s: tile<f8E8M0FNU>"), "13.2")
    with pytest.raises(BytecodeReadError, match="a type of bytecode version 13.1"):
        read_bytecode(_header((13, 1), data))


def test_reader_rejects_unknown_versions() -> None:
    data = write(module(""), "13.4")
    for version in ((13, 0), (13, 6), (14, 1), (250, 0)):
        with pytest.raises(BytecodeReadError) as err:
            read_bytecode(_header(version, data))
        assert err.value.offset == 8
