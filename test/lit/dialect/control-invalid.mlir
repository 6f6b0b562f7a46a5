// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK: error: 'cuda_tile.continue' op expects parent op to be one of 'cuda_tile.for, cuda_tile.if, cuda_tile.loop'
// RULE: continue.parent-one-of
// (At the top level, as NVIDIA's test does: in a kernel, the kernel's own check
// of its terminator fails first, as the next case shows.)
// expected-error@+1 {{expects parent op to be one of 'cuda_tile.for, cuda_tile.if, cuda_tile.loop'}}
cuda_tile.continue

// -----

// A parent is verified before the ops in it (MLIR's order): the kernel's
// terminator check reports the misplaced `continue` first.
// CHECK: error: 'cuda_tile.entry' op expects regions to end with 'cuda_tile.return', found 'cuda_tile.continue'
// CHECK-NOT: error:
// CHECK: {{^// -{5}$}}
cuda_tile.module @m {
  // expected-error@+1 {{'cuda_tile.entry' op expects regions to end with 'cuda_tile.return', found 'cuda_tile.continue'}}
  entry @k() {
    continue
  }
}

// -----

// CHECK: error: 'cuda_tile.continue' op can only be nested within a ancestor chain of 'cuda_tile.for', 'cuda_tile.loop', 'cuda_tile.if' operations
// CHECK: control-invalid.mlir:[[# @LINE + 4]]:3: note: see unexpected ancestor operation
// RULE: continue.ancestor-chain
cuda_tile.module @m {
  // expected-note@below {{see unexpected ancestor operation}}
  entry @k(%c: tile<i1>) {
    if %c {
      // expected-error@+1 {{can only be nested within a ancestor chain of 'cuda_tile.for', 'cuda_tile.loop', 'cuda_tile.if' operations}}
      continue
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.continue' op `for` is missing a valid terminator. `continue` op should have operand types that match the parent loop return types: (), but found: ('!cuda_tile.tile<i32>')
// RULE: continue.for-operand-types
cuda_tile.module @m {
  entry @k(%lb: tile<i32>) {
    for %iv in (%lb to %lb, step %lb) : tile<i32> {
      // expected-error@+1 {{`for` is missing a valid terminator. `continue` op should have operand types that match the parent loop return types: (), but found: ('!cuda_tile.tile<i32>')}}
      continue %iv : tile<i32>
    }
  }
}

// -----

// A `continue` nested in `if` is checked against the enclosing `for`.
// CHECK: error: 'cuda_tile.continue' op `for` is missing a valid terminator. `continue` op should have operand types that match the parent loop return types: ('!cuda_tile.tile<f32>'), but found: ('!cuda_tile.tile<i32>')
// RULE: continue.for-operand-types
cuda_tile.module @m {
  entry @k(%lb: tile<i32>, %f: tile<f32>, %c: tile<i1>) {
    %r = for %iv in (%lb to %lb, step %lb) : tile<i32> iter_values(%acc = %f) -> (tile<f32>) {
      if %c {
        // expected-error@+1 {{match the parent loop return types: ('!cuda_tile.tile<f32>'), but found: ('!cuda_tile.tile<i32>')}}
        continue %iv : tile<i32>
      }
      continue %acc : tile<f32>
    }
  }
}

// -----

// The implicit `continue` of an empty body carries no values.
// CHECK: error: 'cuda_tile.continue' op `loop` is missing a valid terminator. `continue` op should have operand types that match the parent loop iter_values: ('!cuda_tile.tile<i32>'), but found: ()
// RULE: continue.loop-operand-types
cuda_tile.module @m {
  entry @k(%x: tile<i32>) {
    // expected-error@+1 {{`loop` is missing a valid terminator. `continue` op should have operand types that match the parent loop iter_values: ('!cuda_tile.tile<i32>'), but found: ()}}
    loop iter_values(%a = %x) : tile<i32> { }
  }
}

// -----

// CHECK: error: 'cuda_tile.break' op expects parent op to be one of 'cuda_tile.if, cuda_tile.loop'
// RULE: break.parent-one-of
// expected-error@+1 {{expects parent op to be one of 'cuda_tile.if, cuda_tile.loop'}}
cuda_tile.break

// -----

// CHECK: error: 'cuda_tile.break' op can only be nested within a ancestor chain of 'cuda_tile.loop', 'cuda_tile.if' operations
// RULE: break.ancestor-chain
cuda_tile.module @m {
  entry @k(%lb: tile<i32>, %c: tile<i1>) {
    // expected-note@below {{see unexpected ancestor operation}}
    for %iv in (%lb to %lb, step %lb) : tile<i32> {
      if %c {
        // expected-error@+1 {{can only be nested within a ancestor chain of 'cuda_tile.loop', 'cuda_tile.if' operations}}
        break
      }
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.break' op operand types must correspond to the parent loop result types: ('!cuda_tile.tile<i32>') vs ()
// RULE: break.operand-types
cuda_tile.module @m {
  entry @k(%x: tile<i32>) {
    loop {
      // expected-error@+1 {{operand types must correspond to the parent loop result types: ('!cuda_tile.tile<i32>') vs ()}}
      break %x : tile<i32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.break' op operand types must correspond to the parent loop result types: ('!cuda_tile.tile<i32>') vs ('!cuda_tile.tile<f32>', '!cuda_tile.tile<i32>')
// RULE: break.operand-types
cuda_tile.module @m {
  entry @k(%x: tile<i32>, %c: tile<i1>) {
    %r:2 = loop iter_values(%a = %x) : tile<i32> -> tile<f32>, tile<i32> {
      if %c {
        // expected-error@+1 {{operand types must correspond to the parent loop result types: ('!cuda_tile.tile<i32>') vs ('!cuda_tile.tile<f32>', '!cuda_tile.tile<i32>')}}
        break %a : tile<i32>
      }
      continue %a : tile<i32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.yield' op expects parent op to be one of 'cuda_tile.if, cuda_tile.reduce, cuda_tile.scan'
// RULE: yield.parent-one-of
// expected-error@+1 {{expects parent op to be one of 'cuda_tile.if, cuda_tile.reduce, cuda_tile.scan'}}
cuda_tile.yield

// -----

// CHECK: error: 'cuda_tile.for' op
// RULE: for.type-constraints
cuda_tile.module @m {
  entry @k(%f: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.for' op operand #0 must be 0D tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    for %iv in (%f to %f, step %f) : tile<f32> {
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.for' op expected induction variable to be same type as bounds and step: '!cuda_tile.tile<i64>' vs '!cuda_tile.tile<i32>'
// RULE: for.induction-variable-type
cuda_tile.module @m {
  entry @k(%lb: tile<i32>) {
    // expected-error@+1 {{expected induction variable to be same type as bounds and step: '!cuda_tile.tile<i64>' vs '!cuda_tile.tile<i32>'}}
    "cuda_tile.for"(%lb, %lb, %lb) ({
    ^bb0(%iv: !cuda_tile.tile<i64>):
      "cuda_tile.continue"() : () -> ()
    }) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> ()
  }
}

// -----

// CHECK: error: 'cuda_tile.for' op expected at least one block argument for induction variable
// RULE: for.induction-variable
cuda_tile.module @m {
  entry @k(%lb: tile<i32>) {
    // expected-error@+1 {{expected at least one block argument for induction variable}}
    "cuda_tile.for"(%lb, %lb, %lb) ({
      "cuda_tile.continue"() : () -> ()
    }) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> ()
  }
}

// -----

// CHECK: error: 'cuda_tile.for' op init value 0 and region iter_value 0 have different type: '!cuda_tile.tile<f32>' != '!cuda_tile.tile<i32>'
// RULE: for.iter-value-types
cuda_tile.module @m {
  entry @k(%lb: tile<i32>, %f: tile<f32>) {
    // expected-error@+1 {{init value 0 and region iter_value 0 have different type: '!cuda_tile.tile<f32>' != '!cuda_tile.tile<i32>'}}
    %r = "cuda_tile.for"(%lb, %lb, %lb, %f) ({
    ^bb0(%iv: !cuda_tile.tile<i32>, %acc: !cuda_tile.tile<i32>):
      "cuda_tile.continue"(%f) : (!cuda_tile.tile<f32>) -> ()
    }) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>
  }
}

// -----

// CHECK: error: 'cuda_tile.for' op mismatch in number of region iterator values and loop iterator inits: 2 vs 1
// RULE: for.iter-value-count
cuda_tile.module @m {
  entry @k(%lb: tile<i32>, %f: tile<f32>) {
    // expected-error@+1 {{mismatch in number of region iterator values and loop iterator inits: 2 vs 1}}
    %r = "cuda_tile.for"(%lb, %lb, %lb, %f) ({
    ^bb0(%iv: !cuda_tile.tile<i32>, %a: !cuda_tile.tile<f32>, %b: !cuda_tile.tile<f32>):
      "cuda_tile.continue"(%a) : (!cuda_tile.tile<f32>) -> ()
    }) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>
  }
}

// -----

// CHECK: error: 'cuda_tile.for' op failed to verify that all of {initValues, resultValues} have same type
// RULE: for.all-types-match-results
cuda_tile.module @m {
  entry @k(%lb: tile<i32>, %f: tile<f32>) {
    // expected-error@+1 {{failed to verify that all of {initValues, resultValues} have same type}}
    %r = "cuda_tile.for"(%lb, %lb, %lb, %f) ({
    ^bb0(%iv: !cuda_tile.tile<i32>, %a: !cuda_tile.tile<f32>):
      "cuda_tile.continue"(%lb) : (!cuda_tile.tile<i32>) -> ()
    }) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<i32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<i32>
  }
}

// -----

// CHECK: error: custom op 'cuda_tile.for' mismatch in number of loop-carried values and defined values
cuda_tile.module @m {
  entry @k(%lb: tile<i32>, %f: tile<f32>) {
    // expected-error@+1 {{mismatch in number of loop-carried values and defined values}}
    %r = for %iv in (%lb to %lb, step %lb) : tile<i32> iter_values(%a = %f, %b = %f) -> (tile<f32>) {
      continue %a, %b : tile<f32>, tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.for' op loop-carried value 0 is a tensor_view, which is not supported
// RULE: for.no-tensor-view-carried
cuda_tile.module @m {
  entry @k(%lb: tile<i32>, %v: tensor_view<16xf32, strides=[1]>) {
    // expected-error@+1 {{loop-carried value 0 is a tensor_view, which is not supported}}
    %r = for %iv in (%lb to %lb, step %lb) : tile<i32> iter_values(%a = %v) -> (tensor_view<16xf32, strides=[1]>) {
      continue %a : tensor_view<16xf32, strides=[1]>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.loop' op loop-carried value 0 is a tensor_view, which is not supported
// RULE: loop.no-tensor-view-carried
cuda_tile.module @m {
  entry @k(%v: tensor_view<16xf32, strides=[1]>) {
    // expected-error@+1 {{loop-carried value 0 is a tensor_view, which is not supported}}
    loop iter_values(%a = %v) : tensor_view<16xf32, strides=[1]> {
      continue %a : tensor_view<16xf32, strides=[1]>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.loop' op result type 0 is a tensor_view, which is not supported
// RULE: loop.no-tensor-view-result
cuda_tile.module @m {
  entry @k(%v: tensor_view<16xf32, strides=[1]>) {
    // expected-error@+1 {{result type 0 is a tensor_view, which is not supported}}
    %r = loop : tensor_view<16xf32, strides=[1]> {
      break %v : tensor_view<16xf32, strides=[1]>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.loop' op loop-carried value 0 is a tile view, which is not supported
// RULE: loop.no-tile-view-carried
cuda_tile.module @m {
  entry @k(%v: partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>) {
    // expected-error@+1 {{loop-carried value 0 is a tile view, which is not supported}}
    loop iter_values(%a = %v) : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>> {
      continue %a : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.loop' op result type 0 is a tile view, which is not supported
// RULE: loop.no-tile-view-result
cuda_tile.module @m {
  entry @k(%v: partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>) {
    // expected-error@+1 {{result type 0 is a tile view, which is not supported}}
    %r = loop : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>> {
      break %v : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.if' op result type 0 is a tile view, which is not supported
// RULE: if.no-tile-view-result
cuda_tile.module @m {
  entry @k(%c: tile<i1>, %v: partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>) {
    // expected-error@+1 {{result type 0 is a tile view, which is not supported}}
    %r = if %c -> (partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>) {
      yield %v : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>
    } else {
      yield %v : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.loop' op init value 0 and region iter_value 0 have different type: '!cuda_tile.tile<f32>' != '!cuda_tile.tile<f64>'
// RULE: loop.iter-value-types
cuda_tile.module @m {
  entry @k(%f: tile<f32>) {
    // expected-error@+1 {{init value 0 and region iter_value 0 have different type: '!cuda_tile.tile<f32>' != '!cuda_tile.tile<f64>'}}
    "cuda_tile.loop"(%f) ({
    ^bb0(%a: !cuda_tile.tile<f64>):
      "cuda_tile.continue"(%f) : (!cuda_tile.tile<f32>) -> ()
    }) : (!cuda_tile.tile<f32>) -> ()
  }
}

// -----

// CHECK: error: 'cuda_tile.loop' op mismatch in number of region iterator values and loop iterator inits: 0 vs 1
// RULE: loop.iter-value-count
cuda_tile.module @m {
  entry @k(%f: tile<f32>) {
    // expected-error@+1 {{mismatch in number of region iterator values and loop iterator inits: 0 vs 1}}
    "cuda_tile.loop"(%f) ({
      "cuda_tile.continue"(%f) : (!cuda_tile.tile<f32>) -> ()
    }) : (!cuda_tile.tile<f32>) -> ()
  }
}

// -----

// CHECK: error: custom op 'cuda_tile.loop' found different number of iter_values and types
cuda_tile.module @m {
  entry @k(%f: tile<f32>) {
    // expected-error@+1 {{found different number of iter_values and types}}
    loop iter_values(%a = %f) : tile<f32>, tile<f32> {
      continue %a : tile<f32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.if' op has non-empty return type, must define else branch
// RULE: if.else-branch-required
cuda_tile.module @m {
  entry @k(%c: tile<i1>, %x: tile<i32>) {
    // expected-error@+1 {{has non-empty return type, must define else branch}}
    %r = if %c -> (tile<i32>) {
      yield %x : tile<i32>
    }
  }
}

// -----

// The implicit `yield` of an empty branch yields nothing.
// CHECK: error: 'cuda_tile.if' op has return type of '!cuda_tile.tile<i32>' but else branch does not yield anything
// RULE: if.else-yields
cuda_tile.module @m {
  entry @k(%c: tile<i1>, %x: tile<i32>) {
    // expected-error@+1 {{has return type of '!cuda_tile.tile<i32>' but else branch does not yield anything}}
    %r = if %c -> (tile<i32>) {
      yield %x : tile<i32>
    } else {
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.if' op does not return a value, but then branch yields '!cuda_tile.tile<i32>'
// RULE: if.no-result-no-yield
cuda_tile.module @m {
  entry @k(%c: tile<i1>, %x: tile<i32>) {
    // expected-error@+1 {{does not return a value, but then branch yields '!cuda_tile.tile<i32>'}}
    if %c {
      yield %x : tile<i32>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.if' op does not return a value, but else branch yields '!cuda_tile.tile<i32>'
// RULE: if.no-result-no-yield
cuda_tile.module @m {
  entry @k(%c: tile<i1>, %x: tile<i32>) {
    loop {
      // expected-error@+1 {{does not return a value, but else branch yields '!cuda_tile.tile<i32>'}}
      if %c {
        break
      } else {
        yield %x : tile<i32>
      }
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.if' op type does not match yield type, then branch yields '!cuda_tile.tile<i32>' but op result type is '!cuda_tile.tile<i64>'
// RULE: if.yield-types
cuda_tile.module @m {
  entry @k(%c: tile<i1>, %x: tile<i32>, %y: tile<i64>) {
    // expected-error@+1 {{type does not match yield type, then branch yields '!cuda_tile.tile<i32>' but op result type is '!cuda_tile.tile<i64>'}}
    %r = if %c -> (tile<i64>) {
      yield %x : tile<i32>
    } else {
      yield %y : tile<i64>
    }
  }
}

// -----

// Types nested in a cuda_tile type print without their prefix, as NVIDIA's tools print them.
// CHECK: error: 'cuda_tile.if' op type does not match yield type, then branch yields '!cuda_tile.tile<ptr<i32>>' but op result type is '!cuda_tile.tile<ptr<f32>>'
// RULE: if.yield-types
cuda_tile.module @m {
  entry @k(%c: tile<i1>, %p: tile<ptr<f32>>, %q: tile<ptr<i32>>) {
    // expected-error@+1 {{then branch yields '!cuda_tile.tile<ptr<i32>>' but op result type is '!cuda_tile.tile<ptr<f32>>'}}
    %r = if %c -> (tile<ptr<f32>>) {
      yield %q : tile<ptr<i32>>
    } else {
      yield %p : tile<ptr<f32>>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.if' op type does not match yield type, else branch yields '!cuda_tile.tile<i32>', '!cuda_tile.tile<i1>' but op result type is '!cuda_tile.tile<i32>', '!cuda_tile.tile<i64>'
// RULE: if.yield-types
cuda_tile.module @m {
  entry @k(%c: tile<i1>, %x: tile<i32>, %y: tile<i64>) {
    // expected-error@+1 {{else branch yields '!cuda_tile.tile<i32>', '!cuda_tile.tile<i1>' but op result type is '!cuda_tile.tile<i32>', '!cuda_tile.tile<i64>'}}
    %r:2 = if %c -> (tile<i32>, tile<i64>) {
      yield %x, %y : tile<i32>, tile<i64>
    } else {
      yield %x, %c : tile<i32>, tile<i1>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.if' op result type 0 is a tensor_view, which is not supported
// RULE: if.no-tensor-view-result
cuda_tile.module @m {
  entry @k(%c: tile<i1>, %v: tensor_view<16xf32, strides=[1]>) {
    // expected-error@+1 {{result type 0 is a tensor_view, which is not supported}}
    %r = if %c -> (tensor_view<16xf32, strides=[1]>) {
      yield %v : tensor_view<16xf32, strides=[1]>
    } else {
      yield %v : tensor_view<16xf32, strides=[1]>
    }
  }
}

// -----

// CHECK: error: 'cuda_tile.if' op
// RULE: if.type-constraints
cuda_tile.module @m {
  entry @k(%x: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.if' op operand #0 must be 0D tile of i1 values, but got '!cuda_tile.tile<i32>'}}
    "cuda_tile.if"(%x) ({
      "cuda_tile.yield"() : () -> ()
    }, {
    }) : (!cuda_tile.tile<i32>) -> ()
  }
}

// -----

// CHECK: error: 'cuda_tile.if' op region #1 should have no arguments
cuda_tile.module @m {
  entry @k(%c: tile<i1>) {
    // expected-error@+1 {{region #1 should have no arguments}}
    "cuda_tile.if"(%c) ({
      "cuda_tile.yield"() : () -> ()
    }, {
    ^bb0(%a: !cuda_tile.tile<i1>):
      "cuda_tile.yield"() : () -> ()
    }) : (!cuda_tile.tile<i1>) -> ()
  }
}

// -----

// CHECK: error: 'cuda_tile.if' op expects a non-empty block
cuda_tile.module @m {
  entry @k(%c: tile<i1>) {
    // expected-error@+1 {{expects a non-empty block}}
    "cuda_tile.if"(%c) ({
      "cuda_tile.yield"() : () -> ()
    }, {
    ^bb0:
    }) : (!cuda_tile.tile<i1>) -> ()
  }
}

// -----

// The condition is parsed as a `tile<i1>`.
// CHECK: error: use of value '%c' expects different type than prior uses: '!cuda_tile.tile<i1>' vs '!cuda_tile.tile<4xi1>'
cuda_tile.module @m {
  entry @k() {
    %c = constant <i1: [true, false, true, false]> : tile<4xi1>
    // expected-note@-1 {{prior use here}}
    // expected-error@+1 {{use of value '%c' expects different type than prior uses: '!cuda_tile.tile<i1>' vs '!cuda_tile.tile<4xi1>'}}
    if %c {
    }
  }
}

// -----

// RULE: for.no-tile-view-carried
cuda_tile.module @m {
  entry @k(%lb: tile<i32>, %v: partition_view<tile=(16), tensor_view<16xf32, strides=[1]>>) {
    // expected-error@+1 {{'cuda_tile.for' op loop-carried value 0 is a tile view, which is not supported}}
    %r = for %iv in (%lb to %lb, step %lb) : tile<i32> iter_values(%a = %v) -> (partition_view<tile=(16), tensor_view<16xf32, strides=[1]>>) {
      continue %a : partition_view<tile=(16), tensor_view<16xf32, strides=[1]>>
    }
    return
  }
}
// CHECK: error: 'cuda_tile.for' op loop-carried value 0 is a tile view, which is not supported

// -----

// RULE: for.all-types-match-bounds
cuda_tile.module @m {
  entry @k(%a: tile<i32>, %b: tile<i64>) {
    // expected-error@+1 {{'cuda_tile.for' op failed to verify that all of {lowerBound, upperBound, step} have same type}}
    "cuda_tile.for"(%a, %b, %a) ({
    ^bb0(%iv: !cuda_tile.tile<i32>):
      "cuda_tile.continue"() : () -> ()
    }) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i64>, !cuda_tile.tile<i32>) -> ()
    return
  }
}
// CHECK: error: 'cuda_tile.for' op failed to verify that all of {lowerBound, upperBound, step} have same type
