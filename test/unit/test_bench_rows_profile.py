"""bench/rows_profile.py's reading of an ncu raw CSV, on the CPU (the profile itself needs a GPU).

Each profiled kernel is paired in order with the launch profile.json lists, its GB/s counted
from the case's bytes and ncu's duration, its row in the case's table; a CSV with another count
of kernels is refused."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import rows_profile  # noqa: E402

HEADER = ('"ID","Kernel Name","gpu__time_duration.sum","dram__throughput.avg.pct_of_peak_sustained_elapsed",'
          '"dram__bytes_read.sum","launch__waves_per_multiprocessor",'
          '"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",'
          '"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"\n'
          '"","","usecond","%","Mbyte","",""," ratio"\n')
ROWS = ['"0","layer_norm_row_f16_8_1024_1024","95.5","88.1","134.2","15.5","6.5","1.5"',
        '"1","layer_norm_kernel","93","91.6","134.3","3.9","4","0.2"',
        '"2","vectorized_elementwise_kernel","1,000","93","134","1","2","0"']
LAUNCHES = [dict(case="layer_norm f16 1024", impl="safetile", config="BM=8 BN=1024", bytes=268439552.0),
            dict(case="layer_norm f16 1024", impl="triton", config="", bytes=268439552.0),
            dict(case="copy f32 2^25", impl="torch.neg", config="", bytes=268435456.0)]


def test_each_kernel_is_paired_with_its_launch_and_its_bytes_counted_over_its_duration(tmp_path: Path) -> None:
    raw = tmp_path / "raw.csv"
    raw.write_text(HEADER + "\n".join(ROWS) + "\n")
    text = rows_profile.summary(LAUNCHES, rows_profile.gemm_profile.read_raw(raw))
    columns = list(rows_profile.METRICS)
    ours = next(line for line in text.splitlines() if "layer_norm_row" in line).split(" | ")
    assert ours[0] == "| safetile BM=8 BN=1024"
    assert ours[2 + columns.index("µs")] == "95.5"
    assert ours[2 + columns.index("GB/s counted")] == "2811"  # 268,439,552 bytes in 95.5 µs
    assert ours[2 + columns.index("DRAM read MB")] == "134"
    assert ours[2 + columns.index("waves / SM")] == "15.5"
    assert ours[2 + columns.index("regs")] == "-"  # not in this CSV
    assert ours[-1] == "long_scoreboard 6.5, barrier 1.5 |"
    copy = next(line for line in text.splitlines() if "vectorized" in line).split(" | ")
    assert copy[2 + columns.index("GB/s counted")] == "268"  # "1,000" µs: a thousands separator read
    assert text.index("**layer_norm f16 1024**") < text.index("**copy f32 2^25**")


def test_a_csv_with_another_count_of_kernels_is_refused(tmp_path: Path) -> None:
    raw = tmp_path / "raw.csv"
    raw.write_text(HEADER + "\n".join(ROWS[:2]) + "\n")
    with pytest.raises(ValueError, match="profile.json lists 3 launches, ncu's CSV 2 kernels"):
        rows_profile.summary(LAUNCHES, rows_profile.gemm_profile.read_raw(raw))
