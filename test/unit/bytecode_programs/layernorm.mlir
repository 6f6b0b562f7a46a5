// Layer norm over rows of 256: two reductions, rsqrt, scale and shift loaded once per block.
cuda_tile.module @layernorm {
  entry @layernorm(%x: tile<ptr<bf16>>, %w: tile<ptr<bf16>>, %y: tile<ptr<bf16>>, %rows: tile<i32>) {
    %tvx = make_tensor_view %x, shape = [%rows, 256], strides = [256, 1] : tile<i32> -> tensor_view<?x256xbf16, strides=[256,1]>
    %tvw = make_tensor_view %w, shape = [256], strides = [1] : tensor_view<256xbf16, strides=[1]>
    %tvy = make_tensor_view %y, shape = [%rows, 256], strides = [256, 1] : tile<i32> -> tensor_view<?x256xbf16, strides=[256,1]>
    %pvx = make_partition_view %tvx : partition_view<tile=(2x256), tensor_view<?x256xbf16, strides=[256,1]>>
    %pvw = make_partition_view %tvw : partition_view<tile=(256), tensor_view<256xbf16, strides=[1]>>
    %pvy = make_partition_view %tvy : partition_view<tile=(2x256), tensor_view<?x256xbf16, strides=[256,1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %xb, %t1 = load_view_tko weak %pvx[%bx, %c0] : partition_view<tile=(2x256), tensor_view<?x256xbf16, strides=[256,1]>>, tile<i32> -> tile<2x256xbf16>, token
    %wb, %t2 = load_view_tko weak %pvw[%c0] : partition_view<tile=(256), tensor_view<256xbf16, strides=[1]>>, tile<i32> -> tile<256xbf16>, token
    %v = ftof %xb : tile<2x256xbf16> -> tile<2x256xf32>
    %sum = reduce %v dim=1 identities=[0.000000e+00 : f32] : tile<2x256xf32> -> tile<2xf32>
    (%a: tile<f32>, %b: tile<f32>) {
      %s = addf %a, %b : tile<f32>
      yield %s : tile<f32>
    }
    %inv_n = constant <f32: 3.906250e-03> : tile<2xf32>
    %mean = mulf %sum, %inv_n : tile<2xf32>
    %mean2 = reshape %mean : tile<2xf32> -> tile<2x1xf32>
    %meanb = broadcast %mean2 : tile<2x1xf32> -> tile<2x256xf32>
    %d = subf %v, %meanb : tile<2x256xf32>
    %sq = mulf %d, %d : tile<2x256xf32>
    %var = reduce %sq dim=1 identities=[0.000000e+00 : f32] : tile<2x256xf32> -> tile<2xf32>
    (%a: tile<f32>, %b: tile<f32>) {
      %s = addf %a, %b : tile<f32>
      yield %s : tile<f32>
    }
    %var1 = mulf %var, %inv_n : tile<2xf32>
    %eps = constant <f32: 9.99999974E-6> : tile<2xf32>
    %ve = addf %var1, %eps : tile<2xf32>
    %rs = rsqrt %ve : tile<2xf32>
    %rs2 = reshape %rs : tile<2xf32> -> tile<2x1xf32>
    %rsb = broadcast %rs2 : tile<2x1xf32> -> tile<2x256xf32>
    %norm = mulf %d, %rsb : tile<2x256xf32>
    %wf = ftof %wb : tile<256xbf16> -> tile<256xf32>
    %w2 = reshape %wf : tile<256xf32> -> tile<1x256xf32>
    %wbb = broadcast %w2 : tile<1x256xf32> -> tile<2x256xf32>
    %out = mulf %norm, %wbb : tile<2x256xf32>
    %ob = ftof %out : tile<2x256xf32> -> tile<2x256xbf16>
    %t3 = store_view_tko weak %ob, %pvy[%bx, %c0] token = %t1 : tile<2x256xbf16>, partition_view<tile=(2x256), tensor_view<?x256xbf16, strides=[256,1]>>, tile<i32> -> token
    return
  }
}
