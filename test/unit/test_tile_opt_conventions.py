"""tile-opt against the habits of MLIR's ``*-opt`` tools (``mlir-opt``, NVIDIA's
``cuda-tile-opt``, both built on ``MlirOptMain``).

Each test is one row of the table in docs/tile-opt.md ("Differences from
mlir-opt"): the flag or behaviour, what mlir-opt does, and tile-opt doing the
same (or the deliberate difference the table documents).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.context import Context

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


# The CLI table ----------------------------------------------------------------
#
# One row per mlir-opt habit: the arguments (IN is the input file, OUT an
# output file), standard input, and what mlir-opt does: its exit status and
# text it prints.  docs/tile-opt.md's table has the same rows.

BAD = """\
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    %0 = addf %a, %nope : tile<f32>
    return
  }
}
"""

SPLIT = GOOD + "// -----\n" + BAD + "// -----\n" + GOOD.replace("@m", "@third")

ANNOTATED = """\
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    // expected-error@below {{operand #0 does not dominate this use}}
    %1 = negf %2 : tile<f32>
    // expected-note@+1 {{operand defined here (op in the same block)}}
    %2 = negf %a : tile<f32>
    return
  }
}
// -----
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    %1 = negf %2 : tile<f32>
    // expected-error@-1 {{operand #0 does not dominate this use}}
    %2 = negf %a : tile<f32>
    // expected-note@above {{operand defined here}}
    return
  }
}
"""

RESULTFUL_KERNEL = """\
cuda_tile.module @m {
  entry @k(%a: tile<f32>) -> tile<f32> {
    return
  }
}
"""

HINTS = """\
cuda_tile.module @m {
  entry @k() optimization_hints=<sm_100 = {num_cta_in_cga = 3}> {
    return
  }
}
"""


@dataclass(frozen=True)
class Row:
    """One convention: ``argv`` run on ``text`` (as IN, or on stdin with ``-``)."""

    argv: tuple[str, ...]
    text: str
    status: int
    out: tuple[str, ...] = ()
    """Texts standard output holds (or, for ``-o``, the output file)."""
    err: tuple[str, ...] = ()
    """Texts standard error holds."""
    stdin: bool = False


ROWS = {
    # Exit status: 0 success, 1 invalid input, 2 usage error (mlir-opt: 1 for
    # both; tile-opt's 2 is a documented difference), 3 internal error.
    "valid input exits 0": Row(("IN",), GOOD, 0, out=("addf %a, %b",)),
    "invalid IR exits 1": Row(("IN",), BAD, 1, err=("error: use of undeclared SSA value name",)),
    "unknown flag exits 2": Row(("IN", "--no-such-flag"), GOOD, 2, err=("unrecognized",)),
    "unknown pass exits 2": Row(("IN", "-p", "no-such-pass"), GOOD, 2, err=("no-such-pass",)),
    "missing file exits 1": Row(("no/such/file.mlir",), GOOD, 1, err=("no/such/file.mlir",)),
    # Verification: a parent before the ops in it (the `return` is not reached).
    "parent verified first": Row(
        ("IN",), RESULTFUL_KERNEL, 1, err=("'cuda_tile.entry' op entry op must not return values",)
    ),
    # Input and output.
    "stdin with -": Row(("-",), GOOD, 0, out=("addf %a, %b",), stdin=True),
    "stdin with no file": Row((), GOOD, 0, out=("addf %a, %b",), stdin=True),
    "-o writes the file": Row(("IN", "-o", "OUT"), GOOD, 0, out=("addf %a, %b",)),
    # One-dash long options, as LLVM's cl reads them.
    "-split-input-file": Row(("IN", "-split-input-file"), SPLIT, 1, out=("// -----",)),
    "-verify-diagnostics": Row(("IN", "-verify-diagnostics", "-split-input-file"), ANNOTATED, 0),
    "-mlir-print-op-generic": Row(("IN", "-mlir-print-op-generic"), GOOD, 0, out=('"cuda_tile.addf"',)),
    "--mlir-print-op-generic": Row(("IN", "--mlir-print-op-generic"), GOOD, 0, out=('"cuda_tile.addf"',)),
    "-allow-unregistered-dialect": Row(("IN", "-allow-unregistered-dialect"), GOOD, 0),
    "--no-implicit-module, one op": Row(("IN", "--no-implicit-module"), GOOD, 0, out=("addf %a, %b",)),
    "--no-implicit-module, two ops": Row(
        ("IN", "--no-implicit-module"),
        GOOD + GOOD.replace("@m", "@n"),
        1,
        err=("error: source must contain a single top-level operation, found: 2",),
    ),
    # Locations: an op without loc(...) is at its place in the text.
    "--mlir-print-debuginfo": Row(
        ("-", "--mlir-print-debuginfo"),
        GOOD,
        0,
        out=('addf %a, %b : tile<f32> loc("<stdin>":3:5)', '} loc("<stdin>":2:3)'),
        stdin=True,
    ),
    "--mlir-print-local-scope": Row(
        ("-", "--mlir-print-debuginfo", "--mlir-print-local-scope"),
        GOOD,
        0,
        out=('addf %a, %b : tile<f32> loc("<stdin>":3:5)',),
        stdin=True,
    ),
    # Split files: every chunk is processed and printed, separated by
    # `// -----`; the status is 1 if any chunk failed.
    "split output separators": Row(
        ("IN", "--split-input-file"),
        SPLIT,
        1,
        out=("cuda_tile.module @m", "// -----\n// -----\ncuda_tile.module @third"),
        err=("error: use of undeclared SSA value name",),
    ),
    # --verify-diagnostics: @below, @above, @+N, @-N and notes; a mismatch exits 1.
    "verify-diagnostics matches": Row(("IN", "--verify-diagnostics", "--split-input-file"), ANNOTATED, 0),
    "verify-diagnostics mismatch exits 1": Row(
        ("IN", "--verify-diagnostics", "--split-input-file"),
        ANNOTATED.replace("operand defined here (op", "operand made here (op"),
        1,
        err=("expected note \"operand made here",),
    ),
    "verify-diagnostics @unknown": Row(
        ("IN", "--verify-diagnostics"),
        "// expected-error@unknown {{nothing}}\n" + GOOD,
        1,
        err=("expected error \"nothing\" was not produced",),
    ),
    # Passes: as options, in mlir-opt's pipeline syntax (-p too), with anchors.
    "pass as an option": Row(("IN", "--cse"), GOOD, 0),
    "pass as a one-dash option": Row(("IN", "-canonicalize"), GOOD, 0),
    "--pass-pipeline with anchors": Row(
        ("IN", "--pass-pipeline=builtin.module(cuda_tile.module(cuda_tile.entry(cse)))"), GOOD, 0
    ),
    "-p takes mlir-opt's pipeline": Row(("IN", "-p", "builtin.module(cse, canonicalize)"), GOOD, 0),
    "-p takes xDSL's list": Row(("IN", "-p", "cse,canonicalize"), GOOD, 0),
    "passes given two ways exit 2": Row(("IN", "-p", "cse", "--canonicalize"), GOOD, 2),
    "bad anchor exits 2": Row(("IN", "--pass-pipeline=cuda_tile.module(cse)"), GOOD, 2),
    # Printing around passes and timing go to standard error.
    "--mlir-print-ir-after-all": Row(
        ("IN", "--mlir-print-ir-after-all", "-p", "cse"), GOOD, 0, err=("IR Dump After cse",)
    ),
    "--mlir-print-ir-before-all": Row(
        ("IN", "--mlir-print-ir-before-all", "-p", "cse"), GOOD, 0, err=("IR Dump Before cse",)
    ),
    "--print-between-passes": Row(
        ("IN", "--print-between-passes", "-p", "cse,dce"), GOOD, 0, err=("IR Dump After cse",)
    ),
    "--mlir-timing": Row(("IN", "--mlir-timing", "-p", "cse"), GOOD, 0, err=("Execution time report", "cse")),
    "--time-passes": Row(("IN", "--time-passes", "-p", "cse"), GOOD, 0, err=("Execution time report",)),
    # NVIDIA's hint flags.
    "-Wunsupported-hints warns": Row(
        ("IN", "-Wunsupported-hints"), HINTS, 0, err=("warning: expected power-of-two ≤ 16 for sm_100.num_cta_in_cga",)
    ),
    "-Werr-hints fails": Row(
        ("IN", "-Wunsupported-hints", "-Werr-hints"),
        HINTS,
        1,
        err=("error: 'cuda_tile.entry' op Optimization hints verification failed",),
    ),
    "hints unchecked by default": Row(("IN",), HINTS, 0),
    # NVIDIA's test pass, with a nested symbol specifier as a bare option value.
    "--test-debuginfo-update-symbol-name": Row(
        ("IN", "--test-debuginfo-update-symbol-name=symbol-to-rename=m::k new-name=k2"),
        GOOD,
        0,
        out=("entry @k2(",),
    ),
}


@pytest.mark.parametrize("name", list(ROWS))
def test_convention(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    row = ROWS[name]
    path = _write(tmp_path, row.text)
    out_path = str(tmp_path / "out.mlir")
    argv = [path if a == "IN" else out_path if a == "OUT" else a for a in row.argv]
    if row.stdin:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(row.text.encode())))
    run = run_tile_opt(argv)
    assert run.status == row.status, run.err
    out = Path(out_path).read_text() if "OUT" in row.argv else run.out
    for text in row.out:
        assert text in out
    for text in row.err:
        assert text in run.err


def test_help_lists_pass_options_and_tells_the_truth() -> None:
    run = run_tile_opt(["--help"])
    assert run.status == 0
    assert "exits with code 0" not in run.err + run.out
    assert "--Wunsupported-hints" in run.out and "--mlir-print-op-generic" in run.out


# st.parse_tile_ir ----------------------------------------------------------------


@pytest.mark.parametrize("make", [lambda: None, Context], ids=["None", "bare Context()"])
def test_parse_tile_ir_needs_no_prepared_context(make: Callable[[], Context | None]) -> None:
    """The facade's parser completes the context it is given (or makes one)."""
    import safetile as st

    module = st.parse_tile_ir(make(), GOOD)
    assert st.print_tile_ir(module) == GOOD


def test_internal_error_has_its_own_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in tile-opt (not in the input) exits 3, distinct from 1 and 2."""

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(tile_opt, "parse_tile_ir", broken)
    run = run_tile_opt([_write(tmp_path, GOOD)])
    assert run.status == tile_opt.EXIT_INTERNAL == 3
    assert "tile-opt: internal error: RuntimeError: boom" in run.err
