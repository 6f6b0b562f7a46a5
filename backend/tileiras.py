"""Running ``tileiras``: Tile IR bytecode in, a cubin out, failures as ``TileirasError``.

    cubin = run_tileiras(bytecode, CompileOptions("sm_90"))   # -O3 --lineinfo

``tileiras --gpu-name sm_XX -O<N> [--lineinfo] in.tileirbc -o out.cubin`` runs
in a private temporary directory, under a timeout (``timeout=`` or
``SAFETILE_TILEIRAS_TIMEOUT`` seconds, default 300).  It needs no GPU.

Errors.  ``tileiras`` prints ``error: <message>`` lines; when the bytecode has
a debug section it prefixes them with the op's location and kernel
(``#cuda_tile.di_loc<loc("k.py":6:0) in #cuda_tile.di_subprogram<...,
name = "f8k", ...>>: error: ...``).  ``TileirasError`` keeps the message, the
kernel and the source location: from that prefix when present, else from the
kernel's own location in the IR (an ``entry`` with ``loc("file":line:col)``),
and the kernel's name when the module has one kernel.  A timeout, a crash or
a missing cubin is a ``TileirasError`` too; never a ``CalledProcessError``.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation

from safetile.dialects.cuda_tile.attributes import GPU_ARCHS
from safetile.dialects.cuda_tile.ops.structure import EntryOp

from .toolchain import Toolchain, ToolchainError, default_toolchain

SUPPORTED_ARCHS = GPU_ARCHS
"""What ``tileiras`` 13.4 accepts as ``--gpu-name``.  sm_90 means sm_90a (H100/H200 only)."""

TIMEOUT_ENV = "SAFETILE_TILEIRAS_TIMEOUT"
DEFAULT_TIMEOUT = 300.0
"""Seconds one ``tileiras`` run may take (the 128x128x64 matmul takes about 3)."""

ELF_MAGIC = b"\x7fELF"

_ERROR = re.compile(r"(?P<prefix>.*?)(?:^|: )error: (?P<message>.*)")
_LOCATION = re.compile(r'loc\("(?P<file>[^"]*)":(?P<line>\d+):(?P<column>\d+)\)')
_KERNEL = re.compile(r'\bname = "(?P<name>[^"]*)"')
_GENERIC_FAILURE = "failed to compile Tile IR program"
"""The line ``tileiras`` ends every compile failure with, after the specific ones."""


@dataclass(frozen=True)
class CompileOptions:
    """What ``tileiras`` is asked for: ``--gpu-name arch -O opt [--lineinfo]``."""

    arch: str
    opt: int = 3
    lineinfo: bool = True
    sanitize: str | None = None
    """``"memcheck"``: instrument memory accesses for compute-sanitizer."""

    def __post_init__(self) -> None:
        if self.arch not in SUPPORTED_ARCHS:
            raise ValueError(
                f"unknown GPU architecture '{self.arch}'; tileiras supports "
                + ", ".join(SUPPORTED_ARCHS)
            )
        if self.opt not in (0, 1, 2, 3):
            raise ValueError(f"optimization level must be 0, 1, 2 or 3, got {self.opt!r}")
        if self.sanitize not in (None, "memcheck"):
            raise ValueError(f"sanitize must be None or 'memcheck', got {self.sanitize!r}")

    def flags(self) -> list[str]:
        flags = ["--gpu-name", self.arch, f"-O{self.opt}", *(["--lineinfo"] * self.lineinfo)]
        return flags + ([f"--sanitize={self.sanitize}"] if self.sanitize else [])


@dataclass(frozen=True)
class SourceLocation:
    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class KernelSymbol:
    """An ``entry`` of the module being compiled, and where the IR says it comes from."""

    name: str
    location: SourceLocation | None = None


def kernels_of(module: Operation) -> tuple[KernelSymbol, ...]:
    """The kernels of a module, with their ``loc("file":line:col)`` if they have one."""
    found = []
    for op in module.walk():
        if isinstance(op, EntryOp):
            loc = op.location
            where = (
                SourceLocation(loc.filename.data, loc.line.data, loc.column.data)
                if isinstance(loc, FileLineColLoc)
                else None
            )
            found.append(KernelSymbol(op.sym_name.data, where))
    return tuple(found)


class TileirasError(Exception):
    """``tileiras`` failed: its message, the kernel and source location where known."""

    def __init__(
        self,
        message: str,
        *,
        arch: str,
        kernel: str | None = None,
        location: SourceLocation | None = None,
        stderr: str = "",
        returncode: int | None = None,
    ):
        self.message = message
        self.arch = arch
        self.kernel = kernel
        self.location = location
        self.stderr = stderr
        self.returncode = returncode
        where = f"{location}: error: " if location else ""
        super().__init__(where + self.summary)

    @property
    def summary(self) -> str:
        """The error without its location: ``tileiras (sm_80) in kernel 'k': message``."""
        which = f" in kernel '{self.kernel}'" if self.kernel else ""
        return f"tileiras ({self.arch}){which}: {self.message}"


def run_tileiras(
    bytecode: bytes,
    options: CompileOptions,
    *,
    kernels: Sequence[KernelSymbol] = (),
    toolchain: Toolchain | None = None,
    timeout: float | None = None,
) -> bytes:
    """Compile Tile IR bytecode to a cubin for ``options.arch``.

    ``kernels`` (from ``kernels_of``) name the module's kernels in errors.
    Raises ``TileirasError`` when ``tileiras`` fails or times out, and
    ``ToolchainError`` when it cannot be found or run.
    """
    tools = toolchain or default_toolchain()
    limit = _timeout(timeout)
    with tempfile.TemporaryDirectory(prefix="safetile-tileiras-") as tmp:
        source, target = Path(tmp, "kernels.tileirbc"), Path(tmp, "kernels.cubin")
        source.write_bytes(bytecode)
        command = [str(tools.tileiras), *options.flags(), str(source), "-o", str(target)]
        try:
            done = subprocess.run(
                command, capture_output=True, timeout=limit, cwd=tmp, env=_environment(tools)
            )
        except subprocess.TimeoutExpired:
            raise _error(
                f"did not finish within {limit:g} s and was stopped; allow more time with "
                f"timeout= or {TIMEOUT_ENV}=SECONDS, or use smaller tiles",
                options,
                kernels,
            ) from None
        except OSError as err:
            raise ToolchainError(f"could not run {tools.tileiras}: {err}") from None
        stderr = done.stderr.decode(errors="replace")
        if done.returncode != 0:
            raise _failure(done.returncode, stderr, options, kernels)
        cubin = target.read_bytes() if target.is_file() else b""
    if not cubin.startswith(ELF_MAGIC):
        raise _error(
            "exited with status 0 but wrote no cubin (ELF) file", options, kernels, stderr=stderr
        )
    return cubin


def _timeout(timeout: float | None) -> float:
    if timeout is not None:
        return timeout
    text = os.environ.get(TIMEOUT_ENV)
    if not text:
        return DEFAULT_TIMEOUT
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{TIMEOUT_ENV}={text!r} is not a number of seconds") from None


def _environment(tools: Toolchain) -> dict[str, str]:
    """The wheels' tileiras must not pick parts from a system toolkit (cuTile does the same)."""
    env = dict(os.environ)
    if tools.origin == "wheels":
        env.pop("CUDA_HOME", None)
        env.pop("CUDA_PATH", None)
    return env


