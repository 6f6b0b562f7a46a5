"""Kernel launches: ``kernel(z_part, x, y)`` is a lazy ``DeviceOp``.

At the call, before anything moves, the launch is checked and specialized:

* each argument matches its parameter (``st.Mut``/``st.MutMapped``: a live
  ``Partition``; ``st.Ref``: a live ``Tensor`` or ``Shared``; scalars);
* a mutable output sharing memory with any other argument is refused;
* several ``st.Mut`` outputs must have the same grid;
* the variant is inferred from the arguments (dtypes, partition shapes,
  static extents, facts) through ``Kernel.specialize`` and compiled once;
* the launch checks the bounds-check pass recorded (entry attribute
  ``tile_safety.launch_checks``, when present) are evaluated on the shapes.

A refusal raises ``LaunchRefused`` and changes nothing.  Then the arguments
move into the op (``Shared`` handles are only borrowed) and ``sync()`` gives
them back, same type in, same type out: ``z, x, y = add(z, x, y).sync()``.
Keyword arguments are generics the arguments do not determine
(``gemm(z, x, y, BK=32)``) or launch options: ``grid=`` (required meaning
for ``st.MutMapped`` outputs, default one block per tile up to 8 blocks),
``shuffle=``, ``seed=``, ``detect_races=``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, StringAttr

from safetile.backend.interpreter import DISPATCH, find_entry, run_kernel
from safetile.backend.interpreter import Kernel as InterpreterKernel
from safetile.frontend.dsl import TensorSpec
from safetile.frontend.kernel import Kernel

from .backend import select_backend
from .errors import LaunchRefused
from .ops import DeviceOp, Stream
from .tensor import Partition, Shared, Tensor

LAUNCH_CHECKS = "tile_safety.launch_checks"
OPTIONS = ("grid", "shuffle", "seed", "detect_races")
MAPPED_DEFAULT_BLOCKS = 8

_compiled: dict[tuple[int, Any], tuple[Any, InterpreterKernel]] = {}


def _refuse(kernel: Kernel, message: str) -> LaunchRefused:
    return LaunchRefused(f"launch of '{kernel.name}' refused: {message} (no tensor was changed)")


def _array_of(arg: Any) -> np.ndarray:
    if isinstance(arg, Partition):
        return arg.tensor("launch with the partition").storage()
    if isinstance(arg, Shared):
        return arg.tensor("launch with the shared tensor").storage()
    return arg.storage("launch with the tensor")


def launch(kernel: Kernel, *args: Any, **kwargs: Any) -> DeviceOp:
    """The lazy launch of ``kernel`` on host ``args`` (see the module doc)."""
    select_backend()
    options = {k: kwargs.pop(k) for k in OPTIONS if k in kwargs}
    generics = kwargs
    params = [p for p in kernel.params if p.kind != "generic"]
    if len(args) != len(params):
        names = ", ".join(p.name for p in params)
        raise _refuse(kernel, f"it takes {len(params)} arguments ({names}), got {len(args)}")

    # 1. argument kinds and liveness (a dead handle raises OwnershipError)
    specs: dict[str, TensorSpec] = {}
    arrays: dict[str, np.ndarray] = {}
    mutable: list[str] = []
    for p, arg in zip(params, args):
        if p.kind == "tensor":
            mode = p.annotation.mode
            if mode in ("mut", "mapped"):
                if not isinstance(arg, Partition):
                    decl = "st.Mut" if mode == "mut" else "st.MutMapped"
                    raise _refuse(
                        kernel,
                        f"'{p.name}' is {decl}: pass a Partition (tensor.partition(shape)), "
                        f"got {type(arg).__name__}",
                    )
                array = _array_of(arg)
                specs[p.name] = TensorSpec(arg.dtype, arg.tensor_shape, _strides(array), arg.shape)
                mutable.append(p.name)
            else:
                if not isinstance(arg, Tensor | Shared):
                    raise _refuse(
                        kernel, f"'{p.name}' is st.Ref: pass a Tensor or a Shared handle, got {type(arg).__name__}"
                    )
                array = _array_of(arg)
                specs[p.name] = TensorSpec(arg.dtype, tuple(array.shape), _strides(array))
            arrays[p.name] = array
        elif p.kind == "scalar":
            if not isinstance(arg, int | float | bool | np.number | np.bool_):
                raise _refuse(kernel, f"'{p.name}' is a scalar, got {type(arg).__name__}")
        else:
            raise _refuse(kernel, f"'{p.name}' is a raw pointer: the runtime does not pass pointers yet")
    for name, arg in zip((p.name for p in params), args):
        if sum(a is arg for a in args) > 1 and not isinstance(arg, Shared | int | float):
            raise _refuse(kernel, f"'{name}' is passed twice: a tensor can be moved into a launch once")

    # 2. aliasing: a mutable output overlaps no other argument
    for out in mutable:
        for name, array in arrays.items():
            if name != out and np.shares_memory(arrays[out], array):
                raise _refuse(
                    kernel,
                    f"mutable output '{out}' {arrays[out].shape} overlaps the memory of argument "
                    f"'{name}' {array.shape}",
                )

    # 3. the grid
    by_name = dict(zip((p.name for p in params), args))
    mut_grids = {n: by_name[n].launch_grid() for n in mutable if _mode(kernel, n) == "mut"}
    if len(set(mut_grids.values())) > 1:
        listed = ", ".join(f"'{n}' {g}" for n, g in mut_grids.items())
        raise _refuse(kernel, f"its mutable outputs have different grids: {listed}")
    grid = options.get("grid")
    if grid is not None:
        grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
        if mut_grids and grid != next(iter(mut_grids.values())):
            raise _refuse(kernel, f"grid {grid} differs from the partition grid {next(iter(mut_grids.values()))}")
    elif mut_grids:
        grid = next(iter(mut_grids.values()))
    elif mutable:
        tiles = math.prod(by_name[mutable[0]].grid)
        grid = (max(1, min(tiles, MAPPED_DEFAULT_BLOCKS)), 1, 1)
    else:
        raise _refuse(kernel, "it has no mutable output to infer the grid from: pass grid=(x, y, z)")
    mapped = [n for n in mutable if _mode(kernel, n) == "mapped"]
    if mapped and grid[1:] != (1, 1):
        # tile_indices() deals tiles round robin over the x blocks only:
        # blocks differing in y or z would write the same tiles.
        raise _refuse(
            kernel, f"st.MutMapped output '{mapped[0]}' walks its tiles over grid x only: grid {grid} must be (n, 1, 1)"
        )

    # 4. the variant (compile errors name the kernel's source)
    values: dict[str, Any] = {**generics, **specs}
    variant = kernel.specialize(**values)
    module_entry, checks = _compile(kernel, variant, values)

    # 5. launch checks of the bounds-check pass
    _launch_checks(kernel, checks, specs, by_name)

    # 6. move the arguments into the op
    flat: list[Any] = []
    for p, arg in zip(params, args):
        if p.kind == "tensor":
            array = arrays[p.name]
            flat += [array, *array.shape, *_strides(array)]
        else:
            flat.append(arg)

    def run(stream: Stream) -> tuple[Any, ...]:
        try:
            run_kernel(
                module_entry,
                grid,
                flat,
                shuffle=options.get("shuffle", False),
                seed=options.get("seed"),
                detect_races=options.get("detect_races", True),
            )
        except Exception as err:
            # The work failed part-way: the arguments come back on the error
            # (outputs may be partly written).
            err.returned = tuple(_give_back(arg) for arg in args)  # type: ignore[attr-defined]
            raise
        finally:
            for arg in args:
                if isinstance(arg, Shared):
                    arg._release(op)
        return tuple(_give_back(arg) for arg in args)

    op = DeviceOp(f"{kernel.name}{list(grid)}", run)
    for arg in args:
        if isinstance(arg, Shared):
            arg._borrow(op)
        elif isinstance(arg, Tensor | Partition):
            arg._take(op, "launch")
    return op


def _mode(kernel: Kernel, name: str) -> str:
    return next(p.annotation.mode for p in kernel.params if p.name == name)


def _strides(array: np.ndarray) -> tuple[int, ...]:
    return tuple(s // array.itemsize for s in array.strides)


def _compile(kernel: Kernel, variant: Any, values: Mapping[str, Any]) -> tuple[InterpreterKernel, list[str]]:
    """The variant's interpreter kernel and its launch checks (compiled once)."""
    key = (id(kernel), variant.key)
    cached = _compiled.get(key)
    if cached is None or cached[0] is not kernel:
        module, checks = _lower(kernel, variant, values)
        runnable = InterpreterKernel(find_entry(module, variant.entry_name), DISPATCH)
        cached = (kernel, (runnable, checks))
        _compiled[key] = cached
    return cached[1]


