"""Flash attention (forward): online softmax over key/value tiles, one query tile per block.

``q``, ``k`` and ``v`` are ``[batch*heads, seq, D]``; the output ``o`` is
the ``[batch*heads, seq, D]`` result seen as ``[batch*heads, seq*D]`` (each
head's rows one after the other: a reshape, no copy), partitioned into
``(1, BMD)`` tiles, ``BMD = BM*D``: tile ``(bh, bm)`` holds rows
``bm*BM ...`` of head ``bh``.  Grouped-query attention: ``GROUP`` query
heads share one key/value head, so ``k`` and ``v`` hold
``batch*heads/GROUP`` heads and head ``bh`` reads key head ``bh // GROUP``
(heads numbered batch-major, as ``[B, H, S, D]`` flattens).

The launch order: with ``ORDER = 0`` the blocks run the head fastest (every
head's first query tile, then every head's second, ...); with ``ORDER = G``
(``o.tile_index(order=st.grouped(G))``) they run the query tiles of ``G``
heads at a time, so the blocks on the GPU at once read the key and value
tiles of a few heads, which stay in L2 (at S = 8192 and d = 128, 32 heads'
``k`` and ``v`` are 128 MB, the L2 50 MB).  With ``REVERSE = 1`` either
order takes the query tiles from the last (``st.grouped(G, reverse=True)``;
``ORDER = 0`` is then ``st.grouped(ALL_HEADS, ...)``, the same head-fastest
order): causal, the heaviest query tiles (the most keys) start first and the
light ones fill the last wave.  The output is two-dimensional because the
grouped order walks a 2-d grid of tiles; every block still writes only its
own tile (partition-disjointness proves either order one to one).

``persistent_flash_attention`` is the same work on a fixed grid of one wave
(``st.MutMapped`` output): each block walks query tiles ``b, b + blocks,
...`` in the same orders.  tileiras 13.4 already gives each block a producer
warp of its own (the TMA loads, behind ``mbarrier``s) beside the consumer
warpgroups, so the persistent form saves the block launches and little
else (docs/benchmarks.md section 5, session 18).

The softmax scale times ``log2(e)`` is folded into the query tile once, so
each key tile costs one ``mma`` and one ``exp2``.  Keys past the end of
``k`` (the last, partial key tile) and, with ``CAUSAL=1``, keys after the
query (query row ``r`` sees keys ``0..r``; ``q`` and ``k`` have the same
length) are masked to ``-inf``: the full tiles before them run unmasked,
the tiles that straddle a boundary once each with the mask.  ``k`` and
``v`` pad with zeros, so a padded value row, weighted by a zero probability,
adds nothing.

``attention(o, q, k, v, scale, causal=, group=)`` is what a user calls: it
launches the plan ``attention_plan`` reads from ``PLANS`` for the head
dimension, causality and sequence length (tiles, launch order, the output
stored from registers, the loads' latency hint).

Tiles, hints and order (``PLANS``; docs/benchmarks.md section 5, H100,
session 18): causal, the query tiles from the last (``reverse``) in every
case measured (d64 S = 1024: 1.17 of cuDNN against 1.04 ascending; d128
S = 1024 1.05 against 0.93, S = 4096 0.96-1.00 against 0.89), 64x128 tiles up to
S = 1024 (d64: 4096), ``BM = BN = 128`` in groups of 4 heads above;
unmasked, 64x128 tiles at S = 1024 and ``BM = BN = 128`` above (d64: the
persistent kernel with the loads' ``latency = 2``, within 1% of the other).
64x128 tiles run at ``occupancy = 2`` (two blocks an SM, 128 registers),
``BM = 128`` with ``num_worker_warps_per_cta = 8`` (168 registers), no
spill; the output stored from registers (``REGISTER_STORE``) where picked.
Tried and slower: rescaling lazily (the accumulator rescaled only when a
row's max grows past ``2**8``: a branch on the max over the block's rows)
ran at 0.61-0.70 of cuDNN with 128x128 tiles against 0.72-0.95 without.
"""

import functools
import math
from typing import Any, NamedTuple

import safetile as st
from safetile import f32
from safetile.rows import DIRECT_STORES

WARPS8 = {"sm_90": {"num_worker_warps_per_cta": 8}}
OCCUPANCY2 = {"sm_90": {"occupancy": 2}}


