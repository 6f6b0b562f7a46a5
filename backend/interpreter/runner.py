"""The launch API: ``run_kernel`` runs one ``entry`` over a grid of tile blocks.

Arguments are matched to the entry's parameters in order:

* ``tile<ptr<E>>``: a numpy array (registered in the launch's memory by
  reference, so stores reach it) or an address (``int``) already in it;
* ``tile<iN>`` / ``tile<fN>``: a Python or numpy number;
* ``tensor_view<...>``: a numpy array (its shape and strides, which must
  agree with the static ones of the type) or a ``TensorView``;
* a tile view type: a ``TileView`` of that type.

A ``GlobalMemory`` passed as ``memory`` persists across launches (tensors
allocated once, ``global`` values kept); by default each call gets a fresh
one.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np
from xdsl.dialects.builtin import ModuleOp as BuiltinModule
from xdsl.ir import Attribute, Operation

from safetile.backend import elements
from safetile.dialects.cuda_tile.ops.structure import EntryOp, ModuleOp, entries
from safetile.dialects.cuda_tile.types import (
    DYNAMIC,
    PointerType,
    TensorViewType,
    TileType,
    TileViewType,
)

from .engine import Program, Launch, LaunchOptions
from .errors import BlockId, LaunchError
from .memory import GlobalMemory
from .ops import DISPATCH
from .races import RaceDetector
from .values import TensorView, TileView

MAX_GRID = 2**24 - 1
"""Largest number of tile blocks along one grid dimension."""


@dataclass(frozen=True)
class LaunchResult:
    """What a launch did."""

    kernel: str
    grid: BlockId
    order: tuple[BlockId, ...]
    """The tile blocks in the order they ran (shuffled with ``shuffle``)."""
    memory: GlobalMemory


def find_entry(module_or_entry: Operation, name: str | None = None) -> EntryOp:
    """The ``entry`` to run: ``module_or_entry`` itself, or the one named
    ``name`` (or the only one) in a module."""
    if isinstance(module_or_entry, EntryOp):
        return module_or_entry
    if not isinstance(module_or_entry, ModuleOp | BuiltinModule):
        raise LaunchError(f"expected a module or an entry, got '{module_or_entry.name}'")
    found = list(entries(module_or_entry))
    if name is not None:
        found = [e for e in found if e.sym_name.data == name]
    if len(found) != 1:
        names = ", ".join(f"@{e.sym_name.data}" for e in found) or "none"
        wanted = f"entry @{name}" if name is not None else "exactly one entry"
        raise LaunchError(f"expected {wanted} in the module, found {names}")
    return found[0]


def run_kernel(
    module_or_entry: Operation | Program,
    grid: Sequence[int] = (1, 1, 1),
    args: Sequence[Any] = (),
    *,
    entry: str | None = None,
    memory: GlobalMemory | None = None,
    shuffle: bool = False,
    seed: int | None = None,
    detect_races: bool = True,
    check_bounds: bool = True,
    check_assumes: bool = False,
    stream: TextIO | None = None,
) -> LaunchResult:
    """Run an ``entry`` on every tile block of ``grid``, one block at a time.

    ``module_or_entry`` is a module (``entry`` names the kernel if it holds
    several), an ``entry`` op, or a ``Program`` (which keeps its compiled ops
    across launches; build one with ``Program(entry, DISPATCH)`` and do not
    change the IR under it).
    ``shuffle`` runs the blocks in a random order (``seed`` fixes it);
    ``detect_races`` makes conflicting accesses of two blocks a
    ``RaceError``; ``check_bounds`` makes view indices outside the index
    space an ``OutOfRangeError`` (else those tiles are fully masked);
    ``check_assumes`` checks every ``assume`` predicate.  ``print_tko``
    writes to ``stream`` (default: ``sys.stdout``).
    """
    if isinstance(module_or_entry, Program):
        kernel = module_or_entry
    else:
        kernel = Program(find_entry(module_or_entry, entry), DISPATCH)
    full_grid = _grid(grid)
    memory = GlobalMemory() if memory is None else memory
    options = LaunchOptions(shuffle, seed, detect_races, check_bounds, check_assumes, stream)
    arguments = marshal_arguments(kernel, args, memory)
    launch = Launch(
        kernel,
        full_grid,
        memory,
        options,
        RaceDetector(full_grid) if detect_races else None,
        sys.stdout if stream is None else stream,
    )
    order = kernel.run(launch, arguments)
    return LaunchResult(kernel.name, full_grid, tuple(order), memory)


def _grid(grid: Sequence[int]) -> BlockId:
    dims = tuple(int(g) for g in grid)
    if not 1 <= len(dims) <= 3:
        raise LaunchError(f"a grid has 1 to 3 dimensions, got {len(dims)}")
    dims = dims + (1,) * (3 - len(dims))
    if any(not 1 <= d <= MAX_GRID for d in dims):
        raise LaunchError(f"grid {dims}: every dimension must be in [1, {MAX_GRID}]")
    return dims  # type: ignore[return-value]


def marshal_arguments(kernel: Program, args: Sequence[Any], memory: GlobalMemory) -> list[Any]:
    """The entry's argument values from host ``args``."""
    params = kernel.entry.body.block.args
    if len(args) != len(params):
        expected = ", ".join(_param_name(p, i) + f": {p.type}" for i, p in enumerate(params))
        raise LaunchError(
            f"@{kernel.name} takes {len(params)} arguments ({expected}), got {len(args)}"
        )
    out = []
    for i, (param, arg) in enumerate(zip(params, args)):
        name = _param_name(param, i)
        try:
            out.append(_argument(param.type, arg, name, memory))
        except (TypeError, ValueError) as err:
            raise LaunchError(f"@{kernel.name} argument {i} ({name}: {param.type}): {err}") from None
    return out


