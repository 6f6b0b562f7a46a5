// C = A @ B for row-major f16 matrices with an f32 accumulator: one 128x128
// tile of C per tile block (grid = (m / 128, n / 128)), K in steps of 64.
// The ABI of examples/tileir/matmul.mlir: three pointers, then m, n, k and
// the leading dimensions (row strides) lda, ldb, ldc, all i32.
cuda_tile.module @matmul {
  entry @matmul(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f16>>, %m: tile<i32>, %n: tile<i32>, %k: tile<i32>, %lda: tile<i32>, %ldb: tile<i32>, %ldc: tile<i32>) {
    %0 = make_token : token
    %tva = make_tensor_view %a, shape = [%m, %k], strides = [%lda, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %tvb = make_tensor_view %b, shape = [%k, %n], strides = [%ldb, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %tvc = make_tensor_view %c, shape = [%m, %n], strides = [%ldc, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
    %pva = make_partition_view %tva : partition_view<tile=(128x64), tensor_view<?x?xf16, strides=[?,1]>>
    %pvb = make_partition_view %tvb : partition_view<tile=(64x128), tensor_view<?x?xf16, strides=[?,1]>>
    %pvc = make_partition_view %tvc : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %ks:2 = get_index_space_shape %pva : partition_view<tile=(128x64), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc0 = constant <f32: 0.000000e+00> : tile<128x128xf32>
    %for = for %i in (%c0 to %ks#1, step %c1) : tile<i32> iter_values(%acc = %acc0) -> (tile<128x128xf32>) {
      %ta, %t1 = load_view_tko weak %pva[%bx, %i] token = %0 : partition_view<tile=(128x64), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x64xf16>, token
      %tb, %t2 = load_view_tko weak %pvb[%i, %by] token = %0 : partition_view<tile=(64x128), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x128xf16>, token
      %mm = mmaf %ta, %tb, %acc : tile<128x64xf16>, tile<64x128xf16>, tile<128x128xf32>
      continue %mm : tile<128x128xf32>
    }
    %h = ftof %for : tile<128x128xf32> -> tile<128x128xf16>
    %t3 = store_view_tko weak %h, %pvc[%bx, %by] token = %0 : tile<128x128xf16>, partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
