// RUN: %opt %s --split-input-file --verify-diagnostics -p safetile-pipeline | filecheck %s
// Without grid-dependency (for a bytecode target before 13.4): the chains start at a make_token.
// RUN: %opt %s --split-input-file --verify-diagnostics -p 'safetile-pipeline{dependent_launch=false}' | filecheck %s --check-prefix=NOWAIT

// The block's own tile: proved disjoint and in range; nothing of tile_safety
// is left; the store takes the token its chain starts from: the wait for the
// kernels launched before (grid-dependency), which then lets the next start.
// CHECK-LABEL: entry @own_tile
// CHECK-NEXT: %[[T0:.+]] = gdc_wait_tko -> token
// CHECK-NEXT: gdc_launch_dependents_tko token = %[[T0]] -> token
// NOWAIT-LABEL: entry @own_tile
// NOWAIT-NEXT: %[[T0:.+]] = make_token : token
// NOWAIT-NOT: gdc_
// NOWAIT: store_view_tko weak %t, %pz[%b#0] token = %[[T0]] :
// CHECK-NOT: tile_safety
// CHECK-NOT: assert
// CHECK: store_view_tko weak %t, %pz[%b#0] token = %[[T0]] :
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
// pipeline does not take (nothing would evaluate it): an assert, kept in the
// loop, which may run zero times.  The unused load of the shared input is
// dead code and goes (its token, the wait's, orders nothing).
// CHECK-LABEL: entry @input_in_loop
// CHECK-NOT: make_token
// CHECK: print_tko "input tile: tile index %d is outside [0, %d) in dimension 0\0A"
// CHECK: assert %{{.*}}, "input tile: tile index out of range in dimension 0" : tile<i1>
// CHECK-NOT: assert
// CHECK-NOT: load_view_tko
// CHECK: return
cuda_tile.module @m {
  entry @input_in_loop(%z: tile<ptr<f32>>, %n: tile<i32>, %x: tile<ptr<f32>>, %m: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tx = make_tensor_view %x, shape = [%m], strides = [1] {tile_safety.access = #tile_safety.access<shared>, tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
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
// CHECK: error: k.py:3:5: cannot prove that this store to 'z'
// expected-error {{cannot prove that this store to 'z' writes a tile no other tile block writes}}
cuda_tile.module @m {
  entry @racy(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %t = constant <f32: 1.0> : tile<16xf32>
    %c0 = constant <i32: 0> : tile<i32>
    tile_safety.check_index %c0, %pz[0], "z.store" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> loc("k.py":3:5)
    %tok = store_view_tko weak %t, %pz[%c0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token loc("k.py":3:5)
    return
  }
}

// -----

// Accumulating into the own tile in a loop: the chain survives the clean-ups.
// LICM hoists neither access (they have effects; the load's index is
// loop-invariant), CSE does not merge the two loads across the store, and
// the unused load after the loop stays: its token orders the final store.
// CHECK-LABEL: entry @accumulate
// CHECK-NEXT: %[[T0:.+]] = gdc_wait_tko -> token
// CHECK-NEXT: gdc_launch_dependents_tko token = %[[T0]] -> token
// CHECK: %[[R:.+]] = for %k in (%c0 to %n, step %c1) : tile<i32> iter_values(%[[A:.+]] = %[[T0]]) -> (token) {
// CHECK-NEXT: %[[L:.+]]:2 = load_view_tko weak %pz[%b#0] token = %[[A]] :
// CHECK-NEXT: %[[V:.+]] = addf %[[L]]#0, %t
// CHECK-NEXT: %[[S:.+]] = store_view_tko weak %[[V]], %pz[%b#0] token = %[[L]]#1 :
// CHECK-NEXT: continue %[[S]] : token
// CHECK-NEXT: }
// CHECK-NEXT: %[[L2:.+]]:2 = load_view_tko weak %pz[%b#0] token = %[[R]] :
// CHECK-NEXT: store_view_tko weak %t, %pz[%b#0] token = %[[L2]]#1 :
cuda_tile.module @m {
  entry @accumulate(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %t = constant <f32: 1.0> : tile<16xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %k in (%c0 to %n, step %c1) : tile<i32> {
      %l:2 = load_view_tko weak %pz[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
      %v = addf %l#0, %t : tile<16xf32>
      %s = store_view_tko weak %v, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    }
    %unused:2 = load_view_tko weak %pz[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %last = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// A mapped output walked by a persistent loop: the stores fork from the
// make_token and the loop carries only their join, through the clean-ups
// (LICM leaves the join: it uses the iteration's store).
// CHECK-LABEL: entry @persistent
// CHECK-NEXT: %[[T0:.+]] = gdc_wait_tko -> token
// CHECK-NEXT: gdc_launch_dependents_tko token = %[[T0]] -> token
// CHECK: for %idx in (%b#0 to %total, step %nb#0) : tile<i32> iter_values(%[[A:.+]] = %[[T0]]) -> (token) {
// CHECK: %[[S:.+]] = store_view_tko weak %t, %pz[%{{.+}}, %{{.+}}] token = %[[T0]] :
// CHECK-NEXT: %[[J:.+]] = join_tokens %[[A]], %[[S]] : token
// CHECK-NEXT: continue %[[J]] : token
cuda_tile.module @m {
  entry @persistent(%z: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>) {
    %t = constant <f32: 0.0> : tile<16x16xf32>
    %nb:3 = get_num_tile_blocks : tile<i32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%m, %n], strides = [%n, 1] {tile_safety.access = #tile_safety.access<mapped>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %total = muli %s#0, %s#1 : tile<i32>
    for %idx in (%b#0 to %total, step %nb#0) : tile<i32> {
      %r = divi %idx, %s#1 signed : tile<i32>
      %c = remi %idx, %s#1 signed : tile<i32>
      tile_safety.check_index %r, %pz[0], "z.store" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
      %tok = store_view_tko weak %t, %pz[%r, %c] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    }
    return
  }
}
