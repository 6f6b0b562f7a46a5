// RUN: %opt %s --split-input-file --verify-diagnostics -p lower-tile-safety | filecheck %s
// RUN: %opt %s --split-input-file --verify-diagnostics -p lower-tile-safety | filecheck %s --check-prefix=PURE
// RUN: %opt %s --split-input-file --verify-diagnostics -p lower-tile-safety | filecheck %s --check-prefix=DENY
// RUN: %opt %s --split-input-file --verify-diagnostics -p lower-tile-safety --mlir-print-debuginfo | filecheck %s --check-prefix=LOC

// After the pass nothing of tile_safety is left, anywhere.
// PURE-NOT: tile_safety

// One check of a 1-d view: 0 <= i < num_tiles, asserted with the message; a
// failing check first prints the index and the bound.  Every op made takes
// the check's location.
// CHECK-LABEL: entry @one_check
// CHECK-NEXT: %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
// CHECK-NEXT: %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
// CHECK-NEXT: %0 = get_index_space_shape %pv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> -> tile<i32>
// CHECK-NEXT: %1 = constant <i32: 0> : tile<i32>
// CHECK-NEXT: %2 = cmpi greater_than_or_equal %i, %1, signed : tile<i32> -> tile<i1>
// CHECK-NEXT: %3 = cmpi less_than %i, %0, signed : tile<i32> -> tile<i1>
// CHECK-NEXT: %4 = andi %2, %3 : tile<i1>
// CHECK-NEXT: if %4 {
// CHECK-NEXT: } else {
// CHECK-NEXT: print_tko "load: tile index %d is outside [0, %d) in dimension 0\0A", %i, %0 : tile<i32>, tile<i32> -> token
// CHECK-NEXT: }
// CHECK-NEXT: assert %4, "load: tile index out of range in dimension 0" : tile<i1>
// CHECK-NEXT: %t:2 = load_view_tko weak %pv[%i]
// LOC-LABEL: entry @one_check
// LOC: get_index_space_shape {{.*}} loc("k.py":3:5)
// LOC: print_tko {{.*}} loc("k.py":3:5)
// LOC-NEXT: } loc("k.py":3:5)
// LOC-NEXT: assert {{.*}} loc("k.py":3:5)
// LOC-NEXT: load_view_tko {{.*}} loc(unknown)
cuda_tile.module @m {
  entry @one_check(%p: tile<ptr<f32>>, %n: tile<i32>, %i: tile<i32>) {
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    tile_safety.check_index %i, %pv[0], "load" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> loc("k.py":3:5)
    %t:2 = load_view_tko weak %pv[%i] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token loc(unknown)
    return
  }
}

// -----

// The second dimension of a 2-d view compares against the second count.
// CHECK-LABEL: entry @second_dim
// CHECK: %0:2 = get_index_space_shape %pv
// CHECK: %3 = cmpi less_than %j, %0#1, signed : tile<i32> -> tile<i1>
// CHECK: assert %4, "dim 1: tile index out of range in dimension 1" : tile<i1>
cuda_tile.module @m {
  entry @second_dim(%p: tile<ptr<f16>>, %m: tile<i32>, %n: tile<i32>, %j: tile<i32>) {
    %tv = make_tensor_view %p, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pv = make_partition_view %tv : partition_view<tile=(64x32), tensor_view<?x?xf16, strides=[?,1]>>
    tile_safety.check_index %j, %pv[1], "dim 1" : tile<i32>, partition_view<tile=(64x32), tensor_view<?x?xf16, strides=[?,1]>>
    return
  }
}

// -----

// A check inside a loop body is lowered in place, inside the loop.
// CHECK-LABEL: entry @in_loop
// CHECK: for %k in (%c0 to %n, step %c1) : tile<i32> {
// CHECK-NEXT: get_index_space_shape %pv
// CHECK: assert %{{.*}}, "in loop: tile index out of range in dimension 0" : tile<i1>
// CHECK-NEXT: load_view_tko weak %pv[%k]
// CHECK: }
cuda_tile.module @m {
  entry @in_loop(%p: tile<ptr<f32>>, %n: tile<i32>) {
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %k in (%c0 to %n, step %c1) : tile<i32> {
      tile_safety.check_index %k, %pv[0], "in loop" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
      %t:2 = load_view_tko weak %pv[%k] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    }
    return
  }
}

