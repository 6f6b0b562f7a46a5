// SINCE: 13.4
// The ops of 13.4: fpowi, insert, gdc_launch_dependents_tko, gdc_wait_tko, memory_fence_alias_tko;
// inbounds on view accesses; saturating ftoi; nearest_away rounding.
cuda_tile.module @v13_4_ops {
  entry @pow_insert(%x: tile<ptr<f32>>, %y: tile<ptr<i16>>, %e: tile<i32>) {
    %w = gdc_wait_tko -> token
    %tvx = make_tensor_view %x, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
    %tvy = make_tensor_view %y, shape = [1024], strides = [1] : tensor_view<1024xi16, strides=[1]>
    %pvx = make_partition_view %tvx : partition_view<tile=(64), tensor_view<1024xf32, strides=[1]>>
    %pvy = make_partition_view %tvy : partition_view<tile=(64), tensor_view<1024xi16, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %v, %t1 = load_view_tko weak %pvx[%bx] token = %w inbounds = [true] : partition_view<tile=(64), tensor_view<1024xf32, strides=[1]>>, tile<i32> -> tile<64xf32>, token
    %e1 = reshape %e : tile<i32> -> tile<1xi32>
    %e64 = broadcast %e1 : tile<1xi32> -> tile<64xi32>
    %p = fpowi %v, %e64 : tile<64xf32>, tile<64xi32>
    %tf = ftof %p rounding<nearest_away> : tile<64xf32> -> tile<64xtf32>
    %ptf = ftof %tf : tile<64xtf32> -> tile<64xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %one = constant <f32: 1.000000e+00> : tile<4xf32>
    %q = insert %one, %ptf[%c0] : tile<4xf32>, tile<64xf32>
    %s = ftoi %q signed saturating : tile<64xf32> -> tile<64xi16>
    %f = memory_fence_alias_tko %t1
    %t2 = store_view_tko weak %s, %pvy[%bx] token = %f : tile<64xi16>, partition_view<tile=(64), tensor_view<1024xi16, strides=[1]>>, tile<i32> -> token
    %l = gdc_launch_dependents_tko token = %t2 -> token
    return
  }
}
