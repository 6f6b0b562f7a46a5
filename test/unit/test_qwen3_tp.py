"""Tensor-parallel Qwen3 decode (examples/qwen3/tp.py): the tiny config sharded over 2 processes,
gloo between them, each on the CPU interpreter, gives the unsharded model's greedy tokens."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))

from qwen3.reference import TINY, TINY_GROUP3, greedy, random_weights  # noqa: E402
from qwen3.tp import TP_TINY_TILES, ShardedDecoder, default_all_reduce, main, shard  # noqa: E402

PROMPT = [5, 17, 99, 3, 64]
STEPS = 6


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("name, config, all_reduce", [
    ("tiny", TINY, "group"), pytest.param("tiny-group3", TINY_GROUP3, "group", marks=pytest.mark.full),
    pytest.param("tiny", TINY, "peer", marks=pytest.mark.full),
    pytest.param("tiny", TINY, "peer-fused", marks=pytest.mark.full)])
# make test decodes the tiny config over gloo; make test-full also the group of 3 and peer.py's two
# all-reduces (30-65 s more each)
def test_two_ranks_over_gloo_give_the_unsharded_tokens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       name: str, config, all_reduce: str) -> None:  # noqa: ANN001
    """Rank 1 is ``python -m qwen3.tp`` in a process of its own; rank 0 is the same ``main`` run in
    this process, whose torch and safetile are imported already (a second interpreter spends
    ~2.5 CPU-s importing them again, more than the rank's decode).  10 steps (the prompt's 5 and
    6 tokens, less one): the last ones' attention walks two tiles of 8 keys.  With peer.py's
    all-reduces (its own launch, or in o_proj's and down's) the two processes' interpreters run
    its protocol at once over shared memory, each waiting for the other's words."""
    pytest.importorskip("torch.distributed")
    from torch.distributed import distributed_c10d

    out = tmp_path / "tokens"
    world = {"WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(free_port())}
    args = ["--config", name, "--prompt", *map(str, PROMPT), "--steps", str(STEPS), "--max-positions", "16",
            "--all-reduce", all_reduce, "--out", str(out)]
    env = {**os.environ, **world, "PYTHONPATH": str(ROOT / "examples"), "SAFETILE_BACKEND": "cpu", "RANK": "1",
           "LOCAL_RANK": "1"}
    other = subprocess.Popen([sys.executable, "-m", "qwen3.tp", *args], env=env, cwd=tmp_path,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for key, value in {**world, "RANK": "0", "LOCAL_RANK": "0"}.items():
        monkeypatch.setenv(key, value)
    # Should rank 1 die, rank 0 waits for it this long (torch's default is 30 minutes).
    monkeypatch.setattr(distributed_c10d, "default_pg_timeout", timedelta(seconds=120))
    try:
        main(args)
    finally:
        try:
            log = other.communicate(timeout=240)[0]
        finally:
            other.kill()
        print(f"rank 1 (python -m qwen3.tp):\n{log}")  # shown where the test fails
    assert other.returncode == 0
    expected, _ = greedy(config, random_weights(config, seed=1), PROMPT, STEPS)
    for r in range(2):
        assert (tmp_path / f"tokens.{r}").read_text().split() == [str(t) for t in expected]


def test_the_row_parallel_shards_sum_to_the_whole_projection() -> None:
    """o_proj's and down's column shards times their rank's slice of the input sum to the product."""
    weights = random_weights(TINY, seed=2)
    shards = [shard(TINY, weights, r, 2)[1] for r in range(2)]
    for name, width in (("self_attn.o_proj", TINY.heads * TINY.head_dim), ("mlp.down_proj", TINY.intermediate)):
        key = f"model.layers.1.{name}.weight"
        x = np.random.default_rng(0).standard_normal(width).astype(np.float32)
        parts = [s[key] @ x[r * width // 2: (r + 1) * width // 2] for r, s in enumerate(shards)]
        np.testing.assert_allclose(parts[0] + parts[1], weights[key] @ x, rtol=1e-5, atol=1e-5)
    vocab = np.concatenate([s["lm_head.weight"] for s in shards])
    np.testing.assert_array_equal(vocab, weights["model.embed_tokens.weight"])


def test_a_world_size_that_does_not_divide_the_heads_is_refused() -> None:
    with pytest.raises(ValueError, match=r"over 3 ranks splits heads \(4\) evenly: pick a world size dividing it"):
        shard(TINY, random_weights(TINY), 0, 3)


def test_what_a_sharded_rank_does_not_do_is_refused_naming_the_way() -> None:
    """A sharded prefill is not written, and a sharded step is captured as a graph on a GPU only:
    each refusal says what to do instead (one rank of one over gloo, in this process)."""
    dist = pytest.importorskip("torch.distributed")
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{free_port()}", rank=0, world_size=1)
    try:
        rank = ShardedDecoder(TINY, random_weights(TINY), max_positions=16, tiles=TP_TINY_TILES)
        with pytest.raises(NotImplementedError, match=r"decode the prompt \(generate without prefill\)"):
            rank.prefill(PROMPT)
        with pytest.raises(NotImplementedError, match="captured on a GPU only"):
            rank.record(PROMPT)
    finally:
        dist.destroy_process_group()


def test_an_all_reduce_the_cpu_cannot_run_or_that_does_not_exist_is_refused() -> None:
    """The one-shot and two-shot all-reduces map the other GPUs' memory: on the CPU the refusal
    names the ways that run there; the peer one sums two ranks, and one alone is refused naming
    another way, on a GPU as on the CPU (no other gate: it ran right on two GPUs, session 17); a
    name not among ALL_REDUCES is refused listing them."""
    dist = pytest.importorskip("torch.distributed")
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{free_port()}", rank=0, world_size=1)
    try:
        for way in ("one-shot", "two-shot"):
            with pytest.raises(ValueError, match=rf"the {way} all-reduce maps .* on the CPU pass all_reduce='group'"):
                ShardedDecoder(TINY, random_weights(TINY), max_positions=16, tiles=TP_TINY_TILES, all_reduce=way)
        with pytest.raises(ValueError, match=r"sums two ranks' vectors, not 1: pass all_reduce='one-shot'"):
            ShardedDecoder(TINY, random_weights(TINY), max_positions=16, tiles=TP_TINY_TILES, device="cuda:0",
                           all_reduce="peer")
        for way in ("peer", "peer-fused"):
            with pytest.raises(ValueError, match=rf"the {way} all-reduce sums two ranks' vectors, not 1: pass "
                                                 r"all_reduce='one-shot'"):
                ShardedDecoder(TINY, random_weights(TINY), max_positions=16, tiles=TP_TINY_TILES, all_reduce=way)
        with pytest.raises(ValueError, match=r"'nvls' is not one of 'group', 'one-shot', 'two-shot', 'peer', "
                                             r"'peer-fused'$"):
            ShardedDecoder(TINY, random_weights(TINY), max_positions=16, tiles=TP_TINY_TILES, all_reduce="nvls")
    finally:
        dist.destroy_process_group()


def test_the_peer_all_reduce_sums_two_ranks_over_their_inboxes() -> None:
    """peer.py's protocol on the interpreter, two ranks in one process sharing their memory as two
    GPUs map each other's: each step, at each of 2 sites, both ranks' ``SEND`` halves then both
    ``RECEIVE`` halves (a whole launch waits for the other rank's words, which the interpreter's
    one launch at a time would never send); every sum exact on both ranks (negative ones too:
    the words' low halves are the f32's bits), each word's high half the step that stored it,
    ``count`` counting the steps."""
    torch = pytest.importorskip("torch")
    import safetile as st
    from qwen3.peer import RECEIVE, SEND, count, peer_sum

    n, bn, sites = 32, 16, 2
    inbox = [torch.zeros(sites, n, dtype=torch.int64) for _ in range(2)]
    alarms = [torch.zeros(2, dtype=torch.int32) for _ in range(2)]

    def pointer(t):  # noqa: ANN001, ANN202
        return st.unsafe_pointer(st.from_dlpack(t))

    memory = [[pointer(inbox[r]), pointer(inbox[1 - r]), pointer(alarms[r])] for r in range(2)]
    steps = [st.zeros((1,), st.i32).sync() for _ in range(2)]
    rng = np.random.default_rng(3)
    for step in range(1, 3):
        for site in range(sites):
            parts = [rng.standard_normal(n).astype(np.float32) for _ in range(2)]
            z = [st.from_numpy(p).sync() for p in parts]
            for phase in (SEND, RECEIVE):
                for r in range(2):
                    out = peer_sum(z[r].partition((bn,)), steps[r], *memory[r], site, N=n, PHASE=phase).sync()
                    z[r], steps[r], memory[r] = out[0].unpartition(), out[1], list(out[2:5])
            for r in range(2):
                np.testing.assert_array_equal(z[r].numpy(), parts[0] + parts[1])
        for r in range(2):
            steps[r] = count(steps[r].partition((1,))).sync()[0].unpartition()
            assert steps[r].numpy().tolist() == [step]
            assert (inbox[r] >> 32).tolist() == [[step] * n] * sites
    assert [a.tolist() for a in alarms] == [[0, 0], [0, 0]]  # no wait ran out


def test_the_fused_projection_sums_two_ranks_as_its_two_launches_do() -> None:
    """``gemv_peer_sum`` (``all_reduce="peer-fused"``): o_proj's or down's product and the peer
    all-reduce in one launch, on the interpreter with two ranks in one process (both ranks'
    ``SEND`` halves, then both ``RECEIVE`` halves, as above), 2 sites: every rank's sums bit for
    bit those of ``gemv_residual`` then ``peer_sum`` (rank 0 adding the residual, rank 1 zeros),
    and within rounding of numpy's whole projection; the words' steps the step's."""
    torch = pytest.importorskip("torch")
    import safetile as st
    from qwen3.kernels import gemv_residual, pack_weight
    from qwen3.peer import RECEIVE, SEND, gemv_peer_sum, peer_sum

    n, k, bn, bk, sites = 32, 64, 8, 16, 2
    inbox = [torch.zeros(sites, n, dtype=torch.int64) for _ in range(2)]
    alarms = [torch.zeros(2, dtype=torch.int32) for _ in range(2)]

    def pointer(t):  # noqa: ANN001, ANN202
        return st.unsafe_pointer(st.from_dlpack(t))

    def put(a):  # noqa: ANN001, ANN202
        return st.from_numpy(a).sync()

    def memory(inboxes):  # noqa: ANN001, ANN202
        return [[pointer(inboxes[r]), pointer(inboxes[1 - r]), pointer(alarms[r])] for r in range(2)]

    fused_memory = memory(inbox)
    steps = [st.zeros((1,), st.i32).sync() for _ in range(2)]
    rng = np.random.default_rng(5)
    for site in range(sites):
        w = [rng.standard_normal((n, k)).astype(np.float32) for _ in range(2)]
        x = [rng.standard_normal(k).astype(np.float32) for _ in range(2)]
        residual = [rng.standard_normal(n).astype(np.float32), np.zeros(n, np.float32)]
        fused = [st.zeros((n,), st.f32).sync() for _ in range(2)]
        apart = [gemv_residual(put(np.zeros(n, np.float32)).partition((bn,)), put(residual[r]), put(x[r]),
                               put(pack_weight(w[r], bn, bk)), BK=bk, EARLY=1).sync()[0].unpartition()
                 for r in range(2)]
        apart_memory = memory([torch.zeros(sites, n, dtype=torch.int64) for _ in range(2)])
        apart_steps = [st.zeros((1,), st.i32).sync() for _ in range(2)]
        for phase in (SEND, RECEIVE):
            for r in range(2):
                out = gemv_peer_sum(fused[r].partition((bn,)), put(residual[r]), put(x[r]),
                                    put(pack_weight(w[r], bn, bk)), steps[r], *fused_memory[r], site, BK=bk, N=n,
                                    EARLY=1, PHASE=phase).sync()
                fused[r], steps[r], fused_memory[r] = out[0].unpartition(), out[4], list(out[5:8])
                out = peer_sum(apart[r].partition((bn,)), apart_steps[r], *apart_memory[r], site, N=n,
                               PHASE=phase).sync()
                apart[r], apart_steps[r], apart_memory[r] = out[0].unpartition(), out[1], list(out[2:5])
        whole = residual[0] + w[0] @ x[0] + w[1] @ x[1]
        for r in range(2):
            np.testing.assert_array_equal(fused[r].numpy(), apart[r].numpy())
            np.testing.assert_allclose(fused[r].numpy(), whole, rtol=1e-5, atol=1e-5)
    assert (inbox[0] >> 32).tolist() == (inbox[1] >> 32).tolist() == [[1] * n] * sites
    assert [a.tolist() for a in alarms] == [[0, 0], [0, 0]]


def test_every_wait_reads_at_least_a_lane_a_thread() -> None:
    """peer.py's waits read their words into a tile of at least one lane per thread of the block
    (``LANES``, ``lanes(warps)``), so the loop's least step is one block-wide value: the fused
    projection's 8-row tile, reduced warp by warp, left warps a turn apart at the loop's barrier
    and hung on two H200s (session 18).  Checked on the IR that runs: every pointer load (the
    alarm's and the words') of ``gemv_peer_sum`` at 8 rows spans ``LANES``, and of ``peer_sum``
    at 64 elements for 8 warps 256 lanes."""
    import re

    import safetile as st
    from qwen3.peer import LANES, gemv_peer_sum, lanes, peer_sum

    assert lanes(None) == LANES == 128 and lanes(8) == 256
    for kernel, values, width in (
            (gemv_peer_sum, {"E": st.f32, "BN": 8, "BK": 16, "K": 64, "WS": (4, 4, 8, 16), "N": 32}, LANES),
            (peer_sum, {"BN": 64, "N": 64, "LANES": lanes(8)}, 256)):
        ir = str(kernel.compile(values))
        spans = re.findall(r"load_ptr_tko .*!cuda_tile\.tile<(\d+)x!cuda_tile\.ptr", ir)
        assert len(spans) == 3 and {int(n) for n in spans} == {width}, spans


def test_the_fused_projections_leave_their_occupancy_to_tileiras() -> None:
    """The smoke of the next test: ``tp.fused_kernel`` keeps the projections' other hints but not
    their 3 blocks an SM (``tp.FUSED_OCCUPANCY``), under which its blocks never started."""
    from qwen3.tp import SHARD_TILES, fused_kernel

    options = fused_kernel(SHARD_TILES).options
    assert SHARD_TILES.o_occupancy == SHARD_TILES.gemv_occupancy == 3
    assert "occupancy" not in ((options.optimization_hints or {}).get("sm_90") or {})
    assert options.load_hints == {"sm_90": {"latency": SHARD_TILES.gemv_latency}}


def register_plan(cubin: Path, cache: Path) -> tuple[int, int]:
    """A warp-specialized kernel's registers: those its block is given (``EIATTR_MAXREG_COUNT``
    times ``REQNTID``'s threads, the pool ``setmaxnreg`` draws on) and those its plan takes (each
    warpgroup that raises, ``USETMAXREG.TRY_ALLOC``, at its count, the others at ``DEALLOC``'s)."""
    import re

    from bytecode_support import cuobjdump

    elf, sass = cuobjdump(cubin, "-elf", cache), cuobjdump(cubin, "-sass", cache)

    def attribute(name: str) -> int:
        return int(re.search(rf"{name}\n\s*Format:.*\n\s*Value:\s*(0x[0-9a-f]+)", elf).group(1), 16)

    threads = attribute("EIATTR_REQNTID")
    raised = [int(n, 16) for n in re.findall(r"USETMAXREG\.TRY_ALLOC\.CTAPOOL UP0, (0x[0-9a-f]+)", sass)]
    lowered = {int(n, 16) for n in re.findall(r"USETMAXREG\.DEALLOC\.CTAPOOL (0x[0-9a-f]+)", sass)}
    assert raised and len(lowered) == 1, (raised, lowered)
    plan = 128 * (sum(raised) + (threads // 128 - len(raised)) * lowered.pop())
    return attribute("EIATTR_MAXREG_COUNT") * threads, plan


@pytest.mark.full  # tileiras and cuobjdump: ~5 CPU-s
def test_the_fused_projections_registers_fit_their_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         cubin_cache: Path) -> None:
    """``tp.fused_kernel`` (o_proj's shapes at Qwen3-14B TP=2, as the decoder launches it) is
    compiled for sm_90 so that its warpgroups' register plan fits the registers its block is
    given: with the projections' occupancy 3 it took 24,576 of 21,504, the raise was never granted
    and every block waited for it -- both of session 18's hangs on two H200s (tp.FUSED_OCCUPANCY).
    The launch runs here on the interpreter, the other rank's words already in the inbox."""
    torch = pytest.importorskip("torch")
    import json

    import safetile as st
    from qwen3.tp import SHARD_TILES, fused_kernel

    monkeypatch.setenv("SAFETILE_AOT_ARCHS", "sm_90")
    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(tmp_path))
    t, n, k = SHARD_TILES, 5120, 2560
    w = torch.zeros(n // t.o_rows, k // t.o_cols, t.o_rows, t.o_cols, dtype=torch.bfloat16)
    memory = [st.unsafe_pointer(st.from_dlpack(v)) for v in (
        torch.full((1, n), 1 << 32, dtype=torch.int64), torch.zeros(1, n, dtype=torch.int64),
        torch.zeros(2, dtype=torch.int32))]
    z, residual, x, steps = (st.zeros(shape, dtype).sync() for shape, dtype in (
        ((n,), st.f32), ((n,), st.f32), ((k,), st.f32), ((1,), st.i32)))
    fused_kernel(t)(z.partition((t.o_rows,)), residual, x, st.from_dlpack(w), steps, *memory, 0, N=n, BK=t.o_cols,
                    **t.reads("o")).sync()
    cubins = [entry.with_suffix(".cubin") for entry in tmp_path.rglob("*.json")
              if any(name.startswith("gemv_peer_sum") for name in json.loads(entry.read_text())["kernels"])]
    assert len(cubins) == 1
    given, taken = register_plan(cubins[0], cubin_cache)
    assert taken <= given, f"the plan takes {taken} registers of the {given} a block is given"


def test_the_default_all_reduce_is_the_fastest_that_runs_there() -> None:
    """Where none is named: the peer all-reduce on two GPUs (session 17's fastest), torch's
    one-shot on more (the peer one sums two), gloo's on the CPU."""
    assert default_all_reduce("cuda:0", 2) == "peer"
    assert default_all_reduce("cuda:1", 4) == "one-shot"
    assert default_all_reduce("cpu", 2) == "group"


def test_a_peer_wait_that_runs_out_raises_the_alarm_and_later_ones_do_not_wait() -> None:
    """The watchdog (peer.py): a rank whose partner never sends waits ``PATIENCE`` turns at site 1,
    writes step 1 and site 1 into its alarm and ends; its next launch, with the patience of a
    hang (more turns than the interpreter would run in the test's time), sees the alarm and does
    not wait; ``check_alarm`` then refuses the results naming the step, the site and the way out."""
    torch = pytest.importorskip("torch")
    import safetile as st
    from qwen3.peer import RECEIVE, PeerTimeout, check_alarm, peer_sum

    n = bn = 16
    inbox, alarm = torch.zeros(2, n, dtype=torch.int64), torch.zeros(2, dtype=torch.int32)
    memory = [st.unsafe_pointer(st.from_dlpack(t)) for t in (inbox, inbox, alarm)]
    steps = st.zeros((1,), st.i32).sync()
    z = st.from_numpy(np.ones(n, np.float32)).sync()
    out = peer_sum(z.partition((bn,)), steps, *memory, 1, N=n, PHASE=RECEIVE, PATIENCE=3).sync()
    assert alarm.tolist() == [1, 1]
    out = peer_sum(out[0], out[1], *out[2:5], 0, N=n, PHASE=RECEIVE, PATIENCE=1 << 30).sync()
    assert alarm.tolist() == [1, 1]
    check_alarm([0, 0], rank=0)
    with pytest.raises(PeerTimeout, match=r"rank 1: the peer all-reduce gave up at step 1, site 1: .* "
                                           r"use all_reduce='one-shot'"):
        check_alarm(alarm.tolist(), rank=1)


def test_the_peer_kernels_unsafe_report_names_its_pointers_and_accesses() -> None:
    """``peer_sum``'s and ``gemv_peer_sum``'s unsafe reports: their three raw pointers and nothing
    but the pointer accesses (the words' stores and loads, the alarm's exchange, offsets) of the
    protocol (the projection's loads are safe ones); ``count`` has none."""
    import safetile as st
    from qwen3.peer import count, gemv_peer_sum, peer_sum

    for report in (peer_sum.unsafe_report(BN=16, N=32),
                   gemv_peer_sum.unsafe_report(E=st.f32, BN=8, BK=16, K=64, WS=(4, 4, 8, 16), N=32)):
        pointers = {line.split("'")[1] for line in report if "raw pointer parameter" in line}
        assert pointers == {"inbox", "peer_inbox", "alarm"}
        ops = {line.rsplit(" ", 1)[1] for line in report if "raw pointer parameter" not in line}
        assert ops == {"cuda_tile.store_ptr_tko", "cuda_tile.atomic_rmw_tko", "cuda_tile.load_ptr_tko",
                       "cuda_tile.offset"}
    assert count.unsafe_report() == []


def test_the_tp_benchmarks_plan_reaches_its_pairs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/tp.py's options for a run that measures one new way: peer-check under its own
    deadline, the table's pair all-reduce, the others after TP=1 and 32B only where one is faster
    reach the ranks (``TABLE_ENV``, ``BIG_ENV``); an unknown way is refused naming the known."""
    import argparse
    import time

    sys.path.insert(0, str(ROOT / "bench"))
    import tp as bench_tp

    pairs: list[tuple[str, dict[str, str], float]] = []
    monkeypatch.setattr(bench_tp, "pair", lambda out, task, env, port, deadline=float("inf"):
                        pairs.append((task, dict(env), deadline - time.monotonic())) or [0, 0])
    bench_tp.run(tmp_path, deadline=200.0, peer_check_deadline=40.0, baseline="peer", others=("peer-fused",),
                 big_if_faster=True)
    (check, _, check_left), (table, env, table_left) = pairs
    assert check == "peer-check" and 39.0 < check_left <= 40.0 and 150.0 < table_left <= 200.0
    assert table == "table-peer"
    assert env[bench_tp.TABLE_ENV] == "peer-fused" and env[bench_tp.BIG_ENV] == "1"
    assert bench_tp.table_ways("peer-fused,peer") == ("peer-fused", "peer")
    with pytest.raises(argparse.ArgumentTypeError, match="unknown all-reduce fused: .* one-shot, peer-fused, peer"):
        bench_tp.table_ways("peer,fused")


def test_the_tp_benchmarks_rounds_run_one_pair_and_nothing_else(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench/tp.py --rounds``: the ratio by the method's rules is one pair of its own (``rounds``),
    without peer-check or the table; the burst rounds' order is a fresh shuffle each round."""
    import random

    sys.path.insert(0, str(ROOT / "bench"))
    import tp as bench_tp

    tasks: list[str] = []
    monkeypatch.setattr(bench_tp, "pair", lambda out, task, env, port, deadline=float("inf"):
                        tasks.append(task) or [0, 0])
    bench_tp.run(tmp_path, deadline=100.0, rounds=True)
    assert tasks == ["rounds"]
    rng = random.Random(bench_tp.ROUNDS_SEED)
    orders = {tuple(rng.sample(["TP=2", "TP=1"], 2)) for _ in range(bench_tp.ROUNDS)}
    assert orders == {("TP=2", "TP=1"), ("TP=1", "TP=2")}  # both orders occur: neither always goes first
