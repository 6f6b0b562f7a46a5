"""``kernel_op``: a safetile kernel and its recipe registered as a ``torch.library`` custom op.

A recipe is a function of the op's arguments (torch tensors and Python
numbers, annotated with their torch types) that returns a ``KernelLaunch``: the
kernel, the spec of each output (shape, torch dtype, the tile it is
partitioned into), the kernel's other arguments and its generics.  The
kernel's parameters are the outputs first, then ``KernelLaunch.args`` in order.

The recipe only does shape arithmetic, so it runs on fake tensors too, and
the op's two implementations come from it.  What it returns is a function of
the arguments' facts (each tensor's shape, strides, dtype, device, alignment;
the other arguments' values): the real implementation runs it once a
signature of those facts (``_Warm``).

* the real one allocates each output with ``torch.empty``, shares every
  tensor with safetile from its own attributes (no copy), partitions the
  outputs and launches the kernel (torch in, torch out): on host tensors it
  waits, so the outputs hold the results when the op returns; on GPU tensors
  it enqueues the launch on torch's current stream, as a torch op, the
  caching allocator told of the use (``interop.keep_for_stream``), so it also
  records into a ``torch.cuda.graph`` capture.  It is the op's own CPU and
  CUDA kernel at torch's dispatcher, and, where no gradient is wanted, its
  autograd kernel calls it directly (``_register_kernels``); a signature's
  later calls take the warm path (``_Warm``: the recipe not run again);
* the fake one (``torch.compile``'s tracing, meta tensors) returns empty
  tensors of the output spec, after specializing the kernel for the
  arguments' facts, so a kernel that cannot compile for them fails while
  tracing with the kernel's own ``CompileError`` naming its line.

Invariant: the op never mutates its arguments (``mutates_args=()``): a
kernel writes only the outputs the recipe declares, and safetile's launch
checks refuse an output that overlaps an input.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
from torch._library.autograd import make_autograd_impl

from safetile.frontend.dsl import DType, TensorSpec, bf16, bool_, f16, f32, f64, i8, i16, i32, i64, u8
from safetile.frontend.errors import CompileError

from ..backend import current_backend
from ..interop import keep_for_stream, share_torch, torch_current, torch_current_on, torch_storage
from ..launch import OPTIONS, RUN_OPTIONS, check_disjoint
from ..stream import capturing_here

_DTYPES: dict[torch.dtype, DType] = {
    torch.float64: f64, torch.float32: f32, torch.float16: f16, torch.bfloat16: bf16,
    torch.int64: i64, torch.int32: i32, torch.int16: i16, torch.int8: i8, torch.uint8: u8, torch.bool: bool_,
}
"""The torch element types a recipe may use, and their safetile types."""


def safetile_dtype(dtype: torch.dtype) -> DType:
    """The safetile element type of a torch dtype (``ValueError`` naming the supported ones)."""
    try:
        return _DTYPES[dtype]
    except KeyError:
        names = ", ".join(str(d).removeprefix("torch.") for d in _DTYPES)
        raise ValueError(f"safetile kernels take no {dtype} tensors: use one of {names}") from None


def accumulator(dtype: torch.dtype) -> DType:
    """The type a kernel computes ``dtype`` data in: f64 for f64 (exact for gradcheck), else f32."""
    return f64 if dtype == torch.float64 else f32


@dataclass(frozen=True)
class OutputSpec:
    """One output of a launch: a new tensor of ``shape`` and ``dtype``, partitioned into ``tile``."""

    shape: tuple[int, ...]
    dtype: torch.dtype
    tile: tuple[int, ...]


@dataclass(frozen=True)
class KernelLaunch:
    """What a recipe returns: ``kernel(*outputs partitioned, *args, **options)``."""

    kernel: Any
    """A ``@st.kernel``."""
    outputs: Sequence[OutputSpec]
    args: Sequence[Any] = ()
    """torch tensors and Python numbers, in the order of the kernel's parameters after the outputs."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Generics and launch options (``grid``...)."""


