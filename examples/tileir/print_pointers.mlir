cuda_tile.module @example_module {
  entry @example_kernel(%data_pr: tile<ptr<f32>>) {
    %offsets = iota : tile<128xi32>
    %r = reshape %data_pr : tile<ptr<f32>> -> tile<1xptr<f32>>
    %b = broadcast %r : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %p = offset %b, %offsets : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %data, %token = load_ptr_tko weak %p : tile<128xptr<f32>> -> tile<128xf32>, token
    %0 = print_tko "Data: %f\0A", %data : tile<128xf32> -> token
    return
  }
}
