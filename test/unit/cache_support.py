"""Fixtures of the cubin cache's tests (test_cache.py, test_cache_degrading.py):
the vector add's bytecode, the installed toolchain, and a stand-in for it.

A test module takes them by importing them (pytest finds a fixture imported
into a module as one defined there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bytecode_support import skip_without_toolchain, stand_in_toolchain
from safetile.backend import toolchain as toolchains
from safetile.backend.cache import compile_cubin, to_bytecode
from safetile.backend.toolchain import Toolchain
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from support import EXAMPLES_DIR, make_context

VECTOR_ADD = (EXAMPLES_DIR / "tileir" / "vector_add.mlir").read_text()


@pytest.fixture(scope="module")
def real_tools() -> Toolchain:
    """The installed (pinned) toolchain."""
    if skip_without_toolchain():
        pytest.skip("SAFETILE_SKIP_TOOLCHAIN_TESTS=1")
    return toolchains.default_toolchain()


@pytest.fixture(scope="module")
def bytecode() -> bytes:
    """The vector add as sm_90 bytecode."""
    return to_bytecode(parse_tile_ir(make_context(), VECTOR_ADD), "sm_90")


@pytest.fixture(scope="module")
def tools(
    real_tools: Toolchain, bytecode: bytes, cubin_cache: Path, tmp_path_factory: pytest.TempPathFactory
) -> Toolchain:
    """A stand-in toolchain writing the real toolchain's cubin of the vector add."""
    built = compile_cubin(bytecode, "sm_90", cache_dir=cubin_cache, toolchain=real_tools)
    return stand_in_toolchain(real_tools, built.cubin, tmp_path_factory.mktemp("stand-in"))
