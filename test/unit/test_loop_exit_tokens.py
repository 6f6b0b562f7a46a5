"""Loops left by ``break`` or ``continue`` in a branch, around accesses to a mutable output.

The frontend lowers a ``while`` or ``for`` that breaks to a ``cuda_tile.loop``
whose ``break``/``continue`` sit in an ``if``; ``token-order`` makes that
``if`` yield the chain's token on the path that stays, and passes it at the
exit on the path that leaves.  The re-proof of the IR that runs
(``passes/analyses/token_chains.py``) once read such an ``if`` as ordering
nothing and a ``loop``'s results as its carried values, and refused these
kernels as "a bug in safetile" (examples/qwen3/peer.py's wait was written
without ``break`` for it).  Each kernel here compiles, matches numpy on the
interpreter, and stays proved safe: its safe build is its unchecked one and
its unsafe report lists only what its ``st.unsafe()`` block does; ``tileiras``
accepts what runs (full tier).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile.backend.bytecode import write_bytecode
from safetile.backend.cache import compile_cubin
from safetile.frontend.dsl import f32, i32
from safetile.jit import Kernel
from test_token_order import toolchain  # noqa: F401  (the fixture: the installed tileiras, or a skip)


@st.kernel
def halve_once_past(z: st.Mut[f32, (16,)], n: i32, limit: f32):
    """Up to ``n`` times ``z += 1``; once ``z``'s sum passes ``limit``, halve it and leave."""
    i = 0
    while i < n:
        v = st.load_tile_mut(z)
        if st.sum(v, 0) > limit:
            z.store(v * 0.5)
            break
        z.store(v + 1.0)
        i += 1
    z.store(st.load_tile_mut(z) - 1.0)


@st.kernel
def halve_once_past_for(z: st.Mut[f32, (16,)], n: i32, limit: f32):
    """``halve_once_past`` with a ``for`` (lowered to a ``loop`` that counts, returning no counter)."""
    for _ in range(n):
        v = st.load_tile_mut(z)
        if st.sum(v, 0) > limit:
            z.store(v * 0.5)
            break
        z.store(v + 1.0)
    z.store(st.load_tile_mut(z) - 1.0)


@st.kernel
def double_even_turns(z: st.Mut[f32, (16,)], n: i32):
    """``n`` turns: an even one doubles ``z`` and goes on to the next (``continue``), an odd one adds 1."""
    i = 0
    while i < n:
        i += 1
        v = st.load_tile_mut(z)
        if i % 2 == 0:
            z.store(v * 2.0)
            continue
        z.store(v + 1.0)
    z.store(st.load_tile_mut(z) - 1.0)


@st.kernel
def wait_with_alarm(z: st.Mut[f32, (16,)], flags: st.Ptr[i32], patience: i32):
    """peer.py's wait with a ``break``: ``z`` read before, spin while ``flags[0]`` is 0; after
    ``patience`` turns write the turns into ``flags[1]`` (an atomic) and leave; ``z`` written after."""
    mine = st.load_tile_mut(z)
    turns = 0
    with st.unsafe():
        seen = st.min(st.load_ptr(st.offset(flags, st.zeros((16,), i32))), 0)
        while seen == 0:
            turns += 1
            if turns >= patience:
                st.atomic_rmw(st.offset(flags, st.zeros((1,), i32) + 1), st.zeros((1,), i32) + turns, "xchg")
                break
            seen = st.min(st.load_ptr(st.offset(flags, st.zeros((16,), i32))), 0)
    z.store(mine + turns.astype(f32))


def halve_once_past_reference(z: np.ndarray, n: int, limit: float) -> np.ndarray:
    for _ in range(n):
        if z.sum() > limit:
            z = z * 0.5
            break
        z = z + 1.0
    return z - 1.0


def double_even_turns_reference(z: np.ndarray, n: int) -> np.ndarray:
    for i in range(1, n + 1):
        z = z * 2.0 if i % 2 == 0 else z + 1.0
    return z - 1.0


