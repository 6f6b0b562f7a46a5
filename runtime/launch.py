"""Kernel launches: ``kernel(z_part, x, y)`` is a lazy ``DeviceOp``.

At the call, before anything moves, the launch is checked and specialized:

* each argument matches its parameter (``st.Mut``/``st.MutMapped``: a live
  ``Partition``; ``st.Ref``: a live ``Tensor`` or ``Shared``; scalars), on
  the backend in use;
* a mutable output sharing memory with any other argument is refused;
* several ``st.Mut`` outputs must have the same grid;
* the variant is inferred from the arguments (dtypes, partition shapes,
  static extents, facts) through ``Kernel.specialize`` and compiled once
  (on the GPU: JIT through the cubin cache);
* the launch checks the bounds-check pass recorded (entry attribute
  ``tile_safety.launch_checks``, when present) are evaluated on the shapes.

A refusal raises ``LaunchRefused`` and changes nothing.  Then the arguments
move into the op (``Shared`` handles are only borrowed) and driving it gives
them back, same type in, same type out: ``z, x, y = add(z, x, y).sync()``.
Keyword arguments are generics the arguments do not determine
(``gemm(z, x, y, BK=32)``) or launch options: ``grid=`` (required meaning
for ``st.MutMapped`` outputs, default one block per tile up to 8 blocks),
and for the CPU interpreter ``shuffle=``, ``seed=``, ``detect_races=``.

Warm launches are cheap: everything the argument *signature* fixes (types,
dtypes, shapes, strides, partitions, alignment, generics) — the variant, the
loaded kernel, the grid and the launch checks' verdict — is kept in a
``_Plan``; a launch with a known signature only checks liveness, aliasing
and duplicates, then packs the parameters.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, StringAttr

from safetile.backend import cache
from safetile.frontend.dsl import TensorSpec
from safetile.frontend.kernel import Kernel

from .backend import Backend, current_backend
from .errors import DeviceOpError, LaunchRefused
from .ops import DeviceOp
from .stream import Stream
from .tensor import Holder, Partition, Shared, Tensor

LAUNCH_CHECKS = "tile_safety.launch_checks"
AOT_ENV = "SAFETILE_AOT_ARCHS"
SANITIZE_ENV = "SAFETILE_SANITIZE"
"""``memcheck``: cubins are built with ``tileiras --sanitize=memcheck``."""
OPTIONS = ("grid", "shuffle", "seed", "detect_races")
RUN_OPTIONS = ("shuffle", "seed", "detect_races")
MAPPED_DEFAULT_BLOCKS = 8

_compiled: dict[tuple[int, Any, str], tuple[Kernel, tuple[Any, list[str]]]] = {}
"""(kernel, variant key, backend) -> (kernel, (runnable, launch checks))."""



def _refuse(kernel: Kernel, message: str) -> LaunchRefused:
    return LaunchRefused(f"launch of '{kernel.name}' refused: {message} (no tensor was changed)")


@dataclass
class _Check:
    text: str
    label: str
    expr: str
    code: CodeType
    uses_scalars: bool


@dataclass
class _Plan:
    """What one argument signature fixes about a launch."""

    name: str
    """The ops' name: kernel and grid."""
    runnable: Any
    grid: tuple[int, int, int]
    specs: dict[str, TensorSpec]
    tensors: tuple[int, ...]
    """Positions of the tensor arguments."""
    moved: tuple[int, ...]
    """Positions of the arguments moved into the op (tensors and partitions, not shared handles)."""
    moved_pairs: tuple[tuple[int, int], ...]
    """Pairs of those positions: the same handle passed at both is refused."""
    overlap_pairs: tuple[tuple[int, int], ...]
    """(mutable output, other tensor) pairs, as indices into ``tensors``: their memory must not meet."""
    shared: tuple[int, ...]
    template: list[Any]
    """The flat ABI parameters with the shapes and strides filled in; a launch
    fills in the tensors' memory (``Backend.bind``) and the scalars."""
    storage_slots: tuple[tuple[int, int], ...]
    """(parameter position, index into ``tensors``) of each tensor's memory."""
    scalar_slots: tuple[tuple[int, int], ...]
    """(parameter position, argument position) of each scalar."""
    scalar_checks: list[_Check] = field(default_factory=list)
    """Launch checks that read scalar arguments: evaluated at every launch."""


