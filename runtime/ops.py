"""Lazy device operations: nothing runs until an op is driven.

``DeviceOp`` is a unit of device work producing a value.  Drive it with

* ``.sync()`` / ``.sync_on(stream)``: enqueue it and wait; the value;
* ``await op``: enqueue it and wait without blocking the event loop;
* ``.graph()``: capture it into a ``Graph`` (a CUDA graph) to replay.

Compose with ``.then(f)`` (``f`` takes the value and returns a value or
another ``DeviceOp``: the whole chain is enqueued back to back, with one wait
at the end), ``zip(a, b, ...)`` (a tuple of their values) and ``.shared()``
(a read-only handle of the op's tensor).  An op runs once: driving it again,
or driving an op that was composed into another, is a ``DeviceOpError``.
Allocation ops (``zeros``, ``ones``, ``full``, ``arange``, ``from_numpy``)
give a ``Tensor`` on the backend in use; they are refused inside a graph
capture (a replay must not depend on where memory was allocated).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from safetile.frontend.dsl import DType, f32, i32

from .backend import current_backend
from .errors import DeviceOpError
from .stream import Stream
from .tensor import OWNERSHIP, Holder, Tensor, host_values, numpy_dtype, shape_of, shared

if TYPE_CHECKING:
    from .graph import Graph

_ids = itertools.count(1)


def default_stream() -> Stream:
    """The stream ``.sync()`` and ``await`` use: the backend's default stream."""
    return current_backend().default_stream


class DeviceOp(Holder):
    """A lazy unit of device work producing a value."""

    def __init__(self, name: str, run: Callable[[Stream], Any], *, allocates: bool = False):
        self.id = next(_ids)
        self.name = name
        self._run = run
        self._steps: tuple[Callable[[Any], Any], ...] = ()
        self.allocates = allocates
        """Whether the op allocates memory (refused inside a graph capture)."""
        self.state = "pending"

    def describe(self) -> str:
        return f"DeviceOp #{self.id} '{self.name}' ({self.state})"

    def __getattr__(self, name: str) -> Any:
        # Only reached for names a DeviceOp lacks: most likely the caller
        # meant the op's value (a forgotten .sync()).
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(
            f"a DeviceOp has no attribute '{name}': '{self.name}' is lazy work, not its result; "
            f"run it first: value = op.sync() (or await op), e.g. z, x, y = add(z, x, y).sync()"
        )

    def __iter__(self) -> Any:
        raise TypeError(
            f"cannot unpack a DeviceOp: '{self.name}' is lazy work, not its result; "
            "run it first: z, x, y = add(z, x, y).sync() (or await op)"
        )

    def __repr__(self) -> str:
        return f"<{self.describe()}>"

    def _claim(self, how: str, state: str | None = None) -> None:
        """Refuse unless the op is pending; then (one step, whatever the threads) set ``state``."""
        with OWNERSHIP:
            if self.state != "pending":
                raise DeviceOpError(
                    f"cannot {how} {self.describe()}: it was already driven or composed; an op runs once")
            if state is not None:
                self.state = state

    def enqueue(self, stream: Stream) -> Any:
        """Enqueue the op's work on ``stream`` without waiting; its value.

        The value's tensors are usable at once as arguments of later work on
        ``stream`` (stream order), and reading them on the host waits for the
        work that writes them.
        """
        self._claim("drive", "running")
        if self.allocates and stream.capturing:
            self.state = "failed"
            raise DeviceOpError(
                f"{self.name} allocates memory and cannot be recorded in a graph capture "
                "(a replay must not depend on where memory was allocated): allocate before capturing"
            )
        run, steps = self._run, self._steps
        # An op runs once: dropping its work frees what the closures hold
        # (a launch's tensors) and breaks the op <-> closure reference cycle.
        self._run, self._steps = _spent, ()
        value: Any = _NOTHING
        try:
            value = run(stream)
            for step in steps:
                out = step(value)
                value = out.enqueue(stream) if isinstance(out, DeviceOp) else out
        except BaseException as err:
            self.state = "failed"
            if value is not _NOTHING:  # a step failed: what it was given comes back
                returned(err, value)
            raise
        self.state = "enqueued"
        return value

    def _wait(self, value: Any, wait: Callable[[], None]) -> Any:
        """``wait()`` for the enqueued work; an error (an interrupt) carries ``value`` back."""
        try:
            wait()
        except BaseException as err:
            returned(err, value)
            raise
        self.state = "done"
        return value

    def sync_on(self, stream: Stream) -> Any:
        """Run on ``stream`` and wait: the op's value."""
        return self._wait(self.enqueue(stream), stream.synchronize)

    _home: Stream | None = None
    """Set where the op has a stream of its own (a launch of GPU torch tensors: torch's current
    stream of its call); ops composed from it keep it."""

    def home_stream(self) -> Stream:
        """Where ``sync()`` and ``await`` run the op: the default stream, unless it has one of its own."""
        return self._home or default_stream()

    def sync(self) -> Any:
        """Run on ``home_stream()`` and wait: the op's value."""
        return self.sync_on(self.home_stream())

    def __await__(self) -> Generator[Any, None, Any]:
        stream = self.home_stream()
        value = self.enqueue(stream)
        try:
            yield from stream.record().wait_async().__await__()
        except BaseException as err:  # cancelled, interrupted: the value comes back on the error
            returned(err, value)
            raise
        self.state = "done"
        return value

    def then(self, f: Callable[[Any], Any]) -> DeviceOp:
        """An op running this one, then ``f(value)`` (a value, or an op that is run).

        This op is moved into the new one (drive the new one).
        """
        op = DeviceOp(f"{self.name}.then({getattr(f, '__name__', 'f')})", self._run, allocates=self.allocates)
        self._claim("compose", f"composed into #{op.id}")
        op._steps, op._home = self._steps + (f,), self._home
        return op

    def shared(self) -> DeviceOp:
        """An op giving a read-only ``Shared`` handle of this op's tensor."""
        return self.then(shared)

    def graph(self, stream: Stream | None = None) -> Graph:
        """Capture this op into a ``Graph`` without running it (see ``runtime/graph.py``)."""
        assert _capture is not None, "graph.py sets it when the package is imported"
        return _capture(self, stream)


