// SINCE: 13.2
// An unsigned for loop (13.2) over i64 bounds, with an early continue.
cuda_tile.module @for_unsigned {
  entry @count_multiples(%out: tile<ptr<i64>>, %n: tile<i64>, %k: tile<i64>) {
    %c0 = constant <i64: 0> : tile<i64>
    %c1 = constant <i64: 1> : tile<i64>
    %count = for unsigned %i in (%c0 to %n, step %c1) : tile<i64> iter_values(%acc = %c0) -> (tile<i64>) {
      %r = remi %i, %k unsigned : tile<i64>
      %skip = cmpi not_equal %r, %c0, unsigned : tile<i64> -> tile<i1>
      if %skip {
        continue %acc : tile<i64>
      }
      %acc1 = addi %acc, %c1 overflow<no_unsigned_wrap> : tile<i64>
      continue %acc1 : tile<i64>
    }
    %t = store_ptr_tko weak %out, %count : tile<ptr<i64>>, tile<i64> -> token
    return
  }
}
