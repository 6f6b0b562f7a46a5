"""The for/if token problem (docs/passes.md) on a GPU: tileiras 13.4.92 against 13.5.37.

    .venv/bin/python test/gpu/for_if_token.py build build/for-if      # here: no GPU
    python3 test/gpu/for_if_token.py run build/for-if OUT_DIR           # on the GPU machine

``build OUT_DIR`` (needs safetile and both toolchains, no GPU) compiles
docs/known-issues/tileiras-for-if-token.mlir for sm_90 through the cubin cache
(``compile_cubin``, ``-O3 --lineinfo`` as the JIT does) into ``OUT_DIR``, once
per ``BUILDS`` entry: tileiras 13.4.92 from 13.4 bytecode (the default
toolchain), 13.5.37 from 13.5 bytecode (what the cache gives 13.5.37) and
13.5.37 from 13.4 bytecode (which it reads too).  13.4.92 is the pinned
toolchain; 13.5.37 is found on ``--tools DIR`` (default
``$SAFETILE_TILEIRAS_13_5``, the ``nvidia/cu13/bin`` of its unpacked wheels),
else wherever ``find_toolchain`` finds it.  ``OUT_DIR/manifest.json`` is
test/gpu/cubin_launch.py's format (``kernels``: symbol, cubin, its SHA-256,
params, arrays, scalars, outputs, grid, block), each record adding what made
it: ``tileiras`` (release), ``toolchain_origin``, ``bytecode_version``,
``bytecode_sha256``, and ``sass_sha256`` (of ``cuobjdump -sass``, so that
cubins with one machine code can be told apart from cubins that differ only
in their ELF notes).

``run CUBIN_DIR OUT_DIR`` (needs numpy and cuda-python only: no safetile,
xDSL or tileiras) launches each cubin ``--launches`` times (default 200) on
fresh random ``x`` in [1, 2), 4096 tiles of 64 f32, block (1, 1, 1), ``n``
= 1 (``--n``), through cubin_launch.py, and compares ``z`` with the
expected ``x * 2**n - 1``.  A wrong element is counted as *doubled once more*
(``x * 2**(n+1) - 1``: the store applied twice, what 13.4.92 was seen to
do), *never written* (0, the value ``z`` starts from), or *other*.  Within a
launch round every cubin sees the same ``x``.  Writes
``OUT_DIR/for_if_token.json`` (device, driver, per cubin: wrong elements per
launch, totals by kind, wrong elements by position in the tile) and prints
a summary.  Exit status 0 when every cubin ran (whatever it computed), 1
when it could not (no GPU, a missing or altered cubin), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
REPRODUCER = REPO_ROOT / "docs" / "known-issues" / "tileiras-for-if-token.mlir"
MANIFEST = "manifest.json"
RESULT = "for_if_token.json"
TOOLS_ENV = "SAFETILE_TILEIRAS_13_5"
ARCH = "sm_90"

TILE = 64
"""Elements per tile: the reproducer's partition views are ``tile=(64)``."""
GRID = 4096
SIZE = GRID * TILE
PARAMS = ("z", "z_shape0", "z_stride0", "x", "x_shape0", "x_stride0", "n")
"""The reproducer's parameters, in order: the run fills them by these names."""
POINTERS = ("z", "x")
"""Of those, the f32 arrays; the others are i32 scalars (``SCALARS``)."""
SCALARS = {"z_shape0": SIZE, "z_stride0": 1, "x_shape0": SIZE, "x_stride0": 1, "n": 1}


@dataclass(frozen=True)
class Build:
    release: str
    """The tileiras release that compiles."""
    bytecode: str
    """The bytecode version it is given."""

    @property
    def name(self) -> str:
        return f"tileiras-{self.release}_bytecode-{self.bytecode}"


BUILDS = (Build("13.4.92", "13.4"), Build("13.5.37", "13.5"), Build("13.5.37", "13.4"))


# --------------------------------------------------------------------------
# build (here: safetile and the toolchains, no GPU)
# --------------------------------------------------------------------------


