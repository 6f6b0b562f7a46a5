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
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from typing import Any

from .errors import OwnershipError


POLLS_BEFORE_THREAD = 64
"""How many times ``wait_async`` polls (yielding to the event loop in between)
before it hands the wait to a worker thread."""

open_captures: int = 0
"""How many graph captures are open in this process (host reads are refused meanwhile)."""

made_in_capture: list[Any] = []
"""Tensor handles made while a capture is open: the graph holds those still live at its end."""


def note_handle(handle: Any) -> None:
    """Record a new tensor handle if a capture is open."""
    if open_captures:
        made_in_capture.append(handle)


def check_no_capture(action: str) -> None:
    """Refuse host access while a capture is open: the recorded work has not run."""
    if open_captures:
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


class Stream(ABC):
    """An in-order queue of device work on one backend.

    ``Stream("name")`` creates a stream on the backend in use.
    """

    name: str
    capturing: bool = False

    def __new__(cls, name: str = "stream", *args: Any, **kwargs: Any) -> Stream:
        if cls is Stream:
            from .backend import current_backend

            return current_backend().new_stream(name)
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
    def begin_capture(self) -> None:
        """Start recording: work enqueued from now on is captured, not run."""

    @abstractmethod
    def end_capture(self) -> Recording:
        """Stop recording; the captured work."""
