"""Raw pointer parameters from the host (``st.Ptr[E]``, cuTile Rust's ``*mut T``).

A launch passes a pointer only as an explicit ``st.unsafe_pointer(tensor)``:
the handle moves the tensor in, the launch moves the handle in (so nothing on
the host reads, frees or passes the tensor while the launch is pending) and
gives a fresh one back; ``release()`` gives the tensor back.  The kernel's
pointer parameters are listed by its unsafe report.  Run on the CPU
interpreter, where a pointer is an address in the launch's global memory.
"""

from __future__ import annotations

import numpy as np
import pytest

import safetile as st
from safetile import f32, i32
from safetile.runtime import LaunchRefused, OwnershipError


@st.kernel
def scale(z: st.Mut[f32, (16,)], src: st.Ptr[f32], dst: st.Ptr[f32], n: i32):
    bid, _, _ = st.tile_block_id()
    offs = bid * 16 + st.iota((16,))
    with st.unsafe():
        v = st.load_ptr(st.offset(src, offs), mask=offs < n, other=0.0)
        st.store_ptr(st.offset(dst, offs), v * 2.0, mask=offs < n)
    z.store(v + 1.0)


@st.kernel
def bump(z: st.Mut["E", (16,)], p: st.Ptr["E"], *, E: st.DType):
    offs = st.iota((16,))
    with st.unsafe():
        ptrs = st.offset(p, offs)
        st.store_ptr(ptrs, st.load_ptr(ptrs) + z.load())
    z.store(z.load())


@st.kernel
def counters(z: st.Mut[i32, (16,)], counts: st.Ptr[i32]):
    with st.unsafe():
        old = st.atomic_rmw(st.offset(counts, st.iota((16,)) % 4), 1, "add")
    z.store(old * 0)


def pointer(values: np.ndarray) -> st.UnsafePointer:
    return st.unsafe_pointer(st.from_numpy(values).sync())


def output(n: int, tile: int = 16, dtype: st.DType = f32) -> st.Partition:
    return st.zeros((n,), dtype).sync().partition((tile,))


def test_reads_and_writes_through_pointers() -> None:
    a = np.arange(40, dtype=np.float32) - 7.0
    src, dst = pointer(a), pointer(np.full(40, -1.0, np.float32))
    z, src, dst, n = scale(output(48), src, dst, 40).sync()
    expected_z = np.ones(48, np.float32)
    expected_z[:40] += a
    np.testing.assert_array_equal(z.unpartition().numpy(), expected_z)
    np.testing.assert_array_equal(dst.release().numpy(), a * 2.0)
    np.testing.assert_array_equal(src.release().numpy(), a)
    assert n == 40


def test_the_pointee_type_gives_an_element_type_generic() -> None:
    base = np.arange(16, dtype=np.int32)
    z = st.from_numpy(np.full(16, 5, np.int32)).sync().partition((16,))
    _, p = bump(z, pointer(base)).sync()
    np.testing.assert_array_equal(p.release().numpy(), base + 5)


def test_every_block_sees_one_memory_through_atomics() -> None:
    z, counts = counters(output(64, dtype=i32), pointer(np.zeros(4, np.int32))).sync()
    np.testing.assert_array_equal(counts.release().numpy(), [16, 16, 16, 16])  # 4 blocks x 4 lanes each


def test_prepared_launches_keep_the_pointer() -> None:
    prepared = bump(st.zeros((16,), f32).sync().partition((16,)), pointer(np.ones(16, np.float32))).prepare()
    prepared.enqueue()
    prepared.enqueue()
    _, p = prepared.release()
    np.testing.assert_array_equal(p.release().numpy(), np.ones(16, np.float32))


@pytest.mark.parametrize(
    "make",
    [lambda: st.from_numpy(np.zeros(40, np.float32)).sync(), lambda: 0x10000000],
    ids=["tensor", "address"],
)
def test_a_pointer_must_be_passed_explicitly_as_unsafe(make) -> None:
    kind = "a Tensor" if not isinstance(make(), int) else "int"
    with pytest.raises(LaunchRefused, match=rf"'src' is a raw pointer \(st.Ptr\[f32\]\), got {kind}: .*"
                                            r"pass st.unsafe_pointer\(tensor\)"):
        scale(output(48), make(), pointer(np.zeros(40, np.float32)), 40)


