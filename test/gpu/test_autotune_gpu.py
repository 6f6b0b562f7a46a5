"""The autotuner on the GPU (marked ``gpu``): it times two GEMM configs known to differ
by more than 2x, picks the faster, keeps the choice on disk, and a fresh tuner reuses
it without timing; tuning a kernel that reads its output leaves the output as it was.

The cubins come from the cache (``SAFETILE_CACHE_DIR``), built ahead of time by
test/gpu/build_cache.py (``warm_up_specs()``); the records are written to a
temporary folder beside a link to that cache's cubins, so each run tunes afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safetile as st
from gemm import gemm
from safetile import f16, f32
from safetile.backend.cache import LAYOUT, default_cache_dir
from safetile.runtime import current_backend

pytestmark = pytest.mark.gpu

SIZE = 2048
SLOW = dict(BM=32, BN=32, BK=32)
"""Small tiles: far from the tensor cores' rate (over 2x slower than FAST, by a wide margin)."""
FAST = dict(BM=128, BN=128, BK=64)
N, TILES = 1 << 20, (dict(B=1024), dict(B=4096))


@st.kernel
def accumulate(z: st.Mut[f32, ("B",)], x: st.Ref[f32, (-1,)], *, B: int):
    z.store(z.load() + st.load_tile_like(x, z))


def warm_up_specs() -> list[tuple[Any, dict[str, Any]]]:
    """The variants these tests launch, every config (for build_cache.py)."""
    square = st.TensorSpec(f16, (SIZE, SIZE), (SIZE, 1), None, True)
    vector = st.TensorSpec(f32, (N,), (1,), None, True)
    return [(st.autotune(configs=[SLOW, FAST], key=["x"])(gemm), dict(z=square, x=square, y=square)),
            (st.autotune(configs=list(TILES), key=["x"])(accumulate), dict(z=vector, x=vector))]


@pytest.fixture(autouse=True)
def records_in_a_fresh_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if current_backend().name != "cuda":
        pytest.skip("times kernels on the cuda backend")
    cubins = default_cache_dir() / LAYOUT
    if cubins.is_dir():
        (tmp_path / LAYOUT).symlink_to(cubins.resolve(), target_is_directory=True)
    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("SAFETILE_AUTOTUNE", raising=False)


def counting_timer() -> tuple[Callable[[Callable[[], Any]], float], list[float]]:
    """``st.testing.do_bench``, keeping each time it measures."""
    times: list[float] = []

    def timer(fn: Callable[[], Any]) -> float:
        times.append(float(st.testing.do_bench(fn)))
        return times[-1]

    return timer, times


def test_the_tuner_picks_the_faster_config_keeps_it_and_a_fresh_tuner_reuses_it(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((SIZE, SIZE), dtype=np.float32).astype(np.float16)
    b = rng.standard_normal((SIZE, SIZE), dtype=np.float32).astype(np.float16)
    x, y = st.from_numpy(a).sync(), st.from_numpy(b).sync()
    timer, times = counting_timer()
    tuned = st.autotune(configs=[SLOW, FAST], key=["x", "y"], do_bench=timer)(gemm)
    z, x, y = tuned(st.full((SIZE, SIZE), np.nan, f16).sync(), x, y).sync()
    (tuning,) = tuned.tunings.values()
    print(tuned.report())
    assert len(times) == 2 and times[0] > 2 * times[1], times
    assert tuning.chosen == 1 and tuning.how == "timed"
    np.testing.assert_allclose(z.numpy()[:64], a[:64].astype(np.float32) @ b.astype(np.float32), rtol=1e-2, atol=0.5)
    (record,) = (tmp_path / "autotune-v1" / "gemm").glob("*.json")

    timer, times = counting_timer()
    fresh = st.autotune(configs=[SLOW, FAST], key=["x", "y"], do_bench=timer)(gemm)
    z, x, y = fresh(z, x, y).sync()
    (reused,) = fresh.tunings.values()
    assert times == [] and (reused.chosen, reused.how) == (1, f"from {record}")


def test_tuning_leaves_an_output_the_kernel_reads_as_it_was() -> None:
    tuned = st.autotune(configs=list(TILES), key=["x"])(accumulate)
    x = np.arange(N, dtype=np.float32)
    z, _ = tuned(st.full((N,), 2.0).sync(), st.from_numpy(x).sync()).sync()
    (tuning,) = tuned.tunings.values()
    assert tuning.how == "timed" and all(o.ms for o in tuning.outcomes)
    np.testing.assert_array_equal(z.numpy(), 2.0 + x)


def test_do_bench_gives_device_time_and_quantiles() -> None:
    p = accumulate(st.zeros((N,)).sync().partition((1024,)), st.zeros((N,)).sync()).prepare()
    low, median, high = st.testing.do_bench(p.enqueue, quantiles=[0.2, 0.5, 0.8])
    p.release()
    assert 0 < low <= median <= high < 5.0  # 12 MiB moved: microseconds on any GPU
