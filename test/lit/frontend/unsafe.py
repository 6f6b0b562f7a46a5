# Unsafe code: raw pointers, atomics, tokens, assume hints and mutable
# device-side partitions compile inside `with st.unsafe():`, and each unsafe
# op is marked with tile_safety.unsafe (its location says where).
# RUN: %opt %s | filecheck %s
# RUN: %opt %s --mlir-print-debuginfo | filecheck %s --check-prefix=LOC
import safetile as st
from safetile import f32, i32


@st.kernel(specialize=[dict()])
def pointers(z: st.Mut[f32, (16,)], p: st.Ptr[f32], q: st.Ptr[i32], n: i32):
    offs = st.iota((16,))
    with st.unsafe():
        ptrs = st.offset(p, offs)
        v = st.load_ptr(ptrs, mask=offs < n, other=0.0)
        w, t = st.load_ptr_tko(ptrs, ordering="relaxed", scope="device")
        t2 = st.store_ptr(ptrs, v + w, mask=offs < n, token=t)
        counts = st.offset(q, offs % 4)
        old = st.atomic_rmw(counts, 1, "add", token=st.join_tokens(t, t2))
        swapped = st.atomic_cas(counts, 0, old, ordering="acq_rel", scope="system")
        m = st.assume_div_by(st.assume_bounds(n, 0, 1 << 20), 16)
        addr = st.ptr_to_int(ptrs)
        back = st.int_to_ptr(addr, f32)
        as_int = st.ptr_to_ptr(back, i32)
    z.store(v + (swapped + m).astype(f32))


# CHECK-LABEL: entry @pointers(%z: tile<ptr<f32>>, %z_shape0: tile<i32>, %z_stride0: tile<i32>, %p: tile<ptr<f32>>, %q: tile<ptr<i32>>, %n: tile<i32>)
# CHECK: %[[OFFS:.+]] = iota : tile<16xi32>
# The pointer is broadcast to the offsets' shape.
# CHECK-NEXT: %[[PR:.+]] = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
# CHECK-NEXT: %[[PB:.+]] = broadcast %[[PR]] : tile<1xptr<f32>> -> tile<16xptr<f32>>
# CHECK-NEXT: %[[PTRS:.+]] = offset %[[PB]], %[[OFFS]] {tile_safety.unsafe} : tile<16xptr<f32>>, tile<16xi32> -> tile<16xptr<f32>>
# LOC: offset {{.+}} {tile_safety.unsafe} : {{.+}} loc("{{.*}}unsafe.py":[[# @LINE - 20]]:16)
# CHECK: %[[MASK:.+]] = cmpi less_than %[[OFFS]], %{{.+}}, signed
# CHECK-NEXT: %[[ZERO:.+]] = constant <f32: 0.000000e+00> : tile<16xf32>
# CHECK-NEXT: %[[V:.+]]:2 = load_ptr_tko weak %[[PTRS]], %[[MASK]], %[[ZERO]] {tile_safety.unsafe} : tile<16xptr<f32>>, tile<16xi1>, tile<16xf32> -> tile<16xf32>, token
# CHECK-NEXT: %[[W:.+]]:2 = load_ptr_tko relaxed device %[[PTRS]] {tile_safety.unsafe} : tile<16xptr<f32>> -> tile<16xf32>, token
# CHECK: store_ptr_tko weak %[[PTRS]], %{{.+}}, %{{.+}} token=%[[W]]#1 {tile_safety.unsafe} : tile<16xptr<f32>>, tile<16xf32>, tile<16xi1> -> token
# CHECK: %[[J:.+]] = join_tokens %[[W]]#1, %{{.+}} : token
# CHECK: %[[OLD:.+]]:2 = atomic_rmw_tko relaxed device %{{.+}}, add, %{{.+}} token=%[[J]] {tile_safety.unsafe} : tile<16xptr<i32>>, tile<16xi32> -> tile<16xi32>, token
# CHECK: atomic_cas_tko acq_rel sys %{{.+}}, %{{.+}}, %[[OLD]]#0 {tile_safety.unsafe} : tile<16xptr<i32>>, tile<16xi32> -> tile<16xi32>, token
# CHECK: %[[B:.+]] = assume bounded<0, 1048576>, %n {tile_safety.unsafe} : tile<i32>
# CHECK-NEXT: assume div_by<16>, %[[B]] {tile_safety.unsafe} : tile<i32>
# CHECK-NEXT: %[[ADDR:.+]] = ptr_to_int %[[PTRS]] {tile_safety.unsafe} : tile<16xptr<f32>> -> tile<16xi64>
# CHECK-NEXT: %[[BACK:.+]] = int_to_ptr %[[ADDR]] {tile_safety.unsafe} : tile<16xi64> -> tile<16xptr<f32>>
# CHECK-NEXT: ptr_to_ptr %[[BACK]] {tile_safety.unsafe} : tile<16xptr<f32>> -> tile<16xptr<i32>>


@st.kernel(specialize=[dict()])
def scratch(z: st.Mut[f32, (16, 16)]):
    bm, bn, _ = st.tile_block_id()
    with st.unsafe():
        pz = z.partition_mut((16, 16))
        below = pz.load((bm + 1, bn))
        pz.store((bm + 1, bn), below * 2.0)
    z.store(below)


# A mutable device-side partition of the output, its accesses checked and marked.
# CHECK-LABEL: entry @scratch(
# CHECK: %[[PZ:.+]] = make_partition_view %{{.+}} {tile_safety.unsafe} : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,?]>>
# LOC: make_partition_view {{.+}} {tile_safety.unsafe} : {{.+}} loc("{{.*}}unsafe.py":[[# @LINE - 9]]:14)
# CHECK: tile_safety.check_index %{{.+}}, %[[PZ]][0]
# CHECK-NEXT: tile_safety.check_index %{{.+}}, %[[PZ]][1]
# CHECK-NEXT: load_view_tko weak %[[PZ]][%{{.+}}, %{{.+}}] attributes {tile_safety.unsafe}
# CHECK: tile_safety.check_index %{{.+}}, %[[PZ]][0]
# CHECK-NEXT: tile_safety.check_index %{{.+}}, %[[PZ]][1]
# CHECK: store_view_tko weak %{{.+}}, %[[PZ]][%{{.+}}, %{{.+}}] attributes {tile_safety.unsafe}


@st.kernel(unchecked_accesses=True, specialize=[dict()])
def unchecked(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)]):
    z.store(x.partition((16,)).load((3,)))


# unchecked_accesses: the entry says so, and bounds-check-elision (the one
# place the option acts) drops the frontend's index checks.
# CHECK-LABEL: entry @unchecked(
# CHECK: check_index
# CHECK: return
# CHECK-NEXT: } {tile_safety.unchecked_accesses}
