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
``.tileirbc`` or ``.tilebc``, or any input that starts with bytecode's magic).
``-`` (or no file) reads standard input.

Exit status: 0 success; 1 an error in the input (a diagnostic, a missing
input file, a tool that failed on it); 2 a usage error (bad flags, an unknown
pass, a malformed pipeline or target option); 3 an internal error (a bug in
safetile).  ``--verify-diagnostics`` checks the ``expected-*`` annotations
with MLIR's rules (``verify_diagnostics``) and exits 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import gc
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from importlib.metadata import version
from typing import IO

from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from safetile.backend import bytecode
from safetile.backend.bytecode.format import MAGIC
from safetile.backend.cache import CACHE_ENV, compile_cubin
from safetile.backend.tileiras import SUPPORTED_ARCHS, TileirasError
from safetile.backend.toolchain import ToolchainError
from safetile.frontend.errors import CompileError, import_error
from safetile.dialects.cuda_tile.diagnostics import Diagnostic, TileIRError
from safetile.dialects.cuda_tile.diagnostics import verify
from safetile.dialects.cuda_tile.hints import HintChecks
from safetile.dialects.cuda_tile.ops.testing import TestingFuncOp
from safetile.dialects.cuda_tile.syntax import parse_tile_ir, print_tile_ir, tile_ir_context
from safetile.passes.registry import (
    PassRegistryError,
    all_passes,
    describe,
    load_pass_file,
)
from safetile.tools.opt_flags import (
    PipelineError,
    is_pipeline,
    normalize,
    pass_options,
    pipeline_passes,
)
from safetile.tools.verify_diagnostics import AnnotationError, expectations, mismatches

TARGETS = {
    "tileir": "canonical Tile IR text, as NVIDIA's tools write it (default)",
    "mlir": "MLIR syntax with fully qualified names (!cuda_tile.tile<...>)",
    "tileirbc": "Tile IR bytecode, for tileiras: tileirbc{version=13.4 arch=sm_XX}"
    " (arch only before 13.3)",
    "cubin": "a cubin through tileiras, no GPU needed, cached (--cache-dir): "
    "cubin{arch=sm_XX opt=3 lineinfo=true version=13.4}",
}

BINARY_TARGETS = ("tileirbc", "cubin")
"""Targets that write one module's bytes (not per ``--split-input-file`` chunk)."""


EXIT_INPUT = 1
"""The input is wrong: a diagnostic, a missing file, a tool that failed on it."""
EXIT_USAGE = 2
"""The command line is wrong (argparse also exits 2)."""
EXIT_INTERNAL = 3
"""A bug in safetile."""


class UsageError(Exception):
    """The command line asks for something tile-opt cannot do (exit status 2)."""