class TraceError(RuntimeError):
    """A kernel that cannot compile for the facts ``torch.compile`` traced (the message names
    the kernel's line; ``__cause__`` is the ``CompileError``)."""


def kernel_op(name: str, *, outputs: int = 1) -> Callable[[Callable[..., KernelLaunch]], Any]:
    """Register ``recipe`` as the custom op ``name`` (``"namespace::op"``) returning ``outputs``
    tensors (one: a tensor; more: a tuple).  What only the data decides (an index out of range)
    is the kernel's to refuse, with a device assert: a check on the host would wait for the data.
    Returns torch's ``CustomOpDef``: call it like the recipe;
    ``.register_autograd(backward, setup_context=...)`` pairs it with backward ops."""

    def register(recipe: Callable[..., KernelLaunch]) -> Any:
        memo: dict[tuple[Any, ...], _Warm] = {}
        _MEMOS.append(memo)

        def real(*args: Any) -> Any:
            return _result(_call(name, recipe, args, outputs, memo))

        def fake(*args: Any) -> Any:
            launch = _launch_of(name, recipe, args, outputs)
            _check_dtypes(name, launch)
            try:
                _specialize(launch)
            except CompileError as err:
                # torch.compile reports an error of a fake implementation by its repr, which
                # leaves out the place: carry the whole located message
                raise TraceError(f"custom op '{name}' cannot compile its kernel for these arguments:\n{err}") from err
            return _result(_allocate(launch.outputs, _device(args)))

        op = torch.library.custom_op(name, real, mutates_args=(), schema=_schema(recipe, outputs))
        op.register_fake(fake)
        _register_kernels(op, name, real)
        return op

    return register


_LIBRARIES: dict[str, torch.library.Library] = {}
"""The ``IMPL`` library of each op namespace ``_register_kernels`` registers into (kept alive:
a library's registrations end with it)."""

_BACKENDS = frozenset({torch._C.DispatchKey.CPU, torch._C.DispatchKey.CUDA})
"""The dispatch keys of plain host and GPU tensors: those ``real`` is registered for."""


def _register_kernels(op: Any, name: str, real: Callable[..., Any]) -> None:
    """Register ``real`` at torch's dispatcher in place of two layers of ``custom_op``'s Python.

    * The op's own CPU and CUDA kernel, which the dispatcher prefers to the
      ``CompositeExplicitAutograd`` kernel ``custom_op`` registered (``backend_impl``): that one
      costs each call a Python wrapper that checks no output aliases an input, and ours never
      do (each is a new ``torch.empty``, ``_allocate``).
    * Its autograd kernel for CPU and CUDA tensors (``AutogradCPU``, ``AutogradCUDA``: the
      dispatcher prefers them to ``custom_op``'s ``Autograd`` one).  Where a gradient is wanted
      (grad mode on and an argument requiring grad) it is ``custom_op``'s (its
      ``autograd.Function``, the formula ``register_autograd`` gave).  Where none is (a
      compiled graph's calls: AOT autograd runs them with grad mode off) and the keys below
      autograd are a plain backend's, it calls ``real`` itself, where ``custom_op``'s made a
      dataclass, entered a guard and redispatched through Python a call; anything else below
      autograd (fake or functional tensors while tracing, a Python mode) is redispatched by
      ``custom_op``'s kernel as before.  Which keysets are plain is remembered by their bits.

    Both are wrapped in dynamo's ``disable`` as ``custom_op`` wraps its kernels
    (``torch._disable_dynamo``: dynamo imported at the first call, not at registration): a
    call from a frame dynamo is evaluating (code after a graph break) runs them as they are,
    never traced.  The fake and meta registrations stay ``custom_op``'s."""
    namespace, op_name = name.split("::")
    library = _LIBRARIES.get(namespace)
    if library is None:
        library = _LIBRARIES[namespace] = torch.library.Library(namespace, "IMPL")
    kernel = torch._disable_dynamo(real, recursive=True)
    for key in ("CPU", "CUDA"):
        library.impl(op_name, kernel, key)
    differentiable = make_autograd_impl(op._opoverload, op)
    below = torch._C._after_ADInplaceOrView_keyset  # ADInplaceOrView: a fallthrough for an op that mutates nothing
    plain: dict[int, bool] = {}

    def autograd(keyset: Any, *args: Any) -> Any:
        if torch.is_grad_enabled() and torch._C._any_requires_grad(*args):
            return differentiable(keyset, *args)
        bits = keyset.raw_repr()
        direct = plain.get(bits)
        if direct is None:
            direct = plain[bits] = (keyset & below).highestPriorityTypeId() in _BACKENDS
        return real(*args) if direct else differentiable(keyset, *args)

    autograd_kernel = torch._disable_dynamo(autograd, recursive=True)
    for key in ("AutogradCPU", "AutogradCUDA"):
        library.impl(op_name, autograd_kernel, key, with_keyset=True)