// -----

// A check inside an if branch stays in that branch.
// CHECK-LABEL: entry @in_branch
// CHECK: if %c {
// CHECK: assert %{{.*}}, "in branch: tile index out of range in dimension 0" : tile<i1>
// CHECK-NEXT: }
// CHECK-NEXT: return
cuda_tile.module @m {
  entry @in_branch(%p: tile<ptr<f32>>, %n: tile<i32>, %i: tile<i32>, %c: tile<i1>) {
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    if %c {
      tile_safety.check_index %i, %pv[0], "in branch" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    }
    return
  }
}

// -----

// Several checks each get their own comparison and assert, in order.
// CHECK-LABEL: entry @several
// CHECK: assert %{{.*}}, "first: tile index out of range in dimension 0" : tile<i1>
// CHECK: assert %{{.*}}, "second: tile index out of range in dimension 1" : tile<i1>
// CHECK: assert %{{.*}}, "third: tile index out of range in dimension 0" : tile<i1>
cuda_tile.module @m {
  entry @several(%p: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %i: tile<i32>, %j: tile<i32>) {
    %tv = make_tensor_view %p, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pv = make_partition_view %tv : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    tile_safety.check_index %i, %pv[0], "first" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    tile_safety.check_index %j, %pv[1], "second" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    tile_safety.check_index %j, %pv[0], "third" : tile<i32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,1]>>
    return
  }
}

// -----

// An i64 index is compared in i64: the counts are queried as i64.
// CHECK-LABEL: entry @wide_index
// CHECK: %0 = get_index_space_shape %pv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> -> tile<i64>
// CHECK-NEXT: %1 = constant <i64: 0> : tile<i64>
// CHECK-NEXT: %2 = cmpi greater_than_or_equal %i, %1, signed : tile<i64> -> tile<i1>
cuda_tile.module @m {
  entry @wide_index(%p: tile<ptr<f32>>, %n: tile<i32>, %i: tile<i64>) {
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    tile_safety.check_index %i, %pv[0], "wide" : tile<i64>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    return
  }
}

// -----

// The access-mode, argument and partition attributes, the unsafe marker and
// the entry options are all stripped; the ops stay.
// CHECK-LABEL: entry @attributes(
// CHECK-NEXT: %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
// CHECK-NEXT: %a = assume div_by<16>, %n : tile<i32>
// CHECK-NEXT: %c0 = constant <i32: 0> : tile<i32>
// CHECK-NEXT: for %k in (%c0 to %a, step %a) : tile<i32> {
// CHECK-NEXT: %b = assume bounded<0, ?>, %k : tile<i32>
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NEXT: }
cuda_tile.module @m {
  entry @attributes(%p: tile<ptr<f32>>, %n: tile<i32>) {
    %tv = make_tensor_view %p, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "p", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %a = assume div_by<16>, %n {tile_safety.unsafe} : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    for %k in (%c0 to %a, step %a) : tile<i32> {
      %b = assume bounded<0, ?>, %k {tile_safety.unsafe} : tile<i32>
    }
    return
  } {tile_safety.unchecked_accesses}
}

// -----

// deny_in_kernel_checks without checks left: nothing to refuse; the mark goes.
// CHECK-LABEL: entry @denied_but_clean
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
cuda_tile.module @m {
  entry @denied_but_clean(%n: tile<i32>) {
    return
  } {tile_safety.deny_in_kernel_checks}
}

// -----

// deny_in_kernel_checks with a check left: an error naming the access.
// DENY: error: k.py:9:5: load: this index check needs an in-kernel assert, but @denied is compiled with deny_in_kernel_checks
// expected-error {{this index check needs an in-kernel assert}}
cuda_tile.module @m {
  entry @denied(%p: tile<ptr<f32>>, %n: tile<i32>, %i: tile<i32>) {
    %tv = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    tile_safety.check_index %i, %pv[0], "load" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>> loc("k.py":9:5)
    return
  } {tile_safety.deny_in_kernel_checks}
}

// -----

// Pure cuda_tile input comes out unchanged.
// CHECK-LABEL: entry @untouched
// CHECK-NEXT: %0 = addf %a, %a : tile<f32>
// CHECK-NEXT: return
cuda_tile.module @m {
  entry @untouched(%a: tile<f32>) {
    %0 = addf %a, %a : tile<f32>
    return
  }
}
