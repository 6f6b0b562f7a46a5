// RUN: %opt %s --split-input-file --verify-diagnostics -p partition-disjointness | filecheck %s
// RUN: %opt %s --split-input-file --verify-diagnostics -p 'partition-disjointness{report=true}' 2>&1 | filecheck %s --check-prefix=REPORT

// Permute heads, correct: block (bh, s, 0) stores its own tile of z.
// REPORT: mut: k.py:25:5: store to 'z'
// CHECK-LABEL: entry @permute_heads
// CHECK: store_view_tko weak %t, %pz[%b#0, %b#1, %b#2]
cuda_tile.module @m {
  entry @permute_heads(%z: tile<ptr<f32>>, %n0: tile<i32>, %n1: tile<i32>, %n2: tile<i32>) {
    %t = constant <f32: 0.0> : tile<1x32x128xf32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n0, %n1, %n2], strides = [%n1, %n2, 1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 1, 32, 128>} : tile<i32> -> tensor_view<?x?x?xf32, strides=[?,?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(1x32x128), tensor_view<?x?x?xf32, strides=[?,?,1]>>
    tile_safety.check_index %b#0, %pz[0], "z.store" : tile<i32>, partition_view<tile=(1x32x128), tensor_view<?x?x?xf32, strides=[?,?,1]>> loc("k.py":25:5)
    %tok = store_view_tko weak %t, %pz[%b#0, %b#1, %b#2] : tile<1x32x128xf32>, partition_view<tile=(1x32x128), tensor_view<?x?x?xf32, strides=[?,?,1]>>, tile<i32> -> token loc("k.py":25:5)
    return
  }
}

// -----

// Permute heads, racy (the seed paper's bug): the store indices are swapped,
// so blocks (0, 1) and (1, 0) write each other's tiles.
// CHECK: error: k.py:31:5: cannot prove that this store to 'z' writes a tile no other tile block writes (a possible data race)
// expected-error {{cannot prove that this store to 'z' writes a tile no other tile block writes}}
cuda_tile.module @m {
  entry @permute_heads_racy(%z: tile<ptr<f32>>, %n0: tile<i32>, %n1: tile<i32>, %n2: tile<i32>) {
    %t = constant <f32: 0.0> : tile<1x32x128xf32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n0, %n1, %n2], strides = [%n1, %n2, 1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 1, 32, 128>} : tile<i32> -> tensor_view<?x?x?xf32, strides=[?,?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(1x32x128), tensor_view<?x?x?xf32, strides=[?,?,1]>>
    tile_safety.check_index %b#1, %pz[0], "z.store" : tile<i32>, partition_view<tile=(1x32x128), tensor_view<?x?x?xf32, strides=[?,?,1]>> loc("k.py":31:5)
    %tok = store_view_tko weak %t, %pz[%b#1, %b#0, %b#2] : tile<1x32x128xf32>, partition_view<tile=(1x32x128), tensor_view<?x?x?xf32, strides=[?,?,1]>>, tile<i32> -> token loc("k.py":31:5)
    return
  }
}

// -----

// A constant index into a host-partitioned output: every block writes tile 0.
// CHECK: error: k.py:7:5: cannot prove that this store to 'z'
// expected-error {{store at the tile block's own tile (z.store(tile), index = tile block id in order)}}
cuda_tile.module @m {
  entry @constant_index(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %t = constant <f32: 0.0> : tile<16xf32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    tile_safety.check_index %c0, %pz[0], "z.store" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> loc("k.py":7:5)
    %tok = store_view_tko weak %t, %pz[%c0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token loc("k.py":7:5)
    return
  }
}

// -----

// Block id plus one: neighbours overlap.  Without a location on the store the
// error names the entry.
// CHECK: error: @shifted: cannot prove that this store to 'z'
// expected-error {{cannot prove that this store to 'z'}}
cuda_tile.module @m {
  entry @shifted(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %t = constant <f32: 0.0> : tile<16xf32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c1 = constant <i32: 1> : tile<i32>
    %i = addi %b#0, %c1 : tile<i32>
    %tok = store_view_tko weak %t, %pz[%i] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// Persistent GEMM: a mapped partition walked by t = bid, bid + nblocks, ...
// and stored at (t / n1, t % n1) with n1 = num_tiles(z, 1).
// REPORT: mapped: k.py:34:9: store to 'z'
// CHECK-LABEL: entry @persistent
// CHECK: store_view_tko weak %t, %pz[%r, %c]
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
      tile_safety.check_index %r, %pz[0], "z.store" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> loc("k.py":34:9)
      %tok = store_view_tko weak %t, %pz[%r, %c] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":34:9)
    }
    return
  }
}

// -----

// Mapped, but the iterator's row and column are swapped: (t % n1, t / n1)
// is not injective against the partition's shape.
// CHECK: error: k.py:40:9: cannot prove
// expected-error {{store at an index taken from z.tile_indices(), unchanged}}
cuda_tile.module @m {
  entry @mapped_swapped(%z: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>) {
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
      tile_safety.check_index %c, %pz[0], "z.store" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> loc("k.py":40:9)
      %tok = store_view_tko weak %t, %pz[%c, %r] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":40:9)
    }
    return
  }
}

// -----

// Mapped, but the loop steps by 1 from the block id: blocks overlap.
// CHECK: error: @mapped_step_one: cannot prove
// expected-error {{cannot prove that this store to 'z'}}
cuda_tile.module @m {
  entry @mapped_step_one(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %t = constant <f32: 0.0> : tile<16xf32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mapped>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %s = get_index_space_shape %pz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> -> tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %idx in (%b#0 to %s, step %c1) : tile<i32> {
      %tok = store_view_tko weak %t, %pz[%idx] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    }
    return
  }
}

// -----

// 1-d mapped with the right loop: proved.
// REPORT: mapped: @mapped_1d: store to 'z'
// CHECK-LABEL: entry @mapped_1d
cuda_tile.module @m {
  entry @mapped_1d(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %t = constant <f32: 0.0> : tile<16xf32>
    %nb:3 = get_num_tile_blocks : tile<i32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mapped>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %s = get_index_space_shape %pz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> -> tile<i32>
    for %idx in (%b#0 to %s, step %nb#0) : tile<i32> {
      %tok = store_view_tko weak %t, %pz[%idx] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    }
    return
  }
}

// -----

// Unsafe code is exempt, but listed; views of unmarked tensors are not this
// pass's business.
// REPORT: unsafe (exempt): @exempt: store to 'z'
// CHECK-LABEL: entry @exempt
cuda_tile.module @m {
  entry @exempt(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %t = constant <f32: 0.0> : tile<16xf32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %tok = store_view_tko weak %t, %pz[%c0] attributes {tile_safety.unsafe} : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %tv = make_tensor_view %z, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tok2 = store_view_tko weak %t, %pv[%c0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// A store to a shared (read-only) tensor races with every block reading it.
// CHECK: error: k.py:9:5: store to 'x', a read-only (shared) tensor that every tile block may read (a data race)
// expected-error {{store to 'x', a read-only (shared) tensor}}
cuda_tile.module @m {
  entry @shared_store(%x: tile<ptr<f32>>, %n: tile<i32>) {
    %t = constant <f32: 0.0> : tile<16xf32>
    %b:3 = get_tile_block_id : tile<i32>
    %tx = make_tensor_view %x, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<shared>, tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    tile_safety.check_index %b#0, %px[0], "x.store" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> loc("k.py":9:5)
    %tok = store_view_tko weak %t, %px[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token loc("k.py":9:5)
    return
  }
}

// -----

// Grouped order of a host-partitioned output (z.tile_index(order=st.grouped(4))):
// t = bid.x + bid.y * n0 numbers the n0 x n1 grid's blocks one to one, and the
// grouped tile of t is one to one on [0, n0 * n1).  The load of the own tile
// follows the same order.
// REPORT: mut grouped(4): k.py:12:5: load of 'z'
// REPORT: mut grouped(4): k.py:13:5: store to 'z'
// CHECK-LABEL: entry @grouped_mut
// CHECK: store_view_tko weak %l#0, %pz[%m, %n]
cuda_tile.module @m {
  entry @grouped_mut(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %y = muli %b#1, %s#0 : tile<i32>
    %t = addi %b#0, %y : tile<i32>
    %g = constant <i32: 4> : tile<i32>
    %width = muli %g, %s#1 : tile<i32>
    %group = divi %t, %width signed : tile<i32>
    %first = muli %group, %g : tile<i32>
    %left = subi %s#0, %first : tile<i32>
    %rows = mini %left, %g signed : tile<i32>
    %within = remi %t, %width signed : tile<i32>
    %row = remi %within, %rows signed : tile<i32>
    %m = addi %first, %row : tile<i32>
    %n = divi %within, %rows signed : tile<i32>
    %l:2 = load_view_tko weak %pz[%m, %n] : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<16x16xf32>, token loc("k.py":12:5)
    %tok = store_view_tko weak %l#0, %pz[%m, %n] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":13:5)
    return
  }
}

// -----

// Grouped order of a mapped output (z.tile_indices(order=st.grouped(8))): the
// loop's t runs over [0, n0 * n1) (commuted operands are the same formula).
// REPORT: mapped grouped(8): k.py:20:9: store to 'z'
// CHECK-LABEL: entry @grouped_mapped
cuda_tile.module @m {
  entry @grouped_mapped(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %v = constant <f32: 0.0> : tile<16x16xf32>
    %nb:3 = get_num_tile_blocks : tile<i32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mapped>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %total = muli %s#0, %s#1 : tile<i32>
    for %t in (%b#0 to %total, step %nb#0) : tile<i32> {
      %g = constant <i32: 8> : tile<i32>
      %width = muli %s#1, %g : tile<i32>
      %group = divi %t, %width signed : tile<i32>
      %first = muli %g, %group : tile<i32>
      %left = subi %s#0, %first : tile<i32>
      %rows = mini %g, %left signed : tile<i32>
      %within = remi %t, %width signed : tile<i32>
      %row = remi %within, %rows signed : tile<i32>
      %m = addi %row, %first : tile<i32>
      %n = divi %within, %rows signed : tile<i32>
      %tok = store_view_tko weak %v, %pz[%m, %n] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":20:9)
    }
    return
  }
}

// -----

// Not one to one: n = (t % width) / G instead of / rows.  With n0 = 3, n1 = 2,
// G = 2, tiles 4 and 5 (the short last group) both land on (2, 0).
// CHECK: error: k.py:30:9: cannot prove that this store to 'z' writes a tile no other tile block writes
// expected-error {{store at an index taken from z.tile_indices(), unchanged}}
cuda_tile.module @m {
  entry @grouped_by_group(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %v = constant <f32: 0.0> : tile<16x16xf32>
    %nb:3 = get_num_tile_blocks : tile<i32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mapped>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %total = muli %s#0, %s#1 : tile<i32>
    for %t in (%b#0 to %total, step %nb#0) : tile<i32> {
      %g = constant <i32: 2> : tile<i32>
      %width = muli %g, %s#1 : tile<i32>
      %group = divi %t, %width signed : tile<i32>
      %first = muli %group, %g : tile<i32>
      %left = subi %s#0, %first : tile<i32>
      %rows = mini %left, %g signed : tile<i32>
      %within = remi %t, %width signed : tile<i32>
      %row = remi %within, %rows signed : tile<i32>
      %m = addi %first, %row : tile<i32>
      %n = divi %within, %g signed : tile<i32>
      %tok = store_view_tko weak %v, %pz[%m, %n] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":30:9)
    }
    return
  }
}

// -----

// The grouped formula, but the loop runs past n0 * n1 (to n0 * n1 + 1): there
// rows can be 0 or negative and the map is not one to one.
// CHECK: error: k.py:40:9: cannot prove that this store to 'z'
// expected-error {{cannot prove that this store to 'z' writes a tile no other tile block writes}}
cuda_tile.module @m {
  entry @grouped_past_the_end(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %v = constant <f32: 0.0> : tile<16x16xf32>
    %nb:3 = get_num_tile_blocks : tile<i32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mapped>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %total = muli %s#0, %s#1 : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %beyond = addi %total, %c1 : tile<i32>
    for %t in (%b#0 to %beyond, step %nb#0) : tile<i32> {
      %g = constant <i32: 2> : tile<i32>
      %width = muli %g, %s#1 : tile<i32>
      %group = divi %t, %width signed : tile<i32>
      %first = muli %group, %g : tile<i32>
      %left = subi %s#0, %first : tile<i32>
      %rows = mini %left, %g signed : tile<i32>
      %within = remi %t, %width signed : tile<i32>
      %row = remi %within, %rows signed : tile<i32>
      %m = addi %first, %row : tile<i32>
      %n = divi %within, %rows signed : tile<i32>
      %tok = store_view_tko weak %v, %pz[%m, %n] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":40:9)
    }
    return
  }
}

// -----

// Host-partitioned, but the block number is bid.x + bid.y * n1: on an
// n0 x n1 grid two blocks get one number when n0 != n1.
// CHECK: error: k.py:50:5: cannot prove that this store to 'z'
// expected-error {{or at z.tile_index(order=...)}}
cuda_tile.module @m {
  entry @grouped_wrong_stride(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %v = constant <f32: 0.0> : tile<16x16xf32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %y = muli %b#1, %s#1 : tile<i32>
    %t = addi %b#0, %y : tile<i32>
    %g = constant <i32: 4> : tile<i32>
    %width = muli %g, %s#1 : tile<i32>
    %group = divi %t, %width signed : tile<i32>
    %first = muli %group, %g : tile<i32>
    %left = subi %s#0, %first : tile<i32>
    %rows = mini %left, %g signed : tile<i32>
    %within = remi %t, %width signed : tile<i32>
    %row = remi %within, %rows signed : tile<i32>
    %m = addi %first, %row : tile<i32>
    %n = divi %within, %rows signed : tile<i32>
    %tok = store_view_tko weak %v, %pz[%m, %n] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":50:5)
    return
  }
}

// -----

// A group of 0 is no order at all (rows = min(n0 - 0, 0) = 0: a division by zero).
// CHECK: error: k.py:60:5: cannot prove that this store to 'z'
// expected-error {{cannot prove that this store to 'z'}}
cuda_tile.module @m {
  entry @grouped_zero(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %v = constant <f32: 0.0> : tile<16x16xf32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %y = muli %b#1, %s#0 : tile<i32>
    %t = addi %b#0, %y : tile<i32>
    %g = constant <i32: 0> : tile<i32>
    %width = muli %g, %s#1 : tile<i32>
    %group = divi %t, %width signed : tile<i32>
    %first = muli %group, %g : tile<i32>
    %left = subi %s#0, %first : tile<i32>
    %rows = mini %left, %g signed : tile<i32>
    %within = remi %t, %width signed : tile<i32>
    %row = remi %within, %rows signed : tile<i32>
    %m = addi %first, %row : tile<i32>
    %n = divi %within, %rows signed : tile<i32>
    %tok = store_view_tko weak %v, %pz[%m, %n] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":60:5)
    return
  }
}

// -----

// Two tile orders on one output: the block's own tile (bid.x, bid.y) and the
// grouped tile of its number.  Each is one to one, but block A's own tile can be
// block B's grouped tile.
// CHECK: error: k.py:71:5: this store to 'z' follows the grouped order st.grouped(2) but the access at k.py:70:5 follows the default tile order
// expected-error {{give every access to 'z' the same order}}
cuda_tile.module @m {
  entry @two_orders(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %v = constant <f32: 0.0> : tile<16x16xf32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %own = store_view_tko weak %v, %pz[%b#0, %b#1] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":70:5)
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %y = muli %b#1, %s#0 : tile<i32>
    %t = addi %b#0, %y : tile<i32>
    %g = constant <i32: 2> : tile<i32>
    %width = muli %g, %s#1 : tile<i32>
    %group = divi %t, %width signed : tile<i32>
    %first = muli %group, %g : tile<i32>
    %left = subi %s#0, %first : tile<i32>
    %rows = mini %left, %g signed : tile<i32>
    %within = remi %t, %width signed : tile<i32>
    %row = remi %within, %rows signed : tile<i32>
    %m = addi %first, %row : tile<i32>
    %n = divi %within, %rows signed : tile<i32>
    %tok = store_view_tko weak %v, %pz[%m, %n] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":71:5)
    return
  }
}

// -----

// A load of a mutable output at a tile the block does not own races with that
// tile's writer.
// CHECK: error: k.py:80:10: cannot prove that this load of 'z' reads a tile no other tile block writes
// expected-error {{load at the tile block's own tile (z.load(), index = tile block id in order)}}
cuda_tile.module @m {
  entry @load_other_tile(%z: tile<ptr<f32>>, %n: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c1 = constant <i32: 1> : tile<i32>
    %i = addi %b#0, %c1 : tile<i32>
    %l:2 = load_view_tko weak %pz[%i] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token loc("k.py":80:10)
    %tok = store_view_tko weak %l#0, %pz[%b#0] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}

// -----

// The grouped order with its columns reversed (st.grouped(4, reverse=True)): the
// column is (n1 - 1) - n, a bijection of [0, n1), so still one tile a block.
// REPORT: mut grouped(4, reverse): k.py:82:5: load of 'z'
// REPORT: mut grouped(4, reverse): k.py:83:5: store to 'z'
// CHECK-LABEL: entry @grouped_reversed
// CHECK: store_view_tko weak %l#0, %pz[%m, %nr]
cuda_tile.module @m {
  entry @grouped_reversed(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %y = muli %b#1, %s#0 : tile<i32>
    %t = addi %b#0, %y : tile<i32>
    %g = constant <i32: 4> : tile<i32>
    %width = muli %g, %s#1 : tile<i32>
    %group = divi %t, %width signed : tile<i32>
    %first = muli %group, %g : tile<i32>
    %left = subi %s#0, %first : tile<i32>
    %rows = mini %left, %g signed : tile<i32>
    %within = remi %t, %width signed : tile<i32>
    %row = remi %within, %rows signed : tile<i32>
    %m = addi %first, %row : tile<i32>
    %n = divi %within, %rows signed : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %last = subi %s#1, %one : tile<i32>
    %nr = subi %last, %n : tile<i32>
    %l:2 = load_view_tko weak %pz[%m, %nr] : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<16x16xf32>, token loc("k.py":82:5)
    %tok = store_view_tko weak %l#0, %pz[%m, %nr] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":83:5)
    return
  }
}

// -----

// Reversed by one too many: n1 - n is n1 for n = 0 (past the last column) and
// leaves column 0 to no block; refused.
// CHECK: error: k.py:85:5: cannot prove that this store to 'z'
// expected-error {{cannot prove that this store to 'z' writes a tile no other tile block writes}}
cuda_tile.module @m {
  entry @reversed_off_by_one(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %v = constant <f32: 0.0> : tile<16x16xf32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %y = muli %b#1, %s#0 : tile<i32>
    %t = addi %b#0, %y : tile<i32>
    %g = constant <i32: 4> : tile<i32>
    %width = muli %g, %s#1 : tile<i32>
    %group = divi %t, %width signed : tile<i32>
    %first = muli %group, %g : tile<i32>
    %left = subi %s#0, %first : tile<i32>
    %rows = mini %left, %g signed : tile<i32>
    %within = remi %t, %width signed : tile<i32>
    %row = remi %within, %rows signed : tile<i32>
    %m = addi %first, %row : tile<i32>
    %n = divi %within, %rows signed : tile<i32>
    %nr = subi %s#1, %n : tile<i32>
    %tok = store_view_tko weak %v, %pz[%m, %nr] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":85:5)
    return
  }
}

// -----

// Reversed over another count (the rows' n0 - 1 - n): not a bijection of the columns; refused.
// CHECK: error: k.py:87:5: cannot prove that this store to 'z'
// expected-error {{cannot prove that this store to 'z' writes a tile no other tile block writes}}
cuda_tile.module @m {
  entry @reversed_over_rows(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %v = constant <f32: 0.0> : tile<16x16xf32>
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %y = muli %b#1, %s#0 : tile<i32>
    %t = addi %b#0, %y : tile<i32>
    %g = constant <i32: 4> : tile<i32>
    %width = muli %g, %s#1 : tile<i32>
    %group = divi %t, %width signed : tile<i32>
    %first = muli %group, %g : tile<i32>
    %left = subi %s#0, %first : tile<i32>
    %rows = mini %left, %g signed : tile<i32>
    %within = remi %t, %width signed : tile<i32>
    %row = remi %within, %rows signed : tile<i32>
    %m = addi %first, %row : tile<i32>
    %n = divi %within, %rows signed : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %last = subi %s#0, %one : tile<i32>
    %nr = subi %last, %n : tile<i32>
    %tok = store_view_tko weak %v, %pz[%m, %nr] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":87:5)
    return
  }
}

// -----

// The forward and the reversed order on one tensor: block t owns tile (m, n) under
// one and (m, n1 - 1 - n) under the other, so two blocks may own one tile; refused.
// CHECK: error: k.py:91:5: this store to 'z' follows the grouped order st.grouped(4, reverse=True) but the access at k.py:90:5 follows the grouped order st.grouped(4)
// expected-error {{give every access to 'z' the same order}}
cuda_tile.module @m {
  entry @forward_and_reversed(%z: tile<ptr<f32>>, %r: tile<i32>, %c: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%r, %c], strides = [%c, 1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16, 16>} : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pz = make_partition_view %tz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    %s:2 = get_index_space_shape %pz : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %y = muli %b#1, %s#0 : tile<i32>
    %t = addi %b#0, %y : tile<i32>
    %g = constant <i32: 4> : tile<i32>
    %width = muli %g, %s#1 : tile<i32>
    %group = divi %t, %width signed : tile<i32>
    %first = muli %group, %g : tile<i32>
    %left = subi %s#0, %first : tile<i32>
    %rows = mini %left, %g signed : tile<i32>
    %within = remi %t, %width signed : tile<i32>
    %row = remi %within, %rows signed : tile<i32>
    %m = addi %first, %row : tile<i32>
    %n = divi %within, %rows signed : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %last = subi %s#1, %one : tile<i32>
    %nr = subi %last, %n : tile<i32>
    %l:2 = load_view_tko weak %pz[%m, %n] : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<16x16xf32>, token loc("k.py":90:5)
    %tok = store_view_tko weak %l#0, %pz[%m, %nr] : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc("k.py":91:5)
    return
  }
}
