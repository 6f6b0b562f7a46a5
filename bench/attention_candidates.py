"""Attention forward: every plan ``bench/kernels.py`` lists against cuDNN, per case.

    .venv/bin/python bench/attention_candidates.py --build sm_90    # here: every candidate's cubin, resources.md
    SAFETILE_CACHE_DIR=... python -P bench/attention_candidates.py OUT_DIR [--rounds 2] [--steady-s 0.25]
    .venv/bin/python bench/attention_candidates.py --repick OUT_DIR  # here: a run's picks again

The cases are ``bench/kernels.py``'s attention cases (32 heads, f16, d 64 and 128, causal or not,
S = 1024, 4096, 8192).  Per case, two comparisons by ``bench/method.py``'s method against torch
SDPA with cuDNN forced (checked against it first, outputs NaN-poisoned):

* **the candidates**: every plan and cuDNN in ``--rounds`` shuffled burst rounds (each warmed on
  itself, a short cool-down): a plan's burst ratio to cuDNN ranks it;
* **the fastest two**, the plan ``PLANS`` ships for the case (if not one of them) and cuDNN by the
  method in full: burst rounds after a cool-down, cuDNN alone as the control and, from S = 4096,
  ``--steady-s`` seconds of steady state each (the headline of compute-bound work; at S = 1024
  cuDNN's steady figure is host-bound, so the burst one is).  The pick is the fastest of them.

The plans are ``bench/kernels.py``'s ``ATTENTION_CANDIDATES`` and
``ATTENTION_PERSISTENT_AND_REVERSED`` (the reversed ones at causal cases only).

It is the shorter way to the same choice ``bench/kernels.py``'s ``st.autotune`` makes (no FLASH
or Triton peers: their compiles and runs cost GPU time a short session does not have).  OUT_DIR
gets ``candidates.json`` (written after every case), ``candidates.md`` and ``device.txt``.  A
missing cubin stops the run at the first case (a stale cache: rebuild it).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
sys.path.append(str(Path(__file__).resolve().parent))  # kernels, method (python -P leaves it out)

import safetile as st  # noqa: E402
from flash_attention import Plan, attention_plan, launch_plan, planned_kernel  # noqa: E402
from kernels import (  # noqa: E402
    ATTENTION_CANDIDATES,
    ATTENTION_PERSISTENT_AND_REVERSED,
    SPIN_CYCLES,
    Case,
    _matrix,
    cases,
    new_resources,
)
from method import ClockSampler, Method, device_state  # noqa: E402


PEER = "cuDNN"


PLANS_TRIED = ATTENTION_CANDIDATES + ATTENTION_PERSISTENT_AND_REVERSED


def name(plan: Plan) -> str:
    """A plan as the tables write it: ``128x128 O1 rev store-regs latency 2 persistent``."""
    parts = [f"{plan.bm}x{plan.bn}", f"O{plan.order}"] + ["rev"] * plan.reverse + ["store-regs"] * plan.register_store
    parts += [f"latency {plan.latency}"] * bool(plan.latency) + ["persistent"] * plan.persistent
    return " ".join(parts)


def candidates(case: Case, shipped: bool = False) -> tuple[Plan, ...]:
    """The plans tried at a case: every one of ``PLANS_TRIED``, but the reversed ones causal only
    (unmasked, every query tile walks the same keys: the order's direction changes nothing); with
    ``shipped``, the one ``attention`` launches (``--shipped``: a confirming run)."""
    bh, seq, d = case.shape
    causal = case.options["causal"]
    if shipped:
        return (attention_plan(d, bool(causal), seq),)
    return tuple(p for p in PLANS_TRIED if causal or not p.reverse)


def attention_cases() -> list[Case]:
    return [c for c in cases(quick=False) if c.workload == "attention"]


def build(arch: str, shipped: bool) -> None:
    """Every candidate's cubin for ``arch`` into the cache (each ``(d, causal)`` and sequence as
    the run launches it) and a resources table on stdout."""
    print("| d | causal | plan | registers | spill (bytes) | shared memory (bytes) |")
    print("|---|---|---|---|---|---|")
    seen: set[str] = set()
    for case in attention_cases():
        bh, seq, d = case.shape
        q = _matrix(st.f16, case.shape)
        for plan in candidates(case, shipped):
            spec = dict(o=_matrix(st.f16, (bh, seq * d), (1, plan.bm * d)), q=q, k=q, v=q,
                        CAUSAL=case.options["causal"], GROUP=1, **plan.generics())
            (done,) = planned_kernel(plan).warm_up([spec], arch=arch)
            usage = new_resources(done, seen)
            if usage is None:
                continue
            print(f"| {d} | {case.options['causal']} | {name(plan)} | {usage.registers} | {usage.spill_bytes} | "
                  f"{usage.shared_bytes} |", flush=True)


def _launch(plan: Plan, out: Any, a: dict[str, Any], case: Case) -> Any:
    """``plan``'s launch on ``a``'s tensors into ``out`` (torch), prepared (checked and packed once)."""
    bh, seq, d = case.shape
    t = st.as_tensor
    return launch_plan(plan, t(out.view(bh, seq * d)), t(a["q"]), t(a["k"]), t(a["v"]), 1 / math.sqrt(d),
                       causal=bool(case.options["causal"])).prepare()


def run_case(case: Case, torch: Any, stream: Any, sampler: ClockSampler, rounds: int,
             steady_s: float, shipped: bool) -> dict[str, Any]:
    from torch.nn.attention import SDPBackend, sdpa_kernel

    bh, seq, d = case.shape
    causal = case.options["causal"]
    gen = torch.Generator(device="cuda").manual_seed(0)
    a = {n: torch.randn(*case.shape, device="cuda", dtype=torch.float16, generator=gen) for n in "qkv"}
    q4, k4, v4 = (a[n].view(bh // 8, 8, seq, d) for n in "qkv")

    def cudnn() -> Any:
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return torch.nn.functional.scaled_dot_product_attention(q4, k4, v4, is_causal=bool(causal))

    st_stream = st.current_backend().default_stream
    with torch.cuda.stream(stream):
        reference = cudnn().reshape(case.shape).float()
        calls: dict[str, Any] = {PEER: cudnn}
        errors: dict[str, float] = {}
        held = []
        for plan in candidates(case, shipped):
            out = torch.full_like(a["q"], math.nan)
            prepared = _launch(plan, out, a, case)
            prepared.enqueue()
            stream.synchronize()
            got = out.float()
            if torch.isnan(got).any():
                raise RuntimeError(f"{case.name}: {name(plan)} left NaN in its output")
            errors[name(plan)] = ((got - reference).abs().max() / reference.abs().max()).item()
            if not errors[name(plan)] < 0.1:
                raise RuntimeError(f"{case.name}: {name(plan)}: relative error {errors[name(plan)]:.3g}")
            calls[name(plan)] = prepared.enqueue
            held.append(prepared)
        spin = lambda: torch.cuda._sleep(SPIN_CYCLES)  # noqa: E731
        probe = Method(rounds=rounds, warm=5, reps=5, cool_s=0.03).compare(calls, PEER, st_stream, spin=spin)
        ranked = sorted((n for n in calls if n != PEER), key=lambda n: -(probe.ratio(n, PEER) or 0))
        shipped_name = name(attention_plan(d, bool(causal), seq))
        finalists = list(dict.fromkeys(ranked[:2] + [shipped_name]))  # the shipped plan too: new against old
        method = Method(rounds=3, warm=10, reps=3, cool_s=0.1, steady_s=steady_s if seq >= 4096 else 0.0)
        final = method.compare({n: calls[n] for n in finalists + [PEER]}, PEER, st_stream, sampler=sampler,
                               spin=spin)
        for prepared in held:
            prepared.release()
    work = 4.0 * bh * seq * seq * d / (2 if causal else 1)
    row: dict[str, Any] = dict(case=case.name, d=d, causal=causal, seq=seq, shipped_before=shipped_name, errors=errors,
                               probe={n: dict(burst_ms=1e3 * min(probe.burst[n]),
                                              ratio=probe.ratio(n, PEER)) for n in calls},
                               probe_orders=probe.orders, ranked=ranked)
    row["final"] = {n: final.summary(n) | dict(rate=work / final.summary(n)["burst_s"] / 1e12) for n in final.burst}
    for n in final.burst:
        if "steady_s" in row["final"][n]:
            row["final"][n]["steady_rate"] = work / row["final"][n]["steady_s"] / 1e12
    row["pick"] = choose(row)
    row["final_orders"] = final.orders
    row["control_rate"] = work / statistics.median(final.control) / 1e12 if final.control else None
    return row


def choose(row: dict[str, Any]) -> dict[str, Any]:
    """The pick of a case: the finalist (``row["final"]`` but cuDNN) with the best headline ratio,
    burst at S = 1024 (cuDNN's steady figure is host-bound there), steady from 4096."""
    regime = "steady_ratio" if row["seq"] >= 4096 else "burst_ratio"
    pick = max((n for n in row["final"] if n != PEER), key=lambda n: row["final"][n][regime] or 0)
    return dict(name=pick, headline=regime, ratio=row["final"][pick][regime],
                plan=next(p._asdict() for p in PLANS_TRIED if name(p) == pick))


def repick(folder: Path) -> None:
    """A run's picks by ``choose`` again, its candidates.json and .md rewritten: run -s8's script
    picked among the probe's two fastest only, not the shipped plan it also timed (the pick it made
    is kept as ``pick_in_run``)."""
    path = folder / "candidates.json"
    run = json.loads(path.read_text())
    for row in run["rows"]:
        row.setdefault("pick_in_run", row["pick"])
        row["pick"] = choose(row)
    path.write_text(json.dumps(run, indent=1))
    (folder / "candidates.md").write_text(markdown(run["rows"]))


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| d | causal | S | probe: fastest, runner-up (burst ratio) | pick | pick burst / steady TFLOP/s | "
             "cuDNN burst / steady / alone TFLOP/s | pick vs cuDNN burst | steady | shipped before: plan, headline |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ranked = ", ".join(f"{n} ({r['probe'][n]['ratio']:.3f})" for n in r["ranked"][:2])
        pick, peer = r["final"][r["pick"]["name"]], r["final"][PEER]

        def steady(x: dict[str, Any], key: str, form: str) -> str:
            return format(x[key], form) if x.get(key) else "-"

        lines.append(f"| {r['d']} | {r['causal']} | {r['seq']} | {ranked} | {r['pick']['name']} | "
                     f"{pick['rate']:.0f} / {steady(pick, 'steady_rate', '.0f')} | {peer['rate']:.0f} / "
                     f"{steady(peer, 'steady_rate', '.0f')} / {r['control_rate']:.0f} | {pick['burst_ratio']:.3f} | "
                     f"{steady(pick, 'steady_ratio', '.3f')} | {r['shipped_before']}, "
                     f"{r['final'][r['shipped_before']][r['pick']['headline']]:.3f} |")
    lines += ["", "Every candidate's probe ratio (burst, to cuDNN; above 1: faster):", ""]
    names = [name(p) for p in PLANS_TRIED]
    lines += ["| plan | " + " | ".join(f"d{r['d']} c{r['causal']} {r['seq']}" for r in rows) + " |",
              "|---|" + "---|" * len(rows)]
    for n in names:
        lines.append(f"| {n} | " + " | ".join(f"{r['probe'][n]['ratio']:.3f}" if n in r["probe"] else "-"
                                              for r in rows) + " |")
    return "\n".join(lines) + "\n"


def run(out: Path, rounds: int, steady_s: float, budget_s: float, shipped: bool) -> None:
    import torch

    out.mkdir(parents=True, exist_ok=True)
    state = device_state() | dict(torch=torch.__version__, date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    (out / "device.txt").write_text(json.dumps(state, indent=1) + "\n")
    print(state, flush=True)
    started = time.perf_counter()
    stream = torch.cuda.ExternalStream(int(st.current_backend().default_stream.handle))
    rows: list[dict[str, Any]] = []
    with ClockSampler() as sampler:
        for case in attention_cases():
            if time.perf_counter() - started > budget_s:
                print(f"stopped before {case.name}: {budget_s:.0f} s spent", flush=True)
                break
            t0 = time.perf_counter()
            rows.append(run_case(case, torch, stream, sampler, rounds, steady_s, shipped))
            r = rows[-1]
            best = r["pick"]["name"]
            print(f"{case.name}: {best} probe {r['probe'][best]['ratio']:.3f}, final burst "
                  f"{r['final'][best]['burst_ratio']:.3f} steady {r['final'][best].get('steady_ratio')} "
                  f"(shipped before: {r['shipped_before']} {r['probe'].get(r['shipped_before'], {}).get('ratio')}) "
                  f"[{time.perf_counter() - t0:.1f} s]", flush=True)
            (out / "candidates.json").write_text(json.dumps(dict(rows=rows, clocks=sampler.samples), indent=1))
    (out / "candidates.md").write_text(markdown(rows))
    print(markdown(rows), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", type=Path, help="where the results go (on the GPU)")
    parser.add_argument("--build", metavar="ARCH", help="compile every candidate for ARCH here (no GPU)")
    parser.add_argument("--rounds", type=int, default=2, help="burst rounds of the candidates' probe")
    parser.add_argument("--steady-s", type=float, default=0.25, help="steady seconds each, finalists, S >= 4096")
    parser.add_argument("--budget-s", type=float, default=1e9, help="start no case after this many seconds")
    parser.add_argument("--repick", type=Path, metavar="DIR", help="here: a run's picks again (see repick)")
    parser.add_argument("--shipped", action="store_true", help="the plan PLANS ships for each case only "
                        "(a confirming run of the picks against cuDNN)")
    args = parser.parse_args()
    if args.build:
        os.environ["SAFETILE_AOT_ARCHS"] = args.build
        build(args.build, args.shipped)
    elif args.repick:
        repick(args.repick)
    elif args.out:
        run(args.out, args.rounds, args.steady_s, args.budget_s, args.shipped)
    else:
        parser.error("give OUT_DIR (on the GPU) or --build ARCH")


if __name__ == "__main__":
    main()
