"""tile-opt against the habits of MLIR's ``*-opt`` tools (``mlir-opt``, NVIDIA's
``cuda-tile-opt``, both built on ``MlirOptMain``).

Each test is one row of the table in docs/tile-opt.md ("Differences from
mlir-opt"): the flag or behaviour, what mlir-opt does, and tile-opt doing the
same (or the deliberate difference the table documents).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from safetile.tools import tile_opt
from support import run_tile_opt

GOOD = """\
cuda_tile.module @m {
  entry @k(%a: tile<f32>, %b: tile<f32>) {
    %0 = addf %a, %b : tile<f32>
    return
  }
}
"""


def _write(tmp_path: Path, text: str, name: str = "in.mlir") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# --verify-roundtrip ---------------------------------------------------------


def test_verify_roundtrip_passes_and_prints(tmp_path: Path) -> None:
    run = run_tile_opt([_write(tmp_path, GOOD), "--verify-roundtrip"])
    assert (run.status, run.err) == (0, "")
    assert run.out == GOOD


def test_verify_roundtrip_reports_an_unstable_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A printer whose generic form reads back differently is caught, with a diff."""
    real = tile_opt.print_tile_ir

    def unstable(module, generic=False, elide=True, debuginfo=False):  # type: ignore[no-untyped-def]
        text = real(module, generic=generic, elide=elide, debuginfo=debuginfo)
        return text.replace('"cuda_tile.addf"', '"cuda_tile.subf"') if generic else text

    monkeypatch.setattr(tile_opt, "print_tile_ir", unstable)
    run = run_tile_opt([_write(tmp_path, GOOD), "--verify-roundtrip"])
    assert run.status == 1
    assert "--verify-roundtrip: the generic form does not print back the same" in run.err
    assert "-    %0 = addf %a, %b : tile<f32>" in run.err
    assert "+    %0 = subf %a, %b : tile<f32>" in run.err
