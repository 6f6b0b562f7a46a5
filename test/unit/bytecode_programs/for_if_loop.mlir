// for with loop-carried values, if/else yielding values, loop with break and continue.
cuda_tile.module @for_if_loop {
  entry @collatz_steps(%out: tile<ptr<i32>>, %n: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c2 = constant <i32: 2> : tile<i32>
    %c3 = constant <i32: 3> : tile<i32>
    %total = for %i in (%c1 to %n, step %c1) : tile<i32> iter_values(%acc = %c0) -> (tile<i32>) {
      %steps:2 = loop iter_values(%x = %i, %k = %c0) : tile<i32>, tile<i32> -> tile<i32>, tile<i32> {
        %done = cmpi less_than_or_equal %x, %c1, signed : tile<i32> -> tile<i1>
        if %done {
          break %x, %k : tile<i32>, tile<i32>
        }
        %k1 = addi %k, %c1 : tile<i32>
        %r = remi %x, %c2 signed : tile<i32>
        %even = cmpi equal %r, %c0, signed : tile<i32> -> tile<i1>
        %next = if %even -> (tile<i32>) {
          %h = divi %x, %c2 signed : tile<i32>
          yield %h : tile<i32>
        } else {
          %t = muli %x, %c3 : tile<i32>
          %t1 = addi %t, %c1 : tile<i32>
          yield %t1 : tile<i32>
        }
        continue %next, %k1 : tile<i32>, tile<i32>
      }
      %acc1 = addi %acc, %steps#1 : tile<i32>
      continue %acc1 : tile<i32>
    }
    %t = store_ptr_tko weak %out, %total : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}