def _launch_of(name: str, recipe: Callable[..., KernelLaunch], args: Sequence[Any], outputs: int) -> KernelLaunch:
    launch = recipe(*args)
    if not isinstance(launch, KernelLaunch) or len(launch.outputs) != outputs:
        raise TypeError(f"the recipe of custom op '{name}' must return a KernelLaunch with {outputs} output(s), "
                        f"got {launch!r}")
    return launch


def _check_dtypes(name: str, launch: KernelLaunch) -> None:
    """Refuse element types safetile kernels do not take, naming the op (what a signature's first
    call and the tracing check; a later call of a signature has the same types)."""
    for dtype in [o.dtype for o in launch.outputs] + [a.dtype for a in launch.args if isinstance(a, torch.Tensor)]:
        try:
            safetile_dtype(dtype)
        except ValueError as err:
            raise ValueError(f"custom op '{name}': {err}") from None


def _schema(recipe: Callable[..., KernelLaunch], outputs: int) -> str:
    """The op's schema: the recipe's parameters (their torch annotations), returning the outputs."""
    signature = inspect.signature(recipe, eval_str=True)
    returns = torch.Tensor if outputs == 1 else tuple[(torch.Tensor,) * outputs]  # type: ignore[misc]

    def prototype() -> None: ...

    prototype.__signature__ = signature.replace(return_annotation=returns)  # type: ignore[attr-defined]
    return torch.library.infer_schema(prototype, mutates_args=())


def _device(args: Sequence[Any]) -> torch.device:
    tensors = [a for a in args if isinstance(a, torch.Tensor)]
    return tensors[0].device if tensors else torch.device("cpu")


def _result(outputs: list[torch.Tensor]) -> Any:
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _allocate(outputs: Sequence[OutputSpec], device: torch.device) -> list[torch.Tensor]:
    """New tensors of the output specs on ``device`` (so never an alias of an argument)."""
    return [torch.empty(o.shape, dtype=o.dtype, device=device) for o in outputs]


WARM_MEMO = 256
"""Signatures a kernel op remembers (``_Warm``); the memo is emptied when full."""
_MEMOS: list[dict[tuple[Any, ...], _Warm]] = []
"""Every kernel op's memo of signatures (``forget_signatures`` empties them)."""


def forget_signatures() -> None:
    """Forget every kernel op's signatures: the next call of each runs its recipe and every check of
    ``launch`` again.  A recipe is a function of its arguments' facts and of what it reads besides
    them (module-level tables of tiles, such as ``safetile.nn.NORM_BACKWARD``): whoever changes such
    a table (a benchmark trying other tiles) calls this, else a signature seen before keeps the
    launch of the old table."""
    for memo in _MEMOS:
        memo.clear()


def _facts(arg: Any) -> Any:
    """What of one op argument decides the recipe's launch and its plan: of a tensor its shape,
    strides, dtype, device, 16-byte alignment and lazy-view bits; of a list its items'; of
    anything else (a number: the schema fixes its type) its value."""
    if isinstance(arg, torch.Tensor):
        return arg.shape, arg.stride(), arg.dtype, arg.device, arg.data_ptr() % 16 == 0, arg.is_neg() or arg.is_conj()
    if isinstance(arg, list):
        return tuple(_facts(item) for item in arg)
    return arg


