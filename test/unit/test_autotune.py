"""``@st.autotune`` on the CPU: selection with an injected timer, outputs kept intact,
the on-disk record (reuse, invalidation, concurrent processes), pruning, the switches.

The timers here are fakes: ``do_bench=`` gives each config a known time (in the
order configs are timed), so that the choice is known.  A backend that runs
kernels on the interpreter but builds cubins for sm_90 (``BuildingCpu``)
stands for a GPU where the tuner reads resources from cubins.
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile import f32
from safetile.backend.resources import KernelResources
from safetile.frontend.errors import CompileError
from safetile.runtime import autotune as tuner
from safetile.runtime import backend as backends
from safetile.runtime.cpu import CpuBackend
from safetile.runtime.errors import LaunchRefused

ROOT = Path(__file__).resolve().parents[2]
N = 128


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(folder))
    monkeypatch.delenv("SAFETILE_AUTOTUNE", raising=False)
    monkeypatch.delenv("SAFETILE_AUTOTUNE_REPORT", raising=False)
    monkeypatch.delenv("SAFETILE_AOT_ARCHS", raising=False)
    return folder


class FakeTimer:
    """``do_bench``: runs the launch once and answers the next of ``times``."""

    def __init__(self, *times: float):
        self.times = list(times)
        self.calls = 0

    def __call__(self, fn: Callable[[], Any]) -> float:
        fn()
        self.calls += 1
        return self.times[self.calls - 1]


def accumulate_kernel() -> st.Kernel:
    """z += x: a kernel that reads the output it writes (tuning must not run it into the result)."""

    @st.kernel
    def acc(z: st.Mut[f32, ("B",)], x: st.Ref[f32, (-1,)], *, B: int):
        z.store(z.load() + st.load_tile_like(x, z))

    return acc


def vectors(z: float = 1.0) -> tuple[st.Tensor, st.Tensor]:
    return st.full((N,), z).sync(), st.from_numpy(np.arange(N, dtype=np.float32)).sync()


def test_the_fastest_config_is_chosen_and_later_launches_go_straight_to_it() -> None:
    timer = FakeTimer(3.0, 1.0, 2.0)
    acc = st.autotune(configs=[dict(B=16), dict(B=32), dict(B=64)], key=["x"], do_bench=timer)(accumulate_kernel())
    z, x = acc(*vectors()).sync()
    assert timer.calls == 3
    (tuning,) = acc.tunings.values()
    assert (tuning.chosen, tuning.how, [o.ms for o in tuning.outcomes]) == (1, "timed", [3.0, 1.0, 2.0])
    z, x = acc(z, x).sync()
    assert timer.calls == 3
    np.testing.assert_array_equal(z.numpy(), 1.0 + 2 * np.arange(N))


def test_the_outputs_are_intact_after_tuning_a_kernel_that_writes_what_it_reads() -> None:
    acc = st.autotune(configs=[dict(B=16), dict(B=32)], key=["x"], do_bench=FakeTimer(1.0, 2.0))(accumulate_kernel())
    z, x = acc(*vectors(5.0)).sync()
    assert type(z) is st.Tensor  # given back as passed
    np.testing.assert_array_equal(z.numpy(), 5.0 + np.arange(N))


def test_an_output_passed_partitioned_comes_back_partitioned_as_the_chosen_config_tiles_it() -> None:
    acc = st.autotune(configs=[dict(B=16), dict(B=32)], key=["x"], do_bench=FakeTimer(2.0, 1.0))(accumulate_kernel())
    z, x = vectors()
    part, x = acc(z.partition((64,)), x).sync()
    assert isinstance(part, st.Partition) and part.shape == (32,)
    np.testing.assert_array_equal(part.unpartition().numpy(), 1.0 + np.arange(N))


def test_a_new_key_tunes_again_and_the_report_lists_every_config() -> None:
    timer = FakeTimer(2.0, 1.0, 1.0, 2.0)
    acc = st.autotune(configs=[dict(B=16), dict(B=32)], key=["x"], do_bench=timer)(accumulate_kernel())
    acc(*vectors()).sync()
    acc(st.full((2 * N,), 1.0).sync(), st.full((2 * N,), 1.0).sync()).sync()
    assert timer.calls == 4
    assert sorted(acc.tunings) == ["x=f32[128]", "x=f32[256]"]
    report = acc.report()
    assert "| 1: B=32 | 1.0000 | chosen |" in report and "| 0: B=16 | 1.0000 | chosen |" in report


def test_a_key_function_of_the_arguments() -> None:
    timer = FakeTimer(2.0, 1.0, 1.0, 2.0)
    acc = st.autotune(configs=[dict(B=16), dict(B=32)], key=lambda z, x: x.shape[0] > 200, do_bench=timer)(
        accumulate_kernel())
    acc(*vectors()).sync()
    acc(st.full((2 * N,), 1.0).sync(), st.full((2 * N,), 1.0).sync()).sync()
    assert sorted(acc.tunings) == ["False", "True"]


def test_the_report_is_printed_when_asked(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SAFETILE_AUTOTUNE_REPORT", "1")
    acc = st.autotune(configs=[dict(B=16), dict(B=32)], key=["x"], do_bench=FakeTimer(2.0, 1.0))(accumulate_kernel())
    acc(*vectors()).sync()
    assert "| 1: B=32 | 1.0000 | chosen |" in capsys.readouterr().err


def test_SAFETILE_AUTOTUNE_0_runs_the_first_config_untimed(monkeypatch: pytest.MonkeyPatch, cache_dir: Path) -> None:
    monkeypatch.setenv("SAFETILE_AUTOTUNE", "0")
    timer = FakeTimer()
    acc = st.autotune(configs=[dict(B=16), dict(B=32)], key=["x"], do_bench=timer)(accumulate_kernel())
    z, _ = acc(*vectors()).sync()
    (tuning,) = acc.tunings.values()
    assert (timer.calls, tuning.chosen) == (0, 0) and "SAFETILE_AUTOTUNE=0" in tuning.how
    assert not (cache_dir / "autotune-v1").exists()
    np.testing.assert_array_equal(z.numpy(), 1.0 + np.arange(N))


def test_the_cpu_interpreter_runs_the_first_config_and_says_so_once(monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tuner, "_said_cpu", False)
    acc = st.autotune(configs=[dict(B=16), dict(B=32)], key=["x"])(accumulate_kernel())
    z, x = acc(*vectors()).sync()
    acc(st.full((2 * N,), 1.0).sync(), st.full((2 * N,), 1.0).sync()).sync()
    assert capsys.readouterr().err.count("the CPU interpreter does not time kernels") == 1
    assert [t.chosen for t in acc.tunings.values()] == [0, 0]


# -- pruning -------------------------------------------------------------------


def test_prune_configs_by_drops_configs_before_timing(capsys: pytest.CaptureFixture[str]) -> None:
    timer = FakeTimer(1.0)
    seen: list[Any] = []

    def only_big(configs: list[st.Config], args: dict[str, Any]) -> list[st.Config]:
        seen.append(sorted(args))
        return [c for c in configs if c.values["B"] >= 32]

    acc = st.autotune(configs=[dict(B=16), dict(B=32)], key=["x"], do_bench=timer, prune_configs_by=only_big)(
        accumulate_kernel())
    acc(*vectors()).sync()
    (tuning,) = acc.tunings.values()
    assert (timer.calls, tuning.chosen, seen) == (1, 1, [["x", "z"]])
    assert "dropped config 0 (B=16): pruned by prune_configs_by" in capsys.readouterr().err


def test_a_config_that_does_not_compile_is_dropped_with_a_note(capsys: pytest.CaptureFixture[str]) -> None:
    timer = FakeTimer(1.0)
    acc = st.autotune(configs=[dict(B=24), dict(B=32)], key=["x"], do_bench=timer)(accumulate_kernel())
    z, _ = acc(*vectors()).sync()
    (tuning,) = acc.tunings.values()
    assert (timer.calls, tuning.chosen) == (1, 1)
    assert "dropped config 0 (B=24): does not compile" in capsys.readouterr().err
    assert "powers of two" in (tuning.outcomes[0].note or "")
    np.testing.assert_array_equal(z.numpy(), 1.0 + np.arange(N))


def test_no_config_that_can_run_is_an_error_listing_each_reason() -> None:
    acc = st.autotune(configs=[dict(B=24), dict(B=48)], key=["x"], do_bench=FakeTimer())(accumulate_kernel())
    with pytest.raises(tuner.AutotuneError, match=r"no config can run.*config 0 \(B=24\): does not compile.*"
                                                   r"config 1 \(B=48\): does not compile"):
        acc(*vectors())


class BuildingCpu(CpuBackend):
    """Runs kernels on the interpreter, and builds each launch's cubin for sm_90 (as on an H100)."""

    target = "sm_90"
    device_name = "test device"
    shared_memory_per_block = 4096


