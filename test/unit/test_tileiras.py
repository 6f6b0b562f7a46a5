"""``tileiras`` through safetile (pinned 13.4.92 wheels, CPU only): the toolchain
finder and its version checks, the driver and its errors, ``tile-opt -t cubin``,
and cubins for sm_80, sm_90 and sm_100 of a vector add, a 2-D reduction and an
f16 matmul (``mmaf`` in a ``for`` loop), checked with ``cuobjdump -sass``
(whose output the cache keeps too, keyed by the cubin's bytes).

The cubins the run's tests need are compiled in parallel into the suite's cubin
cache (built once, kept between runs); the matmul for sm_80 and sm_100 (5.6 s of
``tileiras`` together) is the full tier's, ``make test`` checks the matmul's MMA
on sm_90 and the two smaller kernels on every arch; the error paths use small fake toolchains (shell
scripts).  ``test/gpu/build_cache.py`` builds one kernel's record in ``make
test``; its whole build (every runtime variant and tuned config of the GPU
tests) runs in ``make test-full``.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import importlib.util
import json
import os
import stat
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bytecode_support import cuobjdump, skip_without_toolchain
from safetile.backend.cache import CacheEntry, compile_cubin, to_bytecode
from safetile.backend.tileiras import (
    SUPPORTED_ARCHS,
    CompileOptions,
    KernelSymbol,
    SourceLocation,
    TileirasError,
    kernels_of,
    run_tileiras,
)
from safetile.backend.toolchain import (
    PINNED_VERSION,
    Toolchain,
    ToolchainError,
    default_toolchain,
    find_toolchain,
)
from safetile.dialects.cuda_tile.attributes import GPU_ARCHS, HINT_ARCHS
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from support import EXAMPLES_DIR, REPO_ROOT, make_context, run_tile_opt, tile_opt_script

ARCHS = ("sm_80", "sm_90", "sm_100")
KERNELS = {
    "vector_add": EXAMPLES_DIR / "tileir" / "vector_add.mlir",
    "row_sum": EXAMPLES_DIR / "tileir" / "row_sum.mlir",
    "matmul": EXAMPLES_DIR / "tileir" / "matmul.mlir",
}
MMA_SASS = {"sm_80": "HMMA.16816.F32", "sm_90": "HGMMA.64x128x16.F32", "sm_100": "UTCHMMA"}
"""The tensor-core instruction of the matmul on each architecture (measured)."""

FP8_KERNEL = REPO_ROOT / "test" / "unit" / "bytecode_programs" / "fp8_fast_acc.mlir"
"""An sm_90 kernel with f8E4M3FN operands, which tileiras refuses for sm_80."""

DEBUG_INFO_STDERR = (
    '#cuda_tile.di_loc<loc("/tmp/ctx/k.py":6:0) in #cuda_tile.di_subprogram<file = <"k.py" '
    'in "/tmp/ctx">, line = 5, name = "f8k", linkageName = "f8k_Kt1_A1f8m3fn_1l0", '
    'compileUnit = <file = <"k.py" in "/tmp/ctx">>, scopeLine = 5>>: error: Incompatibility '
    "with architecture 'sm_80': unsupported type 'f8E4M3FN'\n"
    "error: failed to compile Tile IR program\n"
)
"""What tileiras 13.4.92 printed for bytecode with a debug section (cuTile's), measured."""

RELEASE = "Cuda compilation tools, release {short}, V{full}"


@pytest.fixture(scope="session")
def toolchain() -> Toolchain:
    if skip_without_toolchain():
        pytest.skip("SAFETILE_SKIP_TOOLCHAIN_TESTS=1")
    return default_toolchain()


@pytest.fixture(scope="session")
def cubins(
    toolchain: Toolchain, cubin_cache: Path, request: pytest.FixtureRequest
) -> dict[tuple[str, str], CacheEntry]:
    """The cubins (kernel x arch) this run's tests take, compiled in parallel into the suite's cache:
    ``test_cubin``'s selected cases, and the sm_90 ones the other tests read."""
    cache = cubin_cache
    selected = [item.callspec.params for item in request.session.items
                if getattr(item, "originalname", "") == "test_cubin"]
    jobs = sorted({(name, "sm_90") for name in KERNELS} | {(p["name"], p["arch"]) for p in selected})

    def build(job: tuple[str, str]) -> CacheEntry:
        name, arch = job
        module = parse_tile_ir(make_context(), KERNELS[name].read_text(), str(KERNELS[name]))
        return compile_cubin(module, arch, cache_dir=cache, toolchain=toolchain)

    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        return dict(zip(jobs, pool.map(build, jobs), strict=True))


def sass(cubin: Path, cubin_cache: Path) -> str:
    """``cuobjdump -sass`` of a cubin (kept in the suite's cache: ``bytecode_support.cuobjdump``)."""
    return cuobjdump(cubin, "-sass", cubin_cache)


# --------------------------------------------------------------------------
# Cubins
# --------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "arch"), [
    pytest.param(name, arch, marks=[pytest.mark.full] if name == "matmul" and arch != "sm_90" else [])
    for name in KERNELS for arch in ARCHS])
