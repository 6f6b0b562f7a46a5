# The low-level view and token API of seed 002, unsafe-island functions:
# make_tensor_view and load_tensor build raw tensor views (marked
# tile_safety.unsafe); set_tensor_token gives a tensor a token that the
# partitions made from it afterwards carry, and each access through such a
# partition takes it (and is unsafe); get_tensor_token, get_partition_token
# and get_partition_token_mut read them (a fresh make_token if none was set).
# token-order keeps the hand-written tokens and orders later accesses after them.
# RUN: %opt %s | filecheck %s
# RUN: %opt %s -p token-order | filecheck %s --check-prefix=ORDER
import safetile as st
from safetile import f32, i32, i64


@st.kernel(specialize=[dict()])
def views(z: st.Mut[f32, (4, 16)], src: st.Ptr[f32], dst: st.Ptr[f32], n: i32):
    bid, _, _ = st.tile_block_id()
    with st.unsafe():
        a = st.make_tensor_view(src, (n, 16), (16, 1))
        b = st.make_tensor_view(dst, (n, 16), (16, 1), token=st.make_token())
        rows = a.partition((4, 16)).load((bid, 0))
        stored = b.partition_mut((4, 16)).store((bid, 0), rows * 3.0)
        st.set_tensor_token(a, stored)
        again = a.partition((4, 16)).load((bid, 0))
    z.store(again)


# CHECK-LABEL: entry @views(
# CHECK: %[[A:.+]] = make_tensor_view %src, shape = [%n, 16], strides = [16, 1] {tile_safety.unsafe} : tile<i32> -> tensor_view<?x16xf32, strides=[16,1]>
# CHECK-NEXT: %[[T0:.+]] = make_token : token
# CHECK-NEXT: %[[B:.+]] = make_tensor_view %dst, shape = [%n, 16], strides = [16, 1] {tile_safety.unsafe} : tile<i32> -> tensor_view<?x16xf32, strides=[16,1]>
# A view without a token: its accesses are left to token-order.
# CHECK-NEXT: %[[PA:.+]] = make_partition_view %[[A]] : partition_view<tile=(4x16), tensor_view<?x16xf32, strides=[16,1]>>
# CHECK: %[[ROWS:.+]]:2 = load_view_tko weak %[[PA]][%{{.+}}, %{{.+}}] : partition_view
# CHECK: %[[PB:.+]] = make_partition_view %[[B]] {tile_safety.unsafe}
# CHECK: %[[S:.+]] = store_view_tko weak %{{.+}}, %[[PB]][%{{.+}}, %{{.+}}] token = %[[T0]] attributes {tile_safety.unsafe}
# After set_tensor_token(a, stored), a's new partition carries the store's token.
# CHECK-NEXT: %[[PA2:.+]] = make_partition_view %[[A]] : partition_view
# CHECK: %[[AGAIN:.+]]:2 = load_view_tko weak %[[PA2]][%{{.+}}, %{{.+}}] token = %[[S]] attributes {tile_safety.unsafe}

# ORDER-LABEL: entry @views(
# ORDER: %[[START:.+]] = make_token : token
# ORDER: %[[T0:.+]] = make_token : token
# The raw view's untokened load goes on the global chain.
# ORDER: %[[ROWS:.+]]:2 = load_view_tko weak %{{.+}}[%{{.+}}, %{{.+}}] token = %[[START]] : partition_view
# The hand-written tokens stay as written.
# ORDER: %[[S:.+]] = store_view_tko weak %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] token = %[[T0]] attributes {tile_safety.unsafe}
# ORDER: %[[AGAIN:.+]]:2 = load_view_tko weak %{{.+}}[%{{.+}}, %{{.+}}] token = %[[S]] attributes {tile_safety.unsafe}
# The output's store follows both chains.
# ORDER: %[[J:.+]] = join_tokens %[[ROWS]]#1, %[[AGAIN]]#1 : token
# ORDER-NEXT: store_view_tko weak %[[AGAIN]]#0, %{{.+}}[%{{.+}}, %{{.+}}] token = %[[J]] :


@st.kernel(specialize=[dict()])
def tokens(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)]):
    with st.unsafe():
        fresh = st.get_tensor_token(x)
        st.set_tensor_token(x, st.join_tokens(fresh, st.get_tensor_token(z)))
        px = x.partition((16,))
        read = st.get_partition_token(px)
        pz = z.partition_mut((16,))
        write = st.get_partition_token_mut(pz)
        t = px.load((0,))
        pz.store((0,), t)
    z.store(t)


# CHECK-LABEL: entry @tokens(
# get_tensor_token of a tensor without a token: a fresh one, marked.
# CHECK: %[[FX:.+]] = make_token {tile_safety.unsafe} : token
# CHECK-NEXT: %[[FZ:.+]] = make_token {tile_safety.unsafe} : token
# CHECK-NEXT: %[[J:.+]] = join_tokens %[[FX]], %[[FZ]] : token
# get_partition_token gives the token px took from x (no op); z has none.
# CHECK-NEXT: %[[PX:.+]] = make_partition_view %{{.+}} : partition_view<tile=(16)
# CHECK-NEXT: %[[PZ:.+]] = make_partition_view %{{.+}} {tile_safety.unsafe} : partition_view<tile=(16)
# CHECK-NEXT: make_token {tile_safety.unsafe} : token
# CHECK: load_view_tko weak %[[PX]][%{{.+}}] token = %[[J]] attributes {tile_safety.unsafe}
# CHECK: store_view_tko weak %{{.+}}, %[[PZ]][%{{.+}}] attributes {tile_safety.unsafe}


@st.kernel(specialize=[dict()])
def gather(z: st.Mut[f32, (16,)], table: st.Ref[i64, (-1,)], n: i32):
    bid, _, _ = st.tile_block_id()
    with st.unsafe():
        row = st.load_tensor(table, (bid,), (n,), (1,), f32)
        t = row.partition((16,)).load((0,))
    z.store(t)


# load_tensor: the address at table[bid] (a checked index) as a pointer, and a view at it.
# CHECK-LABEL: entry @gather(
# CHECK: %[[CELL:.+]] = make_partition_view %{{.+}} : partition_view<tile=(1), tensor_view<?xi64, strides=[?]>>
# CHECK-NEXT: tile_safety.check_index %[[BID:.+]]#0, %[[CELL]][0], "load_tensor"
# CHECK-NEXT: %[[ADDR:.+]]:2 = load_view_tko weak %[[CELL]][%[[BID]]#0] : {{.+}} -> tile<1xi64>, token
# CHECK-NEXT: %[[SCALAR:.+]] = reshape %[[ADDR]]#0 : tile<1xi64> -> tile<i64>
# CHECK-NEXT: %[[P:.+]] = int_to_ptr %[[SCALAR]] {tile_safety.unsafe} : tile<i64> -> tile<ptr<f32>>
# CHECK-NEXT: make_tensor_view %[[P]], shape = [%n], strides = [1] {tile_safety.unsafe} : tile<i32> -> tensor_view<?xf32, strides=[1]>
