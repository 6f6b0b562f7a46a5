// RUN: %opt %s --split-input-file --verify-diagnostics -p bounds-check-elision | filecheck %s
// RUN: %opt %s --split-input-file --verify-diagnostics -p 'bounds-check-elision{report=true}' 2>&1 | filecheck %s --check-prefix=REPORT

// The store at the block's own index into the host-partitioned output:
// the grid is that output's index space, so 0 <= bid < num_tiles holds.
// REPORT: static: @own_tile: own tile
// CHECK-LABEL: entry @own_tile
// CHECK-NOT: check_index
// CHECK: store_view_tko
// CHECK-NOT: launch_checks
cuda_tile.module @m {
  entry @own_tile(%z: tile<ptr<f32>>, %n: tile<i32>, %t: tile<f32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tv = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %r = reshape %t : tile<f32> -> tile<1xf32>
    %v = broadcast %r : tile<1xf32> -> tile<16xf32>
    tile_safety.check_index %b#0, %pv[0], "own tile" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tok = store_view_tko weak %v, %pv[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// A load from another tensor at the block id: bid < num_tiles(z) is known,
// num_tiles(z) <= num_tiles(x) is not; it becomes a launch check.
// REPORT: launch: @input_tile: input tile
// CHECK-LABEL: entry @input_tile
// CHECK-NOT: check_index
// CHECK: tile_safety.launch_checks = [#tile_safety.launch_check<"input tile": ceil_div(z.shape[0], 16) - 1 < ceil_div(x.shape[0], 16)>]
cuda_tile.module @m {
  entry @input_tile(%z: tile<ptr<f32>>, %n: tile<i32>, %x: tile<ptr<f32>>, %m: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tx = make_tensor_view %x, shape = [%m], strides = [1] {tile_safety.access = #tile_safety.access<shared>, tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    tile_safety.check_index %b#0, %px[0], "input tile" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    return
  }
}

// -----

// A loop over num_tiles of the view it indexes: static, through `assume`.
// REPORT: static: @loop_range: loop over own tiles
// CHECK-LABEL: entry @loop_range
// CHECK: for %k
// CHECK-NOT: check_index
// CHECK: load_view_tko
cuda_tile.module @m {
  entry @loop_range(%x: tile<ptr<f32>>, %m: tile<i32>) {
    %ma = assume bounded<0, ?>, %m : tile<i32>
    %tx = make_tensor_view %x, shape = [%ma], strides = [1] {tile_safety.access = #tile_safety.access<shared>, tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %nt = get_index_space_shape %px : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> -> tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %k in (%c0 to %nt, step %c1) : tile<i32> {
      tile_safety.check_index %k, %px[0], "loop over own tiles" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
      %t:2 = load_view_tko weak %px[%k] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    }
    return
  }
}

// -----

// The GEMM reduction: k runs over x's column tiles and indexes y's rows;
// the shapes are separate arguments, so num_tiles(x, 1) <= num_tiles(y, 0)
// is a launch check.  (Had both tensors taken the same size value, the
// extents would be equal and the check static.)
// REPORT: static: @reduction: x col
// REPORT: launch: @reduction: y row
// CHECK-LABEL: entry @reduction
// CHECK-NOT: check_index
// CHECK: tile_safety.launch_checks = [#tile_safety.launch_check<"y row": ceil_div(x.shape[1], 32) - 1 < ceil_div(y.shape[0], 32)>]
cuda_tile.module @m {
  entry @reduction(%x: tile<ptr<f32>>, %m: tile<i32>, %k: tile<i32>, %y: tile<ptr<f32>>, %k2: tile<i32>, %n: tile<i32>) {
    %tx = make_tensor_view %x, shape = [%m, %k], strides = [%k, 1] {tile_safety.arg = "x"} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ty = make_tensor_view %y, shape = [%k2, %n], strides = [%n, 1] {tile_safety.arg = "y"} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %px = make_partition_view %tx : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>>
    %py = make_partition_view %ty : partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>
    %nt:2 = get_index_space_shape %px : partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %i in (%c0 to %nt#1, step %c1) : tile<i32> {
      tile_safety.check_index %i, %px[1], "x col" : tile<i32>, partition_view<tile=(16x32), tensor_view<?x?xf32, strides=[?,1]>>
      tile_safety.check_index %i, %py[0], "y row" : tile<i32>, partition_view<tile=(32x16), tensor_view<?x?xf32, strides=[?,1]>>
    }
    return
  }
}

// -----

// Constants against a static shape: 3 < ceil(64/16) = 4 holds; 4 does not,
// so that check stays (the assert will report it).
// REPORT: static: @constants: in range
// REPORT: in-kernel: @constants: out of range
// CHECK-LABEL: entry @constants
// CHECK-NOT: "in range"
// CHECK: tile_safety.check_index %c4, %px[0], "out of range"
cuda_tile.module @m {
  entry @constants(%x: tile<ptr<f32>>) {
    %tx = make_tensor_view %x, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %c3 = constant <i32: 3> : tile<i32>
    %c4 = constant <i32: 4> : tile<i32>
    tile_safety.check_index %c3, %px[0], "in range" : tile<i32>, partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    tile_safety.check_index %c4, %px[0], "out of range" : tile<i32>, partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    return
  }
}

// -----

// `assume bounded<0, 3>` proves an unknown argument in range of a static view.
// REPORT: static: @assumed: assumed
// CHECK-LABEL: entry @assumed
// CHECK-NOT: check_index
cuda_tile.module @m {
  entry @assumed(%x: tile<ptr<f32>>, %i: tile<i32>) {
    %tx = make_tensor_view %x, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %a = assume bounded<0, 3>, %i : tile<i32>
    tile_safety.check_index %a, %px[0], "assumed" : tile<i32>, partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    return
  }
}

// -----

// An unknown index stays in the kernel, hoisted out of both loops that
// do not define it and surely run (constant bounds, 0 < 4); k + 1 <= 4 is
// decided at launch (4 < number of tiles).
// REPORT: in-kernel: @hoisted: unknown
// REPORT: launch: @hoisted: next tile
// CHECK-LABEL: entry @hoisted
// CHECK: tile_safety.check_index %i, %px[0], "unknown"
// CHECK-NEXT: for %j
// CHECK-NEXT: for %k
// CHECK-NEXT: %k1 = addi %k, %c1
// CHECK-NOT: check_index {{.*}}"next tile"
// CHECK: tile_safety.launch_checks = [#tile_safety.launch_check<"next tile": 4 < ceil_div(x.shape[0], 16)>]
cuda_tile.module @m {
  entry @hoisted(%x: tile<ptr<f32>>, %m: tile<i32>, %i: tile<i32>) {
    %tx = make_tensor_view %x, shape = [%m], strides = [1] {tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %nt = get_index_space_shape %px : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> -> tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c4 = constant <i32: 4> : tile<i32>
    for %j in (%c0 to %c4, step %c1) : tile<i32> {
      for %k in (%c0 to %c4, step %c1) : tile<i32> {
        tile_safety.check_index %i, %px[0], "unknown" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
        %k1 = addi %k, %c1 : tile<i32>
        tile_safety.check_index %k1, %px[0], "next tile" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
      }
    }
    return
  }
}

// -----

// A for loop that may run zero times (0 to num_tiles, and num_tiles may be 0):
// the invariant check moves in front of it under the loop's own condition
// (lb < ub), so it runs once, and not at all where the body never runs.
// REPORT: in-kernel: @zero_trip: zero trip
// CHECK-LABEL: entry @zero_trip
// CHECK: %[[RUNS:.*]] = cmpi less_than %c0, %nt, signed : tile<i32> -> tile<i1>
// CHECK-NEXT: if %[[RUNS]] {
// CHECK-NEXT: tile_safety.check_index %i, %px[0], "zero trip"
// CHECK-NEXT: }
// CHECK-NEXT: for %j in (%c0 to %nt, step %c1) : tile<i32> {
// CHECK-NEXT: }
cuda_tile.module @m {
  entry @zero_trip(%x: tile<ptr<f32>>, %m: tile<i32>, %i: tile<i32>) {
    %tx = make_tensor_view %x, shape = [%m], strides = [1] {tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %nt = get_index_space_shape %px : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> -> tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %j in (%c0 to %nt, step %c1) : tile<i32> {
      tile_safety.check_index %i, %px[0], "zero trip" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    }
    return
  }
}

// -----

// A possibly negative index (k - 1 at k = 0) is not proved: in-kernel.
// REPORT: in-kernel: @negative: previous tile
// CHECK-LABEL: entry @negative
// CHECK: tile_safety.check_index %p, %px[0], "previous tile"
cuda_tile.module @m {
  entry @negative(%x: tile<ptr<f32>>, %m: tile<i32>) {
    %tx = make_tensor_view %x, shape = [%m], strides = [1] {tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %nt = get_index_space_shape %px : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> -> tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %k in (%c0 to %nt, step %c1) : tile<i32> {
      %p = subi %k, %c1 : tile<i32>
      tile_safety.check_index %p, %px[0], "previous tile" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    }
    return
  }
}

// -----

// Without a host-partitioned output the grid is unknown: a block id indexing
// an input keeps its in-kernel check.
// REPORT: in-kernel: @no_grid: no grid
// CHECK-LABEL: entry @no_grid
// CHECK: tile_safety.check_index %b#0, %px[0], "no grid"
cuda_tile.module @m {
  entry @no_grid(%x: tile<ptr<f32>>, %m: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tx = make_tensor_view %x, shape = [%m], strides = [1] {tile_safety.access = #tile_safety.access<mapped>, tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    tile_safety.check_index %b#0, %px[0], "no grid" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    return
  }
}

// -----

// The entry's unchecked_accesses removes every check, provable or not.
// REPORT: unchecked: @unchecked: dropped
// CHECK-LABEL: entry @unchecked
// CHECK-NOT: check_index
cuda_tile.module @m {
  entry @unchecked(%x: tile<ptr<f32>>, %m: tile<i32>, %i: tile<i32>) {
    %tx = make_tensor_view %x, shape = [%m], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    tile_safety.check_index %i, %px[0], "dropped" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    return
  } {tile_safety.unchecked_accesses}
}

// -----

// The entry's deny_in_kernel_checks: a check that must stay is an error
// naming its access (a provable one is fine).
// CHECK: error: k.py:9:5: load: this index check needs an in-kernel assert, but @denied is compiled with deny_in_kernel_checks
// expected-error {{this index check needs an in-kernel assert}}
cuda_tile.module @m {
  entry @denied(%x: tile<ptr<f32>>, %i: tile<i32>) {
    %tx = make_tensor_view %x, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    tile_safety.check_index %c0, %px[0], "provable" : tile<i32>, partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    tile_safety.check_index %i, %px[0], "load" : tile<i32>, partition_view<tile=(16), tensor_view<64xf32, strides=[1]>> loc("k.py":9:5)
    return
  } {tile_safety.deny_in_kernel_checks}
}

// -----

// The mapped iterator's column, t % num_tiles(z, 1) with t >= 0, is in range
// of dim 1; its row t / num_tiles(z, 1), with t < num_tiles(z, 0) *
// num_tiles(z, 1), is below num_tiles(z, 0): both static.
// A remainder by a constant: 0 <= i % 4 <= 3 < ceil(64/16).
// REPORT: static: @remainders: row
// REPORT: static: @remainders: column
// REPORT: static: @remainders: remainder
// CHECK-LABEL: entry @remainders
// CHECK-NOT: check_index
// CHECK: return
cuda_tile.module @m {
  entry @remainders(%z: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %i: tile<i32>) {
    %nb:3 = get_num_tile_blocks : tile<i32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%m, %n], strides = [%n, 1] {tile_safety.access = #tile_safety.access<mapped>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %total = muli %s#0, %s#1 : tile<i32>
    for %t in (%b#0 to %total, step %nb#0) : tile<i32> {
      %r = divi %t, %s#1 signed : tile<i32>
      %c = remi %t, %s#1 signed : tile<i32>
      tile_safety.check_index %r, %pz[0], "row" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
      tile_safety.check_index %c, %pz[1], "column" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    }
    %tx = make_tensor_view %z, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %ia = assume bounded<0, ?>, %i : tile<i32>
    %c4 = constant <i32: 4> : tile<i32>
    %q = remi %ia, %c4 signed : tile<i32>
    tile_safety.check_index %q, %px[0], "remainder" : tile<i32>, partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    return
  }
}

// -----

// permute_heads' `b, h = bid // 4, bid % 4` (Python's %: remi, then select on
// a negative remainder, which the interval of the remainder rules out): h is
// statically below the 4 heads; b is bounded by the grid over 4, a launch check.
// REPORT: launch: @heads: batch index
// REPORT: static: @heads: head index
// CHECK-LABEL: entry @heads
// CHECK-NOT: check_index
// CHECK: tile_safety.launch_checks = [#tile_safety.launch_check<"batch index": (ceil_div(z.shape[0], 1) - 1) floordiv 4 < ceil_div(x.shape[0], 1)>]
cuda_tile.module @m {
  entry @heads(%z: tile<ptr<f32>>, %n: tile<i32>, %x: tile<ptr<f32>>, %m: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 1>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tx = make_tensor_view %x, shape = [%m, 4], strides = [4, 1] {tile_safety.access = #tile_safety.access<shared>, tile_safety.arg = "x"} : tile<i32> -> tensor_view<?x4xf32, strides=[4,1]>
    %px = make_partition_view %tx : partition_view<tile=(1x1), tensor_view<?x4xf32, strides=[4,1]>>
    %c4 = constant <i32: 4> : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %bi = divi %b#0, %c4 signed rounding<negative_inf> : tile<i32>
    %r = remi %b#0, %c4 signed : tile<i32>
    %neg = cmpi less_than %r, %c0, signed : tile<i32> -> tile<i1>
    %up = addi %r, %c4 : tile<i32>
    %h = select %neg, %up, %r : tile<i1>, tile<i32>
    tile_safety.check_index %bi, %px[0], "batch index" : tile<i32>, partition_view<tile=(1x1), tensor_view<?x4xf32, strides=[4,1]>>
    tile_safety.check_index %h, %px[1], "head index" : tile<i32>, partition_view<tile=(1x1), tensor_view<?x4xf32, strides=[4,1]>>
    return
  }
}

// -----

// A mapped partition's tiles t = bid, bid + nblocks, ... < n0 * n1 (what
// tile_indices() walks): the row t / n1 is below n0 and the column t % n1
// below n1, so the output's own checks are static and reading another
// tensor at that row is a launch check.
// REPORT: launch: @mapped_rows: x row
// REPORT: static: @mapped_rows: own row
// REPORT: static: @mapped_rows: own column
// CHECK-LABEL: entry @mapped_rows
// CHECK-NOT: check_index
// CHECK: tile_safety.launch_checks = [#tile_safety.launch_check<"x row": ceil_div(z.shape[0], 128) - 1 < ceil_div(x.shape[0], 128)>]
cuda_tile.module @m {
  entry @mapped_rows(%z: tile<ptr<f32>>, %zm: tile<i32>, %zn: tile<i32>, %x: tile<ptr<f32>>, %xm: tile<i32>) {
    %tz = make_tensor_view %z, shape = [%zm, %zn], strides = [%zn, 1] {tile_safety.arg = "z"} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
    %tx = make_tensor_view %x, shape = [%xm], strides = [1] {tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>
    %nb:3 = get_num_tile_blocks : tile<i32>
    %bid:3 = get_tile_block_id : tile<i32>
    %n:2 = get_index_space_shape %pz : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %count = muli %n#0, %n#1 : tile<i32>
    for %t in (%bid#0 to %count, step %nb#0) : tile<i32> {
      %row = divi %t, %n#1 signed : tile<i32>
      %col = remi %t, %n#1 signed : tile<i32>
      tile_safety.check_index %row, %px[0], "x row" : tile<i32>, partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>
      tile_safety.check_index %row, %pz[0], "own row" : tile<i32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
      tile_safety.check_index %col, %pz[1], "own column" : tile<i32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
    }
    return
  }
}

// -----

// An access under an `if` may never run: a launch check (blind to the
// condition) would refuse launches that are fine, so it stays in the kernel.
// REPORT: in-kernel: @under_if: next tile
// CHECK-LABEL: entry @under_if
// CHECK: if %run {
// CHECK-NEXT: tile_safety.check_index %next, %px[0], "next tile"
// CHECK-NOT: launch_checks
cuda_tile.module @m {
  entry @under_if(%z: tile<ptr<f32>>, %n: tile<i32>, %x: tile<ptr<f32>>, %m: tile<i32>, %lim: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tx = make_tensor_view %x, shape = [%m], strides = [1] {tile_safety.access = #tile_safety.access<shared>, tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c1 = constant <i32: 1> : tile<i32>
    %next = addi %b#0, %c1 : tile<i32>
    %run = cmpi less_than %b#0, %lim, signed : tile<i32> -> tile<i1>
    if %run {
      tile_safety.check_index %next, %px[0], "next tile" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    }
    return
  }
}

// -----

// The grouped tile order (index_math.py) of a host-partitioned output: its
// number t = bid.x + bid.y * n0 is in [0, n0 * n1) on the n0 x n1 grid, so the
// grouped row m is below n0 and the column n below n1: both static.  A row of
// another tensor's partition is a launch check (z's n0 against x's), as for
// the block id.
// REPORT: static: @grouped_host: row
// REPORT: static: @grouped_host: column
// REPORT: launch: @grouped_host: x row
// CHECK-LABEL: entry @grouped_host
// CHECK-NOT: check_index
// CHECK: return
cuda_tile.module @m {
  entry @grouped_host(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>, %x: tile<ptr<f32>>, %xr: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %tx = make_tensor_view %x, shape = [%xr], strides = [1] {tile_safety.access = #tile_safety.access<shared>, tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %y = muli %b#1, %s#0 : tile<i32>
    %t = addi %b#0, %y : tile<i32>
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
    tile_safety.check_index %m, %pz[0], "row" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    tile_safety.check_index %n, %pz[1], "column" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    tile_safety.check_index %m, %px[0], "x row" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    return
  }
}

// -----

// The grouped order of a mapped output's tile numbers, for t in [bid.x, n0 * n1):
// static.  The same coordinates over a loop that runs past n0 * n1 prove
// nothing (rows may be 0 or negative there): in-kernel.
// REPORT: static: @grouped_mapped: row
// REPORT: static: @grouped_mapped: column
// REPORT: in-kernel: @grouped_mapped: row past the end
// REPORT: in-kernel: @grouped_mapped: column past the end
// CHECK-LABEL: entry @grouped_mapped
// CHECK-COUNT-2: tile_safety.check_index
// CHECK-NOT: tile_safety.check_index
cuda_tile.module @m {
  entry @grouped_mapped(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %nb:3 = get_num_tile_blocks : tile<i32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mapped>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %total = muli %s#0, %s#1 : tile<i32>
    %g = constant <i32: 8> : tile<i32>
    %width = muli %g, %s#1 : tile<i32>
    for %t in (%b#0 to %total, step %nb#0) : tile<i32> {
      %group = divi %t, %width signed : tile<i32>
      %first = muli %group, %g : tile<i32>
      %left = subi %s#0, %first : tile<i32>
      %rows = mini %left, %g signed : tile<i32>
      %within = remi %t, %width signed : tile<i32>
      %row = remi %within, %rows signed : tile<i32>
      %m = addi %first, %row : tile<i32>
      %n = divi %within, %rows signed : tile<i32>
      tile_safety.check_index %m, %pz[0], "row" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
      tile_safety.check_index %n, %pz[1], "column" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    }
    %c1 = constant <i32: 1> : tile<i32>
    %beyond = addi %total, %c1 : tile<i32>
    for %u in (%b#0 to %beyond, step %nb#0) : tile<i32> {
      %group = divi %u, %width signed : tile<i32>
      %first = muli %group, %g : tile<i32>
      %left = subi %s#0, %first : tile<i32>
      %rows = mini %left, %g signed : tile<i32>
      %within = remi %u, %width signed : tile<i32>
      %row = remi %within, %rows signed : tile<i32>
      %m = addi %first, %row : tile<i32>
      %n = divi %within, %rows signed : tile<i32>
      tile_safety.check_index %m, %pz[0], "row past the end" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
      tile_safety.check_index %n, %pz[1], "column past the end" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    }
    return
  }
}

// -----

// mini: the smaller of the two upper bounds where they compare.
// REPORT: static: @minimum: min with 3
// REPORT: in-kernel: @minimum: min of unknowns
// CHECK-LABEL: entry @minimum
// CHECK-COUNT-1: tile_safety.check_index
// CHECK-NOT: tile_safety.check_index
cuda_tile.module @m {
  entry @minimum(%x: tile<ptr<f32>>, %i: tile<i32>, %j: tile<i32>) {
    %tx = make_tensor_view %x, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %ia = assume bounded<0, ?>, %i : tile<i32>
    %c3 = constant <i32: 3> : tile<i32>
    %a = mini %ia, %c3 signed : tile<i32>
    tile_safety.check_index %a, %px[0], "min with 3" : tile<i32>, partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %b = mini %i, %j signed : tile<i32>
    tile_safety.check_index %b, %px[0], "min of unknowns" : tile<i32>, partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    return
  }
}
