"""Qwen3 greedy decode on the GPU: safetile's graph of safe kernels (examples/qwen3) against
``transformers``, and tokens/s against the HBM roofline.

    .venv/bin/python bench/qwen3.py --build sm_90     # here, no GPU: every variant's cubin into the cache
    SAFETILE_CACHE_DIR=build/gpu-cache python -P bench/qwen3.py OUT_DIR [--hf-tokens 256]

On the GPU, in one run:

1. correctness: ``Qwen3ForCausalLM`` built from a config (no download) with random weights,
   our decoder reading the same weights (torch's memory, through DLPack): the greedy tokens
   of 64 steps and the logits of the first and the last step, Qwen3-0.6B in f32 and
   Qwen3-4B in bf16;
2. speed, Qwen3-4B bf16: tokens/s over 1,024 generated tokens (per 64 positions too), the
   copy bandwidth of the same GPU (a 1 GiB device-to-device copy, the faster of one before
   the checks and one after: on an H100 the one after them has read 14% low) and the roofline it
   gives (weight bytes plus the KV cache bytes read, per token), ``transformers`` eager
   ``generate`` and the same model's step under a CUDA graph (a static KV cache);
3. the time per kernel of one replay (torch.profiler over graph replays).

Writes ``OUT_DIR/qwen3.json`` and ``OUT_DIR/qwen3_tokens_per_s.png``.
"""

from __future__ import annotations

import argparse
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # measure.py (also under python -P)

from measure import build_or_run, copy_bandwidth, kernel_times, read_bandwidth  # noqa: E402
from qwen3.kernels import ROWS  # noqa: E402
from qwen3.model import Qwen3Decoder, Tiles  # noqa: E402
from qwen3.reference import QWEN3_0_6B, QWEN3_4B, Config, random_weights  # noqa: E402

MAX_POSITIONS = 2048
PROMPT = [9707, 11, 847, 829, 374, 1207, 16948, 13, 358, 1079, 264, 3460, 4128, 1614, 13, 220]
CHECK_STEPS = 64
BENCH_STEPS = 1024
RUNS = {"0.6B": (QWEN3_0_6B, st.f32), "4B": (QWEN3_4B, st.bf16)}
BENCH_TILES = [Tiles(), Tiles(dependent_launch=False, o_occupancy=4), Tiles(o_occupancy=4), Tiles(prefetch_rows=16),
               Tiles(prefetch_rows=16, prefetch_occupancy=1), Tiles(prefetch_rows=16, prefetch_occupancy=8), Tiles(prefetch_rows=32), Tiles(keys=256),
               Tiles(attention_occupancy=2), Tiles(gemv_occupancy=2), Tiles(keys=64, products=ROWS),
               Tiles(gemv_occupancy=None, gemv_latency=8), Tiles(early=0, up_early=0, down_early=0),
               Tiles(early=2, up_early=2, down_early=2),
               Tiles(early=1, early_tma=True, up_early_tma=True, down_early_tma=True),
               Tiles(early=2, early_tma=True, up_early=2, up_early_tma=True, down_early=2, down_early_tma=True),
               Tiles(o_early=1, o_early_tma=False), Tiles(o_early=0),
               Tiles(o_early=3), Tiles(o_early=4), Tiles(packed=False), Tiles(o_occupancy=4, o_early=4, o_early_tma=False),
               Tiles(o_occupancy=3, o_early=4), Tiles(o_occupancy=4, o_early=4), Tiles(o_occupancy=3, o_early=4, o_early_tma=False),
               Tiles(o_occupancy=3, o_early=4, o_early_tma=False, early=2, early_tma=True, down_early=2, down_early_tma=True),
               Tiles(o_occupancy=3, o_early=3, o_early_tma=False, early=2, early_tma=True, down_early=2, down_early_tma=True),
               Tiles(early=2, down_early=2), Tiles(down_early=4), Tiles(early=2, down_early=4),
               Tiles(down_early=4, down_early_tma=True), Tiles(early=1), Tiles(rope_table=False)]
"""The tile configs timed on Qwen3-4B (the first is the one the correctness checks use; the last,
the attention's rotary embedding computed in the kernel as before session 19's table)."""