def build(out: Path, tools_dir: str | None) -> int:
    from xdsl.context import Context
    from xdsl.dialects.builtin import Builtin

    from build_cache import type_text  # test/gpu/build_cache.py
    from safetile.backend.cache import compile_cubin
    from safetile.backend.toolchain import PINNED_VERSION, ToolchainError, find_toolchain
    from safetile.dialects.cuda_tile import CudaTile
    from safetile.dialects.cuda_tile.ops.structure import EntryOp
    from safetile.dialects.cuda_tile.syntax import parse_tile_ir

    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(CudaTile)
    source = REPRODUCER.read_text()
    module = parse_tile_ir(ctx, source, str(REPRODUCER))
    (entry,) = [op for op in module.walk() if isinstance(op, EntryOp)]
    params = [{"name": a.name_hint, "type": type_text(a.type)} for a in entry.body.block.args]
    if params != expected_params():
        raise SystemExit(f"{REPRODUCER}: parameters {params}; this script fills {expected_params()}")
    search = os.pathsep.join(p for p in (tools_dir, os.environ.get("PATH")) if p)
    try:
        tools = {r: find_toolchain(path=search, version=r) for r in {b.release for b in BUILDS}}
    except ToolchainError as err:
        raise SystemExit(f"error: {err}; for 13.5.37 pass --tools DIR or set {TOOLS_ENV}") from None
    cuobjdump = tools[PINNED_VERSION].tool("cuobjdump")
    out.mkdir(parents=True, exist_ok=True)
    kernels: dict[str, dict[str, Any]] = {}
    for job in BUILDS:
        made = tools[job.release]
        cached = compile_cubin(module, ARCH, version=job.bytecode, toolchain=made, cache_dir=out)
        kernels[job.name] = {
            "source": str(REPRODUCER.relative_to(REPO_ROOT)),
            "source_sha256": hashlib.sha256(source.encode()).hexdigest(),
            "symbol": entry.sym_name.data,
            "arch": ARCH,
            "toolchain": cached.toolchain,
            "tileiras": made.version,
            "toolchain_origin": f"{made.origin} ({made.tileiras})",
            "bytecode_version": job.bytecode,
            "bytecode_sha256": cached.bytecode_sha256,
            "options": " ".join(cached.options.flags()),
            "cubin": str(cached.path.relative_to(out)),
            "cubin_sha256": hashlib.sha256(cached.cubin).hexdigest(),
            "cubin_size": len(cached.cubin),
            "sass_sha256": hashlib.sha256(_sass(cuobjdump, cached.path)).hexdigest(),
            "params": params,
            "arrays": {name: {"dtype": "float32", "shape": [SIZE]} for name in POINTERS},
            "scalars": SCALARS,
            "outputs": ["z"],
            "grid": [GRID, 1, 1],
            "block": [1, 1, 1],
        }
    manifest = {"format": 1, "arch": ARCH, "kernels": kernels}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    groups: dict[str, list[str]] = {}
    for name, record in kernels.items():
        print(f"{name}: {record['cubin']} ({record['cubin_size']} bytes)")
        groups.setdefault(record["sass_sha256"], []).append(name)
    print("machine code (cuobjdump -sass): " + "; ".join(" = ".join(g) for g in groups.values()))
    shown = out.resolve()
    shown = shown.relative_to(REPO_ROOT) if shown.is_relative_to(REPO_ROOT) else shown
    print(f"wrote {shown / MANIFEST}; on the GPU machine, from the repository root:")
    print(f'python3 test/gpu/for_if_token.py run {shown} "$OUT"')
    return 0


def _sass(cuobjdump: Path, cubin: Path) -> bytes:
    """``cuobjdump -sass`` of ``cubin``: its machine code, without the ELF's notes."""
    sass = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, check=True, timeout=60).stdout
    if b"Function :" not in sass:
        raise SystemExit(f"{cuobjdump} -sass {cubin} printed no function: {sass[:200]!r}")
    return sass


# --------------------------------------------------------------------------
# run (the GPU machine: numpy and cuda-python only)
# --------------------------------------------------------------------------


def expected_params() -> list[dict[str, str]]:
    """The parameters as the manifest records them (cubin_launch.py passes them by type)."""
    return [{"name": p, "type": "tile<ptr<f32>>" if p in POINTERS else "tile<i32>"} for p in PARAMS]


def tally(z: Any, x: Any, n: int) -> dict[str, Any]:
    """What one launch computed against ``x * 2**n - 1``: wrong elements by kind and position."""
    import numpy as np

    expected = x * np.float32(2.0**n) - np.float32(1.0)
    again = x * np.float32(2.0 ** (n + 1)) - np.float32(1.0)
    wrong = z != expected
    twice = wrong & (z == again)
    unwritten = wrong & (z == 0)
    return {
        "wrong": int(wrong.sum()),
        "doubled_once_more": int(twice.sum()),
        "never_written": int(unwritten.sum()),
        "other": int((wrong & ~twice & ~unwritten).sum()),
        "by_position": wrong.reshape(-1, TILE).sum(axis=0),
    }


