# A mapped (persistent) output: `for idx in z.tile_indices()` walks the tiles
# this block owns, round robin over the grid; stores take only such indices.
# RUN: %opt %s | filecheck %s
import safetile as st
from safetile import f32


@st.kernel(specialize=[dict(BM=32, BN=64)])
def persistent(z: st.MutMapped[f32, ("BM", "BN")], x: st.Ref[f32, (-1, -1)], *, BM: int, BN: int):
    px = x.partition((BM, BN))
    for idx in z.tile_indices():
        i, j = idx
        z.store(px.load((i, j)) * 2.0, idx)


# CHECK-LABEL: entry @persistent_32_64(
# CHECK-NEXT: %[[NB:.+]]:3 = get_num_tile_blocks : tile<i32>
# CHECK-NEXT: %[[ID:.+]]:3 = get_tile_block_id : tile<i32>
# CHECK: make_tensor_view %z, {{.+}}tile_safety.access = #tile_safety.access<mapped>, tile_safety.arg = "z", tile_safety.partition = array<i64: 32, 64>{{.+}}
# CHECK-NEXT: %[[ZP:.+]] = make_partition_view
# Tiles are numbered row-major; block b visits b, b + nblocks, ...
# CHECK: %[[N:.+]]:2 = get_index_space_shape %[[ZP]] : {{.+}} -> tile<i32>
# CHECK-NEXT: %[[TOTAL:.+]] = muli %[[N]]#0, %[[N]]#1 : tile<i32>
# CHECK-NEXT: for %idx in (%[[ID]]#0 to %[[TOTAL]], step %[[NB]]#0) : tile<i32> {
# CHECK-NEXT: %[[I:.+]] = divi %idx, %[[N]]#1 signed : tile<i32>
# CHECK-NEXT: %[[J:.+]] = remi %idx, %[[N]]#1 signed : tile<i32>
# CHECK: load_view_tko weak %{{.+}}[%[[I]], %[[J]]]
# CHECK: tile_safety.check_index %[[I]], %[[ZP]][0], "z.store"
# CHECK-NEXT: tile_safety.check_index %[[J]], %[[ZP]][1]
# CHECK-NEXT: store_view_tko weak %{{.+}}, %[[ZP]][%[[I]], %[[J]]]
# CHECK-NEXT: }