def _call(name: str, recipe: Callable[..., KernelLaunch], args: Sequence[Any], outputs: int,
          memo: dict[tuple[Any, ...], _Warm]) -> list[torch.Tensor]:
    """The real implementation: the outputs of the op's launch on ``args``, written by the
    kernel (sharing their memory with it).  A signature (``_facts`` of every argument) seen
    before, on this backend and outside a safetile capture, takes the warm path; outputs that
    are all empty are returned without a launch; else ``_first``."""
    key = tuple([_facts(a) for a in args])
    warm = memo.get(key)
    if warm is not None and warm.plan.backend is current_backend() and not capturing_here():
        return warm.run(args)
    launch = _launch_of(name, recipe, args, outputs)
    if all(0 in o.shape for o in launch.outputs):
        # Nothing to write (a batch of no rows): no launch, as a torch op on empty tensors
        # (a grid of no blocks is no launch's; the kernel would refuse it).
        _check_dtypes(name, launch)
        return _allocate(launch.outputs, _device(args))
    return _first(name, launch, args, key, memo)


_TENSOR = object()
"""Where a ``_Warm``'s launch arguments hold a tensor (taken from the call's arguments)."""


@dataclass(frozen=True)
class _Warm:
    """What one signature of a kernel op fixes, remembered after its first call ran the recipe
    and went through every check of ``launch`` (argument types, element types, shapes, strides,
    alignment, tiles, the kernel's launch checks; the variant compiled and loaded): the
    recipe's launch and the launch's ``_Plan``.

    A later call of the signature runs no recipe: it allocates the outputs, takes the kernel's
    tensor inputs from the call's arguments (made contiguous where the first call's were not; a
    view the recipe made of one, at its offset and layout) and launches: on the host through one
    storage a tensor handed to the plan's launcher, on the GPU from the tensors' addresses alone
    (``_launch_on_gpu``): no safetile handles, no plan lookup, no partitions, nothing the
    signature decides checked again.  What the addresses decide is checked every call: an output
    overlapping another argument is refused as ``launch`` refuses it (``check_disjoint``); on the
    GPU the caching allocator is told of every input's use every call (``record_stream``).  The outputs and
    contiguous copies are new allocations of torch's (64-byte aligned on the host, 512 on the
    GPU), so their alignment is the first call's.  The handles the first launch made were
    private to the call (no one else could hold them), so their moves check nothing a later
    call needs."""

    kernel: Any
    plan: Any
    """The first launch's plan (``plan`` of the op ``launch`` made)."""
    outputs: tuple[OutputSpec, ...]
    device: torch.device
    """Where the outputs are allocated."""
    inputs: tuple[tuple[int, bool], ...]
    """Of each tensor among the launch's arguments, in order: the position of the op's argument it
    is or views (``_source``), and whether it is made contiguous (a copy)."""
    offsets: tuple[int, ...]
    """Of each tensor (outputs, then the inputs): its memory's byte offset from its argument's (a
    view's; 0 for the rest)."""
    args: tuple[Any, ...]
    """The launch's arguments, ``_TENSOR`` in place of each tensor."""
    layouts: tuple[tuple[tuple[int, ...], tuple[int, ...], DType], ...]
    """Each tensor's shape, strides and element type as shared (outputs, then the inputs)."""
    arrays: tuple[Any, ...] | None
    """On the GPU, each tensor's device array of the first call with no owner (what a refused
    overlap is reported with: ``_refuse_overlap``); ``None`` on the host."""
    gpu: _OnGpu | None
    """On the GPU, what a call's launch needs besides its tensors' addresses; ``None`` on the host."""
    run_options: dict[str, Any]

    def run(self, args: Sequence[Any]) -> list[torch.Tensor]:
        outputs = _allocate(self.outputs, self.device)
        inputs = [args[i].contiguous() if copied else args[i] for i, copied in self.inputs]
        tensors = [*outputs, *inputs]
        gpu = self.gpu
        if gpu is not None:
            self._launch_on_gpu(gpu, tensors, inputs)
            return outputs
        bare = [_Bare(torch_storage(t, t.data_ptr() + offset, shape, strides, element, None))
                for t, offset, (shape, strides, element) in zip(tensors, self.offsets, self.layouts, strict=True)]
        launch_args = self._launch_args(bare)
        plan = self.plan
        check_disjoint(self.kernel, plan, launch_args)
        home = plan.backend.default_stream  # host tensors: the backend's default stream, waited for
        plan.launcher.launch(launch_args, home, self.run_options)
        home.synchronize()
        return outputs

    def _launch_on_gpu(self, gpu: _OnGpu, tensors: list[torch.Tensor], inputs: list[torch.Tensor]) -> None:
        """Launch on torch's current stream from the tensors' addresses alone: each storage's address
        range is the first call's moved to its tensor's address (the signature fixes its layout),
        the overlap check compares those ranges as ``check_disjoint`` compares the storages'
        (``DeviceArray.overlaps``), and the launcher patches the addresses into a parameter buffer
        it packed once (``CudaLauncher.launch_at``): no storage object made a call."""
        addresses = [t.data_ptr() + offset for t, offset in zip(tensors, self.offsets)]
        spans = [(at + low, at + high) for at, (low, high) in zip(addresses, gpu.extents)]
        for out, other in gpu.pairs:
            (a, b), (c, d) = spans[out], spans[other]
            if a < d and c < b:
                self._refuse_overlap(tensors, addresses)
        stream, current = torch_current_on(gpu.device)
        # ``keep_for_stream``'s work, known to apply to each input: all are on the plan's GPU (the
        # signature holds their device; the first call refused any other), and ``current`` is
        # torch's object of ``stream`` itself
        for t in inputs:
            t.record_stream(current)
        early = gpu.early
        self.plan.launcher.launch_at([addresses[k] for k in gpu.slots], gpu.scalars, stream,
                                     tuple([spans[k] for k in gpu.written]),
                                     None if early is None else tuple([spans[k] for k in early]))

    def _refuse_overlap(self, tensors: Sequence[torch.Tensor], addresses: Sequence[int]) -> None:
        """Raise the error ``launch`` raises for an output that overlaps another argument:
        ``check_disjoint`` on the call's storages (made only here, where it will refuse)."""
        assert self.arrays is not None
        stream = self.arrays[0].stream
        bare = [_Bare(array.at(at, t, stream)) for t, at, array in zip(tensors, addresses, self.arrays)]
        check_disjoint(self.kernel, self.plan, self._launch_args(bare))
        raise AssertionError("check_disjoint refuses what the warm path's ranges found overlapping")

    def _launch_args(self, bare: Sequence[_Bare]) -> list[Any]:
        """The launch's arguments: the outputs' and inputs' storages in the kernel's order, the
        numbers as the recipe gave them."""
        count = len(self.outputs)
        shared = iter(bare[count:])
        return [*bare[:count], *(next(shared) if a is _TENSOR else a for a in self.args)]


