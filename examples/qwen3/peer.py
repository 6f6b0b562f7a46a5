"""The peer all-reduce of two ranks (tp.py's ``all_reduce="peer"``): one launch, no collective library.

Each rank's vector is summed with the other rank's in place, over memory both ranks map (torch's
symmetric memory: NVLink peer memory, no multicast).  This is the one unsafe kernel of the model
(raw pointers into another GPU's memory, words it spins on); what keeps it correct is the
protocol below, not the compiler's proofs, so it is written out here.

Memory, per rank, each allocated once and zeroed before a generation:

* ``inbox``  ``[sites, N]`` i64, in symmetric memory: word ``[s, i]`` holds the *other* rank's
  partial sum ``i`` at site ``s`` (a site is one all-reduce of the step: after o_proj and after
  down, ``2 * layers`` a step) packed with the step that wrote it: the step number (from 1) in
  the high half, the f32's bits in the low half;
* ``steps``  ``(1,)`` i32, an ordinary buffer: steps done so far, counted by ``count`` at the
  end of every step (both ranks run the same steps, so they count alike);
* ``alarm``  ``(ALARM,)`` i32, an ordinary buffer: the watchdog's (below).

``peer_sum`` at site ``s``, block ``b`` (elements ``b * BN ...``), ``e = steps + 1``:

1. store this rank's partial sums, each packed with ``e``, into the other rank's ``inbox[s]``:
   one relaxed 64-bit store at system scope a word, which arrives whole, so the step in a word
   is that word's flag (NCCL's LL protocol): no release fence, no flag sent after the data;
2. wait until every word of the block's tile of this rank's ``inbox[s]`` holds ``e`` (relaxed
   loads at system scope, the high halves reduced to their least: the whole block decides on
   one value a turn), then store the sum ``mine + theirs`` (the low halves) into the block's
   tile of the vector (``a + b`` in f32 is ``b + a``: both ranks hold the same sum, bit for bit).

Who owns ``inbox[s]`` of a rank: only the other rank writes it, only this rank reads it.  The
write of step ``e + 1`` cannot overtake the read of step ``e``: the writer reaches site ``s`` of
step ``e + 1`` only after its site ``s + 1`` of step ``e`` (or site 0 of step ``e + 1``, for the
last site), which waited for this rank's words of that site, stored by this rank's next
``peer_sum`` launch; that launch stores after its grid-dependency wait, so after the launch
before it, and with it every launch before (the read of ``inbox[s]``), has finished.  So two
sites a step are enough, and every model has at least two.  A word's step moves from ``e - 1``
to ``e`` only, so a wait cannot take a stale word for a fresh one -- which is why the inboxes
and the count start from zero together on both ranks (``tp.ShardedDecoder`` zeroes them and
meets the other rank before the first step), and why the count is not the position (a
benchmark sets the position back).

The first form of this kernel (sessions 16-17) sent the partial sums, then raised a flag
``[sites, N / BN]`` with an atomic exchange (release, system scope) and waited on this rank's
flag (acquire): right on two GPUs, but the release waits for the stores' round trip over
NVLink and the flag makes a trip of its own after them: 6.2 us a call in Qwen3-14B's TP=2
step, against 3.4 for the packed words (docs/model.md, session 17).

**The watchdog.**  A wait that never ends would hang the process with no word of why (session
16's first two-GPU run: the pair was killed at its deadline).  So a wait gives up after
``PATIENCE`` turns: it writes the step and site into this rank's ``alarm`` and sums whatever is
in the inbox; every later launch of the rank sees the alarm raised and does not wait at all, so
the rank's launches end within one ``PATIENCE`` and its process runs on to the host's reading
of the results, where ``check_alarm`` refuses them naming the step and site (``tp.ShardedDecoder``
checks before any buffer is read).  Past ``PATIENCE`` nothing is trusted: the words' steps no
longer pair up.

``PHASE`` runs half the protocol, for the CPU interpreter, which runs one launch at a time
(a rank's wait would never end while the other's launch has not run): both ranks' ``SEND``
launches, then both ranks' ``RECEIVE`` launches sum what a ``BOTH`` launch sums.
"""

from __future__ import annotations

import math

import safetile as st
from safetile import f32, i32, i64

from .kernels import matvec

SEND, RECEIVE, BOTH = 1, 2, 3
"""``peer_sum``'s ``PHASE``: its first half, its second half, or the whole."""

