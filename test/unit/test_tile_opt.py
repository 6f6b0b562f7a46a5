"""The ``tile-opt`` command line: help, diagnostics, output forms, passes."""

from __future__ import annotations

import inspect
import io
import re
import subprocess
import textwrap
from pathlib import Path

import pytest
from xdsl.passes import ModulePass

from safetile.backend.toolchain import PINNED_VERSION, RELEASES, VERSION_ENV
from safetile.passes import registry
from safetile.tools.tile_opt import TARGETS
from support import diagnostic_re, run_tile_opt, tile_opt_script

GOOD = """\
cuda_tile.module @m {
  entry @k(%a: tile<f32>, %b: tile<f32>) {
    %0 = addf %a, %b : tile<f32>
    %1 = addf %0, %b rounding<zero> flush_to_zero : tile<f32>
    return
  }
}
"""

GOOD_QUALIFIED = """\
cuda_tile.module @m {
  cuda_tile.entry @k(%a: !cuda_tile.tile<f32>, %b: !cuda_tile.tile<f32>) {
    %0 = cuda_tile.addf %a, %b : !cuda_tile.tile<f32>
    %1 = cuda_tile.addf %0, %b rounding<zero> flush_to_zero : !cuda_tile.tile<f32>
    cuda_tile.return
  }
}
"""

# Line 3 lacks the closing '>' of its type; the parser notices on line 4.
SYNTAX_ERROR = """\
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    %0 = addf %a, %a : tile<f32
    return
  }
}
"""

# Line 3 breaks addf's verifier: flush_to_zero needs f32.
VERIFY_ERROR = """\
cuda_tile.module @m {
  entry @k(%a: tile<f64>) {
    %0 = addf %a, %a flush_to_zero : tile<f64>
    return
  }
}
"""
# MLIR quotes types in diagnostics (NVIDIA's arith_invalid.mlir: "but got: 'f16'").
FTZ_MESSAGE = (
    "'cuda_tile.addf' op flush_to_zero modifier only supported for f32 data type, "
    "but got: 'f64'"
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def assert_no_traceback(text: str) -> None:
    assert "Traceback" not in text
    assert "internal error" not in text


# --------------------------------------------------------------------------
# --help
# --------------------------------------------------------------------------


def _help_section(help_text: str, title: str) -> dict[str, str]:
    """The ``name  description`` rows under ``title`` in the help epilog."""
    rows: dict[str, str] = {}
    lines = help_text.splitlines()
    start = lines.index(title) + 1
    for line in lines[start:]:
        if not line.strip():
            break
        if re.fullmatch(r"      [\w-]+=\S+", line):
            continue  # a pass's option, under its pass
        match = re.fullmatch(r"  (?:--)?(\S+)\s+(.*\S)", line)
        assert match, f"malformed help row: {line!r}"
        rows[match.group(1)] = match.group(2)
    return rows


PASSES = "passes (-p NAME, --NAME, or --pass-pipeline='builtin.module(NAME{OPT=V})'):"
"""The title of the passes in ``--help``."""


def test_help_lists_every_pass_with_a_description() -> None:
    run = run_tile_opt(["--help"])
    assert run.status == 0
    passes = _help_section(run.out, PASSES)
    registered = registry.all_passes()
    assert {"canonicalize", "cse", "dce", "licm"} <= set(registered)
    assert set(passes) == set(registered)
    generic = (inspect.getdoc(ModulePass) or "").strip().splitlines()[0]
    for name, description in passes.items():
        assert description == registry.describe(name, registered[name])
        # A description of this pass, not one inherited from ModulePass, and
        # a whole sentence rather than the first line of a wrapped paragraph.
        assert description != generic, f"{name}: inherited ModulePass docstring"
        assert description != "(no description)", name
        assert description.endswith("."), f"{name}: {description!r} is cut short"


def test_help_lists_targets() -> None:
    run = run_tile_opt(["--help"])
    targets = _help_section(run.out, "targets (-t):")
    assert targets == dict(TARGETS)
    assert {"tileir", "mlir"} <= set(targets)


# --------------------------------------------------------------------------
# Diagnostics
# --------------------------------------------------------------------------


def _diagnostic_lines(err: str, path: Path) -> tuple[int, int, str, str, str]:
    """Line, column, message, quoted source line and caret line of ``err``."""
    lines = err.splitlines()
    assert len(lines) >= 3, err
    match = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): error: (.+)", lines[0])
    assert match, err
    return int(match.group(1)), int(match.group(2)), match.group(3), lines[1], lines[2]


