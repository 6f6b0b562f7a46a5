"""safetile: safe GPU tile kernels in Python, compiled through NVIDIA Tile IR.

``import safetile as st`` gives the kernel language (``st.kernel``,
``st.function``, element types, ``st.Mut``/``st.Ref``/``st.Ptr``, and every
kernel-language function: see docs/language.md), the host runtime
(``st.Tensor``, ``st.Partition``, ``st.zeros``, ``st.from_numpy``,
``DeviceOp``s, graphs: docs/runtime.md), the compile driver
(``st.CompiledVariant``, ``st.register_pipeline_pass``), the Tile IR text
API (``parse_tile_ir``, ``print_tile_ir``) and the torch edge (``st.kernel_op``,
``st.nn``: docs/torch.md; they import torch).  The stages of the compiler are
subpackages: ``safetile.frontend``, ``safetile.dialects``,
``safetile.passes``, ``safetile.backend``, ``safetile.driver``,
``safetile.runtime`` and ``safetile.tools`` (docs/architecture.md).

Importing is cheap: each name is imported from its stage when first used
(the dialect and xDSL take most of a second to import; ``tile-opt --help``
and a script that only builds tensors need not pay for the compiler).
"""

from __future__ import annotations

import importlib
from typing import Any

_DSL = "safetile.frontend.dsl"
_RUNTIME = "safetile.runtime"

_WHERE: dict[str, tuple[str, str]] = {
    "DType": (_DSL, "DType"),
    "Mut": (_DSL, "Mut"),
    "MutMapped": (_DSL, "MutMapped"),
    "PartitionView": (_DSL, "PartitionView"),
    "Ptr": (_DSL, "Ptr"),
    "Ref": (_DSL, "Ref"),
    "Shape": (_DSL, "Shape"),
    "TensorView": (_DSL, "TensorView"),
    "TensorSpec": (_DSL, "TensorSpec"),
    "Tile": (_DSL, "Tile"),
    "Token": (_DSL, "Token"),
    "abs": (_DSL, "abs"),
    "add": (_DSL, "add"),
    "astype": (_DSL, "astype"),
    "assume_bounds": (_DSL, "assume_bounds"),
    "assume_bounds_lower": (_DSL, "assume_bounds_lower"),
    "assume_bounds_upper": (_DSL, "assume_bounds_upper"),
    "assume_div_by": (_DSL, "assume_div_by"),
    "atan2": (_DSL, "atan2"),
    "atomic_cas": (_DSL, "atomic_cas"),
    "atomic_rmw": (_DSL, "atomic_rmw"),
    "bf16": (_DSL, "bf16"),
    "bitcast": (_DSL, "bitcast"),
    "bool_": (_DSL, "bool_"),
    "broadcast": (_DSL, "broadcast"),
    "broadcast_scalar": (_DSL, "broadcast_scalar"),
    "cat": (_DSL, "cat"),
    "ceil": (_DSL, "ceil"),
    "ceil_div": (_DSL, "ceil_div"),
    "constant": (_DSL, "constant"),
    "convert_tile": (_DSL, "convert_tile"),
    "cos": (_DSL, "cos"),
    "cosh": (_DSL, "cosh"),
    "cumprod": (_DSL, "cumprod"),
    "cumsum": (_DSL, "cumsum"),
    "device_assert": (_DSL, "device_assert"),
    "exp": (_DSL, "exp"),
    "exp2": (_DSL, "exp2"),
    "extract": (_DSL, "extract"),
    "f8e4m3fn": (_DSL, "f8e4m3fn"),
    "f8e5m2": (_DSL, "f8e5m2"),
    "f16": (_DSL, "f16"),
    "f32": (_DSL, "f32"),
    "f64": (_DSL, "f64"),
    "floor": (_DSL, "floor"),
    "fma": (_DSL, "fma"),
    "grouped": (_DSL, "grouped"),
    "i8": (_DSL, "i8"),
    "i16": (_DSL, "i16"),
    "i32": (_DSL, "i32"),
    "i64": (_DSL, "i64"),
    "int_to_ptr": (_DSL, "int_to_ptr"),
    "iota": (_DSL, "iota"),
    "join_tokens": (_DSL, "join_tokens"),
    "load_ptr": (_DSL, "load_ptr"),
    "load_ptr_tko": (_DSL, "load_ptr_tko"),
    "load_tile_like": (_DSL, "load_tile_like"),
    "load_tile_mut": (_DSL, "load_tile_mut"),
    "log": (_DSL, "log"),
    "log2": (_DSL, "log2"),
    "make_tensor_view": (_DSL, "make_tensor_view"),
    "make_token": (_DSL, "make_token"),
    "load_tensor": (_DSL, "load_tensor"),
    "get_tensor_token": (_DSL, "get_tensor_token"),
    "set_tensor_token": (_DSL, "set_tensor_token"),
    "get_partition_token": (_DSL, "get_partition_token"),
    "get_partition_token_mut": (_DSL, "get_partition_token_mut"),
    "max": (_DSL, "max"),
    "maximum": (_DSL, "maximum"),
    "min": (_DSL, "min"),
    "minimum": (_DSL, "minimum"),
    "mma": (_DSL, "mma"),
    "mul": (_DSL, "mul"),
    "mulhi": (_DSL, "mulhi"),
    "num_tile_blocks": (_DSL, "num_tile_blocks"),
    "num_tiles": (_DSL, "num_tiles"),
    "offset": (_DSL, "offset"),
    "pack": (_DSL, "pack"),
    "permute": (_DSL, "permute"),
    "pow": (_DSL, "pow"),
    "print": (_DSL, "print"),
    "prod": (_DSL, "prod"),
    "ptr_to_int": (_DSL, "ptr_to_int"),
    "ptr_to_ptr": (_DSL, "ptr_to_ptr"),
    "reduce": (_DSL, "reduce"),
    "reshape": (_DSL, "reshape"),
    "rsqrt": (_DSL, "rsqrt"),
    "scan": (_DSL, "scan"),
    "select": (_DSL, "select"),
    "sin": (_DSL, "sin"),
    "sinh": (_DSL, "sinh"),
    "sqrt": (_DSL, "sqrt"),
    "static_range": (_DSL, "static_range"),
    "store_ptr": (_DSL, "store_ptr"),
    "sub": (_DSL, "sub"),
    "sum": (_DSL, "sum"),
    "tan": (_DSL, "tan"),
    "tanh": (_DSL, "tanh"),
    "tf32": (_DSL, "tf32"),
    "tile_block_id": (_DSL, "tile_block_id"),
    "transpose": (_DSL, "transpose"),
    "true_div": (_DSL, "true_div"),
    "u8": (_DSL, "u8"),
    "u16": (_DSL, "u16"),
    "u32": (_DSL, "u32"),
    "u64": (_DSL, "u64"),
    "unpack": (_DSL, "unpack"),
    "unsafe": (_DSL, "unsafe"),
    "where": (_DSL, "where"),
    "Diagnostic": ("safetile.dialects.cuda_tile.diagnostics", "Diagnostic"),
    "TileIRError": ("safetile.dialects.cuda_tile.diagnostics", "TileIRError"),
    "parse_tile_ir": ("safetile.dialects.cuda_tile.syntax", "parse_tile_ir"),
    "print_tile_ir": ("safetile.dialects.cuda_tile.syntax", "print_tile_ir"),
    "CompileError": ("safetile.frontend.errors", "CompileError"),
    "KernelOptions": ("safetile.frontend.kernel", "KernelOptions"),
    "function": ("safetile.frontend.kernel", "function"),
    "Kernel": ("safetile.jit", "Kernel"),
    "kernel": ("safetile.jit", "kernel"),
    "warm_up": ("safetile.jit", "warm_up_kernel"),
    "autotune": ("safetile.runtime.autotune", "autotune"),
    "Config": ("safetile.runtime.autotune", "Config"),
    "CompiledVariant": ("safetile.driver", "CompiledVariant"),
    "CompileOptions": ("safetile.driver", "CompileOptions"),
    "register_pipeline_pass": ("safetile.driver", "register_pipeline_pass"),
    "trusted": ("safetile.driver", "trusted"),
    "DeviceOp": (_RUNTIME, "DeviceOp"),
    "Graph": (_RUNTIME, "Graph"),
    "Stream": (_RUNTIME, "Stream"),
    "Tensor": (_RUNTIME, "Tensor"),
    "Partition": (_RUNTIME, "Partition"),
    "Shared": (_RUNTIME, "Shared"),
    "arange": (_RUNTIME, "arange"),
    "as_tensor": (_RUNTIME, "as_tensor"),
    "current_backend": (_RUNTIME, "current_backend"),
    "from_dlpack": (_RUNTIME, "from_dlpack"),
    "from_numpy": (_RUNTIME, "from_numpy"),
    "shared": (_RUNTIME, "shared"),
    "UnsafePointer": (_RUNTIME, "UnsafePointer"),
    "unsafe_pointer": (_RUNTIME, "unsafe_pointer"),
    "zip": (_RUNTIME, "zip"),
    "LaunchRefused": (_RUNTIME, "LaunchRefused"),
    "IdenticalTilesWarning": (_RUNTIME, "IdenticalTilesWarning"),
    "OwnershipError": (_RUNTIME, "OwnershipError"),
    "kernel_op": ("safetile.runtime.torch", "kernel_op"),
    "KernelLaunch": ("safetile.runtime.torch", "KernelLaunch"),
    "OutputSpec": ("safetile.runtime.torch", "OutputSpec"),
}
"""Each public name: the module it comes from, and its name there."""

