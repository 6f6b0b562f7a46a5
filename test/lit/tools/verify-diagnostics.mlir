// RUN: not %opt %s --split-input-file --verify-diagnostics 2>&1 >/dev/null | filecheck %s
// RUN: not %opt %s --split-input-file --verify-diagnostics 2>&1 >/dev/null | head -1 | filecheck %s --check-prefix=FIRST

// --verify-diagnostics follows MLIR: every expected diagnostic must be
// produced at its line, and every produced one must be expected.  Each chunk
// below breaks that once (or not at all, for the forms that match): the
// report lists exactly the broken ones, in order.

// @below and @above name the next / last line that is not an annotation.
cuda_tile.module @m {
  entry @e(%a: tile<f64>) {
    // expected-error@below {{flush_to_zero modifier only supported for f32}}
    %0 = addf %a, %a flush_to_zero : tile<f64>
    return
  }
}

// -----

cuda_tile.module @m {
  entry @e(%a: tile<f64>) {
    %0 = addf %a, %a flush_to_zero : tile<f64>
    // expected-error@above {{flush_to_zero modifier only supported for f32}}
    return
  }
}

// -----

// A diagnostic nobody expected.
cuda_tile.module @m {
  entry @e(%a: tile<f64>) {
    %0 = addf %a, %a flush_to_zero : tile<f64>
    return
  }
}
// FIRST: verify-diagnostics.mlir:[[# @LINE - 4]]:5: error: unexpected error:
// CHECK: verify-diagnostics.mlir:[[# @LINE - 5]]:5: error: unexpected error: 'cuda_tile.addf' op flush_to_zero modifier only supported for f32 data type, but got: 'f64'

// -----

// An expected diagnostic that never comes, of each severity.
cuda_tile.module @m {
  entry @e(%a: tile<f32>) {
    // expected-warning@+3 {{a warning}}
    // expected-note@+2 {{a note}}
    // expected-remark@+1 {{a remark}}
    %0 = addf %a, %a : tile<f32>
    return
  }
}
// CHECK-NEXT: verify-diagnostics.mlir:[[# @LINE - 7]]:8: error: expected warning "a warning" was not produced
// CHECK-NEXT: verify-diagnostics.mlir:[[# @LINE - 7]]:8: error: expected note "a note" was not produced
// CHECK-NEXT: verify-diagnostics.mlir:[[# @LINE - 7]]:8: error: expected remark "a remark" was not produced

// -----

// The right words at the wrong line: both sides are reported.
cuda_tile.module @m {
  entry @e(%a: tile<f64>) {
    // expected-error@+2 {{flush_to_zero modifier only supported for f32}}
    %0 = addf %a, %a flush_to_zero : tile<f64>
    return
  }
}
// CHECK-NEXT: verify-diagnostics.mlir:[[# @LINE - 4]]:5: error: unexpected error:
// CHECK-NEXT: verify-diagnostics.mlir:[[# @LINE - 6]]:8: error: expected error "flush_to_zero modifier only supported for f32" was not produced

// -----

// A value used at another type: the error and its note, both expected.
cuda_tile.module @m {
  // expected-note@below {{prior use here}}
  entry @e(%a: tile<f32>) {
    // expected-error@below {{use of value '%a' expects different type than prior uses: '!cuda_tile.tile<f64>' vs '!cuda_tile.tile<f32>'}}
    %0 = addf %a, %a : tile<f64>
    return
  }
}

// -----

// -re: the {{...}} parts are regular expressions.
cuda_tile.module @m {
  entry @e(%a: tile<f64>) {
    // expected-error-re@+1 {{'cuda_tile.{{[a-z]+}}' op flush_to_zero {{.*}} f32}}
    %0 = addf %a, %a flush_to_zero : tile<f64>
    return
  }
}
// CHECK-NOT: error:
