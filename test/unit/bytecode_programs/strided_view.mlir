// SINCE: 13.3
// A strided view (13.3): overlapping 2-D windows, loaded and summed, stored through a partition view.
cuda_tile.module @strided_view {
  entry @window_sums(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>) {
    %tvx = make_tensor_view %x, shape = [256, 256], strides = [256, 1] : tensor_view<256x256xf32, strides=[256,1]>
    %tvy = make_tensor_view %y, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
    %sv = make_strided_view %tvx : strided_view<tile=(8x8), traversal_strides=[4,4], padding_value = zero, tensor_view<256x256xf32, strides=[256,1]>>
    %pvy = make_partition_view %tvy : partition_view<tile=(1x1), tensor_view<64x64xf32, strides=[64,1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %w, %t1 = load_view_tko weak %sv[%bx, %by] : strided_view<tile=(8x8), traversal_strides=[4,4], padding_value = zero, tensor_view<256x256xf32, strides=[256,1]>>, tile<i32> -> tile<8x8xf32>, token
    %r = reduce %w dim=1 identities=[0.000000e+00 : f32] : tile<8x8xf32> -> tile<8xf32>
    (%a: tile<f32>, %b: tile<f32>) {
      %s = addf %a, %b : tile<f32>
      yield %s : tile<f32>
    }
    %r2 = reduce %r dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a: tile<f32>, %b: tile<f32>) {
      %s = addf %a, %b : tile<f32>
      yield %s : tile<f32>
    }
    %out = reshape %r2 : tile<f32> -> tile<1x1xf32>
    %t2 = store_view_tko weak %out, %pvy[%bx, %by] token = %t1 : tile<1x1xf32>, partition_view<tile=(1x1), tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> token
    return
  }
}
