"""Qwen3-4B's projection GEMVs alone, over tile shapes and tileiras hints.

    .venv/bin/python bench/gemv_probe.py --build sm_90    # here, no GPU: every config's cubin
    SAFETILE_CACHE_DIR=... python -P bench/gemv_probe.py OUT_DIR

``gemv_residual`` (examples/qwen3/kernels.py) at o_proj's shape (2,560 x
4,096 bf16) and the down projection's (2,560 x 9,728), ``norm_gemv`` at the
QKV projection's (6,144 x 2,560) and ``norm_gate_up`` at the MLP's (two of
9,728 x 2,560), each config a graph of 36 launches on 36 weight matrices (one
a layer, more than L2 holds; packed in the config's tiles as the model has
them, ``kernels.pack_weight``, and the model's config also on plain
matrices), replayed: the time per launch with the gaps
between launches, the time in the kernel (torch.profiler), and their
fractions of the copy bandwidth measured in the same run (a 1 GiB
device-to-device copy, bytes read plus written) and of the read bandwidth
(``torch.sum`` over 1 GiB).  The peer: cuBLAS's GEMV (``torch.mv``, bf16) on the same
weights, recorded the same way in a torch CUDA graph.  And what o_proj would
gain from weights already in L2 (prefetched while the attention runs, say):
its best config launched right after another GEMV read the same weights.

And a question for the next step: is each launch's fixed cost (2-4 µs over
its bytes) the last blocks' tail, which finer work would shorten?
``gemv_split`` splits the reduction into ``S`` chunks, one block per (chunk,
row tile), and writes the ``S`` partial sums (a consumer would add them):
``SPLITS`` times it at o_proj's, QKV's and down's shapes.

Every kernel may start early (a programmatic dependent launch: its blocks are
scheduled and wait while the launch before drains; passes/grid_dependency.py),
and the model's config of each GEMV is timed again without (``MODEL_CONFIG``).
With an early start the time in the kernel counts only what a kernel adds to
the GPU's busy time (bench/measure.py ``kernel_times``).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import safetile as st
from safetile import f32

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # measure.py (also under python -P)

from measure import build_or_run, copy_bandwidth, kernel_times, read_bandwidth, seconds_per_launch  # noqa: E402
from qwen3 import kernels as K  # noqa: E402
from qwen3.model import hinted  # noqa: E402

LAYERS = 36
SHAPES = {"o_proj": (K.gemv_residual, 2560, 4096), "qkv": (K.norm_gemv, 6144, 2560),
          "down": (K.gemv_residual, 2560, 9728), "gate_up": (K.norm_gate_up, 9728, 2560)}
CONFIGS: dict[str, list[tuple[int, int, int | None, int | None, int | None]]] = {
    "o_proj": [(16, 256, 4, 3, None), (8, 512, 4, 4, None), (8, 512, 4, 5, None), (4, 1024, 4, 8, None),
               (8, 512, 4, 4, 2), (8, 512, 4, 2, 8), (8, 512, 4, 6, None), (8, 512, 4, 8, None),
               (16, 256, 4, 5, None), (16, 256, 4, 6, None), (8, 256, 4, 8, None), (8, 512, 4, 3, None)],
    "qkv": [(16, 256, 4, 3, None), (8, 512, 4, 4, None), (16, 512, 4, 3, None), (32, 256, 4, 2, None),
            (8, 256, 4, 6, None), (16, 256, 8, 3, None), (16, 256, 4, 4, None), (16, 256, 4, 3, 2),
            (16, 256, 4, 2, 8), (16, 256, 4, 6, None), (16, 256, 4, 8, None), (8, 512, 4, 5, None),
            (8, 512, 4, 6, None)],
    "down": [(16, 256, 4, 3, None), (8, 512, 4, 4, None), (16, 512, 4, 3, None), (32, 256, 4, 2, None),
             (16, 256, 4, 4, None), (8, 256, 4, 6, None), (16, 256, 4, 3, 2), (16, 256, 4, 2, 8),
             (16, 256, 4, 5, None), (8, 512, 4, 5, None), (8, 256, 4, 8, None), (32, 256, 4, 3, None)],
    "gate_up": [(16, 256, 4, 3, None), (8, 256, 4, 4, None), (8, 512, 4, 4, None), (16, 512, 4, 2, None),
                (32, 256, 4, 2, None), (16, 128, 4, 4, None), (16, 256, 4, 2, 8), (16, 256, 4, 4, None),
                (8, 512, 4, 5, None)],
}
"""(rows, cols, load latency, occupancy, worker warps) of each config, by GEMV."""

MODEL_CONFIG = {"o_proj": 11, "qkv": 0, "down": 0, "gate_up": 0}
"""Which of ``CONFIGS`` the model uses (examples/qwen3/model.py ``Tiles``): timed also without
an early start (``dependent_launch=False``: each launch starts once the one before has ended)."""


EARLY_READS = [(1, False), (2, False), (4, False), (1, True), (2, True)]
"""(column tiles of the weights read before the wait, through TMA) timed on the model's config:
the first tiles stream while the launch before drains (the kernels' ``early_reads``)."""

OTHER_EARLY: dict[str, list[tuple[tuple[int, int, int | None, int | None, int | None], tuple[int, bool]]]] = {
    "down": [((16, 256, 6, 3, None), (1, False)), ((16, 256, 8, 3, None), (1, False)),
             ((16, 256, 8, 2, None), (1, False)), ((16, 128, 8, 3, None), (1, False)),
             ((8, 256, 4, 3, None), (1, False)), ((8, 256, 8, 3, None), (1, False)),
             ((16, 512, 4, 2, None), (1, False)), ((16, 256, 8, 3, None), (4, False))],
    "qkv": [((16, 256, 6, 3, None), (1, False)), ((16, 256, 8, 2, None), (1, False)),
            ((8, 256, 4, 3, None), (1, False)), ((16, 128, 8, 3, None), (1, False)),
            ((16, 256, 8, 3, None), (2, True))],
}
"""Other configs timed with early reads: deeper pipelines (load ``latency`` 6-8: tileiras keeps 8
column tiles in flight a block instead of 5, 77 KB of shared memory at occupancy 3) and smaller
tiles at occupancy 3 for the two GEMVs furthest from the copy (down and QKV; session 8's other
configs, slower: docs/model.md)."""


MODEL_READS = {"o_proj": (4, False), "qkv": (2, False), "down": (1, False), "gate_up": (1, False)}
"""The model's early reads of each GEMV: with its config, also timed on the weights as plain
matrices (the model packs them in its tiles: ``kernels.pack_weight``; every other row packed)."""

Timed = tuple[tuple[int, int, int | None, int | None, int | None], bool, tuple[int, bool], bool]
"""A config, whether it starts early, its early reads, and whether its weights are packed."""


def timed_configs(name: str, model_only: bool = False) -> list[Timed]:
    """Each config of ``name`` with an early start (the default), then the model's without and
    with each ``EARLY_READS``, then ``OTHER_EARLY``, then the model's on plain weights;
    ``model_only``: the model's config alone, without, and with those."""
    model = CONFIGS[name][MODEL_CONFIG[name]]
    swept = [model] if model_only else CONFIGS[name]
    return ([(config, True, (0, False), True) for config in swept] + [(model, False, (0, False), True)]
            + [(model, True, reads, True) for reads in EARLY_READS]
            + [(config, True, reads, True) for config, reads in OTHER_EARLY.get(name, [])]
            + [(model, True, MODEL_READS[name], False)])


def variant(kernel: st.Kernel, config: tuple[int, int, int | None, int | None, int | None], early: bool) -> st.Kernel:
    """``kernel`` with ``config``'s hints, started early or not."""
    _, _, latency, occupancy, warps = config
    hk = hinted(kernel, latency, warps, occupancy)
    return hk if early else hk.with_options(dependent_launch=False)


SPLITS: list[tuple[int, int, int]] = [(16, 256, 2), (16, 256, 4), (8, 512, 2), (32, 256, 4), (16, 256, 5), (16, 256, 19)]
"""(rows, cols, chunks of the reduction) of each split config (latency 4, occupancy 3)."""


def splits_of(k: int) -> list[tuple[int, int, int]]:
    """The ``SPLITS`` configs whose column tiles and chunks divide a reduction of ``k``."""
    return [(rows, cols, chunks) for rows, cols, chunks in SPLITS if k % (cols * chunks) == 0]


@st.kernel
def gemv_split(
    z: st.Mut[f32, (1, "BN")],
    x: st.Ref[f32, ("K",)],
    w: st.Ref["E", (-1, "K")],
    *,
    E: st.DType,
    BN: int,
    BK: int,
    K: int,
    S: int,
):
    """``z[s] = w[:, chunk s] @ x[chunk s]`` for rows ``bn * BN ...``: chunk ``s`` of ``S`` of the columns."""
    assert K % (BK * S) == 0, "BK * S divides the length of x"
    s, bn, _ = st.tile_block_id()
    steps = K // BK // S
    pw, px = w.partition((BN, BK), padding="zero"), x.partition((BK,))
    acc = st.zeros((BN, BK), f32)
    for k in range(steps):
        acc = acc + pw.load((bn, s * steps + k)).astype(f32) * px.load((s * steps + k,)).reshape((1, BK))
    z.store(st.sum(acc, 1).reshape((1, BN)))


def split_launch(run: Any, b: dict[str, Any], w: Any, rows: int, cols: int, chunks: int) -> None:
    """One ``gemv_split`` launch on ``b["parts"]`` (``chunks`` x rows) and ``b["x"]``."""
    out = run(hinted(gemv_split, 4, occupancy=3)(b.pop("parts").partition((1, rows)), b.pop("x"), w, BK=cols,
                                                  S=chunks))
    b["parts"], b["x"] = out[0].unpartition(), out[1]


def launch(run: Any, name: str, kernel: st.Kernel, b: dict[str, Any], w: Any, rows: int, cols: int,
           reads: tuple[int, bool] = (0, False)) -> None:
    """One launch (``reads``: its early reads); the handles it gives back replace the buffers in ``b``."""
    z = b.pop("z").partition((rows,))
    early = {"EARLY": reads[0], "EARLY_TMA": reads[1]}
    if name in ("o_proj", "down"):
        out = run(kernel(z, b.pop("r"), b.pop("x"), w, BK=cols, **early))
        b["z"], b["r"], b["x"] = out[0].unpartition(), out[1], out[2]
    elif name == "gate_up":  # w: the gate's and the up projection's weights
        out = run(kernel(z, b.pop("x"), b.pop("n"), *w, 1e-6, BK=cols, **early))
        b["z"], b["x"], b["n"] = out[0].unpartition(), out[1], out[2]
    else:
        out = run(kernel(z, b.pop("x"), b.pop("n"), w, 1e-6, BK=cols, **early))
        b["z"], b["x"], b["n"] = out[0].unpartition(), out[1], out[2]


def buffers(n: int, k: int) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    return {"z": st.zeros((n,)).sync(), "r": st.from_numpy(rng.standard_normal(n).astype(np.float32)).sync(),
            "x": st.from_numpy(rng.standard_normal(k).astype(np.float32)).sync(),
            "n": st.from_numpy(np.ones(k, np.float32), dtype=st.bf16).sync()}


def laid_out(w: Any, rows: int, cols: int, packed: bool) -> Any:
    """``w`` (an ``(n, k)`` array or tensor) packed in ``(rows, cols)`` tiles, or as it is."""
    return K.pack_weight(w, rows, cols) if packed else w


def build(arch: str) -> None:
    os.environ["SAFETILE_AOT_ARCHS"] = arch
    for name, (kernel, n, k) in SHAPES.items():
        for config, early, reads, packed in timed_configs(name):
            rows, cols = config[:2]
            b = buffers(n, k)  # the GPU's sizes: the weight's shape is part of the variant
            a = laid_out(np.ones((n, k), np.float32), rows, cols, packed)
            w = st.shared(st.from_numpy(a, dtype=st.bf16).sync())
            w = (w, w) if name == "gate_up" else w
            launch(lambda op: op.sync(), name, variant(kernel, config, early), b, w, rows, cols, reads)
            print(f"{name} {config} early start {early}, early reads {reads}, packed {packed}: built for {arch}",
                  flush=True)
        if name == "gate_up":
            continue
        for rows, cols, chunks in splits_of(k):  # checked against numpy on the way (the interpreter runs it)
            w_np = np.random.default_rng(1).standard_normal((64, k)).astype(np.float32)
            b = {"parts": st.zeros((chunks, 64)).sync(), "x": buffers(64, k)["x"]}
            x_np = b["x"].numpy()
            split_launch(lambda op: op.sync(), b, st.shared(st.from_numpy(w_np, dtype=st.bf16).sync()), rows, cols,
                         chunks)
            as_stored = st.from_numpy(w_np, dtype=st.bf16).sync().numpy()
            np.testing.assert_allclose(b["parts"].numpy().sum(0), as_stored @ x_np, rtol=1e-3, atol=1e-3)
            print(f"{name} split {chunks} x {rows}x{cols}: built for {arch}", flush=True)


def run(out: Path, model_only: bool = False) -> None:
    import torch

    out.mkdir(parents=True, exist_ok=True)
    bandwidth, reading = copy_bandwidth(torch), read_bandwidth(torch)
    results: dict[str, Any] = {"copy_bandwidth_GBps": bandwidth / 1e9, "read_bandwidth_GBps": reading / 1e9,
                               "configs": [], "cublas": {}}
    print(f"copy bandwidth {bandwidth / 1e9:.0f} GB/s, read bandwidth {reading / 1e9:.0f} GB/s", flush=True)
    for name, (kernel, n, k) in SHAPES.items():
        matrices = 2 if name == "gate_up" else 1
        torch_weights = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16) / k ** 0.5
                         for _ in range(LAYERS * matrices)]
        shared = [st.shared(st.from_dlpack(w)) for w in torch_weights]
        nbytes = n * k * 2 * matrices
        for config, early, reads, packed in timed_configs(name, model_only):
            rows, cols, latency, occupancy, warps = config
            held = [st.shared(st.from_dlpack(laid_out(w, rows, cols, True))) for w in torch_weights] if packed else shared
            weights = list(zip(held[::2], held[1::2])) if matrices == 2 else held
            b = buffers(n, k)
            hk = variant(kernel, config, early)
            with st.Graph.scope() as scope:
                for w in weights:
                    launch(scope.record, name, hk, b, w, rows, cols, reads)
            in_kernel = sum(kernel_times(scope.graph.replay, torch).values()) / LAYERS / 1e6
            best = seconds_per_launch(scope.graph, LAYERS)
            row = {"gemv": name, "rows": rows, "cols": cols, "latency": latency, "occupancy": occupancy, "warps": warps,
                   "dependent_launch": early, "early_reads": reads[0], "early_tma": reads[1], "packed": packed,
                   "us": best * 1e6, "of_copy": nbytes / best / bandwidth,
                   "us_in_kernel": in_kernel * 1e6, "of_copy_in_kernel": nbytes / in_kernel / bandwidth,
                   "of_read_in_kernel": nbytes / in_kernel / reading}
            results["configs"].append(row)
            print(f"{name} {rows}x{cols} latency {latency} occupancy {occupancy} warps {warps} early {early} "
                  f"reads {reads} packed {packed}: "
                  f"{row['us']:.2f} us "
                  f"({row['of_copy']:.3f} of copy), in the kernel {row['us_in_kernel']:.2f} us "
                  f"({row['of_copy_in_kernel']:.3f}, {row['of_read_in_kernel']:.3f} of read)", flush=True)
        if name == "o_proj" and not model_only:
            results["o_proj_after_a_read"] = after_a_read(torch, kernel, shared, n, k, nbytes, bandwidth)
            print(f"o_proj right after a read of its weights: {results['o_proj_after_a_read']}", flush=True)
        if matrices == 1 and not model_only:
            results.setdefault("splits", []).extend(splits(torch, name, shared, n, k, nbytes, reading))
            results["cublas"][name] = cublas(torch, torch_weights, nbytes, bandwidth)
            print(f"{name} cuBLAS torch.mv: {results['cublas'][name]}", flush=True)
        del weights, held, shared, torch_weights
        (out / "gemv_probe.json").write_text(json.dumps(results, indent=1))
    (out / "gemv_probe.json").write_text(json.dumps(results, indent=1))


