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
// CHECK: error: expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'approx'

// -----

cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'nearest'}}
    %0 = fma %a, %a, %a rounding<nearest> : tile<f32>
    return
  }
}
// CHECK: error: expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', got: 'nearest'

// -----

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

cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.fma' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf]}}
    %0 = "cuda_tile.fma"(%a, %a, %a) <{rounding_mode = #cuda_tile.rounding<approx>}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.fma' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf]

// -----

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

cuda_tile.module @m {
  entry @e(%d: tile<f64>) {
    // expected-error@+1 {{'cuda_tile.fma' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = fma %d, %d, %d flush_to_zero : tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.fma' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}f64

// -----

cuda_tile.module @m {
  entry @e(%bf: tile<bf16>) {
    // expected-error@+1 {{'cuda_tile.maxf' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = maxf %bf, %bf propagate_nan flush_to_zero : tile<bf16>
    return
  }
}
// CHECK: error: 'cuda_tile.maxf' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}bf16

// -----

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
// CHECK: error: `propagate_nan` clause can appear at most once in the expansion of the oilist directive

// -----

// divf parses any rounding mode name; an unknown word lists its modes.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'approx', 'full'}}
    %0 = divf %a, %a rounding<near_exact> : tile<f32>
    return
  }
}
// CHECK: error: expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'approx', 'full'

// -----

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

cuda_tile.module @m {
  entry @e(%h: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.divf' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = divf %h, %h flush_to_zero : tile<f16>
    return
  }
}
// CHECK: error: 'cuda_tile.divf' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}f16

// -----

cuda_tile.module @m {
  entry @e(%bf: tile<bf16>) {
    // expected-error@+1 {{'cuda_tile.divf' op approx modifier only supported for f32 data type, but got: 'bf16'}}
    %0 = divf %bf, %bf rounding<approx> : tile<bf16>
    return
  }
}
// CHECK: error: 'cuda_tile.divf' op approx modifier only supported for f32 data type, but got: 'bf16'

// -----

cuda_tile.module @m {
  entry @e(%d: tile<f64>) {
    // expected-error@+1 {{'cuda_tile.divf' op full modifier only supported for f32 data type, but got: 'f64'}}
    %0 = divf %d, %d rounding<full> : tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.divf' op full modifier only supported for f32 data type, but got: 'f64'

// -----

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

cuda_tile.module @m {
  entry @e(%t: tile<tf32>) {
    // expected-error@+1 {{'cuda_tile.negf' op}}
    %0 = "cuda_tile.negf"(%t) : (!cuda_tile.tile<tf32>) -> !cuda_tile.tile<tf32>
    return
  }
}
// CHECK: error: 'cuda_tile.negf' op {{.*}}tile<tf32>

// -----

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
    // expected-error@+1 {{expected signedness to be one of: {'signed', 'unsigned'}}}
    %0 = shri %i, %i : tile<i32>
    return
  }
}
// CHECK: error: expected signedness to be one of: {'signed', 'unsigned'}

// -----

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

// negi is a signed operation: no unsigned-wrap flag.
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.negi' op 'no_unsigned_wrap' overflow flag is not supported}}
    %0 = negi %i overflow<no_unsigned_wrap> : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.negi' op 'no_unsigned_wrap' overflow flag is not supported
