"""bench/gemm.py's plan of what it times and builds, on the CPU (the timing itself needs a GPU).

``matmul()``'s config is the one ``gemm_plan`` picks and ``scaled_mm()``'s the persistent FP8 kernel,
so the benchmark times what a user gets; a split-columns plan builds all three launches' cubins
(their specs as a launch derives them); ``--problems`` keeps only the named problems and refuses a
label it does not time.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import safetile as st

BENCH = Path(__file__).resolve().parents[2] / "bench" / "gemm.py"
spec = importlib.util.spec_from_file_location("bench_gemm_under_test", BENCH)
assert spec is not None and spec.loader is not None
GEMM_BENCH = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = GEMM_BENCH  # dataclasses look their module up
spec.loader.exec_module(GEMM_BENCH)


def test_matmul_at_down_2048_tokens_is_timed_as_split_columns_with_its_three_launches() -> None:
    config = GEMM_BENCH.shipped(2048, 2560, 9728)
    assert config == GEMM_BENCH.Config(128, 256, 64, warps8=True, latency=6, splits=4, columns=2)
    assert config.name == "split-columns C=2 S=4 128x256x64 (warps 8, latency 6)"
    first = GEMM_BENCH.spec(config, st.bf16, 2048, 2560, 9728)
    second = GEMM_BENCH.sum_spec(config, st.bf16, 2048, 2560, 9728)
    third = GEMM_BENCH.columns_sum_spec(config, st.bf16, 2048, 2560)
    assert first["p"].shape == second["p"].shape == third["p"].shape == (4, 2048, 512)
    assert (second["z"].shape, second["G"], third["z"].shape) == ((2048, 2560), GEMM_BENCH.GROUP, (2048, 2560))


def test_problems_keeps_the_labels_asked_for() -> None:
    found = GEMM_BENCH.problems(False, "candidates", labels=frozenset({"down M=2048", "QKV M=128"}))
    assert [problem[4] for problem in found] == ["QKV M=128", "down M=2048"]


def test_an_unknown_problem_label_is_refused_with_the_labels_there_are(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        GEMM_BENCH.main(["--only", "candidates", "--problems", "down M=999"])
    assert "--problems down M=999: each must be a label of the problems --only candidates times: QKV M=128, " \
           "down M=1024" in capsys.readouterr().err


def test_scaled_mm_is_timed_as_the_persistent_fp8_kernel_it_launches() -> None:
    config = GEMM_BENCH.shipped(8192, 8192, 8192, fp8=True)
    assert config == GEMM_BENCH.Config(128, 128, 128, warps8=True, group=8, fp8=True, persistent=True)
    assert config.name == "fp8 persistent 128x128x128 (warps 8, grouped 8)"
