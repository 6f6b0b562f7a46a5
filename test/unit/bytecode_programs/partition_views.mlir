// Partition views: padding values, a transposing dim_map, tensor and index-space shapes, 3-d grid.
cuda_tile.module @partition_views {
  entry @transpose(%x: tile<ptr<f16>>, %y: tile<ptr<f16>>, %m: tile<i64>, %n: tile<i64>) {
    %tvx = make_tensor_view %x, shape = [%m, %n], strides = [%n, 1] : tile<i64> -> tensor_view<?x?xf16, strides=[?,1]>
    %tvy = make_tensor_view %y, shape = [%n, %m], strides = [%m, 1] : tile<i64> -> tensor_view<?x?xf16, strides=[?,1]>
    %pvx = make_partition_view %tvx : partition_view<tile=(32x64), padding_value = nan, tensor_view<?x?xf16, strides=[?,1]>, dim_map=[1, 0]>
    %pvy = make_partition_view %tvy : partition_view<tile=(32x64), tensor_view<?x?xf16, strides=[?,1]>>
    %shape:2 = get_tensor_shape %tvx : tensor_view<?x?xf16, strides=[?,1]> -> tile<i64>
    %tiles:2 = get_index_space_shape %pvy : partition_view<tile=(32x64), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %nx, %ny, %nz = get_num_tile_blocks : tile<i32>
    %inside = cmpi less_than %bx, %tiles#0, signed : tile<i32> -> tile<i1>
    if %inside {
      %v, %t1 = load_view_tko weak %pvx[%bx, %by] : partition_view<tile=(32x64), padding_value = nan, tensor_view<?x?xf16, strides=[?,1]>, dim_map=[1, 0]>, tile<i32> -> tile<32x64xf16>, token
      %t2 = store_view_tko weak %v, %pvy[%bx, %by] token = %t1 : tile<32x64xf16>, partition_view<tile=(32x64), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
    }
    return
  }
}
