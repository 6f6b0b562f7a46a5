"""The row kernels at any width and the GEMM launcher, on the CPU interpreter, against numpy.

The looped kernels (``softmax``, ``rms_norm``, ``layer_norm``: rows wider than one tile) write a
mapped output: on a grid of one block per row block each block walks its own row block's tiles
(one pass for the row's statistics, then its tiles), on any other grid every tile is still right.
``launch_softmax(log=True)`` is log-softmax; the launchers pick the kernel and the rows per block
from the width; ``matmul`` picks its tiles from the output's shape.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile import f32
from safetile.rows import REREAD, row_tile

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import run_all  # noqa: E402

SOFTMAX = run_all.load_example("softmax")
RMS_NORM = run_all.load_example("rms_norm")
LAYER_NORM = run_all.load_example("layer_norm")
GEMM = run_all.load_example("gemm")


def _log_softmax_ref(xs: np.ndarray) -> np.ndarray:
    x = np.asarray(xs, np.float64)
    m = x.max(axis=1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=1, keepdims=True))


def inputs(rows: int, width: int, offset: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(width)
    xs = (rng.standard_normal((rows, width)) * 4 + offset).astype(np.float32)
    return xs, run_all.fresh(rng, (width,)), run_all.fresh(rng, (width,))


def looped(example: str, z: Any, xs: np.ndarray, ws: np.ndarray, bs: np.ndarray, bm: int, bn: int,
           **launch: Any) -> np.ndarray:
    x, w, b = (st.from_numpy(a).sync() for a in (xs, ws, bs))
    part = z.partition((bm, bn))
    op = {"softmax": lambda: SOFTMAX.softmax(part, x, **launch),
          "log_softmax": lambda: SOFTMAX.softmax(part, x, LOG=1, **launch),
          "rms_norm": lambda: RMS_NORM.rms_norm(part, x, w, 1e-5, **launch),
          "layer_norm": lambda: LAYER_NORM.layer_norm(part, x, w, b, 1e-5, **launch)}[example]()
    return op.sync()[0].unpartition().numpy()


def reference(example: str, xs: np.ndarray, ws: np.ndarray, bs: np.ndarray) -> np.ndarray:
    return {"softmax": lambda: run_all._softmax_ref(xs), "log_softmax": lambda: _log_softmax_ref(xs),
            "rms_norm": lambda: run_all._rms_norm_ref(xs, ws, 1e-5),
            "layer_norm": lambda: run_all._layer_norm_ref(xs, ws, bs, 1e-5)}[example]()


LOOPED_EXAMPLES = ["softmax", "log_softmax", "rms_norm", "layer_norm"]
LOOPED_SHAPES = [(3, 9000, 2), (5, 2500, 1), (4, 300, 4), (1, 70000, 1)]
"""Rows, width, rows a block: a partial last row block, one row a block, a narrow row, the wrapped
walk (``make test`` runs each shape once, the examples in turn, softmax the wrapped walk;
``make test-full`` every pair)."""
_SMOKE = {("softmax", LOOPED_SHAPES[3]), ("log_softmax", LOOPED_SHAPES[0]), ("rms_norm", LOOPED_SHAPES[1]),
          ("layer_norm", LOOPED_SHAPES[2])}


@pytest.mark.parametrize(("rows", "width", "bm", "example"), [
    pytest.param(*shape, example, marks=() if (example, shape) in _SMOKE else pytest.mark.full)
    for shape in LOOPED_SHAPES for example in LOOPED_EXAMPLES])
def test_a_looped_kernel_is_right_on_a_grid_of_row_blocks_and_on_any_other(example: str, rows: int, width: int,
                                                                            bm: int) -> None:
    xs, ws, bs = inputs(rows, width, offset=50.0 if example == "layer_norm" else 0.0)
    ref = reference(example, xs, ws, bs)
    for grid in ((-(-rows // bm),), (1,), (7,), None):
        z = st.full((rows, width), np.nan, f32).sync()
        # tiles of 32768 at 70000 columns: softmax's and rms_norm's first pass starts at tile
        # REREAD // BN = 1 and wraps round to it (1, then the partial tile 2, then 0)
        bn = 32768 if width > 65536 else 1024 if width > 1024 else 128
        got = looped(example, z, xs, ws, bs, bm, bn, **({} if grid is None else dict(grid=grid)))
        assert run_all.max_error(got, ref) <= 1e-4 * max(1.0, float(np.abs(ref).max())), (grid, example)


@pytest.mark.parametrize("example", ["softmax", "rms_norm"])
def test_the_first_pass_from_tile_reread_by_bn_gives_the_rows_the_left_to_right_walk_gives(example: str) -> None:
    """The looped kernels' ``REREAD`` generic defaults to ``safetile/rows.py``'s (a start past the
    last tile walks left to right); a start inside the row gives the same rows (to rounding: the
    sums run in another order)."""
    assert REREAD == 32768
    xs, ws, bs = inputs(1, 20000)
    got = {}
    for reread in (None, 8192):  # 32768 // 4096 = 8: past the 5 tiles, left to right; then from tile 2
        z = st.full((1, 20000), np.nan, f32).sync()
        got[reread] = looped(example, z, xs, ws, bs, 1, 4096, **({} if reread is None else dict(REREAD=reread)))
    assert run_all.max_error(got[None], reference(example, xs, ws, bs)) <= 1e-4
    assert run_all.max_error(got[8192], got[None]) <= 1e-6


@pytest.mark.parametrize(("width", "looped"), [(300, False), (9000, False), (17000, True)])
def test_launch_softmax_with_log_is_log_softmax_in_both_kernels(width: int, looped: bool) -> None:
    xs, _, _ = inputs(3, width)
    z = st.full((3, width), np.nan, f32).sync()
    got = SOFTMAX.launch_softmax(z, st.from_numpy(xs).sync(), log=True).sync()[0]
    assert SOFTMAX.LAUNCHER.tuned(width, f32).kernel.name == ("softmax" if looped else "softmax_row")
    assert run_all.max_error(got.numpy(), _log_softmax_ref(xs)) <= 1e-4


def chosen(module: Any, width: int, dtype: st.DType = f32) -> dict[str, Any]:
    """The config the launcher's tuned kernel for ``width`` chose for its last new key."""
    tuned = module.LAUNCHER.tuned(width, dtype)
    tuning = list(tuned.tunings.values())[-1]
    return dict(tuned.configs[tuning.chosen].values)


