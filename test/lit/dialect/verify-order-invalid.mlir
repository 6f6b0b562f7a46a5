// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// The order of verification is MLIR's: an op's own checks, then the ops in
// it (those isolated from above last), then its region checks.  Only the
// first error of a chunk is reported.

// A parent's own error comes before its nested ops' errors, and the ops in a
// parent that fails are not verified: the `return`s (which return a value the
// kernel does not have) are never reported.
// CHECK: verify-order-invalid.mlir:[[# @LINE + 5]]:3: error: 'cuda_tile.if' op result type 0 is a tensor_view, which is not supported
// CHECK-NOT: error:
// CHECK: {{^// -{5}$}}
cuda_tile.testing$func @view_result(%cond: !cuda_tile.tile<i1>, %v: !cuda_tile.tensor_view<2x2xf32, strides=[1,1]>) {
  // expected-error@+1 {{'cuda_tile.if' op result type 0 is a tensor_view, which is not supported}}
  %0 = if %cond -> (tensor_view<2x2xf32, strides=[1,1]>) {
    cuda_tile.return %v : tensor_view<2x2xf32, strides=[1,1]>
  } else {
    cuda_tile.return %v : tensor_view<2x2xf32, strides=[1,1]>
  }
}

// -----

// Ops isolated from above (a module, a kernel) are verified after their
// siblings: the misplaced `break` is reported, not the kernel's bad add.
// CHECK: verify-order-invalid.mlir:[[# @LINE + 11]]:1: error: 'cuda_tile.break' op expects parent op to be one of 'cuda_tile.if, cuda_tile.loop'
// CHECK-NOT: error:
// CHECK: {{^// -{5}$}}
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<f32>
    %b = "cuda_tile.addf"(%a, %a) <{rounding_mode = #cuda_tile.rounding<nearest_even>, flush_to_zero}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
    return
  }
}
// expected-error@+1 {{'cuda_tile.break' op expects parent op to be one of 'cuda_tile.if, cuda_tile.loop'}}
cuda_tile.break

// -----

// A region check runs after the ops in the region verify: the body's bad
// add is reported, not the `print_tko` the reduce's region check refuses.
// CHECK: verify-order-invalid.mlir:[[# @LINE + 10]]:7: error: 'cuda_tile.addf' op failed to verify that all of {lhs, rhs, result} have same type
// CHECK-NOT: error:
// CHECK: {{^// -{5}$}}
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %r = reduce %x dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      %t = print_tko "step" -> token
      // expected-error@+1 {{'cuda_tile.addf' op failed to verify that all of {lhs, rhs, result} have same type}}
      %b = "cuda_tile.addf"(%a0, %a1) <{rounding_mode = #cuda_tile.rounding<nearest_even>}> : (!cuda_tile.tile<f32>, !cuda_tile.tile<f32>) -> !cuda_tile.tile<f64>
      yield %a0 : tile<f32>
    }
  }
}

// -----

// A region check's error about an op in the region is reported at that op.
// CHECK: verify-order-invalid.mlir:[[# @LINE + 7]]:7: error: 'cuda_tile.print_tko' op only pure operations are allowed inside 'cuda_tile.reduce'
cuda_tile.module @m {
  entry @k() {
    %x = constant <f32: 1.0> : tile<8xf32>
    %r = reduce %x dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a0: tile<f32>, %a1: tile<f32>) {
      // expected-error@+1 {{'cuda_tile.print_tko' op only pure operations are allowed inside 'cuda_tile.reduce'}}
      %t = print_tko "step" -> token
      yield %a0 : tile<f32>
    }
  }
}