def test_cubin(cubins: dict[tuple[str, str], CacheEntry], cubin_cache: Path, name: str, arch: str) -> None:
    entry = cubins[name, arch]
    assert entry.cubin[:4] == b"\x7fELF"
    assert int.from_bytes(entry.cubin[18:20], "little") == 190  # e_machine: EM_CUDA
    assert entry.kernels == (name,)
    code = sass(entry.path, cubin_cache)
    target = arch if arch == "sm_80" else f"{arch}a"  # tileiras targets sm_90a, sm_100a
    assert f"code for {target}" in code
    assert f"Function : {name}" in code
    if name == "matmul":
        assert MMA_SASS[arch] in code


def test_sm90_matmul_uses_hgmma(cubins: dict[tuple[str, str], CacheEntry], cubin_cache: Path) -> None:
    code = sass(cubins["matmul", "sm_90"].path, cubin_cache)
    assert code.count("HGMMA") >= 8  # wgmma: 16 of them, measured


def test_compiling_is_deterministic(
    cubins: dict[tuple[str, str], CacheEntry], toolchain: Toolchain
) -> None:
    module = parse_tile_ir(make_context(), KERNELS["vector_add"].read_text())
    again = run_tileiras(to_bytecode(module, "sm_90"), CompileOptions("sm_90"), toolchain=toolchain)
    assert again == cubins["vector_add", "sm_90"].cubin


# --------------------------------------------------------------------------
# Finding the toolchain
# --------------------------------------------------------------------------


def test_wheels_are_found_first(toolchain: Toolchain) -> None:
    assert toolchain.origin == "wheels"
    assert toolchain.version == PINNED_VERSION
    assert toolchain.id == f"tileiras-{PINNED_VERSION}"
    assert toolchain.tileiras.name == "tileiras"
    assert toolchain.tileiras.parent == toolchain.ptxas.parent
    assert toolchain.libnvvm.name == "libnvvm.so.4"


def test_path_then_cuda_home(toolchain: Toolchain) -> None:
    bin_dir = toolchain.tileiras.parent
    on_path = find_toolchain(wheels=False, path=str(bin_dir), cuda_home="")
    assert (on_path.origin, on_path.version) == ("PATH", PINNED_VERSION)
    home = find_toolchain(wheels=False, path="", cuda_home=str(bin_dir.parent))
    assert (home.origin, home.tileiras) == ("CUDA_HOME", toolchain.tileiras)