PATIENCE = 1 << 24
"""Turns of the wait before ``peer_sum`` gives up (the watchdog: ``ALARM``).  A turn is a load of the
block's words at system scope and a block-wide minimum, about a microsecond on a GPU (a guess, not
a reading), so some seconds: longer than any lawful wait (the other rank behind by its host's work:
a capture, a profiler's start) and short against a run's deadline."""

ALARM = 2
"""Length of a rank's ``alarm`` (i32, zeroed with the inbox): ``alarm[0]``, the step (from 1) of a
wait that ran out, 0 while none has; ``alarm[1]``, its site (of the waits that ran out, the last to
write).  ``check_alarm`` turns it into an error."""


class PeerTimeout(RuntimeError):
    """A wait of ``peer_sum`` ran out (``check_alarm``): the rank's results since are wrong."""


def check_alarm(alarm: list[int], rank: int) -> None:
    """Raise if rank ``rank``'s ``alarm`` (its values) says a wait ran out: the sums from that
    site on are wrong, and the error says what to look at and which all-reduce to use instead."""
    step, site = alarm
    if step:
        raise PeerTimeout(
            f"rank {rank}: the peer all-reduce gave up at step {step}, site {site}: the other rank's partial "
            f"sums did not arrive in {PATIENCE:,} turns (some seconds), so every sum from there on is wrong.  The "
            "other rank stopped or fell far behind (its own log says why), or the protocol does not hold on "
            "this machine (examples/qwen3/peer.py): use all_reduce='one-shot'")


def tile(n: int) -> int:
    """Elements a block of ``peer_sum`` sums of a vector of ``n``: the largest power of two up to
    1,024 dividing ``n`` (1,024 at Qwen3-14B's and -32B's 5,120: 5 blocks a site)."""
    return math.gcd(n, 1024)


LANES = 128
"""The threads of a block of a kernel that calls ``exchange`` (4 warps: tileiras's choice where no
``num_worker_warps_per_cta`` hint says otherwise); ``lanes`` gives it for a hint."""


def lanes(warps: int | None) -> int:
    """``LANES`` of a block of ``warps`` worker warps (``None``: tileiras's choice, 4)."""
    return LANES if warps is None else 32 * warps


@st.function
def exchange(mine, b, steps, inbox, peer_inbox, alarm, site, N, PHASE, PATIENCE, LANES):
    """``mine`` (block ``b``'s tile of this rank's partial sums, ``(BN,)`` f32) plus the other
    rank's same tile at ``site``: the module's protocol, steps 1 and 2 (``PHASE``: one half or
    both; a wait gives up after ``PATIENCE`` turns).  The wait reads the words into a tile of
    ``W = max(BN, LANES)`` lanes (each word ``W / BN`` times), at least one a thread of the block
    (``LANES``): so the least step is a reduction across the whole block, whose one result every
    thread takes.  A tile of fewer lanes than threads is held by each warp whole and reduced
    within it: each warp reads the words at its own time and may leave the loop a turn before
    another, and the loop's barrier then waits for a warp that has left (the fused projection's
    8-row tiles hung so on two H200s, session 18)."""
    BN = mine.shape[0]
    W = max(BN, LANES)
    assert N % BN == 0, "a block sums BN elements of the N: BN divides N"
    assert W % BN == 0, "the wait's lanes hold each word alike: BN divides LANES (powers of two)"
    epoch = steps.load_tile((1,), (0,)).reshape(()) + 1
    at = st.iota((BN,)) + (site * N + b * BN)
    waits_at = at if W == BN else st.iota((W,)) % BN + (site * N + b * BN)
    theirs = st.zeros((BN,), f32)
    with st.unsafe():
        if PHASE != RECEIVE:
            bits = st.bitcast(mine, i32).astype(i64)
            low = bits - ((bits >> 32) << 32)  # the f32's bits, zero-extended
            st.store_ptr(st.offset(peer_inbox, at), (epoch.astype(i64) << 32) + low, ordering="relaxed",
                         scope="system")
        if PHASE != SEND:
            # The words read into every lane of the tile and their steps reduced to the least:
            # the reduction hands every thread of the block one value, so all leave the loop at
            # the same turn (a value each thread read alone may change a turn apart from
            # another's, and the loop's barrier then waits for threads that have left it: the
            # hang of session 16).  Loads, not atomics: the interpreter's atomics are a load and
            # a store, which would put an old word back over the other process's new one.
            # The watchdog: once a wait of this rank has run out (alarm[0] set), no launch waits
            # again, so every launch after it ends and the process with them (its sums are
            # wrong: the host refuses them, ``check_alarm``); read like the words, so the block
            # agrees.
            alarmed = st.min(st.load_ptr(st.offset(alarm, st.zeros((W,), i32))), 0)
            words = st.load_ptr(st.offset(inbox, waits_at), ordering="relaxed", scope="system")
            seen = st.min((words >> 32).astype(i32), 0)
            turns = (alarmed != 0).astype(i32) * PATIENCE
            while (seen != epoch) & (turns < PATIENCE):
                turns += 1
                words = st.load_ptr(st.offset(inbox, waits_at), ordering="relaxed", scope="system")
                seen = st.min((words >> 32).astype(i32), 0)
            if (seen != epoch) & (alarmed == 0):
                st.atomic_rmw(st.offset(alarm, st.zeros((1,), i32)), epoch.reshape((1,)), "xchg")
                st.atomic_rmw(st.offset(alarm, st.zeros((1,), i32) + 1), st.zeros((1,), i32) + site, "xchg")
            if W != BN:  # every copy of a word holds the step's word: the first BN lanes are the tile
                words = st.extract(words, (0,), (BN,))
            theirs = st.bitcast(words.astype(i32), f32)
    return mine + theirs


