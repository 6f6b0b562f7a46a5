// assume: divisibility of pointers and sizes, bounds, and equal element groups.
cuda_tile.module @assume {
  entry @aligned_add(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %n: tile<i32>) {
    %pa = assume div_by<16>, %a : tile<ptr<f32>>
    %pb = assume div_by<16>, %b : tile<ptr<f32>>
    %n0 = assume bounded<0, ?>, %n : tile<i32>
    %n1 = assume div_by<128>, %n0 : tile<i32>
    %tva = make_tensor_view %pa, shape = [%n1], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tvb = make_tensor_view %pb, shape = [%n1], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pva = make_partition_view %tva : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>
    %pvb = make_partition_view %tvb : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %i = iota : tile<128xi32>
    %g = assume same_elements<[4]>, %i : tile<128xi32>
    %d = assume div_by<4, every 4 along 0>, %g : tile<128xi32>
    %va, %t1 = load_view_tko weak %pva[%bx] : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
    %vb, %t2 = load_view_tko weak %pvb[%bx] : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
    %s = addf %va, %vb : tile<128xf32>
    %t3 = store_view_tko weak %s, %pva[%bx] token = %t1 : tile<128xf32>, partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
