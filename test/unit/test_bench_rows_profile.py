"""bench/rows_profile.py's reading of an ncu details CSV, on the CPU (the profile itself needs a GPU).

Each profiled kernel is paired in order with the launch profile.json lists, its GB/s counted
from the case's bytes and ncu's duration (us or ms), its row in the case's table with the
metrics of the sections and those asked for by name, rule lines skipped; a CSV with another
count of kernels is refused."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import rows_profile  # noqa: E402

COLUMNS = '"ID","Kernel Name","Section Name","Metric Name","Metric Unit","Metric Value","Rule Name"\n'


def details(*kernels: tuple[str, str, str, str, str]) -> str:
    """A details page: (kernel, duration and its unit, DRAM MB read, long-scoreboard and barrier stalls) each."""
    lines = []
    for i, (name, duration, unit, read, stall) in enumerate(kernels):
        lines += [f'"{i}","{name}","GPU Speed Of Light Throughput","Duration","{unit}","{duration}",""',
                  f'"{i}","{name}","GPU Speed Of Light Throughput","DRAM Throughput","%","88.1",""',
                  f'"{i}","{name}","Launch Statistics","Waves Per SM","","15.5",""',
                  f'"{i}","{name}","Command line profiler metrics","dram__bytes_read.sum","Mbyte","{read}",""',
                  f'"{i}","{name}","Command line profiler metrics",'
                  f'"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio","inst","{stall}",""',
                  f'"{i}","{name}","Command line profiler metrics",'
                  f'"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio","inst","1.5",""',
                  f'"{i}","{name}","WarpStateStats","","","","CPIStall"']  # a rule's line: no metric
    return COLUMNS + "\n".join(lines) + "\n"


KERNELS = [("layer_norm_row_f16_8_1024_1024", "95.5", "us", "134.2", "6.5"),
           ("layer_norm_kernel", "93", "us", "134.3", "4"), ("vectorized_elementwise_kernel", "1.00", "ms", "134", "2")]
LAUNCHES = [dict(case="layer_norm f16 1024", impl="safetile", config="BM=8 BN=1024", bytes=268439552.0),
            dict(case="layer_norm f16 1024", impl="triton", config="", bytes=268439552.0),
            dict(case="copy f32 2^25", impl="torch.neg", config="", bytes=268435456.0)]


def test_each_kernel_is_paired_with_its_launch_and_its_bytes_counted_over_its_duration(tmp_path: Path) -> None:
    path = tmp_path / "details.csv"
    path.write_text(details(*KERNELS))
    text = rows_profile.summary(LAUNCHES, rows_profile.read_details(path))
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
    assert copy[2 + columns.index("µs")] == "1000"  # 1.00 ms
    assert copy[2 + columns.index("GB/s counted")] == "268"
    assert text.index("**layer_norm f16 1024**") < text.index("**copy f32 2^25**")


def test_a_csv_with_another_count_of_kernels_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "details.csv"
    path.write_text(details(*KERNELS[:2]))
    with pytest.raises(ValueError, match="profile.json lists 3 launches, ncu's CSV 2 kernels"):
        rows_profile.summary(LAUNCHES, rows_profile.read_details(path))
