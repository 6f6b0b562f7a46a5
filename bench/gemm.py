"""GEMM on the GPU: safetile's tile configs against cuBLAS, in interleaved rounds.

    SAFETILE_CACHE_DIR=build/gpu-cache python bench/gemm.py [--quick] [--json out.json]
    .venv/bin/python bench/gemm.py --build sm_90      # here, no GPU: every cubin into the cache,
                                                      # and each config's registers/spill/shared memory

Each round times every implementation once (ours, cuBLAS, ours, ..., the
order rotated per round) with CUDA events on one stream, so the GPU's power
cap hits them alike; the table gives the median TFLOP/s and the median of
the per-round ratios to cuBLAS (``torch.matmul``).  Outputs are NaN-poisoned
and checked against cuBLAS before any timing.  The persistent (mapped) GEMM
runs safe and with ``unchecked_accesses=True``: the safety costs nothing
when both give one cubin.  The ``grouped`` configs take the output tiles in
the grouped (L2-swizzled) order, ``st.grouped(8)`` (examples ``grouped_gemm``
and ``grouped_persistent_gemm``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import safetile as st
from safetile.backend.resources import kernel_resources

ROOT = Path(__file__).resolve().parents[1]


def _example(file: str, name: str | None = None) -> Any:
    """Kernel ``name`` (default: the file's name) of ``examples/<file>.py``."""
    spec = importlib.util.spec_from_file_location(f"bench_{file}", ROOT / "examples" / f"{file}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name or file)


GEMM = _example("gemm")
PERSISTENT = _example("persistent_gemm")
GROUPED = _example("gemm", "grouped_gemm")
GROUPED_PERSISTENT = _example("persistent_gemm", "grouped_persistent_gemm")
WARPS8 = {"sm_90": {"num_worker_warps_per_cta": 8}}
LATENCY6 = {"sm_90": {"latency": 6}}


@dataclass(frozen=True)
class Config:
    """One tile config: the tile shape, the tileiras hints, and the tile order
    (``group`` > 0: ``st.grouped(group)``, the grouped examples)."""

    bm: int
    bn: int
    bk: int
    warps8: bool = False
    latency6: bool = False
    persistent: bool = False
    unchecked: bool = False
    group: int = 0

    @property
    def name(self) -> str:
        hints = [h for h, on in (("warps 8", self.warps8), ("latency 6", self.latency6)) if on]
        if self.group:
            hints.append(f"grouped {self.group}")
        kind = "persistent" + (" unchecked" if self.unchecked else " safe") if self.persistent else "tiled"
        return f"{kind} {self.bm}x{self.bn}x{self.bk}" + (f" ({', '.join(hints)})" if hints else "")

    @property
    def generics(self) -> dict[str, int]:
        """The generics a launch passes besides the tile shape."""
        return dict(BK=self.bk, **({"G": self.group} if self.group else {}))

    def kernel(self) -> st.Kernel:
        bases = {(False, False): GEMM, (True, False): PERSISTENT, (False, True): GROUPED, (True, True): GROUPED_PERSISTENT}
        base = bases[self.persistent, self.group > 0]
        return base.with_options(
            optimization_hints=WARPS8 if self.warps8 else None,
            load_hints=LATENCY6 if self.latency6 else None,
            unchecked_accesses=self.unchecked,
        )


CONFIGS = [
    Config(128, 128, 64),
    Config(128, 128, 64, warps8=True, latency6=True),
    Config(128, 256, 64),
    Config(128, 256, 64, warps8=True, latency6=True),
    Config(256, 128, 64, warps8=True, latency6=True),
    Config(128, 256, 64, warps8=True, latency6=True, persistent=True),
    Config(128, 256, 64, warps8=True, latency6=True, persistent=True, unchecked=True),
    Config(128, 128, 64, group=8),
    Config(128, 128, 64, warps8=True, latency6=True, group=8),
    Config(128, 256, 64, warps8=True, latency6=True, group=8),
    Config(128, 256, 64, warps8=True, latency6=True, persistent=True, group=8),
    Config(128, 256, 64, warps8=True, latency6=True, persistent=True, unchecked=True, group=8),
]
SIZES = [("f16", 4096), ("f16", 8192), ("bf16", 8192)]
PERSISTENT_BLOCKS = 132


def spec(config: Config, dtype: st.DType, n: int) -> dict[str, Any]:
    """What a launch on contiguous, aligned ``n x n`` tensors derives (for ahead-of-time builds)."""
    matrix = st.TensorSpec(dtype, (n, n), (n, 1), None, True)
    out = st.TensorSpec(dtype, (n, n), (n, 1), (config.bm, config.bn), True)
    return dict(z=out, x=matrix, y=matrix, **config.generics)


KERNELS = {c: c.kernel() for c in CONFIGS}


# -- ahead of time, here --------------------------------------------------------------


def build(arch: str) -> None:
    """Every config's cubin into the cache, and its resources (read from the cubin)."""
    print("| config | dtype | registers | spill (stack bytes) | shared memory (bytes) | identical to |")
    print("|---|---|---|---|---|---|")
    seen: dict[bytes, str] = {}
    for config, kernel in KERNELS.items():
        for dtype_name, n in SIZES:
            values = spec(config, getattr(st, dtype_name), n)
            done = kernel.warm_up([values], arch=arch)[0]
            assert done.cubin is not None
            cubin = done.cubin.read_bytes()
            name = f"{config.name} {dtype_name}"
            same = seen.setdefault(cubin, name)
            usage = kernel_resources(cubin, done.symbol)
            print(f"| {config.name} | {dtype_name} | {usage.registers} | {usage.stack_bytes} | "
                  f"{usage.shared_bytes} | {same if same != name else ''} |")


# -- on the GPU -------------------------------------------------------------------------


def run(rounds: int, reps: int) -> list[dict[str, Any]]:
    import torch

    results = []
    stream = st.current_backend().default_stream
    torch_stream = torch.cuda.ExternalStream(int(stream.handle))
    for dtype_name, n in SIZES:
        dtype = getattr(torch, {"f16": "float16", "bf16": "bfloat16"}[dtype_name])
        gen = torch.Generator(device="cuda").manual_seed(0)
        a = torch.randn(n, n, device="cuda", dtype=dtype, generator=gen)
        b = torch.randn(n, n, device="cuda", dtype=dtype, generator=gen)
        with torch.cuda.stream(torch_stream):
            reference = torch.matmul(a, b)
        torch_stream.synchronize()
        impls: dict[str, Callable[[], None]] = {}
        held = []
        for config, kernel in KERNELS.items():
            out = torch.full((n, n), float("nan"), device="cuda", dtype=dtype)
            z = st.as_tensor(out).partition((config.bm, config.bn))
            grid = {"grid": (PERSISTENT_BLOCKS,)} if config.persistent else {}
            prepared = kernel(z, st.as_tensor(a), st.as_tensor(b), **config.generics, **grid).prepare()
            prepared.sync(stream)
            error = ((out.float() - reference.float()).abs().max() / reference.float().abs().max()).item()
            if not error < 2e-2:
                raise SystemExit(f"{config.name} {dtype_name} {n}: relative error {error}")
            held.append(prepared)
            impls[config.name] = prepared.enqueue

        def cublas() -> None:
            with torch.cuda.stream(torch_stream):
                torch.matmul(a, b)

        impls["cuBLAS (torch.matmul)"] = cublas
        times = _interleaved(impls, rounds, reps, torch, torch_stream)
        flop = 2 * n ** 3
        for name, per_round in times.items():
            ratios = [c / t for t, c in zip(per_round, times["cuBLAS (torch.matmul)"])]
            results.append(dict(dtype=dtype_name, n=n, impl=name,
                                tflops=flop / statistics.median(per_round) / 1e12,
                                ratio=statistics.median(ratios)))
        for prepared in held:
            prepared.release()
    return results


def _interleaved(impls: dict[str, Callable[[], None]], rounds: int, reps: int, torch: Any,
                 stream: Any) -> dict[str, list[float]]:
    """Seconds per call of each implementation in each round, the order rotated per round."""
    names = list(impls)
    for fn in impls.values():  # warm-up
        for _ in range(3):
            fn()
    stream.synchronize()
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        order = names[r % len(names):] + names[: r % len(names)]
        for name in order:
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record(stream)
            for _ in range(reps):
                impls[name]()
            end.record(stream)
            end.synchronize()
            times[name].append(start.elapsed_time(end) / 1e3 / reps)
    return times


def table(results: list[dict[str, Any]]) -> str:
    lines = ["| dtype | n | implementation | TFLOP/s | vs cuBLAS (median of rounds) |", "|---|---|---|---|---|"]
    lines += [f"| {r['dtype']} | {r['n']} | {r['impl']} | {r['tflops']:.0f} | {r['ratio']:.3f} |" for r in results]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", metavar="ARCH", help="compile every config for ARCH here (no GPU needed)")
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    if args.build:
        build(args.build)
        return 0
    import torch

    results = run(rounds=5 if args.quick else 15, reps=5 if args.quick else 10)
    print(f"# GEMM: {torch.cuda.get_device_name()}, torch {torch.__version__}\n")
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
