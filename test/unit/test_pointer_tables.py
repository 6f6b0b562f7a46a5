"""Pointer tables on the CPU interpreter: addresses stay valid from launch to launch.

On a GPU a tensor's device address is fixed for its life, so a kernel may
store addresses (``st.ptr_to_int``) in one launch and dereference them in the
next (``st.int_to_ptr``).  The CPU backend gives each storage the same
address in every launch (``runtime/cpu.py``: ``AddressSpace``), so such a
table gives the GPU's answer; an address into a tensor the launch was not
given (live memory on a GPU) is refused, saying why.
"""

from __future__ import annotations

import numpy as np
import pytest

import safetile as st
from safetile import f32, i64
from safetile.backend.interpreter.errors import MemoryAccessError


@st.kernel
def table(z: st.Mut[i64, (16,)], a: st.Ptr[f32]):
    """z[i] = the address of a[i]."""
    with st.unsafe():
        z.store(st.ptr_to_int(st.offset(a, st.iota((16,)))))


@st.kernel
def gather(out: st.Mut[f32, (16,)], addresses: st.Ref[i64, (16,)], a: st.Ptr[f32]):
    """out[i] = *addresses[i] (``a`` is passed so that the launch holds its memory)."""
    with st.unsafe():
        out.store(st.load_ptr(st.int_to_ptr(st.load_tile_like(addresses, out), f32)) + 0.0 * st.load_ptr(
            st.offset(a, st.iota((16,)))))


@st.kernel
def gather_alone(out: st.Mut[f32, (16,)], addresses: st.Ref[i64, (16,)]):
    with st.unsafe():
        out.store(st.load_ptr(st.int_to_ptr(st.load_tile_like(addresses, out), f32)))


def test_a_table_built_in_one_launch_is_read_in_the_next() -> None:
    values = np.arange(16, dtype=np.float32) * 1.5 + 2.0
    a = st.unsafe_pointer(st.from_numpy(values).sync())
    z, a = table(st.zeros((16,), i64).sync().partition((16,)), a).sync()
    addresses = z.unpartition()
    for _ in range(3):  # and in every launch after, whatever else it is given
        decoy = st.from_numpy(np.full(16, -9.0, np.float32)).sync().partition((16,))
        out, addresses, a = gather(decoy, addresses, a).sync()
        np.testing.assert_array_equal(out.unpartition().numpy(), values)


def test_an_address_into_a_tensor_the_launch_was_not_given_is_refused_with_the_reason() -> None:
    values = np.arange(16, dtype=np.float32)
    a = st.unsafe_pointer(st.from_numpy(values).sync())
    z, a = table(st.zeros((16,), i64).sync().partition((16,)), a).sync()
    with pytest.raises(MemoryAccessError, match=r"memory of a tensor this launch was not given;.* pass it to the "
                                                 r"launch \(st.unsafe_pointer\)") as failed:
        gather_alone(st.zeros((16,)).sync().partition((16,)), z.unpartition()).sync()
    out, addresses = failed.value.returned
    assert out.is_live and addresses.is_live


def test_an_address_into_a_freed_tensor_is_refused(young_heap: None) -> None:
    a = st.unsafe_pointer(st.from_numpy(np.ones(16, np.float32)).sync())
    z, a = table(st.zeros((16,), i64).sync().partition((16,)), a).sync()
    del a
    import gc

    gc.collect()
    with pytest.raises(MemoryAccessError, match="outside every live buffer"):
        gather_alone(st.zeros((16,)).sync().partition((16,)), z.unpartition()).sync()
