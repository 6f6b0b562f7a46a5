"""GEMM on the GPU: safetile's tile configs against cuBLAS, by bench/method.py's method.

    SAFETILE_CACHE_DIR=build/gpu-cache python bench/gemm.py [--quick] [--only projections|candidates|shipped]
                                                            [--tokens 16,128] [--rounds N] [--json out.json]
                                                            [--problems 'down M=1024,...'] [--flush-l2]
    .venv/bin/python bench/gemm.py --build sm_90 [--only ...]  # here, no GPU: every cubin into the cache,
                                                               # and each config's registers/spill/shared memory
    .venv/bin/python bench/gemm.py --plot out.json    # here: out.png, each implementation's ratio to cuBLAS

Square f16 4096/8192 and bf16 8192, and the Qwen3-4B projections (QKV,
down) at M = 16, 128, 1024, 8192 tokens (``--only projections``: those
alone, with the split-K configs and the smaller tiles that few tokens
need; ``--only candidates``: ``CANDIDATES``, the configs tried for
``matmul()``'s plan; ``--only shipped``: ``matmul()`` at the shapes whose
plan the last refit changed, beside the config it launched before).  Each implementation is timed by
``Method.compare``: shuffled rounds, each warmed on itself after a cool-down
(the burst figure, clock near its maximum), then 1 s of back-to-back
launches each (the steady state, at the 700 W cap on an H100: the
headline), cuBLAS (``torch.matmul``) also alone as a control; clocks, power
and throttle reasons sampled throughout.  Outputs are NaN-poisoned and
checked against cuBLAS before any timing (a wrong one is printed, recorded
as ``wrong`` and not timed).  ``example matmul()`` is ``examples/gemm.py``'s
``matmul`` as a user calls it (its shipped tiles and hints; where it splits
K, its two launches, each prepared, on the partials it would allocate,
after ``matmul()`` itself was checked); the persistent
(mapped) GEMM runs safe and with ``unchecked_accesses=True``: the two
compile to one cubin (``--build`` says so, as for the split-K kernel).
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import safetile as st
from safetile.backend.resources import kernel_resources
from safetile.backend.toolchain import default_toolchain
from safetile.runtime.launch import Prepared

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(Path(__file__).resolve().parent))  # method (python -P leaves the script's folder out)
from method import ClockSampler, Method, device_state  # noqa: E402


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
MATMUL = _example("gemm", "matmul")
FP8 = _example("fp8_gemm")
FP8_PERSISTENT = _example("fp8_gemm", "persistent_fp8_gemm")
SCALED_MM = _example("fp8_gemm", "scaled_mm")
GEMM_PLAN = _example("gemm", "gemm_plan")
PERSISTENT_MATMUL = _example("gemm", "persistent_kernel")()
SPLIT_K = _example("gemm", "split_k_gemm")
SPLIT_K_SUM = _example("gemm", "split_k_sum")
SPLIT_COLUMNS = _example("gemm", "split_columns_gemm")
SPLIT_COLUMNS_SUM = _example("gemm", "split_columns_sum")
SUM_TILE = _example("gemm", "SUM_TILE")
GROUP = _example("gemm", "GROUP")
STREAM_K = _example("gemm", "stream_k_gemm")
STREAM_K_SUM = _example("gemm", "stream_k_sum")
STREAM_K_SHAPE = _example("gemm", "stream_k_shape")
BIG_TILE_HINTS = _example("gemm", "big_tile_hints")
GEMM_LOAD_HINTS = _example("gemm", "gemm_load_hints")
SUM_PIECE = _example("gemm", "SUM_PIECE")


@dataclass(frozen=True)
class Config:
    """One tile config: the tile shape, the tileiras hints, and the tile order
    (``group`` > 0: ``st.grouped(group)``, the grouped examples)."""

    bm: int
    bn: int
    bk: int
    warps8: bool = False
    latency: int = 0
    """``> 0``: the load pipeline this deep (tileiras's ``latency`` load hint on sm_90)."""
    occupancy: int = 0
    """``> 0``: tileiras's ``occupancy`` entry hint on sm_90 (blocks an SM holds at once)."""
    cluster: int = 0
    """``> 0``: tileiras's ``num_cta_in_cga`` entry hint on sm_90 (blocks a cluster)."""
    persistent: bool = False
    unchecked: bool = False
    group: int = 0
    fp8: bool = False
    """``examples/fp8_gemm.py``: e4m3 ``x [M, K]`` and ``w [N, K]``, a bf16 output."""
    splits: int = 0
    """``> 0``: split-K (``examples/gemm.py`` ``split_k``), K in this many splits."""
    columns: int = 0
    """``> 0`` (with ``splits``): ``examples/gemm.py``'s ``split_columns``, K split in the first
    ``columns`` tile columns only (the grouped order of ``GROUP``)."""
    stream_k: bool = False
    """Stream-K (``examples/gemm.py`` ``stream_k``) on at most ``PERSISTENT_BLOCKS`` blocks."""

    @property
    def name(self) -> str:
        hints = [h for h, on in (("warps 8", self.warps8), (f"latency {self.latency}", self.latency),
                                 (f"occupancy {self.occupancy}", self.occupancy),
                                 (f"cluster {self.cluster}", self.cluster)) if on]
        if self.group:
            hints.append(f"grouped {self.group}")
        kind = "fp8 persistent" if self.fp8 and self.persistent else "fp8" if self.fp8 else \
            "persistent" + (" unchecked" if self.unchecked else " safe") if self.persistent else \
            f"split-columns C={self.columns} S={self.splits}" if self.columns else \
            f"split-K S={self.splits}" + (" unchecked" if self.unchecked else "") if self.splits else \
            "stream-K" + (" unchecked" if self.unchecked else "") if self.stream_k else "tiled"
        return f"{kind} {self.bm}x{self.bn}x{self.bk}" + (f" ({', '.join(hints)})" if hints else "")

    @property
    def generics(self) -> dict[str, int]:
        """The generics a launch passes besides the tile shape."""
        return dict(BK=self.bk, **({"G": self.group} if self.group else {}))

    @property
    def hints(self) -> dict[str, Any]:
        """The ``with_options`` hints (``None``: none, the kernel's own are dropped)."""
        entry = dict(**({"num_worker_warps_per_cta": 8} if self.warps8 else {}),
                     **({"occupancy": self.occupancy} if self.occupancy else {}),
                     **({"num_cta_in_cga": self.cluster} if self.cluster else {}))
        return dict(optimization_hints={"sm_90": entry} if entry else None,
                    load_hints={"sm_90": {"latency": self.latency}} if self.latency else None)

    def kernel(self) -> st.Kernel:
        if self.fp8:
            return (FP8_PERSISTENT if self.persistent else FP8).with_options(**self.hints)
        if self.splits:
            return SPLIT_K.with_options(**self.hints, unchecked_accesses=self.unchecked)
        if self.stream_k:
            return STREAM_K.with_options(**self.hints, unchecked_accesses=self.unchecked)
        bases = {(False, False): GEMM, (True, False): PERSISTENT, (False, True): GROUPED, (True, True): GROUPED_PERSISTENT}
        return bases[self.persistent, self.group > 0].with_options(**self.hints, unchecked_accesses=self.unchecked)

    def second(self) -> st.Kernel:
        """Split-columns' second launch (``split_columns_gemm``) with the config's hints; the first
        is ``kernel()``'s split-K, the third ``split_columns_sum``."""
        return SPLIT_COLUMNS.with_options(**self.hints)


CONFIGS = [
    Config(128, 128, 64),
    Config(128, 128, 64, group=8),
    Config(128, 256, 64, warps8=True, latency=6),
    Config(128, 256, 64, warps8=True, latency=6, group=8),
    Config(256, 128, 64, warps8=True, latency=6, group=8),
    Config(128, 256, 64, warps8=True, latency=6, persistent=True, group=8),
    Config(128, 256, 64, warps8=True, latency=6, persistent=True, unchecked=True, group=8),
]
SHAPES = [("f16", 4096, 4096, 4096), ("f16", 8192, 8192, 8192), ("bf16", 8192, 8192, 8192)]
"""(dtype, M, N, K) of the square problems."""
PROJECTIONS = {"QKV": (6144, 2560), "down": (2560, 9728)}
"""Qwen3-4B's projections, (N, K): x [M, K] @ w [K, N]."""
TOKENS = (16, 128, 1024, 8192)
BIG = dict(warps8=True, latency=6)
PROJECTION_CONFIGS = {
    16: [Config(64, 64, 64, group=8)] + [Config(64, 64, 64, splits=s) for s in (2, 4, 8)],
    128: [Config(128, 128, 64, group=8)] + [Config(128, 128, 64, splits=s) for s in (2, 4, 8)]
    + [Config(64, 128, 64, splits=s) for s in (2, 4)],
    1024: [Config(128, 128, 64, group=8), Config(128, 256, 64, **BIG, group=8), Config(128, 128, 64, splits=2),
           Config(128, 256, 64, **BIG, splits=2)],
    8192: [Config(128, 128, 64, group=8), Config(128, 256, 64, **BIG, group=8)],
}
"""Besides ``matmul()``'s own choice, for the projections, by tokens: the plain grids, and at few
tokens split-K with 2..8 splits and 64-row tiles."""
BUILD_ONLY = [Config(64, 64, 64, splits=4, unchecked=True), Config(128, 256, 64, **BIG, splits=2, unchecked=True),
              Config(16, 64, 128, splits=2, unchecked=True), Config(128, 128, 64, stream_k=True, unchecked=True),
              Config(256, 128, 64, **BIG, stream_k=True, unchecked=True),
              Config(128, 256, 64, **BIG, stream_k=True, unchecked=True)]
"""Built (``--build``: one cubin with the safe split-K or stream-K kernel of the same tiles), not timed."""
STREAM_K_BIG = dict(BIG, stream_k=True)
CANDIDATES = [
    ("bf16", 128, 6144, 2560, "QKV M=128", [Config(64, 64, 64, occupancy=2, group=8)]),
    ("bf16", 1024, 2560, 9728, "down M=1024", [
        Config(64, 256, 64, splits=4, columns=2), Config(64, 256, 64, warps8=True, splits=4, columns=2),
        Config(64, 256, 64, stream_k=True)]),
    ("bf16", 2048, 2560, 9728, "down M=2048", []),
    ("fp8", 8192, 8192, 8192, "8192x8192x8192", [
        Config(128, 128, 128, warps8=True, group=8, fp8=True),
        Config(128, 128, 128, warps8=True, latency=6, group=8, fp8=True, persistent=True),
        Config(128, 128, 128, warps8=True, latency=4, group=8, fp8=True, persistent=True),
        Config(128, 128, 128, warps8=True, group=16, fp8=True, persistent=True)]),
]
"""``--only candidates``: (dtype, M, N, K, label, configs) tried against ``matmul()``'s (``scaled_mm()``'s)
own choice and cuBLAS, session 18, where the counters of ``bench/gemm_profile.py`` pointed (issue 30's
gaps; cuBLAS runs 128 tiles, 0.97 of a wave, at each projection): QKV at 128 tokens on 192 blocks of
64x64 two to an SM (``occupancy = 2``: one wave on every SM, against 96 blocks of 64x128 on 96); the
down projection at 1024 tokens on 64-row tiles, as cuBLAS's 64x320 -- split columns of 64x256 (128
tiles whole, 32 in 4 splits: 190 half-size K steps a block against the persistent 128x256 grid's 152
full ones), with 4 or 8 warps, and stream-K on 132 blocks; at 2048 tokens ``matmul()`` alone (its
counters); FP8 one block a tile (``scaled_mm()`` before session 18) and ``persistent_fp8_gemm`` (now
``scaled_mm()``'s) with a load pipeline 6 or 4 deep or groups of 16 tile rows.  The first run's list
(64x64x128 two to an SM at QKV 128; FP8 on K tiles of 256 and on 256x64 tiles, both slower), and
sessions 5, 16 and 17's: docs/benchmarks.md §4."""
SHIPPED = [
    ("bf16", 1024, 2560, 9728, "down M=1024", [Config(128, 256, 64, **STREAM_K_BIG)]),
    ("bf16", 16, 6144, 2560, "QKV M=16", [Config(16, 64, 128, group=8)]),
    ("bf16", 128, 6144, 2560, "QKV M=128", [Config(64, 128, 64, latency=4, group=8)]),
    ("bf16", 16, 2560, 9728, "down M=16", [Config(16, 64, 128, splits=2)]),
    ("bf16", 128, 2560, 9728, "down M=128", [Config(64, 128, 64, latency=4, splits=2)]),
    ("bf16", 2048, 2560, 9728, "down M=2048", [Config(128, 256, 64, **STREAM_K_BIG)]),
    ("bf16", 1024, 6144, 2560, "QKV M=1024", [Config(128, 256, 64, **STREAM_K_BIG)]),
]
"""``--only shipped``: ``matmul()`` against cuBLAS at the shapes session 16 worked on, each beside
a same-run reference: at 16 tokens the config ``matmul()`` launched before (no ``latency`` hint,
commit a8479da), at 128 tokens the ``latency = 4`` it does not take, at down 1024/2048 and QKV 1024
stream-K on 128x256 tiles, which it does not run (docs/benchmarks.md §4)."""
FP8_CONFIGS = [Config(128, 128, 128, warps8=True, group=8, fp8=True),
               Config(128, 256, 128, warps8=True, group=8, fp8=True)]
PERSISTENT_BLOCKS = 132
SPIN_CYCLES = 1_000_000
"""``torch.cuda._sleep`` before each timing (about 0.5 ms)."""
METHOD = Method(rounds=6, warm=10, reps=3, cool_s=0.2, steady_s=1.0)
QUICK = Method(rounds=3, warm=5, reps=3, cool_s=0.1, steady_s=0.3)


def problems(quick: bool, only: str | None = None, tokens: tuple[int, ...] = TOKENS,
             labels: frozenset[str] | None = None) -> list[tuple[str, int, int, int, str, list[Config]]]:
    """(dtype, M, N, K, label, configs) of each problem timed: the squares and FP8 (unless ``only``),
    then the projections at ``tokens``; ``only="candidates"`` or ``"shipped"``: ``CANDIDATES`` or
    ``SHIPPED`` alone (``quick`` or not); ``labels``: only the problems of those labels."""
    if labels is not None:
        return [found for found in problems(quick, only, tokens) if found[4] in labels]
    if only in ("candidates", "shipped"):
        return CANDIDATES if only == "candidates" else SHIPPED
    found = []
    if only is None:
        found += [(d, m, n, k, f"{m}x{n}x{k}", CONFIGS) for d, m, n, k in (SHAPES[1:2] if quick else SHAPES)]
        found.append(("fp8", 8192, 8192, 8192, "8192x8192x8192", FP8_CONFIGS))
    for name, (n, k) in PROJECTIONS.items():
        for m in (128,) if quick else tokens:
            found.append(("bf16", m, n, k, f"{name} M={m}", PROJECTION_CONFIGS[m]))
    return found


def spec(config: Config, dtype: st.DType, m: int, n: int, k: int) -> dict[str, Any]:
    """What a launch on contiguous, aligned operands derives (for ahead-of-time builds); split-K:
    its first launch's (into the partials)."""
    if config.stream_k:
        return dict(p=stream_k_spec(config, m, n, k, (config.bm, config.bn)),
                    x=st.TensorSpec(dtype, (m, k), (k, 1), None, True),
                    y=st.TensorSpec(dtype, (k, n), (n, 1), None, True), BK=config.bk)
    if config.splits:
        return dict(p=partials_spec(config.splits, m, columns(config, n), (1, config.bm, config.bn)),
                    x=st.TensorSpec(dtype, (m, k), (k, 1), None, True),
                    y=st.TensorSpec(dtype, (k, n), (n, 1), None, True), BK=config.bk)
    if config.fp8:
        e4m3 = st.f8e4m3fn
        return dict(z=st.TensorSpec(st.bf16, (m, n), (n, 1), (config.bm, config.bn), True),
                    x=st.TensorSpec(e4m3, (m, k), (k, 1), None, True),
                    w=st.TensorSpec(e4m3, (n, k), (k, 1), None, True), **config.generics)
    out = st.TensorSpec(dtype, (m, n), (n, 1), (config.bm, config.bn), True)
    x = st.TensorSpec(dtype, (m, k), (k, 1), None, True)
    y = st.TensorSpec(dtype, (k, n), (n, 1), None, True)
    return dict(z=out, x=x, y=y, **config.generics)


def partials_spec(splits: int, m: int, n: int, partition: tuple[int, ...] | None) -> st.TensorSpec:
    """The split-K partials, ``[S, M, N]`` f32, contiguous."""
    return st.TensorSpec(st.f32, (splits, m, n), (m * n, n, 1), partition, True)


def columns(config: Config, n: int) -> int:
    """The partials' columns: ``n`` for split-K, the split tile columns' for split-columns."""
    return config.columns * config.bn if config.columns else n


def stream_k_spec(config: Config, m: int, n: int, k: int, partition: tuple[int, ...] | None) -> st.TensorSpec:
    """The stream-K partials, ``[W * B * BM, BN]`` f32, contiguous."""
    blocks, _, pieces = STREAM_K_SHAPE(m, n, k, config.bm, config.bn, config.bk, PERSISTENT_BLOCKS)
    return st.TensorSpec(st.f32, (pieces * blocks * config.bm, config.bn), (config.bn, 1), partition, True)


def piece(config: Config) -> tuple[int, int]:
    """``stream_k_sum``'s output piece for ``config``'s tiles (as ``examples/gemm.py`` ``stream_k``)."""
    return min(SUM_PIECE[0], config.bm), min(SUM_PIECE[1], config.bn)


def columns_sum_spec(config: Config, dtype: st.DType, m: int, n: int) -> dict[str, Any]:
    """Split-columns' third launch (``split_columns_sum``): the split columns' partials into ``z``."""
    return dict(z=st.TensorSpec(dtype, (m, n), (n, 1), piece(config), True),
                p=partials_spec(config.splits, m, columns(config, n), None))


def sum_spec(config: Config, dtype: st.DType, m: int, n: int, k: int) -> dict[str, Any]:
    """The second launch of split-K (``split_k_sum``), split-columns (``split_columns_gemm``) or
    stream-K (``stream_k_sum``): the partials into ``z``."""
    if config.stream_k:
        return dict(z=st.TensorSpec(dtype, (m, n), (n, 1), piece(config), True),
                    p=stream_k_spec(config, m, n, k, None), BM=config.bm, BN=config.bn)
    if config.columns:
        return dict(z=st.TensorSpec(dtype, (m, n), (n, 1), (config.bm, config.bn), True),
                    p=partials_spec(config.splits, m, columns(config, n), None),
                    x=st.TensorSpec(dtype, (m, k), (k, 1), None, True),
                    y=st.TensorSpec(dtype, (k, n), (n, 1), None, True), BK=config.bk, G=GROUP)
    return dict(z=st.TensorSpec(dtype, (m, n), (n, 1), SUM_TILE, True),
                p=partials_spec(config.splits, m, n, None))


def shipped(m: int, n: int, k: int, fp8: bool = False) -> Config:
    """``matmul()``'s (``fp8``: ``scaled_mm()``'s) choice for ``[m, k] @ [k, n]``, as a config (the
    examples' hints by tile size)."""
    if fp8:
        return Config(128, 128, 128, warps8=True, group=8, fp8=True, persistent=True)
    bm, bn, bk, splits, persistent, split_columns = GEMM_PLAN(m, n, k)
    return Config(bm, bn, bk, warps8=bool(BIG_TILE_HINTS(BM=bm, BN=bn)),
                  latency=GEMM_LOAD_HINTS(BM=bm, BN=bn).get("sm_90", {}).get("latency", 0),
                  group=0 if splits > 1 else 8, splits=splits if splits > 1 else 0, persistent=persistent,
                  columns=split_columns)


KERNELS = {c: c.kernel() for c in CONFIGS + sum(PROJECTION_CONFIGS.values(), []) + FP8_CONFIGS + BUILD_ONLY
           + [c for *_, configs in CANDIDATES + SHIPPED for c in configs]}
SECONDS = {c: c.second() for c in KERNELS if c.columns}
"""Split-columns configs' second launches (one kernel object each: one launch cache)."""


# -- ahead of time, here --------------------------------------------------------------


def sass_counts(cubin: Path) -> str:
    """The MMA instructions (``HGMMA``/``QGMMA``: Hopper's warpgroup MMA, 16- and 8-bit; ``HMMA``:
    the warp-level one; each with the shape and types tileiras issued) and the local-memory stores
    and loads (``STL``/``LDL``: spill traffic) in the cubin's SASS (``cuobjdump -sass``, beside
    ``tileiras``), each with its count."""
    sass = subprocess.run([str(default_toolchain().tool("cuobjdump")), "-sass", str(cubin)],
                          capture_output=True, text=True, check=True).stdout
    found = collections.Counter(re.findall(r"\b((?:[HQ]GMMA|HMMA)\.\S+|STL|LDL)\b", sass))
    return ", ".join(f"{op} x{count}" for op, count in sorted(found.items())) or "none"


def build(arch: str | None, only: str | None = None, tokens: tuple[int, ...] = TOKENS, quick: bool = False,
          labels: frozenset[str] | None = None) -> None:
    """Every config's cubin (and ``matmul()``'s; split-K and stream-K: both launches, and the
    unchecked twins of ``BUILD_ONLY``) into the cache, and its resources (read from the cubin) and
    its SASS's MMA and spill instructions (``sass_counts``).  ``arch=None`` (``run``, on the GPU
    machine, which has no tileiras): each loaded from the cache, nothing printed, so a missing
    cubin stops the run before any timing."""
    if arch is not None:
        print("| config | problem | registers | spill (stack bytes) | shared memory (bytes) | SASS: MMA, STL/LDL | "
              "identical to |")
        print("|---|---|---|---|---|---|---|")
    seen: dict[bytes, str] = {}

    def one(kernel: st.Kernel, what: str, label: str, generics: dict[str, Any]) -> None:
        done = kernel.warm_up([generics], arch=arch)[0]
        if arch is None:
            return
        assert done.cubin is not None
        cubin = done.cubin.read_bytes()
        name = f"{what} {label}"
        same = seen.setdefault(cubin, name)
        usage = kernel_resources(cubin, done.symbol)
        print(f"| {what} | {label} | {usage.registers} | {usage.stack_bytes} | {usage.shared_bytes} | "
              f"{sass_counts(done.cubin)} | {same if same != name else ''} |", flush=True)

    for dtype_name, m, n, k, label, configs in problems(quick, only, tokens, labels):
        dtype = getattr(st, "bf16" if dtype_name == "fp8" else dtype_name)
        fp8 = dtype_name == "fp8"
        twins = [c for c in BUILD_ONLY if replace(c, unchecked=False) in configs]
        todo = [(c, KERNELS[c]) for c in configs + twins] + [(shipped(m, n, k, fp8), None)]
        for config, kernel in todo:
            what = config.name
            second = SECONDS.get(config)
            if kernel is None:  # matmul() or scaled_mm(): the example's kernel with its own hints
                kernel = FP8_PERSISTENT if fp8 else SPLIT_K if config.splits else PERSISTENT_MATMUL if config.persistent \
                    else GROUPED
                second = SPLIT_COLUMNS
                what = f"example {'scaled_mm' if fp8 else 'matmul'}() = {what}"
            one(kernel, what, f"{dtype_name} {label}", spec(config, dtype, m, n, k))
            if config.columns:
                one(second, f"{what}: the GEMM", f"{dtype_name} {label}", sum_spec(config, dtype, m, n, k))
                one(SPLIT_COLUMNS_SUM, f"{what}: the split columns' sum {'x'.join(map(str, piece(config)))}",
                    f"{dtype_name} {label}", columns_sum_spec(config, dtype, m, n))
            elif config.splits:
                one(SPLIT_K_SUM, f"{what}: split-K sum {SUM_TILE[0]}x{SUM_TILE[1]}", f"{dtype_name} {label}",
                    sum_spec(config, dtype, m, n, k))
            if config.stream_k:
                one(STREAM_K_SUM, f"{what}: stream-K sum {'x'.join(map(str, piece(config)))}",
                    f"{dtype_name} {label}", sum_spec(config, dtype, m, n, k))


# -- on the GPU -------------------------------------------------------------------------


def operands(dtype_name: str, m: int, n: int, k: int) -> tuple[Any, Any, Callable[[], Any]]:
    """A problem's random inputs on the GPU (seeded) and its peer: ``torch.matmul(x, w)`` (``x
    [M, K]``, ``w [K, N]``), for ``fp8`` e4m3 ``x [M, K]`` and ``w [N, K]`` (K-major, as the kernel
    and ``torch._scaled_mm``'s ``w.t()`` take it) and ``torch._scaled_mm`` with scales 0.5 and 0.25
    into bf16."""
    import torch

    fp8 = dtype_name == "fp8"
    dtype = getattr(torch, {"f16": "float16", "bf16": "bfloat16", "fp8": "bfloat16"}[dtype_name])
    gen = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(m, k, device="cuda", dtype=dtype, generator=gen)
    b = torch.randn(n if fp8 else k, k if fp8 else n, device="cuda", dtype=dtype, generator=gen)
    if not fp8:
        return a, b, lambda: torch.matmul(a, b)
    scales = (torch.tensor(0.5, device="cuda"), torch.tensor(0.25, device="cuda"))
    a, b = a.to(torch.float8_e4m3fn), b.to(torch.float8_e4m3fn)
    return a, b, lambda: torch._scaled_mm(a, b.t(), scale_a=scales[0], scale_b=scales[1], out_dtype=dtype)


def launches(configs: list[Config], m: int, n: int, k: int, fp8: bool, a: Any, b: Any
             ) -> list[tuple[str, Callable[[Any], list[Prepared]]]]:
    """(name, launch) for each config and last for ``matmul()`` (``scaled_mm()``) as planned:
    ``launch(out)`` prepares the launches (split-K, split columns, stream-K: all of them, on
    NaN-filled partials of their own) that write ``a @ b`` into ``out`` (torch)."""
    import torch

    def split_k(kernel: st.Kernel, config: Config, out: Any, second: st.Kernel | None = None) -> list[Prepared]:
        """Split-K's two launches (split-columns': ``second`` its second, then its sum), each
        prepared, on partials of their own, into ``out``."""
        part = torch.full((config.splits, m, columns(config, n)), float("nan"), device="cuda", dtype=torch.float32)
        first = kernel(st.as_tensor(part).partition((1, config.bm, config.bn)), st.as_tensor(a),
                       st.as_tensor(b), BK=config.bk).prepare()
        if second is not None:
            return [first, second(st.as_tensor(out).partition((config.bm, config.bn)), st.as_tensor(part),
                                  st.as_tensor(a), st.as_tensor(b), BK=config.bk, G=GROUP).prepare(),
                    SPLIT_COLUMNS_SUM(st.as_tensor(out).partition(piece(config)), st.as_tensor(part)).prepare()]
        return [first, SPLIT_K_SUM(st.as_tensor(out).partition(SUM_TILE), st.as_tensor(part)).prepare()]

    def stream_k(kernel: st.Kernel, config: Config, out: Any) -> list[Prepared]:
        """Stream-K's two launches, each prepared, on partials of their own."""
        blocks, units, pieces = STREAM_K_SHAPE(m, n, k, config.bm, config.bn, config.bk, PERSISTENT_BLOCKS)
        part = torch.full((pieces * blocks * config.bm, config.bn), float("nan"), device="cuda", dtype=torch.float32)
        return [kernel(st.as_tensor(part).partition((config.bm, config.bn)), st.as_tensor(a),
                       st.as_tensor(b), BK=config.bk, grid=(blocks,)).prepare(),
                STREAM_K_SUM(st.as_tensor(out).partition(piece(config)), st.as_tensor(part), units,
                             k // config.bk, blocks, BM=config.bm, BN=config.bn).prepare()]

    found = [(config.name,
              lambda out, config=config: split_k(KERNELS[config], config, out, SECONDS.get(config))
              if config.splits else stream_k(KERNELS[config], config, out) if config.stream_k
              else [KERNELS[config](
                  st.as_tensor(out).partition((config.bm, config.bn)), st.as_tensor(a), st.as_tensor(b),
                  *((0.5 * 0.25,) if fp8 else ()), **config.generics,
                  **({"grid": (PERSISTENT_BLOCKS,)} if config.persistent else {})).prepare()])
             for config in configs]
    mine = shipped(m, n, k, fp8)
    if fp8:
        found.append((f"example scaled_mm() = {mine.name}", lambda out: [
            SCALED_MM(st.as_tensor(out), st.as_tensor(a), st.as_tensor(b), 0.5, 0.25).prepare()]))
    elif mine.splits:  # its launches, prepared (run() checks matmul() itself first)
        found.append((f"example matmul() = {mine.name}",
                      lambda out: split_k(SPLIT_K, mine, out, SPLIT_COLUMNS if mine.columns else None)))
    else:
        found.append((f"example matmul() = {mine.name}",
                      lambda out: [MATMUL(st.as_tensor(out), st.as_tensor(a), st.as_tensor(b)).prepare()]))
    return found


def run(quick: bool, json_path: str | None = None, only: str | None = None,
        tokens: tuple[int, ...] = TOKENS, rounds: int | None = None,
        labels: frozenset[str] | None = None, flush_l2: bool = False) -> list[dict[str, Any]]:
    """Every problem by the method (``rounds``: that many burst rounds instead of its own;
    ``flush_l2``: the L2 flushed before each timed launch, as for memory-bound work); the rows so
    far written to ``json_path`` after each problem."""
    import torch

    results = []
    stream = st.current_backend().default_stream
    torch_stream = torch.cuda.ExternalStream(int(stream.handle))
    method = replace(QUICK if quick else METHOD, flush_l2=flush_l2, **({"rounds": rounds} if rounds else {}))
    build(None, only, tokens, quick, labels)
    print("every variant loaded from the cache", flush=True)
    with ClockSampler() as sampler:
        for dtype_name, m, n, k, label, configs in problems(quick, only, tokens, labels):
            fp8 = dtype_name == "fp8"
            dtype = getattr(torch, {"f16": "float16", "bf16": "bfloat16", "fp8": "bfloat16"}[dtype_name])
            a, b, peer = operands(dtype_name, m, n, k)
            with torch.cuda.stream(torch_stream):
                reference = peer()
            torch_stream.synchronize()
            impls: dict[str, Callable[[], None]] = {}
            held: list[Prepared] = []

            def check(name: str, out: Any) -> bool:
                """Whether ``out`` is right; a wrong one is printed and recorded (``wrong``), not timed."""
                error = ((out.float() - reference.float()).abs().max() / reference.float().abs().max()).item()
                if not error < 2e-2:
                    print(f"WRONG: {name} {dtype_name} {label}: relative error {error}; not timed", flush=True)
                    results.append(dict(dtype=dtype_name, problem=label, wrong=name, error=error))
                return error < 2e-2

            if not fp8 and shipped(m, n, k).splits:  # matmul() as a user calls it, checked first
                out = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
                MATMUL(st.as_tensor(out), st.as_tensor(a), st.as_tensor(b)).sync()
                check("example matmul()", out)  # then its launches, prepared, are checked as any other
            for name, launch in launches(configs, m, n, k, fp8, a, b):
                out = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
                prepared = launch(out)
                for one in prepared:
                    one.enqueue(stream)
                stream.synchronize()
                held += prepared
                if not check(name, out):
                    continue
                impls[name] = lambda prepared=prepared: [one.enqueue(stream) for one in prepared]

            def cublas() -> None:
                with torch.cuda.stream(torch_stream):
                    peer()

            impls[CUBLAS] = cublas
            def spin() -> None:  # the host ahead of the GPU (cuBLAS's launches at small M are host-bound)
                with torch.cuda.stream(torch_stream):
                    torch.cuda._sleep(SPIN_CYCLES)

            measured = method.compare(impls, CUBLAS, stream, sampler=sampler, spin=spin)
            flop = 2 * m * n * k
            for name in impls:
                summary = measured.summary(name)
                row = dict(dtype=dtype_name, problem=label, m=m, n=n, k=k, impl=name, flush_l2=flush_l2,
                           burst_tflops=flop / summary["burst_s"] / 1e12, burst_ratio=summary["burst_ratio"],
                           steady_tflops=flop / summary["steady_s"] / 1e12, steady_ratio=summary["steady_ratio"],
                           clocks=summary["clocks"], orders=measured.orders)
                if "control_burst_s" in summary:
                    row["control_tflops"] = flop / summary["control_burst_s"] / 1e12
                results.append(row)
                print(f"{dtype_name} {label} {name}: burst {row['burst_tflops']:.0f} ({row['burst_ratio']:.3f}), "
                      f"steady {row['steady_tflops']:.0f} ({row['steady_ratio']:.3f})", flush=True)
            for prepared in held:
                prepared.release()
            del a, b, reference
            if json_path:
                Path(json_path).write_text(json.dumps(dict(partial=True, results=results), indent=1))
    results.append(dict(clock_samples=sampler.samples, missing=sampler.missing))
    return results


CUBLAS = "cuBLAS (torch.matmul; fp8: torch._scaled_mm)"
HOST_BOUND_M = 128
"""At ``M`` up to this, cuBLAS's ``torch.matmul`` is host-bound back to back: the burst ratio is the
kernel comparison there, the steady one above it (docs/benchmarks.md §4)."""


def plot(results: list[dict[str, Any]], png: Path, title: str) -> None:
    """Per problem, a bar for each implementation (cuBLAS aside; ``matmul()`` last, in its own
    colour): its ratio to cuBLAS, steady where ``M > HOST_BOUND_M``, burst below."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in results if "impl" in r and r["impl"] != CUBLAS]
    problems = list(dict.fromkeys((r["dtype"], r["problem"], r["m"]) for r in rows))
    fig, ax = plt.subplots(figsize=(0.9 * len(problems) + 2, 4.2))
    for j, (dtype, problem, m) in enumerate(problems):
        mine = sorted((r for r in rows if (r["dtype"], r["problem"]) == (dtype, problem)),
                      key=lambda r: r["impl"].startswith("example"))
        width = 0.8 / len(mine)
        for i, r in enumerate(mine):
            ours = r["impl"].startswith("example")
            ax.bar(j + (i - (len(mine) - 1) / 2) * width, r["steady_ratio" if m > HOST_BOUND_M else "burst_ratio"],
                   width, color="C1" if ours else "C0", label="example matmul()" if ours else "another config")
    ax.axhline(1.0, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xticks(range(len(problems)), [f"{d} {p}" + (" (burst)" if m <= HOST_BOUND_M else "")
                                         for d, p, m in problems], rotation=35, ha="right", fontsize=7)
    ax.set_ylabel(f"vs cuBLAS (steady; burst at M <= {HOST_BOUND_M})", fontsize=8)
    ax.set_ylim(0, 1.25)
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles))
    ax.legend(unique.values(), unique.keys(), fontsize=7, loc="upper right", ncol=2)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


def table(results: list[dict[str, Any]]) -> str:
    lines = ["| dtype | problem | implementation | burst TFLOP/s | burst vs cuBLAS | steady TFLOP/s | "
             "steady vs cuBLAS | SM MHz / W (steady) |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        if "impl" not in r:
            continue
        clocks = r["clocks"].get("steady", {})
        lines.append(f"| {r['dtype']} | {r['problem']} | {r['impl']} | {r['burst_tflops']:.0f} | "
                     f"{r['burst_ratio']:.3f} | {r['steady_tflops']:.0f} | {r['steady_ratio']:.3f} | "
                     f"{clocks.get('sm_mhz', '-')} / {clocks.get('power_w', '-')} |")
        if "control_tflops" in r:
            lines.append(f"| {r['dtype']} | {r['problem']} | cuBLAS alone (control, burst) | "
                         f"{r['control_tflops']:.0f} | | | | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", metavar="ARCH", help="compile every config for ARCH here (no GPU needed)")
    parser.add_argument("--quick", action="store_true", help="fewer problems, shorter timings")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--only", choices=["projections", "candidates", "shipped"],
                        help="only the Qwen3-4B projections, CANDIDATES or SHIPPED (with --quick: the short method)")
    parser.add_argument("--tokens", default=",".join(map(str, TOKENS)),
                        help=f"the projections' M, a comma-separated subset of {','.join(map(str, TOKENS))}")
    parser.add_argument("--rounds", type=int, help="burst rounds (default: the method's, 6; --quick 3)")
    parser.add_argument("--problems", help="only the problems of these labels, comma-separated (e.g. 'down M=1024')")
    parser.add_argument("--flush-l2", action="store_true",
                        help="flush the L2 before each timed launch (few tokens: the weights then come from memory, "
                             "as in a model whose other layers' weights evicted them)")
    parser.add_argument("--plot", metavar="JSON", type=Path,
                        help="here, no GPU: plot a run's --json beside it (the same name, .png)")
    args = parser.parse_args(argv)
    tokens = tuple(int(t) for t in args.tokens.split(","))
    if not set(tokens) <= set(TOKENS):
        parser.error(f"--tokens {args.tokens}: each must be one of {', '.join(map(str, TOKENS))}")
    only = args.only
    labels = frozenset(args.problems.split(",")) if args.problems else None
    if labels is not None and not labels <= {found[4] for found in problems(args.quick, only, tokens)}:
        parser.error(f"--problems {args.problems}: each must be a label of the problems --only "
                     f"{only or '(none)'} times: {', '.join(found[4] for found in problems(args.quick, only, tokens))}")
    if args.plot:
        run_json = json.loads(args.plot.read_text())
        state = run_json.get("device", {})
        plot(run_json["results"], args.plot.with_suffix(".png"),
             f"{args.plot.stem}: {state.get('name', '?')}, driver {state.get('driver_version', '?')}")
        return 0
    if args.build:
        build(args.build, only, tokens, labels=labels)
        return 0
    import time

    import torch

    state = device_state()
    results = run(args.quick, args.json, only, tokens, args.rounds, labels, args.flush_l2)
    print(f"# GEMM: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; device {state}\n")
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps(dict(device=state, results=results), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
