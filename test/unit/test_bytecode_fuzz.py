"""Reader robustness: corrupt bytecode is rejected cleanly, never crashes or hangs.

Seeds are the bytecode of every corpus module (13.4, and 13.1/13.3 for the
modules those versions can express).  Case ``i`` applies one to three
deterministic random edits and reads the result: most edit bytes inside one
section payload (so the reader gets past the framing into types, constants
and ops); the rest flip bits, set bytes, truncate, delete, insert or
duplicate spans, or plant large varints anywhere.  Each read
must return a module or raise ``BytecodeReadError`` whose offset lies within
the file; any other exception, or a read slower than ``CASE_TIMEOUT_S``, fails
the batch.  A module read from mutated bytes must encode again, and its
encoding must read back to the same bytes (the reader only accepts what it
can represent).
"""

from __future__ import annotations

import functools
import random
import signal
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

import pytest

from bytecode_support import corpus
from safetile.backend.bytecode import (
    BytecodeReadError,
    BytecodeWriteError,
    bytecode_version,
    read_bytecode,
    write_bytecode,
)
from safetile.backend.bytecode.format import ByteReader
from safetile.dialects.cuda_tile.diagnostics import TileIRError

FUZZ_SEED = 0x7B17EC0D
"""Case ``i`` uses ``random.Random(f"{FUZZ_SEED}:{i}")``."""

FUZZ_CASES = 1200
BATCH = 100
CASE_TIMEOUT_S = 10


@functools.cache
def seeds() -> list[tuple[str, bytes]]:
    found = []
    for program in corpus():
        for version, arch in (("13.4", None), ("13.3", None), ("13.1", "sm_100")):
            try:
                data = write_bytecode(program.parsed(), version, arch)
            except (BytecodeWriteError, TileIRError):
                continue
            found.append((f"{program.name}@{version}", data))
    return found


# --------------------------------------------------------------------------
# Mutations
# --------------------------------------------------------------------------


def flip_bit(r: random.Random, data: bytearray) -> None:
    i = r.randrange(len(data))
    data[i] ^= 1 << r.randrange(8)


def set_byte(r: random.Random, data: bytearray) -> None:
    data[r.randrange(len(data))] = r.choice((0x00, 0x01, 0x7F, 0x80, 0xFF, r.randrange(256)))


def truncate(r: random.Random, data: bytearray) -> None:
    del data[r.randrange(len(data)) :]


def delete_span(r: random.Random, data: bytearray) -> None:
    i = r.randrange(len(data))
    del data[i : i + r.randint(1, 8)]


def insert_bytes(r: random.Random, data: bytearray) -> None:
    i = r.randrange(len(data) + 1)
    data[i:i] = bytes(r.randrange(256) for _ in range(r.randint(1, 4)))


def duplicate_span(r: random.Random, data: bytearray) -> None:
    i = r.randrange(len(data))
    span = data[i : i + r.randint(1, 16)]
    j = r.randrange(len(data) + 1)
    data[j:j] = span


def large_varint(r: random.Random, data: bytearray) -> None:
    i = r.randrange(len(data))
    data[i : i + 1] = r.choice(
        (b"\xff\xff\xff\xff\x0f", b"\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", b"\xff\x7f")
    )


def swap_bytes(r: random.Random, data: bytearray) -> None:
    i, j = r.randrange(len(data)), r.randrange(len(data))
    data[i], data[j] = data[j], data[i]


def payload_ranges(data: bytes) -> list[tuple[int, int]]:
    """Where the section payloads of well-formed bytecode lie."""
    reader = ByteReader(data, 12)
    ranges = []
    while (head := reader.byte("section id")) != 0:
        length = reader.varint("length")
        if head & 0x80:
            alignment = reader.varint("alignment")
            reader.raw(-reader.pos % alignment, "padding")
        ranges.append((reader.pos, reader.pos + length))
        reader.raw(length, "payload")
    return ranges