def splits(torch: Any, name: str, weights: list[Any], n: int, k: int, nbytes: int,
           reading: float) -> list[dict[str, Any]]:
    """Each ``SPLITS`` config of ``gemv_split`` on ``weights``: µs in the kernel a launch, of the read bandwidth."""
    rows_out = []
    for rows, cols, chunks in splits_of(k):
        b = {"parts": st.zeros((chunks, n)).sync(), "x": buffers(n, k)["x"]}
        with st.Graph.scope() as scope:
            for w in weights:
                split_launch(scope.record, b, w, rows, cols, chunks)
        in_kernel = sum(kernel_times(scope.graph.replay, torch).values()) / LAYERS / 1e6
        scope.graph.release()
        row = {"gemv": name, "rows": rows, "cols": cols, "chunks": chunks, "us_in_kernel": in_kernel * 1e6,
               "of_read_in_kernel": nbytes / in_kernel / reading}
        rows_out.append(row)
        print(f"{name} split {chunks} x {rows}x{cols}: in the kernel {row['us_in_kernel']:.2f} us "
              f"({row['of_read_in_kernel']:.3f} of read)", flush=True)
    return rows_out


def after_a_read(torch: Any, kernel: st.Kernel, weights: list[Any], n: int, k: int, nbytes: int,
                 bandwidth: float) -> dict[str, float]:
    """o_proj (8 x 512, occupancy 4) launched right after a 16 x 256 GEMV on the same weights (which
    leaves them in L2): µs in each kernel a layer."""
    first, then = buffers(n, k), buffers(n, k)
    with st.Graph.scope() as scope:
        for w in weights:
            launch(scope.record, "o_proj", hinted(kernel, 4, occupancy=3), first, w, 16, 256)
            launch(scope.record, "o_proj", hinted(kernel, 4, occupancy=4), then, w, 8, 512)
    times = kernel_times(scope.graph.replay, torch)
    scope.graph.release()
    read, after = (sum(us for key, us in times.items() if key.startswith(f"gemv_residual_{c}")) / LAYERS
                   for c in ("256_16", "512_8"))
    return {"us_first_read": read, "us_after": after, "of_copy_after": nbytes / (after / 1e6) / bandwidth}


