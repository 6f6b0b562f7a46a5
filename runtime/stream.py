"""Streams, events and recordings: the backend-neutral interface.

A ``Stream`` is an in-order queue of device work.  ``Stream(name)`` makes one
on the backend in use (the CPU interpreter or CUDA); each backend subclasses
it.  Work is *enqueued* on a stream and completes in order; ``synchronize()``
waits for all of it, ``record()`` gives an ``Event`` that completes when the
work enqueued so far has.

Capture: between ``begin_capture()`` and ``end_capture()`` enqueued work is
recorded, not run, and ``end_capture()`` returns a ``Recording`` that
``replay(stream)`` enqueues again and again (a CUDA graph on the GPU).
Allocating memory while capturing is refused (``DeviceOpError``): a replay
must not depend on addresses that change.

Branches: a capture may fork other streams into it (``join_capture``); their
work runs beside the capturing stream's at replay, and ``rejoin`` makes the
capturing stream wait for it.  Inside such a capture a ``CaptureOrder`` orders
the work on one tensor across its streams (see there).
"""

from __future__ import annotations

import asyncio
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .errors import OwnershipError


POLLS_BEFORE_THREAD = 64
"""How many times ``wait_async`` polls (yielding to the event loop in between)
before it hands the wait to a worker thread."""

class _Captures(threading.local):
    """This thread's open graph captures: a capture belongs to the thread that opened it."""

    def __init__(self) -> None:
        self.open = 0
        """How many captures this thread has open (its host reads are refused meanwhile)."""
        self.made: list[Any] = []
        """Tensor handles this thread made while a capture is open: the graph holds those still
        live at its end."""


_captures = _Captures()


def capturing_here() -> bool:
    """Whether this thread has a graph capture open."""
    return _captures.open > 0


@contextmanager
def capture_handles() -> Iterator[list[Any]]:
    """For the block, a capture is open in this thread: the handles it makes meanwhile go
    into the list yielded (and, at the end, into an enclosing capture's too)."""
    outer, made = _captures.made, []
    _captures.made = made
    _captures.open += 1
    try:
        yield made
    finally:
        _captures.open -= 1
        if _captures.open:
            outer.extend(made)  # an enclosing capture holds them too
        _captures.made = outer


def note_handle(handle: Any) -> None:
    """Record a new tensor handle if this thread has a capture open."""
    if _captures.open:
        _captures.made.append(handle)


def check_no_capture(action: str) -> None:
    """Refuse host access while this thread captures: the recorded work has not run."""
    if _captures.open:
        raise OwnershipError(
            f"cannot {action} while a graph is being captured: recorded work has not run; "
            "read it after the capture, once the graph has been replayed"
        )


class Event(ABC):
    """A point in a stream's work."""

    @abstractmethod
    def done(self) -> bool:
        """Whether the work before the event has completed (never blocks)."""

    @abstractmethod
    def wait(self) -> None:
        """Block until the work before the event has completed."""

    @abstractmethod
    def elapsed_ms(self, end: Event) -> float:
        """Milliseconds of device time from this event to ``end``, both recorded with
        ``record(timing=True)`` (waits for ``end``)."""

    async def wait_async(self) -> None:
        """Wait without blocking the event loop.

        Short work is polled between other tasks (a worker thread costs about
        100 µs to hand back); longer work is waited for in a worker thread.
        """
        for _ in range(POLLS_BEFORE_THREAD):
            if self.done():
                return
            await asyncio.sleep(0)
        await asyncio.get_running_loop().run_in_executor(None, self.wait)


class Recording(ABC):
    """Captured work that can be replayed (a CUDA graph on the GPU)."""

    @abstractmethod
    def replay(self, stream: Stream) -> None:
        """Enqueue the captured work once on ``stream``."""

    @abstractmethod
    def close(self) -> None:
        """Free what the recording holds; it cannot be replayed afterwards."""


