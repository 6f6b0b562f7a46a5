"""Tensors, partitions and shared handles, with run-time ownership.

A ``Tensor`` is a handle on memory (its *storage*: a ``DeviceArray`` on the
GPU, a numpy array on the CPU backend) with an element type, a shape and
strides in elements.  Moving a tensor — into a
``Partition`` (``tensor.partition(shape)``), a shared handle
(``st.shared(tensor)``) or a kernel launch — kills the handle: using it
afterwards raises ``OwnershipError`` naming what holds the memory.  The new
owner gives a *new* handle back (``unpartition()``, ``DeviceOp.sync()``).
``st.unsafe_pointer(tensor)`` moves a tensor behind a raw pointer, for a
kernel's ``st.Ptr[E]`` parameter (``release()`` gives it back).

Threads: every check of a handle and the move that follows it are one step
under ``OWNERSHIP`` (a process-wide lock, held for a few attribute writes):
``take``, ``borrow``, ``unshare``, ``move_all`` (a launch's arguments).  So of
two threads moving one handle exactly one wins and the other gets
``OwnershipError``; an ``unshare`` and a launch borrowing the handle cannot
both succeed.  See docs/runtime.md, "Threads and failures".
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import math
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from safetile.backend.elements import from_storage, storage_dtype, to_storage
from safetile.frontend.dsl import DType

from .errors import OwnershipError
from .stream import check_no_capture, note_handle


_STORAGE: dict[DType, np.dtype] = {}


def numpy_dtype(dtype: DType) -> np.dtype:
    """The numpy dtype holding ``dtype``'s elements in memory (bf16 as uint16...)."""
    found = _STORAGE.get(dtype)
    if found is None:
        found = _STORAGE[dtype] = np.dtype(storage_dtype(dtype.ir))
    return found


def _value_dtype(dtype: DType) -> np.dtype:
    """The numpy dtype ``numpy()`` returns: the element type itself (unsigned
    and bool included; Tile IR stores them as signless integers), float32 for
    formats numpy lacks."""
    storage = numpy_dtype(dtype)
    if dtype.kind == "uint":
        return np.dtype(f"uint{dtype.bits}")
    if dtype.kind == "bool":
        return np.dtype(np.bool_)
    if dtype.is_float and storage.kind != "f":
        return np.dtype(np.float32)
    return storage


OWNERSHIP = threading.RLock()
"""Held while a handle is checked and moved (or a shared handle lent): see the module doc."""


class Holder(ABC):
    """Something that can hold moved memory; ``describe()`` names it in errors."""

    @abstractmethod
    def describe(self) -> str: ...


class _Handle:
    """Common ownership state: a handle is live until something takes it."""

    _taken_by: Holder | None = None
    _launch_key: int | None = None
    """What a launch depends on about this handle (``runtime/launch.py``: the number of its
    layout and its address); fixed for the handle's life, so computed once and passed on by ``fresh``."""
    _array: Any
    """The memory of the tensor the handle is over (a launch reads it without a liveness check of
    its own: it checks the handle)."""
    _kind = "handle"

    def _check_live(self, action: str) -> None:
        if self._taken_by is not None:
            raise OwnershipError(
                f"cannot {action}: this {self._kind} was moved into {self._taken_by.describe()}; "
                "use the handle it gave back"
            )

    def take(self, holder: Holder, action: str) -> None:
        """Move the handle into ``holder``: ``OwnershipError`` (naming ``action``) if it is dead."""
        with OWNERSHIP:
            self._check_live(action)
            self._taken_by = holder

    def give_back(self, holder: Holder) -> None:
        """Make the handle live again if ``holder`` holds it (a holder that failed, or is released)."""
        with OWNERSHIP:
            if self._taken_by is holder:
                self._taken_by = None

    def hand_over(self, old: Holder, new: Holder) -> None:
        """Pass the handle from ``old``, which holds it, to ``new`` (a launch kept as a ``Prepared``)."""
        with OWNERSHIP:
            assert self._taken_by is old, f"{old.describe()} does not hold this {self._kind}"
            self._taken_by = new

    def launch_key(self, compute: Callable[[Any], int]) -> int:
        """What a launch depends on about this handle (``_launch_key``), computed by ``compute`` once."""
        key = self._launch_key
        if key is None:
            key = self._launch_key = compute(self)
        return key

    @property
    def is_live(self) -> bool:
        return self._taken_by is None


