"""bench/kernels.py's choice of cases, here, without a GPU: which cases a run takes, and in what order."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import kernels  # noqa: E402


def test_the_row_cases_run_in_the_order_of_the_widths_given_the_others_first() -> None:
    found = [c for c in kernels.cases(quick=False)
             if kernels.selected(c, {"softmax", "rms_norm", "add"}, {256, 65536}, {"f16", "f32"})]
    ordered = kernels.in_width_order(found, [65536, 256])
    assert [c.name for c in ordered] == [
        "add f32 2^28", "softmax f16 65536", "softmax f32 65536", "rms_norm f16 65536", "rms_norm f32 65536",
        "softmax f16 256", "softmax f32 256", "rms_norm f16 256", "rms_norm f32 256"]
    assert kernels.in_width_order(found, None) == found  # no widths given: workload by workload
