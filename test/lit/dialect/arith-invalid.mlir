// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// One chunk per parser error and verifier rule of the arithmetic ops.

// addf, subf, mulf and fma parse only the IEEE rounding modes.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'approx'}}
    %0 = mulf %a, %a rounding<approx> : tile<f32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.mulf' expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'approx'

// -----

cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'nearest'}}
    %0 = fma %a, %a, %a rounding<nearest> : tile<f32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.fma' expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'nearest'

// -----

// RULE: subf.rounding-ieee
// A non-IEEE mode that bypasses the parser is caught by the verifier.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.subf' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf]}}
    %0 = "cuda_tile.subf"(%a, %a) <{rounding_mode = #cuda_tile.rounding<full>}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.subf' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf]

// -----

// RULE: fma.rounding-ieee
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.fma' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf]}}
    %0 = "cuda_tile.fma"(%a, %a, %a) <{rounding_mode = #cuda_tile.rounding<approx>}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.fma' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf]

// -----

// RULE: addf.flush-to-zero-f32
// flush_to_zero needs f32 elements.
cuda_tile.module @m {
  entry @e(%h: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.addf' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = addf %h, %h rounding<zero> flush_to_zero : tile<f16>
    return
  }
}
// CHECK: error: 'cuda_tile.addf' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}f16

// -----

// RULE: fma.flush-to-zero-f32
cuda_tile.module @m {
  entry @e(%d: tile<f64>) {
    // expected-error@+1 {{'cuda_tile.fma' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = fma %d, %d, %d flush_to_zero : tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.fma' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}f64

// -----

// RULE: maxf.flush-to-zero-f32
cuda_tile.module @m {
  entry @e(%bf: tile<bf16>) {
    // expected-error@+1 {{'cuda_tile.maxf' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = maxf %bf, %bf propagate_nan flush_to_zero : tile<bf16>
    return
  }
}
// CHECK: error: 'cuda_tile.maxf' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}bf16

// -----

// RULE: minf.flush-to-zero-f32
cuda_tile.module @m {
  entry @e(%h: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.minf' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = minf %h, %h flush_to_zero : tile<f16>
    return
  }
}
// CHECK: error: 'cuda_tile.minf' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}f16

// -----

// maxf/minf flags come in any order, each at most once.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{`propagate_nan` clause can appear at most once in the expansion of the oilist directive}}
    %0 = minf %a, %a propagate_nan flush_to_zero propagate_nan : tile<f32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.minf' `propagate_nan` clause can appear at most once in the expansion of the oilist directive

// -----

// divf parses any rounding mode name; an unknown word lists its modes.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'approx', 'full'}}
    %0 = divf %a, %a rounding<near_exact> : tile<f32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.divf' expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'approx', 'full'

// -----

// RULE: divf.rounding-mode
// ... and its verifier rejects the modes it does not support.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.divf' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf, approx, full]}}
    %0 = divf %a, %a rounding<nearest_int_to_zero> : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.divf' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf, approx, full]

// -----

// RULE: divf.flush-to-zero-f32
cuda_tile.module @m {
  entry @e(%h: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.divf' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = divf %h, %h flush_to_zero : tile<f16>
    return
  }
}
// CHECK: error: 'cuda_tile.divf' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}f16

// -----

// RULE: divf.approx-f32
cuda_tile.module @m {
  entry @e(%bf: tile<bf16>) {
    // expected-error@+1 {{'cuda_tile.divf' op approx modifier only supported for f32 data type, but got: 'bf16'}}
    %0 = divf %bf, %bf rounding<approx> : tile<bf16>
    return
  }
}
// CHECK: error: 'cuda_tile.divf' op approx modifier only supported for f32 data type, but got: 'bf16'

// -----

// RULE: divf.full-f32
cuda_tile.module @m {
  entry @e(%d: tile<f64>) {
    // expected-error@+1 {{'cuda_tile.divf' op full modifier only supported for f32 data type, but got: 'f64'}}
    %0 = divf %d, %d rounding<full> : tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.divf' op full modifier only supported for f32 data type, but got: 'f64'

// -----

// RULE: addf.all-types-match
// Operand and result types of an element-wise op are one type.
cuda_tile.module @m {
  entry @e(%a: tile<f32>, %h: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.addf' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.addf"(%a, %h) <{rounding_mode = #cuda_tile.rounding<nearest_even>}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f16>) -> !cuda_tile.tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.addf' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: remf.type-constraints
// Float ops take f16, bf16, f32 or f64 elements only.
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.remf' op}}
    %0 = "cuda_tile.remf"(%i, %i) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.remf' op {{.*}}f16{{.*}}bf16{{.*}}f32{{.*}}f64{{.*}}tile<i32>

// -----

// RULE: negf.type-constraints
cuda_tile.module @m {
  entry @e(%t: tile<tf32>) {
    // expected-error@+1 {{'cuda_tile.negf' op}}
    %0 = "cuda_tile.negf"(%t) : (!cuda_tile.tile<tf32>) -> !cuda_tile.tile<tf32>
    return
  }
}
// CHECK: error: 'cuda_tile.negf' op {{.*}}tile<tf32>

// -----

// RULE: addi.type-constraints
// Integer ops take i1, i8, i16, i32 or i64 elements: no floats, no i4.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.addi' op}}
    %0 = "cuda_tile.addi"(%a, %a) : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.addi' op {{.*}}i1{{.*}}i8{{.*}}i16{{.*}}i32{{.*}}i64{{.*}}tile<f32>

// -----

// RULE: xori.type-constraints
cuda_tile.module @m {
  entry @e(%q: tile<i4>) {
    // expected-error@+1 {{'cuda_tile.xori' op}}
    %0 = "cuda_tile.xori"(%q, %q) : (!cuda_tile.tile<i4>, !cuda_tile.tile<i4>) -> !cuda_tile.tile<i4>
    return
  }
}
// CHECK: error: 'cuda_tile.xori' op {{.*}}tile<i4>

// -----

// fpowi: a float base and an exponent of i1, i8, i16 or i32 ...
cuda_tile.module @m {
  entry @e(%a: tile<f32>, %l: tile<i64>) {
    // expected-error@+1 {{'cuda_tile.fpowi' op}}
    %0 = "cuda_tile.fpowi"(%a, %l) : (!cuda_tile.tile<f32>, !cuda_tile.tile<i64>) -> !cuda_tile.tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.fpowi' op {{.*}}i1{{.*}}i8{{.*}}i16{{.*}}i32{{.*}}tile<i64>

// -----

cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.fpowi' op}}
    %0 = "cuda_tile.fpowi"(%i, %i) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.fpowi' op {{.*}}f16{{.*}}tile<i32>

// -----

// ... of one shape.
cuda_tile.module @m {
  entry @e() {
    %a = constant <f32: 2.0> : tile<4xf32>
    %i = iota : tile<8xi32>
    // expected-error@+1 {{'cuda_tile.fpowi' op failed to verify that all of {source, exponent} have same shape}}
    %0 = fpowi %a, %i : tile<4xf32>, tile<8xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.fpowi' op failed to verify that all of {source, exponent} have same shape

// -----

// Signed-or-unsigned ops must say which.
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@below {{expected valid keyword}}
    // expected-error@+1 {{expected signedness to be one of: {'signed', 'unsigned'}}}
    %0 = shri %i, %i : tile<i32>
    return
  }
}
// CHECK: error: custom op 'cuda_tile.shri' expected signedness to be one of: {'signed', 'unsigned'}

// -----

// RULE: divi.rounding-mode
// divi rounds toward zero, -inf or +inf ...
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.divi' op invalid rounding mode specified, expect one of [zero, negative_inf, positive_inf]}}
    %0 = divi %i, %i signed rounding<nearest_even> : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.divi' op invalid rounding mode specified, expect one of [zero, negative_inf, positive_inf]

// -----

// RULE: divi.unsigned-not-negative-inf
// ... and toward -inf only when signed.
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.divi' op rounding mode 'negative_inf' is not allowed with 'unsigned' flag}}
    %0 = divi %i, %i unsigned rounding<negative_inf> : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.divi' op rounding mode 'negative_inf' is not allowed with 'unsigned' flag

// -----

// RULE: negi.no-unsigned-wrap
// negi is a signed operation: no unsigned-wrap flag.
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.negi' op 'no_unsigned_wrap' overflow flag is not supported}}
    %0 = negi %i overflow<no_unsigned_wrap> : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.negi' op 'no_unsigned_wrap' overflow flag is not supported

// -----

// The ODS constraint clauses of each element-wise op: operand types (the
// first operand of a wrong element type) and AllTypesMatch (a result of
// another type, in the generic form).

// RULE: absf.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.absf' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.absf"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.absf' op failed to verify that all of {source, result} have same type

// -----

// RULE: absf.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.absf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = absf %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.absf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: absi.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.absi' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.absi"(%a) : (!cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.absi' op failed to verify that all of {source, result} have same type

// -----

// RULE: absi.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.absi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = absi %a : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.absi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: addf.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.addf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = addf %a, %a rounding<nearest_even> : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.addf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: addi.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.addi' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.addi"(%a, %a) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.addi' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: andi.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.andi' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.andi"(%a, %a) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.andi' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: andi.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.andi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = andi %a, %a : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.andi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: divf.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.divf' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.divf"(%a, %a) <{rounding_mode = #cuda_tile.rounding<nearest_even>}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.divf' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: divf.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.divf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = divf %a, %a rounding<nearest_even> : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.divf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: divi.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.divi' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.divi"(%a, %a) <{signedness = #cuda_tile.signedness<signed>}> : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.divi' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: divi.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.divi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = divi %a, %a signed : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.divi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: fma.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.fma' op failed to verify that all of {lhs, rhs, acc, result} have same type}}
    %0 = "cuda_tile.fma"(%a, %a, %a) <{rounding_mode = #cuda_tile.rounding<nearest_even>}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.fma' op failed to verify that all of {lhs, rhs, acc, result} have same type

// -----

// RULE: fma.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.fma' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = fma %a, %a, %a rounding<nearest_even> : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.fma' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: maxf.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.maxf' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.maxf"(%a, %a) : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.maxf' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: maxf.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.maxf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = maxf %a, %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.maxf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: maxi.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.maxi' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.maxi"(%a, %a) <{signedness = #cuda_tile.signedness<signed>}> : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.maxi' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: maxi.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.maxi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = maxi %a, %a signed : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.maxi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: minf.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.minf' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.minf"(%a, %a) : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.minf' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: minf.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.minf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = minf %a, %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.minf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: mini.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.mini' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.mini"(%a, %a) <{signedness = #cuda_tile.signedness<signed>}> : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.mini' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: mini.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.mini' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = mini %a, %a signed : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.mini' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: mulf.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.mulf' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.mulf"(%a, %a) <{rounding_mode = #cuda_tile.rounding<nearest_even>}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.mulf' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: mulf.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.mulf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = mulf %a, %a rounding<nearest_even> : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.mulf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: mulhii.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.mulhii' op failed to verify that all of {x, y, result} have same type}}
    %0 = "cuda_tile.mulhii"(%a, %a) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.mulhii' op failed to verify that all of {x, y, result} have same type

// -----

// RULE: mulhii.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.mulhii' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = mulhii %a, %a : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.mulhii' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: muli.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.muli' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.muli"(%a, %a) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.muli' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: muli.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.muli' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = muli %a, %a : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.muli' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: negf.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.negf' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.negf"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.negf' op failed to verify that all of {source, result} have same type

// -----

// RULE: negi.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.negi' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.negi"(%a) : (!cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.negi' op failed to verify that all of {source, result} have same type

// -----

// RULE: negi.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.negi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = negi %a : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.negi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: ori.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.ori' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.ori"(%a, %a) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.ori' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: ori.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.ori' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = ori %a, %a : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.ori' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: pow.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.pow' op failed to verify that all of {source, exponent, result} have same type}}
    %0 = "cuda_tile.pow"(%a, %a) : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.pow' op failed to verify that all of {source, exponent, result} have same type

// -----

// RULE: pow.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.pow' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = pow %a, %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.pow' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: remf.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.remf' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.remf"(%a, %a) : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.remf' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: remi.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.remi' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.remi"(%a, %a) <{signedness = #cuda_tile.signedness<signed>}> : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.remi' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: remi.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.remi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = remi %a, %a signed : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.remi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: shli.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.shli' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.shli"(%a, %a) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.shli' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: shli.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.shli' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = shli %a, %a : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.shli' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: shri.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.shri' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.shri"(%a, %a) <{signedness = #cuda_tile.signedness<signed>}> : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.shri' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: shri.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.shri' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = shri %a, %a signed : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.shri' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: subf.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.subf' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.subf"(%a, %a) <{rounding_mode = #cuda_tile.rounding<nearest_even>}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.subf' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: subf.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.subf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = subf %a, %a rounding<nearest_even> : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.subf' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: subi.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.subi' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.subi"(%a, %a) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.subi' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: subi.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.subi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'}}
    %0 = subi %a, %a : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.subi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but got '!cuda_tile.tile<f32>'

// -----

// RULE: xori.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.xori' op failed to verify that all of {lhs, rhs, result} have same type}}
    %0 = "cuda_tile.xori"(%a, %a) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i64>
    return
  }
}
// CHECK: error: 'cuda_tile.xori' op failed to verify that all of {lhs, rhs, result} have same type

// -----

// RULE: addf.rounding-ieee
// The IEEE-mode verifier of addf, subf, mulf and fma (the custom form cannot
// spell another mode; the generic form can).
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.addf' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf]}}
    %0 = "cuda_tile.addf"(%a, %a) <{rounding_mode = #cuda_tile.rounding<approx>}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.addf' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf]

// -----

// RULE: mulf.rounding-ieee
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.mulf' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf]}}
    %0 = "cuda_tile.mulf"(%a, %a) <{rounding_mode = #cuda_tile.rounding<full>}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.mulf' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf]

// -----

// RULE: subf.flush-to-zero-f32
cuda_tile.module @m {
  entry @e(%a: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.subf' op flush_to_zero modifier only supported for f32 data type, but got: 'f16'}}
    %0 = subf %a, %a rounding<nearest_even> flush_to_zero : tile<f16>
    return
  }
}
// CHECK: error: 'cuda_tile.subf' op flush_to_zero modifier only supported for f32 data type, but got: 'f16'

// -----

// RULE: mulf.flush-to-zero-f32
cuda_tile.module @m {
  entry @e(%a: tile<bf16>) {
    // expected-error@+1 {{'cuda_tile.mulf' op flush_to_zero modifier only supported for f32 data type, but got: 'bf16'}}
    %0 = mulf %a, %a rounding<zero> flush_to_zero : tile<bf16>
    return
  }
}
// CHECK: error: 'cuda_tile.mulf' op flush_to_zero modifier only supported for f32 data type, but got: 'bf16'
