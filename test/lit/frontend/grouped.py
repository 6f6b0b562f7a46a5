# Grouped tile orders: `z.tile_index(order=st.grouped(G))` for a host-partitioned output and
# `z.tile_indices(order=st.grouped(G))` for a mapped one lower to Triton's GROUP_M index math,
# which partition-disjointness recognizes (with `reverse=True`: the columns from the last).
# RUN: %opt %s | filecheck %s
# RUN: %opt %s -p 'partition-disjointness{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=PROOF
# RUN: %opt %s -p 'bounds-check-elision{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=BOUNDS
import safetile as st
from safetile import f32


@st.kernel(specialize=[dict(G=4)])
def host(z: st.Mut[f32, (16, 32)], x: st.Ref[f32, (-1, -1)], *, G: int):
    idx = z.tile_index(order=st.grouped(G))
    m, n = idx
    z.store(x.partition((16, 32)).load((m, n)) + z.load(idx), idx)


# The block's number in launch order, t = bid.x + bid.y * n0, then the group.
# CHECK-LABEL: entry @host_4(
# CHECK: %[[ID:.+]]:3 = get_tile_block_id : tile<i32>
# CHECK: %[[ZP:.+]] = make_partition_view
# CHECK: %[[N:.+]]:2 = get_index_space_shape %[[ZP]]
# CHECK-NEXT: %[[Y:.+]] = muli %[[ID]]#1, %[[N]]#0 : tile<i32>
# CHECK-NEXT: %[[T:.+]] = addi %[[ID]]#0, %[[Y]] : tile<i32>
# CHECK-NEXT: %[[G:.+]] = constant <i32: 4> : tile<i32>
# CHECK-NEXT: %[[W:.+]] = muli %[[G]], %[[N]]#1 : tile<i32>
# CHECK-NEXT: %[[GROUP:.+]] = divi %[[T]], %[[W]] signed : tile<i32>
# CHECK-NEXT: %[[FIRST:.+]] = muli %[[GROUP]], %[[G]] : tile<i32>
# CHECK-NEXT: %[[LEFT:.+]] = subi %[[N]]#0, %[[FIRST]] : tile<i32>
# CHECK-NEXT: %[[ROWS:.+]] = mini %[[LEFT]], %[[G]] signed : tile<i32>
# CHECK-NEXT: %[[R:.+]] = remi %[[T]], %[[W]] signed : tile<i32>
# CHECK-NEXT: %[[MR:.+]] = remi %[[R]], %[[ROWS]] signed : tile<i32>
# CHECK-NEXT: %[[M:.+]] = addi %[[FIRST]], %[[MR]] : tile<i32>
# CHECK-NEXT: %[[NN:.+]] = divi %[[R]], %[[ROWS]] signed : tile<i32>
# CHECK: load_view_tko weak %{{.+}}[%[[M]], %[[NN]]]
# CHECK: load_view_tko weak %[[ZP]][%[[M]], %[[NN]]]
# CHECK: store_view_tko weak %{{.+}}, %[[ZP]][%[[M]], %[[NN]]]
# PROOF: mut grouped(4): {{.*}}grouped.py:15:50: load of 'z'
# PROOF: mut grouped(4): {{.*}}grouped.py:15:5: store to 'z'
# BOUNDS: launch: {{.*}}grouped.py:15:13: load
# BOUNDS-NEXT: launch: {{.*}}grouped.py:15:13: load
# BOUNDS-NEXT: static: {{.*}}grouped.py:15:50: z.load
# BOUNDS-NEXT: static: {{.*}}grouped.py:15:50: z.load
# BOUNDS-NEXT: static: {{.*}}grouped.py:15:5: z.store
# BOUNDS-NEXT: static: {{.*}}grouped.py:15:5: z.store


@st.kernel(specialize=[dict()])
def mapped(z: st.MutMapped[f32, (16, 16)], x: st.Ref[f32, (-1, -1)]):
    px = x.partition((16, 16))
    for idx in z.tile_indices(order=st.grouped(8)):
        i, j = idx
        z.store(px.load((i, j)) * 2.0, idx)


# The loop is the round robin over t in [bid.x, n0 * n1); the index, its group.
# CHECK-LABEL: entry @mapped(
# CHECK: %[[N:.+]]:2 = get_index_space_shape
# CHECK-NEXT: %[[TOTAL:.+]] = muli %[[N]]#0, %[[N]]#1 : tile<i32>
# CHECK-NEXT: for %idx in (%{{.+}}#0 to %[[TOTAL]], step %{{.+}}#0) : tile<i32> {
# CHECK-NEXT: %[[G:.+]] = constant <i32: 8> : tile<i32>
# CHECK-NEXT: %[[W:.+]] = muli %[[G]], %[[N]]#1 : tile<i32>
# CHECK-NEXT: divi %idx, %[[W]] signed : tile<i32>
# CHECK: remi %idx, %[[W]] signed : tile<i32>
# CHECK: %[[I:.+]] = addi
# CHECK-NEXT: %[[J:.+]] = divi
# CHECK: store_view_tko weak %{{.+}}, %{{.+}}[%[[I]], %[[J]]]
# PROOF: mapped grouped(8): {{.*}}grouped.py:53:9: store to 'z'
# BOUNDS: launch: {{.*}}grouped.py:53:17: load
# BOUNDS-NEXT: launch: {{.*}}grouped.py:53:17: load
# BOUNDS-NEXT: static: {{.*}}grouped.py:53:9: z.store
# BOUNDS-NEXT: static: {{.*}}grouped.py:53:9: z.store


@st.kernel(specialize=[dict(G=4)])
def reversed_columns(z: st.Mut[f32, (16, 32)], x: st.Ref[f32, (-1, -1)], *, G: int):
    idx = z.tile_index(order=st.grouped(G, reverse=True))
    m, n = idx
    z.store(x.partition((16, 32)).load((m, n)) + z.load(idx), idx)


# Reversed: the column (t % width) / rows taken from the last, (n1 - 1) - n; the
# row as forward.  Proved one to one and in range as the forward order.
# CHECK-LABEL: entry @reversed_columns_4(
# CHECK: %[[N:.+]]:2 = get_index_space_shape
# CHECK: mini
# CHECK: %[[M:.+]] = addi %{{.+}}, %{{.+}} : tile<i32>
# CHECK-NEXT: %[[NN:.+]] = divi %{{.+}}, %{{.+}} signed : tile<i32>
# CHECK-NEXT: %[[ONE:.+]] = constant <i32: 1> : tile<i32>
# CHECK-NEXT: %[[LAST:.+]] = subi %[[N]]#1, %[[ONE]] : tile<i32>
# CHECK-NEXT: %[[REV:.+]] = subi %[[LAST]], %[[NN]] : tile<i32>
# CHECK: store_view_tko weak %{{.+}}, %{{.+}}[%[[M]], %[[REV]]]
# PROOF: mut grouped(4, reverse): {{.*}}grouped.py:79:50: load of 'z'
# PROOF: mut grouped(4, reverse): {{.*}}grouped.py:79:5: store to 'z'
# BOUNDS: launch: {{.*}}grouped.py:79:13: load
# BOUNDS-NEXT: launch: {{.*}}grouped.py:79:13: load
# BOUNDS-NEXT: static: {{.*}}grouped.py:79:50: z.load
# BOUNDS-NEXT: static: {{.*}}grouped.py:79:50: z.load
# BOUNDS-NEXT: static: {{.*}}grouped.py:79:5: z.store
# BOUNDS-NEXT: static: {{.*}}grouped.py:79:5: z.store