def build(arch: str) -> None:
    """Record one step of each run's decoder on the CPU with ``$SAFETILE_AOT_ARCHS``: every
    variant the GPU run launches is compiled for ``arch``.  One layer and a 384-token vocabulary
    give the same variants (those sizes are dynamic; the divisibility facts are the same)."""
    os.environ["SAFETILE_AOT_ARCHS"] = arch
    for name, (config, dtype) in RUNS.items():
        small = replace(config, layers=1, vocab=384)
        for tiles in BENCH_TILES if config is QWEN3_4B else BENCH_TILES[:1]:
            decoder = Qwen3Decoder(small, random_weights(small), dtype=dtype, max_positions=MAX_POSITIONS,
                                   tiles=tiles)
            decoder.record(PROMPT).release()
            print(f"Qwen3-{name} {dtype} {tiles}: built for {arch}", flush=True)
    print_resources(arch)


def print_resources(arch: str) -> None:
    """Registers and spills (stack bytes) of every kernel in the cubin cache built for ``arch``."""
    from safetile.backend.cache import LAYOUT, default_cache_dir
    from safetile.backend.resources import kernel_resources

    for record in sorted(default_cache_dir().glob(f"{LAYOUT}/*/*/*.json")):
        meta = json.loads(record.read_text())
        if meta.get("arch") != arch:
            continue
        cubin = record.with_suffix(".cubin").read_bytes()
        for kernel in meta["kernels"]:
            usage = kernel_resources(cubin, kernel)
            print(f"  {kernel}: {usage.registers} registers, {usage.stack_bytes} B stack, "
                  f"{usage.shared_bytes} B shared", flush=True)


# -- on the GPU -------------------------------------------------------------------------


def hf_model(config: Config, dtype: Any, torch: Any) -> Any:
    """``Qwen3ForCausalLM`` of ``config`` with random weights drawn as reference.random_weights
    draws them (on the GPU, seeded)."""
    from transformers import Qwen3Config, Qwen3ForCausalLM

    hf_config = Qwen3Config(
        vocab_size=config.vocab, hidden_size=config.hidden, intermediate_size=config.intermediate,
        num_hidden_layers=config.layers, num_attention_heads=config.heads, num_key_value_heads=config.kv_heads,
        head_dim=config.head_dim, rope_theta=config.rope_theta, rms_norm_eps=config.eps,
        tie_word_embeddings=config.tied, max_position_embeddings=40960, attention_bias=False,
    )
    default = torch.get_default_dtype()
    torch.set_default_dtype(dtype)  # built in dtype: Qwen3-14B in f32 would not fit an H100 beside its bf16 copy
    try:
        with torch.device("cuda"):
            model = Qwen3ForCausalLM(hf_config).to(dtype).eval()
    finally:
        torch.set_default_dtype(default)
    gen = torch.Generator(device="cuda").manual_seed(0)
    with torch.no_grad():
        for name, p in model.named_parameters():
            r = torch.randn(p.shape, device="cuda", generator=gen, dtype=torch.float32)
            if name.endswith("embed_tokens.weight"):
                r = 0.1 * r
            elif p.ndim == 1:
                r = 1.0 + 0.1 * r
            else:
                r = r / p.shape[1] ** 0.5
            p.copy_(r.to(dtype))
    return model


def ours(config: Config, dtype: st.DType, model: Any, tiles: Tiles = BENCH_TILES[0]) -> Qwen3Decoder:
    weights = {name: t.detach() for name, t in model.state_dict().items()}
    return Qwen3Decoder(config, weights, dtype=dtype, max_positions=MAX_POSITIONS, tiles=tiles,
                        upload=lambda t: st.from_dlpack(t.contiguous()))


def hf_logits(model: Any, tokens: list[int], torch: Any) -> np.ndarray:
    with torch.no_grad():
        ids = torch.tensor([tokens], device="cuda")
        return model(ids).logits[0, -1].float().cpu().numpy()