@dataclass(frozen=True)
class _OnGpu:
    """What a GPU signature's warm calls launch with besides their tensors' addresses (``_Warm``'s
    tensors are indexed in its order: the outputs, then the inputs)."""

    device: Any
    """The ``runtime.cuda`` Device the plan launches on (torch's current stream is asked on it)."""
    extents: tuple[tuple[int, int], ...]
    """Each tensor's address range relative to its address (``DeviceArray.span`` minus ``ptr``)."""
    pairs: tuple[tuple[int, int], ...]
    """The plan's ``overlap_pairs`` as tensor indices: (output, another tensor) that must not meet."""
    slots: tuple[int, ...]
    """The tensor of each storage slot of the launcher's parameters (``ParamTemplate.storage_slots``)."""
    written: tuple[int, ...]
    """The tensors the launch may write (``CudaLauncher.written``)."""
    early: tuple[int, ...] | None
    """The tensors the kernel reads before its wait (``CudaLauncher.early``; ``None`` where it
    launches one way always)."""
    scalars: tuple[Any, ...]
    """The launch's arguments with ``None`` for each tensor: what the launcher reads its scalars from."""


def _first(name: str, launch: KernelLaunch, args: Sequence[Any], key: tuple[Any, ...],
           memo: dict[tuple[Any, ...], _Warm]) -> list[torch.Tensor]:
    """The first call of a signature: launch on real tensors through ``launch`` (every check).

    Host tensors: the launch is waited for.  GPU tensors: the launch is enqueued on torch's current
    stream and not waited for, as a torch op (under ``torch.cuda.graph`` capture it is recorded into
    the graph); torch's caching allocator is told the stream uses every input's memory (the outputs
    were allocated on that stream).  The element types are checked here; the launch and its plan
    are remembered in ``memo`` (``_Warm``) where every tensor the recipe passes is one of the
    op's arguments or a view inside one (``_source``; a tensor it made is the recipe's to make
    again: such a signature takes this path every call).  torch is asked for its current stream
    once a call (``torch_current``)."""
    _check_dtypes(name, launch)
    outputs = _allocate(launch.outputs, _device(launch.args))
    # contiguous: the layout the fake implementation specialized for
    inputs = [a.contiguous() if isinstance(a, torch.Tensor) else a for a in launch.args]
    tensor_inputs = [a for a in inputs if isinstance(a, torch.Tensor)]
    tensors = [*outputs, *tensor_inputs]
    stream, current = torch_current(tensors)
    handles = [share_torch(t, stream) for t in tensors]
    parts = [h.partition(o.tile) for h, o in zip(handles, launch.outputs)]
    shared = iter(handles[len(outputs):])
    op = launch.kernel(*parts, *(next(shared) if isinstance(a, torch.Tensor) else a for a in inputs),
                       **launch.options)
    warm = _remember(launch, args, inputs, op.plan, tensors, handles, outputs)
    if warm is not None:
        if len(memo) >= WARM_MEMO:
            memo.clear()
        memo[key] = warm
    if stream is None:
        op.sync()
    else:
        keep_for_stream(tensor_inputs, stream, current)
        op.enqueue(stream)
    return outputs