def test_syntax_error_diagnostic(tmp_path: Path) -> None:
    path = write(tmp_path, "syntax.mlir", SYNTAX_ERROR)
    run = run_tile_opt([str(path)])
    assert run.status == 1
    assert run.out == ""
    assert_no_traceback(run.err)
    line, col, message, source, caret = _diagnostic_lines(run.err, path)
    assert line in (3, 4)
    assert message
    assert source == SYNTAX_ERROR.splitlines()[line - 1]
    assert caret == " " * (col - 1) + "^"


def test_verifier_error_names_the_op_line(tmp_path: Path) -> None:
    path = write(tmp_path, "verify.mlir", VERIFY_ERROR)
    run = run_tile_opt([str(path)])
    assert run.status == 1
    assert_no_traceback(run.err)
    line, col, message, source, caret = _diagnostic_lines(run.err, path)
    assert (line, col) == (3, 5)
    assert message == FTZ_MESSAGE
    assert source == "    %0 = addf %a, %a flush_to_zero : tile<f64>"
    assert caret == "    ^"


def test_type_error_in_signature(tmp_path: Path) -> None:
    text = GOOD.replace("%a: tile<f32>", "%a: tile<3xf32>")
    path = write(tmp_path, "type.mlir", text)
    run = run_tile_opt([str(path)])
    assert run.status == 1
    assert_no_traceback(run.err)
    line, _, message, _, _ = _diagnostic_lines(run.err, path)
    assert line == 2
    assert "all dimensions must be powers of two" in message


def test_unknown_op(tmp_path: Path) -> None:
    path = write(tmp_path, "unknown.mlir", GOOD.replace("addf %a, %b", "frobnicate %a, %b"))
    run = run_tile_opt([str(path)])
    assert run.status == 1
    assert_no_traceback(run.err)
    assert diagnostic_re(path).search(run.err)


def test_missing_input_file(tmp_path: Path) -> None:
    missing = tmp_path / "does-not-exist.mlir"
    run = run_tile_opt([str(missing)])
    assert run.status == 1
    assert_no_traceback(run.err)
    assert run.err.startswith("tile-opt: error: ")
    assert str(missing) in run.err


def test_empty_input_file(tmp_path: Path) -> None:
    path = write(tmp_path, "empty.mlir", "")
    run = run_tile_opt([str(path)])
    assert run.status == 0, run.err
    assert run.err == ""


def test_comment_only_input_file(tmp_path: Path) -> None:
    path = write(tmp_path, "comment.mlir", "// nothing to see here\n")
    run = run_tile_opt([str(path)])
    assert run.status == 0, run.err
    assert run.err == ""


# --------------------------------------------------------------------------
# Output forms
# --------------------------------------------------------------------------


def test_canonical_output(tmp_path: Path) -> None:
    run = run_tile_opt([str(write(tmp_path, "good.mlir", GOOD))])
    assert (run.status, run.err) == (0, "")
    assert run.out == GOOD


def test_qualified_input_prints_canonically(tmp_path: Path) -> None:
    run = run_tile_opt([str(write(tmp_path, "q.mlir", GOOD_QUALIFIED))])
    assert (run.status, run.err) == (0, "")
    assert run.out == GOOD


