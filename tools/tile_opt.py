"""``tile-opt``: parse, verify, transform and print Tile IR.

    tile-opt kernel.mlir                       # verify, print canonical Tile IR
    tile-opt kernel.mlir -p cse,canonicalize   # run passes
    tile-opt kernel.mlir -t mlir               # fully qualified MLIR syntax
    tile-opt kernel.mlir --print-op-generic    # xDSL's generic form
    tile-opt bad.mlir --split-input-file --verify-diagnostics
    tile-opt kernel.mlir -t tileirbc -o k.tileirbc   # bytecode for tileiras (13.4)
    tile-opt kernel.mlir -t 'tileirbc{version=13.1 arch=sm_100}' -o k.tileirbc
    tile-opt k.tileirbc                        # read bytecode, print Tile IR
    tile-opt kernels.py                        # the declared kernel specializations of a Python file
    tile-opt kernel.mlir -t 'cubin{arch=sm_90}' -o k.cubin   # tileiras, cached
    tile-opt kernel.mlir -t 'cubin{arch=sm_90 opt=3 lineinfo=true version=13.4}' \
        --cache-dir DIR -o k.cubin                 # build into a cache folder

Errors in the input are reported as ``file:line:col: error: message`` with
the offending line (``file:offset: error: message`` for bytecode input,
``.tileirbc`` or ``.tilebc``), and exit status 1.  With
``--verify-diagnostics`` each chunk's diagnostic is printed to standard
output instead and the status is 0, unless the chunk carries
``// expected-error {{text}}`` annotations (also ``expected-error@+N`` /
``@-N``) that the diagnostic does not match.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from collections.abc import Mapping, Sequence
from typing import IO

from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from safetile.backend import bytecode
from safetile.backend.cache import CACHE_ENV, compile_cubin
from safetile.backend.tileiras import TileirasError
from safetile.backend.toolchain import ToolchainError
from safetile.dialects.cuda_tile import CudaTile
from safetile.dialects.tile_safety import TileSafety
from safetile.frontend.pyfile import compile_file
from safetile.dialects.cuda_tile.diagnostics import Diagnostic, TileIRError
from safetile.dialects.cuda_tile.syntax import parse_tile_ir, print_tile_ir
from safetile.passes.registry import (
    PassRegistryError,
    all_passes,
    describe,
    load_pass_file,
)

TARGETS = {
    "tileir": "canonical Tile IR text, as NVIDIA's tools write it (default)",
    "mlir": "MLIR syntax with fully qualified names (!cuda_tile.tile<...>)",
    "tileirbc": "Tile IR bytecode, for tileiras: tileirbc{version=13.4 arch=sm_XX}"
    " (arch only before 13.3)",
    "cubin": "a cubin through tileiras, no GPU needed, cached (--cache-dir): "
    "cubin{arch=sm_XX opt=3 lineinfo=true version=13.4}",
}

_EXPECTED = re.compile(r"//\s*expected-error\s*(?:@\s*([+-]\d+))?\s*\{\{(.*?)\}\}")


@dataclasses.dataclass(frozen=True)
class ExpectedError:
    line: int
    text: str


def expected_errors(chunk: str, line_offset: int) -> list[ExpectedError]:
    """The ``expected-error`` annotations of a chunk, with absolute lines."""
    found = []
    for index, line in enumerate(chunk.splitlines()):
        for match in _EXPECTED.finditer(line):
            target = index + 1 + line_offset + int(match.group(1) or 0)
            found.append(ExpectedError(target, match.group(2)))
    return found


class TileOptMain(xDSLOptMain):
    """xDSL's optimizer driver, specialised to Tile IR."""

    def register_all_dialects(self) -> None:
        self.ctx.load_dialect(Builtin)
        self.ctx.load_dialect(CudaTile)
        self.ctx.load_dialect(TileSafety)

    def register_all_passes(self) -> None:
        for name, factory in all_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        # Output is written by ``emit``; the names are what --target accepts.
        for name in TARGETS:
            self.available_targets[name] = lambda m, o: None

    def register_all_frontends(self) -> None:
        # Parsing is done by ``run`` with the Tile IR parser; these names are
        # the file extensions (and --frontend values) it accepts.
        for ext in ("mlir", "tileir", "py", *bytecode.FILE_EXTENSIONS):
            self.available_frontends[ext] = lambda io: ModuleOp([])

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        # Any file that is not of a known kind is read as Tile IR text.
        stream, ext = super().get_input_stream()
        return stream, ext if ext in self.available_frontends else "tileir"

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.set_defaults(target="tileir")
        arg_parser.add_argument(
            "--load",
            action="append",
            default=[],
            metavar="FILE",
            help="load the ModulePass subclasses defined in a Python file",
        )
        arg_parser.add_argument(
            "--cache-dir",
            metavar="DIR",
            help=f"cubin cache folder for -t cubin (default: ${CACHE_ENV}, else "
            "$XDG_CACHE_HOME/safetile or ~/.cache/safetile)",
        )
        arg_parser.prog = "tile-opt"
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        width = max(map(len, (*self.available_passes, *TARGETS))) + 2
        passes = "\n".join(
            f"  {name.ljust(width)}{describe(name, factory)}"
            for name, factory in sorted(self.available_passes.items())
        )
        targets = "\n".join(f"  {n.ljust(width)}{d}" for n, d in TARGETS.items())
        arg_parser.epilog = f"passes (-p):\n{passes}\n\ntargets (-t):\n{targets}"

    def emit(self, module: ModuleOp, out: IO[str]) -> None:
        generic = self.args.print_op_generic
        spec = parse_spec(self.args.target)
        if spec.name == "tileirbc":
            self.emit_bytecode(module, spec.parameters, out)
        elif spec.name == "cubin":
            self.emit_cubin(module, spec.parameters, out)
        else:
            elide = spec.name != "mlir"
            out.write(print_tile_ir(module, generic=generic, elide=elide))

    def emit_bytecode(
        self, module: ModuleOp, params: Mapping[str, tuple[object, ...]], out: IO[str]
    ) -> None:
        """``-t tileirbc{version=V arch=A}``: write bytecode to ``out``'s byte stream."""
        unknown = params.keys() - {"version", "arch"}
        if unknown:
            raise ValueError(f"unknown tileirbc option(s): {', '.join(sorted(unknown))}")
        version = str(params.get("version", (bytecode.DEFAULT_VERSION,))[0])
        arch = params.get("arch", (None,))[0]
        try:
            data = bytecode.write_bytecode(module, version, None if arch is None else str(arch))
        except bytecode.BytecodeWriteError as err:
            raise TileIRError(Diagnostic(self.get_input_name(), 0, 0, str(err))) from None
        _write_bytes(out, data, "bytecode")

    def emit_cubin(
        self, module: ModuleOp, params: Mapping[str, tuple[object, ...]], out: IO[str]
    ) -> None:
        """``-t cubin{arch=A opt=N lineinfo=B version=V}``: compile through the cache."""
        unknown = params.keys() - {"arch", "opt", "lineinfo", "version"}
        if unknown:
            raise ValueError(f"unknown cubin option(s): {', '.join(sorted(unknown))}")
        if "arch" not in params:
            raise ValueError("cubin needs a GPU architecture, e.g. -t 'cubin{arch=sm_90}'")
        opt = params.get("opt", (3,))[0]
        lineinfo = params.get("lineinfo", (True,))[0]
        if not isinstance(opt, int) or not isinstance(lineinfo, bool):
            raise ValueError("cubin options: opt is 0-3 and lineinfo is true or false")
        version = str(params.get("version", (bytecode.DEFAULT_VERSION,))[0])
        try:
            entry = compile_cubin(
                module,
                str(params["arch"][0]),
                opt,
                lineinfo=lineinfo,
                version=version,
                cache_dir=self.args.cache_dir,
            )
        except bytecode.BytecodeWriteError as err:
            raise TileIRError(Diagnostic(self.get_input_name(), 0, 0, str(err))) from None
        except TileirasError as err:
            loc = err.location
            where = (loc.file, loc.line, loc.column) if loc else (self.get_input_name(), 0, 0)
            raise TileIRError(Diagnostic(*where, err.summary)) from None
        _write_bytes(out, entry.cubin, "a cubin")

    def python_kernels(self, path: str) -> ModuleOp:
        """The kernels of a Python file (``frontend.pyfile``); their compile
        errors are printed, and a failure is reported once the rest is out."""
        module, errors = compile_file(path)
        for err in errors:
            print(err, file=sys.stderr)
        if errors:
            self.apply_passes(module)
            self.emit(module, sys.stdout)
            raise TileIRError(Diagnostic(path, 0, 0, f"{len(errors)} kernel(s) failed to compile"))
        return module

    def process_chunk(self, text: str | bytes, line_offset: int, out: IO[str]) -> None:
        """Parse, verify, transform and print one chunk; raise TileIRError.

        ``bytes`` are bytecode; ``str`` is Tile IR text.
        """
        name = self.get_input_name()
        if name.endswith(".py"):
            module = self.python_kernels(name)
        elif isinstance(text, bytes):
            try:
                module = ModuleOp([bytecode.read_bytecode(text)])
            except bytecode.BytecodeReadError as err:
                raise TileIRError(bytecode.diagnostic(name, err)) from None
        else:
            try:
                module = parse_tile_ir(self.ctx, text, name)
            except TileIRError as err:
                d = err.diagnostic
                raise TileIRError(dataclasses.replace(d, line=d.line + line_offset)) from None
        try:
            self.apply_passes(module)
        except TileIRError:
            raise
        except DiagnosticException as err:
            message = str(err).strip().splitlines()[0]
            raise TileIRError(Diagnostic(name, 0, 0, message)) from None
        self.emit(module, out)

    def run(self) -> int:  # type: ignore[override]
        """Process every chunk; return the exit status."""
        chunks, ext = self.prepare_input()
        out = self.prepare_output()
        status = 0
        try:
            for i, (chunk, offset) in enumerate(chunks):
                raw = chunk.read()
                chunk.close()
                text: str | bytes = raw
                if ext not in bytecode.FILE_EXTENSIONS and isinstance(raw, bytes):
                    text = raw.decode("utf-8", "replace")
                if i > 0:
                    out.write("// -----\n")
                status = max(status, self.run_chunk(text, offset, out))
                if status and not self.args.verify_diagnostics:
                    break
        finally:
            if out is not sys.stdout:
                out.close()
        return status

    def run_chunk(self, text: str | bytes, offset: int, out: IO[str]) -> int:
        expected = (
            expected_errors(text, offset)
            if self.args.verify_diagnostics and isinstance(text, str)
            else []
        )
        try:
            self.process_chunk(text, offset, out)
        except TileIRError as err:
            d = err.diagnostic
            if not self.args.verify_diagnostics:
                print(d, file=sys.stderr)
                return 1
            print(d, file=out)
            for exp in expected:
                if exp.text not in d.message or (d.line and exp.line != d.line):
                    print(
                        f"{d.file}:{exp.line}: error: expected error "
                        f'"{exp.text}" was not produced; got line {d.line}: '
                        f"{d.message}",
                        file=sys.stderr,
                    )
                    return 1
            return 0
        for exp in expected:
            print(
                f"{self.get_input_name()}:{exp.line}: error: expected error "
                f'"{exp.text}" was not produced',
                file=sys.stderr,
            )
            return 1
        return 0


def _write_bytes(out: IO[str], data: bytes, what: str) -> None:
    """Write ``data`` to the byte stream under ``out`` (a file from -o, or standard output)."""
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        raise ValueError(f"{what} needs a binary output: use -o FILE or a pipe")
    out.flush()
    buffer.write(data)
    buffer.flush()


def _preload(argv: Sequence[str]) -> None:
    """Register passes from ``--load FILE`` before the pass list is parsed."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--load", action="append", default=[])
    known, _ = pre.parse_known_args(argv)
    for path in known.load:
        load_pass_file(path)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        _preload(argv)
        return TileOptMain(description="Tile IR optimizer", args=argv).run()
    except (PassRegistryError, ToolchainError, OSError, ValueError) as err:
        print(f"tile-opt: error: {err}", file=sys.stderr)
        return 1
    except ArgSpecParseError as err:  # a malformed -p pipeline (xDSL derives it from BaseException)
        print(f"tile-opt: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # a bug in tile-opt, not in the input
        print(
            f"tile-opt: internal error: {type(err).__name__}: {err}\n"
            "This is a bug in safetile; please report it with the input file.",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    sys.exit(main())
