"""The on-disk cubin cache, and ahead-of-time compilation through it.

    entry = compile_cubin(module, arch="sm_90")       # or bytecode bytes; no GPU needed
    entry.cubin, entry.path                            # the ELF, and where it lies
    lookup(module, arch="sm_90")                       # CacheEntry or None; never compiles

Location: ``cache_dir=``, else ``$SAFETILE_CACHE_DIR``, else
``$XDG_CACHE_HOME/safetile``, else ``~/.cache/safetile``.

Key.  An entry is found by two parts:

* the *build key*, a SHA-256 over the layout version, the bytecode's SHA-256
  and the options (``arch``, ``opt``, ``lineinfo``), names a folder
  ``cubin-v1/<first two hex digits>/<build key>/``;
* the *toolchain id* (``tileiras-13.4.92``) names the files in it:
  ``<toolchain id>.cubin`` and ``<toolchain id>.json`` (the metadata: every
  key field, the kernels, the cubin's SHA-256 and size).

Compiling uses the toolchain found here, so a new ``tileiras`` misses and
builds a new entry beside the old.  A lookup on a machine with no
``tileiras`` (a GPU machine served by a cache built elsewhere) cannot ask the
compiler its version: it takes the release ``$SAFETILE_TILEIRAS_VERSION``
names, else the toolchain id from the entries in the folder, preferring the
pinned release, else the newest.  ``toolchain=`` pins it.

Bytecode version.  A module (not bytes) is written as the bytecode of the
release it is compiled by (``bytecode_version_for``: 13.4 for tileiras 13.4.92,
13.5 for 13.5.37), so selecting 13.5.37 gives it 13.5's encodings.  That
release is ``toolchain=``'s, else the installed one's (which
``$SAFETILE_TILEIRAS_VERSION`` selects), else, with none installed, the one
that variable names, else the pinned one.  ``version=`` overrides it.  There
is no fallback to older bytecode: 13.5 expresses everything 13.4 does except
tensor_view kernel arguments, which 13.5.37 refuses in 13.4 files too, so
the writer's ``BytecodeWriteError`` (naming what and the version) is the
answer.

Checks.  An entry is used only if its metadata parses and matches the key and
toolchain, and the cubin is an ELF file with the recorded SHA-256; anything
else is a miss, and ``compile_cubin`` rebuilds it and replaces whatever is in
its place (a folder where a file belongs, a file where a folder does).

Degrading.  The cache never fails a build: where its folder cannot be
written (read-only, full, a file in the way that is not the cache's), the
cubin is built in memory (``CacheEntry.stored`` is False) and a
``CacheWarning`` is given, once per process and cache folder.

Concurrency.  Files are written to a temporary file in the same folder and
renamed over the old (``os.replace``), cubin first, metadata last, so a reader
never sees a torn file.  Builders of one key take an exclusive ``flock`` on
``<build key>/.lock`` and look again once they hold it, so concurrent
processes compile a kernel once and agree on the result.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xdsl.ir import Operation

from safetile.backend.bytecode import (
    SUPPORTED_VERSIONS,
    BytecodeReadError,
    Version,
    read_bytecode,
    write_bytecode,
)

from . import toolchain as toolchains
from .tileiras import ELF_MAGIC, CompileOptions, KernelSymbol, kernels_of, run_tileiras

CACHE_ENV = "SAFETILE_CACHE_DIR"
LAYOUT = "cubin-v1"
"""The cache's layout version: the top folder, and part of every build key."""

_ARCH_FREE_SINCE = Version(13, 3)
"""Bytecode of 13.3 or later names no architecture; older bytecode must."""

_RELEASE = re.compile(r"(?P<major>\d+)\.(?P<minor>\d+)(\.\d+)?")


def default_cache_dir() -> Path:
    """``$SAFETILE_CACHE_DIR``, else ``$XDG_CACHE_HOME/safetile``, else ``~/.cache/safetile``."""
    if explicit := os.environ.get(CACHE_ENV):
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "safetile"


@dataclass(frozen=True)
class CacheEntry:
    """A cubin in the cache, with what it was built from."""

    path: Path
    """The ``.cubin`` file."""
    cubin: bytes
    build_key: str
    toolchain: str
    bytecode_sha256: str
    options: CompileOptions
    kernels: tuple[str, ...]
    compiled: bool
    """True when this call ran ``tileiras``; False when the cache had it."""
    stored: bool = True
    """False when the cache folder could not be written: the cubin was built in memory and
    ``path`` is where it would have been."""

    @property
    def metadata_path(self) -> Path:
        return self.path.with_suffix(".json")