def _param_name(param: Any, i: int) -> str:
    return f"%{param.name_hint}" if param.name_hint else f"argument {i}"


def _argument(t: Attribute, arg: Any, name: str, memory: GlobalMemory) -> Any:
    if isinstance(t, TileType):
        elem = t.element_type
        if isinstance(elem, PointerType):
            if isinstance(arg, np.ndarray):
                return np.asarray(memory.register(arg, name.lstrip("%")), dtype=np.uint64)
            if isinstance(arg, (int, np.integer)) and 0 <= int(arg) < 2**64:
                return np.asarray(int(arg), dtype=np.uint64)
            raise TypeError(f"expected a numpy array or an address, got {type(arg).__name__}")
        return elements.scalar(arg, elem)
    if isinstance(t, TensorViewType):
        return _tensor_view(t, arg, name, memory)
    if isinstance(t, TileViewType):
        if not isinstance(arg, TileView) or arg.type != t:
            raise TypeError(f"expected a TileView of type {t}")
        return arg
    raise TypeError(f"parameters of type {t} are not supported")


def _tensor_view(t: TensorViewType, arg: Any, name: str, memory: GlobalMemory) -> TensorView:
    if isinstance(arg, TensorView):
        view = arg
    elif isinstance(arg, np.ndarray):
        item = elements.storage_dtype(t.element_type).itemsize
        if arg.itemsize != item:
            raise TypeError(f"array elements take {arg.itemsize} bytes, {t.element_type} takes {item}")
        base = memory.register(arg, name.lstrip("%")) if arg.size else 0
        view = TensorView(t, base, arg.shape, tuple(s // item for s in arg.strides))
    else:
        raise TypeError(f"expected a numpy array or a TensorView, got {type(arg).__name__}")
    for what, static, actual in (("shape", t.shape, view.shape), ("strides", t.strides, view.strides)):
        if len(static) != len(actual) or any(s not in (DYNAMIC, a) for s, a in zip(static, actual)):
            raise ValueError(f"{what} {tuple(actual)} does not match {t}")
    return TensorView(t, view.base, tuple(view.shape), tuple(view.strides))
