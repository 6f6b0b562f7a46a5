"""Cubins built on a CPU machine launch on a GPU and match numpy (marked ``gpu``).

Needs numpy, cuda-python and a cache folder from ``build_cache.py`` named by
``$SAFETILE_CACHE_DIR``; not safetile, xDSL or tileiras.  Skipped where there
is no cuda-python, no GPU, no folder, or a GPU of another architecture than
the cubins'.

    SAFETILE_CACHE_DIR=build/gpu-cache python -m pytest test/gpu -m gpu -v -s
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

pytestmark = pytest.mark.gpu

pytest.importorskip("cuda.bindings.driver", reason="needs cuda-python (cuda.bindings)")

import cubin_launch  # noqa: E402  (needs cuda-python)


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    """The cache folder, with a GPU's context current while the tests run."""
    path = cubin_launch.cache_dir()
    if path is None:
        pytest.skip(f"set {cubin_launch.CACHE_ENV} to a folder built by test/gpu/build_cache.py")
    with ExitStack() as stack:
        try:
            name = stack.enter_context(cubin_launch.device())
        except cubin_launch.NoGpu as err:
            pytest.skip(str(err))
        print(f"\ndevice: {name}")
        yield path


@pytest.mark.parametrize(
    "check",
    [cubin_launch.check_vector_add, cubin_launch.check_matmul],
    ids=["vector_add", "matmul"],
)
def test_launch(folder: Path, check: Callable[[Path], str]) -> None:
    try:
        print(check(folder))
    except cubin_launch.CudaError as err:
        if err.name == "CUDA_ERROR_NO_BINARY_FOR_GPU":
            pytest.skip(f"the cubins are for another GPU ({err}): build_cache.py --arch sm_XY")
        raise
