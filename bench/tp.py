"""Tensor-parallel Qwen3 decode on two GPUs (examples/qwen3/tp.py): tokens/s against the HBM roofline.

    .venv/bin/python bench/tp.py --build sm_90     # here, no GPU: every variant's cubin into the cache
    SAFETILE_CACHE_DIR=build/gpu-cache python -P bench/tp.py OUT_DIR [--nccl-sweep]   # on a 2-GPU machine
    .venv/bin/python bench/tp.py --plot OUT_DIR/tp.json   # here: tokens/s against context length
    python -P bench/tp.py --one-rank OUT_DIR   # one GPU: the one-shot path as one rank of one

The run starts pairs of processes, one per GPU (``RANK``, ``LOCAL_RANK``: each sees both GPUs
and uses its own, ``qwen3.tp.use_gpu``), NCCL between them (NVLink multicast off in every pair).

1. (``--nccl-sweep`` only; two runs of session 13 measured it) **the all-reduce alone**, one
   pair for each of ``NCCL_VARIANTS`` (NCCL reads its environment once, at the communicator's
   start): a decode step's vector (hidden 5,120 in f32, 20 KB; and in bf16, 10 KB) all-reduced
   ``LATENCY_CALLS`` times inside one CUDA graph (``torch.cuda.graph``), the replay's time per
   call; then Qwen3-14B TP=2's step (below, 2.) with the process group's all-reduce.  The first
   pair also times torch's symmetric-memory one-shot (``all_reduce="one-shot"``) and two-shot
   all-reduces, and 14B's step with the one-shot, whose tokens must equal the NCCL step's.
   ``OUT_DIR/latency-NAME.json`` each.  Without it the table's pair uses NCCL's defaults and
   the one-shot all-reduce (the fastest 14B step of both runs).
2. **peer-check**, one pair under a deadline of its own (``PEER_CHECK_S``): Qwen3-14B's shapes
   in ``PEER_CHECK_LAYERS`` layers, TP=2 with the one-shot all-reduce, then with each of peer.py's
   (safetile's own, examples/qwen3/peer.py: ``tp.PEER_WAYS``, its own launch and in the
   projections'): ``peer_right[way]`` in ``OUT_DIR/peer-check.json`` if it gave the one-shot's
   tokens and last residual, bit for bit.  A wait of the peer
   kernel that never ends gives up after ``peer.PATIENCE`` turns and the rank's results are
   refused naming the step and site; anything else that never ends is killed at the deadline
   with a message, and the table runs without the peer all-reduce.
3. **The TP table**, one pair, a rank's tiles ``SHARD_TILES``:

   1. Qwen3-14B bf16, random weights in the published shapes drawn on the GPU shard by shard
      (a rank never holds the other's): ``STEPS`` greedy tokens after a 16-token prompt, each
      rank's step one graph with its collectives inside (``ShardedDecoder.record``; if the
      capture fails, the step enqueued launch by launch, and the error kept); tokens/s against
      the two-GPU roofline (each rank's bytes a token, its shard of the weights and of the KV
      cache, at the slower rank's 1 GiB copy bandwidth); each rank's kernels profiled
      (``measure.kernel_times``: ``kernels_us_by_rank``), with the pair's all-reduce;
   2. the same 14B at TP=1 on rank 0's GPU (the unsharded ``Qwen3Decoder``, its step one
      graph, the single-GPU tiles, profiled) while rank 1 waits: TP=2's speedup over it (target
      1.7x);
   3. 14B TP=2 as 1. with each other of ``TABLE_ALL_REDUCES`` (peer.py's only where
      peer-check found them right), each on its own decoder of the same weights, whose tokens
      and last residual must be 1.'s (``sums_equal``; one that differs is no candidate);
   4. Qwen3-32B at TP=2 with the fastest of them (``chosen_all_reduce``), as 1.

   Each model's rate is also timed at the context lengths of ``CONTEXTS`` (the position set
   before ``CONTEXT_STEPS`` replays; the cache's rows before it are zeros, which costs the
   attention what any rows cost).  Rank 0 writes ``OUT_DIR/tp.json``.
4. (``--rounds`` only, instead of 2. and 3.) **14B TP=2 against TP=1 by bench/method.py's rules**
   (``ratio_rounds``: both held at once, timed in shuffled turns, ``ROUNDS``), ``OUT_DIR/rounds.json``.
"""

from __future__ import annotations

import argparse
import faulthandler
import hashlib
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
from safetile.backend.cache import MissingCubin

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # measure.py (also under python -P)

from measure import build_or_run, copy_bandwidth, kernel_times  # noqa: E402
from qwen3.model import Qwen3Decoder, Tiles  # noqa: E402
from qwen3.peer import PeerTimeout  # noqa: E402
from qwen3.reference import QWEN3_14B, QWEN3_32B, Config, random_weights  # noqa: E402
from qwen3.tp import PEER_WAYS, SHARD_TILES, local_config, peer_projection  # noqa: E402

