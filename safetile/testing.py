"""``st.testing``: timing kernels, and tables and plots of benchmarks (Triton's shape).

    ms = st.testing.do_bench(prepared.enqueue)         # median milliseconds, CUDA events

    @st.testing.perf_report(st.testing.Benchmark(
        x_names=["N"], x_vals=[2**i for i in range(12, 20)],
        line_arg="provider", line_vals=["safetile", "numpy"], line_names=["safetile", "numpy"],
        ylabel="GB/s", plot_name="vector-add", args={}))
    def bench(N, provider):
        return gbps                                    # or (y, y_min, y_max)

    bench.run(save_path="out", print_data=True)        # out/vector-add.{csv,md,png}

``run`` calls the function at every x value for every line and writes, per
benchmark, ``<plot_name>.csv`` and ``<plot_name>.md`` (a column per line, and
``<line>-min``/``<line>-max`` where the function gives them) and
``<plot_name>.png`` (a line per line: needs matplotlib, the ``bench`` extra,
``pip install 'safetile[bench]'``; without it the PNG is skipped with a note).
"""

from __future__ import annotations

import csv
import io
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from safetile.runtime.bench import do_bench

__all__ = ["Benchmark", "Mark", "do_bench", "perf_report"]


@dataclass
class Benchmark:
    """One table (and plot): ``x_names`` take each of ``x_vals``, ``line_arg`` each of ``line_vals``."""

    x_names: Sequence[str]
    x_vals: Sequence[Any]
    line_arg: str
    line_vals: Sequence[Any]
    line_names: Sequence[str]
    plot_name: str
    args: dict[str, Any] = field(default_factory=dict)
    """Fixed keyword arguments of every call."""
    xlabel: str = ""
    ylabel: str = ""
    styles: Sequence[tuple[str, str]] | None = None
    """A (color, line style) per line, as matplotlib takes them."""
    x_log: bool = False
    y_log: bool = False

    def __post_init__(self) -> None:
        if len(self.line_names) != len(self.line_vals):
            raise ValueError(f"Benchmark '{self.plot_name}': {len(self.line_vals)} line_vals but "
                             f"{len(self.line_names)} line_names; give a name per line")


@dataclass
class Table:
    """A benchmark's results: a header and a row per x value."""

    benchmark: Benchmark
    header: list[str]
    rows: list[list[Any]]

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.header)
        writer.writerows(self.rows)
        return out.getvalue()

    def markdown(self) -> str:
        lines = [f"| {' | '.join(self.header)} |", "|" + "---|" * len(self.header)]
        lines += [f"| {' | '.join(_cell(v) for v in row)} |" for row in self.rows]
        return "\n".join(lines) + "\n"


def _cell(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


class Mark:
    """A benchmark function with its ``Benchmark``s: ``run`` it."""

    def __init__(self, fn: Callable[..., Any], benchmarks: Sequence[Benchmark]):
        self.fn = fn
        self.benchmarks = list(benchmarks)

    def run(self, *, print_data: bool = False, save_path: str | Path | None = None,
            show_plots: bool = False) -> list[Table]:
        """Every benchmark measured: printed (markdown), written under ``save_path``, shown; the tables."""
        tables = [self._measure(b) for b in self.benchmarks]
        for table in tables:
            if print_data:
                print(f"{table.benchmark.plot_name}:\n{table.markdown()}")
            if save_path is not None:
                folder = Path(save_path)
                folder.mkdir(parents=True, exist_ok=True)
                stem = folder / table.benchmark.plot_name
                stem.with_suffix(".csv").write_text(table.csv())
                stem.with_suffix(".md").write_text(table.markdown())
            if save_path is not None or show_plots:
                _plot(table, None if save_path is None else Path(save_path), show_plots)
        return tables

    def _measure(self, bench: Benchmark) -> Table:
        spread = False
        results: list[list[tuple[float, float | None, float | None]]] = []
        for x in bench.x_vals:
            xs = dict.fromkeys(bench.x_names, x)
            row = []
            for line in bench.line_vals:
                value = self.fn(**xs, **{bench.line_arg: line}, **bench.args)
                if isinstance(value, tuple | list):
                    if len(value) != 3:
                        raise ValueError(f"{getattr(self.fn, '__name__', 'the benchmark')} returned {value!r}: "
                                         "return a number, or (y, y_min, y_max)")
                    spread = True
                    row.append((float(value[0]), float(value[1]), float(value[2])))
                else:
                    row.append((float(value), None, None))
            results.append(row)
        header = [*bench.x_names]
        for name in bench.line_names:
            header += [name, f"{name}-min", f"{name}-max"] if spread else [name]
        rows = []
        for x, row in zip(bench.x_vals, results):
            cells: list[Any] = [x] * len(bench.x_names)
            for y, low, high in row:
                cells += [y, low, high] if spread else [y]
            rows.append(cells)
        return Table(bench, header, rows)


def perf_report(benchmarks: Benchmark | Sequence[Benchmark]) -> Callable[[Callable[..., Any]], Mark]:
    """``@st.testing.perf_report(Benchmark(...))``: the function becomes a ``Mark`` to ``run``."""
    listed = [benchmarks] if isinstance(benchmarks, Benchmark) else list(benchmarks)
    return lambda fn: Mark(fn, listed)


def _plot(table: Table, folder: Path | None, show: bool) -> None:
    try:
        import matplotlib

        if not show:
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"safetile: no plot of '{table.benchmark.plot_name}': matplotlib is not installed "
              "(pip install 'safetile[bench]')", file=sys.stderr)
        return
    bench = table.benchmark
    xs = [row[0] for row in table.rows]
    figure, axes = plt.subplots()
    for n, name in enumerate(bench.line_names):
        column = table.header.index(name)
        color, style = bench.styles[n] if bench.styles else (None, "-")
        axes.plot(xs, [row[column] for row in table.rows], label=name, color=color, linestyle=style)
        if f"{name}-min" in table.header:
            low, high = table.header.index(f"{name}-min"), table.header.index(f"{name}-max")
            axes.fill_between(xs, [r[low] for r in table.rows], [r[high] for r in table.rows], alpha=0.2,
                              color=color)
    axes.set_xlabel(bench.xlabel or bench.x_names[0])
    axes.set_ylabel(bench.ylabel)
    axes.set_title(bench.plot_name)
    if bench.x_log:
        axes.set_xscale("log")
    if bench.y_log:
        axes.set_yscale("log")
    axes.legend()
    if folder is not None:
        figure.savefig(folder / f"{bench.plot_name}.png")
    if show:
        plt.show()
    plt.close(figure)