_to_dlpack: Callable[..., Any] | None = None
_dlpack_device: Callable[[Tensor], tuple[int, int]] | None = None
"""What ``Tensor.__dlpack__`` and ``__dlpack_device__`` call: set by interop.py (``export_with``)."""


def export_with(to_dlpack: Callable[..., Any], dlpack_device: Callable[[Tensor], tuple[int, int]]) -> None:
    """Let ``Tensor.__dlpack__``/``__dlpack_device__`` export with interop.py's functions.

    interop.py calls this when it is imported (the package's ``__init__`` imports
    it, so before any tensor exists): its imports make ``Tensor``s, so it builds
    on this module, which cannot import it without closing an import circle."""
    global _to_dlpack, _dlpack_device
    _to_dlpack, _dlpack_device = to_dlpack, dlpack_device


class Tensor(_Handle):
    """A tensor in memory: ``dtype``, ``shape``, ``strides`` (elements)."""

    _kind = "tensor"

    def __init__(self, array: Any, dtype: DType):
        if array.dtype != numpy_dtype(dtype):
            raise TypeError(f"a {dtype.name} tensor is stored as {numpy_dtype(dtype)}, got {array.dtype}")
        self._array = array
        self.dtype = dtype
        note_handle(self)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._array.shape)

    @property
    def strides(self) -> tuple[int, ...]:
        return tuple(s // self._array.itemsize for s in self._array.strides)

    @property
    def ndim(self) -> int:
        return self._array.ndim

    def __repr__(self) -> str:
        state = "" if self.is_live else f", moved into {self._taken_by.describe()}"  # type: ignore[union-attr]
        return f"Tensor({self.dtype.name}, shape={self.shape}{state})"

    @property
    def device(self) -> str:
        """``"cuda"`` for GPU memory, ``"cpu"`` for host memory."""
        return "cpu" if isinstance(self._array, np.ndarray) else "cuda"

    def storage(self, action: str = "access the tensor") -> Any:
        """The memory holding the elements (checked: the handle must be live)."""
        self._check_live(action)
        return self._array

    def fresh(self) -> Tensor:
        """A new live handle on this tensor's memory (what a launch gives back)."""
        handle = object.__new__(Tensor)
        handle._array, handle.dtype, handle._launch_key = self._array, self.dtype, self._launch_key
        return handle

    def numpy(self) -> np.ndarray:
        """A host copy of the elements (bf16 and 8-bit floats as float32).

        On the GPU the copy is ordered after the work that wrote the tensor
        and waits for it.
        """
        data = self.storage("read the tensor")
        check_no_capture("read the tensor")
        host = data.copy() if isinstance(data, np.ndarray) else data.to_host()
        wanted = _value_dtype(self.dtype)
        if wanted == host.dtype:
            return host
        if self.dtype.kind == "uint":
            return host.view(wanted)
        if self.dtype.kind == "bool":
            return host != 0
        return np.asarray(from_storage(host, self.dtype.ir), dtype=wanted)

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: bool | None = None) -> Any:
        """Export without a copy (DLPack): the consumer shares this tensor's memory."""
        assert _to_dlpack is not None, "interop.py sets it when the package is imported"
        return _to_dlpack(self, stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)

    def __dlpack_device__(self) -> tuple[int, int]:
        assert _dlpack_device is not None, "interop.py sets it when the package is imported"
        return _dlpack_device(self)

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """The CUDA Array Interface (v3) of a GPU tensor: CuPy, Numba and torch read it."""
        data = self.storage("export the tensor")
        if isinstance(data, np.ndarray):
            raise AttributeError("a CPU tensor has no __cuda_array_interface__ (use __array_interface__ or DLPack)")
        return data.__cuda_array_interface__

    def partition(self, shape: Sequence[int] | int) -> Partition:
        """Move this tensor into a ``Partition`` of tiles of ``shape``."""
        shape = shape_of(shape, "a partition shape")
        self._check_live(f"partition the tensor into {shape}")
        if len(shape) != self.ndim:
            raise ValueError(f"partition {shape} has rank {len(shape)}, the tensor has rank {self.ndim}")
        if not 1 <= len(shape) <= 3:
            raise ValueError(f"host partitions have rank 1 to 3 (the launch grid), got rank {len(shape)}")
        if any(s < 1 for s in shape):
            raise ValueError(f"partition shape {shape} must be positive")
        part = Partition(Tensor(self._array, self.dtype), shape)
        self.take(part, "partition the tensor")
        return part


