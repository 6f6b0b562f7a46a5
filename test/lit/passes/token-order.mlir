// RUN: %opt %s --split-input-file -p token-order > %t.once
// RUN: filecheck %s < %t.once
// RUN: %opt %s --split-input-file -p 'token-order{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// Idempotent: a second run changes nothing.
// RUN: %opt %s --split-input-file -p token-order,token-order > %t.twice
// RUN: diff %t.once %t.twice

// Straight line on one mutable tensor: the chain starts at the entry's
// make_token; a load after a store takes the store's token (it sees it), a
// store after a load takes the load's (it does not overtake it).
// REPORT: token-order: @straight_line: tokens 3, joins 0, chains 1
// CHECK-LABEL: entry @straight_line
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: %[[S1:.+]] = store_view_tko weak %t, %pz[%b#0] token = %[[T0]] :
// CHECK-NEXT: %[[L:.+]]:2 = load_view_tko weak %pz[%b#0] token = %[[S1]] :
// CHECK-NEXT: store_view_tko weak %[[L]]#0, %pz[%b#0] token = %[[L]]#1 :
cuda_tile.module @m {
  entry @straight_line(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %t = constant <f32: 1.0> : tile<16xf32>
    %s1 = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %l:2 = load_view_tko weak %pz[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %s2 = store_view_tko weak %l#0, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// Two mutable tensors: two independent chains from the one make_token, each
// access following the previous one on its own tensor only.
// REPORT: token-order: @two_tensors: tokens 2, joins 0, chains 2
// CHECK-LABEL: entry @two_tensors
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: %[[Z1:.+]] = store_view_tko weak %t, %pz[%b#0] token = %[[T0]] :
// CHECK-NEXT: store_view_tko weak %t, %pw[%b#0] token = %[[T0]] :
// CHECK-NEXT: store_view_tko weak %t, %pz[%b#0] token = %[[Z1]] :
cuda_tile.module @m {
  entry @two_tensors(%z: tile<ptr<f32>>, %w: tile<ptr<f32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tw = make_tensor_view %w, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "w", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pw = make_partition_view %tw : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %t = constant <f32: 1.0> : tile<16xf32>
    %s1 = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %s2 = store_view_tko weak %t, %pw[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %s3 = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// Reads of a shared tensor take no token and order nothing: the store to z
// starts from the make_token, not from the loads.
// REPORT: token-order: @shared_reads: tokens 1, joins 0, chains 1
// CHECK-LABEL: entry @shared_reads
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: load_view_tko weak %px[%b#0] : partition_view
// CHECK-NEXT: load_view_tko weak %px[%b#1] : partition_view
// CHECK: store_view_tko weak %sum, %pz[%b#0] token = %[[T0]] :
cuda_tile.module @m {
  entry @shared_reads(%z: tile<ptr<f32>>, %x: tile<ptr<f32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tx = make_tensor_view %x, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<shared>, tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %a:2 = load_view_tko weak %px[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %c:2 = load_view_tko weak %px[%b#1] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %sum = addf %a#0, %c#0 : tile<16xf32>
    %s = store_view_tko weak %sum, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// Persistent store loop over a mapped partition: the store index is the
// mapped tile of the induction variable, so iterations write distinct tiles
// and fork from the token taken before the loop (the store takes the
// make_token, not the carried token).  The carried token only collects the
// join of every iteration's store; after the loop, the store to z follows it.
// REPORT: token-order: @mapped_fork: tokens 2, joins 1, chains 1
// CHECK-LABEL: entry @mapped_fork
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: %[[R:.+]] = for %idx in (%b#0 to %total, step %nb#0) : tile<i32> iter_values(%[[ACC:.+]] = %[[T0]]) -> (token) {
// CHECK: %[[S:.+]] = store_view_tko weak %t, %pz[%r, %c] token = %[[T0]] :
// CHECK-NEXT: %[[J:.+]] = join_tokens %[[ACC]], %[[S]] : token
// CHECK-NEXT: continue %[[J]] : token
// CHECK-NEXT: }
// CHECK-NEXT: store_view_tko weak %t, %pz[%b#0, %b#1] token = %[[R]] attributes {tile_safety.unsafe
cuda_tile.module @m {
  entry @mapped_fork(%z: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>) {
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
      %tok = store_view_tko weak %t, %pz[%r, %c] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    }
    %after = store_view_tko weak %t, %pz[%b#0, %b#1] attributes {tile_safety.unsafe = "k.py:9:5"} : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}

// -----

// A load and a store of the same mapped tile in one iteration: still chained
// within the iteration (from the fork token), forked across iterations.
// CHECK-LABEL: entry @mapped_read_modify_write
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: for %idx in (%b#0 to %s, step %nb#0) : tile<i32> iter_values(%[[ACC:.+]] = %[[T0]]) -> (token) {
// CHECK-NEXT: %[[L:.+]]:2 = load_view_tko weak %pz[%idx] token = %[[T0]] :
// CHECK: %[[S:.+]] = store_view_tko weak %{{.+}}, %pz[%idx] token = %[[L]]#1 :
// CHECK-NEXT: %[[J:.+]] = join_tokens %[[ACC]], %[[S]] : token
// CHECK-NEXT: continue %[[J]] : token
cuda_tile.module @m {
  entry @mapped_read_modify_write(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %nb:3 = get_num_tile_blocks : tile<i32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mapped>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %s = get_index_space_shape %pz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> -> tile<i32>
    for %idx in (%b#0 to %s, step %nb#0) : tile<i32> {
      %l:2 = load_view_tko weak %pz[%idx] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
      %d = addf %l#0, %l#0 : tile<16xf32>
      %tok = store_view_tko weak %d, %pz[%idx] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    }
    return
  }
}

// -----

// A store at a loop-invariant (constant) index writes one tile every
// iteration: serialized through the carried token, which the loop returns.
// REPORT: token-order: @constant_index: tokens 2, joins 0, chains 1
// CHECK-LABEL: entry @constant_index
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: %[[R:.+]]:2 = for %k in (%c0 to %n, step %c1) : tile<i32> iter_values(%acc = %t, %[[ARG:.+]] = %[[T0]]) -> (tile<16xf32>, token) {
// CHECK-NEXT: %[[S:.+]] = store_view_tko weak %acc, %pz[%c0] token = %[[ARG]] attributes {tile_safety.unsafe
// CHECK-NEXT: continue %acc, %[[S]] : tile<16xf32>, token
// CHECK-NEXT: }
// CHECK-NEXT: store_view_tko weak %[[R]]#0, %pz[%c0] token = %[[R]]#1 attributes {tile_safety.unsafe
cuda_tile.module @m {
  entry @constant_index(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %t = constant <f32: 1.0> : tile<16xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %res = for %k in (%c0 to %n, step %c1) : tile<i32> iter_values(%acc = %t) -> (tile<16xf32>) {
      %tok = store_view_tko weak %acc, %pz[%c0] attributes {tile_safety.unsafe = "k.py:5:9"} : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      continue %acc : tile<16xf32>
    }
    %last = store_view_tko weak %res, %pz[%c0] attributes {tile_safety.unsafe = "k.py:6:5"} : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// if/else: the if yields the token of each chain either branch touches; an
// if without else gets one that yields the incoming token; a chain no branch
// touches (w) is not yielded.
// CHECK-LABEL: entry @branches
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: %[[W:.+]] = store_view_tko weak %t, %pw[%b#0] token = %[[T0]] :
// CHECK: %[[I1:.+]] = if %cond -> (token) {
// CHECK-NEXT: %[[S1:.+]] = store_view_tko weak %t, %pz[%b#0] token = %[[T0]] :
// CHECK-NEXT: yield %[[S1]] : token
// CHECK-NEXT: } else {
// CHECK-NEXT: yield %[[T0]] : token
// CHECK-NEXT: }
// CHECK-NEXT: %[[I2:.+]]:2 = if %cond -> (tile<16xf32>, token) {
// CHECK-NEXT: %[[S2:.+]] = store_view_tko weak %t, %pz[%b#0] token = %[[I1]] :
// CHECK-NEXT: yield %t, %[[S2]] : tile<16xf32>, token
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[L:.+]]:2 = load_view_tko weak %pz[%b#0] token = %[[I1]] :
// CHECK-NEXT: yield %[[L]]#0, %[[L]]#1 : tile<16xf32>, token
// CHECK-NEXT: }
// CHECK-NEXT: store_view_tko weak %[[I2]]#0, %pz[%b#0] token = %[[I2]]#1 :
// CHECK-NEXT: store_view_tko weak %t, %pw[%b#0] token = %[[W]] :
cuda_tile.module @m {
  entry @branches(%z: tile<ptr<f32>>, %w: tile<ptr<f32>>, %n: tile<i32>, %cond: tile<i1>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tw = make_tensor_view %w, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "w", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pw = make_partition_view %tw : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %t = constant <f32: 1.0> : tile<16xf32>
    %w0 = store_view_tko weak %t, %pw[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    if %cond {
      %s1 = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    }
    %v = if %cond -> (tile<16xf32>) {
      %s2 = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      yield %t : tile<16xf32>
    } else {
      %l:2 = load_view_tko weak %pz[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
      yield %l#0 : tile<16xf32>
    }
    %s3 = store_view_tko weak %v, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %w1 = store_view_tko weak %t, %pw[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// Nested loops: both carry z's token; the inner loop starts from the outer
// iteration's token and the outer iteration passes on the inner result.
// CHECK-LABEL: entry @nested_loops
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: %[[OUT:.+]] = for %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%[[OA:.+]] = %[[T0]]) -> (token) {
// CHECK-NEXT: %[[L:.+]]:2 = load_view_tko weak %pz[%b#0] token = %[[OA]] :
// CHECK-NEXT: %[[IN:.+]] = for %j in (%c0 to %n, step %c1) : tile<i32> iter_values(%[[IA:.+]] = %[[L]]#1) -> (token) {
// CHECK-NEXT: %[[S:.+]] = store_view_tko weak %[[L]]#0, %pz[%b#0] token = %[[IA]] :
// CHECK-NEXT: continue %[[S]] : token
// CHECK-NEXT: }
// CHECK-NEXT: continue %[[IN]] : token
// CHECK-NEXT: }
// CHECK-NEXT: load_view_tko weak %pz[%b#0] token = %[[OUT]] :
cuda_tile.module @m {
  entry @nested_loops(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %i in (%c0 to %n, step %c1) : tile<i32> {
      %l:2 = load_view_tko weak %pz[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
      for %j in (%c0 to %n, step %c1) : tile<i32> {
        %s = store_view_tko weak %l#0, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      }
    }
    %after:2 = load_view_tko weak %pz[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    return
  }
}

// -----

// loop with an early continue and a break: every exit passes z's token (the
// continue inside the if included); the result is the break's.
// CHECK-LABEL: entry @loop_exits
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: %[[R:.+]] = loop iter_values(%[[A:.+]] = %[[T0]]) : token -> token {
// CHECK-NEXT: %[[S:.+]] = store_view_tko weak %t, %pz[%b#0] token = %[[A]] :
// CHECK-NEXT: if %cond {
// CHECK-NEXT: continue %[[S]] : token
// CHECK-NEXT: }
// CHECK-NEXT: break %[[S]] : token
// CHECK-NEXT: }
// CHECK-NEXT: store_view_tko weak %t, %pz[%b#0] token = %[[R]] :
cuda_tile.module @m {
  entry @loop_exits(%z: tile<ptr<f32>>, %n: tile<i32>, %cond: tile<i1>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %t = constant <f32: 1.0> : tile<16xf32>
    loop {
      %s = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      if %cond {
        continue
      }
      break
    }
    %s2 = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// Unsafe pointer ops and atomics are on the global chain: each joins every
// chain's token, and its result token is every chain's token afterwards
// (z's next store follows the atomic; so does the next pointer load).  A
// view access to a tensor without access mode (%pu) is treated the same way.
// REPORT: token-order: @pointers: tokens 6, joins 1, chains 3
// CHECK-LABEL: entry @pointers
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: %[[Z:.+]] = store_view_tko weak %t, %pz[%b#0] token = %[[T0]] :
// CHECK-NEXT: %[[W:.+]] = store_view_tko weak %t, %pw[%b#0] token = %[[T0]] :
// CHECK-NEXT: %[[J:.+]] = join_tokens %[[Z]], %[[W]] : token
// CHECK-NEXT: %[[RMW:.+]]:2 = atomic_rmw_tko relaxed device %ptrs, add, %ones token=%[[J]] {tile_safety.unsafe
// CHECK-NEXT: %[[Z2:.+]] = store_view_tko weak %t, %pz[%b#0] token = %[[RMW]]#1 :
// CHECK-NEXT: %[[P:.+]]:2 = load_ptr_tko weak %ptrs token=%[[Z2]] {tile_safety.unsafe
// CHECK-NEXT: store_view_tko weak %t, %pu[%b#0] token = %[[P]]#1 :
cuda_tile.module @m {
  entry @pointers(%z: tile<ptr<f32>>, %w: tile<ptr<f32>>, %q: tile<ptr<i32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tw = make_tensor_view %w, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "w", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pw = make_partition_view %tw : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tu = make_tensor_view %w, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pu = make_partition_view %tu : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %t = constant <f32: 1.0> : tile<16xf32>
    %offs = iota : tile<16xi32>
    %qr = reshape %q : tile<ptr<i32>> -> tile<1xptr<i32>>
    %qb = broadcast %qr : tile<1xptr<i32>> -> tile<16xptr<i32>>
    %ptrs = offset %qb, %offs {tile_safety.unsafe = "k.py:4:9"} : tile<16xptr<i32>>, tile<16xi32> -> tile<16xptr<i32>>
    %ones = constant <i32: 1> : tile<16xi32>
    %s1 = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %s2 = store_view_tko weak %t, %pw[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %old:2 = atomic_rmw_tko relaxed device %ptrs, add, %ones {tile_safety.unsafe = "k.py:5:9"} : tile<16xptr<i32>>, tile<16xi32> -> tile<16xi32>, token
    %s3 = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %v:2 = load_ptr_tko weak %ptrs {tile_safety.unsafe = "k.py:6:9"} : tile<16xptr<i32>> -> tile<16xi32>, token
    %s4 = store_view_tko weak %t, %pu[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// A global-chain op inside a loop: the loop carries one token for all
// chains, joined before the loop.
// CHECK-LABEL: entry @atomic_in_loop
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: %[[Z:.+]] = store_view_tko weak %t, %pz[%b#0] token = %[[T0]] :
// CHECK-NEXT: %[[W:.+]] = store_view_tko weak %t, %pw[%b#0] token = %[[T0]] :
// CHECK-NEXT: %[[J:.+]] = join_tokens %[[Z]], %[[W]] : token
// CHECK-NEXT: %[[R:.+]] = for %k in (%c0 to %n, step %c1) : tile<i32> iter_values(%[[A:.+]] = %[[J]]) -> (token) {
// CHECK-NEXT: %[[S:.+]] = store_view_tko weak %t, %pz[%b#0] token = %[[A]] :
// CHECK-NEXT: %[[RMW:.+]]:2 = atomic_rmw_tko relaxed device %ptrs, add, %ones token=%[[S]] {tile_safety.unsafe
// CHECK-NEXT: continue %[[RMW]]#1 : token
// CHECK-NEXT: }
// CHECK-NEXT: store_view_tko weak %t, %pw[%b#0] token = %[[R]] :
cuda_tile.module @m {
  entry @atomic_in_loop(%z: tile<ptr<f32>>, %w: tile<ptr<f32>>, %q: tile<ptr<i32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tw = make_tensor_view %w, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "w", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pw = make_partition_view %tw : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %t = constant <f32: 1.0> : tile<16xf32>
    %offs = iota : tile<16xi32>
    %qr = reshape %q : tile<ptr<i32>> -> tile<1xptr<i32>>
    %qb = broadcast %qr : tile<1xptr<i32>> -> tile<16xptr<i32>>
    %ptrs = offset %qb, %offs {tile_safety.unsafe = "k.py:4:9"} : tile<16xptr<i32>>, tile<16xi32> -> tile<16xptr<i32>>
    %ones = constant <i32: 1> : tile<16xi32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %s1 = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %s2 = store_view_tko weak %t, %pw[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    for %k in (%c0 to %n, step %c1) : tile<i32> {
      %s3 = store_view_tko weak %t, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      %old:2 = atomic_rmw_tko relaxed device %ptrs, add, %ones {tile_safety.unsafe = "k.py:5:9"} : tile<16xptr<i32>>, tile<16xi32> -> tile<16xi32>, token
    }
    %s4 = store_view_tko weak %t, %pw[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// Hand-written tokens (unsafe code) are left as they are, and later accesses
// follow them: the untokened atomic_cas takes the hand-tokened store's
// result, whose token (the first load's) already follows the chain, so no
// join is needed.
// CHECK-LABEL: entry @hand_written
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: %[[A:.+]]:2 = load_ptr_tko relaxed device %p token=%[[T0]] {tile_safety.unsafe
// CHECK-NEXT: %[[S:.+]] = store_ptr_tko weak %p, %a#0 token=%a#1 {tile_safety.unsafe
// CHECK-NEXT: atomic_cas_tko relaxed device %p, %a#0, %a#0 token=%[[S]] {tile_safety.unsafe
cuda_tile.module @m {
  entry @hand_written(%p: tile<ptr<f32>>) {
    %a:2 = load_ptr_tko relaxed device %p {tile_safety.unsafe = "k.py:3:9"} : tile<ptr<f32>> -> tile<f32>, token
    %s = store_ptr_tko weak %p, %a#0 token=%a#1 {tile_safety.unsafe = "k.py:4:9"} : tile<ptr<f32>>, tile<f32> -> token
    %c:2 = atomic_cas_tko relaxed device %p, %a#0, %a#0 {tile_safety.unsafe = "k.py:5:9"} : tile<ptr<f32>>, tile<f32> -> tile<f32>, token
    return
  }
}

// -----

// Already token-ordered IR (every access takes a token) is left unchanged:
// no make_token, no join, no new loop-carried value.
// REPORT: token-order: @already_ordered: tokens 0, joins 0, chains 1
// CHECK-LABEL: entry @already_ordered
// CHECK-NEXT: %t0 = make_token : token
// CHECK-NOT: make_token
// CHECK-NOT: join_tokens
// CHECK: %r = for %k in (%c0 to %n, step %c1) : tile<i32> iter_values(%tk = %t0) -> (token) {
// CHECK-NEXT: %s = store_view_tko weak %t, %pz[%b#0] token = %tk :
// CHECK-NEXT: continue %s : token
// CHECK: store_view_tko weak %t, %pz[%b#0] token = %r :
cuda_tile.module @m {
  entry @already_ordered(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %t0 = make_token : token
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %t = constant <f32: 1.0> : tile<16xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %r = for %k in (%c0 to %n, step %c1) : tile<i32> iter_values(%tk = %t0) -> (token) {
      %s = store_view_tko weak %t, %pz[%b#0] token = %tk : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      continue %s : token
    }
    %s2 = store_view_tko weak %t, %pz[%b#0] token = %r : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// The grouped tile of t (index_math.py) is another mapped tile: one to one on
// [0, n0 * n1), so stores at it fork across iterations too.
// REPORT: token-order: @grouped_fork: tokens 2, joins 1, chains 1
// CHECK-LABEL: entry @grouped_fork
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: for %t in (%b#0 to %total, step %nb#0) : tile<i32> iter_values(%[[ACC:.+]] = %[[T0]]) -> (token) {
// CHECK: %[[S:.+]] = store_view_tko weak %v, %pz[%m, %n] token = %[[T0]] :
// CHECK-NEXT: %[[J:.+]] = join_tokens %[[ACC]], %[[S]] : token
// CHECK-NEXT: continue %[[J]] : token
cuda_tile.module @m {
  entry @grouped_fork(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %v = constant <f32: 0.0> : tile<16x16xf32>
    %nb:3 = get_num_tile_blocks : tile<i32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mapped>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %total = muli %s#0, %s#1 : tile<i32>
    for %t in (%b#0 to %total, step %nb#0) : tile<i32> {
      %g = constant <i32: 8> : tile<i32>
      %width = muli %g, %s#1 : tile<i32>
      %group = divi %t, %width signed : tile<i32>
      %first = muli %group, %g : tile<i32>
      %left = subi %s#0, %first : tile<i32>
      %rows = mini %left, %g signed : tile<i32>
      %within = remi %t, %width signed : tile<i32>
      %row = remi %within, %rows signed : tile<i32>
      %m = addi %first, %row : tile<i32>
      %n = divi %within, %rows signed : tile<i32>
      %tok = store_view_tko weak %v, %pz[%m, %n] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    }
    return
  }
}
