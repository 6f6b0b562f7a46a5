"""The low-level view and token API of seed 002, run on the CPU interpreter
against numpy: ``make_tensor_view`` over raw pointers, ``load_tensor`` through
a table of addresses, and hand-written view tokens
(``set_tensor_token``/``get_tensor_token``/``get_partition_token(_mut)``)
ordering a store before the load that reads it back."""

from __future__ import annotations

import numpy as np

import safetile as st
from safetile import f32, i32, i64
from safetile.backend.interpreter import run_kernel
from safetile.backend.interpreter.memory import GlobalMemory


@st.kernel
def scale_rows(z: st.Mut[f32, (4, 16)], src: st.Ptr[f32], dst: st.Ptr[f32], n: i32):
    bid, _, _ = st.tile_block_id()
    with st.unsafe():
        a = st.make_tensor_view(src, (n, 16), (16, 1))
        b = st.make_tensor_view(dst, (n, 16), (16, 1), token=st.make_token())
        rows = a.partition((4, 16)).load((bid, 0))
        stored = b.partition_mut((4, 16)).store((bid, 0), rows * 3.0)
        # b's store is ordered before the read back through a new view of b.
        st.set_tensor_token(b, stored)
        back = b.partition((4, 16)).load((bid, 0))
    z.store(back - rows)


@st.kernel
def strided_columns(z: st.Mut[f32, (16,)], src: st.Ptr[f32], n: i32, stride: i32):
    bid, _, _ = st.tile_block_id()
    acc = st.zeros((16,), f32)
    with st.unsafe():
        column = st.make_tensor_view(src, (n,), (stride,))  # every stride-th element
        for k in range(2):
            acc = acc + column.partition((16,)).load((bid * 2 + k,))
    z.store(acc)


@st.kernel
def token_chain(z: st.Mut[f32, (16,)], buf: st.Ptr[f32]):
    with st.unsafe():
        view = st.make_tensor_view(buf, (16,), (1,))
        first = view.partition_mut((16,))
        start = st.get_partition_token_mut(first)
        done = first.store((0,), st.full((16,), 7.0, f32))
        st.set_tensor_token(view, st.join_tokens(start, done))
        assert_same = st.get_tensor_token(view)
        reread = view.partition((16,))
        value = reread.load((0,))
        ordered = st.get_partition_token(reread)
        st.set_tensor_token(view, st.join_tokens(assert_same, ordered))
        view.partition_mut((16,)).store((0,), value + 1.0)
    z.store(value)


@st.kernel(specialize=[dict()])
def gather_rows(z: st.Mut[f32, (16,)], table: st.Ref[i64, (-1,)], n: i32):
    bid, _, _ = st.tile_block_id()
    with st.unsafe():
        row = st.load_tensor(table, (bid,), (n,), (1,), f32)
        t = row.partition((16,)).load((1,))
    z.store(t)


def pointer(values: np.ndarray) -> st.UnsafePointer:
    return st.unsafe_pointer(st.from_numpy(values).sync())


def test_make_tensor_view_reads_and_writes_through_raw_pointers() -> None:
    x = np.random.default_rng(0).standard_normal((8, 16)).astype(np.float32)
    z = st.zeros((8, 16), f32).sync().partition((4, 16))
    z, src, dst, _ = scale_rows(z, pointer(x), pointer(np.zeros((8, 16), np.float32)), 8).sync()
    np.testing.assert_allclose(dst.release().numpy(), 3.0 * x)
    np.testing.assert_allclose(z.unpartition().numpy(), 2.0 * x, rtol=1e-6)
    np.testing.assert_array_equal(src.release().numpy(), x)


def test_a_view_of_runtime_strides_in_a_loop() -> None:
    x = np.arange(64 * 3, dtype=np.float32)
    z = st.zeros((32,), f32).sync().partition((16,))
    z, _, _, _ = strided_columns(z, pointer(x), 64, 3).sync()
    column = x[::3]
    expected = np.concatenate([column[0:16] + column[16:32], column[32:48] + column[48:64]])
    np.testing.assert_array_equal(z.unpartition().numpy(), expected)


def test_hand_written_tokens_order_a_store_before_its_read_back() -> None:
    z = st.zeros((16,), f32).sync().partition((16,))
    z, buf = token_chain(z, pointer(np.zeros(16, np.float32))).sync()
    np.testing.assert_array_equal(z.unpartition().numpy(), np.full(16, 7.0, np.float32))
    np.testing.assert_array_equal(buf.release().numpy(), np.full(16, 8.0, np.float32))


def test_load_tensor_follows_a_table_of_addresses() -> None:
    memory = GlobalMemory()
    rows = [np.arange(32, dtype=np.float32) * (r + 1) for r in range(3)]
    table = np.array([memory.register(r, f"row{i}") for i, r in enumerate(rows)], dtype=np.int64)
    z = np.zeros(48, np.float32)
    entry = gather_rows.compile_variant().entry
    run_kernel(entry, (3, 1, 1), [z, 48, 1, table, 3, 1, 32], memory=memory)
    np.testing.assert_array_equal(z, np.concatenate([r[16:32] for r in rows]))