def test_missing_toolchain_says_how_to_install(tmp_path: Path) -> None:
    with pytest.raises(ToolchainError) as err:
        find_toolchain(wheels=False, path=str(tmp_path), cuda_home=str(tmp_path))
    message = str(err.value)
    assert "tileiras (NVIDIA's Tile IR assembler) was not found" in message
    assert "pip install -e '.[toolchain]'" in message
    assert f"nvidia-cuda-tileiras, nvidia-nvvm and nvidia-cuda-nvcc, all =={PINNED_VERSION}" in (
        message
    )


def fake_toolkit(
    root: Path, tileiras: str, ptxas: str | None = "13.4.92", nvvm: str | None = "13.4.92"
) -> Path:
    """A CUDA-toolkit-like folder whose tools report the given releases; its bin folder."""
    bin_dir = root / "bin"
    bin_dir.mkdir(parents=True)
    tools = {"tileiras": tileiras, "ptxas": ptxas}
    for tool, version in tools.items():
        if version is not None:
            short = ".".join(version.split(".")[:2])
            script(bin_dir / tool, f"echo '{RELEASE.format(short=short, full=version)}'")
    if nvvm is not None:
        lib = root / "nvvm" / "lib64"
        lib.mkdir(parents=True)
        short = ".".join(nvvm.split(".")[:2])
        (lib / "libnvvm.so").write_bytes(
            b"\0ELF..." + RELEASE.format(short=short, full=nvvm).encode() + b"\0"
        )
    return bin_dir


def script(path: Path, body: str) -> Path:
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_a_matching_fake_toolkit_is_accepted(tmp_path: Path) -> None:
    bin_dir = fake_toolkit(tmp_path, "13.4.92")
    found = find_toolchain(wheels=False, path=str(bin_dir))
    assert found.libnvvm == tmp_path / "nvvm" / "lib64" / "libnvvm.so"
    assert found.id == "tileiras-13.4.92"


@pytest.mark.parametrize(
    ("ptxas", "nvvm", "wrong"),
    [
        ("13.5.37", "13.4.92", "ptxas --version: 13.5.37"),
        ("13.4.92", "13.5.37", "libnvvm.so: 13.5.37"),
    ],
)
def test_mixed_releases_are_refused(tmp_path: Path, ptxas: str, nvvm: str, wrong: str) -> None:
    bin_dir = fake_toolkit(tmp_path, "13.4.92", ptxas=ptxas, nvvm=nvvm)
    with pytest.raises(ToolchainError) as err:
        find_toolchain(wheels=False, path=str(bin_dir))
    message = str(err.value)
    assert "mixes CUDA releases" in message
    assert wrong in message
    assert "tileiras --version: 13.4.92" in message
    assert "pip install -e '.[toolchain]'" in message


