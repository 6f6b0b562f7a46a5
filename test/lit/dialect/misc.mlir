// RUN: %roundtrip %s | filecheck %s

cuda_tile.module @misc {
  // CHECK-LABEL: entry @grid()
  entry @grid() {
    // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = get_tile_block_id : tile<i32>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = get_num_tile_blocks : tile<i32>
    %nx, %ny, %nz = get_num_tile_blocks : tile<i32>
    // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = get_tile_block_id : tile<i32>
    %qx, %qy, %qz = cuda_tile.get_tile_block_id : !cuda_tile.tile<i32>
    // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = get_num_tile_blocks : tile<i32>
    %mx, %my, %mz = cuda_tile.get_num_tile_blocks : !cuda_tile.tile<i32>
    return
  }

  // CHECK-LABEL: entry @assume_predicates
  entry @assume_predicates(%i: tile<i32>, %w: tile<i64>, %p: tile<ptr<f32>>, %view: tensor_view<64x64xf16, strides=[64,1]>) {
    // Short and long (#cuda_tile.) spellings both print short.
    // CHECK: %{{.*}} = assume div_by<32>, %i : tile<i32>
    %0 = assume div_by<32>, %i : tile<i32>
    // CHECK: %{{.*}} = assume div_by<8>, %i : tile<i32>
    %1 = assume #cuda_tile.div_by<8>, %i : tile<i32>
    // CHECK: %{{.*}} = assume div_by<16>, %p : tile<ptr<f32>>
    %2 = assume div_by<16>, %p : tile<ptr<f32>>
    // CHECK: %{{.*}} = assume div_by<4611686018427387904>, %w : tile<i64>
    %3 = assume div_by<4611686018427387904>, %w : tile<i64>
    // CHECK: %{{.*}} = assume div_by<128>, %view : tensor_view<64x64xf16, strides=[64,1]>
    %4 = assume div_by<128>, %view : tensor_view<64x64xf16, strides=[64,1]>
    // CHECK: %{{.*}} = assume bounded<0, ?>, %i : tile<i32>
    %5 = assume bounded<0, ?>, %i : tile<i32>
    // CHECK: %{{.*}} = assume bounded<?, 42>, %i : tile<i32>
    %6 = assume bounded<?, 42>, %i : tile<i32>
    // CHECK: %{{.*}} = assume bounded<?, ?>, %i : tile<i32>
    %7 = assume #cuda_tile.bounded<?, ?>, %i : tile<i32>
    // CHECK: %{{.*}} = assume bounded<-9223372036854775808, 9223372036854775807>, %w : tile<i64>
    %8 = assume bounded<-9223372036854775808, 9223372036854775807>, %w : tile<i64>
    // CHECK: %{{.*}} = assume same_elements<[]>, %i : tile<i32>
    %9 = assume same_elements<[]>, %i : tile<i32>
    // CHECK: %{{.*}} = assume bounded<-4, 4>, %{{.*}} : tile<i32>
    %10 = cuda_tile.assume #cuda_tile.bounded<-4, 4>, %9 : !cuda_tile.tile<i32>
    return
  }

  // Predicates on shaped tiles: every/along for div_by, groups for same_elements.
  // CHECK-LABEL: entry @assume_shaped
  entry @assume_shaped(%p: tile<ptr<f32>>) {
    %i = constant <i32: 64> : tile<4x8xi32>
    // CHECK: %{{.*}} = assume div_by<8, every 2 along 0>, %{{.*}} : tile<4x8xi32>
    %0 = assume div_by<8, every 2 along 0>, %i : tile<4x8xi32>
    // CHECK: %{{.*}} = assume div_by<16, every 8 along 1>, %{{.*}} : tile<4x8xi32>
    %1 = assume #cuda_tile.div_by<16, every 8 along 1>, %i : tile<4x8xi32>
    // CHECK: %{{.*}} = assume same_elements<[2, 4]>, %{{.*}} : tile<4x8xi32>
    %2 = assume same_elements<[2, 4]>, %i : tile<4x8xi32>
    // CHECK: %{{.*}} = assume bounded<0, 1024>, %{{.*}} : tile<4x8xi32>
    %3 = assume bounded<0, 1024>, %i : tile<4x8xi32>
    %p1 = reshape %p : tile<ptr<f32>> -> tile<1x1xptr<f32>>
    %p2 = broadcast %p1 : tile<1x1xptr<f32>> -> tile<4x8xptr<f32>>
    // CHECK: %{{.*}} = assume div_by<16, every 8 along 1>, %{{.*}} : tile<4x8xptr<f32>>
    %4 = assume div_by<16, every 8 along 1>, %p2 : tile<4x8xptr<f32>>
    // CHECK: %{{.*}} = assume same_elements<[1, 8]>, %{{.*}} : tile<4x8xptr<f32>>
    %5 = assume #cuda_tile.same_elements<[1, 8]>, %p2 : tile<4x8xptr<f32>>
    return
  }

  // CHECK-LABEL: entry @debugging
  entry @debugging(%c: tile<i1>, %x: tile<i32>, %f: tile<f32>) {
    // Strings print with MLIR's escapes.
    // CHECK: assert %c, "x must hold" : tile<i1>
    assert %c, "x must hold" : tile<i1>
    // CHECK: assert %c, "quote \22 backslash \\ newline \0A" : tile<i1>
    cuda_tile.assert %c, "quote \" backslash \\ newline \n" : !cuda_tile.tile<i1>
    // CHECK: %[[T0:.*]] = print_tko "hello" -> token
    %t0 = print_tko "hello" -> token
    // CHECK: %[[T1:.*]] = print_tko "x=%d f=%+08.3f\0A", %x, %f : tile<i32>, tile<f32> -> token
    %t1 = print_tko "x=%d f=%+08.3f\n", %x, %f : tile<i32>, tile<f32> -> token
    // CHECK: %{{.*}} = print_tko "100%% of %lld", %x token=%[[T1]] : tile<i32> -> token
    %t2 = print_tko "100%% of %lld", %x token = %t1 : tile<i32> -> token
    // CHECK: %{{.*}} = print_tko "%%%%" token=%[[T0]] -> token
    %t3 = cuda_tile.print_tko "%%%%" token=%t0 -> !cuda_tile.token
    return
  }

  // CHECK-LABEL: entry @grid_dependency_control
  entry @grid_dependency_control() {
    // CHECK: %[[L:.*]] = gdc_launch_dependents_tko -> token
    %l = gdc_launch_dependents_tko -> token
    // CHECK: %[[W:.*]] = gdc_wait_tko token = %[[L]] -> token
    %w = gdc_wait_tko token = %l -> token
    // CHECK: %{{.*}} = gdc_wait_tko -> token
    %w2 = gdc_wait_tko -> token
    // CHECK: %{{.*}} = gdc_launch_dependents_tko token = %[[W]] -> token
    %l2 = cuda_tile.gdc_launch_dependents_tko token=%w -> !cuda_tile.token
    return
  }
}
