"""The cubin cache (``safetile.backend.cache``): location, keys, hits and misses,
lookups where no tileiras is installed, corrupt entries, and four processes
compiling one kernel at once.  On the vector add; ``tools`` is a stand-in
``tileiras`` writing the pinned toolchain's cubin of it (``stand_in_toolchain``:
what the cache does with a cubin does not depend on how it was built), and
the entry's layout and the processes compiling at once run the real one.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import shutil
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest

from cache_support import VECTOR_ADD, bytecode, real_tools, tools  # noqa: F401 (fixtures)
from safetile.backend import cache, toolchain as toolchains
from safetile.backend.cache import (
    CACHE_ENV,
    LAYOUT,
    CacheEntry,
    build_key,
    compile_cubin,
    default_cache_dir,
    lookup,
    to_bytecode,
)
from safetile.backend.tileiras import CompileOptions
from safetile.backend.toolchain import PINNED_VERSION, Toolchain, ToolchainError
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from support import make_context

PINNED = f"tileiras-{PINNED_VERSION}"
PROCESSES = 4


def files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --------------------------------------------------------------------------
# Where the cache lives
# --------------------------------------------------------------------------


def test_default_location(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "explicit"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv(CACHE_ENV)
    assert default_cache_dir() == tmp_path / "xdg" / "safetile"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "safetile"


def test_entry_layout(real_tools: Toolchain, bytecode: bytes, tmp_path: Path) -> None:
    entry = compile_cubin(bytecode, "sm_90", cache_dir=tmp_path, toolchain=real_tools)
    key = build_key(bytecode, CompileOptions("sm_90"))
    assert entry.path == tmp_path / LAYOUT / key[:2] / key / f"{PINNED}.cubin"
    assert files(entry.path.parent) == [".lock", f"{PINNED}.cubin", f"{PINNED}.json"]
    assert (entry.compiled, entry.toolchain, entry.kernels) == (True, PINNED, ("vector_add",))
    assert entry.path.read_bytes() == entry.cubin


# --------------------------------------------------------------------------
# Hits and misses
# --------------------------------------------------------------------------


def test_hit_after_compile(tools: Toolchain, tmp_path: Path) -> None:
    module = parse_tile_ir(make_context(), VECTOR_ADD)
    assert lookup(module, "sm_90", cache_dir=tmp_path) is None
    first = compile_cubin(module, "sm_90", cache_dir=tmp_path, toolchain=tools)
    second = compile_cubin(module, "sm_90", cache_dir=tmp_path, toolchain=tools)
    found = lookup(module, "sm_90", cache_dir=tmp_path)
    assert (first.compiled, second.compiled) == (True, False)
    assert found is not None and found.cubin == second.cubin == first.cubin
    # the module and its bytecode share the key
    as_bytes = lookup(to_bytecode(module, "sm_90"), "sm_90", cache_dir=tmp_path)
    assert as_bytes is not None and as_bytes.path == first.path


@pytest.mark.parametrize(
    "change",
    [
        {"arch": "sm_100"},
        {"opt": 2},
        {"lineinfo": False},
        {"version": "13.2"},  # other bytecode (and an arch hint): another key
    ],
    ids=lambda c: next(iter(c)),
)
def test_a_changed_option_misses(
    tools: Toolchain, tmp_path: Path, change: dict[str, object]
) -> None:
    module = parse_tile_ir(make_context(), VECTOR_ADD)
    base: dict[str, object] = {"arch": "sm_90", "opt": 3, "lineinfo": True, "version": "13.4"}
    compile_cubin(module, cache_dir=tmp_path, toolchain=tools, **base)  # type: ignore[arg-type]
    changed = {**base, **change}
    assert lookup(module, cache_dir=tmp_path, **changed) is None  # type: ignore[arg-type]
    entry = compile_cubin(module, cache_dir=tmp_path, toolchain=tools, **changed)  # type: ignore[arg-type]
    assert entry.compiled
    assert lookup(module, cache_dir=tmp_path, **base) is not None  # type: ignore[arg-type]


def test_a_changed_toolchain_misses(tools: Toolchain, bytecode: bytes, tmp_path: Path) -> None:
    old = compile_cubin(bytecode, "sm_90", cache_dir=tmp_path, toolchain=tools)
    assert lookup(bytecode, "sm_90", toolchain="tileiras-13.5.37", cache_dir=tmp_path) is None
    newer = dataclasses.replace(tools, version="13.5.37")  # the same binary, another release
    new = compile_cubin(bytecode, "sm_90", cache_dir=tmp_path, toolchain=newer)
    assert new.compiled and new.toolchain == "tileiras-13.5.37"
    assert new.path.parent == old.path.parent  # one build key, one entry per toolchain
    assert files(old.path.parent) == [
        ".lock",
        f"{PINNED}.cubin",
        f"{PINNED}.json",
        "tileiras-13.5.37.cubin",
        "tileiras-13.5.37.json",
    ]
    # the installed (pinned) toolchain's entry is the one a default lookup finds
    found = lookup(bytecode, "sm_90", cache_dir=tmp_path)
    assert found is not None and found.toolchain == PINNED


# --------------------------------------------------------------------------
# A machine with no tileiras (a GPU machine served by a cache built elsewhere)
# --------------------------------------------------------------------------


@pytest.fixture
def no_tileiras(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> Toolchain:
        raise ToolchainError("tileiras was not found")

    monkeypatch.setattr(toolchains, "default_toolchain", missing)


@pytest.mark.usefixtures("no_tileiras")
def test_lookup_without_tileiras(tools: Toolchain, bytecode: bytes, tmp_path: Path) -> None:
    built = tmp_path / "built-here"
    entry = compile_cubin(bytecode, "sm_90", cache_dir=built, toolchain=tools)
    carried = tmp_path / "on-the-gpu-machine"
    shutil.copytree(built, carried)
    found = lookup(bytecode, "sm_90", cache_dir=carried)
    assert found is not None
    assert (found.cubin, found.toolchain, found.compiled) == (entry.cubin, PINNED, False)
    assert lookup(bytecode, "sm_90", opt=1, cache_dir=carried) is None
    with pytest.raises(ToolchainError):  # building needs tileiras
        compile_cubin(bytecode, "sm_90", opt=1, cache_dir=carried)


@pytest.mark.usefixtures("no_tileiras")
def test_recorded_toolchain_preference(tools: Toolchain, bytecode: bytes, tmp_path: Path) -> None:
    """With no tileiras: the pinned release's entry if there is one, else the newest."""
    for version in ("13.5.37", "13.10.1", PINNED_VERSION):
        compile_cubin(
            bytecode,
            "sm_90",
            cache_dir=tmp_path,
            toolchain=dataclasses.replace(tools, version=version),
        )
    found = lookup(bytecode, "sm_90", cache_dir=tmp_path)
    assert found is not None and found.toolchain == PINNED
    found.path.with_suffix(".json").unlink()
    newest = lookup(bytecode, "sm_90", cache_dir=tmp_path)
    assert newest is not None and newest.toolchain == "tileiras-13.10.1"
    pinned = lookup(bytecode, "sm_90", toolchain="tileiras-13.5.37", cache_dir=tmp_path)
    assert pinned is not None and pinned.toolchain == "tileiras-13.5.37"