@pytest.mark.parametrize("width", [256, 1000, 4096, 8192, 9000])
def test_the_launchers_run_the_default_config_untimed_on_the_cpu(width: int) -> None:
    xs, ws, bs = inputs(2, width)
    for module, launch, count in ((SOFTMAX, SOFTMAX.launch_softmax, 1), (RMS_NORM, RMS_NORM.launch_rms_norm, 2),
                                  (LAYER_NORM, LAYER_NORM.launch_layer_norm, 3)):
        x, w, b = (st.from_numpy(a).sync() for a in (xs, ws, bs))
        z = st.full((2, width), np.nan, f32).sync()
        out = launch(z, *(x, w, b)[:count], *((1e-5,) if count > 1 else ())).sync()[0]
        assert isinstance(out, st.Tensor) and out.shape == (2, width), launch.__name__  # z comes back as passed
        table = module.LAUNCHER.table
        looped = table.is_looped(width, f32)
        assert chosen(module, width)["BN" if looped else "BM"] == table.default(width, f32)["BN" if looped else "BM"]
        x, w, b = (st.from_numpy(a).sync() for a in (xs, ws, bs))
        fixed = launch(out, *(x, w, b)[:count], *((1e-5,) if count > 1 else ()), rows=1).sync()[0]
        assert isinstance(fixed, st.Tensor)  # rows= fixes the tile (no tuning); z comes back as passed