def build_key(bytecode: bytes, options: CompileOptions) -> str:
    """The toolchain-independent part of the key (see the module docstring)."""
    fields = {
        "layout": LAYOUT,
        "bytecode_sha256": _sha256(bytecode),
        "arch": options.arch,
        "opt": options.opt,
        "lineinfo": options.lineinfo,
    }
    if options.sanitize:  # only when set, so that keys of plain builds stay as they were
        fields["sanitize"] = options.sanitize
    return _sha256(json.dumps(fields, sort_keys=True).encode())


def bytecode_version_for(release: str) -> Version:
    """The bytecode given to ``tileiras`` of ``release`` (``13.5.37``): its own
    version, or for a release newer than safetile writes, the newest it writes."""
    if (parsed := _RELEASE.fullmatch(release)) is None:
        raise toolchains.ToolchainError(
            f"'{release}' is not a CUDA release (e.g. {toolchains.PINNED_VERSION}); "
            f"check {toolchains.VERSION_ENV}"
        )
    own = Version(int(parsed["major"]), int(parsed["minor"]))
    readable = [v for v in SUPPORTED_VERSIONS if v <= own]
    if not readable:
        raise toolchains.ToolchainError(
            f"tileiras {release} predates Tile IR bytecode {SUPPORTED_VERSIONS[0]}, the oldest "
            "safetile writes; " + toolchains.INSTALL_HINT
        )
    return readable[-1]


def selected_release() -> str:
    """The tileiras release kernels are compiled by here (see "Bytecode version")."""
    return _release(_selected_toolchain_id())


def to_bytecode(
    source: Operation | bytes, arch: str, version: Version | str | None = None
) -> bytes:
    """``source`` as bytecode: bytes are taken as they are, a module is written as
    ``version`` (default: ``bytecode_version_for(selected_release())``).

    Bytecode before 13.3 targets one GPU, so it is written for ``arch``.
    """
    if isinstance(source, bytes):
        return source
    if version is None:
        version = bytecode_version_for(selected_release())
    elif isinstance(version, str):
        version = Version.parse(version)
    older = version < _ARCH_FREE_SINCE
    return write_bytecode(source, version, arch if older else None)


def lookup(
    source: Operation | bytes,
    arch: str,
    opt: int = 3,
    *,
    lineinfo: bool = True,
    sanitize: str | None = None,
    version: Version | str | None = None,
    toolchain: str | None = None,
    cache_dir: Path | str | None = None,
) -> CacheEntry | None:
    """The cached cubin of ``source`` for these options, or None; never compiles.

    ``toolchain`` is a toolchain id (``tileiras-13.4.92``); by default the
    installed toolchain's, or where none is installed, that of the release
    ``$SAFETILE_TILEIRAS_VERSION`` names, else the entries' own.  A module is
    written as that release's bytecode unless ``version`` says otherwise.
    """
    toolchain = toolchain or _selected_toolchain_id()
    if version is None:
        version = bytecode_version_for(_release(toolchain))
    bytecode = to_bytecode(source, arch, version)
    options = CompileOptions(arch, opt, lineinfo, sanitize)
    folder = _folder(cache_dir, build_key(bytecode, options))
    if toolchain is None:
        toolchain = _recorded_toolchain_id(folder)
    if toolchain is None:
        return None
    return _read_entry(folder, toolchain, bytecode, options)


class MissingCubin(RuntimeError):
    """Neither the cache nor an installed ``tileiras`` can give a kernel's cubin."""


def cubin_for(
    module: Operation, arch: str, *, sanitize: str | None = None, kernel_name: str = "the kernel"
) -> CacheEntry:
    """The cubin of ``module`` for ``arch``: from the cache (no toolchain needed),
    else built by ``tileiras``; with neither, ``MissingCubin`` says how to get it."""
    found = lookup(module, arch, sanitize=sanitize)
    if found is not None:
        return found
    try:
        return compile_cubin(module, arch, sanitize=sanitize)
    except toolchains.ToolchainError as err:
        raise MissingCubin(
            f"'{kernel_name}' for {arch} is not in the cubin cache ({default_cache_dir()}; a build "
            f"by tileiras {selected_release()} was looked for, {toolchains.VERSION_ENV} names "
            "another) and "
            f"tileiras cannot build it: {err}.  Install the toolchain (pip install 'safetile[toolchain]'), "
            f"or build the cache ahead of time where it is installed (st.warm_up(kernel, specs, arch='{arch}') "
            f"with {CACHE_ENV} set) and copy that folder here"
        ) from None


