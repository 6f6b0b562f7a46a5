// RUN: %opt %s --split-input-file -p grid-dependency > %t.once
// RUN: filecheck %s < %t.once
// Idempotent: a second run changes nothing.
// RUN: %opt %s --split-input-file -p grid-dependency,grid-dependency > %t.twice
// RUN: diff %t.once %t.twice
// After token-order, as in the pipeline: every access of a real kernel ends up after the wait.
// RUN: %opt %s --split-input-file -p token-order,grid-dependency | filecheck %s --check-prefix=PIPE

// The chain's make_token becomes the wait, which comes first; the signal that
// the next kernel may start follows it; the shared input's weak load, which
// token-order leaves unordered, now takes the wait's token (its data may come
// from the kernel before).
// CHECK-LABEL: entry @gemv
// CHECK-NEXT: %[[W:.+]] = gdc_wait_tko -> token
// CHECK-NEXT: gdc_launch_dependents_tko token = %[[W]] -> token
// CHECK-NOT: make_token
// CHECK: for %k
// CHECK-NEXT: load_view_tko weak %px[%k] token = %[[W]] :
// CHECK: store_view_tko weak %{{.+}}, %pz[%b#0] token = %[[W]] :
cuda_tile.module @m {
  entry @gemv(%z: tile<ptr<f32>>, %x: tile<ptr<f32>>, %n: tile<i32>) {
    %t0 = make_token : token
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tx = make_tensor_view %x, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %zero = constant <f32: 0.0> : tile<16xf32>
    %acc = for %k in (%c0 to %n, step %c1) : tile<i32> iter_values(%a = %zero) -> (tile<16xf32>) {
      %l:2 = load_view_tko weak %px[%k] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
      %s = addf %a, %l#0 : tile<16xf32>
      continue %s : tile<16xf32>
    }
    %st = store_view_tko weak %acc, %pz[%b#0] token = %t0 : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// Unsafe code: pointer accesses and hand-written tokens.  A hand-made chain
// (two make_token) is rooted at the wait too; an access that already has a
// token keeps it; a hand-written wait and signal without a token take the
// wait's (the first wait is the only op making a token from nothing).
// CHECK-LABEL: entry @unsafe
// CHECK-NEXT: %[[W:.+]] = gdc_wait_tko -> token
// CHECK-NEXT: gdc_launch_dependents_tko token = %[[W]] -> token
// CHECK-NOT: make_token
// CHECK: %[[L:.+]]:2 = load_ptr_tko weak %p token=%[[W]] :
// CHECK-NEXT: store_ptr_tko weak %p, %[[L]]#0 token=%[[L]]#1 :
// CHECK-NEXT: %[[L2:.+]]:2 = load_ptr_tko weak %p token=%[[W]] :
// CHECK-NEXT: gdc_wait_tko token = %[[W]] -> token
// CHECK-NEXT: gdc_launch_dependents_tko token = %[[W]] -> token
cuda_tile.module @m {
  entry @unsafe(%p: tile<ptr<f32>>) {
    %t0 = make_token : token
    %l:2 = load_ptr_tko weak %p token = %t0 : tile<ptr<f32>> -> tile<f32>, token
    %s = store_ptr_tko weak %p, %l#0 token = %l#1 : tile<ptr<f32>>, tile<f32> -> token
    %l2:2 = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token
    %w2 = gdc_wait_tko -> token
    %g2 = gdc_launch_dependents_tko -> token
    return
  }
}

// -----

// A kernel that accesses no memory still waits and signals (nothing to order).
// CHECK-LABEL: entry @nothing
// CHECK-NEXT: %[[W:.+]] = gdc_wait_tko -> token
// CHECK-NEXT: gdc_launch_dependents_tko token = %[[W]] -> token
// CHECK-NEXT: return
cuda_tile.module @m {
  entry @nothing() {
    return
  }
}

// -----

// In the pipeline's order, on the frontend's IR: token-order leaves the weak
// load of the shared input without a token, grid-dependency gives it the
// wait's, and the mutable output's chain starts at the wait.
// PIPE-LABEL: entry @add_one
// PIPE-NEXT: %[[W:.+]] = gdc_wait_tko -> token
// PIPE-NEXT: gdc_launch_dependents_tko token = %[[W]] -> token
// PIPE: %[[L:.+]]:2 = load_view_tko weak %px[%b#0] token = %[[W]] :
// PIPE: store_view_tko weak %{{.+}}, %pz[%b#0] token = %[[W]] :
cuda_tile.module @m {
  entry @add_one(%z: tile<ptr<f32>>, %x: tile<ptr<f32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tx = make_tensor_view %x, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<shared>, tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %l:2 = load_view_tko weak %px[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %one = constant <f32: 1.0> : tile<16xf32>
    %v = addf %l#0, %one : tile<16xf32>
    %s = store_view_tko weak %v, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// Early reads: the entry names %w (argument 1) in tile_safety.early_reads.
// Its loads at the top of the body move before the wait with the pure ops
// and index checks they need, chained first to last into the wait's token;
// its load in the loop, and the top-level load of %x (not named), stay after
// the wait and take its token.
// CHECK-LABEL: entry @early
// CHECK: %[[B:.+]]:3 = get_tile_block_id
// CHECK-NEXT: assume div_by<16>, %w
// CHECK-NEXT: make_tensor_view
// CHECK-NEXT: %[[PW:.+]] = make_partition_view
// CHECK: tile_safety.check_index %[[B]]#0, %[[PW]][0]
// CHECK: %[[L0:.+]]:2 = load_view_tko weak %[[PW]][%[[B]]#0, %{{.+}}] :
// CHECK: %[[L1:.+]]:2 = load_view_tko weak %[[PW]][%[[B]]#0, %{{.+}}] token = %[[L0]]#1 :
// CHECK-NEXT: %[[W:.+]] = gdc_wait_tko token = %[[L1]]#1 -> token
// CHECK-NEXT: gdc_launch_dependents_tko token = %[[W]] -> token
// CHECK-NOT: load_view_tko weak %pw
// CHECK: load_view_tko weak %px[%{{.+}}] token = %[[W]] :
// CHECK: for %k
// CHECK-NEXT: load_view_tko weak %[[PW]][%[[B]]#0, %k] token = %[[W]] :
cuda_tile.module @m {
  entry @early(%z: tile<ptr<f32>>, %w: tile<ptr<f32>>, %x: tile<ptr<f32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tx = make_tensor_view %x, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %aw = assume div_by<16>, %w : tile<ptr<f32>>
    %tw = make_tensor_view %aw, shape = [%n, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
    %pw = make_partition_view %tw : partition_view<tile=(16x16), tensor_view<?x64xf32, strides=[64,1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c4 = constant <i32: 4> : tile<i32>
    %x0:2 = load_view_tko weak %px[%c0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    tile_safety.check_index %b#0, %pw[0], "w.load" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x64xf32, strides=[64,1]>>
    %w0:2 = load_view_tko weak %pw[%b#0, %c0] : partition_view<tile=(16x16), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x16xf32>, token
    %w1:2 = load_view_tko weak %pw[%b#0, %c1] : partition_view<tile=(16x16), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x16xf32>, token
    %init = addf %w0#0, %w1#0 : tile<16x16xf32>
    %acc = for %k in (%c1 to %c4, step %c1) : tile<i32> iter_values(%a = %init) -> (tile<16x16xf32>) {
      %l:2 = load_view_tko weak %pw[%b#0, %k] : partition_view<tile=(16x16), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x16xf32>, token
      %s = addf %a, %l#0 : tile<16x16xf32>
      continue %s : tile<16x16xf32>
    }
    %r = reduce %acc dim=1 identities=[0.000000e+00 : f32] : tile<16x16xf32> -> tile<16xf32>
    (%e0: tile<f32>, %e1: tile<f32>) {
      %e2 = addf %e0, %e1 : tile<f32>
      yield %e2 : tile<f32>
    }
    %out = addf %r, %x0#0 : tile<16xf32>
    %st = store_view_tko weak %out, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  } {tile_safety.early_reads = [1 : i64]}
}