def _failure(
    returncode: int, stderr: str, options: CompileOptions, kernels: Sequence[KernelSymbol]
) -> TileirasError:
    """The error for a non-zero exit: messages, kernel and location parsed from stderr."""
    if returncode < 0:
        return _error(f"crashed (signal {-returncode})", options, kernels, stderr, returncode)
    messages: list[str] = []
    location: SourceLocation | None = None
    kernel: str | None = None
    for line in stderr.splitlines():
        if (error := _ERROR.match(line)) is None:
            continue
        messages.append(error["message"].strip())
        if location is None and (loc := _LOCATION.search(error["prefix"])):
            location = SourceLocation(loc["file"], int(loc["line"]), int(loc["column"]))
            if name := _KERNEL.search(error["prefix"]):
                kernel = name["name"]
    specific = [m for m in messages if m != _GENERIC_FAILURE] or messages
    text = "\n".join(specific) or stderr.strip() or f"exited with status {returncode}"
    return _error(text, options, kernels, stderr, returncode, location, kernel)


def _error(
    message: str,
    options: CompileOptions,
    kernels: Sequence[KernelSymbol],
    stderr: str = "",
    returncode: int | None = None,
    location: SourceLocation | None = None,
    kernel: str | None = None,
) -> TileirasError:
    """A ``TileirasError``; the IR names the kernel (and location) where tileiras did not."""
    if kernel is None and len(kernels) == 1:
        kernel = kernels[0].name
    if location is None:
        location = next((k.location for k in kernels if k.name == kernel), None)
    if kernel is None and kernels:
        message = f"{message} (kernels: {', '.join(k.name for k in kernels)})"
    return TileirasError(
        message,
        arch=options.arch,
        kernel=kernel,
        location=location,
        stderr=stderr,
        returncode=returncode,
    )
