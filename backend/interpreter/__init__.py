"""The numpy interpreter: runs ``cuda_tile`` kernels on the CPU.

``run_kernel`` executes one ``entry`` over a grid, one tile block at a time,
with element-wise work vectorised per tile.  It is the CPU backend of the
runtime and a checker: races between tile blocks, out-of-range view indices,
out-of-bounds memory accesses and failed ``assert``/``assume`` are errors
naming the kernel, the tile block and the op.  See docs/interpreter.md.

Modules: ``runner`` (launch API), ``engine`` (execution core), ``ops``
(executors, one module per ``dialects/cuda_tile/ops`` module), ``memory`` (address space),
``races`` (race detector), ``views`` (tile view geometry), ``values``
(runtime values and element types), ``floats`` (rounding and float formats),
``printf`` (``print_tko`` formatting), ``errors``.
"""

from .engine import LaunchOptions, Program
from .errors import (
    AssumptionError,
    DeviceAssertError,
    InterpreterError,
    LaunchError,
    MemoryAccessError,
    OutOfRangeError,
    RaceError,
    UndefinedBehaviorError,
    UnsupportedError,
)
from .memory import Buffer, GlobalMemory
from .ops import DISPATCH
from .runner import LaunchResult, find_entry, run_kernel
from .values import TensorView, TileView, Token
from safetile.backend.elements import from_storage, to_storage
from .views import tile_view

__all__ = [
    "DISPATCH",
    "AssumptionError",
    "Buffer",
    "DeviceAssertError",
    "GlobalMemory",
    "InterpreterError",
    "LaunchError",
    "LaunchOptions",
    "LaunchResult",
    "MemoryAccessError",
    "OutOfRangeError",
    "Program",
    "RaceError",
    "TensorView",
    "TileView",
    "Token",
    "UndefinedBehaviorError",
    "UnsupportedError",
    "find_entry",
    "from_storage",
    "run_kernel",
    "tile_view",
    "to_storage",
]