MAX_POSITIONS = 2048
PROMPT = [9707, 11, 847, 829, 374, 1207, 16948, 13, 358, 1079, 264, 3460, 4128, 1614, 13, 220]
STEPS = 256
CHECKED = 32
"""The greedy tokens kept of each run: the one-shot all-reduce's must equal NCCL's."""
CONTEXTS = (64, 128, 512, 1024, 1536, 2000)
CONTEXT_STEPS = 32
PROFILED_AT = len(PROMPT) + STEPS // 2
"""The position of the profiled steps (the roofline's)."""
WORLD = 2
HIDDEN = 5120
"""Qwen3-14B's and -32B's hidden size: the length of the vector each all-reduce sums."""
LATENCY_CALLS = 100
ROUNDS, ROUND_STEPS, WARM_STEPS, COOL_S, STEADY_S, ROUNDS_SEED = 8, 64, 16, 1.0, 4.0, 19
"""``--rounds``: 14B TP=2 against TP=1 by bench/method.py's rules, across the pair (``ratio_rounds``):
``ROUNDS`` burst rounds, each timing both in a fresh order from ``random.Random(ROUNDS_SEED)`` (the
same on both ranks), each after ``COOL_S`` seconds of idle GPUs and ``WARM_STEPS`` untimed steps of
its own, over ``ROUND_STEPS`` steps; then each, in a shuffled order, back to back for ``STEADY_S``
seconds in batches of ``ROUND_STEPS``, the median of the second half's batches."""
STACKS_ENV, STACKS_BEFORE_S = "SAFETILE_TP_STACKS_AT", 3.0
"""A pair under a deadline tells its ranks (``STACKS_ENV``: the wall-clock time) to print every
thread's Python stack ``STACKS_BEFORE_S`` seconds before it (``faulthandler``): a rank killed
there shows where its host waited (a stream's synchronize: the GPU's work never ended; a
collective; a capture)."""
NCCL_ENV = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
NCCL_VARIANTS: dict[str, dict[str, str]] = {
    "default": {}, "LL": {"NCCL_PROTO": "LL"}, "LL128": {"NCCL_PROTO": "LL128"},
    "LL-2ch": {"NCCL_PROTO": "LL", "NCCL_MAX_NCHANNELS": "2"}}
"""NCCL's documented knobs for small messages: the low-latency protocols, and fewer channels."""
PEER_CHECK_LAYERS = 8
PEER_CHECK_NAME = f"14B/{PEER_CHECK_LAYERS} layers"
PEER_CHECK_S = 100.0
"""peer-check (the first pair): Qwen3-14B's shapes in ``PEER_CHECK_LAYERS`` layers (a step's 16
sites), the peer all-reduce's tokens and last residual against the one-shot's, under a deadline
of its own: a hang ends it, not the table.  The whole check takes 19-20 s where every way ends
(session 17); the rest is room for the watchdog (``peer.PATIENCE`` turns of a wait, some
seconds to tens of them), so that a wait that runs out is reported as such (session 18's
second run, under 50 s, was killed with no word of which it was).  Its ranks' waits give up after ``peer.PATIENCE``
turns (the watchdog), raising the error that ``tp.ShardedDecoder.read`` turns into a message."""
TABLE_ALL_REDUCES = ("one-shot", "peer-fused", "peer")
"""The all-reduces timed on 14B TP=2 (3.1. and 3.3.), in this order: torch's symmetric-memory
one-shot (the pair's own, the table's baseline since session 13), the peer protocol in o_proj's
and down's own launches (``gemv_peer_sum``: two launches a layer fewer; first after TP=1, so its
rate is saved before the rest of the table) and safetile's own ``peer_sum``
(examples/qwen3/peer.py: one trip over NVLink, a launch that starts early).  Session 17's runs
(docs/model.md) timed also torch's two-shot in place (193.6 tokens/s against the one-shot's
194.9), peer.py's first form with a flag (208.1-208.2) and a rank's tiles with 4 weight tiles
read early behind the peer all-reduce (QKV and gate/up: 199.9 and, both by TMA, 196.1, against
216.2); a rank's tiles are ``SHARD_TILES``: session 15's two runs timed the single-GPU tiles
(2.7% slower), QKV and down in 8-row blocks, 64-key attention tiles, gate/up in 32 rows and QKV
with it in 32 (each slower still)."""
TABLE_ENV, BIG_ENV = "SAFETILE_TP_TABLE", "SAFETILE_TP_32B_IF_FASTER"
"""How ``run`` tells the table's ranks its plan (``--others``, ``--32b-if-faster``): the
all-reduces timed after TP=1, comma-separated (unset: ``TABLE_ALL_REDUCES``), and, where
``BIG_ENV`` is ``1``, 32B only where one of them beat the pair's own (a run that measures one
new way leaves out what earlier runs measured)."""


