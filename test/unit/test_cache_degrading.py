"""The cubin cache degrades, never fails a build or a launch (``backend/cache.py``).

Where the cache folder cannot be written, a cubin is built in memory and a
``CacheWarning`` is given once; any corrupt entry (metadata nested too deep
for the JSON reader, a folder where a file belongs, a file where a folder
does) is a miss that is rebuilt and replaced.  On the vector add, through a
stand-in ``tileiras`` writing the pinned toolchain's cubin of it
(``stand_in_toolchain``); the launch runs the real one.
"""

from __future__ import annotations

import errno
import json
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import safetile as st
from cache_support import bytecode, real_tools, tools  # noqa: F401 (fixtures)
from safetile.backend import cache
from safetile.backend.cache import CacheEntry, CacheWarning, compile_cubin, lookup
from safetile.backend.toolchain import Toolchain
from safetile.frontend.dsl import f32
from safetile.runtime import LaunchCache
from fake_cuda import fake_cuda



@pytest.fixture(autouse=True)
def fresh_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "_warned", set())


def compile_twice_warning_once(bytecode: bytes, folder: Path, tools: Toolchain) -> CacheEntry:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = compile_cubin(bytecode, "sm_90", cache_dir=folder, toolchain=tools)
        again = compile_cubin(bytecode, "sm_90", opt=2, cache_dir=folder, toolchain=tools)
    said = [w for w in caught if issubclass(w.category, CacheWarning)]
    assert len(said) == 1, [str(w.message) for w in caught]
    assert f"the cubin cache {folder} cannot be written" in str(said[0].message)
    assert "built in memory" in str(said[0].message)
    for entry in (first, again):
        assert entry.compiled and not entry.stored and entry.cubin.startswith(b"\x7fELF")
    return first


def test_a_cache_folder_that_is_a_file_builds_in_memory_and_warns_once(
        tools: Toolchain, bytecode: bytes, tmp_path: Path) -> None:
    folder = tmp_path / "not-a-folder"
    folder.write_text("the user's file")
    compile_twice_warning_once(bytecode, folder, tools)
    assert folder.read_text() == "the user's file"  # not the cache's to remove


def test_a_read_only_cache_folder_builds_in_memory_and_warns_once(
        tools: Toolchain, bytecode: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_mkdir = Path.mkdir

    def read_only(self: Path, *args: object, **kwargs: object) -> None:
        if tmp_path in self.parents:
            raise PermissionError(errno.EROFS, "Read-only file system", str(self))
        real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "mkdir", read_only)
    compile_twice_warning_once(bytecode, tmp_path, tools)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_builds_in_memory_and_warns_once(
        tools: Toolchain, bytecode: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(cache, "write_atomically", full)
    compile_twice_warning_once(bytecode, tmp_path, tools)
    monkeypatch.undo()
    assert lookup(bytecode, "sm_90", cache_dir=tmp_path) is None
    assert compile_cubin(bytecode, "sm_90", cache_dir=tmp_path, toolchain=tools).stored  # writable again


def _deep_metadata(entry: CacheEntry) -> None:
    entry.metadata_path.write_text("[" * 100_000 + "]" * 100_000)


def _cubin_is_a_folder(entry: CacheEntry) -> None:
    entry.path.unlink()
    (entry.path / "inside").mkdir(parents=True)


def _metadata_is_a_folder(entry: CacheEntry) -> None:
    entry.metadata_path.unlink()
    entry.metadata_path.mkdir()


def _lock_is_a_folder(entry: CacheEntry) -> None:
    entry.path.unlink()
    (entry.path.parent / ".lock").unlink()
    (entry.path.parent / ".lock").mkdir()


def _entry_folder_is_a_file(entry: CacheEntry) -> None:
    folder = entry.path.parent
    for f in folder.iterdir():
        f.unlink()
    folder.rmdir()
    folder.write_bytes(b"junk")


def _prefix_folder_is_a_file(entry: CacheEntry) -> None:
    prefix = entry.path.parent.parent
    import shutil

    shutil.rmtree(prefix)
    prefix.write_bytes(b"junk")


def _metadata_not_utf8(entry: CacheEntry) -> None:
    entry.metadata_path.write_bytes(b"\xff\xfe{")


def _metadata_fields_of_other_types(entry: CacheEntry) -> None:
    metadata = json.loads(entry.metadata_path.read_text())
    metadata.update(kernels=7, opt=[3], build_key={"a": 1})
    entry.metadata_path.write_text(json.dumps(metadata))


@pytest.mark.parametrize("damage", [
    _deep_metadata, _cubin_is_a_folder, _metadata_is_a_folder, _lock_is_a_folder, _entry_folder_is_a_file,
    _prefix_folder_is_a_file, _metadata_not_utf8, _metadata_fields_of_other_types,
], ids=lambda f: f.__name__.strip("_"))
def test_any_corrupt_entry_is_rebuilt_and_replaced(
        tools: Toolchain, bytecode: bytes, tmp_path: Path, damage: Callable[[CacheEntry], None]) -> None:
    good = compile_cubin(bytecode, "sm_90", cache_dir=tmp_path, toolchain=tools)
    damage(good)
    assert lookup(bytecode, "sm_90", cache_dir=tmp_path) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)  # the cache is writable: replaced, not degraded
        rebuilt = compile_cubin(bytecode, "sm_90", cache_dir=tmp_path, toolchain=tools)
    assert rebuilt.compiled and rebuilt.stored and rebuilt.cubin == good.cubin
    assert rebuilt.path.read_bytes() == good.cubin
    found = lookup(bytecode, "sm_90", cache_dir=tmp_path)
    assert found is not None and not found.compiled


@st.kernel
def negate_for_cache_test(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.zeros(z.shape, f32) - st.load_tile_like(x, z))


def test_a_launch_with_an_unwritable_cache_runs(real_tools: Toolchain, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "cache"
    blocked.write_text("not a folder")
    monkeypatch.setenv(cache.CACHE_ENV, str(blocked))
    with fake_cuda("bindings"):
        negate_for_cache_test.launch_cache = LaunchCache()
        z = st.zeros((256,)).sync().partition((128,))
        x = st.from_numpy(np.ones(256, np.float32)).sync()
        with pytest.warns(CacheWarning, match="built in memory"):
            z, x = negate_for_cache_test(z, x).sync()
        assert z.is_live and x.is_live
    negate_for_cache_test.launch_cache = LaunchCache()
