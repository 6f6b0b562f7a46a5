"""``backend/resources.py`` reads what ``cuobjdump -res-usage`` prints (the oracle, from the
toolchain extra) from cubins tileiras built here: registers, shared memory, stack (spills), local."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import safetile as st
from safetile import f16
from safetile.backend.resources import CubinFormatError, kernel_resources
from bytecode_support import cuobjdump

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))

from gemm import gemm  # noqa: E402

MATRIX = st.TensorSpec(f16, (4096, 4096), (4096, 1), None, True)
TILES = [(64, 64, 32, None), (128, 256, 64, None), (128, 256, 64, {"sm_90": {"num_worker_warps_per_cta": 8}})]
"""A small tile; the 128x256 tile that spills with 4 warps, and does not with 8."""


def resource_usage(cubin: Path, cubin_cache: Path) -> dict[str, int]:
    out = cuobjdump(cubin, "-res-usage", cubin_cache)
    line = next(line for line in out.splitlines() if "REG:" in line)
    return {k: int(v) for k, v in re.findall(r"(REG|SHARED|STACK|LOCAL):(\d+)", line)}


@pytest.mark.parametrize(("bm", "bn", "bk", "hints"), TILES, ids=["64x64", "128x256-spills", "128x256-8-warps"])
def test_the_numbers_are_those_of_cuobjdump(bm: int, bn: int, bk: int, hints: dict[str, object] | None,
                                            cubin_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(cubin_cache))
    kernel = gemm.with_options(optimization_hints=hints)
    z = st.TensorSpec(f16, (4096, 4096), (4096, 1), (bm, bn), True)
    compiled = kernel.compile_variant("sm_90", z=z, x=MATRIX, y=MATRIX, BM=bm, BN=bn, BK=bk)
    assert compiled.cubin is not None
    usage = kernel_resources(compiled.cubin.cubin, compiled.symbol)
    expected = resource_usage(compiled.cubin.path, cubin_cache)
    assert (usage.registers, usage.shared_bytes, usage.stack_bytes, usage.local_bytes) == (
        expected["REG"], expected["SHARED"], expected["STACK"], expected["LOCAL"])
    assert usage.shared_bytes > 0 and (usage.spill_bytes > 0) == (bn == 256 and hints is None)


def test_what_is_not_a_cubin_of_the_kernel_is_an_error(cubin_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(CubinFormatError, match="not a 64-bit little-endian ELF file"):
        kernel_resources(b"MZ\x90\x00", "k")
    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(cubin_cache))
    z = st.TensorSpec(f16, (4096, 4096), (4096, 1), (64, 64), True)
    compiled = gemm.compile_variant("sm_90", z=z, x=MATRIX, y=MATRIX, BM=64, BN=64, BK=32)
    assert compiled.cubin is not None
    with pytest.raises(CubinFormatError, match="the cubin has no kernel 'other'"):
        kernel_resources(compiled.cubin.cubin, "other")