def launch(kernel: Kernel, *args: Any, **kwargs: Any) -> DeviceOp:
    """The lazy launch of ``kernel`` on host ``args`` (see the module doc)."""
    backend = current_backend()
    signature = _signature(args, kwargs)
    plan = kernel.runtime_plans.get(signature)
    if plan is None:
        plan = kernel.runtime_plans[signature] = _plan(kernel, backend, args, kwargs)

    # Per launch: liveness, duplicates, aliasing, scalar-dependent checks.
    # (This is the hot path of every warm launch: keep it lean.)
    storages = []
    for i in plan.tensors:
        arg = args[i]
        if arg._taken_by is not None:
            arg._check_live(f"launch with the {arg._kind}")
        storages.append((arg if type(arg) is Tensor else arg._tensor)._array)
    for i, j in plan.moved_pairs:
        if args[i] is args[j]:
            raise _refuse(kernel, f"'{_params(kernel)[i].name}' is passed twice: a tensor can be moved into a "
                                  "launch once")
    overlaps = backend.overlaps
    for out, j in plan.overlap_pairs:
        if overlaps(storages[out], storages[j]):
            params = _params(kernel)
            raise _refuse(
                kernel,
                f"mutable output '{params[plan.tensors[out]].name}' {storages[out].shape} overlaps the "
                f"memory of argument '{params[plan.tensors[j]].name}' {storages[j].shape}",
            )
    if plan.scalar_checks:
        _run_checks(kernel, plan.scalar_checks, plan.specs, _params(kernel), args)

    flat = plan.template.copy()
    bind = backend.bind
    for pos, j in plan.storage_slots:
        flat[pos] = bind(storages[j])
    for pos, i in plan.scalar_slots:
        flat[pos] = args[i]
    op = _Launch(plan, backend, args, flat, storages,
                 {k: kwargs[k] for k in RUN_OPTIONS if k in kwargs} if kwargs else _NO_OPTIONS)
    for i in plan.shared:
        args[i]._borrow(op)
    for i in plan.moved:
        args[i]._taken_by = op  # all live: checked above
    return op


class _Launch(DeviceOp):
    """A kernel launch: enqueueing it launches the kernel and gives the arguments back."""

    def __init__(self, plan: _Plan, backend: Backend, args: tuple[Any, ...], flat: list[Any], storages: list[Any],
                 options: dict[str, Any]):
        super().__init__(plan.name, self._launch)
        self._plan, self._backend, self._args, self._flat, self._storages = plan, backend, args, flat, storages
        self._options = options

    def _launch(self, stream: Stream) -> tuple[Any, ...]:
        plan, args = self._plan, self._args
        try:
            self._backend.launch(plan.runnable, plan.grid, self._flat, self._storages, stream, self._options)
        except Exception as err:
            # The work failed part-way: the arguments come back on the error
            # (outputs may be partly written).
            err.returned = _give_back(args, plan.moved)  # type: ignore[attr-defined]
            raise
        finally:
            for i in plan.shared:
                args[i]._release(self)
            # An op runs once: let the memory go with the handles given back.
            self._flat = self._storages = self._args = ()
        return _give_back(args, plan.moved)


    def prepare(self) -> Prepared:
        """Keep this launch to enqueue again and again (see ``Prepared``); this op is consumed."""
        return Prepared(self)