@pytest.fixture
def building_cpu(monkeypatch: pytest.MonkeyPatch) -> Iterator[BuildingCpu]:
    backend = BuildingCpu("test")
    monkeypatch.setattr(backends, "_current", backend)
    yield backend


def test_configs_that_exceed_shared_memory_or_spill_are_dropped(building_cpu: BuildingCpu,
                                                                 monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    usage = {"acc_16": KernelResources(32, 1024, 0, 0), "acc_32": KernelResources(32, 8192, 0, 0),
             "acc_64": KernelResources(255, 1024, 96, 0)}
    monkeypatch.setattr(tuner, "kernel_resources", lambda cubin, symbol: usage[symbol])
    timer = FakeTimer(1.0)
    acc = st.autotune(configs=[dict(B=16), dict(B=32), dict(B=64)], key=["x"], do_bench=timer)(accumulate_kernel())
    z, _ = acc(*vectors()).sync()
    err = capsys.readouterr().err
    assert "dropped config 1 (B=32): uses 8192 bytes of shared memory, the device has 4096" in err
    assert "dropped config 2 (B=64): spills 96 bytes per thread" in err
    assert timer.calls == 1
    np.testing.assert_array_equal(z.numpy(), 1.0 + np.arange(N))


def test_spilling_configs_are_kept_when_nothing_else_is_left(building_cpu: BuildingCpu,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tuner, "kernel_resources", lambda cubin, symbol: KernelResources(255, 0, 64, 0))
    timer = FakeTimer(2.0, 1.0)
    acc = st.autotune(configs=[dict(B=16), dict(B=32)], key=["x"], do_bench=timer)(accumulate_kernel())
    acc(*vectors()).sync()
    (tuning,) = acc.tunings.values()
    assert (timer.calls, tuning.chosen, tuning.outcomes[0].note) == (2, 1, "spills 64 bytes per thread")


def test_the_record_names_the_toolchain_and_a_record_of_another_toolchain_is_tuned_again(
        building_cpu: BuildingCpu, cache_dir: Path) -> None:
    kernel = accumulate_kernel()
    first = FakeTimer(2.0, 1.0)
    st.autotune(configs=[dict(B=16), dict(B=32)], key=["x"], do_bench=first)(kernel)(*vectors()).sync()
    (path,) = (cache_dir / "autotune-v1" / "acc").glob("*.json")
    record = json.loads(path.read_text())
    assert record["identity"]["toolchain"] == "tileiras-13.4.92"
    again = FakeTimer(1.0, 2.0)
    reused = st.autotune(configs=[dict(B=16), dict(B=32)], key=["x"], do_bench=again)(kernel)
    reused(*vectors()).sync()
    assert again.calls == 0 and next(iter(reused.tunings.values())).how == f"from {path}"
    record["identity"]["toolchain"] = "tileiras-13.3.0"  # carried from a machine with another release
    path.write_text(json.dumps(record))
    retuned = st.autotune(configs=[dict(B=16), dict(B=32)], key=["x"], do_bench=again)(kernel)
    retuned(*vectors()).sync()
    assert again.calls == 2 and next(iter(retuned.tunings.values())).chosen == 0
    assert json.loads(path.read_text())["identity"]["toolchain"] == "tileiras-13.4.92"


def test_SAFETILE_AOT_ARCHS_builds_every_candidate_on_the_cpu(monkeypatch: pytest.MonkeyPatch,
                                                               cache_dir: Path) -> None:
    monkeypatch.setenv("SAFETILE_AOT_ARCHS", "sm_90")
    acc = st.autotune(configs=[dict(B=16), dict(B=32), dict(B=64)], key=["x"])(accumulate_kernel())
    acc(*vectors()).sync()
    built = sorted(json.loads(p.read_text())["kernels"][0] for p in cache_dir.glob("cubin-v1/*/*/*.json"))
    assert built == ["acc_16", "acc_32", "acc_64"]


def test_warm_up_builds_every_config_for_an_arch(cache_dir: Path) -> None:
    acc = st.autotune(configs=[dict(B=16), dict(B=32)], key=["x"])(accumulate_kernel())
    vector = st.TensorSpec(f32, (N,), (1,), None, True)
    done = st.warm_up(acc, [dict(z=vector, x=vector)], arch="sm_90")
    assert [(w.symbol, w.compiled) for w in done] == [("acc_16", False), ("acc_32", False)]  # built by the pool
    assert all(w.cubin is not None and w.cubin.is_file() for w in done)
    assert [w.compiled for w in st.warm_up(acc, [dict(z=vector, x=vector)], arch="sm_90")] == [False, False]


# -- mistakes ----------------------------------------------------------------------


def test_a_config_setting_an_unknown_generic_is_an_error_at_the_autotune_line() -> None:
    acc = st.autotune(configs=[dict(B=16), dict(BX=32)], key=["x"])(accumulate_kernel())  # the line
    with pytest.raises(CompileError) as info:
        acc(*vectors())
    err = info.value
    assert Path(err.file).name == "test_autotune.py" and err.line > 0
    assert "config 1 (BX=32) sets 'BX', which is not a generic of 'acc'" in str(err)
    assert "configs=[dict(B=16), dict(BX=32)]" in str(err) and "configs set generics (B)" in str(err)


def test_a_key_naming_no_parameter_is_an_error() -> None:
    acc = st.autotune(configs=[dict(B=16)], key=["w"])(accumulate_kernel())
    with pytest.raises(CompileError, match="key names 'w', which is not a parameter of 'acc'"):
        acc(*vectors())


def test_a_launch_passing_a_tuned_generic_is_refused() -> None:
    acc = st.autotune(configs=[dict(B=16)], key=["x"])(accumulate_kernel())
    z, x = vectors()
    with pytest.raises(LaunchRefused, match="B chosen by @st.autotune"):
        acc(z, x, B=32)
    assert z.is_live and x.is_live


def test_autotune_wraps_a_kernel() -> None:
    with pytest.raises(CompileError, match="@st.autotune wraps a @st.kernel"):
        st.autotune(configs=[dict(B=16)], key=[])(lambda: None)


# -- across processes ----------------------------------------------------------------

SCRIPT = """
import json, sys, time
sys.path.insert(0, {folder!r})
import numpy as np
import safetile as st
from kernel_module import acc

calls = []
def timer(fn):
    fn()
    calls.append(1)
    time.sleep({sleep})
    return [3.0, 1.0, 2.0][len(calls) - 1]

tuned = st.autotune(configs=[dict(B=16), dict(B=32), dict(B=64)], key=["x"], do_bench=timer)(acc)
z, x = tuned(st.full(({n},), 1.0).sync(), st.from_numpy(np.arange({n}, dtype=np.float32)).sync()).sync()
(tuning,) = tuned.tunings.values()
print(json.dumps(dict(timed=len(calls), chosen=tuning.chosen, ok=bool((z.numpy() == 1 + np.arange({n})).all()))))
"""

KERNEL = """
import safetile as st
from safetile import f32

@st.kernel
def acc(z: st.Mut[f32, ("B",)], x: st.Ref[f32, (-1,)], *, B: int):
    z.store(z.load() + st.load_tile_like(x, z){extra})
"""


def write_tuner(folder: Path, sleep: float) -> Path:
    script = folder / "tune.py"
    script.write_text(SCRIPT.format(folder=str(folder), sleep=sleep, n=N))
    return script


def run_tuner_here(folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """What ``run_tuner``'s script reports run in this process: it shares nothing with the
    processes before it but the records on disk (``SAFETILE_CACHE_DIR``, the ``cache_dir`` fixture)."""
    monkeypatch.setattr(sys, "path", list(sys.path))  # the script's own entry goes with the test
    monkeypatch.delitem(sys.modules, "kernel_module", raising=False)
    capsys.readouterr()
    runpy.run_path(str(write_tuner(folder, 0.0)))
    del sys.modules["kernel_module"]  # a changed file is imported afresh
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def run_tuner(folder: Path, cache_dir: Path, sleep: float = 0.0, count: int = 1) -> list[dict[str, Any]]:
    """``count`` processes tuning ``folder/kernel_module.py``'s kernel at once; what each reports."""
    script = write_tuner(folder, sleep)
    env = {**os.environ, "SAFETILE_CACHE_DIR": str(cache_dir), "SAFETILE_BACKEND": "cpu"}
    procs = [subprocess.Popen([sys.executable, str(script)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(count)]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def test_concurrent_processes_tune_a_problem_once_and_a_changed_kernel_is_tuned_again(
        tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Two processes at once: one times the configs, the other waits for its record and takes it.
    Then this process (a third, later one) reads the record; a changed kernel is a new problem.
    The later readers run here: a process of their own would only add its imports (~1 CPU-s)."""
    (tmp_path / "kernel_module.py").write_text(KERNEL.format(extra=""))
    results = run_tuner(tmp_path, cache_dir, sleep=0.3, count=2)
    assert sorted(r["timed"] for r in results) == [0, 3]
    assert all(r["chosen"] == 1 and r["ok"] for r in results)
    (path,) = (cache_dir / "autotune-v1" / "acc").glob("*.json")
    assert json.loads(path.read_text())["chosen"] == "B=32"
    assert run_tuner_here(tmp_path, monkeypatch, capsys) == dict(timed=0, chosen=1, ok=True)
    (tmp_path / "kernel_module.py").write_text(KERNEL.format(extra=" * 1.0"))
    assert run_tuner_here(tmp_path, monkeypatch, capsys) == dict(timed=3, chosen=1, ok=True)
    assert len(list((cache_dir / "autotune-v1" / "acc").glob("*.json"))) == 2


def test_the_example_gemm_tunes_its_tiles_and_hints() -> None:
    sys.path.insert(0, str(ROOT / "examples"))
    from gemm import gemm

    configs = [dict(BM=32, BN=32, BK=32), dict(BM=64, BN=32, BK=32,
                                               optimization_hints={"sm_90": {"num_worker_warps_per_cta": 8}},
                                               load_hints={"sm_90": {"latency": 6}})]
    tuned = st.autotune(configs=configs, key=["x", "y"], do_bench=FakeTimer(2.0, 1.0))(gemm)
    a, b = np.ones((64, 32), np.float32), np.full((32, 64), 2.0, np.float32)
    z, _, _ = tuned(st.zeros((64, 64)).sync(), st.from_numpy(a).sync(), st.from_numpy(b).sync()).sync()
    np.testing.assert_array_equal(z.numpy(), a @ b)
    (tuning,) = tuned.tunings.values()
    assert tuning.chosen == 1 and tuned.candidates[1].options.load_hints == {"sm_90": {"latency": 6}}
    assert tuning.outcomes[1].config == ("BM=64 BN=32 BK=32 load_hints={'sm_90': {'latency': 6}} "
                                         "optimization_hints={'sm_90': {'num_worker_warps_per_cta': 8}}")



def test_a_tile_no_config_sets_comes_from_the_partition_passed() -> None:
    @st.kernel
    def scale(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], a: f32, *, S: st.Shape):
        z.store(st.load_tile_like(x, z) * a)

    tuned = st.autotune(configs=[dict(), dict(load_hints={"sm_90": {"latency": 6}})], key=["x"],
                        do_bench=FakeTimer(2.0, 1.0))(scale)
    z, x = vectors()
    part, x, _ = tuned(z.partition((32,)), x, 3.0).sync()
    assert part.shape == (32,) and next(iter(tuned.tunings.values())).chosen == 1
    np.testing.assert_array_equal(part.unpartition().numpy(), 3.0 * np.arange(N))
    with pytest.raises(LaunchRefused, match="'z' is tiled by S, which config 1 does not set: pass it partitioned"):
        tuned(st.full((N,), 1.0).sync(), x, 3.0)


def test_the_real_timer_times_prepared_launches() -> None:
    acc = st.autotune(configs=[dict(B=16), dict(B=128)], key=["x"],
                      do_bench=lambda fn: float(st.testing.do_bench(fn, warmup=1, rep=5)))(accumulate_kernel())
    z, _ = acc(*vectors()).sync()
    (tuning,) = acc.tunings.values()
    assert all(o.ms is not None and o.ms > 0 for o in tuning.outcomes)
    np.testing.assert_array_equal(z.numpy(), 1.0 + np.arange(N))
