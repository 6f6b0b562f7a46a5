"""NVIDIA's Tile IR toolchain: where ``tileiras`` is, and whether its parts agree.

``tileiras`` lowers Tile IR bytecode through libNVVM and ``ptxas``; the three
must come from one CUDA release (safetile pins 13.4.92).  ``find_toolchain``
looks, in this order (shared/DESIGN.md §5):

1. the pip wheels of the running interpreter's environment:
   ``nvidia-cuda-tileiras`` (``nvidia/cu13/bin/tileiras``), ``nvidia-nvvm``
   (``nvidia/cu13/lib/libnvvm.so.4``) and ``nvidia-cuda-nvcc``
   (``nvidia/cu13/bin/ptxas``);
2. ``tileiras`` on ``PATH``;
3. ``$CUDA_HOME/bin/tileiras`` (or ``$CUDA_PATH``).

A release other than the default is asked for by ``version=`` (or
``$SAFETILE_TILEIRAS_VERSION``, which ``default_toolchain`` reads): the
first of the three places that holds that release is used, so the pinned
wheels and, say, a 13.5 toolkit on ``PATH`` can sit side by side.
``RELEASES`` are the ones safetile is tested with, each installed by its
extra: 13.4.92 (``toolchain``, the default) and 13.5.37 (``toolchain-13-5``,
which reads and compiles the bytecode safetile writes: 13.4, and 13.5, what
the cubin cache gives it; see ``backend/cache.py``).

Whichever ``tileiras`` is found, its libNVVM and ``ptxas`` are the ones it
loads itself: ``<bin>/ptxas`` and ``<bin>/../nvvm/lib64/libnvvm.so`` (CUDA
toolkit layout) or ``<bin>/../lib/libnvvm.so.4`` (wheel layout).  Their
versions are read from the wheels' metadata (wheels only), ``tileiras
--version``, ``ptxas --version`` and the release string inside libNVVM; any
disagreement raises ``ToolchainError`` naming every version seen.
"""

from __future__ import annotations

import functools
import importlib.metadata
import mmap
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PINNED_VERSION = "13.4.92"
"""The release ``pyproject.toml`` pins (its ``toolchain`` extra): the default."""

RELEASES = {PINNED_VERSION: "toolchain", "13.5.37": "toolchain-13-5"}
"""The releases safetile is tested with, and the ``pyproject.toml`` extra pinning each."""

VERSION_ENV = "SAFETILE_TILEIRAS_VERSION"
"""Names the release ``default_toolchain`` must find (default: any, the pinned one installed)."""

INSTALL_HINT = (
    "install the pinned toolchain into this Python environment: "
    "pip install -e '.[toolchain]' (that is nvidia-cuda-tileiras, nvidia-nvvm and "
    f"nvidia-cuda-nvcc, all =={PINNED_VERSION})"
)

WHEELS = {
    "tileiras": "nvidia-cuda-tileiras",
    "libnvvm": "nvidia-nvvm",
    "ptxas": "nvidia-cuda-nvcc",
}
"""The wheel each part of the toolchain comes from."""

WHEEL_BIN = "nvidia/cu13/bin"
"""Where the wheels put their executables, relative to site-packages."""

_VERSION = re.compile(rb"Cuda compilation tools, release \d+\.\d+, V(\d+\.\d+\.\d+)")
VERSION_QUERY_TIMEOUT = 60.0
"""Seconds ``tileiras --version`` / ``ptxas --version`` may take."""


class ToolchainError(RuntimeError):
    """The toolchain is missing, incomplete or mixes releases; the message says how to fix it."""