def compile_cubin(
    source: Operation | bytes,
    arch: str,
    opt: int = 3,
    *,
    lineinfo: bool = True,
    sanitize: str | None = None,
    version: Version | str | None = None,
    cache_dir: Path | str | None = None,
    toolchain: toolchains.Toolchain | None = None,
    timeout: float | None = None,
) -> CacheEntry:
    """The cubin of ``source`` (a module, or bytecode) for ``arch``: from the cache, or built.

    Builds with ``tileiras`` (``toolchain``, default: ``default_toolchain()``)
    when the cache lacks a valid entry, and stores it.  A module is written as
    that toolchain's bytecode (``bytecode_version_for``) unless ``version`` says
    otherwise.  Needs no GPU.  Raises ``TileirasError`` and ``ToolchainError``
    as ``run_tileiras`` does, ``BytecodeWriteError`` for a module the bytecode
    version cannot express.
    """
    tools = toolchain or toolchains.default_toolchain()
    if version is None:
        version = bytecode_version_for(tools.version)
    bytecode = to_bytecode(source, arch, version)
    options = CompileOptions(arch, opt, lineinfo, sanitize)
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    folder = _folder(root, build_key(bytecode, options))
    if entry := _read_entry(folder, tools.id, bytecode, options):
        return entry
    try:
        lock = _lock_entry(root, folder)
    except OSError as err:
        _unwritable(root, err)
        return _build(source, bytecode, options, folder, tools, timeout, store=False)
    with lock:
        if entry := _read_entry(folder, tools.id, bytecode, options):
            return entry  # another process built it while we waited
        try:
            return _build(source, bytecode, options, folder, tools, timeout, store=True)
        except _NotStored as failed:
            _unwritable(root, failed.error)
            return failed.entry


class CacheWarning(UserWarning):
    """The cubin cache could not be written: kernels are built in memory (not cached)."""


_warned: set[Path] = set()
"""Cache folders already warned about (a warning once per process and folder)."""


def _unwritable(root: Path, err: OSError) -> None:
    if root not in _warned:
        _warned.add(root)
        warnings.warn(
            f"the cubin cache {root} cannot be written ({err}): kernels are built in memory, not cached; "
            f"make it writable or point {CACHE_ENV} to a writable folder",
            CacheWarning,
            stacklevel=3,
        )


class _NotStored(Exception):
    """A cubin was built but could not be written: its entry, and why."""

    def __init__(self, entry: CacheEntry, error: OSError):
        self.entry, self.error = entry, error