class Partition(_Handle, Holder):
    """A tensor split into tiles of ``shape``: a launch's mutable output.

    ``grid`` is ``ceil(tensor.shape / shape)`` per dimension; tile block
    ``(i, j, k)`` owns tile ``(i, j, k)[:rank]``.  The same partition serves
    ``st.Mut`` (one block per tile) and ``st.MutMapped`` (any grid, each
    block walking its tiles).
    """

    _kind = "partition"

    def __init__(self, tensor: Tensor, shape: tuple[int, ...]):
        self._tensor = tensor
        self._array = tensor._array
        self.shape = shape
        note_handle(self)
        self.grid = tuple(math.ceil(d / s) for d, s in zip(tensor.shape, shape))

    def describe(self) -> str:
        return f"Partition(tile={self.shape}, grid={self.grid})"

    def __getattr__(self, name: str) -> Any:
        # Only reached for names a Partition lacks: a Tensor's (numpy, strides...)
        # mean the caller wants the tensor back first.
        if not name.startswith("_") and hasattr(Tensor, name):
            raise AttributeError(
                f"a Partition has no '{name}': it holds the tensor while launches write it; "
                f"take the tensor back first: p.unpartition().{name}"
            )
        raise AttributeError(f"'Partition' object has no attribute '{name}'")

    def __repr__(self) -> str:
        return f"Partition({self._tensor.dtype.name}, shape={self._tensor.shape}, tile={self.shape}, grid={self.grid})"

    @property
    def dtype(self) -> DType:
        return self._tensor.dtype

    @property
    def tensor_shape(self) -> tuple[int, ...]:
        return self._tensor.shape

    def launch_grid(self) -> tuple[int, int, int]:
        return tuple(self.grid) + (1,) * (3 - len(self.grid))  # type: ignore[return-value]

    def tensor(self, action: str = "use the partition") -> Tensor:
        self._check_live(action)
        return self._tensor

    def fresh(self) -> Partition:
        """A new live handle on this partition (what a launch gives back).

        It holds the same private ``Tensor`` as this one: a partition never lets
        its tensor out (``unpartition`` makes a new handle), so this dead
        handle cannot reach it."""
        handle = object.__new__(Partition)
        handle._tensor, handle._array, handle.shape, handle.grid = self._tensor, self._array, self.shape, self.grid
        handle._launch_key = self._launch_key
        return handle

    def unpartition(self) -> Tensor:
        """The whole tensor back (this partition handle dies)."""
        tensor = self.tensor("unpartition")
        fresh = Tensor(tensor._array, tensor.dtype)
        self.take(_GaveBack("unpartition"), "unpartition")
        return fresh


class _GaveBack(Holder):
    """The holder of a handle that gave its tensor back (``unpartition``, ``unshare``)."""

    def __init__(self, how: str):
        self.how = how

    def describe(self) -> str:
        return f"the tensor returned by {self.how}()"


