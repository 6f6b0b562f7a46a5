"""How every comparison on the GPU in bench/ is measured, so that neither the order nor the power cap decides it.

    method = Method(rounds=10, steady_s=1.0, flush_l2=False)
    measured = method.compare({"ours": p.enqueue, "cuBLAS": cublas}, peer="cuBLAS", stream=st_stream)
    measured.summary("ours")     # burst and steady seconds, the ratios to the peer, the peer alone

Why (docs/benchmarks.md, "Method"; measured on an H100 at its 700 W cap): whatever runs just
before a kernel sets the clock it starts at, so a fixed rotation gives every implementation the
same predecessor and the order decides the ratio (1.09 against 0.92 for one config, only the
list order changed).  Hence, for every comparison:

* **Shuffled rounds**: each burst round times the implementations in a fresh random order
  (``random.Random(seed)``: the orders are stored and reproducible).
* **Warm on itself**: right before each of its timings an implementation runs ``warm`` times
  untimed, so the power and clock state it is timed in is the one it makes itself.
* **Two regimes**: *burst* -- after ``cool_s`` seconds of an idle GPU, the warm-up, then ``reps``
  timed launches (the clock near its maximum for compute-bound work); *steady state* -- each
  implementation (again in a shuffled order) runs back to back for ``steady_s`` seconds, timed in
  batches of ``reps``, and the figure is the median of the batches of the second half (the
  clock settled at the cap).  Compute-bound work quotes the steady state.
* **The host ahead** (``spin``): where a launch costs the host more than the GPU's time (a
  small attention, torch's per-call overhead), a spin kernel (``torch.cuda._sleep``) enqueued
  before each timing keeps the GPU busy while the host queues the timed launches.
* **L2 flushed** (``flush_l2``): a 256 MiB write before each timed launch, outside the events,
  for memory-bound work (its inputs must come from memory, not from the last call's L2).
* **Clocks sampled**: ``ClockSampler`` reads ``nvidia-smi`` every 100 ms (SM clock, power,
  throttle reasons, temperature) while ``compare`` runs; each sample carries the name of the
  implementation being timed and the regime, stored beside the numbers.
* **The peer alone** as a control: ``peer`` is also timed in ``rounds`` burst rounds with no
  other implementation between them; a control far from its interleaved figure says the
  interleaving moved the numbers.

Timing uses the backend's events on one stream (``Stream.record(timing=True)``): CUDA events on
the GPU, the stand-in driver's in the unit test (test/unit/test_bench_method.py).  Every
implementation is a callable that enqueues one launch on that stream (torch's work through
``torch.cuda.ExternalStream`` of the same handle).
"""

from __future__ import annotations

import csv
import random
import shutil
import statistics
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

L2_FLUSH_BYTES = 256 << 20
"""More than the L2 of any GPU measured here (H100: 50 MiB)."""
SAMPLE_FIELDS = ("clocks.sm", "power.draw", "clocks_event_reasons.active", "temperature.gpu")


class ClockSampler:
    """The SM clock (MHz), power (W), active throttle reasons (a bit mask) and temperature (C),
    sampled by ``nvidia-smi -lms 100`` in the background; ``label`` tags the samples taken
    until it changes.  Where ``nvidia-smi`` is missing, ``samples`` stays empty and
    ``missing`` says so."""

    def __init__(self, period_ms: int = 100):
        self.period_ms = period_ms
        self.samples: list[dict[str, Any]] = []
        self.label = ""
        self.missing = "" if shutil.which("nvidia-smi") else "nvidia-smi not found: no clock samples"
        self._process: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None
        self._start = time.perf_counter()

    def __enter__(self) -> ClockSampler:
        if not self.missing:
            self._process = subprocess.Popen(
                ["nvidia-smi", f"--query-gpu={','.join(SAMPLE_FIELDS)}", "--format=csv,noheader,nounits",
                 f"-lms={self.period_ms}"], stdout=subprocess.PIPE, text=True)
            self._reader = threading.Thread(target=self._read, daemon=True)
            self._reader.start()
        return self

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for row in csv.reader(self._process.stdout):
            if len(row) != len(SAMPLE_FIELDS):
                continue
            sm, power, reasons, temperature = (value.strip() for value in row)
            self.samples.append(dict(t=round(time.perf_counter() - self._start, 3), label=self.label,
                                     sm_mhz=_number(sm), power_w=_number(power),
                                     reasons=reasons, temperature_c=_number(temperature)))

    def __exit__(self, *exc: object) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.wait()
        if self._reader is not None:
            self._reader.join(timeout=2)

    def summary(self, label: str) -> dict[str, Any]:
        """The median SM clock and power of the samples tagged ``label``, and how many of them
        had a throttle reason beyond idle (bit 0) set."""
        mine = [s for s in self.samples if s["label"] == label]
        if not mine:
            return {}
        clocks = [s["sm_mhz"] for s in mine if s["sm_mhz"] is not None]
        power = [s["power_w"] for s in mine if s["power_w"] is not None]
        throttled = sum(1 for s in mine if _throttled(s["reasons"]))
        return dict(samples=len(mine), sm_mhz=statistics.median(clocks) if clocks else None,
                    power_w=statistics.median(power) if power else None, throttled_samples=throttled)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _throttled(reasons: str) -> bool:
    """Any reason but ``GpuIdle`` (0x1) in nvidia-smi's hex mask."""
    try:
        return int(reasons, 16) & ~0x1 != 0
    except ValueError:
        return False


