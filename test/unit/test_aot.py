"""``driver.aot.compile_in_parallel``: many variants into the cubin cache, each built once.

Needs the ``tileiras`` wheels (pinned; CPU only), as test_tileiras.py does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import safetile as st
from safetile import f8e4m3fn, f32
from safetile.backend.tileiras import TileirasError
from safetile.driver import compile_variant
from safetile.driver.aot import compile_in_parallel


@st.kernel
def scale(z: st.Mut[f32, ("B",)], x: st.Ref[f32, (-1,)], *, B: int):
    z.store(st.load_tile_like(x, z) * 2.0)


def test_each_distinct_variant_is_built_once_then_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(tmp_path))
    vector = st.TensorSpec(f32, (1024,), (1,), None, True)
    jobs = [(scale, scale.specialize(z=vector, x=vector, B=b)) for b in (16, 16, 32)]
    # the two B=16 jobs are one variant: one bytecode, one build
    assert compile_in_parallel(jobs, "sm_90") == 2
    assert compile_in_parallel(jobs, "sm_90") == 0
    built = compile_variant(scale, jobs[2][1], "sm_90")
    assert built.cubin is not None and not built.cubin.compiled
    assert built.cubin.path.is_relative_to(tmp_path)


@st.kernel
def copy_fp8(z: st.Mut[f8e4m3fn, (16,)], x: st.Ref[f8e4m3fn, (-1,)]):
    z.store(st.load_tile_like(x, z))


def test_a_variant_that_does_not_build_is_left_to_the_callers_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAFETILE_CACHE_DIR", str(tmp_path))
    vector = st.TensorSpec(f8e4m3fn, (1024,), (1,), None, True)
    jobs = [(copy_fp8, copy_fp8.specialize(z=vector, x=vector))]
    assert compile_in_parallel(jobs, "sm_80") == 1  # tileiras refuses f8 for sm_80: nothing raised here
    assert not list(tmp_path.glob("cubin-v1/*/*/*.cubin"))
    with pytest.raises(TileirasError, match="unsupported type 'f8E4M3FN'"):
        compile_variant(copy_fp8, jobs[0][1], "sm_80")