@dataclass(frozen=True)
class Toolchain:
    """A ``tileiras`` whose libNVVM and ``ptxas`` were checked to be of one release."""

    tileiras: Path
    ptxas: Path
    libnvvm: Path
    version: str
    """The release all parts report, e.g. ``13.4.92``."""
    origin: str
    """Where it was found: ``wheels``, ``PATH`` or ``CUDA_HOME``."""

    @property
    def id(self) -> str:
        """What the cubin cache records as the compiler: ``tileiras-13.4.92``."""
        return f"tileiras-{self.version}"

    def tool(self, name: str) -> Path:
        """Another CUDA tool next to ``tileiras`` (``tileirdisasm``, ``cuobjdump``, ...)."""
        path = self.tileiras.parent / name
        if not path.is_file():
            raise ToolchainError(
                f"{name} not found next to {self.tileiras}; install it from the same "
                f"release ({self.version}), e.g. pip install -e '.[toolchain]'"
            )
        return path


def find_toolchain(
    *,
    wheels: bool = True,
    path: str | None = None,
    cuda_home: str | None = None,
    version: str | None = None,
) -> Toolchain:
    """Find ``tileiras`` (wheels, then ``PATH``, then ``CUDA_HOME``) and check its parts.

    ``path`` and ``cuda_home`` default to the environment (``PATH``;
    ``CUDA_HOME`` or ``CUDA_PATH``); ``wheels=False`` skips step 1.  With
    ``version`` (``13.5.37``) the first place holding that release is used
    (the ones before it are still checked: a broken toolchain is an error,
    not skipped).  Raises ``ToolchainError`` when nothing is found, the parts
    disagree or no place holds the release asked for.
    """
    found: list[Toolchain] = []
    for tools in _places(wheels, path, cuda_home):
        if version is None or tools.version == version:
            return tools
        found.append(tools)
    if not found:
        raise _not_found(wheels, cuda_home)
    extra = RELEASES.get(version)
    how = (
        f"pip install -e '.[{extra}]'"
        if extra
        else f"a CUDA {version} toolkit (safetile is tested with {', '.join(RELEASES)})"
    )
    seen = ", ".join(f"{t.version} in {t.origin} ({t.tileiras})" for t in found)
    raise ToolchainError(
        f"tileiras {version} was asked for ({VERSION_ENV} or version=), but the "
        f"toolchains found are {seen}; install {version}: {how}, or put its "
        "bin folder on PATH"
    )


def _places(wheels: bool, path: str | None, cuda_home: str | None) -> Iterator[Toolchain]:
    """The toolchain of each place holding a ``tileiras``, in search order.

    A generator, so that a place after the one used is never asked its versions."""
    if wheels and (found := _from_wheels()) is not None:
        yield found
    search = os.environ.get("PATH", "") if path is None else path
    if on_path := shutil.which("tileiras", path=search):
        yield _from_directory(Path(on_path), "PATH")
    home = _cuda_home() if cuda_home is None else cuda_home
    if home and (candidate := Path(home) / "bin" / "tileiras").is_file():
        yield _from_directory(candidate, "CUDA_HOME")


def _not_found(wheels: bool, cuda_home: str | None) -> ToolchainError:
    home = _cuda_home() if cuda_home is None else cuda_home
    wheel = f"no {WHEELS['tileiras']} wheel in this Python environment ({sys.prefix})"
    where = f"$CUDA_HOME/bin ({home})" if home else "CUDA_HOME (not set)"
    return ToolchainError(
        "tileiras (NVIDIA's Tile IR assembler) was not found: "
        f"{wheel if wheels else 'wheels not searched'}, none on PATH, none in {where}; "
        + INSTALL_HINT
    )


def default_toolchain() -> Toolchain:
    """``find_toolchain()`` of the release ``$SAFETILE_TILEIRAS_VERSION`` names, if any."""
    return _default_toolchain(os.environ.get(VERSION_ENV) or None)


@functools.cache
def _default_toolchain(version: str | None) -> Toolchain:
    return find_toolchain(version=version)


def _cuda_home() -> str:
    return os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or ""


