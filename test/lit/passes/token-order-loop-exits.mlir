// Loops left from a branch (`break` or `continue` in an `if`, as the frontend
// lowers a `while` or `for` that breaks): token-order's chains through them,
// and the re-proof of the IR that runs (passes/analyses/token_chains.py), which
// tile-opt's guard runs after the clean-up that follows the pipeline, accepts
// them: an `if` one branch of which leaves is ordered by the branch that yields,
// and a `loop`'s results are what its `break`s pass, not its carried values.
// RUN: %opt %s --split-input-file -p 'safetile-pipeline{dependent_launch=false},cse' | filecheck %s

// A counting loop (a `for` that breaks): it carries the counter and the token
// but returns only the token.  The store in the branch that breaks passes its
// token out; the other branch yields the load's, which the store after the
// `if` takes; the accesses after the loop follow the loop's token.
// CHECK-LABEL: entry @break_after_store
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: %[[OUT:.+]] = loop iter_values(%i = %c0, %[[TK:.+]] = %[[T0]]) : tile<i32>, token -> token {
// CHECK: break %[[TK]] : token
// CHECK: %v:2 = load_view_tko weak %pz[%b#0] token = %[[TK]] :
// CHECK: %[[IF:.+]] = if %past -> (token) {
// CHECK: %sh = store_view_tko weak %h, %pz[%b#0] token = %v#1 :
// CHECK-NEXT: break %sh : token
// CHECK-NEXT: } else {
// CHECK-NEXT: yield %v#1 : token
// CHECK: %sv = store_view_tko weak %v#0, %pz[%b#0] token = %[[IF]] :
// CHECK: continue %next, %sv : tile<i32>, token
// CHECK: %w:2 = load_view_tko weak %pz[%b#0] token = %[[OUT]] :
// CHECK-NEXT: store_view_tko weak %w#0, %pz[%b#0] token = %w#1 :
cuda_tile.module @m {
  entry @break_after_store(%z: tile<ptr<f32>>, %n: tile<i32>, %limit: tile<f32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %half = constant <f32: 0.5> : tile<16xf32>
    loop iter_values(%i = %c0) : tile<i32> {
      %done = cmpi greater_than_or_equal %i, %n, signed : tile<i32> -> tile<i1>
      if %done {
        break
      }
      %v:2 = load_view_tko weak %pz[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
      %s = reduce %v#0 dim=0 identities=[0.000000e+00 : f32] : tile<16xf32> -> tile<f32>
      (%x: tile<f32>, %y: tile<f32>) {
        %xy = addf %x, %y : tile<f32>
        yield %xy : tile<f32>
      }
      %past = cmpf greater_than ordered %s, %limit : tile<f32> -> tile<i1>
      if %past {
        %h = mulf %v#0, %half : tile<16xf32>
        %sh = store_view_tko weak %h, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
        break
      }
      %sv = store_view_tko weak %v#0, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      %next = addi %i, %c1 : tile<i32>
      continue %next : tile<i32>
    }
    %w:2 = load_view_tko weak %pz[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %sw = store_view_tko weak %w#0, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// A wait with a watchdog (examples/qwen3/peer.py's, with `break`): the output
// read before, the wait's pointer loads and the atomic in the branch that
// breaks on the global chain, which the loop carries; the store after the
// loop follows the loop's result, which follows the read through the chain.
// CHECK-LABEL: entry @wait_with_alarm
// CHECK-NEXT: %[[T0:.+]] = make_token : token
// CHECK: %mine:2 = load_view_tko weak %pz[%b#0] token = %[[T0]] :
// CHECK: %[[OUT:.+]]:2 = loop iter_values(%turns = %c0, %[[TK:.+]] = %mine#1) : tile<i32>, token -> tile<i32>, token {
// CHECK: %seen:2 = load_ptr_tko weak %p token=%[[TK]] :
// CHECK: %[[IF:.+]] = if %late -> (token) {
// CHECK: %old:2 = atomic_rmw_tko relaxed device %p1, xchg, %n1 token=%seen#1 :
// CHECK-NEXT: break %next, %old#1 : tile<i32>, token
// CHECK-NEXT: } else {
// CHECK-NEXT: yield %seen#1 : token
// CHECK: continue %next, %[[IF]] : tile<i32>, token
// CHECK: store_view_tko weak %mine#0, %pz[%b#0] token = %[[OUT]]#1 :
cuda_tile.module @m {
  entry @wait_with_alarm(%z: tile<ptr<f32>>, %n: tile<i32>, %flags: tile<ptr<i32>>, %patience: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %zero = constant <i32: 0> : tile<1xi32>
    %p = reshape %flags : tile<ptr<i32>> -> tile<1xptr<i32>>
    %p1 = offset %p, %zero {tile_safety.unsafe} : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %mine:2 = load_view_tko weak %pz[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %out = loop iter_values(%turns = %c0) : tile<i32> -> tile<i32> {
      %seen:2 = load_ptr_tko weak %p {tile_safety.unsafe} : tile<1xptr<i32>> -> tile<1xi32>, token
      %set = cmpi not_equal %seen#0, %zero, signed : tile<1xi32> -> tile<1xi1>
      %go = reshape %set : tile<1xi1> -> tile<i1>
      if %go {
        break %turns : tile<i32>
      }
      %next = addi %turns, %c1 : tile<i32>
      %late = cmpi greater_than_or_equal %next, %patience, signed : tile<i32> -> tile<i1>
      if %late {
        %n1 = reshape %next : tile<i32> -> tile<1xi32>
        %old:2 = atomic_rmw_tko relaxed device %p1, xchg, %n1 {tile_safety.unsafe} : tile<1xptr<i32>>, tile<1xi32> -> tile<1xi32>, token
        break %next : tile<i32>
      }
      continue %next : tile<i32>
    }
    %sw = store_view_tko weak %mine#0, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// `continue` in a branch after a store: the next iteration's load follows both
// stores, through the token each `continue` carries, and so do the accesses
// after the loop.
// CHECK-LABEL: entry @continue_after_store
// CHECK: %[[OUT:.+]]:2 = loop iter_values(%i = %c0, %[[TK:.+]] = %{{.+}}) : tile<i32>, token -> tile<i32>, token {
// CHECK: %v:2 = load_view_tko weak %pz[%b#0] token = %[[TK]] :
// CHECK: %[[IF:.+]] = if %even -> (token) {
// CHECK: %sd = store_view_tko weak %v#0, %pz[%b#0] token = %v#1 :
// CHECK-NEXT: continue %next, %sd : tile<i32>, token
// CHECK-NEXT: } else {
// CHECK-NEXT: yield %v#1 : token
// CHECK: %sa = store_view_tko weak %v#0, %pz[%b#0] token = %[[IF]] :
// CHECK-NEXT: continue %next, %sa : tile<i32>, token
// CHECK: %w:2 = load_view_tko weak %pz[%b#0] token = %[[OUT]]#1 :
// CHECK-NEXT: store_view_tko weak %w#0, %pz[%b#0] token = %w#1 :
cuda_tile.module @m {
  entry @continue_after_store(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c2 = constant <i32: 2> : tile<i32>
    %end = loop iter_values(%i = %c0) : tile<i32> -> tile<i32> {
      %done = cmpi greater_than_or_equal %i, %n, signed : tile<i32> -> tile<i1>
      if %done {
        break %i : tile<i32>
      }
      %next = addi %i, %c1 : tile<i32>
      %v:2 = load_view_tko weak %pz[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
      %r = remi %next, %c2 signed : tile<i32>
      %even = cmpi equal %r, %c0, signed : tile<i32> -> tile<i1>
      if %even {
        %sd = store_view_tko weak %v#0, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
        continue %next : tile<i32>
      }
      %sa = store_view_tko weak %v#0, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      continue %next : tile<i32>
    }
    %w:2 = load_view_tko weak %pz[%b#0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %sw = store_view_tko weak %w#0, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
