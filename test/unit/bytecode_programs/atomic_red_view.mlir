// SINCE: 13.3
// View reductions (13.3): partial sums accumulated into one output tile with atomic_red_view_tko.
cuda_tile.module @atomic_red_view {
  entry @column_sums(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>, %cnt: tile<ptr<i32>>, %rows: tile<i32>) {
    %tvx = make_tensor_view %x, shape = [%rows, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
    %tvy = make_tensor_view %y, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %tvc = make_tensor_view %cnt, shape = [64], strides = [1] : tensor_view<64xi32, strides=[1]>
    %pvx = make_partition_view %tvx : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>>
    %pvy = make_partition_view %tvy : partition_view<tile=(64), tensor_view<64xf32, strides=[1]>>
    %pvc = make_partition_view %tvc : partition_view<tile=(64), tensor_view<64xi32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %v, %t1 = load_view_tko weak %pvx[%bx, %c0] : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> tile<32x64xf32>, token
    %s = reduce %v dim=0 identities=[0.000000e+00 : f32] : tile<32x64xf32> -> tile<64xf32>
    (%a: tile<f32>, %b: tile<f32>) {
      %r = addf %a, %b : tile<f32>
      yield %r : tile<f32>
    }
    %t2 = atomic_red_view_tko relaxed device %pvy[%c0], addf, %s token = %t1 : tile<64xf32>, partition_view<tile=(64), tensor_view<64xf32, strides=[1]>>, tile<i32> -> token
    %ones = constant <i32: 1> : tile<64xi32>
    %t3 = atomic_red_view_tko relaxed tl_blk %pvc[%c0], add, %ones token = %t2 : tile<64xi32>, partition_view<tile=(64), tensor_view<64xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}
