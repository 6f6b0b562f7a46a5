// An i8 x i8 -> i32 matmul accumulated with mmai in a for loop.
cuda_tile.module @mmai_loop {
  entry @gemm_i8(%a: tile<ptr<i8>>, %b: tile<ptr<i8>>, %c: tile<ptr<i32>>, %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) {
    %tva = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xi8, strides=[?,1]>
    %tvb = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xi8, strides=[?,1]>
    %tvc = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
    %pva = make_partition_view %tva : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xi8, strides=[?,1]>>
    %pvb = make_partition_view %tvb : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xi8, strides=[?,1]>>
    %pvc = make_partition_view %tvc : partition_view<tile=(64x64), tensor_view<?x?xi32, strides=[?,1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %ks:2 = get_index_space_shape %pva : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xi8, strides=[?,1]>> -> tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %zero = constant <i32: 0> : tile<64x64xi32>
    %acc = for %i in (%c0 to %ks#1, step %c1) : tile<i32> iter_values(%sum = %zero) -> (tile<64x64xi32>) {
      %ta, %t1 = load_view_tko weak %pva[%bx, %i] : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xi8, strides=[?,1]>>, tile<i32> -> tile<64x64xi8>, token
      %tb, %t2 = load_view_tko weak %pvb[%i, %by] : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xi8, strides=[?,1]>>, tile<i32> -> tile<64x64xi8>, token
      %p = mmai %ta, %tb, %sum signed signed : tile<64x64xi8>, tile<64x64xi8>, tile<64x64xi32>
      continue %p : tile<64x64xi32>
    }
    %t3 = store_view_tko weak %acc, %pvc[%bx, %by] : tile<64x64xi32>, partition_view<tile=(64x64), tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
