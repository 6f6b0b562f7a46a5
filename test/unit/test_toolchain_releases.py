"""The selected tileiras release decides the bytecode the cache writes, and where
the toolchain is found (``backend/cache.py`` "Bytecode version",
``backend/toolchain.py``).

Most tests use a stand-in ``tileiras`` that "compiles" by copying its input
behind an ELF magic, so the cubin shows which bytecode it was given.  The
last ones use 13.5.37's real tools (the ``toolchain-13-5`` extra, or
``SAFETILE_TILEIRAS_13_5`` naming the ``nvidia/cu13/bin`` of its unpacked
wheels) and are skipped without them.
"""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import pytest

import safetile as st
from safetile import f32
from safetile.backend import toolchain as toolchains
from safetile.backend.bytecode import BytecodeWriteError, Version, bytecode_version, write_bytecode
from safetile.backend.cache import (
    MissingCubin,
    bytecode_version_for,
    compile_cubin,
    cubin_for,
    lookup,
    selected_release,
    to_bytecode,
)
from safetile.backend.tileiras import ELF_MAGIC
from safetile.backend.toolchain import (
    PINNED_VERSION,
    VERSION_ENV,
    Toolchain,
    ToolchainError,
    find_toolchain,
)
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from xdsl.dialects.builtin import ModuleOp
from support import EXAMPLES_DIR, make_context, run_tile_opt
from test_bytecode_v13_5 import TOOLS_ENV, tools_13_5
from test_tileiras import fake_tileiras, fake_toolkit

NEW = "13.5.37"
VECTOR_ADD = (EXAMPLES_DIR / "tileir" / "vector_add.mlir").read_text()

COPYING_TILEIRAS = """
while [ $# -gt 0 ]; do
  case "$1" in -o) out="$2"; shift ;; *.tileirbc) in="$1" ;; esac
  shift
done
printf '\\177ELF' > "$out" && cat "$in" >> "$out"
"""
"""A ``tileiras`` whose cubin is ELF's magic followed by the bytecode it was given."""


def module() -> ModuleOp:
    return parse_tile_ir(make_context(), VECTOR_ADD)


def copying(tmp_path: Path, release: str) -> Toolchain:
    return dataclasses.replace(fake_tileiras(tmp_path, COPYING_TILEIRAS), version=release)


def given(cubin: bytes) -> Version:
    """The version of the bytecode a copying ``tileiras`` was given."""
    assert cubin.startswith(ELF_MAGIC)
    return bytecode_version(cubin[len(ELF_MAGIC) :])


def installed(monkeypatch: pytest.MonkeyPatch, tools: Toolchain | None) -> None:
    """Make ``tools`` the installed toolchain (None: no tileiras on this machine)."""

    def default() -> Toolchain:
        if tools is None:
            raise ToolchainError("tileiras was not found")
        return tools

    monkeypatch.setattr(toolchains, "default_toolchain", default)


# --------------------------------------------------------------------------
# Which bytecode a release is given
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("release", "version"),
    [("13.4.92", "13.4"), ("13.5.37", "13.5"), ("13.1.80", "13.1"), ("13.9.1", "13.5")],
)
def test_a_release_is_given_its_own_bytecode_or_the_newest(release: str, version: str) -> None:
    assert bytecode_version_for(release) == Version.parse(version)


@pytest.mark.parametrize(
    ("release", "says"),
    [("12.9.86", "predates Tile IR bytecode 13.1"), ("newest", "is not a CUDA release")],
)
def test_a_release_without_bytecode_is_a_toolchain_error(release: str, says: str) -> None:
    with pytest.raises(ToolchainError, match=says):
        bytecode_version_for(release)


# --------------------------------------------------------------------------
# The cache writes the bytecode of the release that compiles
# --------------------------------------------------------------------------


@pytest.mark.parametrize(("release", "version"), [(PINNED_VERSION, "13.4"), (NEW, "13.5")])
def test_a_module_is_compiled_from_its_toolchains_bytecode(
    tmp_path: Path, release: str, version: str
) -> None:
    tools = copying(tmp_path, release)
    entry = compile_cubin(module(), "sm_90", cache_dir=tmp_path / "cache", toolchain=tools)
    assert given(entry.cubin) == Version.parse(version)
    expected = hashlib.sha256(write_bytecode(module(), version)).hexdigest()
    assert (entry.bytecode_sha256, entry.toolchain) == (expected, f"tileiras-{release}")


def test_version_overrides_the_toolchains(tmp_path: Path) -> None:
    tools = copying(tmp_path, NEW)
    entry = compile_cubin(module(), "sm_90", version="13.4", cache_dir=tmp_path, toolchain=tools)
    assert given(entry.cubin) == Version(13, 4)
    assert lookup(module(), "sm_90", toolchain=tools.id, cache_dir=tmp_path) is None  # 13.5's key
    found = lookup(module(), "sm_90", version="13.4", toolchain=tools.id, cache_dir=tmp_path)
    assert found is not None and found.path == entry.path


