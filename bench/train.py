"""A training run at a real size on the GPU: safetile's layers under torch.compile against plain torch.

    python -P bench/train.py --out DIR [--steps 300] [--profile] [--mode reduce-overhead] [--size tiny]
    python -P bench/train.py --plot DIR/train.json

The model is bench/backward.py's ``Block`` (a Qwen3-shaped decoder: vocabulary
32768, dimension 1024, 16 query and 8 key/value heads of 64, RMSNorm on
queries and keys, a SiLU-gated MLP of 3072; bf16 parameters), trained with
AdamW (``foreach``) on 4 x 1024 tokens a step, twice from the same initial
weights and the same batches:

* **safetile**: its RMSNorms, causal grouped-query attention and
  cross-entropy (``safetile.nn``), the model under
  ``torch.compile(fullgraph=True)``;
* **torch**: the same model with torch's layers, eager (the reference), and
  under ``torch.compile`` (its time a step: the issue's other peer).

The data is learnable, so the curve falls: a fixed pool of batches whose
token after ``t`` is ``PERMUTATION[t]`` nine times in ten (else a random
token), drawn once from a seeded generator.  Losses are kept on the GPU and
read at the end (no wait a step).  ``DIR/train.json`` holds both curves, their
largest and mean absolute difference, and each side's time a step (the wall
time of the steps after ``WARM``, all enqueued, one wait at the end: the
host's time where the host is slower than the GPU).

``--profile`` adds where a step's time goes, safetile's and plain torch's
under torch.compile (``DIR/profile-{safetile,torch.compile}-*.txt``, and
``train.json``'s ``profile``): ``torch.profiler`` of ``PROFILED`` steps (CPU
time and CUDA time per op; each CUDA kernel's time a step, so the two steps'
kernels compare; each kernel op's self CPU a call), the host's time a step
without waiting against the GPU's (CUDA events, the host kept ahead by a
spin), the kernel launches a step; for safetile's, one step under
``torch.cuda.set_sync_debug_mode("error")`` (a host wait raises), the host
time of one call of each kernel op against its torch counterpart on small
tensors (the GPU's time negligible), and cProfile's account of 200 calls of
``rms_norm`` forward and backward (``DIR/profile-host-rms_norm.txt``).

``--steady`` times every run's step again once all have compiled and trained
(``train.json``'s ``steady_rounds``: rounds of steps back to back, the runs'
order rotated a round; ``train``'s figure is each run's steps right after its
own compile, safetile's right after the process's first, and ran 5.99 ms a step
in run -s7h2 where the same step back to back afterwards ran 4.6 to 4.9), and
adds where the two compiled steps' time goes back to back (``steady``): the
host's time of each step's call (a call that waits for the
GPU stands out, and calls behind 100 ms of GPU work), the time a step with the
garbage collector off and the collections a run makes, cProfile of the steps
(``DIR/profile-{safetile,torch.compile}-steady.txt``) and torch.profiler's
trace of a few (``DIR/trace-*.json.gz``).

``--mode reduce-overhead`` compiles both compiled runs with CUDA graphs (the
kernel ops record into a capture as torch's do): the host's Python a step is
replayed, not paid.  ``--size tiny`` runs the same on a small model (CPU tensors work: the
interpreter), to try the script.  ``--plot DIR/train.json`` draws both loss
curves and their difference into ``DIR/train.png`` (matplotlib, here: the GPU
machine need not have it).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import gzip
import io
import json
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent))  # backward (python -P leaves the folder out)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from backward import STEP, STEP_BATCH, STEP_SEQ, Block  # noqa: E402

import safetile.nn as snn  # noqa: E402

SIZES: dict[str, tuple[dict[str, int], int, int]] = {
    "real": (STEP, STEP_BATCH, STEP_SEQ),
    "tiny": (dict(vocab=64, dim=32, heads=4, kv_heads=2, hidden=64), 2, 16),
}
"""Model config, batch and sequence length of each ``--size``."""
POOL = 16
"""Batches in the data's pool (step ``i`` trains on batch ``i % POOL``)."""
FOLLOW = 0.9
"""How often the next token is the permutation's (else a random token)."""
LR = 1e-3
WARM = 10
"""Steps left out of the time a step (compiles, the allocator's first sizes)."""
PROFILED = 5
STEADY = 100
"""Steps of each back-to-back measurement of ``--steady``."""
ROUNDS = 3
"""``--steady``'s rounds of every run's step, the order rotated each round."""
TRACED = 3
"""Steps in ``--steady``'s torch.profiler trace."""
KERNELS = 30
"""The CUDA kernels ``--profile`` lists a step's time of (the largest)."""
RUNS = (("safetile + torch.compile", True, True), ("torch eager", False, False), ("torch.compile", False, True))
"""(name, safetile's layers, under torch.compile) of each run; the curves are compared to torch eager's."""


