"""Why the peer all-reduce hung (examples/qwen3/peer.py; docs/model.md, session 16): its kernel alone.

    .venv/bin/python bench/peer_probe.py --build sm_90    # here: peer_sum's and count's cubins
    SAFETILE_CACHE_DIR=... timeout 60 python -P bench/peer_probe.py OUT_DIR   # one GPU

Two ranks on one GPU: each rank's ``peer_sum`` on a stream of its own, the inboxes plain device
memory both ranks' launches point into (as peer memory would be), ``SITES`` sites a step for
``STEPS`` steps with ``count`` between: the protocol with nothing of the model around it.  After
each site the host reads both ranks' inboxes on a side stream (the launches may still be
waiting): each block's least step in its words (``steps_in``), until both sums are in or
``WAIT_S`` passes, and prints and saves what it saw (``OUT_DIR/peer-probe.json``): a hang shows
which block's words never arrived, and each rank's watchdog ``alarm`` (peer.py) is saved with
the sums.  Its first form (a flag a block) ran on one H100 after session 16's fix: every flag
arrived and every sum was right; the packed form that replaced it ran on two GPUs in
bench/tp.py (docs/model.md, session 17), not in this probe.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import safetile as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # measure.py, tp.py (also under python -P)

from measure import build_or_run  # noqa: E402

HIDDEN = 5120
SITES, STEPS = 4, 3
WAIT_S = 5.0


def build(arch: str) -> None:
    """The two launches' cubins, as bench/tp.py builds them."""
    import os

    from tp import build_peer

    os.environ["SAFETILE_AOT_ARCHS"] = arch
    build_peer(HIDDEN)
    print(f"peer_sum and count ({HIDDEN}-wide): built for {arch}", flush=True)


def run(out: Path) -> None:
    import torch

    from qwen3 import peer

    out.mkdir(parents=True, exist_ok=True)
    n, tile = HIDDEN, peer.tile(HIDDEN)
    inbox = [torch.zeros(SITES, n, dtype=torch.int64, device="cuda") for _ in range(2)]
    torch.cuda.synchronize()

    def pointer(t: Any) -> Any:
        return st.unsafe_pointer(st.from_dlpack(t))

    alarms = [torch.zeros(peer.ALARM, dtype=torch.int32, device="cuda") for _ in range(2)]
    memory = [[pointer(inbox[r]), pointer(inbox[1 - r]), pointer(alarms[r])] for r in range(2)]
    steps = [st.zeros((1,), st.i32).sync() for _ in range(2)]
    streams, side = [st.Stream("rank 0"), st.Stream("rank 1")], torch.cuda.Stream()
    seen: list[dict[str, Any]] = []
    for step in range(1, STEPS + 1):
        for site in range(SITES):
            parts = [torch.full((n,), float(r + 1 + site), device="cuda") for r in range(2)]
            torch.cuda.synchronize()
            z = [st.from_dlpack(p) for p in parts]
            start, entry = time.perf_counter(), {"step": step, "site": site}
            ops = [peer.peer_sum(z[r].partition((tile,)), steps[r], *memory[r], site, N=n).enqueue(streams[r])
                   for r in range(2)]
            while True:  # each block's least step in the inboxes as the host sees them, beside the launches
                with torch.cuda.stream(side):
                    now = [(words[site] >> 32).view(-1, tile).min(1).values.cpu().tolist() for words in inbox]
                entry["steps_in"] = now
                if all(v == step for f in now for v in f) or time.perf_counter() - start > WAIT_S:
                    break
                time.sleep(0.05)
            entry["seconds"] = time.perf_counter() - start
            done = all(v == step for f in now for v in f)
            if done:
                for r in range(2):
                    z[r], steps[r], memory[r] = ops[r][0].unpartition(), ops[r][1], list(ops[r][2:5])
                entry["sums_right"] = all(float(abs(z[r].numpy() - (3 + 2 * site)).max()) == 0.0 for r in range(2))
                entry["alarms"] = [a.tolist() for a in alarms]
            seen.append(entry)
            print(entry, flush=True)
            (out / "peer-probe.json").write_text(json.dumps(seen, indent=1))
            if not done:
                print("a block's words never arrived: the launches are still waiting (end the process)", flush=True)
                return
        for r in range(2):
            steps[r] = peer.count(steps[r].partition((1,))).enqueue(streams[r])[0].unpartition()


if __name__ == "__main__":
    build_or_run(__doc__, build, run)
