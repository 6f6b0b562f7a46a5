"""Tensor-parallel Qwen3 decode on two GPUs (examples/qwen3/tp.py): tokens/s against the HBM roofline.

    .venv/bin/python bench/tp.py --build sm_90     # here, no GPU: every variant's cubin into the cache
    SAFETILE_CACHE_DIR=build/gpu-cache python -P bench/tp.py OUT_DIR   # on a 2-GPU machine

The run starts one process per GPU (``RANK``, ``LOCAL_RANK``: each sees its own GPU), NCCL
between them (NVLink multicast off), and on each:

1. Qwen3-14B bf16, random weights in the published shapes drawn on the GPU shard by shard (a
   rank never holds the other's): ``STEPS`` greedy tokens after a 16-token prompt, each rank's
   step one graph with its NCCL calls inside (``ShardedDecoder.record``; if the capture fails,
   the step enqueued launch by launch, and the error kept); tokens/s against the two-GPU
   roofline (each rank's bytes a token, its shard of the weights and of the KV cache, at the
   slower rank's 1 GiB copy bandwidth);
2. the same 14B at TP=1 on rank 0's GPU (the unsharded ``Qwen3Decoder``, its step one graph)
   while rank 1 waits: TP=2's speedup over it (target 1.7x);
3. Qwen3-32B at TP=2, as 1.

Rank 0 writes ``OUT_DIR/tp.json``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import traceback
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import safetile as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # measure.py (also under python -P)

from measure import build_or_run, copy_bandwidth  # noqa: E402
from qwen3.model import Qwen3Decoder  # noqa: E402
from qwen3.reference import QWEN3_14B, QWEN3_32B, Config, random_weights  # noqa: E402
from qwen3.tp import local_config  # noqa: E402

MAX_POSITIONS = 2048
PROMPT = [9707, 11, 847, 829, 374, 1207, 16948, 13, 358, 1079, 264, 3460, 4128, 1614, 13, 220]
STEPS = 256
WORLD = 2
NCCL_ENV = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}


def build(arch: str) -> None:
    """Record one step of every decoder the GPU run makes, on the CPU with ``$SAFETILE_AOT_ARCHS``:
    a rank of ``WORLD`` is a ``Qwen3Decoder`` of the shard's shapes (``local_config``), whose
    variants are those of the sharded one.  One layer and a 384-token vocabulary a rank give
    the same variants (those sizes are dynamic)."""
    os.environ["SAFETILE_AOT_ARCHS"] = arch
    for config, world in ((QWEN3_14B, WORLD), (QWEN3_14B, 1), (QWEN3_32B, WORLD)):
        small = replace(local_config(config, world) if world > 1 else config, layers=1, vocab=384)
        decoder = Qwen3Decoder(small, random_weights(small), dtype=st.bf16, max_positions=MAX_POSITIONS)
        decoder.record(PROMPT).release()
        print(f"{config.hidden}-wide, {config.layers} layers, TP={world}: built for {arch}", flush=True)


# -- on the GPU -------------------------------------------------------------------------


class RandomShard(Mapping[str, Any]):
    """Rank ``rank``'s weights (``shard``'s names and shapes) drawn on the GPU when asked for, in
    bf16, as reference.random_weights draws them; nothing is kept, so the decoder's packed
    copies are the only ones that stay."""

    def __init__(self, config: Config, world: int, torch: Any):
        self.local, self.config, self.torch = local_config(config, world), config, torch
        c, loc = config, self.local
        self.shapes: dict[str, tuple[int, ...]] = {"model.embed_tokens.weight": (c.vocab, c.hidden),
                                                   "model.norm.weight": (c.hidden,),
                                                   "lm_head.weight": (loc.vocab, c.hidden)}
        d = c.head_dim
        for i in range(c.layers):
            p = f"model.layers.{i}."
            self.shapes.update({
                p + "input_layernorm.weight": (c.hidden,), p + "post_attention_layernorm.weight": (c.hidden,),
                p + "self_attn.q_norm.weight": (d,), p + "self_attn.k_norm.weight": (d,),
                p + "self_attn.q_proj.weight": (loc.heads * d, c.hidden),
                p + "self_attn.k_proj.weight": (loc.kv_heads * d, c.hidden),
                p + "self_attn.v_proj.weight": (loc.kv_heads * d, c.hidden),
                p + "self_attn.o_proj.weight": (c.hidden, loc.heads * d),
                p + "mlp.gate_proj.weight": (loc.intermediate, c.hidden),
                p + "mlp.up_proj.weight": (loc.intermediate, c.hidden),
                p + "mlp.down_proj.weight": (c.hidden, loc.intermediate)})

    def __getitem__(self, name: str) -> Any:
        torch, shape = self.torch, self.shapes[name]
        r = torch.randn(shape, device="cuda", dtype=torch.float32)
        if name == "model.embed_tokens.weight":
            r = 0.1 * r
        elif len(shape) == 1:
            r = 1.0 + 0.1 * r
        else:
            r = r / shape[1] ** 0.5
        return r.to(torch.bfloat16)

    def __iter__(self) -> Iterator[str]:
        return iter(self.shapes)

    def __len__(self) -> int:
        return len(self.shapes)

    def bytes_per_token(self, position: int) -> int:
        """What one step reads on this rank: its projections, norms and LM head rows, one
        embedding row, and its kv heads' cache up to ``position``."""
        weights = sum(2 * _count(shape) for name, shape in self.shapes.items() if name != "model.embed_tokens.weight")
        c = self.local
        return weights + 2 * self.config.hidden + 2 * 2 * c.layers * c.kv_heads * position * c.head_dim