def test_output_file(tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    run = run_tile_opt([str(write(tmp_path, "good.mlir", GOOD)), "-o", str(out)])
    assert (run.status, run.err, run.out) == (0, "", "")
    assert out.read_text() == GOOD


@pytest.mark.parametrize(
    ("flags", "marker"),
    [
        (["-t", "mlir"], "!cuda_tile.tile<f32>"),
        (["--print-op-generic"], '"cuda_tile.addf"'),
        (["-t", "mlir", "--print-op-generic"], '"cuda_tile.addf"'),
        (["-t", "tileir"], "tile<f32>"),
    ],
)
def test_other_forms_reparse_to_canonical(tmp_path: Path, flags: list[str], marker: str) -> None:
    src = write(tmp_path, "good.mlir", GOOD)
    first = run_tile_opt([str(src), *flags])
    assert (first.status, first.err) == (0, "")
    assert marker in first.out
    if flags != ["-t", "tileir"]:
        assert first.out != GOOD
    again = run_tile_opt([str(write(tmp_path, "form.mlir", first.out))])
    assert (again.status, again.err) == (0, "")
    assert again.out == GOOD


def test_split_input_file(tmp_path: Path) -> None:
    second = GOOD.replace("@m", "@n")
    path = write(tmp_path, "split.mlir", GOOD + "\n// -----\n\n" + second)
    run = run_tile_opt([str(path), "--split-input-file"])
    assert (run.status, run.err) == (0, "")
    assert run.out == GOOD + "// -----\n" + second


def test_split_input_file_reports_absolute_lines(tmp_path: Path) -> None:
    text = GOOD + "// -----\n" + VERIFY_ERROR
    path = write(tmp_path, "split-bad.mlir", text)
    run = run_tile_opt([str(path), "--split-input-file"])
    assert run.status == 1
    line, _, message, source, _ = _diagnostic_lines(run.err, path)
    assert message == FTZ_MESSAGE
    assert text.splitlines()[line - 1] == source == "    %0 = addf %a, %a flush_to_zero : tile<f64>"


# --------------------------------------------------------------------------
# --verify-diagnostics
# --------------------------------------------------------------------------


def _annotated(annotation: str) -> str:
    """VERIFY_ERROR with ``annotation`` on the line before the bad op."""
    lines = VERIFY_ERROR.splitlines(keepends=True)
    return "".join([*lines[:2], f"    // {annotation}\n", *lines[2:]])


@pytest.mark.parametrize(
    "annotation",
    [
        # NVIDIA's and the project's lit tests write a space before '@'.
        "expected-error @+1 {{flush_to_zero modifier only supported for f32 data type}}",
        "expected-error@+1 {{flush_to_zero modifier only supported for f32 data type}}",
        "expected-error @+1 {{" + FTZ_MESSAGE + "}}",
    ],
)
def test_verify_diagnostics_match(tmp_path: Path, annotation: str) -> None:
    path = write(tmp_path, "vd.mlir", _annotated(annotation))
    run = run_tile_opt([str(path), "--verify-diagnostics"])
    assert run.status == 0, run.err
    assert FTZ_MESSAGE in run.out


def test_verify_diagnostics_same_line(tmp_path: Path) -> None:
    text = VERIFY_ERROR.replace(
        "tile<f64>\n    return",
        "tile<f64> // expected-error {{only supported for f32}}\n    return",
    )
    path = write(tmp_path, "vd.mlir", text)
    run = run_tile_opt([str(path), "--verify-diagnostics"])
    assert run.status == 0, run.err


@pytest.mark.parametrize(
    "annotation",
    [
        "expected-error @+1 {{a message no verifier produces}}",
        "expected-error@+1 {{a message no verifier produces}}",
        # right message, wrong line
        "expected-error @+2 {{flush_to_zero modifier only supported}}",
    ],
)
def test_verify_diagnostics_mismatch(tmp_path: Path, annotation: str) -> None:
    path = write(tmp_path, "vd.mlir", _annotated(annotation))
    run = run_tile_opt([str(path), "--verify-diagnostics"])
    assert run.status == 1
    assert_no_traceback(run.err)
    assert "was not produced" in run.err


@pytest.mark.parametrize(
    "annotation",
    ["expected-error @+1 {{anything}}", "expected-error@+1 {{anything}}"],
)
def test_verify_diagnostics_expected_but_no_error(tmp_path: Path, annotation: str) -> None:
    lines = GOOD.splitlines(keepends=True)
    text = "".join([*lines[:2], f"    // {annotation}\n", *lines[2:]])
    run = run_tile_opt([str(write(tmp_path, "vd.mlir", text)), "--verify-diagnostics"])
    assert run.status == 1
    assert "was not produced" in run.err


def test_verify_diagnostics_split(tmp_path: Path) -> None:
    ok = _annotated("expected-error @+1 {{only supported for f32}}")
    bad = _annotated("expected-error @+1 {{some other message}}")
    path = write(tmp_path, "vd.mlir", ok + "// -----\n" + ok)
    assert run_tile_opt([str(path), "--split-input-file", "--verify-diagnostics"]).status == 0
    path = write(tmp_path, "vd2.mlir", ok + "// -----\n" + bad)
    run = run_tile_opt([str(path), "--split-input-file", "--verify-diagnostics"])
    assert run.status == 1
    # The unmatched annotation is named by its absolute line in the file.
    # (the annotation's own line, as MLIR reports it, or the line it targets)
    bad_line = len((ok + "// -----\n").splitlines()) + 3
    assert re.search(rf"^{re.escape(str(path))}:{bad_line}:\d+: error: expected error",
                     run.err, re.MULTILINE), run.err
    # The diagnostic it did get is reported too, as unexpected.
    assert f"{path}:{bad_line + 1}:5: error: unexpected error: {FTZ_MESSAGE}" in run.err


BAD_OP = "    %0 = addf %a, %a flush_to_zero : tile<f64>\n"


def _with_lines(*inserted: str) -> str:
    """VERIFY_ERROR with ``inserted`` lines in front of the bad op (line 3)."""
    lines = VERIFY_ERROR.splitlines(keepends=True)
    return "".join([*lines[:2], *inserted, *lines[2:]])


@pytest.mark.parametrize(
    "lines",
    [
        # @below: the next line that is not an annotation.
        ["    // expected-error@below {{only supported for f32}}\n"],
        ["    // expected-error @below {{only supported for f32}}\n"],
        # -re: literal text with {{regex}} parts.
        ["    // expected-error-re@+1 {{flush_to_zero {{[a-z ]+}} for f32}}\n"],
    ],
)
def test_verify_diagnostics_at_forms(tmp_path: Path, lines: list[str]) -> None:
    path = write(tmp_path, "vd.mlir", _with_lines(*lines))
    run = run_tile_opt([str(path), "--verify-diagnostics"])
    assert (run.status, run.err) == (0, ""), run.err


def test_verify_diagnostics_above(tmp_path: Path) -> None:
    text = VERIFY_ERROR.replace(BAD_OP, BAD_OP + "    // expected-error@above {{only supported for f32}}\n")
    run = run_tile_opt([str(write(tmp_path, "vd.mlir", text)), "--verify-diagnostics"])
    assert (run.status, run.err) == (0, ""), run.err


def test_verify_diagnostics_below_skips_blank_line_only_once(tmp_path: Path) -> None:
    """``@below`` targets the very next plain line, even a blank one: as MLIR."""
    path = write(
        tmp_path, "vd.mlir", _with_lines("    // expected-error@below {{only supported}}\n", "\n")
    )
    run = run_tile_opt([str(path), "--verify-diagnostics"])
    assert run.status == 1
    assert "unexpected error" in run.err and 'expected error "only supported"' in run.err


def test_verify_diagnostics_unannotated_error_fails(tmp_path: Path) -> None:
    path = write(tmp_path, "vd.mlir", VERIFY_ERROR)
    run = run_tile_opt([str(path), "--verify-diagnostics"])
    assert run.status == 1
    assert run.err == f"{path}:3:5: error: unexpected error: {FTZ_MESSAGE}\n"


@pytest.mark.parametrize("severity", ["warning", "note", "remark"])
def test_verify_diagnostics_other_severities_must_be_produced(
    tmp_path: Path, severity: str
) -> None:
    """tile-opt produces only errors: an expected warning, note or remark fails."""
    lines = GOOD.splitlines(keepends=True)
    text = "".join([*lines[:2], f"    // expected-{severity}@+1 {{{{anything}}}}\n", *lines[2:]])
    run = run_tile_opt([str(write(tmp_path, "vd.mlir", text)), "--verify-diagnostics"])
    assert run.status == 1
    assert f'{tmp_path / "vd.mlir"}:3:8: error: expected {severity} "anything" was not produced' in run.err


def test_verify_diagnostics_severity_must_match(tmp_path: Path) -> None:
    path = write(tmp_path, "vd.mlir", _with_lines("    // expected-warning@+1 {{only supported}}\n"))
    run = run_tile_opt([str(path), "--verify-diagnostics"])
    assert run.status == 1
    assert "unexpected error" in run.err and 'expected warning "only supported"' in run.err


def test_verify_diagnostics_bad_regex(tmp_path: Path) -> None:
    path = write(tmp_path, "vd.mlir", _with_lines("    // expected-error-re@+1 {{x {{[}} y}}\n"))
    run = run_tile_opt([str(path), "--verify-diagnostics"])
    assert run.status == 1
    assert_no_traceback(run.err)
    assert f"{path}:3:8: error: invalid regular expression" in run.err


def test_verify_diagnostics_reports_every_failing_chunk(tmp_path: Path) -> None:
    """Each chunk is checked on its own: five bad chunks, five reports."""
    path = write(tmp_path, "vd.mlir", "// -----\n".join([VERIFY_ERROR] * 5))
    run = run_tile_opt([str(path), "--split-input-file", "--verify-diagnostics"])
    assert run.status == 1
    assert run.err.count("unexpected error") == 5


def test_verify_diagnostics_located_nowhere_matches_in_its_chunk() -> None:
    """A diagnostic with no location (a pass's) meets an annotation anywhere in its chunk."""
    from safetile.dialects.cuda_tile.diagnostics import Diagnostic
    from safetile.tools.verify_diagnostics import expectations, mismatches

    expected = expectations("// expected-error {{rejected}}\nmodule\n")
    assert mismatches(expected, [Diagnostic("f", 0, 0, "pass: rejected")], "f") == []
    assert mismatches(expected, [Diagnostic("f", 2, 1, "pass: rejected")], "f") == [
        "f:2:1: error: unexpected error: pass: rejected",
        'f:1:4: error: expected error "rejected" was not produced',
    ]


# --------------------------------------------------------------------------
# Command line: stdin, exit codes, --version, MLIR's spellings
# --------------------------------------------------------------------------


def test_dash_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(VERIFY_ERROR.encode())))
    run = run_tile_opt(["-"])
    assert run.status == 1
    assert run.err.startswith(f"<stdin>:3:5: error: {FTZ_MESSAGE}\n")


