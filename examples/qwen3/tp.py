"""Tensor-parallel Qwen3 decode: one process per rank, ``torch.distributed`` between them.

    torchrun --nproc-per-node 2 -m qwen3.tp --config 4B --steps 64     # PYTHONPATH=examples

Each rank holds a shard of every layer (``shard``): the QKV projection column-parallel (its
``heads / world`` query heads and ``kv_heads / world`` kv heads: attention stays local), o_proj
row-parallel (the columns of its heads), gate/up column-parallel (``intermediate / world``
rows), down row-parallel (those columns), and the LM head's rows of ``vocab / world`` tokens;
the embedding table is whole on every rank (a row per token).  A rank is a ``Qwen3Decoder`` of
the local shapes (model.py) with hooks of its step filled in (``_row_parallel``, ``_residual``,
``_reduce``, ``_gather_best``):

* a row-parallel projection adds its product to the residual on rank 0 and to zeros elsewhere
  (``_residual``), and one all-reduce sums the ranks' vectors (``_reduce``): after o_proj and
  after down, two a layer.  ``all_reduce`` picks how: ``"group"``, the process group's
  ``all_reduce`` (NCCL on GPUs, gloo on the CPU), or ``"one-shot"`` (GPUs only), torch's
  symmetric-memory one-shot all-reduce: one kernel copies the rank's vector into a buffer every
  rank maps (``symm_mem.empty`` + ``rendezvous``, NVLink peer memory, no multicast), meets the
  other ranks at a barrier of signal flags, reads all their copies, sums them into the vector
  and meets them again (so the next call may overwrite its buffer) -- no NCCL kernel, no
  proxy thread, a few microseconds for a decode step's ~20 KB vector; or ``"two-shot"`` (GPUs
  only), torch's symmetric-memory two-shot all-reduce in place: the residual vectors themselves
  (``x``, ``x2``) live in memory every rank maps, so the row-parallel projection writes its
  partial sum where the other ranks read it (no copy in); one kernel meets the other ranks at a
  barrier, sums its share of the elements from every rank's vector, writes that share's sums
  into every rank's vector and meets them again.  Who owns a vector: only the all-reduce kernels
  touch another rank's; a rank's kernel passes its first barrier once every rank has stored its
  partial sum (each rank's stream runs its projection first), and returns past its second once
  every rank is done reading and writing every vector, so outside the all-reduce a rank's
  vector is its own, as a plain buffer is: its launches write and read it in stream order; or
  ``"peer"`` (two ranks; the default of two ranks on GPUs: the fastest, docs/model.md), no
  collective library: one launch of safetile's own kernel (peer.py, the model's one unsafe
  kernel: its protocol and why it holds are there) stores the rank's partial sums, each packed
  with the step number in one 64-bit word, straight into the other rank's memory, waits until
  the other's words of this step are in its own and adds up -- one trip over NVLink, no
  barrier, no fence, and a launch like the others, so it starts while the projection before
  it drains and the one after it starts its weight reads while it waits; or ``"peer-fused"``
  (two ranks): the same protocol in the row-parallel projection's own launch
  (``peer.gemv_peer_sum``): each block of o_proj or down exchanges its rows of the partial sums
  with the other rank's same block and stores the sums -- no launch of its own, the same f32
  operations (not the same bits on a GPU: o_proj's reduction follows its occupancy hint,
  ``peer.gemv_peer_sum``; and slower: docs/model.md) (peer.py's argument for the inboxes
  holds: only its weight loads come before its grid-dependency wait, its stores into the
  other rank's inbox after);
* after the LM head, every rank's per-tile maxima and their rows are all-gathered and the rows
  offset to the whole vocabulary (``_gather_best``), so every rank samples the same token.

The vectors the collectives touch are torch tensors shared with safetile through DLPack (no
copy), and the collectives run on the stream the launches are enqueued on (on a GPU, NCCL on
safetile's stream through ``torch.cuda.ExternalStream``; gloo on the CPU, where launches run
as they are enqueued), so each rank's step is stream-ordered without a host wait.  On a GPU the
step is captured as one graph with the NCCL calls inside (``record``): they are issued on the
scope's capture stream between the launches, in the step's order.  On the CPU a capture keeps
the launches to run at replay while torch's collectives would run at once, so the step runs
eagerly there (``generate``).
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
import uuid
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

import safetile as st

from . import peer
from .model import Qwen3Decoder, Tiles, hinted
from .reference import QWEN3_4B, QWEN3_14B, TINY, TINY_GROUP3, Config, random_weights

ALL_REDUCES = ("group", "one-shot", "two-shot", "peer", "peer-fused")
"""How a row-parallel projection's partial sums are added up (``ShardedDecoder``'s ``all_reduce``)."""
PEER_WAYS = ("peer", "peer-fused")
"""The all-reduces of peer.py's protocol (two ranks, on GPUs and on the CPU): its own launch
(``peer_sum``) or inside the projection's (``gemv_peer_sum``)."""