_capture: Callable[[DeviceOp, Stream | None], Graph] | None = None
"""What ``DeviceOp.graph`` calls: set by graph.py (``capture_graphs_with``)."""


def capture_graphs_with(capture: Callable[[DeviceOp, Stream | None], Graph]) -> None:
    """Let ``op.graph(stream)`` capture with ``capture`` (``Graph.capture``).

    graph.py calls this when it is imported (the package's ``__init__`` imports
    it, so before any op exists): a graph replays as a ``DeviceOp``, so graph.py
    builds on this module, which cannot import it without closing an import circle."""
    global _capture
    _capture = capture


def _spent(stream: Stream) -> Any:
    raise DeviceOpError("this op's work was already run")


_NOTHING: Any = object()
"""No value yet (the op's own work has not given one)."""


def returned(err: BaseException, value: Any) -> None:
    """Put ``value`` (the handles a failed op gives back) on ``err`` as ``err.returned``, unless
    an inner op already put its own there (those are the live ones)."""
    if not hasattr(err, "returned"):
        try:
            err.returned = value  # type: ignore[attr-defined]
        except AttributeError:  # an exception type without a __dict__: nothing to carry it
            pass


def zip(*ops: DeviceOp) -> DeviceOp:  # noqa: A001 - the model's name
    """An op running ``ops`` in order: the tuple of their values."""
    for op in ops:
        if not isinstance(op, DeviceOp):
            raise TypeError(f"zip takes DeviceOps, got {type(op).__name__}")
        op._claim("zip")

    def run(stream: Stream) -> tuple[Any, ...]:
        values: list[Any] = []
        for k, op in enumerate(ops):
            try:
                values.append(op.enqueue(stream))
            except BaseException as err:
                # What ran gives its values back, the failed op what it gave, the rest
                # stays in the ops (still pending: drive or drop them).
                back = (*values, getattr(err, "returned", None), *ops[k + 1:])
                if hasattr(err, "returned"):
                    del err.returned
                returned(err, back)
                raise
        return tuple(values)

    return DeviceOp("zip(" + ", ".join(op.name for op in ops) + ")", run, allocates=any(o.allocates for o in ops))


def value(v: Any) -> DeviceOp:
    """An op that just gives ``v``."""
    return DeviceOp("value", lambda stream: v)


# -- allocation ----------------------------------------------------------------


def _shape(shape: Sequence[int] | int) -> tuple[int, ...]:
    return shape_of(shape, "a tensor shape")


