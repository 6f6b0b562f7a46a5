"""Helpers for the bytecode tests: the corpus of modules, and NVIDIA's tools.

The corpus is every ``cuda_tile.module`` in the dialect's lit tests
(``test/lit/dialect/*.mlir`` without the ``-invalid`` files, split on
``// -----``; a chunk may hold several), the Tile IR examples, and the
programs in ``bytecode_programs/`` that cover what those lack.  A program may
start with ``// ARCH: sm_XX`` (the GPU tileiras compiles it for; default
sm_90, and for the lit modules, which use Blackwell-only types, see
``_lit_arch``) and ``// SINCE: 13.x`` (the oldest bytecode version that can
express it; a lit chunk may say it too, e.g. the 13.5 ops').
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.metadata
import importlib.util
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from safetile.backend.toolchain import Toolchain
from safetile.dialects.cuda_tile.attributes import OptimizationHintsAttr
from safetile.dialects.cuda_tile.diagnostics import TileIRError
from safetile.dialects.cuda_tile.ops.structure import ModuleOp as TileModuleOp
from safetile.dialects.cuda_tile.syntax import parse_tile_ir, print_tile_ir
from support import EXAMPLES_DIR, LIT_DIR, make_context

PROGRAMS_DIR = Path(__file__).parent / "bytecode_programs"
TOOLCHAIN_VERSION = "13.4.92"
"""The pinned ``nvidia-cuda-tileiras`` (and nvvm, nvcc) wheel version."""


@dataclass(frozen=True)
class Program:
    name: str
    text: str
    arch: str = "sm_90"
    since: str = "13.1"

    def module(self, ctx: Context | None = None) -> ModuleOp:
        """A freshly parsed module (callers may change it)."""
        return parse_tile_ir(ctx or make_context(), self.text, self.name)

    def parsed(self) -> ModuleOp:
        """The module parsed once and shared: callers must not change it."""
        return _parse_once(self.name, self.text)


@functools.cache
def _parse_once(name: str, text: str) -> ModuleOp:
    return parse_tile_ir(make_context(), text, name)


def _header(text: str, key: str, default: str) -> str:
    m = re.search(rf"^// {key}: (\S+)", text, re.MULTILINE)
    return m.group(1) if m else default


def corpus() -> list[Program]:
    """Every module of the lit dialect tests, examples and programs."""
    return list(_corpus())


@functools.cache
def _corpus() -> tuple[Program, ...]:
    """``corpus``, read and parsed once a process: four test modules ask for it at
    collection (about 1.8 CPU-s each, the lit chunks parsed and printed)."""
    programs: list[Program] = []
    lit_files = sorted(
        p for p in (LIT_DIR / "dialect").glob("*.mlir") if not p.stem.endswith("-invalid")
    )
    ctx = make_context()
    for path in lit_files:
        for i, chunk in enumerate(path.read_text().split("// -----")):
            if "cuda_tile.module" not in chunk:
                continue
            try:
                parsed = parse_tile_ir(ctx, chunk, str(path))
            except TileIRError:  # kept whole: its tests report the error
                programs.append(Program(f"{path.stem}#{i}", chunk))
                continue
            since = _header(chunk, "SINCE", "13.1")
            for op in parsed.ops:
                if isinstance(op, TileModuleOp):
                    name = f"{path.stem}#{i}@{op.sym_name.data}"
                    text = print_tile_ir(op)
                    programs.append(Program(name, text, _lit_arch(text), since))
    for path in sorted((EXAMPLES_DIR / "tileir").glob("*.mlir")):
        programs.append(Program(f"example:{path.stem}", path.read_text()))
    for path in sorted(PROGRAMS_DIR.glob("*.mlir")):
        text = path.read_text()
        programs.append(
            Program(path.stem, text, _header(text, "ARCH", "sm_90"), _header(text, "SINCE", "13.1"))
        )
    return tuple(programs)


def expressible_in(programs: list[Program], version: str) -> list[Program]:
    """The programs that bytecode ``version`` can express (``SINCE`` at most it)."""
    return [p for p in programs if _version(p.since) <= _version(version)]


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _lit_arch(text: str) -> str:
    """Blackwell for the lit modules; f8E5M3FNU (13.4 developer preview) needs sm_107."""
    return "sm_107" if "8E5M3FNU" in text else "sm_100"


def tile_module(module: Operation) -> TileModuleOp:
    """The ``cuda_tile.module`` of a parsed file."""
    if isinstance(module, TileModuleOp):
        return module
    (inner,) = [op for op in module.walk() if isinstance(op, TileModuleOp)]
    return inner


def anonymous_text(module: Operation) -> str:
    """Canonical text as bytecode keeps it: no SSA or module names, no discardable
    attributes, ``pow`` spelled ``fpowf`` (13.4's name for opcode 0x54)."""
    tile = tile_module(module).clone()
    tile.sym_name = tile.sym_name.__class__("kernels")
    tile.producer = None
    for op in tile.walk():
        if op is not tile:
            op.attributes.clear()
        for key, value in op.properties.items():
            if isinstance(value, OptimizationHintsAttr):  # MLIR dictionaries are sorted
                op.properties[key] = _sorted_hints(value)
        for value in op.results:
            value.name_hint = None
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    arg.name_hint = None
    return re.sub(r"(= |^\s*)pow ", r"\1fpowf ", print_tile_ir(tile), flags=re.MULTILINE)


def _sorted_hints(hints: OptimizationHintsAttr) -> OptimizationHintsAttr:
    return OptimizationHintsAttr(
        {arch: dict(sorted(d.data.items())) for arch, d in sorted(hints.value.data.items())}  # type: ignore[union-attr]
    )


# --------------------------------------------------------------------------
# NVIDIA's tools, from the pinned wheels
# --------------------------------------------------------------------------


def toolchain_bin(tool: str) -> Path:
    """``tileiras`` or ``tileirdisasm`` from the pinned ``nvidia-cuda-tileiras`` wheel.

    Raises ``RuntimeError`` (naming the install command) when the wheel is
    missing or not the pinned version; ``SAFETILE_SKIP_TOOLCHAIN_TESTS=1``
    lets the tests that need it skip instead.
    """
    try:
        version = importlib.metadata.version("nvidia-cuda-tileiras")
    except importlib.metadata.PackageNotFoundError:
        version = None
    spec = importlib.util.find_spec("nvidia")
    paths = list(spec.submodule_search_locations or []) if spec else []
    for base in paths:
        candidate = Path(base) / "cu13" / "bin" / tool
        if candidate.is_file() and version == TOOLCHAIN_VERSION:
            return candidate
    raise RuntimeError(
        f"{tool} {TOOLCHAIN_VERSION} not found (installed: {version}); install the "
        "toolchain: pip install -e '.[toolchain]'"
    )


def skip_without_toolchain() -> bool:
    return os.environ.get("SAFETILE_SKIP_TOOLCHAIN_TESTS") == "1"


_STAND_IN = """#!/bin/sh
# A stand-in for tileiras (test/unit/bytecode_support.py): whatever it is asked
# to compile, it writes the cubin recorded beside it where -o says.
while [ "$#" -gt 0 ]; do
  if [ "$1" = "-o" ]; then exec cp "$(dirname "$0")/recorded.cubin" "$2"; fi
  shift
done
echo "stand-in tileiras: no -o given" >&2
exit 2
"""


def stand_in_toolchain(real: Toolchain, cubin: bytes, folder: Path) -> Toolchain:
    """``real`` with its ``tileiras`` replaced by a script that writes ``cubin``
    (one the real one built) for any input: for tests of what is done with a
    cubin (the cache's keys, entries, damage and degrading), where a real
    compile would cost ~0.1 CPU-s and check nothing more."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "recorded.cubin").write_bytes(cubin)
    script = folder / "tileiras"
    script.write_text(_STAND_IN)
    script.chmod(0o755)
    return dataclasses.replace(real, tileiras=script)


def disassemble(path: Path) -> subprocess.CompletedProcess[str]:
    """Run ``tileirdisasm`` on a bytecode file (it prints entries, not the module)."""
    return subprocess.run(
        [toolchain_bin("tileirdisasm"), path], capture_output=True, text=True, timeout=60
    )


def assemble(
    path: Path, arch: str, out: Path, opt_level: int = 3
) -> subprocess.CompletedProcess[str]:
    """Run ``tileiras --gpu-name arch --opt-level N path -o out``."""
    return subprocess.run(
        [
            toolchain_bin("tileiras"),
            "--gpu-name",
            arch,
            f"--opt-level={opt_level}",
            path,
            "-o",
            out,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )


def cuobjdump(cubin: Path, flag: str, cache: Path) -> str:
    """What ``cuobjdump <flag> <cubin>`` prints (``-sass``, ``-res-usage``), kept (``disassembly``)."""
    return disassembly("cuobjdump", flag, cubin, cache)


def disassembly(tool: str, flag: str, cubin: Path, cache: Path) -> str:
    """What ``<tool> <flag> <cubin>`` prints (``cuobjdump -sass``, ``nvdisasm --print-line-info``).

    Kept in the suite's cubin cache (``cache``, the ``cubin_cache`` fixture),
    keyed by the cubin's bytes, the flag and the toolchain's release (a folder
    a tool): the same tool prints the same for the same bytes, so a rerun
    reads it back instead of disassembling again (0.4 to 0.9 CPU-s a cubin).
    """
    from safetile.backend.toolchain import default_toolchain

    toolchain = default_toolchain()
    key = hashlib.sha256(b"\0".join([cubin.read_bytes(), flag.encode(), toolchain.id.encode()])).hexdigest()
    kept = cache / tool / f"{key}.txt"
    if kept.is_file():
        return kept.read_text()
    # cuobjdump -sass runs nvdisasm, which the same wheels put next to it.
    env = {**os.environ, "PATH": f"{toolchain.tileiras.parent}{os.pathsep}{os.environ['PATH']}"}
    out = subprocess.run([str(toolchain.tool(tool)), flag, str(cubin)], capture_output=True, text=True,
                         timeout=120, env=env, check=True).stdout
    kept.parent.mkdir(parents=True, exist_ok=True)
    staged = kept.with_suffix(f".{os.getpid()}.tmp")
    staged.write_text(out)
    staged.replace(kept)  # atomic: another worker may write the same entry
    return out
