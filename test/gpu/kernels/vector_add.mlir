// c[i] = a[i] + b[i] over f32 vectors, 1024 elements per tile block
// (grid = n / 1024 blocks).  The ABI of examples/tileir/vector_add.mlir:
// each vector is a pointer and its length.
cuda_tile.module @vector_add {
  entry @vector_add(%a: tile<ptr<f32>>, %na: tile<i32>, %b: tile<ptr<f32>>, %nb: tile<i32>, %c: tile<ptr<f32>>, %nc: tile<i32>) {
    %0 = make_token : token
    %sa = assume bounded<0, ?>, %na : tile<i32>
    %tva = make_tensor_view %a, shape = [%sa], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %sb = assume bounded<0, ?>, %nb : tile<i32>
    %tvb = make_tensor_view %b, shape = [%sb], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %sc = assume bounded<0, ?>, %nc : tile<i32>
    %tvc = make_tensor_view %c, shape = [%sc], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %pva = make_partition_view %tva : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %pvb = make_partition_view %tvb : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %pvc = make_partition_view %tvc : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %ta, %t1 = load_view_tko weak %pva[%bx] token = %0 : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
    %tb, %t2 = load_view_tko weak %pvb[%bx] token = %0 : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
    %s = addf %ta, %tb : tile<1024xf32>
    %t3 = store_view_tko weak %s, %pvc[%bx] token = %0 : tile<1024xf32>, partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