@st.function
def attend(qt, kt, vt, m, l, acc, key0, row0, n_keys, masked, causal):
    """One key tile: scores, the online max and sum, and the value update."""
    bm_rows, bn = qt.shape[0], kt.shape[0]
    s = st.mma(qt, kt.T, st.zeros((bm_rows, bn), f32))
    if masked:
        keys = st.iota((bn,)).reshape((1, bn)) + key0
        visible = keys < n_keys
        if causal:
            visible = visible & (keys <= st.iota((bm_rows,)).reshape((bm_rows, 1)) + row0)
        s = st.where(visible, s, -math.inf)
    m_new = st.maximum(m, st.max(s, 1, keepdims=True))
    p = st.exp2(s - m_new)
    alpha = st.exp2(m - m_new)
    l = l * alpha + st.sum(p, 1, keepdims=True)
    acc = st.mma(p.astype(vt.dtype), vt, acc * alpha)
    return m_new, l, acc


@st.function
def below(n, count):
    """``n`` (never negative) clamped to ``[0, count]``: a tile count in the form bounds-check
    elision follows (``min``, ``max``, tile counts; not a causal bound's products), so the loads
    of the loops it bounds keep no check in the kernel."""
    return st.minimum(count, st.maximum(n, 0))


ALL_HEADS = 4096
"""A group as large as any head count: ``st.grouped(ALL_HEADS)`` over ``[heads, query tiles]`` is
the head-fastest order (with fewer heads than the group, the grouped order is the row fastest)."""


