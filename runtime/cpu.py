"""The CPU backend: kernels run on the numpy interpreter, memory is numpy arrays.

Work enqueued on a ``CpuStream`` runs at once (so ``synchronize`` has nothing
to wait for), except while the stream captures: then it is kept and run by
each replay of the recording.

Addresses: every launch runs in a fresh interpreter memory, but each storage
keeps one address for its life (``AddressSpace``), as device memory does, so
an address a kernel stores (a pointer table) means the same memory in later
launches.  A launch reaches only its arguments' memory: an address into a
tensor it was not given is refused, naming the reason and the fix.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from safetile.backend.interpreter import DISPATCH, run_kernel
from safetile.backend.interpreter import Program
from safetile.backend.interpreter.memory import ALIGNMENT, GAP, PLACED_FROM, GlobalMemory

from safetile.driver import CompiledVariant

from .interface import Backend, Launcher, ParamTemplate
from .stream import Event, Recording, Stream


class _Done(Event):
    """The interpreter runs work as it is enqueued: an event is done when recorded, at ``at``."""

    def __init__(self) -> None:
        self.at = time.perf_counter()

    def done(self) -> bool:
        return True

    def wait(self) -> None:
        return None

    def elapsed_ms(self, end: Event) -> float:
        assert isinstance(end, _Done), "events of one backend"
        return (end.at - self.at) * 1e3


class CpuRecording(Recording):
    def __init__(self, work: list[Callable[[], None]]):
        self.work: list[Callable[[], None]] | None = work

    def replay(self, stream: Stream) -> None:
        if self.work is None:
            raise RuntimeError("this recording was closed")
        for thunk in self.work:
            stream.enqueue(thunk)  # type: ignore[attr-defined]

    def close(self) -> None:
        self.work = None


class CpuStream(Stream):
    def __init__(self, name: str = "stream"):
        self.name = name
        self.capturing = False
        self._captured: list[Callable[[], None]] = []

    def enqueue(self, thunk: Callable[[], None]) -> None:
        if self.capturing:
            self._captured.append(thunk)
        else:
            thunk()

    def synchronize(self) -> None:
        return None

    def record(self, timing: bool = False) -> Event:
        return _Done()

    def wait(self, event: Event) -> None:
        return None  # work runs as enqueued: what an event marks is done

    def join_capture(self, origin: Stream) -> None:
        # A branch's work goes into the origin's recording in program order (one
        # order that the rules of branches allow).
        assert isinstance(origin, CpuStream) and origin.capturing
        self.capturing, self._captured = True, origin._captured

    def rejoin(self, origin: Stream) -> None:
        self.capturing, self._captured = False, []

    def begin_capture(self) -> None:
        if self.capturing:
            raise RuntimeError(f"{self!r} is already capturing")
        self.capturing, self._captured = True, []

    def end_capture(self) -> Recording:
        if not self.capturing:
            raise RuntimeError(f"{self!r} is not capturing")
        self.capturing, self.capture_order = False, None
        return CpuRecording(self._captured)


class CpuBackend(Backend):
    name = "cpu"
    target = None
    device_name = "CPU interpreter"
    shared_memory_per_block = None

    def __init__(self, why: str):
        self.why = why
        self.default_stream = CpuStream("default")

    def describe(self) -> str:
        return f"running kernels on the CPU interpreter ({self.why})"

    def new_stream(self, name: str, ahead: bool = False) -> Stream:
        return CpuStream(name)  # work runs as enqueued: no stream waits for another

    def upload(self, array: np.ndarray, stream: Stream) -> np.ndarray:
        return np.array(array, copy=True, order="C")

    def fill(self, shape: Sequence[int], dtype: np.dtype, value: Any, stream: Stream) -> np.ndarray:
        return np.full(tuple(shape), value, dtype)

    def download(self, storage: np.ndarray) -> np.ndarray:
        return storage.copy()

    def owns(self, storage: Any) -> bool:
        return isinstance(storage, np.ndarray)

    def overlaps(self, a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.shares_memory(a, b))

    def snapshot(self, storage: np.ndarray) -> np.ndarray:
        return storage.copy()

    def restore(self, storage: np.ndarray, snapshot: np.ndarray) -> None:
        np.copyto(storage, snapshot)

    def prepare(self, compiled: CompiledVariant) -> Program:
        return Program(compiled.entry, DISPATCH)

    def launcher(self, runnable: Program, grid: tuple[int, int, int], params: ParamTemplate) -> CpuLauncher:
        return CpuLauncher(runnable, grid, params)


class AddressSpace:
    """The address of each host array's memory, the same in every launch while the memory lives.

    Memory is known by its owner (the array at the end of a view's ``base`` chain): a view
    gets its owner's address plus its offset.  Addresses are never reused, so one into freed
    memory stays outside every buffer.  Safe to use from several threads.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next = PLACED_FROM
        self._owners: dict[int, tuple[int, int, weakref.ref[np.ndarray]]] = {}
        """id(owner) -> (its address, its size in bytes, the owner), while the owner lives."""
        self._dead: list[int] = []
        """Keys of owners collected since: a finalizer may run at any allocation, inside the lock
        too, so it only appends here (atomic) and the lock's holders drop them."""

    def address(self, array: np.ndarray) -> int:
        owner = array
        while isinstance(owner.base, np.ndarray):
            owner = owner.base
        with self._lock:
            self._drop_dead()
            found = self._owners.get(id(owner))
            if found is None or found[2]() is not owner:  # a new owner (an id may be reused once dead)
                address = -(-self._next // ALIGNMENT) * ALIGNMENT
                self._next = address + max(owner.nbytes, 1) + GAP
                found = self._owners[id(owner)] = (address, owner.nbytes, weakref.ref(owner))
                weakref.finalize(owner, self._dead.append, id(owner))
        return found[0] + (_start(array) - _start(owner))

    def _drop_dead(self) -> None:
        while self._dead:
            key = self._dead.pop()
            entry = self._owners.get(key)
            if entry is not None and entry[2]() is None:
                del self._owners[key]

    def outside(self, address: int) -> str | None:
        with self._lock:
            self._drop_dead()
            live = any(start <= address < start + size for start, size, owner in list(self._owners.values())
                       if owner() is not None)
        if not live:
            return None
        return ("it is in the memory of a tensor this launch was not given; on the CPU interpreter a "
                "kernel reaches only its arguments' memory (on a GPU it would read that tensor): pass it to the "
                "launch (st.unsafe_pointer) to read or write it there")


def _start(array: np.ndarray) -> int:
    return int(array.__array_interface__["data"][0])


ADDRESSES = AddressSpace()
"""The CPU backend's addresses (one process, one address space, as on a GPU)."""


class CpuLauncher(Launcher):
    """Runs a plan's kernel on the interpreter: the parameters are the arrays themselves and the scalars."""

    def __init__(self, runnable: Program, grid: tuple[int, int, int], params: ParamTemplate):
        self.runnable, self.grid, self.params = runnable, grid, params

    def launch(self, args: Sequence[Any], stream: Stream, options: dict[str, Any]) -> None:
        self.bind(args, options)(stream)

    def bind(self, args: Sequence[Any], options: dict[str, Any]) -> Callable[[Stream], None]:
        flat = self.params.flat(_itself, args)  # the interpreter reads the arrays themselves

        def run() -> None:
            run_kernel(
                self.runnable,
                self.grid,
                list(flat),
                memory=GlobalMemory(ADDRESSES),
                shuffle=options.get("shuffle", False),
                seed=options.get("seed"),
                detect_races=options.get("detect_races", True),
            )

        return lambda stream: stream.enqueue(run)  # type: ignore[attr-defined]


def _itself(storage: np.ndarray) -> np.ndarray:
    return storage