def check(name: str, torch: Any) -> dict[str, Any]:
    """Greedy tokens and logits of our decoder against transformers' (same weights)."""
    config, dtype = RUNS[name]
    torch_dtype = {st.f32: torch.float32, st.bf16: torch.bfloat16}[dtype]
    model = hf_model(config, torch_dtype, torch)
    decoder = ours(config, dtype, model)
    first = decoder.generate(PROMPT, 1)
    first_logits = decoder.read("logits")
    tokens = decoder.generate(PROMPT, CHECK_STEPS)
    last_logits = decoder.read("logits")
    with torch.no_grad():
        out = model.generate(torch.tensor([PROMPT], device="cuda"), max_new_tokens=CHECK_STEPS, do_sample=False,
                             min_new_tokens=CHECK_STEPS, eos_token_id=None, pad_token_id=0)
    hf_tokens = [int(t) for t in out[0, len(PROMPT):]]
    ref_first = hf_logits(model, PROMPT, torch)
    ref_last = hf_logits(model, PROMPT + tokens[:-1], torch)  # the logits that chose our last token
    same = next((i for i, (a, b) in enumerate(zip(tokens, hf_tokens)) if a != b), len(tokens))
    result = {
        "config": name, "dtype": str(dtype), "steps": CHECK_STEPS, "first_token": first[0],
        "tokens_equal": tokens == hf_tokens, "agreeing_prefix": same, "ours": tokens, "transformers": hf_tokens,
        "logits_max_abs_diff_first": float(np.abs(first_logits - ref_first).max()),
        "logits_max_abs_diff_last": float(np.abs(last_logits - ref_last).max()),
        "logits_scale": float(np.abs(ref_last).max()),
    }
    print(json.dumps({k: v for k, v in result.items() if k not in ("ours", "transformers")}), flush=True)
    del decoder, model
    torch.cuda.empty_cache()
    return result


def model_bytes(config: Config, dtype_bytes: int, position: int) -> int:
    """Bytes a decode step must read at ``position``: every weight once (the tied table once, as
    the LM head), and the KV cache up to the position."""
    c = config
    per_layer = (c.qkv * c.hidden + c.hidden * c.heads * c.head_dim + 3 * c.intermediate * c.hidden
                 + 2 * c.hidden + 2 * c.head_dim)
    weights = c.layers * per_layer + c.vocab * c.hidden + c.hidden
    kv = c.layers * 2 * (position + 1) * c.kv_heads * c.head_dim
    return (weights + kv) * dtype_bytes


