"""The dynamic race detector: conflicting accesses of different tile blocks.

For one launch it remembers, per byte of every buffer written so far, the
last tile block that wrote it and whether that write was atomic.  An access
*conflicts* with that write when it comes from another tile block and at
least one of the two is not atomic (weak loads and stores are plain; atomics
and ``relaxed``/``acquire``/``release`` accesses are atomic).  That covers
two blocks storing to the same element and a block loading an element another
block stored (in the sequential order the launch ran); a load that runs
*before* the conflicting store is not seen (nothing remembers reads).
"""

from __future__ import annotations

import numpy as np

from .errors import BlockId, RaceError
from .memory import Buffer, Span


class RaceDetector:
    """Write history of one launch; ``block`` arguments are linear block ids."""

    def __init__(self, grid: BlockId):
        self._grid = grid
        self._writers: dict[Buffer, np.ndarray] = {}
        # History entries are ``2 * block + atomic``, or -1 for none.
        self._dtype = np.int32 if grid[0] * grid[1] * grid[2] < 2**30 else np.int64

    def block_id(self, linear: int) -> BlockId:
        gx, gy, _ = self._grid
        return (linear % gx, linear // gx % gy, linear // (gx * gy))

    def access(
        self, span: Span, itemsize: int, block: int, *, write: bool, atomic: bool, what: str
    ) -> None:
        """Check (and, for writes, record) an access by tile block ``block``."""
        history = self._writers.get(span.buffer)
        if history is None:
            if not write:
                return
            history = np.full(span.buffer.nbytes, -1, dtype=self._dtype)
            self._writers[span.buffer] = history
        where = span.index
        if itemsize > 1:
            where = (where[:, None] * itemsize + np.arange(itemsize)).ravel()
        previous = history[where]
        conflict = (previous >= 0) & ((previous >> 1) != block)
        if atomic:
            conflict &= (previous & 1) == 0
        if conflict.any():
            i = int(np.argmax(conflict))
            other = int(previous[i])
            element = span.buffer.describe(int(where[i]) - int(where[i]) % itemsize)
            earlier = "atomically wrote" if other & 1 else "wrote"
            now = ("atomically " if atomic else "") + what
            raise RaceError(
                f"data race on {element}: tile block {self.block_id(other >> 1)} {earlier} it "
                f"and tile block {self.block_id(block)} {now} it in the same launch"
            )
        if write:
            history[where] = block * 2 + int(atomic)