# --------------------------------------------------------------------------
# Corrupt entries
# --------------------------------------------------------------------------


def _truncate(entry: CacheEntry) -> None:
    entry.path.write_bytes(entry.cubin[: len(entry.cubin) // 2])


def _other_elf(entry: CacheEntry) -> None:
    entry.path.write_bytes(entry.cubin[:-1] + bytes([entry.cubin[-1] ^ 1]))


def _not_elf(entry: CacheEntry) -> None:
    entry.path.write_bytes(b"garbage")


def _bad_metadata(entry: CacheEntry) -> None:
    entry.metadata_path.write_text("{not json")


def _metadata_of_another_key(entry: CacheEntry) -> None:
    text = entry.metadata_path.read_text()
    entry.metadata_path.write_text(text.replace('"opt": 3', '"opt": 2'))


def _no_cubin(entry: CacheEntry) -> None:
    entry.path.unlink()


def _metadata_not_a_dict(entry: CacheEntry) -> None:
    entry.metadata_path.write_text("[1, 2]")


@pytest.mark.parametrize(
    "damage",
    [
        _truncate,
        _other_elf,
        _not_elf,
        _bad_metadata,
        _metadata_of_another_key,
        _no_cubin,
        _metadata_not_a_dict,
    ],
    ids=lambda f: f.__name__.strip("_"),
)
def test_corrupt_entries_are_rebuilt(
    tools: Toolchain, bytecode: bytes, tmp_path: Path, damage: object
) -> None:
    good = compile_cubin(bytecode, "sm_90", cache_dir=tmp_path, toolchain=tools)
    damage(good)  # type: ignore[operator]
    assert lookup(bytecode, "sm_90", cache_dir=tmp_path) is None
    rebuilt = compile_cubin(bytecode, "sm_90", cache_dir=tmp_path, toolchain=tools)
    assert rebuilt.compiled and rebuilt.cubin == good.cubin
    assert rebuilt.path.read_bytes() == good.cubin
    assert lookup(bytecode, "sm_90", cache_dir=tmp_path) is not None


# --------------------------------------------------------------------------
# Several processes at once
# --------------------------------------------------------------------------


def _compile_in_child(
    bytecode: bytes,
    folder: str,
    start: Barrier,
    results: multiprocessing.Queue,  # type: ignore[type-arg]
) -> None:
    start.wait()
    entry = compile_cubin(bytecode, "sm_90", cache_dir=folder)
    results.put((entry.compiled, entry.cubin))


def test_concurrent_compiles_make_one_entry(
    real_tools: Toolchain, bytecode: bytes, tmp_path: Path
) -> None:
    context = multiprocessing.get_context("fork")
    start = context.Barrier(PROCESSES)
    results = context.Queue()
    children = [
        context.Process(target=_compile_in_child, args=(bytecode, str(tmp_path), start, results))
        for _ in range(PROCESSES)
    ]
    for child in children:
        child.start()
    outcomes = [results.get(timeout=120) for _ in children]
    for child in children:
        child.join(timeout=60)
        assert child.exitcode == 0
    compiled = [c for c, _ in outcomes]
    cubins = {data for _, data in outcomes}
    assert sorted(compiled) == [False] * (PROCESSES - 1) + [True]  # one compile, three hits
    assert len(cubins) == 1
    (cubin,) = cubins
    assert cubin[:4] == b"\x7fELF"
    (folder,) = (tmp_path / LAYOUT).glob("*/*")
    assert files(folder) == [".lock", f"{PINNED}.cubin", f"{PINNED}.json"]  # no temporaries left
    entry = lookup(bytecode, "sm_90", cache_dir=tmp_path)
    assert entry is not None and entry.cubin == cubin
    assert cache.build_key(bytecode, CompileOptions("sm_90")) == folder.name
