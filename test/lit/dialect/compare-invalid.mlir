// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// One chunk per parser error and verifier rule of cmpf, cmpi and select.

// cmpf
// RULE: cmpf.result-is-i1-of-operand-shape
cuda_tile.module @m {
  entry @e() {
    %v = constant <f32: 0.0> : tile<4xf32>
    // expected-error@+1 {{'cuda_tile.cmpf' op failed to verify that Result type has i1 element type and same shape as operands}}
    %0 = cmpf equal ordered %v, %v : tile<4xf32> -> tile<2xi1>
    return
  }
}
// CHECK: error: 'cuda_tile.cmpf' op failed to verify that Result type has i1 element type and same shape as operands

// -----

// RULE: cmpf.type-constraints
cuda_tile.module @m {
  entry @e(%f: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.cmpf' op result #0 must be tile of i1 values, but got '!cuda_tile.tile<i8>'}}
    %0 = cmpf equal ordered %f, %f : tile<f32> -> tile<i8>
    return
  }
}
// CHECK: error: 'cuda_tile.cmpf' op result #0 must be tile of i1 values, but got '!cuda_tile.tile<i8>'

// -----

// RULE: cmpf.type-constraints
cuda_tile.module @m {
  entry @e() {
    %v = constant <tf32: 0.0> : tile<4xtf32>
    // expected-error@+1 {{'cuda_tile.cmpf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<4xtf32>'}}
    %0 = cmpf equal ordered %v, %v : tile<4xtf32> -> tile<4xi1>
    return
  }
}
// CHECK: error: 'cuda_tile.cmpf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<4xtf32>'

// -----

cuda_tile.module @m {
  entry @e(%f: tile<f32>) {
    // expected-error@+1 {{expected 'comparison_predicate' to be one of: {'equal', 'not_equal', 'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}}}
    %0 = cmpf equals ordered %f, %f : tile<f32> -> tile<i1>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.cmpf' expected 'comparison_predicate' to be one of: {'equal', 'not_equal', 'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}

// -----

cuda_tile.module @m {
  entry @e(%f: tile<f32>) {
    // expected-error@+1 {{expected 'comparison_ordering' to be one of: {'ordered', 'unordered'}}}
    %0 = cmpf equal sorted %f, %f : tile<f32> -> tile<i1>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.cmpf' expected 'comparison_ordering' to be one of: {'ordered', 'unordered'}

// -----

// RULE: cmpf.all-types-match
// cmpf: both operands have one type
cuda_tile.module @m {
  entry @e(%f: tile<f32>, %d: tile<f64>) {
    // expected-error@+1 {{'cuda_tile.cmpf' op failed to verify that all of {lhs, rhs} have same type}}
    %0 = "cuda_tile.cmpf"(%f, %d) <{comparison_predicate = #cuda_tile.comparison_predicate<equal>, comparison_ordering = #cuda_tile.comparison_ordering<ordered>}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f64>) -> !cuda_tile.tile<i1>
    return
  }
}
// CHECK: error: 'cuda_tile.cmpf' op failed to verify that all of {lhs, rhs} have same type

// -----

// RULE: cmpi.result-is-i1-of-operand-shape
// cmpi
cuda_tile.module @m {
  entry @e() {
    %v = constant <i32: 0> : tile<4xi32>
    // expected-error@+1 {{'cuda_tile.cmpi' op failed to verify that Result type has i1 element type and same shape as operands}}
    %0 = cmpi equal %v, %v, signed : tile<4xi32> -> tile<4x1xi1>
    return
  }
}
// CHECK: error: 'cuda_tile.cmpi' op failed to verify that Result type has i1 element type and same shape as operands

// -----

// RULE: cmpi.type-constraints
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.cmpi' op result #0 must be tile of i1 values, but got '!cuda_tile.tile<i32>'}}
    %0 = cmpi equal %i, %i, signed : tile<i32> -> tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.cmpi' op result #0 must be tile of i1 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: cmpi.type-constraints
cuda_tile.module @m {
  entry @e() {
    %v = constant <i8: 1> : tile<4xi8>
    %n = trunci %v : tile<4xi8> -> tile<4xi4>
    // expected-error@+1 {{'cuda_tile.cmpi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<4xi4>'}}
    %0 = cmpi equal %n, %n, signed : tile<4xi4> -> tile<4xi1>
    return
  }
}
// CHECK: error: 'cuda_tile.cmpi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<4xi4>'

// -----

cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@+1 {{expected 'comparison_predicate' to be one of: {'equal', 'not_equal', 'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}}}
    %0 = cmpi less %i, %i, signed : tile<i32> -> tile<i1>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.cmpi' expected 'comparison_predicate' to be one of: {'equal', 'not_equal', 'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}

// -----

cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@+1 {{expected ','}}
    %0 = cmpi less_than %i, %i : tile<i32> -> tile<i1>
    return
  }
}
// CHECK: error: expected ','

// -----

// RULE: cmpi.all-types-match
// cmpi: both operands have one type
cuda_tile.module @m {
  entry @e(%i: tile<i32>, %l: tile<i64>) {
    // expected-error@+1 {{'cuda_tile.cmpi' op failed to verify that all of {lhs, rhs} have same type}}
    %0 = "cuda_tile.cmpi"(%i, %l) <{comparison_predicate = #cuda_tile.comparison_predicate<equal>, signedness = #cuda_tile.signedness<signed>}> : (!cuda_tile.tile<i32>, !cuda_tile.tile<i64>) -> !cuda_tile.tile<i1>
    return
  }
}
// CHECK: error: 'cuda_tile.cmpi' op failed to verify that all of {lhs, rhs} have same type

// -----

// RULE: select.type-constraints
// select
cuda_tile.module @m {
  entry @e(%c: tile<i32>, %i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.select' op operand #0 must be tile of i1 values, but got '!cuda_tile.tile<i32>'}}
    %0 = select %c, %i, %i : tile<i32>, tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.select' op operand #0 must be tile of i1 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: select.all-shapes-match
cuda_tile.module @m {
  entry @e(%c: tile<i1>) {
    %v = constant <i32: 0> : tile<4xi32>
    // expected-error@+1 {{'cuda_tile.select' op failed to verify that all of {cond, val_if_true, val_if_false, result} have same shape}}
    %0 = select %c, %v, %v : tile<i1>, tile<4xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.select' op failed to verify that all of {cond, val_if_true, val_if_false, result} have same shape

// -----

// RULE: select.no-f4e2m1fn
cuda_tile.module @m {
  entry @e() {
    %c = constant <i1: true> : tile<4xi1>
    %v = constant <f4E2M1FN: 1.0> : tile<4xf4E2M1FN>
    // expected-error@+1 {{'cuda_tile.select' op cannot operate on sub-byte type F4E2M1FN}}
    %0 = select %c, %v, %v : tile<4xi1>, tile<4xf4E2M1FN>
    return
  }
}
// CHECK: error: 'cuda_tile.select' op cannot operate on sub-byte type F4E2M1FN

// -----

// RULE: select.all-types-match
// select: both values and the result have one type
cuda_tile.module @m {
  entry @e(%c: tile<i1>, %i: tile<i32>, %s: tile<i16>) {
    // expected-error@+1 {{'cuda_tile.select' op failed to verify that all of {val_if_true, val_if_false, result} have same type}}
    %0 = "cuda_tile.select"(%c, %i, %s) : (!cuda_tile.tile<i1>, !cuda_tile.tile<i32>, !cuda_tile.tile<i16>) -> !cuda_tile.tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.select' op failed to verify that all of {val_if_true, val_if_false, result} have same type
