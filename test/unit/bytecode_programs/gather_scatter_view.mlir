// SINCE: 13.3
// A gather/scatter view (13.3): rows picked by an index tile are loaded, scaled and scattered back.
cuda_tile.module @gather_scatter_view {
  entry @scale_rows(%x: tile<ptr<f32>>, %rows: tile<i32>) {
    %tv = make_tensor_view %x, shape = [%rows, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
    %gv = make_gather_scatter_view %tv : gather_scatter_view<tile=(16x64), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>, sparse_dim=0>
    %i = iota : tile<16xi32>
    %two = constant <i32: 2> : tile<16xi32>
    %even = muli %i, %two : tile<16xi32>
    %c0 = constant <i32: 0> : tile<i32>
    %v, %t1 = load_view_tko weak %gv[%even, %c0] : gather_scatter_view<tile=(16x64), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> tile<16x64xf32>, token
    %h = constant <f32: 5.000000e-01> : tile<16x64xf32>
    %w = mulf %v, %h : tile<16x64xf32>
    %t2 = store_view_tko weak %w, %gv[%even, %c0] token = %t1 : tile<16x64xf32>, gather_scatter_view<tile=(16x64), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> token
    return
  }
}