SAFE: list[tuple[Kernel, tuple[Any, ...], Callable[..., np.ndarray]]] = [
    (halve_once_past, (5, 40.0), halve_once_past_reference),
    (halve_once_past_for, (5, 40.0), halve_once_past_reference),
    (double_even_turns, (5,), double_even_turns_reference),
]


def blocks() -> np.ndarray:
    """Two tiles of the output, one past the limit after one turn and one never."""
    return np.concatenate([np.full(16, 2.0), np.zeros(16)]).astype(np.float32)


@pytest.mark.parametrize(("kernel", "args", "reference"), SAFE, ids=[k.name for k, _, _ in SAFE])
def test_a_loop_left_from_a_branch_is_ordered_and_matches_numpy(
    kernel: Kernel, args: tuple[Any, ...], reference: Callable[..., np.ndarray]
) -> None:
    z0 = blocks()
    out = kernel(st.from_numpy(z0).sync().partition((16,)), *args).sync()
    expected = np.concatenate([reference(z0[:16], *args), reference(z0[16:], *args)])
    np.testing.assert_array_equal(out[0].unpartition().numpy(), expected)


@pytest.mark.parametrize("kernel", [k for k, _, _ in SAFE], ids=[k.name for k, _, _ in SAFE])
def test_a_loop_left_from_a_branch_stays_proved_safe(kernel: Kernel) -> None:
    safe = kernel.compile_variant()
    unchecked = kernel.with_options(unchecked_accesses=True).compile_variant()
    assert kernel.unsafe_report() == []
    assert write_bytecode(safe.module, "13.4") == write_bytecode(unchecked.module, "13.4")


@pytest.mark.parametrize(("seen", "turns"), [(0, 3), (1, 0)])
def test_a_wait_left_by_break_after_an_atomic_orders_the_output(seen: int, turns: int) -> None:
    """Patience 3: with no flag the wait runs out, writes 3 into ``flags[1]`` and leaves; with
    the flag set it does not wait.  ``z`` gets the turns either way."""
    z0 = np.arange(16, dtype=np.float32)
    flags = np.array([seen, -1] + [seen] * 14, np.int32)
    z, pointer, _ = wait_with_alarm(st.from_numpy(z0).sync().partition((16,)),
                                    st.unsafe_pointer(st.from_numpy(flags).sync()), 3).sync()
    np.testing.assert_array_equal(z.unpartition().numpy(), z0 + turns)
    assert pointer.release().numpy()[1] == (3 if turns else -1)
    ops = {line.rsplit(" ", 1)[1] for line in wait_with_alarm.unsafe_report() if "raw pointer" not in line}
    assert ops == {"cuda_tile.load_ptr_tko", "cuda_tile.atomic_rmw_tko", "cuda_tile.offset"}
    safe = wait_with_alarm.compile_variant()
    unchecked = wait_with_alarm.with_options(unchecked_accesses=True).compile_variant()
    assert write_bytecode(safe.module, "13.4") == write_bytecode(unchecked.module, "13.4")


@pytest.mark.full
@pytest.mark.parametrize("kernel", [*(k for k, _, _ in SAFE), wait_with_alarm],
                         ids=[*(k.name for k, _, _ in SAFE), wait_with_alarm.name])
def test_tileiras_accepts_a_loop_left_from_a_branch(
    kernel: Kernel, toolchain: Any, cubin_cache: Path  # noqa: F811
) -> None:
    """The ``if`` whose one branch leaves the loop and the other yields the tokens is Tile IR
    that ``tileiras`` compiles."""
    module = kernel.compile_variant().module
    entry = compile_cubin(write_bytecode(module, "13.4"), "sm_90", cache_dir=cubin_cache, toolchain=toolchain)
    assert entry.cubin.startswith(b"\x7fELF")