class _OverTensor(_Handle):
    """A handle over one whole tensor: its element type and shape are the tensor's."""

    _use = "use the handle"
    """The action its ``tensor()`` names when the handle is dead."""

    def __init__(self, tensor: Tensor):
        self._tensor = tensor
        self._array = tensor._array
        note_handle(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._tensor.dtype.name}, shape={self._tensor.shape})"

    @property
    def dtype(self) -> DType:
        return self._tensor.dtype

    @property
    def shape(self) -> tuple[int, ...]:
        """The tensor's shape."""
        return self._tensor.shape

    def tensor(self, action: str | None = None) -> Tensor:
        self._check_live(action or self._use)
        return self._tensor


class Shared(_OverTensor, Holder):
    """A read-only handle many launches may hold at once (``st.shared(t)``)."""

    _kind = "shared handle"
    _use = "use the shared tensor"

    def __init__(self, tensor: Tensor):
        super().__init__(tensor)
        self._borrowers: list[Holder] = []

    def describe(self) -> str:
        return f"shared({self._tensor.dtype.name} tensor of shape {self._tensor.shape})"

    def numpy(self) -> np.ndarray:
        """A copy of the elements (reading is allowed while launches hold it)."""
        return self.tensor("read the shared tensor").numpy()

    def borrow(self, holder: Holder, action: str) -> None:
        """Lend the tensor to ``holder`` (a launch, a prepared launch): ``OwnershipError`` if dead."""
        with OWNERSHIP:
            self._check_live(action)
            self._borrowers.append(holder)

    def return_borrow(self, holder: Holder) -> None:
        """``holder`` no longer reads the tensor."""
        with OWNERSHIP:  # every loan to it (a launch may pass one shared handle twice)
            self._borrowers = [b for b in self._borrowers if b is not holder]

    def unshare(self) -> Tensor:
        """The tensor back, mutable again; refused while a pending op holds it."""
        with OWNERSHIP:  # no launch may borrow it between the check and the move
            tensor = self.tensor("unshare")
            if self._borrowers:
                names = ", ".join(b.describe() for b in self._borrowers)
                raise OwnershipError(f"cannot unshare: the tensor is borrowed by in-flight work: {names}")
            self.take(_GaveBack("unshare"), "unshare")
        return Tensor(tensor._array, tensor.dtype)


def move_all(holder: Holder, handles: Sequence[_Handle], explain: Callable[[int, bool], str | Exception]) -> None:
    """Move ``handles`` into ``holder`` (borrow the ``Shared`` ones) as one step: all or none.

    A dead handle raises its ``OwnershipError`` (``explain(k, False)`` names the use
    of ``handles[k]``); else one moved twice raises ``explain(k, True)`` (``k``: its
    first place).  Either way, and on an interrupt meanwhile, nothing stays moved.
    """
    with OWNERSHIP:
        try:
            for handle in handles:
                if handle._taken_by is not None:
                    break
                if type(handle) is Shared:
                    handle._borrowers.append(holder)
                else:
                    handle._taken_by = holder
            else:
                return
        except BaseException:
            _undo(holder, handles)
            raise
        _undo(holder, handles)
        for k, handle in enumerate(handles):
            if not handle.is_live:
                handle._check_live(str(explain(k, False)))
        for k, handle in enumerate(handles):
            if type(handle) is not Shared and any(other is handle for other in handles[k + 1:]):
                raise explain(k, True)  # type: ignore[misc]
        raise AssertionError("move_all stopped at a handle that is live and passed once")


def _undo(holder: Holder, handles: Sequence[_Handle]) -> None:
    """Give back whatever of ``handles`` ``holder`` holds or borrows."""
    for handle in handles:
        if type(handle) is Shared:
            handle.return_borrow(holder)
        else:
            handle.give_back(holder)


def shared(tensor: Tensor) -> Shared:
    """Move ``tensor`` into a read-only ``Shared`` handle."""
    if isinstance(tensor, Shared):
        return tensor
    handle = Shared(Tensor(tensor.storage("share the tensor"), tensor.dtype))
    tensor.take(handle, "share the tensor")
    return handle


