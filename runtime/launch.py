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
* the launch checks of the compiled variant (``CompiledVariant.launch_checks``:
  bounds checks moved to the host, ``lhs < rhs`` over the tensor shapes)
  are evaluated on the shapes.

A refusal raises ``LaunchRefused`` and changes nothing.  Then the arguments
move into the op (``Shared`` handles are only borrowed) and driving it gives
them back, same type in, same type out: ``z, x, y = add(z, x, y).sync()``.
Keyword arguments are generics the arguments do not determine
(``gemm(z, x, y, BK=32)``) or launch options: ``grid=`` (required meaning
for ``st.MutMapped`` outputs, default one block per tile up to 8 blocks),
and for the CPU interpreter ``shuffle=``, ``seed=``, ``detect_races=``.

Warm launches are cheap: everything the argument *signature* fixes (types,
dtypes, shapes, strides, partitions, alignment, generics) — the variant, the
loaded kernel, the grid, the launch checks' verdict, the parameter layout
(``Backend.launcher``; with it the storages a launch may write and those the
kernel reads before its grid-dependency wait, which the CUDA backend's rule
for early starts compares: ``runtime/cuda/stream.py``) — is kept in a
``_Plan`` (in the kernel's ``LaunchCache``), and the launches found free of
overlaps are remembered by signature and addresses.  A launch seen before
checks liveness and duplicates, moves the arguments, and hands the tensors'
memory and the scalars to the plan's launcher.
"""

from __future__ import annotations

import itertools
import math
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import FileLineColLoc

from safetile.dialects.tile_safety import LaunchCheckAttr
from safetile.driver import CompiledVariant, CompileOptions, compile_variant
from safetile.frontend.dsl import TensorSpec
from safetile.frontend.kernel import KernelDefinition as Kernel

from .backend import Backend, Launcher, ParamTemplate, announce, current_backend
from .errors import DeviceOpError, LaunchRefused, OwnershipError
from .interop import import_torch_arguments, is_torch_tensor, keep_for_stream
from .ops import DeviceOp, _ids, returned
from .stream import Stream, capturing_here, note_handle
from .tensor import OWNERSHIP, Holder, Partition, Shared, Tensor, UnsafePointer, move_all

AOT_ENV = "SAFETILE_AOT_ARCHS"
SANITIZE_ENV = "SAFETILE_SANITIZE"
"""``memcheck``: cubins are built with ``tileiras --sanitize=memcheck``."""
OPTIONS = ("grid", "shuffle", "seed", "detect_races")
RUN_OPTIONS = ("shuffle", "seed", "detect_races")
MAPPED_DEFAULT_BLOCKS = 8


class LaunchCache:
    """What a kernel's launches keep between calls: a plan per argument signature,
    the runnable form of each compiled variant per backend, and the launches
    already checked."""

    def __init__(self) -> None:
        self.plans: dict[tuple[Any, ...], _Plan] = {}
        self.runnables: dict[tuple[object, str], Any] = {}
        """(the cubin's build key, or the module the interpreter runs; backend name) -> what the backend runs."""
        self.checked: dict[tuple[Any, ...], _Plan] = {}
        """Signature and tensor addresses of launches found free of overlaps -> their plan
        (at most ``CHECKED_MEMO``).  Whether a mutable output overlaps another tensor
        depends on the addresses alone once the plan fixes shapes, strides and dtypes,
        so a launch with a key in here needs no overlap check."""


class LaunchableKernel(Kernel):
    """A kernel definition with the cache its launches keep (``safetile.jit.Kernel``, ``@st.kernel``)."""

    launch_cache: LaunchCache


def _refuse(kernel: Kernel, message: str) -> LaunchRefused:
    return _refused(kernel.name, message)


def _refused(kernel: str, message: str) -> LaunchRefused:
    return LaunchRefused(f"launch of '{kernel}' refused: {message} (no tensor was changed)")


@dataclass(eq=False)
class _Plan:
    """What one argument signature fixes about a launch on one backend."""

    name: str
    """The ops' name: kernel and grid."""
    kernel: str
    params: tuple[str, ...]
    """The names of the kernel's parameters, by argument position (for errors)."""
    backend: Backend
    launcher: Launcher
    grid: tuple[int, int, int]
    tensors: tuple[int, ...]
    """Positions of the tensor arguments (tensors, partitions, shared handles, unsafe
    pointers): a launch's storages are theirs, in this order."""
    moved: tuple[int, ...]
    """Positions of the arguments moved into the op (all but the shared handles)."""
    shared: tuple[int, ...]
    """Positions of the shared handles (borrowed, not moved)."""
    overlap_pairs: tuple[tuple[int, int], ...]
    """(mutable output, other tensor) pairs, as indices into ``tensors``: their memory must not meet."""


CHECKED_MEMO = 256


def launch(kernel: LaunchableKernel, *args: Any, **kwargs: Any) -> DeviceOp:
    """``kernel(*args, **kwargs)``: the lazy launch of ``kernel`` on host ``args`` (see the
    module doc), through the kernel's ``launch_cache``."""
    # The hot path of every warm launch: keep it lean.  The plan comes first (a
    # handle's launch key is fixed for its life, so reading it needs no lock);
    # then every handle is checked and moved in one step (``move_all``), so of
    # two threads moving one handle exactly one wins; a launch that raises
    # after that gives back what it took.
    cache = kernel.launch_cache
    backend = current_backend()
    parts: list[Any] = []
    for arg in args:
        kind = type(arg)
        if kind is Tensor or kind is Partition or kind is Shared or kind is UnsafePointer:
            key = arg._launch_key
            parts.append(arg.launch_key(_launch_key) if key is None else key)
        else:
            parts.append(kind)
    if kwargs:
        parts.append(kwargs_key(kwargs))
    checked = tuple(parts)
    plan = cache.checked.get(checked)
    fresh = plan is None or plan.backend is not backend
    if fresh:
        signature = _signature(parts)
        plan = cache.plans.get(signature)
        if plan is None or plan.backend is not backend:
            # no plan takes a torch tensor (a part is its type), so the torch edge costs the
            # warm path nothing
            if any(is_torch_tensor(arg) for arg in args):
                return _launch_torch(kernel, args, kwargs)
            plan = cache.plans[signature] = _plan(kernel, cache, backend, args, kwargs)

    op = object.__new__(_Launch)
    op.id, op._plan, op._args = next(_ids), plan, args
    if kwargs:
        op._options = {k: kwargs[k] for k in RUN_OPTIONS if k in kwargs}
    handles = [args[i] for i in plan.tensors]
    move_all(op, handles, op._explain)
    if fresh:
        try:
            check_disjoint(kernel, plan, args)
        except BaseException:
            for handle in handles:
                _release(handle, op)
            raise
        if len(cache.checked) >= CHECKED_MEMO:
            cache.checked.clear()
        cache.checked[checked] = plan
    return op


def _release(handle: Any, holder: Holder) -> None:
    """End ``holder``'s use of a handle it took or borrowed."""
    if type(handle) is Shared:
        handle.return_borrow(holder)
    else:
        handle.give_back(holder)


def kwargs_key(kwargs: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a plan depends on among the keyword arguments: all but the run options."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in kwargs.items() if k not in RUN_OPTIONS))


def check_disjoint(kernel: Kernel, plan: _Plan, args: Sequence[Any]) -> None:
    """Refuse the launch where a mutable output's memory meets another tensor's."""
    overlaps = plan.backend.overlaps
    storages = [args[i]._array for i in plan.tensors]
    for out, j in plan.overlap_pairs:
        if overlaps(storages[out], storages[j]):
            params, tensors = _params(kernel), plan.tensors
            raise _refuse(
                kernel,
                f"mutable output '{params[tensors[out]].name}' {storages[out].shape} overlaps the "
                f"memory of argument '{params[tensors[j]].name}' {storages[j].shape}",
            )


class _Launch(DeviceOp):
    """A kernel launch: enqueueing it launches the kernel and gives the arguments back.

    Made by ``launch`` without ``__init__`` (every warm launch's path): it sets
    ``id``, ``_plan``, ``_args`` and, given run options, ``_options``; the rest
    of DeviceOp's fields start as the class's.
    """

    allocates = False
    state = "pending"
    _steps = ()
    _options: dict[str, Any] = {}

    @property
    def name(self) -> str:  # type: ignore[override]
        return self._plan.name

    @property
    def plan(self) -> _Plan:
        """What the launch's signature fixed (variant, launcher, layout, overlap pairs): the torch
        kernel op's warm path launches later calls of the signature through it."""
        return self._plan

    def enqueue(self, stream: Stream) -> tuple[Any, ...]:
        """Launch on ``stream`` (``DeviceOp.enqueue``, without the general op's steps)."""
        self._claim("drive", "running")  # one step: of two threads driving it, one runs it
        try:
            value = self._launch(stream)
        except BaseException:
            self.state = "failed"
            raise
        self.state = "enqueued"
        return value

    def _launch(self, stream: Stream) -> tuple[Any, ...]:
        plan, args = self._plan, self._args
        try:
            order = stream.capture_order
            if order is not None:  # a capture with branches: order this launch across its streams
                order.order(stream, [args[i]._array for i in plan.moved], [args[i]._array for i in plan.shared])
            plan.launcher.launch(args, stream, self._options)
            back = _give_back(args, plan.moved)
        except BaseException as err:
            # Whatever failed (the kernel, the driver, an interrupt), the arguments
            # come back on the error; an output may be partly written.
            returned(err, _give_back(args, plan.moved))
            raise
        finally:
            for i in plan.shared:
                args[i].return_borrow(self)
            # An op runs once: let the memory go with the handles given back.
            self._args = ()
        return back

    _run = _launch  # what DeviceOp.enqueue and then() run

    def _explain(self, k: int, twice: bool) -> str | Exception:
        """Why the ``k``-th tensor argument cannot move in (``move_all``): what a dead handle's
        ``OwnershipError`` names, or the refusal of a handle passed twice."""
        plan = self._plan
        position = plan.tensors[k]
        name = plan.params[position]
        if twice:
            return _refused(plan.kernel, f"'{name}' is passed twice: a tensor can be moved into a launch once")
        return f"launch '{plan.kernel}' with the {self._args[position]._kind} passed as '{name}'"

    def prepare(self) -> Prepared:
        """Keep this launch to enqueue again and again (see ``Prepared``); this op is consumed."""
        return Prepared(self)


def _launch_torch(kernel: LaunchableKernel, args: Sequence[Any], kwargs: Mapping[str, Any]) -> DeviceOp:
    """A launch given torch tensors (docs/torch.md): each is shared with safetile
    (``interop.import_torch_arguments``: no copy; an output partitioned by its tile's generics),
    checked and launched as any other, and given back as the torch tensor it was.  Driven without
    a stream (``sync()``, ``await``), a launch of GPU tensors runs on torch's current stream of
    the call."""
    generics = {k: v for k, v in kwargs.items() if k not in OPTIONS}
    converted, given, stream = import_torch_arguments(_params(kernel), args, generics, lambda m: _refuse(kernel, m))
    op = launch(kernel, *converted, **kwargs)
    op.__class__ = _TorchLaunch  # the same op (the holder of what moved in), giving back torch tensors
    op._torch = given  # type: ignore[attr-defined]
    op._home = stream
    return op


class _TorchLaunch(_Launch):
    """A launch some of whose arguments were torch tensors: driving it gives those back in place of
    the safetile handles made for them (same type in, same type out).  ``prepare()`` and a failed
    launch's ``err.returned`` give the safetile handles.  Before the kernel is enqueued, torch's
    caching allocator is told the stream uses the torch tensors' memory (``interop.keep_for_stream``)."""

    _torch: tuple[tuple[int, Any], ...] = ()

    def _launch(self, stream: Stream) -> tuple[Any, ...]:
        keep_for_stream([tensor for _, tensor in self._torch], stream)
        back = list(super()._launch(stream))
        for i, tensor in self._torch:
            back[i] = tensor
        return tuple(back)

    _run = _launch


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
        op._claim("prepare", "prepared")  # one step: no other thread drives it meanwhile
        self._plan, self._args, self._op_name = op._plan, op._args, op.name
        self._streams: list[Stream] = []
        self.launches = 0
        try:
            self._enqueue: Callable[[Stream], None] | None = op._plan.launcher.bind(op._args, op._options)
        except BaseException:
            op.state = "pending"  # nothing moved: the op may still be driven
            raise
        with OWNERSHIP:  # the handles pass from the op to this as one step
            for i in self._plan.moved:
                self._args[i].hand_over(op, self)
            for i in self._plan.shared:
                self._args[i].borrow(self, "prepare the launch")
                self._args[i].return_borrow(op)

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
            self._args[i].return_borrow(self)
        return _give_back(self._args, self._plan.moved)


def _params(kernel: Kernel) -> list[Any]:
    return [p for p in kernel.params if p.kind != "generic"]


def _give_back(args: Sequence[Any], moved: Sequence[int]) -> tuple[Any, ...]:
    """Same type in, same type out: fresh handles for what was moved in (noted by an open
    graph capture, which holds them)."""
    if len(moved) == len(args):
        back = tuple([arg.fresh() for arg in args])
    else:
        out = list(args)
        for i in moved:
            out[i] = args[i].fresh()
        back = tuple(out)
    if capturing_here():
        for i in moved:
            note_handle(back[i])
    return back


def _signature(parts: Sequence[Any]) -> tuple[Any, ...]:
    """What a plan depends on, from a launch's key parts: all but the tensors' addresses."""
    return tuple(part & _LAYOUT_MASK if type(part) is int else part for part in parts)


_LAYOUT_BITS = 32
_LAYOUT_MASK = (1 << _LAYOUT_BITS) - 1
_LAYOUTS: dict[tuple[Any, ...], int] = {}
"""Each handle layout a launch has seen -> its number."""


def _launch_key(arg: Tensor | Partition | Shared | UnsafePointer) -> int:
    """What a launch depends on about a handle, as one int (quick to hash): the number of
    its layout (kind, dtype, shape, strides, alignment, partition, kind of memory: what a
    plan is made for) in the low ``_LAYOUT_BITS`` bits, its address above them."""
    s = arg._array
    address = _address(s)
    layout = (type(arg), arg.dtype.name, s.shape, s.strides, address % 16 == 0,
              arg.shape if type(arg) is Partition else None, type(s))
    number = _LAYOUTS.setdefault(layout, next(_layout_numbers))  # a number no other layout has, whatever the threads
    if number > _LAYOUT_MASK:
        raise RuntimeError(f"more than 2^{_LAYOUT_BITS} tensor layouts launched in one process")
    return address << _LAYOUT_BITS | number


_layout_numbers = itertools.count()


def _address(storage: Any) -> int:
    return storage.ctypes.data if isinstance(storage, np.ndarray) else storage.ptr


def _storage_of(arg: Any) -> Any:
    if isinstance(arg, Partition):
        return arg.tensor("launch with the partition").storage()
    if isinstance(arg, Shared):
        return arg.tensor("launch with the shared tensor").storage()
    if isinstance(arg, UnsafePointer):
        return arg.tensor("launch with the unsafe pointer").storage()
    return arg.storage("launch with the tensor")


def _strides(storage: Any) -> tuple[int, ...]:
    return tuple(s // storage.itemsize for s in storage.strides)


def tensor_spec(arg: Tensor | Partition | Shared) -> TensorSpec:
    """What a launch tells ``Kernel.specialize`` about a tensor argument (the autotuner
    derives its candidates' variants the same way)."""
    storage = _storage_of(arg)
    return TensorSpec(arg.dtype, tuple(storage.shape), _strides(storage),
                      arg.shape if isinstance(arg, Partition) else None, _address(storage) % 16 == 0)


def _plan(kernel: Kernel, cache: LaunchCache, backend: Backend, args: Sequence[Any],
          kwargs: Mapping[str, Any]) -> _Plan:
    """Check a new signature and compile its variant (refusals raise ``LaunchRefused``)."""
    announce()  # the first launch of the process says where kernels run
    params = _params(kernel)
    generics = {k: v for k, v in kwargs.items() if k not in OPTIONS}
    specs, tensors, mutable, written = _check_arguments(kernel, backend, params, args, generics)
    grid = _grid(kernel, params, args, [tensors[m] for m in mutable], kwargs.get("grid"))
    variant = kernel.specialize(**generics, **specs)
    _check_pointees(kernel, params, args, variant.generics)
    compiled, runnable = ready(kernel, cache, backend, variant)
    _run_checks(kernel, compiled.launch_checks, specs)
    _warn_identical_tiles(kernel, compiled, grid)
    moved = tuple(i for i in tensors if not isinstance(args[i], Shared))
    shared = tuple(i for i in tensors if isinstance(args[i], Shared))
    overlap_pairs = tuple((out, j) for out in mutable for j in range(len(tensors)) if j != out)
    layout = _layout(kernel, compiled, params, args, written)
    return _Plan(f"{kernel.name}{list(grid)}", kernel.name, tuple(p.name for p in params), backend,
                 backend.launcher(runnable, grid, layout), grid, tuple(tensors), moved, shared, overlap_pairs)


def _check_arguments(kernel: Kernel, backend: Backend, params: Sequence[Any], args: Sequence[Any],
                     generics: dict[str, Any]) -> tuple[dict[str, TensorSpec], list[int], list[int], list[int]]:
    """Each argument of the kind its parameter takes, in this backend's memory (refusals raise
    ``LaunchRefused``; a pointer's ``E`` goes into ``generics``).  What the plan needs of them: the
    tensors' specs by name, the positions of the tensor arguments (tensors, partitions, shared
    handles, pointers), which of those (indices into them) are mutable outputs, and the positions
    of the arguments a launch may write (outputs and pointers)."""
    if len(args) != len(params):
        names = ", ".join(p.name for p in params)
        raise _refuse(kernel, f"it takes {len(params)} arguments ({names}), got {len(args)}")
    specs: dict[str, TensorSpec] = {}
    tensors: list[int] = []
    mutable: list[int] = []
    written: list[int] = []
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
                mutable.append(len(tensors))
                written.append(i)
            elif not isinstance(arg, Tensor | Shared):
                raise _refuse(
                    kernel, f"'{p.name}' is st.Ref: pass a Tensor or a Shared handle, got {type(arg).__name__}"
                )
            storage = _storage_of(arg)
            specs[p.name] = tensor_spec(arg)
            if not backend.owns(storage):
                where = "host (numpy)" if isinstance(storage, np.ndarray) else "GPU"
                raise _refuse(
                    kernel,
                    f"'{p.name}' is in {where} memory but kernels run on the {backend.name} backend: "
                    "make tensors with the runtime (st.zeros, st.from_numpy, st.from_dlpack) in this process",
                )
            tensors.append(i)
        elif p.kind == "scalar":
            if not isinstance(arg, int | float | bool | np.number | np.bool_):
                raise _refuse(kernel, f"'{p.name}' is a scalar, got {type(arg).__name__}")
        else:
            _pointer_storage(kernel, backend, p, arg, generics)
            written.append(i)  # wherever its pointer arithmetic goes
            tensors.append(i)
    return specs, tensors, mutable, written


def _layout(kernel: Kernel, compiled: CompiledVariant, params: Sequence[Any], args: Sequence[Any],
            written: Sequence[int]) -> ParamTemplate:
    """The plan's parameters, as ``compiled.params`` lays them out (the launch ABI, docs/abi.md):
    each tensor's memory (``x``) and each scalar (``n``) a launch's, the shapes and strides
    (``x.shape[0]``, ``x.stride[0]``) fixed by the signature, in elements."""
    position = {p.name: i for i, p in enumerate(params)}
    values: list[Any] = []
    storage_slots: list[tuple[int, int]] = []
    scalar_slots: list[tuple[int, int]] = []
    for slot, entry in enumerate(compiled.params):
        name, _, field = entry.name.partition(".")
        i = position[name]
        if field:
            what, dim = field.rstrip("]").split("[")
            storage = args[i]._array
            values.append(storage.shape[int(dim)] if what == "shape" else _strides(storage)[int(dim)])
            continue
        values.append(None)
        (scalar_slots if params[i].kind == "scalar" else storage_slots).append((slot, i))
    order = {i: k for k, (_, i) in enumerate(storage_slots)}
    return ParamTemplate(tuple(values), tuple(storage_slots), tuple(scalar_slots), tuple(order[i] for i in written),
                         _read_early(kernel, compiled, {p.name: order[i] for i, p in enumerate(params) if i in order}))


def _read_early(kernel: Kernel, compiled: CompiledVariant, storage_index: Mapping[str, int]) -> tuple[int, ...]:
    """The storages of ``compiled.early_reads`` (indices into the storage order).  A name that is
    no tensor parameter is the compiler's error, raised here: launching as if it read nothing
    early could start it while the kernel before it still writes what it reads."""
    missing = [name for name in compiled.early_reads if name not in storage_index]
    if missing:
        raise RuntimeError(f"'{kernel.name}' was compiled to read {missing} before its grid-dependency wait, "
                           f"but its tensor parameters are {list(storage_index)}")
    return tuple(storage_index[name] for name in compiled.early_reads)


def _pointer_storage(kernel: Kernel, backend: Backend, p: Any, arg: Any, generics: dict[str, Any]) -> Any:
    """The memory behind a ``st.Ptr[E]`` argument, which must be an explicit
    ``st.unsafe_pointer(tensor)``; an ``E`` generic no tensor fixes is taken from it."""
    if not isinstance(arg, UnsafePointer):
        got = f"a {type(arg).__name__}" if isinstance(arg, Tensor | Partition | Shared) else type(arg).__name__
        raise _refuse(
            kernel,
            f"'{p.name}' is a raw pointer ({p.annotation}), got {got}: a launch passes pointers only "
            f"explicitly, as unsafe: pass st.unsafe_pointer(tensor) (it moves the tensor into the pointer "
            f"handle; the launch gives the handle back and handle.release() the tensor)",
        )
    if arg._taken_by is not None:
        arg._check_live(f"launch '{kernel.name}' with the unsafe pointer passed as '{p.name}'")
    storage = _storage_of(arg)
    if not backend.owns(storage):
        raise _refuse(kernel, f"'{p.name}' points to memory of another backend than {backend.name}: "
                              "make tensors with the runtime (st.zeros, st.from_numpy, st.from_dlpack) in this process")
    element = p.annotation.dtype
    fixed_by_tensor = any(q.kind == "tensor" and q.annotation.dtype == element for q in _params(kernel))
    if isinstance(element, str) and element not in generics and not fixed_by_tensor:
        generics[element] = arg.dtype
    return storage


def _check_pointees(kernel: Kernel, params: Sequence[Any], args: Sequence[Any], generics: Mapping[str, Any]) -> None:
    """Refuse a pointer to elements of another type than its parameter's."""
    for p, arg in zip(params, args):
        if p.kind != "ptr":
            continue
        element = generics.get(p.annotation.dtype) if isinstance(p.annotation.dtype, str) else p.annotation.dtype
        if element != arg.dtype:
            raise _refuse(
                kernel,
                f"'{p.name}' is st.Ptr[{element.name}] but the unsafe pointer points to {arg.dtype.name} "
                f"elements: pass a pointer to a {element.name} tensor",
            )


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


def ready(kernel: Kernel, cache: LaunchCache, backend: Backend, variant: Any) -> tuple[CompiledVariant, Any]:
    """``variant`` compiled for ``backend`` (and the ``$SAFETILE_AOT_ARCHS``) and made runnable there."""
    options = compile_options()
    compiled = compile_variant(kernel, variant, backend.target, options)
    # A cubin is loaded once however many variants build it; the interpreter runs the module itself.
    key = (compiled.cubin.build_key if compiled.cubin is not None else compiled.module, backend.name)
    runnable = cache.runnables.get(key)
    if runnable is None:
        runnable = cache.runnables[key] = backend.prepare(compiled)
        for arch in aot_archs():
            compile_variant(kernel, variant, arch, options)
    return compiled, runnable


def compile_options() -> CompileOptions:
    """How launches compile (``$SAFETILE_SANITIZE``)."""
    return CompileOptions(sanitize=os.environ.get(SANITIZE_ENV) or None)


def aot_archs() -> list[str]:
    """``$SAFETILE_AOT_ARCHS`` (``sm_90,sm_100``): archs every variant a launch
    compiles is also built for, into the cubin cache — so that running a
    workload here (on the CPU interpreter, say) fills a cache for a GPU
    machine without a toolchain."""
    return [a.strip() for a in os.environ.get(AOT_ENV, "").split(",") if a.strip()]


class IdenticalTilesWarning(UserWarning):
    """A launch whose blocks along a grid dimension all store the same data (see ``_warn_identical_tiles``)."""


def _warn_identical_tiles(kernel: Kernel, compiled: CompiledVariant, grid: tuple[int, int, int]) -> None:
    """Warn, once per plan, where a store's data ignores a grid dimension with more than one block."""
    for fact in compiled.unread_grid_dims:
        if grid[fact.dim] < 2:
            continue
        where = fact.location
        at = f"{where.filename.data}:{where.line.data}:{where.column.data}: " if isinstance(where, FileLineColLoc) else ""
        axis = "xyz"[fact.dim]
        used = ", ".join(f"tile_block_id()[{d}]" for d in sorted(fact.value_dims))
        warnings.warn(
            f"{at}'{kernel.name}' stores the same data into the {grid[fact.dim]} tiles of '{fact.output}' along grid "
            f"{axis}: the stored value depends on {used} only, not on tile_block_id()[{fact.dim}].  A kernel that "
            f"loads one tile where it means a whole row does this; loop over the row's tiles, or partition "
            f"'{fact.output}' with one tile along that dimension",
            IdenticalTilesWarning,
            stacklevel=4,
        )


def _run_checks(kernel: Kernel, checks: Sequence[LaunchCheckAttr], specs: Mapping[str, TensorSpec]) -> None:
    """Refuse the launch unless every launch check holds on the arguments' shapes."""
    if not checks:
        return
    shapes = {name: spec.shape for name, spec in specs.items()}
    for check in checks:
        lhs, rhs = check.sides(shapes)
        if lhs < rhs:
            continue
        where = check.location
        at = f"{where.filename.data}:{where.line.data}:{where.column.data}: " if isinstance(where, FileLineColLoc) else ""
        used = ", ".join(
            f"{n}: shape {specs[n].shape}" + (f" partition {specs[n].partition}" if specs[n].partition else "")
            for n in sorted(check.tensors())
        )
        raise _refuse(
            kernel,
            f"launch check failed: {at}{check.message.data}: tile index {lhs} is out of range for {rhs} "
            f"tile(s) ({check.condition()} is false with {used})",
        )