def test_the_jit_writes_the_installed_releases_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """st.warm_up (the JIT's compile) with 13.5.37 installed: its cubin is built from 13.5."""
    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(tmp_path / "cache"))
    installed(monkeypatch, copying(tmp_path, NEW))
    assert selected_release() == NEW

    @st.kernel
    def double(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], *, S: st.Shape):  # noqa: N803
        z.store(st.load_tile_like(x, z) * 2.0)

    spec = dict(z=st.TensorSpec(f32, (256,), (1,), (128,)), x=st.TensorSpec(f32, (256,), (1,)))
    (built,) = st.warm_up(double, [spec], arch="sm_90")
    assert built.cubin is not None and given(built.cubin.read_bytes()) == Version(13, 5)
    assert built.cubin.name == f"tileiras-{NEW}.cubin"


@pytest.mark.parametrize("option, version", [("", "13.5"), (" version=13.4", "13.4")])
def test_tile_opt_cubin_writes_the_selected_releases_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str, version: str
) -> None:
    """``tile-opt -t cubin`` with 13.5.37 installed: 13.5 bytecode, unless ``version=`` says."""
    installed(monkeypatch, copying(tmp_path, NEW))
    source, out = tmp_path / "k.mlir", tmp_path / "k.cubin"
    source.write_text(VECTOR_ADD)
    run = run_tile_opt([str(source), "-t", f"cubin{{arch=sm_90{option}}}", "--cache-dir", str(tmp_path / "c"),
                        "-o", str(out)])
    assert run.status == 0, run.err
    assert given(out.read_bytes()) == Version.parse(version)


def test_a_machine_without_tileiras_looks_for_the_named_release(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache built by 13.5.37 serves a machine with no tileiras when
    SAFETILE_TILEIRAS_VERSION names 13.5.37 there too; else the pinned release's
    build is looked for, and the error says which."""
    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(tmp_path / "cache"))
    entry = compile_cubin(module(), "sm_90", toolchain=copying(tmp_path, NEW))
    installed(monkeypatch, None)
    monkeypatch.delenv(VERSION_ENV, raising=False)
    assert selected_release() == PINNED_VERSION
    assert lookup(module(), "sm_90") is None
    with pytest.raises(MissingCubin, match=f"a build by tileiras {PINNED_VERSION} was looked for"):
        cubin_for(module(), "sm_90")
    monkeypatch.setenv(VERSION_ENV, NEW)
    assert selected_release() == NEW
    assert bytecode_version(to_bytecode(module(), "sm_90")) == Version(13, 5)
    found = cubin_for(module(), "sm_90")
    assert (found.path, found.compiled) == (entry.path, False)


def test_what_13_5_cannot_express_is_refused_not_written_as_13_4(tmp_path: Path) -> None:
    """13.5.37 refuses tensor_view kernel arguments in 13.4 files too: no fallback."""
    text = (
        "cuda_tile.module @m {\n"
        "  entry @k(%v: tensor_view<8xf32, strides=[1]>) {\n    return\n  }\n}\n"
    )
    with pytest.raises(BytecodeWriteError, match="cannot be encoded in bytecode version 13.5"):
        compile_cubin(parse_tile_ir(make_context(), text), "sm_90", toolchain=copying(tmp_path, NEW))


# --------------------------------------------------------------------------
# Finding the release asked for
# --------------------------------------------------------------------------


def test_the_first_place_holding_the_release_asked_for_is_used(tmp_path: Path) -> None:
    on_path = fake_toolkit(tmp_path / "old", "13.4.92")
    home = fake_toolkit(tmp_path / "new", NEW, ptxas=NEW, nvvm=NEW).parent

    def find(version: str | None = None) -> Toolchain:
        return find_toolchain(wheels=False, path=str(on_path), cuda_home=str(home), version=version)

    assert find().origin == "PATH"
    chosen = find(NEW)
    assert (chosen.origin, chosen.version) == ("CUDA_HOME", NEW)
    with pytest.raises(ToolchainError) as err:
        find("13.6.0")
    assert f"13.4.92 in PATH ({on_path / 'tileiras'}), {NEW} in CUDA_HOME" in str(err.value)


# --------------------------------------------------------------------------
# 13.5.37's real tools
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tools_dir() -> Path:
    found = tools_13_5()
    if found is None:
        pytest.skip(f"no tileiras {NEW}: pip install -e '.[toolchain-13-5]' or set {TOOLS_ENV}")
    return found


def test_13_5_37_on_path_beside_the_pinned_wheels(tools_dir: Path, tmp_path: Path) -> None:
    """SAFETILE_TILEIRAS_VERSION=13.5.37 finds it on PATH; it compiles the 13.5
    bytecode the cache writes into a cubin."""
    tools = find_toolchain(path=str(tools_dir), cuda_home="", version=NEW)
    assert tools.version == NEW and tools.tileiras.resolve() == (tools_dir / "tileiras").resolve()
    entry = compile_cubin(module(), "sm_90", cache_dir=tmp_path, toolchain=tools)
    assert entry.compiled and entry.cubin.startswith(ELF_MAGIC)
    expected = hashlib.sha256(write_bytecode(module(), "13.5")).hexdigest()
    assert (entry.bytecode_sha256, entry.toolchain) == (expected, f"tileiras-{NEW}")
