// NVIDIA's test-only `testing$func` (their suite writes most verifier cases in
// one): tile-opt reads, verifies and prints it, and its `return` hands back
// the declared results.
// RUN: %opt %s --split-input-file --verify-diagnostics --verify-roundtrip | filecheck %s
// RUN: %opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(cuda_tile.module(cuda_tile.testing$func(fuse-fma)))' | filecheck %s --check-prefix=FMA

// CHECK: testing$func @f(%a: tile<2xf32>, %b: tile<2xf32>) -> tile<2xf32> {
// CHECK-NEXT: %0 = mulf %a, %b : tile<2xf32>
// CHECK-NEXT: %1 = addf %0, %a : tile<2xf32>
// CHECK-NEXT: return %1 : tile<2xf32>
// FMA: %0 = fma %a, %b, %a : tile<2xf32>
// FMA-NEXT: return %0 : tile<2xf32>
cuda_tile.module @m {
  testing$func @f(%a: tile<2xf32>, %b: tile<2xf32>) -> tile<2xf32> {
    %0 = mulf %a, %b : tile<2xf32>
    %1 = addf %0, %a : tile<2xf32>
    return %1 : tile<2xf32>
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%a: tile<2xf32>) -> tile<2xi16> {
    // expected-error@below {{type of return operand 0 ('!cuda_tile.tile<2xf32>') doesn't match function result type ('!cuda_tile.tile<2xi16>') in function @f}}
    return %a : tile<2xf32>
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%a: tile<2xf32>) -> tile<2xf32> {
    // expected-error@below {{has 0 operands, but enclosing function (@f) returns 1}}
    return
  }
}