@pytest.mark.parametrize("width", [300, 9000])
def test_a_launcher_given_a_partition_returns_the_kernels_launch_which_can_be_prepared(width: int) -> None:
    xs, _, _ = inputs(3, width)
    z = st.full((3, width), np.nan, f32).sync().partition((1, width))
    prepared = SOFTMAX.launch_softmax(z, st.from_numpy(xs).sync()).prepare()  # what bench/kernels.py times
    prepared.enqueue()
    z, x = prepared.release()
    assert isinstance(z, st.Partition)
    assert run_all.max_error(z.unpartition().numpy(), run_all._softmax_ref(xs)) <= 1e-4


@pytest.mark.parametrize(("module", "width"), [(SOFTMAX, 1024), (RMS_NORM, 65536), (LAYER_NORM, 4096)])
@pytest.mark.parametrize("dtype", [st.f16, st.bf16, st.f32])
def test_every_launcher_candidate_tiles_the_width_once(module: Any, width: int, dtype: st.DType) -> None:
    table = module.LAUNCHER.table
    looped = table.is_looped(width, dtype)
    configs = table.configs(width, dtype)
    assert len(configs) >= 2, "the tuner has a choice"
    texts = [st.Config(**c).text for c in configs]
    assert len(set(texts)) == len(texts), "a candidate listed twice"
    for config in configs:
        assert looped or config["BN"] == row_tile(width)
        assert not looped or config["BM"] == 1  # the launcher's grid has one block per row


@pytest.mark.parametrize(("m", "n", "k", "tiles"), [
    (70, 50, 48, (64, 64, 64)), (130, 200, 64, (64, 128, 64)),
    pytest.param(2048, 2048, 64, (128, 256, 64), marks=pytest.mark.full),  # make test-full: the 128x256 tile run
])
def test_matmul_takes_the_tiles_for_the_shape_and_matches_numpy(m: int, n: int, k: int,
                                                                tiles: tuple[int, int, int]) -> None:
    assert GEMM.gemm_tiles(m, n) == tiles
    rng = np.random.default_rng(m)
    xs, ys = run_all.fresh(rng, (m, k)), run_all.fresh(rng, (k, n))
    z = st.full((m, n), np.nan, f32).sync()
    got = GEMM.matmul(z, st.from_numpy(xs).sync(), st.from_numpy(ys).sync()).sync()[0].unpartition().numpy()
    assert run_all.max_error(got, xs.astype(np.float64) @ ys) <= 1e-3


def test_matmul_refuses_a_K_it_cannot_tile_and_says_how_to_pad() -> None:
    z, x, y = st.zeros((64, 64)).sync(), st.ones((64, 40)).sync(), st.ones((40, 64)).sync()
    with pytest.raises(ValueError, match="K = 40 is not a multiple of 16; pad"):
        GEMM.matmul(z, x, y)


@pytest.mark.parametrize(("m", "n", "tiles"), [(1024, 6144, (128, 128, 64)), (1024, 2560, (128, 256, 64)),
                                               (8192, 6144, (128, 256, 64)), (128, 2560, (64, 128, 64)),
                                               (16, 6144, (16, 64, 128)), (8192, 8192, (128, 256, 64))])
def test_gemm_tiles_follows_the_measured_choices(m: int, n: int, tiles: tuple[int, int, int]) -> None:
    """The H100 run's best of 128x128 and 128x256 for Qwen3-4B's QKV (N=6144) and down (N=2560)."""
    assert GEMM.gemm_tiles(m, n) == tiles


