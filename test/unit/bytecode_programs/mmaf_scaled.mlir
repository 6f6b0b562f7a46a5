// ARCH: sm_100
// SINCE: 13.3
// Block-scaled matmul (13.3, Blackwell): f4E2M1FN operands with f8E8M0FNU scales.
cuda_tile.module @mmaf_scaled {
  entry @gemm_mxfp4(%c: tile<ptr<f32>>) {
    %a = constant <f4E2M1FN: 1.000000e+00> : tile<128x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 5.000000e-01> : tile<64x128xf4E2M1FN>
    %sa = constant <f8E8M0FNU: 1.000000e+00> : tile<128x2xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 2.000000e+00> : tile<2x128xf8E8M0FNU>
    %acc = constant <f32: 0.000000e+00> : tile<128x128xf32>
    %d = mmaf_scaled %a, %b, %acc, %sa, %sb : tile<128x64xf4E2M1FN>, tile<64x128xf4E2M1FN>, tile<128x128xf32>, tile<128x2xf8E8M0FNU>, tile<2x128xf8E8M0FNU>
    %tv = make_tensor_view %c, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xf32, strides=[128,1]>
    %pv = make_partition_view %tv : partition_view<tile=(128x128), tensor_view<128x128xf32, strides=[128,1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %t = store_view_tko weak %d, %pv[%c0, %c0] : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<128x128xf32, strides=[128,1]>>, tile<i32> -> token
    return
  }
}
