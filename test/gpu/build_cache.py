"""Build the cubins that the GPU tests and benchmarks launch, on a machine with no GPU.

    .venv/bin/python test/gpu/build_cache.py                  # sm_90 into build/gpu-cache
    .venv/bin/python test/gpu/build_cache.py --arch sm_100 --out DIR

Runtime launches (JIT through the cache): the numpy-only GPU tests
(``RUNTIME_TESTS``) run here on the CPU interpreter with
``SAFETILE_AOT_ARCHS=<arch>``, so every variant they launch is also compiled
for the GPU; the benchmark's variants (``bench/gpu.py``), the interop
tests' and every config of the tuned kernels (``bench/autotune.py``,
``test_autotune_gpu.py``) are compiled through ``st.warm_up(..., arch=)``; the sanitizer test's
kernel is run once more with ``SAFETILE_SANITIZE=memcheck``.

Plain cubins: each kernel of ``test/gpu/kernels/`` is compiled through safetile's cubin
cache (``safetile.backend.cache.compile_cubin``) into the folder, and
``manifest.json`` there says, for each kernel, where its cubin lies and how
to launch it: the symbol, the parameters in order (name and Tile IR type),
the arrays and scalars of the test problem, the grid (block is always
(1, 1, 1)).  ``launch.py`` reads the folder on the GPU machine with numpy and
cuda-python only.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin

from safetile.backend.cache import compile_cubin
from safetile.dialects.cuda_tile import CudaTile
from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.syntax import TileIRPrinter, parse_tile_ir
from safetile.dialects.cuda_tile.types import PointerType, TileType

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
MANIFEST = "manifest.json"
N = 1 << 24
M_MM, N_MM, K_MM = 1024, 1024, 512


@dataclass(frozen=True)
class Problem:
    """One test launch: the kernel's file, its data and its grid."""

    file: str
    arrays: dict[str, tuple[str, tuple[int, ...]]]
    """Pointer parameters: numpy dtype name and shape of the array each points to."""
    scalars: dict[str, int]
    """The other parameters' values."""
    outputs: tuple[str, ...]
    grid: tuple[int, int, int]