def test_bytecode_on_standard_input_is_read_as_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bytecode is recognised by its magic number, not only by its file name."""
    data = tmp_path / "k.bin"
    assert run_tile_opt([str(write(tmp_path, "g.mlir", GOOD)), "-t", "tileirbc", "-o", str(data)]).status == 0
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data.read_bytes())))
    run = run_tile_opt(["-"])
    assert (run.status, run.err) == (0, "")
    assert "addf %2, %1 rounding<zero>" in run.out  # bytecode keeps no value names


@pytest.mark.parametrize(
    ("argv", "status"),
    [
        (["--no-such-flag"], 2),  # argparse
        (["-t", "tileirbc{bogus=1}"], 2),  # a target option
        (["-t", "cubin"], 2),  # a target without its arch
        (["--pass-pipeline", "func.func(cse)"], 2),
        (["-p", "cse", "--pass-pipeline", "builtin.module(cse)"], 2),
        (["--split-input-file", "-t", "tileirbc"], 2),  # one module of bytes
        (["-t", "cubin{arch=sm_90 opt=1.2.3}"], 2),  # a spec xDSL cannot lex
        ([], 0),
    ],
)
def test_usage_errors_exit_2(tmp_path: Path, argv: list[str], status: int) -> None:
    run = run_tile_opt([str(write(tmp_path, "g.mlir", GOOD)), *argv, "-o", str(tmp_path / "o")])
    assert run.status == status, run.err
    assert_no_traceback(run.err)


def test_a_tileiras_release_other_than_the_installed_one_names_its_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``SAFETILE_TILEIRAS_VERSION`` selects the release; 13.4.92 is what `make test` installs."""
    monkeypatch.setenv(VERSION_ENV, "13.5.37")
    source = str(write(tmp_path, "g.mlir", GOOD))
    run = run_tile_opt([source, "-t", "cubin{arch=sm_90}", "-o", str(tmp_path / "o")])
    assert run.status == 1, run.err
    assert "tileiras 13.5.37 was asked for" in run.err
    assert "pip install -e '.[toolchain-13-5]'" in run.err
    assert RELEASES["13.5.37"] == "toolchain-13-5" and RELEASES[PINNED_VERSION] == "toolchain"
    monkeypatch.setenv(VERSION_ENV, PINNED_VERSION)
    argv = [source, "-t", "cubin{arch=sm_90}", "-o", str(tmp_path / "o"), "--cache-dir", str(tmp_path)]
    assert run_tile_opt(argv).status == 0