def _remember(launch: KernelLaunch, args: Sequence[Any], inputs: Sequence[Any], plan: Any,
              tensors: Sequence[torch.Tensor], handles: Sequence[Any], outputs: Sequence[torch.Tensor]) -> _Warm | None:
    """The ``_Warm`` of a first call (``None`` where the recipe passed a tensor that is neither one
    of the op's arguments nor a view inside one)."""
    taken, offsets = [], [0] * len(outputs)
    for given, used in zip(launch.args, inputs):
        if isinstance(given, torch.Tensor):
            source = _source(given, used is not given, args)
            if source is None:
                return None
            taken.append((source[0], used is not given))
            offsets.append(source[1])
    layouts = tuple((tuple(t.shape), tuple(t.stride()), h.dtype) for t, h in zip(tensors, handles))
    storages = [h._array for h in handles]
    args_shape = tuple(_TENSOR if isinstance(a, torch.Tensor) else a for a in launch.args)
    # device arrays (the cuda backend's storages, ``DeviceArray.at``), not the host's numpy arrays
    on_gpu = all(hasattr(a, "at") for a in storages)
    arrays = tuple(a.at(a.ptr, None, a.stream) for a in storages) if on_gpu else None
    return _Warm(launch.kernel, plan, tuple(launch.outputs), outputs[0].device if outputs else torch.device("cpu"),
                 tuple(taken), tuple(offsets), args_shape, layouts, arrays,
                 _on_gpu(plan, storages, len(outputs), args_shape) if on_gpu else None,
                 {k: v for k, v in launch.options.items() if k in RUN_OPTIONS})