def build(arch: str) -> None:
    """Record one step of every decoder the GPU run makes, on the CPU with ``$SAFETILE_AOT_ARCHS``:
    a rank of ``WORLD`` is a ``Qwen3Decoder`` of the shard's shapes (``local_config``), whose
    variants are those of the sharded one.  One layer and a 384-token vocabulary a rank give
    the same variants (those sizes are dynamic)."""
    os.environ["SAFETILE_AOT_ARCHS"] = arch
    runs = [(QWEN3_14B, WORLD, "SHARD_TILES", SHARD_TILES), (QWEN3_14B, 1, "single-GPU tiles", Tiles()),
            (QWEN3_32B, WORLD, "SHARD_TILES", SHARD_TILES)]
    for config, world, name, tiles in runs:
        small = replace(local_config(config, world) if world > 1 else config, layers=1, vocab=384)
        for kind in (Qwen3Decoder, FusedRank) if world > 1 else (Qwen3Decoder,):
            decoder = kind(small, random_weights(small), dtype=st.bf16, max_positions=MAX_POSITIONS, tiles=tiles)
            decoder.record(PROMPT).release()
            print(f"{config.hidden}-wide, {config.layers} layers, TP={world}, {name}, {kind.__name__}: built for "
                  f"{arch}", flush=True)
    build_peer(QWEN3_14B.hidden)
    print(f"peer_sum and count ({QWEN3_14B.hidden}-wide, as 32B's): built for {arch}", flush=True)


class FusedRank(Qwen3Decoder):
    """A rank's step with ``all_reduce="peer-fused"`` for the build (recorded, never run): o_proj
    and down launched as ``ShardedDecoder`` launches them (``tp.peer_projection``), on stand-ins
    for the peer memory (the variants depend on its types, not its contents)."""

    def _allocate(self, prompt: list[int]) -> None:
        import torch

        super()._allocate(prompt)
        for name, dtype in (("inbox", torch.int64), ("peer_inbox", torch.int64), ("alarm", torch.int32)):
            self.buffers[name] = st.unsafe_pointer(st.from_dlpack(torch.zeros(8, dtype=dtype)))
        self.buffers["steps"] = st.zeros((1,), st.i32).sync()

    def _row_parallel(self, run: Any, hint: Any, out: tuple[str, tuple[int]], residual: str, x: str, w: Any,
                      **generics: Any) -> None:
        peer_projection(self._launch, run, self.tiles, out, residual, x, w, 0, self.config.hidden, **generics)


def build_peer(hidden: int) -> None:
    """``all_reduce="peer"``'s two launches as a rank makes them (peer.py), on the CPU: one rank's
    memory for both, its inbox's words already at the first step's epoch, so the wait ends at
    once (scalars are not specialized: one site stands for all)."""
    import torch

    from qwen3 import peer

    def pointer(t: Any) -> Any:
        return st.unsafe_pointer(st.from_dlpack(t))

    arrived = torch.full((2, hidden), 1 << 32, dtype=torch.int64)  # every word of step 1: no wait
    memory = [pointer(arrived), pointer(torch.zeros(2, hidden, dtype=torch.int64)),
              pointer(torch.zeros(peer.ALARM, dtype=torch.int32))]
    steps = st.zeros((1,), st.i32).sync()
    out = peer.peer_sum(st.from_dlpack(torch.zeros(hidden)).partition((peer.tile(hidden),)), steps, *memory, 0,
                        N=hidden).sync()
    peer.count(out[1].partition((1,))).sync()


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


def positioned(base: type, torch: Any) -> type:
    """``base`` (a decoder class) whose position buffer is a torch tensor shared with safetile
    (``pos_view``): the benchmark sets it between replays to time the step at a context length."""

    class Positioned(base):  # type: ignore[misc, valid-type]
        def _allocate(self, prompt: list[int]) -> None:
            super()._allocate(prompt)
            self.pos_view = torch.full((1,), 0, dtype=torch.int32, device="cuda")
            self.buffers["pos"] = st.from_dlpack(self.pos_view)

    return Positioned


def decode(decoder: Any, torch: Any, graph: bool, contexts: tuple[int, ...] = (), profile: bool = False
           ) -> dict[str, Any]:
    """``STEPS`` greedy steps after ``PROMPT``: the rate of the steps past the prompt, the first
    ``CHECKED`` tokens, the last step's residual ``x`` (the last all-reduce's sums) as a digest of
    its bytes (``x_digest``: two all-reduces that sum alike give the same bits), with
    ``contexts`` the rate of ``CONTEXT_STEPS`` steps from each, and with ``profile`` (every rank
    at once: the step holds the collectives) each kernel's microseconds a step
    (``measure.kernel_times``, at position ``PROFILED_AT``)."""
    if not graph:
        start = time.perf_counter()
        tokens = decoder.generate(PROMPT, STEPS)
        return {"eager": (len(PROMPT) - 1 + STEPS) / (time.perf_counter() - start), "tokens": tokens[:CHECKED]}
    recorded = decoder.record(PROMPT)
    for _ in range(len(PROMPT) - 1):
        recorded.replay()
    torch.cuda.synchronize()
    recorded.stream.synchronize()
    start = time.perf_counter()
    for _ in range(STEPS):
        recorded.replay()
    recorded.stream.synchronize()
    entry: dict[str, Any] = {"graph": STEPS / (time.perf_counter() - start), "by_context": {}}
    for context in contexts:
        decoder.pos_view.fill_(context)
        torch.cuda.synchronize()
        recorded.replay()  # warm
        recorded.stream.synchronize()
        start = time.perf_counter()
        for _ in range(CONTEXT_STEPS):
            recorded.replay()
        recorded.stream.synchronize()
        entry["by_context"][str(context)] = CONTEXT_STEPS / (time.perf_counter() - start)
    if profile:
        decoder.pos_view.fill_(PROFILED_AT)
        torch.cuda.synchronize()
        entry["kernels_us"] = kernel_times(recorded.replay, torch)
    recorded.release()
    entry["tokens"] = [int(t) for t in decoder.read("tokens")[len(PROMPT): len(PROMPT) + CHECKED]]
    entry["x_digest"] = hashlib.sha256(decoder.read("x").tobytes()).hexdigest()[:16]
    return entry