def test_the_row_launchers_defaults_are_the_device_tunings_winners() -> None:
    """The first candidates: the fastest the launchers' st.autotune timed on an H100 (docs/benchmarks.md §5:
    runs -e, -B, -C, -s6 and -s7)."""
    def first(module: Any, width: int, dtype: st.DType, looped: bool = False) -> str:
        assert module.LAUNCHER.table.is_looped(width, dtype) == looped
        return st.Config(**module.LAUNCHER.table.default(width, dtype)).text

    direct = "store_hints={'sm_90': {'allow_tma': False}}"
    assert first(SOFTMAX, 1024, st.f16) == f"BM=1 BN=1024 optimization_hints={{'sm_90': {{}}}} {direct}"  # run -s6
    assert first(SOFTMAX, 4096, st.bf16) == f"BM=2 BN=4096 optimization_hints={{'sm_90': {{'occupancy': 6}}}} {direct}"
    assert first(SOFTMAX, 1024, st.f32) == "BM=1 BN=1024 optimization_hints={'sm_90': {'occupancy': 8}}"
    eight_warps = "optimization_hints={'sm_90': {'num_worker_warps_per_cta': 8, 'occupancy': 2}}"
    assert first(SOFTMAX, 16384, st.f16, True) == f"BM=1 BN=8192 {eight_warps} {direct}"  # run -s6
    assert first(SOFTMAX, 65536, st.f16, True) == f"BM=1 BN=16384 {eight_warps} {direct}"  # run -s6
    assert first(SOFTMAX, 65536, st.f32, True) == f"BM=1 BN=8192 {eight_warps} {direct}"  # run -s6
    assert first(SOFTMAX, 16384, st.f32) == "BM=1 BN=16384 optimization_hints={'sm_90': {'occupancy': 2}}"  # run -B
    loads = "load_hints={'sm_90': {'allow_tma': False}}"
    assert first(RMS_NORM, 256, st.f16) == f"BM=4 BN=256 {loads} optimization_hints={{'sm_90': {{}}}} {direct}"  # -s7
    assert first(RMS_NORM, 1024, st.bf16) == f"BM=1 BN=1024 {loads} optimization_hints={{'sm_90': {{}}}} {direct}"
    assert first(RMS_NORM, 100, st.f16) == "BM=64 BN=128 optimization_hints={'sm_90': {'occupancy': 4}}"
    assert first(LAYER_NORM, 1024, st.f16) == "BM=8 BN=1024 optimization_hints={'sm_90': {'occupancy': 4}}"  # -s7
    assert first(RMS_NORM, 16384, st.f16) == "BM=1 BN=16384 optimization_hints={'sm_90': {'occupancy': 2}}"  # run -B
    assert first(RMS_NORM, 65536, st.bf16, True) == f"BM=1 BN=16384 {eight_warps}"  # run -B
    assert first(RMS_NORM, 4096, st.f16) == "BM=1 BN=4096 optimization_hints={'sm_90': {'occupancy': 6}}"  # -B, -C
    assert first(RMS_NORM, 65536, st.f32, True) == "BM=1 BN=2048 optimization_hints={'sm_90': {'occupancy': 3}}"
    occupancy_2 = "optimization_hints={'sm_90': {'occupancy': 2}}"
    assert first(LAYER_NORM, 16384, st.f32) == f"BM=1 BN=16384 {occupancy_2} {direct}"  # run -s6
    assert first(LAYER_NORM, 65536, st.f32, True) == "BM=1 BN=16384 optimization_hints={'sm_90': {'occupancy': 1}}"
    assert first(LAYER_NORM, 16384, st.bf16) == f"BM=1 BN=16384 {occupancy_2} {direct}"
    assert first(LAYER_NORM, 65536, st.f16, True) == "BM=1 BN=8192 optimization_hints={'sm_90': {'occupancy': 2}}"
    assert SOFTMAX.LAUNCHER.table.default(256, st.f16)["BM"] == 4  # run -s6
    assert RMS_NORM.LAUNCHER.table.default(1024, st.f32)["BM"] == 2
    assert SOFTMAX.LAUNCHER.table.is_looped(16384, st.bf16) and not SOFTMAX.LAUNCHER.table.is_looped(16384, f32)


def test_the_big_tiles_carry_the_tuned_hints_and_the_small_ones_none() -> None:
    assert GEMM.big_tile_hints(BM=128, BN=256) == {"sm_90": {"num_worker_warps_per_cta": 8}}
    assert GEMM.big_tile_load_hints(BM=256, BN=128) == {"sm_90": {"latency": 6}}
    assert GEMM.big_tile_hints(BM=128, BN=128) == {} and GEMM.big_tile_load_hints(BM=64, BN=64) == {}


FP8 = run_all.load_example("fp8_gemm")