def batches(vocab: int, batch: int, seq: int, device: str) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """``POOL`` (inputs, targets) pairs of the learnable data (seeded: the same for both sides)."""
    gen = torch.Generator().manual_seed(1)
    permutation = torch.randperm(vocab, generator=gen)
    out = []
    for _ in range(POOL):
        tokens = torch.empty(batch, seq + 1, dtype=torch.long)
        tokens[:, 0] = torch.randint(0, vocab, (batch,), generator=gen)
        noise = torch.randint(0, vocab, (batch, seq), generator=gen)
        follow = torch.rand(batch, seq, generator=gen) < FOLLOW
        for i in range(seq):
            tokens[:, i + 1] = torch.where(follow[:, i], permutation[tokens[:, i]], noise[:, i])
        tokens = tokens.to(device)
        out.append((tokens[:, :-1].contiguous(), tokens[:, 1:].contiguous()))
    return out


def make_step(model: torch.nn.Module, compiled: bool,
              mode: str = "default") -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    """One training step of ``model`` (under ``torch.compile(fullgraph=True, mode=mode)`` where
    ``compiled``); it returns the loss, a copy of its own: a CUDA graph's output (``reduce-overhead``)
    is overwritten by the next replay."""
    forward = torch.compile(model, fullgraph=True, mode=mode) if compiled else model
    optimizer = torch.optim.AdamW(model.parameters(), lr=LR, foreach=True)
    graphs = compiled and mode == "reduce-overhead"

    def step(inputs: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        if graphs:
            torch.compiler.cudagraph_mark_step_begin()
        loss = forward(inputs, targets)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        return loss.detach().clone()

    return step


def _sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def train(step: Callable[..., torch.Tensor], data: list[tuple[torch.Tensor, torch.Tensor]], steps: int,
          device: str) -> dict[str, Any]:
    """Run ``steps`` steps; the losses (read once at the end) and the time a step after ``WARM``."""
    losses = []
    started = time.perf_counter()
    for i in range(min(WARM, steps)):
        losses.append(step(*data[i % POOL]))
    _sync(device)
    warm_s = time.perf_counter() - started
    started = time.perf_counter()
    for i in range(WARM, steps):
        losses.append(step(*data[i % POOL]))
    _sync(device)
    timed = steps - WARM
    return {"losses": [float(x) for x in torch.stack(losses).float().cpu()], "first_steps_s": warm_s,
            "step_ms": (time.perf_counter() - started) / timed * 1e3 if timed > 0 else None}


def profile(step: Callable[..., torch.Tensor], data: list[tuple[torch.Tensor, torch.Tensor]], out: Path,
            device: str, label: str) -> dict[str, Any]:
    """Where a (warm) step's time goes; writes ``out/profile-LABEL-*.txt``: torch.profiler's CPU
    and CUDA tables, the CUDA kernels' time a step (the largest ``KERNELS``), the host's time a
    step (nothing waited for) against the GPU's (the host kept ahead by a spin)."""
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as torch_profile

    result: dict[str, Any] = {}
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
    with torch_profile(activities=activities) as prof:
        for i in range(PROFILED):
            step(*data[i % POOL])
        _sync(device)
    events = prof.key_averages()
    (out / f"profile-{label}-cpu.txt").write_text(events.table(sort_by="self_cpu_time_total", row_limit=40))
    if device == "cuda":
        (out / f"profile-{label}-cuda.txt").write_text(events.table(sort_by="self_cuda_time_total", row_limit=40))
        kernels = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
        result["gpu_ops_per_step"] = len(kernels) / PROFILED
        on_gpu = sorted((e for e in events if e.device_type == torch.autograd.DeviceType.CUDA),
                        key=lambda e: -e.device_time_total)
        result["gpu_busy_ms_per_step"] = sum(e.device_time_total for e in on_gpu) / 1e3 / PROFILED
        result["gpu_kernels_us_per_step"] = {e.key: e.device_time_total / PROFILED for e in on_gpu[:KERNELS]}
    result["kernel_ops_per_step"] = {e.key: e.count / PROFILED for e in events if e.key.startswith("safetile::")}
    result["kernel_ops_self_cpu_us"] = {e.key: e.self_cpu_time_total / e.count for e in events
                                        if e.key.startswith("safetile::")}
    host = []
    for i in range(PROFILED):
        _sync(device)
        started = time.perf_counter()
        step(*data[i % POOL])
        host.append(time.perf_counter() - started)
    _sync(device)
    result["host_ms_per_step"] = sorted(host)[len(host) // 2] * 1e3
    if device == "cuda":
        gpu = []
        for i in range(PROFILED):
            torch.cuda._sleep(200_000_000)
            begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            begin.record()
            step(*data[i % POOL])
            end.record()
            end.synchronize()
            gpu.append(begin.elapsed_time(end))
        result["gpu_ms_per_step_host_ahead"] = sorted(gpu)[len(gpu) // 2]
    return result


def _back_to_back(step: Callable[..., torch.Tensor], data: list[tuple[torch.Tensor, torch.Tensor]], count: int,
                  device: str) -> dict[str, Any]:
    """``count`` steps back to back: the wall time a step (one wait at the end) and the host's time of
    each call (``step()`` returning: a call that waits for the GPU stands far above the median)."""
    calls = []
    _sync(device)
    started = time.perf_counter()
    for i in range(count):
        begin = time.perf_counter()
        step(*data[i % POOL])
        calls.append((time.perf_counter() - begin) * 1e3)
    _sync(device)
    wall = (time.perf_counter() - started) / count * 1e3
    ordered = sorted(calls)
    return {"wall_ms_per_step": wall, "call_ms_median": ordered[len(ordered) // 2],
            "call_ms_mean": sum(calls) / len(calls), "call_ms_p90": ordered[len(ordered) * 9 // 10],
            "call_ms_max": ordered[-1], "call_ms_min": ordered[0]}


def steady_rounds(steps: dict[str, Callable[..., torch.Tensor]], data: list[tuple[torch.Tensor, torch.Tensor]],
                  device: str, rounds: int = ROUNDS, count: int = STEADY) -> dict[str, list[dict[str, Any]]]:
    """Every run's step timed again after all of them compiled and trained, ``rounds`` rounds of
    ``count`` steps back to back, the runs' order rotated each round: ``train``'s time a step is
    each run's first steps after its own compile, safetile's right after the process's first compile
    (run -s7h2: 5.99 ms a step there; the same step back to back afterwards 4.6 to 4.9, why not
    known)."""
    names = list(steps)
    result: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            result[name].append(_back_to_back(steps[name], data, count, device))
    return result


def steady(step: Callable[..., torch.Tensor], data: list[tuple[torch.Tensor, torch.Tensor]], out: Path,
           device: str, label: str, steps: int = STEADY) -> dict[str, Any]:
    """Where a step's time goes back to back (the steady state), not from an idle GPU as ``profile``
    measures it: ``steps`` steps with the garbage collector on and off and the collections a run
    makes; on the GPU, calls made behind 100 ms of GPU work (a call that waits for the GPU, by
    any driver call, takes that long); cProfile of ``steps`` steps (``out/profile-LABEL-steady.txt``,
    by own time), and torch.profiler's trace of ``TRACED`` steps in the middle of a run
    (``out/trace-LABEL.json.gz``: the GPU's idle gaps against what the host was doing)."""
    result: dict[str, Any] = {}
    collections = [s["collections"] for s in gc.get_stats()]
    result["gc_on"] = _back_to_back(step, data, steps, device)
    result["gc_collections_in_run"] = [s["collections"] - c for s, c in zip(gc.get_stats(), collections)]
    gc.collect()
    gc.disable()
    try:
        result["gc_off"] = _back_to_back(step, data, steps, device)
    finally:
        gc.enable()
    if device == "cuda":
        behind = []
        for i in range(5):
            torch.cuda._sleep(200_000_000)
            begin = time.perf_counter()
            step(*data[i % POOL])
            behind.append((time.perf_counter() - begin) * 1e3)
            _sync(device)
        result["call_ms_behind_a_busy_gpu"] = behind
    profiler = cProfile.Profile()
    _sync(device)
    profiler.runcall(lambda: [step(*data[i % POOL]) for i in range(steps)])
    _sync(device)
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(45)
    pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(45)
    (out / f"profile-{label}-steady.txt").write_text(text.getvalue())
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as torch_profile

    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
    for i in range(10):
        step(*data[i % POOL])
    with torch_profile(activities=activities) as prof:
        for i in range(TRACED):
            step(*data[i % POOL])
        _sync(device)
    trace = out / f"trace-{label}.json"
    prof.export_chrome_trace(str(trace))
    with open(trace, "rb") as raw, gzip.open(f"{trace}.gz", "wb") as packed:
        packed.write(raw.read())
    trace.unlink()
    return result


def host_waits(step: Callable[..., torch.Tensor], data: list[tuple[torch.Tensor, torch.Tensor]]) -> str:
    """Whether a step waits for the GPU on the host: one step under ``set_sync_debug_mode("error")``."""
    torch.cuda.set_sync_debug_mode("error")
    try:
        step(*data[0])
        return "none (a step ran under set_sync_debug_mode('error'))"
    except RuntimeError as err:
        return f"{type(err).__name__}: {err}"
    finally:
        torch.cuda.set_sync_debug_mode(0)


def op_host_costs(device: str, calls: int = 200) -> dict[str, Any]:
    """The host's µs of one call of each layer (forward, and forward + backward), nothing waited for
    until the end: safetile's kernel ops against torch's.  The kernels' variants are the step's (the
    same tiles and facts; the row counts are dynamic extents), on tensors whose GPU time is small."""
    dtype = torch.bfloat16
    x = torch.randn(65536, 64, device=device, dtype=dtype, requires_grad=True)  # the step's query norm
    w = torch.ones(64, device=device, dtype=dtype, requires_grad=True)
    q = torch.randn(1, 16, 64, 64, device=device, dtype=dtype, requires_grad=True)
    kv = torch.randn(1, 8, 64, 64, device=device, dtype=dtype, requires_grad=True)
    logits = torch.randn(16, 32768, device=device, dtype=dtype)
    target = torch.zeros(16, dtype=torch.long, device=device)
    cases: dict[str, Callable[[], Any]] = {
        "safetile rms_norm fwd": lambda: snn.rms_norm(x, w),
        "torch rms_norm fwd": lambda: F.rms_norm(x, (64,), w),
        "safetile rms_norm fwd+bwd": lambda: snn.rms_norm(x, w).sum().backward(),
        "torch rms_norm fwd+bwd": lambda: F.rms_norm(x, (64,), w).sum().backward(),
        "safetile attention fwd": lambda: snn.attention(q, kv, kv, causal=True),
        "torch attention fwd": lambda: F.scaled_dot_product_attention(q, kv, kv, is_causal=True, enable_gqa=True),
        "safetile cross_entropy fwd": lambda: snn.cross_entropy(logits, target),
        "torch cross_entropy fwd": lambda: F.cross_entropy(logits, target),
    }
    out: dict[str, Any] = {}
    for name, call in cases.items():
        try:
            for _ in range(5):
                call()
            _sync(device)
            started = time.perf_counter()
            for _ in range(calls):
                call()
            out[name] = (time.perf_counter() - started) / calls * 1e6
            _sync(device)
        except Exception as err:  # noqa: BLE001 - report it, go on with the next case
            out[name] = f"{type(err).__name__}: {err}"
    profiler = cProfile.Profile()
    profiler.runcall(lambda: [snn.rms_norm(x, w).sum().backward() for _ in range(calls)])
    _sync(device)
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(40)
    pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(40)
    out["cprofile"] = text.getvalue()
    return out


def plot(result_path: Path) -> Path:
    """Both loss curves of ``train.json`` and their difference, into ``train.png`` beside it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = json.loads(result_path.read_text())
    runs = result["runs"]
    fig, (curves, diff) = plt.subplots(2, 1, figsize=(8, 6), sharex=True, height_ratios=(3, 1))
    for name, run in runs.items():
        step_ms = "" if run["step_ms"] is None else f", {run['step_ms']:.2f} ms a step"
        curves.plot(run["losses"], label=f"{name}{step_ms}", linewidth=1)
    curves.set_yscale("log")
    curves.set_ylabel("loss")
    curves.legend()
    config = result["config"]
    curves.set_title(f"{result['device']}: Qwen3-shaped block (dim {config['dim']}, vocabulary {config['vocab']}), "
                     f"{result['batch']} x {result['seq']} tokens, {result['dtype'].removeprefix('torch.')}",
                     fontsize=9)
    ours, reference = (runs[n]["losses"] for n in ("safetile + torch.compile", "torch eager"))
    diff.plot([a - b for a, b in zip(ours, reference)], linewidth=1, color="black")
    diff.set_ylabel("safetile - torch")
    diff.set_xlabel("step")
    fig.tight_layout()
    out = result_path.with_suffix(".png")
    fig.savefig(out, dpi=110)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", type=Path, help="draw DIR/train.json into DIR/train.png, and nothing else")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--size", choices=SIZES, default="real")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--steady", action="store_true",
                        help="every run's step timed again in rotated rounds after all compiled, and where both "
                             "compiled steps' time goes back to back: each call's host time, the garbage collector "
                             "off, calls behind GPU work, cProfile, a torch.profiler trace")
    parser.add_argument("--mode", choices=("default", "reduce-overhead"), default="default",
                        help="torch.compile's mode for both compiled runs (reduce-overhead: CUDA graphs, the host's "
                             "time a step replayed, not paid)")
    args = parser.parse_args()
    if args.plot is not None:
        print(plot(args.plot))
        return
    if args.out is None:
        parser.error("--out DIR is required (or --plot DIR/train.json)")
    args.out.mkdir(parents=True, exist_ok=True)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    config, batch, seq = SIZES[args.size]
    dtype = torch.bfloat16 if device == "cuda" else torch.float32
    data = batches(config["vocab"], batch, seq, device)
    torch.manual_seed(0)
    base = Block(**config, safetile=False).to(device=device, dtype=dtype)
    result: dict[str, Any] = {"device": torch.cuda.get_device_name() if device == "cuda" else "cpu",
                              "torch": torch.__version__, "config": config, "batch": batch, "seq": seq,
                              "dtype": str(dtype), "steps": args.steps, "lr": LR, "warm_steps": WARM,
                              "compile_mode": args.mode, "runs": {}}
    steps = {}
    for name, safetile, compiled in RUNS:
        model = Block(**config, safetile=safetile).to(device=device, dtype=dtype)
        model.load_state_dict(base.state_dict())
        steps[name] = make_step(model, compiled, args.mode)
        result["runs"][name] = train(steps[name], data, args.steps, device)
        print(f"{name}: {result['runs'][name]['step_ms']} ms a step, losses "
              f"{result['runs'][name]['losses'][0]:.4f} -> {result['runs'][name]['losses'][-1]:.4f}", flush=True)
        (args.out / "train.json").write_text(json.dumps(result, indent=1))
    ours, reference = (result["runs"][n]["losses"] for n in ("safetile + torch.compile", "torch eager"))
    differences = [abs(a - b) for a, b in zip(ours, reference)]
    result["max_abs_difference"] = max(differences)
    result["mean_abs_difference"] = sum(differences) / len(differences)
    result["max_relative_difference"] = max(d / abs(b) for d, b in zip(differences, reference))
    print(f"max |difference| {result['max_abs_difference']:.4f}, mean {result['mean_abs_difference']:.4f}", flush=True)
    (args.out / "train.json").write_text(json.dumps(result, indent=1))
    if args.steady:
        result["steady_rounds"] = steady_rounds(steps, data, device)
        for name, rounds in result["steady_rounds"].items():
            print(f"{name}: back to back, ms a step by round: "
                  + ", ".join(f"{r['wall_ms_per_step']:.3f}" for r in rounds), flush=True)
        result["steady"] = {label: steady(steps[name], data, args.out, device, label)
                            for name, label in (("safetile + torch.compile", "safetile"),
                                                ("torch.compile", "torch.compile"))}
        print(json.dumps(result["steady"], indent=1), flush=True)
        (args.out / "train.json").write_text(json.dumps(result, indent=1))
    if args.profile:
        ours = steps["safetile + torch.compile"]
        result["profile"] = {label: profile(steps[name], data, args.out, device, label)
                             for name, label in (("safetile + torch.compile", "safetile"),
                                                 ("torch.compile", "torch.compile"))}
        if device == "cuda":
            result["profile"]["safetile"]["host_waits"] = host_waits(ours, data)
        costs = op_host_costs(device)
        (args.out / "profile-host-rms_norm.txt").write_text(costs.pop("cprofile"))
        result["profile"]["op_host_us"] = costs
        print(json.dumps(result["profile"], indent=1), flush=True)
        (args.out / "train.json").write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
