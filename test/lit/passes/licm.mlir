// RUN: %opt %s --split-input-file -p licm | filecheck %s

// An invariant pure op leaves the loop; ops using the induction variable or
// the carried value stay.
// CHECK-LABEL: entry @invariant
// CHECK:      %inv = mulf %a, %a : tile<f32>
// CHECK-NEXT: %r = for %i
// CHECK-NEXT:   %s = addf %acc, %inv : tile<f32>
// CHECK-NEXT:   continue %s : tile<f32>
cuda_tile.module @m {
  entry @invariant(%n: tile<i32>, %a: tile<f32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %r = for %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%acc = %a) -> (tile<f32>) {
      %inv = mulf %a, %a : tile<f32>
      %s = addf %acc, %inv : tile<f32>
      continue %s : tile<f32>
    }
    return
  }
}

// -----

// divi is free of side effects but not speculatable (division by zero), and a
// for may run zero times: it stays.
// CHECK-LABEL: entry @not_speculatable
// CHECK: for
// CHECK-NEXT: divi %n, %d signed
cuda_tile.module @m {
  entry @not_speculatable(%n: tile<i32>, %d: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %i in (%c0 to %n, step %c1) : tile<i32> {
      %q = divi %n, %d signed : tile<i32>
    }
    return
  }
}

// -----

// Chains of invariant ops move together, and out of every loop level.
// CHECK-LABEL: entry @nested
// CHECK:      %x = addi %n, %n : tile<i32>
// CHECK-NEXT: %y = muli %x, %x : tile<i32>
// CHECK-NEXT: for %i
// CHECK-NEXT:   for %j
// CHECK-NEXT:     %z = addi %y, %j : tile<i32>
cuda_tile.module @m {
  entry @nested(%n: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %i in (%c0 to %n, step %c1) : tile<i32> {
      for %j in (%c0 to %n, step %c1) : tile<i32> {
        %x = addi %n, %n : tile<i32>
        %y = muli %x, %x : tile<i32>
        %z = addi %y, %j : tile<i32>
      }
    }
    return
  }
}

// -----

// Memory operations and prints keep their place.
// CHECK-LABEL: entry @effects
// CHECK: for
// CHECK-NEXT: load_ptr_tko weak %p
// CHECK: print_tko
cuda_tile.module @m {
  entry @effects(%n: tile<i32>, %p: tile<ptr<f32>>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %i in (%c0 to %n, step %c1) : tile<i32> {
      %v, %t = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token
      %t2 = print_tko "%f", %v : tile<f32> -> token
    }
    return
  }
}

// -----

// The body of a `loop` runs at least once; invariant pure ops leave it too.
// CHECK-LABEL: entry @loop_op
// CHECK:      %inv = subi %n, %n : tile<i32>
// CHECK-NEXT: loop iter_values
cuda_tile.module @m {
  entry @loop_op(%n: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %r = loop iter_values(%k = %c0) : tile<i32> -> tile<i32> {
      %inv = subi %n, %n : tile<i32>
      %done = cmpi greater_than_or_equal %k, %inv, signed : tile<i32> -> tile<i1>
      if %done {
        break %k : tile<i32>
      }
      %k1 = addi %k, %inv : tile<i32>
      continue %k1 : tile<i32>
    }
    return
  }
}