class TileOptMain(xDSLOptMain):
    """xDSL's optimizer driver, specialised to Tile IR."""

    version_format = (
        f"tile-opt (safetile {version('safetile')}), built on xDSL {{xdsl_version}}"
    )

    def register_all_dialects(self) -> None:
        tile_ir_context(self.ctx)  # builtin, cuda_tile; tile_safety loaded on first use
        # NVIDIA's test-only function, as cuda-tile-opt built with tests has it.
        self.ctx.load_op(TestingFuncOp)

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
        if self.args.input_file == "-":
            return sys.stdin.buffer, "tileir"
        stream, ext = super().get_input_stream()
        return stream, ext if ext in self.available_frontends else "tileir"

    def get_input_name(self) -> str:
        name = self.args.input_file
        return "<stdin>" if name in (None, "-") else name

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
            "--pass-pipeline",
            metavar="PIPELINE",
            help="MLIR's pass pipeline syntax: 'builtin.module(cse,canonicalize)' "
            "(the same as -p cse,canonicalize)",
        )
        arg_parser.add_argument(
            "--mlir-print-ir-after-all",
            "--print-ir-after-all",
            dest="print_ir_after_all",
            action="store_true",
            help="print the IR to standard error after every pass, the last one included",
        )
        arg_parser.add_argument(
            "--mlir-print-ir-before-all",
            dest="print_ir_before_all",
            action="store_true",
            help="print the IR to standard error before every pass",
        )
        arg_parser.add_argument(
            "--mlir-print-debuginfo",
            dest="print_debuginfo",
            action="store_true",
            help="print each op's location, loc(...) (the same as --print-debuginfo)",
        )
        arg_parser.add_argument(
            "--mlir-print-local-scope",
            action="store_true",
            help="print locations inline, not as #loc aliases (tile-opt always prints them so)",
        )
        arg_parser.add_argument(
            "--mlir-print-op-generic",
            dest="print_op_generic",
            action="store_true",
            help="the same as --print-op-generic",
        )
        arg_parser.add_argument(
            "--mlir-timing",
            dest="time_passes",
            action="store_true",
            help="the same as --time-passes: each pass's time on standard error",
        )
        arg_parser.add_argument(
            "--Wunsupported-hints",
            dest="warn_hints",
            action="store_true",
            help="warn about optimization hints tileiras does not know or takes no such "
            "value for (NVIDIA's -Wunsupported-hints)",
        )
        arg_parser.add_argument(
            "--Werr-hints",
            dest="error_hints",
            action="store_true",
            help="with -Wunsupported-hints, fail an op whose hints have a warning",
        )
        arg_parser.add_argument(
            "--verify-roundtrip",
            action="store_true",
            help="after the passes, check that the module prints, re-parses and prints "
            "the same in the canonical, fully qualified (-t mlir) and generic forms; "
            "exit 1 with a diff if not",
        )
        arg_parser.add_argument(
            "--unsafe-report",
            action="store_true",
            help="after the passes, print on standard error where the output leaves safety to its "
            "author: unsafe operations, unchecked_accesses, and what a --trust'ed pass left unproved",
        )
        arg_parser.add_argument(
            "--trust",
            action="append",
            default=[],
            metavar="PASS",
            help="run PASS even where the re-proof of a kernel's safety fails after it; what it "
            "breaks is listed by --unsafe-report (the kernel is then an unsafe island)",
        )
        arg_parser.add_argument(
            "--cache-dir",
            metavar="DIR",
            help=f"cubin cache folder for -t cubin (default: ${CACHE_ENV}, else "
            "$XDG_CACHE_HOME/safetile or ~/.cache/safetile)",
        )
        _fix_help(arg_parser)
        self._read_mlir_style(arg_parser)
        arg_parser.prog = "tile-opt"
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        format_help = arg_parser.format_help

        def with_passes() -> str:
            # Built only for --help: describing a pass imports its module.
            arg_parser.epilog = self.help_epilog()
            return format_help()

        arg_parser.format_help = with_passes  # type: ignore[method-assign]

    def help_epilog(self) -> str:
        """The passes (as mlir-opt lists them: ``--name``, then each option) and targets."""
        width = max(map(len, (*self.available_passes, *TARGETS))) + 4
        lines = ["passes (-p NAME, --NAME, or --pass-pipeline='builtin.module(NAME{OPT=V})'):"]
        for name, factory in sorted(self.available_passes.items()):
            lines.append(f"  --{name.ljust(width - 2)}{describe(name, factory)}")
            for option, kind in pass_options(factory()):
                lines.append(f"      {option}={kind}")
        lines += ["", "targets (-t):"]
        lines += [f"  {n.ljust(width)}{d}" for n, d in TARGETS.items()]
        return "\n".join(lines)

    def _read_mlir_style(self, arg_parser: argparse.ArgumentParser) -> None:
        """Let ``arg_parser`` read mlir-opt's habits (``opt_flags.normalize``):
        one-dash long options, and passes as options (kept in ``pass_flags``)."""
        parse_args = arg_parser.parse_args
        long_options = {
            flag.lstrip("-") for flag in arg_parser._option_string_actions if flag.startswith("--")  # pyright: ignore[reportPrivateUsage]
        }

        def parse(args: Sequence[str] | None = None, namespace: object = None) -> argparse.Namespace:
            argv, self.pass_flags = normalize(
                list(sys.argv[1:] if args is None else args), long_options, self.available_passes
            )
            return parse_args(argv, namespace)  # pyright: ignore[reportArgumentType]

        arg_parser.parse_args = parse  # type: ignore[method-assign]

    def setup_pipeline(self) -> None:
        """The pass pipeline of ``-p``, ``--pass-pipeline`` or passes given as
        options (``--cse``); a bad one is a usage error.

        ``-p`` takes xDSL's list (``cse,canonicalize``) or, as mlir-opt's ``-p``,
        an anchored pipeline.  After each pass the module is verified (a pass
        that breaks the IR is reported at the op it broke) and, with
        ``--mlir-print-ir-after-all``, printed to standard error.
        """
        sources = [
            (flag, value)
            for flag, value in (
                ("-p", self.args.passes),
                ("--pass-pipeline", self.args.pass_pipeline),
                ("pass options", ",".join(self.pass_flags)),
            )
            if value
        ]
        if len(sources) > 1:
            raise UsageError(
                f"give the passes one way: {' and '.join(f for f, _ in sources)} both given"
            )
        spec = sources[0][1] if sources else ""
        if sources and (sources[0][0] == "--pass-pipeline" or is_pipeline(spec)):
            try:
                spec = pipeline_passes(spec)
            except PipelineError as err:
                raise UsageError(str(err)) from None
        self.pass_times: list[tuple[str, float]] = []
        self._pass_start = 0.0
        if self.args.split_input_file and parse_spec(self.args.target).name in BINARY_TARGETS:
            raise UsageError(
                f"-t {parse_spec(self.args.target).name} writes one module: "
                "leave out --split-input-file, or split the file first"
            )
        try:
            self.pipeline = PassPipeline.parse_spec(self.available_passes, spec, self.after_pass)
        except (ValueError, ArgSpecParseError) as err:
            raise UsageError(str(err)) from None

    def after_pass(
        self, done: ModulePass | None, module: ModuleOp, following: ModulePass | None
    ) -> None:
        if done is not None:
            self.pass_times.append((done.name, time.perf_counter() - self._pass_start))
            try:
                verify(module, {}, self.get_input_name())
            except TileIRError as err:  # name the pass that broke it, as a note (MLIR's form)
                d = err.diagnostic
                note = Diagnostic(d.file, d.line, d.column, f"in the IR after pass '{done.name}'", severity="note")
                raise TileIRError(dataclasses.replace(d, notes=(*d.notes, note))) from None
            self.guard_pass(done, module)
            if self.args.print_ir_after_all or (
                self.args.print_between_passes and following is not None
            ):
                print(f"// -----// IR Dump After {done.name} //----- //", file=sys.stderr)
                sys.stderr.write(self.print_text(module))
        if following is not None and self.args.print_ir_before_all:
            print(f"// -----// IR Dump Before {following.name} //----- //", file=sys.stderr)
            sys.stderr.write(self.print_text(module))
        self._pass_start = time.perf_counter()

    def apply_passes(self, prog: ModuleOp) -> None:
        """Run the pipeline, every pass under the guard of the input's safety facts."""
        if self.pipeline.passes or self.args.unsafe_report:
            # Imported here: the many tile-opt runs that only parse and print need none of it.
            from safetile.passes.analyses.pass_guard import PassGuard

            self.guard = PassGuard.of(prog)
        super().apply_passes(prog)

    def guard_pass(self, done: ModulePass, module: ModuleOp) -> None:
        """Hold the module after ``done`` against the input's safety facts
        (``passes/analyses/pass_guard.py``): safetile's safety passes consume them by design; any
        other pass must leave them as they are and keep what they proved, unless trusted
        with ``--trust``."""
        from safetile.passes.analyses.pass_guard import SAFETY_PASSES

        if done.name in SAFETY_PASSES:
            self.guard.accept(module)
            return
        label = f"'{done.name}'"
        broken = self.guard.check(module, label, trusted=done.name in self.args.trust)
        if broken is None:
            return
        loc = broken.location
        line, column = (loc.line.data, loc.column.data) if isinstance(loc, FileLineColLoc) else (0, 0)
        name = loc.filename.data if isinstance(loc, FileLineColLoc) else self.get_input_name()
        raise TileIRError(Diagnostic(
            name, line, column,
            f"pass {label} broke a proved safety property: {broken.property}: {broken.message} "
            f"(fix the pass, or run it with --trust {done.name}: the kernel is then an unsafe island)"))

    def print_unsafe_report(self, module: ModuleOp) -> None:
        """``--unsafe-report``: the report of each entry of ``module`` on standard error."""
        from safetile.dialects.cuda_tile.ops.structure import EntryOp
        from safetile.passes.analyses.unsafe_report import unsafe_report

        for entry in [o for o in module.walk() if isinstance(o, EntryOp)]:
            facts = self.guard.record.entries.get(entry.sym_name.data)
            if facts is None:
                continue
            pointers = {a.name_hint: "a pointer argument" for a in entry.body.block.args
                        if a.name_hint and facts.tensor_at(a.index) is None and "ptr<" in str(a.type)}
            lines = unsafe_report(entry, facts, pointers, self.guard.islands)
            print(f"unsafe report @{entry.sym_name.data}: {len(lines) or 'nothing'}", file=sys.stderr)
            for line in lines:
                print(f"  {line}", file=sys.stderr)

    def print_text(self, module: ModuleOp) -> str:
        """``module`` in the text form the target and flags ask for."""
        return print_tile_ir(
            module,
            generic=self.args.print_op_generic,
            elide=parse_spec(self.args.target).name != "mlir",
            debuginfo=self.args.print_debuginfo,
        )

    def emit(self, module: ModuleOp, out: IO[str]) -> None:
        spec = parse_spec(self.args.target)
        if spec.name == "tileirbc":
            self.emit_bytecode(module, spec.parameters, out)
        elif spec.name == "cubin":
            self.emit_cubin(module, spec.parameters, out)
        else:
            out.write(self.print_text(module))

    def emit_bytecode(
        self, module: ModuleOp, params: Mapping[str, tuple[object, ...]], out: IO[str]
    ) -> None:
        """``-t tileirbc{version=V arch=A}``: write bytecode to ``out``'s byte stream."""
        unknown = params.keys() - {"version", "arch"}
        if unknown:
            raise UsageError(f"unknown tileirbc option(s): {', '.join(sorted(unknown))}")
        version = _version_option(params)
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
            raise UsageError(f"unknown cubin option(s): {', '.join(sorted(unknown))}")
        if "arch" not in params:
            raise UsageError("cubin needs a GPU architecture, e.g. -t 'cubin{arch=sm_90}'")
        opt = params.get("opt", (3,))[0]
        lineinfo = params.get("lineinfo", (True,))[0]
        if not isinstance(opt, int) or not isinstance(lineinfo, bool):
            raise UsageError("cubin options: opt is 0-3 and lineinfo is true or false")
        # No version=: the bytecode of the release that compiles it (backend/cache.py).
        version = _version_option(params) if "version" in params else None
        arch = str(params["arch"][0])
        if arch not in SUPPORTED_ARCHS:
            raise UsageError(
                f"unknown GPU architecture '{arch}'; tileiras supports {', '.join(SUPPORTED_ARCHS)}"
            )
        try:
            entry = compile_cubin(
                module,
                arch,
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
        from safetile.driver import compile_file  # here: only Python input needs the frontend

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
            # A --split-input-file chunk is parsed at its lines in the file, so
            # that errors and locations name the file's lines.  Ops get their
            # places as locations (MLIR's parser's) only where they are printed,
            # --mlir-print-debuginfo: the safety passes word their messages by
            # location, and NVIDIA's bytecode writer drops file locations where
            # ours would scope them into debug information.
            module = parse_tile_ir(
                self.ctx,
                "\n" * line_offset + text,
                name,
                hints=self.hint_checks(),
                warnings=self.warnings,
                source_locations=self.args.print_debuginfo
                and parse_spec(self.args.target).name not in BINARY_TARGETS,
                implicit_module=not self.args.no_implicit_module,
            )
        try:
            self.apply_passes(module)
        except TileIRError:
            raise
        except DiagnosticException as err:
            message = str(err).strip().splitlines()[0]
            raise TileIRError(Diagnostic(name, 0, 0, message)) from None
        if self.args.verify_roundtrip:
            self.verify_roundtrip(module)
        if self.args.unsafe_report:
            self.print_unsafe_report(module)
        self.emit(module, out)

    def hint_checks(self) -> HintChecks:
        """What ``-Wunsupported-hints`` and ``-Werr-hints`` ask (the latter needs the former, as in NVIDIA's tool)."""
        if not self.args.warn_hints:
            return HintChecks.OFF
        return HintChecks.ERROR if self.args.error_hints else HintChecks.WARN

    def print_timing(self) -> None:
        """``--mlir-timing`` / ``--time-passes``: each pass's wall time, as MLIR's report."""
        total = sum(t for _, t in self.pass_times)
        print("===" + "-" * 73 + "===", file=sys.stderr)
        print(" ... Execution time report ...".center(79), file=sys.stderr)
        print("===" + "-" * 73 + "===", file=sys.stderr)
        print(f"  Total Execution Time: {total:.4f} seconds", file=sys.stderr)
        print("", file=sys.stderr)
        print("  ----Wall Time----  ----Name----", file=sys.stderr)
        for name, seconds in self.pass_times:
            share = 100 * seconds / total if total else 0.0
            print(f"  {seconds:8.4f} ({share:5.1f}%)  {name}", file=sys.stderr)
        print(f"  {total:8.4f} (100.0%)  Total", file=sys.stderr)

    def verify_roundtrip(self, module: ModuleOp) -> None:
        """``--verify-roundtrip``: each form of ``module`` re-parses to the same module.

        The canonical text is the reference; the canonical, fully qualified and
        generic texts are parsed back and printed canonically.  A difference is
        an error (exit 1) with a unified diff of the two prints.  Bytecode is
        not compared: it keeps neither the module's name nor value names, nor
        every alias (``pow`` reads back as ``fpowf``).
        """
        name = self.get_input_name()
        reference = print_tile_ir(module)
        forms = {
            "canonical": reference,
            "fully qualified": print_tile_ir(module, elide=False),
            "generic": print_tile_ir(module, generic=True),
        }
        for form, text in forms.items():
            try:
                again = print_tile_ir(parse_tile_ir(self.ctx, text, f"<{form} form>"))
            except TileIRError as err:
                raise TileIRError(
                    Diagnostic(name, 0, 0, f"--verify-roundtrip: the {form} form does not "
                               f"parse back:\n{err.diagnostic}")
                ) from None
            _check_same(name, form, reference, again)

    def run(self) -> int:  # type: ignore[override]
        """Process every chunk; return the exit status."""
        chunks, ext = self.prepare_input()
        out = self.prepare_output()
        status = 0
        try:
            for i, (chunk, offset) in enumerate(chunks):
                raw = chunk.read()
                chunk.close()
                is_bytecode = ext in bytecode.FILE_EXTENSIONS or raw.startswith(MAGIC)
                text: str | bytes = raw if is_bytecode else raw.decode("utf-8", "replace")
                if i > 0:
                    out.write("// -----\n")
                status = max(status, self.run_chunk(text, offset, out))
        finally:
            if out is not sys.stdout:
                out.close()
        if self.args.time_passes:
            self.print_timing()
        return status

    def run_chunk(self, text: str | bytes, offset: int, out: IO[str]) -> int:
        """Process one chunk; report its diagnostic, or check it against the
        chunk's annotations with ``--verify-diagnostics``; return the status."""
        produced: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        try:
            self.process_chunk(text, offset, out)
        except TileIRError as err:
            produced.append(err.diagnostic)
        produced = [*self.warnings, *produced]
        if not self.args.verify_diagnostics:
            for diagnostic in produced:
                print(diagnostic, file=sys.stderr)
            return EXIT_INPUT if any(d.severity == "error" for d in produced) else 0
        # Diagnostics still go to standard output, for FileCheck to read.
        for diagnostic in produced:
            print(diagnostic, file=out)
        produced = [each for diagnostic in produced for each in diagnostic.all()]
        name = self.get_input_name()
        try:
            expected = expectations(text, offset) if isinstance(text, str) else []
        except AnnotationError as err:
            print(f"{name}:{err.line}:{err.column}: error: {err}", file=sys.stderr)
            return EXIT_INPUT
        report = mismatches(expected, produced, name)
        for line in report:
            print(line, file=sys.stderr)
        return EXIT_INPUT if report else 0


def _check_same(name: str, form: str, expected: str, got: str) -> None:
    """Raise ``TileIRError`` with a unified diff if ``got`` differs from ``expected``."""
    if got == expected:
        return
    diff = difflib.unified_diff(
        expected.splitlines(keepends=True), got.splitlines(keepends=True), "printed", form
    )
    raise TileIRError(
        Diagnostic(name, 0, 0, f"--verify-roundtrip: the {form} form does not print back "
                   f"the same:\n{''.join(diff)}".rstrip())
    )


def _fix_help(arg_parser: argparse.ArgumentParser) -> None:
    """Correct xDSL's help where tile-opt behaves otherwise."""
    actions = arg_parser._option_string_actions  # pyright: ignore[reportPrivateUsage]
    actions["--verify-diagnostics"].help = (
        "check the input's expected-error/warning/note/remark annotations against the "
        "diagnostics (MLIR's rules); exit 1 on any mismatch"
    )
    actions["--print-between-passes"].help = "print the IR to standard error between passes"
    actions["--parsing-diagnostics"].help = argparse.SUPPRESS  # xDSL's; tile-opt ignores it


def _version_option(params: Mapping[str, tuple[object, ...]]) -> str:
    """The ``version=`` of a binary target; one tile-opt cannot write is a usage error."""
    version = str(params.get("version", (bytecode.DEFAULT_VERSION,))[0])
    try:
        bytecode.Version.parse(version)
    except ValueError as err:
        raise UsageError(str(err)) from None
    return version


def _write_bytes(out: IO[str], data: bytes, what: str) -> None:
    """Write ``data`` to the byte stream under ``out`` (a file from -o, or standard output)."""
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        raise UsageError(f"{what} needs a binary output: use -o FILE or a pipe")
    out.flush()
    buffer.write(data)
    buffer.flush()


def _preload(argv: Sequence[str]) -> None:
    """Register passes from ``--load FILE`` before the pass list is parsed."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--load", action="append", default=[])
    known, _ = pre.parse_known_args(argv)
    for path in known.load:
        # The pass file's folder is importable, as a script's is.
        folder = str(Path(path).resolve().parent)
        if folder not in sys.path:
            sys.path.insert(0, folder)
        try:
            load_pass_file(path)
        except PassRegistryError:
            raise
        except Exception as err:  # the user's code failed: report it at its line
            raise import_error(err, path, "a --load pass file") from None


GC_THRESHOLD = (20_000, 10, 10)
"""The collector's thresholds while tile-opt runs.  A run builds IR by the hundred thousand
objects, few of them in cycles; at Python's default (a young collection every 700
allocations) a run spent about a tenth of its CPU in the collector (as mypy, we raise it)."""


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    gc.set_threshold(*GC_THRESHOLD)
    try:
        _preload(argv)
        return TileOptMain(description="Tile IR optimizer", args=argv).run()
    except CompileError as err:  # a kernel file, or a --load file, that cannot be used
        print(err, file=sys.stderr)
        return 1
    except (UsageError, ArgSpecParseError) as err:  # the latter: a malformed -t or -p spec
        print(f"tile-opt: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except (PassRegistryError, ToolchainError, OSError, ValueError) as err:
        print(f"tile-opt: error: {err}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # a bug in tile-opt, not in the input
        print(
            f"tile-opt: internal error: {type(err).__name__}: {err}\n"
            "This is a bug in safetile; please report it with the input file.",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
