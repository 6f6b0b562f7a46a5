"""``tile-opt`` and bytecode: the ``tileirbc`` target and ``.tileirbc``/``.tilebc`` input."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from safetile.backend.bytecode import read_bytecode, write_bytecode
from safetile.dialects.cuda_tile.syntax import parse_tile_ir, print_tile_ir
from support import EXAMPLES_DIR, make_context, run_tile_opt, tile_opt_script

EXAMPLE = EXAMPLES_DIR / "tileir" / "matmul.mlir"


def test_target_writes_our_bytecode(tmp_path: Path) -> None:
    out = tmp_path / "mm.tileirbc"
    run = run_tile_opt([str(EXAMPLE), "-t", "tileirbc", "-o", str(out)])
    assert run.status == 0, run.err
    expected = write_bytecode(parse_tile_ir(make_context(), EXAMPLE.read_text()))
    assert out.read_bytes() == expected


@pytest.mark.parametrize("version", ["13.1", "13.2", "13.3", "13.4"])
def test_target_version_option(tmp_path: Path, version: str) -> None:
    out = tmp_path / "mm.tileirbc"
    spec = f"tileirbc{{version={version} arch=sm_90}}"
    run = run_tile_opt([str(EXAMPLE), "-t", spec, "-o", str(out)])
    assert run.status == 0, run.err
    data = out.read_bytes()
    assert data[8:10] == bytes(int(p) for p in version.split("."))


@pytest.mark.parametrize("suffix", ["tileirbc", "tilebc"])
def test_bytecode_input_prints_tile_ir(tmp_path: Path, suffix: str) -> None:
    data = write_bytecode(parse_tile_ir(make_context(), EXAMPLE.read_text()))
    path = tmp_path / f"mm.{suffix}"
    path.write_bytes(data)
    run = run_tile_opt([str(path)])
    assert run.status == 0, run.err
    assert run.out == print_tile_ir(read_bytecode(data))
    again = tmp_path / "again.tileirbc"
    assert run_tile_opt([str(path), "-t", "tileirbc", "-o", str(again)]).status == 0
    assert again.read_bytes() == data


def test_corrupt_bytecode_is_a_one_line_diagnostic(tmp_path: Path) -> None:
    data = bytearray(write_bytecode(parse_tile_ir(make_context(), EXAMPLE.read_text())))
    data[9] = 7  # minor version 13.7
    path = tmp_path / "bad.tileirbc"
    path.write_bytes(bytes(data))
    run = run_tile_opt([str(path)])
    assert run.status == 1
    assert re.fullmatch(
        re.escape(str(path)) + r":8: error: expected a supported bytecode version .*got 13\.7\)\n",
        run.err,
    ), run.err


def test_unwritable_ir_is_a_diagnostic(tmp_path: Path) -> None:
    src = tmp_path / "a.mlir"
    src.write_text(
        "cuda_tile.module @m {\n  entry @k(%x: tile<f32>) {\n"
        "    %0 = atan2 %x, %x : tile<f32>\n    return\n  }\n}\n"
    )
    run = run_tile_opt(
        [str(src), "-t", "tileirbc{version=13.1 arch=sm_90}", "-o", str(tmp_path / "o")]
    )
    assert run.status == 1
    assert "'cuda_tile.atan2' requires bytecode version 13.2" in run.err
    assert run.err.startswith(f"{src}:0:0: error: ")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("tileirbc{version=13.9}", "unsupported bytecode version 13.9"),
        ("tileirbc{flavour=1}", "unknown tileirbc option(s): flavour"),
    ],
)
def test_bad_target_options(tmp_path: Path, spec: str, message: str) -> None:
    run = run_tile_opt([str(EXAMPLE), "-t", spec, "-o", str(tmp_path / "o")])
    assert run.status == 2  # a usage error
    assert message in run.err


def test_bytecode_to_standard_output() -> None:
    script = tile_opt_script()
    if script is None:
        pytest.skip("the tile-opt console script is not installed")
    done = subprocess.run([script, str(EXAMPLE), "-t", "tileirbc"], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == write_bytecode(parse_tile_ir(make_context(), EXAMPLE.read_text()))