class Prepared(Holder):
    """A launch whose arguments stay moved into it, enqueued again and again.

        p = add(z, x, y).prepare()     # checked and packed once
        for _ in range(n):
            p.enqueue(stream)          # the same kernel on the same tensors
        z, x, y = p.release()          # waits, and gives the arguments back

    Like a graph, it holds its tensors for its life (using them raises
    ``OwnershipError`` naming it), so every enqueue is the bare launch: on
    the GPU one ``cuLaunchKernel`` of parameters packed once.
    """

    def __init__(self, op: _Launch):
        op._claim("prepare")
        self._plan, self._args, self._op_name = op._plan, op._args, op.name
        self._enqueue: Callable[[Stream], None] | None = op._backend.bind_launch(
            op._plan.runnable, op._plan.grid, op._flat, op._storages, op._options)
        self._streams: list[Stream] = []
        self.launches = 0
        op.state = "prepared"
        for i in self._plan.moved:
            self._args[i]._taken_by = self
        for i in self._plan.shared:
            self._args[i]._release(op)
            self._args[i]._borrow(self)

    def describe(self) -> str:
        return f"Prepared({self._op_name}, {self.launches} launches)"

    def __repr__(self) -> str:
        return f"<{self.describe()}>"

    def enqueue(self, stream: Stream | None = None) -> None:
        """Enqueue one launch (default: on the backend's default stream); returns at once."""
        if self._enqueue is None:
            raise DeviceOpError(f"cannot enqueue {self.describe()}: it was released")
        stream = stream or current_backend().default_stream
        self._enqueue(stream)
        if stream not in self._streams:
            self._streams.append(stream)
        self.launches += 1

    def sync(self, stream: Stream | None = None) -> None:
        """Launch once and wait."""
        stream = stream or current_backend().default_stream
        self.enqueue(stream)
        stream.synchronize()

    def release(self) -> tuple[Any, ...]:
        """Wait for every launch and give the arguments back (same types as passed)."""
        if self._enqueue is None:
            raise DeviceOpError(f"cannot release {self.describe()}: it was released")
        for stream in self._streams:
            stream.synchronize()
        self._enqueue = None
        for i in self._plan.shared:
            self._args[i]._release(self)
        return _give_back(self._args, self._plan.moved)


_NO_OPTIONS: dict[str, Any] = {}


def _params(kernel: Kernel) -> list[Any]:
    return [p for p in kernel.params if p.kind != "generic"]


def _give_back(args: Sequence[Any], moved: Sequence[int]) -> tuple[Any, ...]:
    """Same type in, same type out: fresh handles for what was moved in."""
    out = list(args)
    for i in moved:
        out[i] = args[i].fresh()
    return tuple(out)


def _signature(args: Sequence[Any], kwargs: Mapping[str, Any]) -> tuple[Any, ...]:
    """Everything about the arguments that a plan depends on (not addresses, except alignment)."""
    parts: list[Any] = []
    for arg in args:
        kind = type(arg)
        if kind is Tensor or kind is Partition or kind is Shared:
            key = arg._launch_key
            if key is None:
                tensor = arg if kind is Tensor else arg._tensor
                s = tensor._array
                key = arg._launch_key = (kind, tensor.dtype.name, s.shape, s.strides, _address(s) % 16 == 0,
                                         arg.shape if kind is Partition else None, type(s))
            parts.append(key)
        else:
            parts.append(kind)
    if kwargs:
        parts.append(tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in kwargs.items()
                                  if k not in RUN_OPTIONS)))
    return tuple(parts)


def _address(storage: Any) -> int:
    return storage.ctypes.data if isinstance(storage, np.ndarray) else storage.ptr


def _storage_of(arg: Any) -> Any:
    if isinstance(arg, Partition):
        return arg.tensor("launch with the partition").storage()
    if isinstance(arg, Shared):
        return arg.tensor("launch with the shared tensor").storage()
    return arg.storage("launch with the tensor")


