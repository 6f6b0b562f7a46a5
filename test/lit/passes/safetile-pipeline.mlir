// RUN: %opt %s --split-input-file --verify-diagnostics -p safetile-pipeline | filecheck %s

// The block's own tile: proved disjoint and in range; nothing of tile_safety is left.
// CHECK-LABEL: entry @own_tile
// CHECK-NOT: tile_safety
// CHECK-NOT: assert
// CHECK: store_view_tko weak
cuda_tile.module @m {
  entry @own_tile(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %t = constant <f32: 1.0> : tile<16xf32>
    tile_safety.check_index %b#0, %pz[0], "own tile" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tok = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// Reading an input at the block id needs a launch check, which the default
// pipeline does not take (nothing would evaluate it): an assert, hoisted
// out of the loop (the unused load itself is dead code and goes).
// CHECK-LABEL: entry @input_in_loop
// CHECK: assert %{{.*}}, "input tile" : tile<i1>
// CHECK-NOT: assert
// CHECK: return
cuda_tile.module @m {
  entry @input_in_loop(%z: tile<ptr<f32>>, %n: tile<i32>, %x: tile<ptr<f32>>, %m: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tx = make_tensor_view %x, shape = [%m], strides = [1] {tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %k in (%c0 to %n, step %c1) : tile<i32> {
      tile_safety.check_index %b#0, %px[0], "input tile" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
      %t:2 = load_view_tko weak %px[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    }
    return
  }
}

// -----

// A racy store stops the pipeline with the disjointness error.
// CHECK: error: k.py:3:5: z.store: cannot prove that this store to 'z'
// expected-error {{cannot prove that this store to 'z' writes a tile no other tile block writes}}
cuda_tile.module @m {
  entry @racy(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %t = constant <f32: 1.0> : tile<16xf32>
    %c0 = constant <i32: 0> : tile<i32>
    tile_safety.check_index %c0, %pz[0], "k.py:3:5: z.store: index 0 out of bounds" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tok = store_view_tko weak %t, %pz[%c0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
