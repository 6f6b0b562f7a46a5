// SINCE: 13.2
// Device printing ordered by tokens, and assertions.
cuda_tile.module @print_assert {
  entry @check(%p: tile<ptr<f32>>, %n: tile<i32>, %limit: tile<i32>) {
    %ok = cmpi less_than %n, %limit, signed : tile<i32> -> tile<i1>
    assert %ok, "n must be below the limit" : tile<i1>
    %v, %t0 = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token
    %t1 = print_tko "n=%d value=%f\n", %n, %v token = %t0 : tile<i32>, tile<f32> -> token
    %i = iota : tile<8xi32>
    %c = constant <i32: 8> : tile<8xi32>
    %inb = cmpi less_than %i, %c, unsigned : tile<8xi32> -> tile<8xi1>
    assert %inb, "iota in range" : tile<8xi1>
    %t2 = print_tko "lanes: %d\n", %i token = %t1 : tile<8xi32> -> token
    %t3 = print_tko "100%% done\n" token = %t2 -> token
    return
  }
}
