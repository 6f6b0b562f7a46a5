// SINCE: 13.3
// Math with explicit modes: exp rounding (13.3), tanh rounding (13.2), flush-to-zero, NaN propagation.
cuda_tile.module @math_modes {
  entry @activations(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>) {
    %i = iota : tile<128xi32>
    %x1 = reshape %x : tile<ptr<f32>> -> tile<1xptr<f32>>
    %x128 = broadcast %x1 : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %xp = offset %x128, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %v, %t1 = load_ptr_tko weak %xp : tile<128xptr<f32>> -> tile<128xf32>, token
    %e = exp %v rounding<approx> : tile<128xf32>
    %th = tanh %v rounding<approx> : tile<128xf32>
    %s = sqrt %e rounding<approx> flush_to_zero : tile<128xf32>
    %r = rsqrt %s flush_to_zero : tile<128xf32>
    %m = maxf %th, %r propagate_nan flush_to_zero : tile<128xf32>
    %n = minf %m, %v : tile<128xf32>
    %d = divf %n, %e rounding<approx> flush_to_zero : tile<128xf32>
    %f = fma %d, %v, %th rounding<nearest_even> : tile<128xf32>
    %l = log2 %e : tile<128xf32>
    %a = atan2 %f, %l : tile<128xf32>
    %y1 = reshape %y : tile<ptr<f32>> -> tile<1xptr<f32>>
    %y128 = broadcast %y1 : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %yp = offset %y128, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %t2 = store_ptr_tko weak %yp, %a token = %t1 : tile<128xptr<f32>>, tile<128xf32> -> token
    return
  }
}
