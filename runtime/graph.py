"""Graphs: device work captured once and replayed many times.

Two ways to capture, as in cuTile Rust:

    g = add(z, x, y).graph()              # capture one (composed) op
    with st.Graph.scope() as s:           # or record several
        z, x, y = s.record(add(z, x, y))
        z, x, y = s.record(add(z, x, y))  # recorded handles feed later records
    g = s.graph

Branches: work recorded in ``with s.branch() as b: b.record(op)`` runs
beside the work recorded on ``s`` (a fork in the graph: the branch starts
after everything recorded before the ``with``), as prefetches or independent
chains do.  Nothing can race: a launch on one line that uses memory the other
used (except two reads through ``st.shared`` handles) is recorded after it
(``stream.CaptureOrder`` states the rule), and the graph ends once every
branch has.  Branches opened one after another run in order with each other;
nested ``with`` blocks give branches beside each other.  A branch yields to
the main line: where kernels of both wait for the GPU, the main line's start
first (on CUDA the scope records at the greatest stream priority, branches at
the least, and the graph keeps them).

Nothing runs while capturing.  ``g.replay()`` enqueues one replay (on the
GPU: one ``cuGraphLaunch``), ``g.launch()`` is a lazy ``DeviceOp`` of one
replay, ``g.sync()`` replays once and waits.  While the graph lives it holds
the tensors the captured work returned (shared handles are borrowed: they stay
readable, and ``unshare()`` is refused until the release): using them raises
``OwnershipError`` naming the graph; ``g.release()`` waits for the replays,
frees the graph and gives them back (the value of the captured op, or the
list of the recorded values).  Allocating ops are refused inside a capture.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .backend import current_backend
from .errors import DeviceOpError, OwnershipError
from .ops import DeviceOp, capture_graphs_with
from .stream import Recording, Stream, capture_handles
from .tensor import Holder, Partition, Shared, Tensor, _Handle


def _handles(value: Any) -> list[_Handle]:
    """The tensor handles in ``value`` (nested tuples and lists)."""
    if isinstance(value, Tensor | Partition | Shared):
        return [value]
    if isinstance(value, tuple | list):
        return [h for item in value for h in _handles(item)]
    return []


class Graph(Holder):
    """Captured device work, replayed at will."""

    def __init__(self, recording: Recording, value: Any, stream: Stream, what: str, made: list[_Handle]):
        self._recording: Recording | None = recording
        self._value = value
        self._replayed_on: set[Stream] = set()
        self.stream = stream
        self.what = what
        self.replays = 0
        # Everything the captured work gives back or the capture made (an
        # unpartition of a recorded output, say) is only valid once replayed.
        # Shared handles are borrowed, as a prepared launch does: every replay reads
        # them, other work may too, and unshare() waits for the graph's release.
        candidates = {id(h): h for h in _handles(value) + made}
        self._held = [h for h in candidates.values() if h.is_live]
        for handle in self._held:
            if isinstance(handle, Shared):
                handle.borrow(self, "capture")
            else:
                handle.take(self, "capture")

    def describe(self) -> str:
        state = "released" if self._recording is None else f"{self.replays} replays"
        return f"Graph({self.what}, {state})"

    def __repr__(self) -> str:
        return f"<{self.describe()}>"

    @classmethod
    def capture(cls, op: DeviceOp, stream: Stream | None = None) -> Graph:
        """Capture ``op`` (nothing runs) into a graph that replays on ``stream`` by default."""
        backend = current_backend()
        capture_stream = backend.new_stream("graph capture")
        with _capturing(capture_stream) as made:
            value = op.enqueue(capture_stream)
        recording = capture_stream.recording
        return cls(recording, value, stream or backend.default_stream, op.name, made)

    @classmethod
    @contextmanager
    def scope(cls, stream: Stream | None = None) -> Iterator[Recorder]:
        """Record ops with ``s.record(op)``; the graph is ``s.graph`` after the block."""
        backend = current_backend()
        recorder = Recorder(backend.new_stream("graph scope", ahead=True))
        with _capturing(recorder._stream) as made:
            try:
                yield recorder
            finally:
                recorder._join_branches()
        recording = recorder._stream.recording
        recorder.graph = cls(recording, recorder.values, stream or backend.default_stream,
                             f"{len(recorder.values)} recorded ops", made)

    def _live(self, action: str) -> Recording:
        if self._recording is None:
            raise DeviceOpError(f"cannot {action}: {self.describe()} was released")
        return self._recording

    def replay(self, stream: Stream | None = None) -> None:
        """Enqueue one replay on ``stream`` (default: the graph's); returns at once."""
        stream = stream or self.stream
        self._live("replay the graph").replay(stream)
        self._replayed_on.add(stream)
        self.replays += 1

    def launch(self, stream: Stream | None = None) -> DeviceOp:
        """A lazy op of one replay."""
        self._live("launch the graph")

        def run(on: Stream) -> None:
            self.replay(stream or on)

        return DeviceOp(f"replay of {self.what}", run)

    def sync(self) -> None:
        """Replay once and wait."""
        self.replay()
        self.stream.synchronize()

    def release(self) -> Any:
        """Wait for every replay, free the graph, and give back the tensors it held."""
        recording = self._live("release the graph")
        for stream in self._replayed_on:
            stream.synchronize()
        recording.close()
        self._recording = None
        for handle in self._held:
            if isinstance(handle, Shared):
                handle.return_borrow(self)
            else:
                handle.give_back(self)
            storage = _storage(handle)
            if storage is not None and hasattr(storage, "stream"):
                storage.stream = self.stream  # later host copies order after the replays
        return self._value


@contextmanager
def _capturing(stream: Stream) -> Iterator[list[_Handle]]:
    """Capture on ``stream`` for the block, which gets the list of handles made meanwhile;
    the recording is left in ``stream.recording``."""
    stream.begin_capture()
    with capture_handles() as made:
        try:
            yield made
        except BaseException:
            stream.end_capture().close()  # a failed capture leaves no graph behind
            raise
        stream.recording = stream.end_capture()  # type: ignore[attr-defined]


def _storage(handle: _Handle) -> Any:
    tensor = handle._tensor if isinstance(handle, Partition | Shared) else handle
    return getattr(tensor, "_array", None)


class Recorder:
    """What ``Graph.scope()`` yields: ``record(op)`` adds an op without running it,
    ``branch()`` a line of ops running beside these."""

    def __init__(self, stream: Stream):
        self._stream = stream
        self._branch_streams: list[Stream] = []
        self._idle: list[Stream] = []
        """Branch streams whose ``with`` block ended: a later branch continues one."""
        self.values: list[Any] = []
        self.graph: Graph | None = None

    @property
    def stream(self) -> Stream:
        """The stream the scope captures from: where work that safetile does not launch (a
        library's kernels, NCCL's collectives) must be enqueued, inside the block, to join the
        graph in order with the recorded ops."""
        return self._stream

    def record(self, op: DeviceOp) -> Any:
        """Add ``op`` to the graph (nothing runs); its value, usable by later records only."""
        if not self._stream.capturing:
            raise OwnershipError("record() is only valid inside its 'with Graph.scope()' block")
        return self._record(op, self._stream)

    def _record(self, op: DeviceOp, stream: Stream) -> Any:
        value = op.enqueue(stream)
        self.values.append(value)
        return value

    @contextmanager
    def branch(self) -> Iterator[Branch]:
        """A branch of the graph: ``b.record(op)`` inside the block adds ``op`` to run beside
        the ops recorded on this scope (see the module doc for the ordering rule)."""
        if not self._stream.capturing:
            raise OwnershipError("branch() is only valid inside its 'with Graph.scope()' block")
        if self._idle:
            stream = self._idle.pop()
        else:
            stream = current_backend().new_stream("graph branch")
            self._branch_streams.append(stream)
        stream.join_capture(self._stream)
        branch = Branch(self, stream)
        try:
            yield branch
        finally:
            branch._open = False
            self._idle.append(stream)

    def _join_branches(self) -> None:
        """End every branch: the graph's last work waits for theirs."""
        for stream in self._branch_streams:
            stream.rejoin(self._stream)


class Branch:
    """What ``Recorder.branch()`` yields: ``record(op)`` adds an op to the branch."""

    def __init__(self, recorder: Recorder, stream: Stream):
        self._recorder, self._stream = recorder, stream
        self._open = True

    def record(self, op: DeviceOp) -> Any:
        """Add ``op`` to this branch (nothing runs); its value, usable by later records only."""
        if not self._open:
            raise OwnershipError("record() on a branch is only valid inside its 'with scope.branch()' block")
        return self._recorder._record(op, self._stream)


capture_graphs_with(Graph.capture)
