// SINCE: 13.3
// alloca (13.3): scratch memory written and read back through pointers.
cuda_tile.module @alloca {
  entry @scratch(%out: tile<ptr<f32>>) {
    %buf = alloca num_elem = 64, alignment = 16 : tile<ptr<f32>>
    %i = iota : tile<64xi32>
    %b1 = reshape %buf : tile<ptr<f32>> -> tile<1xptr<f32>>
    %b64 = broadcast %b1 : tile<1xptr<f32>> -> tile<64xptr<f32>>
    %bp = offset %b64, %i : tile<64xptr<f32>>, tile<64xi32> -> tile<64xptr<f32>>
    %v = itof %i signed : tile<64xi32> -> tile<64xf32>
    %t1 = store_ptr_tko weak %bp, %v : tile<64xptr<f32>>, tile<64xf32> -> token
    %w, %t2 = load_ptr_tko weak %bp token = %t1 : tile<64xptr<f32>> -> tile<64xf32>, token
    %o1 = reshape %out : tile<ptr<f32>> -> tile<1xptr<f32>>
    %o64 = broadcast %o1 : tile<1xptr<f32>> -> tile<64xptr<f32>>
    %op = offset %o64, %i : tile<64xptr<f32>>, tile<64xi32> -> tile<64xptr<f32>>
    %t3 = store_ptr_tko weak %op, %w token = %t2 : tile<64xptr<f32>>, tile<64xf32> -> token
    return
  }
}