def test_mixed_wheels_are_refused(toolchain: Toolchain, monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.metadata.version

    def version(name: str) -> str:
        return "13.5.37" if name == "nvidia-nvvm" else real(name)

    monkeypatch.setattr(importlib.metadata, "version", version)
    with pytest.raises(ToolchainError, match="nvidia-nvvm wheel: 13.5.37"):
        find_toolchain()


@pytest.mark.parametrize(
    ("missing", "says"), [("ptxas", "runs .*ptxas, which is missing"), ("nvvm", "needs libNVVM")]
)
def test_incomplete_toolkit(tmp_path: Path, missing: str, says: str) -> None:
    kwargs = {missing: None}
    bin_dir = fake_toolkit(tmp_path, "13.4.92", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(ToolchainError, match=says):
        find_toolchain(wheels=False, path=str(bin_dir))


# --------------------------------------------------------------------------
# Running tileiras
# --------------------------------------------------------------------------


def fake_tileiras(tmp_path: Path, body: str) -> Toolchain:
    """A toolchain whose tileiras is the shell script ``body``."""
    tool = script(tmp_path / "tileiras", body)
    return Toolchain(tool, tool, tool, "13.4.92", "PATH")


def test_the_arch_list_is_the_dialects() -> None:
    """One list of GPU architectures: the hints' keys are it and ``default``."""
    assert SUPPORTED_ARCHS is GPU_ARCHS and HINT_ARCHS == (*GPU_ARCHS, "default")


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown GPU architecture 'sm_91'; tileiras supports"):
        CompileOptions("sm_91")
    with pytest.raises(ValueError, match="optimization level must be 0, 1, 2 or 3"):
        CompileOptions("sm_90", opt=4)
    assert CompileOptions("sm_90").flags() == ["--gpu-name", "sm_90", "-O3", "--lineinfo"]
    assert CompileOptions("sm_80", 1, False).flags() == ["--gpu-name", "sm_80", "-O1"]


def test_tileiras_failure_names_kernel_and_message(toolchain: Toolchain, tmp_path: Path) -> None:
    module = parse_tile_ir(make_context(), FP8_KERNEL.read_text(), str(FP8_KERNEL))
    with pytest.raises(TileirasError) as err:
        compile_cubin(module, "sm_80", cache_dir=tmp_path, toolchain=toolchain)
    e = err.value
    assert e.message == "Incompatibility with architecture 'sm_80': unsupported type 'f8E4M3FN'"
    assert (e.arch, e.kernel, e.location, e.returncode) == ("sm_80", "gemm_fp8", None, 5)
    assert "failed to compile Tile IR program" in e.stderr
    assert str(e) == f"tileiras (sm_80) in kernel 'gemm_fp8': {e.message}"


def test_tileiras_failure_carries_the_kernels_location(
    toolchain: Toolchain, tmp_path: Path
) -> None:
    text = FP8_KERNEL.read_text()
    head, tail = text.rsplit("  }\n}", 1)
    located = head + '  } loc("kernels/gemm.py":12:5)\n}' + tail
    module = parse_tile_ir(make_context(), located)
    assert kernels_of(module) == (KernelSymbol("gemm_fp8", SourceLocation("kernels/gemm.py", 12, 5)),)
    with pytest.raises(TileirasError) as err:
        compile_cubin(module, "sm_80", cache_dir=tmp_path, toolchain=toolchain)
    assert err.value.location == SourceLocation("kernels/gemm.py", 12, 5)
    assert str(err.value).startswith("kernels/gemm.py:12:5: error: tileiras (sm_80) in kernel")


def test_location_from_the_debug_section(tmp_path: Path) -> None:
    printed = tmp_path / "stderr.txt"
    printed.write_text(DEBUG_INFO_STDERR)
    tools = fake_tileiras(tmp_path, f"cat {printed} >&2; exit 5")
    kernels = (KernelSymbol("a"), KernelSymbol("f8k"))
    with pytest.raises(TileirasError) as err:
        run_tileiras(b"bytecode", CompileOptions("sm_80"), kernels=kernels, toolchain=tools)
    e = err.value
    assert e.location == SourceLocation("/tmp/ctx/k.py", 6, 0)
    assert e.kernel == "f8k"
    assert str(e) == (
        "/tmp/ctx/k.py:6:0: error: tileiras (sm_80) in kernel 'f8k': "
        "Incompatibility with architecture 'sm_80': unsupported type 'f8E4M3FN'"
    )


def test_bad_bytecode(toolchain: Toolchain) -> None:
    with pytest.raises(TileirasError, match="input does not correspond to Tile IR bytecode"):
        run_tileiras(b"not bytecode", CompileOptions("sm_90"), toolchain=toolchain)


def test_timeout(tmp_path: Path) -> None:
    tools = fake_tileiras(tmp_path, "sleep 30")
    with pytest.raises(TileirasError) as err:
        run_tileiras(
            b"x", CompileOptions("sm_90"), kernels=[KernelSymbol("k")], toolchain=tools, timeout=0.3
        )
    assert "did not finish within 0.3 s" in str(err.value)
    assert "SAFETILE_TILEIRAS_TIMEOUT" in str(err.value)
    assert err.value.kernel == "k"


def test_timeout_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tools = fake_tileiras(tmp_path, "sleep 30")
    monkeypatch.setenv("SAFETILE_TILEIRAS_TIMEOUT", "0.2")
    with pytest.raises(TileirasError, match="within 0.2 s"):
        run_tileiras(b"x", CompileOptions("sm_90"), toolchain=tools)
    monkeypatch.setenv("SAFETILE_TILEIRAS_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="is not a number of seconds"):
        run_tileiras(b"x", CompileOptions("sm_90"), toolchain=tools)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("kill -SEGV $$", "crashed (signal 11)"),
        ("exit 0", "exited with status 0 but wrote no cubin"),
        (
            "echo 'tileiras: for the --gpu-name option: bad' >&2; exit 1",
            "tileiras: for the --gpu-name option: bad",
        ),
        ("exit 7", "exited with status 7"),
    ],
)
def test_other_failures(tmp_path: Path, body: str, says: str) -> None:
    tools = fake_tileiras(tmp_path, body)
    with pytest.raises(TileirasError) as err:
        run_tileiras(b"x", CompileOptions("sm_90"), toolchain=tools)
    assert str(err.value).startswith(f"tileiras (sm_90): {says}")


def test_unrunnable_tileiras(tmp_path: Path) -> None:
    tool = tmp_path / "tileiras"
    tool.write_text("not a program")  # not executable
    tools = Toolchain(tool, tool, tool, "13.4.92", "PATH")
    with pytest.raises(ToolchainError, match="could not run"):
        run_tileiras(b"x", CompileOptions("sm_90"), toolchain=tools)


# --------------------------------------------------------------------------
# tile-opt -t cubin, and the build for the GPU tests
# --------------------------------------------------------------------------


def test_tile_opt_cubin(
    cubins: dict[tuple[str, str], CacheEntry], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = cubins["row_sum", "sm_100"]
    cache = entry.path.parents[3]
    out = tmp_path / "row_sum.cubin"
    spec = "cubin{arch=sm_100 opt=3 lineinfo=true version=13.4}"
    run = run_tile_opt(
        [str(KERNELS["row_sum"]), "-t", spec, "--cache-dir", str(cache), "-o", str(out)]
    )
    assert (run.status, run.err) == (0, "")
    assert out.read_bytes() == entry.cubin
    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(cache))  # the default folder
    again = tmp_path / "again.cubin"
    run = run_tile_opt([str(KERNELS["row_sum"]), "-t", "cubin{arch=sm_100}", "-o", str(again)])
    assert (run.status, again.read_bytes()) == (0, entry.cubin)


def test_tile_opt_cubin_to_stdout(cubins: dict[tuple[str, str], CacheEntry]) -> None:
    command = tile_opt_script()
    assert command is not None
    entry = cubins["vector_add", "sm_80"]
    done = subprocess.run(
        [command, str(KERNELS["vector_add"]), "-t", "cubin{arch=sm_80}"],
        capture_output=True,
        env={**os.environ, "SAFETILE_CACHE_DIR": str(entry.path.parents[3])},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == entry.cubin


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("cubin", "cubin needs a GPU architecture, e.g. -t 'cubin{arch=sm_90}'"),
        ("cubin{arch=sm_91}", "unknown GPU architecture 'sm_91'"),
        ("cubin{arch=sm_90 fast=1}", "unknown cubin option(s): fast"),
        ("cubin{arch=sm_90 lineinfo=3}", "cubin options: opt is 0-3 and lineinfo is true or false"),
        ("cubin{arch=sm_90 version=13.0}", "unsupported bytecode version 13.0"),
    ],
)
def test_tile_opt_cubin_usage_errors(tmp_path: Path, spec: str, says: str) -> None:
    out, cache = str(tmp_path / "o"), str(tmp_path)
    run = run_tile_opt([str(KERNELS["vector_add"]), "-t", spec, "--cache-dir", cache, "-o", out])
    assert run.status == 2  # a usage error
    assert run.err.startswith(f"tile-opt: error: {says}")