def test_internal_error_exits_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object, **__: object) -> str:
        raise RuntimeError("a bug")

    monkeypatch.setattr("safetile.tools.tile_opt.print_tile_ir", broken)
    run = run_tile_opt([str(write(tmp_path, "g.mlir", GOOD))])
    assert run.status == 3
    assert "tile-opt: internal error: RuntimeError: a bug" in run.err


def test_version_is_safetiles() -> None:
    run = run_tile_opt(["--version"])
    assert run.status == 0
    assert re.fullmatch(r"tile-opt \(safetile [\w.+-]+\), built on xDSL [\w.]+\n", run.out), run.out


def test_pass_pipeline_in_mlir_syntax(tmp_path: Path) -> None:
    path = str(write(tmp_path, "good.mlir", GOOD))
    mlir = run_tile_opt([path, "--pass-pipeline", "builtin.module(cse, dce)"])
    assert (mlir.status, mlir.err) == (0, "")
    assert mlir.out == run_tile_opt([path, "-p", "cse,dce"]).out


def test_print_ir_after_all_on_stderr(tmp_path: Path) -> None:
    """MLIR's --mlir-print-ir-after-all: after every pass, the last included."""
    path = str(write(tmp_path, "good.mlir", GOOD))
    run = run_tile_opt([path, "-p", "licm,dce", "--mlir-print-ir-after-all"])
    assert run.status == 0
    assert run.err == (
        "// -----// IR Dump After licm //----- //\n" + GOOD
        + "// -----// IR Dump After dce //----- //\n" + run.out
    )


