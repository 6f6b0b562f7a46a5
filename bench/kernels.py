"""Every example kernel against torch and a Triton kernel of the same work, side by side, at several sizes.

    SAFETILE_CACHE_DIR=build/gpu-cache python bench/kernels.py OUT_DIR [--only attention,softmax] [--quick]
    .venv/bin/python bench/kernels.py --build sm_90      # here, no GPU: every candidate's cubin into the cache,
                                                         # and each config's registers/spill/shared memory

Workloads: attention forward (``examples/flash_attention.py``; f16; head dim
64 and 128; causal or not; grouped-query), softmax (``examples/softmax.py``;
f16, f32), rms_norm and layer_norm (``examples/rms_norm.py``,
``examples/layer_norm.py``; f16, bf16, f32) and vector add
(``examples/add.py``; f32).  The peers: torch (``scaled_dot_product_attention``,
``torch.softmax``, ``torch.nn.functional.rms_norm`` / ``layer_norm``,
``torch.add``) and the Triton kernels of ``bench/triton_kernels.py``.

Ours are ``st.autotune``d over tile shapes and tileiras hints (the first
launch of each size times every config with CUDA events and keeps the
fastest); the tables name the chosen config.  Then, per size, every
output is NaN-poisoned, each implementation runs once and is checked
against torch in f32, and the timing runs in interleaved rounds (every
implementation once per round, the order rotated, an L2 flush before each
call, CUDA events around each call on one stream): the tables give the
median time, the throughput (TFLOP/s for attention, GB/s of compulsory
traffic for the rest) and the median of the per-round ratios to each peer.
OUT_DIR gets ``kernels.md``, ``kernels.json`` and a PNG per workload
(throughput against size, one line per implementation).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # triton_kernels (python -P leaves the script's folder out)

import safetile as st  # noqa: E402
from add import add  # noqa: E402
from flash_attention import flash_attention  # noqa: E402
from layer_norm import layer_norm_row  # noqa: E402
from rms_norm import rms_norm_row  # noqa: E402
from softmax import LOOP_TILE, MAX_ROW_TILE, row_tile, softmax, softmax_row  # noqa: E402

from safetile.backend.resources import kernel_resources  # noqa: E402
from safetile.runtime.autotune import Autotuned  # noqa: E402


def hints(**values: int) -> dict[str, dict[str, int]]:
    """sm_90 hints; ``hints()`` is a config with none (not the kernel's own)."""
    return {"sm_90": values}


ROW_CONFIGS = [dict(BM=bm, optimization_hints=hints(occupancy=o) if o else hints())
               for bm in (1, 2, 4) for o in (None, 2, 3, 4)]
ATTENTION_CONFIGS = [
    dict(BM=128, BN=128, optimization_hints=hints(num_worker_warps_per_cta=8)),
    dict(BM=128, BN=128, optimization_hints=hints(num_worker_warps_per_cta=8), load_hints=hints(latency=6)),
    dict(BM=128, BN=128, optimization_hints=hints(num_worker_warps_per_cta=8), load_hints=hints(latency=3)),
    dict(BM=128, BN=64, optimization_hints=hints(num_worker_warps_per_cta=8)),
    dict(BM=128, BN=128, optimization_hints=hints()),
    dict(BM=64, BN=64, optimization_hints=hints()),
]
ADD_TILES = (1024, 2048)

tuned_softmax = st.autotune(configs=ROW_CONFIGS, key=["x"])(softmax_row)
tuned_rms_norm = st.autotune(configs=ROW_CONFIGS, key=["x"])(rms_norm_row)
tuned_layer_norm = st.autotune(configs=ROW_CONFIGS, key=["x"])(layer_norm_row)
tuned_attention = st.autotune(configs=ATTENTION_CONFIGS, key=["q", "k", "CAUSAL", "GROUP"])(flash_attention)
EPS = 1e-5
HEADS = 8
"""Query heads per batch entry in the attention cases (32 heads in all: a batch of 4)."""


@dataclass(frozen=True)
class Case:
    """One size of one workload."""

    workload: str
    dtype: str
    shape: tuple[int, ...]
    label: str
    """The size on the plot's x axis."""
    work: float
    """FLOPs (attention) or bytes moved (the rest) per call."""
    options: dict[str, int] = field(default_factory=dict)
    """Attention: causal, group, d."""

    @property
    def name(self) -> str:
        extra = "".join(f" {k}={v}" for k, v in self.options.items())
        return f"{self.workload} {self.dtype} {self.label}{extra}"


def _size(dtype: str) -> int:
    return {"f16": 2, "bf16": 2, "f32": 4}[dtype]


def cases(quick: bool) -> list[Case]:
    found: list[Case] = []
    batch_heads = 32
    for d, causal, group in ((64, 0, 1), (64, 1, 1), (128, 0, 1), (128, 1, 1), (128, 0, 4)):
        for seq in (1024, 4096) if quick else (1024, 2048, 4096):
            flops = 4.0 * batch_heads * seq * seq * d / (2 if causal else 1)
            found.append(Case("attention", "f16", (batch_heads, seq, d), f"S={seq}", flops,
                              dict(d=d, causal=causal, group=group)))
    row_sizes = [(4096, 1024), (4096, 4096), (8192, 8192)]
    for dtype in ("f16", "f32"):
        for rows, cols in row_sizes:
            found.append(Case("softmax", dtype, (rows, cols), f"{rows}x{cols}", 2.0 * rows * cols * _size(dtype)))
    found.append(Case("softmax", "f32", (1024, 32768), "1024x32768", 2.0 * 1024 * 32768 * 4))
    for workload, vectors in (("rms_norm", 1), ("layer_norm", 2)):
        for dtype in ("f16", "bf16", "f32"):
            for rows, cols in row_sizes:
                work = (2.0 * rows + vectors) * cols * _size(dtype)
                found.append(Case(workload, dtype, (rows, cols), f"{rows}x{cols}", work))
    for n in (1 << 24, 1 << 26, 1 << 28):
        found.append(Case("add", "f32", (n,), f"2^{n.bit_length() - 1}", 3.0 * n * 4))
    return found


# -- ahead of time, here --------------------------------------------------------------


def _matrix(dtype: st.DType, shape: tuple[int, ...], tile: tuple[int, ...] | None = None) -> st.TensorSpec:
    strides = tuple(math.prod(shape[i + 1:]) for i in range(len(shape)))
    return st.TensorSpec(dtype, shape, strides, tile, True)


def build_specs(case: Case) -> list[tuple[Any, dict[str, Any]]]:
    """(kernel or tuned kernel, specialization) of every variant ``run`` launches for ``case``."""
    dtype = getattr(st, case.dtype)
    if case.workload == "attention":
        bh, seq, d = case.shape
        q = _matrix(dtype, case.shape)
        kv = _matrix(dtype, (bh // case.options["group"], seq, d))
        return [(tuned_attention, dict(o=_matrix(dtype, case.shape, (1, 128, d)), q=q, k=kv, v=kv,
                                       CAUSAL=case.options["causal"], GROUP=case.options["group"]))]
    if case.workload == "add":
        x = _matrix(dtype, case.shape)
        return [(add, dict(z=_matrix(dtype, case.shape, (t,)), x=x, y=x)) for t in ADD_TILES]
    rows, cols = case.shape
    x, vector = _matrix(dtype, case.shape), _matrix(dtype, (cols,))
    if row_tile(cols) > MAX_ROW_TILE:
        return [(softmax, dict(z=_matrix(dtype, case.shape, (1, LOOP_TILE)), x=x))]
    out = _matrix(dtype, case.shape, (1, row_tile(cols)))
    tuned = {"softmax": tuned_softmax, "rms_norm": tuned_rms_norm, "layer_norm": tuned_layer_norm}[case.workload]
    inputs = {"softmax": dict(x=x), "rms_norm": dict(x=x, w=vector), "layer_norm": dict(x=x, w=vector, b=vector)}
    return [(tuned, dict(z=out, **inputs[case.workload]))]


def build(arch: str) -> None:
    """Every variant's cubin (every config of the tuned kernels) into the cache, and the resources."""
    print("| kernel | config | registers | spill (stack bytes) | shared memory (bytes) |")
    print("|---|---|---|---|---|")
    seen: set[tuple[str, str]] = set()
    for case in cases(quick=False):
        for kernel, spec in build_specs(case):
            kernel.warm_up([spec], arch=arch)  # every config at once, in parallel
            if isinstance(kernel, Autotuned):  # one config at a time (from the cache) to name each one's cubin
                each = [(c.text, st.autotune(configs=[c], key=[])(kernel.kernel)) for c in kernel.configs]
            else:
                each = [("", kernel)]
            for config, single in each:
                for done in single.warm_up([spec], arch=arch):
                    if done.cubin is None or (done.symbol, config) in seen:
                        continue
                    seen.add((done.symbol, config))
                    usage = kernel_resources(done.cubin.read_bytes(), done.symbol)
                    print(f"| {done.symbol} | {config} | {usage.registers} | "
                          f"{usage.stack_bytes + usage.local_bytes} | {usage.shared_bytes} |", flush=True)


# -- on the GPU -------------------------------------------------------------------------


@dataclass
class Impl:
    """One implementation of one case: the call to time, and where its output lands."""

    name: str
    call: Callable[[], Any]
    out: Any
    """The torch tensor the call writes."""
    config: str = ""
    held: Any = None
    """A prepared launch to release after timing."""
    first: Callable[[], Any] | None = None
    """The checked run, where it differs from ``call`` (torch's result copied into ``out``)."""


def _inputs(case: Case, torch: Any) -> dict[str, Any]:
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[case.dtype]
    gen = torch.Generator(device="cuda").manual_seed(0)

    def randn(*shape: int) -> Any:
        return torch.randn(*shape, device="cuda", dtype=dtype, generator=gen)

    if case.workload == "attention":
        bh, seq, d = case.shape
        kv = (bh // case.options["group"], seq, d)
        return dict(q=randn(*case.shape), k=randn(*kv), v=randn(*kv))
    if case.workload == "add":
        return dict(x=randn(*case.shape), y=randn(*case.shape))
    cols = case.shape[1]
    return dict(x=randn(*case.shape) * 4, w=randn(cols), b=randn(cols))


def _torch_call(case: Case, a: dict[str, Any], torch: Any) -> Callable[[], Any]:
    """torch's call, returning its result (timed as a user calls it: no copy into a given output)."""
    f = torch.nn.functional
    if case.workload == "attention":
        bh, seq, d = case.shape
        batch = bh // HEADS  # [B*H, S, D] as [B, H, S, D]; k and v as [B, H/group, S, D]
        q4, k4, v4 = (t.view(batch, -1, seq, d) for t in (a["q"], a["k"], a["v"]))
        causal, gqa = bool(case.options["causal"]), case.options["group"] > 1
        return lambda: f.scaled_dot_product_attention(q4, k4, v4, is_causal=causal, enable_gqa=gqa)
    if case.workload == "add":
        return lambda: torch.add(a["x"], a["y"])
    if case.workload == "softmax":
        return lambda: torch.softmax(a["x"], 1)
    cols = case.shape[1]
    if case.workload == "rms_norm":
        return lambda: f.rms_norm(a["x"], (cols,), a["w"], EPS)
    return lambda: f.layer_norm(a["x"], (cols,), a["w"], a["b"], EPS)


def _triton_call(case: Case, a: dict[str, Any], out: Any) -> Callable[[], Any]:
    import triton_kernels as tk

    if case.workload == "attention":
        d = case.shape[2]
        return lambda: tk.attention(out, a["q"], a["k"], a["v"], 1 / math.sqrt(d), bool(case.options["causal"]),
                                    case.options["group"])
    if case.workload == "softmax":
        return lambda: tk.softmax(out, a["x"])
    if case.workload == "rms_norm":
        return lambda: tk.rms_norm(out, a["x"], a["w"], EPS)
    if case.workload == "layer_norm":
        return lambda: tk.layer_norm(out, a["x"], a["w"], a["b"], EPS)
    return lambda: tk.add(out, a["x"], a["y"])


def _ours(case: Case, a: dict[str, Any], torch: Any) -> list[Impl]:
    """Our launches, tuned first where the kernel is tuned, prepared (checked and packed once)."""
    impls = []
    t = st.as_tensor
    if case.workload == "add":
        for tile in ADD_TILES:
            out = torch.full_like(a["x"], math.nan)
            prepared = add(t(out).partition((tile,)), t(a["x"]), t(a["y"])).prepare()
            impls.append(Impl(f"safetile (tiles of {tile})", prepared.enqueue, out, f"S=({tile},)", prepared))
        return impls
    out = torch.full_like(a["q"] if case.workload == "attention" else a["x"], math.nan)
    if case.workload == "attention":
        d = case.shape[2]
        args = (t(out).partition((1, 128, d)), t(a["q"]), t(a["k"]), t(a["v"]), 1 / math.sqrt(d))
        kwargs = dict(CAUSAL=case.options["causal"], GROUP=case.options["group"])
        tuned: Any = tuned_attention
    else:
        cols = case.shape[1]
        inputs = {"softmax": (t(a["x"]),), "rms_norm": (t(a["x"]), t(a["w"]), EPS),
                  "layer_norm": (t(a["x"]), t(a["w"]), t(a["b"]), EPS)}[case.workload]
        if row_tile(cols) > MAX_ROW_TILE:
            prepared = softmax(t(out).partition((1, LOOP_TILE)), *inputs).prepare()
            return [Impl("safetile (online, looped)", prepared.enqueue, out, f"BM=1 BN={LOOP_TILE}", prepared)]
        args, kwargs = (t(out).partition((1, row_tile(cols))), *inputs), {}
        tuned = {"softmax": tuned_softmax, "rms_norm": tuned_rms_norm, "layer_norm": tuned_layer_norm}[case.workload]
    before = set(tuned.tunings)
    op = tuned(*args, **kwargs)
    (key,) = [k for k in tuned.tunings if k not in before]  # each case is a new problem
    chosen = tuned.tunings[key]
    prepared = op.prepare()
    impls.append(Impl("safetile", prepared.enqueue, out, chosen.outcomes[chosen.chosen].config, prepared))
    return impls


def _check(case: Case, impl: Impl, reference: Any, torch: Any) -> float:
    got, ref = impl.out.float(), reference.float()
    if torch.isnan(got).any():
        raise RuntimeError(f"{case.name}: {impl.name} left NaN in its output")
    error = ((got - ref).abs().max() / ref.abs().max().clamp_min(1e-6)).item()
    limit = {"f16": 2e-2, "bf16": 4e-2, "f32": 1e-4}[case.dtype] * (5 if case.workload == "attention" else 1)
    if not error < limit:
        raise RuntimeError(f"{case.name}: {impl.name}: relative error {error:.3g} (limit {limit})")
    return error


def _interleaved(impls: list[Impl], rounds: int, torch: Any, stream: Any) -> dict[str, list[float]]:
    """Seconds of each call in each round, the order rotated per round, the L2 flushed before each call."""
    flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    for impl in impls:  # warm-up
        for _ in range(3):
            impl.call()
    stream.synchronize()
    events: dict[str, list[tuple[Any, Any]]] = {i.name: [] for i in impls}
    for r in range(rounds):
        order = impls[r % len(impls):] + impls[: r % len(impls)]
        for impl in order:
            flush.zero_()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record(stream)
            impl.call()
            end.record(stream)
            events[impl.name].append((start, end))
        stream.synchronize()
    return {name: [s.elapsed_time(e) / 1e3 for s, e in pairs] for name, pairs in events.items()}


def run_case(case: Case, rounds: int, torch: Any, stream: Any) -> list[dict[str, Any]]:
    a = _inputs(case, torch)
    with torch.cuda.stream(stream):
        impls = _ours(case, a, torch)
        shape = impls[0].out
        torch_out, triton_out = torch.full_like(shape, math.nan), torch.full_like(shape, math.nan)
        torch_call = _torch_call(case, a, torch)
        peers = [Impl("torch", torch_call, torch_out, first=lambda: torch_out.copy_(torch_call().view_as(torch_out))),
                 Impl("triton", _triton_call(case, a, triton_out), triton_out)]
        impls += peers
        for impl in impls:
            (impl.first or impl.call)()
        stream.synchronize()
        reference = peers[0].out
        errors = {impl.name: _check(case, impl, reference, torch) for impl in impls}
        times = _interleaved(impls, rounds, torch, stream)
    for impl in impls:
        if impl.held is not None:
            impl.held.release()
    rows = []
    for impl in impls:
        row = dict(workload=case.workload, dtype=case.dtype, size=case.label, shape=list(case.shape),
                   options=case.options, impl=impl.name, config=impl.config, error=errors[impl.name],
                   ms=statistics.median(times[impl.name]) * 1e3)
        row["rate"] = case.work / (row["ms"] / 1e3) / (1e12 if case.workload == "attention" else 1e9)
        for peer in ("torch", "triton"):
            row[f"vs_{peer}"] = statistics.median(p / t for t, p in zip(times[impl.name], times[peer]))
        rows.append(row)
    return rows


def markdown(rows: list[dict[str, Any]], device: str, versions: str) -> str:
    lines = [f"# Kernels against torch and Triton: {device}", "", versions, ""]
    for workload in dict.fromkeys(r["workload"] for r in rows):
        unit = "TFLOP/s" if workload == "attention" else "GB/s"
        lines += [f"## {workload}", "", f"| dtype | size | options | implementation | config | ms | {unit} | "
                  "vs torch | vs Triton |", "|---|---|---|---|---|---|---|---|---|"]
        for r in (r for r in rows if r["workload"] == workload):
            options = " ".join(f"{k}={v}" for k, v in r["options"].items())
            lines.append(f"| {r['dtype']} | {r['size']} | {options} | {r['impl']} | {r['config']} | {r['ms']:.4f} | "
                         f"{r['rate']:.0f} | {r['vs_torch']:.3f} | {r['vs_triton']:.3f} |")
        lines.append("")
    return "\n".join(lines)


def plot(rows: list[dict[str, Any]], folder: Path, device: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for workload in dict.fromkeys(r["workload"] for r in rows):
        mine = [r for r in rows if r["workload"] == workload]
        groups = list(dict.fromkeys((r["dtype"], tuple(sorted(r["options"].items()))) for r in mine))
        fig, axes = plt.subplots(1, len(groups), figsize=(3.2 * len(groups) + 1, 3.4), squeeze=False)
        for ax, (dtype, options) in zip(axes[0], groups):
            part = [r for r in mine if r["dtype"] == dtype and tuple(sorted(r["options"].items())) == options]
            sizes = list(dict.fromkeys(r["size"] for r in part))
            for impl in dict.fromkeys(r["impl"] for r in part):
                points = {r["size"]: r["rate"] for r in part if r["impl"] == impl}
                ax.plot([s for s in sizes if s in points], [points[s] for s in sizes if s in points], marker="o",
                        label=impl)
            ax.set_title(" ".join([dtype, *(f"{k}={v}" for k, v in options)]), fontsize=8)
            ax.set_ylabel("TFLOP/s" if workload == "attention" else "GB/s", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.set_ylim(bottom=0)
        axes[0][0].legend(fontsize=7)
        fig.suptitle(f"{workload} ({device})", fontsize=9)
        fig.tight_layout()
        fig.savefig(folder / f"{workload}.png", dpi=80)
        plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", type=Path, help="the folder for kernels.md, kernels.json and the plots")
    parser.add_argument("--build", metavar="ARCH", help="compile every variant for ARCH here (no GPU needed)")
    parser.add_argument("--only", help="comma-separated workloads (attention, softmax, rms_norm, layer_norm, add)")
    parser.add_argument("--quick", action="store_true", help="fewer sizes and rounds")
    args = parser.parse_args(argv)
    if args.build:
        build(args.build)
        return 0
    if args.out is None:
        parser.error("give the output folder (or --build ARCH)")
    if st.current_backend().name != "cuda":
        print("bench/kernels.py times kernels on a GPU; this machine runs the CPU interpreter", file=sys.stderr)
        return 1
    import torch
    import triton

    only = set(args.only.split(",")) if args.only else None
    stream = torch.cuda.ExternalStream(int(st.current_backend().default_stream.handle))
    rows: list[dict[str, Any]] = []
    failed: list[str] = []
    args.out.mkdir(parents=True, exist_ok=True)
    device = torch.cuda.get_device_name()
    versions = (f"{time.strftime('%Y-%m-%d')}; torch {torch.__version__}, triton {triton.__version__}; "
                f"median of {5 if args.quick else 25} interleaved rounds")
    for case in cases(args.quick):
        if only and case.workload not in only:
            continue
        started = time.perf_counter()
        try:
            rows += run_case(case, 5 if args.quick else 25, torch, stream)
        except Exception as err:  # a wrong result or a refused launch: say so, and go on with the others
            print(f"{case.name}: FAILED: {type(err).__name__}: {err}", flush=True)
            failed.append(f"{case.name}: {err}")
            continue
        print(f"{case.name}: " + ", ".join(f"{r['impl']} {r['rate']:.0f} ({r['vs_torch']:.2f} of torch, "
                                            f"{r['vs_triton']:.2f} of Triton)"
                                            for r in rows if r["size"] == case.label and r["workload"] == case.workload
                                            and r["dtype"] == case.dtype and r["options"] == case.options)
              + f" [{time.perf_counter() - started:.1f} s]", flush=True)
        (args.out / "kernels.json").write_text(json.dumps(dict(device=device, versions=versions, rows=rows), indent=1))
    (args.out / "kernels.md").write_text(markdown(rows, device, versions) + "".join(f"\nFAILED: {f}\n" for f in failed))
    tuned = (tuned_attention, tuned_softmax, tuned_rms_norm, tuned_layer_norm)
    (args.out / "tuning.md").write_text("\n\n".join(t.report() for t in tuned if t.tunings))
    plot(rows, args.out, device)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
