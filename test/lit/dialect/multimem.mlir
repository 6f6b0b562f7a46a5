// RUN: %roundtrip %s | filecheck %s

// Tile IR 13.5: pointers and tensor views with a ptr_attr, and the multimem
// view ops on a multicast base pointer.  The syntax is what 13.5.37's
// tileirdisasm prints (docs/bytecode.md, "Tile IR 13.5").
// SINCE: 13.5

// CHECK: cuda_tile.module @multimem {
cuda_tile.module @multimem {

  // A ptr_attr prints stripped on ptr and qualified on tensor_view; make_tensor_view
  // writes such a base pointer's type first (then the dynamic values' type).
  // CHECK-LABEL: entry @pointer_kinds(
  // CHECK-SAME: %n: tile<ptr<f32, <none>>>, %u: tile<ptr<i32, <unicast>>>, %m: tile<ptr<f16, <multicast>>>, %d: tile<i64>)
  entry @pointer_kinds(%n: tile<ptr<f32, <none>>>, %u: tile<ptr<i32, #cuda_tile.ptr_attr<unicast>>>, %m: tile<ptr<f16, <multicast>>>, %d: tile<i64>) {
    // CHECK-NEXT: make_tensor_view %n, shape = [8], strides = [1] : tile<ptr<f32, <none>>> -> tensor_view<8xf32, strides=[1], #cuda_tile.ptr_attr<none>>
    %0 = make_tensor_view %n, shape = [8], strides = [1] : tile<ptr<f32, <none>>> -> tensor_view<8xf32, strides=[1], #cuda_tile.ptr_attr<none>>
    // CHECK-NEXT: make_tensor_view %u, shape = [%d], strides = [1] : tile<ptr<i32, <unicast>>>, tile<i64> -> tensor_view<?xi32, strides=[1], #cuda_tile.ptr_attr<unicast>>
    %1 = make_tensor_view %u, shape = [%d], strides = [1] : tile<ptr<i32, <unicast>>>, tile<i64> -> tensor_view<?xi32, strides=[1], #cuda_tile.ptr_attr<unicast>>
    // CHECK-NEXT: make_tensor_view %m, shape = [], strides = [] : tile<ptr<f16, <multicast>>> -> tensor_view<f16, #cuda_tile.ptr_attr<multicast>>
    %2 = make_tensor_view %m, shape = [], strides = [] : tile<ptr<f16, <multicast>>> -> tensor_view<f16, #cuda_tile.ptr_attr<multicast>>
    return
  }

  // Every reduction kind and ordering; scopes, tokens, inbounds, two indices.
  // CHECK-LABEL: entry @multimem_ops(
  entry @multimem_ops(%x: tile<ptr<f32, <multicast>>>, %y: tile<ptr<i64, <multicast>>>, %i: tile<i32>) {
    %tok = make_token : token
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %tvi = make_tensor_view %y, shape = [64, 64], strides = [64, 1] : tile<ptr<i64, <multicast>>> -> tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>
    %pvi = make_partition_view %tvi : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>
    // CHECK: %v, %t1 = multimem_load_reduce_view_tko acquire device %pv[%i] token = %tok inbounds = [true] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32>, token -> tile<64xf32>, token
    %v, %t1 = multimem_load_reduce_view_tko acquire device %pv[%i] token = %tok inbounds = [true] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32>, token -> tile<64xf32>, token
    // CHECK-NEXT: %w, %t2 = multimem_load_reduce_view_tko weak %pvi[%i, %i] attributes {reduction = #cuda_tile.multimem_reduction_kind<min>} : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<8x8xi64>, token
    %w, %t2 = multimem_load_reduce_view_tko weak %pvi[%i, %i] attributes {reduction = #cuda_tile.multimem_reduction_kind<min>} : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<8x8xi64>, token
    // The default reduction, add, is not printed.
    // CHECK-NEXT: %w2, %t3 = multimem_load_reduce_view_tko relaxed sys %pvi[%i, %i] : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<8x8xi64>, token
    %w2, %t3 = multimem_load_reduce_view_tko relaxed sys %pvi[%i, %i] attributes {reduction = #cuda_tile.multimem_reduction_kind<add>} : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<8x8xi64>, token
    // CHECK-NEXT: %r1 = multimem_reduce_view_tko relaxed device %pv, %v[%i] token = %t1 : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32>, token -> token
    %r1 = multimem_reduce_view_tko relaxed device %pv, %v[%i] token = %t1 : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32>, token -> token
    // CHECK-NEXT: multimem_reduce_view_tko release tl_blk %pvi, %w[%i, %i] attributes {reduction = #cuda_tile.multimem_reduction_kind<max>}
    %r2 = multimem_reduce_view_tko release tl_blk %pvi, %w[%i, %i] attributes {reduction = #cuda_tile.multimem_reduction_kind<max>} : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>, tile<8x8xi64>, tile<i32> -> token
    // CHECK-NEXT: reduction = #cuda_tile.multimem_reduction_kind<and>
    %r3 = multimem_reduce_view_tko relaxed device %pvi, %w[%i, %i] attributes {reduction = #cuda_tile.multimem_reduction_kind<and>} : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>, tile<8x8xi64>, tile<i32> -> token
    // CHECK-NEXT: reduction = #cuda_tile.multimem_reduction_kind<or>
    %r4 = multimem_reduce_view_tko relaxed device %pvi, %w[%i, %i] attributes {reduction = #cuda_tile.multimem_reduction_kind<or>} : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>, tile<8x8xi64>, tile<i32> -> token
    // CHECK-NEXT: reduction = #cuda_tile.multimem_reduction_kind<xor>
    %r5 = multimem_reduce_view_tko relaxed device %pvi, %w[%i, %i] attributes {reduction = #cuda_tile.multimem_reduction_kind<xor>} : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>, tile<8x8xi64>, tile<i32> -> token
    // CHECK-NEXT: reduction = #cuda_tile.multimem_reduction_kind<umin>
    %r6 = multimem_reduce_view_tko relaxed device %pvi, %w[%i, %i] attributes {reduction = #cuda_tile.multimem_reduction_kind<umin>} : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>, tile<8x8xi64>, tile<i32> -> token
    // CHECK-NEXT: reduction = #cuda_tile.multimem_reduction_kind<umax>
    %r7 = multimem_reduce_view_tko relaxed device %pvi, %w[%i, %i] attributes {reduction = #cuda_tile.multimem_reduction_kind<umax>} : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>, tile<8x8xi64>, tile<i32> -> token
    // CHECK-NEXT: %s1 = multimem_store_view_tko weak %pv, %v[%i] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32> -> token
    %s1 = multimem_store_view_tko weak %pv, %v[%i] : partition_view<tile=(64), tensor_view<128xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32> -> token
    // CHECK-NEXT: %s2 = multimem_store_view_tko release sys %pvi, %w[%i, %i] token = %r1 inbounds = [false, true] : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>, tile<8x8xi64>, tile<i32>, token -> token
    %s2 = multimem_store_view_tko release sys %pvi, %w[%i, %i] token = %r1 inbounds = [false, true] : partition_view<tile=(8x8), tensor_view<64x64xi64, strides=[64,1], #cuda_tile.ptr_attr<multicast>>>, tile<8x8xi64>, tile<i32>, token -> token
    return
  }

  // 13.5 gave atomic_red_view_tko an inbounds list (after the value and token).
  // CHECK-LABEL: entry @atomic_red_inbounds(
  entry @atomic_red_inbounds(%x: tile<ptr<f32>>, %i: tile<i32>) {
    %tv = make_tensor_view %x, shape = [128], strides = [1] : tensor_view<128xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<128xf32, strides=[1]>>
    %c = constant <f32: 1.0> : tile<64xf32>
    %tok = make_token : token
    // CHECK: atomic_red_view_tko relaxed device %pv[%i], addf, %c token = %tok inbounds = [true] : tile<64xf32>
    %t = atomic_red_view_tko relaxed device %pv[%i], addf, %c token = %tok inbounds = [true] : tile<64xf32>, partition_view<tile=(64), tensor_view<128xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