def test_generic_form_with_enum_integers(tmp_path: Path) -> None:
    """NVIDIA's generic form writes I32EnumAttr properties as case numbers."""
    view = "!cuda_tile.partition_view<tile=(16), !cuda_tile.tensor_view<64xf32, strides=[1]>>"
    text = f"""\
cuda_tile.module @m {{
  entry @k(%v: {view}, %c: tile<i32>) {{
    %x, %t = "cuda_tile.load_view_tko"(%v, %c) <{{memory_ordering_semantics = ORDER : i32, memory_scope = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 0>}}> : ({view}, !cuda_tile.tile<i32>) -> (!cuda_tile.tile<16xf32>, !cuda_tile.token)
    return
  }}
}}
"""
    run = run_tile_opt([str(write(tmp_path, "g.mlir", text.replace("ORDER", "1")))])
    assert (run.status, run.err) == (0, "")
    assert "load_view_tko relaxed device %v[%c]" in run.out
    run = run_tile_opt([str(write(tmp_path, "b.mlir", text.replace("ORDER", "7")))])
    assert run.status == 1
    assert ":3:5: error: memory_ordering_semantics = 7 is not one of: 0 (weak), 1 (relaxed)" in run.err


# --------------------------------------------------------------------------
# Passes
# --------------------------------------------------------------------------