def _from_wheels() -> Toolchain | None:
    """The toolchain of this environment's wheels; None if nvidia-cuda-tileiras is absent."""
    try:
        dist = importlib.metadata.distribution(WHEELS["tileiras"])
    except importlib.metadata.PackageNotFoundError:
        return None
    tileiras = Path(str(dist.locate_file(f"{WHEEL_BIN}/tileiras")))
    if not tileiras.is_file():
        raise ToolchainError(
            f"the {WHEELS['tileiras']} wheel is installed but {tileiras} is missing; "
            f"reinstall it: pip install --force-reinstall "
            f"{WHEELS['tileiras']}=={dist.version}"
        )
    versions = {f"{WHEELS['tileiras']} wheel": dist.version}
    for part in ("libnvvm", "ptxas"):
        try:
            versions[f"{WHEELS[part]} wheel"] = importlib.metadata.version(WHEELS[part])
        except importlib.metadata.PackageNotFoundError:
            raise ToolchainError(
                f"tileiras needs {part} from the {WHEELS[part]} wheel, which is not "
                f"installed; {INSTALL_HINT}"
            ) from None
    return _checked(tileiras, "wheels", versions)


def _from_directory(tileiras: Path, origin: str) -> Toolchain:
    return _checked(tileiras.resolve(), origin, {})


def _checked(tileiras: Path, origin: str, versions: dict[str, str]) -> Toolchain:
    """The toolchain around ``tileiras`` once every version in ``versions`` and its parts agree."""
    ptxas = tileiras.parent / "ptxas"
    if not ptxas.is_file():
        raise ToolchainError(
            f"tileiras at {tileiras} runs {ptxas}, which is missing "
            f"(it comes from {WHEELS['ptxas']} or the CUDA toolkit); {INSTALL_HINT}"
        )
    libnvvm = _libnvvm(tileiras)
    versions[f"{tileiras} --version"] = _reported_version(tileiras)
    versions[f"{ptxas} --version"] = _reported_version(ptxas)
    versions[str(libnvvm)] = _library_version(libnvvm)
    distinct = set(versions.values())
    if len(distinct) != 1:
        seen = "; ".join(f"{where}: {v}" for where, v in versions.items())
        raise ToolchainError(
            f"the Tile IR toolchain found in {origin} mixes CUDA releases ({seen}); "
            "tileiras, libNVVM and ptxas must be of one release. " + INSTALL_HINT.capitalize()
        )
    return Toolchain(tileiras, ptxas, libnvvm, distinct.pop(), origin)


def _libnvvm(tileiras: Path) -> Path:
    """The libNVVM that ``tileiras`` loads: toolkit layout first, then the wheel layout."""
    root = tileiras.parent.parent
    candidates = (root / "nvvm" / "lib64" / "libnvvm.so", root / "lib" / "libnvvm.so.4")
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise ToolchainError(
        f"tileiras at {tileiras} needs libNVVM at {candidates[0]} or {candidates[1]}; "
        f"neither exists (it comes from {WHEELS['libnvvm']} or the CUDA toolkit); " + INSTALL_HINT
    )


def _reported_version(tool: Path) -> str:
    """The ``V13.4.92`` that ``tool --version`` prints."""
    try:
        done = subprocess.run(
            [str(tool), "--version"],
            capture_output=True,
            timeout=VERSION_QUERY_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        raise ToolchainError(f"could not run {tool} --version ({err}); {INSTALL_HINT}") from None
    match = _VERSION.search(done.stdout)
    if done.returncode != 0 or match is None:
        raise ToolchainError(
            f"{tool} --version exited with status {done.returncode} and printed no CUDA "
            f"release ({done.stdout.decode(errors='replace').strip()!r}); {INSTALL_HINT}"
        )
    return match.group(1).decode()


def _library_version(library: Path) -> str:
    """The release string NVIDIA compiles into libNVVM (``nvvmVersion`` only says 2.0)."""
    try:
        with library.open("rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as m:
            match = _VERSION.search(m)  # type: ignore[call-overload]
            version = None if match is None else bytes(match.group(1)).decode()
    except (OSError, ValueError) as err:
        raise ToolchainError(f"could not read {library} ({err}); {INSTALL_HINT}") from None
    if version is None:
        raise ToolchainError(f"{library} names no CUDA release; {INSTALL_HINT}")
    return version
