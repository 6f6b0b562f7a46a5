// RUN: %roundtrip %s | filecheck %s

cuda_tile.module @control {
  // CHECK-LABEL: entry @for_loops(
  entry @for_loops(%lb: tile<i32>, %ub: tile<i32>, %st: tile<i32>, %lb64: tile<i64>, %f: tile<f32>, %x: tile<i32>, %c: tile<i1>) {
    // An operand-less `continue` is implicit and not printed.
    // CHECK: for %i0 in (%lb to %ub, step %st) : tile<i32> {
    // CHECK-NEXT: }
    for %i0 in (%lb to %ub, step %st) : tile<i32> {
      continue
    }
    // CHECK: for %i1 in (%lb to %ub, step %st) : tile<i32> {
    // CHECK-NEXT: }
    for %i1 in (%lb to %ub, step %st) : tile<i32> {}
    // CHECK: for unsigned %i2 in (%lb to %ub, step %st) : tile<i32> {
    // CHECK-NEXT: }
    for unsigned %i2 in (%lb to %ub, step %st) : tile<i32> {
    }
    // CHECK: for %i3 in (%lb64 to %lb64, step %lb64) : tile<i64> {
    for %i3 in (%lb64 to %lb64, step %lb64) : tile<i64> {
    }
    // Several loop-carried values of different types.
    // CHECK: %r0:3 = for %i4 in (%lb to %ub, step %st) : tile<i32> iter_values(%acc = %f, %n = %x, %flag = %c) -> (tile<f32>, tile<i32>, tile<i1>) {
    // CHECK-NEXT: continue %acc, %i4, %flag : tile<f32>, tile<i32>, tile<i1>
    // CHECK-NEXT: }
    %r0:3 = for %i4 in (%lb to %ub, step %st) : tile<i32>
        iter_values(%acc = %f, %n = %x, %flag = %c) -> (tile<f32>, tile<i32>, tile<i1>) {
      continue %acc, %i4, %flag : tile<f32>, tile<i32>, tile<i1>
    }
    // CHECK: %r1 = for unsigned %i5 in (%lb to %ub, step %st) : tile<i32> iter_values(%a5 = %x) -> (tile<i32>) {
    %r1 = for unsigned %i5 in (%lb to %ub, step %st) : tile<i32> iter_values(%a5 = %x) -> (tile<i32>) {
      continue %a5 : tile<i32>
    }
    // Nested loops; the inner one carries the outer one's value.
    // CHECK: %outer = for %i6 in (%lb to %ub, step %st) : tile<i32> iter_values(%o = %f) -> (tile<f32>) {
    // CHECK-NEXT: %inner = for %i7 in (%lb to %ub, step %st) : tile<i32> iter_values(%p = %o) -> (tile<f32>) {
    // CHECK-NEXT: continue %p : tile<f32>
    // CHECK-NEXT: }
    // CHECK-NEXT: continue %inner : tile<f32>
    // CHECK-NEXT: }
    %outer = for %i6 in (%lb to %ub, step %st) : tile<i32> iter_values(%o = %f) -> (tile<f32>) {
      %inner = for %i7 in (%lb to %ub, step %st) : tile<i32> iter_values(%p = %o) -> (tile<f32>) {
        continue %p : tile<f32>
      }
      continue %inner : tile<f32>
    }
    // `continue` from an `if` nested in the loop body.
    // CHECK: %r2 = for %i8 in (%lb to %ub, step %st) : tile<i32> iter_values(%a8 = %x) -> (tile<i32>) {
    // CHECK-NEXT: if %c {
    // CHECK-NEXT: continue %i8 : tile<i32>
    // CHECK-NEXT: }
    // CHECK-NEXT: continue %a8 : tile<i32>
    // CHECK-NEXT: }
    %r2 = for %i8 in (%lb to %ub, step %st) : tile<i32> iter_values(%a8 = %x) -> (tile<i32>) {
      if %c {
        continue %i8 : tile<i32>
      }
      continue %a8 : tile<i32>
    }
    // CHECK: for %i9 in (%lb to %ub, step %st) : tile<i32> {
    // CHECK-NEXT: if %c {
    // CHECK-NEXT: continue
    // CHECK-NEXT: }
    // CHECK-NEXT: }
    for %i9 in (%lb to %ub, step %st) : tile<i32> {
      if %c {
        continue
      }
    }
    // Fully qualified spelling prints canonically.
    // CHECK: %r3 = for %i10 in (%lb to %ub, step %st) : tile<i32> iter_values(%a10 = %f) -> (tile<f32>) {
    // CHECK-NEXT: continue %a10 : tile<f32>
    %r3 = cuda_tile.for %i10 in (%lb to %ub, step %st) : !cuda_tile.tile<i32> iter_values(%a10 = %f) -> (!cuda_tile.tile<f32>) {
      cuda_tile.continue %a10 : !cuda_tile.tile<f32>
    }
    // A loop carrying a whole tile, and an `if` choosing between tiles.
    // CHECK: %zero = constant <f32: 0.000000e+00> : tile<128x128xf32>
    // CHECK-NEXT: %tile = for %i11 in (%lb to %ub, step %st) : tile<i32> iter_values(%t = %zero) -> (tile<128x128xf32>) {
    // CHECK-NEXT: %next = if %c -> (tile<128x128xf32>) {
    // CHECK-NEXT: yield %zero : tile<128x128xf32>
    // CHECK-NEXT: } else {
    // CHECK-NEXT: yield %t : tile<128x128xf32>
    // CHECK-NEXT: }
    // CHECK-NEXT: continue %next : tile<128x128xf32>
    // CHECK-NEXT: }
    %zero = constant <f32: 0.0> : tile<128x128xf32>
    %tile = for %i11 in (%lb to %ub, step %st) : tile<i32> iter_values(%t = %zero) -> (tile<128x128xf32>) {
      %next = if %c -> (tile<128x128xf32>) {
        yield %zero : tile<128x128xf32>
      } else {
        yield %t : tile<128x128xf32>
      }
      continue %next : tile<128x128xf32>
    }
    // CHECK: return
    return
  }

  // CHECK-LABEL: entry @loops(
  entry @loops(%x: tile<i32>, %f: tile<f32>, %c: tile<i1>, %lb: tile<i32>) {
    // CHECK: loop {
    // CHECK-NEXT: }
    loop {
      continue
    }
    // CHECK: %l0 = loop : tile<i32> {
    // CHECK-NEXT: }
    %l0 = loop : tile<i32> {}
    // CHECK: loop iter_values(%a0 = %x) : tile<i32> {
    // CHECK-NEXT: if %c {
    // CHECK-NEXT: break
    // CHECK-NEXT: }
    // CHECK-NEXT: continue %a0 : tile<i32>
    // CHECK-NEXT: }
    loop iter_values(%a0 = %x) : tile<i32> {
      if %c {
        break
      }
      continue %a0 : tile<i32>
    }
    // A "do-while" loop: results of other types than the carried values.
    // CHECK: %l1:3 = loop iter_values(%a1 = %x, %b1 = %f) : tile<i32>, tile<f32> -> tile<f32>, tile<i1>, tile<i32> {
    // CHECK-NEXT: if %c {
    // CHECK-NEXT: continue %a1, %b1 : tile<i32>, tile<f32>
    // CHECK-NEXT: }
    // CHECK-NEXT: break %b1, %c, %a1 : tile<f32>, tile<i1>, tile<i32>
    // CHECK-NEXT: }
    %l1:3 = loop iter_values(%a1 = %x, %b1 = %f) : tile<i32>, tile<f32> -> tile<f32>, tile<i1>, tile<i32> {
      if %c {
        continue %a1, %b1 : tile<i32>, tile<f32>
      }
      break %b1, %c, %a1 : tile<f32>, tile<i1>, tile<i32>
    }
    // Results without carried values.
    // CHECK: %l2 = loop : tile<f32> {
    // CHECK-NEXT: break %f : tile<f32>
    // CHECK-NEXT: }
    %l2 = loop : tile<f32> {
      break %f : tile<f32>
    }
    // `break` leaves the innermost loop, through nested `if`s.
    // CHECK: %l3 = loop iter_values(%a3 = %x) : tile<i32> -> tile<i32> {
    // CHECK-NEXT: %l4 = loop iter_values(%a4 = %a3) : tile<i32> -> tile<i32> {
    // CHECK-NEXT: if %c {
    // CHECK-NEXT: if %c {
    // CHECK-NEXT: break %a4 : tile<i32>
    // CHECK-NEXT: }
    // CHECK-NEXT: }
    // CHECK-NEXT: continue %a4 : tile<i32>
    // CHECK-NEXT: }
    // CHECK-NEXT: if %c {
    // CHECK-NEXT: break %l4 : tile<i32>
    // CHECK-NEXT: }
    // CHECK-NEXT: continue %l4 : tile<i32>
    // CHECK-NEXT: }
    %l3 = loop iter_values(%a3 = %x) : tile<i32> -> tile<i32> {
      %l4 = loop iter_values(%a4 = %a3) : tile<i32> -> tile<i32> {
        if %c {
          if %c {
            break %a4 : tile<i32>
          }
        }
        continue %a4 : tile<i32>
      }
      if %c {
        break %l4 : tile<i32>
      }
      continue %l4 : tile<i32>
    }
    // A `for` inside a `loop` and a `loop` inside a `for`.
    // CHECK: loop {
    // CHECK-NEXT: for %i0 in (%lb to %x, step %lb) : tile<i32> {
    // CHECK-NEXT: loop {
    // CHECK-NEXT: break
    // CHECK-NEXT: }
    // CHECK-NEXT: }
    // CHECK-NEXT: break
    // CHECK-NEXT: }
    loop {
      for %i0 in (%lb to %x, step %lb) : tile<i32> {
        loop {
          break
        }
      }
      break
    }
    // CHECK: %l5 = loop iter_values(%a5 = %f) : tile<f32> -> tile<f32> {
    // CHECK-NEXT: break %a5 : tile<f32>
    %l5 = cuda_tile.loop iter_values(%a5 = %f) : !cuda_tile.tile<f32> -> !cuda_tile.tile<f32> {
      cuda_tile.break %a5 : !cuda_tile.tile<f32>
    }
    return
  }

  // CHECK-LABEL: entry @ifs(
  entry @ifs(%c: tile<i1>, %d: tile<i1>, %x: tile<i32>, %f: tile<f32>) {
    // CHECK: if %c {
    // CHECK-NEXT: }
    if %c {
      yield
    }
    // CHECK: if %c {
    // CHECK-NEXT: } else {
    // CHECK-NEXT: }
    if %c {
    } else {
      yield
    }
    // CHECK: %r0 = if %c -> (tile<i1>) {
    // CHECK-NEXT: yield %c : tile<i1>
    // CHECK-NEXT: } else {
    // CHECK-NEXT: yield %d : tile<i1>
    // CHECK-NEXT: }
    %r0 = if %c -> (tile<i1>) {
      yield %c : tile<i1>
    } else {
      yield %d : tile<i1>
    }
    // Several results of different types; an else-if chain.
    // CHECK: %r1:2 = if %c -> (tile<f32>, tile<i32>) {
    // CHECK-NEXT: yield %f, %x : tile<f32>, tile<i32>
    // CHECK-NEXT: } else {
    // CHECK-NEXT: %r2:2 = if %d -> (tile<f32>, tile<i32>) {
    // CHECK-NEXT: yield %f, %x : tile<f32>, tile<i32>
    // CHECK-NEXT: } else {
    // CHECK-NEXT: yield %f, %x : tile<f32>, tile<i32>
    // CHECK-NEXT: }
    // CHECK-NEXT: yield %r2#0, %r2#1 : tile<f32>, tile<i32>
    // CHECK-NEXT: }
    %r1:2 = if %c -> (tile<f32>, tile<i32>) {
      yield %f, %x : tile<f32>, tile<i32>
    } else {
      %r2:2 = if %d -> (tile<f32>, tile<i32>) {
        yield %f, %x : tile<f32>, tile<i32>
      } else {
        yield %f, %x : tile<f32>, tile<i32>
      }
      yield %r2#0, %r2#1 : tile<f32>, tile<i32>
    }
    // CHECK: %r3 = if %d -> (tile<i32>) {
    // CHECK-NEXT: yield %x : tile<i32>
    // CHECK-NEXT: } else {
    // CHECK-NEXT: yield %x : tile<i32>
    // CHECK-NEXT: }
    %r3 = cuda_tile.if %d -> (!cuda_tile.tile<i32>) {
      cuda_tile.yield %x : !cuda_tile.tile<i32>
    } else {
      cuda_tile.yield %x : !cuda_tile.tile<i32>
    }
    return
  }

  // Early exit: `return` from `if` branches ends the kernel.
  // CHECK-LABEL: entry @early_exit(
  // CHECK-NEXT: if %c {
  // CHECK-NEXT: if %c {
  // CHECK-NEXT: return
  // CHECK-NEXT: } else {
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  // CHECK-NEXT: return
  // CHECK-NEXT: }
  entry @early_exit(%c: tile<i1>) {
    if %c {
      if %c {
        return
      } else {
        return
      }
      return
    }
  }
}
