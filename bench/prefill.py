"""Qwen3 prefill on the GPU (examples/qwen3: ``Qwen3Decoder.prefill``): correctness against
``transformers`` and the time to the first token against it and ``torch.compile`` of it.

    .venv/bin/python bench/prefill.py --build sm_90     # here, no GPU: every variant's cubin into the cache
    SAFETILE_CACHE_DIR=build/gpu-cache python -P bench/prefill.py OUT_DIR [--budget 240]

On the GPU, in one run:

1. (run first) correctness, Qwen3-0.6B f32 (random weights in the published shapes, ``transformers``'
   ``Qwen3ForCausalLM`` reading the same ones): for prompts of 1, 17 and 512 tokens, the prefill's
   logits of the last prompt token against the model's, and the greedy tokens of the prefill plus
   ``CHECK_STEPS`` decode steps against ``generate``'s;
2. time to first token, Qwen3-4B bf16, prompts of 512, 2,048 and 8,192 tokens: ours at each of
   ``SPEED_TILES`` (and a length's ``LENGTH_TILES``), launched eagerly (the prefill enqueued, until the first token is on the
   host) and as one recorded graph (a replay, until the token is in device memory); best of
   ``RUNS`` after a warm-up; ``transformers`` (SDPA, bf16: one forward keeping the last
   position's logits, then the argmax on the host); two GEMM bounds, both in the same run
   (``shape_bound``): the time of cuBLAS (``F.linear``, bf16) on each of the model's projection
   shapes at the prompt's rows, of the fastest SDPA backend on its causal attention and of the LM
   head's row, everything else free; and the single-rate estimate, the model's FLOPs
   (projections over every prompt row, causal attention, the LM head of one row) over cuBLAS's
   rate on a ``(8192, 2560) x (2560, 9728)`` bf16 GEMM;
3. the time of each kernel of the prefill graph at ``BREAKDOWN_PROMPTS`` tokens (torch.profiler);
4. ``DECODE``: Qwen3-14B's greedy decode on the GPU (its 5-head groups), tokens/s against the
   HBM roofline;
5. while the budget lasts, ``torch.compile`` of ``transformers``' forward (its default mode,
   static shapes: a compile a length, each first call's seconds kept), each length
   (``--compile-prompts``' order) (before 4).

``--ncu``: one launch of each kernel ``ncu`` profiles (``ncu_workload``), to run under ``ncu``.

Writes ``OUT_DIR/prefill.json`` (after each length and part: a run cut short keeps what it
measured) and ``OUT_DIR/prefill.png`` (``plot``: the time to the first token against the
prompt's length); each step's elapsed seconds go to the output.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

import safetile as st
from safetile.backend.cache import MissingCubin, default_cache_dir
from safetile.backend.resources import kernel_resources
from safetile.runtime.tensor import numpy_dtype

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # measure.py (also under python -P)

from measure import build_or_run, copy_bandwidth, kernel_times  # noqa: E402
from qwen3 import prefill_kernels  # noqa: E402
from qwen3.model import PrefillTiles, Qwen3Decoder, Tiles  # noqa: E402
from qwen3.reference import QWEN3_0_6B, QWEN3_4B, QWEN3_14B, Config, random_weights  # noqa: E402

_spec = importlib.util.spec_from_file_location("qwen3_bench", Path(__file__).resolve().parent / "qwen3.py")
assert _spec is not None and _spec.loader is not None
_qwen3_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_qwen3_bench)
hf_model, hf_logits, bench_ours, model_bytes = (_qwen3_bench.hf_model, _qwen3_bench.hf_logits,
                                                _qwen3_bench.bench_ours, _qwen3_bench.model_bytes)

CHECK = (QWEN3_0_6B, st.f32, 1024, PrefillTiles(rows=64, cols=64, up_cols=64, fit=False, depth=32, attention=64,
                                                 attention_warps=None, short_occupancy=None, gemm_warps=None))
"""The correctness run: config, dtype, max_positions, tiles (f32 tiles take twice the bytes: half
the default's edge)."""
SPEED = (QWEN3_4B, st.bf16, 16384, PrefillTiles())
"""The timed run (the decode's attention merge takes a power-of-two count of key tiles)."""
SPEED_TILES = {"default": PrefillTiles(), "session 17": PrefillTiles(split_columns=False, wave_plans=False),
               "rotated queries": PrefillTiles(rotated_queries=True),
               "sin/cos": PrefillTiles(rotary_table=False)}
"""The prefill tiles timed, in the same run: the default (down_proj on ``examples/gemm.py``'s split
columns where its ``gemm_plan`` picks them: 2,048 tokens) and session 17's (down on one launch
of 128 x 128 tiles there); gate/up stacked, QKV and o_proj on ``gemm_tiles``' tiles and the
attention on the fields' tiles in both.  Session 18 on an H100 (docs/model.md): down at 2,048
tokens 6.10 ms on split columns (4.50 + 1.15 + 0.45, the three launches) against 7.86 on one;
the whole graph was timed with the attention on ``examples/flash_attention.py``'s plan
(``attention_plan=True``, then the default): 32.99 ms against 34.44, the attention 6.46 against
5.87 ms, so the plan is no longer the default.  ``rotated queries``: the queries made ready by a
launch of their own (``prefill_queries``), the attention's cubin without the rotary embedding's
software sine and cosine (3,280 sm_90 instructions and no stack against 9,008 and 56 bytes);
built after session 18's run; with the rotary table (the default since session 19) no kernel
has them and the queries' launch cost more than it saved: on an H100 10.95 against 10.75 ms at
512 tokens, 31.94 against 31.34 at 2,048.  ``sin/cos``: the rotations' cosines and sines
computed in the kernels (session 18's default), not read from the decoder's table
(``rotate_rows``): 11.03 and 33.37 ms in that run (docs/model.md session 19)."""
LENGTH_TILES: dict[int, dict[str, PrefillTiles]] = {}
"""Candidates timed at one length beside ``SPEED_TILES``.  Session 18 (H100, docs/model.md): at 512
tokens o_proj's and down's 64 x 128 tiles on split columns (``o_split=(4, 4), down_split=(4,
4)``: 16 of 20 tile columns whole, 4 in 4 splits) 4.11 ms for both against 4.12 on one launch
each; at 2,048 o_proj's 128 x 128 on split columns (``o_split=(2, 4)``) 3.40 against 3.57 ms;
down's split columns with their K loops over packed column tiles, each tile's steps unrolled
(spilling 608-776 bytes a thread) 28.3 against 6.10 ms for the three launches (then dropped).
Session 19 (H100), at 512 tokens (where down's and o_proj's 160 tiles of 64 x 128 are 1.2 waves of
132 SMs), down and o_proj split-K (every tile column split: the partials and their sum, two
launches), graph times against session 18's tiles' 11.23 ms: ``waves 1`` (down 128 x 256 in 3
splits, 120 blocks; o_proj 128 x 128 in 3, 240; gate/up 128 x 128 a weight, 304 blocks of 128 x
256 against 608 of 128 x 128) 9.92 ms, since then the default (``model.WAVE_PLANS``; at 512
``session 17``'s tiles are those before it); ``waves 2`` (down 128 x 128 in 3, o_proj 128 x 128 in 2, gate/up 64
x 128 a weight) 10.96 ms; ``waves 3`` (down 128 x 256 in 6, o_proj 64 x 128 in 3, gate/up the
default's) 11.19 ms."""
BREAKDOWN_PROMPTS = (512, 2048, 8192)
"""The prompt lengths whose prefill graph is profiled kernel by kernel."""
DECODE = (QWEN3_14B, Tiles())
"""The decode timed on one GPU after the prefill: Qwen3-14B, 5 query heads per kv head."""
CHECK_PROMPTS = (1, 17, 512)
SPEED_PROMPTS = (512, 2048, 8192)
CHECK_STEPS = 16
FIRST_COMPILE_S = 80.0
"""``torch.compile``'s compile of Qwen3-4B at one length on an H100 host, as planned before one
has run (sessions 13, 16 and 17: 52-79 s static)."""
RUNS = 5


STARTED = time.perf_counter()


def log(message: str) -> None:
    """``message`` after the seconds since the start (where a GPU run's time goes)."""
    print(f"[{time.perf_counter() - STARTED:6.1f} s] {message}", flush=True)


def prompt_of(n: int, vocab: int) -> list[int]:
    return [int(t) for t in np.random.default_rng(n).integers(0, vocab, n)]


def host_zeros(shape: tuple[int, ...], dtype: st.DType) -> st.Tensor:
    """Zeros on the CPU backend in ``dtype``'s storage, shared (the build's caches: nothing
    converted; an upload of converted f32 zeros takes seconds a Qwen3-4B cache here)."""
    return st.from_dlpack(np.zeros(shape, numpy_dtype(dtype)), dtype=dtype)


def tilings(n: int) -> dict[str, PrefillTiles]:
    """The tilings timed at ``n`` tokens: ``SPEED_TILES`` and ``LENGTH_TILES``'."""
    return {**SPEED_TILES, **LENGTH_TILES.get(n, {})}


def build(arch: str) -> None:
    """Record each timed config's prefill graph on the CPU with ``$SAFETILE_AOT_ARCHS`` (a
    recording compiles every launch's variant for ``arch`` and runs nothing), then run the
    check's prefill and two decode steps and record ``DECODE``'s step: every variant the GPU run
    launches is compiled for ``arch`` (``build_speed`` alone: those of ``--skip check decode``).
    One layer, a 384-token vocabulary and a 16-token prompt give the same variants (those sizes
    are dynamic); the GEMM tiles fitted to a timed length's rows are planned for them
    (``PrefillTiles.plan_rows``).  Then every prefill kernel's cubin in the cache: its
    registers, spill and shared memory (``resources``)."""
    build_speed(arch, check=True)
    small = replace(DECODE[0], layers=1, vocab=384)
    Qwen3Decoder(small, random_weights(small), dtype=st.bf16, max_positions=_qwen3_bench.MAX_POSITIONS,
                 tiles=DECODE[1], zeros=host_zeros).record(_qwen3_bench.PROMPT).release()
    print(f"{DECODE[0]}: decode built for {arch}", flush=True)
    resources(arch)


def build_speed(arch: str, check: bool = False) -> None:
    """``build``'s prefills: every ``SPEED_TILES`` tiling at each ``SPEED_PROMPTS`` length (and
    with ``check`` the correctness run's)."""
    os.environ["SAFETILE_AOT_ARCHS"] = arch
    # Each timed length's GEMM tiles (the fitted ones depend on the prompt's rows), on a short prompt.
    runs = [(SPEED[:3], replace(tiles, plan_rows=-(-n // tiles.row_step) * tiles.row_step))
            for n in SPEED_PROMPTS for tiles in tilings(n).values()] + ([(CHECK[:3], CHECK[3])] if check else [])
    for (config, dtype, positions), tiles in runs:
        small = replace(config, layers=1, vocab=384)
        decoder = Qwen3Decoder(small, random_weights(small), dtype=dtype, max_positions=positions,
                               prefill_tiles=tiles, zeros=host_zeros)
        start = time.perf_counter()
        prompt = prompt_of(16, small.vocab)
        if config is CHECK[0]:
            decoder.generate(prompt, 2, prefill=True)
        else:
            decoder.record_prefill(prompt).release()
        print(f"{config.hidden}-wide {dtype}, {tiles}: built for {arch} ({time.perf_counter() - start:.0f} s)",
              flush=True)


def resources(arch: str) -> None:
    """Registers, spill and shared memory of each prefill kernel's cubins for ``arch`` in the
    cache (``$SAFETILE_CACHE_DIR``), as a markdown table (docs/model.md quotes it)."""
    names = tuple(kernel.name for kernel in prefill_kernels.KERNELS)
    print("| kernel | registers | spill (bytes a thread) | shared memory (bytes) |\n|---|---|---|---|")
    for meta in sorted(default_cache_dir().glob("cubin-v1/*/*/*.json")):
        entry = json.loads(meta.read_text())
        cubin = meta.with_suffix(".cubin")
        for kernel in entry["kernels"]:
            if entry["arch"] == arch and kernel.startswith(names) and cubin.exists():
                usage = kernel_resources(cubin.read_bytes(), kernel)
                print(f"| {kernel} | {usage.registers} | {usage.spill_bytes} | {usage.shared_bytes} |")


# -- on the GPU -------------------------------------------------------------------------


def ours(torch: Any, config: Config, dtype: st.DType, model: Any, positions: int, tiles: PrefillTiles) -> Qwen3Decoder:
    """Our decoder over ``model``'s weights (shared with torch, packed where the decode packs
    them), its caches and buffers zeroed by torch (not converted from f32 on the host)."""
    weights = {name: t.detach() for name, t in model.state_dict().items()}
    torch_dtype = {st.bf16: torch.bfloat16, st.f32: torch.float32}

    def zeros(shape: tuple[int, ...], e: st.DType) -> st.Tensor:
        memory = torch.zeros(shape, dtype=torch_dtype[e], device="cuda")
        torch.cuda.synchronize()  # zeroed before a kernel on safetile's stream uses it
        return st.from_dlpack(memory)

    return Qwen3Decoder(config, weights, dtype=dtype, max_positions=positions, prefill_tiles=tiles,
                        upload=lambda t: st.from_dlpack(t.contiguous()), zeros=zeros)


def check(torch: Any, results: dict[str, Any]) -> None:
    config, dtype, positions, tiles = CHECK
    model = hf_model(config, torch.float32, torch)
    decoder = ours(torch, config, dtype, model, positions, tiles)
    for n in CHECK_PROMPTS:
        prompt = prompt_of(n, config.vocab)
        decoder._allocate(prompt)
        decoder.prefill(prompt)
        logits = decoder.read("logits")
        expected = hf_logits(model, prompt, torch)
        tokens = decoder.generate(prompt, CHECK_STEPS, prefill=True)
        with torch.no_grad():
            ids = torch.tensor([prompt], device="cuda")
            hf = model.generate(ids, max_new_tokens=CHECK_STEPS, min_new_tokens=CHECK_STEPS, do_sample=False,
                                pad_token_id=0)[0, n:].tolist()
        same = next((i for i, (a, b) in enumerate(zip(tokens, hf)) if a != b), len(hf))
        results["check"][str(n)] = {"max_abs_logit_diff": float(np.abs(logits - expected).max()),
                                    "logit_scale": float(np.abs(expected).max()),
                                    "first_token_equal": tokens[0] == hf[0],
                                    "equal_tokens_before_divergence": same, "ours": tokens, "transformers": hf}
        print(f"0.6B f32, {n}-token prompt: {results['check'][str(n)]}", flush=True)
    del model, decoder
    torch.cuda.empty_cache()


def best_seconds(torch: Any, work: Any, runs: int = RUNS) -> float:
    """The shortest wall time of ``runs`` calls of ``work()`` (each ends with a host read)."""
    times = []
    for _ in range(runs):
        torch.cuda.synchronize()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def model_flops(config: Config, n: int) -> float:
    """FLOPs of a prefill of ``n`` tokens: the projections over every row, causal attention
    (half of ``QK^T`` and of ``PV``), the LM head of the last row."""
    c = config
    per_row = 2 * c.layers * (c.hidden * c.qkv + c.heads * c.head_dim * c.hidden + 3 * c.hidden * c.intermediate)
    attention = 2 * c.layers * c.heads * c.head_dim * n * n  # 2 products x 2 FLOPs x n^2 / 2
    return per_row * n + attention + 2 * c.hidden * c.vocab


def cublas_rate(torch: Any) -> float:
    """FLOP/s of cuBLAS on a ``(8192, 2560) x (2560, 9728)`` bf16 GEMM (best of 20, events): the
    single-rate GEMM bound's rate."""
    a = torch.randn(8192, 2560, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(2560, 9728, device="cuda", dtype=torch.bfloat16)
    best = float("inf")
    for _ in range(20):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        a @ b
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) / 1e3)
    return 2 * 8192 * 2560 * 9728 / best


def layer_seconds(torch: Any, work: Any, launches: int, rounds: int = 5) -> float:
    """Seconds a call of ``work()`` takes on the GPU, ``launches`` calls back to back (as a
    prefill's layers run them), the best of ``rounds`` (CUDA events)."""
    work()
    best = float("inf")
    for _ in range(rounds):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(launches):
            work()
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) / 1e3 / launches)
    return best


def shape_bound(torch: Any, config: Config, n: int) -> dict[str, Any]:
    """The GEMM bound of an ``n``-token prefill measured shape by shape: cuBLAS (``F.linear``, bf16,
    weights ``(out, in)`` as ``nn.Linear`` holds them) on each projection at ``n`` rows, fused as
    ours launches them (QKV; gate and up in one) or apart as ``transformers`` does (q, k, v; gate,
    up), the faster of the two a group; torch's fastest SDPA backend (cuDNN, FLASH or the
    memory-efficient one) on the causal attention of all heads (the kv heads repeated to the query
    heads beforehand, untimed); the LM head's one row.  The bound is ``layers`` times a layer's
    GEMMs and attention plus the head: nothing else (norms, RoPE, SwiGLU, the cache) costs."""
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    c, bf16 = config, torch.bfloat16
    x = {k: torch.randn(n, k, device="cuda", dtype=bf16) for k in {c.hidden, c.heads * c.head_dim, c.intermediate}}
    shapes = {"qkv": [(c.hidden, c.qkv)],
              "q, k, v": [(c.hidden, c.heads * c.head_dim)] + [(c.hidden, c.kv_heads * c.head_dim)] * 2,
              "o_proj": [(c.heads * c.head_dim, c.hidden)], "gate/up": [(c.hidden, 2 * c.intermediate)],
              "gate, up": [(c.hidden, c.intermediate)] * 2, "down": [(c.intermediate, c.hidden)]}
    seconds: dict[str, float] = {}
    for name, parts in shapes.items():
        total = 0.0
        for k, out in parts:
            w = torch.randn(out, k, device="cuda", dtype=bf16)
            total += layer_seconds(torch, lambda: F.linear(x[k], w), c.layers)
            del w
        seconds[name] = total
    q = torch.randn(1, c.heads, n, c.head_dim, device="cuda", dtype=bf16)
    kv = [torch.randn(1, c.kv_heads, n, c.head_dim, device="cuda", dtype=bf16).repeat_interleave(c.group, 1)
          for _ in range(2)]
    backends: dict[str, Any] = {}
    for backend in (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION):
        try:
            with sdpa_kernel(backend):
                backends[backend.name] = layer_seconds(
                    torch, lambda: F.scaled_dot_product_attention(q, *kv, is_causal=True), c.layers)
        except RuntimeError as refusal:  # a backend that does not take the shape
            backends[backend.name] = f"refused: {refusal}".splitlines()[0]
    timed = {k: v for k, v in backends.items() if isinstance(v, float)}
    seconds["attention"] = min(timed.values())
    head = torch.randn(c.vocab, c.hidden, device="cuda", dtype=bf16)
    seconds["lm_head"] = layer_seconds(torch, lambda: F.linear(x[c.hidden][-1:], head), 1)
    del head
    groups = (min(seconds["qkv"], seconds["q, k, v"]), seconds["o_proj"], min(seconds["gate/up"], seconds["gate, up"]),
              seconds["down"], seconds["attention"])
    return {"seconds_a_layer": seconds, "attention_backends_s": backends,
            "attention_backend": min(timed, key=timed.__getitem__),
            "bound_s": c.layers * sum(groups) + seconds["lm_head"]}


def speed(torch: Any, model: Any, results: dict[str, Any], save: Any, prompts: tuple[int, ...] = SPEED_PROMPTS) -> None:
    """Time to first token of ours (each of ``tilings(n)``, launched eagerly and as one recorded
    graph) and of ``transformers`` (``model``, SDPA); the per-kernel profile of the graph at
    ``BREAKDOWN_PROMPTS`` (``breakdown[length][tiles]``, ms a kernel).  A cubin missing from the
    cache ends the run (every variant would miss: the cache is stale)."""
    config, dtype, positions, tiles = SPEED
    # With the stacked gate/up copy (made at construction, its halves the pairs' weights).
    decoder = ours(torch, config, dtype, model, positions, tiles)
    rate = cublas_rate(torch)
    results["cublas_flops"] = rate
    for n in prompts:
        prompt = prompt_of(n, config.vocab)
        ids = torch.tensor([prompt], device="cuda")
        entry: dict[str, Any] = {"eager_by_tiles_s": {}, "graph_by_tiles_s": {}}
        results["ttft"][str(n)] = entry

        def run_ours() -> int:
            decoder.prefill(prompt)
            return int(decoder.read("tokens")[n])

        def run_hf() -> int:
            with torch.no_grad():
                return int(model(ids, logits_to_keep=1).logits[0, -1].argmax().item())

        decoder._allocate(prompt)
        for label, variant in tilings(n).items():
            decoder.prefill_tiles = variant
            try:
                entry["first_token_ours"] = run_ours()
                entry["eager_by_tiles_s"][label] = best_seconds(torch, run_ours)
                graph = decoder.record_prefill(prompt, fresh=False)  # the caches of 16,384 rows: allocated once
                # The graph's time: its replay until the first token is in device memory (a host
                # read of it needs the graph released: one small copy more).
                entry["graph_by_tiles_s"][label] = best_seconds(torch, graph.sync)
                if n in BREAKDOWN_PROMPTS:
                    per_kernel = kernel_times(graph.replay, torch, replays=3)
                    results["breakdown"].setdefault(str(n), {})[label] = {name: us / 1e3
                                                                          for name, us in per_kernel.items()}
                graph.release()
                log(f"ours, {label}, {n} tokens: graph {entry['graph_by_tiles_s'][label] * 1e3:.2f} ms")
            except MissingCubin:
                raise
            except Exception:  # noqa: BLE001 - a variant that fails: time the others
                results["errors"].append(f"{label}, {n} tokens: {traceback.format_exc()}")
                print(results["errors"][-1], flush=True)
        timed = {**{f"eager {k}": v for k, v in entry["eager_by_tiles_s"].items()},
                 **{f"graph {k}": v for k, v in entry["graph_by_tiles_s"].items()}}
        best = min(timed, key=timed.__getitem__)
        entry["first_token_transformers"] = run_hf()
        entry["transformers_s"] = t_hf = best_seconds(torch, run_hf)
        estimate = model_flops(config, n) / rate
        entry["shape_bound"] = measured = shape_bound(torch, config, n)
        entry.update(ours_s=timed[best], ours_best=best, gemm_bound_s=estimate,
                     of_gemm_bound=estimate / timed[best], shape_bound_s=measured["bound_s"],
                     of_shape_bound=measured["bound_s"] / timed[best], vs_transformers=t_hf / timed[best])
        log(f"4B bf16, {n}-token prompt: {entry}")
        save()
    del decoder
    torch.cuda.empty_cache()


def compiled_speed(torch: Any, model: Any, results: dict[str, Any], deadline: float, save: Any,
                   prompts: tuple[int, ...] = SPEED_PROMPTS) -> None:
    """``torch.compile`` of the same forward (``model``, torch's default mode), each prompt
    length while the budget lasts, with static shapes (``dynamic=False``): a compile a length, each
    specialized to its length, as a server would warm its buckets.  Left to itself it recompiles
    with the sequence length dynamic at the second length (session 13: 52-61 s, then 72-87 s);
    session 16's ``dynamic=True`` compile took 161 s and ran 40.3 ms at 2,048 tokens against the
    default's 36.3-36.9 ms there (other machines): a symbolic length costs it time, so the static
    compile is the fair peer.  A length is compiled only if its compile, taken as long as the
    longest so far (``FIRST_COMPILE_S`` before any), ends before ``deadline``."""
    config = SPEED[0]
    compiled = torch.compile(model, dynamic=False)
    longest = FIRST_COMPILE_S
    for n in prompts:
        entry = results["ttft"].setdefault(str(n), {})
        if time.time() + longest > deadline:
            entry["torch_compile_s"] = "not run: its compile would end past the run's time budget"
            continue
        ids = torch.tensor([prompt_of(n, config.vocab)], device="cuda")

        def run_compiled() -> int:
            with torch.no_grad():
                return int(compiled(ids, logits_to_keep=1).logits[0, -1].argmax().item())

        start = time.perf_counter()
        entry["first_token_torch_compile"] = run_compiled()
        entry["torch_compile_first_call_s"] = time.perf_counter() - start  # with its compile, if any
        longest = max(longest, entry["torch_compile_first_call_s"])
        entry["torch_compile_s"] = t_compiled = best_seconds(torch, run_compiled)
        if "ours_s" in entry:
            entry["vs_torch_compile"] = t_compiled / entry["ours_s"]
            entry["vs_the_faster"] = min(t_compiled, entry["transformers_s"]) / entry["ours_s"]
        log(f"4B bf16, {n}-token prompt, torch.compile: {t_compiled * 1e3:.2f} ms "
            f"(first call {entry['torch_compile_first_call_s']:.1f} s)")
        save()


def decode(torch: Any, results: dict[str, Any], deadline: float) -> None:
    """``DECODE``'s greedy decode on one GPU (bench/qwen3.py's timing: 1,024 tokens after a
    16-token prompt, the step one graph) against the HBM roofline at the copy bandwidth, if the
    budget lasts."""
    if time.time() > deadline:
        results["decode"] = "not run: out of the run's time budget"
        return
    config, tiles = DECODE
    bandwidth = copy_bandwidth(torch)
    model = hf_model(config, torch.bfloat16, torch)
    measured = bench_ours(config, model, tiles, torch)
    del model
    torch.cuda.empty_cache()
    prompt, steps = len(_qwen3_bench.PROMPT), _qwen3_bench.BENCH_STEPS
    roofline = steps / (sum(model_bytes(config, 2, prompt + i) for i in range(steps)) / bandwidth)
    results["decode"] = {"config": str(config), "copy_bandwidth_GBps": bandwidth / 1e9,
                         "roofline_tokens_per_s": roofline, "of_roofline": measured["tokens_per_s"] / roofline,
                         **measured}
    print(f"decode {config}: {measured['tokens_per_s']:.1f} tokens/s, roofline {roofline:.1f}", flush=True)


def ncu_workload(torch: Any) -> None:
    """The kernels ``ncu`` profiles (``--ncu``; run under ``ncu --profile-from-start off``: each
    launch between ``cudaProfilerStart`` and ``Stop`` once, every one warmed once before): a
    one-layer Qwen3-4B bf16 prefill of 2,048 tokens on the default tiles, then the peers on the
    same layer's shapes: cuDNN's SDPA on the causal attention (the kv heads repeated beforehand)
    and cuBLAS (``F.linear``) on o_proj and down, in that order."""
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    c, n, bf16 = replace(SPEED[0], layers=1), 2048, torch.bfloat16
    model = hf_model(c, bf16, torch)
    decoder = ours(torch, c, SPEED[1], model, SPEED[2], SPEED[3])
    prompt = prompt_of(n, c.vocab)
    decoder._allocate(prompt)
    q, *kv = (torch.randn(1, c.heads, n, c.head_dim, device="cuda", dtype=bf16) for _ in range(3))
    linear = [(torch.randn(n, k, device="cuda", dtype=bf16), torch.randn(c.hidden, k, device="cuda", dtype=bf16))
              for k in (c.heads * c.head_dim, c.intermediate)]

    def launches() -> None:
        decoder.prefill(prompt)
        decoder.read("tokens")
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            F.scaled_dot_product_attention(q, *kv, is_causal=True)
        for x, w in linear:
            F.linear(x, w)
        torch.cuda.synchronize()

    launches()
    torch.cuda.profiler.start()
    launches()
    torch.cuda.profiler.stop()
    print("ncu workload done", flush=True)


def run(out: Path, budget: float, prompts: list[int] | None = None, skip: list[str] | None = None,
        compile_prompts: list[int] | None = None, ncu: bool = False) -> None:
    import torch

    if ncu:
        ncu_workload(torch)
        return
    out.mkdir(parents=True, exist_ok=True)
    deadline = time.time() + budget
    lengths = tuple(prompts or SPEED_PROMPTS)
    results: dict[str, Any] = {"device": torch.cuda.get_device_name(),
                               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "torch": torch.__version__,
                               "check": {}, "ttft": {}, "breakdown": {}, "errors": []}

    def save() -> None:
        (out / "prefill.json").write_text(json.dumps(results, indent=1))

    # The check first: a run cut short by its time limit (session 12's stopped in the 8,192-token
    # timing) still says whether the prefill is right.  Each part's seconds are kept.
    results["part_seconds"] = {}
    model: list[Any] = []  # Qwen3-4B bf16 in transformers (SDPA), made once for speed and torch.compile

    def timed_model() -> Any:
        if not model:
            model.append(hf_model(SPEED[0], torch.bfloat16, torch))
            model[0].config._attn_implementation = "sdpa"
        return model[0]

    parts = (("check", lambda: check(torch, results)),
             ("speed", lambda: speed(torch, timed_model(), results, save, lengths)),
             ("torch.compile", lambda: compiled_speed(torch, timed_model(), results, deadline, save,
                                                      tuple(compile_prompts or lengths))),
             ("free the 4B model", lambda: (model.clear(), torch.cuda.empty_cache())),
             ("decode", lambda: decode(torch, results, deadline)))
    for name, part in parts:
        if name in (skip or ()):
            results["part_seconds"][name] = "skipped (--skip)"
            continue
        start = time.perf_counter()
        try:
            part()
        except MissingCubin:
            save()
            raise
        except Exception:  # noqa: BLE001 - keep what the other parts measure
            results["errors"].append(traceback.format_exc())
            print(traceback.format_exc(), flush=True)
        results["part_seconds"][name] = time.perf_counter() - start
        log(f"{name} done")
        save()
    plot(results, out / "prefill.png")


def plot(results: dict[str, Any], png: Path) -> None:
    """The time to the first token against the prompt's length: ours (each tiling the run timed,
    the recorded graph), ``transformers``, ``torch.compile`` and the GEMM-bound estimate."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ttft = results["ttft"]
    lengths = sorted(int(n) for n in ttft)
    labels = dict.fromkeys(label for n in lengths for label in ttft[str(n)].get("graph_by_tiles_s", {}))
    series = {f"safetile, {label}": [ttft[str(n)].get("graph_by_tiles_s", {}).get(label) for n in lengths]
              for label in labels}
    series.update({label: [ttft[str(n)].get(key) for n in lengths] for key, label in (
        ("transformers_s", "transformers (SDPA, bf16)"), ("torch_compile_s", "torch.compile"),
        ("shape_bound_s", "GEMM bound (cuBLAS + SDPA, shape by shape)"),
        ("gemm_bound_s", "GEMM bound (model FLOPs / one cuBLAS rate)"))})
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for label, seconds in series.items():
        points = [(n, s * 1e3) for n, s in zip(lengths, seconds) if isinstance(s, float)]
        if points:
            ax.plot(*zip(*points), marker="o", label=label, linestyle="--" if "bound" in label else "-")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("prompt tokens")
    ax.set_ylabel("time to first token (ms)")
    ax.set_title(f"Qwen3-4B bf16 prefill, {results['device']}")
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3, which="both")
    fig.tight_layout()
    fig.savefig(png, dpi=120)


def add_arguments(parser: Any) -> None:
    parser.add_argument("--budget", type=float, default=240.0,
                        help="seconds after which the decode is skipped and by which torch.compile's "
                        "last compile ends (a length whose compile would end later is skipped)")
    parser.add_argument("--prompts", type=int, nargs="+", help=f"prompt lengths timed, in this order "
                        f"(default {' '.join(map(str, SPEED_PROMPTS))}; a run cut short keeps the first)")
    parser.add_argument("--skip", nargs="+", choices=("check", "speed", "torch.compile", "decode"), default=[],
                        help="parts not run (a short run: the speed table alone)")
    parser.add_argument("--compile-prompts", type=int, nargs="+", help="prompt lengths torch.compile runs, in "
                        "this order, while the budget lasts (default: --prompts'; session 18: 8,192 first, "
                        "the length no earlier run compiled)")
    parser.add_argument("--ncu", action="store_true", help="only one launch of each kernel ncu profiles "
                        "(ncu_workload: run it under ncu), nothing timed or written")


if __name__ == "__main__":
    build_or_run(__doc__, build, run, add_arguments)