PROBLEMS = {
    "vector_add": Problem(
        "vector_add.mlir",
        {"a": ("float32", (N,)), "b": ("float32", (N,)), "c": ("float32", (N,))},
        {"na": N, "nb": N, "nc": N},
        ("c",),
        (N // 1024, 1, 1),
    ),
    "matmul": Problem(
        "matmul.mlir",
        {
            "a": ("float16", (M_MM, K_MM)),
            "b": ("float16", (K_MM, N_MM)),
            "c": ("float16", (M_MM, N_MM)),
        },
        {"m": M_MM, "n": N_MM, "k": K_MM, "lda": K_MM, "ldb": N_MM, "ldc": N_MM},
        ("c",),
        (M_MM // 128, N_MM // 128, 1),
    ),
}


def type_text(t: object) -> str:
    """A parameter type as Tile IR writes it (``tile<ptr<f32>>``)."""
    out = io.StringIO()
    printer = TileIRPrinter(stream=out)
    with printer.eliding_prefix():
        printer.print_attribute(t)  # type: ignore[arg-type]
    return out.getvalue()


def build(name: str, problem: Problem, arch: str, out: Path) -> dict[str, object]:
    """Compile one kernel into the cache at ``out``; its manifest record."""
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(CudaTile)
    path = HERE / "kernels" / problem.file
    module = parse_tile_ir(ctx, path.read_text(), str(path))
    (entry,) = [op for op in module.walk() if isinstance(op, EntryOp)]
    params = []
    for arg in entry.body.block.args:
        t = arg.type
        pointer = isinstance(t, TileType) and isinstance(t.element_type, PointerType)
        known = problem.arrays if pointer else problem.scalars
        if arg.name_hint not in known:
            raise SystemExit(f"{path}: parameter %{arg.name_hint} has no value in {name}'s problem")
        params.append({"name": arg.name_hint, "type": type_text(t)})
    cached = compile_cubin(module, arch, cache_dir=out)
    return {
        "source": str(path.relative_to(REPO_ROOT)),
        "symbol": entry.sym_name.data,
        "arch": arch,
        "toolchain": cached.toolchain,
        "cubin": str(cached.path.relative_to(out)),
        "cubin_sha256": hashlib.sha256(cached.cubin).hexdigest(),
        "cubin_size": len(cached.cubin),
        "params": params,
        "arrays": {k: {"dtype": d, "shape": list(s)} for k, (d, s) in problem.arrays.items()},
        "scalars": problem.scalars,
        "outputs": list(problem.outputs),
        "grid": list(problem.grid),
        "block": [1, 1, 1],
    }


RUNTIME_TESTS = ["test/gpu/test_examples_gpu.py", "test/gpu/test_modes_gpu.py", "test/gpu/test_readme_gpu.py"]
"""GPU tests that need only numpy: run here to compile what they launch."""


def build_runtime_variants(arch: str, out: Path) -> None:
    """Compile every variant the runtime tests and benchmarks launch for ``arch`` into ``out``."""
    import os
    import subprocess

    env = {**os.environ, "SAFETILE_CACHE_DIR": str(out), "SAFETILE_AOT_ARCHS": arch, "SAFETILE_BACKEND": "cpu"}
    command = [sys.executable, "-m", "pytest", "-q", "-m", "gpu", "-p", "no:cacheprovider", *RUNTIME_TESTS]
    subprocess.run(command, cwd=REPO_ROOT, env=env, check=True)
    sanitize = [sys.executable, "test/gpu/sanitized.py"]
    subprocess.run(sanitize, cwd=REPO_ROOT, env={**env, "SAFETILE_SANITIZE": "memcheck"}, check=True)
    # Its second launch fails its assert on the interpreter too: compiled by then.
    subprocess.run([sys.executable, "test/gpu/device_assert.py"], cwd=REPO_ROOT, env=env, capture_output=True)
    os.environ["SAFETILE_CACHE_DIR"] = str(out)
    import safetile as st

    sys.path.insert(0, str(REPO_ROOT / "bench"))
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(REPO_ROOT / "examples"))
    import autotune as autotune_bench  # bench/autotune.py
    import gpu as bench  # bench/gpu.py
    import test_autotune_gpu
    import test_interop_gpu

    # A tuned kernel's warm_up builds every config's cubin, in parallel.
    for kernel, spec in (bench.warm_up_specs() + test_interop_gpu.warm_up_specs() + autotune_bench.warm_up_specs()
                         + test_autotune_gpu.warm_up_specs()):
        st.warm_up(kernel, [spec], arch=arch)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the cubins the GPU tests launch.")
    parser.add_argument("--arch", default="sm_90", help="GPU architecture (default sm_90)")
    parser.add_argument(
        "--out",
        type=Path,
        default=REPO_ROOT / "build" / "gpu-cache",
        help="cache folder to fill (default build/gpu-cache)",
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    build_runtime_variants(args.arch, args.out)
    kernels = {name: build(name, p, args.arch, args.out) for name, p in PROBLEMS.items()}
    manifest = {"format": 1, "arch": args.arch, "kernels": kernels}
    (args.out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    for name, record in kernels.items():
        print(f"{name}: {record['cubin']} ({record['cubin_size']} bytes)")
    out = args.out.resolve()
    shown = out.relative_to(REPO_ROOT) if out.is_relative_to(REPO_ROOT) else out
    print(f"wrote {shown / MANIFEST}; on the GPU machine, from the repository root:")
    print(f"SAFETILE_CACHE_DIR={shown} python3 -m pytest test/gpu -m gpu -v -s -p no:cacheprovider")
    return 0


if __name__ == "__main__":
    sys.exit(main())
