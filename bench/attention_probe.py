"""Where the time of Qwen3's decode attention goes: the launch with parts of its work removed.

    .venv/bin/python bench/attention_probe.py --build sm_90    # here, no GPU: every probe's cubin
    SAFETILE_CACHE_DIR=... python -P bench/attention_probe.py OUT_DIR

Each probe is ``attention_split`` (examples/qwen3/kernels.py) at Qwen3-4B's
shapes (8 kv heads, 4 query heads each, head dim 128, bf16 cache of 2,048
positions, key tile ``BN``) with one part changed; a graph of 36 launches
(one per layer) at position 1,000 is replayed and the time per launch
reported.  Not a correctness check: the probes compute less than attention.

* ``full``: the kernel as the model runs it;
* ``no_rope``: queries normalized but not rotated (no ``cos``/``sin``);
* ``raw_q``: queries as loaded (no norm, no rotation);
* ``no_skip``: no early return for tiles past the position (masked only);
* ``scores``: only the scores' max and sum stored (no weighted values);
* ``loads``: only the key and value tiles loaded and summed;
and ``full`` with the key tile 32 and 128, and with ``occupancy`` 2 and 4.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

import safetile as st
from safetile import f32, i32

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # measure.py (also under python -P)

from measure import build_or_run, seconds_per_launch  # noqa: E402
from qwen3.kernels import (  # noqa: E402
    LOG2E,
    ROWS,
    attend_tile,
    head_rms_norm,
    load_scalar,
    queries,
)
from qwen3.model import hinted  # noqa: E402

KVH, G, D, POSITIONS, POSITION, LAYERS = 8, 4, 128, 2048, 1000, 36


@st.kernel
def probe(
    o_part: st.Mut[f32, (1, "G", "D")],
    lse: st.Mut[f32, (1, "G")],
    qkv: st.Ref[f32, ("QKV",)],
    q_norm: st.Ref["E", ("D",)],
    inv_freq: st.Ref[f32, ("HALF",)],
    k_cache: st.Ref["E", ("KVH", -1, "D")],
    v_cache: st.Ref["E", ("KVH", -1, "D")],
    pos: st.Ref[i32, (1,)],
    eps: f32,
    scale: f32,
    *,
    E: st.DType,
    G: int,
    D: int,
    HALF: int,
    QKV: int,
    KVH: int,
    BN: int,
    PART: int,
):
    """``attention_split`` with part ``PART`` changed (``PARTS``)."""
    kvh, c, _ = st.tile_block_id()
    position = load_scalar(pos)
    if PART != 3:
        if c * BN > position:
            return
    if PART == 1:
        q = head_rms_norm(qkv.partition((G * D,)).load((kvh,)).reshape((G, D)), q_norm, eps) * (scale * LOG2E)
    elif PART == 2:
        q = qkv.partition((G * D,)).load((kvh,)).reshape((G, D)) * (scale * LOG2E)
    else:
        q = queries(qkv, q_norm, inv_freq, kvh, position, eps, scale, G, D)
    kt = k_cache.partition((1, BN, D)).load((kvh, c, 0)).reshape((BN, D))
    vt = v_cache.partition((1, BN, D)).load((kvh, c, 0)).reshape((BN, D))
    if PART == 4:
        keys = st.iota((BN,)).reshape((1, BN)) + c * BN
        s = st.sum(q.reshape((G, 1, D)) * kt.astype(f32).reshape((1, BN, D)), 2)
        s = st.where(keys <= position, s, -1e30)
        m = st.max(s, 1, keepdims=True)
        o_part.store(st.broadcast(m.reshape((1, G, 1)), (1, G, D)))
        lse.store(st.sum(st.exp2(s - m), 1).reshape((1, G)))
    elif PART == 5:
        t = st.sum(kt.astype(f32) + vt.astype(f32), 0).reshape((1, D))
        o_part.store(st.broadcast(t.reshape((1, 1, D)), (1, G, D)))
        lse.store(st.sum(q, 1).reshape((1, G)))
    else:
        attend_tile(o_part, lse, q, kt, vt, c, position, E, BN, ROWS)


PARTS = {"full": 0, "no_rope": 1, "raw_q": 2, "no_skip": 3, "scores": 4, "loads": 5}
PROBES: list[tuple[str, int, int, int | None]] = [
    (name, part, 64, None) for name, part in PARTS.items()
] + [("full, key tile 32", 0, 32, None), ("full, key tile 128", 0, 128, None),
     ("full, occupancy 2", 0, 64, 2), ("full, occupancy 4", 0, 64, 4)]


def buffers(bn: int, rng: np.random.Generator) -> dict[str, Any]:
    qkv = rng.standard_normal((KVH * G + 2 * KVH) * D).astype(np.float32)
    freqs = (1.0 / 1e6 ** (np.arange(0, D, 2) / D)).astype(np.float32)
    return {
        "o_part": st.zeros((KVH, POSITIONS // bn * G, D)).sync(), "lse": st.zeros((KVH, POSITIONS // bn * G)).sync(),
        "qkv": st.from_numpy(qkv).sync(), "q_norm": st.from_numpy(np.ones(D, np.float32), dtype=st.bf16).sync(),
        "freqs": st.from_numpy(freqs).sync(),
        "k": st.from_numpy(rng.standard_normal((KVH, POSITIONS, D)).astype(np.float32), dtype=st.bf16).sync(),
        "v": st.from_numpy(rng.standard_normal((KVH, POSITIONS, D)).astype(np.float32), dtype=st.bf16).sync(),
        "pos": st.from_numpy(np.array([POSITION], np.int32)).sync(),
    }


def launch(run: Any, b: dict[str, Any], k: st.Kernel, bn: int, part: int) -> None:
    """One launch on the buffers of ``b``; the handles it gives back replace them."""
    names = ("o_part", "lse", "qkv", "q_norm", "freqs", "k", "v", "pos")
    args = [b.pop(n) for n in names]
    args[0], args[1] = args[0].partition((1, G, D)), args[1].partition((1, G))
    out = run(k(*args, 1e-6, D ** -0.5, BN=bn, PART=part))
    b.update(zip(names, out))
    b["o_part"], b["lse"] = b["o_part"].unpartition(), b["lse"].unpartition()


def build(arch: str) -> None:
    os.environ["SAFETILE_AOT_ARCHS"] = arch
    rng = np.random.default_rng(0)
    for name, part, bn, occupancy in PROBES:
        b = buffers(bn, rng)
        launch(lambda op: op.sync(), b, hinted(probe, occupancy=occupancy), bn, part)
        print(f"{name}: built for {arch}", flush=True)


def run(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    results = {}
    for name, part, bn, occupancy in PROBES:
        b = buffers(bn, rng)
        with st.Graph.scope() as scope:
            for _ in range(LAYERS):
                launch(scope.record, b, hinted(probe, occupancy=occupancy), bn, part)
        best = seconds_per_launch(scope.graph, LAYERS, replays=20) * 1e6
        results[name] = best
        print(f"{name}: {best:.2f} us a launch", flush=True)
    (out / "attention_probe.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    build_or_run(__doc__, build, run)
