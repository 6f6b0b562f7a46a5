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
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import math
from collections.abc import Sequence
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

    def _take(self, holder: Holder, action: str) -> None:
        self._check_live(action)
        self._taken_by = holder

    @property
    def is_live(self) -> bool:
        return self._taken_by is None


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
        from .interop import to_dlpack

        return to_dlpack(self, stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)

    def __dlpack_device__(self) -> tuple[int, int]:
        from .interop import dlpack_device

        return dlpack_device(self)

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """The CUDA Array Interface (v3) of a GPU tensor: CuPy, Numba and torch read it."""
        data = self.storage("export the tensor")
        if isinstance(data, np.ndarray):
            raise AttributeError("a CPU tensor has no __cuda_array_interface__ (use __array_interface__ or DLPack)")
        return data.__cuda_array_interface__

    def partition(self, shape: Sequence[int] | int) -> Partition:
        """Move this tensor into a ``Partition`` of tiles of ``shape``."""
        shape = (int(shape),) if isinstance(shape, int) else tuple(int(s) for s in shape)
        self._check_live(f"partition the tensor into {shape}")
        if len(shape) != self.ndim:
            raise ValueError(f"partition {shape} has rank {len(shape)}, the tensor has rank {self.ndim}")
        if not 1 <= len(shape) <= 3:
            raise ValueError(f"host partitions have rank 1 to 3 (the launch grid), got rank {len(shape)}")
        if any(s < 1 for s in shape):
            raise ValueError(f"partition shape {shape} must be positive")
        part = Partition(Tensor(self._array, self.dtype), shape)
        self._take(part, "partition the tensor")
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
        self._take(_GaveBack("unpartition"), "unpartition")
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

    def _borrow(self, op: Holder) -> None:
        self._borrowers.append(op)

    def _release(self, op: Holder) -> None:
        if op in self._borrowers:
            self._borrowers.remove(op)

    def unshare(self) -> Tensor:
        """The tensor back, mutable again; refused while a pending op holds it."""
        tensor = self.tensor("unshare")
        if self._borrowers:
            names = ", ".join(b.describe() for b in self._borrowers)
            raise OwnershipError(f"cannot unshare: the tensor is borrowed by in-flight work: {names}")
        fresh = Tensor(tensor._array, tensor.dtype)
        self._take(_GaveBack("unshare"), "unshare")
        return fresh


def shared(tensor: Tensor) -> Shared:
    """Move ``tensor`` into a read-only ``Shared`` handle."""
    if isinstance(tensor, Shared):
        return tensor
    handle = Shared(Tensor(tensor.storage("share the tensor"), tensor.dtype))
    tensor._take(handle, "share the tensor")
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
        self._take(_GaveBack("release"), "release the unsafe pointer")
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
    tensor._take(handle, "take an unsafe pointer to the tensor")
    return handle


def host_values(values: Any, dtype: DType) -> np.ndarray:
    """``values`` converted to ``dtype``'s storage: a new C-contiguous host array."""
    storage = numpy_dtype(dtype)
    data = np.asarray(values)
    if dtype.is_float and storage.kind != "f":
        # np.array, not np.ascontiguousarray: that makes a 0-d value 1-d.
        return np.array(to_storage(data, dtype.ir), dtype=storage, copy=True, order="C")
    return np.array(data, dtype=storage, copy=True, order="C")