def payload_edit(r: random.Random, data: bytearray) -> None:
    """Change bytes inside one section payload, keeping the framing intact."""
    ranges = [(a, b) for a, b in payload_ranges(bytes(data)) if b > a]
    start, end = r.choice(ranges)
    for _ in range(r.randint(1, 3)):
        i = r.randrange(start, end)
        if r.random() < 0.5:
            data[i] ^= 1 << r.randrange(8)
        else:
            data[i] = r.choice((0x00, 0x01, 0x02, 0x7F, 0x80, 0xFF, r.randrange(256)))


MUTATIONS: tuple[Callable[[random.Random, bytearray], None], ...] = (
    flip_bit,
    flip_bit,
    set_byte,
    set_byte,
    truncate,
    delete_span,
    insert_bytes,
    duplicate_span,
    large_varint,
    swap_bytes,
)

FRAMED_SHARE = 0.6
"""Share of cases that edit payloads only, to reach types, constants and ops."""


def make_case(index: int) -> tuple[str, bytes]:
    r = random.Random(f"{FUZZ_SEED}:{index}")
    name, seed = r.choice(seeds())
    data = bytearray(seed)
    if r.random() < FRAMED_SHARE:
        payload_edit(r, data)
        return f"{name} [payload_edit]", bytes(data)
    edits = []
    for _ in range(r.choice((1, 1, 2, 3))):
        if not data:
            break
        mutation = r.choice(MUTATIONS)
        mutation(r, data)
        edits.append(mutation.__name__)
    return f"{name} [{', '.join(edits)}]", bytes(data)


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"read took longer than {seconds}s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def problem_with(data: bytes) -> str | None:
    """None if ``data`` is read cleanly (a module, or a clean error)."""
    try:
        with time_limit(CASE_TIMEOUT_S):
            try:
                module = read_bytecode(data)
            except BytecodeReadError as err:
                if not 0 <= err.offset <= len(data) or not err.expected:
                    return f"bad error location: {err}"
                return None
            version = bytecode_version(data)
            again = write_bytecode(module, version)
            if write_bytecode(read_bytecode(again), version) != again:
                return "a module read from mutated bytes does not round-trip"
            return None
    except Exception:  # noqa: BLE001 - any other exception is the failure
        return traceback.format_exc(limit=-6)


def test_there_are_seeds() -> None:
    assert len(seeds()) >= 80


def test_cases_are_deterministic() -> None:
    assert [make_case(i) for i in range(20)] == [make_case(i) for i in range(20)]


QUICK_BATCHES = 3
"""Batches ``make test`` runs; ``make test-full`` runs all ``FUZZ_CASES // BATCH``."""


@pytest.mark.parametrize(
    "batch", [b if b < QUICK_BATCHES else pytest.param(b, marks=pytest.mark.full) for b in range(FUZZ_CASES // BATCH)]
)
def test_mutated_bytecode_is_rejected_cleanly(batch: int) -> None:
    failures = []
    for index in range(batch * BATCH, (batch + 1) * BATCH):
        name, data = make_case(index)
        problem = problem_with(data)
        if problem is not None:
            failures.append(f"case {index} ({name}, {len(data)} bytes: {data.hex()}):\n{problem}")
    assert not failures, f"{len(failures)} failures; first:\n" + "\n".join(failures[:2])


def test_every_truncation_is_rejected() -> None:
    name, data = next(s for s in seeds() if s[0].startswith("example:matmul@13.4"))
    for end in range(len(data)):
        with pytest.raises(BytecodeReadError) as err:
            read_bytecode(data[:end])
        assert err.value.offset <= end, (name, end)


def test_errors_name_offset_and_expectation() -> None:
    data = bytearray(next(d for n, d in seeds() if n.startswith("example:vector_add@13.4")))
    data[3] = ord("X")
    with pytest.raises(BytecodeReadError) as err:
        read_bytecode(bytes(data))
    assert err.value.offset == 3
    assert "magic number" in err.value.expected
    assert str(err.value).startswith("offset 3: expected ")