class UnsafePointer(_OverTensor, Holder):
    """A tensor behind a raw pointer, for a ``st.Ptr[E]`` parameter (``st.unsafe_pointer(t)``).

    Passing it is what makes a launch with pointer parameters explicit: the
    kernel may read and write anywhere through the address, so the runtime
    checks nothing but that the handle is live and its memory is not also a
    mutable output.  Like a ``Partition`` it is moved into the launch, so
    while the launch is pending the tensor cannot be read, released or passed
    to another launch; the launch gives a fresh handle back, and
    ``release()`` gives the tensor back.
    """

    _kind = "unsafe pointer"
    _use = "use the unsafe pointer"

    def describe(self) -> str:
        return f"unsafe_pointer({self._tensor.dtype.name} tensor of shape {self._tensor.shape})"

    def fresh(self) -> UnsafePointer:
        """A new live handle on the same private tensor (what a launch gives back; see ``Partition.fresh``)."""
        handle = object.__new__(UnsafePointer)
        handle._tensor, handle._array, handle._launch_key = self._tensor, self._array, self._launch_key
        return handle

    def release(self) -> Tensor:
        """The tensor back (this pointer handle dies)."""
        tensor = self.tensor("release the unsafe pointer")
        fresh = Tensor(tensor._array, tensor.dtype)
        self.take(_GaveBack("release"), "release the unsafe pointer")
        return fresh


def unsafe_pointer(tensor: Tensor) -> UnsafePointer:
    """Move ``tensor`` behind a raw pointer, to pass to a ``st.Ptr[E]`` parameter."""
    if not isinstance(tensor, Tensor):
        hint = {
            Partition: "take the tensor back first: st.unsafe_pointer(p.unpartition())",
            Shared: "take the tensor back first: st.unsafe_pointer(s.unshare())",
            UnsafePointer: "it already is one: pass it as it is",
        }.get(type(tensor), "make one with st.zeros, st.from_numpy or st.from_dlpack, and .sync() it")
        raise TypeError(f"st.unsafe_pointer takes a Tensor, got {type(tensor).__name__}: {hint}")
    handle = UnsafePointer(Tensor(tensor.storage("take an unsafe pointer to the tensor"), tensor.dtype))
    tensor.take(handle, "take an unsafe pointer to the tensor")
    return handle


def host_values(values: Any, dtype: DType) -> np.ndarray:
    """``values`` converted to ``dtype``'s storage: a new C-contiguous host array.

    Range-checked, never wrapped, truncated or saturated: an integer type takes
    integral values in its range (a bool 0 or 1), a float type any number whose
    finite values stay finite in its format (they are rounded to nearest-even).
    Anything else is an ``OverflowError`` (out of range, NaN or infinity into an
    integer) or a ``TypeError`` (a fraction into an integer, a non-number),
    naming the value, its place and the type.
    """
    storage = numpy_dtype(dtype)
    data = np.asarray(values)
    if data.dtype.kind == "O":
        data = _python_numbers(data, dtype)
    elif data.dtype.kind not in "biuf":
        raise TypeError(f"{_show(data)} cannot be {dtype.name} elements: they are {data.dtype}, not numbers")
    if dtype.is_float:
        with np.errstate(over="ignore", invalid="ignore"):
            if storage.kind != "f":
                stored = np.array(to_storage(data, dtype.ir), dtype=storage, copy=True, order="C")
                back = from_storage(stored, dtype.ir)
            else:
                stored = back = np.array(data, dtype=storage, copy=True, order="C")
            grew = np.isfinite(data.astype(np.float64)) & ~np.isfinite(back)
        if grew.any():
            raise OverflowError(f"{_at(data, grew)} is too large for {dtype.name}: it would be infinite; "
                                "scale it, or use a wider float type")
        return stored
    low, high = _integer_range(dtype)
    if data.dtype.kind == "f":
        if not np.isfinite(data).all():
            raise OverflowError(f"{_at(data, ~np.isfinite(data))} cannot be {dtype.name}: an integer type has no "
                                "NaN or infinity")
        fraction = data != np.trunc(data)
        if fraction.any():
            raise TypeError(f"{_at(data, fraction)} is not an integer, so it cannot be {dtype.name}: "
                            "round it first (np.round, np.floor) or use a float type")
    if data.size:
        outside = (data < low) | (data > high) if data.dtype.kind != "b" else np.zeros(data.shape, bool)
        if outside.any():
            raise OverflowError(f"{_at(data, outside)} does not fit {dtype.name} (from {low} to {high}): "
                                "use a wider type")
    return np.array(data, dtype=storage, copy=True, order="C")