def latency(torch: Any, dist: Any, symmetric: bool) -> dict[str, Any]:
    """Microseconds per all-reduce of a decode step's vector, ``LATENCY_CALLS`` of them captured in
    one CUDA graph (best of 5 replays): NCCL's, and with ``symmetric`` torch's symmetric-memory
    one-shot (the copying form ``ShardedDecoder`` calls, in place) and two-shot (in place in the
    mapped buffer).  Each is checked first: ranks holding ``rank + 1`` sum to ``world * (world
    + 1) / 2``."""
    group = dist.group.WORLD.group_name
    rank, world = dist.get_rank(), dist.get_world_size()
    results: dict[str, Any] = {}
    for dtype in (torch.float32, torch.bfloat16):
        x = torch.zeros(HIDDEN, dtype=dtype, device="cuda")
        ways = {"nccl": lambda v: dist.all_reduce(v)}
        if symmetric:
            from torch.distributed import _symmetric_memory as symm_mem

            try:
                peer = symm_mem.empty(HIDDEN, dtype=dtype, device="cuda")
                symm_mem.rendezvous(peer, group)
                ways["symm one-shot"] = lambda v: torch.ops.symm_mem.one_shot_all_reduce_copy_out(peer, v, "sum",
                                                                                                   group, v)
                ways["symm two-shot"] = lambda v: torch.ops.symm_mem.two_shot_all_reduce_(peer, "sum", group)
            except Exception:  # noqa: BLE001 - keep NCCL's times
                results[f"symm {dtype}"] = f"failed: {traceback.format_exc()}"
        for name, way in ways.items():
            key = f"{name} {str(dtype).removeprefix('torch.')} x{HIDDEN}"
            try:
                probe = peer if name == "symm two-shot" else x
                probe.fill_(rank + 1)
                way(probe)
                torch.cuda.synchronize()
                expected = world * (world + 1) / 2
                if not bool((probe == expected).all()):
                    raise AssertionError(f"{key}: sum {probe[:4].tolist()}, expected {expected}")
                probe.zero_()
                stream = torch.cuda.Stream()
                graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(graph, stream=stream):
                    for _ in range(LATENCY_CALLS):
                        way(probe)
                graph.replay()
                torch.cuda.synchronize()
                best = float("inf")
                for _ in range(5):
                    dist.barrier()
                    torch.cuda.synchronize()
                    start = time.perf_counter()
                    graph.replay()
                    torch.cuda.synchronize()
                    best = min(best, time.perf_counter() - start)
                results[key] = 1e6 * best / LATENCY_CALLS
                del graph
            except Exception:  # noqa: BLE001 - keep the other ways' times
                results[key] = f"failed: {traceback.format_exc()}"
            print(f"rank {rank}: {key}: {results[key]}", flush=True)
    return results