def _build(source: Operation | bytes, bytecode: bytes, options: CompileOptions, folder: Path,
           tools: toolchains.Toolchain, timeout: float | None, store: bool) -> CacheEntry:
    """Run ``tileiras`` and, with ``store``, write the entry into ``folder`` (held locked); a failed
    write raises ``_NotStored`` with the entry built in memory."""
    kernels = _kernels(source, bytecode)
    started = time.monotonic()
    cubin = run_tileiras(bytecode, options, kernels=kernels, toolchain=tools, timeout=timeout)
    metadata = {
        "layout": LAYOUT,
        "build_key": folder.name,
        "toolchain": tools.id,
        "bytecode_sha256": _sha256(bytecode),
        "arch": options.arch,
        "opt": options.opt,
        "lineinfo": options.lineinfo,
        "sanitize": options.sanitize,
        "kernels": [k.name for k in kernels],
        "cubin_sha256": _sha256(cubin),
        "cubin_size": len(cubin),
        "compile_seconds": round(time.monotonic() - started, 3),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    path = folder / f"{tools.id}.cubin"
    if not store:
        return _entry(path, cubin, metadata, options, compiled=True, stored=False)
    try:
        for file, data in ((path, cubin), (path.with_suffix(".json"), json.dumps(metadata, indent=1).encode())):
            _clear_way(file)
            write_atomically(file, data)
    except OSError as err:
        raise _NotStored(_entry(path, cubin, metadata, options, compiled=True, stored=False), err) from None
    return _entry(path, cubin, metadata, options, compiled=True)


def _clear_way(path: Path) -> None:
    """Remove a folder (or other non-file) where the cache writes the file ``path``: a corrupt entry."""
    if path.is_symlink() or not path.exists() or path.is_file():
        return
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink()


def _lock_entry(root: Path, folder: Path) -> Any:
    """``folder`` made (any file of the cache in the way of its path under ``root`` removed) and its
    ``.lock`` held; raises ``OSError`` where the cache cannot be written."""
    for part in (root / LAYOUT, folder.parent, folder):
        if part.exists() and not part.is_dir():
            part.unlink()  # a corrupt cache: a file where a folder belongs
    folder.mkdir(parents=True, exist_ok=True)
    lock = folder / ".lock"
    _clear_way(lock)
    return _Flock(lock.open("a"))


class _Flock:
    """An exclusive ``flock`` on an open file, held from creation to the end of a ``with``."""

    def __init__(self, file: Any):
        self._file = file
        try:
            fcntl.flock(file.fileno(), fcntl.LOCK_EX)
        except BaseException:
            file.close()
            raise

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
        finally:
            self._file.close()


def _kernels(source: Operation | bytes, bytecode: bytes) -> tuple[KernelSymbol, ...]:
    """The kernels, for errors and the metadata (none if our reader cannot read the bytes)."""
    if isinstance(source, Operation):
        return kernels_of(source)
    try:
        return kernels_of(read_bytecode(bytecode))
    except BytecodeReadError:
        return ()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _folder(cache_dir: Path | str | None, key: str) -> Path:
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    return root / LAYOUT / key[:2] / key


def _selected_toolchain_id() -> str | None:
    """The installed toolchain's id; with none, that of the release
    ``$SAFETILE_TILEIRAS_VERSION`` names; else None."""
    try:
        return toolchains.default_toolchain().id
    except toolchains.ToolchainError:
        named = os.environ.get(toolchains.VERSION_ENV)
        return f"tileiras-{named}" if named else None


def _release(toolchain_id: str | None) -> str:
    """``13.5.37`` of ``tileiras-13.5.37``; the pinned release for None."""
    return toolchain_id.removeprefix("tileiras-") if toolchain_id else toolchains.PINNED_VERSION


def _recorded_toolchain_id(folder: Path) -> str | None:
    """The toolchain of an entry in ``folder``: the pinned release if present, else the newest."""
    ids = [p.stem for p in folder.glob("tileiras-*.json")]
    pinned = f"tileiras-{toolchains.PINNED_VERSION}"
    if pinned in ids:
        return pinned

    def release(toolchain_id: str) -> tuple[int, ...]:
        parts = toolchain_id.removeprefix("tileiras-").split(".")
        return tuple(int(p) if p.isdigit() else -1 for p in parts)

    return max(ids, key=release, default=None)


def _read_entry(
    folder: Path, toolchain: str, bytecode: bytes, options: CompileOptions
) -> CacheEntry | None:
    """The entry for ``toolchain`` in ``folder`` if it is whole and matches; else None."""
    path = folder / f"{toolchain}.cubin"
    try:
        metadata = json.loads(path.with_suffix(".json").read_bytes())
        cubin = path.read_bytes()
    except (OSError, ValueError, RecursionError):  # unreadable, not JSON, nested too deep: a miss
        return None
    expected = {
        "layout": LAYOUT,
        "build_key": folder.name,
        "toolchain": toolchain,
        "bytecode_sha256": _sha256(bytecode),
        "arch": options.arch,
        "opt": options.opt,
        "lineinfo": options.lineinfo,
        "sanitize": options.sanitize,
        "cubin_sha256": _sha256(cubin),
    }
    if not isinstance(metadata, dict) or not cubin.startswith(ELF_MAGIC):
        return None
    if any(metadata.get(field) != value for field, value in expected.items()):
        return None
    return _entry(path, cubin, metadata, options, compiled=False)


def _entry(
    path: Path, cubin: bytes, metadata: dict[str, object], options: CompileOptions, compiled: bool,
    stored: bool = True,
) -> CacheEntry:
    kernels = metadata.get("kernels")
    return CacheEntry(
        path=path,
        cubin=cubin,
        build_key=str(metadata["build_key"]),
        toolchain=str(metadata["toolchain"]),
        bytecode_sha256=str(metadata["bytecode_sha256"]),
        options=options,
        kernels=tuple(map(str, kernels)) if isinstance(kernels, list) else (),
        compiled=compiled,
        stored=stored,
    )


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in its folder and ``os.replace``."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (created if missing) for the block."""
    with path.open("a") as file:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(file.fileno(), fcntl.LOCK_UN)
