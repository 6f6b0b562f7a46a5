"""Helpers shared by the unit tests: a Tile IR context, printing, parsing, tile-opt.

pytest puts this directory on ``sys.path`` (it has no ``__init__.py``), so test
modules import these with ``from support import ...``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.ir import Attribute
from xdsl.printer import Printer

from safetile.dialects.cuda_tile import CudaTile
from safetile.dialects.cuda_tile.syntax import (
    TileIRParser,
    TileIRPrinter,
    parse_tile_ir,
    print_tile_ir,
)
from safetile.tools import tile_opt

REPO_ROOT = Path(__file__).resolve().parents[2]
LIT_DIR = REPO_ROOT / "test" / "lit"
EXAMPLES_DIR = REPO_ROOT / "examples"


FULL_TIER = True
"""Whether this run selects the tests marked ``full`` (``make test-full``,
``pytest -m full``); set by conftest's ``pytest_configure`` before any test
module is imported.  ``make test`` (``-m 'not gpu and not full'``) is not."""

SMOKE_SHARE = 5
"""``make test`` runs a property test on one in this many of its full tier's examples."""


def examples(full: int) -> int:
    """A hypothesis test's example count: ``full`` in the full tier, a fifth in ``make test``."""
    return full if FULL_TIER else max(1, full // SMOKE_SHARE)


def load_example(name: str) -> ModuleType:
    """``examples/<name>.py``, imported once per test run (as ``safetile_example_<name>``):
    every test file shares its kernels, so a variant is lowered once for all of them."""
    module_name = f"safetile_example_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, EXAMPLES_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def make_context() -> Context:
    """A context with the builtin and ``cuda_tile`` dialects, as tile-opt loads."""
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(CudaTile)
    return ctx


def print_canonical(attr: Attribute) -> str:
    """``attr`` as printed inside a ``cuda_tile.module`` (prefixes elided)."""
    out = io.StringIO()
    printer = TileIRPrinter(stream=out)
    with printer.eliding_prefix():
        printer.print_attribute(attr)
    return out.getvalue()


def print_qualified(attr: Attribute) -> str:
    """``attr`` as a plain xDSL printer writes it (fully qualified)."""
    out = io.StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()


def parse_type(ctx: Context, text: str) -> Attribute:
    """Parse exactly one type (either spelling) from ``text``."""
    parser = TileIRParser(ctx, text)
    result = parser.parse_type()
    assert parser.pos == len(text), f"trailing input after type: {text[parser.pos:]!r}"
    return result


def parse_attribute(ctx: Context, text: str) -> Attribute:
    """Parse exactly one attribute from ``text``."""
    parser = TileIRParser(ctx, text)
    result = parser.parse_attribute()
    assert parser.pos == len(text), f"trailing input after attribute: {text[parser.pos:]!r}"
    return result


def roundtrip_module(ctx: Context, text: str) -> tuple[ModuleOp, str]:
    """Parse and verify ``text``; return the module and its canonical print."""
    module = parse_tile_ir(ctx, text)
    return module, print_tile_ir(module)


@dataclass(frozen=True)
class TileOptRun:
    """What one in-process ``tile-opt`` run produced."""

    status: int
    out: str
    err: str


def run_tile_opt(argv: Sequence[str]) -> TileOptRun:
    """Call ``safetile.tools.tile_opt.main(argv)`` in this process.

    ``argparse`` ends ``--help`` and usage errors with ``SystemExit``; its code
    is reported as the status, like the console script would exit.
    """
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = tile_opt.main(list(argv))
        except SystemExit as exc:
            code = exc.code
            status = code if isinstance(code, int) else (0 if code is None else 1)
    return TileOptRun(status, out.getvalue(), err.getvalue())


def tile_opt_script() -> str | None:
    """Path of the installed ``tile-opt`` console script, or None if absent."""
    candidate = Path(sys.executable).parent / "tile-opt"
    if candidate.is_file() and os.access(candidate, os.X_OK):
        return str(candidate)
    return shutil.which("tile-opt")


DIAGNOSTIC = r"^{path}:(\d+):(\d+): error: "


def diagnostic_re(path: str | Path) -> re.Pattern[str]:
    """Matches the first line of a ``file:line:col: error: `` diagnostic."""
    return re.compile(DIAGNOSTIC.format(path=re.escape(str(path))), re.MULTILINE)
