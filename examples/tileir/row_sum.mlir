cuda_tile.module @row_sum {
  entry @row_sum(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>, %rows: tile<i32>) {
    %0 = make_token : token
    %tvx = make_tensor_view %x, shape = [%rows, 256], strides = [256, 1] : tile<i32> -> tensor_view<?x256xf32, strides=[256,1]>
    %tvy = make_tensor_view %y, shape = [%rows], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pvx = make_partition_view %tvx : partition_view<tile=(1x256), padding_value = zero, tensor_view<?x256xf32, strides=[256,1]>>
    %pvy = make_partition_view %tvy : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %t, %t1 = load_view_tko weak %pvx[%bx, %c0] token = %0 : partition_view<tile=(1x256), padding_value = zero, tensor_view<?x256xf32, strides=[256,1]>>, tile<i32> -> tile<1x256xf32>, token
    %r = reduce %t dim=1 identities=[0.000000e+00 : f32] : tile<1x256xf32> -> tile<1xf32>
    (%lhs: tile<f32>, %rhs: tile<f32>) {
      %s = addf %lhs, %rhs : tile<f32>
      yield %s : tile<f32>
    }
    %t2 = store_view_tko weak %r, %pvy[%bx] token = %0 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
