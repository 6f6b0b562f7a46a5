// RUN: %roundtrip %s | filecheck %s

// Every textual form of the cuda_tile types.

// CHECK: cuda_tile.module @types {
cuda_tile.module @types {

  // Scalar tiles of every element type (i4 since 13.3, f8E5M3FNU, printed fnv8E5M3FNU, since 13.4).
  // CHECK-LABEL: entry @scalars(%i1: tile<i1>, %i4: tile<i4>, %i8: tile<i8>, %i16: tile<i16>, %i32: tile<i32>, %i64: tile<i64>, %f16: tile<f16>, %bf16: tile<bf16>, %f32: tile<f32>, %tf32: tile<tf32>, %f64: tile<f64>, %e4m3: tile<f8E4M3FN>, %e5m2: tile<f8E5M2>, %e8m0: tile<f8E8M0FNU>, %e5m3: tile<fnv8E5M3FNU>, %q: tile<i32>) {
  entry @scalars(%i1: tile<i1>, %i4: tile<i4>, %i8: tile<i8>, %i16: tile<i16>, %i32: tile<i32>, %i64: tile<i64>, %f16: tile<f16>, %bf16: tile<bf16>, %f32: tile<f32>, %tf32: tile<tf32>, %f64: tile<f64>, %e4m3: tile<f8E4M3FN>, %e5m2: tile<f8E5M2>, %e8m0: tile<f8E8M0FNU>, %e5m3: tile<fnv8E5M3FNU>, %q: !cuda_tile.tile<i32>) {
    return
  }

  // Pointers to every number type (f8E5M3FNU, the release notes' spelling, also parses).
  // CHECK-LABEL: entry @pointers(%i1: tile<ptr<i1>>, %i8: tile<ptr<i8>>, %i16: tile<ptr<i16>>, %i32: tile<ptr<i32>>, %i64: tile<ptr<i64>>, %f16: tile<ptr<f16>>, %bf16: tile<ptr<bf16>>, %f32: tile<ptr<f32>>, %tf32: tile<ptr<tf32>>, %f64: tile<ptr<f64>>, %e4m3: tile<ptr<f8E4M3FN>>, %e5m2: tile<ptr<f8E5M2>>, %e8m0: tile<ptr<f8E8M0FNU>>, %f4: tile<ptr<f4E2M1FN>>, %e5m3: tile<ptr<fnv8E5M3FNU>>, %q: tile<ptr<f32>>) {
  entry @pointers(%i1: tile<ptr<i1>>, %i8: tile<ptr<i8>>, %i16: tile<ptr<i16>>, %i32: tile<ptr<i32>>, %i64: tile<ptr<i64>>, %f16: tile<ptr<f16>>, %bf16: tile<ptr<bf16>>, %f32: tile<ptr<f32>>, %tf32: tile<ptr<tf32>>, %f64: tile<ptr<f64>>, %e4m3: tile<ptr<f8E4M3FN>>, %e5m2: tile<ptr<f8E5M2>>, %e8m0: tile<ptr<f8E8M0FNU>>, %f4: tile<ptr<f4E2M1FN>>, %e5m3: tile<ptr<f8E5M3FNU>>, %q: !cuda_tile.tile<!cuda_tile.ptr<f32>>) {
    return
  }

  // Shaped tiles of integers, floats and pointers (f4E2M1FN ones hold an even number
  // of elements); tokens. Fully qualified types print bare inside the module.
  // CHECK-LABEL: entry @shaped(%i1: tile<i1>, %i4: tile<i4>, %f32: tile<f32>, %e4m3: tile<f8E4M3FN>, %p: tile<ptr<f16>>, %pf4: tile<ptr<f4E2M1FN>>, %c: tile<i32>) {
  entry @shaped(%i1: tile<i1>, %i4: tile<i4>, %f32: tile<f32>, %e4m3: tile<f8E4M3FN>, %p: tile<ptr<f16>>, %pf4: tile<ptr<f4E2M1FN>>, %c: tile<i32>) {
    // CHECK-NEXT: %a = reshape %i1 : tile<i1> -> tile<1xi1>
    %a = reshape %i1 : tile<i1> -> tile<1xi1>
    // CHECK-NEXT: %b = broadcast %a : tile<1xi1> -> tile<128xi1>
    %b = broadcast %a : tile<1xi1> -> tile<128xi1>
    // CHECK-NEXT: %c4 = reshape %i4 : tile<i4> -> tile<1x1xi4>
    %c4 = reshape %i4 : tile<i4> -> tile<1x1xi4>
    // CHECK-NEXT: %d = broadcast %c4 : tile<1x1xi4> -> tile<2x8xi4>
    %d = broadcast %c4 : tile<1x1xi4> -> tile<2x8xi4>
    // CHECK-NEXT: %e = reshape %f32 : tile<f32> -> tile<1x1x1xf32>
    %e = reshape %f32 : tile<f32> -> tile<1x1x1xf32>
    // CHECK-NEXT: %f = broadcast %e : tile<1x1x1xf32> -> tile<2x4x8xf32>
    %f = broadcast %e : tile<1x1x1xf32> -> tile<2x4x8xf32>
    // CHECK-NEXT: %g = reshape %e4m3 : tile<f8E4M3FN> -> tile<1x1xf8E4M3FN>
    %g = reshape %e4m3 : tile<f8E4M3FN> -> tile<1x1xf8E4M3FN>
    // CHECK-NEXT: %h = broadcast %g : tile<1x1xf8E4M3FN> -> tile<16x16xf8E4M3FN>
    %h = broadcast %g : tile<1x1xf8E4M3FN> -> tile<16x16xf8E4M3FN>
    // CHECK-NEXT: %i = reshape %p : tile<ptr<f16>> -> tile<1xptr<f16>>
    %i = reshape %p : tile<ptr<f16>> -> tile<1xptr<f16>>
    // CHECK-NEXT: %j = broadcast %i : tile<1xptr<f16>> -> tile<1024xptr<f16>>
    %j = broadcast %i : tile<1xptr<f16>> -> tile<1024xptr<f16>>
    // CHECK-NEXT: %k = broadcast %i : tile<1xptr<f16>> -> tile<4xptr<f16>>
    %k = cuda_tile.broadcast %i : !cuda_tile.tile<1x!cuda_tile.ptr<f16>> -> !cuda_tile.tile<4x!cuda_tile.ptr<f16>>
    // CHECK-NEXT: %tv = make_tensor_view %pf4, shape = [64], strides = [1] : tensor_view<64xf4E2M1FN, strides=[1]>
    %tv = make_tensor_view %pf4, shape = [64], strides = [1] : tensor_view<64xf4E2M1FN, strides=[1]>
    // CHECK-NEXT: %pv = make_partition_view %tv : partition_view<tile=(2), tensor_view<64xf4E2M1FN, strides=[1]>>
    %pv = make_partition_view %tv : partition_view<tile=(2), tensor_view<64xf4E2M1FN, strides=[1]>>
    // CHECK-NEXT: %l, %t = load_view_tko weak %pv[%c] : partition_view<tile=(2), tensor_view<64xf4E2M1FN, strides=[1]>>, tile<i32> -> tile<2xf4E2M1FN>, token
    %l, %t = load_view_tko weak %pv[%c] : partition_view<tile=(2), tensor_view<64xf4E2M1FN, strides=[1]>>, tile<i32> -> tile<2xf4E2M1FN>, token
    // CHECK-NEXT: %m = make_token : token
    %m = make_token : token
    // CHECK-NEXT: %n = make_token : token
    %n = cuda_tile.make_token : !cuda_tile.token
    return
  }

  // tensor_view: 0-d (no strides), static and dynamic (`?`) sizes and strides; strides
  // print without spaces.
  // CHECK-LABEL: entry @tensor_views(%a: tensor_view<f32>, %b: tensor_view<4xi1, strides=[1]>, %c: tensor_view<?x?xf16, strides=[?,?]>, %d: tensor_view<8x?x4xbf16, strides=[?,4,1]>, %e: tensor_view<1024x1024xi64, strides=[1,1024]>, %f: tensor_view<?xf8E5M2, strides=[1]>, %g: tensor_view<32x32xf4E2M1FN, strides=[32,1]>, %h: tensor_view<16xtf32, strides=[2]>, %i: tensor_view<2x2x2x2xf64, strides=[8,4,2,1]>, %j: tensor_view<?xf8E8M0FNU, strides=[?]>, %k: tensor_view<?xf8E4M3FN, strides=[1]>, %l: tensor_view<?xi8, strides=[1]>, %m: tensor_view<?xi16, strides=[1]>, %n: tensor_view<?xi32, strides=[1]>, %o: tensor_view<?xf32, strides=[1]>, %q: tensor_view<?x64xf32, strides=[?,1]>) {
  entry @tensor_views(%a: tensor_view<f32>, %b: tensor_view<4xi1, strides=[1]>, %c: tensor_view<?x?xf16, strides=[?,?]>, %d: tensor_view<8x?x4xbf16, strides=[?, 4, 1]>, %e: tensor_view<1024x1024xi64, strides=[1,1024]>, %f: tensor_view<?xf8E5M2, strides=[1]>, %g: tensor_view<32x32xf4E2M1FN, strides=[32,1]>, %h: tensor_view<16xtf32, strides=[2]>, %i: tensor_view<2x2x2x2xf64, strides=[8,4,2,1]>, %j: tensor_view<?xf8E8M0FNU, strides=[?]>, %k: tensor_view<?xf8E4M3FN, strides=[1]>, %l: tensor_view<?xi8, strides=[1]>, %m: tensor_view<?xi16, strides=[1]>, %n: tensor_view<?xi32, strides=[1]>, %o: tensor_view<?xf32, strides=[1]>, %q: !cuda_tile.tensor_view<?x64xf32, strides=[?,1]>) {
    return
  }

  // partition_view: every padding value; dim_map prints only when it is not the identity.
  // CHECK-LABEL: entry @partition_views(%a: partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, %b: partition_view<tile=(1x1x1), tensor_view<8192x8192x64xf32, strides=[524288,64,1]>>, %c: partition_view<tile=(1024x8x1024), tensor_view<8192x8192x64xf32, strides=[524288,64,1]>, dim_map=[0, 2, 1]>, %d: partition_view<tile=(4x4), tensor_view<?x?xf32, strides=[?,1]>>, %e: partition_view<tile=(4x4), padding_value = zero, tensor_view<16x16xi32, strides=[16,1]>>, %f: partition_view<tile=(4x4), padding_value = neg_zero, tensor_view<16x16xf16, strides=[16,1]>>, %g: partition_view<tile=(4x4), padding_value = nan, tensor_view<16x16xf32, strides=[16,1]>>, %h: partition_view<tile=(4x4), padding_value = pos_inf, tensor_view<16x16xbf16, strides=[16,1]>, dim_map=[1, 0]>, %i: partition_view<tile=(4x4), padding_value = neg_inf, tensor_view<16x16xf64, strides=[16,1]>>, %q: partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>) {
  entry @partition_views(%a: partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, %b: partition_view<tile=(1x1x1), tensor_view<8192x8192x64xf32, strides=[524288,64,1]>>, %c: partition_view<tile=(1024x8x1024), tensor_view<8192x8192x64xf32, strides=[524288,64,1]>, dim_map=[0, 2, 1]>, %d: partition_view<tile=(4x4), tensor_view<?x?xf32, strides=[?,1]>, dim_map=[0, 1]>, %e: partition_view<tile=(4x4), padding_value = zero, tensor_view<16x16xi32, strides=[16,1]>>, %f: partition_view<tile=(4x4), padding_value = neg_zero, tensor_view<16x16xf16, strides=[16,1]>>, %g: partition_view<tile=(4x4), padding_value = nan, tensor_view<16x16xf32, strides=[16,1]>>, %h: partition_view<tile=(4x4), padding_value = pos_inf, tensor_view<16x16xbf16, strides=[16,1]>, dim_map=[1, 0]>, %i: partition_view<tile=(4x4), padding_value = neg_inf, tensor_view<16x16xf64, strides=[16,1]>>, %q: !cuda_tile.partition_view<tile=(16), !cuda_tile.tensor_view<?xf32, strides=[1]>>) {
    return
  }

  // strided_view: traversal strides, padding, dim_map.
  // CHECK-LABEL: entry @strided_views(%a: strided_view<tile=(16), traversal_strides=[8], tensor_view<?xf32, strides=[1]>>, %b: strided_view<tile=(1024x1x32), traversal_strides=[512,1,10], tensor_view<?x8192x64xf32, strides=[?,64,1]>>, %c: strided_view<tile=(4x8), traversal_strides=[2,2], padding_value = nan, tensor_view<16x16xf32, strides=[16,1]>, dim_map=[1, 0]>, %d: strided_view<tile=(4x8), traversal_strides=[4,8], padding_value = zero, tensor_view<16x16xi8, strides=[16,1]>>, %q: strided_view<tile=(16), traversal_strides=[8], tensor_view<?xf32, strides=[1]>>) {
  entry @strided_views(%a: strided_view<tile=(16), traversal_strides=[8], tensor_view<?xf32, strides=[1]>>, %b: strided_view<tile=(1024x1x32), traversal_strides=[512,1,10], tensor_view<?x8192x64xf32, strides=[?,64,1]>>, %c: strided_view<tile=(4x8), traversal_strides=[2, 2], padding_value = nan, tensor_view<16x16xf32, strides=[16,1]>, dim_map=[1, 0]>, %d: strided_view<tile=(4x8), traversal_strides=[4,8], padding_value = zero, tensor_view<16x16xi8, strides=[16,1]>, dim_map=[0, 1]>, %q: !cuda_tile.strided_view<tile=(16), traversal_strides=[8], !cuda_tile.tensor_view<?xf32, strides=[1]>>) {
    return
  }

  // gather_scatter_view: sparse_dim, padding.
  // CHECK-LABEL: entry @gather_scatter_views(%a: gather_scatter_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>, sparse_dim=0>, %b: gather_scatter_view<tile=(8x16), padding_value = neg_inf, tensor_view<?x?xf16, strides=[?,1]>, sparse_dim=1>, %c: gather_scatter_view<tile=(8x16), padding_value = zero, tensor_view<?x?xi32, strides=[?,1]>, sparse_dim=1>, %q: gather_scatter_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>, sparse_dim=0>) {
  entry @gather_scatter_views(%a: gather_scatter_view<tile=(64x64), tensor_view<8192x128xf32, strides=[128,1]>, sparse_dim=0>, %b: gather_scatter_view<tile=(8x16), padding_value = neg_inf, tensor_view<?x?xf16, strides=[?,1]>, sparse_dim=1>, %c: gather_scatter_view<tile=(8x16), padding_value = zero, tensor_view<?x?xi32, strides=[?,1]>, sparse_dim=1>, %q: !cuda_tile.gather_scatter_view<tile=(64x64), !cuda_tile.tensor_view<8192x128xf32, strides=[128,1]>, sparse_dim=0>) {
    return
  }
}
