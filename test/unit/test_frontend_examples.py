"""The Python kernels of examples/ lower, verify and (with the toolchain) compile for sm_90.

Each example declares specializations (``@st.kernel(specialize=[...])``);
a few more are added here.  Every one must give a verified module of plain
Tile IR (no ``tile_safety`` left) that the bytecode writer encodes; when
``tileiras`` is installed, it must accept the bytecode for sm_90: one variant
per example in ``make test``, every variant in ``make test-full``, built in
parallel into the suite's cubin cache (``cubin_cache``, test/unit/conftest.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from xdsl.dialects.builtin import ModuleOp

import safetile as st
from safetile.backend.bytecode import write_bytecode
from safetile.dialects.cuda_tile.ops.structure import EntryOp, ModuleOp as TileModuleOp
from safetile.dialects.cuda_tile.syntax import print_tile_ir
from safetile.driver import compile_variant
from safetile.driver.aot import compile_in_parallel
from safetile.jit import Kernel
from support import load_example

NAMES = (
    "add",
    "saxpy",
    "softmax",
    "rms_norm",
    "layer_norm",
    "gemm",
    "persistent_gemm",
    "flash_attention",
    "permute_heads",
)

EXTRA: dict[str, list[dict[str, Any]]] = {
    "gemm": [
        dict(E=st.bf16, BM=64, BN=128, BK=32),
        dict(E=st.f16, BM=128, BN=64, BK=64, x=st.TensorSpec(st.f16, (1000, 1000))),
    ],
    "softmax": [dict(E=st.bf16, BM=2, BN=512)],
    "saxpy": [dict(E=st.f64, S=(256,))],
    "add_2d": [dict(S=(16, 256))],
}


def cases(name: str) -> Iterator[Any]:
    """Every variant of ``examples/<name>.py``'s kernels: the declared ones and ``EXTRA``."""
    for value in vars(load_example(name)).values():
        if isinstance(value, Kernel):
            specs = value.specializations + EXTRA.get(value.name, [])
            for i, spec in enumerate(specs):
                yield pytest.param(value, spec, id=f"{value.name}-{i}")


CASES = [case for name in NAMES for case in cases(name)]


def tile_volume(case: Any) -> int:
    """The product of a variant's integer generics (its tile sizes): how much ``tileiras`` has to
    schedule, so the smallest is the quickest to compile (flash_attention's 128x128 variants take
    ~10 s, its 64x64 one ~3)."""
    volume = 1
    for value in case.values[1].values():
        if isinstance(value, int) and value > 1:
            volume *= value
    return volume


def smallest_of_first_kernel(name: str) -> Any:
    """The variant with the smallest tiles of the first kernel ``examples/<name>.py`` declares
    (its main one: the GEMM of gemm.py, not its split-K sum)."""
    found = list(cases(name))
    first = found[0].values[0]
    return min((case for case in found if case.values[0] is first), key=tile_volume)


SMALLEST_OF_EACH_EXAMPLE = [smallest_of_first_kernel(name) for name in NAMES]
"""The ``make test`` smoke of the sm_90 builds (every variant compiles in the full tier)."""


def test_every_example_declares_kernels() -> None:
    for name in NAMES:
        kernels = [v for v in vars(load_example(name)).values() if isinstance(v, Kernel)]
        assert kernels, f"examples/{name}.py defines no kernel"
        assert all(k.specializations for k in kernels), f"examples/{name}.py: no specializations"


EACH_KERNELS_FIRST = [case if case.id.endswith("-0") else pytest.param(*case.values, id=case.id, marks=pytest.mark.full)
                      for case in CASES]
"""``make test`` lowers each example kernel's first specialization, ``make test-full`` every one."""


@pytest.mark.parametrize(("kernel", "spec"), EACH_KERNELS_FIRST)
def test_example_lowers_to_plain_tile_ir(kernel: Kernel, spec: dict[str, Any]) -> None:
    module = kernel.compile(spec)
    assert isinstance(module, ModuleOp)
    module.verify()
    (tile_module,) = module.body.block.ops
    assert isinstance(tile_module, TileModuleOp)
    (entry,) = tile_module.body.block.ops
    assert isinstance(entry, EntryOp)
    assert entry.sym_name.data == kernel.specialize(**spec).entry_name
    assert "tile_safety" not in print_tile_ir(module)
    assert write_bytecode(module, "13.4").startswith(b"\x7fTileIR\x00")


@pytest.fixture(scope="module")
def toolchain() -> Any:
    from safetile.backend.toolchain import ToolchainError, default_toolchain

    try:
        return default_toolchain()
    except ToolchainError as err:
        pytest.skip(f"no Tile IR toolchain: {err}")


SM90_TESTS = ("test_one_variant_per_example_compiles_for_sm90", "test_example_compiles_for_sm90")


@pytest.fixture(scope="module")
def sm90(toolchain: Any, cubin_cache: Path, request: pytest.FixtureRequest) -> Iterator[None]:
    """The suite's cubin cache, holding for sm_90 every variant this run's sm_90 tests
    compile: built up front, ``tileiras`` runs in parallel (``driver.aot``)."""
    selected = [item for item in request.session.items if getattr(item, "originalname", "") in SM90_TESTS]
    specs = [(item.callspec.params["kernel"], item.callspec.params["spec"]) for item in selected]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SAFETILE_CACHE_DIR", str(cubin_cache))
        compile_in_parallel([(kernel, kernel.specialize(**spec)) for kernel, spec in specs], "sm_90")
        yield


def compiles_for_sm90(kernel: Kernel, spec: dict[str, Any]) -> None:
    """``tileiras`` accepts the variant for sm_90 (a cache hit is a build it accepted)."""
    built = compile_variant(kernel, kernel.specialize(**spec), "sm_90")
    assert built.cubin is not None and built.cubin.cubin.startswith(b"\x7fELF")


@pytest.mark.parametrize(("kernel", "spec"), SMALLEST_OF_EACH_EXAMPLE)
def test_one_variant_per_example_compiles_for_sm90(kernel: Kernel, spec: dict[str, Any], sm90: None) -> None:
    compiles_for_sm90(kernel, spec)


@pytest.mark.full
@pytest.mark.parametrize(("kernel", "spec"), CASES)
def test_example_compiles_for_sm90(kernel: Kernel, spec: dict[str, Any], sm90: None) -> None:
    compiles_for_sm90(kernel, spec)
