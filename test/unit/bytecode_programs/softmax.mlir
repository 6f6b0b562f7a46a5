// Row softmax: 2-D loads, reduce (max, then sum) regions, exp2, divf, a store.
cuda_tile.module @softmax {
  entry @softmax(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>, %rows: tile<i32>) {
    %t0 = make_token : token
    %tvx = make_tensor_view %x, shape = [%rows, 128], strides = [128, 1] : tile<i32> -> tensor_view<?x128xf32, strides=[128,1]>
    %tvy = make_tensor_view %y, shape = [%rows, 128], strides = [128, 1] : tile<i32> -> tensor_view<?x128xf32, strides=[128,1]>
    %pvx = make_partition_view %tvx : partition_view<tile=(4x128), padding_value = neg_inf, tensor_view<?x128xf32, strides=[128,1]>>
    %pvy = make_partition_view %tvy : partition_view<tile=(4x128), tensor_view<?x128xf32, strides=[128,1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %v, %t1 = load_view_tko weak %pvx[%bx, %c0] token = %t0 : partition_view<tile=(4x128), padding_value = neg_inf, tensor_view<?x128xf32, strides=[128,1]>>, tile<i32> -> tile<4x128xf32>, token
    %m = reduce %v dim=1 identities=[0xFF800000 : f32] : tile<4x128xf32> -> tile<4xf32>
    (%a: tile<f32>, %b: tile<f32>) {
      %mx = maxf %a, %b : tile<f32>
      yield %mx : tile<f32>
    }
    %m2 = reshape %m : tile<4xf32> -> tile<4x1xf32>
    %mb = broadcast %m2 : tile<4x1xf32> -> tile<4x128xf32>
    %d = subf %v, %mb : tile<4x128xf32>
    %log2e = constant <f32: 1.44269504> : tile<4x128xf32>
    %d2 = mulf %d, %log2e : tile<4x128xf32>
    %e = exp2 %d2 : tile<4x128xf32>
    %s = reduce %e dim=1 identities=[0.000000e+00 : f32] : tile<4x128xf32> -> tile<4xf32>
    (%a: tile<f32>, %b: tile<f32>) {
      %sum = addf %a, %b : tile<f32>
      yield %sum : tile<f32>
    }
    %s2 = reshape %s : tile<4xf32> -> tile<4x1xf32>
    %sb = broadcast %s2 : tile<4x1xf32> -> tile<4x128xf32>
    %p = divf %e, %sb : tile<4x128xf32>
    %t2 = store_view_tko weak %p, %pvy[%bx, %c0] token = %t1 : tile<4x128xf32>, partition_view<tile=(4x128), tensor_view<?x128xf32, strides=[128,1]>>, tile<i32> -> token
    return
  }
}