def _on_gpu(plan: Any, storages: Sequence[Any], outputs: int, args: tuple[Any, ...]) -> _OnGpu:
    """The ``_OnGpu`` of a first call whose storages (device arrays, in ``_Warm``'s tensor order)
    the plan launched: the launch's argument positions (outputs, then ``args``) mapped to tensors."""
    tensor_of = {i: i for i in range(outputs)}  # launch argument position -> tensor index
    for position, a in enumerate(args, start=outputs):
        if a is _TENSOR:
            tensor_of[position] = len(tensor_of)
    launcher = plan.launcher
    early = launcher.early
    return _OnGpu(
        device=storages[0].stream.device,
        extents=tuple((a.span[0] - a.ptr, a.span[1] - a.ptr) for a in storages),
        pairs=tuple((tensor_of[plan.tensors[out]], tensor_of[plan.tensors[j]]) for out, j in plan.overlap_pairs),
        slots=tuple(tensor_of[i] for _, i in launcher.template.storage_slots),
        written=tuple(tensor_of[i] for i in launcher.written),
        early=None if early is None else tuple(tensor_of[i] for i in early),
        scalars=tuple([None] * outputs) + tuple(None if a is _TENSOR else a for a in args),
    )


def _source(given: torch.Tensor, copied: bool, args: Sequence[Any]) -> tuple[int, int] | None:
    """Where a tensor a recipe passed comes from, as ``(position, byte offset)``: one of the op's
    arguments itself (offset 0), or a view the kernel reads in place (not ``copied``) whose
    elements lie inside the memory of a 16-byte aligned argument (``grouped`` views of
    attention's backward).  Its offset and layout are the signature's (the recipe is a function
    of it), so a later call's view lies inside that call's argument as this one does, at the
    same alignment (the argument's is the signature's: aligned).  ``None``: a tensor the recipe
    made, or a view reaching past its argument's elements."""
    for i, a in enumerate(args):
        if a is given:
            return i, 0
    if copied:
        return None
    low, high = _extent(given)
    for i, a in enumerate(args):
        if isinstance(a, torch.Tensor) and a.device == given.device and a.data_ptr() % 16 == 0:
            start, end = _extent(a)
            if start <= low and high <= end and low < high:
                return i, given.data_ptr() - a.data_ptr()
    return None


def _extent(tensor: torch.Tensor) -> tuple[int, int]:
    """The half-open byte range a tensor's elements lie in."""
    ptr, size = tensor.data_ptr(), tensor.element_size()
    if tensor.numel() == 0:
        return ptr, ptr
    reach = [(s * (d - 1)) for s, d in zip(tensor.stride(), tensor.shape)]
    return ptr + size * sum(r for r in reach if r < 0), ptr + size * (sum(r for r in reach if r > 0) + 1)


class _Bare:
    """A storage as a launcher reads an argument (``_array``): the warm path's stand-in for a handle."""

    __slots__ = ("_array",)

    def __init__(self, storage: Any):
        self._array = storage


def _spec(tensor: torch.Tensor, tile: tuple[int, ...] | None = None) -> TensorSpec:
    strides = tuple(tensor.contiguous().stride())  # as _run passes them
    return TensorSpec(safetile_dtype(tensor.dtype), tuple(tensor.shape), strides, tile, True)


def _specialize(launch: KernelLaunch) -> Any:
    """Specialize the kernel for the launch's facts (compile errors name the kernel's line): the
    variant, which the real launch on contiguous tensors of these facts compiles (the GPU tests'
    cache build compiles it ahead of time: test/gpu/build_torch_cache.py).

    Under dynamic shapes (symbolic sizes: ``torch.compile`` after a size changed, or
    ``dynamic=True``) the facts are not known while tracing, and the check is the first run's
    (``None``)."""
    tensors = [*launch.outputs, *(a for a in launch.args if isinstance(a, torch.Tensor))]
    if not all(isinstance(d, int) for t in tensors for d in t.shape):
        return None
    kernel = launch.kernel
    params = [p for p in kernel.params if p.kind != "generic"]
    specs: dict[str, TensorSpec] = {}
    values = [*(torch.empty(o.shape, dtype=o.dtype, device="meta") for o in launch.outputs), *launch.args]
    tiles = [o.tile for o in launch.outputs] + [None] * len(launch.args)
    for param, value, tile in zip(params, values, tiles):
        if param.kind == "tensor" and isinstance(value, torch.Tensor):
            specs[param.name] = _spec(value, tile)
    generics = {k: v for k, v in launch.options.items() if k not in OPTIONS}
    return kernel.specialize(**generics, **specs)
