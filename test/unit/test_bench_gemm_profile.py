"""bench/gemm_profile.py's reading of an ncu raw CSV, on the CPU (the profile itself needs a GPU).

Each profiled kernel is named for the implementation that launched it (split columns' three
launches all its own, the peer's kernels up to the next of ours), units become the table's
(ms -> µs, Kbyte/block -> KB, Ghz -> MHz, "1,280" -> 1280), the three largest stall reasons but
"selected" are listed, and an order file from another run is refused."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "gemm_profile.py"
spec = importlib.util.spec_from_file_location("bench_gemm_profile_under_test", BENCH)
assert spec is not None and spec.loader is not None
PROFILE = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = PROFILE
spec.loader.exec_module(PROFILE)

HEADER = ('"ID","Kernel Name","gpu__time_duration.sum","launch__grid_size","launch__shared_mem_per_block_static",'
          '"launch__shared_mem_per_block_dynamic","gpc__cycles_elapsed.avg.per_second",'
          '"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",'
          '"smsp__average_warps_issue_stalled_selected_per_issue_active.ratio",'
          '"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",'
          '"smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",'
          '"smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio"\n'
          '"","","ms","","Kbyte/block","Kbyte/block","Ghz","inst","inst","inst","inst","inst"\n')
ROWS = ['"0","split_k_gemm_bf16_64_256_64","0.0205","128","0","230.61","1.75","3.5","1.0","0.5","1.5","2.5"',
        '"1","split_columns_gemm_bf16_64_256_64_8","0.060","160","0","230.54","1.70","1","1","2","3","4"',
        '"2","split_columns_sum_bf16_32_128","0.004","1,280","1.024","16.38","1.70","1","1","1","1","1"',
        '"3","nvjet_sm90_tst_320x64_64x4_1x2_h_bz_NNT","0.070","128","0","200","1.755","1","1","1","1","1"',
        '"4","grouped_gemm_bf16_64_64_64_8","0.012","192","0","115.88","1.9","1","1","1","1","1"']
ORDER = [dict(problem="bf16 down M=1024", impl="split columns", kernels=3),
         dict(problem="bf16 down M=1024", impl="peer", kernels=0),
         dict(problem="bf16 QKV M=128", impl="64x64", kernels=1)]


def test_each_kernel_is_named_for_its_launch_and_shown_in_the_tables_units(tmp_path: Path) -> None:
    raw = tmp_path / "raw.csv"
    raw.write_text(HEADER + "\n".join(ROWS) + "\n")
    found = PROFILE.owners(ORDER, PROFILE.read_raw(raw))
    assert [(problem, impl) for problem, impl, _ in found] == [
        ("bf16 down M=1024", "split columns")] * 3 + [("bf16 down M=1024", "peer"), ("bf16 QKV M=128", "64x64")]
    text = PROFILE.table(found)
    first = next(line for line in text.splitlines() if "split_k_gemm" in line).split(" | ")
    columns = list(PROFILE.METRICS)
    assert first[2 + columns.index("µs")] == "20.5"
    assert first[2 + columns.index("smem KB")] == "231"  # 0 static + 230.61 KB dynamic
    assert first[2 + columns.index("MHz")] == "1750"
    assert first[2 + columns.index("DRAM %")] == "-"  # not in this CSV
    assert first[-1] == "long_scoreboard 3.5, math_pipe_throttle 2.5, wait 1.5 |"
    total = next(line for line in text.splitlines() if "split_columns_sum" in line).split(" | ")
    assert (total[2 + columns.index("grid")], total[2 + columns.index("smem KB")]) == ("1280", "17.4")
    assert text.index("**bf16 down M=1024**") < text.index("**bf16 QKV M=128**")


def test_an_order_from_another_run_is_refused(tmp_path: Path) -> None:
    raw = tmp_path / "raw.csv"
    raw.write_text(HEADER + "\n".join(ROWS) + "\n")
    with pytest.raises(ValueError, match="the order names 4 kernels, ncu profiled 5"):
        PROFILE.owners(ORDER[:2], PROFILE.read_raw(raw))
