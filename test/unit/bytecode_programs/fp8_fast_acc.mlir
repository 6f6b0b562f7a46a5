// SINCE: 13.3
// An f8E4M3FN matmul with fast accumulation (13.3, Hopper), f32 accumulator, bf16 output.
cuda_tile.module @fp8_fast_acc {
  entry @gemm_fp8(%a: tile<ptr<f8E4M3FN>>, %b: tile<ptr<f8E4M3FN>>, %c: tile<ptr<bf16>>, %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) {
    %tva = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
    %tvb = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
    %tvc = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
    %pva = make_partition_view %tva : partition_view<tile=(64x64), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
    %pvb = make_partition_view %tvb : partition_view<tile=(64x64), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
    %pvc = make_partition_view %tvc : partition_view<tile=(64x64), tensor_view<?x?xbf16, strides=[?,1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %ks:2 = get_index_space_shape %pva : partition_view<tile=(64x64), tensor_view<?x?xf8E4M3FN, strides=[?,1]>> -> tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<64x64xf32>
    %acc = for %i in (%c0 to %ks#1, step %c1) : tile<i32> iter_values(%sum = %zero) -> (tile<64x64xf32>) {
      %ta, %t1 = load_view_tko weak %pva[%bx, %i] : partition_view<tile=(64x64), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<64x64xf8E4M3FN>, token
      %tb, %t2 = load_view_tko weak %pvb[%i, %by] : partition_view<tile=(64x64), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<64x64xf8E4M3FN>, token
      %p = mmaf %ta, %tb, %sum fast_acc : tile<64x64xf8E4M3FN>, tile<64x64xf8E4M3FN>, tile<64x64xf32>
      continue %p : tile<64x64xf32>
    }
    %out = ftof %acc : tile<64x64xf32> -> tile<64x64xbf16>
    %t3 = store_view_tko weak %out, %pvc[%bx, %by] : tile<64x64xbf16>, partition_view<tile=(64x64), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
