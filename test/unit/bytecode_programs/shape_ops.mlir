// Shape manipulation: iota, reshape, broadcast, permute, cat, extract, select; dense constants.
cuda_tile.module @shape_ops {
  entry @shuffle(%out: tile<ptr<i32>>) {
    %i = iota : tile<16xi32>
    %m = reshape %i : tile<16xi32> -> tile<4x4xi32>
    %t = permute %m [1, 0] : tile<4x4xi32> -> tile<4x4xi32>
    %c = cat %m, %t dim = 0 : tile<4x4xi32>, tile<4x4xi32> -> tile<8x4xi32>
    %c1 = constant <i32: 1> : tile<i32>
    %top = extract %c[%c1, %c1] : tile<8x4xi32> -> tile<4x2xi32>
    %mask = constant <i1: [[true, false], [false, true], [true, true], [false, false]]> : tile<4x2xi1>
    %k = constant <i32: [[1, 2], [3, 4], [5, 6], [7, 8]]> : tile<4x2xi32>
    %s = select %mask, %top, %k : tile<4x2xi1>, tile<4x2xi32>
    %flat = reshape %s : tile<4x2xi32> -> tile<8xi32>
    %o1 = reshape %out : tile<ptr<i32>> -> tile<1xptr<i32>>
    %o8 = broadcast %o1 : tile<1xptr<i32>> -> tile<8xptr<i32>>
    %j = iota : tile<8xi32>
    %op = offset %o8, %j : tile<8xptr<i32>>, tile<8xi32> -> tile<8xptr<i32>>
    %t1 = store_ptr_tko weak %op, %flat : tile<8xptr<i32>>, tile<8xi32> -> token
    return
  }
}