@st.function
def query_tile(q, k, v, scale, bh, bm, E, BMD, BN, D, CAUSAL, GROUP):
    """The output of query tile ``bm`` of head ``bh`` as a ``(1, BMD)`` tile: the whole key tiles
    unmasked, then the ones that straddle the end of ``k`` or (``CAUSAL``) the diagonal, masked."""
    if BMD < D:
        raise ValueError(f"o's tile (1, {BMD}) is not whole query rows of D = {D}: partition the [heads, S * D] "
                         f"output into (1, BM * D) tiles, e.g. (1, {128 * D}) for 128-row query tiles")
    BM = BMD // D
    kvh = bh // GROUP
    pk, pv = k.partition((1, BN, D), padding="zero"), v.partition((1, BN, D), padding="zero")
    qt = q.partition((1, BM, D)).load((bh, bm, 0)).reshape((BM, D))
    qt = (qt.astype(f32) * (scale * (1.0 / math.log(2.0)))).astype(E)
    n_keys = k.shape[1]
    m = st.full((BM, 1), -math.inf, f32)
    l = st.zeros((BM, 1), f32)
    acc = st.zeros((BM, D), f32)
    n_tiles = st.num_tiles(pk, 1)
    full = st.minimum(n_keys // BN, n_tiles)
    last = n_tiles
    if CAUSAL:
        full = below((bm * BM + 1) // BN, full)
        last = below(((bm + 1) * BM + BN - 1) // BN, last)
    for j in range(full):
        kt, vt = pk.load((kvh, j, 0)).reshape((BN, D)), pv.load((kvh, j, 0)).reshape((BN, D))
        m, l, acc = attend(qt, kt, vt, m, l, acc, j * BN, bm * BM, n_keys, False, False)
    for j in range(full, last):
        kt, vt = pk.load((kvh, j, 0)).reshape((BN, D)), pv.load((kvh, j, 0)).reshape((BN, D))
        m, l, acc = attend(qt, kt, vt, m, l, acc, j * BN, bm * BM, n_keys, True, CAUSAL)
    return (acc / l).astype(E).reshape((1, BMD))


def _hints(BMD: int, D: int, **_: Any) -> dict[str, dict[str, int]]:
    """8 worker warps from 128 query rows, occupancy 2 below."""
    return WARPS8 if BMD // D >= 128 else OCCUPANCY2


@st.kernel(
    specialize=[
        dict(E=st.f16, BMD=128 * 64, BN=128, D=64, CAUSAL=0, GROUP=1, ORDER=1),
        dict(E=st.f16, BMD=128 * 128, BN=128, D=128, CAUSAL=1, GROUP=1, ORDER=1),
        dict(E=st.bf16, BMD=128 * 128, BN=128, D=128, CAUSAL=0, GROUP=4, ORDER=0),
        dict(E=st.f16, BMD=64 * 64, BN=64, D=64, CAUSAL=1, GROUP=2, ORDER=2),
        dict(E=st.f16, BMD=64 * 64, BN=64, D=64, CAUSAL=1, GROUP=1, ORDER=0, REVERSE=1),
    ],
    optimization_hints=_hints,
)
def flash_attention(
    o: st.Mut["E", (1, "BMD")],
    q: st.Ref["E", (-1, -1, "D")],
    k: st.Ref["E", (-1, -1, "D")],
    v: st.Ref["E", (-1, -1, "D")],
    scale: f32,
    *,
    E: st.DType,
    BMD: int,
    BN: int,
    D: int,
    CAUSAL: int,
    GROUP: int,
    ORDER: int = 1,
    REVERSE: int = 0,
):
    if ORDER or REVERSE:
        idx = o.tile_index(order=st.grouped(ORDER or ALL_HEADS, reverse=REVERSE))
    else:
        idx = o.tile_index()
    bh, bm = idx
    o.store(query_tile(q, k, v, scale, bh, bm, E, BMD, BN, D, CAUSAL, GROUP), idx)


@st.kernel(
    specialize=[
        dict(E=st.f16, BMD=64 * 64, BN=128, D=64, CAUSAL=1, GROUP=1, ORDER=1, REVERSE=1),
        dict(E=st.f16, BMD=128 * 128, BN=128, D=128, CAUSAL=0, GROUP=1, ORDER=0),
    ],
    optimization_hints=_hints,
)
def persistent_flash_attention(
    o: st.MutMapped["E", (1, "BMD")],
    q: st.Ref["E", (-1, -1, "D")],
    k: st.Ref["E", (-1, -1, "D")],
    v: st.Ref["E", (-1, -1, "D")],
    scale: f32,
    *,
    E: st.DType,
    BMD: int,
    BN: int,
    D: int,
    CAUSAL: int,
    GROUP: int,
    ORDER: int = 1,
    REVERSE: int = 0,
):
    """``flash_attention`` on a fixed grid (``attention`` launches ``min(tiles, SMS * blocks an
    SM)`` blocks): each block walks query tiles ``b, b + blocks, ...`` in the same orders
    (``ORDER = 0``: the head fastest), so it starts the next tile's loads where the last one
    ended, and no block launch a tile."""
    for idx in o.tile_indices(order=st.grouped(ORDER or ALL_HEADS, reverse=REVERSE)):
        bh, bm = idx
        o.store(query_tile(q, k, v, scale, bh, bm, E, BMD, BN, D, CAUSAL, GROUP), idx)


REGISTER_STORE = {"sm_90": DIRECT_STORES}
"""Store hints: the output tile from registers (``STG``).  Through the TMA a ``(1, BM * D)`` tile is
64-128 stores a block (a TMA box spans at most 256 elements a dimension), 4-8 ``STG`` a thread so."""


SMS = 132
"""Streaming multiprocessors of an H100 SXM: a persistent plan's blocks are this times the blocks an
SM runs (one of 8 worker warps, two at occupancy 2)."""


class Plan(NamedTuple):
    """How ``attention`` launches one shape: ``bm x bn`` tiles (query rows, keys), the launch
    ``order`` (``ORDER``: 0 the head fastest, G the query tiles of G heads at a time), the query
    tiles walked from the last (``reverse``: causal's heaviest first), the output stored from
    registers (``REGISTER_STORE``), the key and value loads' ``latency`` hint (0: none), and
    ``persistent``: ``persistent_flash_attention`` on one wave of blocks (``grid``) instead of a
    block a query tile.  The entry's hints follow ``bm`` (the kernel's own: 8 worker warps from
    128 rows, occupancy 2 below)."""

    bm: int
    bn: int
    order: int
    register_store: bool = False
    latency: int = 0
    reverse: bool = False
    persistent: bool = False

    def options(self) -> dict[str, Any]:
        """The kernel options of the plan's store and load hints (``flash_attention.with_options``)."""
        options: dict[str, Any] = {}
        if self.register_store:
            options["store_hints"] = REGISTER_STORE
        if self.latency:
            options["load_hints"] = {"sm_90": {"latency": self.latency}}
        return options

    def generics(self) -> dict[str, int]:
        """The plan's key tile and order generics (``BN``, ``ORDER``, ``REVERSE`` when set)."""
        return dict(BN=self.bn, ORDER=self.order, **({"REVERSE": 1} if self.reverse else {}))

    def config(self, d: int) -> dict[str, Any]:
        """The plan at head dimension ``d`` as an ``st.autotune`` config of ``flash_attention``
        (a persistent plan is another kernel's: not one)."""
        if self.persistent:
            raise ValueError(f"{self} launches persistent_flash_attention: it is no config of flash_attention")
        return dict(BMD=self.bm * d, **self.generics(), **self.options())

    def grid(self, heads: int, seq: int) -> dict[str, tuple[int]]:
        """The ``grid=`` launch option: a persistent plan's one wave of blocks (no more than the
        query tiles), none for a block a query tile (the partition's grid)."""
        if not self.persistent:
            return {}
        return {"grid": (min(heads * -(-seq // self.bm), SMS * (1 if self.bm >= 128 else 2)),)}


PLANS: dict[tuple[int, int], tuple[tuple[int | None, Plan], ...]] = {
    (64, 0): ((2048, Plan(64, 128, 1, register_store=True)), (None, Plan(128, 128, 1, latency=2, persistent=True))),
    (64, 1): ((6144, Plan(64, 128, 0, register_store=True, reverse=True)), (None, Plan(128, 128, 4, reverse=True))),
    (128, 0): ((2048, Plan(64, 128, 1)), (None, Plan(128, 128, 1, register_store=True))),
    (128, 1): ((2048, Plan(64, 128, 0, register_store=True, reverse=True)), (None, Plan(128, 128, 4, reverse=True))),
}
"""Per ``(head dimension, causal)``, rules ``(longest sequence, plan)``: the first whose bound holds
the sequence applies (``None``: any).  Each plan is the one ``bench/attention_candidates.py``
picked on an H100 (session 18, run -s8, docs/benchmarks.md section 5) among ``bench/kernels.py``'s
``ATTENTION_CANDIDATES`` and ``ATTENTION_PERSISTENT_AND_REVERSED`` at S = 1024, 4096 and 8192 (32
heads, f16): the fastest of the probe's two fastest and the plan shipped before by cuDNN's burst
ratio at S = 1024, by the steady one from 4096.  The bounds sit between the measured lengths (2048,
6144); one rule stands for the lengths that picked the same."""
DEFAULT_PLAN = Plan(128, 128, 1)
"""Head dimensions not measured: 128x128 tiles in the grouped order."""


def attention_plan(d: int, causal: bool, seq: int) -> Plan:
    """The plan for head dimension ``d`` and ``seq`` queries and keys (``PLANS``)."""
    for longest, plan in PLANS.get((d, int(causal)), ((None, DEFAULT_PLAN),)):
        if longest is None or seq <= longest:
            return plan
    raise AssertionError("every rule list ends with a bound of None")


@functools.cache
def planned_kernel(plan: Plan) -> st.Kernel:
    """``flash_attention`` (``persistent_flash_attention`` for a persistent plan) with ``plan``'s
    hints (one kernel a plan: a launch cache each)."""
    kernel = persistent_flash_attention if plan.persistent else flash_attention
    options = plan.options()
    return kernel.with_options(**options) if options else kernel


def launch_plan(plan: Plan, o: st.Tensor, q: st.Tensor, k: st.Tensor, v: st.Tensor, scale: float, *,
                causal: bool = False, group: int = 1) -> st.DeviceOp:
    """``plan``'s launch: ``o`` (``[heads, S * D]``) partitioned into its query tiles, its kernel,
    generics and grid."""
    heads, seq, d = q.shape
    return planned_kernel(plan)(o.partition((1, plan.bm * d)), q, k, v, scale, CAUSAL=int(causal), GROUP=group,
                                **plan.generics(), **plan.grid(heads, seq))


def attention(o: st.Tensor, q: st.Tensor, k: st.Tensor, v: st.Tensor, scale: float, *, causal: bool = False,
              group: int = 1) -> st.DeviceOp:
    """``o = softmax(q k^T * scale) v`` per head, launched with ``attention_plan``'s plan for the
    shape: ``q`` ``[heads, S, D]``, ``k`` and ``v`` ``[heads / group, S_k, D]``, ``o`` the
    ``[heads, S, D]`` result seen as ``[heads, S * D]`` (as ``flash_attention`` takes it).  Its
    value is the kernel's (``flash_attention``'s or, persistent, ``persistent_flash_attention``'s):
    ``(o partitioned, q, k, v)``."""
    plan = attention_plan(q.shape[2], causal, q.shape[1])
    return launch_plan(plan, o, q, k, v, scale, causal=causal, group=group)