_HOST_TWINS = ("zeros", "ones", "full")
"""Kernel-language functions that allocate a tensor when called on the host."""

_SUBMODULES = ("testing", "nn")
"""Modules of the facade imported on first use (``st.testing.do_bench``; ``st.nn``, the torch
layers, imports torch)."""


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        module, attr = _WHERE[name]
        value = getattr(importlib.import_module(module), attr)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"safetile.{name}")
    elif name in _HOST_TWINS:
        dsl, runtime = importlib.import_module(_DSL), importlib.import_module(_RUNTIME)
        value = dsl.with_host(getattr(dsl, name), getattr(runtime, name))
    elif name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("safetile")
        except PackageNotFoundError:  # a source tree that is not installed
            value = "0.0.0"
    else:
        from safetile.frontend.spellings import spelling  # no imports of its own: cheap

        hint = None if name.startswith("_") else spelling(name)
        raise AttributeError(f"module 'safetile' has no attribute '{name}'" + (f"; {hint}" if hint else ""))
    globals()[name] = value  # the next access is a plain attribute read
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE, *_HOST_TWINS, *_SUBMODULES, "__version__"])


_NEEDS_TORCH = ("kernel_op", "KernelLaunch", "OutputSpec")
"""Names of the torch edge: importing them imports torch (a test dependency), so ``import *`` leaves them out."""

__all__ = sorted([n for n in [*_WHERE, *_HOST_TWINS] if n != "zip" and n not in _NEEDS_TORCH])  # st.zip composes DeviceOps