def _integer_range(dtype: DType) -> tuple[int, int]:
    if dtype.kind == "bool":
        return 0, 1
    if dtype.kind == "uint":
        return 0, 2**dtype.bits - 1
    return -(2 ** (dtype.bits - 1)), 2 ** (dtype.bits - 1) - 1


def _python_numbers(data: np.ndarray, dtype: DType) -> np.ndarray:
    """An object array of Python numbers (ints too large for int64, say) as a numeric array,
    range-checked first where the numbers are integers (float64 would round them)."""
    flat = data.ravel().tolist()
    for k, v in enumerate(flat):
        if not isinstance(v, int | float | np.number | np.bool_):
            where = f" at {tuple(int(i) for i in np.unravel_index(k, data.shape))}" if data.ndim else ""
            raise TypeError(f"{v!r}{where} cannot be a {dtype.name} element: it is a {type(v).__name__}, not a number")
    if not dtype.is_float and all(isinstance(v, int) for v in flat):
        low, high = _integer_range(dtype)
        for k, v in enumerate(flat):
            if not low <= v <= high:
                where = f" at {tuple(int(i) for i in np.unravel_index(k, data.shape))}" if data.ndim else ""
                raise OverflowError(f"{v!r}{where} does not fit {dtype.name} (from {low} to {high}): use a wider type")
        return np.array(flat, dtype=np.int64 if low < 0 else np.uint64).reshape(data.shape)
    try:
        return np.array([float(v) for v in flat], dtype=np.float64).reshape(data.shape)
    except OverflowError:
        raise OverflowError(f"{_show(data)} holds a number too large for any float type: it cannot be "
                            f"{dtype.name}") from None


def _at(data: np.ndarray, bad: np.ndarray) -> str:
    """The first value where ``bad`` holds, with its index in an array."""
    if data.ndim == 0:
        return repr(data.item())
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    return f"{data[index].item()!r} at {index}"


def _show(data: np.ndarray) -> str:
    return repr(data.item()) if data.ndim == 0 else f"an array of {data.dtype}"


def shape_of(shape: Any, what: str) -> tuple[int, ...]:
    """``shape`` (an int or a sequence of ints) as a tuple of non-negative ints; anything else
    (a string, a float, a bool, a negative extent) is a ``TypeError`` / ``ValueError`` naming ``what``."""
    items = (shape,) if isinstance(shape, int | np.integer) else shape
    if isinstance(shape, str | bytes) or not isinstance(items, Sequence | np.ndarray):
        raise TypeError(f"{what} must be an int or a tuple of ints, got {type(shape).__name__} {shape!r}")
    if isinstance(items, np.ndarray) and items.ndim != 1:
        raise TypeError(f"{what} must be an int or a tuple of ints, got a {items.ndim}-d array")
    dims = []
    for d in items:
        if isinstance(d, bool | np.bool_) or not isinstance(d, int | np.integer):
            raise TypeError(f"{what} {tuple(items)!r} must hold ints, got {type(d).__name__} {d!r}")
        dims.append(int(d))
    if any(d < 0 for d in dims):
        raise ValueError(f"{what} {tuple(dims)} has a negative extent")
    return tuple(dims)