def _checks_of(entry: Any) -> list[str]:
    attr = entry.attributes.get(LAUNCH_CHECKS)
    if attr is None:
        return []
    items = list(attr.data) if isinstance(attr, ArrayAttr) else [attr]
    return [i.data if isinstance(i, StringAttr) else str(i) for i in items]


def _lower(kernel: Kernel, variant: Any, values: Mapping[str, Any]) -> tuple[Any, list[str]]:
    """Plain Tile IR for ``variant`` through the safety passes, with the launch
    checks bounds-check elision hoisted to the host (read before the lowering
    strips them).  Without the pass pipeline: ``Kernel.compile`` (checks stay
    in the kernel as asserts)."""
    try:
        from safetile.passes.pipeline import clean_up_passes, safety_passes
    except ImportError:
        module = kernel.compile(dict(values))
        return module, _checks_of(variant.entry)
    from xdsl.utils.exceptions import DiagnosticException

    from safetile.frontend.kernel import context

    module = kernel.module([variant])
    ctx = context()
    checks = _checks_of(variant.entry)
    try:
        for step in safety_passes(launch_checks=True):
            step.apply(ctx, module)
            found = _checks_of(find_entry(module, variant.entry_name))
            checks += [c for c in found if c not in checks]
        for step in clean_up_passes():
            step.apply(ctx, module)
    except DiagnosticException as err:
        raise kernel.error(str(err), "see the safety pass's message") from None
    module.verify()
    return module, checks