def test_run_builtin_passes(tmp_path: Path) -> None:
    path = write(tmp_path, "good.mlir", GOOD)
    run = run_tile_opt([str(path), "-p", "licm"])
    assert (run.status, run.err) == (0, "")
    assert run.out == GOOD
    # Both addf results are unused: the pipeline removes them.
    run = run_tile_opt([str(path), "-p", "cse,dce"])
    assert (run.status, run.err) == (0, "")
    assert run.out == "".join(line for line in GOOD.splitlines(True) if "addf" not in line)


def test_unknown_pass(tmp_path: Path) -> None:
    path = write(tmp_path, "good.mlir", GOOD)
    run = run_tile_opt([str(path), "-p", "no-such-pass"])
    assert run.status == 2
    assert run.out == ""
    assert_no_traceback(run.err)
    assert run.err.startswith("tile-opt: error: ")
    assert "no-such-pass" in run.err


def test_malformed_pipeline(tmp_path: Path) -> None:
    path = write(tmp_path, "good.mlir", GOOD)
    run = run_tile_opt([str(path), "-p", "licm{a=1,b=2}"])  # options are separated by spaces
    assert run.status == 2 and run.out == ""
    assert_no_traceback(run.err)
    assert run.err.startswith("tile-opt: error: Error parsing pass pipeline specification")
    assert "expected either a space or `}` here" in run.err


def test_bad_pass_argument(tmp_path: Path) -> None:
    path = write(tmp_path, "good.mlir", GOOD)
    run = run_tile_opt([str(path), "-p", "cse{bogus=1}"])
    assert run.status == 2
    assert_no_traceback(run.err)
    assert run.err.startswith("tile-opt: error: ")


USER_PASS = '''\
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass


class MarkModules(ModulePass):
    """Marks every cuda_tile.module with a unit attribute."""

    name = "{name}"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if inner.name == "cuda_tile.module":
                inner.attributes["{attr}"] = UnitAttr()
'''


def _user_pass_source(name: str, attr: str) -> str:
    return USER_PASS.replace("{name}", name).replace("{attr}", attr)


@pytest.mark.usefixtures("isolated_registry")
def test_load_user_pass_runs(tmp_path: Path) -> None:
    pass_file = write(tmp_path, "my_passes.py", _user_pass_source("mark-modules", "marked"))
    src = write(tmp_path, "good.mlir", GOOD)
    run = run_tile_opt(["--load", str(pass_file), str(src), "-p", "mark-modules"])
    assert (run.status, run.err) == (0, "")
    assert run.out.startswith("cuda_tile.module @m attributes {marked} {\n")


@pytest.mark.usefixtures("isolated_registry")
def test_load_user_pass_in_help(tmp_path: Path) -> None:
    pass_file = write(tmp_path, "my_passes.py", _user_pass_source("mark-modules", "marked"))
    helped = run_tile_opt(["--load", str(pass_file), "--help"])
    assert helped.status == 0
    passes = _help_section(helped.out, PASSES)
    assert passes["mark-modules"] == "Marks every cuda_tile.module with a unit attribute."


@pytest.mark.usefixtures("isolated_registry")
def test_load_file_without_a_pass(tmp_path: Path) -> None:
    pass_file = write(tmp_path, "nothing.py", "X = 1\n")
    run = run_tile_opt(["--load", str(pass_file), str(write(tmp_path, "g.mlir", GOOD))])
    assert run.status == 1
    assert_no_traceback(run.err)
    assert "defines no xdsl ModulePass subclass" in run.err


@pytest.mark.usefixtures("isolated_registry")
def test_load_missing_pass_file(tmp_path: Path) -> None:
    run = run_tile_opt(["--load", str(tmp_path / "nope.py"), "--help"])
    assert run.status == 1
    assert_no_traceback(run.err)
    assert "no such pass file" in run.err


@pytest.mark.usefixtures("isolated_registry")
def test_load_pass_clashing_with_builtin(tmp_path: Path) -> None:
    pass_file = write(tmp_path, "clash.py", _user_pass_source("cse", "x"))
    run = run_tile_opt(["--load", str(pass_file), str(write(tmp_path, "g.mlir", GOOD))])
    assert run.status == 1
    assert_no_traceback(run.err)
    assert "already registered" in run.err