class CaptureOrder:
    """Which streams of one capture use each storage: the ordering rule of branches.

    Work on one stream is in order; across the streams of a capture (the
    capturing one and the branches forked into it) two launches may run at the
    same time unless the graph orders them.  ``order`` is called before each
    launch inside such a capture, with the memory it writes or holds
    exclusively (every moved tensor, partition or pointer) and the memory it
    only reads through shared handles, and makes its stream wait:

    * for the last stream that used the memory exclusively, whatever the
      launch does with it (read after write, write after write);
    * when the launch uses it exclusively, also for every stream that read it
      shared since (write after read).

    Reads through shared handles on several streams do not wait for each
    other.  Memory first used inside the capture needs no wait: every branch
    forks from the capturing stream after the work recorded before it.
    Ownership keeps the rule complete: a launch reaches memory only through
    the handles passed to it, and a moved handle is used by one launch at a
    time, so no two launches on different streams touch one storage unordered.
    """

    def __init__(self) -> None:
        self._exclusive: dict[int, tuple[Any, Stream]] = {}
        """id(storage) -> (storage, the stream that last used it exclusively)."""
        self._readers: dict[int, list[Stream]] = {}
        """id(storage) -> the streams that read it shared since that use."""

    def order(self, stream: Stream, exclusive: Sequence[Any], shared: Sequence[Any]) -> None:
        """Make ``stream`` wait as the rule says, then note this launch's uses."""
        waits: list[Stream] = []
        for storage in (*exclusive, *shared):
            last = self._exclusive.get(id(storage))
            if last is not None and last[1] is not stream and last[1] not in waits:
                waits.append(last[1])
        for storage in exclusive:
            for reader in self._readers.get(id(storage), ()):
                if reader is not stream and reader not in waits:
                    waits.append(reader)
        for other in waits:
            stream.wait(other.record())
        for storage in exclusive:
            self._exclusive[id(storage)] = (storage, stream)
            self._readers.pop(id(storage), None)
        for storage in shared:
            readers = self._readers.setdefault(id(storage), [])
            if stream not in readers:
                readers.append(stream)


_make_stream: Callable[[str], Stream] | None = None
"""What ``Stream(name)`` calls: set by backend.py (``make_streams_with``)."""


def make_streams_with(make: Callable[[str], Stream]) -> None:
    """Let ``Stream(name)`` make its streams with ``make`` (a new stream on the backend in use).

    backend.py, which picks the backend, calls this when it is imported (the
    package's ``__init__`` imports it, so before any stream exists): the backends'
    streams subclass ``Stream``, so this module cannot import the module that
    chooses among them without closing an import circle."""
    global _make_stream
    _make_stream = make


class Stream(ABC):
    """An in-order queue of device work on one backend.

    ``Stream("name")`` creates a stream on the backend in use.
    """

    name: str
    capturing: bool = False
    capture_order: CaptureOrder | None = None
    """Set while the stream records into a capture that has branches."""

    def __new__(cls, name: str = "stream", *args: Any, **kwargs: Any) -> Stream:
        if cls is Stream:
            assert _make_stream is not None, "backend.py sets it when the package is imported"
            return _make_stream(name)
        return super().__new__(cls)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    @abstractmethod
    def synchronize(self) -> None:
        """Block until all work enqueued on this stream has completed."""

    @abstractmethod
    def record(self, timing: bool = False) -> Event:
        """An event completing when the work enqueued so far has; ``timing=True`` also
        records when (``Event.elapsed_ms``), at a small cost on the GPU."""

    @abstractmethod
    def wait(self, event: Event) -> None:
        """Make later work on this stream wait for ``event`` (the host does not wait)."""

    @abstractmethod
    def begin_capture(self) -> None:
        """Start recording: work enqueued from now on is captured, not run."""

    @abstractmethod
    def end_capture(self) -> Recording:
        """Stop recording; the captured work."""

    def join_capture(self, origin: Stream) -> None:
        """Record into ``origin``'s capture from now on, after the work ``origin`` recorded so far
        (a branch: this stream's work runs beside ``origin``'s at replay)."""
        if origin.capture_order is None:
            origin.capture_order = CaptureOrder()
        self.wait(origin.record())
        self.capturing, self.capture_order = True, origin.capture_order

    def rejoin(self, origin: Stream) -> None:
        """Make ``origin``'s later work wait for what this branch recorded; it records no more."""
        origin.wait(self.record())
        self.capturing, self.capture_order = False, None
