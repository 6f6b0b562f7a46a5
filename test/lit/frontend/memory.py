# Loads and stores: the output's own tile, load_tile_like, device-side
# partitions (padding, permuted), load_tile, num_tiles, x.shape; every index
# gets a tile_safety.check_index, located at the access.
# RUN: %opt %s | filecheck %s
# RUN: %opt %s --mlir-print-debuginfo | filecheck %s --check-prefix=LOC
import safetile as st
from safetile import f32


@st.kernel(specialize=[dict(BM=16, BN=32)])
def memory(
    z: st.Mut[f32, ("BM", "BN")],
    x: st.Ref[f32, (-1, -1)],
    y: st.Ref[f32, (64, -1)],
    *,
    BM: int,
    BN: int,
):
    bm, bn, _ = st.tile_block_id()
    own = z.load() + st.load_tile_mut(z)
    like = st.load_tile_like(x, z)
    px = x.partition((BM, BN), padding="neg_inf")
    tile = px.load((bm, st.num_tiles(px, 1) - 1)) + px.num_tiles(0).astype(f32)
    t = y.partition_permuted((BN, BM), (1, 0)).load((bn, bm)).reshape((BM, BN))
    u = x.load_tile((BM, BN), (bm, 0))
    rows, cols = x.shape
    m, k = y.shape
    z.store(own + like + tile + t + u + (rows * cols).astype(f32) + float(m) + k.astype(f32))


# The block ids are made once, first.
# CHECK-LABEL: entry @memory_16_32(
# CHECK-NEXT: %[[ID:.+]]:3 = get_tile_block_id : tile<i32>
# CHECK: %[[ZV:.+]] = make_tensor_view %z, {{.+}} tile_safety.partition = array<i64: 16, 32>{{.+}}
# CHECK-NEXT: %[[ZP:.+]] = make_partition_view %[[ZV]] : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,?]>>
# CHECK: %[[XV:.+]] = make_tensor_view %x,
# A static dimension is part of the view type: y is 64 x ?.
# CHECK: %[[YV:.+]] = make_tensor_view %y, shape = [64, %{{.+}}], strides = [%y_stride0, %y_stride1] {{.+}} -> tensor_view<64x?xf32, strides=[?,?]>
# z.load() and load_tile_mut(z): the own tile, at the block id, checked.
# CHECK-NEXT: tile_safety.check_index %[[ID]]#0, %[[ZP]][0], "z.load" :
# CHECK-NEXT: tile_safety.check_index %[[ID]]#1, %[[ZP]][1], "z.load" :
# LOC: tile_safety.check_index {{.+}}, "z.load" : {{.+}} loc("{{.*}}memory.py":[[# @LINE - 22]]:11)
# LOC-NEXT: tile_safety.check_index {{.+}}, "z.load" : {{.+}} loc("{{.*}}memory.py":[[# @LINE - 23]]:11)
# LOC-NEXT: load_view_tko {{.+}} loc("{{.*}}memory.py":[[# @LINE - 24]]:11)
# CHECK-NEXT: load_view_tko weak %[[ZP]][%[[ID]]#0, %[[ID]]#1] : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> tile<16x32xf32>, token
# CHECK: load_view_tko weak %[[ZP]][%[[ID]]#0, %[[ID]]#1]
# load_tile_like(x, z): x cut like z, at the block id.
# CHECK: %[[XL:.+]] = make_partition_view %[[XV]] : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,?]>>
# CHECK-NEXT: tile_safety.check_index %[[ID]]#0, %[[XL]][0], "load_tile_like"
# CHECK-NEXT: tile_safety.check_index %[[ID]]#1, %[[XL]][1]
# CHECK-NEXT: load_view_tko weak %[[XL]][%[[ID]]#0, %[[ID]]#1]
# A padded partition; the last tile along dim 1 comes from num_tiles.
# CHECK: %[[PX:.+]] = make_partition_view %[[XV]] : partition_view<tile=(16x32), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,?]>>
# CHECK-NEXT: %[[N:.+]]:2 = get_index_space_shape %[[PX]] : partition_view<{{.+}}> -> tile<i32>
# CHECK-NEXT: %[[ONE:.+]] = constant <i32: 1> : tile<i32>
# CHECK-NEXT: %[[LAST:.+]] = subi %[[N]]#1, %[[ONE]] : tile<i32>
# CHECK-NEXT: tile_safety.check_index %[[ID]]#0, %[[PX]][0]
# CHECK-NEXT: tile_safety.check_index %[[LAST]], %[[PX]][1]
# CHECK-NEXT: load_view_tko weak %[[PX]][%[[ID]]#0, %[[LAST]]]
# CHECK: get_index_space_shape %[[PX]]
# CHECK: itof
# A permuted partition: tile dim i walks tensor dim dim_map[i].
# CHECK: %[[PY:.+]] = make_partition_view %[[YV]] : partition_view<tile=(32x16), tensor_view<64x?xf32, strides=[?,?]>, dim_map=[1, 0]>
# CHECK: load_view_tko weak %[[PY]][%[[ID]]#1, %[[ID]]#0] {{.+}} -> tile<32x16xf32>, token
# CHECK: reshape %{{.+}} : tile<32x16xf32> -> tile<16x32xf32>
# load_tile: a partition and a load at the index.
# CHECK: %[[LT:.+]] = make_partition_view %[[XV]] : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,?]>>
# CHECK: load_view_tko weak %[[LT]][%[[ID]]#0, %{{.+}}]
# x.shape: the (non-negative) runtime extents; a static one is an int.
# CHECK: muli %{{.+}}, %{{.+}} : tile<i32>
# CHECK: constant <f32: 6.400000e+01> : tile<16x32xf32>
# CHECK: tile_safety.check_index %[[ID]]#0, %[[ZP]][0], "z.store"
# CHECK-NEXT: tile_safety.check_index %[[ID]]#1, %[[ZP]][1], "z.store"
# CHECK-NEXT: store_view_tko weak %{{.+}}, %[[ZP]][%[[ID]]#0, %[[ID]]#1] : tile<16x32xf32>, partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> token
# CHECK-NEXT: return