def cublas(torch: Any, weights: list[Any], nbytes: int, bandwidth: float) -> dict[str, float]:
    """``torch.mv`` (cuBLAS, bf16) on each of ``weights`` in one torch CUDA graph: µs a launch with the
    gaps and in the kernel, and their fractions of ``bandwidth``."""
    x = torch.randn(weights[0].shape[1], device="cuda", dtype=torch.bfloat16)
    outs = [torch.empty(w.shape[0], device="cuda", dtype=torch.bfloat16) for w in weights]
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        for w, o in zip(weights, outs):
            torch.mv(w, x, out=o)  # warm-up (cuBLAS picks its kernel) outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for w, o in zip(weights, outs):
            torch.mv(w, x, out=o)
    in_kernel = sum(kernel_times(graph.replay, torch).values()) / len(weights) / 1e6
    best = float("inf")
    for _ in range(5):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(10):
            graph.replay()
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - start) / 10 / len(weights))
    return {"us": best * 1e6, "of_copy": nbytes / best / bandwidth, "us_in_kernel": in_kernel * 1e6,
            "of_copy_in_kernel": nbytes / in_kernel / bandwidth}


def _arguments(parser: Any) -> None:
    parser.add_argument("--model-only", action="store_true",
                        help="time only the model's config of each GEMV (without an early start, with early reads)")


if __name__ == "__main__":
    build_or_run(__doc__, build, run, _arguments)