def test_a_pointer_to_another_element_type_is_refused() -> None:
    with pytest.raises(LaunchRefused, match=r"'dst' is st.Ptr\[f32\] but the unsafe pointer points to i32 "
                                            r"elements: pass a pointer to a f32 tensor"):
        scale(output(48), pointer(np.zeros(40, np.float32)), pointer(np.zeros(40, np.int32)), 40)


def test_the_tensor_is_held_while_the_launch_is_pending() -> None:
    x = st.from_numpy(np.zeros(40, np.float32)).sync()
    src = st.unsafe_pointer(x)
    with pytest.raises(OwnershipError, match=r"cannot read the tensor: this tensor was moved into unsafe_pointer"):
        x.numpy()
    op = scale(output(48), src, pointer(np.zeros(40, np.float32)), 40)
    with pytest.raises(OwnershipError, match=r"cannot release the unsafe pointer: .* moved into DeviceOp #\d+ "
                                             r"'scale\[3, 1, 1\]' \(pending\)"):
        src.release()
    z, src, dst, _ = op.sync()
    assert src.release().numpy().shape == (40,)


def test_a_pointer_moved_into_a_pending_launch_is_refused_by_name() -> None:
    src, dst = pointer(np.zeros(40, np.float32)), pointer(np.zeros(40, np.float32))
    pending = scale(output(48), src, dst, 40)
    with pytest.raises(OwnershipError, match=r"cannot launch 'scale' with the unsafe pointer passed as 'src': "
                                             r"this unsafe pointer was moved into DeviceOp #\d+ 'scale\[3, 1, 1\]' "
                                             r"\(pending\); use the handle it gave back"):
        scale(output(48), src, pointer(np.zeros(40, np.float32)), 40)
    pending.sync()


def test_a_released_pointer_is_refused_by_name() -> None:
    src = pointer(np.zeros(16, np.float32))
    src.release()
    with pytest.raises(OwnershipError, match=r"cannot launch 'bump' with the unsafe pointer passed as 'p': this "
                                             r"unsafe pointer was moved into the tensor returned by release\(\)"):
        bump(output(16), src)


def test_a_pointer_to_a_dead_tensor_cannot_be_made() -> None:
    x = st.from_numpy(np.zeros(16, np.float32)).sync()
    x.partition((16,))
    with pytest.raises(OwnershipError, match=r"cannot take an unsafe pointer to the tensor: this tensor was moved "
                                             r"into Partition\(tile=\(16,\), grid=\(1,\)\); use the handle it "
                                             r"gave back"):
        st.unsafe_pointer(x)
    with pytest.raises(TypeError, match=r"st.unsafe_pointer takes a Tensor, got DeviceOp: .* and .sync\(\) it"):
        st.unsafe_pointer(st.zeros((16,), f32))


def test_the_same_pointer_twice_or_over_an_output_is_refused() -> None:
    p = pointer(np.zeros(40, np.float32))
    with pytest.raises(LaunchRefused, match=r"'src' is passed twice"):
        scale(output(48), p, p, 40)
    host = np.zeros(64, np.float32)
    z = st.from_numpy(host[:48], copy=False).sync().partition((16,))
    over = st.unsafe_pointer(st.from_numpy(host[8:48], copy=False).sync())
    with pytest.raises(LaunchRefused, match=r"mutable output 'z' \(48,\) overlaps the memory of argument 'dst'"):
        scale(z, p, over, 40)


def test_the_unsafe_report_lists_pointer_parameters() -> None:
    report = scale.unsafe_report()
    source = __file__.split("/")[-1]
    assert [line.split(": ", 1)[1] for line in report] == [
        "raw pointer parameter 'src' (st.Ptr[f32]): launches pass st.unsafe_pointer(tensor) and nothing checks "
        "the accesses through it",
        "raw pointer parameter 'dst' (st.Ptr[f32]): launches pass st.unsafe_pointer(tensor) and nothing checks "
        "the accesses through it",
        "unsafe cuda_tile.load_ptr_tko",
        "unsafe cuda_tile.offset",
        "unsafe cuda_tile.store_ptr_tko",
        "unsafe cuda_tile.offset",
    ]
    assert all(source in line.split(": ", 1)[0] for line in report)
    generic = bump.unsafe_report(E=i32)
    assert "raw pointer parameter 'p' (st.Ptr['E'])" in generic[0]
