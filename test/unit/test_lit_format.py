"""test/lit/preloaded_tools.py runs RUN lines exactly as lit's shell does.

A small lit suite (written to a temporary folder) runs twice, once with every
tool spawned (``--param tools=spawn``, plain ``ShTest``) and once with
tile-opt and filecheck forked from the preloaded worker; lit's whole report
(``-a``: every command, its stdout, stderr and exit status, for passing and
failing tests) must be the same.  The lines cover what a fork could get wrong:
exit codes (SystemExit, ``not``, usage errors), stderr and stdout sharing one
pipe (``2>&1``: their order is the buffering's), ``2>&1 >/dev/null``, standard
input (``-`` and ``<``), files written and read back, ``--split-input-file``,
and global state (a ``--load``-ed pass must not outlive its command).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support import LIT_DIR

MODULE = """\
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    %0 = addf %a, %a : tile<f32>
    %1 = addf %a, %a : tile<f32>
    %2 = mulf %0, %1 : tile<f32>
    return
  }
}
"""

CASES = {
    # Passes: a pipe, standard input both ways, stdout and stderr through one pipe, `not`.
    "streams.mlir": """\
// RUN: tile-opt %s -p cse | filecheck %s
// RUN: tile-opt - < %s | tile-opt - -p cse | filecheck %s
// RUN: tile-opt %s --mlir-print-ir-before-all --mlir-print-ir-after-all -p cse 2>&1
// RUN: tile-opt %s --mlir-print-ir-after-all -p cse 2>&1 >/dev/null
// RUN: not tile-opt %s -p cse --canonicalize 2>&1 | filecheck %s --check-prefix=TWICE
// CHECK: addf %a, %a : tile<f32>
// CHECK-NOT: addf
// TWICE: tile-opt: error: give the passes one way
""" + MODULE,
    # Standard input, `not`, a usage error's exit status and message through `2>&1 |`.
    "stdin.mlir": """\
// RUN: not tile-opt - -p cse --canonicalize < %s 2>&1 | filecheck %s
// CHECK: tile-opt: error: give the passes one way
""" + MODULE,
    # Fails in filecheck: its report on stderr.
    "mismatch.mlir": """\
// RUN: tile-opt %s | filecheck %s
// CHECK: subf
""" + MODULE,
    # Files written and read back; a usage error (argparse's SystemExit(2)); `not not`.
    "files.mlir": """\
// RUN: tile-opt %s -t tileirbc -o %t.bc
// RUN: tile-opt %t.bc | filecheck %s
// RUN: not not tile-opt %s --no-such-flag
// CHECK: mulf
""" + MODULE,
    # --split-input-file with --verify-diagnostics that do not match: exit 1; stdout
    # (written first, flushed at exit) and stderr (line by line) through one pipe.
    "diagnostics.mlir": """\
// RUN: tile-opt %s --split-input-file --verify-diagnostics 2>&1
cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    // expected-error @+1 {{this is not the message}}
    %0 = addf %a, %a : tile<i32>
    return
  }
}
// -----
""" + MODULE,
    # A pass loaded by one command is gone for the next (test order: a_ before b_).
    "a_load.mlir": """\
// RUN: tile-opt %s --load %{inputs}/exact_reciprocal.py -p exact-reciprocal
""" + MODULE,
    "b_unloaded.mlir": """\
// RUN: tile-opt %s -p exact-reciprocal
""" + MODULE,
}

SMOKE = ["stdin.mlir", "diagnostics.mlir", "a_load.mlir", "b_unloaded.mlir"]
"""The cases `make test` compares (the rest: `make test-full`)."""

CONFIG = f"""\
import os, sys
sys.path.insert(0, {str(LIT_DIR)!r})
import preloaded_tools
config.name = "format-check"
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.environment["PATH"] = os.environ["PATH"]
config.substitutions.append(("%{{inputs}}", {str(LIT_DIR / "tools" / "inputs")!r}))
config.test_format = preloaded_tools.test_format(lit_config, config, ("tile-opt", "filecheck"))
"""


def _lit(suite: Path, mode: str) -> tuple[int, str]:
    lit = Path(sys.executable).parent / "lit"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        [str(lit), "-a", "-j1", "--order=lexical", "--param", f"tools={mode}", str(suite)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    report = re.sub(r"Testing Time: .*", "", done.stdout + done.stderr)
    return done.returncode, report


def _compare(tmp_path: Path, cases: list[str]) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "lit.cfg.py").write_text(CONFIG)
    for name in cases:
        (suite / name).write_text(CASES[name])
    spawned = _lit(suite, "spawn")
    preloaded = _lit(suite, "preloaded")
    assert preloaded == spawned
    # The suite means what it says: the cases meant to fail do, the others pass.
    for name in cases:
        failed = f"FAIL: format-check :: {name}" in spawned[1]
        assert failed == (name in ("mismatch.mlir", "files.mlir", "diagnostics.mlir", "b_unloaded.mlir")), name


def test_preloaded_tools_run_as_spawned_ones(tmp_path: Path) -> None:
    _compare(tmp_path, SMOKE)


@pytest.mark.full
def test_preloaded_tools_run_as_spawned_ones_on_every_case(tmp_path: Path) -> None:
    _compare(tmp_path, list(CASES))


def test_an_unknown_tools_mode_is_refused(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "lit.cfg.py").write_text(CONFIG)
    code, report = _lit(suite, "forked")
    assert code != 0 and "--param tools=forked: use 'preloaded' (the default) or 'spawn'" in report
