// SINCE: 13.3
// Optimization hints on an entry (per arch, and default) and on view loads and stores; memory scopes.
cuda_tile.module @hints {
  entry @copy(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>) optimization_hints=<default = {num_cta_in_cga = 1}, sm_100 = {num_cta_in_cga = 2, num_worker_warps_per_cta = 4}, sm_90 = {num_cta_in_cga = 1}> {
    %tvx = make_tensor_view %x, shape = [4096], strides = [1] : tensor_view<4096xf32, strides=[1]>
    %tvy = make_tensor_view %y, shape = [4096], strides = [1] : tensor_view<4096xf32, strides=[1]>
    %pvx = make_partition_view %tvx : partition_view<tile=(256), tensor_view<4096xf32, strides=[1]>>
    %pvy = make_partition_view %tvy : partition_view<tile=(256), tensor_view<4096xf32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %v, %t1 = load_view_tko weak %pvx[%bx] optimization_hints = <sm_100 = {allow_tma = false, latency = 4}, sm_90 = {latency = 2}> : partition_view<tile=(256), tensor_view<4096xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
    %w, %t2 = load_view_tko acquire device %pvx[%bx] token = %t1 : partition_view<tile=(256), tensor_view<4096xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
    %s = addf %v, %w : tile<256xf32>
    %t3 = store_view_tko release sys %s, %pvy[%bx] token = %t2 optimization_hints = <sm_90 = {allow_tma = true}> : tile<256xf32>, partition_view<tile=(256), tensor_view<4096xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
