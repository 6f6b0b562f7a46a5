"""``st.testing``: ``do_bench`` on the CPU (the host clock) and ``perf_report``'s tables and plot
(matplotlib: the ``bench`` extra, which ``make test`` installs)."""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

import pytest

import safetile as st
from safetile.testing import Benchmark, perf_report


def test_do_bench_gives_the_median_and_quantiles() -> None:
    ms = st.testing.do_bench(lambda: time.sleep(0.002), warmup=5, rep=20)
    assert 1.9 < ms < 50
    low, mid, high = st.testing.do_bench(lambda: time.sleep(0.001), warmup=1, rep=10, quantiles=[0.1, 0.5, 0.9])
    assert 0.9 < low <= mid <= high
    runs = st.testing.do_bench(lambda: None, warmup=0.1, rep=0.5, return_mode="all")
    assert isinstance(runs, list) and len(runs) >= 1


def test_do_bench_refuses_unknown_modes_and_quantiles() -> None:
    with pytest.raises(ValueError, match="return_mode='avg': expected one of median, mean, min, max, all"):
        st.testing.do_bench(lambda: None, return_mode="avg")
    with pytest.raises(ValueError, match=r"quantiles=\[50\]: each must lie in \[0, 1\]"):
        st.testing.do_bench(lambda: None, quantiles=[50])


def test_elapsed_time_between_events_on_the_cpu() -> None:
    stream = st.current_backend().default_stream
    start = stream.record(timing=True)
    time.sleep(0.003)
    assert 2.9 < start.elapsed_ms(stream.record(timing=True)) < 100


def squares(**extra: object) -> Benchmark:
    return Benchmark(x_names=["n"], x_vals=[1, 2, 4], line_arg="how", line_vals=["square", "cube"],
                     line_names=["Square", "Cube"], plot_name="powers", ylabel="value", args={"offset": 1},
                     **extra)  # type: ignore[arg-type]


def test_perf_report_writes_csv_markdown_and_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:

    @perf_report(squares(styles=[("blue", "-"), ("red", "--")], x_log=True))
    def bench(n: int, how: str, offset: int) -> float:
        return float(n**2 if how == "square" else n**3) + offset

    (table,) = bench.run(save_path=tmp_path, print_data=True)
    assert table.header == ["n", "Square", "Cube"]
    assert table.rows == [[1, 2.0, 2.0], [2, 5.0, 9.0], [4, 17.0, 65.0]]
    with (tmp_path / "powers.csv").open() as f:
        assert list(csv.reader(f)) == [["n", "Square", "Cube"], ["1", "2.0", "2.0"], ["2", "5.0", "9.0"],
                                       ["4", "17.0", "65.0"]]
    assert (tmp_path / "powers.md").read_text().splitlines()[3] == "| 2 | 5 | 9 |"
    assert (tmp_path / "powers.png").read_bytes().startswith(b"\x89PNG")
    assert "powers:\n| n | Square | Cube |" in capsys.readouterr().out


def test_perf_report_with_a_spread_has_min_and_max_columns(tmp_path: Path) -> None:

    @perf_report([squares()])
    def bench(n: int, how: str, offset: int) -> tuple[float, float, float]:
        return float(n), n - 0.5, n + 0.5

    (table,) = bench.run(save_path=tmp_path)
    assert table.header == ["n", "Square", "Square-min", "Square-max", "Cube", "Cube-min", "Cube-max"]
    assert table.rows[0] == [1, 1.0, 0.5, 1.5, 1.0, 0.5, 1.5]
    assert (tmp_path / "powers.png").is_file()


def test_perf_report_without_matplotlib_writes_the_tables_and_says_why_there_is_no_plot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed

    @perf_report(squares())
    def bench(n: int, how: str, offset: int) -> float:
        return 1.0

    bench.run(save_path=tmp_path)
    assert (tmp_path / "powers.csv").is_file() and not (tmp_path / "powers.png").exists()
    assert "no plot of 'powers': matplotlib is not installed (pip install 'safetile[bench]')" in \
        capsys.readouterr().err


def test_benchmark_mistakes_say_what_to_fix() -> None:
    with pytest.raises(ValueError, match="2 line_vals but 1 line_names"):
        Benchmark(x_names=["n"], x_vals=[1], line_arg="how", line_vals=["a", "b"], line_names=["A"], plot_name="p")

    @perf_report(squares())
    def bench(n: int, how: str, offset: int) -> tuple[float, float]:
        return 1.0, 2.0

    with pytest.raises(ValueError, match=r"bench returned \(1.0, 2.0\): return a number, or \(y, y_min, y_max\)"):
        bench.run()