_DTYPE_NAMES: dict[str, str] = {
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64", "bool": "bool_",
    "float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2",
}
"""numpy's and torch's names of element types (``torch.float32`` is ``float32``) -> safetile's."""


def element_type(dtype: Any) -> DType:
    """``dtype`` as a safetile element type: one already (``st.f32``), a numpy
    dtype (``np.float32``, ``"float32"``) or a torch dtype (``torch.bfloat16``)."""
    import safetile.frontend.dsl as dsl

    if isinstance(dtype, DType):
        return dtype
    text = str(dtype)
    name = text.removeprefix("torch.") if text.startswith("torch.") else None
    if name is None:
        try:
            name = np.dtype(dtype).name
        except TypeError:
            name = None
    found = _DTYPE_NAMES.get(name) if name is not None else None
    if found is None:
        raise TypeError(
            f"{dtype!r} is not an element type: pass a safetile type (st.f32, st.bf16, st.u8...), "
            "a numpy dtype or a torch dtype of one of them"
        )
    return getattr(dsl, found)


def _filled(name: str, shape: tuple[int, ...], fill: Any, dtype: DType) -> DeviceOp:
    if np.ndim(fill) != 0:
        raise TypeError(f"{name}: the fill value must be one number, got {type(fill).__name__} of shape {np.shape(fill)}")
    storage_value = host_values(fill, dtype)[()]  # checked at the call, not when the op runs

    def run(stream: Stream) -> Tensor:
        return Tensor(current_backend().fill(shape, numpy_dtype(dtype), storage_value, stream), dtype)

    return DeviceOp(name, run, allocates=True)


def full(shape: Sequence[int] | int, value: Any, dtype: DType | None = None) -> DeviceOp:
    """A tensor of ``shape`` filled with ``value`` (f32 by default)."""
    shape = _shape(shape)
    return _filled(f"full{shape}", shape, value, f32 if dtype is None else element_type(dtype))


def zeros(shape: Sequence[int] | int, dtype: Any = f32) -> DeviceOp:
    """A tensor of zeros (``dtype``: see ``element_type``)."""
    shape = _shape(shape)
    return _filled(f"zeros{shape}", shape, 0, element_type(dtype))


def ones(shape: Sequence[int] | int, dtype: Any = f32) -> DeviceOp:
    """A tensor of ones (``dtype``: see ``element_type``)."""
    shape = _shape(shape)
    return _filled(f"ones{shape}", shape, 1, element_type(dtype))


def _uploaded(name: str, values: Callable[[], np.ndarray], dtype: DType) -> DeviceOp:
    def run(stream: Stream) -> Tensor:
        return Tensor(current_backend().upload(values(), stream), dtype)

    return DeviceOp(name, run, allocates=True)


def arange(start: int, stop: int | None = None, step: int = 1, dtype: Any = i32) -> DeviceOp:
    """A 1-d tensor ``start, start + step, ... < stop`` (like ``numpy.arange``)."""
    dtype = element_type(dtype)
    stored = host_values(np.arange(start) if stop is None else np.arange(start, stop, step), dtype)
    return _uploaded(f"arange({len(stored)})", lambda: stored, dtype)


def from_numpy(array: Any, dtype: Any = None, *, copy: bool = True) -> DeviceOp:
    """A tensor holding ``array`` (anything ``np.asarray`` takes: an array, a
    list...), converted to ``dtype`` (see ``element_type``; by default the
    array's own type, unsigned and bool included).  ``copy=False`` on the CPU
    backend wraps the array itself when its type is the storage type (then
    host and tensor share memory); on the GPU the data is always copied to
    the device."""
    array = np.asarray(array)
    if dtype is None:
        try:
            dtype = element_type(array.dtype)
        except TypeError:
            raise TypeError(f"no safetile element type for numpy {array.dtype}; pass dtype=") from None
    dtype = element_type(dtype)
    wrap = not copy and array.dtype == numpy_dtype(dtype)
    values = None if wrap else host_values(array, dtype)  # checked (and copied) at the call

    def run(stream: Stream) -> Tensor:
        backend = current_backend()
        if wrap and backend.owns(array):
            return Tensor(array, dtype)
        return Tensor(backend.upload(host_values(array, dtype) if values is None else values, stream), dtype)

    return DeviceOp(f"from_numpy{tuple(array.shape)}", run, allocates=True)