def ratio_rounds(torch: Any, dist: Any, rank: int, local: int) -> dict[str, Any]:
    """Qwen3-14B TP=2 (``"peer"``, both ranks) and TP=1 (rank 0's GPU alone) held at once and timed
    in turns by ``ROUNDS``' rules, the position set back to ``PROFILED_AT`` before every batch (a
    batch of steps at one context, as the table's); the turns are met by a gloo barrier, so no
    collective runs on a GPU while the other way is timed.  Each turn's start and end (``time.time``)
    are kept, to read beside the clocks sampled outside (``nvidia-smi``)."""
    import random
    import statistics

    from qwen3.tp import ShardedDecoder

    upload = {"dtype": st.bf16, "max_positions": MAX_POSITIONS, "upload": lambda t: st.from_dlpack(t.contiguous())}
    torch.manual_seed(rank)
    decoders = {"TP=2": positioned(ShardedDecoder, torch)(QWEN3_14B, RandomShard(QWEN3_14B, WORLD, torch),
                                                          sharded=True, device=f"cuda:{local}", all_reduce="peer",
                                                          tiles=SHARD_TILES, **upload)}
    if rank == 0:
        decoders["TP=1"] = positioned(Qwen3Decoder, torch)(QWEN3_14B, RandomShard(QWEN3_14B, 1, torch), **upload)
    graphs = {name: decoder.record(PROMPT) for name, decoder in decoders.items()}
    meet = dist.new_group(backend="gloo")
    turns: list[dict[str, Any]] = []

    def steps(name: str, n: int) -> float | None:
        """``n`` steps of ``name`` from ``PROFILED_AT``: steps a second (``None`` on the rank that has none)."""
        if name not in graphs:
            return None
        decoders[name].pos_view.fill_(PROFILED_AT)
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(n):
            graphs[name].replay()
        graphs[name].stream.synchronize()
        return n / (time.perf_counter() - start)

    def turn(regime: str, name: str) -> list[float | None]:
        dist.barrier(group=meet)
        time.sleep(COOL_S if regime == "burst" else 0.0)
        start = time.time()
        if regime == "burst":
            steps(name, WARM_STEPS)
            rates = [steps(name, ROUND_STEPS)]
        else:
            rates, end = [], time.perf_counter() + STEADY_S
            while time.perf_counter() < end:
                rates.append(steps(name, ROUND_STEPS))
                batches = [0]  # both ranks stop after the same batch: rank 0 decides
                if rank == 0:
                    batches = [int(time.perf_counter() >= end)]
                dist.broadcast_object_list(batches, src=0, group=meet)
                if batches[0]:
                    break
        turns.append({"regime": regime, "name": name, "start": start, "end": time.time(), "rates": rates})
        return rates

    rng = random.Random(ROUNDS_SEED)
    names = ["TP=2", "TP=1"]
    burst: dict[str, list[float | None]] = {name: [] for name in names}
    for _ in range(ROUNDS):
        for name in rng.sample(names, len(names)):
            burst[name] += turn("burst", name)
    steady = {name: turn("steady", name) for name in rng.sample(names, len(names))}
    for graph in graphs.values():
        graph.release()
    if rank != 0:
        return {}
    figures = {"burst": {name: statistics.median(rates) for name, rates in burst.items()},
               "steady": {name: statistics.median(rates[len(rates) // 2:]) for name, rates in steady.items()}}
    return {"steps_a_second": figures, "turns": turns,
            "tp2_over_tp1": {regime: f["TP=2"] / f["TP=1"] for regime, f in figures.items()},
            "rules": {"rounds": ROUNDS, "round_steps": ROUND_STEPS, "warm_steps": WARM_STEPS, "cool_s": COOL_S,
                      "steady_s": STEADY_S, "seed": ROUNDS_SEED, "position": PROFILED_AT}}


def rank_main(out: Path, task: str) -> None:
    """One rank of a pair: ``task`` is ``latency-NAME`` (1. of the module's docstring),
    ``peer-check`` (2.) or ``table-ALLREDUCE`` (3.)."""
    if STACKS_ENV in os.environ:  # still running then, the rank is about to be killed: where it waits
        faulthandler.dump_traceback_later(max(1.0, float(os.environ[STACKS_ENV]) - time.time()))
    import torch
    import torch.distributed as dist

    from qwen3.tp import ShardedDecoder, use_gpu

    local = int(os.environ["LOCAL_RANK"])
    use_gpu(local)  # every rank sees both GPUs: the one-shot's rendezvous wants distinct ordinals
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    results: dict[str, Any] = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                               "nccl": str(torch.cuda.nccl.version()),
                               "env": {k: v for k, v in os.environ.items() if k.startswith(("NCCL_", "TORCH_SYMM", "NVSHMEM"))},
                               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "runs": {}, "errors": []}
    bandwidth = torch.tensor([copy_bandwidth(torch)], device="cuda")
    dist.all_reduce(bandwidth, op=dist.ReduceOp.MIN)
    results["copy_bandwidth_min"] = float(bandwidth)
    kind, _, option = task.partition("-")
    path = out / (f"{task}.json" if kind in ("latency", "peer", "rounds") else "tp.json")

    def save() -> None:
        if rank == 0:
            path.write_text(json.dumps(results, indent=1))

    def sharded(name: str, config: Config, all_reduce: str, contexts: tuple[int, ...], profile: bool = False
                ) -> float:
        """One TP=2 run into ``results["runs"]``; its best rate."""
        torch.manual_seed(rank)
        start = time.perf_counter()
        weights = RandomShard(config, WORLD, torch)
        entry: dict[str, Any] = {"tp": WORLD, "all_reduce": all_reduce}
        try:
            decoder = positioned(ShardedDecoder, torch)(
                config, weights, sharded=True, dtype=st.bf16, max_positions=MAX_POSITIONS, device=f"cuda:{local}",
                all_reduce=all_reduce, tiles=SHARD_TILES,
                upload=lambda t: st.from_dlpack(t.contiguous()))
            for graph in (True, False):
                try:
                    entry.update(decode(decoder, torch, graph, contexts, profile and graph))
                    break  # the eager rate only where the capture fails
                except (MissingCubin, PeerTimeout):  # no eager retry: it would miss or wait alike
                    raise
                except Exception:  # noqa: BLE001 - the capture may fail: keep the eager rate
                    results["errors"].append(f"{name} {all_reduce} graph={graph}: {traceback.format_exc()}")
            entry["roofline"] = float(bandwidth) / weights.bytes_per_token(len(PROMPT) + STEPS // 2)
            best = max(v for k, v in entry.items() if k in ("graph", "eager"))
            entry["of_roofline"] = best / entry["roofline"]
            entry["roofline_by_context"] = {str(n): float(bandwidth) / weights.bytes_per_token(n) for n in contexts}
            del decoder
        except MissingCubin:  # every later run would miss it too: end the run (the build is stale)
            results["errors"].append(f"{name} {all_reduce}: {traceback.format_exc()}")
            save()
            raise
        except Exception:  # noqa: BLE001
            results["errors"].append(f"{name} {all_reduce}: {traceback.format_exc()}")
        entry["seconds"] = time.perf_counter() - start
        if profile:  # every rank's kernels: an all-reduce's time on one holds its wait for the other
            by_rank: list[Any] = [None] * WORLD
            dist.all_gather_object(by_rank, entry.pop("kernels_us", None))
            entry["kernels_us_by_rank"] = by_rank
        key = f"{name} TP={WORLD} {all_reduce}"
        results["runs"][key] = entry
        print(f"rank {rank}: {key}: {entry}", flush=True)
        torch.cuda.empty_cache()
        save()
        return max((v for k, v in entry.items() if k in ("graph", "eager")), default=0.0)

    if kind == "rounds":
        results.update(ratio_rounds(torch, dist, rank, local))
        save()
    elif kind == "latency":
        symmetric = option == "default"
        results["latency_us"] = latency(torch, dist, symmetric)
        save()
        for all_reduce in ("group", "one-shot") if symmetric else ("group",):
            sharded("14B", QWEN3_14B, all_reduce, ())
            dist.barrier()
        runs = results["runs"]
        if symmetric and all(runs.get(f"14B TP=2 {a}", {}).get("tokens") for a in ("group", "one-shot")):
            results["one_shot_tokens_equal"] = runs["14B TP=2 group"]["tokens"] == runs["14B TP=2 one-shot"]["tokens"]
            save()
    elif kind == "peer":  # peer-check: peer.py's all-reduces against the one-shot, on a short 14B
        check = replace(QWEN3_14B, layers=PEER_CHECK_LAYERS)
        results["peer_right"] = {}
        for all_reduce in ("one-shot", *PEER_WAYS):
            sharded(PEER_CHECK_NAME, check, all_reduce, ())
            dist.barrier()
            if all_reduce in PEER_WAYS:  # each verdict saved as it comes: a later way's hang keeps it
                results["peer_right"][all_reduce] = _same_sums(results["runs"], PEER_CHECK_NAME, all_reduce,
                                                               "one-shot")
                save()
    else:
        # The pair's all-reduce first (the baseline), then TP=1, then the other all-reduces on
        # 14B (peer.py's only where peer-check found them right: a pair they hang ends at the
        # deadline), 32B with the fastest whose sums are the baseline's.
        rates = {option: sharded("14B", QWEN3_14B, option, CONTEXTS, profile=True)}
        dist.barrier()
        if rank == 0:  # TP=1 of 14B on this GPU alone
            entry: dict[str, Any] = {"tp": 1}
            try:
                weights = RandomShard(QWEN3_14B, 1, torch)
                decoder = positioned(Qwen3Decoder, torch)(QWEN3_14B, weights, dtype=st.bf16,
                                                          max_positions=MAX_POSITIONS,
                                                          upload=lambda t: st.from_dlpack(t.contiguous()))
                entry.update(decode(decoder, torch, True, CONTEXTS, profile=True))
                entry["roofline"] = float(bandwidth) / weights.bytes_per_token(len(PROMPT) + STEPS // 2)
                entry["of_roofline"] = entry["graph"] / entry["roofline"]
                entry["roofline_by_context"] = {str(n): float(bandwidth) / weights.bytes_per_token(n)
                                                for n in CONTEXTS}
                del decoder
            except Exception:  # noqa: BLE001
                results["errors"].append(f"14B TP=1: {traceback.format_exc()}")
            results["runs"]["14B TP=1"] = entry
            print(f"14B TP=1: {entry}", flush=True)
            torch.cuda.empty_cache()
            save()
        dist.barrier()
        runs = results["runs"]

        def speedups() -> None:
            tp1 = runs.get("14B TP=1", {}).get("graph")
            if tp1:
                results["tp2_speedup"] = {name: rate / tp1 for name, rate in rates.items()}
            save()

        speedups()
        checked = {way: _peer_checked(out, way) for way in PEER_WAYS}
        results["peer_checked"] = checked
        for all_reduce in os.environ.get(TABLE_ENV, ",".join(TABLE_ALL_REDUCES)).split(","):
            if all_reduce == option or checked.get(all_reduce, True) is not True:
                continue
            rates[all_reduce] = sharded("14B", QWEN3_14B, all_reduce, CONTEXTS, profile=True)
            dist.barrier()
            same = _same_sums(runs, "14B", all_reduce, option)
            results.setdefault("sums_equal", {})[all_reduce] = same
            if not same:  # a wrong sum is no candidate
                rates[all_reduce] = 0.0
            speedups()
        choice = [max(rates, key=lambda name: rates[name])]
        dist.broadcast_object_list(choice, src=0)  # both ranks run rank 0's choice
        results["chosen_all_reduce"] = choice[0]
        save()
        if os.environ.get(BIG_ENV) != "1" or choice[0] != option:
            sharded("32B", QWEN3_32B, choice[0], CONTEXTS)
    dist.barrier()
    dist.destroy_process_group()


def _same_sums(runs: Mapping[str, Any], name: str, way: str, baseline: str) -> bool:
    """Whether ``name``'s TP run with all-reduce ``way`` gave ``baseline``'s tokens and, bit for bit,
    its last residual (``x_digest``): two ranks' f32 sums are the same either way round."""
    a, b = (runs.get(f"{name} TP={WORLD} {w}", {}) for w in (way, baseline))
    return bool(a.get("tokens")) and all(a.get(k) == b.get(k) for k in ("tokens", "x_digest"))


def _peer_checked(out: Path, way: str) -> bool | str:
    """peer-check's verdict on ``way`` (one of ``PEER_WAYS``: ``OUT_DIR/peer-check.json``'s
    ``peer_right``), or why there is none."""
    try:
        return bool(json.loads((out / "peer-check.json").read_text())["peer_right"][way])
    except (OSError, KeyError, ValueError) as err:
        return f"no verdict: peer-check did not finish ({err.__class__.__name__})"


def pair(out: Path, task: str, env: Mapping[str, str], port: int, deadline: float = float("inf")) -> list[int]:
    """Start one process per GPU (this script with ``--rank``) and wait for them; once one fails
    (a missing cubin, say), the others are ended: they would wait for it in a collective; at
    ``deadline`` (``time.monotonic``) all are (what they saved stays)."""
    base = {**os.environ, **NCCL_ENV, **env, "WORLD_SIZE": str(WORLD), "MASTER_ADDR": "127.0.0.1",
            "MASTER_PORT": str(port)}
    if deadline != float("inf"):  # each rank's threads' stacks a little before the kill (rank_main)
        base[STACKS_ENV] = str(time.time() + deadline - time.monotonic() - STACKS_BEFORE_S)
    ranks = [subprocess.Popen([sys.executable, "-P", __file__, "--rank", str(out), task],
                              env={**base, "RANK": str(r), "LOCAL_RANK": str(r)})
             for r in range(WORLD)]
    started = time.monotonic()
    while any(rank.poll() is None for rank in ranks):
        late = time.monotonic() > deadline
        if any(rank.poll() for rank in ranks) or late:
            if late:
                print(f"{task}: the pair ran past its deadline ({time.monotonic() - started:.0f} s): both ranks "
                      "killed -- a launch or a collective that never ended; each rank's last line above says "
                      "what it was running", flush=True)
            for rank in ranks:
                if rank.poll() is None:
                    rank.kill()
        time.sleep(0.5)
    codes = [rank.wait() for rank in ranks]
    print(f"{task}: ranks exited with {codes} after {time.monotonic() - started:.0f} s", flush=True)
    return codes


def run(out: Path, nccl_sweep: bool = False, deadline: float | None = None,
        peer_check_deadline: float = PEER_CHECK_S, baseline: str = "one-shot",
        others: tuple[str, ...] = TABLE_ALL_REDUCES, big_if_faster: bool = False, rounds: bool = False) -> None:
    """2. of the module's docstring (with ``nccl_sweep``, 1. first, and the TP table's pair takes
    its fastest 14B step's NCCL setting and all-reduce); with ``deadline``, every pair is ended
    that many seconds after the start, peer-check ``peer_check_deadline`` seconds after its own;
    the table's pair all-reduce is ``baseline``, then ``others`` after TP=1, 32B only where one
    of them beat it with ``big_if_faster`` (``TABLE_ENV``); with ``rounds``, only 14B's TP=2 against
    TP=1 by ``ROUNDS``' rules (``ratio_rounds``: ``OUT_DIR/rounds.json``), nothing else."""
    end = time.monotonic() + (deadline if deadline is not None else float("inf"))
    out.mkdir(parents=True, exist_ok=True)
    if rounds:
        pair(out, "rounds", {}, 29540, end)
        return
    best: tuple[float, str, str] = (0.0, "default", baseline)
    for i, (name, env) in enumerate(NCCL_VARIANTS.items() if nccl_sweep else ()):
        pair(out, f"latency-{name}", env, 29512 + i, end)
        try:
            runs = json.loads((out / f"latency-{name}.json").read_text())["runs"]
        except (OSError, KeyError, ValueError):
            continue
        for key, entry in runs.items():
            if entry.get("graph", 0.0) > best[0]:
                best = (entry["graph"], name, entry["all_reduce"])
    pair(out, "peer-check", {}, 29525, min(end, time.monotonic() + peer_check_deadline))
    try:
        errors = json.loads((out / "peer-check.json").read_text())["errors"]
    except (OSError, KeyError, ValueError):
        errors = []
    if any("MissingCubin" in error for error in errors):  # every pair after it would miss one too
        raise SystemExit("peer-check: a cubin is missing from the cache (a source changed since the build): "
                         "rebuild with bench/tp.py --build ARCH; the TP table is not run")
    verdicts = {way: _peer_checked(out, way) for way in PEER_WAYS}
    print(f"peer-check: {verdicts}; the TP table with NCCL {best[1]}, all_reduce={best[2]}", flush=True)
    plan = {TABLE_ENV: ",".join(others), BIG_ENV: "1" if big_if_faster else "0"}
    pair(out, f"table-{best[2]}", {**NCCL_VARIANTS[best[1]], **plan}, 29530, end)
    table = out / "tp.json"
    if table.exists():
        results = json.loads(table.read_text())
        results["chosen"] = {"nccl": best[1], "all_reduce": best[2]}
        table.write_text(json.dumps(results, indent=1))


def add_arguments(parser: Any) -> None:
    parser.add_argument("--nccl-sweep", action="store_true",
                        help="time the all-reduce alone under each NCCL setting first (1. of the docstring)")
    parser.add_argument("--deadline", type=float, metavar="SECONDS",
                        help="end every pair this long after the start (a launch that never ends)")
    parser.add_argument("--peer-check-deadline", type=float, metavar="SECONDS", default=PEER_CHECK_S,
                        help=f"end peer-check this long after its start (default {PEER_CHECK_S:.0f})")
    parser.add_argument("--baseline", choices=TABLE_ALL_REDUCES, default="one-shot",
                        help="the TP table's first all-reduce, whose tokens the others must give (default one-shot)")
    parser.add_argument("--others", type=table_ways, default=TABLE_ALL_REDUCES, metavar="WAY,...",
                        help="the all-reduces timed after TP=1 (default: " + ",".join(TABLE_ALL_REDUCES) + ")")
    parser.add_argument("--32b-if-faster", dest="big_if_faster", action="store_true",
                        help="run 32B only where one of --others beat --baseline on 14B")
    parser.add_argument("--rounds", action="store_true",
                        help="only 14B TP=2 against TP=1 in shuffled burst rounds and steady state (ROUNDS)")


def table_ways(text: str) -> tuple[str, ...]:
    """``--others``'s comma-separated all-reduces, each one of ``TABLE_ALL_REDUCES``."""
    ways = tuple(way.strip() for way in text.split(","))
    unknown = [way for way in ways if way not in TABLE_ALL_REDUCES]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown all-reduce {', '.join(unknown)}: give a comma-separated list "
                                         f"of {', '.join(TABLE_ALL_REDUCES)}")
    return ways


def one_rank(out: Path) -> None:
    """One GPU, no second one: Qwen3-14B as one rank of a world of one, its step captured with
    each all-reduce (NCCL's, the symmetric-memory one-shot's: both sum one vector, so this
    checks the path -- the rendezvous before the capture, the op inside safetile's graph -- not
    its speed), the tokens against the unsharded decoder's on the same weights.  Writes
    ``OUT_DIR/tp-one-rank.json``."""
    import gc

    import torch
    import torch.distributed as dist

    from qwen3.tp import ShardedDecoder, use_gpu

    out.mkdir(parents=True, exist_ok=True)
    os.environ.update({**NCCL_ENV, "RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1",
                       "MASTER_PORT": "29540"})
    use_gpu(0)
    dist.init_process_group("nccl")
    results: dict[str, Any] = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "runs": {}, "errors": []}
    options = {"dtype": st.bf16, "max_positions": MAX_POSITIONS, "upload": lambda t: st.from_dlpack(t.contiguous())}
    makers = {"unsharded": lambda w: Qwen3Decoder(QWEN3_14B, w, **options),
              "group": lambda w: ShardedDecoder(QWEN3_14B, w, sharded=True, device="cuda:0", **options),
              "one-shot": lambda w: ShardedDecoder(QWEN3_14B, w, sharded=True, device="cuda:0",
                                                   all_reduce="one-shot", **options)}
    for name, make in makers.items():
        try:
            torch.manual_seed(0)
            decoder = make(RandomShard(QWEN3_14B, 1, torch))
            results["runs"][name] = decode(decoder, torch, True)
            del decoder
        except Exception:  # noqa: BLE001 - keep the other runs
            results["errors"].append(f"{name}: {traceback.format_exc()}")
        gc.collect()
        torch.cuda.empty_cache()
        print(f"one rank, {name}: {results['runs'].get(name)}", flush=True)
    tokens = [r.get("tokens") for r in results["runs"].values()]
    results["tokens_equal"] = len(tokens) == len(makers) and all(t == tokens[0] for t in tokens)
    (out / "tp-one-rank.json").write_text(json.dumps(results, indent=1))
    dist.destroy_process_group()


def plot(results: dict[str, Any], png: Path) -> None:
    """Tokens/s against context length of each run of the TP table, and each one's roofline."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for i, (name, entry) in enumerate(results["runs"].items()):
        if not entry.get("by_context"):
            continue
        color = f"C{i}"
        contexts = sorted(int(n) for n in entry["by_context"])
        ax.plot(contexts, [entry["by_context"][str(n)] for n in contexts], marker="o", color=color, label=name)
        ax.plot(contexts, [entry["roofline_by_context"][str(n)] for n in contexts], linestyle="--", color=color,
                alpha=0.6, label=f"{name} roofline")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("context length (tokens in the KV cache)")
    ax.set_ylabel("decode tokens / s")
    ax.set_title(f"Qwen3 bf16 decode, {results['device']} (TP=2: two of them)", fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--rank":
        rank_main(Path(sys.argv[2]), sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "--one-rank":
        one_rank(Path(sys.argv[2]))
    elif len(sys.argv) == 3 and sys.argv[1] == "--plot":
        plot(json.loads(Path(sys.argv[2]).read_text()), Path(sys.argv[2]).with_suffix(".png"))
    else:
        build_or_run(__doc__, build, run, add_arguments)
