// RUN: %opt %s --split-input-file --verify-diagnostics | filecheck %s

// Type constraints are written in generic form: custom syntax checks them
// while parsing, which reports the same message.

// CHECK: error: 'cuda_tile.mmaf' op operand #0 must be mmaf operand tile type of f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 values, but got '!cuda_tile.tile<2x2xi8>'
// RULE: mmaf.type-constraints
cuda_tile.module @m {
  entry @k() {
    %a = constant <i8: 1> : tile<2x2xi8>
    %b = constant <i8: 1> : tile<2x2xi8>
    %c = constant <i32: 1> : tile<2x2xi32>
    // expected-error@+1 {{'cuda_tile.mmaf' op operand #0 must be mmaf operand tile type of f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 values, but got '!cuda_tile.tile<2x2xi8>'}}
    %r = "cuda_tile.mmaf"(%a, %b, %c) : (!cuda_tile.tile<2x2xi8>, !cuda_tile.tile<2x2xi8>, !cuda_tile.tile<2x2xi32>) -> !cuda_tile.tile<2x2xi32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op operand #2 must be mmaf acc/result tile type of f16 or f32 or f64 values, but got '!cuda_tile.tile<2x2xbf16>'
// RULE: mmaf.type-constraints
cuda_tile.module @m {
  entry @k() {
    %a = constant <bf16: 1.0> : tile<2x2xbf16>
    %b = constant <bf16: 1.0> : tile<2x2xbf16>
    %c = constant <bf16: 1.0> : tile<2x2xbf16>
    // expected-error@+1 {{'cuda_tile.mmaf' op operand #2 must be mmaf acc/result tile type of f16 or f32 or f64 values, but got '!cuda_tile.tile<2x2xbf16>'}}
    %r = "cuda_tile.mmaf"(%a, %b, %c) : (!cuda_tile.tile<2x2xbf16>, !cuda_tile.tile<2x2xbf16>, !cuda_tile.tile<2x2xbf16>) -> !cuda_tile.tile<2x2xbf16>
  }
}

// -----

// Acc and result have one type (AllTypesMatch).
// CHECK: error: 'cuda_tile.mmaf' op failed to verify that all of {acc, result} have same type
// RULE: mmaf.all-types-match
cuda_tile.module @m {
  entry @k() {
    %a = constant <f16: 1.0> : tile<4x8xf16>
    %b = constant <f16: 1.0> : tile<8x16xf16>
    %c = constant <f32: 1.0> : tile<4x16xf32>
    // expected-error@+1 {{failed to verify that all of {acc, result} have same type}}
    %r = "cuda_tile.mmaf"(%a, %b, %c) : (!cuda_tile.tile<4x8xf16>, !cuda_tile.tile<8x16xf16>, !cuda_tile.tile<4x16xf32>) -> !cuda_tile.tile<4x16xf16>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op failed to verify that all of {lhs, rhs} have the same element type
// RULE: mmaf.all-element-types-match
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<4x8xf32>
    %b = constant <f16: 1.0> : tile<8x16xf16>
    %c = constant <f32: 1.0> : tile<4x16xf32>
    // expected-error@+1 {{failed to verify that all of {lhs, rhs} have the same element type}}
    %r = mmaf %a, %b, %c : tile<4x8xf32>, tile<8x16xf16>, tile<4x16xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op failed to verify that all of {lhs, rhs, acc} have same rank
// RULE: mmaf.all-ranks-match
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<4x8xf32>
    %b = constant <f32: 1.0> : tile<8x16xf32>
    %c = constant <f32: 1.0> : tile<4xf32>
    // expected-error@+1 {{failed to verify that all of {lhs, rhs, acc} have same rank}}
    %r = mmaf %a, %b, %c : tile<4x8xf32>, tile<8x16xf32>, tile<4xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op operands must be 2D or 3D tiles
// RULE: mmaf.rank-2-or-3
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<8xf32>
    %b = constant <f32: 1.0> : tile<8xf32>
    %c = constant <f32: 1.0> : tile<8xf32>
    // expected-error@+1 {{operands must be 2D or 3D tiles}}
    %r = mmaf %a, %b, %c : tile<8xf32>, tile<8xf32>, tile<8xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op operands must be 2D or 3D tiles
// RULE: mmaf.rank-2-or-3
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<2x2x4x8xf32>
    %b = constant <f32: 1.0> : tile<2x2x8x16xf32>
    %c = constant <f32: 1.0> : tile<2x2x4x16xf32>
    // expected-error@+1 {{operands must be 2D or 3D tiles}}
    %r = mmaf %a, %b, %c : tile<2x2x4x8xf32>, tile<2x2x8x16xf32>, tile<2x2x4x16xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op shape error: dim 1 of lhs (16) and dim 0 of rhs (8) must match, but got lhs shape (4, 16) and rhs shape (8, 16)
// RULE: mmaf.k-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<4x16xf32>
    %b = constant <f32: 1.0> : tile<8x16xf32>
    %c = constant <f32: 1.0> : tile<4x16xf32>
    // expected-error@+1 {{shape error: dim 1 of lhs (16) and dim 0 of rhs (8) must match, but got lhs shape (4, 16) and rhs shape (8, 16)}}
    %r = mmaf %a, %b, %c : tile<4x16xf32>, tile<8x16xf32>, tile<4x16xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op shape error: dim 0 of lhs (16) and dim 0 of acc (4) must match, but got lhs shape (16, 8) and acc shape (4, 16)
// RULE: mmaf.m-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<16x8xf32>
    %b = constant <f32: 1.0> : tile<8x16xf32>
    %c = constant <f32: 1.0> : tile<4x16xf32>
    // expected-error@+1 {{shape error: dim 0 of lhs (16) and dim 0 of acc (4) must match, but got lhs shape (16, 8) and acc shape (4, 16)}}
    %r = mmaf %a, %b, %c : tile<16x8xf32>, tile<8x16xf32>, tile<4x16xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op shape error: dim 1 of rhs (16) and dim 1 of acc (32) must match, but got rhs shape (8, 16) and acc shape (4, 32)
// RULE: mmaf.n-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<4x8xf32>
    %b = constant <f32: 1.0> : tile<8x16xf32>
    %c = constant <f32: 1.0> : tile<4x32xf32>
    // expected-error@+1 {{shape error: dim 1 of rhs (16) and dim 1 of acc (32) must match, but got rhs shape (8, 16) and acc shape (4, 32)}}
    %r = mmaf %a, %b, %c : tile<4x8xf32>, tile<8x16xf32>, tile<4x32xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op shape error: dim 0 of lhs (2) and dim 0 of rhs (4) must match, but got lhs shape (2, 4, 8) and rhs shape (4, 8, 16)
// RULE: mmaf.batch-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<2x4x8xf32>
    %b = constant <f32: 1.0> : tile<4x8x16xf32>
    %c = constant <f32: 1.0> : tile<2x4x16xf32>
    // expected-error@+1 {{shape error: dim 0 of lhs (2) and dim 0 of rhs (4) must match, but got lhs shape (2, 4, 8) and rhs shape (4, 8, 16)}}
    %r = mmaf %a, %b, %c : tile<2x4x8xf32>, tile<4x8x16xf32>, tile<2x4x16xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op shape error: dim 0 of lhs (2) and dim 0 of acc (4) must match, but got lhs shape (2, 4, 8) and acc shape (4, 4, 16)
// RULE: mmaf.batch-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<2x4x8xf32>
    %b = constant <f32: 1.0> : tile<2x8x16xf32>
    %c = constant <f32: 1.0> : tile<4x4x16xf32>
    // expected-error@+1 {{shape error: dim 0 of lhs (2) and dim 0 of acc (4) must match, but got lhs shape (2, 4, 8) and acc shape (4, 4, 16)}}
    %r = mmaf %a, %b, %c : tile<2x4x8xf32>, tile<2x8x16xf32>, tile<4x4x16xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op shape error: dim 2 of lhs (16) and dim 1 of rhs (8) must match, but got lhs shape (2, 4, 16) and rhs shape (2, 8, 16)
// RULE: mmaf.k-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<2x4x16xf32>
    %b = constant <f32: 1.0> : tile<2x8x16xf32>
    %c = constant <f32: 1.0> : tile<2x4x16xf32>
    // expected-error@+1 {{shape error: dim 2 of lhs (16) and dim 1 of rhs (8) must match, but got lhs shape (2, 4, 16) and rhs shape (2, 8, 16)}}
    %r = mmaf %a, %b, %c : tile<2x4x16xf32>, tile<2x8x16xf32>, tile<2x4x16xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op unsupported combination of element types. Input type 'f8E4M3FN' expects accumulator/result type to be one of {'f16', 'f32'}, but got 'f64'
// RULE: mmaf.element-type-combination
cuda_tile.module @m {
  entry @k() {
    %a = constant <f8E4M3FN: 1.0> : tile<4x8xf8E4M3FN>
    %b = constant <f8E4M3FN: 1.0> : tile<8x16xf8E4M3FN>
    %c = constant <f64: 1.0> : tile<4x16xf64>
    // expected-error@+1 {{unsupported combination of element types. Input type 'f8E4M3FN' expects accumulator/result type to be one of {'f16', 'f32'}, but got 'f64'}}
    %r = mmaf %a, %b, %c : tile<4x8xf8E4M3FN>, tile<8x16xf8E4M3FN>, tile<4x16xf64>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op unsupported combination of element types. Input type 'f8E5M2' expects accumulator/result type to be one of {'f16', 'f32'}, but got 'f64'
// RULE: mmaf.element-type-combination
cuda_tile.module @m {
  entry @k() {
    %a = constant <f8E5M2: 1.0> : tile<4x8xf8E5M2>
    %b = constant <f8E5M2: 1.0> : tile<8x16xf8E5M2>
    %c = constant <f64: 1.0> : tile<4x16xf64>
    // expected-error@+1 {{unsupported combination of element types. Input type 'f8E5M2' expects accumulator/result type to be one of {'f16', 'f32'}, but got 'f64'}}
    %r = mmaf %a, %b, %c : tile<4x8xf8E5M2>, tile<8x16xf8E5M2>, tile<4x16xf64>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op unsupported combination of element types. Input type 'f16' expects accumulator/result type to be one of {'f16', 'f32'}, but got 'f64'
// RULE: mmaf.element-type-combination
cuda_tile.module @m {
  entry @k() {
    %a = constant <f16: 1.0> : tile<4x8xf16>
    %b = constant <f16: 1.0> : tile<8x16xf16>
    %c = constant <f64: 1.0> : tile<4x16xf64>
    // expected-error@+1 {{unsupported combination of element types. Input type 'f16' expects accumulator/result type to be one of {'f16', 'f32'}, but got 'f64'}}
    %r = mmaf %a, %b, %c : tile<4x8xf16>, tile<8x16xf16>, tile<4x16xf64>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op unsupported combination of element types. Input type 'bf16' expects accumulator/result type to be one of {'f32'}, but got 'f16'
// RULE: mmaf.element-type-combination
cuda_tile.module @m {
  entry @k() {
    %a = constant <bf16: 1.0> : tile<4x8xbf16>
    %b = constant <bf16: 1.0> : tile<8x16xbf16>
    %c = constant <f16: 1.0> : tile<4x16xf16>
    // expected-error@+1 {{unsupported combination of element types. Input type 'bf16' expects accumulator/result type to be one of {'f32'}, but got 'f16'}}
    %r = mmaf %a, %b, %c : tile<4x8xbf16>, tile<8x16xbf16>, tile<4x16xf16>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op unsupported combination of element types. Input type 'tf32' expects accumulator/result type to be one of {'f32'}, but got 'f16'
// RULE: mmaf.element-type-combination
cuda_tile.module @m {
  entry @k() {
    %a = constant <tf32: 1.0> : tile<4x8xtf32>
    %b = constant <tf32: 1.0> : tile<8x16xtf32>
    %c = constant <f16: 1.0> : tile<4x16xf16>
    // expected-error@+1 {{unsupported combination of element types. Input type 'tf32' expects accumulator/result type to be one of {'f32'}, but got 'f16'}}
    %r = mmaf %a, %b, %c : tile<4x8xtf32>, tile<8x16xtf32>, tile<4x16xf16>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op unsupported combination of element types. Input type 'f32' expects accumulator/result type to be one of {'f32'}, but got 'f64'
// RULE: mmaf.element-type-combination
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<4x8xf32>
    %b = constant <f32: 1.0> : tile<8x16xf32>
    %c = constant <f64: 1.0> : tile<4x16xf64>
    // expected-error@+1 {{unsupported combination of element types. Input type 'f32' expects accumulator/result type to be one of {'f32'}, but got 'f64'}}
    %r = mmaf %a, %b, %c : tile<4x8xf32>, tile<8x16xf32>, tile<4x16xf64>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf' op unsupported combination of element types. Input type 'f64' expects accumulator/result type to be one of {'f64'}, but got 'f32'
// RULE: mmaf.element-type-combination
cuda_tile.module @m {
  entry @k() {
    %a = constant <f64: 1.0> : tile<4x8xf64>
    %b = constant <f64: 1.0> : tile<8x16xf64>
    %c = constant <f32: 1.0> : tile<4x16xf32>
    // expected-error@+1 {{unsupported combination of element types. Input type 'f64' expects accumulator/result type to be one of {'f64'}, but got 'f32'}}
    %r = mmaf %a, %b, %c : tile<4x8xf64>, tile<8x16xf64>, tile<4x16xf32>
  }
}

// -----

// Mmaf has no signedness.
// CHECK: error: expected ':'
cuda_tile.module @m {
  entry @k() {
    %a = constant <f32: 1.0> : tile<4x8xf32>
    %b = constant <f32: 1.0> : tile<8x16xf32>
    %c = constant <f32: 1.0> : tile<4x16xf32>
    // expected-error@+1 {{expected ':'}}
    %r = mmaf %a, %b, %c signed signed : tile<4x8xf32>, tile<8x16xf32>, tile<4x16xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmai' op operand #0 must be mmai operand tile type of i8 values, but got '!cuda_tile.tile<2x2xi16>'
// RULE: mmai.type-constraints
cuda_tile.module @m {
  entry @k() {
    %a = constant <i16: 1> : tile<2x2xi16>
    %b = constant <i16: 1> : tile<2x2xi16>
    %c = constant <i32: 1> : tile<2x2xi32>
    // expected-error@+1 {{'cuda_tile.mmai' op operand #0 must be mmai operand tile type of i8 values, but got '!cuda_tile.tile<2x2xi16>'}}
    %r = "cuda_tile.mmai"(%a, %b, %c) <{signedness_lhs = #cuda_tile.signedness<signed>, signedness_rhs = #cuda_tile.signedness<signed>}> : (!cuda_tile.tile<2x2xi16>, !cuda_tile.tile<2x2xi16>, !cuda_tile.tile<2x2xi32>) -> !cuda_tile.tile<2x2xi32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmai' op operand #2 must be mmai acc tile type of i32 values, but got '!cuda_tile.tile<2x2xi64>'
// RULE: mmai.type-constraints
cuda_tile.module @m {
  entry @k() {
    %a = constant <i8: 1> : tile<2x2xi8>
    %b = constant <i8: 1> : tile<2x2xi8>
    %c = constant <i64: 1> : tile<2x2xi64>
    // expected-error@+1 {{'cuda_tile.mmai' op operand #2 must be mmai acc tile type of i32 values, but got '!cuda_tile.tile<2x2xi64>'}}
    %r = "cuda_tile.mmai"(%a, %b, %c) <{signedness_lhs = #cuda_tile.signedness<signed>, signedness_rhs = #cuda_tile.signedness<signed>}> : (!cuda_tile.tile<2x2xi8>, !cuda_tile.tile<2x2xi8>, !cuda_tile.tile<2x2xi64>) -> !cuda_tile.tile<2x2xi64>
  }
}

// -----

// CHECK: error: custom op 'cuda_tile.mmai' expected signedness to be one of: {'signed', 'unsigned'}
cuda_tile.module @m {
  entry @k() {
    %a = constant <i8: 1> : tile<4x8xi8>
    %b = constant <i8: 1> : tile<8x16xi8>
    %c = constant <i32: 1> : tile<4x16xi32>
    // expected-error@below {{expected valid keyword}}
    // expected-error@+1 {{expected signedness to be one of: {'signed', 'unsigned'}}}
    %r = mmai %a, %b, %c signed : tile<4x8xi8>, tile<8x16xi8>, tile<4x16xi32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmai' op failed to verify that all of {lhs, rhs, acc} have same rank
// RULE: mmai.all-ranks-match
cuda_tile.module @m {
  entry @k() {
    %a = constant <i8: 1> : tile<4x8xi8>
    %b = constant <i8: 1> : tile<8x16xi8>
    %c = constant <i32: 1> : tile<2x4x16xi32>
    // expected-error@+1 {{failed to verify that all of {lhs, rhs, acc} have same rank}}
    %r = mmai %a, %b, %c signed signed : tile<4x8xi8>, tile<8x16xi8>, tile<2x4x16xi32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmai' op shape error: dim 0 of lhs (4) and dim 0 of acc (8) must match, but got lhs shape (4, 8) and acc shape (8, 16)
// RULE: mmai.m-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <i8: 1> : tile<4x8xi8>
    %b = constant <i8: 1> : tile<8x16xi8>
    %c = constant <i32: 1> : tile<8x16xi32>
    // expected-error@+1 {{shape error: dim 0 of lhs (4) and dim 0 of acc (8) must match, but got lhs shape (4, 8) and acc shape (8, 16)}}
    %r = mmai %a, %b, %c signed signed : tile<4x8xi8>, tile<8x16xi8>, tile<8x16xi32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op operand #0 must be mmaf_scaled operand tile type of f8E4M3FN or f8E5M2 or f4E2M1FN values, but got '!cuda_tile.tile<16x64xf16>'
// RULE: mmaf_scaled.type-constraints
cuda_tile.module @m {
  entry @k() {
    %a = constant <f16: 1.0> : tile<16x64xf16>
    %b = constant <f16: 1.0> : tile<64x16xf16>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<16x2xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<2x16xf8E8M0FNU>
    // expected-error@+1 {{'cuda_tile.mmaf_scaled' op operand #0 must be mmaf_scaled operand tile type of f8E4M3FN or f8E5M2 or f4E2M1FN values, but got '!cuda_tile.tile<16x64xf16>'}}
    %r = "cuda_tile.mmaf_scaled"(%a, %b, %c, %sa, %sb) : (!cuda_tile.tile<16x64xf16>, !cuda_tile.tile<64x16xf16>, !cuda_tile.tile<16x16xf32>, !cuda_tile.tile<16x2xf8E8M0FNU>, !cuda_tile.tile<2x16xf8E8M0FNU>) -> !cuda_tile.tile<16x16xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op operand #2 must be mmaf_scaled result tile type of f32 values, but got '!cuda_tile.tile<16x16xf16>'
// RULE: mmaf_scaled.type-constraints
cuda_tile.module @m {
  entry @k() {
    %a = constant <f8E5M2: 1.0> : tile<16x64xf8E5M2>
    %b = constant <f8E5M2: 1.0> : tile<64x16xf8E5M2>
    %c = constant <f16: 1.0> : tile<16x16xf16>
    %sa = constant <f8E8M0FNU: 1.0> : tile<16x2xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<2x16xf8E8M0FNU>
    // expected-error@+1 {{'cuda_tile.mmaf_scaled' op operand #2 must be mmaf_scaled result tile type of f32 values, but got '!cuda_tile.tile<16x16xf16>'}}
    %r = "cuda_tile.mmaf_scaled"(%a, %b, %c, %sa, %sb) : (!cuda_tile.tile<16x64xf8E5M2>, !cuda_tile.tile<64x16xf8E5M2>, !cuda_tile.tile<16x16xf16>, !cuda_tile.tile<16x2xf8E8M0FNU>, !cuda_tile.tile<2x16xf8E8M0FNU>) -> !cuda_tile.tile<16x16xf16>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op operand #3 must be mmaf_scaled scale tile type of f8E4M3FN or f8E8M0FNU or fnv8E5M3FNU values, but got '!cuda_tile.tile<16x2xf32>'
// RULE: mmaf_scaled.type-constraints
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<64x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f32: 1.0> : tile<16x2xf32>
    %sb = constant <f32: 1.0> : tile<2x16xf32>
    // expected-error@+1 {{'cuda_tile.mmaf_scaled' op operand #3 must be mmaf_scaled scale tile type of f8E4M3FN or f8E8M0FNU or fnv8E5M3FNU values, but got '!cuda_tile.tile<16x2xf32>'}}
    %r = "cuda_tile.mmaf_scaled"(%a, %b, %c, %sa, %sb) : (!cuda_tile.tile<16x64xf4E2M1FN>, !cuda_tile.tile<64x16xf4E2M1FN>, !cuda_tile.tile<16x16xf32>, !cuda_tile.tile<16x2xf32>, !cuda_tile.tile<2x16xf32>) -> !cuda_tile.tile<16x16xf32>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op failed to verify that all of {lhs, rhs} have the same element type
// RULE: mmaf_scaled.all-element-types-match
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %b = constant <f8E5M2: 1.0> : tile<64x16xf8E5M2>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<16x2xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<2x16xf8E8M0FNU>
    // expected-error@+1 {{failed to verify that all of {lhs, rhs} have the same element type}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf4E2M1FN>, tile<64x16xf8E5M2>, tile<16x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op failed to verify that all of {lhs_scale, rhs_scale} have the same element type
// RULE: mmaf_scaled.all-element-types-match
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<64x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<16x4xf8E8M0FNU>
    %sb = constant <f8E4M3FN: 1.0> : tile<4x16xf8E4M3FN>
    // expected-error@+1 {{failed to verify that all of {lhs_scale, rhs_scale} have the same element type}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x4xf8E8M0FNU>, tile<4x16xf8E4M3FN>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op failed to verify that all of {lhs, rhs, acc, lhs_scale, rhs_scale} have same rank
// RULE: mmaf_scaled.all-ranks-match
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<64x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<2x16x2xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<2x2x16xf8E8M0FNU>
    // expected-error@+1 {{failed to verify that all of {lhs, rhs, acc, lhs_scale, rhs_scale} have same rank}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<2x16x2xf8E8M0FNU>, tile<2x2x16xf8E8M0FNU>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: dim 1 of lhs (64) and dim 0 of rhs (32) must match, but got lhs shape (16, 64) and rhs shape (32, 16)
// RULE: mmaf_scaled.k-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<32x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<16x2xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<2x16xf8E8M0FNU>
    // expected-error@+1 {{shape error: dim 1 of lhs (64) and dim 0 of rhs (32) must match, but got lhs shape (16, 64) and rhs shape (32, 16)}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf4E2M1FN>, tile<32x16xf4E2M1FN>, tile<16x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: dim 0 of lhs (4) and dim 0 of lhs_scale (2) must match, but got lhs shape (4, 16, 64) and lhs_scale shape (2, 16, 2)
// RULE: mmaf_scaled.lhs-scale-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<4x16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<4x64x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<4x16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<2x16x2xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<4x2x16xf8E8M0FNU>
    // expected-error@+1 {{shape error: dim 0 of lhs (4) and dim 0 of lhs_scale (2) must match, but got lhs shape (4, 16, 64) and lhs_scale shape (2, 16, 2)}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<4x16x64xf4E2M1FN>, tile<4x64x16xf4E2M1FN>, tile<4x16x16xf32>, tile<2x16x2xf8E8M0FNU>, tile<4x2x16xf8E8M0FNU>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: dim 0 of rhs (2) and dim 0 of rhs_scale (4) must match, but got rhs shape (2, 64, 16) and rhs_scale shape (4, 2, 16)
// RULE: mmaf_scaled.rhs-scale-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<2x16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<2x64x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<2x16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<2x16x2xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<4x2x16xf8E8M0FNU>
    // expected-error@+1 {{shape error: dim 0 of rhs (2) and dim 0 of rhs_scale (4) must match, but got rhs shape (2, 64, 16) and rhs_scale shape (4, 2, 16)}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<2x16x64xf4E2M1FN>, tile<2x64x16xf4E2M1FN>, tile<2x16x16xf32>, tile<2x16x2xf8E8M0FNU>, tile<4x2x16xf8E8M0FNU>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: dim 0 of lhs (16) and dim 0 of lhs_scale (8) must match, but got lhs shape (16, 64) and lhs_scale shape (8, 2)
// RULE: mmaf_scaled.lhs-scale-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<64x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<8x2xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<2x16xf8E8M0FNU>
    // expected-error@+1 {{shape error: dim 0 of lhs (16) and dim 0 of lhs_scale (8) must match, but got lhs shape (16, 64) and lhs_scale shape (8, 2)}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<8x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: dim 1 of rhs (16) and dim 1 of rhs_scale (8) must match, but got rhs shape (64, 16) and rhs_scale shape (2, 8)
// RULE: mmaf_scaled.rhs-scale-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<64x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<16x2xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<2x8xf8E8M0FNU>
    // expected-error@+1 {{shape error: dim 1 of rhs (16) and dim 1 of rhs_scale (8) must match, but got rhs shape (64, 16) and rhs_scale shape (2, 8)}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x8xf8E8M0FNU>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: dim 1 of lhs_scale (4) and dim 0 of rhs_scale (2) must match, but got lhs_scale shape (16, 4) and rhs_scale shape (2, 16)
// RULE: mmaf_scaled.scale-k-dims
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<64x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<16x4xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<2x16xf8E8M0FNU>
    // expected-error@+1 {{shape error: dim 1 of lhs_scale (4) and dim 0 of rhs_scale (2) must match, but got lhs_scale shape (16, 4) and rhs_scale shape (2, 16)}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x4xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op unsupported combination of element types. Scale type 'f8E4M3FN' expects lhs and rhs element types to be 'f4E2M1FN', but got 'f8E5M2'
// RULE: mmaf_scaled.scale-type-combination
cuda_tile.module @m {
  entry @k() {
    %a = constant <f8E5M2: 1.0> : tile<16x64xf8E5M2>
    %b = constant <f8E5M2: 1.0> : tile<64x16xf8E5M2>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E4M3FN: 1.0> : tile<16x4xf8E4M3FN>
    %sb = constant <f8E4M3FN: 1.0> : tile<4x16xf8E4M3FN>
    // expected-error@+1 {{unsupported combination of element types. Scale type 'f8E4M3FN' expects lhs and rhs element types to be 'f4E2M1FN', but got 'f8E5M2'}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf8E5M2>, tile<64x16xf8E5M2>, tile<16x16xf32>, tile<16x4xf8E4M3FN>, tile<4x16xf8E4M3FN>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: dim 1 of lhs_scale (32) must be a divisor of dim 1 of lhs (16), but got lhs_scale shape (16, 32) and lhs shape (16, 16)
// RULE: mmaf_scaled.scale-divides-k
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<16x16xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<16x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<16x32xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<32x16xf8E8M0FNU>
    // expected-error@+1 {{shape error: dim 1 of lhs_scale (32) must be a divisor of dim 1 of lhs (16), but got lhs_scale shape (16, 32) and lhs shape (16, 16)}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x16xf4E2M1FN>, tile<16x16xf4E2M1FN>, tile<16x16xf32>, tile<16x32xf8E8M0FNU>, tile<32x16xf8E8M0FNU>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: f8 element type requires block scale factor of lhs_scale and rhs_scale to be 32, but got 16
// RULE: mmaf_scaled.f8-block-32
cuda_tile.module @m {
  entry @k() {
    %a = constant <f8E4M3FN: 1.0> : tile<16x64xf8E4M3FN>
    %b = constant <f8E4M3FN: 1.0> : tile<64x16xf8E4M3FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<16x4xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<4x16xf8E8M0FNU>
    // expected-error@+1 {{shape error: f8 element type requires block scale factor of lhs_scale and rhs_scale to be 32, but got 16}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf8E4M3FN>, tile<64x16xf8E4M3FN>, tile<16x16xf32>, tile<16x4xf8E8M0FNU>, tile<4x16xf8E8M0FNU>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: f4E2M1FN element type with f8E4M3FN scales requires block scale factor of lhs_scale and rhs_scale to be 16, but got 32
// RULE: mmaf_scaled.f4-e4m3-block-16
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<64x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E4M3FN: 1.0> : tile<16x2xf8E4M3FN>
    %sb = constant <f8E4M3FN: 1.0> : tile<2x16xf8E4M3FN>
    // expected-error@+1 {{shape error: f4E2M1FN element type with f8E4M3FN scales requires block scale factor of lhs_scale and rhs_scale to be 16, but got 32}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x2xf8E4M3FN>, tile<2x16xf8E4M3FN>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: f4E2M1FN element type with f8E8M0FNU scales requires block scale factor of lhs_scale and rhs_scale to be 16 or 32, but got 8
// RULE: mmaf_scaled.f4-e8m0-block-16-or-32
cuda_tile.module @m {
  entry @k() {
    %a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<64x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<16x8xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 1.0> : tile<8x16xf8E8M0FNU>
    // expected-error@+1 {{shape error: f4E2M1FN element type with f8E8M0FNU scales requires block scale factor of lhs_scale and rhs_scale to be 16 or 32, but got 8}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x8xf8E8M0FNU>, tile<8x16xf8E8M0FNU>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op unsupported combination of element types. Scale type '{{f8E5M3FNU|fnv8E5M3FNU}}' expects lhs and rhs element types to be 'f4E2M1FN', but got 'f8E4M3FN'
// RULE: mmaf_scaled.scale-type-combination
cuda_tile.module @m {
  entry @k(%s: tile<fnv8E5M3FNU>) {
    %a = constant <f8E4M3FN: 1.0> : tile<16x64xf8E4M3FN>
    %b = constant <f8E4M3FN: 1.0> : tile<64x16xf8E4M3FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %s1 = reshape %s : tile<fnv8E5M3FNU> -> tile<1x1xfnv8E5M3FNU>
    %sa = broadcast %s1 : tile<1x1xfnv8E5M3FNU> -> tile<16x2xfnv8E5M3FNU>
    %sb = broadcast %s1 : tile<1x1xfnv8E5M3FNU> -> tile<2x16xfnv8E5M3FNU>
    // expected-error@+1 {{expects lhs and rhs element types to be 'f4E2M1FN', but got 'f8E4M3FN'}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf8E4M3FN>, tile<64x16xf8E4M3FN>, tile<16x16xf32>, tile<16x2xfnv8E5M3FNU>, tile<2x16xfnv8E5M3FNU>
  }
}

// -----

// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: f4E2M1FN element type with {{f8E5M3FNU|fnv8E5M3FNU}} scales requires block scale factor of lhs_scale and rhs_scale to be 16 or 32, but got 8
// RULE: mmaf_scaled.f4-e5m3-block-16-or-32
cuda_tile.module @m {
  entry @k(%s: tile<fnv8E5M3FNU>) {
    %a = constant <f4E2M1FN: 1.0> : tile<16x64xf4E2M1FN>
    %b = constant <f4E2M1FN: 1.0> : tile<64x16xf4E2M1FN>
    %c = constant <f32: 1.0> : tile<16x16xf32>
    %s1 = reshape %s : tile<fnv8E5M3FNU> -> tile<1x1xfnv8E5M3FNU>
    %sa = broadcast %s1 : tile<1x1xfnv8E5M3FNU> -> tile<16x8xfnv8E5M3FNU>
    %sb = broadcast %s1 : tile<1x1xfnv8E5M3FNU> -> tile<8x16xfnv8E5M3FNU>
    // expected-error@+1 {{scales requires block scale factor of lhs_scale and rhs_scale to be 16 or 32, but got 8}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf4E2M1FN>, tile<64x16xf4E2M1FN>, tile<16x16xf32>, tile<16x8xfnv8E5M3FNU>, tile<8x16xfnv8E5M3FNU>
  }
}

// -----

// RULE: mmai.all-types-match
cuda_tile.module @m {
  testing$func @k(%a: tile<4x8xi8>, %b: tile<8x16xi8>, %c: tile<4x16xi32>) {
    // expected-error@+1 {{'cuda_tile.mmai' op failed to verify that all of {acc, result} have same type}}
    %r = "cuda_tile.mmai"(%a, %b, %c) <{signedness_lhs = #cuda_tile.signedness<signed>, signedness_rhs = #cuda_tile.signedness<signed>}> : (!cuda_tile.tile<4x8xi8>, !cuda_tile.tile<8x16xi8>, !cuda_tile.tile<4x16xi32>) -> !cuda_tile.tile<4x8xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.mmai' op failed to verify that all of {acc, result} have same type

// -----

// RULE: mmaf_scaled.all-types-match
cuda_tile.module @m {
  testing$func @k(%a: tile<16x64xf8E4M3FN>, %b: tile<64x16xf8E4M3FN>, %c: tile<16x16xf32>, %sa: tile<16x2xf8E8M0FNU>, %sb: tile<2x16xf8E8M0FNU>) {
    // expected-error@+1 {{'cuda_tile.mmaf_scaled' op failed to verify that all of {acc, result} have same type}}
    %r = "cuda_tile.mmaf_scaled"(%a, %b, %c, %sa, %sb) : (!cuda_tile.tile<16x64xf8E4M3FN>, !cuda_tile.tile<64x16xf8E4M3FN>, !cuda_tile.tile<16x16xf32>, !cuda_tile.tile<16x2xf8E8M0FNU>, !cuda_tile.tile<2x16xf8E8M0FNU>) -> !cuda_tile.tile<16x32xf32>
    return
  }
}
// CHECK: error: 'cuda_tile.mmaf_scaled' op failed to verify that all of {acc, result} have same type

// -----

// RULE: mmai.rank-2-or-3
cuda_tile.module @m {
  testing$func @k(%a: tile<8xi8>, %c: tile<8xi32>) {
    // expected-error@+1 {{'cuda_tile.mmai' op operands must be 2D or 3D tiles}}
    %r = mmai %a, %a, %c signed signed : tile<8xi8>, tile<8xi8>, tile<8xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.mmai' op operands must be 2D or 3D tiles

// -----

// RULE: mmai.batch-dims
cuda_tile.module @m {
  testing$func @k(%a: tile<2x4x8xi8>, %b: tile<4x8x16xi8>, %c: tile<2x4x16xi32>) {
    // expected-error@+1 {{'cuda_tile.mmai' op shape error: dim 0 of lhs (2) and dim 0 of rhs (4) must match, but got lhs shape (2, 4, 8) and rhs shape (4, 8, 16)}}
    %r = mmai %a, %b, %c signed signed : tile<2x4x8xi8>, tile<4x8x16xi8>, tile<2x4x16xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.mmai' op shape error: dim 0 of lhs (2) and dim 0 of rhs (4) must match, but got lhs shape (2, 4, 8) and rhs shape (4, 8, 16)

// -----

// RULE: mmai.k-dims
cuda_tile.module @m {
  testing$func @k(%a: tile<4x8xi8>, %b: tile<16x16xi8>, %c: tile<4x16xi32>) {
    // expected-error@+1 {{'cuda_tile.mmai' op shape error: dim 1 of lhs (8) and dim 0 of rhs (16) must match, but got lhs shape (4, 8) and rhs shape (16, 16)}}
    %r = mmai %a, %b, %c signed signed : tile<4x8xi8>, tile<16x16xi8>, tile<4x16xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.mmai' op shape error: dim 1 of lhs (8) and dim 0 of rhs (16) must match, but got lhs shape (4, 8) and rhs shape (16, 16)

// -----

// RULE: mmai.n-dims
cuda_tile.module @m {
  testing$func @k(%a: tile<4x8xi8>, %b: tile<8x16xi8>, %c: tile<4x32xi32>) {
    // expected-error@+1 {{'cuda_tile.mmai' op shape error: dim 1 of rhs (16) and dim 1 of acc (32) must match, but got rhs shape (8, 16) and acc shape (4, 32)}}
    %r = mmai %a, %b, %c signed signed : tile<4x8xi8>, tile<8x16xi8>, tile<4x32xi32>
    return
  }
}
// CHECK: error: 'cuda_tile.mmai' op shape error: dim 1 of rhs (16) and dim 1 of acc (32) must match, but got rhs shape (8, 16) and acc shape (4, 32)

// -----

// RULE: mmaf_scaled.rank-2-or-3
cuda_tile.module @m {
  testing$func @k(%a: tile<64xf8E4M3FN>, %c: tile<64xf32>, %s: tile<2xf8E8M0FNU>) {
    // expected-error@+1 {{'cuda_tile.mmaf_scaled' op operands must be 2D or 3D tiles}}
    %r = mmaf_scaled %a, %a, %c, %s, %s : tile<64xf8E4M3FN>, tile<64xf8E4M3FN>, tile<64xf32>, tile<2xf8E8M0FNU>, tile<2xf8E8M0FNU>
    return
  }
}
// CHECK: error: 'cuda_tile.mmaf_scaled' op operands must be 2D or 3D tiles

// -----

// RULE: mmaf_scaled.batch-dims
cuda_tile.module @m {
  testing$func @k(%a: tile<2x16x64xf8E4M3FN>, %b: tile<4x64x16xf8E4M3FN>, %c: tile<2x16x16xf32>, %sa: tile<2x16x2xf8E8M0FNU>, %sb: tile<4x2x16xf8E8M0FNU>) {
    // expected-error@+1 {{'cuda_tile.mmaf_scaled' op shape error: dim 0 of lhs (2) and dim 0 of rhs (4) must match, but got lhs shape (2, 16, 64) and rhs shape (4, 64, 16)}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<2x16x64xf8E4M3FN>, tile<4x64x16xf8E4M3FN>, tile<2x16x16xf32>, tile<2x16x2xf8E8M0FNU>, tile<4x2x16xf8E8M0FNU>
    return
  }
}
// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: dim 0 of lhs (2) and dim 0 of rhs (4) must match, but got lhs shape (2, 16, 64) and rhs shape (4, 64, 16)

// -----

// RULE: mmaf_scaled.m-dims
cuda_tile.module @m {
  testing$func @k(%a: tile<16x64xf8E4M3FN>, %b: tile<64x16xf8E4M3FN>, %c: tile<32x16xf32>, %sa: tile<16x2xf8E8M0FNU>, %sb: tile<2x16xf8E8M0FNU>) {
    // expected-error@+1 {{'cuda_tile.mmaf_scaled' op shape error: dim 0 of lhs (16) and dim 0 of acc (32) must match, but got lhs shape (16, 64) and acc shape (32, 16)}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf8E4M3FN>, tile<64x16xf8E4M3FN>, tile<32x16xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
    return
  }
}
// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: dim 0 of lhs (16) and dim 0 of acc (32) must match, but got lhs shape (16, 64) and acc shape (32, 16)

// -----

// RULE: mmaf_scaled.n-dims
cuda_tile.module @m {
  testing$func @k(%a: tile<16x64xf8E4M3FN>, %b: tile<64x16xf8E4M3FN>, %c: tile<16x32xf32>, %sa: tile<16x2xf8E8M0FNU>, %sb: tile<2x16xf8E8M0FNU>) {
    // expected-error@+1 {{'cuda_tile.mmaf_scaled' op shape error: dim 1 of rhs (16) and dim 1 of acc (32) must match, but got rhs shape (64, 16) and acc shape (16, 32)}}
    %r = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf8E4M3FN>, tile<64x16xf8E4M3FN>, tile<16x32xf32>, tile<16x2xf8E8M0FNU>, tile<2x16xf8E8M0FNU>
    return
  }
}
// CHECK: error: 'cuda_tile.mmaf_scaled' op shape error: dim 1 of rhs (16) and dim 1 of acc (32) must match, but got rhs shape (64, 16) and acc shape (16, 32)