@dataclass
class Measured:
    """Seconds per launch of each implementation: ``burst`` one figure per round (the median of
    its ``reps`` launches), ``steady`` one per batch of the second half, ``control`` the peer's
    rounds alone; ``orders`` the burst rounds' orders then the steady pass's; ``clocks`` the
    sampler's summary per implementation and regime."""

    peer: str
    burst: dict[str, list[float]]
    steady: dict[str, list[float]]
    control: list[float]
    orders: list[list[str]]
    clocks: dict[str, dict[str, Any]] = field(default_factory=dict)

    def ratio(self, name: str, to: str, regime: str = "burst") -> float | None:
        """``to``'s time over ``name``'s (above 1: ``name`` is faster): burst the median of the
        per-round ratios, steady the ratio of the medians; None where there is no figure."""
        if regime == "burst":
            pairs = [(t, p) for t, p in zip(self.burst[name], self.burst[to]) if t > 0]
            return statistics.median(p / t for t, p in pairs) if pairs else None
        if not self.steady.get(name) or not self.steady.get(to):
            return None
        ours = statistics.median(self.steady[name])
        return statistics.median(self.steady[to]) / ours if ours > 0 else None

    def summary(self, name: str) -> dict[str, Any]:
        """Median seconds in each regime, and the ratios to the peer (``ratio``)."""
        out: dict[str, Any] = dict(burst_s=statistics.median(self.burst[name]),
                                   burst_ratio=self.ratio(name, self.peer))
        if self.steady.get(name):
            out.update(steady_s=statistics.median(self.steady[name]),
                       steady_ratio=self.ratio(name, self.peer, "steady"))
        if name == self.peer and self.control:
            out["control_burst_s"] = statistics.median(self.control)
        out["clocks"] = {regime: self.clocks[f"{regime} {name}"] for regime in ("burst", "steady")
                         if f"{regime} {name}" in self.clocks}
        return out


