// Prefix sums (scan, forward and reverse) and an argmax (a two-operand reduce).
cuda_tile.module @scan_argmax {
  entry @prefix(%x: tile<ptr<i32>>, %y: tile<ptr<i32>>, %z: tile<ptr<i32>>, %n: tile<i32>) {
    %tvx = make_tensor_view %x, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %tvy = make_tensor_view %y, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %tvz = make_tensor_view %z, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %pvx = make_partition_view %tvx : partition_view<tile=(256), padding_value = zero, tensor_view<?xi32, strides=[1]>>
    %pvy = make_partition_view %tvy : partition_view<tile=(256), tensor_view<?xi32, strides=[1]>>
    %pvz = make_partition_view %tvz : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %v, %t1 = load_view_tko weak %pvx[%bx] : partition_view<tile=(256), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<256xi32>, token
    %fwd = scan %v dim=0 reverse=false identities=[0 : i32] : tile<256xi32> -> tile<256xi32>
    (%a: tile<i32>, %b: tile<i32>) {
      %s = addi %a, %b : tile<i32>
      yield %s : tile<i32>
    }
    %bwd = scan %fwd dim=0 reverse=true identities=[-2147483648 : i32] : tile<256xi32> -> tile<256xi32>
    (%a: tile<i32>, %b: tile<i32>) {
      %s = maxi %a, %b signed : tile<i32>
      yield %s : tile<i32>
    }
    %t2 = store_view_tko weak %bwd, %pvy[%bx] token = %t1 : tile<256xi32>, partition_view<tile=(256), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
    %idx = iota : tile<256xi32>
    %best, %at = reduce %v, %idx dim=0 identities=[-2147483648 : i32, 0 : i32] : tile<256xi32>, tile<256xi32> -> tile<i32>, tile<i32>
    (%a: tile<i32>, %acc: tile<i32>, %i: tile<i32>, %iacc: tile<i32>) {
      %gt = cmpi greater_than %a, %acc, signed : tile<i32> -> tile<i1>
      %na = select %gt, %a, %acc : tile<i1>, tile<i32>
      %ni = select %gt, %i, %iacc : tile<i1>, tile<i32>
      yield %na, %ni : tile<i32>, tile<i32>
    }
    %at1 = reshape %at : tile<i32> -> tile<1xi32>
    %t3 = store_view_tko weak %at1, %pvz[%bx] token = %t2 : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}
