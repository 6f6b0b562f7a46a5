// Casts between element types: ftof (rounding), ftoi, itof, exti, trunci (overflow), bitcast.
cuda_tile.module @conversions {
  entry @convert(%x: tile<ptr<f32>>, %h: tile<ptr<f16>>, %q: tile<ptr<i8>>, %n: tile<ptr<i64>>) {
    %i = iota : tile<64xi32>
    %x1 = reshape %x : tile<ptr<f32>> -> tile<1xptr<f32>>
    %x64 = broadcast %x1 : tile<1xptr<f32>> -> tile<64xptr<f32>>
    %xp = offset %x64, %i : tile<64xptr<f32>>, tile<64xi32> -> tile<64xptr<f32>>
    %v, %t1 = load_ptr_tko weak %xp : tile<64xptr<f32>> -> tile<64xf32>, token
    %vh = ftof %v rounding<nearest_even> : tile<64xf32> -> tile<64xf16>
    %vb = ftof %v rounding<zero> : tile<64xf32> -> tile<64xbf16>
    %vd = ftof %vb : tile<64xbf16> -> tile<64xf64>
    %vi = ftoi %vd signed rounding<nearest_int_to_zero> : tile<64xf64> -> tile<64xi32>
    %vu = ftoi %vh unsigned : tile<64xf16> -> tile<64xi16>
    %w = exti %vu unsigned : tile<64xi16> -> tile<64xi64>
    %s = trunci %vi overflow<no_signed_wrap> : tile<64xi32> -> tile<64xi8>
    %f = itof %s signed rounding<nearest_even> : tile<64xi8> -> tile<64xf32>
    %bits = bitcast %f : tile<64xf32> -> tile<64xi32>
    %g = itof %bits unsigned : tile<64xi32> -> tile<64xf16>
    %h1 = reshape %h : tile<ptr<f16>> -> tile<1xptr<f16>>
    %h64 = broadcast %h1 : tile<1xptr<f16>> -> tile<64xptr<f16>>
    %hp = offset %h64, %i : tile<64xptr<f16>>, tile<64xi32> -> tile<64xptr<f16>>
    %t2 = store_ptr_tko weak %hp, %g : tile<64xptr<f16>>, tile<64xf16> -> token
    %q1 = reshape %q : tile<ptr<i8>> -> tile<1xptr<i8>>
    %q64 = broadcast %q1 : tile<1xptr<i8>> -> tile<64xptr<i8>>
    %qp = offset %q64, %i : tile<64xptr<i8>>, tile<64xi32> -> tile<64xptr<i8>>
    %t3 = store_ptr_tko weak %qp, %s : tile<64xptr<i8>>, tile<64xi8> -> token
    %n1 = reshape %n : tile<ptr<i64>> -> tile<1xptr<i64>>
    %n64 = broadcast %n1 : tile<1xptr<i64>> -> tile<64xptr<i64>>
    %np = offset %n64, %i : tile<64xptr<i64>>, tile<64xi32> -> tile<64xptr<i64>>
    %t4 = store_ptr_tko weak %np, %w : tile<64xptr<i64>>, tile<64xi64> -> token
    return
  }
}
