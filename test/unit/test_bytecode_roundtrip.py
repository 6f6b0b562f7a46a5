"""Bytecode round trips over the whole corpus, in every version, and determinism.

For each module (see ``bytecode_support.corpus``): IR -> bytes -> IR gives the
same IR (as bytecode keeps it), and bytes -> IR -> bytes the same bytes, for
13.4 and for every older version that can express the module.
"""

from __future__ import annotations

import pytest

from bytecode_support import Program, anonymous_text, corpus, expressible_in
from safetile.backend.bytecode import (
    BytecodeWriteError,
    Version,
    read_bytecode,
    write_bytecode,
)
from safetile.backend.bytecode.format import SUPPORTED_VERSIONS
from safetile.backend.bytecode.reader import MODULE_NAME

PROGRAMS = corpus()
OLDER = SUPPORTED_VERSIONS[:3]
"""13.1 to 13.3: older than the default."""
DEFAULT_PROGRAMS = expressible_in(PROGRAMS, "13.4")
"""What the default version can express (test_bytecode_v13_5 covers the rest)."""
ARCH = "sm_100"
"""The architecture bytecode older than 13.3 targets in these tests."""


def test_corpus_is_large() -> None:
    assert len(PROGRAMS) >= 40


@pytest.mark.parametrize("program", DEFAULT_PROGRAMS, ids=lambda p: p.name)
def test_round_trip_13_4(program: Program) -> None:
    module = program.parsed()
    data = write_bytecode(module)
    read = read_bytecode(data)
    assert read.sym_name.data == MODULE_NAME
    assert anonymous_text(read) == anonymous_text(module)
    assert write_bytecode(read) == data


OLDER_CASES = [pytest.param(program, str(version), id=f"{str(version)}-{program.name}",
                             marks=() if j == i % len(OLDER) else pytest.mark.full)
               for i, program in enumerate(PROGRAMS) for j, version in enumerate(OLDER)]
"""Each program in each older version: ``make test`` takes one version a program, the versions in
turn (each version on a third of the corpus), ``make test-full`` every pair."""


@pytest.mark.parametrize(("program", "version"), OLDER_CASES)
def test_round_trip_older_versions(program: Program, version: str) -> None:
    """Every module round-trips in each version that can express it.

    A module that needs a newer version is refused with a message naming what
    needs it; the programs' ``SINCE`` headers say where that starts.
    """
    module = program.parsed()
    try:
        data = write_bytecode(module, version, ARCH)
    except BytecodeWriteError as err:
        assert "requires bytecode" in str(err) or "cannot be encoded" in str(err), err
        assert Version.parse(version) < Version.parse(program.since) or "#" in program.name
        return
    assert Version.parse(version) >= Version.parse(program.since)
    read = read_bytecode(data)
    assert write_bytecode(read, version, ARCH) == data
    assert write_bytecode(read_bytecode(data), version) == data  # the arch is in the IR now


@pytest.mark.parametrize("program", DEFAULT_PROGRAMS, ids=lambda p: p.name)
def test_writing_is_deterministic(program: Program) -> None:
    first = write_bytecode(program.parsed())  # parsed once for the file, in its own context
    again = write_bytecode(program.module())  # parsed again, in a fresh context
    assert first == again
    assert write_bytecode(program.parsed().clone()) == first


def test_reading_is_independent_of_earlier_reads() -> None:
    data = [write_bytecode(p.parsed()) for p in PROGRAMS[:8]]
    texts = [anonymous_text(read_bytecode(d)) for d in data]
    assert texts == [anonymous_text(read_bytecode(d)) for d in data]