def load(folder: Path) -> list[Any]:
    """The manifest's kernels, each cubin checked against its SHA-256 (cubin_launch.load_kernel)."""
    from cubin_launch import load_kernel

    manifest = folder / MANIFEST
    if not manifest.is_file():
        raise FileNotFoundError(
            f"{manifest} is missing: build it with '.venv/bin/python test/gpu/for_if_token.py "
            f"build {folder}' where safetile and both toolchains are installed"
        )
    names = list(json.loads(manifest.read_text())["kernels"])
    kernels = [load_kernel(folder, name) for name in names]
    for kernel in kernels:
        if (params := kernel.record["params"]) != expected_params():
            raise ValueError(f"{kernel.name}: parameters {params}, this script fills {expected_params()}")
    return kernels


def run(folder: Path, out: Path, launches: int, n: int, seed: int) -> int:
    try:
        import numpy as np
        from cubin_launch import CudaError, Kernel, NoGpu, call, device  # test/gpu/cubin_launch.py
        from cubin_launch import run as launch
        from cuda.bindings import driver
    except ImportError as err:
        print(f"error: run needs numpy and cuda-python (pip install numpy cuda-python): {err}",
              file=sys.stderr)
        return 1
    try:
        kernels = load(folder)
    except (OSError, ValueError, KeyError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    with_n = [Kernel(k.name, {**k.record, "scalars": {**k.record["scalars"], "n": n}}, k.cubin)
              for k in kernels]
    rng = np.random.default_rng(seed)
    per_launch: dict[str, list[dict[str, Any]]] = {k.name: [] for k in with_n}
    try:
        with device() as name:
            driver_version = call(driver.cuDriverGetVersion)
            print(f"device: {name}; driver {driver_version}; {launches} launches of each cubin, n = {n}")
            for _ in range(launches):
                x = rng.uniform(1.0, 2.0, SIZE).astype(np.float32)
                for kernel in with_n:
                    z = launch(kernel, {"z": np.zeros(SIZE, np.float32), "x": x}).outputs["z"]
                    per_launch[kernel.name].append(tally(z, x, n))
    except (NoGpu, CudaError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    results = {k.name: _summary(k.record, per_launch[k.name]) for k in with_n}
    report = {
        "format": 1,
        "device": name,
        "driver_version": driver_version,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "launches": launches,
        "n": n,
        "seed": seed,
        "grid": [GRID, 1, 1],
        "tile": TILE,
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "cubins": results,
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / RESULT).write_text(json.dumps(report, indent=1) + "\n")
    for kernel_name, r in results.items():
        print(
            f"{kernel_name}: wrong in {r['launches_with_wrong']}/{launches} launches, "
            f"{r['wrong']} elements ({r['wrong_min']}..{r['wrong_max']} per launch, "
            f"{r['wrong_mean']:.1f} mean of {SIZE}); doubled once more {r['doubled_once_more']}, "
            f"never written {r['never_written']}, other {r['other']}"
        )
    print(f"wrote {out / RESULT}")
    return 0


def _summary(record: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    wrong = [r["wrong"] for r in rows]
    keep = ("tileiras", "bytecode_version", "toolchain_origin", "cubin_sha256", "sass_sha256")
    return {
        **{key: record.get(key) for key in keep},
        "launches_with_wrong": sum(1 for w in wrong if w),
        "wrong": sum(wrong),
        "wrong_min": min(wrong),
        "wrong_max": max(wrong),
        "wrong_mean": sum(wrong) / len(wrong),
        "wrong_per_launch": wrong,
        **{kind: sum(r[kind] for r in rows) for kind in ("doubled_once_more", "never_written", "other")},
        "wrong_by_position": [int(v) for v in sum(r["by_position"] for r in rows)],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    modes = parser.add_subparsers(dest="mode", required=True)
    make = modes.add_parser("build", help="compile the reproducer's cubins (no GPU)")
    make.add_argument("out", type=Path, help="folder for the cubins and manifest.json")
    make.add_argument(
        "--tools", default=os.environ.get(TOOLS_ENV), help=f"13.5.37's bin folder (default ${TOOLS_ENV})"
    )
    go = modes.add_parser("run", help="launch them on the GPU and count wrong elements")
    go.add_argument("cubins", type=Path, help="the folder 'build' wrote")
    go.add_argument("out", type=Path, help=f"folder for {RESULT}")
    go.add_argument("--launches", type=_at_least(1), default=200, help="launches of each cubin (default 200)")
    go.add_argument("--n", type=_at_least(0), default=1, help="the kernel's loop count (default 1)")
    go.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    args = parser.parse_args(argv)
    if args.mode == "build":
        return build(args.out, args.tools)
    return run(args.cubins, args.out, args.launches, args.n, args.seed)


def _at_least(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


if __name__ == "__main__":
    sys.exit(main())
