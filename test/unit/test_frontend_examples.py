"""The Python kernels of examples/ lower, verify and (with the toolchain) compile for sm_90.

Each example declares specializations (``@st.kernel(specialize=[...])``);
a few more are added here.  Every one must give a verified module of plain
Tile IR (no ``tile_safety`` left) that the bytecode writer encodes; when
``tileiras`` is installed, it must accept the bytecode for sm_90.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from xdsl.dialects.builtin import ModuleOp

import safetile as st
from safetile.backend.bytecode import write_bytecode
from safetile.dialects.cuda_tile.ops.structure import EntryOp, ModuleOp as TileModuleOp
from safetile.dialects.cuda_tile.syntax import print_tile_ir
from safetile.jit import Kernel

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
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


def load_example(name: str) -> Any:
    module_name = f"safetile_example_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def cases() -> Iterator[Any]:
    for name in NAMES:
        for value in vars(load_example(name)).values():
            if isinstance(value, Kernel):
                specs = value.specializations + EXTRA.get(value.name, [])
                for i, spec in enumerate(specs):
                    yield pytest.param(value, spec, id=f"{value.name}-{i}")


def test_every_example_declares_kernels() -> None:
    for name in NAMES:
        kernels = [v for v in vars(load_example(name)).values() if isinstance(v, Kernel)]
        assert kernels, f"examples/{name}.py defines no kernel"
        assert all(k.specializations for k in kernels), f"examples/{name}.py: no specializations"


@pytest.mark.parametrize(("kernel", "spec"), list(cases()))
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


@pytest.mark.parametrize(("kernel", "spec"), list(cases()))
def test_example_compiles_for_sm90(kernel: Kernel, spec: dict[str, Any], toolchain: Any) -> None:
    from safetile.backend.tileiras import CompileOptions, run_tileiras

    bytecode = write_bytecode(kernel.compile(spec), "13.4")
    cubin = run_tileiras(bytecode, CompileOptions("sm_90"), toolchain=toolchain)
    assert cubin.startswith(b"\x7fELF")