def default_all_reduce(device: str, world: int) -> str:
    """``ShardedDecoder``'s all-reduce where none is named: on GPUs ``"peer"`` for two ranks (the
    fastest: Qwen3-14B TP=2 216 tokens/s against 208 with peer.py's flag form and 194 with the
    one-shot, 2 x H200, docs/model.md, session 17) and torch's one-shot for more; on the CPU
    the process group's (gloo)."""
    if device == "cpu":
        return "group"
    return "peer" if world == 2 else "one-shot"

CONFIGS = {"tiny": TINY, "tiny-group3": TINY_GROUP3, "4B": QWEN3_4B, "14B": QWEN3_14B}

SHARD_TILES = Tiles(up_rows=8)
"""A rank's tiles (``ShardedDecoder``'s default): the single-GPU ones with gate/up in 8-row
blocks.  Over 2 ranks gate/up has half the rows: 544 blocks of 16 rows at Qwen3-14B (1,088 at
TP=1), 800 at 32B; in 8 rows the step ran 2.7% faster at 14B (188.9 -> 194.0 tokens/s) and 4.7%
at 32B (88.5 -> 92.7) on 2 x H200, where 32-row blocks were 15% slower, as were QKV and down in
8-row blocks and 64-key attention tiles (docs/model.md, session 15)."""


def _contiguous(a: Any) -> Any:
    return np.ascontiguousarray(a) if isinstance(a, np.ndarray) else a.contiguous()


