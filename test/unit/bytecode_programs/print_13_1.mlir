// 13.1's print: no token operand, and its result token unused.
cuda_tile.module @print_13_1 {
  entry @hello(%x: tile<i32>) {
    %t = print_tko "x = %d\n", %x : tile<i32> -> token
    return
  }
}
