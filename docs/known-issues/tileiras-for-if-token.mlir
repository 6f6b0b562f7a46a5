cuda_tile.module @v {
  entry @v(%z: tile<ptr<f32>>, %z_shape0: tile<i32>, %z_stride0: tile<i32>, %x: tile<ptr<f32>>, %x_shape0: tile<i32>, %x_stride0: tile<i32>, %n: tile<i32>) {
    %token = make_token : token
    %b:3 = get_tile_block_id : tile<i32>
    %2 = make_tensor_view %z, shape = [%z_shape0], strides = [%z_stride0] : tile<i32> -> tensor_view<?xf32, strides=[?]>
    %pz = make_partition_view %2 : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>
    %5 = make_tensor_view %x, shape = [%x_shape0], strides = [%x_stride0] : tile<i32> -> tensor_view<?xf32, strides=[?]>
    %px = make_partition_view %5 : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>
    %c0 = constant <i32: 0> : tile<i32>
    %two = constant <f32: 2.0> : tile<64xf32>
    %one = constant <f32: 1.0> : tile<64xf32>
    %c = cmpi greater_than %n, %c0, signed : tile<i32> -> tile<i1>
    %x0:2 = load_view_tko weak %px[%b#0] : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<64xf32>, token
    %s0 = store_view_tko weak %x0#0, %pz[%b#0] token = %token : tile<64xf32>, partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> token
    %c1 = constant <i32: 1> : tile<i32>
    %tf = for %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%tk = %s0) -> (token) {
      %r = if %c -> (token) {
        %l:2 = load_view_tko weak %pz[%b#0] token = %tk : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<64xf32>, token
        %v = mulf %l#0, %two : tile<64xf32>
        %s = store_view_tko weak %v, %pz[%b#0] token = %l#1 : tile<64xf32>, partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> token
        yield %s : token
      } else {
        yield %tk : token
      }
      continue %r : token
    }
    %lf:2 = load_view_tko weak %pz[%b#0] token = %tf : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<64xf32>, token
    %vf = subf %lf#0, %one : tile<64xf32>
    %sf = store_view_tko weak %vf, %pz[%b#0] token = %lf#1 : tile<64xf32>, partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> token
    return
  }
}