def local_config(config: Config, world: int) -> Config:
    """The shapes of one rank's shard of ``config`` over ``world`` ranks (its LM head untied: the
    rank's rows of the vocabulary)."""
    c = config
    return replace(c, heads=c.heads // world, kv_heads=c.kv_heads // world, intermediate=c.intermediate // world,
                   vocab=c.vocab // world, tied=False)


def shard(config: Config, weights: Mapping[str, Any], rank: int, world: int) -> tuple[Config, dict[str, Any]]:
    """Rank ``rank``'s config and weights (Hugging Face's names, numpy arrays or torch tensors)
    of ``world`` shards: heads, kv heads, the MLP's intermediate rows and the vocabulary split
    in ``world`` equal parts (refused, naming the size, where one does not divide)."""
    c = config
    for what, size in (("heads", c.heads), ("kv_heads", c.kv_heads), ("intermediate", c.intermediate),
                       ("vocab", c.vocab)):
        if size % world:
            raise ValueError(f"tensor parallel over {world} ranks splits {what} ({size}) evenly: "
                             f"pick a world size dividing it")
    if not 0 <= rank < world:
        raise ValueError(f"rank {rank} is not one of the {world} ranks")
    local = local_config(c, world)
    d = c.head_dim

    def part(size: int) -> slice:
        return slice(rank * size, (rank + 1) * size)

    q, kv, mlp, vocab = part(local.heads * d), part(local.kv_heads * d), part(local.intermediate), part(local.vocab)
    table = weights["model.embed_tokens.weight"]
    head = table if c.tied else weights["lm_head.weight"]
    out = {"model.embed_tokens.weight": table, "model.norm.weight": weights["model.norm.weight"],
           "lm_head.weight": _contiguous(head[vocab])}
    for i in range(c.layers):
        p = f"model.layers.{i}."
        for name in ("input_layernorm", "post_attention_layernorm"):
            out[p + name + ".weight"] = weights[p + name + ".weight"]
        for name in ("q_norm", "k_norm"):
            out[p + f"self_attn.{name}.weight"] = weights[p + f"self_attn.{name}.weight"]
        rows = {"self_attn.q_proj": q, "self_attn.k_proj": kv, "self_attn.v_proj": kv, "mlp.gate_proj": mlp,
                "mlp.up_proj": mlp}
        for name, cut in rows.items():
            out[p + name + ".weight"] = _contiguous(weights[p + name + ".weight"][cut])
        for name, cut in (("self_attn.o_proj", q), ("mlp.down_proj", mlp)):
            out[p + name + ".weight"] = _contiguous(weights[p + name + ".weight"][:, cut])
    return local, out


FUSED_OCCUPANCY: int | None = None
"""The ``occupancy`` hint of ``peer.gemv_peer_sum`` (``fused_kernel``): tileiras's own choice, one
block an SM, as ``peer_sum``'s, not the projections' 3.  tileiras gives the fused kernel three
warpgroups, 384 threads (the rows and the wait; the ordering of the stores into the other rank's
inbox and the output's TMA store; the weights' TMA loads: ``gemv_residual`` has two, 256), and
plans their registers (``setmaxnreg``) as for two: the first raised to 128 a thread at 3 blocks an
SM, to 224 at 2, the others lowered to 32.  At 3 ptxas gives a thread 56 (65,536 / (3 x 384)):
21,504 a block against the 24,576 the plan takes, at 2 80 (30,720 against 36,864), so the raise
is never granted and every block waits for it before its first instruction of the kernel's own --
no stores, no wait, no watchdog: both of session 18's runs on two H200s hung so (the cubins'
``EIATTR_MAXREG_COUNT`` 56, ``REQNTID`` 384, ``USETMAXREG.TRY_ALLOC`` 128, ``DEALLOC`` 32).  At
tileiras's choice a thread has 168: 64,512 against 40,960 (the first raised to 256)."""


def fused_kernel(tiles: Tiles) -> st.Kernel:
    """``peer.gemv_peer_sum`` as the fused projections launch it: ``tiles``' hints for the
    projections (``gemv_latency``, ``gemv_warps``) but the occupancy ``FUSED_OCCUPANCY``."""
    return hinted(peer.gemv_peer_sum, tiles.gemv_latency, tiles.gemv_warps, FUSED_OCCUPANCY)


def peer_projection(launch: Any, run: Any, tiles: Tiles, out: tuple[str, tuple[int]], residual: str, x: str, w: Any,
                    site: int, hidden: int, **generics: Any) -> None:
    """``all_reduce="peer-fused"``'s row-parallel projection (o_proj, down) through ``launch`` (a
    decoder's ``_launch``): ``out = residual + w @ x`` summed over the two ranks at ``site`` in one
    launch (``fused_kernel(tiles)``), on the decoder's ``steps``, ``inbox``, ``peer_inbox`` and
    ``alarm`` (``ShardedDecoder._peer_memory``)."""
    launch(run, fused_kernel(tiles), out, residual, x, w, "steps", "inbox", "peer_inbox", "alarm", site, N=hidden,
           LANES=peer.lanes(tiles.gemv_warps), **generics)


class ShardedDecoder(Qwen3Decoder):
    """One rank's decoder of ``config`` (the whole model's), its step's collectives over the
    default process group of ``torch.distributed`` (initialized by the caller).  ``weights`` are
    the whole model's, sharded here, or with ``sharded`` this rank's (``shard``'s output: a large
    model's rank need not hold the rest).  ``all_reduce``: one of ``ALL_REDUCES``, by default
    ``default_all_reduce``'s."""

    def __init__(self, config: Config, weights: Mapping[str, Any], *, device: str = "cpu", sharded: bool = False,
                 all_reduce: str | None = None, tiles: Tiles = SHARD_TILES, **options: Any):
        import torch
        import torch.distributed as dist

        all_reduce = default_all_reduce(device, dist.get_world_size()) if all_reduce is None else all_reduce
        if all_reduce not in ALL_REDUCES:
            raise ValueError(f"all_reduce={all_reduce!r} is not one of {', '.join(map(repr, ALL_REDUCES))}")
        if all_reduce in ("one-shot", "two-shot") and device == "cpu":
            raise ValueError(f"the {all_reduce} all-reduce maps the other GPUs' memory (torch symmetric memory): "
                             "on the CPU pass all_reduce='group' (gloo) or 'peer'")
        self.all_reduce = all_reduce
        self.peer_buffer: Any = None
        """With ``all_reduce="one-shot"``: the symmetric-memory buffer every rank reads (hidden f32)."""
        self.mapped: dict[str, Any] = {}
        """Tensors in symmetric memory, mapped once: with ``all_reduce="two-shot"`` the residual
        vectors, with ``"peer"`` this rank's ``inbox`` (peer.py) and, as ``peer_inbox``, the
        other rank's."""
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        if all_reduce in PEER_WAYS and self.world != 2:
            raise ValueError(f"the {all_reduce} all-reduce sums two ranks' vectors, not {self.world}: "
                             "pass all_reduce='one-shot' (or 'group')")
        self.site = 0
        """The all-reduces of the step recorded so far (``peer_sum``'s site)."""
        local, mine = (local_config(config, self.world), weights) if sharded else \
            shard(config, weights, self.rank, self.world)
        super().__init__(local, mine, tiles=tiles, **options)
        self.torch, self.dist, self.device = torch, dist, device
        self.views: dict[str, Any] = {}
        """The torch tensors sharing the memory of the buffers the collectives touch."""
        self.offsets = None
        self.stream: Any = None
        """The stream the step's launches go to (the collectives' too, on a GPU)."""

    def prefill(self, prompt: list[int], stream: st.Stream | None = None) -> None:
        raise NotImplementedError("a sharded prefill is not written: decode the prompt (generate without prefill)")

    def _shared(self, name: str, shape: tuple[int, ...], dtype: Any, mapped: bool = False) -> None:
        """Buffer ``name`` as a torch tensor of zeros shared with safetile; ``mapped``: in symmetric
        memory every rank maps (allocated and exchanged once, zeroed after)."""
        if mapped:
            if name not in self.mapped:
                self.mapped[name] = self._map(shape, dtype)
            tensor = self.mapped[name].zero_()
        else:
            tensor = self.torch.zeros(shape, dtype=dtype, device=self.device)
        self.views[name] = tensor
        self.buffers[name] = st.from_dlpack(tensor)

    def _map(self, shape: tuple[int, ...], dtype: Any) -> Any:
        """A tensor in torch's symmetric memory, exchanged with every rank (``rendezvous``, on the
        host: before any capture); with peer.py's all-reduce the other rank's as well, as
        ``(mine, theirs)``."""
        from torch.distributed import _symmetric_memory as symm_mem

        tensor = symm_mem.empty(shape, dtype=dtype, device=self.device)
        try:
            handle = symm_mem.rendezvous(tensor, self.dist.group.WORLD.group_name)
        except RuntimeError as err:
            if "overlapping devices" not in str(err):
                raise
            raise RuntimeError(f"the {self.all_reduce} all-reduce needs each rank on its own GPU ordinal: let every "
                               "rank see every GPU and pick its own (tp.use_gpu(LOCAL_RANK)), not "
                               "CUDA_VISIBLE_DEVICES of one GPU") from err
        if self.all_reduce in PEER_WAYS:
            return tensor, handle.get_buffer(1 - self.rank, shape, dtype)
        return tensor

    def _map_host(self, shape: tuple[int, ...], dtype: Any) -> tuple[Any, Any]:
        """``_map``'s ``(mine, theirs)`` on the CPU: a file in shared memory each rank maps (its
        name exchanged through the process group, unlinked once both have mapped it), so the
        two ranks' interpreters, one process each, read and write the same bytes."""
        torch, numel = self.torch, math.prod(shape)
        folder = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
        path = os.path.join(folder, f"safetile-peer-{uuid.uuid4().hex}")
        mine = torch.from_file(path, shared=True, size=numel, dtype=dtype).view(shape)
        paths: list[Any] = [None] * self.world
        self.dist.all_gather_object(paths, path)
        theirs = torch.from_file(paths[1 - self.rank], shared=True, size=numel, dtype=dtype).view(shape)
        self.dist.barrier()
        os.unlink(path)
        return mine, theirs

    def _collective(self) -> Any:
        """Where the collectives run: the launches' stream (on a GPU), in order with them."""
        if self.device == "cpu":
            import contextlib

            return contextlib.nullcontext()
        return self.torch.cuda.stream(self.torch.cuda.ExternalStream(int(self.stream.handle)))

    def _residual(self, name: str) -> str:
        return name if self.rank == 0 else "zero"

    def _reduce(self, run: Any, name: str) -> None:
        if self.all_reduce == "peer":
            hidden = self.config.hidden
            self._launch(run, peer.peer_sum, (name, (peer.tile(hidden),)), "steps", "inbox", "peer_inbox", "alarm",
                         self.site, N=hidden)
        else:
            with self._collective():
                self._sum(self.views[name])
        self.site += 1

    def step(self, scope: Any, prompt_len: int) -> None:
        self.site = 0
        super().step(scope, prompt_len)
        if self.all_reduce in PEER_WAYS:
            self._launch(scope.record, peer.count, ("steps", (1,)))

    def _row_parallel(self, run: Any, hint: Any, out: tuple[str, tuple[int]], residual: str, x: str, w: Any,
                      **generics: Any) -> None:
        if self.all_reduce != "peer-fused":
            super()._row_parallel(run, hint, out, residual, x, w, **generics)
            return
        peer_projection(self._launch, run, self.tiles, out, self._residual(residual), x, w, self.site,
                        self.config.hidden, **generics)
        self.site += 1

    def _sum(self, vector: Any) -> None:
        """Sum ``vector`` over the ranks in place, on torch's current stream, ``all_reduce``'s way.
        The one-shot in place is safe: each thread copies its elements into the peer buffer and,
        after the barrier, writes their sum back to the same elements; the other ranks read the
        peer buffer only.  The two-shot's ``vector`` is mapped memory (the module's docstring)."""
        group = self.dist.group.WORLD.group_name
        if self.all_reduce == "one-shot":
            self.torch.ops.symm_mem.one_shot_all_reduce_copy_out(self.peer_buffer, vector, "sum", group, vector)
        elif self.all_reduce == "two-shot":
            self.torch.ops.symm_mem.two_shot_all_reduce_(vector, "sum", group)
        else:
            self.dist.all_reduce(vector)

    def _gather_best(self) -> tuple[str, str]:
        gather = getattr(self.dist, "all_gather_single", None) or self.dist.all_gather_into_tensor
        with self._collective():  # into one tensor: nothing allocated (a graph may be capturing)
            gather(self.views["best_all"], self.views["best"])
            gather(self.views["best_at_all"], self.views["best_at"])
            self.views["best_at_all"].add_(self.offsets)
        return "best_all", "best_at_all"

    def _allocate(self, prompt: list[int]) -> None:
        super()._allocate(prompt)
        torch, c, tiles = self.torch, self.config, self.tiles.head_rows
        for name in ("x", "x2", "zero"):
            self._shared(name, (c.hidden,), torch.float32, mapped=self.all_reduce == "two-shot" and name != "zero")
        per_rank = c.vocab // tiles
        self._shared("best_all", (per_rank * self.world,), torch.float32)
        self._shared("best_at_all", (per_rank * self.world,), torch.int32)
        self._shared("best", (per_rank,), torch.float32)
        self._shared("best_at", (per_rank,), torch.int32)
        self.offsets = torch.arange(self.world, dtype=torch.int32, device=self.device).repeat_interleave(per_rank) \
            * c.vocab
        self.dist.all_reduce(self.views["zero"])  # the communicator made before any capture
        if self.all_reduce == "one-shot" and self.peer_buffer is None:
            self.peer_buffer = self._map((c.hidden,), torch.float32)  # once, before any capture
        if self.all_reduce in ("one-shot", "two-shot"):
            self._sum(self.views["x"])  # its first launch eager too, on torch's stream (zeros sum to zeros)
        if self.all_reduce in PEER_WAYS:
            self._peer_memory()

    def _peer_memory(self) -> None:
        """``peer_sum``'s memory (peer.py): this rank's ``inbox`` and the other rank's, mapped
        once (GPUs: torch's symmetric memory; the CPU: shared files), zeroed on both ranks before
        either's first step (a barrier after the zeroing: a word left from an earlier generation
        would pass for a fresh one), the step count and the watchdog's
        ``alarm`` (this rank's alone, a torch tensor ``read`` looks at) from zero; each passed
        to the launches as a raw pointer."""
        torch, c = self.torch, self.config
        if "inbox" not in self.mapped:
            mapping = self._map_host if self.device == "cpu" else self._map
            self.mapped["inbox"], self.mapped["peer_inbox"] = mapping((2 * c.layers, c.hidden), torch.int64)
        self.mapped["inbox"].zero_()
        self.views["alarm"] = torch.zeros(peer.ALARM, dtype=torch.int32, device=self.device)
        if self.device != "cpu":
            torch.cuda.synchronize(self.device)
        self.dist.barrier()
        for name in ("inbox", "peer_inbox"):
            self.buffers[name] = st.unsafe_pointer(st.from_dlpack(self.mapped[name]))
        self.buffers["alarm"] = st.unsafe_pointer(st.from_dlpack(self.views["alarm"]))
        self.buffers["steps"] = st.zeros((1,), st.i32).sync()

    def read(self, name: str) -> np.ndarray:
        """``Qwen3Decoder.read``, refused (``peer.check_alarm``) where the peer all-reduce's
        watchdog went off: what the step computed after it is wrong."""
        value = super().read(name)  # waits for the launches before the buffer's last writer
        if "alarm" in self.views:
            if self.device != "cpu":
                self.torch.cuda.synchronize(self.device)
            peer.check_alarm(self.views["alarm"].tolist(), self.rank)
        return value

    def record(self, prompt: list[int], *, prefill: bool = False) -> st.Graph:
        """Fresh buffers for ``prompt`` and one step captured as a graph with its collectives
        inside (a GPU only: NCCL's kernels are captured from the scope's stream)."""
        if self.device == "cpu":
            raise NotImplementedError("the CPU backend runs a capture's work at replay, not torch's: "
                                      "a sharded step is captured on a GPU only (generate runs it eagerly)")
        return super().record(prompt, prefill=prefill)

    def _capturing(self, scope: Any) -> None:
        # The scope's capture stream is where the collectives must go to join the graph.
        self.stream = scope.stream

    def generate(self, prompt: list[int], steps: int, *, prefill: bool = False, graph: bool = False) -> list[int]:
        """``steps`` greedy tokens after ``prompt`` (the same on every rank), ``len(prompt) - 1 +
        steps`` steps: enqueued one by one, or with ``graph`` (a GPU) replays of ``record``'s."""
        if prefill:
            self.prefill(prompt)  # refused: not written
        if graph:
            return super().generate(prompt, steps)
        self.check_lengths(prompt, steps)
        self._allocate(prompt)
        self.stream = st.current_backend().default_stream
        eager = _Eager(self.stream)
        for _ in range(len(prompt) - 1 + steps):
            self.step(eager, len(prompt))
        return [int(t) for t in self.read("tokens")[len(prompt): len(prompt) + steps]]


class _Eager:
    """A stand-in for ``Graph.scope()``'s recorder that enqueues each op on ``stream`` at once."""

    def __init__(self, stream: st.Stream):
        self.stream = stream

    def record(self, op: st.DeviceOp) -> Any:
        return op.enqueue(self.stream)


def use_gpu(ordinal: int) -> None:
    """Make GPU ``ordinal`` this process's for safetile (``SAFETILE_DEVICE``, before its first
    launch) and torch (``set_device``).  Every rank sees every GPU and uses its own: the one-shot
    all-reduce's rendezvous refuses ranks whose buffers share a device ordinal, as they would
    where each process saw only its GPU, as its ``cuda:0``."""
    import torch

    os.environ["SAFETILE_DEVICE"] = str(ordinal)
    torch.cuda.set_device(ordinal)


def main(argv: list[str] | None = None) -> None:
    """One rank (``RANK``, ``LOCAL_RANK``, ``WORLD_SIZE``, ``MASTER_ADDR``/``MASTER_PORT`` from
    ``torchrun`` or the caller), on GPU ``LOCAL_RANK`` where there are GPUs: random weights (the
    same seed on every rank), its shard, greedy tokens; rank 0 prints them, every rank writes
    them to ``--out``.<rank>."""
    import torch
    import torch.distributed as dist

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", choices=sorted(CONFIGS), default="tiny")
    parser.add_argument("--prompt", type=int, nargs="+", default=[5, 17, 99, 3, 64])
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--max-positions", type=int, default=32)
    parser.add_argument("--dtype", choices=("f32", "bf16"), default="f32")
    parser.add_argument("--all-reduce", choices=ALL_REDUCES,
                        help="one-shot, two-shot: torch symmetric memory (GPUs only); group: the process group's; "
                             "peer: safetile's own (two ranks); peer-fused: the same in the projections' launches; "
                             "default: peer on two GPUs, one-shot on more, group on the CPU")
    parser.add_argument("--out", help="each rank writes its tokens to OUT.<rank>")
    args = parser.parse_args(argv)
    cuda = torch.cuda.is_available()
    local = int(os.environ.get("LOCAL_RANK", "0"))
    if cuda:
        use_gpu(local)
    dist.init_process_group("nccl" if cuda else "gloo")
    try:
        config = CONFIGS[args.config]
        tiny = config in (TINY, TINY_GROUP3)
        dtype = st.f32 if args.dtype == "f32" else st.bf16
        tiles = TP_TINY_TILES if tiny else SHARD_TILES
        decoder = ShardedDecoder(config, random_weights(config, seed=1), dtype=dtype,
                                 max_positions=args.max_positions, tiles=tiles,
                                 device=f"cuda:{local}" if cuda else "cpu", all_reduce=args.all_reduce)
        tokens = decoder.generate(args.prompt, args.steps, graph=cuda)  # on GPUs: the step as one graph
        if dist.get_rank() == 0:
            print(" ".join(map(str, tokens)), flush=True)
        if args.out:
            with open(f"{args.out}.{dist.get_rank()}", "w") as f:
                f.write(" ".join(map(str, tokens)) + "\n")
    finally:
        dist.destroy_process_group()


TP_TINY_TILES = Tiles(rows=16, cols=16, head_rows=16, keys=8, embed=16, sample=8, o_rows=8, o_cols=16, o_early=2,
                      up_rows=SHARD_TILES.up_rows)
"""The tiny configs' tiles for 2 ranks: o_proj's row then has 32 or 48 columns (2 or 3 heads of 16);
gate/up in ``SHARD_TILES``' rows."""


if __name__ == "__main__":
    if "RANK" not in os.environ:
        raise SystemExit("run one process per rank: torchrun --nproc-per-node N -m qwen3.tp ... "
                         "(or set RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT)")
    main()