def bench_ours(config: Config, model: Any, tiles: Tiles, torch: Any) -> dict[str, Any]:
    decoder = ours(config, st.bf16, model, tiles)
    decoder.generate(PROMPT, 8)  # warm: modules loaded
    graph = decoder.record(PROMPT)
    for _ in range(len(PROMPT) - 1):
        graph.replay()
    graph.stream.synchronize()
    chunk, times = 64, []
    for _ in range(BENCH_STEPS // chunk):
        start = time.perf_counter()
        for _ in range(chunk):
            graph.replay()
        graph.stream.synchronize()
        times.append((time.perf_counter() - start) / chunk)
    profile = kernel_times(graph.replay, torch)
    graph.release()
    return {"tiles": str(tiles), "seconds_per_token_by_64": times,
            "tokens_per_s": BENCH_STEPS / (sum(times) * chunk), "kernels": profile}


def bench_hf_eager(model: Any, steps: int, torch: Any) -> float:
    ids = torch.tensor([PROMPT], device="cuda")
    with torch.no_grad():
        model.generate(ids, max_new_tokens=8, do_sample=False, pad_token_id=0)
        torch.cuda.synchronize()
        start = time.perf_counter()
        model.generate(ids, max_new_tokens=steps, min_new_tokens=steps, do_sample=False, eos_token_id=None,
                       pad_token_id=0)
        torch.cuda.synchronize()
    return steps / (time.perf_counter() - start)


def bench_hf_graph(model: Any, steps: int, torch: Any) -> float:
    """The model's decode step (a static KV cache) captured as one CUDA graph and replayed."""
    from transformers import StaticCache

    try:
        cache = StaticCache(config=model.config, max_batch_size=1, max_cache_len=MAX_POSITIONS, device="cuda",
                            dtype=model.dtype)
    except TypeError:
        cache = StaticCache(config=model.config, max_cache_len=MAX_POSITIONS)
    ids = torch.zeros((1, 1), dtype=torch.long, device="cuda")
    pos = torch.zeros((1,), dtype=torch.long, device="cuda")

    def step() -> Any:
        return model(input_ids=ids, past_key_values=cache, cache_position=pos, position_ids=pos.unsqueeze(0),
                     use_cache=True).logits

    with torch.no_grad():
        for token in PROMPT:  # prefill, eagerly, one token at a time
            ids.fill_(token)
            logits = step()
            pos += 1
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            step()
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            logits = step()
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(steps):
            graph.replay()
            ids.copy_(logits[:, -1].argmax(-1, keepdim=True))
            pos += 1
        torch.cuda.synchronize()
    return steps / (time.perf_counter() - start)


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    per64 = result["ours"]["seconds_per_token_by_64"]
    positions = [len(PROMPT) + 64 * i + 32 for i in range(len(per64))]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(positions, [1 / t for t in per64], "o-", label="safetile (graph of safe kernels)")
    ax.plot(positions, result["roofline_tokens_per_s_by_64"], "--", label="HBM roofline (copy bandwidth)")
    for key, label in (("hf_graph_tokens_per_s", "torch + CUDA graph (transformers model)"),
                       ("hf_eager_tokens_per_s", "transformers eager")):
        if isinstance(result.get(key), float):
            ax.axhline(result[key], linestyle=":", label=label, color="gray" if "eager" in key else "green")
    ax.set_xlabel("position")
    ax.set_ylabel("tokens/s")
    ax.set_title("Qwen3-4B bf16 greedy decode, batch 1, H100")
    ax.set_ylim(bottom=0)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def run(out: Path, hf_tokens: int, configs: list[int] | None, no_checks: bool) -> None:
    import torch

    import transformers

    out.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {"torch": torch.__version__, "transformers": transformers.__version__,
                              "gpu": torch.cuda.get_device_name()}
    result["checks"] = []
    copies = [copy_bandwidth(torch)]  # before the checks, and after them below: the bound is the larger
    for name in RUNS if not no_checks else ():
        try:
            result["checks"].append(check(name, torch))
        except Exception:  # noqa: BLE001 - recorded, the benchmark goes on
            result["checks"].append({"config": name, "error": traceback.format_exc()})
            print(traceback.format_exc(), flush=True)
    copies.append(copy_bandwidth(torch))
    bandwidth = max(copies)
    result["copy_bandwidth_GBps"], result["copy_bandwidths_GBps"] = bandwidth / 1e9, [c / 1e9 for c in copies]
    result["read_bandwidth_GBps"] = read_bandwidth(torch) / 1e9  # beside the copy: what reading alone reaches
    model = hf_model(QWEN3_4B, torch.bfloat16, torch)
    result["ours_by_tiles"] = []
    for i, tiles in enumerate(BENCH_TILES):
        if configs is None or i in configs:
            result["ours_by_tiles"].append(bench_ours(QWEN3_4B, model, tiles, torch))
            print(tiles, result["ours_by_tiles"][-1]["tokens_per_s"], flush=True)
            (out / "qwen3.json").write_text(json.dumps(result, indent=1))
    result["ours"] = max(result["ours_by_tiles"], key=lambda r: r["tokens_per_s"])
    print([(r["tiles"], r["tokens_per_s"]) for r in result["ours_by_tiles"]], flush=True)
    per64 = result["ours"]["seconds_per_token_by_64"]
    positions = [len(PROMPT) + 64 * i + 32 for i in range(len(per64))]
    result["roofline_tokens_per_s_by_64"] = [bandwidth / model_bytes(QWEN3_4B, 2, p) for p in positions]
    roofline_time = sum(model_bytes(QWEN3_4B, 2, len(PROMPT) + i) for i in range(BENCH_STEPS)) / bandwidth
    result["roofline_tokens_per_s"] = BENCH_STEPS / roofline_time
    result["fraction_of_roofline"] = result["ours"]["tokens_per_s"] / result["roofline_tokens_per_s"]
    print(json.dumps({k: result[k] for k in ("copy_bandwidth_GBps", "roofline_tokens_per_s",
                                             "fraction_of_roofline")}), result["ours"]["tokens_per_s"], flush=True)
    for key, fn in (("hf_graph_tokens_per_s", bench_hf_graph), ("hf_eager_tokens_per_s", bench_hf_eager)):
        try:
            result[key] = fn(model, hf_tokens, torch)
        except Exception:  # noqa: BLE001
            result[key] = traceback.format_exc()
        print(key, result[key], flush=True)
    (out / "qwen3.json").write_text(json.dumps(result, indent=1))
    plot(result, out / "qwen3_tokens_per_s.png")


def options(parser: argparse.ArgumentParser) -> None:
    """The options of a GPU run besides the output folder."""
    parser.add_argument("--hf-tokens", type=int, default=256, help="tokens timed for transformers' runs")
    parser.add_argument("--configs", type=lambda s: [int(i) for i in s.split(",")],
                        help="indices into BENCH_TILES to time (default: all)")
    parser.add_argument("--no-checks", action="store_true", help="skip the comparison with transformers")


if __name__ == "__main__":
    build_or_run(__doc__, build, run, options)