@pytest.mark.parametrize(("m", "n", "k"), [(100, 70, 96), (130, 129, 300)])
def test_scaled_mm_is_the_scaled_product_of_the_e4m3_values_in_f32(m: int, n: int, k: int) -> None:
    rng = np.random.default_rng(k)
    x = st.from_numpy(rng.standard_normal((m, k)).astype(np.float32), st.f8e4m3fn).sync()
    w = st.from_numpy(rng.standard_normal((n, k)).astype(np.float32), st.f8e4m3fn).sync()
    xq, wq = x.numpy().astype(np.float64), w.numpy().astype(np.float64)  # the values e4m3 holds
    assert not np.array_equal(xq, np.round(xq)), "the inputs are not all integers"
    z = st.full((m, n), np.nan, f32).sync()
    got = FP8.scaled_mm(z, x, w, 0.5, 0.25).sync()[0].unpartition().numpy()
    assert run_all.max_error(got, xq @ wq.T * 0.125) <= 1e-3


LAUNCHER_SCRIPT = """
import json, sys
sys.path.insert(0, {examples!r})
import numpy as np
import run_all
import safetile as st

module = run_all.load_example({example!r})
tuned = module.LAUNCHER.tuned({width}, st.f32)
assert module.LAUNCHER.table.is_looped({width}, st.f32) == {looped}
calls = []
def timer(fn):  # the device's timer, faked: the second candidate is the fastest
    fn()
    calls.append(1)
    return 1.0 if len(calls) == 2 else 3.0
tuned.do_bench = timer
rng = np.random.default_rng(0)
xs = rng.standard_normal((3, {width})).astype(np.float32)
x, w, b = st.from_numpy(xs).sync(), st.ones(({width},)).sync(), st.zeros(({width},)).sync()
z = st.full((3, {width}), np.nan).sync()
args = {{"softmax": (x,), "rms_norm": (x, w, 1e-5), "layer_norm": (x, w, b, 1e-5)}}[{example!r}]
z = getattr(module, "launch_" + {example!r})(z, *args).sync()[0]
(tuning,) = tuned.tunings.values()
print(json.dumps(dict(timed=len(calls), chosen=tuning.chosen, how=tuning.how.split(" ")[0],
                      finite=bool(np.isfinite(z.numpy()).all()))))
"""


@pytest.mark.parametrize(("example", "looped", "width"), [
    ("softmax", False, 1024),
    pytest.param("rms_norm", True, 16400, marks=pytest.mark.full),  # make test-full: the looped launcher's record
])
def test_a_launchers_choice_is_kept_on_disk_and_a_second_process_reuses_it(
        tmp_path: Path, example: str, looped: bool, width: int, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The first process times every candidate (a fake timer: the second is fastest) and writes the
    record; the second, this one (the script loads the example afresh: it shares nothing with the
    first but the record on disk), reads it: no timing, the same choice."""
    import json
    import os
    import runpy
    import subprocess

    script = tmp_path / "launch.py"
    script.write_text(LAUNCHER_SCRIPT.format(examples=str(run_all.EXAMPLES), example=example, looped=looped,
                                             width=width))
    env = {**os.environ, "SAFETILE_CACHE_DIR": str(tmp_path / "cache"), "SAFETILE_BACKEND": "cpu"}
    env.pop("SAFETILE_AUTOTUNE", None)
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    monkeypatch.setenv("SAFETILE_CACHE_DIR", env["SAFETILE_CACHE_DIR"])
    monkeypatch.delenv("SAFETILE_AUTOTUNE", raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the script's own entry goes with the test
    capsys.readouterr()
    runpy.run_path(str(script))
    runs = [json.loads(out.strip().splitlines()[-1]) for out in (done.stdout, capsys.readouterr().out)]
    module = {"softmax": SOFTMAX, "rms_norm": RMS_NORM}[example]
    count = len(module.LAUNCHER.table.configs(width, f32))
    assert count >= 2, "the launcher has candidates to choose from"
    assert runs[0] == dict(timed=count, chosen=1, how="timed", finite=True)
    assert runs[1] == dict(timed=0, chosen=1, how="from", finite=True)
    assert len(list((tmp_path / "cache" / "autotune-v1").glob("*/*.json"))) == 1
