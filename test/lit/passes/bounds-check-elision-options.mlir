// RUN: %opt %s -p 'bounds-check-elision{launch_checks=false}' | filecheck %s --check-prefix=NOLAUNCH
// RUN: %opt %s -p 'bounds-check-elision{unchecked_accesses=true}' | filecheck %s --check-prefix=UNCHECKED
// RUN: not %opt %s -p 'bounds-check-elision{deny_in_kernel_checks=true}' 2>&1 | filecheck %s --check-prefix=DENY

// Pass options (the entry attributes of the same names are tested in
// bounds-check-elision.mlir).  The provable check goes in every mode; the
// one that needs a launch check stays in the kernel without the launch rung
// and goes with unchecked_accesses; an unprovable one is refused with
// deny_in_kernel_checks.

// NOLAUNCH-NOT: "own tile"
// NOLAUNCH: tile_safety.check_index %b#0, %px[0], "input tile"
// NOLAUNCH-NOT: launch_checks
// UNCHECKED-NOT: check_index
// UNCHECKED-NOT: launch_checks
// DENY: error: @options: unknown: this index check needs an in-kernel assert
cuda_tile.module @m {
  entry @options(%z: tile<ptr<f32>>, %n: tile<i32>, %x: tile<ptr<f32>>, %m: tile<i32>, %i: tile<i32>) {
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [%n], strides = [1] {tile_safety.access = #tile_safety.access<mut>, tile_safety.arg = "z", tile_safety.partition = array<i64: 16>} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tx = make_tensor_view %x, shape = [%m], strides = [1] {tile_safety.arg = "x"} : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    tile_safety.check_index %b#0, %pz[0], "own tile" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    tile_safety.check_index %b#0, %px[0], "input tile" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    tile_safety.check_index %i, %px[0], "unknown" : tile<i32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    return
  }
}