@st.kernel
def peer_sum(
    z: st.Mut[f32, ("BN",)],
    steps: st.Ref[i32, (1,)],
    inbox: st.Ptr[i64],
    peer_inbox: st.Ptr[i64],
    alarm: st.Ptr[i32],
    site: i32,
    *,
    BN: int,
    N: int,
    PHASE: int = BOTH,
    PATIENCE: int = PATIENCE,
    LANES: int = LANES,
):
    """``z += the other rank's z`` at ``site`` (the module's protocol), ``z`` of ``N`` elements in
    blocks of ``BN``: ``inbox`` this rank's, ``peer_inbox`` the other's, ``alarm`` this rank's
    watchdog (``ALARM``): a wait gives up after ``PATIENCE`` turns."""
    b, _, _ = st.tile_block_id()
    z.store(exchange(st.load_tile_mut(z), b, steps, inbox, peer_inbox, alarm, site, N, PHASE, PATIENCE, LANES))


@st.kernel(early_reads=("w",))
def gemv_peer_sum(
    z: st.Mut[f32, ("BN",)],
    residual: st.Ref[f32, (-1,)],
    x: st.Ref[f32, ("K",)],
    w: st.Ref["E", "WS"],
    steps: st.Ref[i32, (1,)],
    inbox: st.Ptr[i64],
    peer_inbox: st.Ptr[i64],
    alarm: st.Ptr[i32],
    site: i32,
    *,
    E: st.DType,
    BN: int,
    BK: int,
    K: int,
    WS: st.Shape,
    N: int,
    EARLY: int = 0,
    EARLY_TMA: bool = False,
    PHASE: int = BOTH,
    PATIENCE: int = PATIENCE,
    LANES: int = LANES,
):
    """``kernels.gemv_residual`` and ``peer_sum`` in one launch (tp.py's ``all_reduce="peer-fused"``):
    block ``b`` computes its rows of ``residual + w @ x`` (this rank's partial sums) and exchanges
    them with the other rank's block ``b`` at ``site`` before storing ``mine + theirs`` -- the
    same f32 operations as the two launches (on the interpreter the same bits), but on a GPU
    tileiras orders the GEMV's reduction by the occupancy hint: at o_proj's 8 x 512 tiles the
    projection's 3 (``gemv_residual``'s) and tileiras's own (this kernel's, ``tp.FUSED_OCCUPANCY``)
    differ in the last bits of 1,518 of Qwen3-14B's 5,120 sums (down's 16 x 256: the same; docs/model.md,
    session 19, run -s9b).  A block waits only for the
    other rank's same rows, so no block of a rank waits for another block of its own launch;
    the other rank's block ``b`` is scheduled once its blocks before ``b`` are, as this rank's
    were (blocks start in order), so every wait has its partner running or done."""
    b, _, _ = st.tile_block_id()
    mine = residual.partition((BN,)).load((b,)) + matvec(w, x, b, BN, BK, EARLY, EARLY_TMA)
    z.store(exchange(mine, b, steps, inbox, peer_inbox, alarm, site, N, PHASE, PATIENCE, LANES))


@st.kernel
def count(z: st.Mut[i32, (1,)]):
    """``z += 1`` (the steps done: ``peer_sum``'s epoch)."""
    z.store(st.load_tile_mut(z) + 1)