def test_tile_opt_cubin_reports_tileiras_errors(toolchain: Toolchain, tmp_path: Path) -> None:
    run = run_tile_opt(
        [
            str(FP8_KERNEL),
            "-t",
            "cubin{arch=sm_80}",
            "--cache-dir",
            str(tmp_path),
            "-o",
            str(tmp_path / "o"),
        ]
    )
    assert run.status == 1
    assert run.err == (
        f"{FP8_KERNEL}:0:0: error: tileiras (sm_80) in kernel 'gemm_fp8': "
        "Incompatibility with architecture 'sm_80': unsupported type 'f8E4M3FN'\n"
    )


def load_build_cache(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """test/gpu/build_cache.py as a module (registered while the test runs)."""
    path = REPO_ROOT / "test" / "gpu" / "build_cache.py"
    spec = importlib.util.spec_from_file_location("build_cache", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


def check_matmul_record(matmul: dict[str, Any], cache: Path, cubins: dict[tuple[str, str], CacheEntry]) -> None:
    """build_cache.py's manifest record of the matmul, whose cubin lies in ``cache``."""
    # test/gpu/kernels/matmul.mlir is the example with comments: same bytecode, a cache hit
    assert (cache / matmul["cubin"]).read_bytes() == cubins["matmul", "sm_90"].cubin
    assert [p["name"] for p in matmul["params"]] == [
        "a",
        "b",
        "c",
        "m",
        "n",
        "k",
        "lda",
        "ldb",
        "ldc",
    ]
    assert matmul["params"][0]["type"] == "tile<ptr<f16>>"
    assert matmul["grid"] == [8, 8, 1]
    assert matmul["cubin_size"] == len(cubins["matmul", "sm_90"].cubin)


def test_build_cache_record(cubins: dict[tuple[str, str], CacheEntry], monkeypatch: pytest.MonkeyPatch) -> None:
    """The smoke version of test_gpu_build_cache: test/gpu/build_cache.py's record of one kernel."""
    cache = cubins["matmul", "sm_90"].path.parents[3]
    module = load_build_cache(monkeypatch)
    check_matmul_record(module.build("matmul", module.PROBLEMS["matmul"], "sm_90", cache), cache, cubins)


@pytest.mark.full
def test_gpu_build_cache(
    cubins: dict[tuple[str, str], CacheEntry],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """test/gpu/build_cache.py fills a folder that cubin_launch.py can use with no safetile:
    every variant the GPU tests launch (a nested pytest, the tuned kernels' configs)."""
    cache = cubins["matmul", "sm_90"].path.parents[3]
    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(cache))  # main() sets it; restored after the test
    assert load_build_cache(monkeypatch).main(["--out", str(cache)]) == 0
    manifest = json.loads((cache / "manifest.json").read_text())
    kernels = manifest["kernels"]
    assert set(kernels) == {"vector_add", "matmul"}
    check_matmul_record(kernels["matmul"], cache, cubins)
    assert kernels["vector_add"]["grid"] == [1 << 24 >> 10, 1, 1]
    assert kernels["vector_add"]["scalars"]["na"] == 1 << 24
    for record in kernels.values():
        data = (cache / record["cubin"]).read_bytes()
        assert data[:4] == b"\x7fELF"
        assert record["cubin_size"] == len(data)
    assert "wrote" in capsys.readouterr().out


def test_toolchain_tool(toolchain: Toolchain) -> None:
    assert toolchain.tool("tileirdisasm").is_file()
    missing = dataclasses.replace(toolchain, tileiras=Path("/nonexistent/bin/tileiras"))
    with pytest.raises(ToolchainError, match="cuobjdump not found next to"):
        missing.tool("cuobjdump")
