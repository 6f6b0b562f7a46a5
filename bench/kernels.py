"""Every example kernel against torch and Triton, side by side, by bench/method.py's method.

    SAFETILE_CACHE_DIR=build/gpu-cache python bench/kernels.py OUT_DIR [--only attention,softmax] [--quick]
        [--rounds N] [--steady-s SECONDS] [--widths 1024,4096] [--dtypes f16,bf16] [--budget-s SECONDS]
        [--fail-fast]
    .venv/bin/python bench/kernels.py --build sm_90      # here, no GPU: every launched variant's cubin into
                                                         # the cache, and each one's registers/spill/shared
                                                         # memory; exit 1 if a row launcher's candidate spills

Workloads: attention forward (``examples/flash_attention.py``; f16; head dim
64 and 128; causal or not), the row kernels at every width from 256 to
262,144 columns (``examples/softmax.py`` softmax and log-softmax,
``examples/rms_norm.py``, ``examples/layer_norm.py``; f16, bf16, f32; each
launched as a user calls it, through ``launch_softmax``/``launch_rms_norm``/
``launch_layer_norm``, which pick the kernel for the width and tune its
tile and hints there: ``st.autotune`` over the width's candidates, the first
launch of each case timing them; ``tuning.md`` gets every candidate's time) and
vector add (``examples/add.py``; f32).  The peers: torch
(``scaled_dot_product_attention`` with cuDNN and with FLASH forced,
``torch.softmax``, ``torch.log_softmax``, ``torch.nn.functional.rms_norm`` /
``layer_norm``, ``torch.add``) and the Triton kernels of
``bench/triton_kernels.py`` (the tutorials' row kernels; attention autotuned).

Every output is NaN-poisoned, each implementation runs once and is checked
against torch in f32, then ``Method.compare`` times them (bench/method.py):
shuffled rounds, each implementation warmed on itself; the row kernels and
add are memory-bound (an L2 flush before each timed launch, burst figures:
they stay far from the power cap), attention is compute-bound (a cool-down
before each burst timing, and a steady state of 1 s each, its headline).
The copy bandwidth (a 1 GiB device-to-device copy) is measured at the start
and the end; the row kernels are also given as a fraction of it.  Clocks,
power and throttle reasons are sampled throughout (``ClockSampler``).
OUT_DIR gets ``kernels.md``, ``kernels.json`` and a PNG per workload.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # triton_kernels, method (python -P leaves it out)

import safetile as st  # noqa: E402
from safetile import rows as st_rows  # noqa: E402
from add import add  # noqa: E402
from flash_attention import Plan, flash_attention  # noqa: E402
import layer_norm as layer_norm_example  # noqa: E402
import rms_norm as rms_norm_example  # noqa: E402
import softmax as softmax_example  # noqa: E402
from layer_norm import launch_layer_norm  # noqa: E402
from method import ClockSampler, Measured, Method, device_state  # noqa: E402
from rms_norm import launch_rms_norm  # noqa: E402
from softmax import launch_softmax  # noqa: E402

from safetile.backend.resources import kernel_resources  # noqa: E402


HEAD_DIMS = (64, 128)
ATTENTION_CANDIDATES = (
    Plan(128, 128, 1), Plan(128, 128, 0), Plan(128, 128, 4), Plan(128, 128, 1, latency=2), Plan(128, 64, 1),
    Plan(64, 128, 1), Plan(64, 128, 0),
    Plan(128, 128, 1, register_store=True), Plan(128, 128, 0, register_store=True),
    Plan(64, 128, 1, register_store=True), Plan(64, 128, 0, register_store=True),
)
"""The example's plans tried per case (``st.autotune``; every one compiles causal and not, no spill
on sm_90: 168 registers with 8 worker warps, 128 at occupancy 2).  ``order`` 0 runs the head
fastest (run -s5's order), G the query tiles of G heads at a time; the first seven are run -s6's,
then the output stored from registers (session 17: the pick in 8 of 12 cases).  Session 17 also
tried six plans rescaling lazily (a ``LAZY`` generic, commit dbfc768: 0.61-0.70 of cuDNN in burst
at 128x128 against 0.72-0.95 without, 0.76-0.87 at 64x128 in the grouped order against 0.82-0.93;
dropped).  Run -s5 also tried 256x64 with 8 warps (spills 376 B at
d128; at d64 1-14% slower than 128x128 with 8 warps), latency 3 (within noise of none and latency
2), latency 4 and 6 (latency 3's shared memory or none's), and 256x128 (spills 192-664 B at both
head dimensions)."""
ATTENTION_PERSISTENT_AND_REVERSED = (
    Plan(64, 128, 0, register_store=True, reverse=True), Plan(64, 128, 1, register_store=True, reverse=True),
    Plan(128, 128, 4, reverse=True), Plan(128, 128, 1, register_store=True, reverse=True),
    Plan(64, 128, 1, register_store=True, persistent=True), Plan(64, 128, 0, register_store=True, persistent=True),
    Plan(128, 128, 1, register_store=True, persistent=True), Plan(128, 128, 1, latency=2, persistent=True),
    Plan(64, 128, 0, register_store=True, reverse=True, persistent=True),
    Plan(64, 128, 1, register_store=True, reverse=True, persistent=True),
    Plan(128, 128, 4, reverse=True, persistent=True),
)
"""Session 18's plans (``bench/attention_candidates.py``): the query tiles walked from the last
(``reverse``, causal's heaviest first: session 17's causal picks reversed) and the persistent kernel
(one wave of blocks walking query tiles: session 17's picks and the shipped 128x128 non-causal
ones), and both.  Same registers and shared memory as the plan without (tileiras 13.4, sm_90)."""


def attention_configs(d: int) -> list[dict[str, Any]]:
    """``ATTENTION_CANDIDATES`` and session 18's reversed plans as ``st.autotune`` configs at head
    dimension ``d`` (the persistent ones are another kernel's: ``bench/attention_candidates.py``)."""
    tried = ATTENTION_CANDIDATES + tuple(p for p in ATTENTION_PERSISTENT_AND_REVERSED if not p.persistent)
    return [plan.config(d) for plan in tried]


tuned_attention = {d: st.autotune(configs=attention_configs(d), key=["q", "k", "CAUSAL", "GROUP"])(flash_attention)
                   for d in HEAD_DIMS}
"""One tuned kernel per head dimension (a config's ``BMD`` counts ``d``)."""
ROW_WORKLOADS = ("softmax", "log_softmax", "rms_norm", "layer_norm")
WIDTHS = (256, 1024, 4096, 16384, 65536, 262144)
ROW_ELEMENTS = 1 << 26
"""Elements of each row case's input (rows = this / width): 128 MiB in f16, more than twice the L2."""
EPS = 1e-5
HEADS = 8
"""Query heads per batch entry in the attention cases (32 heads in all: a batch of 4)."""
ROW_METHOD = Method(rounds=10, warm=5, reps=3, flush_l2=True)
ATTENTION_METHOD = Method(rounds=6, warm=10, reps=3, cool_s=0.2, steady_s=1.0)
ADD_METHOD = Method(rounds=10, warm=5, reps=3, flush_l2=True)
SPIN_CYCLES = 1_000_000
"""``torch.cuda._sleep`` before each attention timing (about 0.5 ms): the host queues the launches meanwhile."""


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
    """Attention: causal, d."""

    @property
    def name(self) -> str:
        extra = "".join(f" {k}={v}" for k, v in self.options.items())
        return f"{self.workload} {self.dtype} {self.label}{extra}"

    @property
    def peer(self) -> str:
        """The implementation the ratios are headed by."""
        return "torch SDPA (cuDNN)" if self.workload == "attention" else "triton" if self.workload != "add" else "torch"


def _size(dtype: str) -> int:
    return {"f16": 2, "bf16": 2, "f32": 4}[dtype]


def cases(quick: bool) -> list[Case]:
    found: list[Case] = []
    batch_heads = 32
    for d, causal in ((d, causal) for d in HEAD_DIMS for causal in (0, 1)):
        for seq in (1024,) if quick else (1024, 4096, 8192):
            flops = 4.0 * batch_heads * seq * seq * d / (2 if causal else 1)
            found.append(Case("attention", "f16", (batch_heads, seq, d), f"S={seq}", flops, dict(d=d, causal=causal)))
    for workload in ROW_WORKLOADS:
        vectors = {"rms_norm": 1, "layer_norm": 2}.get(workload, 0)
        for dtype in ("f16",) if quick else ("f16", "bf16", "f32"):
            for cols in (1024, 65536) if quick else WIDTHS:
                rows = ROW_ELEMENTS // cols
                work = (2.0 * rows + vectors) * cols * _size(dtype)
                found.append(Case(workload, dtype, (rows, cols), str(cols), work))
    found.append(Case("add", "f32", (1 << 28,), "2^28", 3.0 * (1 << 28) * 4))
    return found


def selected(case: Case, only: set[str] | None, widths: set[int] | None, dtypes: set[str] | None) -> bool:
    """Whether ``case`` is among the workloads ``only``, the row ``widths`` (other workloads pass)
    and the element types ``dtypes`` (``None``: all)."""
    return ((not only or case.workload in only) and (not dtypes or case.dtype in dtypes)
            and (not widths or case.workload not in ROW_WORKLOADS or case.shape[1] in widths))


def in_width_order(found: list[Case], widths: list[int] | None) -> list[Case]:
    """``found`` with its row cases in the order of ``widths`` (all workloads' cases of the first
    width, then of the next: under ``--budget-s`` the widths given first are the ones measured);
    the other workloads first, as they came."""
    if not widths:
        return found
    return sorted(found, key=lambda c: widths.index(c.shape[1]) + 1 if c.workload in ROW_WORKLOADS else 0)


def _matrix(dtype: st.DType, shape: tuple[int, ...], tile: tuple[int, ...] | None = None) -> st.TensorSpec:
    strides = tuple(math.prod(shape[i + 1:]) for i in range(len(shape)))
    return st.TensorSpec(dtype, shape, strides, tile, True)


def launch_row(case: Case, z: Any, x: Any, w: Any, b: Any) -> st.DeviceOp:
    """The example's launcher for ``case`` (it picks the kernel and tiles for the width)."""
    if case.workload in ("softmax", "log_softmax"):
        return launch_softmax(z, x, log=case.workload == "log_softmax")
    if case.workload == "rms_norm":
        return launch_rms_norm(z, x, w, EPS)
    return launch_layer_norm(z, x, w, b, EPS)


def launcher(case: Case) -> Any:
    """The example's tuned kernel that ``launch_row`` launches for ``case`` (``st.autotune`` over
    the width's candidates: ``safetile/rows.py``'s tables)."""
    name = "softmax" if case.workload == "log_softmax" else case.workload
    module = {"softmax": softmax_example, "rms_norm": rms_norm_example, "layer_norm": layer_norm_example}[name]
    return module.LAUNCHER.tuned(case.shape[1], getattr(st, case.dtype))


def launcher_spec(case: Case, rows: int = 16) -> dict[str, Any]:
    """What ``launcher(case)`` specializes on for ``rows`` rows (each config tiles the output its way)."""
    dtype, cols = getattr(st, case.dtype), case.shape[1]
    spec: dict[str, Any] = dict(z=_matrix(dtype, (rows, cols)), x=_matrix(dtype, (rows, cols)))
    if case.workload in ("softmax", "log_softmax"):
        return spec | dict(LOG=int(case.workload == "log_softmax"))
    spec["w"] = _matrix(dtype, (cols,))
    return spec | (dict(b=_matrix(dtype, (cols,))) if case.workload == "layer_norm" else {})


def nn_forward(case: Case, rows: int = 16) -> tuple[Any, dict[str, Any]] | None:
    """``safetile.nn``'s forward kernel for ``case`` and what it specializes on for ``rows`` rows
    (the tiles of ``safetile/rows.py``'s default, as ``safetile.nn`` launches it); ``None`` where
    ``safetile.nn`` takes no such row (wider than its ``MAX_ROW``).  Imports torch."""
    import safetile.nn as nn
    from safetile.nn import kernels as K

    dtype, cols = getattr(st, case.dtype), case.shape[1]
    if cols > nn.MAX_ROW:
        return None
    name = "softmax" if case.workload == "log_softmax" else case.workload
    table = {"softmax": st_rows.SOFTMAX, "rms_norm": st_rows.RMS_NORM, "layer_norm": st_rows.LAYER_NORM}[name]
    config = table.default(cols, dtype)
    tile = (config["BM"], config["BN"])
    spec: dict[str, Any] = dict(y=_matrix(dtype, (rows, cols), tile), x=_matrix(dtype, (rows, cols)), A=st.f32)
    if name == "softmax":
        return K.softmax_forward, spec | dict(LOG=int(case.workload == "log_softmax"))
    stats = [n for n in ("mean", "rstd") if name == "layer_norm" or n == "rstd"]
    spec |= {n: _matrix(st.f32, (rows,), tile[:1]) for n in stats} | dict(w=_matrix(dtype, (cols,)), EPS=EPS)
    if name == "layer_norm":
        return K.layer_norm_forward, spec | dict(b=_matrix(dtype, (cols,)))
    return K.rms_norm_forward, spec


# -- ahead of time, here --------------------------------------------------------------


def new_resources(done: Any, seen: set[str]) -> Any:
    """tileiras's resources of a warmed-up variant's cubin (``kernel_resources``), or ``None`` where it
    has none or one already in ``seen`` (a config compiling to a cubin listed before); ``seen`` takes it."""
    if done.cubin is None or str(done.cubin) in seen:
        return None
    seen.add(str(done.cubin))
    return kernel_resources(done.cubin.read_bytes(), done.symbol)


def build(arch: str, only: set[str] | None = None, widths: set[int] | None = None,
          dtypes: set[str] | None = None) -> int:
    """Every variant the run launches, into the cache for ``arch``, and its resources: every
    candidate of the row launchers' tuned kernels, ``safetile.nn``'s forward rows at the widths
    it takes (their default tiles and hints) and every attention config through ``warm_up`` (16
    rows, as divisible by 16 as the GPU's).  1 if a row launcher's candidate or an nn forward
    spills (none may: the check of docs/benchmarks.md's "no spills in any shipped config")."""
    print("| kernel | variant | registers | spill (stack bytes) | shared memory (bytes) |")
    print("|---|---|---|---|---|")
    seen: set[str] = set()
    spilling: list[str] = []

    def show(kernel: Any, spec: dict[str, Any], configs: list[str]) -> None:
        for done, config in zip(kernel.warm_up([spec], arch=arch), configs):
            usage = new_resources(done, seen)
            if usage is None:
                continue
            print(f"| {done.symbol} | {config} | {usage.registers} | {usage.spill_bytes} | "
                  f"{usage.shared_bytes} |", flush=True)
            if usage.spill_bytes and kernel not in tuned_attention.values():
                spilling.append(f"{done.symbol} ({config}): {usage.spill_bytes} bytes")

    for case in cases(quick=False):
        if not selected(case, only, widths, dtypes):
            continue
        dtype = getattr(st, case.dtype)
        if case.workload == "attention":
            bh, seq, d = case.shape
            q, tuned = _matrix(dtype, case.shape), tuned_attention[d]
            spec = dict(o=_matrix(dtype, (bh, seq * d), (1, 128 * d)), q=q, k=q, v=q, CAUSAL=case.options["causal"],
                        GROUP=1)
            show(tuned, spec, [c.text for c in tuned.configs])
        elif case.workload == "add":
            x = _matrix(dtype, case.shape)
            show(add, dict(z=_matrix(dtype, case.shape, (1024,)), x=x, y=x), [""])
        else:
            tuned = launcher(case)
            show(tuned, launcher_spec(case), [f"{case.name}: {c.text}" for c in tuned.configs])
            if forward := nn_forward(case):
                show(*forward, [f"safetile.nn {case.name}: the default's tile and hints"])
    for line in spilling:
        print(f"SPILLS: {line}", file=sys.stderr)
    return 1 if spilling else 0


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
        return dict(q=randn(*case.shape), k=randn(*case.shape), v=randn(*case.shape))
    if case.workload == "add":
        return dict(x=randn(*case.shape), y=randn(*case.shape))
    cols = case.shape[1]
    return dict(x=randn(*case.shape) * 4, w=randn(cols), b=randn(cols))


def _torch_calls(case: Case, a: dict[str, Any], torch: Any) -> dict[str, Callable[[], Any]]:
    """torch's calls, each returning its result (timed as a user calls it)."""
    f = torch.nn.functional
    if case.workload == "attention":
        from torch.nn.attention import SDPBackend, sdpa_kernel

        bh, seq, d = case.shape
        q4, k4, v4 = (t.view(bh // HEADS, HEADS, seq, d) for t in (a["q"], a["k"], a["v"]))
        causal = bool(case.options["causal"])

        def forced(backend: Any) -> Callable[[], Any]:
            def call() -> Any:
                with sdpa_kernel(backend):
                    return f.scaled_dot_product_attention(q4, k4, v4, is_causal=causal)
            return call

        return {"torch SDPA (cuDNN)": forced(SDPBackend.CUDNN_ATTENTION),
                "torch SDPA (flash)": forced(SDPBackend.FLASH_ATTENTION)}
    cols = case.shape[-1]
    call = {"add": lambda: torch.add(a["x"], a["y"]), "softmax": lambda: torch.softmax(a["x"], 1),
            "log_softmax": lambda: torch.log_softmax(a["x"], 1),
            "rms_norm": lambda: f.rms_norm(a["x"], (cols,), a["w"], EPS),
            "layer_norm": lambda: f.layer_norm(a["x"], (cols,), a["w"], a["b"], EPS)}[case.workload]
    return {"torch": call}


def _triton_call(case: Case, a: dict[str, Any], out: Any) -> Callable[[], Any]:
    import triton_kernels as tk

    if case.workload == "attention":
        d = case.shape[2]
        return lambda: tk.attention(out, a["q"], a["k"], a["v"], 1 / math.sqrt(d), bool(case.options["causal"]), 1)
    if case.workload == "add":
        return lambda: tk.add(out, a["x"], a["y"])
    if case.workload in ("softmax", "log_softmax"):
        return lambda: getattr(tk, case.workload)(out, a["x"])
    if case.workload == "rms_norm":
        return lambda: tk.rms_norm(out, a["x"], a["w"], EPS)
    return lambda: tk.layer_norm(out, a["x"], a["w"], a["b"], EPS)


def _ours(case: Case, a: dict[str, Any], torch: Any) -> Impl:
    """Our launch as a user makes it (the launcher; attention tuned first), prepared (checked and
    packed once)."""
    t = st.as_tensor
    out = torch.full_like(a["q"] if case.workload == "attention" else a["x"], math.nan)
    if case.workload == "add":
        prepared = add(t(out).partition((1024,)), t(a["x"]), t(a["y"])).prepare()
        return Impl("safetile", prepared.enqueue, out, "S=(1024,)", prepared)
    if case.workload == "attention":
        bh, seq, d = case.shape
        tuned = tuned_attention[d]
        before = set(tuned.tunings)
        # the example's output: [bh, seq, d] seen as [bh, seq * d], each query tile one (1, BM * d) tile
        op = tuned(t(out.view(bh, seq * d)).partition((1, 128 * d)), t(a["q"]), t(a["k"]), t(a["v"]),
                   1 / math.sqrt(d), CAUSAL=case.options["causal"], GROUP=1)
        (key,) = [k for k in tuned.tunings if k not in before]  # each case is a new problem
        chosen = tuned.tunings[key]
        prepared = op.prepare()
        return Impl("safetile", prepared.enqueue, out, chosen.outcomes[chosen.chosen].config, prepared)
    tuned = launcher(case)
    before = set(tuned.tunings)
    # z passed partitioned comes back partitioned: the op is the kernel's launch itself, which
    # can be prepared (a Tensor comes back through a `then`, which cannot)
    op = launch_row(case, t(out).partition((1, case.shape[1])), t(a["x"]), t(a["w"]), t(a["b"]))
    (key,) = [k for k in tuned.tunings if k not in before]  # each case is a new problem
    chosen = tuned.tunings[key]
    prepared = op.prepare()
    return Impl("safetile", prepared.enqueue, out, f"{tuned.name} {chosen.outcomes[chosen.chosen].config}", prepared)


def _check(case: Case, impl: Impl, reference: Any, torch: Any) -> float:
    got, ref = impl.out.float(), reference.float()
    if torch.isnan(got).any():
        raise RuntimeError(f"{case.name}: {impl.name} left NaN in its output")
    error = ((got - ref).abs().max() / ref.abs().max().clamp_min(1e-6)).item()
    limit = {"f16": 2e-2, "bf16": 4e-2, "f32": 1e-4}[case.dtype] * (5 if case.workload == "attention" else 1)
    if not error < limit:
        raise RuntimeError(f"{case.name}: {impl.name}: relative error {error:.3g} (limit {limit})")
    return error


def method_for(case: Case, rounds: int | None = None, steady_s: float | None = None) -> Method:
    """The workload's method, with ``rounds`` burst rounds and ``steady_s`` of steady state where
    given (the steady state only where the workload has one: compute-bound attention)."""
    method = (ATTENTION_METHOD if case.workload == "attention" else
              ADD_METHOD if case.workload == "add" else ROW_METHOD)
    if rounds:
        method = dataclasses.replace(method, rounds=rounds)
    if steady_s and method.steady_s:
        method = dataclasses.replace(method, steady_s=steady_s)
    return method


def run_case(case: Case, torch: Any, stream: Any, sampler: ClockSampler | None,
             method: Method | None = None) -> list[dict[str, Any]]:
    a = _inputs(case, torch)
    st_stream = st.current_backend().default_stream
    with torch.cuda.stream(stream):
        impls = [_ours(case, a, torch)]
        shape = impls[0].out
        for name, call in _torch_calls(case, a, torch).items():
            out = torch.full_like(shape, math.nan)
            impls.append(Impl(name, call, out, first=lambda out=out, call=call: out.copy_(call().view_as(out))))
        triton_out = torch.full_like(shape, math.nan)
        impls.append(Impl("triton", _triton_call(case, a, triton_out), triton_out))
        for impl in impls:
            (impl.first or impl.call)()
        stream.synchronize()
        reference = impls[1].out
        errors = {impl.name: _check(case, impl, reference, torch) for impl in impls}
        method = method or method_for(case)
        spin = (lambda: torch.cuda._sleep(SPIN_CYCLES)) if case.workload == "attention" else None
        measured = method.compare({i.name: i.call for i in impls}, case.peer, st_stream, sampler=sampler, spin=spin)
    for impl in impls:
        if impl.held is not None:
            impl.held.release()
    return [_row(case, impl, errors[impl.name], measured, [i.name for i in impls]) for impl in impls]


def _row(case: Case, impl: Impl, error: float, measured: Measured, names: list[str]) -> dict[str, Any]:
    summary = measured.summary(impl.name)
    unit = 1e12 if case.workload == "attention" else 1e9
    row = dict(workload=case.workload, dtype=case.dtype, size=case.label, shape=list(case.shape),
               options=case.options, impl=impl.name, config=impl.config, error=error, peer=case.peer,
               burst_ms=summary["burst_s"] * 1e3, rate=case.work / summary["burst_s"] / unit,
               clocks=summary["clocks"], order_first_round=measured.orders[0])
    if "steady_s" in summary:
        row.update(steady_ms=summary["steady_s"] * 1e3, steady_rate=case.work / summary["steady_s"] / unit)
    if "control_burst_s" in summary:
        row["control_rate"] = case.work / summary["control_burst_s"] / unit
    for other in names:
        if other != impl.name:
            row[f"burst vs {other}"] = measured.ratio(impl.name, other)
            if "steady_s" in summary:
                row[f"steady vs {other}"] = measured.ratio(impl.name, other, "steady")
    return row


def markdown(rows: list[dict[str, Any]], header: str) -> str:
    lines = [header, ""]
    for workload in dict.fromkeys(r["workload"] for r in rows):
        mine = [r for r in rows if r["workload"] == workload]
        steady = any("steady_rate" in r for r in mine)
        unit = "TFLOP/s" if workload == "attention" else "GB/s"
        peers = [n for n in dict.fromkeys(r["impl"] for r in mine) if not n.startswith("safetile")]
        cols = ["dtype", "size", "options", "implementation", "config", f"burst {unit}"]
        cols += [f"steady {unit}"] if steady else []
        cols += [f"ours vs {p} ({'steady' if steady else 'burst'})" for p in peers]
        if workload != "attention":
            cols.append("ours of copy")
        lines += [f"## {workload}", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        for r in mine:
            if r["impl"] != "safetile":
                continue
            options = " ".join(f"{k}={v}" for k, v in r["options"].items())
            cells = [r["dtype"], r["size"], options, r["impl"], r["config"], f"{r['rate']:.0f}"]
            cells += [f"{r['steady_rate']:.0f}"] if steady else []
            regime = "steady" if steady else "burst"
            cells += [_fmt(r.get(f"{regime} vs {p}")) for p in peers]
            if workload != "attention":
                cells.append(_fmt(r.get("of_copy")))
            lines.append("| " + " | ".join(cells) + " |")
        lines += ["", "Peers and the other configs (same cases):", "",
                  "| dtype | size | options | implementation | burst | steady | alone (control) |",
                  "|---|---|---|---|---|---|---|"]
        for r in mine:
            if r["impl"] == "safetile":
                continue
            options = " ".join(f"{k}={v}" for k, v in r["options"].items())
            lines.append(f"| {r['dtype']} | {r['size']} | {options} | {r['impl']} | {r['rate']:.0f} | "
                         f"{_fmt(r.get('steady_rate'), 0)} | {_fmt(r.get('control_rate'), 0)} |")
        lines.append("")
    return "\n".join(lines)


def _fmt(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def plot(rows: list[dict[str, Any]], folder: Path, device: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for workload in dict.fromkeys(r["workload"] for r in rows):
        mine = [r for r in rows if r["workload"] == workload]
        groups = list(dict.fromkeys((r["dtype"], tuple(sorted(r["options"].items()))) for r in mine))
        groups = list(dict.fromkeys((d, o if workload == "attention" else ()) for d, o in groups))
        fig, axes = plt.subplots(1, len(groups), figsize=(3.2 * len(groups) + 1, 3.4), squeeze=False)
        key = "steady_rate" if workload == "attention" else "rate"
        for ax, (dtype, options) in zip(axes[0], groups):
            part = [r for r in mine if r["dtype"] == dtype and (not options or
                                                              tuple(sorted(r["options"].items())) == options)]
            sizes = list(dict.fromkeys(r["size"] for r in part))
            for impl in dict.fromkeys(r["impl"] for r in part):
                points = {r["size"]: r.get(key) for r in part if r["impl"] == impl}
                xs = [s for s in sizes if points.get(s) is not None]
                ax.plot(xs, [points[s] for s in xs], marker="o", label=impl)
            if workload != "attention" and part and part[0].get("copy_gbps"):
                ax.axhline(part[0]["copy_gbps"], color="grey", linestyle="--", linewidth=0.8, label="copy")
            ax.set_title(" ".join([dtype, *(f"{k}={v}" for k, v in options)]), fontsize=8)
            ax.set_ylabel(("steady TFLOP/s" if workload == "attention" else "GB/s (burst, L2 flushed)"), fontsize=8)
            ax.tick_params(labelsize=7)
            ax.set_ylim(bottom=0)
        axes[0][0].legend(fontsize=7)
        fig.suptitle(f"{workload} ({device})", fontsize=9)
        fig.tight_layout()
        fig.savefig(folder / f"{workload}.png", dpi=80)
        plt.close(fig)


def write_tunings(folder: Path) -> None:
    """``tuning.md``: every tuned kernel's table (each candidate's time, the choice)."""
    tunings = list(tuned_attention.values()) + [t for m in (softmax_example, rms_norm_example, layer_norm_example)
                                   for t in m.LAUNCHER.tuned_kernels.values()]
    (folder / "tuning.md").write_text("\n\n".join(t.report() for t in tunings if t.tunings) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", type=Path, help="the folder for kernels.md, kernels.json and the plots")
    parser.add_argument("--build", metavar="ARCH", help="compile every variant for ARCH here (no GPU needed)")
    parser.add_argument("--only", help="comma-separated workloads (attention, softmax, log_softmax, rms_norm, "
                                       "layer_norm, add)")
    parser.add_argument("--quick", action="store_true", help="fewer sizes")
    parser.add_argument("--widths", help="comma-separated row widths, run in this order (the row workloads; "
                                         "default: all of WIDTHS, workload by workload)")
    parser.add_argument("--dtypes", help="comma-separated element types (f16, bf16, f32; default: all)")
    parser.add_argument("--rounds", type=int, help="burst rounds of every comparison (default: the workload's method)")
    parser.add_argument("--steady-s", type=float, help="seconds of steady state each (attention; default 1.0)")
    parser.add_argument("--budget-s", type=float, help="start no case after this many seconds of the run (a GPU "
                                                       "lease's share); kernels.md names the cases left out")
    parser.add_argument("--fail-fast", action="store_true", help="stop at the first case that fails (a cubin cache "
                                                                 "built for other sources fails every case)")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    width_order = [int(w) for w in args.widths.split(",")] if args.widths else None
    widths = set(width_order) if width_order else None
    dtypes = set(args.dtypes.split(",")) if args.dtypes else None
    if args.build:
        return build(args.build, only, widths, dtypes)
    if args.out is None:
        parser.error("give the output folder (or --build ARCH)")
    if st.current_backend().name != "cuda":
        print("bench/kernels.py times kernels on a GPU; this machine runs the CPU interpreter", file=sys.stderr)
        return 1
    import torch
    import triton

    from measure import copy_bandwidth

    stream = torch.cuda.ExternalStream(int(st.current_backend().default_stream.handle))
    rows: list[dict[str, Any]] = []
    failed: list[str] = []
    args.out.mkdir(parents=True, exist_ok=True)
    device = torch.cuda.get_device_name()
    state = device_state()
    copies = [copy_bandwidth(torch) / 1e9]
    header = (f"# Kernels against torch and Triton: {device}\n\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
              f"torch {torch.__version__}, triton {triton.__version__}; device {state}; rounds {args.rounds or 'default'}, "
              f"steady {args.steady_s or 'default'} s")
    skipped: list[str] = []
    run_started = time.perf_counter()
    with ClockSampler() as sampler:
        for case in in_width_order([c for c in cases(args.quick) if selected(c, only, widths, dtypes)], width_order):
            started = time.perf_counter()
            if args.budget_s is not None and started - run_started > args.budget_s:
                skipped.append(case.name)
                continue
            try:
                got = run_case(case, torch, stream, sampler, method_for(case, args.rounds, args.steady_s))
            except Exception as err:  # a wrong result or a refused launch: say so, and go on with the others
                print(f"{case.name}: FAILED: {type(err).__name__}: {err}", flush=True)
                failed.append(f"{case.name}: {err}")
                if args.fail_fast:
                    break
                continue
            rows += got
            ours = got[0]
            print(f"{case.name}: {ours['config']}: " + ", ".join(
                f"{r['impl']} {r['rate']:.0f}" + (f"/{r['steady_rate']:.0f}" if "steady_rate" in r else "")
                for r in got) + f"; vs {case.peer} {_fmt(ours.get('burst vs ' + case.peer))}"
                + (f" steady {_fmt(ours.get('steady vs ' + case.peer))}" if "steady_rate" in ours else "")
                + f" [{time.perf_counter() - started:.1f} s]", flush=True)
            (args.out / "kernels.json").write_text(json.dumps(dict(device=device, header=header, copy_gbps=copies,
                                                                   rows=rows), indent=1))
            write_tunings(args.out)  # as it goes: a run cut short keeps what it measured
    copies.append(copy_bandwidth(torch) / 1e9)
    copy = max(copies)
    for r in rows:
        if r["workload"] != "attention":
            r["copy_gbps"] = copy
            r["of_copy"] = r["rate"] / copy
    header += (f"\n\nCopy bandwidth (1 GiB device-to-device, best of 20, start and end): {copies[0]:.0f} / "
               f"{copies[1]:.0f} GB/s")
    header += f"\n\nClock samples: {len(sampler.samples)} {sampler.missing}"
    (args.out / "kernels.json").write_text(json.dumps(dict(device=device, header=header, copy_gbps=copies, rows=rows,
                                                           clocks=sampler.samples), indent=1))
    if skipped:
        print(f"not run (past --budget-s {args.budget_s:g}): {', '.join(skipped)}", flush=True)
    (args.out / "kernels.md").write_text(markdown(rows, header) + "".join(f"\nFAILED: {f}\n" for f in failed)
                                         + (f"\nNot run (past the budget of {args.budget_s:g} s): "
                                            f"{', '.join(skipped)}\n" if skipped else ""))
    write_tunings(args.out)
    plot(rows, args.out, device)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
