// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// One chunk per parser error and verifier rule of the math ops.

// exp and tanh parse any rounding mode name; an unknown word lists theirs.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{expected rounding mode to be one of: 'approx', 'full'}}
    %0 = exp %a rounding<fast> : tile<f32>
    return
  }
}
// CHECK: error: expected rounding mode to be one of: 'approx', 'full'

// -----

// ... and their verifiers reject every mode but approx and full.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.exp' op invalid rounding mode specified, expect one of [approx, full]}}
    %0 = exp %a rounding<zero> : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.exp' op invalid rounding mode specified, expect one of [approx, full]

// -----

cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.tanh' op invalid rounding mode specified, expect one of [approx, full]}}
    %0 = tanh %a rounding<nearest_even> : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.tanh' op invalid rounding mode specified, expect one of [approx, full]

// -----

// approx needs f32 elements.
cuda_tile.module @m {
  entry @e(%h: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.exp' op approx modifier only supported for f32 data type, but got: 'f16'}}
    %0 = exp %h rounding<approx> : tile<f16>
    return
  }
}
// CHECK: error: 'cuda_tile.exp' op approx modifier only supported for f32 data type, but got: 'f16'

// -----

cuda_tile.module @m {
  entry @e(%bf: tile<bf16>) {
    // expected-error@+1 {{'cuda_tile.tanh' op approx modifier only supported for f32 data type, but got: 'bf16'}}
    %0 = tanh %bf rounding<approx> : tile<bf16>
    return
  }
}
// CHECK: error: 'cuda_tile.tanh' op approx modifier only supported for f32 data type, but got: 'bf16'

// -----

cuda_tile.module @m {
  entry @e(%d: tile<f64>) {
    // expected-error@+1 {{'cuda_tile.sqrt' op approx modifier only supported for f32 data type, but got: 'f64'}}
    %0 = sqrt %d rounding<approx> : tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.sqrt' op approx modifier only supported for f32 data type, but got: 'f64'

// -----

// sqrt parses any rounding mode name; an unknown word lists its modes ...
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'approx'}}
    %0 = sqrt %a rounding<exact> : tile<f32>
    return
  }
}
// CHECK: error: expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'approx'

// -----

// ... and its verifier rejects full.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.sqrt' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf, approx]}}
    %0 = sqrt %a rounding<full> : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.sqrt' op invalid rounding mode specified, expect one of [nearest_even, zero, negative_inf, positive_inf, approx]

// -----

// flush_to_zero needs f32 elements.
cuda_tile.module @m {
  entry @e(%h: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.sqrt' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = sqrt %h rounding<zero> flush_to_zero : tile<f16>
    return
  }
}
// CHECK: error: 'cuda_tile.sqrt' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}f16

// -----

cuda_tile.module @m {
  entry @e(%h: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.exp2' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = exp2 %h flush_to_zero : tile<f16>
    return
  }
}
// CHECK: error: 'cuda_tile.exp2' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}f16

// -----

cuda_tile.module @m {
  entry @e(%d: tile<f64>) {
    // expected-error@+1 {{'cuda_tile.rsqrt' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = rsqrt %d flush_to_zero : tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.rsqrt' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}f64

// -----

// Math ops take f16, bf16, f32 or f64 elements only.
cuda_tile.module @m {
  entry @e(%i: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.atan2' op}}
    %0 = "cuda_tile.atan2"(%i, %i) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> !cuda_tile.tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.atan2' op {{.*}}f16{{.*}}bf16{{.*}}f32{{.*}}f64{{.*}}tile<i32>

// -----

cuda_tile.module @m {
  entry @e(%e: tile<f8E5M2>) {
    // expected-error@+1 {{'cuda_tile.sin' op}}
    %0 = "cuda_tile.sin"(%e) : (!cuda_tile.tile<f8E5M2>) -> !cuda_tile.tile<f8E5M2>
    return
  }
}
// CHECK: error: 'cuda_tile.sin' op {{.*}}tile<f8E5M2>

// -----

// Operand and result are one type.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.log' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.log"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.log' op failed to verify that all of {source, result} have same type
