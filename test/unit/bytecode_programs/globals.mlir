// SINCE: 13.3
// Module globals (private and constant since 13.3) read through get_global.
cuda_tile.module @globals {
  global private constant @table <f32: [1.000000e+00, 2.000000e+00, 4.000000e+00, 8.000000e+00]> : tile<4xf32>
  global @counter alignment = 16 <i32: 0> : tile<1xi32>
  global private @scale <f64: 5.000000e-01> : tile<1xf64>
  entry @lookup(%out: tile<ptr<f32>>) {
    %t = get_global @table : tile<ptr<f32>>
    %idx = iota : tile<4xi32>
    %t1 = reshape %t : tile<ptr<f32>> -> tile<1xptr<f32>>
    %t4 = broadcast %t1 : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %ptrs = offset %t4, %idx : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %v, %tok = load_ptr_tko weak %ptrs : tile<4xptr<f32>> -> tile<4xf32>, token
    %o1 = reshape %out : tile<ptr<f32>> -> tile<1xptr<f32>>
    %o4 = broadcast %o1 : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %optrs = offset %o4, %idx : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %t2 = store_ptr_tko weak %optrs, %v token = %tok : tile<4xptr<f32>>, tile<4xf32> -> token
    %c = get_global @counter : tile<ptr<i32>>
    %one = constant <i32: 1> : tile<i32>
    %old, %t3 = atomic_rmw_tko relaxed device %c, add, %one : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    return
  }
}