def _count(shape: tuple[int, ...]) -> int:
    n = 1
    for extent in shape:
        n *= extent
    return n


def tokens_per_s(decoder: Any, torch: Any, graph: bool) -> float:
    """``STEPS`` greedy steps after ``PROMPT``: the rate of the steps past the prompt."""
    if graph:
        recorded = decoder.record(PROMPT)
        for _ in range(len(PROMPT) - 1):
            recorded.replay()
        torch.cuda.synchronize()
        recorded.stream.synchronize()
        start = time.perf_counter()
        for _ in range(STEPS):
            recorded.replay()
        recorded.stream.synchronize()
        elapsed = time.perf_counter() - start
        recorded.release()
        return STEPS / elapsed
    start = time.perf_counter()
    decoder.generate(PROMPT, STEPS)
    return (len(PROMPT) - 1 + STEPS) / (time.perf_counter() - start)


def rank_main(out: Path) -> None:
    import torch
    import torch.distributed as dist

    from qwen3.tp import ShardedDecoder

    dist.init_process_group("nccl")
    rank = dist.get_rank()
    results: dict[str, Any] = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "runs": {}, "errors": []}
    bandwidth = torch.tensor([copy_bandwidth(torch)], device="cuda")
    dist.all_reduce(bandwidth, op=dist.ReduceOp.MIN)
    results["copy_bandwidth_min"] = float(bandwidth)

    def save() -> None:
        if rank == 0:
            (out / "tp.json").write_text(json.dumps(results, indent=1))

    def sharded(name: str, config: Config) -> None:
        torch.manual_seed(rank)
        weights = RandomShard(config, WORLD, torch)
        entry: dict[str, Any] = {"tp": WORLD}
        try:
            decoder = ShardedDecoder(config, weights, sharded=True, dtype=st.bf16, max_positions=MAX_POSITIONS,
                                     device="cuda:0", upload=lambda t: st.from_dlpack(t.contiguous()))
            for graph in (True, False):
                try:
                    entry["graph" if graph else "eager"] = tokens_per_s(decoder, torch, graph)
                    break  # the eager rate only where the capture fails
                except Exception:  # noqa: BLE001 - the capture may fail: keep the eager rate
                    results["errors"].append(f"{name} graph={graph}: {traceback.format_exc()}")
            entry["roofline"] = float(bandwidth) / weights.bytes_per_token(len(PROMPT) + STEPS // 2)
            best = max(v for k, v in entry.items() if k in ("graph", "eager"))
            entry["of_roofline"] = best / entry["roofline"]
            del decoder
        except Exception:  # noqa: BLE001
            results["errors"].append(f"{name}: {traceback.format_exc()}")
        results["runs"][f"{name} TP={WORLD}"] = entry
        print(f"rank {rank}: {name} TP={WORLD}: {entry}", flush=True)
        torch.cuda.empty_cache()
        save()

    sharded("14B", QWEN3_14B)
    dist.barrier()
    if rank == 0:  # TP=1 of 14B on this GPU alone
        entry = {"tp": 1}
        try:
            weights = RandomShard(QWEN3_14B, 1, torch)
            decoder = Qwen3Decoder(QWEN3_14B, weights, dtype=st.bf16, max_positions=MAX_POSITIONS,
                                   upload=lambda t: st.from_dlpack(t.contiguous()))
            entry["graph"] = tokens_per_s(decoder, torch, True)
            entry["roofline"] = float(bandwidth) / weights.bytes_per_token(len(PROMPT) + STEPS // 2)
            entry["of_roofline"] = entry["graph"] / entry["roofline"]
            two = results["runs"]["14B TP=2"]
            entry["tp2_speedup"] = max(two.get("graph", 0.0), two.get("eager", 0.0)) / entry["graph"]
            del decoder
        except Exception:  # noqa: BLE001
            results["errors"].append(f"14B TP=1: {traceback.format_exc()}")
        results["runs"]["14B TP=1"] = entry
        print(f"14B TP=1: {entry}", flush=True)
        torch.cuda.empty_cache()
        save()
    dist.barrier()
    sharded("32B", QWEN3_32B)
    dist.barrier()
    dist.destroy_process_group()


def run(out: Path) -> None:
    """Start one process per GPU (this script with ``--rank``) and wait for them."""
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, **NCCL_ENV, "WORLD_SIZE": str(WORLD), "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29512"}
    ranks = [subprocess.Popen([sys.executable, "-P", __file__, "--rank", str(out)],
                              env={**env, "RANK": str(r), "LOCAL_RANK": str(r), "CUDA_VISIBLE_DEVICES": str(r)})
             for r in range(WORLD)]
    codes = [rank.wait() for rank in ranks]
    print(f"ranks exited with {codes}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--rank":
        rank_main(Path(sys.argv[2]))
    else:
        build_or_run(__doc__, build, run)
