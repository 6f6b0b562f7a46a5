"""One row launcher (``safetile/rows.py``): its tables' invariants, and ``safetile.nn``'s forward rows
launching the tiles and hints the examples' launchers default to."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import safetile as st
from safetile import rows
from safetile.frontend.hints import hints_attr

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import run_all  # noqa: E402

torch = pytest.importorskip("torch")  # a pinned test dependency: make test installs it
import safetile.nn as nn  # noqa: E402
from safetile.nn import kernels as K  # noqa: E402

TABLES = (rows.SOFTMAX, rows.RMS_NORM, rows.LAYER_NORM)
WIDTHS = (1, 2, 100, 256, 1000, 1024, 1025, 4096, 8192, 8193, 16384, 16385, 65536, 262144)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
@pytest.mark.parametrize("dtype", [st.f16, st.bf16, st.f32, st.f64])
def test_every_tables_candidates_tile_the_width_one_way_each(table: rows.RowTable, dtype: st.DType) -> None:
    for width in WIDTHS:
        looped = table.is_looped(width, dtype)
        assert looped == (rows.row_tile(width) > table.widest[dtype.bits])
        configs = table.configs(width, dtype)
        assert configs and configs[0] == table.default(width, dtype)
        texts = [st.Config(**c).text for c in configs]
        assert len(set(texts)) == len(texts), f"{table.name} {dtype} {width}: a candidate listed twice"
        for config in configs:
            assert config["BM"] == 1 if looped else config["BN"] == rows.row_tile(width)
            occupancy = config["optimization_hints"]["sm_90"].get("occupancy", 0)
            if not looped and dtype.bits >= 32 and config["BM"] * config["BN"] >= rows.SPILL_FREE_F32_TILE:
                assert occupancy <= 2, f"{table.name} {dtype} {width}: {texts}"


def test_row_tile_is_the_smallest_power_of_two_holding_the_width() -> None:
    assert [rows.row_tile(w) for w in (1, 2, 3, 100, 1024, 1025)] == [1, 2, 4, 128, 1024, 2048]


def test_a_choice_with_store_hints_gives_its_config_store_hints_and_one_without_none() -> None:
    table = rows.RowTable("t", one_tile={16: [(None, [(2048, {"occupancy": 6}), (1024, {}, rows.DIRECT_STORES)])]},
                          looped={16: [(None, [(4096, {}, rows.DIRECT_STORES)])]})
    assert table.configs(1024, st.f16) == [
        dict(BM=2, BN=1024, optimization_hints={"sm_90": {"occupancy": 6}}),
        dict(BM=1, BN=1024, optimization_hints={"sm_90": {}}, store_hints={"sm_90": {"allow_tma": False}})]
    assert table.configs(65536, st.f16) == [
        dict(BM=1, BN=4096, optimization_hints={"sm_90": {}}, store_hints={"sm_90": {"allow_tma": False}})]
    assert table.store_hints(E=st.f16, BM=1, BN=4096, N=65536) == {"sm_90": {"allow_tma": False}}
    assert table.store_hints(E=st.f16, BM=2, BN=1024, N=1024) == {}  # the default stores through the TMA
    assert rows.hint_options(table.configs(1024, st.f16)[1]) == dict(
        optimization_hints={"sm_90": {}}, store_hints={"sm_90": {"allow_tma": False}})


def test_a_choice_with_load_hints_gives_its_config_load_hints_and_its_default_gives_them_to_its_tile() -> None:
    table = rows.RowTable("t", one_tile={16: [(None, [(1024, {}, rows.DIRECT_STORES, rows.DIRECT_LOADS),
                                                      (2048, {"occupancy": 6}, rows.DIRECT_STORES)])]},
                          looped={16: [(None, [(4096, {})])]})
    direct = {"sm_90": {"allow_tma": False}}
    assert table.configs(1024, st.f16) == [
        dict(BM=1, BN=1024, optimization_hints={"sm_90": {}}, store_hints=direct, load_hints=direct),
        dict(BM=2, BN=1024, optimization_hints={"sm_90": {"occupancy": 6}}, store_hints=direct)]
    assert table.load_hints(E=st.f16, BM=1, BN=1024, N=1000) == direct
    assert table.load_hints(E=st.f16, BM=2, BN=1024, N=1000) == {}  # not the default's tile
    assert table.load_hints(E=st.f16, BM=1, BN=4096, N=65536) == {}  # the looped default loads through the TMA
    assert rows.hint_options(table.configs(1024, st.f16)[0]) == dict(
        optimization_hints={"sm_90": {}}, store_hints=direct, load_hints=direct)


def test_the_hints_function_gives_the_defaults_hints_for_its_tile_only() -> None:
    assert rows.SOFTMAX.hints(E=st.f16, BM=2, BN=4096, N=4000) == {"sm_90": {"occupancy": 6}}
    assert rows.SOFTMAX.hints(E=st.f16, BM=1, BN=4096, N=4000) == {}  # not the default's tile: no hint
    assert rows.RMS_NORM.hints(E=st.f64, BM=4, BN=1024, N=1024) == {"sm_90": {}}  # f64: untimed, no hint


@pytest.mark.parametrize("table", [rows.RMS_NORM, rows.LAYER_NORM], ids=lambda t: t.name)
def test_the_f32_norms_also_time_one_row_with_8_warps_at_row_tiles_of_1024_only(table: rows.RowTable) -> None:
    """Run -s8b2 (docs/benchmarks.md §5): one row of 1024 with 8 worker warps, loaded and stored directly,
    was rms_norm's f32 pick at 1024 columns (0.996x the default's time, a tie: the default stays); untimed
    at narrower rows (4-16 rows with 8 warps there), so not offered there."""
    eight_warps = dict(BM=1, BN=1024, optimization_hints=rows.sm_90(**rows.WARPS_8),
                       store_hints=rows.sm_90(**rows.DIRECT_STORES), load_hints=rows.sm_90(**rows.DIRECT_LOADS))
    assert eight_warps in table.configs(1000, st.f32) and table.configs(1024, st.f32)[0] != eight_warps
    assert table.default(1024, st.f32) == dict(BM=2, BN=1024, optimization_hints=rows.sm_90(occupancy=6))
    assert not any(c["optimization_hints"]["sm_90"].get("num_worker_warps_per_cta") for width in (256, 512)
                   for c in table.configs(width, st.f32))


EXAMPLES = {"softmax": "softmax", "log_softmax": "softmax", "rms_norm": "rms_norm", "layer_norm": "layer_norm"}
FORWARD = {"softmax": K.softmax_forward, "log_softmax": K.softmax_forward, "rms_norm": K.rms_norm_forward,
           "layer_norm": K.layer_norm_forward}


def run_forward(workload: str, x: Any) -> Any:
    w, b = torch.randn(x.shape[1], dtype=x.dtype), torch.randn(x.shape[1], dtype=x.dtype)
    return {"softmax": lambda: nn.softmax(x), "log_softmax": lambda: nn.log_softmax(x),
            "rms_norm": lambda: nn.rms_norm(x, w), "layer_norm": lambda: nn.layer_norm(x, w, b)}[workload]()


@pytest.mark.parametrize("workload", list(EXAMPLES))
@pytest.mark.parametrize(("dtype", "width"), [(st.f16, 1000), (st.bf16, 8192), (st.f32, 1024), (st.f32, 4096)])
def test_the_nn_forward_launches_the_tiles_and_hints_the_examples_launcher_defaults_to(
        workload: str, dtype: st.DType, width: int) -> None:
    """``safetile.nn``'s forward (a torch op: no timing) runs the variant the example's launcher
    runs untimed: the same rows per block, column tile and sm_90 hints for the width and type."""
    x = torch.randn(3, width, dtype={"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[dtype.name])
    run_forward(workload, x)
    expected = run_all.load_example(EXAMPLES[workload]).LAUNCHER.table.default(width, dtype)
    kernel = FORWARD[workload]
    launched = [v for v in kernel.variants.values() if v.generics["E"] == dtype and v.generics["N"] == width and
                v.generics.get("LOG", 0) == int(workload == "log_softmax")]
    assert [(v.generics["BM"], v.generics["BN"]) for v in launched] == [(expected["BM"], expected["BN"])]
    assert launched[0].entry.properties.get("optimization_hints") == hints_attr(expected["optimization_hints"])
    for op_name, option in (("cuda_tile.store_view_tko", "store_hints"), ("cuda_tile.load_view_tko", "load_hints")):
        ops = [op for op in launched[0].entry.walk() if op.name == op_name]
        assert ops and all(op.properties.get("optimization_hints") == (
            hints_attr(expected[option]) if option in expected else None) for op in ops), option


SPILL_WIDTHS = (256, 1024, 2048, 4096, 8192, 16384, 65536, 262144)
"""bench/kernels.py's widths and the tables' rule boundaries between them."""


def _matrix(dtype: st.DType, shape: tuple[int, ...], tile: tuple[int, ...] | None = None) -> st.TensorSpec:
    return st.TensorSpec(dtype, shape, (shape[1], 1) if len(shape) == 2 else (1,), tile, True)


@pytest.mark.parametrize(("workload", "dtypes", "widths"), [
    # make test: the 16-bit rms_norm default that loads and stores directly, in the example and safetile.nn
    pytest.param("rms_norm", (st.f16,), (1024,), id="smoke"),
    # make test-full: about 100 sm_90 cubins to build, ~1 CPU-min cold, seconds from the suite's cubin cache
    *(pytest.param(w, (st.f16, st.bf16, st.f32), SPILL_WIDTHS, id=w, marks=pytest.mark.full)
      for w in ("softmax", "rms_norm", "layer_norm"))])
def test_every_default_row_config_compiles_for_sm_90_without_spilling(
        workload: str, dtypes: tuple[st.DType, ...], widths: tuple[int, ...], cubin_cache: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The configs that run untimed spill no register (tileiras's resources): each table's default
    for f16, bf16 and f32 at every width, in the example's kernel (``SAFETILE_AUTOTUNE=0``, the CPU
    interpreter) and in ``safetile.nn``'s forward (a torch op: no timing).  A timed launch never
    picks a spilling candidate (``st.autotune`` drops it while another is left), and
    ``bench/kernels.py --build sm_90`` checks every candidate before a GPU run."""
    from safetile.backend.resources import kernel_resources

    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(cubin_cache))
    launcher = run_all.load_example(workload).LAUNCHER
    forward = FORWARD[workload]
    spills: dict[str, int] = {}
    for dtype in dtypes:
        for width in widths:
            config = launcher.table.default(width, dtype)
            looped = launcher.table.is_looped(width, dtype)
            tile = (config["BM"], config["BN"])
            spec: dict[str, Any] = dict(z=_matrix(dtype, (16, width), tile), x=_matrix(dtype, (16, width)))
            extra = {} if workload == "softmax" else dict(w=_matrix(dtype, (width,)))
            extra |= dict(b=_matrix(dtype, (width,))) if workload == "layer_norm" else {}
            kernels = [(launcher.looped if looped else launcher.one_tile, spec | extra)]
            if width <= nn.MAX_ROW:
                stats = {n: _matrix(st.f32, (16,), tile[:1]) for n in ("mean", "rstd")
                         if workload == "layer_norm" or (workload == "rms_norm" and n == "rstd")}
                eps = {} if workload == "softmax" else dict(EPS=1e-5)
                kernels.append((forward, dict(y=spec["z"], x=spec["x"], A=st.f32) | stats | extra | eps))
            for kernel, values in kernels:
                built = kernel if kernel is forward else kernel.with_options(**rows.hint_options(config))
                (done,) = built.warm_up([values], arch="sm_90")
                usage = kernel_resources(done.cubin.read_bytes(), done.symbol)
                spills[f"{kernel.name} {dtype.name} {width} {st.Config(**config).text}"] = usage.spill_bytes
    nn_widths = sum(width <= nn.MAX_ROW for width in widths)
    assert len(spills) == len(dtypes) * (len(widths) + nn_widths) and not any(spills.values()), spills
