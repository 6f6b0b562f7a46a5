cuda_tile.module @control_flow {
  entry @clamp_sum(%n: tile<i32>, %limit: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %sum = for %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%acc = %c0) -> (tile<i32>) {
      %next = addi %acc, %i : tile<i32>
      %over = cmpi greater_than %next, %limit, signed : tile<i32> -> tile<i1>
      %clamped = if %over -> (tile<i32>) {
        yield %limit : tile<i32>
      } else {
        yield %next : tile<i32>
      }
      continue %clamped : tile<i32>
    }
    %steps:2 = loop iter_values(%k = %c0, %v = %sum) : tile<i32>, tile<i32> -> tile<i32>, tile<i32> {
      %done = cmpi greater_than_or_equal %k, %n, signed : tile<i32> -> tile<i1>
      if %done {
        break %k, %v : tile<i32>, tile<i32>
      }
      %k1 = addi %k, %c1 : tile<i32>
      continue %k1, %v : tile<i32>, tile<i32>
    }
    return
  }
}
