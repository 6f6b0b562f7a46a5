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
// CHECK: error: custom op 'cuda_tile.exp' expected rounding mode to be one of: 'approx', 'full'

// -----

// RULE: exp.rounding-mode
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

// RULE: tanh.rounding-mode
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.tanh' op invalid rounding mode specified, expect one of [approx, full]}}
    %0 = tanh %a rounding<nearest_even> : tile<f32>
    return
  }
}
// CHECK: error: 'cuda_tile.tanh' op invalid rounding mode specified, expect one of [approx, full]

// -----

// RULE: exp.approx-f32
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

// RULE: tanh.approx-f32
cuda_tile.module @m {
  entry @e(%bf: tile<bf16>) {
    // expected-error@+1 {{'cuda_tile.tanh' op approx modifier only supported for f32 data type, but got: 'bf16'}}
    %0 = tanh %bf rounding<approx> : tile<bf16>
    return
  }
}
// CHECK: error: 'cuda_tile.tanh' op approx modifier only supported for f32 data type, but got: 'bf16'

// -----

// RULE: sqrt.approx-f32
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
// CHECK: error: custom op 'cuda_tile.sqrt' expected rounding mode to be one of: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'approx'

// -----

// RULE: sqrt.rounding-mode
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

// RULE: sqrt.flush-to-zero-f32
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

// RULE: exp2.flush-to-zero-f32
cuda_tile.module @m {
  entry @e(%h: tile<f16>) {
    // expected-error@+1 {{'cuda_tile.exp2' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = exp2 %h flush_to_zero : tile<f16>
    return
  }
}
// CHECK: error: 'cuda_tile.exp2' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}f16

// -----

// RULE: rsqrt.flush-to-zero-f32
cuda_tile.module @m {
  entry @e(%d: tile<f64>) {
    // expected-error@+1 {{'cuda_tile.rsqrt' op flush_to_zero modifier only supported for f32 data type, but got: }}
    %0 = rsqrt %d flush_to_zero : tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.rsqrt' op flush_to_zero modifier only supported for f32 data type, but got: {{'?}}f64

// -----

// RULE: atan2.type-constraints
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

// RULE: sin.type-constraints
cuda_tile.module @m {
  entry @e(%e: tile<f8E5M2>) {
    // expected-error@+1 {{'cuda_tile.sin' op}}
    %0 = "cuda_tile.sin"(%e) : (!cuda_tile.tile<f8E5M2>) -> !cuda_tile.tile<f8E5M2>
    return
  }
}
// CHECK: error: 'cuda_tile.sin' op {{.*}}tile<f8E5M2>

// -----

// RULE: log.all-types-match
// Operand and result are one type.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.log' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.log"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.log' op failed to verify that all of {source, result} have same type

// -----

// The ODS constraint clauses of each math op: operand types and AllTypesMatch.

// RULE: atan2.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.atan2' op failed to verify that all of {x, y, result} have same type}}
    %0 = "cuda_tile.atan2"(%a, %a) : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.atan2' op failed to verify that all of {x, y, result} have same type

// -----

// RULE: ceil.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.ceil' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.ceil"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.ceil' op failed to verify that all of {source, result} have same type

// -----

// RULE: ceil.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.ceil' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = ceil %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.ceil' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: cos.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.cos' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.cos"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.cos' op failed to verify that all of {source, result} have same type

// -----

// RULE: cos.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.cos' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = cos %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.cos' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: cosh.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.cosh' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.cosh"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.cosh' op failed to verify that all of {source, result} have same type

// -----

// RULE: cosh.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.cosh' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = cosh %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.cosh' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: exp.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.exp' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.exp"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.exp' op failed to verify that all of {source, result} have same type

// -----

// RULE: exp.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.exp' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = exp %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.exp' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: exp2.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.exp2' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.exp2"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.exp2' op failed to verify that all of {source, result} have same type

// -----

// RULE: exp2.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.exp2' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = exp2 %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.exp2' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: floor.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.floor' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.floor"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.floor' op failed to verify that all of {source, result} have same type

// -----

// RULE: floor.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.floor' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = floor %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.floor' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: log.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.log' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = log %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.log' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: log2.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.log2' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.log2"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.log2' op failed to verify that all of {source, result} have same type

// -----

// RULE: log2.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.log2' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = log2 %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.log2' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: rsqrt.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.rsqrt' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.rsqrt"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.rsqrt' op failed to verify that all of {source, result} have same type

// -----

// RULE: rsqrt.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.rsqrt' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = rsqrt %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.rsqrt' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: sin.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.sin' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.sin"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.sin' op failed to verify that all of {source, result} have same type

// -----

// RULE: sinh.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.sinh' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.sinh"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.sinh' op failed to verify that all of {source, result} have same type

// -----

// RULE: sinh.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.sinh' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = sinh %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.sinh' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: sqrt.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.sqrt' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.sqrt"(%a) <{rounding_mode = #cuda_tile.rounding<nearest_even>}> : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.sqrt' op failed to verify that all of {source, result} have same type

// -----

// RULE: sqrt.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.sqrt' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = sqrt %a rounding<nearest_even> : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.sqrt' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: tan.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.tan' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.tan"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.tan' op failed to verify that all of {source, result} have same type

// -----

// RULE: tan.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.tan' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = tan %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.tan' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'

// -----

// RULE: tanh.all-types-match
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-error@+1 {{'cuda_tile.tanh' op failed to verify that all of {source, result} have same type}}
    %0 = "cuda_tile.tanh"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// CHECK: error: 'cuda_tile.tanh' op failed to verify that all of {source, result} have same type

// -----

// RULE: tanh.type-constraints
cuda_tile.module @m {
  entry @e(%a: tile<i32>) {
    // expected-error@+1 {{'cuda_tile.tanh' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'}}
    %0 = tanh %a : tile<i32>
    return
  }
}
// CHECK: error: 'cuda_tile.tanh' op operand #0 must be tile of f16 or bf16 or f32 or f64 values, but got '!cuda_tile.tile<i32>'