@dataclass(frozen=True)
class Method:
    """The knobs of one comparison (see the module's docstring for what each is for)."""

    rounds: int = 10
    warm: int = 20
    """Untimed launches of an implementation on itself right before each of its timings."""
    reps: int = 5
    """Timed launches per burst figure, and per batch in the steady state."""
    cool_s: float = 0.0
    """Idle seconds before each burst timing (compute-bound work: let the clock recover)."""
    steady_s: float = 0.0
    """Seconds each implementation runs back to back for the steady state; 0: no steady state."""
    flush_l2: bool = False
    seed: int = 0

    def compare(self, impls: dict[str, Callable[[], Any]], peer: str, stream: Any,
                flush: Callable[[], Any] | None = None, sampler: ClockSampler | None = None,
                spin: Callable[[], Any] | None = None) -> Measured:
        """Time every implementation by the method; ``peer`` names the one the ratios are to.
        ``stream``: the backend stream every implementation enqueues on; ``flush``: what evicts
        the L2 (default: a 256 MiB fill on that stream, when ``flush_l2``); ``spin``: what
        enqueues a spin on that stream, before each timing (outside its events)."""
        if peer not in impls:
            raise ValueError(f"the peer {peer!r} is not among the implementations ({', '.join(impls)})")
        if self.flush_l2 and flush is None:
            flush = _l2_flush(stream)
        rng = random.Random(self.seed)
        names = list(impls)
        burst: dict[str, list[float]] = {name: [] for name in names}
        orders: list[list[str]] = []
        for _ in range(self.rounds):
            order = rng.sample(names, len(names))
            orders.append(order)
            for name in order:
                with _tagged(sampler, f"burst {name}"):
                    burst[name].append(self._burst(impls[name], stream, flush, spin))
        control = []
        with _tagged(sampler, f"control {peer}"):
            for _ in range(self.rounds if self.rounds > 1 else 0):
                control.append(self._burst(impls[peer], stream, flush, spin))
        steady: dict[str, list[float]] = {name: [] for name in names}
        if self.steady_s > 0:
            order = rng.sample(names, len(names))
            orders.append(order)
            for name in order:
                with _tagged(sampler, f"steady {name}"):
                    steady[name] = self._steady(impls[name], stream, flush, spin)
        clocks = {}
        if sampler is not None:
            for key in {s["label"] for s in sampler.samples if s["label"]}:
                clocks[key] = sampler.summary(key)
        return Measured(peer, burst, steady, control, orders, clocks)

    def _burst(self, fn: Callable[[], Any], stream: Any, flush: Callable[[], Any] | None,
               spin: Callable[[], Any] | None) -> float:
        """After ``cool_s`` idle and ``warm`` launches of ``fn``: the median seconds of ``reps``
        timed launches (each after an L2 flush when ``flush``)."""
        stream.synchronize()
        if self.cool_s > 0:
            time.sleep(self.cool_s)
        for _ in range(self.warm):
            fn()
        return statistics.median(self._timed(fn, stream, flush, spin))

    def _timed(self, fn: Callable[[], Any], stream: Any, flush: Callable[[], Any] | None,
               spin: Callable[[], Any] | None) -> list[float]:
        """Seconds of each of ``reps`` launches (flushed: one event pair each; else one pair
        around all, divided), after the spin."""
        if spin is not None:
            spin()
        if flush is not None:
            pairs = []
            for _ in range(self.reps):
                flush()
                start = stream.record(timing=True)
                fn()
                pairs.append((start, stream.record(timing=True)))
            return [a.elapsed_ms(b) / 1e3 for a, b in pairs]
        start = stream.record(timing=True)
        for _ in range(self.reps):
            fn()
        end = stream.record(timing=True)
        return [start.elapsed_ms(end) / 1e3 / self.reps]

    def _steady(self, fn: Callable[[], Any], stream: Any, flush: Callable[[], Any] | None,
                spin: Callable[[], Any] | None) -> list[float]:
        """Batches of ``reps`` launches back to back for ``steady_s`` seconds of wall time (the
        host waits on each batch only once the next is queued); the second half's figures."""
        for _ in range(self.warm):
            fn()
        figures: list[float] = []
        pending: list[tuple[Any, Any]] = []
        ends = time.perf_counter() + self.steady_s
        while time.perf_counter() < ends or len(pending) + len(figures) < 4:
            if spin is not None and not pending:  # the queue ran dry: put the host ahead again
                spin()
            if flush is not None:
                flush()
            start = stream.record(timing=True)
            for _ in range(self.reps):
                fn()
            pending.append((start, stream.record(timing=True)))
            if len(pending) > 1:
                a, b = pending.pop(0)
                figures.append(a.elapsed_ms(b) / 1e3 / self.reps)
        figures += [a.elapsed_ms(b) / 1e3 / self.reps for a, b in pending]
        return figures[len(figures) // 2:]


def _l2_flush(stream: Any) -> Callable[[], Any]:
    """A 256 MiB fill on ``stream`` through the backend (evicts the L2)."""
    import numpy as np

    from safetile.runtime.backend import current_backend

    backend = current_backend()
    return lambda: backend.fill((L2_FLUSH_BYTES // 4,), np.dtype(np.int32), 0, stream)


@contextmanager
def _tagged(sampler: ClockSampler | None, label: str) -> Iterator[None]:
    if sampler is None:
        yield
        return
    sampler.label = label
    try:
        yield
    finally:
        sampler.label = ""


def device_state() -> dict[str, Any]:
    """The GPU's name, driver, clocks and power limit now (``nvidia-smi``), for the results' header."""
    if not shutil.which("nvidia-smi"):
        return {}
    fields = ("name", "driver_version", "clocks.max.sm", "clocks.sm", "power.limit", "power.draw",
              "temperature.gpu")
    out = subprocess.run(["nvidia-smi", f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True, check=False).stdout.splitlines()
    if not out:
        return {}
    return dict(zip(fields, (v.strip() for v in out[0].split(","))))
