// f32 inputs rounded to tf32, B loaded transposed through a dim_map, mmaf in a loop.
cuda_tile.module @mma_tf32 {
  entry @gemm_nt(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %c: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) {
    %tva = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %tvb = make_tensor_view %b, shape = [%n, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %tvc = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pva = make_partition_view %tva : partition_view<tile=(64x32), tensor_view<?x?xf32, strides=[?,1]>>
    %pvb = make_partition_view %tvb : partition_view<tile=(32x64), tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]>
    %pvc = make_partition_view %tvc : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %ks:2 = get_index_space_shape %pva : partition_view<tile=(64x32), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<64x64xf32>
    %acc = for %i in (%c0 to %ks#1, step %c1) : tile<i32> iter_values(%sum = %zero) -> (tile<64x64xf32>) {
      %ta, %t1 = load_view_tko weak %pva[%bx, %i] : partition_view<tile=(64x32), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<64x32xf32>, token
      %tb, %t2 = load_view_tko weak %pvb[%i, %by] : partition_view<tile=(32x64), tensor_view<?x?xf32, strides=[?,1]>, dim_map=[1, 0]>, tile<i32> -> tile<32x64xf32>, token
      %xa = ftof %ta rounding<nearest_even> : tile<64x32xf32> -> tile<64x32xtf32>
      %xb = ftof %tb rounding<nearest_even> : tile<32x64xf32> -> tile<32x64xtf32>
      %p = mmaf %xa, %xb, %sum : tile<64x32xtf32>, tile<32x64xtf32>, tile<64x64xf32>
      continue %p : tile<64x64xf32>
    }
    %t3 = store_view_tko weak %acc, %pvc[%bx, %by] : tile<64x64xf32>, partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