def _give_back(arg: Any) -> Any:
    if isinstance(arg, Partition):
        tensor = arg._tensor
        return Partition(Tensor(tensor._array, tensor.dtype), arg.shape)
    if isinstance(arg, Tensor):
        return Tensor(arg._array, arg.dtype)
    return arg


class _Shape:
    """What a launch-check expression sees of a tensor argument."""

    def __init__(self, name: str, spec: TensorSpec, arg: Any):
        self.name = name
        self.shape = spec.shape
        self.strides = spec.strides
        self.stride = spec.strides
        self.partition = spec.partition

    def __repr__(self) -> str:
        return f"{self.name}{self.shape}"


def _launch_checks(kernel: Kernel, checks: list[str], specs: Mapping[str, TensorSpec], args: Mapping[str, Any]) -> None:
    """Evaluate the launch checks the bounds-check pass recorded.

    Each check is ``"message: expression"``: a Python expression over the
    tensor arguments (``ceil_div(x.shape[0], 128) - 1 < ceil_div(z.shape[0], 64)``;
    ``x.strides``, ``z.partition`` and scalar arguments by name also work).
    """
    if not checks:
        return
    env = {n: _Shape(n, s, args[n]) for n, s in specs.items()}
    env.update({n: v for n, v in args.items() if not isinstance(v, Tensor | Partition | Shared)})
    shapes = ", ".join(f"{n}: shape {s.shape}" + (f" partition {s.partition}" if s.partition else "")
                       for n, s in specs.items())
    for text in checks:
        label, _, expr = text.rpartition(": ") if ": " in text else ("", "", text)
        try:
            ok = bool(eval(expr, {"__builtins__": {}, "ceil_div": lambda a, b: -(-a // b)}, env))  # noqa: S307
        except Exception as err:  # a check this runtime cannot read
            raise _refuse(kernel, f"cannot evaluate launch check {text!r}: {err}") from None
        if not ok:
            raise _refuse(kernel, f"launch check {label or expr!r} failed: {expr} with {shapes}")


Kernel.launch_hook = launch
