"""Timing device work: ``do_bench`` (``st.testing.do_bench``; the autotuner's timer).

    p = gemm(z, x, y).prepare()              # checked and packed once
    ms = do_bench(p.enqueue)                 # median milliseconds of one launch
    z, x, y = p.release()

``fn`` enqueues the work to time on the default stream (``Prepared.enqueue``
does).  As Triton's ``do_bench``: five runs estimate its time, then it runs
for ``warmup`` milliseconds untimed and for ``rep`` milliseconds timed, each
run between two timing events on the stream (CUDA events on the GPU: device
time, not host time), each after a write of 256 MiB that evicts the L2 cache
(``flush_l2``: so that a run does not find its inputs cached by the last).  On
the CPU interpreter the events read the host clock (work runs as it is
enqueued) and there is no device cache to flush.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .backend import current_backend

L2_FLUSH_BYTES = 256 << 20
"""More than any GPU's L2 cache (H100: 50 MiB, B200: 126 MiB)."""
ESTIMATE_RUNS = 5
MAX_RUNS = 100_000


def do_bench(
    fn: Callable[[], Any],
    warmup: float = 25.0,
    rep: float = 100.0,
    *,
    flush_l2: bool = True,
    quantiles: Sequence[float] | None = None,
    return_mode: str = "median",
) -> float | list[float]:
    """Milliseconds one ``fn()`` takes on the device: the median (``return_mode``:
    ``"median"``, ``"mean"``, ``"min"``, ``"max"``, ``"all"``), or with
    ``quantiles`` (``[0.5, 0.2, 0.8]``) those quantiles of the timed runs."""
    if return_mode not in _MODES:
        raise ValueError(f"return_mode={return_mode!r}: expected one of {', '.join(_MODES)}")
    if quantiles is not None and not all(0 <= q <= 1 for q in quantiles):
        raise ValueError(f"quantiles={list(quantiles)}: each must lie in [0, 1]")
    backend = current_backend()
    stream = backend.default_stream
    flush: Callable[[], Any] = (lambda: backend.fill((L2_FLUSH_BYTES // 4,), np.dtype(np.int32), 0, stream)) \
        if flush_l2 and backend.name == "cuda" else (lambda: None)

    start = stream.record(timing=True)
    for _ in range(ESTIMATE_RUNS):
        flush()
        fn()
    end = stream.record(timing=True)
    estimate = max(start.elapsed_ms(end) / ESTIMATE_RUNS, 1e-3)
    warmups = max(1, min(MAX_RUNS, int(warmup / estimate)))
    runs = max(1, min(MAX_RUNS, int(rep / estimate)))

    for _ in range(warmups):
        fn()
    events = []
    for _ in range(runs):
        flush()
        before = stream.record(timing=True)
        fn()
        events.append((before, stream.record(timing=True)))
    stream.synchronize()
    times = [a.elapsed_ms(b) for a, b in events]
    if quantiles is not None:
        return [float(np.quantile(times, q)) for q in quantiles]
    return _MODES[return_mode](times)


_MODES: dict[str, Callable[[list[float]], Any]] = {
    "median": statistics.median,
    "mean": statistics.mean,
    "min": min,
    "max": max,
    "all": list,
}