@pytest.mark.usefixtures("isolated_registry")
def test_entry_point_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A distribution advertising ``safetile.passes`` entry points is picked up."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "thirdparty_tile_passes.py").write_text(
        _user_pass_source("thirdparty-mark", "third_party")
    )
    dist = site / "thirdparty_tile_passes-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: thirdparty-tile-passes\nVersion: 1.0\n"
    )
    (dist / "entry_points.txt").write_text(
        f"[{registry.ENTRY_POINT_GROUP}]\n"
        "thirdparty-mark = thirdparty_tile_passes:MarkModules\n"
    )
    monkeypatch.syspath_prepend(str(site))
    assert "thirdparty-mark" in registry.all_passes()
    helped = run_tile_opt(["--help"])
    assert _help_section(helped.out, PASSES)["thirdparty-mark"] == (
        "Marks every cuda_tile.module with a unit attribute."
    )
    src = write(tmp_path, "good.mlir", GOOD)
    run = run_tile_opt([str(src), "-p", "thirdparty-mark"])
    assert (run.status, run.err) == (0, "")
    assert run.out.startswith("cuda_tile.module @m attributes {third_party} {\n")


# --------------------------------------------------------------------------
# The installed console script
# --------------------------------------------------------------------------


def test_console_script_end_to_end(tmp_path: Path) -> None:
    """One process of the installed script: a module that prints, then one that fails to verify
    (--split-input-file): the first's output on stdout, the error on stderr, exit status 1."""
    script = tile_opt_script()
    if script is None:
        pytest.skip("the tile-opt console script is not installed (pip install -e .)")
    path = write(tmp_path, "good-then-bad.mlir", GOOD_QUALIFIED + "// -----\n" + VERIFY_ERROR)
    done = subprocess.run([script, str(path), "--split-input-file"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stdout == GOOD + "// -----\n"
    assert done.stderr == textwrap.dedent(
        f"""\
        {path}:11:5: error: {FTZ_MESSAGE}
            %0 = addf %a, %a flush_to_zero : tile<f64>
            ^
        """
    )


PARTITIONED = """cuda_tile.module @m {
  entry @k(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = PARTITION} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    tile_safety.check_index %b#0, %pz[0], "own tile" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    return
  }
}
"""


@pytest.mark.parametrize(
    "partition,message",
    [
        ('"sixteen"', 'tile_safety.partition must be an array<i64: ...> of tile sizes, got "sixteen"'),
        ("array<i32: 16>", "tile_safety.partition must be an array<i64: ...> of tile sizes"),
        ("array<i64: 0>", "tile_safety.partition must hold positive tile sizes, got [0]"),
    ],
)
def test_malformed_partition_facts_are_diagnosed(tmp_path: Path, partition: str, message: str) -> None:
    path = write(tmp_path, "p.mlir", PARTITIONED.replace("PARTITION", partition))
    run = run_tile_opt([str(path), "-p", "safetile-pipeline"])
    assert run.status == 1 and run.out == ""
    assert_no_traceback(run.err)
    assert message in run.err


# --------------------------------------------------------------------------
# Locations
# --------------------------------------------------------------------------


def test_location_parses_to_the_frontends_attribute() -> None:
    """``loc("f.py":3:5)`` is xDSL's FileLineColLoc, as the frontend attaches;
    an alias defined after its use resolves to the same attribute."""
    from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr

    from support import make_context
    from safetile.dialects.cuda_tile.syntax import parse_tile_ir

    text = GOOD.replace("tile<f32>\n    %1", 'tile<f32> loc("f.py":3:5)\n    %1').replace(
        "    return\n", "    return loc(#ret)\n"
    ) + '#ret = loc("f.py":4:1)\n'
    module = parse_tile_ir(make_context(), text)
    add, _, ret = list(module.walk())[3:6]
    assert add.location == FileLineColLoc(StringAttr("f.py"), IntAttr(3), IntAttr(5))
    assert ret.location == FileLineColLoc(StringAttr("f.py"), IntAttr(4), IntAttr(1))