def _strides(storage: Any) -> tuple[int, ...]:
    return tuple(s // storage.itemsize for s in storage.strides)


def _plan(kernel: Kernel, backend: Backend, args: Sequence[Any], kwargs: Mapping[str, Any]) -> _Plan:
    """Check a new signature and compile its variant (refusals raise ``LaunchRefused``)."""
    params = _params(kernel)
    if len(args) != len(params):
        names = ", ".join(p.name for p in params)
        raise _refuse(kernel, f"it takes {len(params)} arguments ({names}), got {len(args)}")
    grid_option = kwargs.get("grid")
    generics = {k: v for k, v in kwargs.items() if k not in OPTIONS}
    specs: dict[str, TensorSpec] = {}
    tensors: list[int] = []
    mutable: list[int] = []
    template: list[Any] = []
    storage_slots: list[tuple[int, int]] = []
    scalar_slots: list[tuple[int, int]] = []
    for i, (p, arg) in enumerate(zip(params, args)):
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
                storage = _storage_of(arg)
                specs[p.name] = TensorSpec(arg.dtype, arg.tensor_shape, _strides(storage), arg.shape,
                                           _address(storage) % 16 == 0)
                mutable.append(len(tensors))
            else:
                if not isinstance(arg, Tensor | Shared):
                    raise _refuse(
                        kernel, f"'{p.name}' is st.Ref: pass a Tensor or a Shared handle, got {type(arg).__name__}"
                    )
                storage = _storage_of(arg)
                specs[p.name] = TensorSpec(arg.dtype, tuple(storage.shape), _strides(storage), None,
                                           _address(storage) % 16 == 0)
            if not backend.owns(storage):
                where = "host (numpy)" if isinstance(storage, np.ndarray) else "GPU"
                raise _refuse(
                    kernel,
                    f"'{p.name}' is in {where} memory but kernels run on the {backend.name} backend: "
                    "make tensors with the runtime (st.zeros, st.from_numpy, st.from_dlpack) in this process",
                )
            storage_slots.append((len(template), len(tensors)))
            template += [None, *storage.shape, *_strides(storage)]
            tensors.append(i)
        elif p.kind == "scalar":
            if not isinstance(arg, int | float | bool | np.number | np.bool_):
                raise _refuse(kernel, f"'{p.name}' is a scalar, got {type(arg).__name__}")
            scalar_slots.append((len(template), i))
            template.append(None)
        else:
            raise _refuse(kernel, f"'{p.name}' is a raw pointer: the runtime does not pass pointers yet")

    grid = _grid(kernel, params, args, [tensors[m] for m in mutable], grid_option)
    values: dict[str, Any] = {**generics, **specs}
    variant = kernel.specialize(**values)
    runnable, checks = _compile(kernel, backend, variant, values)
    compiled = [_compile_check(kernel, text, params) for text in checks]
    moved = tuple(i for i in tensors if not isinstance(args[i], Shared))
    shared = tuple(i for i in tensors if isinstance(args[i], Shared))
    moved_pairs = tuple((a, b) for n, a in enumerate(moved) for b in moved[n + 1:])
    overlap_pairs = tuple((out, j) for out in mutable for j in range(len(tensors)) if j != out)
    plan = _Plan(f"{kernel.name}{list(grid)}", runnable, grid, specs, tuple(tensors), moved,
                 moved_pairs, overlap_pairs, shared, template, tuple(storage_slots), tuple(scalar_slots),
                 [c for c in compiled if c.uses_scalars])
    _run_checks(kernel, [c for c in compiled if not c.uses_scalars], specs, params, args)
    return plan


def _grid(kernel: Kernel, params: Sequence[Any], args: Sequence[Any], mutable: list[int],
          grid_option: Any) -> tuple[int, int, int]:
    mut_grids = {params[i].name: args[i].launch_grid() for i in mutable if params[i].annotation.mode == "mut"}
    if len(set(mut_grids.values())) > 1:
        listed = ", ".join(f"'{n}' {g}" for n, g in mut_grids.items())
        raise _refuse(kernel, f"its mutable outputs have different grids: {listed}")
    if grid_option is not None:
        grid = tuple(int(g) for g in grid_option) + (1,) * (3 - len(grid_option))
        if mut_grids and grid != next(iter(mut_grids.values())):
            raise _refuse(kernel, f"grid {grid} differs from the partition grid {next(iter(mut_grids.values()))}")
    elif mut_grids:
        grid = next(iter(mut_grids.values()))
    elif mutable:
        tiles = math.prod(args[mutable[0]].grid)
        grid = (max(1, min(tiles, MAPPED_DEFAULT_BLOCKS)), 1, 1)
    else:
        raise _refuse(kernel, "it has no mutable output to infer the grid from: pass grid=(x, y, z)")
    mapped = [params[i].name for i in mutable if params[i].annotation.mode == "mapped"]
    if mapped and grid[1:] != (1, 1):
        # tile_indices() deals tiles round robin over the x blocks only:
        # blocks differing in y or z would write the same tiles.
        raise _refuse(
            kernel, f"st.MutMapped output '{mapped[0]}' walks its tiles over grid x only: grid {grid} must be (n, 1, 1)"
        )
    return grid  # type: ignore[return-value]


def _compile(kernel: Kernel, backend: Backend, variant: Any, values: Mapping[str, Any]) -> tuple[Any, list[str]]:
    """The variant's runnable kernel on ``backend`` and its launch checks (compiled once)."""
    key = (id(kernel), variant.key, backend.name)
    cached = _compiled.get(key)
    if cached is None or cached[0] is not kernel:
        module, checks = lower_for_launch(kernel, variant)
        cached = (kernel, (backend.prepare(module, kernel.symbol(variant), kernel), checks))
        _compiled[key] = cached
        for arch in aot_archs():
            cache.compile_cubin(module, arch, sanitize=os.environ.get(SANITIZE_ENV) or None)
    return cached[1]


def aot_archs() -> list[str]:
    """``$SAFETILE_AOT_ARCHS`` (``sm_90,sm_100``): archs every variant a launch
    compiles is also built for, into the cubin cache — so that running a
    workload here (on the CPU interpreter, say) fills a cache for a GPU
    machine without a toolchain."""
    return [a.strip() for a in os.environ.get(AOT_ENV, "").split(",") if a.strip()]


def _checks_of(entry: Any) -> list[str]:
    attr = entry.attributes.get(LAUNCH_CHECKS)
    if attr is None:
        return []
    items = list(attr.data) if isinstance(attr, ArrayAttr) else [attr]
    return [i.data if isinstance(i, StringAttr) else str(i) for i in items]


def lower_for_launch(kernel: Kernel, variant: Any) -> tuple[Any, list[str]]:
    """Plain Tile IR for ``variant`` through the safety passes, with the launch
    checks bounds-check elision hoisted to the host (read before the lowering
    strips them).

    The module holds one entry named ``kernel.symbol(variant)`` — a name fixed
    by the specialization alone, so that the same variant gives the same
    bytecode (and cubin cache key) in every process.
    """
    from xdsl.utils.exceptions import DiagnosticException

    from safetile.backend.interpreter import find_entry
    from safetile.frontend.kernel import context
    from safetile.passes.pipeline import clean_up_passes, safety_passes

    module = kernel.module([variant])
    entry = find_entry(module, variant.entry_name)
    entry.sym_name = StringAttr(kernel.symbol(variant))
    ctx = context()
    checks = _checks_of(variant.entry)
    try:
        for step in safety_passes(launch_checks=True):
            step.apply(ctx, module)
            found = _checks_of(find_entry(module, kernel.symbol(variant)))
            checks += [c for c in found if c not in checks]
        for step in clean_up_passes():
            step.apply(ctx, module)
    except DiagnosticException as err:
        raise kernel.error(str(err), "see the safety pass's message") from None
    module.verify()
    return module, checks


class _Shape:
    """What a launch-check expression sees of a tensor argument."""

    def __init__(self, name: str, spec: TensorSpec):
        self.name = name
        self.shape = spec.shape
        self.strides = spec.strides
        self.stride = spec.strides
        self.partition = spec.partition

    def __repr__(self) -> str:
        return f"{self.name}{self.shape}"


_CHECK_GLOBALS = {"__builtins__": {}, "ceil_div": lambda a, b: -(-a // b)}


def _compile_check(kernel: Kernel, text: str, params: Sequence[Any]) -> _Check:
    """A launch check ``"message: expression"`` compiled once."""
    label, _, expr = text.rpartition(": ") if ": " in text else ("", "", text)
    try:
        code = compile(expr, "<launch check>", "eval")
    except SyntaxError as err:
        raise _refuse(kernel, f"cannot read launch check {text!r}: {err}") from None
    scalars = {p.name for p in params if p.kind == "scalar"}
    return _Check(text, label, expr, code, bool(scalars & set(code.co_names)))


def _run_checks(kernel: Kernel, checks: Sequence[_Check], specs: Mapping[str, TensorSpec],
                params: Sequence[Any], args: Sequence[Any]) -> None:
    """Evaluate launch checks of the bounds-check pass.

    Each check is ``"message: expression"``: a Python expression over the
    tensor arguments (``ceil_div(x.shape[0], 128) - 1 < ceil_div(z.shape[0], 64)``;
    ``x.strides``, ``z.partition`` and scalar arguments by name also work).
    """
    if not checks:
        return
    env: dict[str, Any] = {n: _Shape(n, s) for n, s in specs.items()}
    env.update({p.name: a for p, a in zip(params, args) if p.kind == "scalar"})
    for check in checks:
        try:
            ok = bool(eval(check.code, _CHECK_GLOBALS, env))  # noqa: S307
        except Exception as err:  # a check this runtime cannot read
            raise _refuse(kernel, f"cannot evaluate launch check {check.text!r}: {err}") from None
        if not ok:
            shapes = ", ".join(f"{n}: shape {s.shape}" + (f" partition {s.partition}" if s.partition else "")
                               for n, s in specs.items())
            raise _refuse(kernel, f"launch check {check.label or check.expr!r} failed: {check.expr} with {shapes}")


Kernel.launch_hook = launch
